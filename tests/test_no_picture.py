"""A role card without a picture gives the picture's room to its ability text and keeps its team label,
in every card size and in two languages, read back from the PDF: its text is set larger than the same
text on a card with a picture (or fits where that card's is refused), the label is on its pill, and
nothing runs off the card, into the pill, or under the team's edge trail."""

from __future__ import annotations

import shutil

import pypdfium2.raw as pdfium_c
import pytest

from cardgen.core.units import Rect
from conftest import FIXTURES
from pdfread import Box, chars, fills, objects, pages

EN = (
    "Each night, point at a player: the moderator shows you that player''s card. If it is a wolf, nod "
    "once; if not, keep a straight face. You may reveal what you learned at any time, but the wolves will "
    "hunt you once they know. When you are eliminated, show your card to everyone and name the one player "
    "you trust the most. On the first night you may also look at one of the two cards in the middle."
)
VI = (
    "Mỗi đêm, chỉ vào một người chơi: quản trò cho bạn xem lá bài của người đó. Nếu là sói, hãy gật đầu "
    "một lần; nếu không, giữ nét mặt bình thường. Bạn có thể tiết lộ điều đã biết bất cứ lúc nào, nhưng bầy "
    "sói sẽ săn bạn khi chúng biết. Khi bị loại, hãy lật bài cho mọi người xem và gọi tên người bạn tin "
    "nhất. Đêm đầu tiên bạn cũng có thể xem một trong hai lá bài giữa bàn."
)
# Wide cards give two languages' texts less room: at 6.5 pt, where a bilingual card stops shrinking, they print
# the short forms.
SHORT = {
    "en": "Each night, point at a player: the moderator shows you that player''s card. On the first night you "
    "may also look at one of the two cards in the middle.",
    "vi": "Mỗi đêm, chỉ vào một người chơi: quản trò cho bạn xem lá bài của người đó. Đêm đầu tiên bạn cũng có "
    "thể xem một trong hai lá bài giữa bàn.",
}
SIZES = ("poker", "bridge", "tarot", "mini", "euro-mini", "square", "business")
# Mini and euro-mini cards have no room for two languages: a bilingual build of them stops.
CASES = [(size, lang) for size in SIZES for lang in ("en", "vi+en") if lang == "en" or "mini" not in size]
TEXT, SECOND, LABEL = (0x1D, 0x1D, 0x1D), (0x33, 0x62, 0x8F), (0xFF, 0xFF, 0xFF)
VILLAGE = (0x2F, 0x6B, 0x3A)


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    """Two games of the mini deck whose seer has the same long text: in `bare` without a picture, in
    `pictured` with one; the village trails its edge symbol down the cards' sides."""
    from cardgen.build import BuildOptions, Pipeline, check
    from cardgen.core.project import Project

    root = tmp_path_factory.mktemp("no-picture")
    for game, picture in (("bare", ""), ("pictured", "symbol: symbols/wolf.svg\n")):
        folder = root / "decks" / game
        shutil.copytree(FIXTURES / "mini" / "decks" / "mini", folder)
        (folder / "game.yaml").write_text(
            (folder / "game.yaml")
            .read_text(encoding="utf-8")
            .replace('color: "#2f6b3a"', 'color: "#2f6b3a"\n    edge: symbols/wolf.svg'),
            encoding="utf-8",
        )
        (folder / "roles" / "seer.yaml").write_text(
            f"name: {{en: Seer, vi: Tiên tri}}\nteam: village\n{picture}ability:\n  en: '{EN}'\n  vi: '{VI}'\n"
            f"short-ability:\n  en: '{SHORT['en']}'\n  vi: '{SHORT['vi']}'\n",
            encoding="utf-8",
        )
    project = Project.at(root / "decks")
    return project, Pipeline(project, BuildOptions()), {files.id: files for files in check(project, [], False)[0]}


def seer_front(pipeline, game: str, size: str, lang: str):
    """(the seer's trim on its page, the page) of the game built at that size, or the build's errors."""
    from cardgen.build import BuildOptions
    from cardgen.cards import render

    project, built, games = pipeline
    built.options = BuildOptions(card_size=size)
    prepared, problems = built.prepare(games[game], lang)
    errors = [str(p) for p in problems if p.severity == "error"]
    if prepared is None or errors:
        return None, errors
    options = render.RenderOptions(
        False,
        project.template_data("sheet.yaml"),
        project.template_data("strings.yaml")["en"],
        built.options.back_offset,
    )
    pdf = pages(render.render_pdf(prepared.deck, prepared.pages, prepared.faces, prepared.book, options))
    for index, page in enumerate(prepared.pages):
        for slot in page.slots:
            if slot.side == "front" and prepared.deck.copies[slot.item].id == "seer":
                return (slot.trim, pdf[index]), []
    raise AssertionError("no seer on the sheets")


def inside(trim: Rect, box: Box) -> bool:
    return trim.x <= box.cx <= trim.right and trim.y <= box.cy <= trim.top


def union(boxes: list[Box]) -> Box:
    return Box(min(b.x0 for b in boxes), min(b.y0 for b in boxes), max(b.x1 for b in boxes), max(b.y1 for b in boxes))


@pytest.mark.parametrize(("size", "lang"), CASES)
def test_a_card_without_a_picture_sets_its_text_larger_and_keeps_its_label(pipeline, size, lang):
    bare, errors = seer_front(pipeline, "bare", size, lang)
    assert bare is not None, errors
    trim, page = bare
    letters = [c for c in chars(page) if inside(trim, c.box)]
    text = [c for c in letters if c.rgb in (TEXT, SECOND)]
    label = "".join(c.text for c in letters if c.rgb == LABEL)
    assert label.replace(" ", "") == ("Dânlàng·Village" if lang == "vi+en" else "Village")
    assert {c.rgb for c in text} == ({TEXT, SECOND} if lang == "vi+en" else {TEXT})
    size_without = max(c.size for c in text if c.rgb == TEXT)

    # Nothing runs off the card: every character's box is inside the trim.
    card = Box(trim.x, trim.y, trim.right, trim.top)
    assert all(card.contains(c.box) for c in letters), [c.text for c in letters if not card.contains(c.box)]
    # The label is on its pill, the text clear of it; no edge trail is drawn over the text.
    labels = union([c.box for c in letters if c.rgb == LABEL])
    pill = min((f.box for f in fills(page) if f.rgb == VILLAGE and f.box.contains(labels)), key=lambda b: b.w * b.h)
    assert pill.h < trim.h / 8
    words = union([c.box for c in text])
    assert not words.overlaps(pill)
    forms = [box for kind, box in objects(page) if kind == pdfium_c.FPDF_PAGEOBJ_FORM and inside(trim, box)]
    assert not [box for box in forms if box.overlaps(words)]

    pictured, refused = seer_front(pipeline, "pictured", size, lang)
    if pictured is None:
        # With a picture the same text does not fit even at the smallest size.
        assert any("seer: the ability text" in problem and "does not fit" in problem for problem in refused)
        return
    trim, page = pictured
    with_picture = [c for c in chars(page) if inside(trim, c.box) and c.rgb in (TEXT, SECOND)]
    if len(with_picture) < len(text):
        # With a picture a bilingual card holds only its short forms: without one, it prints more.
        assert lang == "vi+en"
        return
    assert len(with_picture) == len(text)
    assert size_without > max(c.size for c in with_picture if c.rgb == TEXT)
