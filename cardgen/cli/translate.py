"""`cardgen translate export`, `import` and `status`: a game and a language in, a PO file of its texts and
of cardgen's own words out; a translated PO file in, its translations written into the YAML out; the
share of each language done, and what a language lacks, out."""

from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli import common
from cardgen.cli.common import DeckProblems, say, warn
from cardgen.cli.options import decks_folder_option, translation_lang_option
from cardgen.core.problems import DeckError, Problem, count


@click.group("translate")
def translate_group() -> None:
    """Translate a game with gettext tools (Poedit, Weblate): export its texts and cardgen's own words to a
    PO file, import the translated file back into the YAML, and see what is left to translate."""


@translate_group.command("export")
@click.argument("game")
@translation_lang_option(True, "The language to translate into: a code such as ja, fa or pt-BR.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The PO file to write (default: GAME-LANG.po in the working folder).",
)
@decks_folder_option
def export_command(game, lang, out, decks) -> None:
    """Write a PO file of every text of GAME and of cardgen's own words, each with its English, the
    translation into LANG where there is one, the file and line it is written at and the card or part
    it belongs to."""
    from cardgen.core.write import write_atomic
    from cardgen.translate import po, texts

    project = common.project(decks)
    try:
        files = texts.load(project, game)
        found = texts.game_texts(files) + texts.own_texts(project)
        source = found[0].source if found else None
        if lang == source:
            raise DeckError([Problem(None, f"'{lang}' is the language {files.id}'s texts are translated from")])
        target = out or Path(f"{files.id}-{lang}.po")
        write_atomic(target, str(po.export(found, lang, files.id)).encode("utf-8"))
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    done = sum(text.done(lang, po.forms(lang)) for text in found)
    click.echo(str(target))
    say(f"{count(len(found), 'text')} to translate into '{lang}', {done} of them already translated")


@translate_group.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@decks_folder_option
def import_command(file, decks) -> None:
    """Write the translations of a PO file made by `cardgen translate export` into the game's YAML files
    and cardgen's own words, keeping their comments and layout. An empty translation leaves a text as it
    is; one whose English changed since the export is left out (stale), as one marked fuzzy is."""
    from cardgen.translate.writeback import import_po

    project = common.project(decks)
    try:
        report = import_po(project, file)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    warn(sorted(report.stale + report.left, key=Problem.sort_key))
    for shown in report.files:
        click.echo(shown)
    if report.added:
        say(f"'{report.language}' added to the languages of {report.added}")
    if report.kept_out:
        say(report.kept_out)
    for name in report.copied:
        say(
            f"{name}: the project now has its own copy of cardgen's file, with the translations (it replaces "
            "cardgen's, upgrades included; send the PO file to cardgen to have them in every project)"
        )
    left = f", {len(report.left)} left out" if report.left else ""
    click.echo(f"{report.written} written, {report.unchanged} unchanged, {len(report.stale)} stale{left}")


@translate_group.command("status")
@click.argument("game", required=False)
@translation_lang_option(False, "Only this language; with GAME, also each text it lacks (file:line key).")
@decks_folder_option
def status_command(game, lang, decks) -> None:
    """The share of each game's texts and of cardgen's own words translated, per language."""
    from cardgen.translate import status, texts

    project = common.project(decks)
    details = bool(game and lang)
    wanted = [lang] if lang else []
    out: list[str] = []
    seen: list[str] = []
    try:
        for name in [game] if game else project.games():
            files = texts.load(project, name)
            found = texts.game_texts(files)
            listed = texts.languages(files)
            seen += listed
            title = f"{files.id}: {count(len(found), 'text')}"
            out += status.lines(title, status.shares(found, listed + wanted), lang, details)
        own = texts.own_texts(project)
    except DeckError as exc:
        raise DeckProblems(exc.problems) from None
    title = f"cardgen's own words: {count(len(own), 'text')}"
    out += status.lines(title, status.shares(own, seen + wanted), lang, details)
    click.echo("\n".join(out))
