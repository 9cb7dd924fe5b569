"""The floor: the card sheets drawn by a minimal hand-written ReportLab script.

Input is the JSON written by ``spec.py`` (read before the clock starts): every
page, card position, colour, symbol file, text, font size and box exactly as
cardgen composed them. This script draws the same PDFs with the same fonts
(the TrueType files in fonts/, embedded as subsets), the same page sizes,
TrimBox and BleedBox, card faces clipped to their paint areas, frames, panels,
team pills, edge trails, SVG symbols as recoloured svglib forms, patterned
backs, crop marks, fold lines and the page-info ruler, in ReportLab's
invariant mode with compressed pages.

It is strict: whatever cardgen does once, it does once. Each font file and
each SVG is parsed once per process; each (symbol, colouring) is one form per
PDF, drawn by svglib once per process (the SVG recoloured in place first) and
its operators written again into the same form of every other PDF; a form is
placed with the four operators that saving the state, moving, scaling, placing
it and restoring the state write, written at once. Each back's pattern is one
form per PDF (per pattern, colour and card size), placed on every back that
shows it. Each card side is drawn once a PDF and its operators written again
for the other copies and the other backs of its group (the side is drawn in
card coordinates, so it is the same wherever it sits); so are the shapes that
recur where they were: frames, panels, pills, each card place's clip, the cut
guides, the crop marks and the page-info ruler. Each text comes broken into
lines, as cardgen broke it, each line a list of runs of one font: the floor
draws them with one text object a text, looking the font up once a run (not a
character), with no markup to parse and no line breaking; a centred line is
measured once per process.

What it leaves out is everything cardgen does beyond drawing: reading and
validating YAML, resolving languages, the shrink-to-fit search and the line
breaking (kinsoku included: it draws the lines cardgen chose), choosing a font
for each character, imposition, and saying which file and line name an SVG
that cannot be drawn.

    python benchmarks/floor.py SPEC.json [--out DIR]

prints one JSON line: seconds (drawing every PDF, fonts and SVGs loaded inside
the timed part), pages, bytes, peak RSS.
"""

from __future__ import annotations

import sys
import time

from reportlab.graphics import renderPDF, shapes
from reportlab.lib.colors import Color
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

MM = 72 / 25.4
WHITE = (1.0, 1.0, 1.0)
STAND_INS = {
    "regular": ("regular",),
    "bold": ("bold", "regular"),
    "italic": ("italic", "regular"),
    "bold-italic": ("bold-italic", "bold", "italic", "regular"),
}


class Fonts:
    """TrueType faces registered on first use, looked up by (family, face): once a run of text."""

    def __init__(self, files: dict, orders: dict):
        self.files, self.orders = files, orders  # the orders name each language's body font
        self.fonts: dict[tuple[str, str], TTFont] = {}

    def font(self, family: str, key: str) -> TTFont:
        font = self.fonts.get((family, key))
        if font is None:
            faces = self.files[family]
            face = next(k for k in STAND_INS[key] if k in faces)
            name = f"{family}-{face}"
            if name not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont(name, faces[face]))
            font = self.fonts[family, key] = pdfmetrics.getFont(name)
        return font


class Repeats:
    """Drawings a PDF repeats, each drawn once and its operators (and the forms it placed, which a page
    lists) written again where it recurs. A drawing must undo its changes of state, and start with no
    transformation (ReportLab would merge one into a transformation before it)."""

    def __init__(self, c: Canvas):
        self.c = c
        self.drawn: dict = {}

    def draw(self, key, draw, *args) -> None:
        """draw(*args) the first time, its operators after."""
        c = self.c
        drawn = self.drawn.get(key)
        if drawn is None:
            start, placed = len(c._code), len(c._formsinuse)
            draw(*args)
            self.drawn[key] = (c._code[start:], c._formsinuse[placed:])
        else:
            c._code.extend(drawn[0])
            c._formsinuse.extend(drawn[1])


def place(c: Canvas, name: str, x: float, y: float, scale: float) -> None:
    """Form `name` placed as saveState, translate(x, y), scale(scale, scale), doForm and restoreState place
    it, its operators written at once: ReportLab merges the scaling into the translation as written."""
    e, f = fp_str(x, y).split()
    c._code.extend(
        ("q", f"{fp_str(scale, 0, 0, scale, float(e), float(f))} cm", f"/{c._doc.getXObjectName(name)} Do", "Q")
    )
    c._formsinuse.append(name)


