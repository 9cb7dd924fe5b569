"""Lines of text that cardgen breaks and draws itself: (font, text) runs and a width in pt in; lines of
runs out, and those lines drawn on a ReportLab canvas. Cards and documents share both halves.

Lines break between words by the rule ReportLab's paragraph follows (greedy, a space measured and
drawn in the font of the run it is in; a word longer than a line cut by the character where asked,
else left to stick out, as on a card, whose fitting then finds it too wide). Lines broken elsewhere
(by :func:`~cardgen.text.linebreak.break_cjk`) are drawn as a paragraph draws a line: words one space
apart. :func:`draw_lines` draws lines where ReportLab's paragraph drew the same lines, pixel for pixel
at 150 dpi (tests/test_document_text.py and tests/test_card_text.py hold it to that): handing ReportLab
lines cardgen had broken made it wrap, parse and merge them again, most of the time text took.
Nothing here parses markup: a deck's text is only ever drawn as text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, Protocol
from weakref import WeakKeyDictionary

from cardgen.cards.icons import INLINE_CALLBACK
from cardgen.core import reportlab_private
from cardgen.text import shaping
from cardgen.text.fonts import ICON, FontBook
from cardgen.text.linebreak import measures, split_newlines

Run = tuple[str, str]  # (font, text); ICON's text is the card id of an inline icon
Line = tuple[Run, ...]  # as drawn: a run per change of font, the spaces between words in them


def excess(value: float, limit: float) -> float:
    """How much value exceeds limit, ignoring rounding noise."""
    return value - limit if value > limit + reportlab_private.FUZZ else 0.0


class Drawn(Protocol):
    """Text laid out in a box: its height (pt), drawn with its box's bottom-left corner at (x, y) pt,
    leaving the canvas's state as it found it."""

    @property
    def height(self) -> float: ...

    def draw_on(self, canvas: Any, x: float, y: float) -> None: ...


@dataclass(frozen=True)
class Layout:
    """Text laid out at one size: what draws it, its height and how far its widest line is wider than
    the box (pt)."""

    drawn: Drawn
    height: float
    too_wide: float
    # How far a word cut between its syllables (Korean keeps them together) is wider than the box: the
    # text shrinks before it cuts one, and at its least size is cut rather than run off the box.
    cut: float = 0.0


@dataclass(frozen=True, eq=False)
class Block:
    """Lines in one colour, each `shifts` pt right of the box's left edge (a centred line's share of the
    room left), its baselines `leading` apart, the first its type size below the box's top; `rtl`: a
    paragraph read right to left, whose lines are put in visual order by the bidi algorithm."""

    lines: tuple[Line, ...]
    size: float
    leading: float
    color: Any  # a ReportLab colour
    font: str  # set before the first run, for an inline icon at a line's start to find the size
    shifts: tuple[float, ...]
    rtl: bool = False

    @property
    def height(self) -> float:
        return len(self.lines) * self.leading

    def draw_on(self, canvas: Any, x: float, y: float) -> None:
        if not self.lines:
            return
        # Moved there, as ReportLab draws a paragraph: where the text sits is written as the same numbers,
        # not as their sum, which a renderer can round the other way at a pixel's edge. The saved state
        # takes the colour back.
        canvas.saveState()
        canvas.translate(x, y)
        drawn = _DRAWN.setdefault(canvas, {})
        code = drawn.get(self)
        if code is None:
            code = draw_lines(canvas, self, 0.0, self.height - self.size)
            # An inline icon is drawn by a callback beside the text, each time: such a text is drawn anew.
            if not any(font == ICON for line in self.lines for font, _ in line):
                if len(drawn) >= _KEPT:
                    del drawn[next(iter(drawn))]
                drawn[self] = code
        else:
            # The copies of a card, the backs of a group: the same text in the same place of its box, in
            # the same PDF, whose fonts have its characters already.
            canvas.setFillColor(self.color)
            canvas.addLiteral(code)
        canvas.restoreState()


# Each canvas's text operators of the blocks it drew last: a block drawn again is written again as they were.
# A card's copies and a group's backs come close together; keeping the last few hundred, not every text,
# keeps a deck of 10,000 roles from holding the operators of all 40,000 of its texts.
_DRAWN: WeakKeyDictionary[Any, dict[Block, str]] = WeakKeyDictionary()
_KEPT = 512


