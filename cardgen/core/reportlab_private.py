"""ReportLab's private names that cardgen relies on, in one place: ReportLab objects in, the values
cardgen reads from them out, and the one change cardgen makes to ReportLab's tables.

Each is here because ReportLab offers no public way to the same thing, and each was checked with
the ReportLab versions pyproject.toml allows (5.1 up to 6): a new major version is to be checked
against this list first. Only modules that draw import this one, so it loads ReportLab freely.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from reportlab.lib import textsplit
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


def table_rows(table: Any) -> int:
    """How many rows a platypus Table holds."""
    return len(table._cellvalues)


def kept_together(keep: Any) -> list:
    """The flowables a KeepTogether holds."""
    return keep._content


def frame_left(frame: Any) -> float:
    """A platypus Frame's left edge, in points."""
    return frame._x1


@cache
def cannot_start(extra: str) -> frozenset[str]:
    """Adds `extra` to ReportLab's characters that cannot start a line, in both of its copies of the list,
    for the CJK paragraphs ReportLab breaks itself (a document's paragraph in several fonts); returns the
    whole list. Done once a process, by the first paragraph that needs it."""
    for module in (textsplit, _paragraph):
        current = module.ALL_CANNOT_START
        module.ALL_CANNOT_START = current + "".join(c for c in extra if c not in current)
    return frozenset(textsplit.ALL_CANNOT_START)
