"""`cardgen site` and `preview`: games and options in; a static site to share (every output and card
picture, per game and language) or contact sheets and a gallery of every card out."""

from __future__ import annotations

import click

from cardgen.cli import common
from cardgen.cli.common import DeckProblems, warn
from cardgen.cli.options import (
    build_options,
    decks_option,
    gather,
    lang_option,
    out_option,
    verbosity_option,
)
from cardgen.core.problems import DeckError, count


@click.command("preview")
@click.argument("games", nargs=-1)
@lang_option
@out_option
@click.option("--dpi", type=click.IntRange(30, 300), default=96, show_default=True)
@decks_option
def preview_command(games, langs, out, dpi, decks, includes) -> None:
    """A contact sheet per deck and language, and an HTML gallery of every card (output/preview/index.html)."""
    from cardgen.outputs.preview import preview

    try:
        project = common.project(decks, includes)
        report = preview(project, games, tuple(langs), out or project.output, dpi)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    for path in report.files:
        click.echo(str(path))
    click.echo(f"{report.cards} cards previewed")


@click.command("site")
@click.argument("games", nargs=-1)
@build_options
@verbosity_option
@decks_option
@click.pass_context
def site_command(ctx, games, quiet, verbose, decks, includes, **_options) -> None:
    """A site for the group in OUT/site/: a page per game and language with its cards, every PDF and
    narrator page to download, and the printing guide; open index.html, or publish the folder as it is.
    Builds what changed first, as cardgen build does, and draws the card pictures again only where
    their cards changed."""
    from cardgen.outputs.site import make_site

    level = common.verbosity(quiet, verbose)
    project = common.project(decks, includes)
    options, settings_warnings = gather(ctx, project)
    try:
        report = make_site(project, games, options, common.progress("building", level))
    except DeckError as exc:
        raise DeckProblems(settings_warnings + exc.problems, quiet) from None
    warn(settings_warnings + report.warnings, quiet)
    click.echo(str(report.index))
    click.echo(
        f"{count(len(report.pages), 'page')} and {count(report.files, 'file')} in {report.index.parent} "
        f"({report.built} outputs built first, card pictures drawn for {report.drawn} of "
        f"{len(report.pages)} pages) in {report.seconds:.1f} s"
    )