def draw_lines(canvas: Any, block: Block, x: float, baseline: float) -> str:
    """The block's lines drawn with the first baseline at (x, baseline) pt, as ReportLab's paragraph
    draws them: one text object, a font set where a run changes it, each line ended with a line feed
    of the leading, an inline icon painted where its line has reached by the canvas's onDraw callback.
    Returns the text object's operators, as written."""
    size, leading = block.size, block.leading
    canvas.setFillColor(block.color)
    text = canvas.beginText(x, baseline)
    font = block.font
    text.setFont(font, size, leading)
    for number, (line, shift) in enumerate(zip(block.lines, block.shifts)):
        # As a paragraph moves a line's start (past a bullet, to centre it): not by rounding noise.
        if abs(shift) <= 1e-6:
            shift = 0.0
        if shift:
            text.setXPos(shift)
        if block.rtl or any(font != ICON and shaping.needs(run) for font, run in line):
            font, shift = _draw_visual(canvas, text, block, line, font, shift, baseline - number * leading)
            if shift:
                text.setXPos(-shift)
            continue
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
    code = text.getCode()
    canvas.addLiteral(code)  # what drawText writes
    return code


def _draw_visual(
    canvas: Any, text: Any, block: Block, line: Line, font: str, shift: float, baseline: float
) -> tuple[str, float]:
    """A line of shaped or right-to-left text drawn in visual order, each glyph standing in the text layer
    for its characters (shaping.py). A line read left to right whose clusters are drawn in more than one
    glyph (a conjunct, a vowel sign before its consonant) carries its logical text as /ActualText; in a
    shaped right-to-left run, a glyph that stands for no text (a vowel mark) is drawn marked as such.
    Returns the font set last and how far the line's start has moved (an inline icon moves it)."""
    size, leading = block.size, block.leading
    pieces = shaping.visual(line, block.rtl, ICON)
    shown = [
        shaping.shaped(piece.text, line[piece.run][0], piece.rtl)
        if line[piece.run][0] != ICON and (piece.rtl or shaping.needs(piece.text))
        else None
        for piece in pieces
    ]
    clustered = any(actual for shaped in shown if shaped for _, actual in shaped.parts)
    whole = clustered and not any(piece.rtl for piece in pieces)
    if whole:
        reportlab_private.begin_actual_text(text, "".join(run for run_font, run in line if run_font != ICON))
    reached = 0.0  # how far past the line's start the text has been drawn
    for piece, shaped in zip(pieces, shown):
        run_font = line[piece.run][0]
        if run_font == ICON:
            start = text.getStartOfLine()[0]
            reportlab_private.call_inline(canvas, INLINE_CALLBACK, piece.text, text, start + reached, baseline)
            # Moved past it as a Td from the line's start: a shaped run leaves ReportLab's idea of x behind.
            text.setXPos(reached + size)
            shift += reached + size
            reached = 0.0
            continue
        if shaped is None:
            if run_font != font:
                font = run_font
                text.setFont(font, size, leading)
            text.textOut(piece.text)
            reached += width(piece.text, font, size)
            continue
        font = run_font
        for glyphs, actual in shaped.parts:
            own = None if whole else actual  # inside the line's /ActualText, a part's own would be nested
            if own is not None:
                reportlab_private.begin_actual_text(text, own)
            # Set again before shaped glyphs: ReportLab writes a raised or lowered first mark (its rise)
            # only after the font's operator, and fails where it has none to write.
            text.setFont(font, size, leading)
            text.textOut(glyphs)
            if own is not None:
                reportlab_private.end_marked(text)
        reached += shaped.advance * size / 1000
    if whole:
        reportlab_private.end_marked(text)
    text.textLine("")
    return font, shift


