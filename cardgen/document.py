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

import io
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Collection, Mapping

from reportlab.lib.colors import Color, HexColor, toColor
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (BaseDocTemplate, CondPageBreak, Flowable, Frame, KeepTogether, PageBreak,
                                PageTemplate, Paragraph, Spacer, Table, TableStyle)

from . import markup
from .fonts import FontBook
from .icons import IconPainter
from .textfit import paragraph_markup
from .units import Size, pt


# A quick reference and a moderator's script are a few pages; laying out hundreds (a template's loop,
# a megabyte of text) would only keep a build busy for minutes.
MAX_PAGES = 100


class TooManyPages(Exception):
    """A document that runs past MAX_PAGES: its layout is stopped there."""


@dataclass(frozen=True)
class PageFurniture:
    """What every page shows at its top and bottom."""

    header: str
    footer: Callable[[int, int], str]     # (page, total) -> text


class _StepText(Paragraph):
    """A script step: its text, with the check box in the margin before its first line. It splits
    across columns and pages like any paragraph, so a step of any length fits; the continuation of a
    split step has no box of its own."""

    box = 0.0          # the box's side in points; 0 on a continuation
    rise = 0.0         # how far the box's top stands above the text's

    def split(self, availWidth, availHeight):
        parts = super().split(availWidth, availHeight)
        if len(parts) > 1:
            parts[0].box, parts[0].rise = self.box, self.rise
        return parts

    def draw(self) -> None:
        super().draw()
        if self.box:
            top = self.height + self.rise
            self.canv.setLineWidth(0.8)
            self.canv.rect(0, top - self.box, self.box, self.box, stroke=1, fill=0)


class _Builder:
    def __init__(self, book: FontBook, lang: str, style: Mapping, colors: Mapping, body_font: str,
                 icons: Collection[str]):
        self.book = book
        self.icons = icons
        self.lang = lang
        self.style = style
        self.colors = colors
        self.cjk = book.is_cjk(lang)
        sizes, leading = style["sizes"], style["leading"]

        def paragraph_style(name: str, size_key: str, color: str, **extra) -> ParagraphStyle:
            size = sizes[size_key]
            return ParagraphStyle(name, fontName=body_font, fontSize=size, leading=size * leading,
                                  textColor=toColor(color), alignment=TA_LEFT, spaceShrinkage=0,
                                  wordWrap="CJK" if self.cjk else None, **extra)

        self.styles = {
            "h1": paragraph_style("h1", "h1", colors["accent"], spaceAfter=sizes["body"] * 0.4),
            "h2": paragraph_style("h2", "h2", colors["accent"], spaceBefore=sizes["body"] * 0.9,
                                  spaceAfter=sizes["body"] * 0.3),
            "h3": paragraph_style("h3", "h3", colors["text"], spaceBefore=sizes["body"] * 0.8,
                                  spaceAfter=sizes["body"] * 0.2),
            "p": paragraph_style("p", "body", colors["text"], spaceAfter=sizes["body"] * 0.35),
            "small": paragraph_style("small", "small", colors["muted"], spaceAfter=sizes["body"] * 0.35),
            "li": paragraph_style("li", "body", colors["text"], leftIndent=sizes["body"] * 1.1,
                                  bulletIndent=sizes["body"] * 0.2, spaceAfter=sizes["body"] * 0.2,
                                  bulletFontName=body_font),
            "cell": paragraph_style("cell", "small", colors["text"]),
            "do": paragraph_style("do", "small", colors["muted"]),
        }
        # A step's text stands right of its check box.
        for name, base in (("step-say", "p"), ("step-do", "do")):
            self.styles[name] = ParagraphStyle(name, parent=self.styles[base], leftIndent=sizes["body"] * 1.5,
                                               rightIndent=6, spaceBefore=6, spaceAfter=0)

    def paragraph(self, text: str, style: str, bold: bool = False, italic: bool = False,
                  color: str | None = None, bullet: str | None = None, kind: type = Paragraph) -> Paragraph:
        spans = markup.parse(text, self.icons)
        if bold or italic:
            spans = tuple(markup.Span(s.text, s.bold or bold, s.italic or italic) for s in spans)
        body = paragraph_markup(spans, self.book, self.lang, self.styles[style].fontSize)
        if color:
            body = f'<font color="#{HexColor(color).hexval()[2:]}">{body}</font>'
        return kind(body, self.styles[style], bulletText=bullet)

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
        return [self.paragraph(joiner.join(lines), kind, bullet="•" if kind == "li" else None)
                for kind, lines in items if lines]

    def table(self, element: ET.Element) -> Table:
        rows = [[self.paragraph(cell.text or "", "cell", bold=cell.tag == "th") for cell in row]
                for row in element.findall("tr")]
        table = Table(rows, hAlign="LEFT", repeatRows=1)
        table.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, 0), HexColor(self.colors["table-head"])),
            ("LINEBELOW", (0, 0), (-1, -1), 0.3, HexColor(self.colors["rule"])),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), 2),
            ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ("TOPPADDING", (0, 0), (-1, -1), 1),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ]))
        return table

    def role(self, element: ET.Element) -> Flowable:
        name = self.paragraph(element.get("name", ""), "p", bold=True, color=element.get("color"))
        label = self.paragraph(element.get("label", ""), "small")
        ability = self.paragraph(element.text or "", "p")
        return KeepTogether([Table([[name, label]], colWidths=["55%", "45%"], hAlign="LEFT",
                                   style=[("LEFTPADDING", (0, 0), (-1, -1), 0),
                                          ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                                          ("VALIGN", (0, 0), (-1, -1), "BOTTOM")]),
                             ability])

    def step(self, element: ET.Element) -> Flowable:
        kind = element.get("kind", "say")
        # Read aloud in body type; the moderator's own instructions smaller and in italic; the win check
        # smaller but upright, so that it stands out among the instructions.
        text = self.paragraph(element.text or "", "step-say" if kind == "say" else "step-do", italic=kind == "do",
                              kind=_StepText)
        size = self.style["sizes"]["body"]
        text.box, text.rise = size * 0.75, 3 - size * 0.2
        return text

    def flowables(self, root: ET.Element) -> list[Flowable]:
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
                out += [self.table(element), Spacer(1, self.style["sizes"]["body"] * 0.5)]
            elif tag == "item":
                out.append(self.paragraph(text, "li", bullet=element.get("bullet", "•")))
            elif tag == "role":
                out.append(self.role(element))
            elif tag == "step":
                out.append(self.step(element))
            else:
                raise ValueError(f"document element <{tag}> is not one cardgen knows")
        return out


