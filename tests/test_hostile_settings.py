"""Hostile settings: a project's cardgen.toml, pyproject.toml and data templates written to break it,
and pictures asked for larger than cardgen draws.

As in test_hostile.py: one named test per hostile input, each asserting the exact clean error (file:line,
the exit code), no traceback, a deadline, and nothing read or written outside the project. Every command
that finds the project checks its settings file, `validate` as `build` does; a data template's numbers are
checked as the file is read; every picture cardgen draws stays within the pixel budget of art.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from cardgen.core import limits
from conftest import ROOT
from test_hostile import cli, problems


@pytest.fixture
def here(mini: Path, monkeypatch) -> Path:
    """The mini game's project, as the working folder: its files are named as a user there sees them."""
    monkeypatch.chdir(mini)
    return mini


def settings(project: Path, text: str, name: str = "cardgen.toml") -> None:
    (project / name).write_text(text, encoding="utf-8")


def command(project: Path, *args: str, limit: float = 60.0):
    """cardgen run in the project, watched (test_hostile.cli): nothing outside the project's folder."""
    return cli(project.parent, *args, limit=limit)


def refused(project: Path, commands: list[tuple[str, ...]], *lines: str) -> None:
    """Every one of the commands fails with exactly these problems."""
    for args in commands:
        result, watch = command(project, *args)
        assert (result.exit_code, result.stderr) == (1, problems(*lines)), args
        watch.assert_contained()


VALIDATE_AND_BUILD = [("validate", "-q"), ("build", "-q", "--lang", "en")]

# == cardgen.toml and pyproject.toml =============================================================


@pytest.mark.parametrize(
    "offset, message",
    [
        ("[nan, inf]", "expected offsets from -10 to 10 mm, got [nan, inf]"),
        ("[1e308, 0]", "expected offsets from -10 to 10 mm, got [1e+308, 0]"),
        ("[10.5, 0]", "expected offsets from -10 to 10 mm, got [10.5, 0]"),
        ("[true, false]", "expected [x, y] in mm, got [True, False]"),
        ('"0.5,-1"', "expected [x, y] in mm, got '0.5,-1'"),
    ],
    ids=["nan-inf", "1e308", "past-10-mm", "booleans", "text"],
)
def test_a_printers_back_offset_is_checked_by_every_command(here, offset, message):
    """Found (issue 29): [nan, inf] and [1e308, 0] ended `build --printer office` in a ReportLab traceback,
    [true, false] was taken as [1, 0], and without --printer nothing looked at them at all."""
    settings(here, f"[printers.office]\nback-offset = {offset}\n")
    line = f"cardgen.toml:2: error: printers.office.back-offset: {message}"
    commands = [*VALIDATE_AND_BUILD, ("build", "-q", "--lang", "en", "--printer", "office")]
    commands += [("export", "mini", "--png"), ("calibrate",), ("list",)]
    refused(here, commands, line)
    assert not (here / "output").exists()


def test_a_back_offset_on_the_command_line_keeps_the_same_range(here):
    result, _ = command(here, "build", "--back-offset", "10.5,0")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "error: Invalid value for '--back-offset': expected offsets from -10 to 10 mm, got '10.5,0'"
    )
    settings(here, "[build]\nback-offset = [-11, 0]\n")
    refused(
        here,
        VALIDATE_AND_BUILD,
        "cardgen.toml:2: error: [build] back-offset: expected offsets from -10 to 10 mm, got '-11,0'",
    )


@pytest.mark.parametrize(
    "text, line",
    [
        ('[build]\nlang = "en"\npaper = \n', "cardgen.toml:3: error: TOML error: Invalid value (column 9)"),
        (
            '[build\nlang = "en"\n',
            "cardgen.toml:1: error: TOML error: Expected ']' at the end of a table declaration (column 7)",
        ),
        ('[build]\nlang = ["en"\n', "cardgen.toml:2: error: TOML error: Unclosed array (at the end of the file)"),
    ],
    ids=["no-value", "unclosed-header", "unclosed-array"],
)
def test_a_toml_syntax_error_names_its_line_in_every_command(here, text, line):
    """Found (issue 29): a syntax error was said without its line."""
    settings(here, text)
    refused(here, [*VALIDATE_AND_BUILD, ("export", "mini", "--png"), ("box", "mini")], line)


