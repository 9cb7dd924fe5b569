"""What a build writes: games and options in, each game's output files (``Target``) out, and for a
tailored build the table settled once per game."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.build.checking import card_sizes, languages
from cardgen.build.kinds import KINDS, Kind
from cardgen.build.options import BuildOptions
from cardgen.build.pipeline import document_text, table_of
from cardgen.core.problems import DeckError, Problem
from cardgen.core.project import Project

# The stages come in when a build needs them: a build with nothing to do, `list` and --help load none.
if TYPE_CHECKING:
    from cardgen.deck.load import GameFiles


def jobs(games: list[GameFiles], options: BuildOptions) -> list[tuple[GameFiles, str]]:
    return [(files, lang) for files in games for lang in languages(files, options.langs)]


def output_kinds(files: GameFiles) -> list[Kind]:
    """The outputs a game makes per language: those whose deck files it has (its cards always)."""
    return [kind for kind in KINDS.values() if kind.made_for(files)]


def output_path(options: BuildOptions, files: GameFiles, kind: Kind, lang: str, table: str | None = None) -> Path:
    """Where an output goes: `<game>-<kind>-<lang>.pdf` for the whole box, `-<table>` added for a table
    (:func:`table_name`)."""
    return options.out / files.id / kind.path_name(files.id, lang, table)


def table_name(files: GameFiles, options: BuildOptions) -> str:
    """What a tailored build's files say of its table, so that two tables never share a file:
    `[<setup>-]<N>p[-<digest>]`. The setup is named when it is not the game's first (the one dealt without
    --setup), and the digest (6 hex digits of SHA-256) tells apart the cards --with adds to the setup's
    row or --roles names, in any order. The game's own table for N players stays `<N>p`."""
    first = next(iter(files.checked_game.data.get("setups") or {}), None)
    setup = f"{options.setup}-" if options.setup not in (None, first) else ""
    cards = [f"with:{card}" for card in sorted(options.extra_cards)]
    cards += [f"roles:{card}:{n}" for card, n in sorted(options.roles)]
    digest = "-" + hashlib.sha256(",".join(cards).encode()).hexdigest()[:6] if cards else ""
    return f"{setup}{options.players}p{digest}"


@dataclass(frozen=True)
class Target:
    """One output file of a build."""

    kind: str  # its name in KINDS
    path: Path
    tailored: bool  # made for the build's table, not for the whole box


def targets(files: GameFiles, lang: str, options: BuildOptions) -> list[Target]:
    """The files a build writes for one game and language (a tailored build's `options` come from :func:`plan`)."""
    out = []
    for kind in output_kinds(files):
        if options.kinds and kind.name not in options.kinds or ("+" in lang and not kind.pairs):
            continue
        tailored = kind.tailored(options)
        table = table_name(files, options) if tailored else None
        out.append(Target(kind.name, output_path(options, files, kind, lang, table), tailored))
    return out


def plan(
    project: Project, games: list[GameFiles], options: BuildOptions
) -> tuple[list[tuple[GameFiles, BuildOptions]], list[Problem]]:
    """Each game with the options its outputs are built with, and the table's warnings. For a tailored
    build the table is settled here, once per game and before anything is drawn: a mistake in the
    options stops the build at once, and the number of players (counted from --roles, or a one-row
    setup's) names the files, with the setup and the cards named (:func:`table_name`)."""
    from cardgen.deck.resolve import AnyGlyph, resolve_deck

    if not options.tailored:
        return [(files, options) for files in games], []
    if options.roles and len(games) != 1:
        raise DeckError([Problem(None, "--roles names the cards of one game: build one game at a time")])
    planned: list[tuple[GameFiles, BuildOptions]] = []
    warnings: list[Problem] = []
    for files in games:
        lang = languages(files, options.langs)[0]
        deck, _ = resolve_deck(files, lang, options.card_size, card_sizes(project), AnyGlyph())
        table = table_of(deck, files, options, document_text(project.template_data, deck.lang))
        planned.append((files, replace(options, players=table.players)))
        warnings += table.warnings
    return planned, warnings
