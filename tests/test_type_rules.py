"""One set of type rules for every kind of output, read back from the PDFs: every font a PDF
names is embedded, Chinese lines keep the cards' kinsoku in rulebooks and scripts too,
Vietnamese lines stand far enough apart that stacked marks never touch, and --paper
changes the documents as well as the card sheets."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardgen.core.units import mm
from conftest import run
from pdfread import chars, pages

GAMES = ("werewolf", "salem-1692", "mafia-vendetta", "werewords")
LANGS = ("en", "vi", "zh", "es")
# A Chinese line never starts with these, nor ends with the others.
CANNOT_START = "。，、：；！？）」』》〉】〕’”"  # not "…": a paragraph may open with "……"
CANNOT_END = "（「『《〈【〔‘“"


def unembedded(path) -> set[str]:
    """The fonts a PDF's pages name without embedding them."""
    missing = set()
    for page in PdfReader(path).pages:
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        for font in fonts.values():
            font = font.get_object()
            descriptor = (font["/DescendantFonts"][0].get_object() if font.get("/Subtype") == "/Type0" else font).get(
                "/FontDescriptor"
            )
            if descriptor is None or not {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor.get_object()):
                missing.add(str(font.get("/BaseFont")))
    return missing


def test_no_pdf_of_any_kind_names_a_font_it_does_not_embed(bundled, tmp_path):
    assert run("build", "werewords", "--lang", "vi", "--booklet", "--out", str(tmp_path)).exit_code == 0
    assert run("calibrate", "--out", str(tmp_path)).exit_code == 0
    outputs = sorted(bundled.glob("*/*.pdf")) + sorted(tmp_path.glob("**/*.pdf"))
    # Four games in four languages, Werewolf in Japanese and Mafia in Persian, three PDFs each; the booklet
    # and calibrate's four.
    assert len(outputs) == (4 * 4 + 2) * 3 + 4
    for path in outputs:
        assert unembedded(path) == set(), path.name


COLUMNS = {"rulebook": 2, "script": 1}  # as templates/documents/styles.yaml lays them out


def lines(page, columns: int) -> list[str]:
    """The lines of a page, each in reading order: characters sharing a baseline and a column."""
    width = mm(page.get_size()[0])
    by_line: dict = {}
    for c in chars(page):
        by_line.setdefault((int(c.box.x0 // (width / columns)), round(c.baseline, 1), round(c.size, 1)), []).append(c)
    return ["".join(c.text for c in sorted(line, key=lambda c: c.box.x0)) for line in by_line.values()]


@pytest.mark.parametrize("kind", ["rulebook", "script"])
@pytest.mark.parametrize("game", GAMES)
def test_chinese_documents_keep_the_line_start_and_end_rules(bundled, game, kind):
    broken = [
        line
        for page in pages(bundled / game / f"{game}-{kind}-zh.pdf")
        for line in lines(page, COLUMNS[kind])
        if line[0] in CANNOT_START or line[-1] in CANNOT_END
    ]
    assert not broken, broken


def _touching(page_chars) -> list[tuple[str, str]]:
    """Pairs of characters on adjacent lines of one text block whose glyph outlines overlap."""
    by_line: dict = {}
    for c in page_chars:
        by_line.setdefault((round(c.size, 1), round(c.baseline, 1)), []).append(c)
    keys = sorted(by_line, key=lambda k: -k[1])
    found = []
    for upper, lower in zip(keys, keys[1:]):
        size, baseline = upper
        # Adjacent lines of one paragraph: same size, one line's height apart at most.
        if lower[0] != size or baseline - lower[1] > mm(size) * 1.6:
            continue
        for a in by_line[upper]:
            for b in by_line[lower]:
                if min(a.box.x1, b.box.x1) > max(a.box.x0, b.box.x0) and a.box.y0 < b.box.y1:
                    found.append((a.text, b.text))
    return found


def test_vietnamese_marks_of_adjacent_lines_never_touch_on_the_cards(cards):
    """Salem's Kill cards once printed the "p" of "kịp" on the hook of the "Ẩ" below it."""
    prepared, pdf = cards("salem-1692", "vi")
    document = pages(pdf)
    kill = [
        i
        for i, page in enumerate(prepared.pages)
        if page.side == "front" and any(prepared.deck.copies[s.item].group.id == "kill" for s in page.slots)
    ]
    assert kill
    for index in kill:
        page = prepared.pages[index]
        letters = chars(document[index])
        for slot in page.slots:
            inside = [
                c
                for c in letters
                if slot.trim.x <= c.box.cx <= slot.trim.right
                and slot.trim.y <= c.box.cy <= slot.trim.top
                and c.size < 11
            ]
            assert not _touching(inside), (prepared.deck.copies[slot.item].id, _touching(inside)[:5])


@pytest.mark.parametrize("kind", ["rulebook", "script"])
def test_vietnamese_marks_of_adjacent_lines_never_touch_in_the_documents(bundled, kind):
    for game in GAMES:
        for page in pages(bundled / game / f"{game}-{kind}-vi.pdf"):
            width = mm(page.get_size()[0]) / COLUMNS[kind]
            for column in range(COLUMNS[kind]):
                column_chars = [c for c in chars(page) if int(c.box.x0 // width) == column]
                assert not _touching(column_chars), (game, _touching(column_chars)[:5])


def _size(path, index=0) -> tuple[float, float]:
    box = PdfReader(path).pages[index].mediabox
    return round(mm(float(box.width)), 1), round(mm(float(box.height)), 1)


def test_paper_letter_prints_the_documents_on_letter_too(tmp_path):
    for extra, out in (((), "plain"), (("--booklet",), "booklet")):
        result = run("build", "werewolf", "--lang", "en", "--paper", "letter", "--out", str(tmp_path / out), *extra)
        assert result.exit_code == 0, result.output
    folder = tmp_path / "plain" / "werewolf"
    assert _size(folder / "werewolf-rulebook-en.pdf") == (215.9, 279.4)
    assert _size(folder / "werewolf-script-en.pdf") == (215.9, 279.4)
    assert _size(folder / "werewolf-cards-en.pdf") == (279.4, 215.9)  # turned: 4 x 2 poker cards
    # The booklet: half-Letter pages, two to a Letter sheet turned, meeting at its middle.
    booklet = tmp_path / "booklet" / "werewolf" / "werewolf-rulebook-en.pdf"
    assert _size(booklet) == (279.4, 215.9)
    first = pages(booklet)[0]
    title = [c for c in chars(first) if c.size > 15]
    assert title and min(c.box.x0 for c in title) > 279.4 / 2  # page 1 on the right half
