"""Stages 3-5 for one deck: loaded game files and a language in, a laid-out deck (``Prepared``) and the
bytes of its documents (rulebook, script, narrator page) out, with the templates and fonts read once."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from cardgen.build import heap
from cardgen.build.kinds import KINDS, Kind, Made
from cardgen.build.options import BuildOptions
from cardgen.core.phrases import block, in_language, language_digits
from cardgen.core.problems import DeckError, Problem, Where
from cardgen.core.project import Project

T = TypeVar("T")

# The stages come in when a build needs them: a build with nothing to do, `list` and --help load none.
if TYPE_CHECKING:
    from cardgen.cards.faces import Faces
    from cardgen.cards.icons import Undrawable
    from cardgen.core.units import Size
    from cardgen.deck.load import GameFiles
    from cardgen.deck.model import Card, Deck
    from cardgen.deck.tonight import Tonight
    from cardgen.text.fonts import FontBook, FontError


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
    faces: Faces | None  # None when only the documents or the narrator page are made
    pages: list
    book: FontBook

    @property
    def checked_faces(self) -> Faces:
        """The card faces, for the card sheets: a build that makes them prepares its decks with faces."""
        if self.faces is None:
            raise ValueError(f"{self.deck.game}: cards drawn from a deck prepared without its faces")
        return self.faces


class Pipeline:
    """Stages 3-4 for any number of decks, with the templates and fonts read once."""

    def __init__(self, project: Project, options: BuildOptions, sizes: dict[str, dict] | None = None):
        """`sizes` replaces card-sizes.yaml's entries of the same names: a print service's own trims."""
        # ReportLab comes in here (with the fonts), not at import time, so that list and --help stay quick.
        from cardgen.cards import faces
        from cardgen.text import fonts

        self.project = project
        self.options = options
        try:
            self.book = fonts.FontBook.load(project.template("fonts.yaml"), project.fonts)
        except ValueError as exc:
            raise DeckError([Problem(Where(project.display(project.template("fonts.yaml"))), str(exc))]) from None
        self.game_books: dict[str, FontBook] = {}
        self.drawn: dict[str, list[Problem]] = {}  # per game: the SVGs it names that cannot be drawn
        # A pipeline serves one build: each template is read once for all its decks.
        self.read = functools.cache(project.template_data)
        self.sizes = {**self.read("card-sizes.yaml"), **(sizes or {})}
        self.card_layouts = faces.size_layouts(self.read("card-layout.yaml"), self.sizes)

    @heap.kept()
    def prepare(
        self, files: GameFiles, lang: str, cards: bool = True, sheets: bool = True, drawn: bool = True
    ) -> tuple[Prepared | None, list[Problem]]:
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
            faces, found = (
                face.compose_faces(deck, self.card_layouts, book, options.ink_saver, self.words(lang), options.pinyin)
                if cards
                else (None, [])
            )
        except FontError as exc:  # fonts are opened when a text first needs them
            return None, [self.font_problem(files, exc)]
        except ValueError as exc:
            return None, [Problem(files.checked_game.where(("fonts",)), f"fonts: {exc}")]
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
        from cardgen.cards import render  # noqa: F401 - imported for the workers to inherit
        from cardgen.deck.resolve import language_pair
        from cardgen.documents import typeset  # noqa: F401 - imported for the workers to inherit
        from cardgen.text.fonts import FontError

        for lang in (one for choice in langs for one in language_pair(choice)):
            for family in self.book.order(lang):
                for bold in (False, True):
                    for italic in (False, True):
                        try:
                            self.book.face(family, bold, italic)
                        except (FontError, ValueError):
                            pass  # the jobs that need the face say what is wrong with it

    def impose(self, deck: Deck) -> list:
        """The sheets of a deck's cards: a run of sheets per card size and back design; a ValueError if a
        size does not fit the paper."""
        from cardgen.cards import layout

        options = self.options
        specs = {
            size: layout.SheetSpec.from_templates(
                self.read, options.paper, size, options.bleed, options.backs, options.margin
            )
            for size in dict.fromkeys(card.group.size_name for card in deck.copies)
        }
        return layout.impose_runs(
            layout.Run(tuple(items), specs[size], back)
            for (size, _), (back, items) in sheet_runs(deck, options.backs).items()
        )

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
        language_digits(strings, first, "templates/strings.yaml")  # an entry that is not ten digits stops here
        return {**in_language(strings, first), "language": self.language_name(lang)}

    def language_name(self, lang: str) -> str:
        """A language's name in itself (strings.yaml's `language`); a pair's two names joined by +."""
        from cardgen.deck.resolve import language_pair

        strings = self.read("strings.yaml")
        return " + ".join(block(strings, one).get("language", one) for one in language_pair(lang))

    def drawing_problems(self, files: GameFiles) -> list[Problem]:
        """Every SVG of the game drawn once, as the build draws it: what svglib or ReportLab stumble on."""
        from cardgen.cards import svgcheck
        from cardgen.deck.validate import svg_refs

        if files.id not in self.drawn:
            self.drawn[files.id] = [
                Problem(where, f"{written} is {reason}")
                for where, written, path, folder in svg_refs(files)
                if (reason := svgcheck.drawing_problem(path, folder))
            ]
        return self.drawn[files.id]

    def undrawable(self, files: GameFiles, exc: Undrawable) -> list[Problem]:
        """Where the SVG that could not be drawn is named, as drawing_problems() says it."""
        from cardgen.cards import icons, svgcheck
        from cardgen.deck.validate import svg_refs

        reason = svgcheck.undrawable(str(exc))
        return [
            Problem(where, f"{written} is {reason}")
            for where, written, path, _ in svg_refs(files)
            if icons.icon_bytes(path) == exc.data
        ] or [Problem(None, f"{files.id}: a symbol is {reason}")]

    def font_problem(self, files: GameFiles, exc: FontError) -> Problem:
        """Where a font that cannot be used is to be fixed: the game's `fonts:` for its own fonts,
        else the project's font file."""
        families = (files.checked_game.data.get("fonts") or {}).get("families", {})
        own = {str(file) for faces in families.values() for file in faces.values()}
        if any(path.as_posix().endswith(name) for path in exc.paths for name in own):
            return Problem(files.checked_game.where(("fonts",)), f"fonts: {exc}")
        return Problem(Where(self.project.display(exc.paths[0])), str(exc))

    def book_for(self, files: GameFiles):
        """The font book of a game: the built-in one, or with the game's own fonts added."""
        from cardgen.text import fonts

        extra = files.checked_game.data.get("fonts")
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

    def cards(self, prepared: Prepared, files: GameFiles, tailored: bool, path: Path | None = None) -> Made:
        """The card sheets' PDF: the whole box's, or (`tailored`) just the cards of the build's table; with a
        `path`, written beside it as it is drawn, in the same memory for any deck, for the caller to commit."""
        from cardgen.cards import render, table_faces
        from cardgen.core.write import Staged
        from cardgen.deck.tonight import printed

        deck, pages, box_sheets, faces = prepared.deck, prepared.pages, 0, prepared.checked_faces
        if tailored:
            deck = printed(deck, self.table(deck, files))
            pages = self.impose(deck)
            box_sheets = sheets_of_paper(prepared.pages)
            faces = table_faces.retold(prepared.checked_faces, prepared.deck, deck, self.card_layouts, prepared.book,
                                       self.words(deck.key), self.options.ink_saver, self.options.pinyin)  # fmt: skip
        options = self.options
        sheet, words = self.read("sheet.yaml"), self.words(deck.key)
        render_options = render.RenderOptions(options.ink_saver, sheet, words, options.back_offset)
        drawn = (deck, pages, faces, prepared.book, render_options)
        if path is None:
            pdf: bytes | Staged = render.render_pdf(*drawn)
        else:
            pdf = Staged(path)
            pdf.fill(lambda out: render.write_pdf(*drawn, out, path.parent))  # not /tmp: it may be memory
        ink = 0.0 if options.ink_saver else back_ink(deck)
        return Made(pdf, len(pages), len(deck.copies), sheets_of_paper(pages), box_sheets, ink)

    def rulebook(self, prepared: Prepared, files: GameFiles, once: bool) -> Made:
        """The rulebook of a deck that has its text; `once`: laid out a single time, to check it (validate)."""
        from cardgen.core.units import Size
        from cardgen.documents import rulebook, templating

        options, deck, read = self.options, prepared.deck, self.read
        text, papers, styles = self.text(deck.lang), read("paper.yaml"), read("documents/styles.yaml")
        paper = self.paper()
        # A booklet's pages are half a sheet of the build's paper.
        sheet = paper.rotated()
        paper_name = rulebook.localized_name(papers[options.paper], deck.lang, options.paper)
        xml = templating.render(
            self.template_dirs("documents"),
            "rulebook.xml.j2",
            rulebook.context(deck, text, self.sizes, sheets_of_paper(prepared.pages), paper_name),
        )
        pdf, pages = self.typeset(
            prepared,
            files,
            "rulebook",
            xml,
            styles["booklet" if options.booklet else "rulebook"],
            Size(sheet.w / 2, sheet.h) if options.booklet else paper,
            f"{text['rulebook']} · {self.language_name(deck.key)}",
            text["rulebook"],
            "quick-reference rulebook",
            once,
            sheet if options.booklet and not once else None,
        )
        return Made(pdf, pages)

    def script(self, prepared: Prepared, files: GameFiles, once: bool) -> Made:
        """The moderator script of a deck that has its text, for the build's table."""
        from cardgen.documents import script, templating

        deck = prepared.deck
        table = self.table(deck, files)
        context = script.context(deck, self.text(deck.lang), table)
        xml = templating.render(self.template_dirs("documents"), "script.xml.j2", context)
        return Made(
            *self.typeset(
                prepared,
                files,
                "script",
                xml,
                self.read("documents/styles.yaml")["script"],
                self.paper(),
                f"{context['title']} · {self.language_name(deck.key)} · {table.label}",
                context["title"],
                "moderator script",
                once,
            )
        )

    def paper(self):
        """The build's paper: documents are printed on it."""
        from cardgen.cards.layout import named_size

        return named_size(self.read("paper.yaml"), self.options.paper, "paper")

    def template_dirs(self, folder: str) -> list[Path]:
        return [templates / folder for templates in self.project.templates]

    def typeset(
        self,
        prepared: Prepared,
        files: GameFiles,
        name: str,
        xml: str,
        style: dict,
        size,
        header: str,
        title: str,
        subject: str,
        once: bool,
        sheet: Size | None = None,
    ) -> tuple[bytes, int]:
        """A document's PDF and page count from its template's XML: `header` heads every page after the
        game's name, `title` names it in its metadata; with a `sheet` size, its pages imposed as a booklet
        on sheets of that size, and the count is of sheet sides."""
        from cardgen.cards import render
        from cardgen.core import pdfinfo
        from cardgen.core.phrases import fill
        from cardgen.documents import pages, typeset

        deck, text = prepared.deck, self.text(prepared.deck.lang)
        what = f"{files.id} ({deck.key}): its {name}{' booklet' if self.options.booklet and name == 'rulebook' else ''}"
        # Through _document: the estimate reads the template's XML first, well-formed or not.
        icons, template, book, lang = render.inline_icons(deck), f"{name}.xml.j2", prepared.book, deck.lang
        _document(pages.foresee, what, template, xml, book, lang, style, size, icons, what, files.checked_game.where())
        furniture = typeset.PageFurniture(
            f"{deck.name.value} · {header}", lambda n, total: fill(text["page"], text.get("digits"), n=n, total=total)
        )
        info = pdfinfo.of(deck, f"{deck.name.value}: {title} ({deck.key})", subject)
        colors = self.read("documents/styles.yaml")["colors"]
        drawn = (book, lang, style, colors, size, furniture, info, icons, once, sheet)
        return _document(typeset.render_document, what, template, xml, *drawn)

    def narrator(self, prepared: Prepared, files: GameFiles) -> bytes:
        """The narrator page of a deck with a script, starting from the build's table."""
        from cardgen.documents import narrator
        from cardgen.documents.templating import TemplateError

        project, deck = self.project, prepared.deck
        text = self.text(deck.lang)
        page_all = project.template_data("narrator/text.yaml")
        page_text = {
            **in_language(page_all, deck.lang),
            "language": block(project.template_data("strings.yaml"), deck.lang).get("language", deck.lang),
        }
        table = self.table(deck, files)
        try:
            return narrator.page(
                deck,
                text,
                page_text,
                project.template_data("narrator/narrator.yaml"),
                table,
                lambda name: project.template(f"narrator/{name}").read_text(encoding="utf-8"),
                [folder / "narrator" for folder in project.templates],
                prepared.book,
                project.language_style(deck.lang),
            )
        except narrator.PageError as exc:
            raise TemplateError("templates/narrator", None, str(exc)) from None

    def documents(
        self, prepared: Prepared, files: GameFiles, kinds: frozenset[str] | None = None, once: bool = False
    ) -> list[tuple[str, bytes, int]]:
        """Every output of the deck made without its cards' faces (rulebook, script, narrator page, as it has
        their texts; of `kinds`, when given): (kind, file, pages); `once`: each laid out a single time, to
        check it (validate)."""
        return [
            (kind.name, made.held, made.pages)
            for kind in KINDS.values()
            if not kind.faces and kind.made_for(files) and (kinds is None or kind.name in kinds)
            for made in (kind.make(self, prepared, files, False, once, None),)
        ]

    def document_outputs(
        self, prepared: Prepared, files: GameFiles, once: bool = False
    ) -> tuple[list[tuple[str, bytes, int]], list[Problem]]:
        """documents(), or the problems that stop them."""
        return self.caught(files, lambda: self.documents(prepared, files, once=once), [])

    def make(
        self, kind: Kind, prepared: Prepared, files: GameFiles, tailored: bool = False, path: Path | None = None
    ) -> tuple[Made | None, list[Problem]]:
        """An output of `kind`, or None and the problems that stop it; `path`: where it goes (see Kind.make)."""
        return self.caught(files, lambda: kind.make(self, prepared, files, tailored, False, path), None)

    def caught(self, files: GameFiles, make: Callable[[], T], failed: T) -> tuple[T, list[Problem]]:
        """What `make` makes, or `failed` with what stopped it as problems: a template, a font, a picture,
        a --setup."""
        from cardgen.cards.icons import Undrawable
        from cardgen.documents.templating import TemplateError
        from cardgen.text.fonts import FontError

        try:
            return make(), []
        except DeckError as exc:
            return failed, exc.problems
        except TemplateError as exc:
            return failed, [Problem(Where(self.project.display(Path(exc.file)), exc.line), exc.message)]
        except FontError as exc:
            return failed, [self.font_problem(files, exc)]
        except Undrawable as exc:
            return failed, self.undrawable(files, exc)


