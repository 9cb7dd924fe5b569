"""The command line: arguments in, pipeline calls out; user errors become ClickExceptions.

Kept thin on purpose: every decision lives in the pipeline modules, and every
problem a user can fix is printed as ``file:line: message`` without a traceback.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardgen import __version__
from cardgen.core.problems import DeckError, Problem, count, did_you_mean, tally
from cardgen.core.project import Project

if TYPE_CHECKING:
    from cardgen.build import BuildOptions

BACKS = ["long", "short", "fold", "none"]


class DeckProblems(click.ClickException):
    """Exit 1 with every problem on its own line, then the errors and warnings counted apart."""

    def __init__(self, problems: list[Problem], quiet: bool = False):
        # Stable: within one line, problems keep the order the stages found them in.
        shown = [p for p in sorted(problems, key=Problem.sort_key) if not (quiet and p.severity == "note")]
        super().__init__("\n".join(str(p) for p in shown))
        self.tally = tally(problems)

    def format_message(self) -> str:
        return self.message

    def show(self, file=None) -> None:
        if self.message:
            click.echo(self.format_message(), err=True)
        click.echo(self.tally, err=True)


def _project(decks: Path | None, includes: tuple[Path, ...] = ()) -> Project:
    try:
        return Project.at(decks, includes)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None


def _warn(problems: list[Problem], quiet: bool = False) -> None:
    for problem in problems:
        if not (quiet and problem.severity == "note"):
            click.echo(str(problem), err=True)


LANG_HELP = "Language code, or two joined by + for bilingual cards (vi+en); repeatable (default: every language)."


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


def verbosity_option(command):
    """-q and -v: fewer lines (no progress, no file list, no notes) or more (every step, every file)."""
    command = click.option("-v", "--verbose", is_flag=True,
                           help="Say each step, and list outputs that were already up to date.")(command)
    return click.option("-q", "--quiet", is_flag=True,
                        help="Only problems and the last line: no progress, no file list, no notes.")(command)


def _verbosity(quiet: bool, verbose: bool) -> int:
    if quiet and verbose:
        raise click.UsageError("-q and -v are opposites; give one of them")
    return -1 if quiet else 1 if verbose else 0


def _finite(value: float, param, ctx) -> float:
    # FloatRange lets nan through: nan compares false with both ends.
    if value != value:
        raise click.BadParameter("expected a number of mm from 0 to 10, got nan", ctx, param)
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
        if not all(abs(v) < 50 for v in (x, y)):   # also refuses nan and inf
            self.fail(f"expected offsets of less than 50 mm, got {value!r}", param, ctx)
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


def table_options(command):
    """--players, --setup, --with and --roles: the table a build or a deal is for."""
    for option in reversed([
        click.option("--players", type=click.IntRange(1), help="Tailor to the game's setup for this many players."),
        click.option("--setup", "setup_id", metavar="NAME",
                     help="Which of the game's setups (default: its first); one with one row needs no --players."),
        click.option("--with", "extra_cards", multiple=True, metavar="CARD",
                     help="A card in play beyond the setup's, in a seat of its fill card (a Villager); repeatable."),
        click.option("--roles", type=ROLES,
                     help="The exact cards in play, like werewolf:2,villager:3,seer (an id alone: 1)."),
    ]):
        command = option(command)
    return command


def _back_offset(project: Project, offset: tuple[float, float] | None, printer: str | None) -> tuple[float, float]:
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


class _Process(click.Group):
    """The cardgen command. Run as a process (not by a test's runner, which passes its arguments), it
    counts the seconds it reports from the process's start, and exits without tearing its heap down
    (after a build that is a quarter of a second nobody needs to wait for) unless a profiler or a
    tracer waits for the exit."""

    def main(self, args=None, **extra):
        if args is not None:
            return super().main(args, **extra)
        global _started
        _started = _process_start()
        try:
            super().main(args, **extra)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
            if not isinstance(exc.code, (int, type(None))):
                click.echo(str(exc.code), err=True)
        if sys.getprofile() is not None or sys.gettrace() is not None:
            sys.exit(code)        # a profiler or a coverage tool writes its findings at exit
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


_started: float | None = None     # on time.perf_counter's clock, when run as a process


def _process_start() -> float:
    """When this process started, on time.perf_counter's clock: interpreter start and imports count
    (read from /proc where there is one; otherwise now)."""
    now = time.perf_counter()
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            ticks = int(stat.read().rsplit(")", 1)[1].split()[19])     # field 22, starttime
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - max(0.0, age)


def _waited(seconds: float) -> float:
    """The seconds a user waited for a command that took `seconds` itself."""
    return seconds if _started is None else time.perf_counter() - _started


@click.group(cls=_Process, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardgen")
def main() -> None:
    """Print-and-cut card sheets for social-deduction party games, from YAML decks."""
    from cardgen.build import end_on_signals

    end_on_signals()


@main.command("build")
@click.argument("games", nargs=-1)
@click.option("--lang", "langs", multiple=True, help=LANG_HELP)
@click.option("--paper", default="a4", show_default=True, help="a4, letter, or another size in templates/paper.yaml.")
@click.option("--card-size", help="poker, bridge, tarot, mini, ... (default: the game's).")
@click.option("--bleed", type=click.FloatRange(0, 10), default=3.0, show_default=True, help="Bleed in mm.",
              callback=lambda ctx, param, value: _finite(value, param, ctx))
@click.option("--backs", type=click.Choice(BACKS), default="long", show_default=True,
              help="long/short: duplex on that edge; fold: fronts and backs on one side; none.")
@click.option("--margin", type=click.FloatRange(0, 10), default=None,
              help="Printable margin in mm: crop marks and the ruler stay this far from the paper's edge "
                   "(default: templates/sheet.yaml's, 5).",
              callback=lambda ctx, param, value: value if value is None else _finite(value, param, ctx))
@click.option("--ink-saver", is_flag=True, help="Outlines and light tints instead of large filled areas.")
@click.option("--pinyin", is_flag=True, help="Pinyin over the Chinese names of role cards (zh, or a pair with zh).")
@out_option
@click.option("--strict", is_flag=True, help="Warnings fail the build.")
@click.option("--booklet", is_flag=True, help="The rulebook as an A5 booklet, imposed for saddle-stitching.")
@table_options
@click.option("--only-needed", is_flag=True,
              help="With a table: card sheets of just its cards and a player aid per seat.")
@click.option("--force", is_flag=True, help="Rebuild every output, even those whose inputs did not change.")
@click.option("--jobs", type=click.IntRange(1), help="Worker processes (default: one per core).")
@click.option("--back-offset", type=OFFSET, help="X,Y in mm: move every back page by this much "
              "(read off a calibration sheet: cardgen calibrate).")
@click.option("--printer", help="Use the back offset remembered for this printer in cardgen.toml.")
@click.option("--list-targets", is_flag=True, help="Print what would be built and stop.")
@click.option("--json", "as_json", is_flag=True, help="With --list-targets: as JSON.")
@verbosity_option
@decks_option
def build_command(games, langs, paper, card_size, bleed, backs, margin, ink_saver, pinyin, out, strict, booklet, players,
                  setup_id, extra_cards, roles, only_needed, force, jobs, back_offset, printer, list_targets, as_json,
                  decks, includes, quiet, verbose) -> None:
    """Build the card PDFs, rulebooks and moderator scripts of GAMES (default: every game under decks/).

    Outputs whose inputs did not change since the last build into the same folder are kept as they are.
    With --players, --setup or --roles the script and the narrator page are written for that table, as
    <game>-script-<lang>-<N>p.pdf, and with --only-needed so are the card sheets, beside the whole box's files.
    --lang vi+en prints every card in both languages (<game>-cards-vi+en.pdf), and the rulebook and script in
    the first with each role's second name in brackets (<game>-rulebook-vi+en.pdf)."""
    from cardgen.build import BuildOptions, build

    level = _verbosity(quiet, verbose)
    if extra_cards and players is None and setup_id is None and not roles:
        raise click.UsageError("--with adds a card to a setup's row: give --players N or --setup NAME too "
                               "(without a table the build covers every card)")
    project = _project(decks, includes)
    options = BuildOptions(langs=tuple(langs), paper=paper, card_size=card_size, bleed=bleed, backs=backs,
                           margin=margin, ink_saver=ink_saver, out=out or project.output, strict=strict,
                           booklet=booklet, players=players, setup=setup_id, extra_cards=tuple(extra_cards),
                           roles=roles or (), only_needed=only_needed, pinyin=pinyin, force=force, jobs=jobs,
                           back_offset=_back_offset(project, back_offset, printer))
    if list_targets:
        _list_targets(project, games, options, as_json)
        return
    try:
        report = build(project, games, options, _progress("building", level))
    except DeckError as exc:
        raise DeckProblems(exc.problems, quiet) from None
    if level >= 0:
        for path in report.files:
            click.echo(str(path))
    if level > 0:
        for path in report.kept:
            click.echo(f"{path} (up to date)")
    # Last, just above the summary, so that no list of files scrolls them away; advice with them, on stderr.
    _warn(report.warnings, quiet)
    if not quiet:
        for line in report.advice():
            click.echo(line, err=True)
    report.seconds = _waited(report.seconds)
    click.echo(report.summary())


def _progress(verb: str, level: int):
    """A progress bar on a terminal (a line per job with -v or elsewhere), nothing with -q."""
    def progress(jobs):
        if level < 0:
            yield from jobs
        elif sys.stderr.isatty() and level == 0:
            with click.progressbar(jobs, label=verb.capitalize(), file=sys.stderr,
                                   item_show_func=lambda job: job and f"{job[0].id} {job[1]}") as bar:
                yield from bar
        else:
            for job in jobs:
                click.echo(f"{verb} {job[0].id} ({job[1]})", err=True)
                yield job
    return progress


@main.command("narrator")
@click.argument("game")
@click.option("--lang", help="Language code (default: the game's first).")
@table_options
@out_option
@click.option("--no-open", is_flag=True, help="Only build the page and print where it is.")
@decks_option
def narrator_command(game, lang, players, setup_id, extra_cards, roles, out, no_open, decks, includes) -> None:
    """Build GAME's narrator page if it changed, and open it: one HTML file that runs the night aloud,
    its setup screen starting from the table named (for a table of N: <game>-narrator-<lang>-<N>p.html)."""
    from cardgen.build import BuildOptions, build, check, output_kinds

    if lang and "+" in lang:
        raise click.BadParameter(f"the narrator page reads aloud in one language: give one, like "
                                 f"--lang {lang.split('+')[0]}", param_hint="'--lang'")
    project = _project(decks, includes)
    try:
        (files,), _ = check(project, [game], strict=False)
        lang = lang or files.game.data["languages"][0]
        if "narrator" not in output_kinds(files):
            raise click.ClickException(f"{project.display(files.folder)}: game '{files.id}' has no script.yaml, "
                                       f"so no narrator page")
        options = BuildOptions(langs=(lang,), out=out or project.output, players=players, setup=setup_id,
                               extra_cards=tuple(extra_cards), roles=roles or (), kinds=("narrator",))
        report = build(project, [game], options)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    _warn(report.warnings)
    (target,) = report.files + report.kept
    click.echo(str(target))
    if no_open:
        return
    if sys.platform in ("darwin", "win32") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        click.launch(str(target))
    else:
        # Over ssh or in CI there is no screen to open it on: the path above is what to open.
        click.echo("no display here: open that file in a browser", err=True)


@main.command("calibrate")
@click.option("--paper", default="a4", show_default=True, help="a4, letter, or another size in templates/paper.yaml.")
@click.option("--backs", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="How your printer flips the sheet for the back.")
@click.option("--back-offset", type=OFFSET, help="The offset in use, to check it: both pointers then read 0.")
@click.option("--printer", help="Check the back offset remembered for this printer.")
@out_option
@decks_option
def calibrate_command(paper, backs, back_offset, printer, out, decks, includes) -> None:
    """A two-sided test sheet that measures how far your printer misplaces the backs."""
    from cardgen.outputs.calibrate import render_calibration
    from cardgen.text.fonts import FontBook
    from cardgen.cards.layout import named_size
    from cardgen.core.write import write_atomic

    project = _project(decks, includes)
    offset = _back_offset(project, back_offset, printer)
    try:
        papers = project.template_data("paper.yaml")
        if paper not in papers:
            raise DeckError([Problem(None, f"unknown paper '{paper}'{did_you_mean(paper, papers)}; "
                                           f"known papers: {', '.join(papers)}")])
        book = FontBook.load(project.template("fonts.yaml"), project.fonts)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    lines = [f"Duplex calibration, {paper}, flipped on the {backs} edge; backs moved by {offset[0]:g},{offset[1]:g} mm.",
             "Print both sides at 100 %, hold the sheet against a light, and read where each",
             "pointer line from the back crosses its scale: pass the two numbers as",
             "cardgen build --back-offset X,Y (or remember them: [printers.NAME] back-offset = [X, Y]",
             "in cardgen.toml). Printed again with that offset, both pointers read 0."]
    target = (out or project.output) / f"calibration-{paper}-{backs}.pdf"
    write_atomic(target, render_calibration(named_size(papers, paper, "paper"), book, backs, offset, lines))
    click.echo(str(target))


def _list_targets(project: Project, games, options: BuildOptions, as_json: bool) -> None:
    """What a build would make: one target per game, so CI can spread games over machines."""
    from cardgen.build import check, languages, plan, targets as build_targets

    try:
        checked, _ = check(project, games, options.strict)
        planned, _ = plan(project, checked, options)
        targets = [{"game": files.id, "languages": languages(files, options.langs),
                    "outputs": [target.path.as_posix() for lang in languages(files, options.langs)
                                for target in build_targets(files, lang, game_options)]}
                   for files, game_options in planned]
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    if as_json:
        click.echo(json.dumps({"targets": targets}, ensure_ascii=False, indent=2))
    else:
        for target in targets:
            click.echo(f"{target['game']}: {', '.join(target['languages'])} ({len(target['outputs'])} files)")


@main.command("validate")
@click.argument("games", nargs=-1)
@click.option("--strict", is_flag=True, help="Warnings count as errors.")
@verbosity_option
@decks_option
def validate_command(games, strict, decks, includes, quiet, verbose) -> None:
    """Check GAMES (ids or paths; default: every game) as a build would, and list every problem."""
    from cardgen.build import BuildOptions, validate

    level = _verbosity(quiet, verbose)
    project = _project(decks, includes)
    try:
        checked, warnings = validate(project, games, BuildOptions(strict=strict),
                                     _progress("checking", level) if level > 0 else lambda jobs: jobs)
    except DeckError as exc:
        raise DeckProblems(exc.problems, quiet) from None
    _warn(warnings, quiet)
    kinds = ("warning",) if quiet else ("warning", "note")
    counts = [count(n, kind) for kind in kinds if (n := sum(1 for w in warnings if w.severity == kind))]
    click.echo(", ".join([f"{count(len(checked), 'game')} valid", *counts]))


@main.command("list")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@decks_option
def list_command(game, as_json, decks, includes) -> None:
    """The games, their languages and their components with counts."""
    from cardgen.core.cache import remembered

    project = _project(decks, includes)
    try:
        if project.by_id([game] if game else []):
            # A listing reads nothing but the project's files: while none of them changes, it stands.
            listing = remembered("list", (game, project.decks, project.templates, project.fonts, project.includes),
                                 project.folders(), lambda: _listing(project, game))
        else:
            listing = _listing(project, game)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    if as_json:
        click.echo(json.dumps({"games": listing["games"]}, ensure_ascii=False, indent=2))
        return
    for entry, name in zip(listing["games"], listing["names"]):
        total = sum(c["count"] for c in entry["components"])
        click.echo(f"{entry['id']}: {name} [{', '.join(entry['languages'])}], "
                   f"{total} cards")
        for component in entry["components"]:
            click.echo(f"  {component['group']:<8} {component['id']:<16} x{component['count']}")


def _listing(project: Project, game: str | None) -> dict:
    """`cardgen list`'s answer: each game's entry (_describe), and its name in its first language."""
    from cardgen.build import check

    games, _ = check(project, [game] if game else [], strict=False)
    entries = [_describe(project, files) for files in games]
    return {"games": entries,
            "names": [files.game.data["name"].get(entry["languages"][0]) for files, entry in zip(games, entries)]}


@main.command("setup")
@click.argument("game")
@table_options
@click.option("--list", "listing", is_flag=True, help="List the game's setups: id, name, player counts, origin.")
@click.option("--lang", help="The language of the names (default: the game's first).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@decks_option
def setup_command(game, players, setup_id, extra_cards, roles, listing, lang, as_json, decks, includes) -> None:
    """The cards to deal to a table: a setup's row for a number of players, or the roles you name."""
    from cardgen.build import card_sizes, check, document_text, languages
    from cardgen.deck.resolve import AnyGlyph, resolve_deck
    from cardgen.deck.tonight import tonight

    project = _project(decks, includes)
    try:
        (files,), _ = check(project, [game], strict=False)
        lang = languages(files, (lang,) if lang else ())[0]
        deck, _ = resolve_deck(files, lang, None, card_sizes(project), AnyGlyph())
        if listing:
            _list_setups(deck, as_json)
            return
        if players is None and setup_id is None and not roles:
            raise click.ClickException("say who plays: --players N, --setup NAME or --roles SPEC "
                                       "(cardgen setup GAME --list shows the setups)")
        table = tonight(deck, files.game.where(), document_text(project.template_data, deck.lang), players,
                        setup_id, tuple(extra_cards), roles or ())
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    _warn(list(table.warnings))
    if as_json:
        click.echo(json.dumps({"game": files.id, "players": table.players, "components": dict(table.dealt),
                               **({"beside": dict(table.beside)} if table.beside else {})}, ensure_ascii=False))
        return
    names = {card.id: deck.introduced(card) for card in deck.cards}
    source = "--roles" if table.chosen else table.setup.id
    click.echo(f"{files.id}, {table.players} players ({source}): {sum(table.dealt.values())} cards")
    for card_id, number in table.dealt.items():
        click.echo(f"  {number:>3} x {names[card_id]}")
    for card_id, number in table.beside.items():
        click.echo(f"  {number:>3} x {names[card_id]} (dealt to nobody)")


def _list_setups(deck, as_json: bool) -> None:
    from cardgen.deck.setups import counts

    setups = [{"id": setup.id, "name": setup.name.value if setup.name else setup.id,
               "players": list(setup.players), "origin": setup.origin} for setup in deck.setups]
    if as_json:
        click.echo(json.dumps({"game": deck.game, "setups": setups}, ensure_ascii=False))
        return
    click.echo(f"{deck.game}: {len(setups)} setup{'' if len(setups) == 1 else 's'}")
    rows = [(s["id"], s["name"], f"{counts(s['players'])} player{'' if s['players'] == [1] else 's'}", s["origin"])
            for s in setups]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        click.echo("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3])


@main.command("watch")
@click.argument("game")
@click.option("--lang", "langs", multiple=True, help=LANG_HELP)
@out_option
@click.option("--interval", type=click.FloatRange(0.1), default=0.5, show_default=True,
              help="Seconds between looks at the files.")
@decks_option
def watch_command(game, langs, out, interval, decks, includes) -> None:
    """Rebuild GAME whenever one of its files, or a template, changes; Ctrl-C stops."""
    from cardgen.build import BuildOptions, build, game_folder

    project = _project(decks, includes)
    options = BuildOptions(tuple(langs), out=out or project.output)
    try:
        folder = game_folder(project, game)      # a misspelt game is an error now, not a watch for ever
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    folders = [folder, *(include / folder.name for include in project.includes), *project.templates]

    def snapshot() -> dict[Path, int]:
        return {path: path.stat().st_mtime_ns for folder in folders if folder.is_dir()
                for path in folder.rglob("*") if path.is_file()}

    seen: dict[Path, int] | None = None
    try:
        while True:
            now = snapshot()
            if now != seen:
                seen = now
                try:
                    report = build(project, [str(folder) if folder.parent != project.decks else game], options)
                except DeckError as exc:
                    click.echo("\n".join(str(p) for p in sorted(exc.problems, key=Problem.sort_key)), err=True)
                    click.echo(f"{time.strftime('%H:%M:%S')} not built; watching for changes", err=True)
                else:
                    _warn(report.warnings)
                    click.echo(f"{time.strftime('%H:%M:%S')} built: {report.summary()}", err=False)
            time.sleep(interval)
    except KeyboardInterrupt:
        click.echo("stopped", err=True)


@main.command("preview")
@click.argument("games", nargs=-1)
@click.option("--lang", "langs", multiple=True, help=LANG_HELP)
@out_option
@click.option("--dpi", type=click.IntRange(30, 300), default=96, show_default=True)
@decks_option
def preview_command(games, langs, out, dpi, decks, includes) -> None:
    """A contact sheet per deck and language, and an HTML gallery of every card (output/preview/index.html)."""
    from cardgen.outputs.preview import preview

    try:
        project = _project(decks, includes)
        report = preview(project, games, tuple(langs), out or project.output, dpi)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    for path in report.files:
        click.echo(str(path))
    click.echo(f"{report.cards} cards previewed")


@main.command("site")
@click.argument("games", nargs=-1)
@click.option("--lang", "langs", multiple=True, help=LANG_HELP)
@click.option("--paper", default="a4", show_default=True, help="a4, letter, or another size in templates/paper.yaml.")
@click.option("--strict", is_flag=True, help="Warnings fail the build.")
@click.option("--jobs", type=click.IntRange(1), help="Worker processes for the build (default: one per core).")
@out_option
@verbosity_option
@decks_option
def site_command(games, langs, paper, strict, jobs, out, decks, includes, quiet, verbose) -> None:
    """A site for the group in OUT/site/: a page per game and language with its cards, every PDF and
    narrator page to download, and the printing guide; open index.html, or publish the folder as it is.
    Builds what changed first, as cardgen build does, and draws the card pictures again only where
    their cards changed."""
    from cardgen.build import BuildOptions
    from cardgen.outputs.site import make_site

    level = _verbosity(quiet, verbose)
    project = _project(decks, includes)
    options = BuildOptions(langs=tuple(langs), paper=paper, out=out or project.output, strict=strict, jobs=jobs)
    try:
        report = make_site(project, games, options, _progress("building", level))
    except DeckError as exc:
        raise DeckProblems(exc.problems, quiet) from None
    _warn(report.warnings, quiet)
    click.echo(str(report.index))
    click.echo(f"{count(len(report.pages), 'page')} and {count(report.files, 'file')} in {report.index.parent} "
               f"({report.built} outputs built first, card pictures drawn for {report.drawn} of "
               f"{len(report.pages)} pages) in {report.seconds:.1f} s")


@main.command("schema")
@click.argument("kind", type=click.Choice(["card", "game", "rulebook", "script"]), default="card")
def schema_command(kind) -> None:
    """The JSON Schema of a deck file, for editors (default: a card file)."""
    from cardgen.deck import schema

    click.echo(json.dumps(schema.document(kind), ensure_ascii=False, indent=2))


@main.group("new")
def new_group() -> None:
    """Write commented starting files for a new card or game."""


def _write_new(path: Path, text: str) -> None:
    if path.exists():
        raise click.ClickException(f"{path} exists already; cardgen new never overwrites a file")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    click.echo(f"wrote {os.path.relpath(path)}")


@new_group.command("role")
@click.argument("game")
@click.argument("card_id", metavar="ID")
@click.option("--into", type=click.Path(file_okay=False, path_type=Path),
              help="Write it in this folder of your own (as <game>/roles/ID.yaml, for --include).")
@decks_option
def new_role_command(game, card_id, into, decks, includes) -> None:
    """A new card file ID for GAME that validates and builds as it is."""
    import re

    from cardgen.deck import newfiles
    from cardgen.documents import templating
    from cardgen.build import check
    from cardgen.deck.schema import ID_PATTERN

    if not re.match(ID_PATTERN, card_id):
        raise click.ClickException(f"'{card_id}' is not a valid id: kebab-case English, like little-girl")
    project = _project(decks, includes)
    try:
        (files,), _ = check(project, [game], strict=False)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    if project.bundled and not into and files.folder.is_relative_to(project.decks):
        raise click.ClickException(f"'{files.id}' is one of cardgen's own games, which it does not change: give "
                                   f"--into DIR for a folder of your own cards, or copy the game into a project "
                                   f"with: cardgen init --from {files.id}")
    orders = [doc.data.get("night", {}).get("order", 0) for doc in files.cards.values()]
    folder = (into / files.id) if into else files.folder
    command = f"cardgen validate {files.id}" + (f" --include {into}" if into else "")
    try:
        text = newfiles.role_text(project.templates, files.id, card_id, files.game.data, orders, command)
    except templating.TemplateError as exc:
        raise click.ClickException(f"the project's templates/new/ cannot make a card: {exc}") from None
    _write_new(folder / "roles" / f"{card_id}.yaml", text)


@new_group.command("game")
@click.argument("game_id", metavar="ID")
@click.option("--lang", "langs", multiple=True, help="Its languages (default: en); repeatable.")
@decks_option
def new_game_command(game_id, langs, decks, includes) -> None:
    """A new game folder ID under decks/, with one card, that validates and builds as it is."""
    import re

    import yaml

    from cardgen.deck import newfiles
    from cardgen.documents import templating
    from cardgen.deck.schema import ID_PATTERN

    if not re.match(ID_PATTERN, game_id):
        raise click.ClickException(f"'{game_id}' is not a valid id: kebab-case English, like my-game")
    _check_languages(langs)
    project = _project(decks, includes)
    # Outside any project the new game starts one here: cardgen's own decks are not written to.
    folder = (Path("decks") if project.bundled else project.decks) / game_id
    languages = list(dict.fromkeys(langs)) or ["en"]
    try:
        texts = newfiles.game_files(project.templates, game_id, languages)
    except (templating.TemplateError, yaml.YAMLError, KeyError, TypeError, AttributeError, StopIteration) as exc:
        raise click.ClickException(f"the project's templates/new/ cannot make a game: {exc}") from None
    for inside, text in texts.items():
        _write_new(folder / inside, text)


def _check_languages(langs) -> None:
    import re

    from cardgen.deck.schema import LANG_PATTERN

    for lang in langs:
        if not re.match(LANG_PATTERN, lang):
            raise click.BadParameter(f"'{lang}' is not a language code: two or three lower-case letters, "
                                     "optionally with a region or script, like en, no, pt-BR or zh-Hant",
                                     param_hint="'--lang'")


@main.command("init")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path), default=Path("."))
@click.option("--from", "from_game", metavar="GAME",
              help="Start from a copy of a bundled game to change (werewolf, salem-1692, ...) instead of a starter game.")
@click.option("--game", "game_id", default="my-game", show_default=True, help="The starter game's id: its folder's name.")
@click.option("--lang", "langs", multiple=True, help="The starter game's languages (default: en); repeatable.")
def init_command(directory, from_game, game_id, langs) -> None:
    """A new project in DIRECTORY (default: here), as mkdocs new makes one: a game in decks/, cardgen.toml,
    a .gitignore, a README with the next commands, the deck files' JSON Schemas for editors and a GitHub
    workflow that builds the decks and publishes their site. Never overwrites a file."""
    import re
    import shlex

    import yaml

    from cardgen.deck import newfiles
    from cardgen.documents import templating
    from cardgen.core.bundled import folder as bundled_folder
    from cardgen.deck.schema import ID_PATTERN

    if from_game is not None:
        given = [name for name, value in (("--game", game_id != "my-game"), ("--lang", langs)) if value]
        if given:
            raise click.UsageError(f"{' and '.join(given)} shape the starter game; --from copies a bundled game "
                                   "as it is")
        bundled_games = Project.at(bundled_folder("decks")).games()
        if from_game not in bundled_games:
            raise click.ClickException(f"no bundled game '{from_game}'{did_you_mean(from_game, bundled_games)}; "
                                       f"bundled games: {', '.join(bundled_games)}")
        game_id, game = from_game, newfiles.bundled_game(from_game)
    else:
        if not re.match(ID_PATTERN, game_id):
            raise click.ClickException(f"'{game_id}' is not a valid id: kebab-case English, like my-game")
        _check_languages(langs)
        try:
            game = {inside: text.encode("utf-8") for inside, text in
                    newfiles.game_files([bundled_folder("templates")], game_id,
                                        list(dict.fromkeys(langs)) or ["en"]).items()}
        except (templating.TemplateError, yaml.YAMLError) as exc:
            raise click.ClickException(f"cardgen's templates/new/ cannot make a game: {exc}") from None
    try:
        written = newfiles.write_all(directory, newfiles.project_files(game_id, game, from_game))
    except newfiles.Exists as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write in {directory}: {exc.strerror or exc}") from None
    click.echo(f"made a project in {directory.as_posix()}: {count(len(written), 'file')}, the game "
               f"decks/{game_id}")
    click.echo("next:")
    if directory != Path("."):
        click.echo(f"  cd {shlex.quote(directory.as_posix())}")
    for line in (f"cardgen validate           # check {game_id}'s files",
                 "cardgen build              # its PDFs, into output/",
                 "cardgen site               # output/site/: a page per game and language to share",
                 "(README.md says how GitHub builds and publishes them on every push)"):
        click.echo(f"  {line}")


def _describe(project: Project, files) -> dict:
    """A game's entry in `cardgen list`: its cards as the build makes them, derived and word cards included."""
    from cardgen.build import card_sizes
    from cardgen.deck.resolve import AnyGlyph, resolve_deck

    languages = list(files.game.data["languages"])
    deck, _ = resolve_deck(files, languages[0], None, card_sizes(project), AnyGlyph())
    return {
        "id": files.id,
        "languages": languages,
        "components": [{"id": card.id, "group": card.group.id, "count": card.count} for card in deck.cards],
    }


@main.command("export")
@click.argument("game")
@click.option("--for", "target", metavar="SERVICE",
              help="A print service (drivethrucards, makeplayingcards, thegamecrafter, printplaygames: "
                   "its files as templates/exports/SERVICE.yaml describes them) or tts (Tabletop Simulator).")
@click.option("--lang", "langs", multiple=True, help=LANG_HELP)
@out_option
@click.option("--bleed", type=click.FloatRange(0, 10), default=None,
              help="Bleed in mm on every side (default: 1/8 in).")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True,
              help="Resolution of the PNGs.")
