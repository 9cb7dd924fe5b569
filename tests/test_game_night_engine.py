"""Game night as data: setups dealt, win checks after deaths, house rules marked, read back from the PDFs.

The fixture game (tests/fixtures/night) has every game-night key: a setup with
`fill` and `extra`, a house-rule table, night rules, a group call, a deadly
first-night role and two script versions.
"""

from __future__ import annotations

import pypdf
import pytest

from cardgen.deck.yaml_doc import load_file
from conftest import ROOT, run, table


def lines_of(path) -> list[str]:
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)
    return [line.strip() for line in text.splitlines() if line.strip()]


def joined(path) -> str:
    """The text with its line breaks undone, for sentences that wrap."""
    return " ".join(lines_of(path))


def build(project, *args):
    out = project / "out"
    result = run("build", "--decks", str(project / "decks"), "--out", str(out), "--jobs", "1", *args)
    return result, out / "night"


def test_the_setup_opens_every_version_with_exactly_the_cards_dealt(night):
    result, out = build(night, "--lang", "en", "--players", "5")
    assert result.exit_code == 0, result.output
    text = joined(out / "night-script-en-5p.pdf")
    plain, bell = text.split("Bell Setup")
    # Setup first, then the first night.
    assert plain.index("Plain Setup") < plain.index("First night")
    assert (
        "Take these 6 cards: 2 × Wolf, 1 × Seer, 3 × Villager. Shuffle them and deal one face down to "
        "each player. Lay the card left over face down in the middle of the table."
    ) in plain
    # A step of one version appears in that version only; an `if: seer` house step in both.
    assert "Give the narrator a bell." not in plain and "Give the narrator a bell." in bell
    for version in (plain, bell):
        assert version.count("◆ The seer takes the middle card.") == 1


def test_chinese_deal_uses_chinese_list_punctuation(night):
    game = night / "decks" / "night" / "game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8").replace("languages: [en, es]", "languages: [en, es, zh]"), encoding="utf-8"
    )
    result, out = build(night, "--lang", "zh", "--players", "4")
    assert result.exit_code == 0, result.output
    text = joined(out / "night-script-zh-4p.pdf").replace(" ", "")
    assert "取以下5张牌：Wolf×1、Seer×1、Villager×3。" in text


def test_without_a_player_count_the_deal_points_to_the_table_and_the_rulebook_numbers_the_steps(night):
    result, out = build(night, "--lang", "en")
    assert result.exit_code == 0, result.output
    script = joined(out / "night-script-en.pdf")
    assert "Take the cards the setup table gives for your number of players. Shuffle them and deal one" in script
    rulebook = joined(out / "night-rulebook-en.pdf")
    setup = rulebook[rulebook.index("Setup 1.") : rulebook.index("Setup by player count")]
    assert setup == (
        "Setup 1. Pick a narrator who does not play. 2. Take the cards the setup table gives for "
        "your number of players. Shuffle them and deal one face down to each player. Lay the card "
        "left over face down in the middle of the table. With the Joker card in play, add 1 × Villager "
        "to them before shuffling; what is left over after the deal goes face down in the middle of the "
        "table. "
        "3. ◆ The seer takes the middle card. "
        "4. Bell: Give the narrator a bell. "
    )


def test_a_table_that_deals_evenly_says_how_many_each_player_gets_and_a_house_table_is_marked(night):
    result, out = build(night, "--lang", "en")
    assert result.exit_code == 0, result.output
    lines = lines_of(out / "night-rulebook-en.pdf")
    standard = lines.index("Setup by player count · Standard")
    pairs = lines.index("Setup by player count · Pairs ◆")
    assert "Each player gets" not in lines[standard:pairs]  # one each, with a fill: nothing to say
    rows = lines[pairs : lines.index("A round")]
    assert rows[rows.index("Each player gets") :] == ["Each player gets", "2", "2"]


def test_every_deadly_step_is_followed_by_the_win_check(night):
    result, out = build(night, "--lang", "en")
    assert result.exit_code == 0, result.output
    lines = lines_of(out / "night-script-en.pdf")
    check = "Win check: If no wolf is left the village wins. The badge holder breaks ties."
    deaths = [
        i for i, line in enumerate(lines) if line in ("The most voted player is out.", "Hunter, shoot now if you must.")
    ]
    assert len(deaths) == 3  # the vote, and the Hunter's first-night call in both versions
    for i in deaths:
        assert lines[i + 1] == check, lines[i : i + 3]
    assert lines.count(check) == 3


def test_timers_print_their_length_and_the_playing_time_its_own(night):
    result, out = build(night, "--lang", "es", "--players", "4")
    assert result.exit_code == 0, result.output
    assert "Votad ahora. (cuenta atrás: 1:30)" in lines_of(out / "night-script-es-4p.pdf")
    assert "2–6 jugadores · 10–20 minutos" in lines_of(out / "night-rulebook-es.pdf")


