"""cardgen export --for tts: Tabletop Simulator sheets and saved objects, read back.

The JSON is read as TTS reads it (CustomDeck per deck key, CardID = key × 100 + cell), and
each card's cell is cut out of its sheet image and compared with what that card shows: its
team colour, or the back colour in the hidden cell.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from PIL import Image

from conftest import MINI_BACK, mini_project, run

SEER_GREEN, WOLF_RED = (0x2F, 0x6B, 0x3A), (0x8C, 0x1C, 0x13)
BACK = tuple(int(MINI_BACK[i : i + 2], 16) for i in (1, 3, 5))


def _export(project: Path, out: Path, *options: str):
    result = run(
        "export", "mini", "--for", "tts", "--lang", "en", "--decks", str(project / "decks"), "--out", str(out), *options
    )
    assert result.exit_code == 0, result.output + result.stderr
    return out / "mini" / "tts" / "en"


def _share(image: Image.Image, rgb: tuple[int, int, int]) -> float:
    counts = {color: n for n, color in image.getcolors(image.width * image.height)}
    return counts.get(rgb, 0) / (image.width * image.height)


def _cell(sheet: Image.Image, deck: dict, index: int) -> Image.Image:
    w, h = sheet.width // deck["NumWidth"], sheet.height // deck["NumHeight"]
    row, col = divmod(index, deck["NumWidth"])
    return sheet.crop((col * w, row * h, (col + 1) * w, (row + 1) * h)).convert("RGB")


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = tmp_path_factory.mktemp("tts")
    folder = _export(mini_project(root / "project"), root / "out")
    return folder, json.loads((folder / "mini-en.json").read_text(encoding="utf-8"))


def test_files_a_sheet_a_back_and_a_saved_object_with_its_thumbnail(exported):
    folder, _ = exported
    assert sorted(p.name for p in folder.iterdir()) == [
        "mini-en-role-1.png",
        "mini-en-role-back.png",
        "mini-en.json",
        "mini-en.png",
    ]


def test_the_saved_object_is_one_custom_deck_of_every_copy_face_down(exported):
    _, saved = exported
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Role"
    assert deck["Transform"]["rotZ"] == 180  # face down
    assert [card["Nickname"] for card in deck["ContainedObjects"]] == ["Seer", "Wolf", "Wolf"]
    assert deck["DeckIDs"] == [card["CardID"] for card in deck["ContainedObjects"]] == [100, 101, 101]
    assert deck["ContainedObjects"][1]["Description"].startswith("Each night, the wolves pick one player")
    assert len({card["GUID"] for card in deck["ContainedObjects"]} | {deck["GUID"]}) == 4


def test_the_custom_deck_names_its_images_by_file_name_alone(exported):
    folder, saved = exported
    (deck,) = saved["ObjectStates"]
    assert deck["CustomDeck"] == {
        "1": {
            "FaceURL": "mini-en-role-1.png",
            "BackURL": "mini-en-role-back.png",
            "NumWidth": 2,
            "NumHeight": 2,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        }
    }
    for card in deck["ContainedObjects"]:
        assert card["CustomDeck"] == deck["CustomDeck"]
    for name in ("FaceURL", "BackURL"):
        assert (folder / deck["CustomDeck"]["1"][name]).is_file()


def test_each_card_sits_in_the_cell_its_card_id_names(exported):
    folder, saved = exported
    (deck,) = saved["ObjectStates"]
    custom = deck["CustomDeck"]["1"]
    with Image.open(folder / custom["FaceURL"]) as sheet:
        # Two cards and the hidden card's cell on 2 × 2: poker trims, 300 dpi at most.
        assert sheet.size == (2 * 744, 2 * 1039)
        for card in deck["ContainedObjects"]:
            cell = _cell(sheet, custom, card["CardID"] % 100)
            mine, other = (SEER_GREEN, WOLF_RED) if card["Nickname"] == "Seer" else (WOLF_RED, SEER_GREEN)
            assert _share(cell, mine) > 0.05 and _share(cell, other) == 0
        hidden = _cell(sheet, custom, custom["NumWidth"] * custom["NumHeight"] - 1)
        assert max(hidden.getcolors(hidden.width * hidden.height))[1] == BACK
        empty = _cell(sheet, custom, 2)
        assert empty.getcolors() == [(empty.width * empty.height, (255, 255, 255))]
    with Image.open(folder / custom["BackURL"]) as back:
        assert back.size == (744, 1039)
        assert max(back.getcolors(back.width * back.height))[1] == BACK


def test_a_url_prefixes_every_image(tmp_path):
    folder = _export(mini_project(tmp_path / "project"), tmp_path / "out", "--url", "https://example.org/mini/")
    (deck,) = json.loads((folder / "mini-en.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert deck["CustomDeck"]["1"]["FaceURL"] == "https://example.org/mini/mini-en-role-1.png"
    assert deck["CustomDeck"]["1"]["BackURL"] == "https://example.org/mini/mini-en-role-back.png"


def test_url_without_tts_is_a_usage_error(tmp_path):
    result = run(
        "export",
        "mini",
        "--url",
        "https://example.org/",
        "--decks",
        str(mini_project(tmp_path / "project") / "decks"),
        "--out",
        str(tmp_path / "out"),
    )
    assert result.exit_code == 2 and "--url is for --for tts" in result.stderr


def test_round_tokens_are_circles(tmp_path):
    folder = _export(mini_project(tmp_path / "project", "token-25"), tmp_path / "out")
    (deck,) = json.loads((folder / "mini-en.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert deck["CustomDeck"]["1"]["Type"] == 4
    assert deck["Transform"]["scaleX"] == pytest.approx(25 / 63.5)


def test_a_group_of_one_card_is_a_single_custom_card(tmp_path):
    project = mini_project(tmp_path / "project")
    wolf = project / "decks" / "mini" / "roles" / "wolf.yaml"
    wolf.unlink()
    folder = _export(project, tmp_path / "out")
    (card,) = json.loads((folder / "mini-en.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert card["Name"] == "Card" and card["Nickname"] == "Seer" and card["CardID"] == 100


def test_more_than_69_cards_go_on_a_second_sheet_of_at_most_10_by_7(tmp_path):
    project = mini_project(tmp_path / "project")
    roles = project / "decks" / "mini" / "roles"
    text = (roles / "seer.yaml").read_text(encoding="utf-8")
    for n in range(73):
        (roles / f"seer-{n:02d}.yaml").write_text(
            text.replace("order: 50", f"order: {100 + n}").replace("Seer", f"Seer {n}"), encoding="utf-8"
        )
    folder = _export(project, tmp_path / "out")
    (deck,) = json.loads((folder / "mini-en.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert len(deck["ContainedObjects"]) == 76  # 75 cards, wolf twice
    first, second = deck["CustomDeck"]["1"], deck["CustomDeck"]["2"]
    assert (first["NumWidth"], first["NumHeight"]) == (10, 7)
    assert (second["NumWidth"], second["NumHeight"]) == (4, 2)  # 6 cards and the hidden cell
    ids = sorted(set(deck["DeckIDs"]))
    assert ids == [*range(100, 169), *range(200, 206)]
    with Image.open(folder / first["FaceURL"]) as sheet:
        assert max(sheet.size) <= 4096
        per_mm = min(4096 / (10 * 63), 4096 / (7 * 88))  # the ten columns are the limit
        assert sheet.size == (10 * math.floor(63 * per_mm), 7 * math.floor(88 * per_mm)) == (4090, 4004)
