"""A card's text is drawn by cardgen itself (cardgen.text.lines, as a document's is): it must look as
ReportLab's own paragraph drew it, pixel for pixel at 150 dpi, in every language and alignment, with
bold and italic runs, characters from fallback fonts, blank lines, a word too wide for its box, an
inline icon and two languages in one box.

The reference is a real ReportLab Paragraph of markup written here, in the style cards had (no word
cut, no space shrunk), at the size and in the box the fitting chose: in a language that breaks
between words, of the whole text, so ReportLab breaks and draws the lines itself; in a CJK language,
of the lines cardgen's kinsoku breaker made (their choice is linebreak's, tested there), one `<br/>`
apart, so ReportLab lays them out and draws them.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import pypdfium2
import pytest
from PIL import Image, ImageChops
from reportlab.lib.colors import HexColor, toColor
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from cardgen.cards.icons import INLINE_CALLBACK, IconPainter
from cardgen.core import reportlab_private, units
from cardgen.text import textfit
from cardgen.text.fonts import ICON, FontBook
from cardgen.text.linebreak import break_cjk, split_newlines
from cardgen.text.lines import line_width
from cardgen.text.markup import parse

ROOT = Path(__file__).resolve().parents[1]
X, TOP, WIDTH = 20.0, 270.0, 40.0  # mm
SEER = ROOT / "decks" / "werewolf" / "symbols" / "seer.svg"
LOREM = (
    "Each night, point at one player. The moderator shows you whether that player is a werewolf. "
    "You may reveal what you learned at any time, but the werewolves will hunt you once they know. "
)
CHINESE = (
    "预言家每天晚上可以查验一名玩家的身份，法官会用手势告诉他结果。如果查验的是狼人，法官做出“拇指向下”的手势；"
    "否则，做出“拇指向上”的手势。注意：预言家不能查验自己……（每局限一次）。"
)
CASES = [
    (LOREM * 2, "en", "left"),
    (LOREM, "en", "center"),
    ("Look at **one  player**'s card &amp; <tell> nobody.", "en", "left"),
    ("  Leading and trailing  \n\n*two* blank lines\nthen   more \u00a0 held\u00a0together  ", "en", "center"),
    ("Mỗi đêm, **bầy sói** chọn *một người* — & loại. " * 3, "vi", "left"),
    ("Fuse **α → ω** & ⅓ of 😀 ★ " + LOREM, "es", "center"),
    ("Supercalifragilisticexpialidocious and **a word** too wide", "en", "left"),
    ("Point at a player: the :seer: learns their team and **keeps it :seer:** a secret until the day.", "en", "left"),
    (
        "Each night the :seer: points at a player. **The :seer: learns** their team, and keeps it secret.",
        "en",
        "center",
    ),
    (":seer: wakes.", "en", "center"),
    (CHINESE, "zh", "left"),
    (CHINESE, "zh", "center"),
    ("（一）**狼人**每晚醒来，Seer 与 Witch 之后行动。\n\n" + CHINESE, "zh", "left"),
    ("预言家  Seer 与 Witch，每晚醒来。\n\n" + CHINESE, "zh", "center"),
    ("   " + CHINESE + "\n \n狼人", "zh", "left"),
    ("  x  " + CHINESE + "  \n  ", "zh", "center"),
]


@pytest.fixture(scope="module")
def book() -> FontBook:
    return FontBook.load(ROOT / "templates" / "fonts.yaml", [ROOT / "fonts"])


@pytest.fixture(scope="module")
def spacer(tmp_path_factory) -> str:
    """A transparent pixel: the reference paragraph reserves an inline icon's room with it."""
    path = tmp_path_factory.mktemp("spacer") / "spacer.png"
    Image.new("RGBA", (1, 1), (0, 0, 0, 0)).save(path)
    return str(path)


def _markup(lines: list[list[tuple[str, str]]], size: float, spacer: str) -> str:
    def piece(font: str, text: str) -> str:
        if font == ICON:
            return (
                f"<onDraw name={quoteattr(INLINE_CALLBACK)} label={quoteattr(text)}/>"
                f'<img src={quoteattr(spacer)} width="{size:.2f}" height="{size:.2f}" valign="baseline"/>'
            )
        return f"<font name={quoteattr(font)}>{escape(text)}</font>"

    return "<br/>".join("".join(piece(font, text) for font, text in line if text) for line in lines)


