"""A document's text: (font, text) runs and a paragraph style in; a platypus Flowable out that breaks
them into lines once per width and draws those lines on the canvas itself.

A CJK language's lines are broken by :func:`~cardgen.text.linebreak.break_cjk` (kinsoku); every
other language's between words, by the rule ReportLab's paragraph follows (greedy, a space measured
and drawn in the font of the run it is in, a word longer than a line cut by the character). The lines are
drawn where ReportLab's paragraph drew them, pixel for pixel (tests/test_document_text.py holds
them to it): handing ReportLab lines cardgen had broken made it wrap, parse and merge them again,
most of a document's time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from cardgen.cards.icons import INLINE_CALLBACK
from cardgen.core import reportlab_private
from cardgen.text.fonts import ICON, FontBook
from cardgen.text.linebreak import break_cjk, split_newlines
from cardgen.text.markup import Span

Run = tuple[str, str]  # (font, text); ICON's text is the card id of an inline icon
Line = tuple[Run, ...]  # as drawn: a run per change of font, the spaces between words in them


def document_text(
    spans: Sequence[Span], book: FontBook, lang: str, style: ParagraphStyle, bullet: str | None = None
) -> DocumentText:
    """A rulebook's or script's paragraph of `spans`, each character in the font the book gives it."""
    pieces = [piece for span in spans for piece in book.runs(span, lang)]
    breaker = _cjk_lines if book.is_cjk(lang) else _word_lines
    cache: dict[float, tuple[Line, ...]] = {}

    def lines_at(width: float) -> tuple[Line, ...]:
        # Tables and KeepTogether wrap a text several times at the same width.
        if width not in cache:
            cache[width] = breaker(pieces, style, bullet, width)
        return cache[width]

    return DocumentText(lines_at, style, bullet)


class DocumentText(Flowable):
    """Lines laid out and split across columns and pages as a ReportLab paragraph of the same lines
    would be, `lines_at(width)` giving them for the width offered; the part after a split keeps its
    lines and has no bullet."""

    def __init__(self, lines_at: Callable[[float], tuple[Line, ...]], style: ParagraphStyle, bullet: str | None):
        super().__init__()
        self.lines_at, self.style, self.bullet = lines_at, style, bullet
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
            DocumentText(lambda _width: lines[:fit], self.style, self.bullet),
            DocumentText(lambda _width: lines[fit:], self.style, None),
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
        if self.bullet:
            offset = reportlab_private.draw_bullet(canvas, offset, baseline, self.bullet, style)
        # drawOn, which calls this within a saved state of the canvas, undoes the colour afterwards.
        canvas.setFillColor(style.textColor)
        text = canvas.beginText(style.leftIndent, baseline)
        # Set (drawing nothing yet) before an inline icon at a line's start asks for the size.
        font = style.fontName
        text.setFont(font, size, leading)
        for number, line in enumerate(self.lines):
            # How far the line's start has been moved: past the bullet, past each inline icon.
            shift = offset if number == 0 and abs(offset) > 1e-6 else 0.0
            if shift:
                text.setXPos(shift)
            for index, (run_font, run_text) in enumerate(line):
                last = index == len(line) - 1
                if run_font == ICON:
                    # The canvas's icon painter draws it where the line has reached; the line goes on past it.
                    reached = text.getX()
                    reportlab_private.call_inline(
                        canvas, INLINE_CALLBACK, run_text, text, reached, baseline - number * leading
                    )
                    move = reached + size - text.getStartOfLine()[0]
                    text.setXPos(move)
                    shift += move
                    if last:
                        text.textLine("")
                    continue
                if run_font != font:
                    font = run_font
                    text.setFont(font, size, leading)
                if last:
                    text.textLine(run_text)
                else:
                    text.textOut(run_text)
            if not line:
                text.textLine("")
            if shift:
                text.setXPos(-shift)
        canvas.drawText(text)
        canvas.body_lines(
            style.leftIndent,
            [
                baseline - number * leading
                for number, line in enumerate(self.lines)
                if any(font != ICON and run.strip() for font, run in line)
            ],
        )


# ReportLab's white space, where its paragraph breaks a line and which it draws as one space.
_SPACES = re.compile(f"[{re.escape(reportlab_private.WHITESPACE)}]+")


class _Word:
    __slots__ = ("cut", "ends_line", "parts", "space_font", "width")

    def __init__(self, parts: list[Run], width: float = 0.0, space_font: str | None = None, cut: bool = False):
        self.parts, self.width = parts, width
        self.space_font = space_font  # the font of the white space after it, which measures and draws it
        self.cut = cut  # a piece of a word too long for a line: never cut again
        self.ends_line = cut  # a piece but the last fills its line to the end

    def add(self, font: str, text: str, size: float) -> None:
        self.width += size if font == ICON else _width(text, font, size)
        if self.parts and self.parts[-1][0] == font != ICON:
            self.parts[-1] = (font, self.parts[-1][1] + text)
        else:
            self.parts.append((font, text))

    def space_after(self, style: ParagraphStyle) -> float:
        return _width(" ", self.drawn_space(style), style.fontSize)

    def drawn_space(self, style: ParagraphStyle) -> str:
        font = self.space_font or (self.parts[-1][0] if self.parts else style.fontName)
        return style.fontName if font == ICON else font


@lru_cache(maxsize=65536)
def _width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


def _widths(style: ParagraphStyle, bullet: str | None, width: float) -> tuple[float, float]:
    """The room on the first line and on the others, as a paragraph reckons it (a bullet wider than
    its indent shortens the first)."""
    room = width - style.leftIndent - style.rightIndent
    first = [room - style.firstLineIndent]
    reportlab_private.bullet_width(bullet, style, first)
    return first[0], room


def _words(line: list[Run], size: float) -> list[_Word]:
    """The words of a line of runs: white space parts them, a change of font does not. The space
    after a word is in the font of the run where the white space starts, as in ReportLab's."""
    words: list[_Word] = []
    open_word = False  # whether the last word goes on into the next run
    for font, text in line:
        if font == ICON:
            if not open_word:
                words.append(_Word([]))
            words[-1].add(font, text, size)
            open_word = True
            continue
        first, *rest = _SPACES.split(text)
        if first:
            if not open_word:
                words.append(_Word([]))
            words[-1].add(font, first, size)
            open_word = True
        if not rest:
            continue
        if open_word:
            words[-1].space_font = font
        # The words between white spaces of this run, each all in its font.
        words += [_Word([(font, word)], _width(word, font, size), font) for word in rest[:-1]]
        open_word = bool(rest[-1])
        if open_word:
            words.append(_Word([(font, rest[-1])], _width(rest[-1], font, size)))
    return words


