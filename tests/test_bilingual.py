"""Cards for mixed-language tables (issue 15): --lang A+B prints every card in both languages, the second
smaller and set apart; the documents stay in the first with the second names in brackets; --pinyin sets
pinyin over Chinese names. Read back from the PDFs, with the exact messages a user sees."""

from __future__ import annotations

import json
import unicodedata
from collections import defaultdict

import pypdf
import pytest
from pypinyin import Style, pinyin

from cardgen.core.units import Rect
from cardgen.text import markup
from cardgen.text.linebreak import CANNOT_START
from conftest import ROOT, run
from pdfread import Box, Char, chars, pages

CHINESE_CLOSING = "，。、：；！？）］｝〕〉》」』】〗”’…"


def plain(text: str) -> str:
    """A deck text as it prints, without its markup and its spaces (extraction places spaces its own way)."""
    return "".join("".join(span.text for span in markup.parse(text)).split())


def trim_box(rect: Rect) -> Box:
    return Box(rect.x, rect.y, rect.right, rect.top)


def fronts(prepared, pdf) -> list[tuple[object, Box, list[Char]]]:
    """Each printed front: its card, its trim and the characters inside it, one of each card."""
    document = pages(pdf)
    seen, out = set(), []
    for number, page in enumerate(prepared.pages):
        if page.side != "front":
            continue
        printed = chars(document[number])
        for slot in page.slots:
            card = prepared.deck.copies[slot.item]
            if card.id in seen:
                continue
            seen.add(card.id)
            box = trim_box(slot.trim)
            out.append((card, box, [c for c in printed if box.contains(c.box, 0.5)]))
    return out


def lines(printed: list[Char]) -> list[list[Char]]:
    """Characters in lines by baseline, top line first, each left to right."""
    rows: dict[float, list[Char]] = defaultdict(list)
    for char in printed:
        rows[round(char.baseline * 4) / 4].append(char)
    return [sorted(row, key=lambda c: c.box.x0) for _, row in sorted(rows.items(), reverse=True)]


def reading(printed: list[Char]) -> str:
    return "".join(c.text for line in lines(printed) for c in line)


def said(card, text: str) -> str:
    """A language's ability as a card prints it: in full, or its short-ability where both full texts do not
    fit together (the second language's first, as the Imposter with its Loner's goal in es+zh; then both,
    as the Werewolf in vi+en)."""
    full = plain(card.ability.value)
    return full if full in text or card.short is None else plain(card.short.value)


@pytest.mark.parametrize("game, pair", [("werewolf", "vi+en"), ("mafia-vendetta", "es+zh"), ("salem-1692", "zh+vi")])
def test_every_role_card_reads_name_team_and_ability_in_both_languages_in_order(cards, game, pair):
    prepared, pdf = cards(game, pair)
    deck, second = prepared.deck, prepared.deck.second
    assert (deck.lang, second.lang) == tuple(pair.split("+"))
    role_cards = 0
    for card, _, printed in fronts(prepared, pdf):
        if card.layout != "role":
            continue
        other = deck.second_card(card)
        teams = [plain(c.team.name.value if c.team else c.group.name.value) for c in (card, other)]
        expected = []
        # A text both languages share (a Vecino who is of the Vecinos) prints once.
        for first, second in (
            (plain(card.name.value), plain(other.name.value)),
            (teams[0], "·" + teams[1]),
            (said(card, reading(printed)), said(other, reading(printed))),
        ):
            expected += [first] if second in (first, "·" + first) else [first, second]
        text, at = reading(printed), 0
        for part in expected:
            found = text.find(part, at)
            assert found >= 0, f"{card.id}: {part!r} not after {text[:at]!r} in {text!r}"
            at = found + len(part)
        role_cards += 1
    assert role_cards >= 10


