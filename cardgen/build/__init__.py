"""The pipeline, stage by stage: games and options in, written PDFs and a report out.

``check`` loads and validates games (stages 1 and 2) and stops once with every
problem found. ``build`` then runs, for each game and language (or pair of
languages, vi+en, for bilingual cards), resolve →
faces → layout → render → write. Problems in one language do not stop the
others from being written; they are all raised together at the end, so one run
shows everything that needs fixing and keeps every output that is good.
"""

from __future__ import annotations

import functools
import os
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Hashable, Iterable, Mapping

from cardgen.core import contained
from cardgen.core.problems import DeckError, Problem, Where, count, did_you_mean
from cardgen.core.project import BUILTIN, Project

# The stages come in when a build needs them: a build with nothing to do, `list` and --help load none.
if TYPE_CHECKING:
    import concurrent.futures

    from cardgen.cards.face import Faces
    from cardgen.text.fonts import FontBook
    from cardgen.cards.icons import Undrawable
    from cardgen.deck.load import GameFiles
    from cardgen.deck.model import Card, Deck
    from cardgen.deck.tonight import Tonight


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
    roles: tuple[tuple[str, int], ...] = ()   # the exact cards in play (--roles), instead of a setup's row
    only_needed: bool = False      # a tailored build's card sheets hold only that table's cards
    pinyin: bool = False           # pinyin over the Chinese names of role cards
    kinds: tuple[str, ...] = ()    # only these outputs (cards, rulebook, script, narrator); empty: all

    @property
    def tailored(self) -> bool:
        """Built for one evening's table rather than for the whole box."""
        return self.players is not None or self.setup is not None or bool(self.roles)


@dataclass
class Report:
    files: list[Path] = field(default_factory=list)
    pages: int = 0
    cards: int = 0
    sheets: int = 0                # of paper, for the card PDFs written
    seconds: float = 0.0
    warnings: list[Problem] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)     # outputs already up to date
    dark_backs: dict[str, float] = field(default_factory=dict)   # game -> ink coverage of its backs
    saved: tuple[int, int] = (0, 0)   # --only-needed: sheets of cards printed, and the whole box's

    @property
    def up_to_date(self) -> int:
        return len(self.kept)

    def summary(self) -> str:
        warned = sum(1 for w in self.warnings if w.severity == "warning")
        tail = f", {count(warned, 'warning')}" if warned else ""
        if not self.files and self.up_to_date:
            return f"up to date ({count(self.up_to_date, 'file')}) in {self.seconds:.1f} s{tail}"
        sheets = f" on {count(self.sheets, 'sheet')}" if self.sheets else ""
        line = f"{count(len(self.files), 'file')}, {count(self.pages, 'page')}, " \
               f"{count(self.cards, 'card')}{sheets} in {self.seconds:.1f} s"
        line += f"; {self.up_to_date} up to date" if self.up_to_date else ""
        printed, box = self.saved
        if box:
            line += f"; --only-needed: {count(printed, 'sheet')} of cards instead of {box} ({box - printed} saved)"
        return line + tail

    def advice(self) -> list[str]:
        """What to tell a group before they print: backs dark enough to empty a cartridge."""
        if not self.dark_backs:
            return []
        games = ", ".join(sorted(self.dark_backs))
        return [f"the backs of {games} print dark (up to {100 * max(self.dark_backs.values()):.0f} % ink "
                f"coverage); --ink-saver prints them as light tints"]


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
    """Stages 1-2 for every game; raises DeckError once with all problems, returns the warnings.

    A game folder in decks/ that is a symbolic link leading out of it is refused, like any file that
    leaves its folder."""
    from cardgen.deck.load import include_strays, load_game
    from cardgen.deck.schema import ID_PATTERN
    from cardgen.deck.validate import validate_game

    names = list(names)
    # Files of a few folders, read one after another: each folder's real path is found once.
    with contained.reading():
        games, problems = [], []
        folders = [game_folder(project, n) for n in names] if names else \
            [project.decks / g for g in project.games()]
        if not folders:
            raise DeckError([Problem(Where(project.display(project.decks)), "no games found (no */game.yaml)")])
        sizes = card_sizes(project)
        for folder in folders:
            if folder.parent == project.decks:
                why = contained.folder_reason(folder, project.decks)
                if why:
                    problems.append(Problem(Where(project.display(folder)), why))
                    continue
            # The folder's name is the game's id: it names the outputs and CI's jobs, and reaches shell lines.
            if not re.match(ID_PATTERN, folder.name):
                problems.append(Problem(Where(project.display(folder)),
                                        f"'{folder.name}' cannot be a game's id, which is its folder's name: rename "
                                        "the folder in kebab-case English (a-z, 0-9 and -), like my-game"))
                continue
            # A game outside the project is named relative to the folder that holds it; a bundled one as it ships.
            root = max((r for r in (project.root, BUILTIN) if folder.is_relative_to(r)),
                       key=lambda r: len(r.parts), default=folder.parent)
            files, found = load_game(folder, root, project.includes, named=len(names) == 1)
            found += validate_game(files, sizes)
            problems += found
            games.append(files)
        for include in project.includes:
            problems += include_strays(include, project.root, project.games(), [files.id for files in games],
                                       named=len(names) == 1)
        # In reading order, file by file, so that a designer can work down the list.
        problems.sort(key=Problem.sort_key)
    if any(p.fails(strict) for p in problems):
        raise DeckError(problems)
    return games, problems


