"""Setups: what to deal for a number of players, from a game's own table.

A setup (game.yaml ``setups``) lists player counts and, per card id, one
number for all of them or one per count; ``fill`` takes the seats left over
and ``extra`` deals that many cards beyond one per player.
"""

from __future__ import annotations


def counts(players: list[int] | tuple[int, ...]) -> str:
    """Player counts as a reader says them: 8–18 when they run on, else 4, 6, 9."""
    listed = list(players)
    if len(listed) > 1 and listed == list(range(listed[0], listed[-1] + 1)):
        return f"{listed[0]}–{listed[-1]}"
    return ", ".join(map(str, listed))


def setup_cards(spec: dict, players: int) -> dict[str, int]:
    """The cards a setup deals for a player count (which its `players` list must hold)."""
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
