"""The narrator page's own fonts: subsets of the bundled fonts carried in the page as data: URLs, holding
every character the page can draw, so that Chinese and Vietnamese read on a phone with no font for them.

Read back from the built file with fontTools, then drawn in Debian's chromium, whose DevTools say which
font drew each node.
"""

from __future__ import annotations

import base64
import io
import json
import re
import shutil
from html import unescape
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardgen.text.fonts import FontBook
from conftest import ROOT, run
from narrator_browser import browser, fonts_drawing, needs_browser

GAMES = ("werewolf", "mafia-vendetta", "salem-1692", "werewords")
# Chinese for every game (its pages are the largest), Vietnamese for two.
PAGES = [(game, "zh") for game in GAMES] + [("werewolf", "vi"), ("werewords", "vi")]
BOOK = FontBook.load(ROOT / "templates" / "fonts.yaml", [ROOT / "fonts"])
FACE = re.compile(
    r'@font-face \{ font-family: "cardgen (\w+)"; src: url\("data:font/woff2;base64,([A-Za-z0-9+/=]+)"\) '
    r'format\("woff2"\); font-weight: (400|700); font-style: normal; font-display: block; \}'
)


def narrator_page(game: str, lang: str, out: Path) -> Path:
    result = run("narrator", game, "--lang", lang, "--out", str(out), "--no-open")
    assert result.exit_code == 0, result.output
    return Path(result.output.strip())


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[tuple[str, str], Path]:
    out = tmp_path_factory.mktemp("pages")
    return {(game, lang): narrator_page(game, lang, out) for game, lang in PAGES}


def embedded(html: str) -> dict[tuple[str, int], TTFont]:
    """The page's faces by (family, weight), read back from their data: URLs."""
    faces = {
        (family, int(weight)): TTFont(io.BytesIO(base64.b64decode(data))) for family, data, weight in FACE.findall(html)
    }
    assert len(faces) == html.count("@font-face")
    return faces


def strings(value) -> str:
    """Every string of the page's JSON, keys and all."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "".join(strings(key) + strings(item) for key, item in value.items())
    if isinstance(value, list):
        return "".join(map(strings, value))
    return ""


def literals(source: str) -> str:
    """The characters of a JavaScript source's string and template literals."""
    return "".join(
        match.group(2) for match in re.finditer(r"([\"'`])((?:\\.|(?!\1).)*)\1", source, re.S) if match.group(2)
    )


def full_cmap(family: str) -> set[int]:
    return set(TTFont(str(BOOK.families[family]["regular"])).getBestCmap())


@pytest.mark.parametrize("game, lang", PAGES)
def test_the_subsets_hold_every_character_of_the_page_in_both_weights(pages, game, lang):
    html = pages[game, lang].read_text(encoding="utf-8")
    assert len(html.encode()) < 1_000_000
    faces = embedded(html)
    main = "NotoSansSC" if lang == "zh" else "NotoSans"
    assert {(main, 400), (main, 700)} <= faces.keys()
    assert {family for family, _ in faces} <= set(BOOK.families)
    # The bundled family, by its own name table: "Noto Sans SC", "Noto Sans".
    assert faces[main, 400]["name"].getDebugName(1).replace(" ", "") == main
    data = json.loads(re.search(r'<script type="application/json" id="deck">(.*?)</script>', html).group(1))
    code = (ROOT / "templates" / "narrator" / "narrator.js").read_text(encoding="utf-8")
    drawn = {ord(c) for c in strings(data) + literals(code) + "0123456789" if c.isprintable() or c == " "}
    # Each weight draws every character a bundled font has; none of the page's characters lacks one.
    bundled = set().union(*map(full_cmap, BOOK.families))
    assert drawn <= bundled
    for weight in (400, 700):
        held = set().union(*(set(font.getBestCmap()) for (_, w), font in faces.items() if w == weight))
        assert drawn <= held, "".join(sorted(chr(c) for c in drawn - held))
    # The words narrator.js writes itself.
    assert {ord(c) for c in "◆·×:"} <= drawn
    # Only the page's characters: a few hundred ideographs of the tens of thousands.
    assert len(faces[main, 400].getBestCmap()) < len(drawn) + 100


def test_a_page_built_with_an_empty_font_cache_is_the_same_file(tmp_path, user_cache):
    first = narrator_page("werewords", "zh", tmp_path / "a").read_bytes()
    shutil.rmtree(user_cache / "webfonts")
    again = narrator_page("werewords", "zh", tmp_path / "b")
    assert again.read_bytes() == first
    assert sorted(p.suffix for p in (user_cache / "webfonts").iterdir()) == [".woff2", ".woff2"]


def test_the_policy_allows_fonts_from_data_urls_only(pages):
    html = pages["werewolf", "vi"].read_text(encoding="utf-8")
    policy = unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1))
    rules = dict(rule.split(" ", 1) for rule in policy.split("; "))
    assert rules["font-src"] == "data:" and rules["default-src"] == "'none'"
    # Before the page's own style, which falls back to the system's fonts after them.
    style = re.search(r"<style>(.*)</style>", html, re.S).group(1)
    css = (ROOT / "templates" / "narrator" / "narrator.css").read_text(encoding="utf-8")
    assert style.endswith(css)
    assert ':root { --cardgen-fonts: "cardgen NotoSans", "cardgen NotoSansSC"; }\n' + css in style
    assert "font-family: var(--cardgen-fonts, system-ui), system-ui," in css


@needs_browser
@pytest.mark.parametrize(
    "lang, family, name, title",
    [("zh", "NotoSansSC", "狼人杀", "主持人台词"), ("vi", "NotoSans", "Ma Sói", "Kịch bản quản trò")],
)
def test_chinese_and_vietnamese_are_drawn_in_the_pages_own_fonts(pages, tmp_path, lang, family, name, title):
    with browser(tmp_path / "profile", viewport={"width": 390, "height": 844}) as session:
        page = session.open(pages["werewolf", lang])
        page.evaluate("document.fonts.ready.then(() => true)")
        faces = page.evaluate("[...document.fonts].map(f => [f.family, f.weight, f.status])")
        # The language's family is loaded in both weights (the heading is bold, its tail regular).
        assert [f"cardgen {family}", "400", "loaded"] in faces and [f"cardgen {family}", "700", "loaded"] in faces
        # Every face the page carries is a font chromium can load.
        assert page.evaluate(
            "Promise.all([...document.fonts].map(f => f.load())).then(all => all.map(f => f.status))"
        ) == ["loaded"] * len(faces)
        heading = f"{name} · {title}"
        assert page.text_content("h1") == heading
        assert page.evaluate(f"document.fonts.check('16px \"cardgen {family}\"', {json.dumps(heading)})")
        used = fonts_drawing(page, "h1, h1 span, #players, label")
        assert {f"{family}-Bold", f"{family}-Regular"} <= {name for name, _ in used}
        assert all(custom for _, custom in used), used
        # Laid out with the bundled font's own advance widths, not a system font's.
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('h1')).fontSize)")
        width = page.evaluate("""() => {
            const range = document.createRange();
            range.selectNodeContents(document.querySelector('h1'));
            return range.getBoundingClientRect().width;
        }""")
        expected = stringWidth(name, BOOK.face(family, True, False), size) + stringWidth(
            f" · {title}", BOOK.face(family, False, False), size
        )
        assert width == pytest.approx(expected, rel=0.01)
        assert not session.errors
