"""`cardgen export`, `box` and `calibrate`: a game (or a printer) in; files for a print shop, Tabletop
Simulator, a tuck box to fold, or a duplex test sheet out."""

from __future__ import annotations

import click

from cardgen.cli import common
from cardgen.cli.common import DeckProblems
from cardgen.cli.options import (
    back_offset_of,
    back_offset_option,
    bleed_option,
    decks_option,
    lang_option,
    margin_option,
    out_option,
    paper_option,
    printer_option,
)
from cardgen.core.problems import DeckError, Problem, did_you_mean


class _HostedAt(click.ParamType):
    """Where TTS fetches the sheet images: the saved object names every image by this prefix, and TTS
    loads whatever it names, so only a web or file address may stand there, never a script
    (`javascript:`) or a path that climbs (`../../`)."""

    name = "ADDRESS"

    def convert(self, value, param, ctx):
        from urllib.parse import urlsplit

        expected = "an http://, https:// or file:// address ending in / (like https://example.org/cards/)"
        try:
            parts = urlsplit(value)
        except ValueError:
            parts = None
        scheme = parts.scheme.lower() if parts else ""
        # urlsplit drops tabs and line breaks silently: the address TTS is given must be the one written.
        hidden = any(char.isspace() or not char.isprintable() for char in value)
        placed = parts is not None and (
            bool(parts.netloc) if scheme in ("http", "https") else scheme == "file" and parts.path.startswith("/")
        )
        # Each image's file name is appended to it: without the closing / they would run into its last name.
        if hidden or not placed or not value.endswith("/"):
            self.fail(f"expected {expected}, got {value!r}", param, ctx)
        return value


@click.command("export")
@click.argument("game")
@click.option(
    "--for",
    "target",
    metavar="SERVICE",
    help="A print service (drivethrucards, makeplayingcards, thegamecrafter, printplaygames: "
    "its files as templates/exports/SERVICE.yaml describes them) or tts (Tabletop Simulator).",
)
@lang_option
@out_option
@bleed_option(None, " (default: 1/8 in, what print shops ask for)")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True, help="Resolution of the PNGs.")
@click.option(
    "--url",
    type=_HostedAt(),
    help="With --for tts: the address the sheet images will be hosted at, ending in / "
    "(default: bare file names, for images copied into TTS's Mods/Images folder).",
)
@click.option("--png", is_flag=True, help="One PNG per card front and back, per copy, and cards.csv.")
@click.option("--pdf", is_flag=True, help="One card per page, TrimBox and BleedBox set, for a print shop.")
@decks_option
@click.pass_context
def export_command(ctx, game, target, langs, out, bleed, dpi, url, png, pdf, decks, includes) -> None:
    """Export GAME for a print shop: a one-card-per-page PDF and numbered PNGs with bleed
    (neither --png nor --pdf: both); or, with --for, the files a print service or
    Tabletop Simulator takes."""
    from cardgen.outputs.export import DEFAULT_BLEED, ExportOptions, export

    project = common.project(decks, includes)
    out = out or project.output
    if target is not None:
        # A service's data file settles bleed, resolution and formats; a flag that says otherwise is a mistake.
        given = [
            f"--{name}"
            for name in ("bleed", "dpi", "png", "pdf")
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE
        ]
        if given:
            raise click.UsageError(f"{', '.join(given)} cannot be used with --for: the service's file settles them")
    if url is not None and target != "tts":
        raise click.UsageError("--url is for --for tts")
    try:
        if target is None:
            both = not (png or pdf)
            bleed = DEFAULT_BLEED if bleed is None else bleed
            report = export(project, game, ExportOptions(tuple(langs), out, bleed, dpi, png or both, pdf or both))
        elif target == "tts":
            from cardgen.outputs.tts import export_tts

            report = export_tts(project, game, tuple(langs), out, url or "")
        else:
            from cardgen.outputs.print_service import export_for

            report = export_for(project, game, target, tuple(langs), out)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    common.warn(list(report.warnings))
    # The PNGs go unlisted (two per card); their folder's CSV names each of them.
    for path in report.files:
        if path.suffix != ".png":
            click.echo(str(path))
    pngs = sum(1 for path in report.files if path.suffix == ".png")
    click.echo(f"{len(report.files)} files ({pngs} PNG), {report.cards} cards in {report.seconds:.1f} s")


@click.command("box")
@click.argument("game")
@lang_option
@paper_option
@click.option(
    "--stock",
    type=click.FloatRange(0.05, 2),
    default=0.3,
    show_default=True,
    help="Thickness of one card in mm (sleeved cards: about 0.6).",
)
@click.option(
    "--clearance",
    type=click.FloatRange(0, 10),
    default=2.0,
    show_default=True,
    help="Room the cards get in mm, across, along and in depth.",
)
@margin_option(5.0)
@out_option
@decks_option
def box_command(game, langs, paper, stock, clearance, margin, out, decks, includes) -> None:
    """A tuck box for GAME's cards, sized from their size, count and the stock, to print, cut, fold and glue."""
    from cardgen.outputs.box import make_boxes

    for value, name in ((stock, "stock"), (clearance, "clearance")):
        if value != value:
            raise click.BadParameter("expected a number, got nan", param_hint=f"--{name}")
    project = common.project(decks, includes)
    try:
        report = make_boxes(project, game, tuple(langs), out or project.output, paper, stock, clearance, margin)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    common.warn(list(report.warnings))
    for path in report.files:
        click.echo(str(path))
    files = len(report.files)
    click.echo(f"{files} file{'' if files == 1 else 's'}, {report.cards} cards boxed in {report.seconds:.1f} s")


@click.command("calibrate")
@paper_option
@click.option(
    "--backs",
    type=click.Choice(["long", "short"]),
    default="long",
    show_default=True,
    help="How your printer flips the sheet for the back.",
)
@back_offset_option
@printer_option
@out_option
@decks_option
def calibrate_command(paper, backs, back_offset, printer, out, decks, includes) -> None:
    """A two-sided test sheet that measures how far your printer misplaces the backs; with --back-offset or
    --printer, the offset in use is checked: both pointers then read 0."""
    from cardgen.cards.layout import named_size
    from cardgen.core.write import write_atomic
    from cardgen.outputs.calibrate import render_calibration
    from cardgen.text.fonts import FontBook

    project = common.project(decks, includes)
    offset = back_offset_of(project, back_offset, printer)
    try:
        papers = project.template_data("paper.yaml")
        if paper not in papers:
            raise DeckError(
                [
                    Problem(
                        None, f"unknown paper '{paper}'{did_you_mean(paper, papers)}; known papers: {', '.join(papers)}"
                    )
                ]
            )
        book = FontBook.load(project.template("fonts.yaml"), project.fonts)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    lines = [
        f"Duplex calibration, {paper}, flipped on the {backs} edge; backs moved by {offset[0]:g},{offset[1]:g} mm.",
        "Print both sides at 100 %, hold the sheet against a light, and read where each",
        "pointer line from the back crosses its scale: pass the two numbers as",
        "cardgen build --back-offset X,Y (or remember them: [printers.NAME] back-offset = [X, Y]",
        "in cardgen.toml). Printed again with that offset, both pointers read 0.",
    ]
    target = (out or project.output) / f"calibration-{paper}-{backs}.pdf"
    write_atomic(target, render_calibration(named_size(papers, paper, "paper"), book, backs, offset, lines))
    click.echo(str(target))
