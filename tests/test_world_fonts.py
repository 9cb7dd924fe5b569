"""The `world` extra: cardgen-world's fonts found when it is installed, and a build that needs them
saying what to install when it is not."""

from __future__ import annotations

import tomllib

import pypdf
import pytest

from cardgen import __version__
from cardgen.core import bundled
from conftest import ROOT, game, run, write

pytestmark = pytest.mark.skipif(bundled.world_fonts() is None, reason="needs cardgen-world (pip install -e ./world)")

SEER_JA = """name: {en: Seer, vi: Tiên tri, ja: 占い師}
team: village
count: 1
ability:
  en: Each night, look at one player's card.
  vi: Mỗi đêm, xem lá bài của một người chơi.
  ja: 毎晩、誰か一人のカードを見る。
"""


def japanese(project):
    path = game(project) / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("[en, vi]", "[en, vi, ja]"), encoding="utf-8")
    write(project, "roles/seer.yaml", SEER_JA)


def test_the_world_fonts_are_released_with_cardgen():
    world = tomllib.loads((ROOT / "world" / "pyproject.toml").read_text(encoding="utf-8"))
    assert world["project"]["version"] == __version__
    main = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "cardgen-world>=0.1" in main["project"]["optional-dependencies"]["world"]


def test_japanese_is_drawn_with_the_japanese_font_of_the_extra(mini, tmp_path):
    japanese(mini)
    out = tmp_path / "out"
    result = run("build", "--decks", str(mini / "decks"), "--out", str(out), "--lang", "ja", "-q")
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(out / "mini" / "mini-cards-ja.pdf")
    fonts = {
        str(font["/BaseFont"]).split("+")[-1] for page in reader.pages for font in page["/Resources"]["/Font"].values()
    }
    assert "NotoSansJP-Regular" in fonts and not any("SC" in font for font in fonts)
    assert "占い師" in reader.pages[0].extract_text()


def test_without_the_extra_the_build_names_it(mini, tmp_path, monkeypatch):
    japanese(mini)
    monkeypatch.setattr(bundled, "world_fonts", lambda: None)
    result = run("build", "--decks", str(mini / "decks"), "--out", str(tmp_path / "out"), "--lang", "ja", "-q")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "decks/mini/roles/seer.yaml:1: error: name.ja: character U+5360 CJK UNIFIED IDEOGRAPH-5360 '占' is in "
        "none of the installed fonts; Noto Sans JP, which cardgen's 'world' extra installs, is not installed: "
        'pip install "cardgen[world]"'
    )
    assert not (tmp_path / "out" / "mini" / "mini-cards-ja.pdf").exists()


def test_without_the_extra_a_language_is_refused_once_and_the_others_are_built(mini, tmp_path, monkeypatch):
    japanese(mini)
    write(
        mini,
        "roles/wolf.yaml",
        "name: {en: Wolf, vi: Sói, ja: 人狼}\nteam: wolves\ncount: 2\nability: {en: Bite., vi: Cắn., ja: 噛む。}\n",
    )
    monkeypatch.setattr(bundled, "world_fonts", lambda: None)
    out = tmp_path / "out"
    result = run("build", "--decks", str(mini / "decks"), "--out", str(out), "-q")
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert errors == [
        "decks/mini/roles/seer.yaml:1: error: name.ja: character U+5360 CJK UNIFIED IDEOGRAPH-5360 '占' is in "
        "none of the installed fonts; Noto Sans JP, which cardgen's 'world' extra installs, is not installed: "
        'pip install "cardgen[world]"'
    ]
    assert (out / "mini" / "mini-cards-en.pdf").is_file() and (out / "mini" / "mini-cards-vi.pdf").is_file()
