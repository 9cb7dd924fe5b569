"""cardgen export --for SERVICE: the files print services take, read back.

The mini test game (seer x1, wolf x2, poker, a blue back) is exported for the bundled
services and for services a project describes itself in templates/exports/ (a new service
is a data change). Lengths are worked out by hand in mm (1 in = 25.4 mm), not with
cardgen.core.units.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from conftest import ROOT, mini_project, run

POKER_PAGE = (2.75 * 25.4, 3.75 * 25.4)  # 2.5 × 3.5 in and 1/8 in bleed all round
BLEED = 0.125 * 25.4


def _export(project: Path, out: Path, service: str, *options: str):
    return run("export", "mini", "--for", service, "--decks", str(project / "decks"), "--out", str(out), *options)


def _ok(result):
    assert result.exit_code == 0, result.output + result.stderr
    return result


def _mm(box) -> list[float]:
    return [float(v) * 25.4 / 72 for v in box]


def _own_service(project: Path, service_id: str, **changes: str) -> None:
    """A copy of the DriveThruCards file in the project's templates, with some lines changed."""
    text = (ROOT / "templates" / "exports" / "drivethrucards.yaml").read_text(encoding="utf-8")
    for key, value in changes.items():
        text = re.sub(rf"(?m)^{key}: .*$", f"{key}: {value}", text)
    target = project / "templates" / "exports" / f"{service_id}.yaml"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def dtc(tmp_path_factory):
    root = tmp_path_factory.mktemp("dtc")
    project = mini_project(root / "project")
    _ok(_export(project, root / "out", "drivethrucards", "--lang", "en"))
    return root / "out" / "mini" / "drivethrucards" / "en"


# --- DriveThruCards: one PDF/X-1a per deck, back then front ----------------------------------


def test_one_pdf_per_deck_with_a_back_and_a_front_page_per_copy(dtc):
    assert sorted(p.name for p in dtc.iterdir()) == ["mini-role-en.pdf"]
    texts = [" ".join(page.extract_text().split()) for page in PdfReader(dtc / "mini-role-en.pdf").pages]
    assert len(texts) == 6  # seer, wolf, wolf: back, front each
    assert texts[0::2] == ["Mini"] * 3  # the back's title comes first
    assert [t.split()[0] for t in texts[1::2]] == ["Seer", "Wolf", "Wolf"]


def test_pages_are_the_trim_plus_an_eighth_of_an_inch(dtc):
    for page in PdfReader(dtc / "mini-role-en.pdf").pages:
        assert _mm(page.mediabox) == pytest.approx([0, 0, *POKER_PAGE], abs=0.01)
        assert _mm(page.bleedbox) == pytest.approx([0, 0, *POKER_PAGE], abs=0.01)
        assert _mm(page.trimbox) == pytest.approx(
            [BLEED, BLEED, POKER_PAGE[0] - BLEED, POKER_PAGE[1] - BLEED], abs=0.01
        )


def _content_streams(reader: PdfReader):
    """Every page's and every form XObject's content, parsed, with its resources."""
    seen = set()

    def walk(stream, resources):
        yield ContentStream(stream, reader)
        for ref in (resources or {}).get("/XObject", {}).values():
            xobject = ref.get_object()
            if xobject["/Subtype"] == "/Form" and ref.idnum not in seen:
                seen.add(ref.idnum)
                yield from walk(xobject, xobject.get("/Resources"))

    for page in reader.pages:
        yield from walk(page.get_contents(), page["/Resources"])


def test_every_colour_is_cmyk_or_grey(dtc):
    reader = PdfReader(dtc / "mini-role-en.pdf")
    operators = {op for content in _content_streams(reader) for _, op in content.operations}
    assert {b"k", b"K"} <= operators
    assert not operators & {b"rg", b"RG", b"sc", b"scn", b"SC", b"SCN", b"cs", b"CS"}
    assert b"/DeviceRGB" not in (dtc / "mini-role-en.pdf").read_bytes()


