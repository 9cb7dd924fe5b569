"""`cardgen translate`: the PO file a game exports (read back with polib), the translations an import writes
into the YAML (whole files compared), the round trip that changes no byte, what an import refuses or
leaves out with its exact message, and the share of each language that status counts."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
import pypdfium2 as pdfium
import pytest

from conftest import FIXTURES, ROOT, run


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """Each test runs in its own folder, where its PO files are: messages name them as `ja.po`."""
    monkeypatch.chdir(tmp_path)


def _project(tmp_path: Path, *games: str) -> Path:
    """A project of bundled games (or the mini fixture) with its own copy of cardgen's templates, so that
    an import of cardgen's words writes there, never into the repository."""
    root = tmp_path / "project"
    for game in games:
        source = FIXTURES / "mini" / "decks" / "mini" if game == "mini" else ROOT / "decks" / game
        shutil.copytree(source, root / "decks" / game)
    shutil.copytree(ROOT / "templates", root / "templates")
    return root


def _files(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def _export(root: Path, game: str, lang: str, out: Path) -> polib.POFile:
    result = run("translate", "export", game, "--lang", lang, "--decks", str(root / "decks"), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{out}\n"
    return polib.pofile(str(out))


def _import(root: Path, po: Path):
    return run("translate", "import", po.name, "--decks", str(root / "decks"))


def _entry(catalog: polib.POFile, key: str) -> polib.POEntry:
    (found,) = [entry for entry in catalog if entry.msgctxt == key]
    return found


def test_the_po_file_holds_each_text_with_its_english_translation_place_and_card(tmp_path):
    root = _project(tmp_path, "werewolf")
    catalog = _export(root, "werewolf", "vi", tmp_path / "werewolf-vi.po")
    assert catalog.metadata["Language"] == "vi"
    assert catalog.metadata["Content-Type"] == "text/plain; charset=UTF-8"
    assert catalog.metadata["Plural-Forms"] == "nplurals=1; plural=0;"
    assert catalog.metadata["X-Cardgen-Game"] == "werewolf"
    seer = _entry(catalog, "roles/seer.yaml:ability")
    assert seer.msgid == (
        "Each night, point at one player and the moderator secretly shows you their card. Use what you learn "
        "to guide the village, but take care not to give yourself away."
    )
    assert seer.msgstr.startswith("Mỗi đêm, bạn chỉ vào một người chơi")
    assert seer.occurrences == [("decks/werewolf/roles/seer.yaml", "6")]
    assert seer.comment == "card Seer"
    assert not seer.fuzzy
    say = _entry(catalog, "roles/seer.yaml:night.script.say")
    assert (say.msgid, say.occurrences) == (
        "Point at the player whose card you want to see.",
        [("decks/werewolf/roles/seer.yaml", "17")],
    )
    goal = _entry(catalog, "rulebook.yaml:sections.goal.title")
    assert (goal.msgid, goal.msgstr, goal.comment) == ("Goal", "Mục tiêu", "rulebook section Goal")
    fronts = _entry(catalog, "templates/strings.yaml:fronts")
    assert (fronts.msgid, fronts.msgstr, fronts.occurrences) == (
        "fronts",
        "mặt trước",
        [("templates/strings.yaml", "5")],
    )
    sheets = _entry(catalog, "templates/documents/text.yaml:sheets")
    assert (sheets.msgid, sheets.msgid_plural) == ("one sheet of {paper}", "{count} sheets of {paper}")
    assert sheets.msgstr_plural == {0: "{count} tờ giấy {paper}"} and "python-brace-format" in sheets.flags
    keys = [entry.msgctxt for entry in catalog]
    assert len(keys) == len(set(keys))
    # The same English in two places is two entries: each goes back to its own place.
    assert len({entry.msgid for entry in catalog}) < len(keys)


def test_a_language_no_game_has_exports_every_text_untranslated(tmp_path):
    root = _project(tmp_path, "werewolf")
    catalog = _export(root, "werewolf", "ko", tmp_path / "ko.po")
    assert catalog.metadata["Language"] == "ko" and len(catalog) > 300
    assert all(entry.msgstr == "" and set(entry.msgstr_plural.values()) <= {""} for entry in catalog)
    assert catalog.percent_translated() == 0


def test_the_default_po_file_is_game_lang_po_in_the_working_folder(tmp_path):
    root = _project(tmp_path, "mini")
    result = run("translate", "export", "mini", "--lang", "es", "--decks", str(root / "decks"))
    assert (result.exit_code, result.stdout) == (0, "mini-es.po\n")
    assert result.stderr == "213 texts to translate into 'es', 202 of them already translated\n"
    assert polib.pofile(str(tmp_path / "mini-es.po")).metadata["Language"] == "es"


@pytest.mark.parametrize("lang", ["vi", "ja"])
def test_export_and_import_unchanged_change_no_byte(tmp_path, lang):
    games = ("werewolf", "werewords", "salem-1692", "mafia-vendetta")
    root = _project(tmp_path, *games)
    before = _files(root)
    for game in games:
        _export(root, game, lang, tmp_path / f"{game}.po")
        result = _import(root, tmp_path / f"{game}.po")
        assert result.exit_code == 0, result.stderr
        assert result.stdout.endswith(" stale\n") and result.stdout.startswith("0 written, ")
    assert _files(root) == before


def test_a_filled_translation_changes_that_value_alone_keeping_the_file_around_it(tmp_path):
    root = _project(tmp_path, "werewolf")
    catalog = _export(root, "werewolf", "ko", tmp_path / "ko.po")
    _entry(catalog, "roles/witch.yaml:night.script.say").msgstr = "희생자는 이 사람입니다."
    _entry(catalog, "roles/witch.yaml:name").msgstr = "마녀"
    _entry(catalog, "templates/strings.yaml:fronts").msgstr = "앞면"
    _entry(catalog, "templates/documents/text.yaml:sheets").msgstr_plural = {0: "{paper} {count}장"}
    catalog.save()
    before = _files(root)
    result = _import(root, tmp_path / "ko.po")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "decks/werewolf/game.yaml\ndecks/werewolf/roles/witch.yaml\ntemplates/documents/text.yaml\n"
        "templates/strings.yaml\n4 written, 0 unchanged, 0 stale\n"
    )
    assert result.stderr == "'ko' added to the languages of decks/werewolf/game.yaml\n"
    after = _files(root)
    changed = {name for name in after if after[name] != before[name]}
    assert changed == {
        "decks/werewolf/game.yaml",
        "decks/werewolf/roles/witch.yaml",
        "templates/strings.yaml",
        "templates/documents/text.yaml",
    }
    witch = before["decks/werewolf/roles/witch.yaml"].decode()
    # Each new text goes after the file's last language, Japanese here.
    expected = witch.replace('ja: "魔女"}', 'ja: "魔女", ko: "마녀"}').replace(
        '何もしなくてもかまいません。"\n', '何もしなくてもかまいません。"\n      ko: "희생자는 이 사람입니다."\n'
    )
    assert after["decks/werewolf/roles/witch.yaml"].decode() == expected
    assert "# The narrator page: each potion once a game" in expected
    game = before["decks/werewolf/game.yaml"].decode()
    assert after["decks/werewolf/game.yaml"].decode() == game.replace(
        "languages: [en, vi, zh, es, ja]\n", "languages: [en, vi, zh, es, ja, ko]\n"
    )
    strings = before["templates/strings.yaml"].decode()
    assert after["templates/strings.yaml"].decode() == strings + 'ko:\n  fronts: "앞면"\n'
    text = before["templates/documents/text.yaml"].decode()
    assert after["templates/documents/text.yaml"].decode() == text + 'ko:\n  sheets:\n    other: "{paper} {count}장"\n'


def test_an_import_replaces_a_translation_in_the_style_it_is_written(tmp_path):
    root = _project(tmp_path, "mini")
    catalog = _export(root, "mini", "vi", tmp_path / "vi.po")
    _entry(catalog, "roles/wolf.yaml:ability").msgstr = "Mỗi đêm, bầy sói chọn **một người**.\nThắng khi đủ sói.\n"
    _entry(catalog, "roles/wolf.yaml:name").msgstr = "Chó sói"
    catalog.save()
    before = (root / "decks/mini/roles/wolf.yaml").read_text(encoding="utf-8")
    result = _import(root, tmp_path / "vi.po")
    assert (result.exit_code, result.stdout) == (0, "decks/mini/roles/wolf.yaml\n2 written, 208 unchanged, 0 stale\n")
    assert (root / "decks/mini/roles/wolf.yaml").read_text(encoding="utf-8") == before.replace(
        "vi: Sói}", "vi: Chó sói}"
    ).replace(
        "    Mỗi đêm, bầy sói chọn **một người** để loại.\n    Thắng khi số sói bằng số người còn lại.\n",
        "    Mỗi đêm, bầy sói chọn **một người**.\n    Thắng khi đủ sói.\n",
    )


def test_the_imported_value_reaches_the_cards(tmp_path):
    root = _project(tmp_path, "mini")
    catalog = _export(root, "mini", "vi", tmp_path / "vi.po")
    _entry(catalog, "roles/seer.yaml:name").msgstr = "Nhà tiên tri"
    catalog.save()
    assert _import(root, tmp_path / "vi.po").exit_code == 0
    out = tmp_path / "out"
    result = run("build", "mini", "--lang", "vi", "--only", "cards", "--decks", str(root / "decks"), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    pdf = pdfium.PdfDocument(str(out / "mini" / "mini-cards-vi.pdf"))
    assert "Nhà tiên tri" in "".join(page.get_textpage().get_text_range() for page in pdf)


def test_a_translation_of_english_that_changed_since_the_export_is_stale(tmp_path):
    root = _project(tmp_path, "mini")
    catalog = _export(root, "mini", "ko", tmp_path / "ko.po")
    _entry(catalog, "roles/seer.yaml:ability").msgstr = "매일 밤 한 사람의 카드를 본다."
    catalog.save()
    seer = root / "decks/mini/roles/seer.yaml"
    seer.write_text(seer.read_text(encoding="utf-8").replace("look at one", "look at any"), encoding="utf-8")
    before = _files(root)
    result = _import(root, tmp_path / "ko.po")
    line = _entry(polib.pofile(str(tmp_path / "ko.po")), "roles/seer.yaml:ability").linenum
    assert (result.exit_code, result.stdout) == (0, "0 written, 0 unchanged, 1 stale\n")
    assert result.stderr == (
        f"ko.po:{line}: warning: roles/seer.yaml:ability: the English at "
        "decks/mini/roles/seer.yaml:5 changed since the export; not written (export again and translate the new text)\n"
    )
    assert _files(root) == before


def test_fuzzy_entries_and_a_partly_translated_list_are_left_out(tmp_path):
    root = _project(tmp_path, "mini")
    catalog = _export(root, "mini", "ko", tmp_path / "ko.po")
    fuzzy = _entry(catalog, "roles/seer.yaml:name")
    fuzzy.msgstr, fuzzy.flags = "예언자", ["fuzzy"]
    _entry(catalog, "templates/site/text.yaml:guide.0").msgstr = "100 %로 인쇄한다."
    catalog.save()
    before = _files(root)
    result = _import(root, tmp_path / "ko.po")
    po = "ko.po"
    assert (result.exit_code, result.stdout) == (0, "0 written, 0 unchanged, 0 stale, 2 left out\n")
    guide = _entry(polib.pofile("ko.po"), "templates/site/text.yaml:guide.0").linenum
    assert result.stderr == (
        f"{po}:{fuzzy.linenum}: warning: roles/seer.yaml:name: marked fuzzy (needs review), not written\n"
        f"{po}:{guide}: warning: templates/site/text.yaml:guide: a list is written whole, and 4 items of its 5 "
        "are not translated; not written\n"
    )
    assert _files(root) == before


def test_a_broken_po_file_is_an_error_at_its_line(tmp_path):
    root = _project(tmp_path, "mini")
    broken = tmp_path / "broken.po"
    broken.write_text('msgid ""\nmsgstr ""\n"Language: ja\\n"\n\nthis is no PO entry\n', encoding="utf-8")
    result = _import(root, broken)
    assert (result.exit_code, result.stdout) == (1, "")
    assert (
        result.stderr == "broken.po:5: error: not a readable PO file: a line that is no part of a PO entry\n1 error\n"
    )
    broken.write_text('msgid ""\nmsgstr ""\n"Language: ja\\n"\n\nmsgid "Seer"\nmsgstr "占い師"\n', encoding="utf-8")
    result = _import(root, broken)
    assert (result.exit_code, result.stderr) == (
        1,
        "broken.po:1: error: the PO file's header has no X-Cardgen-Game: import a file cardgen translate exported\n"
        "1 error\n",
    )


def test_keys_the_project_no_longer_has_stop_the_import_naming_each(tmp_path):
    root = _project(tmp_path, "mini")
    catalog = _export(root, "mini", "ja", tmp_path / "ja.po")
    _entry(catalog, "roles/wolf.yaml:name").msgctxt = "roles/fox.yaml:name"
    _entry(catalog, "game.yaml:teams.wolves.name").msgctxt = "game.yaml:teams.foxes.name"
    _entry(catalog, "roles/seer.yaml:name").msgstr = "占い師"
    catalog.save()
    before = _files(root)
    result = _import(root, tmp_path / "ja.po")
    read = polib.pofile(str(tmp_path / "ja.po"))
    fox, foxes = _entry(read, "roles/fox.yaml:name").linenum, _entry(read, "game.yaml:teams.foxes.name").linenum
    po = "ja.po"
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{po}:{foxes}: error: game.yaml:teams.foxes.name: no text at teams.foxes.name in game.yaml of game 'mini' "
        "(changed since the export?)\n"
        f"{po}:{fox}: error: roles/fox.yaml:name: no file roles/fox.yaml in game 'mini' (moved or renamed since "
        "the export?)\n2 errors\n"
    )
    assert _files(root) == before


def test_status_counts_each_language_and_lists_what_one_lacks(tmp_path):
    root = _project(tmp_path, "mini")
    seer = root / "decks/mini/roles/seer.yaml"
    seer.write_text(seer.read_text(encoding="utf-8").replace("  vi: Mỗi đêm, xem lá bài của một người chơi.\n", ""))
    result = run("translate", "status", "--decks", str(root / "decks"))
    assert result.exit_code == 0
    assert result.stdout.startswith(
        "mini: 8 texts\n  en     100%  8 of 8 (source)\n  vi      87%  7 of 8\ncardgen's own words: 205 texts\n"
    )
    result = run("translate", "status", "mini", "--lang", "vi", "--decks", str(root / "decks"))
    assert result.stdout == (
        "mini: 8 texts\n  vi      87%  7 of 8\n    decks/mini/roles/seer.yaml:5: ability\n"
        "cardgen's own words: 205 texts\n  vi      98%  202 of 205\n    templates/paper.yaml:5: a5.name\n"
        "    templates/paper.yaml:6: a4.name\n    templates/paper.yaml:7: a3.name\n"
    )
    result = run("translate", "status", "mini", "--lang", "ja", "--decks", str(root / "decks"))
    assert result.stdout.startswith("mini: 8 texts\n  ja       0%  0 of 8\n    decks/mini/game.yaml:1: name\n")


def test_a_list_translated_whole_is_written_as_a_list(tmp_path):
    root = _project(tmp_path, "mini")
    catalog = _export(root, "mini", "ko", tmp_path / "ko.po")
    for index in range(5):
        _entry(catalog, f"templates/site/text.yaml:guide.{index}").msgstr = f"단계 {index + 1}"
    catalog.save()
    before = (root / "templates/site/text.yaml").read_text(encoding="utf-8")
    result = _import(root, tmp_path / "ko.po")
    assert (result.exit_code, result.stdout) == (0, "templates/site/text.yaml\n5 written, 0 unchanged, 0 stale\n")
    steps = "".join(f'    - "단계 {index}"\n' for index in range(1, 6))
    assert (root / "templates/site/text.yaml").read_text(encoding="utf-8") == before + f"ko:\n  guide:\n{steps}"


def test_a_word_game_gets_the_language_once_it_has_its_word_list(tmp_path):
    root = _project(tmp_path, "werewords")
    catalog = _export(root, "werewords", "ja", tmp_path / "ja.po")
    _entry(catalog, "game.yaml:name").msgstr = "ワードウルフ"
    catalog.save()
    result = _import(root, tmp_path / "ja.po")
    assert result.exit_code == 0
    assert result.stderr == (
        "'ja' not added to the languages of decks/werewords/game.yaml: the game's word cards need "
        "words/ja.yaml, a word list of that language's own\n"
    )
    game = (root / "decks/werewords/game.yaml").read_text(encoding="utf-8")
    assert "languages: [en, vi, zh, es]\n" in game and 'es: "Werewords", ja: "ワードウルフ"}' in game


def test_an_edit_keeps_quotes_comments_and_line_ends():
    from cardgen.translate.yaml_edit import apply

    text = "a: {en: 'It''s', vi: plain}\r\n# a note\r\nb:\r\n  en: x   # kept\r\n\r\nc: 1\r\n"
    changes = [(("a", "en"), "It's new"), (("a", "vi"), "a: b"), (("b", "ja"), "二\n行\n"), (("b", "vi"), "một")]
    assert apply(text, changes) == (
        "a: {en: 'It''s new', vi: \"a: b\"}\r\n# a note\r\nb:\r\n  en: x   # kept\r\n"
        '  ja: |\r\n    二\r\n    行\r\n  vi: "một"\r\n\r\nc: 1\r\n'
    )


def test_a_block_list_grows_at_its_end_in_its_column():
    from cardgen.translate.yaml_edit import apply

    text = "languages:\n  - en   # first\n  - vi\n\nname: {en: x}\n"
    assert apply(text, [(("languages",), ["en", "vi", "ja"])]) == (
        "languages:\n  - en   # first\n  - vi\n  - ja\n\nname: {en: x}\n"
    )


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
def test_gettexts_own_check_takes_the_exported_file(tmp_path):
    """msgfmt -c: the header, the plurals, and each {placeholder} of cardgen's words kept in its translation."""
    root = _project(tmp_path, "werewolf")
    _export(root, "werewolf", "es", tmp_path / "es.po")
    done = subprocess.run(["msgfmt", "-c", "-o", "/dev/null", "es.po"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "error" not in done.stderr


def test_an_edit_the_file_has_no_place_for_is_refused():
    from cardgen.translate.yaml_edit import Unwritable, apply

    with pytest.raises(Unwritable, match=r"^a\.ja: a has no place for it$"):
        apply("a: x\n", [(("a", "ja"), "y")])


def test_a_text_twice_in_the_po_file_stops_the_import_and_obsolete_entries_are_ignored(tmp_path):
    root = _project(tmp_path, "mini")
    catalog = _export(root, "mini", "ko", tmp_path / "ko.po")
    gone = polib.POEntry(msgctxt="roles/fox.yaml:name", msgid="Fox", msgstr="여우", obsolete=True)
    catalog.append(gone)
    catalog.save()
    result = _import(root, tmp_path / "ko.po")
    assert (result.exit_code, result.stdout) == (0, "0 written, 0 unchanged, 0 stale\n")
    seer = _entry(catalog, "roles/seer.yaml:name")
    catalog.append(polib.POEntry(msgctxt=seer.msgctxt, msgid=seer.msgid, msgstr="예언자"))
    catalog.save()
    second = [entry for entry in polib.pofile("ko.po") if entry.msgctxt == seer.msgctxt][1].linenum
    result = _import(root, tmp_path / "ko.po")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"ko.po:{second}: error: roles/seer.yaml:name: a second entry of this text (the first at line "
        f"{seer.linenum})\n1 error\n"
    )


def test_every_text_replaced_with_yamls_own_characters_reads_back_as_written(tmp_path):
    """Each text of a game and of cardgen's words, whatever its style in the file (plain, quoted, a `|`
    block), replaced by one holding quotes, `#`, `: ` and a backslash: the next export has it exactly."""
    root = _project(tmp_path, "werewolf")
    catalog = _export(root, "werewolf", "es", tmp_path / "es.po")
    for entry in catalog:
        if entry.msgid_plural:
            entry.msgstr_plural = {0: "'\"# x: y\\ {count}", 1: "{count} – \"#\" \\ 'z'"}
        elif entry.msgstr.endswith("\n"):
            entry.msgstr += "  - dos: 'x' # y\n"
        else:
            entry.msgstr = (entry.msgstr or "nuevo") + " – x: 'y' \"#z\" \\"
    catalog.save()
    result = _import(root, tmp_path / "es.po")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(f"\n{len(catalog)} written, 0 unchanged, 0 stale\n")
    again = _export(root, "werewolf", "es", tmp_path / "again.po")
    assert [(e.msgctxt, e.msgstr, e.msgstr_plural) for e in again] == [
        (e.msgctxt, e.msgstr, e.msgstr_plural) for e in catalog
    ]


def test_outside_a_project_cardgens_own_games_are_not_changed(tmp_path):
    result = run("translate", "export", "werewolf", "--lang", "ja")
    assert (result.exit_code, result.stdout) == (0, "werewolf-ja.po\n")
    result = run("translate", "import", "werewolf-ja.po")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: 'werewolf' is one of cardgen's own games, which it does not change: copy it into a project with: "
        "cardgen init --from werewolf, and import there\n1 error\n",
    )


def test_an_installed_cardgens_words_are_translated_in_a_copy_of_the_project(tmp_path, monkeypatch):
    """The project has no templates/ of its own: the import copies cardgen's file there and translates the
    copy, leaving the installed one (here the repository's, standing in for it) as it was."""
    from cardgen.core import bundled

    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "mini" / "decks", root / "decks")
    catalog = _export(root, "mini", "ko", tmp_path / "ko.po")
    _entry(catalog, "templates/strings.yaml:fronts").msgstr = "앞면"
    catalog.save()
    installed = ROOT / "templates" / "strings.yaml"
    kept = installed.read_bytes()
    monkeypatch.setattr(bundled, "INSTALLED", True)
    try:
        result = _import(root, tmp_path / "ko.po")
    finally:
        changed = installed.read_bytes() != kept
        if changed:  # put back, should the import have written there
            installed.write_bytes(kept)
    assert not changed
    assert (result.exit_code, result.stdout) == (0, "templates/strings.yaml\n1 written, 0 unchanged, 0 stale\n")
    assert result.stderr == (
        "templates/strings.yaml: the project now has its own copy of cardgen's file, with the translations (it "
        "replaces cardgen's, upgrades included; send the PO file to cardgen to have them in every project)\n"
    )
    copy = (root / "templates" / "strings.yaml").read_bytes()
    assert copy == kept + 'ko:\n  fronts: "앞면"\n'.encode()
