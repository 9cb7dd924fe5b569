"""Documents: the XML a Jinja2 template made in, PDF bytes out (rulebooks and scripts).

The templates (templates/documents/*.xml.j2) run with autoescape on, so every
value from a deck arrives here as character data, never as markup. This
module knows a handful of elements and turns them into ReportLab flowables,
running every text through the card markup (``**bold**``, ``*italic*``) and the
font book, so the documents get the same per-character font fallback,
escaping and CJK line breaking as the cards:

``h1`` ``h2`` ``h3`` headings; ``p`` a paragraph (``class="small"``);
``blocks`` text with blank-line paragraphs and ``- `` bullets; ``item`` one
bullet (attribute bullet: its mark, such as ``3.``); ``table`` with
``tr``/``th``/``td``; ``role`` (attributes name, label, color; text: the
ability); ``step`` (attribute kind: say, do or check) with a check box, split
across pages when it is long.

A right-to-left language's pages are mirrored: its columns are read from the right, its header and
page number stand at the right margin, its texts, lists and tables are set from the right, and its
booklet is bound at the right.
"""

from __future__ import annotations

import functools
import io
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    PageTemplate,
)

from cardgen.cards.icons import IconPainter
from cardgen.core import reportlab_private
from cardgen.core.limits import MAX_PAGES
from cardgen.core.pdfinfo import Info
from cardgen.core.units import Size, pt
from cardgen.documents import booklet
from cardgen.documents.flowables import Builder, cell_font
from cardgen.text import markup
from cardgen.text.fonts import FontBook
from cardgen.text.lines import draw_runs, line_width
from cardgen.text.shaping import starts_rtl


@dataclass(frozen=True)
class PageFurniture:
    """What every page shows at its top and bottom."""

    header: str
    footer: Callable[[int, int], str]  # (page, total) -> text


class TooManyPages(Exception):
    """A document that runs past MAX_PAGES: its layout is stopped there."""


