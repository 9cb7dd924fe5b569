"""A YAML file read with the position of every value: a file in, a ``Doc`` (the data and the line of
each key path) or the problems that stop it out. YAML 1.2, safely, within limits of size, nodes and
aliases; control characters and escapes that would hide text are problems at their line."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardgen.core import contained
from cardgen.core.problems import Problem, Where, count
from cardgen.core.yaml12 import Loader

KeyPath = tuple[Any, ...]
_MAP, _SEQ, _MERGE = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:merge"


@dataclass
class Doc:
    """One YAML file's data and where each value in it stands."""

    file: str
    data: Any
    lines: dict[KeyPath, int] = field(default_factory=dict)
    block_scalars: frozenset[KeyPath] = frozenset()
    base: Path | None = None  # where its file paths start, when not the game folder (an --include)
    path: Path | None = None  # the file it was read from
    # What validate finds once in the data, which is never changed after loading: the paths of each
    # kind of value a file's schema declares, by its name (a card file is asked for its texts, files and steps).
    kinds: dict = field(default_factory=dict, compare=False, repr=False)

    def where(self, path: KeyPath = ()) -> Where:
        """The position of the value at path, or of its nearest parent that has one."""
        while path not in self.lines and path:
            path = path[:-1]
        return Where(self.file, self.lines.get(path, 1))

    def text_line(self, path: KeyPath, text_line: int) -> int:
        """The file line of line `text_line` (0 for the first) of the string at `path`.

        Block scalars (``|``) keep one source line per text line and start on the
        line after their indicator, so the exact line can be told; for other
        styles the value's first line is the best we know.
        """
        line = self.where(path).line or 1
        return line + 1 + text_line if path in self.block_scalars else line

    def get(self, path: KeyPath) -> Any:
        value = self.data
        for key in path:
            value = value[key]
        return value


_STR = "tag:yaml.org,2002:str"
# Loader's implicit types, by the first character of a plain scalar; it has no path resolvers.
_IMPLICIT = Loader.yaml_implicit_resolvers


class _PositionLoader(Loader):
    """The YAML 1.2 safe loader, recording positions while it composes the node tree.

    The composer asks the resolver three times a node; PyYAML's resolver looks for path resolvers and
    wildcards each time, which Loader has none of: answered here straight from its implicit types, the
    same tags for a third of composing a deck's files."""

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode:
            if implicit[0]:
                for tag, regexp in _IMPLICIT.get(value[:1], ()):
                    if regexp.match(value):
                        return tag
            return _STR
        return _SEQ if kind is yaml.SequenceNode else _MAP

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass


# A YAML escape in a double-quoted text: \0, \a, \x07, \u0007... (an escaped backslash is skipped whole).
_ESCAPE = re.compile(r"\\\\|\\(?:([0abtnvfreN])|x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))")
_NAMED_ESCAPES = dict(zip("0abtnvfreN", "\0\a\b\t\n\v\f\r\x1b\x85"))


# Unicode's control characters (category Cc) but the line break: C0, DEL and C1.
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def _control(value: str) -> str | None:
    """The first control character of a text other than a line break (a NUL, a terminal escape...)."""
    found = _CONTROL.search(value)
    return found.group() if found else None


def _control_line(node: yaml.ScalarNode, source: str, char: str) -> int:
    """The line where `char` is written in a scalar: raw (a tab), or as a double-quoted escape."""
    start, end = node.start_mark.index, node.end_mark.index
    written = source[start:end]
    at = written.find(char)
    for match in _ESCAPE.finditer(written):
        named, *codes = match.groups()
        # As a number: a \UFFFFFFFF, no character, may be written where backslashes are not escapes.
        code = ord(_NAMED_ESCAPES[named]) if named else next((int(c, 16) for c in codes if c), None)
        if code == ord(char) and (at < 0 or match.start() < at):
            at = match.start()
            break
    return node.start_mark.line + 1 + written[: max(at, 0)].count("\n")


def _control_problem(node: yaml.ScalarNode, path: KeyPath, source: str, file: str) -> Problem | None:
    char = _control(node.value)
    if char is None:
        return None
    name = _CONTROL_NAMES.get(char, "a C1 control" if ord(char) >= 0x80 else "a control character")
    where = ".".join(map(str, path))
    return Problem(
        Where(file, _control_line(node, source, char)),
        f"{where + ': ' if where else ''}control character U+{ord(char):04X} ({name}) in the text; "
        "deck texts may hold line breaks but no other control characters",
    )


