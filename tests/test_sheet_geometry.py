"""Sheet geometry of built PDFs, measured back from the files.

Every configuration of the real Werewolf deck (English) is built once per
module into a temporary folder and read back. The grid's mechanics are built
with ``--margin 0`` (printed to the paper's edge, where 3 x 3 poker cards fit
A4 and Letter portrait); the tests of the printable margin build with the
default 5 mm, where they go 4 x 2 on the turned page. Readers:

* pypdf for the page boxes (MediaBox, TrimBox, BleedBox);
* pypdfium2's page-object API for lines, filled areas and characters
  (pdfplumber needs about 4 s for one back page, whose paw pattern is some 600
  form XObjects; pdfium reads a whole file in a fraction of a second);
* pdfplumber once, on a front page, as an independent second reading of the
  crop marks and the ruler.

Lengths are millimetres (``cardgen.core.units.mm``), PDF origin bottom-left.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
import yaml
from pypdf import PdfReader

from cardgen.core.units import mm
from conftest import ROOT, run
from pdfread import Box, Fill
from pdfread import fills as page_fills

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
POKER = (63.0, 88.0)
CARDS = 31  # 4 werewolves, 15 villagers, 12 single roles
TOL = 0.02  # mm, for positions the PDF stores to 1e-4 pt
MARK_WIDTH_PT = 0.25
MARK_CLEARANCE = 1.0  # from the bleed edge to the start of a crop mark
MARK_MIN = 3.0
RULER = "print at 100 % (actual size): this bar is 50 mm"


# --- reading a PDF back ------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A stroked straight segment (x0, y0) -> (x1, y1) as drawn, in page mm."""

    x0: float
    y0: float
    x1: float
    y1: float
    width_pt: float
    dashed: bool

    @property
    def vertical(self) -> bool:
        return abs(self.x0 - self.x1) < TOL

    @property
    def horizontal(self) -> bool:
        return abs(self.y0 - self.y1) < TOL

    @property
    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)

    @property
    def box(self) -> Box:
        return Box(min(self.x0, self.x1), min(self.y0, self.y1), max(self.x0, self.x1), max(self.y0, self.y1))


@dataclass(frozen=True)
class Char:
    text: str
    box: Box  # advance box ("loose" box), page mm
    size: float  # pt
    angle: float  # radians, 0 upright, pi upside down


@dataclass
class Sheet:
    """One page as read back."""

    number: int
    width: float
    height: float
    media: Box
    trim: Box
    bleed: Box
    lines: list[Line]
    fills: list[Fill]
    chars: list[Char]
    text: str

    @property
    def marks(self) -> list[Line]:
        return [ln for ln in self.lines if abs(ln.width_pt - MARK_WIDTH_PT) < 1e-3 and not ln.dashed]

    @property
    def dashed(self) -> list[Line]:
        return [ln for ln in self.lines if ln.dashed]

    def paints(self, rgb: tuple[int, int, int], card: tuple[float, float] = POKER) -> list[Box]:
        """Filled areas of this colour at least one card big: the cards' paint rectangles."""
        return sorted(
            (f.box for f in self.fills if f.rgb == rgb and f.box.w >= card[0] - TOL and f.box.h >= card[1] - TOL),
            key=lambda b: (-b.y1, b.x0),
        )

    def chars_in(self, box: Box, min_size: float = 0.0) -> list[Char]:
        return [c for c in self.chars if box.contains(c.box, 0.01) and c.size >= min_size and c.text.strip()]


