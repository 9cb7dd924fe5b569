"""Stage 2, validate: loaded game files in, every problem in them out.

``validate_game`` checks each file against its schema (:mod:`cardgen.deck.schema`)
and then the things a schema cannot say: teams and groups that exist, files
that exist inside the game folder, one night-order number per role, and a text
for every language of the game. It never stops at the first problem; the caller
stops once, after printing all of them. Unknown keys and missing translations
are warnings; everything else is an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardgen.cards import svgcheck
from cardgen.core import contained
from cardgen.core.phrases import fallback_language
from cardgen.core.problems import Problem, Untranslated, Where, did_you_mean
from cardgen.deck import schema, table_rules
from cardgen.deck.load import GameFiles
from cardgen.deck.schema_check import check_schema, dotted, mapping_at, refs, too_long, unknown
from cardgen.deck.schema_defs import REMINDERS
from cardgen.deck.validate_script import check_setups, check_steps
from cardgen.deck.validate_text import check_text, repeated_words, same_names
from cardgen.deck.yaml_doc import Doc, KeyPath

_LANG, _ID = re.compile(schema.LANG_PATTERN), re.compile(schema.ID_PATTERN)


def _check_translations(
    doc: Doc, rule: dict, languages: list[str], owner: str, icons: frozenset[str] = frozenset()
) -> list[Problem]:
    """Every text of a file: its fallback language there, every language of the game there and not
    empty (one warning per text, naming the languages it lacks), no language the game lacks, and what
    each says printable (:func:`check_text`)."""
    problems = []
    fallback = fallback_language(languages)
    # A short form (`short-ability`) is in the languages that need one: only what it says is checked.
    shorts = refs(doc, rule, "#/$defs/short-text")
    for path in refs(doc, rule, "#/$defs/text") + shorts:
        text = doc.get(path)
        if not isinstance(text, dict):
            continue
        short = path in shorts
        if not short and not _written(text, fallback):
            problems.append(Problem(doc.where(path), f"{dotted(path)}: no '{fallback}' text to fall back on"))
        lacking = [lang for lang in languages if lang != fallback and not _written(text, lang) and not short]
        if lacking:
            shown = "English" if fallback == "en" else f"'{fallback}'"
            problems.append(Untranslated.of(doc.where(path), owner, dotted(path), lacking, shown))
        for lang, value in text.items():
            if not isinstance(lang, str) or not _LANG.match(lang):
                continue  # the schema check has said it is no language code
            if lang not in languages:
                problems.append(
                    Problem(
                        doc.where(path + (lang,)),
                        f"{dotted(path + (lang,))}: '{lang}' is not one of the game's languages "
                        f"({', '.join(languages)})",
                        "warning",
                    )
                )
            elif isinstance(value, str):
                problems += check_text(doc, path + (lang,), icons)
    return problems


def _written(text: dict, lang: str) -> bool:
    """Whether a text has something in that language: an empty one (a TODO of cardgen new) has not."""
    value = text.get(lang)
    return value is not None and (not isinstance(value, str) or bool(value.strip()))


def svg_refs(files: GameFiles) -> list[tuple[Where, str, Path, Path]]:
    """Every SVG a game's files name: (where, the key and value as written, the file, its folder)."""
    docs = [(files.checked_game, schema.GAME, files.folder)] + [
        (doc, schema.CARD, files.folder_of(doc)) for doc in files.cards.values()
    ]
    return [
        (doc.where(path), f"{dotted(path)}: '{doc.get(path)}'", folder / doc.get(path), folder)
        for doc, rule, folder in docs
        if isinstance(doc.data, dict)
        for path in refs(doc, rule, "#/$defs/file")
        if isinstance(doc.get(path), str) and doc.get(path).lower().endswith(".svg")
    ]


def _check_files(doc: Doc, rule: dict, folder: Path, said: dict[tuple[Path, str], str | None]) -> list[Problem]:
    """Each file a document names: there, inside its folder, and an image cardgen draws. `said` keeps
    what each (folder, name) was found to be: a game's thousand cards name a few symbols."""
    problems = []
    for path in refs(doc, rule, "#/$defs/file"):
        value = doc.get(path)
        if not isinstance(value, str):
            continue
        if (folder, value) not in said:
            said[folder, value] = _file_problem(folder, value)
        found = said[folder, value]
        if found:
            problems.append(Problem(doc.where(path), f"{dotted(path)}: {found}"))
    return problems


