"""The four bundled games: complete, in four languages (Werewolf in Japanese and Mafia: Vendetta in
Persian too), with the components and setups the rules give."""

from __future__ import annotations

import json
from collections import Counter

import pytest
import yaml

from conftest import ROOT, run

GAMES = ["mafia-vendetta", "salem-1692", "werewolf", "werewords"]


@pytest.fixture(scope="module")
def listing() -> dict:
    result = run("list", "--json")
    assert result.exit_code == 0, result.output
    return {game["id"]: game for game in json.loads(result.stdout)["games"]}


def by_group(game: dict) -> Counter:
    counts: Counter = Counter()
    for component in game["components"]:
        counts[component["group"]] += component["count"]
    return counts


def test_every_game_is_bundled_in_its_languages_without_a_warning(listing):
    assert sorted(listing) == GAMES
    assert {game: tuple(listing[game]["languages"]) for game in GAMES} == {
        "mafia-vendetta": ("en", "vi", "zh", "es", "fa"),
        "salem-1692": ("en", "vi", "zh", "es"),
        "werewolf": ("en", "vi", "zh", "es", "ja"),
        "werewords": ("en", "vi", "zh", "es"),
    }
    result = run("validate", "--strict")
    assert (result.exit_code, result.stderr) == (0, "")


def test_salem_has_the_published_components(listing):
    salem = listing["salem-1692"]
    assert by_group(salem) == {"town-hall": 15, "kill": 15, "tryal": 39, "playing": 59, "token": 1, "aid": 12}
    counts = {c["id"]: c["count"] for c in salem["components"]}
    assert counts["accusation"] == 35 and counts["evidence"] == 5 and counts["witness"] == 1
    # A Kill card is made from its character, not written twice.
    town_hall = {c["id"] for c in salem["components"] if c["group"] == "town-hall"}
    kills = {c["id"] for c in salem["components"] if c["group"] == "kill"}
    assert kills == {f"kill-{character}" for character in town_hall}
    assert not any((ROOT / "decks" / "salem-1692" / "roles" / f"{kill}.yaml").exists() for kill in kills)


@pytest.mark.parametrize("setup", ["standard", "advanced"])
@pytest.mark.parametrize("players", range(4, 13))
def test_every_salem_tryal_row_deals_evenly(setup, players):
    result = run("setup", "salem-1692", "--players", str(players), "--setup", setup, "--json")
    assert result.exit_code == 0, result.output
    deal = json.loads(result.stdout)["components"]
    total = sum(deal.values())
    assert total % players == 0
    assert deal["tryal-constable"] == 1
    assert deal["tryal-witch"] == ((1 if players < 6 else 2) if setup == "standard" else (2 if players < 6 else 3))


def test_salem_standard_table_is_the_rulebook_s():
    table = yaml.safe_load((ROOT / "decks" / "salem-1692" / "game.yaml").read_text(encoding="utf-8"))
    standard = table["setups"]["standard"]
    assert standard["players"] == list(range(4, 13))
    assert standard["cards"]["tryal-not-a-witch"] == [18, 23, 27, 32, 29, 33, 27, 30, 33]
    assert standard["cards"]["tryal-witch"] == [1, 1, 2, 2, 2, 2, 2, 2, 2]


def test_mafia_has_roles_moderator_cards_and_a_night_order_card(listing):
    mafia = listing["mafia-vendetta"]
    assert by_group(mafia) == {"role": 30, "moderator": 20, "reference": 1, "aid": 17}


def test_werewords_has_roles_round_tokens_and_word_cards(listing):
    werewords = listing["werewords"]
    counts = by_group(werewords)
    assert set(counts) == {"role", "token", "word", "aid"}
    assert counts["token"] == 49
    assert counts["word"] >= 25


@pytest.mark.parametrize("lang", ["en", "vi", "zh", "es"])
def test_werewords_word_lists_are_150_words_by_difficulty(lang):
    words = yaml.safe_load((ROOT / "decks" / "werewords" / "words" / f"{lang}.yaml").read_text(encoding="utf-8"))
    assert set(words) == {"easy", "medium", "hard"}
    flat = [word for level in words.values() for word in level]
    assert len(flat) >= 150
    assert len(set(flat)) == len(flat)


def test_word_lists_are_chosen_per_language_not_translated():
    lists = {
        lang: yaml.safe_load((ROOT / "decks" / "werewords" / "words" / f"{lang}.yaml").read_text(encoding="utf-8"))
        for lang in ("vi", "zh", "es")
    }
    assert "phở" in lists["vi"]["easy"] + lists["vi"]["medium"]
    assert "饺子" in lists["zh"]["easy"] + lists["zh"]["medium"]
    assert "paella" in lists["es"]["easy"] + lists["es"]["medium"]


def test_setup_json_gives_the_cards_dealt_by_id():
    result = run("setup", "werewolf", "--players", "10", "--json")
    answer = json.loads(result.stdout)
    assert {key: answer[key] for key in ("game", "players", "components")} == {
        "game": "werewolf",
        "players": 10,
        "components": {"werewolf": 2, "villager": 7, "seer": 1},
    }


def test_werewords_deals_one_card_more_than_players():
    for players in (4, 7, 12, 20):
        deal = json.loads(run("setup", "werewords", "--players", str(players), "--json").stdout)["components"]
        assert sum(deal.values()) == players + 1
        assert deal["werewolf"] == (1 if players < 7 else 2 if players < 12 else 3)


def test_setup_outside_the_table_is_a_clear_error():
    result = run("setup", "werewolf", "--players", "4")
    assert result.exit_code == 1
    game = (ROOT / "decks" / "werewolf" / "game.yaml").read_text(encoding="utf-8").splitlines()
    line = game.index("  standard:") + 1
    assert result.stderr == (
        f"decks/werewolf/game.yaml:{line}: error: --players: setup 'standard' of werewolf has no row "
        "for 4 players (rows: 5–18)\n1 error\n"
    )