def _pt_box(values) -> Box:
    x0, y0, x1, y1 = (mm(float(v)) for v in values)
    return Box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _lines_and_fills(page) -> tuple[list[Line], list[Fill]]:
    lines = []
    for obj in page.get_objects(max_depth=1):  # the symbol forms are not descended into
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDFPath_GetDrawMode(obj.raw, fill_mode, stroke)
        if not stroke.value or pdfium_c.FPDFPath_CountSegments(obj.raw) != 2:
            continue
        a_, b_, c_, d_, e_, f_ = obj.get_matrix().get()
        points = []
        for k in range(2):
            segment = pdfium_c.FPDFPath_GetPathSegment(obj.raw, k)
            x, y = ctypes.c_float(), ctypes.c_float()
            pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
            points.append((mm(a_ * x.value + c_ * y.value + e_), mm(b_ * x.value + d_ * y.value + f_)))
        width = ctypes.c_float()
        pdfium_c.FPDFPageObj_GetStrokeWidth(obj.raw, width)
        dashed = pdfium_c.FPDFPageObj_GetDashCount(obj.raw) > 0
        (x0, y0), (x1, y1) = points
        lines.append(Line(x0, y0, x1, y1, width.value, dashed))
    return lines, page_fills(page)


def _chars(page) -> tuple[list[Char], str]:
    textpage = page.get_textpage()
    chars = []
    rect = pdfium_c.FS_RECTF()
    for i in range(textpage.count_chars()):
        if pdfium_c.FPDFText_IsGenerated(textpage.raw, i):
            continue
        pdfium_c.FPDFText_GetLooseCharBox(textpage.raw, i, rect)
        chars.append(
            Char(
                textpage.get_text_range(i, 1),
                _pt_box((rect.left, rect.bottom, rect.right, rect.top)),
                pdfium_c.FPDFText_GetFontSize(textpage.raw, i),
                pdfium_c.FPDFText_GetCharAngle(textpage.raw, i),
            )
        )
    return chars, textpage.get_text_range()


class Built:
    """A built PDF, read page by page on first use."""

    def __init__(self, path: Path, result):
        self.path = path
        self.result = result

    @cached_property
    def sheets(self) -> list[Sheet]:
        reader = PdfReader(self.path)
        document = pdfium.PdfDocument(self.path)
        sheets = []
        for number, (boxes, page) in enumerate(zip(reader.pages, document), start=1):
            lines, fills = _lines_and_fills(page)
            chars, text = _chars(page)
            media = _pt_box(boxes.mediabox)
            sheets.append(
                Sheet(
                    number,
                    media.w,
                    media.h,
                    media,
                    _pt_box(boxes.trimbox),
                    _pt_box(boxes.bleedbox),
                    lines,
                    fills,
                    chars,
                    text,
                )
            )
        return sheets


