"""What a build is asked and what it answers: command-line and cardgen.toml settings in (as
``BuildOptions``), the build's ``Report`` (files, pages, cards, sheets, warnings) out."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.core.problems import Problem, count

# The stages come in when a build needs them: a build with nothing to do, `list` and --help load none.
if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class BuildOptions:
    langs: tuple[str, ...] = ()
    paper: str = "a4"
    card_size: str | None = None
    bleed: float = 3.0
    backs: str = "long"
    ink_saver: bool = False
    out: Path = Path("output")
    strict: bool = False
    booklet: bool = False
    force: bool = False  # rebuild outputs whose inputs did not change
    jobs: int | None = None  # worker processes; None: one per core
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, undoing a duplex printer's misplaced backs
    margin: float | None = None  # printable margin in mm; None: templates/sheet.yaml's
    players: int | None = None  # script the game's setup for this many players
    setup: str | None = None  # which setup (default: the game's first)
    extra_cards: tuple[str, ...] = ()  # cards in play beyond the setup's (--with)
    roles: tuple[tuple[str, int], ...] = ()  # the exact cards in play (--roles), instead of a setup's row
    only_needed: bool = False  # a tailored build's card sheets hold only that table's cards
    pinyin: bool = False  # pinyin over the Chinese names of role cards
    kinds: tuple[str, ...] = ()  # only these outputs (cards, rulebook, script, narrator); empty: all

    @property
    def tailored(self) -> bool:
        """Built for one evening's table rather than for the whole box."""
        return self.players is not None or self.setup is not None or bool(self.roles)


@dataclass
class Report:
    files: list[Path] = field(default_factory=list)
    pages: int = 0
    cards: int = 0
    sheets: int = 0  # of paper, for the card PDFs written
    seconds: float = 0.0
    warnings: list[Problem] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)  # outputs already up to date
    dark_backs: dict[str, float] = field(default_factory=dict)  # game -> ink coverage of its backs
    saved: tuple[int, int] = (0, 0)  # --only-needed: sheets of cards printed, and the whole box's

    @property
    def up_to_date(self) -> int:
        return len(self.kept)

    def summary(self) -> str:
        warned = sum(1 for w in self.warnings if w.severity == "warning")
        tail = f", {count(warned, 'warning')}" if warned else ""
        if not self.files and self.up_to_date:
            return f"up to date ({count(self.up_to_date, 'file')}) in {self.seconds:.1f} s{tail}"
        sheets = f" on {count(self.sheets, 'sheet')}" if self.sheets else ""
        line = (
            f"{count(len(self.files), 'file')}, {count(self.pages, 'page')}, "
            f"{count(self.cards, 'card')}{sheets} in {self.seconds:.1f} s"
        )
        line += f"; {self.up_to_date} up to date" if self.up_to_date else ""
        printed, box = self.saved
        if box:
            line += f"; --only-needed: {count(printed, 'sheet')} of cards instead of {box} ({box - printed} saved)"
        return line + tail

    def advice(self) -> list[str]:
        """What to tell a group before they print: backs dark enough to empty a cartridge."""
        if not self.dark_backs:
            return []
        games = ", ".join(sorted(self.dark_backs))
        return [
            f"the backs of {games} print dark (up to {100 * max(self.dark_backs.values()):.0f} % ink "
            f"coverage); --ink-saver prints them as light tints"
        ]
