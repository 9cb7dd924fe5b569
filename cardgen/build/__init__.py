"""The pipeline, stage by stage: games and options in, written PDFs and a report out.

``check`` loads and validates games (stages 1 and 2) and stops once with every
problem found. ``build`` then runs, for each game and language (or pair of
languages, vi+en, for bilingual cards), resolve →
faces → layout → render → write. Problems in one language do not stop the
others from being written; they are all raised together at the end, so one run
shows everything that needs fixing and keeps every output that is good.
"""

from cardgen.build.checking import (
    card_sizes,
    check,
    check_options,
    game_folder,
    languages,
)
from cardgen.build.options import BuildOptions, Report
from cardgen.build.pipeline import Pipeline, Prepared, back_design, document_text
from cardgen.build.planning import jobs, output_kinds, plan, targets
from cardgen.build.run import build, validate
from cardgen.build.workers import end_on_signals

__all__ = [
    "BuildOptions",
    "Pipeline",
    "Prepared",
    "Report",
    "back_design",
    "build",
    "card_sizes",
    "check",
    "check_options",
    "document_text",
    "end_on_signals",
    "game_folder",
    "jobs",
    "languages",
    "output_kinds",
    "plan",
    "targets",
    "validate",
]