def render_document(xml: str, book: FontBook, lang: str, style: Mapping, colors: Mapping, page: Size,
                    furniture: PageFurniture, title: str,
                    icons: Mapping[str, tuple[Path, Color]], once: bool = False) -> tuple[bytes, int]:
    """The PDF and its page count. Pages are numbered 'n of total', so it is laid out twice
    (`once`: a single time, to check that it can be; the page numbers are then not final).
    `icons` are the cards a text may show inline as `:card-id:`."""
    root = ET.fromstring(xml)
    body_font = book.face(book.order(lang)[0], False, False)
    builder = _Builder(book, lang, style, colors, body_font, frozenset(icons))
    margins = style["margins"]
    width, height = pt(page.w), pt(page.h)
    columns, gap = style["columns"], pt(style["column-gap"])
    inner_w = width - pt(margins["left"] + margins["right"])
    column_w = (inner_w - gap * (columns - 1)) / columns
    frames = [Frame(pt(margins["left"]) + i * (column_w + gap), pt(margins["bottom"]), column_w,
                    height - pt(margins["top"] + margins["bottom"]), id=f"column{i}",
                    leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
              for i in range(columns)]
    total = 0
    for _ in range(1 if once else 2):
        buffer = io.BytesIO()
        pages = [0]
        painters: list[IconPainter] = []

        def furnish(canvas, doc, known_total=total):
            pages[0] = doc.page
            if doc.page > MAX_PAGES:
                raise TooManyPages(f"runs past {MAX_PAGES} pages")
            if not painters:
                # One painter per document, so that each icon becomes one form in it.
                painters.append(IconPainter(canvas, body_font))
                painters[0].register_inline(dict(icons))
            canvas.saveState()
            size = style["sizes"]["header"]
            for y, text in ((height - pt(margins["top"]) * 0.55, furniture.header),
                            (pt(margins["bottom"]) * 0.45, furniture.footer(doc.page, known_total or doc.page))):
                x = pt(margins["left"])
                canvas.setFillColor(HexColor(colors["muted"]))
                for font, piece in book.runs(markup.Span(text), lang):
                    canvas.setFont(font, size)
                    canvas.drawString(x, y, piece)
                    x += canvas.stringWidth(piece, font, size)
            canvas.restoreState()

        doc = BaseDocTemplate(buffer, pagesize=(width, height), invariant=1, title=title, creator="cardgen",
                              initialFontName=body_font,
                              pageTemplates=[PageTemplate("page", frames=frames, onPage=furnish)])
        doc.build(builder.flowables(root))
        total = pages[0]
    return buffer.getvalue(), total
