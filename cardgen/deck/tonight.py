"""Who plays tonight: a resolved Deck and the table options in; the cards in play, exactly what is
dealt, and which cards an evening prints, out.

A build for the whole box covers every card. A tailored build names the table:

* ``--players N`` deals the row for N of a setup (``--setup NAME``; by default the game's first).
  A setup with a single row, such as a 9-player board, needs no N.
* Each ``--with`` card takes the seat of one card the setup fills seats with (a Villager), as the
  sources' tables do when a special role joins. A card of a group that no setup deals (a title such
  as the Sheriff) takes no seat: it is in play beside the deal.
* A card that brings cards of its own (the Thief's two) adds that many of the fill card, dealt to
  nobody and left in the middle.
* A row may count a team, a group or a pool rather than cards: the moderator chooses that many of its
  cards (``choose``), every one of which may be in play. A ``--with`` card of such a pool is one of them.
* ``--roles SPEC`` gives the exact cards instead of a row (``werewolf:2,villager:3,seer``). The setup
  then only gives the rule the cards must fit: one card to each player and its ``extra`` more, or an
  even share of several, and as many of each team, group or pool as its row counts. Without
  ``--players`` the players are the cards less that ``extra``; with it, cards that do not fit are a
  warning that says the rule. A game with no setups deals the cards named, one a player.
* Every table is checked against the game's table rules: a rule it breaks is a warning in its words.

The script, the rulebook and the narrator page read the same answer, and :func:`printed` says which
cards an evening's sheets hold, so what is printed, dealt and called is always the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from cardgen.core.phrases import fill
from cardgen.core.problems import DeckError, Problem, Where, did_you_mean
from cardgen.deck import table_rules
from cardgen.deck.model import NIGHTS, Card, Deck, Setup
from cardgen.deck.setups import counts

Roles = tuple[tuple[str, int], ...]
_ROLE = re.compile(r"([^:,\s]+)(?::(\d+))?")


@dataclass(frozen=True)
class Tonight:
    """The cards in play; for a table of N players, also the setup and exactly what is dealt."""

    in_play: frozenset[str]
    label: str  # how the documents name it
    players: int | None = None  # None: the whole box
    setup: Setup | None = None  # the setup dealt, or whose rule chosen roles follow
    dealt: Mapping[str, int] = field(default_factory=dict)  # card id -> copies dealt to the seats, in order
    beside: Mapping[str, int] = field(default_factory=dict)  # in play but dealt to no seat (the Sheriff)
    extra: int = 0  # cards dealt beyond one a player, left in the middle
    warnings: tuple[Problem, ...] = ()  # chosen roles that do not fit the game's rules
    chosen: bool = False  # the cards were named (--roles), not a setup's row
    choose: Mapping[str, tuple[int, tuple[str, ...]]] = field(default_factory=dict)  # team/pool -> (n, from)

    @property
    def checked_setup(self) -> Setup:
        """The setup, for a table of N players: only the whole box (no --players, --setup or --roles) has none."""
        if self.setup is None:
            raise ValueError(f"{self.label}: the whole box is dealt from no setup")
        return self.setup


def parse_roles(spec: str) -> Roles:
    """``werewolf:2,villager:3,seer`` as (id, count) pairs in the order given; a ValueError says what is wrong."""
    roles: dict[str, int] = {}
    for part in spec.split(","):
        match = _ROLE.fullmatch(part.strip())
        if not match:
            raise ValueError(
                f"expected CARD or CARD:COUNT separated by commas (like werewolf:2,seer), got '{part.strip()}'"
            )
        card_id, number = match[1], int(match[2] or 1)
        if card_id in roles:
            raise ValueError(f"'{card_id}' is named twice")
        if number < 1:
            raise ValueError(f"'{part.strip()}': a count is at least 1")
        roles[card_id] = number
    return tuple(roles.items())


def seat_groups(deck: Deck) -> frozenset[str]:
    """The groups whose cards take a seat: those the game's setups deal from."""
    dealt = {card_id for setup in deck.setups for deal in setup.deals for card_id in deal}
    dealt |= {card_id for setup in deck.setups for cards in setup.pools.values() for card_id in cards}
    return frozenset(card.group.id for card in deck.cards if card.id in dealt)


