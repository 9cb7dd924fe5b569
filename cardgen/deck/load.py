"""Stage 1, load: YAML files in, plain data with source positions out.

``load_file`` reads one file with PyYAML's safe loader and returns a
:class:`Doc`: the data as plain dicts, lists and scalars, plus the line of every
value, addressed by its key path (``("night", "order")``). Syntax errors,
duplicate keys and tags the safe loader refuses come back as problems with the
file and line, never as exceptions. ``load_game`` gathers a game folder's files.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.core import contained
from cardgen.core.problems import Problem, Where, did_you_mean, relative
from cardgen.deck.yaml_doc import Doc, load_file

TEXT_FILES = ("rulebook.yaml", "script.yaml")  # optional files beside game.yaml


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

    for place in (folder, folder / "roles"):
        problems += [
            Problem(Where(display(path)), not_yaml(path), "warning") for path in sorted(_files_in(place, ".yml"))
        ]
    game_path, game = folder / "game.yaml", None
    if os.path.lexists(game_path):
        game = read(game_path, folder)
    else:
        problems.append(Problem(Where(display(folder)), "no game.yaml in the game folder"))

    def card_files(paths: Iterable[Path], owner: Path):
        """Each card file of one folder loaded, never one that breaks the rule of its folder `owner`."""
        # By name, as Paths sort, but compared as text: two Paths are compared by a Python call each time.
        for card_path in sorted(paths, key=os.fspath):
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
    for name in dict.fromkeys(word_lists(game)):
        if contained.reason(folder / name, folder) not in (contained.MISSING, contained.UNUSABLE, contained.OUTSIDE):
            if (doc := read(folder / name, folder)) is not None:
                extra[name] = doc
    for name in TEXT_FILES:
        if os.path.lexists(folder / name) and (doc := read(folder / name, folder)) is not None:
            extra[name] = doc
    return GameFiles(folder.name, folder, game, cards, extra, tuple(included)), problems


def _yaml_in(folder: Path) -> list[Path]:
    """The .yaml files straight in a folder (none when it is not a folder)."""
    return _files_in(folder, ".yaml")


def _files_in(folder: Path, suffix: str) -> list[Path]:
    try:
        return [path for path in folder.iterdir() if path.suffix == suffix]
    except OSError:
        return []


def not_yaml(path: Path) -> str:
    """What a .yml file is told: cardgen reads .yaml files only."""
    return f"{path.name} is not read: cardgen reads .yaml files; rename it to {path.stem}.yaml"


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
        if path.suffix == ".yml":
            problems.append(Problem(Where(display(path)), not_yaml(path), "warning"))
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


def word_lists(game: Doc | None, languages: list[str] | None = None) -> list[str]:
    """The word-list files a game's groups name, one per language: of its own languages, or of those given."""
    data = game.data if game else None
    if not isinstance(data, dict) or not isinstance(data.get("groups"), dict):
        return []
    listed = data.get("languages")
    if languages is None:
        languages = [lang for lang in listed if isinstance(lang, str)] if isinstance(listed, list) else []
    return [
        spec["words"]["file"].replace("{lang}", lang)
        for spec in data["groups"].values()
        if isinstance(spec, dict) and isinstance(spec.get("words"), dict) and isinstance(spec["words"].get("file"), str)
        for lang in languages
    ]
