"""Whole games on the narrator page, in Debian's chromium, in every language of every bundled game.

Each game is played from its setup screen to its end screen by the driver of tests/narrator_play.py,
with the taps a table would make over several nights and days (narrator_play.TABLES), the page's
clock faked and speech stubbed. Asserted, in each language: the end names the expected winner; every
line spoken is in the page's language (no line of the English page, Chinese characters in every
Chinese line, Japanese in every Japanese one, Persian letters in every Persian one);
the lines about the night's deaths are spoken when they apply and only then (a quiet night has no
death line, the Hunter's shot follows his death); a reload in the middle of Werewolf's day vote
loses nothing; Werewords runs with no narrator, the Mayor's
secret role chosen on the private screen, once with the word found and once not; the page throws
no error and asks for nothing but its own file. The pages are built once, in a module fixture, as
`cardgen build --only narrator --players N` builds them.
"""

from __future__ import annotations

import fcntl
import json
import re
from pathlib import Path

import pytest
import yaml

from cardgen.build import BuildOptions, build
from cardgen.core.project import Project
from conftest import ROOT
from narrator_browser import ARGS, CHROMIUM, Session, needs_browser, sync_playwright
from narrator_play import TABLES, Played, play

# The voice each language asks the browser for, as the page's own words say it.
SPEECH = {
    lang: words["speech"]
    for lang, words in yaml.safe_load((ROOT / "templates/narrator/text.yaml").read_text(encoding="utf-8")).items()
}
# The table each game's pages are built for (--players, --with): the one its TABLES play.
BUILDS = {
    "werewolf": {"players": 8, "extra_cards": ("witch", "hunter")},
    "mafia-vendetta": {"players": 7},
    "salem-1692": {"players": 5},
    "werewords": {"players": 5},
}
# A line of the page's language, where its script tells: Chinese characters, or Japanese kana and kanji.
SCRIPT = {
    "zh": re.compile(r"[\u3400-\u9fff]"),
    "ja": re.compile(r"[\u3040-\u30ff\u3400-\u9fff]"),
    "fa": re.compile(r"[\u0600-\u06ff]"),
}
# Where a line names the deaths or the winner, as the page's lineText fills it.
PLACEHOLDER = re.compile(r"\[[^\]]+\]|…+")


@pytest.fixture(scope="module")
def pages(tmp_path_factory, worker_id) -> dict[tuple[str, str], Path]:
    """The pages, built once for the whole run: the first test process builds them, under a lock, and
    the others find them built (each page carries its font subsets, which take a while to make)."""
    if worker_id == "master":
        root = tmp_path_factory.mktemp("narrator-games")
    else:
        root = tmp_path_factory.getbasetemp().parent / "narrator-games"
        root.mkdir(exist_ok=True)
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for game, table in BUILDS.items():
            build(Project.at(ROOT / "decks"), [game], BuildOptions(out=root, kinds=("narrator",), jobs=1, **table))
    pages = sorted(root.glob("*/*-narrator-*.html"))
    return {(path.parent.name, path.name.split("-narrator-", 1)[1][:2]): path for path in pages}


def page_data(path: Path) -> dict:
    """The deck's data as the page holds it."""
    html = path.read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="deck">(.*?)</script>', html, re.S).group(1))


def lines(data: dict, version: str | None = None, **marks) -> set[str]:
    """The spoken lines of the page's script (of one version), those with these marks only."""
    return {
        line["text"]
        for v in data["versions"]
        if version in (None, v["id"])
        for phase in v["phases"]
        for line in phase["lines"]
        if line["kind"] == "say" and all(line.get(key) == value for key, value in marks.items())
    }


def version(data: dict, table) -> dict:
    """The script version the table plays: the one it names, or the page's first."""
    return next((v for v in data["versions"] if v["id"] == table.version), data["versions"][0])


def death_lines(data: dict) -> set[str]:
    """Lines read only for a death just now: marked if-deaths true or if-died."""
    return {
        line["text"]
        for v in data["versions"]
        for phase in v["phases"]
        for line in phase["lines"]
        if line.get("deaths") is True or line.get("died")
    }


def spoken_after_each(played: Played, event: tuple[str, str]) -> list[list[str]]:
    """For each time `event` happened: the lines spoken from then to the next time (or the end)."""
    starts = [i for i, e in enumerate(played.events) if e == event]
    ends = [*starts[1:], len(played.events)]
    return [[text for kind, text in played.events[a + 1 : b] if kind == "say"] for a, b in zip(starts, ends)]


@pytest.fixture(scope="module")
def english(pages) -> dict[str, set[str]]:
    """Per game, every line the English page may speak: its script's and its own phrases."""
    out = {}
    for game in BUILDS:
        data = page_data(pages[game, "en"])
        out[game] = lines(data) | {text for text in data["t"].values() if isinstance(text, str) and " " in text}
    return out


