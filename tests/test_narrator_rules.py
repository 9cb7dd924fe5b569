"""The narrator page's game rules (templates/narrator/rules.js), one test per rule of the bundled games.

rules.js runs in Debian's chromium on a blank page, with each game's rule data exactly as the page gets
it from narrator.data(); each test builds a table and a night's choices and checks the exact deaths,
the choices allowed and the reminders left. tests/test_narrator_rule_data.py checks the data itself.
"""

from __future__ import annotations

import pytest
import yaml

from cardgen.build import card_sizes, check
from cardgen.core.project import Project
from cardgen.deck.resolve import AnyGlyph, resolve_deck
from cardgen.deck.tonight import Tonight
from cardgen.documents import narrator
from conftest import ROOT
from narrator_browser import browser, needs_browser

TEXT = yaml.safe_load((ROOT / "templates" / "documents" / "text.yaml").read_text(encoding="utf-8"))
GAMES = ("werewolf", "mafia-vendetta", "salem-1692")


def page_data(game: str) -> dict:
    project = Project.at(ROOT / "decks")
    (files,), _ = check(project, [game], strict=False)
    deck, _ = resolve_deck(files, "en", None, card_sizes(project), AnyGlyph())
    return narrator.data(deck, TEXT["en"], {}, {}, Tonight(frozenset(), ""))


@pytest.fixture(scope="module")
def data() -> dict:
    return {game: page_data(game) for game in GAMES}


@pytest.fixture(scope="module")
def rules(data, tmp_path_factory):
    """Calls Rules.<name>(game, ...) in chromium for one of the bundled games, as the page does."""
    code = (ROOT / "templates" / "narrator" / "rules.js").read_text(encoding="utf-8")
    with browser(tmp_path_factory.mktemp("profile")) as session:
        page = session.context.new_page()
        page.set_content("<!doctype html><title>rules</title>")
        page.add_script_tag(content=code)

        def call(game: str, name: str, *args):
            game_data = {
                "cards": {card["id"]: card for card in data[game]["cards"]},
                "rules": data[game]["gameRules"],
            }
            result = page.evaluate(
                """([name, game, args]) => {
                    const out = window.cardgenRules[name](...(name === "triggers" ? [] : [game]), ...args);
                    return out instanceof Set ? [...out].sort() : out;
                }""",
                [name, game_data, list(args)],
            )
            assert not session.errors, session.errors
            return result

        yield call


def table(*cards: str, dead: tuple[int, ...] = (), reminders: dict | None = None) -> list[dict]:
    """Seats holding these cards; `reminders`: seat -> [(id, by, night)]."""
    return [
        {
            "card": card,
            "alive": seat not in dead,
            "reminders": [{"id": id, "by": by, "night": night} for id, by, night in (reminders or {}).get(seat, ())],
        }
        for seat, card in enumerate(cards)
    ]


def night(n: int, seats: list[dict], *choices: tuple[str | None, str, int | None]) -> dict:
    return {
        "night": n,
        "seats": seats,
        "choices": [{"by": by, "effect": effect, "seat": seat, "night": n} for by, effect, seat in choices],
    }


def deaths(result: dict) -> list[tuple[int, str]]:
    return [(death["seat"], death["cause"]) for death in result["deaths"]]


WOLVES = ("werewolf", "werewolf", "guard", "witch", "seer", "villager", "little-girl", "elder", "hunter", "cupid")


# ---- Werewolf


@needs_browser
def test_the_werewolves_victim_dies_at_dawn(rules):
    assert deaths(rules("werewolf", "dawn", night(2, table(*WOLVES), ("werewolf", "target", 5)))) == [(5, "target")]


@needs_browser
def test_the_guard_protects_from_the_werewolves_but_not_from_poison(rules):
    state = night(2, table(*WOLVES), ("guard", "protect", 5), ("werewolf", "target", 5))
    assert deaths(rules("werewolf", "dawn", state)) == []
    state = night(2, table(*WOLVES), ("guard", "protect", 5), ("werewolf", "target", 4), ("witch", "poison", 5))
    assert deaths(rules("werewolf", "dawn", state)) == [(4, "target"), (5, "poison")]