def test_the_bundled_templates_hold_no_key_twice():
    # A second key silently replaces the first one in a template: the words of one phrase go missing.
    for path in sorted((ROOT / "templates").rglob("*.yaml")):
        _, problems = load_file(path, path.relative_to(ROOT).as_posix())
        assert problems == [], problems


def test_house_rules_carry_the_mark_and_the_rulebook_the_legend(night):
    result, out = build(night, "--lang", "en")
    assert result.exit_code == 0, result.output
    lines = lines_of(out / "night-rulebook-en.pdf")
    text = " ".join(lines)
    assert (
        "◆ House rule: our own choice where the official rules are silent, unclear or contradict themselves."
    ) in text
    round_ = lines[lines.index("A round") : lines.index("Night order")]
    assert round_ == ["A round", "Night then day.", "◆ Ties go to the eldest.", "• ◆ Nobody may pass."]


def test_a_game_without_house_rules_prints_no_legend(night):
    game = night / "decks" / "night"
    (game / "game.yaml").write_text(
        (game / "game.yaml")
        .read_text(encoding="utf-8")
        .replace("  house-rules: [dead-roles]\n", "")
        .replace("    house: true\n", ""),
        encoding="utf-8",
    )
    rulebook = game / "rulebook.yaml"
    rulebook.write_text(rulebook.read_text(encoding="utf-8").replace("- house:", "- text:"), encoding="utf-8")
    script = game / "script.yaml"
    script.write_text(script.read_text(encoding="utf-8").replace("    house: true\n", ""), encoding="utf-8")
    result, out = build(night, "--lang", "en")
    assert result.exit_code == 0, result.output
    for kind in ("rulebook", "script"):
        text = joined(out / f"night-{kind}-en.pdf")
        assert "◆" not in text and "House rule" not in text


def test_the_rulebook_prints_the_night_order_by_call_names_with_the_dead_roles_rule(night):
    result, out = build(night, "--lang", "en")
    assert result.exit_code == 0, result.output
    text = joined(out / "night-rulebook-en.pdf")
    order = text[text.index("Night order") : text.index("Roles and cards")]
    assert order == (
        "Night order 1. Hunter (first night only) 2. Seer 3. Wolves ◆ Call every role as usual, also "
        "when its player is out, and wait as long as if they were acting, so that nobody learns who "
        "is out. "
    )


def test_night_calls_open_with_the_dead_roles_rule_and_group_calls_use_the_plural(night):
    result, out = build(night, "--lang", "es", "--players", "4")
    assert result.exit_code == 0, result.output
    lines = lines_of(out / "night-script-es-4p.pdf")
    night_ = lines[lines.index("Noche") : lines.index("Final")]
    assert night_[1].startswith("◆ Llama a todos los roles como siempre")
    assert "Vidente, abre los ojos." in night_ and "Vidente, cierra los ojos." in night_
    assert "Lobos, abrid los ojos." in night_ and "Lobos, cerrad los ojos." in night_


def test_with_gives_a_card_the_seat_of_one_fill_card(night):
    result, out = build(night, "--lang", "en", "--players", "5", "--with", "hunter")
    assert result.exit_code == 0, result.output
    text = joined(out / f"night-script-en-{table(5, ('hunter',))}.pdf")
    assert "Take these 6 cards: 2 × Wolf, 1 × Seer, 2 × Villager, 1 × Hunter." in text
    assert "Hunter, open your eyes." in text


def test_with_needs_a_seat_to_take(night):
    result, _ = build(night, "--lang", "en", "--players", "2", "--setup", "pairs", "--with", "hunter")
    assert result.exit_code == 1
    # The table is settled before anything is built.
    assert result.output == (
        "decks/night/game.yaml:24: error: --with hunter: setup 'pairs' of night has no seat left for it "
        "(no card fills seats)\n1 error\n"
    )


def test_a_role_possibly_held_by_nobody_says_so_unless_always_held(night):
    script = night / "decks" / "night" / "script.yaml"
    script.write_text(
        "unheld-roles-if: [hunter]\nalways-held: [wolf]\n" + script.read_text(encoding="utf-8"), encoding="utf-8"
    )
    result, out = build(night, "--lang", "en")
    assert result.exit_code == 0, result.output
    text = joined(out / "night-script-en.pdf")
    first = text[text.index("First night") : text.index("Day")]
    note = "Possibly nobody holds this card tonight: call it all the same and wait a moment, as if someone were acting."
    assert f"Seer, open your eyes. {note} Point at a player." in first
    assert "Wolves, open your eyes. Choose your victim." in first


