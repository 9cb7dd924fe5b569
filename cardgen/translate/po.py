"""Texts as a gettext PO file and back: ``Text`` records and a language in, a ``polib.POFile`` out (an
entry a text: its key as msgctxt, the source text as msgid, the translation as msgstr, where it is written
as the occurrence and what it belongs to as the extracted comment); a PO file in, its entries, its
language and game, or the problems that stop reading it, at their line.

A plural of cardgen's own words (``{one: ..., other: ...}``) is a gettext plural: the forms a language
has are the forms cardgen picks from, ``one`` for exactly one and ``other`` for the rest, or ``other``
alone in the languages that do not inflect a noun for number.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib

from cardgen import __version__
from cardgen.core.problems import DeckError, Problem, Where
from cardgen.translate.texts import PLURAL, Text

GAME_HEADER = "X-Cardgen-Game"
# The languages whose nouns do not change with a count: one form, `other`.
_ONE_FORM = frozenset({"ja", "ko", "zh", "vi", "th", "id", "ms", "lo", "km", "my", "yue"})
# A placeholder cardgen fills in ({n}, {name}): Poedit and msgfmt -c check that a translation keeps each.
_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def forms(lang: str) -> int:
    """How many plural forms `lang` has in cardgen's words."""
    return 1 if lang.split("-")[0] in _ONE_FORM else 2


def _plural_forms(lang: str) -> str:
    return "nplurals=1; plural=0;" if forms(lang) == 1 else "nplurals=2; plural=(n != 1);"


def export(texts: list[Text], lang: str, game: str) -> polib.POFile:
    """The PO file of `texts` for translating into `lang`, from `game`."""
    po = polib.POFile(wrapwidth=0)  # no wrapping: a long text stays one line, searchable in the file
    po.header = (
        f"The texts of {game} and cardgen's own words, to translate into {lang}.\n"
        "Each msgctxt is the file and key of a text: keep them. When done: cardgen translate import FILE"
    )
    po.metadata = {
        "Project-Id-Version": f"{game} (cardgen {__version__})",
        # gettext's blanks, which Poedit fills in as the translator saves: an export is the same each time.
        "PO-Revision-Date": "YEAR-MO-DA HO:MI+ZONE",
        "Last-Translator": "FULL NAME <EMAIL@ADDRESS>",
        "Language-Team": "LANGUAGE <LL@li.org>",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": _plural_forms(lang),
        "X-Source-Language": texts[0].source if texts else "en",
        GAME_HEADER: game,
    }
    for text in texts:
        po.append(_entry(text, lang))
    return po


def _entry(text: Text, lang: str) -> polib.POEntry:
    source, current = text.english, text.values.get(lang)
    english = " ".join(source.values()) if text.plural else source
    entry = polib.POEntry(
        msgctxt=text.key,
        comment=text.owner,
        occurrences=[(text.shown, str(text.line))],
        flags=["python-brace-format"] if text.key.startswith("templates/") and _PLACEHOLDER.search(english) else [],
    )
    if text.plural:
        entry.msgid = source.get("one", source["other"])
        entry.msgid_plural = source["other"]
        current = current if isinstance(current, dict) else {}
        wanted = PLURAL[-forms(lang) :]
        entry.msgstr_plural = {index: _text(current.get(form)) for index, form in enumerate(wanted)}
    else:
        entry.msgid, entry.msgstr = source, _text(current)
    return entry


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def english_of(entry: polib.POEntry, text: Text) -> bool:
    """Whether an entry's source text is still the text's."""
    if not text.plural:
        return entry.msgid == text.english and not entry.msgid_plural
    source = text.english
    return entry.msgid == source.get("one", source["other"]) and entry.msgid_plural == source["other"]


def translation(entry: polib.POEntry, lang: str) -> str | dict | None:
    """An entry's translation as the YAML holds it (a plural as its forms), or None when it has none."""
    if entry.msgid_plural:
        wanted = PLURAL[-forms(lang) :]
        found = {form: entry.msgstr_plural.get(index, "") for index, form in enumerate(wanted)}
        return found if all(found.values()) else None
    return entry.msgstr or None


def read(path: Path, shown: str) -> tuple[polib.POFile, str, str]:
    """A PO file, its language and its game."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DeckError([Problem(Where(shown), f"cannot read the PO file: {exc.strerror or exc}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DeckError([Problem(Where(shown, line), "not UTF-8 text; save the PO file as UTF-8")]) from None
    try:
        # polib takes text that is no file's name as the file's content.
        po = polib.pofile(text, wrapwidth=0)
    except (OSError, ValueError) as exc:
        found = re.search(r"\(line (\d+)\)(?::\s*(.*))?", str(exc))
        at = int(found.group(1)) if found else None
        detail = found.group(2) if found and found.group(2) else "a line that is no part of a PO entry"
        raise DeckError([Problem(Where(shown, at), f"not a readable PO file: {detail}")]) from None
    lang, game = (po.metadata.get(field, "").strip() for field in ("Language", GAME_HEADER))
    if not lang or not game:
        missing = "Language" if not lang else GAME_HEADER
        raise DeckError(
            [
                Problem(
                    Where(shown, 1), f"the PO file's header has no {missing}: import a file cardgen translate exported"
                )
            ]
        )
    return po, lang, game
