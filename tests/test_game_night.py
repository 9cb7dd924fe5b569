"""Every bundled game from the open box to the end, as a first-time moderator reads its tailored script.

For one setup of each game, in every language, the script PDF is read back and
walked in order: the setup (exactly the cards dealt), the first night (exactly
the roles in play, in night order), the day, the later nights (no first-night
role), and the end, with the win check printed after the deaths. What the
script should hold is taken from the deck's own data, so a new role or a
changed setup is checked the same way.
"""

from __future__ import annotations

import io
from dataclasses import replace

import pypdf
import pypdfium2
import pytest

from cardgen.build import BuildOptions, Pipeline, check
from cardgen.core.project import Project
from cardgen.deck.tonight import tonight
from cardgen.documents.script_lines import deal_line
from conftest import ROOT, digest, table

LANGS = ("en", "vi", "zh", "es")
# One evening per game: players and the cards added to the setup's table.
EVENINGS = {
    "werewolf": (10, ("hunter", "cupid", "witch", "sheriff")),
    "salem-1692": (6, ()),
    "mafia-vendetta": (10, ()),
    "werewords": (6, ("mason", "mason")),
}


def squeeze(text: str) -> str:
    """Text as it comes back from a PDF, compared without its line breaks and spaces (Chinese breaks anywhere)."""
    return "".join(text.replace("**", "").split())


@pytest.fixture(scope="module")
def pipeline():
    project = Project.at(ROOT / "decks")
    return project, Pipeline(project, BuildOptions())


def evening(pipeline, game: str, lang: str):
    """The resolved deck, who plays, the script's phrases and the script PDF's lines."""
    project, pipe = pipeline
    (files,), _ = check(project, [game], strict=False)
    prepared, problems = pipe.prepare(files, lang)
    assert prepared is not None, problems
    players, extra = EVENINGS[game]
    pipe.options = replace(pipe.options, players=players, extra_cards=extra)
    ((kind, pdf, _),) = pipe.documents(prepared, files, frozenset({"script"}))
    lines = [
        line.strip()
        for page in pypdf.PdfReader(io.BytesIO(pdf)).pages
        for line in page.extract_text().splitlines()
        if line.strip()
    ]
    phrases = phrases_of(project, lang)
    table = tonight(prepared.deck, files.game.where(), phrases, players, None, extra)
    return prepared.deck, table, phrases, lines


def headings(lines: list[str], titles: list[str], start: int) -> list[int]:
    """The lines that are these headings, in this order, from line `start` on."""
    at = []
    for title in titles:
        start = lines.index(title, start)
        at.append(start)
    return at


def in_order(text: str, pieces: list[str], start: int = 0) -> list[int]:
    """Where each piece stands, each after the one before; fails naming the first piece not found."""
    at = []
    for piece in pieces:
        found = text.find(squeeze(piece), start)
        assert found >= 0, f"not found after position {start}: {piece!r}"
        at.append(found)
        start = found + len(squeeze(piece))
    return at


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(EVENINGS))
def test_a_game_runs_from_setup_to_the_end(pipeline, game, lang):
    deck, table, phrases, lines = evening(pipeline, game, lang)
    text = squeeze("".join(lines))
    script = deck.script
    waking = [card for card in deck.night_order if card.id in table.in_play]

    def wake(card):
        return (phrases["wake_group"] if card.night_script and card.night_script.group else phrases["wake"]).replace(
            "{name}", card.call_name
        )

    # The PDF prints every version but one only the narrator page runs (Werewords with no narrator).
    printed = [version for version in script.versions if not version.page_only]
    for version in printed:
        kinds = [phase.kind for phase in version.phases]
        # Every game opens with its setup and has a first night, a day and an end, in that order.
        assert kinds.index("first-night") < kinds.index("day") < kinds.index("end") == len(kinds) - 1, kinds
        titles = [phrases["setup_title"]] + [phase.title.value for phase in version.phases]
        version_at = lines.index(version.name.value) if len(printed) > 1 else 0
        at = headings(lines, titles, version_at)
        sections = {
            kind: squeeze("".join(lines[start:end]))
            for kind, start, end in zip(["setup"] + kinds, at, at[1:] + [len(lines)])
        }
        # The setup deals exactly tonight's cards, each with its number.
        assert squeeze(deal_line(deck, table, phrases)) in sections["setup"]
        for card_id, n in table.dealt.items():
            name = next(card.name.value for card in deck.cards if card.id == card_id)
            assert squeeze(phrases["deal_item"].replace("{n}", str(n)).replace("{name}", name)) in sections["setup"]
        # The first night calls exactly the roles in play, in night order (Salem calls its witches in the text).
        first = sections["first-night"]
        if any(step.kind == "roles" for phase in version.phases for step in phase.steps):
            in_order(first, [wake(card) for card in waking])
            for card in deck.night_order:
                if card.id not in table.in_play:
                    assert squeeze(wake(card)) not in first, card.id
        # Later nights (Werewords plays one) leave out the first-night roles.
        if "night" in sections and any(step.kind == "roles" for phase in version.phases for step in phase.steps):
            for card in waking:
                assert (squeeze(wake(card)) in sections["night"]) == (not card.first_night_only), card.id
        # Wherever players die the win check follows, and the day is one such place.
        if script.win_check:
            check_line = squeeze(phrases["win_check"])
            assert check_line in sections["day"]
            assert text.count(check_line) >= 2
        # The end says how the game ends: it is not empty.
        assert len(sections["end"]) > 20


