"""Print-service exports: a game's cards as one print service takes them, the service being data.

In: a game and its languages, checked and prepared as ``build`` does, and a service
described in ``templates/exports/<service>.yaml`` (see :class:`Service` and the files there,
each with the sources of its numbers): its card trims per cardgen size, bleed, safe zone,
resolution, page order, file layout and output format.

Out, for each language, under ``<out>/<game>/<service>/<lang>/``, the files the service's
``files`` patterns name:

* ``format: pdf-x1a``: one PDF per deck (a group of cards sharing a back), one page per card
  side in the service's ``order`` for every physical copy, each page the trim plus the
  bleed with TrimBox and BleedBox set, separated into CMYK through the service's profile with
  a PDF/X-1a output intent (:mod:`cardgen.cards.pdfx`); a colour or picture over the service's
  total ink limit is an error naming the card, its side and the colour.
* ``format: png``: one RGB PNG per distinct card face at the service's resolution, bleed
  included; one shared back per deck where its cards show the deck's back, and a CSV of
  numbers, cards, quantities and files per deck.

Text of any card side that reaches into the safe zone (closer to the cut than ``safe``) is an
error naming the card and the text, read back from the rendered page. Cards of a size the
service does not list (round tokens, say) are left out with a warning naming the group.
A language with an error writes nothing; every file is written atomically, and files an
earlier export left in the language's folder that this one did not write are removed.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from cardgen.build import Prepared
from cardgen.build.game_decks import ExportReport, GameLanguages
from cardgen.cards.layout import Page
from cardgen.cards.single import print_pages, print_pdf, rasterise
from cardgen.core import limits, units
from cardgen.core.problems import DeckError, Problem, Where
from cardgen.core.project import BUILTIN, Project
from cardgen.core.write import remove_stale, write_atomic
from cardgen.deck.model import Card, Group
from cardgen.deck.yaml_doc import Doc, load_file

FORMATS = ("pdf-x1a", "png")
SIDES = ("front", "back")
_FIELDS = {"game", "group", "lang", "number", "card"}


@dataclass(frozen=True)
class Trim:
    width: float  # mm
    height: float


@dataclass(frozen=True)
class Service:
    id: str
    name: str
    file: str  # as problems name it
    format: str
    bleed: float  # mm
    safe: float  # mm inside the trim that text must keep out of
    dpi: int
    sizes: dict[str, Trim]  # cardgen size name -> the service's trim
    files: dict[str, str]  # role -> file name pattern
    order: tuple[str, ...] = SIDES  # the sides of every copy, in page order (pdf-x1a)
    ink_limit: float | None = None  # per cent (pdf-x1a)
    profile: Path | None = None
    condition: dict | None = None

    def card_sizes(self) -> dict[str, dict]:
        """The service's trims as card-sizes.yaml entries, replacing cardgen's of the same names."""
        return {name: {"width": size.width, "height": size.height} for name, size in self.sizes.items()}


def service_ids(project: Project) -> list[str]:
    """Every service a data file describes, in the project's templates or cardgen's."""
    return sorted({path.stem for folder in project.templates for path in (folder / "exports").glob("*.yaml")})


def load_service(project: Project, service_id: str) -> Service:
    """The service's data file read and checked; DeckError with every problem as file:line."""
    known = service_ids(project)
    if service_id not in known:
        raise DeckError(
            [
                Problem(
                    None,
                    f"no print service '{service_id}'; known: {', '.join(known)} "
                    "(each is a file in templates/exports/)",
                )
            ]
        )
    path = project.template(f"exports/{service_id}.yaml")
    doc, problems = load_file(path, _display(project, path))
    if doc is None or problems:
        raise DeckError(problems)
    reader = _Reader(doc)
    data = doc.data if isinstance(doc.data, dict) else {}
    if not isinstance(doc.data, dict):
        reader.problem((), "expected a mapping of settings")
    fmt = reader.choice("format", FORMATS)
    sizes = {}
    for name in reader.mapping("sizes"):
        entry = ("sizes", name)
        sizes[str(name)] = Trim(
            reader.length((*entry, "width"), limits.CARD), reader.length((*entry, "height"), limits.CARD)
        )
    files = {str(role): reader.pattern(("files", role)) for role in reader.mapping("files")}
    needed = ("deck",) if fmt == "pdf-x1a" else ("front", "back", "shared-back", "list")
    for role in needed:
        if role not in files:
            reader.problem(("files",), f"files: needs '{role}' for format {fmt}")
    service = dict(
        id=service_id,
        name=reader.text(("name",)),
        file=doc.file,
        format=fmt,
        bleed=reader.length(("bleed",), limits.BLEED),
        safe=reader.length(("safe",), limits.SAFE),
        dpi=reader.number(("dpi",), 72, 1200),
        sizes=sizes,
        files=files,
    )
    if fmt == "png":
        for name, trim in sizes.items():
            why = limits.over_budget(
                trim.width + 2 * service["bleed"], trim.height + 2 * service["bleed"], service["dpi"]
            )
            if why:
                reader.problem(("dpi",), f"dpi: the '{name}' cards with their bleed, {why}")
    if fmt == "pdf-x1a":
        order = tuple(data.get("order") or ())
        if sorted(order) != sorted(SIDES):
            reader.problem(("order",), "order: expected [front, back] or [back, front]")
        profile = project.template(f"exports/{reader.text(('profile',))}") if "profile" in data else None
        if profile is None:
            reader.problem((), "profile: a CMYK ICC profile is needed for pdf-x1a")
        condition = {key: reader.text(("output-condition", key)) for key in ("identifier", "info", "registry")}
        service.update(
            order=order, ink_limit=reader.number(("ink-limit",), 100, 400), profile=profile, condition=condition
        )
    if reader.problems:
        raise DeckError(reader.problems)
    return Service(**service)


