"""Booklet imposition: A5 pages in, A4 sheets for saddle-stitching out.

Pages are padded with blanks to a multiple of four and placed two to a sheet
side in the order that, printed duplex (flipped on the short edge), folded in
the middle and stapled, reads 1, 2, 3 … Uses pypdf, so the A5 pages are placed
as they are, vectors and fonts untouched.
"""

from __future__ import annotations

import io

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import NameObject


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


def impose(pdf: bytes, sheet_w: float, sheet_h: float) -> bytes:
    """The pages of pdf two-up on sheets of sheet_w × sheet_h pt, meeting at the sheet's middle
    (the fold), whatever margin is left over around them."""
    reader = PdfReader(io.BytesIO(pdf))
    page_w = float(reader.pages[0].mediabox.width)
    page_h = float(reader.pages[0].mediabox.height)
    middle, bottom = sheet_w / 2, (sheet_h - page_h) / 2
    writer = PdfWriter()
    for left, right in saddle_order(len(reader.pages)):
        sheet = PageObject.create_blank_page(width=sheet_w, height=sheet_h)
        for index, offset in ((left, middle - page_w), (right, middle)):
            if index is not None:
                sheet.merge_transformed_page(reader.pages[index], Transformation().translate(offset, bottom))
        writer.add_page(sheet)
    # The booklet is the rulebook: it says of itself what the rulebook says.
    writer.add_metadata({**(reader.metadata or {}), "/Producer": "cardgen"})
    if "/Lang" in reader.root_object:
        writer.root_object[NameObject("/Lang")] = reader.root_object["/Lang"]
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
