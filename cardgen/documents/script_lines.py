"""The moderator script's lines: a resolved Deck in, every line of every version with the cards it needs
out, and the lines made per Tonight (the deal, the win check). The PDF script (:mod:`script`), the
narrator page and the rulebook's setup all read them here.

The script is written once for the whole box (``lines``): every version opens
with the game's setup steps for that version, then walks its phases step by
step. A ``roles`` step becomes one call per card that wakes on that night (the
first, or one after it), in that night's order and with that call's texts, each
with the shared wake-up and go-to-sleep lines around the card's own lines (its
lines for that version, where it has some). A step of one version (in the setup
or a card's call) is left out of the others; a step for some nights only (``night``, ``from-night``) is left out of the nights
that never read it; elsewhere its line says from which night it is read. Every step at which players
may die is followed by the game's win check, so that no death goes unchecked.
When a card that can hide roles is in play (the Werewolf Thief's two extra
cards), the call of every role that may be in the middle says to wait as if
someone acted, so that nobody learns a role is missing.

Each line carries the condition under which it is read: clauses of card ids,
each clause met when any of its cards is in play (or, for a step's ``unless``,
when its card is not). The PDF script is those lines filtered for one Tonight
(``context``); the narrator page filters the same lines for the cards ticked
on its setup screen, so the two cannot differ.
Two lines are made per Tonight: the deal (the exact cards for a player count,
or a pointer to the rulebook's setup table for the whole box) and the win check
(its parts for the cards in play). On a bilingual deck the deal and each role's
first call give its second-language name in brackets.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from cardgen.core.phrases import fill, numeral
from cardgen.deck.model import Card, Condition, Deck, Marks, Step, met
from cardgen.deck.tonight import Tonight


def timer_text(seconds: int, text: Mapping) -> str:
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return fill(text["timer_seconds"], text.get("digits"), n=seconds)
    if not rest:
        return fill(text["timer_minutes"], text.get("digits"), n=minutes)
    return numeral(f"{minutes}:{rest:02d}", text.get("digits"))


def marked(line: str, marks: Marks, text: Mapping) -> str:
    """A step's text with its house-rule mark and its countdown."""
    if marks.house:
        line = f"{text['house_mark']} {line}"
    if marks.timer:
        line += " " + fill(text["timer"], text.get("digits"), time=timer_text(marks.timer, text))
    return line


def deal_items(deck: Deck, dealt: Mapping[str, int], text: Mapping) -> str:
    names = {card.id: deck.introduced(card) for card in deck.cards}
    return text["list_separator"].join(
        fill(text["deal_item"], text.get("digits"), n=n, name=names[card_id]) for card_id, n in dealt.items()
    )


