"""The quick-reference rulebook: a resolved Deck in, the rulebook template's values out.

Components, the setup table and every role's ability come from the deck, so
a custom card appears by itself; the written sections come from the game's
rulebook.yaml and the words every game shares from templates/documents/text.yaml.
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping

from .model import Deck, team_color


def _fill(text: str, **values) -> str:
    # str.format would choke on braces a translator wrote; only our own names are replaced.
    for key, value in values.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def localized_name(spec: Mapping, lang: str, fallback: str) -> str:
    """A template entry's `name` in the language (card-sizes.yaml, paper.yaml), else English, else fallback."""
    names = spec.get("name") or {}
    return str(names.get(lang) or names.get("en") or fallback) if isinstance(names, Mapping) else str(names)


def _plural(forms: Mapping | str, count: int) -> str:
    """A text's form for a count: `one` for 1 where the language has it, else `other`."""
    if isinstance(forms, str):
        return forms
    return forms["one"] if count == 1 and "one" in forms else forms["other"]


def context(deck: Deck, text: Mapping, sizes: Mapping, sheets: int, paper: str) -> dict:
    """`sheets`: how many sheets the card PDF prints on; `paper`: their paper's name, in the language."""
    rulebook = deck.rulebook
    counts = Counter(card.group.id for card in deck.copies)
    components = []
    for group in deck.groups:
        cards = [card for card in deck.cards if card.group.id == group.id]
        if not cards:
            continue
        size = sizes[group.size_name]
        names = list(dict.fromkeys(card.name.value for card in cards))
        components.append({
            "name": group.name.value,
            "count": counts[group.id],
            "size": _fill(text["round_size" if group.shape == "round" else "size"],
                          name=localized_name(size, deck.lang, group.size_name), w=f"{group.size.w:g}",
                          h=f"{group.size.h:g}"),
            # Word cards are numbered, not named: their names say nothing.
            "cards": [] if group.layout == "words" else
            [f"{name} ×{sum(c.count for c in cards if c.name.value == name)}" if
             sum(c.count for c in cards if c.name.value == name) > 1 else name for name in names],
        })
    names = {card.id: card.name.value for card in deck.cards}
    setups = [{
        "name": setup.name.value if setup.name and len(deck.setups) > 1 else "",
        "players": setup.players,
        "rows": [{"name": names[card_id], "counts": [deal.get(card_id, 0) for deal in setup.deals]}
                 for card_id in dict.fromkeys(card_id for deal in setup.deals for card_id in deal)],
    } for setup in deck.setups]
    roles = [{
        "name": card.name.value,
        "label": " · ".join(dict.fromkeys(x for x in (card.team.name.value if card.team else "",
                                                       card.group.name.value) if x)),
        "color": team_color(card),
        "ability": card.ability.value,
    } for card in deck.cards if card.derived_from is None and card.layout in ("role", "token")]
    used = [group for group in deck.groups if group.shape == "rect" and counts[group.id]]
    sleeves = "; ".join(dict.fromkeys(
        _fill(text["sleeves"], size=localized_name(sizes[g.size_name], deck.lang, g.size_name), w=f"{g.size.w:g}",
              h=f"{g.size.h:g}",
              sleeve=sizes[g.size_name].get("sleeve", "?")) for g in used))
    players_line = _fill(text["players"], min=rulebook.players[0], max=rulebook.players[1])
    if rulebook.minutes:
        players_line += " · " + _fill(text["minutes"], min=rulebook.minutes[0], max=rulebook.minutes[1])
    return {
        "game": {"name": deck.name.value},
        "t": text,
        "players_line": players_line,
        "rulebook": {"sections": [{"id": s.id, "title": s.title.value, "body": s.body.value}
                                  for s in rulebook.sections]},
        "components": components,
        "setups": setups,
        "roles": roles,
        "making": _fill(text["making"], sleeves=sleeves, sheets=_fill(
            _plural(text["sheets"], sheets), count=sheets, paper=paper)),
    }
