"""Booklet imposition: a document's page count, its page size and the sheet's in; for each side of a
sheet, in print order, which pages it carries and where out.

Pages are padded with blanks to a multiple of four and placed two to a sheet side in the order that,
printed duplex (flipped on the short edge), folded in the middle and stapled, reads 1, 2, 3 …; a
right-to-left language's booklet is bound at its right, each side's two pages swapped. The
typesetter (typeset.FurnishedCanvas) draws each page there as it saves the document, clipped to the
page's own box, so the booklet is written once: no PDF of its pages is read back and merged.
"""

from __future__ import annotations

Placed = tuple[int, float, float]  # a page's index, and where its lower left corner goes on the sheet (pt)


def saddle_order(pages: int) -> list[tuple[int | None, int | None]]:
    """(left, right) page indexes for each sheet side, in print order; None is a blank."""
    total = -(-pages // 4) * 4
    order = []
    for sheet in range(total // 4):
        front = (total - 1 - 2 * sheet, 2 * sheet)
        back = (2 * sheet + 1, total - 2 - 2 * sheet)
        order += [front, back]
    return [(_page(left, pages), _page(right, pages)) for left, right in order]


def _page(index: int, pages: int) -> int | None:
    return index if index < pages else None


def sides(
    pages: int, page: tuple[float, float], sheet: tuple[float, float], bound_right: bool = False
) -> list[list[Placed]]:
    """The pages on each sheet side, in print order: two of `page` size (w, h pt) on a sheet of `sheet`
    size, meeting at its middle (the fold), whatever margin is left over around them; `bound_right`: a
    booklet that opens from the left, read from right to left."""
    middle, bottom = sheet[0] / 2, (sheet[1] - page[1]) / 2
    order = saddle_order(pages)
    return [
        [(index, x, bottom) for index, x in ((left, middle - page[0]), (right, middle)) if index is not None]
        for left, right in ([pair[::-1] for pair in order] if bound_right else order)
    ]