class Symbols:
    """Each SVG parsed once per process; each (file, colour, hole) one form per canvas, drawn by svglib
    once per process and its operators written again into the same form on other canvases."""

    def __init__(self):
        self.parsed: dict[str, tuple[shapes.Drawing, list]] = {}
        # A recoloured form's operators and the PDF version they need, by (file, colour, hole).
        self.recorded: dict[tuple, tuple[list[str], tuple[int, int]]] = {}
        self.body_font = ""  # of the PDF being drawn

    def drawing(self, path: str):
        entry = self.parsed.get(path)
        if entry is None:
            drawing = svg2rlg(path)
            # The shapes and whether each was white (a hole) in the file, for recolouring in place.
            leaves = []
            stack = [drawing]
            while stack:
                node = stack.pop()
                if isinstance(node, shapes.Group):
                    stack.extend(node.contents)
                elif isinstance(node, shapes.Shape):
                    fill = getattr(node, "fillColor", None)
                    white = fill is not None and min(fill.red, fill.green, fill.blue) > 0.9
                    leaves.append((node, fill is not None, white, getattr(node, "strokeColor", None) is not None))
            entry = self.parsed[path] = (drawing, leaves)
        return entry

    def draw(self, c: Canvas, forms: dict, sym: dict, box=None) -> None:
        x, y, w, h = box or sym["box"]
        name, drawing = self.form(c, forms, sym)
        scale = min(w * MM / drawing.width, h * MM / drawing.height)
        place(
            c,
            name,
            x * MM + (w * MM - drawing.width * scale) / 2,
            y * MM + (h * MM - drawing.height * scale) / 2,
            scale,
        )

    def form(self, c: Canvas, forms: dict, sym: dict):
        """The name of the symbol's form in this PDF (made on first use) and its drawing."""
        path, color, hole = sym["path"], sym["color"], sym.get("hole", WHITE)
        drawing, leaves = self.drawing(path)
        key = (path, tuple(color) if color else None, tuple(hole))
        name = forms.get(key)
        if name is None:
            name = forms[key] = f"S{len(forms)}"
            c.beginForm(name, 0, 0, drawing.width, drawing.height)
            recorded = self.recorded.get(key)
            document = c._doc
            if recorded is not None:
                c._code.extend(recorded[0])
                document._pdfVersion = max(document._pdfVersion, recorded[1])
            else:
                # The PDF version the drawing needs (svglib's drawings ask for 1.4, transparency), to ask for again.
                version, document._pdfVersion = document._pdfVersion, (0, 0)
                if color is not None:
                    ink, paper = Color(*color), Color(*hole)
                    for node, filled, white, stroked in leaves:
                        if filled:
                            node.fillColor = paper if white else ink
                        if stroked:
                            node.strokeColor = ink
                drawing.initialFontName = self.body_font
                renderPDF.draw(drawing, c, 0, 0)
                # Operators that name no resource (a font, a form, a transparency: named by each PDF) are
                # the same in any PDF; the file's own colours depend on the last recolouring, so are drawn anew.
                if color is not None and not any("/" in line for line in c._code):
                    self.recorded[key] = (list(c._code), document._pdfVersion)
                document._pdfVersion = max(version, document._pdfVersion)
            c.endForm()
        return name, drawing


def lines(fonts: Fonts, t: dict) -> list[tuple[float, list[tuple[str, str]]]]:
    """Each line's indent (pt; a centred line's share of the room left) and its (font name, text) runs."""
    size, width = t["size"], t["box"][2] * MM
    out = []
    for line in t["lines"]:
        runs = [(fonts.font(family, face), piece) for family, face, piece in line]
        indent = 0.0
        if t["align"] == "center":
            indent = (width - sum(font.stringWidth(piece, size) for font, piece in runs)) / 2
        out.append((indent, [(font.fontName, piece) for font, piece in runs]))
    return out


