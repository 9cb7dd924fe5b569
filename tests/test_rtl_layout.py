"""Right-to-left layout (issue 32): Persian and Hebrew cards and rulebooks mirrored where the reading order
matters, Persian digits in the numbers cardgen writes, measured in the PDFs against the English build."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest

from cardgen.core.phrases import fill, numeral
from cardgen.core.units import mm, pt
from conftest import game, run

WOLF_RED = (0.54902, 0.109804, 0.07451)  # the wolves' team colour, as pdfplumber reads it
FRAME_INSET = 2.5  # mm from the trim: card-layout.yaml's frame inset
BUSINESS_W = 89.0  # mm: a business card, whose picture stands beside its text
PERSIAN = "۰۱۲۳۴۵۶۷۸۹"

RULEBOOK = """\
players: {min: 2, max: 3}
sections:
  goal:
    title: {en: Goal, vi: Mục tiêu, fa: هدف, he: מטרה}
    body:
      en: |
        Win with your team.

        - First point of the list
        - Second point of the list
      vi: Thắng.
      fa: |
        با تیم خود ببرید.

        - نکته اول فهرست
        - نکته دوم فهرست
      he: |
        נצחו עם הקבוצה שלכם.

        - הנקודה הראשונה ברשימה
        - הנקודה השנייה ברשימה
"""
SETUPS = """\
setups:
  standard:
    players: [2, 3]
    cards:
      wolf: [1, 2]
      seer: 1
"""


def _in_both(path: Path, pairs: list[tuple[str, str]]) -> None:
    """Persian and Hebrew texts added after the Vietnamese ones of a mini game file."""
    text = path.read_text(encoding="utf-8")
    for vietnamese, more in pairs:
        assert vietnamese in text
        text = text.replace(vietnamese, vietnamese + more, 1)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def rtl(mini: Path) -> Path:
    """The mini game on business cards with Persian and Hebrew texts, a rulebook with a list, and a setup table."""
    folder = game(mini)
    _in_both(
        folder / "game.yaml",
        [
            ("en, vi", ", fa, he"),
            ("vi: Trò Nhỏ", ", fa: مینی, he: מיני"),
            ("vi: Dân làng", ", fa: روستا, he: כפר"),
            ("vi: Sói", ", fa: گرگ‌ها, he: זאבים"),
            ("vi: Vai trò", ", fa: نقش, he: תפקיד"),
        ],
    )
    text = (folder / "game.yaml").read_text(encoding="utf-8").replace("card-size: poker", "card-size: business")
    (folder / "game.yaml").write_text(text + SETUPS, encoding="utf-8")
    _in_both(
        folder / "roles" / "wolf.yaml",
        [
            ("vi: Sói", ", fa: گرگ, he: זאב"),
            (
                "Thắng khi số sói bằng số người còn lại.\n",
                "  fa: هر شب یک بازیکن را حذف کنید.\n  he: בכל לילה הדיחו שחקן.\n",
            ),
        ],
    )
    _in_both(
        folder / "roles" / "seer.yaml",
        [
            ("vi: Tiên tri", ", fa: پیشگو, he: חוזה"),
            ("lá bài của một người chơi.\n", "  fa: هر شب کارت یک بازیکن را ببین.\n  he: בכל לילה הבט בקלף של שחקן.\n"),
        ],
    )
    (folder / "rulebook.yaml").write_text(RULEBOOK, encoding="utf-8")
    return mini


@pytest.fixture
def built(rtl: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    result = run(
        "build", "--decks", str(rtl / "decks"), "--lang", "en", "--lang", "fa", "--lang", "he", "--out", str(out)
    )
    assert result.exit_code == 0, result.output + result.stderr
    return out / "mini"


def _wolf_card(path: Path) -> dict[str, tuple[float, float]]:
    """The first wolf card's frame, team pill and picture on the first sheet: each one's left edge and width,
    mm, from the card's trim (its frame's left edge less the frame's inset)."""
    with pdfplumber.open(path) as pdf:
        shapes = [c for c in pdf.pages[0].curves if tuple(c["non_stroking_color"]) == WOLF_RED]
    frame = min((s for s in shapes if s["width"] > 200), key=lambda s: (round(s["top"]), s["x0"]))
    inside = [
        s
        for s in shapes
        if frame["x0"] < s["x0"] and s["x1"] < frame["x1"] and frame["top"] < s["top"] < frame["bottom"]
    ]
    pill = next(s for s in inside if mm(s["height"]) < 8 and mm(s["width"]) > 30)
    picture = max((s for s in inside if s is not pill), key=lambda s: s["width"])
    trim = mm(frame["x0"]) - FRAME_INSET
    return {name: (mm(s["x0"]) - trim, mm(s["width"])) for name, s in (("pill", pill), ("picture", picture))}


