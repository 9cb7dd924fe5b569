"""Command-line options several commands share: a command function in, the same function taking them out.

Here rather than in cardgen.cli because cli imports the modules of the larger
commands (export, box) to register them, and those need the options first.
"""

from __future__ import annotations

from pathlib import Path

import click


def decks_option(command):
    """--decks and --include: where the games and a designer's extra cards are."""
    command = click.option("--include", "includes", multiple=True,
                           type=click.Path(exists=True, file_okay=False, path_type=Path),
                           help="A folder of your own cards, as <game>/roles/*.yaml; repeatable.")(command)
    return click.option("--decks", type=click.Path(file_okay=False, path_type=Path),
                        help="The project's decks folder (default: the decks/ of the project the working "
                             "folder is in; outside any project, the bundled games).")(command)


def out_option(command):
    """--out: where the outputs go; by default the output/ of the project, wherever in it cardgen runs."""
    return click.option("--out", type=click.Path(file_okay=False, path_type=Path),
                        help="Output folder (default: the project's output/; outside any project, ./output; "
                             "with --decks, ./output).")(command)
