"""Stage 1, load: YAML files in, plain data with source positions out.

``load_file`` reads one file with PyYAML's safe loader and returns a
:class:`Doc`: the data as plain dicts, lists and scalars, plus the line of every
value, addressed by its key path (``("night", "order")``). Syntax errors,
duplicate keys and tags the safe loader refuses come back as problems with the
file and line, never as exceptions. ``load_game`` gathers a game folder's files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import yaml

from .problems import Problem, Where

KeyPath = tuple[Any, ...]
TEXT_FILES = ("rulebook.yaml", "script.yaml")   # optional files beside game.yaml


@dataclass
class Doc:
    """One YAML file's data and where each value in it stands."""

    file: str
    data: Any
    lines: dict[KeyPath, int] = field(default_factory=dict)
    block_scalars: frozenset[KeyPath] = frozenset()
    base: Path | None = None      # where its file paths start, when not the game folder (an --include)
    path: Path | None = None      # the file it was read from

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


class _PositionLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """The safe loader, recording positions while it composes the node tree."""


def _walk(node: yaml.Node, path: KeyPath, lines: dict, blocks: set, problems: list, file: str) -> None:
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
            _walk(value_node, path + (key,), lines, blocks, problems, file)
            # A nested mapping or list starts on a later line; its key's line is where to look.
            if not isinstance(value_node, yaml.ScalarNode):
                lines[path + (key,)] = line
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, path + (index,), lines, blocks, problems, file)
    elif isinstance(node, yaml.ScalarNode) and node.style == "|":
        blocks.add(path)


# Decks are shared online: a file or an alias bomb must be refused before anything walks it.
MAX_FILE_BYTES = 1024 * 1024
MAX_NODES = 100_000


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
        children = ([item for pair in node.value for item in pair] if isinstance(node, yaml.MappingNode)
                    else node.value if isinstance(node, yaml.SequenceNode) else [])
        if children_done:
            visiting.discard(id(node))
            sizes[id(node)] = min(MAX_NODES + 1, 1 + sum(sizes[id(child)] for child in children))
        elif id(node) in visiting:
            return MAX_NODES + 1       # an alias inside its own anchor: endless once expanded
        else:
            visiting.add(id(node))
            stack.append((node, True))
            for child in children:
                if id(child) in visiting:
                    return MAX_NODES + 1
                if id(child) not in sizes:
                    stack.append((child, False))
    return sizes[id(root)]


def _unreadable_scalar(loader, root: yaml.Node) -> yaml.Node:
    """The first scalar the constructor cannot read (a tagged value such as `!!int x`), else root."""
    stack = [root]
    while stack:
        node = stack.pop(0)
        if isinstance(node, yaml.ScalarNode):
            try:
                loader.construct_object(node, deep=True)
            except Exception:      # whatever the tag's constructor raises: that is the answer
                return node
        elif isinstance(node, yaml.MappingNode):
            stack += [item for pair in node.value for item in pair]
        elif isinstance(node, yaml.SequenceNode):
            stack += node.value
    return root


def load_file(path: Path, display: str) -> tuple[Doc | None, list[Problem]]:
    """Reads one YAML file; `display` is the name errors use (relative to the project)."""
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        return None, [Problem(Where(display), f"file of {size / 1024 / 1024:.1f} MiB; deck files are limited "
                                              f"to {MAX_FILE_BYTES // 1024 // 1024} MiB")]
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        return None, [Problem(Where(display, line),
                              f"not UTF-8 text (byte 0x{raw[exc.start]:02X}); save the file as UTF-8")]
    loader = None
    try:
        loader = _PositionLoader(text)
        node = loader.get_single_node()
        if node is None:
            return Doc(display, None, path=path), []
        if _expanded_size(node) > MAX_NODES:
            return None, [Problem(Where(display, node.start_mark.line + 1),
                                  f"more than {MAX_NODES} values once its aliases (*) are expanded; "
                                  "a deck file needs far fewer")]
        try:
            data = loader.construct_document(node)
        except (ValueError, KeyError, TypeError, OverflowError, AttributeError):
            # An explicit tag with a value it cannot take (`!!int x`): PyYAML's constructor just raises.
            bad = _unreadable_scalar(loader, node)
            return None, [Problem(Where(display, bad.start_mark.line + 1),
                                  f"YAML error: '{bad.value}' cannot be read as {bad.tag.rsplit(':', 1)[-1]}")]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        detail = " ".join(part for part in (exc.context, exc.problem) if part)
        return None, [Problem(Where(display, line), f"YAML error: {detail}")]
    except yaml.YAMLError as exc:
        # The reader's errors (a control character, say) are not "marked" but know their place.
        line = text[:getattr(exc, "position", 0)].count("\n") + 1
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
        _walk(node, (), lines, blocks, problems, display)
    except RecursionError:
        return None, [Problem(Where(display), "nested too deeply to be a deck file")]
    return Doc(display, data, lines, frozenset(blocks), path=path), problems


