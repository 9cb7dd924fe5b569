"""The schema check: a loaded document and its rule (cardgen.deck.schema, JSON Schema as data) in;
every value that breaks the rule out, with its key path and whether it is an error or a warning.

It also finds the values a rule declares by ``$ref`` (every text, every step), for the checks of
validate that a schema cannot state."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from cardgen.core.problems import Problem, Severity, did_you_mean
from cardgen.deck import schema
from cardgen.deck.yaml_doc import Doc, KeyPath

_TYPES: dict[str, tuple[type | tuple[type, ...], str]] = {
    "object": (dict, "a mapping"),
    "array": (list, "a list"),
    "string": (str, "a text"),
    "integer": (int, "an integer"),
    "number": ((int, float), "a number"),
    "boolean": (bool, "true or false"),
}


# What a pattern of the schema asks for, in words: a message never shows a regular expression.
_FORMS = {
    schema.LANG_PATTERN: "a language code (two or three lower-case letters, optionally with a region or script: "
    "en, no, pt-BR, zh-Hant)",
    schema.ID_PATTERN: "a valid name (lowercase, digits and '-')",
    r"\.[tT][tT][fF]$": "a TrueType font file (a name ending in .ttf)",
}


def too_long(value: str, limit: int = schema.ID_MAX) -> str:
    """What an id longer than `limit` is told: it would name a file no file system can write."""
    return (
        f"'{value[:30]}…' is {len(value)} characters long; an id may have at most {limit}, "
        "as it becomes part of file names"
    )


@cache
def _accepted(kinds: tuple[str, ...]) -> tuple[tuple[type, ...], bool]:
    """The Python types of the schema types, and whether a boolean is one of them: bool is an int in
    Python, and YAML's `true` must not pass as a count."""
    types = tuple(t for kind in kinds for t in _python_types(kind))
    return types, any(kind != "integer" and isinstance(True, _TYPES[kind][0]) for kind in kinds)


def _python_types(kind: str) -> tuple[type, ...]:
    accepted = _TYPES[kind][0]
    return accepted if isinstance(accepted, tuple) else (accepted,)


def dotted(path: KeyPath) -> str:
    return ".".join(str(k) for k in path)


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return repr(value)


def _deref(rule: dict) -> dict:
    ref = rule.get("$ref")
    return schema.DEFS[ref.rsplit("/", 1)[1]] if ref else rule


def _choose(value: Any, rule: dict) -> dict:
    """The alternative of a oneOf that value fits, or else the one it comes closest to."""
    options = rule["oneOf"]
    return min(options, key=lambda option: len([p for p in _SchemaCheck(None).run(value, option) if p[2] == "error"]))


class _SchemaCheck:
    """Collects (path, message, severity) for one value against one rule."""

    def __init__(self, doc: Doc | None):
        self.doc = doc
        self.found: list[tuple[KeyPath, str, Severity]] = []

    def run(self, value: Any, rule: dict, path: KeyPath = ()) -> list[tuple[KeyPath, str, Severity]]:
        self.check(value, rule, path)
        return self.found

    def report(self, path: KeyPath, message: str, severity: Severity = "error") -> None:
        self.found.append((path, message, severity))

    def check(self, value: Any, rule: dict, path: KeyPath) -> None:
        rule = _deref(rule)
        if "oneOf" in rule:
            rule = _deref(_choose(value, rule))
        kinds = rule.get("type")
        if kinds:
            kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
            types, bool_fits = _accepted(kinds)
            if not isinstance(value, types) or (isinstance(value, bool) and not bool_fits):
                wanted = " or ".join(_TYPES[k][1] for k in kinds)
                self.report(path, f"expected {wanted}, got {_show(value)}")
                return
        if "enum" in rule and value not in rule["enum"]:
            self.report(path, f"expected one of {', '.join(map(str, rule['enum']))}, got {_show(value)}")
        if "pattern" in rule and isinstance(value, str) and not re.search(rule["pattern"], value):
            form = _FORMS.get(rule["pattern"])
            self.report(
                path,
                f"{value!r} is not {form}"
                if form
                else f"{value!r} does not have the expected form ({rule.get('description', rule['pattern'])})",
            )
        if "maxLength" in rule and isinstance(value, str) and len(value) > rule["maxLength"]:
            self.report(path, too_long(value, rule["maxLength"]))
        if "minimum" in rule and isinstance(value, (int, float)) and value < rule["minimum"]:
            self.report(path, f"expected at least {rule['minimum']}, got {value}")
        if "maximum" in rule and isinstance(value, (int, float)) and value > rule["maximum"]:
            self.report(path, f"expected at most {rule['maximum']}, got {value}")
        if isinstance(value, list):
            if len(value) < rule.get("minItems", 0):
                self.report(path, f"expected at least {rule['minItems']} item(s)")
            if len(value) > rule.get("maxItems", len(value)):
                self.report(path, f"expected at most {rule['maxItems']} item(s)")
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
                self.report(
                    path + (key,), f"unknown key{did_you_mean(key, properties)}; accepted keys: {accepted}", "warning"
                )
            else:
                if names and not re.search(names["pattern"], key):
                    self.report(
                        path + (key,), f"'{key}' is not {_FORMS.get(names['pattern'], _FORMS[schema.ID_PATTERN])}"
                    )
                if names and len(key) > names.get("maxLength", len(key)):
                    self.report(path + (key,), too_long(key, names["maxLength"]))
                if isinstance(extra, dict):
                    self.check(item, extra, path + (key,))


