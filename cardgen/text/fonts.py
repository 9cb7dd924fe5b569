"""The font book: templates/fonts.yaml and font directories in, ReportLab font names out.

A :class:`FontBook` knows the font families, which family draws a character
first in each language (ReportLab has no per-glyph fallback), which characters
no family has, and how text splits into runs of one registered font each.

Fonts are parsed lazily and once per process: a CJK TrueType file is about
10 MB and costs a noticeable fraction of a second to parse, and English text
never needs it. Registered names are fixed ("NotoSans-Bold") so that the same
input gives a byte-identical PDF.
"""

from __future__ import annotations

import io
import re
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import groupby
from pathlib import Path

import yaml
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from cardgen.core import contained, yaml12
from cardgen.text import fontcheck, shaping
from cardgen.text.markup import Span
from cardgen.text.writing import JOINERS

FACES = ("regular", "bold", "italic", "bold-italic")
_FACE_OF_STYLE = {
    (False, False): "regular",
    (True, False): "bold",
    (False, True): "italic",
    (True, True): "bold-italic",
}
# Which face stands in when a family lacks one; weight matters more than slant.
_STAND_INS = {
    "regular": ("regular",),
    "bold": ("bold", "regular"),
    "italic": ("italic", "regular"),
    "bold-italic": ("bold-italic", "bold", "italic", "regular"),
}
_NAME_SUFFIX = {"regular": "Regular", "bold": "Bold", "italic": "Italic", "bold-italic": "BoldItalic"}

# The "font" of an inline icon piece: its text is the card id, drawn by a callback, not a font.
ICON = "cardgen-icon"

# Shared by every FontBook: a font is parsed and registered once per process, by its bytes, so
# that a copy of a bundled font under another name is the same font (ReportLab keeps one per
# PostScript name and would otherwise refuse the second). Kept by length with its bytes (those
# ReportLab holds, not a copy): a font is found by comparing the few of its length, not by hashing 10 MB.
_LOADED: dict[int, list[tuple[bytes, TTFont]]] = {}
_FILES: dict[bytes, Path] = {}  # PostScript name -> the file it was registered from


class FontError(ValueError):
    """A font file that cannot be used, and which files it is about."""

    def __init__(self, paths: tuple[Path, ...], message: str):
        self.paths = paths
        super().__init__(message)


def _face_key(bold: bool, italic: bool) -> str:
    """The fonts.yaml face name for a style."""
    return _FACE_OF_STYLE[bool(bold), bool(italic)]


