"""Stages 1-2 for a build: game names and options in, the loaded and validated games and their
warnings out, or one DeckError with every problem found."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.build.options import BuildOptions
from cardgen.core import contained
from cardgen.core.problems import DeckError, Problem, Where, did_you_mean
from cardgen.core.project import BUILTIN, Project

# The stages come in when a build needs them: a build with nothing to do, `list` and --help load none.
if TYPE_CHECKING:
    from cardgen.deck.load import GameFiles


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
        raise DeckError(
            [
                Problem(
                    Where(project.display(project.decks)),
                    f"no game '{name}'{did_you_mean(name, games)}; games here: {', '.join(games) or 'none'}",
                )
            ]
        )
    return project.decks / name


def check(project: Project, names: Iterable[str], strict: bool) -> tuple[list[GameFiles], list[Problem]]:
    """Stages 1-2 for every game; raises DeckError once with all problems, returns the warnings.

    A game folder in decks/ that is a symbolic link leading out of it is refused, like any file that
    leaves its folder."""
    from cardgen.deck.load import include_strays, load_game
    from cardgen.deck.schema import ID_MAX, ID_PATTERN
    from cardgen.deck.schema_check import too_long
    from cardgen.deck.validate import validate_game

    names = list(names)
    # Files of a few folders, read one after another: each folder's real path is found once.
    with contained.reading():
        games, problems = [], []
        folders = [game_folder(project, n) for n in names] if names else [project.decks / g for g in project.games()]
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
                problems.append(
                    Problem(
                        Where(project.display(folder)),
                        f"'{folder.name}' cannot be a game's id, which is its folder's name: rename "
                        "the folder in kebab-case English (a-z, 0-9 and -), like my-game",
                    )
                )
                continue
            if len(folder.name) > ID_MAX:
                problems.append(
                    Problem(Where(project.display(folder)), f"{too_long(folder.name)}: shorten the folder's name")
                )
                continue
            # A game outside the project is named relative to the folder that holds it; a bundled one as it ships.
            root = max(
                (r for r in (project.root, BUILTIN) if folder.is_relative_to(r)),
                key=lambda r: len(r.parts),
                default=folder.parent,
            )
            files, found = load_game(folder, root, project.includes, named=len(names) == 1)
            found += validate_game(files, sizes)
            problems += found
            games.append(files)
        for include in project.includes:
            problems += include_strays(
                include, project.root, project.games(), [files.id for files in games], named=len(names) == 1
            )
        # In reading order, file by file, so that a designer can work down the list.
        problems.sort(key=Problem.sort_key)
    if any(p.fails(strict) for p in problems):
        raise DeckError(problems)
    return games, problems


def languages(files: GameFiles, wanted: tuple[str, ...]) -> list[str]:
    """The languages a build of the game makes (`wanted`, else all of the game's): each a language
    code, or two joined by + for bilingual cards (vi+en)."""
    from cardgen.deck.resolve import language_pair

    have = list(files.checked_game.data["languages"])
    for choice in wanted:
        pair = language_pair(choice)
        missing = [lang for lang in pair if lang not in have]
        if missing:
            raise DeckError(
                [
                    Problem(
                        files.checked_game.where(("languages",)),
                        f"game '{files.id}' has no language '{missing[0]}'; it has {', '.join(have)}",
                    )
                ]
            )
        if len(pair) > 2 or len(set(pair)) < len(pair):
            raise DeckError(
                [
                    Problem(
                        None,
                        f"--lang {choice}: bilingual cards are in two different languages, like {have[0]}+{have[-1]}",
                    )
                ]
            )
    return list(dict.fromkeys(wanted)) or have


def check_pinyin(games: list[GameFiles], options: BuildOptions) -> list[Problem]:
    """--pinyin puts pinyin over Chinese names: a build with no Chinese is an error (nothing would carry
    it); a game's languages without Chinese in a build that has some, a warning each."""
    from cardgen.deck.resolve import language_pair
    from cardgen.text.pinyin import CHINESE, has_chinese

    if not options.pinyin:
        return []
    chinese = {
        (files.id, lang): any(map(has_chinese, language_pair(lang)))
        for files in games
        for lang in languages(files, options.langs)
    }
    if not any(chinese.values()):
        built = ", ".join(dict.fromkeys(lang for _, lang in chinese))
        raise DeckError(
            [
                Problem(
                    None,
                    f"--pinyin puts pinyin over Chinese names, and this build has no Chinese "
                    f"({built}): add --lang {CHINESE} or a pair with it, like --lang {CHINESE}+en",
                )
            ]
        )
    return [
        Problem(
            files.checked_game.where(("languages",)),
            f"--pinyin: '{lang}' has no Chinese; its cards have no pinyin",
            "warning",
        )
        for files in games
        for lang in languages(files, options.langs)
        if not chinese[files.id, lang]
    ]


def check_options(project: Project, options: BuildOptions) -> None:
    """Options that name template data (a paper, a card size) must name what is there; --only-needed
    needs a table."""
    if options.only_needed and not options.tailored:
        raise DeckError(
            [
                Problem(
                    None, "--only-needed prints the cards of one table: give --players N, --setup NAME or --roles SPEC"
                )
            ]
        )
    for what, value, known in (
        ("card size", options.card_size, card_sizes(project)),
        ("paper", options.paper, project.template_data("paper.yaml")),
    ):
        if value and value not in known:
            raise DeckError(
                [
                    Problem(
                        None, f"unknown {what} '{value}'{did_you_mean(value, known)}; known {what}s: {', '.join(known)}"
                    )
                ]
            )
