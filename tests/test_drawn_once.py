"""Work done once that used to be done many times: the pages must read and look as before.

A document is laid out once and numbers its pages "n of total" when it is saved; a back's pattern is one
form placed on every back; the workers a build starts and the rebuild that finds nothing to do. Pages are
compared with the drawing they replace, rendered at 150 dpi.
"""

from __future__ import annotations

import ctypes
import io
import shutil

import pypdfium2.raw as pdfium_c
import pytest
import yaml
from PIL import ImageChops
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate

from cardgen.build import BuildOptions
from cardgen.build import workers as build_module
from cardgen.cards import pattern, render
from cardgen.deck import load as load_module
from cardgen.documents import typeset
from conftest import ROOT, run
from pdfread import image, pages

DPI = 150
GAMES = ("werewolf", "salem-1692", "mafia-vendetta", "werewords")
LANGS = ("en", "vi", "zh", "es")
PAGE = {
    lang: text["page"]
    for lang, text in yaml.safe_load(
        (ROOT / "templates" / "documents" / "text.yaml").read_text(encoding="utf-8")
    ).items()
}


def test_every_page_of_every_document_says_its_number_and_the_right_total(bundled):
    for game in GAMES:
        for lang in LANGS:
            for kind in ("rulebook", "script"):
                document_ = pages(bundled / game / f"{game}-{kind}-{lang}.pdf")
                total = len(document_)
                for number in range(1, total + 1):
                    text = document_[number - 1].get_textpage().get_text_range()
                    assert PAGE[lang].format(n=number, total=total) in text, (game, kind, lang, number)


class _Counted:
    """Counts the layouts of documents (BaseDocTemplate.build calls)."""

    def __init__(self, monkeypatch):
        self.calls = 0
        original = BaseDocTemplate.build

        def counted(doc, *args, **kwargs):
            self.calls += 1
            return original(doc, *args, **kwargs)

        monkeypatch.setattr(BaseDocTemplate, "build", counted)


