"""Stage 3, resolve: validated game files and build options in, a frozen Deck out.

``resolve_deck`` picks the build's language (falling back to English where a
translation is missing; validation has already warned about it), the card size,
and the printing order of the cards, and checks every character against the
fonts, so that nothing downstream meets a missing translation, an unresolved
option or a glyph that would print as an empty box: such characters are
reported as problems, with the exact line they stand on.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any, Protocol

from .load import Doc, GameFiles, KeyPath
from .model import Back, Card, Deck, Team, Text
from .problems import Problem, Where
from .units import Size


class GlyphCoverage(Protocol):
    def missing(self, text: str, lang: str) -> list[str]: ...


class _Resolver:
    def __init__(self, files: GameFiles, lang: str, fonts: GlyphCoverage):
        self.files = files
        self.lang = lang
        self.fonts = fonts
        self.problems: list[Problem] = []

    def text(self, doc: Doc, path: KeyPath) -> Text:
        texts: dict = doc.get(path)
        key = self.lang if self.lang in texts else "en"
        value = unicodedata.normalize("NFC", texts[key])
        for char in self.fonts.missing(value, self.lang):
            line = doc.text_line(path + (key,), value.index(char))
            where = Where(doc.file, line)
            self.problems.append(Problem(
                where, f"{'.'.join(map(str, path + (key,)))}: character U+{ord(char):04X} "
                f"{unicodedata.name(char, '(unnamed)')} '{char}' is in none of the fonts"))
        return Text(value, doc.where(path + (key,)))

    def file(self, value: Any) -> Path | None:
        return (self.files.folder / value).resolve() if value else None


def resolve_deck(files: GameFiles, lang: str, card_size: str | None, card_sizes: dict[str, Size],
                 fonts: GlyphCoverage) -> tuple[Deck, list[Problem]]:
    """One language of a game that validated without errors, and the characters no font has.

    The deck comes back even with such problems, so that later stages can
    report theirs too before the build stops.
    """
    r = _Resolver(files, lang, fonts)
    game = files.game
    data = game.data
    teams = {
        team_id: Team(team_id, r.text(game, ("teams", team_id, "name")), spec["color"], r.file(spec.get("edge")))
        for team_id, spec in data["teams"].items()
    }
    groups = list(data.get("groups", {}))
    team_order = list(teams)
    back_spec = data.get("back", {})
    back = Back(
        title=r.text(game, ("back", "title")) if "title" in back_spec else r.text(game, ("name",)),
        color=back_spec.get("color", "#333333"),
        symbol=r.file(back_spec.get("symbol")),
        pattern=r.file(back_spec.get("pattern")),
    )
    cards = []
    for card_id, doc in files.cards.items():
        spec = doc.data
        group = spec.get("group", "role")
        night = spec.get("night", {})
        cards.append(Card(
            id=card_id,
            group=group,
            group_name=r.text(game, ("groups", group)),
            team=teams.get(spec.get("team")),
            count=spec.get("count", 1),
            name=r.text(doc, ("name",)),
            ability=r.text(doc, ("ability",)),
            symbol=r.file(spec.get("symbol")),
            night_order=night.get("order"),
            first_night_only=night.get("first-night-only", False),
        ))
    # Print by group, then team, as the game file lists them, so a sheet holds one kind of card.
    cards.sort(key=lambda c: (groups.index(c.group), team_order.index(c.team.id) if c.team else len(team_order), c.id))
    size_name = card_size or data.get("card-size", "poker")
    sources = tuple(sorted({files.folder / "game.yaml", *(files.folder / "roles" / f"{c}.yaml" for c in files.cards)}))
    deck = Deck(
        game=files.id,
        lang=lang,
        languages=tuple(data["languages"]),
        name=r.text(game, ("name",)),
        card_size=size_name,
        card=card_sizes[size_name],
        back=back,
        cards=tuple(cards),
        sources=sources,
    )
    return deck, r.problems
