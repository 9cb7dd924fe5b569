"""`cardgen new`, `init` and `schema`: ids and languages in; commented starting files for a card, a game
or a whole project (never overwriting a file), or a deck file's JSON Schema, out."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from cardgen.cli import common
from cardgen.cli.common import DeckProblems
from cardgen.cli.options import decks_option
from cardgen.core.problems import DeckError, count, did_you_mean
from cardgen.core.project import Project


@click.command("schema")
@click.argument("kind", type=click.Choice(["card", "game", "rulebook", "script"]), default="card")
def schema_command(kind) -> None:
    """The JSON Schema of a deck file, for editors (default: a card file)."""
    from cardgen.deck import schema

    click.echo(json.dumps(schema.document(kind), ensure_ascii=False, indent=2))


@click.group("new")
def new_group() -> None:
    """Write commented starting files for a new card or game."""


def _check_id(value: str, like: str) -> None:
    """Refuses an id that no deck could use: one that is no kebab-case English, or too long for file names."""
    import re

    from cardgen.deck.schema import ID_MAX, ID_PATTERN
    from cardgen.deck.schema_check import too_long

    if not re.match(ID_PATTERN, value):
        raise click.ClickException(f"'{value}' is not a valid id: kebab-case English, like {like}")
    if len(value) > ID_MAX:
        raise click.ClickException(too_long(value))


def _write_new(path: Path, text: str) -> None:
    if path.exists():
        raise click.ClickException(f"{path} exists already; cardgen new never overwrites a file")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    click.echo(f"wrote {os.path.relpath(path)}")


@new_group.command("role")
@click.argument("game")
@click.argument("card_id", metavar="ID")
@click.option(
    "--into",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write it in this folder of your own (as <game>/roles/ID.yaml, for --include).",
)
@decks_option
def new_role_command(game, card_id, into, decks, includes) -> None:
    """A new card file ID for GAME that validates and builds as it is."""
    from cardgen.build import check
    from cardgen.deck import newfiles
    from cardgen.documents import templating

    _check_id(card_id, "little-girl")
    project = common.project(decks, includes)
    try:
        (files,), _ = check(project, [game], strict=False)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    if project.bundled and not into and files.folder.is_relative_to(project.decks):
        raise click.ClickException(
            f"'{files.id}' is one of cardgen's own games, which it does not change: give "
            f"--into DIR for a folder of your own cards, or copy the game into a project "
            f"with: cardgen init --from {files.id}"
        )
    orders = [doc.data.get("night", {}).get("order", 0) for doc in files.cards.values()]
    folder = (into / files.id) if into else files.folder
    command = f"cardgen validate {files.id}" + (f" --include {into}" if into else "")
    try:
        text = newfiles.role_text(project.templates, files.id, card_id, files.checked_game.data, orders, command)
    except templating.TemplateError as exc:
        raise click.ClickException(f"the project's templates/new/ cannot make a card: {exc}") from None
    path = folder / "roles" / f"{card_id}.yaml"
    _write_new(path, text if project.bundled else newfiles.pointed_text(path, text, project.root))


@new_group.command("game")
@click.argument("game_id", metavar="ID")
@click.option("--lang", "langs", multiple=True, help="Its languages (default: en); repeatable.")
@decks_option
def new_game_command(game_id, langs, decks, includes) -> None:
    """A new game folder ID under decks/, with one card, that validates and builds as it is."""
    import yaml

    from cardgen.deck import newfiles
    from cardgen.documents import templating

    _check_id(game_id, "my-game")
    _check_languages(langs)
    project = common.project(decks, includes)
    # Outside any project the new game starts one here: cardgen's own decks are not written to.
    folder = (Path("decks") if project.bundled else project.decks) / game_id
    languages = list(dict.fromkeys(langs)) or ["en"]
    try:
        texts = newfiles.game_files(project.templates, game_id, languages)
    except (templating.TemplateError, yaml.YAMLError, KeyError, TypeError, AttributeError, StopIteration) as exc:
        raise click.ClickException(f"the project's templates/new/ cannot make a game: {exc}") from None
    for inside, text in texts.items():
        path = folder / inside
        _write_new(path, text if project.bundled else newfiles.pointed_text(path, text, project.root))


def _check_languages(langs) -> None:
    import re

    from cardgen.deck.schema import LANG_PATTERN

    for lang in langs:
        if not re.match(LANG_PATTERN, lang):
            raise click.BadParameter(
                f"'{lang}' is not a language code: two or three lower-case letters, "
                "optionally with a region or script, like en, no, pt-BR or zh-Hant",
                param_hint="'--lang'",
            )


@click.command("init")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path), default=Path("."))
@click.option(
    "--from",
    "from_game",
    metavar="GAME",
    help="Start from a copy of a bundled game to change (werewolf, salem-1692, ...) instead of a starter game.",
)
@click.option(
    "--game", "game_id", default="my-game", show_default=True, help="The starter game's id: its folder's name."
)
@click.option("--lang", "langs", multiple=True, help="The starter game's languages (default: en); repeatable.")
@click.option(
    "--requirement",
    metavar="SPEC",
    help="The cardgen the project's workflow installs, as pip names it (default: where this cardgen came "
    "from: its version on the package index, its git URL, or a wheel of it kept in .cardgen/).",
)
def init_command(directory, from_game, game_id, langs, requirement) -> None:
    """A new project in DIRECTORY (default: here), as mkdocs new makes one: a game in decks/, cardgen.toml,
    a .gitignore, a README with the next commands, the deck files' JSON Schemas for editors and a GitHub
    workflow that builds the decks and publishes their site. Never overwrites a file."""
    import shlex

    import yaml

    from cardgen.core.bundled import folder as bundled_folder
    from cardgen.deck import newfiles
    from cardgen.documents import templating

    if from_game is not None:
        given = [name for name, value in (("--game", game_id != "my-game"), ("--lang", langs)) if value]
        if given:
            raise click.UsageError(
                f"{' and '.join(given)} shape the starter game; --from copies a bundled game as it is"
            )
        bundled_games = Project.at(bundled_folder("decks")).games()
        if from_game not in bundled_games:
            raise click.ClickException(
                f"no bundled game '{from_game}'{did_you_mean(from_game, bundled_games)}; "
                f"bundled games: {', '.join(bundled_games)}"
            )
        game_id, game = from_game, newfiles.bundled_game(from_game)
    else:
        _check_id(game_id, "my-game")
        _check_languages(langs)
        try:
            game = {
                inside: text.encode("utf-8")
                for inside, text in newfiles.game_files(
                    [bundled_folder("templates")], game_id, list(dict.fromkeys(langs)) or ["en"]
                ).items()
            }
        except (templating.TemplateError, yaml.YAMLError) as exc:
            raise click.ClickException(f"cardgen's templates/new/ cannot make a game: {exc}") from None
    from cardgen import __version__
    from cardgen.core.origin import WORLD, Origin, clone, origin

    try:  # before a wheel is made: a file in the way stops init at once
        newfiles.check_free(directory, newfiles.project_files(game_id, game, from_game))
    except newfiles.Exists as exc:
        raise click.ClickException(str(exc)) from None
    source = None if requirement else clone()
    if source is not None:
        click.echo(f"making a wheel of the cardgen in {source} for the project's workflow", err=True)
    made = Origin(requirement) if requirement else origin()
    if made.note:
        click.echo(f"warning: {made.note}", err=True)
    world = None
    needing = newfiles.world_languages(game)
    if needing:
        # The fonts the game's languages need go with the cardgen: the same version, from the same place.
        world_source = None if requirement else clone(WORLD)
        if world_source is not None:
            click.echo(f"making a wheel of the fonts in {world_source} for the project's workflow", err=True)
        world = (
            Origin(
                f"{WORLD}=={__version__}",
                note=f"the game's languages ({', '.join(needing)}) need {WORLD}: check that [cardgen] world in "
                "cardgen.toml names the one that goes with [cardgen] requirement",
            )
            if requirement
            else origin(WORLD)
        )
        if world.note:
            click.echo(f"warning: {world.note}", err=True)
    try:
        written = newfiles.write_all(directory, newfiles.project_files(game_id, game, from_game, made, world))
    except newfiles.Exists as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write in {directory}: {exc.strerror or exc}") from None
    click.echo(f"made a project in {directory.as_posix()}: {count(len(written), 'file')}, the game decks/{game_id}")
    click.echo("next:")
    if directory != Path("."):
        click.echo(f"  cd {shlex.quote(directory.as_posix())}")
    for line in (
        f"cardgen validate           # check {game_id}'s files",
        "cardgen build              # its PDFs, into output/",
        "cardgen site               # output/site/: a page per game and language to share",
        "(README.md says how GitHub builds and publishes them on every push)",
    ):
        click.echo(f"  {line}")
