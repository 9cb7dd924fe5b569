"""Stage 4a, card faces: a resolved Deck and the card layout in, composed faces out.

``compose_faces`` places every element of every card face and back in
millimetres relative to the card's trim (origin at its bottom-left corner), in
the card's layout (role, token, words or night-order; see
templates/card-layout.yaml), and fits each text into its box, shrinking it
down to the layout's minimum size. Text that still does not fit is a problem
naming the card, the language and by how much it overflows; the build stops
before rendering, so the renderer only ever draws what fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Union

from . import art, markup, textfit
from .fonts import FontBook
from .model import Card, Deck, Group, Text, team_color
from .problems import Problem
from .units import Rect, Size


@dataclass(frozen=True)
class RoleFace:
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
class TokenFace:
    card: Card
    circle: Rect
    symbol: Path | None
    symbol_box: Rect
    name: textfit.Fitted
    name_box: Rect


@dataclass(frozen=True)
class WordRow:
    level: int              # 1 for the first (easiest) level of the card, 2 for the next...
    word: textfit.Fitted
    box: Rect


@dataclass(frozen=True)
class WordsFace:
    card: Card
    frame: Rect
    panel: Rect
    title: textfit.Fitted
    title_box: Rect
    rows: tuple[WordRow, ...]


@dataclass(frozen=True)
class ListFace:
    """A reference card: a title and one block of text (the night order)."""

    card: Card
    frame: Rect
    panel: Rect
    name: textfit.Fitted
    name_box: Rect
    text: textfit.Fitted
    text_box: Rect


Face = Union[RoleFace, TokenFace, WordsFace, ListFace]
RASTER = (".png", ".jpg", ".jpeg")


@dataclass(frozen=True)
class BackFace:
    """A group's shared back; title is None on round tokens, too small for one."""

    emblem_box: Rect
    title: textfit.Fitted | None
    title_box: Rect | None


@dataclass(frozen=True)
class Faces:
    layout: Mapping
    fronts: dict[str, Face]
    backs: dict[str, BackFace]         # by group id
    card_backs: dict[str, Face]        # by card id, for cards with a back of their own


def _box(area: Rect, spec: Mapping, padding: float = 0.0) -> Rect:
    """A box spanning area's width at spec's top and height (fractions of area's height)."""
    top = area.top - spec["top"] * area.h
    height = spec["height"] * area.h
    return Rect(area.x + padding, top - height, area.w - 2 * padding, height)