@pytest.mark.parametrize(
    "text, line",
    [
        (
            "[tool]\ncardgen = 5\n",
            "pyproject.toml:2: error: tool.cardgen: expected a table of cardgen's settings ([tool.cardgen]), got 5",
        ),
        (
            '[project]\nname = "party"\n\n[tool]\ncardgen = "x"\n',
            "pyproject.toml:5: error: tool.cardgen: expected a table of cardgen's settings ([tool.cardgen]), got 'x'",
        ),
        (
            'tool.cardgen = "x"\n',
            "pyproject.toml:1: error: tool.cardgen: expected a table of cardgen's settings ([tool.cardgen]), got 'x'",
        ),
        (
            "[tool.cardgen]\nprinters = 5\n",
            "pyproject.toml:2: error: printers: expected a table of printers' settings ([printers]), got 5",
        ),
        (
            "[tool.cardgen.printers.office]\nback-offset = [true, 0]\n",
            "pyproject.toml:2: error: printers.office.back-offset: expected [x, y] in mm, got [True, 0]",
        ),
        ('[project]\nname = "party\n', "pyproject.toml:2: error: TOML error: Illegal character '\\n' (column 14)"),
    ],
    ids=["cardgen-5", "cardgen-text", "dotted", "printers-5", "offset-booleans", "syntax"],
)
def test_pyproject_tool_cardgen_is_checked_at_its_line(here, text, line):
    """Found (issue 29): `tool = 5` and the like in pyproject.toml gave a traceback."""
    settings(here, text, "pyproject.toml")
    refused(here, VALIDATE_AND_BUILD, line)


@pytest.mark.parametrize("text", ["tool = 5\n", '[project]\nname = "party"\n\n[tool.black]\nline-length = 120\n'])
def test_a_pyproject_toml_without_tool_cardgen_is_not_cardgens_to_judge(here, text):
    settings(here, text, "pyproject.toml")
    result, watch = command(here, "validate")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "1 game valid\n", "")
    watch.assert_contained()


def test_a_table_or_a_printers_key_cardgen_does_not_know_is_a_warning_at_its_line(here):
    settings(here, "[printers.office]\nback-offset = [0.5, -1]\nspeed = 2\n\n[bild]\nlang = 'en'\n")
    warnings = [
        "cardgen.toml:3: warning: unknown key 'speed' in [printers.office]; known: back-offset",
        "cardgen.toml:5: warning: unknown table 'bild' (did you mean 'build'?); known: build, printers, cardgen",
    ]
    result, _ = command(here, "validate")
    assert (result.exit_code, result.stdout, result.stderr.splitlines()) == (0, "1 game valid, 2 warnings\n", warnings)
    result, _ = command(here, "validate", "--strict")
    assert (result.exit_code, result.stderr) == (1, problems(*warnings))


@pytest.mark.parametrize(
    "text, line",
    [
        (
            "printers = 5\n",
            "cardgen.toml:1: error: printers: expected a table of printers' settings ([printers]), got 5",
        ),
        (
            "[printers]\noffice = 5\n",
            "cardgen.toml:2: error: printers.office: expected a table of a printer's settings ([printers.office]), got 5",
        ),
        (
            "[printers]\noffice = {back-offset = [0, inf]}\n",
            "cardgen.toml:2: error: printers.office.back-offset: expected offsets from -10 to 10 mm, got [0, inf]",
        ),
        (
            "printers.office.back-offset = [0, 99]\n",
            "cardgen.toml:1: error: printers.office.back-offset: expected offsets from -10 to 10 mm, got [0, 99]",
        ),
    ],
    ids=["printers-5", "printer-5", "inline", "dotted"],
)
def test_printers_of_the_wrong_shape_are_errors_at_their_line(here, text, line):
    settings(here, text)
    refused(here, VALIDATE_AND_BUILD, line)


# == the project's data templates ===============================================================


def own_template(project: Path, name: str, old: str, new: str) -> None:
    """The project's own copy of a built-in data template (made if it has none), with one piece of text replaced."""
    target = project / "templates" / name
    text = (target if target.exists() else ROOT / "templates" / name).read_text(encoding="utf-8")
    assert old in text, old
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text.replace(old, new, 1), encoding="utf-8")


