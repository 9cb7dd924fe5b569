"""cardgen.text.textfit: spans shrunk to fit a box, drawn into a PDF and read back."""

from pathlib import Path

import pdfplumber
import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from cardgen.core import units
from cardgen.text import linebreak, textfit
from cardgen.text.fonts import FontBook
from cardgen.text.markup import Span, parse

ROOT = Path(__file__).resolve().parents[1]
X, TOP = 10.0, 280.0  # where the tests draw, in mm
LOREM = (
    "Each night, point at one player. The moderator shows you whether that player is a werewolf. "
    "You may reveal what you learned at any time, but the werewolves will hunt you once they know. "
)
CHINESE = (
    "预言家每天晚上可以查验一名玩家的身份，法官会用手势告诉他结果。如果查验的是狼人，法官做出“拇指向下”的手势；"
    "否则，做出“拇指向上”的手势。注意：预言家不能查验自己……（每局限一次）。女巫有两瓶药：一瓶解药，一瓶毒药。"
)


@pytest.fixture(scope="module")
def book() -> FontBook:
    return FontBook.load(ROOT / "templates" / "fonts.yaml", [ROOT / "fonts"])


def draw_pdf(path: Path, fitted: textfit.Fitted, valign_height: float | None = None) -> Path:
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    textfit.draw(fitted, canvas, X, TOP, valign_height)
    canvas.showPage()
    canvas.save()
    return path


def pdf_chars(path: Path) -> list[dict]:
    with pdfplumber.open(path) as pdf:
        return list(pdf.pages[0].chars)


def pdf_lines(path: Path) -> list[list[dict]]:
    """Characters grouped by baseline (top differs between fonts on one line), top line first."""
    rows: dict[float, list[dict]] = {}
    for char in pdf_chars(path):
        rows.setdefault(round(char["matrix"][5], 2), []).append(char)
    return [sorted(rows[y], key=lambda c: c["x0"]) for y in sorted(rows, reverse=True)]


def line_texts(path: Path) -> list[str]:
    return ["".join(c["text"] for c in line).strip() for line in pdf_lines(path)]


def test_text_that_fits_keeps_the_largest_size(book):
    fitted = textfit.fit(parse("**Seer**"), book, "en", 50, 20, max_size=12, min_size=6)
    assert fitted.size == 12
    assert fitted.fits and fitted.overflow == 0.0 and fitted.overflow_width == 0.0
    assert fitted.height == pytest.approx(units.mm(12 * 1.2))


def test_long_text_shrinks_to_the_largest_size_on_the_grid_that_fits(book):
    fitted = textfit.fit(parse(LOREM * 2), book, "en", 55, 30, max_size=12, min_size=5)
    assert 5 < fitted.size < 12
    assert ((12 - fitted.size) / 0.25) == pytest.approx(round((12 - fitted.size) / 0.25))
    assert fitted.fits and fitted.height <= 30
    one_step_up = fitted.size + 0.25
    bigger = textfit.fit(parse(LOREM * 2), book, "en", 55, 30, max_size=one_step_up, min_size=one_step_up)
    assert not bigger.fits and bigger.overflow > 0


def test_height_is_the_drawn_lines_times_the_leading(book, tmp_path):
    fitted = textfit.fit(parse(LOREM), book, "en", 40, 100, max_size=9, min_size=9, leading=1.3)
    lines = line_texts(draw_pdf(tmp_path / "a.pdf", fitted))
    assert len(lines) > 3
    assert fitted.height == pytest.approx(units.mm(len(lines) * 9 * 1.3))


def test_text_too_long_at_min_size_reports_how_much_too_tall(book, tmp_path):
    fitted = textfit.fit(parse(LOREM * 4), book, "vi", 40, 20, max_size=10, min_size=7)
    assert fitted.size == 7 and not fitted.fits
    drawn = len(line_texts(draw_pdf(tmp_path / "a.pdf", fitted)))
    assert fitted.overflow == pytest.approx(units.mm(drawn * 7 * 1.2) - 20, abs=0.01)
    assert fitted.overflow > 10


def test_lines_stay_inside_the_box(book, tmp_path):
    fitted = textfit.fit(parse(LOREM * 2), book, "es", 40, 200, max_size=9, min_size=9)
    right = units.pt(X + 40)
    assert max(c["x1"] for c in pdf_chars(draw_pdf(tmp_path / "a.pdf", fitted))) <= right + 0.01


def test_a_word_wider_than_the_box_does_not_fit(book):
    word = "Supercalifragilisticexpialidocious"
    fitted = textfit.fit([Span(word)], book, "en", 20, 50, max_size=10, min_size=6)
    assert not fitted.fits and fitted.size == 6 and fitted.overflow == 0.0
    assert fitted.overflow_width == pytest.approx(units.mm(book.width(word, "en", 6)) - 20)


def test_an_unbreakable_latin_word_in_chinese_does_not_fit(book):
    fitted = textfit.fit(
        parse("预言家 Supercalifragilisticexpialidocious"), book, "zh", 20, 50, max_size=10, min_size=6
    )
    assert not fitted.fits and fitted.overflow_width > 0


def naive_lines(book: FontBook, text: str, width: float, size: float) -> list[str]:
    """Fills each line with as many characters as fit, without line-breaking rules."""
    lines, used = [""], 0.0
    for ch in text:
        advance = book.width(ch, "zh", size)
        if used + advance > units.pt(width) and lines[-1]:
            lines.append("")
            used = 0.0
        lines[-1] += ch
        used += advance
    return lines


