"""SVG files from a shared deck: a path in, the reason it must not be opened (or None) out.

svglib would follow references to other files and URLs (``<image href>``,
``<use href="other.svg#id">``, ``url(...)`` in styles) and expat would expand
entities, so a stranger's SVG is read here first, with entities refused, and
anything that points outside the file is refused before svglib sees it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

MAX_SVG_BYTES = 2 * 1024 * 1024
SVG = "{http://www.w3.org/2000/svg}"
# script and foreignObject have no place in a card's picture; text would make svglib look for
# system fonts (running fc-match) and embed whatever it finds: draw letters as paths.
FORBIDDEN = {"script", "foreignObject", "text", "tspan", "textPath"}
_OUTSIDE_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)([^)'\"]*)", re.IGNORECASE)


def problem(path: Path) -> str | None:
    size = path.stat().st_size
    if size > MAX_SVG_BYTES:
        return f"an SVG of {size / 1024 / 1024:.1f} MiB; symbols are limited to {MAX_SVG_BYTES // 1024 // 1024} MiB"
    text = path.read_bytes()
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
                " (turn text into paths)" if name in ("text", "tspan", "textPath") else "")
        for attribute, value in element.attrib.items():
            if attribute.endswith("href") and not value.strip().startswith("#"):
                return f"an SVG that refers to '{value}' outside the file; only #ids inside it may be used"
            outside = _OUTSIDE_URL.search(value)
            if outside:
                return f"an SVG that refers to '{outside.group(1)}' outside the file; only url(#id) may be used"
        if name == "style" and element.text and ("@import" in element.text or _OUTSIDE_URL.search(element.text)):
            return "an SVG whose <style> loads something from outside the file"
    return None