POKER = "poker:     {width: 63,   height: 88,"
TEMPLATE_CASES = [
    (
        "paper.yaml",
        "width: 210,",
        "width: 1e7,",
        "templates/paper.yaml:6: error: a4.width: expected a number of mm from 50 to 1500, got 10000000.0",
    ),
    (
        "paper.yaml",
        "height: 297,",
        "height: .inf,",
        "templates/paper.yaml:6: error: a4.height: expected a number of mm from 50 to 1500, got inf",
    ),
    (
        "paper.yaml",
        "height: 297,",
        "height: true,",
        "templates/paper.yaml:6: error: a4.height: expected a number of mm from 50 to 1500, got True",
    ),
    (
        "card-sizes.yaml",
        POKER,
        "poker:     {width: 1e6,  height: 88,",
        "templates/card-sizes.yaml:5: error: poker.width: expected a number of mm from 20 to 400, got 1000000.0",
    ),
    (
        "card-sizes.yaml",
        POKER,
        "poker:     {width: .nan, height: 88,",
        "templates/card-sizes.yaml:5: error: poker.width: expected a number of mm from 20 to 400, got nan",
    ),
    (
        "card-sizes.yaml",
        POKER,
        "poker:     {width: 63,   height: -88,",
        "templates/card-sizes.yaml:5: error: poker.height: expected a number of mm from 20 to 400, got -88",
    ),
    (
        "card-sizes.yaml",
        POKER,
        "poker:     {width: 63,   height: '88mm',",
        "templates/card-sizes.yaml:5: error: poker.height: expected a number of mm from 20 to 400, got '88mm'",
    ),
    (
        "sheet.yaml",
        "printable-margin: 5.0",
        "printable-margin: 1e9",
        "templates/sheet.yaml:15: error: printable-margin: expected a number of mm from 0 to 30, got 1000000000.0",
    ),
    (
        "sheet.yaml",
        "gutter: 0",
        "gutter: true",
        "templates/sheet.yaml:8: error: gutter: expected a number of mm from 0 to 20, got True",
    ),
    (
        "sheet.yaml",
        "dash: [3.0, 2.0]",
        "dash: [3.0, 0]",
        "templates/sheet.yaml:40: error: fold.dash.1: expected a number of mm from 0.1 to 50, got 0",
    ),
    (
        "sheet.yaml",
        "gutter: 0\n",
        "",
        "templates/sheet.yaml: error: gutter: expected a number of mm from 0 to 20, got nothing",
    ),
    (
        "card-layout.yaml",
        "inset: 2.5 ",
        "inset: -2.5",
        "templates/card-layout.yaml:6: error: frame.inset: expected a number from 0 to 400, got -2.5",
    ),
    (
        "card-layout.yaml",
        "padding: 1.6 ",
        "padding: .nan",
        "templates/card-layout.yaml:12: error: panel.padding: expected a number from 0 to 400, got nan",
    ),
]


@pytest.mark.parametrize(
    "name, old, new, line",
    TEMPLATE_CASES,
    ids=[
        "paper-1e7",
        "paper-inf",
        "paper-true",
        "card-1e6",
        "card-nan",
        "card-negative",
        "card-text",
        "margin-1e9",
        "gutter-true",
        "dash-0",
        "gutter-missing",
        "layout-negative",
        "layout-nan",
    ],
)
def test_a_data_template_out_of_bounds_is_an_error_at_its_line(here, name, old, new, line):
    """Found (issue 29): a card size 1e6 mm wide or a paper of 1e7 or .inf ran on past 15-60 s (1.8 GB); a
    nan card size was blamed on a deck's ability text."""
    own_template(here, name, old, new)
    refused(here, [("validate", "-q"), ("build", "-q", "--lang", "en", "--paper", "a4")], line)


@pytest.mark.parametrize(
    "name, old, new, run, line",
    [
        (
            "box.yaml",
            "notch: 8 ",
            "notch: 800",
            ("box", "mini"),
            "templates/box.yaml:5: error: notch: expected a number of mm from 0 to 50, got 800",
        ),
        (
            "box.yaml",
            "fold-dash: [2.0, 1.5]",
            "fold-dash: 2",
            ("box", "mini"),
            "templates/box.yaml:8: error: fold-dash: expected a list of numbers of mm from 0.1 to 50, got 2",
        ),
        (
            "exports/thegamecrafter.yaml",
            "bleed: 0.125in",
            "bleed: 1e9mm",
            ("export", "mini", "--for", "thegamecrafter"),
            "templates/exports/thegamecrafter.yaml:17: error: bleed: expected a length from 0 to 10 mm, got '1e9mm'",
        ),
        (
            "exports/drivethrucards.yaml",
            "poker: {width: 2.5in, height: 3.5in,",
            "poker: {width: 2.5in, height: 1e6in,",
            ("export", "mini", "--for", "drivethrucards"),
            "templates/exports/drivethrucards.yaml:32: error: sizes.poker.height: expected a length from 20 to 400 mm, got '1e6in'",
        ),
    ],
    ids=["box-notch", "box-dash", "service-bleed", "service-size"],
)
def test_a_data_template_only_one_command_reads_is_checked_by_validate_too(here, name, old, new, run, line):
    """Found (issue 29): a print service's bleed of 1e9mm ran on for minutes; validate never read it."""
    own_template(here, name, old, new)
    refused(here, [("validate", "-q"), run], line)