@dataclass(eq=False)
class FontBook:
    """Font families, per-language fallback orders, and the languages whose lines break other than between
    words (CJK, keep-all) or run right to left.

    Compared and hashed by identity, so that layouts can be cached per book.
    """

    families: Mapping[str, Mapping[str, Path]]
    fallback: Mapping[str, tuple[str, ...]]
    cjk: frozenset[str] = frozenset()
    leadings: Mapping[str, float] = field(default_factory=dict)  # by language, and "default"
    rtl: frozenset[str] = frozenset()
    # Families of an extra that is not installed (fonts.yaml's `extra:`), by name: the extra. They are in
    # no fallback order; a character only they would have is reported with the extra to install.
    absent: Mapping[str, str] = field(default_factory=dict)
    wanted: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # each order's absent families
    keep_all: frozenset[str] = frozenset()
    # The extra that installs a language's own family (the first of its order), by language: Persian's.
    extras: Mapping[str, str] = field(default_factory=dict)
    _fonts: dict[tuple[str, str], TTFont] = field(default_factory=dict, repr=False)
    # A deck sets the same texts again and again (every copy, every size tried): each split once.
    _runs: dict[tuple[str, bool, bool, str], tuple[tuple[str, str], ...]] = field(default_factory=dict, repr=False)
    # By fallback order and face: each character's font name, None where no family has it.
    _chosen: dict[tuple[tuple[str, ...], str], dict[str, str | None]] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, spec_file: Path, font_dirs: Sequence[Path], extra: Mapping | None = None) -> FontBook:
        """Reads fonts.yaml; font files are looked up in font_dirs, first match wins.

        `extra` (a game's own `fonts:`) adds families and replaces fallback orders
        per language, so a designer's font serves one game without touching the rest.
        """
        try:
            data = contained.read(Path(spec_file), Path(spec_file).parent, 1024 * 1024)
            spec = yaml12.safe_load(data.decode("utf-8"))
        except contained.Refused as error:
            raise ValueError(f"{Path(spec_file).name}: {error}") from None
        except UnicodeDecodeError:
            raise ValueError(f"{Path(spec_file).name}: not UTF-8 text") from None
        except yaml.YAMLError as error:
            raise ValueError(f"{Path(spec_file).name}: YAML error: {str(error).splitlines()[0]}") from None
        if extra:
            spec = {
                **spec,
                "families": {**spec.get("families", {}), **extra.get("families", {})},
                "fallback": {**spec.get("fallback", {}), **extra.get("fallback", {})},
            }
        if not isinstance(spec, dict):
            raise ValueError(f"{spec_file}: expected a mapping with families and fallback")
        families: dict[str, Mapping[str, Path]] = {}
        absent: dict[str, str] = {}
        installers: dict[str, str] = {}
        for name, faces in _mapping(spec_file, spec, "families").items():
            installer = _extra(spec_file, name, faces)
            if installer:
                installers[name] = installer
            if installer and not _found(str(faces["regular"]), font_dirs):
                absent[name] = installer
            else:
                families[name] = _face_files(spec_file, name, faces, font_dirs)
        orders = {
            lang: _order(spec_file, lang, order, {**families, **absent})
            for lang, order in _mapping(spec_file, spec, "fallback").items()
        }
        if "default" not in orders:
            raise ValueError(f"{spec_file}: fallback needs a default order")
        if not families:
            raise ValueError(f"{spec_file}: no family's fonts are installed")
        present = {lang: tuple(family for family in order if family not in absent) for lang, order in orders.items()}
        # A language none of whose families is installed is drawn as far as the default order can, and
        # the characters it cannot draw are reported with the extra to install.
        default = present["default"] or (next(iter(families)),)
        return cls(
            families,
            {lang: order or default for lang, order in present.items()},
            _languages(spec_file, spec.get("cjk") or [], "cjk"),
            _leadings(spec_file, spec.get("leading") or {}),
            _languages(spec_file, spec.get("rtl") or [], "rtl"),
            absent,
            {lang: tuple(f for f in order if f in absent) for lang, order in orders.items()},
            _languages(spec_file, spec.get("keep-all") or [], "keep-all"),
            {lang: installers[order[0]] for lang, order in orders.items() if order and order[0] in installers},
        )

    def is_cjk(self, lang: str) -> bool:
        """Whether lines of this language break between characters."""
        return _among(lang, self.cjk)

    def is_keep_all(self, lang: str) -> bool:
        """Whether lines of this language break only at spaces, a word's syllables kept together."""
        return _among(lang, self.keep_all)

    def is_rtl(self, lang: str) -> bool:
        """Whether the language is written right to left."""
        return _among(lang, self.rtl)

    def leading(self, lang: str) -> float:
        """The least line height of the language, as a multiple of the type size."""
        return self.leadings.get(lang) or self.leadings.get(primary(lang)) or self.leadings.get("default", 1.2)

    def order(self, lang: str) -> tuple[str, ...]:
        """The families asked for a character, first to last."""
        return self.fallback.get(lang) or self.fallback.get(primary(lang)) or self.fallback["default"]

    def extra(self, lang: str) -> str | None:
        """The extra of cardgen that installs the language's own family (Persian's, Japanese's), or None
        for one drawn by cardgen's own fonts; whether or not it is installed here."""
        return self.extras.get(lang) or self.extras.get(primary(lang))

    def lacking(self, lang: str) -> str:
        """What to install for the characters of lang that no installed family has ("" when nothing is
        missing from its order): "Noto Sans JP, which cardgen's 'world' extra installs: ..." """
        wanted = self.wanted.get(lang) or self.wanted.get(primary(lang)) or self.wanted.get("default") or ()
        if not wanted:
            return ""
        extras = sorted({self.absent[family] for family in wanted})
        names = ", ".join(_spaced(family) for family in wanted)
        which = "which cardgen's " + " and ".join(f"'{extra}'" for extra in extras) + " extra installs"
        install = " ".join(f'"cardgen[{extra}]"' for extra in extras)
        return f"{names}, {which}, is not installed: pip install {install}"

    def face(self, family: str, bold: bool, italic: bool) -> str:
        """The registered ReportLab font name of a family's face; registers it on first use."""
        return self._font(family, _face_key(bold, italic)).fontName

    def missing(self, text: str, lang: str, bold: bool = False, italic: bool = False) -> list[str]:
        """Characters of text, in order and once each, that no family of lang's order has.

        Coverage is that of the faces for bold/italic; line breaks are not characters to draw.
        """
        chars = set(text)
        chosen = self._choose(text, chars, self.order(lang), _face_key(bold, italic))
        chars.discard("\n")
        if all(map(chosen.__getitem__, chars)):
            return []
        return [ch for ch in dict.fromkeys(text) if ch != "\n" and chosen[ch] is None]

    def runs(self, span: Span, lang: str) -> list[tuple[str, str]]:
        """(font name, text) pieces of a span, each character in the first family that has it."""
        if span.icon:
            return [(ICON, span.icon)]
        known = self._runs.get((span.text, span.bold, span.italic, lang))
        if known is None:
            known = self._runs[span.text, span.bold, span.italic, lang] = tuple(self._split(span, lang))
        return list(known)

    def _split(self, span: Span, lang: str) -> list[tuple[str, str]]:
        key = _face_key(span.bold, span.italic)
        order = self.order(lang)
        distinct = set(span.text)
        chosen = self._choose(span.text, distinct, order, key)
        fonts = set(map(chosen.__getitem__, distinct))
        if len(fonts) == 1:
            (only,) = fonts
            if only is not None:
                return [(only, span.text)]  # most texts: all in one font, found a character at a time
        pieces: list[tuple[str, str]] = []
        # A joiner stays with the letters it joins or parts, which are shaped together.
        for font, chars in groupby(span.text, lambda char: None if char in JOINERS else chosen[char]):
            # "\n", joiners and uncovered characters (missing() reports those) stay in the current run.
            font = font or (pieces[-1][0] if pieces else self._font(order[0], key).fontName)
            if pieces and pieces[-1][0] == font:
                pieces[-1] = (font, pieces[-1][1] + "".join(chars))
            else:
                pieces.append((font, "".join(chars)))
        return pieces

    def _choose(self, text: str, chars: set[str], order: tuple[str, ...], key: str) -> dict[str, str | None]:
        """The font name of each character of text, whose characters are `chars` (None: no family has it),
        remembered for the next text."""
        chosen = self._chosen.get((order, key))
        if chosen is None:
            chosen = self._chosen[order, key] = {}
        if chosen.keys() >= chars:
            return chosen  # most texts: every character seen before
        for ch in dict.fromkeys(text):
            if ch in chosen:
                continue
            family = self._family_for(ch, order, key)
            chosen[ch] = None if family is None else self._font(family, key).fontName
        return chosen

    def width(self, text: str, lang: str, size: float, bold: bool = False) -> float:
        """Advance width in points of one line of text at size pt."""
        return sum(shaping.advance(piece, font, size) for font, piece in self.runs(Span(text, bold), lang))

    def _family_for(self, ch: str, order: Sequence[str], key: str) -> str | None:
        code = ord(ch)
        for family in order:
            face = self._font(family, key).face
            if code in face.charToGlyph and not shaping.added(face, code):
                return family
        return None

    def _font(self, family: str, key: str) -> TTFont:
        font = self._fonts.get((family, key))
        if font is None:
            if family not in self.families:
                raise ValueError(f"unknown font family {family!r}; fonts.yaml has {', '.join(self.families)}")
            faces = self.families[family]
            stand_in = next(k for k in _STAND_INS[key] if k in faces)
            font = self._fonts[family, key] = _register(f"{family}-{_NAME_SUFFIX[stand_in]}", faces[stand_in])
        return font


