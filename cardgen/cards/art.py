"""Card art: a designer's PNG or JPEG fitted into a card's art box, ready to embed.

:func:`place` opens the image, honours its EXIF orientation, fits it into the box
keeping its aspect (``contain``: the whole image, letterboxed and centred;
``cover``: the box filled, the image cropped around a focal point), converts it
to RGB (RGBA when it has real transparency), downsamples it to the print
resolution and returns it PNG-encoded with where to draw it. Nothing is ever
upscaled: a source with fewer pixels than the print resolution needs keeps its
own pixels, and :attr:`Placed.dpi` says how coarse it is (see :func:`too_small`
and :func:`resolution_warning`).

Only PNG and JPEG are accepted, judged by the format Pillow detects in the
file's content, not by its extension (MPO, the multi-picture JPEG some cameras
write, counts as JPEG: Pillow reads its first picture). Anything else, an
unreadable file, a truncated one, or one whose header claims more than
:data:`MAX_PIXELS` (the budget that keeps a build's memory bounded: decoding
and converting a picture takes a few bytes per pixel several times over) or
more than Pillow's decompression-bomb limit (``Image.MAX_IMAGE_PIXELS``, left
untouched) raises :class:`ArtError` with a one-line message that names the
file and its size. The file is read by the rule of :mod:`cardgen.core.contained`.

Conversions: CMYK, greyscale and RGB with an embedded ICC profile are converted
to sRGB through that profile (plain conversion when there is none or it is
unusable); 16-bit greyscale is scaled, not clipped, to 8 bits; palette, LA and
RGBA images keep their transparency; a fully opaque alpha channel is dropped.
The PNG bytes carry no metadata (no ICC profile, EXIF, text or time chunks) and
are identical for identical input, so :attr:`Placed.key` (the SHA-256 of those
bytes) is stable across runs. Results are cached on the file's resolved path,
modification time and size plus the other arguments, so 36 copies of a card
prepare the image once.

Embedding each prepared image once -- what the renderer must do
-----------------------------------------------------------------
Draw with ``canvas.drawImage(reader, pt(x), pt(y), pt(w), pt(h), mask="auto")``
where ``reader = ImageReader(io.BytesIO(placed.png))``. ReportLab names an
image XObject by the MD5 of its decoded pixels plus the ``mask`` argument and
reuses the XObject whenever the name repeats, anywhere in the document, so the
same ``Placed`` drawn on many cards and pages is embedded once (an RGBA image
as one image plus one SMask). For that to hold:

* always pass the same ``mask`` -- use ``mask="auto"``; it is also what makes
  ReportLab turn the alpha channel into an SMask (with ``mask=None`` the
  transparency of an RGBA image is silently lost);
* keep one ``ImageReader`` per :attr:`Placed.key` (a dict on the painter):
  dedupe works with fresh readers too, but each fresh reader decodes the PNG
  and hashes its pixels again on every draw;
* do not pass file paths: ReportLab would name the image by the path and embed
  the unprepared original.

Caveat (ReportLab, not this module): the name covers pixel bytes, not the
image's shape, so two *different* prepared images with byte-identical pixels
-- in practice only uniform single-colour images with the same pixel count,
e.g. 10x20 and 20x10 -- share one XObject and the second is drawn with the
first one's pixels. Real art does not hit this.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
import re
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

from cardgen.core import contained, limits, units

FITS = ("contain", "cover")
# Decoded pixels: the budget of every picture (a poker card's art box takes about 600 x 310 at 300
# DPI). A JPEG counts as the decoder's draft scaling reads it, so a camera's large photo passes.
MAX_PIXELS = limits.MAX_PIXELS
MAX_ART_BYTES = 64 * 1024 * 1024
ACCEPTED = {"PNG": "PNG", "JPEG": "JPEG", "MPO": "JPEG"}
PNG_COMPRESS_LEVEL = 6
_EPS = 1e-6
_SIXTEEN_BIT = ("I;16", "I;16B", "I;16L", "I;16N", "I")
_SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


class ArtError(ValueError):
    """An art image that cannot be used; the message is one line and names the file."""


@dataclass(frozen=True)
class Placed:
    """A prepared image and where to draw it, in mm relative to the box's bottom-left corner."""

    key: str  # SHA-256 of png: the renderer embeds one image per key
    png: bytes  # RGB, or RGBA when it has transparency; deterministic
    x: float
    y: float
    w: float
    h: float
    dpi: float  # the source's resolution at this printed size, before downsampling


