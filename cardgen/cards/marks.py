"""A sheet's furniture: the cards' slots and the page in; its crop marks and the place of its page-info
strip (the "print at 100 %" ruler) out. Millimetres, PDF origin; nothing here draws."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from cardgen.core.units import Rect, Size

if TYPE_CHECKING:
    from cardgen.cards.layout import SheetSpec, Slot

Segment = tuple[float, float, float, float]

# Slack for "fits" comparisons: float sums such as 3 x 63 + 2 x 7 land a few
# ulps off the paper size, and a card that fits exactly must count as fitting.
EPS = 1e-9


def crop_marks(cards: tuple[Slot, ...], everything: tuple[Slot, ...], region: Rect, spec: SheetSpec) -> list[Segment]:
    """A mark above and below the cards for every vertical trim line, and left
    and right of them for every horizontal one, starting ``mark_clearance``
    beyond the bleed of everything on the page and kept inside ``region``."""
    if spec.shape == "round" or not cards:
        return []
    box = union(slot.paint for slot in everything)
    start = spec.mark_clearance
    # Each side's marks get what its margin allows, up to the preferred length;
    # the grid size guarantees the minimum.
    below = min(spec.mark_length, box.y - start - region.y)
    above = min(spec.mark_length, region.top - box.top - start)
    before = min(spec.mark_length, box.x - start - region.x)
    after = min(spec.mark_length, region.right - box.right - start)
    marks: list[Segment] = []
    for x in _distinct(x for slot in cards for x in (slot.trim.x, slot.trim.right)):
        marks.append((x, box.y - start, x, box.y - start - below))
        marks.append((x, box.top + start, x, box.top + start + above))
    for y in _distinct(y for slot in cards for y in (slot.trim.y, slot.trim.top)):
        marks.append((box.x - start, y, box.x - start - before, y))
        marks.append((box.right + start, y, box.right + start + after, y))
    return marks


# Every full sheet of a run has the same cards' boxes and marks, so the same strip.
@lru_cache(maxsize=256)
def info_strip(size: Size, bleed_box: Rect, obstacles: tuple[Segment, ...], spec: SheetSpec) -> tuple[Rect, int]:
    """The page-info rectangle: in the bottom margin if it fits, else the top,
    else the left or right (rotation 90); inside the printable margin and kept
    ``mark_clearance`` away from the paints, the marks and the fold line."""
    w, h, gap, m = size.w, size.h, spec.mark_clearance, spec.margin
    # Each margin in its own frame: u runs along its paper edge, v is the
    # distance from that edge; to_uv maps a page point, to_rect maps back the
    # strip u0..u1 x v0..v1.
    margins: list[
        tuple[
            int,
            float,
            float,
            Callable[[float, float], tuple[float, float]],
            Callable[[float, float, float, float], Rect],
        ]
    ] = [
        (0, w, bleed_box.y, lambda x, y: (x, y), lambda u0, u1, v0, v1: Rect(u0, v0, u1 - u0, v1 - v0)),
        (0, w, h - bleed_box.top, lambda x, y: (x, h - y), lambda u0, u1, v0, v1: Rect(u0, h - v1, u1 - u0, v1 - v0)),
        (90, h, bleed_box.x, lambda x, y: (y, x), lambda u0, u1, v0, v1: Rect(v0, u0, v1 - v0, u1 - u0)),
        (
            90,
            h,
            w - bleed_box.right,
            lambda x, y: (y, w - x),
            lambda u0, u1, v0, v1: Rect(w - v1, u0, v1 - v0, u1 - u0),
        ),
    ]
    for rotation, along, depth, to_uv, to_rect in margins:
        posts = []  # (u from, u to, v nearest the paper edge) of every obstacle
        for x1, y1, x2, y2 in obstacles:
            (ua, va), (ub, vb) = to_uv(x1, y1), to_uv(x2, y2)
            posts.append((min(ua, ub), max(ua, ub), min(va, vb)))
        # Deepest first: a strip reaching up to the cards between two marks
        # keeps its content well inside the printable area; shallower strips
        # stop short of the marks and run past them.
        depths = {depth - gap} | {v - gap for _, _, v in posts if v < depth}
        for d in sorted(depths, reverse=True):
            if d - m < spec.info_depth - EPS:
                break
            blocked = [(u0 - gap, u1 + gap) for u0, u1, v in posts if v < d + gap - EPS]
            span = _free_span_near_centre(blocked + [(-gap, m), (along - m, along + gap)], along, spec.info_length)
            if span:
                return to_rect(span[0], span[1], m, d), rotation
    raise NoInfoRoom(
        f"no margin has room for the page-info strip ({spec.info_length:g} x "
        f"{spec.info_depth:g} mm) clear of the cards and crop marks inside the {m:g} mm printable "
        f"margin; use larger paper, less bleed or a smaller card"
    )


def _free_span_near_centre(
    blocked: list[tuple[float, float]], along: float, min_length: float
) -> tuple[float, float] | None:
    """Of the free stretches of 0..along outside ``blocked``, the one at least
    ``min_length`` long whose middle is nearest the middle of the edge."""
    free, start = [], 0.0
    for lo, hi in sorted(blocked):
        if lo > start:
            free.append((start, lo))
        start = max(start, hi)
    if start < along:
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


class NoInfoRoom(ValueError):
    """A grid leaves no margin for the page-info strip (planning tries a smaller one)."""


def union(rects: Iterable[Rect]) -> Rect:
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
