"""What a new user met (issue 13, "Silent loss and surprises"): each case with its exact message.

Nothing is dropped without a word: YAML 1.1 words stay text, stray files of an --include folder
are named, texts cardgen would print wrong are errors or warnings, mistyped commands fail before
they start, and the output says how many errors and warnings there were.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
import yaml

from cardgen.core import write as writer
from cardgen.deck.yaml_doc import load_file
from conftest import FIXTURES, ROOT, game, run, write

SEER = "roles/seer.yaml"


@pytest.fixture
def project(mini_here: Path) -> Path:
    return mini_here


def validate(project: Path, *extra: str):
    return run("validate", "--decks", str(project / "decks"), *extra)


def seer_ability(project: Path, en: str, vi: str = "Xem.") -> None:
    write(
        project,
        SEER,
        "name: {en: Seer, vi: Tiên tri}\nteam: village\nability:\n"
        f"  en: {json.dumps(en, ensure_ascii=False)}\n  vi: {json.dumps(vi, ensure_ascii=False)}\n",
    )


def pdf_text(path: Path) -> str:
    return " ".join(" ".join(page.extract_text() for page in pypdf.PdfReader(path).pages).split())


# == YAML 1.2: yes, no, on, off, y, n are words ===================================================

WORDS = ["no", "yes", "on", "off", "y", "n", "No", "YES", "On", "OFF", "Y", "N"]


@pytest.mark.parametrize("word", WORDS)
def test_yaml_1_1_words_are_text_as_keys_and_values(tmp_path, word):
    path = tmp_path / "words.yaml"
    path.write_text(
        f"{word}: {word}\nlist: [{word}, {word}]\nnested: {{{word}: {{{word}: {word}}}}}\n", encoding="utf-8"
    )
    doc, problems = load_file(path, "words.yaml")
    assert problems == []
    assert doc.data == {word: word, "list": [word, word], "nested": {word: {word: word}}}


@pytest.mark.parametrize(
    "text,value",
    [
        ("true", True),
        ("False", False),
        ("~", None),
        ("null", None),
        ("", None),
        ("010", 10),
        ("0o10", 8),
        ("0x1F", 31),
        ("1.5", 1.5),
        ("1:30", "1:30"),
        ("2024-01-01", "2024-01-01"),
        ("1_000", "1_000"),
        (".inf", float("inf")),
    ],
)
def test_the_other_plain_values_read_as_yaml_1_2_does(tmp_path, text, value):
    path = tmp_path / "value.yaml"
    path.write_text(f"value: {text}\n", encoding="utf-8")
    doc, _ = load_file(path, "value.yaml")
    assert doc.data["value"] == value and type(doc.data["value"]) is type(value)


def test_a_game_in_norwegian_and_a_card_named_yes(project):
    """A language code `no` became False and `en: Yes` True: the game failed with False: keys."""
    write(
        project,
        "game.yaml",
        (FIXTURES / "mini" / "decks" / "mini" / "game.yaml")
        .read_text(encoding="utf-8")
        .replace("[en, vi]", "[en, no]")
        .replace("vi: ", "no: "),
    )
    write(project, SEER, "name: {en: Yes, no: Ja}\nteam: village\nability: {en: On., no: Off.}\n")
    write(project, "roles/wolf.yaml", "name: {en: No, no: Nei}\nteam: wolves\nability: {en: Off, no: On}\n")
    result = validate(project)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "1 game valid\n", "")
    built = run("build", "--decks", str(project / "decks"), "--out", str(project / "out"), "--lang", "en")
    assert built.exit_code == 0, built.output
    text = pdf_text(project / "out" / "mini" / "mini-cards-en.pdf")
    assert "Yes" in text and "No" in text and "True" not in text and "False" not in text


def test_new_game_in_english_and_norwegian_validates_and_builds(tmp_path, monkeypatch):
    """`cardgen new game nordic --lang en --lang no` wrote a file with False: keys that then failed 13 times."""
    monkeypatch.chdir(tmp_path)
    made = run("new", "game", "nordic", "--lang", "en", "--lang", "no")
    assert (made.exit_code, made.stdout) == (
        0,
        "wrote decks/nordic/game.yaml\nwrote decks/nordic/roles/villager.yaml\n",
    )
    assert "languages: [en, no]" in (tmp_path / "decks" / "nordic" / "game.yaml").read_text(encoding="utf-8")
    result = run("validate", "nordic")
    assert (result.exit_code, result.stdout) == (0, "1 game valid, 6 warnings\n")
    # More than three texts untranslated: counted, the first files named, -v for each.
    assert result.stderr == (
        "warning: no 'no' text for 6 texts in 2 files, which fall back to English: decks/nordic/game.yaml:5 "
        "(name, teams.village.name, teams.wolves.name, groups.role), decks/nordic/roles/villager.yaml:6 "
        "(name, ability); -v lists each\n"
    )
    verbose = run("validate", "nordic", "-v")
    lacking = "text for {}; the card falls back to English"
    assert (verbose.exit_code, verbose.stdout) == (0, "1 game valid, 6 warnings\n")
    assert verbose.stderr == "checking nordic (en)\nchecking nordic (no)\n" + "".join(
        f"decks/nordic/{file}: warning: {owner}: no 'no' {lacking.format(key)}\n"
        for file, owner, key in [
            ("game.yaml:5", "game 'nordic'", "name"),
            ("game.yaml:12", "game 'nordic'", "teams.village.name"),
            ("game.yaml:15", "game 'nordic'", "teams.wolves.name"),
            ("game.yaml:18", "game 'nordic'", "groups.role"),
            ("roles/villager.yaml:6", "card 'villager'", "name"),
            ("roles/villager.yaml:12", "card 'villager'", "ability"),
        ]
    )
    built = run("build", "nordic", "--lang", "no")
    assert built.exit_code == 0, built.output
    assert "Say what the Villager does" in pdf_text(tmp_path / "output" / "nordic" / "nordic-cards-no.pdf")
    strict = run("validate", "nordic", "--strict")
    assert strict.exit_code == 1 and strict.stderr.endswith("\n6 warnings (fails with --strict)\n")


def test_new_game_with_a_language_name_instead_of_a_code(tmp_path, monkeypatch):
    """`new game --lang English` wrote files that failed with a raw regular expression in the message."""
    monkeypatch.chdir(tmp_path)
    result = run("new", "game", "mine", "--lang", "English")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "error: Invalid value for '--lang': 'English' is not a language code: two or three "
        "lower-case letters, optionally with a region or script, like en, no, pt-BR or "
        "zh-Hant\n"
    )
    assert not (tmp_path / "decks").exists()


def test_a_language_that_is_not_a_code_in_a_game_file_is_said_in_words(project):
    write(
        project,
        "game.yaml",
        (FIXTURES / "mini" / "decks" / "mini" / "game.yaml")
        .read_text(encoding="utf-8")
        .replace("[en, vi]", "[en, English]"),
    )
    result = validate(project)
    assert result.exit_code == 1
    assert (
        "decks/mini/game.yaml:2: error: languages.1: 'English' is not a language code (two or three lower-case letters, "
        "optionally with a region or script: en, no, pt-BR, zh-Hant)"
    ) in result.stderr.splitlines()
    assert "^[a-z]" not in result.stderr


def test_new_role_leaves_the_other_languages_empty_and_validate_says_so(project):
    """`new role` filled every language with the English placeholder, so missing translations went unreported."""
    made = run("new", "role", "mini", "fox", "--decks", str(project / "decks"))
    assert made.exit_code == 0, made.output
    text = (game(project) / "roles" / "fox.yaml").read_text(encoding="utf-8")
    assert '  en: "Fox"\n  vi: ""    # TODO: translate\n' in text
    assert '  vi: ""    # TODO: translate\n' in text.split("ability:", 1)[1]
    result = validate(project)
    assert (result.exit_code, result.stdout) == (0, "1 game valid, 2 warnings\n")
    assert result.stderr == (
        "decks/mini/roles/fox.yaml:6: warning: card 'fox': no 'vi' text for name; the card falls "
        "back to English\n"
        "decks/mini/roles/fox.yaml:12: warning: card 'fox': no 'vi' text for ability; the card "
        "falls back to English\n"
    )
    built = run("build", "--decks", str(project / "decks"), "--out", str(project / "out"), "--lang", "vi")
    assert built.exit_code == 0
    assert "Say what the Fox does" in pdf_text(project / "out" / "mini" / "mini-cards-vi.pdf")


def test_one_warning_per_text_names_every_language_it_lacks(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(ROOT / "decks" / "werewolf", tmp_path / "decks" / "werewolf")
    seer = tmp_path / "decks" / "werewolf" / "roles" / "seer.yaml"
    data = yaml.safe_load(seer.read_text(encoding="utf-8"))
    data["ability"] = {"en": data["ability"]["en"], "es": ""}
    data["name"] = {"en": "Seer", "zh": "预言家"}
    seer.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = run("validate", "werewolf")
    assert result.exit_code == 0
    assert result.stderr == (
        "decks/werewolf/roles/seer.yaml:1: warning: card 'seer': no 'vi', 'es', 'ja' text for name; the card falls "
        "back to English\n"
        "decks/werewolf/roles/seer.yaml:7: warning: card 'seer': no 'vi', 'zh', 'es', 'ja' text for ability; the card "
        "falls back to English\n"
    )


# == --include =====================================================================================

RAVEN = "name: {en: Raven, vi: Quạ}\nteam: village\nability: {en: Caw., vi: Quạ quạ.}\n"


def test_a_card_straight_in_an_include_folder_is_read_when_the_command_names_one_game(project, tmp_path):
    """DIR/raven.yaml rather than DIR/mini/roles/raven.yaml was ignored without a word."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "raven.yaml").write_text(RAVEN, encoding="utf-8")
    named = run("list", "mini", "--decks", str(project / "decks"), "--include", str(tmp_path / "mine"))
    assert named.exit_code == 0 and "raven            x1" in named.stdout
    result = validate(project, "--include", str(tmp_path / "mine"))  # every game: mini's folder is not named
    assert (result.exit_code, result.stdout) == (0, "1 game valid, 1 warning\n")
    assert result.stderr == (
        "mine/raven.yaml: warning: not read: a card file of an --include folder goes in "
        "mine/mini/roles/raven.yaml, or straight in the folder when the command names one "
        "game\n"
    )
    strict = validate(project, "--include", str(tmp_path / "mine"), "--strict")
    assert strict.exit_code == 1 and strict.stderr.endswith("\n1 warning (fails with --strict)\n")