def tonight(
    deck: Deck,
    where: Where,
    text: Mapping,
    players: int | None,
    setup_id: str | None,
    extra_cards: tuple[str, ...],
    roles: Roles = (),
) -> Tonight:
    """What the options ask for, with a warning for each two of its roles called at the same order on
    the same night; or a DeckError saying what does not fit the deck (at `where`)."""
    table = _table(deck, where, text, players, setup_id, extra_cards, roles)
    if table.players is None:
        return table
    return replace(table, warnings=table.warnings + tuple(ties(deck, table.in_play)))


def ties(deck: Deck, in_play: frozenset[str]) -> list[Problem]:
    """Roles in play that a night would call at the same order: the game gives no order between them
    (cardgen calls them by id), so the designer should."""
    nights: dict[tuple[Card, Card, int | float], list[str]] = {}
    for night in NIGHTS:
        calls = [(card, call) for card, call in deck.calls(night) if card.id in in_play]
        for (card, call), (then, then_call) in zip(calls, calls[1:]):
            if then_call.order == call.order:
                nights.setdefault((card, then, call.order), []).append(night)
    said = {("first",): "on the first night", ("other",): "on the other nights", NIGHTS: "every night"}
    return [
        Problem(
            then.name.where,
            f"'{card.id}' and '{then.id}' are both called at order {order:g} {said[tuple(tied)]}: "
            f"they are called by id, '{card.id}' first; give them orders of their own",
            "warning",
        )
        for (card, then, order), tied in nights.items()
    ]


def _table(
    deck: Deck,
    where: Where,
    text: Mapping,
    players: int | None,
    setup_id: str | None,
    extra_cards: tuple[str, ...],
    roles: Roles = (),
) -> Tonight:
    """What the options ask for, or a DeckError saying what does not fit the deck (at `where`)."""
    cards = {card.id: card for card in deck.cards}
    for option, card_id in [*(("--with", c) for c in extra_cards), *(("--roles", c) for c, _ in roles)]:
        if card_id not in cards:
            raise DeckError(
                [Problem(where, f"{option}: no card '{card_id}'{did_you_mean(card_id, cards)} in {deck.game}")]
            )
    if roles and extra_cards:
        raise DeckError(
            [Problem(where, "--with adds a card to a setup's row; with --roles, name every card in --roles")]
        )
    if players is None and setup_id is None and not roles:
        return Tonight(frozenset(cards), text["all_cards"])
    if roles and not deck.setups and setup_id is None:
        # No table to follow: every card named takes a seat.
        return _chosen(deck, where, text, None, players, dict(roles), frozenset(cards[c].group.id for c, _ in roles))
    setup = _setup(deck, where, setup_id)
    seats = seat_groups(deck)
    if roles:
        return _chosen(deck, where, text, setup, players, dict(roles), seats)
    if players is None:
        if len(setup.players) > 1:
            raise DeckError(
                [
                    Problem(
                        setup.where,
                        f"--setup {setup.id}: setup '{setup.id}' of {deck.game} has "
                        f"rows for {counts(setup.players)} players: say how many "
                        "with --players N",
                    )
                ]
            )
        players = setup.players[0]
    if players not in setup.players:
        raise DeckError(
            [
                Problem(
                    setup.where,
                    f"--players: setup '{setup.id}' of {deck.game} has no row "
                    f"for {players} players (rows: {counts(setup.players)})",
                )
            ]
        )
    dealt, beside = dict(setup.deal(players)), dict[str, int]()
    choose = {key: [n, setup.pools[key]] for key, n in setup.choices(players).items()}
    for card_id in extra_cards:
        pool = next((left for left in choose.values() if left[0] and card_id in left[1]), None)
        if pool:
            pool[0] -= 1
            dealt[card_id] = dealt.get(card_id, 0) + 1
            continue
        if cards[card_id].group.id not in seats:
            beside[card_id] = beside.get(card_id, 0) + 1
            continue
        if setup.fill is None or not dealt.get(setup.fill):
            why = "no card fills seats" if setup.fill is None else f"every {setup.fill} seat is taken"
            raise DeckError(
                [
                    Problem(
                        setup.where,
                        f"--with {card_id}: setup '{setup.id}' of {deck.game} has no seat left for it ({why})",
                    )
                ]
            )
        dealt[setup.fill] -= 1
        dealt[card_id] = dealt.get(card_id, 0) + 1
    dealt, extra = _with_extra_cards(deck, setup, dealt)
    _check_box(deck, "--with", {**dealt, **beside})
    label = fill(
        text["setup_for"], text.get("digits"), players=players, setup=setup.name.value if setup.name else setup.id
    )
    left = {key: (n, tuple(pool)) for key, (n, pool) in choose.items() if n}
    option = "--with" if extra_cards else "--players"
    return Tonight(
        frozenset(dealt) | frozenset(beside) | {card_id for _, pool in left.values() for card_id in pool},
        label,
        players,
        setup,
        dealt,
        beside,
        extra,
        tuple(
            table_rules.warnings(
                deck.table_rules,
                option,
                {**dealt, **beside},
                players,
                frozenset(c for _, p in left.values() for c in p),
            )
        ),
        choose=left,
    )


