"""SVG icons on a ReportLab canvas: a file, colours and a box in points in, a PDF form drawn out.

Each (file, colour, hole colour) becomes one PDF form the first time it is
drawn on a canvas and is reused after that, so 36 werewolf cards carry one
copy of the wolf. The form's content is drawn once a process: another canvas
(the game's sheets in another language, its rulebook) makes its form of the
same operators. Shared by the card sheets and the documents, which also
draw a card's icon inline in a text (``:werewolf:`` in the card markup).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from reportlab.graphics import renderPDF, shapes
from reportlab.lib.colors import Color, white
from svglib.svglib import svg2rlg

from cardgen.core import contained, reportlab_private

# The name of the inline-icon callback ReportLab paragraphs call (<onDraw name=...>).
INLINE_CALLBACK = "cardgenIcon"
MAX_SVG_BYTES = 2 * 1024 * 1024  # as svgcheck, which has refused larger ones already


def icon_bytes(path: Path) -> bytes:
    """An SVG file's bytes, read once for each version of the file."""
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


@dataclass(frozen=True)
class _Parsed:
    """An SVG's drawing, parsed once a process, and its shapes with the colours the file gave them:
    each colouring is painted onto the same shapes just before its form is drawn."""

    drawing: shapes.Drawing
    shapes: tuple[tuple[shapes.Shape, Color | None, Color | None], ...]  # (shape, fill, stroke)
    # Each colouring's form content, by the colours' exact values (two colours of one hex value may differ).
    forms: dict[tuple, reportlab_private.FormCode] = field(default_factory=dict)

    @cached_property
    def holes(self) -> bool:
        """Whether it has white shapes, which _paint paints in the hole colour."""
        return any(fill is not None and _is_white(fill) for _, fill, _ in self.shapes)


@lru_cache(maxsize=256)
def _svg(data: bytes) -> _Parsed:
    drawing = _parse(data)
    leaves, stack = [], [drawing]
    while stack:
        node = stack.pop()
        if isinstance(node, shapes.Group):
            stack.extend(reversed(node.contents))
        elif isinstance(node, shapes.Shape):
            leaves.append((node, getattr(node, "fillColor", None), getattr(node, "strokeColor", None)))
    return _Parsed(drawing, tuple(leaves))


def _solid_where_dashes_cannot_be(node) -> None:
    """A dash pattern of zero length or with negative dashes is drawn solid, as SVG says it is
    (ReportLab refuses to draw one at all)."""
    if isinstance(node, shapes.Group):
        for child in node.contents:
            _solid_where_dashes_cannot_be(child)
    dashes = getattr(node, "strokeDashArray", None)
    if dashes is not None:
        values = dashes[1] if isinstance(dashes, tuple) and len(dashes) == 2 and isinstance(dashes[1], list) else dashes
        numbers = values if isinstance(values, (list, tuple)) else [values]
        if (
            not all(isinstance(v, (int, float)) and math.isfinite(v) and v >= 0 for v in numbers)
            or not sum(numbers) > 0
        ):
            node.strokeDashArray = None


def _is_white(color) -> bool:
    return min(color.red, color.green, color.blue) > 0.9


def has_holes(path: Path, read: Callable[[Path], bytes] = icon_bytes) -> bool:
    """Whether an SVG icon has white shapes, which _paint paints in the hole colour; `read`: how its
    bytes are had (a painter keeps those of the files it draws)."""
    return path.suffix.lower() == ".svg" and _svg(read(path)).holes


def _paint(parsed: _Parsed, color: Color | None, hole: Color) -> None:
    """Paints an icon's dark shapes in `color` and its white shapes, the holes, in `hole`; with no
    colour, in the file's own colours."""
    for node, fill, stroke in parsed.shapes:
        if fill is not None:
            node.fillColor = fill if color is None else hole if _is_white(fill) else color
        if stroke is not None:
            node.strokeColor = stroke if color is None else color


_HEXVALS: dict[tuple[float, float, float, float], str] = {}


def _hexval(color: Color) -> str:
    # A sheet asks for the same few colours tens of thousands of times; ReportLab formats each anew,
    # and hashing a Color is slower still than making the tuple of its four numbers.
    key = _rgba(color)
    value = _HEXVALS.get(key)
    if value is None:
        value = _HEXVALS[key] = color.hexval()
    return value


