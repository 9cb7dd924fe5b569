"""cardgen export: the print-shop PDF and the numbered PNGs, read back.

Exports run in-process through the CLI (conftest.run) on copies of the mini test
game (seer x1, wolf x2, poker size), whose game.yaml gains a back colour here so
that a back can be told from a front by its pixels; other card sizes are the same
game with its size changed. The default export is made once for the module.

Expected pixel sizes are worked out by hand in mm (1 in = 25.4 mm) rather than
with cardgen.core.units, so a mistake there shows up here.
"""

from __future__ import annotations

import ctypes
import math
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import MINI_BACK, ROOT, mini_project, run

BACK = MINI_BACK
SEER_GREEN, WOLF_RED = "#2f6b3a", "#8c1c13"
BLEED = 3.175  # 1/8 in
POKER = (63.5, 88.9)  # poker as print services cut it: 2.5 × 3.5 in (card-sizes.yaml's poker-us)
FILES = [
    "001-seer-back.png",
    "001-seer-front.png",
    "002-wolf-back.png",
    "002-wolf-front.png",
    "003-wolf-back.png",
    "003-wolf-front.png",
    "cards.csv",
]


# --- helpers ---------------------------------------------------------------------------


def _project(root: Path, card_size: str = "poker") -> Path:
    return mini_project(root, card_size)


def _export(project: Path, out: Path, *options: str, game: str = "mini"):
    result = run("export", game, "--decks", str(project / "decks"), "--out", str(out), *options)
    assert result.exit_code == 0, result.output + result.stderr
    return result


def _folder(out: Path, lang: str = "en") -> Path:
    return out / "mini" / "export" / lang


def _rgb(color: str) -> tuple[int, int, int]:
    return tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _share(image: Image.Image, color: str) -> float:
    """The fraction of the image's pixels in exactly this colour."""
    counts = dict((rgb, n) for n, rgb in image.getcolors(image.width * image.height))
    return counts.get(_rgb(color), 0) / (image.width * image.height)


def _dominant(image: Image.Image) -> tuple[int, int, int]:
    return max(image.getcolors(image.width * image.height))[1]


def _mm(box) -> list[float]:
    return [float(v) * 25.4 / 72 for v in box]


# --- fixtures -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return _project(tmp_path_factory.mktemp("export") / "project")


@pytest.fixture(scope="module")
def exported(project, tmp_path_factory):
    """(result, out) of `cardgen export mini --lang en`: PNGs and PDF."""
    out = tmp_path_factory.mktemp("out")
    return _export(project, out, "--lang", "en"), out


# --- the PNGs -----------------------------------------------------------------------------


def test_one_front_and_one_back_per_copy_numbered_in_printing_order(exported):
    result, out = exported
    assert sorted(p.name for p in _folder(out).iterdir()) == FILES
    assert result.stdout.splitlines()[:2] == [str(out / "mini" / "mini-print-en.pdf"), str(_folder(out) / "cards.csv")]
    assert result.stdout.splitlines()[2].startswith("8 files (6 PNG), 3 cards in ")


def test_csv_has_one_row_per_distinct_card_with_its_copies_and_first_files(exported):
    _, out = exported
    assert (_folder(out) / "cards.csv").read_bytes() == (
        b"number,card,copies,front,back\r\n"
        b"001,seer,1,001-seer-front.png,001-seer-back.png\r\n"
        b"002,wolf,2,002-wolf-front.png,002-wolf-back.png\r\n"
    )


def test_poker_pngs_are_trim_plus_eighth_inch_bleed_at_300_dpi_in_rgb(exported):
    # Poker exports at 2.5 × 3.5 in, the size print services cut: with 1/8 in all round that is
    # 2.75 × 3.75 in, 825 × 1125 px at 300 dpi.
    _, out = exported
    for name in FILES[:-1]:
        with Image.open(_folder(out) / name) as image:
            assert (image.size, image.mode) == ((825, 1125), "RGB"), name
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_a_card_of_2_5_by_3_5_inches_gives_the_print_services_825_by_1125(tmp_path):
    project = _project(tmp_path / "project")
    sizes = (ROOT / "templates" / "card-sizes.yaml").read_text(encoding="utf-8")
    (project / "templates").mkdir()
    (project / "templates" / "card-sizes.yaml").write_text(
        sizes.replace("poker:     {width: 63,   height: 88,", "poker:     {width: 63.5, height: 88.9,"),
        encoding="utf-8",
    )
    _export(project, tmp_path / "out", "--lang", "en", "--png")
    with Image.open(_folder(tmp_path / "out") / "001-seer-front.png") as image:
        assert image.size == (825, 1125)


