"""Card sheets written page by page: each page's drawing leaves memory when the page ends (spilled to a
temporary file, cardgen.core.reportlab_private.SpilledPages), and the PDF's bytes are those ReportLab
writes when it holds every page until it saves."""

from __future__ import annotations

import io
import re
import tracemalloc

import pytest
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from cardgen.build import BuildOptions, Pipeline, check
from cardgen.cards import render
from cardgen.core import reportlab_private
from cardgen.core.project import Project
from conftest import copy_werewolf_box


def _drawing(canvas: Canvas, late: bool = False) -> None:
    """Pages of text, shapes and a form used on several of them, in two page sizes; `late`: the third
    refers to an object that is numbered only when the document is written."""
    canvas.beginForm("dot")
    canvas.circle(10, 10, 5, fill=1)
    canvas.endForm()
    for number in range(1, 6):
        canvas.setPageSize((300, 400) if number % 2 else (400, 300))
        canvas.setTrimBox((10, 10, 290, 290))
        canvas.drawString(20, 250, f"Page {number}: (brackets) and \\ slashes " * number)
        canvas.rect(30, 30, 100 + number, 50, fill=number % 2)
        canvas.doForm("dot")
        if late and number == 3:
            canvas._annotationrefs.append(pdfdoc.PDFStream(content="late"))
        canvas.showPage()
    canvas.drawString(20, 20, "a last page the save itself ends")


@pytest.mark.parametrize("compressed", [1, 0])
@pytest.mark.parametrize("late", [False, True])
def test_a_canvas_spilled_page_by_page_writes_the_bytes_of_a_plain_save(compressed, late, tmp_path):
    plain = io.BytesIO()
    canvas = Canvas(plain, invariant=1, pageCompression=compressed)
    _drawing(canvas, late)
    canvas.save()
    spilled = io.BytesIO()
    canvas = Canvas(spilled, invariant=1, pageCompression=compressed)
    with (tmp_path / "spill").open("w+b") as spill:
        reportlab_private.SpilledPages(canvas, spilled, spill)
        _drawing(canvas, late)
        # Every page ended so far is in the spill file, none in memory but the one referring to an
        # object not numbered yet: its dictionary is held, its content stream spilled all the same.
        pages = canvas._doc.Pages.pages
        held = [number for number, page in enumerate(pages, start=1) if isinstance(page, pdfdoc.PDFPage)]
        assert held == ([3] if late else [])
        assert [page.stream for page in pages if isinstance(page, pdfdoc.PDFPage)] == [None] * len(held)
        assert spill.tell() > 0
        canvas.save()
    assert spilled.getvalue() == plain.getvalue()
    assert len(re.findall(rb"/Type /Page\b", plain.getvalue())) == 6
    assert (b"/Annots" in plain.getvalue()) == late


@pytest.mark.parametrize("game,lang,options", [("werewolf", "en", {}), ("salem-1692", "zh", {"backs": "fold"})])
def test_card_sheets_spilled_page_by_page_are_the_bytes_of_a_plain_save(cards, game, lang, options, monkeypatch):
    prepared, pdf = cards(game, lang, **options)
    project = Project.at()
    strings = project.template_data("strings.yaml")
    render_options = render.RenderOptions(
        False, project.template_data("sheet.yaml"), {**strings["en"], **strings.get(lang, {})}
    )
    monkeypatch.setattr(render, "SpilledPages", lambda canvas, out, spill: None)
    plain = render.render_pdf(prepared.deck, prepared.pages, prepared.faces, prepared.book, render_options)
    assert pdf == plain
    assert len(prepared.pages) > 4


def test_a_big_deck_is_drawn_without_holding_its_pages(tmp_path):
    """2,800 cards (700 pages) drawn into a file: what the drawing holds in memory at its peak (about
    1.7 MB) stays well under what it took when ReportLab held every page's dictionary until the save
    (4.7 MB), let alone its content and the file's bytes after it (about 19 MB)."""
    decks = tmp_path / "decks"
    box = copy_werewolf_box(decks)
    for role in (box / "roles").glob("*.yaml"):
        role.write_text(re.sub(r"(?m)^count: \d+$", "count: 200", role.read_text(encoding="utf-8")), encoding="utf-8")
    project = Project.at(decks)
    files = check(project, ["werewolf"], strict=False)[0][0]
    pipeline = Pipeline(project, BuildOptions(langs=("en",)))
    prepared, problems = pipeline.prepare(files, "en")
    assert prepared is not None, problems
    target = tmp_path / "out" / "cards.pdf"
    tracemalloc.start()
    try:
        made = pipeline.cards(prepared, files, False, target)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    made.data.commit()
    assert (made.cards, made.pages) == (2800, 700)
    assert target.read_bytes().startswith(b"%PDF-") and len(target.read_bytes()) > 1_000_000
    assert peak < 3_000_000