@pytest.mark.parametrize("lang", ["fa", "he"])
def test_the_team_label_and_the_picture_of_a_right_to_left_card_change_sides(built, lang):
    english, mirrored = _wolf_card(built / "mini-cards-en.pdf"), _wolf_card(built / f"mini-cards-{lang}.pdf")
    for part in ("pill", "picture"):
        x_en, w = english[part]
        x_rtl, w_rtl = mirrored[part]
        assert w_rtl == pytest.approx(w, abs=0.01), part
        assert x_rtl == pytest.approx(BUSINESS_W - x_en - w, abs=0.02), part
        # Beside each other on a business card: neither is centred, so the mirror moves it.
        assert abs(x_rtl - x_en) > 10, part
    # In English the picture is left of the label, in a right-to-left language right of it.
    assert english["picture"][0] < english["pill"][0]
    assert mirrored["picture"][0] > mirrored["pill"][0]


def _shapes(path: Path, page: int) -> list[tuple[float, ...]]:
    with pdfplumber.open(path) as pdf:
        sheet = pdf.pages[page]
        return sorted(
            (round(s["x0"], 2), round(s["top"], 2), round(s["x1"], 2), round(s["bottom"], 2))
            for s in sheet.curves + sheet.rects
        )


def test_the_backs_stand_where_the_english_ones_do(built):
    with pdfplumber.open(built / "mini-cards-fa.pdf") as pdf:
        assert [page.trimbox for page in pdf.pages] == [
            page.trimbox for page in pdfplumber.open(built / "mini-cards-en.pdf").pages
        ]
    backs = _shapes(built / "mini-cards-en.pdf", 1)
    assert len(backs) >= 3
    assert _shapes(built / "mini-cards-fa.pdf", 1) == backs
    assert _shapes(built / "mini-cards-he.pdf", 1) == backs
    # The fronts did change: the same measure tells them apart.
    assert _shapes(built / "mini-cards-fa.pdf", 0) != _shapes(built / "mini-cards-en.pdf", 0)


def _lines(path: Path) -> list[list[dict]]:
    """The first page's characters, a list a line (by their baseline), each line from left to right."""
    with pdfplumber.open(path) as pdf:
        chars = [c for c in pdf.pages[0].chars if c["text"].strip()]
    rows: dict[int, list[dict]] = {}
    for char in chars:
        rows.setdefault(round(char["matrix"][5]), []).append(char)
    return [sorted(row, key=lambda c: c["x0"]) for _, row in sorted(rows.items(), reverse=True)]


@pytest.mark.parametrize("lang", ["fa", "he"])
def test_a_right_to_left_rulebook_has_its_bullets_at_the_right_of_their_items(built, lang):
    for language, right in (("en", False), (lang, True)):
        items = [
            line for line in _lines(built / f"mini-rulebook-{language}.pdf") if any(c["text"] == "•" for c in line)
        ]
        assert len(items) >= 2, language
        for line in items:
            bullet = next(c for c in line if c["text"] == "•")
            words = [c for c in line if c is not bullet]
            if right:
                assert bullet["x0"] > max(c["x1"] for c in words), language
            else:
                assert bullet["x1"] < min(c["x0"] for c in words), language


def test_a_persian_rulebook_reads_its_setup_table_from_the_right_in_persian_digits(built):
    for language, digits in (("en", "0123456789"), ("fa", PERSIAN)):
        lines = _lines(built / f"mini-rulebook-{language}.pdf")
        # The table's head: the one line whose numbers are the player counts 2 and 3 (the range under the
        # title has its dash). Its label, Persian glyphs once shaped, is the rest of the line.
        head = next(
            line
            for line in lines
            if sorted(c["text"] for c in line if c["text"] in digits) == [digits[2], digits[3]]
            and not any(c["text"] == "–" for c in line)
        )
        label = [c for c in head if c["text"] not in digits]
        counts = [c for c in head if c["text"] in digits]
        assert "".join(c["text"] for c in sorted(counts, key=lambda c: c["x0"])) == (
            digits[2] + digits[3] if language == "en" else digits[3] + digits[2]
        ), language
        if language == "en":
            assert max(c["x1"] for c in label) < min(c["x0"] for c in counts)
        else:
            # The label column at the right, the player counts leftwards from it: 2 right of 3.
            assert min(c["x0"] for c in label) > max(c["x1"] for c in counts)


