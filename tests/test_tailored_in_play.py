"""Tailored texts say only what is in play: for every bundled game and every row of every one of its
setups, the table's script and its player aids, read back from their PDFs, name no role, side, item or
rule of a card that is not dealt.

What may not be named at a table is taken from the model: the names of the cards it does not deal
(those a seat takes, and those the script names in a step's condition, such as the Sheriff's title),
the sides none of whose cards is dealt, and the words of what a card leaves on a player (its
``choices`` and ``leaves``, KEYWORDS below: the lovers for Cupid, the potions for the Witch, charmed
for the Vixen, jailed for the Interrogator). A few rules belong to no such mark; RULES lists them per
game with the cards they need. The rulebook is the whole box's at every table (docs/designing.md,
"What a table's build writes"), so it is not read here.

Every row is built (about 75 tables, the script in-process with one pipeline a game); the player aids
are the same for every table with the same cards in play, so they are rendered once for each. English
is read whole; Spanish, for a spot check, at the smallest row of every setup.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace

import pypdf
import pytest

from cardgen.build import BuildOptions, Pipeline, check
from cardgen.cards import render, table_faces
from cardgen.core.project import Project
from cardgen.deck.model import Deck
from cardgen.deck.tonight import Tonight, printed, seat_groups
from cardgen.documents import script
from cardgen.documents.script_lines import deal_line
from conftest import ROOT

GAMES = sorted(path.parent.name for path in (ROOT / "decks").glob("*/game.yaml"))

# What a card does to a player (its narrator `choices`, the reminder it `leaves`), in the words the
# texts use for it: a table where no card does it hears none of them. Stems, so that "lover" finds
# "lovers" and "poison" "poisoned". A choice not listed (target, protect, note, kill) is said of
# several cards in plain words ("the victim"), which a table without one of them still has.
KEYWORDS = {
    "en": {
        "love": ["lover"],
        "poison": ["poison", "potion"],
        "charm": ["charm"],
        "block": ["blocked"],
        "jail": ["jail", "prisoner"],
        "silenced": ["silenced"],
        "hypnotized": ["hypnoti"],
        "framed": ["frame"],
        "enchanted": ["enchant"],
    },
    "es": {
        "love": ["enamorad"],
        "poison": ["veneno", "envenen", "poción", "pociones"],
        "charm": ["encandil", "seducid"],
        "block": ["bloquead"],
        "jail": ["cárcel", "encarcelad", "preso"],
        "silenced": ["silenciad"],
        "hypnotized": ["hipnotizad"],
        "framed": ["incrimina"],
        "enchanted": ["hechizad"],
    },
}

# Rules a card brings that no choice of it names, per game: the words, and the cards one of which must
# be in play for the text to say them.
RULES = {
    "werewolf": {
        # The tie rules come in order: "any other tie" follows the Scapegoat's or the Sheriff's.
        "en": [("Any other tie", ("scapegoat", "sheriff")), ("voided vote", ("sheriff",))],
        "es": [("Cualquier otro empate", ("scapegoat", "sheriff")), ("votación anulada", ("sheriff",))],
    },
}

# A player count rule: (words, the largest table that may hear them), per game.
COUNTS = {
    "salem-1692": {"en": [("7 players or fewer", 7)], "es": [("7 jugadores o menos", 7)]},
}


def _read(pdf: bytes) -> str:
    """A PDF's text on one line, its line breaks made spaces."""
    return " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def forbidden(deck: Deck, table: Tonight, text: str, lang: str, game: str) -> list[str]:
    """What `text` names that the table does not have: roles, sides, what their cards do, their rules."""
    kept = printed(deck, table)
    shown = {card.id for card in kept.cards}
    roles = [card for card in deck.cards if not card.derived_from and card.id not in shown]
    dealt = [card for card in deck.cards if card.id in table.in_play]
    teams = {card.team.id for card in dealt if card.team}
    seats = seat_groups(deck)
    # Names in play first, longest first: a name in play that holds another (Werewolves holds Werewolf,
    # Village Idiot holds Village) is not taken for it.
    for name in sorted(
        {
            n
            for card in dealt
            for n in (card.name.value, card.call_name, *([card.team.name.value] if card.team else []))
        },
        key=len,
        reverse=True,
    ):
        text = text.replace(name, "#" * len(name))
    edge = "" if lang == "zh" else r"\b"
    found = {
        name
        for card in roles
        for name in (card.name.value, card.call_name)
        if re.search(rf"{edge}{re.escape(name)}{edge}", text)
    }
    found |= {
        card.team.name.value
        for card in deck.cards
        if card.group.id in seats and card.team and card.team.id not in teams
        if re.search(rf"{edge}{re.escape(card.team.name.value)}", text)
    }
    does = {
        str(what)
        for card in dealt
        for key, value in card.rules
        if key == "leaves"
        for what in (value if isinstance(value, tuple) else (value,))
    } | {choice for card in dealt for script in card.scripts for choice in script.marks.choices}
    words = KEYWORDS[lang]
    found |= {
        word
        for what, stems in words.items()
        if what not in does
        for word in stems
        if re.search(rf"{edge}{re.escape(word)}", text, re.IGNORECASE)
    }
    found |= {
        words
        for words, cards in RULES.get(game, {}).get(lang, [])
        if not table.in_play & set(cards) and words.lower() in text.lower()
    }
    found |= {
        words
        for words, most in COUNTS.get(game, {}).get(lang, [])
        if table.players is not None and table.players > most and words in text
    }
    return sorted(found)


