"""Line breaking by the character: (font, text) runs, a width in points and a language's rules in;
lines of runs out.

Chinese and Japanese (``cjk`` in fonts.yaml) are broken into lines here, between characters, and
Korean (``keep-all``) at spaces, on cards and in documents alike, with the line-start and line-end
rules of CJK typesetting (kinsoku): ReportLab's own CJK wrapping keeps at most one punctuation mark
off a line start by letting it hang past the right edge, so "。”", "……" or "）。" still started lines
and "（" or "“" ended them. The lines are drawn as given: on cards by ReportLab, each kept whole
(re-breaking by the character took ten times as long, to the same lines), in documents by
cardgen.documents.text.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import accumulate

from reportlab.lib import textsplit

from cardgen.core import reportlab_private
from cardgen.text import shaping
from cardgen.text.fonts import ICON, FontBook, primary

# Full-width and other punctuation that may not start a line, beyond ReportLab's list; and the asterisk:
# a footnote's mark (`每晚\*`, an escaped one) stays with the word it marks.
EXTRA_CANNOT_START = (
    "，。．、：；！？）］｝〕〉》」』】〗〙〛〞〟’”»›…‥—–～〜·・ー々〻％‰℃°′″*"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"
)
OBJECT = "\ufffc"  # stands for an inline icon where lines are broken by character
NO_BREAK = "\u00a0"  # a space that holds its neighbours on one line, as ReportLab's wrapping does
CANNOT_END = "([{（［｛〔〈《「『【〖〘〚〝‘“«‹"


# ReportLab's list (public) and ours.
CANNOT_START = frozenset(textsplit.ALL_CANNOT_START + EXTRA_CANNOT_START)

# What Japanese adds, from the line-breaking rules of JIS X 4051 as W3C's "Requirements for Japanese
# Text Layout" (JLREQ, 3.1.7 and appendix A) gives them: small kana of the Ainu extension (cl-11),
# the double hyphen (cl-03), doubled ! and ? (cl-04), the ASCII closing brace, the half-width forms of
# closing brackets, stops, the middle dot, small kana and the prolonged sound mark, and postfixed units
# (cl-19) may not start a line; opening brackets (cl-01) in half-width and white forms, and prefixed currency and number
# signs (cl-18), may not end one; nor may a digit, so that a number stays with its counter (10人, 3日目).
JAPANESE_CANNOT_START = "ㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ゠‼⁇⁈⁉｡｣､･ｧｨｩｪｫｬｭｮｯｰ}%¢"
JAPANESE_CANNOT_END = "｢｟⦅¥$£#€№￥＄￡＃" + "0123456789０１２３４５６７８９"


@dataclass(frozen=True)
class Rules:
    """Where a language's lines may break: not before a character of `cannot_start`, not after one of
    `cannot_end`; `keep_all`: only at white space (Korean keeps a word's syllables together), between
    any two characters only where a word is wider than the line."""

    cannot_start: frozenset[str]
    cannot_end: frozenset[str]
    keep_all: bool = False


CHINESE = Rules(CANNOT_START, frozenset(CANNOT_END))
JAPANESE = Rules(CANNOT_START | set(JAPANESE_CANNOT_START), frozenset(CANNOT_END + JAPANESE_CANNOT_END))
# Korean forbids the same at a line's start and end (W3C's "Requirements for Hangul Text Layout and
# Typography", KLREQ 3.1: closing brackets and quotes, . , ! ? : ; and the ellipsis do not start a line,
# opening brackets and quotes do not end one) but breaks at spaces. Its rules are every keep-all
# language's.
KOREAN = replace(JAPANESE, keep_all=True)
# A cjk language's own rules, by its primary subtag; the others have Chinese's.
KINSOKU = {"ja": JAPANESE}


def line_rules(book: FontBook, langs: Iterable[str]) -> Rules | None:
    """The rules of the first of langs whose lines are broken here, None when none is: such a text is
    broken between words (cardgen.text.lines.word_lines)."""
    for lang in langs:
        if book.is_keep_all(lang):
            return KOREAN
        if book.is_cjk(lang):
            return KINSOKU.get(primary(lang), CHINESE)
    return None


def split_newlines(pieces: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    lines: list[list[tuple[str, str]]] = [[]]
    for font, text in pieces:
        first, *rest = text.split("\n")
        lines[-1].append((font, first))
        lines.extend([(font, part)] for part in rest)
    return lines


def break_cjk(
    pieces, size: float, limit: float, first: float | None = None, rules: Rules = CHINESE
) -> tuple[list[list[tuple[str, str]]], float]:
    """Lines of (font, text) runs no wider than limit pt (the first line than `first`, when
    given), broken by a language's rules, and how far the widest still exceeds its limit."""
    text, widths, spans = [], [], []  # spans: where each piece is in the text
    for font, piece in pieces:
        # An inline icon is one unbreakable unit, as wide as the type is high.
        if font == ICON:
            text.append(OBJECT)
            widths.append(size)
        elif piece:
            text.append(piece)
            widths.extend(map(measures(font, size).__getitem__, piece))
        else:
            continue
        spans.append((len(widths) - (1 if font == ICON else len(piece)), len(widths), font, piece))
    ranges, too_wide = line_ranges("".join(text), widths, limit, first, rules)
    return [_line_runs(spans, start, end) for start, end in ranges], too_wide


def widest_word(pieces, size: float) -> float:
    """The width (pt) of the widest run of characters between spaces in (font, text) pieces: what a
    keep-all language (Korean) would rather shrink than cut between syllables."""
    widest = word = 0.0
    for font, piece in pieces:
        if font == ICON:
            word += size
            continue
        sizes = measures(font, size)
        for char in piece:
            if char.isspace():
                widest, word = max(widest, word), 0.0
            else:
                word += sizes[char]
    return max(widest, word)


def _line_runs(spans: list[tuple[int, int, str, str]], start: int, end: int) -> list[tuple[str, str]]:
    """The runs of the text from start to end: the pieces there, cut to it, one run a font."""
    runs: list[tuple[str, str]] = []
    for begins, ends, font, piece in spans:
        if ends <= start or begins >= end:
            continue
        part = piece if font == ICON else piece[max(start - begins, 0) : end - begins]
        if runs and runs[-1][0] == font != ICON:
            runs[-1] = (font, runs[-1][1] + part)
        else:
            runs.append((font, part))
    return runs


class Measures(dict):
    """Each character's or word's width in a font at a size, measured on first use (a Chinese text is
    measured a character at a time, a Latin one a word at a time, at every size tried: the same few
    thousand characters, in two fonts, and a deck's words again and again)."""

    def __init__(self, font: str, size: float):
        super().__init__()
        self.font, self.size = font, size

    def __missing__(self, text: str) -> float:
        # Per character, exactly as ReportLab's CJK wrapping measures, so it never breaks our lines again; a
        # word of a shaped script as HarfBuzz sets it.
        width = self[text] = shaping.advance(text, self.font, self.size)
        return width


@lru_cache(maxsize=256)
def measures(font: str, size: float) -> Measures:
    return Measures(font, size)


def line_ranges(
    text: str, widths: list[float], limit: float, first: float | None = None, rules: Rules = CHINESE
) -> tuple[list[tuple[int, int]], float]:
    """Where each line of text starts and ends, broken under a language's rules to lines no wider than
    limit pt (the first than `first`, when given), and how far the widest still exceeds its limit."""
    ranges: list[tuple[int, int]] = []
    too_wide, start = 0.0, 0
    while start < len(text):
        line_limit = first if first is not None and not ranges else limit
        end, next_start = _line_end(text, widths, start, line_limit, rules)
        end = _trim_end(text, start, end)
        ranges.append((start, end))
        too_wide = max(too_wide, sum(widths[start:end]) - line_limit)
        start = next_start
    return ranges, too_wide


def _line_end(text: str, widths: list[float], start: int, limit: float, rules: Rules) -> tuple[int, int]:
    """Where the line from start ends, and where the next one starts."""
    newline = text.find("\n", start)
    stop = len(text) if newline < 0 else newline
    # The width up to each character, added up one at a time as a line is filled, at C speed: the first
    # character past the limit (never the line's first) is found by bisection.
    used = list(accumulate(widths[start:stop]))
    over = max(bisect_right(used, limit + reportlab_private.FUZZ), 1)
    if over < len(used):
        end = _break_near(text, start, start + over, rules)
        return end, _skip_spaces(text, end)
    return (stop, stop + 1) if newline >= 0 else (stop, stop)


def _break_near(text: str, start: int, overflow: int, rules: Rules) -> int:
    """The last allowed break at or before the overflowing character; where there is none, the line's
    first word is wider than the line: a keep-all language cuts it between syllables (the last break
    there that Chinese would allow, as CSS's overflow-wrap does), the others leave it whole, to the
    first break after it."""
    for keep_all in (True, False) if rules.keep_all else (False,):
        for b in range(overflow, start, -1):
            if _can_break(text, b, rules, keep_all):
                return b
    return next((b for b in range(overflow + 1, len(text)) if _can_break(text, b, rules, rules.keep_all)), len(text))


def _can_break(text: str, b: int, rules: Rules, keep_all: bool) -> bool:
    """Whether a line may end between text[b - 1] and text[b]: at white space, or with keep_all false
    between two characters not both of a space-separated word."""
    before, after = text[b - 1], text[b]
    if after == "\n":
        return True
    if after in rules.cannot_start or before in rules.cannot_end or NO_BREAK in (before, after):
        return False
    if before.isspace() or after.isspace():
        return True
    return not keep_all and not (_in_word(before) and _in_word(after))


def _in_word(ch: str) -> bool:
    """Letters and digits of space-separated scripts, which break only at spaces."""
    return ch.isalnum() and unicodedata.east_asian_width(ch) not in ("W", "F")


def _skip_spaces(text: str, i: int) -> int:
    if i < len(text) and text[i] == "\n":
        return i + 1
    while i < len(text) and text[i].isspace() and text[i] != "\n":
        i += 1
    return i


def _trim_end(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end
