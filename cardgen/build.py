"""The pipeline, stage by stage: games and options in, written PDFs and a report out.

``check`` loads and validates games (stages 1 and 2) and stops once with every
problem found. ``build`` then runs, for each game and language, resolve →
faces → layout → render → write. Problems in one language do not stop the
others from being written; they are all raised together at the end, so one run
shows everything that needs fixing and keeps every output that is good.

A tailored build (``--players``, ``--setup`` or ``--roles``: one evening's
table, see :mod:`cardgen.tonight`) settles the table once per game before any
rendering, then writes the script for it as ``<game>-script-<lang>-<N>p.pdf``
and, with ``--only-needed``, the card sheets of just that table as
``<game>-cards-<lang>-<N>p.pdf``, beside the whole box's files; the box's card
sheets (without ``--only-needed``) and rulebook are the whole box's files, kept
or rebuilt as any build would.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from .load import GameFiles, load_game
from .problems import DeckError, Problem, Where
from .project import Project
from .templating import TemplateError
from .validate import did_you_mean, validate_game

if TYPE_CHECKING:
    from .face import Faces
    from .fonts import FontBook
    from .model import Deck
    from .tonight import Tonight


@dataclass(frozen=True)
class BuildOptions:
    langs: tuple[str, ...] = ()
    paper: str = "a4"
    card_size: str | None = None
    bleed: float = 3.0
    backs: str = "long"
    ink_saver: bool = False
    out: Path = Path("output")
    strict: bool = False
    booklet: bool = False
    force: bool = False            # rebuild outputs whose inputs did not change
    jobs: int | None = None        # worker processes; None: one per core
    back_offset: tuple[float, float] = (0.0, 0.0)   # mm, undoing a duplex printer's misplaced backs
    players: int | None = None     # tailor the build to the game's setup for this many players
    setup: str | None = None       # which setup (default: the game's first)
    extra_cards: tuple[str, ...] = ()   # cards in play beyond the setup's (--with)
    roles: tuple[tuple[str, int], ...] = ()   # the exact cards in play (--roles), instead of a setup's row
    only_needed: bool = False      # a tailored build's card sheets hold only that table's cards

    @property
    def tailored(self) -> bool:
        """Built for one evening's table rather than for the whole box."""
        return self.players is not None or self.setup is not None or bool(self.roles)


@dataclass
class Report:
    files: list[Path] = field(default_factory=list)
    pages: int = 0
    cards: int = 0
    seconds: float = 0.0
    warnings: list[Problem] = field(default_factory=list)
    up_to_date: int = 0
    sheets: tuple[int, int] = (0, 0)   # --only-needed: sheets of paper printed, and the whole box's

    def summary(self) -> str:
        if not self.files and self.up_to_date:
            return f"up to date ({_count(self.up_to_date, 'file')}) in {self.seconds:.1f} s"
        line = f"{_count(len(self.files), 'file')}, {_count(self.pages, 'page')}, " \
               f"{_count(self.cards, 'card')} in {self.seconds:.1f} s"
        line += f"; {self.up_to_date} up to date" if self.up_to_date else ""
        printed, box = self.sheets
        if box:
            line += f"; --only-needed: {_count(printed, 'sheet')} of cards instead of {box} ({box - printed} saved)"
        return line


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def card_sizes(project: Project) -> dict[str, dict]:
    """The card and token sizes: name -> {width, height, shape} (mm)."""
    return project.template_data("card-sizes.yaml")


def game_folder(project: Project, name: str) -> Path:
    """A game named by id (under the project's decks/) or by a path to its folder or one of its files."""
    path = Path(name)
    if path.exists():
        folder = path if path.is_dir() else path.parent
        if not (folder / "game.yaml").is_file() and (folder.parent / "game.yaml").is_file():
            folder = folder.parent
        return folder.resolve()
    games = project.games()
    if name not in games:
        raise DeckError([Problem(Where(project.display(project.decks)),
                                 f"no game '{name}'{did_you_mean(name, games)}; games here: "
                                 f"{', '.join(games) or 'none'}")])
    return project.decks / name


