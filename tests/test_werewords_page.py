"""Werewords with no narrator: the script version only the narrator page runs (`table`), read from the
resolved deck in every language, and the Fortune Teller's letters that the page is given ready-made."""

from __future__ import annotations

import pytest
import yaml

from cardgen.build import card_sizes, check
from cardgen.core.project import Project
from cardgen.deck.resolve import AnyGlyph, resolve_deck
from cardgen.deck.tonight import Tonight
from cardgen.documents import narrator, script_lines
from cardgen.text.initials import initials
from conftest import ROOT

LANGS = ("en", "vi", "zh", "es")
TEXT = yaml.safe_load((ROOT / "templates" / "documents" / "text.yaml").read_text(encoding="utf-8"))

# What only a human narrator says or is told, in the narrator's version of each language: none of it
# may be in the version that nobody narrates.
NARRATOR = {
    "en": [
        "Show me",
        "I give you",
        "I will show you",
        "Hand the Mayor",
        "Show the Seer",
        "Show the werewolves",
        "show the Apprentice",
        "Give the Minion",
        "Give the Beholder",
        "Give the Masons",
        "word card",
        "slip of paper",
        "Start the countdown",
        "Call only",
        "Note the Mayor",
        "stop here",
    ],
    "vi": [
        "Cho tôi xem",
        "tôi đưa",
        "tôi sẽ cho bạn xem",
        "Đưa Thị trưởng",
        "Thẻ từ",
        "Cho Nhà",
        "Cho Ma sói",
        "Cho Tay sai",
        "mẩu giấy",
        "Bấm đồng hồ",
        "Chỉ gọi",
        "dừng ở đây",
    ],
    "zh": [
        "给我看",
        "我给你",
        "我会给你看",
        "把最上面",
        "词卡",
        "纸条",
        "开始倒计时",
        "只叫",
        "读到这里为止",
        "给爪牙",
        "给观察者",
    ],
    "es": [
        "Enséñame",
        "te doy",
        "te enseñaré",
        "Dale al",
        "Enseña a",
        "carta de palabras",
        "un papel",
        "Pon en marcha",
        "Llama solo",
        "para aquí",
    ],
}


@pytest.fixture(scope="module")
def decks():
    project = Project.at(ROOT / "decks")
    (files,), _ = check(project, ["werewords"], strict=False)
    return {lang: resolve_deck(files, lang, None, card_sizes(project), AnyGlyph())[0] for lang in LANGS}


def version(deck, version_id: str) -> script_lines.VersionLines:
    text = {**TEXT["en"], **TEXT.get(deck.lang, {})}
    return next(v for v in script_lines.lines(deck, text) if v.id == version_id)


def every_line(lines: script_lines.VersionLines) -> list[script_lines.Line]:
    return [line for phase in lines.phases for line in phase.lines]


@pytest.mark.parametrize("lang", LANGS)
def test_the_version_nobody_narrates_has_no_narrator_line(decks, lang):
    table = version(decks[lang], "table")
    assert table.page_only and not version(decks[lang], "moderator").page_only
    lines = every_line(table)
    # The page reads every line aloud: there is no silent instruction for a narrator, only the deal.
    assert {line.kind for line in lines} == {"say", "deal"}
    said = [line.text for line in lines]
    assert not [(phrase, line) for line in said for phrase in NARRATOR[lang] if phrase.lower() in line.lower()]
    # The phrases are the narrator's own: its version says each of them.
    narrated = " ".join(line.text for line in every_line(version(decks[lang], "moderator"))).lower()
    assert [phrase for phrase in NARRATOR[lang] if phrase.lower() not in narrated] == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_role_is_called_in_night_order_with_the_marks_the_page_acts_on(decks, lang):
    deck = decks[lang]
    (night,) = [phase for phase in version(deck, "table").phases if phase.kind == "first-night"]
    order = [card.id for card, _ in deck.calls("first")]
    assert order == [
        "mayor",
        "seer",
        "werewolf",
        "fortune-teller",
        "minion",
        "apprentice",
        "beholder",
        "mason",
        "thing",
    ]
    assert [line.card for line in night.lines if line.part == "wake"] == order
    assert [line.card for line in night.lines if line.part == "action"] == order
    marks = {line.card: line.marks for line in night.lines if line.part == "action"}
    assert (marks["mayor"].secret_role, marks["mayor"].secret_word) == ("choose", "choose")
    assert (marks["apprentice"].secret_word, marks["apprentice"].if_secret) == ("show", ("seer", "fortune-teller"))
    assert [marks[card].secret_word for card in ("seer", "werewolf", "fortune-teller")] == ["show", "show", "initials"]
    assert not any(
        marks[card].secret_word or marks[card].secret_role for card in ("minion", "beholder", "mason", "thing")
    )


