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

Every command that finds the project checks the whole file (:func:`settings_problems`), each
mistake at its line; the [build] table's values are checked by the options they set.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

from cardgen.core.problems import DeckError, Problem, Where, did_you_mean, relative
from cardgen.core.project import read_text

# The settings file of a project, and where its settings are in it.
_FILES = (
    ("cardgen.toml", (), "cardgen.toml"),
    ("pyproject.toml", ("tool", "cardgen"), "pyproject.toml [tool.cardgen]"),
)

# The tables a settings file may hold, and what each is for.
TABLES = {"build": "build options", "printers": "printers' settings", "cardgen": "what cardgen the project uses"}


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
                line, message = _decode_error(exc, text)
                raise DeckError([Problem(Where(relative(path), line), f"TOML error: {message}")]) from None
            for depth, table in enumerate(tables):
                value = settings.get(table, {})
                if isinstance(value, dict):
                    settings = value
                elif depth < len(tables) - 1:
                    # `tool = 5`: no tools' tables, so none of cardgen's; the rest of the file is not cardgen's to judge.
                    settings = {}
                else:
                    raise DeckError(
                        [
                            Problem(
                                Where(relative(path), _line(text, tables[:depth], (table,))),
                                f"{'.'.join(tables)}: expected a table of cardgen's settings "
                                f"([{'.'.join(tables)}]), got {value!r}",
                            )
                        ]
                    )
            return settings, text, where, tables
    return {}, "", "cardgen.toml", ()


def _decode_error(exc: tomllib.TOMLDecodeError, text: str) -> tuple[int, str]:
    """A TOML syntax error's line and what it says, without the position its message ends in."""
    message = str(exc)
    found = re.search(r" \(at line (\d+), column (\d+)\)$", message)
    if found:
        return int(found[1]), f"{message[: found.start()]} (column {found[2]})"
    # "(at end of document)": the last line.
    return max(1, len(text.splitlines())), re.sub(r" \(at end of document\)$", " (at the end of the file)", message)


def build_settings(root: Path) -> list[tuple[str, object, Where]]:
    """The [build] table's entries: (key, value, where it is written), in the file's order."""
    return _table(root, "build")


# The [cardgen] table: which cardgen the project's workflow installs, and with it the fonts of its world
# extra where the project's languages need them (`cardgen init` writes both).
CARDGEN_KEYS = {
    "requirement": 'a pip requirement, like "cardgen==0.1.0" or a wheel\'s path',
    "world": 'a pip requirement, like "cardgen-world==0.1.0" or a wheel\'s path',
}


def cardgen_problems(root: Path) -> list[Problem]:
    """What is wrong in the [cardgen] table: an unknown key (a warning), a value that is not a
    non-empty string (an error), each at its file and line."""
    problems = []
    for key, value, where in _table(root, "cardgen"):
        if key not in CARDGEN_KEYS:
            known = ", ".join(CARDGEN_KEYS)
            problems.append(Problem(where, f"unknown key '{key}' in [cardgen]; known: {known}", "warning"))
        elif not (isinstance(value, str) and value.strip()):
            problems.append(Problem(where, f"[cardgen] {key}: expected {CARDGEN_KEYS[key]}, got {value!r}"))
    return problems


def _table(root: Path, table: str) -> list[tuple[str, object, Where]]:
    """A table's entries: (key, value, where it is written), in the file's order."""
    settings, text, where, tables = _file(root)
    found = settings.get(table, {})
    name = where.split()[0]
    path = relative(root / name)
    header = _header_line(text, ".".join((*tables, table)))
    if not isinstance(found, dict):
        raise DeckError([Problem(Where(path, _line(text, tables, (table,))), _not_table(table, TABLES[table], found))])
    if not header:  # an inline table: its keys are on its own line
        return [(key, value, Where(path, _line(text, tables, (table,)))) for key, value in found.items()]
    return [(key, value, Where(path, _key_line(text, key, header))) for key, value in found.items()]


def _header_line(text: str, table: str) -> int:
    """The line of a table's header (`[build]`), or 0 when it has none (an inline table)."""
    pattern = re.compile(r"\[\s*" + r"\s*\.\s*".join(map(re.escape, table.split("."))) + r"\s*\]\s*(#.*)?$")
    return next((n for n, line in enumerate(text.splitlines(), 1) if pattern.match(line.strip())), 0)