@pytest.mark.parametrize("game, pair", [("werewolf", "vi+en"), ("mafia-vendetta", "es+zh"), ("werewolf", "en+zh")])
def test_the_second_language_is_smaller_and_in_another_colour_and_style(cards, game, pair):
    prepared, pdf = cards(game, pair)
    deck = prepared.deck
    checked = 0
    for card, _, printed in fronts(prepared, pdf):
        if card.layout != "role":
            continue
        other = deck.second_card(card)
        body = lines(printed)
        # The first language's ability in the body colour, the second's in its own blue.
        first = [c for line in body for c in line if c.rgb == (0x1D, 0x1D, 0x1D)]
        second = [c for line in body for c in line if c.rgb == (0x33, 0x62, 0x8F)]
        assert "".join(c.text for c in first) == said(card, "".join(c.text for c in first)), card.id
        assert "".join(c.text for c in second) == said(other, "".join(c.text for c in second)), card.id
        # Smaller, or both at the least size of a bilingual card (6.5 pt), which the second never goes below.
        assert max(c.size for c in second) < min(c.size for c in first) or {c.size for c in first + second} == {6.5}, (
            card.id
        )
        if deck.second.lang != "zh":  # Noto Sans SC has no italic: there the colour alone sets it apart
            assert all("Italic" in c.font for c in second), card.id
        # The name's second line: smaller, and in the regular weight under the bold first.
        name_chars = [
            c for c in printed if c.box.y0 > max(ch.box.y1 for ch in first + second) and c.rgb != (255, 255, 255)
        ]
        first_name = [c for c in name_chars if "Bold" in c.font]
        second_name = [c for c in name_chars if "Bold" not in c.font]
        if other.name.value != card.name.value:
            assert plain(other.name.value) in "".join(c.text for c in second_name), card.id
            assert max(c.size for c in second_name) < min(c.size for c in first_name), card.id
        checked += 1
    assert checked >= 10


def test_chinese_beside_vietnamese_keeps_its_line_breaking_rules_and_both_fonts_embedded(cards):
    for pair in ("zh+vi", "vi+zh"):
        prepared, pdf = cards("werewolf", pair)
        reader = pypdf.PdfReader(__import__("io").BytesIO(pdf))
        embedded = set()
        for page in reader.pages[:1]:
            for font in page["/Resources"]["/Font"].values():
                font = font.get_object()
                descriptor = font.get("/FontDescriptor")
                if descriptor and "/FontFile2" in descriptor.get_object():
                    embedded.add(str(font["/BaseFont"]).split("+")[-1])
        assert {"NotoSans-Regular", "NotoSansSC-Regular"} <= embedded, (pair, embedded)
        line_starts = 0
        for card, _, printed in fronts(prepared, pdf):
            for line in lines(printed):
                chinese = [c for c in line if "NotoSansSC" in c.font]
                if chinese and line[0] is chinese[0]:
                    line_starts += 1
                    assert line[0].text not in CHINESE_CLOSING + "".join(CANNOT_START), (
                        f"{pair} {card.id}: a line starts with {line[0].text!r}: {''.join(c.text for c in line)}"
                    )
            vietnamese = "".join(c.text for c in printed if "NotoSansSC" not in c.font)
            assert vietnamese == unicodedata.normalize("NFC", vietnamese), card.id
            assert not any(unicodedata.combining(c) for c in vietnamese), card.id
        assert line_starts > 30, pair


def test_pinyin_sits_above_each_character_of_a_chinese_name_and_reads_as_pypinyin_reads_it(cards):
    prepared, pdf = cards("werewolf", "zh+en", pinyin=True)
    checked = 0
    for card, trim, printed in fronts(prepared, pdf):
        if card.layout != "role":
            continue
        name = card.name.value
        # The name: the Chinese set large and bold in the card's top fifth.
        hanzi = sorted(
            (c for c in printed if "NotoSansSC-Bold" in c.font and c.box.y0 > trim.y1 - 0.2 * trim.h),
            key=lambda c: c.box.x0,
        )
        assert "".join(c.text for c in hanzi) == name, card.id
        latin = sorted(
            (c for c in printed if c.font == "NotoSans-Regular" and c.box.y0 > hanzi[0].box.y0), key=lambda c: c.box.x0
        )
        # The readings, told apart by the room between them (wider than between two letters of one).
        syllables = [[latin[0]]]
        for before, char in zip(latin, latin[1:]):
            if char.box.x0 - before.box.x1 > 0.25 * char.size * 0.3528:
                syllables.append([])
            syllables[-1].append(char)
        assert ["".join(c.text for c in syllable) for syllable in syllables] == [
            reading[0] for reading in pinyin(name, style=Style.TONE)
        ], card.id
        for char, syllable in zip(hanzi, syllables):
            middle = (syllable[0].box.x0 + syllable[-1].box.x1) / 2
            assert abs(middle - char.box.cx) < 0.5, (card.id, char.text)
            assert min(c.box.y0 for c in syllable) > char.box.y1, (card.id, char.text)
            assert all(c.size == pytest.approx(char.size * 0.5, abs=0.01) for c in syllable), (card.id, char.text)
        checked += 1
    assert checked >= 10


