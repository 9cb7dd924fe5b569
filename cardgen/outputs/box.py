"""The tuck box: a game's card count and card size in, a flat box to print, cut, fold and glue out.

In: a game prepared as ``build`` prepares it (one language at a time), the stock's thickness
per card, the clearance the cards get each way, the paper and the margin a home printer
leaves unprinted, and ``templates/box.yaml`` (flap sizes, line weights, the words
printed on the box per language).

The box holds the game's rectangular cards of its most common size. Its panels, in mm:
front and back ``W × H`` = the card's trim plus the clearance each way; the spines (sides),
lids and dust flaps ``D`` = the cards' count × the stock + the clearance. Laid flat, left to
right: front, side, back, side, glue flap; the top lid and its tuck flap above the back, the
bottom lid and its tuck flap below the front, dust flaps above and below both sides, a thumb
notch in the front's top edge. When that net does not fit the paper inside the margin, in
either orientation, the box is split: one box per deck (group of cards sharing a back), each
on its page; a deck that still does not fit is an error giving the sizes.

Out: :func:`box_pdf` returns one PDF page per box, the paper's size: the decks' back design
(drawn by :mod:`cardgen.cards.render`, vectors) on the front and back panels, the game's name in
the deck's language on both spines and the top lid, the card count on the back lid, glue
flap shaded, cut lines solid black, fold lines dashed grey, and the instructions in the
margin. Every font is embedded. :func:`net` is the geometry alone.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from cardgen.build import Prepared
from cardgen.build.game_decks import ExportReport, GameLanguages
from cardgen.cards.layout import named_size
from cardgen.cards.single import print_pages, print_pdf
from cardgen.core import pdfinfo, units
from cardgen.core.phrases import in_language
from cardgen.core.problems import DeckError, Problem
from cardgen.core.project import Project
from cardgen.core.units import Rect, Size, pt
from cardgen.core.write import write_atomic
from cardgen.deck.model import Card, Group
from cardgen.text import lines
from cardgen.text.markup import Span

EPS = 1e-6
Segment = tuple[float, float, float, float]


@dataclass(frozen=True)
class Net:
    """A box laid flat, origin at its bottom-left, in mm."""

    panels: dict[str, Rect]  # front, back, side-1, side-2, lid-top, lid-bottom
    pieces: tuple[tuple[tuple[float, float], ...], ...]  # every panel and flap as a polygon
    folds: tuple[Segment, ...]
    cuts: tuple[Segment, ...]  # the outline, less the front's top edge where the notch is
    notch: tuple[float, float, float]  # centre x, y and radius of the thumb notch
    glue: tuple[tuple[float, float], ...]
    size: Size

    def moved(self, dx: float, dy: float) -> Net:
        def point(p):
            return (p[0] + dx, p[1] + dy)

        def segment(s):
            return (s[0] + dx, s[1] + dy, s[2] + dx, s[3] + dy)

        return Net(
            {k: Rect(r.x + dx, r.y + dy, r.w, r.h) for k, r in self.panels.items()},
            tuple(tuple(map(point, piece)) for piece in self.pieces),
            tuple(map(segment, self.folds)),
            tuple(map(segment, self.cuts)),
            (self.notch[0] + dx, self.notch[1] + dy, self.notch[2]),
            tuple(map(point, self.glue)),
            self.size,
        )


def _rect(x: float, y: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def _on(segment: Segment, fold: Segment) -> bool:
    """Whether a polygon edge lies along a fold (both are axis-aligned)."""
    x1, y1, x2, y2 = segment
    a1, b1, a2, b2 = fold
    if abs(x1 - x2) < EPS and abs(a1 - a2) < EPS and abs(x1 - a1) < EPS:
        return min(b1, b2) - EPS <= min(y1, y2) and max(y1, y2) <= max(b1, b2) + EPS
    if abs(y1 - y2) < EPS and abs(b1 - b2) < EPS and abs(y1 - b1) < EPS:
        return min(a1, a2) - EPS <= min(x1, x2) and max(x1, x2) <= max(a1, a2) + EPS
    return False


def net(card: Size, depth: float, clearance: float, spec: dict) -> Net:
    """The flat box for cards of trim `card` stacked `depth` mm thick."""
    w, h, d = card.w + clearance, card.h + clearance, depth + clearance
    tuck, glue, radius = float(spec["tuck-flap"]), float(spec["glue-flap"]), float(spec["notch"])
    # Dust flaps reach as far as the lids but keep clear of each other when the box is folded.
    flap = min(d, w / 2 - 1)
    chamfer = min(3.0, d / 3, tuck / 3)
    body = tuck + d  # the bottom of the front, sides and back
    xs = [0.0, w, w + d, 2 * w + d, 2 * w + 2 * d]  # left edges of front, side, back, side, glue
    top = body + h
    panels = {
        "front": Rect(xs[0], body, w, h),
        "side-1": Rect(xs[1], body, d, h),
        "back": Rect(xs[2], body, w, h),
        "side-2": Rect(xs[3], body, d, h),
        "lid-top": Rect(xs[2], top, w, d),
        "lid-bottom": Rect(xs[0], tuck, w, d),
    }
    glue_flap = ((xs[4], body), (xs[4] + glue, body + glue), (xs[4] + glue, top - glue), (xs[4], top))

    def tuck_flap(x: float, y: float, up: bool) -> tuple[tuple[float, float], ...]:
        s = 1 if up else -1
        return (
            (x + 1, y),
            (x + 1, y + s * (tuck - 4)),
            (x + 5, y + s * tuck),
            (x + w - 5, y + s * tuck),
            (x + w - 1, y + s * (tuck - 4)),
            (x + w - 1, y),
        )

    def dust_flap(x: float, y: float, up: bool) -> tuple[tuple[float, float], ...]:
        s = 1 if up else -1
        return (
            (x, y),
            (x, y + s * flap),
            (x + d - chamfer, y + s * flap),
            (x + d, y + s * (flap - chamfer)),
            (x + d, y),
        )

    pieces = tuple(_rect(r.x, r.y, r.w, r.h) for r in panels.values()) + (
        glue_flap,
        tuck_flap(xs[2], top + d, True),
        tuck_flap(xs[0], tuck, False),
        dust_flap(xs[1], top, True),
        dust_flap(xs[3], top, True),
        dust_flap(xs[1], body, False),
        dust_flap(xs[3], body, False),
    )
    folds = (
        *((x, body, x, top) for x in xs[1:]),
        (xs[0], body, xs[1], body),
        (xs[0], tuck, xs[1], tuck),  # front to lid, lid to its tuck flap
        (xs[2], top, xs[3], top),
        (xs[2], top + d, xs[3], top + d),
        (xs[1], top, xs[2], top),
        (xs[3], top, xs[4], top),  # sides to their dust flaps
        (xs[1], body, xs[2], body),
        (xs[3], body, xs[4], body),
    )
    edges: list[Segment] = []
    for piece in pieces:
        for (x1, y1), (x2, y2) in zip(piece, piece[1:] + piece[:1]):
            edge = (x1, y1, x2, y2)
            if not any(_on(edge, fold) for fold in folds):
                edges.append(edge)
    # An edge two pieces share (the slit between a lid and its dust flap) is one cut.
    cuts: list[Segment] = []
    for edge in edges:
        key = tuple(
            round(v, 6)
            for v in (min(edge[0], edge[2]), min(edge[1], edge[3]), max(edge[0], edge[2]), max(edge[1], edge[3]))
        )
        if all(
            tuple(round(v, 6) for v in (min(c[0], c[2]), min(c[1], c[3]), max(c[0], c[2]), max(c[1], c[3]))) != key
            for c in cuts
        ):
            cuts.append(edge)
    # The front's top edge gets the thumb notch: two cuts either side of it.
    front_top = [c for c in cuts if abs(c[1] - top) < EPS and abs(c[3] - top) < EPS and max(c[0], c[2]) <= w + EPS]
    centre = w / 2
    cuts = [c for c in cuts if c not in front_top] + [(0.0, top, centre - radius, top), (centre + radius, top, w, top)]
    return Net(panels, pieces, folds, tuple(cuts), (centre, top, radius), glue_flap, Size(xs[4] + glue, top + d + tuck))


# --- which cards, and where on the paper ---------------------------------------------------------


@dataclass(frozen=True)
class Box:
    groups: tuple[Group, ...]
    cards: int
    art: Group  # whose back goes on the front and back panels
    card: Size


def boxes(prepared: Prepared) -> list[Box]:
    """One box for the rectangular cards of the deck's most common card size."""
    copies = [card for card in prepared.deck.copies if card.group.shape == "rect"]
    if not copies:
        return []
    size = Counter(card.group.size_name for card in copies).most_common(1)[0][0]
    held = [card for card in copies if card.group.size_name == size]
    return [_box(held)]