@pytest.mark.parametrize("lang", LANGS)
def test_the_day_and_the_end_run_their_countdowns_and_ask_only_the_two_teams(decks, lang):
    phases = {phase.kind: phase.lines for phase in version(decks[lang], "table").phases}
    assert [(line.marks.timer, line.marks.secret_word) for line in phases["day"] if line.marks.timer] == [
        (240, "guess")
    ]
    end = phases["end"]
    assert [(line.marks.timer, line.marks.if_guessed) for line in end if line.marks.timer] == [(15, True), (60, False)]
    for guessed in (True, False):
        branch = [line for line in end if line.marks.if_guessed in (None, guessed)]
        # The game ends at the branch's last line, which asks who won: the werewolves or the village.
        assert [line.marks.winners for line in branch] == [()] * (len(branch) - 1) + [("werewolves", "village")]


def test_the_narrators_version_keeps_its_lines(decks):
    """The narrator's own lines moved to steps of the moderator version are read where they were."""
    minion = [line for line in every_line(version(decks["en"], "moderator")) if line.card == "minion"]
    assert [line.text for line in minion] == [
        "Minion, open your eyes.",
        "Werewolves, keep your eyes shut and raise a thumb; Mayor, you too if your secret card is a Werewolf. "
        "Minion, see who they are.",
        "Give the Minion a few seconds. The word stays hidden.",
        "Minion, close your eyes.",
        "Werewolves, lower your thumbs.",
    ]


@pytest.mark.parametrize(
    ("word", "lang", "letters"),
    [
        ("长颈鹿", "zh", "C J L"),
        ("重力", "zh", "Z L"),  # read as a phrase: zhòng lì, not chóng
        ("长城", "zh", "C C"),
        ("熊猫", "zh", "X M"),
        ("爱", "zh", "A"),  # ài: the letter without its tone mark
        ("ice cream", "en", "I C"),
        ("muñeco de nieve", "es", "M D N"),
        ("árbol", "es", "Á"),
        ("ảo ảnh", "vi", "A A"),  # a tone mark is no part of the letter
        ("ẩn dụ", "vi", "Â D"),  # but Â is a letter of its own
        ("đèn lồng", "vi", "Đ L"),
        ("vắc-xin", "vi", "V X"),
        ("vịnh Hạ Long", "vi", "V H L"),
    ],
)
def test_the_fortune_tellers_letters(word, lang, letters):
    assert initials(word, lang) == letters


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_gets_the_letters_of_every_word(decks, lang):
    deck = decks[lang]
    text = {**TEXT["en"], **TEXT.get(lang, {})}
    values = narrator.data(deck, text, {}, {}, Tonight(frozenset(), ""))
    words = [word for level in values["words"].values() for word in level]
    assert len(words) >= 100 and set(values["initials"]) == set(words)
    for word in words:
        letters = values["initials"][word].split(" ")
        # One capital letter per word, per Vietnamese syllable, per Chinese character.
        count = len(word) if lang == "zh" else len(word.replace("-", " ").split())
        assert len(letters) == count and all(len(letter) == 1 and letter.isupper() for letter in letters), word
    assert [version.get("pageOnly", False) for version in values["versions"]] == [False, True]
    if lang == "zh":
        assert values["initials"]["长颈鹿"] == "C J L" and values["initials"]["潜水艇"] == "Q S T"