@needs_browser
def test_the_guard_may_not_protect_the_same_player_two_nights_running(rules):
    seats = table(*WOLVES, reminders={5: [("protected", "guard", 2)]})
    state = night(3, seats)
    assert rules("werewolf", "allowed", state, "guard", "protect", 5) is False
    assert rules("werewolf", "allowed", state, "guard", "protect", 4) is True
    # Two nights later he may again; a protection from three nights ago no longer counts.
    assert rules("werewolf", "allowed", night(4, seats), "guard", "protect", 5) is True
    # And a repeat recorded all the same protects nobody.
    assert deaths(rules("werewolf", "dawn", night(3, seats, ("guard", "protect", 5), ("werewolf", "target", 5)))) == [
        (5, "target")
    ]


@needs_browser
def test_last_nights_protection_ends_at_the_next_dawn(rules):
    seats = table(*WOLVES, reminders={5: [("protected", "guard", 2)], 4: [("protected", "guard", 3)]})
    assert rules("werewolf", "dawn", night(3, seats))["remove"] == [{"seat": 5, "id": "protected"}]
    assert rules("werewolf", "lasting", night(3, seats), {"by": "guard", "effect": "protect", "seat": 4}) == [
        {"seat": 4, "id": "protected", "by": "guard", "night": 3}
    ]


@needs_browser
def test_guarding_the_little_girl_has_no_effect(rules):
    state = night(2, table(*WOLVES), ("guard", "protect", 6), ("werewolf", "target", 6))
    assert deaths(rules("werewolf", "dawn", state)) == [(6, "target")]


@needs_browser
def test_guarded_and_healed_the_victim_dies_all_the_same(rules, data):
    state = night(2, table(*WOLVES), ("guard", "protect", 5), ("werewolf", "target", 5), ("witch", "save", 5))
    assert deaths(rules("werewolf", "dawn", state)) == [(5, "target")]
    # Our rule, not the source's: the page marks it so.
    assert data["werewolf"]["gameRules"]["overProtectDies"] is True
    game = yaml.safe_load((ROOT / "decks" / "werewolf" / "game.yaml").read_text(encoding="utf-8"))
    assert "over-protect-dies" in game["night"]["house-rules"]


@needs_browser
def test_the_witch_heals_only_the_victim_and_never_herself(rules):
    state = night(2, table(*WOLVES), ("werewolf", "target", 5), ("witch", "save", 5))
    assert deaths(rules("werewolf", "dawn", state)) == []
    state = night(2, table(*WOLVES), ("werewolf", "target", 5))
    assert rules("werewolf", "allowed", state, "witch", "save", 4) is False
    assert rules("werewolf", "allowed", state, "witch", "save", 5) is True
    state = night(2, table(*WOLVES), ("werewolf", "target", 3))
    assert rules("werewolf", "allowed", state, "witch", "save", 3) is False
    assert deaths(
        rules("werewolf", "dawn", night(2, table(*WOLVES), ("werewolf", "target", 3), ("witch", "save", 3)))
    ) == [(3, "target")]


@needs_browser
def test_each_potion_works_once_a_game_and_one_a_night(rules):
    healed = table(*WOLVES, reminders={5: [("used-save", "witch", 2)]})
    state = night(4, healed, ("werewolf", "target", 4))
    assert rules("werewolf", "allowed", state, "witch", "save", 4) is False
    assert rules("werewolf", "allowed", state, "witch", "poison", 1) is True
    assert deaths(rules("werewolf", "dawn", night(4, healed, ("werewolf", "target", 4), ("witch", "save", 4)))) == [
        (4, "target")
    ]
    # The potion used tonight is remembered on its seat for the rest of the game.
    assert rules("werewolf", "lasting", state, {"by": "witch", "effect": "poison", "seat": 1}) == [
        {"seat": 1, "id": "used-poison", "by": "witch", "night": 4}
    ]
    # One potion a night: after the heal, no poison.
    state = night(2, table(*WOLVES), ("werewolf", "target", 4), ("witch", "save", 4))
    assert rules("werewolf", "allowed", state, "witch", "poison", 0) is False
    # The reminder left by tonight's own choice does not count against it.
    tonight = table(*WOLVES, reminders={4: [("used-save", "witch", 2)]})
    assert deaths(rules("werewolf", "dawn", night(2, tonight, ("werewolf", "target", 4), ("witch", "save", 4)))) == []