def test_pinyin_needs_chinese_in_the_build(tmp_path):
    result = run(
        "build", "werewolf", "--decks", str(ROOT / "decks"), "--lang", "vi+en", "--pinyin", "--out", str(tmp_path)
    )
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "error: --pinyin puts pinyin over Chinese names, and this build has no Chinese (vi+en): add --lang zh or a "
        "pair with it, like --lang zh+en"
    )
    assert not list(tmp_path.rglob("*.pdf"))


def test_a_size_with_no_room_for_two_languages_says_so(mini, tmp_path):
    result = run(
        "build", "--decks", str(mini / "decks"), "--lang", "vi+en", "--card-size", "mini", "-q", "--out", str(tmp_path)
    )
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "decks/mini/game.yaml:12: error: role: mini cards are too small for two languages (vi+en): build them at a "
        "larger size (--card-size poker, or the group's size:) or in one language"
    )


@pytest.mark.parametrize(
    "choice, message",
    [
        ("vi+vi", "error: --lang vi+vi: bilingual cards are in two different languages, like en+vi"),
        ("vi+en+vi", "error: --lang vi+en+vi: bilingual cards are in two different languages, like en+vi"),
        ("vi+fr", "decks/mini/game.yaml:2: error: game 'mini' has no language 'fr'; it has en, vi"),
    ],
)
def test_a_pair_is_two_of_the_games_languages(mini, tmp_path, choice, message):
    result = run("build", "--decks", str(mini / "decks"), "--lang", choice, "--out", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == message


def test_a_pair_writes_its_own_cards_and_documents_beside_the_first_languages(tmp_path):
    decks = ["--decks", str(ROOT / "decks")]
    listed = run(
        "build",
        "werewolf",
        *decks,
        "--lang",
        "vi+en",
        "--players",
        "9",
        "--only-needed",
        "--list-targets",
        "--json",
        "--out",
        str(tmp_path),
    )
    assert listed.exit_code == 0, listed.stderr
    (target,) = json.loads(listed.stdout)["targets"]
    assert target["languages"] == ["vi+en"]
    assert [path.rsplit("/", 1)[1] for path in target["outputs"]] == [
        "werewolf-cards-vi+en-9p.pdf",
        "werewolf-rulebook-vi+en.pdf",
        "werewolf-script-vi+en-9p.pdf",
    ]

    built = run("build", "werewolf", *decks, "--lang", "vi", "--lang", "vi+en", "--jobs", "1", "--out", str(tmp_path))
    assert built.exit_code == 0, built.stderr
    folder = tmp_path / "werewolf"
    assert sorted(p.name for p in folder.iterdir()) == [
        "werewolf-cards-vi+en.pdf",
        "werewolf-cards-vi.pdf",
        "werewolf-narrator-vi.html",
        "werewolf-rulebook-vi+en.pdf",
        "werewolf-rulebook-vi.pdf",
        "werewolf-script-vi+en.pdf",
        "werewolf-script-vi.pdf",
    ]

    def text(name: str) -> str:
        return " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(folder / name).pages)

    rulebook, plain_rulebook = text("werewolf-rulebook-vi+en.pdf"), text("werewolf-rulebook-vi.pdf")
    for role in ("Tiên tri (Seer)", "Phù thuỷ (Witch)", "Cảnh sát trưởng (Sheriff)"):
        assert role in rulebook
        assert role not in plain_rulebook
    assert "Tiếng Việt + English" in rulebook
    # The script gives the second name at each role's first call only, and stays Vietnamese otherwise.
    script = text("werewolf-script-vi+en.pdf")
    assert script.count("Tiên tri (Seer)") == 1
    assert script.count("Tiên tri") > 1
    assert "(Seer)" not in text("werewolf-script-vi.pdf")
