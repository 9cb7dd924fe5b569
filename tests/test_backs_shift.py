"""Backs that never tell: a card cut, or its back printed, up to 1 mm off still shows what every other
back of its design shows.

Every bundled game's card sheets (English) in the card sizes it prints in, on A4 and Letter, with
long-edge, short-edge and fold backs and with --ink-saver, and Werewolf's in every other rectangular
card size on A4 and Letter, are built once a session (conftest's `cards`); pdfium renders their back
sides. Each card's trim is read from the PDF: the cut lines its crop marks stand on (a round token's
cut guide, the circle drawn on its trim). Each back is rendered on its own, its trim's corner on a
pixel corner, 1 mm beyond the trim on every side; turned upright when it was printed turned by 180°;
and cropped at the trim size, moved by -1, 0 and +1 mm in x and in y. All backs of one design and size must crop to the same picture: an edge
card's back shows in its bleed what an inner card shows of its neighbour's back.

How the same is measured: the mean difference, 0-255 in any colour channel, over each 1 mm strip
along a crop's four edges and over the whole crop. Backs that show the same drawing differ by
anti-aliasing alone, under 0.6 (a token's letters, whose glyphs pdfium places to the pixel); a sliver
of pattern where another back shows its ground differs by 2.4 (a mini card, its pattern half a
millimetre out of step) to 19 over its strip, as the pattern did before it fitted each card size.
"""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image, ImageChops, ImageStat

from cardgen.core.units import mm, pt
from pdfread import Box, pages

GAMES = ("werewolf", "salem-1692", "mafia-vendetta", "werewords")
MODES = {
    "long": {"backs": "long"},
    "short": {"backs": "short"},
    "fold": {"backs": "fold"},
    "ink-saver": {"ink_saver": True},
}
# Werewolf in the rectangular sizes the bundled games do not print in (a build's --card-size).
SIZES = ("poker-us", "bridge", "tarot", "mini", "euro-mini", "square", "business")
SHIFT = 1.0  # mm: more than a careful cut or a calibrated duplex printer misses by
# Pixels a millimetre (6 is 152.4 dpi), the fewest that make the card's width and height whole pixels:
# where a cut line crosses a pixel, the two backs' paints that meet on it each cover part of it and
# the paper shows through between them, a seam of anti-aliasing that an edge card's bleed lacks.
RESOLUTIONS = (6, 8, 10)
MARK_WIDTH_PT = 0.25  # templates/sheet.yaml's crop marks
STRIP = 1.0  # mm, along each edge of a crop
TOLERANCE = 1.5  # mean difference over a strip or a crop, 0-255


def _cut_lines(page) -> tuple[list[float], list[float]]:
    """The x of the vertical crop marks and the y of the horizontal ones (mm): the cut lines. Crop
    marks are the straight strokes of their width (the ruler's ticks are wider, the fold line dashed)."""
    xs, ys = [], []
    width = ctypes.c_float()
    for obj in page.get_objects(max_depth=1):
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH or pdfium_c.FPDFPath_CountSegments(obj.raw) != 2:
            continue
        pdfium_c.FPDFPageObj_GetStrokeWidth(obj.raw, width)
        if abs(width.value - MARK_WIDTH_PT) > 1e-3 or pdfium_c.FPDFPageObj_GetDashCount(obj.raw) > 0:
            continue
        left, bottom, right, top = (mm(v) for v in obj.get_bounds())
        if right - left < top - bottom:
            xs.append((left + right) / 2)
        else:
            ys.append((bottom + top) / 2)
    return xs, ys


def _guides(page) -> list[Box]:
    """The bounds of the stroked circles of a page: round tokens' cut guides."""
    out = []
    for obj in page.get_objects(max_depth=1):
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH or pdfium_c.FPDFPath_CountSegments(obj.raw) <= 2:
            continue
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDFPath_GetDrawMode(obj.raw, fill, stroke)
        if stroke.value and not fill.value:
            out.append(Box(*(mm(v) for v in obj.get_bounds())))
    return out


def _nearest(values: list[float], want: float) -> float:
    found = min(values, key=lambda v: abs(v - want))
    assert abs(found - want) < 0.05, (want, found)
    return found


def _trim(page_lines, guides: list[Box], slot, round_: bool) -> Box:
    """A back's trim as the PDF draws it: between the cut lines nearest the laid-out ones, or, for a
    round token, centred in its cut guide."""
    t = slot.trim
    if round_:
        x = _nearest([guide.cx for guide in guides], t.cx)
        y = _nearest([guide.cy for guide in guides], t.cy)
        return Box(x - t.w / 2, y - t.h / 2, x + t.w / 2, y + t.h / 2)
    xs, ys = page_lines
    return Box(_nearest(xs, t.x), _nearest(ys, t.y), _nearest(xs, t.right), _nearest(ys, t.top))