def _box(cards: list[Card]) -> Box:
    counts = Counter(card.group.id for card in cards)
    groups = tuple(dict.fromkeys(card.group for card in cards))
    art = max(groups, key=lambda group: counts[group.id])
    return Box(groups, len(cards), art, art.size)


def per_deck(box: Box, prepared: Prepared) -> list[Box]:
    return [_box([card for card in prepared.deck.copies if card.group.id == group.id]) for group in box.groups]


@dataclass(frozen=True)
class Placed:
    box: Box
    net: Net  # moved onto the page
    page: Size


def place(
    box: Box, stock: float, clearance: float, paper: Size, margin: float, spec: dict, text_room: float
) -> Placed | None:
    """The box centred on the paper as named or turned, inside the margin with room for the text; None if
    it fits neither way."""
    flat = net(box.card, box.cards * stock, clearance, spec)
    for page in (paper, paper.rotated()):
        room_w, room_h = page.w - 2 * margin, page.h - 2 * margin - text_room
        if flat.size.w <= room_w + EPS and flat.size.h <= room_h + EPS:
            x = (page.w - flat.size.w) / 2
            y = margin + text_room + (room_h - flat.size.h) / 2
            return Placed(box, flat.moved(x, y), page)
    return None


# --- drawing -----------------------------------------------------------------------------------------