def test_the_pdf_is_pdf_x1a_with_a_cmyk_output_intent(dtc):
    reader = PdfReader(dtc / "mini-role-en.pdf")
    assert (dtc / "mini-role-en.pdf").read_bytes().startswith(b"%PDF-1.4")
    assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    assert reader.metadata["/Trapped"] == "/False"
    assert reader.metadata["/Title"] and reader.metadata["/CreationDate"] and reader.metadata["/ModDate"]
    (intent,) = reader.trailer["/Root"]["/OutputIntents"]
    intent = intent.get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "CGATS TR 003"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4
    assert profile.get_data() == (ROOT / "templates/exports/icc/cardgen-swop-tr003-tac240.icc").read_bytes()
    assert profile.get_data()[16:20] == b"CMYK"  # the ICC header's colour space


def test_every_font_is_embedded(dtc):
    for page in PdfReader(dtc / "mini-role-en.pdf").pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            described = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            assert "/FontFile2" in described["/FontDescriptor"], font["/BaseFont"]


def test_the_back_prints_in_the_back_colour_separated(dtc):
    # #24466e through the profile: cyan and black, no yellow to speak of.
    document = pypdfium2.PdfDocument(dtc / "mini-role-en.pdf")
    back = document[0].render(scale=1).to_pil().convert("RGB")
    front = document[1].render(scale=1).to_pil().convert("RGB")
    r, g, b = max(back.getcolors(back.width * back.height))[1]
    assert b > r + 40 and b > g  # still a blue
    assert max(front.getcolors(front.width * front.height))[1] != (r, g, b)


def test_exporting_again_gives_the_same_bytes(dtc, tmp_path):
    project = mini_project(tmp_path / "project")
    _ok(_export(project, tmp_path / "out", "drivethrucards", "--lang", "en"))
    again = tmp_path / "out" / "mini" / "drivethrucards" / "en" / "mini-role-en.pdf"
    assert again.read_bytes() == (dtc / "mini-role-en.pdf").read_bytes()


# --- errors naming the card -----------------------------------------------------------------


def test_ink_over_the_limit_is_an_error_naming_the_card_and_the_colour(tmp_path):
    project = mini_project(tmp_path / "project")
    _own_service(project, "tight", name="Tight Shop", **{"ink-limit": "200"})
    result = _export(project, tmp_path / "out", "tight", "--lang", "en")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        "decks/mini/game.yaml:1: error: the back of 'role' (en): #000000 prints as C42 M35 Y42 K95, 213 % ink, "
        "more than Tight Shop's limit of 200 %; use a lighter colour",
        "decks/mini/roles/seer.yaml:1: error: seer (front, en): #000000 prints as C42 M35 Y42 K95, 213 % ink, "
        "more than Tight Shop's limit of 200 %; use a lighter colour",
        "decks/mini/roles/wolf.yaml:1: error: wolf (front, en): #8c1c13 prints as C0 M90 Y80 K47, 217 % ink, "
        "more than Tight Shop's limit of 200 %; use a lighter colour",
        "decks/mini/roles/wolf.yaml:1: error: wolf (front, en): #000000 prints as C42 M35 Y42 K95, 213 % ink, "
        "more than Tight Shop's limit of 200 %; use a lighter colour",
        "4 errors",
    ]
    assert not (tmp_path / "out").exists()


def test_text_in_the_safe_zone_is_an_error_naming_the_card_and_the_text(tmp_path):
    # The cards keep their text 5.9 mm from the cut (frame inset, frame and padding): a 7 mm
    # safe zone takes in the first word of every ability line.
    project = mini_project(tmp_path / "project")
    _own_service(project, "wide", name="Wide Shop", safe="7mm")
    result = _export(project, tmp_path / "out", "wide", "--lang", "en")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        "decks/mini/roles/seer.yaml:1: error: seer (front, en): the text 'Each' comes 6.1 mm from the cut, "
        "inside Wide Shop's 7 mm safe zone; shorten it or give it more room",
        "decks/mini/roles/wolf.yaml:1: error: wolf (front, en): the text 'Each' comes 5.9 mm from the cut, "
        "inside Wide Shop's 7 mm safe zone; shorten it or give it more room",
        "2 errors",
    ]