class _Composer:
    def __init__(self, deck: Deck, layout: Mapping, book: FontBook, ink_saver: bool, words: Mapping):
        self.deck = deck
        self.layout = layout
        self.book = book
        self.ink_saver = ink_saver
        self.strings = words
        self.problems: list[Problem] = []
        # `:card-id:` draws a card's icon inline, for cards with an SVG icon.
        self.icons = frozenset(card.id for card in deck.cards if card.symbol and card.symbol.suffix.lower() == ".svg")

    def fit(self, text: Text, box: Rect, spec: Mapping, what: str, owner: str, color: str,
            spans: tuple[markup.Span, ...] | None = None) -> textfit.Fitted:
        spans = spans if spans is not None else markup.parse(text.value, self.icons)
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

    def framed(self, size: Size) -> tuple[Rect, Rect]:
        frame = Rect(0, 0, size.w, size.h).inset(self.layout["frame"]["inset"])
        return frame, frame.inset(self.layout["frame"]["width"])

    def front(self, card: Card) -> Face:
        compose = {"role": self.role, "token": self.token, "words": self.words,
                   "night-order": self.night_order, "text": self.text}
        return compose[card.layout](card)

    def check_picture(self, card: Card, box: Rect) -> None:
        """A raster picture that cannot be read is an error; one too coarse for its box, a warning."""
        picture = card.art.path if card.art else card.symbol
        if picture is None or picture.suffix.lower() not in RASTER:
            return
        where = card.art.where if card.art else card.name.where
        fit, focus = (card.art.fit, card.art.focus) if card.art else ("contain", (0.5, 0.5))
        try:
            placed = art.place(picture, box.w, box.h, fit, focus)
        except art.ArtError as exc:
            self.problems.append(Problem(where, f"{card.id}: {exc}"))
            return
        warning = art.resolution_warning(picture, placed)
        if warning:
            self.problems.append(Problem(where, f"{card.id}: {warning}", "warning"))

    def role(self, card: Card) -> RoleFace:
        frame, panel = self.framed(card.group.size)
        padding = self.layout["panel"]["padding"]
        boxes = self.layout["boxes"]
        self.check_picture(card, _box(panel, boxes["symbol"], padding))
        name_box = _box(panel, boxes["name"], padding)
        team_box = _box(panel, boxes["team"], padding)
        ability_box = _box(panel, boxes["text"], padding)
        label = card.team.name if card.team else card.group.name
        color = team_color(card)
        return RoleFace(
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

    def token(self, card: Card, name: Text | None = None, symbol: Path | None = None) -> TokenFace:
        spec = self.layout["token"]
        size = card.group.size
        circle = Rect(0, 0, size.w, size.h).inset(spec["ring"])
        # Text stays inside the circle's middle band, where the circle is widest.
        inner = circle.inset(circle.w * 0.12)
        name_box = _box(Rect(inner.x, circle.y, inner.w, circle.h), spec["name"])
        return TokenFace(
            card=card, circle=circle, symbol=symbol or card.symbol,
            symbol_box=_box(circle, spec["symbol"]),
            name=self.fit(name or card.name, name_box, spec["name"], "name", card.id, team_color(card)),
            name_box=name_box,
        )

    def words(self, card: Card) -> WordsFace:
        spec = self.layout["words"]
        frame, panel = self.framed(card.group.size)
        padding = self.layout["panel"]["padding"]
        title_box = _box(panel, spec["title"], padding)
        title = Text(f"{card.group.name.value} {card.name.value}", card.group.name.where)
        area = _box(panel, spec["list"], padding)
        row_h = area.h / len(card.words)
        levels = list(dict.fromkeys(level for level, _ in card.words))
        pips = spec["pip"] * (len(levels) * 1.6 + 1)
        rows = []
        for index, (level, word) in enumerate(card.words):
            box = Rect(area.x + pips, area.top - (index + 1) * row_h, area.w - pips, row_h)
            rows.append(WordRow(levels.index(level) + 1,
                                self.fit(word, box, spec["word"], "word", card.id, "#1d1d1d"), box))
        return WordsFace(card, frame, panel, self.fit(title, title_box, spec["title"], "title", card.id,
                                                       team_color(card)), title_box, tuple(rows))

    def night_order(self, card: Card) -> ListFace:
        """The card's text, then the game's night order made from the cards, each called by the name
        the script calls it, and whether the order is a house rule."""
        spans = list(markup.parse(card.ability.value, self.icons))
        if "order" in self.deck.night.house:
            spans.append(markup.Span("\n" + self.strings["house_order"], italic=True))
        for number, role in enumerate((c for c in self.deck.night_order if c.id != card.id), start=1):
            spans += [markup.Span(f"\n{number}. ", bold=True), markup.Span(role.call_name)]
        return self.text(card, "night-order", tuple(spans))

    def text(self, card: Card, layout: str = "text", spans: tuple[markup.Span, ...] | None = None) -> ListFace:
        """A title and a block of text, such as a player aid."""
        spec = self.layout[layout]
        frame, panel = self.framed(card.group.size)
        padding = self.layout["panel"]["padding"]
        name_box = _box(panel, spec["name"], padding)
        text_box = _box(panel, spec["text"], padding)
        return ListFace(
            card=card, frame=frame, panel=panel,
            name=self.fit(card.name, name_box, spec["name"], "name", card.id, team_color(card)),
            name_box=name_box,
            text=self.fit(card.ability, text_box, spec["text"], "text", card.id, "#1d1d1d", spans),
            text_box=text_box,
        )

    def card_back(self, card: Card) -> Face:
        """A card's own back: its back name and symbol in its own layout."""
        if card.layout == "token":
            return self.token(card, card.back_face.name, card.back_face.symbol)
        from dataclasses import replace
        return self.front(replace(card, name=card.back_face.name, symbol=card.back_face.symbol))

    def back(self, group: Group) -> BackFace:
        spec = self.layout["back"]
        size = group.size
        if group.shape == "round":
            emblem_w = size.w * 0.7
            return BackFace(Rect((size.w - emblem_w) / 2, (size.h - emblem_w) / 2, emblem_w, emblem_w), None, None)
        emblem_w = size.w * spec["symbol"]
        emblem = Rect((size.w - emblem_w) / 2, size.h * 0.55 - emblem_w / 2, emblem_w, emblem_w)
        title_h = size.h * spec["title"]["height"]
        title_box = Rect(size.w * 0.1, emblem.y - title_h - size.h * 0.04, size.w * 0.8, title_h)
        title_spec = dict(spec["title"], bold=True, align="center")
        color = group.back.color if self.ink_saver else spec["emblem-color"]
        title = self.fit(group.back.title, title_box, title_spec, "back title", group.id, color)
        return BackFace(emblem, title, title_box)


def compose_faces(deck: Deck, layout: Mapping, book: FontBook, ink_saver: bool = False,
                  words: Mapping | None = None) -> tuple[Faces, list[Problem]]:
    """Every face and back of the deck, and the texts that do not fit (nothing is drawn if there are any).
    `words` are cardgen's own words in the deck's language (templates/strings.yaml)."""
    composer = _Composer(deck, layout, book, ink_saver, words or {})
    fronts = {card.id: composer.front(card) for card in deck.cards}
    backs = {group.id: composer.back(group) for group in deck.groups}
    card_backs = {card.id: composer.card_back(card) for card in deck.cards if card.back_face}
    return Faces(layout, fronts, backs, card_backs), composer.problems