@needs_browser
def test_the_elder_survives_the_first_attack_and_dies_at_the_second(rules):
    first = rules("werewolf", "dawn", night(2, table(*WOLVES), ("werewolf", "target", 7)))
    assert deaths(first) == []
    assert first["add"] == [{"seat": 7, "id": "lost-life", "by": "werewolf", "night": 2}]
    wounded = table(*WOLVES, reminders={7: [("lost-life", "werewolf", 2)]})
    second = rules("werewolf", "dawn", night(4, wounded, ("werewolf", "target", 7)))
    assert deaths(second) == [(7, "target")]
    # Killed by the werewolves, the village keeps its powers.
    assert second["add"] == []


@needs_browser
def test_a_heal_saves_the_elder_but_costs_him_a_life(rules):
    healed = rules("werewolf", "dawn", night(2, table(*WOLVES), ("werewolf", "target", 7), ("witch", "save", 7)))
    assert deaths(healed) == [] and healed["add"] == [{"seat": 7, "id": "lost-life", "by": "werewolf", "night": 2}]
    # Guarded, the attack never reaches him.
    guarded = rules("werewolf", "dawn", night(2, table(*WOLVES), ("guard", "protect", 7), ("werewolf", "target", 7)))
    assert deaths(guarded) == [] and guarded["add"] == []


@needs_browser
def test_the_elder_killed_by_the_village_takes_the_powers_and_the_revealed_idiot(rules):
    seats = table(*WOLVES, "village-idiot", reminders={10: [("revealed", None, 1)]})
    voted = [{"seat": 7, "cause": "vote", "by": None}]
    assert deaths({"deaths": rules("werewolf", "chain", night(2, seats), voted)}) == [(10, "with")]
    settled = rules("werewolf", "settle", night(2, seats), voted)
    assert sorted((r["seat"], r["id"]) for r in settled["add"]) == [
        (2, "powerless"),
        (3, "powerless"),
        (4, "powerless"),
        (8, "powerless"),
    ]
    # Poisoned, the same; and from then on the powerless Guard protects no one.
    poisoned = rules("werewolf", "dawn", night(2, seats, ("werewolf", "target", 5), ("witch", "poison", 7)))
    assert deaths(poisoned) == [(5, "target"), (7, "poison"), (10, "with")]
    powerless = table(*WOLVES, reminders={2: [("powerless", "elder", 2)]})
    assert deaths(
        rules("werewolf", "dawn", night(3, powerless, ("guard", "protect", 5), ("werewolf", "target", 5)))
    ) == [(5, "target")]


@needs_browser
def test_a_lover_dies_of_grief_with_the_other(rules):
    lovers = table(*WOLVES, reminders={1: [("lover", "cupid", 1)], 5: [("lover", "cupid", 1)]})
    assert deaths(rules("werewolf", "dawn", night(2, lovers, ("werewolf", "target", 5)))) == [
        (5, "target"),
        (1, "grief"),
    ]
    # After a vote or a shot, the page asks the chain.
    assert rules("werewolf", "chain", night(2, lovers), [{"seat": 1, "cause": "vote", "by": None}]) == [
        {"seat": 5, "cause": "grief", "by": None}
    ]
    # Cupid's two choices make the lovers.
    assert rules("werewolf", "lasting", night(1, lovers), {"by": "cupid", "effect": "love", "seat": 3}) == [
        {"seat": 3, "id": "lover", "by": "cupid", "night": 1}
    ]


@needs_browser
def test_the_hunters_shot_is_not_a_dawn_death_and_sets_off_grief(rules):
    lovers = table(*WOLVES, reminders={4: [("lover", "cupid", 1)], 5: [("lover", "cupid", 1)]}, dead=(8,))
    state = night(2, lovers, ("werewolf", "target", 8), (None, "kill", 4))
    assert deaths(rules("werewolf", "dawn", state)) == []
    assert rules("werewolf", "allowed", night(2, lovers), None, "kill", 4) is True
    assert rules("werewolf", "allowed", night(2, lovers), None, "kill", 8) is False
    assert rules("werewolf", "chain", night(2, lovers), [{"seat": 4, "cause": "kill", "by": None}]) == [
        {"seat": 5, "cause": "grief", "by": None}
    ]