def _display(project: Project, path: Path) -> str:
    """A data file as problems name it: relative to the project, or to cardgen for its own."""
    shown = project.display(path)
    if Path(shown).is_absolute() and path.resolve().is_relative_to(BUILTIN):
        return path.resolve().relative_to(BUILTIN).as_posix()
    return shown


class _Reader:
    """Typed values of a service file, every mistake kept as a problem at its line."""

    def __init__(self, doc: Doc):
        self.doc = doc
        self.problems: list[Problem] = []

    def problem(self, path: tuple, message: str) -> None:
        self.problems.append(Problem(self.doc.where(path), message))

    def value(self, path: tuple):
        try:
            return self.doc.get(path)
        except (KeyError, TypeError, IndexError):
            self.problem(path[:-1], f"{'.'.join(map(str, path))}: missing")
            return None

    def text(self, path: tuple) -> str:
        value = self.value(path)
        if value is not None and not isinstance(value, str):
            self.problem(path, f"{'.'.join(map(str, path))}: expected text, got {value!r}")
        return str(value) if value is not None else ""

    def choice(self, key: str, choices: tuple[str, ...]) -> str:
        value = self.text((key,))
        if value and value not in choices:
            self.problem((key,), f"{key}: expected one of {', '.join(choices)}, got {value!r}")
        return value

    def length(self, path: tuple, bound: limits.Bound) -> float:
        value = self.value(path)
        try:
            mm = units.length(value)
        except ValueError as exc:
            if value is not None:
                self.problem(path, f"{'.'.join(map(str, path))}: {exc}")
            return bound.low
        if not bound.holds(mm):
            self.problem(
                path,
                f"{'.'.join(map(str, path))}: expected a length from {bound.low:g} to {bound.high:g} mm, got {value!r}",
            )
            return bound.low
        return mm

    def number(self, path: tuple, low: float, high: float):
        value = self.value(path)
        if value is None:
            return low
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            self.problem(path, f"{'.'.join(map(str, path))}: expected a number from {low:g} to {high:g}, got {value!r}")
            return low
        return value

    def mapping(self, key: str) -> list:
        value = self.value((key,))
        if not isinstance(value, dict) or not value:
            if value is not None:
                self.problem((key,), f"{key}: expected a mapping")
            return []
        return list(value)

    def pattern(self, path: tuple) -> str:
        pattern = self.text(path)
        try:
            pattern.format(**{name: "x" for name in _FIELDS})
        except (KeyError, IndexError, ValueError) as exc:
            self.problem(
                path,
                f"{'.'.join(map(str, path))}: {pattern!r} may only use "
                f"{', '.join('{' + f + '}' for f in sorted(_FIELDS))} ({exc})",
            )
        if ".." in Path(pattern).parts or Path(pattern).is_absolute():
            self.problem(path, f"{'.'.join(map(str, path))}: must stay inside the export folder")
        return pattern


