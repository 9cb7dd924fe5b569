"""Type in built PDFs: embedded subset fonts, text that reads back right in
every language, per-character font fallback, NFC, Chinese line breaking,
literal markup lookalikes, and the text problems that stop a build.

Text is read back with pypdfium2 (whole pages; fast even on back pages, whose
paw pattern makes pdfplumber and pypdf take seconds a page) and with
pdfplumber on front pages where the font of each character matters. Fonts are
read from the PDF objects with pypdf.
"""

from __future__ import annotations

import collections
import re
import shutil
import unicodedata
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
import yaml
from pypdf import PdfReader
from pypdf.generic import IndirectObject

from conftest import FIXTURES, copy_werewolf_box, run

LANGS = ["en", "vi", "zh", "es"]
CARD = (63.0, 88.0)

# The Werewolf deck, as its files say.
GAME_NAME = {"en": "Werewolf", "vi": "Ma Sói", "zh": "狼人杀", "es": "Hombres Lobo"}
SEER = {"en": "Seer", "vi": "Tiên tri", "zh": "预言家", "es": "Vidente"}
VILLAGE = {"en": "Village", "vi": "Phe dân làng", "zh": "好人阵营", "es": "El pueblo"}
SEER_PHRASE = {
    "en": "point at one player and the moderator secretly shows you their card",
    "vi": "quản trò sẽ bí mật cho bạn xem lá bài của họ",
    "zh": "法官会悄悄让你看他的身份牌",
    "es": "el narrador te enseña en secreto su carta",
}
PAGE_LABEL = {
    "en": (
        "print at 100 % (actual size): this bar is 50 mm",
        "Werewolf · English · fronts · page 1 of 8",
        "Werewolf · English · backs · page 2 of 8",
    ),
    "vi": (
        "in ở 100 % (đúng kích thước): thanh này dài 50 mm",
        "Ma Sói · Tiếng Việt · mặt trước · trang 1/8",
        "Ma Sói · Tiếng Việt · mặt sau · trang 2/8",
    ),
    "zh": (
        "请按 100% 实际大小打印：此标尺长 50 毫米",
        "狼人杀 · 中文 · 正面 · 第 1 页，共 8 页",
        "狼人杀 · 中文 · 背面 · 第 2 页，共 8 页",
    ),
    "es": (
        "imprime al 100 % (tamaño real): esta barra mide 50 mm",
        "Hombres Lobo · Español · anversos · página 1 de 8",
        "Hombres Lobo · Español · reversos · página 2 de 8",
    ),
}
NO_LINE_START = "，。：；！？、）」』》"
SUBSET = re.compile(r"^/?[A-Z]{6}\+(.+)$")


# --- reading text back ---------------------------------------------------------------


def _squash(text: str, cjk: bool) -> str:
    """Lines joined back into running text: by a space, or by nothing in Chinese."""
    return ("" if cjk else " ").join(text.split())


def _cells(trim: tuple[float, float, float, float]):
    """The card rectangles (pt) of a page's grid, from its TrimBox, row by row from the top left."""
    x0, y0, x1, y1 = trim
    w, h = CARD[0] * 72 / 25.4, CARD[1] * 72 / 25.4
    cols, rows = round((x1 - x0) / w), round((y1 - y0) / h)
    return [(x0 + c * w, y1 - (r + 1) * h, x0 + (c + 1) * w, y1 - r * h) for r in range(rows) for c in range(cols)]


def page_texts(path: Path) -> list[str]:
    document = pdfium.PdfDocument(path)
    return [page.get_textpage().get_text_range() for page in document]


def card_texts(path: Path, cjk: bool) -> list[str]:
    """The text on every card position of every page (empty positions give '')."""
    document = pdfium.PdfDocument(path)
    texts = []
    for page in document:
        textpage = page.get_textpage()
        for cell in _cells(page.get_trimbox()):
            texts.append(_squash(textpage.get_text_bounded(*cell), cjk))
    return texts


