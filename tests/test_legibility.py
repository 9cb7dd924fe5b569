"""Legible at the table, measured on the rendered pages: teams that look alike to a colour-blind
player differ by their mark, back emblems stand out from their backs, dark backs are told
about, token names keep off the ring, no internal name is printed, the moderator's
instructions read by candlelight, no document ends on a page of one or two lines and the
Vietnamese setup table keeps every label on one line."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter

import pytest
import yaml

from cardgen.core.units import mm
from conftest import ROOT, run
from pdfread import chars, image, pages, rgb_pixels

GAMES = ("werewolf", "salem-1692", "mafia-vendetta", "werewords")
LANGS = ("en", "vi", "zh", "es")

# Machado, Oliveira and Fernandes (2009), full severity, on linear RGB.
SIMULATIONS = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
}
ALIKE = 20.0  # CIE76 distance under which two colours pass for one another


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def simulate(rgb: tuple[int, int, int], kind: str) -> tuple[float, float, float]:
    lin = [_linear(v / 255) for v in rgb]
    return tuple(_encoded(sum(m * v for m, v in zip(row, lin))) for row in SIMULATIONS[kind])  # type: ignore


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (_linear(v) for v in rgb)
    x, y, z = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def luminance(rgb: tuple[float, float, float]) -> float:
    r, g, b = (_linear(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def crop(page, box_mm: tuple[float, float, float, float], dpi: float):
    """The part x0, y0, x1, y1 (mm, PDF origin) of a page, rendered."""
    x0, y0, x1, y1 = box_mm
    picture = image(page, dpi)
    height = picture.height
    px = dpi / 25.4
    return picture.crop((round(x0 * px), round(height - y1 * px), round(x1 * px), round(height - y0 * px)))


def _placed(prepared, item_test, side="front"):
    """(page index, slot) of the first slot of a card passing item_test."""
    for index, page in enumerate(prepared.pages):
        for slot in page.slots:
            if slot.side == side and item_test(prepared.deck.copies[slot.item]):
                return index, slot
    raise AssertionError("no such card on the sheets")


def _on_page(slot, box):
    """A box given in card coordinates, on the page, as its slot turns it."""
    if slot.rotation == 180:
        box = type(box)(slot.trim.w - box.right, slot.trim.h - box.top, box.w, box.h)
    return slot.trim.x + box.x, slot.trim.y + box.y, slot.trim.x + box.right, slot.trim.y + box.top


# --- colour-blind safety -------------------------------------------------------------------


def _team_marks(cards, game):
    """Per team of the game's role cards: the left end of its label pill, rendered: (the pill's
    colour, the pixels)."""
    prepared, pdf = cards(game, "en")
    document = pages(pdf)
    out = {}
    for team in dict.fromkeys(card.team.id for card in prepared.deck.cards if card.team and card.layout == "role"):
        index, slot = _placed(
            prepared, lambda card, team=team: card.team and card.team.id == team and card.layout == "role"
        )
        pill = prepared.faces.fronts[prepared.deck.copies[slot.item].id].team_box
        end = type(pill)(pill.x, pill.y, pill.h, pill.h)
        picture = crop(document[index], _on_page(slot, end), 300)
        pixels = rgb_pixels(picture)
        out[team] = Counter(pixels).most_common(1)[0][0], pixels, picture.size
    return out


@pytest.mark.parametrize("game", GAMES)
def test_teams_alike_to_a_colour_blind_eye_differ_by_their_mark(cards, game):
    marks = _team_marks(cards, game)
    alike = 0
    for (a, (color_a, pixels_a, _)), (b, (color_b, pixels_b, _)) in itertools.combinations(marks.items(), 2):
        for kind in SIMULATIONS:
            seen_a, seen_b = simulate(color_a, kind), simulate(color_b, kind)
            if math.dist(lab(seen_a), lab(seen_b)) >= ALIKE:
                continue
            alike += 1

            # Seen this way, what is light on the pill (the mark) must have another shape.
            def shape(pixels, pill, kind=kind):
                middle = (luminance(pill) + 1) / 2
                return [luminance(simulate(p, kind)) > middle for p in pixels]

            n = min(len(pixels_a), len(pixels_b))
            light_a, light_b = shape(pixels_a, seen_a)[:n], shape(pixels_b, seen_b)[:n]
            # The share of the two marks' light pixels that only one of them has.
            either = sum(x or y for x, y in zip(light_a, light_b))
            differ = sum(x != y for x, y in zip(light_a, light_b)) / max(either, 1)
            assert differ > 0.25, (game, kind, a, b, differ)
    assert alike or game == "mafia-vendetta", f"{game}: no two teams alike under simulation; the test tests nothing"


# --- back emblems and ink --------------------------------------------------------------------


def _back_designs(prepared):
    """The groups of a deck whose cards share a back design, one each."""
    from cardgen.build import back_design

    seen = {}
    for card in prepared.deck.copies:
        if not card.back_face:
            seen.setdefault(back_design(card), card.group)
    return list(seen.values())


@pytest.mark.parametrize("ink_saver", [False, True], ids=["full", "ink-saver"])
@pytest.mark.parametrize("game", GAMES)
def test_back_emblems_stand_out_3_to_1_from_their_backs(cards, game, ink_saver):
    prepared, pdf = cards(game, "en", ink_saver=ink_saver)
    document = pages(pdf)
    for group in _back_designs(prepared):
        if not group.back.symbol:
            continue
        index, slot = _placed(prepared, lambda card, g=group: card.group.id == g.id and not card.back_face, "back")
        emblem = prepared.faces.backs[group.id].emblem_box
        # The emblem's middle, where it is drawn (its square's corners show the back).
        inner = type(emblem)(emblem.x + emblem.w * 0.15, emblem.y + emblem.h * 0.15, emblem.w * 0.7, emblem.h * 0.7)
        pixels = [tuple(v / 255 for v in p) for p in rgb_pixels(crop(document[index], _on_page(slot, inner), 100))]
        # The back's own colour: the commonest in a corner, clear of the emblem and the title, wide enough
        # that the pattern's symbols on it stay fewer than the ground between them.
        margin = [
            tuple(v / 255 for v in p)
            for p in rgb_pixels(
                crop(document[index], (slot.paint.x, slot.paint.y, slot.paint.x + 12, slot.paint.y + 12), 100)
            )
        ]
        back = Counter(margin).most_common(1)[0][0]
        # The emblem's ink: its commonest colour that is not the back nor the pattern on it.
        drawn = Counter(p for p in pixels if contrast(p, back) > 1.5)
        assert drawn, (game, group.id, "the emblem does not show")
        ink = drawn.most_common(1)[0][0]
        assert contrast(ink, back) >= 3.0, (game, group.id, ink, back, contrast(ink, back))


def coverage(pixels) -> float:
    """Mean ink coverage (C + M + Y + K, full under-colour removal; 1 is 100 %)."""
    total = 0.0
    for r, g, b in pixels:
        c, m, y = 1 - r / 255, 1 - g / 255, 1 - b / 255
        total += c + m + y - 2 * min(c, m, y)
    return total / len(pixels)


def _back_coverage(cards, game, **options) -> float:
    prepared, pdf = cards(game, "en", **options)
    document = pages(pdf)
    (index, page) = next((i, p) for i, p in enumerate(prepared.pages) if p.side == "back")
    box = page.bleed_box
    return coverage(rgb_pixels(crop(document[index], (box.x, box.y, box.right, box.top), 30)))


@pytest.mark.parametrize("game", GAMES)
def test_ink_saver_backs_use_a_fraction_of_the_ink(cards, game):
    full, saver = _back_coverage(cards, game), _back_coverage(cards, game, ink_saver=True)
    assert full > 0.6 and saver < 0.25 and saver < full / 4, (full, saver)


def test_dark_backs_make_the_build_suggest_ink_saver_and_the_default_back_is_light(mini, tmp_path):
    dark = run("build", "werewolf", "--lang", "en", "--out", str(tmp_path / "w"))
    assert (
        "the backs of werewolf print dark (up to 98 % ink coverage); --ink-saver prints them as light tints"
        in dark.stderr
    )
    light = run("build", "--lang", "en", "--decks", str(mini / "decks"), "--out", str(tmp_path / "m"))
    assert light.exit_code == 0 and "ink" not in light.stderr
    document = pages(tmp_path / "m" / "mini" / "mini-cards-en.pdf")
    assert coverage(rgb_pixels(image(document[1], 30))) < 0.3


# --- token names ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ["werewords", "salem-1692"])
def test_token_names_keep_inside_the_ring(cards, game, lang):
    prepared, pdf = cards(game, lang)
    ring = prepared.faces.layouts["token-25"]["token"]["ring"]
    document = pages(pdf)
    checked = 0
    for index, page in enumerate(prepared.pages):
        letters = chars(document[index])
        for slot in page.slots:
            if prepared.deck.copies[slot.item].group.shape != "round":
                continue
            cx, cy, r = slot.trim.cx, slot.trim.cy, slot.trim.w / 2 - ring
            for c in letters:
                if slot.trim.x <= c.box.cx <= slot.trim.right and slot.trim.y <= c.box.cy <= slot.trim.top:
                    checked += 1
                    for x, y in (
                        (c.box.x0, c.box.y0),
                        (c.box.x1, c.box.y0),
                        (c.box.x0, c.box.y1),
                        (c.box.x1, c.box.y1),
                    ):
                        assert math.hypot(x - cx, y - cy) <= r, (game, lang, c.text, math.hypot(x - cx, y - cy), r)
    assert checked


# --- printed words ----------------------------------------------------------------------------


def _text(path) -> str:
    return "\n".join(page.get_textpage().get_text_range() for page in pages(path))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_no_internal_name_is_printed_and_sizes_have_names_in_the_language(bundled, game, lang):
    sizes = yaml.safe_load((ROOT / "templates" / "card-sizes.yaml").read_text(encoding="utf-8"))
    rulebook = _text(bundled / game / f"{game}-rulebook-{lang}.pdf")
    script = _text(bundled / game / f"{game}-script-{lang}.pdf")
    for text in (rulebook, script):
        assert not re.search(r"token-\d", text)
        for key, spec in sizes.items():
            assert not re.search(rf"\b{re.escape(key)} {spec['width']:g}\b", text), key
    assert sizes["poker"]["name"][lang] in rulebook
    if lang == "zh":
        components = rulebook.split("配件")[1].split("按人数配置")[0]
        assert "、" in components and ", " not in components


def test_the_moderators_instructions_read_by_candlelight(bundled):
    """What the moderator does (the italic lines) is nearly as large as what they read out and
    as dark: 7:1 against the paper."""
    for game in GAMES:
        for page in pages(bundled / game / f"{game}-script-en.pdf"):
            italic = [c for c in chars(page) if "Italic" in c.font]
            for c in italic:
                assert c.size >= 12.5, (game, c.text, c.size)
                assert contrast(tuple(v / 255 for v in c.rgb), (1.0, 1.0, 1.0)) >= 7.0, (game, c.rgb)


def body_lines(page, top_margin: float, bottom_margin: float) -> set[tuple[int, float]]:
    """(column, baseline) of every line of a document page's body, header and footer left out."""
    width, height = (mm(v) for v in page.get_size())
    return {
        (int(c.box.x0 > width / 2), round(c.baseline, 1))
        for c in chars(page)
        if bottom_margin - 0.5 < c.baseline < height - top_margin + 0.5
    }


