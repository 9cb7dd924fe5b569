"""Shaped and right-to-left text: a run's text and its registered TrueType font in, HarfBuzz's glyphs for
it out (as the ReportLab string a text object draws glyph by glyph, with their advances and offsets);
and a line's runs in logical order in, its pieces in visual order out (the Unicode bidi algorithm).

Only text holding a character of a script cardgen shapes (:data:`cardgen.text.writing.SHAPED`: Hebrew,
Arabic with its Persian letters, Devanagari) is shaped, and only a line holding one, or in a
right-to-left paragraph, is reordered: every other text is measured and drawn as before, byte for byte.

HarfBuzz is asked through ReportLab's own font (its ``hbFace``), with the run's direction and script and
no language, so that the same text is set the same whatever the machine's locale. A glyph that is not
its cluster's one character's own (a joining form, a ligature, a conjunct, a mark) is drawn through a
private-use code of its own for that glyph and the text it stands for, which the PDF's text layer
(ToUnicode) gives in the code's place: the characters of its cluster for the cluster's glyph on the
baseline, none for the rest. A right-to-left line's glyphs stand for their text in drawing order, as
readers (PDFium, pdf.js) expect: they reverse such a line into reading order themselves.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache, lru_cache
from typing import NamedTuple

import uharfbuzz
from bidi import algorithm, get_base_level
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import ShapeData, ShapedStr

from cardgen.core import reportlab_private
from cardgen.text.writing import SHAPED

# Any character of a script cardgen shapes: nearly every text has none.
_SHAPED = re.compile("[" + "".join(f"{chr(first)}-{chr(last)}" for first, last in sorted(SHAPED)) + "]")
# Plane 15's private use area, which fonts leave alone: no text layer shows these codes (reportlab_private
# writes each one's text in their place), so the order a process meets glyphs in changes no byte.
_PRIVATE = 0xF0000
# The /ActualText of a glyph that stands for no text (a vowel mark, whose letter stands for both): a
# noncharacter, which PDFium skips with the glyph, where an empty text would have it read the glyph's code.
NO_TEXT = "\ufffe"
OBJECT = "\ufffc"  # an inline icon's place in a line, neutral to the bidi algorithm


def needs(text: str) -> bool:
    """Whether text holds a character that is drawn shaped."""
    return _SHAPED.search(text) is not None


def starts_rtl(text: str) -> bool:
    """Whether a text with no language to go by reads right to left: its first strong character does."""
    return get_base_level(text) == 1


class Shaped(NamedTuple):
    """A text as HarfBuzz sets it in one font."""

    glyphs: ShapedStr  # a character a glyph, each with HarfBuzz's advance and offsets (1/1000 em)
    advance: float  # the sum of their advances, 1/1000 em
    # The glyphs again, in the stretches they are drawn in, each with its /ActualText or None: left to
    # right, a cluster of several glyphs (a conjunct) is a stretch with its text; right to left, a glyph
    # standing for no text (a vowel mark) is a stretch of its own, marked NO_TEXT.
    parts: tuple[tuple[ShapedStr, str | None], ...]


@lru_cache(maxsize=16384)
def shaped(text: str, font_name: str, rtl: bool) -> Shaped:
    """text set by HarfBuzz in the registered font, left to right or right to left, its glyphs in the
    order they are drawn (visual)."""
    font = pdfmetrics.getFont(font_name)
    face = font.face
    guess = uharfbuzz.Buffer()
    guess.add_str(text)
    guess.guess_segment_properties()
    buffer = uharfbuzz.Buffer()
    buffer.add_str(text)
    buffer.direction = "rtl" if rtl else "ltr"
    if guess.script:  # none for punctuation or digits alone: HarfBuzz's default shaping
        buffer.script = guess.script
    uharfbuzz.shape(_hb_font(font_name), buffer)
    infos = buffer.glyph_infos
    starts = sorted({info.cluster for info in infos})
    ends = dict(zip(starts, [*starts[1:], len(text)]))  # where each cluster's characters end
    sizes = Counter(info.cluster for info in infos)
    positions = buffer.glyph_positions
    # The glyph that stands for its cluster's characters: the first that advances on the baseline (a
    # letter, not the vowel mark set above or below it), else the cluster's first.
    carriers: dict[int, int] = {}
    for index, (info, position) in enumerate(zip(infos, positions)):
        current = carriers.get(info.cluster)
        if current is None or (not _on_baseline(positions[current]) and _on_baseline(position)):
            carriers[info.cluster] = index
    chars, data = [], []
    stretches: list[list] = []  # [start, end, text for /ActualText or None] in glyph indices
    for index, (info, position) in enumerate(zip(infos, positions)):
        cluster = text[info.cluster : ends[info.cluster]]
        # Readers put a right-to-left line's characters in reading order by reversing them: each glyph's
        # text is written in drawing order too.
        read = cluster[::-1] if rtl else cluster
        if rtl and len(cluster) == 1 and unicodedata.mirrored(cluster):
            # Drawn as its mirror image's glyph (« as »), which readers mirror back, as they do a mirror's own
            read = chr(face.glyphToChar.get(info.codepoint, [ord(cluster)])[0])
        several = sizes[info.cluster] > 1
        carrier = carriers[info.cluster] == index
        # A glyph that is its cluster's one character is drawn by that character, not by another one
        # the font draws with the same glyph (Persian ۳ and Arabic ٣ share one): its text stays its own.
        if len(cluster) == 1 and not several and face.charToGlyph.get(ord(cluster)) == info.codepoint:
            code = ord(cluster)
        else:
            code = _code(face, info.codepoint, read if carrier else "")
        chars.append(chr(code))
        data.append(
            ShapeData(
                info.cluster,
                face._pdfScale(position.x_advance),
                face._pdfScale(position.y_advance),
                face._pdfScale(position.x_offset),
                face._pdfScale(position.y_offset),
                face.charWidths[code],
            )
        )
        if rtl:
            # A glyph standing for nothing is drawn on its own, marked as no text: PDFium would read its
            # code instead, and a raised or lowered one as a line of its own.
            actual = None if carrier else NO_TEXT
        else:
            # A left-to-right cluster's glyphs may be drawn out of its characters' order (a vowel sign
            # before its consonant): the cluster carries its text.
            actual = read if several else None
        first = index == 0 or infos[index - 1].cluster != info.cluster
        joins = stretches and actual is None and stretches[-1][2] is None
        if joins or (not rtl and not first):
            stretches[-1][1] = index + 1
        else:
            stretches.append([index, index + 1, actual])
    parts = tuple(
        (ShapedStr("".join(chars[start:end]), shapeData=data[start:end]), actual) for start, end, actual in stretches
    )
    return Shaped(ShapedStr("".join(chars), shapeData=data), sum(item.x_advance for item in data), parts)


def _on_baseline(position) -> bool:
    return position.y_offset == 0 and position.x_advance > 0


def advance(text: str, font_name: str, size: float) -> float:
    """How far text advances in the font at size pt: shaped where it holds a shaped script."""
    if _SHAPED.search(text) is None:
        return pdfmetrics.stringWidth(text, font_name, size)
    return shaped(text, font_name, starts_rtl(text)).advance * size / 1000


@cache
def _hb_font(font_name: str) -> uharfbuzz.Font:
    # At its face's units (HarfBuzz's default scale): shaped once for every size.
    return uharfbuzz.Font(pdfmetrics.getFont(font_name).hbFace)


def _code(face, glyph: int, stands: str) -> int:
    """The character ReportLab draws a glyph by where it stands for the characters `stands`: a private-use
    code of its own for each glyph and text, which the PDF's text layer (ToUnicode) maps to that text."""
    key = (face.name, glyph, stands)
    code = _CODES.get(key)
    if code is None:
        code = _PRIVATE + len(_CODES)
        while code in face.charToGlyph or code in _STANDS:  # a font may map private-use characters itself
            code += 1
        _CODES[key] = code
        face.charToGlyph[code] = glyph
        face.charWidths[code] = face._pdfScale(face.hmetrics[glyph][0])
        _STANDS[code] = stands
        _ADDED.add((face.name, code))
    return code