def test_a_rulebook_and_a_script_are_each_laid_out_once(tmp_path, monkeypatch):
    layouts = _Counted(monkeypatch)
    result = run("build", "werewords", "--lang", "en", "--jobs", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert layouts.calls == 2
    assert len(pages(tmp_path / "werewords" / "werewords-script-en.pdf")) > 1


def test_a_last_page_of_a_line_or_two_is_laid_out_a_second_time_and_numbered_right(monkeypatch):
    """A document a line or two longer than its pages: the page before the last is shortened so that
    three lines go over, in a second layout, the last."""
    from cardgen.build import Pipeline
    from cardgen.core.pdfinfo import Info
    from cardgen.core.project import Project
    from cardgen.core.units import Size

    pipeline = Pipeline(Project.at(ROOT / "decks"), BuildOptions())
    style = pipeline.read("documents/styles.yaml")
    furniture = typeset.PageFurniture("Header", lambda n, total: f"page {n} of {total}")
    layouts = _Counted(monkeypatch)
    for lines in range(60, 400):
        layouts.calls = 0
        source = "<doc>" + "".join(f"<p>Line {i} of the text.</p>" for i in range(lines)) + "</doc>"
        pdf, total = typeset.render_document(
            source,
            pipeline.book,
            "en",
            style["script"],
            style["colors"],
            Size(210, 297),
            furniture,
            Info("test", "", "", "en"),
            {},
        )
        if layouts.calls > 1:
            break
    assert layouts.calls == 2 and total > 1
    read = pages(pdf)
    assert total == len(read)
    for number in range(1, total + 1):
        assert f"page {number} of {total}" in read[number - 1].get_textpage().get_text_range()
    last = read[total - 1].get_textpage().get_text_range()
    assert sum(1 for line in last.splitlines() if line.startswith("Line ")) >= 3


class _AsPagesBegin(typeset.FurnishedCanvas):
    """The drawing a document had before it was laid out once: every page's furniture drawn as the page
    begins, with the total known in advance (from the document laid out once)."""

    total = 0

    def furniture_here(self) -> None:
        self._furnish(self, self._pageNumber, self.total)

    def showPage(self) -> None:
        self._laid.last_page, self._body_lines = self._body_lines, []
        Canvas.showPage(self)

    def save(self) -> None:
        self._laid.total = self.total
        Canvas.save(self)


def _documents(project, lang):
    from cardgen.build import Pipeline, check

    games, _ = check(project, ["werewolf"], strict=False)
    pipeline = Pipeline(project, BuildOptions())
    prepared, _ = pipeline.prepare(games[0], lang)
    return {kind: (pdf, pages_) for kind, pdf, pages_ in pipeline.documents(prepared, games[0]) if kind != "narrator"}


@pytest.mark.parametrize("lang", ["en", "vi", "es", "zh"])
def test_documents_laid_out_once_look_as_those_laid_out_twice(lang, monkeypatch):
    from cardgen.core.project import Project

    project = Project.at(ROOT / "decks")
    once = _documents(project, lang)
    for kind, (pdf, total) in once.items():
        _AsPagesBegin.total = total
        monkeypatch.setattr(typeset, "FurnishedCanvas", _AsPagesBegin)
        before, before_total = _documents(project, lang)[kind]
        monkeypatch.undo()
        assert total == before_total
        new, old = pages(pdf), pages(before)
        assert len(new) == len(old) == total
        for number in range(total):
            assert new[number].get_textpage().get_text_range() == old[number].get_textpage().get_text_range()
            difference = ImageChops.difference(image(new[number], DPI), image(old[number], DPI))
            if lang != "zh":
                assert difference.getbbox() is None, (kind, number + 1)
                continue
            # Chinese needs more than one font subset of 256 glyphs: the footer, drawn last, gives its
            # characters other places in them, and a switch of subset puts the next glyph 0.0001 pt
            # elsewhere, which moves the anti-aliasing of a glyph's edge on a few pixels.
            for a, b in zip(_origins(new[number]), _origins(old[number])):
                assert a[0] == b[0] and abs(a[1] - b[1]) < 0.01 and abs(a[2] - b[2]) < 0.01
            changed = sum(1 for value in difference.convert("L").tobytes() if value)
            assert changed < 0.0005 * difference.width * difference.height, (kind, number + 1)


def _origins(page) -> list[tuple[str, float, float]]:
    text = page.get_textpage()
    x, y = ctypes.c_double(), ctypes.c_double()
    out = []
    for i in range(text.count_chars()):
        pdfium_c.FPDFText_GetCharOrigin(text.raw, i, x, y)
        out.append((text.get_text_range(i, 1), x.value, y.value))
    return out


def _tile_by_tile(self, path, color, size, step, card, area):
    """The back pattern as it was drawn before it became one form: each symbol placed on each back."""
    for tile in pattern.tiles(card, area, size, step):
        self.symbol(path, color, tile)


@pytest.mark.parametrize(
    "game,lang,options",
    [
        ("werewolf", "en", {}),
        ("salem-1692", "zh", {}),
        ("werewords", "en", {"ink_saver": True}),
        ("mafia-vendetta", "es", {"backs": "fold"}),
    ],
)
def test_a_back_pattern_drawn_as_one_form_looks_as_drawn_symbol_by_symbol(cards, game, lang, options, monkeypatch):
    from cardgen.core.project import Project

    prepared, pdf = cards(game, lang, **options)
    project = Project.at(ROOT / "decks")
    strings = project.template_data("strings.yaml")
    render_options = render.RenderOptions(
        options.get("ink_saver", False), project.template_data("sheet.yaml"), {**strings["en"], **strings.get(lang, {})}
    )
    assert render.render_pdf(prepared.deck, prepared.pages, prepared.faces, prepared.book, render_options) == pdf
    monkeypatch.setattr(render._Painter, "pattern", _tile_by_tile)
    before = render.render_pdf(prepared.deck, prepared.pages, prepared.faces, prepared.book, render_options)
    assert len(pdf) < len(before)
    new, old = pages(pdf), pages(before)
    assert len(new) == len(old)
    for number in range(len(new)):
        difference = ImageChops.difference(image(new[number], DPI), image(old[number], DPI))
        # Equal but for rounding: the form's matrix is composed with the page's before the symbol's.
        assert max(high for _, high in difference.getextrema()) <= 1, number + 1


@pytest.mark.parametrize(
    "game,options",
    [
        ("werewolf", {}),
        ("werewords", {}),
        ("salem-1692", {"backs": "fold"}),
        ("mafia-vendetta", {"paper": "letter", "backs": "short"}),
    ],
)
def test_every_back_of_a_design_has_its_pattern_at_the_same_place_on_the_card(cards, game, options):
    # A back whose bleed a neighbour cuts short used to start its rows at its own paint edge, 3 mm
    # further in: cut out, cards from the edge and from the middle of a sheet were told apart by their backs.
    from pypdf import PdfReader

    from cardgen.core.units import mm

    prepared, pdf = cards(game, "en", **options)
    found: dict[tuple, list] = {}
    designs = set()
    for page, drawn in zip(prepared.pages, pages(pdf)):
        forms = [o.get_bounds() for o in drawn.get_objects(max_depth=1) if o.type == pdfium_c.FPDF_PAGEOBJ_FORM]
        for slot in page.slots:
            card = prepared.deck.copies[slot.item]
            if slot.side != "back" or card.id in prepared.faces.card_backs or not card.group.back.pattern:
                continue
            t = slot.trim
            # The pattern is the largest form over the card's middle; the emblem sits inside it.
            over = [b for b in forms if mm(b[0]) < t.cx < mm(b[2]) and mm(b[1]) < t.cy < mm(b[3])]
            left, bottom, right, top = max(over, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
            found.setdefault((card.group.id, slot.rotation), []).append(
                (mm(left) - t.x, mm(bottom) - t.y, mm(right) - t.right, mm(top) - t.top)
            )
            designs.add((card.group.back.pattern, card.group.back.color, card.group.size_name))
    assert found, "the game has patterned backs"
    spread = {key: max(max(side) - min(side) for side in zip(*places)) for key, places in found.items()}
    assert all(mm_apart < 0.01 for mm_apart in spread.values()), spread
    # Drawn once a PDF, whatever the slot: one pattern form for each design and card size.
    names = {
        name
        for page in PdfReader(io.BytesIO(pdf)).pages
        for name in page["/Resources"].get("/XObject", {})
        if "Pattern" in name
    }
    assert len(names) == len(designs), names


def test_default_workers_are_the_cores_nobody_else_keeps_busy(monkeypatch):
    def job(lang: str, *kinds: str):
        return (None, lang, BuildOptions(), tuple(build_module.Target(kind, ROOT / kind, False) for kind in kinds))

    todo = [job(lang, "cards", "rulebook") for lang in LANGS]
    monkeypatch.setattr(build_module.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    for busy, workers in ((0, 2), (1, 1), (4, 1)):
        monkeypatch.setattr(build_module, "busy_cores", lambda busy=busy: busy)
        assert build_module.worker_count(BuildOptions(), todo) == workers
    # Asked for, workers there are, as many as there are jobs.
    assert build_module.worker_count(BuildOptions(jobs=3), todo) == 3
    assert build_module.worker_count(BuildOptions(jobs=8), todo) == 4
    # A narrator page is quicker made than a worker started.
    monkeypatch.setattr(build_module, "busy_cores", lambda: 0)
    assert build_module.worker_count(BuildOptions(), [job("en", "narrator")] * 4) == 1


@pytest.mark.parametrize(
    "loadavg,busy",
    [
        ("1.90 1.20 0.80 1/310 4242\n", 0),  # a build just ended: the minute's average is high, nothing runs now
        ("0.10 0.30 0.20 3/310 4242\n", 2),  # two other tasks runnable besides this one
    ],
)
def test_busy_cores_are_those_runnable_now_not_in_the_last_minute(monkeypatch, loadavg, busy):
    import builtins
    import io

    real_open = builtins.open
    monkeypatch.setattr(
        builtins,
        "open",
        lambda path, *a, **k: io.StringIO(loadavg) if path == "/proc/loadavg" else real_open(path, *a, **k),
    )
    assert build_module.busy_cores() == busy


def test_busy_cores_fall_back_to_the_load_average_without_proc(monkeypatch):
    import builtins

    real_open = builtins.open

    def no_proc(path, *args, **kwargs):
        if path == "/proc/loadavg":
            raise FileNotFoundError(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", no_proc)
    monkeypatch.setattr(build_module.os, "getloadavg", lambda: (1.6, 1.0, 1.0), raising=False)
    assert build_module.busy_cores() == 1


def test_forked_workers_write_the_bytes_of_a_serial_build(tmp_path, monkeypatch):
    monkeypatch.setattr(build_module, "worker_count", lambda options, todo: 2)
    for name, jobs in (("serial", ["--jobs", "1"]), ("forked", [])):
        result = run("build", "werewords", "--out", str(tmp_path / name), *jobs)
        assert result.exit_code == 0, result.output
    written = sorted(path.relative_to(tmp_path / "serial") for path in (tmp_path / "serial").rglob("*.pdf"))
    assert len(written) == 12
    for path in written:
        assert (tmp_path / "serial" / path).read_bytes() == (tmp_path / "forked" / path).read_bytes(), path


@pytest.fixture
def project(tmp_path):
    shutil.copytree(ROOT / "decks" / "werewords", tmp_path / "decks" / "werewords")
    return tmp_path


def _build(project, *args):
    return run(
        "build", "--decks", str(project / "decks"), "--out", str(project / "out"), "--lang", "en", "--jobs", "1", *args
    )


def test_a_rebuild_with_nothing_changed_loads_no_deck_and_warns_as_the_build_did(project, monkeypatch):
    game_yaml = project / "decks" / "werewords" / "game.yaml"
    line = len(game_yaml.read_text(encoding="utf-8").splitlines()) + 1
    with game_yaml.open("a", encoding="utf-8") as game:
        game.write("colour: blue\n")
    first = _build(project)
    assert first.exit_code == 0, first.output
    warned = [line for line in first.stderr.splitlines() if "warning: " in line]
    assert len(warned) == 1 and warned[0].startswith(f"decks/werewords/game.yaml:{line}: warning: colour: unknown key")
    loaded = []
    monkeypatch.setattr(load_module, "load_game", lambda *args, **kw: loaded.append(args) or 1 / 0)
    again = _build(project)
    assert again.exit_code == 0, again.output
    assert loaded == [] and again.stdout.startswith("up to date (4 files)")
    assert again.stderr.splitlines() == warned
    assert again.stdout.rstrip().endswith("1 warning")


def test_a_changed_file_is_rebuilt_after_a_rebuild_that_had_nothing_to_do(project):
    assert _build(project).exit_code == 0
    assert _build(project).stdout.startswith("up to date")
    words = project / "decks" / "werewords" / "game.yaml"
    words.write_text(words.read_text(encoding="utf-8").replace("Werewords", "Werewords!", 1), encoding="utf-8")
    rebuilt = _build(project)
    assert rebuilt.exit_code == 0, rebuilt.output
    assert "werewords-cards-en.pdf" in rebuilt.stdout


def test_a_build_after_one_that_failed_makes_what_failed(project, monkeypatch):
    """The failed build wrote the English outputs from the same inputs: the next must not take its word."""
    from cardgen.core.problems import Problem

    real = build_module.run_job

    def failing(project_, options, files, lang, *args, **kwargs):
        if lang == "vi":
            return build_module.JobResult(problems=[Problem(None, "broken on purpose")])
        return real(project_, options, files, lang, *args, **kwargs)

    monkeypatch.setattr(build_module, "run_job", failing)
    assert _build(project, "--lang", "vi").exit_code == 1
    monkeypatch.undo()
    again = _build(project, "--lang", "vi")
    assert again.exit_code == 0, again.output
    assert "werewords-cards-vi.pdf" in again.stdout and "werewords-cards-en.pdf" not in again.stdout
