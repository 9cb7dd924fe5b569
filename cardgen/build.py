"""The pipeline, stage by stage: games and options in, written PDFs and a report out.

``check`` loads and validates games (stages 1 and 2) and stops once with every
problem found. ``build`` then runs, for each game and language, resolve →
faces → layout → render → write. Problems in one language do not stop the
others from being written; they are all raised together at the end, so one run
shows everything that needs fixing and keeps every output that is good.
"""

from __future__ import annotations

import concurrent.futures
import functools
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Hashable, Iterable

from .load import GameFiles, load_game
from .problems import DeckError, Problem, Where
from .project import Project
from .templating import TemplateError
from .validate import did_you_mean, validate_game

if TYPE_CHECKING:
    from .face import Faces
    from .fonts import FontBook
    from .model import Card, Deck


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
    margin: float | None = None    # printable margin in mm; None: templates/sheet.yaml's
    players: int | None = None     # script the game's setup for this many players
    setup: str | None = None       # which setup (default: the game's first)
    extra_cards: tuple[str, ...] = ()   # cards in play beyond the setup's (--with)


@dataclass
class Report:
    files: list[Path] = field(default_factory=list)
    pages: int = 0
    cards: int = 0
    sheets: int = 0                # of paper, for the card PDFs written
    seconds: float = 0.0
    warnings: list[Problem] = field(default_factory=list)
    up_to_date: int = 0
    dark_backs: dict[str, float] = field(default_factory=dict)   # game -> ink coverage of its backs

    def summary(self) -> str:
        if not self.files and self.up_to_date:
            return f"up to date ({_count(self.up_to_date, 'file')}) in {self.seconds:.1f} s"
        sheets = f" on {_count(self.sheets, 'sheet')}" if self.sheets else ""
        line = f"{_count(len(self.files), 'file')}, {_count(self.pages, 'page')}, " \
               f"{_count(self.cards, 'card')}{sheets} in {self.seconds:.1f} s"
        return line + (f"; {self.up_to_date} up to date" if self.up_to_date else "")

    def advice(self) -> list[str]:
        """What to tell a group before they print: backs dark enough to empty a cartridge."""
        if not self.dark_backs:
            return []
        games = ", ".join(sorted(self.dark_backs))
        return [f"the backs of {games} print dark (up to {100 * max(self.dark_backs.values()):.0f} % ink "
                f"coverage); --ink-saver prints them as light tints"]


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


def back_design(card: Card) -> Hashable:
    """What a card's back looks like: cards with equal values print the same back."""
    if card.back_face:
        return ("own", card.id)
    back = card.group.back
    return (back.title.value, back.color, back.symbol, back.pattern)


def sheet_runs(deck: Deck, backs: str) -> dict[tuple[str, Hashable], tuple[Hashable, list[int]]]:
    """The cards (indexes into deck.copies) that may share sheets, by card size and back design,
    in the order the deck first prints each, with the run's back design. A sheet never mixes
    backs a cut or duplex error could show on a neighbour; round tokens stand apart by their
    gap, and without backs there is nothing to give away, so those mix by size alone."""
    runs: dict[tuple[str, Hashable], tuple[Hashable, list[int]]] = {}
    for item, card in enumerate(deck.copies):
        back = back_design(card)
        apart = card.group.shape == "round" or backs == "none"
        runs.setdefault((card.group.size_name, None if apart else back), (back, []))[1].append(item)
    return runs


def back_ink(deck: Deck) -> float:
    """The mean ink coverage of the backs' colours over the cards that share a back design
    (their background covers most of each back; cards with backs of their own are faces)."""
    from .ink import hex_coverage

    backs = [card.group.back.color for card in deck.copies if not card.back_face]
    return sum(map(hex_coverage, backs)) / len(backs) if backs else 0.0


@dataclass(frozen=True)
class Prepared:
    """One game in one language, laid out and ready to render."""

    deck: Deck
    faces: Faces
    pages: list
    book: FontBook


