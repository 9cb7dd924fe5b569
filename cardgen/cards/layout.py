"""Imposition: where every card goes on the printed sheets.

In: runs of cards (:class:`Run`: the cards' indexes in printing order, a
:class:`SheetSpec` with paper and card trim size, bleed, printable margin, how
backs are printed, crop-mark and page-info settings, usually read from
``templates/paper.yaml``, ``card-sizes.yaml`` and ``sheet.yaml`` with
:meth:`SheetSpec.from_templates`, and the back design the run's cards share).

Out: :func:`impose_runs` (and :func:`impose` for one run) returns the pages in
print order. A :class:`Page` has its size, its slots (which card, front or back,
its trim and paint rectangles and rotation), crop-mark segments, the fold line,
the TrimBox and BleedBox, and the rectangle for the page-info strip. All lengths
are millimetres with the PDF's origin (bottom-left, y up; see
:mod:`cardgen.core.units`). Nothing here draws.

One back design a sheet
-----------------------
Cards whose backs differ never share a sheet: with gutter 0 neighbours share
their cut lines, and a cut or a duplex print 0.5 mm off leaves a sliver of the
neighbour's back on a card, which marks a secret card for anyone who looks.
The caller gives each run of one card size and one back design; each run gets
sheets of its own. Round tokens are the exception: they stand apart by their
own bleed and the round gap on every side, so the tokens of a part-filled last
sheet go into the empty cells of other sheets (first those of a run with the
same back) when they all fit there, instead of taking a sheet for one token.

The grid
--------
As many cards as fit inside the printable area (the paper less the printable
margin, which home printers leave blank) with the full bleed on the grid's
outer edges, the gutters, and crop marks of at least the minimum length beyond
the clearance on all four sides, trying the paper as named and turned (and for
fold both fold directions); the grid is centred exactly in the printable area
(of its half, for fold), so mirrored backs land on the same paper. If that grid
leaves no margin for the page-info strip, the next largest grid that does is
used: a page without its "print at 100 %" ruler is not an option. Cards fill
rows from the top left; a partial page keeps the positions of a full one.
Every crop mark, the fold line and the info strip stay inside the printable
area.

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
  When the layout turned the page to landscape, the printer turns the page by
  a quarter turn onto the portrait paper, and the paper's long edge then runs
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

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal, TypeVar, get_args

from cardgen.cards.marks import EPS, NoInfoRoom, Segment, crop_marks, info_strip, union
from cardgen.core.units import Rect, Size

T = TypeVar("T")

Backs = Literal["long", "short", "fold", "none"]
Side = Literal["front", "back", "fold"]


@dataclass(frozen=True)
class SheetSpec:
    """Everything the layout needs, in millimetres."""

    paper: Size  # as named in paper.yaml (portrait); the layout may turn it
    card: Size  # trim size
    bleed: float  # per side
    backs: Backs
    gutter: float  # between neighbouring trims
    mark_clearance: float  # from the bleed edge to the start of a crop mark
    mark_length: float  # preferred crop-mark length
    mark_min_length: float  # a grid must leave room for marks this long
    info_depth: float  # page-info strip, minimum size
    info_length: float
    shape: Literal["rect", "round"] = "rect"  # round: cut along a circle, no crop marks
    margin: float = 0.0  # printable margin: nothing is printed closer to the paper's edge
    round_gap: float = 0.0  # clear paper around a round token's bleed

    def __post_init__(self) -> None:
        if self.backs not in get_args(Backs):
            raise ValueError(f"unknown backs {self.backs!r}; known: {', '.join(get_args(Backs))}")
        if min(self.paper.w, self.paper.h, self.card.w, self.card.h) <= 0:
            raise ValueError("paper and card sizes must be positive")
        if min(self.bleed, self.gutter, self.mark_clearance, self.margin, self.round_gap) < 0:
            raise ValueError("bleed, gutter, mark clearance, margin and round gap must not be negative")
        if not 0 < self.mark_min_length <= self.mark_length:
            raise ValueError("crop marks need 0 < minimum length <= preferred length")

    @classmethod
    def from_templates(
        cls,
        read: Callable[[str], dict],
        paper: str,
        card_size: str,
        bleed: float,
        backs: str,
        margin: float | None = None,
    ) -> SheetSpec:
        """`read` gives a template file's data by name (a project's own before the built-in one);
        `margin` None is sheet.yaml's printable margin."""
        sheet = read("sheet.yaml")
        marks, info = sheet["crop-marks"], sheet["info-strip"]
        sizes = read("card-sizes.yaml")
        round_ = sizes.get(card_size, {}).get("shape") == "round"
        round_gap = float(sheet["round-gap"])
        return cls(
            paper=named_size(read("paper.yaml"), paper, "paper"),
            card=named_size(sizes, card_size, "card size"),
            bleed=float(bleed),
            backs=backs,  # type: ignore[arg-type]  # checked in __post_init__
            # Circles cannot share a cut line: each keeps its whole bleed and a clear ring.
            gutter=2 * float(bleed) + round_gap if round_ else float(sheet["gutter"]),
            shape="round" if round_ else "rect",
            mark_clearance=float(marks["clearance"]),
            mark_length=float(marks["length"]),
            mark_min_length=float(marks["min-length"]),
            info_depth=float(info["min-depth"]),
            info_length=float(info["min-length"]),
            margin=float(sheet["printable-margin"] if margin is None else margin),
            round_gap=round_gap,
        )


