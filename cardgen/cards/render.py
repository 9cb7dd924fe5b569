"""Stage 5, render: positioned pages and composed faces in, PDF bytes out (``render_pdf``), or written to a
file page by page as they are drawn (``write_pdf``).

Both draw with ReportLab exactly what layout and face composition
decided: card faces and backs clipped to their paint areas, crop marks, the
fold line, the page-info strip with its 50 mm ruler, and the TrimBox and
BleedBox of every page. It makes no decisions about text or geometry of its
own. Output is reproducible (ReportLab's invariant mode) and every font is
embedded as a subset.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from cardgen.cards import art, pattern
from cardgen.cards.faces import RASTER, BackFace, Face, Faces, ListFace, RoleFace, TokenFace, WordsFace
from cardgen.cards.icons import IconPainter, has_holes, icon_bytes
from cardgen.cards.layout import Page, Slot, widest_bleed
from cardgen.core import pdfinfo
from cardgen.core.phrases import fill
from cardgen.core.reportlab_private import Repeats, SpilledPages
from cardgen.core.units import Rect, Size, mm, pt
from cardgen.deck.model import Deck, Group, team_color
from cardgen.text import textfit
from cardgen.text.fonts import FontBook
from cardgen.text.lines import draw_runs, right_to_left
from cardgen.text.markup import Span


@dataclass(frozen=True)
class RenderOptions:
    ink_saver: bool
    sheet: Mapping  # templates/sheet.yaml
    strings: Mapping  # templates/strings.yaml entry of the deck's language
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm: where a duplex printer misplaces the backs, undone
    # The page-info strip and round tokens' cut guides help whoever cuts by hand; a print
    # shop prints its own slug and cuts on its own die line, where a dark ring would show.
    cutting_aids: bool = True


@lru_cache(maxsize=1024)
def _hex_color(value: str) -> HexColor:
    # Every face asks for its team's colour and the layout's; parsing "#2f6b3a" each time adds up on a sheet.
    return HexColor(value)


@lru_cache(maxsize=1024)
def _raster(path: Path) -> bool:
    return path.suffix.lower() in RASTER


def tint(color: str, amount: float) -> Color:
    """The colour mixed with white: amount 0 is white, 1 the colour itself."""
    c = _hex_color(color)
    return Color(1 - (1 - c.red) * amount, 1 - (1 - c.green) * amount, 1 - (1 - c.blue) * amount)


def inline_icons(deck: Deck) -> dict[str, tuple[Path, Color]]:
    """The icons a text may show inline: every card that has an SVG symbol, in its team's colour."""
    return {
        card.id: (card.symbol, _hex_color(team_color(card)))
        for card in deck.cards
        if card.symbol and card.symbol.suffix.lower() == ".svg"
    }


def shade(color: str, amount: float) -> Color:
    """The colour mixed with black: amount 0 is the colour, 1 black."""
    c = _hex_color(color)
    return Color(c.red * (1 - amount), c.green * (1 - amount), c.blue * (1 - amount))