def _file_problem(folder: Path, value: str) -> str | None:
    target = folder / value
    why = contained.reason(target, folder)
    if why == contained.UNUSABLE:
        return f"'{value[:60]}' is not a usable file name"
    if why == contained.OUTSIDE:
        return f"'{value}' is outside the game folder"
    if why == contained.MISSING:
        return f"file '{value}' not found in the game folder"
    if why:
        return f"'{value}' is {why}"
    if target.suffix.lower() not in (".svg", ".png", ".jpg", ".jpeg"):
        return f"'{value}' is not an SVG, PNG or JPEG image"
    if target.suffix.lower() == ".svg":
        reason = svgcheck.problem(target, folder)
        if reason:
            return f"'{value}' is {reason}"
    return None


def _check_groups(files: GameFiles, groups: dict, teams: dict, sizes: list[str], languages: list[str]) -> list[Problem]:
    game, problems = files.checked_game, []
    for group_id, spec in groups.items():
        if not isinstance(spec, dict) or "name" not in spec:
            continue
        path = ("groups", group_id)
        problems += unknown(game, path + ("size",), "size", sizes)
        problems += unknown(game, path + ("team",), "team", teams)
        derive = spec.get("derive")
        if isinstance(derive, dict):
            source = derive.get("from")
            others = [g for g in groups if g != group_id]
            problems += unknown(game, path + ("derive", "from"), "group", others)
            if source in groups and isinstance(groups[source], dict) and "derive" in groups[source]:
                problems.append(
                    Problem(
                        game.where(path + ("derive", "from")),
                        f"{dotted(path + ('derive', 'from'))}: '{source}' is itself derived; "
                        "derive from a group of written cards",
                    )
                )
        words = spec.get("words")
        if isinstance(words, dict) and isinstance(words.get("file"), str):
            problems += _check_words(files, path + ("words",), words, languages)
    return problems


_WORD_LIST = {"type": "object", "additionalProperties": {"type": "array", "minItems": 1, "items": {"type": "string"}}}


def _check_words(files: GameFiles, path: KeyPath, spec: dict, languages: list[str]) -> list[Problem]:
    problems = []
    levels = mapping_at(spec, "per-card")
    for lang in languages:
        name = spec["file"].replace("{lang}", lang)
        doc = files.extra.get(name)
        if doc is None:
            why = contained.reason(files.folder / name, files.folder)
            message = (
                {
                    contained.MISSING: f"no word list '{name}' for '{lang}'",
                    contained.UNUSABLE: f"'{name[:60]}' is not a usable file name",
                    contained.OUTSIDE: f"'{name}' is outside the game folder",
                }.get(why)
                if why
                else None
            )
            if message:  # any other reason was said where the file is
                where = files.checked_game.where(path + ("file",))
                problems.append(Problem(where, f"{dotted(path + ('file',))}: {message}"))
            continue
        problems += check_schema(doc, _WORD_LIST)
        if not isinstance(doc.data, dict):
            continue
        problems += [
            problem
            for level, words in doc.data.items()
            if isinstance(words, list)
            for index, word in enumerate(words)
            if isinstance(word, str)
            for problem in check_text(doc, (level, index), markup_marks=False)
        ]
        problems += repeated_words(doc)
        for level, per_card in levels.items():
            words = doc.data.get(level)
            if not isinstance(words, list):
                problems.append(Problem(doc.where(), f"no '{level}' words (the cards take {per_card} a card)"))
            elif isinstance(per_card, int) and len(words) < per_card:
                problems.append(
                    Problem(
                        doc.where((level,)), f"{level}: {len(words)} words, fewer than the {per_card} one card takes"
                    )
                )
    return problems


TEXT_FILES = {"rulebook.yaml": schema.RULEBOOK, "script.yaml": schema.SCRIPT}


