"""Shell completion: a shell's name in, click's completion script for it out (`cardgen completions
bash|zsh|fish`); and the values a shell completes, from the project found from the working folder:
game ids, a game's languages and setups, and print services.

Reads the project's YAML files only (no ReportLab, no deck check), so a Tab press answers at once.
"""

from __future__ import annotations

from pathlib import Path

import click
from click.shell_completion import CompletionItem, get_completion_class

SHELLS = ("bash", "zsh", "fish")


@click.command("completions")
@click.argument("shell", type=click.Choice(SHELLS))
def completions_command(shell: str) -> None:
    """Print the completion script for SHELL. For bash: eval "$(cardgen completions bash)" in ~/.bashrc;
    zsh: the same in ~/.zshrc; fish: cardgen completions fish > ~/.config/fish/completions/cardgen.fish."""
    root = click.get_current_context().find_root()
    completion = get_completion_class(shell)
    assert completion is not None  # the choice is one of click's shells
    click.echo(completion(root.command, {}, "cardgen", "_CARDGEN_COMPLETE").source())


def _project(ctx: click.Context):
    from cardgen.core.project import Project

    decks = ctx.params.get("decks")
    return Project.at(Path(decks) if decks else None)


def _answer(values, incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(value) for value in sorted(set(values)) if value.startswith(incomplete)]


def _game_data(ctx: click.Context) -> dict:
    import yaml

    # While an option still waits for its value, click leaves the arguments before it unparsed.
    leftover = [arg for arg in ctx.args if not arg.startswith("-")]
    game = ctx.params.get("game") or next(iter(ctx.params.get("games") or leftover), None)
    if not game:
        return {}
    path = _project(ctx).decks / game / "game.yaml"
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
    return data if isinstance(data, dict) else {}


def games(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    try:
        return _answer(_project(ctx).games(), incomplete)
    except Exception:  # a completion never prints a traceback into a shell
        return []


def languages(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    try:
        found = [str(lang) for lang in _game_data(ctx).get("languages") or ()]
        if not found:
            import yaml

            project = _project(ctx)
            for game in project.games():
                data = yaml.safe_load((project.decks / game / "game.yaml").read_text(encoding="utf-8"))
                found += [str(lang) for lang in (data or {}).get("languages") or ()]
        return _answer(found, incomplete)
    except Exception:
        return []


def setups(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    try:
        return _answer([str(key) for key in _game_data(ctx).get("setups") or {}], incomplete)
    except Exception:
        return []


def services(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    try:
        project = _project(ctx)
        found = [path.stem for folder in project.templates for path in (folder / "exports").glob("*.yaml")]
        return _answer([*found, "tts"], incomplete)
    except Exception:
        return []


_BY_NAME = {"game": games, "games": games, "langs": languages, "lang": languages, "setup_id": setups}


def attach(command: click.Command) -> None:
    """Sets the completion of each parameter of `command` that takes a game, a language, a setup or a
    print service."""
    for param in command.params:
        complete = services if (command.name == "export" and param.name == "target") else _BY_NAME.get(param.name or "")
        if complete is not None and not isinstance(param.type, click.Choice):
            param._custom_shell_complete = complete  # what click's shell_complete= argument sets