def languages(files: GameFiles, wanted: tuple[str, ...]) -> list[str]:
    """The languages a build of the game makes (`wanted`, else all of the game's): each a language
    code, or two joined by + for bilingual cards (vi+en)."""
    from cardgen.deck.resolve import language_pair

    have = list(files.game.data["languages"])
    for choice in wanted:
        pair = language_pair(choice)
        missing = [lang for lang in pair if lang not in have]
        if missing:
            raise DeckError([Problem(files.game.where(("languages",)),
                                     f"game '{files.id}' has no language '{missing[0]}'; it has {', '.join(have)}")])
        if len(pair) > 2 or len(set(pair)) < len(pair):
            raise DeckError([Problem(None, f"--lang {choice}: bilingual cards are in two different languages, "
                                           f"like {have[0]}+{have[-1]}")])
    return list(dict.fromkeys(wanted)) or have


def check_pinyin(games: list[GameFiles], options: BuildOptions) -> list[Problem]:
    """--pinyin puts pinyin over Chinese names: a build with no Chinese is an error (nothing would carry
    it); a game's languages without Chinese in a build that has some, a warning each."""
    from cardgen.text.pinyin import CHINESE, has_chinese
    from cardgen.deck.resolve import language_pair

    if not options.pinyin:
        return []
    chinese = {(files.id, lang): any(map(has_chinese, language_pair(lang)))
               for files in games for lang in languages(files, options.langs)}
    if not any(chinese.values()):
        built = ", ".join(dict.fromkeys(lang for _, lang in chinese))
        raise DeckError([Problem(None, f"--pinyin puts pinyin over Chinese names, and this build has no Chinese "
                                       f"({built}): add --lang {CHINESE} or a pair with it, like --lang {CHINESE}+en")])
    return [Problem(files.game.where(("languages",)), f"--pinyin: '{lang}' has no Chinese; its cards have no pinyin",
                    "warning")
            for files in games for lang in languages(files, options.langs) if not chinese[files.id, lang]]


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
    from cardgen.cards.ink import hex_coverage

    backs = [card.group.back.color for card in deck.copies if not card.back_face]
    return sum(map(hex_coverage, backs)) / len(backs) if backs else 0.0


@dataclass(frozen=True)
class Prepared:
    """One game in one language, laid out and ready to render."""

    deck: Deck
    faces: Faces | None          # None when only the documents or the narrator page are made
    pages: list
    book: FontBook


