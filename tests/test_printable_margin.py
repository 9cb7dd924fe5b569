"""Nothing is printed where a home printer cannot print: every crop mark, the 50 mm ruler, the
page label, the fold line and the cards themselves stay inside the printable margin (5 mm by
default), on A4 and Letter, for every card size the README advertises, read back from the PDFs.

The objects checked are the page's own: lines, filled areas, text and images. The symbols on
the cards are forms clipped to their card, whose boxes may reach past the clip; the cards'
paint areas around them are checked instead.
"""

from __future__ import annotations

import pypdfium2.raw as pdfium_c
import pytest

from pdfread import objects, pages

SIZES = ("poker", "bridge", "tarot", "mini", "euro-mini", "square", "business")
DRAWN = (pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_TEXT, pdfium_c.FPDF_PAGEOBJ_IMAGE)
# pdfium pads a stroke's box by its line width all round (0.25 pt for a crop mark, 0.09 mm), though
# a butt-capped mark's ink ends exactly where it is drawn to: a mark ending on the margin reads 4.91.
STROKE = 0.1


def nearest_edge(pdf) -> float:
    """The smallest distance, mm, from any drawn object to the edge of its page."""
    nearest = float("inf")
    for page in pages(pdf):
        width, height = (25.4 / 72 * v for v in page.get_size())
        for kind, box in objects(page):
            if kind in DRAWN:
                nearest = min(nearest, box.x0, box.y0, width - box.x1, height - box.y1)
    return nearest


@pytest.mark.parametrize("backs", ["long", "fold"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_everything_printed_stays_inside_the_5_mm_margin(cards, paper, size, backs):
    _, pdf = cards("werewolf", "en", paper=paper, card_size=size, backs=backs)
    assert nearest_edge(pdf) >= 5.0 - STROKE


@pytest.mark.parametrize("game", ["salem-1692", "werewords"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tokens_and_mixed_sheets_stay_inside_the_margin(cards, game, paper):
    _, pdf = cards(game, "en", paper=paper)
    assert nearest_edge(pdf) >= 5.0 - STROKE


@pytest.mark.parametrize("margin", [0.0, 8.0])
def test_the_margin_is_a_setting(cards, margin):
    """--margin 0 prints to the edge, as the grid was laid out before the margin (A4's side
    marks 1.5 mm from it); a wider margin keeps everything further in."""
    _, pdf = cards("werewolf", "en", margin=margin)
    nearest = nearest_edge(pdf)
    assert nearest >= margin - STROKE
    if margin == 0.0:
        assert nearest < 5.0