def test_files_of_an_include_folder_that_no_game_takes_are_named_with_where_they_belong(project, tmp_path):
    mine = tmp_path / "mine"
    for name in (
        "raven.yaml",
        "mini/owl.yaml",
        "mini/roles/fox.yaml",
        "mnii/roles/bat.yaml",
        "mini/roles/cat.yml",
        ".github/workflows/ci.yaml",
        "mini/art/fox.png",
    ):
        (mine / name).parent.mkdir(parents=True, exist_ok=True)
        (mine / name).write_text(RAVEN, encoding="utf-8")
    result = run("validate", "mini", "--decks", str(project / "decks"), "--include", str(mine))
    assert (result.exit_code, result.stdout) == (0, "1 game valid, 4 warnings\n")
    assert result.stderr == (
        "mine/mini/owl.yaml: warning: not read: an --include folder adds cards only, as mine/mini/roles/owl.yaml\n"
        "mine/mini/roles/cat.yml: warning: cat.yml is not read: cardgen reads .yaml files; rename it to cat.yaml\n"
        "mine/mnii/roles/bat.yaml: warning: not read: no game 'mnii' (did you mean 'mini'?) for the cards of "
        "mine/mnii; games here: mini\n"
        "mine/raven.yaml: warning: not read: a card file of an --include folder goes in mine/mini/roles/raven.yaml\n"
    )


