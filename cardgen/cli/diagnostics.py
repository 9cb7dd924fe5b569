"""Problems in, the lines a user reads out, in one of three forms (``--diagnostic-format``):

- ``short``: ``file:line: error: message``, one line each (the default);
- ``human``: the message, then the offending source line with a caret under the value, as typst does;
- ``github``: GitHub's workflow commands, ``::error file=…,line=…::message``, which a pull request
  shows at the line.

Under ``GITHUB_ACTIONS=true`` with no format given, the short lines are followed by the annotations.
Loads click and cardgen's core only: `--help` and `list` must stay quick.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import click

from cardgen.core.problems import Problem

FORMATS = ("short", "human", "github")
_KEY = "cardgen.diagnostic_format"
_ROOT = "cardgen.project_root"
_GITHUB = {"error": "error", "warning": "warning", "note": "notice"}
_QUOTED = re.compile(r"'([^'\n]+)'")


def _store(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        ctx.meta[_KEY] = value
    return value


diagnostic_format_option = click.option(
    "--diagnostic-format",
    type=click.Choice(FORMATS),
    expose_value=False,
    is_eager=True,
    callback=_store,
    help="How problems are printed: short (file:line: message), human (with the source line and a caret) "
    "or github (workflow annotations). Under GITHUB_ACTIONS, short lines are followed by annotations.",
)


def remember_root(root: Path) -> None:
    """The project folder of the command being run: the files problems name are relative to it."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta[_ROOT] = root


def chosen() -> tuple[str, ...]:
    """The forms to print problems in, for the command being run."""
    ctx = click.get_current_context(silent=True)
    given = ctx.meta.get(_KEY) if ctx is not None else None
    if given:
        return (given,)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        return ("short", "github")
    return ("short",)


def render(problems: list[Problem], forms: tuple[str, ...]) -> list[str]:
    """The lines that say `problems` in each of `forms`, form after form."""
    lines: list[str] = []
    for form in forms:
        for problem in problems:
            if form == "github":
                lines.append(github(problem))
            elif form == "human":
                lines.extend([*human(problem), ""])  # a blank line after each, as typst leaves
            else:
                lines.append(str(problem))
    return lines


def github(problem: Problem) -> str:
    """``::error file=F,line=L::message``, escaped as GitHub's workflow commands require."""
    properties = []
    if problem.where is not None:
        properties.append(f"file={_property(problem.where.file)}")
        if problem.where.line:
            properties.append(f"line={problem.where.line}")
    head = f"::{_GITHUB[problem.severity]}"
    if properties:
        head += " " + ",".join(properties)
    return f"{head}::{_data(problem.message)}"


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def human(problem: Problem) -> list[str]:
    """The severity and the message, where it is, and the line itself with a caret under the value."""
    plain = Problem(None, problem.message, problem.severity)
    head = f"{problem.severity}: {str(plain).removeprefix(problem.severity + ': ')}"
    where = problem.where
    if where is None:
        return [head]
    source = _line(where.file, where.line) if where.line else None
    if source is None:
        return [head, f"  ┌─ {where}"]
    start, end = _span(source, problem.message)
    number = str(where.line)
    pad = " " * len(number)
    return [
        head,
        f"{pad} ┌─ {where.file}:{where.line}:{start + 1}",
        f"{pad} │",
        f"{number} │ {_visible(source)}",
        f"{pad} │ {' ' * len(_visible(source[:start]))}{'^' * max(1, len(_visible(source[start:end])))}",
    ]


def _line(file: str, line: int) -> str | None:
    """Line `line` of `file`, named relative to the project (or, outside it, to the working folder)."""
    ctx = click.get_current_context(silent=True)
    root = ctx.meta.get(_ROOT) if ctx is not None else None
    for path in ([root / file] if root is not None else []) + [Path(file)]:
        try:
            with path.open(encoding="utf-8", errors="replace") as text:
                for number, content in enumerate(text, 1):
                    if number == line:
                        return content.rstrip("\r\n")
        except OSError:
            continue
    return None


def _span(source: str, message: str) -> tuple[int, int]:
    """Where on the line the problem is: a value the message quotes, else the value after the key's
    colon, else the line's text without its indentation."""
    for quoted in _QUOTED.findall(message):
        at = source.find(quoted)
        if at >= 0:
            return at, at + len(quoted)
    text = source.rstrip()
    start = len(text) - len(text.lstrip())
    key = re.match(r"\s*(?:-\s+)?[\w.-]+:\s+(?=\S)", text)
    if key and not text[key.end() :].startswith("#"):
        start = key.end()
    return start, max(start + 1, len(text))


def _visible(text: str) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in text.replace("\t", " "))
