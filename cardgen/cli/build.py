"""`cardgen build`, `validate` and `watch`: games and the shared build options in, the pipeline's
written files (or its problems) printed out, with a summary line.

Thin on purpose: the build lives in cardgen.build; these read the command line and print.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable

import click

from cardgen.cli import common
from cardgen.cli.common import DeckProblems, warn
from cardgen.cli.options import (
    build_options,
    decks_option,
    gather,
    layout_options,
    only_option,
    tailoring_options,
    verbosity_option,
)
from cardgen.core.problems import DeckError, Problem, count


@click.command("build")
@click.argument("games", nargs=-1)
@build_options
@tailoring_options
@only_option
@click.option("--force", is_flag=True, help="Rebuild every output, even those whose inputs did not change.")
@click.option("--list-targets", is_flag=True, help="Print what would be built and stop.")
@click.option("--json", "as_json", is_flag=True, help="With --list-targets: as JSON.")
@verbosity_option
@decks_option
@click.pass_context
def build_command(ctx, games, list_targets, as_json, quiet, verbose, decks, includes, **_options) -> None:
    """Build the card PDFs, rulebooks and moderator scripts of GAMES (default: every game under decks/).

    Outputs whose inputs did not change since the last build into the same folder are kept as they are.
    With --players, --setup or --roles the script and the narrator page are written for that table, as
    <game>-script-<lang>-<N>p.pdf (a setup other than the first named, <setup>-<N>p, and cards chosen with
    --with or --roles as a digest, <N>p-3f9a2c), and with --only-needed so are the card sheets, beside the
    whole box's files.
    --lang vi+en prints every card in both languages (<game>-cards-vi+en.pdf), and the rulebook and script in
    the first with each role's second name in brackets (<game>-rulebook-vi+en.pdf)."""
    from cardgen.build import build

    level = common.verbosity(quiet, verbose)
    project = common.project(decks, includes)
    options, settings_warnings = gather(ctx, project)
    if list_targets:
        _list_targets(project, games, options, as_json)
        return
    try:
        report = build(project, games, options, common.progress("building", level))
    except DeckError as exc:
        raise DeckProblems(settings_warnings + exc.problems, quiet) from None
    if level >= 0:
        for path in report.files:
            click.echo(str(path))
    if level > 0:
        for path in report.kept:
            click.echo(f"{path} (up to date)")
    report.warnings[:0] = settings_warnings
    # Last, just above the summary, so that no list of files scrolls them away; advice with them, on stderr.
    warn(report.warnings, quiet)
    if not quiet:
        for line in report.advice():
            click.echo(line, err=True)
    report.seconds = common.waited(report.seconds)
    click.echo(report.summary())


def _list_targets(project, games, options, as_json: bool) -> None:
    """What a build would make: one target per game, so CI can spread games over machines."""
    from cardgen.build import check, languages, plan
    from cardgen.build import targets as build_targets

    try:
        checked, _ = check(project, games, options.strict)
        planned, _ = plan(project, checked, options)
        targets = [
            {
                "game": files.id,
                "languages": languages(files, options.langs),
                "outputs": [
                    target.path.as_posix()
                    for lang in languages(files, options.langs)
                    for target in build_targets(files, lang, game_options)
                ],
            }
            for files, game_options in planned
        ]
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    if as_json:
        click.echo(json.dumps({"targets": targets}, ensure_ascii=False, indent=2))
    else:
        for target in targets:
            click.echo(f"{target['game']}: {', '.join(target['languages'])} ({len(target['outputs'])} files)")


@click.command("validate")
@click.argument("games", nargs=-1)
@layout_options
@verbosity_option
@decks_option
@click.pass_context
def validate_command(ctx, games, quiet, verbose, decks, includes, **_options) -> None:
    """Check GAMES (ids or paths; default: every game) as a build would, and list every problem."""
    from cardgen.build import validate

    level = common.verbosity(quiet, verbose)
    project = common.project(decks, includes)
    options, settings_warnings = gather(ctx, project)
    unread = _unread_data_problems(project)
    try:
        checked, warnings = validate(
            project, games, options, common.progress("checking", level) if level > 0 else lambda jobs: jobs
        )
    except DeckError as exc:
        raise DeckProblems(settings_warnings + unread + exc.problems, quiet) from None
    if unread:
        raise DeckProblems(settings_warnings + unread + warnings, quiet)
    warnings = settings_warnings + warnings
    warn(warnings, quiet)
    kinds = ("warning",) if quiet else ("warning", "note")
    counts = [count(n, kind) for kind in kinds if (n := sum(1 for w in warnings if w.severity == kind))]
    click.echo(", ".join([f"{count(len(checked), 'game')} valid", *counts]))


def _unread_data_problems(project) -> list[Problem]:
    """What `box` and `export --for` would refuse in the project's own data files that a game's check
    does not read: the tuck box's and the print services' (cardgen's own are tested)."""
    from cardgen.core.project import BUILTIN
    from cardgen.outputs.print_service import load_service, service_ids

    def own(name: str) -> bool:
        return not project.template(name).resolve().is_relative_to(BUILTIN.resolve())

    problems = []
    reads: list[Callable[[], object]] = (
        [functools.partial(project.template_data, "box.yaml")] if own("box.yaml") else []
    )
    reads += [
        functools.partial(load_service, project, service)
        for service in service_ids(project)
        if own(f"exports/{service}.yaml")
    ]
    for read in reads:
        try:
            read()
        except DeckError as exc:
            problems += exc.problems
    return problems


@click.command("watch")
@click.argument("game")
@build_options
@tailoring_options
@only_option
@click.option(
    "--interval", type=click.FloatRange(0.1), default=0.5, show_default=True, help="Seconds between looks at the files."
)
@decks_option
@click.pass_context
def watch_command(ctx, game, interval, decks, includes, **_options) -> None:
    """Rebuild GAME whenever one of its files, or a template, changes; Ctrl-C stops."""
    from cardgen.build import build, game_folder
    from cardgen.cli.watching import snapshot, watch

    project = common.project(decks, includes)
    options, settings_warnings = gather(ctx, project)
    warn(settings_warnings)
    try:
        folder = game_folder(project, game)  # a misspelt game is an error now, not a watch for ever
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    folders = [folder, *(include / folder.name for include in project.includes), *project.templates]

    def rebuild() -> None:
        try:
            report = build(project, [str(folder) if folder.parent != project.decks else game], options)
        except DeckError as exc:
            warn(sorted(exc.problems, key=Problem.sort_key))
            click.echo(f"{time.strftime('%H:%M:%S')} not built; watching for changes", err=True)
        else:
            warn(report.warnings)
            click.echo(f"{time.strftime('%H:%M:%S')} built: {report.summary()}", err=False)

    try:
        seen = snapshot(folders)
        rebuild()
        watch(folders, rebuild, seen, interval)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