# == texts cardgen would print wrong ===============================================================


@pytest.mark.parametrize(
    "text,script,char,needs",
    [
        ("ผู้หยั่งรู้", "Thai", "ผ' U+0E1C", "stacked vowel and tone marks"),
        ("মন পড়া", "Bengali", "ম' U+09AE", "conjuncts and vowel signs"),
    ],
    ids=["thai", "bengali"],
)
def test_text_in_a_script_that_needs_shaping_is_an_error_naming_the_language_and_the_script(
    project, text, script, char, needs
):
    """Arabic printed unjoined and left to right, yet validate said "1 game valid". cardgen shapes Arabic,
    Hebrew and Devanagari now; the scripts it has no fonts or rules for are still refused."""
    seer_ability(project, "Look.", f"Xem: {text}")
    result = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        (
            f"decks/mini/roles/seer.yaml:5: error: ability.vi: the 'vi' text is in {script} script ('{char}), which needs "
            f"shaping ({needs}): cardgen has no font and shaping rules for it yet; see the scripts cardgen prints in "
            "docs/designing.md\n"
            "1 error\n"
        ),
    )


@pytest.mark.parametrize(
    "text",
    [
        "Ночная деревня",
        "Ἀθῆναι",
        "Սուրբ",
        "ქართული",
        "ሰላም",
        "夜の村",
        "밤의 마을",
        "قراءة الأفكار",
        "ذهن‌خوان",
        "קורא מחשבות",
        "मन पढ़ने वाला",
    ],
    ids=[
        "cyrillic",
        "greek",
        "armenian",
        "georgian",
        "ethiopic",
        "japanese",
        "korean",
        "arabic",
        "persian",
        "hebrew",
        "devanagari",
    ],
)
def test_scripts_cardgen_prints_pass_the_shaping_check(text):
    from cardgen.text.writing import unsupported

    assert unsupported(text) is None