def _check_texts_files(files: GameFiles, languages: list[str], icons: frozenset[str]) -> list[Problem]:
    """The rulebook and script files, and the cards their steps' `if`, `if-all` and `unless` name."""
    problems = []
    for name, rule in TEXT_FILES.items():
        doc = files.extra.get(name)
        if doc is None:
            continue
        problems += check_schema(doc, rule)
        if isinstance(doc.data, dict):
            problems += _check_translations(doc, rule, languages, name, icons)
    cards = list(files.cards)
    game = files.checked_game.data
    teams = list(game.get("teams", {})) if isinstance(game, dict) and isinstance(game.get("teams"), dict) else []
    docs = [files.extra.get("script.yaml")] + list(files.cards.values())
    for doc in filter(None, docs):
        rule = schema.SCRIPT if doc.file.endswith("script.yaml") else schema.CARD
        for path in refs(doc, rule, "#/$defs/step") + refs(doc, rule, "#/$defs/night-lines"):
            for key, what, known in (
                ("if", "card", cards),
                ("if-all", "card", cards),
                ("unless", "card", cards),
                ("if-secret", "card", cards),
                ("if-died", "card or reminder", cards + list(REMINDERS)),
                ("winners", "team", teams),
            ):
                condition = doc.get(path).get(key) if isinstance(doc.get(path), dict) else None
                names = [condition] if isinstance(condition, str) else condition or []
                for index, card_id in enumerate(names):
                    where = path + (key,) + ((index,) if isinstance(condition, list) else ())
                    problems += unknown(doc, where, what, known) if isinstance(card_id, str) else []
    problems += _check_rule_ids(files, cards, teams)
    script = files.extra.get("script.yaml")
    if script and isinstance(script.data, dict):
        parts = script.data.get("win-check")
        for index, part in enumerate(parts if isinstance(parts, list) else []):
            for key in ("if", "unless"):
                problems += _unknown_cards(script, ("win-check", index, key), part, cards, key)
        for key in ("unheld-roles-if", "always-held"):
            if isinstance(script.data.get(key), list):
                for index in range(len(script.data[key])):
                    problems += unknown(script, (key, index), "card", cards)
    problems += check_steps(files, [doc for doc in docs if doc is not None])
    return problems


# The narrator page's rule keys that name the game's cards or teams (the schema checks the rest).
_RULE_IDS = {
    "death-disables": "card",
    "death-unless-by": "card",
    "jails": "team",
    "spares": "team",
    "members": "card or team",
    "struck-powerless": "team",
}


def _check_rule_ids(files: GameFiles, cards: list[str], teams: list[str]) -> list[Problem]:
    """Each card's `rules` and game.yaml's `night` rules name only the game's cards and teams."""
    known = {"card": cards, "team": teams, "card or team": cards + teams}
    places = [(doc, ("rules",)) for doc in files.cards.values()] + [(files.checked_game, ("night",))]
    problems = []
    for doc, at in places:
        rules = doc.data.get(at[0]) if isinstance(doc.data, dict) else None
        for key, what in _RULE_IDS.items():
            names = rules.get(key) if isinstance(rules, dict) else None
            for index in range(len(names) if isinstance(names, list) else 0):
                problems += unknown(doc, at + (key, index), what, known[what])
    return problems


def _icon_ids(files: GameFiles, groups: dict) -> frozenset[str]:
    """The ids a text may write as `:id:` for an icon: cards with an SVG symbol, and the cards derived
    from them (as cardgen.cards.render.inline_icons has them)."""

    def group(doc: Doc) -> Any:
        return doc.data.get("group", "role")

    svg = {
        card_id
        for card_id, doc in files.cards.items()
        if isinstance(doc.data, dict)
        and isinstance(doc.data.get("symbol"), str)
        and doc.data["symbol"].lower().endswith(".svg")
    }
    derived = {
        f"{group_id}-{card_id}"
        for group_id, spec in groups.items()
        if isinstance(spec, dict) and isinstance(spec.get("derive"), dict)
        for card_id in svg
        if group(files.cards[card_id]) == spec["derive"].get("from")
    }
    return frozenset(svg | derived)