@click.option("--url", help="With --for tts: the address the sheet images will be hosted at, ending in / "
                            "(default: bare file names, for images copied into TTS's Mods/Images folder).")
@click.option("--png", is_flag=True, help="One PNG per card front and back, per copy, and cards.csv.")
@click.option("--pdf", is_flag=True, help="One card per page, TrimBox and BleedBox set, for a print shop.")
@decks_option
@click.pass_context
def export_command(ctx, game, target, langs, out, bleed, dpi, url, png, pdf, decks, includes) -> None:
    """Export GAME for a print shop: a one-card-per-page PDF and numbered PNGs with bleed
    (neither --png nor --pdf: both); or, with --for, the files a print service or
    Tabletop Simulator takes."""
    from cardgen.outputs.export import DEFAULT_BLEED, ExportOptions, export

    project = _project(decks, includes)
    out = out or project.output
    if target is not None:
        # A service's data file settles bleed, resolution and formats; a flag that says otherwise is a mistake.
        given = [f"--{name}" for name in ("bleed", "dpi", "png", "pdf")
                 if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]
        if given:
            raise click.UsageError(f"{', '.join(given)} cannot be used with --for: the service's file settles them")
    if url is not None and target != "tts":
        raise click.UsageError("--url is for --for tts")
    try:
        if target is None:
            both = not (png or pdf)
            bleed = DEFAULT_BLEED if bleed is None else bleed
            report = export(project, game, ExportOptions(tuple(langs), out, bleed, dpi, png or both, pdf or both))
        elif target == "tts":
            from cardgen.outputs.tts import export_tts
            report = export_tts(project, game, tuple(langs), out, url or "")
        else:
            from cardgen.outputs.print_service import export_for
            report = export_for(project, game, target, tuple(langs), out)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    for problem in report.warnings:
        click.echo(str(problem), err=True)
    # The PNGs go unlisted (two per card); their folder's CSV names each of them.
    for path in report.files:
        if path.suffix != ".png":
            click.echo(str(path))
    pngs = sum(1 for path in report.files if path.suffix == ".png")
    click.echo(f"{len(report.files)} files ({pngs} PNG), {report.cards} cards in {report.seconds:.1f} s")