def test_a_misspelt_icon_and_an_unclosed_bold_are_warnings_with_file_and_line(project):
    """A misspelt icon (:seeer:) or an unclosed ** printed silently."""
    write(
        project,
        "roles/wolf.yaml",
        "name: {en: Wolf, vi: Sói}\nteam: wolves\nsymbol: symbols/wolf.svg\n"
        "ability:\n  en: |\n    Wake with the :wolf: pack.\n"
        "    The :wofl: **sees all.\n  vi: Cắn.\n",
    )
    result = validate(project)
    lines = (
        "decks/mini/roles/wolf.yaml:7: warning: ability.en: ':wofl:' is no card's icon (did you mean 'wolf'?); "
        "it prints as written (only cards with an SVG symbol have one)\n"
        "decks/mini/roles/wolf.yaml:7: warning: ability.en: '**' opens bold that is never closed; it prints as "
        "written\n"
    )
    assert (result.exit_code, result.stdout, result.stderr) == (0, "1 game valid, 2 warnings\n", lines)
    strict = validate(project, "--strict")
    assert (strict.exit_code, strict.stderr) == (1, lines + "2 warnings (fails with --strict)\n")


def test_a_lone_asterisk_and_a_time_are_not_warned_about(project):
    seer_ability(project, "Count 2 * 3 players at 10:30: ok.")
    result = validate(project)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "1 game valid\n", "")


# == setups ========================================================================================

GAME_WITH_SETUP = (FIXTURES / "mini" / "decks" / "mini" / "game.yaml").read_text(encoding="utf-8") + (
    "setups:\n  standard:\n    players: [3]\n    cards: {wolf: 1, seer: 1}\n    extra: 1\n"
)


def test_extra_cards_in_a_setup_without_fill_are_reported(project):
    """`extra:` in a setup without `fill` was ignored silently."""
    write(project, "game.yaml", GAME_WITH_SETUP)
    result = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        (
            "decks/mini/game.yaml:17: error: setups.standard.extra: extra cards are dealt only with `fill` (the card that takes "
            "the seats left over): add a fill, or take extra out\n1 error\n"
        ),
    )


def test_a_setup_for_a_game_without_setups_is_an_error(project):
    """`--setup nope` without `--players` was accepted silently."""
    result = run("build", "--decks", str(project / "decks"), "--out", str(project / "out"), "--setup", "nope")
    assert result.exit_code == 1
    assert result.stderr == (
        "decks/mini/game.yaml:1: error: mini has no setups (game.yaml: setups), so it cannot be dealt "
        "for a table: build it for the whole box\n1 error\n"
    )
    assert not (project / "out").exists()


def test_with_without_a_table_is_an_error(project):
    result = run("build", "--decks", str(project / "decks"), "--out", str(project / "out"), "--with", "seer")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "error: --with adds a card to a setup's row: give --players N or --setup NAME too "
        "(without a table the build covers every card)\n"
    )
    assert not (project / "out").exists()


# == commands ======================================================================================