def render_document(
    xml: str,
    book: FontBook,
    lang: str,
    style: Mapping,
    colors: Mapping,
    page: Size,
    furniture: PageFurniture,
    info: Info,
    icons: Mapping[str, tuple[Path, Color]],
    once: bool = False,
    sheet: Size | None = None,
) -> tuple[bytes, int]:
    """The PDF and its page count. It is laid out once: each page's header and footer ('page n
    of total') are drawn when the canvas is saved and the total is known. A document whose last
    page would hold only one or two lines is laid out again with the page before it shortened,
    so that at least three lines go over (`once`: never, it is only being checked).
    `icons` are the cards a text may show inline as `:card-id:`. With a `sheet`, the pages are
    imposed as a booklet two to a side of sheets of that size, and the count is of sheet sides."""
    root = ET.fromstring(xml)
    body_font = book.face(book.order(lang)[0], False, False)
    builder = Builder(book, lang, style, colors, body_font, frozenset(icons))
    margins = style["margins"]
    width, height = pt(page.w), pt(page.h)
    columns, gap = style["columns"], pt(style["column-gap"])
    inner_w = width - pt(margins["left"] + margins["right"])
    column_w = (inner_w - gap * (columns - 1)) / columns
    body_h = height - pt(margins["top"] + margins["bottom"])
    rtl = book.is_rtl(lang)

    def frames(shorter: float = 0.0) -> list[Frame]:
        """The page's columns, the last of them `shorter` pt shorter at its foot."""
        return [
            Frame(
                pt(margins["left"]) + (columns - 1 - i if rtl else i) * (column_w + gap),
                pt(margins["bottom"]) + cut,
                column_w,
                body_h - cut,
                id=f"column{i}",
                leftPadding=0,
                rightPadding=0,
                topPadding=0,
                bottomPadding=0,
            )
            for i in range(columns)
            for cut in [shorter if i == columns - 1 else 0.0]
        ]

    def furnish(canvas: Canvas, number: int, total: int) -> None:
        canvas.saveState()
        size = style["sizes"]["header"]
        for y, text in (
            (height - pt(margins["top"]) * 0.55, furniture.header),
            (pt(margins["bottom"]) * 0.45, furniture.footer(number, total)),
        ):
            runs = book.runs(markup.Span(text), lang)
            x = pt(margins["left"])
            if rtl:
                x = width - pt(margins["right"]) - line_width(tuple(runs), size)
            canvas.setFillColor(HexColor(colors["muted"]))
            # Shaped, and read right to left where the line starts with a right-to-left word (an English
            # template's "page ۱ of ۲" stays in its order).
            draw_runs(canvas, runs, x, y, size, rtl and starts_rtl(text))
        canvas.restoreState()

    def lay_out(short_page: int, shorter: float) -> tuple[bytes, Laid]:
        buffer = io.BytesIO()
        painters: list[IconPainter] = []

        def page_begins(canvas: FurnishedCanvas, doc) -> None:
            if doc.page > MAX_PAGES:
                raise TooManyPages(f"runs past {MAX_PAGES} pages")
            if not painters:
                # One painter per document, so that each icon becomes one form in it.
                painters.append(IconPainter(canvas, body_font))
                painters[0].register_inline(dict(icons))
            canvas.furniture_here()

        templates = [
            PageTemplate("page", frames=frames(), onPage=page_begins),
            PageTemplate("short", frames=frames(shorter), onPage=page_begins),
        ]
        # The first page is on the first template; after each page _Document picks the next one's.
        doc = _Document(
            buffer,
            short_page,
            pagesize=(width, height),
            invariant=1,
            title=info.title,
            author=info.author,
            subject=info.subject,
            creator=info.creator,
            lang=info.lang,
            initialFontName=body_font,
            pageTemplates=templates[::-1] if short_page == 1 else templates,
        )
        flowables = builder.flowables(root, column_w)
        cell_font(flowables, body_font)
        laid = Laid()
        doc.build(
            flowables,
            canvasmaker=functools.partial(
                FurnishedCanvas,
                furnish=furnish,
                laid=laid,
                sheet=(pt(sheet.w), pt(sheet.h)) if sheet else None,
                bound_right=rtl,
            ),
        )
        return buffer.getvalue(), laid

    pdf, laid = lay_out(0, 0.0)
    if not once and laid.total > 1:
        lines = laid.lines_on_last_page([reportlab_private.frame_left(frame) for frame in frames()])
        if lines < 3:
            leading = builder.styles["p"].leading
            pdf, laid = lay_out(laid.total - 1, (3 - lines + 0.5) * leading)
    return pdf, -(-laid.total // 4) * 2 if sheet else laid.total


@dataclass
class Laid:
    """What a document's layout came to: its page total, and where the lines of body text on its
    last page were drawn (x, y of each line's start on the page, pt)."""

    total: int = 0
    last_page: list[tuple[float, float]] = field(default_factory=list)

    def lines_on_last_page(self, columns: list[float]) -> int:
        """How many lines of text the last page's body holds, a line being a baseline in a column
        (`columns`: where each starts, pt): a table row's cells are one line."""
        return len({(sum(1 for start in columns if x >= start - 1), round(y)) for x, y in self.last_page})


class FurnishedCanvas(Canvas):
    """A canvas that draws every page's furniture once the document is done and its page total
    known: `furnish(canvas, page, total)` runs at save, its drawing put where furniture_here()
    was called on that page (as the page began), as though it had been drawn then. The total, and
    the lines of body text the document's text drew on the last page (body_lines), go to `laid`.
    With a `sheet` size (w, h pt) the pages are saved imposed on its sides as a booklet (`bound_right`:
    a right-to-left one).

    ReportLab's own, reached into: a page's content so far (`_code`) and the code that starts it
    (`_preamble`), the page size, and the forms, colours and shadings a page uses (its resources)."""

    _code: list[str]  # an operator string an item
    _preamble: str
    _pagesize: tuple[float, float]
    _formsinuse: list[str]
    _colorsUsed: dict
    _shadingUsed: dict

    def __init__(
        self,
        *args,
        furnish: Callable[[Canvas, int, int], None],
        laid: Laid,
        sheet: tuple[float, float] | None = None,
        bound_right: bool = False,
        **options,
    ):
        super().__init__(*args, **options)
        self._furnish, self._laid, self._sheet, self._bound_right = furnish, laid, sheet, bound_right
        self._done: list[tuple[dict, int | None]] = []
        self._furniture_at: int | None = None
        self._body_lines: list[tuple[float, float]] = []

    def furniture_here(self) -> None:
        self._furniture_at = len(self._code)

    def body_lines(self, x: float, baselines: list[float]) -> None:
        """Lines of body text start at x on these baselines (where the canvas is now translated to:
        a document's flowables are moved, never turned or scaled)."""
        if baselines:
            left, first = self.absolutePosition(x, baselines[0])
            self._body_lines += [(left, first + y - baselines[0]) for y in baselines]

    def showPage(self) -> None:
        self._done.append((dict(self.__dict__), self._furniture_at))
        self._furniture_at = None
        self._laid.last_page, self._body_lines = self._body_lines, []
        self._startPage()

    def save(self) -> None:
        total = len(self._done)
        if self._sheet is None:
            for state, at in self._done:
                self._restore(state, at, total)
                Canvas.showPage(self)
        else:
            self._impose(total, self._sheet)
        self._laid.total = total
        Canvas.save(self)

    def _restore(self, state: dict, at: int | None, total: int) -> None:
        """The canvas as it was when a page ended, its furniture drawn."""
        self.__dict__.update(state)
        if at is not None:
            body = self._code
            self._code = body[:at]
            self._furnish(self, self._pageNumber, total)
            self._code += body[at:]

    def _impose(self, total: int, sheet: tuple[float, float]) -> None:
        """The pages two to a side of a sheet for a booklet, each moved to where it goes on the sheet and
        clipped to its box, as a page merged onto the sheet from a PDF of them is drawn: its box and
        place are reckoned from its size as that PDF writes it, rounded, to the same pixels."""
        box = fp_str(*self._pagesize)
        width, height = map(float, box.split())
        for side in booklet.sides(total, (width, height), sheet, self._bound_right):
            code: list[str] = []
            forms: list[str] = []
            colors: dict = {}
            shading: dict = {}
            for index, x, y in side:
                self._restore(*self._done[index], total)
                code += ["q", f"1 0 0 1 {x:.9f} {y:.9f} cm", f"0 0 {box} re W n", self._preamble, *self._code, "Q"]
                forms += [form for form in self._formsinuse if form not in forms]
                colors.update(self._colorsUsed)
                shading.update(self._shadingUsed)
            self._code, self._formsinuse, self._colorsUsed, self._shadingUsed = code, forms, colors, shading
            self._pagesize, self._preamble = sheet, ""
            Canvas.showPage(self)
        # The booklet is the rulebook, as cardgen has made it over.
        self.setProducer("cardgen")


class _Document(BaseDocTemplate):
    """Pages on the "page" template, but for one (short_page, 1-based; 0: none) on "short"."""

    def __init__(self, buffer, short_page: int, **options):
        super().__init__(buffer, **options)
        self.short_page = short_page

    def afterPage(self) -> None:
        self.handle_nextPageTemplate("short" if self.page + 1 == self.short_page else "page")
