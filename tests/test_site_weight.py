"""A light site (issue 28): sizes measured from the written folder, pictures and fonts checked in chromium.

A one-game, one-language site is at most 3 MB and every bundled game in every language at most 19 MB
(15 MB until the narrator pages, 16 of them in the site, each carried their own font subsets: issue 27;
17 MB until Werewolf in Japanese and Mafia: Vendetta in Persian made 18 games and languages, of about
1 MB each like the others: 18.4 MB measured);
each page loads subsets of the bundled fonts whose cmaps hold every character the browser shows, the
index no Chinese face beyond its "中文" link's characters, and every card picture has at least two
device pixels to a CSS pixel on a 390 px wide phone screen. The same site built twice is the same bytes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from conftest import run
from narrator_browser import browser, needs_browser

MB = 1_000_000
PHONE = {"width": 390, "height": 844}


def _size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def _site(out: Path, *args: str) -> Path:
    result = run("site", *args, "--out", str(out), "-q")
    assert result.exit_code == 0, result.output
    return out / "site"


@pytest.fixture(scope="module")
def everything(tmp_path_factory) -> Path:
    """Every bundled game in every language, once for this module (the slowest site there is)."""
    return _site(tmp_path_factory.mktemp("everything") / "output")


@pytest.fixture(scope="module")
def one(tmp_path_factory) -> Path:
    return _site(tmp_path_factory.mktemp("one") / "output", "werewolf", "--lang", "zh")


def test_one_game_in_one_language_weighs_at_most_3_mb(one):
    assert _size(one) <= 3 * MB
    assert not list(one.rglob("*.ttf")) and not list(one.rglob("*.png"))


def test_every_game_in_every_language_weighs_at_most_19_mb(everything):
    assert len(list(everything.glob("*/*.html"))) >= 18
    assert _size(everything) <= 19 * MB, {kind: _size_of(everything, kind) for kind in ("webp", "woff2", "pdf", "html")}


def _size_of(folder: Path, ext: str) -> int:
    return sum(path.stat().st_size for path in folder.rglob(f"*.{ext}"))


def test_the_same_site_twice_is_the_same_bytes(one, tmp_path):
    again = _site(tmp_path / "output", "werewolf", "--lang", "zh")
    files = sorted(path.relative_to(one) for path in one.rglob("*") if path.is_file())
    assert files == sorted(path.relative_to(again) for path in again.rglob("*") if path.is_file())
    assert all((one / name).read_bytes() == (again / name).read_bytes() for name in files)


def _fonts(html: str) -> list[str]:
    return re.findall(r'src: url\("([^"]+\.woff2)"\)', html)


def test_the_index_loads_no_chinese_face(everything):
    index = (everything / "index.html").read_text(encoding="utf-8")
    assert "中文" in index
    fonts = [everything / url for url in _fonts(index)]
    assert fonts and all(path.is_file() for path in fonts)
    # The few characters of the other languages' names (中文, 日本語), not the 11 MB faces.
    assert all(path.stat().st_size < 20_000 for path in fonts)
    chinese = [path for path in fonts if path.name.startswith("NotoSansSC")]
    for path in chinese:
        assert set(TTFont(str(path)).getBestCmap()) == set(map(ord, "中文日本語"))


@needs_browser
def test_every_picture_is_sharp_at_phone_width_and_every_character_in_the_pages_fonts(everything, tmp_path):
    checked = 0
    with browser(tmp_path / "profile", viewport=PHONE, device_scale_factor=2) as session:
        page = session.context.new_page()
        for path in [everything / "index.html", *sorted(everything.glob("*/*.html"))]:
            if "-narrator-" in path.name:
                continue
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            page.evaluate("document.fonts.ready.then(() => true)")
            for src, natural, shown in page.evaluate(
                "[...document.images].map(i => [i.src, i.naturalWidth, i.getBoundingClientRect().width])"
            ):
                assert src.endswith(".webp") and 0 < shown and natural >= 2 * shown, (path, src, natural, shown)
                checked += 1
            shown_text = page.evaluate("document.body.innerText")
            covered: set[int] = set()
            for url in _fonts(path.read_text(encoding="utf-8")):
                covered |= set(TTFont(str(path.parent / url)).getBestCmap())
            missing = {c for c in shown_text if not c.isspace() and ord(c) not in covered}
            assert not missing, (path, sorted(missing))
    assert checked > 500
