"""Fronts and backs that line up: the duplex calibration sheet and the back offset it measures."""

from __future__ import annotations

import pdfplumber
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from pypdf import PdfReader

from cardgen.core.units import mm
from conftest import run


def back_title_position(pdf_path) -> tuple[float, float]:
    """Where the first back's title ("Werewolf") starts on the first back page, in mm
    (pdfium: pdfplumber takes seconds over a back page's pattern forms)."""
    document = pdfium.PdfDocument(pdf_path)
    text = document[1].get_textpage()
    boxes = [
        text.get_charbox(i, loose=True)
        for i in range(text.count_chars())
        if text.get_text_range(i, 1) == "W" and pdfium_c.FPDFText_GetFontSize(text.raw, i) > 8
    ]
    left, bottom, _, top = min(boxes, key=lambda b: (-round(b[3]), b[0]))
    return mm(left), mm(bottom)


def build(project, out, *args):
    result = run("build", "werewolf", "--lang", "en", "--decks", str(project / "decks"), "--out", str(out), *args)
    assert result.exit_code == 0, result.output
    return out / "werewolf" / "werewolf-cards-en.pdf"


def page_boxes(pdf_path, index: int) -> dict[str, tuple[float, ...]]:
    """The TrimBox and BleedBox of a page, in mm."""
    page = PdfReader(pdf_path).pages[index]
    return {name: tuple(mm(float(v)) for v in getattr(page, name)) for name in ("trimbox", "bleedbox")}


@pytest.mark.parametrize(
    "margin, page_shift", [("5", (-0.5, -1.5)), ("0", (1.5, -0.5))], ids=["landscape-sheets", "portrait-sheets"]
)
def test_back_offset_moves_every_back_and_its_boxes_in_the_papers_axes(project, tmp_path, margin, page_shift):
    """The offset is read on the portrait calibration sheet, in the paper's axes. Poker sheets with
    the 5 mm margin are landscape (4 x 2) and reach the paper turned a quarter anticlockwise, so
    1.5 mm right and 0.5 mm down on the paper is 0.5 mm left and 1.5 mm down on the page."""
    plain_pdf = build(project, tmp_path / "plain", "--margin", margin)
    moved_pdf = build(project, tmp_path / "moved", "--margin", margin, "--back-offset", "1.5,-0.5")
    landscape = PdfReader(plain_pdf).pages[1].mediabox
    assert (float(landscape.width) > float(landscape.height)) == (margin == "5")
    plain, moved = back_title_position(plain_pdf), back_title_position(moved_pdf)
    assert moved[0] - plain[0] == pytest.approx(page_shift[0], abs=0.01)
    assert moved[1] - plain[1] == pytest.approx(page_shift[1], abs=0.01)
    # The back page's TrimBox and BleedBox move with it; the front page's stay.
    for index, shift in ((1, page_shift), (0, (0.0, 0.0))):
        before, after = page_boxes(plain_pdf, index), page_boxes(moved_pdf, index)
        for name in ("trimbox", "bleedbox"):
            assert [b - a for a, b in zip(before[name], after[name])] == pytest.approx(list(shift) * 2, abs=0.001)
    # Fronts stay where they are.
    with pdfplumber.open(plain_pdf) as a, pdfplumber.open(moved_pdf) as b:
        assert [(c["x0"], c["top"]) for c in a.pages[0].chars] == [(c["x0"], c["top"]) for c in b.pages[0].chars]


def test_a_named_printer_remembers_its_offset(project, tmp_path):
    (project / "cardgen.toml").write_text("[printers.office]\nback-offset = [1.5, -0.5]\n", encoding="utf-8")
    try:
        remembered = build(project, tmp_path / "printer", "--printer", "office").read_bytes()
        typed = build(project, tmp_path / "typed", "--back-offset", "1.5,-0.5").read_bytes()
        assert remembered == typed
        result = run(
            "build", "werewolf", "--decks", str(project / "decks"), "--printer", "ofice", "--out", str(tmp_path / "x")
        )
        assert (result.exit_code, result.stderr) == (
            1,
            "error: no printer 'ofice' in cardgen.toml; printers: office\n1 error\n",
        )
    finally:
        (project / "cardgen.toml").unlink()


