"""The narrator page and the site in Persian (right to left, joined letters, Persian digits), in
Japanese (kinsoku) and in Korean (lines broken between words): a small game with Persian and Japanese texts, built in a temporary project, its pages drawn
in Debian's chromium and measured there (the side text starts on, the order of the seats and buttons,
widths of joined and unjoined words, the fonts DevTools says drew them); and the pages' font subsets
shaped with HarfBuzz, which must give what the whole fonts give.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import uharfbuzz as hb
from fontTools.ttLib import TTFont

from cardgen.core import bundled
from cardgen.text import webfonts
from conftest import run
from narrator_browser import as_built, browser, fonts_drawing, needs_browser
from narrator_play import TICK_MS, tap

pytestmark = pytest.mark.skipif(bundled.world_fonts() is None, reason="needs cardgen-world (pip install -e ./world)")

GAME = {
    "game.yaml": """name: {en: "City Night", fa: "شب شهر", ja: "人狼の夜", ko: "도시의 밤"}
languages: [en, fa, ja, ko]
teams:
  town: {name: {en: "Town", fa: "شهروندان", ja: "村人陣営", ko: "시민 팀"}, color: "#2f6b3a"}
  mafia: {name: {en: "Mafia", fa: "مافیا", ja: "人狼陣営", ko: "마피아 팀"}, color: "#8c1c13"}
groups:
  role: {en: "Role", fa: "نقش", ja: "役職", ko: "역할"}
setups:
  standard:
    name: {en: "Standard", fa: "معمولی", ja: "標準", ko: "기본"}
    players: [4, 5, 6]
    cards: {mafia: 1, detective: 1}
    fill: citizen
""",
    "roles/citizen.yaml": """name: {en: "Citizen", fa: "شهروند", ja: "村人", ko: "시민"}
team: town
count: 4
ability: {en: "Vote by day.", fa: "روزها رأی بدهید.", ja: "昼に投票する。", ko: "낮에 투표합니다."}
""",
    "roles/mafia.yaml": """name: {en: "Mafia", fa: "مافیا", ja: "人狼", ko: "마피아"}
team: mafia
ability: {en: "Each night, remove a player.", fa: "هر شب یک نفر را حذف می‌کنید.", ja: "毎晩、一人を襲う。", ko: "밤마다 한 명을 제거합니다."}
night:
  order: 20
  script:
    say: {en: "Mafia, choose.", fa: "مافیا بیدار شوید و یک نفر را انتخاب کنید.", ja: "人狼は一人を選んでください。", ko: "마피아는 한 명을 고르세요."}
""",
    "roles/detective.yaml": """name: {en: "Detective", fa: "کارآگاه", ja: "占い師", ko: "탐정"}
team: town
ability: {en: "Each night, ask about a player.", fa: "هر شب درباره‌ی یک نفر بپرسید.", ja: "毎晩、一人を占う。", ko: "밤마다 한 명에 대해 묻습니다."}
night:
  order: 10
  script:
    say: {en: "Detective, ask.", fa: "کارآگاه بیدار شو و بپرسید.", ja: "占い師は目を開けてください。", ko: "탐정은 눈을 뜨세요."}
""",
    "script.yaml": """title: {en: "Narrator script", fa: "متن راوی", ja: "進行台本", ko: "진행 대본"}
setup:
  - say: {en: "Everyone, close your eyes.", fa: "همه چشم‌هایشان را ببندند.", ja: "全員、目を閉じてください。", ko: "모두 눈을 감으세요."}
versions:
  plain:
    name: {en: "Plain", fa: "ساده", ja: "基本", ko: "기본"}
    phases:
      - title: {en: "First night", fa: "شب اول", ja: "初日の夜", ko: "첫째 밤"}
        kind: first-night
        steps:
          - roles: first-night
      - title: {en: "Day", fa: "روز", ja: "昼", ko: "낮"}
        kind: day
        steps:
          - say: {en: "Vote now.", fa: "اکنون رأی بدهید.", ja: "投票してください。", ko: "투표하세요."}
            timer: 90
