"""ReportLab's private names that cardgen relies on, in one place: ReportLab objects in, the values
cardgen reads from them out, the one change cardgen makes to ReportLab's tables, and a canvas's pages
written out as they end (``SpilledPages``).

Each is here because ReportLab offers no public way to the same thing, and each was checked with
the ReportLab versions pyproject.toml allows (5.1 up to 6): a new major version is to be checked
against this list first. Only modules that draw import this one, so it loads ReportLab freely.
"""

from __future__ import annotations

from typing import Any, BinaryIO

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.platypus import paragraph as _paragraph
from reportlab.rl_config import _FUZZ

# How much wider than its box ReportLab lets a line be before it breaks it: rounding noise.
FUZZ: float = _FUZZ
# The characters ReportLab's line breaking takes for white space: cardgen's own breaking agrees with it.
WHITESPACE: str = _paragraph._wsc


def bullet_width(bullet: str | None, style: Any, widths: list[float]) -> None:
    """Shortens widths[0] by the room a bullet wider than the style's indent takes, as a paragraph does."""
    _paragraph._handleBulletWidth(bullet, style, widths)


def text_position(canvas: Any) -> tuple[float, float, float]:
    """Where a paragraph's line has reached when it calls an onDraw callback: x, y and the font size."""
    info = canvas._curr_tx_info
    return info["cur_x"], info["cur_y"], info["tx"]._fontsize or info["xs"].style.fontSize


def call_inline(canvas: Any, name: str, label: str, text: Any, x: float, y: float) -> None:
    """Calls the canvas's onDraw callback `name` as a paragraph's line does on reaching x, y (the text
    object `text` holding the line's font), so that text_position tells it where it is."""
    canvas._curr_tx_info = {"tx": text, "cur_x": x, "cur_y": y}
    try:
        canvas.getNamedCB(name)(canvas, "onDraw", label)
    finally:
        del canvas._curr_tx_info


def draw_bullet(canvas: Any, offset: float, baseline: float, bullet: str, style: Any) -> float:
    """Draws a paragraph's bullet as the paragraph does, before its first line's baseline; returns
    how far that line's text starts past the indent (further, where the bullet reaches past it)."""
    return _paragraph._drawBullet(canvas, offset, baseline, bullet, style, rtl=False)


def table_rows(table: Any) -> int:
    """How many rows a platypus Table holds."""
    return len(table._cellvalues)


def kept_together(keep: Any) -> list:
    """The flowables a KeepTogether holds."""
    return keep._content


def frame_left(frame: Any) -> float:
    """A platypus Frame's left edge, in points."""
    return frame._x1


class SpilledPages:
    """A canvas's pages written out as they end, not held until it saves: each page's content stream is
    formatted as ReportLab formats it (compression and all) into `spill`, a temporary file, and only its
    place there is kept. When the canvas saves to `out` (the file it was made with), the document's
    objects go straight to `out` in ReportLab's own order, each stream copied from the spill as its turn
    comes, so the bytes, offsets and cross-reference table are those canvas.save() writes without this.

    Reached into: the page list (doc.Pages.pages), a page's `stream` before PDFPage.check_format turns it
    into a PDFStream (repeated in _ended, with its filters), and the PDFFile that PDFDocument.format
    collects the document in (its `__accum__` while it formats, whose `strings` it joins at the end and
    whose `write` its `add` calls): from the first spilled stream on, `write` goes to `out`."""

    def __init__(self, canvas: Any, out: BinaryIO, spill: BinaryIO):
        if not isinstance(canvas._doc.encrypt, pdfdoc.NoEncryption):
            # An encrypted stream is encoded with its object's number, known only when the document is written.
            raise ValueError("an encrypted PDF cannot be spilled page by page")
        self.canvas, self.out, self.spill = canvas, out, spill
        self.writing = False  # whether the document's objects go to `out` yet
        canvas.setPageCallBack(self._ended)

    def _ended(self, number: int) -> None:
        doc = self.canvas._doc
        page = doc.Pages.pages[-1]
        stream = pdfdoc.PDFStream()
        if page.compression:
            stream.filters = (
                [pdfdoc.PDFBase85Encode, pdfdoc.PDFZCompress] if rl_config.useA85 else [pdfdoc.PDFZCompress]
            )
        stream.content = page.stream
        data = stream.format(doc)
        page.Contents, page.stream = _Spilled(self, self.spill.tell(), len(data)), None
        self.spill.write(data)

    def read(self, document: Any, offset: int, length: int) -> bytes:
        """A spilled stream, when the document asks for it; from the first on, the document is written to `out`."""
        if not self.writing:
            collected = document.__accum__
            self.out.write(b"".join(collected.strings))
            collected.strings.clear()
            collected.write = self.out.write
            self.writing = True
        self.spill.seek(offset)
        return self.spill.read(length)


class _Spilled(pdfdoc.PDFObject):
    """A page's content stream, formatted and kept in a spill file; it stands where the page's PDFStream
    would (an object of its own, with the same comment)."""

    __RefOnly__ = 1
    __Comment__ = "page stream"

    def __init__(self, pages: SpilledPages, offset: int, length: int):
        self.pages, self.offset, self.length = pages, offset, length

    def format(self, document: Any) -> bytes:
        return self.pages.read(document, self.offset, self.length)
