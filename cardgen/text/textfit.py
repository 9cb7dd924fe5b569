"""Text that shrinks to fit a box: spans, a font book and a box in mm in; a Fitted paragraph out.

:func:`fit` tries font sizes from a maximum down to a minimum and keeps the
largest at which the text fits the box; :func:`draw` puts the result on a
ReportLab canvas. Paragraph markup is generated here from escaped text only, so
a deck's text never reaches ReportLab's markup parser as markup
(CVE-2023-33733), and every run names its exact face because ``<font name>``
resets ``<b>``/``<i>``.

Chinese and other CJK languages (``cjk`` in fonts.yaml) are broken into lines
here, between characters, on cards and in documents alike
(:func:`document_paragraph`), with the line-start and line-end rules of CJK
typesetting (kinsoku): ReportLab's own CJK wrapping keeps at most one
punctuation mark off a line start by letting it hang past the right edge, so
"。”", "……" or "）。" still started lines and "（" or "“" ended them. ReportLab
then draws the lines as given, each kept whole (re-breaking by the character
took ten times as long, to the same lines); only a document's paragraph in
several fonts is still broken again by ReportLab's ``wordWrap='CJK'``, to the
same lines. Importing this module
also extends ReportLab's own list of characters that cannot start a line, for
any other CJK paragraph drawn in the process.

:func:`fit_layers` fits texts in two languages into one box together (a
bilingual card): one paragraph a language, each broken by its own language's
rules, the ones below the first at a fraction of its size, all shrinking
together. A layer with readings is ruby: each character with its reading (its
pinyin) centred above it, the pair kept as one unit when lines break.
"""

from __future__ import annotations

import multiprocessing.util
import os
import re
import shutil
import tempfile
import unicodedata
from pathlib import Path
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Sequence
from xml.sax.saxutils import escape, quoteattr

from reportlab.lib import textsplit
from reportlab.lib.colors import toColor
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Paragraph
from reportlab.platypus import paragraph as rl_paragraph
from reportlab.rl_config import _FUZZ

from cardgen.core import units
from cardgen.text.fonts import ICON, FontBook
from cardgen.cards.icons import INLINE_CALLBACK
from cardgen.text.markup import Span

# Full-width and other punctuation that may not start a line, beyond ReportLab's list.
EXTRA_CANNOT_START = (
    "，。．、：；！？）］｝〕〉》」』】〗〙〛〞〟’”»›…‥—–～〜·・ー々〻％‰℃°′″"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"
)
OBJECT = "\ufffc"   # stands for an inline icon where lines are broken by character
NO_BREAK = "\u00a0"   # a space that holds its neighbours on one line, as ReportLab's wrapping does
CANNOT_END = "([{（［｛〔〈《「『【〖〘〚〝‘“«‹"
ALIGNMENTS = {"left": TA_LEFT, "center": TA_CENTER}


def _extend_reportlab_cannot_start() -> str:
    """Adds EXTRA_CANNOT_START to both of ReportLab's copies of the list; returns the union."""
    for module in (textsplit, rl_paragraph):
        current = module.ALL_CANNOT_START
        module.ALL_CANNOT_START = current + "".join(c for c in EXTRA_CANNOT_START if c not in current)
    return textsplit.ALL_CANNOT_START


CANNOT_START = frozenset(_extend_reportlab_cannot_start())


@dataclass(frozen=True)
class Fitted:
    """Text laid out at the size chosen by :func:`fit`; lengths in mm, sizes in pt.

    paragraph is the ReportLab Paragraph, already wrapped to the box width; `below` are the further
    layers of :func:`fit_layers`, each with how far its top is below the paragraph's top (mm).
    """

    size: float
    height: float
    overflow: float  # how much taller than the box the text is at min_size; 0.0 when it fits
    overflow_width: float  # how much wider than the box its widest unbreakable word is at min_size
    paragraph: Flowable = field(compare=False, repr=False)
    below: tuple[tuple[float, Flowable], ...] = field(default=(), compare=False, repr=False)
    spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)    # the paragraph's, as laid out

    @property
    def fits(self) -> bool:
        return self.overflow == 0.0 and self.overflow_width == 0.0


