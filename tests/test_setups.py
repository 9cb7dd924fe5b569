"""Playing the setup you choose (issue 15): --roles, tailored -Np files, --only-needed sheets, setup --list,
community setups in the rulebook; read back from the PDFs and the exact messages a user sees."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pdfplumber
import pypdf
import pypdfium2
import pytest

from cardgen.build import card_sizes
from cardgen.core.project import Project
from cardgen.deck.load import load_game
from cardgen.deck.resolve import AnyGlyph, resolve_deck
from cardgen.deck.tonight import printed, tonight
from conftest import ROOT, run, table
from test_game_night_engine import build as build_night

NINE = "werewolf:3,seer,witch,hunter,guard,villager:2"  # the "Done when" table
TABLE = table(9, roles=NINE)  # what its file names say of it


def joined(path: Path) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(path).pages)


def card_names(path: Path) -> Counter:
    """The names printed on the card fronts, counted: the words set large (a card's title), joined
    into one name where they stand side by side on one line of one card."""
    names: Counter = Counter()
    # pypdfium2 finds the front pages: pypdf takes seconds over the patterned backs.
    document = pypdfium2.PdfDocument(path)
    fronts = [i for i in range(len(document)) if "· fronts ·" in document[i].get_textpage().get_text_range()]
    with pdfplumber.open(path, pages=[i + 1 for i in fronts]) as pdf:
        for page in pdf.pages:
            words = sorted(
                (w for w in page.extract_words(extra_attrs=["size"]) if w["size"] >= 12),
                key=lambda w: (round(w["top"]), w["x0"]),
            )
            name, last = [], None
            for word in words:
                if last and (round(word["top"]) != round(last["top"]) or word["x0"] - last["x1"] > 8):
                    names[" ".join(name)] += 1
                    name = []
                name.append(word["text"])
                last = word
            if name:
                names[" ".join(name)] += 1
    return names


def line_of(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1


# --- the one command of the "Done when" ------------------------------------------------------


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """The whole box built, then the evening of 9 players with --only-needed into the same folder:
    (out folder, the box's bytes and manifest entries before, the tailored build's result)."""
    out = tmp_path_factory.mktemp("evening")
    box = run("build", "werewolf", "--lang", "en", "--out", str(out), "--jobs", "1")
    assert box.exit_code == 0, box.output
    folder = out / "werewolf"
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    manifest = json.loads((out / "cardgen-manifest.json").read_text())["outputs"]
    result = run(
        "build", "werewolf", "--lang", "en", "--roles", NINE, "--only-needed", "--out", str(out), "--jobs", "1"
    )
    assert result.exit_code == 0, result.output
    return out, before, manifest, result


def test_the_evening_prints_exactly_its_cards_and_a_player_aid_a_seat(evening):
    out, _, _, result = evening
    assert card_names(out / "werewolf" / f"werewolf-cards-en-{TABLE}.pdf") == Counter(
        {"Werewolf": 3, "Seer": 1, "Witch": 1, "Hunter": 1, "Guard": 1, "Villager": 2, "Player aid": 9}
    )
    assert result.stdout.splitlines()[-1].endswith(
        "; 1 up to date; --only-needed: 3 sheets of cards instead of 7 (4 saved)"
    )


def test_the_evening_s_script_calls_exactly_its_roles_in_night_order(evening):
    out, _, _, _ = evening
    text = joined(out / "werewolf" / f"werewolf-script-en-{TABLE}.pdf")
    assert "9 players, roles chosen for tonight" in text
    first_night = text[text.index("First night") : text.index("Day ")]
    calls = [part.rsplit(". ", 1)[-1].strip() for part in first_night.split(", open your eyes.")[:-1]]
    assert calls == ["Guard", "Seer", "Werewolves", "Witch", "Everyone"]  # then dawn breaks
    for absent in ("Cupid", "Thief", "Pied Piper", "Possibly nobody holds this card"):
        assert f"{absent}, open your eyes." not in text


def test_the_evening_s_files_sit_beside_the_unchanged_whole_box(evening):
    out, before, manifest, result = evening
    folder = out / "werewolf"
    assert sorted(path.name for path in folder.iterdir()) == [
        f"werewolf-cards-en-{TABLE}.pdf",
        "werewolf-cards-en.pdf",
        f"werewolf-narrator-en-{TABLE}.html",
        "werewolf-narrator-en.html",
        "werewolf-rulebook-en.pdf",
        f"werewolf-script-en-{TABLE}.pdf",
        "werewolf-script-en.pdf",
    ]
    assert {name: (folder / name).read_bytes() for name in before} == before
    after = json.loads((out / "cardgen-manifest.json").read_text())["outputs"]
    assert {key: after[key] for key in manifest} == manifest
    assert result.stdout.splitlines()[:3] == [
        f"{folder / f'werewolf-cards-en-{TABLE}.pdf'}",
        f"{folder / f'werewolf-script-en-{TABLE}.pdf'}",
        f"{folder / f'werewolf-narrator-en-{TABLE}.html'}",
    ]
    again = run("build", "werewolf", "--lang", "en", "--out", str(out), "--jobs", "1")
    assert again.stdout.startswith("up to date (4 files)")
    again = run("build", "werewolf", "--lang", "en", "--roles", NINE, "--only-needed", "--out", str(out))
    assert again.stdout.startswith("up to date (4 files)")


def test_without_only_needed_a_table_gets_its_script_and_the_box_s_cards(tmp_path):
    result = run("build", "werewolf", "--lang", "en", "--players", "10", "--out", str(tmp_path), "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in (tmp_path / "werewolf").iterdir()) == [
        "werewolf-cards-en.pdf",
        "werewolf-narrator-en-10p.html",
        "werewolf-rulebook-en.pdf",
        "werewolf-script-en-10p.pdf",
    ]
    assert "--only-needed" not in result.stdout
    listed = run(
        "build", "werewolf", "--lang", "en", "--roles", NINE, "--only-needed", "--out", "o", "--list-targets", "--json"
    )
    assert json.loads(listed.stdout)["targets"][0]["outputs"] == [
        f"o/werewolf/werewolf-cards-en-{TABLE}.pdf",
        "o/werewolf/werewolf-rulebook-en.pdf",
        f"o/werewolf/werewolf-script-en-{TABLE}.pdf",
        f"o/werewolf/werewolf-narrator-en-{TABLE}.html",
    ]


# --- the deal in the setup phase, in every language ----------------------------------------------------


def test_the_setup_phase_deals_exactly_the_roles_given(night):
    result, out = build_night(night, "--lang", "en", "--roles", "wolf:2,hunter,villager:2")
    assert result.exit_code == 0, result.output
    text = joined(out / f"night-script-en-{table(4, roles='wolf:2,hunter,villager:2')}.pdf")
    plain, bell = text.split("Bell Setup")
    for version in (plain, bell):
        assert (
            "Take these 5 cards: 2 × Wolf, 1 × Hunter, 2 × Villager. Shuffle them and deal one face down to "
            "each player. Lay the card left over face down in the middle of the table."
        ) in version
        assert "The seer takes the middle card." not in version  # if: seer, and no Seer is in play
        assert "Hunter, open your eyes." in version and "Seer, open your eyes." not in version


def test_the_deal_of_chosen_roles_in_spanish_and_chinese(night):
    game = night / "decks" / "night" / "game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8").replace("languages: [en, es]", "languages: [en, es, zh]"), encoding="utf-8"
    )
    result, out = build_night(night, "--lang", "es", "--lang", "zh", "--roles", "wolf:2,seer,villager:2")
    assert result.exit_code == 0, result.output
    assert (
        "Toma estas 5 cartas: 2 × Lobo, 1 × Vidente, 2 × Aldeano. Barájalas y reparte una boca abajo a cada jugador."
    ) in joined(out / f"night-script-es-{table(4, roles='wolf:2,seer,villager:2')}.pdf")
    assert "取以下5张牌：Wolf×2、Seer×1、Villager×2。" in joined(
        out / f"night-script-zh-{table(4, roles='wolf:2,seer,villager:2')}.pdf"
    ).replace(" ", "")


# --- messages -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, message",
    [
        ("werewolf:two", "expected CARD or CARD:COUNT separated by commas (like werewolf:2,seer), got 'werewolf:two'"),
        ("seer,werewolf:2,seer", "'seer' is named twice"),
        ("werewolf:0,seer", "'werewolf:0': a count is at least 1"),
        ("werewolf:2,,seer", "expected CARD or CARD:COUNT separated by commas (like werewolf:2,seer), got ''"),
    ],
)
def test_a_roles_spec_that_cannot_be_read_says_why(spec, message):
    result = run("setup", "werewolf", "--roles", spec)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"error: Invalid value for '--roles': {message}"


def test_an_unknown_card_gets_a_did_you_mean(tmp_path):
    for command in (["setup", "werewolf"], ["build", "werewolf", "--out", str(tmp_path)]):
        result = run(*command, "--roles", "werewolf:2,seer,wich")
        assert result.exit_code == 1
        assert result.stderr == (
            "decks/werewolf/game.yaml:1: error: --roles: no card 'wich' (did you mean 'witch'?) in werewolf\n1 error\n"
        )
    assert not (tmp_path / "werewolf").exists()


def test_more_copies_than_the_box_holds_is_an_error_naming_both_numbers():
    result = run("setup", "werewolf", "--roles", "werewolf:5,seer:2,villager:4")
    assert result.exit_code == 1
    assert result.stderr == (
        "decks/werewolf/roles/seer.yaml:1: error: --roles: 2 'seer' cards asked for, but the box has 1\n"
        "decks/werewolf/roles/werewolf.yaml:1: error: --roles: 5 'werewolf' cards asked for, but the "
        "box has 4\n2 errors\n"
    )


def standard_line(game: str) -> str:
    return f"decks/{game}/game.yaml:{line_of(ROOT / 'decks' / game / 'game.yaml', '  standard:')}"


@pytest.mark.parametrize(
    "args, warning",
    [
        (
            ["werewolf", "--players", "9", "--roles", "werewolf:3,seer,witch,hunter,guard"],
            f"{standard_line('werewolf')}: warning: --roles: 7 cards for 9 players, but setup 'standard' of werewolf "
            "deals one card to each player (9 cards)",
        ),
        (
            ["werewords", "--players", "6", "--roles", "mayor,seer,werewolf,villager:3"],
            f"{standard_line('werewords')}: warning: --roles: 6 cards for 6 players, but setup 'standard' of werewords "
            "deals one card to each player and 1 more (7 cards)",
        ),
        (
            ["salem-1692", "--players", "4", "--roles", "tryal-witch,tryal-constable,tryal-not-a-witch:17"],
            f"{standard_line('salem-1692')}: warning: --roles: 19 cards for 4 players, but setup 'standard' of "
            "salem-1692 deals every player the same number of cards",
        ),
        (
            ["werewolf", "--roles", "werewolf,seer,villager:2"],
            "decks/werewolf/game.yaml:1: warning: --roles: 4 players, but werewolf is for 5–18 players",
        ),
    ],
)
def test_a_total_against_the_rule_is_a_warning_that_says_the_rule(args, warning):
    result = run("setup", *args)
    assert (result.exit_code, result.stderr) == (0, warning + "\n")
    total = sum(int(part.partition(":")[2] or 1) for part in args[-1].split(","))
    assert result.stdout.splitlines()[0].endswith(f"players (--roles): {total} cards")


def test_the_players_are_the_cards_less_the_extra_ones():
    assert json.loads(run("setup", "werewords", "--roles", "mayor,seer,werewolf,villager:4", "--json").stdout) == {
        "game": "werewords",
        "players": 6,
        "components": {"mayor": 1, "seer": 1, "werewolf": 1, "villager": 4},
        "nights": {
            "first": [{"id": "mayor", "order": 10}, {"id": "seer", "order": 20}, {"id": "werewolf", "order": 40}],
            "other": [{"id": "mayor", "order": 10}, {"id": "seer", "order": 20}, {"id": "werewolf", "order": 40}],
        },
    }
    result = run("setup", "salem-1692", "--roles", "tryal-witch,tryal-not-a-witch:19")
    assert (result.exit_code, result.stderr) == (
        1,
        f"{standard_line('salem-1692')}: error: --roles: setup 'standard' of salem-1692 deals several cards to each "
        "player: say how many play with --players N\n1 error\n",
    )


def test_options_that_do_not_go_together(tmp_path):
    cases = [
        (
            ["setup", "werewolf", "--roles", NINE, "--with", "cupid"],
            "decks/werewolf/game.yaml:1: error: --with adds a card to a setup's row; with --roles, name every card in --roles\n"
            "1 error\n",
        ),
        (
            ["build", "werewolf", "werewords", "--roles", NINE, "--out", str(tmp_path)],
            "error: --roles names the cards of one game: build one game at a time\n1 error\n",
        ),
        (
            ["build", "werewolf", "--only-needed", "--out", str(tmp_path)],
            "error: --only-needed prints the cards of one table: give --players N, --setup NAME or --roles SPEC\n1 error\n",
        ),
        (
            ["setup", "werewolf"],
            "error: say who plays: --players N, --setup NAME or --roles SPEC (cardgen setup GAME --list shows the "
            "setups)\n",
        ),
        (
            ["setup", "werewolf", "--setup", "standard"],
            f"{standard_line('werewolf')}: error: --setup standard: setup 'standard' of werewolf has rows for 5–18 "
            "players: say how many with --players N\n1 error\n",
        ),
    ]
    for args, message in cases:
        result = run(*args)
        assert (result.exit_code, result.stderr) == (1, message)
    assert not (tmp_path / "werewolf").exists()


def test_a_card_no_setup_deals_joins_the_table_without_a_seat():
    result = run("setup", "werewolf", "--players", "9", "--with", "sheriff", "--with", "hunter")
    assert result.stdout == (
        "werewolf, 9 players (standard): 9 cards\n"
        "    2 x Werewolf\n    1 x Seer\n    5 x Villager\n    1 x Hunter\n"
        "    1 x Sheriff (dealt to nobody)\n"
    )


# --- what an evening prints ---------------------------------------------------------------------------


def evening_deck(game: str, players: int | None = None, roles: tuple = (), setup: str | None = None):
    """The cards an evening of `game` prints, by card id, read from the bundled deck in English."""
    project = Project.at(ROOT / "decks")
    files, _ = load_game(ROOT / "decks" / game, ROOT, ())
    deck, _ = resolve_deck(files, "en", None, card_sizes(project), AnyGlyph())
    text = {"all_cards": "", "setup_for": "", "roles_for": ""}
    table = tonight(deck, files.game.where(), text, players, setup, (), roles)
    return {card.id: card.count for card in printed(deck, table).cards}


def test_the_facilitator_s_cards_follow_the_roles_dealt_and_the_reference_card_stays():
    cards = evening_deck("mafia-vendetta", 7)
    assert cards == {
        "bystander": 3,
        "detective": 1,
        "nurse": 1,
        "thug": 2,
        "moderator-bystander": 1,
        "moderator-detective": 1,
        "moderator-nurse": 1,
        "moderator-thug": 1,
        "night-order": 1,
        "player-aid": 7,
    }


def test_tokens_and_word_cards_are_equipment_and_print_whole():
    cards = evening_deck("werewords", 5)
    whole = evening_deck("werewords")
    assert {card: n for card, n in cards.items() if card.startswith(("token-", "word-"))} == {
        card: n for card, n in whole.items() if card.startswith(("token-", "word-"))
    }
    assert {card: n for card, n in cards.items() if not card.startswith(("token-", "word-"))} == {
        "mayor": 1,
        "seer": 1,
        "werewolf": 1,
        "villager": 3,
        "player-aid": 5,
    }


# --- the rulebook and setup --list ----------------------------------------------------------------------


def add_community_setup(project: Path) -> None:
    game = project / "decks" / "night" / "game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8")
        + """  trio:
    name: {en: "Hunter's trio", es: "Trío del cazador"}
    origin: community
    players: [3, 5]
    cards:
      wolf: 1
      hunter: 1
    fill: villager
""",
        encoding="utf-8",
    )


def test_the_rulebook_prints_community_setups_in_a_marked_table_with_the_legend(night):
    add_community_setup(night)
    result, out = build_night(night, "--lang", "en")
    assert result.exit_code == 0, result.output
    text = joined(out / "night-rulebook-en.pdf")
    assert (
        "Night 2–6 players · 10–20 minutes ◆ House rule: our own choice where the official rules are silent, unclear or "
        "contradict themselves. ○ Community setup: widely played by groups; not from the official rules, and "
        "not ours. Goal"
    ) in text
    table = text[text.index("Setups groups play ○") : text.index("A round")]
    assert table == (
        "Setups groups play ○ Setup Hunter's trio Hunter's trio Players 3 5 Wolf 1 1 Hunter 1 1 Villager 1 3 "
    )
    assert "Setup by player count · Hunter's trio" not in text and text.count("○") == 2


def test_a_setup_is_ours_or_the_players_not_both(night):
    add_community_setup(night)
    game = night / "decks" / "night" / "game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8").replace("    origin: community", "    origin: community\n    house: true"),
        encoding="utf-8",
    )
    result = run("validate", "--decks", str(night / "decks"))
    assert result.exit_code == 1
    assert result.stderr == (
        f"decks/night/game.yaml:{line_of(game, '    origin: community')}: error: setups.trio: a setup "
        "is ours (house: true) or the players' (origin: community), not both\n1 error\n"
    )


def test_setup_list_names_every_setup_with_its_players_and_origin(night):
    add_community_setup(night)
    decks = str(night / "decks")
    assert run("setup", "night", "--list", "--decks", decks).stdout == (
        "night: 3 setups\n"
        "  standard  Standard       4–6 players\n"
        "  pairs     Pairs          2–3 players   ◆\n"
        "  trio      Hunter's trio  3, 5 players  ○\n"
        "  ◆ our own table, ○ a board groups commonly play\n"
    )
    assert json.loads(run("setup", "night", "--list", "--lang", "es", "--json", "--decks", decks).stdout) == {
        "game": "night",
        "setups": [
            {"id": "standard", "name": "Estándar", "players": [4, 5, 6], "origin": "source"},
            {"id": "pairs", "name": "Parejas", "players": [2, 3], "origin": "house"},
            {"id": "trio", "name": "Trío del cazador", "players": [3, 5], "origin": "community"},
        ],
    }
    assert run("setup", "night", "--list", "--lang", "fr", "--decks", decks).stderr == (
        "decks/night/game.yaml:5: error: game 'night' has no language 'fr'; it has en, es\n1 error\n"
    )


def test_the_readme_shows_the_one_command_of_the_evening():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"    cardgen build werewolf --lang en --roles {NINE} --only-needed\n" in readme
