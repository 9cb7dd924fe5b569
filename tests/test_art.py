"""Card art: fitting, downsampling, colour modes, orientation, safety and embedding once."""

from __future__ import annotations

import hashlib
import io
import os
import struct
from pathlib import Path

import pytest
from PIL import Image, ImageCms
from pypdf import PdfReader
from pypdf.generic import IndirectObject
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from cardgen.cards import art
from cardgen.cards.art import ArtError, Placed, place, resolution_warning, too_small
from cardgen.core.units import pt

RED, BLUE = (255, 0, 0), (0, 0, 255)


@pytest.fixture(autouse=True)
def fresh_cache():
    art.clear_cache()
    yield
    art.clear_cache()


def halves(size: tuple[int, int], first=RED, second=BLUE, vertical: bool = False) -> Image.Image:
    """Left half `first`, right half `second` (or top / bottom when vertical)."""
    w, h = size
    im = Image.new("RGB", size, second)
    im.paste(first, (0, 0, w, h // 2) if vertical else (0, 0, w // 2, h))
    return im


def save(im: Image.Image, path: Path, fmt: str | None = None, **params) -> Path:
    im.save(path, fmt, **params)
    return path


def opened(placed: Placed) -> Image.Image:
    im = Image.open(io.BytesIO(placed.png))
    im.load()
    return im


def mean(im: Image.Image) -> tuple[int, ...]:
    """The average colour (a 1x1 box resample)."""
    return im.resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))


def png_chunks(data: bytes) -> list[bytes]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, i = [], 8
    while i < len(data):
        (length,) = struct.unpack(">I", data[i : i + 4])
        chunks.append(data[i + 4 : i + 8])
        i += 12 + length
    return chunks


