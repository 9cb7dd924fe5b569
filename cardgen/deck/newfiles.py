"""Starting files: ids, languages and a folder in, the texts of a new card, game or project out.

``cardgen new`` writes a card or a game into a project, ``cardgen init`` a whole
project: a starter game (or a copy of a bundled one), cardgen.toml, a
.gitignore, a README with the next commands, the deck files' JSON Schemas in
schemas/ (each deck file's first line points editors at its schema), and a
GitHub workflow that builds the decks and publishes their site. The texts come
from templates/new/ and templates/init/; nothing here overwrites a file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from cardgen import __version__
from cardgen.core import yaml12
from cardgen.core.bundled import folder as bundled_folder
from cardgen.core.origin import WHEEL_FOLDER, WORLD, Origin, docs_url
from cardgen.core.phrases import fallback_language
from cardgen.deck import schema
from cardgen.documents import templating

SCHEMAS = "schemas"
# Which schema each deck file follows, by its path inside the game folder.
_FILE_KINDS = {"game.yaml": "game", "rulebook.yaml": "rulebook", "script.yaml": "script"}


class Exists(Exception):
    """A file a starting set would write is there already."""


def role_text(
    template_dirs: Iterable[Path], game_id: str, card_id: str, data: dict, orders: list[int], check: str
) -> str:
    """A card file for a game whose game.yaml holds `data`; `orders`: the night orders taken."""
    return templating.render(
        [p / "new" for p in template_dirs],
        "role.yaml.j2",
        {
            "id": card_id,
            "game": game_id,
            "check": check,
            "name": card_id.replace("-", " ").title(),
            "languages": data["languages"],
            "primary": fallback_language(list(data["languages"])),
            "team": next(iter(data["teams"])),
            "teams": list(data["teams"]),
            "free_order": max(orders, default=0) + 10,
            "docs": docs_url(),
        },
        autoescape=False,
    )


def game_files(template_dirs: Iterable[Path], game_id: str, languages: list[str]) -> dict[str, str]:
    """A new game with one card, as paths inside its folder: texts. Raises what a project's own
    templates/new/ can make go wrong (TemplateError, a YAML error, a game.yaml without teams)."""
    template_dirs = list(template_dirs)
    game_text = templating.render(
        [p / "new" for p in template_dirs],
        "game.yaml.j2",
        {
            "id": game_id,
            "name": game_id.replace("-", " ").title(),
            "languages": languages,
            "primary": fallback_language(languages),
            "docs": docs_url(),
        },
        autoescape=False,
    )
    data = yaml12.safe_load(game_text)
    return {
        "game.yaml": game_text,
        "roles/villager.yaml": role_text(template_dirs, game_id, "villager", data, [], f"cardgen validate {game_id}"),
    }


def schema_line(path_in_game: str) -> str:
    """The first line of a deck file in a project made by init: where yaml-language-server (VS Code's
    YAML extension, and the editors that use it) finds the file's schema, relative to the file."""
    kind = _FILE_KINDS.get(path_in_game, "card")
    up = "../" * (path_in_game.count("/") + 2)  # out of the game folder and decks/
    return f"# yaml-language-server: $schema={up}{SCHEMAS}/{kind}.schema.json\n"


def pointed_text(path: Path, text: str, root: Path) -> str:
    """A deck file `new role` or `new game` writes at `path`, with the schema line first when the
    project at `root` has the schemas/ folder init makes (the path relative to the file, wherever it is)."""
    schemas = root / SCHEMAS
    if not schemas.is_dir() or text.startswith("# yaml-language-server:"):
        return text
    kind = _FILE_KINDS.get(path.name, "card") if path.parent.name != "roles" else "card"
    target = os.path.relpath((schemas / f"{kind}.schema.json").absolute(), path.parent.absolute())
    return f"# yaml-language-server: $schema={Path(target).as_posix()}\n" + text


