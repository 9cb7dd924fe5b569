"""Setups by team and table rules (issue 26): a row that counts a team or a pool, what `cardgen setup`
says to choose, --roles checked against it, a game with no setups dealt by --roles, and the bundled
games' table rules as warnings (the exact messages, --strict failing on them, the narrator page's
setup screen showing them)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdf
import pytest

from cardgen.build import card_sizes, check, document_text
from cardgen.core.project import Project
from cardgen.deck.resolve import AnyGlyph, resolve_deck
from cardgen.deck.tonight import tonight
from conftest import FIXTURES, ROOT, run, table
from narrator_browser import browser, choose_table, needs_browser

BY_TEAM = """  by-team:
    name: {en: "By team", es: "Por equipo"}
    players: [4, 5, 6]
    cards:
      wolves: [1, 1, 2]
      powers: [1, 2, 2]
    pools:
      powers: [seer, hunter]
    fill: villager
"""


@pytest.fixture
def teams(tmp_path) -> Path:
    """The night test game with a setup that counts a team (wolves) and a pool (powers)."""
    shutil.copytree(FIXTURES / "night", tmp_path / "project")
    game = tmp_path / "project" / "decks" / "night" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + BY_TEAM, encoding="utf-8")
    return tmp_path / "project"


def setup(project: Path, *args: str):
    return run("setup", "night", "--decks", str(project / "decks"), "--setup", "by-team", *args)


def test_a_team_counted_row_says_what_to_choose(teams):
    result = setup(teams, "--players", "6")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "night, 6 players (by-team): 6 cards\n"
        "    2 x Villager\n"
        "    2 x wolves, your choice of: Wolf\n"
        "    2 x powers, your choice of: Seer, Hunter\n"
    )
    assert result.stderr == ""
    result = setup(teams, "--players", "6", "--json")
    answer = json.loads(result.stdout)
    assert {key: answer[key] for key in ("game", "players", "components", "choose")} == {
        "game": "night",
        "players": 6,
        "components": {"villager": 2},
        "choose": {"wolves": {"n": 2, "from": ["wolf"]}, "powers": {"n": 2, "from": ["seer", "hunter"]}},
    }
    # Every card of a pool may be chosen, so each is called in its place in the nights.
    assert [call["id"] for call in answer["nights"]["first"]] == ["hunter", "seer", "wolf"]


def test_a_with_card_of_a_pool_is_one_of_its_choices(teams):
    result = setup(teams, "--players", "5", "--with", "hunter")
    assert result.stdout == (
        "night, 5 players (by-team): 5 cards\n"
        "    2 x Villager\n"
        "    1 x Hunter\n"
        "    1 x wolves, your choice of: Wolf\n"
        "    1 x powers, your choice of: Seer, Hunter\n"
    )


def test_roles_are_checked_against_the_rows_counts_per_team(teams):
    result = setup(teams, "--roles", "wolf,hunter,seer,villager:3")
    assert result.exit_code == 0
    line = (teams / "decks" / "night" / "game.yaml").read_text(encoding="utf-8").splitlines().index("  by-team:") + 1
    assert result.stderr == (
        f"decks/night/game.yaml:{line}: warning: --roles: 1 wolves cards, where the 6-player row of setup "
        "'by-team' takes 2\n"
    )
    assert setup(teams, "--roles", "wolf:2,hunter,seer,villager:2").stderr == ""


def pdf_text(path: Path) -> str:
    return " ".join(" ".join((page.extract_text() or "").split()) for page in pypdf.PdfReader(path).pages)


def test_a_tailored_script_and_the_rulebook_of_a_team_counted_row_in_two_languages(teams, tmp_path):
    out = tmp_path / "out"
    result = run(
        "build", "night", "--decks", str(teams / "decks"), "--setup", "by-team", "--players", "6",
        "--lang", "en", "--lang", "es", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    english = pdf_text(out / "night" / f"night-script-en-{table(6, setup='by-team')}.pdf")
    assert (
        "Take these 2 cards: 2 × Villager. Add 2 of your choice from: Wolf. "
        "Add 2 of your choice from: Seer, Hunter. Shuffle them and deal one face down to each player."
    ) in english
    # Every card of the pools may be in play: the script calls the Seer.
    assert "Seer, open your eyes." in english
    assert (
        "Toma estas 2 cartas: 2 × Aldeano. Añade 2 a tu elección de entre: Lobo. "
        "Añade 2 a tu elección de entre: Vidente, Cazador. Barájalas y reparte una boca abajo a cada jugador."
    ) in pdf_text(out / "night" / f"night-script-es-{table(6, setup='by-team')}.pdf")
    # The rulebook's table: a row for the team (its name) and one for the pool (its cards).
    assert "By team Players 4 5 6 Villager 2 2 2 Wolves 1 1 2 Hunter / Seer 1 2 2" in pdf_text(
        out / "night" / "night-rulebook-en.pdf"
    )
    assert "Por equipo Jugadores 4 5 6 Aldeano 2 2 2 Lobos 1 1 2 Cazador / Vidente 1 2 2" in pdf_text(
        out / "night" / "night-rulebook-es.pdf"
    )


def test_a_game_without_setups_is_dealt_by_roles(mini, tmp_path):
    result = run("setup", "mini", "--decks", str(mini / "decks"), "--roles", "wolf:2,seer")
    assert result.exit_code == 0, result.output
    assert result.stdout == "mini, 3 players (--roles): 3 cards\n    2 x Wolf\n    1 x Seer\n"
    out = tmp_path / "out"
    result = run(
        "build", "mini", "--decks", str(mini / "decks"), "--roles", "wolf,seer", "--lang", "en", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    assert (out / "mini" / "mini-cards-en.pdf").is_file()


# --- the bundled games' table rules ----------------------------------------------------------------


def line_of(game: str, text: str) -> int:
    return (ROOT / "decks" / game / "game.yaml").read_text(encoding="utf-8").splitlines().index(text) + 1


LEADER = "No more than one Leader plays in a game."
ILLEGAL = [
    ("mafia-vendetta", "detective,sheriff,nurse,thug:2,bystander:2", "  - at-most: 1", "", LEADER),
    (
        "mafia-vendetta",
        "detective,yakuza,lawyer,thug:2,bystander:7",
        "  - never-with: [mobsters]",
        "",
        "With the Yakuza in the game, no Mobster is dealt.",
    ),
    (
        "mafia-vendetta",
        "detective,psycho,thug:2,bystander:3",
        "  - from-players: 10",
        "",
        "A Loner plays only at tables of 10 players or more.",
    ),
    (
        "werewords",
        "mayor,seer,werewolf,villager:6",
        "  - exactly: [1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3]",
        "",
        "Werewolves: 1 with 4–6 players, 2 with 7–11 players, 3 with 12 players or more.",
    ),
    (
        "werewords",
        "mayor,seer,werewolf,mason,villager:2",
        "  - at-least: 2",
        " (a house rule)",
        "The Masons are dealt together: both of them, or neither.",
    ),
]


@pytest.mark.parametrize("game, roles, rule, house, words", ILLEGAL, ids=[i[1] for i in ILLEGAL])
def test_the_issues_illegal_tables_warn_in_the_rules_words(game, roles, rule, house, words):
    result = run("setup", game, "--roles", roles)
    assert result.exit_code == 0
    assert result.stderr == (
        f"decks/{game}/game.yaml:{line_of(game, rule)}: warning: --roles: the table breaks a rule{house}: {words}\n"
    )


def test_a_with_card_that_breaks_a_rule_warns_and_strict_fails_on_it(tmp_path):
    result = run("setup", "mafia-vendetta", "--players", "12", "--with", "sheriff")
    where = f"decks/mafia-vendetta/game.yaml:{line_of('mafia-vendetta', '  - at-most: 1')}"
    assert result.stderr == f"{where}: warning: --with: the table breaks a rule: {LEADER}\n"
    result = run(
        "build", "werewords", "--roles", "mayor,seer,werewolf,villager:6", "--players", "8", "--strict",
        "--lang", "en", "--out", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 1
    assert "warning: --roles: the table breaks a rule: Werewolves: 1 with 4–6 players" in result.stderr


@pytest.mark.parametrize("game", ["mafia-vendetta", "werewords", "werewolf", "salem-1692"])
def test_every_row_of_the_bundled_setups_keeps_the_games_rules(game):
    project = Project.at(ROOT / "decks")
    (files,), _ = check(project, [game], strict=False)
    deck, _ = resolve_deck(files, "en", None, card_sizes(project), AnyGlyph())
    text = document_text(project.template_data, "en")
    for each in deck.setups:
        for players in each.players:
            table = tonight(deck, files.checked_game.where(), text, players, each.id, ())
            assert table.warnings == (), (each.id, players)
    assert len(deck.table_rules) == {"mafia-vendetta": 5, "werewords": 2}.get(game, 0)


@needs_browser
def test_the_narrator_setup_screen_shows_a_broken_rule_in_its_words(tmp_path):
    result = run("narrator", "mafia-vendetta", "--lang", "en", "--out", str(tmp_path / "out"), "--no-open")
    assert result.exit_code == 0, result.output
    with browser(tmp_path / "profile") as session:
        page = session.open(Path(result.output.strip()))
        choose_table(page, players=12)
        assert not page.query_selector("#table-rules")
        page.click('input[data-card="sheriff"]')  # a second Leader beside the Detective
        assert page.inner_text("#table-rules") == f"These cards break a rule of the game:\n{LEADER}"
        page.click('input[data-card="sheriff"]')
        assert not page.query_selector("#table-rules")
        choose_table(page, players=12, setup=1)  # Yakuza mode: a Mobster joins
        page.click('input[data-card="thief"]')
        assert "With the Yakuza in the game, no Mobster is dealt." in page.inner_text("#table-rules")
        page.click("#start")  # a warning, not a lock: the game starts
        assert page.query_selector("nav .next") and not page.query_selector("#start")
        assert session.errors == []


@needs_browser
def test_the_narrator_page_deals_a_team_counted_row_and_the_ticked_cards_are_chosen(teams, tmp_path):
    result = run(
        "narrator", "night", "--decks", str(teams / "decks"), "--lang", "en", "--out", str(tmp_path / "out"),
        "--no-open",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    with browser(tmp_path / "profile") as session:
        page = session.open(Path(result.output.strip()))
        choose_table(page, players=6, setup=2)
        script = page.text_content("#script")
        assert (
            "Take these 2 cards: 2 × Villager. Add 2 of your choice from: Wolf. Add 2 of your choice from: Seer, Hunter."
            in script
        )
        page.click('input[data-card="hunter"]')
        script = page.text_content("#script")
        assert (
            "Take these 3 cards: 2 × Villager, 1 × Hunter. Add 2 of your choice from: Wolf. "
            "Add 1 of your choice from: Seer, Hunter."
        ) in script
        assert page.is_checked('input[data-card="hunter"]')
        page.click("#start")
        assert page.query_selector("nav .next") and session.errors == []