@dataclass(frozen=True, slots=True)  # slots: a deck holds two for every card it prints, until it is drawn
class Slot:
    item: int  # index of the card in the input order
    side: Literal["front", "back"]
    trim: Rect  # the card's cut rectangle on the page
    paint: Rect  # trim plus bleed, stopping short of any neighbour's trim
    rotation: int  # 0 or 180, about the trim centre

    @property
    def bleed(self) -> float:
        """The widest of the paint's bleeds beyond the trim: the full bleed, unless a
        neighbour stops it on every side."""
        t, p = self.trim, self.paint
        return max(t.x - p.x, t.y - p.y, p.right - t.right, p.top - t.top)

    def around(self, bleed: float) -> Rect:
        """The card in its own coordinates, `bleed` wider on every side."""
        return Rect(0, 0, self.trim.w, self.trim.h).outset(bleed)


@dataclass(frozen=True)
class Page:
    size: Size
    side: Side
    slots: tuple[Slot, ...]
    marks: tuple[Segment, ...]  # crop marks (x1, y1, x2, y2), (x1, y1) nearer the cards
    fold_line: Segment | None  # from printable edge to printable edge
    trim_box: Rect  # union of the trims
    bleed_box: Rect  # union of the paints
    info: Rect  # page-info strip: clear of paints, marks and the fold line
    info_rotation: int  # 0, or 90 when the strip runs up a side margin

    def paper_shift(self, dx: float, dy: float) -> tuple[float, float]:
        """A shift given in the paper's own axes (portrait, as the calibration sheet is
        printed) in this page's axes. A landscape page reaches the portrait paper turned a
        quarter turn anticlockwise (the printing convention for landscape, as in IPP's
        orientation-requested): the page's x runs up the paper and its y to the paper's left."""
        if self.size.w > self.size.h:
            return dy, -dx
        return dx, dy


def widest_bleed(pages: Iterable[Page]) -> float:
    """The widest bleed of any card on these pages: a back's pattern is laid over each card's
    `around` it, so that every back of a PDF shows the pattern at the same place on the card."""
    return max((slot.bleed for page in pages for slot in page.slots), default=0.0)


@dataclass(frozen=True)
class Run:
    """Cards of one size and one back design, in printing order: they get sheets of their own."""

    items: tuple[int, ...]  # indexes of the cards in the caller's order
    spec: SheetSpec
    back: Hashable = None  # the back design, so that tokens join sheets with their own back first


def capacity(spec: SheetSpec) -> tuple[int, int]:
    """Columns and rows on one side of a sheet (for ``fold``: in one half)."""
    plan = _plan(spec)
    return plan.cols, plan.rows


def impose(count: int, spec: SheetSpec) -> list[Page]:
    """Pages for ``count`` cards of one run in print order: front, back, front,
    back... for duplex, fronts only for ``none``, one page per sheet for ``fold``."""
    if count < 0:
        raise ValueError("card count must not be negative")
    return impose_runs([Run(tuple(range(count)), spec)])


