"""The kinds of output a build makes: one record each (``Kind``) in ``KINDS``, in the order a job writes
them; planning, paths, the manifest's incremental checks, the site, `--only` and the narrator command
all read them from here.

Every field of BuildOptions either makes some kind stale (``Kind.stale_on``, or ``TABLE`` for an output
made for one table) or is listed in ``NOT_IN_OUTPUT`` with why: tests/test_kinds.py holds them to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from cardgen.build.options import BuildOptions
    from cardgen.build.pipeline import Pipeline, Prepared
    from cardgen.core.write import Staged
    from cardgen.deck.load import GameFiles


@dataclass
class Made:
    """An output's bytes (or its file, written beside its target and to be put in place) and page count, and
    for card sheets what the report counts."""

    data: bytes | Staged
    pages: int
    cards: int = 0  # copies on the sheets
    sheets: int = 0  # of paper
    box_sheets: int = 0  # a tailored build's: what the whole box would have taken
    back_ink: float = 0.0  # mean ink coverage of the backs' colours

    @property
    def held(self) -> bytes:
        """The bytes of an output made in memory (without a path to write it to as it is made)."""
        if not isinstance(self.data, bytes):
            raise ValueError("an output written as it was made is not held in memory")
        return self.data


@dataclass(frozen=True)
class Kind:
    name: str
    suffix: str  # of its file: <game>-<name>-<lang>[-<table>].<suffix>, the table as [<setup>-]<N>p[-<digest>]
    stale_on: tuple[str, ...]  # the BuildOptions fields that change its bytes
    unused_templates: tuple[str, ...]  # files or folders at the top of templates/ it never reads
    table: str  # "always": made for the build's table (--players, --roles); "only-needed":
    # with --only-needed; "never": always the whole box's
    pairs: bool  # made for a language pair (vi+en) too
    needs: tuple[str, ...]  # deck files the game must have for it
    faces: bool  # draws the cards' faces (the others need the deck resolved and imposed only)
    # (…, tailored, once, path): `path`, where the output goes, for a kind that writes it there as it makes
    # it (the card sheets); None: made in memory
    make: Callable[[Pipeline, Prepared, GameFiles, bool, bool, Path | None], Made]

    def made_for(self, files: GameFiles) -> bool:
        return all(name in files.extra for name in self.needs)

    def tailored(self, options: BuildOptions) -> bool:
        """Whether a build with these options makes it for its table rather than for the whole box."""
        return options.tailored and (self.table == "always" or (self.table == "only-needed" and options.only_needed))

    def path_name(self, game: str, lang: str, table: str | None) -> str:
        """Its file's name: `table` names a tailored build's table (planning.table_name), None the whole box."""
        return f"{game}-{self.name}-{lang}{f'-{table}' if table else ''}.{self.suffix}"


# Named functions, not lambdas: a job's targets, kinds and all, are pickled to reach a worker process.
def _cards(
    pipeline: Pipeline, prepared: Prepared, files: GameFiles, tailored: bool, once: bool, path: Path | None
) -> Made:
    return pipeline.cards(prepared, files, tailored, path)


def _rulebook(
    pipeline: Pipeline, prepared: Prepared, files: GameFiles, tailored: bool, once: bool, path: Path | None
) -> Made:
    return pipeline.rulebook(prepared, files, once)


def _script(
    pipeline: Pipeline, prepared: Prepared, files: GameFiles, tailored: bool, once: bool, path: Path | None
) -> Made:
    return pipeline.script(prepared, files, once)


def _narrator(
    pipeline: Pipeline, prepared: Prepared, files: GameFiles, tailored: bool, once: bool, path: Path | None
) -> Made:
    return Made(pipeline.narrator(prepared, files), 0)


# Card sheets alone read these templates.
_CARDS_ONLY = ("card-layout.yaml", "sheet.yaml")
# No output of a build reads the starting files (new/, init/) or the site's pages (site/).
_NEVER = ("new", "init", "site")

CARDS = Kind(
    "cards",
    "pdf",
    stale_on=("paper", "card_size", "bleed", "backs", "ink_saver", "back_offset", "margin", "pinyin"),
    unused_templates=(*_NEVER, "documents", "narrator"),
    table="only-needed",
    pairs=True,
    needs=(),
    faces=True,
    make=_cards,
)
# The rulebook counts the card sheets and names their paper (so sheet.yaml shapes it); documents are
# printed on the build's paper.
RULEBOOK = Kind(
    "rulebook",
    "pdf",
    stale_on=("booklet", "paper", "card_size", "bleed", "backs", "margin"),
    unused_templates=(*_NEVER, "narrator", "card-layout.yaml"),
    table="never",
    pairs=True,
    needs=("rulebook.yaml",),
    faces=False,
    make=_rulebook,
)
SCRIPT = Kind(
    "script",
    "pdf",
    stale_on=("paper",),
    unused_templates=(*_NEVER, "narrator", *_CARDS_ONLY),
    table="always",
    pairs=True,
    needs=("script.yaml",),
    faces=False,
    make=_script,
)
# The page reads aloud in one language.
NARRATOR = Kind(
    "narrator",
    "html",
    stale_on=(),
    unused_templates=(*_NEVER, "preview", *_CARDS_ONLY),
    table="always",
    pairs=False,
    needs=("script.yaml",),
    faces=False,
    make=_narrator,
)

KINDS = {kind.name: kind for kind in (CARDS, RULEBOOK, SCRIPT, NARRATOR)}

# What an output made for one table also depends on (the whole box's outputs never do).
TABLE = ("players", "setup", "extra_cards", "roles")
# The BuildOptions fields that change no output's bytes.
NOT_IN_OUTPUT = {
    "langs": "which languages are built; each output's own language is hashed apart",
    "out": "where the outputs go",
    "strict": "whether warnings fail the build",
    "force": "whether up-to-date outputs are made again",
    "jobs": "how many processes make the outputs",
    "kinds": "which kinds are built (--only)",
    "only_needed": "whether the card sheets are made for the table: a file of its own (-<table>), then hashed with TABLE",
}
