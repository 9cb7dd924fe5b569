"""Stage 4a, card faces: a resolved Deck and the card layout in, composed faces out.

``compose_faces`` places every element of every card face and of the back in
millimetres relative to the card's trim (origin at its bottom-left corner) and
fits each text into its box, shrinking it down to the layout's minimum size.
Text that still does not fit is a problem naming the card, the language and by
how much it overflows; the build stops before rendering, so the renderer only
ever draws what fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from . import markup, textfit
from .fonts import FontBook
from .model import Card, Deck, Text
from .problems import Problem
from .units import Rect


@dataclass(frozen=True)
class Face:
    card: Card
    frame: Rect
    panel: Rect
    name: textfit.Fitted
    name_box: Rect
    symbol_box: Rect
    team: textfit.Fitted
    team_box: Rect
    ability: textfit.Fitted
    ability_box: Rect


@dataclass(frozen=True)
class BackFace:
    emblem_box: Rect
    title: textfit.Fitted
    title_box: Rect


@dataclass(frozen=True)
class Faces:
    layout: Mapping
    fronts: dict[str, Face]
    back: BackFace


def _box(panel: Rect, spec: Mapping, padding: float) -> Rect:
    top = panel.top - spec["top"] * panel.h
    height = spec["height"] * panel.h
    return Rect(panel.x + padding, top - height, panel.w - 2 * padding, height)


class _Composer:
    def __init__(self, deck: Deck, layout: Mapping, book: FontBook, ink_saver: bool):
        self.deck = deck
        self.ink_saver = ink_saver
        self.layout = layout
        self.book = book
        self.problems: list[Problem] = []

    def fit(self, text: Text, box: Rect, spec: Mapping, what: str, owner: str, color: str) -> textfit.Fitted:
        spans = markup.parse(text.value)
        if spec.get("bold"):
            spans = tuple(markup.Span(s.text, True, s.italic) for s in spans)
        fitted = textfit.fit(spans, self.book, self.deck.lang, box.w, box.h, max_size=spec["max-size"],
                             min_size=spec["min-size"], align=spec.get("align", "left"), color=color)
        if fitted.overflow > 0:
            self.problems.append(Problem(
                text.where, f"{owner}: the {what} in '{self.deck.lang}' does not fit its box: "
                f"{fitted.overflow:.1f} mm too tall at the smallest size ({spec['min-size']} pt); shorten it"))
        elif fitted.overflow_width > 0:
            self.problems.append(Problem(
                text.where, f"{owner}: the {what} in '{self.deck.lang}' does not fit its box: a word is "
                f"{fitted.overflow_width:.1f} mm too wide at the smallest size ({spec['min-size']} pt); "
                "shorten or break it"))
        return fitted

    def front(self, card: Card) -> Face:
        card_size = self.deck.card
        frame = Rect(0, 0, card_size.w, card_size.h).inset(self.layout["frame"]["inset"])
        panel = frame.inset(self.layout["frame"]["width"])
        padding = self.layout["panel"]["padding"]
        boxes = self.layout["boxes"]
        name_box = _box(panel, boxes["name"], padding)
        team_box = _box(panel, boxes["team"], padding)
        ability_box = _box(panel, boxes["text"], padding)
        label = card.team.name if card.team else card.group_name
        color = card.team.color if card.team else "#222222"
        return Face(
            card=card, frame=frame, panel=panel,
            name=self.fit(card.name, name_box, boxes["name"], "name", card.id, color),
            name_box=name_box,
            symbol_box=_box(panel, boxes["symbol"], padding),
            # Ink-saver draws the pill as an outline, so its label takes the team colour.
            team=self.fit(label, team_box, boxes["team"], "team label", card.id,
                          color if self.ink_saver else "#ffffff"),
            team_box=team_box,
            ability=self.fit(card.ability, ability_box, boxes["text"], "ability text", card.id, "#1d1d1d"),
            ability_box=ability_box,
        )

    def back(self) -> BackFace:
        spec = self.layout["back"]
        card = self.deck.card
        emblem_w = card.w * spec["symbol"]
        emblem = Rect((card.w - emblem_w) / 2, card.h * 0.55 - emblem_w / 2, emblem_w, emblem_w)
        title_h = card.h * spec["title"]["height"]
        title_box = Rect(card.w * 0.1, emblem.y - title_h - card.h * 0.04, card.w * 0.8, title_h)
        title_spec = dict(spec["title"], bold=True, align="center")
        color = self.deck.back.color if self.ink_saver else spec["emblem-color"]
        title = self.fit(self.deck.back.title, title_box, title_spec, "back title", self.deck.game, color)
        return BackFace(emblem, title, title_box)


def compose_faces(deck: Deck, layout: Mapping, book: FontBook,
                  ink_saver: bool = False) -> tuple[Faces, list[Problem]]:
    """Every card face of the deck, and the texts that do not fit (nothing is drawn if there are any)."""
    composer = _Composer(deck, layout, book, ink_saver)
    fronts = {card.id: composer.front(card) for card in deck.cards}
    back = composer.back()
    return Faces(layout, fronts, back), composer.problems

