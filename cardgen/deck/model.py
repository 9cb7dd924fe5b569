"""The resolved deck: frozen, one language (a bilingual build's second language is a second Deck
beside it), every option settled.

This is what layout and rendering see. Every text is already in the build's
language (or its English fallback), NFC-normalised and checked against the
fonts; every file path is absolute and exists; derived cards and word cards
have been made.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from cardgen.core.problems import Where
from cardgen.core.units import Size


@dataclass(frozen=True)
class Text:
    """A text in the build's language and where it was written."""

    value: str
    where: Where


@dataclass(frozen=True)
class Team:
    id: str
    name: Text
    color: str
    edge: Path | None
    mark: Path | None = None  # a glyph that tells the team apart without its colour


@dataclass(frozen=True)
class Back:
    """A back design shared by a group's cards."""

    title: Text
    color: str
    symbol: Path | None
    pattern: Path | None


@dataclass(frozen=True)
class Group:
    id: str
    name: Text
    size_name: str
    size: Size
    shape: str  # rect or round
    layout: str  # role, token, words or night-order
    team: Team | None  # for its cards that name none
    back: Back


@dataclass(frozen=True)
class BackFace:
    """A card's own back, printed in the card's layout (the No side of a Yes/No token)."""

    name: Text
    symbol: Path | None


@dataclass(frozen=True)
class Art:
    """A designer's picture for the art box, drawn in its own colours."""

    path: Path
    fit: str  # contain or cover
    focus: tuple[float, float]  # fractions of the picture, from its top-left corner
    where: Where


@dataclass(frozen=True)
class Marks:
    """What a step says about itself: players may die at it, it is our rule, a countdown runs at it;
    and what the narrator page does there (the PDF script prints none of these)."""

    deadly: bool = False
    house: bool = False
    timer: int | None = None  # seconds
    pause: int | None = None  # seconds the page waits for the players to act; None: its default
    secret_word: str | None = None  # choose, show, initials, ask or guess: the page's secret word at this step
    if_guessed: bool | None = None  # the page reads the step only when the word was (True) or was not guessed
    if_tailored: bool | None = None  # the step is only for a table (True) or only for the whole box (False)
    choices: tuple[str, ...] = ()  # what the players' night choices do: target, protect, save, poison, kill, note
    announce: str | None = None  # deaths: the page announces who died from the night's choices
    if_died: tuple[str, ...] = ()  # cards or reminders: the page reads the step only when one of them has just died
    if_deaths: bool | None = None  # the page reads the step only when someone (True) or nobody (False) just died
    secret_role: str | None = None  # choose: the page asks for the secret role here, on its private screen
    if_secret: tuple[str, ...] = ()  # cards: the step's secret is shown only when the secret role is one of them
    winners: tuple[str, ...] = ()  # teams: the game ends here, and the page asks which of them won
    up_to_players: int | None = None  # the step is read at a table of at most this many players

    def read_in(self, tailored: bool, players: int | None = None) -> bool:
        """Whether the step is read in a script for one table (tailored) of `players`, or for the whole box."""
        fits = players is None or self.up_to_players is None or players <= self.up_to_players
        return self.if_tailored in (None, tailored) and fits


# When a line is read: clauses of card ids, every clause met when at least one of its ids is. An id is
# met when its card is in play, or, after NOT (a step's `unless`), when it is not; ids never start
# with NOT (schema.ID_PATTERN).
Condition = tuple[tuple[str, ...], ...]
NOT = "!"


def met(condition: Condition, in_play: frozenset[str]) -> bool:
    return all(
        any((card[1:] not in in_play) if card[0] == NOT else (card in in_play) for card in clause)
        for clause in condition
    )


