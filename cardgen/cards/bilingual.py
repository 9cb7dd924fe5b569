"""Stage 4a, what a bilingual card may print: a deck's layouts, a box's texts and short forms in; the
layouts of a bilingual deck, the texts a box tries in turn and the problem when none fits out.

No text on a bilingual card goes below the layout's `bilingual: min-size` (6.5 pt, what a table reads):
the second language is set at its scale of the first but never under it, and the first never under it
either, so the second is never the larger. Where the full texts of both languages do not fit so, the
card prints the second language's `short-ability`, then both languages' short forms; where those do
not fit either, or there are none, the build names the card, as it does for a text in one language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from cardgen.cards.faces import merged
from cardgen.core.problems import Problem
from cardgen.deck.model import Deck, Text
from cardgen.text import markup, textfit

Spans = tuple[markup.Span, ...]


def layouts(deck: Deck, by_size: Mapping[str, Mapping]) -> tuple[dict[str, dict], list[Problem]]:
    """The layouts of a bilingual deck: each size's, with its `bilingual.layout` keys put in; a size
    whose layout says `bilingual: none` cannot hold two languages, which is a problem for a group of it."""
    out, problems = {}, []
    for name, layout in by_size.items():
        spec = layout.get("bilingual")
        if isinstance(spec, Mapping):
            out[name] = merged(layout, spec.get("layout", {}))
            continue
        out[name] = dict(layout)
        for group in deck.groups:
            if group.size_name == name and any(card.group.id == group.id for card in deck.cards):
                problems.append(
                    Problem(
                        group.name.where,
                        f"{group.id}: {name} cards are too small for two "
                        f"languages ({deck.key}): build them at a larger size "
                        "(--card-size poker, or the group's size:) or in one "
                        "language",
                    )
                )
    return out, problems


def holds_two(spans: Spans, second: Text | None, first: Text) -> bool:
    """Whether a box prints the second language: a text of its own beneath the first's, or a part of
    the first's paragraph (a team label's second name, the night order's names in brackets)."""
    return (second is not None and second.value != first.value) or any(span.lang for span in spans)


def attempts(
    spans: Spans,
    second: Text | None,
    shorts: tuple[Text | None, Text | None] | None,
    parse: Callable[[Text], Spans],
    lang: str,
) -> list[tuple[Spans, Text | None, str]]:
    """What a box may print, in the order it is tried: each the first language's spans, the second's
    text (in `lang`) and how the problem's message ends when even the last does not fit. `shorts` are
    the card's short forms in both languages, for a text that may have them (an ability)."""
    first_short, second_short = shorts or (None, None)
    if second_short is None:
        hint = f", or write a short-ability in '{lang}'" if shorts is not None and second is not None else ""
        return [(spans, second, f"; shorten them{hint}")]
    tried = [(spans, second, ""), (spans, second_short, f", even with the short-ability in '{lang}'; shorten it")]
    if first_short is not None:
        tried.append((parse(first_short), second_short, ", even with both short-abilities; shorten them"))
    return tried


def overflow(
    fitted: textfit.Fitted, layers: Sequence[textfit.Layer], spec: Mapping, what: str, owner: str, note: str
) -> str:
    """The message for a text that does not fit its box at the smallest sizes, naming its card (`owner`)
    and its languages; `note` ends it, saying what to do (attempts)."""
    note = note or ("; shorten them" if len(layers) > 1 else "; shorten it")
    langs = " and ".join(f"'{layer.lang}'" for layer in layers)
    smallest = f"{spec['min-size']:g} pt" + "".join(
        f", '{layer.lang}' at {max(spec['min-size'] * layer.scale, layer.least):g} pt" for layer in layers[1:]
    )
    together = " together" if len(layers) > 1 else ""
    if fitted.overflow > 0:
        return (
            f"{owner}: the {what} in {langs} does not fit its box{together}: "
            f"{fitted.overflow:.1f} mm too tall at the smallest size ({smallest}){note}"
        )
    return (
        f"{owner}: the {what} in {langs} does not fit its box{together}: a word is "
        f"{fitted.overflow_width:.1f} mm too wide at the smallest size ({smallest}); shorten or break it"
    )