class _Painter:
    def __init__(
        self,
        canvas: Canvas,
        deck: Deck,
        faces: Faces,
        book: FontBook,
        options: RenderOptions,
        body_font: str,
        bleed: float,
    ):
        self.c = canvas
        self.bleed = bleed  # mm: the widest bleed of any card in the PDF
        self.deck = deck
        self.faces = faces
        self.book = book
        self.options = options
        self.layout: Mapping = {}  # of the card being drawn: set per slot, by its card size
        self.icons = IconPainter(canvas, body_font)
        self.icons.register_inline(inline_icons(deck))
        self.images: dict[str, ImageReader] = {}
        self.patterns: dict[tuple[Path, str, float, float, Size, Rect], str] = {}
        self.repeats = Repeats(canvas, 512)
        # Shapes that recur where they were: a card's frame, panel and pill on every card of its size,
        # a card place's clip and the crop marks on every sheet of a run, the ruler on every page.
        self.shapes = Repeats(canvas, 256)

    # -- symbols: each (file, colour) becomes one PDF form, drawn as often as needed
    def picture(self, path: Path, box: Rect, fit: str = "contain", focus: tuple[float, float] = (0.5, 0.5)) -> None:
        """A designer's picture in its own colours: raster images downsampled and embedded once, SVGs as forms."""
        if not _raster(path):
            self.symbol(path, None, box)
            return
        placed = art.place(path, box.w, box.h, fit, focus)
        if placed.key not in self.images:
            self.images[placed.key] = ImageReader(io.BytesIO(placed.png))
        # mask="auto" keeps transparency, and one mask value keeps ReportLab embedding the image once.
        self.c.drawImage(
            self.images[placed.key], pt(box.x + placed.x), pt(box.y + placed.y), pt(placed.w), pt(placed.h), mask="auto"
        )

    def symbol(self, path: Path, color: Color | None, box: Rect, hole: Color = white) -> None:
        """An icon in the box, its dark shapes in `color` (None: the file's own colours)."""
        if _raster(path):
            self.picture(path, box)
            return
        self.icons.draw(path, color, pt(box.x), pt(box.y), pt(box.w), pt(box.h), hole)

    def rect(
        self, r: Rect, radius: float = 0, fill: Color | None = None, stroke: Color | None = None, width: float = 0
    ) -> None:
        c = self.c
        if fill is not None:
            c.setFillColor(fill)
        if stroke is not None:
            c.setStrokeColor(stroke)
            c.setLineWidth(pt(width))
        lines, paint = int(stroke is not None), int(fill is not None)
        self.shapes.draw(
            ("rect", r, radius, lines, paint),
            lambda: c.roundRect(pt(r.x), pt(r.y), pt(r.w), pt(r.h), pt(radius), stroke=lines, fill=paint),
        )

    # -- card sides, drawn in card coordinates (origin at the trim's bottom-left)
    def face(self, face: Face, paint: Rect) -> None:
        if isinstance(face, RoleFace):
            self.role(face, paint)
        elif isinstance(face, TokenFace):
            self.token(face, paint)
        elif isinstance(face, WordsFace):
            self.words(face, paint)
        else:
            self.listing(face, paint)

    def framed(self, face: RoleFace | WordsFace | ListFace, paint: Rect) -> HexColor:
        """Card stock, the frame in the team's colour and the light panel; returns the colour."""
        layout = self.layout
        color = _hex_color(team_color(face.card))
        if self.options.ink_saver:
            self.rect(face.frame, layout["frame"]["radius"], stroke=color, width=layout["ink-saver"]["frame-width"])
        else:
            self.rect(paint, fill=_hex_color(layout["stock"]))
            self.rect(face.frame, layout["frame"]["radius"], fill=color)
            self.rect(face.panel, layout["panel"]["radius"], fill=_hex_color(layout["panel"]["color"]))
        return color

    def hole(self) -> Color:
        """What an icon's white parts become: the panel they sit on."""
        return white if self.options.ink_saver else _hex_color(self.layout["panel"]["color"])

    def role(self, face: RoleFace, paint: Rect) -> None:
        card, ink = face.card, self.options.ink_saver
        color = self.framed(face, paint)
        if card.team and card.team.edge and (card.art or card.symbol):
            # Only beside the picture: over the name or the ability text a trail would blur it (a card
            # without a picture gives its room to the text).
            trail = Rect(face.panel.x, face.team_box.top, face.panel.w, face.name_box.y - face.team_box.top)
            self.edge(card.team.edge, trail, tint(card.team.color, self.layout["edge"]["tint"]))
        textfit.draw(face.name, self.c, face.name_box.x, face.name_box.top, valign_height=face.name_box.h)
        if card.art:
            self.picture(card.art.path, face.symbol_box, card.art.fit, card.art.focus)
        elif card.symbol:
            self.symbol(card.symbol, color, face.symbol_box, self.hole())
        pill = face.team_box
        if ink:
            self.rect(pill, pill.h / 2, stroke=color, width=0.3)
        else:
            self.rect(pill, pill.h / 2, fill=color)
        mark = card.team.mark if card.team else None
        if mark is not None:  # only a team with a mark has marks on its pill
            for box in face.marks:
                # In the label's colour: white on the pill, or the team colour on an ink-saver outline.
                self.symbol(mark, color if ink else white, box, white if ink else color)
        label = face.label_box
        textfit.draw(face.team, self.c, label.x, label.top, valign_height=label.h)
        textfit.draw(face.ability, self.c, face.ability_box.x, face.ability_box.top)

    def token(self, face: TokenFace, paint: Rect) -> None:
        color = _hex_color(team_color(face.card))
        if self.options.ink_saver:
            self.circle(face.circle, stroke=color, width=self.layout["ink-saver"]["frame-width"])
        else:
            self.circle(paint, fill=color)
            self.circle(face.circle, fill=_hex_color(self.layout["panel"]["color"]))
        if face.symbol:
            self.symbol(face.symbol, color, face.symbol_box, self.hole())
        textfit.draw(face.name, self.c, face.name_box.x, face.name_box.top, valign_height=face.name_box.h)

    def words(self, face: WordsFace, paint: Rect) -> None:
        color = self.framed(face, paint)
        textfit.draw(face.title, self.c, face.title_box.x, face.title_box.top, valign_height=face.title_box.h)
        self.c.setFillColor(color)
        for row in face.rows:
            for dot in row.dots:
                self.c.circle(pt(dot.cx), pt(dot.cy), pt(dot.w / 2), stroke=0, fill=1)
            textfit.draw(row.word, self.c, row.box.x, row.box.top, valign_height=row.box.h)

    def listing(self, face: ListFace, paint: Rect) -> None:
        self.framed(face, paint)
        textfit.draw(face.name, self.c, face.name_box.x, face.name_box.top, valign_height=face.name_box.h)
        textfit.draw(face.text, self.c, face.text_box.x, face.text_box.top)

    def circle(self, r: Rect, fill: Color | None = None, stroke: Color | None = None, width: float = 0) -> None:
        if fill is not None:
            self.c.setFillColor(fill)
        if stroke is not None:
            self.c.setStrokeColor(stroke)
            self.c.setLineWidth(pt(width))
        lines, paint = int(stroke is not None), int(fill is not None)
        self.shapes.draw(
            ("circle", r, lines, paint),
            lambda: self.c.circle(pt(r.cx), pt(r.cy), pt(min(r.w, r.h) / 2), stroke=lines, fill=paint),
        )

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

    def back(self, back: BackFace, group: Group, paint: Rect, area: Rect) -> None:
        """A group's back over `paint`; its pattern laid over `area` (the card and the furthest bleed of
        the sheets, in card coordinates) and clipped to `paint`."""
        spec, design = self.layout["back"], group.back
        ink = self.options.ink_saver
        fill = self.circle if group.shape == "round" else self.rect
        fill(paint, fill=white if ink else _hex_color(design.color))
        if design.pattern:
            tiled = spec["pattern"]
            # On the dark back the pattern is the back colour a little lighter; ink-saver keeps it faint on white.
            color = tint(design.color, self.layout["ink-saver"]["tint"] if ink else 1 - tiled["tint"])
            self.pattern(design.pattern, color, tiled["size"], tiled["step"], group.size, area)
        if design.symbol:
            light = _hex_color(back.light)
            if ink:
                dark, holes = tint(design.color, spec["ink-saver-tint"]), white
            elif has_holes(design.symbol, self.icons.file_bytes):
                # A figure on a lit ground (a wolf on the moon): its dark shapes sink into the back,
                # its light ones glow, so the lit ground stands out from the back.
                dark, holes = shade(design.color, spec["emblem-shade"]), light
            else:
                # Line art has no ground to glow: drawn dark on the dark back it would vanish.
                dark, holes = light, light
            self.symbol(design.symbol, dark, back.emblem_box, holes)
        if back.title and back.title_box:
            textfit.draw(back.title, self.c, back.title_box.x, back.title_box.top, valign_height=back.title_box.h)

    def pattern(self, path: Path, color: Color, size: float, step: float, card: Size, area: Rect) -> None:
        """The symbol in rows across the area, fitted to the card (see cardgen.cards.pattern): one form
        per pattern, colour, card size and area, made the first time and placed on every back that shows it.

        The area is the same for every card of a size, wherever it sits: a back whose bleed a neighbour
        cuts short still shows the pattern where the others do. Rows started from each back's own
        paint edge would set the symbols 3 mm apart on cards from the edge and the middle of a sheet,
        and a card told apart by its back is a marked card."""
        key = (path, color.hexval(), size, step, card, area)
        name = self.patterns.get(key)
        if name is None:
            tiles = pattern.tiles(card, area, size, step)
            # The symbol's own form first, so that forms are numbered as when each tile drew its own.
            self.icons.form(icon_bytes(path), color)
            self.patterns[key] = name = f"Pattern{len(self.patterns)}"
            self.c.beginForm(
                name,
                pt(min(tile.x for tile in tiles)),
                pt(min(tile.y for tile in tiles)),
                pt(max(tile.right for tile in tiles)),
                pt(max(tile.top for tile in tiles)),
            )
            for tile in tiles:
                self.symbol(path, color, tile)
            self.c.endForm()
        self.c.doForm(name)

    def side(self, face: Face | BackFace, group: Group, paint: Rect, slot: Slot) -> None:
        """A card's front or back, in card coordinates."""
        if isinstance(face, BackFace):
            self.back(face, group, paint, slot.around(self.bleed))
        else:
            self.face(face, paint)

    # -- sheet furniture
    def slot(self, slot: Slot) -> None:
        c = self.c
        card = self.deck.copies[slot.item]
        self.layout = self.faces.layout_for(card.group)
        round_ = card.group.shape == "round"
        c.saveState()
        self.shapes.draw(("clip", round_, slot.paint), lambda: self.clip(slot.paint, round_))
        c.translate(pt(slot.trim.x), pt(slot.trim.y))
        if slot.rotation == 180:
            c.translate(pt(slot.trim.w), pt(slot.trim.h))
            c.rotate(180)
        paint = Rect(slot.paint.x - slot.trim.x, slot.paint.y - slot.trim.y, slot.paint.w, slot.paint.h)
        if slot.rotation == 180:
            paint = Rect(slot.trim.w - (paint.x + paint.w), slot.trim.h - (paint.y + paint.h), paint.w, paint.h)
        face: Face | BackFace
        if slot.side == "front":
            face = self.faces.fronts[card.id]
        else:
            face = self.faces.card_backs.get(card.id) or self.faces.backs[card.group.id]
        # In card coordinates, a side looks the same wherever it sits: the copies of a card and the backs
        # of a group are drawn once, and repeated (the faces live as long as the painter, and so their ids).
        key = (id(face), paint.x, paint.y, paint.w, paint.h, slot.trim.w, slot.trim.h)
        self.repeats.draw(key, lambda: self.side(face, card.group, paint, slot))
        c.restoreState()
        if round_ and self.options.cutting_aids:
            # The cut guide: a thin dark circle on the trim line.
            guide = self.options.sheet["cut-guide"]
            c.setStrokeColorRGB(0, 0, 0)
            c.setLineWidth(guide["line-width-pt"])
            trim = slot.trim
            self.shapes.draw(
                ("guide", trim), lambda: c.circle(pt(trim.cx), pt(trim.cy), pt(trim.w / 2), stroke=1, fill=0)
            )

    def clip(self, paint: Rect, round_: bool) -> None:
        """Nothing drawn after reaches past the paint area (until the state is restored)."""
        path = self.c.beginPath()
        if round_:
            path.circle(pt(paint.cx), pt(paint.cy), pt(min(paint.w, paint.h) / 2))
        else:
            path.rect(pt(paint.x), pt(paint.y), pt(paint.w), pt(paint.h))
        self.c.clipPath(path, stroke=0, fill=0)

    def marks(self, page: Page) -> None:
        c, sheet = self.c, self.options.sheet
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(sheet["crop-marks"]["line-width-pt"])
        self.shapes.draw(("marks", page.marks), lambda: self.lines(page.marks))
        if page.fold_line:
            x1, y1, x2, y2 = page.fold_line
            c.setLineWidth(sheet["fold"]["line-width-pt"])
            c.setDash([pt(d) for d in sheet["fold"]["dash"]])
            c.line(pt(x1), pt(y1), pt(x2), pt(y2))
            c.setDash()

    def lines(self, segments: Iterable[tuple[float, float, float, float]]) -> None:
        """Straight lines from (x1, y1) to (x2, y2) mm, in the stroke colour and width set."""
        for x1, y1, x2, y2 in segments:
            self.c.line(pt(x1), pt(y1), pt(x2), pt(y2))

    def info(self, page: Page, number: int, total: int) -> None:
        """The page-info block: a 50 mm ruler, what it is for, and which page this is.

        It sits on the side of the strip that faces the cards, as far from the
        paper's edge as the strip allows (the strip itself keeps inside the
        printable margin).
        """
        strings, ruler = self.options.strings, self.options.sheet["ruler"]
        side = strings["fronts" if page.side == "front" else "backs" if page.side == "back" else "fold"]
        label = " · ".join(
            [
                self.deck.name.value,
                strings["language"],
                side,
                fill(strings["page"], strings.get("digits"), n=number, total=total),
            ]
        )
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
        self.shapes.draw(("ruler", length, top), lambda: self.lines(_ruler(length, top)))
        self.line(strings["ruler"], 0, top - 1.2 - mm(size), size)
        # Raised by the descenders' depth (0.24 em in Noto Sans), so that no "g" or "p" leaves the strip.
        self.line(label, 0, mm(size) * 0.3, size)
        c.restoreState()

    def width(self, text: str, size: float) -> float:
        return self.book.width(text, self.deck.lang, size)

    def line(self, text: str, x: float, y: float, size: float) -> None:
        """One line of plain text with its baseline at (x, y) mm, each character in a font that has it."""
        self.c.setFillColorRGB(0.15, 0.15, 0.15)
        runs = self.book.runs(Span(text), self.deck.lang)
        draw_runs(self.c, runs, pt(x), pt(y), size, right_to_left(self.book, self.deck.lang, text))

    def page(self, page: Page, number: int, total: int) -> None:
        c = self.c
        c.setPageSize((pt(page.size.w), pt(page.size.h)))
        # The whole back side moves, as vectors and with its boxes, by the offset measured on a
        # calibration sheet, which is measured on the paper: a landscape page takes it turned.
        dx, dy = page.paper_shift(*self.options.back_offset) if page.side == "back" else (0.0, 0.0)
        for name, box in (("setTrimBox", page.trim_box), ("setBleedBox", page.bleed_box)):
            getattr(c, name)((pt(box.x + dx), pt(box.y + dy), pt(box.right + dx), pt(box.top + dy)))
        c.saveState()
        if dx or dy:
            c.translate(pt(dx), pt(dy))
        for slot in page.slots:
            self.slot(slot)
        self.marks(page)
        if self.options.cutting_aids:
            self.info(page, number, total)
        c.restoreState()
        c.showPage()