_CONTROL_NAMES = {
    "\0": "NUL",
    "\a": "bell",
    "\b": "backspace",
    "\t": "tab",
    "\v": "vertical tab",
    "\f": "form feed",
    "\r": "carriage return",
    "\x1b": "escape",
    "\x7f": "delete",
}


def _written_pairs(root: yaml.Node) -> dict[int, list]:
    """The key-value pairs as written of each mapping with a merge key (``<<``), by its node's id: the
    constructor replaces them with the merged ones before the positions are walked."""
    written: dict[int, list] = {}
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            if any(key_node.tag == _MERGE for key_node, _ in node.value):
                written[id(node)] = list(node.value)
            stack += [item for pair in node.value for item in pair]
        elif isinstance(node, yaml.SequenceNode):
            stack += node.value
    return written


def _pairs(node: yaml.MappingNode, written: dict[int, list]) -> tuple[list, list]:
    """A mapping's pairs as written, the merge keys left out, and the pairs it takes from its merge keys
    (YAML 1.1 merge: a key written in the mapping, before or after the ``<<``, overrides a merged one)."""
    own = written.get(id(node))
    if own is None:
        return node.value, []
    explicit = [(key_node, value_node) for key_node, value_node in own if key_node.tag != _MERGE]
    keys = {key_node.value for key_node, _ in explicit if isinstance(key_node, yaml.ScalarNode)}
    # The constructor put the merged pairs first, the later of two merged sources winning, as in the data.
    merged = {
        key_node.value: (key_node, value_node)
        for key_node, value_node in node.value[: len(node.value) - len(explicit)]
        if isinstance(key_node, yaml.ScalarNode) and key_node.value not in keys
    }
    return explicit, list(merged.values())


class _Walk:
    """One walk of a document's node tree: the line of each value, the block scalars, and the problems
    (duplicate keys and, unless `source` is None, a file that can hold none, control characters).

    Given the `loader`, the walk also makes the data of a tree of plain mappings, lists and scalars
    (every deck file), each scalar by the constructor of its tag, without the constructor's machinery
    around them and without a second walk, the two of which were a third of loading a deck; it raises
    _NotPlain at anything else (a merge key, a key that is no scalar, a tag of its own), which is left
    to PyYAML's constructor and walked after."""

    def __init__(self, file: str, source: str | None, written: dict[int, list], loader: Any = None):
        self.lines: dict[KeyPath, int] = {}
        self.blocks: set[KeyPath] = set()
        self.problems: list[Problem] = []
        self.file, self.source, self.written, self.loader = file, source, written, loader

    def node(self, node: yaml.Node, path: KeyPath) -> Any:
        """The data of a node (None without the loader), its positions and problems recorded."""
        self.lines[path] = node.start_mark.line + 1
        build = self.loader is not None
        if isinstance(node, yaml.ScalarNode):
            if node.style == "|":
                self.blocks.add(path)
            if self.source is not None and (found := _control_problem(node, path, self.source, self.file)):
                self.problems.append(found)
            return self.scalar(node) if build else None
        if isinstance(node, yaml.SequenceNode):
            if build and node.tag != _SEQ:
                raise _NotPlain
            items = [self.node(item, path + (index,)) for index, item in enumerate(node.value)]
            return items if build else None
        if not isinstance(node, yaml.MappingNode) or (build and node.tag != _MAP):
            raise _NotPlain
        return self.mapping(node, path)

    def mapping(self, node: yaml.MappingNode, path: KeyPath) -> dict | None:
        build = self.loader is not None
        explicit, merged = (node.value, []) if build else _pairs(node, self.written)
        data: dict = {}
        seen: dict[Any, int] = {}
        for key_node, value_node in explicit:
            if build and (not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE):
                raise _NotPlain
            key = key_node.value
            line = key_node.start_mark.line + 1
            if key in seen:
                # PyYAML silently keeps the last value; a designer would never notice.
                self.problems.append(
                    Problem(Where(self.file, line), f"duplicate key '{key}' (first at line {seen[key]})")
                )
                if build:  # the data keeps the last value, as the constructor does; all else is the first's
                    value = _Walk(self.file, None, {}, self.loader).node(value_node, path)
                    data[self.scalar(key_node)] = value
                continue
            seen[key] = line
            if (
                self.source is not None
                and isinstance(key_node, yaml.ScalarNode)
                and (found := _control_problem(key_node, path, self.source, self.file))
            ):
                self.problems.append(found)
            value = self.node(value_node, path + (key,))
            if build:
                data[self.scalar(key_node)] = value
            # A nested mapping or list starts on a later line; its key's line is where to look.
            if not isinstance(value_node, yaml.ScalarNode):
                self.lines[path + (key,)] = line
        for key_node, value_node in merged:
            self.node(value_node, path + (key_node.value,))
            if not isinstance(value_node, yaml.ScalarNode):
                self.lines[path + (key_node.value,)] = key_node.start_mark.line + 1
        return data if build else None

    def scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag == _STR:
            return node.value  # what the constructor of texts gives, without its three calls
        construct = _SCALARS.get(node.tag)
        if construct is None:
            raise _NotPlain
        return construct(self.loader, node)