@dataclass(frozen=True)
class Layer:
    """One language's text in a box it shares (:func:`fit_layers`): its size is `scale` times the
    first layer's, `leading` its language's least line height, `gap` the room above it (a fraction of
    its size); `readings`, one a character of its text (empty for none), are set above the characters
    at `ruby` times its size, in the fonts of `ruby_lang`."""

    spans: tuple[Span, ...]
    lang: str
    color: str = "#000000"
    leading: float = 1.2
    scale: float = 1.0
    gap: float = 0.0
    readings: tuple[str, ...] | None = None
    ruby: float = 0.5
    ruby_lang: str = "zh-Latn"     # the readings' language (pinyin), whose fonts draw them


@dataclass(frozen=True)
class _Layout:
    paragraph: Flowable
    height: float  # pt
    too_wide: float  # pt


def fit(
    spans: Sequence[Span],
    book: FontBook,
    lang: str,
    width: float,
    height: float,
    *,
    max_size: float,
    min_size: float,
    leading: float = 1.2,
    align: str = "left",
    color: str = "#000000",
    step: float = 0.25,
) -> Fitted:
    """Lays out spans in a width × height mm box at the largest size on the step grid that fits.

    Sizes go from max_size down by step to min_size (pt; min_size is tried even
    when off the grid). Text that fits at no size comes back at min_size with a
    positive overflow (too tall) or overflow_width (a word wider than the box).
    """
    if not 0 < min_size <= max_size or step <= 0 or leading <= 0:
        raise ValueError(f"need 0 < min_size <= max_size, step > 0, leading > 0; got {min_size}, {max_size}, {step}, {leading}")
    if align not in ALIGNMENTS:
        raise ValueError(f"align must be one of {', '.join(ALIGNMENTS)}, not {align!r}")
    if width <= 0 or height <= 0:
        raise ValueError(f"the text box must have a positive size, not {width} × {height} mm")
    return _fit((Layer(tuple(spans), lang, color, leading),), book, width, height, max_size, min_size, align, step)


def fit_layers(layers: Sequence[Layer], book: FontBook, width: float, height: float, *, max_size: float,
               min_size: float, align: str = "left", step: float = 0.25) -> Fitted:
    """Layers one under the other in a width × height mm box, at the largest size of the first (on
    the step grid, from max_size to min_size pt) at which they all fit; the others at their scale of it.
    Overflow is that of all of them together at min_size."""
    if not layers or not 0 < min_size <= max_size or step <= 0:
        raise ValueError(f"need layers and 0 < min_size <= max_size, step > 0; got {min_size}, {max_size}, {step}")
    if width <= 0 or height <= 0:
        raise ValueError(f"the text box must have a positive size, not {width} × {height} mm")
    return _fit(tuple(layers), book, width, height, max_size, min_size, align, step)


def draw(fitted: Fitted, canvas, x: float, top: float, valign_height: float | None = None) -> None:
    """Draws with the top-left corner at (x, top) mm; centred vertically in valign_height mm if given.

    Text taller than valign_height starts at top rather than above it.
    """
    offset = max(0.0, (valign_height - fitted.height) / 2) if valign_height is not None else 0.0
    for below, paragraph in ((0.0, fitted.paragraph), *fitted.below):
        paragraph.drawOn(canvas, units.pt(x), units.pt(top - offset - below) - paragraph.height)


