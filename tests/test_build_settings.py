"""A project's defaults for the build options, in cardgen.toml's [build] table (as mkdocs.yml is for
MkDocs); the command line overrides them. `--only` builds some kinds of output; `site` and `watch` take
the same options as `build`."""

from __future__ import annotations

import json
from pathlib import Path

import pypdf
import pytest

from conftest import run


def settings(project: Path, text: str) -> None:
    (project / "cardgen.toml").write_text(text, encoding="utf-8")


def targets(*args: str) -> list[str]:
    result = run("build", "--list-targets", "--json", *args)
    assert result.exit_code == 0, result.output
    return [path for target in json.loads(result.stdout)["targets"] for path in target["outputs"]]


def test_the_build_table_sets_defaults_and_the_command_line_overrides_them(mini, monkeypatch):
    monkeypatch.chdir(mini)
    settings(mini, '[printers.office]\nback-offset = [0.5, -1]\n\n[build]\nlang = "vi"\nout = "dist"\n')
    assert targets() == ["dist/mini/mini-cards-vi.pdf"]
    assert targets("--lang", "en", "--out", "elsewhere") == ["elsewhere/mini/mini-cards-en.pdf"]
    # A project's out is its own folder, from wherever in the project cardgen runs.
    monkeypatch.chdir(mini / "decks")
    assert targets() == ["../dist/mini/mini-cards-vi.pdf"]
    monkeypatch.chdir(mini)
    settings(mini, '[build]\nlang = ["en", "vi"]\n')
    assert targets() == ["output/mini/mini-cards-en.pdf", "output/mini/mini-cards-vi.pdf"]


def test_a_default_from_the_file_shapes_the_outputs_as_the_option_would(mini, monkeypatch):
    monkeypatch.chdir(mini)
    settings(mini, '[build]\nbacks = "none"\npaper = "letter"\nlang = "en"\n')
    assert run("build", "-q").exit_code == 0
    assert run("build", "-q", "--backs", "none", "--paper", "letter", "--out", "given").exit_code == 0
    assert run("build", "-q", "--backs", "long", "--out", "long").exit_code == 0
    from_file = (mini / "output" / "mini" / "mini-cards-en.pdf").read_bytes()
    assert from_file == (mini / "given" / "mini" / "mini-cards-en.pdf").read_bytes()
    fronts = pypdf.PdfReader(mini / "output" / "mini" / "mini-cards-en.pdf")
    duplex = pypdf.PdfReader(mini / "long" / "mini" / "mini-cards-en.pdf")
    assert len(duplex.pages) == 2 * len(fronts.pages)
    assert round(float(duplex.pages[0].mediabox.width)) == 792  # letter, turned: --paper left as the file says


def test_an_unknown_key_is_a_warning_where_it_is_that_fails_with_strict(mini, monkeypatch):
    monkeypatch.chdir(mini)
    settings(mini, '# settings\n\n[build]\npapr = "letter"\n')
    warning = "cardgen.toml:4: warning: unknown key 'papr' in [build] (did you mean 'paper'?)"
    result = run("validate")
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [warning]
    assert result.stdout == "1 game valid, 1 warning\n"
    result = run("validate", "--strict")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [warning, "1 warning (fails with --strict)"]
    settings(mini, '[build]\nstrict = true\nlang = "en"\ncolour = "red"\n')
    result = run("build", "-q")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "cardgen.toml:4: warning: unknown key 'colour' in [build]",
        "1 warning (fails with --strict)",
    ]
    settings(mini, '[build]\nlang = "en"\ncolour = "red"\n')
    result = run("build", "-q")
    assert result.exit_code == 0
    assert "cardgen.toml:3: warning: unknown key 'colour' in [build]" in result.stderr
    assert result.stdout.endswith(", 1 warning\n")


@pytest.mark.parametrize(
    "line, message",
    [
        ('bleed = "3"', "[build] bleed: expected a number of mm, got '3'"),
        ("bleed = 11", "[build] bleed: 11.0 is not in the range 0<=x<=10."),
        ('backs = "sideways"', "[build] backs: 'sideways' is not one of 'long', 'short', 'fold', 'none'."),
        ('ink-saver = "yes"', "[build] ink-saver: expected true or false, got 'yes'"),
        ("lang = [1]", "[build] lang: expected a string or a list of strings, got [1]"),
        ("jobs = 0", "[build] jobs: 0 is not in the range x>=1."),
        ("back-offset = [1]", "[build] back-offset: expected [x, y] in mm, got [1]"),
        ("paper = 4", "[build] paper: expected a string, got 4"),
    ],
)
def test_a_wrong_value_is_an_error_on_its_line(mini, monkeypatch, line, message):
    monkeypatch.chdir(mini)
    settings(mini, f"[build]\npinyin = false\n{line}\n")
    for command in ("validate", "build"):
        result = run(command, "-q")
        assert result.exit_code == 1
        assert result.stderr.splitlines() == [f"cardgen.toml:3: error: {message}", "1 error"]
        assert "Traceback" not in result.output


def test_only_builds_just_those_kinds():
    every = targets("werewolf", "--lang", "en", "--players", "9")
    only = targets("werewolf", "--lang", "en", "--players", "9", "--only", "script", "--only", "narrator")
    assert only == [path for path in every if "-script-" in path or "-narrator-" in path]
    assert [Path(path).name for path in only] == ["werewolf-script-en-9p.pdf", "werewolf-narrator-en-9p.html"]


def test_only_writes_just_those_kinds(mini, tmp_path):
    result = run("build", "--only", "cards", "--lang", "en", "--decks", str(mini / "decks"), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "mini").iterdir()) == ["mini-cards-en.pdf"]


def test_site_takes_the_build_options(mini, tmp_path):
    options = [
        "--lang",
        "en",
        "--backs",
        "none",
        "--ink-saver",
        "--card-size",
        "bridge",
        "--decks",
        str(mini / "decks"),
    ]
    assert run("site", *options, "--out", str(tmp_path / "site")).exit_code == 0
    assert run("build", *options, "--out", str(tmp_path / "build")).exit_code == 0
    name = "mini/mini-cards-en.pdf"
    site = (tmp_path / "site" / "site" / name).read_bytes()
    assert site == (tmp_path / "build" / name).read_bytes()
    assert run("build", *options[:2], *options[-2:], "--out", str(tmp_path / "plain")).exit_code == 0
    assert site != (tmp_path / "plain" / name).read_bytes()


def test_watch_takes_the_build_options(mini, tmp_path, monkeypatch):
    import time

    sleep = time.sleep

    def stop_after_the_first_build(seconds):
        # Ctrl-C, where watch waits for its next look at the files (the build sleeps too, for less).
        if seconds == 0.25:
            raise KeyboardInterrupt
        sleep(seconds)

    monkeypatch.setattr(time, "sleep", stop_after_the_first_build)
    options = ["--lang", "en", "--backs", "none", "--ink-saver", "--only", "cards", "--decks", str(mini / "decks")]
    result = run("watch", "mini", *options, "--interval", "0.25", "--out", str(tmp_path / "watch"))
    assert result.exit_code == 0, result.output
    assert "built: 1 file" in result.stdout
    assert run("build", *options, "--out", str(tmp_path / "build")).exit_code == 0
    name = "mini/mini-cards-en.pdf"
    assert sorted(p.name for p in (tmp_path / "watch" / "mini").iterdir()) == ["mini-cards-en.pdf"]
    assert (tmp_path / "watch" / name).read_bytes() == (tmp_path / "build" / name).read_bytes()
