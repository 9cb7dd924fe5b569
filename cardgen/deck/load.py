"""Stage 1, load: YAML files in, plain data with source positions out.

``load_file`` reads one file with PyYAML's safe loader and returns a
:class:`Doc`: the data as plain dicts, lists and scalars, plus the line of every
value, addressed by its key path (``("night", "order")``). Syntax errors,
duplicate keys and tags the safe loader refuses come back as problems with the
file and line, never as exceptions. ``load_game`` gathers a game folder's files.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardgen.core import contained
from cardgen.core.problems import Problem, Where, did_you_mean, relative
from cardgen.core.yaml12 import Loader

KeyPath = tuple[Any, ...]
TEXT_FILES = ("rulebook.yaml", "script.yaml")  # optional files beside game.yaml


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


class _PositionLoader(Loader):
    """The YAML 1.2 safe loader, recording positions while it composes the node tree."""


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
        code = _NAMED_ESCAPES.get(named) if named else next((chr(int(c, 16)) for c in codes if c), None)
        if code == char and (at < 0 or match.start() < at):
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


def _walk(
    node: yaml.Node, path: KeyPath, lines: dict, blocks: set, problems: list, file: str, source: str | None
) -> None:
    """Records the line of each value and the block scalars; adds duplicate keys and, unless `source`
    is None (a file that can hold none), control characters to problems."""
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value
            line = key_node.start_mark.line + 1
            if key in seen:
                # PyYAML silently keeps the last value; a designer would never notice.
                problems.append(Problem(Where(file, line), f"duplicate key '{key}' (first at line {seen[key]})"))
                continue
            seen[key] = line
            if (
                source is not None
                and isinstance(key_node, yaml.ScalarNode)
                and (found := _control_problem(key_node, path, source, file))
            ):
                problems.append(found)
            _walk(value_node, path + (key,), lines, blocks, problems, file, source)
            # A nested mapping or list starts on a later line; its key's line is where to look.
            if not isinstance(value_node, yaml.ScalarNode):
                lines[path + (key,)] = line
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, path + (index,), lines, blocks, problems, file, source)
    elif isinstance(node, yaml.ScalarNode):
        if node.style == "|":
            blocks.add(path)
        found = _control_problem(node, path, source, file) if source is not None else None
        if found:
            problems.append(found)


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


_MAP, _SEQ, _MERGE = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:merge"
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


def _construct(loader, node: yaml.Node, anchored: bool) -> Any:
    """The data of a document, as PyYAML's constructor makes it. A tree of plain mappings, lists and
    scalars (every deck file) is made here, each scalar by the constructor of its tag, without the
    constructor's machinery around them, which was a fifth of loading a deck; anything else (an
    anchor, a merge key, a key that is no scalar, a tag of its own) is left to the constructor."""
    if not anchored:
        try:
            return _plain(loader, node)
        except _NotPlain:
            pass
    return loader.construct_document(node)


def _plain(loader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        construct = _SCALARS.get(node.tag)
        if construct is None:
            raise _NotPlain
        return construct(loader, node)
    if isinstance(node, yaml.SequenceNode) and node.tag == _SEQ:
        return [_plain(loader, item) for item in node.value]
    if isinstance(node, yaml.MappingNode) and node.tag == _MAP:
        data = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE:
                raise _NotPlain
            data[_plain(loader, key_node)] = _plain(loader, value_node)
        return data
    raise _NotPlain


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
        try:
            data = _construct(loader, node, bool(anchored))
        except (ValueError, KeyError, TypeError, OverflowError, AttributeError):
            # An explicit tag with a value it cannot take (`!!int x`): PyYAML's constructor just raises.
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
    lines: dict[KeyPath, int] = {}
    blocks: set[KeyPath] = set()
    problems: list[Problem] = []
    try:
        # A control character is in the file as it is or as a backslash escape: most files have neither.
        _walk(node, (), lines, blocks, problems, display, text if "\\" in text or _CONTROL.search(text) else None)
    except RecursionError:
        return None, [Problem(Where(display), "nested too deeply to be a deck file")]
    # An alias repeats its anchor's nodes: their problems are said once.
    return Doc(display, data, lines, frozenset(blocks), path=path), list(dict.fromkeys(problems))


@dataclass
class GameFiles:
    """A game folder as loaded: its game file and its card files, by id."""

    id: str
    folder: Path
    game: Doc | None
    cards: dict[str, Doc]
    extra: dict[str, Doc] = field(default_factory=dict)  # other files the game names, e.g. word lists
    included: tuple[Path, ...] = ()  # the --include folders its extra cards came from

    @property
    def checked_game(self) -> Doc:
        """The game file, which validation has found readable: a build stops before resolving a game
        without one."""
        if self.game is None:
            raise ValueError(f"{self.id}: the game file was not read")
        return self.game

    def folder_of(self, doc: Doc) -> Path:
        """Where the file paths a document names start."""
        return doc.base or self.folder

    @property
    def sources(self) -> tuple[Path, ...]:
        """Every file the game was read from."""
        docs = [self.game, *self.cards.values(), *self.extra.values()]
        return tuple(sorted(doc.path for doc in docs if doc is not None and doc.path is not None))


def displayer(root: Path):
    """How files are named in problems: relative to `root`, the project folder, or else to the working
    directory, a symbolic link by its own name, not where it leads."""
    # A deck's thousand files are each named: most lie under the project folder, told apart by their text.
    under = os.path.join(os.fspath(root.absolute()), "")

    def display(path: Path) -> str:
        written = os.fspath(path)
        if written.startswith(under) and os.path.isabs(written):
            return written[len(under) :].replace(os.sep, "/")
        for start in (root, Path.cwd()):
            try:
                return path.absolute().relative_to(start.absolute()).as_posix()
            except ValueError:
                continue
        return relative(path)

    return display


def load_game(
    folder: Path, root: Path, includes: Sequence[Path] = (), named: bool = False
) -> tuple[GameFiles, list[Problem]]:
    """Loads ``game.yaml``, ``roles/*.yaml``, the word lists, ``rulebook.yaml`` and ``script.yaml`` of a
    game folder, then the card files of each include folder's ``<game>/roles/``; an included card
    replaces a bundled card of the same id, and a note says so. When the command `named` this one
    game, an include folder without a ``<game>/`` may hold the game's card files straight in it.

    Every file is read by the rule of :mod:`cardgen.core.contained`: a file that leads out of its folder,
    loops, or is not a regular file is a problem naming it, never read. File names in problems are
    relative to `root`, the project folder, or else to the working directory.
    """
    problems: list[Problem] = []
    display = displayer(root)

    def read(path: Path, owner: Path) -> Doc | None:
        doc, found = load_file(path, display(path), owner)
        problems.extend(found)
        return doc

    game_path, game = folder / "game.yaml", None
    if os.path.lexists(game_path):
        game = read(game_path, folder)
    else:
        problems.append(Problem(Where(display(folder)), "no game.yaml in the game folder"))

    def card_files(paths: Iterable[Path], owner: Path):
        """Each card file loaded, never one that breaks the rule of its folder `owner`."""
        for card_path in sorted(paths):
            doc = read(card_path, owner)
            if doc is not None:
                yield card_path, doc

    cards = {card_path.stem: doc for card_path, doc in card_files(_yaml_in(folder / "roles"), folder)}
    included = []
    for include in includes:
        own = include / folder.name
        why = contained.folder_reason(own, include)
        if why:
            problems.append(Problem(Where(display(own)), why))
            continue
        if own.is_dir():
            paths = _yaml_in(own / "roles")
        elif named:
            own, paths = include, _yaml_in(include)
        else:
            continue
        included.append(own)
        for card_path, doc in card_files(paths, own):
            doc.base = own
            if card_path.stem in cards:
                problems.append(
                    Problem(
                        doc.where(), f"card '{card_path.stem}' replaces the one in {cards[card_path.stem].file}", "note"
                    )
                )
            cards[card_path.stem] = doc
    extra: dict[str, Doc] = {}
    # A word list that is not there, or that leads out, validation reports where game.yaml names it; a
    # rulebook or script is read when its name is there, and one that cannot be read is said, never skipped.
    for name in dict.fromkeys(_word_lists(game)):
        if contained.reason(folder / name, folder) not in (contained.MISSING, contained.UNUSABLE, contained.OUTSIDE):
            if (doc := read(folder / name, folder)) is not None:
                extra[name] = doc
    for name in TEXT_FILES:
        if os.path.lexists(folder / name) and (doc := read(folder / name, folder)) is not None:
            extra[name] = doc
    return GameFiles(folder.name, folder, game, cards, extra, tuple(included)), problems


def _yaml_in(folder: Path) -> list[Path]:
    """The .yaml files straight in a folder (none when it is not a folder)."""
    try:
        return [path for path in folder.iterdir() if path.suffix == ".yaml"]
    except OSError:
        return []


def include_strays(include: Path, root: Path, games: Sequence[str], built: Sequence[str], named: bool) -> list[Problem]:
    """A warning for every YAML file in an --include folder that no game of this build takes, saying
    where it should go: cards go in ``<DIR>/<game>/roles/<id>.yaml`` (or straight in DIR when the
    command names one game)."""
    display = displayer(root)
    problems = []
    single = built[0] if named and len(built) == 1 and not (include / built[0]).is_dir() else None
    example = built[0] if len(built) == 1 else "<game>"

    def warn(path: Path, message: str) -> None:
        problems.append(Problem(Where(display(path)), f"not read: {message}", "warning"))

    def target(game: str, name: str) -> str:
        return display(include / game / "roles" / name)

    for path in sorted(_walk_files(include)):
        parts = path.relative_to(include).parts
        if path.suffix not in (".yaml", ".yml") or any(part.startswith(".") for part in parts):
            continue
        if len(parts) == 1:
            if single is None:
                warn(
                    path,
                    f"a card file of an --include folder goes in {target(example, path.name)}"
                    + ("" if named else ", or straight in the folder when the command names one game"),
                )
        elif single is not None and parts[0] not in games and not did_you_mean(parts[0], games):
            warn(
                path,
                f"an --include folder adds cards only, as {display(include / path.name)} "
                f"or {target(single, path.name)}",
            )
        elif parts[0] not in games:
            warn(
                path,
                f"no game '{parts[0]}'{did_you_mean(parts[0], games)} for the cards of "
                f"{display(include / parts[0])}; games here: {', '.join(games) or 'none'}",
            )
        elif parts[0] not in built:
            continue  # another game's card, read when that game is built
        elif len(parts) == 3 and parts[1] == "roles" and path.suffix == ".yaml":
            continue  # a card of the game: read by load_game
        else:
            warn(path, f"an --include folder adds cards only, as {target(parts[0], path.stem + '.yaml')}")
    return problems


def _walk_files(folder: Path, limit: int = 10_000) -> list[Path]:
    """Files under folder, symbolic links to folders not followed, at most `limit` of them."""
    found = []
    for top, dirs, names in os.walk(folder):
        dirs.sort()
        found += [Path(top) / name for name in names]
        if len(found) >= limit:
            break
    return found[:limit]


def _word_lists(game: Doc | None) -> list[str]:
    """The word-list files a game's groups name, one per language."""
    data = game.data if game else None
    if not isinstance(data, dict) or not isinstance(data.get("groups"), dict):
        return []
    listed = data.get("languages")
    languages = [lang for lang in listed if isinstance(lang, str)] if isinstance(listed, list) else []
    return [
        spec["words"]["file"].replace("{lang}", lang)
        for spec in data["groups"].values()
        if isinstance(spec, dict) and isinstance(spec.get("words"), dict) and isinstance(spec["words"].get("file"), str)
        for lang in languages
    ]
