"""The duplex calibration sheet: a paper size and the back offset in use in, a two-page PDF out.

Front: a horizontal and a vertical scale crossing at the middle of the page,
ticked every 0.5 mm. Back: two pointer lines through the middle of the page,
placed with the back offset in use. Printed duplex and held against a light,
each pointer crosses its scale at the number to give ``--back-offset`` (the
scales are numbered for the way the sheet is flipped), so that the backs land
on their fronts; printed again with that offset, both pointers read 0.
"""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from cardgen.core.units import Size, pt
from cardgen.text import lines
from cardgen.text.fonts import FontBook
from cardgen.text.markup import Span

REACH = 8.0  # mm either side of the middle
STEP = 0.5  # mm between ticks


def _text(canvas: Canvas, book: FontBook, text: str, x: float, y: float, size: float, lang: str = "en") -> None:
    lines.draw_runs(canvas, book.runs(Span(text), lang), x, y, size, lines.right_to_left(book, lang, text))


def render_calibration(
    paper: Size, book: FontBook, backs: str, back_offset: tuple[float, float], lines: list[str]
) -> bytes:
    """`lines` are the instructions printed on the front, in the user's language."""
    buffer = io.BytesIO()
    body_font = book.face(book.order("en")[0], False, False)
    c = Canvas(buffer, pagesize=(pt(paper.w), pt(paper.h)), invariant=1, initialFontName=body_font)
    c.setTitle("cardgen duplex calibration")
    middle_x, middle_y = paper.w / 2, paper.h / 2
    # Which axis the flip mirrors decides the sign a reading needs to become an offset.
    sign_x, sign_y = (1, -1) if backs == "long" else (-1, 1)
    c.setLineWidth(0.3)
    ticks = int(REACH / STEP)
    for i in range(-ticks, ticks + 1):
        t = i * STEP
        # Half millimetres short, millimetres longer, every second millimetre longest and numbered.
        length = 6.0 if i % 4 == 0 else 4.0 if i % 2 == 0 else 2.0
        c.line(pt(middle_x + t), pt(middle_y + 10), pt(middle_x + t), pt(middle_y + 10 + length))
        c.line(pt(middle_x + 10), pt(middle_y + t), pt(middle_x + 10 + length), pt(middle_y + t))
        if i % 4 == 0:
            value_x, value_y = sign_x * t + 0.0, sign_y * t + 0.0  # + 0.0: no "-0"
            _text(c, book, f"{value_x:g}", pt(middle_x + t) - 2, pt(middle_y + 17.5), 5)
            _text(c, book, f"{value_y:g}", pt(middle_x + 17.5), pt(middle_y + t) - 1.5, 5)
    for number, line in enumerate(lines):
        _text(c, book, line, pt(20), pt(paper.h - 25) - number * 13, 10)
    c.showPage()
    dx, dy = back_offset
    c.translate(pt(dx), pt(dy))
    c.setLineWidth(0.6)
    # Each pointer runs behind its scale: the flip mirrors one axis, so the pointer does too.
    # Long enough to cross the scale whatever the misplacement.
    near, far = (-30, -5) if backs == "short" else (5, 30)
    c.line(pt(middle_x), pt(middle_y + near), pt(middle_x), pt(middle_y + far))
    near, far = (-30, -5) if backs == "long" else (5, 30)
    c.line(pt(middle_x + near), pt(middle_y), pt(middle_x + far), pt(middle_y))
    c.showPage()
    c.save()
    return buffer.getvalue()