def impose_runs(runs: Iterable[Run]) -> list[Page]:
    """Pages for runs of cards, each run on sheets of its own (see the module docstring
    for the tokens that join other sheets); sheets in the order of the runs."""
    sheets: list[_Sheet] = []
    for run in runs:
        plan = _plan(run.spec)
        per_sheet = plan.cols * plan.rows
        sheets += [
            _Sheet(plan, run, _grid(plan, run.items[first : first + per_sheet], run.spec))
            for first in range(0, len(run.items), per_sheet)
        ]
    for sheet in [s for s in sheets if s.run.spec.shape == "round" and s.free_cells()]:
        _move_to_free_cells(sheet, sheets)
    return [page for sheet in sheets if sheet.cards for page in sheet.pages()]


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
        trim, paint = _shared(self.rect(front.trim)), _shared(self.rect(front.paint))
        return Slot(front.item, "back", trim, paint, 0 if self.vertical else 180)


# Every full sheet of a run has the same boxes and marks: the sheets share one copy of each, so that a
# deck's pages, all of them held while it prints, take memory for their cards' indexes and little more.
@lru_cache(maxsize=4096)
def _shared(value: T) -> T:
    """The first value equal to `value` that was shared (the same, in a shared object)."""
    return value


@dataclass(frozen=True)
class _Plan:
    page: Size
    region: Rect  # the printable area of the fronts; the grid is centred in it
    mirror: _Mirror | None  # None: no backs
    cols: int
    rows: int


@lru_cache(maxsize=64)  # the decks of a build share their few card sizes
def _plan(spec: SheetSpec) -> _Plan:
    """The grid to use: the most cards per sheet over both page orientations
    (and, for fold, both fold directions), or, when that leaves no margin for
    the page-info strip, the next largest grid that does."""
    # (page, fronts' printable region, mirror), in order of preference
    layouts: list[tuple[Size, Rect, _Mirror | None]] = []
    m = spec.margin
    for page in (spec.paper, spec.paper.rotated()):
        printable = Rect(m, m, page.w - 2 * m, page.h - 2 * m)
        if min(printable.w, printable.h) <= 0:
            continue
        if spec.backs == "fold":
            # Fronts left of a vertical fold line, or above a horizontal one; the fold is no paper
            # edge, so the margin is kept on the other three sides only.
            layouts += [
                (page, Rect(m, m, page.w / 2 - m, page.h - 2 * m), _Mirror(True, page.w / 2)),
                (page, Rect(m, page.h / 2, page.w - 2 * m, page.h / 2 - m), _Mirror(False, page.h / 2)),
            ]
        elif spec.backs == "none":
            layouts.append((page, printable, None))
        else:
            long_edge_vertical = page.h >= page.w
            vertical = (spec.backs == "long") == long_edge_vertical
            layouts.append((page, printable, _Mirror(vertical, page.w / 2 if vertical else page.h / 2)))
    candidates = [
        _Plan(page, region, mirror, cols, rows)
        for page, region, mirror in layouts
        for cols in range(_fit(region.w, spec.card.w, spec), 0, -1)
        for rows in range(_fit(region.h, spec.card.h, spec), 0, -1)
    ]
    if not candidates:
        extra = 2 * (spec.bleed + _reach(spec) + spec.margin)
        area = "half the paper" if spec.backs == "fold" else "the paper"
        raise ValueError(
            f"no card fits: a {spec.card.w:g} x {spec.card.h:g} mm card with {spec.bleed:g} mm "
            f"bleed, crop marks and a {spec.margin:g} mm printable margin needs {spec.card.w + extra:g} x "
            f"{spec.card.h + extra:g} mm, more than {area} ({spec.paper.w:g} x {spec.paper.h:g} mm paper) "
            f"in either orientation"
        )
    # A stable sort keeps the order of preference among equals: the paper as
    # named (portrait) before the turned one, a vertical fold (no rotated
    # backs) before a horizontal one, wider grids before taller ones.
    candidates.sort(key=lambda plan: -plan.cols * plan.rows)
    for plan in candidates:
        try:
            _pages(plan, spec, _grid(plan, range(plan.cols * plan.rows), spec), ())
            return plan
        except NoInfoRoom as error:
            no_room = error
    raise no_room


def _reach(spec: SheetSpec) -> float:
    """How far beyond the bleed a grid's furniture reaches: the clearance and the shortest
    crop mark (round tokens have none; their cut guide is on the trim)."""
    return 0.0 if spec.shape == "round" else spec.mark_clearance + spec.mark_min_length


