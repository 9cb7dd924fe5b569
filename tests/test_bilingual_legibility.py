"""Bilingual cards a table can read (issue 29): on every card of every bundled game, in every pair of
its languages, each second-language text is printed and at 6.5 pt or more, read back from the PDF; a
long text falls back to the card's `short-ability`, and a card that holds its two languages in no form
is named by the build."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict

import pytest

from cardgen.build import BuildOptions, Pipeline, check
from cardgen.core.project import Project
from cardgen.text import markup
from conftest import ROOT, run, write
from pdfread import Char, chars, pages

LEAST = 6.5  # pt: templates/card-layout.yaml, bilingual: min-size
GAMES = ("werewolf", "salem-1692", "mafia-vendetta", "werewords")
LANGS = ("en", "vi", "zh", "es")
PAIRS = [f"{a}+{b}" for a, b in itertools.permutations(LANGS, 2)]
# Read back from the PDF: the README's pair and the longest texts, each language first and second.
READ_BACK = ("vi+en", "en+zh", "zh+es", "es+vi", "vi+es")


def plain(text: str) -> str:
    """A deck text as it prints, without its markup and its spaces (extraction places spaces its own way)."""
    return "".join("".join(span.text for span in markup.parse(text)).split())


def reading(printed: list[Char], rotation: int) -> list[Char]:
    """A card's characters in reading order: lines by baseline from the card's top, each from its left
    (a back turned by 180 degrees reads from the page's bottom right)."""
    rows: dict[float, list[Char]] = defaultdict(list)
    for char in printed:
        rows[round(char.baseline * 4) / 4].append(char)
    turned = rotation == 180
    return [
        char
        for _, row in sorted(rows.items(), reverse=not turned)
        for char in sorted(row, key=lambda c: c.box.x0, reverse=turned)
    ]


def seconds(deck, card, side: str) -> list[list[str]]:
    """The second language's texts a printed side of a card shows, in reading order, each as the texts
    it may print (its full form, then its short form), leaving out those the first language shares."""
    other, second = deck.second_card(card), deck.second
    first_texts: list[str] = []
    out: list[list[str]] = []

    def add(first: str, *forms: str | None) -> None:
        first_texts.append(plain(first))
        kept = [plain(form) for form in forms if form]
        if kept and kept[0] != plain(first):
            out.append(kept)

    if side == "back":
        if card.back_face:
            add(card.back_face.name.value, other.back_face.name.value)
        elif card.group.shape != "round":  # a round token's back is its emblem alone
            group = next(g for g in second.groups if g.id == card.group.id)
            add(card.group.back.title.value, group.back.title.value)
        return out
    if card.layout == "words":
        return out  # the word lists are each language's own: a word card stays in the first
    add(card.name.value, other.name.value)
    if card.layout == "role":
        label = card.team.name if card.team else card.group.name
        label2 = other.team.name if other.team else other.group.name
        if plain(label2.value) != plain(label.value):
            out.append(["·" + plain(label2.value)])
    if card.layout == "night-order":
        calls = {c.id: c.call_name for c in second.cards}
        for _, roles in deck.night_lists:
            for role in roles:
                if role.id != card.id and calls[role.id] != role.call_name:
                    out.append(["(" + plain(calls[role.id]) + ")"])
    if card.layout != "token":
        add(card.ability.value, other.ability.value, other.short.value if other.short else None)
    return out


def second_language_sizes(prepared, pdf) -> dict[tuple[str, str], list[float]]:
    """(card id, side) -> the size of every character of its second-language texts, as printed. A text
    not found on the card in any of its forms fails the test: the second language must be printed."""
    document = pages(pdf)
    found: dict[tuple[str, str], list[float]] = {}
    for number, page in enumerate(prepared.pages):
        new = [slot for slot in page.slots if (prepared.deck.copies[slot.item].id, slot.side) not in found]
        printed = chars(document[number]) if new else []  # a page of copies only is not read again
        for slot in new:
            card = prepared.deck.copies[slot.item]
            if (card.id, slot.side) in found:
                continue
            trim = slot.trim
            inside = [c for c in printed if trim.x <= c.box.cx <= trim.right and trim.y <= c.box.cy <= trim.top]
            ordered = reading(inside, slot.rotation)
            text = "".join(c.text for c in ordered)
            sizes: list[float] = []
            at = 0
            for forms in seconds(prepared.deck, card, slot.side):
                where = next(((text.find(form, at), form) for form in forms if text.find(form, at) >= 0), None)
                assert where is not None, f"{card.id} ({slot.side}): none of {forms} after {text[:at]!r} in {text!r}"
                start, form = where
                sizes += [c.size for c in ordered[start : start + len(form)]]
                at = start + len(form)
            found[(card.id, slot.side)] = sizes
    return found


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("pair", READ_BACK)
def test_the_second_language_is_never_set_below_six_and_a_half_points(cards, game, pair):
    prepared, pdf = cards(game, pair)
    found = second_language_sizes(prepared, pdf)
    assert {card_id for card_id, _ in found} == {card.id for card in prepared.deck.cards}
    too_small = {key: min(sizes) for key, sizes in found.items() if sizes and min(sizes) < LEAST - 0.01}
    assert not too_small, f"second language under {LEAST} pt on {too_small}"
    assert sum(map(len, found.values())) > 500  # characters measured: the check has teeth


@pytest.mark.parametrize("game", GAMES)
def test_every_pair_of_languages_builds_with_no_problem(game):
    """In every pair the cards hold both languages (a text the layout cannot hold at 6.5 pt would be a
    problem: the sizes are the layout's doing, read back above for some pairs)."""
    project = Project.at(ROOT / "decks")
    (files,), warnings = check(project, [game], strict=True)
    assert not warnings
    pipeline = Pipeline(project, BuildOptions(strict=True))
    for pair in PAIRS:
        prepared, problems = pipeline.prepare(files, pair)
        assert prepared is not None and not problems, (pair, [str(p) for p in problems])


@pytest.mark.parametrize("pair, first_short", [("es+vi", False), ("vi+es", True)], ids=["second short", "both short"])
def test_a_player_aid_too_long_for_two_languages_prints_its_short_forms(cards, pair, first_short):
    prepared, pdf = cards("werewolf", pair)
    aid = next(c for c in prepared.deck.cards if c.id == "player-aid")
    other = prepared.deck.second_card(aid)
    page_number, slot = next(
        (n, s)
        for n, page in enumerate(prepared.pages)
        for s in page.slots
        if s.side == "front" and prepared.deck.copies[s.item].id == "player-aid"
    )
    trim = slot.trim
    printed = [c for c in chars(pages(pdf)[page_number]) if trim.x <= c.box.cx <= trim.right]
    text = "".join(c.text for c in reading([c for c in printed if trim.y <= c.box.cy <= trim.top], slot.rotation))
    first, second = (aid.short, aid.ability) if first_short else (aid.ability, aid.short)
    assert plain(first.value) in text
    assert plain(second.value) not in text
    assert plain(other.short.value) in text
    assert plain(other.ability.value) not in text


def long_ability(project, short: str = "") -> None:
    """The mini game's Seer with an ability that fits a card alone in each language, not the two together
    at 6.5 pt, and a short form in Vietnamese that is no shorter when `short` is given."""
    en = "Each night, look at one player's card and keep what you learn to yourself until the day. " * 4
    vi = "Mỗi đêm, xem lá bài của một người chơi và giữ kín điều mình biết cho tới khi trời sáng. " * 4
    write(
        project,
        "roles/seer.yaml",
        f"name: {{en: Seer, vi: Tiên tri}}\nteam: village\ncount: 1\n"
        f"ability:\n  en: {en.strip()}\n  vi: {vi.strip()}\n"
        + (f"short-ability:\n  vi: {short}\n" if short else "")
        + "symbol: symbols/wolf.svg\n"
        "night:\n  order: 50\n  first-night-only: false\n",
    )


@pytest.mark.parametrize(
    "short, ending",
    [
        ("", "; shorten them, or write a short-ability in 'vi'"),
        (
            "Mỗi đêm, xem lá bài của một người chơi và giữ kín điều mình biết cho tới khi trời sáng. " * 3,
            ", even with the short-ability in 'vi'; shorten it",
        ),
    ],
    ids=["no short form", "a short form too long"],
)
def test_a_card_that_holds_both_languages_in_no_form_is_named_with_what_to_do(mini, tmp_path, short, ending):
    long_ability(mini, short.strip())
    out = tmp_path / "out"
    alone = run("build", "--decks", str(mini / "decks"), "--lang", "en", "--lang", "vi", "--out", str(out))
    assert alone.exit_code == 0, alone.stderr
    result = run("build", "--decks", str(mini / "decks"), "--lang", "en+vi", "-q", "--out", str(out))
    assert result.exit_code == 1
    message = result.stderr.splitlines()[0]
    assert re.fullmatch(
        r"decks/mini/roles/seer\.yaml:5: error: seer: the ability text in 'en' and 'vi' does not fit its box "
        r"together: \d+\.\d mm too tall at the smallest size \(6\.5 pt, 'vi' at 6\.5 pt\)" + re.escape(ending),
        message,
    ), message
    assert not (out / "mini" / "mini-cards-en+vi.pdf").exists()


def test_a_short_form_that_fits_is_printed_and_the_build_passes_strict(mini, tmp_path):
    long_ability(mini, "Mỗi đêm, xem bài của một người; giữ kín tới sáng.")
    out = tmp_path / "out"
    result = run("build", "--decks", str(mini / "decks"), "--lang", "en+vi", "--strict", "-q", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert (out / "mini" / "mini-cards-en+vi.pdf").exists()


def test_the_bundled_short_forms_are_written_in_every_language(cards):
    """A short form is the same rule in fewer words in each of the game's languages, so any pair can use it."""
    for game in GAMES:
        with_short = {}
        for pair in ("vi+en", "zh+es"):
            deck = cards(game, pair)[0].deck
            for one in (deck, deck.second):
                with_short[one.lang] = {card.id for card in one.cards if card.short}
        assert "player-aid" in with_short["en"], game
        assert all(ids == with_short["en"] for ids in with_short.values()), (game, with_short)
