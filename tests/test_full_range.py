"""Issue 26's whole range in one deck, in English and Spanish: the nights fixture (a first-night-only
Cupid at order 2.5, a Doctor from the second night, a Seer with two orders and two texts, a Fox tied
with the Wolves) with a setup that counts a pool, a table rule, and a picture-less card with a long
text. Read back from the PDFs, from `cardgen setup --json` and from the narrator page in chromium."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from conftest import FIXTURES, run, table
from narrator_browser import browser, choose_table, needs_browser, script_view

BY_TEAM = """  by-team:
    name: {en: "By team", es: "Por equipos"}
    players: [5, 6]
    cards:
      wolf: 1
      night-folk: [2, 3]
    pools:
      night-folk: [seer, doctor, fox, cupid]
    fill: villager
table-rules:
  - from-players: 6
    of: [fox]
    says:
      en: "The Fox joins only tables of 6 players or more."
      es: "El Zorro solo se une a mesas de 6 jugadores o más."
"""
LONG = {
    "en": "Once per game, at dawn, reveal that you are the Hermit and name two players: if exactly one of "
    "them is a wolf, the village learns nothing; if both are, they are both found out; if neither is, you "
    "leave the game at once and your vote is lost for the rest of it. Nobody may talk while you choose.",
    "es": "Una vez por partida, al amanecer, revela que eres el Ermitaño y nombra a dos jugadores: si "
    "exactamente uno es lobo, el pueblo no sabe nada; si lo son los dos, ambos quedan descubiertos; si no "
    "lo es ninguno, dejas la partida en el acto y tu voto se pierde hasta el final. Nadie habla mientras eliges.",
}
HERMIT = f"""name: {{en: "Hermit", es: "Ermitaño"}}
team: village
ability:
  en: "{LONG["en"]}"
  es: "{LONG["es"]}"