class Evenings:
    """One game in one language: its deck, a pipeline, and the documents of each table, built once."""

    def __init__(self, game: str, lang: str):
        self.project = Project.at(ROOT / "decks")
        (self.files,), _ = check(self.project, [game], strict=False)
        self.pipeline = Pipeline(self.project, BuildOptions())
        prepared, problems = self.pipeline.prepare(self.files, lang)
        assert prepared is not None, problems
        self.prepared, self.game, self.lang = prepared, game, lang
        self.aids: dict[tuple, str] = {}
        self.scripts: dict[tuple[str, ...], str] = {}

    def table(self, setup: str, players: int) -> Tonight:
        self.pipeline.options = replace(BuildOptions(), players=players, setup=setup, only_needed=True)
        return self.pipeline.table(self.prepared.deck, self.files)

    def script(self, setup: str, players: int) -> str:
        """The table's script, typeset once for each set of lines: tables that differ in their deal
        alone (which lists the cards dealt, and only those) share it."""
        table = self.table(setup, players)
        text = self.pipeline.text(self.lang)
        deal = deal_line(self.prepared.deck, table, text)
        values = script.context(self.prepared.deck, text, table)
        lines = tuple(
            step["text"]
            for version in values["versions"]
            for phase in version["phases"]
            for step in phase["steps"]
            if deal not in step["text"]
        )
        if lines not in self.scripts:
            self.scripts[lines] = _read(self.pipeline.script(self.prepared, self.files, False).data)
        return self.scripts[lines]

    def aid(self, setup: str, players: int) -> str:
        """The player aids of the table's card sheets, rendered alone: the same for every table with
        the same cards in play."""
        table = self.table(setup, players)
        deck = printed(self.prepared.deck, table)
        aids = replace(deck, cards=tuple(replace(c, count=1) for c in deck.cards if c.layout == "text"))
        said = tuple((card.ability, card.short) for card in aids.cards)
        if said not in self.aids:
            options = render.RenderOptions(
                False, self.pipeline.read("sheet.yaml"), self.pipeline.words(aids.key), (0.0, 0.0)
            )
            faces = table_faces.retold(
                self.prepared.checked_faces,
                self.prepared.deck,
                aids,
                self.pipeline.card_layouts,
                self.prepared.book,
                self.pipeline.words(aids.key),
            )
            pdf = render.render_pdf(aids, self.pipeline.impose(aids), faces, self.prepared.book, options)
            self.aids[said] = _read(pdf)
        return self.aids[said]


def tables(game: str, smallest: bool = False) -> list[tuple[str, int]]:
    """Every row of every setup of the game (or the smallest of each), as (setup, players)."""
    project = Project.at(ROOT / "decks")
    (files,), _ = check(project, [game], strict=False)
    setups = files.checked_game.data.get("setups") or {}
    return [
        (setup, players)
        for setup, spec in setups.items()
        for players in (spec["players"][:1] if smallest else spec["players"])
    ]


