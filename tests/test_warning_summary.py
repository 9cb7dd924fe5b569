"""Missing translations, counted (issue 31): a deck whose texts lack languages in, the summary a
designer reads out: one warning per language (languages the same texts lack share one), the first
files named with the line of their first such text, and every text with -v. --strict still fails on
each, and a build that is up to date says the same summary again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, run

# Four cards besides the mini game's seer and wolf, with no French.
EXTRA = "name: {{en: Guard {n}, vi: Bảo vệ {n}, de: Wache {n}}}\nteam: village\nability: {{en: Guards., vi: Canh., de: Wacht.}}\n"


@pytest.fixture
def lacking(tmp_path: Path, monkeypatch) -> Path:
    """The mini game in en, vi, de and fr: its game file, seer and wolf lack de and fr; four guards lack fr."""
    shutil.copytree(FIXTURES / "mini", tmp_path / "project")
    folder = tmp_path / "project" / "decks" / "mini"
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("[en, vi]", "[en, vi, de, fr]"), encoding="utf-8")
    for n in range(1, 5):
        (folder / "roles" / f"guard-{n}.yaml").write_text(EXTRA.format(n=n), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "project")
    return tmp_path / "project"


SUMMARY = (
    "warning: no 'de' text for 8 texts in 3 files, which fall back to English: decks/mini/game.yaml:1 (name, "
    "teams.village.name, teams.wolves.name, groups.role), decks/mini/roles/seer.yaml:1 (name, ability), "
    "decks/mini/roles/wolf.yaml:1 (name, ability); -v lists each\n"
    "warning: no 'fr' text for 16 texts in 7 files, which fall back to English: decks/mini/game.yaml:1 (name, "
    "teams.village.name, teams.wolves.name, groups.role), decks/mini/roles/guard-1.yaml:1 (name, ability), "
    "decks/mini/roles/guard-2.yaml:1 (name, ability) and 4 more files; -v lists each\n"
)


def test_missing_translations_are_counted_per_language(lacking):
    result = run("validate", "mini")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "1 game valid, 16 warnings\n", SUMMARY)


def test_verbose_lists_every_text_that_lacks_a_language(lacking):
    result = run("validate", "mini", "-v")
    assert (result.exit_code, result.stdout) == (0, "1 game valid, 16 warnings\n")
    warnings = [line for line in result.stderr.splitlines() if ": warning: " in line]
    owners = [("game.yaml", "game 'mini'")] * 4 + [
        (f"roles/{card}.yaml", f"card '{card}'") for card in ("guard-1", "guard-2", "guard-3", "guard-4")
    ]
    keys = ["name:1", "teams.village.name:6", "teams.wolves.name:9", "groups.role:12"]
    expected = [
        f"decks/mini/{file}:{key.split(':')[1]}: warning: {owner}: no 'de', 'fr' text for {key.split(':')[0]}; "
        "the card falls back to English"
        for (file, owner), key in zip(owners[:4], keys, strict=True)
    ]
    for file, owner in owners[4:]:
        expected += [
            f"decks/mini/{file}:{line}: warning: {owner}: no 'fr' text for {key}; the card falls back to English"
            for line, key in ((1, "name"), (3, "ability"))
        ]
    for card, ability in (("seer", 4), ("wolf", 4)):
        expected += [
            f"decks/mini/roles/{card}.yaml:{line}: warning: card '{card}': no 'de', 'fr' text for {key}; the card "
            "falls back to English"
            for line, key in ((1, "name"), (ability, "ability"))
        ]
    assert warnings == expected
    assert "-v lists each" not in result.stderr


def test_strict_fails_on_every_text_the_summary_counts(lacking):
    result = run("validate", "mini", "--strict")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == SUMMARY + "16 warnings (fails with --strict)\n"


def test_a_build_that_is_up_to_date_says_the_same_summary(lacking):
    first = run("build", "mini", "--lang", "en", "--only", "cards")
    again = run("build", "mini", "--lang", "en", "--only", "cards")
    assert first.exit_code == again.exit_code == 0
    assert first.stderr.endswith(SUMMARY) and again.stderr.endswith(SUMMARY)
    assert again.stdout.startswith("up to date (1 file) in ")