def added(face, code: int) -> bool:
    """Whether a font maps the character only because a shaped glyph is drawn through it: a text's own
    private-use character is not the font's to draw."""
    return (face.name, code) in _ADDED


_CODES: dict[tuple[bytes, int, str], int] = {}  # (PostScript name, glyph, text) → its private-use code
_ADDED: set[tuple[bytes, int]] = set()  # (PostScript name, code) of each private-use code given a glyph
# Each private-use code → the text it stands for, which the text layer of every PDF gives for it.
_STANDS: dict[int, str] = {}
reportlab_private.write_text_of_codes(_STANDS)


class Piece(NamedTuple):
    """A stretch of a line of one run and one bidi level: `run` its index in the line, `text` the run's
    characters there in logical order, `rtl` whether it reads right to left (an odd level)."""

    run: int
    text: str
    rtl: bool


def visual(line: tuple[tuple[str, str], ...], rtl: bool, icon: str) -> list[Piece]:
    """The pieces of a line of (font, text) runs in the order they are drawn, left to right, in a
    paragraph that reads right to left or not (rtl); a run in the font `icon` is one object."""
    owners: list[int] = []
    logical: list[str] = []
    for number, (font, text) in enumerate(line):
        piece = OBJECT if font == icon else text
        logical.append(piece)
        owners += [number] * len(piece)
    text = "".join(logical)
    levels = _levels(text, rtl)
    stretches: list[tuple[int, int, int]] = []  # (start, end, level) in the text, one run each
    for index, (owner, level) in enumerate(zip(owners, levels)):
        if stretches and owners[stretches[-1][0]] == owner and stretches[-1][2] == level:
            stretches[-1] = (stretches[-1][0], index + 1, level)
        else:
            stretches.append((index, index + 1, level))
    order = _reordered([level for _, _, level in stretches])
    pieces = []
    for number in order:
        start, end, level = stretches[number]
        owner = owners[start]
        run_start = owners.index(owner)
        font, run_text = line[owner]
        pieces.append(
            Piece(owner, run_text if font == icon else run_text[start - run_start : end - run_start], level % 2 == 1)
        )
    return pieces


