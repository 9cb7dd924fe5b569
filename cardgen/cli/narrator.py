"""`cardgen narrator`: a game, a language and a table in; its narrator page built if it changed, and
opened in a browser (or its path printed) out."""

from __future__ import annotations

import os
import sys

import click

from cardgen.cli import common
from cardgen.cli.common import DeckProblems, warn
from cardgen.cli.options import decks_option, gather, out_option, table_options
from cardgen.core.problems import DeckError


@click.command("narrator")
@click.argument("game")
@click.option("--lang", help="Language code (default: the game's first).")
@table_options
@out_option
@click.option("--no-open", is_flag=True, help="Only build the page and print where it is.")
@decks_option
@click.pass_context
def narrator_command(ctx, game, lang, no_open, decks, includes, **_options) -> None:
    """Build GAME's narrator page if it changed, and open it: one HTML file that runs the night aloud,
    its setup screen starting from the table named (for the game's table of N:
    <game>-narrator-<lang>-<N>p.html; another setup is named before it, <lang>-<setup>-<N>p, and cards
    chosen with --with or --roles add a digest of them, <N>p-3f9a2c, so two tables never share a file)."""
    from cardgen.build import build, check
    from cardgen.build.kinds import NARRATOR

    if lang and "+" in lang:
        raise click.BadParameter(
            f"the narrator page reads aloud in one language: give one, like --lang {lang.split('+')[0]}",
            param_hint="'--lang'",
        )
    project = common.project(decks, includes)
    try:
        (files,), _ = check(project, [game], strict=False)
        if not NARRATOR.made_for(files):
            raise click.ClickException(
                f"{project.display(files.folder)}: game '{files.id}' has no "
                f"{' or '.join(NARRATOR.needs)}, so no narrator page"
            )
        options, settings_warnings = gather(
            ctx, project, langs=(lang or files.checked_game.data["languages"][0],), kinds=(NARRATOR.name,)
        )
        report = build(project, [game], options)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    warn(settings_warnings + report.warnings)
    (target,) = report.files + report.kept
    click.echo(str(target))
    if no_open:
        return
    if sys.platform in ("darwin", "win32") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        click.launch(str(target))
    else:
        # Over ssh or in CI there is no screen to open it on: the path above is what to open.
        click.echo("no display here: open that file in a browser", err=True)
