"""A PO file's translations written back: the project and a PO file exported from it in, the YAML files
with their translations written (each changed file whole, or none when anything stops the import) and
an ``Imported`` report out: how many were written, how many were already so, and the entries left out
with why (the English changed since the export: stale; marked fuzzy; a list only partly translated).

An empty translation leaves the YAML as it is. A game gets the language in its ``languages:`` once one
of its texts is written in it, so that it builds; not when it takes word lists and has none in that
language, which the build would refuse.

cardgen's own games are not changed outside a project (as `cardgen new` does not change them). Its own
words go where the project reads them: its own copy of a template, or cardgen's templates in a clone;
an installed cardgen's template is copied into the project's templates/ first, as an upgrade would
replace the installed one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polib

from cardgen.core import bundled, contained
from cardgen.core.problems import DeckError, Problem, Where, count
from cardgen.core.project import Project
from cardgen.core.write import write_atomic
from cardgen.deck.load import GameFiles, word_lists
from cardgen.deck.yaml_doc import KeyPath
from cardgen.translate import po, texts, yaml_edit
from cardgen.translate.texts import Text


@dataclass
class Imported:
    language: str
    game: str
    written: int = 0
    unchanged: int = 0
    stale: list[Problem] = field(default_factory=list)
    left: list[Problem] = field(default_factory=list)  # fuzzy entries and lists not written
    files: list[str] = field(default_factory=list)
    copied: list[str] = field(default_factory=list)  # cardgen's templates that the project now has a copy of
    added: str | None = None  # the game file the language was added to
    kept_out: str | None = None  # why it was not added


@dataclass
class _List:
    """The translated items of a list of cardgen's words, by index, and where the first is in the PO file."""

    at: Where
    items: dict[int, Any] = field(default_factory=dict)


def import_po(project: Project, path: Path) -> Imported:
    """Writes the translations of the PO file at `path` into the project; raises DeckError, having
    written nothing, at the first thing that stops it (a file that cannot be read, a key that is no text)."""
    shown = project.display(path)
    catalog, lang, game = po.read(path, shown)
    if project.bundled:
        raise DeckError(
            [
                Problem(
                    None,
                    f"'{game}' is one of cardgen's own games, which it does not change: copy it into a project "
                    f"with: cardgen init --from {game}, and import there",
                )
            ]
        )
    report = Imported(lang, game)
    files = texts.load(project, game)
    known = {text.key: text for text in texts.game_texts(files) + texts.own_texts(project)}
    if known and lang == next(iter(known.values())).source:
        raise DeckError([Problem(Where(shown, 1), f"'{lang}' is the language {game}'s texts are translated from")])
    changes: dict[Path, list[tuple[KeyPath, Any]]] = {}
    shown_of: dict[Path, str] = {}
    lists: dict[tuple[Path, KeyPath, KeyPath], _List] = {}
    for entry, text in _entries(project, catalog, known, game, shown):
        value = po.translation(entry, lang)
        if value is None:
            continue
        where = Where(shown, entry.linenum)
        if "fuzzy" in entry.flags:
            report.left.append(Problem(where, f"{text.key}: marked fuzzy (needs review), not written", "warning"))
        elif not po.english_of(entry, text):
            report.stale.append(
                Problem(
                    where,
                    f"{text.key}: the English at {text.shown}:{text.line} changed since the export; "
                    "not written (export again and translate the new text)",
                    "warning",
                )
            )
        elif value == text.values.get(lang):
            report.unchanged += 1
        elif text.suffix and isinstance(text.suffix[-1], int):
            shown_of[text.file] = text.shown
            lists.setdefault((text.file, text.prefix, text.suffix[:-1]), _List(where)).items[text.suffix[-1]] = value
        else:
            shown_of[text.file] = text.shown
            changes.setdefault(text.file, []).append((text.path(lang), value))
            report.written += 1
    _lists(lists, lang, known, changes, report)
    _language(files, lang, changes, report, shown_of)
    _write(project, changes, shown_of, report)
    return report


def _entries(project: Project, catalog: polib.POFile, known: dict[str, Text], game: str, shown: str):
    """Each entry of the PO file with its text; an entry whose key is no text here, or is a text twice,
    stops the import."""
    found: list[tuple[polib.POEntry, Text]] = []
    errors: list[Problem] = []
    first: dict[str, int | None] = {}
    for entry in catalog:
        if entry.obsolete:  # what msgmerge and Poedit keep of texts gone from the export: #~ lines
            continue
        where = Where(shown, entry.linenum)
        text = known.get(entry.msgctxt or "")
        if text is None:
            errors.append(_unknown(project, game, entry, where))
        elif text.key in first:
            errors.append(
                Problem(where, f"{text.key}: a second entry of this text (the first at line {first[text.key]})")
            )
        else:
            first[text.key] = entry.linenum
            found.append((entry, text))
    if errors:
        raise DeckError(errors)
    return found


