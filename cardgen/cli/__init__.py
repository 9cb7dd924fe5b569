"""The command line, a module per command or group of commands: arguments in, pipeline calls out.
``main`` is the cardgen command (the entry point, and ``python -m cardgen``)."""

from cardgen.cli.main import main

__all__ = ["main"]
