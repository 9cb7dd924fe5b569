"""A project's settings file: cardgen.toml, or [tool.cardgen] in pyproject.toml, in; named values out.

It remembers printers: the back offset a calibration sheet measured, so
that a group prints with ``--printer office`` instead of retyping numbers::

    [printers.office]
    back-offset = [0.5, -1.0]    # mm, as read on the calibration sheet

and the project's defaults for the build options, each given as on the command line, which
overrides them::

    [build]
    paper = "letter"
    lang = ["en", "vi"]

and which cardgen the project's GitHub workflow installs (written by ``cardgen init``)::

    [cardgen]
    requirement = "cardgen==0.1.0"
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

from cardgen.core.problems import DeckError, Problem, Where, relative
from cardgen.core.project import read_text

# The settings file of a project, and where its settings are in it.
_FILES = (
    ("cardgen.toml", (), "cardgen.toml"),
    ("pyproject.toml", ("tool", "cardgen"), "pyproject.toml [tool.cardgen]"),
)


def _file(root: Path) -> tuple[dict, str, str, tuple[str, ...]]:
    """The project's settings, the text they were read from (empty: no file), the file's name as a
    message says it, and the tables above them in that file."""
    for name, tables, where in _FILES:
        path = root / name
        if os.path.lexists(path):
            text = read_text(path, root, path.name)
            try:
                settings = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise DeckError([Problem(Where(path.name), f"TOML error: {exc}")]) from None
            for table in tables:
                settings = settings.get(table, {}) if isinstance(settings, dict) else {}
            return settings, text, where, tables
    return {}, "", "cardgen.toml", ()


def build_settings(root: Path) -> list[tuple[str, object, Where]]:
    """The [build] table's entries: (key, value, where it is written), in the file's order."""
    return _table(root, "build", "build options")


# The [cardgen] table: which cardgen the project's workflow installs (`cardgen init` writes it).
CARDGEN_KEYS = {"requirement": 'a pip requirement, like "cardgen==0.1.0" or a wheel\'s path'}


def cardgen_problems(root: Path) -> list[Problem]:
    """What is wrong in the [cardgen] table: an unknown key (a warning), a value that is not a
    non-empty string (an error), each at its file and line."""
    problems = []
    for key, value, where in _table(root, "cardgen", "what cardgen the project uses"):
        if key not in CARDGEN_KEYS:
            known = ", ".join(CARDGEN_KEYS)
            problems.append(Problem(where, f"unknown key '{key}' in [cardgen]; known: {known}", "warning"))
        elif not (isinstance(value, str) and value.strip()):
            problems.append(Problem(where, f"[cardgen] {key}: expected {CARDGEN_KEYS[key]}, got {value!r}"))
    return problems


def _table(root: Path, table: str, what: str) -> list[tuple[str, object, Where]]:
    """A table's entries: (key, value, where it is written), in the file's order."""
    settings, text, where, tables = _file(root)
    found = settings.get(table, {}) if isinstance(settings, dict) else {}
    name = where.split()[0]
    path = relative(root / name)
    header = _header_line(text, ".".join((*tables, table)))
    if not isinstance(found, dict):
        raise DeckError(
            [
                Problem(
                    Where(path, _key_line(text, table, 0)),
                    f"{table}: expected a table of {what} ([{table}]), got {found!r}",
                )
            ]
        )
    if not header:  # an inline table: its keys are on its own line
        return [(key, value, Where(path, _key_line(text, table, 0))) for key, value in found.items()]
    return [(key, value, Where(path, _key_line(text, key, header))) for key, value in found.items()]


def _header_line(text: str, table: str) -> int:
    """The line of a table's header (`[build]`), or 0 when it has none (an inline table)."""
    pattern = re.compile(r"\[\s*" + r"\s*\.\s*".join(map(re.escape, table.split("."))) + r"\s*\]\s*(#.*)?$")
    return next((n for n, line in enumerate(text.splitlines(), 1) if pattern.match(line.strip())), 0)


def _key_line(text: str, key: str, after: int) -> int | None:
    """The line a key is set on in the table whose header is on line `after` (0: the top level): a
    [build] table holds plain keys, one to a line, and ends at the next header."""
    pattern = re.compile(r"""\s*(["']?)""" + re.escape(key) + r"""\1\s*=""")
    for n, line in enumerate(text.splitlines()[after:], after + 1):
        if line.lstrip().startswith("["):
            break
        if pattern.match(line):
            return n
    return None


def printer_offset(root: Path, name: str) -> tuple[float, float]:
    """The back offset remembered for a printer."""
    settings, _, where, _ = _file(root)
    printers = settings.get("printers", {}) if isinstance(settings, dict) else {}
    printers = printers if isinstance(printers, dict) else {}
    if name not in printers:
        known = ", ".join(printers) or "none yet"
        raise DeckError([Problem(None, f"no printer '{name}' in {where}; printers: {known}")])
    offset = printers[name].get("back-offset") if isinstance(printers[name], dict) else None
    if not (isinstance(offset, list) and len(offset) == 2 and all(isinstance(v, (int, float)) for v in offset)):
        raise DeckError([Problem(None, f"{where}: printers.{name}.back-offset: expected [x, y] in mm, got {offset!r}")])
    return float(offset[0]), float(offset[1])
