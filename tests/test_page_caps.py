"""The page cap of documents, foreseen (issue 31): a deck whose rulebook or script would run past
MAX_PAGES is refused by `validate` and `build` from its text, before anything is laid out, at the
game's file; the estimate is a lower bound, so a deck that builds is never refused; and a document
the estimate lets through is still stopped by its layout."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdf
import pytest

from cardgen.build import pipeline
from cardgen.build.checking import check, languages
from cardgen.build.options import BuildOptions
from cardgen.core import limits
from cardgen.core.project import Project
from cardgen.documents import pages, typeset
from conftest import FIXTURES, ROOT, run

RULEBOOK = "players: {min: 3, max: 8}\nsections:\n  goal:\n    title: {en: Goal, vi: Mục tiêu}\n    body:\n      - text: {en: Win., vi: Thắng.}\n"
ABILITY = "Each night, point at a player and learn whether they sleep by the mill or the well. " * 6
ROLE = 'name: {en: "Keeper N", vi: "Người giữ N"}\nteam: village\nability: {en: "TEXT", vi: "TEXT"}\n'.replace(
    "TEXT", ABILITY
)


@pytest.fixture
def long_rulebook(tmp_path: Path, monkeypatch) -> Path:
    """The mini game with a rulebook and 40 roles of six sentences each: a rulebook of some four pages."""
    shutil.copytree(FIXTURES / "mini", tmp_path / "project")
    folder = tmp_path / "project" / "decks" / "mini"
    (folder / "rulebook.yaml").write_text(RULEBOOK, encoding="utf-8")
    for n in range(1, 41):
        (folder / "roles" / f"keeper-{n}.yaml").write_text(ROLE.replace("N", str(n)), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "project")
    return tmp_path / "project"


def _least(project: Path, lang: str) -> int:
    """The estimate of the mini game's rulebook in `lang`."""
    return _estimates(Project.at(project / "decks", ()), "mini", lang)["rulebook"]


def _estimates(project: Project, game: str, lang: str) -> dict[str, int]:
    """The least pages of each document of a game in a language, with no layout at all."""
    (files,), _ = check(project, [game], False)
    build = pipeline.Pipeline(project, BuildOptions())
    prepared, problems = build.prepare(files, lang, cards=False)
    assert prepared is not None, problems
    found: list[int] = []
    least, render = pages.least_pages, typeset.render_document
    try:
        pages.least_pages = lambda *args: found.append(least(*args)) or 0  # type: ignore[assignment]
        typeset.render_document = lambda *args: (b"", 0)  # type: ignore[assignment]
        made = build.documents(prepared, files, frozenset({"rulebook", "script"}), once=True)
    finally:
        pages.least_pages, typeset.render_document = least, render
    return {kind: n for (kind, _, _), n in zip(made, found, strict=True)}


def test_validate_foresees_a_rulebook_past_the_cap_at_the_game_file(long_rulebook, monkeypatch):
    en, vi = _least(long_rulebook, "en"), _least(long_rulebook, "vi")
    assert en > 2 and vi > 2
    monkeypatch.setattr(limits, "MAX_PAGES", 2)
    laid_out = []
    monkeypatch.setattr(typeset, "render_document", lambda *args: laid_out.append(args) or (b"", 0))
    result = run("validate", "mini")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"decks/mini/game.yaml:1: error: mini (en): its rulebook would run to at least {en} pages, {en - 2} past "
        "the 2 a document may have: split the game, or shorten its texts or its template\n"
        f"decks/mini/game.yaml:1: error: mini (vi): its rulebook would run to at least {vi} pages, {vi - 2} past "
        "the 2 a document may have: split the game, or shorten its texts or its template\n"
        "2 errors\n"
    )
    assert laid_out == []  # foreseen from the text: nothing was laid out


def test_build_refuses_it_too_without_a_traceback(long_rulebook, monkeypatch):
    en = _least(long_rulebook, "en")
    monkeypatch.setattr(limits, "MAX_PAGES", 2)
    result = run("build", "mini", "--lang", "en", "--only", "rulebook", "-q", "--jobs", "1")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"decks/mini/game.yaml:1: error: mini (en): its rulebook would run to at least {en} pages, {en - 2} past "
        "the 2 a document may have: split the game, or shorten its texts or its template\n1 error\n"
    )
    assert not (long_rulebook / "output" / "mini" / "mini-rulebook-en.pdf").exists()


def test_a_rulebook_the_estimate_lets_through_is_stopped_by_its_layout(long_rulebook, monkeypatch):
    built = run("build", "mini", "--lang", "en", "--only", "rulebook")
    assert built.exit_code == 0, built.stderr
    real, en = len(pypdf.PdfReader("output/mini/mini-rulebook-en.pdf").pages), _least(long_rulebook, "en")
    assert en < real
    # A cap at the estimate: nothing foresees the rulebook past it, its layout finds it.
    monkeypatch.setattr(limits, "MAX_PAGES", en)
    monkeypatch.setattr(typeset, "MAX_PAGES", en)
    result = run("validate", "mini", "--lang", "en")
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: mini (en): its rulebook runs past {en} pages, more than cardgen lays out: shorten its texts or its "
        "template\n1 error\n",
    )


def test_the_estimate_is_never_over_the_pages_of_a_bundled_document(bundled):
    """Every bundled game in every language: the rulebook's and the script's estimate is at most the
    pages of the PDF built with the default options, read back."""
    project = Project.at(ROOT / "decks", ())
    seen = 0
    for game in project.games():
        (files,), _ = check(project, [game], False)
        for lang in languages(files, ()):
            for kind, least in _estimates(project, game, lang).items():
                real = len(pypdf.PdfReader(bundled / game / f"{game}-{kind}-{lang}.pdf").pages)
                assert 1 <= least <= real, (game, lang, kind, least, real)
                seen += 1
    assert seen >= 30


def test_a_script_past_the_cap_is_foreseen_too(night, monkeypatch):
    monkeypatch.chdir(night)
    least = _estimates(Project.at(night / "decks", ()), "night", "en")["script"]
    assert least == 2
    monkeypatch.setattr(limits, "MAX_PAGES", 1)
    result = run("validate", "night", "--lang", "en")
    assert (result.exit_code, result.stderr) == (
        1,
        "decks/night/game.yaml:4: error: night (en): its script would run to at least 2 pages, 1 past the 1 a "
        "document may have: split the game, or shorten its texts or its template\n1 error\n",
    )


def test_a_booklet_is_said_to_be_one(long_rulebook, monkeypatch):
    monkeypatch.setattr(limits, "MAX_PAGES", 2)
    result = run("validate", "mini", "--lang", "en", "--booklet")
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "decks/mini/game.yaml:1: error: mini (en): its rulebook booklet would run to at least "
    )
