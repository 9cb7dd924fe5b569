"""Previews: games in, pictures out: a PNG contact sheet per deck and language, and a static
HTML gallery of every card, front and back, filtered by game, language and team.

The cards are drawn as for a print shop (cardgen.outputs.export), without bleed, and
rasterised small; the gallery comes from templates/preview/gallery.html.j2.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from cardgen.build import BuildOptions, Pipeline, check, languages
from cardgen.cards.single import card_pictures
from cardgen.core import limits
from cardgen.core.problems import DeckError, Problem, Where
from cardgen.core.project import Project
from cardgen.core.write import write_atomic

COLUMNS = 8
GAP = 12  # px between cards on a contact sheet


@dataclass
class PreviewReport:
    files: list[Path] = field(default_factory=list)
    cards: int = 0


def _contact_sheet(pictures: list[bytes]) -> bytes:
    """The pictures in rows of COLUMNS; for a large deck at a high --dpi, each smaller, so that the sheet
    stays within the pixel budget."""
    import io

    images: list[Image.Image] = [Image.open(io.BytesIO(png)) for png in pictures]
    rows = -(-len(images) // COLUMNS)
    columns = min(COLUMNS, len(images))
    scale = 1.0
    while True:
        width = max(round(i.width * scale) for i in images)
        height = max(round(i.height * scale) for i in images)
        size = (columns * (width + GAP) + GAP, rows * (height + GAP) + GAP)
        if size[0] * size[1] <= limits.MAX_PIXELS:
            break
        scale *= 0.9 * math.sqrt(limits.MAX_PIXELS / (size[0] * size[1]))
    if scale < 1:
        images = [i.resize((max(1, round(i.width * scale)), max(1, round(i.height * scale)))) for i in images]
    sheet = Image.new("RGB", size, (244, 241, 234))
    for index, image in enumerate(images):
        row, column = divmod(index, COLUMNS)
        sheet.paste(image, (GAP + column * (width + GAP), GAP + row * (height + GAP)))
    buffer = io.BytesIO()
    sheet.save(buffer, "PNG", optimize=False)
    return buffer.getvalue()


def preview(project: Project, names: Iterable[str], langs: tuple[str, ...], out: Path, dpi: int) -> PreviewReport:
    from cardgen.documents import templating

    games, _ = check(project, names, strict=False)
    pipeline = Pipeline(project, BuildOptions(langs=langs, out=out))
    sheet = project.template_data("sheet.yaml")
    report, cards, problems = PreviewReport(), [], []
    teams: dict[str, str] = {}
    game_names: dict[str, dict[str, str]] = {}  # game -> language -> the game's name in it
    for files in games:
        for lang in languages(files, langs):
            prepared, found = pipeline.prepare(files, lang)
            if prepared is None:
                problems += found
                continue
            pictures = card_pictures(prepared, sheet, dpi)
            folder = out / "preview" / files.id / lang
            game_names.setdefault(files.id, {})[lang] = prepared.deck.name.value
            for card, front, back in pictures:
                for side, png in (("front", front), ("back", back)):
                    write_atomic(folder / f"{card.id}-{side}.png", png)
                team = card.team.id if card.team else card.group.id
                teams.setdefault(team, (card.team.name.value if card.team else card.group.name.value))
                cards.append(
                    {
                        "game": files.id,
                        "game_name": prepared.deck.name.value,
                        "lang": lang,
                        "team": team,
                        "name": card.name.value,
                        "front": f"{files.id}/{lang}/{card.id}-front.png",
                        "back": f"{files.id}/{lang}/{card.id}-back.png",
                    }
                )
            contact = out / files.id / f"{files.id}-contact-{lang}.png"
            write_atomic(contact, _contact_sheet([front for _, front, _ in pictures]))
            report.files.append(contact)
            report.cards += len(prepared.deck.cards)
    if problems:
        raise DeckError(problems)
    # One entry per game, named in the language the gallery shows (first: the game's first language).
    games_shown = [
        {"value": game, "text": next(iter(by_lang.values())), "names": by_lang}
        for game, by_lang in sorted(game_names.items())
    ]
    filters = [
        {"key": "game", "label": "Game", "options": games_shown},
        {
            "key": "lang",
            "label": "Language",
            "options": [{"value": lang, "text": lang} for lang in sorted({c["lang"] for c in cards})],
        },
        {"key": "team", "label": "Team", "options": [{"value": k, "text": v} for k, v in sorted(teams.items())]},
    ]
    try:
        page = templating.render(
            [folder / "preview" for folder in project.templates],
            "gallery.html.j2",
            {"cards": cards, "filters": filters},
        )
    except templating.TemplateError as exc:
        raise DeckError([Problem(Where(project.display(Path(exc.file)), exc.line), exc.message)]) from None
    index = out / "preview" / "index.html"
    write_atomic(index, page.encode("utf-8"))
    report.files.insert(0, index)
    return report