@dataclass(frozen=True)
class Step:
    """A script step: a line read aloud (say), a silent instruction (do), the role wake-ups (roles),
    or, in the setup, the dealing of the setup's cards (deal)."""

    kind: str  # say, do, roles or deal
    text: Text | None  # for say and do
    roles: str | None  # for roles: first-night or night
    when: tuple[str, ...] = ()  # card ids, any of which must be in play; empty: always
    marks: Marks = Marks()
    version: str | None = None  # setup steps of one script version only
    when_all: tuple[str, ...] = ()  # card ids, all of which must be in play
    unless: tuple[str, ...] = ()  # card ids, none of which may be in play
    night: str | None = None  # first or other: read on the first night only, or on every other night only
    from_night: int | None = None  # read from this night on (2 or more)

    @property
    def condition(self) -> Condition:
        """`if` (any of), `if-all` (each) and `unless` (none of) as one condition."""
        return (
            ((self.when,) if self.when else ())
            + tuple((card,) for card in self.when_all)
            + tuple((NOT + card,) for card in self.unless)
        )

    def applies(self, in_play: frozenset[str]) -> bool:
        return met(self.condition, in_play)

    @property
    def wording(self) -> str:
        """The text of a say or do step, in the deck's language."""
        if self.text is None:
            raise ValueError(f"a {self.kind} step has no text")
        return self.text.value

    @property
    def named(self) -> tuple[str, ...]:
        """Every card the step's conditions name."""
        return (*self.when, *self.when_all, *self.unless)


@dataclass(frozen=True)
class NightScript:
    call: Text | None  # the name the wake-up line calls, when not the card's name
    say: Text | None
    do: Text | None
    after: tuple[Step, ...] = ()  # after the go-to-sleep line
    before: tuple[Step, ...] = ()  # between the wake-up line and say
    then: tuple[Step, ...] = ()  # after say and do, before the go-to-sleep line
    group: bool = False  # several players answer the call
    marks: Marks = Marks()
    also_wakes: Text | None = None  # who wakes on their own in `after` (Cupid's Lovers): a step of the night lists
    # Per script version, the card's own lines there (say, do and marks only) in place of these.
    versions: tuple[tuple[str, NightScript], ...] = ()

    def in_version(self, version: str) -> NightScript:
        """The call as one version of the script reads it: with that version's own lines, if it has any."""
        lines = dict(self.versions).get(version)
        return replace(self, say=lines.say, do=lines.do, marks=lines.marks) if lines else self


@dataclass(frozen=True)
class NightCall:
    """A card's call on one kind of night: where it comes in the order, and what is said then."""

    order: int | float
    script: NightScript | None  # its own texts, else the card's


NIGHTS = ("first", "other")  # the first night, and every night after it


@dataclass(frozen=True)
class Nights:
    """When a card wakes: on the first night, on the other nights, or both, each with its order."""

    first: NightCall | None = None
    other: NightCall | None = None
    script: NightScript | None = None  # the card's texts, for a call without its own

    def call(self, night: str) -> NightCall | None:
        return self.first if night == "first" else self.other

    def script_of(self, night: str) -> NightScript | None:
        call = self.call(night)
        return call.script if call and call.script else self.script


@dataclass(frozen=True)
class Card:
    id: str
    group: Group
    team: Team | None
    count: int
    name: Text
    ability: Text
    symbol: Path | None
    layout: str
    nights: Nights = Nights()
    back_face: BackFace | None = None
    words: tuple[tuple[str, Text], ...] = ()  # (level, word) for word cards
    derived_from: str | None = None
    art: Art | None = None
    extra_cards: int = 0  # with it dealt, more fill cards dealt and left over in the middle
    rules: tuple[tuple[str, object], ...] = ()  # the narrator page's rules of the card (YAML `rules`), lists as tuples
    short: Text | None = None  # `short-ability` in this language: what a bilingual card prints when both don't fit
    in_play_only: tuple[Step, ...] = ()  # words of its texts a table prints only with one of their cards in play

    def for_table(self, in_play: frozenset[str]) -> Card:
        """The card as a table prints it: without the words of `in-play-only` whose cards are not in play."""
        dropped = [part.wording for part in self.in_play_only if not part.applies(in_play)]
        if not dropped:
            return self

        def cut(text: Text) -> Text:
            value = text.value
            for words in dropped:
                value = value.replace(words, "")
            return Text(value, text.where)

        return replace(self, ability=cut(self.ability), short=cut(self.short) if self.short else None)

    @property
    def night_order(self) -> int | float | None:
        """The card's first order: the first night's where it wakes then, else the other nights'."""
        call = self.nights.first or self.nights.other
        return call.order if call else None

    @property
    def first_night_only(self) -> bool:
        return self.nights.first is not None and self.nights.other is None

    @property
    def night_script(self) -> NightScript | None:
        """The card's own night texts (`night.script`), whatever night it is called on."""
        return self.nights.script

    @property
    def scripts(self) -> tuple[NightScript, ...]:
        """Every night text of the card: its own and those of its calls."""
        calls = (self.nights.first, self.nights.other)
        return tuple(
            script for script in (self.nights.script, *(call.script for call in calls if call)) if script is not None
        )

    @property
    def call_name(self) -> str:
        """The name the card is called by at night (the Werewolf card calls the Werewolves)."""
        call = next((script.call for script in self.scripts if script.call), None)
        return call.value if call else self.name.value

    @property
    def also_wakes(self) -> str | None:
        """Who wakes on their own in the card's `after` steps (Cupid's Lovers), by the name the lists give them."""
        woken = next((script.also_wakes for script in self.scripts if script.also_wakes), None)
        return woken.value if woken else None


