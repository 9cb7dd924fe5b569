"""Salem 1692 from the open box to the end, read back from the built PDFs in all four languages.

One build for eight players (four Tryal cards each): each script version is walked
in order (setup, Dawn, turns, Night, end), and the rulings the sources give or
that we mark as ours are checked where a group would read them.
"""

from __future__ import annotations

import re

import pypdf
import pypdfium2
import pytest
import yaml

from conftest import ROOT, run

LANGS = ("en", "vi", "zh", "es")
DECK = ROOT / "decks" / "salem-1692"


def data(name: str):
    return yaml.safe_load((DECK / name).read_text(encoding="utf-8"))


SCRIPT = data("script.yaml")


def name(card: str, lang: str) -> str:
    return data(f"roles/{card}.yaml")["name"][lang]


def joined(path) -> str:
    """The PDF's text with line breaks undone; a document loses each page's header and footer (its first lines).
    Card sheets are read with pypdfium2: pypdf takes about a minute over their back patterns."""
    if path.name.startswith("salem-1692-cards"):
        pages = [page.get_textpage().get_text_range() for page in pypdfium2.PdfDocument(path)]
        skip = 0
    else:
        pages = [page.extract_text() for page in pypdf.PdfReader(path).pages]
        skip = 2
    lines = (line.strip() for page in pages for line in page.splitlines()[skip:])
    return " ".join(line for line in lines if line)


def plain(text: str) -> str:
    """A deck text as printed: without its bold marks, spaces closed up (Chinese lines break anywhere)."""
    return re.sub(r"\s+", "", text.replace("**", ""))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("salem")
    result = run("build", "salem-1692", "--players", "8", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out / "salem-1692"


def versions(built, lang: str) -> dict[str, str]:
    """Each script version's text, cut at the version headings, spaces closed up."""
    text = plain(joined(built / f"salem-1692-script-{lang}-8p.pdf"))
    names = {version: plain(spec["name"][lang]) for version, spec in SCRIPT["versions"].items()}
    moderator, town_crier = names["moderator"], names["town-crier"]
    # The headings are the version names standing right before the Setup title.
    setup_title = {"en": "Setup", "vi": "Chuẩnbị", "zh": "准备", "es": "Preparación"}[lang]
    first = text.index(moderator + setup_title)
    second = text.index(town_crier + setup_title)
    return {"moderator": text[first:second], "town-crier": text[second:]}


@pytest.mark.parametrize("lang", LANGS)
def test_each_version_runs_setup_dawn_turns_night_end_in_order(built, lang):
    for version, text in versions(built, lang).items():
        phases = SCRIPT["versions"][version]["phases"]
        assert [phase["kind"] for phase in phases] == ["first-night", "day", "night", "end"]
        positions = [
            text.index(plain(step["do"][lang]))
            for step in SCRIPT["setup"]
            # A table of 8 leaves out the steps for smaller tables (the two Town Hall cards each).
            if "do" in step and step.get("version") in (None, version) and step.get("up-to-players", 8) >= 8
        ]
        positions += [
            text.index(plain(phase["title"][lang]) + plain(next(iter(phase["steps"][0].values()))[lang]))
            for phase in phases
        ]
        assert positions == sorted(positions), version


def test_the_setup_deals_the_published_tryal_row_for_eight_players(built):
    for text in versions(built, "en").values():
        assert (
            plain(
                "Take these 32 cards: 29 × Not a Witch, 2 × Witch, 1 × Constable. "
                "Shuffle them and deal 4 face down to each player."
            )
            in text
        )


@pytest.mark.parametrize("lang", LANGS)
def test_kill_cards_are_dealt_for_a_town_crier_and_stay_boxed_for_a_moderator(built, lang):
    steps = {step["version"]: plain(step["do"][lang]) for step in SCRIPT["setup"] if "version" in step}
    parts = versions(built, lang)
    assert steps["town-crier"] in parts["town-crier"] and steps["town-crier"] not in parts["moderator"]
    assert steps["moderator"] in parts["moderator"] and steps["moderator"] not in parts["town-crier"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_death_is_followed_by_the_win_check(built, lang):
    check = plain(SCRIPT["win-check"][lang])
    for version, text in versions(built, lang).items():
        steps = [step for phase in SCRIPT["versions"][version]["phases"] for step in phase["steps"]]
        deadly = [
            plain(next(value for key, value in step.items() if key in ("say", "do"))[lang])
            for step in steps
            if step.get("deadly")
        ]
        # Accusations, the Black Cat's reveal at Conspiracy, the card pass after it (it can make every living
        # player a witch), a Confession, the Night's victim.
        assert len(deadly) == 5
        for step in deadly:
            # Right after the step, behind at most its countdown and the "Win check:" label.
            after = text[text.index(step) + len(step) :]
            assert 0 <= after.find(check) < 80, (version, step)
        assert text.count(check) == 5


@pytest.mark.parametrize("lang", LANGS)
def test_the_rulebook_marks_stocks_hourglass_and_the_advanced_table_as_ours(built, lang):
    text = plain(joined(built / f"salem-1692-rulebook-{lang}.pdf"))
    assert "◆" + plain(name("stocks", lang)) in text
    # The table titles end in the setup's name; the house table's in the mark.
    assert plain(data("game.yaml")["setups"]["advanced"]["name"][lang]) + "◆" in text
    assert plain(data("game.yaml")["setups"]["standard"]["name"][lang]) + "◆" not in text


def test_tituba_moving_the_night_means_no_night_that_round(built):
    for where in ("rulebook", "cards"):
        text = joined(built / f"salem-1692-{where}-en.pdf")
        assert (
            "If she moves the Night card, there is no Night this time round" in text
            or "If you move the Night card, there is no Night this time round" in text
        )
        assert "the Night can come early" not in text


def test_spanish_never_says_coger_and_keeps_mazo_for_the_gavel(built):
    for where in ("cards-es", "rulebook-es", "script-es-8p"):
        text = joined(built / f"salem-1692-{where}.pdf")
        assert not re.search(r"\b(coger|coge|cojan?|cogen)\b", text, re.IGNORECASE), where
        # The deck is la baraja; Mazo, always capitalised, is the gavel.
        assert "mazo" not in text, where
        assert "baraja" in text, where
