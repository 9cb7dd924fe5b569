"""The resolved deck: frozen, one language, every option settled.

This is what layout and rendering see. Every text is already in the build's
language (or its English fallback), NFC-normalised and checked against the
fonts; every file path is absolute and exists.
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


@dataclass(frozen=True)
class Card:
    id: str
    group: str
    group_name: Text
    team: Team | None
    count: int
    name: Text
    ability: Text
    symbol: Path | None
    night_order: int | None
    first_night_only: bool


@dataclass(frozen=True)
class Back:
    title: Text
    color: str
    symbol: Path | None
    pattern: Path | None


@dataclass(frozen=True)
class Deck:
    game: str
    lang: str
    languages: tuple[str, ...]
    name: Text
    card_size: str
    card: Size
    back: Back
    cards: tuple[Card, ...]
    sources: tuple[Path, ...]

    @property
    def copies(self) -> tuple[Card, ...]:
        """Every physical card, in printing order: each card `count` times."""
        return tuple(card for card in self.cards for _ in range(card.count))