class Pipeline:
    """Stages 3-4 for any number of decks, with the templates and fonts read once."""

    def __init__(self, project: Project, options: BuildOptions):
        # ReportLab comes in here, not at import time, so that list and --help stay quick.
        from . import face, fonts

        self.project = project
        self.options = options
        try:
            self.book = fonts.FontBook.load(project.template("fonts.yaml"), project.fonts)
        except ValueError as exc:
            raise DeckError([Problem(Where(project.display(project.template("fonts.yaml"))), str(exc))]) from None
        self.game_books: dict[str, FontBook] = {}
        # A pipeline serves one build: each template is read once for all its decks.
        self.read = functools.cache(project.template_data)
        self.sizes = self.read("card-sizes.yaml")
        self.card_layouts = face.size_layouts(self.read("card-layout.yaml"), self.sizes)

    def prepare(self, files: GameFiles, lang: str) -> tuple[Prepared | None, list[Problem]]:
        """Resolve, faces and layout; every problem of this deck, or a deck ready to render."""
        from . import face, layout, resolve

        options = self.options
        try:
            book = self.book_for(files)
        except ValueError as exc:
            return None, [Problem(files.game.where(("fonts",)), f"fonts: {exc}")]
        deck, problems = resolve.resolve_deck(files, lang, options.card_size, self.sizes, book)
        faces, found = face.compose_faces(deck, self.card_layouts, book, options.ink_saver)
        problems += found
        try:
            specs = {size: layout.SheetSpec.from_templates(self.read, options.paper, size, options.bleed, options.backs,
                                                           options.margin)
                     for size in dict.fromkeys(card.group.size_name for card in deck.copies)}
            pages = layout.impose_runs(layout.Run(tuple(items), specs[size], back)
                                       for (size, _), (back, items) in sheet_runs(deck, options.backs).items())
        except ValueError as exc:
            problems.append(Problem(None, f"{files.id} ({lang}): {exc}"))
        if any(problem.fails(options.strict) for problem in problems):
            return None, problems
        return Prepared(deck, faces, pages, book), problems


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

    def documents(self, prepared: Prepared, files: GameFiles,
                  kinds: frozenset[str] | None = None) -> list[tuple[str, bytes, int]]:
        """The rulebook and the moderator script of a deck that has their texts (of `kinds`, when
        given): (kind, PDF, pages)."""
        from . import booklet, document, render, rulebook, script, templating
        from .layout import named_size
        from .units import Size, pt

        project, options = self.project, self.options
        deck, book = prepared.deck, prepared.book
        styles = self.read("documents/styles.yaml")
        text_all = self.read("documents/text.yaml")
        text = {**text_all.get("en", {}), **text_all.get(deck.lang, {})}
        papers = self.read("paper.yaml")
        strings = self.read("strings.yaml")
        language = _in_language(strings, deck.lang).get("language", deck.lang)
        template_dirs = [folder / "documents" for folder in project.templates]
        icons = render.inline_icons(deck)

        def page_label(n: int, total: int) -> str:
            return text["page"].replace("{n}", str(n)).replace("{total}", str(total))

        # Documents are printed on the build's paper; a booklet's pages are half a sheet of it.
        paper = named_size(papers, options.paper, "paper")
        sheet = paper.rotated()
        out = []
        if deck.rulebook and (kinds is None or "rulebook" in kinds):
            style = styles["booklet" if options.booklet else "rulebook"]
            sheets = sum(1 for page in prepared.pages if page.side != "back")
            paper_name = rulebook.localized_name(papers[options.paper], deck.lang, options.paper)
            xml = templating.render(template_dirs, "rulebook.xml.j2",
                                    rulebook.context(deck, text, self.sizes, sheets, paper_name))
            furniture = document.PageFurniture(f"{deck.name.value} · {text['rulebook']} · {language}", page_label)
            pdf, pages = _document(document.render_document, "rulebook.xml.j2", xml, book, deck.lang, style,
                                   styles["colors"], Size(sheet.w / 2, sheet.h) if options.booklet else paper,
                                   furniture, f"{deck.name.value}: {text['rulebook']} ({deck.lang})", icons)
            if options.booklet:
                pdf, pages = booklet.impose(pdf, pt(sheet.w), pt(sheet.h)), -(-pages // 4) * 2
            out.append(("rulebook", pdf, pages))
        if deck.script and (kinds is None or "script" in kinds):
            in_play, label = self.in_play(deck, files, text)
            xml = templating.render(template_dirs, "script.xml.j2", script.context(deck, text, in_play, label))
            furniture = document.PageFurniture(f"{deck.name.value} · {text['script']} · {language} · {label}",
                                               page_label)
            pdf, pages = _document(document.render_document, "script.xml.j2", xml, book, deck.lang,
                                   styles["script"], styles["colors"], paper, furniture, f"{deck.name.value}: {text['script']} ({deck.lang})", icons)
            out.append(("script", pdf, pages))
        return out

    def in_play(self, deck: Deck, files: GameFiles, text: dict) -> tuple[frozenset[str], str]:
        """The cards the script covers, and how the script's pages name them."""
        options = self.options
        all_ids = {card.id for card in deck.cards}
        unknown = [card_id for card_id in options.extra_cards if card_id not in all_ids]
        if unknown:
            raise DeckError([Problem(files.game.where(), f"--with: no card '{unknown[0]}'"
                                     f"{did_you_mean(unknown[0], all_ids)} in {files.id}")])
        if options.players is None:
            return frozenset(all_ids), text["all_cards"]
        setups = {setup.id: setup for setup in deck.setups}
        setup_id = options.setup or next(iter(setups), None)
        if setup_id not in setups:
            raise DeckError([Problem(files.game.where(), f"--setup: {files.id} has no setup '{setup_id}'"
                                     f"{did_you_mean(str(setup_id), setups)}; setups: {', '.join(setups) or 'none'}")])
        setup = setups[setup_id]
        if options.players not in setup.players:
            raise DeckError([Problem(files.game.where(), f"--players: setup '{setup_id}' of {files.id} has no row "
                                     f"for {options.players} players")])
        dealt = setup.deals[setup.players.index(options.players)]
        label = text["setup_for"].replace("{players}", str(options.players)).replace(
            "{setup}", setup.name.value if setup.name else setup_id)
        return frozenset(dealt) | frozenset(options.extra_cards), label


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


def output_path(options: BuildOptions, files: GameFiles, kind: str, lang: str) -> Path:
    return options.out / files.id / f"{files.id}-{kind}-{lang}.pdf"


@dataclass
class JobResult:
    written: list[tuple[Path, int]] = field(default_factory=list)   # (file, pages)
    cards: int = 0
    sheets: int = 0               # of the card PDF, when written
    back_ink: float = 0.0         # mean ink coverage of the cards' back colours
    warnings: list[Problem] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def run_job(project: Project, options: BuildOptions, files: GameFiles, lang: str,
            kinds: frozenset[str] | None = None, pipeline: Pipeline | None = None) -> JobResult:
    """Stages 3-6 for one game in one language: its PDFs written (only `kinds` of them, when
    given: the others are up to date), or its problems."""
    from . import render
    from .write import write_atomic

    # A worker process makes its own: templates are re-read for every build, never kept stale.
    pipeline = pipeline or Pipeline(project, options)
    result = JobResult()
    prepared, found = pipeline.prepare(files, lang)
    if prepared is None:
        result.problems = found
        return result
    result.warnings = found
    outputs = []
    if kinds is None or "cards" in kinds:
        strings = pipeline.read("strings.yaml")
        render_options = render.RenderOptions(options.ink_saver, pipeline.read("sheet.yaml"),
                                              {**_in_language(strings, "en"), **_in_language(strings, lang)},
                                              options.back_offset)
        pdf = render.render_pdf(prepared.deck, prepared.pages, prepared.faces, prepared.book, render_options)
        outputs.append(("cards", pdf, len(prepared.pages)))
        result.sheets = sum(1 for page in prepared.pages if page.side != "back")
        result.back_ink = 0.0 if options.ink_saver else back_ink(prepared.deck)
    try:
        outputs += [output for output in pipeline.documents(prepared, files, kinds)]
    except DeckError as exc:
        result.problems = exc.problems
        return result
    except TemplateError as exc:
        result.problems = [Problem(Where(project.display(Path(exc.file)), exc.line), exc.message)]
        return result
    for kind, data, pages in outputs:
        target = output_path(options, files, kind, lang)
        try:
            write_atomic(target, data)
        except OSError as exc:
            result.problems = [Problem(None, f"cannot write {target}: {exc.strerror or exc}")]
            return result
        result.written.append((target, pages))
    result.cards = len(prepared.deck.copies)
    return result


def _run_all(project: Project, options: BuildOptions, todo: list[tuple[GameFiles, str, frozenset[str]]],
             progress: Callable[[Iterable], Iterable]) -> Iterable[tuple[GameFiles, str, JobResult]]:
    """Each job's result, in worker processes when there are several jobs and cores to share."""
    workers = min(options.jobs or os.cpu_count() or 1, len(todo))
    if workers <= 1:
        pipeline = Pipeline(project, options) if todo else None
        for files, lang, kinds in progress(todo):
            yield files, lang, run_job(project, options, files, lang, kinds, pipeline)
        return
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(run_job, project, options, files, lang, kinds) for files, lang, kinds in todo]
        # Reported in job order, whatever order the workers finish in, so output does not depend on timing.
        for (files, lang, _), future in zip(progress(todo), futures):
            yield files, lang, future.result()


