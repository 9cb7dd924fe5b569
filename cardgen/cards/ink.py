"""Colours in, how much ink they put on the paper and how well they stand apart out.

A point's ink coverage is the sum of its cyan, magenta, yellow and black, from
0 (bare paper) to 4 (400 %). Colours become CMYK the simple way, with full
under-colour removal (black takes the part the three inks share), roughly what
a home printer's driver does with a dark area. The build uses it to tell a
group when their backs will drink a cartridge; the tests measure rendered
pages with it. Contrast is WCAG 2's ratio of relative luminances, from 1 to 21.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor


def coverage(red: float, green: float, blue: float) -> float:
    """The ink coverage of an RGB colour with channels from 0 to 1."""
    cyan, magenta, yellow = 1 - red, 1 - green, 1 - blue
    black = min(cyan, magenta, yellow)
    return black + (cyan - black) + (magenta - black) + (yellow - black)


def hex_coverage(color: str) -> float:
    c = HexColor(color)
    return coverage(c.red, c.green, c.blue)


def luminance(red: float, green: float, blue: float) -> float:
    """WCAG 2 relative luminance of an sRGB colour with channels from 0 to 1."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours written as #rrggbb."""
    (la, lb) = sorted((luminance(c.red, c.green, c.blue) for c in map(HexColor, (a, b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)