def test_bad_offset_is_a_clean_error():
    result = run("build", "werewolf", "--back-offset", "one,two")
    assert result.exit_code == 2
    assert "expected two numbers in mm as X,Y (like 0.5,-1), got 'one,two'" in result.output


def scale_label_at(page, axis: str, at: float) -> str:
    """The number printed on the front's scale at `at` mm along the axis (x: left to right, y: bottom to top)."""
    # The numbers stand close together: split words at any real gap.
    words = page.extract_words(x_tolerance=0.5)
    middle_x, middle_y = mm(page.width) / 2, mm(page.height) / 2
    if axis == "x":
        candidates = [w for w in words if abs(mm(page.height - w["bottom"]) - middle_y - 17.5) < 2]
        best = min(candidates, key=lambda w: abs(mm((w["x0"] + w["x1"]) / 2) - (middle_x + at)))
    else:
        candidates = [w for w in words if abs(mm(w["x0"]) - middle_x - 17.5) < 1]
        best = min(candidates, key=lambda w: abs(mm(page.height - (w["top"] + w["bottom"]) / 2) - (middle_y + at)))
    return best["text"]


@pytest.mark.parametrize("backs", ["long", "short"])
def test_the_number_read_on_the_calibration_sheet_is_the_offset_that_cancels_the_misprint(backs, tmp_path):
    """A printer that puts the back 2 mm right and 4 mm low (in the back page's own coordinates):
    where do the back's pointers cross the front's scales, and what do those scales say there?"""
    result = run("calibrate", "--backs", backs, "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    misprint_x, misprint_y = 2.0, -4.0
    with pdfplumber.open(tmp_path / f"calibration-a4-{backs}.pdf") as pdf:
        assert len(pdf.pages) == 2
        front, back = pdf.pages
        width = mm(front.width)
        # The pointers on the back page sit in its middle.
        pointers = [line for line in back.lines]
        assert sorted(round(mm(line["x0"]) - width / 2, 2) for line in pointers if line["x0"] == line["x1"]) == [0]
        # Seen from the front, long-edge duplex mirrors x, short-edge mirrors y.
        seen_x = -misprint_x if backs == "long" else misprint_x
        seen_y = misprint_y if backs == "long" else -misprint_y
        x_reading = float(scale_label_at(front, "x", seen_x))
        y_reading = float(scale_label_at(front, "y", seen_y))
    # Printing the backs moved by the reading puts them back where they belong.
    assert (x_reading, y_reading) == (-misprint_x, -misprint_y)


def test_the_calibration_scales_tick_every_half_millimetre(tmp_path):
    run("calibrate", "--paper", "letter", "--out", str(tmp_path))
    with pdfplumber.open(tmp_path / "calibration-letter-long.pdf") as pdf:
        front = pdf.pages[0]
        assert (round(mm(front.width), 1), round(mm(front.height), 1)) == (215.9, 279.4)
        ticks = sorted(mm(line["x0"]) for line in front.lines if line["x0"] == line["x1"])
        gaps = {round(b - a, 3) for a, b in zip(ticks, ticks[1:])}
        assert len(ticks) == 33 and gaps == {0.5}


def test_checking_an_offset_moves_the_pointers_by_it(tmp_path):
    run("calibrate", "--out", str(tmp_path / "a"))
    run("calibrate", "--back-offset", "1,2", "--out", str(tmp_path / "b"))
    with (
        pdfplumber.open(tmp_path / "a" / "calibration-a4-long.pdf") as a,
        pdfplumber.open(tmp_path / "b" / "calibration-a4-long.pdf") as b,
    ):
        for line_a, line_b in zip(a.pages[1].lines, b.pages[1].lines):
            assert mm(line_b["x0"] - line_a["x0"]) == pytest.approx(1, abs=0.01)
            assert mm(line_a["top"] - line_b["top"]) == pytest.approx(2, abs=0.01)