# Decks are shared online: a file or an alias bomb must be refused before anything walks it.
MAX_FILE_BYTES = 1024 * 1024
MAX_NODES = 100_000


# An anchor (&name) starts a node: after the line's start, a space, a colon or a flow indicator.
# "Salt & pepper" and "AT&T" hold none.
_ANCHOR = re.compile(r"(?:^|(?<=[\s\[{,:]))&[^\s\[\]{},]", re.MULTILINE)


def _expanded_size(root: yaml.Node) -> int:
    """How many nodes the document has once every alias is expanded, counted without expanding them
    (a billion-laughs file has a few dozen nodes and billions once expanded)."""
    sizes: dict[int, int] = {}
    visiting: set[int] = set()
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        children = (
            [item for pair in node.value for item in pair]
            if isinstance(node, yaml.MappingNode)
            else node.value
            if isinstance(node, yaml.SequenceNode)
            else []
        )
        if children_done:
            visiting.discard(id(node))
            sizes[id(node)] = min(MAX_NODES + 1, 1 + sum(sizes[id(child)] for child in children))
        elif id(node) in visiting:
            return MAX_NODES + 1  # an alias inside its own anchor: endless once expanded
        else:
            visiting.add(id(node))
            stack.append((node, True))
            for child in children:
                if id(child) in visiting:
                    return MAX_NODES + 1
                if id(child) not in sizes:
                    stack.append((child, False))
    return sizes[id(root)]


class _NotPlain(Exception):
    """A node only PyYAML's constructor can make data of."""


_SCALARS = {
    tag: Loader.yaml_constructors[tag]
    for tag in (
        "tag:yaml.org,2002:str",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:null",
    )
}


def _read(loader, node: yaml.Node, anchored: bool, file: str, source: str | None, written: dict) -> tuple:
    """The data of a document, as PyYAML's constructor makes it, and its walk (:class:`_Walk`): both in
    one walk where the data is plain, else the constructor's data (an anchor's value is one object
    wherever its aliases stand) walked after."""
    if not anchored:
        walk = _Walk(file, source, written, loader)
        try:
            return walk.node(node, ()), walk
        except _NotPlain:
            pass
    data = loader.construct_document(node)
    walk = _Walk(file, source, written)
    walk.node(node, ())
    return data, walk


def _unreadable_scalar(loader, root: yaml.Node) -> yaml.Node:
    """The first scalar the constructor cannot read (a tagged value such as `!!int x`), else root."""
    stack = [root]
    while stack:
        node = stack.pop(0)
        if isinstance(node, yaml.ScalarNode):
            try:
                loader.construct_object(node, deep=True)
            except Exception:  # whatever the tag's constructor raises: that is the answer
                return node
        elif isinstance(node, yaml.MappingNode):
            stack += [item for pair in node.value for item in pair]
        elif isinstance(node, yaml.SequenceNode):
            stack += node.value
    return root


def _markup_escape_hint(text: str, at: int) -> str:
    """What to write for the card markup's `\\*` or `\\:` inside double quotes, where YAML reads every
    backslash first and knows neither; empty for any other unknown escape. libyaml's mark is at the
    backslash, PyYAML's own at the character after it."""
    char = text[at + 1 : at + 2] if text[at : at + 1] == "\\" else text[at : at + 1]
    if not char or char not in "*:":
        return ""
    return (
        f" '\\{char}': in double quotes write \\\\{char} for the markup's \\{char}, "
        "or write the text in single quotes or none"
    )


