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
"""

from __future__ import annotations

import functools
import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import Color, HexColor, toColor
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)

from cardgen.cards.icons import IconPainter
from cardgen.core import reportlab_private
from cardgen.core.pdfinfo import Info
from cardgen.core.units import Size, pt
from cardgen.text import markup
from cardgen.text.fonts import FontBook
from cardgen.text.paragraphs import document_paragraph


@dataclass(frozen=True)
class PageFurniture:
    """What every page shows at its top and bottom."""

    header: str
    footer: Callable[[int, int], str]  # (page, total) -> text


# A quick reference and a moderator's script are a few pages; laying out hundreds (a template's loop,
# a megabyte of text) would only keep a build busy for minutes.
MAX_PAGES = 100


class TooManyPages(Exception):
    """A document that runs past MAX_PAGES: its layout is stopped there."""


class _Step(Flowable):
    """A script step: its text, with the check box in the margin before its first line. It splits
    across columns and pages as its text does, so a step of any length fits; the continuation of a
    split step has no box of its own."""

    def __init__(self, text: Flowable, box: float, rise: float):
        super().__init__()
        self.text, self.box, self.rise = text, box, rise  # the box's side, and how far its top stands up

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width, self.height = self.text.wrap(available_width, available_height)
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        parts = self.text.split(available_width, available_height)
        return [_Step(part, self.box if i == 0 else 0.0, self.rise) for i, part in enumerate(parts)]

    def getSpaceBefore(self) -> float:
        return self.text.getSpaceBefore()

    def getSpaceAfter(self) -> float:
        return self.text.getSpaceAfter()

    def draw(self) -> None:
        self.text.drawOn(self.canv, 0, 0)
        if self.box:
            top = self.height + self.rise
            self.canv.setLineWidth(0.8)
            self.canv.rect(0, top - self.box, self.box, self.box, stroke=1, fill=0)


# Cell padding, pt, each side: of the label column, and of the others (a setup table has up to
# 17 narrow columns of numbers).
TABLE_PADDING = (2.0, 1.0)
SHORT_TABLE = 20  # rows: a table this short is never split across pages


class _Builder:
    def __init__(
        self, book: FontBook, lang: str, style: Mapping, colors: Mapping, body_font: str, icons: Collection[str]
    ):
        self.book = book
        self.icons = icons
        self.lang = lang
        self.style = style
        self.colors = colors
        self.cjk = book.is_cjk(lang)
        # The cards' line height rules hold here too: Vietnamese needs room for its stacked marks.
        sizes, leading = style["sizes"], max(style["leading"], book.leading(lang))

        def paragraph_style(name: str, size_key: str, color: str, **extra) -> ParagraphStyle:
            size = sizes[size_key]
            return ParagraphStyle(
                name,
                fontName=body_font,
                fontSize=size,
                leading=size * leading,
                textColor=toColor(color),
                alignment=TA_LEFT,
                spaceShrinkage=0,
                wordWrap="CJK" if self.cjk else None,
                **extra,
            )

        self.styles = {
            "h1": paragraph_style("h1", "h1", colors["accent"], spaceAfter=sizes["body"] * 0.4),
            "h2": paragraph_style(
                "h2", "h2", colors["accent"], spaceBefore=sizes["body"] * 0.9, spaceAfter=sizes["body"] * 0.3
            ),
            "h3": paragraph_style(
                "h3", "h3", colors["text"], spaceBefore=sizes["body"] * 0.8, spaceAfter=sizes["body"] * 0.2
            ),
            "p": paragraph_style("p", "body", colors["text"], spaceAfter=sizes["body"] * 0.35),
            "small": paragraph_style("small", "small", colors["muted"], spaceAfter=sizes["body"] * 0.35),
            "li": paragraph_style(
                "li",
                "body",
                colors["text"],
                leftIndent=sizes["body"] * 1.1,
                bulletIndent=sizes["body"] * 0.2,
                spaceAfter=sizes["body"] * 0.2,
                bulletFontName=body_font,
            ),
            "cell": paragraph_style("cell", "small", colors["text"]),
            # Read by candlelight before it is done: as dark as the text, nearly as large.
            "do": paragraph_style("do", "do", colors["do"]),
        }
        # A step's text stands right of its check box.
        for name, base in (("step-say", "p"), ("step-do", "do")):
            self.styles[name] = ParagraphStyle(
                name,
                parent=self.styles[base],
                leftIndent=sizes["body"] * 1.5,
                rightIndent=6,
                spaceBefore=6,
                spaceAfter=0,
            )

    def paragraph(
        self,
        text: str,
        style: str,
        bold: bool = False,
        italic: bool = False,
        color: str | None = None,
        bullet: str | None = None,
    ) -> Flowable:
        spans = markup.parse(text, self.icons)
        if bold or italic:
            spans = tuple(markup.Span(s.text, s.bold or bold, s.italic or italic) for s in spans)
        paragraph_style = self.styles[style]
        if color:
            paragraph_style = ParagraphStyle(f"{style}-colored", parent=paragraph_style, textColor=HexColor(color))
        return document_paragraph(spans, self.book, self.lang, paragraph_style, bullet)

    def blocks(self, text: str) -> list[Flowable]:
        """Blank lines part paragraphs; a line starting with "- " starts a bullet, and the
        lines under it continue that bullet until a blank line."""
        items: list[tuple[str, list[str]]] = []
        for block in re.split(r"\n\s*\n", text.strip()):
            items.append(("p", []))
            for line in block.split("\n"):
                if line.startswith("- "):
                    items.append(("li", [line[2:]]))
                else:
                    items[-1][1].append(line.strip())
        # Lines of one paragraph are joined like Markdown's: wrapped text is not a line break.
        joiner = "" if self.cjk else " "
        return [
            self.paragraph(joiner.join(lines), kind, bullet="•" if kind == "li" else None)
            for kind, lines in items
            if lines
        ]

    def table(self, element: ET.Element, width: float) -> Table:
        cells = [[(cell.text or "", cell.tag == "th") for cell in row] for row in element.findall("tr")]
        rows = [[self.paragraph(text, "cell", bold=bold) for text, bold in row] for row in cells]
        table = Table(rows, colWidths=self.column_widths(cells, width), hAlign="LEFT", repeatRows=1)
        table.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 0), (-1, 0), HexColor(self.colors["table-head"])),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.3, HexColor(self.colors["rule"])),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LEFTPADDING", (0, 0), (0, -1), TABLE_PADDING[0]),
                    ("RIGHTPADDING", (0, 0), (0, -1), TABLE_PADDING[0]),
                    ("LEFTPADDING", (1, 0), (-1, -1), TABLE_PADDING[1]),
                    ("RIGHTPADDING", (1, 0), (-1, -1), TABLE_PADDING[1]),
                    ("TOPPADDING", (0, 0), (-1, -1), 1),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
                ]
            )
        )
        return table

    def column_widths(self, cells: list[list[tuple[str, bool]]], width: float) -> list[float]:
        """The first column (the labels of a setup table) as wide as its longest label, as far as the
        other columns leave room at the width of their widest cell; those share the rest."""
        columns = max(map(len, cells))
        size = self.styles["cell"].fontSize

        def natural(column: int, words: bool = False) -> float:
            """The widest cell of a column, or with `words` its widest word (where a cell may wrap)."""
            padding = TABLE_PADDING[min(column, 1)]
            return (
                max(
                    (
                        self.book.width(part, self.lang, size, row[column][1])
                        for row in cells
                        if column < len(row)
                        for part in (row[column][0].split() if words else [row[column][0]])
                    ),
                    default=0.0,
                )
                + 2 * padding
                + 0.5
            )

        if columns == 1:
            return [width]
        # The other columns' headings (a setup's name) wrap between words; the labels should not.
        others = max(natural(c, words=True) for c in range(1, columns)) * (columns - 1)
        first = max(min(natural(0), width - others), width / (2 * columns))
        return [first] + [(width - first) / (columns - 1)] * (columns - 1)

    def role(self, element: ET.Element) -> Flowable:
        name = self.paragraph(element.get("name", ""), "p", bold=True, color=element.get("color"))
        label = self.paragraph(element.get("label", ""), "small")
        ability = self.paragraph(element.text or "", "p")
        return KeepTogether(
            [
                Table(
                    [[name, label]],
                    colWidths=["55%", "45%"],
                    hAlign="LEFT",
                    style=[
                        ("LEFTPADDING", (0, 0), (-1, -1), 0),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                    ],
                ),
                ability,
            ]
        )

    def step(self, element: ET.Element) -> Flowable:
        kind = element.get("kind", "say")
        # Read aloud in body type; the moderator's own instructions smaller and in italic; the win check
        # smaller but upright, so that it stands out among the instructions.
        text = self.paragraph(element.text or "", "step-say" if kind == "say" else "step-do", italic=kind == "do")
        size = self.style["sizes"]["body"]
        return _Step(text, size * 0.75, 3 - size * 0.2)

    def flowables(self, root: ET.Element, width: float) -> list[Flowable]:
        out: list[Flowable] = []
        for element in root:
            tag, text = element.tag, element.text or ""
            if tag in ("h1", "h2", "h3"):
                if element.get("break") == "yes":
                    out.append(PageBreak())
                # A heading never ends a column: keep room for what follows it.
                out += [CondPageBreak(pt(25)), self.paragraph(text, tag, bold=True)]
            elif tag == "p":
                out.append(self.paragraph(text, element.get("class", "p")))
            elif tag == "blocks":
                out += self.blocks(text)
            elif tag == "table":
                table = self.table(element, width)
                # A setup table read across a page turn loses its header rows: a short one moves whole.
                out += [
                    table if reportlab_private.table_rows(table) > SHORT_TABLE else KeepTogether([table]),
                    Spacer(1, self.style["sizes"]["body"] * 0.5),
                ]
            elif tag == "item":
                out.append(self.paragraph(text, "li", bullet=element.get("bullet", "•")))
            elif tag == "role":
                out.append(self.role(element))
            elif tag == "step":
                out.append(self.step(element))
            else:
                raise ValueError(f"document element <{tag}> is not one cardgen knows")
        return out


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
) -> tuple[bytes, int]:
    """The PDF and its page count. It is laid out once: each page's header and footer ('page n
    of total') are drawn when the canvas is saved and the total is known. A document whose last
    page would hold only one or two lines is laid out again with the page before it shortened,
    so that at least three lines go over (`once`: never, it is only being checked).
    `icons` are the cards a text may show inline as `:card-id:`."""
    root = ET.fromstring(xml)
    body_font = book.face(book.order(lang)[0], False, False)
    builder = _Builder(book, lang, style, colors, body_font, frozenset(icons))
    margins = style["margins"]
    width, height = pt(page.w), pt(page.h)
    columns, gap = style["columns"], pt(style["column-gap"])
    inner_w = width - pt(margins["left"] + margins["right"])
    column_w = (inner_w - gap * (columns - 1)) / columns
    body_h = height - pt(margins["top"] + margins["bottom"])

    def frames(shorter: float = 0.0) -> list[Frame]:
        """The page's columns, the last of them `shorter` pt shorter at its foot."""
        return [
            Frame(
                pt(margins["left"]) + i * (column_w + gap),
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
            x = pt(margins["left"])
            canvas.setFillColor(HexColor(colors["muted"]))
            for font, piece in book.runs(markup.Span(text), lang):
                canvas.setFont(font, size)
                canvas.drawString(x, y, piece)
                x += canvas.stringWidth(piece, font, size)
        canvas.restoreState()

    def lay_out(short_page: int, shorter: float) -> tuple[bytes, int]:
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
        _cell_font(flowables, body_font)
        pages: list[int] = []
        doc.build(flowables, canvasmaker=functools.partial(FurnishedCanvas, furnish=furnish, pages=pages))
        return buffer.getvalue(), pages[0]

    pdf, total = lay_out(0, 0.0)
    if not once and total > 1:
        lines = _lines_on_last_page(
            pdf,
            pt(margins["bottom"]),
            height - pt(margins["top"]),
            [reportlab_private.frame_left(frame) for frame in frames()],
        )
        if lines < 3:
            leading = builder.styles["p"].leading
            pdf, total = lay_out(total - 1, (3 - lines + 0.5) * leading)
    return pdf, total


class FurnishedCanvas(Canvas):
    """A canvas that draws every page's furniture once the document is done and its page total
    known: `furnish(canvas, page, total)` runs at save, its drawing put where furniture_here()
    was called on that page (as the page began), as though it had been drawn then. The total is
    appended to `pages`."""

    _code: list[str]  # ReportLab's: the page's content so far, an operator string an item

    def __init__(self, *args, furnish: Callable[[Canvas, int, int], None], pages: list[int], **options):
        super().__init__(*args, **options)
        self._furnish, self._totals = furnish, pages
        self._done: list[tuple[dict, int | None]] = []
        self._furniture_at: int | None = None

    def furniture_here(self) -> None:
        self._furniture_at = len(self._code)

    def showPage(self) -> None:
        self._done.append((dict(self.__dict__), self._furniture_at))
        self._furniture_at = None
        self._startPage()

    def save(self) -> None:
        total = len(self._done)
        for state, at in self._done:
            self.__dict__.update(state)
            body = self._code
            if at is not None:
                self._code = body[:at]
                self._furnish(self, self._pageNumber, total)
                self._code += body[at:]
            Canvas.showPage(self)
        self._totals.append(total)
        Canvas.save(self)


class _Document(BaseDocTemplate):
    """Pages on the "page" template, but for one (short_page, 1-based; 0: none) on "short"."""

    def __init__(self, buffer, short_page: int, **options):
        super().__init__(buffer, **options)
        self.short_page = short_page

    def afterPage(self) -> None:
        self.handle_nextPageTemplate("short" if self.page + 1 == self.short_page else "page")


def _cell_font(flowables: list[Flowable], font: str) -> None:
    """Tables set their cells' font even when every cell is a paragraph: left alone that is
    Helvetica, which the PDF would then name without embedding it."""
    for flowable in flowables:
        if isinstance(flowable, Table):
            flowable.setStyle([("FONTNAME", (0, 0), (-1, -1), font)])
        elif isinstance(flowable, KeepTogether):
            _cell_font(reportlab_private.kept_together(flowable), font)


def _lines_on_last_page(pdf: bytes, bottom: float, top: float, columns: list[float]) -> int:
    """How many lines of text the last page's body holds (header and footer left out), read back:
    the baselines in each column (`columns`: where each starts, pt)."""
    import ctypes

    import pypdfium2
    import pypdfium2.raw as pdfium_c

    document = pypdfium2.PdfDocument(pdf)
    try:
        text = document[len(document) - 1].get_textpage()
        x, y = ctypes.c_double(), ctypes.c_double()
        lines = set()
        for i in range(text.count_chars()):
            pdfium_c.FPDFText_GetCharOrigin(text.raw, i, x, y)
            if bottom - 1 <= y.value <= top + 1 and chr(pdfium_c.FPDFText_GetUnicode(text.raw, i)).strip():
                lines.add((sum(1 for start in columns if x.value >= start - 1), round(y.value)))
        return len(lines)
    finally:
        document.close()