def test_watch_of_a_game_that_is_not_there_is_an_error_before_watching(project):
    """`cardgen watch werwolf` looped for ever on "not built; watching for changes"."""
    process = subprocess.run(
        [sys.executable, "-m", "cardgen", "watch", "mnii", "--decks", str(project / "decks")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (process.returncode, process.stdout, process.stderr) == (
        1,
        "",
        "decks: error: no game 'mnii' (did you mean 'mini'?); games here: mini\n1 error\n",
    )


def test_quiet_and_verbose_and_the_last_line(project):
    """Warnings scrolled away above up to 48 file paths, and "N problems" mixed errors and warnings."""
    seer_ability(project, "Look at :wofl: now.")
    out = str(project / "out")
    build = ["build", "--decks", str(project / "decks"), "--out", out]
    normal = run(*build)
    warning = (
        "decks/mini/roles/seer.yaml:4: warning: ability.en: ':wofl:' is no card's icon (did you mean 'wolf'?); "
        "it prints as written (only cards with an SVG symbol have one)\n"
    )
    assert normal.exit_code == 0
    # The warning comes after the list of files, just above the summary, which counts it.
    assert normal.stderr.endswith(warning)
    assert re.fullmatch(r"(.*\.pdf\n){2}2 files, 4 pages, 6 cards on 2 sheets in \d+\.\d s, 1 warning\n", normal.stdout)
    quiet = run(*build, "--force", "-q")
    assert quiet.stderr == warning
    assert re.fullmatch(r"2 files, 4 pages, 6 cards on 2 sheets in \d+\.\d s, 1 warning\n", quiet.stdout)
    verbose = run(*build, "-v")
    assert verbose.stderr == warning  # nothing to build: no progress
    assert re.fullmatch(
        r"(.*\.pdf \(up to date\)\n){2}up to date \(2 files\) in \d+\.\d s, 1 warning\n", verbose.stdout
    )
    assert (validate(project, "-v").stderr, validate(project, "-q").stdout) == (
        "checking mini (en)\nchecking mini (vi)\n" + warning,
        "1 game valid, 1 warning\n",
    )
    both = run(*build, "-q", "-v")
    assert both.exit_code == 2 and both.stderr.endswith("error: -q and -v are opposites; give one of them\n")


def test_errors_and_warnings_are_counted_apart(project):
    write(project, SEER, "name: {en: Seer}\nteam: vilage\nability: {en: Look., vi: Xem.}\ncolour: blue\n")
    result = validate(project)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == "1 error, 2 warnings"


def test_quiet_leaves_out_notes(project, tmp_path):
    (tmp_path / "mine" / "mini" / "roles").mkdir(parents=True)
    shutil.copy(game(project) / SEER, tmp_path / "mine" / "mini" / "roles" / "seer.yaml")
    loud = validate(project, "--include", str(tmp_path / "mine"))
    assert (loud.stdout, loud.stderr) == (
        "1 game valid, 1 note\n",
        "mine/mini/roles/seer.yaml:1: note: card 'seer' replaces the one in decks/mini/roles/seer.yaml\n",
    )
    quiet = validate(project, "--include", str(tmp_path / "mine"), "-q")
    assert (quiet.stdout, quiet.stderr) == ("1 game valid\n", "")


# == the preview gallery ===========================================================================


def test_the_gallery_lists_each_game_once_and_names_it_in_each_language(project, tmp_path):
    """The gallery listed each game once per language name and showed "Hombres Lobo" for the Chinese view."""
    out = tmp_path / "preview-out"
    result = run("preview", "--decks", str(project / "decks"), "--out", str(out), "--dpi", "30")
    assert result.exit_code == 0, result.output
    page = (out / "preview" / "index.html").read_text(encoding="utf-8")
    game_select = re.search(r'<select data-filter="game">(.*?)</select>', page, re.S).group(1)
    options = re.findall(r'<option value="(\w*)"(?: data-names="([^"]*)")?>([^<]*)</option>', game_select)
    assert [(value, text) for value, _, text in options] == [("", "all"), ("mini", "Mini")]
    names = json.loads(options[1][1].replace("&#34;", '"'))
    assert names == {"en": "Mini", "vi": "Trò Nhỏ"}
    assert "names[lang] || Object.values(names)[0]" in page


# == write.py: a liveness check that is portable ===================================================


class _Kernel32:
    """Stands in for Windows' kernel32 in the liveness check."""

    def __init__(self, handle: int, code: int):
        self.handle, self.code, self.closed = handle, code, False

    def OpenProcess(self, access, inherit, pid):  # noqa: N802 - the Windows names
        return self.handle

    def GetExitCodeProcess(self, handle, pointer):  # noqa: N802
        pointer._obj.value = self.code
        return 1

    def CloseHandle(self, handle):  # noqa: N802
        self.closed = True


@pytest.mark.parametrize(
    "handle,code,error,alive",
    [(7, writer.STILL_ACTIVE, 0, True), (7, 0, 0, False), (0, 0, writer.ERROR_ACCESS_DENIED, True), (0, 0, 87, False)],
    ids=["running", "ended", "another-user-s", "no-such-process"],
)
def test_on_windows_a_process_is_asked_for_its_exit_code_not_killed(monkeypatch, handle, code, error, alive):
    """os.kill(pid, 0) on Windows ends the process: the check must not call it."""
    kernel32 = _Kernel32(handle, code)
    monkeypatch.setattr(writer.os, "kill", lambda *args: pytest.fail("os.kill called"))
    assert writer._alive_windows(1234, kernel32, lambda: error) is alive
    assert kernel32.closed == bool(handle)


def test_os_name_picks_the_liveness_check(monkeypatch):
    asked = []
    monkeypatch.setattr(writer, "_alive_windows", lambda pid: asked.append(("nt", pid)) or True)
    monkeypatch.setattr(writer.os, "name", "nt")
    assert writer._alive(42) and asked == [("nt", 42)]