@pytest.fixture(scope="module")
def chromium():
    """One browser for the module; each game gets a fresh context of its own (its own storage)."""
    with sync_playwright() as playwright:
        running = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield running
        running.close()


def languages(game: str) -> list[str]:
    return yaml.safe_load((ROOT / "decks" / game / "game.yaml").read_text(encoding="utf-8"))["languages"]


# Each table of each game, in every language the game has.
CASES = [(game, name, lang) for game, name in TABLES for lang in languages(game)]


@needs_browser
@pytest.mark.parametrize("game,name,lang", CASES, ids=[f"{g}-{n}-{lang}" for g, n, lang in CASES])
def test_a_whole_game_plays_to_its_end_in_the_pages_language(pages, english, chromium, game, name, lang):
    path = pages[game, lang]
    data = page_data(path)
    t = data["t"]
    table = TABLES[game, name]()
    session = Session(chromium.new_context())
    try:
        page = session.open(path, voices=[{"name": lang, "lang": SPEECH[lang]}], clock=True)
        played = play(page, table)
    finally:
        session.context.close()
    assert session.errors == []
    assert set(session.requests) == {path.as_uri()}
    spoken = played.said()
    end = [line for phase in version(data, table)["phases"] if phase["kind"] == "end" for line in phase["lines"]]
    if isinstance(table.winner, int):
        # The ending tapped is the one line of the end read aloud, and the end screen shows it.
        assert played.end[:2] == [t["game_over"], played.ending]
        assert spoken[-1] == played.ending
        assert not {line["text"] for line in end if line["kind"] == "say"} & set(spoken[:-1])
    else:
        team = next(team["name"] for team in data["teams"] if team["id"] == table.winner)
        assert played.end[:2] == [t["game_over"], t["winner"].format(team=team)]
        # A line that names the winner is read with the team's name in its place.
        named = [line["text"] for line in end if line.get("winners") and PLACEHOLDER.search(line["text"])]
        assert spoken[-1] == (PLACEHOLDER.sub(team, named[0], count=1) if named else t["winner"].format(team=team))
    assert {line["lang"] for line in played.spoken} == {SPEECH[lang]}
    if lang != "en":
        own = lines(data) | set(t.values())
        assert [line for line in spoken if line in english[game] - own] == []
    if lang in SCRIPT:
        assert [line for line in spoken if not SCRIPT[lang].search(line)] == []
    CHECKS[game](played, data, table)


def werewolf(played: Played, data: dict, table) -> None:
    t = data["t"]
    quiet, deadly = spoken_after_each(played, ("tap", "announce"))
    # Night 1: the Witch saved the werewolves' victim. Nothing about a death until the next dawn.
    assert quiet[0] == t["dawn_none"]
    assert not set(quiet) & death_lines(data)
    # Night 2: the Hunter was killed: his shot is called after the announcement, and he takes werewolf 3.
    hunter = next(iter(lines(data, died=["hunter"], choices=["kill"])))
    assert deadly[0] == t["dawn_deaths"].format(names="Grace") and hunter in deadly
    assert played.taps()[-2:] == ["kill 3", "winner village"]
    # The reload between the day's vote and its confirmation lost nothing: the vote-out went through.
    assert ("reload", "") in played.events
    assert played.alive == [False, True, True, False, True, True, False, True]


def mafia(played: Played, data: dict, table) -> None:
    t = data["t"]
    nights = spoken_after_each(played, ("tap", "announce"))
    # No one dies on Mafia's first night, and the Nurse saved the second night's target: two quiet dawns,
    # and the Mafia's "killed [name]" never read.
    assert [spoken[0] for spoken in nights] == [t["dawn_none"]] * 2
    assert not set(played.said()) & death_lines(data)
    assert played.alive == [False, False, True, True, True, True, True]


def salem(played: Played, data: dict, table) -> None:
    (night,) = spoken_after_each(played, ("tap", "announce"))
    assert night[0] == data["t"]["dawn_none"]
    assert played.alive == [False, True, True, True, True]


def werewords(played: Played, data: dict, table) -> None:
    t = data["t"]
    spoken = set(played.said())
    # Nobody narrates: every line comes from the version the page runs alone, none from the narrator's.
    assert not spoken & (lines(data, "moderator") - lines(data, "table"))
    assert played.taps()[0] == f"secret-role {table.secret_role}"
    word = played.taps()[1].removeprefix("word ")
    # The Mayor, the Seer and the werewolves each saw the word on the private screen, and so does
    # everyone at the end.
    assert [text for kind, text in played.events if kind == "private"] == [word] * 3
    assert played.end[2:4] == [t["the_word"], word]
    found, lost = lines(data, "table", guessed=True), lines(data, "table", guessed=False)
    assert spoken & (found if table.guessed else lost)
    assert not spoken & (lost if table.guessed else found)


CHECKS = {"werewolf": werewolf, "mafia-vendetta": mafia, "salem-1692": salem, "werewords": werewords}
