"""A document's text is drawn by cardgen itself: its pages must be those ReportLab's own paragraph drew
from the same text, pixel for pixel at 150 dpi, in every language, across columns and pages.

The reference is a real ReportLab Paragraph, made here from markup written here: in a language that
breaks between words, of the whole text, so ReportLab breaks and draws the lines itself; in a CJK
language, of the lines cardgen's kinsoku breaker made (their choice is linebreak's, tested there),
one `<br/>` apart, so ReportLab lays them out and draws them.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

import pytest
from PIL import Image, ImageChops
from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph

from cardgen.build import BuildOptions
from cardgen.cards.icons import INLINE_CALLBACK
from cardgen.core.pdfinfo import Info
from cardgen.core.units import Size
from cardgen.documents import flowables, typeset
from cardgen.text.fonts import ICON, FontBook
from cardgen.text.linebreak import break_cjk, split_newlines
from cardgen.text.markup import Span
from conftest import ROOT
from pdfread import image, pages

DPI = 150

# Every kind of element, bold and italic runs, bullets, character references, an inline icon, a
# table whose cells wrap, and steps long enough to be split across columns and pages.
DOCUMENT = """<doc>
<h1>{title}</h1>
<p class="small">{short}</p>
<h2 break="no">{title}</h2>
<p>{body} **{bold}** *{italic}* {body}</p>
<blocks>{body}

- {bold} :seer: {italic}
- **{bold}**, {body}
{body}</blocks>
<item bullet="3.">{short} {body}</item>
<table><tr><th>{short}</th><th>5</th><th>{bold}</th></tr>
<tr><td>{bold}</td><td>1</td><td>{body}</td></tr><tr><td>{italic}</td><td>2</td><td>{short}</td></tr></table>
<role name="{bold}" label="{short}" color="#7a2a1a">{body} {body}</role>
<h3>{italic}</h3>
<step kind="say">{body} {body} {body} {body}</step>
<step kind="do">*{italic}* {body} {body} {body}</step>
<step kind="check">{short}</step>
<step kind="say">{body} **{bold}** {body} {body} {body} {body}</step>
</doc>"""

TEXTS = {
    "en": {
        "title": "Werewolf & <friends>",
        "short": "Deal one card to each player",
        "bold": "The Seer",
        "italic": "wakes up",
        "body": "Each night the werewolves choose a player, and the village votes in the day; "
        "a very-long-hyphenated-word-that-runs-on-and-on-beyond-a-narrow-column closes it.",
    },
    "vi": {
        "title": "Ma sói",
        "short": "Chia mỗi người một lá",
        "bold": "Tiên tri",
        "italic": "thức dậy",
        "body": "Mỗi đêm, bầy sói chọn một người — & loại người đó khỏi làng; ban ngày cả làng biểu quyết.",
    },
    "zh": {
        "title": "狼人杀",
        "short": "每人发一张牌（背面朝上）。",
        "bold": "预言家",
        "italic": "睁眼",
        "body": "天黑请闭眼。狼人请睁眼，请选择今晚要杀的玩家：“Seer 与 Witch”……预言家查验一名玩家的身份。",
    },
    "es": {
        "title": "Hombres lobo",
        "short": "Reparte una carta a cada jugador",
        "bold": "La Vidente",
        "italic": "se despierta",
        "body": "Cada noche los lobos eligen a un jugador ★ y el pueblo vota de día; ¡nadie enseña su carta!",
    },
}


class _ReportLabParagraph(Flowable):
    """ReportLab's paragraph of the runs, made at the width it is offered."""

    def __init__(self, pieces: list[tuple[str, str]], style: ParagraphStyle, bullet: str | None, cjk: bool):
        super().__init__()
        self.pieces, self.style, self.bullet, self.cjk = pieces, style, bullet, cjk
        self.spacer = ""

    def at(self, width: float) -> Paragraph:
        style = self.style
        if not self.cjk:
            return Paragraph(_markup(split_newlines(self.pieces), style.fontSize), style, bulletText=self.bullet)
        room = width - style.leftIndent - style.rightIndent
        first = [room - style.firstLineIndent]
        from reportlab.platypus.paragraph import _handleBulletWidth

        _handleBulletWidth(self.bullet, style, first)
        lines, _ = break_cjk(self.pieces, style.fontSize, room, first[0])
        cjk = ParagraphStyle(f"{style.name}-cjk", parent=style, wordWrap="CJK")
        return Paragraph(_markup(lines, style.fontSize), cjk, bulletText=self.bullet)

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.paragraph = self.at(available_width)
        self.width, self.height = self.paragraph.wrap(available_width, available_height)
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        return self.at(available_width).split(available_width, available_height)

    def draw(self) -> None:
        self.paragraph.drawOn(self.canv, 0, 0)

    def getSpaceBefore(self) -> float:
        return self.style.spaceBefore

    def getSpaceAfter(self) -> float:
        return self.style.spaceAfter