def test_the_bundled_decks_keep_their_text_out_of_every_services_safe_zone(tmp_path):
    result = _ok(run("export", "werewolf", "--for", "drivethrucards", "--lang", "zh", "--out", str(tmp_path)))
    assert "safe zone" not in result.stderr


def test_a_size_the_service_does_not_print_is_left_out_with_a_warning(tmp_path):
    project = mini_project(tmp_path / "project", "token-25")
    result = _ok(_export(project, tmp_path / "out", "drivethrucards", "--lang", "en"))
    assert result.stderr == (
        "decks/mini/game.yaml:12: warning: DriveThruCards prints no 'token-25' cards: "
        "the 3 'role' cards are left out (sizes in templates/exports/drivethrucards.yaml: "
        "poker)\n"
    )
    assert result.stdout.startswith("0 files (0 PNG), 0 cards in ")
    assert not (tmp_path / "out").exists()


def test_an_unknown_service_names_the_known_ones(tmp_path):
    project = mini_project(tmp_path / "project")
    result = _export(project, tmp_path / "out", "kinkos")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "error: no print service 'kinkos'; known: drivethrucards, makeplayingcards, "
        "printplaygames, thegamecrafter (each is a file in templates/exports/)"
    )


def test_a_mistake_in_a_service_file_is_reported_at_its_line(tmp_path):
    project = mini_project(tmp_path / "project")
    _own_service(project, "broken", bleed="an eighth", dpi="3000")
    result = _export(project, tmp_path / "out", "broken")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        "templates/exports/broken.yaml:19: error: bleed: expected a length such as 2.5in, 3mm or 9pt, got 'an eighth'",
        "templates/exports/broken.yaml:21: error: dpi: expected a number from 72 to 1200, got 3000",
        "2 errors",
    ]


def test_bleed_and_resolution_flags_cannot_override_a_service(tmp_path):
    project = mini_project(tmp_path / "project")
    result = _export(project, tmp_path / "out", "drivethrucards", "--bleed", "2", "--png")
    assert result.exit_code == 2
    assert "--bleed, --png cannot be used with --for: the service's file settles them" in result.stderr


# --- image services ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "service, front, back",
    [
        ("thegamecrafter", "role/{n}-{card}-front.png", "role/back.png"),
        ("makeplayingcards", "role/front/{n}-{card}.png", "role/back.png"),
        ("printplaygames", "role/FRONT/{n}-{card}.png", "role/BACK/back.png"),
    ],
)
def test_image_services_get_a_png_per_card_a_shared_back_and_quantities(tmp_path, service, front, back):
    project = mini_project(tmp_path / "project")
    _ok(_export(project, tmp_path / "out", service, "--lang", "en"))
    folder = tmp_path / "out" / "mini" / service / "en"
    seer, wolf = front.format(n="001", card="seer"), front.format(n="002", card="wolf")
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.*")) == sorted(
        [seer, wolf, back, "role/cards.csv"]
    )
    rows = list(csv.reader(io.StringIO((folder / "role/cards.csv").read_text(encoding="utf-8"))))
    assert rows == [
        ["number", "card", "quantity", "front", "back"],
        ["001", "seer", "1", seer, back],
        ["002", "wolf", "2", wolf, back],
    ]
    # 2.5 × 3.5 in at 300 dpi with 1/8 in of bleed a side (MPC: 36 px).
    pixels = (822, 1122) if service == "makeplayingcards" else (825, 1125)
    for name in (seer, wolf, back):
        with Image.open(folder / name) as image:
            assert image.mode == "RGB"
            assert image.size == pixels
    with Image.open(folder / back) as image:
        assert max(image.getcolors(image.width * image.height))[1] == (0x24, 0x46, 0x6E)