def _hex_rgb(color: str) -> tuple[int, int, int]:
    color = color.lstrip("#")
    return tuple(int(color[i : i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


@pytest.fixture(scope="module")
def build(project, tmp_path_factory):
    """build(*options) -> Built: the English Werewolf PDF for those options, built once per module."""
    cache: dict[tuple[str, ...], Built] = {}

    def get(*options: str) -> Built:
        if "--margin" not in options:
            options = ("--margin", "0", *options)
        if options not in cache:
            out = tmp_path_factory.mktemp("out")
            result = run(
                "build", "werewolf", "--lang", "en", "--decks", str(project / "decks"), "--out", str(out), *options
            )
            assert result.exit_code == 0, result.output + result.stderr
            cache[options] = Built(out / "werewolf" / "werewolf-cards-en.pdf", result)
        return cache[options]

    return get


@pytest.fixture(scope="module")
def colors(project) -> dict[str, tuple[int, int, int]]:
    """The fill colours that identify a card's paint area: card stock (fronts) and the back colour."""
    layout = yaml.safe_load((ROOT / "templates" / "card-layout.yaml").read_text(encoding="utf-8"))
    game = yaml.safe_load((project / "decks" / "werewolf" / "game.yaml").read_text(encoding="utf-8"))
    return {"front": _hex_rgb(layout["stock"]), "back": _hex_rgb(game["back"]["color"])}


def _distinct(values, tol: float = TOL) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > tol:
            out.append(v)
    return out


def _diffs(values: list[float]) -> list[float]:
    return [b - a for a, b in zip(values, values[1:])]


def _same_boxes(a, b) -> bool:
    """Two collections of boxes are the same set, to TOL."""

    def key(boxes):
        return sorted((round(x.x0, 1), round(x.y0, 1), x) for x in boxes)

    a, b = [x for *_, x in key(a)], [x for *_, x in key(b)]
    return len(a) == len(b) and all(x.close_to(y) for x, y in zip(a, b))


def _trim_of(paint: Box, trim_box: Box, card=POKER) -> Box:
    """The card trim inside a paint rectangle: the grid cell (of the page's full grid) it covers."""
    col = round((paint.cx - trim_box.x0 - card[0] / 2) / card[0])
    row = round((trim_box.y1 - paint.cy - card[1] / 2) / card[1])
    trim = Box(
        trim_box.x0 + col * card[0],
        trim_box.y1 - (row + 1) * card[1],
        trim_box.x0 + (col + 1) * card[0],
        trim_box.y1 - row * card[1],
    )
    assert paint.contains(trim), f"paint {paint} does not cover the cell {trim}"
    return trim


# --- page sizes ---------------------------------------------------------------------


@pytest.mark.parametrize("paper, size", [("a4", A4), ("letter", LETTER)])
def test_page_size(build, paper, size):
    sheets = build("--paper", paper).sheets
    assert len(sheets) == 8
    for sheet in sheets:
        assert sheet.media.x0 == pytest.approx(0, abs=0.01) and sheet.media.y0 == pytest.approx(0, abs=0.01)
        assert (sheet.width, sheet.height) == pytest.approx(size, abs=0.1)


# --- crop marks ---------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_size_measured_from_crop_marks(build, paper):
    for sheet in build("--paper", paper).sheets[:6]:  # the full sheets, fronts and backs
        xs = _distinct(m.x0 for m in sheet.marks if m.vertical)
        ys = _distinct(m.y0 for m in sheet.marks if m.horizontal)
        assert len(xs) == 4 and len(ys) == 4, (sheet.number, xs, ys)  # 3 x 3 cards: 4 cut lines each way
        assert _diffs(xs) == pytest.approx([POKER[0]] * 3, abs=0.1)
        assert _diffs(ys) == pytest.approx([POKER[1]] * 3, abs=0.1)


@pytest.mark.parametrize(
    "options, bleed",
    [((), 3.0), (("--bleed", "2"), 2.0), (("--paper", "letter"), 3.0)],
    ids=["a4", "a4-bleed2", "letter"],
)
def test_crop_marks_are_thin_long_enough_and_outside_the_bleed(build, options, bleed):
    for sheet in build(*options).sheets:
        marks = sheet.marks
        assert marks, sheet.number
        for m in marks:
            assert m.vertical or m.horizontal
            assert m.width_pt == pytest.approx(0.25, abs=1e-3)
            assert m.length >= MARK_MIN - TOL, (sheet.number, m)
            assert not m.box.overlaps(sheet.bleed), (sheet.number, m)
            assert sheet.media.contains(m.box), (sheet.number, m)
            # Starts the clearance beyond the bleed edge, on the side facing the cards.
            if m.vertical:
                gap = min(abs(m.y0 - sheet.bleed.y0), abs(m.y0 - sheet.bleed.y1))
            else:
                gap = min(abs(m.x0 - sheet.bleed.x0), abs(m.x0 - sheet.bleed.x1))
            assert gap == pytest.approx(MARK_CLEARANCE, abs=TOL), (sheet.number, m)


@pytest.mark.parametrize("options", [(), ("--paper", "letter"), ("--bleed", "2")], ids=["a4", "letter", "bleed2"])
def test_one_pair_of_marks_per_trim_line(build, options):
    for sheet in build(*options).sheets:
        marks = sheet.marks
        xs = _distinct(m.x0 for m in marks if m.vertical)
        ys = _distinct(m.y0 for m in marks if m.horizontal)
        # Every trim line (the TrimBox edges and the cut lines between cards) has its marks.
        assert xs[0] == pytest.approx(sheet.trim.x0, abs=TOL) and xs[-1] == pytest.approx(sheet.trim.x1, abs=TOL)
        assert ys[0] == pytest.approx(sheet.trim.y0, abs=TOL) and ys[-1] == pytest.approx(sheet.trim.y1, abs=TOL)
        for x in xs:
            at = [m for m in marks if m.vertical and abs(m.x0 - x) < TOL]
            assert sorted(m.box.y1 <= sheet.bleed.y0 for m in at) == [False, True], (sheet.number, x, at)
        for y in ys:
            at = [m for m in marks if m.horizontal and abs(m.y0 - y) < TOL]
            assert sorted(m.box.x1 <= sheet.bleed.x0 for m in at) == [False, True], (sheet.number, y, at)
        assert len(marks) == 2 * (len(xs) + len(ys))


def test_pdfplumber_reads_the_same_marks_and_ruler(build):
    """An independent reader: pdfplumber on the first front page."""
    with pdfplumber.open(build().path) as pdf:
        page = pdf.pages[0]
        lines = [ln for ln in page.lines if ln.get("dash") is None]
        marks = [ln for ln in lines if ln["linewidth"] == pytest.approx(0.25)]
        xs = _distinct(mm(ln["x0"]) for ln in marks if ln["x0"] == ln["x1"])
        ys = _distinct(mm(ln["y0"]) for ln in marks if ln["y0"] == ln["y1"])
        assert _diffs(xs) == pytest.approx([63.0] * 3, abs=0.1)
        assert _diffs(ys) == pytest.approx([88.0] * 3, abs=0.1)
        assert all(mm(max(ln["width"], ln["height"])) >= MARK_MIN - TOL for ln in marks)
        bars = [ln for ln in lines if ln["linewidth"] != pytest.approx(0.25) and ln["y0"] == ln["y1"]]
        bar = max(bars, key=lambda ln: ln["width"])
        assert mm(bar["width"]) == pytest.approx(50.0, abs=0.1)
        ticks = [
            ln
            for ln in lines
            if ln["x0"] == ln["x1"]
            and bar["x0"] - 0.1 <= ln["x0"] <= bar["x1"] + 0.1
            and abs(max(ln["y0"], ln["y1"]) - bar["y0"]) < 0.1
        ]
        assert len(ticks) == 51
        assert RULER in page.extract_text()


# --- TrimBox and BleedBox ------------------------------------------------------------


@pytest.mark.parametrize("paper, size", [("a4", A4), ("letter", LETTER)])
def test_trim_box_is_the_card_grid_centred_on_the_page(build, paper, size):
    for sheet in build("--paper", paper).sheets[:6]:
        assert (sheet.trim.w, sheet.trim.h) == pytest.approx((3 * 63.0, 3 * 88.0), abs=0.1)
        left, right = sheet.trim.x0, sheet.width - sheet.trim.x1
        bottom, top = sheet.trim.y0, sheet.height - sheet.trim.y1
        assert left == pytest.approx(right, abs=TOL) and bottom == pytest.approx(top, abs=TOL)
        assert (left, bottom) == pytest.approx(((size[0] - 189) / 2, (size[1] - 264) / 2), abs=0.1)


@pytest.mark.parametrize("bleed", [3.0, 2.0])
def test_bleed_box_is_the_trim_box_grown_by_the_bleed(build, bleed):
    options = () if bleed == 3.0 else ("--bleed", "2")
    for sheet in build(*options).sheets[:6]:
        assert sheet.bleed.close_to(sheet.trim.grown(bleed)), (sheet.number, sheet.trim, sheet.bleed)


def test_cards_abut_and_bleed_only_on_the_grid_edges(build, colors):
    """Gutter 0: the nine paint areas tile the BleedBox with no gap and no overlap."""
    sheet = build().sheets[0]
    paints = sheet.paints(colors["front"])
    assert len(paints) == 9
    assert sum(p.w * p.h for p in paints) == pytest.approx(sheet.bleed.w * sheet.bleed.h, rel=1e-6)
    for i, a in enumerate(paints):
        assert sheet.bleed.contains(a)
        assert not any(a.overlaps(b) for b in paints[i + 1 :])
    # The middle card has no bleed: its paint is its trim.
    middle = paints[4]
    assert (middle.w, middle.h) == pytest.approx(POKER, abs=TOL)


def test_partial_last_sheet_keeps_the_full_grid(build, colors):
    """31 cards: the last front page has 3 cards in row 0 and one in row 1, on the full grid's cells."""
    sheets = build().sheets
    full, last = sheets[0].trim, sheets[6].trim
    assert last.close_to(Box(full.x0, full.y1 - 2 * 88.0, full.x1, full.y1))
    trims = [_trim_of(p, full) for p in sheets[6].paints(colors["front"])]
    expected = [
        Box(full.x0 + c * 63, full.y1 - (r + 1) * 88, full.x0 + (c + 1) * 63, full.y1 - r * 88)
        for r, c in [(0, 0), (0, 1), (0, 2), (1, 0)]
    ]
    assert _same_boxes(trims, expected), trims


# --- the ruler and the page label ------------------------------------------------------


def _ruler(sheet: Sheet) -> tuple[Line, list[Line]]:
    others = [ln for ln in sheet.lines if ln not in sheet.marks and not ln.dashed]
    bar = max(others, key=lambda ln: ln.length)
    along_x = bar.horizontal
    ticks = []
    for ln in others:
        if ln is bar or (ln.vertical if not along_x else ln.horizontal):
            continue
        ends = [(ln.x0, ln.y0), (ln.x1, ln.y1)]
        on_bar = [
            (x, y)
            for x, y in ends
            if (
                abs(y - bar.y0) < TOL and bar.box.x0 - TOL <= x <= bar.box.x1 + TOL
                if along_x
                else abs(x - bar.x0) < TOL and bar.box.y0 - TOL <= y <= bar.box.y1 + TOL
            )
        ]
        if on_bar:
            ticks.append(ln)
    return bar, ticks


@pytest.mark.parametrize(
    "options",
    [
        (),
        ("--paper", "letter"),
        ("--backs", "fold", "--paper", "a4"),
        ("--backs", "fold", "--paper", "letter"),
        ("--card-size", "tarot"),
    ],
    ids=["a4", "letter", "fold-a4", "fold-letter", "tarot"],
)
def test_every_page_has_a_50_mm_ruler_with_51_ticks(build, options):
    for sheet in build(*options).sheets:
        bar, ticks = _ruler(sheet)
        assert bar.length == pytest.approx(50.0, abs=0.1), sheet.number
        assert len(ticks) == 51, sheet.number
        start = min(bar.x0, bar.x1) if bar.horizontal else min(bar.y0, bar.y1)
        positions = sorted((t.x0 if bar.horizontal else t.y0) - start for t in ticks)
        assert positions == pytest.approx([float(k) for k in range(51)], abs=TOL)


def test_a4_ruler_is_horizontal(build):
    bar, _ = _ruler(build().sheets[0])
    assert bar.horizontal


@pytest.mark.parametrize(
    "options",
    [
        (),
        ("--paper", "letter"),
        ("--backs", "fold", "--paper", "a4"),
        ("--backs", "fold", "--paper", "letter"),
        ("--card-size", "tarot"),
    ],
    ids=["a4", "letter", "fold-a4", "fold-letter", "tarot"],
)
def test_ruler_and_label_sit_in_a_margin(build, options):
    """Clear of the cards' bleed, of the crop marks and of the fold line, and on the paper."""
    for sheet in build(*options).sheets:
        bar, ticks = _ruler(sheet)
        label = [c for c in sheet.chars if c.size <= 5.01 and c.text.strip()]
        assert label, sheet.number
        things = [ln.box for ln in [bar, *ticks]] + [c.box for c in label]
        for box in things:
            assert sheet.media.contains(box), (sheet.number, box)
            assert not box.overlaps(sheet.bleed), (sheet.number, box)
            for m in sheet.marks + sheet.dashed:
                assert not box.overlaps(m.box.grown(0.05)), (sheet.number, box, m)


def test_page_label_names_game_language_side_and_page(build):
    sheets = build().sheets
    for sheet in sheets:
        side = "fronts" if sheet.number % 2 else "backs"
        assert RULER in sheet.text
        assert f"Werewolf · English · {side} · page {sheet.number} of 8" in sheet.text


# --- how backs line up ------------------------------------------------------------------


def _title_over(sheet: Sheet, trim: Box) -> tuple[str, float, float]:
    """The back title inside a card: its text in reading order, its centre x and its angle."""
    chars = sheet.chars_in(trim, min_size=8)
    assert chars, trim
    angle = chars[0].angle
    assert all(abs(c.angle - angle) < 1e-3 for c in chars)
    ordered = sorted(chars, key=lambda c: c.box.cx, reverse=abs(angle - math.pi) < 0.01)
    return "".join(c.text for c in ordered), (min(c.box.x0 for c in chars) + max(c.box.x1 for c in chars)) / 2, angle


@pytest.mark.parametrize("pair", [(0, 1), (6, 7)], ids=["full-sheet", "last-sheet"])
def test_long_backs_mirror_columns(build, colors, pair):
    sheets = build().sheets
    front, back = sheets[pair[0]], sheets[pair[1]]
    centre = front.width / 2
    front_paints = front.paints(colors["front"])
    back_paints = back.paints(colors["back"])
    assert len(front_paints) == len(back_paints) == (9 if pair == (0, 1) else 4)
    # The very same areas, mirrored about the page's vertical centre line (the same rows).
    assert _same_boxes(back_paints, [p.mirror_x(centre) for p in front_paints]), (front_paints, back_paints)
    assert back.trim.close_to(front.trim.mirror_x(centre)) and back.bleed.close_to(front.bleed.mirror_x(centre))
    # Every back shows the game's name upright, centred on its card.
    full = sheets[0].trim
    for paint in back_paints:
        trim = _trim_of(paint, full)
        text, cx, angle = _title_over(back, trim)
        assert text == "Werewolf"
        assert angle == pytest.approx(0, abs=1e-3)
        assert cx == pytest.approx(trim.cx, abs=0.3)


def test_long_backs_of_the_last_sheet_land_in_mirrored_columns(build, colors):
    """Row 0 columns 0,1,2 and row 1 column 0 in front; row 0 columns 2,1,0 and row 1 column 2 behind."""
    sheets = build().sheets
    full = sheets[0].trim

    def cells(sheet, color):
        return sorted(
            (round((full.y1 - t.y1) / 88), round((t.x0 - full.x0) / 63))
            for t in (_trim_of(p, full) for p in sheet.paints(color))
        )

    assert cells(sheets[6], colors["front"]) == [(0, 0), (0, 1), (0, 2), (1, 0)]
    assert cells(sheets[7], colors["back"]) == [(0, 0), (0, 1), (0, 2), (1, 2)]


@pytest.mark.parametrize("pair", [(0, 1), (6, 7)], ids=["full-sheet", "last-sheet"])
def test_short_backs_mirror_rows_and_turn_180(build, colors, pair):
    sheets = build("--backs", "short").sheets
    assert len(sheets) == 8
    front, back = sheets[pair[0]], sheets[pair[1]]
    centre = front.height / 2
    front_paints = front.paints(colors["front"])
    back_paints = back.paints(colors["back"])
    assert len(front_paints) == len(back_paints)
    assert _same_boxes(back_paints, [p.mirror_y(centre) for p in front_paints]), (front_paints, back_paints)
    full = sheets[0].trim
    for paint in back_paints:
        trim = _trim_of(paint, full)
        text, cx, angle = _title_over(back, trim)
        assert text == "Werewolf"
        assert angle == pytest.approx(math.pi, abs=1e-3)  # upside down
        assert cx == pytest.approx(trim.cx, abs=0.3)


@pytest.mark.parametrize("paper, size", [("a4", A4), ("letter", LETTER)])
def test_fold_puts_fronts_and_backs_on_one_page_across_a_dashed_line(build, colors, paper, size):
    """A4 folds along a vertical line; on Letter four cards in a row above a horizontal fold fit best."""
    sheets = build("--backs", "fold", "--paper", paper).sheets
    per_page = [len(s.paints(colors["front"])) for s in sheets]
    assert sum(per_page) == CARDS
    assert per_page[:-1] == [per_page[0]] * (len(sheets) - 1) and per_page[0] > per_page[-1] > 0
    for sheet in sheets:
        assert sorted((sheet.width, sheet.height)) == pytest.approx(sorted(size), abs=0.1)
        assert "fold here, glue, then cut" in sheet.text
        (fold,) = sheet.dashed
        fronts, backs = sheet.paints(colors["front"]), sheet.paints(colors["back"])
        assert len(fronts) == len(backs)
        if fold.vertical:
            at = fold.x0
            assert at == pytest.approx(sheet.width / 2, abs=TOL)
            assert fold.box.y0 == pytest.approx(0, abs=TOL) and fold.box.y1 == pytest.approx(sheet.height, abs=TOL)
            assert all(p.x1 <= at - 1 for p in fronts) and all(p.x0 >= at + 1 for p in backs)
            mirror = lambda b, at=at: b.mirror_x(at)  # noqa: E731
            expected_angle = 0.0
        else:
            at = fold.y0
            assert at == pytest.approx(sheet.height / 2, abs=TOL)
            assert fold.box.x0 == pytest.approx(0, abs=TOL) and fold.box.x1 == pytest.approx(sheet.width, abs=TOL)
            assert all(p.y0 >= at + 1 for p in fronts) and all(p.y1 <= at - 1 for p in backs)
            mirror = lambda b, at=at: b.mirror_y(at)  # noqa: E731
            expected_angle = math.pi
        assert _same_boxes(backs, [mirror(f) for f in fronts]), (fronts, backs)
        # The crop marks are mirror-symmetric too, and none crosses the fold line.
        marks = [m.box for m in sheet.marks]
        assert _same_boxes([mirror(m) for m in marks], marks)
        assert not any(m.box.overlaps(fold.box.grown(0.01)) for m in sheet.marks)
        for paint in backs:
            chars = sheet.chars_in(paint, min_size=8)
            assert {round(c.angle, 2) for c in chars} == {round(expected_angle, 2)}
            assert "".join(sorted(c.text for c in chars)) == "".join(sorted("Werewolf"))


def test_fold_on_a4_is_one_landscape_page_per_sheet_with_a_vertical_fold(build):
    """Two columns of two cards fit each half of a landscape A4: 4 cards a page, 8 pages for 31 cards."""
    sheets = build("--backs", "fold", "--paper", "a4").sheets
    assert len(sheets) == 8
    for sheet in sheets:
        assert (sheet.width, sheet.height) == pytest.approx((297.0, 210.0), abs=0.1)
        assert sheet.dashed[0].vertical


def test_none_prints_fronts_only(build, colors):
    sheets = build("--backs", "none").sheets
    assert len(sheets) == 4
    assert [len(s.paints(colors["front"])) for s in sheets] == [9, 9, 9, 4]
    for sheet in sheets:
        assert sheet.paints(colors["back"]) == []
        assert not sheet.dashed
        assert f"fronts · page {sheet.number} of 4" in sheet.text


def test_long_backs_alternate_fronts_and_backs(build, colors):
    sheets = build().sheets
    assert [len(s.paints(colors["front"])) for s in sheets] == [9, 0, 9, 0, 9, 0, 4, 0]
    assert [len(s.paints(colors["back"])) for s in sheets] == [0, 9, 0, 9, 0, 9, 0, 4]
