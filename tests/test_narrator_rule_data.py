"""The narrator page's rule data: the bundled decks' `rules` and night rules, the effects and reminders
they use, and the script marks that let the page read a line only when it applies.

In: the decks' YAML and the page data narrator.data() builds from them. Out: checks that every effect,
reminder and rule key is one the page knows and docs/designing.md documents, that a misspelled card or
team in the rule data is an error, and that the dawn lines carry their `if-died` / `if-deaths` marks.
"""

from __future__ import annotations

import re
import shutil

import yaml

from cardgen.deck.schema_defs import CARD_RULES, CHOICES, NIGHT_RULES, REMINDERS
from cardgen.documents import narrator
from conftest import ROOT, run
from test_narrator_rules import GAMES, page_data


def rule_data(game: str):
    """Every card's `rules` and choices, and the game's night rules, as written in the deck."""
    folder = ROOT / "decks" / game
    for path in sorted((folder / "roles").glob("*.yaml")):
        card = yaml.safe_load(path.read_text(encoding="utf-8"))
        yield path.stem, card.get("rules", {}), (card.get("night", {}).get("script") or {}).get("choices", [])
    yield "game.yaml", yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8")).get("night", {}), []


def test_every_reminder_the_rule_data_names_is_one_the_page_knows():
    used = set()
    for game in GAMES:
        for _, rules, _ in rule_data(game):
            used |= {rules["leaves"]} if "leaves" in rules else set()
            used |= set(rules.get("death-takes", ()))
        script = (ROOT / "decks" / game / "script.yaml").read_text(encoding="utf-8")
        used |= set(re.findall(r"if-died: ([a-z-]+)", script)) - {card["id"] for card in page_data(game)["cards"]}
    assert used == {"enchanted", "silenced", "hypnotized", "framed", "revealed", "lover"}
    assert used <= set(REMINDERS) and set(REMINDERS.values()) == {"night", "day", "game"}


def test_every_effect_reminder_and_rule_key_is_documented():
    guide = (ROOT / "docs" / "designing.md").read_text(encoding="utf-8")
    for word in [*CHOICES, *REMINDERS, *CARD_RULES["properties"], *NIGHT_RULES]:
        assert f"`{word}`" in guide, word
    effects = {effect for game in GAMES for _, _, choices in rule_data(game) for effect in choices}
    assert effects <= set(CHOICES)


def test_the_page_carries_the_rules_before_its_own_script(tmp_path):
    assert narrator.SCRIPTS[0] == "rules.js"
    werewolf = page_data("werewolf")
    cards = {card["id"]: card.get("rules") for card in werewolf["cards"]}
    assert cards["elder"] == {
        "lives": 2,
        "deathDisables": ["hunter", "guard", "witch", "seer"],
        "deathTakes": ["revealed"],
        "deathUnlessBy": ["werewolf"],
    }
    assert cards["werewolf"] == {"together": True} and cards["villager"] is None
    assert page_data("mafia-vendetta")["gameRules"] == {
        "firstNightKills": False,
        "notSelf": True,
        "struckPowerless": ["leaders"],
        "reminders": REMINDERS,
    }


def test_rule_data_that_names_an_unknown_card_team_or_reminder_is_an_error(tmp_path):
    shutil.copytree(ROOT / "decks" / "werewolf", tmp_path / "decks" / "werewolf")
    shutil.copytree(ROOT / "decks" / "mafia-vendetta", tmp_path / "decks" / "mafia-vendetta")

    def edit(path: str, old: str, new: str) -> None:
        file = tmp_path / "decks" / path
        file.write_text(file.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")

    edit("mafia-vendetta/roles/interrogator.yaml", "jails: [thugs,", "jails: [thugz,")
    edit("werewolf/roles/elder.yaml", "death-disables: [hunter,", "death-disables: [huntr,")
    edit("werewolf/roles/pied-piper.yaml", "leaves: enchanted", "leaves: enchant")
    result = run("validate", "--decks", str(tmp_path / "decks"), "werewolf", "mafia-vendetta")
    assert result.exit_code != 0
    lines = [line.split(": ", 1)[1] for line in result.output.splitlines() if ": error: " in line]
    assert lines[0].startswith("error: rules.jails.0: unknown team 'thugz' (did you mean 'thugs'?)")
    assert lines[1].startswith("error: rules.death-disables.0: unknown card 'huntr' (did you mean 'hunter'?)")
    assert lines[2].startswith("error: rules.leaves: expected one of lover, enchanted,")
    assert len(lines) == 3


def lines_of(game: str, kind: str) -> dict[str, dict]:
    """The page's lines of the first version's phases of this kind, by their text."""
    version = page_data(game)["versions"][0]
    return {line["text"]: line for phase in version["phases"] if phase["kind"] == kind for line in phase["lines"]}


def test_the_werewolf_dawn_reads_each_consequence_only_after_its_death():
    dawn = lines_of("werewolf", "dawn")
    marks = {text[:28]: (line.get("died"), line.get("deaths")) for text, line in dawn.items()}
    assert marks["The Hunter has fallen. Hunte"] == (["hunter"], None)
    assert marks["… cannot live without their "] == (["lover"], None)
    assert marks["The village has killed its o"] == (["elder"], None)
    assert marks["From now on the Witch has no"] == (["elder"], None)
    assert marks["Sheriff, before you go, poin"] == (["sheriff"], None)
    assert marks["The dead say no last words, "] == (None, True)
    assert marks["Dawn breaks. Everyone, open "] == (None, None)
    day = lines_of("werewolf", "day")
    assert day["You have voted out the Village Idiot. He lives on and may still speak, but he will never vote again."][
        "died"
    ] == ["village-idiot"]


def test_the_mafia_dawn_names_the_dead_only_when_someone_died():
    dawn = lines_of("mafia-vendetta", "dawn")
    assert dawn["Work out who died."]["announce"] == "deaths" and "when" not in dawn["Work out who died."]
    for text in (
        "Last night the Mafia killed [name].",
        "The Yakuza killed [name].",
        "[name] was also killed during the night.",
    ):
        assert dawn[text]["deaths"] is True
    assert "deaths" not in dawn["Dawn breaks. Everyone, open your eyes."]


def test_salem_night_asks_the_witches_victim_and_the_gavel():
    night = lines_of("salem-1692", "night")
    choices = {text[:40]: line["choices"] for text, line in night.items() if "choices" in line}
    assert choices == {
        "Witches, all of you who hold a Witch car": ["target"],
        "Constable, open your eyes. Point at the ": ["protect"],
    }
    assert [line["text"][:30] for line in night.values() if line.get("announce")] == ["Name the player the witches ch"]
