"""Who plays tonight: a resolved Deck and the table options in, the cards in play and what is dealt out.

A build for the whole box covers every card. A build for a player count
(``--players N``, with ``--setup`` naming one of the game's setups) deals that
setup's row; each ``--with`` card takes the seat of one card the setup fills
seats with (a Villager), as the sources' tables do when a special role joins.
The script, the rulebook and (later) the narrator page read the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .model import Deck, Setup
from .phrases import fill
from .problems import DeckError, Problem, Where
from .validate import did_you_mean


@dataclass(frozen=True)
class Tonight:
    """The cards in play; for a player count, also the setup and exactly what is dealt."""

    in_play: frozenset[str]
    label: str                                   # how the documents name it
    players: int | None = None
    setup: Setup | None = None
    dealt: Mapping[str, int] = field(default_factory=dict)   # card id -> copies, in the setup's order
    extra: int = 0                               # cards dealt beyond one a player, left in the middle


def tonight(deck: Deck, where: Where, text: Mapping, players: int | None, setup_id: str | None,
            extra_cards: tuple[str, ...]) -> Tonight:
    """What the options ask for, or a DeckError saying what does not fit the deck (at `where`)."""
    all_ids = {card.id for card in deck.cards}
    for card_id in extra_cards:
        if card_id not in all_ids:
            raise DeckError([Problem(where, f"--with: no card '{card_id}'{did_you_mean(card_id, all_ids)} "
                                            f"in {deck.game}")])
    if players is None:
        return Tonight(frozenset(all_ids), text["all_cards"])
    setups = {setup.id: setup for setup in deck.setups}
    setup_id = setup_id or next(iter(setups), None)
    if setup_id not in setups:
        raise DeckError([Problem(where, f"--setup: {deck.game} has no setup '{setup_id}'"
                                        f"{did_you_mean(str(setup_id), setups)}; "
                                        f"setups: {', '.join(setups) or 'none'}")])
    setup = setups[setup_id]
    if players not in setup.players:
        raise DeckError([Problem(setup.where, f"--players: setup '{setup_id}' of {deck.game} has no row "
                                        f"for {players} players")])
    dealt = dict(setup.deal(players))
    cards = {card.id: card for card in deck.cards}
    # A card of a kind the setup never deals (the Sheriff's title, a player aid) is in play but takes no seat.
    seated = {cards[card_id].group.id for card_id in dealt}
    in_play = set(dealt)
    for card_id in extra_cards:
        in_play.add(card_id)
        if cards[card_id].group.id not in seated:
            continue
        if setup.fill is None or not dealt.get(setup.fill):
            why = "no card fills seats" if setup.fill is None else f"every {setup.fill} seat is taken"
            raise DeckError([Problem(setup.where, f"--with {card_id}: setup '{setup_id}' of {deck.game} has no seat "
                                                  f"left for it ({why})")])
        dealt[setup.fill] -= 1
        dealt[card_id] = dealt.get(card_id, 0) + 1
    # The Thief's two extra cards: more of the fill card, dealt to nobody.
    extra = setup.extra
    for card_id, n in list(dealt.items()):
        if cards[card_id].extra_cards and n and setup.fill:
            extra += cards[card_id].extra_cards * n
            dealt[setup.fill] = dealt.get(setup.fill, 0) + cards[card_id].extra_cards * n
    dealt = {card_id: n for card_id, n in dealt.items() if n}
    label = fill(text["setup_for"], players=players, setup=setup.name.value if setup.name else setup_id)
    return Tonight(frozenset(in_play | set(dealt)), label, players, setup, dealt, extra)
