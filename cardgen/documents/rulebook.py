"""The quick-reference rulebook: a resolved Deck in, the rulebook template's values out.

Components, the setup (the script's setup steps, then the setup tables), the
night order and every role's ability come from the deck, so a custom card
appears by itself and nothing is written twice; the written sections come from
the game's rulebook.yaml and the words every game shares from
templates/documents/text.yaml. Whatever the deck marks as a house rule (a
section's `house` parts, a setup step, a setup table or its rows and columns, the night order or the
dead-roles rule) is printed with the mark, and the legend once under the title. Setups groups
commonly play (``origin: community``) come in a table of their own with their own mark and legend.
On a bilingual deck each role's section gives its second-language name in brackets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from cardgen.core.phrases import FALLBACK, fill, numeral
from cardgen.deck.model import Card, Deck, Marks, Part, Setup, team_color
from cardgen.deck.tonight import Tonight
from cardgen.documents.script_lines import deal_line, marked


def _house(text: str, mark: str) -> str:
    """A house rule's text with the mark before each of its paragraphs and bullets."""
    blocks = []
    for block in text.strip().split("\n\n"):
        lines = block.split("\n")
        lines = [f"- {mark} {line[2:]}" if line.startswith("- ") else line for line in lines]
        if not lines[0].startswith("- "):
            lines[0] = f"{mark} {lines[0]}"
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _body(parts: tuple[Part, ...], mark: str) -> str:
    return "\n\n".join(_house(part.text.value, mark) if part.house else part.text.value.strip() for part in parts)


def _setup_steps(deck: Deck, text: Mapping) -> list[str]:
    """The script's setup steps for the whole box, each version's own steps under the version's name."""
    script = deck.script
    if script is None:
        return []
    # As in the PDF script: a version only the narrator page runs is left out, and with one version left
    # its steps need no name before them.
    versions = {version.id: version.name.value for version in script.versions if not version.page_only}
    box = frozenset(card.id for card in deck.cards)
    steps = []
    for step in script.setup:
        # As in the script for the whole box: a step for tables without some card (unless) is left out.
        if not step.marks.read_in(tailored=False) or not step.applies(box):
            continue
        if step.version and step.version not in versions:
            continue
        line = deal_line(deck, Tonight(frozenset(), ""), text) if step.kind == "deal" else step.wording
        line = marked(line, step.marks, text)
        steps.append(
            f"**{versions[step.version]}**{text['colon']}{line}" if step.version and len(versions) > 1 else line
        )
    return steps


def _sides(card: Card, text: Mapping) -> str:
    """A card by name, or by both its names where its back is a face of its own (the Yes/No token)."""
    if card.back_face and card.back_face.name.value != card.name.value:
        return fill(text["two_sided"], front=card.name.value, back=card.back_face.name.value)
    return card.name.value


def _per_player(setup: Setup) -> list[int] | None:
    """How many of the table's cards each player gets, where the table deals them out evenly."""
    counts = [
        (sum(deal.values()) + sum(setup.choices(players).values())) // players
        for players, deal in zip(setup.players, setup.deals)
    ]
    return None if setup.fill or setup.extra or set(counts) == {1} else counts


def _chosen_name(deck: Deck, key: str, pool: tuple[str, ...]) -> str:
    """A row of cards the moderator chooses: its team's or group's name when it is every card of one,
    else the cards it is chosen from."""
    kinds = {kind.id: kind.name.value for card in deck.cards for kind in (card.team, card.group) if kind}
    every = tuple(card.id for card in deck.cards if key in (card.group.id, card.team and card.team.id))
    if key in kinds and pool == every:
        return kinds[key]
    return " / ".join(card.name.value for card in deck.cards if card.id in pool)


def _community(deck: Deck, text: Mapping) -> dict | None:
    """The setups groups play, side by side in one table: a column per setup and player count."""
    columns = [
        (setup, players, deal)
        for setup in deck.setups
        if setup.community
        for players, deal in zip(setup.players, setup.deals)
    ]
    if not columns:
        return None
    names = {card.id: card.name.value for card in deck.cards}
    # The cards in the order the setups name them, and the cards that fill the seats left over last.
    fills = {setup.fill for setup, _, _ in columns}
    order = [card_id for _, _, deal in columns for card_id in deal if card_id not in fills] + [
        card_id for _, _, deal in columns for card_id in deal if card_id in fills
    ]
    return {
        "title": f"{text['community_setups']} {text['community_mark']}",
        "names": [setup.name.value if setup.name else setup.id for setup, _, _ in columns],
        "players": [players for _, players, _ in columns],
        "rows": [
            {"name": names[card_id], "counts": [deal.get(card_id, 0) for _, _, deal in columns]}
            for card_id in dict.fromkeys(order)
        ],
    }


def _night_order(deck: Deck, text: Mapping) -> dict | None:
    waking = deck.night_order
    if not waking:
        return None
    house = deck.night.house
    title = f"{text['night_order']} {text['house_mark']}" if "order" in house else text["night_order"]
    rule = (
        marked(text[f"dead_{deck.night.dead_roles}"], Marks(house="dead-roles" in house), text)
        if deck.night.dead_roles
        else ""
    )
    lists = [
        {
            "title": text[f"{night}_night_list"] if night else None,
            "roles": [
                name + (text["first_night_mark"] if night is None and card.first_night_only else "")
                for card, name in deck.listed(cards)
            ],
        }
        for night, cards in deck.night_lists
    ]
    return {"title": title, "rule": rule, "lists": lists}