def validate_game(files: GameFiles, card_sizes: Iterable[str]) -> list[Problem]:
    """All problems of one loaded game; an empty list means it builds."""
    problems: list[Problem] = []
    game = files.game
    if game is None:
        return problems
    problems += check_schema(game, schema.GAME)
    data = game.data if isinstance(game.data, dict) else {}
    listed = data.get("languages")
    # A language that is not a code has been reported; texts are checked against the others.
    languages = (
        [lang for lang in listed if isinstance(lang, str) and _LANG.match(lang)] if isinstance(listed, list) else []
    )
    # With no usable list of languages (the schema has said so), no text can be checked against it.
    check_translations = bool(languages)
    languages = languages or ["en"]
    teams = mapping_at(data, "teams")
    groups = mapping_at(data, "groups")
    icons = _icon_ids(files, groups)
    said: dict[tuple[Path, str], str | None] = {}  # each file named, looked at once
    sizes = list(card_sizes)
    size = data.get("card-size")
    if isinstance(size, str) and size not in sizes:
        problems.append(
            Problem(
                game.where(("card-size",)),
                f"card-size: unknown size '{size}'{did_you_mean(size, sizes)}; known sizes: {', '.join(sizes)}",
            )
        )
    if isinstance(game.data, dict):
        problems += (
            _check_translations(game, schema.GAME, languages, f"game '{files.id}'", icons) if check_translations else []
        )
        problems += _check_files(game, schema.GAME, files.folder, said)
    if not files.cards:
        problems.append(Problem(Where(game.file), f"game '{files.id}' has no card files in roles/"))
    problems += _check_groups(files, groups, teams, sizes, languages)
    problems += check_setups(files) + table_rules.check(game, files.cards)
    problems += _check_texts_files(files, languages, icons)
    card_ids = list(files.cards)  # once: a copy for every card is a squared term (2 s at 20,000 roles)
    for card_id, doc in files.cards.items():
        if not _ID.match(card_id):
            problems.append(
                Problem(
                    Where(doc.file),
                    f"'{card_id}' is not a valid id: file names are kebab-case English, like little-girl.yaml",
                )
            )
        elif len(card_id) > schema.ID_MAX:
            problems.append(Problem(Where(doc.file), f"{too_long(card_id)}: shorten the file's name"))
        problems += check_schema(doc, schema.CARD)
        if not isinstance(doc.data, dict):
            continue
        card = doc.data
        problems += (
            _check_translations(doc, schema.CARD, languages, f"card '{card_id}'", icons) if check_translations else []
        )
        problems += _check_files(doc, schema.CARD, files.folder_of(doc), said)
        problems += unknown(doc, ("team",), "team", teams)
        if "group" in card:
            problems += unknown(doc, ("group",), "group", groups)
        elif "role" not in groups:
            problems.append(
                Problem(
                    doc.where(),
                    f"card '{card_id}' names no group and the game has no 'role' "
                    f"group; the game's groups: {', '.join(groups) or 'none'}",
                )
            )
        problems += _check_night(doc) + _check_in_play_only(doc, card_ids)
    return problems + same_names(files)


def _unknown_cards(doc: Doc, path: KeyPath, part: object, cards: list[str], key: str = "if") -> list[Problem]:
    """The ids of a part's `key` (at path: one id, or a list) that are none of the game's cards."""
    condition = part.get(key) if isinstance(part, dict) else None
    problems = []
    for number, card_id in enumerate([condition] if isinstance(condition, str) else condition or []):
        where = path + ((number,) if isinstance(condition, list) else ())
        problems += unknown(doc, where, "card", cards) if isinstance(card_id, str) else []
    return problems


def _check_in_play_only(doc: Doc, cards: list[str]) -> list[Problem]:
    """Each of a card's `in-play-only` words names the game's cards and is a piece of its ability or
    short-ability as written in that language: words that a change of the text lost would print on."""
    parts = doc.data.get("in-play-only")
    problems = []
    for index, part in enumerate(parts if isinstance(parts, list) else []):
        if not isinstance(part, dict):
            continue
        problems += _unknown_cards(doc, ("in-play-only", index, "if"), part, cards)
        texts = part.get("text")
        for lang, words in texts.items() if isinstance(texts, dict) else []:
            written = [mapping_at(doc.data, key).get(lang) for key in ("ability", "short-ability")]
            if isinstance(words, str) and words and not any(isinstance(t, str) and words in t for t in written):
                problems.append(
                    Problem(
                        doc.where(("in-play-only", index, "text", lang)),
                        f"in-play-only.{index}.text.{lang}: '{words}' is in neither the ability nor the "
                        f"short-ability in '{lang}'; write it exactly as the text has it",
                    )
                )
    return problems


def _check_night(doc: Doc) -> list[Problem]:
    """A card's night in one form: `order` every night (the short form), or its `first` and `other`
    parts, each with its own order."""
    night = doc.data.get("night")
    if not isinstance(night, dict):
        return []
    problems = []
    parts = [part for part in ("first", "other") if part in night]
    if parts and "order" in night:
        problems.append(
            Problem(
                doc.where(("night", "order")),
                f"night.order: a card with night.{parts[0]} gives the order of each night in its part, not here",
            )
        )
    elif not parts and "order" not in night:
        problems.append(
            Problem(
                doc.where(("night",)),
                "night: no order: give `order` (the same every night) or a `first` and/or `other` part with its own",
            )
        )
    if parts and "first-night-only" in night:
        problems.append(
            Problem(
                doc.where(("night", "first-night-only")),
                f"night.first-night-only: a card with night.{parts[0]} wakes on the nights of its parts; "
                "give it only `first` to wake on the first night alone",
            )
        )
    return problems