# == pictures within the pixel budget ===========================================================


def test_an_export_at_a_dpi_whose_pictures_pass_the_budget_is_refused_before_drawing(here):
    own_template(
        here,
        "card-sizes.yaml",
        POKER + ' sleeve: "66 × 91", print-service: poker-us,',
        "poker:     {width: 400, height: 400,",
    )
    refused(
        here,
        [("export", "mini", "--png", "--dpi", "1200")],
        "error: --dpi 1200: the 'poker' cards with their bleed, 406.35 x 406.35 mm at 1200 DPI would be "
        "19198 x 19198 pixels, more than the 25 megapixels cardgen draws a picture with (at most 312 DPI at this size)",
    )
    assert not (here / "output").exists()


def test_a_print_services_dpi_whose_pictures_pass_the_budget_is_an_error_at_its_line(here):
    own_template(here, "exports/thegamecrafter.yaml", "dpi: 300 ", "dpi: 1200")
    own_template(
        here,
        "exports/thegamecrafter.yaml",
        "poker: {width: 2.5in, height: 3.5in,",
        "poker: {width: 300mm, height: 300mm,",
    )
    line = (
        "templates/exports/thegamecrafter.yaml:19: error: dpi: the 'poker' cards with their bleed, 306.35 x 306.35 mm "
        "at 1200 DPI would be 14473 x 14473 pixels, more than the 25 megapixels cardgen draws a picture with "
        "(at most 414 DPI at this size)"
    )
    refused(here, [("validate", "-q"), ("export", "mini", "--for", "thegamecrafter")], line)


def test_the_budget_holds_the_site_of_a_deck_whose_cards_it_draws_at_one_resolution(here, monkeypatch):
    """The site draws a deck's cards at the resolution that makes its shortest PIXELS_HIGH high; where its
    largest would then pass the budget (here made small), at the highest resolution that keeps it within."""
    monkeypatch.setattr(limits, "MAX_PIXELS", 100_000)
    result, _ = command(here, "site", "-q", "--lang", "en")
    assert result.exit_code == 0, result.output
    pictures = list((here / "output" / "site" / "mini" / "pictures").glob("*.webp"))
    assert pictures
    for path in pictures:
        with Image.open(path) as picture:
            assert 90_000 < picture.width * picture.height <= 100_000, (path.name, picture.size)


def test_the_budget_holds_a_previews_contact_sheet(here, monkeypatch):
    """A contact sheet is as many cards as the deck has, in rows of eight: a large deck at --dpi 300 is
    far more pixels than any one card; its cards are drawn smaller to stay within the budget (here made
    small: two cards at 96 DPI are 512 x 356 pixels)."""
    monkeypatch.setattr(limits, "MAX_PIXELS", 150_000)
    result, _ = command(here, "preview", "--lang", "en", "--dpi", "96")
    assert result.exit_code == 0, result.output
    with Image.open(here / "output" / "mini" / "mini-contact-en.png") as sheet:
        assert 120_000 < sheet.width * sheet.height <= 150_000, sheet.size
    with Image.open(here / "output" / "preview" / "mini" / "en" / "seer-front.png") as card:
        assert card.size == (238, 333)  # each card's own picture, at the --dpi asked for


def test_every_size_a_project_may_give_is_drawn_within_the_budget_at_the_default_dpi():
    """The bounds and the budget agree: the largest card with the largest bleed at 300 DPI (export's
    default, print services' usual) fits, so only a --dpi or a service's dpi asked higher is refused."""
    largest = limits.CARD.high + 2 * limits.BLEED.high
    assert limits.over_budget(largest, largest, 300) is None
    assert re.search(r"at most 30\d DPI", limits.over_budget(largest, largest, 320) or "")


def test_the_built_in_templates_keep_their_own_bounds():
    from cardgen.core.yaml12 import safe_load

    for name in limits.BOUNDS:
        data = safe_load((ROOT / "templates" / name).read_text(encoding="utf-8"))
        assert limits.problems(name, data) == [], name
