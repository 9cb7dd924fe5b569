"""Mafia: Vendetta's rules as its deck data must keep them: the setup tables respect the modes' limits, the night
order calls the Leader after the gangs' kills, and the first night calls every role (source: the Vietnamese rules
in the shared sources, "Chuẩn bị trò chơi", "Đêm đầu tiên", "Chế độ Yakuza", "Chế độ Lẻ Loi")."""

from __future__ import annotations

import json

import pypdf
import pytest
import yaml

from conftest import ROOT, run

DECK = ROOT / "decks" / "mafia-vendetta"
CARDS = {path.stem: yaml.safe_load(path.read_text(encoding="utf-8")) for path in (DECK / "roles").glob("*.yaml")}
SETUPS = yaml.safe_load((DECK / "game.yaml").read_text(encoding="utf-8"))["setups"]
MOBSTERS = {card for card, data in CARDS.items() if data.get("team") == "mobsters"}
LEADERS = {card for card, data in CARDS.items() if data.get("team") == "leaders"}
LONERS = {card for card, data in CARDS.items() if data.get("team") == "loners"}


def deal(setup: str, players: int) -> dict[str, int]:
    result = run("setup", "mafia-vendetta", "--players", str(players), "--setup", setup, "--json")
    assert result.exit_code == 0, result.output
    return {card: n for card, n in json.loads(result.stdout)["components"].items() if n}


@pytest.mark.parametrize("setup, players", [(setup, n) for setup, table in SETUPS.items() for n in table["players"]])
def test_every_setup_row_deals_one_card_a_player_with_one_leader(setup, players):
    cards = deal(setup, players)
    assert sum(cards.values()) == players
    assert sum(n for card, n in cards.items() if card in LEADERS) == 1
    if setup == "yakuza":
        assert players >= 12 and cards.get("yakuza", 0) >= 1 and not MOBSTERS & set(cards)
    elif setup == "loner":
        assert players >= 10 and sum(n for card, n in cards.items() if card in LONERS) == 1
    else:
        assert "yakuza" not in cards and not LONERS & set(cards)


def test_the_leader_wakes_after_both_gangs_and_every_other_role_before_them():
    order = {card: data["night"]["order"] for card, data in CARDS.items() if "night" in data}
    gangs = (order["thug"], order["yakuza"])
    assert all(order[leader] > max(gangs) for leader in LEADERS)
    assert all(at < min(gangs) for card, at in order.items() if card not in LEADERS | {"thug", "yakuza"})


def test_the_first_night_calls_every_waking_role_in_night_order(tmp_path):
    result = run("build", "mafia-vendetta", "--players", "13", "--lang", "en", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "mafia-vendetta" / "mafia-vendetta-script-en-13p.pdf")
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    # A phase starts with its title and the line that opens every night.
    first_night = text[text.index("First night Night falls.") : text.index("Later nights Night falls.")]
    # 13 players, Standard table: Vixen, Thief, Nurse, Bodyguard, Lawyer, the Mafia, then the Detective.
    calls = ["Vixen", "Thief", "Nurse", "Bodyguard", "Lawyer", "Mafia", "Detective"]
    positions = [first_night.index(f"{name}, open your eyes.") for name in calls]
    assert positions == sorted(positions)
    assert "Snitch, open your eyes." not in first_night