def draw_runs(canvas: Any, runs: Sequence[Run], x: float, y: float, size: float, rtl: bool = False) -> None:
    """One line of (font, text) runs with its baseline's left end at (x, y) pt, in the canvas's fill colour:
    a run at a time with drawString, as a page's header or a label is drawn, unless it holds shaped text
    or reads right to left (rtl), which is shaped and put in visual order as a paragraph's line is."""
    if not rtl and not any(shaping.needs(text) for _, text in runs):
        for font, text in runs:
            canvas.setFont(font, size)
            canvas.drawString(x, y, text)
            x += canvas.stringWidth(text, font, size)
        return
    line = tuple(runs)
    canvas.saveState()
    canvas.translate(x, y)
    # The canvas's fill colour stays: the text is drawn in it.
    text = canvas.beginText(0, 0)
    text.setFont(line[0][0], size, size)
    _draw_visual(canvas, text, Block((line,), size, size, None, line[0][0], (0.0,), rtl), line, line[0][0], 0.0, 0)
    canvas.drawText(text)
    canvas.restoreState()


def right_to_left(book: FontBook, lang: str | None, text: str) -> bool:
    """Whether a paragraph reads right to left: as its language is written (fonts.yaml's `rtl:`), or,
    with no language to go by, as its first strong character reads."""
    return book.is_rtl(lang) if lang else shaping.starts_rtl(text)


def aligned(widths: Sequence[float], room: float, align: str, rtl: bool, count: int) -> tuple[float, ...]:
    """How far right of the box's left edge each of `count` lines starts, lines `widths` pt wide in a box
    `room` pt wide: centred, or at the side its paragraph starts on (the right, read right to left)."""
    if align == "center":
        return tuple((room - wide) / 2 for wide in widths)
    if rtl:
        return tuple(room - wide for wide in widths)
    return (0.0,) * count


def line_width(line: Line, size: float) -> float:
    """How wide a line is drawn, in pt (an inline icon is as wide as the type is high)."""
    return sum(size if font == ICON else width(text, font, size) for font, text in line)


@lru_cache(maxsize=65536)
def width(text: str, font: str, size: float) -> float:
    return shaping.advance(text, font, size)


# ReportLab's white space, where its paragraph breaks a line and which it draws as one space.
SPACES = re.compile(f"[{re.escape(reportlab_private.WHITESPACE)}]+")


class _Word:
    __slots__ = ("cut", "ends_line", "parts", "space_font", "width")

    def __init__(self, parts: list[Run], wide: float = 0.0, space_font: str | None = None, cut: bool = False):
        self.parts, self.width = parts, wide
        self.space_font = space_font  # the font of the white space after it, which measures and draws it
        self.cut = cut  # a piece of a word too long for a line: never cut again
        self.ends_line = cut  # a piece but the last fills its line to the end

    def add(self, font: str, text: str, size: float) -> None:
        self.width += size if font == ICON else measures(font, size)[text]
        if self.parts and self.parts[-1][0] == font != ICON:
            self.parts[-1] = (font, self.parts[-1][1] + text)
        else:
            self.parts.append((font, text))

    def drawn_space(self, base: str) -> str:
        """The font of the space after the word; `base`, the paragraph's, after an inline icon."""
        font = self.space_font or (self.parts[-1][0] if self.parts else base)
        return base if font == ICON else font


class _Setting(NamedTuple):  # one a paragraph laid out: a tuple costs less to make than a frozen dataclass
    base: str  # the paragraph's font: the space after an inline icon is in it
    size: float
    first: float  # the room on the first line, pt
    room: float  # and on the others
    cut: bool  # whether a word wider than a line is cut by the character (documents) or sticks out (cards)


def word_lines(pieces: Sequence[Run], base: str, size: float, first: float, room: float, cut: bool) -> tuple[Line, ...]:
    """Lines broken between words, as ReportLab's paragraph breaks them: a hard line break ends a line
    (an empty one too), and one that ends the text adds none. `base` is the paragraph's font, `first`
    and `room` the width of the first line and of the others (pt); `cut`: whether a word wider than a
    line is cut by the character, or left whole to stick out."""
    setting = _Setting(base, size, first, room, cut)
    hard = split_newlines(list(pieces))
    lines: list[Line] = []
    for number, runs in enumerate(hard):
        if len(runs) == 1 and runs[0][0] != ICON and _in_one_font(*runs[0], lines, setting):
            continue
        words = _words(runs, size)
        if words:
            _fill(words, lines, setting)
        elif number < len(hard) - 1:
            lines.append(())
    return tuple(lines)


