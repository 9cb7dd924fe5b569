"""What a translator translates: a game folder (or the project's templates) in, ``Text`` records out, one
per text: the key a PO entry carries, the file and line it is written at, what it belongs to, its
source-language text, every language's translation, and where a language's value stands in the YAML.

A game's texts are the values its schema declares as texts (``{en: ..., vi: ...}``), found as the
validator finds them. cardgen's own words are tables by language (``en:`` then ``vi:``, the same keys
under each) and the names of card sizes and paper sizes. A game's word lists are not here: each language
has words of its own, not a translation of the English ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.build.checking import game_folder
from cardgen.core.phrases import FALLBACK, fallback_language
from cardgen.core.problems import DeckError, Problem, Where
from cardgen.core.project import Project
from cardgen.deck import schema
from cardgen.deck.load import GameFiles, load_game
from cardgen.deck.schema_check import dotted, refs
from cardgen.deck.validate import TEXT_FILES
from cardgen.deck.yaml_doc import Doc, KeyPath, load_file

# A plural of cardgen's own words: a mapping of these forms, `other` always there (rulebook.py picks one).
PLURAL = ("one", "other")

# What a translator must know of some texts, by their first key: the validator holds them to it.
_NOTES = {
    "in-play-only": "; a piece of this card's ability (or short-ability): write it exactly as the translation "
    "of the ability has it",
}
# cardgen's own words: the template files that are tables by language, with where the table is in each
# ("" for the whole file) and what the words are for.
OWN_TABLES = {
    "strings.yaml": ((), "card sheets"),
    "documents/text.yaml": ((), "rulebook and moderator script"),
    "narrator/text.yaml": ((), "narrator page"),
    "site/text.yaml": ((), "site"),
    "box.yaml": (("words",), "tuck box"),
}
# The template files whose entries have a `name` text: what the rulebook calls a size.
OWN_NAMES = {"card-sizes.yaml": "card size", "paper.yaml": "paper size"}


@dataclass
class Text:
    """One translatable text. Its value in language L is at ``prefix + (L,) + suffix`` of its file: a
    game's text map is the prefix (no suffix), a table of cardgen's words has the language first."""

    key: str  # "roles/seer.yaml:ability", "templates/strings.yaml:fronts": the file, then the dotted path
    file: Path
    shown: str  # the file as messages name it
    line: int
    owner: str  # what it belongs to, for the translator: "card Seer"
    prefix: KeyPath
    suffix: KeyPath
    source: str  # the language translated from
    values: dict[str, Any] = field(default_factory=dict)  # by language: a text, or a plural's forms
    plural: bool = False

    def path(self, lang: str) -> KeyPath:
        return self.prefix + (lang,) + self.suffix

    @property
    def english(self) -> Any:
        return self.values[self.source]

    def done(self, lang: str, forms: int) -> bool:
        """Whether the text is there in `lang`; a plural in the `forms` the language has (one: `other`)."""
        value = self.values.get(lang)
        if self.plural:
            wanted = PLURAL[-forms:]
            return isinstance(value, dict) and all(_written(value.get(form)) for form in wanted)
        return _written(value)


def _written(value: Any) -> bool:
    """As the validator counts a translation: an empty text (a TODO of cardgen new) is none."""
    return isinstance(value, str) and bool(value.strip())


def load(project: Project, game: str) -> GameFiles:
    """A game's files as loaded, stopping at a file that cannot be read (nothing of it could be written)."""
    files, problems = load_game(game_folder(project, game), project.root, named=True)
    errors = [problem for problem in problems if problem.severity == "error"]
    if errors or files.game is None or not isinstance(files.game.data, dict):
        raise DeckError(errors or [Problem(Where(project.display(files.folder / "game.yaml")), "not a game file")])
    return files


def languages(files: GameFiles) -> list[str]:
    listed = files.checked_game.data.get("languages")
    return [lang for lang in listed if isinstance(lang, str)] if isinstance(listed, list) else []