def _resolution(trim: Box) -> int:
    return next(n for n in RESOLUTIONS if all(abs(v * n - round(v * n)) < 0.01 for v in (trim.w, trim.h)))


def _window(page, trim: Box, rotation: int) -> Image.Image:
    """The trim and SHIFT mm around it, rendered with the trim's bottom-left corner on a pixel
    corner, upright as the card is read."""
    px = _resolution(trim)
    scale = px * mm(1.0)  # pixels per point
    width, height = round((trim.w + 2 * SHIFT) * px), round((trim.h + 2 * SHIFT) * px)
    bitmap = pdfium.PdfBitmap.new_native(width, height, pdfium_c.FPDFBitmap_BGR, rev_byteorder=True)
    bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, height)
    # pdfium applies the matrix after turning the page's y axis down from its top edge.
    left, top = pt(trim.x0 - SHIFT), page.get_height() - pt(trim.y1 + SHIFT)
    matrix = pdfium_c.FS_MATRIX(scale, 0, 0, scale, -left * scale, -top * scale)
    clip = pdfium_c.FS_RECTF(0, 0, width, height)
    flags = pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER
    pdfium_c.FPDF_RenderPageBitmapWithMatrix(bitmap.raw, page.raw, matrix, clip, flags)
    picture = bitmap.to_pil().convert("RGB")
    return picture.rotate(180) if rotation == 180 else picture


def _crops(window: Image.Image, px: int) -> dict[tuple[int, int], Image.Image]:
    """The trim-sized crops of a window, by shift (-1, 0, +1 mm, in x and y)."""
    step = round(SHIFT * px)
    w, h = window.width - 2 * step, window.height - 2 * step
    return {
        (dx, dy): window.crop((step + dx * step, step - dy * step, step + dx * step + w, step - dy * step + h))
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if dx == 0 or dy == 0
    }


def difference(a: Image.Image, b: Image.Image, px: int) -> float:
    """The largest mean difference (0-255, of any colour channel) over a 1 mm strip along an edge of
    two equal-sized crops, or over the whole of them."""
    diff = ImageChops.difference(a, b)
    strip = round(STRIP * px)
    w, h = diff.size
    regions = [(0, 0, w, h), (0, 0, strip, h), (w - strip, 0, w, h), (0, 0, w, strip), (0, h - strip, w, h)]
    return max(max(ImageStat.Stat(diff.crop(region)).mean) for region in regions)


def backs(prepared, pdf) -> dict[tuple, list[tuple[str, dict]]]:
    """Every back's crops by design, card size and resolution: (where it is, crops by shift)."""
    from cardgen.build import back_design

    document = pages(pdf)
    out: dict[tuple, list[tuple[str, dict]]] = {}
    for number, (laid, page) in enumerate(zip(prepared.pages, document), start=1):
        if laid.side == "front":
            continue
        lines, guides = _cut_lines(page), _guides(page)
        for slot in laid.slots:
            if slot.side != "back":
                continue
            card = prepared.deck.copies[slot.item]
            trim = _trim(lines, guides, slot, card.group.shape == "round")
            px = _resolution(trim)
            crops = _crops(_window(page, trim, slot.rotation), px)
            where = f"page {number} at ({trim.x0:.1f}, {trim.y0:.1f}) mm, {card.id}"
            out.setdefault((back_design(card), card.group.size_name, px), []).append((where, crops))
    return out


def differing(found: dict[tuple, list[tuple[str, dict]]]) -> list[tuple[str, str, tuple[int, int], float]]:
    """The backs that differ from the first of their design, with the shift and the difference."""
    out = []
    for (*_, px), cards in found.items():
        (first, reference), *others = cards
        for where, crops in others:
            for shift, crop in crops.items():
                value = difference(reference[shift], crop, px)
                if value > TOLERANCE:
                    out.append((first, where, shift, round(value, 1)))
    return out


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", GAMES)
def test_every_back_of_a_design_crops_the_same_a_millimetre_off(cards, game, paper, mode):
    prepared, pdf = cards(game, "en", paper=paper, **MODES[mode])
    found = backs(prepared, pdf)
    assert sum(len(cards) for cards in found.values()) > 8
    assert differing(found) == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", SIZES)
def test_every_card_size_crops_the_same_a_millimetre_off(cards, size, paper):
    prepared, pdf = cards("werewolf", "en", card_size=size, paper=paper)
    found = backs(prepared, pdf)
    assert all(group.size_name == size for group in {card.group for card in prepared.deck.copies})
    assert differing(found) == []
