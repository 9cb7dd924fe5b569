"""The moderator script: a resolved Deck and who plays tonight in, the script template's values out.

Every version opens with the game's setup: its setup steps for that version,
where the ``deal`` step lists exactly the cards dealt for a player count, or
points to the rulebook's setup table for the whole box. Then each version's
phases are walked step by step: steps whose ``if`` names no card in play are
left out, and a ``roles`` step becomes one call per waking card in night order
(first-night-only cards only on the first night), each with the shared wake-up
and go-to-sleep lines around the card's own lines. Every step at which players
may die is followed by the game's win check, so that no death goes unchecked.
When a card that can hide roles is in play (the Werewolf Thief's two extra
cards), the call of every role that may be in the middle says to wait as if
someone acted, so that nobody learns a role is missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .model import Card, Deck, Marks, Script, Setup, Step
from .phrases import fill
from .tonight import Tonight


def timer_text(seconds: int, text: Mapping) -> str:
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return fill(text["seconds"], n=seconds)
    if not rest:
        return fill(text["minutes"], n=minutes)
    return f"{minutes}:{rest:02d}"


def marked(line: str, marks: Marks, text: Mapping) -> str:
    """A step's text with its house-rule mark and its countdown."""
    if marks.house:
        line = f"{text['house_mark']} {line}"
    if marks.timer:
        line += " " + fill(text["timer"], time=timer_text(marks.timer, text))
    return line


def deal_items(deck: Deck, dealt: Mapping[str, int], text: Mapping) -> str:
    names = {card.id: card.name.value for card in deck.cards}
    return text["list_separator"].join(fill(text["deal_item"], n=n, name=names[card_id])
                                       for card_id, n in dealt.items())


def deal_line(deck: Deck, tonight: Tonight, text: Mapping) -> str:
    """What the setup deals: the exact cards for a table, else a pointer to the setup table."""
    setup = tonight.setup or (deck.setups[0] if deck.setups else None)
    if setup is None:
        return text["deal_all"]
    if not tonight.dealt:
        even = setup.fill is None and not setup.extra
        return " ".join([text["deal_table"], text["deal_even_table" if even else "deal_one"]]
                        + _extra(setup, text))
    total = sum(tonight.dealt.values())
    # Chosen roles that do not fit the rule (a warning) still deal at least one card each.
    each = max(1, (total - setup.extra) // tonight.players)
    dealing = text["deal_one"] if each == 1 else fill(text["deal_each"], n=each)
    return " ".join([fill(text["deal_cards"], total=total, cards=deal_items(deck, tonight.dealt, text)), dealing]
                    + _extra(setup, text))


def _extra(setup: Setup, text: Mapping) -> list[str]:
    if not setup.extra:
        return []
    return [text["deal_extra_one"] if setup.extra == 1 else fill(text["deal_extra"], extra=setup.extra)]


@dataclass
class _Writer:
    """Turns steps into the lines of one script version, with the win check after every deadly one."""

    deck: Deck
    tonight: Tonight
    text: Mapping
    version: str | None = None

    @property
    def script(self) -> Script:
        return self.deck.script

    def line(self, kind: str, text: str, marks: Marks = Marks()) -> list[dict]:
        line = {"kind": kind, "text": marked(text, marks, self.text), "house": marks.house}
        return [line, *self.check()] if marks.deadly else [line]

    def check(self) -> list[dict]:
        return [{"kind": "check", "text": f"**{self.text['win_check']}:** {self.script.win_check.value}",
                 "house": False}]

    def held_by_nobody(self, card: Card) -> bool:
        return (any(card_id in self.tonight.in_play for card_id in self.script.unheld_if)
                and card.id not in self.script.always_held)

    def role_call(self, card: Card) -> list[dict]:
        night = card.night_script
        group = bool(night and night.group)
        name = card.call_name
        lines = self.line("say", fill(self.text["wake_group" if group else "wake"], name=name))
        if self.held_by_nobody(card):
            lines += self.line("do", self.text["unheld"])
        if night and night.say:
            lines += self.line("say", night.say.value, Marks(house=night.marks.house, timer=night.marks.timer))
        if night and night.do:
            lines += self.line("do", night.do.value, Marks(house=night.marks.house))
        if night and night.marks.deadly:
            lines += self.check()
        lines += self.line("say", fill(self.text["sleep_group" if group else "sleep"], name=name))
        if night:
            lines += self.steps(night.after, ())
        return lines

    def dead_roles(self) -> list[dict]:
        rule = self.deck.night.dead_roles
        if rule is None:
            return []
        return self.line("do", self.text[f"dead_{rule}"], Marks(house="dead-roles" in self.deck.night.house))

    def steps(self, steps: tuple[Step, ...], waking: tuple[Card, ...]) -> list[dict]:
        lines = []
        for step in steps:
            if not step.applies(self.tonight.in_play) or step.version not in (None, self.version):
                continue
            if step.kind == "roles":
                first = step.roles == "first-night"
                lines += self.dead_roles()
                for card in waking:
                    if first or not card.first_night_only:
                        lines += self.role_call(card)
            elif step.kind == "deal":
                lines += self.line("do", deal_line(self.deck, self.tonight, self.text), step.marks)
            else:
                lines += self.line(step.kind, step.text.value, step.marks)
        return lines


def context(deck: Deck, text: Mapping, tonight: Tonight) -> dict:
    script = deck.script
    waking = tuple(card for card in deck.night_order if card.id in tonight.in_play)
    versions = []
    for version in script.versions:
        writer = _Writer(deck, tonight, text, version.id)
        phases = [{"title": text["setup_title"], "kind": "setup", "steps": writer.steps(script.setup, waking)}] \
            if script.setup else []
        phases += [{"title": phase.title.value, "kind": phase.kind, "steps": writer.steps(phase.steps, waking)}
                   for phase in version.phases]
        versions.append({"name": version.name.value, "phases": phases})
    house = any(line["house"] for version in versions for phase in version["phases"] for line in phase["steps"])
    return {
        "game": {"name": deck.name.value},
        "t": text,
        "title": script.title.value if script.title else text["script"],
        "setup": tonight.label,
        "legend": f"{text['house_mark']} {text['house_legend']}" if house else "",
        "versions": versions,
    }
