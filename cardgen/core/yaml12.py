"""YAML 1.2 on PyYAML's fast C loader: YAML text in, plain values (or the line of one of them) out, as
YAML 1.2 reads them.

PyYAML implements YAML 1.1, where ``no``, ``yes``, ``on``, ``off`` (and their capitalised
forms) are booleans, ``010`` is eight, ``1:30`` is ninety and ``2024-01-01`` a date. In a deck
that turns Norwegian (``no``) into ``False`` and ``en: Yes`` into ``True``. :class:`Loader`
resolves plain scalars by the YAML 1.2 core schema instead: only ``true``/``false`` are
booleans, only ``null``/``~``/nothing is null, integers are decimal, ``0o`` octal or ``0x``
hexadecimal, and everything else (dates included) is text. Positions, the C speed and the
safe constructors stay PyYAML's; ``<<`` merge keys still work.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

try:
    from yaml import CSafeLoader as _Base
except ImportError:  # PyYAML built without libyaml: the pure-Python loader reads the same values
    from yaml import SafeLoader as _Base  # type: ignore[assignment]


class Loader(_Base):
    """PyYAML's safe loader with the YAML 1.2 core schema's implicit types."""

    yaml_implicit_resolvers: dict = {}


_CORE = [
    ("tag:yaml.org,2002:bool", r"true|True|TRUE|false|False|FALSE", "tTfF"),
    ("tag:yaml.org,2002:int", r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+", "-+0123456789"),
    (
        "tag:yaml.org,2002:float",
        r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
        "-+.0123456789",
    ),
    ("tag:yaml.org,2002:null", r"~|null|Null|NULL|", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:merge", r"<<", "<"),
]
for _tag, _pattern, _first in _CORE:
    Loader.add_implicit_resolver(_tag, re.compile(rf"^(?:{_pattern})$"), list(_first))


def _int(loader: Loader, node: yaml.ScalarNode) -> int:
    value = loader.construct_scalar(node)
    if value.startswith("0o"):
        return int(value[2:], 8)
    if value.startswith("0x"):
        return int(value[2:], 16)
    return int(value, 10)  # 010 is ten, not eight


def _bool(loader: Loader, node: yaml.ScalarNode) -> bool:
    # An explicit `!!bool yes` is not a YAML 1.2 boolean either.
    return {"true": True, "false": False}[loader.construct_scalar(node).lower()]


Loader.add_constructor("tag:yaml.org,2002:int", _int)
Loader.add_constructor("tag:yaml.org,2002:bool", _bool)


def safe_load(text: str) -> Any:
    """One YAML document, read the YAML 1.2 way."""
    loader = Loader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def line_of(text: str, path: tuple) -> int | None:
    """The line of the value at a key path of a YAML text (of its nearest parent there; None for none),
    read again from the text: for a message about a value found wrong once it was loaded."""
    loader = Loader(text)
    try:
        node = loader.get_single_node()
    finally:
        loader.dispose()
    line = None
    for key in path:
        if isinstance(node, yaml.MappingNode):
            found = [(k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(key)]
            if not found:
                break
            key_node, node = found[-1]
            line = key_node.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            break
    return line
