"""Tabletop Simulator: a game's cards as TTS custom decks, so a group can play over video.

In: a game and its languages, prepared as ``build`` prepares them, and where TTS will find
the images: a base URL the user hosts them at, or none, in which case the JSON names the
images by their bare file names, which TTS looks up in its own ``Mods/Images`` folder.

Out, per language, under ``<out>/<game>/tts/<lang>/``:

* ``<game>-<lang>-<group>-<n>.png``, the face sheets of each group (a group is the cards
  that share a back): the group's distinct cards row by row from the top left, at most
  10 × 7 cells and 69 cards a sheet, the last cell (bottom right) holding the group's back,
  which TTS shows for a card hidden in a hand. A cell is the card's trim, no bleed; a sheet
  is at most 4096 px each way (TTS's largest recommended texture) and its cards at most
  300 dpi.
* ``<game>-<lang>-<group>-back.png``: the group's back; a group whose cards have backs of
  their own gets back sheets laid out cell for cell as its face sheets
  (``<game>-<lang>-<group>-<n>-backs.png``, TTS's "unique backs").
* ``<game>-<lang>.json`` and ``<game>-<lang>.png``: a TTS saved object (drop both into TTS's
  ``Saved Objects`` folder) with every group as one custom deck, face down, side by side,
  each physical copy a card named in the language, a group of one card as a single custom
  card; the PNG is the thumbnail TTS shows in its menu.

Card IDs follow TTS's convention: deck key × 100 + cell index, the key numbering the
sheets of the saved object from 1. Everything is written atomically; the PNGs carry no
timestamps, so the same deck gives the same bytes.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from cardgen.build import Prepared
from cardgen.build.game_decks import ExportReport, GameLanguages
from cardgen.cards.single import print_pages, print_pdf, rasterise
from cardgen.core import units
from cardgen.core.project import Project
from cardgen.core.write import remove_stale, write_atomic
from cardgen.deck.model import Card, Group
from cardgen.text import markup

MAX_COLS, MAX_ROWS = 10, 7
MAX_CARDS = MAX_COLS * MAX_ROWS - 1  # the last cell is the hidden card's image
MAX_PIXELS = 4096
MAX_DPI = 300
# TTS's card shapes (CustomDeck "Type"): 0 a rounded rectangle, 4 a circle.
_SHAPES = {"rect": 0, "round": 4}


@dataclass(frozen=True)
class Sheet:
    """One face sheet of a group: which cards, on which grid, at how many pixels a cell."""

    group: Group
    number: int  # 1-based within the group
    cards: tuple[Card, ...]  # distinct cards, in cell order
    cols: int
    rows: int
    cell: tuple[int, int]  # px

    @property
    def dpi(self) -> float:
        return units.dpi_for(self.cell[0], self.group.size.w)


def grid(count: int) -> tuple[int, int]:
    """Columns and rows for `count` cards and the hidden card's cell: as few rows of up to ten as
    hold them, filled evenly, at least 2 × 2 (TTS's smallest deck sheet)."""
    cells = count + 1
    rows = max(2, math.ceil(cells / MAX_COLS))
    return max(2, math.ceil(cells / rows)), rows


def sheets(prepared: Prepared, group: Group) -> list[Sheet]:
    """The face sheets of a group's distinct cards, 69 at most to a sheet."""
    cards = [card for card in prepared.deck.cards if card.group.id == group.id]
    out = []
    for number, first in enumerate(range(0, len(cards), MAX_CARDS), start=1):
        chunk = tuple(cards[first : first + MAX_CARDS])
        cols, rows = grid(len(chunk))
        size = group.size
        # As many pixels as the largest texture and 300 dpi allow, the same scale both ways.
        per_mm = min(MAX_PIXELS / (cols * size.w), MAX_PIXELS / (rows * size.h), units.px(1, MAX_DPI))
        out.append(Sheet(group, number, chunk, cols, rows, (math.floor(size.w * per_mm), math.floor(size.h * per_mm))))
    return out


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False)
    return buffer.getvalue()


class _Pictures:
    """Every card side of one deck rasterised once at a sheet's resolution, trim only."""

    def __init__(self, prepared: Prepared, sheet_data: dict):
        self.prepared = prepared
        self.pages = print_pages(prepared, 0)
        self.pdf = print_pdf(prepared, self.pages, sheet_data)
        self.first: dict[str, int] = {}
        for item, card in enumerate(prepared.deck.copies):
            self.first.setdefault(card.id, item)

    def images(self, cards: list[Card], side: str, dpi: float, cell: tuple[int, int]) -> list[Image.Image]:
        numbers = [2 * self.first[card.id] + (side == "back") for card in cards]
        pngs = rasterise(self.pdf, self.pages, numbers, dpi)
        out = []
        for number in numbers:
            image = Image.open(io.BytesIO(pngs[number])).convert("RGB")
            out.append(image if image.size == cell else image.resize(cell, Image.Resampling.LANCZOS))
        return out


def _sheet_image(sheet: Sheet, cells: list[Image.Image], hidden: Image.Image) -> Image.Image:
    w, h = sheet.cell
    image = Image.new("RGB", (sheet.cols * w, sheet.rows * h), "white")
    for index, cell in enumerate(cells):
        row, col = divmod(index, sheet.cols)
        image.paste(cell, (col * w, row * h))
    image.paste(hidden, ((sheet.cols - 1) * w, (sheet.rows - 1) * h))
    return image


