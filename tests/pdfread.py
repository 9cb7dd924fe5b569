"""Reading a built PDF back with pypdfium2, in millimetres (PDF origin, bottom-left, y up).

pdfplumber takes seconds over a card back's pattern forms; pdfium reads a whole file in a
fraction of one. Objects are read at the page's top level, as the renderer draws them: the
symbols' forms are not descended into.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from cardgen.core.units import PT_PER_INCH, mm

TOL = 0.02  # mm, for positions the PDF stores to 1e-4 pt


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    def gap(self, other: Box) -> float:
        """The distance between two boxes (0 when they touch or overlap)."""
        dx = max(other.x0 - self.x1, self.x0 - other.x1, 0.0)
        dy = max(other.y0 - self.y1, self.y0 - other.y1, 0.0)
        return (dx * dx + dy * dy) ** 0.5

    def grown(self, d: float) -> Box:
        return Box(self.x0 - d, self.y0 - d, self.x1 + d, self.y1 + d)

    def contains(self, other: Box, tol: float = TOL) -> bool:
        return (
            self.x0 - tol <= other.x0
            and other.x1 <= self.x1 + tol
            and self.y0 - tol <= other.y0
            and other.y1 <= self.y1 + tol
        )

    def overlaps(self, other: Box) -> bool:
        """Interiors intersect (touching edges do not count)."""
        return (
            min(self.x1, other.x1) - max(self.x0, other.x0) > TOL
            and min(self.y1, other.y1) - max(self.y0, other.y0) > TOL
        )

    def close_to(self, other: Box, tol: float = TOL) -> bool:
        return all(abs(a - b) <= tol for a, b in zip(self.tuple(), other.tuple()))

    def tuple(self) -> tuple[float, float, float, float]:
        return (self.x0, self.y0, self.x1, self.y1)

    def mirror_x(self, at: float) -> Box:
        return Box(2 * at - self.x1, self.y0, 2 * at - self.x0, self.y1)

    def mirror_y(self, at: float) -> Box:
        return Box(self.x0, 2 * at - self.y1, self.x1, 2 * at - self.y0)


@dataclass(frozen=True)
class Fill:
    box: Box
    rgb: tuple[int, int, int]


@dataclass(frozen=True)
class Char:
    text: str
    box: Box  # the glyph's own outline box
    size: float  # pt
    font: str
    rgb: tuple[int, int, int]
    baseline: float  # y of the glyph's origin


def _box(left: float, bottom: float, right: float, top: float) -> Box:
    return Box(mm(min(left, right)), mm(min(bottom, top)), mm(max(left, right)), mm(max(bottom, top)))


def objects(page) -> list[tuple[int, Box]]:
    """(pdfium object type, bounding box) of every top-level object of a page."""
    return [(obj.type, _box(*obj.get_bounds())) for obj in page.get_objects(max_depth=1)]


def fills(page) -> list[Fill]:
    out = []
    for obj in page.get_objects(max_depth=1):
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDFPath_GetDrawMode(obj.raw, fill_mode, stroke)
        if fill_mode.value:
            r, g, b, a = (ctypes.c_uint() for _ in range(4))
            pdfium_c.FPDFPageObj_GetFillColor(obj.raw, r, g, b, a)
            out.append(Fill(_box(*obj.get_bounds()), (r.value, g.value, b.value)))
    return out


def dashed(page) -> list[Box]:
    """The boxes of the dashed strokes of a page (the fold line)."""
    return [
        _box(*obj.get_bounds())
        for obj in page.get_objects(max_depth=1)
        if obj.type == pdfium_c.FPDF_PAGEOBJ_PATH and pdfium_c.FPDFPageObj_GetDashCount(obj.raw) > 0
    ]


def chars(page) -> list[Char]:
    """Every printed character (not spaces, not the line breaks pdfium adds)."""
    text = page.get_textpage()
    out = []
    name = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    x, y = ctypes.c_double(), ctypes.c_double()
    for i in range(text.count_chars()):
        ch = text.get_text_range(i, 1)
        if pdfium_c.FPDFText_IsGenerated(text.raw, i) or not ch.strip():
            continue
        pdfium_c.FPDFText_GetFontInfo(text.raw, i, name, 256, flags)
        pdfium_c.FPDFText_GetFillColor(text.raw, i, r, g, b, a)
        pdfium_c.FPDFText_GetCharOrigin(text.raw, i, x, y)
        out.append(
            Char(
                ch,
                _box(*text.get_charbox(i)),
                pdfium_c.FPDFText_GetFontSize(text.raw, i),
                name.value.decode("latin-1"),
                (r.value, g.value, b.value),
                mm(y.value),
            )
        )
    return out


def pages(pdf) -> pdfium.PdfDocument:
    """The document of a PDF given as bytes or a path."""
    return pdfium.PdfDocument(pdf)


def image(page, dpi: float):
    """The page as an RGB Pillow image; pixel (0, 0) is the top-left corner."""
    return page.render(scale=dpi / PT_PER_INCH).to_pil().convert("RGB")


def rgb_pixels(picture) -> list[tuple[int, int, int]]:
    """The pixels of an RGB image, row by row (Image.getdata is going away)."""
    data = picture.convert("RGB").tobytes()
    return [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]  # type: ignore[misc]
