"""The cardgen command: the process's arguments in, one of the commands run out; user errors become
ClickExceptions, printed as ``file:line: error: message`` (or ``error: message``) without a traceback,
and exit 130 on Ctrl-C.

Each command is a module of this package and stays thin: every decision lives in the pipeline's
modules, which a command imports when it runs, so that `--help` and `list` load none of them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from cardgen import __version__
from cardgen.cli import build, common, completions, export, listing, narrator, new, serve, site, translate
from cardgen.cli.options import shared
from cardgen.core.problems import DeckError


class _Process(click.Group):
    """The cardgen command. Run as a process (not by a test's runner, which passes its arguments), it
    counts the seconds it reports from the process's start, and exits without tearing its heap down
    (after a build that is a quarter of a second nobody needs to wait for) unless a profiler or a
    tracer waits for the exit."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if args is not None:
            return self._run(args, prog_name, complete_var, standalone_mode, **extra)
        common.started = common.process_start()
        try:
            self._run(args, prog_name, complete_var, standalone_mode, **extra)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
            if not isinstance(exc.code, (int, type(None))):
                click.echo(str(exc.code), err=True)
        if sys.getprofile() is not None or sys.gettrace() is not None:
            sys.exit(code)  # a profiler or a coverage tool writes its findings at exit
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)

    def _run(self, args, prog_name, complete_var, standalone_mode: bool, **extra: Any) -> Any:
        """click's main, with cardgen's way of ending: `error: ` before every error, and 130 on Ctrl-C."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.ClickException as exc:
            _show(exc)
            sys.exit(exc.exit_code)
        except DeckError as exc:  # a file that could not be written, where the command does not catch it
            _show(common.DeckProblems(exc.problems))
            sys.exit(1)
        except click.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):
                click.echo(f"interrupted: {INTERRUPTED}", err=True)
                sys.exit(130)
            click.echo("error: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


# cardgen writes each file to a temporary name and renames it when it is whole.
INTERRUPTED = "the files written before Ctrl-C are complete and kept; none is half-written"


def _show(exc: click.ClickException) -> None:
    """An error as cardgen prints it: a usage error after the usage line and the help hint, as click
    does, then ``error: message`` (a deck's problems print themselves)."""
    if isinstance(exc, common.DeckProblems):
        exc.show()
        return
    if isinstance(exc, click.UsageError) and exc.ctx is not None:
        hint = ""
        if exc.ctx.command.get_help_option(exc.ctx) is not None:
            hint = f"Try '{exc.ctx.command_path} {exc.ctx.help_option_names[0]}' for help.\n"
        click.echo(f"{exc.ctx.get_usage()}\n{hint}", err=True)
    click.echo(f"error: {exc.format_message()}", err=True)


@click.group(cls=_Process, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="cardgen")
def main() -> None:
    """Print-and-cut card sheets for social-deduction party games, from YAML decks."""
    from cardgen.build import end_on_signals

    end_on_signals()


for command in (
    build.build_command,
    build.validate_command,
    build.watch_command,
    narrator.narrator_command,
    listing.list_command,
    listing.setup_command,
    new.new_group,
    new.init_command,
    new.schema_command,
    export.export_command,
    export.box_command,
    export.calibrate_command,
    site.site_command,
    site.preview_command,
    serve.serve_command,
    translate.translate_group,
    completions.completions_command,
):
    shared(command)
    main.add_command(command)
