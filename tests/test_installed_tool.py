"""cardgen as a tool (issue 16): outside any project it has its bundled games, inside one it finds
the project by walking up as git does, game ids are kebab-case folder names, it says its version,
and every PDF says what it is (title, author, subject, language, creator)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdf
import pytest

from cardgen import __version__
from cardgen.core import bundled
from conftest import FIXTURES, ROOT, run

BUNDLED = ["mafia-vendetta", "salem-1692", "werewolf", "werewords"]


def test_the_bundled_data_is_found_beside_the_package_in_a_clone():
    # An editable install runs the tree's cardgen/, which has no _data/: the tree's own folders serve.
    assert bundled.ROOT == ROOT
    assert [bundled.folder(name) for name in bundled.FOLDERS] == [ROOT / "decks", ROOT / "templates", ROOT / "fonts"]


def test_outside_any_project_the_games_are_the_bundled_ones(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("list")
    assert result.exit_code == 0, result.output
    assert [line.split(":")[0] for line in result.stdout.splitlines() if not line.startswith(" ")] == BUNDLED
    assert run("validate", "werewords").stdout == "1 game valid\n"
    assert list(tmp_path.iterdir()) == []


def test_outside_any_project_a_build_writes_into_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("build", "werewolf", "--lang", "vi", "-q")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "output" / "werewolf").iterdir()) == [
        "werewolf-cards-vi.pdf",
        "werewolf-narrator-vi.html",
        "werewolf-rulebook-vi.pdf",
        "werewolf-script-vi.pdf",
    ]
    assert (
        "Ma Sói"
        in pypdf.PdfReader(tmp_path / "output" / "werewolf" / "werewolf-rulebook-vi.pdf").pages[0].extract_text()
    )


def test_a_problem_in_a_bundled_game_is_named_as_it_ships(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("build", "werewolf", "--lang", "xx")
    assert result.exit_code == 1
    assert result.stderr.startswith("decks/werewolf/game.yaml:2: error: game 'werewolf' has no language 'xx'")


@pytest.fixture
def mini(tmp_path) -> Path:
    shutil.copytree(FIXTURES / "mini", tmp_path / "party")
    return tmp_path / "party"


def test_from_a_subfolder_the_project_is_found_by_walking_up(mini, monkeypatch):
    monkeypatch.chdir(mini / "decks" / "mini" / "roles")
    result = run("build", "--lang", "en", "-q")
    assert result.exit_code == 0, result.output
    # Into the project's output/, named from where cardgen runs.
    assert result.stdout.startswith("1 file, 2 pages, 3 cards on 1 sheet in ")
    assert (mini / "output" / "mini" / "mini-cards-en.pdf").is_file()
    assert not (mini / "decks" / "mini" / "roles" / "output").exists()
    listed = run("build", "--lang", "en", "--list-targets", "--json")
    assert '"../../../output/mini/mini-cards-en.pdf"' in listed.stdout


def test_errors_from_a_subfolder_name_files_from_the_project(mini, monkeypatch):
    seer = mini / "decks" / "mini" / "roles" / "seer.yaml"
    seer.write_text(seer.read_text(encoding="utf-8").replace("team: village", "team: nobody"), encoding="utf-8")
    monkeypatch.chdir(mini / "decks")
    result = run("validate")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].startswith("decks/mini/roles/seer.yaml:")


def test_a_cardgen_toml_makes_a_project_even_before_it_has_decks(tmp_path, monkeypatch):
    (tmp_path / "cardgen.toml").write_text("", encoding="utf-8")
    (tmp_path / "notes").mkdir()
    monkeypatch.chdir(tmp_path / "notes")
    result = run("list")
    assert (result.exit_code, result.stderr) == (1, "decks: error: no games found (no */game.yaml)\n1 error\n")


@pytest.mark.parametrize("name", ["My Game", "my_game", "Werewolf", "wolf-"])
def test_a_game_folder_name_must_be_kebab_case(mini, monkeypatch, name):
    (mini / "decks" / "mini").rename(mini / "decks" / name)
    monkeypatch.chdir(mini)
    result = run("validate")
    assert result.exit_code == 1
    assert result.stderr == (
        f"decks/{name}: error: '{name}' cannot be a game's id, which is its folder's name: rename the "
        f"folder in kebab-case English (a-z, 0-9 and -), like my-game\n1 error\n"
    )


def test_new_role_leaves_the_bundled_games_alone(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("new", "role", "werewolf", "fox")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: 'werewolf' is one of cardgen's own games, which it does not change: give --into "
        "DIR for a folder of your own cards, or copy the game into a project with: cardgen init "
        "--from werewolf\n"
    )
    result = run("new", "role", "werewolf", "fox", "--into", "mine")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "mine" / "werewolf" / "roles" / "fox.yaml").is_file()


def test_new_game_outside_a_project_starts_one_here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("new", "game", "tavern")
    assert result.exit_code == 0, result.output
    assert result.stdout == "wrote decks/tavern/game.yaml\nwrote decks/tavern/roles/villager.yaml\n"
    assert run("list").stdout.splitlines()[0] == "tavern: Tavern [en], 1 cards"


def test_version():
    result = run("--version")
    assert (result.exit_code, result.stdout) == (0, f"cardgen, version {__version__}\n")


def test_every_pdf_says_what_it_is(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("build", "werewords", "--lang", "zh", "--booklet", "-q")
    assert result.exit_code == 0, result.output
    result = run("box", "werewords", "--lang", "zh")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "output" / "werewords"
    expected = {
        "werewords-cards-zh.pdf": ("狼人真言 (zh)", "print-and-cut card sheets"),
        "werewords-rulebook-zh.pdf": ("狼人真言: 规则速查 (zh)", "quick-reference rulebook"),
        "werewords-script-zh.pdf": ("狼人真言: 主持人台词 (zh)", "moderator script"),
        "werewords-box-zh-a4.pdf": ("狼人真言: box (zh)", "tuck box"),
    }
    for name, (title, subject) in expected.items():
        reader = pypdf.PdfReader(folder / name)
        info = reader.metadata
        assert (info.title, info.author, info.subject, info.creator) == (
            title,
            "Ted Alspach (Bézier Games)",
            subject,
            f"cardgen {__version__}",
        ), name
        assert reader.trailer["/Root"]["/Lang"] == "zh", name
