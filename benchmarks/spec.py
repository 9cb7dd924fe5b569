"""What the card sheets consist of, as plain data: cardgen's composed decks in, JSON out.

This runs *outside* every timed part. It asks cardgen's own pipeline
(``Pipeline.prepare``: resolve, faces, layout) for every bundled game and
language and writes down, for each card PDF, exactly what is on it: page
sizes and boxes, where every card goes (trim, paint, rotation), and for every
face its frame, panel, colours, symbol files and boxes, and its texts with
the spans (bold/italic runs), the font size cardgen settled on and the box,
and the lines cardgen broke them into, each a list of font runs (family,
face, text), as cardgen's own layout holds them.
``floor.py`` (ReportLab) and ``weasy.py`` (WeasyPrint) draw from this data
only, so they pay for drawing and nothing else: no YAML, no validation, no
shrink-to-fit search, no imposition.

Lengths are millimetres with the PDF's origin (bottom-left, y up), font sizes
points, colours [r, g, b] floats 0..1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))


def _rect(r) -> list[float]:
    return [r.x, r.y, r.w, r.h]


def _rgb(color) -> list[float]:
    from reportlab.lib.colors import HexColor

    c = HexColor(color) if isinstance(color, str) else color
    return [round(c.red, 6), round(c.green, 6), round(c.blue, 6)]


def _spans(spans, bold: bool = False) -> list[list]:
    """[text, bold, italic] runs; inline icons are not used by the bundled decks' cards."""
    out = []
    for span in spans:
        if span.icon:
            raise SystemExit(f"spec: inline icon :{span.icon}: on a card face is not supported by the benchmark")
        out.append([span.text, bool(span.bold or bold), bool(span.italic)])
    return out


FACES = {(False, False): "regular", (True, False): "bold", (False, True): "italic", (True, True): "bold-italic"}


def _lines(fitted, faces: dict[str, list[str]]) -> list[list[list[str]]]:
    """The lines of a fitted text as cardgen broke them: [family, face, text] runs, one font each."""
    return [[[*faces[font], text] for font, text in line if text] for line in fitted.drawn.lines]