def game_texts(files: GameFiles) -> list[Text]:
    """Every text of a game, in the order of its files (game.yaml, the rulebook, the script, the cards)
    and of their lines; a text an alias repeats counts once, where its anchor stands."""
    source = fallback_language(languages(files) or [FALLBACK])
    game = files.checked_game
    name = _name(game.data, source) or files.id
    docs: list[tuple[Doc, dict, str]] = [(game, schema.GAME, f"game {name}")]
    for file, rule in TEXT_FILES.items():
        if file in files.extra:
            docs.append((files.extra[file], rule, ""))
    docs += [(doc, schema.CARD, f"card {_name(doc.data, source) or card}") for card, doc in files.cards.items()]
    texts: list[Text] = []
    for doc, rule, owner in docs:
        if not isinstance(doc.data, dict) or doc.path is None:
            continue
        relative = doc.path.relative_to(files.folder).as_posix()
        seen: set[int] = set()
        paths = refs(doc, rule, "#/$defs/text") + refs(doc, rule, "#/$defs/short-text")
        for path in sorted(paths, key=lambda p: doc.where(p).line or 0):
            found = doc.get(path)
            if not isinstance(found, dict) or id(found) in seen or not isinstance(found.get(source), str):
                continue
            seen.add(id(found))
            line = doc.lines.get(path + (source,)) or doc.where(path).line or 1
            texts.append(
                Text(
                    f"{relative}:{dotted(path)}",
                    doc.path,
                    doc.file,
                    line,
                    (owner or _part(doc, path, relative, source)) + _NOTES.get(path[0], ""),
                    path,
                    (),
                    source,
                    dict(found),
                )
            )
    return texts


def _name(data: Any, source: str) -> str | None:
    found = data.get("name") if isinstance(data, dict) else None
    return found.get(source) if isinstance(found, dict) and isinstance(found.get(source), str) else None


def _part(doc: Doc, path: KeyPath, relative: str, source: str) -> str:
    """What a text of the rulebook or the script belongs to: its section's title, or its part's key."""
    if relative == "rulebook.yaml" and path[:1] == ("sections",) and len(path) > 1:
        section = doc.data["sections"].get(path[1]) if isinstance(doc.data.get("sections"), dict) else None
        title = section.get("title") if isinstance(section, dict) else None
        shown = title.get(source) if isinstance(title, dict) and isinstance(title.get(source), str) else path[1]
        return f"rulebook section {shown}"
    what = "rulebook" if relative == "rulebook.yaml" else "moderator script"
    return f"{what}: {path[0]}" if path else what


def own_texts(project: Project) -> list[Text]:
    """cardgen's own words, in the templates the project uses (its own copy of a file, else cardgen's)."""
    texts: list[Text] = []
    for name, (table, what) in OWN_TABLES.items():
        doc = _template(project, name)
        block = _at(doc.data, table + (FALLBACK,))
        for inner, value in _leaves(block, ()):
            path = table + (FALLBACK,) + inner
            plural = isinstance(value, dict)
            text = _own(doc, name, table, inner, path, f"cardgen's own words: {what}", plural)
            by_language = _at(doc.data, table)
            for lang, words in by_language.items() if isinstance(by_language, dict) else ():
                found = _at(words, inner)
                if found is not None:
                    text.values[lang] = found
            texts.append(text)
    for name, what in OWN_NAMES.items():
        doc = _template(project, name)
        seen: set[int] = set()
        for entry, spec in doc.data.items() if isinstance(doc.data, dict) else ():
            names = spec.get("name") if isinstance(spec, dict) else None
            if isinstance(names, dict) and isinstance(names.get(FALLBACK), str) and id(names) not in seen:
                seen.add(id(names))
                text = _own(doc, name, (entry, "name"), (), (entry, "name", FALLBACK), f"{what} {entry}", False)
                text.values = dict(names)
                texts.append(text)
    return texts


def _own(doc: Doc, name: str, prefix: KeyPath, suffix: KeyPath, path: KeyPath, owner: str, plural: bool) -> Text:
    assert doc.path is not None
    key = f"templates/{name}:{dotted(prefix + suffix)}"
    return Text(key, doc.path, doc.file, doc.where(path).line or 1, owner, prefix, suffix, FALLBACK, plural=plural)


def _template(project: Project, name: str) -> Doc:
    path = project.template(name)
    doc, problems = load_file(path, project.display(path), path.parent)
    if doc is None:
        raise DeckError(problems)
    return doc


def _at(data: Any, path: KeyPath) -> Any:
    for key in path:
        if isinstance(data, dict) and key in data:
            data = data[key]
        elif isinstance(data, list) and isinstance(key, int) and key < len(data):
            data = data[key]
        else:
            return None
    return data


def _leaves(value: Any, path: KeyPath):
    """The texts of a table's block by their paths in it; a plural's forms as one."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict) and "other" in value and set(value) <= set(PLURAL):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, path + (index,))