def test_the_night_order_card_names_every_role_as_the_script_calls_it(pipeline, tmp_path):
    from conftest import run

    # A Latin and a CJK language: the names come from the same data in every language.
    result = run("build", "mafia-vendetta", "--lang", "es", "--lang", "zh", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    for lang in ("es", "zh"):
        night_order_card_matches_the_script(pipeline, tmp_path, lang)


def night_order_card_matches_the_script(pipeline, tmp_path, lang):
    deck, _, phrases, lines = evening(pipeline, "mafia-vendetta", lang)
    # pypdfium2 reads card sheets (a pattern of thousands of symbols a back) some 50 times faster than pypdf.
    sheets = pypdfium2.PdfDocument(tmp_path / "mafia-vendetta" / f"mafia-vendetta-cards-{lang}.pdf")
    cards = squeeze("".join(page.get_textpage().get_text_range() for page in sheets))
    script = squeeze("".join(lines))
    order = [card for card in deck.night_order if card.layout != "night-order"]
    # The card lists them numbered, in night order, by the very names the script wakes them with.
    in_order(cards, [f"{number}.{card.call_name}" for number, card in enumerate(order, start=1)])
    for card in order:
        if card.id in ("thug", "detective"):  # in play in the evening walked above
            wake = phrases["wake_group" if card.night_script.group else "wake"]
            assert squeeze(wake.replace("{name}", card.call_name)) in script


def pdf_lines(path) -> str:
    return squeeze("".join(page.extract_text() for page in pypdf.PdfReader(path).pages))


@pytest.mark.parametrize(
    "game, table",
    [
        ("werewolf", ["--players", "9", "--with", "witch"]),
        ("werewolf", ["--roles", "werewolf:2,villager:3,seer,witch"]),
        ("mafia-vendetta", ["--players", "10"]),
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_script_for_one_table_leaves_out_how_to_pick_its_cards(pipeline, tmp_path, game, table, lang):
    from conftest import run

    project, _ = pipeline
    (files,), _ = check(project, [game], strict=False)
    prepared, _ = Pipeline(project, BuildOptions()).prepare(files, lang)
    picking = [step.text.value for step in prepared.deck.script.setup if step.marks.if_tailored is False]
    assert picking, "the game has a setup step for the whole box only"
    for args in ([], table):
        result = run("build", game, "--lang", lang, "--out", str(tmp_path), *args)
        assert result.exit_code == 0, result.output
    folder = tmp_path / game
    tailored = pdf_lines(next(folder.glob(f"{game}-script-{lang}-*p*.pdf")))
    whole_box, rulebook = (
        pdf_lines(folder / f"{game}-script-{lang}.pdf"),
        pdf_lines(folder / f"{game}-rulebook-{lang}.pdf"),
    )
    for text in picking:
        assert squeeze(text) in whole_box and squeeze(text) in rulebook
        assert squeeze(text) not in tailored
    # The table's script says what to take instead.
    assert squeeze(phrases_of(project, lang)["deal_cards"].split("{")[0]) in tailored


def phrases_of(project, lang: str) -> dict:
    phrases = project.template_data("documents/text.yaml")
    return {**phrases["en"], **phrases.get(lang, {})}


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_beholder_sees_only_the_roles_that_are_in_play(pipeline, tmp_path, lang):
    from conftest import run

    project, _ = pipeline
    (files,), _ = check(project, ["werewords"], strict=False)
    prepared, _ = Pipeline(project, BuildOptions()).prepare(files, lang)
    beholder = next(card for card in prepared.deck.cards if card.id == "beholder")
    phrases = phrases_of(project, lang)
    thumbs = {step.when: step.text.value for step in beholder.night_script.before}
    assert set(thumbs) == {("seer",), ("fortune-teller",), ("apprentice",), ("mayor",)}
    call = [
        phrases["wake"].replace("{name}", beholder.call_name),
        beholder.night_script.say.value,
        # The narrator's own instruction, a step of the narrator's version.
        beholder.night_script.then[0].text.value,
        phrases["sleep"].replace("{name}", beholder.call_name),
        beholder.night_script.after[0].text.value,
    ]
    for roles in ("mayor,seer,werewolf,villager:2,beholder", "mayor,seer,werewolf,villager:2,beholder,apprentice"):
        result = run("build", "werewords", "--lang", lang, "--out", str(tmp_path), "--roles", roles)
        assert result.exit_code == 0, result.output
        script = pdf_lines(next((tmp_path / "werewords").glob(f"werewords-script-{lang}-*p-{digest(roles=roles)}.pdf")))
        in_play = set(part.split(":")[0] for part in roles.split(","))
        called = [text for (card,), text in thumbs.items() if card in in_play]
        # Woken, then each role in play raises a thumb, then the Mayor, then the Beholder looks.
        in_order(script, [call[0], *called, *call[1:]])
        for (card,), text in thumbs.items():
            assert (squeeze(text) in script) == (card in in_play), (roles, card)


def test_a_step_for_tables_only_is_left_out_of_the_whole_box_and_the_rulebook(tmp_path):
    import shutil

    from conftest import run

    decks = tmp_path / "decks"
    shutil.copytree(ROOT / "decks" / "werewolf", decks / "werewolf")
    script = decks / "werewolf" / "script.yaml"
    script.write_text(
        script.read_text(encoding="utf-8").replace("if-tailored: false", "if-tailored: true"), encoding="utf-8"
    )
    out = tmp_path / "out"
    for args in ([], ["--players", "8"]):
        result = run("build", "werewolf", "--lang", "en", "--decks", str(decks), "--out", str(out), *args)
        assert result.exit_code == 0, result.output
    step = squeeze("Pick the role cards.")
    assert step in pdf_lines(out / "werewolf" / "werewolf-script-en-8p.pdf")
    assert step not in pdf_lines(out / "werewolf" / "werewolf-script-en.pdf")
    assert step not in pdf_lines(out / "werewolf" / "werewolf-rulebook-en.pdf")


def test_a_setup_step_for_tables_without_a_card_is_in_their_script_only(tmp_path):
    import shutil

    from conftest import run

    decks = tmp_path / "decks"
    shutil.copytree(ROOT / "decks" / "werewolf", decks / "werewolf")
    script = decks / "werewolf" / "script.yaml"
    step = "Without the Thief, every card is dealt."
    script.write_text(
        script.read_text(encoding="utf-8").replace(
            "setup:\n", f'setup:\n  - do: {{en: "{step}", vi: "x", zh: "x", es: "x"}}\n    unless: thief\n', 1
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    for args in ([], ["--players", "8"], ["--players", "8", "--with", "thief"]):
        result = run("build", "werewolf", "--lang", "en", "--decks", str(decks), "--out", str(out), *args)
        assert result.exit_code == 0, result.output
        if args:
            script = out / "werewolf" / f"werewolf-script-en-{table(8, tuple(args[3::2]))}.pdf"
            assert (squeeze(step) in pdf_lines(script)) == (len(args) == 2)
    assert squeeze(step) not in pdf_lines(out / "werewolf" / "werewolf-script-en.pdf")
    assert squeeze(step) not in pdf_lines(out / "werewolf" / "werewolf-rulebook-en.pdf")


def not_dealt_named(deck, table, text: str, lang: str) -> list[str]:
    """The roles, and the sides, that `text` names although none of their cards is dealt: a side in
    the plural too ("the Loners"). The names of cards and sides in play are blanked first, so that
    a dealt name that holds another (村民阵营, the village's side, holds 村民, the Villager) is not
    taken for it."""
    import re

    from cardgen.deck.tonight import seat_groups

    seats = seat_groups(deck)
    dealt = [card for card in deck.cards if card.id in table.in_play]
    dealt_teams = {card.team.id for card in dealt if card.team}
    for name in sorted(
        {
            name
            for card in dealt
            for name in (card.name.value, card.call_name, *([card.team.name.value] if card.team else []))
        },
        key=len,
        reverse=True,
    ):
        text = text.replace(name, "#" * len(name))
    roles = {
        name
        for card in deck.cards
        if card.group.id in seats and card.id not in table.in_play
        for name in (card.name.value, card.call_name)
    }
    sides = {
        card.team.name.value
        for card in deck.cards
        if card.group.id in seats and card.team and card.team.id not in dealt_teams
    }
    # Chinese has no spaces to find a word's start by.
    edge = "" if lang == "zh" else r"\b"
    return sorted(
        {name for name in roles if re.search(rf"{edge}{re.escape(name)}{edge}", text)}
        | {name for name in sides if re.search(rf"{edge}{re.escape(name)}", text)}
    )


@pytest.mark.parametrize(
    "game, players, setup, extra",
    [
        ("werewolf", 8, None, ()),
        ("werewolf", 8, None, ("elder",)),
        ("werewolf", 8, None, ("guard",)),
        ("mafia-vendetta", 8, None, ()),
        ("mafia-vendetta", 7, None, ("journalist",)),
        ("mafia-vendetta", 12, "yakuza", ()),
        ("mafia-vendetta", 10, "loner", ()),
        ("werewords", 5, None, ()),
        ("werewords", 6, None, ("apprentice",)),
    ],
)
def test_a_small_tables_script_names_no_role_that_is_not_dealt(pipeline, tmp_path, game, players, setup, extra):
    from cardgen.deck.tonight import seat_groups
    from conftest import run

    project, _ = pipeline
    (files,), _ = check(project, [game], strict=False)
    prepared, _ = Pipeline(project, BuildOptions()).prepare(files, "en")
    table = tonight(prepared.deck, files.game.where(), phrases_of(project, "en"), players, setup, extra)
    seats = seat_groups(prepared.deck)
    assert any(card.group.id in seats and card.id not in table.in_play for card in prepared.deck.cards), (
        "the table leaves roles out"
    )
    result = run(
        "build",
        game,
        "--lang",
        "en",
        "--players",
        str(players),
        *(["--setup", setup] if setup else []),
        *(option for card in extra for option in ("--with", card)),
        "--out",
        str(tmp_path),
    )
    assert result.exit_code == 0, result.output
    script = " ".join(
        " ".join(page.extract_text().split())
        for page in pypdf.PdfReader(next((tmp_path / game).glob(f"{game}-script-en-*p*.pdf"))).pages
    )
    named = not_dealt_named(prepared.deck, table, script, "en")
    assert not named, f"the script for {players} players names roles or sides it does not deal: {named}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ["werewolf", "salem-1692", "mafia-vendetta", "werewords"])
def test_no_tables_script_names_a_role_or_side_it_does_not_deal(pipeline, game, lang):
    """Every row of every setup, as dealt and with each role of the box added (--with), in every
    language: each line the script prints for that table, as the PDF template gets it."""
    from cardgen.core.problems import DeckError
    from cardgen.deck.tonight import seat_groups
    from cardgen.documents import script as script_writer

    project, pipe = pipeline
    (files,), _ = check(project, [game], strict=False)
    deck = pipe.prepare(files, lang)[0].deck
    phrases = phrases_of(project, lang)
    roles = [card.id for card in deck.cards if card.group.id in seat_groups(deck)]
    found, tables = {}, 0
    for setup in deck.setups:
        for players in setup.players:
            for extra in [(), *((card,) for card in roles)]:
                try:
                    table = tonight(deck, files.game.where(), phrases, players, setup.id, extra)
                except DeckError:  # a role that this setup cannot seat
                    continue
                tables += 1
                values = script_writer.context(deck, phrases, table)
                for step in (
                    step for version in values["versions"] for phase in version["phases"] for step in phase["steps"]
                ):
                    named = not_dealt_named(deck, table, step["text"], lang)
                    if named:
                        found.setdefault(step["text"], (setup.id, players, extra, named))
    assert tables > 10
    assert not found, "\n".join(f"{text!r} at {where}" for text, where in found.items())
