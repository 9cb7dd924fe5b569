"""Problems found in a deck: where (file and line), what, and how bad.

Every stage reports user mistakes as :class:`Problem` values so that validation
can collect all of them and stop once, and the CLI can print them the same way.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

# A note tells what the build did (an included card replacing a bundled one) and never fails it.
Severity = Literal["error", "warning", "note"]


@dataclass(frozen=True, order=True)
class Where:
    """A position in a source file; line is 1-based, None when unknown."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True)
class Problem:
    where: Where | None
    message: str
    severity: Severity = "error"

    def fails(self, strict: bool) -> bool:
        return self.severity == "error" or (strict and self.severity == "warning")

    def sort_key(self) -> tuple:
        """Reading order: by file, then line; problems of no file first."""
        return (self.where.file, self.where.line or 0) if self.where else ("", 0)

    def __str__(self) -> str:
        prefix = f"{self.where}: " if self.where else ""
        return _printable(f"{prefix}{self.severity}: {self.message}")


def _printable(text: str) -> str:
    """Control characters a deck smuggled into a message, spelled out: they must not reach a terminal."""
    return "".join(
        ch if ch.isprintable() else f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}" for ch in text
    )


def relative(path: Path) -> str:
    """A path outside the project and the working folder, as one would type it from here (../mine/x.yaml):
    a message names no absolute path of the machine it runs on."""
    try:
        return Path(os.path.relpath(Path(path).absolute())).as_posix()
    except ValueError:  # another drive, on Windows
        return Path(path).as_posix()


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """ " (did you mean 'x'?)" for the closest of choices, or nothing."""
    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{match[0]}'?)" if match else ""


def count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def tally(problems: Iterable[Problem]) -> str:
    """The last line of a run that failed: its errors and its warnings, counted apart (notes are not)."""
    problems = list(problems)
    errors = sum(1 for p in problems if p.severity == "error")
    warnings = sum(1 for p in problems if p.severity == "warning")
    if errors:
        return count(errors, "error") + (f", {count(warnings, 'warning')}" if warnings else "")
    return f"{count(warnings, 'warning')} (fails with --strict)"


class DeckError(Exception):
    """Raised once a stage has collected problems that stop the build."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
