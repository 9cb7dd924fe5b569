"""Writing systems cardgen can print: a text in, the first character of a script it cannot print
correctly (and that script) out.

cardgen draws most text a character's glyph at a time, left to right, as the font gives it: right
for Latin, Cyrillic, Greek, Armenian, Georgian, Ethiopic, Chinese, Japanese kana and kanji, Korean
hangul syllables and the like. Scripts whose letters change shape with their neighbours, join up,
stack or run right to left need shaping: cardgen shapes Hebrew, Arabic (with the Persian and Urdu
letters) and Devanagari with HarfBuzz and lays out the right-to-left ones by the bidi algorithm
(:mod:`cardgen.text.shaping`, :data:`SHAPED`). The others it has no font and shaping rules for yet:
Thai would print its marks unstacked, Bengali without its conjuncts, so their text is refused rather
than printed wrong. docs/designing.md lists the kinds.

Also the invisible characters a text may hold: a text in, its first format character (Unicode
category Cf) that has no place there out; and a text as it looks, for telling whether two are the same.
"""

from __future__ import annotations

import re
import unicodedata

# (first, last, script, what it needs); Unicode blocks, in order.
_NEEDS_SHAPING: tuple[tuple[int, int, str, str], ...] = (
    (0x0590, 0x05FF, "Hebrew", "right to left"),
    (0x0600, 0x06FF, "Arabic", "joined letters, right to left"),
    (0x0700, 0x074F, "Syriac", "joined letters, right to left"),
    (0x0750, 0x077F, "Arabic", "joined letters, right to left"),
    (0x0780, 0x07BF, "Thaana", "right to left"),
    (0x07C0, 0x07FF, "N'Ko", "joined letters, right to left"),
    (0x0800, 0x08FF, "Arabic", "joined letters, right to left"),  # Samaritan, Mandaic, Arabic Extended
    (0x0900, 0x097F, "Devanagari", "conjuncts and vowel signs"),
    (0x0980, 0x09FF, "Bengali", "conjuncts and vowel signs"),
    (0x0A00, 0x0A7F, "Gurmukhi", "conjuncts and vowel signs"),
    (0x0A80, 0x0AFF, "Gujarati", "conjuncts and vowel signs"),
    (0x0B00, 0x0B7F, "Oriya", "conjuncts and vowel signs"),
    (0x0B80, 0x0BFF, "Tamil", "vowel signs"),
    (0x0C00, 0x0C7F, "Telugu", "conjuncts and vowel signs"),
    (0x0C80, 0x0CFF, "Kannada", "conjuncts and vowel signs"),
    (0x0D00, 0x0D7F, "Malayalam", "conjuncts and vowel signs"),
    (0x0D80, 0x0DFF, "Sinhala", "conjuncts and vowel signs"),
    (0x0E00, 0x0E7F, "Thai", "stacked vowel and tone marks"),
    (0x0E80, 0x0EFF, "Lao", "stacked vowel and tone marks"),
    (0x0F00, 0x0FFF, "Tibetan", "stacked letters"),
    (0x1000, 0x109F, "Myanmar", "reordered and stacked letters"),
    (0x1780, 0x17FF, "Khmer", "stacked letters"),
    (0x1800, 0x18AF, "Mongolian", "joined letters, written top to bottom"),
    (0x1900, 0x1CFF, "an Indic or Southeast Asian script", "shaping"),
    (0xA800, 0xABFF, "an Indic or Southeast Asian script", "shaping"),
    (0xFB1D, 0xFB4F, "Hebrew", "right to left"),
    (0xFB50, 0xFDFF, "Arabic", "joined letters, right to left"),
    (0xFE70, 0xFEFE, "Arabic", "joined letters, right to left"),  # U+FEFF is the invisible BOM
    (0x10800, 0x10FFF, "a right-to-left script", "right to left"),
    (0x11000, 0x11FFF, "an Indic script", "shaping"),
    (0x1E800, 0x1EFFF, "a right-to-left script", "right to left"),
)


