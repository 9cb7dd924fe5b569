"""ReportLab's private names that cardgen relies on, in one place: ReportLab objects in, the values
cardgen reads from them out, the one change cardgen makes to ReportLab's tables, and a canvas's pages
written out as they end (``SpilledPages``).

Each is here because ReportLab offers no public way to the same thing, and each was checked with
the ReportLab versions pyproject.toml allows (5.1 up to 6): a new major version is to be checked
against this list first. Only modules that draw import this one, so it loads ReportLab freely.

Also here, because they read and write a canvas's content as ReportLab keeps it: drawings a canvas
repeats written again from what ReportLab wrote the first time (``Repeats``), and a form's content
made on one canvas made into the same form on another (``record_form``, ``replay_form``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, ttfonts
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


def begin_actual_text(text: Any, actual: str) -> None:
    """Opens marked content in a text object whose /ActualText is `actual`: what a PDF reader extracts
    for the glyphs drawn until :func:`end_marked` (a text object offers no way to write an operator)."""
    hex_text = "FEFF" + actual.encode("utf-16-be").hex().upper()
    text._code.append(f"/Span <</ActualText <{hex_text}>>> BDC")


def end_marked(text: Any) -> None:
    """Closes the marked content :func:`begin_actual_text` opened."""
    text._code.append("EMC")


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


class Repeats:
    """Drawings a canvas repeats (a card's copies, a group's backs), each drawn by ReportLab the first
    time and written again after from what it wrote then: its operators, and the forms and images it
    placed (a page lists those it uses). The same bytes, without building the same paths, colours and
    text again.

    A drawing is repeated by `key`, which must name everything it depends on besides the canvas's state
    (whose parts that ReportLab writes differently from are added to the key). Its own changes of state
    it must undo (between saveState and restoreState), and it must leave the content before it as it was
    (a transformation first merges into one before it): one that does not, or that does more than add
    operators and place forms (a link, a colour separation, a shading), is drawn anew each time. The last
    `kept` drawings are kept, so that a deck of thousands of different cards is drawn in the same memory."""

    def __init__(self, canvas: Any, kept: int):
        self.canvas, self.kept = canvas, kept
        self.drawn: dict[Hashable, tuple[tuple[str, ...], tuple[str, ...]]] = {}

    def draw(self, key: Hashable, draw: Callable[[], None]) -> None:
        canvas = self.canvas
        code, forms = canvas._code, canvas._formsinuse
        key = (key, canvas._fontname, canvas._fontsize, canvas._leading, canvas._fillMode, _alphas(canvas))
        drawn = self.drawn.pop(key, None)
        if drawn is not None:
            code.extend(drawn[0])
            forms.extend(drawn[1])
            self.drawn[key] = drawn  # the most recently drawn last, the first to go the least recently
            return
        start, placed, before, others = len(code), len(forms), code[-1] if code else None, _others(canvas)
        draw()
        kept = canvas._code is code and canvas._formsinuse is forms and _others(canvas) == others
        if kept and (code[start - 1] is before if start else True):
            if len(self.drawn) >= self.kept:
                del self.drawn[next(iter(self.drawn))]
            self.drawn[key] = (tuple(code[start:]), tuple(forms[placed:]))


@dataclass(frozen=True)
class FormCode:
    """A form's content as ReportLab wrote it, and the PDF version its operators need."""

    code: tuple[str, ...]
    version: tuple[int, int]


