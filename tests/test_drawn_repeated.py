"""Drawings repeated from what ReportLab wrote the first time: a card's copies and a group's backs on a
sheet (cardgen.core.reportlab_private.Repeats), and a symbol's form made on one canvas made again on another
(record_form, replay_form). The PDF's bytes must be those of drawing each anew."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pypdf
import pytest
from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from cardgen.build import BuildOptions, Pipeline, check
from cardgen.cards import icons, render
from cardgen.core import reportlab_private
from cardgen.core.project import Project
from conftest import ROOT

WOLF = ROOT / "decks" / "werewolf" / "symbols" / "werewolf.svg"


def _options(lang: str) -> render.RenderOptions:
    project = Project.at()
    strings = project.template_data("strings.yaml")
    return render.RenderOptions(False, project.template_data("sheet.yaml"), {**strings["en"], **strings.get(lang, {})})


@pytest.mark.parametrize("game,lang,options", [("werewolf", "en", {}), ("mafia-vendetta", "zh", {"backs": "fold"})])
def test_card_sheets_with_repeated_sides_are_the_bytes_of_every_side_drawn_anew(
    cards, game, lang, options, monkeypatch
):
    prepared, pdf = cards(game, lang, **options)
    drawn = []
    original = render._Painter.side

    def counted(painter, face, group, paint, slot):
        drawn.append(slot)
        original(painter, face, group, paint, slot)

    monkeypatch.setattr(render._Painter, "side", counted)
    again = render.render_pdf(prepared.deck, prepared.pages, prepared.faces, prepared.book, _options(lang))
    slots = sum(len(page.slots) for page in prepared.pages)
    assert again == pdf
    assert 0 < len(drawn) < slots / 2  # most sides were repeated
    monkeypatch.setattr(reportlab_private.Repeats, "draw", lambda repeats, key, draw: draw())
    anew = render.render_pdf(prepared.deck, prepared.pages, prepared.faces, prepared.book, _options(lang))
    assert anew == pdf


def test_a_repeated_side_with_an_icon_in_its_text_is_the_bytes_of_each_drawn_anew(mini, monkeypatch):
    wolf = mini / "decks" / "mini" / "roles" / "wolf.yaml"
    text = wolf.read_text(encoding="utf-8").replace("**one player**", "**one player** :wolf:")
    wolf.write_text(text.replace("count: 2", "count: 12"), "utf-8")  # two pages: wolves where wolves were
    project = Project.at(mini / "decks")
    files = check(project, [], strict=False)[0]
    prepared, problems = Pipeline(project, BuildOptions()).prepare(files[0], "en")
    assert prepared is not None, problems
    drawn = []
    original = render._Painter.side
    monkeypatch.setattr(render._Painter, "side", lambda *args: (drawn.append(args), original(*args)))
    pdf = render.render_pdf(prepared.deck, prepared.pages, prepared.faces, prepared.book, _options("en"))
    assert len(drawn) < sum(len(page.slots) for page in prepared.pages)
    fronts = pypdf.PdfReader(io.BytesIO(pdf)).pages[2].get_contents().get_data()
    # The wolf's symbol, and the icon in the text, on each wolf of the second sheet.
    assert prepared.pages[2].side == "front"
    assert len(re.findall(rb"/FormXob\.Sym\d+ Do", fronts)) == 2 * len(prepared.pages[2].slots) >= 4
    monkeypatch.setattr(reportlab_private.Repeats, "draw", lambda repeats, key, draw: draw())
    assert render.render_pdf(prepared.deck, prepared.pages, prepared.faces, prepared.book, _options("en")) == pdf


def _canvas() -> tuple[io.BytesIO, Canvas]:
    out = io.BytesIO()
    return out, Canvas(out, invariant=1, pageCompression=0)


def test_a_drawing_that_merges_into_the_transformation_before_it_is_drawn_anew_each_time():
    def page(canvas: Canvas, draw) -> None:
        for x in (10, 200):
            canvas.saveState()
            canvas.translate(x, 10)
            draw(lambda: (canvas.translate(5, 5), canvas.rect(0, 0, 50, 50, fill=1)))
            canvas.restoreState()
        canvas.showPage()
        canvas.save()

    plain_out, plain = _canvas()
    page(plain, lambda drawing: drawing())
    out, canvas = _canvas()
    repeats = reportlab_private.Repeats(canvas, 8)
    calls = []
    page(canvas, lambda drawing: repeats.draw("square", lambda: (calls.append(1), drawing())))
    assert out.getvalue() == plain_out.getvalue()
    assert b"1 0 0 1 15 15 cm" in out.getvalue() and b"1 0 0 1 205 15 cm" in out.getvalue()
    assert len(calls) == 2


def test_the_least_recently_drawn_is_forgotten_first():
    out, canvas = _canvas()
    repeats = reportlab_private.Repeats(canvas, 2)
    calls: list[str] = []
    for key in ("a", "b", "a", "c", "a", "b"):
        canvas.saveState()
        repeats.draw(key, lambda key=key: (calls.append(key), canvas.drawString(10, 10, key)))
        canvas.restoreState()
    assert calls == ["a", "b", "c", "b"]


@pytest.fixture(scope="module")
def body_font() -> str:
    """A TrueType face, as the sheets' and documents' body fonts are (a Type 1 one sets the font in a form)."""
    pdfmetrics.registerFont(TTFont("RepeatedSans", str(ROOT / "fonts" / "NotoSans_400Regular.ttf")))
    return "RepeatedSans"


def _icons(body_font: str, colours: list[Color | None], svg: Path = WOLF) -> bytes:
    out, canvas = _canvas()
    painter = icons.IconPainter(canvas, body_font)
    for color in colours:
        painter.draw(svg, color, 20, 20, 100, 100)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def test_a_form_made_again_on_another_canvas_is_the_bytes_of_one_drawn_anew(body_font):
    green, same_hex = Color(0.2, 0.5, 0.3), Color(0.2001, 0.5001, 0.3001)
    assert green.hexval() == same_hex.hexval()  # one form on a canvas, whichever comes first
    icons._svg.cache_clear()
    _icons("Helvetica", [green])  # its operators set the font, named by the document: nothing to make again of
    assert not icons._svg(icons.icon_bytes(WOLF)).forms
    _icons(body_font, [green, None, same_hex])
    assert len(icons._svg(icons.icon_bytes(WOLF)).forms) == 2  # green and the file's own colours
    again = _icons(body_font, [same_hex, None])
    icons._svg.cache_clear()
    assert again == _icons(body_font, [same_hex, None])
    assert b".2001 .5001 .3001 rg" in again


def test_a_form_using_a_resource_of_its_document_is_drawn_anew_on_each_canvas(body_font, tmp_path):
    svg = tmp_path / "faded.svg"
    svg.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        '<rect width="10" height="10" fill="#000" fill-opacity="0.5"/></svg>',
        encoding="utf-8",
    )
    first = _icons(body_font, [Color(0.2, 0.5, 0.3)], svg)
    assert b"/gRLs0 gs" in first  # the transparency: a graphics state of the form's own resources
    assert not icons._svg(icons.icon_bytes(svg)).forms
    assert _icons(body_font, [Color(0.2, 0.5, 0.3)], svg) == first


def test_a_form_placed_is_written_as_reportlab_writes_it_saving_and_restoring_the_state():
    numbers = random.Random(31)
    places = [(0.0, 0.0, 1.0), (-0.0, 1e-9, 0.5), (123.4567891, -0.000123, 2.5e-4)] + [
        (numbers.uniform(-900, 900), numbers.uniform(-900, 900), numbers.uniform(1e-3, 30)) for _ in range(2000)
    ]
    _, plain = _canvas()
    _, canvas = _canvas()
    for x, y, scale in places:
        plain.saveState()
        plain.translate(x, y)
        plain.scale(scale, scale)
        plain.doForm("Sym0")
        plain.restoreState()
        reportlab_private.place_form(canvas, "Sym0", x, y, scale)
    assert canvas._code == plain._code
    assert canvas._formsinuse == plain._formsinuse
