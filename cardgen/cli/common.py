"""What every command shares: problems in, printed as ``file:line: error: message`` (or another
--diagnostic-format) with their tally out (``DeckProblems``, ``warn``), missing translations counted
per language unless -v is given; the project a command runs in; -q/-v as a level; progress lines; and the
seconds a user waited, counted from the process's start.

Loads click and cardgen's core only: `--help` and `list` must stay quick.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import click

from cardgen.cli import diagnostics
from cardgen.core.problems import DeckError, Problem, summarised, tally
from cardgen.core.project import Project


class DeckProblems(click.ClickException):
    """Exit 1 with every problem on its own line, then the errors and warnings counted apart."""

    def __init__(self, problems: list[Problem], quiet: bool = False):
        # Stable: within one line, problems keep the order the stages found them in.
        quiet = quiet or level() < 0
        shown = [p for p in sorted(problems, key=Problem.sort_key) if not (quiet and p.severity == "note")]
        super().__init__("\n".join(diagnostics.render(_summarised(shown), diagnostics.chosen())))
        self.tally = tally(problems)

    def format_message(self) -> str:
        return self.message

    def show(self, file=None) -> None:
        if self.message:
            click.echo(self.format_message(), err=True)
        click.echo(self.tally, err=True)


def project(decks: Path | None, includes: tuple[Path, ...] = ()) -> Project:
    """The project a command runs in, its settings file checked: every command refuses what a build would
    (the commands that read the [build] table check its values too, and say the warnings)."""
    from cardgen.core.config import settings_problems

    try:
        found = Project.at(decks, includes)
        problems = settings_problems(found.root)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    if any(problem.severity == "error" for problem in problems):
        raise DeckProblems(problems)
    diagnostics.remember_root(found.root)
    return found


def warn(problems: list[Problem], quiet: bool = False) -> None:
    quiet = quiet or level() < 0
    shown = [problem for problem in problems if not (quiet and problem.severity == "note")]
    for line in diagnostics.render(_summarised(shown), diagnostics.chosen()):
        click.echo(line, err=True)


def _summarised(problems: list[Problem]) -> list[Problem]:
    """Missing translations counted per language, unless -v asks for each."""
    return problems if level() > 0 else summarised(problems)


_LEVEL = "cardgen.verbosity"


def _store_level(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.meta[_LEVEL] = ctx.meta.get(_LEVEL, 0) + (1 if param.name == "verbose" else -2)
        if ctx.meta[_LEVEL] == -1:  # both given
            raise click.UsageError("-q and -v are opposites; give one of them")
    return value


def level() -> int:
    """-1 with -q, 1 with -v, else 0: for the command being run, whichever way it declared them."""
    ctx = click.get_current_context(silent=True)
    return max(-1, min(1, ctx.meta.get(_LEVEL, 0))) if ctx is not None else 0


def say(message: str, at_least: int = 0) -> None:
    """A line of what a command did, on stderr: left out with -q (and below `at_least`)."""
    if level() >= at_least:
        click.echo(message, err=True)


def verbosity(quiet: bool, verbose: bool) -> int:
    if quiet and verbose:
        raise click.UsageError("-q and -v are opposites; give one of them")
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta[_LEVEL] = -1 if quiet else 1 if verbose else 0
    return -1 if quiet else 1 if verbose else 0


def progress(verb: str, level: int):
    """A progress bar on a terminal (a line per job with -v or elsewhere), nothing with -q."""

    def progress(jobs):
        if level < 0:
            yield from jobs
        elif sys.stderr.isatty() and level == 0:
            with click.progressbar(
                jobs,
                label=verb.capitalize(),
                file=sys.stderr,
                item_show_func=lambda job: job and f"{job[0].id} {job[1]}",
            ) as bar:
                yield from bar
        else:
            for job in jobs:
                click.echo(f"{verb} {job[0].id} ({job[1]})", err=True)
                yield job

    return progress


started: float | None = None  # on time.perf_counter's clock, when run as a process (cli.main sets it)


def process_start() -> float:
    """When this process started, on time.perf_counter's clock: interpreter start and imports count
    (read from /proc where there is one; otherwise now)."""
    now = time.perf_counter()
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            ticks = int(stat.read().rsplit(")", 1)[1].split()[19])  # field 22, starttime
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - max(0.0, age)


def waited(seconds: float) -> float:
    """The seconds a user waited for a command that took `seconds` itself."""
    return seconds if started is None else time.perf_counter() - started
