"""Print-shop exports: one game's cards, card by card, the way print services take them.

In: a game and its languages, checked and prepared exactly as ``build`` does
(:func:`cardgen.build.check` and :meth:`cardgen.build.Pipeline.prepare`, so the
same problems stop it and are reported the same way), a bleed (by default
1/8 in, the print-on-demand convention) and a resolution in dots per inch.

Out, for each language, under ``<out>/<game>/``:

* ``<game>-print-<lang>.pdf`` (``--pdf``): one card per page, front then back
  for every physical copy in printing order. The page is the card's trim plus
  the bleed all round; the TrimBox is the trim, centred, and the BleedBox the
  whole page. No crop marks and no page-info strip: print shops add their own.
  Fonts are embedded and the bytes are reproducible, as in the card sheets.
* ``export/<lang>/NNN-<card>-front.png`` and ``NNN-<card>-back.png`` (``--png``):
  the pages of that PDF rasterised with PDFium at the resolution, in RGB and
  round(px(trim + 2 × bleed)) pixels each way, bleed included; NNN counts the
  physical copies from 001 in printing order, so an upload of the folder has
  every copy. A round token is a square image with the token in it.
* ``export/<lang>/cards.csv`` (with ``--png``): ``number,card,copies,front,back``,
  one row per distinct card with its number of copies and the files of its
  first copy, which is what a print service's quantity field asks for.

Neither flag means both. Every file is written atomically; the PNGs carry no
timestamps, so repeating an export gives the same bytes.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from cardgen.build import Prepared, card_sizes
from cardgen.build.game_decks import ExportReport, GameLanguages
from cardgen.cards.layout import Page
from cardgen.cards.single import first_copies, over_budget, print_pages, print_pdf, rasterise
from cardgen.core import units
from cardgen.core.problems import Problem
from cardgen.core.project import Project
from cardgen.core.write import remove_abandoned, write_atomic

# The print-on-demand bleed: 1/8 in on every side.
DEFAULT_BLEED = units.inches(0.125)
# The files an export writes into export/<lang>/; other files there are the user's own.
_PNG_NAME = re.compile(r"^\d{3,}-[a-z0-9-]+-(front|back)\.png$")


@dataclass(frozen=True)
class ExportOptions:
    langs: tuple[str, ...] = ()
    out: Path = Path("output")
    bleed: float = DEFAULT_BLEED  # mm on every side
    dpi: int = 300
    png: bool = True
    pdf: bool = True


def png_names(prepared: Prepared) -> list[tuple[str, str, str]]:
    """(number, front, back) of every physical copy, in printing order: 001, 001-seer-front.png..."""
    copies = prepared.deck.copies
    digits = max(3, len(str(len(copies))))
    numbers = [f"{n:0{digits}d}" for n in range(1, len(copies) + 1)]
    return [
        (number, f"{number}-{card.id}-front.png", f"{number}-{card.id}-back.png")
        for number, card in zip(numbers, copies)
    ]


def cards_csv(prepared: Prepared, names: list[tuple[str, str, str]]) -> bytes:
    """One row per distinct card: its first copy's number and files, and how many copies to print."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["number", "card", "copies", "front", "back"])
    cards = {card.id: card for card in prepared.deck.cards}
    for card_id, item in first_copies(prepared).items():
        writer.writerow([names[item][0], card_id, cards[card_id].count, *names[item][1:]])
    return buffer.getvalue().encode("utf-8")


def print_pdf_path(options: ExportOptions, game: str, lang: str) -> Path:
    return options.out / game / f"{game}-print-{lang}.pdf"


def png_folder(options: ExportOptions, game: str, lang: str) -> Path:
    return options.out / game / "export" / lang


def export(project: Project, game: str, options: ExportOptions) -> ExportReport:
    """Every language's files written; problems of any language raised together at the end,
    after the good languages are written, as ``build`` does."""
    # Print services cut some sizes a hair differently (poker at 2.5 × 3.5 in): card-sizes.yaml says.
    sizes = card_sizes(project)
    decks = GameLanguages(
        project,
        game,
        options.langs,
        options.out,
        card_size=lambda game_data: sizes.get(game_data.get("card-size", "poker"), {}).get("print-service"),
    )
    sheet = project.template_data("sheet.yaml")
    for prepared in decks:
        lang, report = prepared.deck.key, decks.report
        why = over_budget(prepared, options.bleed, options.dpi) if options.png else None
        if why:
            problem = Problem(None, f"--dpi {options.dpi}: {why}")
            decks.problems += [problem] if problem not in decks.problems else []  # once, not once per language
            continue
        pages = print_pages(prepared, options.bleed)
        pdf = print_pdf(prepared, pages, sheet)
        if options.pdf:
            target = print_pdf_path(options, decks.files.id, lang)
            write_atomic(target, pdf)
            report.files.append(target)
        if options.png:
            report.files += _write_pngs(prepared, pages, pdf, png_folder(options, decks.files.id, lang), options.dpi)
        report.cards += len(prepared.deck.copies)
    return decks.finish()


def _write_pngs(prepared: Prepared, pages: list[Page], pdf: bytes, folder: Path, dpi: int) -> list[Path]:
    """Every copy's front and back PNG and cards.csv in folder; returns the files written."""
    names = png_names(prepared)
    # Copies of one card are the same pictures: each card is rasterised once, from its first copy.
    first = first_copies(prepared)
    pngs = rasterise(pdf, pages, sorted(2 * item + side for item in first.values() for side in (0, 1)), dpi)
    if folder.is_dir():
        remove_abandoned(folder)
    written = []
    for item, card in enumerate(prepared.deck.copies):
        for side, name in enumerate(names[item][1:]):
            write_atomic(folder / name, pngs[2 * first[card.id] + side])
            written.append(folder / name)
    # A folder is uploaded whole: cards an earlier export had and this deck no longer has must go.
    keep = {path.name for path in written}
    for stale in folder.iterdir():
        if _PNG_NAME.match(stale.name) and stale.name not in keep:
            stale.unlink()
    write_atomic(folder / "cards.csv", cards_csv(prepared, names))
    return [*written, folder / "cards.csv"]
