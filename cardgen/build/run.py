"""The whole build and its dry run: a project, game names and options in, written outputs and a
``Report`` out (``build``), or every problem a build would find without writing (``validate``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.build.checking import check, check_options, check_pinyin, languages
from cardgen.build.options import BuildOptions, Report
from cardgen.build.pipeline import Pipeline
from cardgen.build.planning import jobs, plan, targets
from cardgen.build.workers import run_all
from cardgen.core.problems import DeckError, Problem, from_kept, kept
from cardgen.core.project import Project

# The stages come in when a build needs them: a build with nothing to do, `list` and --help load none.
if TYPE_CHECKING:
    from cardgen.deck.load import GameFiles


def validate(
    project: Project,
    names: Iterable[str],
    options: BuildOptions,
    progress: Callable[[Iterable], Iterable] = lambda jobs: jobs,
) -> tuple[list[GameFiles], list[Problem]]:
    """Every check a build makes, without writing anything: every deck resolved and laid out, its
    pictures and symbols opened and drawn once, its rulebook and script rendered and laid out once.
    Only the card sheets themselves are not drawn (every face on them has been fitted and every picture
    on them opened). Returns the games and their warnings."""
    games, warnings = check(project, names, options.strict)
    check_options(project, options)
    pipeline = Pipeline(project, options)
    problems: list[Problem] = []
    for files, lang in progress(jobs(games, options)):
        prepared, found = pipeline.prepare(files, lang)
        problems += found
        if prepared is not None:
            problems += pipeline.document_outputs(prepared, files, once=True)[1]
    # A problem in a text every language shares is found once per language: say it once.
    problems = list(dict.fromkeys(problems))
    if any(problem.fails(options.strict) for problem in problems):
        raise DeckError(warnings + problems)
    return games, warnings + problems


def _asked(project: Project, names: list[str], options: BuildOptions) -> tuple[str, int] | None:
    """What a build of bundled or project games is asked, with the state of every file it may read, and
    the newest of their modification times (see manifest.state); None for a game named by its path, which
    may lie anywhere."""
    from cardgen.build.manifest import state

    if not project.by_id(names):
        return None
    # How many workers make the outputs does not change them.
    asked = (
        names,
        replace(options, jobs=None, force=False),
        project.decks,
        project.templates,
        project.fonts,
        project.includes,
    )
    return state(asked, project.folders())


def build(
    project: Project,
    names: Iterable[str],
    options: BuildOptions,
    progress: Callable[[Iterable], Iterable] = lambda jobs: jobs,
) -> Report:
    from cardgen.build.manifest import Manifest
    from cardgen.core.write import Unwritable, remove_abandoned

    start = time.perf_counter()
    names = list(names)
    manifest = Manifest(options.out)
    asked = _asked(project, names, options)
    if asked is not None and not options.force:
        last = manifest.unchanged(*asked, project.folders())
        if last is not None:
            # Nothing it reads changed since the last build, which succeeded: its report stands.
            if manifest.changed:
                try:
                    manifest.save()  # what was read again to tell is not read the next time
                except Unwritable:
                    pass  # only a saving of time: the outputs are up to date, and the old manifest says so
            for folder in {options.out, *(Path(name).parent for name in last["outputs"])}:
                if folder.is_dir():
                    remove_abandoned(folder)
            return Report(
                warnings=[from_kept(entry) for entry in last["warnings"]],
                kept=[Path(name) for name in last["outputs"]],
                seconds=time.perf_counter() - start,
            )
    games, warnings = check(project, names, options.strict)
    check_options(project, options)
    report = Report(warnings=warnings)
    for folder in [options.out, *(options.out / files.id for files in games)]:
        if folder.is_dir():
            remove_abandoned(folder)
    planned, table_warnings = plan(project, games, options)
    # A table that breaks the game's rules is a warning: --strict stops before a file is written.
    if any(problem.fails(options.strict) for problem in table_warnings):
        raise DeckError(warnings + table_warnings)
    report.warnings += table_warnings + check_pinyin(games, options)
    todo, inputs = [], {}  # todo: (game, language, its options, the outputs to write); inputs: by file
    for files, game_options in planned:
        game_folders = [files.folder, *files.included]
        for lang in languages(files, options.langs):
            outputs = targets(files, lang, game_options)
            for target in outputs:
                inputs[target.path] = manifest.inputs(
                    target.kind, lang, game_folders, project.templates, project.fonts, game_options, target.tailored
                )
            stale = tuple(
                target for target in outputs if options.force or not manifest.fresh(target.path, inputs[target.path])
            )
            report.kept += [target.path for target in outputs if target not in stale]
            if stale:
                todo.append((files, lang, game_options, stale))
    problems: list[Problem] = []
    dark = project.template_data("sheet.yaml")["dark-backs"]
    try:
        for files, _lang, result in run_all(project, options, todo, progress):
            problems += result.problems
            report.warnings += result.warnings
            report.cards += result.cards
            report.sheets += result.sheets
            report.saved = (report.saved[0] + result.saved[0], report.saved[1] + result.saved[1])
            if result.back_ink > dark:
                report.dark_backs[files.id] = max(result.back_ink, report.dark_backs.get(files.id, 0.0))
            for target, pages in result.written:
                report.files.append(target.path)
                report.pages += pages
                manifest.record(target.path, inputs[target.path])
    except BaseException:
        # A worker ended half way through writing leaves its temporary file: it is gone now, so remove it.
        for folder in [options.out, *(options.out / files.id for files in games)]:
            if folder.is_dir():
                remove_abandoned(folder)
        raise
    # A build that failed is never remembered: reverting what broke it must not find its outputs "up to date".
    last = (
        {}
        if asked is None or problems
        else {
            "request": asked[0],
            "start": manifest.start,
            "outputs": [str(path) for path in [*report.kept, *report.files]],
            "warnings": [kept(warning) for warning in report.warnings],
        }
    )
    if report.files or manifest.last != last:
        manifest.last = last
        try:
            manifest.save()
        except Unwritable as exc:
            problems += exc.problems  # the last build's manifest stays, whole: what changed is built again
    if manifest.problem is not None:
        report.warnings.append(manifest.problem)  # not kept in `last`: a later build has a manifest
    report.seconds = time.perf_counter() - start
    if problems:
        # A problem of a file every language shares stops every language: say it once.
        raise DeckError(list(dict.fromkeys(warnings + problems)))
    return report
