"""Card text markup: a deck's text string in, a tuple of styled spans out.

The markup (docs/deck-format.md) has four marks and nothing else: ``**bold**``,
``*italic*``, a line break where the text has one, and ``:card-id:``, a card's
icon inline (only for ids the caller names as icons; any other ``:word:`` is
text). Every other character, ``<``, ``&`` and ``>`` included, is text. Input is normalised to NFC because
the PDF is drawn without shaping, where decomposed accents stack wrongly.

A backslash makes the mark character after it text: ``\\*`` prints ``*`` and pairs with nothing,
``\\:`` prints ``:`` and starts no icon, ``\\\\`` prints one backslash. Before any other character a
backslash is text itself, so a path or a smiley prints as typed.

Asterisks pair up like Markdown emphasis, simplified: a run of one, two or
three asterisks is a mark; it can open when the next character is not
whitespace and close when the previous one is not; a closer pairs with the
nearest open mark of its kind. Marks left unpaired stay literal asterisks.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """A piece of text in one style; text may contain "\\n" (a line break)."""

    text: str
    bold: bool = False
    italic: bool = False
    icon: str | None = None  # a card id: the span is that card's icon, drawn inline
    lang: str | None = None  # the text's language where it is not the paragraph's (a bilingual card's
    # second name): its characters take that language's fonts and line breaks


BOLD, ITALIC = "**", "*"
# A run of three is bold and italic at once; longer runs are not marks.
_KINDS_BY_RUN = {1: (ITALIC,), 2: (BOLD,), 3: (BOLD, ITALIC)}
_TOKEN = re.compile(r"\*+|[^*]+")


@dataclass
class _Mark:
    kind: str
    paired: bool = False
    opens: bool = False


@dataclass
class _Run:
    """A run of asterisks; flanking whitespace decides whether it may open or close."""

    marks: list[_Mark]
    can_open: bool
    can_close: bool
    at: int = 0  # where the run starts in the text


_ICON = re.compile(r"(?<![\w:]):([a-z0-9]+(?:-[a-z0-9]+)*):(?![\w:])")

ESCAPABLE = "\\*:"
_ESCAPE = re.compile(r"\\([\\*:])")
# While marks are found, an escape is held as two Unicode noncharacters (kept for a program's own use,
# never text): the backslash's, dropped at the end, and the character's, which no mark's pattern
# matches. Two characters for two keep every position in the text where the designer wrote it.
_GONE = "\ufdd0"
_HELD = {char: chr(0xFDD1 + index) for index, char in enumerate(ESCAPABLE)}
_RELEASE = str.maketrans({_GONE: None, **{held: char for char, held in _HELD.items()}})


def _hold(text: str) -> str:
    if "\\" not in text:
        return text
    return _ESCAPE.sub(lambda match: _GONE + _HELD[match.group(1)], text)


def _release(text: str) -> str:
    return text.translate(_RELEASE)


def parse(text: str, icons: Collection[str] = ()) -> tuple[Span, ...]:
    """Card text with markup → spans, adjacent spans of one style merged; `:id:` for an id
    in `icons` becomes an icon span."""
    text = unicodedata.normalize("NFC", text).rstrip()
    if "*" not in text and "\\" not in text and (":" not in text or not icons):
        return (Span(text),) if text else ()  # most texts: no mark, no escape, no icon
    held = _hold(text)
    tokens = _tokenize(held)
    _pair(tokens)
    spans = _merge([piece for span in _spans(tokens) for piece in _icons(span, icons)])
    if held is text:
        return spans
    return tuple(Span(_release(s.text), s.bold, s.italic, s.icon, s.lang) for s in spans)


def _icons(span: Span, icons: Collection[str]) -> list[Span]:
    if not icons:
        return [span]
    pieces, start = [], 0
    for match in _ICON.finditer(span.text):
        if match.group(1) in icons:
            pieces += [
                Span(span.text[start : match.start()], span.bold, span.italic),
                Span(match.group(), span.bold, span.italic, icon=match.group(1)),
            ]
            start = match.end()
    return pieces + [Span(span.text[start:], span.bold, span.italic)]


def _tokenize(text: str) -> list[str | _Run]:
    tokens: list[str | _Run] = []
    for match in _TOKEN.finditer(text):
        piece = match.group()
        kinds = _KINDS_BY_RUN.get(len(piece)) if piece[0] == "*" else None
        if kinds is None:
            tokens.append(piece)
            continue
        before = text[match.start() - 1] if match.start() > 0 else " "
        after = text[match.end()] if match.end() < len(text) else " "
        tokens.append(_Run([_Mark(k) for k in kinds], not after.isspace(), not before.isspace(), match.start()))
    return tokens


def unpaired(text: str) -> list[tuple[int, str, bool]]:
    """Marks that could open or close a style but found no partner, so they print as written:
    (where in the NFC text, the mark, whether it opened), for a designer who left a `**` unclosed."""
    if "*" not in text:
        return []  # most texts: nothing to pair
    tokens = _tokenize(_hold(unicodedata.normalize("NFC", text).rstrip()))
    _pair(tokens)
    found = []
    for run in tokens:
        if isinstance(run, _Run) and (run.can_open or run.can_close):
            lone = [mark for mark in run.marks if not mark.paired]
            if lone:
                found.append((run.at, "".join(mark.kind for mark in lone), any(mark.opens for mark in lone)))
    return found


def icon_names(text: str) -> list[tuple[int, str]]:
    """Every `:word:` that would be a card's icon if a card of that id had one: (where, id)."""
    if ":" not in text:
        return []
    return [(match.start(), match.group(1)) for match in _ICON.finditer(_hold(unicodedata.normalize("NFC", text)))]


def _pair(tokens: list[str | _Run]) -> None:
    """Pairs each closing mark with the nearest open mark of its kind."""
    open_marks: dict[str, list[_Mark]] = {BOLD: [], ITALIC: []}
    for run in tokens:
        if isinstance(run, str):
            continue
        for mark in run.marks:
            stack = open_marks[mark.kind]
            if stack and run.can_close:
                opener = stack.pop()
                opener.paired = mark.paired = True
            elif run.can_open:
                mark.opens = True
                stack.append(mark)


def _spans(tokens: list[str | _Run]) -> list[Span]:
    spans: list[Span] = []
    depth = {BOLD: 0, ITALIC: 0}
    for token in tokens:
        if isinstance(token, str):
            spans.append(Span(token, depth[BOLD] > 0, depth[ITALIC] > 0))
            continue
        for mark in token.marks:
            if mark.paired:
                depth[mark.kind] += 1 if mark.opens else -1
            else:
                spans.append(Span(mark.kind, depth[BOLD] > 0, depth[ITALIC] > 0))
    return spans


def _merge(spans: list[Span]) -> tuple[Span, ...]:
    merged: list[Span] = []
    for span in spans:
        if not span.text:
            continue
        last = merged[-1] if merged else None
        if last and not (last.icon or span.icon) and (last.bold, last.italic) == (span.bold, span.italic):
            merged[-1] = Span(last.text + span.text, span.bold, span.italic)
        else:
            merged.append(span)
    return tuple(merged)