def kept_lines(lines: Sequence[Sequence[Run]], base: str, size: float) -> tuple[Line, ...]:
    """Lines broken already, each as a paragraph draws a line it is given whole: its words one space
    apart, none at either end (an empty line stays, as a line)."""
    return tuple(
        # Most lines of a CJK text have no white space: they are drawn as they are.
        tuple(line)
        if not any(font == ICON or SPACES.search(text) for font, text in line)
        else _drawn(_words(list(line), size), base)
        for line in lines
    )


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
        first, *rest = SPACES.split(text)
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
        measure = measures(font, size)
        words += [_Word([(font, word)], measure[word], font) for word in rest[:-1]]
        open_word = bool(rest[-1])
        if open_word:
            words.append(_Word([(font, rest[-1])], measure[rest[-1]]))
    return words


def _in_one_font(font: str, text: str, lines: list[Line], setting: _Setting) -> bool:
    """_fill for a line of one font (most lines), adding its lines; False where it has no words, or
    one too long for a line where such a word is cut, which _fill does."""
    words = [word for word in SPACES.split(text) if word]
    if not words:
        return False
    size, first, room = setting.size, setting.first, setting.room
    measure = measures(font, size)
    widths = list(map(measure.__getitem__, words))
    if setting.cut and max(widths) > min(first, room):
        return False
    space = measure[" "]
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


def _fill(words: list[_Word], lines: list[Line], setting: _Setting) -> None:
    """Adds the lines `words` make: a word goes to the next line when it would pass the room, and
    one wider than the room is cut by the character where the setting cuts."""
    base, size, cut = setting.base, setting.size, setting.cut
    spaces: dict[str, float] = {}  # the width of a space, by font: a line's words are in one or two
    line: list[_Word] = []
    used = space = 0.0
    queue = words[::-1]  # the next word last
    while queue:
        word = queue.pop()
        limit = setting.room if lines else setting.first
        wide = used + space + word.width if word.width > 0 else used
        if cut and wide > limit and word.width > limit and not word.cut:
            queue += reversed(_cut(word, limit - space - used, setting))
            continue
        if wide > limit and line:
            lines.append(_drawn(line, base))
            line, used = [word], word.width
        else:
            line.append(word)
            used = wide
        font = word.drawn_space(base)
        space = spaces.get(font) or spaces.setdefault(font, measures(font, size)[" "])
        if word.ends_line:
            lines.append(_drawn(line, base))
            line, used, space = [], 0.0, 0.0
    if line:
        lines.append(_drawn(line, base))


def _cut(word: _Word, left: float, setting: _Setting) -> list[_Word]:
    """A word too long for a line in pieces: the first fills the `left` pt left on the current line,
    the next each a whole line, the last goes on as a word."""
    size = setting.size
    pieces = [_Word([], cut=True)]
    limit = left
    for font, text in word.parts:
        for char in [text] if font == ICON else text:
            advance = size if font == ICON else measures(font, size)[char]
            piece = pieces[-1]
            if piece.width + advance > limit and (piece.width or advance <= setting.room):
                if not piece.parts:
                    piece.parts.append((font, ""))
                pieces.append(_Word([], cut=True))
                limit = setting.room
            pieces[-1].add(font, char, size)
    pieces[-1].ends_line = False
    pieces[-1].space_font = word.space_font
    return pieces


def _drawn(words: list[_Word], base: str) -> Line:
    """A line of words as drawn: one space between words."""
    runs: list[tuple[str, list[str]]] = []  # each run's pieces, joined once at the end
    last = None  # the font of the last run, which the next piece of that font joins; None after an icon
    for number, word in enumerate(words):
        if number:
            font = words[number - 1].drawn_space(base)
            if font == last:
                runs[-1][1].append(" ")
            else:
                runs.append((font, [" "]))
                last = font
        for font, text in word.parts:
            if font == last:
                runs[-1][1].append(text)
            else:
                runs.append((font, [text]))
                last = None if font == ICON else font
    return tuple((font, "".join(pieces)) for font, pieces in runs)
