"""Stage 2, validate: loaded game files in, every problem in them out.

``validate_game`` checks each file against its schema (:mod:`cardgen.schema`)
and then the things a schema cannot say: teams and groups that exist, files
that exist inside the game folder, one night-order number per role, and a text
for every language of the game. It never stops at the first problem; the caller
stops once, after printing all of them. Unknown keys and missing translations
are warnings; everything else is an error.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any, Iterable

from . import schema
from .load import Doc, GameFiles, KeyPath
from .problems import Problem, Where

_TYPES = {
    "object": (dict, "a mapping"),
    "array": (list, "a list"),
    "string": (str, "a text"),
    "integer": (int, "an integer"),
    "boolean": (bool, "true or false"),
}


def _dotted(path: KeyPath) -> str:
    return ".".join(str(k) for k in path)


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return repr(value)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{match[0]}'?)" if match else ""


class _SchemaCheck:
    def __init__(self, doc: Doc, root: dict):
        self.doc = doc
        self.root = root
        self.problems: list[Problem] = []

    def report(self, path: KeyPath, message: str, severity: str = "error") -> None:
        prefix = f"{_dotted(path)}: " if path else ""
        self.problems.append(Problem(self.doc.where(path), prefix + message, severity))

    def resolve(self, rule: dict) -> dict:
        ref = rule.get("$ref")
        return self.root["$defs"][ref.rsplit("/", 1)[1]] if ref else rule

    def check(self, value: Any, rule: dict, path: KeyPath) -> None:
        rule = self.resolve(rule)
        kind = rule.get("type")
        if kind:
            python_type, wanted = _TYPES[kind]
            # bool is an int in Python; YAML's `yes` must not pass as a count.
            if not isinstance(value, python_type) or (kind == "integer" and isinstance(value, bool)):
                self.report(path, f"expected {wanted}, got {_show(value)}")
                return
        if "enum" in rule and value not in rule["enum"]:
            self.report(path, f"expected one of {', '.join(map(str, rule['enum']))}, got {_show(value)}")
        if "pattern" in rule and isinstance(value, str) and not re.search(rule["pattern"], value):
            self.report(path, f"{value!r} does not have the expected form ({rule.get('description', rule['pattern'])})")
        if "minimum" in rule and value < rule["minimum"]:
            self.report(path, f"expected at least {rule['minimum']}, got {value}")
        if isinstance(value, list):
            if len(value) < rule.get("minItems", 0):
                self.report(path, f"expected at least {rule['minItems']} item(s)")
            for index, item in enumerate(value):
                self.check(item, rule.get("items", {}), path + (index,))
        if isinstance(value, dict):
            self.check_mapping(value, rule, path)

    def check_mapping(self, value: dict, rule: dict, path: KeyPath) -> None:
        if len(value) < rule.get("minProperties", 0):
            self.report(path, "expected at least one entry")
        for key in rule.get("required", []):
            if key not in value:
                self.report(path, f"missing required key '{key}'")
        properties = rule.get("properties", {})
        extra = rule.get("additionalProperties", True)
        names = rule.get("propertyNames")
        for key, item in value.items():
            if not isinstance(key, str):
                self.report(path + (key,), f"expected a text key, got {_show(key)}")
                continue
            if key in properties:
                self.check(item, properties[key], path + (key,))
            elif extra is False:
                accepted = ", ".join(properties)
                self.report(path + (key,), f"unknown key{did_you_mean(key, properties)}; accepted keys: {accepted}",
                            "warning")
            else:
                if names and not re.search(names["pattern"], key):
                    self.report(path + (key,), f"'{key}' is not a valid name (lowercase, digits and '-')")
                if isinstance(extra, dict):
                    self.check(item, extra, path + (key,))


def check_schema(doc: Doc, rule: dict) -> list[Problem]:
    check = _SchemaCheck(doc, rule)
    check.check(doc.data, rule, ())
    return check.problems


def _refs(data: Any, rule: dict, ref: str, path: KeyPath = ()) -> Iterable[KeyPath]:
    """Paths of the values in data that the schema declares as `ref` (e.g. every text)."""
    if rule.get("$ref") == ref:
        yield path
        return
    if isinstance(data, dict):
        properties = rule.get("properties", {})
        extra = rule.get("additionalProperties")
        for key, item in data.items():
            sub = properties.get(key, extra if isinstance(extra, dict) else None)
            if sub is not None:
                yield from _refs(item, sub, ref, path + (key,))


def _check_translations(doc: Doc, rule: dict, languages: list[str], owner: str) -> list[Problem]:
    problems = []
    for path in _refs(doc.data, rule, "#/$defs/text"):
        text = doc.get(path)
        if not isinstance(text, dict):
            continue
        where = doc.where(path)
        if "en" not in text:
            problems.append(Problem(where, f"{_dotted(path)}: no 'en' text to fall back on"))
        for lang in languages:
            if lang not in text and lang != "en":
                problems.append(Problem(
                    where, f"{owner}: no '{lang}' text for {_dotted(path)}; the card falls back to English",
                    "warning"))
        for lang in text:
            if lang not in languages:
                problems.append(Problem(
                    doc.where(path + (lang,)),
                    f"{_dotted(path + (lang,))}: '{lang}' is not one of the game's languages "
                    f"({', '.join(languages)})", "warning"))
    return problems


def _check_files(doc: Doc, rule: dict, folder: Path) -> list[Problem]:
    return [p for path in _refs(doc.data, rule, "#/$defs/file") if isinstance(doc.get(path), str)
            for p in _check_file(doc, path, folder)]


def _check_file(doc: Doc, path: KeyPath, folder: Path) -> list[Problem]:
    value = doc.get(path)
    target = (folder / value).resolve()
    if not target.is_relative_to(folder.resolve()):
        return [Problem(doc.where(path), f"{_dotted(path)}: '{value}' is outside the game folder")]
    if not target.is_file():
        return [Problem(doc.where(path), f"{_dotted(path)}: file '{value}' not found in the game folder")]
    if target.suffix.lower() not in (".svg", ".png", ".jpg", ".jpeg"):
        return [Problem(doc.where(path), f"{_dotted(path)}: '{value}' is not an SVG, PNG or JPEG image")]
    return []


def validate_game(files: GameFiles, card_sizes: Iterable[str]) -> list[Problem]:
    """All problems of one loaded game; an empty list means it builds."""
    problems: list[Problem] = []
    game = files.game
    if game is None:
        return problems
    problems += check_schema(game, schema.GAME)
    data = game.data if isinstance(game.data, dict) else {}
    languages = [lang for lang in data.get("languages", []) if isinstance(lang, str)] or ["en"]
    teams = data.get("teams") if isinstance(data.get("teams"), dict) else {}
    groups = data.get("groups") if isinstance(data.get("groups"), dict) else {}
    sizes = list(card_sizes)
    size = data.get("card-size")
    if isinstance(size, str) and size not in sizes:
        problems.append(Problem(game.where(("card-size",)),
                                f"card-size: unknown size '{size}'{did_you_mean(size, sizes)}; "
                                f"known sizes: {', '.join(sizes)}"))
    if isinstance(game.data, dict):
        problems += _check_translations(game, schema.GAME, languages, f"game '{files.id}'")
        problems += _check_files(game, schema.GAME, files.folder)
    if not files.cards:
        problems.append(Problem(Where(game.file), f"game '{files.id}' has no card files in roles/"))
    night_orders: dict[int, str] = {}
    for card_id, doc in files.cards.items():
        if not re.match(schema.ID_PATTERN, card_id):
            problems.append(Problem(Where(doc.file), f"'{card_id}' is not a valid id: file names are "
                                    "kebab-case English, like little-girl.yaml"))
        problems += check_schema(doc, schema.CARD)
        if not isinstance(doc.data, dict):
            continue
        card = doc.data
        problems += _check_translations(doc, schema.CARD, languages, f"card '{card_id}'")
        problems += _check_files(doc, schema.CARD, files.folder)
        team = card.get("team")
        if isinstance(team, str) and team not in teams:
            problems.append(Problem(doc.where(("team",)),
                                    f"team: unknown team '{team}'{did_you_mean(team, teams)}; "
                                    f"the game's teams: {', '.join(teams)}"))
        group = card.get("group", "role")
        if isinstance(group, str) and group not in groups:
            problems.append(Problem(doc.where(("group",)),
                                    f"group: unknown group '{group}'{did_you_mean(group, groups)}; "
                                    f"the game's groups: {', '.join(groups) or 'none (add groups: to game.yaml)'}"))
        night = card.get("night")
        order = night.get("order") if isinstance(night, dict) else None
        if isinstance(order, int) and not isinstance(order, bool):
            if order in night_orders:
                problems.append(Problem(doc.where(("night", "order")),
                                        f"night.order: {order} is already the order of '{night_orders[order]}'; "
                                        "each role wakes at its own number"))
            else:
                night_orders[order] = card_id
    return problems
