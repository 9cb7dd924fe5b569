"""Two nights in the data, read back from what the build writes: the script's calls per night, the
rulebook's two night orders, `cardgen setup --json`'s nights, the tie warnings, and the narrator
page reading a from-night line only from that night on.

The fixture game (tests/fixtures/nights) has a first-night-only Cupid at order 2.5, a Doctor who
skips the first night, a Seer with two orders and two texts, a Fox tied with the Wolves, and
script steps for some nights only.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pypdf
import pytest

from cardgen.deck.model import NIGHTS
from conftest import FIXTURES, run, table
from narrator_browser import browser, needs_browser

# Cupid in the short form: first-night-only, as before the full form.
SHORT_CUPID = """name: {en: "Cupid", es: "Cupido"}
team: village
ability: {en: "On the first night, bind two lovers.", es: "La primera noche, une a dos enamorados."}
night:
  order: 2.5
  first-night-only: true
  script:
    say: {en: "Point at two lovers.", es: "Señala a dos enamorados."}
"""
TABLE = ("--players", "5", "--with", "doctor", "--with", "seer", "--with", "cupid")


@pytest.fixture
def nights(tmp_path) -> Path:
    shutil.copytree(FIXTURES / "nights", tmp_path / "project")
    return tmp_path / "project"


def build(project: Path, *args: str):
    out = project / "out"
    result = run("build", "--decks", str(project / "decks"), "--out", str(out), "--jobs", "1", *args)
    return result, out / "nights"


def lines_of(path: Path) -> list[str]:
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)
    return [line.strip() for line in text.splitlines() if line.strip() and " · " not in line and "page" not in line]


def between(lines: list[str], start: str, end: str) -> list[str]:
    return lines[lines.index(start) + 1 : lines.index(end)]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_night_calls_its_own_roles_in_its_own_order_with_its_own_texts(nights, lang):
    result, out = build(nights, "--lang", lang, *TABLE)
    assert result.exit_code == 0, result.output
    lines = lines_of(out / f"nights-script-{lang}-{table(5, ('doctor', 'seer', 'cupid'))}.pdf")
    if lang == "en":
        first, day, other = between(lines, "First night", "Day"), between(lines, "Day", "Night"), None
        other = between(lines, "Night", "End")
        assert first == [
            "Everyone, close your eyes.",
            "Cupid, open your eyes.",
            "Point at two lovers.",
            "Cupid, close your eyes.",
            "Wolves, open your eyes.",
            "Choose your victim.",
            "Wolves, close your eyes.",
            "Seer, open your eyes.",
            "Look at a neighbour's card.",
            "Seer, close your eyes.",
        ]
        assert day == ["Vote now.", "The old well is open to all. (from night 3)"]
        assert other == [
            "Everyone, close your eyes.",
            "The owl hoots twice. (from night 3)",
            "Seer, open your eyes.",
            "Look at anyone's card.",
            "Seer, close your eyes.",
            "Doctor, open your eyes.",
            "Point at the player you shield.",
            "You may not shield yourself twice. (from night 3)",
            "Doctor, close your eyes.",
            "Wolves, open your eyes.",
            "Choose your victim.",
            "Wolves, close your eyes.",
        ]
    else:
        first, other = between(lines, "Primera noche", "Día"), between(lines, "Noche", "Final")
        assert "Mira la carta de un vecino." in first and "Mira la carta de cualquiera." not in first
        assert "Doctora, abre los ojos." not in first and "Doctora, abre los ojos." in other
        assert "El búho ulula dos veces. (desde la noche 3)" in other
        assert not any("Cupido" in line for line in other)
    # A step for the other nights is left out of the first night, and one for the first out of the others.
    assert not any("second night hears" in line or "segunda noche" in line for line in first)
    assert not any("first night hears" in line or "primera noche" in line for line in other)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            ["First night", "1. Cupid", "2. Fox", "3. Wolves", "4. Seer", "Other nights"]
            + ["1. Seer", "2. Doctor", "3. Fox", "4. Wolves"],
        ),
        (
            "es",
            ["Primera noche", "1. Cupido", "2. Zorro", "3. Lobos", "4. Vidente", "Noches siguientes"]
            + ["1. Vidente", "2. Doctora", "3. Zorro", "4. Lobos"],
        ),
    ],
)
def test_the_rulebook_prints_the_first_night_and_the_other_nights_apart(nights, lang, expected):
    result, out = build(nights, "--lang", lang)
    assert result.exit_code == 0, result.output
    lines = lines_of(out / f"nights-rulebook-{lang}.pdf")
    start = lines.index(expected[0])
    assert lines[start : start + len(expected)] == expected


def test_one_order_every_night_is_one_list_as_before(nights):
    roles = nights / "decks" / "nights" / "roles"
    for card in ("doctor", "seer"):
        (roles / f"{card}.yaml").unlink()
    (roles / "cupid.yaml").write_text(SHORT_CUPID, encoding="utf-8")
    result, out = build(nights, "--lang", "en")
    assert result.exit_code == 0, result.output
    lines = lines_of(out / "nights-rulebook-en.pdf")
    start = lines.index("Night order")
    assert lines[start : start + 5] == [
        "Night order",
        "1. Cupid (first night only)",
        "2. Fox",
        "3. Wolves",
        "Roles and cards",
    ]


def test_setup_json_gives_the_nights_in_calling_order_with_decimal_orders():
    result = run("setup", "nights", "--decks", str(FIXTURES / "nights" / "decks"), *TABLE, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["nights"] == {
        "first": [{"id": "cupid", "order": 2.5}, {"id": "wolf", "order": 20}, {"id": "seer", "order": 30}],
        "other": [{"id": "seer", "order": 5}, {"id": "doctor", "order": 10}, {"id": "wolf", "order": 20}],
    }
    assert result.stderr == ""


def test_a_table_with_two_tied_roles_warns_naming_both_and_strict_fails(nights):
    warning = (
        "decks/nights/roles/wolf.yaml:1: warning: 'fox' and 'wolf' are both called at order 20 every night: "
        "they are called by id, 'fox' first; give them orders of their own\n"
    )
    decks = str(nights / "decks")
    setup = run("setup", "nights", "--decks", decks, "--players", "5", "--with", "fox", "--json")
    assert (setup.exit_code, setup.stderr) == (0, warning)
    assert [call["id"] for call in json.loads(setup.stdout)["nights"]["other"]] == ["fox", "wolf"]
    strict, _ = build(nights, "--lang", "en", "--players", "5", "--with", "fox", "--strict")
    assert strict.exit_code == 1 and warning.strip() in strict.stderr
    # The whole box has the same tie, but no table calls both: no warning.
    box, _ = build(nights, "--lang", "en", "--strict")
    assert box.exit_code == 0 and "warning" not in box.stderr


def test_a_short_form_card_wakes_every_night_and_first_night_only_is_an_alias(nights):
    from cardgen.build import card_sizes, check
    from cardgen.core.project import Project
    from cardgen.deck.resolve import AnyGlyph, resolve_deck

    (nights / "decks" / "nights" / "roles" / "cupid.yaml").write_text(SHORT_CUPID, encoding="utf-8")
    project = Project.at(nights / "decks", ())
    (files,), _ = check(project, ["nights"], strict=False)
    deck, _ = resolve_deck(files, "en", None, card_sizes(project), AnyGlyph())
    calls = {night: [card.id for card, _ in deck.calls(night)] for night in NIGHTS}
    assert calls == {"first": ["cupid", "fox", "wolf", "seer"], "other": ["seer", "doctor", "fox", "wolf"]}
    cards = {card.id: card for card in deck.cards}
    assert cards["cupid"].first_night_only and cards["cupid"].night_script.say.value == "Point at two lovers."
    assert cards["fox"].nights.first == cards["fox"].nights.other


@needs_browser
def test_the_page_reads_a_from_night_line_only_from_that_night_on(nights, tmp_path):
    out = nights / "out"
    result = run(
        "narrator", "nights", "--decks", str(nights / "decks"), "--lang", "en", *TABLE, "--out", str(out), "--no-open"
    )
    assert result.exit_code == 0, result.output
    seen: list[tuple[str, str]] = []
    with browser(tmp_path / "profile") as session:
        page = session.open(Path(result.output.strip()), voices=[{"name": "Stub", "lang": "en-US"}], clock=True)
        page.click("#start")
        for _ in range(120):
            phase = page.inner_text(".phase")
            if phase.endswith("Night 4"):
                break
            seen.append((phase, page.inner_text("#step-text")))
            page.click("nav .next")
    # Each line under the night it was read on (a day under the night before it).
    by_night: dict[int, list[str]] = {}
    night = 0
    for phase, line in seen:
        night = int(phase.rsplit(" ", 1)[1]) if "· Night" in phase else night
        by_night.setdefault(night, []).append(line)
    assert sorted(by_night) == [1, 2, 3]
    assert "Look at a neighbour's card." in by_night[1] and "Look at anyone's card." not in by_night[1]
    assert "Doctor, open your eyes." not in by_night[1] and "Doctor, open your eyes." in by_night[2]
    for line in ("The owl hoots twice.", "You may not shield yourself twice.", "The old well is open to all."):
        assert [n for n, lines in by_night.items() if line in lines] == [3], line
    assert "Cupid, open your eyes." in by_night[1] and "Cupid, open your eyes." not in by_night[2]
