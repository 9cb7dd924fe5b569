"""Stage 5, render: positioned pages and composed faces in, PDF bytes out.

``render_pdf`` draws with ReportLab exactly what layout and face composition
decided: card faces and backs clipped to their paint areas, crop marks, the
fold line, the page-info strip with its 50 mm ruler, and the TrimBox and
BleedBox of every page. It makes no decisions about text or geometry of its
own. Output is reproducible (ReportLab's invariant mode) and every font is
embedded as a subset.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing, Group, Shape
from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from . import textfit
from .face import BackFace, Face, Faces
from .fonts import FontBook
from .layout import Page, Slot
from .markup import Span
from .model import Deck
from .units import Rect, mm, pt


@dataclass(frozen=True)
class RenderOptions:
    ink_saver: bool
    sheet: Mapping          # templates/sheet.yaml
    strings: Mapping        # templates/strings.yaml entry of the deck's language


def tint(color: str, amount: float) -> Color:
    """The colour mixed with white: amount 0 is white, 1 the colour itself."""
    c = HexColor(color)
    return Color(1 - (1 - c.red) * amount, 1 - (1 - c.green) * amount, 1 - (1 - c.blue) * amount)


def shade(color: str, amount: float) -> Color:
    """The colour mixed with black: amount 0 is the colour, 1 black."""
    c = HexColor(color)
    return Color(c.red * (1 - amount), c.green * (1 - amount), c.blue * (1 - amount))


@lru_cache(maxsize=None)
def _svg(path: Path) -> Drawing:
    drawing = svg2rlg(str(path))
    if drawing is None:
        raise ValueError(f"{path.name}: not a readable SVG")
    return drawing


def _recolor(node, color: Color, hole: Color) -> None:
    """Paints an icon's dark shapes in `color` and its white shapes, the holes, in `hole`."""
    if isinstance(node, Group):
        for child in node.contents:
            _recolor(child, color, hole)
    elif isinstance(node, Shape):
        fill = getattr(node, "fillColor", None)
        if fill is not None:
            is_white = min(fill.red, fill.green, fill.blue) > 0.9
            node.fillColor = hole if is_white else color
        if getattr(node, "strokeColor", None) is not None:
            node.strokeColor = color