# --- one deck of one language ---------------------------------------------------------------


@dataclass
class _Side:
    """A page of the export's PDF: which copy (index into deck.copies) and which side of it."""

    item: int
    side: str


def _where(card: Card, side: str) -> Where:
    return card.group.back.title.where if side == "back" and not card.back_face else card.name.where


def _label(card: Card, side: str, lang: str) -> str:
    if side == "back" and not card.back_face:
        return f"the back of '{card.group.id}' ({lang})"
    return f"{card.id} ({side}, {lang})"


def service_groups(prepared: Prepared, service: Service) -> tuple[list[Group], list[Group]]:
    """The deck's groups the service prints, and those it does not (a size it does not list)."""
    printed: list[Group] = []
    left: list[Group] = []
    for group in prepared.deck.groups:
        if not any(card.group.id == group.id for card in prepared.deck.copies):
            continue
        fits = group.size_name in service.sizes and group.shape == "rect"
        (printed if fits else left).append(group)
    return printed, left


def _sides(prepared: Prepared, group: Group, service: Service) -> list[_Side]:
    copies = prepared.deck.copies
    items = [item for item, card in enumerate(copies) if card.group.id == group.id]
    if service.format == "pdf-x1a":
        return [_Side(item, side) for item in items for side in service.order]
    first: dict[str, int] = {}
    for item in items:
        first.setdefault(copies[item].id, item)
    return [_Side(item, side) for item in first.values() for side in SIDES]


def _pages(prepared: Prepared, sides: list[_Side], bleed: float) -> list[Page]:
    pages = print_pages(prepared, bleed)  # front, back of every copy
    return [pages[2 * side.item + SIDES.index(side.side)] for side in sides]


def safe_zone_problems(
    pdf: bytes, pages: list[Page], sides: list[_Side], prepared: Prepared, service: Service
) -> list[Problem]:
    """Every card side whose text, as drawn, comes closer to the cut than the service's safe zone."""
    import pypdfium2

    problems = []
    document = pypdfium2.PdfDocument(pdf)
    try:
        for number, (page, side) in enumerate(zip(pages, sides)):
            slot = page.slots[0]
            safe = slot.trim.inset(service.safe)
            text = document[number].get_textpage()
            count = text.count_chars()
            chars = text.get_text_range(0, count) if count else ""
            first, closest = None, None
            for index, char in enumerate(chars[:count]):
                if not char.strip():
                    continue
                left, bottom, right, top = (units.mm(v) for v in text.get_charbox(index, loose=False))
                outside = max(safe.x - left, safe.y - bottom, right - safe.right, top - safe.top)
                if outside > 1e-6:
                    first = index if first is None else first
                    closest = min(service.safe - outside, closest if closest is not None else service.safe)
            text.close()
            if first is not None:
                # The word the first glyph in the safe zone belongs to.
                start, end = first, first
                while start > 0 and chars[start - 1].strip():
                    start -= 1
                while end < len(chars) and chars[end].strip():
                    end += 1
                near = chars[start:end]
                card = prepared.deck.copies[side.item]
                problems.append(
                    Problem(
                        _where(card, side.side),
                        (
                            f"{_label(card, side.side, prepared.deck.lang)}: the text '{near}' comes "
                            f"{closest:.1f} mm from the cut, inside {service.name}'s {service.safe:g} mm safe zone; "
                            "shorten it or give it more room"
                        ),
                    )
                )
    finally:
        document.close()
    return list(dict.fromkeys(problems))


def _ink_problems(over, sides: list[_Side], prepared: Prepared, service: Service) -> list[Problem]:
    problems = []
    for ink in over:
        card = prepared.deck.copies[sides[ink.page].item]
        side = sides[ink.page].side
        problems.append(
            Problem(
                _where(card, side),
                (
                    f"{_label(card, side, prepared.deck.lang)}: {ink.describe()}, more than {service.name}'s limit "
                    f"of {service.ink_limit:g} %; use a lighter colour"
                ),
            )
        )
    return list(dict.fromkeys(problems))