def swapped_rgb_profile() -> bytes:
    """A minimal ICC v2 RGB profile whose red and blue primaries are swapped (gamma 2.2)."""

    def s15(v: float) -> bytes:
        return struct.pack(">i", round(v * 65536))

    def xyz(x: float, y: float, z: float) -> bytes:
        return b"XYZ \0\0\0\0" + s15(x) + s15(y) + s15(z)

    text = b"swapped primaries\0"
    desc = b"desc\0\0\0\0" + struct.pack(">I", len(text)) + text + bytes(4 + 4 + 2 + 1 + 67)
    curve = b"curv\0\0\0\0" + struct.pack(">IH", 1, 0x0233) + b"\0\0"
    red, green, blue = (0.4361, 0.2225, 0.0139), (0.3851, 0.7169, 0.0971), (0.1431, 0.0606, 0.7141)
    tags = [
        (b"desc", desc),
        (b"wtpt", xyz(0.9642, 1.0, 0.8249)),
        (b"rXYZ", xyz(*blue)),
        (b"gXYZ", xyz(*green)),
        (b"bXYZ", xyz(*red)),
        (b"rTRC", curve),
        (b"gTRC", curve),
        (b"bTRC", curve),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table, data = struct.pack(">I", len(tags)), b""
    for signature, body in tags:
        body += bytes(-len(body) % 4)
        table += signature + struct.pack(">II", offset + len(data), len(body))
        data += body
    size = offset + len(data)
    header = (
        struct.pack(">I", size)
        + bytes(4)
        + struct.pack(">I", 0x02100000)
        + b"mntrRGB XYZ "
        + bytes(12)
        + b"acsp"
        + bytes(24)
        + struct.pack(">I", 0)
        + s15(0.9642)
        + s15(1.0)
        + s15(0.8249)
        + bytes(4)
    )
    header += bytes(128 - len(header))
    return header + table + data


# -- fitting -----------------------------------------------------------------------------------


def test_contain_letterboxes_and_downsamples_to_300_dpi(tmp_path):
    path = save(halves((3000, 1500)), tmp_path / "wide.jpg", quality=95)
    placed = place(path, 40, 40, "contain")
    assert (placed.x, placed.y, placed.w, placed.h) == pytest.approx((0, 10, 40, 20))
    # 40 mm at 300 DPI is 472.44 px, 20 mm 236.22 px: rounded up so that print is at least 300 DPI.
    assert opened(placed).size == (473, 237)
    assert placed.dpi == pytest.approx(3000 / (40 / 25.4))
    assert not too_small(placed)


def test_contain_centres_a_tall_image_horizontally(tmp_path):
    path = save(halves((1000, 2000)), tmp_path / "tall.png")
    placed = place(path, 40, 40)
    assert (placed.x, placed.y, placed.w, placed.h) == pytest.approx((10, 0, 20, 40))
    assert opened(placed).size == (237, 473)


def test_print_resolution_is_an_argument(tmp_path):
    path = save(halves((3000, 1500)), tmp_path / "wide.png")
    assert opened(place(path, 40, 40, dpi=150)).size == (237, 119)


@pytest.mark.parametrize("fmt", ["png", "jpg"])
def test_cover_fills_the_box_and_crops_around_the_focus(tmp_path, fmt):
    path = save(halves((3000, 1500)), tmp_path / f"wide.{fmt}")
    left = place(path, 40, 40, "cover", focus=(0, 0.5))
    assert (left.x, left.y, left.w, left.h) == pytest.approx((0, 0, 40, 40))
    assert opened(left).size == (473, 473)
    r, g, b = mean(opened(left).convert("RGB"))
    assert r > 230 and b < 25, (r, g, b)

    right = place(path, 40, 40, "cover", focus=(1, 0.5))
    r, g, b = mean(opened(right).convert("RGB"))
    assert b > 230 and r < 25, (r, g, b)

    middle = place(path, 40, 40, "cover")
    r, g, b = mean(opened(middle).convert("RGB"))
    assert 100 < r < 155 and 100 < b < 155, (r, g, b)
    # Cover reports the resolution of the part that is shown: 1500 px over 40 mm.
    assert middle.dpi == pytest.approx(1500 / (40 / 25.4))


def test_cover_focus_works_vertically(tmp_path):
    path = save(halves((600, 1200), vertical=True), tmp_path / "tall.png")
    top = opened(place(path, 20, 20, "cover", focus=(0.5, 0)))
    bottom = opened(place(path, 20, 20, "cover", focus=(0.5, 1)))
    assert mean(top)[0] > 230 and mean(bottom)[2] > 230


def test_cover_never_upscales_a_small_source(tmp_path):
    path = save(halves((200, 100)), tmp_path / "small.png")
    placed = place(path, 40, 40, "cover", focus=(0, 0.5))
    assert (placed.w, placed.h) == (40, 40)
    assert opened(placed).size == (100, 100)
    assert mean(opened(placed)) == RED
    assert placed.dpi == pytest.approx(63.5)


def test_small_image_keeps_its_pixels_and_is_too_small(tmp_path):
    path = save(Image.new("RGB", (100, 100), "green"), tmp_path / "tiny.png")
    placed = place(path, 40, 40)
    assert opened(placed).size == (100, 100)
    assert placed.dpi == pytest.approx(63.5)
    assert too_small(placed)
    assert not too_small(placed, minimum_dpi=60)
    message = resolution_warning(path, placed)
    assert message.startswith("tiny.png: ") and "DPI" in message and "150" in message
    assert resolution_warning(path, place(path, 10, 10)) is None  # 254 DPI


# -- colour modes ------------------------------------------------------------------------------


def test_cmyk_jpeg_comes_out_rgb(tmp_path):
    im = Image.new("CMYK", (200, 100), (0, 255, 255, 0))  # process red
    path = save(im, tmp_path / "cmyk.jpg", quality=95)
    with Image.open(path) as check:
        assert check.mode == "CMYK"
    out = opened(place(path, 20, 10))
    assert out.mode == "RGB"
    r, g, b = mean(out)
    assert r > 200 and g < 60 and b < 60, (r, g, b)


def test_palette_png_with_transparency_keeps_it(tmp_path):
    im = Image.new("P", (100, 100), 0)
    im.putpalette([255, 0, 0, 0, 0, 255] + [0] * 762)
    im.paste(1, (50, 0, 100, 100))
    path = save(im, tmp_path / "pal.png", transparency=0)
    out = opened(place(path, 10, 10))
    assert out.mode == "RGBA"
    assert out.getpixel((10, 50))[3] == 0
    assert out.getpixel((90, 50)) == (0, 0, 255, 255)


@pytest.mark.parametrize("mode, key, other", [("RGB", (1, 2, 3), (200, 100, 50)), ("L", 7, 200)])
def test_transparent_colour_key_becomes_alpha(tmp_path, mode, key, other):
    im = Image.new(mode, (100, 100), other)
    im.paste(key, (0, 0, 50, 100))
    out = opened(place(save(im, tmp_path / "keyed.png", transparency=key), 10, 10))
    assert out.mode == "RGBA"
    assert out.getpixel((10, 50))[3] == 0 and out.getpixel((90, 50))[3] == 255


def test_palette_png_without_transparency_is_rgb(tmp_path):
    path = save(Image.new("RGB", (100, 100), "orange").convert("P"), tmp_path / "pal.png")
    assert opened(place(path, 10, 10)).mode == "RGB"


def test_la_png_keeps_its_alpha(tmp_path):
    im = Image.new("LA", (100, 100), (200, 255))
    im.paste((50, 0), (0, 0, 50, 100))
    path = save(im, tmp_path / "la.png")
    out = opened(place(path, 10, 10))
    assert out.mode == "RGBA"
    assert out.getpixel((90, 50)) == (200, 200, 200, 255)
    assert out.getpixel((10, 50))[3] == 0


def test_opaque_alpha_is_dropped(tmp_path):
    path = save(Image.new("RGBA", (100, 100), (1, 2, 3, 255)), tmp_path / "opaque.png")
    out = opened(place(path, 10, 10))
    assert out.mode == "RGB" and out.getpixel((5, 5)) == (1, 2, 3)


def test_sixteen_bit_greyscale_is_scaled_not_clipped(tmp_path):
    im = Image.new("I;16", (100, 100), 32896)  # mid grey: 128 * 257
    im.paste(65535, (50, 0, 100, 100))
    path = save(im, tmp_path / "grey16.png")
    with Image.open(path) as check:
        assert check.mode.startswith("I")
    out = opened(place(path, 10, 10))
    assert out.mode == "RGB"
    assert out.getpixel((10, 50)) == (128, 128, 128)
    assert out.getpixel((90, 50)) == (255, 255, 255)


def test_rgba_keeps_its_alpha(tmp_path):
    im = Image.new("RGBA", (1000, 1000), (0, 0, 255, 0))
    im.paste((255, 0, 0, 255), (0, 0, 500, 1000))
    im.paste((0, 255, 0, 128), (500, 0, 1000, 500))
    path = save(im, tmp_path / "rgba.png")
    out = opened(place(path, 20, 20))  # downsampled to 237 px
    assert out.mode == "RGBA" and out.size == (237, 237)
    assert out.getpixel((50, 100)) == (255, 0, 0, 255)
    assert out.getpixel((200, 50))[3] == pytest.approx(128, abs=1)
    assert out.getpixel((200, 200))[3] == 0


def test_transparent_colour_does_not_bleed_into_edges(tmp_path):
    # Fully transparent pixels are black; resampling must not darken the white shape's edge.
    im = Image.new("RGBA", (1000, 1000), (0, 0, 0, 0))
    im.paste((255, 255, 255, 255), (0, 0, 500, 1000))
    out = opened(place(save(im, tmp_path / "edge.png"), 20, 20))
    for x in range(out.width):
        r, g, b, a = out.getpixel((x, 100))
        if a > 8:
            assert min(r, g, b) > 240, (x, r, g, b, a)


@pytest.mark.parametrize("fmt", ["png", "jpg"])
def test_embedded_icc_profile_is_applied_and_not_copied(tmp_path, fmt):
    # Stored red means blue under this profile: the output must be blue, in sRGB, with no profile left.
    path = save(Image.new("RGB", (100, 100), RED), tmp_path / f"icc.{fmt}", icc_profile=swapped_rgb_profile())
    placed = place(path, 10, 10)
    r, g, b = opened(placed).getpixel((50, 50))
    assert b > 240 and r < 15 and g < 15, (r, g, b)
    assert set(png_chunks(placed.png)) == {b"IHDR", b"IDAT", b"IEND"}


def test_srgb_profile_leaves_colours_alone(tmp_path):
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    path = save(Image.new("RGB", (100, 100), (10, 120, 230)), tmp_path / "icc.png", icc_profile=srgb)
    r, g, b = opened(place(path, 10, 10)).getpixel((50, 50))
    assert abs(r - 10) <= 2 and abs(g - 120) <= 2 and abs(b - 230) <= 2


def test_unusable_icc_profile_falls_back_to_plain_conversion(tmp_path):
    path = save(Image.new("RGB", (100, 100), (10, 120, 230)), tmp_path / "bad.png", icc_profile=b"junk" * 40)
    assert opened(place(path, 10, 10)).getpixel((50, 50)) == (10, 120, 230)


def test_output_carries_no_metadata(tmp_path):
    im = Image.new("RGB", (100, 100), "white")
    exif = im.getexif()
    exif[0x010E] = "a description"
    path = save(im, tmp_path / "meta.jpg", exif=exif, dpi=(72, 72), quality=90)
    assert set(png_chunks(place(path, 10, 10).png)) == {b"IHDR", b"IDAT", b"IEND"}


# -- orientation -------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["jpg", "png"])
def test_exif_orientation_6_is_applied(tmp_path, fmt):
    im = halves((200, 100))  # stored landscape: red left, blue right
    exif = im.getexif()
    exif[0x0112] = 6  # display rotated 90 degrees clockwise
    path = save(im, tmp_path / f"rotated.{fmt}", exif=exif)
    placed = place(path, 40, 40)
    assert (placed.x, placed.y, placed.w, placed.h) == pytest.approx((10, 0, 20, 40))
    out = opened(placed)
    assert out.size == (100, 200)
    # Rotated clockwise, the stored left (red) is now at the top.
    assert mean(out.crop((0, 0, 100, 80)))[0] > 230
    assert mean(out.crop((0, 120, 100, 200)))[2] > 230


def test_exif_orientation_is_honoured_when_the_decoder_downscales(tmp_path):
    im = halves((4000, 2000))
    exif = im.getexif()
    exif[0x0112] = 6
    path = save(im, tmp_path / "big-rotated.jpg", exif=exif, quality=90)
    placed = place(path, 20, 20, "cover", focus=(0.5, 0))
    assert opened(placed).size == (237, 237)
    assert mean(opened(placed))[0] > 230  # the top of the displayed image is red
    assert placed.dpi == pytest.approx(2000 / (20 / 25.4))


# -- determinism and caching -------------------------------------------------------------------


def test_same_input_gives_identical_bytes_and_key(tmp_path):
    path = save(halves((1200, 900)), tmp_path / "art.jpg")
    first = place(path, 30, 30, "cover", focus=(0.3, 0.6))
    art.clear_cache()
    second = place(path, 30, 30, "cover", focus=(0.3, 0.6))
    assert first is not second
    assert first == second
    assert first.key == hashlib.sha256(first.png).hexdigest()
    assert place(path, 30, 30, "contain").key != first.key


def test_repeated_places_are_prepared_once(tmp_path, monkeypatch):
    path = save(halves((1200, 900)), tmp_path / "art.png")
    calls = []
    original = art._decode
    monkeypatch.setattr(art, "_decode", lambda *a: calls.append(1) or original(*a))
    results = {place(path, 30, 30) for _ in range(36)}
    assert len(results) == 1 and len(calls) == 1
    # A relative path to the same file hits the same entry.
    monkeypatch.chdir(tmp_path)
    assert place(Path("art.png"), 30, 30) in results and len(calls) == 1


def test_a_changed_file_is_prepared_again(tmp_path):
    path = save(Image.new("RGB", (100, 100), RED), tmp_path / "art.png")
    before = place(path, 10, 10)
    save(Image.new("RGB", (100, 100), BLUE), path)
    after = place(path, 10, 10)
    assert before.key != after.key and mean(opened(after)) == BLUE


def test_a_touched_file_of_the_same_size_is_prepared_again(tmp_path, monkeypatch):
    path = save(Image.new("RGB", (100, 100), RED), tmp_path / "art.png")
    calls = []
    original = art._decode
    monkeypatch.setattr(art, "_decode", lambda *a: calls.append(1) or original(*a))
    place(path, 10, 10)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    place(path, 10, 10)
    assert len(calls) == 2


# -- refusals ----------------------------------------------------------------------------------


def test_text_file_named_png_is_refused(tmp_path):
    path = tmp_path / "notes.png"
    path.write_text("this is not an image\n")
    with pytest.raises(ArtError, match=r"notes\.png: .*only PNG and JPEG") as info:
        place(path, 10, 10)
    assert "\n" not in str(info.value)


def test_gif_is_refused_whatever_its_name(tmp_path):
    path = save(Image.new("RGB", (10, 10), "red"), tmp_path / "art.png", "GIF")
    with pytest.raises(ArtError, match=r"art\.png: a GIF image; only PNG and JPEG are accepted"):
        place(path, 10, 10)


def test_a_jpeg_named_png_is_accepted(tmp_path):
    path = save(Image.new("RGB", (10, 10), "red"), tmp_path / "art.png", "JPEG")
    assert opened(place(path, 10, 10)).mode == "RGB"


@pytest.mark.parametrize(
    "fmt, keep, message",
    [
        ("jpg", 0.5, "cannot decode the JPEG image"),  # the pixel data is cut short
        ("png", 0.5, "cannot decode the PNG image"),
        ("jpg", 300, "cannot decode the file"),  # even the header is cut short
    ],
)
def test_truncated_file_is_refused(tmp_path, fmt, keep, message):
    good = save(Image.effect_noise((400, 400), 60).convert("RGB"), tmp_path / f"good.{fmt}").read_bytes()
    path = tmp_path / f"cut.{fmt}"
    path.write_bytes(good[: int(len(good) * keep) if keep < 1 else keep])
    with pytest.raises(ArtError, match=rf"cut\.{fmt}: {message}") as info:
        place(path, 10, 10)
    assert "\n" not in str(info.value)


def test_missing_file_is_refused(tmp_path):
    with pytest.raises(ArtError, match=r"gone\.png: cannot read the file"):
        place(tmp_path / "gone.png", 10, 10)


@pytest.mark.parametrize("size", [(100, 100), (40, 40)])  # over twice the limit, and just over it
def test_decompression_bomb_is_refused(tmp_path, monkeypatch, size):
    path = save(Image.new("RGB", size, "red"), tmp_path / "bomb.png")
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    with pytest.raises(ArtError, match=r"bomb\.png: .*decompression bomb"):
        place(path, 10, 10)


def test_the_bomb_guard_is_left_on():
    assert Image.MAX_IMAGE_PIXELS == int(1024 * 1024 * 1024 // 4 // 3)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"fit": "stretch"}, "fit must be one of contain, cover"),
        ({"focus": (1.5, 0.5)}, "focus fractions must lie between 0 and 1"),
        ({"box_w": 0}, "positive size"),
        ({"dpi": 0}, "print resolution must be positive"),
    ],
)
def test_bad_arguments_are_refused(tmp_path, kwargs, message):
    path = save(Image.new("RGB", (10, 10)), tmp_path / "art.png")
    args = {"box_w": 10, "box_h": 10} | kwargs
    with pytest.raises(ArtError, match=message):
        place(path, **args)