def _text(
    c,
    book,
    lang: str,
    text: str,
    size: float,
    x: float,
    y: float,
    width_mm: float,
    color: tuple[float, float, float] = (0.1, 0.1, 0.1),
) -> None:
    """One line centred on x (mm) with its baseline at y, shrunk to `width_mm`, each character in a font that has it."""
    fit = min(size, size * width_mm / max(units.mm(book.width(text, lang, size)), EPS))
    runs = book.runs(Span(text), lang)
    c.setFillColorRGB(*color)
    lines.draw_runs(c, runs, pt(x) - lines.line_width(runs, fit) / 2, pt(y), fit, lines.right_to_left(book, lang, text))


def _overlay(placed: Placed, prepared: Prepared, spec: dict, words: dict, under: bool) -> bytes:
    """The page under the art (the glue flap's shade) or over it (lines and words)."""
    from reportlab.pdfgen.canvas import Canvas

    book, deck, n = prepared.book, prepared.deck, placed.net
    buffer = io.BytesIO()
    c = Canvas(
        buffer,
        pagesize=(pt(placed.page.w), pt(placed.page.h)),
        invariant=1,
        pageCompression=1,
        initialFontName=book.face(book.order(deck.lang)[0], False, False),
    )
    if under:
        grey = float(spec["glue-grey"])
        c.setFillColorRGB(grey, grey, grey)
        path = c.beginPath()
        path.moveTo(pt(n.glue[0][0]), pt(n.glue[0][1]))
        for x, y in n.glue[1:]:
            path.lineTo(pt(x), pt(y))
        path.close()
        c.drawPath(path, stroke=0, fill=1)
        flap = Rect(n.glue[0][0], n.glue[0][1], n.glue[1][0] - n.glue[0][0], n.glue[-1][1] - n.glue[0][1])
        c.saveState()
        c.translate(pt(flap.cx + 1.2), pt(flap.cy))
        c.rotate(90)
        _text(c, book, deck.lang, words["glue"], 8, 0, 0, flap.h * 0.6)
        c.restoreState()
    else:
        grey = float(spec["fold-grey"])
        c.setLineWidth(float(spec["fold-line-pt"]))
        c.setStrokeColorRGB(grey, grey, grey)
        c.setDash([pt(v) for v in spec["fold-dash"]])
        for x1, y1, x2, y2 in n.folds:
            c.line(pt(x1), pt(y1), pt(x2), pt(y2))
        c.setDash()
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(float(spec["cut-line-pt"]))
        for x1, y1, x2, y2 in n.cuts:
            c.line(pt(x1), pt(y1), pt(x2), pt(y2))
        cx, cy, r = n.notch
        c.arc(pt(cx - r), pt(cy - r), pt(cx + r), pt(cy + r), startAng=180, extent=180)
        name = deck.name.value
        for side in ("side-1", "side-2"):
            panel = n.panels[side]
            c.saveState()
            c.translate(pt(panel.cx), pt(panel.cy))
            c.rotate(90)
            size = min(float(spec["name-size"]), units.pt(panel.w) * 0.55)
            _text(c, book, deck.lang, name, size, 0, -units.mm(size) * 0.35, panel.h * 0.85)
            c.restoreState()
        for lid, text in (("lid-top", name), ("lid-bottom", words["cards"].replace("{n}", str(placed.box.cards)))):
            panel = n.panels[lid]
            size = min(float(spec["name-size"]), units.pt(panel.h) * 0.5)
            _text(c, book, deck.lang, text, size, panel.cx, panel.cy - units.mm(size) * 0.35, panel.w * 0.85)
        low = min(y for piece in n.pieces for _, y in piece)
        _text(
            c,
            book,
            deck.lang,
            words["how"],
            float(spec["text-size"]),
            placed.page.w / 2,
            low - 2 - units.mm(float(spec["text-size"])),
            n.size.w,
        )
    c.showPage()
    c.save()
    return buffer.getvalue()


