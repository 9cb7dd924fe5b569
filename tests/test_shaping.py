"""Shaped and right-to-left text in the PDFs: Persian and Hindi cards built from the mini game and read back.

The glyphs drawn are HarfBuzz's own for the same string and font: each code a text operator shows is
looked up in the font subset the PDF embeds, and its outline compared with the outline of the glyph
HarfBuzz chose in the font file (ReportLab renumbers a subset's glyphs, so their ids cannot be compared
directly; an outline, with its advance, is what the page shows). A shaped line carries its logical text
in the text layer, which PDFium and pdfplumber read; an RTL paragraph's lines end at the right edge of
their box.
"""

from __future__ import annotations

import io
import re
import shutil
import unicodedata
from pathlib import Path

import pdfplumber
import pypdf
import pypdfium2
import pytest
import uharfbuzz
from fontTools.ttLib import TTFont
from pypdf.generic import ContentStream
from reportlab.lib.colors import toColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from cardgen.core import bundled
from cardgen.text import shaping
from cardgen.text.fonts import FontBook
from cardgen.text.lines import Block, draw_lines, draw_runs
from cardgen.text.markup import Span
from conftest import FIXTURES, ROOT, game, run, write

pytestmark = pytest.mark.skipif(bundled.world_fonts() is None, reason="needs cardgen-world (pip install -e ./world)")

