"""Tests for cardgen.cards.layout: grid size, positions, crop marks, backs, fold, info strip."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from cardgen.cards.layout import Page, Run, SheetSpec, capacity, impose, impose_runs
from cardgen.core.units import Rect, Size

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def read_template(name: str) -> dict:
    return yaml.safe_load((TEMPLATES / name).read_text(encoding="utf-8"))


TOL = 1e-9


def spec(paper="a4", card="poker", bleed=3.0, backs="long", margin=0.0) -> SheetSpec:
    """Most tests check the grid's mechanics printed to the paper's edge (margin 0); the
    printable margin's own tests pass margin=None, the templates' default."""
    return SheetSpec.from_templates(read_template, paper, card, bleed, backs, margin)


def overlaps(a: Rect, b: Rect) -> bool:
    """Positive-area intersection."""
    return a.x < b.right - TOL and b.x < a.right - TOL and a.y < b.top - TOL and b.y < a.top - TOL


def touches(seg, r: Rect) -> bool:
    """An axis-aligned segment meets the closed rectangle."""
    x1, y1, x2, y2 = seg
    return min(x1, x2) <= r.right and max(x1, x2) >= r.x and min(y1, y2) <= r.top and max(y1, y2) >= r.y


def inside(r: Rect, size: Size) -> bool:
    return r.x >= -TOL and r.y >= -TOL and r.right <= size.w + TOL and r.top <= size.h + TOL


def length(seg) -> float:
    x1, y1, x2, y2 = seg
    return math.hypot(x2 - x1, y2 - y1)


def by_item(page: Page) -> dict[int, object]:
    return {slot.item: slot for slot in page.slots}


def union(rects) -> Rect:
    rects = list(rects)
    box = rects[0]
    for r in rects[1:]:
        box = box.union(r)
    return box


# --- the common case: poker cards, 3 mm bleed, A4 and Letter ------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_fits_three_by_three_portrait(paper):
    s = spec(paper)
    assert capacity(s) == (3, 3)
    page = impose(9, s)[0]
    assert page.size == s.paper  # not turned
    assert len(page.slots) == 9


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_trims_are_exactly_the_card_size_and_the_grid_is_centred(paper):
    page = impose(9, spec(paper))[0]
    for slot in page.slots:
        assert (slot.trim.w, slot.trim.h) == (63, 88)
    box = page.trim_box
    assert box.w == pytest.approx(3 * 63, abs=TOL) and box.h == pytest.approx(3 * 88, abs=TOL)
    assert abs(box.x - (page.size.w - box.right)) < TOL
    assert abs(box.y - (page.size.h - box.top)) < TOL


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cards_fill_rows_from_the_top_left(paper):
    page = impose(9, spec(paper))[0]
    slots = sorted(page.slots, key=lambda s: s.item)
    for i, slot in enumerate(slots):
        r, c = divmod(i, 3)
        assert slot.trim.x == pytest.approx(page.trim_box.x + 63 * c, abs=TOL)
        assert slot.trim.top == pytest.approx(page.trim_box.top - 88 * r, abs=TOL)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_paint_is_bleed_outside_and_none_between_abutting_cards(paper):
    page = impose(9, spec(paper))[0]
    slots = sorted(page.slots, key=lambda s: s.item)
    assert slots[4].paint == slots[4].trim  # the middle card has neighbours all round
    top_left = slots[0]
    assert top_left.paint.x == pytest.approx(top_left.trim.x - 3, abs=TOL)
    assert top_left.paint.top == pytest.approx(top_left.trim.top + 3, abs=TOL)
    assert top_left.paint.right == top_left.trim.right
    assert top_left.paint.y == top_left.trim.y
    for a in page.slots:
        for b in page.slots:
            if a is not b:
                assert not overlaps(a.paint, b.trim)
    assert page.bleed_box == union(s.paint for s in page.slots)
    for got, want in zip(
        (page.bleed_box.x, page.bleed_box.y, page.bleed_box.w, page.bleed_box.h),
        (page.trim_box.x - 3, page.trim_box.y - 3, page.trim_box.w + 6, page.trim_box.h + 6),
    ):
        assert got == pytest.approx(want, abs=TOL)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_one_per_trim_line_and_side_outside_the_paint(paper):
    s = spec(paper)
    page = impose(9, s)[0]
    assert len(page.marks) == 16  # 4 vertical lines x (above, below) + 4 horizontal x (left, right)
    xs = [page.trim_box.x + 63 * i for i in range(4)]
    ys = [page.trim_box.y + 88 * i for i in range(4)]
    bleed = page.bleed_box
    below = sorted(m[0] for m in page.marks if m[0] == m[2] and m[1] < bleed.y)
    above = sorted(m[0] for m in page.marks if m[0] == m[2] and m[1] > bleed.top)
    left = sorted(m[1] for m in page.marks if m[1] == m[3] and m[0] < bleed.x)
    right = sorted(m[1] for m in page.marks if m[1] == m[3] and m[0] > bleed.right)
    assert below == pytest.approx(xs, abs=TOL) and above == pytest.approx(xs, abs=TOL)
    assert left == pytest.approx(ys, abs=TOL) and right == pytest.approx(ys, abs=TOL)
    for mark in page.marks:
        assert s.mark_min_length - TOL <= length(mark) <= s.mark_length + TOL
        assert not any(touches(mark, slot.paint) for slot in page.slots)
        assert inside(
            Rect(min(mark[0], mark[2]), min(mark[1], mark[3]), abs(mark[2] - mark[0]), abs(mark[3] - mark[1])),
            page.size,
        )
        # each mark starts at the clearance beyond the bleed edge
        x1, y1 = mark[0], mark[1]
        gaps = [bleed.y - y1, y1 - bleed.top, bleed.x - x1, x1 - bleed.right]
        assert max(gaps) == pytest.approx(s.mark_clearance, abs=TOL)


def test_marks_shorten_to_the_margin_on_letter():
    # Letter is 279.4 mm tall: 3 x 88 + 2 x 3 bleed leaves 4.7 mm above and below.
    page = impose(9, spec("letter"))[0]
    vertical = [length(m) for m in page.marks if m[0] == m[2]]
    horizontal = [length(m) for m in page.marks if m[1] == m[3]]
    assert vertical == pytest.approx([3.7] * 8, abs=TOL)
    assert horizontal == pytest.approx([5.0] * 8, abs=TOL)


# --- backs --------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_long_edge_backs_mirror_columns(paper):
    pages = impose(18, spec(paper, backs="long"))
    assert [p.side for p in pages] == ["front", "back", "front", "back"]
    for front, back in zip(pages[::2], pages[1::2]):
        assert back.size == front.size
        backs = by_item(back)
        assert len(backs) == len(front.slots)
        for f in front.slots:
            b = backs[f.item]
            assert b.side == "back" and f.side == "front"
            assert b.trim.x == front.size.w - f.trim.right
            assert b.trim.y == f.trim.y
            assert b.paint.x == front.size.w - f.paint.right
            assert b.rotation == 0


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_short_edge_backs_mirror_rows_and_turn_upside_down(paper):
    front, back = impose(9, spec(paper, backs="short"))
    backs = by_item(back)
    for f in front.slots:
        b = backs[f.item]
        assert b.trim.y == front.size.h - f.trim.top
        assert b.trim.x == f.trim.x
        # short-edge duplex brings the back's top to the bottom when the card is
        # turned over sideways: drawn rotated 180 it comes out upright
        assert b.rotation == 180


def test_partial_last_page_mirrors_correctly():
    pages = impose(11, spec("a4", backs="long"))
    assert len(pages) == 4
    full, front, back = pages[0], pages[2], pages[3]
    assert sorted(s.item for s in front.slots) == [9, 10]
    columns = sorted({s.trim.x for s in full.slots})
    f9, f10 = by_item(front)[9], by_item(front)[10]
    assert f9.trim.x == pytest.approx(columns[0], abs=TOL)  # same place as on a full page
    assert f10.trim.x == pytest.approx(columns[1], abs=TOL)
    b9, b10 = by_item(back)[9], by_item(back)[10]
    assert b9.trim.x == pytest.approx(columns[2], abs=TOL)  # column 0 backs onto the last column
    assert b10.trim.x == pytest.approx(columns[1], abs=TOL)
    assert b9.trim.y == f9.trim.y
    # card 10 has no neighbour to its right or below: full bleed there
    assert f10.paint.right == pytest.approx(f10.trim.right + 3, abs=TOL)
    assert f10.paint.y == pytest.approx(f10.trim.y - 3, abs=TOL)
    assert f10.paint.x == f10.trim.x  # but not into card 9
    # marks only for the cut lines that exist: 3 vertical, 2 horizontal
    assert len(front.marks) == 2 * 3 + 2 * 2
    for page in (front, back):
        for mark in page.marks:
            assert not any(touches(mark, s.paint) for s in page.slots)


def test_no_backs_gives_front_pages_only():
    pages = impose(10, spec(backs="none"))
    assert [p.side for p in pages] == ["front", "front"]
    assert all(s.side == "front" for p in pages for s in p.slots)


def test_landscape_pages_swap_the_flip_edge():
    # mini cards fit 6 x 3 on A4 turned, 4 x 4 upright: the layout turns the page
    long_front, long_back = impose(18, spec("a4", "mini", backs="long"))
    assert long_front.size == Size(297, 210) and capacity(spec("a4", "mini")) == (6, 3)
    backs = by_item(long_back)
    for f in long_front.slots:
        b = backs[f.item]
        # the long edge of a landscape page runs along x: turning about it mirrors rows
        assert b.trim.y == long_front.size.h - f.trim.top and b.trim.x == f.trim.x
        assert b.rotation == 180
    short_front, short_back = impose(18, spec("a4", "mini", backs="short"))
    backs = by_item(short_back)
    for f in short_front.slots:
        b = backs[f.item]
        assert b.trim.x == short_front.size.w - f.trim.right and b.trim.y == f.trim.y
        assert b.rotation == 0


# --- fold ---------------------------------------------------------------------------


def expected_fold_count(paper: Size, card: Size, bleed: float, s: SheetSpec) -> int:
    """Most cards per half over both page orientations and fold directions,
    worked out independently of the layout code (gutter 0)."""
    extra = 2 * (bleed + s.mark_clearance + s.mark_min_length)

    def fit(room, size):
        return max(0, math.floor((room - extra) / size + 1e-9))

    best = 0
    for w, h in ((paper.w, paper.h), (paper.h, paper.w)):
        for half_w, half_h in ((w / 2, h), (w, h / 2)):
            best = max(best, fit(half_w, card.w) * fit(half_h, card.h))
    return best


def fold_axis(page: Page):
    x1, y1, x2, y2 = page.fold_line
    return ("x", x1) if x1 == x2 else ("y", y1)


@pytest.mark.parametrize("paper,card", [("a4", "poker"), ("letter", "poker"), ("a4", "tarot"), ("letter", "bridge")])
def test_fold_backs_mirror_fronts_across_the_fold_line(paper, card):
    s = spec(paper, card, backs="fold")
    cols, rows = capacity(s)
    assert cols * rows == expected_fold_count(s.paper, s.card, s.bleed, s)
    pages = impose(2 * cols * rows + 1, s)
    assert [p.side for p in pages] == ["fold"] * 3
    for page in pages:
        axis, at = fold_axis(page)
        fronts = [x for x in page.slots if x.side == "front"]
        backs = {x.item: x for x in page.slots if x.side == "back"}
        assert sorted(backs) == sorted(f.item for f in fronts)
        for f in fronts:
            b = backs[f.item]
            if axis == "x":
                assert b.trim.x == 2 * at - f.trim.right and b.trim.y == f.trim.y
                assert b.paint.x == 2 * at - f.paint.right and b.paint.y == f.paint.y
                assert b.rotation == 0
            else:
                assert b.trim.y == 2 * at - f.trim.top and b.trim.x == f.trim.x
                assert b.paint.y == 2 * at - f.paint.top and b.paint.x == f.paint.x
                assert b.rotation == 180  # fold up, turn the card over sideways
        # nothing crosses the fold line: paints and marks keep to one half
        for slot in page.slots:
            lo, hi = (slot.paint.x, slot.paint.right) if axis == "x" else (slot.paint.y, slot.paint.top)
            assert hi < at or lo > at
        for mark in page.marks:
            lo, hi = (
                (min(mark[0], mark[2]), max(mark[0], mark[2]))
                if axis == "x"
                else (min(mark[1], mark[3]), max(mark[1], mark[3]))
            )
            assert hi < at or lo > at
            assert not any(touches(mark, slot.paint) for slot in page.slots)


def test_fold_picks_the_orientation_with_most_cards():
    # A4 poker: a 2 x 2 half on the turned page beats 3 x 1 or 1 x 3 upright
    s = spec("a4", backs="fold")
    assert capacity(s) == (2, 2)
    page = impose(4, s)[0]
    assert page.size == Size(297, 210)
    assert page.fold_line == (148.5, 0.0, 148.5, 210.0)
    # Letter poker: 4 x 1 with a horizontal fold on the turned page (2 x 2 misses by 0.3 mm)
    s = spec("letter", backs="fold")
    assert capacity(s) == (4, 1)
    page = impose(4, s)[0]
    assert page.size == Size(279.4, 215.9)
    assert fold_axis(page) == ("y", 215.9 / 2)
    assert all(x.trim.y > 215.9 / 2 for x in page.slots if x.side == "front")  # fronts on top


def test_fold_marks_cover_both_halves():
    page = impose(4, spec("a4", backs="fold"))[0]
    # each half: 3 vertical lines x 2 + 3 horizontal lines x 2
    assert len(page.marks) == 2 * (3 * 2 + 3 * 2)
    at = page.fold_line[0]
    assert len([m for m in page.marks if m[0] < at]) == len([m for m in page.marks if m[0] > at])


# --- other sizes, bleeds and errors -------------------------------------------------


def test_other_sizes_have_sensible_capacities():
    assert capacity(spec("a4", "tarot")) == (2, 2)
    assert capacity(spec("letter", "mini")) == (4, 4)
    assert capacity(spec("a4", "bridge")) == (3, 3)
    assert capacity(spec("letter", "bridge")) == (4, 2)  # 3 rows of 89 mm miss Letter by 1.6 mm
    assert impose(8, spec("letter", "bridge"))[0].size == Size(279.4, 215.9)


def test_zero_bleed_paints_only_the_trim():
    s = spec("a4", bleed=0)
    assert capacity(s) == (3, 3)
    page = impose(9, s)[0]
    assert all(slot.paint == slot.trim for slot in page.slots)
    assert page.bleed_box == page.trim_box
    for mark in page.marks:
        assert length(mark) >= s.mark_min_length - TOL
        assert not any(touches(mark, slot.paint) for slot in page.slots)


def test_large_bleed_turns_the_page_when_that_fits_more():
    # 10 mm bleed: 2 x 3 upright, 4 x 2 turned
    s = spec("a4", bleed=10)
    assert capacity(s) == (4, 2)
    page = impose(8, s)[0]
    assert page.size == Size(297, 210)
    assert page.bleed_box.w == pytest.approx(4 * 63 + 20, abs=TOL)
    for mark in page.marks:
        assert not any(touches(mark, slot.paint) for slot in page.slots)


def test_gutter_splits_the_bleed_and_doubles_the_cut_lines():
    s = replace(spec("a4"), gutter=4.0)
    # 3 columns no longer fit 210 mm (2 x 3 upright); turned, 4 x 2 do
    assert capacity(s) == (4, 2)
    page = impose(8, s)[0]
    assert page.size == Size(297, 210)
    left, middle = sorted(page.slots, key=lambda x: x.item)[:2]
    assert middle.trim.x - left.trim.right == pytest.approx(4, abs=TOL)
    assert left.paint.right == pytest.approx(left.trim.right + 2, abs=TOL)
    assert middle.paint.x == pytest.approx(middle.trim.x - 2, abs=TOL)
    assert left.paint.x == pytest.approx(left.trim.x - 3, abs=TOL)
    assert len(page.marks) == 8 * 2 + 4 * 2  # two cut lines per gap
    for a in page.slots:
        for b in page.slots:
            if a is not b:
                assert not overlaps(a.paint, b.trim)
                assert not overlaps(a.paint, b.paint)


def test_an_exact_fit_counts_and_its_marks_stay_on_the_paper():
    inch_poker = replace(spec(), card=Size(63.5, 88.9))  # 2.5 x 3.5 in
    # 3 x 88.9 + 2 x (3 bleed + 1 clearance + 3 mark) is 280.7, a few ulps over as floats
    assert capacity(replace(inch_poker, paper=Size(230, 280.7))) == (3, 3)
    assert capacity(replace(inch_poker, paper=Size(230, 280.6)))[1] == 2
    # 3 x 63.5 + 14 = 204.5 across: the side marks shrink to the minimum, ending at the edge
    s = replace(inch_poker, paper=Size(204.5, 320))
    assert capacity(s) == (3, 3)
    page = impose(9, s)[0]
    side_marks = [m for m in page.marks if m[1] == m[3]]
    assert [length(m) for m in side_marks] == pytest.approx([3.0] * 8, abs=TOL)
    assert min(min(m[0], m[2]) for m in side_marks) == pytest.approx(0, abs=TOL)
    assert max(max(m[0], m[2]) for m in side_marks) == pytest.approx(204.5, abs=TOL)
    for mark in page.marks:
        assert -TOL <= min(mark[0], mark[2]) and max(mark[0], mark[2]) <= 204.5 + TOL


def test_card_bigger_than_the_paper_is_an_error():
    with pytest.raises(ValueError, match="no card fits"):
        capacity(replace(spec("a4"), card=Size(250, 350)))
    with pytest.raises(ValueError, match="no card fits"):
        impose(1, replace(spec("a4", backs="fold"), card=Size(150, 200)))


def test_unknown_names_list_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown paper 'a9'.*a4.*letter"):
        spec(paper="a9")
    with pytest.raises(ValueError, match=r"unknown card size 'jumbo'.*bridge.*poker.*tarot"):
        spec(card="jumbo")
    with pytest.raises(ValueError, match="unknown backs"):
        spec(backs="sideways")


def test_counts():
    assert impose(0, spec()) == []
    with pytest.raises(ValueError):
        impose(-1, spec())
    assert len(impose(27, spec(backs="long"))) == 6
    assert len(impose(28, spec(backs="long"))) == 8


# --- page-info strip ----------------------------------------------------------------

CASES = [
    (paper, card, bleed, backs)
    for paper in ("a4", "letter")
    for card in ("poker", "bridge", "tarot", "mini", "euro-mini", "square", "business")
    for bleed in (0.0, 3.0, 3.175)
    for backs in ("long", "short", "fold")
]


@pytest.mark.parametrize("paper,card,bleed,backs", CASES)
def test_info_strip_is_clear_of_cards_marks_and_fold(paper, card, bleed, backs):
    s = spec(paper, card, bleed, backs)
    cols, rows = capacity(s)
    for page in impose(cols * rows + 1, s):  # a full and a partial sheet
        info = page.info
        assert inside(info, page.size)
        along, depth = (info.w, info.h) if page.info_rotation == 0 else (info.h, info.w)
        assert page.info_rotation in (0, 90)
        assert along >= s.info_length - TOL and depth >= s.info_depth - TOL
        for slot in page.slots:
            assert not overlaps(info, slot.paint)
        for mark in page.marks:
            assert not touches(mark, info)
        if page.fold_line:
            assert not touches(page.fold_line, info)
        for slot in page.slots:  # and the cards stay on the page
            assert inside(slot.paint, page.size)


def test_info_strip_prefers_the_bottom_then_a_side():
    a4 = impose(9, spec("a4"))[0]
    assert a4.info.y == 0 and a4.info_rotation == 0
    assert a4.info.top < a4.bleed_box.y
    assert a4.info.cx == pytest.approx(105, abs=TOL)  # between the marks under the middle card
    # Letter leaves 4.7 mm above and below the bleed: the strip goes up a side
    letter = impose(9, spec("letter"))[0]
    assert letter.info_rotation == 90
    assert letter.info.right < letter.bleed_box.x or letter.info.x > letter.bleed_box.right


def test_grid_shrinks_when_the_largest_leaves_no_room_for_the_info_strip():
    # Folded mini cards would fit 3 x 3 per half on A4 turned, but its margins
    # are too narrow for the strip everywhere; 2 x 4 upright leaves room.
    assert expected_fold_count(Size(210, 297), Size(44.5, 63.5), 3, spec(card="mini")) == 9
    assert capacity(spec("a4", "mini", backs="fold")) == (2, 4)


def test_a_deeper_info_strip_costs_cards():
    s = replace(spec("a4"), info_depth=40)
    cols, rows = capacity(s)
    assert cols * rows < 9
    page = impose(cols * rows, s)[0]
    assert min(page.info.w, page.info.h) >= 40 - TOL


def test_no_room_for_the_info_strip_is_an_error():
    # even a single card leaves at most about 113 mm of margin on A4
    with pytest.raises(ValueError, match="page-info strip"):
        impose(9, replace(spec("a4"), info_depth=150))


def test_round_tokens_keep_their_own_bleed_and_get_no_crop_marks():
    spec = SheetSpec.from_templates(read_template, "a4", "token-25", 3, "long")
    assert spec.shape == "round"
    assert spec.gutter == 2 * 3 + read_template("sheet.yaml")["round-gap"]
    front, back = impose(12, spec)[:2]
    assert front.marks == () and back.marks == ()
    for slot in front.slots:
        assert (slot.trim.w, slot.trim.h) == (25, 25)
        assert slot.paint == slot.trim.outset(3)
    paints = [slot.paint for slot in front.slots]
    for a in paints:
        for b in paints:
            if a is not b:
                assert a.right <= b.x or b.right <= a.x or a.top <= b.y or b.top <= a.y


def test_runs_of_different_sizes_go_on_sheets_of_their_own():
    cards = spec("a4", "poker")
    tokens = SheetSpec.from_templates(read_template, "a4", "token-38", 3, "long", 0.0)
    pages = impose_runs([Run(tuple(range(18)), cards), Run((18, 19, 20), tokens)])
    assert [page.side for page in pages] == ["front", "back"] * 3
    assert [slot.item for slot in pages[4].slots] == [18, 19, 20]
    assert all(slot.trim.w == 38 for slot in pages[4].slots)


# --- one back design a sheet, and tokens in free cells ------------------------------------


def test_runs_of_one_size_never_share_a_sheet():
    """Two back designs of poker cards: 10 and 3 cards take three sheets, not two."""
    pages = impose_runs([Run(tuple(range(10)), spec(), "role"), Run((10, 11, 12), spec(), "kill")])
    fronts = [sorted(slot.item for slot in page.slots) for page in pages if page.side == "front"]
    assert fronts == [list(range(9)), [9], [10, 11, 12]]


def test_the_tokens_of_a_part_filled_sheet_go_into_free_cells_of_a_card_sheet():
    cards, tokens = spec(), SheetSpec.from_templates(read_template, "a4", "token-38", 3, "long", 0.0)
    pages = impose_runs([Run(tuple(range(7)), cards, "game"), Run((7,), tokens, "game")])
    assert [page.side for page in pages] == ["front", "back"]
    front, back = pages
    (token,) = [slot for slot in front.slots if slot.item == 7]
    assert (token.trim.w, token.trim.h) == (38, 38) and token.paint == token.trim.outset(3)
    # In the cell after the last card (row 2, column 1), its paint the round gap clear of every card's.
    cell = Rect(front.trim_box.x + 63, front.trim_box.y, 63, 88)
    assert cell.x <= token.paint.x and token.paint.right <= cell.right
    assert cell.y <= token.paint.y and token.paint.top <= cell.top
    for slot in front.slots:
        if slot.item != 7:
            gap = max(
                slot.paint.x - token.paint.right,
                token.paint.x - slot.paint.right,
                slot.paint.y - token.paint.top,
                token.paint.y - slot.paint.top,
            )
            assert gap >= tokens.round_gap - TOL
    # Its back is the mirror image, as the cards' are; no crop mark is drawn for it or crosses it.
    (behind,) = [slot for slot in back.slots if slot.item == 7]
    assert behind.trim == Rect(front.size.w - token.trim.right, token.trim.y, 38, 38)
    for page, slot in ((front, token), (back, behind)):
        assert not any(touches(mark, slot.paint) for mark in page.marks)
    assert len(front.marks) == 16


def test_tokens_keep_their_sheet_when_the_free_cells_cannot_take_them_all():
    cards, tokens = spec(), SheetSpec.from_templates(read_template, "a4", "token-38", 3, "long", 0.0)
    pages = impose_runs([Run(tuple(range(8)), cards), Run((8, 9), tokens)])
    assert [sorted(s.item for s in page.slots) for page in pages if page.side == "front"] == [list(range(8)), [8, 9]]


def test_tokens_go_first_to_the_sheets_of_their_own_back():
    cards, tokens = spec(), SheetSpec.from_templates(read_template, "a4", "token-38", 3, "long", 0.0)
    pages = impose_runs(
        [Run(tuple(range(5)), cards, "kill"), Run(tuple(range(5, 10)), cards, "game"), Run((10,), tokens, "game")]
    )
    fronts = [sorted(s.item for s in page.slots) for page in pages if page.side == "front"]
    assert fronts == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9, 10]]


# --- the printable margin ------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_cards_go_four_by_two_on_the_turned_page_inside_a_5_mm_margin(paper):
    """3 x 3 would leave A4's side marks 1.5 mm and Letter's top and bottom marks 0 mm from the edge."""
    s = spec(paper, margin=None)
    assert s.margin == 5.0
    assert capacity(s) == (4, 2)
    assert impose(8, s)[0].size == s.paper.rotated()
    assert capacity(replace(s, margin=0.0)) == (3, 3)


def _inside_margin(points, size: Size, margin: float) -> bool:
    return all(
        margin - TOL <= x <= size.w - margin + TOL and margin - TOL <= y <= size.h - margin + TOL for x, y in points
    )


MARGIN_CASES = [
    (paper, card, bleed, backs, margin)
    for paper in ("a4", "letter")
    for card in ("poker", "bridge", "tarot", "mini", "euro-mini", "square", "business", "token-25")
    for bleed in (3.0, 3.175)
    for backs in ("long", "fold")
    for margin in (5.0, 7.0)
]


@pytest.mark.parametrize("paper,card,bleed,backs,margin", MARGIN_CASES)
def test_marks_fold_line_info_strip_and_paints_stay_inside_the_printable_margin(paper, card, bleed, backs, margin):
    s = spec(paper, card, bleed, backs, margin)
    cols, rows = capacity(s)
    for page in impose(cols * rows + 1, s):
        for x1, y1, x2, y2 in page.marks + ((page.fold_line,) if page.fold_line else ()):
            assert _inside_margin([(x1, y1), (x2, y2)], page.size, margin), (page.side, (x1, y1, x2, y2))
        info = page.info
        assert _inside_margin([(info.x, info.y), (info.right, info.top)], page.size, margin)
        for slot in page.slots:
            assert _inside_margin([(slot.paint.x, slot.paint.y), (slot.paint.right, slot.paint.top)], page.size, margin)


def test_a_landscape_page_takes_a_paper_shift_turned():
    portrait, landscape = impose(1, spec(margin=None, card="tarot"))[0], impose(8, spec(margin=None))[0]
    assert portrait.size.h > portrait.size.w and landscape.size.w > landscape.size.h
    assert portrait.paper_shift(1.5, -0.5) == (1.5, -0.5)
    # Turned a quarter anticlockwise onto the paper: the page's x runs up the paper, its y leftwards.
    assert landscape.paper_shift(1.5, -0.5) == (-0.5, -1.5)
