"""Ruby: characters with their readings (pinyin) and a box width in; lines of columns out, each
reading centred above its character and the pair kept as one unit when lines break."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import toColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.text.fonts import FontBook
from cardgen.text.linebreak import line_ranges
from cardgen.text.lines import Layout, excess
from cardgen.text.markup import Span


@dataclass(frozen=True)
class _Column:
    """A character and its reading above it, as wide as the wider of the two."""

    font: str
    char: str
    reading: tuple[tuple[str, str], ...]  # (font, text) runs
    width: float  # pt


class _Ruby:
    """Lines of columns, each reading centred above its character, drawn in one colour."""

    def __init__(
        self,
        lines: list[list[_Column]],
        size: float,
        ruby_size: float,
        ruby_height: float,
        line_height: float,
        width: float,
        align: str,
        color: str,
    ):
        self.lines, self.size, self.ruby_size = lines, size, ruby_size
        self.ruby_height, self.line_height, self.align, self.color = ruby_height, line_height, align, color
        self.width, self.height = width, len(lines) * line_height

    def draw_on(self, c, x: float, y: float) -> None:
        """Drawn with its box's bottom-left corner at (x, y) pt, moved there as a Block is."""
        c.saveState()
        c.translate(x, y)
        self._draw(c)
        c.restoreState()

    def _draw(self, c) -> None:
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
                c.drawCentredString(
                    middle, top - self.ruby_height - pdfmetrics.getAscent(column.font, self.size), column.char
                )
                x += column.width


# Room between a reading's descenders and the top of its character, and between two readings side by side.
RUBY_GAP = 0.12
RUBY_SPACING = 0.3


def ruby_layout(
    pieces,
    readings: tuple[str, ...],
    book: FontBook,
    size: float,
    ruby: float,
    leading: float,
    box_width: float,
    align: str,
    color: str,
    ruby_lang: str,
) -> Layout:
    """The characters of pieces, each with its reading above it at `ruby` times the size, broken into
    lines between the columns where the characters' own rules allow it (kinsoku included)."""
    ruby_size = size * ruby
    chars = [(font, ch) for font, text in pieces for ch in text]
    columns = []
    for (font, ch), reading in zip(chars, (*readings, *[""] * len(chars))):
        runs = tuple(book.runs(Span(reading), ruby_lang)) if reading else ()
        over = sum(stringWidth(text, f, ruby_size) for f, text in runs)
        columns.append(
            _Column(font, ch, runs, max(stringWidth(ch, font, size), over + RUBY_SPACING * ruby_size if runs else 0.0))
        )
    ranges, too_wide = line_ranges(
        "".join(column.char for column in columns), [column.width for column in columns], box_width
    )
    lines = [columns[start:end] for start, end in ranges]
    ruby_font = next((f for column in columns for f, _ in column.reading), None)
    ascent, descent = pdfmetrics.getAscentDescent(ruby_font, ruby_size) if ruby_font else (0.0, 0.0)
    ruby_height = ascent - descent + RUBY_GAP * ruby_size if ruby_font else 0.0
    base = max(
        (pdfmetrics.getAscent(c.font, size) - pdfmetrics.getDescent(c.font, size) for c in columns), default=size
    )
    paragraph = _Ruby(
        lines, size, ruby_size, ruby_height, ruby_height + max(size * leading, base), box_width, align, color
    )
    return Layout(paragraph, paragraph.height, excess(too_wide, 0.0))