# The blocks of those that cardgen shapes (HarfBuzz) and lays out right to left where they run so, with
# fonts from the `world` extra: Hebrew, Arabic and its Persian and Urdu letters, Devanagari.
SHAPED: frozenset[tuple[int, int]] = frozenset(
    {
        (0x0590, 0x05FF),
        (0x0600, 0x06FF),
        (0x0750, 0x077F),
        (0x0900, 0x097F),
        (0xFB1D, 0xFB4F),
        (0xFB50, 0xFDFF),
        (0xFE70, 0xFEFE),
    }
)
_REFUSED = tuple(row for row in _NEEDS_SHAPING if row[:2] not in SHAPED)

# Any character of the scripts still refused, found in one search: nearly every text has none.
_ANY = re.compile(
    "[" + "".join(f"{re.escape(chr(first))}-{re.escape(chr(last))}" for first, last, _, _ in _REFUSED) + "]"
)


def unsupported(text: str) -> tuple[str, str, str] | None:
    """(the character, its script, what printing it needs) for the first character of text in a
    script cardgen cannot print correctly, or None."""
    found = _ANY.search(text)
    if found is None:
        return None
    for char in text[found.start() :]:
        code = ord(char)
        if code < 0x0590 or 0x1D00 <= code < 0xA800 or 0xAC00 <= code < 0xFB1D:
            continue
        for first, last, script, needs in _REFUSED:
            if first <= code <= last:
                return char, script, needs
    return None


# Scripts whose letters change shape with their neighbours: there a zero-width non-joiner or joiner between
# two letters is spelling (Persian's ZWNJ in می‌خواهم, a half form's ZWJ in Devanagari), not a trick.
_JOINING = frozenset(
    {
        "Arabic",
        "Syriac",
        "N'Ko",
        "Mongolian",
        "Devanagari",
        "Bengali",
        "Gurmukhi",
        "Gujarati",
        "Oriya",
        "Tamil",
        "Telugu",
        "Kannada",
        "Malayalam",
        "Sinhala",
        "Myanmar",
        "Khmer",
        "an Indic or Southeast Asian script",
        "an Indic script",
    }
)
JOINERS = "\u200c\u200d"
SOFT_HYPHEN = "\u00ad"


def invisible(text: str, word: bool) -> tuple[int, str] | None:
    """(index, character) of the first format character of text (Unicode category Cf: a bidi control, a
    zero-width space, a BOM...) that has no place there, or None.

    They reorder what a page shows ("Seer" as "reeS") or hide a difference between two names, and cardgen
    prints none of them. Kept: a joiner inside a word of a script it shapes (:data:`_JOINING`), and, in a
    running text but not in a `word` (a name, a title, a game's word, shown whole and compared), a soft
    hyphen: a long German or Finnish word may mark where it can be hyphenated, as ReportLab and browsers do.
    """
    # A format character is never printable: most texts, printable once their lines are joined, hold none.
    if text.isascii() or text.replace("\n", "").isprintable():
        return None
    for index, char in enumerate(text):
        if char < SOFT_HYPHEN or unicodedata.category(char) != "Cf":
            continue
        if (char in JOINERS and _joins(text, index)) or (char == SOFT_HYPHEN and not word):
            continue
        return index, char
    return None


def _joins(text: str, index: int) -> bool:
    """Whether the character at index stands between two letters (or a letter's marks) of one joining script."""
    if index == 0 or index + 1 >= len(text):
        return False
    before, after = text[index - 1], text[index + 1]
    script = _script(before)
    return (
        script in _JOINING
        and _script(after) == script
        and all(unicodedata.category(char)[0] in "LM" for char in (before, after))
    )


def _script(char: str) -> str | None:
    code = ord(char)
    return next((script for first, last, script, _ in _NEEDS_SHAPING if first <= code <= last), None)


def looks(text: str) -> str:
    """A text as a reader sees it: composed (NFC), without format characters, its spaces collapsed. Two
    texts that look the same give the same."""
    shown = "".join(char for char in text if char < SOFT_HYPHEN or unicodedata.category(char) != "Cf")
    return " ".join(unicodedata.normalize("NFC", shown).split())