def record_form(canvas: Any, name: str, width: float, height: float, draw: Callable[[], None]) -> FormCode | None:
    """Form `name`, from (0, 0) to (width, height), made on the canvas of what draw() draws; its content,
    where another canvas makes the same form of it: it names no resource (a font, a form, a transparency,
    named by each document) and uses nothing of the document's. A drawing that does is drawn anew each time."""
    document = canvas._doc
    version, document._pdfVersion = document._pdfVersion, (0, 0)  # to learn what the drawing needs
    try:
        canvas.beginForm(name, 0, 0, width, height)
        draw()
        code, needed = tuple(canvas._code), document._pdfVersion
        alone = not (
            canvas._formsinuse
            or canvas._annotationrefs
            or canvas._colorsUsed
            or canvas._shadingUsed
            or canvas._extgstate._c
            or any("/" in line for line in code)
        )
        canvas.endForm()
    finally:
        document._pdfVersion = max(version, document._pdfVersion)
    return FormCode(code, needed) if alone else None


def replay_form(canvas: Any, name: str, width: float, height: float, form: FormCode) -> None:
    """Form `name` made on the canvas of a recorded content: the form record_form made of the drawing."""
    canvas.beginForm(name, 0, 0, width, height)
    canvas._code.extend(form.code)
    canvas._doc._pdfVersion = max(canvas._doc._pdfVersion, form.version)
    canvas.endForm()


def place_form(canvas: Any, name: str, x: float, y: float, scale: float) -> None:
    """What canvas.saveState(), translate(x, y), scale(scale, scale), doForm(name) and restoreState()
    write, written without saving and restoring the canvas's state, which nothing between them changes.
    ReportLab merges the scaling into the translation as written, numbers read back from their text."""
    e, f = fp_str(x, y).split()
    xobject = canvas._doc.getXObjectName(name)
    canvas._code.extend(("q", f"{fp_str(scale, 0, 0, scale, float(e), float(f))} cm", f"/{xobject} Do", "Q"))
    canvas._formsinuse.append(name)


def _alphas(canvas: Any) -> tuple:
    # ReportLab writes a transparency only where it differs from the state's.
    return tuple(sorted(canvas._extgstate._d.items()))


def _others(canvas: Any) -> tuple:
    """What a page holds besides its operators and forms, which a repeated drawing must not add to."""
    return (
        len(canvas._annotationrefs),
        len(canvas._colorsUsed),
        len(canvas._shadingUsed),
        canvas._currentPageHasImages,
    )


class SpilledPages:
    """A canvas's pages written out as they end, not held until it saves: each page's content stream and
    its dictionary are formatted as ReportLab formats them (compression and all) into `spill`, a temporary
    file, and only their places there are kept. When the canvas saves to `out` (the file it was made
    with), the document's objects go straight to `out` in ReportLab's own order, each page's two copied
    from the spill as their turn comes, so the bytes, offsets and cross-reference table are those
    canvas.save() writes without this.

    Reached into: the page list (doc.Pages.pages) and the document's objects by name (doc.idToObject),
    where a page's stand-in replaces it; a page's `stream` before PDFPage.check_format turns it into a
    PDFStream (repeated in _ended, with its filters); PDFPage.format, run as the page ends with the
    document seen through _Early; and the PDFFile that PDFDocument.format collects the document in (its
    `__accum__` while it formats, whose `strings` it joins at the end and whose `write` its `add` calls):
    from the first spilled page on, `write` goes to `out`."""

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
        contents = self._put(stream.format(doc))
        page.Contents, page.stream = _Spilled(self, *contents), None
        try:
            # A copy: formatting sets the page's parent, boxes and resources, which a page kept in memory
            # must not have yet.
            dictionary = copy.copy(page).format(_Early(doc, page.Contents))
        except _Late:
            return  # the page keeps its dictionary in memory, to be formatted with the document
        kept = _SpilledPage(self, contents, self._put(dictionary))
        kept.__InternalName__ = name = page.__InternalName__
        doc.Pages.pages[-1] = doc.idToObject[name] = kept

    def _put(self, data: bytes) -> tuple[int, int]:
        """Writes `data` at the end of the spill file: where it is, and its length."""
        self.spill.seek(0, 2)
        offset = self.spill.tell()
        self.spill.write(data)
        return offset, len(data)

    def read(self, document: Any, offset: int, length: int) -> bytes:
        """Spilled bytes, when the document asks for them; from the first on, the document is written to `out`."""
        if not self.writing:
            collected = document.__accum__
            self.out.write(b"".join(collected.strings))
            collected.strings.clear()
            collected.write = self.out.write
            self.writing = True
        self.spill.seek(offset)
        return self.spill.read(length)


