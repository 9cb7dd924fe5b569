"""`cardgen serve`: games, the site's build options and a port in; the site built, served on
127.0.0.1 and rebuilt whenever a deck, an include, a template or a font is saved, with the open page
reloaded (cli/live_server.py serves it) and a deck's problems shown on it, out. Ctrl-C ends it with 130.

Loads click and cardgen's core only: `--help` and `list` must stay quick.
"""

from __future__ import annotations

import time

import click

from cardgen.cli import common
from cardgen.cli.common import DeckProblems, warn
from cardgen.cli.options import build_options, decks_option, gather, verbosity_option
from cardgen.core.problems import DeckError, count

INTERRUPTED = 130  # the shell's convention for a process ended by Ctrl-C


@click.command("serve")
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="The port on 127.0.0.1 to serve on; 0 takes any free one (the line it prints names it).",
)
@build_options
@verbosity_option
@decks_option
@click.pass_context
def serve_command(ctx, games, port, quiet, verbose, decks, includes, **_options) -> None:
    """A live preview of the site: builds it as cardgen site does, serves it on http://127.0.0.1:PORT/
    and, whenever a deck, an include, a template or a font is saved, rebuilds what changed and reloads
    the page open in the browser; a deck's problems show on the page until the file is mended.
    Nothing is served beyond this machine. Ctrl-C stops it (exit 130) and leaves the site in OUT/site/."""
    import errno
    import threading

    from cardgen.build import game_folder
    from cardgen.cli.live_server import Server, State
    from cardgen.cli.watching import snapshot, watch
    from cardgen.outputs.site import make_site, site_folder

    level = common.verbosity(quiet, verbose)
    project = common.project(decks, includes)
    options, settings_warnings = gather(ctx, project)
    warn(settings_warnings, quiet)
    try:
        folders = [game_folder(project, game) for game in games]  # a misspelt game is an error now
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    watched = (
        [*folders, *(include / folder.name for folder in folders for include in project.includes)]
        if folders
        else [project.decks, *project.includes]
    ) + [*project.templates, *project.fonts]
    root = site_folder(options.out)
    state = State()
    try:
        server = Server(port, root, state)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise click.ClickException(
                f"port {port} on 127.0.0.1 is in use: give --port another, or 0 for any free one"
            ) from None
        raise click.ClickException(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    names = [str(folder) if folder.parent != project.decks else folder.name for folder in folders]

    def rebuild() -> None:
        try:
            report = make_site(project, names, options, common.progress("building", level))
        except DeckError as exc:
            shown = DeckProblems(settings_warnings + exc.problems, quiet)
            shown.show()
            click.echo(f"{time.strftime('%H:%M:%S')} not built; watching for changes", err=True)
            state.finished(f"{shown.message}\n{shown.tally}")
            return
        warn(report.warnings, quiet)
        click.echo(
            f"{time.strftime('%H:%M:%S')} built {count(len(report.pages), 'page')} "
            f"({report.built} outputs rebuilt, card pictures drawn for {report.drawn}) in {report.seconds:.1f} s"
        )
        state.finished(None)

    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    try:
        seen = snapshot(watched)
        rebuild()
        thread.start()
        click.echo("watching, to rebuild on a save:")
        for folder in watched:
            own = folder.resolve().is_relative_to(project.root.resolve())
            click.echo(f"  {project.display(folder) if own else folder}/{'' if own else '  (cardgen’s own)'}")
        url = f"http://127.0.0.1:{server.port}/"
        click.echo(f"serving {project.display(root)}/ at {url}  (open it in a browser; Ctrl-C stops)")
        for folder in folders:
            for page in sorted((root / folder.name).glob("*.html"))[:1]:
                click.echo(f"  {folder.name}: {url}{folder.name}/{page.name}")
        watch(watched, rebuild, seen)
    except KeyboardInterrupt:
        click.echo(f"stopped (Ctrl-C); the site built last is kept in {project.display(root)}/", err=True)
        ctx.exit(INTERRUPTED)
    finally:
        state.stop()
        if thread.is_alive():
            server.shutdown()
        server.server_close()
