"""cardgen's own phrases (templates/documents/text.yaml, templates/strings.yaml): a table of phrases by
language and a language in, that language's phrases (English beneath) out; a phrase and values in, the
phrase with its ``{placeholders}`` filled in out.

str.format would choke on braces a translator wrote; only our own names are replaced.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


def fill(text: str, **values) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", str(value))
    return text