def _levels(text: str, rtl: bool) -> list[int]:
    """Each character's embedding level in a line of a paragraph of that direction (rules P to I and L1)."""
    # python-bidi's own algorithm, step by step: its get_display returns only the reordered characters, and
    # a line's pieces must be known in their fonts and directions to be shaped.
    storage = algorithm.get_empty_storage()
    storage["base_level"], storage["base_dir"] = int(rtl), "LR"[rtl]
    algorithm.get_embedding_levels(text, storage)
    for index, char in enumerate(storage["chars"]):
        char["index"] = index
    algorithm.explicit_embed_and_overrides(storage)
    algorithm.resolve_weak_types(storage)
    algorithm.resolve_neutral_types(storage, False)
    algorithm.resolve_implicit_levels(storage, False)
    chars = storage["chars"]
    # L1: white space ending the line takes the paragraph's level.
    for char in reversed(chars):
        if char["orig"] not in ("WS", "BN", "S"):
            break
        char["level"] = int(rtl)
    # Rule X9 took out the characters with no direction (a zero-width non-joiner): each takes the level
    # of the character before it, with which it is shaped.
    levels = [int(rtl)] * len(text)
    resolved = {char["index"]: char["level"] for char in chars}
    for index in range(len(text)):
        levels[index] = resolved.get(index, levels[index - 1] if index else int(rtl))
    return levels


def _reordered(levels: list[int]) -> list[int]:
    """Rule L2 on stretches of the given levels: their indices in visual order."""
    order = list(range(len(levels)))
    odd = [level for level in levels if level % 2]
    if not odd:
        return order
    for level in range(max(levels), min(odd) - 1, -1):
        start = None
        for index in range(len(order) + 1):
            inside = index < len(order) and levels[order[index]] >= level
            if inside and start is None:
                start = index
            elif not inside and start is not None:
                order[start:index] = order[start:index][::-1]
                start = None
    return order