def localized_name(spec: Mapping, lang: str, fallback: str) -> str:
    """A template entry's `name` in the language (card-sizes.yaml, paper.yaml), else English, else fallback."""
    names = spec.get("name") or {}
    return str(names.get(lang) or names.get(FALLBACK) or fallback) if isinstance(names, Mapping) else str(names)


def _plural(forms: Mapping | str, count: int) -> str:
    """A text's form for a count: `one` for 1 where the language has it, else `other`."""
    if isinstance(forms, str):
        return forms
    return forms["one"] if count == 1 and "one" in forms else forms["other"]


def context(deck: Deck, text: Mapping, sizes: Mapping, sheets: int, paper: str) -> dict:
    """`sheets`: how many sheets the card PDF prints on; `paper`: their paper's name, in the language."""
    rulebook = deck.checked_rulebook
    mark, digits = text["house_mark"], text.get("digits")
    counts = Counter(card.group.id for card in deck.copies)
    components = []
    for group in deck.groups:
        cards = [card for card in deck.cards if card.group.id == group.id]
        if not cards:
            continue
        size = sizes[group.size_name]
        # Copies per printed name (a two-sided token by both its faces' names), in the cards' order.
        copies: Counter[str] = Counter()
        for card in cards:
            copies[_sides(card, text)] += card.count
        components.append(
            {
                "name": group.name.value,
                "count": counts[group.id],
                "size": fill(
                    text["round_size" if group.shape == "round" else "size"],
                    name=localized_name(size, deck.lang, group.size_name),
                    w=numeral(f"{group.size.w:g}", digits),
                    h=numeral(f"{group.size.h:g}", digits),
                ),
                # Word cards are numbered, not named: their names say nothing.
                "cards": []
                if group.layout == "words"
                else [f"{name} ×{numeral(n, digits)}" if n > 1 else name for name, n in copies.items()],
            }
        )
    names = {card.id: card.name.value for card in deck.cards}
    setups = [
        {
            "name": " ".join(
                filter(
                    None, [setup.name.value if setup.name and len(deck.setups) > 1 else "", mark if setup.house else ""]
                )
            ),
            # The mark before a column's count, held to it: in a narrow column a mark after it reads as the next's.
            "players": [f"{mark}{numeral(n, digits)}" if n in setup.house_players else n for n in setup.players],
            "rows": [
                {
                    "name": f"{mark} {names[card_id]}" if card_id in setup.house_rows else names[card_id],
                    "counts": [deal.get(card_id, 0) for deal in setup.deals],
                }
                for card_id in dict.fromkeys(card_id for deal in setup.deals for card_id in deal)
            ]
            + [
                {"name": _chosen_name(deck, key, pool), "counts": [row.get(key, 0) for row in setup.choose]}
                for key, pool in setup.pools.items()
            ],
            "per_player": _per_player(setup),
        }
        for setup in deck.setups
        if not setup.community
    ]
    community = _community(deck, text)
    roles = [
        {
            "name": deck.introduced(card),
            "label": " · ".join(
                dict.fromkeys(x for x in (card.team.name.value if card.team else "", card.group.name.value) if x)
            ),
            "color": team_color(card),
            "ability": card.ability.value,
        }
        for card in deck.cards
        if card.derived_from is None and card.layout in ("role", "token")
    ]
    used = [group for group in deck.groups if group.shape == "rect" and counts[group.id]]
    sleeves = "; ".join(
        dict.fromkeys(
            fill(
                text["sleeves"],
                size=localized_name(sizes[g.size_name], deck.lang, g.size_name),
                w=numeral(f"{g.size.w:g}", digits),
                h=numeral(f"{g.size.h:g}", digits),
                sleeve=numeral(sizes[g.size_name].get("sleeve", "?"), digits),
            )
            for g in used
        )
    )
    players_line = fill(text["players"], digits, min=rulebook.players[0], max=rulebook.players[1])
    if rulebook.minutes:
        players_line += " · " + fill(text["minutes"], digits, min=rulebook.minutes[0], max=rulebook.minutes[1])
    sections = [{"id": s.id, "title": s.title.value, "body": _body(s.parts, mark)} for s in rulebook.sections]
    night_order = _night_order(deck, text)
    setup_steps = _setup_steps(deck, text)
    house = (
        any(part.house for s in rulebook.sections for part in s.parts)
        or any(s.house or s.house_rows or s.house_players for s in deck.setups)
        or bool(deck.night.house and night_order)
        or any(step.marks.house for step in (deck.script.setup if deck.script else ()))
    )
    return {
        "game": {"name": deck.name.value},
        "t": text,
        "digits": digits,  # the numbers the template prints are written in them
        "players_line": players_line,
        "legend": f"{mark} {text['house_legend']}" if house else "",
        "community_legend": f"{text['community_mark']} {text['community_legend']}" if community else "",
        "rulebook": {"sections": sections},
        "setup_steps": setup_steps,
        "night_order": night_order,
        # The night order follows the section on the flow of a round, or stands before the roles.
        "night_order_after": "round" if any(s["id"] == "round" for s in sections) else None,
        "components": components,
        "setups": setups,
        "community": community,
        "roles": roles,
        "making": fill(
            text["making"],
            sleeves=sleeves,
            sheets=fill(_plural(text["sheets"], sheets), digits, count=sheets, paper=paper),
        ),
    }