class _Painter:
    def __init__(self, canvas: Canvas, deck: Deck, faces: Faces, book: FontBook, options: RenderOptions,
                 body_font: str):
        self.c = canvas
        self.deck = deck
        self.faces = faces
        self.book = book
        self.options = options
        self.layout = faces.layout
        self.forms: dict[tuple[Path, str, str], str] = {}
        self.body_font = body_font

    # -- symbols: each (file, colour) becomes one PDF form, drawn as often as needed
    def symbol(self, path: Path, color: Color, box: Rect, hole: Color = white) -> None:
        key = (path, color.hexval(), hole.hexval())
        drawing = _svg(path)
        if key not in self.forms:
            # Named by first use, not by hash(), so that rebuilds are byte-identical.
            self.forms[key] = name = f"Sym{len(self.forms)}"
            # A fresh copy per colour: recolouring changes the cached drawing's shapes.
            copy = svg2rlg(str(path))
            _recolor(copy, color, hole)
            # Otherwise the drawing starts from Helvetica, which would end up referenced but not embedded.
            copy.initialFontName = self.body_font
            self.c.beginForm(name, 0, 0, copy.width, copy.height)
            renderPDF.draw(copy, self.c, 0, 0)
            self.c.endForm()
        scale = min(pt(box.w) / drawing.width, pt(box.h) / drawing.height)
        w, h = drawing.width * scale, drawing.height * scale
        self.c.saveState()
        self.c.translate(pt(box.cx) - w / 2, pt(box.cy) - h / 2)
        self.c.scale(scale, scale)
        self.c.doForm(self.forms[key])
        self.c.restoreState()

    def rect(self, r: Rect, radius: float = 0, fill: Color | None = None, stroke: Color | None = None,
             width: float = 0) -> None:
        c = self.c
        if fill is not None:
            c.setFillColor(fill)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(pt(width))
        c.roundRect(pt(r.x), pt(r.y), pt(r.w), pt(r.h), pt(radius), stroke=int(stroke is not None),
                    fill=int(fill is not None))

    # -- card sides, drawn in card coordinates (origin at the trim's bottom-left)
    def front(self, face: Face, paint: Rect) -> None:
        layout, card = self.layout, face.card
        color = card.team.color if card.team else "#3a3a3a"
        ink = self.options.ink_saver
        if not ink:
            self.rect(paint, fill=HexColor(layout["stock"]))
        if ink:
            self.rect(face.frame, layout["frame"]["radius"], stroke=HexColor(color),
                      width=layout["ink-saver"]["frame-width"])
        else:
            self.rect(face.frame, layout["frame"]["radius"], fill=HexColor(color))
            self.rect(face.panel, layout["panel"]["radius"], fill=HexColor(layout["panel"]["color"]))
        if card.team and card.team.edge:
            # Only beside the name and symbol: a trail under the ability text would blur it.
            trail = Rect(face.panel.x, face.team_box.top, face.panel.w, face.panel.top - face.team_box.top)
            self.edge(card.team.edge, trail, tint(color, layout["edge"]["tint"]))
        textfit.draw(face.name, self.c, face.name_box.x, face.name_box.top, valign_height=face.name_box.h)
        if card.symbol:
            hole = white if ink else HexColor(layout["panel"]["color"])
            self.symbol(card.symbol, HexColor(color), face.symbol_box, hole)
        pill = Rect(face.team_box.x, face.team_box.y, face.team_box.w, face.team_box.h)
        if ink:
            self.rect(pill, pill.h / 2, stroke=HexColor(color), width=0.3)
        else:
            self.rect(pill, pill.h / 2, fill=HexColor(color))
        textfit.draw(face.team, self.c, pill.x, pill.top, valign_height=pill.h)
        textfit.draw(face.ability, self.c, face.ability_box.x, face.ability_box.top)

    def edge(self, path: Path, panel: Rect, color: Color) -> None:
        spec = self.layout["edge"]
        size, step = spec["size"], spec["step"]
        y = panel.top - step / 2
        left = True
        while y - size / 2 > panel.y:
            x = panel.x + 0.8 if left else panel.right - size - 0.8
            self.symbol(path, color, Rect(x, y - size / 2, size, size))
            left = not left
            y -= step / 2

    def back(self, back: BackFace, paint: Rect) -> None:
        spec, deck_back = self.layout["back"], self.deck.back
        ink = self.options.ink_saver
        if ink:
            self.rect(paint, fill=white)
        else:
            self.rect(paint, fill=HexColor(deck_back.color))
        if deck_back.pattern:
            pattern = spec["pattern"]
            # On the dark back the pattern is the back colour a little lighter; ink-saver keeps it faint on white.
            color = tint(deck_back.color, self.layout["ink-saver"]["tint"] if ink else 1 - pattern["tint"])
            size, step = pattern["size"], pattern["step"]
            row = 0
            y = paint.y
            while y < paint.top:
                x = paint.x + (step / 2 if row % 2 else 0)
                while x < paint.right:
                    self.symbol(deck_back.pattern, color, Rect(x, y, size, size))
                    x += step
                y += step * 0.8
                row += 1
        if deck_back.symbol:
            # The emblem's dark shapes sink into the back; its light ones (a moon, say) glow.
            dark = tint(deck_back.color, spec["ink-saver-tint"]) if ink else shade(deck_back.color, spec["emblem-shade"])
            self.symbol(deck_back.symbol, dark, back.emblem_box, white if ink else HexColor(spec["emblem-color"]))
        textfit.draw(back.title, self.c, back.title_box.x, back.title_box.top, valign_height=back.title_box.h)

    # -- sheet furniture
    def slot(self, slot: Slot) -> None:
        c = self.c
        c.saveState()
        path = c.beginPath()
        path.rect(pt(slot.paint.x), pt(slot.paint.y), pt(slot.paint.w), pt(slot.paint.h))
        c.clipPath(path, stroke=0, fill=0)
        c.translate(pt(slot.trim.x), pt(slot.trim.y))
        if slot.rotation == 180:
            c.translate(pt(slot.trim.w), pt(slot.trim.h))
            c.rotate(180)
        paint = Rect(slot.paint.x - slot.trim.x, slot.paint.y - slot.trim.y, slot.paint.w, slot.paint.h)
        if slot.rotation == 180:
            paint = Rect(slot.trim.w - (paint.x + paint.w), slot.trim.h - (paint.y + paint.h), paint.w, paint.h)
        card = self.deck.copies[slot.item]
        if slot.side == "front":
            self.front(self.faces.fronts[card.id], paint)
        else:
            self.back(self.faces.back, paint)
        c.restoreState()

    def marks(self, page: Page) -> None:
        c, sheet = self.c, self.options.sheet
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(sheet["crop-marks"]["line-width-pt"])
        for x1, y1, x2, y2 in page.marks:
            c.line(pt(x1), pt(y1), pt(x2), pt(y2))
        if page.fold_line:
            x1, y1, x2, y2 = page.fold_line
            c.setLineWidth(sheet["fold"]["line-width-pt"])
            c.setDash([pt(d) for d in sheet["fold"]["dash"]])
            c.line(pt(x1), pt(y1), pt(x2), pt(y2))
            c.setDash()

    def info(self, page: Page, number: int, total: int) -> None:
        """The page-info block: a 50 mm ruler, what it is for, and which page this is.

        It sits on the side of the strip that faces the cards, because the
        strip runs out to the paper's edge, where home printers do not print.
        """
        strings, ruler = self.options.strings, self.options.sheet["ruler"]
        side = strings["fronts" if page.side == "front" else "backs" if page.side == "back" else "fold"]
        label = " · ".join([self.deck.name.value, strings["language"], side,
                            strings["page"].format(n=number, total=total)])
        size, length = ruler["text-size"], ruler["length"]
        depth = ruler["depth"]
        along = max(length, *(mm(self.width(text, size)) for text in (strings["ruler"], label)))
        strip, cards, gap = page.info, page.bleed_box, ruler["gap"]
        c = self.c
        c.saveState()
        if page.info_rotation == 90:
            x = strip.right - gap if strip.right <= cards.x else strip.x + gap + depth
            c.translate(pt(x), pt(strip.cy - along / 2))
            c.rotate(90)
        else:
            y = strip.top - gap - depth if strip.top <= cards.y else strip.y + gap
            c.translate(pt(strip.cx - along / 2), pt(y))
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(ruler["line-width-pt"])
        top = depth - 0.2
        c.line(0, pt(top), pt(length), pt(top))
        for tick in range(int(length) + 1):
            drop = 1.2 if tick % 10 == 0 else 0.8 if tick % 5 == 0 else 0.45
            c.line(pt(tick), pt(top), pt(tick), pt(top - drop))
        self.line(strings["ruler"], 0, top - 1.2 - mm(size), size)
        self.line(label, 0, 0.3, size)
        c.restoreState()

    def width(self, text: str, size: float) -> float:
        return self.book.width(text, self.deck.lang, size)

    def line(self, text: str, x: float, y: float, size: float) -> None:
        """One line of plain text with its baseline at (x, y) mm, each character in a font that has it."""
        self.c.setFillColorRGB(0.15, 0.15, 0.15)
        x = pt(x)
        for font, piece in self.book.runs(Span(text), self.deck.lang):
            self.c.setFont(font, size)
            self.c.drawString(x, pt(y), piece)
            x += self.c.stringWidth(piece, font, size)

    def page(self, page: Page, number: int, total: int) -> None:
        c = self.c
        c.setPageSize((pt(page.size.w), pt(page.size.h)))
        for name, box in (("setTrimBox", page.trim_box), ("setBleedBox", page.bleed_box)):
            getattr(c, name)((pt(box.x), pt(box.y), pt(box.right), pt(box.top)))
        for slot in page.slots:
            self.slot(slot)
        self.marks(page)
        self.info(page, number, total)
        c.showPage()


def render_pdf(deck: Deck, pages: list[Page], faces: Faces, book: FontBook, options: RenderOptions) -> bytes:
    buffer = io.BytesIO()
    # ReportLab opens every page with a font set; left to itself that is
    # Helvetica, a font the PDF would reference without embedding.
    body_font = book.face(book.order(deck.lang)[0], False, False)
    canvas = Canvas(buffer, invariant=1, pageCompression=1, initialFontName=body_font)
    canvas.setTitle(f"{deck.name.value} ({deck.lang})")
    canvas.setCreator("cardgen")
    painter = _Painter(canvas, deck, faces, book, options, body_font)
    for number, page in enumerate(pages, start=1):
        painter.page(page, number, len(pages))
    canvas.save()
    return buffer.getvalue()
