"""The options commands share: click declarations in (one per option, with one name, range and help
wherever it appears), ``shared``: the options every command takes, and ``gather``: a command's values, over the [build] table of cardgen.toml, out as
``BuildOptions``.

Loads click and cardgen's core only: `--help` and `list` must stay quick.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardgen.cli.common import DeckProblems, _store_level
from cardgen.cli.diagnostics import diagnostic_format_option
from cardgen.core.config import MAX_BACK_OFFSET, is_number
from cardgen.core.problems import DeckError, Problem, did_you_mean
from cardgen.core.project import Project

if TYPE_CHECKING:
    from cardgen.build.options import BuildOptions

BACKS = ["long", "short", "fold", "none"]
LANG_HELP = "Language code, or two joined by + for bilingual cards (vi+en); repeatable (default: every language)."


def _finite(ctx, param, value):
    # FloatRange lets nan through: nan compares false with both ends.
    if value is not None and value != value:
        raise click.BadParameter(
            f"expected a number of mm from {param.type.min:g} to {param.type.max:g}, got nan", ctx, param
        )
    return value


class _Offset(click.ParamType):
    name = "X,Y"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        try:
            x, y = (float(part) for part in value.split(","))
        except ValueError:
            self.fail(f"expected two numbers in mm as X,Y (like 0.5,-1), got {value!r}", param, ctx)
        if not all(abs(v) <= MAX_BACK_OFFSET for v in (x, y)):  # also refuses nan and inf
            self.fail(
                f"expected offsets from -{MAX_BACK_OFFSET:g} to {MAX_BACK_OFFSET:g} mm, got {value!r}", param, ctx
            )
        return x, y


OFFSET = _Offset()


class _Roles(click.ParamType):
    name = "SPEC"

    def convert(self, value, param, ctx):
        from cardgen.deck.tonight import parse_roles

        if isinstance(value, tuple):
            return value
        try:
            return parse_roles(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


ROLES = _Roles()


def _stack(*options):
    """One decorator applying `options` in the order given (--help lists them so)."""

    def apply(command):
        for option in reversed(options):
            command = option(command)
        return command

    return apply


decks_folder_option = click.option(
    "--decks",
    type=click.Path(file_okay=False, path_type=Path),
    help="The project's decks folder (default: the decks/ of the project the working "
    "folder is in; outside any project, the bundled games).",
)


def decks_option(command):
    """--decks and --include: where the games and a designer's extra cards are."""
    return _stack(
        decks_folder_option,
        click.option(
            "--include",
            "includes",
            multiple=True,
            type=click.Path(exists=True, file_okay=False, path_type=Path),
            help="A folder of your own cards, as <game>/roles/*.yaml; repeatable.",
        ),
    )(command)


def _writable_folder(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    from cardgen.core.contained import missing_folder

    why = missing_folder(value) if value is not None else None
    if why:
        raise click.BadParameter(why)
    return value


out_option = click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    callback=_writable_folder,
    help="Output folder (default: the project's output/; outside any project, ./output; with --decks, ./output).",
)

QUIET_HELP = "Only problems and the last line: no progress, no file list, no notes."
VERBOSE_HELP = "Say each step, list outputs that were already up to date, and every missing translation."

verbosity_option = _stack(
    click.option("-q", "--quiet", is_flag=True, callback=_store_level, help=QUIET_HELP),
    click.option("-v", "--verbose", is_flag=True, callback=_store_level, help=VERBOSE_HELP),
)


def shared(command: click.Command) -> None:
    """Gives `command` (and a group's subcommands) the options every command takes: -q/-v, where it has
    no use for their values itself, and --diagnostic-format."""
    from cardgen.cli.completions import attach

    if isinstance(command, click.Group):
        for sub in command.commands.values():
            shared(sub)
        return
    attach(command)
    names = {opt for param in command.params for opt in param.opts}
    extra = []
    if "-q" not in names:
        extra += [
            click.Option(["-q", "--quiet"], is_flag=True, expose_value=False, callback=_store_level, help=QUIET_HELP),
            click.Option(
                ["-v", "--verbose"], is_flag=True, expose_value=False, callback=_store_level, help=VERBOSE_HELP
            ),
        ]
    if "--diagnostic-format" not in names:

        @diagnostic_format_option
        def declared():
            """Only collects the declaration."""

        extra += declared.__click_params__  # type: ignore[attr-defined]
    command.params.extend(extra)


