"""The build command end to end: what it writes, where, how safely, and what it says.

Builds run in-process through the CLI (conftest.run) on a copy of the real
Werewolf deck (so that other games in the repository's decks/ do not change
the results) or on the mini test game; each configuration is built once per
module. One build runs in a fresh process to show that output does not depend
on what the process did before.
"""

from __future__ import annotations

import ctypes
import json
import math
import os
import re
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
import yaml
from pypdf import PdfReader

from cardgen.core import write
from cardgen.core.units import mm
from cardgen.core.write import write_atomic
from conftest import ROOT, copy_werewolf_box, run

SUMMARY = re.compile(r"^(\d+) files?, (\d+) pages?, (\d+) cards? on (\d+) sheets? in \d+\.\d s$")
CARDS = 31
RUNE_LINE = "decks/mini/roles/wolf.yaml:7: error: ability.en: character U+16A0 RUNIC LETTER FEHU FEOH FE F 'ᚠ' is in none of the fonts"


# --- helpers ---------------------------------------------------------------------------


def _pdf(out: Path, lang: str = "en", game: str = "werewolf") -> Path:
    return out / game / f"{game}-cards-{lang}.pdf"


def _temp_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob(f"{write.TEMP_PREFIX}*"))


def _page_count(path: Path) -> int:
    return len(PdfReader(path).pages)


def _lines(page) -> list[tuple[float, float, float, float, float, bool]]:
    """Stroked straight segments of a page: (x0, y0, x1, y1) in mm, width in pt, dashed."""
    lines = []
    for obj in page.get_objects(max_depth=1):
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH or pdfium_c.FPDFPath_CountSegments(obj.raw) != 2:
            continue
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDFPath_GetDrawMode(obj.raw, fill, stroke)
        if not stroke.value:
            continue
        a, b, c, d, e, f = obj.get_matrix().get()
        points = []
        for k in range(2):
            x, y = ctypes.c_float(), ctypes.c_float()
            pdfium_c.FPDFPathSegment_GetPoint(pdfium_c.FPDFPath_GetPathSegment(obj.raw, k), x, y)
            points.append((mm(a * x.value + c * y.value + e), mm(b * x.value + d * y.value + f)))
        width = ctypes.c_float()
        pdfium_c.FPDFPageObj_GetStrokeWidth(obj.raw, width)
        (x0, y0), (x1, y1) = points
        lines.append((x0, y0, x1, y1, width.value, pdfium_c.FPDFPageObj_GetDashCount(obj.raw) > 0))
    return lines


def _big_fills(page, rgb: tuple[int, int, int], min_w: float, min_h: float) -> int:
    """How many filled areas of this colour at least min_w x min_h mm the page has."""
    count = 0
    for obj in page.get_objects(max_depth=1):
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDFPath_GetDrawMode(obj.raw, fill, stroke)
        if not fill.value:
            continue
        r, g, b, alpha = (ctypes.c_uint() for _ in range(4))
        pdfium_c.FPDFPageObj_GetFillColor(obj.raw, r, g, b, alpha)
        left, bottom, right, top = obj.get_bounds()
        if (r.value, g.value, b.value) == rgb and mm(right - left) >= min_w - 0.02 and mm(top - bottom) >= min_h - 0.02:
            count += 1
    return count


def _distinct(values, tol: float = 0.02) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > tol:
            out.append(v)
    return out


