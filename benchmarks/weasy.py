"""The same card sheets as HTML/CSS, rendered by WeasyPrint.

Input is the JSON written by ``spec.py`` (read before the clock starts), the
same data ``floor.py`` draws from. For each card PDF this writes one HTML
document with f-strings, one absolutely positioned box per page, card, frame,
panel, text and symbol (millimetres from cardgen's composed faces, font sizes
as cardgen fitted them), named pages for the page sizes, the fonts in fonts/
as @font-face (WeasyPrint embeds them as subsets and falls back per character
by itself), the SVG symbols recoloured as text and served from memory, and
renders it with ``HTML(...).write_pdf()``. The clock covers writing the HTML
and rendering it, for every PDF.

    python benchmarks/weasy.py SPEC.json [--out DIR]

prints one JSON line like floor.py.
"""

from __future__ import annotations

import re
import sys
import time
from html import escape
from pathlib import Path

PT_PER_MM = 72 / 25.4
_FILL = re.compile(r'(fill|stroke)="(#[0-9a-fA-F]{6})"')


def _css(rgb) -> str:
    return f"rgb({rgb[0] * 255:.1f},{rgb[1] * 255:.1f},{rgb[2] * 255:.1f})"


class Symbols:
    """Recoloured SVGs as text, one per (file, colour, hole), served to WeasyPrint from memory."""

    def __init__(self):
        self.files: dict[str, str] = {}
        self.urls: dict[tuple, str] = {}
        self.bodies: dict[str, bytes] = {}

    def url(self, path: str, color, hole) -> str:
        key = (path, tuple(color) if color else None, tuple(hole))
        url = self.urls.get(key)
        if url is None:
            svg = self.files.get(path)
            if svg is None:
                svg = self.files[path] = Path(path).read_text(encoding="utf-8")
            if color is not None:
                ink, paper = _css(color), _css(hole)

                def recolor(m: re.Match) -> str:
                    value = m.group(2)
                    white = min(int(value[i : i + 2], 16) for i in (1, 3, 5)) > 0.9 * 255
                    return f'{m.group(1)}="{paper if white and m.group(1) == "fill" else ink}"'

                svg = _FILL.sub(recolor, svg).replace("<svg ", f'<svg fill="{ink}" ', 1)
            url = self.urls[key] = f"https://symbols.invalid/{len(self.urls)}.svg"
            self.bodies[url] = svg.encode("utf-8")
        return url

    def tile(self, path: str, color, size: float, step: float) -> str:
        """A background tile (mm) of the staggered pattern: one symbol at the bottom left, one
        half a step across and 0.8 step up (drawn twice, so that it wraps across the tile's edge)."""
        key = ("tile", path, tuple(color), size, step)
        url = self.urls.get(key)
        if url is None:
            svg = self.bodies[self.url(path, color, (1, 1, 1))].decode("utf-8")
            head = re.search(r"<svg\b[^>]*>", svg)
            view = re.search(r'viewBox="([^"]+)"', head.group(0)).group(1)
            inner = svg[head.end() : svg.rindex("</svg>")]
            fill = re.search(r'fill="([^"]+)"', head.group(0)).group(1)
            height = 1.6 * step
            spots = [
                (0, height - size),
                (step / 2, height - 0.8 * step - size),
                (-step / 2, height - 0.8 * step - size),
                (step, height - size),
            ]
            body = "".join(
                f'<svg x="{x:.3f}" y="{y:.3f}" width="{size}" height="{size}" viewBox="{view}" '
                f'fill="{fill}">{inner}</svg>'
                for x, y in spots
            )
            tile = (
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{step}mm" height="{height:.3f}mm" '
                f'viewBox="0 0 {step} {height:.3f}">{body}</svg>'
            )
            url = self.urls[key] = f"https://symbols.invalid/{len(self.urls)}.svg"
            self.bodies[url] = tile.encode("utf-8")
        return url


def _fetcher(symbols: Symbols):
    """A URL fetcher that serves the recoloured symbols and nothing from the network."""
    try:
        from weasyprint.urls import URLFetcher, URLFetcherResponse
    except ImportError:  # WeasyPrint before 66: a function returning a dict
        from weasyprint import default_url_fetcher

        def fetch(url, *args, **kwargs):
            if url in symbols.bodies:
                return {"string": symbols.bodies[url], "mime_type": "image/svg+xml"}
            return default_url_fetcher(url, *args, **kwargs)

        return fetch

    class Fetcher(URLFetcher):
        def fetch(self, url, headers=None):
            if url in symbols.bodies:
                return URLFetcherResponse(url, symbols.bodies[url], {"Content-Type": "image/svg+xml"})
            return super().fetch(url, headers)

    return Fetcher(allowed_protocols=("file", "https"))