def extract(decks: Path | None = None, langs: tuple[str, ...] = ()) -> dict:
    """Every card PDF of every game and language, as data (see the module docstring)."""
    from cardgen.build import BuildOptions, Pipeline, check, jobs
    from cardgen.cards.faces import RASTER, ListFace, RoleFace, TokenFace, WordsFace
    from cardgen.cards.icons import has_holes
    from cardgen.cards.layout import widest_bleed
    from cardgen.cards.render import shade, tint
    from cardgen.core.project import Project
    from cardgen.core.units import Rect, mm
    from cardgen.deck.model import team_color
    from cardgen.text import markup
    from cardgen.text.markup import Span

    project = Project.at(decks)
    options = BuildOptions(langs=langs)
    games, _ = check(project, [], strict=False)
    pipeline = Pipeline(project, options)
    sheet = project.template_data("sheet.yaml")
    strings_all = project.template_data("strings.yaml")
    book = pipeline.book
    fonts = {family: {face: str(path) for face, path in faces.items()} for family, faces in book.families.items()}
    spec = {"fonts": fonts, "order": {}, "cjk": sorted(book.cjk), "pdfs": []}
    # cardgen's font names back to a family and face, which the floor registers under its own names.
    faces_of = {
        book.face(family, bold, italic): [family, face]
        for family in book.families
        for (bold, italic), face in reversed(FACES.items())
    }

    for files, lang in jobs(games, options):
        prepared, problems = pipeline.prepare(files, lang)
        if prepared is None:
            raise SystemExit(f"spec: {files.id} ({lang}) does not build: {problems[:3]}")
        deck, faces, pages = prepared.deck, prepared.faces, prepared.pages
        # Every card size has its layout; what every size shares (colours, the back) is read from the deck's.
        layout = faces.layout_for(deck.groups[0])
        spec["order"][lang] = list(prepared.book.order(lang))
        icons = frozenset(c.id for c in deck.cards if c.symbol and c.symbol.suffix.lower() == ".svg")
        panel_color = _rgb(layout["panel"]["color"])

        def text(fitted, spans, box, align, color, valign=True) -> dict:
            return {
                "spans": spans,
                "size": fitted.size,
                "leading": fitted.drawn.leading,
                "lines": _lines(fitted, faces_of),
                "box": _rect(box),
                "align": align,
                "color": _rgb(color),
                "valign": valign,
            }

        def symbol(path, color, box, hole=(1.0, 1.0, 1.0)) -> dict:
            if path.suffix.lower() in RASTER:
                raise SystemExit(f"spec: raster picture {path} is not supported by the benchmark")
            return {
                "path": str(path),
                "color": _rgb(color) if color is not None else None,
                "hole": list(hole),
                "box": _rect(box),
            }

        def framed(face) -> dict:
            return {
                "stock": _rgb(layout["stock"]),
                "frame": _rect(face.frame),
                "frame_radius": layout["frame"]["radius"],
                "color": _rgb(team_color(face.card)),
                "panel": _rect(face.panel),
                "panel_radius": layout["panel"]["radius"],
                "panel_color": panel_color,
            }

        def parsed(value: str, bold: bool) -> list[list]:
            return _spans(markup.parse(value, icons), bold)

        def token(face, name: str) -> dict:
            spec_, color = layout["token"]["name"], team_color(face.card)
            return {
                "kind": "token",
                "color": _rgb(color),
                "circle": _rect(face.circle),
                "panel_color": panel_color,
                "symbol": symbol(face.symbol, color, face.symbol_box, panel_color) if face.symbol else None,
                "name": text(
                    face.name, parsed(name, spec_.get("bold", False)), face.name_box, spec_.get("align", "left"), color
                ),
            }

        def front(face) -> dict:
            card = face.card
            color = team_color(card)
            layout = faces.layout_for(card.group)
            if isinstance(face, RoleFace):
                if card.art:
                    raise SystemExit(f"spec: {card.id} has art; not supported by the benchmark")
                boxes = layout["boxes"]
                out = {"kind": "role", **framed(face), "edges": [], "symbol": None}
                if card.team and card.team.edge:
                    trail = Rect(face.panel.x, face.team_box.top, face.panel.w, face.name_box.y - face.team_box.top)
                    size, step = layout["edge"]["size"], layout["edge"]["step"]
                    edge_color = tint(card.team.color, layout["edge"]["tint"])
                    y, left = trail.top - step / 2, True
                    while y - size / 2 > trail.y:
                        x = trail.x + 0.8 if left else trail.right - size - 0.8
                        out["edges"].append(symbol(card.team.edge, edge_color, Rect(x, y - size / 2, size, size)))
                        left = not left
                        y -= step / 2
                label = card.team.name if card.team else card.group.name
                out["name"] = text(
                    face.name,
                    parsed(card.name.value, boxes["name"].get("bold", False)),
                    face.name_box,
                    boxes["name"].get("align", "left"),
                    color,
                )
                if card.symbol:
                    out["symbol"] = symbol(card.symbol, color, face.symbol_box, panel_color)
                out["pill"] = _rect(face.team_box)
                out["marks"] = [symbol(card.team.mark, "#ffffff", box, _rgb(color)) for box in face.marks]
                out["team"] = text(
                    face.team,
                    parsed(label.value, boxes["team"].get("bold", False)),
                    face.label_box,
                    boxes["team"].get("align", "left"),
                    "#ffffff",
                )
                out["ability"] = text(
                    face.ability,
                    parsed(card.ability.value, False),
                    face.ability_box,
                    boxes["text"].get("align", "left"),
                    "#1d1d1d",
                    valign=False,
                )
                return out
            if isinstance(face, TokenFace):
                return token(face, card.name.value)
            if isinstance(face, WordsFace):
                words = layout["words"]
                pip = words["pip"]
                rows, dots = [], []
                for row, (_, word) in zip(face.rows, card.words):
                    for n in range(row.level):
                        x = row.box.x - pip * (1.6 * (3 - n)) - pip / 2
                        dots.append([x, row.box.cy, pip / 2])
                    rows.append(text(row.word, parsed(word.value, True), row.box, "left", "#1d1d1d"))
                title = f"{card.group.name.value} {card.name.value}"
                return {
                    "kind": "words",
                    **framed(face),
                    "dots": dots,
                    "rows": rows,
                    "title": text(face.title, parsed(title, True), face.title_box, "center", color),
                }
            if isinstance(face, ListFace):
                # The spans cardgen laid out: a night order's list of roles by their call names, and its
                # note (in italics) when the order is a house rule, are made by the composer.
                return {
                    "kind": "list",
                    **framed(face),
                    "name": text(face.name, parsed(card.name.value, True), face.name_box, "center", color),
                    "text": text(face.text, _spans(face.text.spans), face.text_box, "left", "#1d1d1d", valign=False),
                }
            raise SystemExit(f"spec: unknown face {type(face).__name__}")

        out_faces = {}
        for card_id, face in faces.fronts.items():
            out_faces[f"f:{card_id}"] = front(face)
        cards = {card.id: card for card in deck.cards}
        for card_id, face in faces.card_backs.items():
            card = cards[card_id]
            if isinstance(face, TokenFace):
                # A token's own back (the No of a Yes/No token) shows its back name and symbol.
                out_faces[f"c:{card_id}"] = token(face, card.back_face.name.value)
            else:
                raise SystemExit(f"spec: own back of layout {card.layout} not supported by the benchmark")
        for group in deck.groups:
            back_spec = faces.layout_for(group)["back"]
            back = faces.backs[group.id]
            design = group.back
            entry = {
                "kind": "back",
                "round": group.shape == "round",
                "color": _rgb(design.color),
                "pattern": None,
                "emblem": None,
                "title": None,
            }
            if design.pattern:
                pattern = back_spec["pattern"]
                entry["pattern"] = {
                    "path": str(design.pattern),
                    "color": _rgb(tint(design.color, 1 - pattern["tint"])),
                    "size": pattern["size"],
                    "step": pattern["step"],
                }
            if design.symbol:
                # As render.py: a figure on a lit ground sinks into the back, line art is drawn light.
                dark = shade(design.color, back_spec["emblem-shade"]) if has_holes(design.symbol) else back.light
                entry["emblem"] = symbol(design.symbol, dark, back.emblem_box, _rgb(back.light))
            if back.title:
                entry["title"] = text(
                    back.title, parsed(design.title.value, True), back.title_box, "center", back.light
                )
            out_faces[f"b:{group.id}"] = entry

        strings = strings_all.get(lang, strings_all["en"])
        ruler = sheet["ruler"]
        copies = deck.copies
        out_pages = []
        bleed = widest_bleed(pages)
        for number, page in enumerate(pages, start=1):
            slots = []
            for slot in page.slots:
                card = copies[slot.item]
                paint = Rect(slot.paint.x - slot.trim.x, slot.paint.y - slot.trim.y, slot.paint.w, slot.paint.h)
                if slot.rotation == 180:
                    paint = Rect(slot.trim.w - (paint.x + paint.w), slot.trim.h - (paint.y + paint.h), paint.w, paint.h)
                if slot.side == "front":
                    key = f"f:{card.id}"
                elif card.id in faces.card_backs:
                    key = f"c:{card.id}"
                else:
                    key = f"b:{card.group.id}"
                slots.append(
                    {
                        "face": key,
                        "round": card.group.shape == "round",
                        "clip": _rect(slot.paint),
                        "trim": _rect(slot.trim),
                        "rotation": slot.rotation,
                        "paint": _rect(paint),
                        "area": _rect(slot.around(bleed)),
                    }
                )
            # The page-info block: positions as render.py computes them (text widths from cardgen's font book).
            side = strings["fronts" if page.side == "front" else "backs" if page.side == "back" else "fold"]
            label = " · ".join(
                [deck.name.value, strings["language"], side, strings["page"].format(n=number, total=len(pages))]
            )
            size, length, depth = ruler["text-size"], ruler["length"], ruler["depth"]
            along = max(length, *(mm(prepared.book.width(t, lang, size)) for t in (strings["ruler"], label)))
            strip, cards_box, gap = page.info, page.bleed_box, ruler["gap"]
            if page.info_rotation == 90:
                x = strip.right - gap if strip.right <= cards_box.x else strip.x + gap + depth
                origin = [x, strip.cy - along / 2]
            else:
                y = strip.top - gap - depth if strip.top <= cards_box.y else strip.y + gap
                origin = [strip.cx - along / 2, y]
            top = depth - 0.2
            info = {
                "origin": origin,
                "rotation": page.info_rotation,
                "length": length,
                "top": top,
                "line_width_pt": ruler["line-width-pt"],
                "size": size,
                "lines": [
                    [[[*faces_of[font], piece] for font, piece in prepared.book.runs(Span(line), lang)], 0, y]
                    for line, y in ((strings["ruler"], top - 1.2 - mm(size)), (label, mm(size) * 0.3))
                ],
            }
            tb, bb = page.trim_box, page.bleed_box
            out_pages.append(
                {
                    "size": [page.size.w, page.size.h],
                    "side": page.side,
                    "trim_box": [tb.x, tb.y, tb.right, tb.top],
                    "bleed_box": [bb.x, bb.y, bb.right, bb.top],
                    "slots": slots,
                    "marks": [list(m) for m in page.marks],
                    "fold": list(page.fold_line) if page.fold_line else None,
                    "info": info,
                }
            )
        spec["pdfs"].append(
            {
                "name": f"{files.id}-cards-{lang}",
                "game": files.id,
                "lang": lang,
                "cjk": prepared.book.is_cjk(lang),
                "title": f"{deck.name.value} ({lang})",
                "cards": len(copies),
                "sheet": {
                    "mark_width_pt": sheet["crop-marks"]["line-width-pt"],
                    "fold_width_pt": sheet["fold"]["line-width-pt"],
                    "fold_dash": sheet["fold"]["dash"],
                    "guide_width_pt": sheet["cut-guide"]["line-width-pt"],
                },
                "faces": out_faces,
                "pages": out_pages,
            }
        )
    return spec


