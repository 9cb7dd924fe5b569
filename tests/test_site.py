"""cardgen site (issue 16): a folder the whole group downloads from, opened in Debian's chromium.

Every link resolves inside the folder, every picture loads, no request leaves the folder, and the
Chinese and Vietnamese text is set in the bundled fonts: the width the browser lays a heading out
at is the width the bundled font's own advance widths give, which a system font's are not.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

from cardgen.text.fonts import FontBook
from conftest import ROOT, run
from narrator_browser import browser, fonts_drawing, needs_browser

KINDS = ["cards", "rulebook", "script", "narrator"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "output"
    result = run("site", "werewolf", "--lang", "zh", "--lang", "vi", "--out", str(out), "-q")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == str(out / "site" / "index.html")
    return out


def test_a_page_per_game_and_language_with_every_output_copied_in(site):
    root = site / "site"
    for lang in ("zh", "vi"):
        page = (root / "werewolf" / f"{lang}.html").read_text(encoding="utf-8")
        for kind in KINDS:
            name = f"werewolf-{kind}-{lang}.{'html' if kind == 'narrator' else 'pdf'}"
            assert f'href="{name}"' in page
            assert (root / "werewolf" / name).read_bytes() == (site / "werewolf" / name).read_bytes()
    index = (root / "index.html").read_text(encoding="utf-8")
    assert 'href="werewolf/zh.html"' in index and 'href="werewolf/vi.html"' in index
    # Subsets of the bundled fonts, named by their content, each far smaller than its font.
    fonts = sorted(p.name for p in (root / "fonts").iterdir())
    assert {re.sub(r"\.[0-9a-f]{12}\.woff2$", ".ttf", name) for name in fonts} == {
        "NotoSansSC_400Regular.ttf",
        "NotoSansSC_700Bold.ttf",
        "NotoSans_400Regular.ttf",
        "NotoSans_700Bold.ttf",
    }
    assert all((root / "fonts" / name).stat().st_size < 200_000 for name in fonts)


def test_the_printing_guide_is_in_the_pages_language(site):
    zh = (site / "site" / "werewolf" / "zh.html").read_text(encoding="utf-8")
    vi = (site / "site" / "werewolf" / "vi.html").read_text(encoding="utf-8")
    assert "<h2>打印与裁切</h2>" in zh and "<strong>按 100 %（“实际大小”）打印</strong>" in zh
    assert "<h2>In và cắt bài</h2>" in vi and "<strong>In hai mặt, lật theo cạnh dài.</strong>" in vi
    assert '<html lang="zh">' in zh and '<html lang="vi">' in vi


def test_the_site_is_built_from_the_same_build(site):
    # The site's build is cardgen build's: the same outputs, up to date for the next build.
    result = run("build", "werewolf", "--lang", "zh", "--lang", "vi", "--out", str(site))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("up to date (8 files)")


def test_a_language_left_out_is_gone_from_the_next_site(tmp_path):
    out = tmp_path / "output"
    assert run("site", "werewords", "--lang", "en", "--lang", "es", "--out", str(out), "-q").exit_code == 0
    assert (out / "site" / "werewords" / "es.html").is_file()
    assert run("site", "werewords", "--lang", "en", "--out", str(out), "-q").exit_code == 0
    assert (
        sorted(p.name for p in (out / "site" / "werewords").iterdir() if p.is_file())[-1] == "werewords-script-en.pdf"
    )
    assert not (out / "site" / "werewords" / "es").exists() and not (out / "site" / "werewords" / "es.html").exists()


def _pages(root: Path) -> list[Path]:
    return sorted(root.rglob("*.html"))


@needs_browser
def test_every_link_resolves_every_picture_loads_and_nothing_leaves_the_folder(site, tmp_path):
    root = site / "site"
    with browser(tmp_path / "profile") as session:
        page = session.context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        checked_links = checked_images = 0
        for path in _pages(root):
            if "-narrator-" in path.name:
                continue  # the narrator page's own tests open it
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            links = page.evaluate("[...document.querySelectorAll('a[href], link[href]')].map(a => a.href)")
            for url in links:
                target = Path(unquote(urlparse(url).path))
                assert url.startswith("file://") and target.is_file() and target.is_relative_to(root), (path, url)
                checked_links += 1
            images = page.evaluate("[...document.images].map(i => [i.src, i.complete && i.naturalWidth > 0])")
            assert images or path.name == "index.html"
            for url, loaded in images:
                assert loaded, (path, url)
                checked_images += 1
        assert errors == []
        # The index: a link per language and the styles; each page: every game, the other language, 4 files, the styles.
        assert (checked_links, checked_images) == (3 + 2 * 7, 2 * 2 * 15)
        outside = [
            url
            for url in session.requests
            if not (url.startswith("file://") and Path(unquote(urlparse(url).path)).is_relative_to(root))
        ]
        assert outside == []
        assert any(re.search(r"/fonts/NotoSansSC_400Regular\.[0-9a-f]{12}\.woff2$", url) for url in session.requests)


BOOK = FontBook.load(ROOT / "templates" / "fonts.yaml", [ROOT / "fonts"])
# The PostScript names of the bundled fonts' faces, from their own name tables.
BUNDLED = {
    TTFont(path.stem, str(path)).face.name.decode() for faces in BOOK.families.values() for path in faces.values()
}


@needs_browser
@pytest.mark.parametrize(
    "lang, heading, faces",
    [
        ("zh", "狼人杀", {"NotoSansSC-Regular", "NotoSansSC-Bold"}),
        ("vi", "Ma Sói", {"NotoSans-Regular", "NotoSans-Bold"}),
    ],
)
def test_chinese_and_vietnamese_are_set_in_the_bundled_fonts(site, tmp_path, lang, heading, faces):
    with browser(tmp_path / "profile") as session:
        page = session.context.new_page()
        page.goto((site / "site" / "werewolf" / f"{lang}.html").as_uri())
        page.wait_for_load_state("load")
        page.evaluate("document.fonts.ready.then(() => true)")
        used = fonts_drawing(page, "h1, h2, nav, .downloads li, figcaption, .guide li")
        # The page's language in its own fonts first; the other languages' names may take another bundled one.
        assert faces <= {name for name, _ in used} <= BUNDLED
        assert all(custom for _, custom in used)
        # Laid out with the bundled font's own advance widths (a serif system font's differ).
        width, size, serif = page.evaluate("""() => {
            const h1 = document.querySelector('h1'), range = document.createRange();
            range.selectNodeContents(h1);
            const style = getComputedStyle(h1), canvas = document.createElement('canvas').getContext('2d');
            canvas.font = `${style.fontWeight} ${style.fontSize} serif`;
            return [range.getBoundingClientRect().width, parseFloat(style.fontSize),
                    canvas.measureText(h1.textContent).width];
        }""")
        family = "NotoSansSC" if lang == "zh" else "NotoSans"
        expected = stringWidth(heading, BOOK.face(family, True, False), size)
        assert width == pytest.approx(expected, rel=0.01)
        if lang == "vi":  # ideographs are one em wide in any Chinese font: only Latin tells fonts apart so
            assert abs(serif - expected) / expected > 0.02


def _pictures(site_root: Path) -> dict[str, tuple[int, bytes]]:
    return {
        p.relative_to(site_root).as_posix(): (p.stat().st_mtime_ns, p.read_bytes())
        for p in sorted(site_root.rglob("*.webp"))
    }


def test_a_site_again_draws_only_the_card_pictures_whose_cards_changed(tmp_path):
    import shutil

    from conftest import copy_werewolf_box

    decks = tmp_path / "decks"
    shutil.copytree(copy_werewolf_box(decks), decks / "wolves")
    out = tmp_path / "output"

    def site(*args: str) -> str:
        result = run("site", "--decks", str(decks), "--lang", "en", "--lang", "vi", "--out", str(out), *args)
        assert result.exit_code == 0, result.output
        return result.stdout.splitlines()[-1]

    assert "card pictures drawn for 4 of 4 pages" in site()
    first, pages = _pictures(out / "site"), {p: p.read_bytes() for p in (out / "site").rglob("*.html")}
    # Two games, two languages, a front of every card of the box; the backs, the same in both, once a game.
    fronts = 2 * 2 * len(list((decks / "werewolf" / "roles").glob("*.yaml")))
    assert fronts < len(first) < fronts + 2 * 4
    # Nothing changed: every picture is the file the first site wrote, and so is every page.
    assert "card pictures drawn for 0 of 4 pages" in site()
    assert _pictures(out / "site") == first
    assert {p: p.read_bytes() for p in (out / "site").rglob("*.html")} == pages

    # A card of one game renamed: that game's pictures are drawn again, in both languages; the other's stay.
    seer = decks / "wolves" / "roles" / "seer.yaml"
    seer.write_text(seer.read_text(encoding="utf-8").replace('en: "Seer"', 'en: "Oracle"', 1), encoding="utf-8")
    assert "card pictures drawn for 2 of 4 pages" in site()
    again = _pictures(out / "site")
    # The other game's pictures are the files the first site wrote; pictures are named by their content,
    # so the renamed card's front is a new file, and the old one is gone.
    assert {name: again[name] for name in again if name.startswith("werewolf/")} == {
        name: first[name] for name in first if name.startswith("werewolf/")
    }
    oracle = "wolves/" + _picture(out / "site" / "wolves" / "en.html", "Oracle, front")
    assert oracle in again and oracle not in first
    seer = "wolves/" + _picture(out / "site" / "werewolf" / "en.html", "Seer, front")
    assert seer in first and seer not in again

    # A picture changed by hand is drawn again, with its language's others.
    seer_vi = out / "site" / "werewolf" / _picture(out / "site" / "werewolf" / "vi.html", "Tiên tri, mặt trước")
    seer_bytes = seer_vi.read_bytes()
    seer_vi.write_bytes(b"not a picture")
    assert "card pictures drawn for 1 of 4 pages" in site()
    assert seer_vi.read_bytes() == seer_bytes


def _picture(page: Path, alt: str) -> str:
    """The picture a page shows with that alternative text, relative to the page's folder."""
    match = re.search(rf'<img src="([^"]+)" alt="{re.escape(alt)}"', page.read_text(encoding="utf-8"))
    assert match, (page, alt)
    return match[1]
