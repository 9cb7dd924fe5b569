"""The boards 狼人杀 groups play, as the Werewolf deck's community setups: listed, dealt and printed."""

from __future__ import annotations

import json

import pypdf
import pytest

from conftest import run

BOARDS = {
    "board-9": (9, {"werewolf": 3, "seer": 1, "witch": 1, "hunter": 1, "villager": 3}),
    "board-12-idiot": (12, {"werewolf": 4, "seer": 1, "witch": 1, "hunter": 1, "village-idiot": 1, "villager": 4}),
    "board-12-guard": (12, {"werewolf": 4, "seer": 1, "witch": 1, "hunter": 1, "guard": 1, "villager": 4}),
}


def test_setup_list_shows_the_official_table_and_the_boards_groups_play():
    assert run("setup", "werewolf", "--list").stdout == (
        "werewolf: 4 setups\n"
        "  standard        Standard                        5–18 players\n"
        "  board-9         Classic 9-player board          9 players     ○\n"
        "  board-12-idiot  12-player board with the Idiot  12 players    ○\n"
        "  board-12-guard  12-player board with the Guard  12 players    ○\n"
        "  ○ a board groups commonly play\n"
    )


@pytest.mark.parametrize("board", BOARDS)
def test_a_board_deals_its_one_row_without_a_player_count(board):
    players, cards = BOARDS[board]
    result = run("setup", "werewolf", "--setup", board, "--json")
    answer = json.loads(result.stdout)
    assert {key: answer[key] for key in ("game", "players", "components")} == {
        "game": "werewolf",
        "players": players,
        "components": cards,
    }


def test_the_chinese_rulebook_prints_the_boards_in_their_marked_table(tmp_path):
    result = run("build", "werewolf", "--lang", "zh", "--out", str(tmp_path), "--jobs", "1")
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "werewolf" / "werewolf-rulebook-zh.pdf")
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages).replace(" ", "")
    assert "○玩家常用板子：许多玩家群体常用，既非官方规则，也不是我们定的。" in text
    table = text[text.index("玩家常用板子○") :]
    assert table.startswith(
        "玩家常用板子○板子预女猎预女猎白预女猎守人数91212狼人344预言家111女巫111猎人111白痴–1–守卫––1村民344"
    )


def test_the_boards_table_keeps_each_card_name_on_one_line_under_names_that_wrap(tmp_path):
    # The boards' long names (the column headings) used to squeeze the labels: "Hombr / e lobo".
    result = run("build", "werewolf", "--lang", "es", "--out", str(tmp_path), "--jobs", "1")
    assert result.exit_code == 0, result.output
    text = pypdf.PdfReader(tmp_path / "werewolf" / "werewolf-rulebook-es.pdf").pages[0].extract_text()
    table = text[text.index("Preparaciones que juegan los grupos") :]
    # Each cell is a line of its own: a label broken inside a word would be two.
    for label in ("Hombre lobo", "Idiota del pueblo", "Aldeano", "Preparación"):
        assert label in [line.strip() for line in table.splitlines()], table
