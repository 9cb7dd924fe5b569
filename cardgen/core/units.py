"""Units and geometry: the one place that knows how millimetres become points.

Everything upstream of rendering works in millimetres with the PDF's origin:
bottom-left corner of the page, x to the right, y upwards. The renderer turns
millimetres into points with :func:`pt` at the last moment.
"""

from __future__ import annotations

from dataclasses import dataclass

MM_PER_INCH = 25.4
PT_PER_INCH = 72.0


def pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * PT_PER_INCH / MM_PER_INCH


def mm(points: float) -> float:
    """PDF points to millimetres."""
    return points * MM_PER_INCH / PT_PER_INCH


def inches(value: float) -> float:
    """Inches to millimetres."""
    return value * MM_PER_INCH


def px(mm_value: float, dpi: float) -> float:
    """Millimetres to pixels at a resolution in dots per inch."""
    return mm_value * dpi / MM_PER_INCH


def dpi_for(pixels: float, mm_value: float) -> float:
    """The resolution at which a length of `mm_value` millimetres is `pixels` pixels."""
    return pixels * MM_PER_INCH / mm_value


_LENGTH_UNITS = {"mm": 1.0, "in": MM_PER_INCH, "pt": MM_PER_INCH / PT_PER_INCH}


def length(text: str | float | int) -> float:
    """A length written in a data file ("2.5in", "3mm", "9pt", or a bare number of mm) in millimetres;
    ValueError for anything else."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    if isinstance(text, str):
        for unit, factor in _LENGTH_UNITS.items():
            if text.strip().endswith(unit):
                try:
                    value = float(text.strip()[: -len(unit)])
                except ValueError:
                    break
                if value == value and abs(value) != float("inf"):
                    return value * factor
    raise ValueError(f"expected a length such as 2.5in, 3mm or 9pt, got {text!r}")


@dataclass(frozen=True)
class Size:
    """A width and height in millimetres."""

    w: float
    h: float

    def rotated(self) -> Size:
        return Size(self.h, self.w)


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in millimetres; (x, y) is its bottom-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def inset(self, d: float) -> Rect:
        """Shrinks (d > 0) or grows (d < 0) every side by d."""
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def outset(self, d: float) -> Rect:
        return self.inset(-d)

    def union(self, other: Rect) -> Rect:
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.right, other.right) - x, max(self.top, other.top) - y)