def _fonts(reader: PdfReader) -> list[dict]:
    """Every font dictionary the pages use, symbol forms' resources included."""
    seen, fonts = set(), []

    def walk(resources) -> None:
        resources = resources.get_object() if resources is not None else {}
        for ref in (resources.get("/Font") or {}).values():
            key = ref.idnum if isinstance(ref, IndirectObject) else id(ref)
            if key not in seen:
                seen.add(key)
                fonts.append(ref.get_object())
        for ref in (resources.get("/XObject") or {}).values():
            key = ("x", ref.idnum) if isinstance(ref, IndirectObject) else id(ref)
            if key in seen:
                continue
            seen.add(key)
            xobject = ref.get_object()
            if xobject.get("/Subtype") == "/Form":
                walk(xobject.get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return fonts


def _descriptor(font: dict):
    if "/FontDescriptor" in font:
        return font["/FontDescriptor"].get_object()
    descendants = font.get("/DescendantFonts")
    return descendants[0].get_object()["/FontDescriptor"].get_object() if descendants else None


# --- builds, once per module ----------------------------------------------------------


@pytest.fixture(scope="module")
def werewolf(tmp_path_factory) -> dict[str, Path]:
    """The real Werewolf deck in all four languages."""
    root = tmp_path_factory.mktemp("werewolf-project")
    copy_werewolf_box(root / "decks")
    out = root / "out"
    result = run("build", "werewolf", "--decks", str(root / "decks"), "--out", str(out))
    assert result.exit_code == 0, result.output + result.stderr
    return {lang: out / "werewolf" / f"werewolf-cards-{lang}.pdf" for lang in LANGS}


def _dump(path: Path, data) -> None:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000), encoding="utf-8")


def _text(en: str, vi: str | None = None, zh: str | None = None, es: str | None = None) -> dict:
    return {"en": en, "vi": vi or en, "zh": zh or en, "es": es or en}


# Chinese texts full of punctuation that must not start a line. Breaking only
# where the box is full (cardgen.text.textfit with an empty CANNOT_START) starts
# about a third of their lines with one of these marks, in every one of the
# six cards; checked when this test was written.
_WORDS = ["预言家", "狼人", "女巫", "猎人", "守卫", "村民", "白痴", "丘比特"]
KINSOKU = {
    f"k{n}": "".join(
        _WORDS[(k * n) % len(_WORDS)][: 1 + (k + n) % 3] + NO_LINE_START[(k * (n + 1)) % len(NO_LINE_START)]
        for k in range(40)
    )
    for n in range(1, 7)
}
SEER_EN = '<b>x</b> &amp; <font name="Courier"> shows as written, unlike **boldly** and *slanted* marks.'
SEER_VI = "Mỗi đêm, xem lá bài của một người chơi."


@pytest.fixture(scope="module")
def typeset(tmp_path_factory) -> dict[str, Path]:
    """The mini game in four languages, with texts that exercise the type; built once, fronts only."""
    root = tmp_path_factory.mktemp("typeset")
    shutil.copytree(FIXTURES / "mini", root, dirs_exist_ok=True)
    game = root / "decks" / "mini"
    _dump(
        game / "game.yaml",
        {
            "name": _text("Mini", "Trò Nhỏ", "小游戏"),
            "languages": LANGS,
            "card-size": "poker",
            "teams": {
                "village": {"name": _text("Village", "Dân làng", "好人", "El pueblo"), "color": "#2f6b3a"},
                "wolves": {"name": _text("Wolves", "Sói", "狼人", "Los lobos"), "color": "#8c1c13"},
            },
            "groups": {"role": _text("Role", "Vai trò", "角色", "Rol")},
        },
    )
    _dump(
        game / "roles" / "seer.yaml",
        {
            "name": _text("Seer 预言家", "Tiên tri", "预言家", "Vidente"),
            "team": "village",
            "ability": _text(
                SEER_EN,
                unicodedata.normalize("NFD", SEER_VI),
                "每晚查验一名玩家的身份。",
                "Cada noche mira la carta de un jugador: ¿será un lobo?",
            ),
        },
    )
    _dump(
        game / "roles" / "wolf.yaml",
        {
            "name": _text("Wolf", "Sói", "狼人", "Lobo"),
            "team": "wolves",
            "ability": _text(
                "Each night, the wolves pick one player.",
                "Mỗi đêm, bầy sói chọn một người.",
                "每晚，狼人选择一名玩家。",
                "Cada noche, los lobos eligen a un jugador.",
            ),
        },
    )
    for card_id, zh in KINSOKU.items():
        _dump(
            game / "roles" / f"{card_id}.yaml",
            {
                "name": _text(card_id.upper(), zh=f"角色{card_id[1:]}"),
                "team": "village",
                "ability": _text(f"Filler card {card_id}.", zh=zh),
            },
        )
    out = root / "out"
    result = run("build", "--decks", str(root / "decks"), "--out", str(out), "--backs", "none")
    assert result.exit_code == 0, result.output + result.stderr
    assert result.stderr == "".join(f"building mini ({lang})\n" for lang in LANGS)  # no warnings either
    return {lang: out / "mini" / f"mini-cards-{lang}.pdf" for lang in LANGS}


