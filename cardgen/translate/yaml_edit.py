"""Values written into a YAML file's text: the text and the values to set (by key path) in, the text with
just those values replaced or inserted out. Every other byte stays as it was: comments, blank lines,
quotes, indentation, the order of keys.

A value that is there is replaced in the style it is written in (a ``|`` block stays a block, single
quotes stay single quotes, a plain text stays plain where it can); a value that is not is inserted
after the last key of its mapping, in its siblings' column, or before a flow mapping's ``}``, double
quoted (a text of several lines as a ``|`` block). Mappings missing on the way are made; a list is
written whole, or grown at its end. The result is read back: a change that would alter any other
value is refused (``Unwritable``), never written.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import yaml

from cardgen.core.yaml12 import Loader, safe_load
from cardgen.deck.schema_check import dotted
from cardgen.deck.yaml_doc import KeyPath

_MERGE = "tag:yaml.org,2002:merge"
_BLOCK_STYLES = ("|", ">")
# What PyYAML's reader refuses in a file, and the line breaks of YAML 1.1: written as escapes.
_UNPRINTABLE = re.compile("[^\x09\x0a\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029]")
_PLAIN = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`\x00-\x1f][^\n\r:#,\[\]{}\x00-\x1f]*")
_KEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


class Unwritable(Exception):
    """A change the file's shape does not allow, said in a sentence."""


def apply(text: str, changes: list[tuple[KeyPath, Any]]) -> str:
    """`text` with each (path, value) of `changes` set: a value is a text, a list of texts, or a
    mapping of these."""
    crlf = "\r\n" in text
    if crlf:
        text = text.replace("\r\n", "\n")
    leaves = [leaf for path, value in changes for leaf in _flat(path, value)]
    root = yaml.compose(text, Loader=Loader)
    if root is None:
        raise Unwritable("the file is empty")
    splices: list[tuple[int, int, int, str]] = []  # start, end, depth (an outer mapping's first), new text
    pending: dict[int, tuple[yaml.MappingNode, int, dict]] = {}
    for path, value in leaves:
        node: yaml.Node = root
        depth = 0
        while depth < len(path) and (child := _child(node, path[depth])) is not None:
            node, depth = child, depth + 1
        if depth == len(path):
            splices += _replace(text, node, value, path)
        elif isinstance(node, yaml.MappingNode) and not any(isinstance(key, int) for key in path[depth:]):
            _nest(pending.setdefault(id(node), (node, depth, {}))[2], path[depth:], value)
        else:
            raise Unwritable(f"{dotted(path)}: {dotted(path[:depth]) or 'the file'} has no place for it")
    splices += [_insert(text, node, depth, subtree) for node, depth, subtree in pending.values()]
    written = text
    for start, end, _, new in sorted(splices, key=lambda splice: (-splice[0], splice[2])):
        written = written[:start] + new + written[end:]
    _check(text, written, leaves)
    return written.replace("\n", "\r\n") if crlf else written


def _flat(path: KeyPath, value: Any):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _flat(path + (key,), item)
    else:
        yield path, value


def _nest(tree: dict, path: KeyPath, value: Any) -> None:
    for key in path[:-1]:
        tree = tree.setdefault(key, {})
    tree[path[-1]] = value


def _child(node: yaml.Node, key: Any) -> yaml.Node | None:
    """The node at `key` of a mapping (a key it merges with `<<` too) or a list."""
    if isinstance(node, yaml.SequenceNode):
        return node.value[key] if isinstance(key, int) and 0 <= key < len(node.value) else None
    if not isinstance(node, yaml.MappingNode):
        return None
    merged: list[yaml.Node] = []
    for key_node, value_node in node.value:
        if key_node.tag == _MERGE:
            merged += value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
        elif isinstance(key_node, yaml.ScalarNode) and key_node.value == str(key):
            return value_node
    return next((found for source in merged if (found := _child(source, key)) is not None), None)


def _replace(text: str, node: yaml.Node, value: Any, path: KeyPath) -> list[tuple[int, int, int, str]]:
    depth = len(path)
    if isinstance(node, yaml.ScalarNode) and isinstance(value, str):
        start = node.start_mark.index
        if node.style in _BLOCK_STYLES:
            end = _block_end(text, node)
            first = next((line for line in text[start:end].split("\n")[1:] if line.strip()), "")
            indent = " " * (len(first) - len(first.lstrip(" ")))
            return [(start, end, depth, _literal(value, indent) or _double(value) + "\n")]
        return [(start, node.end_mark.index, depth, _same_style(value, node.style))]
    if isinstance(node, yaml.SequenceNode) and isinstance(value, list) and all(isinstance(v, str) for v in value):
        items = node.value
        if len(value) == len(items):
            return [
                s
                for item, new, i in zip(items, value, range(len(items)))
                for s in _replace(text, item, new, path + (i,))
            ]
        if len(value) > len(items) and all(_scalar_is(item, new) for item, new in zip(items, value)):
            return [_grow(text, node, value[len(items) :], depth)]
    raise Unwritable(f"{dotted(path)}: the file holds {_what(node)} there, not what the translation replaces")