def document_text(read: Callable[[str], dict], lang: str) -> dict:
    """The words of the generated documents in a language, English where it has none, and the digits
    it writes numbers in (`digits`, strings.yaml's) where it has its own; `read` reads a template."""
    text = in_language(read("documents/text.yaml"), lang)
    digits = language_digits(read("strings.yaml"), lang, "templates/strings.yaml")
    return {**text, "digits": digits} if digits else text


def table_of(deck: Deck, files: GameFiles, options: BuildOptions, text: Mapping) -> Tonight:
    """Who plays: the table the options name, or the whole box."""
    from cardgen.deck.tonight import tonight

    return tonight(
        deck, files.checked_game.where(), text, options.players, options.setup, options.extra_cards, options.roles
    )


def sheets_of_paper(pages: list) -> int:
    """Sheets a printer takes for these pages: a front page starts one (its back page, if any, is its other side)."""
    return sum(1 for page in pages if page.side != "back")


def _document(render_document, what: str, template: str, xml: str, *args):
    """A document, or a TemplateError naming the template whose XML it could not use."""
    import xml.etree.ElementTree as ET

    from reportlab.platypus.doctemplate import LayoutError

    from cardgen.core.limits import MAX_PAGES
    from cardgen.documents.templating import TemplateError
    from cardgen.documents.typeset import TooManyPages
    from cardgen.text.fonts import FontError

    try:
        return render_document(xml, *args)
    except FontError:
        raise
    except TooManyPages:
        said = f"{what} runs past {MAX_PAGES} pages, more than cardgen lays out: shorten its texts or its template"
        raise DeckError([Problem(None, said)]) from None
    except (ValueError, ET.ParseError) as exc:
        raise TemplateError(
            f"documents/{template}", None, f"its output is not a document cardgen can draw: {exc}"
        ) from None
    except LayoutError:
        # Every text of the built-in templates can break across pages; a table row or a heading cannot.
        raise TemplateError(
            f"documents/{template}",
            None,
            "its output has a part taller than a page that cannot be split across pages (a table row?); shorten it",
        ) from None
