"""Broken decks give exactly the expected problems, with file:line, and exit 1.

Each case under fixtures/broken/ overlays a few files on the mini game and
holds the exact output `cardgen validate` must print.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conftest import FIXTURES, run

CASES = sorted(p.parent for p in (FIXTURES / "broken").glob("*/case.yaml"))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_broken_deck_reports_exact_problems(case: Path, mini: Path):
    spec = yaml.safe_load((case / "case.yaml").read_text(encoding="utf-8"))
    for name, text in spec["files"].items():
        (mini / "decks" / "mini" / name).write_text(text, encoding="utf-8")
    result = run("validate", "--decks", str(mini / "decks"))
    assert result.stderr == spec["output"]
    assert result.exit_code == spec["exit"]
    assert "Traceback" not in result.output


def test_good_mini_deck_validates(mini: Path):
    result = run("validate", "--decks", str(mini / "decks"))
    assert result.exit_code == 0, result.output
    assert result.stdout == "1 game valid\n"


def test_unknown_key_is_a_warning_unless_strict(mini: Path):
    seer = mini / "decks" / "mini" / "roles" / "seer.yaml"
    seer.write_text(seer.read_text(encoding="utf-8") + "nigth: {order: 3}\n", encoding="utf-8")
    expected = (
        "decks/mini/roles/seer.yaml:10: warning: nigth: unknown key (did you mean 'night'?); "
        "accepted keys: name, team, group, count, extra-cards, symbol, art, ability, short-ability, layout, back, night, rules, in-play-only\n"
    )
    lenient = run("validate", "--decks", str(mini / "decks"))
    assert (lenient.exit_code, lenient.stderr) == (0, expected)
    strict = run("validate", "--strict", "--decks", str(mini / "decks"))
    assert (strict.exit_code, strict.stderr) == (1, expected + "1 warning (fails with --strict)\n")


def test_missing_translation_warns_naming_card_and_language(mini: Path):
    seer = mini / "decks" / "mini" / "roles" / "seer.yaml"
    seer.write_text(
        seer.read_text(encoding="utf-8").replace("  vi: Mỗi đêm, xem lá bài của một người chơi.\n", ""),
        encoding="utf-8",
    )
    result = run("validate", "--decks", str(mini / "decks"))
    assert result.exit_code == 0
    assert result.stderr == (
        "decks/mini/roles/seer.yaml:4: warning: card 'seer': no 'vi' text for ability; the card falls back to English\n"
    )


def test_unknown_game_suggests_a_name():
    result = run("validate", "werewolfs")
    assert result.exit_code == 1
    assert result.stderr.startswith("decks: error: no game 'werewolfs' (did you mean 'werewolf'?); games here: ")