def _plumber_cards(path: Path):
    """(page, cell bbox in pdfplumber's top-down coordinates) of every card position."""
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            x0, top, x1, bottom = (float(v) for v in page.trimbox)  # pdfplumber's top-down coordinates
            for cx0, cy0, cx1, cy1 in _cells((x0, page.height - bottom, x1, page.height - top)):
                yield page, (cx0, page.height - cy1, cx1, page.height - cy0)


def _card(path: Path, name: str):
    """The pdfplumber crop of the card whose text starts with name."""
    for page, bbox in _plumber_cards(path):
        crop = page.within_bbox(bbox)
        if _squash(crop.extract_text(), False).startswith(name):
            return crop
    raise AssertionError(f"no card named {name!r} in {path.name}")


# --- fonts -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_font_is_embedded_as_a_subset(werewolf, lang):
    fonts = _fonts(PdfReader(werewolf[lang]))
    assert fonts
    names = set()
    for font in fonts:
        base = str(font["/BaseFont"])
        match = SUBSET.match(base)
        assert match, f"{base}: not a subset name (ABCDEF+Name)"
        names.add(match.group(1))
        descriptor = _descriptor(font)
        assert descriptor is not None and "/FontFile2" in descriptor, f"{base}: no embedded TrueType program"
        assert len(descriptor["/FontFile2"].get_object().get_data()) > 1000
    # Each character in the first family of the language's order that has it:
    # Noto Sans covers all of en/vi/es, Noto Sans SC all of zh (Latin and digits too).
    family = "NotoSansSC" if lang == "zh" else "NotoSans"
    assert {f"{family}-Regular", f"{family}-Bold"} <= names
    assert all(name.rsplit("-", 1)[0] == family for name in names), names


@pytest.mark.parametrize("lang", LANGS)
def test_no_unembedded_standard_font(werewolf, lang):
    """ReportLab starts every page and drawing in Helvetica unless told otherwise."""
    fonts = _fonts(PdfReader(werewolf[lang]))
    assert not [str(f["/BaseFont"]) for f in fonts if "Helvetica" in str(f["/BaseFont"])]


def test_mixed_script_name_uses_both_families_in_bold(typeset):
    """'Seer 预言家' in English: Latin from Noto Sans Bold, the ideographs from Noto Sans SC Bold."""
    card = _card(typeset["en"], "Seer 预言家")
    name = [
        c
        for c in card.chars
        if c["size"] >= 8 and c["text"].strip() and "Bold" in c["fontname"] and c["text"] in "Seer预言家"
    ]
    fonts = {c["text"]: c["fontname"] for c in name}
    assert "".join(c["text"] for c in sorted(name, key=lambda c: c["x0"])) == "Seer预言家"
    for ch in "Ser":
        assert SUBSET.match(fonts[ch]).group(1) == "NotoSans-Bold", fonts
    for ch in "预言家":
        assert SUBSET.match(fonts[ch]).group(1) == "NotoSansSC-Bold", fonts


# --- text in four languages -----------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_cards_show_role_name_team_and_ability(werewolf, lang):
    cjk = lang == "zh"
    cards = card_texts(werewolf[lang], cjk)
    seer = [text for text in cards if text.startswith(_squash(SEER[lang], cjk))]
    assert len(seer) == 1, [c[:30] for c in cards]
    assert _squash(VILLAGE[lang], cjk) in seer[0]
    assert _squash(SEER_PHRASE[lang], cjk) in seer[0]