# -- embedding ---------------------------------------------------------------------------------


def image_xobjects(pdf: bytes) -> list:
    """Every image XObject in the file, wherever it is referenced from."""
    reader = PdfReader(io.BytesIO(pdf))
    found = []
    for generation, numbers in reader.xref.items():
        for number in numbers:
            obj = reader.get_object(IndirectObject(number, generation, reader))
            if hasattr(obj, "get") and obj.get("/Subtype") == "/Image":
                found.append(obj)
    return found


def draw(placements: list[list[Placed]]) -> bytes:
    """One page per list; each Placed drawn the way the module docstring tells the renderer to."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    for page in placements:
        for i, placed in enumerate(page):
            reader = ImageReader(io.BytesIO(placed.png))  # a fresh reader each time, on purpose
            canvas.drawImage(
                reader, pt(10 + 50 * i + placed.x), pt(10 + placed.y), pt(placed.w), pt(placed.h), mask="auto"
            )
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_same_placed_drawn_many_times_is_embedded_once(tmp_path):
    placed = place(save(halves((1200, 900)), tmp_path / "art.jpg"), 40, 40)
    again = place(tmp_path / "art.jpg", 40, 40)
    images = image_xobjects(draw([[placed, again], [placed]]))
    assert len(images) == 1
    assert (images[0]["/Width"], images[0]["/Height"]) == opened(placed).size


def test_different_placements_are_embedded_separately(tmp_path):
    path = save(halves((1200, 900)), tmp_path / "art.jpg")
    assert len(image_xobjects(draw([[place(path, 40, 40), place(path, 40, 40, "cover")]]))) == 2


def test_transparent_art_is_embedded_once_with_one_soft_mask(tmp_path):
    im = Image.new("RGBA", (400, 400), (255, 0, 0, 0))
    im.paste((255, 0, 0, 255), (100, 100, 300, 300))
    placed = place(save(im, tmp_path / "alpha.png"), 20, 20)
    images = image_xobjects(draw([[placed, placed, placed]]))
    assert len(images) == 2  # the colour image and its SMask
    colour = [i for i in images if "/SMask" in i]
    assert len(colour) == 1 and colour[0]["/ColorSpace"] == "/DeviceRGB"
