"""Stage 5: what the renderer draws, looked at as pixels."""

from __future__ import annotations

import pypdf
import pypdfium2

from conftest import run


def test_symbols_take_their_team_colour_not_black(mini, tmp_path):
    result = run("build", "--decks", str(mini / "decks"), "--lang", "en", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "mini" / "mini-cards-en.pdf"
    x0, y0, x1, y1 = (float(v) for v in pypdf.PdfReader(pdf).pages[0]["/TrimBox"])
    scale = 2.0
    image = pypdfium2.PdfDocument(pdf)[0].render(scale=scale).to_pil().convert("RGB")
    height = image.height
    # PDF y runs up, image rows run down.
    cards = image.crop((x0 * scale, height - y1 * scale, x1 * scale, height - y0 * scale))
    pixels = list(cards.get_flattened_data())
    black = sum(1 for p in pixels if max(p) < 12)
    wolf_red = sum(1 for p in pixels if abs(p[0] - 0x8C) < 8 and abs(p[1] - 0x1C) < 8 and abs(p[2] - 0x13) < 8)
    assert black < len(pixels) * 0.001, "an icon was drawn in its file's black"
    assert wolf_red > len(pixels) * 0.02


def test_a_card_id_between_colons_draws_that_card_s_icon_inline(mini, tmp_path):
    seer = mini / "decks" / "mini" / "roles" / "seer.yaml"
    seer.write_text(
        seer.read_text(encoding="utf-8").replace(
            "  en: Each night, look at one player's card.",
            '  en: "Find the :wolf: before it finds you. :nobody: and 10:30: stay text."',
        ),
        encoding="utf-8",
    )
    result = run("build", "--decks", str(mini / "decks"), "--lang", "en", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "mini" / "mini-cards-en.pdf"
    text = pypdf.PdfReader(pdf).pages[0].extract_text()
    assert "Find the" in text and ":wolf:" not in text
    assert ":nobody: and 10:30: stay text." in text
    # The icon is drawn in the wolves' red inside the seer's green-framed card, left of the words after it.
    page = pypdfium2.PdfDocument(pdf)[0]
    words = page.get_textpage()
    found = words.search("before it finds you").get_next()
    assert found
    scale = 4.0
    image = page.render(scale=scale).to_pil().convert("RGB")
    left, bottom, right, top = words.get_charbox(found[0])
    strip = image.crop(
        (
            int((left - 20) * scale),
            int((page.get_height() - top) * scale),
            int(left * scale),
            int((page.get_height() - bottom) * scale),
        )
    )
    red = sum(1 for p in strip.get_flattened_data() if p[0] > 110 and p[1] < 60 and p[2] < 60)
    assert red > 20