@needs_browser
def test_the_pied_pipers_enchantment_lasts_and_never_falls_on_himself(rules):
    seats = table(*WOLVES, "pied-piper", reminders={4: [("enchanted", "pied-piper", 2)]})
    assert rules("werewolf", "lasting", night(3, seats), {"by": "pied-piper", "effect": "note", "seat": 5}) == [
        {"seat": 5, "id": "enchanted", "by": "pied-piper", "night": 3}
    ]
    assert rules("werewolf", "dawn", night(9, seats))["remove"] == []
    assert rules("werewolf", "allowed", night(3, seats), "pied-piper", "note", 10) is False


@needs_browser
def test_the_dead_set_off_the_lines_of_their_cards_and_reminders(rules):
    seats = table(*WOLVES, reminders={5: [("lover", "cupid", 1)]})
    assert rules("werewolf", "triggers", night(2, seats), [{"seat": 5, "cause": "target"}, {"seat": 8}]) == [
        "hunter",
        "lover",
        "villager",
    ]


# ---- Mafia: Vendetta

MAFIA = ("thug", "godfather", "nurse", "bodyguard", "vixen", "bystander", "detective", "thief", "interrogator")


@needs_browser
def test_nobody_dies_on_the_mafias_first_night(rules):
    state = night(1, table(*MAFIA), ("thug", "target", 5), ("detective", "target", 0))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == []
    state = night(2, table(*MAFIA), ("thug", "target", 5), ("detective", "target", 0))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == [(5, "target"), (0, "target")]


@needs_browser
def test_a_kill_fails_on_a_player_the_nurse_protected_or_the_vixen_charmed(rules):
    state = night(2, table(*MAFIA), ("nurse", "protect", 5), ("thug", "target", 5))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == []
    state = night(2, table(*MAFIA), ("vixen", "charm", 5), ("thug", "target", 5))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == []
    # The charmed player does nothing tonight either.
    state = night(2, table(*MAFIA), ("vixen", "charm", 6), ("detective", "target", 0))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == []
    assert (
        rules("mafia-vendetta", "allowed", night(2, table(*MAFIA), ("vixen", "charm", 6)), "detective", "target", 0)
        is False
    )


@needs_browser
def test_the_bodyguard_dies_instead_of_his_client(rules):
    state = night(2, table(*MAFIA), ("bodyguard", "protect", 5), ("thug", "target", 5))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == [(3, "instead")]
    # The Nurse's protection comes first: nobody dies (our rule), and it covers the Bodyguard too.
    state = night(2, table(*MAFIA), ("nurse", "protect", 5), ("bodyguard", "protect", 5), ("thug", "target", 5))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == []
    state = night(2, table(*MAFIA), ("nurse", "protect", 3), ("bodyguard", "protect", 5), ("thug", "target", 5))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == []


@needs_browser
def test_no_ability_works_on_its_own_player(rules):
    state = night(2, table(*MAFIA))
    assert rules("mafia-vendetta", "allowed", state, "nurse", "protect", 2) is False
    assert rules("mafia-vendetta", "allowed", state, "nurse", "protect", 5) is True


@needs_browser
def test_a_blocked_mafia_member_still_joins_the_kill_a_jailed_or_charmed_gang_does_not(rules):
    state = night(2, table(*MAFIA), ("thief", "block", 0), ("thug", "target", 5))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == [(5, "target")]
    # Blocked, the Godfather's own ability does nothing tonight.
    assert (
        rules("mafia-vendetta", "allowed", night(2, table(*MAFIA), ("thief", "block", 1)), "godfather", "note", 5)
        is False
    )
    # Every Mafia member charmed or jailed: no kill.
    jailed = table(
        "thug", "godfather", "vixen", "bystander", "interrogator", reminders={1: [("jailed", "interrogator", 2)]}
    )
    state = night(3, jailed, ("vixen", "charm", 0), ("thug", "target", 3))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == []
    state = night(3, jailed, ("thug", "target", 3))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == [(3, "target")]