def _among(lang: str, languages: frozenset[str]) -> bool:
    """Whether a language, or its primary language ("zh" for "zh-Hans"), is one of `languages`."""
    return lang in languages or primary(lang) in languages


@cache  # asked for every text fitted, of a handful of languages
def primary(lang: str) -> str:
    """A language's primary subtag: "zh-Hans" → "zh"."""
    return lang.replace("_", "-").split("-")[0]


def _mapping(spec_file: Path, spec: dict, key: str) -> dict:
    value = spec.get(key)
    if not isinstance(value, dict) or not value:
        raise ValueError(f"{spec_file}: {key} must be a non-empty mapping")
    return value


def _languages(spec_file: Path, value: object, key: str) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(lang, str) for lang in value):
        raise ValueError(f"{spec_file}: {key} must be a list of language codes")
    return frozenset(value)


def _leadings(spec_file: Path, value: object) -> dict[str, float]:
    if not isinstance(value, dict) or not all(isinstance(v, (int, float)) and 1 <= v <= 3 for v in value.values()):
        raise ValueError(f"{spec_file}: leading must map language codes to line heights from 1 to 3")
    return {str(lang): float(v) for lang, v in value.items()}


def _extra(spec_file: Path, family: str, faces: object) -> str | None:
    """The extra that installs a family's files (`extra: world`), or None for fonts found in fonts/."""
    if not isinstance(faces, dict) or "regular" not in faces:
        raise ValueError(f"{spec_file}: family {family} needs at least a regular face")
    extra = faces.get("extra")
    if extra is not None and not (isinstance(extra, str) and extra.isidentifier()):
        raise ValueError(f"{spec_file}: family {family}: extra must be the name of one of cardgen's extras")
    return extra