def _key_line(text: str, key: str | tuple[str, ...], after: int) -> int | None:
    """The line a key (a dotted one given as its parts) is set on in the table whose header is on line
    `after` (0: the top level): a table holds keys, one to a line, and ends at the next header."""
    parts = (key,) if isinstance(key, str) else key
    quoted = (r"""(["']?)""" + re.escape(part) + rf"\{n + 1}" for n, part in enumerate(parts))
    pattern = re.compile(r"\s*" + r"\s*\.\s*".join(quoted) + r"\s*=")
    for n, line in enumerate(text.splitlines()[after:], after + 1):
        if line.lstrip().startswith("["):
            break
        if pattern.match(line):
            return n
    return None


# How far a back offset may move the backs, in mm either way: the calibration sheet's scales reach
# 8 mm, and a printer that misplaces its backs by more than this needs mending, not an offset.
MAX_BACK_OFFSET = 10.0


def offset_error(value: object) -> str | None:
    """Why a back offset, as the settings file gives it, cannot be one; None when it can."""
    if not (isinstance(value, list) and len(value) == 2 and all(is_number(v) for v in value)):
        return f"expected [x, y] in mm, got {value!r}"
    if not all(abs(v) <= MAX_BACK_OFFSET for v in value):  # also refuses nan and inf
        return f"expected offsets from -{MAX_BACK_OFFSET:g} to {MAX_BACK_OFFSET:g} mm, got {value!r}"
    return None


def is_number(value: object) -> bool:
    """A real number: true and false are no numbers, though Python counts them as 1 and 0."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def settings_problems(root: Path) -> list[Problem]:
    """Everything wrong in the settings file but the [build] table's values (the command line's options
    check those): a syntax error, a table of the wrong type, an unknown table or key (a warning), a
    printer's back offset that is no pair of numbers within reach, each at its file and line."""
    settings, text, where, tables = _file(root)
    path = relative(root / where.split()[0])
    problems = []
    for key in settings:
        if key not in TABLES:
            problems.append(
                Problem(
                    Where(path, _line(text, tables, (key,))),
                    f"unknown table '{key}'{did_you_mean(key, TABLES)}; known: {', '.join(TABLES)}",
                    "warning",
                )
            )
    printers = settings.get("printers", {})
    if not isinstance(printers, dict):
        return [
            *problems,
            Problem(
                Where(path, _line(text, tables, ("printers",))), _not_table("printers", TABLES["printers"], printers)
            ),
        ]
    for name, printer in printers.items():
        at = ("printers", name)
        if not isinstance(printer, dict):
            problems.append(
                Problem(
                    Where(path, _line(text, tables, at)),
                    _not_table(f"printers.{name}", "a printer's settings", printer),
                )
            )
            continue
        for key in printer:
            if key != "back-offset":
                problems.append(
                    Problem(
                        Where(path, _line(text, tables, (*at, key))),
                        f"unknown key '{key}' in [printers.{name}]; known: back-offset",
                        "warning",
                    )
                )
        error = offset_error(printer.get("back-offset"))
        if error:
            problems.append(
                Problem(Where(path, _line(text, tables, (*at, "back-offset"))), f"printers.{name}.back-offset: {error}")
            )
    return sorted(problems + cardgen_problems(root), key=Problem.sort_key)


def _not_table(name: str, what: str, value: object) -> str:
    return f"{name}: expected a table of {what} ([{name}]), got {value!r}"


def _line(text: str, tables: tuple[str, ...], path: tuple[str, ...]) -> int | None:
    """The line a value is written on: its own header when it is a table, else its key (dotted or not)
    under the nearest header above it; for a key inside an inline table, the line of the key that opens it."""
    full = (*tables, *path)
    for end in range(len(full), 0, -1):
        own = _header_line(text, ".".join(full[:end]))
        if own:
            return own
        for split in range(end - 1, -1, -1):
            header = _header_line(text, ".".join(full[:split])) if split else 0
            line = _key_line(text, full[split:end], header) if header or not split else None
            if line:
                return line
    return None


def printer_offset(root: Path, name: str) -> tuple[float, float]:
    """The back offset remembered for a printer."""
    settings, _, where, _ = _file(root)
    printers = settings.get("printers", {})
    printers = printers if isinstance(printers, dict) else {}
    if name not in printers:
        known = ", ".join(printers) or "none yet"
        raise DeckError([Problem(None, f"no printer '{name}' in {where}; printers: {known}")])
    offset = printers[name].get("back-offset") if isinstance(printers[name], dict) else None
    error = offset_error(offset)
    if error or not isinstance(offset, list):
        raise DeckError([Problem(None, f"{where}: printers.{name}.back-offset: {error}")])
    return float(offset[0]), float(offset[1])
