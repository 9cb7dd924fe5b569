"""Own words: texts → sentences → hashed shingles, and how close a sentence comes to a source's.

A text comes in (a deck's or a template's string, or a whole source rulebook); out come its sentences,
each normalised (NFC, lower case, no markup or punctuation, Vietnamese tone marks moved to the end of
their syllable so that "thuỷ" and "thủy" are one word) and cut into shingles, overlapping runs of a
few characters (Chinese without its spaces, which it does not have). A shingle is kept as the
first 4 bytes of its BLAKE2b hash, so the source rulebooks, which are not ours to copy, are stored as
hashes only (tests/data/source_fingerprints.json): the score below needs nothing else.

The score of a sentence of ours against a source sentence is the Dice coefficient of their shingle
sets, which follows difflib's ratio closely (test_own_words.py says how closely, which scores fail
and why).

Run ``python tests/own_words.py FOLDER`` to write the fingerprints again from the source rulebooks in
FOLDER (plain-text files; each one's language is told by its letters).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import yaml

FINGERPRINTS = Path(__file__).parent / "data" / "source_fingerprints.json"
# Characters per shingle. Five letters with their spaces are about a word and a half of Vietnamese or
# Spanish; two Chinese characters are about a word. Measured on the sources, the score below then
# ranks sentence pairs as difflib's ratio does, which needs the text itself.
SHINGLE = {"vi": 5, "es": 5, "zh": 2}
# Fewer shingles than this (about 20 letters, or 8 Chinese characters) and a sentence is too short to
# be anyone's own: "Mọi người nhắm mắt.", "所有人睁眼。" are said the same way by everyone.
LEAST = {"vi": 20, "es": 20, "zh": 8}
# 32 bits a shingle: across the whole check, a chance collision adds about one shared shingle, too few
# to move a score; and the short hashes keep the file small.
DIGEST = 4

# Sentences end at . ! ? ; … followed by a space (not "1.5"), at a Chinese full stop, and at a line.
_SENTENCE_END = re.compile(r"(?<=[.!?;…])\s+|(?<=[。！？；])|\n+")
_MARKUP = re.compile(r"\{[^{}]*\}|:[a-z0-9-]+:|[*_`◆#|]")
_TONES = "\u0300\u0301\u0303\u0309\u0323"  # Vietnamese tone marks, decomposed


def sentences(text: str) -> Iterator[str]:
    """The sentences of ``text``, as written (list markers and blank ones left out)."""
    for piece in _SENTENCE_END.split(text):
        piece = re.sub(r"^\s*(?:[-•*]|\d+[.)]|[①-⑳])\s+", "", piece).strip()
        if piece:
            yield piece


def normalise(sentence: str, lang: str) -> str:
    """``sentence`` as the comparison sees it: its words in lower case, one space apart (zh: no spaces)."""
    text = _MARKUP.sub(" ", unicodedata.normalize("NFC", sentence)).lower()
    words = re.findall(r"\w+", text)
    if lang == "vi":
        words = [_tone_last(word) for word in words]
    return "".join(words) if lang == "zh" else " ".join(words)


def _tone_last(word: str) -> str:
    """A Vietnamese syllable with its tone mark moved to its end: one spelling for either placement."""
    letters = unicodedata.normalize("NFD", word)
    tones = "".join(c for c in letters if c in _TONES)
    return unicodedata.normalize("NFC", "".join(c for c in letters if c not in _TONES) + tones)


def shingles(normalised: str, lang: str) -> set[bytes]:
    """The hashed shingles (character n-grams, spaces included) of a normalised sentence."""
    size = SHINGLE[lang]
    runs = {normalised[i : i + size] for i in range(len(normalised) - size + 1)}
    return {hashlib.blake2b(run.encode(), digest_size=DIGEST).digest() for run in runs}


class Source:
    """One language's source sentences as shingle sets, with an index from shingle to sentence."""

    def __init__(self, lang: str, sets: Iterable[set[bytes]]) -> None:
        self.lang = lang
        self.sets = [s for s in sets if s]
        self.index: dict[bytes, list[int]] = {}
        for number, shingle_set in enumerate(self.sets):
            for shingle in shingle_set:
                self.index.setdefault(shingle, []).append(number)

    def best(self, ours: set[bytes]) -> tuple[float, int]:
        """The highest Dice score of ``ours`` with a source sentence, and that sentence's number (-1
        when none shares a shingle)."""
        shared: Counter[int] = Counter()
        for shingle in ours:
            shared.update(self.index.get(shingle, ()))
        # What the index counted is |A ∩ B| for each sentence B: Dice without intersecting sets.
        return max(
            ((2 * count / (len(ours) + len(self.sets[n])), n) for n, count in shared.items()),
            default=(0.0, -1),
        )


