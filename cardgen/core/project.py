"""The project folder: the working folder (or ``--decks``) in, where decks, templates and fonts are out.

A project is any folder with a ``decks/`` or a ``cardgen.toml`` of its own, found
from the working folder by walking up as git does (or the folder holding the
one named with ``--decks``). Its own ``templates/`` and ``fonts/``, when
present, come before the built-in ones, so a project can override a sheet
template or add a font without touching cardgen. Outside any project the
games are cardgen's own bundled ones.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, replace
from pathlib import Path

from cardgen.core import bundled, contained, limits
from cardgen.core.problems import DeckError, Problem, Where, relative

BUILTIN = bundled.ROOT

# Template data files already parsed in this process, by path, with the size and modification
# time they had: every build reads a handful of them, and pure-Python YAML is slow.
_PARSED: dict[Path, tuple[tuple[int, int], object]] = {}


@dataclass(frozen=True)
class Project:
    root: Path
    decks: Path
    templates: tuple[Path, ...]
    fonts: tuple[Path, ...]
    includes: tuple[Path, ...] = ()  # designers' folders of extra cards: <dir>/<game>/roles/*.yaml
    output: Path = Path("output")  # where outputs go unless --out says
    bundled: bool = False  # no project here: the games are cardgen's own, read-only

    @classmethod
    def at(cls, decks: Path | None = None, includes: tuple[Path, ...] = ()) -> Project:
        """The project of a decks folder; by default the one the working folder is in, or the bundled
        games outside any project. The decks folder and the project's own templates/ and fonts/ must be
        folders of the project itself, not symbolic links leading out."""
        output = Path("output")
        if decks is None:
            found = find_root(Path.cwd())
            if found is None:
                return replace(cls._of(Path.cwd().resolve(), BUILTIN / "decks", includes, output), bundled=True)
            # Outputs go to the project's output/, wherever in it cardgen was run from.
            decks, output = found / "decks", Path(os.path.relpath(found / "output"))
        why = contained.folder_reason(decks, decks.absolute().parent)
        if why:
            raise DeckError([Problem(Where(decks.as_posix()), why)])
        resolved = decks.resolve()
        return cls._of(resolved.parent, resolved, includes, output)

    @classmethod
    def _of(cls, root: Path, decks: Path, includes: tuple[Path, ...], output: Path) -> Project:

        def search(name: str) -> tuple[Path, ...]:
            own = root / name
            why = contained.folder_reason(own, root)
            if why:
                raise DeckError([Problem(Where(name), why)])
            builtin = BUILTIN / name
            return tuple(dict.fromkeys(p for p in (own, builtin) if p.is_dir()))

        world = bundled.world_fonts()
        fonts = search("fonts") + ((world,) if world and world.is_dir() else ())
        return cls(root, decks, search("templates"), fonts, tuple(p.resolve() for p in includes), output)

    def games(self) -> list[str]:
        """The game folders in decks/: those with a game.yaml (which may still be unusable: the load says)."""
        if not self.decks.is_dir():
            return []
        return sorted(p.name for p in self.decks.iterdir() if os.path.lexists(p / "game.yaml"))

    def by_id(self, names: list[str]) -> bool:
        """Whether every name is the id of one of this project's games, not a path to a game anywhere."""
        games = self.games()
        return all(name in games and not Path(name).exists() for name in names)

    def folders(self) -> list[Path]:
        """Every folder whose files a build or a listing of this project may read."""
        return [self.decks, *self.templates, *self.fonts, *self.includes]

    def template(self, name: str) -> Path:
        """The first templates folder's file of that name; one that breaks the rule of
        :mod:`cardgen.core.contained` (a link out, a pipe) is an error, not a reason to look further."""
        return self._template(name)[0]

    def language_style(self, lang: str) -> str:
        """The CSS a web page in that language (a narrator page, a site page) adds after its own:
        templates/languages/<lang>.css, else its primary subtag's, else none."""
        for code in dict.fromkeys((lang, lang.split("-")[0])):
            found = self._find(f"languages/{code}.css")
            if found is not None:
                style = found[0].read_text(encoding="utf-8")
                if "</style" in style.lower():  # it goes inside a page's <style>
                    why = "contains '</style', which would end the page's style early"
                    raise DeckError([Problem(Where(self.display(found[0])), why)])
                return style
        return ""

    def _template(self, name: str) -> tuple[Path, Path]:
        found = self._find(name)
        if found is None:
            raise DeckError(
                [
                    Problem(
                        None,
                        f"template '{name}' not found in "
                        f"{', '.join(self.display(t) for t in self.templates) or 'no templates folder'}",
                    )
                ]
            )
        return found

    def _find(self, name: str) -> tuple[Path, Path] | None:
        """The first templates folder's file of that name and that folder, or None where none has it."""
        for folder in self.templates:
            path = folder / name
            for inner in list(path.relative_to(folder).parents)[-2::-1]:  # documents/ of documents/x.yaml
                why = contained.folder_reason(folder / inner, folder)
                if why:
                    raise DeckError([Problem(Where(self.display(folder / inner)), why)])
            why = contained.reason(path, folder)
            if why == contained.OUTSIDE:
                raise DeckError(
                    [Problem(Where(self.display(path)), "leads outside its templates folder (a symbolic link?)")]
                )
            if why not in (None, contained.MISSING):
                raise DeckError([Problem(Where(self.display(path)), why)])
            if why is None:
                return path, folder
        return None

    def template_data(self, name: str):
        """A template data file, parsed; a copy, so that no caller changes what the next one reads."""
        import yaml  # here: finding a project and a build with nothing to do read no YAML

        from cardgen.core import yaml12

        path, folder = self._template(name)
        stat = path.stat()
        known = _PARSED.get(path)
        if known and known[0] == (stat.st_size, stat.st_mtime_ns):
            return copy.deepcopy(known[1])
        try:
            data = yaml12.safe_load(read_text(path, folder, self.display(path)))
        except yaml.YAMLError as exc:
            raise DeckError([Problem(Where(self.display(path)), f"YAML error: {str(exc).splitlines()[0]}")]) from None
        except RecursionError:
            raise DeckError([Problem(Where(self.display(path)), "nested too deeply")]) from None
        # A project's own copy replaces the built-in file: it must at least have the same shape.
        if (
            not isinstance(data, dict)
            or not all(isinstance(value, dict) for value in data.values())
            and name in ("card-sizes.yaml", "paper.yaml", "strings.yaml")
        ):
            raise DeckError(
                [
                    Problem(
                        Where(self.display(path)),
                        "expected a mapping of names to mappings, like the built-in file of that name",
                    )
                ]
            )
        bounds = limits.problems(name, data)
        if bounds:
            text = read_text(path, folder, self.display(path))
            raise DeckError(
                [Problem(Where(self.display(path), yaml12.line_of(text, key)), message) for key, message in bounds]
            )
        _PARSED[path] = (stat.st_size, stat.st_mtime_ns), data
        return copy.deepcopy(data)

    def display(self, path: Path) -> str:
        """A path as errors show it: relative to the project folder, or for cardgen's own files to
        the folder they ship in (the same on every machine)."""
        # The nearer of the two first: a project may lie inside a clone, cardgen inside a project's venv.
        for root in sorted((self.root, BUILTIN), key=lambda r: len(r.parts), reverse=True):
            for shown in (path.absolute(), Path(os.path.realpath(path))):
                try:
                    return shown.relative_to(root).as_posix()
                except ValueError:
                    continue
        return relative(path)


def find_root(start: Path) -> Path | None:
    """The project a folder is in: it or the nearest folder above it with a decks/ folder or a
    cardgen.toml, as git finds a repository; None outside any project."""
    for folder in (start, *start.parents):
        if (folder / "decks").is_dir() or (folder / "cardgen.toml").is_file():
            return folder
    return None


MAX_TEMPLATE_BYTES = 1024 * 1024


def read_text(path: Path, folder: Path, display: str) -> str:
    """A template or settings file of `folder` as text, by the rule of :mod:`cardgen.core.contained`."""
    try:
        return contained.read(path, folder, MAX_TEMPLATE_BYTES).decode("utf-8")
    except contained.Refused as exc:
        raise DeckError([Problem(Where(display), str(exc))]) from None
    except UnicodeDecodeError:
        raise DeckError([Problem(Where(display), "not UTF-8 text; save the file as UTF-8")]) from None
