"""Stage 3: a validated game and options in, a frozen one-language deck out."""

from __future__ import annotations

import dataclasses
import unicodedata

import pytest

from cardgen.build import card_sizes
from cardgen.core.project import Project
from cardgen.deck.load import load_game
from cardgen.deck.validate import validate_game
from cardgen.text.fonts import FontBook


@pytest.fixture(scope="module")
def book():
    project = Project.at()
    return FontBook.load(project.template("fonts.yaml"), project.fonts)


def resolve(root, lang, book, card_size=None):
    from cardgen.deck.resolve import resolve_deck

    project = Project.at(root / "decks")
    files, problems = load_game(root / "decks" / "mini", root)
    sizes = card_sizes(project)
    assert [p for p in problems + validate_game(files, sizes) if p.severity == "error"] == []
    return resolve_deck(files, lang, card_size, sizes, book)


def test_language_is_chosen_and_missing_translations_fall_back_to_english(mini, book):
    seer = mini / "decks" / "mini" / "roles" / "seer.yaml"
    seer.write_text(
        seer.read_text(encoding="utf-8").replace("  vi: Mỗi đêm, xem lá bài của một người chơi.\n", ""),
        encoding="utf-8",
    )
    deck, problems = resolve(mini, "vi", book)
    assert problems == []
    by_id = {card.id: card for card in deck.cards}
    assert by_id["seer"].name.value == "Tiên tri"
    assert by_id["seer"].ability.value == "Each night, look at one player's card."
    assert str(by_id["seer"].ability.where) == "decks/mini/roles/seer.yaml:5"
    assert by_id["wolf"].team.name.value == "Sói"


def test_texts_come_out_nfc(mini, book):
    seer = mini / "decks" / "mini" / "roles" / "seer.yaml"
    text = seer.read_text(encoding="utf-8")
    seer.write_text(text.replace("Tiên tri", unicodedata.normalize("NFD", "Tiên tri")), encoding="utf-8")
    assert unicodedata.normalize("NFD", "Tiên tri") in seer.read_text(encoding="utf-8")
    deck, _ = resolve(mini, "vi", book)
    assert {card.name.value for card in deck.cards} == {"Tiên tri", "Sói"}


def test_copies_follow_counts_in_team_order_and_the_deck_is_frozen(mini, book):
    deck, _ = resolve(mini, "en", book, card_size="tarot")
    assert [card.id for card in deck.copies] == ["seer", "wolf", "wolf"]
    assert {(card.group.size.w, card.group.size.h) for card in deck.cards} == {(70, 120)}
    with pytest.raises(dataclasses.FrozenInstanceError):
        deck.lang = "vi"


def test_a_character_no_font_has_is_reported_at_its_line(mini, book):
    wolf = mini / "decks" / "mini" / "roles" / "wolf.yaml"
    wolf.write_text(wolf.read_text(encoding="utf-8").replace("Thắng khi", "Thắng 𓃠 khi"), encoding="utf-8")
    _, problems = resolve(mini, "vi", book)
    assert [str(p) for p in problems] == [
        "decks/mini/roles/wolf.yaml:10: error: ability.vi: character U+130E0 EGYPTIAN HIEROGLYPH E013 '𓃠' "
        "is in none of the fonts"
    ]
