"""cardgen's own phrases (templates/documents/text.yaml, templates/strings.yaml): a table of phrases by
language and a language in, that language's phrases (English beneath) out; a phrase and values in, the
phrase with its ``{placeholders}`` filled in out; a number cardgen writes and a language's digits in
(strings.yaml's ``digits``, such as Persian's ۰۱۲۳۴۵۶۷۸۹), the number in those digits out.

str.format would choke on braces a translator wrote; only our own names are replaced.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from cardgen.core.problems import DeckError, Problem, Where

# What a missing translation is replaced by, in a deck and in cardgen's own phrases.
FALLBACK = "en"


def fallback_language(languages: list[str]) -> str:
    """What a deck's missing translation is replaced by: English if the game has it, else its first language."""
    return FALLBACK if FALLBACK in languages else languages[0]


def block(table: Any, lang: str) -> Mapping:
    """A language's own block of a table of phrases by language; one that is not a mapping counts as empty."""
    found = table.get(lang) if isinstance(table, Mapping) else None
    return found if isinstance(found, Mapping) else {}


def in_language(table: Any, lang: str, deep: tuple[str, ...] = ()) -> dict:
    """A language's block of a table of phrases by language, with English's beneath it for what it lacks;
    the mappings under the `deep` keys merged the same way."""
    merged = {**block(table, FALLBACK), **block(table, lang)}
    for key in deep:
        merged[key] = {**block(table, FALLBACK).get(key, {}), **block(table, lang).get(key, {})}
    return merged


def fill(text: str, digits: str | None = None, **values) -> str:
    """The phrase with each {placeholder} replaced by its value, numbers in the language's `digits`."""
    for key, value in values.items():
        text = text.replace("{" + key + "}", numeral(value, digits) if is_number(value) else str(value))
    return text


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def numeral(value: object, digits: str | None) -> str:
    """A number (or a text of cardgen's own made of numbers, such as "5–8") with its digits 0 to 9 written
    in `digits`, the language's ten; as Python writes it where the language has none."""
    text = str(value)
    return text.translate(_table(digits)) if digits else text


@functools.cache
def _table(digits: str) -> dict[int, int]:
    return str.maketrans("0123456789", digits)


def language_digits(table: Any, lang: str, where: str) -> str | None:
    """A language's digits in a table of phrases by language (its block's `digits`, zero to nine), or None
    where it writes 0 to 9; a DeckError at `where` (the table's file) for an entry that is not ten characters."""
    digits = block(table, lang).get("digits")
    if digits is None:
        return None
    if not isinstance(digits, str) or len(digits) != 10:
        message = f"{lang}: digits must be the language's ten digits, zero to nine, in one text, not {digits!r}"
        raise DeckError([Problem(Where(where), message)])
    return digits