table_options = _stack(
    click.option("--players", type=click.IntRange(1), help="Tailor to the game's setup for this many players."),
    click.option(
        "--setup",
        "setup_id",
        metavar="NAME",
        help="Which of the game's setups (default: its first); one with one row needs no --players.",
    ),
    click.option(
        "--with",
        "extra_cards",
        multiple=True,
        metavar="CARD",
        help="A card in play beyond the setup's, in a seat of its fill card (a Villager); repeatable.",
    ),
    click.option(
        "--roles", type=ROLES, help="The exact cards in play, like werewolf:2,villager:3,seer (an id alone: 1)."
    ),
)

lang_option = click.option("--lang", "langs", multiple=True, help=LANG_HELP)


def _language_code(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    import re

    from cardgen.deck.schema_defs import LANG_PATTERN

    if value is not None and not re.match(LANG_PATTERN, value):
        raise click.BadParameter(f"'{value}' is not a language code (like ja, fa or pt-BR)")
    return value


def translation_lang_option(required: bool, help: str):
    """--lang of `cardgen translate`: one language code, which no game need have yet."""
    return click.option("--lang", required=required, callback=_language_code, help=help)


paper_option = click.option(
    "--paper", default="a4", show_default=True, help="a4, letter, or another size in templates/paper.yaml."
)


def bleed_option(default: float | None, default_help: str = ""):
    """--bleed: colour past the cut line, in mm; a print shop's export has a default of its own."""
    return click.option(
        "--bleed",
        type=click.FloatRange(0, 10),
        default=default,
        show_default=default is not None,
        callback=_finite,
        help=f"Bleed in mm{default_help}.",
    )


def margin_option(default: float | None, default_help: str = ""):
    """--margin: the paper's edge a printer leaves unprinted, in mm, that nothing printed comes closer to."""
    return click.option(
        "--margin",
        type=click.FloatRange(0, 30),
        default=default,
        show_default=default is not None,
        callback=_finite,
        help=f"Printable margin in mm: nothing printed comes closer to the paper's edge{default_help}.",
    )


back_offset_option = click.option(
    "--back-offset",
    type=OFFSET,
    help="X,Y in mm: move every back page by this much (read off a calibration sheet: cardgen calibrate).",
)
printer_option = click.option("--printer", help="Use the back offset remembered for this printer in cardgen.toml.")

# What shapes a deck's outputs: validate checks a deck with them as a build would.
layout_options = _stack(
    lang_option,
    paper_option,
    click.option("--card-size", help="poker, bridge, tarot, mini, ... (default: the game's)."),
    bleed_option(3.0),
    click.option(
        "--backs",
        type=click.Choice(BACKS),
        default="long",
        show_default=True,
        help="long/short: duplex on that edge; fold: fronts and backs on one side; none.",
    ),
    margin_option(None, " (default: templates/sheet.yaml's, 5)"),
    click.option("--ink-saver", is_flag=True, help="Outlines and light tints instead of large filled areas."),
    click.option("--pinyin", is_flag=True, help="Pinyin over the Chinese names of role cards (zh, or a pair with zh)."),
    click.option("--booklet", is_flag=True, help="The rulebook as an A5 booklet, imposed for saddle-stitching."),
    click.option("--strict", is_flag=True, help="Warnings fail the command, as errors do."),
)

# Every command that builds takes these; cardgen.toml's [build] table may set a default for each.
build_options = _stack(
    layout_options,
    out_option,
    click.option("--jobs", type=click.IntRange(1), help="Worker processes (default: one per core)."),
    back_offset_option,
    printer_option,
)


def _only(ctx, param, kinds):
    from cardgen.build.kinds import KINDS

    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        raise click.BadParameter(f"'{unknown[0]}' is not a kind of output; kinds: {', '.join(KINDS)}", ctx, param)
    return kinds


# The kinds are checked when a command runs, not listed as a Choice: that would load the registry for --help.
only_option = click.option(
    "--only",
    "kinds",
    multiple=True,
    metavar="KIND",
    callback=_only,
    help="Build just this kind of output: cards, rulebook, script or narrator; repeatable.",
)

tailoring_options = _stack(
    table_options,
    click.option(
        "--only-needed", is_flag=True, help="With a table: card sheets of just its cards and a player aid per seat."
    ),
)


@functools.cache
def _settable() -> dict[str, click.Option]:
    """The options a [build] table may set, by their name on the command line (without --)."""

    @build_options
    def declared():
        """Only collects the declarations."""

    return {param.opts[0][2:]: param for param in declared.__click_params__}


# The BuildOptions fields whose options have other names in click's values.
_FIELDS = {"setup_id": "setup"}


def gather(ctx: click.Context, project: Project, **fixed) -> tuple[BuildOptions, list[Problem]]:
    """The options of the command being run as BuildOptions: each given on the command line, else the
    project's cardgen.toml [build] default, else the command's own default; `fixed` overrides them all.
    Returns them with cardgen.toml's warnings; its errors (and, with --strict, its warnings) stop here."""
    import dataclasses
    import os

    from cardgen.build.options import BuildOptions
    from cardgen.core.config import build_settings, settings_problems
    from cardgen.core.contained import missing_folder

    try:
        settings = build_settings(project.root)
        problems = settings_problems(project.root)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    values = dict(ctx.params)
    for key, value, where in settings:
        param = _settable().get(key)
        if param is None:
            problems.append(
                Problem(where, f"unknown key '{key}' in [build]{did_you_mean(key, _settable())}", "warning")
            )
            continue
        checked, error = _setting(ctx, param, value)
        if error:
            problems.append(Problem(where, f"[build] {key}: {error}"))
        elif param.name in values and ctx.get_parameter_source(param.name) == click.core.ParameterSource.DEFAULT:
            values[param.name] = checked
    if values.get("out") is not None and ctx.get_parameter_source("out") != click.core.ParameterSource.COMMANDLINE:
        # A project's own folder, wherever in the project cardgen runs (as its output/ is).
        values["out"] = Path(os.path.relpath(project.root / values["out"]))
    if values.get("out") is None and (why := missing_folder(project.output)):
        problems.append(Problem(None, why))  # --out and [build] out were checked as they were read
    strict = fixed.get("strict", values.get("strict", False))
    if any(problem.fails(strict) for problem in problems):
        raise DeckProblems(problems)
    if values.get("extra_cards") and not (values.get("players") or values.get("setup_id") or values.get("roles")):
        raise click.UsageError(
            "--with adds a card to a setup's row: give --players N or --setup NAME too "
            "(without a table the build covers every card)"
        )
    known = {field.name for field in dataclasses.fields(BuildOptions)}
    fields = {_FIELDS.get(name, name): value for name, value in values.items() if _FIELDS.get(name, name) in known}
    fields.update(
        out=values.get("out") or project.output,
        roles=values.get("roles") or (),
        back_offset=back_offset_of(project, values.get("back_offset"), values.get("printer")),
    )
    return BuildOptions(**{**fields, **fixed}), problems


def _setting(ctx: click.Context, param: click.Option, value: object) -> tuple[object, str | None]:
    """A [build] value as the option's own declaration takes it, or why it cannot be."""
    if param.is_flag:
        expected, ok = "true or false", isinstance(value, bool)
    elif param.multiple:
        value = [value] if isinstance(value, str) else value
        expected, ok = (
            "a string or a list of strings",
            isinstance(value, list) and all(isinstance(v, str) for v in value),
        )
    elif isinstance(param.type, _Offset):
        expected, ok = "[x, y] in mm", False
        if isinstance(value, list) and len(value) == 2 and all(is_number(v) for v in value):
            ok, value = True, ",".join(map(str, value))
    elif isinstance(param.type, click.types.IntParamType):
        expected, ok = "a whole number", isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(param.type, click.types.FloatParamType):
        expected, ok = "a number of mm", is_number(value)
    else:
        expected, ok = "a string", isinstance(value, str)
    if not ok:
        return None, f"expected {expected}, got {value!r}"
    try:
        return param.process_value(ctx, value), None
    except click.BadParameter as exc:
        return None, exc.message


def back_offset_of(project: Project, offset: tuple[float, float] | None, printer: str | None) -> tuple[float, float]:
    """--back-offset wins over a remembered printer; with neither, backs stay where they are."""
    from cardgen.core.config import printer_offset

    if offset is not None:
        return offset
    if printer is None:
        return (0.0, 0.0)
    try:
        return printer_offset(project.root, printer)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
