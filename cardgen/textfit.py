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
then draws the lines as given, with ``wordWrap='CJK'``. Importing this module
also extends ReportLab's own list of characters that cannot start a line, for
any other CJK paragraph drawn in the process.
"""

from __future__ import annotations

import multiprocessing.util
import os
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
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Paragraph
from reportlab.platypus import paragraph as rl_paragraph
from reportlab.rl_config import _FUZZ

from cardgen import units
from cardgen.fonts import ICON, FontBook
from cardgen.icons import INLINE_CALLBACK
from cardgen.markup import Span

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

    paragraph is the ReportLab Paragraph, already wrapped to the box width.
    """

    size: float
    height: float
    overflow: float  # how much taller than the box the text is at min_size; 0.0 when it fits
    overflow_width: float  # how much wider than the box its widest unbreakable word is at min_size
    paragraph: Paragraph = field(compare=False, repr=False)

    @property
    def fits(self) -> bool:
        return self.overflow == 0.0 and self.overflow_width == 0.0


@dataclass(frozen=True)
class _Layout:
    paragraph: Paragraph
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
    return _fit(tuple(spans), book, lang, width, height, max_size, min_size, leading, align, color, step)


def draw(fitted: Fitted, canvas, x: float, top: float, valign_height: float | None = None) -> None:
    """Draws with the top-left corner at (x, top) mm; centred vertically in valign_height mm if given.

    Text taller than valign_height starts at top rather than above it.
    """
    offset = max(0.0, (valign_height - fitted.height) / 2) if valign_height is not None else 0.0
    fitted.paragraph.drawOn(canvas, units.pt(x), units.pt(top - offset - fitted.height))


# Cards repeat (copies, fronts drawn for both print and preview): fit each text once.
@lru_cache(maxsize=1024)
def _fit(
    spans: tuple[Span, ...],
    book: FontBook,
    lang: str,
    width: float,
    height: float,
    max_size: float,
    min_size: float,
    leading: float,
    align: str,
    color: str,
    step: float,
) -> Fitted:
    cjk = book.is_cjk(lang)
    pieces = [piece for span in spans for piece in book.runs(span, lang)]
    style = _style(pieces, align, color, cjk)
    box_width, box_height = units.pt(width), units.pt(height)

    @lru_cache(maxsize=None)
    def layout_at(size: float) -> _Layout:
        return _layout(pieces, style, size, leading, box_width, cjk)

    def fits(size: float) -> bool:
        layout = layout_at(size)
        return not layout.too_wide and not _excess(layout.height, box_height)

    size = _largest(_sizes(max_size, min_size, step), fits)
    layout = layout_at(size)
    return Fitted(
        size=size,
        height=units.mm(layout.height),
        overflow=units.mm(_excess(layout.height, box_height)),
        overflow_width=units.mm(layout.too_wide),
        paragraph=layout.paragraph,
    )


def _excess(value: float, limit: float) -> float:
    """How much value exceeds limit, ignoring rounding noise."""
    return value - limit if value > limit + _FUZZ else 0.0


def _sizes(max_size: float, min_size: float, step: float) -> list[float]:
    """max_size, max_size - step, … down to min_size, which is always last."""
    count = int((max_size - min_size) / step + 1e-9)
    sizes = [round(max_size - k * step, 6) for k in range(count + 1)]
    return sizes if sizes[-1] - min_size < 1e-6 else sizes + [min_size]


def _largest(sizes: list[float], fits: Callable[[float], bool]) -> float:
    """The first (largest) size that fits, else the last; fitting is monotonic in size."""
    if len(sizes) == 1 or fits(sizes[0]):
        return sizes[0]  # most texts fit at the largest size: one layout
    low, high = 1, len(sizes) - 1
    while low < high:
        middle = (low + high) // 2
        if fits(sizes[middle]):
            high = middle
        else:
            low = middle + 1
    return sizes[low]


def _style(pieces: list[tuple[str, str]], align: str, color: str, cjk: bool) -> ParagraphStyle:
    return ParagraphStyle(
        "cardgen",
        # A font of the text keeps Helvetica out of the PDF; an empty paragraph draws nothing.
        fontName=pieces[0][0] if pieces else "Helvetica",
        alignment=ALIGNMENTS[align],
        textColor=toColor(color),
        wordWrap="CJK" if cjk else None,
        splitLongWords=0,
        # ReportLab lets lines overrun by 5 % of their spaces, which only justified text takes back.
        spaceShrinkage=0,
    )


def _layout(pieces, style, size: float, leading: float, box_width: float, cjk: bool) -> _Layout:
    style = ParagraphStyle("cardgen-sized", parent=style, fontSize=size, leading=size * leading)
    if cjk:
        lines, too_wide = _break_cjk(pieces, size, box_width)
        paragraph = _wrapped(lines, style, box_width)
    else:
        paragraph = _wrapped(_split_newlines(pieces), style, box_width)
        too_wide = max((-_extra_space(line) for line in paragraph.blPara.lines), default=0.0)
    return _Layout(paragraph, paragraph.height, _excess(too_wide, 0.0))


def _wrapped(lines: list[list[tuple[str, str]]], style: ParagraphStyle, box_width: float) -> Paragraph:
    paragraph = Paragraph(_markup(lines, style.fontSize), style)
    paragraph.wrap(box_width, 1e9)
    return paragraph


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
    return Paragraph(_markup(_split_newlines(pieces), style.fontSize), style, bulletText=bullet)


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
        return Paragraph(_markup(lines, self.style.fontSize), self.style, bulletText=self.bullet)

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
    return f"<font name={quoteattr(font)}>{escape(text)}</font>"


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
    # An inline icon is one unbreakable unit, as wide as the type is high.
    chars = [(font, ch) for font, text in pieces for ch in ([text] if font == ICON else text)]
    text = "".join(OBJECT if font == ICON else ch for font, ch in chars)
    # Per character, exactly as ReportLab's CJK wrapping measures, so it never breaks our lines again.
    widths = [size if font == ICON else stringWidth(ch, font, size) for font, ch in chars]
    lines, too_wide, start = [], 0.0, 0
    while start < len(text):
        line_limit = first if first is not None and not lines else limit
        end, next_start = _line_end(text, widths, start, line_limit)
        end = _trim_end(text, start, end)
        lines.append(_runs(chars[start:end]))
        too_wide = max(too_wide, sum(widths[start:end]) - line_limit)
        start = next_start
    return lines, too_wide


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


def _runs(chars: list[tuple[str, str]]) -> list[tuple[str, str]]:
    runs: list[tuple[str, str]] = []
    for font, ch in chars:
        if runs and runs[-1][0] == font != ICON:
            runs[-1] = (font, runs[-1][1] + ch)
        else:
            runs.append((font, ch))
    return runs