@needs_browser
def test_the_interrogator_jails_only_the_gangs_until_he_is_out(rules):
    state = night(2, table(*MAFIA))
    assert rules("mafia-vendetta", "lasting", state, {"by": "interrogator", "effect": "jail", "seat": 1}) == [
        {"seat": 1, "id": "jailed", "by": "interrogator", "night": 2}
    ]
    assert rules("mafia-vendetta", "lasting", state, {"by": "interrogator", "effect": "jail", "seat": 5}) == []
    jailed = table(*MAFIA, reminders={1: [("jailed", "interrogator", 2)]})
    assert rules("mafia-vendetta", "dawn", night(5, jailed))["remove"] == []
    out = rules("mafia-vendetta", "dawn", night(5, jailed, ("thug", "target", 8)))
    assert deaths(out) == [(8, "target")] and out["remove"] == [{"seat": 1, "id": "jailed"}]


@needs_browser
def test_a_leader_killed_earlier_in_the_night_does_nothing(rules):
    sheriff = ("thug", "sheriff", "nurse", "bystander", "bystander")
    state = night(2, table(*sheriff), ("thug", "target", 1), ("sheriff", "target", 0))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == [(1, "target")]
    # Protected, he was not killed: his shot goes through.
    state = night(2, table(*sheriff), ("nurse", "protect", 1), ("thug", "target", 1), ("sheriff", "target", 0))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == [(0, "target")]


@needs_browser
def test_two_gangs_on_one_victim_kill_once_and_the_femme_fatale_spares_a_bystander(rules):
    seats = table("thug", "yakuza", "femme-fatale", "bystander", "nurse", "detective")
    state = night(2, seats, ("femme-fatale", "target", 3), ("thug", "target", 4), ("yakuza", "target", 4))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == [(4, "target")]
    state = night(2, seats, ("femme-fatale", "target", 5))
    assert deaths(rules("mafia-vendetta", "dawn", state)) == [(5, "target")]


@needs_browser
def test_the_detective_kills_or_investigates_not_both(rules):
    state = night(2, table(*MAFIA), ("detective", "note", 0))
    assert rules("mafia-vendetta", "allowed", state, "detective", "target", 0) is False


@needs_browser
def test_the_silenced_and_the_hypnotized_last_the_next_day_the_framed_one_night(rules):
    seats = table(
        *MAFIA,
        "hypnotist",
        "snitch",
        reminders={
            5: [("silenced", "godfather", 2)],
            6: [("hypnotized", "hypnotist", 2)],
            8: [("framed", "snitch", 3)],
        },
    )
    assert rules("mafia-vendetta", "dawn", night(2, seats))["remove"] == []
    assert rules("mafia-vendetta", "dawn", night(3, seats))["remove"] == [
        {"seat": 5, "id": "silenced"},
        {"seat": 6, "id": "hypnotized"},
        {"seat": 8, "id": "framed"},
    ]
    assert rules("mafia-vendetta", "lasting", night(3, seats), {"by": "godfather", "effect": "note", "seat": 5}) == [
        {"seat": 5, "id": "silenced", "by": "godfather", "night": 3}
    ]


# ---- Salem 1692


@needs_browser
def test_the_witches_victim_dies_unless_they_have_the_gavel_for_that_night(rules):
    seats = table(None, None, None, None)
    assert deaths(rules("salem-1692", "dawn", night(2, seats, (None, "target", 2)))) == [(2, "target")]
    assert deaths(rules("salem-1692", "dawn", night(2, seats, (None, "protect", 2), (None, "target", 2)))) == []
    # The gavel guards one night only.
    guarded = table(None, None, None, None, reminders={2: [("protected", None, 2)]})
    assert deaths(rules("salem-1692", "dawn", night(3, guarded, (None, "target", 2)))) == [(2, "target")]
    assert rules("salem-1692", "dawn", night(3, guarded))["remove"] == [{"seat": 2, "id": "protected"}]