@pytest.mark.parametrize("width", [20, 23, 26, 29, 32])
def test_chinese_lines_follow_the_line_start_and_end_rules(book, tmp_path, width):
    naive = naive_lines(book, CHINESE, width, 9)
    assert any(line[0] in linebreak.CANNOT_START for line in naive[1:]), "the text must be a hard case"
    fitted = textfit.fit(parse(CHINESE), book, "zh", width, 200, max_size=9, min_size=9)
    assert fitted.fits
    path = draw_pdf(tmp_path / "zh.pdf", fitted)
    lines = line_texts(path)
    assert "".join(lines) == CHINESE
    assert not [line for line in lines[1:] if line[0] in linebreak.CANNOT_START]
    assert not [line for line in lines[:-1] if line[-1] in linebreak.CANNOT_END]
    # No punctuation hangs out of the box.
    assert max(c["x1"] for c in pdf_chars(path)) <= units.pt(X + width) + 0.01
    assert fitted.height == pytest.approx(units.mm(len(lines) * 9 * 1.2))


def test_markup_characters_are_drawn_literally(book, tmp_path):
    text = '<b>&amp;<font name="x">&lt;</font></b> & <br/>'
    fitted = textfit.fit(parse(text), book, "en", 150, 20, max_size=10, min_size=6)
    assert line_texts(draw_pdf(tmp_path / "a.pdf", fitted)) == [text]


def test_bold_and_italic_survive_the_font_fallback(book, tmp_path):
    fitted = textfit.fit(parse("**Seer 预言家** *wakes*"), book, "en", 80, 20, max_size=10, min_size=6)
    chars = pdf_chars(draw_pdf(tmp_path / "a.pdf", fitted))
    fonts = {c["text"]: c["fontname"].split("+")[-1] for c in chars if not c["text"].isspace()}
    assert fonts["S"] == "NotoSans-Bold"
    assert fonts["预"] == "NotoSansSC-Bold"
    assert fonts["w"] == "NotoSans-Italic"


def test_line_breaks_and_vietnamese_come_out_as_written(book, tmp_path):
    fitted = textfit.fit(parse("Tie\u0302\u0301n tri\n**Nhà** tiên tri"), book, "vi", 80, 30, max_size=10, min_size=6)
    assert line_texts(draw_pdf(tmp_path / "a.pdf", fitted)) == ["Tiến tri", "Nhà tiên tri"]


def test_centred_text_is_centred_in_the_box(book, tmp_path):
    fitted = textfit.fit(parse("Vidente"), book, "es", 60, 20, max_size=10, min_size=6, align="center")
    (line,) = pdf_lines(draw_pdf(tmp_path / "a.pdf", fitted))
    middle = (line[0]["x0"] + line[-1]["x1"]) / 2
    assert middle == pytest.approx(units.pt(X + 30), abs=0.01)


def test_valign_centres_the_text_block(book, tmp_path):
    fitted = textfit.fit(parse("one\ntwo"), book, "en", 60, 40, max_size=10, min_size=6)
    (first, _) = pdf_lines(draw_pdf(tmp_path / "a.pdf", fitted, valign_height=40))
    block_top = TOP - (40 - fitted.height) / 2
    assert first[0]["matrix"][5] == pytest.approx(units.pt(block_top) - 10, abs=0.01)


def test_colour_is_applied(book, tmp_path):
    fitted = textfit.fit(parse("red"), book, "en", 60, 40, max_size=10, min_size=6, color="#ff0000")
    colours = {tuple(c["non_stroking_color"]) for c in pdf_chars(draw_pdf(tmp_path / "a.pdf", fitted))}
    assert colours == {(1, 0, 0)}


def test_the_same_card_gives_a_byte_identical_pdf(book, tmp_path):
    fitted = textfit.fit(parse("**Tiên tri** 预言家 *Vidente*"), book, "en", 60, 40, max_size=10, min_size=6)
    one = draw_pdf(tmp_path / "one.pdf", fitted).read_bytes()
    again = textfit.fit(parse("**Tiên tri** 预言家 *Vidente*"), book, "en", 60, 40, max_size=10, min_size=6)
    assert draw_pdf(tmp_path / "two.pdf", again).read_bytes() == one


def test_empty_text_takes_no_room(book):
    fitted = textfit.fit((), book, "en", 60, 40, max_size=10, min_size=6)
    assert fitted.fits and fitted.height == 0.0


@pytest.mark.parametrize(
    "options",
    [
        dict(max_size=6, min_size=10),
        dict(max_size=10, min_size=6, step=0),
        dict(max_size=10, min_size=6, align="justify"),
    ],
)
def test_bad_options_are_value_errors(book, options):
    with pytest.raises(ValueError):
        textfit.fit(parse("x"), book, "en", 60, 40, **options)


@pytest.mark.parametrize(
    "text,lang,width,height",
    [
        (LOREM * 2, "en", 50, 30),
        (LOREM * 3, "en", 56, 41),
        (LOREM, "en", 20, 80),
        ("Supercalifragilisticexpialidocious " * 2, "en", 25, 40),
        (CHINESE, "zh", 45, 35),
        (CHINESE * 2, "zh", 60, 30),
        ("Mỗi đêm, **bầy sói** chọn *một người* để loại. " * 6, "vi", 48, 33),
    ],
)
def test_the_size_found_is_the_largest_on_the_grid_that_fits(book, text, lang, width, height):
    """The search starts from an estimate; whatever it tries, it must end where trying every size from
    the largest down ends."""
    spans = parse(text)
    fitted = textfit.fit(spans, book, lang, width, height, max_size=12, min_size=4)
    sizes = [round(12 - 0.25 * k, 2) for k in range(33)]
    fitting = [
        size for size in sizes if textfit.fit(spans, book, lang, width, height, max_size=size, min_size=size).fits
    ]
    assert fitted.size == (fitting[0] if fitting else 4)
    assert fitted.size < 12
