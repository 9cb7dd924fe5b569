"""Problems found in a deck: where (file and line), what, and how bad.

Every stage reports user mistakes as :class:`Problem` values so that validation
can collect all of them and stop once, and the CLI can print them the same way.
A text that lacks languages is an :class:`Untranslated` warning, which :func:`summarised` counts per
language; :func:`kept` and :func:`from_kept` turn a problem into the JSON a build's manifest keeps, and back.
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


@dataclass(frozen=True)
class Untranslated(Problem):
    """A text without some of its game's languages: its key, the languages it lacks, and how the
    message names the language printed instead (English, or 'vi')."""

    key: str = ""
    lacking: tuple[str, ...] = ()
    fallback: str = ""

    @classmethod
    def of(cls, where: Where, owner: str, key: str, lacking: list[str], fallback: str) -> Untranslated:
        languages = ", ".join(repr(lang) for lang in lacking)
        message = f"{owner}: no {languages} text for {key}; the card falls back to {fallback}"
        return cls(where, message, "warning", key, tuple(lacking), fallback)


# How many files a summary of missing translations names: a deck a few cards short reads them all.
NAMED = 3


def summarised(problems: list[Problem]) -> list[Problem]:
    """`problems` with their missing translations, when there are more than NAMED, replaced by a warning
    per language after the others: how many texts lack it, in how many files, the first NAMED of them
    with the line of their first such text and its keys. Languages that the same texts lack share a
    line. A deck of a thousand cards missing three languages says one line, not thousands (-v says each)."""
    untranslated = sorted((p for p in problems if isinstance(p, Untranslated)), key=Problem.sort_key)
    if len(untranslated) <= NAMED:
        return problems
    lacking: dict[tuple[str, str], list[Untranslated]] = {}
    for problem in untranslated:
        for lang in problem.lacking:
            lacking.setdefault((lang, problem.fallback), []).append(problem)
    alike: dict[tuple[str, tuple[Untranslated, ...]], list[str]] = {}
    for (lang, fallback), texts in lacking.items():
        alike.setdefault((fallback, tuple(texts)), []).append(lang)
    return [p for p in problems if not isinstance(p, Untranslated)] + [
        _summary(langs, texts, fallback) for (fallback, texts), langs in alike.items()
    ]


def _summary(langs: list[str], texts: tuple[Untranslated, ...], fallback: str) -> Problem:
    files: dict[str, list[Untranslated]] = {}
    for text in texts:
        files.setdefault(text.where.file if text.where else "", []).append(text)
    named = [f"{found[0].where} ({', '.join(p.key for p in found)})" for found in list(files.values())[:NAMED]]
    more = f" and {count(len(files) - NAMED, 'more file')}" if len(files) > NAMED else ""
    return Problem(
        None,
        f"no {', '.join(map(repr, langs))} text for {count(len(texts), 'text')} in {count(len(files), 'file')}, "
        f"which fall back to {fallback}: {', '.join(named)}{more}; -v lists each",
        "warning",
    )


def kept(problem: Problem) -> list:
    """A problem as JSON: [[file, line] or null, message, severity], and an untranslated text's
    [key, lacking, fallback]."""
    where = [problem.where.file, problem.where.line] if problem.where else None
    entry: list = [where, problem.message, problem.severity]
    if isinstance(problem, Untranslated):
        entry.append([problem.key, list(problem.lacking), problem.fallback])
    return entry


def from_kept(entry: list) -> Problem:
    """The problem :func:`kept` wrote."""
    where = Where(*entry[0]) if entry[0] else None
    if len(entry) == 4:
        key, lacking, fallback = entry[3]
        return Untranslated(where, entry[1], entry[2], key, tuple(lacking), fallback)
    return Problem(where, entry[1], entry[2])


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