def check_schema(doc: Doc, rule: dict) -> list[Problem]:
    return [
        Problem(doc.where(path), (f"{dotted(path)}: " if path else "") + message, severity)
        for path, message, severity in _SchemaCheck(doc).run(doc.data, rule)
    ]


# The rules of whole files, by a name that means the same in a worker process a document is sent to.
_FILE_RULES = {
    id(rule): name
    for name, rule in (
        ("game", schema.GAME),
        ("card", schema.CARD),
        ("rulebook", schema.RULEBOOK),
        ("script", schema.SCRIPT),
    )
}


def refs(doc: Doc, rule: dict, ref: str) -> list[KeyPath]:
    """Paths of the values in a document that its schema `rule` declares as `ref` (e.g. every text),
    outermost first; one walk of the document finds those of every kind, kept with it for a file's rule."""
    name = _FILE_RULES.get(id(rule))
    found = doc.kinds.get(name) if name else None
    if found is None:
        found = {}
        _collect(doc.data, rule, (), frozenset(), found)
        if name:
            doc.kinds[name] = found
    return found.get(ref, [])


def _collect(data: Any, rule: dict, path: KeyPath, within: frozenset[str], found: dict[str, list[KeyPath]]) -> None:
    """Adds to `found` the path of each value that rule declares by a $ref, unless a value of the same
    kind holds it (a step inside a step is part of the outer one)."""
    ref = rule.get("$ref")
    if ref:
        if ref not in within:
            found.setdefault(ref, []).append(path)
            within = within | {ref}
        rule = _deref(rule)
    if "oneOf" in rule:
        _collect(data, _choose(data, rule), path, within, found)
    elif isinstance(data, list) and "items" in rule:
        for index, item in enumerate(data):
            _collect(item, rule["items"], path + (index,), within, found)
    elif isinstance(data, dict):
        properties = rule.get("properties", {})
        extra = rule.get("additionalProperties")
        for key, item in data.items():
            sub = properties.get(key, extra if isinstance(extra, dict) else None)
            if sub is not None:
                _collect(item, sub, path + (key,), within, found)


def unknown(doc: Doc, path: KeyPath, what: str, known: Iterable[str], key: bool = False) -> list[Problem]:
    """A problem if the value at path (or, with key, the last key of path) is not one of the known names."""
    try:
        value = path[-1] if key else doc.get(path)
    except (KeyError, IndexError, TypeError):
        return []
    known = list(known)
    if not isinstance(value, str) or value in known:
        return []
    return [
        Problem(
            doc.where(path),
            f"{dotted(path)}: unknown {what} '{value}'{did_you_mean(value, known)}; "
            f"the game's {what}s: {', '.join(known) or 'none'}",
        )
    ]


def mapping_at(data: dict, key: str) -> dict:
    """The mapping at a key, or an empty one where the key is missing or holds something else (the
    schema check has said so)."""
    value = data.get(key)
    return value if isinstance(value, dict) else {}
