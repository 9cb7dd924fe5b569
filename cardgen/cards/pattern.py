"""A back's pattern: the card's trim size, the designed symbol size and spacing in; the squares the
symbol is drawn in out (card coordinates, millimetres, origin at the trim's bottom-left).

The symbols stand in rows, every other row shifted by half a step, the rows 0.8 of a step apart. A
sheet's backs abut on shared cut lines, and a cut or a duplex print a millimetre off shows on a card
a sliver of its neighbour's back, or, on a card at the sheet's edge, of its own bleed. The two are the
same only when the pattern repeats a whole number of times across the card in both directions: then
the backs of a sheet join into one unbroken pattern, and every card's bleed shows what a neighbour's
edge would. So each card size gets the whole number of steps across and of row pairs down (a shifted
row repeats every second row) nearest the designed spacing, and the symbol is scaled with the tighter
of the two, so that no gap is narrower than designed. Rows sit half a row in from the top and bottom
edges and the unshifted rows' symbols half a step in from the sides: the pattern is the same from
left and right, and a trim line cuts a symbol only in half.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cardgen.core.units import Rect, Size

ROW = 0.8  # rows apart, in steps


@dataclass(frozen=True)
class Lattice:
    size: float  # the symbol's square
    across: float  # from a symbol to the next in its row
    down: float  # from a row to the next


def lattice(card: Size, size: float, step: float) -> Lattice:
    """The designed size and step fitted to the card: a whole number of steps across it and of row
    pairs down it, the nearest to the design."""
    across = card.w / max(1, round(card.w / step))
    down = card.h / (2 * max(1, round(card.h / (2 * ROW * step))))
    return Lattice(size * min(across / step, down / (ROW * step)), across, down)


def tiles(card: Size, area: Rect, size: float, step: float) -> list[Rect]:
    """The symbol's squares over the area (the card and its bleed), in rows from the bottom."""
    grid = lattice(card, size, step)
    half = grid.size / 2
    out = []
    for row in range(math.floor((area.y - half) / grid.down) - 1, math.ceil((area.top + half) / grid.down) + 1):
        y = (row + 0.5) * grid.down
        if y + half <= area.y or y - half >= area.top:
            continue
        shift = grid.across / 2 if row % 2 else 0.0
        first = math.floor((area.x - half - shift) / grid.across) - 1
        for column in range(first, math.ceil((area.right + half - shift) / grid.across) + 1):
            x = (column + 0.5) * grid.across + shift
            if area.x - half < x < area.right + half:
                out.append(Rect(x - half, y - half, grid.size, grid.size))
    return out
