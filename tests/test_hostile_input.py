"""Hostile input, round three: what a deck or an argument names that cardgen would write, show or fetch.

Ids too long for a file name, invisible Unicode characters in names and words, a word list holding a
word twice, YAML merge keys, a Tabletop Simulator address that is no web or file address, and a
missing ``{% include %}``. One named test per case, each asserting the exact message (file:line, or
the argument) and exit code, as tests/test_hostile.py does.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from cardgen.text import writing
from conftest import game, mini_project, run, write
from test_hostile import GAME_YAML, SEER, build, built, card, cli, own_rulebook_template, problems, validate


@pytest.fixture
def project(mini_here: Path) -> Path:
    return mini_here


# == ids ==========================================================================================

LONG = "a" * 81


def test_a_card_id_longer_than_a_file_name_can_hold_is_refused(project):
    """Found here: a 249-character card id passed validate; export --png and site then ended in
    OSError: [Errno 36] File name too long."""
    card(project, name="Hunter", file=f"roles/{LONG}.yaml")
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            f"decks/mini/roles/{LONG}.yaml: error: '{'a' * 30}…' is 81 characters long; an id may have at "
            "most 80, as it becomes part of file names: shorten the file's name"
        ),
    )


def test_a_game_id_longer_than_a_file_name_can_hold_is_refused(project):
    """Found here: a 239-character game id passed validate, and build could not write it."""
    (project / "decks" / "mini").rename(project / "decks" / LONG)
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            f"decks/{LONG}: error: '{'a' * 30}…' is 81 characters long; an id may have at most 80, as it "
            "becomes part of file names: shorten the folder's name"
        ),
    )


def test_ids_written_in_a_game_file_are_refused_at_their_line_when_too_long(project):
    text = GAME_YAML.replace("  wolves:\n", f"  {LONG}:\n") + f"setups:\n  {'b' * 90}:\n    players: [2]\n"
    write(project, "game.yaml", text + "    cards: {seer: 1, wolf: 1}\n")
    result, _ = validate(project)
    message = "characters long; an id may have at most 80, as it becomes part of file names"
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            f"decks/mini/game.yaml:8: error: teams.{LONG}: '{'a' * 30}…' is 81 {message}",
            f"decks/mini/game.yaml:14: error: setups.{'b' * 90}: '{'b' * 30}…' is 90 {message}",
            f"decks/mini/roles/wolf.yaml:2: error: team: unknown team 'wolves'; the game's teams: village, {LONG}",
        ),
    )


def test_new_refuses_an_id_too_long_for_a_file_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("new", "game", LONG)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: '{'a' * 30}…' is 81 characters long; an id may have at most 80, as it becomes part of file names\n",
    )
    assert list(tmp_path.iterdir()) == []


def test_an_id_of_the_longest_length_builds_every_file_it_names(project):
    """80 characters: the game's and a card's ids at the limit still name files every file system writes."""
    longest = "w" * 80
    (game(project) / "roles" / "wolf.yaml").rename(game(project) / "roles" / f"{longest}.yaml")
    (project / "decks" / "mini").rename(project / "decks" / longest)
    out = project / "out"
    result = run("export", longest, "--lang", "en", "--decks", str(project / "decks"), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert (out / longest / f"{longest}-print-en.pdf").is_file()
    assert len(list((out / longest).rglob(f"*-{longest}-front.png"))) == 2


def test_a_language_code_of_any_length_is_refused(project):
    write(project, "game.yaml", GAME_YAML.replace("languages: [en, vi]", "languages: [en, vi, pt-" + "B" * 9 + "]"))
    result, _ = validate(project)
    assert result.exit_code == 1
    assert result.stderr.startswith(
        f"decks/mini/game.yaml:2: error: languages.2: 'pt-{'B' * 9}' is not a language code (two or three "
        "lower-case letters, optionally with a region or script: en, no, pt-BR, zh-Hant)\n"
    )


# == invisible characters ==========================================================================

RLO, ZWSP, ZWNJ, ZWJ, SHY = "\u202e", "\u200b", "\u200c", "\u200d", "\u00ad"


@pytest.mark.parametrize(
    "name,char",
    [(f"{RLO}reeS", "U+202E (RIGHT-TO-LEFT OVERRIDE)"), (f"Hell{SHY}seher", "U+00AD (SOFT HYPHEN)")],
    ids=["bidi-override", "soft-hyphen"],
)
def test_an_invisible_character_in_a_name_is_refused_at_its_line(project, name, char):
    """Found here: a U+202E in a role name made the narrator page show "Seer" as "reeS". A soft hyphen,
    allowed in running texts, has no place in a name shown whole either."""
    card(project, name=name)
    result, _ = validate(project)
    why = "a name or a word may hold none: it hides or reorders what is shown, and cardgen prints none"
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            f"decks/mini/roles/seer.yaml:2: error: name.en: invisible character {char}; {why}",
            f"decks/mini/roles/seer.yaml:3: error: name.vi: invisible character {char}; {why}",
        ),
    )


def test_a_zero_width_space_making_two_names_look_the_same_is_refused_at_the_second(project):
    """Found here: a zero-width space made two roles look identical, with no warning."""
    card(project, name=f"Se{ZWSP}er", file="roles/seer2.yaml")
    result, _ = validate(project)
    why = "a name or a word may hold none: it hides or reorders what is shown, and cardgen prints none"
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            f"decks/mini/roles/seer2.yaml:2: error: name.en: invisible character U+200B (ZERO WIDTH SPACE); {why}",
            "decks/mini/roles/seer2.yaml:2: error: name.en: 'Se\\u200ber' looks the same as card 'seer''s name "
            "(decks/mini/roles/seer.yaml:1); give each card a name of its own",
            f"decks/mini/roles/seer2.yaml:3: error: name.vi: invisible character U+200B (ZERO WIDTH SPACE); {why}",
        ),
    )


def test_a_decomposed_name_is_the_same_name(project):
    card(project, name=unicodedata.normalize("NFD", "Tiên tri"), file="roles/seer2.yaml")
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            f"decks/mini/roles/seer2.yaml:3: error: name.vi: '{unicodedata.normalize('NFD', 'Tiên tri')}' looks "
            "the same as card 'seer''s name (decks/mini/roles/seer.yaml:1); give each card a name of its own"
        ),
    )


def test_invisible_characters_in_running_texts_are_refused_but_a_soft_hyphen(project):
    write(
        project,
        SEER,
        f"name: {{en: Seer, vi: Tiên tri}}\nteam: village\nability:\n  en: Look at the Donau{SHY}dampf{SHY}schiff.\n"
        f"  vi: Xem {RLO}lá bài.\n",
    )
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:5: error: ability.vi: invisible character U+202E (RIGHT-TO-LEFT OVERRIDE); "
            "a text may hold none but soft hyphens: it hides or reorders what is shown, and cardgen prints none"
        ),
    )


def test_a_joiner_outside_a_word_of_a_joining_script_is_refused(project):
    card(project, name="Seer", ability=f"Auf{ZWNJ}lage.")
    result, _ = validate(project)
    why = (
        "outside a word of a script whose letters join (Arabic, Persian, the Indic scripts), the only place it "
        "changes what is printed"
    )
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            f"decks/mini/roles/seer.yaml:6: error: ability.en: invisible character U+200C (ZERO WIDTH NON-JOINER) {why}",
            f"decks/mini/roles/seer.yaml:7: error: ability.vi: invisible character U+200C (ZERO WIDTH NON-JOINER) {why}",
        ),
    )


@pytest.mark.parametrize(
    "text,found",
    [
        (f"می{ZWNJ}خواهم", None),  # Persian: "I want", its prefix kept apart
        (f"क्{ZWJ}ष", None),  # Devanagari: a half form, the joiner after the virama
        (f"{ZWNJ}می", (0, ZWNJ)),  # at a word's start
        (f"می{ZWNJ} خواهم", (2, ZWNJ)),  # before a space
        (f"می{ZWNJ}क", (2, ZWNJ)),  # between two scripts
        (f"a{ZWJ}b", (1, ZWJ)),  # Latin letters do not join
        (f"Donau{SHY}dampf", (5, SHY)),
        ("Tiên tri \ufeff", (9, "\ufeff")),
    ],
    ids=["persian-zwnj", "devanagari-zwj", "word-start", "before-space", "two-scripts", "latin", "shy", "bom"],
)
def test_a_joiner_is_kept_only_inside_a_word_of_a_script_it_shapes(text, found):
    """The rule for the scripts cardgen refuses today (they need shaping), so that it holds when they come."""
    assert writing.invisible(text, word=True) == found


def test_a_byte_order_mark_is_an_invisible_character_not_arabic(project):
    card(project, name="Seer", ability="Look.\ufeff")
    result, _ = validate(project)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "decks/mini/roles/seer.yaml:6: error: ability.en: invisible character U+FEFF (ZERO WIDTH NO-BREAK SPACE); "
        "a text may hold none but soft hyphens: it hides or reorders what is shown, and cardgen prints none"
    )
    assert "Arabic" not in result.stderr


# == word lists ====================================================================================

WORDS_GROUP = (
    "  word:\n    name: {en: Word, vi: Từ}\n    layout: words\n    team: village\n"
    "    words: {file: 'words/{lang}.yaml', per-card: {easy: 1}}\n"
)


def word_lists(project: Path, en: str) -> None:
    write(project, "game.yaml", GAME_YAML + WORDS_GROUP)
    write(project, "words/en.yaml", en)
    write(project, "words/vi.yaml", "easy: [mèo, chó]\n")


@pytest.mark.parametrize(
    "second", ["cat", unicodedata.normalize("NFD", "café"), "Cat", "cat "], ids=["same", "decomposed", "case", "space"]
)
def test_a_word_list_holding_a_word_twice_is_refused_at_the_second_copy(project, second):
    """Found here: a Werewords word list with the same word twice passed validate, also when the second
    copy was decomposed (NFD)."""
    first = "café" if unicodedata.normalize("NFC", second) == "café" else "cat"
    word_lists(project, f"easy:\n  - {first}\n  - dog\nhard:\n  - '{second}'\n")
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            f"decks/mini/words/en.yaml:5: error: hard.0: '{second}' is in the list already, at line 2 (easy.0); "
            "give each card words of its own"
        ),
    )


def test_a_word_with_an_invisible_character_is_refused(project):
    word_lists(project, f"easy:\n  - cat\n  - 'd{ZWSP}og'\n")
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/words/en.yaml:3: error: easy.1: invisible character U+200B (ZERO WIDTH SPACE); a name or a "
            "word may hold none: it hides or reorders what is shown, and cardgen prints none"
        ),
    )


# == YAML merge keys ===============================================================================

MERGED_TEAMS = """teams:
  village: &team
    name: {en: Village, vi: Dân làng}
    color: "#2f6b3a"
  wolves:
    <<: *team
    name: {en: Wolves, vi: Sói}
