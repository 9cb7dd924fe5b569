"""No sheet lets a cut or a duplex error mark a secret card, and no sheet is wasted.

Every bundled game's card sheets (English), on A4 and Letter, with long-edge, short-edge
and fold backs, read back with pdfium: on the back side of every sheet each back's paint
(the filled area a card's back is painted on, bleed included) is told apart by its colour
and the title printed on it; two different backs must stand further apart than a cut or a
duplex print goes wrong (1.5 mm, the tolerance of scissors and a calibrated printer), so a
slip shows only a card's own back on its edge.
"""

from __future__ import annotations

import itertools

import pytest

from conftest import run
from pdfread import Box, chars, dashed, fills, pages

GAMES = ("werewolf", "salem-1692", "mafia-vendetta", "werewords")
TOLERANCE = 1.5  # mm


def _backs(page, side_of_fold) -> list[tuple[tuple, Box]]:
    """(design, paint) of every back on a page: fills at least a token big, with the colour
    and the letters on them (a back's title, a token's other side)."""
    letters = [c for c in chars(page) if c.size >= 4]
    big = [fill for fill in fills(page) if fill.box.w >= 20 and fill.box.h >= 20 and side_of_fold(fill.box)]
    # A fill inside another is part of that back (the panel of a token's other side).
    paints = [fill for fill in big if not any(other is not fill and other.box.contains(fill.box) for other in big)]
    return [
        ((fill.rgb, "".join(sorted(c.text for c in letters if fill.box.contains(c.box)))), fill.box) for fill in paints
    ]


def _back_half(page):
    """A test for the back half of a fold page: right of a vertical fold, under a horizontal one."""
    (fold,) = dashed(page)
    if fold.w < fold.h:
        return lambda box: box.x0 > fold.x0
    return lambda box: box.y1 < fold.y0


@pytest.mark.parametrize("backs", ["long", "short", "fold"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_different_backs_never_stand_within_the_cutting_tolerance(cards, game, paper, backs):
    prepared, pdf = cards(game, "en", paper=paper, backs=backs)
    document = pages(pdf)
    sides = [page for page, laid in zip(document, prepared.pages) if laid.side in ("back", "fold")]
    assert sides
    for number, page in enumerate(sides, start=1):
        on_back = _back_half(page) if backs == "fold" else (lambda box: True)
        designs = _backs(page, on_back)
        assert designs, number
        for (a, box_a), (b, box_b) in itertools.combinations(designs, 2):
            if a != b:
                assert box_a.gap(box_b) >= TOLERANCE, (game, paper, backs, number, a, b, box_a.gap(box_b))


@pytest.mark.parametrize("game", GAMES)
def test_only_the_last_sheet_of_a_back_design_is_part_filled(cards, game):
    """Cards of one size and back fill each other's sheets, whatever their group (poker cards go
    8 to an A4 sheet); round tokens in free cells do not count."""
    from cardgen.build import back_design

    prepared, _ = cards(game, "en")
    copies = prepared.deck.copies
    part_filled: dict = {}
    for page in prepared.pages:
        rect = [copies[slot.item] for slot in page.slots if copies[slot.item].group.shape == "rect"]
        if page.side == "front" and rect and len(rect) < 8:
            design = back_design(rect[0])
            part_filled[design] = part_filled.get(design, 0) + 1
    assert part_filled and all(count == 1 for count in part_filled.values()), part_filled


def test_the_mayor_and_the_last_token_share_their_sheets(cards):
    prepared, _ = cards("werewords", "en")
    copies = prepared.deck.copies
    fronts = [[copies[slot.item] for slot in page.slots] for page in prepared.pages if page.side == "front"]
    (mayor_sheet,) = [sheet for sheet in fronts if any(card.id == "mayor" for card in sheet)]
    assert len(mayor_sheet) == 8
    token_sheets = [sheet for sheet in fronts if any(card.group.id == "token" for card in sheet)]
    assert sorted(len([c for c in sheet if c.group.id == "token"]) for sheet in token_sheets) == [1, 48]
    # The 49th token sits on a card sheet, not on a sheet of its own.
    assert all(any(c.group.id != "token" for c in sheet) for sheet in token_sheets if len(sheet) < 48)


def test_the_gavel_shares_a_sheet_of_its_own_back(cards):
    from cardgen.build import back_design

    prepared, _ = cards("salem-1692", "en")
    copies = prepared.deck.copies
    (sheet,) = [
        [copies[slot.item] for slot in page.slots]
        for page in prepared.pages
        if page.side == "front" and any(copies[slot.item].id == "gavel-token" for slot in page.slots)
    ]
    others = [card for card in sheet if card.id != "gavel-token"]
    assert others and {back_design(card) for card in others} == {
        back_design(next(card for card in sheet if card.id == "gavel-token"))
    }


@pytest.mark.parametrize(
    "options, sheets", [((), 7), (("--paper", "letter"), 7), (("--backs", "fold"), 13)], ids=["a4", "letter", "fold"]
)
def test_the_summary_and_the_rulebook_give_the_sheet_count(tmp_path, options, sheets):
    result = run("build", "werewolf", "--lang", "en", "--lang", "zh", "--out", str(tmp_path), *options)
    assert result.exit_code == 0, result.output
    for lang in ("en", "zh"):
        sides = len(pages(tmp_path / "werewolf" / f"werewolf-cards-{lang}.pdf"))
        assert (sides if "fold" in options else sides // 2) == sheets
    assert f" cards on {2 * sheets} sheets in " in result.stdout.splitlines()[-1]

    def rulebook(lang: str) -> str:
        return " ".join(
            " ".join(page.get_textpage().get_text_range().split())
            for page in pages(tmp_path / "werewolf" / f"werewolf-rulebook-{lang}.pdf")
        )

    letter = "letter" in options
    assert f"The cards take {sheets} sheets of {'US Letter' if letter else 'A4'}." in rulebook("en")
    assert f"整副牌共需{sheets}张{'Letter' if letter else 'A4'}纸" in "".join(rulebook("zh").split())