def _with_extra_cards(deck: Deck, setup: Setup, dealt: Mapping[str, int]) -> tuple[dict[str, int], int]:
    """The deal with the cards its cards bring (the Thief's two: more of the fill card, dealt to
    nobody), and how many cards lie in the middle in all."""
    cards = {card.id: card for card in deck.cards}
    dealt, extra = dict(dealt), setup.extra
    for card_id, n in list(dealt.items()):
        if cards[card_id].extra_cards and n and setup.fill:
            extra += cards[card_id].extra_cards * n
            dealt[setup.fill] = dealt.get(setup.fill, 0) + cards[card_id].extra_cards * n
    return {card_id: n for card_id, n in dealt.items() if n}, extra


def _setup(deck: Deck, where: Where, setup_id: str | None) -> Setup:
    setups = {setup.id: setup for setup in deck.setups}
    if not setups:
        raise DeckError(
            [
                Problem(
                    where,
                    f"{deck.game} has no setups (game.yaml: setups), so it cannot be dealt "
                    "for a table: build it for the whole box",
                )
            ]
        )
    setup_id = setup_id or next(iter(setups))
    if setup_id not in setups:
        raise DeckError(
            [
                Problem(
                    where,
                    f"--setup: {deck.game} has no setup '{setup_id}'"
                    f"{did_you_mean(setup_id, setups)}; "
                    f"setups: {', '.join(setups) or 'none'}",
                )
            ]
        )
    return setups[setup_id]


def _check_box(deck: Deck, option: str, wanted: Mapping[str, int]) -> None:
    """Every card asked for is in the box that many times."""
    problems = [
        Problem(
            card.name.where, f"{option}: {wanted[card.id]} '{card.id}' cards asked for, but the box has {card.count}"
        )
        for card in deck.cards
        if wanted.get(card.id, 0) > card.count
    ]
    if problems:
        raise DeckError(problems)