@pytest.mark.parametrize(
    "size, pixels",
    [
        ("tarot", (902, 1492)),  # (70 + 6.35) mm = 901.77 px, (120 + 6.35) mm = 1492.32 px
        ("mini", (601, 825)),  # (44.5 + 6.35) mm = 600.59 px, (63.5 + 6.35) mm = 825.00 px
        ("token-25", (370, 370)),  # werewords' answer tokens: (25 + 6.35) mm = 370.28 px
    ],
)
def test_every_card_size_gets_its_own_pixel_size(tmp_path, size, pixels):
    project = _project(tmp_path / "project", size)
    _export(project, tmp_path / "out", "--lang", "en", "--png")
    for name in FILES[:-1]:
        with Image.open(_folder(tmp_path / "out") / name) as image:
            assert image.size == pixels, name


def test_a_round_token_is_a_square_image_with_the_token_in_it_and_no_cut_guide(tmp_path):
    project = _project(tmp_path / "project", "token-25")
    _export(project, tmp_path / "out", "--lang", "en", "--png")
    with Image.open(_folder(tmp_path / "out") / "002-wolf-front.png") as front:
        side = front.width
        assert front.getpixel((1, 1)) == front.getpixel((side - 2, side - 2)) == (255, 255, 255)
        assert front.getpixel((side // 2, 3)) == _rgb(WOLF_RED)  # the bleed reaches the edge mid-side
        # Along the trim circle (25 mm across) the token's red goes on all the way round: the
        # black ring cut guides draw on a sheet for scissors is not there.
        radius = 12.5 * 300 / 25.4
        ring = [
            front.getpixel((round(side / 2 + radius * math.cos(a / 50)), round(side / 2 + radius * math.sin(a / 50))))
            for a in range(315)
        ]
        assert min(max(p) for p in ring) > 0x70, "a dark ring on the cut line"


def test_a_back_shows_the_back_and_a_front_the_front(exported):
    _, out = exported
    for number, card, team in (("001", "seer", SEER_GREEN), ("002", "wolf", WOLF_RED)):
        with (
            Image.open(_folder(out) / f"{number}-{card}-back.png") as back,
            Image.open(_folder(out) / f"{number}-{card}-front.png") as front,
        ):
            assert _dominant(back) == _rgb(BACK)
            assert _share(back, team) == 0
            assert _share(front, team) > 0.05
            assert _share(front, BACK) == 0


def test_copies_of_a_card_are_the_same_pictures(exported):
    _, out = exported
    for side in ("front", "back"):
        assert (_folder(out) / f"002-wolf-{side}.png").read_bytes() == (
            _folder(out) / f"003-wolf-{side}.png"
        ).read_bytes()
    assert (_folder(out) / "001-seer-front.png").read_bytes() != (_folder(out) / "002-wolf-front.png").read_bytes()


def test_no_bleed_gives_the_trim_alone(project, tmp_path):
    # 2.5 × 3.5 in at 300 dpi.
    _export(project, tmp_path, "--lang", "en", "--bleed", "0")
    with Image.open(_folder(tmp_path) / "001-seer-front.png") as image:
        assert image.size == (750, 1050)
    page = PdfReader(tmp_path / "mini" / "mini-print-en.pdf").pages[0]
    assert _mm(page.mediabox) == pytest.approx([0, 0, *POKER], abs=0.01)
    assert _mm(page.trimbox) == pytest.approx(_mm(page.mediabox), abs=0.01)


def test_dpi_sets_the_resolution(project, tmp_path):
    # 2.75 × 3.75 in at 150 dpi: 412.5 and 562.5 px, rounded half to even.
    _export(project, tmp_path, "--lang", "en", "--png", "--dpi", "150")
    with Image.open(_folder(tmp_path) / "001-seer-back.png") as image:
        assert image.size == (412, 562)


def test_a_card_the_deck_no_longer_has_is_removed_and_the_user_s_files_are_kept(tmp_path):
    project = _project(tmp_path / "project")
    out = tmp_path / "out"
    _export(project, out, "--lang", "en", "--png")
    (_folder(out) / "notes.txt").write_text("mine", encoding="utf-8")
    (_folder(out) / "cover.png").write_bytes(b"mine")
    wolf = project / "decks" / "mini" / "roles" / "wolf.yaml"
    wolf.write_text(wolf.read_text(encoding="utf-8").replace("count: 2", "count: 1"), encoding="utf-8")
    _export(project, out, "--lang", "en", "--png")
    assert sorted(p.name for p in _folder(out).iterdir()) == sorted([*FILES[:4], "cards.csv", "cover.png", "notes.txt"])
    assert b"002,wolf,1," in (_folder(out) / "cards.csv").read_bytes()


# --- the print PDF ------------------------------------------------------------------------


def test_print_pdf_has_a_front_and_a_back_page_per_copy_of_trim_plus_bleed(exported):
    _, out = exported
    pages = PdfReader(out / "mini" / "mini-print-en.pdf").pages
    assert len(pages) == 2 * 3
    width, height = POKER[0] + 2 * BLEED, POKER[1] + 2 * BLEED
    for page in pages:
        assert _mm(page.mediabox) == pytest.approx([0, 0, width, height], abs=0.01)
        assert _mm(page.trimbox) == pytest.approx([BLEED, BLEED, width - BLEED, height - BLEED], abs=0.01)
        assert _mm(page.bleedbox) == pytest.approx([0, 0, width, height], abs=0.01)


def test_print_pdf_text_is_each_card_s_and_nothing_of_the_sheet(exported):
    _, out = exported
    texts = [" ".join(page.extract_text().split()) for page in PdfReader(out / "mini" / "mini-print-en.pdf").pages]
    assert [t.split()[0] for t in texts[::2]] == ["Seer", "Wolf", "Wolf"]
    assert "look at one player" in texts[0] and "wolves pick" in texts[2]
    assert texts[1::2] == ["Mini"] * 3  # the back's title, nothing else
    assert not any("page" in t or "100 %" in t or "fronts" in t for t in texts)


def test_print_pdf_draws_no_lines_no_crop_marks(exported):
    _, out = exported
    document = pypdfium2.PdfDocument(out / "mini" / "mini-print-en.pdf")
    for page in document:
        for obj in page.get_objects(max_depth=1):
            if obj.type == pdfium_c.FPDF_PAGEOBJ_PATH:
                fill, stroke = ctypes.c_int(), ctypes.c_int()
                pdfium_c.FPDFPath_GetDrawMode(obj.raw, fill, stroke)
                assert not stroke.value


def test_print_pdf_embeds_every_font(exported):
    _, out = exported
    fonts = 0
    for page in PdfReader(out / "mini" / "mini-print-en.pdf").pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            described = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            assert "/FontFile2" in described.get("/FontDescriptor", {}), font["/BaseFont"]
            fonts += 1
    assert fonts >= 6


def test_pdf_only_and_png_only(project, tmp_path):
    _export(project, tmp_path / "pdf", "--lang", "en", "--pdf")
    assert sorted(p.name for p in (tmp_path / "pdf" / "mini").iterdir()) == ["mini-print-en.pdf"]
    _export(project, tmp_path / "png", "--lang", "en", "--png")
    assert sorted(p.name for p in (tmp_path / "png" / "mini").iterdir()) == ["export"]


# --- reproducible, and clean errors ---------------------------------------------------------


def test_exporting_again_gives_the_same_bytes(exported, project, tmp_path):
    _, first = exported
    _export(project, tmp_path, "--lang", "en")
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    for name in files:
        assert (tmp_path / name).read_bytes() == (first / name).read_bytes(), name


@pytest.mark.parametrize(
    "args, message",
    [
        (("nope",), "no game 'nope'"),
        (("mini", "--lang", "xx"), "game 'mini' has no language 'xx'; it has en, vi"),
    ],
)
def test_an_unknown_game_or_language_is_a_clean_error(project, tmp_path, args, message):
    result = run("export", *args, "--decks", str(project / "decks"), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert message in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.endswith("1 error\n")
    assert not (tmp_path / "out").exists()


def test_a_deck_problem_stops_the_export_as_it_stops_the_build(tmp_path):
    project = _project(tmp_path / "project")
    wolf = project / "decks" / "mini" / "roles" / "wolf.yaml"
    wolf.write_text(
        wolf.read_text(encoding="utf-8").replace("pick **one player**", "pick **one ᚠ player**"), encoding="utf-8"
    )
    exported = run("export", "mini", "--lang", "en", "--decks", str(project / "decks"), "--out", str(tmp_path / "out"))
    built = run("build", "mini", "--lang", "en", "--decks", str(project / "decks"), "--out", str(tmp_path / "built"))
    assert exported.exit_code == built.exit_code == 1
    assert "is in none of the fonts" in exported.stderr
    assert built.stderr == "building mini (en)\n" + exported.stderr  # the build's progress line, then the same
    assert not (tmp_path / "out").exists()
