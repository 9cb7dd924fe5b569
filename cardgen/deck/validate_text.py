"""Stage 2, validate, of what texts say: a text of a loaded file in, what would not print or show as
written out (a script cardgen cannot shape, an invisible character, an unknown icon, an unclosed style);
and across texts, two cards' names that look the same and a word a word list holds twice.
"""

from __future__ import annotations

import unicodedata

from cardgen.core.problems import Problem, Where, did_you_mean
from cardgen.deck.load import GameFiles
from cardgen.deck.schema_check import dotted
from cardgen.deck.yaml_doc import Doc, KeyPath
from cardgen.text import markup, writing

# The texts shown whole and told apart by the players: names (a card's call at night too) and titles.
_NAMES = ("name", "call", "also-wakes", "title")


def _invisible(char: str, word: bool) -> str:
    """What a text holding an invisible `char` it may not hold is told."""
    shown = f"invisible character U+{ord(char):04X} ({unicodedata.name(char, 'a format character')})"
    if char in writing.JOINERS:
        return (
            f"{shown} outside a word of a script whose letters join (Arabic, Persian, the Indic scripts), "
            "the only place it changes what is printed"
        )
    what = "a name or a word may hold none" if word else "a text may hold none but soft hyphens"
    return f"{shown}; {what}: it hides or reorders what is shown, and cardgen prints none"


def check_text(
    doc: Doc, path: KeyPath, icons: frozenset[str] = frozenset(), markup_marks: bool = True
) -> list[Problem]:
    """What a text holds that would not print as written: a script cardgen cannot shape and an invisible
    character (errors), a `:word:` that is no card's icon and a `**` or `*` never closed (warnings), each at
    its line. Without `markup_marks` the text is a game's word, shown whole like a name."""
    value = doc.get(path)
    problems = []

    def at(index: int) -> Where:
        return Where(doc.file, doc.text_line(path, value[:index].count("\n")))

    word = not markup_marks or (len(path) > 1 and path[-2] in _NAMES)
    hidden = writing.invisible(value, word)
    if hidden:
        index, char = hidden
        problems.append(Problem(at(index), f"{dotted(path)}: {_invisible(char, word)}"))

    found = writing.unsupported(value)
    if found:
        char, script, needs = found
        lang = f"the '{path[-1]}' text" if len(path) > 1 else "the text"
        problems.append(
            Problem(
                at(value.index(char)),
                f"{dotted(path)}: {lang} is in {script} script "
                f"('{char}' U+{ord(char):04X}), which needs shaping ({needs}): cardgen has no font and "
                "shaping rules for it yet; see the scripts cardgen prints in docs/designing.md",
            )
        )
    if not markup_marks:
        return problems
    for index, name in markup.icon_names(value):
        if name not in icons:
            hint = did_you_mean(name, icons)
            problems.append(
                Problem(
                    at(index),
                    f"{dotted(path)}: ':{name}:' is no card's icon{hint}; it prints as "
                    "written (only cards with an SVG symbol have one)",
                    "warning",
                )
            )
    for index, mark, opened in markup.unpaired(value):
        style = {"*": "italic", "**": "bold", "***": "bold italic"}.get(mark, "a style")
        what = "opens {} that is never closed" if opened else "closes {} that was never opened"
        problems.append(
            Problem(at(index), f"{dotted(path)}: '{mark}' {what.format(style)}; it prints as written", "warning")
        )
    return problems


def same_names(files: GameFiles) -> list[Problem]:
    """Two cards whose names in one language are written differently but look the same (composed and
    decomposed, an invisible character apart): the players could not tell them apart, and nothing would
    say so. Said at the second, naming the first. Names written alike are a designer's visible choice (a
    language may have one word for two roles) and are left alone."""
    problems = []
    first: dict[tuple[str, str], tuple[str, Doc, str]] = {}
    for card_id, doc in files.cards.items():
        names = doc.data.get("name") if isinstance(doc.data, dict) else None
        for lang, name in names.items() if isinstance(names, dict) else ():
            looks = writing.looks(name) if isinstance(name, str) else ""
            if not looks:
                continue
            if (lang, looks) in first:
                other, other_doc, written = first[lang, looks]
                if written == name:
                    continue
                problems.append(
                    Problem(
                        doc.where(("name", lang)),
                        f"name.{lang}: '{name}' looks the same as card '{other}''s name "
                        f"({other_doc.where(('name', lang))}); give each card a name of its own",
                    )
                )
            else:
                first[lang, looks] = card_id, doc, name
    return problems


def repeated_words(doc: Doc) -> list[Problem]:
    """A word that a word list (one language's, all its levels) holds twice, at the second copy's line:
    two cards could show it. Compared as it looks and in lower case, as it is said at the table; not
    casefolded, which would make the German Maße and Masse one word."""
    problems = []
    first: dict[str, KeyPath] = {}
    for level, words in doc.data.items():
        for index, word in enumerate(words if isinstance(words, list) else ()):
            looks = writing.looks(word).lower() if isinstance(word, str) else ""
            if not looks:
                continue
            if looks in first:
                before = first[looks]
                problems.append(
                    Problem(
                        doc.where((level, index)),
                        f"{level}.{index}: '{word}' is in the list already, at line {doc.where(before).line} "
                        f"({dotted(before)}); give each card words of its own",
                    )
                )
            else:
                first[looks] = (level, index)
    return problems
