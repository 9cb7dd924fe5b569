"""cardgen.text.fonts: fonts.yaml → registered faces, per-language fallback runs, coverage."""

import shutil
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics

from cardgen.text.fonts import FontBook
from cardgen.text.markup import Span

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "templates" / "fonts.yaml"
FONTS = ROOT / "fonts"


@pytest.fixture(scope="module")
def book() -> FontBook:
    return FontBook.load(SPEC, [FONTS])


def write_spec(tmp_path: Path, text: str) -> Path:
    spec = tmp_path / "fonts.yaml"
    spec.write_text(text, encoding="utf-8")
    return spec


def test_latin_chinese_and_vietnamese_are_covered(book):
    assert book.missing("Seer 预言家 Nhà tiên tri", "en") == []
    assert book.missing("Vidente: ¿señala a un jugador? 预言家", "es") == []
    assert book.missing("预言家：“查验”一名玩家（每晚）……", "zh") == []


def test_characters_no_font_has_are_reported_once_in_order(book):
    assert book.missing("a\U0001f600 ᚠb\U0001f600ᚠ", "en") == ["\U0001f600", "ᚠ"]


def test_line_breaks_are_not_missing(book):
    assert book.missing("one\ntwo", "vi") == []


def test_runs_fall_back_per_character(book):
    assert book.runs(Span("Seer 预言家"), "en") == [
        ("NotoSans-Regular", "Seer "),
        ("NotoSansSC-Regular", "预言家"),
    ]


def test_bold_survives_the_fallback(book):
    assert book.runs(Span("Seer 预言家", bold=True), "en") == [
        ("NotoSans-Bold", "Seer "),
        ("NotoSansSC-Bold", "预言家"),
    ]


def test_italic_latin_uses_the_italic_face(book):
    assert book.runs(Span("Tiên tri", italic=True), "vi") == [("NotoSans-Italic", "Tiên tri")]
    assert book.runs(Span("Tiên tri", bold=True, italic=True), "vi") == [("NotoSans-BoldItalic", "Tiên tri")]


def test_family_without_italic_uses_its_upright_face(book):
    assert book.runs(Span("预言家", italic=True), "en") == [("NotoSansSC-Regular", "预言家")]
    assert book.runs(Span("预言家", bold=True, italic=True), "en") == [("NotoSansSC-Bold", "预言家")]


def test_chinese_takes_latin_and_punctuation_from_the_cjk_font(book):
    assert book.runs(Span("Seer“预言家”"), "zh") == [("NotoSansSC-Regular", "Seer“预言家”")]


def test_line_breaks_and_uncovered_characters_stay_in_the_current_run(book):
    assert book.runs(Span("预\n言ᚠ"), "en") == [("NotoSansSC-Regular", "预\n言ᚠ")]


def test_language_subtags_use_the_language_order(book):
    assert book.order("zh-Hans") == ("NotoSansSC", "NotoSans")
    assert book.order("xx") == ("NotoSans", "NotoSansSC")
    assert book.is_cjk("zh") and book.is_cjk("zh_CN") and not book.is_cjk("vi")


def test_face_names_are_fixed_and_registered_once(book):
    name = book.face("NotoSansSC", bold=True, italic=False)
    assert name == "NotoSansSC-Bold"
    font = pdfmetrics.getFont(name)
    other = FontBook.load(SPEC, [FONTS])
    assert other.face("NotoSansSC", bold=True, italic=False) == name
    assert pdfmetrics.getFont(name) is font


def test_width_sums_the_runs(book):
    expected = pdfmetrics.stringWidth("Seer ", "NotoSans-Regular", 10) + pdfmetrics.stringWidth(
        "预言家", "NotoSansSC-Regular", 10
    )
    assert book.width("Seer 预言家", "en", 10) == pytest.approx(expected)
    assert book.width("预言家", "en", 10) == pytest.approx(30.0)  # ideographs are 1 em wide
    assert book.width("Seer", "en", 20) == pytest.approx(2 * book.width("Seer", "en", 10))
    assert book.width("Seer", "en", 10, bold=True) > book.width("Seer", "en", 10)


def test_font_dirs_are_searched_in_order(tmp_path):
    project = tmp_path / "fonts"
    project.mkdir()
    shutil.copy(FONTS / "NotoSans_400Regular.ttf", project / "NotoSans_400Regular.ttf")
    book = FontBook.load(SPEC, [project, FONTS])
    assert book.families["NotoSans"]["regular"] == (project / "NotoSans_400Regular.ttf").resolve()
    assert book.families["NotoSans"]["bold"] == (FONTS / "NotoSans_700Bold.ttf").resolve()


def test_missing_font_file_is_a_value_error(tmp_path):
    spec = write_spec(tmp_path, "families:\n  X: {regular: Nope.ttf}\nfallback:\n  default: [X]\n")
    with pytest.raises(ValueError, match="Nope.ttf"):
        FontBook.load(spec, [FONTS])


def test_unknown_family_in_fallback_is_a_value_error(tmp_path):
    spec = write_spec(
        tmp_path,
        "families:\n  NotoSans: {regular: NotoSans_400Regular.ttf}\nfallback:\n  default: [NotoSans, Ghost]\n",
    )
    with pytest.raises(ValueError, match="Ghost"):
        FontBook.load(spec, [FONTS])


def test_unknown_face_and_missing_default_are_value_errors(tmp_path):
    spec = write_spec(
        tmp_path, "families:\n  N: {regular: NotoSans_400Regular.ttf, heavy: x.ttf}\nfallback:\n  default: [N]\n"
    )
    with pytest.raises(ValueError, match="heavy"):
        FontBook.load(spec, [FONTS])
    spec = write_spec(tmp_path, "families:\n  N: {regular: NotoSans_400Regular.ttf}\nfallback:\n  en: [N]\n")
    with pytest.raises(ValueError, match="default"):
        FontBook.load(spec, [FONTS])


def test_unknown_family_in_face_is_a_value_error(book):
    with pytest.raises(ValueError, match="Ghost"):
        book.face("Ghost", bold=False, italic=False)


def test_a_new_language_is_a_data_change(tmp_path):
    spec = write_spec(
        tmp_path,
        "families:\n"
        "  NotoSans: {regular: NotoSans_400Regular.ttf}\n"
        "  NotoSansSC: {regular: NotoSansSC_400Regular.ttf}\n"
        "fallback:\n  default: [NotoSans]\n  ja: [NotoSansSC, NotoSans]\n"
        "cjk: [ja]\n",
    )
    book = FontBook.load(spec, [FONTS])
    assert book.missing("预言家", "en") == ["预", "言", "家"]
    assert book.missing("预言家", "ja") == []
    assert book.is_cjk("ja") and not book.is_cjk("zh")