def deal_line(deck: Deck, tonight: Tonight, text: Mapping) -> str:
    """What the setup deals: the exact cards for a table, else a pointer to the setup table."""
    setup = tonight.setup or (deck.setups[0] if deck.setups else None)
    names = {card.id: card.name.value for card in deck.cards}
    if tonight.players is None or not (tonight.dealt or tonight.choose):
        if setup is None:
            return text["deal_all"]
        even = setup.fill is None and not setup.extra
        # Cards that bring extra cards of their own (the Thief) say so, whether or not the table lists them.
        extras = [
            fill(
                text["deal_card_extra"],
                text.get("digits"),
                card=card.name.value,
                n=card.extra_cards,
                fill=names[setup.fill],
            )
            for card in deck.cards
            if card.extra_cards and setup.fill
        ]
        return run_on(
            [text["deal_table"], text["deal_even_table" if even else "deal_one"], *_extra(setup.extra, text), *extras]
        )
    total = sum(tonight.dealt.values())
    chosen = sum(n for n, _ in tonight.choose.values())
    # Chosen roles that do not fit the rule (a warning) still deal at least one card each.
    each = max(1, (total + chosen - tonight.extra) // tonight.players)
    dealing = text["deal_one"] if each == 1 else fill(text["deal_each"], text.get("digits"), n=each)
    return run_on(
        [
            *(
                [fill(text["deal_cards"], text.get("digits"), total=total, cards=deal_items(deck, tonight.dealt, text))]
                if total
                else []
            ),
            *(
                fill(
                    text["deal_choose"],
                    text.get("digits"),
                    n=n,
                    cards=text["list_separator"].join(names[c] for c in pool),
                )
                for n, pool in tonight.choose.values()
            ),
            dealing,
            *_extra(tonight.extra, text),
        ]
    )


def _extra(extra: int, text: Mapping) -> list[str]:
    if not extra:
        return []
    return [text["deal_extra_one"] if extra == 1 else fill(text["deal_extra"], text.get("digits"), extra=extra)]


# Chinese runs on after its full-width punctuation; other languages take a space.
FULL_WIDTH_STOPS = "。；：！？，、）」』"


def run_on(sentences: Iterable[str]) -> str:
    """Sentences as one paragraph: a space between them, none after Chinese full-width punctuation."""
    line = ""
    for sentence in sentences:
        line += ("" if not line or line[-1] in FULL_WIDTH_STOPS else " ") + sentence
    return line


def check_text(deck: Deck, in_play: frozenset[str], text: Mapping) -> str:
    """The win check as printed: its label, then the parts of it for the cards in play."""
    line = run_on(part.wording for part in deck.checked_script.win_check if part.applies(in_play))
    return f"**{text['win_check']}**{text['colon']}{line}"


@dataclass(frozen=True)
class Since:
    """On which nights a line is read: the first night only, or from night N on; neither: every night."""

    first_only: bool = False
    from_night: int | None = None

    def of(self, step: Step, night: str | None) -> Since | None:
        """A step's nights within these, where the writer is on the first night (first), on one after
        it (other) or in a phase of no night (None); None when that night never reads it. On a known
        night, what it already says is left unsaid."""
        first_only = self.first_only or step.night == "first"
        other = 2 if step.night == "other" else None
        from_night = max((n for n in (self.from_night, step.from_night, other) if n), default=None)
        if first_only and from_night:
            return None
        if night == "first":
            return None if from_night else Since()
        if night == "other":
            return None if first_only else Since(from_night=from_night if from_night and from_night > 2 else None)
        return Since(first_only, from_night)


@dataclass(frozen=True)
class Line:
    """One line of a script version and the cards it needs in play."""

    kind: str  # say, do, check or deal (the last two: their text is made per Tonight)
    text: str
    marks: Marks = Marks()
    when: Condition = ()  # every clause met: at least one of its cards in play
    card: str | None = None  # the card whose night call this line belongs to
    part: str | None = None  # in a night call: wake, unheld, action (the card's first own line), own, sleep
    since: Since = Since()

    def applies(self, in_play: frozenset[str], tailored: bool, players: int | None = None) -> bool:
        """Whether the line is read with these cards in play, in a script for one table (tailored) of
        `players` or not."""
        return self.marks.read_in(tailored, players) and met(self.when, in_play)


@dataclass(frozen=True)
class PhaseLines:
    title: str
    kind: str | None  # setup, or the phase's kind
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class VersionLines:
    id: str
    name: str
    phases: tuple[PhaseLines, ...]
    page_only: bool = False


@dataclass
class _Writer:
    """Turns steps into the lines of one script version, with the win check after every deadly one."""

    deck: Deck
    text: Mapping
    version: str
    called: set[str] = field(default_factory=set)  # cards whose first call is written: they are introduced

    def line(
        self,
        kind: str,
        text: str,
        marks: Marks,
        when: Condition,
        card: str | None = None,
        part: str | None = None,
        since: Since = Since(),
    ) -> list[Line]:
        line = Line(kind, text, marks, when, card, part, since)
        return [line, self.check(when, card, since)] if marks.deadly else [line]

    def check(self, when: Condition, card: str | None, since: Since) -> Line:
        return Line("check", "", Marks(), when, card, since=since)

    def role_call(self, card: Card, night: str, when: Condition, since: Since) -> list[Line]:
        """The card's call on the first night (first) or a night after it (other), in that call's texts."""
        script = self.deck.checked_script
        own = card.nights.script_of(night)
        own = own.in_version(self.version) if own else None
        group = bool(own and own.group)
        name = own.call.value if own and own.call else card.call_name
        # A bilingual deck's script gives the second name at a role's first call, as the cards show both.
        first = self.deck.introduced(card, called=True) if card.id not in self.called else name
        self.called.add(card.id)
        when += ((card.id,),)
        wake = fill(self.text["wake_group" if group else "wake"], name=first)
        lines = self.line("say", wake, Marks(), when, card.id, "wake", since)
        if script.unheld_if and card.id not in script.always_held:
            lines += self.line("do", self.text["unheld"], Marks(), when + (script.unheld_if,), card.id, "unheld", since)
        if own:
            lines += self.steps(own.before, when, card.id, night, since)
            # The first of the card's own lines is its action: the pause, the choices and the countdown go there.
            action = {key: value for key, value in vars(own.marks).items() if key not in ("deadly", "house")}
            part = "action"
            for kind, said in (("say", own.say), ("do", own.do)):
                if said:
                    marks = Marks(house=own.marks.house, **action)
                    lines += self.line(kind, said.value, marks, when, card.id, part, since)
                    action, part = {"secret_word": own.marks.secret_word}, "own"
            lines += self.steps(own.then, when, card.id, night, since)
            if own.marks.deadly:
                lines.append(self.check(when, card.id, since))
        sleep = fill(self.text["sleep_group" if group else "sleep"], name=name)
        lines += self.line("say", sleep, Marks(), when, card.id, "sleep", since)
        if own:
            lines += self.steps(own.after, when, card.id, night, since)
        return lines

    def dead_roles(self, when: Condition, since: Since) -> list[Line]:
        rule = self.deck.night.dead_roles
        if rule is None:
            return []
        marks = Marks(house="dead-roles" in self.deck.night.house)
        return self.line("do", self.text[f"dead_{rule}"], marks, when, since=since)

    def steps(
        self,
        steps: tuple[Step, ...],
        when: Condition = (),
        card: str | None = None,
        night: str | None = None,
        since: Since = Since(),
    ) -> list[Line]:
        """The lines of steps read on `night` (first, other, or None outside the nights)."""
        lines = []
        for step in steps:
            step_since = since.of(step, night)
            if step.version not in (None, self.version) or step_since is None:
                continue
            step_when = when + step.condition
            if step.kind == "roles":
                called = "first" if step.roles == "first-night" else "other"
                lines += self.dead_roles(step_when, step_since)
                for waking, _ in self.deck.calls(called):
                    lines += self.role_call(waking, called, step_when, step_since)
            elif step.kind == "deal":
                lines += self.line("deal", "", step.marks, step_when, card, since=step_since)
            else:
                lines += self.line(step.kind, step.wording, step.marks, step_when, card, since=step_since)
        return lines


# The night a phase of each kind is on: the first, or one after it.
_PHASE_NIGHTS = {"first-night": "first", "night": "other"}


def lines(deck: Deck, text: Mapping) -> tuple[VersionLines, ...]:
    """Every line of every version of the deck's script, for the whole box, each with its condition."""
    script = deck.checked_script
    versions = []
    for version in script.versions:
        writer = _Writer(deck, text, version.id)
        phases = [PhaseLines(text["setup_title"], "setup", tuple(writer.steps(script.setup)))] if script.setup else []
        phases += [
            PhaseLines(
                phase.title.value,
                phase.kind,
                tuple(writer.steps(phase.steps, night=_PHASE_NIGHTS.get(phase.kind or ""))),
            )
            for phase in version.phases
        ]
        versions.append(VersionLines(version.id, version.name.value, tuple(phases), version.page_only))
    return tuple(versions)