# Cards repeat (copies, fronts drawn for both print and preview): fit each text once.
@lru_cache(maxsize=1024)
def _fit(
    layers: tuple[Layer, ...],
    book: FontBook,
    width: float,
    height: float,
    max_size: float,
    min_size: float,
    align: str,
    step: float,
) -> Fitted:
    box_width, box_height = units.pt(width), units.pt(height)
    prepared = [_prepared(layer, book, align, box_width) for layer in layers]

    @lru_cache(maxsize=None)
    def layout_at(size: float) -> tuple[list[tuple[float, _Layout]], float, float]:
        """Each layer's layout with its top (pt below the first's), the height of all and the widest excess."""
        placed, top = [], 0.0
        for n, (layer, make) in enumerate(zip(layers, prepared)):
            layer_size = size * layer.scale
            top += layer.gap * layer_size if n else 0.0
            layout = make(layer_size)
            placed.append((top, layout))
            top += layout.height
        return placed, top, max(layout.too_wide for _, layout in placed)

    def fits(size: float) -> bool:
        _, total, too_wide = layout_at(size)
        return not too_wide and not _excess(total, box_height)

    def estimate(size: float) -> float:
        """The size the text may fit at, from its layout at `size`, where it does not: its height grows
        about with the square of the size (more lines, each taller), a too wide word with the size."""
        _, total, too_wide = layout_at(size)
        if too_wide:
            return size * box_width / (box_width + too_wide)
        return size * (box_height / total) ** 0.5 if total > 0 else size

    size = _largest(_sizes(max_size, min_size, step), fits, estimate)
    placed, total, too_wide = layout_at(size)
    return Fitted(
        size=size,
        height=units.mm(total),
        overflow=units.mm(_excess(total, box_height)),
        overflow_width=units.mm(too_wide),
        paragraph=placed[0][1].paragraph,
        below=tuple((units.mm(top), layout.paragraph) for top, layout in placed[1:]),
        spans=layers[0].spans,
    )


def _prepared(layer: Layer, book: FontBook, align: str, width: float) -> Callable[[float], _Layout]:
    """How a layer is laid out at a size in a box `width` pt wide: by its own language's fonts and
    line breaks (a span may name another language: its characters take that one's), or as ruby."""
    cjk = any(book.is_cjk(lang) for lang in {span.lang or layer.lang for span in layer.spans} | {layer.lang})
    pieces = [piece for span in layer.spans for piece in book.runs(span, span.lang or layer.lang)]
    if layer.readings is not None:
        return lambda size: _ruby_layout(pieces, layer.readings, book, size, layer.ruby, layer.leading, width,
                                         align, layer.color, layer.ruby_lang)
    style = _style(pieces, align, layer.color)
    return lambda size: _layout(pieces, style, size, layer.leading, width, cjk)


def _excess(value: float, limit: float) -> float:
    """How much value exceeds limit, ignoring rounding noise."""
    return value - limit if value > limit + _FUZZ else 0.0


@lru_cache(maxsize=64)
def _sizes(max_size: float, min_size: float, step: float) -> tuple[float, ...]:
    """max_size, max_size - step, … down to min_size, which is always last."""
    count = int((max_size - min_size) / step + 1e-9)
    sizes = tuple(round(max_size - k * step, 6) for k in range(count + 1))
    return sizes if sizes[-1] - min_size < 1e-6 else sizes + (min_size,)


def _largest(sizes: Sequence[float], fits: Callable[[float], bool],
             estimate: Callable[[float], float] | None = None) -> float:
    """The first (largest) size that fits, else the last; fitting is monotonic in size. `estimate`
    guesses from a size that does not fit at what size the text will: the search starts there and
    widens its steps from it, so a good guess takes two or three layouts where halving takes five."""
    if len(sizes) == 1 or fits(sizes[0]):
        return sizes[0]  # most texts fit at the largest size: one layout
    low, high = 1, len(sizes) - 1     # the answer is sizes[low..high]; the last when none fits
    if estimate is not None:
        guess = estimate(sizes[0])
        start = min(max(next((n for n, size in enumerate(sizes) if size <= guess), high), low), high)
        if fits(sizes[start]):
            high, step = start, 1
            while high - step >= low and fits(sizes[high - step]):
                high, step = high - step, step * 2
            low = max(low, high - step + 1)
        else:
            low, step = min(start + 1, high), 1
            while low + step - 1 < high and not fits(sizes[low + step - 1]):
                low, step = low + step, step * 2
            high = min(high, low + step - 1)
    while low < high:
        middle = (low + high) // 2
        if fits(sizes[middle]):
            high = middle
        else:
            low = middle + 1
    return sizes[low]


