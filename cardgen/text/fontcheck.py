"""TrueType files from a project: a font file's bytes in, the reason ReportLab must not parse it
(or None) out.

ReportLab trusts a font's tables: a character map claiming every code point from 0 to 2³²
makes it fill a dictionary until memory runs out, a glyph made of a glyph that is not there
fails deep inside the PDF writer. Every table ReportLab walks is checked here first, in time and
memory proportional to the file (which is itself limited), so a hostile font is refused in
milliseconds with a reason, and a font that passes is parsed by ReportLab in bounded time.
"""

from __future__ import annotations

import struct

MAX_FONT_BYTES = 64 * 1024 * 1024
MAX_TABLES = 256
# A character map covers Unicode once; overlapping ranges beyond twice that are no real font's.
MAX_CODE_POINTS = 2 * 0x110000
_COMPOSITE_MORE, _WORDS, _SCALE, _XY_SCALE, _TWO_BY_TWO = 0x0020, 0x0001, 0x0008, 0x0040, 0x0080


class _Bad(Exception):
    pass


class _Reader:
    def __init__(self, data: bytes):
        self.data = data

    def unpack(self, fmt: str, offset: int) -> tuple:
        size = struct.calcsize(fmt)
        if offset < 0 or offset + size > len(self.data):
            raise _Bad("a table reaches past the end of the file")
        return struct.unpack_from(fmt, self.data, offset)


def problem(data: bytes) -> str | None:
    """Why these bytes are not a TrueType font cardgen may hand to ReportLab, or None."""
    try:
        _check(_Reader(data))
    except _Bad as exc:
        return str(exc)
    return None


def _check(r: _Reader) -> None:
    if len(r.data) < 12:
        raise _Bad("too short to be a font")
    (version,) = r.unpack(">I", 0)
    if version == 0x4F54544F:  # OTTO
        raise _Bad("an OpenType font with PostScript (CFF) outlines; only TrueType outlines work")
    if version == 0x74746366:  # ttcf
        raise _Bad("a font collection (.ttc); give one TrueType font")
    if version not in (0x00010000, 0x74727565):
        raise _Bad("not a TrueType font")
    (count,) = r.unpack(">H", 4)
    if not 0 < count <= MAX_TABLES:
        raise _Bad(f"a font claiming {count} tables")
    tables = {}
    for index in range(count):
        tag, _, offset, length = r.unpack(">4sIII", 12 + 16 * index)
        if offset + length > len(r.data):
            name = tag.decode("latin-1")
            raise _Bad(
                f"its '{name}' table reaches past the end of the file"
                if name.isprintable()
                else "a table reaches past the end of the file"
            )
        tables[tag] = (offset, length)
    for tag in (b"head", b"hhea", b"maxp", b"hmtx", b"cmap", b"loca", b"glyf"):
        if tag not in tables:
            raise _Bad(f"a font without a '{tag.decode()}' table")
    (glyphs,) = r.unpack(">H", tables[b"maxp"][0] + 4)
    (metrics,) = r.unpack(">H", tables[b"hhea"][0] + 34)
    if not 0 < metrics <= glyphs:
        raise _Bad(f"a font with {metrics} horizontal metrics for {glyphs} glyphs")
    if tables[b"hmtx"][1] < 4 * metrics + 2 * (glyphs - metrics):
        raise _Bad("a font whose 'hmtx' table is too short for its glyphs")
    _check_cmap(r, *tables[b"cmap"])
    _check_glyphs(r, tables, glyphs)


def _check_cmap(r: _Reader, start: int, length: int) -> None:
    """The subtable ReportLab picks (it prefers the last of the same kinds, as here) must be bounded."""
    version, count = r.unpack(">HH", start)
    if count == 0 and version != 0:
        count = version
    chosen, kind = None, 0
    for index in range(count):
        platform, encoding, offset = r.unpack(">HHI", start + 4 + 8 * index)
        if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
            chosen, kind = offset, 1
        elif platform == 1 and encoding == 0 and kind != 1:
            chosen, kind = offset, 2
    if chosen is None:
        return  # ReportLab says so itself
    at = start + chosen
    if chosen >= length:
        raise _Bad("its character map points past its table")
    (fmt,) = r.unpack(">H", at)
    if fmt in (8, 10, 12, 13):
        (size,) = r.unpack(">I", at + 4)
    else:
        (size,) = r.unpack(">H", at + 2)
    if at + size > start + length or size < 6:
        raise _Bad("its character map is longer than its table")
    covered = 0
    if fmt == 4:
        (double,) = r.unpack(">H", at + 6)
        segments = double // 2
        if 16 + 8 * segments > size:
            raise _Bad("its character map claims more ranges than it holds")
        for n in range(segments):
            (end,) = r.unpack(">H", at + 14 + 2 * n)
            (first,) = r.unpack(">H", at + 16 + 2 * segments + 2 * n)
            covered += max(0, end - first + 1)
    elif fmt in (6, 10):
        first, number = r.unpack(">HH", at + 6) if fmt == 6 else r.unpack(">II", at + 12)
        if (10 if fmt == 6 else 20) + 2 * number > size:
            raise _Bad("its character map claims more characters than it holds")
    elif fmt in (12, 13):
        (groups,) = r.unpack(">I", at + 12)
        if 16 + 12 * groups > size:
            raise _Bad("its character map claims more ranges than it holds")
        for n in range(groups):
            first, end, _ = r.unpack(">III", at + 16 + 12 * n)
            if first > end or end > 0x10FFFF:
                raise _Bad(f"its character map claims characters U+{first:X} to U+{end:X}, beyond Unicode")
            covered += end - first + 1
    if covered > MAX_CODE_POINTS:
        raise _Bad(f"its character map claims {covered} characters, more than Unicode has")


def _check_glyphs(r: _Reader, tables: dict, glyphs: int) -> None:
    """Glyph offsets inside 'glyf', and composite glyphs made only of glyphs the font has."""
    (long_offsets,) = r.unpack(">h", tables[b"head"][0] + 50)
    loca, loca_length = tables[b"loca"]
    glyf, glyf_length = tables[b"glyf"]
    step, fmt, scale = (4, ">I", 1) if long_offsets else (2, ">H", 2)
    if loca_length < step * (glyphs + 1):
        raise _Bad("a font whose 'loca' table is too short for its glyphs")
    # Every table lies inside the file (_check): 'loca' holds glyphs + 1 offsets, and a glyph that lies
    # inside 'glyf' can be read without asking each time. A font has tens of thousands of glyphs.
    positions = [offset * scale for offset in r.unpack(f">{glyphs + 1}{fmt[1]}", loca)]
    contour_count = struct.Struct(">h").unpack_from
    for n in range(glyphs):
        begin, end = positions[n], positions[n + 1]
        if end < begin or end > glyf_length:
            raise _Bad(f"a font whose glyph {n} lies outside its 'glyf' table")
        if end - begin < 10:
            continue
        (contours,) = contour_count(r.data, glyf + begin)
        if contours >= 0:
            continue
        at, flags = glyf + begin + 10, _COMPOSITE_MORE
        while flags & _COMPOSITE_MORE:
            if at + 4 > glyf + end:
                raise _Bad(f"a font whose composite glyph {n} runs past its end")
            flags, part = r.unpack(">HH", at)
            if part >= glyphs:
                raise _Bad(f"a font whose glyph {n} is made of glyph {part}, which it does not have")
            at += (
                4
                + (4 if flags & _WORDS else 2)
                + (2 if flags & _SCALE else 4 if flags & _XY_SCALE else 8 if flags & _TWO_BY_TWO else 0)
            )