@pytest.mark.parametrize("lang", LANGS)
def test_backs_show_the_game_name(werewolf, lang):
    pages = page_texts(werewolf[lang])
    assert len(pages) == 8
    backs = pages[1::2]
    # One title a card: 8 + 8 + 8 + 7 backs.
    assert [text.count(GAME_NAME[lang]) - 1 for text in backs] == [8, 8, 8, 7]  # - 1: the page label


@pytest.mark.parametrize("lang", LANGS)
def test_page_label_is_localized(werewolf, lang):
    pages = page_texts(werewolf[lang])
    ruler, first, second = PAGE_LABEL[lang]
    assert ruler in pages[0] and first in pages[0]
    assert second in pages[1]


def test_vietnamese_reads_back_exactly_and_in_nfc(werewolf):
    text = "\n".join(page_texts(werewolf["vi"]))
    assert unicodedata.is_normalized("NFC", text)
    for expected in ("Tiên tri", "Phe dân làng", "Ma Sói", "Tiếng Việt"):
        assert expected in text


def test_decomposed_vietnamese_comes_back_composed(typeset):
    nfd = unicodedata.normalize("NFD", SEER_VI)
    assert nfd != SEER_VI  # the deck file really holds decomposed text
    card = _card(typeset["vi"], "Tiên tri")
    text = _squash(card.extract_text(), False)
    assert SEER_VI in text
    assert not [c for c in text if unicodedata.combining(c)]
    # Drawn as precomposed glyphs of Noto Sans, not as letters with stacked marks.
    assert {SUBSET.match(c["fontname"]).group(1) for c in card.chars if c["text"].strip()} <= {
        "NotoSans-Regular",
        "NotoSans-Bold",
    }


def test_markup_lookalikes_print_literally(typeset):
    card = _card(typeset["en"], "Seer 预言家")
    text = _squash(card.extract_text(), False)
    assert '<b>x</b> &amp; <font name="Courier"> shows as written, unlike boldly and slanted marks.' in text
    assert "*" not in text
    words = {w["text"]: w["fontname"] for w in card.extract_words(extra_attrs=["fontname"])}
    assert words["<b>x</b>"].endswith("NotoSans-Regular")
    assert words["boldly"].endswith("NotoSans-Bold")
    assert words["slanted"].endswith("NotoSans-Italic")
    assert not [f for f in _fonts(PdfReader(typeset["en"])) if "Courier" in str(f["/BaseFont"])]


@pytest.mark.parametrize("card_id", sorted(KINSOKU))
def test_chinese_lines_never_start_with_closing_punctuation(typeset, card_id):
    card = _card(typeset["zh"], f"角色{card_id[1:]}")
    ability = [c for c in card.chars if c["fontname"].endswith("NotoSansSC-Regular") and c["text"].strip()]
    lines = collections.defaultdict(list)
    for c in ability:
        lines[round(c["top"], 1)].append(c)
    texts = ["".join(c["text"] for c in sorted(line, key=lambda c: c["x0"])) for _, line in sorted(lines.items())]
    assert len(texts) >= 5, texts
    assert "".join(texts) == KINSOKU[card_id]  # nothing lost, nothing reordered
    assert [t for t in texts if t[0] in NO_LINE_START] == []
    # And the lines stay inside the card.
    assert max(c["x1"] for c in ability) <= card.bbox[2] and min(c["x0"] for c in ability) >= card.bbox[0]


@pytest.mark.parametrize("lang", ["zh", "es"])
def test_other_mini_languages_read_back(typeset, lang):
    cjk = lang == "zh"
    texts = card_texts(typeset[lang], cjk)
    expected = {
        "zh": ["预言家", "好人", "每晚查验一名玩家的身份。", "狼人", "每晚，狼人选择一名玩家。"],
        "es": [
            "Vidente",
            "El pueblo",
            "Cada noche mira la carta de un jugador: ¿será un lobo?",
            "Los lobos",
            "Cada noche, los lobos eligen a un jugador.",
        ],
    }[lang]
    joined = "\n".join(texts)
    for piece in expected:
        assert _squash(piece, cjk) in joined


# --- text problems stop the build -------------------------------------------------------