def timed_main(description: str, render_all, out_help: str, before=lambda: None) -> None:
    """The command line of a renderer under test: reads a spec, times render_all(spec, times) and
    prints the measurements as JSON, so that run.py can compare renderers alike."""
    import argparse
    import io
    import resource
    import time

    from pypdf import PdfReader

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("spec", type=Path)
    parser.add_argument("--out", type=Path, help=out_help)
    parser.add_argument("--only", help="Only these PDFs (names like werewolf-cards-en, comma-separated).")
    args = parser.parse_args()
    before()
    spec = json.loads(args.spec.read_text(encoding="utf-8"))
    if args.only:
        spec["pdfs"] = [p for p in spec["pdfs"] if p["name"] in args.only.split(",")]
    times: dict[str, float] = {}
    start, cpu_start = time.perf_counter(), time.process_time()
    pdfs = render_all(spec, times)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, data in pdfs.items():
            (args.out / f"{name}.pdf").write_bytes(data)
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu": cpu,
                "pdfs": len(pdfs),
                "pages": sum(len(PdfReader(io.BytesIO(data)).pages) for data in pdfs.values()),
                "expected_pages": sum(len(p["pages"]) for p in spec["pdfs"]),
                "bytes": sum(map(len, pdfs.values())),
                "per_pdf": times,
                "maxrss_kb": maxrss,
            }
        )
    )


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Write the card sheets of every bundled game as JSON data.")
    parser.add_argument("out", type=Path)
    parser.add_argument("--decks", type=Path)
    parser.add_argument("--lang", action="append", default=[])
    args = parser.parse_args()
    data = extract(args.decks, tuple(args.lang))
    args.out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    print(f"{args.out}: {len(data['pdfs'])} PDFs, {sum(len(p['pages']) for p in data['pdfs'])} pages")


if __name__ == "__main__":
    main()