def bundled_game(game_id: str) -> dict[str, bytes]:
    """A bundled game's files, as paths inside its folder: bytes."""
    source = bundled_folder("decks") / game_id
    return {
        path.relative_to(source).as_posix(): path.read_bytes()
        for path in sorted(source.rglob("*"))
        if path.is_file() and not path.name.startswith(".")
    }


def _pointed(game: dict[str, bytes]) -> dict[str, bytes]:
    """A game's files with each deck file's first line pointing at its schema."""
    return {
        inside: schema_line(inside).encode() + data
        if inside.endswith(".yaml") and (inside in _FILE_KINDS or inside.startswith("roles/"))
        else data
        for inside, data in game.items()
    }


def project_files(
    game_id: str,
    game: dict[str, bytes],
    copied_from: str | None,
    origin: Origin | None = None,
    world: Origin | None = None,
) -> dict[str, bytes]:
    """Everything init writes, as paths inside the project folder: bytes. `origin`: the cardgen the
    project's workflow installs (default: this version from the package index), with its wheel;
    `world`: the cardgen-world it installs too, where the game's languages need its fonts."""
    origin = origin or Origin(f"cardgen=={__version__}")
    init = [bundled_folder("templates") / "init"]
    kept = {
        made.requirement.removeprefix("./"): made.wheel
        for made in (origin, world)
        if made is not None and made.wheel is not None
    }
    context = {
        "game": game_id,
        "copied_from": copied_from,
        "version": __version__,
        "docs": docs_url(),
        "requirement": origin.requirement,
        "origin_note": origin.note,
        "world": world.requirement if world else None,
        "world_note": world.note if world else "",
        "world_hint": f"{WORLD}=={__version__}",
        "wheels": list(kept),
    }

    def render(name: str) -> bytes:
        return templating.render(init, name, context, autoescape=False).encode("utf-8")

    files = {f"decks/{game_id}/{inside}": data for inside, data in _pointed(game).items()}
    files.update(
        {
            f"{SCHEMAS}/{kind}.schema.json": (
                json.dumps(schema.document(kind), ensure_ascii=False, indent=2) + "\n"
            ).encode("utf-8")
            for kind in schema.KINDS
        }
    )
    files.update(
        {
            "cardgen.toml": render("cardgen.toml.j2"),
            ".gitignore": render("gitignore.j2"),
            "README.md": render("README.md.j2"),
            ".github/workflows/cards.yml": render("cards.yml.j2"),
        }
    )
    for wheel, data in kept.items():
        assert wheel.startswith(f"{WHEEL_FOLDER}/"), wheel
        files[wheel] = data
    return files


def world_languages(game: dict[str, bytes]) -> list[str]:
    """The languages of a game's files (its game.yaml's `languages:`) drawn in a family of cardgen's world
    extra (Persian, Japanese...): a project in them installs cardgen-world with cardgen."""
    from cardgen.text.fonts import FontBook

    data = yaml12.safe_load(game.get("game.yaml", b"").decode("utf-8")) or {}
    langs = data.get("languages") if isinstance(data, dict) else None
    if not isinstance(langs, list):
        return []
    # Which extra installs a family is fonts.yaml's to say, whether or not it is installed here.
    book = FontBook.load(bundled_folder("templates") / "fonts.yaml", [bundled_folder("fonts")])
    return [lang for lang in langs if isinstance(lang, str) and book.extra(lang) == "world"]


def check_free(root: Path, names: Iterable[str]) -> None:
    """Raises Exists when a file init would write is there already."""
    there = [name for name in names if os.path.lexists(root / name)]
    if there:
        raise Exists(f"{(root / there[0]).as_posix()} exists already; cardgen init never overwrites a file")


def write_all(root: Path, files: dict[str, bytes]) -> list[Path]:
    """Writes every file under root, or none: a file that is there already stops them all."""
    from cardgen.core.write import write_atomic

    check_free(root, files)
    for name, data in files.items():
        write_atomic(root / name, data)
    return [root / name for name in files]