def _ruler(length: float, top: float) -> list[tuple[float, float, float, float]]:
    """The ruler's line and its millimetre ticks."""
    ticks = [(tick, 1.2 if tick % 10 == 0 else 0.8 if tick % 5 == 0 else 0.45) for tick in range(int(length) + 1)]
    return [(0, top, length, top), *((tick, top, tick, top - drop) for tick, drop in ticks)]


def render_pdf(deck: Deck, pages: list[Page], faces: Faces, book: FontBook, options: RenderOptions) -> bytes:
    """The card sheets' PDF, as bytes."""
    buffer = io.BytesIO()
    write_pdf(deck, pages, faces, book, options, buffer)
    return buffer.getvalue()


def write_pdf(
    deck: Deck,
    pages: list[Page],
    faces: Faces,
    book: FontBook,
    options: RenderOptions,
    out: BinaryIO,
    spill: Path | None = None,
) -> None:
    """The card sheets' PDF written to `out`. Each page's drawing leaves memory as the page ends, for a
    temporary file in the folder `spill` (the system's by default), so that a deck of any size is drawn
    in the same memory; the bytes are those ReportLab writes from memory."""
    # ReportLab opens every page with a font set; left to itself that is
    # Helvetica, a font the PDF would reference without embedding.
    body_font = book.face(book.order(deck.lang)[0], False, False)
    canvas = Canvas(out, invariant=1, pageCompression=1, initialFontName=body_font, lang=deck.lang)
    pdfinfo.of(deck, f"{deck.name.value} ({deck.key})", "print-and-cut card sheets").apply(canvas)
    painter = _Painter(canvas, deck, faces, book, options, body_font, widest_bleed(pages))
    with tempfile.TemporaryFile(dir=spill) as spilled:
        SpilledPages(canvas, out, spilled)
        for number, page in enumerate(pages, start=1):
            painter.page(page, number, len(pages))
        canvas.save()