def check(project: Project, names: Iterable[str], strict: bool) -> tuple[list[GameFiles], list[Problem]]:
    """Stages 1-2 for every game; raises DeckError once with all problems, returns the warnings."""
    games, problems = [], []
    folders = [game_folder(project, n) for n in names] if names else [project.decks / g for g in project.games()]
    if not folders:
        raise DeckError([Problem(Where(project.display(project.decks)), "no games found (no */game.yaml)")])
    sizes = card_sizes(project)
    for folder in folders:
        # A game outside the project is named relative to the folder that holds it.
        root = project.root if folder.is_relative_to(project.root) else folder.parent
        files, found = load_game(folder, root, project.includes)
        found += validate_game(files, sizes)
        problems += found
        games.append(files)
    # In reading order, file by file, so that a designer can work down the list.
    problems.sort(key=Problem.sort_key)
    if any(p.fails(strict) for p in problems):
        raise DeckError(problems)
    return games, problems


def languages(files: GameFiles, wanted: tuple[str, ...]) -> list[str]:
    have = list(files.game.data["languages"])
    missing = [lang for lang in wanted if lang not in have]
    if missing:
        raise DeckError([Problem(files.game.where(("languages",)),
                                 f"game '{files.id}' has no language '{missing[0]}'; it has {', '.join(have)}")])
    return list(wanted) or have


@dataclass(frozen=True)
class Prepared:
    """One game in one language, laid out and ready to render."""

    deck: Deck
    faces: Faces
    pages: list
    book: FontBook