def _style(pieces: list[tuple[str, str]], align: str, color: str) -> ParagraphStyle:
    return ParagraphStyle(
        "cardgen",
        # A font of the text keeps Helvetica out of the PDF; an empty paragraph draws nothing.
        fontName=pieces[0][0] if pieces else "Helvetica",
        alignment=ALIGNMENTS[align],
        textColor=_color(color),
        # Never wordWrap="CJK": a CJK text comes broken into lines (_break_cjk), each of which ReportLab
        # then keeps whole, for a tenth of what re-breaking it by the character would cost.
        splitLongWords=0,
        # ReportLab lets lines overrun by 5 % of their spaces, which only justified text takes back.
        spaceShrinkage=0,
    )


@lru_cache(maxsize=None)
def _color(name: str):
    # A card's texts share a few colours, which ReportLab would parse anew for every style.
    return toColor(name)


def _layout(pieces, style, size: float, leading: float, box_width: float, cjk: bool) -> _Layout:
    style = ParagraphStyle("cardgen-sized", parent=style, fontSize=size, leading=size * leading)
    if cjk:
        lines, too_wide = _break_cjk(pieces, size, box_width)
        # Its lines may be _FUZZ wider than the box, where ReportLab would break one at a space.
        paragraph = _in_one_font(lines, style) or _unparsed(lines, style, None)
        paragraph.wrap(box_width + 2 * _FUZZ, 1e9)
    else:
        paragraph = _wrapped(_split_newlines(pieces), style, box_width)
        too_wide = max((-_extra_space(line) for line in paragraph.blPara.lines), default=0.0)
    return _Layout(paragraph, paragraph.height, _excess(too_wide, 0.0))


@dataclass(frozen=True)
class _Column:
    """A character and its reading above it, as wide as the wider of the two."""

    font: str
    char: str
    reading: tuple[tuple[str, str], ...]    # (font, text) runs
    width: float                            # pt


class _Ruby(Flowable):
    """Lines of columns, each reading centred above its character, drawn in one colour."""

    def __init__(self, lines: list[list[_Column]], size: float, ruby_size: float, ruby_height: float,
                 line_height: float, width: float, align: str, color: str):
        super().__init__()
        self.lines, self.size, self.ruby_size = lines, size, ruby_size
        self.ruby_height, self.line_height, self.align, self.color = ruby_height, line_height, align, color
        self.width, self.height = width, len(lines) * line_height

    def draw(self) -> None:
        c = self.canv
        c.setFillColor(toColor(self.color))
        for number, line in enumerate(self.lines):
            top = self.height - number * self.line_height
            used = sum(column.width for column in line)
            x = (self.width - used) / 2 if self.align == "center" else 0.0
            for column in line:
                middle = x + column.width / 2
                runs = [(font, text, stringWidth(text, font, self.ruby_size)) for font, text in column.reading]
                rx = middle - sum(w for _, _, w in runs) / 2
                for font, text, w in runs:
                    c.setFont(font, self.ruby_size)
                    c.drawString(rx, top - pdfmetrics.getAscent(font, self.ruby_size), text)
                    rx += w
                c.setFont(column.font, self.size)
                c.drawCentredString(middle, top - self.ruby_height - pdfmetrics.getAscent(column.font, self.size),
                                    column.char)
                x += column.width


# Room between a reading's descenders and the top of its character, and between two readings side by side.
RUBY_GAP = 0.12
RUBY_SPACING = 0.3


