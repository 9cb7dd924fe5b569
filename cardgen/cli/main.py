"""The cardgen command: the process's arguments in, one of the commands run out; user errors become
ClickExceptions, printed as ``file:line: message`` without a traceback.

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
from cardgen.cli import build, common, export, listing, narrator, new, serve, site


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
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        common.started = common.process_start()
        try:
            super().main(args, prog_name, complete_var, standalone_mode, **extra)
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


@click.group(cls=_Process, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardgen")
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
):
    main.add_command(command)
