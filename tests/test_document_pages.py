"""A document's pages as cardgen draws them without ReportLab's table or pypdf: they must be the pages
the table and the merge drew, pixel for pixel at 150 dpi, in every language.

- A booklet is imposed as the document is written, each page drawn onto its sheet side: the reference
  is the same document written as pages and merged two to a sheet by pypdf, as booklets were made.
- A role's name and label stand side by side: the reference draws them as a one-row table did.
"""

from __future__ import annotations

import io
from xml.sax.saxutils import escape

import pytest
from PIL import ImageChops
from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable, Table

from cardgen.build import BuildOptions
from cardgen.core.pdfinfo import Info
from cardgen.core.units import Size, pt
from cardgen.documents import flowables, typeset
from cardgen.documents.booklet import saddle_order
from conftest import ROOT
from pdfread import image, pages

DPI = 150

# Roles whose names and labels wrap (the name's column or the label's the taller), a setup table, an
# inline icon and steps enough for pages to be padded with blanks in a booklet.
DOCUMENT = """<doc>
<h1>{title}</h1>
<p class="small">{short}</p>
<role name="{name}" label="{short}" color="#7a2a1a">{body}</role>
<role name="{name} {name} {name}" label="{short}">{body} {body}</role>
<role name="{name}" label="{short} {short} {short}" color="#1a2a7a">{body} :seer:</role>
<role name="" label="{short}">{body}</role>
<table><tr><th>{short}</th><th>5</th><th>6</th></tr><tr><td>{name}</td><td>1</td><td>2</td></tr></table>
<step kind="say">{body} {body} {body}</step>
<step kind="do">*{short}* {body}</step>
<role name="{name}" label="{short}">{body} {body} {body}</role>
<step kind="check">{short}</step>
</doc>"""

TEXTS = {
    "en": {
        "title": "Werewolf & <friends>",
        "name": "The Seer",
        "short": "Wakes each night, looks at one card",
        "body": "Each night the werewolves choose a player, and the village votes in the day; nobody shows a card.",
    },
    "vi": {
        "title": "Ma sói",
        "name": "Tiên tri",
        "short": "Thức dậy mỗi đêm",
        "body": "Mỗi đêm, bầy sói chọn một người và loại người đó khỏi làng; ban ngày cả làng biểu quyết.",
    },
    "zh": {
        "title": "狼人杀",
        "name": "预言家",
        "short": "每晚睁眼查验一名玩家",
        "body": "天黑请闭眼。狼人请睁眼，请选择今晚要杀的玩家：“Seer 与 Witch”……预言家查验一名玩家的身份。",
    },
}


@pytest.fixture(scope="module")
def setting():
    from cardgen.build import Pipeline
    from cardgen.core.project import Project

    pipeline = Pipeline(Project.at(ROOT / "decks"), BuildOptions())
    return pipeline.book, pipeline.read("documents/styles.yaml")


def _document(setting, lang: str, page: Size, sheet: Size | None = None) -> tuple[bytes, int]:
    book, style = setting
    return typeset.render_document(
        DOCUMENT.format(**{key: escape(value) for key, value in TEXTS[lang].items()}),
        book,
        lang,
        style["booklet"],
        style["colors"],
        page,
        typeset.PageFurniture("Header", lambda n, total: f"{n}/{total}"),
        Info("test", "", "", lang),
        {"seer": (ROOT / "decks" / "werewolf" / "symbols" / "seer.svg", HexColor("#123456"))},
        sheet=sheet,
    )


def _merged(pdf: bytes, sheet: Size) -> bytes:
    """The pages two to a sheet side in saddle order, merged by pypdf at the sheet's middle."""
    reader = PdfReader(io.BytesIO(pdf))
    page_w, page_h = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    middle, bottom = pt(sheet.w) / 2, (pt(sheet.h) - page_h) / 2
    writer = PdfWriter()
    for left, right in saddle_order(len(reader.pages)):
        side = PageObject.create_blank_page(width=pt(sheet.w), height=pt(sheet.h))
        for index, offset in ((left, middle - page_w), (right, middle)):
            if index is not None:
                side.merge_transformed_page(reader.pages[index], Transformation().translate(offset, bottom))
        writer.add_page(side)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _same(ours: bytes, theirs: bytes) -> int:
    mine, reference = pages(ours), pages(theirs)
    assert len(mine) == len(reference)
    for number in range(len(mine)):
        drawn, expected = image(mine[number], DPI), image(reference[number], DPI)
        assert ImageChops.difference(drawn, expected).getbbox() is None, f"side {number + 1} differs"
    return len(mine)


@pytest.mark.parametrize("lang", list(TEXTS))
def test_a_booklet_is_its_pages_merged_onto_the_sheets(setting, lang):
    # Small pages, so that the document runs to pages that are not a multiple of four.
    page, sheet = Size(105, 90), Size(210, 90)
    pdf, count = _document(setting, lang, page)
    booklet, sides = _document(setting, lang, page, sheet)
    assert count % 4 and sides == -(-count // 4) * 2
    assert _same(booklet, _merged(pdf, sheet)) == sides
    assert PdfReader(io.BytesIO(booklet)).metadata["/Producer"] == "cardgen"


def test_a_booklet_sheet_with_its_pages_a_point_apart_is_seen(setting, monkeypatch):
    page, sheet = Size(105, 90), Size(210, 90)
    pdf, _ = _document(setting, "en", page)
    sides = typeset.booklet.sides
    monkeypatch.setattr(
        typeset.booklet, "sides", lambda *args: [[(i, x + 1, y) for i, x, y in side] for side in sides(*args)]
    )
    booklet, _ = _document(setting, "en", page, sheet)
    with pytest.raises(AssertionError, match="differs"):
        _same(booklet, _merged(pdf, sheet))


def _table_head(name: Flowable, label: Flowable) -> Table:
    """A role's name and label as roles had them: a one-row table."""
    return Table(
        [[name, label]],
        colWidths=["55%", "45%"],
        hAlign="LEFT",
        style=[
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
            ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ],
    )


@pytest.mark.parametrize("lang", list(TEXTS))
def test_a_roles_name_and_label_are_drawn_where_a_table_drew_them(setting, monkeypatch, lang):
    ours, _ = _document(setting, lang, Size(105, 148))
    monkeypatch.setattr(flowables, "_RoleHead", _table_head)
    theirs, _ = _document(setting, lang, Size(105, 148))
    assert _same(ours, theirs) >= 2