def _back(prepared: Prepared, group: Group, clearance: float, sheet: dict) -> bytes:
    """The group's back as one page the size of a front panel: the trim and half the clearance all round."""
    first = next(item for item, card in enumerate(prepared.deck.copies) if card.group.id == group.id)
    page = print_pages(prepared, clearance / 2)[2 * first + 1]
    return print_pdf(prepared, [page], sheet)


def box_pdf(placed: list[Placed], prepared: Prepared, clearance: float, spec: dict, words: dict, sheet: dict) -> bytes:
    from pypdf import PdfReader, PdfWriter, Transformation

    writer = PdfWriter()
    for one in placed:
        page = writer.add_page(PdfReader(io.BytesIO(_overlay(one, prepared, spec, words, under=True))).pages[0])
        art = PdfReader(io.BytesIO(_back(prepared, one.box.art, clearance, sheet))).pages[0]
        for panel in ("front", "back"):
            at = one.net.panels[panel]
            page.merge_transformed_page(art, Transformation().translate(pt(at.x), pt(at.y)))
        page.merge_page(PdfReader(io.BytesIO(_overlay(one, prepared, spec, words, under=False))).pages[0])
    info = pdfinfo.of(prepared.deck, f"{prepared.deck.name.value}: box ({prepared.deck.key})", "tuck box")
    writer.add_metadata(info.pypdf())
    pdfinfo.set_lang(writer, info.lang)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


# --- the command --------------------------------------------------------------------------------------


def _placed_boxes(
    prepared: Prepared,
    decks: GameLanguages,
    game: str,
    paper: str,
    paper_size: Size,
    stock: float,
    clearance: float,
    margin: float,
    spec: dict,
    text_room: float,
) -> list[Placed]:
    """The boxes of one deck on the paper, split one per deck when one box does not fit; none, with
    a problem kept, when even that does not fit."""
    placed = []
    lang = prepared.deck.key
    for box in boxes(prepared):
        one = place(box, stock, clearance, paper_size, margin, spec, text_room)
        if one is not None:
            placed.append(one)
            continue
        split = [place(part, stock, clearance, paper_size, margin, spec, text_room) for part in per_deck(box, prepared)]
        fitted = [part for part in split if part is not None]
        if len(fitted) < len(split) or len(split) == 1:
            flat = net(box.card, box.cards * stock, clearance, spec)
            decks.problems.append(
                Problem(
                    prepared.deck.name.where,
                    (
                        f"{game} ({lang}): a box for {box.cards} cards of {box.card.w:g} × {box.card.h:g} mm at "
                        f"{stock:g} mm a card is {flat.size.w:.0f} × {flat.size.h:.0f} mm flat, more than {paper} "
                        f"holds inside a {margin:g} mm margin even one deck to a box; try larger paper or thinner stock"
                    ),
                )
            )
            return []
        decks.report.warnings.append(
            Problem(
                prepared.deck.name.where,
                (
                    f"{game} ({lang}): one box for all {box.cards} cards does not fit {paper}: one box per deck "
                    f"({', '.join(part.box.groups[0].id for part in fitted)})"
                ),
                "note",
            )
        )
        placed += fitted
    return placed


def box_path(out: Path, game: str, lang: str, paper: str) -> Path:
    return out / game / f"{game}-box-{lang}-{paper}.pdf"


def make_boxes(
    project: Project,
    game: str,
    langs: tuple[str, ...],
    out: Path,
    paper: str,
    stock: float,
    clearance: float,
    margin: float,
) -> ExportReport:
    """Every language's box PDF; the notes say when a box was split into one per deck."""
    spec = project.template_data("box.yaml")
    papers = project.template_data("paper.yaml")
    try:
        paper_size = named_size(papers, paper, "paper")
    except ValueError as exc:
        raise DeckError([Problem(None, str(exc))]) from None
    sheet = project.template_data("sheet.yaml")
    decks = GameLanguages(project, game, langs, out)
    text_room = 2 + units.mm(float(spec["text-size"])) * 1.4
    for prepared in decks:
        lang = prepared.deck.key
        words = in_language(spec["words"], prepared.deck.lang)
        placed = _placed_boxes(prepared, decks, game, paper, paper_size, stock, clearance, margin, spec, text_room)
        if placed:
            target = box_path(out, decks.files.id, lang, paper)
            write_atomic(target, box_pdf(placed, prepared, clearance, spec, words, sheet))
            decks.report.files.append(target)
            decks.report.cards += sum(one.box.cards for one in placed)
    return decks.finish()