def _what(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    return "a list" if isinstance(node, yaml.SequenceNode) else "a single value"


def _scalar_is(node: yaml.Node, value: str) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.value == value


def _grow(text: str, node: yaml.SequenceNode, items: list[str], depth: int) -> tuple[int, int, int, str]:
    """New items at a list's end, in its style."""
    if node.flow_style:
        if not node.value:
            at = node.end_mark.index - 1
            return at, at, depth, ", ".join(_new_plain(item) for item in items)
        at = node.value[-1].end_mark.index
        return at, at, depth, "".join(f", {_new_plain(item)}" for item in items)
    at = _end_of(text, node)
    pad = " " * node.start_mark.column
    return at, at, depth, _after(text, at, "".join(f"{pad}- {_new_plain(item)}\n" for item in items))


def _insert(text: str, node: yaml.MappingNode, depth: int, tree: dict) -> tuple[int, int, int, str]:
    """The keys of `tree` added at the end of a mapping."""
    if node.flow_style:
        entries = [f"{_key(key)}: {_flow(value)}" for key, value in tree.items()]
        if not node.value:
            at = node.end_mark.index - 1
            return at, at, depth, ", ".join(entries)
        at = node.value[-1][1].end_mark.index
        return at, at, depth, "".join(f", {entry}" for entry in entries)
    at = _end_of(text, node)
    column = node.value[0][0].start_mark.column
    return at, at, depth, _after(text, at, "".join(_block(key, value, column) for key, value in tree.items()))


def _after(text: str, at: int, lines: str) -> str:
    """Lines to insert at `at`: after a line break, which a file's last line may lack."""
    return lines if at == 0 or text[at - 1] == "\n" else "\n" + lines


def _end_of(text: str, node: yaml.Node) -> int:
    """Where the line after a block collection's last value starts: where a new key goes."""
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style and node.value:
        node = node.value[-1][1] if isinstance(node, yaml.MappingNode) else node.value[-1]
    if isinstance(node, yaml.ScalarNode) and node.style in _BLOCK_STYLES:
        return _block_end(text, node)
    line_end = text.find("\n", node.end_mark.index)
    return len(text) if line_end < 0 else line_end + 1


def _block_end(text: str, node: yaml.ScalarNode) -> int:
    """The end of a block scalar's last line of text: the blank lines after it are not its own."""
    start = node.start_mark.index
    last = start + len(text[start : node.end_mark.index].rstrip(" \n"))
    line_end = text.find("\n", last)
    return len(text) if line_end < 0 else line_end + 1


def _block(key: Any, value: Any, column: int) -> str:
    pad = " " * column
    if isinstance(value, dict):
        return f"{pad}{_key(key)}:\n" + "".join(_block(k, v, column + 2) for k, v in value.items())
    if isinstance(value, list):
        return f"{pad}{_key(key)}:\n" + "".join(f"{pad}  - {_new_value(item, column + 4)}" for item in value)
    return f"{pad}{_key(key)}: {_new_value(value, column + 2)}"


def _new_value(value: str, indent: int) -> str:
    """A new text and its line break: several lines as a `|` block, one double quoted."""
    return ("\n" in value and _literal(value, " " * indent)) or _double(value) + "\n"


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    return _double(value)


def _key(key: Any) -> str:
    return str(key) if _KEY.fullmatch(str(key)) and _reads_as(str(key), str(key)) else _double(str(key))


def _same_style(value: str, style: str | None) -> str:
    if style == "'" and "\n" not in value and not _UNPRINTABLE.search(value):
        return "'" + value.replace("'", "''") + "'"
    if not style and _plain_ok(value):
        return value
    return _double(value)


def _new_plain(value: str) -> str:
    return value if _plain_ok(value) else _double(value)


def _plain_ok(value: str) -> bool:
    return bool(_PLAIN.fullmatch(value)) and value == value.strip() and _reads_as(value, value)


def _reads_as(written: str, value: str) -> bool:
    try:
        return yaml.load(f"k: {written}", Loader=Loader) == {"k": value}
    except yaml.YAMLError:
        return False


def _double(value: str) -> str:
    return _UNPRINTABLE.sub(lambda found: f"\\u{ord(found.group()):04x}", json.dumps(value, ensure_ascii=False))


def _literal(value: str, indent: str) -> str | None:
    """A text as a `|` block whose lines start with `indent`, ending in a line break; None when a block
    cannot hold it as it is (a first line starting with a space, blank lines at its end)."""
    body, chomp = (value[:-1], "") if value.endswith("\n") else (value, "-")
    if not body or body[0] in " \n" or body.endswith("\n") or _UNPRINTABLE.search(body) or "\r" in body:
        return None
    written = f"|{chomp}\n" + "".join(f"{indent}{line}\n" if line else "\n" for line in body.split("\n"))
    return written if _reads_as(written, value) else None


def _check(before: str, after: str, leaves: list[tuple[KeyPath, Any]]) -> None:
    """The file after the changes holds what it held before, but the values changed."""
    expected = copy.deepcopy(safe_load(before))
    for path, value in leaves:
        _set(expected, path, value)
    try:
        found = safe_load(after)
    except yaml.YAMLError:
        found = None
    if found != expected:
        raise Unwritable("writing the translations here would change other values of the file; nothing was written")


def _set(data: Any, path: KeyPath, value: Any) -> None:
    for key in path[:-1]:
        data = data.setdefault(key, {}) if isinstance(data, dict) else data[key]
    data[path[-1]] = value
