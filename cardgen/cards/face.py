"""Stage 4a, card faces: a resolved Deck and the card layout in, composed faces out.

``compose_faces`` places every element of every card face and back in
millimetres relative to the card's trim (origin at its bottom-left corner), in
the card's layout (role, token, words or night-order; see
templates/card-layout.yaml), and fits each text into its box, shrinking it
down to the layout's minimum size. Text that still does not fit is a problem
naming the card, the language and by how much it overflows; the build stops
before rendering, so the renderer only ever draws what fits. A right-to-left
language's fronts are mirrored (cardgen.cards.mirror), its backs never.

On a bilingual deck (``Deck.second``) every name, team label, ability and back
title is set in both languages in the same box, the second beneath the first
(card-layout.yaml's ``bilingual``: its own boxes, the second language smaller
and set apart), each broken by its own language's rules and fitted together;
an overflow names both languages. With ``pinyin``, Chinese names on role cards
carry their pinyin above them, fitted with them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from cardgen.cards import art, bilingual, mirror
from cardgen.cards.faces import (
    RASTER,
    BackFace,
    Face,
    Faces,
    ListFace,
    RoleFace,
    TokenFace,
    WordsFace,
    back_light,
    spec_box,
    without_picture,
    word_row,
)
from cardgen.core.phrases import numeral
from cardgen.core.problems import Problem
from cardgen.core.units import Rect, Size
from cardgen.deck.model import Card, Deck, Group, Text, team_color
from cardgen.text import markup, textfit
from cardgen.text.fonts import FontBook
from cardgen.text.pinyin import has_chinese, readings


class _Composer:
    def __init__(
        self,
        deck: Deck,
        layouts: Mapping[str, Mapping],
        book: FontBook,
        ink_saver: bool,
        words: Mapping,
        pinyin: bool = False,
    ):
        self.deck = deck
        self.layouts = layouts
        self.pinyin = pinyin
        self.layout: Mapping = {}  # of the card being composed: see front() and back()
        self.book = book
        self.ink_saver = ink_saver
        self.strings = words
        self.problems: list[Problem] = []
        # `:card-id:` draws a card's icon inline, for cards with an SVG icon.
        self.icons = frozenset(card.id for card in deck.cards if card.symbol and card.symbol.suffix.lower() == ".svg")
        # A text's spans: the cards of a team share its label, the groups their back title, each parsed once.
        self.parse = functools.cache(functools.partial(markup.parse, icons=self.icons))

    def fit(
        self,
        text: Text,
        box: Rect,
        spec: Mapping,
        what: str,
        owner: str,
        color: str,
        spans: tuple[markup.Span, ...] | None = None,
        second: Text | None = None,
        title: bool = False,
        ruby: bool = False,
        shorts: tuple[Text | None, Text | None] | None = None,
    ) -> textfit.Fitted:
        """A text fitted into its box; on a bilingual deck with `second` (the text in the second language)
        beneath it, fitted together. `title`: a name or heading (its second line keeps its colour, at the
        layout's weight), else body text; `ruby`: pinyin over its Chinese (with --pinyin); `shorts`: the
        card's short forms in the two languages, which a card falls back to where its full texts do not fit."""
        spans = spans if spans is not None else self.parse(text.value)
        other, spec_two = self.deck.second, self.bilingual()
        if spec_two is None or other is None:
            # One language: its short form where the full text does not fit (a small card size).
            short = shorts[0] if shorts else None
            if short is not None:
                alone = self.fitted(
                    [self.layer(spans, self.deck.lang, color, spec, ruby)], box, spec, text, what, owner, None
                )
                if alone.fits:
                    return alone
                spans = self.parse(short.value)
            note = ", even with its short-ability; shorten it" if short is not None else ""
            return self.fitted(
                [self.layer(spans, self.deck.lang, color, spec, ruby)], box, spec, text, what, owner, note
            )
        # No text on a bilingual card is set below its least size, and its first language never smaller.
        least = spec_two["min-size"]
        spec = {**spec, "min-size": max(spec["min-size"], least)} if bilingual.holds_two(spans, second, text) else spec
        look = {**spec, **spec_two["title" if title else "text"]}

        def layers(first: tuple[markup.Span, ...], below: Text | None) -> list[textfit.Layer]:
            top = [self.layer(first, self.deck.lang, color, spec, ruby)]
            if below is None or below.value == text.value:
                return top
            parsed = self.parse(below.value)
            return top + [
                self.layer(parsed, other.lang, look.get("color", color), look, ruby, look["scale"], look["gap"], least)
            ]

        tried = bilingual.attempts(spans, second, shorts, lambda short: self.parse(short.value), other.lang)
        for first, below, _ in tried[:-1]:
            fitted = self.fitted(layers(first, below), box, spec, text, what, owner, None)
            if fitted.fits:
                return fitted
        first, below, note = tried[-1]
        return self.fitted(layers(first, below), box, spec, text, what, owner, note)

    def fitted(
        self,
        layers: list[textfit.Layer],
        box: Rect,
        spec: Mapping,
        text: Text,
        what: str,
        owner: str,
        note: str | None = "",
    ) -> textfit.Fitted:
        """The layers fitted into the box; where they do not fit, a problem naming the card that `note`
        ends (bilingual.overflow), or none with no note: a bilingual card tries a shorter form next."""
        fitted = textfit.fit_layers(
            layers,
            self.book,
            box.w,
            box.h,
            max_size=spec["max-size"],
            min_size=spec["min-size"],
            align=spec.get("align", "left"),
        )
        if note is not None and not fitted.fits:
            self.problems.append(Problem(text.where, bilingual.overflow(fitted, layers, spec, what, owner, note)))
        return fitted

    def bilingual(self) -> Mapping | None:
        """The bilingual layout of the card being composed, on a bilingual deck. A size with none is an
        error of its own (bilingual.layouts), and its cards stay in one language meanwhile."""
        spec = self.layout.get("bilingual")
        return spec if self.deck.second is not None and isinstance(spec, Mapping) else None

    def layer(
        self,
        spans: tuple[markup.Span, ...],
        lang: str,
        color: str,
        spec: Mapping,
        ruby: bool,
        scale: float = 1.0,
        gap: float = 0.0,
        least: float = 0.0,
    ) -> textfit.Layer:
        """One language's text of a box, in the weight and slant the spec gives it (bold: all bold; a
        second language's `bold: false` takes bold off a name, `italic: true` slants a text)."""
        bold, italic = spec.get("bold"), spec.get("italic")
        if bold is not None or italic:
            spans = tuple(
                markup.Span(s.text, s.bold if bold is None else bold, s.italic or bool(italic), s.icon, s.lang)
                for s in spans
            )
        chinese = ruby and self.pinyin and has_chinese(lang)
        return textfit.Layer(
            spans,
            lang,
            color,
            self.book.leading(lang),
            scale,
            gap,
            readings("".join(s.text for s in spans)) if chinese else None,
            self.layout["pinyin"]["scale"],
            least=least,
        )

    def framed(self, size: Size) -> tuple[Rect, Rect]:
        frame = Rect(0, 0, size.w, size.h).inset(self.layout["frame"]["inset"])
        return frame, frame.inset(self.layout["frame"]["width"])

    def front(self, card: Card, other: Card | None = None) -> Face:
        """A card's face; `other` is the card in the second language of a bilingual deck."""
        self.layout = self.layouts[card.group.size_name]
        compose: dict[str, Callable[[Card, Card | None], Face]] = {
            "role": self.role,
            "token": self.token,
            "words": self.words,
            "night-order": self.night_order,
            "text": self.text,
        }
        return compose[card.layout](card, other)

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

    def role(self, card: Card, other: Card | None = None) -> RoleFace:
        frame, panel = self.framed(card.group.size)
        padding = self.layout["panel"]["padding"]
        boxes = self.layout["boxes"] if card.art or card.symbol else without_picture(self.layout["boxes"])
        symbol_box = spec_box(panel, boxes["symbol"], padding)
        self.check_picture(card, symbol_box)
        name_box = spec_box(panel, boxes["name"], padding)
        team_box = spec_box(panel, boxes["team"], padding)
        ability_box = spec_box(panel, boxes["text"], padding)
        label, label_spans = self.label(card, other)
        color = team_color(card)
        marks: tuple[Rect, ...] = ()
        label_box = team_box
        if card.team and card.team.mark:
            # The mark, a square a little smaller than the pill is high, at each end; the label between.
            side = team_box.h * self.layout["team-mark"]
            room = (team_box.h - side) / 2
            y = team_box.y + room
            marks = (
                Rect(team_box.x + team_box.h / 2 - side / 2, y, side, side),
                Rect(team_box.right - team_box.h / 2 - side / 2, y, side, side),
            )
            label_box = Rect(marks[0].right + room, team_box.y, marks[1].x - marks[0].right - 2 * room, team_box.h)
        return RoleFace(
            card=card,
            frame=frame,
            panel=panel,
            name=self.fit(
                card.name,
                name_box,
                boxes["name"],
                "name",
                card.id,
                color,
                second=other.name if other else None,
                title=True,
                ruby=True,
            ),
            name_box=name_box,
            symbol_box=symbol_box,
            # Ink-saver draws the pill as an outline, so its label takes the team colour.
            team=self.fit(
                label,
                label_box,
                boxes["team"],
                "team label",
                card.id,
                color if self.ink_saver else "#ffffff",
                label_spans,
            ),
            team_box=team_box,
            ability=self.fit(
                card.ability,
                ability_box,
                boxes["text"],
                "ability text",
                card.id,
                "#1d1d1d",
                second=other.ability if other else None,
                shorts=(card.short, other.short if other else None),
            ),
            ability_box=ability_box,
            label_box=label_box,
            marks=marks,
        )

    def label(self, card: Card, other: Card | None) -> tuple[Text, tuple[markup.Span, ...] | None]:
        """A role card's team label (its group's name for a card of no team); on a bilingual deck both
        names on one line, the second in its own language's fonts."""
        label = card.team.name if card.team else card.group.name
        second = (other.team.name if other.team else other.group.name) if other else None
        bilingual, other_deck = self.bilingual(), self.deck.second
        if second is None or second.value == label.value or not bilingual or other_deck is None:
            return label, None
        return label, (
            markup.Span(label.value),
            markup.Span(bilingual["separator"]),
            markup.Span(second.value, lang=other_deck.lang),
        )

    def token(
        self,
        card: Card,
        other: Card | None = None,
        name: Text | None = None,
        second: Text | None = None,
        symbol: Path | None = None,
    ) -> TokenFace:
        spec = self.layout["token"]
        size = card.group.size
        circle = Rect(0, 0, size.w, size.h).inset(spec["ring"])
        # The name's band is as wide as the circle is at the band's edge farther from the middle,
        # less a clearance: a line of the name never reaches the ring.
        band = spec_box(circle, spec["name"])
        far = max(abs(band.top - circle.cy), abs(band.y - circle.cy))
        half = math.sqrt(max((circle.w / 2) ** 2 - far**2, 0.0)) - spec["clearance"]
        name_box = Rect(circle.cx - half, band.y, 2 * half, band.h)
        return TokenFace(
            card=card,
            circle=circle,
            symbol=symbol or card.symbol,
            symbol_box=spec_box(circle, spec["symbol"]),
            name=self.fit(
                name or card.name,
                name_box,
                spec["name"],
                "name",
                card.id,
                team_color(card),
                second=second or (other.name if other else None),
                title=True,
            ),
            name_box=name_box,
        )

    def words(self, card: Card, other: Card | None = None) -> WordsFace:
        """A word card: its words are the first language's list (the lists are not translations of
        one another), so it stays in that language on a bilingual deck too."""
        spec = self.layout["words"]
        frame, panel = self.framed(card.group.size)
        padding = self.layout["panel"]["padding"]
        title_box = spec_box(panel, spec["title"], padding)
        title = Text(f"{card.group.name.value} {card.name.value}", card.group.name.where)
        area = spec_box(panel, spec["list"], padding)
        row_h = area.h / len(card.words)
        levels = list(dict.fromkeys(level for level, _ in card.words))
        pips = spec["pip"] * (len(levels) * 1.6 + 1)
        rows = []
        for index, (level, word) in enumerate(card.words):
            box = Rect(area.x + pips, area.top - (index + 1) * row_h, area.w - pips, row_h)
            fitted = self.fit(word, box, spec["word"], "word", card.id, "#1d1d1d")
            rows.append(word_row(levels.index(level) + 1, fitted, box, spec["pip"]))
        return WordsFace(
            card,
            frame,
            panel,
            self.fit(title, title_box, spec["title"], "title", card.id, team_color(card)),
            title_box,
            tuple(rows),
        )

    def night_order(self, card: Card, other: Card | None = None) -> ListFace:
        """The card's text, whether the order is a house rule, then the game's night order made from the
                cards, each by the name the script calls it: one role a line, or, where the layout says
        `list: run-in` (small cards), the roles one after another on a new line, each number held to its name
        (in the language's digits). On a bilingual deck each role is called by both names, and the card's text is in both beneath."""
        spans = list(self.parse(card.ability.value))
        bilingual, other_deck = self.bilingual(), self.deck.second
        seconds = {c.id: c for c in other_deck.cards} if bilingual and other_deck else {}
        if "order" in self.deck.night.house:
            spans.append(markup.Span("\n" + self.strings["house_order"], italic=True))
        run_in = self.layout["night-order"].get("list") == "run-in"
        for night, roles in self.deck.night_lists:
            if night:
                spans.append(markup.Span("\n" + self.strings[f"{night}_night"], bold=True))
            steps = [(role, name) for role, name in self.deck.listed(roles) if role.id != card.id]
            for number, (role, name) in enumerate(steps, start=1):
                # The break goes after the dot, never before it: a no-break space holds it to the role before.
                before = "\u00a0· " if run_in and number > 1 else "\n"
                mark = f"{before}{numeral(number, self.strings.get('digits'))}.\u00a0"
                spans += [markup.Span(mark, bold=True), markup.Span(name)]
                twin = seconds.get(role.id)
                second = (twin.call_name if name == role.call_name else twin.also_wakes) if twin else None
                if bilingual and other_deck and second and second != name:
                    opening, closing = bilingual["aside"]
                    spans += [markup.Span(opening), markup.Span(second, lang=other_deck.lang), markup.Span(closing)]
        return self.text(card, other, "night-order", tuple(spans))

    def text(
        self, card: Card, other: Card | None = None, layout: str = "text", spans: tuple[markup.Span, ...] | None = None
    ) -> ListFace:
        """A title and a block of text, such as a player aid."""
        spec = self.layout[layout]
        frame, panel = self.framed(card.group.size)
        padding = self.layout["panel"]["padding"]
        name_box = spec_box(panel, spec["name"], padding)
        text_box = spec_box(panel, spec["text"], padding)
        return ListFace(
            card=card,
            frame=frame,
            panel=panel,
            name=self.fit(
                card.name,
                name_box,
                spec["name"],
                "name",
                card.id,
                team_color(card),
                second=other.name if other else None,
                title=True,
            ),
            name_box=name_box,
            # The night order's list already names every role in both languages: only its text is repeated.
            text=self.fit(
                card.ability,
                text_box,
                spec["text"],
                "text",
                card.id,
                "#1d1d1d",
                spans,
                second=other.ability if other else None,
                shorts=(card.short if spans is None else None, other.short if other else None),
            ),
            text_box=text_box,
        )

    def card_back(self, card: Card, other: Card | None = None) -> Face:
        """A card's own back: its back name and symbol in its own layout."""
        face = card.back_face
        assert face is not None, "compose_faces asks only cards with a back of their own"
        second = other.back_face.name if other and other.back_face else None
        if card.layout == "token":
            self.layout = self.layouts[card.group.size_name]
            return self.token(card, None, face.name, second, face.symbol)
        return self.front(
            replace(card, name=face.name, symbol=face.symbol), replace(other, name=second) if other and second else None
        )

    def back(self, group: Group, other: Group | None = None) -> BackFace:
        self.layout = self.layouts[group.size_name]
        spec = self.layout["back"]
        size = group.size
        if group.shape == "round":
            emblem_w = size.w * 0.7
            return BackFace(
                Rect((size.w - emblem_w) / 2, (size.h - emblem_w) / 2, emblem_w, emblem_w),
                None,
                None,
                back_light(group.back.color, spec),
            )
        emblem_w = min(size.w, size.h) * spec["symbol"]  # a landscape card's emblem fits its height
        emblem = Rect((size.w - emblem_w) / 2, size.h * 0.55 - emblem_w / 2, emblem_w, emblem_w)
        title_h = size.h * spec["title"]["height"]
        title_box = Rect(size.w * 0.1, emblem.y - title_h - size.h * 0.04, size.w * 0.8, title_h)
        title_spec = dict(spec["title"], bold=True, align="center")
        light = back_light(group.back.color, spec)
        color = group.back.color if self.ink_saver else light
        title = self.fit(
            group.back.title,
            title_box,
            title_spec,
            "back title",
            group.id,
            color,
            second=other.back.title if other else None,
            title=True,
        )
        return BackFace(emblem, title, title_box, light)


def compose_faces(
    deck: Deck,
    layouts: Mapping[str, Mapping],
    book: FontBook,
    ink_saver: bool = False,
    words: Mapping | None = None,
    pinyin: bool = False,
) -> tuple[Faces, list[Problem]]:
    """Every face and back of the deck, each in the layout of its card size (see size_layouts; a
    bilingual deck's in that layout's `bilingual` one), and the texts that do not fit (nothing is drawn
    if there are any). `words` are cardgen's own words in the deck's language (templates/strings.yaml);
    `pinyin`: pinyin over the Chinese names of role cards."""
    problems: list[Problem] = []
    if deck.second is not None:
        layouts, problems = bilingual.layouts(deck, layouts)
    composer = _Composer(deck, layouts, book, ink_saver, words or {}, pinyin)
    composer.problems += problems
    second_groups = {group.id: group for group in deck.second.groups} if deck.second else {}
    fronts = {card.id: composer.front(card, deck.second_card(card)) for card in deck.cards}
    backs = {group.id: composer.back(group, second_groups.get(group.id)) for group in deck.groups}
    card_backs = {card.id: composer.card_back(card, deck.second_card(card)) for card in deck.cards if card.back_face}
    return Faces(layouts, mirror.fronts(deck, layouts, book, fronts), backs, card_backs), composer.problems
