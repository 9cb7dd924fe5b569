"""Whole games on the narrator page, in Debian's chromium, in every language of every bundled game.

Each game is played from its setup screen to its end screen by the driver of tests/narrator_play.py
with the taps a table would make over several nights and days (its TABLES), the page's clock faked
and speech stubbed. Asserted: the end names the expected winner in the page's language; every line
spoken is in that language (none of the English page's lines, CJK in Chinese); the lines that
depend on the night's deaths are spoken at the right moment and only then; the page throws no error
and asks for nothing but its own file. The pages are built once, in a module fixture, as
`cardgen build --only narrator` builds them for each table.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardgen.build import BuildOptions, build
from cardgen.core.project import Project
from conftest import ROOT
from narrator_browser import browser, needs_browser
from narrator_play import TABLES, Played, play

LANGS = ("en", "vi", "zh", "es")
SPEECH = {"en": "en-US", "vi": "vi-VN", "zh": "zh-CN", "es": "es-ES"}
# The table each game is built for, as `--players`, `--with`.
BUILDS = {
    "werewolf": {"players": 8, "extra_cards": ("witch", "hunter")},
    "mafia-vendetta": {"players": 7},
    "salem-1692": {"players": 5},
    "werewords": {"players": 5},
}
CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[tuple[str, str], Path]:
    root = tmp_path_factory.mktemp("narrator-games")
    out = {}
    for game, table in BUILDS.items():
        report = build(Project.at(ROOT / "decks"), [game], BuildOptions(out=root, kinds=("narrator",), jobs=1, **table))
        for path in report.files:
            lang = path.name.split("-narrator-", 1)[1][:2]
            out[game, lang] = path
    return out


def page_data(path: Path) -> dict:
    """The deck's data as the page holds it."""
    html = path.read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="deck">(.*?)</script>', html, re.S).group(1))


def said_lines(data: dict) -> set[str]:
    """Every line the page may read aloud from the script, as written (marks and all)."""
    return {
        line["text"]
        for version in data["versions"]
        for phase in version["phases"]
        for line in phase["lines"]
        if line["kind"] == "say"
    }


def played_game(path: Path, game: str, name: str, lang: str, profile: Path) -> tuple[Played, list, list]:
    with browser(profile) as session:
        page = session.open(path, voices=[{"name": lang, "lang": SPEECH[lang]}], clock=True)
        played = play(page, TABLES[game, name]())
        return played, session.errors, [url for url in session.requests if url != path.as_uri()]


CASES = [(game, name) for game, name in TABLES]


@needs_browser
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game,name", CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_a_whole_game_ends_with_its_winner_in_the_pages_language(pages, tmp_path, game, name, lang):
    path = pages[game, lang]
    played, errors, elsewhere = played_game(path, game, name, lang, tmp_path / "profile")
    assert errors == [] and elsewhere == []
    data = page_data(path)
    winner = TABLES[game, name]().winner
    team = next(team["name"] for team in data["teams"] if team["id"] == winner)
    assert team in played.end
    spoken = played.said()
    assert spoken and {line["lang"] for line in played.spoken} == {SPEECH[lang]}
    if lang != "en":
        english = said_lines(page_data(pages[game, "en"])) - said_lines(data)
        assert not [line for line in spoken if line in english]
    if lang == "zh":
        assert all(CJK.search(line) for line in spoken)
