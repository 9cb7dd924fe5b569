"""PDF/X-1a for print services: an RGB card PDF in, the same pages separated into CMYK out.

In: PDF bytes as :mod:`cardgen.cards.render` writes them (colours set with ``rg``/``RG``, greys
with ``g``/``G``, pictures as RGB or grey image XObjects, icons as form XObjects, every
font embedded), a CMYK output profile, the service's total ink limit, and a label for each
page (which card side it is) to name in problems.

Out: :func:`convert` returns the PDF with every RGB colour and every RGB picture sent
through the profile (sRGB in, relative colorimetric with black point compensation) and
written as DeviceCMYK, greys left as they are (DeviceGray prints with black ink only), a
PDF/X output intent that carries the profile, the PDF/X-1a:2003 keys in the document
information, PDF 1.4, and the page boxes as they were. It also returns every colour and
picture that prints with more total ink (C + M + Y + K) than the limit, page by page.

What this does not do is a full preflight: see docs/print-services.md. What it cannot
convert (a colour space other than RGB or grey, transparency, which PDF/X-1a forbids) is
raised as :class:`PdfXError`, never silently passed on.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from PIL import Image, ImageCms, ImageMath
from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ContentStream,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
    StreamObject,
    TextStringObject,
)

from cardgen.core import pypdf_private

PDFX_VERSION = "PDF/X-1a:2003"
_RGB = {b"rg": b"k", b"RG": b"K"}


class PdfXError(ValueError):
    """Something in the PDF that PDF/X-1a does not allow and this module does not convert."""


@dataclass(frozen=True)
class OutputCondition:
    identifier: str  # as registered with the ICC, e.g. "CGATS TR 003"
    info: str
    registry: str


@dataclass(frozen=True)
class InkOver:
    """A colour (or the darkest pixel of a picture) that prints with more ink than the limit."""

    page: int  # 0-based
    what: str  # "#1d1d1d", or "a picture 320 × 200 px"
    cmyk: tuple[float, float, float, float]  # per cent
    total: float  # per cent

    def describe(self) -> str:
        c, m, y, k = (round(v) for v in self.cmyk)
        return f"{self.what} prints as C{c} M{m} Y{y} K{k}, {self.total:.0f} % ink"


class _Separator:
    """sRGB colours and pictures to CMYK through one profile, each colour converted once."""

    def __init__(self, profile: Path):
        self.profile = profile.read_bytes()
        cmyk = ImageCms.ImageCmsProfile(io.BytesIO(self.profile))
        if cmyk.profile.xcolor_space.strip() != "CMYK":
            raise PdfXError(f"{profile.name} is not a CMYK profile")
        self.transform = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"),
            cmyk,
            "RGB",
            "CMYK",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
        )
        self.colors: dict[tuple[int, int, int], tuple[int, int, int, int]] = {}

    def color(self, rgb: tuple[int, int, int]) -> tuple[int, int, int, int]:
        if rgb not in self.colors:
            self.colors[rgb] = _cmyk_pixel(self.transformed(Image.new("RGB", (1, 1), rgb)), (0, 0))
        return self.colors[rgb]

    def image(self, image: Image.Image) -> Image.Image:
        return self.transformed(image.convert("RGB"))

    def transformed(self, rgb: Image.Image) -> Image.Image:
        cmyk = ImageCms.applyTransform(rgb, self.transform)
        assert cmyk is not None, "a transform that is not in place returns its image"
        return cmyk


def _byte(value) -> int:
    return max(0, min(255, round(float(value) * 255)))


def _cmyk_pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int, int]:
    # Pillow types a pixel for every mode at once; a CMYK image's is four bytes.
    return cast(tuple[int, int, int, int], image.getpixel(xy))


def _percent(cmyk: Sequence[int]) -> tuple[float, float, float, float]:
    return tuple(v * 100 / 255 for v in cmyk)  # type: ignore[return-value]


def _max_ink(image: Image.Image) -> tuple[float, tuple[float, float, float, float]]:
    """The most ink any pixel of a CMYK picture prints with, and that pixel's separation."""
    total = ImageMath.lambda_eval(
        lambda a: a["c"] + a["m"] + a["y"] + a["k"],
        c=image.getchannel(0),
        m=image.getchannel(1),
        y=image.getchannel(2),
        k=image.getchannel(3),
    )
    peak = total.getextrema()[1]
    if peak == 0:
        return 0.0, (0.0, 0.0, 0.0, 0.0)
    # The pixels that print the peak, as 255 in an 8-bit mask; the first of them stands for all.
    mask = ImageMath.lambda_eval(lambda a: (a["t"] == peak) * 255, t=total).convert("L")
    left, top, _, _ = mask.getbbox()
    row = next(y for y in range(top, image.height) if mask.getpixel((left, y)))
    return peak * 100 / 255, _percent(_cmyk_pixel(image, (left, row)))