class Pipeline:
    """Stages 3-4 for any number of decks, with the templates and fonts read once."""

    def __init__(self, project: Project, options: BuildOptions, sizes: dict[str, dict] | None = None):
        """`sizes` replaces card-sizes.yaml's entries of the same names: a print service's own trims."""
        # ReportLab comes in here, not at import time, so that list and --help stay quick.
        from cardgen.cards import face
        from cardgen.text import fonts

        self.project = project
        self.options = options
        try:
            self.book = fonts.FontBook.load(project.template("fonts.yaml"), project.fonts)
        except ValueError as exc:
            raise DeckError([Problem(Where(project.display(project.template("fonts.yaml"))), str(exc))]) from None
        self.game_books: dict[str, FontBook] = {}
        self.drawn: dict[str, list[Problem]] = {}       # per game: the SVGs it names that cannot be drawn
        # A pipeline serves one build: each template is read once for all its decks.
        self.read = functools.cache(project.template_data)
        self.sizes = {**self.read("card-sizes.yaml"), **(sizes or {})}
        self.card_layouts = face.size_layouts(self.read("card-layout.yaml"), self.sizes)

    def prepare(self, files: GameFiles, lang: str, cards: bool = True, sheets: bool = True,
                drawn: bool = True) -> tuple[Prepared | None, list[Problem]]:
        """Resolve, faces and layout; every problem of this deck, or a deck ready to render.
        Without `cards` only resolve (the documents and the narrator page need no card faces); without
        `sheets` the cards are not imposed on paper (exports place them themselves); without `drawn` its
        SVGs are not drawn once first to find those that cannot be: the caller draws them, and says
        undrawable()'s problems for the icons.Undrawable that drawing raises (as run_job does)."""
        from cardgen.cards import face
        from cardgen.deck import resolve

        from cardgen.text.fonts import FontError

        options = self.options
        try:
            book = self.book_for(files)
            deck, problems = resolve.resolve_deck(files, lang, options.card_size, self.sizes, book)
            faces, found = face.compose_faces(deck, self.card_layouts, book, options.ink_saver, self.words(lang),
                                              options.pinyin) if cards else (None, [])
        except FontError as exc:     # fonts are opened when a text first needs them
            return None, [self.font_problem(files, exc)]
        except ValueError as exc:
            return None, [Problem(files.game.where(("fonts",)), f"fonts: {exc}")]
        problems += found + (self.drawing_problems(files) if cards and drawn else [])
        pages = []
        if sheets:
            # Imposing is cheap and the rulebook counts the sheets, so it is done even without card faces.
            try:
                pages = self.impose(deck)
            except ValueError as exc:
                problems.append(Problem(None, f"{files.id} ({lang}): {exc}"))
        if any(problem.fails(options.strict) for problem in problems):
            return None, problems
        return Prepared(deck, faces, pages, book), problems

    def warm(self, langs: Iterable[str]) -> None:
        """Loads now what every job needs: the drawing modules and every face of the languages' fonts."""
        from cardgen.documents import typeset  # noqa: F401 - imported for the workers to inherit
        from cardgen.cards import render
        from cardgen.text.fonts import FontError

        from cardgen.deck.resolve import language_pair

        for lang in (one for choice in langs for one in language_pair(choice)):
            for family in self.book.order(lang):
                for bold in (False, True):
                    for italic in (False, True):
                        try:
                            self.book.face(family, bold, italic)
                        except (FontError, ValueError):
                            pass    # the jobs that need the face say what is wrong with it

    def impose(self, deck: Deck) -> list:
        """The sheets of a deck's cards: a run of sheets per card size and back design; a ValueError if a
        size does not fit the paper."""
        from cardgen.cards import layout

        options = self.options
        specs = {size: layout.SheetSpec.from_templates(self.read, options.paper, size, options.bleed,
                                                       options.backs, options.margin)
                 for size in dict.fromkeys(card.group.size_name for card in deck.copies)}
        return layout.impose_runs(layout.Run(tuple(items), specs[size], back)
                                  for (size, _), (back, items) in sheet_runs(deck, options.backs).items())

    def text(self, lang: str) -> dict:
        """The words of the generated documents in a language (templates/documents/text.yaml), English
        where it has none."""
        return document_text(self.read, lang)

    def table(self, deck: Deck, files: GameFiles) -> Tonight:
        """Who plays: the table the options name, or the whole box."""
        return table_of(deck, files, self.options, self.text(deck.lang))

    def words(self, lang: str) -> dict:
        """cardgen's own words on the sheets (templates/strings.yaml) in a language, English where it has
        none; for a pair (vi+en), the first language's, naming both languages."""
        from cardgen.deck.resolve import language_pair

        strings = self.read("strings.yaml")
        first = language_pair(lang)[0]
        return {**_in_language(strings, "en"), **_in_language(strings, first),
                "language": self.language_name(lang)}

    def language_name(self, lang: str) -> str:
        """A language's name in itself (strings.yaml's `language`); a pair's two names joined by +."""
        from cardgen.deck.resolve import language_pair

        strings = self.read("strings.yaml")
        return " + ".join(_in_language(strings, one).get("language", one) for one in language_pair(lang))

    def drawing_problems(self, files: GameFiles) -> list[Problem]:
        """Every SVG of the game drawn once, as the build draws it: what svglib or ReportLab stumble on."""
        from cardgen.cards import svgcheck
        from cardgen.deck.validate import svg_refs

        if files.id not in self.drawn:
            self.drawn[files.id] = [Problem(where, f"{written} is {reason}")
                                    for where, written, path, folder in svg_refs(files)
                                    if (reason := svgcheck.drawing_problem(path, folder))]
        return self.drawn[files.id]

    def undrawable(self, files: GameFiles, exc: Undrawable) -> list[Problem]:
        """Where the SVG that could not be drawn is named, as drawing_problems() says it."""
        from cardgen.cards import icons, svgcheck
        from cardgen.deck.validate import svg_refs

        reason = svgcheck.undrawable(str(exc))
        return [Problem(where, f"{written} is {reason}") for where, written, path, _ in svg_refs(files)
                if icons.icon_bytes(path) == exc.data] or [Problem(None, f"{files.id}: a symbol is {reason}")]

    def font_problem(self, files: GameFiles, exc: ValueError) -> Problem:
        """Where a font that cannot be used is to be fixed: the game's `fonts:` for its own fonts,
        else the project's font file."""
        families = (files.game.data.get("fonts") or {}).get("families", {})
        own = {str(file) for faces in families.values() for file in faces.values()}
        if any(path.as_posix().endswith(name) for path in exc.paths for name in own):
            return Problem(files.game.where(("fonts",)), f"fonts: {exc}")
        return Problem(Where(self.project.display(exc.paths[0])), str(exc))

    def book_for(self, files: GameFiles):
        """The font book of a game: the built-in one, or with the game's own fonts added."""
        from cardgen.text import fonts

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

    def documents(self, prepared: Prepared, files: GameFiles, kinds: frozenset[str] | None = None,
                  once: bool = False) -> list[tuple[str, bytes, int]]:
        """The rulebook, the moderator script and the narrator page of a deck that has their texts (of
        `kinds`, when given): (kind, file, pages); `once`: each laid out a single time, to check it (validate)."""
        from cardgen.documents import booklet, typeset, rulebook, script, templating
        from cardgen.cards import render
        from cardgen.core import pdfinfo
        from cardgen.cards.layout import named_size
        from cardgen.core.phrases import fill
        from cardgen.core.units import Size, pt

        project, options = self.project, self.options
        deck, book = prepared.deck, prepared.book
        styles = self.read("documents/styles.yaml")
        text = self.text(deck.lang)
        papers = self.read("paper.yaml")
        language = self.language_name(deck.key)
        template_dirs = [folder / "documents" for folder in project.templates]
        icons = render.inline_icons(deck)

        def page_label(n: int, total: int) -> str:
            return fill(text["page"], n=n, total=total)

        # Documents are printed on the build's paper; a booklet's pages are half a sheet of it.
        paper = named_size(papers, options.paper, "paper")
        sheet = paper.rotated()
        out = []
        if deck.rulebook and (kinds is None or "rulebook" in kinds):
            style = styles["booklet" if options.booklet else "rulebook"]
            sheets = sheets_of_paper(prepared.pages)
            paper_name = rulebook.localized_name(papers[options.paper], deck.lang, options.paper)
            xml = templating.render(template_dirs, "rulebook.xml.j2",
                                    rulebook.context(deck, text, self.sizes, sheets, paper_name))
            furniture = typeset.PageFurniture(f"{deck.name.value} · {text['rulebook']} · {language}", page_label)
            pdf, pages = _document(typeset.render_document, f"{files.id} ({deck.key}): its rulebook",
                                   "rulebook.xml.j2", xml, book, deck.lang, style, styles["colors"],
                                   Size(sheet.w / 2, sheet.h) if options.booklet else paper, furniture,
                                   pdfinfo.of(deck, f"{deck.name.value}: {text['rulebook']} ({deck.key})",
                                              "quick-reference rulebook"), icons, once)
            if options.booklet and not once:
                pdf, pages = booklet.impose(pdf, pt(sheet.w), pt(sheet.h)), -(-pages // 4) * 2
            out.append(("rulebook", pdf, pages))
        if deck.script and (kinds is None or "script" in kinds):
            table = self.table(deck, files)
            context = script.context(deck, text, table)
            xml = templating.render(template_dirs, "script.xml.j2", context)
            header = f"{deck.name.value} · {context['title']} · {language} · {table.label}"
            furniture = typeset.PageFurniture(header, page_label)
            pdf, pages = _document(typeset.render_document, f"{files.id} ({deck.key}): its script",
                                   "script.xml.j2", xml, book, deck.lang, styles["script"], styles["colors"],
                                   paper, furniture, pdfinfo.of(deck, f"{deck.name.value}: {context['title']} "
                                                                      f"({deck.key})", "moderator script"),
                                   icons, once)
            out.append(("script", pdf, pages))
        if deck.script and (kinds is None or "narrator" in kinds):
            out.append(("narrator", self.narrator(prepared, files), 0))
        return out

    def narrator(self, prepared: Prepared, files: GameFiles) -> bytes:
        """The narrator page of a deck with a script, starting from the build's table."""
        from cardgen.documents import narrator
        from cardgen.documents.templating import TemplateError

        project, deck = self.project, prepared.deck
        text = self.text(deck.lang)
        page_all = project.template_data("narrator/text.yaml")
        page_text = {**page_all.get("en", {}), **page_all.get(deck.lang, {}),
                     "language": _in_language(project.template_data("strings.yaml"), deck.lang).get("language",
                                                                                                 deck.lang)}
        table = self.table(deck, files)
        try:
            return narrator.page(deck, text, page_text, project.template_data("narrator/narrator.yaml"), table,
                                 lambda name: project.template(f"narrator/{name}").read_text(encoding="utf-8"),
                                 [folder / "narrator" for folder in project.templates])
        except narrator.PageError as exc:
            raise TemplateError("templates/narrator", None, str(exc)) from None

    def document_outputs(self, prepared: Prepared, files: GameFiles, kinds: frozenset[str] | None = None,
                         once: bool = False) -> tuple[list[tuple[str, bytes, int]], list[Problem]]:
        """documents(), with what stops them as problems: a template, a font, a --setup."""
        from cardgen.text.fonts import FontError
        from cardgen.cards.icons import Undrawable
        from cardgen.documents.templating import TemplateError

        try:
            return self.documents(prepared, files, kinds, once), []
        except DeckError as exc:
            return [], exc.problems
        except TemplateError as exc:
            return [], [Problem(Where(self.project.display(Path(exc.file)), exc.line), exc.message)]
        except FontError as exc:
            return [], [self.font_problem(files, exc)]
        except Undrawable as exc:
            return [], self.undrawable(files, exc)


def document_text(read: Callable[[str], dict], lang: str) -> dict:
    """The words of the generated documents in a language, English where it has none; `read` reads a template."""
    text = read("documents/text.yaml")
    return {**text.get("en", {}), **text.get(lang, {})}


def table_of(deck: Deck, files: GameFiles, options: BuildOptions, text: Mapping) -> Tonight:
    """Who plays: the table the options name, or the whole box."""
    from cardgen.deck.tonight import tonight

    return tonight(deck, files.game.where(), text, options.players, options.setup, options.extra_cards,
                   options.roles)


def sheets_of_paper(pages: list) -> int:
    """Sheets a printer takes for these pages: a front page starts one (its back page, if any, is its other side)."""
    return sum(1 for page in pages if page.side != "back")


def _document(render_document, what: str, template: str, xml: str, *args):
    """A document, or a TemplateError naming the template whose XML it could not use."""
    import xml.etree.ElementTree as ET

    from reportlab.platypus.doctemplate import LayoutError

    from cardgen.documents.typeset import MAX_PAGES, TooManyPages
    from cardgen.text.fonts import FontError
    from cardgen.documents.templating import TemplateError

    try:
        return render_document(xml, *args)
    except FontError:
        raise
    except TooManyPages:
        raise DeckError([Problem(None, f"{what} runs past {MAX_PAGES} pages, more than cardgen lays out: shorten "
                                       "its texts or its template")]) from None
    except (ValueError, ET.ParseError) as exc:
        raise TemplateError(f"documents/{template}", None, f"its output is not a document cardgen can draw: {exc}") \
            from None
    except LayoutError:
        # Every text of the built-in templates can break across pages; a table row or a heading cannot.
        raise TemplateError(f"documents/{template}", None, "its output has a part taller than a page that cannot "
                                                           "be split across pages (a table row?); shorten it") \
            from None


def jobs(games: list[GameFiles], options: BuildOptions) -> list[tuple[GameFiles, str]]:
    return [(files, lang) for files in games for lang in languages(files, options.langs)]


def validate(project: Project, names: Iterable[str], options: BuildOptions,
             progress: Callable[[Iterable], Iterable] = lambda jobs: jobs) -> tuple[list[GameFiles], list[Problem]]:
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


def _in_language(table: dict, lang: str) -> dict:
    """A language's block of a per-language template file (strings.yaml), or an empty one."""
    block = table.get(lang) if isinstance(table, dict) else None
    return block if isinstance(block, dict) else {}


def output_kinds(files: GameFiles) -> list[str]:
    """The outputs a game makes per language: its cards, its rulebook and script if it has their texts,
    and the narrator page if it has a script."""
    kinds = ["cards", *(kind for kind in ("rulebook", "script") if f"{kind}.yaml" in files.extra)]
    return kinds + ["narrator"] if "script" in kinds else kinds


def output_path(options: BuildOptions, files: GameFiles, kind: str, lang: str, players: int | None = None) -> Path:
    """Where an output goes: `<game>-<kind>-<lang>.pdf` for the whole box, `-<N>p` added for a table of N."""
    table = f"-{players}p" if players is not None else ""
    return options.out / files.id / f"{files.id}-{kind}-{lang}{table}.{'html' if kind == 'narrator' else 'pdf'}"


# The outputs a tailored build writes for its table; the rulebook is always the whole box's, and the
# card sheets are the table's only with --only-needed.
TABLE_KINDS = ("script", "narrator")


@dataclass(frozen=True)
class Target:
    """One output file of a build."""

    kind: str          # cards, rulebook, script or narrator
    path: Path
    tailored: bool     # made for the build's table, not for the whole box


def targets(files: GameFiles, lang: str, options: BuildOptions) -> list[Target]:
    """The files a build writes for one game and language (a tailored build's `options` come from :func:`plan`).
    A pair (vi+en) writes no narrator page: the page reads aloud in one language, the first one's."""
    out = []
    for kind in output_kinds(files):
        if options.kinds and kind not in options.kinds or (kind == "narrator" and "+" in lang):
            continue
        tailored = options.tailored and (kind in TABLE_KINDS or (kind == "cards" and options.only_needed))
        out.append(Target(kind, output_path(options, files, kind, lang, options.players if tailored else None),
                          tailored))
    return out


def plan(project: Project, games: list[GameFiles], options: BuildOptions
         ) -> tuple[list[tuple[GameFiles, BuildOptions]], list[Problem]]:
    """Each game with the options its outputs are built with, and the table's warnings. For a tailored
    build the table is settled here, once per game and before anything is drawn: a mistake in the
    options stops the build at once, and the number of players (counted from --roles, or a one-row
    setup's) names the files."""
    from cardgen.deck.resolve import AnyGlyph, resolve_deck

    if not options.tailored:
        return [(files, options) for files in games], []
    if options.roles and len(games) != 1:
        raise DeckError([Problem(None, "--roles names the cards of one game: build one game at a time")])
    planned, warnings = [], []
    for files in games:
        lang = languages(files, options.langs)[0]
        deck, _ = resolve_deck(files, lang, options.card_size, card_sizes(project), AnyGlyph())
        table = table_of(deck, files, options, document_text(project.template_data, deck.lang))
        planned.append((files, replace(options, players=table.players)))
        warnings += table.warnings
    return planned, warnings


@dataclass
class JobResult:
    written: list[tuple[Target, int]] = field(default_factory=list)   # (file, pages)
    cards: int = 0
    sheets: int = 0               # of the card PDF, when written
    back_ink: float = 0.0         # mean ink coverage of the cards' back colours
    saved: tuple[int, int] = (0, 0)   # --only-needed: sheets printed, and the whole box's
    warnings: list[Problem] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def run_job(project: Project, options: BuildOptions, files: GameFiles, lang: str,
            todo: tuple[Target, ...], pipeline: Pipeline | None = None) -> JobResult:
    """Stages 3-6 for one game in one language: the files of `todo` written (the game's others are up
    to date), or its problems."""
    from cardgen.cards import render
    from cardgen.text.fonts import FontError
    from cardgen.cards.icons import Undrawable
    from cardgen.deck.tonight import printed
    from cardgen.core.write import write_atomic

    # A worker started without the build's makes its own: templates are read for every build, never kept stale.
    pipeline = pipeline or Pipeline(project, options)
    result = JobResult()
    kinds = {target.kind: target for target in todo}
    # Its SVGs are drawn once, on the sheets: one that cannot be drawn is said where it is named.
    prepared, found = pipeline.prepare(files, lang, "cards" in kinds, drawn=False)
    if prepared is None:
        result.problems = found
        return result
    result.warnings = found
    outputs = []
    if "cards" in kinds:
        deck, pages = prepared.deck, prepared.pages
        try:
            if kinds["cards"].tailored:
                deck = printed(deck, pipeline.table(deck, files))
                pages = pipeline.impose(deck)
                result.saved = (sheets_of_paper(pages), sheets_of_paper(prepared.pages))
            render_options = render.RenderOptions(options.ink_saver, pipeline.read("sheet.yaml"),
                                                  pipeline.words(lang), options.back_offset)
            pdf = render.render_pdf(deck, pages, prepared.faces, prepared.book, render_options)
        except DeckError as exc:
            result.problems = exc.problems
            return result
        except FontError as exc:
            result.problems = [pipeline.font_problem(files, exc)]
            return result
        except Undrawable as exc:
            result.problems = pipeline.undrawable(files, exc)
            return result
        outputs.append((kinds["cards"], pdf, len(pages)))
        result.cards = len(deck.copies)       # counted only where a card PDF is written
        result.sheets = sheets_of_paper(pages)
        result.back_ink = 0.0 if options.ink_saver else back_ink(deck)
    documents, problems = pipeline.document_outputs(prepared, files, frozenset(kinds) - {"cards"})
    if problems:
        result.problems = problems
        return result
    outputs += [(kinds[kind], data, pages) for kind, data, pages in documents]
    for target, data, pages in outputs:
        try:
            write_atomic(target.path, data)
        except OSError as exc:
            result.problems = [Problem(None, f"cannot write {target.path}: {exc.strerror or exc}")]
            return result
        result.written.append((target, pages))
    return result


def _run_all(project: Project, options: BuildOptions, todo: list[tuple[GameFiles, str, BuildOptions, tuple[Target, ...]]],
             progress: Callable[[Iterable], Iterable]) -> Iterable[tuple[GameFiles, str, JobResult]]:
    """Each job's result, in worker processes when there are several jobs and free cores to share."""
    workers = worker_count(options, todo)
    pipeline = Pipeline(project, options) if todo else None
    if workers <= 1:
        for files, lang, game_options, files_todo in progress(todo):
            yield files, lang, run_job(project, game_options, files, lang, files_todo, pipeline)
        return
    context = _forking()
    if context is not None:
        # Forked workers inherit the fonts and modules loaded here instead of each loading its own.
        pipeline.warm(sorted({lang for _, lang, _, _ in todo}))
    import concurrent.futures

    pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                                  initargs=(pipeline if context is not None else None,))
    try:
        futures = [pool.submit(_in_worker, project, game_options, files, lang, files_todo)
                   for files, lang, game_options, files_todo in todo]
        # Reported in job order, whatever order the workers finish in, so output does not depend on timing.
        for (files, lang, _, _), future in zip(progress(todo), futures):
            yield files, lang, future.result()
    except BaseException:
        # Ended by a signal, Ctrl-C or an error: no worker may outlive the build.
        _stop(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def worker_count(options: BuildOptions, todo: list[tuple[GameFiles, str, BuildOptions, tuple[Target, ...]]]) -> int:
    """--jobs when given; otherwise one worker per core that other processes leave free, and no more
    than there are jobs that draw PDFs (a narrator page alone is quicker made than a worker started)."""
    drawing = sum(1 for *_, files_todo in todo if any(target.kind != "narrator" for target in files_todo))
    if options.jobs:
        return min(options.jobs, len(todo))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores - busy_cores(), drawing))


