"""SVG icons on a ReportLab canvas: a file, colours and a box in points in, a PDF form drawn out.

Each (file, colour, hole colour) becomes one PDF form the first time it is
drawn on a canvas and is reused after that, so 36 werewolf cards carry one
copy of the wolf. Shared by the card sheets and the documents, which also
draw a card's icon inline in a text (``:werewolf:`` in the card markup).
"""

from __future__ import annotations

import io
import math
from functools import lru_cache
from pathlib import Path

from reportlab.graphics import renderPDF, shapes
from reportlab.lib.colors import Color, white
from svglib.svglib import svg2rlg

from . import contained

# The name of the inline-icon callback ReportLab paragraphs call (<onDraw name=...>).
INLINE_CALLBACK = "cardgenIcon"
MAX_SVG_BYTES = 2 * 1024 * 1024      # as svgcheck, which has refused larger ones already


def _read(path: Path) -> bytes:
    stat = path.stat()
    return _read_version(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _read_version(path: Path, mtime_ns: int, size: int) -> bytes:
    # Validation checked the file against its game folder; it is read the same careful way again.
    return contained.read(path, path.parent, MAX_SVG_BYTES)


def _parse(data: bytes) -> shapes.Drawing:
    drawing = svg2rlg(io.BytesIO(data))
    if drawing is None:
        raise ValueError("not a readable SVG")
    _solid_where_dashes_cannot_be(drawing)
    return drawing


@lru_cache(maxsize=256)
def _svg(data: bytes) -> shapes.Drawing:
    return _parse(data)


def _solid_where_dashes_cannot_be(node) -> None:
    """A dash pattern of zero length or with negative dashes is drawn solid, as SVG says it is
    (ReportLab refuses to draw one at all)."""
    if isinstance(node, shapes.Group):
        for child in node.contents:
            _solid_where_dashes_cannot_be(child)
    dashes = getattr(node, "strokeDashArray", None)
    if dashes is not None:
        values = dashes[1] if isinstance(dashes, tuple) and len(dashes) == 2 and isinstance(dashes[1], list) \
            else dashes
        numbers = values if isinstance(values, (list, tuple)) else [values]
        if not all(isinstance(v, (int, float)) and math.isfinite(v) and v >= 0 for v in numbers) \
                or not sum(numbers) > 0:
            node.strokeDashArray = None


def _is_white(color) -> bool:
    return min(color.red, color.green, color.blue) > 0.9


def has_holes(path: Path) -> bool:
    """Whether an SVG icon has white shapes, which _recolor paints in the hole colour."""
    def walk(node) -> bool:
        if isinstance(node, shapes.Group):
            return any(walk(child) for child in node.contents)
        fill = getattr(node, "fillColor", None)
        return isinstance(node, shapes.Shape) and fill is not None and _is_white(fill)
    return path.suffix.lower() == ".svg" and walk(_svg(_read(path)))


def _recolor(node, color: Color, hole: Color) -> None:
    """Paints an icon's dark shapes in `color` and its white shapes, the holes, in `hole`."""
    if isinstance(node, shapes.Group):
        for child in node.contents:
            _recolor(child, color, hole)
    elif isinstance(node, shapes.Shape):
        fill = getattr(node, "fillColor", None)
        if fill is not None:
            node.fillColor = hole if _is_white(fill) else color
        if getattr(node, "strokeColor", None) is not None:
            node.strokeColor = color


class IconPainter:
    """Draws SVG icons on one canvas, each colouring of a file once as a form."""

    def __init__(self, canvas, body_font: str):
        self.c = canvas
        self.body_font = body_font
        self.forms: dict[tuple[bytes, str | None, str], str] = {}

    def draw(self, path: Path, color: Color | None, x: float, y: float, w: float, h: float,
             hole: Color = white) -> None:
        """The icon centred in the box (x, y, w, h in points), its aspect kept; its dark shapes
        in `color` (None: the file's own colours)."""
        self.draw_svg(_read(path), color, x, y, w, h, hole)

    def draw_svg(self, data: bytes, color: Color | None, x: float, y: float, w: float, h: float,
                 hole: Color = white) -> None:
        """As draw, for an SVG's bytes."""
        key = (data, color.hexval() if color else None, hole.hexval())
        drawing = _svg(data)
        if key not in self.forms:
            # Named by first use, not by hash(), so that rebuilds are byte-identical.
            self.forms[key] = name = f"Sym{len(self.forms)}"
            # A fresh copy per colour: recolouring changes the cached drawing's shapes.
            copy = _parse(data)
            if color is not None:
                _recolor(copy, color, hole)
            # Otherwise the drawing starts from Helvetica, which would end up referenced but not embedded.
            copy.initialFontName = self.body_font
            self.c.beginForm(name, 0, 0, copy.width, copy.height)
            renderPDF.draw(copy, self.c, 0, 0)
            self.c.endForm()
        scale = min(w / drawing.width, h / drawing.height)
        self.c.saveState()
        self.c.translate(x + (w - drawing.width * scale) / 2, y + (h - drawing.height * scale) / 2)
        self.c.scale(scale, scale)
        self.c.doForm(self.forms[key])
        self.c.restoreState()

    def register_inline(self, icons: dict[str, tuple[Path, Color]]) -> None:
        """Lets paragraphs on this canvas draw `:card-id:` icons (see textfit's inline icons)."""

        def draw_inline(canvas, kind, label):
            info = canvas._curr_tx_info
            size = info["tx"]._fontsize or info["xs"].style.fontSize
            path, color = icons[label]
            # The spacer image after the callback reserves `size` points; the icon sits on it.
            self.draw(path, color, info["cur_x"], info["cur_y"] - size * 0.2, size, size)

        self.c.setNamedCB(INLINE_CALLBACK, draw_inline)
