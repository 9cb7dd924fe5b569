"""The bounds a project's own data files keep: a template data file's name and data in, the values out
of bounds (key path and what was expected) out; and the pixel budget of every picture cardgen reads or
draws, with the check a picture drawn from a project's sizes takes before it is drawn; and the pages
a document lays out.

A project may replace templates/paper.yaml, card-sizes.yaml, sheet.yaml, box.yaml and card-layout.yaml
(and add print services in templates/exports/). Their numbers set page sizes and pixel counts directly:
a card 1e6 mm wide, a paper of ``.inf`` or a bleed of 1e9 mm would run a build out of time and memory,
and ``nan`` would end it somewhere far from the file. So every number of these files is a finite real
number (true and false are none) within the ranges below, checked as the file is read.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

# Pages a document lays out: a rulebook, a booklet (its A5 pages, before they are imposed) or a
# moderator script. Measured on generated decks of roles with an ability of about 180 characters,
# a rulebook takes 0.036 A4 pages a role (0.029 in Chinese), a booklet 0.095 and a script 0.26 a
# role that wakes at night: 2,000 pages hold about 55,000 roles' rulebook, 21,000 roles' booklet and
# 7,500 night roles' script, so a 20,000-role deck still builds all three (its rulebook has 708
# pages, its script 517: 39 s of CPU for both), and no document takes much over a minute of CPU.
# Validation foresees a document past it from its text (cardgen.documents.pages); layout stops at
# it, for the rest.
MAX_PAGES = 2000

# Decoded or drawn pixels of one picture: far more than a card needs (a poker card with its bleed
# is about 800 x 1100 at 300 DPI); measured, a 25-megapixel RGBA picture takes a build to about 0.5 GB.
MAX_PIXELS = 25_000_000


@dataclass(frozen=True)
class Bound:
    low: float
    high: float
    unit: str = ""  # "mm", "pt", or "" for a plain number (a fraction, a share of ink)

    def __str__(self) -> str:
        unit = f" of {self.unit}" if self.unit else ""
        return f"a number{unit} from {self.low:g} to {self.high:g}"

    def holds(self, value: object) -> bool:
        """Whether the value is a real number in bounds (nan is in none, and true is no number)."""
        return (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and math.isfinite(value)
            and self.low <= value <= self.high
        )


# From a 25 mm token with room to spare to a large board-game card; a print service's trims too.
CARD = Bound(20, 400, "mm")
# From a postcard to the widest roll a large-format printer takes.
PAPER = Bound(50, 1500, "mm")
# What a print shop asks for (1/8 in, 3 mm) with room to spare; --bleed takes the same.
BLEED = Bound(0, 10, "mm")
# A printer's unprinted edge; --margin takes the same.
MARGIN = Bound(0, 30, "mm")
# A print service's safe zone: text keeps this far inside the cut.
SAFE = Bound(0, 20, "mm")

_LINE = Bound(0, 5, "pt")
_DASH = Bound(0.1, 50, "mm")
_SHARE = Bound(0, 1)

# Each file's numbers by key path; "*" is every key of a mapping, "**" every number in the file.
# A number of a path without "**" must be there: the file replaces cardgen's own, key by key.
BOUNDS: dict[str, dict[tuple[str, ...], Bound]] = {
    "paper.yaml": {("*", "width"): PAPER, ("*", "height"): PAPER},
    "card-sizes.yaml": {("*", "width"): CARD, ("*", "height"): CARD},
    "sheet.yaml": {
        ("gutter",): Bound(0, 20, "mm"),
        ("printable-margin",): MARGIN,
        ("crop-marks", "clearance"): Bound(0, 10, "mm"),
        ("crop-marks", "length"): Bound(0.5, 20, "mm"),
        ("crop-marks", "min-length"): Bound(0.5, 20, "mm"),
        ("crop-marks", "line-width-pt"): _LINE,
        ("info-strip", "min-depth"): Bound(0, 50, "mm"),
        ("info-strip", "min-length"): Bound(0, 300, "mm"),
        ("ruler", "length"): Bound(10, 200, "mm"),
        ("ruler", "text-size"): Bound(2, 36, "pt"),
        ("ruler", "depth"): Bound(0, 50, "mm"),
        ("ruler", "gap"): Bound(0, 10, "mm"),
        ("ruler", "line-width-pt"): _LINE,
        ("fold", "dash", "*"): _DASH,
        ("fold", "line-width-pt"): _LINE,
        ("round-gap",): Bound(0, 20, "mm"),
        ("cut-guide", "line-width-pt"): _LINE,
        ("dark-backs",): _SHARE,
    },
    "box.yaml": {
        ("tuck-flap",): Bound(0, 100, "mm"),
        ("glue-flap",): Bound(0, 100, "mm"),
        ("notch",): Bound(0, 50, "mm"),
        ("cut-line-pt",): _LINE,
        ("fold-line-pt",): _LINE,
        ("fold-dash", "*"): _DASH,
        ("fold-grey",): _SHARE,
        ("glue-grey",): _SHARE,
        ("name-size",): Bound(2, 72, "pt"),
        ("text-size",): Bound(2, 36, "pt"),
    },
    # Lengths in mm within the largest card, fractions of a panel, sizes in pt: none is negative or
    # larger than the largest card.
    "card-layout.yaml": {("**",): Bound(0, CARD.high)},
}

_MISSING = object()


def problems(name: str, data: object) -> list[tuple[tuple, str]]:
    """The numbers of template data file `name` out of bounds, or missing: (key path, message)."""
    found = []
    for pattern, bound in BOUNDS.get(name, {}).items():
        for path, value, listed in _values(data, pattern, ()):
            if listed or not bound.holds(value):
                expected = f"a list of {str(bound).replace('a number', 'numbers')}" if listed else str(bound)
                got = "nothing" if value is _MISSING else repr(value)
                found.append((path, f"{'.'.join(map(str, path))}: expected {expected}, got {got}"))
    return found


def _values(data: object, pattern: tuple[str, ...], path: tuple) -> Iterator[tuple[tuple, object, bool]]:
    """The values at the paths `pattern` matches (_MISSING where a mapping lacks its key), each with
    whether it stands where a list or a mapping of them was expected."""
    if not pattern:
        yield path, data, False
    elif pattern[0] == "**":
        if isinstance(data, dict | list):
            for key, value in data.items() if isinstance(data, dict) else enumerate(data):
                yield from _values(value, pattern, (*path, key))
        elif isinstance(data, int | float) and not isinstance(data, bool):
            yield path, data, False
    elif pattern[0] != "*":
        # A key under a value that is no mapping is missing as much as one the mapping lacks.
        value = data.get(pattern[0], _MISSING) if isinstance(data, dict) else _MISSING
        yield from _values(value, pattern[1:], (*path, pattern[0]))
    elif isinstance(data, dict | list):
        for key, value in data.items() if isinstance(data, dict) else enumerate(data):
            yield from _values(value, pattern[1:], (*path, key))
    else:
        yield path, data, True


def pixels(width_mm: float, height_mm: float, dpi: float) -> tuple[int, int]:
    """A picture's width and height in pixels at that resolution, as cardgen draws it."""
    from cardgen.core import units

    return round(units.px(width_mm, dpi)), round(units.px(height_mm, dpi))


def max_dpi(width_mm: float, height_mm: float) -> float:
    """The highest resolution at which a picture of that size stays within the budget (a little under:
    the pixels are rounded)."""
    from cardgen.core import units

    return 0.999 * units.dpi_for(math.sqrt(MAX_PIXELS), math.sqrt(width_mm * height_mm))


def over_budget(width_mm: float, height_mm: float, dpi: float) -> str | None:
    """Why a picture of that size cannot be drawn at that resolution, or None when it can."""
    across, down = pixels(width_mm, height_mm, dpi)
    if across * down <= MAX_PIXELS:
        return None
    return (
        f"{width_mm:g} x {height_mm:g} mm at {dpi:g} DPI would be {across} x {down} pixels, more than the "
        f"{MAX_PIXELS // 1_000_000} megapixels cardgen draws a picture with (at most {int(max_dpi(width_mm, height_mm))} "
        "DPI at this size)"
    )