def _name(pattern: str, **fields) -> str:
    return pattern.format(**fields)


def _deck_files(
    prepared: Prepared, sheet: dict, group: Group, service: Service
) -> tuple[dict[str, bytes], list[Problem]]:
    """One deck's files (name relative to the language folder -> bytes), or its problems."""
    from cardgen.cards import pdfx

    sides = _sides(prepared, group, service)
    pages = _pages(prepared, sides, service.bleed)
    pdf = print_pdf(prepared, pages, sheet)
    problems = safe_zone_problems(pdf, pages, sides, prepared, service)
    fields = dict(game=prepared.deck.game, group=group.id, lang=prepared.deck.key)
    if service.format == "pdf-x1a":
        profile, condition, ink_limit = service.profile, service.condition, service.ink_limit
        if profile is None or condition is None or ink_limit is None:
            raise ValueError(
                f"{service.file}: load_service lets no pdf-x1a service without its profile, "
                "output condition and ink limit through"
            )
        try:
            separated, over = pdfx.convert(pdf, profile, pdfx.OutputCondition(**condition), ink_limit)
        except pdfx.PdfXError as exc:
            return {}, [Problem(group.name.where, f"{group.id} ({prepared.deck.lang}): {exc}")]
        problems += _ink_problems(over, sides, prepared, service)
        return {_name(service.files["deck"], number="", card="", **fields): separated}, problems
    return _png_files(prepared, pdf, pages, sides, group, service, fields), problems


def _png_files(
    prepared: Prepared, pdf: bytes, pages: list[Page], sides: list[_Side], group: Group, service: Service, fields: dict
) -> dict[str, bytes]:
    copies = prepared.deck.copies
    pngs = rasterise(pdf, pages, list(range(len(pages))), service.dpi)
    digits = max(3, len(str(len(sides) // 2)))
    out: dict[str, bytes] = {}
    shared = _name(service.files["shared-back"], number="", card="", **fields)
    rows = [["number", "card", "quantity", "front", "back"]]
    for index in range(0, len(sides), 2):
        card = copies[sides[index].item]
        number = f"{index // 2 + 1:0{digits}d}"
        front = _name(service.files["front"], number=number, card=card.id, **fields)
        out[front] = pngs[index]
        if card.back_face:
            back = _name(service.files["back"], number=number, card=card.id, **fields)
            out[back] = pngs[index + 1]
        else:
            back = shared
            out[shared] = pngs[index + 1]
        rows.append([number, card.id, str(card.count), front, back])
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    out[_name(service.files["list"], number="", card="", **fields)] = buffer.getvalue().encode("utf-8")
    return out


def export_for(project: Project, game: str, service_id: str, langs: tuple[str, ...], out: Path) -> ExportReport:
    """Every language's files for the service; problems of any language raised together at the end."""
    service = load_service(project, service_id)
    decks = GameLanguages(project, game, langs, out, sizes=service.card_sizes())
    sheet = project.template_data("sheet.yaml")
    report = decks.report
    for prepared in decks:
        printed, left = service_groups(prepared, service)
        for group in left:
            warning = Problem(
                group.name.where,
                (
                    f"{service.name} prints no '{group.size_name}' cards: the "
                    f"{sum(1 for c in prepared.deck.copies if c.group.id == group.id)} '{group.id}' cards are left out "
                    f"(sizes in {service.file}: {', '.join(service.sizes)})"
                ),
                "warning",
            )
            if warning not in report.warnings:
                report.warnings.append(warning)
        written: dict[str, bytes] = {}
        found = []
        for group in printed:
            deck_files, deck_problems = _deck_files(prepared, sheet, group, service)
            written.update(deck_files)
            found += deck_problems
        if found:
            decks.problems += found
            continue
        folder = out / decks.files.id / service.id / prepared.deck.key
        for name, data in sorted(written.items()):
            write_atomic(folder / name, data)
            report.files.append(folder / name)
        remove_stale(folder, {folder / name for name in written})
        report.cards += sum(1 for card in prepared.deck.copies if any(card.group.id == g.id for g in printed))
    return decks.finish()