def _ruby_layout(pieces, readings: tuple[str, ...], book: FontBook, size: float, ruby: float, leading: float,
                 box_width: float, align: str, color: str, ruby_lang: str) -> _Layout:
    """The characters of pieces, each with its reading above it at `ruby` times the size, broken into
    lines between the columns where the characters' own rules allow it (kinsoku included)."""
    ruby_size = size * ruby
    chars = [(font, ch) for font, text in pieces for ch in text]
    columns = []
    for (font, ch), reading in zip(chars, (*readings, *[""] * len(chars))):
        runs = tuple(book.runs(Span(reading), ruby_lang)) if reading else ()
        over = sum(stringWidth(text, f, ruby_size) for f, text in runs)
        columns.append(_Column(font, ch, runs, max(stringWidth(ch, font, size),
                                                   over + RUBY_SPACING * ruby_size if runs else 0.0)))
    ranges, too_wide = _line_ranges("".join(column.char for column in columns),
                                    [column.width for column in columns], box_width)
    lines = [columns[start:end] for start, end in ranges]
    ruby_font = next((f for column in columns for f, _ in column.reading), None)
    ascent, descent = pdfmetrics.getAscentDescent(ruby_font, ruby_size) if ruby_font else (0.0, 0.0)
    ruby_height = ascent - descent + RUBY_GAP * ruby_size if ruby_font else 0.0
    base = max((pdfmetrics.getAscent(c.font, size) - pdfmetrics.getDescent(c.font, size) for c in columns),
               default=size)
    paragraph = _Ruby(lines, size, ruby_size, ruby_height, ruby_height + max(size * leading, base), box_width,
                      align, color)
    return _Layout(paragraph, paragraph.height, _excess(too_wide, 0.0))


class _Made(Paragraph):
    """A paragraph of fragments cardgen made itself. Its text, the markup ReportLab would parse into
    the same fragments, is written only when asked for (a test, a debugger): nothing draws from it,
    and writing it for every size tried was a twentieth of fitting the cards' texts."""

    def __init__(self, lines: list[list[tuple[str, str]]] | None, style: ParagraphStyle, frags: list,
                 bulletText: str | None = None):
        # ReportLab's split makes each part with the class's constructor, giving no lines: None.
        self.lines_made = lines
        super().__init__("", style, frags=frags, bulletText=bulletText)

    @property
    def text(self) -> str:
        return _markup(self.lines_made, self.style.fontSize) if self.lines_made is not None else ""

    @text.setter
    def text(self, value: str) -> None:
        pass        # Paragraph.__init__ stores the text it was given; this one is made from the lines


class _BrokenLines(_Made):
    """A paragraph of one font in the lines cardgen broke, laid out and drawn by ReportLab as it does a
    paragraph of one font (a string a line), without breaking those lines again: split into fragments,
    a Chinese line took ReportLab four times as long to lay out and draw. A document's is split across
    pages between its lines."""

    # A line's leading space is dropped, as ReportLab's line breaking drops it.
    leading_space = False

    def breakLines(self, width):
        # What Paragraph.breakLines returns for a paragraph of one fragment: its words by line, each
        # line with the room left on it (by which centred lines are placed).
        max_width = width[0] if isinstance(width, (list, tuple)) else width
        frag = self.frags[0]
        font, size = frag.fontName, frag.fontSize
        ascent, descent = pdfmetrics.getAscentDescent(font, size)
        lines = []
        for line in self.lines_made:
            text = "".join(text for _, text in line)
            words = rl_paragraph.split(rl_paragraph.strip(text))
            if self.leading_space and words and text[:1] in rl_paragraph._wsc:
                words.insert(0, "")
            lines.append((max_width - stringWidth(" ".join(words), font, size), words))
        return frag.clone(kind=0, lines=lines, ascent=ascent, descent=descent, fontSize=size)

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        # ReportLab makes the parts with the paragraph's class, without lines: each gets its own.
        parts = super().split(available_width, available_height)
        if len(parts) == 2:
            count = len(parts[0].blPara.lines)
            parts[0].lines_made, parts[1].lines_made = self.lines_made[:count], self.lines_made[count:]
        return parts


class _DocumentLines(_BrokenLines):
    """A document's paragraph of one font in the lines cardgen broke, where ReportLab's CJK wrapping,
    which breaks them again to the same lines, drew a space that starts a line."""

    leading_space = True