def load_fingerprints(path: Path = FINGERPRINTS) -> dict[str, Source]:
    """The committed fingerprints: a Source per language."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        lang: Source(lang, (_unpack(packed) for packed in entry["sentences"]))
        for lang, entry in data["languages"].items()
    }


def _unpack(packed: str) -> set[bytes]:
    raw = base64.b64decode(packed)
    return {raw[i : i + DIGEST] for i in range(0, len(raw), DIGEST)}


def our_texts(root: Path) -> Iterator[tuple[str, int, str, str]]:
    """Every sentence of the bundled decks (not Werewords' word lists) and of cardgen's own words:
    (file relative to ``root``, line, language, sentence)."""
    files = [p for p in sorted((root / "decks").glob("*/**/*.yaml")) if "words" not in p.parts]
    files += [root / "templates" / name for name in TEMPLATE_TEXTS]
    for path in files:
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        for line, lang, text in _strings(node, None):
            offset = 0
            for sentence in sentences(text):
                offset = text.index(sentence, offset)
                yield str(path.relative_to(root)), line + text.count("\n", 0, offset), lang, sentence


TEMPLATE_TEXTS = (
    "strings.yaml",
    "documents/text.yaml",
    "narrator/text.yaml",
    "narrator/narrator.yaml",
    "site/text.yaml",
)


def _strings(node: yaml.Node | None, lang: str | None) -> Iterator[tuple[int, str, str]]:
    """(line, language, text) of every string under a language key."""
    if isinstance(node, yaml.ScalarNode) and lang and isinstance(node.value, str):
        block = node.style in ("|", ">")
        yield node.start_mark.line + 1 + block, lang, node.value
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _strings(value, key.value if key.value in LANGUAGES else lang)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _strings(item, lang)


LANGUAGES = ("en", "vi", "zh", "es")


def language_of(text: str) -> str:
    """A source's language from its letters: Chinese characters, Vietnamese ơ ư đ, or Spanish."""
    letters = [c for c in text if c.isalpha()]
    if sum("\u4e00" <= c <= "\u9fff" for c in letters) > len(letters) / 3:
        return "zh"
    if sum(c in "ơưđƠƯĐ" for c in text) > len(letters) / 100:
        return "vi"
    return "es"


def fingerprint(folder: Path) -> dict[str, object]:
    """The fingerprints of every .txt source rulebook in ``folder``, by language."""
    languages: dict[str, dict[str, list[str]]] = {}
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        lang = language_of(text)
        entry = languages.setdefault(lang, {"files": [], "sentences": []})
        entry["files"].append(f"{path.name} sha256:{hashlib.sha256(text.encode()).hexdigest()[:16]}")
        for sentence in sentences(text):
            shingle_set = shingles(normalise(sentence, lang), lang)
            if len(shingle_set) >= LEAST[lang]:
                entry["sentences"].append(base64.b64encode(b"".join(sorted(shingle_set))).decode())
    return {
        "about": "Per language, each source sentence of LEAST shingles or more as the first 4 bytes of the BLAKE2b hash of each of "
        "its shingles (tests/own_words.py: character 5-grams for vi and es, 2-grams for zh), "
        "concatenated and base64-encoded. Written by `python tests/own_words.py FOLDER`.",
        "shingle": {lang: SHINGLE[lang] for lang in sorted(languages)},
        "languages": dict(sorted(languages.items())),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python tests/own_words.py FOLDER-OF-SOURCE-RULEBOOKS", file=sys.stderr)
        return 2
    data = fingerprint(Path(argv[0]))
    FINGERPRINTS.parent.mkdir(exist_ok=True)
    FINGERPRINTS.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for lang, entry in data["languages"].items():  # type: ignore[attr-defined]
        print(f"{lang}: {len(entry['sentences'])} sentences from {', '.join(entry['files'])}")
    print(f"wrote {FINGERPRINTS} ({FINGERPRINTS.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
