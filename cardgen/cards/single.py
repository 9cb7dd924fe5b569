"""One card a page: a prepared deck in; pages of one card each (trim plus bleed, front then back), their
PDF without the aids for cutting by hand, and PNG pictures of them out. Exports, print services,
Tabletop Simulator, the box, the preview and the site all draw their cards this way."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from cardgen.cards.layout import Page, Slot
from cardgen.core import limits, units
from cardgen.core.units import Rect, Size

if TYPE_CHECKING:
    from cardgen.build.pipeline import Prepared
    from cardgen.deck.model import Card


def print_pages(prepared: Prepared, bleed: float) -> list[Page]:
    """Two pages per physical copy, front then back, each the card's trim plus `bleed` all round."""
    pages = []
    for item, card in enumerate(prepared.deck.copies):
        trim = card.group.size
        size = Size(trim.w + 2 * bleed, trim.h + 2 * bleed)
        whole = Rect(0, 0, size.w, size.h)
        for side in ("front", "back"):
            slot = Slot(item, side, Rect(bleed, bleed, trim.w, trim.h), whole, 0)
            # The info rectangle is never drawn (see _PrintPainter); marks and fold line are none.
            pages.append(Page(size, side, (slot,), (), None, slot.trim, whole, Rect(0, 0, 0, 0), 0))
    return pages


def print_pdf(prepared: Prepared, pages: list[Page], sheet: dict) -> bytes:
    """The pages drawn as card sheets are, without the aids for cutting by hand."""
    # ReportLab comes in here, not at import time: cli imports the outputs for every command.
    from cardgen.cards import render

    # Strings only label the page-info strip, which these pages do not have.
    options = render.RenderOptions(False, sheet, {}, cutting_aids=False)
    if prepared.faces is None:
        raise ValueError(f"{prepared.deck.game}: cards drawn from a deck prepared without its faces")
    return render.render_pdf(prepared.deck, pages, prepared.faces, prepared.book, options)


def over_budget(prepared: Prepared, bleed: float, dpi: float) -> str | None:
    """Why the deck's card pictures, with `bleed` all round, cannot be drawn at `dpi` within the pixel
    budget (said of its largest size), or None when they can."""
    sizes = {card.group.size_name: card.group.size for card in prepared.deck.copies}
    if not sizes:
        return None
    name = max(sizes, key=lambda size: sizes[size].w * sizes[size].h)
    why = limits.over_budget(sizes[name].w + 2 * bleed, sizes[name].h + 2 * bleed, dpi)
    return why and f"the '{name}' cards{' with their bleed' if bleed else ''}, {why}"


def rasterise(pdf: bytes, pages: list[Page], numbers: list[int], dpi: float) -> dict[int, bytes]:
    """Those pages (0-based) of the PDF of `pages` as RGB PNGs at `dpi`, round(px(page size)) pixels each way."""
    import pypdfium2

    pngs = {}
    document = pypdfium2.PdfDocument(pdf)
    try:
        for number in numbers:
            size = pages[number].size
            width, height = round(units.px(size.w, dpi)), round(units.px(size.h, dpi))
            page = document[number]
            # pypdfium2 rounds the bitmap up to whole pixels; a last column or row beyond the
            # rounded size holds less than half a pixel of the page, so it is cropped off.
            image = page.render(scale=dpi / units.PT_PER_INCH).to_pil()
            page.close()
            buffer = io.BytesIO()
            image.convert("RGB").crop((0, 0, width, height)).save(buffer, "PNG", optimize=False, dpi=(dpi, dpi))
            pngs[number] = buffer.getvalue()
    finally:
        document.close()
    return pngs


def first_copies(prepared: Prepared) -> dict[str, int]:
    """Card id -> index of its first physical copy, in printing order."""
    first: dict[str, int] = {}
    for item, card in enumerate(prepared.deck.copies):
        first.setdefault(card.id, item)
    return first


def card_pictures(prepared: Prepared, sheet: dict, dpi: float) -> list[tuple[Card, bytes, bytes]]:
    """Each card of a deck prepared with its faces, front and back, as PNGs at `dpi`, without bleed."""
    pages = print_pages(prepared, 0.0)
    first = first_copies(prepared)
    pngs = rasterise(
        print_pdf(prepared, pages, sheet), pages, [2 * item + side for item in first.values() for side in (0, 1)], dpi
    )
    return [(card, pngs[2 * first[card.id]], pngs[2 * first[card.id] + 1]) for card in prepared.deck.cards]
