"""The project folder: where decks, templates and fonts are looked up.

A project is any folder with a ``decks/`` of its own (or one named with
``--decks``). Its own ``templates/`` and ``fonts/``, when present, come before
the built-in ones, so a project can override a sheet template or add a font
without touching cardgen.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

import yaml

from .problems import DeckError, Problem, Where

BUILTIN = Path(__file__).resolve().parent.parent

# Template data files already parsed in this process, by path, with the size and modification
# time they had: every build reads a handful of them, and pure-Python YAML is slow.
_PARSED: dict[Path, tuple[tuple[int, int], object]] = {}


@dataclass(frozen=True)
class Project:
    root: Path
    decks: Path
    templates: tuple[Path, ...]
    fonts: tuple[Path, ...]
    includes: tuple[Path, ...] = ()     # designers' folders of extra cards: <dir>/<game>/roles/*.yaml

    @classmethod
    def at(cls, decks: Path | None = None, includes: tuple[Path, ...] = ()) -> "Project":
        """The project of a decks folder; by default ./decks."""
        decks = (decks or Path("decks")).resolve()
        root = decks.parent

        def search(name: str) -> tuple[Path, ...]:
            own = root / name
            builtin = BUILTIN / name
            return tuple(dict.fromkeys(p for p in (own, builtin) if p.is_dir()))

        return cls(root, decks, search("templates"), search("fonts"), tuple(p.resolve() for p in includes))

    def games(self) -> list[str]:
        if not self.decks.is_dir():
            return []
        return sorted(p.name for p in self.decks.iterdir() if (p / "game.yaml").is_file())

    def template(self, name: str) -> Path:
        """The first templates folder's file of that name."""
        for folder in self.templates:
            path = folder / name
            if path.is_file():
                if not path.resolve().is_relative_to(folder.resolve()):
                    raise DeckError([Problem(Where(self.display(path)), "leads outside its templates folder "
                                                                        "(a symbolic link?)")])
                return path
        raise DeckError([Problem(None, f"template '{name}' not found in "
                                       f"{', '.join(self.display(t) for t in self.templates) or 'no templates folder'}")])

    def template_data(self, name: str):
        """A template data file, parsed; a copy, so that no caller changes what the next one reads."""
        path = self.template(name)
        stat = path.stat()
        known = _PARSED.get(path)
        if known and known[0] == (stat.st_size, stat.st_mtime_ns):
            return copy.deepcopy(known[1])
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise DeckError([Problem(Where(self.display(path)), f"YAML error: {str(exc).splitlines()[0]}")]) from None
        except RecursionError:
            raise DeckError([Problem(Where(self.display(path)), "nested too deeply")]) from None
        # A project's own copy replaces the built-in file: it must at least have the same shape.
        if not isinstance(data, dict) or not all(isinstance(value, dict) for value in data.values()) and \
                name in ("card-sizes.yaml", "paper.yaml", "strings.yaml"):
            raise DeckError([Problem(Where(self.display(path)), "expected a mapping of names to mappings, "
                                                                 "like the built-in file of that name")])
        _PARSED[path] = (stat.st_size, stat.st_mtime_ns), data
        return copy.deepcopy(data)

    def display(self, path: Path) -> str:
        """A path as errors show it: relative to the project folder."""
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()
