"""Table rules: game.yaml's ``table-rules`` in; out, the rules with their cards made card ids (for the
deck), the rules a table breaks (warnings with the rule's words), and what is wrong with the rules and
pools as written (for validate, each at its line).

A rule counts the cards of ``of`` (card, team or group ids) at a table and says one thing about them:

* ``at-most: N``: no more than N of them (one Leader a game);
* ``at-least: N``: none of them, or at least N (the Masons come in pairs);
* ``exactly: N``: exactly N (Werewords' werewolves);
* ``from-players: N``: none of them below N players (the Yakuza from 12);
* ``never-with: [ids]``: never beside any of those (the Yakuza and the Mobsters).

A count is one number, or one per count of the rule's ``players`` (it then holds at those counts only).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cardgen.core.problems import Problem, did_you_mean
from cardgen.deck.model import TableRule, Text
from cardgen.deck.schema_check import dotted
from cardgen.deck.setups import members
from cardgen.deck.yaml_doc import Doc

KINDS = ("at-most", "at-least", "exactly", "from-players", "never-with")
# The kinds a table that breaks them keeps breaking whatever cards are still chosen for it.
UNMENDED_BY_MORE = ("at-most", "from-players", "never-with")
_COUNTED = ("at-most", "at-least", "exactly")

Kinds = Mapping[str, tuple[str | None, str | None]]  # card id -> (team, group)


def resolved(game: Doc, text: Callable[[tuple], Text], kinds: Kinds) -> tuple[TableRule, ...]:
    """The game's rules, `of` and `never-with` made card ids; `text` gives a text in the build's language."""
    rules = []
    for index, spec in enumerate(game.data.get("table-rules", [])):
        (kind,) = [key for key in KINDS if key in spec]
        value = spec[kind]

        def cards(ids: list) -> tuple[str, ...]:
            return tuple(dict.fromkeys(card for key in ids for card in members(key, kinds)))

        rules.append(
            TableRule(
                says=text(("table-rules", index, "says")),
                kind=kind,
                cards=cards(spec["of"]),
                numbers=() if kind == "never-with" else tuple(value) if isinstance(value, list) else (value,),
                players=tuple(spec.get("players", ())),
                others=cards(value) if kind == "never-with" else (),
                house=spec.get("house", False),
                where=game.where(("table-rules", index)),
            )
        )
    return tuple(rules)


def breaks(rule: TableRule, counts: Mapping[str, int], players: int) -> bool:
    """Whether a table of `players` with these cards in play (card id -> copies) breaks the rule."""
    if rule.players and players not in rule.players:
        return False
    number = (
        rule.numbers[rule.players.index(players)] if len(rule.numbers) > 1 else rule.numbers[0] if rule.numbers else 0
    )
    have = sum(counts.get(card, 0) for card in rule.cards)
    return {
        "at-most": have > number,
        "at-least": 0 < have < number,
        "exactly": have != number,
        "from-players": have > 0 and players < number,
        "never-with": have > 0 and any(counts.get(card, 0) for card in rule.others),
    }[rule.kind]


def warnings(
    rules: tuple[TableRule, ...],
    option: str,
    counts: Mapping[str, int],
    players: int,
    open_cards: frozenset[str] = frozenset(),
) -> list[Problem]:
    """A warning, in the rule's words, for each rule the table breaks, at the rule's line. A rule that
    counts a card still to be chosen (`open_cards`) is the moderator's to keep while a choice may yet
    mend it (at-least, exactly); one that more cards can only break further is broken already."""
    return [
        Problem(
            rule.where,
            f"{option}: the table breaks a rule{' (a house rule)' if rule.house else ''}: {rule.says.value}",
            "warning",
        )
        for rule in rules
        if breaks(rule, counts, players)
        and (rule.kind in UNMENDED_BY_MORE or not open_cards & {*rule.cards, *rule.others})
    ]


def _name(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def kinds_written(game: dict, cards: Mapping[str, Doc]) -> dict[str, tuple[str | None, str | None]]:
    """Each card's (team, group) as written: its own, else its group's team."""
    groups = game.get("groups")
    groups = groups if isinstance(groups, dict) else {}
    found = {}
    for card_id, doc in cards.items():
        data = doc.data if isinstance(doc.data, dict) else {}
        # A team or group that is no name (a list, a number) is the schema check's to say: it counts as none.
        group = _name(data.get("group", "role"))
        spec = groups.get(group) if group else None
        team = _name(data.get("team")) or (_name(spec.get("team")) if isinstance(spec, dict) else None)
        found[card_id] = (team, group)
    return found


def check(game: Doc, cards: Mapping[str, Doc]) -> list[Problem]:
    """The table rules' problems: ids that are no card, team or group, a rule that says no one thing,
    counts that do not match `players`, and numbers the box cannot deal."""
    data = game.data if isinstance(game.data, dict) else {}
    kinds = kinds_written(data, cards)
    box = {card_id: doc.data.get("count", 1) for card_id, doc in cards.items() if isinstance(doc.data, dict)}
    known = [*kinds, *{kind for pair in kinds.values() for kind in pair if kind}]
    problems: list[Problem] = []

    def ids(path: tuple, values: Any) -> None:
        for i, key in enumerate(values if isinstance(values, list) else []):
            if isinstance(key, str) and not members(key, kinds):
                problems.append(
                    Problem(
                        game.where(path + (i,)),
                        f"{dotted(path + (i,))}: no card, team or group '{key}'{did_you_mean(key, known)}",
                    )
                )

    rules = data.get("table-rules")
    for index, spec in enumerate(rules if isinstance(rules, list) else []):
        path = ("table-rules", index)
        if not isinstance(spec, dict):
            continue  # the schema check has said what is wrong
        said = [key for key in KINDS if key in spec]
        if len(said) != 1:
            problems.append(
                Problem(
                    game.where(path),
                    f"{dotted(path)}: a table rule says one thing: expected exactly one of "
                    f"{', '.join(KINDS)}, got {', '.join(said) or 'none'}",
                )
            )
            continue
        ids(path + ("of",), spec.get("of"))
        if said[0] == "never-with":
            ids(path + ("never-with",), spec["never-with"])
        value, players = spec[said[0]], spec.get("players")
        if "players" in spec and said[0] not in _COUNTED:
            problems.append(
                Problem(
                    game.where(path + ("players",)),
                    f"{dotted(path + ('players',))}: only a count (at-most, at-least, exactly) holds at some player counts",
                )
            )
        elif (
            said[0] in _COUNTED
            and isinstance(value, list)
            and (not isinstance(players, list) or len(value) != len(players))
        ):
            problems.append(
                Problem(
                    game.where(path + (said[0],)),
                    f"{dotted(path + (said[0],))}: {len(value)} numbers, one per player count: "
                    f"they need `players` with as many counts",
                )
            )
        elif said[0] in ("at-least", "exactly") and isinstance(spec.get("of"), list):
            have = sum(box.get(card, 0) for key in spec["of"] for card in members(str(key), kinds))
            numbers = value if isinstance(value, list) else [value]
            need = max((n for n in numbers if isinstance(n, int)), default=0)
            if need > have:
                problems.append(
                    Problem(
                        game.where(path + (said[0],)),
                        f"{dotted(path + (said[0],))}: {need} cards wanted, but the box has {have} of them",
                    )
                )
    return problems