def _in_one_font(lines: list[list[tuple[str, str]]], style: ParagraphStyle, bullet: str | None = None,
                 made: type[_BrokenLines] = _BrokenLines) -> Paragraph | None:
    """Lines cardgen broke, when all are in one font (most Chinese texts: the CJK font has the Latin
    letters too), as a paragraph of one font (`made`); else None. Its style must not have
    wordWrap="CJK", with which ReportLab would break the lines again."""
    fonts = {font for line in lines for font, _ in line}
    if len(fonts) != 1 or ICON in fonts:
        return None
    return made(lines, style, [_font_frag(fonts.pop(), style, "")], bullet)


@lru_cache(maxsize=None)
def _kept_whole(style: ParagraphStyle) -> ParagraphStyle:
    """The style without wordWrap="CJK", for lines that are drawn as they were broken."""
    return ParagraphStyle(f"{style.name}-lines", parent=style, wordWrap=None)


def _wrapped(lines: list[list[tuple[str, str]]], style: ParagraphStyle, box_width: float) -> Paragraph:
    paragraph = _unparsed(lines, style, None)
    paragraph.wrap(box_width, 1e9)
    return paragraph


# What ReportLab's paragraph parser does to the text between two tags, which _frags does without it: the
# text of each line is split on whitespace and joined by single spaces (cleanBlockQuotedText), and
# every character reference (_markup escapes &, < and >) is a fragment of its own.
_WHITESPACE = re.compile(f"[{re.escape(rl_paragraph._wsc)}]+")
_REFERENCES = re.compile(r"([&<>])")


def _frags(lines: list[list[tuple[str, str]]], style: ParagraphStyle) -> list | None:
    """The fragments ReportLab's parser makes of _markup(lines), made without parsing it (the
    parse is a fifth of fitting a card's texts); None where the parser is needed: an inline icon."""
    frags = []
    for number, line in enumerate(lines):
        if number:
            frags.append(_sized(_frag("<br/>", style.fontName), style))
        for font, text in line:
            if font == ICON or "\n" in text:
                return None
            for part in _REFERENCES.split(_WHITESPACE.sub(" ", text)):
                if part:
                    frags.append(_font_frag(font, style, part))
    return frags or None


@lru_cache(maxsize=None)
def _frag(markup: str, base: str):
    """The parser's one fragment of a markup in a paragraph whose style's font is `base`."""
    (frag,) = Paragraph(markup, ParagraphStyle("frag", fontName=base)).frags
    return frag


def _font_frag(font: str, style: ParagraphStyle, text: str):
    """The parser's fragment of `text` in `font`, in a paragraph of that style."""
    return _sized(_frag(f"{_font_tag(font)}x</font>", style.fontName), style, text)


def _sized(frag, style: ParagraphStyle, text: str | None = None):
    # As the parser makes them: the size and colour are the style's, and each fragment has lists of its own.
    return frag.clone(fontSize=style.fontSize, textColor=style.textColor, link=[], us_lines=[],
                      **({} if text is None else {"text": text}))


def _extra_space(line) -> float:
    """Room left on a laid-out ReportLab line; negative when the line is too wide."""
    return line[0] if isinstance(line, tuple) else line.extraSpace


def paragraph_markup(spans: Sequence[Span], book: FontBook, lang: str, size: float) -> str:
    """ReportLab paragraph markup for spans, every run in its exact face and every character escaped."""
    return _markup(_split_newlines([piece for span in spans for piece in book.runs(span, lang)]), size)


def document_paragraph(spans: Sequence[Span], book: FontBook, lang: str, style: ParagraphStyle,
                       bullet: str | None = None) -> Flowable:
    """A paragraph for a document (rulebook, script) under the cards' rules: a CJK language's
    lines are broken here, with kinsoku, at whatever width the page gives it."""
    pieces = [piece for span in spans for piece in book.runs(span, lang)]
    if book.is_cjk(lang):
        return _KinsokuParagraph(pieces, style, bullet)
    return _unparsed(_split_newlines(pieces), style, bullet)


