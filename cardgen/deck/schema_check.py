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


class _Rule:
    """One rule of the schema as the check reads it: its alternatives (oneOf), else what it asks of a
    value, each keyword looked up, each pattern compiled and each message's fixed part written once, not
    at each of a deck's ten thousand values."""

    __slots__ = (
        "source",
        "ref",
        "options",
        "types",
        "bool_fits",
        "wanted",
        "enum",
        "pattern",
        "unlike",
        "max_length",
        "minimum",
        "maximum",
        "min_items",
        "max_items",
        "items",
        "has_items",
        "min_properties",
        "required",
        "properties",
        "accepted",
        "extra",
        "names",
        "names_form",
        "names_max",
        "leads_on",
    )

    def __init__(self, rule: dict):
        self.source = rule  # held, so that no other rule is ever made with its id while it is read here
        self.ref = rule.get("$ref")
        rule = _deref(rule)
        self.options = rule.get("oneOf")
        kinds = rule.get("type")
        kinds = ((kinds,) if isinstance(kinds, str) else tuple(kinds)) if kinds else None
        self.types: tuple[type, ...] | None = None
        self.bool_fits = True
        if kinds:
            self.types, self.bool_fits = _accepted(kinds)
        self.wanted = " or ".join(_TYPES[k][1] for k in kinds) if kinds else ""
        self.enum = rule.get("enum")
        pattern = rule.get("pattern")
        self.pattern = re.compile(pattern) if pattern is not None else None
        form = _FORMS.get(pattern) if pattern is not None else None
        self.unlike = (
            f"is not {form}"
            if form
            else f"does not have the expected form ({rule.get('description', pattern)})"
            if pattern is not None
            else ""
        )
        self.max_length, self.minimum, self.maximum = rule.get("maxLength"), rule.get("minimum"), rule.get("maximum")
        self.min_items, self.max_items = rule.get("minItems", 0), rule.get("maxItems")
        self.items, self.has_items = rule.get("items", _ANYTHING), "items" in rule
        self.min_properties, self.required = rule.get("minProperties", 0), rule.get("required", [])
        self.properties = rule.get("properties", {})
        self.accepted = ", ".join(self.properties)
        self.extra = rule.get("additionalProperties", True)
        names = rule.get("propertyNames")
        self.names = re.compile(names["pattern"]) if names else None
        self.names_form = _FORMS.get(names["pattern"], _FORMS[schema.ID_PATTERN]) if names else ""
        self.names_max = names.get("maxLength") if names else None
        self.leads_on: bool | None = None  # found by _leads_on, once every rule it holds can be read


_RULES: dict[int, _Rule] = {}
_ANYTHING: dict = {}  # the rule of a list's items when it gives none


def _read(rule: dict) -> _Rule:
    found = _RULES.get(id(rule))
    if found is None:
        found = _RULES[id(rule)] = _Rule(rule)
    return found


def _leads_on(read: _Rule) -> bool:
    """Whether a rule under this one (an alternative, its items', its keys') declares a value by $ref, or
    one under it does: most do not (a text's languages, a count), and a walk for them stops there."""
    if read.leads_on is None:
        read.leads_on = True  # meanwhile: a rule under itself (a step's steps) is taken to lead on
        subs = [*(read.options or ()), read.items if read.has_items else None, *read.properties.values(), read.extra]
        read.leads_on = any(isinstance(sub, dict) and (bool(sub.get("$ref")) or _leads_on(_read(sub))) for sub in subs)
    return read.leads_on


def _choose(value: Any, options: list) -> dict:
    """The alternative of a oneOf that value fits, or else the one it comes closest to."""
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
        read = _read(rule)
        if read.options is not None:
            read = _read(_choose(value, read.options))
        if read.types is not None and (
            not isinstance(value, read.types) or (isinstance(value, bool) and not read.bool_fits)
        ):
            self.report(path, f"expected {read.wanted}, got {_show(value)}")
            return
        if read.enum is not None and value not in read.enum:
            self.report(path, f"expected one of {', '.join(map(str, read.enum))}, got {_show(value)}")
        if isinstance(value, str):
            if read.pattern is not None and not read.pattern.search(value):
                self.report(path, f"{value!r} {read.unlike}")
            if read.max_length is not None and len(value) > read.max_length:
                self.report(path, too_long(value, read.max_length))
        if isinstance(value, (int, float)):
            if read.minimum is not None and value < read.minimum:
                self.report(path, f"expected at least {read.minimum}, got {value}")
            if read.maximum is not None and value > read.maximum:
                self.report(path, f"expected at most {read.maximum}, got {value}")
        if isinstance(value, list):
            if len(value) < read.min_items:
                self.report(path, f"expected at least {read.min_items} item(s)")
            if read.max_items is not None and len(value) > read.max_items:
                self.report(path, f"expected at most {read.max_items} item(s)")
            for index, item in enumerate(value):
                self.check(item, read.items, path + (index,))
        if isinstance(value, dict):
            self.check_mapping(value, read, path)

    def check_mapping(self, value: dict, read: _Rule, path: KeyPath) -> None:
        if len(value) < read.min_properties:
            self.report(path, "expected at least one entry")
        for key in read.required:
            if key not in value:
                self.report(path, f"missing required key '{key}'")
        properties, extra = read.properties, read.extra
        for key, item in value.items():
            if not isinstance(key, str):
                self.report(path + (key,), f"expected a text key, got {_show(key)}")
                continue
            if key in properties:
                self.check(item, properties[key], path + (key,))
            elif extra is False:
                self.report(
                    path + (key,),
                    f"unknown key{did_you_mean(key, properties)}; accepted keys: {read.accepted}",
                    "warning",
                )
            else:
                if read.names is not None and not read.names.search(key):
                    self.report(path + (key,), f"'{key}' is not {read.names_form}")
                if read.names_max is not None and len(key) > read.names_max:
                    self.report(path + (key,), too_long(key, read.names_max))
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
    read = _read(rule)
    if read.ref and read.ref not in within:
        found.setdefault(read.ref, []).append(path)
        within = within | {read.ref}
    if not _leads_on(read):
        return
    if read.options is not None:
        _collect(data, _choose(data, read.options), path, within, found)
    elif isinstance(data, list) and read.has_items:
        for index, item in enumerate(data):
            _collect(item, read.items, path + (index,), within, found)
    elif isinstance(data, dict):
        properties, extra = read.properties, read.extra
        extra = extra if isinstance(extra, dict) else None
        for key, item in data.items():
            sub = properties.get(key, extra)
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