@main.command("box")
@click.argument("game")
@click.option("--lang", "langs", multiple=True, help=LANG_HELP)
@click.option("--paper", default="a4", show_default=True, help="a4, letter, or another size in templates/paper.yaml.")
@click.option("--stock", type=click.FloatRange(0.05, 2), default=0.3, show_default=True,
              help="Thickness of one card in mm (sleeved cards: about 0.6).")
@click.option("--clearance", type=click.FloatRange(0, 10), default=2.0, show_default=True,
              help="Room the cards get in mm, across, along and in depth.")
@click.option("--margin", type=click.FloatRange(0, 30), default=5.0, show_default=True,
              help="Margin in mm that the printer leaves unprinted.")
@out_option
@decks_option
def box_command(game, langs, paper, stock, clearance, margin, out, decks, includes) -> None:
    """A tuck box for GAME's cards, sized from their size, count and the stock, to print, cut, fold and glue."""
    from cardgen.outputs.box import make_boxes

    for value, name in ((stock, "stock"), (clearance, "clearance"), (margin, "margin")):
        if value != value:
            raise click.BadParameter("expected a number, got nan", param_hint=f"--{name}")
    project = _project(decks, includes)
    try:
        report = make_boxes(project, game, tuple(langs), out or project.output, paper, stock, clearance, margin)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    for problem in report.warnings:
        click.echo(str(problem), err=True)
    for path in report.files:
        click.echo(str(path))
    files = len(report.files)
    click.echo(f"{files} file{'' if files == 1 else 's'}, {report.cards} cards boxed in {report.seconds:.1f} s")