def busy_cores(looks: int = 5) -> int:
    """The cores other processes keep busy now: a core they keep busy would make a worker wait, and a
    build in workers that wait is slower than one without. Linux says how many tasks are runnable at
    this moment (/proc/loadavg's fourth field, this process among them): the fewest of a few looks a
    millisecond apart. The load average elsewhere, which also counts what ran in the last minute (a
    build just before this one)."""
    try:
        counts = []
        for look in range(looks):
            with open("/proc/loadavg", encoding="ascii") as loadavg:
                counts.append(int(loadavg.read().split()[3].split("/")[0]))
            if look + 1 < looks:
                time.sleep(0.001)
        return max(0, min(counts) - 1)
    except (OSError, ValueError, IndexError):
        return int(os.getloadavg()[0]) if hasattr(os, "getloadavg") else 0


def _forking():
    """A fork context where the system has one that is safe to use (Linux), else None (the default)."""
    import multiprocessing
    import sys

    return multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None


_worker_pipeline: Pipeline | None = None


def _start_worker(pipeline: Pipeline | None) -> None:
    """A worker's start: SIGTERM ends it as Ctrl-C does, and a forked worker keeps the build's pipeline."""
    global _worker_pipeline
    _worker_pipeline = pipeline
    end_on_signals()


