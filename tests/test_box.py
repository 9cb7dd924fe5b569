"""cardgen box: the tuck box measured back from its PDF, in millimetres.

Fold lines are the grey dashed strokes, cut lines the black ones (pdfplumber reads both);
the panels are the spaces between the folds. The mini game has 3 poker cards (63 × 88 mm).
"""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from conftest import copy_werewolf_box, mini_project, run

PT = 25.4 / 72


def _box(project: Path, out: Path, *options: str, game: str = "mini"):
    return run("box", game, "--decks", str(project / "decks"), "--out", str(out), *options)


def _lines(pdf: Path, page: int = 0):
    """(folds, cuts): every straight stroke as (x1, y1, x2, y2) in mm, y up from the bottom."""
    with pdfplumber.open(pdf) as document:
        p = document.pages[page]
        folds, cuts = [], []
        for line in p.lines:
            segment = (
                line["x0"] * PT,
                (p.height - line["top"]) * PT,
                line["x1"] * PT,
                (p.height - line["bottom"]) * PT,
            )
            grey = line["stroking_color"]
            (folds if grey and min(grey) > 0.3 else cuts).append(segment)
        return folds, cuts, (p.width * PT, p.height * PT)


def _positions(segments, vertical: bool) -> list[float]:
    along = [s for s in segments if (abs(s[0] - s[2]) < 1e-3) == vertical]
    return sorted({round(s[0] if vertical else s[1], 3) for s in along})


@pytest.fixture(scope="module")
def mini_box(tmp_path_factory):
    root = tmp_path_factory.mktemp("box")
    project = mini_project(root / "project")
    result = _box(project, root / "out", "--lang", "en", "--stock", "0.5", "--clearance", "1.5")
    assert result.exit_code == 0, result.output + result.stderr
    return root / "out" / "mini" / "mini-box-en-a4.pdf"


def test_panels_are_the_card_plus_clearance_and_the_spine_the_deck_s_thickness(mini_box):
    folds, _, _ = _lines(mini_box)
    xs = _positions(folds, vertical=True)
    # front | side | back | side | glue flap: four vertical folds.
    assert len(xs) == 4
    side, back, side_2 = (b - a for a, b in zip(xs, xs[1:]))
    depth = 3 * 0.5 + 1.5  # 3 cards of 0.5 mm, and the clearance
    assert side == pytest.approx(depth, abs=0.01) and side_2 == pytest.approx(depth, abs=0.01)
    assert back == pytest.approx(63 + 1.5, abs=0.01)
    ys = _positions(folds, vertical=False)
    # bottom tuck | bottom lid | body | top lid | top tuck: four horizontal fold heights.
    assert len(ys) == 4
    tuck_lid, body, lid = (b - a for a, b in zip(ys, ys[1:]))
    assert body == pytest.approx(88 + 1.5, abs=0.01)
    assert tuck_lid == pytest.approx(depth, abs=0.01) and lid == pytest.approx(depth, abs=0.01)


def test_the_front_is_as_wide_as_the_back_from_its_cut_edge(mini_box):
    folds, cuts, _ = _lines(mini_box)
    first_fold = _positions(folds, vertical=True)[0]
    left_edge = min(min(s[0], s[2]) for s in cuts)
    assert first_fold - left_edge == pytest.approx(63 + 1.5, abs=0.01)


def test_the_net_is_inside_the_printable_margin_of_a4(mini_box):
    folds, cuts, size = _lines(mini_box)
    assert size == pytest.approx((210, 297), abs=0.01)
    xs = [v for s in folds + cuts for v in (s[0], s[2])]
    ys = [v for s in folds + cuts for v in (s[1], s[3])]
    assert min(xs) >= 5 and max(xs) <= 205 and min(ys) >= 5 and max(ys) <= 292


def test_the_box_shows_the_name_the_count_and_the_back_art_and_embeds_its_fonts(mini_box):
    page = PdfReader(mini_box).pages[0]
    text = page.extract_text()
    assert text.count("Mini") >= 5  # two spines, the lid, the art on two panels
    assert "3 cards" in text and "glue" in text and "Cut on the solid lines" in text
    for font in page["/Resources"]["/Font"].values():
        font = font.get_object()
        described = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        assert "/FontFile2" in described["/FontDescriptor"], font["/BaseFont"]


def test_the_name_is_in_the_deck_s_language_on_letter(tmp_path):
    project = mini_project(tmp_path / "project")
    result = _box(project, tmp_path / "out", "--lang", "vi", "--paper", "letter")
    assert result.exit_code == 0, result.stderr
    pdf = tmp_path / "out" / "mini" / "mini-box-vi-letter.pdf"
    text = PdfReader(pdf).pages[0].extract_text()
    assert "Trò Nhỏ" in text and "3 lá bài" in text and "dán keo" in text
    _, _, size = _lines(pdf)
    assert size == pytest.approx((215.9, 279.4), abs=0.01)


def test_a_box_too_big_for_one_sheet_becomes_one_box_per_deck(tmp_path):
    copy_werewolf_box(tmp_path / "decks")
    # 31 cards at 2 mm: 64 mm deep, 2 × 65 + 2 × 64 + 10 = 268 mm wide, too wide for A4 portrait
    # and, at 64 + 64 + 90 + 30 = 248 mm tall, for A4 landscape.
    result = run(
        "box",
        "werewolf",
        "--lang",
        "en",
        "--stock",
        "2",
        "--decks",
        str(tmp_path / "decks"),
        "--out",
        str(tmp_path / "out"),
    )
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "decks/werewolf/game.yaml:1: error: werewolf (en): a box for 31 cards of 63 × 88 mm at 2 mm a card is 268 × 248 mm "
        "flat, more than a4 holds inside a 5 mm margin even one deck to a box; try larger paper or thinner stock",
        "1 error",
    ]
    assert not (tmp_path / "out").exists()


def test_salem_is_split_into_a_box_per_deck(tmp_path):
    result = run("box", "salem-1692", "--lang", "en", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert "note: salem-1692 (en): one box for all 140 cards does not fit a4: one box per deck" in result.stderr
    pdf = tmp_path / "salem-1692" / "salem-1692-box-en-a4.pdf"
    pages = PdfReader(pdf).pages
    assert len(pages) == 5
    assert [page.extract_text().count("cards") > 0 for page in pages] == [True] * 5


def test_an_unknown_paper_is_a_clean_error(tmp_path):
    project = mini_project(tmp_path / "project")
    result = _box(project, tmp_path / "out", "--paper", "a9")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "unknown paper 'a9'" in result.stderr