# Where a page's dictionary formatted as the page ends refers to objects numbered only when the document is
# written: its parent (the page tree) and its content stream. Bytes no formatted PDF object holds.
_PARENT, _CONTENTS = b"\0parent\0", b"\0contents\0"


class _Late(Exception):
    """A page refers to an object not numbered yet other than its parent and content stream."""


class _Mark(pdfdoc.PDFObject):
    """Stands for a reference formatted later: its mark, in the formatted dictionary."""

    def __init__(self, mark: bytes):
        self.mark = mark

    def format(self, document: Any) -> bytes:
        return self.mark


class _Early:
    """The document as a page formatted when it ends sees it: the same, except that its parent and its
    content stream are marks, and any other object not yet numbered stops it (numbering it now would
    change the numbers of everything after it)."""

    def __init__(self, document: Any, contents: Any):
        self._document = document
        self._marks = {id(document.Pages): _Mark(_PARENT), id(contents): _Mark(_CONTENTS)}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._document, name)

    def Reference(self, obj: Any, name: str | None = None) -> Any:  # noqa: N802 - ReportLab's name
        if id(obj) in self._marks:
            return self._marks[id(obj)]
        if isinstance(obj, _Mark):
            return obj
        plain = name is None and (not isinstance(obj, pdfdoc.PDFObject) or type(obj) is pdfdoc.PDFObjectReference)
        if not (plain or hasattr(obj, "__InternalName__")):
            raise _Late
        return self._document.Reference(obj, name)


class _SpilledPage(pdfdoc.PDFObject):
    """A page, its content stream and dictionary formatted and kept in a spill file; it stands where the
    PDFPage was, and numbers its parent and content stream in the order the PDFPage's format does."""

    __RefOnly__ = 1
    __Comment__ = pdfdoc.PDFPage.__Comment__

    def __init__(self, pages: SpilledPages, contents: tuple[int, int], dictionary: tuple[int, int]):
        self.pages, self.contents, self.dictionary = pages, contents, dictionary

    def format(self, document: Any) -> bytes:
        parent = document.Reference(document.Pages).format(document)
        contents = document.Reference(_Spilled(self.pages, *self.contents)).format(document)
        formatted = self.pages.read(document, *self.dictionary)
        return formatted.replace(_PARENT, parent).replace(_CONTENTS, contents)


class _Spilled(pdfdoc.PDFObject):
    """A page's content stream, formatted and kept in a spill file; it stands where the page's PDFStream
    would (an object of its own, with the same comment)."""

    __RefOnly__ = 1
    __Comment__ = "page stream"

    def __init__(self, pages: SpilledPages, offset: int, length: int):
        self.pages, self.offset, self.length = pages, offset, length

    def format(self, document: Any) -> bytes:
        return self.pages.read(document, self.offset, self.length)


def write_text_of_codes(texts: Mapping[int, str]) -> None:
    """Makes the text layer (ToUnicode map) of every TrueType subset ReportLab writes give a code found in
    `texts` that text, in place of the code itself: a shaped glyph is drawn through a code of its own."""
    make = ttfonts.makeToUnicodeCMap

    def with_texts(fontname: str, subset: list[int]) -> str:
        lines = make(fontname, subset).split("\n")
        first = lines.index(f"{len(subset)} beginbfchar") + 1
        for index, code in enumerate(subset):
            text = texts.get(code)
            if text is not None:
                lines[first + index] = f"<{index:02X}> <{text.encode('utf-16-be').hex().upper()}>"
        return "\n".join(lines)

    ttfonts.makeToUnicodeCMap = with_texts
