"""The site's fonts: a page's text and the font book in, the @font-face rules of that page out, each
face a WOFF2 subset of a bundled font holding only the characters the page draws with it.

A bundled Chinese face is 11 MB and a page shows two hundred of its characters; a subset of them is
tens of KB. The subsets are made with fontTools (its subsetter is the reference tool for this), the
same characters of the same font always giving the same bytes (no timestamp is written), and are named
by a hash of their content, so a browser keeps one as long as it is the same file. A made subset is
kept in the user's cache folder (cardgen/core/cache.py's), keyed by the font file's content, the
characters and fontTools' version, so that a site built again subsets nothing.

A family gets the page's characters that no family before it in the page's order has, as the browser
would draw them: the index's "中文" link takes two characters of the Chinese face, never the face.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

from cardgen.core import cache as user_cache
from cardgen.core.write import write_atomic
from cardgen.text.fonts import FontBook

FORMAT = "woff2"
FACES = ("regular", "bold")  # the pages use no italics


@dataclass(frozen=True)
class WebFace:
    family: str
    face: str  # "regular" or "bold"
    name: str  # the file name in the site's fonts folder: family, face and a hash of the bytes
    data: bytes


class _Text(HTMLParser):
    """The characters of a page that a font draws: every text node but the head's styles and scripts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chars: set[str] = set()
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in ("style", "script", "title"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "title"):
            self._skip = max(0, self._skip - 1)

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.chars.update(data)


def page_characters(html: str) -> set[str]:
    """The characters a page shows (white space but the plain space and no-break space left out)."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return {c for c in parser.chars if not c.isspace() or c in " \u00a0"}


@cache
def _cmap(path: Path) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True) as font:
        return frozenset(font.getBestCmap())


@cache
def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def web_faces(book: FontBook, families: list[str], chars: set[str]) -> list[WebFace]:
    """The subsets a page with `chars`, set in `families` (first to last), loads: for each family, its
    regular and bold faces cut to the characters it is the first family to have."""
    faces: list[WebFace] = []
    left = {ord(c) for c in chars}
    for family in families:
        regular = book.families[family].get("regular")
        if regular is None:
            continue
        mine = left & _cmap(regular)
        if not mine:
            continue
        left -= mine
        for face in FACES:
            path = book.families[family].get(face)
            if path is not None:
                data = subset(path, mine)
                digest = hashlib.sha256(data).hexdigest()[:12]
                faces.append(WebFace(family, face, f"{path.stem}.{digest}.{FORMAT}", data))
    return faces


def subset(path: Path, codepoints: set[int]) -> bytes:
    """The font at `path` cut to `codepoints`, as WOFF2: from the user's cache when made before."""
    from fontTools import version

    key = hashlib.sha256(f"{_digest(path)} {version} {sorted(codepoints)}".encode()).hexdigest()[:32]
    where = user_cache.folder()
    entry = where / "webfonts" / f"{key}.{FORMAT}" if where is not None else None
    if entry is not None:
        try:
            return entry.read_bytes()
        except OSError:
            pass
    data = _subset(path, codepoints)
    if entry is not None:
        try:
            write_atomic(entry, data)
        except OSError:
            pass  # a cache that cannot be written is no cache
    return data


def _subset(path: Path, codepoints: set[int]) -> bytes:
    from fontTools import subset as ft_subset
    from fontTools.ttLib import TTFont

    options = ft_subset.Options()
    options.flavor = FORMAT
    options.layout_features = ["*"]  # kerning, marks and CJK forms, as the full font has them
    options.name_IDs = ["*"]  # the family's own names, so DevTools and tests see the bundled face
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.recalc_timestamp = False  # the same input gives the same bytes
    options.recalc_bounds = True
    font = TTFont(str(path), recalcTimestamp=False)
    try:
        subsetter = ft_subset.Subsetter(options)
        subsetter.populate(unicodes=codepoints)
        subsetter.subset(font)
        buffer = io.BytesIO()
        ft_subset.save_font(font, buffer, options)
    finally:
        font.close()
    return buffer.getvalue()