def _in_worker(*args) -> JobResult:
    """run_job in a worker process; a signal that ends the build ends the worker too, once the job's
    cleanups have run (the pool would otherwise hand it the next job)."""
    try:
        return run_job(*args, pipeline=_worker_pipeline)
    except SystemExit as exc:
        os._exit(exc.code if isinstance(exc.code, int) else 1)


def end_on_signals() -> None:
    """SIGTERM and SIGHUP end this process as Ctrl-C does, running every cleanup on the way out (a
    half-written temporary file is removed, worker processes are stopped); signals the caller
    chose to ignore stay ignored."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) in (signal.SIG_DFL, _ended):
            signal.signal(number, _ended)


def _ended(signum, frame) -> None:
    raise SystemExit(128 + signum)


def _stop(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Cancels what has not started and ends the workers at once (they clean up as they go)."""
    terminate = getattr(pool, "terminate_workers", None)        # Python 3.14
    if terminate is not None:
        terminate()
        return
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(timeout=10)


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


def _asked(project: Project, names: list[str], options: BuildOptions) -> str | None:
    """What a build of bundled or project games is asked, with the state of every file it may read
    (see manifest.request); None for a game named by its path, which may lie anywhere."""
    from cardgen.build.manifest import request

    if not project.by_id(names):
        return None
    # How many workers make the outputs does not change them.
    asked = (names, replace(options, jobs=None, force=False), project.decks, project.templates, project.fonts,
             project.includes)
    return request(asked, project.folders())