def test_the_night_order_card_names_roles_as_the_script_calls_them_and_marks_a_house_order(night):
    game = night / "decks" / "night"
    (game / "game.yaml").write_text(
        (game / "game.yaml")
        .read_text(encoding="utf-8")
        .replace("house-rules: [dead-roles]", "house-rules: [order, dead-roles]"),
        encoding="utf-8",
    )
    (game / "roles" / "night-order.yaml").write_text(
        'name: {en: "Night order", es: "Orden nocturno"}\nlayout: night-order\n'
        'ability: {en: "Wake the roles in this order.", es: "Despierta a los roles en este orden."}\n',
        encoding="utf-8",
    )
    result, out = build(night, "--lang", "en")
    assert result.exit_code == 0, result.output
    text = joined(out / "night-cards-en.pdf")
    assert (
        "Wake the roles in this order. ◆ This order is a house rule, not the official one. 1. Hunter 2. Seer 3. Wolves"
    ) in text
    rulebook = joined(out / "night-rulebook-en.pdf")
    assert "Night order ◆ 1. Hunter" in rulebook


@pytest.mark.parametrize(
    "step, message",
    [
        (
            '  - do: {en: "x", es: "x"}\n    deadly: true\n',
            "decks/night/script.yaml:{line}: error: setup.4.deadly: players may die here, but script.yaml has no win-check to "
            "follow it",
        ),
        (
            '  - deal: true\n    do: {en: "x", es: "x"}\n',
            "decks/night/script.yaml:{line}: error: setup.4: a step does one thing: expected exactly one of say, do, roles, deal, "
            "got do, deal",
        ),
        (
            "  - roles: night\n",
            "decks/night/script.yaml:{line}: error: setup.4.roles: roles are called in the phases, not in the setup",
        ),
        (
            '  - do: {en: "x", es: "x"}\n    version: bel\n',
            "decks/night/script.yaml:{line2}: error: setup.4.version: unknown script version 'bel' (did you mean 'bell'?); the "
            "game's script versions: plain, bell",
        ),
    ],
)
def test_steps_that_cannot_be_done_are_errors_at_their_line(night, step, message):
    script = night / "decks" / "night" / "script.yaml"
    text = script.read_text(encoding="utf-8")
    if "deadly" in step:
        text = text[: text.index("win-check:")] + text[text.index("setup:") :]
    head, tail = text.split("versions:\n")
    script.write_text(head + step + "versions:\n" + tail, encoding="utf-8")
    line = head.count("\n") + 1
    result = run("validate", "--decks", str(night / "decks"))
    assert result.exit_code == 1
    expected = message.format(line=line + (1 if "deadly" in step else 0), line2=line + 1)
    assert expected in result.output.splitlines(), result.output


def test_cards_are_dealt_only_in_the_setup(night):
    script = night / "decks" / "night" / "script.yaml"
    text = script.read_text(encoding="utf-8")
    script.write_text(
        text.replace('          - say: {en: "Vote now."', '          - deal: true\n          - say: {en: "Vote now."'),
        encoding="utf-8",
    )
    result = run("validate", "--decks", str(night / "decks"))
    assert result.exit_code == 1
    line = text[: text.index('- say: {en: "Vote now."')].count("\n") + 1
    assert (
        f"decks/night/script.yaml:{line}: error: versions.plain.phases.1.steps.0.deal: cards are dealt only in the "
        "setup" in result.output.splitlines()
    ), result.output


def test_a_card_the_setup_never_deals_is_in_play_without_a_seat(night):
    result, out = build(night, "--lang", "en", "--players", "5", "--with", "badge")
    assert result.exit_code == 0, result.output
    text = joined(out / f"night-script-en-{table(5, ('badge',))}.pdf")
    assert "Take these 6 cards: 2 × Wolf, 1 × Seer, 3 × Villager." in text  # the badge takes no seat
    assert "Win check: If no wolf is left the village wins. The badge holder breaks ties." in text


def test_a_card_with_extra_cards_deals_them_from_the_fill_card(night):
    result, out = build(night, "--lang", "en", "--players", "5", "--with", "joker")
    assert result.exit_code == 0, result.output
    text = joined(out / f"night-script-en-{table(5, ('joker',))}.pdf")
    assert (
        "Take these 7 cards: 2 × Wolf, 1 × Seer, 3 × Villager, 1 × Joker. Shuffle them and deal one face down "
        "to each player. Lay the 2 cards left over face down in the middle of the table."
    ) in text


def test_a_win_check_part_for_a_card_not_in_play_is_left_out(night):
    result, out = build(night, "--lang", "en", "--players", "5")
    assert result.exit_code == 0, result.output
    lines = lines_of(out / "night-script-en-5p.pdf")
    assert "Win check: If no wolf is left the village wins." in lines
    assert not any("badge" in line for line in lines)