STYLE = """
@page {{ margin: 0 }}
{pages}
{fonts}
* {{ margin: 0; padding: 0; box-sizing: border-box }}
html {{ font-family: {families}; }}
.page {{ position: relative; overflow: hidden; break-after: page }}
.page:last-child {{ break-after: auto }}
.a {{ position: absolute }}
.clip {{ position: absolute; overflow: hidden }}
.t {{ position: absolute; line-height: 1.2; display: flex; flex-direction: column; }}
.v {{ justify-content: center }}
.sym {{ position: absolute; object-fit: contain }}
.info {{ position: absolute; transform-origin: 0 100% }}
.info div {{ position: absolute; white-space: nowrap; color: rgb(38,38,38); line-height: 1 }}
"""

FACE_KEYS = {
    "regular": ("normal", "normal"),
    "bold": ("bold", "normal"),
    "italic": ("normal", "italic"),
    "bold-italic": ("bold", "italic"),
}


def font_faces(fonts: dict) -> str:
    rules = []
    for family, faces in fonts.items():
        for key, path in faces.items():
            weight, style = FACE_KEYS[key]
            rules.append(
                f"@font-face {{ font-family: {family}; font-weight: {weight}; font-style: {style}; "
                f"src: url({Path(path).as_uri()}) }}"
            )
    return "\n".join(rules)


