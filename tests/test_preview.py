"""Previews: the contact sheet's pixels, and the gallery as a real headless browser shows it."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from PIL import Image

from conftest import run

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def previewed(tmp_path_factory):
    out = tmp_path_factory.mktemp("preview")
    result = run("preview", "werewolf", "werewords", "--lang", "en", "--lang", "vi", "--dpi", "40", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out, result


def test_contact_sheet_has_every_distinct_card_front(previewed):
    out, result = previewed
    assert result.stdout.splitlines()[-1] == f"{2 * 15 + 2 * (15 + 25 + 1)} cards previewed"
    with Image.open(out / "werewolf" / "werewolf-contact-vi.png") as sheet:
        card_w, card_h = round(63 / 25.4 * 40), round(88 / 25.4 * 40)
        columns, rows = 8, 2  # 15 distinct Werewolf cards, 8 to a row
        assert sheet.size == (columns * (card_w + 12) + 12, rows * (card_h + 12) + 12)


def browse(url: str, user_data_dir, *extra: str) -> str:
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={user_data_dir}",
            "--virtual-time-budget=10000",
            *extra,
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (.ci/run installs it)")
# 15 distinct Werewolf cards and 41 Werewords ones (25 of them word cards), in two languages;
# the werewolves' team: the Werewolf, and Werewords' Werewolf and Minion.
@pytest.mark.parametrize(
    "hash_, shown",
    [("", 112), ("#game=werewolf", 30), ("#game=werewords&lang=vi", 41), ("#lang=en&team=werewolves", 3)],
)
def test_gallery_shows_every_card_and_filters_in_a_real_browser(previewed, tmp_path, hash_, shown):
    out, _ = previewed
    dom = browse((out / "preview" / "index.html").as_uri() + hash_, tmp_path / "chromium", "--dump-dom")
    body = re.search(r"<body ([^>]*)>", dom).group(1)
    attributes = dict(re.findall(r'data-(\w+)="(\d+)"', body))
    assert attributes["cards"] == "112"
    assert attributes["shown"] == str(shown)
    # Every front and back image arrived.
    assert attributes["loaded"] == str(2 * 112)
    assert dom.count("<figure") == 112 and dom.count(" hidden") == 112 - shown


def _game_options(dom: str) -> list[tuple[str, str]]:
    select = re.search(r'<select data-filter="game">(.*?)</select>', dom, re.S).group(1)
    return re.findall(r'<option value="([\w-]*)"[^>]*>([^<]*)</option>', select)


def test_the_gallery_lists_each_game_once(previewed):
    """It listed each game once per language name (Werewolf, Ma Sói...)."""
    out, _ = previewed
    options = _game_options((out / "preview" / "index.html").read_text(encoding="utf-8"))
    assert options == [("", "all"), ("werewolf", "Werewolf"), ("werewords", "Werewords")]


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (.ci/run installs it)")
@pytest.mark.parametrize(
    "hash_, names",
    [("", ["Werewolf", "Werewords"]), ("#lang=vi", ["Ma Sói", "Werewords"]), ("#lang=en", ["Werewolf", "Werewords"])],
)
def test_the_gallery_names_each_game_in_the_language_shown(previewed, tmp_path, hash_, names):
    """It showed "Hombres Lobo" for the Chinese view: the first name in alphabetical order, whatever the language."""
    out, _ = previewed
    dom = browse((out / "preview" / "index.html").as_uri() + hash_, tmp_path / "chromium", "--dump-dom")
    assert [text for value, text in _game_options(dom) if value] == names
