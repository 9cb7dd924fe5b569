"""Imposition: where every card goes on the printed sheets.

In: the number of cards and a :class:`SheetSpec` (paper and card trim size,
bleed, how backs are printed, crop-mark and page-info settings), usually read
from ``templates/paper.yaml``, ``card-sizes.yaml`` and ``sheet.yaml`` with
:meth:`SheetSpec.from_templates`.

Out: :func:`impose` returns the pages in print order. A :class:`Page` has its
size, its slots (which card, front or back, its trim and paint rectangles and
rotation), crop-mark segments, the fold line, the TrimBox and BleedBox, and the
rectangle for the page-info strip. All lengths are millimetres with the PDF's
origin (bottom-left, y up; see :mod:`cardgen.units`). Nothing here draws.

The grid
--------
As many cards as fit with the full bleed on the grid's outer edges, the
gutters, and crop marks of at least the minimum length beyond the clearance on
all four sides, trying the paper as named and turned (and for fold both fold
directions); the grid is centred exactly on the page (on its half for fold),
so mirrored backs land on the same paper. If that grid leaves no margin for
the page-info strip, the next largest grid that does is used: a page without
its "print at 100 %" ruler is not an option. Cards fill rows from the top left;
a partial page keeps the positions of a full one.

The info strip reaches the paper edge on its outer side. Home printers leave
the outer few millimetres blank, so the renderer should set its content against
the side facing the cards (top for the bottom margin, and so on).

How backs line up
-----------------
A cut card is turned over sideways, about its own vertical axis, the way a
playing card or a book page is turned. Every back is placed and rotated so that
it is upright when its card is turned that way, whichever way the backs were
printed, so one deck comes out the same with ``long``, ``short`` and ``fold``.

Turning the sheet over about a vertical line (x -> 2a - x) is that same
sideways turn: the back's top stays at the top, rotation 0. Turning it over
about a horizontal line (y -> 2a - y) brings the back's top to the bottom
compared with a sideways turn, so those backs are drawn rotated by 180.

* ``long`` duplex turns the sheet about its long edge. On a portrait page the
  long edge is vertical: column c backs onto column ncols-1-c, rotation 0.
  When the layout turned the page to landscape, the PDF viewer rotates the page
  by 90 degrees onto the portrait paper, and the paper's long edge then runs
  along the page's width: the turn is about a horizontal line, so row r backs
  onto row nrows-1-r, rotation 180.
* ``short`` is the other way round: portrait pages mirror rows (rotation 180),
  landscape pages mirror columns (rotation 0).
* ``fold`` puts fronts and backs on one page. Folding along a vertical line is
  a turn about a vertical line (backs in the right half at the mirror position,
  rotation 0); folding along a horizontal line is a turn about a horizontal line
  (backs in the bottom half at the mirror position, rotation 180).

Backs are computed as exact mirror images of the fronts about the page centre
(duplex) or the fold line, so a partial last page mirrors correctly too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable, Literal, get_args


from .units import Rect, Size

Backs = Literal["long", "short", "fold", "none"]
Segment = tuple[float, float, float, float]

# Slack for "fits" comparisons: float sums such as 3 x 63 + 2 x 7 land a few
# ulps off the paper size, and a card that fits exactly must count as fitting.
EPS = 1e-9


@dataclass(frozen=True)
class SheetSpec:
    """Everything the layout needs, in millimetres."""

    paper: Size             # as named in paper.yaml (portrait); the layout may turn it
    card: Size              # trim size
    bleed: float            # per side
    backs: Backs
    gutter: float           # between neighbouring trims
    mark_clearance: float   # from the bleed edge to the start of a crop mark
    mark_length: float      # preferred crop-mark length
    mark_min_length: float  # a grid must leave room for marks this long
    info_depth: float       # page-info strip, minimum size
    info_length: float
    shape: Literal["rect", "round"] = "rect"   # round: cut along a circle, no crop marks

    def __post_init__(self) -> None:
        if self.backs not in get_args(Backs):
            raise ValueError(f"unknown backs {self.backs!r}; known: {', '.join(get_args(Backs))}")
        if min(self.paper.w, self.paper.h, self.card.w, self.card.h) <= 0:
            raise ValueError("paper and card sizes must be positive")
        if min(self.bleed, self.gutter, self.mark_clearance) < 0:
            raise ValueError("bleed, gutter and mark clearance must not be negative")
        if not 0 < self.mark_min_length <= self.mark_length:
            raise ValueError("crop marks need 0 < minimum length <= preferred length")

    @classmethod
    def from_templates(
        cls, read: Callable[[str], dict], paper: str, card_size: str, bleed: float, backs: str
    ) -> "SheetSpec":
        """`read` gives a template file's data by name (a project's own before the built-in one)."""
        sheet = read("sheet.yaml")
        marks, info = sheet["crop-marks"], sheet["info-strip"]
        sizes = read("card-sizes.yaml")
        round_ = sizes.get(card_size, {}).get("shape") == "round"
        return cls(
            paper=named_size(read("paper.yaml"), paper, "paper"),
            card=named_size(sizes, card_size, "card size"),
            bleed=float(bleed),
            backs=backs,  # type: ignore[arg-type]  # checked in __post_init__
            # Circles cannot share a cut line: each keeps its whole bleed and a clear ring.
            gutter=2 * float(bleed) + float(sheet["round-gap"]) if round_ else float(sheet["gutter"]),
            shape="round" if round_ else "rect",
            mark_clearance=float(marks["clearance"]),
            mark_length=float(marks["length"]),
            mark_min_length=float(marks["min-length"]),
            info_depth=float(info["min-depth"]),
            info_length=float(info["min-length"]),
        )


@dataclass(frozen=True)
class Slot:
    item: int                       # index of the card in the input order
    side: Literal["front", "back"]
    trim: Rect                      # the card's cut rectangle on the page
    paint: Rect                     # trim plus bleed, stopping short of any neighbour's trim
    rotation: int                   # 0 or 180, about the trim centre


@dataclass(frozen=True)
class Page:
    size: Size
    side: Literal["front", "back", "fold"]
    slots: tuple[Slot, ...]
    marks: tuple[Segment, ...]      # crop marks (x1, y1, x2, y2), (x1, y1) nearer the cards
    fold_line: Segment | None       # from paper edge to paper edge
    trim_box: Rect                  # union of the trims
    bleed_box: Rect                 # union of the paints
    info: Rect                      # page-info strip: clear of paints, marks and the fold line
    info_rotation: int              # 0, or 90 when the strip runs up a side margin


def capacity(spec: SheetSpec) -> tuple[int, int]:
    """Columns and rows on one side of a sheet (for ``fold``: in one half)."""
    plan = _plan(spec)
    return plan.cols, plan.rows


def impose(count: int, spec: SheetSpec) -> list[Page]:
    """Pages for ``count`` cards in print order: front, back, front, back...
    for duplex, fronts only for ``none``, one page per sheet for ``fold``."""
    if count < 0:
        raise ValueError("card count must not be negative")
    plan = _plan(spec)
    per_sheet = plan.cols * plan.rows
    return [page for first in range(0, count, per_sheet)
            for page in _sheet(plan, range(first, min(first + per_sheet, count)), spec)]


def impose_runs(runs: Iterable[tuple[int, SheetSpec]]) -> list[Page]:
    """Pages for consecutive runs of cards, each run of one size on sheets of its own;
    slot items count through all the runs."""
    pages: list[Page] = []
    first = 0
    for count, spec in runs:
        pages += [replace(page, slots=tuple(replace(slot, item=slot.item + first) for slot in page.slots))
                  for page in impose(count, spec)]
        first += count
    return pages


# --- planning: orientation, fold direction, grid size ------------------------------


@dataclass(frozen=True)
class _Mirror:
    """Where backs go: the mirror image of the fronts across the line x = at
    (vertical) or y = at (horizontal); see the module docstring for why a
    horizontal line means rotation 180."""

    vertical: bool
    at: float

    def rect(self, r: Rect) -> Rect:
        if self.vertical:
            return Rect(2 * self.at - r.right, r.y, r.w, r.h)
        return Rect(r.x, 2 * self.at - r.top, r.w, r.h)

    def slot(self, front: Slot) -> Slot:
        return Slot(front.item, "back", self.rect(front.trim), self.rect(front.paint),
                    0 if self.vertical else 180)


@dataclass(frozen=True)
class _Plan:
    page: Size
    region: Rect                # the fronts' area; the grid is centred in it
    mirror: _Mirror | None      # None: no backs
    cols: int
    rows: int


def _plan(spec: SheetSpec) -> _Plan:
    """The grid to use: the most cards per sheet over both page orientations
    (and, for fold, both fold directions), or, when that leaves no margin for
    the page-info strip, the next largest grid that does."""
    layouts = []  # (page, fronts' region, mirror), in order of preference
    for page in (spec.paper, spec.paper.rotated()):
        whole = Rect(0, 0, page.w, page.h)
        if spec.backs == "fold":
            # Fronts left of a vertical fold line, or above a horizontal one.
            layouts += [(page, Rect(0, 0, page.w / 2, page.h), _Mirror(True, page.w / 2)),
                        (page, Rect(0, page.h / 2, page.w, page.h / 2), _Mirror(False, page.h / 2))]
        elif spec.backs == "none":
            layouts.append((page, whole, None))
        else:
            long_edge_vertical = page.h >= page.w
            vertical = (spec.backs == "long") == long_edge_vertical
            layouts.append((page, whole, _Mirror(vertical, page.w / 2 if vertical else page.h / 2)))
    candidates = [
        _Plan(page, region, mirror, cols, rows)
        for page, region, mirror in layouts
        for cols in range(_fit(region.w, spec.card.w, spec), 0, -1)
        for rows in range(_fit(region.h, spec.card.h, spec), 0, -1)
    ]
    if not candidates:
        extra = 2 * (spec.bleed + spec.mark_clearance + spec.mark_min_length)
        area = "half the paper" if spec.backs == "fold" else "the paper"
        raise ValueError(
            f"no card fits: a {spec.card.w:g} x {spec.card.h:g} mm card with {spec.bleed:g} mm "
            f"bleed and crop marks needs {spec.card.w + extra:g} x {spec.card.h + extra:g} mm, "
            f"more than {area} ({spec.paper.w:g} x {spec.paper.h:g} mm paper) in either orientation"
        )
    # A stable sort keeps the order of preference among equals: the paper as
    # named (portrait) before the turned one, a vertical fold (no rotated
    # backs) before a horizontal one, wider grids before taller ones.
    candidates.sort(key=lambda plan: -plan.cols * plan.rows)
    for plan in candidates:
        try:
            _sheet(plan, range(plan.cols * plan.rows), spec)
        except _NoInfoRoom as error:
            no_room = error
            continue
        return plan
    raise no_room


def _fit(length: float, card: float, spec: SheetSpec) -> int:
    """How many cards fit in a row of ``length``: the trims with gutters between,
    the full bleed on both outer ends, and beyond that the clearance and the
    shortest allowed crop mark."""
    def span(n: int) -> float:
        return n * card + (n - 1) * spec.gutter + 2 * (spec.bleed + spec.mark_clearance
                                                       + spec.mark_min_length)
    n = 0
    while span(n + 1) <= length + EPS:
        n += 1
    return n


def _sheet(plan: _Plan, items: range, spec: SheetSpec) -> list[Page]:
    """The page or pages of one sheet: front then back for duplex, fronts
    only without backs, one page with both halves for fold."""
    fronts = (plan.region, _grid(plan, items, spec))
    if plan.mirror is None:
        return [_page(plan.page, "front", [fronts], None, spec)]
    backs = (plan.mirror.rect(plan.region), tuple(map(plan.mirror.slot, fronts[1])))
    if spec.backs == "fold":
        at = plan.mirror.at
        fold_line = ((at, 0.0, at, plan.page.h) if plan.mirror.vertical
                     else (0.0, at, plan.page.w, at))
        return [_page(plan.page, "fold", [fronts, backs], fold_line, spec)]
    return [_page(plan.page, "front", [fronts], None, spec),
            _page(plan.page, "back", [backs], None, spec)]


# --- one page ----------------------------------------------------------------------


def _grid(plan: _Plan, items: range, spec: SheetSpec) -> tuple[Slot, ...]:
    """Front slots for ``items``, row by row from the top left of a grid of
    plan.cols x plan.rows centred in plan.region (a partial page keeps the
    positions of a full one)."""
    card, gutter, bleed = spec.card, spec.gutter, spec.bleed
    cols, rows = plan.cols, plan.rows
    left = plan.region.x + (plan.region.w - (cols * card.w + (cols - 1) * gutter)) / 2
    top = plan.region.top - (plan.region.h - (rows * card.h + (rows - 1) * gutter)) / 2

    def occupied(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and r * cols + c < len(items)

    # Towards a neighbour the bleed stops halfway across the gutter (nothing
    # with gutter 0), so it never reaches the neighbour's cut line and the two
    # cards' bleeds do not fight; towards an edge or an empty cell it is full.
    def bleed_towards(r: int, c: int) -> float:
        return min(bleed, gutter / 2) if occupied(r, c) else bleed

    slots = []
    for i, item in enumerate(items):
        r, c = divmod(i, cols)
        trim = Rect(left + c * (card.w + gutter), top - r * (card.h + gutter) - card.h,
                    card.w, card.h)
        west, east = bleed_towards(r, c - 1), bleed_towards(r, c + 1)
        north, south = bleed_towards(r - 1, c), bleed_towards(r + 1, c)
        paint = Rect(trim.x - west, trim.y - south, trim.w + west + east, trim.h + south + north)
        slots.append(Slot(item, "front", trim, paint, 0))
    return tuple(slots)


def _page(size: Size, side: Literal["front", "back", "fold"],
          groups: list[tuple[Rect, tuple[Slot, ...]]], fold_line: Segment | None,
          spec: SheetSpec) -> Page:
    """A page from groups of slots, each with the area its crop marks must stay
    in (the page, or its half of a fold page)."""
    slots = tuple(slot for _, group in groups for slot in group)
    marks = tuple(mark for region, group in groups for mark in _crop_marks(group, region, spec))
    bleed_box = _union(slot.paint for slot in slots)
    obstacles = marks + ((fold_line,) if fold_line else ())
    info, info_rotation = _info_strip(size, bleed_box, obstacles, spec)
    return Page(size, side, slots, marks, fold_line, _union(slot.trim for slot in slots),
                bleed_box, info, info_rotation)


def _crop_marks(slots: tuple[Slot, ...], region: Rect, spec: SheetSpec) -> list[Segment]:
    """A mark above and below the cards for every vertical trim line, and left
    and right of them for every horizontal one, starting ``mark_clearance``
    beyond the bleed and kept inside ``region``."""
    if spec.shape == "round":
        return []
    box = _union(slot.paint for slot in slots)
    start = spec.mark_clearance
    # Each side's marks get what its margin allows, up to the preferred length;
    # the grid size guarantees the minimum.
    below = min(spec.mark_length, box.y - start - region.y)
    above = min(spec.mark_length, region.top - box.top - start)
    before = min(spec.mark_length, box.x - start - region.x)
    after = min(spec.mark_length, region.right - box.right - start)
    marks: list[Segment] = []
    for x in _distinct(x for slot in slots for x in (slot.trim.x, slot.trim.right)):
        marks.append((x, box.y - start, x, box.y - start - below))
        marks.append((x, box.top + start, x, box.top + start + above))
    for y in _distinct(y for slot in slots for y in (slot.trim.y, slot.trim.top)):
        marks.append((box.x - start, y, box.x - start - before, y))
        marks.append((box.right + start, y, box.right + start + after, y))
    return marks


def _info_strip(size: Size, bleed_box: Rect, obstacles: tuple[Segment, ...],
                spec: SheetSpec) -> tuple[Rect, int]:
    """The page-info rectangle: in the bottom margin if it fits, else the top,
    else the left or right (rotation 90); kept ``mark_clearance`` away from the
    paints, the marks and the fold line."""
    w, h, gap = size.w, size.h, spec.mark_clearance
    # Each margin in its own frame: u runs along its paper edge, v is the
    # distance from that edge; to_uv maps a page point, to_rect maps back the
    # strip u0..u1 x 0..d.
    margins: list[tuple[int, float, float, Callable[[float, float], tuple[float, float]],
                        Callable[[float, float, float], Rect]]] = [
        (0, w, bleed_box.y, lambda x, y: (x, y), lambda u0, u1, d: Rect(u0, 0, u1 - u0, d)),
        (0, w, h - bleed_box.top, lambda x, y: (x, h - y),
         lambda u0, u1, d: Rect(u0, h - d, u1 - u0, d)),
        (90, h, bleed_box.x, lambda x, y: (y, x), lambda u0, u1, d: Rect(0, u0, d, u1 - u0)),
        (90, h, w - bleed_box.right, lambda x, y: (y, w - x),
         lambda u0, u1, d: Rect(w - d, u0, d, u1 - u0)),
    ]
    for rotation, along, depth, to_uv, to_rect in margins:
        posts = []  # (u from, u to, v nearest the paper edge) of every obstacle
        for x1, y1, x2, y2 in obstacles:
            (ua, va), (ub, vb) = to_uv(x1, y1), to_uv(x2, y2)
            posts.append((min(ua, ub), max(ua, ub), min(va, vb)))
        # Deepest first: a strip reaching up to the cards between two marks
        # keeps its content away from the paper edge, which home printers do
        # not print; shallower strips stop short of the marks and run past them.
        depths = {depth - gap} | {v - gap for _, _, v in posts if v < depth}
        for d in sorted(depths, reverse=True):
            if d < spec.info_depth - EPS:
                break
            blocked = [(u0 - gap, u1 + gap) for u0, u1, v in posts if v < d + gap - EPS]
            span = _free_span_near_centre(blocked, along, spec.info_length)
            if span:
                return to_rect(span[0], span[1], d), rotation
    raise _NoInfoRoom(
        f"no margin has room for the page-info strip ({spec.info_length:g} x "
        f"{spec.info_depth:g} mm) clear of the cards and crop marks; use larger paper, "
        f"less bleed or a smaller card"
    )


def _free_span_near_centre(blocked: list[tuple[float, float]], along: float,
                           min_length: float) -> tuple[float, float] | None:
    """Of the free stretches of 0..along outside ``blocked``, the one at least
    ``min_length`` long whose middle is nearest the middle of the edge."""
    free, start = [], 0.0
    for lo, hi in sorted(blocked):
        if lo > start:
            free.append((start, lo))
        start = max(start, hi)
    free.append((start, along))
    fitting = [(a, b) for a, b in free if b - a >= min_length - EPS]
    if not fitting:
        return None
    def off_centre(span: tuple[float, float]) -> float:
        return abs((span[0] + span[1]) / 2 - along / 2)
    # Two spans mirror each other about the middle in a symmetric layout; take
    # the first (left or bottom) of them, whatever the last float bit says.
    nearest = min(map(off_centre, fitting))
    return next(span for span in fitting if off_centre(span) <= nearest + EPS)


# --- helpers -----------------------------------------------------------------------


class _NoInfoRoom(ValueError):
    """A grid leaves no margin for the page-info strip (planning tries a smaller one)."""


def _union(rects: Iterable[Rect]) -> Rect:
    it = iter(rects)
    box = next(it)
    for r in it:
        box = box.union(r)
    return box


def _distinct(values: Iterable[float]) -> list[float]:
    """Sorted, with values within EPS taken as one line: neighbours with gutter
    0 share a cut line even when the two float sums differ in the last bit."""
    lines: list[float] = []
    for v in sorted(values):
        if not lines or v - lines[-1] > EPS:
            lines.append(v)
    return lines


def named_size(table: dict, name: str, what: str) -> Size:
    if name not in table:
        raise ValueError(f"unknown {what} {name!r}; known: {', '.join(sorted(table))}")
    return Size(float(table[name]["width"]), float(table[name]["height"]))