ZWNJ = "\u200c"
SEER_NAME = {"fa": "کارآگاه", "hi": "क्षत्रिय", "he": "מַגִּיד"}
WOLF_NAME = {"fa": f"ذهن{ZWNJ}خوان", "hi": "मन पढ़ने वाला", "he": "קורא מחשבות"}
# A kasra (کارتِ), drawn as a mark under its letter, and guillemets, drawn mirrored, with the mixed line.
SEER_FA = f"هر شب کارتِ یک بازیکن را می{ZWNJ}بیند. اگر او Mafia باشد، گرداننده ۲ بار سر تکان می{ZWNJ}دهد: «بله»."
SEER_EN = "Each night the کارآگاه looks at one player's card."


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The mini game in English, Persian, Hindi and Hebrew, its cards built once for the module."""
    project = tmp_path_factory.mktemp("shaping") / "project"
    shutil.copytree(FIXTURES / "mini", project)
    path = game(project) / "game.yaml"
    text = path.read_text(encoding="utf-8").replace("[en, vi]", "[en, vi, fa, hi, he]")
    text = text.replace("Trò Nhỏ}", "Trò Nhỏ, fa: بازی کوچک, hi: छोटा खेल, he: משחק קטן}")
    text = text.replace("Dân làng}", "Dân làng, fa: شهروندان, hi: गाँव, he: כפר}").replace(
        "vi: Sói}", "vi: Sói, fa: مافیا, hi: भेड़िये, he: זאבים}"
    )
    text = text.replace("Vai trò}", "Vai trò, fa: نقش, hi: भूमिका, he: תפקיד}")
    path.write_text(text, encoding="utf-8")
    write(
        project,
        "roles/seer.yaml",
        f"name: {{en: Seer, vi: Tiên tri, fa: {SEER_NAME['fa']}, hi: {SEER_NAME['hi']}, he: {SEER_NAME['he']}}}\n"
        "team: village\ncount: 1\n"
        f'ability:\n  en: "{SEER_EN}"\n  vi: Xem một lá bài.\n  fa: "{SEER_FA}"\n  hi: हर रात एक खिलाड़ी का कार्ड देखें।\n'
        "  he: בכל לילה הבט בקלף של שחקן אחד.\n",
    )
    write(
        project,
        "roles/wolf.yaml",
        f"name: {{en: Wolf, vi: Sói, fa: {WOLF_NAME['fa']}, hi: {WOLF_NAME['hi']}, he: {WOLF_NAME['he']}}}\n"
        "team: wolves\ncount: 1\n"
        "ability:\n  en: Each night, pick a player.\n  vi: Mỗi đêm, chọn một người.\n"
        "  fa: هر شب یک بازیکن را انتخاب کنید.\n  hi: हर रात एक खिलाड़ी चुनें।\n  he: בכל לילה בחרו שחקן.\n",
    )
    out = project.parent / "out"
    for lang in ("en", "fa", "hi", "he"):
        result = run("build", "--decks", str(project / "decks"), "--out", str(out), "--lang", lang, "-q")
        assert result.exit_code == 0, result.output
    return out / "mini"


def _operations(page) -> list[tuple[list, bytes]]:
    return ContentStream(page.get_contents(), page.pdf).operations


def _drawn_lines(page) -> list[list[tuple[str, bytes]]]:
    """The (font resource, codes) each line of text shows, in drawing order: a line ends at T*."""
    lines: list[list[tuple[str, bytes]]] = [[]]
    font = ""
    for operands, operator in _operations(page):
        if operator == b"Tf":
            font = str(operands[0])
        elif operator in (b"Tj", b"TJ"):
            strings = operands[0] if operator == b"TJ" else [operands[0]]
            lines[-1] += [(font, bytes(s.original_bytes)) for s in strings if not isinstance(s, (int, float))]
        elif operator in (b"T*", b"ET") and lines[-1]:
            lines.append([])
    return [line for line in lines if line]


def _outline(font: TTFont, glyph: str) -> tuple:
    """A glyph as the page shows it: its outline (components resolved) and its advance."""
    table = font["glyf"]
    coordinates, ends, flags = table[glyph].getCoordinates(table)
    return tuple(coordinates), tuple(ends), tuple(flag & 1 for flag in flags), font["hmtx"][glyph][0]


class Subsets:
    """A page's embedded font subsets: the code a text operator shows → its glyph's outline."""

    def __init__(self, page):
        self.fonts: dict[str, tuple[str, TTFont]] = {}
        for name, ref in page["/Resources"]["/Font"].items():
            font = ref.get_object()
            program = font["/FontDescriptor"]["/FontFile2"].get_data()
            self.fonts[name] = (str(font["/BaseFont"]).split("+")[-1], TTFont(io.BytesIO(program)))

    def glyphs(self, runs: list[tuple[str, bytes]]) -> list[tuple]:
        shown = []
        for resource, codes in runs:
            _, font = self.fonts[resource]
            cmap = font["cmap"].getcmap(3, 0) or font["cmap"].tables[0]
            names = [cmap.cmap[code] for code in codes]
            assert ".notdef" not in names, f"tofu: a code of {resource} shows .notdef"
            shown += [_outline(font, name) for name in names]
        return shown

    def base_font(self, runs) -> str:
        return self.fonts[runs[0][0]][0]


def _harfbuzz(text: str, base_font: str) -> list[tuple]:
    """HarfBuzz's glyphs for text in the world package's font file of that PostScript name, as outlines."""
    family, face = base_font.split("-")
    path = bundled.world_fonts() / f"{family}_{'700Bold' if face == 'Bold' else '400Regular'}.ttf"
    data = path.read_bytes()
    buffer = uharfbuzz.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    uharfbuzz.shape(uharfbuzz.Font(uharfbuzz.Face(data)), buffer)
    font = TTFont(io.BytesIO(data))
    order = font.getGlyphOrder()
    assert all(info.codepoint for info in buffer.glyph_infos), f"HarfBuzz has no glyph for part of {text!r}"
    return [_outline(font, order[info.codepoint]) for info in buffer.glyph_infos]


@pytest.mark.parametrize("lang", ["fa", "hi", "he"])
def test_names_are_drawn_with_harfbuzz_s_glyphs_and_no_tofu(built, lang):
    page = pypdf.PdfReader(built / f"mini-cards-{lang}.pdf").pages[0]
    subsets = Subsets(page)
    # Every line's codes are glyphs of their font (no .notdef), and each name is one line's glyphs.
    drawn = [(subsets.glyphs(line), subsets.base_font(line)) for line in _drawn_lines(page)]
    for name in SEER_NAME[lang], WOLF_NAME[lang]:
        assert any(glyphs == _harfbuzz(name, font) for glyphs, font in drawn), f"{name!r} is drawn in no line"


def test_the_zero_width_non_joiner_is_kept_and_parts_the_letters(built):
    """ذهن‌خوان: the ن before the non-joiner takes its final form, where without it it joins the خ."""
    page = pypdf.PdfReader(built / "mini-cards-fa.pdf").pages[0]
    subsets = Subsets(page)
    drawn = [(subsets.glyphs(line), subsets.base_font(line)) for line in _drawn_lines(page)]
    assert any(glyphs == _harfbuzz(WOLF_NAME["fa"], font) for glyphs, font in drawn)
    assert not any(glyphs == _harfbuzz(WOLF_NAME["fa"].replace(ZWNJ, ""), font) for glyphs, font in drawn)


def _pdfium_lines(path: Path) -> list[str]:
    text = pypdfium2.PdfDocument(path)[0].get_textpage().get_text_range()
    return [" ".join(line.split()) for line in text.splitlines()]


def test_hindi_and_a_persian_name_in_an_english_line_read_back_in_logical_order(built):
    hindi = "\n".join(_pdfium_lines(built / "mini-cards-hi.pdf"))
    for text in (SEER_NAME["hi"], WOLF_NAME["hi"], "हर रात एक खिलाड़ी चुनें।"):
        assert text in hindi
    english = " ".join(_pdfium_lines(built / "mini-cards-en.pdf"))
    assert SEER_EN in english


def test_hebrew_is_read_as_any_right_to_left_pdf(built):
    """Unpointed Hebrew is drawn with the letters' own glyphs, right to left: PDFium puts them back in
    reading order itself, and pdfplumber reads them in drawing order. A pointed name's letter stands for
    its points too; PDFium gives them in another, canonically equivalent order (the same text in NFC)."""
    read = _pdfium_lines(built / "mini-cards-he.pdf")
    assert WOLF_NAME["he"] in read and "בכל לילה בחרו שחקן." in read
    assert unicodedata.normalize("NFC", SEER_NAME["he"]) in [unicodedata.normalize("NFC", line) for line in read]
    with pdfplumber.open(built / "mini-cards-he.pdf") as pdf:
        assert WOLF_NAME["he"][::-1] in pdf.pages[0].extract_text()


def test_a_persian_card_reads_back_in_logical_order_and_in_letters(built):
    """Each glyph stands in the text layer for its letters: PDFium puts a right-to-left line back in reading
    order, the mixed line (a Latin word and a digit) included; pdfplumber reads the same letters in
    drawing order. No private-use code, through which a joining form is drawn, reaches either."""
    read = _pdfium_lines(built / "mini-cards-fa.pdf")
    assert SEER_NAME["fa"] in read and WOLF_NAME["fa"] in read
    ability = [line for line in read if line and line in SEER_FA]
    assert " ".join(ability) == SEER_FA, read
    assert any("Mafia" in line for line in ability)
    with pdfplumber.open(built / "mini-cards-fa.pdf") as pdf:
        drawn = pdf.pages[0].extract_text()
    assert not re.search("[\ue000-\uf8ff\U000f0000-\U000ffffd]", drawn + "".join(read))
    assert SEER_NAME["fa"][::-1] in drawn.replace(" ", "")


def _lines(path: Path, font: str) -> list[tuple[float, float]]:
    """The left and right ends (pt) of each line drawn in the font (a PostScript name) on the first card of
    the sheet, top line first: pdfplumber reads the glyphs where they are drawn."""
    with pdfplumber.open(path) as pdf:
        chars = [char for char in pdf.pages[0].chars if char["fontname"].split("+")[-1] == font]
    first = min(char["x0"] for char in chars)
    # A poker card is 178 pt wide: the cards beside it are further. A mark (zero width) is raised or
    # lowered off its line: only the glyphs that advance are counted.
    chars = sorted((c for c in chars if c["x1"] < first + 170 and c["x1"] - c["x0"] > 0.1), key=lambda c: c["top"])
    lines: list[list[dict]] = []
    for char in chars:
        if lines and char["top"] - lines[-1][0]["top"] < 4:
            lines[-1].append(char)
        else:
            lines.append([char])
    return [(min(c["x0"] for c in row), max(c["x1"] for c in row)) for row in lines]


def test_a_persian_paragraph_ends_at_the_right_where_an_english_one_starts_at_the_left(built):
    persian = _lines(built / "mini-cards-fa.pdf", "Vazirmatn-Regular")
    english = _lines(built / "mini-cards-en.pdf", "NotoSans-Regular")
    assert len(persian) >= 3 and len(english) >= 2, (persian, english)
    assert len({round(right, 1) for _, right in persian}) == 1, persian  # flush right
    assert len({round(left, 1) for left, _ in persian}) > 1, persian  # ragged left
    assert len({round(left, 1) for left, _ in english}) == 1, english  # flush left
    # The card's name is centred: the Persian lines end as far right of its middle as the English ones start
    # left of it (to a glyph's side bearing).
    (name_left, name_right), *_ = _lines(built / "mini-cards-en.pdf", "NotoSans-Bold")
    middle = (name_left + name_right) / 2
    assert persian[0][1] - middle == pytest.approx(middle - english[0][0], abs=1.5)


def test_a_mixed_line_is_in_visual_order():
    """اگر او Mafia باشد، ۲ بار: the Latin word and the digit read left to right inside a line read right to
    left; in an English line, a Persian name reads right to left between the English words."""
    line = (("A", "اگر او "), ("N", "Mafia"), ("A", " باشد، ۲ بار"))
    assert [(piece.run, piece.text, piece.rtl) for piece in shaping.visual(line, True, "icon")] == [
        (2, " بار", True),
        (2, "۲", False),
        (2, " باشد، ", True),
        (1, "Mafia", False),
        (0, "اگر او ", True),
    ]
    line = (("N", "the "), ("A", "کارآگاه"), ("N", " looks"))
    assert [(piece.run, piece.text, piece.rtl) for piece in shaping.visual(line, False, "icon")] == [
        (0, "the ", False),
        (1, "کارآگاه", True),
        (2, " looks", False),
    ]


def test_a_persian_word_is_measured_as_harfbuzz_sets_it(book):
    """Lines are broken and fitted by the word's shaped advance, not by its letters' isolated widths."""
    word = "کارآگاه"
    data = (bundled.world_fonts() / "Vazirmatn_400Regular.ttf").read_bytes()
    buffer = uharfbuzz.Buffer()
    buffer.add_str(word)
    buffer.guess_segment_properties()
    uharfbuzz.shape(uharfbuzz.Font(uharfbuzz.Face(data)), buffer)
    advance = (
        sum(position.x_advance for position in buffer.glyph_positions) / TTFont(io.BytesIO(data))["head"].unitsPerEm
    )
    assert book.width(word, "fa", 10) == pytest.approx(advance * 10)
    ((font, _),) = book.runs(Span(word), "fa")
    assert book.width(word, "fa", 10) != pytest.approx(pdfmetrics.stringWidth(word, font, 10))


@pytest.fixture(scope="module")
def book() -> FontBook:
    return FontBook.load(ROOT / "templates" / "fonts.yaml", [ROOT / "fonts", bundled.world_fonts()])


def _canvas_code(draw) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pageCompression=0)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return pypdf.PdfReader(buffer).pages[0].get_contents().get_data()


def test_a_line_whose_first_glyph_is_a_lowered_mark_is_drawn(book):
    """کتابِ drawn right to left starts with the kasra under its ب, set below the line: ReportLab wrote that
    lowering before any font operator and failed when the line's font was set already. The ب stands for
    both characters; the kasra, drawn on its own, for none."""
    font = book.face("Vazirmatn", False, False)
    block = Block(((((font, "کتابِ"),)), ((font, "کتابِ"),)), 10, 12, toColor("#000000"), font, (0.0, 0.0), True)
    code = _canvas_code(lambda canvas: draw_lines(canvas, block, 0, 100))
    assert code.count(b"/ActualText <FEFFFFFE>") == 2 and b" Ts " in code


def test_a_plain_line_of_runs_is_drawn_as_drawstring_drew_it_and_a_persian_one_shaped(book):
    latin, arabic = book.face("NotoSans", False, False), book.face("Vazirmatn", False, False)
    runs = [(latin, "Page 3 of "), (latin, "12")]

    def by_hand(canvas) -> None:
        x = 20.0
        for font, text in runs:
            canvas.setFont(font, 9)
            canvas.drawString(x, 30, text)
            x += canvas.stringWidth(text, font, 9)

    assert _canvas_code(lambda canvas: draw_runs(canvas, runs, 20, 30, 9)) == _canvas_code(by_hand)
    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    draw_runs(canvas, [(arabic, "بازی کوچک")], 20, 30, 9, rtl=True)
    canvas.save()
    assert pypdfium2.PdfDocument(buffer.getvalue())[0].get_textpage().get_text_range() == "بازی کوچک"
