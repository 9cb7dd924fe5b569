"""A table's card faces: the box's faces and the deck a table prints in; the same faces, with the fronts
of the cards the table prints in fewer words (a player aid without the win of a side not dealt,
`in-play-only`) composed again, out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from cardgen.cards.face import compose_faces
from cardgen.cards.faces import Faces
from cardgen.core.problems import DeckError
from cardgen.deck.model import Deck
from cardgen.text.fonts import FontBook


def retold(
    faces: Faces,
    box: Deck,
    deck: Deck,
    layouts: Mapping[str, Mapping],
    book: FontBook,
    words: Mapping,
    ink_saver: bool = False,
    pinyin: bool = False,
) -> Faces:
    """`faces` of the `box`, with the fronts of `deck`'s cards whose text differs from the box's composed
    again as compose_faces composes them; shorter, they fit where the box's did (a DeckError if not)."""
    boxed = {card.id: card for card in box.cards}
    changed = tuple(
        card for card in deck.cards if (card.ability, card.short) != (boxed[card.id].ability, boxed[card.id].short)
    )
    if not changed:
        return faces
    fronts, problems = compose_faces(replace(deck, cards=changed), layouts, book, ink_saver, words, pinyin)
    if problems:
        raise DeckError(problems)
    return replace(faces, fronts={**faces.fronts, **fronts.fronts})