class Pipeline:
    """Stages 3-4 for any number of decks, with the templates and fonts read once."""

    def __init__(self, project: Project, options: BuildOptions, sizes: dict[str, dict] | None = None):
        """`sizes` replaces card-sizes.yaml's entries of the same names: a print service's own trims."""
        # ReportLab comes in here, not at import time, so that list and --help stay quick.
        from . import fonts

        self.project = project
        self.options = options
        try:
            self.book = fonts.FontBook.load(project.template("fonts.yaml"), project.fonts)
        except ValueError as exc:
            raise DeckError([Problem(Where(project.display(project.template("fonts.yaml"))), str(exc))]) from None
        self.game_books: dict[str, FontBook] = {}
        self.sizes = {**card_sizes(project), **(sizes or {})}
        self.card_layout = project.template_data("card-layout.yaml")

    def prepare(self, files: GameFiles, lang: str, sheets: bool = True) -> tuple[Prepared | None, list[Problem]]:
        """Resolve, faces and layout; every problem of this deck, or a deck ready to render.
        Without `sheets` the cards are not imposed on paper (exports place them themselves)."""
        from . import face, resolve

        options = self.options
        try:
            book = self.book_for(files)
        except ValueError as exc:
            return None, [Problem(files.game.where(("fonts",)), f"fonts: {exc}")]
        deck, problems = resolve.resolve_deck(files, lang, options.card_size, self.sizes, book)
        faces, found = face.compose_faces(deck, self.card_layout, book, options.ink_saver, self.words(lang))
        problems += found
        pages = []
        if sheets:
            try:
                pages = self.impose(deck)
            except ValueError as exc:
                problems.append(Problem(None, f"{files.id} ({lang}): {exc}"))
        if any(problem.fails(options.strict) for problem in problems):
            return None, problems
        return Prepared(deck, faces, pages, book), problems

    def impose(self, deck: Deck) -> list:
        """The sheets of a deck's cards, a run of sheets per card size; a ValueError if a size does not fit."""
        from . import layout

        options = self.options
        runs = [(len(list(run)), layout.SheetSpec.from_templates(self.project.template_data, options.paper,
                                                                 size, options.bleed, options.backs))
                for size, run in itertools.groupby(deck.copies, key=lambda card: card.group.size_name)]
        return layout.impose_runs(runs)

    def words(self, lang: str) -> dict:
        """cardgen's own words on the sheets (templates/strings.yaml) in a language, English where it has none."""
        strings = self.project.template_data("strings.yaml")
        return {**_in_language(strings, "en"), **_in_language(strings, lang)}

    def book_for(self, files: GameFiles):
        """The font book of a game: the built-in one, or with the game's own fonts added."""
        from . import fonts

        extra = files.game.data.get("fonts")
        if not extra:
            return self.book
        if files.id not in self.game_books:
            book = fonts.FontBook.load(self.project.template("fonts.yaml"), self.project.fonts, extra)
            # A designer's font is opened now, inside the caller's error handling, not mid-layout.
            for family, faces in extra.get("families", {}).items():
                for face in faces:
                    book.face(family, "bold" in face, "italic" in face)
            self.game_books[files.id] = book
        return self.game_books[files.id]

    def documents(self, prepared: Prepared, kinds: frozenset[str], table: Tonight) -> list[tuple[str, bytes, int]]:
        """The rulebook and the moderator script (for `table`) of a deck that has their texts, of `kinds`:
        (kind, PDF, pages)."""
        from . import booklet, document, render, rulebook, script, templating
        from .layout import named_size
        from .phrases import fill
        from .units import pt

        project, options = self.project, self.options
        deck, book = prepared.deck, prepared.book
        styles = project.template_data("documents/styles.yaml")
        text = document_text(project, deck.lang)
        papers = project.template_data("paper.yaml")
        strings = project.template_data("strings.yaml")
        language = _in_language(strings, deck.lang).get("language", deck.lang)
        template_dirs = [folder / "documents" for folder in project.templates]
        icons = render.inline_icons(deck)

        def page_label(n: int, total: int) -> str:
            return fill(text["page"], n=n, total=total)

        out = []
        if deck.rulebook and "rulebook" in kinds:
            style = styles["booklet" if options.booklet else "rulebook"]
            xml = templating.render(template_dirs, "rulebook.xml.j2", rulebook.context(deck, text, self.sizes))
            furniture = document.PageFurniture(f"{deck.name.value} · {text['rulebook']} · {language}", page_label)
            pdf, pages = _document(document.render_document, "rulebook.xml.j2", xml, book, deck.lang, style,
                                   styles["colors"], named_size(papers, style["paper"], "paper"), furniture,
                                   f"{deck.name.value}: {text['rulebook']} ({deck.lang})", icons)
            if options.booklet:
                sheet = named_size(papers, style["sheet"], "paper").rotated()
                pdf, pages = booklet.impose(pdf, pt(sheet.w), pt(sheet.h)), -(-pages // 4) * 2
            out.append(("rulebook", pdf, pages))
        if deck.script and "script" in kinds:
            context = script.context(deck, text, table)
            xml = templating.render(template_dirs, "script.xml.j2", context)
            header = f"{deck.name.value} · {context['title']} · {language} · {table.label}"
            furniture = document.PageFurniture(header, page_label)
            pdf, pages = _document(document.render_document, "script.xml.j2", xml, book, deck.lang,
                                   styles["script"], styles["colors"],
                                   named_size(papers, styles["script"]["paper"], "paper"),
                                   furniture, f"{deck.name.value}: {context['title']} ({deck.lang})", icons)
            out.append(("script", pdf, pages))
        return out


def document_text(project: Project, lang: str) -> dict:
    """The words of the generated documents in a language (templates/documents/text.yaml), English where it has none."""
    text = project.template_data("documents/text.yaml")
    return {**text.get("en", {}), **text.get(lang, {})}


def table_of(project: Project, deck: Deck, files: GameFiles, options: BuildOptions) -> Tonight:
    """Who plays: the table the options name, or the whole box."""
    from .tonight import tonight

    return tonight(deck, files.game.where(), document_text(project, deck.lang), options.players, options.setup,
                   options.extra_cards, options.roles)


def sheets_of_paper(pages: list) -> int:
    """Sheets a printer takes for these pages: a front page starts one (its back page, if any, is its other side)."""
    return sum(1 for page in pages if page.side != "back")


def _document(render_document, template: str, xml: str, *args):
    """A document, or a TemplateError naming the template whose XML it could not use."""
    import xml.etree.ElementTree as ET

    try:
        return render_document(xml, *args)
    except (ValueError, ET.ParseError) as exc:
        raise TemplateError(f"documents/{template}", None, f"its output is not a document cardgen can draw: {exc}") \
            from None


def jobs(games: list[GameFiles], options: BuildOptions) -> list[tuple[GameFiles, str]]:
    return [(files, lang) for files in games for lang in languages(files, options.langs)]


def validate(project: Project, names: Iterable[str], options: BuildOptions) -> tuple[list[GameFiles], list[Problem]]:
    """Everything a build checks, without rendering: returns the games and their warnings."""
    games, warnings = check(project, names, options.strict)
    check_options(project, options)
    pipeline = Pipeline(project, options)
    # A problem in a text every language shares is found once per language: say it once.
    problems = list(dict.fromkeys(p for files, lang in jobs(games, options) for p in pipeline.prepare(files, lang)[1]))
    if any(problem.fails(options.strict) for problem in problems):
        raise DeckError(warnings + problems)
    return games, warnings + problems


def _in_language(table: dict, lang: str) -> dict:
    """A language's block of a per-language template file (strings.yaml), or an empty one."""
    block = table.get(lang) if isinstance(table, dict) else None
    return block if isinstance(block, dict) else {}


def output_kinds(files: GameFiles) -> list[str]:
    """The outputs a game makes per language: its cards, and its rulebook and script if it has their texts."""
    return ["cards", *(kind for kind in ("rulebook", "script") if f"{kind}.yaml" in files.extra)]


def output_path(options: BuildOptions, files: GameFiles, kind: str, lang: str, players: int | None = None) -> Path:
    """Where an output goes: `<game>-<kind>-<lang>.pdf` for the whole box, `-<N>p` added for a table of N."""
    table = f"-{players}p" if players is not None else ""
    return options.out / files.id / f"{files.id}-{kind}-{lang}{table}.pdf"


@dataclass(frozen=True)
class Target:
    """One output file of a build."""

    kind: str          # cards, rulebook or script
    path: Path
    tailored: bool     # made for the build's table, not for the whole box


def targets(files: GameFiles, lang: str, options: BuildOptions) -> list[Target]:
    """The files a build writes for one game and language (a tailored build's `options` come from :func:`plan`)."""
    out = []
    for kind in output_kinds(files):
        tailored = options.tailored and (kind == "script" or (kind == "cards" and options.only_needed))
        out.append(Target(kind, output_path(options, files, kind, lang, options.players if tailored else None),
                          tailored))
    return out


def plan(project: Project, games: list[GameFiles], options: BuildOptions
         ) -> tuple[list[tuple[GameFiles, BuildOptions]], list[Problem]]:
    """Each game with the options its outputs are built with, and the table's warnings. For a tailored
    build the table is settled here, once per game and before anything is drawn: a mistake in the
    options stops the build at once, and the number of players (counted from --roles, or a one-row
    setup's) names the files."""
    from .resolve import AnyGlyph, resolve_deck

    if not options.tailored:
        return [(files, options) for files in games], []
    if options.roles and len(games) != 1:
        raise DeckError([Problem(None, "--roles names the cards of one game: build one game at a time")])
    planned, warnings = [], []
    for files in games:
        lang = languages(files, options.langs)[0]
        deck, _ = resolve_deck(files, lang, options.card_size, card_sizes(project), AnyGlyph())
        table = table_of(project, deck, files, options)
        planned.append((files, replace(options, players=table.players)))
        warnings += table.warnings
    return planned, warnings


@dataclass
class JobResult:
    written: list[tuple[Target, int]] = field(default_factory=list)   # (file, pages)
    cards: int = 0
    sheets: tuple[int, int] = (0, 0)      # --only-needed: sheets printed, and the whole box's
    warnings: list[Problem] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def run_job(project: Project, options: BuildOptions, files: GameFiles, lang: str,
            todo: tuple[Target, ...], pipeline: Pipeline | None = None) -> JobResult:
    """Stages 3-6 for one game in one language: the files of `todo` written (the game's others are up
    to date), or its problems."""
    from . import render
    from .tonight import printed
    from .write import write_atomic

    # A worker process makes its own: templates are re-read for every build, never kept stale.
    pipeline = pipeline or Pipeline(project, options)
    result = JobResult()
    prepared, found = pipeline.prepare(files, lang)
    if prepared is None:
        result.problems = found
        return result
    result.warnings = found
    result.cards = len(prepared.deck.copies)
    outputs = []
    try:
        table = table_of(project, prepared.deck, files, options)
        for target in todo:
            if target.kind != "cards":
                continue
            deck, pages = prepared.deck, prepared.pages
            if target.tailored:
                deck = printed(deck, table)
                pages = pipeline.impose(deck)
                result.cards = len(deck.copies)
                result.sheets = (sheets_of_paper(pages), sheets_of_paper(prepared.pages))
            render_options = render.RenderOptions(options.ink_saver, project.template_data("sheet.yaml"),
                                                  pipeline.words(lang), options.back_offset)
            outputs.append((target, render.render_pdf(deck, pages, prepared.faces, prepared.book, render_options),
                            len(pages)))
        # The script is the table's (the whole box's for a build of the box); the rulebook is always the box's.
        documents = {target.kind: target for target in todo if target.kind != "cards"}
        for kind, data, pages in pipeline.documents(prepared, frozenset(documents), table):
            outputs.append((documents[kind], data, pages))
    except DeckError as exc:
        result.problems = exc.problems
        return result
    except TemplateError as exc:
        result.problems = [Problem(Where(project.display(Path(exc.file)), exc.line), exc.message)]
        return result
    for target, data, pages in outputs:
        try:
            write_atomic(target.path, data)
        except OSError as exc:
            result.problems = [Problem(None, f"cannot write {target.path}: {exc.strerror or exc}")]
            return result
        result.written.append((target, pages))
    return result


Job = tuple[GameFiles, str, BuildOptions, tuple[Target, ...]]


def _run_all(project: Project, options: BuildOptions, todo: list[Job],
             progress: Callable[[Iterable], Iterable]) -> Iterable[tuple[GameFiles, str, JobResult]]:
    """Each job's result, in worker processes when there are several jobs and cores to share."""
    workers = min(options.jobs or os.cpu_count() or 1, len(todo))
    if workers <= 1:
        pipeline = Pipeline(project, options) if todo else None
        for files, lang, game_options, files_todo in progress(todo):
            yield files, lang, run_job(project, game_options, files, lang, files_todo, pipeline)
        return
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(run_job, project, game_options, files, lang, files_todo)
                   for files, lang, game_options, files_todo in todo]
        # Reported in job order, whatever order the workers finish in, so output does not depend on timing.
        for (files, lang, _, _), future in zip(progress(todo), futures):
            yield files, lang, future.result()


