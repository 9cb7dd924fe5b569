"""One game's decks, language by language, for the outputs beyond the build's (exports, print services,
Tabletop Simulator, the box): a game and its languages in, each language's prepared deck out, and a
report of what was written or every problem together."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.build.checking import check, languages
from cardgen.build.options import BuildOptions
from cardgen.build.pipeline import Pipeline
from cardgen.core.problems import DeckError, Problem
from cardgen.core.project import Project


@dataclass
class ExportReport:
    files: list[Path] = field(default_factory=list)
    cards: int = 0
    seconds: float = 0.0
    warnings: list[Problem] = field(default_factory=list)


class GameLanguages:
    """One game's languages prepared for an export, one at a time, as ``build`` prepares them.

    Iterating yields each language's deck ready to render; a language whose deck has problems
    is skipped and its problems kept, so the good languages are still written. :meth:`finish`
    then raises every problem together, or returns the report."""

    def __init__(
        self,
        project: Project,
        game: str,
        langs: tuple[str, ...],
        out: Path,
        card_size: Callable[[dict], str | None] = lambda game_data: None,
        sizes: dict[str, dict] | None = None,
    ):
        """`card_size` picks, from the game.yaml data, the size its cards take instead of their own."""
        self.start = time.perf_counter()
        (self.files,), self.warnings = check(project, [game], strict=False)
        self.langs = languages(self.files, langs)
        options = BuildOptions(langs=tuple(self.langs), out=out, card_size=card_size(self.files.checked_game.data))
        self.pipeline = Pipeline(project, options, sizes=sizes)
        self.problems: list[Problem] = []
        self.report = ExportReport(warnings=list(self.warnings))

    def __iter__(self):
        for lang in self.langs:
            prepared, found = self.pipeline.prepare(self.files, lang, sheets=False)
            if prepared is None:
                self.problems += found
                continue
            self.report.warnings += found
            yield prepared

    def finish(self) -> ExportReport:
        self.report.seconds = time.perf_counter() - self.start
        if self.problems:
            raise DeckError(self.warnings + self.problems)
        return self.report
