"""Right-to-left cards: a deck's composed fronts, their card layouts and the font book in; the fronts of
a right-to-left language (fonts.yaml's `rtl`) mirrored out, each box on them moved to the other side
of its card, x → card width − x − w.

So what a card places in reading order starts at the right: a picture beside its text (a box with
`left` in card-layout.yaml), the difficulty dots before a word card's words; what is centred (the
name, the team pill and its marks at both ends, a token's circle) stays where it was. The texts keep
their boxes and their fitting, and the text layer sets them from the right. Which layouts' fronts are
mirrored is card-layout.yaml's `right-to-left: mirror`. Backs never are: they line up with the fronts
on a duplex sheet, and the sheets' imposition is the same in every language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import TypeVar

from cardgen.cards.faces import Face, WordRow
from cardgen.core.units import Rect
from cardgen.deck.model import Deck
from cardgen.text.fonts import FontBook

Part = TypeVar("Part", Face, WordRow)


def fronts(deck: Deck, layouts: Mapping[str, Mapping], book: FontBook, faces: dict[str, Face]) -> dict[str, Face]:
    """The fronts by card id, those of the layouts the deck's card sizes mirror in a right-to-left language
    mirrored; a left-to-right deck's as they are."""
    if not book.is_rtl(deck.lang):
        return faces
    cards = {card.id: card for card in deck.cards}
    return {
        card_id: mirrored(face, cards[card_id].group.size.w)
        if cards[card_id].layout in layouts[cards[card_id].group.size_name].get("right-to-left", {}).get("mirror", ())
        else face
        for card_id, face in faces.items()
    }


def mirrored(part: Part, width: float) -> Part:
    """A face, or a row of one, with every box on it on the other side of a card `width` mm wide."""
    return replace(part, **{field.name: _across(getattr(part, field.name), width) for field in fields(part)})


def _across(value, width: float):
    if isinstance(value, Rect):
        return Rect(width - value.x - value.w, value.y, value.w, value.h)
    if isinstance(value, WordRow):
        return mirrored(value, width)
    if isinstance(value, tuple):
        return tuple(_across(item, width) for item in value)
    return value