def _fit(length: float, card: float, spec: SheetSpec) -> int:
    """How many cards fit in a row of ``length``: the trims with gutters between,
    the full bleed on both outer ends, and beyond that the clearance and the
    shortest allowed crop mark."""

    def span(n: int) -> float:
        return n * card + (n - 1) * spec.gutter + 2 * (spec.bleed + _reach(spec))

    n = 0
    while span(n + 1) <= length + EPS:
        n += 1
    return n


def _cell(plan: _Plan, spec: SheetSpec, r: int, c: int) -> Rect:
    """The trim of grid cell (row r, column c) of a grid centred in plan.region."""
    card, gutter = spec.card, spec.gutter
    left = plan.region.x + (plan.region.w - (plan.cols * card.w + (plan.cols - 1) * gutter)) / 2
    top = plan.region.top - (plan.region.h - (plan.rows * card.h + (plan.rows - 1) * gutter)) / 2
    return Rect(left + c * (card.w + gutter), top - r * (card.h + gutter) - card.h, card.w, card.h)


def _grid(plan: _Plan, items: Sequence[int], spec: SheetSpec) -> tuple[Slot, ...]:
    """Front slots for ``items``, in the first cells of the grid."""
    return tuple(Slot(item, "front", *cell, 0) for item, cell in zip(items, _cells(plan, len(items), spec)))


@lru_cache(maxsize=256)  # every full sheet of a run has the same cells
def _cells(plan: _Plan, count: int, spec: SheetSpec) -> tuple[tuple[Rect, Rect], ...]:
    """The trim and paint of ``count`` cells, row by row from the top left of a grid of plan.cols x
    plan.rows centred in plan.region (a partial page keeps the positions of a full one)."""
    bleed, gutter, cols, rows = spec.bleed, spec.gutter, plan.cols, plan.rows

    # Towards a neighbour the bleed stops halfway across the gutter (nothing
    # with gutter 0), so it never reaches the neighbour's cut line and the two
    # cards' bleeds do not fight; towards an edge or an empty cell it is full.
    def bleed_towards(r: int, c: int) -> float:
        occupied = 0 <= r < rows and 0 <= c < cols and r * cols + c < count
        return min(bleed, gutter / 2) if occupied else bleed

    cells = []
    for i in range(count):
        r, c = divmod(i, cols)
        trim = _cell(plan, spec, r, c)
        west, east = bleed_towards(r, c - 1), bleed_towards(r, c + 1)
        north, south = bleed_towards(r - 1, c), bleed_towards(r + 1, c)
        paint = Rect(trim.x - west, trim.y - south, trim.w + west + east, trim.h + south + north)
        cells.append((_shared(trim), _shared(paint)))
    return tuple(cells)


# --- sheets, and tokens in the free cells of others ----------------------------------------


@dataclass
class _Sheet:
    plan: _Plan
    run: Run
    cards: tuple[Slot, ...]  # the run's own front slots
    guests: list[tuple[SheetSpec, Slot]] = field(default_factory=list)  # tokens in free cells
    used: set[tuple[int, int]] = field(default_factory=set)  # cells that took guests

    def free_cells(self) -> list[tuple[int, int]]:
        """The cells of the grid that hold no card and no guest, in reading order."""
        plan = self.plan
        return [
            divmod(i, plan.cols)
            for i in range(len(self.cards), plan.cols * plan.rows)
            if divmod(i, plan.cols) not in self.used
        ]

    def pages(self) -> list[Page]:
        """The sheet's pages: front then back for duplex, fronts only without backs, one with both halves for fold."""
        plan, spec, items = self.plan, self.run.spec, [slot.item for slot in self.cards]
        if self.guests:
            return list(_pages(plan, spec, self.cards, tuple(slot for _, slot in self.guests)))
        # Those of any sheet of the run with as many cards (laid out once), each slot with its own card.
        return [
            replace(page, slots=tuple(Slot(items[s.item], s.side, s.trim, s.paint, s.rotation) for s in page.slots))
            for page in _pages(plan, spec, _grid(plan, range(len(items)), spec), ())
        ]