def _rgb(color: str) -> tuple[int, int, int]:
    color = color.lstrip("#")
    return tuple(int(color[i : i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


# --- fixtures -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def build(project, tmp_path_factory):
    """build(*options) -> (result, out folder), once per option set."""
    cache: dict[tuple[str, ...], tuple] = {}

    def get(*options: str):
        if options not in cache:
            out = tmp_path_factory.mktemp("out")
            result = run("build", "werewolf", "--decks", str(project / "decks"), "--out", str(out), *options)
            assert result.exit_code == 0, result.output + result.stderr
            cache[options] = (result, out)
        return cache[options]

    return get


@pytest.fixture(scope="module")
def back_color(project) -> tuple[int, int, int]:
    game = yaml.safe_load((project / "decks" / "werewolf" / "game.yaml").read_text(encoding="utf-8"))
    return _rgb(game["back"]["color"])


@pytest.fixture(scope="module")
def stock_color() -> tuple[int, int, int]:
    layout = yaml.safe_load((ROOT / "templates" / "card-layout.yaml").read_text(encoding="utf-8"))
    return _rgb(layout["stock"])


# --- reproducible -------------------------------------------------------------------------


def test_rebuild_is_byte_identical(build, project, tmp_path):
    _, first = build("--lang", "en", "--lang", "zh")
    result = run(
        "build",
        "werewolf",
        "--lang",
        "en",
        "--lang",
        "zh",
        "--decks",
        str(project / "decks"),
        "--out",
        str(tmp_path / "again"),
    )
    assert result.exit_code == 0
    for lang in ("en", "zh"):
        assert _pdf(tmp_path / "again", lang).read_bytes() == _pdf(first, lang).read_bytes(), lang


def test_build_in_a_fresh_process_is_byte_identical(build, project, tmp_path):
    _, first = build("--lang", "en", "--lang", "zh")
    cardgen = [sys.executable, "-c", "from cardgen.cli import main; main()"]
    completed = subprocess.run(
        [
            *cardgen,
            "build",
            "werewolf",
            "--lang",
            "zh",
            "--decks",
            str(project / "decks"),
            "--out",
            str(tmp_path / "fresh"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert _pdf(tmp_path / "fresh", "zh").read_bytes() == _pdf(first, "zh").read_bytes()


def test_output_does_not_depend_on_where_the_project_is(build, tmp_path):
    """Another copy of the same deck, deeper down and under another name: the same bytes."""
    _, first = build("--lang", "en", "--lang", "zh")
    elsewhere = tmp_path / "a" / "b" / "c"
    copy_werewolf_box(elsewhere / "decks")
    result = run("build", "werewolf", "--lang", "en", "--decks", str(elsewhere / "decks"), "--out", str(tmp_path / "o"))
    assert result.exit_code == 0
    assert _pdf(tmp_path / "o").read_bytes() == _pdf(first).read_bytes()


# --- what the command prints ----------------------------------------------------------------


def test_prints_one_path_per_file_then_a_summary(build):
    result, out = build("--lang", "en", "--lang", "zh")
    *paths, summary = result.stdout.splitlines()
    assert paths == [str(_pdf(out, "en")), str(_pdf(out, "zh"))]
    match = SUMMARY.match(summary)
    assert match, summary
    assert summary.startswith("2 files, 16 pages, 62 cards on 8 sheets in ")
    assert [_page_count(Path(p)) for p in paths] == [8, 8]


def test_progress_goes_to_stderr_one_line_per_language(build):
    """Then the advice on the dark Werewolf backs; with --ink-saver there is none."""
    result, _ = build("--lang", "en", "--lang", "zh")
    assert result.stderr == (
        "building werewolf (en)\nbuilding werewolf (zh)\n"
        "the backs of werewolf print dark (up to 98 % ink coverage); "
        "--ink-saver prints them as light tints\n"
    )
    assert build("--lang", "en", "--ink-saver")[0].stderr == "building werewolf (en)\n"


def test_every_language_by_default(build):
    result, out = build()
    *paths, summary = result.stdout.splitlines()
    assert paths == [str(_pdf(out, lang)) for lang in ("en", "vi", "zh", "es", "ja")]
    assert summary.startswith("5 files, 40 pages, 155 cards on 20 sheets in ")
    assert sorted(p.name for p in (out / "werewolf").iterdir()) == sorted(Path(p).name for p in paths)


def test_single_file_summary(build):
    result, out = build("--lang", "en")
    assert result.stdout.splitlines()[-1].startswith("1 file, 8 pages, 31 cards on 4 sheets in ")
    assert SUMMARY.match(result.stdout.splitlines()[-1])


def test_one_page_summary_is_singular(mini, tmp_path):
    result = run("build", "--lang", "en", "--backs", "none", "--decks", str(mini / "decks"), "--out", str(tmp_path))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1].startswith("1 file, 1 page, 3 cards on 1 sheet in ")


# --- atomic writes ----------------------------------------------------------------------------


def _add_rune(mini: Path) -> None:
    wolf = mini / "decks" / "mini" / "roles" / "wolf.yaml"
    wolf.write_text(wolf.read_text(encoding="utf-8").replace("Win when wolves", "Win when ᚠ wolves"), encoding="utf-8")


def test_failed_build_leaves_the_existing_pdf_untouched(mini, tmp_path):
    out = tmp_path / "out"
    good = run("build", "--lang", "en", "--decks", str(mini / "decks"), "--out", str(out))
    assert good.exit_code == 0
    before = _pdf(out, "en", "mini").read_bytes()
    _add_rune(mini)
    failed = run("build", "--lang", "en", "--decks", str(mini / "decks"), "--out", str(out))
    assert failed.exit_code == 1
    assert failed.stderr.endswith(f"{RUNE_LINE}\n1 error\n")
    assert _pdf(out, "en", "mini").read_bytes() == before
    assert _temp_files(out) == []
    assert sorted(p.name for p in (out / "mini").iterdir()) == ["mini-cards-en.pdf"]


def test_successful_rebuild_replaces_the_pdf_and_leaves_no_temp_file(mini, tmp_path):
    out = tmp_path / "out"
    assert run("build", "--lang", "en", "--decks", str(mini / "decks"), "--out", str(out)).exit_code == 0
    before = _pdf(out, "en", "mini").read_bytes()
    seer = mini / "decks" / "mini" / "roles" / "seer.yaml"
    seer.write_text(seer.read_text(encoding="utf-8").replace("look at one", "look at any one"), encoding="utf-8")
    assert run("build", "--lang", "en", "--decks", str(mini / "decks"), "--out", str(out)).exit_code == 0
    assert _pdf(out, "en", "mini").read_bytes() != before
    assert _temp_files(out) == []


def test_build_writes_a_temp_file_beside_the_target_then_renames_it(mini, tmp_path, monkeypatch):
    out = tmp_path / "out"
    target = _pdf(out, "en", "mini")
    target.parent.mkdir(parents=True)
    target.write_bytes(b"old")
    seen = []
    real_replace = os.replace

    def spy(src, dst):
        src, dst = Path(src), Path(dst)
        if dst.suffix != ".pdf":  # the build manifest is written the same way
            return real_replace(src, dst)
        # At the moment of the rename: a complete PDF beside the target, the old file still in place.
        seen.append(
            (src.parent == dst.parent, src.name, src.read_bytes()[:5], src.read_bytes().rstrip()[-5:], dst.read_bytes())
        )
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    result = run("build", "--lang", "en", "--decks", str(mini / "decks"), "--out", str(out))
    assert result.exit_code == 0
    assert len(seen) == 1
    beside, name, head, tail, old = seen[0]
    assert beside and re.fullmatch(r"\.cardgen-.+\.tmp", name)
    assert (head, tail, old) == (b"%PDF-", b"%%EOF", b"old")
    assert target.read_bytes().startswith(b"%PDF-")
    assert _temp_files(out) == []


def test_write_atomic_creates_folders_and_a_normal_file(tmp_path):
    target = tmp_path / "new" / "deeper" / "x.pdf"
    write_atomic(target, b"%PDF-1.4 data")
    assert target.read_bytes() == b"%PDF-1.4 data"
    # Readable like any file the user makes, not a private mkstemp file (0600).
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert _temp_files(tmp_path) == []


def test_write_atomic_keeps_the_old_file_when_the_rename_fails(tmp_path, monkeypatch):
    target = tmp_path / "x.pdf"
    target.write_bytes(b"old good file")

    def fail(src, dst):
        raise OSError("rename refused")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(write.Unwritable, match="rename refused"):
        write_atomic(target, b"new" * 1000)
    assert target.read_bytes() == b"old good file"
    assert _temp_files(tmp_path) == []


def test_write_atomic_keeps_the_old_file_when_writing_fails_half_way(tmp_path, monkeypatch):
    target = tmp_path / "x.pdf"
    target.write_bytes(b"old good file")
    real_fdopen = os.fdopen

    class HalfWriter:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()
            return False

        def write(self, data):
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            raise OSError("No space left on device")

        def __getattr__(self, name):
            return getattr(self.handle, name)

    monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: HalfWriter(real_fdopen(fd, *a, **k)))
    with pytest.raises(write.Unwritable, match="No space left"):
        write_atomic(target, b"new data " * 1000)
    assert target.read_bytes() == b"old good file"
    assert _temp_files(tmp_path) == []


def test_write_atomic_cleans_up_on_interrupt(tmp_path, monkeypatch):
    target = tmp_path / "x.pdf"
    target.write_bytes(b"old good file")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, b"new data")
    assert target.read_bytes() == b"old good file"
    assert _temp_files(tmp_path) == []


# --- where the files go -----------------------------------------------------------------------


def test_out_is_respected(build, project):
    result, out = build("--lang", "en")
    assert result.stdout.splitlines()[0] == str(_pdf(out))
    assert _pdf(out).is_file()
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        "cardgen-manifest.json",
        "werewolf",
        "werewolf/werewolf-cards-en.pdf",
    ]
    # Nothing lands in the project or the default output folder.
    assert sorted(p.name for p in project.iterdir()) == ["decks"]


def test_from_another_folder_with_decks_and_the_default_out(project, tmp_path, monkeypatch):
    here = tmp_path / "elsewhere"
    here.mkdir()
    monkeypatch.chdir(here)
    decks = os.path.relpath(project / "decks", here)
    result = run("build", "werewolf", "--lang", "es", "--decks", decks)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == "output/werewolf/werewolf-cards-es.pdf"
    assert (here / "output" / "werewolf" / "werewolf-cards-es.pdf").is_file()
    assert sorted(p.name for p in project.iterdir()) == ["decks"]


def test_error_positions_are_relative_to_the_project_not_the_current_folder(mini, tmp_path, monkeypatch):
    _add_rune(mini)
    here = tmp_path / "elsewhere"
    here.mkdir()
    monkeypatch.chdir(here)
    result = run("build", "--lang", "en", "--decks", os.path.relpath(mini / "decks", here))
    assert result.exit_code == 1
    assert result.stderr == f"building mini (en)\n{RUNE_LINE}\n1 error\n"
    assert list(here.iterdir()) == []


def test_an_empty_decks_folder_has_no_games(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("build", "--decks", "decks")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "decks: error: no games found (no */game.yaml)\n1 error\n"
    assert list(tmp_path.iterdir()) == []


# --- options ------------------------------------------------------------------------------------


def test_paper_letter(build):
    """Letter turned: 4 x 2 poker cards keep their marks inside the 5 mm printable margin."""
    result, out = build("--lang", "en", "--paper", "letter")
    assert result.stdout.splitlines()[-1].startswith("1 file, 8 pages, 31 cards on 4 sheets")
    for page in PdfReader(_pdf(out)).pages:
        box = page.mediabox
        assert (float(box.width), float(box.height)) == pytest.approx((792.0, 612.0), abs=0.3)


def test_card_size_tarot_measured_from_the_crop_marks(build):
    result, out = build("--lang", "en", "--card-size", "tarot")
    document = pdfium.PdfDocument(_pdf(out))
    # 2 x 2 tarot cards a sheet: 8 sheets, fronts and backs.
    assert len(document) == 16
    assert result.stdout.splitlines()[-1].startswith("1 file, 16 pages, 31 cards")
    for page in document:
        marks = [ln for ln in _lines(page) if ln[4] == pytest.approx(0.25, abs=1e-3) and not ln[5]]
        xs = _distinct(x0 for x0, y0, x1, y1, *_ in marks if abs(x0 - x1) < 0.01)
        ys = _distinct(y0 for x0, y0, x1, y1, *_ in marks if abs(y0 - y1) < 0.01)
        assert all(b - a == pytest.approx(70.0, abs=0.1) for a, b in zip(xs, xs[1:])), xs
        assert all(b - a == pytest.approx(120.0, abs=0.1) for a, b in zip(ys, ys[1:])), ys
        assert len(xs) >= 2 and len(ys) >= 2


def test_backs_none_prints_fronts_only(build):
    result, out = build("--lang", "en", "--backs", "none")
    assert result.stdout.splitlines()[-1].startswith("1 file, 4 pages, 31 cards")
    texts = [page.get_textpage().get_text_range() for page in pdfium.PdfDocument(_pdf(out))]
    assert [f"fronts · page {n} of 4" in t for n, t in enumerate(texts, 1)] == [True] * 4
    assert not any("backs ·" in t for t in texts)


def test_backs_fold(build):
    result, out = build("--lang", "en", "--backs", "fold")
    document = pdfium.PdfDocument(_pdf(out))
    assert result.stdout.splitlines()[-1].startswith(f"1 file, {len(document)} pages, 31 cards")
    assert len(document) == 8  # 4 cards a landscape A4 page
    for n, page in enumerate(document, 1):
        assert len([ln for ln in _lines(page) if ln[5]]) == 1  # the dashed fold line
        assert f"fold here, glue, then cut · page {n} of 8" in page.get_textpage().get_text_range()


@pytest.mark.parametrize(
    "margin, upside_down", [("0", "short"), ("5", "long")], ids=["portrait-sheets", "landscape-sheets"]
)
def test_backs_turned_about_a_horizontal_line_are_upside_down(build, margin, upside_down):
    """Portrait sheets (printed to the edge) flip short-edge backs; the landscape sheets the 5 mm
    margin gives poker cards reach the paper turned, so there long-edge backs come out turned."""

    def angles(backs: str) -> set[float]:
        result, out = build("--lang", "en", "--backs", backs, "--margin", margin)
        document = pdfium.PdfDocument(_pdf(out))
        assert len(document) == 8
        back = document[1].get_textpage()
        return {
            round(pdfium_c.FPDFText_GetCharAngle(back.raw, i), 2)
            for i in range(back.count_chars())
            if pdfium_c.FPDFText_GetFontSize(back.raw, i) > 8
        }

    upright = "long" if upside_down == "short" else "short"
    assert angles(upside_down) == {round(math.pi, 2)}
    assert angles(upright) == {0.0}


def test_ink_saver_leaves_out_the_large_filled_areas(build, back_color, stock_color):
    normal = pdfium.PdfDocument(_pdf(build("--lang", "en")[1]))
    result, out = build("--lang", "en", "--ink-saver")
    saver = pdfium.PdfDocument(_pdf(out))
    assert result.stdout.splitlines()[-1].startswith("1 file, 8 pages, 31 cards")
    assert len(saver) == len(normal) == 8
    # Normal: dark backs and card-stock fronts, painted out to the bleed; ink-saver: neither.
    assert _big_fills(normal[1], back_color, 63, 88) == 8 and _big_fills(normal[0], stock_color, 63, 88) == 8
    assert _big_fills(saver[1], back_color, 63, 88) == 0 and _big_fills(saver[0], stock_color, 63, 88) == 0
    assert "Werewolf" in saver[1].get_textpage().get_text_range()
    assert _pdf(out).read_bytes() != _pdf(build("--lang", "en")[1]).read_bytes()


def test_bleed_out_of_range_is_a_usage_error(project, tmp_path):
    result = run("build", "werewolf", "--bleed", "11", "--decks", str(project / "decks"), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert "Invalid value for '--bleed'" in result.stderr
    assert not (tmp_path / "o").exists()


def test_strict_turns_warnings_into_errors_before_writing(mini, tmp_path):
    seer = mini / "decks" / "mini" / "roles" / "seer.yaml"
    seer.write_text(
        seer.read_text(encoding="utf-8").replace("  vi: Mỗi đêm, xem lá bài của một người chơi.\n", ""),
        encoding="utf-8",
    )
    warning = (
        "decks/mini/roles/seer.yaml:4: warning: card 'seer': no 'vi' text for ability; the card falls back to English"
    )
    lenient = run("build", "--lang", "vi", "--decks", str(mini / "decks"), "--out", str(tmp_path / "lenient"))
    assert lenient.exit_code == 0
    assert warning in lenient.stderr.splitlines()
    assert _pdf(tmp_path / "lenient", "vi", "mini").is_file()
    strict = run("build", "--lang", "vi", "--strict", "--decks", str(mini / "decks"), "--out", str(tmp_path / "strict"))
    assert (strict.exit_code, strict.stdout, strict.stderr) == (1, "", f"{warning}\n1 warning (fails with --strict)\n")
    assert not (tmp_path / "strict").exists()


# --- errors ----------------------------------------------------------------------------------------


def test_unknown_language(project, tmp_path):
    result = run("build", "werewolf", "--lang", "fr", "--decks", str(project / "decks"), "--out", str(tmp_path / "o"))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "decks/werewolf/game.yaml:2: error: game 'werewolf' has no language 'fr'; it has en, vi, zh, es, ja\n1 error\n"
    )
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "o").exists()


def test_unknown_card_size(project, tmp_path):
    result = run(
        "build", "werewolf", "--card-size", "pokr", "--decks", str(project / "decks"), "--out", str(tmp_path / "o")
    )
    assert (result.exit_code, result.stdout) == (1, "")
    first, count = result.stderr.splitlines()
    assert first.startswith(
        "error: unknown card size 'pokr' (did you mean 'poker'?); known card sizes: poker, poker-us, bridge, tarot, "
    )
    assert count == "1 error"
    assert not (tmp_path / "o").exists()


def test_unknown_paper_lists_the_papers_of_the_templates(project, tmp_path):
    result = run("build", "werewolf", "--paper", "a44", "--decks", str(project / "decks"), "--out", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "error: unknown paper 'a44' (did you mean 'a4'?); known papers: a5, a4, a3, letter, legal, tabloid"
    )


def test_paper_sizes_are_data(project, tmp_path):
    result = run(
        "build", "werewolf", "--lang", "en", "--paper", "a3", "--decks", str(project / "decks"), "--out", str(tmp_path)
    )
    assert result.exit_code == 0, result.output
    box = PdfReader(tmp_path / "werewolf" / "werewolf-cards-en.pdf").pages[0].mediabox
    # A3 may be turned to landscape if that fits more cards; its size is the same.
    assert sorted((round(mm(float(box.width)), 1), round(mm(float(box.height)), 1))) == [297.0, 420.0]


@pytest.mark.parametrize("name, hint", [("nosuchgame", ""), ("werwolf", " (did you mean 'werewolf'?)")])
def test_unknown_game(project, tmp_path, name, hint):
    result = run("build", name, "--decks", str(project / "decks"), "--out", str(tmp_path / "o"))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"decks: error: no game '{name}'{hint}; games here: werewolf\n1 error\n"
    assert not (tmp_path / "o").exists()


# --- list --------------------------------------------------------------------------------------------


def test_list_json(project):
    result = run("list", "--json", "--decks", str(project / "decks"))
    assert result.exit_code == 0
    listing = json.loads(result.stdout)
    assert list(listing) == ["games"]
    (game,) = listing["games"]
    assert list(game) == ["id", "languages", "components"]
    assert game["id"] == "werewolf"
    assert game["languages"] == ["en", "vi", "zh", "es", "ja"]
    components = game["components"]
    assert all(list(c) == ["id", "group", "count"] for c in components)
    assert sum(c["count"] for c in components) == CARDS
    by_id = {c["id"]: c for c in components}
    assert by_id["villager"] == {"id": "villager", "group": "role", "count": 15}
    assert by_id["werewolf"] == {"id": "werewolf", "group": "role", "count": 4}
    assert by_id["sheriff"] == {"id": "sheriff", "group": "title", "count": 1}
    roles = [c["id"] for c in components if c["group"] == "role"]
    assert len(roles) == 13 and {c["count"] for c in components if c["id"] not in ("villager", "werewolf")} == {1}
    assert [c["group"] for c in components] == ["role"] * 13 + ["title"]  # groups in the game's order
    assert {c["id"] for c in components} == {p.stem for p in (project / "decks" / "werewolf" / "roles").glob("*.yaml")}


def test_list_human(project):
    result = run("list", "--decks", str(project / "decks"))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "werewolf: Werewolf [en, vi, zh, es, ja], 31 cards"
    assert "  role     villager         x15" in lines
    assert "  role     werewolf         x4" in lines
    assert lines[-1] == "  title    sheriff          x1"
    assert len(lines) == 1 + 14  # 13 roles and the sheriff


def test_watch_rebuilds_when_a_card_changes(tmp_path):
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini", tmp_path / "project")
    project = tmp_path / "project"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardgen",
            "watch",
            "mini",
            "--lang",
            "en",
            "--interval",
            "0.2",
            "--decks",
            "decks",
            "--out",
            "out",
        ],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # readline() has no timeout: a watch that never prints must not hang the suite.
    watchdog = threading.Timer(60, process.kill)
    watchdog.start()
    try:
        first = process.stdout.readline()
        assert " built: 1 file, " in first, first + process.stderr.read()
        pdf = project / "out" / "mini" / "mini-cards-en.pdf"
        before = pdf.read_bytes()
        seer = project / "decks" / "mini" / "roles" / "seer.yaml"
        seer.write_text(
            seer.read_text(encoding="utf-8").replace("name: {en: Seer,", "name: {en: Oracle,"), encoding="utf-8"
        )
        second = process.stdout.readline()
        assert " built: 1 file, " in second
        assert pdf.read_bytes() != before
    finally:
        watchdog.cancel()
        process.terminate()
        process.wait(timeout=10)