def test_an_export_removes_the_files_of_cards_the_deck_no_longer_has(tmp_path):
    project = mini_project(tmp_path / "project")
    _ok(_export(project, tmp_path / "out", "thegamecrafter", "--lang", "en"))
    (project / "decks" / "mini" / "roles" / "seer.yaml").unlink()
    _ok(_export(project, tmp_path / "out", "thegamecrafter", "--lang", "en"))
    folder = tmp_path / "out" / "mini" / "thegamecrafter" / "en" / "role"
    assert sorted(p.name for p in folder.iterdir()) == ["001-wolf-front.png", "back.png", "cards.csv"]


# --- pictures --------------------------------------------------------------------------------------


def _with_art(project: Path, image: Image.Image) -> None:
    image.save(project / "decks" / "mini" / "art.png")
    wolf = project / "decks" / "mini" / "roles" / "wolf.yaml"
    wolf.write_text(
        wolf.read_text(encoding="utf-8").replace("symbol: symbols/wolf.svg", "art: {file: art.png}"), encoding="utf-8"
    )


def test_a_picture_is_separated_into_cmyk_through_the_profile(tmp_path):
    project = mini_project(tmp_path / "project")
    # A pure RGB red and a pure green half: out of the press's gamut, both come back within 240 %.
    art = Image.new("RGB", (600, 400), (255, 0, 0))
    art.paste((0, 255, 0), (300, 0, 600, 400))
    _with_art(project, art)
    _ok(_export(project, tmp_path / "out", "drivethrucards", "--lang", "en"))
    pdf = tmp_path / "out" / "mini" / "drivethrucards" / "en" / "mini-role-en.pdf"
    reader = PdfReader(pdf)
    images = [
        x.get_object()
        for page in reader.pages
        for x in page["/Resources"].get("/XObject", {}).values()
        if x.get_object()["/Subtype"] == "/Image"
    ]
    assert images and {image["/ColorSpace"] for image in images} == {"/DeviceCMYK"}
    data = images[0].get_data()
    width, height = int(images[0]["/Width"]), int(images[0]["/Height"])
    assert len(data) == 4 * width * height
    cmyk = Image.frombytes("CMYK", (width, height), data)
    c, m, y, k = cmyk.getpixel((width // 4, height // 2))  # the red half
    assert m > 200 and y > 200 and c < 20 and k < 20
    c, m, y, k = cmyk.getpixel((3 * width // 4, height // 2))  # the green half
    assert c > 150 and y > 150 and m < 60
    assert max(sum(cmyk.getpixel((x, height // 2))) for x in range(width)) <= 240 * 255 / 100 + 1


def test_a_picture_with_transparency_is_refused_for_pdf_x1a(tmp_path):
    project = mini_project(tmp_path / "project")
    art = Image.new("RGBA", (300, 300), (0, 0, 0, 0))
    art.paste((200, 30, 30, 255), (50, 50, 250, 250))
    _with_art(project, art)
    result = _export(project, tmp_path / "out", "drivethrucards", "--lang", "en")
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        "decks/mini/game.yaml:12: error: role (en): a picture has transparency, which PDF/X-1a does not allow: flatten it "
        "onto its background (save it without an alpha channel)",
        "1 error",
    ]


def test_the_ink_of_a_picture_is_its_darkest_pixel_s():
    from cardgen.cards.pdfx import _max_ink

    image = Image.new("CMYK", (50, 40), (10, 10, 10, 10))
    image.putpixel((30, 25), (200, 100, 50, 20))  # 370 of 1020: 145 %
    image.putpixel((31, 5), (20, 20, 20, 20))
    total, (c, m, y, k) = _max_ink(image)
    assert total == pytest.approx(370 * 100 / 255)
    assert (round(c), round(m), round(y), round(k)) == (78, 39, 20, 8)