def _unparsed(lines: list[list[tuple[str, str]]], style: ParagraphStyle, bullet: str | None) -> Paragraph:
    """The paragraph of lines of (font, text) runs, made of fragments without ReportLab's parser
    where _frags can (in the documents, the parse took a ninth of a Chinese rulebook's and script's
    instructions, a twentieth of an English one's), else parsed."""
    frags = _frags(lines, style)
    if frags is None:
        return Paragraph(_markup(lines, style.fontSize), style, bulletText=bullet)
    return _Made(lines, style, frags, bullet)


class _KinsokuParagraph(Flowable):
    """Lines broken by _break_cjk at the width the frame or table cell offers, then laid out
    and drawn (and split across columns and pages) by a ReportLab Paragraph of those lines."""

    def __init__(self, pieces: list[tuple[str, str]], style: ParagraphStyle, bullet: str | None):
        super().__init__()
        self.pieces, self.style, self.bullet = pieces, style, bullet
        self.paragraph: Paragraph | None = None

    def _at(self, width: float) -> Paragraph:
        room = width - self.style.leftIndent - self.style.rightIndent
        # A bullet wider than the indent shortens the first line, as ReportLab reckons it.
        first = [room - self.style.firstLineIndent]
        rl_paragraph._handleBulletWidth(self.bullet, self.style, first)
        lines, _ = _break_cjk(self.pieces, self.style.fontSize, room, first[0])
        # In one font (most Chinese paragraphs) the lines are kept whole: ReportLab breaking them again by
        # the character, to the same lines, took a sixth of a Chinese rulebook's and script's instructions.
        return _in_one_font(lines, _kept_whole(self.style), self.bullet, _DocumentLines) or \
            _unparsed(lines, self.style, self.bullet)

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.paragraph = self._at(available_width)
        self.width, self.height = self.paragraph.wrap(available_width, available_height)
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        return self._at(available_width).split(available_width, available_height)

    def draw(self) -> None:
        self.paragraph.drawOn(self.canv, 0, 0)

    def getSpaceBefore(self) -> float:
        return self.style.spaceBefore

    def getSpaceAfter(self) -> float:
        return self.style.spaceAfter


_PIXEL = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360606060000000050001a5f645400000000049454e44ae426082")


@lru_cache(maxsize=1)
def _spacer() -> str:
    """A transparent pixel on disk: inline icons reserve their room in the line with it
    (ReportLab 5 opens paragraph images from plain file paths only, not data: URIs). It lives in a
    folder of this process's own: a shared name in the temporary folder could be another user's
    symbolic link, which writing the pixel would follow."""
    folder = tempfile.mkdtemp(prefix="cardgen-")
    path = Path(folder) / "spacer.png"
    path.write_bytes(_PIXEL)
    # Run at exit by the main process and by worker processes alike (atexit is not, in workers).
    multiprocessing.util.Finalize(None, _remove_spacer, args=(folder, os.getpid()), exitpriority=0)
    return str(path)


def _remove_spacer(folder: str, owner: int) -> None:
    # A forked worker inherits this; only the process that made the folder removes it.
    if os.getpid() == owner:
        shutil.rmtree(folder, ignore_errors=True)


def _piece(font: str, text: str, size: float) -> str:
    if font == ICON:
        # The callback draws the card's icon where the line reaches it; the spacer keeps its room.
        return (f"<onDraw name={quoteattr(INLINE_CALLBACK)} label={quoteattr(text)}/>"
                f'<img src={quoteattr(_spacer())} width="{size:.2f}" height="{size:.2f}" valign="baseline"/>')
    return f"{_font_tag(font)}{escape(text)}</font>"


@lru_cache(maxsize=None)
def _font_tag(font: str) -> str:
    return f"<font name={quoteattr(font)}>"


def _markup(lines: list[list[tuple[str, str]]], size: float) -> str:
    """Paragraph markup from (font, text) runs per line; all text is escaped."""
    return "<br/>".join("".join(_piece(font, text, size) for font, text in line if text) for line in lines)


