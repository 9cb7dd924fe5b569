"""The examples of docs/deck-format.md and the README's commands run as written.

(docs/designing.md runs as a whole in test_designing_guide.py.)

- Every ``yaml`` block of docs/deck-format.md is complete (no ``...`` in place of a text), is read
  with cardgen's own YAML 1.2 loader and checked by cardgen's own validator against the schema of
  the file it shows (game, card, rulebook or script: the one it fits); a part of a file needs
  none of the keys a whole file would. Anything else that is not in the schema, or has the wrong
  type, fails. The blocks that are whole files (```` ```yaml file=game.yaml ````) make a game
  together, with a stand-in picture for each symbol they name and a two-line card for each
  card the script's steps name, and ``cardgen validate`` finds no error in it.
- Every picture that README.md and the guides under docs/ show is there, where the text points,
  and is a PNG no larger than a phone screen needs (the narrator guide's are made by
  docs/narrator_shots.py and committed).
- The commands of the README's "Using it" block run one after the other, as written, in a
  project holding the bundled Werewolf deck (the one the commands name; the other bundled
  games would only make the test slower), each exiting 0 without a traceback; ``watch`` is
  stopped with Ctrl-C once it has built. The setup commands of "Two commands" (pip install)
  are not run: the test suite itself runs where they have been.
"""

from __future__ import annotations

import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

from cardgen.core import yaml12
from cardgen.deck import schema
from cardgen.deck.schema_check import _SchemaCheck
from conftest import ROOT, copy_werewolf_box

FORMAT = ROOT / "docs" / "deck-format.md"
README = ROOT / "README.md"
ELIDED = "..."


def _blocks(text: str, kind: str) -> list[tuple[int, str]]:
    """(line, content) of every fenced block of that kind."""
    return [(start, body) for start, _, body in _fenced(text, kind)]


def _fenced(text: str, kind: str) -> list[tuple[int, str | None, str]]:
    """(line, file= of the fence's info or None, content) of every fenced block of that kind."""
    found, inside, body, start, file = [], False, [], 0, None
    for number, line in enumerate(text.splitlines(), start=1):
        if not inside and line.startswith("```"):
            info = line[3:].split()
            inside, body, start = bool(info) and info[0] == kind, [], number
            file = next((word[5:] for word in info[1:] if word.startswith("file=")), None)
            if not inside:
                inside = None
        elif inside is not False and line.rstrip() == "```":
            if inside:
                found.append((start, file, "\n".join(body) + "\n"))
            inside = False
        elif inside:
            body.append(line)
    return found


def _without_elisions(value):
    """The data with every `...` key or value taken out."""
    if isinstance(value, dict):
        return {k: _without_elisions(v) for k, v in value.items() if ELIDED not in (k, v)}
    if isinstance(value, list):
        return [_without_elisions(v) for v in value if v != ELIDED]
    return value


def _relaxed(rule):
    """A schema that accepts a fragment: its references written out, no key required, no mapping or list
    required to be full."""
    if isinstance(rule, dict):
        if "$ref" in rule:
            return _relaxed(schema.DEFS[rule["$ref"].rsplit("/", 1)[1]])
        return {k: _relaxed(v) for k, v in rule.items() if k not in ("required", "minProperties", "minItems", "$defs")}
    if isinstance(rule, list):
        return [_relaxed(v) for v in rule]
    return rule


SCHEMAS = {"game": schema.GAME, "card": schema.CARD, "rulebook": schema.RULEBOOK, "script": schema.SCRIPT}
FORMAT_BLOCKS = _blocks(FORMAT.read_text(encoding="utf-8"), "yaml")


def test_the_format_has_its_examples():
    assert len(FORMAT_BLOCKS) >= 8


@pytest.mark.parametrize("line,text", FORMAT_BLOCKS, ids=[f"line-{line}" for line, _ in FORMAT_BLOCKS])
def test_every_yaml_example_of_the_deck_format_fits_the_schema(line, text):
    assert ELIDED not in text, f"docs/deck-format.md:{line}: an example leaves something out with ..."
    data = yaml12.safe_load(text)
    assert isinstance(data, dict) and data, f"docs/deck-format.md:{line}: not a mapping"
    found = {kind: _SchemaCheck(None).run(data, _relaxed(rule)) for kind, rule in SCHEMAS.items()}
    assert any(not problems for problems in found.values()), (
        f"docs/deck-format.md:{line}: fits no file's schema:\n"
        + "\n".join(f"  as {kind}: {problems}" for kind, problems in found.items())
    )


def test_the_whole_files_of_the_deck_format_make_a_game_that_validates(tmp_path):
    files = {file: text for _, file, text in _fenced(FORMAT.read_text(encoding="utf-8"), "yaml") if file}
    assert sorted(files) == ["game.yaml", "roles/seer.yaml", "rulebook.yaml", "script.yaml"]
    folder = tmp_path / "project" / "decks" / "example"
    for file, text in files.items():
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        (folder / file).write_text(text, encoding="utf-8")
    for symbol in set(re.findall(r"symbols/[\w-]+\.svg", "".join(files.values()))):
        (folder / symbol).parent.mkdir(exist_ok=True)
        (folder / symbol).write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>\n',
            encoding="utf-8",
        )
    # The cards the script's steps name (`if: hunter`) beyond the Seer: one line each, of the village.
    named = re.findall(r"if: \[?([\w, -]+)\]?", files["script.yaml"])
    for card in {c.strip() for found in named for c in found.split(",")} - {"seer"}:
        (folder / "roles" / f"{card}.yaml").write_text(
            f"name: {{en: {card}, vi: {card}, zh: {card}, es: {card}}}\nteam: village\n"
            f"ability: {{en: {card}, vi: {card}, zh: {card}, es: {card}}}\n",
            encoding="utf-8",
        )
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "validate", "--decks", str(folder.parent)],
        cwd=tmp_path / "project",
        capture_output=True,
        text=True,
    )
    assert (done.returncode, [line for line in done.stderr.splitlines() if ": error: " in line]) == (0, [])