def check_options(project: Project, options: BuildOptions) -> None:
    """Options that name template data (a paper, a card size) must name what is there; --only-needed
    needs a table."""
    if options.only_needed and not options.tailored:
        raise DeckError([Problem(None, "--only-needed prints the cards of one table: give --players N, "
                                       "--setup NAME or --roles SPEC")])
    for what, value, known in (("card size", options.card_size, card_sizes(project)),
                               ("paper", options.paper, project.template_data("paper.yaml"))):
        if value and value not in known:
            raise DeckError([Problem(None, f"unknown {what} '{value}'{did_you_mean(value, known)}; "
                                           f"known {what}s: {', '.join(known)}")])


def build(project: Project, names: Iterable[str], options: BuildOptions,
          progress: Callable[[Iterable], Iterable] = lambda jobs: jobs) -> Report:
    from .manifest import Manifest
    from .write import remove_abandoned

    start = time.perf_counter()
    games, warnings = check(project, names, options.strict)
    check_options(project, options)
    report = Report(warnings=warnings)
    manifest = Manifest(options.out)
    for folder in [options.out, *(options.out / files.id for files in games)]:
        if folder.is_dir():
            remove_abandoned(folder)
    planned, table_warnings = plan(project, games, options)
    report.warnings += table_warnings
    todo, inputs = [], {}   # todo: (game, language, its options, the outputs to write); inputs: by file
    for files, game_options in planned:
        game_folders = [files.folder, *(include / files.id for include in project.includes)]
        for lang in languages(files, options.langs):
            outputs = targets(files, lang, game_options)
            for target in outputs:
                inputs[target.path] = manifest.inputs(target.kind, lang, game_folders, project.templates,
                                                      project.fonts, game_options, target.tailored)
            stale = tuple(target for target in outputs
                          if options.force or not manifest.fresh(target.path, inputs[target.path]))
            report.up_to_date += len(outputs) - len(stale)
            if stale:
                todo.append((files, lang, game_options, stale))
    problems: list[Problem] = []
    printed = box = 0
    for files, lang, result in _run_all(project, options, todo, progress):
        problems += result.problems
        report.warnings += result.warnings
        report.cards += result.cards
        printed, box = printed + result.sheets[0], box + result.sheets[1]
        for target, pages in result.written:
            report.files.append(target.path)
            report.pages += pages
            manifest.record(target.path, inputs[target.path])
    report.sheets = (printed, box)
    if report.files:
        manifest.save()
    report.seconds = time.perf_counter() - start
    if problems:
        raise DeckError(warnings + problems)
    return report