def build(project: Project, names: Iterable[str], options: BuildOptions,
          progress: Callable[[Iterable], Iterable] = lambda jobs: jobs) -> Report:
    from cardgen.build.manifest import Manifest
    from cardgen.core.write import remove_abandoned

    start = time.perf_counter()
    names = list(names)
    manifest = Manifest(options.out)
    asked = _asked(project, names, options)
    if asked is not None and not options.force:
        last = manifest.unchanged(asked)
        if last is not None:
            # Nothing it reads changed since the last build, which succeeded: its report stands.
            for folder in {options.out, *(Path(name).parent for name in last["outputs"])}:
                if folder.is_dir():
                    remove_abandoned(folder)
            return Report(warnings=[Problem(Where(*where) if where else None, message, severity)
                                    for where, message, severity in last["warnings"]],
                          kept=[Path(name) for name in last["outputs"]], seconds=time.perf_counter() - start)
    games, warnings = check(project, names, options.strict)
    check_options(project, options)
    report = Report(warnings=warnings)
    for folder in [options.out, *(options.out / files.id for files in games)]:
        if folder.is_dir():
            remove_abandoned(folder)
    planned, table_warnings = plan(project, games, options)
    report.warnings += table_warnings + check_pinyin(games, options)
    todo, inputs = [], {}   # todo: (game, language, its options, the outputs to write); inputs: by file
    for files, game_options in planned:
        game_folders = [files.folder, *files.included]
        for lang in languages(files, options.langs):
            outputs = targets(files, lang, game_options)
            for target in outputs:
                inputs[target.path] = manifest.inputs(target.kind, lang, game_folders, project.templates,
                                                      project.fonts, game_options, target.tailored)
            stale = tuple(target for target in outputs
                          if options.force or not manifest.fresh(target.path, inputs[target.path]))
            report.kept += [target.path for target in outputs if target not in stale]
            if stale:
                todo.append((files, lang, game_options, stale))
    problems: list[Problem] = []
    dark = project.template_data("sheet.yaml")["dark-backs"]
    try:
        for files, lang, result in _run_all(project, options, todo, progress):
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
    last = {} if asked is None or problems else {
        "request": asked, "outputs": [str(path) for path in [*report.kept, *report.files]],
        "warnings": [[[w.where.file, w.where.line] if w.where else None, w.message, w.severity]
                     for w in report.warnings]}
    if report.files or manifest.last != last:
        manifest.last = last
        manifest.save()
    report.seconds = time.perf_counter() - start
    if problems:
        # A problem of a file every language shares stops every language: say it once.
        raise DeckError(list(dict.fromkeys(warnings + problems)))
    return report
