"""`cardgen list` answers from the user's cache while no file of the project changed (cardgen/core/cache.py)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from cardgen import build
from conftest import game, run

AN_HOUR_AGO = time.time() - 3600


def settle(project: Path, when: float = AN_HOUR_AGO) -> None:
    """Every file of the project last changed at `when`, long enough ago for a cached answer to be kept."""
    for path in project.rglob("*"):
        os.utime(path, (when, when))


def listed(project: Path, *args: str) -> dict:
    result = run("list", "--json", "--decks", str(project / "decks"), *args)
    assert result.exit_code == 0, result.output
    return {
        entry["id"]: {c["id"]: c["count"] for c in entry["components"]} for entry in json.loads(result.stdout)["games"]
    }


def refuse_loading(monkeypatch) -> None:
    """From here on a listing that loads the decks fails: only a cached answer gets through."""

    def refuse(*args, **kwargs):
        raise AssertionError("the decks were loaded")

    monkeypatch.setattr(build, "check", refuse)


def test_a_second_listing_is_the_cached_first(mini, monkeypatch):
    settle(mini)
    first = run("list", "--decks", str(mini / "decks"))
    assert first.exit_code == 0
    refuse_loading(monkeypatch)
    again = run("list", "--decks", str(mini / "decks"))
    assert again.exit_code == 0
    assert (
        again.stdout == first.stdout == "mini: Mini [en, vi], 3 cards\n  role     seer             x1\n"
        "  role     wolf             x2\n"
    )


def test_a_changed_card_is_listed_as_it_is_now(mini):
    settle(mini)
    assert listed(mini)["mini"]["wolf"] == 2
    wolf = game(mini) / "roles" / "wolf.yaml"
    wolf.write_text(wolf.read_text(encoding="utf-8").replace("count: 2", "count: 3"), encoding="utf-8")
    settle(mini, AN_HOUR_AGO + 60)
    assert listed(mini)["mini"]["wolf"] == 3


def test_a_card_added_is_listed(mini):
    settle(mini)
    assert sorted(listed(mini)["mini"]) == ["seer", "wolf"]
    seer = game(mini) / "roles" / "seer.yaml"
    (game(mini) / "roles" / "oracle.yaml").write_text(
        seer.read_text(encoding="utf-8").replace("Seer", "Oracle").replace("order: 50", "order: 55"), encoding="utf-8"
    )
    settle(mini)
    assert sorted(listed(mini)["mini"]) == ["oracle", "seer", "wolf"]


def test_a_file_changed_this_very_moment_is_read_again_next_time(mini, user_cache, monkeypatch):
    """Its size and time could still change unseen within its clock's tick: no answer that read it is kept."""
    settle(mini)
    before = set(user_cache.glob("list-*")) if user_cache.is_dir() else set()
    (game(mini) / "roles" / "seer.yaml").touch()
    listed(mini)
    assert (set(user_cache.glob("list-*")) if user_cache.is_dir() else set()) == before
    refuse_loading(monkeypatch)
    with pytest.raises(AssertionError, match="the decks were loaded"):
        listed(mini)


def test_a_deck_with_an_error_is_never_answered_from_the_cache(mini):
    settle(mini)
    wolf = game(mini) / "roles" / "wolf.yaml"
    wolf.write_text(wolf.read_text(encoding="utf-8").replace("count: 2", "count: two"), encoding="utf-8")
    settle(mini)
    for _ in range(2):
        result = run("list", "--decks", str(mini / "decks"))
        assert result.exit_code == 1
        assert result.stderr == "decks/mini/roles/wolf.yaml:3: error: count: expected an integer, got 'two'\n1 error\n"


def test_without_a_cache_folder_the_listing_still_comes(mini, tmp_path, monkeypatch):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    settle(mini)
    assert listed(mini) == listed(mini) == {"mini": {"seer": 1, "wolf": 2}}


def test_a_damaged_cache_entry_is_worked_out_again(mini, user_cache):
    settle(mini)
    listed(mini)
    for entry in user_cache.glob("list-*.json"):
        entry.write_text("{not json", encoding="utf-8")
    assert listed(mini) == {"mini": {"seer": 1, "wolf": 2}}


def test_a_game_named_by_its_path_is_listed_without_the_cache(mini, monkeypatch):
    settle(mini)
    assert list(listed(mini, str(game(mini)))) == ["mini"]
    refuse_loading(monkeypatch)
    with pytest.raises(AssertionError, match="the decks were loaded"):
        listed(mini, str(game(mini)))
    monkeypatch.undo()
    assert listed(mini, "mini") == {"mini": {"seer": 1, "wolf": 2}}
    refuse_loading(monkeypatch)
    assert listed(mini, "mini") == {"mini": {"seer": 1, "wolf": 2}}