def wrong_at(evenings: Evenings, rows: list[tuple[str, int]]) -> dict[str, list[str]]:
    """What each table's script and player aids name that the table does not have, by table."""
    wrong = {}
    for setup, players in rows:
        table = evenings.table(setup, players)
        for kind, text in (("script", evenings.script(setup, players)), ("aid", evenings.aid(setup, players))):
            named = forbidden(evenings.prepared.deck, table, text, evenings.lang, evenings.game)
            if named:
                wrong[f"{kind} {setup} {players}p"] = named
    return wrong


@pytest.mark.parametrize("game", GAMES)
def test_a_tables_script_and_player_aids_name_only_what_is_in_play(game):
    evenings = Evenings(game, "en")
    rows = tables(game)
    assert rows, f"{game} has setups"
    wrong = wrong_at(evenings, rows)
    assert not wrong, "\n".join(f"{where}: {named}" for where, named in wrong.items())
    # The check sees what it looks for: the whole box's script names what some table does not have.
    evenings.pipeline.options = BuildOptions()
    box = _read(evenings.pipeline.script(evenings.prepared, evenings.files, False).data)
    assert any(
        forbidden(evenings.prepared.deck, evenings.table(setup, players), box, "en", game) for setup, players in rows
    )


@pytest.mark.parametrize("game", GAMES)
def test_in_spanish_too_at_each_setups_smallest_table(game):
    wrong = wrong_at(Evenings(game, "es"), tables(game, smallest=True))
    assert not wrong, "\n".join(f"{where}: {named}" for where, named in wrong.items())


IN_PLAY_ONLY = """in-play-only:
  - if: seer
    text: {en: "Win when wolves equal the others.", vi: "Thắng khi số sói bằng số người còn lại."}
"""


def test_a_tables_card_leaves_out_the_words_of_cards_not_in_play(mini, tmp_path):
    """The mini game's Wolf says how it wins only with the Seer in play; the whole box says it."""
    from conftest import run

    wolf = mini / "decks" / "mini" / "roles" / "wolf.yaml"
    wolf.write_text(wolf.read_text(encoding="utf-8") + IN_PLAY_ONLY, encoding="utf-8")
    decks = str(mini / "decks")
    texts = {}
    tables = {
        "box": [],
        "wolves": ["--roles", "wolf:2", "--only-needed"],
        "seer": ["--roles", "seer,wolf:2", "--only-needed"],
    }
    for name, options in tables.items():
        out = tmp_path / name
        result = run(
            "build", "mini", "--decks", decks, "--lang", "en", "--only", "cards", "--out", str(out),
            *options,
        )  # fmt: skip
        assert result.exit_code == 0, result.output + result.stderr
        (pdf,) = (out / "mini").glob("mini-cards-en*.pdf")
        texts[name] = _read(pdf.read_bytes())
    assert "Win when wolves equal the others." in texts["box"]
    assert "Win when wolves equal the others." in texts["seer"]
    assert "Win when wolves equal the others." not in texts["wolves"]
    assert "the wolves pick one player to eliminate." in texts["wolves"]


def test_in_play_only_words_are_the_texts_own_and_name_cards(mini):
    from conftest import run

    wolf = mini / "decks" / "mini" / "roles" / "wolf.yaml"
    wrong = IN_PLAY_ONLY.replace("if: seer", "if: [seer, ser]").replace("the others.", "all others.")
    wolf.write_text(wolf.read_text(encoding="utf-8") + wrong, encoding="utf-8")
    result = run("validate", "--decks", str(mini / "decks"))
    assert result.exit_code == 1
    assert result.stderr == (
        "decks/mini/roles/wolf.yaml:15: error: in-play-only.0.if.1: unknown card 'ser' (did you mean 'seer'?); "
        "the game's cards: seer, wolf\n"
        "decks/mini/roles/wolf.yaml:16: error: in-play-only.0.text.en: 'Win when wolves equal all others.' is in "
        "neither the ability nor the short-ability in 'en'; write it exactly as the text has it\n"
        "2 errors\n"
    )