def _unknown(project: Project, game: str, entry: polib.POEntry, where: Where) -> Problem:
    """Why an entry's key is not a text here: its file moved, or its place in the file did."""
    key = entry.msgctxt or ""
    if not key:
        return Problem(where, f"an entry without a msgctxt ('{entry.msgid[:40]}'): cardgen's PO files key every text")
    file, _, path = key.partition(":")
    if file.startswith("templates/"):
        owner = "cardgen's templates"
        present = any((folder / file.removeprefix("templates/")).is_file() for folder in project.templates)
    else:
        owner = f"game '{game}'"
        folder = project.decks / game
        present = contained.reason(folder / file, folder) is None
    if not present:
        return Problem(where, f"{key}: no file {file} in {owner} (moved or renamed since the export?)")
    return Problem(where, f"{key}: no text at {path} in {file} of {owner} (changed since the export?)")


def _lists(
    lists: dict[tuple[Path, KeyPath, KeyPath], _List],
    lang: str,
    known: dict[str, Text],
    changes: dict[Path, list[tuple[KeyPath, Any]]],
    report: Imported,
) -> None:
    """The items of a list of cardgen's words: one by one where the language has the list, else the list
    whole when every item is translated."""
    for (file, prefix, inner), found in lists.items():
        related = [t for t in known.values() if t.file == file and t.prefix == prefix and t.suffix[:-1] == inner]
        size, path, items = len(related), prefix + (lang,) + inner, found.items
        if all(isinstance(text.values.get(lang), str) for text in related):
            changes.setdefault(file, []).extend((path + (index,), value) for index, value in items.items())
            report.written += len(items)
        elif len(items) == size:
            changes.setdefault(file, []).append((path, [items[index] for index in range(size)]))
            report.written += size
        else:
            missing = size - len(items)
            report.left.append(
                Problem(
                    found.at,
                    f"{related[0].key.rsplit('.', 1)[0]}: a list is written whole, and {count(missing, 'item')} "
                    f"of its {size} {'is' if missing == 1 else 'are'} not translated; not written",
                    "warning",
                )
            )


def _language(
    files: GameFiles,
    lang: str,
    changes: dict[Path, list[tuple[KeyPath, Any]]],
    report: Imported,
    shown_of: dict[Path, str],
) -> None:
    """The language added to a game's `languages:` when a text of the game is written in it."""
    listed = texts.languages(files)
    game_paths = {doc.path for doc in [files.checked_game, *files.cards.values(), *files.extra.values()] if doc.path}
    if lang in listed or not any(path in game_paths for path in changes):
        return
    game = files.checked_game
    missing = [name for name in word_lists(game, [lang]) if not (files.folder / name).is_file()]
    if missing:
        report.kept_out = (
            f"'{lang}' not added to the languages of {game.file}: the game's word cards need "
            f"{', '.join(missing)}, a word list of that language's own"
        )
        return
    assert game.path is not None
    changes.setdefault(game.path, []).insert(0, (("languages",), [*listed, lang]))
    shown_of[game.path] = game.file
    report.added = game.file


def _write(
    project: Project, changes: dict[Path, list[tuple[KeyPath, Any]]], shown_of: dict[Path, str], report: Imported
) -> None:
    """Every changed file made first, then written: a file that cannot take its changes stops them all."""
    made: dict[Path, tuple[str, bytes]] = {}
    problems = []
    for path, wanted in changes.items():
        try:
            before = path.read_bytes().decode("utf-8")
            after = yaml_edit.apply(before, wanted)
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(Problem(Where(shown_of[path]), f"cannot read: {exc}"))
            continue
        except yaml_edit.Unwritable as exc:
            problems.append(Problem(Where(shown_of[path]), str(exc)))
            continue
        if after != before:
            made[_target(project, path, report)] = shown_of[path], after.encode("utf-8")
    if problems:
        raise DeckError(problems)
    for target, (shown, data) in sorted(made.items(), key=lambda item: item[1][0]):
        write_atomic(target, data)
        report.files.append(shown)


def _target(project: Project, path: Path, report: Imported) -> Path:
    """Where a changed file goes: in place, but an installed cardgen's template, which goes into the
    project's own templates/ under its name there."""
    templates = bundled.folder("templates")
    if not bundled.INSTALLED or not path.is_relative_to(templates):
        return path
    name = path.relative_to(templates)
    report.copied.append(f"templates/{name.as_posix()}")
    return project.root / "templates" / name