def render_pdf(pdf: dict, fonts: Fonts, symbols: Symbols, texts: dict) -> bytes:
    import io

    lang = pdf["lang"]
    buffer = io.BytesIO()
    body = fonts.font(fonts.orders[lang][0], "regular").fontName
    c = Canvas(buffer, invariant=1, pageCompression=1, initialFontName=body)
    c.setTitle(pdf["title"])
    c.setCreator("floor")
    symbols.body_font = body
    forms: dict = {}
    repeats = Repeats(c)  # card sides and the shapes that recur where they were, drawn once a PDF
    patterns: dict = {}  # each (pattern, colour, card area) one form per PDF, placed on every back that shows it

    def text(t: dict) -> None:
        laid = texts.get(id(t))
        if laid is None:
            laid = texts[id(t)] = lines(fonts, t)
        x, y, w, h = t["box"]
        size, leading = t["size"], t["leading"]
        # As a paragraph sits: the first baseline a font size below the top, centred in the box if asked.
        offset = max(0.0, (h * MM - leading * len(laid)) / 2) if t["valign"] else 0.0
        baseline = (y + h) * MM - offset - size
        c.setFillColorRGB(*t["color"])
        tx = c.beginText()
        for indent, runs in laid:
            tx.setTextOrigin(x * MM + indent, baseline)
            for font, piece in runs:
                tx.setFont(font, size)
                tx.textOut(piece)
            baseline -= leading
        c.drawText(tx)

    def rect(r, radius=0.0, fill=None) -> None:
        c.setFillColorRGB(*fill)
        repeats.draw(
            ("rect", *r, radius),
            lambda: c.roundRect(r[0] * MM, r[1] * MM, r[2] * MM, r[3] * MM, radius * MM, stroke=0, fill=1),
        )

    def clip_to(clip, round_) -> None:
        path = c.beginPath()
        if round_:
            path.circle((clip[0] + clip[2] / 2) * MM, (clip[1] + clip[3] / 2) * MM, min(clip[2], clip[3]) / 2 * MM)
        else:
            path.rect(clip[0] * MM, clip[1] * MM, clip[2] * MM, clip[3] * MM)
        c.clipPath(path, stroke=0, fill=0)

    def guide(trim) -> None:
        c.circle((trim[0] + trim[2] / 2) * MM, (trim[1] + trim[3] / 2) * MM, trim[2] / 2 * MM, stroke=1, fill=0)

    def segments(lines) -> None:
        for x1, y1, x2, y2 in lines:
            c.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)

    def circle(r, fill) -> None:
        c.setFillColorRGB(*fill)
        c.circle((r[0] + r[2] / 2) * MM, (r[1] + r[3] / 2) * MM, min(r[2], r[3]) / 2 * MM, stroke=0, fill=1)

    def framed(f: dict, paint) -> None:
        rect(paint, fill=f["stock"])
        rect(f["frame"], f["frame_radius"], f["color"])
        rect(f["panel"], f["panel_radius"], f["panel_color"])

    def face(f: dict, paint, area) -> None:
        kind = f["kind"]
        if kind == "role":
            framed(f, paint)
            for edge in f["edges"]:
                symbols.draw(c, forms, edge)
            text(f["name"])
            if f["symbol"]:
                symbols.draw(c, forms, f["symbol"])
            pill = f["pill"]
            rect(pill, pill[3] / 2, f["color"])
            for mark in f["marks"]:
                symbols.draw(c, forms, mark)
            text(f["team"])
            text(f["ability"])
        elif kind == "token":
            circle(paint, f["color"])
            circle(f["circle"], f["panel_color"])
            if f["symbol"]:
                symbols.draw(c, forms, f["symbol"])
            text(f["name"])
        elif kind == "words":
            framed(f, paint)
            text(f["title"])
            c.setFillColorRGB(*f["color"])
            for x, y, r in f["dots"]:
                c.circle(x * MM, y * MM, r * MM, stroke=0, fill=1)
            for row in f["rows"]:
                text(row)
        elif kind == "list":
            framed(f, paint)
            text(f["name"])
            text(f["text"])
        else:  # a group's back
            (circle if f["round"] else rect)(paint, fill=f["color"])
            pattern = f["pattern"]
            if pattern:
                key = (pattern["path"], tuple(pattern["color"]), tuple(area))
                name = patterns.get(key)
                if name is None:
                    size, step = pattern["size"], pattern["step"]
                    tiles = []
                    row, y = 0, area[1]
                    while y < area[1] + area[3]:
                        x = area[0] + (step / 2 if row % 2 else 0)
                        while x < area[0] + area[2]:
                            tiles.append((x, y, size, size))
                            x += step
                        y += step * 0.8
                        row += 1
                    symbols.form(c, forms, pattern)
                    name = patterns[key] = f"P{len(patterns)}"
                    c.beginForm(
                        name,
                        area[0] * MM,
                        area[1] * MM,
                        max(t[0] + size for t in tiles) * MM,
                        max(t[1] + size for t in tiles) * MM,
                    )
                    for tile in tiles:
                        symbols.draw(c, forms, pattern, tile)
                    c.endForm()
                c.doForm(name)
            if f["emblem"]:
                symbols.draw(c, forms, f["emblem"])
            if f["title"]:
                text(f["title"])

    def ruler(top, length) -> None:
        c.line(0, top * MM, length * MM, top * MM)
        for tick in range(int(length) + 1):
            drop = 1.2 if tick % 10 == 0 else 0.8 if tick % 5 == 0 else 0.45
            c.line(tick * MM, top * MM, tick * MM, (top - drop) * MM)

    sheet = pdf["sheet"]
    faces = pdf["faces"]
    for page in pdf["pages"]:
        w, h = page["size"]
        c.setPageSize((w * MM, h * MM))
        c.setTrimBox(tuple(v * MM for v in page["trim_box"]))
        c.setBleedBox(tuple(v * MM for v in page["bleed_box"]))
        for slot in page["slots"]:
            clip, trim, round_ = slot["clip"], slot["trim"], slot["round"]
            paint, area = slot["paint"], slot["area"]
            c.saveState()
            repeats.draw(("clip", round_, *clip), clip_to, clip, round_)
            c.translate(trim[0] * MM, trim[1] * MM)
            if slot["rotation"] == 180:
                c.translate(trim[2] * MM, trim[3] * MM)
                c.rotate(180)
            # In card coordinates a side looks the same wherever it sits: the copies of a card and the
            # backs of a group are drawn once.
            repeats.draw(("side", slot["face"], *paint, *area), face, faces[slot["face"]], paint, area)
            c.restoreState()
            if round_:
                c.setStrokeColorRGB(0, 0, 0)
                c.setLineWidth(sheet["guide_width_pt"])
                repeats.draw(("guide", *trim), guide, trim)
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(sheet["mark_width_pt"])
        marks = page["marks"]
        repeats.draw(("marks", *map(tuple, marks)), segments, marks)
        if page["fold"]:
            x1, y1, x2, y2 = page["fold"]
            c.setLineWidth(sheet["fold_width_pt"])
            c.setDash([d * MM for d in sheet["fold_dash"]])
            c.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
            c.setDash()
        info = page["info"]
        c.saveState()
        c.translate(info["origin"][0] * MM, info["origin"][1] * MM)
        if info["rotation"] == 90:
            c.rotate(90)
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(info["line_width_pt"])
        top, length = info["top"], info["length"]
        repeats.draw(("ruler", top, length), ruler, top, length)
        c.setFillColorRGB(0.15, 0.15, 0.15)
        size = info["size"]
        for runs, x, y in info["lines"]:
            x *= MM
            for family, key, piece in runs:
                font = fonts.font(family, key)
                c.setFont(font.fontName, size)
                c.drawString(x, y * MM, piece)
                x += font.stringWidth(piece, size)
        c.restoreState()
        c.showPage()
    c.save()
    return buffer.getvalue()


def render_all(spec: dict, times: dict | None = None) -> dict[str, bytes]:
    fonts = Fonts(spec["fonts"], spec["order"])
    symbols = Symbols()
    texts: dict = {}  # each text's lines measured once per process (a text recurs on every copy, in every PDF)
    out = {}
    for pdf in spec["pdfs"]:
        start = time.perf_counter()
        out[pdf["name"]] = render_pdf(pdf, fonts, symbols, texts)
        if times is not None:
            times[pdf["name"]] = time.perf_counter() - start
    return out


def main() -> None:
    from spec import timed_main

    timed_main(__doc__.splitlines()[0], render_all, "Also write the PDFs here (after the clock stops).")


if __name__ == "__main__":
    sys.exit(main())