def _chosen(
    deck: Deck,
    where: Where,
    text: Mapping,
    setup: Setup | None,
    players: int | None,
    roles: dict[str, int],
    seats: frozenset[str],
) -> Tonight:
    """The table of --roles: its cards exactly, checked against the box, the setup's rule (if the game
    has a setup) and the game's table rules."""
    _check_box(deck, "--roles", roles)
    groups = {card.id: card.group.id for card in deck.cards}
    dealt = {card_id: n for card_id, n in roles.items() if groups[card_id] in seats}
    beside = {card_id: n for card_id, n in roles.items() if groups[card_id] not in seats}
    total = sum(dealt.values())
    if setup is None:
        players = players or total
        warnings = (
            []
            if players == total
            else [
                Problem(
                    where, f"--roles: {total} cards for {players} players, but one card goes to each player", "warning"
                )
            ]
        )
        return Tonight(
            frozenset(roles),
            fill(text["roles_for"], text.get("digits"), players=players),
            players,
            None,
            dealt,
            beside,
            warnings=tuple(warnings + table_rules.warnings(deck.table_rules, "--roles", roles, players)),
            chosen=True,
        )
    rule = f"setup '{setup.id}' of {deck.game} deals"
    if players is None:
        if not setup.one_each:
            raise DeckError(
                [
                    Problem(
                        setup.where, f"--roles: {rule} several cards to each player: say how many play with --players N"
                    )
                ]
            )
        players = total - setup.extra
        if players < 1:
            raise DeckError(
                [
                    Problem(
                        setup.where,
                        f"--roles: {total} cards seat nobody: {rule} one card to each player and {setup.extra} more",
                    )
                ]
            )
    warnings = []
    if setup.one_each and total != players + setup.extra:
        more = f" and {setup.extra} more" if setup.extra else ""
        warnings.append(
            Problem(
                setup.where,
                f"--roles: {total} cards for {players} players, but {rule} one "
                f"card to each player{more} ({players + setup.extra} cards)",
                "warning",
            )
        )
    elif not setup.one_each and total % players:
        warnings.append(
            Problem(
                setup.where,
                f"--roles: {total} cards for {players} players, but {rule} every player the same number of cards",
                "warning",
            )
        )
    low, high = (
        deck.rulebook.players
        if deck.rulebook
        else (min(min(s.players) for s in deck.setups), max(max(s.players) for s in deck.setups))
    )
    if not low <= players <= high:
        warnings.append(
            Problem(where, f"--roles: {players} players, but {deck.game} is for {low}–{high} players", "warning")
        )
    for key, n in (setup.choices(players) if players in setup.players else {}).items():
        have = sum(roles.get(card_id, 0) for card_id in setup.pools[key])
        if have != n:
            warnings.append(
                Problem(
                    setup.where,
                    f"--roles: {have} {key} cards, where the {players}-player row of setup '{setup.id}' takes {n}",
                    "warning",
                )
            )
    warnings += table_rules.warnings(deck.table_rules, "--roles", roles, players)
    dealt, extra = _with_extra_cards(deck, setup, dealt)
    _check_box(deck, "--roles", {**dealt, **beside})
    return Tonight(
        frozenset(roles),
        fill(text["roles_for"], text.get("digits"), players=players),
        players,
        setup,
        dealt,
        beside,
        extra,
        tuple(warnings),
        chosen=True,
    )


def _named_by_script(deck: Deck) -> frozenset[str]:
    """Cards the script can leave out: named in a step's conditions, or among the cards that hide roles."""
    script = deck.script
    if script is None:
        return frozenset()
    steps = [
        *script.setup,
        *(step for version in script.versions for phase in version.phases for step in phase.steps),
        *(
            step
            for card in deck.cards
            for script in card.scripts
            for step in (*script.before, *script.then, *script.after)
        ),
    ]
    return frozenset(card_id for step in steps for card_id in step.named) | frozenset(script.unheld_if)


def printed(deck: Deck, table: Tonight) -> Deck:
    """The deck an evening prints: the cards dealt to the seats, a player aid for each seat, the
    cards in play beside the deal, the cards derived from any of those (the facilitator's cards), and
    every card that is equipment rather than a role (answer tokens, word cards, reference cards:
    cards of a group no setup deals, that neither wake at night nor are named by the script), each
    without the words it prints only with other cards in play (`in-play-only`: a player aid's win of
    a side not dealt). The whole box for the whole box."""
    if table.players is None:
        return deck
    seats, optional = (
        seat_groups(deck) | {c.group.id for c in deck.cards if c.id in table.dealt},
        _named_by_script(deck),
    )
    number = {}
    for card in deck.cards:
        if card.derived_from:
            continue
        if card.group.id in seats:
            # A card the moderator may choose is printed as often as it may be chosen.
            may = sum(n for n, pool in table.choose.values() if card.id in pool)
            number[card.id] = table.dealt.get(card.id, 0) + min(may, card.count - table.dealt.get(card.id, 0))
        elif card.layout == "text":
            number[card.id] = table.players
        elif card.id in optional or card.night_order is not None:
            number[card.id] = table.beside.get(card.id, 0)
        else:
            number[card.id] = card.count
    for card in deck.cards:
        if card.derived_from:
            number[card.id] = card.count if number.get(card.derived_from) else 0
    second = deck.second and replace(deck.second, cards=tuple(c.for_table(table.in_play) for c in deck.second.cards))
    return replace(
        deck,
        cards=tuple(
            replace(card.for_table(table.in_play), count=number[card.id]) for card in deck.cards if number[card.id]
        ),
        second=second,
    )
