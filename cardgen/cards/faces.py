"""What a card's face is: the records composing makes (a role card, a token, a word card, a list, a back)
and the layout data they are made from (card-layout.yaml's sizes merged over its defaults, boxes in mm);
the renderer draws them. Nothing here fits text or draws."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from cardgen.cards.ink import contrast
from cardgen.core.units import Rect
from cardgen.deck.model import Card, Group
from cardgen.text import textfit


@dataclass(frozen=True)
class RoleFace:
    card: Card
    frame: Rect
    panel: Rect
    name: textfit.Fitted
    name_box: Rect
    symbol_box: Rect
    team: textfit.Fitted
    team_box: Rect  # the team's pill
    ability: textfit.Fitted
    ability_box: Rect
    label_box: Rect  # the team label inside the pill, clear of the marks
    marks: tuple[Rect, ...] = ()  # the team's mark at both ends of the pill


@dataclass(frozen=True)
class TokenFace:
    card: Card
    circle: Rect
    symbol: Path | None
    symbol_box: Rect
    name: textfit.Fitted
    name_box: Rect


@dataclass(frozen=True)
class WordRow:
    level: int  # 1 for the first (easiest) level of the card, 2 for the next...
    word: textfit.Fitted
    box: Rect
    dots: tuple[Rect, ...]  # the level's, before the word: one for the easiest words on the card, two for the next...


def word_row(level: int, word: textfit.Fitted, box: Rect, pip: float) -> WordRow:
    """A word card's row of `word` in its `box`, its level's dots (`pip` mm across) in the room before the box."""
    centres = (box.x - pip * (1.6 * (3 - n)) - pip / 2 for n in range(level))
    return WordRow(level, word, box, tuple(Rect(x - pip / 2, box.cy - pip / 2, pip, pip) for x in centres))


@dataclass(frozen=True)
class WordsFace:
    card: Card
    frame: Rect
    panel: Rect
    title: textfit.Fitted
    title_box: Rect
    rows: tuple[WordRow, ...]


@dataclass(frozen=True)
class ListFace:
    """A reference card: a title and one block of text (the night order)."""

    card: Card
    frame: Rect
    panel: Rect
    name: textfit.Fitted
    name_box: Rect
    text: textfit.Fitted
    text_box: Rect


Face = RoleFace | TokenFace | WordsFace | ListFace
RASTER = (".png", ".jpg", ".jpeg")


@dataclass(frozen=True)
class BackFace:
    """A group's shared back; title is None on round tokens, too small for one."""

    emblem_box: Rect
    title: textfit.Fitted | None
    title_box: Rect | None
    light: str  # the title's and the emblem's light parts' colour


def back_light(color: str, spec: Mapping) -> str:
    """What stands out on a back: the layout's light emblem colour, or, on a back too light for
    it to stand out 3:1, its dark one."""
    return spec["emblem-color"] if contrast(spec["emblem-color"], color) >= 3 else spec["emblem-dark"]


@dataclass(frozen=True)
class Faces:
    layouts: Mapping[str, Mapping]  # the card layout of each card size, by size name
    fronts: dict[str, Face]
    backs: dict[str, BackFace]  # by group id
    card_backs: dict[str, Face]  # by card id, for cards with a back of their own

    def layout_for(self, group: Group) -> Mapping:
        return self.layouts[group.size_name]


def size_layouts(layout: Mapping, sizes: Mapping[str, Mapping]) -> dict[str, dict]:
    """The card layout of every card size: card-layout.yaml with the keys of the size's class
    (`layout:` in card-sizes.yaml, a block of `size-classes:`) put in, key by key."""
    classes = layout.get("size-classes", {})
    base = {key: value for key, value in layout.items() if key != "size-classes"}
    return {name: merged(base, classes.get(spec.get("layout"), {})) for name, spec in sizes.items()}


def merged(base: Mapping, override: Mapping) -> dict:
    out = dict(base)
    for key, value in override.items():
        out[key] = (
            merged(base[key], value) if isinstance(value, Mapping) and isinstance(base.get(key), Mapping) else value
        )
    return out


def spec_box(area: Rect, spec: Mapping, padding: float = 0.0) -> Rect:
    """A box at spec's top and height (fractions of area's height), across area's width or,
    with left and width, that part of it (fractions of area's width)."""
    top = area.top - spec["top"] * area.h
    height = spec["height"] * area.h
    left, width = area.x + spec.get("left", 0.0) * area.w, spec.get("width", 1.0) * area.w
    return Rect(left + padding, top - height, width - 2 * padding, height)


def without_picture(boxes: Mapping) -> dict:
    """A role card's boxes when it has no picture: the picture's room goes to the ability text and the
    team label stays. Where the picture is above the label and the text, the label moves up to where
    the picture began and the text starts as far below it as before, ending where it ended; where the
    picture is beside the text (a wide card's), the text takes the picture's width too, its label centred
    under it. A layout of another shape (a project's own) keeps its boxes and an empty picture box."""
    symbol, team, text = boxes["symbol"], boxes["team"], boxes["text"]
    symbol_left, text_left = symbol.get("left", 0.0), text.get("left", 0.0)
    symbol_right, text_right = symbol_left + symbol.get("width", 1.0), text_left + text.get("width", 1.0)
    if symbol_right <= text_left or text_right <= symbol_left:
        left, right = min(symbol_left, text_left), max(symbol_right, text_right)
        return {
            **boxes,
            "text": {**text, "left": left, "width": right - left},
            "team": {**team, "left": (left + right - team.get("width", 1.0)) / 2},
        }
    if symbol["top"] < team["top"] <= text["top"]:
        top = symbol["top"] + text["top"] - team["top"]
        return {
            **boxes,
            "team": {**team, "top": symbol["top"]},
            "text": {**text, "top": top, "height": text["top"] + text["height"] - top},
        }
    return dict(boxes)