def _colouring(color: Color | None, hole: Color) -> tuple | None:
    """The colours' exact values, which ReportLab writes (two colours of one hex value may differ); None
    where one is another kind of colour than a plain RGB one."""
    if (color is not None and type(color) is not Color) or type(hole) is not Color:
        return None
    return (None if color is None else _rgba(color), _rgba(hole))


def _rgba(color: Color) -> tuple[float, float, float, float]:
    return color.red, color.green, color.blue, color.alpha


class Undrawable(Exception):
    """An SVG that svglib or ReportLab cannot draw: its bytes, and what they said (the message)."""

    def __init__(self, data: bytes, detail: str):
        super().__init__(detail)
        self.data = data


def said(exc: BaseException) -> str:
    """What svglib or ReportLab said when it failed, on one line."""
    return " ".join(str(exc).split()) or type(exc).__name__


class IconPainter:
    """Draws SVG icons on one canvas, each colouring of a file once as a form."""

    def __init__(self, canvas, body_font: str):
        self.c = canvas
        self.body_font = body_font
        self.forms: dict[tuple[bytes, str | None, str], str] = {}
        self.files: dict[str, bytes] = {}  # by name: one PDF draws one version of each file

    def draw(
        self, path: Path, color: Color | None, x: float, y: float, w: float, h: float, hole: Color = white
    ) -> None:
        """The icon centred in the box (x, y, w, h in points), its aspect kept; its dark shapes
        in `color` (None: the file's own colours)."""
        self.draw_svg(self.file_bytes(path), color, x, y, w, h, hole)

    def file_bytes(self, path: Path) -> bytes:
        """The SVG file's bytes, read once per canvas."""
        data = self.files.get(str(path))
        if data is None:
            data = self.files[str(path)] = icon_bytes(path)
        return data

    def draw_svg(
        self, data: bytes, color: Color | None, x: float, y: float, w: float, h: float, hole: Color = white
    ) -> None:
        """As draw, for an SVG's bytes."""
        name, drawing = self.form(data, color, hole)
        scale = min(w / drawing.width, h / drawing.height)
        x, y = x + (w - drawing.width * scale) / 2, y + (h - drawing.height * scale) / 2
        reportlab_private.place_form(self.c, name, x, y, scale)

    def form(self, data: bytes, color: Color | None, hole: Color = white) -> tuple[str, shapes.Drawing]:
        """The name of the form of an SVG's colouring on this canvas, made on first use, and its drawing;
        Undrawable when svglib or ReportLab cannot draw it."""
        key = (data, _hexval(color) if color else None, _hexval(hole))
        try:
            parsed = _svg(data)
            name = self.forms.get(key)
            if name is None:
                # Named by first use, not by hash(), so that rebuilds are byte-identical.
                self.forms[key] = name = f"Sym{len(self.forms)}"
                self._make(parsed, name, color, hole)
        except Exception as exc:  # noqa: BLE001 - whatever svglib or ReportLab raise is the reason
            raise Undrawable(data, said(exc)) from None
        return name, parsed.drawing

    def _make(self, parsed: _Parsed, name: str, color: Color | None, hole: Color) -> None:
        drawing = parsed.drawing
        colouring = _colouring(color, hole)
        made = parsed.forms.get(colouring) if colouring else None
        if made is not None:
            reportlab_private.replay_form(self.c, name, drawing.width, drawing.height, made)
            return

        def draw() -> None:
            _paint(parsed, color, hole)
            # Otherwise the drawing starts from Helvetica, which would end up referenced but not embedded.
            drawing.initialFontName = self.body_font
            renderPDF.draw(drawing, self.c, 0, 0)

        made = reportlab_private.record_form(self.c, name, drawing.width, drawing.height, draw)
        if made is not None and colouring:
            parsed.forms[colouring] = made

    def register_inline(self, icons: dict[str, tuple[Path, Color]]) -> None:
        """Lets text on this canvas draw `:card-id:` icons (cardgen.text.lines draws them)."""

        def draw_inline(canvas, kind, label):
            x, y, size = reportlab_private.text_position(canvas)
            path, color = icons[label]
            # The line reserves `size` points after the callback; the icon sits on them.
            self.draw(path, color, x, y - size * 0.2, size, size)

        self.c.setNamedCB(INLINE_CALLBACK, draw_inline)
