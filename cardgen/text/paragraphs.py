"""ReportLab paragraphs of cardgen's own making: lines of (font, text) runs in; a Flowable out.

Paragraph markup is generated here from escaped text only, so a deck's text
never reaches ReportLab's markup parser as markup (CVE-2023-33733), and every
run names its exact face because ``<font name>`` resets ``<b>``/``<i>``; where
it can, the paragraph is made of fragments without the parser at all.
These are the cards' paragraphs; a document's text is cardgen.documents.text.
"""

from __future__ import annotations

import multiprocessing.util
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Paragraph
from reportlab.platypus import paragraph as rl_paragraph

from cardgen.cards.icons import INLINE_CALLBACK
from cardgen.core import reportlab_private
from cardgen.text.fonts import ICON


@dataclass(frozen=True)
class Layout:
    paragraph: Flowable
    height: float  # pt
    too_wide: float  # pt


def excess(value: float, limit: float) -> float:
    """How much value exceeds limit, ignoring rounding noise."""
    return value - limit if value > limit + reportlab_private.FUZZ else 0.0


class _Made(Paragraph):
    """A paragraph of fragments cardgen made itself. Its text, the markup ReportLab would parse into
    the same fragments, is written only when asked for (a test, a debugger): nothing draws from it,
    and writing it for every size tried was a twentieth of fitting the cards' texts."""

    def __init__(
        self,
        lines: list[list[tuple[str, str]]] | None,
        style: ParagraphStyle,
        frags: list,
        bulletText: str | None = None,
    ):
        # ReportLab's split makes each part with the class's constructor, giving no lines: None.
        self.lines_made = lines
        super().__init__("", style, frags=frags, bulletText=bulletText)

    @property
    def text(self) -> str:
        return _markup(self.lines_made, self.style.fontSize) if self.lines_made is not None else ""

    @text.setter
    def text(self, value: str) -> None:
        pass  # Paragraph.__init__ stores the text it was given; this one is made from the lines

    @property
    def checked_lines(self) -> list[list[tuple[str, str]]]:
        """The lines, for laying out or splitting: the parts ReportLab's split makes without them are
        given theirs by _BrokenLines.split before anything lays them out."""
        if self.lines_made is None:
            raise ValueError("a part of a split paragraph was laid out before it was given its lines")
        return self.lines_made


class _BrokenLines(_Made):
    """A paragraph of one font in the lines cardgen broke, laid out and drawn by ReportLab as it does a
    paragraph of one font (a string a line), without breaking those lines again: split into fragments,
    a Chinese line took ReportLab four times as long to lay out and draw."""

    def breakLines(self, width):
        # What Paragraph.breakLines returns for a paragraph of one fragment: its words by line, each
        # line with the room left on it (by which centred lines are placed).
        max_width = width[0] if isinstance(width, (list, tuple)) else width
        frag = self.frags[0]
        font, size = frag.fontName, frag.fontSize
        ascent, descent = pdfmetrics.getAscentDescent(font, size)
        lines = []
        for line in self.checked_lines:
            text = "".join(text for _, text in line)
            words = rl_paragraph.split(rl_paragraph.strip(text))
            lines.append((max_width - stringWidth(" ".join(words), font, size), words))
        return frag.clone(kind=0, lines=lines, ascent=ascent, descent=descent, fontSize=size)

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        # ReportLab makes the parts with the paragraph's class, without lines: each gets its own.
        parts = super().split(available_width, available_height)
        if len(parts) == 2:
            count = len(parts[0].blPara.lines)
            lines = self.checked_lines
            parts[0].lines_made, parts[1].lines_made = lines[:count], lines[count:]
        return parts


def in_one_font(lines: list[list[tuple[str, str]]], style: ParagraphStyle) -> Paragraph | None:
    """Lines cardgen broke, when all are in one font (most Chinese texts: the CJK font has the Latin
    letters too), as a paragraph of one font; else None. Its style must not have wordWrap="CJK",
    with which ReportLab would break the lines again."""
    fonts = {font for line in lines for font, _ in line}
    if len(fonts) != 1 or ICON in fonts:
        return None
    return _BrokenLines(lines, style, [_font_frag(fonts.pop(), style, "")])


def wrapped(lines: list[list[tuple[str, str]]], style: ParagraphStyle, box_width: float) -> Paragraph:
    paragraph = unparsed(lines, style)
    paragraph.wrap(box_width, 1e9)
    return paragraph