def _split_newlines(pieces: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    lines: list[list[tuple[str, str]]] = [[]]
    for font, text in pieces:
        first, *rest = text.split("\n")
        lines[-1].append((font, first))
        lines.extend([(font, part)] for part in rest)
    return lines


def _break_cjk(pieces, size: float, limit: float,
               first: float | None = None) -> tuple[list[list[tuple[str, str]]], float]:
    """Lines of (font, text) runs no wider than limit pt (the first line than `first`, when
    given), and how far the widest still exceeds its limit."""
    text, widths, spans = [], [], []        # spans: where each piece is in the text
    for font, piece in pieces:
        # An inline icon is one unbreakable unit, as wide as the type is high.
        if font == ICON:
            text.append(OBJECT)
            widths.append(size)
        elif piece:
            text.append(piece)
            widths.extend(map(_widths(font, size).__getitem__, piece))
        else:
            continue
        spans.append((len(widths) - (1 if font == ICON else len(piece)), len(widths), font, piece))
    ranges, too_wide = _line_ranges("".join(text), widths, limit, first)
    return [_line_runs(spans, start, end) for start, end in ranges], too_wide


def _line_runs(spans: list[tuple[int, int, str, str]], start: int, end: int) -> list[tuple[str, str]]:
    """The runs of the text from start to end: the pieces there, cut to it, one run a font."""
    runs: list[tuple[str, str]] = []
    for begins, ends, font, piece in spans:
        if ends <= start or begins >= end:
            continue
        part = piece if font == ICON else piece[max(start - begins, 0):end - begins]
        if runs and runs[-1][0] == font != ICON:
            runs[-1] = (font, runs[-1][1] + part)
        else:
            runs.append((font, part))
    return runs


class _Widths(dict):
    """Each character's width in a font at a size, measured on first use (a Chinese text is measured a
    character at a time, at every size tried: the same few thousand characters, in two fonts)."""

    def __init__(self, font: str, size: float):
        super().__init__()
        self.font, self.size = font, size

    def __missing__(self, char: str) -> float:
        # Per character, exactly as ReportLab's CJK wrapping measures, so it never breaks our lines again.
        width = self[char] = stringWidth(char, self.font, self.size)
        return width


@lru_cache(maxsize=256)
def _widths(font: str, size: float) -> _Widths:
    return _Widths(font, size)


def _line_ranges(text: str, widths: list[float], limit: float,
                 first: float | None = None) -> tuple[list[tuple[int, int]], float]:
    """Where each line of text starts and ends, broken under the CJK rules to lines no wider than limit
    pt (the first than `first`, when given), and how far the widest still exceeds its limit."""
    ranges: list[tuple[int, int]] = []
    too_wide, start = 0.0, 0
    while start < len(text):
        line_limit = first if first is not None and not ranges else limit
        end, next_start = _line_end(text, widths, start, line_limit)
        end = _trim_end(text, start, end)
        ranges.append((start, end))
        too_wide = max(too_wide, sum(widths[start:end]) - line_limit)
        start = next_start
    return ranges, too_wide


def _line_end(text: str, widths: list[float], start: int, limit: float) -> tuple[int, int]:
    """Where the line from start ends, and where the next one starts."""
    used = 0.0
    for i in range(start, len(text)):
        if text[i] == "\n":
            return i, i + 1
        used += widths[i]
        if used > limit + _FUZZ and i > start:
            end = _break_near(text, start, i)
            return end, _skip_spaces(text, end)
    return len(text), len(text)


def _break_near(text: str, start: int, overflow: int) -> int:
    """The last allowed break at or before the overflowing character, else the first after it."""
    for b in range(overflow, start, -1):
        if _can_break(text, b):
            return b
    return next((b for b in range(overflow + 1, len(text)) if _can_break(text, b)), len(text))


def _can_break(text: str, b: int) -> bool:
    """Whether a line may end between text[b - 1] and text[b]."""
    before, after = text[b - 1], text[b]
    if after == "\n":
        return True
    if after in CANNOT_START or before in CANNOT_END or NO_BREAK in (before, after):
        return False
    if before.isspace() or after.isspace():
        return True
    return not (_in_word(before) and _in_word(after))


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