@dataclass
class GameFiles:
    """A game folder as loaded: its game file and its card files, by id."""

    id: str
    folder: Path
    game: Doc | None
    cards: dict[str, Doc]
    extra: dict[str, Doc] = field(default_factory=dict)   # other files the game names, e.g. word lists

    def folder_of(self, doc: Doc) -> Path:
        """Where the file paths a document names start."""
        return doc.base or self.folder

    @property
    def sources(self) -> tuple[Path, ...]:
        """Every file the game was read from."""
        docs = [self.game, *self.cards.values(), *self.extra.values()]
        return tuple(sorted(doc.path for doc in docs if doc is not None and doc.path is not None))


def load_game(folder: Path, root: Path, includes: Sequence[Path] = ()) -> tuple[GameFiles, list[Problem]]:
    """Loads ``game.yaml``, ``roles/*.yaml`` and the word lists of a game folder, then the
    card files of each include folder's ``<game>/roles/``; an included card replaces a
    bundled card of the same id, and a note says so.

    File names in problems are relative to `root`, the project folder, or else to the
    working directory.
    """
    problems: list[Problem] = []

    def display(path: Path) -> str:
        # Named as the designer sees it: a symbolic link by its own name, not where it leads.
        for start in (root, Path.cwd()):
            try:
                return path.absolute().relative_to(start.absolute()).as_posix()
            except ValueError:
                continue
        return path.as_posix()

    game_path = folder / "game.yaml"
    game = None
    if game_path.is_file():
        game, found = load_file(game_path, display(game_path))
        problems += found
    else:
        problems.append(Problem(Where(display(folder)), "no game.yaml in the game folder"))
    def card_files(owner: Path):
        """The card files of roles/ in owner, each loaded, never one that leads out of owner."""
        for card_path in sorted((owner / "roles").glob("*.yaml")):
            if not _inside(card_path, owner):
                problems.append(Problem(Where(display(card_path)), "a symbolic link leading outside its folder; "
                                        "cardgen does not read it"))
                continue
            doc, found = load_file(card_path, display(card_path))
            problems.extend(found)
            if doc is not None:
                yield card_path, doc

    cards = {card_path.stem: doc for card_path, doc in card_files(folder)}
    for include in includes:
        own = include / folder.name
        if own.exists() and not _inside(own, include):
            problems.append(Problem(Where(display(own)), "a symbolic link leading outside its folder; "
                                    "cardgen does not read it"))
            continue
        for card_path, doc in card_files(own):
            doc.base = own
            if card_path.stem in cards:
                problems.append(Problem(doc.where(), f"card '{card_path.stem}' replaces the one in "
                                        f"{cards[card_path.stem].file}", "note"))
            cards[card_path.stem] = doc
    extra: dict[str, Doc] = {}
    for name in _word_lists(game) + [n for n in TEXT_FILES if (folder / n).is_file()]:
        path = folder / name
        if _is_file(path) and _inside(path, folder):
            doc, found = load_file(path, display(path))
            problems += found
            if doc is not None:
                extra[name] = doc
    return GameFiles(folder.name, folder, game, cards, extra), problems


def _inside(path: Path, folder: Path) -> bool:
    """Whether path, symbolic links followed, is in folder."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        return False


def _is_file(path: Path) -> bool:
    """Path.is_file, for a name a deck wrote: too long or with a NUL byte, it is simply not a file."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _word_lists(game: Doc | None) -> list[str]:
    """The word-list files a game's groups name, one per language."""
    data = game.data if game else None
    if not isinstance(data, dict) or not isinstance(data.get("groups"), dict):
        return []
    languages = data.get("languages") if isinstance(data.get("languages"), list) else []
    languages = [lang for lang in languages if isinstance(lang, str)]
    return [spec["words"]["file"].replace("{lang}", lang)
            for spec in data["groups"].values()
            if isinstance(spec, dict) and isinstance(spec.get("words"), dict)
            and isinstance(spec["words"].get("file"), str)
            for lang in languages]