@pytest.mark.parametrize("kind", ["rulebook", "script"])
def test_no_document_ends_on_a_page_of_one_or_two_lines(bundled, kind):
    styles = yaml.safe_load((ROOT / "templates" / "documents" / "styles.yaml").read_text(encoding="utf-8"))
    margins = styles[kind]["margins"]
    for game in GAMES:
        for lang in LANGS:
            document = pages(bundled / game / f"{game}-{kind}-{lang}.pdf")
            lines = body_lines(document[len(document) - 1], margins["top"], margins["bottom"])
            assert len(document) == 1 or len(lines) >= 3, (game, lang, len(lines))


@pytest.mark.parametrize(
    ("game", "lang"),
    [
        ("werewords", "vi"),
        ("salem-1692", "vi"),
        ("werewolf", "vi"),
        ("mafia-vendetta", "vi"),
        # Japanese setups' names wrap between characters: the labels' column is not squeezed as if each
        # were one word (ハンター was set as ハン/ター).
        ("werewolf", "ja"),
    ],
)
def test_the_setup_table_keeps_each_label_on_one_line(bundled, cards, game, lang):
    from cardgen.core.project import Project
    from cardgen.documents import rulebook

    prepared, _ = cards(game, lang)
    text = yaml.safe_load((ROOT / "templates" / "documents" / "text.yaml").read_text(encoding="utf-8"))
    words = {**text["en"], **text[lang]}
    sizes = Project.at(ROOT / "decks").template_data("card-sizes.yaml")
    setups = rulebook.context(prepared.deck, words, sizes, 1, "A4")["setups"]
    document = pages(bundled / game / f"{game}-rulebook-{lang}.pdf")
    lines = []
    for page in document:
        by_line: dict = {}
        width = mm(page.get_size()[0])
        for c in chars(page):
            by_line.setdefault((c.box.x0 > width / 2, round(c.baseline, 1)), []).append(c)
        lines += ["".join(c.text for c in sorted(line, key=lambda c: c.box.x0)) for line in by_line.values()]
    expected = ["".join(words["players_short"].split()) + "".join(map(str, setup["players"])) for setup in setups]
    expected += [
        "".join(row["name"].split()) + "".join(str(n or "–") for n in row["counts"])
        for setup in setups
        for row in setup["rows"]
    ]
    for row in expected:
        assert row in lines, (game, row)
