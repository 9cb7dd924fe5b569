"""Every card size the README advertises builds for every bundled game: every text fits its box
(refitted, in the layout of the size's class), in a CJK and a Latin language."""

from __future__ import annotations

import re

import pytest
import yaml

from conftest import ROOT

GAMES = ("werewolf", "salem-1692", "mafia-vendetta", "werewords")


def advertised() -> list[tuple[str, float, float]]:
    """(name, width, height) of each size in the README's --card-size row."""
    row = next(
        line
        for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| `--card-size")
    )
    return [(name, float(w), float(h)) for name, w, h in re.findall(r"([a-z-]+) (\d+(?:\.\d+)?)×(\d+(?:\.\d+)?)", row)]


SIZES = [name for name, _, _ in advertised()]


def test_the_readme_advertises_the_sizes_card_sizes_yaml_has():
    sizes = yaml.safe_load((ROOT / "templates" / "card-sizes.yaml").read_text(encoding="utf-8"))
    assert len(SIZES) >= 7
    for name, width, height in advertised():
        assert (sizes[name]["width"], sizes[name]["height"]) == (width, height), name


@pytest.fixture(scope="module")
def pipeline():
    from cardgen.build import BuildOptions, Pipeline, check
    from cardgen.core.project import Project

    project = Project.at(ROOT / "decks")
    return Pipeline(project, BuildOptions()), {files.id: files for files in check(project, [], False)[0]}


@pytest.mark.parametrize("lang", ["zh", "es"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_every_advertised_size_builds_for_every_game(pipeline, game, size, lang):
    from cardgen.build import BuildOptions

    built, games = pipeline
    built.options = BuildOptions(card_size=size)
    prepared, problems = built.prepare(games[game], lang)
    assert prepared is not None, "\n".join(map(str, problems))
    assert not [p for p in problems if p.severity == "error"]
    # The cards of the game's own size take the size asked for; tokens keep theirs.
    expected = dict((name, (w, h)) for name, w, h in advertised())[size]
    trims = {
        (slot.trim.w, slot.trim.h)
        for page in prepared.pages
        for slot in page.slots
        if prepared.deck.copies[slot.item].group.shape == "rect"
    }
    assert trims == {expected}


@pytest.mark.parametrize(
    ("size", "printed", "left_out"), [("poker", "se debate", "empate salva"), ("mini", "empate salva", "se debate")]
)
def test_a_card_prints_its_short_ability_where_its_full_text_does_not_fit_the_size(tmp_path, size, printed, left_out):
    """Spanish Mafia's player aid holds its full rules on a poker card; on a mini card only its short form
    fits, which it prints instead of refusing the build."""
    import pypdf

    from conftest import run

    result = run("build", "mafia-vendetta", "--lang", "es", "--card-size", size, "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "mafia-vendetta" / "mafia-vendetta-cards-es.pdf"
    text = " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(pdf).pages)
    assert printed in text and left_out not in text