# What ReportLab's paragraph parser does to the text between two tags, which _frags does without it: the
# text of each line is split on whitespace and joined by single spaces (cleanBlockQuotedText), and
# every character reference (_markup escapes &, < and >) is a fragment of its own.
_WHITESPACE = re.compile(f"[{re.escape(reportlab_private.WHITESPACE)}]+")
_REFERENCES = re.compile(r"([&<>])")


def _frags(lines: list[list[tuple[str, str]]], style: ParagraphStyle) -> list | None:
    """The fragments ReportLab's parser makes of _markup(lines), made without parsing it (the
    parse is a fifth of fitting a card's texts); None where the parser is needed: an inline icon."""
    frags = []
    for number, line in enumerate(lines):
        if number:
            frags.append(_sized(_frag("<br/>", style.fontName), style))
        for font, text in line:
            if font == ICON or "\n" in text:
                return None
            for part in _REFERENCES.split(_WHITESPACE.sub(" ", text)):
                if part:
                    frags.append(_font_frag(font, style, part))
    return frags or None


@cache
def _frag(markup: str, base: str):
    """The parser's one fragment of a markup in a paragraph whose style's font is `base`."""
    (frag,) = Paragraph(markup, ParagraphStyle("frag", fontName=base)).frags
    return frag


def _font_frag(font: str, style: ParagraphStyle, text: str):
    """The parser's fragment of `text` in `font`, in a paragraph of that style."""
    return _sized(_frag(f"{_font_tag(font)}x</font>", style.fontName), style, text)


def _sized(frag, style: ParagraphStyle, text: str | None = None):
    # As the parser makes them: the size and colour are the style's, and each fragment has lists of its own.
    return frag.clone(
        fontSize=style.fontSize,
        textColor=style.textColor,
        link=[],
        us_lines=[],
        **({} if text is None else {"text": text}),
    )


def extra_space(line) -> float:
    """Room left on a laid-out ReportLab line; negative when the line is too wide."""
    return line[0] if isinstance(line, tuple) else line.extraSpace


def unparsed(lines: list[list[tuple[str, str]]], style: ParagraphStyle) -> Paragraph:
    """The paragraph of lines of (font, text) runs, made of fragments without ReportLab's parser
    where _frags can, else parsed."""
    frags = _frags(lines, style)
    if frags is None:
        return Paragraph(_markup(lines, style.fontSize), style)
    return _Made(lines, style, frags)


_PIXEL = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360606060000000050001a5f645400000000049454e44ae426082"
)


@lru_cache(maxsize=1)
def _spacer() -> str:
    """A transparent pixel on disk: inline icons reserve their room in the line with it
    (ReportLab 5 opens paragraph images from plain file paths only, not data: URIs). It lives in a
    folder of this process's own: a shared name in the temporary folder could be another user's
    symbolic link, which writing the pixel would follow."""
    folder = tempfile.mkdtemp(prefix="cardgen-")
    path = Path(folder) / "spacer.png"
    path.write_bytes(_PIXEL)
    # Run at exit by the main process and by worker processes alike (atexit is not, in workers).
    multiprocessing.util.Finalize(None, _remove_spacer, args=(folder, os.getpid()), exitpriority=0)
    return str(path)


def _remove_spacer(folder: str, owner: int) -> None:
    # A forked worker inherits this; only the process that made the folder removes it.
    if os.getpid() == owner:
        shutil.rmtree(folder, ignore_errors=True)


def _piece(font: str, text: str, size: float) -> str:
    if font == ICON:
        # The callback draws the card's icon where the line reaches it; the spacer keeps its room.
        return (
            f"<onDraw name={quoteattr(INLINE_CALLBACK)} label={quoteattr(text)}/>"
            f'<img src={quoteattr(_spacer())} width="{size:.2f}" height="{size:.2f}" valign="baseline"/>'
        )
    return f"{_font_tag(font)}{escape(text)}</font>"


@cache
def _font_tag(font: str) -> str:
    return f"<font name={quoteattr(font)}>"


def _markup(lines: list[list[tuple[str, str]]], size: float) -> str:
    """Paragraph markup from (font, text) runs per line; all text is escaped."""
    return "<br/>".join("".join(_piece(font, text, size) for font, text in line if text) for line in lines)