@dataclass(frozen=True)
class Part:
    """A piece of a rulebook section: from the sources, or our own choice (a house rule)."""

    text: Text
    house: bool = False


@dataclass(frozen=True)
class Section:
    id: str
    title: Text
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Rulebook:
    players: tuple[int, int]
    minutes: tuple[int, int] | None
    sections: tuple[Section, ...]


@dataclass(frozen=True)
class Phase:
    title: Text
    steps: tuple[Step, ...]
    kind: str | None = None  # first-night, night, dawn, day or end


@dataclass(frozen=True)
class ScriptVersion:
    id: str
    name: Text
    phases: tuple[Phase, ...]
    page_only: bool = False  # only the narrator page runs it: the PDFs leave it out


@dataclass(frozen=True)
class Script:
    unheld_if: tuple[str, ...]  # with any of these in play, a called role may be held by nobody
    versions: tuple[ScriptVersion, ...]
    title: Text | None = None  # the game's own name for the script
    always_held: tuple[str, ...] = ()
    win_check: tuple[Step, ...] = ()  # its parts, each kept when its `if` is in play
    setup: tuple[Step, ...] = ()


@dataclass(frozen=True)
class NightRules:
    """Rules of the night that hold for every role, and which of them are ours."""

    dead_roles: str | None = None  # called or skipped; None: the game does not say
    house: frozenset[str] = frozenset()  # of "order", "dead-roles" and the keys of `rules`
    rules: tuple[tuple[str, object], ...] = ()  # the narrator page's rules (first-night-kills ...), lists as tuples


@dataclass(frozen=True)
class Setup:
    id: str
    name: Text | None
    players: tuple[int, ...]
    deals: tuple[dict, ...]  # per player count: card id -> number dealt
    extra: int = 0  # cards dealt beyond one a player
    fill: str | None = None  # the card that takes the seats left over
    house: bool = False  # our own table
    where: Where | None = None
    community: bool = False  # widely played by groups, neither the sources' nor ours
    choose: tuple[dict, ...] = ()  # per player count: team, group or pool id -> how many of its cards to choose
    pools: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # such an id -> the cards chosen from
    # Our own parts of a table that is otherwise the sources': the cards' rows and the player counts' columns.
    house_rows: tuple[str, ...] = ()
    house_players: tuple[int, ...] = ()

    def deal(self, players: int) -> dict:
        return self.deals[self.players.index(players)]

    def choices(self, players: int) -> dict:
        """Per team, group or pool: how many of its cards the row for this count leaves to the moderator."""
        return self.choose[self.players.index(players)] if self.choose else {}

    @property
    def origin(self) -> str:
        return "house" if self.house else "community" if self.community else "source"

    @property
    def one_each(self) -> bool:
        """Every player gets one card (and `extra` are left over), rather than an even share of several."""
        return self.fill is not None or all(
            sum(deal.values()) + sum(self.choices(players).values()) == players + self.extra
            for players, deal in zip(self.players, self.deals)
        )


@dataclass(frozen=True)
class TableRule:
    """A constraint of a legal table (game.yaml's table-rules), its teams and groups made card ids."""

    says: Text  # the rule in words: the warning a table that breaks it gets
    kind: str  # at-most, at-least, exactly, from-players or never-with
    cards: tuple[str, ...]  # the cards it counts (`of`)
    numbers: tuple[int, ...] = ()  # its number: one for every player count, or one per count of `players`
    players: tuple[int, ...] = ()  # the player counts it holds at; empty: every count
    others: tuple[str, ...] = ()  # never-with: the cards the counted ones never play beside
    house: bool = False
    where: Where | None = None