@lru_cache(maxsize=64)
def _pages(plan: _Plan, spec: SheetSpec, cards: tuple[Slot, ...], guests: tuple[Slot, ...]) -> tuple[Page, ...]:
    fronts = (plan.region, cards, guests)
    if plan.mirror is None:
        return (_page(plan.page, "front", [fronts], None, spec),)
    mirror = plan.mirror
    backs = (mirror.rect(plan.region), tuple(map(mirror.slot, cards)), tuple(map(mirror.slot, guests)))
    if spec.backs == "fold":
        at, m = mirror.at, spec.margin
        fold_line = (at, m, at, plan.page.h - m) if mirror.vertical else (m, at, plan.page.w - m, at)
        return (_page(plan.page, "fold", [fronts, backs], fold_line, spec),)
    return _page(plan.page, "front", [fronts], None, spec), _page(plan.page, "back", [backs], None, spec)


def _move_to_free_cells(sheet: _Sheet, sheets: list[_Sheet]) -> None:
    """The tokens of a part-filled token sheet into the free cells of card sheets, when all
    of them fit there (a sheet is saved only when it empties): hosts of the same back first."""
    tokens = sheet.run.spec
    hosts = sorted(
        (s for s in sheets if s.run.spec.shape == "rect" and s.cards), key=lambda s: s.run.back != sheet.run.back
    )
    placed: list[tuple[_Sheet, tuple[int, int], list[Rect]]] = []
    count = len(sheet.cards)
    for host in hosts:
        for cell in host.free_cells():
            if count <= 0:
                break
            trims = _tokens_in_cell(host, cell, tokens)[:count]
            if trims:
                placed.append((host, cell, trims))
                count -= len(trims)
    if count > 0:
        return
    items = iter(slot.item for slot in sheet.cards)
    for host, cell, trims in placed:
        host.used.add(cell)
        host.guests += [(tokens, Slot(next(items), "front", trim, trim.outset(tokens.bleed), 0)) for trim in trims]
    sheet.cards = ()


def _tokens_in_cell(host: _Sheet, cell: tuple[int, int], tokens: SheetSpec) -> list[Rect]:
    """Token trims in a free cell of a card sheet, in reading order: the neighbours'
    bleed may reach a bleed's width into the cell, and each token's paint keeps the
    round gap from it and from the next token."""
    spec = host.run.spec
    area = _cell(host.plan, spec, *cell).inset(spec.bleed + tokens.round_gap + tokens.bleed)
    pitch_x, pitch_y = tokens.card.w + tokens.gutter, tokens.card.h + tokens.gutter
    cols = int((area.w + tokens.gutter + EPS) // pitch_x)
    rows = int((area.h + tokens.gutter + EPS) // pitch_y)
    if cols < 1 or rows < 1:
        return []
    left = area.x + (area.w - (cols * pitch_x - tokens.gutter)) / 2
    top = area.top - (area.h - (rows * pitch_y - tokens.gutter)) / 2
    return [
        Rect(left + c * pitch_x, top - r * pitch_y - tokens.card.h, tokens.card.w, tokens.card.h)
        for r in range(rows)
        for c in range(cols)
    ]


# --- one page ----------------------------------------------------------------------


# Slots on a page: the area their crop marks stay in, the cards, and tokens among them with no cut lines of their own.
_Group = tuple[Rect, tuple[Slot, ...], tuple[Slot, ...]]


def _page(size: Size, side: Side, groups: list[_Group], fold_line: Segment | None, spec: SheetSpec) -> Page:
    """A page from groups of slots."""
    slots = tuple(slot for _, cards, guests in groups for slot in cards + guests)
    marks = _shared(
        tuple(mark for region, cards, guests in groups for mark in crop_marks(cards, cards + guests, region, spec))
    )
    bleed_box, trim_box = _shared(union(slot.paint for slot in slots)), _shared(union(slot.trim for slot in slots))
    obstacles = marks + ((fold_line,) if fold_line else ())
    info, info_rotation = info_strip(size, bleed_box, obstacles, spec)
    return Page(size, side, slots, marks, fold_line, trim_box, bleed_box, info, info_rotation)


def named_size(table: dict, name: str, what: str) -> Size:
    if name not in table:
        raise ValueError(f"unknown {what} {name!r}; known: {', '.join(sorted(table))}")
    return Size(float(table[name]["width"]), float(table[name]["height"]))