def _plain_words(exc: yaml.MarkedYAMLError, text: str) -> str | None:
    """PyYAML's words for the commonest slips (an indentation, a tab, a missing colon, text after a
    quote), said plainly with what to do; None for the others, which keep PyYAML's words."""
    mark = exc.problem_mark
    if mark is None:
        return None
    lines = text.splitlines()
    line = lines[mark.line] if mark.line < len(lines) else ""
    indent = len(line) - len(line.lstrip(" "))
    if exc.problem == "did not find expected key" and exc.context == "while parsing a block mapping":
        if mark.column > indent:
            return (
                "the line goes on after a quoted text ends: put the whole text inside the quotes "
                "(a quote inside it written as \\\" in double quotes, or '' in single quotes)"
            )
        above = next((ln for ln in reversed(lines[: mark.line]) if ln.strip() and not ln.lstrip().startswith("#")), "")
        return (
            f"this line is indented by {count(indent, 'space')}, the line above by "
            f"{count(len(above) - len(above.lstrip(' ')), 'space')}: the keys of one mapping start in one "
            "column; indent this line as the key it belongs with"
        )
    if exc.problem == "found character that cannot start any token" and line[indent : indent + 1] == "\t":
        return "a tab in the indentation: YAML indents with spaces only; replace the tab with spaces"
    if exc.problem == "could not find expected ':'":
        return "a key without its ':' on this line or the one above (write `team: village`, not `team village`)"
    if (exc.problem or "").startswith("mapping values are not allowed"):
        return (
            "a ':' that YAML cannot take here: a line above may lack its ':' (`team village`), "
            "a text holding ': ' needs quotes, or a key is indented past the keys around it"
        )
    return None


def load_file(path: Path, display: str, folder: Path | None = None) -> tuple[Doc | None, list[Problem]]:
    """Reads one YAML file of `folder` (by default its own); `display` is the name errors use
    (relative to the project)."""
    try:
        raw = contained.read(path, folder or path.parent, MAX_FILE_BYTES)
    except contained.TooLarge as exc:
        return None, [
            Problem(
                Where(display),
                f"file of {exc.size / 1024 / 1024:.1f} MiB; deck files are limited "
                f"to {MAX_FILE_BYTES // 1024 // 1024} MiB",
            )
        ]
    except contained.Refused as exc:
        return None, [Problem(Where(display), str(exc))]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return None, [
            Problem(Where(display, line), f"not UTF-8 text (byte 0x{raw[exc.start]:02X}); save the file as UTF-8")
        ]
    loader = None
    try:
        loader = _PositionLoader(text)
        node = loader.get_single_node()
        if node is None:
            return Doc(display, None, path=path), []
        # Without an anchor there is no alias, and each node takes half a character of the file at least:
        # a small file without one cannot be a bomb.
        anchored = "&" in text and _ANCHOR.search(text)
        if (anchored or 2 * len(text) > MAX_NODES) and _expanded_size(node) > MAX_NODES:
            return None, [
                Problem(
                    Where(display, node.start_mark.line + 1),
                    f"more than {MAX_NODES} values once its aliases (*) are expanded; a deck file needs far fewer",
                )
            ]
        # Only a mapping with a `<<` key is changed by the constructor.
        written = _written_pairs(node) if "<<" in text else {}
        # A control character is in the file as it is or as a backslash escape: most files have neither.
        source = text if "\\" in text or _CONTROL.search(text) else None
        try:
            data, walk = _read(loader, node, bool(anchored), display, source, written)
        except (ValueError, KeyError, IndexError, TypeError, OverflowError, AttributeError):
            # An explicit tag with a value it cannot take (`!!int x`, `!!float` of nothing): PyYAML's
            # constructor just raises.
            bad = _unreadable_scalar(loader, node)
            return None, [
                Problem(
                    Where(display, bad.start_mark.line + 1),
                    f"YAML error: '{bad.value}' cannot be read as {bad.tag.rsplit(':', 1)[-1]}",
                )
            ]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        detail = " ".join(part for part in (exc.context, exc.problem) if part)
        if mark and exc.problem and exc.problem.startswith("found unknown escape character"):
            detail += _markup_escape_hint(text, mark.index)
        detail = _plain_words(exc, text) or detail
        return None, [Problem(Where(display, mark.line + 1 if mark else None), f"YAML error: {detail}")]
    except yaml.YAMLError as exc:
        # The reader's errors (a control character, say) are not "marked" but know their place.
        line = text[: getattr(exc, "position", 0)].count("\n") + 1
        return None, [Problem(Where(display, line), f"YAML error: {str(exc).splitlines()[0]}")]
    except RecursionError:
        return None, [Problem(Where(display), "nested too deeply to be a deck file")]
    finally:
        if loader is not None:
            loader.dispose()
    # An alias repeats its anchor's nodes: their problems are said once.
    return Doc(display, data, walk.lines, frozenset(walk.blocks), path=path), list(dict.fromkeys(walk.problems))
