"""The fewest pages a document can take, foreseen without laying it out: the XML a template made, the
font book, the language, the document's style and its page size in, a number of pages out
(``least_pages``), or the error of a document that will run past MAX_PAGES (``foresee``).

Each element of the XML takes at least the lines its text needs at its style's size and leading
(headings, paragraphs, bullets, roles, script steps; a table a line a row), and a text needs at least
its width without spaces over the column's width, plus an em: a line breaker may hang a closing mark
past the edge. A heading that breaks the page (break="yes") starts a part of its own pages. Spaces
before and after elements, indents, kept-together roles that move to the next
column and every second line a text breaks onto for want of room only add pages, so the sum of these
heights over the columns' height is a lower bound: a document foreseen past MAX_PAGES will run past
it when laid out, and one that is not may still do so (its layout says so then).
"""

from __future__ import annotations

import functools
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Collection, Mapping

from reportlab.pdfbase import pdfmetrics

from cardgen.core import limits
from cardgen.core.problems import DeckError, Problem, Where
from cardgen.core.units import Size, pt
from cardgen.text import markup
from cardgen.text.fonts import ICON, FontBook

# What takes no width on a line: spaces (a line breaks at one and does not draw it) and soft hyphens.
_UNDRAWN = re.compile(r"[\s\u00ad]")
_BULLET = re.compile(r"(?m)^- ")
# The size (styles.yaml's `sizes`) of each of flowables.Builder's paragraph styles a `p` may name.
_SIZES = {"p": "body", "li": "body", "cell": "small", "step-say": "body", "step-do": "do"}


@functools.lru_cache(maxsize=8192)
def spans(text: str, icons: frozenset[str]) -> tuple[markup.Span, ...]:
    """A document's text in spans (markup.parse): the estimate here and the layout after it (flowables)
    read the same texts, and a rulebook and a script many of the same, each parsed once."""
    return markup.parse(text, icons)


def least_pages(xml: str, book: FontBook, lang: str, style: Mapping, page: Size, icons: Collection[str]) -> int:
    """At least how many pages the document of `xml` lays out on pages of `page` size in `style`."""
    sizes, leading = style["sizes"], max(style["leading"], book.leading(lang))
    margins, columns = style["margins"], style["columns"]
    width = pt(page.w - margins["left"] - margins["right"] - style["column-gap"] * (columns - 1)) / columns
    column = pt(page.h - margins["top"] - margins["bottom"])
    joiner = "" if book.is_cjk(lang) else " "
    icons = frozenset(icons)

    def height(text: str, size_key: str, bold: bool = False, italic: bool = False) -> float:
        """The least height of a paragraph of `text`: none when it is empty."""
        size = sizes[size_key]
        drawn = 0.0
        for span in spans(text, icons):
            for font, piece in book.runs(markup.Span(span.text, span.bold or bold, span.italic or italic), lang):
                if font != ICON:
                    drawn += pdfmetrics.stringWidth(_UNDRAWN.sub("", piece), font, size)
        lines = math.ceil(drawn / (width + size)) if drawn else (1 if text.strip() else 0)
        return lines * size * leading

    # A heading with break="yes" starts a page: the parts between such breaks are on pages of their own.
    parts, total = [], 0.0
    for element in ET.fromstring(xml):
        tag, text = element.tag, element.text or ""
        if tag in ("h1", "h2", "h3"):
            if element.get("break") == "yes" and total:
                parts.append(total)
                total = 0.0
            total += height(text, tag, bold=True)
        elif tag == "p":
            # A class names one of flowables.Builder's styles; one of no size known here counts at the least.
            size = _SIZES.get(element.get("class", "p"), element.get("class", "p"))
            total += height(text, size if size in sizes else min(sizes, key=sizes.get))
        elif tag == "item":
            total += height(text, "body")
        elif tag == "blocks":
            # Blank lines part paragraphs, and "- " starts a bullet, drawn in the margin; a paragraph's lines
            # are joined as flowables.Builder joins them.
            total += sum(
                height(joiner.join(_BULLET.sub("", block).split("\n")), "body") for block in re.split(r"\n\s*\n", text)
            )
        elif tag == "table":
            total += sum(sizes["small"] * leading for row in element.findall("tr") if any(c.text for c in row))
        elif tag == "role":
            total += height(element.get("name", ""), "body", bold=True) + height(text, "body")
        elif tag == "step":
            kind = element.get("kind", "say")
            total += height(text, "body" if kind == "say" else "do", italic=kind == "do")
    return max(1, sum(math.ceil(part / (column * columns)) for part in [*parts, total]))


def foresee(
    xml: str, book: FontBook, lang: str, style: Mapping, page: Size, icons: Collection[str], what: str, where: Where
) -> None:
    """A DeckError at `where` (the game's file), before any layout, for a document (`what`: the game,
    the language and the kind) that will run past MAX_PAGES."""
    least = least_pages(xml, book, lang, style, page, icons)
    if least > limits.MAX_PAGES:
        raise DeckError(
            [
                Problem(
                    where,
                    f"{what} would run to at least {least} pages, {least - limits.MAX_PAGES} past the "
                    f"{limits.MAX_PAGES} a document may have: split the game, or shorten its texts or its template",
                )
            ]
        )