""",
}

# The gaps between a box's text and the left and right sides of its content box, in CSS pixels.
TEXT_GAPS = """(selector) => {
  const box = document.querySelector(selector);
  const range = document.createRange();
  range.selectNodeContents(box);
  const rects = [...range.getClientRects()];
  const outer = box.getBoundingClientRect();
  const style = getComputedStyle(box);
  const inner = (side) => parseFloat(style[`padding${side}`]) + parseFloat(style[`border${side}Width`]);
  return {left: Math.min(...rects.map((r) => r.left)) - (outer.left + inner("Left")),
          right: outer.right - inner("Right") - Math.max(...rects.map((r) => r.right))};
}"""

# The drawn width of each text, set in a copy of the step's text box (its font, size and direction).
WIDTHS = """(texts) => texts.map((text) => {
  const step = document.getElementById("step-text");
  const probe = step.cloneNode(false);
  probe.removeAttribute("id");
  probe.textContent = text;
  step.after(probe);
  const range = document.createRange();
  range.selectNodeContents(probe);
  const width = range.getBoundingClientRect().width;
  probe.remove();
  return width;
})"""

# Each seat's number as shown, its data-seat, and the middle of its button across the screen.
SEATS = """() => [...document.querySelectorAll("#circle .seat")].map((seat) => {
  const box = seat.getBoundingClientRect();
  return [seat.querySelector(".name").textContent, seat.dataset.seat, box.left + box.width / 2];
})"""

ZWNJ = "\u200c"


@pytest.fixture(scope="module")
def decks(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("rtl") / "decks"
    for name, text in GAME.items():
        path = root / "city" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def pages(decks) -> dict[str, Path]:
    out = decks.parent / "out"
    found = {}
    for lang in ("fa", "ja", "ko"):
        result = run("narrator", "city", "--decks", str(decks), "--lang", lang, "--out", str(out), "--no-open")
        assert result.exit_code == 0, result.output
        found[lang] = Path(result.output.strip())
    return found


@pytest.fixture(scope="module")
def site(decks) -> Path:
    out = decks.parent / "site-out"
    result = run("site", "city", "--decks", str(decks), "--out", str(out), "-q")
    assert result.exit_code == 0, result.output
    return out / "site"


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    with browser(tmp_path_factory.mktemp("profile")) as opened:
        yield opened
        assert not opened.errors


def started(session, path: Path):
    """The page on its first step, the table it was built for started (whatever an earlier test left)."""
    page = session.open(path, voices=[], clock=True)
    as_built(page)
    page.click("#start")
    page.wait_for_selector("#step-text")
    return page


@needs_browser
@pytest.mark.parametrize("lang, direction", [("fa", "rtl"), ("ja", "ltr")])
def test_the_first_step_starts_on_the_side_the_language_is_read_from(session, pages, lang, direction):
    page = started(session, pages[lang])
    assert page.evaluate("getComputedStyle(document.body).direction") == direction
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "fa" else "")
    gaps = page.evaluate(TEXT_GAPS, "#step-text")
    start, end = ("right", "left") if direction == "rtl" else ("left", "right")
    assert gaps[start] < 2, gaps
    assert gaps[end] > 100, gaps  # a short line: it does not fill the box, so its side shows
    page.close()


@needs_browser
def test_persian_letters_are_joined_by_the_pages_arabic_subset(session, pages):
    page = started(session, pages["fa"])
    assert "ببندند" in page.inner_text("#step-text")
    assert set(fonts_drawing(page, "#step-text")) == {("Vazirmatn-Regular", True)}
    loaded = page.evaluate("[...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family)")
    assert "cardgen Vazirmatn" in loaded
    # Joined, a word is much narrower than its letters apart (a ZWNJ between each pair keeps them apart);
    # ل then ا are one lam-alef ligature, narrower than the two letters.
    joined, apart, ligature, unligated = page.evaluate(WIDTHS, ["ببندند", ZWNJ.join("ببندند"), "بالا", f"بال{ZWNJ}ا"])
    assert joined < 0.7 * apart, (joined, apart)
    assert ligature < 0.9 * unligated, (ligature, unligated)
    page.close()


@needs_browser
def test_the_persian_page_writes_its_numbers_in_persian_digits(session, pages):
    page = started(session, pages["fa"])
    seats = page.evaluate(SEATS)
    assert [(shown, seat) for shown, seat, _ in seats] == list(zip("۱۲۳۴۵۶۷۸", map(str, range(8))))
    clocks, phases = [], []
    for _ in range(20):  # the steps to the day's vote: a page stuck on one fails, not hangs
        clocks += page.evaluate("[...document.querySelectorAll('.clock')].map((clock) => clock.textContent)")
        phases.append(page.inner_text(".run .phase"))
        if "رأی" in page.inner_text("#step-text"):
            break
        page.clock.run_for(TICK_MS)
        tap(page, "button.next")
    # The first night's title, then "Night 1" in the page's words, its number in Persian.
    nights = [phase for phase in phases if phase.startswith("شب اول")]
    assert nights and all(phase.endswith("۱") for phase in nights), phases
    assert clocks == ["۰:۱۰", "۰:۱۰", "۱:۳۰"]  # each role's pause, then the day's 90 seconds
    page.close()


@needs_browser
@pytest.mark.parametrize("lang", ["fa", "ja"])
def test_the_seats_and_the_buttons_run_in_the_languages_reading_order(session, pages, lang):
    page = started(session, pages[lang])
    seats = page.evaluate(SEATS)
    if lang == "ja":
        assert [shown for shown, _, _ in seats] == [str(n) for n in range(1, 9)]
    first, second, last = seats[0][2], seats[1][2], seats[-1][2]
    back, next_ = (page.locator(f"nav button.{name}").bounding_box() for name in ("back", "next"))
    if lang == "fa":
        # Seat 2 to the left of seat 1 at the top, the last to its right: round the other way.
        assert second < first < last
        assert next_["x"] + next_["width"] < back["x"]
    else:
        assert last < first < second
        assert back["x"] + back["width"] < next_["x"]
    page.close()


@needs_browser
def test_the_japanese_page_is_drawn_in_noto_sans_jp(session, pages):
    page = started(session, pages["ja"])
    assert set(fonts_drawing(page, "#step-text")) == {("NotoSansJP-Regular", True)}
    assert page.evaluate("getComputedStyle(document.body).fontFamily").startswith('"cardgen NotoSansJP"')
    page.close()


# The lines a text is broken into in a box `width` CSS pixels wide, in a copy of the step's text box (its
# font, size and the page's line breaking): the characters whose boxes share a top are one line.
LINES = """([text, width]) => {
  const step = document.getElementById("step-text");
  const probe = step.cloneNode(false);
  probe.removeAttribute("id");
  probe.style.width = `${width}px`;
  probe.style.fontStyle = "normal";
  probe.textContent = text;
  step.after(probe);
  const node = probe.firstChild;
  const lines = [];
  let top = null;
  for (let index = 0; index < text.length; index++) {
    const range = document.createRange();
    range.setStart(node, index);
    range.setEnd(node, index + 1);
    const rect = range.getClientRects()[0];
    if (!rect) continue;  // a space at a break
    if (top === null || rect.top > top + 2) { lines.push(""); top = rect.top; }
    lines[lines.length - 1] += text[index];
  }
  probe.remove();
  return lines;
}"""


def _em(page) -> float:
    return page.evaluate("parseFloat(getComputedStyle(document.getElementById('step-text')).fontSize)")


@needs_browser
def test_the_japanese_page_keeps_a_small_kana_off_the_start_of_a_line(session, pages):
    """Kinsoku, as the PDFs break Japanese: in a box five characters wide, っ would start the second line;
    the page moves the character before it down with it. Its instructions are upright, not slanted."""
    page = started(session, pages["ja"])
    lines = page.evaluate(LINES, ["あいうえおっかきくけ", 5.2 * _em(page)])
    assert lines[0] == "あいうえ" and lines[1].startswith("おっ"), lines
    styles = page.evaluate(
        """[...document.querySelectorAll('.step .text, .script li')].map((e) => getComputedStyle(e).fontStyle)"""
    )
    assert styles and "italic" not in styles, styles
    page.close()


@needs_browser
def test_the_korean_page_breaks_lines_between_words_only(session, pages):
    """Korean words are kept whole, as in the PDFs; a box too narrow for a word still cuts it."""
    page = started(session, pages["ko"])
    words = "마피아는 밤마다 한 명을 조용히 제거합니다"
    lines = page.evaluate(LINES, [words, 6.5 * _em(page)])
    assert len(lines) > 2 and all(set(line.split()) <= set(words.split()) for line in lines), lines
    assert page.evaluate(LINES, ["제거합니다제거합니다", 3.2 * _em(page)])[0] == "제거합"
    page.close()


@needs_browser
def test_a_japanese_site_page_breaks_lines_as_its_narrator_page(session, site):
    page = session.context.new_page()
    page.goto((site / "city" / "ja.html").as_uri())
    assert page.evaluate("getComputedStyle(document.body).lineBreak") == "strict"
    page.goto((site / "city" / "ko.html").as_uri())
    assert page.evaluate("getComputedStyle(document.body).wordBreak") == "keep-all"
    page.goto((site / "city" / "en.html").as_uri())
    assert page.evaluate("getComputedStyle(document.body).lineBreak") == "auto"
    page.close()


@needs_browser
def test_the_persian_site_page_is_right_to_left_and_the_index_links_it_so(session, site):
    page = session.context.new_page()
    page.goto((site / "city" / "fa.html").as_uri())
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    gaps = page.evaluate(TEXT_GAPS, "h1")
    assert gaps["right"] < 2 and gaps["left"] > 100, gaps
    assert set(fonts_drawing(page, "h1")) == {("Vazirmatn-Bold", True)}
    # The cards in the deck's order from the right; each card's front to the right of its back.
    cards = page.evaluate("""[...document.querySelectorAll('.cards figure')].map((figure) =>
        [figure.querySelector('figcaption').textContent, ...[...figure.querySelectorAll('img')].map((img) =>
            img.getBoundingClientRect().left)])""")
    assert [name for name, _, _ in cards] == ["شهروند × ۴", "کارآگاه", "مافیا"]
    # The files' sizes, as every number the page writes, in Persian digits.
    sizes = page.evaluate("[...document.querySelectorAll('.downloads .size')].map((size) => size.textContent)")
    assert sizes and all(re.search("[۰-۹]", size) and not re.search("[0-9]", size) for size in sizes), sizes
    lefts = [left for _, front, back in cards for left in (front, back)]
    assert lefts == sorted(lefts, reverse=True)
    page.goto((site / "index.html").as_uri())
    assert page.evaluate("getComputedStyle(document.body).direction") == "ltr"
    directions = page.evaluate(
        "[...document.querySelectorAll('a[hreflang]')].map((a) => [a.lang, getComputedStyle(a).direction])"
    )
    assert directions == [["en", "ltr"], ["fa", "rtl"], ["ja", "ltr"], ["ko", "ltr"]]
    page.close()


def shaped(font: bytes, text: str) -> list[tuple[int, int, int, int]]:
    """HarfBuzz's glyphs for the text in the font: each one's cluster, advance and offsets."""
    buffer = hb.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    hb.shape(hb.Font(hb.Face(hb.Blob(font))), buffer, {})
    return [
        (info.cluster, position.x_advance, position.x_offset, position.y_offset)
        for info, position in zip(buffer.glyph_infos, buffer.glyph_positions, strict=True)
    ]


@pytest.mark.parametrize(
    "name, text",
    [
        # Joining forms, a ZWNJ, lam-alef and Persian digits.
        ("Vazirmatn_400Regular.ttf", "همه چشم‌هایشان را ببندند؛ بالا، ۱۲"),
        ("Vazirmatn_700Bold.ttf", "لا إله، مافیا"),
        # Conjuncts (क्ष, त्र, प्र, द्व) and matras before and after their consonants.
        ("NotoSansDevanagari_400Regular.ttf", "क्षत्रिय प्रश्न द्वार हिन्दी"),
    ],
)
def test_a_pages_subset_shapes_its_text_as_the_whole_font_does(name, text):
    path = bundled.world_fonts() / name
    whole = path.read_bytes()
    with TTFont(io.BytesIO(webfonts.subset(path, {ord(char) for char in text}))) as font:
        font.flavor = None  # HarfBuzz reads TrueType, not WOFF2
        plain = io.BytesIO()
        font.save(plain)
    assert shaped(plain.getvalue(), text) == shaped(whole, text)
    # Shaping is at work: the same letters kept apart are drawn otherwise.
    assert shaped(whole, ZWNJ.join(text)) != shaped(whole, text)