def _plain(text: str) -> str:
    """A card text without its markup, as TTS shows descriptions."""
    return "".join(span.text for span in markup.parse(text))


def _guid(*parts: str) -> str:
    # TTS wants six hex digits per object; derived from the object's identity so that
    # exporting again writes the same file.
    return hashlib.sha256("/".join(parts).encode("utf-8")).hexdigest()[:6]


def _transform(x: float, scale: float) -> dict:
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,
        "scaleX": scale,
        "scaleY": 1.0,
        "scaleZ": scale,
    }


def _object(name: str, guid: str, x: float, scale: float, nickname: str, description: str = "") -> dict:
    return {
        "Name": name,
        "GUID": guid,
        "Transform": _transform(x, scale),
        "Nickname": nickname,
        "Description": description,
        "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713},
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "Hands": True,
        "HideWhenFaceDown": True,
    }


def saved_object(prepared: Prepared, decks: list[tuple[Group, list[tuple[int, Sheet, str, str]]]]) -> dict:
    """The saved object: for each group, its sheets as (deck key, sheet, face file, back URL)."""
    deck = prepared.deck
    states = []
    for position, (group, keyed) in enumerate(decks):
        scale = group.size.w / units.inches(2.5)
        custom = {
            str(key): {
                "FaceURL": face,
                "BackURL": back,
                "NumWidth": sheet.cols,
                "NumHeight": sheet.rows,
                "BackIsHidden": True,
                "UniqueBack": any(card.back_face for card in sheet.cards),
                "Type": _SHAPES[group.shape],
            }
            for key, sheet, face, back in keyed
        }
        ids = {card.id: key * 100 + index for key, sheet, _, _ in keyed for index, card in enumerate(sheet.cards)}
        cards = []
        for copy, card in enumerate(c for c in deck.copies if c.group.id == group.id):
            key = ids[card.id] // 100
            obj = _object(
                "Card",
                _guid(deck.game, deck.key, group.id, str(copy)),
                3.0 * position,
                scale,
                card.name.value,
                _plain(card.ability.value),
            )
            obj.update(
                CardID=ids[card.id], SidewaysCard=group.size.w > group.size.h, CustomDeck={str(key): custom[str(key)]}
            )
            cards.append(obj)
        if len(cards) == 1:
            states.append(cards[0])
            continue
        obj = _object("DeckCustom", _guid(deck.game, deck.key, group.id), 3.0 * position, scale, group.name.value)
        obj.update(
            SidewaysCard=group.size.w > group.size.h,
            DeckIDs=[card["CardID"] for card in cards],
            CustomDeck=custom,
            ContainedObjects=cards,
        )
        states.append(obj)
    return {
        "SaveName": "",
        "Date": "",
        "VersionNumber": "",
        "GameMode": "",
        "GameType": "",
        "GameComplexity": "",
        "Tags": [],
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "TabStates": {},
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "ObjectStates": states,
    }


def deck_files(prepared: Prepared, sheet_data: dict, url: str) -> dict[str, bytes]:
    """Every file of one language: name -> bytes."""
    deck = prepared.deck
    pictures = _Pictures(prepared, sheet_data)
    stem = f"{deck.game}-{deck.key}"
    files: dict[str, bytes] = {}
    decks = []
    key = 0
    for group in deck.groups:
        group_sheets = sheets(prepared, group)
        if not group_sheets:
            continue
        keyed = []
        back_name = f"{stem}-{group.id}-back.png"
        for sheet in group_sheets:
            key += 1
            back_cell = pictures.images([sheet.cards[0]], "back", sheet.dpi, sheet.cell)[0]
            if any(card.back_face for card in sheet.cards):
                # The hidden cell shows the group's shared back (the first card's back stands in).
                backs = pictures.images(list(sheet.cards), "back", sheet.dpi, sheet.cell)
                back = f"{stem}-{group.id}-{sheet.number}-backs.png"
                files[back] = _png(_sheet_image(sheet, backs, back_cell))
            else:
                back = back_name
                files[back] = _png(back_cell)
            face = f"{stem}-{group.id}-{sheet.number}.png"
            fronts = pictures.images(list(sheet.cards), "front", sheet.dpi, sheet.cell)
            files[face] = _png(_sheet_image(sheet, fronts, back_cell))
            keyed.append((key, sheet, url + face, url + back))
        decks.append((group, keyed))
    files[f"{stem}.json"] = (json.dumps(saved_object(prepared, decks), ensure_ascii=False, indent=2) + "\n").encode()
    thumbnail = Image.open(
        io.BytesIO(files[next(name for name in files if name.endswith("-back.png") or name.endswith("-backs.png"))])
    )
    thumbnail.thumbnail((256, 256))
    files[f"{stem}.png"] = _png(thumbnail)
    return files


def export_tts(project: Project, game: str, langs: tuple[str, ...], out: Path, url: str = "") -> ExportReport:
    """Every language's sheets and saved object; problems of any language raised together at the end."""
    decks = GameLanguages(project, game, langs, out)
    sheet_data = project.template_data("sheet.yaml")
    for prepared in decks:
        folder = out / decks.files.id / "tts" / prepared.deck.key
        written = deck_files(prepared, sheet_data, url)
        for name, data in sorted(written.items()):
            write_atomic(folder / name, data)
            decks.report.files.append(folder / name)
        remove_stale(folder, {folder / name for name in written})
        decks.report.cards += len(prepared.deck.copies)
    return decks.finish()
