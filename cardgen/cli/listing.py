"""`cardgen list` and `cardgen setup`: a project (and a game) in; its games, languages and components, a
game's setups, or the cards to deal to a table out, as text or JSON.

`list` stays quick: its answer is kept in the user's cache while no file of the project changes.
"""

from __future__ import annotations

import json

import click

from cardgen.cli import common
from cardgen.cli.common import DeckProblems, warn
from cardgen.cli.options import decks_option, table_options
from cardgen.core.problems import DeckError
from cardgen.core.project import Project


@click.command("list")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@decks_option
def list_command(game, as_json, decks, includes) -> None:
    """The games, their languages and their components with counts."""
    from cardgen.core.cache import remembered

    project = common.project(decks, includes)
    try:
        if project.by_id([game] if game else []):
            # A listing reads nothing but the project's files: while none of them changes, it stands.
            listing = remembered(
                "list",
                (game, project.decks, project.templates, project.fonts, project.includes),
                project.folders(),
                lambda: _listing(project, game),
            )
        else:
            listing = _listing(project, game)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    if as_json:
        click.echo(json.dumps({"games": listing["games"]}, ensure_ascii=False, indent=2))
        return
    # One width for every game's columns, from the longest group and id (at least the old 8 and 16).
    components = [c for entry in listing["games"] for c in entry["components"]]
    group_width = max([8, *(len(c["group"]) for c in components)])
    id_width = max([16, *(len(c["id"]) for c in components)])
    for entry, name in zip(listing["games"], listing["names"]):
        total = sum(c["count"] for c in entry["components"])
        click.echo(f"{entry['id']}: {name} [{', '.join(entry['languages'])}], {total} cards")
        for component in entry["components"]:
            click.echo(f"  {component['group']:<{group_width}} {component['id']:<{id_width}} x{component['count']}")


def _listing(project: Project, game: str | None) -> dict:
    """`cardgen list`'s answer: each game's entry (_describe), and its name in its first language."""
    from cardgen.build import check

    games, _ = check(project, [game] if game else [], strict=False)
    entries = [_describe(project, files) for files in games]
    return {
        "games": entries,
        "names": [files.checked_game.data["name"].get(entry["languages"][0]) for files, entry in zip(games, entries)],
    }


@click.command("setup")
@click.argument("game")
@table_options
@click.option("--list", "listing", is_flag=True, help="List the game's setups: id, name, player counts, origin.")
@click.option("--lang", help="The language of the names (default: the game's first).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@decks_option
def setup_command(game, players, setup_id, extra_cards, roles, listing, lang, as_json, decks, includes) -> None:
    """The cards to deal to a table: a setup's row for a number of players, or the roles you name."""
    from cardgen.build import card_sizes, check, document_text, languages
    from cardgen.deck.model import NIGHTS
    from cardgen.deck.resolve import AnyGlyph, resolve_deck
    from cardgen.deck.tonight import tonight

    project = common.project(decks, includes)
    try:
        (files,), _ = check(project, [game], strict=False)
        lang = languages(files, (lang,) if lang else ())[0]
        deck, _ = resolve_deck(files, lang, None, card_sizes(project), AnyGlyph())
        if listing:
            _list_setups(deck, as_json)
            return
        if players is None and setup_id is None and not roles:
            raise click.ClickException(
                "say who plays: --players N, --setup NAME or --roles SPEC (cardgen setup GAME --list shows the setups)"
            )
        table = tonight(
            deck,
            files.checked_game.where(),
            document_text(project.template_data, deck.lang),
            players,
            setup_id,
            tuple(extra_cards),
            roles or (),
        )
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    warn(list(table.warnings))
    if as_json:
        click.echo(
            json.dumps(
                {
                    "game": files.id,
                    "players": table.players,
                    "components": dict(table.dealt),
                    **({"beside": dict(table.beside)} if table.beside else {}),
                    "nights": {
                        night: [
                            {"id": card.id, "order": call.order}
                            for card, call in deck.calls(night)
                            if card.id in table.in_play
                        ]
                        for night in NIGHTS
                    },
                    **(
                        {"choose": {key: {"n": n, "from": list(pool)} for key, (n, pool) in table.choose.items()}}
                        if table.choose
                        else {}
                    ),
                },
                ensure_ascii=False,
            )
        )
        return
    names = {card.id: deck.introduced(card) for card in deck.cards}
    source = "--roles" if table.chosen else table.checked_setup.id
    if not table.chosen and table.players in table.checked_setup.house_players:
        source += ", ◆ our own row"
    total = sum(table.dealt.values()) + sum(n for n, _ in table.choose.values())
    click.echo(f"{files.id}, {table.players} players ({source}): {total} cards")
    for card_id, number in table.dealt.items():
        click.echo(f"  {number:>3} x {names[card_id]}")
    for key, (number, pool) in table.choose.items():
        click.echo(f"  {number:>3} x {key}, your choice of: {', '.join(names[card_id] for card_id in pool)}")
    for card_id, number in table.beside.items():
        click.echo(f"  {number:>3} x {names[card_id]} (dealt to nobody)")


def _list_setups(deck, as_json: bool) -> None:
    from cardgen.deck.setups import counts

    setups = [
        {
            "id": setup.id,
            "name": setup.name.value if setup.name else setup.id,
            "players": list(setup.players),
            "origin": setup.origin,
        }
        for setup in deck.setups
    ]
    if as_json:
        click.echo(json.dumps({"game": deck.game, "setups": setups}, ensure_ascii=False))
        return
    click.echo(f"{deck.game}: {len(setups)} setup{'' if len(setups) == 1 else 's'}")
    rows = [
        (s["id"], s["name"], f"{counts(s['players'])} player{'' if s['players'] == [1] else 's'}", s["origin"])
        for s in setups
    ]
    widths = [max((len(row[i]) for row in rows), default=0) for i in range(3)]
    for row in rows:
        line = "  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + MARKS[row[3]]
        click.echo(line.rstrip())
    legend = [LEGEND[origin] for origin in ("house", "community") if any(row[3] == origin for row in rows)]
    if legend:
        click.echo("  " + ", ".join(legend))


# The marks the rulebook prints: none for the sources' own table.
MARKS = {"source": "", "house": "◆", "community": "○"}
LEGEND = {"house": "◆ our own table", "community": "○ a board groups commonly play"}


def _describe(project: Project, files) -> dict:
    """A game's entry in `cardgen list`: its cards as the build makes them, derived and word cards included."""
    from cardgen.build import card_sizes
    from cardgen.deck.resolve import AnyGlyph, resolve_deck

    languages = list(files.checked_game.data["languages"])
    deck, _ = resolve_deck(files, languages[0], None, card_sizes(project), AnyGlyph())
    return {
        "id": files.id,
        "languages": languages,
        "components": [{"id": card.id, "group": card.group.id, "count": card.count} for card in deck.cards],
    }