SPACER: list[str] = []  # a transparent pixel's file: ReportLab reserves an inline icon's room with it


def _markup(lines: list[list[tuple[str, str]]], size: float) -> str:
    def piece(font: str, text: str) -> str:
        if font == ICON:
            return (
                f"<onDraw name={quoteattr(INLINE_CALLBACK)} label={quoteattr(text)}/>"
                f'<img src={quoteattr(SPACER[0])} width="{size:.2f}" height="{size:.2f}" valign="baseline"/>'
            )
        return f"<font name={quoteattr(font)}>{escape(text)}</font>"

    return "<br/>".join("".join(piece(font, text) for font, text in line if text) for line in lines)


@pytest.fixture(scope="module")
def setting(tmp_path_factory):
    from cardgen.build import Pipeline
    from cardgen.core.project import Project

    spacer = tmp_path_factory.mktemp("spacer") / "spacer.png"
    Image.new("RGBA", (1, 1), (0, 0, 0, 0)).save(spacer)
    SPACER[:] = [str(spacer)]
    pipeline = Pipeline(Project.at(ROOT / "decks"), BuildOptions())
    return pipeline.book, pipeline.read("documents/styles.yaml")


def _pages(book: FontBook, style: dict, lang: str, shift: float = 0.0) -> list[Image.Image]:
    # Two columns on a small page: the steps and the table go over columns and pages.
    pdf, _ = typeset.render_document(
        DOCUMENT.format(**{key: escape(value) for key, value in TEXTS[lang].items()}),
        book,
        lang,
        style["rulebook"],
        style["colors"],
        Size(148, 120),
        typeset.PageFurniture("Header", lambda n, total: f"{n}/{total}"),
        Info("test", "", "", lang),
        {"seer": (ROOT / "decks" / "werewolf" / "symbols" / "seer.svg", HexColor("#123456"))},
        once=True,
    )
    return [image(page, DPI) for page in pages(pdf)]


def _reference(monkeypatch, book: FontBook, shift: float = 0.0) -> None:
    """Documents made with ReportLab's paragraphs instead of cardgen's (each drawn `shift` pt higher)."""

    def paragraph(spans: tuple[Span, ...], book: FontBook, lang: str, style: ParagraphStyle, bullet=None):
        pieces = [piece for span in spans for piece in book.runs(span, lang)]
        return _ReportLabParagraph(pieces, style, bullet, book.is_cjk(lang))

    monkeypatch.setattr(flowables, "document_text", paragraph)
    if shift:
        draw_on = Paragraph.drawOn
        monkeypatch.setattr(
            Paragraph, "drawOn", lambda self, canvas, x, y, _sW=0: draw_on(self, canvas, x, y + shift, _sW)
        )


@pytest.mark.parametrize("lang", list(TEXTS))
def test_a_documents_pages_are_those_reportlabs_paragraphs_drew(setting, monkeypatch, lang):
    book, style = setting
    ours = _pages(book, style, lang)
    _reference(monkeypatch, book)
    theirs = _pages(book, style, lang)
    assert len(ours) >= 3 and len(ours) == len(theirs)
    for number, (mine, reference) in enumerate(zip(ours, theirs), 1):
        # Every page has text drawn on it, and the same.
        assert mine.convert("L").getextrema()[0] < 100, number
        assert ImageChops.difference(mine, reference).getbbox() is None, f"page {number} differs"


def test_half_a_point_off_is_seen(setting, monkeypatch):
    """The comparison above sees a text drawn half a point higher than it should be."""
    book, style = setting
    ours = _pages(book, style, "en")
    _reference(monkeypatch, book, shift=0.5)
    theirs = _pages(book, style, "en")
    assert len(ours) == len(theirs)
    assert all(ImageChops.difference(mine, reference).getbbox() for mine, reference in zip(ours, theirs))