def _reference(layer: textfit.Layer, book: FontBook, size: float, align: str, spacer: str) -> Paragraph:
    """ReportLab's paragraph of a layer at a size, wrapped in the box."""
    pieces = [piece for span in layer.spans for piece in book.runs(span, span.lang or layer.lang)]
    style = ParagraphStyle(
        "card",
        fontName=next(font for font, _ in pieces if font != ICON),
        fontSize=size,
        leading=size * layer.leading,
        alignment=TA_CENTER if align == "center" else TA_LEFT,
        textColor=toColor(layer.color),
        splitLongWords=0,
        spaceShrinkage=0,
    )
    width = units.pt(WIDTH)
    if book.is_cjk(layer.lang):
        lines, _ = break_cjk(pieces, size, width)
        paragraph = Paragraph(_markup(lines, size, spacer), style)
        paragraph.wrap(width + 2 * reportlab_private.FUZZ, 1e9)
    else:
        paragraph = Paragraph(_markup(split_newlines(pieces), size, spacer), style)
        paragraph.wrap(width, 1e9)
    return paragraph


def _page(path: Path, draw) -> Image.Image:
    canvas = Canvas(str(path), pagesize=A4, invariant=1)
    IconPainter(canvas, "Helvetica").register_inline({"seer": (SEER, HexColor("#123456"))})
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return pypdfium2.PdfDocument(path)[0].render(scale=150 / 72).to_pil().convert("RGB")


def _compare(tmp_path, book, spacer, layers, fitted, align, shift=0.0) -> tuple[Image.Image, Image.Image]:
    """The page cardgen draws and the one ReportLab's paragraphs draw (`shift` pt higher)."""
    ours = _page(tmp_path / "ours.pdf", lambda canvas: textfit.draw(fitted, canvas, X, TOP))

    def reference(canvas) -> None:
        for below, layer in zip((0.0, *(top for top, _ in fitted.below)), layers):
            paragraph = _reference(layer, book, max(fitted.size * layer.scale, layer.least), align, spacer)
            paragraph.drawOn(canvas, units.pt(X), units.pt(TOP - below) - paragraph.height + shift)

    return ours, _page(tmp_path / "theirs.pdf", reference)


@pytest.mark.parametrize("text,lang,align", CASES)
def test_a_cards_text_is_drawn_as_reportlabs_paragraph_drew_it(book, spacer, tmp_path, text, lang, align):
    layers = (textfit.Layer(parse(text, {"seer"}), lang, "#1d1d1d"),)
    fitted = textfit.fit_layers(layers, book, WIDTH, 60, max_size=9, min_size=5, align=align)
    ours, theirs = _compare(tmp_path, book, spacer, layers, fitted, align)
    assert ours.convert("L").getextrema()[0] < 100  # something was drawn
    assert ImageChops.difference(ours, theirs).getbbox() is None


def test_two_languages_in_one_box_are_drawn_as_two_paragraphs_were(book, spacer, tmp_path):
    layers = (
        textfit.Layer(parse("**Tiên tri** mỗi đêm *soi* một người. " * 2), "vi", "#7a2a1a"),
        textfit.Layer(parse(CHINESE), "zh", "#1d1d1d", scale=0.8, gap=0.3, least=5),
    )
    fitted = textfit.fit_layers(layers, book, WIDTH, 60, max_size=9, min_size=5, align="center")
    assert fitted.below
    ours, theirs = _compare(tmp_path, book, spacer, layers, fitted, "center")
    assert ImageChops.difference(ours, theirs).getbbox() is None


def test_half_a_point_off_is_seen(book, spacer, tmp_path):
    """The comparison above sees a text drawn half a point higher than it should be."""
    layers = (textfit.Layer(parse(LOREM), "en", "#1d1d1d"),)
    fitted = textfit.fit_layers(layers, book, WIDTH, 60, max_size=9, min_size=5)
    ours, theirs = _compare(tmp_path, book, spacer, layers, fitted, "left", shift=0.5)
    assert ImageChops.difference(ours, theirs).getbbox() is not None


def test_an_inline_icon_at_a_lines_end_goes_over_with_its_word(book):
    """ReportLab's paragraph painted an icon that came after a line's last word past the box's edge, and
    began the next line with its room; cardgen's lines carry it over, as a word."""
    fitted = textfit.fit(
        parse("Wake the :seer: first, then **the :seer:** again.", {"seer"}),
        book,
        "en",
        WIDTH,
        60,
        max_size=9,
        min_size=9,
    )
    lines = fitted.drawn.lines
    assert [line[0] for line in lines[1:]] == [(ICON, "seer")]
    assert lines[0][-1] == ("NotoSans-Bold", "the")
    assert max(line_width(line, 9) for line in lines) <= units.pt(WIDTH)
