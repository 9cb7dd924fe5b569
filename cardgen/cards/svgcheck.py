"""SVG files from a shared deck: a path in, the reason it must not be opened or cannot be drawn
(or None) out.

svglib would follow references to other files and URLs (``<image href>``,
``<use href="other.svg#id">``, ``url(...)`` in styles) and expat would expand
entities, so a stranger's SVG is read here first, with entities refused, and
anything that points outside the file is refused before svglib sees it. Numbers
ReportLab cannot write into a PDF (``width="1e300"``) and paths without a
starting point (``d="M"``) are refused by name (:func:`problem`); anything else
svglib or ReportLab cannot draw is found by drawing the symbol once, as the
build does, on a scratch page (:func:`drawing_problem`): validation then says
what the build would stumble on.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

from cardgen.core import contained

MAX_SVG_BYTES = 2 * 1024 * 1024
SVG = "{http://www.w3.org/2000/svg}"
# script and foreignObject have no place in a card's picture; text would make svglib look for
# system fonts (running fc-match) and embed whatever it finds: draw letters as paths.
FORBIDDEN = {"script", "foreignObject", "text", "tspan", "textPath"}
_OUTSIDE_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)([^)'\"]*)", re.IGNORECASE)
# Coordinates and sizes beyond this are no drawing's and overflow ReportLab's number format.
MAX_COORDINATE = 1_000_000
_GEOMETRY = {
    "width",
    "height",
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "d",
    "points",
    "transform",
    "viewBox",
    "stroke-width",
    "stroke-dasharray",
    "stroke-dashoffset",
    "offset",
    "stroke-miterlimit",
    "fx",
    "fy",
    "style",
}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\b(?:inf(?:inity)?|nan)\b", re.IGNORECASE)
_NOT_NUMBERS = re.compile(r"#[0-9a-fA-F]{3,8}\b|url\([^)]*\)")  # colours and references in a style


def problem(path: Path, folder: Path | None = None) -> str | None:
    """Why the SVG at path, a file of `folder` (by default its own), cannot be used, or None."""
    try:
        text = contained.read(path, folder or path.parent, MAX_SVG_BYTES)
    except contained.TooLarge as exc:
        return f"an SVG of {exc.size / 1024 / 1024:.1f} MiB; symbols are limited to {MAX_SVG_BYTES // 1024 // 1024} MiB"
    except contained.Refused as exc:
        return str(exc)
    return _structure(text)


def drawing_problem(path: Path, folder: Path | None = None) -> str | None:
    """Why the build could not draw an SVG that :func:`problem` let through, or None (this one
    needs ReportLab, which only the stages that draw import)."""
    try:
        return _drawing(contained.read(path, folder or path.parent, MAX_SVG_BYTES))
    except contained.Refused as exc:
        return str(exc)


@lru_cache(maxsize=256)
def _structure(text: bytes) -> str | None:
    # Cached by content: a deck's roles share a handful of symbols.
    if b"<!DOCTYPE" in text or b"<!ENTITY" in text:
        return "an SVG with a DOCTYPE or entities, which cardgen does not read"
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        return f"not a well-formed SVG ({exc})"
    if root.tag != f"{SVG}svg":
        return "not an SVG (its root element is not <svg>)"
    by_id = {element.get("id"): element for element in root.iter() if element.get("id")}
    for use in root.iter(f"{SVG}use"):
        href = use.get("href") or use.get("{http://www.w3.org/1999/xlink}href") or ""
        target = by_id.get(href.lstrip("#"))
        # A <use> of something that itself uses is how an SVG multiplies itself into a bomb.
        if target is not None and any(child.tag == f"{SVG}use" for child in target.iter()):
            return "an SVG whose <use> elements use other <use> elements, which cardgen does not expand"
    for element in root.iter():
        name = element.tag.replace(SVG, "") if isinstance(element.tag, str) else ""
        if name in FORBIDDEN:
            return f"an SVG with a <{name}> element, which cardgen does not draw" + (
                " (turn text into paths)" if name in ("text", "tspan", "textPath") else ""
            )
        for attribute, value in element.attrib.items():
            if attribute.endswith("href") and not value.strip().startswith("#"):
                return f"an SVG that refers to '{value}' outside the file; only #ids inside it may be used"
            outside = _OUTSIDE_URL.search(value)
            if outside:
                return f"an SVG that refers to '{outside.group(1)}' outside the file; only url(#id) may be used"
            if attribute in _GEOMETRY:
                reason = _numbers(name, attribute, value)
                if reason:
                    return reason
        if name == "style" and element.text and ("@import" in element.text or _OUTSIDE_URL.search(element.text)):
            return "an SVG whose <style> loads something from outside the file"
        data = element.get("d", "")
        if name == "path" and data.strip() and not re.match(r"\s*[Mm]\s*[-+.\d]", data):
            return (
                f'an SVG with a <path d="{data.strip()[:20]}">, which lacks the move-to and '
                'point a path starts with (d="M x y ...")'
            )
    for attribute in ("width", "height"):
        size = _NUMBER.match(root.get(attribute, "1").strip())
        if size and float(size.group()) <= 0:
            return f"an SVG whose {attribute} is {root.get(attribute)}; it must be more than 0"
    return None


def _numbers(element: str, attribute: str, value: str) -> str | None:
    for token in _NUMBER.findall(_NOT_NUMBERS.sub(" ", value)):
        number = float(token)
        if not math.isfinite(number) or abs(number) > MAX_COORDINATE:
            return (
                f"an SVG with the number {token} in <{element} {attribute}>, beyond the ±{MAX_COORDINATE} cardgen draws"
            )
    return None


@lru_cache(maxsize=256)
def _drawing(text: bytes) -> str | None:
    """Why svglib or ReportLab fails to draw the SVG as the build draws symbols, or None: drawn once in
    the team colour and once in its own, on a page that is then written out (numbers are checked there)."""
    import io

    from reportlab.lib.colors import black
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.cards.icons import IconPainter, said

    canvas = Canvas(io.BytesIO())
    painter = IconPainter(canvas, "Helvetica")
    try:
        for color in (black, None):
            painter.draw_svg(text, color, 0, 0, 20, 20)
        canvas.showPage()
        canvas.save()
    except Exception as exc:  # noqa: BLE001 - whatever svglib or ReportLab raise is the reason
        return undrawable(said(exc))
    return None


def undrawable(detail: str) -> str:
    """The reason given for an SVG that svglib or ReportLab said `detail` of."""
    return f"an SVG cardgen cannot draw ({detail[:200]})"
