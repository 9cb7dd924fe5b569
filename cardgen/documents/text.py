"""A document's text: (font, text) runs and a paragraph style in; a platypus Flowable out that breaks
them into lines once per width and draws those lines on the canvas itself.

A CJK language's lines, and Korean's, are broken by :func:`~cardgen.text.linebreak.break_cjk` under the
language's rules (kinsoku), as a card's are; every other language's between words
(:func:`~cardgen.text.lines.word_lines`, a word longer than a line cut by the character). The lines are
drawn by :func:`~cardgen.text.lines.draw_lines`, as a card's are, where ReportLab's paragraph drew them,
pixel for pixel (tests/test_document_text.py holds them to it): handing ReportLab lines cardgen had
broken made it wrap, parse and merge them again, most of a document's time.

A right-to-left language's paragraph is mirrored: its lines end at the right, its indent and its
bullet (in the order it is read: "۳." is seen as ".۳") at the right too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from bidi import get_display
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable

from cardgen.core import reportlab_private
from cardgen.text.fonts import ICON, FontBook
from cardgen.text.linebreak import Rules, break_cjk, line_rules
from cardgen.text.lines import SPACES, Block, Line, Run, draw_lines, line_width, width, word_lines
from cardgen.text.markup import Span


def document_text(
    spans: Sequence[Span], book: FontBook, lang: str, style: ParagraphStyle, bullet: str | None = None
) -> DocumentText:
    """A rulebook's or script's paragraph of `spans`, each character in the font the book gives it."""
    pieces = [piece for span in spans for piece in book.runs(span, lang)]
    rules = line_rules(book, [lang])
    breaker = partial(_cjk_lines, rules=rules) if rules else _word_lines
    cache: dict[float, tuple[Line, ...]] = {}

    def lines_at(width: float) -> tuple[Line, ...]:
        # Tables and KeepTogether wrap a text several times at the same width.
        if width not in cache:
            cache[width] = breaker(pieces, style, bullet, width)
        return cache[width]

    if not book.is_rtl(lang):
        return DocumentText(lines_at, style, bullet)
    marker = tuple(book.runs(Span(get_display(bullet, base_dir="R")), lang)) if bullet else ()
    return DocumentText(lines_at, style, bullet, marker)


class DocumentText(Flowable):
    """Lines laid out and split across columns and pages as a ReportLab paragraph of the same lines
    would be, `lines_at(width)` giving them for the width offered; the part after a split keeps its
    lines and has no bullet. `mirrored`: a right-to-left paragraph's, its bullet's (font, text) runs as
    drawn (none for no bullet)."""

    def __init__(
        self,
        lines_at: Callable[[float], tuple[Line, ...]],
        style: ParagraphStyle,
        bullet: str | None,
        mirrored: tuple[Run, ...] | None = None,
    ):
        super().__init__()
        self.lines_at, self.style, self.bullet, self.mirrored = lines_at, style, bullet, mirrored
        self.lines: tuple[Line, ...] = ()

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        if available_width < reportlab_private.FUZZ:
            return 0, 0x7FFFFFFF  # as a paragraph says it cannot fit there
        self.lines = self.lines_at(available_width)
        self.width, self.height = available_width, len(self.lines) * self.style.leading
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        if available_width < reportlab_private.FUZZ or available_height < reportlab_private.FUZZ:
            return []
        lines = self.lines_at(available_width)
        fit = int(available_height / self.style.leading)
        # As a paragraph of the default style: no single line left behind at a page's foot (an orphan);
        # a last line may go over alone (a widow).
        if fit <= 1:
            return []
        if len(lines) <= fit:
            return [self]
        return [
            DocumentText(lambda _width: lines[:fit], self.style, self.bullet, self.mirrored),
            DocumentText(lambda _width: lines[fit:], self.style, None, () if self.mirrored is not None else None),
        ]

    def getSpaceBefore(self) -> float:
        return self.style.spaceBefore

    def getSpaceAfter(self) -> float:
        return self.style.spaceAfter

    def draw(self) -> None:
        if not self.lines:
            return
        canvas, style = self.canv, self.style
        size, leading = style.fontSize, style.leading
        # A paragraph's first baseline is its type size below its top (rl_config.paraFontSizeHeightOffset).
        baseline = self.height - size
        offset = style.firstLineIndent
        if self.mirrored:
            offset = self.mirrored_bullet(offset, baseline)
        elif self.bullet:
            offset = reportlab_private.draw_bullet(canvas, offset, baseline, self.bullet, style)
        # drawOn, which calls this within a saved state of the canvas, undoes the colour afterwards.
        shifts = (offset, *[0.0] * (len(self.lines) - 1))
        x = style.leftIndent
        rtl = self.mirrored is not None
        if rtl:
            # Each line ends where a left-to-right one would start, counted from the right edge.
            end = self.width - style.leftIndent
            shifts = tuple(end - shift - line_width(line, size) for line, shift in zip(self.lines, shifts))
            x = 0.0
        block = Block(self.lines, size, leading, style.textColor, style.fontName, shifts, rtl)
        draw_lines(canvas, block, x, baseline)
        canvas.body_lines(
            x,
            [
                baseline - number * leading
                for number, line in enumerate(self.lines)
                if any(font != ICON and run.strip() for font, run in line)
            ],
        )

    def mirrored_bullet(self, offset: float, baseline: float) -> float:
        """The bullet drawn where a left-to-right one is, counted from the right edge; returns how far the
        first line starts past the indent, as reportlab_private.draw_bullet does."""
        canvas, style, runs = self.canv, self.style, self.mirrored or ()
        size = style.bulletFontSize
        wide = sum(width(text, font, size) for font, text in runs)
        x = self.width - style.bulletIndent - wide
        canvas.setFillColor(getattr(style, "bulletColor", style.textColor))
        for font, text in runs:
            canvas.setFont(font, size)
            canvas.drawString(x, baseline + getattr(style, "bulletOffsetY", 0), text)
            x += width(text, font, size)
        return max(offset, style.bulletIndent + wide + size * 0.6 - style.leftIndent)


def _widths(style: ParagraphStyle, bullet: str | None, width: float) -> tuple[float, float]:
    """The room on the first line and on the others, as a paragraph reckons it (a bullet wider than
    its indent shortens the first)."""
    room = width - style.leftIndent - style.rightIndent
    first = [room - style.firstLineIndent]
    reportlab_private.bullet_width(bullet, style, first)
    return first[0], room


def _word_lines(pieces: list[Run], style: ParagraphStyle, bullet: str | None, width: float) -> tuple[Line, ...]:
    first, room = _widths(style, bullet, width)
    return word_lines(pieces, style.fontName, style.fontSize, first, room, cut=True)


def _cjk_lines(
    pieces: list[Run], style: ParagraphStyle, bullet: str | None, width: float, rules: Rules
) -> tuple[Line, ...]:
    """Lines broken by the language's rules (kinsoku); white space in them drawn as one space, and one
    that starts a line kept, as ReportLab's CJK wrapping of those lines drew them."""
    first, room = _widths(style, bullet, width)
    broken, _ = break_cjk(pieces, style.fontSize, room, first, rules)
    lines = []
    for runs in broken:
        drawn = [(font, text if font == ICON else SPACES.sub(" ", text)) for font, text in runs]
        lines.append(tuple((font, text) for font, text in drawn if text))
    return tuple(lines)
