"""ReportLab's private names that cardgen relies on, in one place: ReportLab objects in, the values
cardgen reads from them out, and the one change cardgen makes to ReportLab's tables.

Each is here because ReportLab offers no public way to the same thing, and each was checked with
the ReportLab versions pyproject.toml allows (5.1 up to 6): a new major version is to be checked
against this list first. Only modules that draw import this one, so it loads ReportLab freely.
"""

from __future__ import annotations

from typing import Any

from reportlab.platypus import paragraph as _paragraph
from reportlab.rl_config import _FUZZ

# How much wider than its box ReportLab lets a line be before it breaks it: rounding noise.
FUZZ: float = _FUZZ
# The characters ReportLab's line breaking takes for white space: cardgen's own breaking agrees with it.
WHITESPACE: str = _paragraph._wsc


def bullet_width(bullet: str | None, style: Any, widths: list[float]) -> None:
    """Shortens widths[0] by the room a bullet wider than the style's indent takes, as a paragraph does."""
    _paragraph._handleBulletWidth(bullet, style, widths)


def text_position(canvas: Any) -> tuple[float, float, float]:
    """Where a paragraph's line has reached when it calls an onDraw callback: x, y and the font size."""
    info = canvas._curr_tx_info
    return info["cur_x"], info["cur_y"], info["tx"]._fontsize or info["xs"].style.fontSize


def call_inline(canvas: Any, name: str, label: str, text: Any, x: float, y: float) -> None:
    """Calls the canvas's onDraw callback `name` as a paragraph's line does on reaching x, y (the text
    object `text` holding the line's font), so that text_position tells it where it is."""
    canvas._curr_tx_info = {"tx": text, "cur_x": x, "cur_y": y}
    try:
        canvas.getNamedCB(name)(canvas, "onDraw", label)
    finally:
        del canvas._curr_tx_info


def draw_bullet(canvas: Any, offset: float, baseline: float, bullet: str, style: Any) -> float:
    """Draws a paragraph's bullet as the paragraph does, before its first line's baseline; returns
    how far that line's text starts past the indent (further, where the bullet reaches past it)."""
    return _paragraph._drawBullet(canvas, offset, baseline, bullet, style, rtl=False)


def table_rows(table: Any) -> int:
    """How many rows a platypus Table holds."""
    return len(table._cellvalues)


def kept_together(keep: Any) -> list:
    """The flowables a KeepTogether holds."""
    return keep._content


def frame_left(frame: Any) -> float:
    """A platypus Frame's left edge, in points."""
    return frame._x1
