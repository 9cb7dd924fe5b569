"""The resolved deck: frozen, one language, every option settled.

This is what layout and rendering see. Every text is already in the build's
language (or its English fallback), NFC-normalised and checked against the
fonts; every file path is absolute and exists; derived cards and word cards
have been made.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .problems import Where
from .units import Size


@dataclass(frozen=True)
class Text:
    """A text in the build's language and where it was written."""

    value: str
    where: Where


@dataclass(frozen=True)
class Team:
    id: str
    name: Text
    color: str
    edge: Path | None
    mark: Path | None = None     # a glyph that tells the team apart without its colour


@dataclass(frozen=True)
class Back:
    """A back design shared by a group's cards."""

    title: Text
    color: str
    symbol: Path | None
    pattern: Path | None


@dataclass(frozen=True)
class Group:
    id: str
    name: Text
    size_name: str
    size: Size
    shape: str          # rect or round
    layout: str         # role, token, words or night-order
    team: Team | None   # for its cards that name none
    back: Back


@dataclass(frozen=True)
class BackFace:
    """A card's own back, printed in the card's layout (the No side of a Yes/No token)."""

    name: Text
    symbol: Path | None


@dataclass(frozen=True)
class Art:
    """A designer's picture for the art box, drawn in its own colours."""

    path: Path
    fit: str                        # contain or cover
    focus: tuple[float, float]      # fractions of the picture, from its top-left corner
    where: Where


@dataclass(frozen=True)
class Step:
    """A script step: a line read aloud (say), a silent instruction (do), or the role wake-ups (roles)."""

    kind: str                      # say, do or roles
    text: Text | None              # for say and do
    roles: str | None              # for roles: first-night or night
    when: tuple[str, ...] = ()     # card ids, any of which must be in play; empty: always

    def applies(self, in_play: frozenset[str]) -> bool:
        return not self.when or any(card in in_play for card in self.when)


@dataclass(frozen=True)
class NightScript:
    call: Text | None        # the name the wake-up line calls, when not the card's name
    say: Text | None
    do: Text | None
    after: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Card:
    id: str
    group: Group
    team: Team | None
    count: int
    name: Text
    ability: Text
    symbol: Path | None
    night_order: int | None
    first_night_only: bool
    layout: str
    back_face: BackFace | None = None
    words: tuple[tuple[str, Text], ...] = ()   # (level, word) for word cards
    derived_from: str | None = None
    night_script: NightScript | None = None
    art: Art | None = None


@dataclass(frozen=True)
class Section:
    id: str
    title: Text
    body: Text


@dataclass(frozen=True)
class Rulebook:
    players: tuple[int, int]
    minutes: tuple[int, int] | None
    sections: tuple[Section, ...]


@dataclass(frozen=True)
class Phase:
    title: Text
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class ScriptVersion:
    id: str
    name: Text
    phases: tuple[Phase, ...]


@dataclass(frozen=True)
class Script:
    unheld_if: tuple[str, ...]     # with any of these in play, a called role may be held by nobody
    versions: tuple[ScriptVersion, ...]


@dataclass(frozen=True)
class Setup:
    id: str
    name: Text | None
    players: tuple[int, ...]
    deals: tuple[dict, ...]        # per player count: card id -> number dealt


def team_color(card: Card) -> str:
    """The colour a card is framed in: its team's, or a neutral grey for cards of no team."""
    return card.team.color if card.team else "#3a3a3a"


@dataclass(frozen=True)
class Deck:
    game: str
    lang: str
    languages: tuple[str, ...]
    name: Text
    groups: tuple[Group, ...]
    cards: tuple[Card, ...]
    sources: tuple[Path, ...]
    rulebook: Rulebook | None = None
    script: Script | None = None
    setups: tuple[Setup, ...] = ()

    @property
    def copies(self) -> tuple[Card, ...]:
        """Every physical card, in printing order: each card `count` times."""
        return tuple(card for card in self.cards for _ in range(card.count))

    @property
    def night_order(self) -> tuple[Card, ...]:
        """The cards that wake at night, in waking order."""
        return tuple(sorted((c for c in self.cards if c.night_order is not None), key=lambda c: c.night_order))