def _found(file: str, font_dirs: Sequence[Path]) -> bool:
    return any(
        contained.reason(Path(directory) / file, Path(directory)) != contained.MISSING for directory in font_dirs
    )


def _spaced(family: str) -> str:
    """ "NotoSansJP" → "Noto Sans JP": a family as its makers name it."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", family)


def _face_files(spec_file: Path, family: str, faces: dict, font_dirs: Sequence[Path]) -> dict[str, Path]:
    faces = {key: file for key, file in faces.items() if key != "extra"}
    unknown = set(faces) - set(FACES)
    if unknown:
        raise ValueError(f"{spec_file}: family {family} has unknown faces {sorted(unknown)}; faces are {FACES}")
    return {key: _find_file(family, key, str(file), font_dirs) for key, file in faces.items()}


def _find_file(family: str, key: str, file: str, font_dirs: Sequence[Path]) -> Path:
    for directory in font_dirs:
        path = Path(directory) / file
        why = contained.reason(path, Path(directory))
        # A deck names its fonts: never let one reach out of the fonts folders.
        if why == contained.UNUSABLE:
            raise ValueError(f"font file name {file[:60]!r} ({family} {key}) is not a usable file name")
        if why == contained.OUTSIDE:
            raise ValueError(f"font file {file} ({family} {key}) is outside the fonts folder")
        if why is None:
            return path
        if why != contained.MISSING:
            raise ValueError(f"font file {file} ({family} {key}) is {why}")
    searched = ", ".join(str(d) for d in font_dirs) or "no font directories"
    raise ValueError(f"font file {file} ({family} {key}) not found in {searched}")


def _order(spec_file: Path, lang: str, order: object, families: Mapping[str, object]) -> tuple[str, ...]:
    if not isinstance(order, list) or not order:
        raise ValueError(f"{spec_file}: fallback {lang} must be a non-empty list of families")
    unknown = [family for family in order if family not in families]
    if unknown:
        raise ValueError(f"{spec_file}: fallback {lang} names unknown font families {unknown}")
    return tuple(order)


def _register(name: str, path: Path) -> TTFont:
    """Parses and registers a font file once per process, after checking its tables (fontcheck)."""
    try:
        data = contained.read(path, path.parent, fontcheck.MAX_FONT_BYTES)
    except contained.Refused as error:
        raise FontError((path,), f"cannot use font file {path.name}: {error}") from None
    font = next((known for same, known in _LOADED.get(len(data), ()) if same == data), None)
    if font is not None:
        return font
    reason = fontcheck.problem(data)
    if reason:
        raise FontError((path,), f"cannot use font file {path.name}: not a TrueType font cardgen can embed ({reason})")
    if name in pdfmetrics.getRegisteredFontNames():
        raise FontError((path,), f"font name {name} is already registered from another file than {path.name}")
    try:
        font = TTFont(name, io.BytesIO(data))
    except (TTFError, ValueError, struct.error, OSError, IndexError, KeyError) as error:
        # A damaged or non-TrueType file fails in many ways inside ReportLab's parser.
        raise FontError(
            (path,), f"cannot use font file {path.name}: not a TrueType font cardgen can embed ({error})"
        ) from None
    other = _FILES.get(font.face.name)
    if other is not None:
        # ReportLab keeps one font per PostScript name and would silently draw with the other file.
        first, second = sorted((other.name, path.name))
        raise FontError(
            (path, other),
            f"font files {first} and {second} have the same PostScript name "
            f"{font.face.name.decode('latin-1')!r} but are different fonts; "
            "one PDF cannot hold both: give one a name of its own",
        )
    pdfmetrics.registerFont(font)
    _FILES[font.face.name] = path
    _LOADED.setdefault(len(data), []).append((data, font))
    return font