def team_color(card: Card) -> str:
    """The colour a card is framed in: its team's, or a neutral grey for cards of no team."""
    return card.team.color if card.team else "#3a3a3a"


@dataclass(frozen=True)
class Deck:
    game: str
    lang: str
    languages: tuple[str, ...]
    name: Text
    groups: tuple[Group, ...]
    cards: tuple[Card, ...]
    sources: tuple[Path, ...]
    rulebook: Rulebook | None = None
    script: Script | None = None
    setups: tuple[Setup, ...] = ()
    table_rules: tuple[TableRule, ...] = ()
    night: NightRules = NightRules()
    author: str = ""  # game.yaml's author: the PDFs' metadata
    second: Deck | None = None  # the same deck in the second language of a bilingual build (--lang vi+en)

    @property
    def checked_rulebook(self) -> Rulebook:
        """The rulebook, for what is made only for a deck that has one (the build plans it so)."""
        if self.rulebook is None:
            raise ValueError(f"{self.game} has no rulebook")
        return self.rulebook

    @property
    def checked_script(self) -> Script:
        """The script, for what is made only for a deck that has one (the build plans it so)."""
        if self.script is None:
            raise ValueError(f"{self.game} has no script")
        return self.script

    @property
    def key(self) -> str:
        """The build's language as --lang names it: vi, or vi+en for bilingual cards."""
        return f"{self.lang}+{self.second.lang}" if self.second else self.lang

    def second_card(self, card: Card) -> Card | None:
        """The card in the second language, on a bilingual deck."""
        return self.second.by_id.get(card.id) if self.second is not None else None

    @functools.cached_property
    def by_id(self) -> dict[str, Card]:
        """The deck's cards by id (made once: a bilingual deck looks up every card's other language)."""
        return {card.id: card for card in self.cards}

    def introduced(self, card: Card, called: bool = False) -> str:
        """A card's name (`called`: the name the night calls it by) where a document introduces it: on
        a bilingual deck with its second-language name in brackets, where that differs."""
        name = card.call_name if called else card.name.value
        other = self.second_card(card)
        second = (other.call_name if called else other.name.value) if other else name
        return name if second == name else f"{name} ({second})"

    @functools.cached_property
    def copies(self) -> tuple[Card, ...]:
        """Every physical card, in printing order: each card `count` times (made once: the renderer
        looks a copy up for every slot it draws)."""
        return tuple(card for card in self.cards for _ in range(card.count))

    def calls(self, night: str) -> tuple[tuple[Card, NightCall], ...]:
        """The cards called on the first night (first) or on each night after it (other), in calling
        order: by order, then, for roles of equal order, by id."""
        calls = [(card, call) for card in self.cards if (call := card.nights.call(night))]
        return tuple(sorted(calls, key=lambda pair: (pair[1].order, pair[0].id)))

    @property
    def one_night_order(self) -> bool:
        """Whether one list gives the order of every night: the other nights call the first night's
        roles in the same order, less those of the first night only."""
        first = [card.id for card, _ in self.calls("first")]
        other = [card.id for card, _ in self.calls("other")]
        return [card_id for card_id in first if card_id in other] == other

    @property
    def night_lists(self) -> tuple[tuple[str | None, tuple[Card, ...]], ...]:
        """The night orders a list prints: one (night None), or, where the nights differ, the first
        night's and the other nights'."""
        if self.one_night_order:
            return ((None, self.night_order),)
        return tuple((night, tuple(card for card, _ in self.calls(night))) for night in NIGHTS)

    def listed(self, cards: tuple[Card, ...]) -> tuple[tuple[Card, str], ...]:
        """A night list's steps: each card by its call name, and after it whoever wakes on their own in its
        `after` steps (the Lovers after Cupid), as a step of their own."""
        return tuple((card, name) for card in cards for name in (card.call_name, card.also_wakes) if name is not None)

    @property
    def night_order(self) -> tuple[Card, ...]:
        """The cards that wake at night, in waking order: each at its first call."""
        waking = [card for card in self.cards if card.night_order is not None]
        return tuple(sorted(waking, key=lambda card: (card.night_order or 0, card.id)))