def place(
    path: Path,
    box_w: float,
    box_h: float,
    fit: str = "contain",
    focus: tuple[float, float] = (0.5, 0.5),
    dpi: float = 300.0,
) -> Placed:
    """Fits the image at `path` into a box of box_w x box_h mm.

    `focus` is a point of the image as fractions of its width and height
    ((0, 0) top-left, (1, 1) bottom-right); ``cover`` centres its crop on it as
    far as the image allows. `dpi` is the print resolution to downsample to.
    """
    path = Path(path)
    if fit not in FITS:
        raise ArtError(f"{path.name}: fit must be one of {', '.join(FITS)}, not {fit!r}")
    if not (box_w > 0 and box_h > 0):
        raise ArtError(f"{path.name}: the art box must have a positive size, not {box_w} x {box_h} mm")
    if not dpi > 0:
        raise ArtError(f"{path.name}: the print resolution must be positive, not {dpi}")
    try:
        fx, fy = (float(v) for v in focus)
    except (TypeError, ValueError):
        raise ArtError(f"{path.name}: focus must be two fractions (x, y), not {focus!r}") from None
    if not (0 <= fx <= 1 and 0 <= fy <= 1):
        raise ArtError(f"{path.name}: focus fractions must lie between 0 and 1, not {focus!r}")
    resolved = Path(os.path.realpath(path))
    try:
        stat = resolved.stat()
    except OSError as exc:
        raise ArtError(f"{path.name}: cannot read the file ({exc.strerror or exc})") from None
    return _prepare(resolved, stat.st_mtime_ns, stat.st_size, float(box_w), float(box_h), fit, (fx, fy), float(dpi))


def too_small(placed: Placed, minimum_dpi: float = 150.0) -> bool:
    """Whether the source image is coarser than `minimum_dpi` at its printed size."""
    return placed.dpi < minimum_dpi


def resolution_warning(path: Path, placed: Placed, minimum_dpi: float = 150.0) -> str | None:
    """The warning for an image too coarse for print, naming it; None when it is fine."""
    if not too_small(placed, minimum_dpi):
        return None
    return (
        f"{Path(path).name}: only {placed.dpi:.0f} DPI at {placed.w:.1f} x {placed.h:.1f} mm "
        f"(at least {minimum_dpi:.0f} needed for print); it will look blurry"
    )


def clear_cache() -> None:
    """Forgets every prepared image."""
    _prepare.cache_clear()


# -- preparation ------------------------------------------------------------------------------


def _inches(mm_value: float) -> float:
    return units.px(mm_value, 1.0)


def _ceil(value: float) -> int:
    """Whole pixels covering `value`, ignoring floating-point dust."""
    return max(1, math.ceil(value - _EPS))


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


@dataclass(frozen=True)
class _Geometry:
    crop: tuple[float, float, float, float]  # left, top, right, bottom in source pixels
    x: float
    y: float
    w: float
    h: float
    dpi: float  # source pixels per inch at the printed size
    target: tuple[int, int]  # pixels at the print resolution


def _geometry(
    width: int, height: int, box_w: float, box_h: float, fit: str, focus: tuple[float, float], dpi: float
) -> _Geometry:
    if fit == "contain":
        scale = min(box_w / width, box_h / height)  # mm per source pixel
        w, h = width * scale, height * scale
        x, y = (box_w - w) / 2, (box_h - h) / 2
        crop = (0.0, 0.0, float(width), float(height))
    else:
        scale = max(box_w / width, box_h / height)
        x, y, w, h = 0.0, 0.0, box_w, box_h
        cw, ch = min(width, box_w / scale), min(height, box_h / scale)
        left = min(max(focus[0] * width - cw / 2, 0.0), width - cw)
        top = min(max(focus[1] * height - ch / 2, 0.0), height - ch)
        crop = (left, top, left + cw, top + ch)
    source_dpi = (crop[2] - crop[0]) / _inches(w)
    target = (_ceil(units.px(w, dpi)), _ceil(units.px(h, dpi)))
    return _Geometry(crop, x, y, w, h, source_dpi, target)