class _Converter:
    def __init__(self, writer: PdfWriter, separator: _Separator, limit: float):
        self.writer = writer
        self.separator = separator
        self.limit = limit
        self.done: dict[int, list[InkOver]] = {}  # XObject id -> what it prints over the limit
        self.over: list[InkOver] = []

    def page(self, number: int, page) -> None:
        resources = page.get("/Resources", DictionaryObject()).get_object()
        content = ContentStream(page.get_contents(), self.writer)
        self.over += self.operations(number, content)
        self.over += self.xobjects(number, resources)
        self.check_states(resources)
        page.replace_contents(content)
        page.compress_content_streams()

    def operations(self, number: int, content: ContentStream) -> list[InkOver]:
        over = []
        operations = []
        for operands, operator in content.operations:
            if operator in (b"cs", b"CS", b"sc", b"SC", b"scn", b"SCN", b"sh", b"BI"):
                raise PdfXError(f"colour operator {operator.decode()} is not converted to CMYK")
            if operator in _RGB:
                rgb = tuple(_byte(v) for v in operands)
                cmyk = self.separator.color(rgb)  # type: ignore[arg-type]
                total = sum(cmyk) * 100 / 255
                if total > self.limit + 1e-9:
                    over.append(InkOver(number, "#{:02x}{:02x}{:02x}".format(*rgb), _percent(cmyk), total))
                operands = [FloatObject(round(v / 255, 4)) for v in cmyk]
                operator = _RGB[operator]
            operations.append((operands, operator))
        content.operations = operations
        return over

    def xobjects(self, number: int, resources) -> list[InkOver]:
        over = []
        for ref in resources.get("/XObject", DictionaryObject()).values():
            xobject = ref.get_object()
            key = ref.idnum if hasattr(ref, "idnum") else id(xobject)
            if key not in self.done:
                self.done[key] = self.xobject(xobject)
            over += [InkOver(number, o.what, o.cmyk, o.total) for o in self.done[key]]
        return over

    def xobject(self, xobject: StreamObject) -> list[InkOver]:
        if xobject["/Subtype"] == "/Form":
            resources = xobject.get("/Resources", DictionaryObject()).get_object()
            content = ContentStream(xobject, self.writer)
            over = self.operations(0, content) + self.xobjects(0, resources)
            self.check_states(resources)
            _replace_data(xobject, content.get_data())
            return over
        return self.picture(xobject)

    def picture(self, image: StreamObject) -> list[InkOver]:
        space = image.get("/ColorSpace")
        if "/SMask" in image or "/Mask" in image:
            raise PdfXError(
                "a picture has transparency, which PDF/X-1a does not allow: flatten it onto its "
                "background (save it without an alpha channel)"
            )
        if space == "/DeviceGray":
            return []
        if space != "/DeviceRGB" or image.get("/BitsPerComponent") != 8:
            raise PdfXError(f"a picture in {space} is not converted to CMYK")
        width, height = int(cast(NumberObject, image["/Width"])), int(cast(NumberObject, image["/Height"]))
        data = image.get_data()
        filters = image.get("/Filter")
        if filters == "/DCTDecode" or filters == ["/DCTDecode"]:
            rgb = Image.open(io.BytesIO(data)).convert("RGB")
        else:
            rgb = Image.frombytes("RGB", (width, height), data)
        cmyk = self.separator.image(rgb)
        if "/Decode" in image:
            del image["/Decode"]
        image[NameObject("/ColorSpace")] = NameObject("/DeviceCMYK")
        _replace_data(image, cmyk.tobytes())
        total, separation = _max_ink(cmyk)
        if total > self.limit + 1e-9:
            return [InkOver(0, f"a picture ({width} × {height} px)", separation, total)]
        return []

    @staticmethod
    def check_states(resources) -> None:
        for state in resources.get("/ExtGState", DictionaryObject()).values():
            state = state.get_object()
            if (
                any(float(state.get(key, 1)) < 1 for key in ("/ca", "/CA"))
                or state.get("/SMask", "/None") != "/None"
                or state.get("/BM", "/Normal") not in ("/Normal", "/Compatible")
            ):
                raise PdfXError("a graphics state uses transparency, which PDF/X-1a does not allow")


def _replace_data(stream: StreamObject, data: bytes) -> None:
    """The stream's decoded content replaced, Flate-compressed whatever filters it had."""
    if "/DecodeParms" in stream:
        del stream["/DecodeParms"]
    stream[NameObject("/Filter")] = NameObject("/FlateDecode")
    stream.set_data(data)


def _output_intent(writer: PdfWriter, profile: bytes, condition: OutputCondition) -> None:
    stream = DecodedStreamObject()
    stream.set_data(profile)
    stream[NameObject("/N")] = NumberObject(4)
    intent = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/OutputIntent"),
            NameObject("/S"): NameObject("/GTS_PDFX"),
            NameObject("/OutputConditionIdentifier"): TextStringObject(condition.identifier),
            NameObject("/OutputCondition"): TextStringObject(condition.info),
            NameObject("/Info"): TextStringObject(condition.info),
            NameObject("/RegistryName"): TextStringObject(condition.registry),
            NameObject("/DestOutputProfile"): pypdf_private.add_object(writer, stream.flate_encode()),
        }
    )
    writer.root_object[NameObject("/OutputIntents")] = ArrayObject([pypdf_private.add_object(writer, intent)])


def convert(pdf: bytes, profile: Path, condition: OutputCondition, ink_limit: float) -> tuple[bytes, list[InkOver]]:
    """The PDF separated into CMYK with a PDF/X-1a output intent, and what prints over `ink_limit` %."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    converter = _Converter(writer, _Separator(profile), ink_limit)
    for number, page in enumerate(writer.pages):
        converter.page(number, page)
    _output_intent(writer, converter.separator.profile, condition)
    info = pypdf_private.info(writer)
    info[NameObject("/GTS_PDFXVersion")] = TextStringObject(PDFX_VERSION)
    info[NameObject("/Trapped")] = NameObject("/False")
    writer.pdf_header = b"%PDF-1.4"
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue(), converter.over
