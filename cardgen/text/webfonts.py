"""Web fonts for the site and the narrator page: a page's characters and the font book in; the WOFF2
subsets of the bundled fonts holding only the characters the page draws with each, and the CSS that
loads them (@font-face rules and the font-family list), out.

A bundled Chinese face is 11 MB and a page shows two hundred of its characters; a subset of them is
tens of KB. The subsets are made with fontTools (its subsetter is the reference tool for this), the
same characters of the same font always giving the same bytes (no timestamp is written), and are named
by a hash of their content, so a browser keeps one as long as it is the same file. A made subset is
kept in the user's cache folder (cardgen/core/cache.py's), keyed by the font file's content, the
characters and fontTools' version, so that a site built again subsets nothing.

A family gets the page's characters that no family before it in the page's order has, as the browser
would draw them: the index's "中文" link takes two characters of the Chinese face, never the face. So
each character is in one subset only, and the browser draws it in that face whatever the order of the
families in the CSS. The site links its subsets as files; the narrator page, one file that makes no
request, carries them as data: URLs.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

from cardgen.core import cache as user_cache
from cardgen.core.write import Unwritable, write_atomic
from cardgen.text.fonts import FontBook

FORMAT = "woff2"
FACES = ("regular", "bold")  # the pages use no italics


@dataclass(frozen=True)
class WebFace:
    family: str
    face: str  # "regular" or "bold"
    name: str  # the file name in the site's fonts folder: family, face and a hash of the bytes
    data: bytes


def css_family(family: str) -> str:
    """A bundled family's name in CSS, quoted: set apart from any font of the reader's system, so that
    the page is drawn in the subset, never in a system font of the same name."""
    # Nor can a name end the string, or the <style> it is in.
    quoted = family.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return f'"cardgen {quoted}"'


def css_families(families: Iterable[str]) -> str:
    """The font-family list naming these families, first to last (the page adds its own fallbacks)."""
    return ", ".join(css_family(family) for family in families)


def font_face_rules(faces: Iterable[WebFace], source: Callable[[WebFace], str]) -> str:
    """The @font-face rules loading `faces`, one a line, each from the URL source(face)."""
    return "".join(
        f'@font-face {{ font-family: {css_family(face.family)}; src: url("{source(face)}") format("{FORMAT}"); '
        f"font-weight: {700 if face.face == 'bold' else 400}; font-style: normal; font-display: block; }}\n"
        for face in faces
    )


def data_url(face: WebFace) -> str:
    """A face as a data: URL, for a page that makes no request."""
    return f"data:font/{FORMAT};base64,{base64.b64encode(face.data).decode()}"


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


# Escapes that write a character in a script's or a style's source: \u25c6 and \u{1f56f} (JavaScript), \25c6 (CSS).
_ESCAPE = re.compile(r"\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})|\\([0-9a-fA-F]{1,6})")
_ASCII = {chr(code) for code in range(0x20, 0x7F)}


def data_characters(values: object) -> set[str]:
    """Every character of the strings (keys included) of JSON-like data: what a script drawing that data
    can show."""
    if isinstance(values, str):
        return set(values)
    if isinstance(values, dict):
        return set().union(*(data_characters(key) | data_characters(value) for key, value in values.items()))
    if isinstance(values, (list, tuple)):
        return set().union(*(data_characters(value) for value in values))
    return set()  # numbers, written in ASCII digits


def source_characters(source: str) -> set[str]:
    """The characters a script or a style can write by itself: all of printable ASCII (digits, numbers
    it works out, the punctuation of its templates) and every other character its source holds, written
    as it is or as an escape. Comments count too: a glyph too many costs a few bytes, one too few a box."""
    escaped = {int(next(filter(None, match.groups())), 16) for match in _ESCAPE.finditer(source)}
    written = {chr(code) for code in escaped if code <= 0x10FFFF}
    return _ASCII | {char for char in {*source, *written} if not char.isascii() and _drawn(char)}


def _drawn(char: str) -> bool:
    """Whether a character has a glyph: not a control, but the spaces (a no-break space has one)."""
    return char.isprintable() or unicodedata.category(char) == "Zs"


@cache
def _cmap(path: Path) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True) as font:
        return frozenset(font.getBestCmap())


@cache
def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digits(book: FontBook, family: str) -> set[str]:
    """Every decimal digit a family has (0-9, and Vazirmatn's ٠-٩ and ۰-۹): what a page that writes
    its numbers in the digits the browser gives its language can show."""
    regular = book.families[family].get("regular")
    if regular is None:
        return set()
    return {chr(code) for code in _cmap(regular) if unicodedata.category(chr(code)) == "Nd"}


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
        except Unwritable:
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