def _word_lines(pieces: list[Run], style: ParagraphStyle, bullet: str | None, width: float) -> tuple[Line, ...]:
    """Lines broken between words, as ReportLab's paragraph breaks them: a hard line break ends a line
    (an empty one too), and one that ends the text adds none."""
    first, room = _widths(style, bullet, width)
    hard = split_newlines(pieces)
    lines: list[Line] = []
    for number, runs in enumerate(hard):
        if len(runs) == 1 and runs[0][0] != ICON and _in_one_font(*runs[0], lines, first, room, style.fontSize):
            continue
        words = _words(runs, style.fontSize)
        if words:
            _fill(words, lines, first, room, style)
        elif number < len(hard) - 1:
            lines.append(())
    return tuple(lines)


def _in_one_font(font: str, text: str, lines: list[Line], first: float, room: float, size: float) -> bool:
    """_fill for a line of one font (most of a document's), adding its lines; False where it has no
    words or one too long for a line, which _fill cuts."""
    words = [word for word in _SPACES.split(text) if word]
    widths = [_width(word, font, size) for word in words]
    if not words or max(widths) > min(first, room):
        return False
    space = _width(" ", font, size)
    start, used = 0, widths[0]
    for index in range(1, len(words)):
        wide = used + space + widths[index] if widths[index] > 0 else used
        if wide > (room if lines else first):
            lines.append(((font, " ".join(words[start:index])),))
            start, used = index, widths[index]
        else:
            used = wide
    lines.append(((font, " ".join(words[start:])),))
    return True


def _fill(words: list[_Word], lines: list[Line], first: float, room: float, style: ParagraphStyle) -> None:
    """Adds the lines `words` make: a word goes to the next line when it would pass the room, and
    one wider than the room is cut by the character."""
    line: list[_Word] = []
    used = space = 0.0
    queue = words[::-1]  # the next word last
    while queue:
        word = queue.pop()
        limit = room if lines else first
        wide = used + space + word.width if word.width > 0 else used
        if wide > limit and word.width > limit and not word.cut:
            queue += reversed(_cut(word, limit - space - used, room, style.fontSize))
            continue
        if wide > limit and line:
            lines.append(_drawn(line, style))
            line, used = [word], word.width
        else:
            line.append(word)
            used = wide
        space = word.space_after(style)
        if word.ends_line:
            lines.append(_drawn(line, style))
            line, used, space = [], 0.0, 0.0
    if line:
        lines.append(_drawn(line, style))


def _cut(word: _Word, left: float, room: float, size: float) -> list[_Word]:
    """A word too long for a line in pieces: the first fills the `left` pt left on the current line,
    the next each a whole line, the last goes on as a word."""
    pieces = [_Word([], cut=True)]
    limit = left
    for font, text in word.parts:
        for char in [text] if font == ICON else text:
            advance = size if font == ICON else _width(char, font, size)
            piece = pieces[-1]
            if piece.width + advance > limit and (piece.width or advance <= room):
                if not piece.parts:
                    piece.parts.append((font, ""))
                pieces.append(_Word([], cut=True))
                limit = room
            pieces[-1].add(font, char, size)
    pieces[-1].ends_line = False
    pieces[-1].space_font = word.space_font
    return pieces


def _drawn(words: list[_Word], style: ParagraphStyle) -> Line:
    """A line of words as drawn: one space between words."""
    runs: list[Run] = []
    for number, word in enumerate(words):
        parts = word.parts
        if number:
            parts = [(words[number - 1].drawn_space(style), " "), *parts]
        for font, text in parts:
            if runs and runs[-1][0] == font != ICON:
                runs[-1] = (font, runs[-1][1] + text)
            else:
                runs.append((font, text))
    return tuple(runs)


def _cjk_lines(pieces: list[Run], style: ParagraphStyle, bullet: str | None, width: float) -> tuple[Line, ...]:
    """Lines broken by the character under kinsoku; white space in them drawn as one space, and one
    that starts a line kept, as ReportLab's CJK wrapping of those lines drew them."""
    first, room = _widths(style, bullet, width)
    broken, _ = break_cjk(pieces, style.fontSize, room, first)
    lines = []
    for runs in broken:
        drawn = [(font, text if font == ICON else _SPACES.sub(" ", text)) for font, text in runs]
        lines.append(tuple((font, text) for font, text in drawn if text))
    return tuple(lines)
