"""The command line's habits (issue 28): problems as short lines, with their source line and a caret, or as
GitHub annotations; -V; -q/-v everywhere; shell completion; `error:` before every error; 130 on Ctrl-C;
aligned `list` columns; plain words for YAML slips and .yml files; the schema line from `new`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.cli.diagnostics import github
from cardgen.core.problems import Problem, Where
from conftest import game, run, write

SEER = """\
name: {en: Seer, vi: Tiên tri}
team: vilage
count: one, two
ability:
  en: Each night, look at one player's card.
  vi: Mỗi đêm, xem lá bài của một người chơi.
"""

SHORT = (
    "decks/mini/roles/seer.yaml:2: error: team: unknown team 'vilage' (did you mean 'village'?); "
    "the game's teams: village, wolves\n"
    "decks/mini/roles/seer.yaml:3: error: count: expected an integer, got 'one, two'\n"
)
GITHUB = (
    "::error file=decks/mini/roles/seer.yaml,line=2::team: unknown team 'vilage' (did you mean 'village'?); "
    "the game's teams: village, wolves\n"
    "::error file=decks/mini/roles/seer.yaml,line=3::count: expected an integer, got 'one, two'\n"
)


@pytest.fixture
def broken(mini_here: Path) -> Path:
    write(mini_here, "roles/seer.yaml", SEER)
    return mini_here


def _validate(*extra: str):
    return run("validate", "--decks", "project/decks", *extra)


def test_short_is_file_line_error_message(broken, monkeypatch):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    for extra in ((), ("--diagnostic-format", "short")):
        result = _validate(*extra)
        assert (result.exit_code, result.stderr) == (1, SHORT + "2 errors\n")


def test_human_shows_the_line_with_a_caret_under_the_value(broken):
    result = _validate("--diagnostic-format", "human")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: team: unknown team 'vilage' (did you mean 'village'?); the game's teams: village, wolves\n"
        "  ┌─ decks/mini/roles/seer.yaml:2:7\n"
        "  │\n"
        "2 │ team: vilage\n"
        "  │       ^^^^^^\n"
        "\n"
        "error: count: expected an integer, got 'one, two'\n"
        "  ┌─ decks/mini/roles/seer.yaml:3:8\n"
        "  │\n"
        "3 │ count: one, two\n"
        "  │        ^^^^^^^^\n"
        "\n"
        "2 errors\n"
    )


def test_github_writes_workflow_commands(broken):
    result = _validate("--diagnostic-format", "github")
    assert (result.exit_code, result.stderr) == (1, GITHUB + "2 errors\n")


def test_under_github_actions_the_short_lines_are_followed_by_annotations(broken, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = _validate()
    expected = (SHORT + GITHUB) + "2 errors\n"
    assert (result.exit_code, result.stderr) == (1, expected)
    # An explicit format wins.
    assert _validate("--diagnostic-format", "short").stderr == SHORT + "2 errors\n"


def test_github_escapes_as_github_specifies():
    problem = Problem(Where("a,b:c%.yaml", 4), "50% done\r\nnext: line", "warning")
    assert github(problem) == "::warning file=a%2Cb%3Ac%25.yaml,line=4::50%25 done%0D%0Anext: line"
    assert github(Problem(None, "no file", "note")) == "::notice::no file"


def test_a_warning_keeps_its_word_and_an_error_without_a_file_says_error(mini_here):
    write(mini_here, "roles/extra.yml", "name: {en: X}\n")
    result = run("validate", "--decks", "project/decks")
    assert result.stderr == (
        "decks/mini/roles/extra.yml: warning: extra.yml is not read: cardgen reads .yaml files; "
        "rename it to extra.yaml\n"
    )
    assert result.stdout == "1 game valid, 1 warning\n"
    result = run("setup", "mini", "--decks", "project/decks")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: say who plays: --players N, --setup NAME or --roles SPEC (cardgen setup GAME --list shows the "
        "setups)\n",
    )


@pytest.mark.parametrize(
    "text, line, message",
    [
        (
            "name: {en: Seer}\nteam: village\nability:\n  en: Look.\n vi: Xem.\n",
            5,
            "this line is indented by 1 space, the line above by 2 spaces: the keys of one mapping start in one "
            "column; indent this line as the key it belongs with",
        ),
        (
            'name: {en: Seer}\nteam: village\nability:\n  en: "Look" at a card.\n',
            4,
            "the line goes on after a quoted text ends: put the whole text inside the quotes "
            "(a quote inside it written as \\\" in double quotes, or '' in single quotes)",
        ),
        (
            "name: {en: Seer}\nteam village\nability: {en: Look.}\n",
            3,
            "a key without its ':' on this line or the one above (write `team: village`, not `team village`)",
        ),
        (
            "name: {en: Seer}\nteam: village\nability:\n\ten: Look.\n",
            4,
            "a tab in the indentation: YAML indents with spaces only; replace the tab with spaces",
        ),
    ],
    ids=["indentation", "after-a-quote", "missing-colon", "tab"],
)
def test_common_yaml_slips_are_said_in_plain_words(mini_here, text, line, message):
    write(mini_here, "roles/seer.yaml", text)
    result = run("validate", "--decks", "project/decks")
    assert (result.exit_code, result.stderr) == (
        1,
        f"decks/mini/roles/seer.yaml:{line}: error: YAML error: {message}\n1 error\n",
    )


def test_dash_capital_v_is_the_version():
    assert run("-V").stdout == run("--version").stdout
    assert run("-V").stdout.startswith("cardgen, version ")


@pytest.mark.parametrize("command", ["list", "setup", "export", "box", "calibrate", "narrator", "schema", "init"])
def test_every_command_takes_quiet_verbose_and_the_diagnostic_format(command):
    shown = run(command, "--help").stdout
    assert "-q, --quiet" in shown and "-v, --verbose" in shown and "--diagnostic-format" in shown


def test_quiet_and_verbose_together_are_refused_on_any_command():
    result = run("list", "-q", "-v")
    assert result.exit_code == 2
    assert result.stderr.endswith("error: -q and -v are opposites; give one of them\n")


def test_quiet_leaves_out_notes_everywhere(mini_here, tmp_path):
    mine = tmp_path / "mine" / "mini" / "roles"
    mine.mkdir(parents=True)
    shutil.copy(game(mini_here) / "roles" / "seer.yaml", mine / "seer.yaml")
    loud = run("setup", "mini", "--list", "--decks", "project/decks", "--include", "mine")
    quiet = run("setup", "mini", "--list", "--decks", "project/decks", "--include", "mine", "-q")
    assert "note: card 'seer' replaces" in run("validate", "--decks", "project/decks", "--include", "mine").stderr
    assert loud.stdout == quiet.stdout and "note:" not in quiet.stderr


def test_list_columns_line_up_for_long_ids(mini_here):
    long_id = "a-card-with-a-very-long-identifier"
    write(mini_here, f"roles/{long_id}.yaml", "name: {en: Long}\nteam: village\nability: {en: Look.}\n")
    lines = run("list", "--decks", "project/decks").stdout.splitlines()[1:]
    assert [line.index(" x") for line in lines] == [len(f"  role     {long_id}")] * len(lines)


@pytest.mark.parametrize(
    "shell, start", [("bash", "_cardgen_completion() {"), ("zsh", "#compdef cardgen"), ("fish", "")]
)
def test_completions_prints_clicks_script(shell, start):
    result = run("completions", shell)
    assert result.exit_code == 0 and result.stdout.startswith(start) and "_CARDGEN_COMPLETE" in result.stdout


def _complete(words: str, cwd: Path) -> list[str]:
    env = {
        "_CARDGEN_COMPLETE": "bash_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - (not words.endswith(" "))),
    }
    script = shutil.which("cardgen", path=str(Path(sys.executable).parent)) or "cardgen"
    done = subprocess.run(
        [script],
        env={**__import__("os").environ, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return [line.split(",", 1)[1] for line in done.stdout.splitlines()]


def test_games_languages_setups_and_services_complete(tmp_path):
    here = tmp_path  # outside any project: the bundled games
    assert _complete("cardgen build w", here) == ["werewolf", "werewords"]
    assert _complete("cardgen build werewolf --lang ", here) == ["en", "es", "ja", "vi", "zh"]
    assert _complete("cardgen setup werewolf --setup ", here) == [
        "board-12-guard",
        "board-12-idiot",
        "board-9",
        "standard",
    ]
    assert _complete("cardgen export werewolf --for t", here) == ["thegamecrafter", "tts"]


def test_completion_loads_no_reportlab(tmp_path):
    code = (
        "import os, sys; os.environ.update(_CARDGEN_COMPLETE='bash_complete', COMP_WORDS='cardgen build w', "
        "COMP_CWORD='2')\nfrom cardgen.cli.main import main\ntry:\n    main.main([], prog_name='cardgen')\n"
        "except SystemExit:\n    pass\nprint('reportlab' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "False"


def test_ctrl_c_exits_130_and_says_what_was_kept(monkeypatch):
    import cardgen.cli.listing as listing

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(listing, "_list_setups", interrupted)
    result = run("setup", "werewolf", "--list")
    assert (result.exit_code, result.stderr) == (
        130,
        "\ninterrupted: the files written before Ctrl-C are complete and kept; none is half-written\n",
    )


def test_new_role_and_game_in_an_init_project_point_at_the_schemas(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("init", "proj").exit_code == 0
    monkeypatch.chdir(tmp_path / "proj")
    assert run("new", "role", "my-game", "fox").exit_code == 0
    assert run("new", "game", "other").exit_code == 0
    (tmp_path / "proj" / "mine").mkdir()
    assert run("new", "role", "my-game", "owl", "--into", "mine/cards").exit_code == 0
    first = {
        path: (tmp_path / "proj" / path).read_text(encoding="utf-8").splitlines()[0]
        for path in (
            "decks/my-game/roles/fox.yaml",
            "decks/other/game.yaml",
            "decks/other/roles/villager.yaml",
            "mine/cards/my-game/roles/owl.yaml",
        )
    }
    assert first == {
        "decks/my-game/roles/fox.yaml": "# yaml-language-server: $schema=../../../schemas/card.schema.json",
        "decks/other/game.yaml": "# yaml-language-server: $schema=../../schemas/game.schema.json",
        "decks/other/roles/villager.yaml": "# yaml-language-server: $schema=../../../schemas/card.schema.json",
        "mine/cards/my-game/roles/owl.yaml": "# yaml-language-server: $schema=../../../../schemas/card.schema.json",
    }
    assert run("validate", "-q").exit_code == 0


def test_new_role_without_schemas_writes_no_schema_line(mini_here):
    assert run("new", "role", "mini", "fox", "--decks", "project/decks").exit_code == 0
    assert not (game(mini_here) / "roles" / "fox.yaml").read_text(encoding="utf-8").startswith("# yaml-language")
