"""Stage 3, resolve: the plain keys of a validated spec in (a step's marks, a night's or a card's rules,
lists of card ids), the frozen values the model keeps out. Nothing here reads a text or a file.
"""

from __future__ import annotations

from cardgen.deck.model import Marks, NightRules
from cardgen.deck.schema_defs import NIGHT_RULES


def night_rules(spec: dict) -> NightRules:
    """A night's rules: who the dead roles are, the house rules it names, and the rest as data."""
    return NightRules(
        spec.get("dead-roles"),
        frozenset(spec.get("house-rules", ())),
        frozen_rules({key: value for key, value in spec.items() if key in NIGHT_RULES}),
    )


def frozen_rules(spec: dict) -> tuple[tuple[str, object], ...]:
    """Rule data as a frozen model keeps it: its lists as tuples."""
    return tuple((key, tuple(value) if isinstance(value, list) else value) for key, value in spec.items())


def step_marks(spec: dict) -> Marks:
    """What a step, call or section says of when and how it is read, beside its text."""
    return Marks(
        spec.get("deadly", False),
        spec.get("house", False),
        spec.get("timer"),
        spec.get("pause"),
        spec.get("secret-word"),
        spec.get("if-guessed"),
        spec.get("if-tailored"),
        tuple(spec.get("choices", ())),
        spec.get("announce"),
        ids(spec.get("if-died", ())),
        spec.get("if-deaths"),
        spec.get("secret-role"),
        ids(spec.get("if-secret", ())),
        tuple(spec.get("winners", ())),
        spec.get("up-to-players"),
    )


def ids(value: str | list) -> tuple[str, ...]:
    """Card ids written as one id or a list of them."""
    return (value,) if isinstance(value, str) else tuple(value)
