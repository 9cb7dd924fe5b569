"""docs/print-services.md and the README's export and box examples run exactly as written.

Each ``console`` block of the doc is one command, run in a fresh folder holding a copy of
the repository's decks/ (as a clone has); the ``output`` block after it is its exact
output, warnings first, with only the seconds of the summary line left out. Every
``cardgen export`` and ``cardgen box`` line of the README must run and exit 0 the same way.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "print-services.md"
SECONDS = re.compile(r"(?m) in \d+\.\d s$")
BLOCK = re.compile(r"```console\n\$ (?P<command>[^\n]+)\n```\n\n```output\n(?P<output>.*?)```", re.S)


def _examples() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    examples = [(m["command"], m["output"]) for m in BLOCK.finditer(text)]
    # Every console block is one command with its output: none may slip past the pattern.
    assert len(examples) == text.count("```console") > 0
    return examples


def _readme_commands() -> list[str]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    commands = [line.split("#")[0].strip() for line in lines if re.match(r"^    cardgen (export \S+ --for|box) ", line)]
    assert commands
    return commands


def _run(command: str, folder: Path) -> tuple[int, str]:
    args = shlex.split(command)
    assert args[0] == "cardgen", command
    result = subprocess.run(
        [sys.executable, "-m", "cardgen", *args[1:]], cwd=folder, capture_output=True, text=True, timeout=300
    )
    return result.returncode, result.stderr + result.stdout


@pytest.fixture
def clone(tmp_path) -> Path:
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    return tmp_path


@pytest.mark.parametrize("command, output", _examples(), ids=lambda value: value.split("\n")[0][:60])
def test_the_doc_s_examples_print_what_it_says(clone, command, output):
    code, printed = _run(command, clone)
    assert code == 0, printed
    assert SECONDS.sub(" in N s", printed) == SECONDS.sub(" in N s", output)
    for line in printed.splitlines():
        if line.startswith("output/"):
            assert (clone / line).is_file(), line


@pytest.mark.parametrize("command", _readme_commands())
def test_the_readme_s_export_and_box_examples_run(clone, command):
    code, printed = _run(command, clone)
    assert code == 0, printed