@lru_cache(maxsize=256)
def _prepare(
    path: Path, mtime_ns: int, size: int, box_w: float, box_h: float, fit: str, focus: tuple[float, float], dpi: float
) -> Placed:
    name = path.name
    kind = None
    try:
        data = contained.read(path, path.parent, MAX_ART_BYTES)
    except contained.Refused as exc:
        raise ArtError(f"{name}: {exc}") from None
    try:
        with warnings.catch_warnings():
            # Pillow only warns between MAX_IMAGE_PIXELS and twice that; treat both as bombs.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                kind = ACCEPTED.get(im.format or "")
                if kind is None:
                    found = im.format or "unknown"
                    raise ArtError(f"{name}: a {found} image; only PNG and JPEG are accepted")
                out, geo = _decode(im, name, box_w, box_h, fit, focus, dpi)
    except ArtError:
        raise
    except UnidentifiedImageError:
        raise ArtError(f"{name}: not an image Pillow can read; only PNG and JPEG are accepted") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        claimed = re.search(r"\((\d+) pixels\)", str(exc))
        raise ArtError(
            f"{name}: claims {claimed.group(1) + ' pixels' if claimed else 'more pixels'}, more than "
            f"Pillow opens (a possible decompression bomb); cardgen takes pictures of up to "
            f"{MAX_PIXELS // 1_000_000} megapixels: scale it down"
        ) from None
    except MemoryError:
        raise ArtError(f"{name}: too large to decode in memory") from None
    except Exception as exc:  # Pillow's decoders raise OSError, SyntaxError, ValueError, struct.error...
        what = f"the {kind} image" if kind else "the file"
        raise ArtError(f"{name}: cannot decode {what} ({_one_line(exc)})") from None

    out.info = {}  # Pillow would copy an ICC profile or transparency into the PNG
    buffer = io.BytesIO()
    out.save(buffer, "PNG", optimize=False, compress_level=PNG_COMPRESS_LEVEL, pnginfo=None)
    png = buffer.getvalue()
    return Placed(hashlib.sha256(png).hexdigest(), png, geo.x, geo.y, geo.w, geo.h, geo.dpi)


def _decode(
    im: Image.Image, name: str, box_w: float, box_h: float, fit: str, focus: tuple[float, float], dpi: float
) -> tuple[Image.Image, _Geometry]:
    """Loads, orients, converts and crops/downsamples; returns the RGB or RGBA image and its geometry.
    A picture that would decode to more than MAX_PIXELS is refused before it is decoded."""
    orientation = im.getexif().get(0x0112, 1)
    swapped = orientation in (5, 6, 7, 8)
    width, height = (im.height, im.width) if swapped else im.size
    geo = _geometry(width, height, box_w, box_h, fit, focus, dpi)
    left, top, right, bottom = geo.crop
    shrink = (right - left) > geo.target[0] and (bottom - top) > geo.target[1]

    if shrink and im.format in ("JPEG", "MPO"):
        # Let the JPEG decoder scale by 1/2, 1/4 or 1/8 while keeping at least twice the pixels
        # that the final resampling needs: much faster for camera photos, same quality.
        need_w = math.ceil(2 * geo.target[0] * width / (right - left))
        need_h = math.ceil(2 * geo.target[1] * height / (bottom - top))
        im.draft(None, (need_h, need_w) if swapped else (need_w, need_h))
    if im.width * im.height > MAX_PIXELS:  # as decoded: a JPEG's draft scaling counts
        raise ArtError(
            f"{name}: a picture of {width} × {height} pixels ({width * height / 1e6:.0f} megapixels); "
            f"cardgen takes pictures of up to {MAX_PIXELS // 1_000_000} megapixels: scale it down "
            f"(about {geo.target[0]} × {geo.target[1]} is plenty for its box)"
        )
    im.load()
    im = _to_rgb(ImageOps.exif_transpose(im))
    sx, sy = im.width / width, im.height / height  # 1 unless the decoder scaled

    if shrink:
        # Pillow resamples RGBA premultiplied, so transparent pixels' colour does not bleed.
        box = (left * sx, top * sy, right * sx, bottom * sy)
        im = im.resize(geo.target, Image.Resampling.LANCZOS, box=box, reducing_gap=3.0)
    elif fit == "cover":
        # Keep the source's own pixels: crop to whole pixels, never upscale.
        cw, ch = max(1, round(right - left)), max(1, round(bottom - top))
        x0 = min(max(0, round(left)), im.width - cw)
        y0 = min(max(0, round(top)), im.height - ch)
        im = im.crop((x0, y0, x0 + cw, y0 + ch))
    return im, geo


def _to_rgb(im: Image.Image) -> Image.Image:
    """The image as 8-bit sRGB, RGBA when it has any transparency."""
    icc = im.info.get("icc_profile")
    if im.mode in _SIXTEEN_BIT:
        # Pillow's I;16 -> L conversion clips at 255 (almost everything white): scale instead.
        im = im.convert("I").point(lambda v: v * (1 / 257)).convert("L")
    if im.mode in ("P", "PA", "1") or "transparency" in im.info:
        has_alpha = im.mode == "PA" or "transparency" in im.info
        im = im.convert("RGBA" if has_alpha else "RGB")
    alpha = None
    if im.mode in ("RGBA", "LA", "RGBa", "La"):
        alpha = im.getchannel("A")
        im = im.convert("L" if im.mode in ("LA", "La") else "RGB")
        if alpha.getextrema() == (255, 255):
            alpha = None
    rgb = None
    if icc:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            rgb = ImageCms.profileToProfile(im, source, _SRGB, outputMode="RGB")
        except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
            rgb = None  # unusable or mismatched profile: fall back to a plain conversion
    if rgb is None:
        rgb = im.convert("RGB")
    return rgb if alpha is None else Image.merge("RGBA", (*rgb.split(), alpha))
