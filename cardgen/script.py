"""The moderator script: a resolved Deck and the cards in play in, the script template's values out.

Each version's phases are walked step by step: steps whose `if` names no card
in play are left out, and a `roles` step becomes one call per waking card in
night order (first-night-only cards only on the first night), each with the
shared wake-up and go-to-sleep lines around the card's own lines. When a card
that can hide roles is in play (the Werewolf Thief's two extra cards), every
call says to wait as if someone acted, so that nobody learns a role is missing.
"""

from __future__ import annotations

from typing import Mapping

from .model import Card, Deck, Step


def _line(kind: str, text: str) -> dict:
    return {"kind": kind, "text": text}


def _role_call(card: Card, text: Mapping, unheld: bool, in_play: frozenset[str]) -> list[dict]:
    script = card.night_script
    name = script.call.value if script and script.call else card.name.value
    lines = [_line("say", text["wake"].replace("{name}", name))]
    if unheld:
        lines.append(_line("do", text["unheld"]))
    if script and script.say:
        lines.append(_line("say", script.say.value))
    if script and script.do:
        lines.append(_line("do", script.do.value))
    lines.append(_line("say", text["sleep"].replace("{name}", name)))
    if script:
        lines += _steps(script.after, (), text, unheld, in_play)
    return lines


def _steps(steps: tuple[Step, ...], cards: tuple[Card, ...], text: Mapping, unheld: bool,
           in_play: frozenset[str]) -> list[dict]:
    lines = []
    for step in steps:
        if not step.applies(in_play):
            continue
        if step.kind == "roles":
            first = step.roles == "first-night"
            for card in cards:
                if first or not card.first_night_only:
                    lines += _role_call(card, text, unheld, in_play)
        else:
            lines.append(_line(step.kind, step.text.value))
    return lines


def context(deck: Deck, text: Mapping, in_play: frozenset[str], setup_label: str) -> dict:
    script = deck.script
    waking = tuple(card for card in deck.night_order if card.id in in_play)
    unheld = any(card in in_play for card in script.unheld_if)
    return {
        "game": {"name": deck.name.value},
        "t": text,
        "setup": setup_label,
        "versions": [{
            "name": version.name.value,
            "phases": [{"title": phase.title.value,
                        "steps": _steps(phase.steps, waking, text, unheld, in_play)}
                       for phase in version.phases],
        } for version in script.versions],
    }
