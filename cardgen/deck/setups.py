"""Setups: what to deal for a number of players, from a game's own table.

A setup (game.yaml ``setups``) lists player counts and, per card id, one
number for all of them or one per count; ``fill`` takes the seats left over
and ``extra`` deals that many cards beyond one per player. A key of ``cards``
that is no card's id counts a team, a group or one of the setup's ``pools``:
that many cards are chosen from it by the moderator (from the pool's cards, or
from every card of the team or group in the box).
"""

from __future__ import annotations

from collections.abc import Mapping


def counts(players: list[int] | tuple[int, ...]) -> str:
    """Player counts as a reader says them: 8–18 when they run on, else 4, 6, 9."""
    listed = list(players)
    if len(listed) > 1 and listed == list(range(listed[0], listed[-1] + 1)):
        return f"{listed[0]}–{listed[-1]}"
    return ", ".join(map(str, listed))


def members(key: str, kinds: Mapping[str, tuple[str | None, str | None]]) -> tuple[str, ...]:
    """The cards an id stands for, given each card's (team, group): a card itself, else every card of
    the team of that id, else of the group; none for an id that is neither."""
    if key in kinds:
        return (key,)
    for index in (0, 1):
        found = tuple(card_id for card_id, kind in kinds.items() if kind[index] == key)
        if found:
            return found
    return ()


def pools(spec: dict, kinds: Mapping[str, tuple[str | None, str | None]]) -> dict[str, tuple[str, ...]]:
    """The keys of a setup's `cards` that are chosen rather than dealt, each with the cards it is chosen
    from: its pool's list, else its team's or group's cards. A card id (a key of `kinds`) is dealt."""
    own = spec.get("pools", {})
    return {
        key: tuple(own[key]) if key in own else members(key, kinds)
        for key in spec["cards"]
        if key in own or key not in kinds
    }


def setup_cards(spec: dict, players: int) -> dict[str, int]:
    """What a setup deals for a player count (which its `players` list must hold): per key of its
    `cards` (a card, or a team, group or pool to choose from), the number, with `fill`'s seats."""
    if players not in spec["players"]:
        raise ValueError(f"no row for {players} players (rows: {counts(spec['players'])})")
    index = spec["players"].index(players)
    deal = {card_id: counts[index] if isinstance(counts, list) else counts for card_id, counts in spec["cards"].items()}
    total = sum(deal.values())
    seats = players + spec.get("extra", 0)
    if "fill" in spec:
        left = seats - total
        if left < 0:
            raise ValueError(f"with {players} players the cards add up to {total}, more than the {seats} to deal")
        deal[spec["fill"]] = deal.get(spec["fill"], 0) + left
    elif total % players:
        raise ValueError(f"with {players} players the cards add up to {total}, which does not deal evenly")
    return {card_id: number for card_id, number in deal.items() if number}