def test_persian_page_numbers_and_counts_are_in_persian_digits_at_the_right_margin(built):
    with pdfplumber.open(built / "mini-rulebook-fa.pdf") as pdf:
        page = pdf.pages[0]
        footer = [c for c in page.chars if c["top"] > page.height - pt(15)]
        width = page.width
    # cardgen's own words in Persian, with Persian digits.
    rulebook = built / "mini-rulebook-fa.pdf"
    assert _holds(rulebook, "صفحهٔ ۱ از ۱")
    assert _holds(rulebook, "۲–۳ بازیکن")
    assert _holds(rulebook, "اندازهٔ کارت ویزیت، ۸۹ × ۵۱ میلی\u200cمتر")
    assert not _holds(rulebook, "page")
    # The footer ends at the right margin (15 mm), where a left-to-right one starts at the left.
    assert mm(width - max(c["x1"] for c in footer)) == pytest.approx(15, abs=0.5)
    assert _holds(built / "mini-cards-fa.pdf", "صفحهٔ ۱ از ۲")
    with pdfplumber.open(built / "mini-rulebook-he.pdf") as pdf:
        # Hebrew writes 0 to 9: strings.yaml gives it no digits of its own.
        assert "page 1 of 1" in pdf.pages[0].extract_text()


def _holds(path: Path, phrase: str) -> bool:
    """Whether a line of the first page, as PDFium reads it, holds every character of the phrase. Which
    characters a line has is asserted, not their order: PDFium reorders a right-to-left line's marked
    text once more (test_shaping.py)."""
    document = pdfium.PdfDocument(path)
    try:
        text = document[0].get_textpage().get_text_range()
    finally:
        document.close()
    need = Counter(phrase.replace(" ", ""))
    return any(not need - Counter(line) for line in text.splitlines())


def test_numbers_are_written_in_the_digits_given_and_others_are_left_alone():
    assert numeral(1234567890, PERSIAN) == "۱۲۳۴۵۶۷۸۹۰"
    assert numeral("63.5", PERSIAN) == "۶۳.۵"
    assert numeral(12, None) == "12"
    assert fill("{n} × {name}", PERSIAN, n=3, name="Agent 47") == "۳ × Agent 47"
    assert fill("{n} players", None, n=3) == "3 players"


def test_digits_that_are_not_ten_are_an_error_naming_the_file(rtl, tmp_path):
    strings = rtl / "templates" / "strings.yaml"
    strings.parent.mkdir(parents=True, exist_ok=True)
    builtin = (Path(__file__).parent.parent / "templates" / "strings.yaml").read_text(encoding="utf-8")
    strings.write_text(builtin.replace('digits: "۰۱۲۳۴۵۶۷۸۹"', 'digits: "۰۱۲۳"'), encoding="utf-8")
    result = run("build", "--decks", str(rtl / "decks"), "--lang", "fa", "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert (
        "templates/strings.yaml: error: fa: digits must be the language's ten digits, zero to nine, in one text, "
        "not '۰۱۲۳'" in result.output + result.stderr
    )


def test_a_right_to_left_booklet_is_bound_at_the_right(rtl, tmp_path):
    """Page 1 is on the left half of the first sheet side, where a left-to-right booklet has it on the right."""
    out = tmp_path / "out"
    result = run("build", "--decks", str(rtl / "decks"), "--lang", "en", "--lang", "fa", "--booklet", "--out", str(out))
    assert result.exit_code == 0, result.output + result.stderr
    for lang, title, left in (("en", "Mini", False), ("fa", "مینی", True)):
        with pdfplumber.open(out / "mini" / f"mini-rulebook-{lang}.pdf") as pdf:
            side = pdf.pages[0]
            # The game's name, in its largest type: the first page's title.
            size = max(c["size"] for c in side.chars)
            heading = [c for c in side.chars if c["size"] == size]
            # Persian is drawn shaped, each glyph standing for its letter in the text layer.
            assert sorted(c["text"] for c in heading) == sorted(title), lang
            assert (max(c["x1"] for c in heading) < side.width / 2) is left, lang
            assert (min(c["x0"] for c in heading) > side.width / 2) is not left, lang
