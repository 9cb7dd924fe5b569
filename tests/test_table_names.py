"""A table's files say which table they are (issue 27): `<game>-<kind>-<lang>[-<setup>]-<N>p[-<digest>]`,
so that two tables of ten never overwrite each other, and the game's own table keeps its plain name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pypdf
import pytest

from conftest import digest, run
from narrator_browser import as_built, browser, needs_browser, script_view


def narrator(out: Path, game: str, *table: str) -> Path:
    result = run("narrator", game, "--lang", "en", "--out", str(out), "--no-open", *table)
    assert result.exit_code == 0, result.output
    return Path(result.output.strip())


def tonight(page: Path) -> dict:
    html = page.read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="deck">(.*?)</script>', html).group(1))["tonight"]


def test_the_games_own_table_keeps_its_name_and_a_named_first_setup_is_the_same_table(tmp_path):
    plain = narrator(tmp_path, "werewolf", "--players", "10")
    assert plain == tmp_path / "werewolf" / "werewolf-narrator-en-10p.html"
    assert narrator(tmp_path, "werewolf", "--players", "10", "--setup", "standard") == plain
    # Another setup is named before the players.
    board = narrator(tmp_path, "werewolf", "--setup", "board-9")
    assert board.name == "werewolf-narrator-en-board-9-9p.html"
    assert tonight(board)["setup"] == "board-9"


def test_two_tables_of_ten_with_other_cards_get_two_pages_each_of_its_own_table(tmp_path):
    witch = narrator(tmp_path, "werewolf", "--players", "10", "--with", "witch")
    hunter = narrator(tmp_path, "werewolf", "--players", "10", "--with", "hunter")
    assert witch.name == f"werewolf-narrator-en-10p-{digest(('witch',))}.html"
    assert hunter.name == f"werewolf-narrator-en-10p-{digest(('hunter',))}.html"
    assert (tonight(witch)["with"], tonight(hunter)["with"]) == (["witch"], ["hunter"])
    # The same cards in another order are the same table, the same name.
    both = narrator(tmp_path, "werewolf", "--players", "10", "--with", "witch", "--with", "hunter")
    again = narrator(tmp_path, "werewolf", "--players", "10", "--with", "hunter", "--with", "witch")
    assert both == again != witch
    assert both.name == f"werewolf-narrator-en-10p-{digest(('witch', 'hunter'))}.html"
    assert sorted(p.name for p in (tmp_path / "werewolf").iterdir()) == sorted({witch.name, hunter.name, both.name})


def test_roles_in_any_order_name_one_table_apart_from_the_same_cards_added_with_with(tmp_path):
    spec = "werewolf:2,seer,witch,villager:6"
    chosen = narrator(tmp_path, "werewolf", "--roles", spec)
    assert narrator(tmp_path, "werewolf", "--roles", "villager:6,witch,seer,werewolf:2") == chosen
    assert chosen.name == f"werewolf-narrator-en-10p-{digest(roles=spec)}.html"
    assert dict(tonight(chosen)["roles"]["dealt"]) == {"werewolf": 2, "seer": 1, "witch": 1, "villager": 6}
    # The standard row with the Witch deals the same cards, but the page starts from the row: its own name.
    added = narrator(tmp_path, "werewolf", "--players", "10", "--with", "witch")
    assert added.name == f"werewolf-narrator-en-10p-{digest(('witch',))}.html" != chosen.name


def test_two_mafia_setups_for_twelve_write_two_scripts_and_two_pages(tmp_path):
    """Every tailored output shares the name: the scripts (and, with --only-needed, the card sheets) too."""
    names = {}
    for setup in ("standard", "yakuza"):
        result = run(
            "build", "mafia-vendetta", "--lang", "en", "--players", "12", "--setup", setup, "--only-needed",
            "--out", str(tmp_path), "--jobs", "1",
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        names[setup] = sorted(Path(line).name for line in result.stdout.splitlines()[:-1])
    assert names == {
        "standard": [
            "mafia-vendetta-cards-en-12p.pdf",
            "mafia-vendetta-narrator-en-12p.html",
            "mafia-vendetta-rulebook-en.pdf",
            "mafia-vendetta-script-en-12p.pdf",
        ],
        "yakuza": [
            "mafia-vendetta-cards-en-yakuza-12p.pdf",
            "mafia-vendetta-narrator-en-yakuza-12p.html",
            "mafia-vendetta-script-en-yakuza-12p.pdf",
        ],
    }
    folder = tmp_path / "mafia-vendetta"
    assert tonight(folder / "mafia-vendetta-narrator-en-12p.html")["setup"] == "standard"
    assert tonight(folder / "mafia-vendetta-narrator-en-yakuza-12p.html")["setup"] == "yakuza"
    yakuza = "".join(
        p.extract_text() for p in pypdf.PdfReader(folder / "mafia-vendetta-script-en-yakuza-12p.pdf").pages
    )
    standard = "".join(p.extract_text() for p in pypdf.PdfReader(folder / "mafia-vendetta-script-en-12p.pdf").pages)
    assert "Yakuza" in yakuza and "Yakuza" not in standard


@needs_browser
def test_each_of_two_tables_of_ten_opens_to_its_own_night(tmp_path):
    pages = {card: narrator(tmp_path, "werewolf", "--players", "10", "--with", card) for card in ("witch", "hunter")}
    with browser(tmp_path / "profile") as session:
        read = {}
        for card, path in pages.items():
            page = session.open(path)
            as_built(page)
            read[card] = " ".join(text for _, steps in script_view(page) for *_, text in steps)
            page.close()
        assert not session.errors
    assert "Witch, open your eyes" in read["witch"] and "Witch" not in read["hunter"]
    assert "Hunter" in read["hunter"] and "Hunter" not in read["witch"]


@pytest.mark.parametrize(
    "table, name",
    [
        ((), "werewolf-script-en-9p.pdf"),
        (("--setup", "board-9"), "werewolf-script-en-board-9-9p.pdf"),
        (("--with", "witch"), f"werewolf-script-en-9p-{digest(('witch',))}.pdf"),
    ],
)
def test_the_listed_targets_name_the_table(table, name):
    result = run("build", "werewolf", "--lang", "en", "--players", "9", "--list-targets", "--json", *table)
    (target,) = json.loads(result.stdout)["targets"]
    assert f"output/werewolf/{name}" in target["outputs"]
