"""The site: games and languages in, a static folder a group downloads everything from out.

``<out>/site/`` holds an index of the games, and per game and language a page
with every card (front and back) to look at, every PDF and the narrator page
to download, and the printing guide in that language. Everything it needs is
inside the folder: the outputs are copied in (built first, as ``cardgen build``
builds them, so only what changed is rebuilt), the card pictures are drawn as
the preview draws them, as WebP at twice the size a page shows them (sharp on
a phone's screen), each named by a hash of its content, so that the backs many
cards share are one file (drawn again only when what the card sheets are made
from changed: PICTURES keeps, beside the build's manifest, the hash of those
inputs and the pictures' sizes and times for each game and language), and the
text is set in the bundled fonts through @font-face, so that Chinese and
Vietnamese read the same on every device: each page loads subsets of them that
hold only its own characters (cardgen/text/webfonts.py). It can be opened from disk or published as it
is (GitHub Pages, a shared folder).
The pages come from templates/site/.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.build import BuildOptions, Pipeline, build, check, languages, targets
from cardgen.core.phrases import fallback_language, in_language, language_digits
from cardgen.core.problems import DeckError, Problem, Where
from cardgen.core.project import Project
from cardgen.core.write import remove_abandoned, temporary, write_atomic

if TYPE_CHECKING:
    from cardgen.text.fonts import FontBook

SITE = "site"
# A card shows SHOWN CSS pixels high (site.css); its picture has twice as many pixels and a little more,
# for a phone's screen of two device pixels to a CSS pixel.
SHOWN = 200
PIXELS_HIGH = 2 * SHOWN + 4
# Lossy WebP at this quality: text and edges stay clean at a third of a lossless picture's bytes (measured).
WEBP_QUALITY = 80
PICTURES_FOLDER = "pictures"
# Beside the build's manifest: what each game's and language's card pictures were drawn from, and the files.
PICTURES = "cardgen-site.json"


@dataclass
class SiteReport:
    index: Path
    pages: list[Path] = field(default_factory=list)
    files: int = 0  # everything written into the site folder
    built: int = 0  # outputs the build had to make first
    drawn: int = 0  # languages whose card pictures were drawn (the others' were still right)
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0


def site_folder(out: Path) -> Path:
    return out / SITE


def page_name(lang: str) -> str:
    return f"{lang}.html"


def make_site(
    project: Project,
    names: Iterable[str],
    options: BuildOptions,
    progress: Callable[[Iterable], Iterable] = lambda jobs: jobs,
) -> SiteReport:
    from cardgen.build.kinds import CARDS
    from cardgen.build.manifest import Manifest
    from cardgen.cards.single import card_pictures

    start = time.perf_counter()
    names = list(names)
    built = build(project, names, options, progress)
    games, _ = check(project, names, options.strict)
    root = site_folder(options.out)
    # The build has just hashed every input of the card sheets: the pictures are drawn from the same ones.
    manifest, pictures_before, pictures = Manifest(options.out), _read_json(options.out / PICTURES), {}
    pipeline = Pipeline(project, options)
    text_all = project.template_data("site/text.yaml")
    strings = project.template_data("strings.yaml")
    sheet = project.template_data("sheet.yaml")
    written: set[Path] = set()

    def put(path: Path, data: bytes) -> None:
        write_atomic(path, data)
        written.add(path)

    entries, pages, problems = [], [], []
    drawn = 0
    for files in games:
        langs = languages(files, options.langs)
        game_entry: dict[str, Any] = {"id": files.id, "names": {}, "langs": langs}
        for lang in langs:
            inputs = (
                manifest.inputs(
                    CARDS.name, lang, [files.folder, *files.included], project.templates, project.fonts, options
                )
                + f" {PIXELS_HIGH} px webp {WEBP_QUALITY}"
            )
            kept = _kept(pictures_before.get(f"{files.id}/{lang}"), inputs, root)
            prepared, found = pipeline.prepare(files, lang, cards=kept is None, sheets=False)
            if prepared is None:
                problems += found
                continue
            deck = prepared.deck
            game_entry["names"][lang] = deck.name.value
            folder = root / files.id
            downloads = []
            # What the build wrote for the language (a pair, vi+en, writes no narrator page).
            for target in targets(files, lang, options):
                source = target.path
                put(folder / source.name, source.read_bytes())
                downloads.append({"kind": target.kind, "href": source.name, "bytes": source.stat().st_size})
            if kept is None:
                cards, shown = [], {}
                for card, front, back in card_pictures(prepared, sheet, _dpi(prepared)):
                    names = []
                    for png in (front, back):
                        data = _webp(png)
                        path = folder / PICTURES_FOLDER / f"{hashlib.sha256(data).hexdigest()[:16]}.webp"
                        if path not in shown:
                            shown[path] = _put_same(path, data)
                        written.add(path)
                        names.append(path.relative_to(folder).as_posix())
                    cards.append({"name": card.name.value, "count": card.count, "front": names[0], "back": names[1]})
                kept = {
                    "inputs": inputs,
                    "cards": cards,
                    "files": {path.relative_to(root).as_posix(): stat for path, stat in shown.items()},
                }
                drawn += 1
            else:
                written.update(root / name for name in kept["files"])
            pictures[f"{files.id}/{lang}"] = kept
            cards = kept["cards"]
            pages.append(
                (
                    folder / page_name(lang),
                    {
                        "lang": lang,
                        **_digits(strings, lang),
                        "dir": _direction(prepared.book, deck.lang),
                        "game": files.id,
                        "name": deck.name.value,
                        "downloads": downloads,
                        "cards": cards,
                        "families": list(prepared.book.order(lang)),
                        "text": _text(text_all, deck.lang),
                        "language": pipeline.language_name(lang),
                    },
                )
            )
        entries.append(game_entry)
    if problems:
        raise DeckError(problems)
    languages_shown = {lang: _language(strings, lang) for entry in entries for lang in entry["langs"]}
    # A link to a page in a right-to-left language says so, so that its name reads in its own direction.
    directions = {lang: _direction(pipeline.book, lang) for lang in languages_shown}
    # The side a link's gap is on: where a line ends, when a page is right to left; else the right, as
    # site.css has always said.
    end = "inline-end" if any(directions.values()) else "right"
    put(root / "site.css", _render(project, "site.css.j2", {"end": end}).encode("utf-8"))
    write_atomic(options.out / PICTURES, json.dumps(pictures, indent=1, sort_keys=True).encode("utf-8"))
    report = SiteReport(index=root / "index.html", built=len(built.files), warnings=built.warnings, drawn=drawn)
    for path, context in pages:
        others = next(e for e in entries if e["id"] == context["game"])["langs"]
        context["others"] = [
            {"lang": other, "language": languages_shown[other], "href": page_name(other), "dir": directions[other]}
            for other in others
            if other != context["lang"]
        ]
        others = [other["lang"] for other in context["others"]]
        put(path, _page(project, "page.html.j2", context, pipeline, others, "../", put, root))
        report.pages.append(path)
    first = _first_language(entries)
    context = {
        "lang": first,
        **_digits(strings, first),
        "dir": directions.get(first),
        "directions": directions,
        "text": _text(text_all, first),
        "games": entries,
        "languages": languages_shown,
        "families": list(pipeline.book.order(first)),
        "page_name": page_name,
    }
    put(report.index, _page(project, "index.html.j2", context, pipeline, list(languages_shown), "", put, root))
    _remove_others(root, written)
    report.files = len(written)
    report.seconds = time.perf_counter() - start
    return report


def _page(
    project: Project,
    template: str,
    context: dict,
    pipeline: Pipeline,
    langs: list[str],
    up: str,
    put: Callable[[Path, bytes], None],
    root: Path,
) -> bytes:
    """A page, its @font-face rules naming subsets of the bundled fonts that hold the characters it shows,
    and the style its language adds (templates/languages/).

    Its fonts are its language's families, then those the other languages it names need (the index's
    "中文" link); the page is drawn once without fonts to learn its characters."""
    from markupsafe import Markup

    from cardgen.text.webfonts import css_families, font_face_rules, page_characters, web_faces

    families = list(context["families"])
    for lang in langs:
        families += [family for family in pipeline.book.order(lang) if family not in families]
    chars = page_characters(
        _render(project, template, {**context, "font_faces": "", "fonts": "", "language_style": ""})
    )
    faces = web_faces(pipeline.book, families, chars)
    for face in faces:
        put(root / "fonts" / face.name, face.data)
    # The rules go in a <style>, where autoescape would break them; the list in an attribute, escaped.
    fonts = {
        "font_faces": Markup(font_face_rules(faces, lambda face: f"{up}fonts/{face.name}")),
        "fonts": css_families(families),
        "language_style": Markup(project.language_style(context["lang"])),
    }
    return _render(project, template, {**context, **fonts}).encode("utf-8")


def _dpi(prepared: Any) -> float:
    """The resolution at which the deck's shortest card is PIXELS_HIGH pixels high; lower where its
    largest card would then pass the pixel budget (tokens beside big cards): the small cards' pictures
    are then less than PIXELS_HIGH high."""
    from cardgen.core import limits, units

    sizes = {card.group.size for card in prepared.deck.cards}
    highest = units.dpi_for(PIXELS_HIGH, min(size.h for size in sizes))
    return min(highest, *(limits.max_dpi(size.w, size.h) for size in sizes))


def _webp(png: bytes) -> bytes:
    """A card picture as lossy WebP, PIXELS_HIGH high (a deck's taller cards are drawn at its shortest's
    resolution, then scaled down): the same picture always gives the same bytes."""
    from PIL import Image

    buffer = io.BytesIO()
    with Image.open(io.BytesIO(png)) as image:
        picture = image.convert("RGB")
        if picture.height > PIXELS_HIGH:
            width = math.ceil(picture.width * PIXELS_HIGH / picture.height)
            picture = picture.resize((width, PIXELS_HIGH), Image.Resampling.LANCZOS)
        picture.save(buffer, "WEBP", quality=WEBP_QUALITY, method=4)
    return buffer.getvalue()


def _put_same(path: Path, data: bytes) -> list[int]:
    """Writes a picture named by its content unless that file is already there (another language's, or
    the last site's): its size and time stay the same for the languages that share it. Returns its stat."""
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return _stat(path)
    except OSError:
        pass
    write_atomic(path, data)
    return _stat(path)


def _stat(path: Path) -> list[int]:
    stat = path.stat()
    return [stat.st_size, stat.st_mtime_ns]


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _kept(entry: object, inputs: str, root: Path) -> dict | None:
    """A language's card pictures from the last site, when they were drawn from the same inputs and
    every picture is still the file it wrote; else None."""
    if not isinstance(entry, dict) or entry.get("inputs") != inputs or not isinstance(entry.get("files"), dict):
        return None
    for name, known in entry["files"].items():
        try:
            if _stat(root / name) != known:
                return None
        except OSError:
            return None
    return entry


def _first_language(entries: list[dict]) -> str:
    """The index's language: English if a game has it, else the first game's first language."""
    every = [lang for entry in entries for lang in entry["langs"]]
    return fallback_language(every)


def _text(table: dict, lang: str) -> dict:
    """The site's words in a language, English where it has none; each guide step split at its bold lead."""
    text = in_language(table, lang, deep=("kinds",))
    steps = []
    for step in text.get("guide", []):
        match = re.match(r"\*\*(.+?)\*\*(.*)", step, re.S)
        steps.append({"lead": match[1], "rest": match[2]} if match else {"lead": "", "rest": step})
    text["guide"] = steps
    return text


def _direction(book: FontBook, lang: str) -> str | None:
    """A page's or a link's dir attribute: "rtl" for a language written right to left, else none."""
    return "rtl" if book.is_rtl(lang) else None


def _digits(strings: dict, lang: str) -> dict:
    """The `digits` a page's numbers are written in (strings.yaml's), for a language with its own."""
    digits = language_digits(strings, lang, "templates/strings.yaml")
    return {"digits": digits} if digits else {}


def _language(strings: dict, lang: str) -> str:
    block = strings.get(lang) if isinstance(strings, dict) else None
    return block.get("language", lang) if isinstance(block, dict) else lang


def _render(project: Project, name: str, context: dict) -> str:
    from cardgen.documents import templating

    try:
        return templating.render([folder / SITE for folder in project.templates], name, context)
    except templating.TemplateError as exc:
        raise DeckError([Problem(Where(project.display(Path(exc.file)), exc.line), exc.message)]) from None


def _remove_others(root: Path, written: set[Path]) -> None:
    """Files a previous site had that this one has not (a game or language since removed). Another
    site being made into the same folder at once may be writing its temporary files, or filling a
    folder found empty, right now: only those of a run that is gone are removed."""
    # Bottom up, and a folder that is gone or not empty by now is passed over: the other run's.
    for top, _, names in os.walk(root, topdown=False):
        folder = Path(top)
        remove_abandoned(folder)
        for name in names:
            if folder / name not in written and not temporary(folder / name):
                (folder / name).unlink(missing_ok=True)
        if folder != root:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only an empty one