def html_for(pdf: dict, spec: dict, symbols: Symbols) -> str:
    lang = pdf["lang"]
    sheet, faces = pdf["sheet"], pdf["faces"]
    out: list[str] = []
    add = out.append

    def box(r, height: float) -> str:
        """left/top/width/height of a rectangle (bottom-left origin, mm) inside a box of that height."""
        return f"left:{r[0]:.3f}mm;top:{height - r[1] - r[3]:.3f}mm;width:{r[2]:.3f}mm;height:{r[3]:.3f}mm"

    def rect(r, height, fill, radius=0.0, extra="") -> None:
        add(
            f'<div class="a" style="{box(r, height)};background:{_css(fill)};border-radius:{radius:.3f}mm{extra}"></div>'
        )

    def circle(r, height, fill) -> None:
        d = min(r[2], r[3])
        c = [r[0] + (r[2] - d) / 2, r[1] + (r[3] - d) / 2, d, d]
        rect(c, height, fill, extra=";border-radius:50%")

    def symbol(s, height, r=None) -> None:
        url = symbols.url(s["path"], s["color"], s.get("hole", (1, 1, 1)))
        add(f'<img class="sym" src="{url}" style="{box(r or s["box"], height)}">')

    def text(t, height) -> None:
        parts = []
        for value, bold, italic in t["spans"]:
            piece = escape(value).replace("\n", "<br>")
            if bold:
                piece = f"<b>{piece}</b>"
            if italic:
                piece = f"<i>{piece}</i>"
            parts.append(piece)
        cls = "t v" if t["valign"] else "t"
        add(
            f'<div class="{cls}" style="{box(t["box"], height)};font-size:{t["size"]}pt;color:{_css(t["color"])};'
            f'text-align:{t["align"]}"><p>{"".join(parts)}</p></div>'
        )

    def framed(f, paint, height) -> None:
        rect(paint, height, f["stock"])
        rect(f["frame"], height, f["color"], f["frame_radius"])
        rect(f["panel"], height, f["panel_color"], f["panel_radius"])

    def face(f, paint, height) -> None:
        kind = f["kind"]
        if kind == "role":
            framed(f, paint, height)
            for edge in f["edges"]:
                symbol(edge, height)
            text(f["name"], height)
            if f["symbol"]:
                symbol(f["symbol"], height)
            rect(f["pill"], height, f["color"], f["pill"][3] / 2)
            for mark in f["marks"]:
                symbol(mark, height)
            text(f["team"], height)
            text(f["ability"], height)
        elif kind == "token":
            circle(paint, height, f["color"])
            circle(f["circle"], height, f["panel_color"])
            if f["symbol"]:
                symbol(f["symbol"], height)
            text(f["name"], height)
        elif kind == "words":
            framed(f, paint, height)
            text(f["title"], height)
            for x, y, r in f["dots"]:
                rect([x - r, y - r, 2 * r, 2 * r], height, f["color"], extra=";border-radius:50%")
            for row in f["rows"]:
                text(row, height)
        elif kind == "list":
            framed(f, paint, height)
            text(f["name"], height)
            text(f["text"], height)
        else:
            # The pattern is a repeating background tile, as a style sheet would do it: the
            # same staggered grid as cardgen's, anchored at the paint area's bottom-left corner.
            pattern, background = f["pattern"], ""
            if pattern:
                step = pattern["step"]
                tile = symbols.tile(pattern["path"], pattern["color"], pattern["size"], step)
                background = (
                    f";background:{_css(f['color'])} url({tile}) left bottom/{step}mm {1.6 * step:.3f}mm repeat"
                )
            if f["round"]:
                rect(paint, height, f["color"], extra=";border-radius:50%" + background)
            else:
                rect(paint, height, f["color"], extra=background)
            if f["emblem"]:
                symbol(f["emblem"], height)
            if f["title"]:
                text(f["title"], height)

    def line(x1, y1, x2, y2, height, width_pt, style="solid") -> None:
        w = width_pt / PT_PER_MM
        if x1 == x2:
            r = [x1 - w / 2, min(y1, y2), 0, abs(y2 - y1)]
            border = "border-left"
        else:
            r = [min(x1, x2), y1 - w / 2, abs(x2 - x1), 0]
            border = "border-top"
        add(f'<div class="a" style="{box(r, height)};{border}:{width_pt}pt {style} black"></div>')

    sizes: dict[tuple, str] = {}
    for page in pdf["pages"]:
        w, h = page["size"]
        name = sizes.setdefault((w, h), f"p{len(sizes)}")
        add(f'<div class="page" style="page:{name};width:{w}mm;height:{h}mm">')
        for slot in page["slots"]:
            clip, trim = slot["clip"], slot["trim"]
            round_ = ";border-radius:50%" if slot["round"] else ""
            add(f'<div class="clip" style="{box(clip, h)}{round_}">')
            turn = ";transform:rotate(180deg)" if slot["rotation"] == 180 else ""
            inner = [trim[0] - clip[0], trim[1] - clip[1], trim[2], trim[3]]
            add(f'<div class="a" style="{box(inner, clip[3])}{turn}">')
            face(faces[slot["face"]], slot["paint"], trim[3])
            add("</div></div>")
            if slot["round"]:
                guide = sheet["guide_width_pt"] / PT_PER_MM
                add(
                    f'<div class="a" style="{box(trim, h)};border:{sheet["guide_width_pt"]}pt solid black;'
                    f'border-radius:50%;margin:-{guide / 2:.3f}mm"></div>'
                )
        for x1, y1, x2, y2 in page["marks"]:
            line(x1, y1, x2, y2, h, sheet["mark_width_pt"])
        if page["fold"]:
            line(*page["fold"], h, sheet["fold_width_pt"], "dashed")
        info = page["info"]
        ox, oy = info["origin"]
        top, length, depth = info["top"], info["length"], 6.0
        turn = "transform:rotate(-90deg);" if info["rotation"] == 90 else ""
        add(
            f'<div class="info" style="{turn}left:{ox:.3f}mm;top:{h - oy - depth:.3f}mm;width:{length}mm;'
            f'height:{depth}mm;font-size:{info["size"]}pt">'
        )
        lw = info["line_width_pt"]
        add(f'<div style="left:0;bottom:{top:.3f}mm;width:{length}mm;border-top:{lw}pt solid black"></div>')
        for tick in range(int(length) + 1):
            drop = 1.2 if tick % 10 == 0 else 0.8 if tick % 5 == 0 else 0.45
            add(
                f'<div style="left:{tick}mm;bottom:{top - drop:.3f}mm;height:{drop}mm;border-left:{lw}pt solid black">'
                "</div>"
            )
        for runs, x, y in info["lines"]:
            value = "".join(piece for _, _, piece in runs)
            add(f'<div style="left:{x}mm;bottom:{y:.3f}mm">{escape(value)}</div>')
        add("</div></div>")

    families = ", ".join(spec["order"][lang])
    pages_css = "\n".join(f"@page {name} {{ size: {w}mm {h}mm }}" for (w, h), name in sizes.items())
    style = STYLE.format(pages=pages_css, fonts=font_faces(spec["fonts"]), families=families)
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>{escape(pdf["title"])}</title>'
        f"<style>{style}</style></head><body>{''.join(out)}</body></html>"
    )


def render_all(spec: dict, times: dict | None = None) -> dict[str, bytes]:
    from weasyprint import HTML

    symbols = Symbols()
    fetcher = _fetcher(symbols)
    out = {}
    for pdf in spec["pdfs"]:
        start = time.perf_counter()
        html = html_for(pdf, spec, symbols)
        out[pdf["name"]] = HTML(string=html, base_url=str(Path.cwd()), url_fetcher=fetcher).write_pdf()
        if times is not None:
            times[pdf["name"]] = time.perf_counter() - start
    return out


def main() -> None:
    import logging

    from spec import timed_main

    def before() -> None:
        logging.getLogger("weasyprint").setLevel(logging.ERROR)
        import weasyprint  # noqa: F401  (imported before the clock, like reportlab in floor.py)

    timed_main(
        __doc__.splitlines()[0], render_all, "Also write the PDFs (and the HTML) here, after the clock stops.", before
    )


if __name__ == "__main__":
    sys.exit(main())