RUNE = "decks/mini/roles/wolf.yaml:7: error: ability.en: character U+16A0 RUNIC LETTER FEHU FEOH FE F 'ᚠ' is in none of the fonts"
# Long enough for the whole card, which the picture-less Seer's text has.
SEER_LONG = " ".join(["Each night, look at one player's card and learn a great deal about them."] * 15)
OVERFLOW = (
    "decks/mini/roles/seer.yaml:5: error: seer: the ability text in 'en' does not fit its box: 7.3 mm too tall "
    "at the smallest size (6.5 pt); shorten it"
)


def _add_rune(mini: Path) -> None:
    wolf = mini / "decks" / "mini" / "roles" / "wolf.yaml"
    text = wolf.read_text(encoding="utf-8")
    assert "    Win when wolves equal the others.\n" in text.splitlines(keepends=True)[6]
    wolf.write_text(text.replace("Win when wolves", "Win when ᚠ wolves"), encoding="utf-8")


def _overflow(mini: Path) -> None:
    seer = mini / "decks" / "mini" / "roles" / "seer.yaml"
    lines = seer.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[4].startswith("  en: ")
    lines[4] = f"  en: {SEER_LONG}\n"
    seer.write_text("".join(lines), encoding="utf-8")


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    "breakage, message", [(_add_rune, RUNE), (_overflow, OVERFLOW)], ids=["missing-glyph", "overflow"]
)
def test_text_problem_fails_the_build_with_file_and_line(mini, tmp_path, breakage, message):
    breakage(mini)
    out = tmp_path / "out"
    result = run("build", "--lang", "en", "--decks", str(mini / "decks"), "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr == f"building mini (en)\n{message}\n1 error\n"
    assert result.stdout == ""
    assert not out.exists() or [p for p in out.rglob("*") if p.is_file()] == []


@pytest.mark.parametrize(
    "breakage, message", [(_add_rune, RUNE), (_overflow, OVERFLOW)], ids=["missing-glyph", "overflow"]
)
def test_validate_reports_the_same_text_problem_and_writes_nothing(mini, tmp_path, monkeypatch, breakage, message):
    breakage(mini)
    here = tmp_path / "cwd"
    here.mkdir()
    monkeypatch.chdir(here)
    before = _files(mini)
    result = run("validate", "--decks", str(mini / "decks"))
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"{message}\n1 error\n")
    assert _files(mini) == before
    assert list(here.iterdir()) == []


def test_both_text_problems_are_reported_together(mini):
    """One run shows everything to fix. (In stage order, glyphs before fits, not in file order.)"""
    _add_rune(mini)
    _overflow(mini)
    result = run("validate", "--decks", str(mini / "decks"))
    assert result.exit_code == 1
    *problems, count = result.stderr.splitlines()
    assert sorted(problems) == [OVERFLOW, RUNE]
    assert count == "2 errors"


def test_other_languages_still_build_when_one_has_a_problem(mini, tmp_path):
    """The build writes every good language and reports the bad one."""
    _add_rune(mini)
    out = tmp_path / "out"
    result = run("build", "--decks", str(mini / "decks"), "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr.endswith(f"{RUNE}\n1 error\n")
    assert sorted(p.name for p in out.rglob("*.pdf")) == ["mini-cards-vi.pdf"]


def test_missing_glyph_line_after_decomposed_text_in_a_block(mini):
    wolf = mini / "decks" / "mini" / "roles" / "wolf.yaml"
    nfd = unicodedata.normalize(
        "NFD", "Mỗi đêm, bầy sói chọn một người để loại. Thắng khi số sói bằng số người còn lại."
    )
    wolf.write_text(
        "name: {en: Wolf, vi: Sói}\n"
        "team: wolves\n"
        "count: 2\n"
        "ability:\n"
        "  en: Each night, the wolves pick one player.\n"
        "  vi: |\n"
        "    " + nfd + "\n"
        "    Thêm một dòng.\n"
        "    ᚠ\n"
        "night:\n"
        "  order: 60\n",
        encoding="utf-8",
    )
    result = run("validate", "--decks", str(mini / "decks"))
    assert result.stderr == (
        "decks/mini/roles/wolf.yaml:9: error: ability.vi: character U+16A0 RUNIC LETTER FEHU FEOH "
        "FE F 'ᚠ' is in none of the fonts\n1 error\n"
    )