"""
RULE = {
    "en": "The Fox joins only tables of 6 players or more.",
    "es": "El Zorro solo se une a mesas de 6 jugadores o más.",
}
NAMES = {
    "en": {"cupid": "Cupid", "fox": "Fox", "wolf": "Wolves", "seer": "Seer", "doctor": "Doctor"},
    "es": {"cupid": "Cupido", "fox": "Zorro", "wolf": "Lobos", "seer": "Vidente", "doctor": "Doctora"},
}
TABLE = ("--setup", "by-team", "--players", "6", "--with", "hermit")


@pytest.fixture
def full(tmp_path) -> Path:
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "nights", project)
    game = project / "decks" / "nights"
    (game / "game.yaml").write_text((game / "game.yaml").read_text(encoding="utf-8") + BY_TEAM, encoding="utf-8")
    (game / "roles" / "hermit.yaml").write_text(HERMIT, encoding="utf-8")
    # The deal, where the moderator reads what to choose from the pool.
    script = game / "script.yaml"
    script.write_text(script.read_text(encoding="utf-8") + "setup:\n  - deal: true\n", encoding="utf-8")
    return project


def cardgen(project: Path, command: str, *args: str):
    return run(command, "nights", "--decks", str(project / "decks"), *args)


def lines_of(path: Path) -> list[str]:
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def wake_order(lines: list[str], start: str, end: str, lang: str) -> list[str]:
    """The cards woken between two headings, by their wake-up lines (templates/documents/text.yaml's)."""
    block = lines[lines.index(start) + 1 : lines.index(end)]
    wake = {"en": ("open your eyes.",), "es": ("abre los ojos.", "abrid los ojos.")}[lang]
    return [card for line in block for card, name in NAMES[lang].items() if line in (f"{name}, {w}" for w in wake)]


def test_the_deck_validates_strictly(full):
    result = cardgen(full, "validate", "--strict")
    assert result.exit_code == 0, result.output


def test_setup_json_gives_each_nights_calls_and_what_to_choose(full):
    result = cardgen(full, "setup", *TABLE, "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["choose"] == {"night-folk": {"n": 3, "from": ["seer", "doctor", "fox", "cupid"]}}
    assert answer["nights"] == {
        "first": [
            {"id": "cupid", "order": 2.5},
            {"id": "fox", "order": 20},
            {"id": "wolf", "order": 20},
            {"id": "seer", "order": 30},
        ],
        "other": [
            {"id": "seer", "order": 5},
            {"id": "doctor", "order": 10},
            {"id": "fox", "order": 20},
            {"id": "wolf", "order": 20},
        ],
    }
    # The Fox and the Wolves tie: the table says so, naming both.
    assert "'fox' and 'wolf' are both called at order 20" in result.stderr


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_script_rulebook_and_cards_of_the_whole_range(full, lang):
    out = full / "out"
    result = cardgen(full, "build", "--lang", lang, *TABLE, "--out", str(out), "--jobs", "1")
    assert result.exit_code == 0, result.output
    script = lines_of(out / "nights" / f"nights-script-{lang}-{table(6, ('hermit',), setup='by-team')}.pdf")
    first, day, night, end = {
        "en": ("First night", "Day", "Night", "End"),
        "es": ("Primera noche", "Día", "Noche", "Final"),
    }[lang]
    # First night: the first-night-only Cupid (2.5), the tied Fox and Wolves by id, the Seer's first call;
    # the Doctor, who skips the first night, is not woken.
    assert wake_order(script, first, day, lang) == ["cupid", "fox", "wolf", "seer"]
    # Other nights: the Seer's other order (5) before the Doctor (10); no Cupid.
    assert wake_order(script, night, end, lang) == ["seer", "doctor", "fox", "wolf"]
    joined = " ".join(script)
    look = {
        "en": ("Look at a neighbour's card.", "Look at anyone's card."),
        "es": ("Mira la carta de un vecino.", "Mira la carta de cualquiera."),
    }[lang]
    assert joined.index(look[0]) < joined.index(look[1])
    # The pool is chosen at the deal, in the table's language.
    choose = {
        "en": "Add 3 of your choice from: Seer, Doctor, Fox, Cupid.",
        "es": "Añade 3 a tu elección de entre: Vidente, Doctora, Zorro, Cupido.",
    }[lang]
    assert choose in joined
    rulebook = " ".join(lines_of(out / "nights" / f"nights-rulebook-{lang}.pdf"))
    # The night order is printed for each night apart, as the nights differ.
    other_nights = {"en": "Other nights", "es": "Noches siguientes"}[lang]
    assert rulebook.index(first) < rulebook.index(other_nights)
    assert {"en": "By team", "es": "Por equipos"}[lang] in rulebook
    # The picture-less Hermit: the whole long text on its card, at a size a table reads.
    with pdfplumber.open(out / "nights" / f"nights-cards-{lang}.pdf") as pdf:
        page = pdf.pages[0]
        words = page.extract_words(extra_attrs=["size"])
        name = next(word for word in words if word["text"] == {"en": "Hermit", "es": "Ermitaño"}[lang])
        middle = (name["x0"] + name["x1"]) / 2
        # The card's words: those under its name, in its column (a poker card is 178.6 pt wide).
        card = [
            word
            for word in words
            if abs((word["x0"] + word["x1"]) / 2 - middle) < 89
            and word["top"] > name["top"]
            and word["top"] < name["top"] + 240
        ]
        said = " ".join(word["text"] for word in card)
        assert {"en": "Village", "es": "Pueblo"}[lang] == card[0]["text"]  # the team label, kept
        assert " ".join(LONG[lang].split()) in said
        # With the picture's room the text is set large, not shrunk toward the 6.5 pt floor.
        assert min(word["size"] for word in card[1:]) >= 9.0


def test_a_table_that_breaks_the_rule_warns_in_its_words_and_strict_stops_it(full):
    roles = ("--setup", "by-team", "--roles", "wolf,fox,seer,villager:2")
    result = cardgen(full, "setup", *roles)
    assert result.exit_code == 0, result.output
    assert RULE["en"] in result.stderr
    out = full / "out"
    result = cardgen(full, "build", "--lang", "es", *roles, "--strict", "--out", str(out), "--jobs", "1")
    assert result.exit_code == 1
    assert RULE["es"] in result.output
    assert not list(out.glob("nights/*-5p.*"))
    # A Fox taken from the pool at 5 players breaks the rule whatever is still chosen: it warns at once.
    result = cardgen(full, "setup", "--setup", "by-team", "--players", "5", "--with", "fox")
    assert f"--with: the table breaks a rule: {RULE['en']}" in result.stderr


@needs_browser
def test_the_narrator_page_checks_the_rule_and_calls_each_nights_order(full, tmp_path):
    result = cardgen(full, "narrator", "--lang", "en", "--out", str(full / "out"), "--no-open")
    assert result.exit_code == 0, result.output
    with browser(tmp_path / "profile") as session:
        page = session.open(Path(result.output.strip()))
        choose_table(page, players=5, setup=1)
        assert not page.query_selector("#table-rules")
        page.click('input[data-card="fox"]')
        assert RULE["en"] in page.inner_text("#table-rules")
        choose_table(page, players=6, setup=1, extra=("fox", "seer", "doctor"))
        assert not page.query_selector("#table-rules")
        phases = dict(script_view(page))
        woken = [text.split(",")[0] for _, _, _, text in phases["First night"] if text.endswith("open your eyes.")]
        assert woken == ["Fox", "Wolves", "Seer"]
        woken = [text.split(",")[0] for _, _, _, text in phases["Night"] if text.endswith("open your eyes.")]
        assert woken == ["Seer", "Doctor", "Fox", "Wolves"]
        assert session.errors == []