# -- the pictures ----------------------------------------------------------------------------------

PICTURE = re.compile(r'!\[[^\]]*\]\(([^)\s]+)\)|<img src="([^"]+)"')
GUIDES = [README, *sorted((ROOT / "docs").glob("*.md"))]


def _pictures(guide) -> list[str]:
    return [a or b for a, b in PICTURE.findall(guide.read_text(encoding="utf-8"))]


def test_the_narrator_guide_shows_the_game_night_in_pictures():
    shown = _pictures(ROOT / "docs" / "narrator.md")
    assert len(shown) >= 10 and all(path.startswith("images/narrator/") for path in shown)
    assert "docs/narrator.md" in README.read_text(encoding="utf-8")


@pytest.mark.parametrize("guide", GUIDES, ids=[g.name for g in GUIDES])
def test_every_picture_a_guide_shows_exists(guide):
    for path in _pictures(guide):
        picture = guide.parent / path
        assert picture.is_file(), f"{guide.relative_to(ROOT)} shows {path}, which is not there"
        data = picture.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 400_000, f"{path}: not a small PNG"


# -- the README's commands --------------------------------------------------------------------------


def _readme_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    block = text.split("## Using it", 1)[1].split("\n\n", 2)[1]
    return [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]


def test_the_readme_shows_its_commands():
    commands = _readme_commands()
    assert len(commands) == 16 and all(command.startswith("cardgen ") for command in commands), commands


def _cardgen() -> list[str]:
    return [sys.executable, "-m", "cardgen"]


def test_every_command_of_the_readme_runs_as_written(tmp_path):
    """The commands that write nothing the others read run side by side, to keep the test quick; `new role`
    and then `watch` (which uses the folder `new role` made) run last, in that order."""
    copy_werewolf_box(tmp_path / "decks")
    # `cardgen narrator` needs the moderator script; nothing here opens a browser (no display).
    shutil.copy(ROOT / "decks" / "werewolf" / "script.yaml", tmp_path / "decks" / "werewolf" / "script.yaml")
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")},
        "PYTHONIOENCODING": "utf-8",
    }
    commands = _readme_commands()
    last = [c for c in commands if c.startswith(("cardgen new", "cardgen watch"))]

    def ran(command: str) -> str:
        done = subprocess.run(
            _cardgen() + command.split()[1:], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
        )
        wrong = f"`{command}` exited {done.returncode}:\n{done.stdout}{done.stderr}" if done.returncode else ""
        return wrong or ("Traceback" in done.stderr and done.stderr) or ""

    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        wrong = [w for w in pool.map(ran, [c for c in commands if c not in last and "cardgen serve" not in c]) if w]
    assert not wrong, "\n".join(wrong)
    for command in (c for c in commands if c.startswith("cardgen serve")):
        _serves_until_ctrl_c(command, tmp_path, env)
    assert last[0].startswith("cardgen new") and last[1].startswith("cardgen watch")
    assert not ran(last[0])
    watch = subprocess.Popen(
        _cardgen() + last[1].split()[1:],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines, deadline = [], time.monotonic() + 300  # a busy machine builds the site slowly
    try:
        for line in watch.stdout:
            lines.append(line)
            if " built: " in line or "not built" in line or time.monotonic() > deadline:
                break
        watch.send_signal(signal.SIGINT)
        rest, _ = watch.communicate(timeout=60)
    finally:
        if watch.poll() is None:
            watch.kill()
            watch.wait()
    output = "".join(lines) + rest
    assert re.search(r"^\d\d:\d\d:\d\d built: ", output, re.M) and output.endswith("stopped\n"), output
    assert (tmp_path / "output" / "werewolf" / "werewolf-cards-vi.pdf").is_file()
    assert (tmp_path / "output" / "werewolf" / "werewolf-cards-vi+en.pdf").is_file()
    assert (tmp_path / "output" / "calibration-a4-long.pdf").is_file()
    assert (tmp_path / "my-roles" / "werewolf" / "roles" / "fox.yaml").is_file()


def _serves_until_ctrl_c(command: str, folder, env: dict) -> None:
    """`cardgen serve` as written (on any free port, not the README's 8000): it builds, says where it
    serves, and ends on Ctrl-C with 130."""
    serve = subprocess.Popen(
        [*_cardgen(), *command.split()[1:], "--port", "0"],
        cwd=folder,
        env={**env, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines, deadline = [], time.monotonic() + 300  # a busy machine builds the site slowly
    try:
        assert serve.stdout is not None
        for line in serve.stdout:
            lines.append(line)
            if line.startswith("serving ") or "not built" in line or time.monotonic() > deadline:
                break
        serve.send_signal(signal.SIGINT)
        rest, _ = serve.communicate(timeout=60)
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()
    output = "".join(lines) + rest
    assert serve.returncode == 130 and "stopped (Ctrl-C)" in output and "Traceback" not in output, output
    assert re.search(r"^serving output/site/ at http://127\.0\.0\.1:\d+/", output, re.M), output