"""


def _with_teams(project: Path, teams: str) -> None:
    start, end = GAME_YAML.index("teams:"), GAME_YAML.index("groups:")
    write(project, "game.yaml", GAME_YAML[:start] + teams + GAME_YAML[end:])


@pytest.mark.parametrize("where", ["after", "before"])
def test_a_key_written_beside_a_merge_key_overrides_the_merged_one(project, where):
    """Found here: a key written after a `<<:` merge was refused as a duplicate."""
    teams = MERGED_TEAMS
    if where == "before":
        teams = teams.replace(
            "    <<: *team\n    name: {en: Wolves, vi: Sói}\n", "    name: {en: Wolves, vi: Sói}\n    <<: *team\n"
        )
    _with_teams(project, teams)
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (0, "")


def test_an_overriding_value_is_reported_at_its_own_line(project):
    _with_teams(
        project,
        MERGED_TEAMS.replace(
            "    name: {en: Wolves, vi: Sói}\n", '    name: {en: Wolves, vi: Sói}\n    color: "red"\n'
        ),
    )
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/game.yaml:11: error: teams.wolves.color: 'red' does not have the expected form (A colour as #rrggbb.)"
        ),
    )


def test_a_merged_value_is_reported_where_it_is_written(project):
    _with_teams(project, MERGED_TEAMS.replace('color: "#2f6b3a"', 'color: "green"'))
    result, _ = validate(project)
    message = "'green' does not have the expected form (A colour as #rrggbb.)"
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            f"decks/mini/game.yaml:7: error: teams.village.color: {message}",
            f"decks/mini/game.yaml:7: error: teams.wolves.color: {message}",
        ),
    )


def test_a_key_written_twice_beside_a_merge_key_is_still_a_duplicate(project):
    _with_teams(project, MERGED_TEAMS + "    name: {en: Wolf pack, vi: Bầy sói}\n")
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems("decks/mini/game.yaml:11: error: duplicate key 'name' (first at line 10)"),
    )


# == Tabletop Simulator's address ==================================================================


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)//",
        "../../",
        "http:///cards/",
        "ftp://example.org/cards/",
        "file://",
        "https://example.org/cards",
        "https://exa mple.org/",
        "https://example.org/\ncards/",
        "",
    ],
    ids=["javascript", "climbing", "no-host", "ftp", "file-without-path", "no-slash", "space", "line-break", "empty"],
)
def test_a_tts_address_that_is_no_web_or_file_address_is_a_usage_error(tmp_path, url):
    """Found here: export --for tts --url took anything, javascript: and ../../ included."""
    result, _ = cli(
        tmp_path,
        "export",
        "mini",
        "--for",
        "tts",
        "--url",
        url,
        "--decks",
        str(mini_project(tmp_path / "project") / "decks"),
        "--out",
        str(tmp_path / "out"),
    )
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"error: Invalid value for '--url': expected an http://, https:// or file:// address ending in / "
        f"(like https://example.org/cards/), got {url!r}"
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("url", ["file:///home/me/tts/", "HTTP://example.org:8080/my%20cards/"])
def test_a_tts_address_of_a_file_or_web_folder_names_every_image(tmp_path, url):
    project = mini_project(tmp_path / "project")
    out = tmp_path / "out"
    result = run(
        "export",
        "mini",
        "--for",
        "tts",
        "--lang",
        "en",
        "--url",
        url,
        "--decks",
        str(project / "decks"),
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    (deck,) = json.loads((out / "mini" / "tts" / "en" / "mini-en.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert deck["CustomDeck"]["1"]["FaceURL"] == f"{url}mini-en-role-1.png"


# == templates =====================================================================================


def test_a_missing_include_is_blamed_on_its_line(project):
    """Found here: a missing {% include %} was blamed on the template that includes it, with no line."""
    own_rulebook_template(
        project, "<document>\n<h1>{{ game.name }}</h1>\n{% include 'parts/goal.xml.j2' %}\n</document>\n"
    )
    result, _ = build(project)
    assert (result.exit_code, result.stderr) == (
        1,
        built(
            "templates/documents/rulebook.xml.j2:3: error: no template 'parts/goal.xml.j2' in the templates "
            "folders to include here"
        ),
    )