def check_options(project: Project, options: BuildOptions) -> None:
    """Options that name template data (a paper, a card size) must name what is there."""
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
    todo, inputs = [], {}   # todo: (game, language, the outputs to write)
    for files, lang in jobs(games, options):
        game_folders = [files.folder, *(include / files.id for include in project.includes)]
        kinds = output_kinds(files)
        for kind in kinds:
            inputs[files.id, lang, kind] = manifest.inputs(kind, lang, game_folders, project.templates,
                                                           project.fonts, options)
        stale = frozenset(kind for kind in kinds if options.force or not manifest.fresh(
            output_path(options, files, kind, lang), inputs[files.id, lang, kind]))
        report.up_to_date += len(kinds) - len(stale)
        if stale:
            todo.append((files, lang, stale))
    problems: list[Problem] = []
    dark = project.template_data("sheet.yaml")["dark-backs"]
    for files, lang, result in _run_all(project, options, todo, progress):
        problems += result.problems
        report.warnings += result.warnings
        report.cards += result.cards
        report.sheets += result.sheets
        if result.back_ink > dark:
            report.dark_backs[files.id] = max(result.back_ink, report.dark_backs.get(files.id, 0.0))
        for target, pages in result.written:
            report.files.append(target)
            report.pages += pages
            kind = target.stem.removeprefix(f"{files.id}-").rsplit("-", 1)[0]
            manifest.record(target, inputs[files.id, lang, kind])
    if report.files:
        manifest.save()
    report.seconds = time.perf_counter() - start
    if problems:
        raise DeckError(warnings + problems)
    return report
