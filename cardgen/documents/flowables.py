"""The template's XML in, ReportLab flowables out: headings, paragraphs, steps with their check box,
lists and tables of a rulebook or script, every text set by cardgen's own paragraphs. In a right-to-left
language they are mirrored: a step's box at the right, a role's name at the right of its label, a
table's columns from right to left."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Collection, Mapping

from reportlab.lib.colors import HexColor, toColor
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    PageBreak,
    Spacer,
    Table,
    TableStyle,
)

from cardgen.core import reportlab_private
from cardgen.core.units import pt
from cardgen.documents import pages
from cardgen.documents.text import document_text
from cardgen.text import markup
from cardgen.text.fonts import FontBook
from cardgen.text.linebreak import break_cjk, line_rules
from cardgen.text.lines import line_width


class _Step(Flowable):
    """A script step: its text, with the check box in the margin before its first line. It splits
    across columns and pages as its text does, so a step of any length fits; the continuation of a
    split step has no box of its own."""

    def __init__(self, text: Flowable, box: float, rise: float, rtl: bool = False):
        super().__init__()
        self.text, self.box, self.rise = text, box, rise  # the box's side, and how far its top stands up
        self.rtl = rtl

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width, self.height = self.text.wrap(available_width, available_height)
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        parts = self.text.split(available_width, available_height)
        return [_Step(part, self.box if i == 0 else 0.0, self.rise, self.rtl) for i, part in enumerate(parts)]

    def getSpaceBefore(self) -> float:
        return self.text.getSpaceBefore()

    def getSpaceAfter(self) -> float:
        return self.text.getSpaceAfter()

    def draw(self) -> None:
        self.text.drawOn(self.canv, 0, 0)
        if self.box:
            top = self.height + self.rise
            self.canv.setLineWidth(0.8)
            self.canv.rect(
                self.width - self.box if self.rtl else 0, top - self.box, self.box, self.box, stroke=1, fill=0
            )


class _RoleHead(Flowable):
    """A role's name and its label side by side, the name over the first 55 % of the width and the label
    over the rest, their last lines on one baseline: drawn where a one-row table of the two (no padding
    left or below, ReportLab's 6 pt right and 3 pt above, cells aligned at their foot) draws them,
    without the table's work to lay out and draw one row."""

    RIGHT, TOP = 6.0, 3.0  # a table cell's default padding

    def __init__(self, name: Flowable, label: Flowable):
        super().__init__()
        self.name, self.label = name, label
        self.split_at = 0.0

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        # As a table shares its width out by percentages.
        share = available_width / 100.0
        self.split_at, rest = 55.0 * share, 45.0 * share
        heights = [
            cell.wrap(width - self.RIGHT, available_height - self.TOP)[1]
            for cell, width in ((self.name, self.split_at), (self.label, rest))
        ]
        self.width, self.height = self.split_at + rest, max(heights) + self.TOP
        return self.width, self.height

    def draw(self) -> None:
        self.name.drawOn(self.canv, 0, 0)
        self.label.drawOn(self.canv, self.split_at, 0)


class _MirroredRoleHead(_RoleHead):
    """A right-to-left role's name and label: the name over the last 55 % of the width, at the right."""

    def draw(self) -> None:
        # Each cell's padding at its left, where a left-to-right cell has it at its right.
        self.name.drawOn(self.canv, self.width - self.split_at + self.RIGHT, 0)
        self.label.drawOn(self.canv, self.RIGHT, 0)


# Cell padding, pt, each side: of the label column, and of the others (a setup table has up to
# 17 narrow columns of numbers).
TABLE_PADDING = (2.0, 1.0)
SHORT_TABLE = 20  # rows: a table this short is never split across pages


class Builder:
    def __init__(
        self, book: FontBook, lang: str, style: Mapping, colors: Mapping, body_font: str, icons: Collection[str]
    ):
        self.book = book
        self.icons = frozenset(icons)
        self.lang = lang
        self.style = style
        self.colors = colors
        self.cjk = book.is_cjk(lang)
        self.rtl = book.is_rtl(lang)
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
        spans = pages.spans(text, self.icons)
        if bold or italic:
            spans = tuple(markup.Span(s.text, s.bold or bold, s.italic or italic) for s in spans)
        paragraph_style = self.styles[style]
        if color:
            paragraph_style = ParagraphStyle(f"{style}-colored", parent=paragraph_style, textColor=HexColor(color))
        return document_text(spans, self.book, self.lang, paragraph_style, bullet)

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
        widths = self.column_widths(cells, width)
        # The label column and the others, as ReportLab numbers columns: from the left.
        labels, others = ((0, 0), (0, -1)), ((1, 0), (-1, -1))
        if self.rtl:
            # Read from the right: the label column at the right, the others leftwards from it.
            columns = len(widths)
            rows = [(row + [self.paragraph("", "cell")] * (columns - len(row)))[::-1] for row in rows]
            widths, labels, others = widths[::-1], ((-1, 0), (-1, -1)), ((0, 0), (-2, -1))
        table = Table(rows, colWidths=widths, hAlign="RIGHT" if self.rtl else "LEFT", repeatRows=1)
        table.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 0), (-1, 0), HexColor(self.colors["table-head"])),
                    ("LINEBELOW", (0, 0), (-1, -1), 0.3, HexColor(self.colors["rule"])),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LEFTPADDING", *labels, TABLE_PADDING[0]),
                    ("RIGHTPADDING", *labels, TABLE_PADDING[0]),
                    ("LEFTPADDING", *others, TABLE_PADDING[1]),
                    ("RIGHTPADDING", *others, TABLE_PADDING[1]),
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

        rules = line_rules(self.book, (self.lang,))

        def widest(text: str, bold: bool, words: bool) -> float:
            """A cell's width, or with `words` that of its widest piece that no line break may split: a word,
            or, in a language broken between characters (Japanese, Chinese), the few its rules keep together."""
            if not words:
                return self.book.width(text, self.lang, size, bold)
            if rules is None or rules.keep_all:
                return max((self.book.width(word, self.lang, size, bold) for word in text.split()), default=0.0)
            pieces, _ = break_cjk(self.book.runs(markup.Span(text, bold), self.lang), size, 0.0, rules=rules)
            return max((line_width(tuple(piece), size) for piece in pieces), default=0.0)

        def natural(column: int, words: bool = False) -> float:
            """The widest cell of a column, or with `words` its widest unbreakable piece (where a cell may wrap)."""
            padding = TABLE_PADDING[min(column, 1)]
            return (
                max((widest(*row[column], words) for row in cells if column < len(row)), default=0.0)
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
        return KeepTogether([(_MirroredRoleHead if self.rtl else _RoleHead)(name, label), ability])

    def step(self, element: ET.Element) -> Flowable:
        kind = element.get("kind", "say")
        # Read aloud in body type; the moderator's own instructions smaller and in italic; the win check
        # smaller but upright, so that it stands out among the instructions.
        text = self.paragraph(element.text or "", "step-say" if kind == "say" else "step-do", italic=kind == "do")
        size = self.style["sizes"]["body"]
        return _Step(text, size * 0.75, 3 - size * 0.2, self.rtl)

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


def cell_font(flowables: list[Flowable], font: str) -> None:
    """Tables set their cells' font even when every cell is a paragraph: left alone that is
    Helvetica, which the PDF would then name without embedding it."""
    for flowable in flowables:
        if isinstance(flowable, Table):
            flowable.setStyle([("FONTNAME", (0, 0), (-1, -1), font)])
        elif isinstance(flowable, KeepTogether):
            cell_font(reportlab_private.kept_together(flowable), font)
