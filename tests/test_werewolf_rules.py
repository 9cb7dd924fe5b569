"""The bundled Werewolf deck against its source: rules that must read the same on the cards, in the
rulebook and in the script, in every language, read back from the built PDFs.

The words looked for come from the deck files themselves (card names, script steps, phase titles),
so the checks hold in all four languages without a copy of each sentence here.
"""

from __future__ import annotations

import re

import pypdf
import pytest
import yaml

from conftest import ROOT, run, table

DECK = ROOT / "decks" / "werewolf"
LANGS = ("en", "vi", "zh", "es", "ja")
STRIPPED_BY_THE_ELDER = ("hunter", "guard", "witch", "seer")
TEXT = yaml.safe_load((ROOT / "templates" / "documents" / "text.yaml").read_text(encoding="utf-8"))


def load(name: str) -> dict:
    return yaml.safe_load((DECK / name).read_text(encoding="utf-8"))


def card_name(card: str, lang: str) -> str:
    return load(f"roles/{card}.yaml")["name"][lang]


def squeezed(text: str) -> str:
    """Without any white space: a sentence wrapped in the PDF (between two Chinese characters, too)
    compares equal to its source text."""
    return re.sub(r"\s+", "", text)


def joined_lines(path) -> list[str]:
    """The lines of the text without each page's header and footer (its first two lines)."""
    return [line for page in pypdf.PdfReader(path).pages for line in page.extract_text().splitlines()[2:]]


def joined(path) -> str:
    """The text without each page's header and footer, squeezed."""
    return squeezed("".join(joined_lines(path)))


def plain(text: str) -> str:
    return squeezed(text.replace("**", ""))


def script_step(phase_kind: str, contains: str, lang: str) -> str:
    """The text, in `lang`, of the script step of that phase whose English text contains `contains`."""
    phases = load("script.yaml")["versions"]["moderator"]["phases"]
    steps = [step for phase in phases if phase["kind"] == phase_kind for step in phase["steps"]]
    texts = [step.get("say") or step.get("do") for step in steps]
    return next(text[lang] for text in texts if text and contains in text["en"])


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    out = tmp_path_factory.mktemp("werewolf-box")
    result = run("build", "werewolf", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out / "werewolf"


@pytest.fixture(scope="module")
def tonight(tmp_path_factory):
    """Ten players with the Hunter and Cupid: a tailored script with two deaths that set off others."""
    out = tmp_path_factory.mktemp("werewolf-tonight")
    result = run("build", "werewolf", "--players", "10", "--with", "hunter", "--with", "cupid", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out / "werewolf"


@pytest.mark.parametrize("lang", LANGS)
def test_the_elder_strips_the_same_four_roles_on_the_card_in_the_rulebook_and_in_the_script(box, lang):
    names = [squeezed(card_name(card, lang)) for card in STRIPPED_BY_THE_ELDER]
    others = [squeezed(card_name(card, lang)) for card in ("cupid", "little-girl", "thief", "pied-piper", "scapegoat")]
    card_text = plain(load("roles/elder.yaml")["ability"][lang])
    rulebook = joined(box / f"werewolf-rulebook-{lang}.pdf")
    script = joined(box / f"werewolf-script-{lang}.pdf")
    assert card_text in rulebook
    assert all(name in card_text for name in names), card_text
    assert not any(name in card_text for name in others), card_text
    # The script names each stripped role in a line of its own, read only with that role in play.
    steps = [
        step
        for phase in load("script.yaml")["versions"]["moderator"]["phases"]
        if phase["kind"] == "dawn"
        for step in phase["steps"]
        if step.get("if-all", [None])[0] == "elder" and "say" in step
    ]
    assert [step["if-all"] for step in steps] == [["elder", card] for card in STRIPPED_BY_THE_ELDER]
    lines = [plain(step["say"][lang]) for step in steps]
    assert "".join(lines) in script
    for name, line in zip(names, lines):
        assert name in line and not any(other in line for other in [*others, *(n for n in names if n != name)])


@pytest.mark.parametrize("lang", LANGS)
def test_the_thief_s_possibly_nobody_note_never_stands_under_the_werewolves(box, lang):
    script = joined(box / f"werewolf-script-{lang}.pdf")
    phrase = {key: squeezed(TEXT[lang][key]) for key in ("unheld", "wake", "sleep", "wake_group", "sleep_group")}
    call = squeezed(load("roles/werewolf.yaml")["night"]["script"]["call"][lang])
    seer = squeezed(card_name("seer", lang))
    wolves = script.split(phrase["wake_group"].replace("{name}", call))[1].split(
        phrase["sleep_group"].replace("{name}", call)
    )[0]
    assert phrase["unheld"] not in wolves
    seers = script.split(phrase["wake"].replace("{name}", seer))[1].split(phrase["sleep"].replace("{name}", seer))[0]
    assert phrase["unheld"] in seers


def test_the_werewolves_are_called_in_the_plural_in_spanish_and_the_zh_script_is_the_judge_s(box):
    spanish = joined(box / "werewolf-script-es.pdf")
    assert "Hombreslobo,abridlosojos." in spanish and "Hombreslobo,cerradlosojos." in spanish
    assert "Hombreslobo,abre" not in spanish and "Hombreslobo,cierra" not in spanish
    chinese = pypdf.PdfReader(box / "werewolf-script-zh.pdf").pages[0].extract_text()
    assert chinese.startswith("狼人杀 · 主持人台词 · 中文")


@pytest.mark.parametrize("lang", LANGS)
def test_ten_players_with_hunter_and_cupid_run_from_setup_to_the_end_with_a_win_check_after_each_death(tonight, lang):
    path = tonight / f"werewolf-script-{lang}-{table(10, ('hunter', 'cupid'))}.pdf"
    script = joined(path)
    titles = [phase["title"][lang] for phase in load("script.yaml")["versions"]["moderator"]["phases"]]
    # Each heading is a line of its own: a title of one character (昼, the Day) also stands in sentences.
    lines = [squeezed(line) for line in joined_lines(path)]
    positions = [lines.index(squeezed(title)) for title in [TEXT[lang]["setup_title"], *titles]]
    assert positions == sorted(positions)
    # The deal gives the Hunter and Cupid the seats of two Villagers: 2 werewolves, the Seer, 5 Villagers.
    for card, copies in (("werewolf", 2), ("seer", 1), ("villager", 5), ("hunter", 1), ("cupid", 1)):
        item = TEXT[lang]["deal_item"].replace("{n}", str(copies)).replace("{name}", card_name(card, lang))
        assert squeezed(item) in script, card
    check = squeezed(TEXT[lang]["win_check"])
    for kind, deadly in (
        ("dawn", "The Hunter has fallen"),
        ("dawn", "cannot live without their love"),
        ("day", "turn your card face up"),
    ):
        after = script.split(plain(script_step(kind, deadly, lang)))[1]
        assert after.startswith(check), deadly
    # Roles not in play are left out.
    for absent in ("witch", "thief", "pied-piper"):
        assert squeezed(TEXT[lang]["wake"].replace("{name}", card_name(absent, lang))) not in script
