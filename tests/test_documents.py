"""Rulebooks and moderator scripts: generated from the decks, read back from the PDFs."""

from __future__ import annotations

import shutil

import pypdf
import pytest

from cardgen.core.units import mm
from cardgen.documents.booklet import saddle_order
from conftest import ROOT, run, table

WEREWOLF_FIRST_NIGHT = ["Thief", "Cupid", "Guard", "Seer", "Werewolves", "Witch", "Pied Piper"]


def text_of(path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


@pytest.fixture(scope="module")
def werewolf(tmp_path_factory):
    out = tmp_path_factory.mktemp("docs")
    result = run("build", "werewolf", "--lang", "en", "--lang", "zh", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out / "werewolf"


def test_every_game_gets_a_rulebook_and_a_script_in_every_language(bundled):
    for game in ("werewolf", "salem-1692", "mafia-vendetta", "werewords"):
        for lang in ("en", "vi", "zh", "es"):
            for kind in ("rulebook", "script"):
                assert (bundled / game / f"{game}-{kind}-{lang}.pdf").is_file()
        # A quick reference: two to four A4 pages.
        pages = pypdf.PdfReader(bundled / game / f"{game}-rulebook-en.pdf").pages
        assert 2 <= len(pages) <= 4, game
        assert [round(mm(float(pages[0].mediabox.width)), 1), round(mm(float(pages[0].mediabox.height)), 1)] == [
            210.0,
            297.0,
        ]


def test_rulebook_lists_every_role_from_the_cards_and_the_setup_table(werewolf):
    text = text_of(werewolf / "werewolf-rulebook-en.pdf")
    for heading in ("Goal", "Components", "Setup by player count", "Roles and cards", "Making the deck"):
        assert heading in text
    for role in ("Little Girl", "Village Idiot", "Pied Piper", "Sheriff", "Scapegoat"):
        assert role in text
    assert "5–18 players" in text
    assert "fit 66 × 91 mm sleeves" in " ".join(text.split())


def test_script_wakes_the_roles_in_the_seed_s_order_and_thief_and_cupid_only_on_the_first_night(werewolf):
    text = text_of(werewolf / "werewolf-script-en.pdf")
    first_night, later = text.split("Every other night")
    positions = [first_night.index(f"{name}, open your eyes.") for name in WEREWOLF_FIRST_NIGHT]
    assert positions == sorted(positions)
    assert "Thief, open your eyes." not in later and "Cupid, open your eyes." not in later
    for name in ("Guard", "Seer", "Werewolves", "Witch", "Pied Piper"):
        assert f"{name}, open your eyes." in later
    # The Thief's extra cards may hide any role but the Werewolves (if both are Werewolves, the Thief
    # must take one): every other call says to wait as if someone acted.
    assert first_night.count("Possibly nobody holds this card") == len(WEREWOLF_FIRST_NIGHT) - 1


def test_script_covers_exactly_the_roles_in_play(tmp_path):
    result = run("build", "werewolf", "--lang", "en", "--players", "10", "--with", "hunter", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    text = text_of(tmp_path / "werewolf" / f"werewolf-script-en-{table(10, ('hunter',))}.pdf")
    assert "10 players, setup: Standard" in text
    assert "Seer, open your eyes." in text and "Werewolves, open your eyes." in text
    for absent in ("Witch, open", "Thief, open", "Possibly nobody holds this card"):
        assert absent not in text
    assert "The Hunter has fallen" in text  # an `if: hunter` step, in play with --with
    assert "Scapegoat dies" not in text  # an `if: scapegoat` step, not in play


def test_every_script_page_names_game_language_setup_and_page(werewolf):
    pages = pypdf.PdfReader(werewolf / "werewolf-script-zh.pdf").pages
    for number, page in enumerate(pages, start=1):
        text = page.extract_text()
        assert text.startswith("狼人杀 · 主持人台词 · 中文 · 盒中全部卡牌")
        assert f"第 {number} 页，共 {len(pages)} 页" in text


def test_a_designer_s_night_role_slots_into_the_script_and_the_rulebook(tmp_path):
    decks = tmp_path / "decks"
    shutil.copytree(ROOT / "decks" / "werewolf", decks / "werewolf")
    (decks / "werewolf" / "roles" / "fox.yaml").write_text(
        """\
name: {en: Fox, vi: Cáo, zh: 狐狸, es: Zorro}
team: village
symbol: symbols/seer.svg
ability: {en: Each night sniff three neighbours., vi: Mỗi đêm ngửi ba người., zh: 每晚嗅三人。, es: Cada noche olfatea a tres.}
night:
  order: 55
  script:
    say: {en: Point at a player to sniff., vi: Chỉ một người., zh: 指一名玩家。, es: Señala a alguien.}
""",
        encoding="utf-8",
    )
    result = run("build", "werewolf", "--lang", "en", "--decks", str(decks), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    script = text_of(tmp_path / "out" / "werewolf" / "werewolf-script-en.pdf")
    night = script.split("Every other night")[1]
    assert night.index("Seer, open") < night.index("Fox, open") < night.index("Werewolves, open")
    assert "Point at a player to sniff." in night
    rulebook = text_of(tmp_path / "out" / "werewolf" / "werewolf-rulebook-en.pdf")
    assert "Each night sniff three neighbours." in rulebook


def test_booklet_is_a5_pages_two_up_on_a4_in_saddle_stitch_order(tmp_path):
    result = run("build", "werewolf", "--lang", "en", "--booklet", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "werewolf" / "werewolf-rulebook-en.pdf")
    sheet = reader.pages[0]
    assert (round(mm(float(sheet.mediabox.width)), 1), round(mm(float(sheet.mediabox.height)), 1)) == (297.0, 210.0)
    assert len(reader.pages) % 2 == 0
    # The first side carries the last page on the left and page 1 (the title) on the right.
    right = sheet.extract_text(visitor_text=None)
    assert "Werewolf" in right


def test_saddle_stitch_order():
    assert saddle_order(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]
    assert saddle_order(6) == [(None, 0), (1, None), (5, 2), (3, 4)]


def test_documents_are_byte_identical_on_rebuild(tmp_path):
    for out in ("a", "b"):
        result = run("build", "werewords", "--lang", "vi", "--booklet", "--out", str(tmp_path / out))
        assert result.exit_code == 0, result.output
    for kind in ("rulebook", "script"):
        name = f"werewords-{kind}-vi.pdf"
        assert (tmp_path / "a" / "werewords" / name).read_bytes() == (tmp_path / "b" / "werewords" / name).read_bytes()


def test_deck_text_never_becomes_document_markup(tmp_path):
    decks = tmp_path / "decks"
    shutil.copytree(ROOT / "decks" / "werewolf", decks / "werewolf")
    seer = decks / "werewolf" / "roles" / "seer.yaml"
    text = seer.read_text(encoding="utf-8")
    seer.write_text(text.replace('en: "Seer"', 'en: "Seer</role><h1>{{ 7*7 }}</h1>"'), encoding="utf-8")
    result = run("build", "werewolf", "--lang", "en", "--decks", str(decks), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    rulebook = text_of(tmp_path / "out" / "werewolf" / "werewolf-rulebook-en.pdf")
    assert "Seer</role><h1>{{ 7*7 }}</h1>" in rulebook
    assert "49" not in rulebook.split("Seer</role>")[1][:20]
