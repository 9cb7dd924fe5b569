"""Markup escapes: `\\*`, `\\:` and `\\\\` print the character after the backslash, and never the
backslash, on the cards, in the rulebook and the script, on the narrator page and in Chinese; they are
no warning, so `validate --strict` passes; YAML's double quotes, which read backslashes first, say
what to write instead."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest

from conftest import FIXTURES, run
from narrator_browser import browser, needs_browser, script_view

GAME = """\
name: {en: Stars, zh: 星星}
languages: [en, zh]
teams:
  village: {name: {en: Village, zh: 村民}, color: "#2f6b3a"}
  wolves: {name: {en: Wolves, zh: 狼人}, color: "#8c1c13"}
groups:
  role: {en: Role, zh: 角色}
"""
WOLF = """\
name: {en: Wolf, zh: 狼}
team: wolves
symbol: symbols/wolf.svg
ability: {en: "Wake with the other :wolf: wolves.", zh: "与其他狼人一同睁眼。"}
night:
  order: 10
  script:
    say: {en: "Wolves, open your eyes.", zh: "狼人请睁眼。"}
"""
# The three ways to write an escape in YAML: plain, in single quotes, and doubled in double quotes.
SEER = """\
name: {en: Seer, zh: 预言家}
team: village
ability:
  en: 'Each night\\*, look at **one** card. A \\\\ is a backslash, \\:wolf: no icon.'
  zh: '每晚\\*查看**一张**牌。\\:wolf:'
night:
  order: 20
  script:
    say: {en: "Seer\\\\*, open your eyes.", zh: 预言家\\*，请睁眼。}
"""
SCRIPT = """\
title: {en: Script, zh: 主持稿}
versions:
  plain:
    name: {en: Plain, zh: 基本}
    phases:
      - title: {en: First night, zh: 第一夜}
        kind: first-night
        steps:
          - roles: first-night
"""
RULEBOOK = """\
players: {min: 3, max: 6}
minutes: {min: 10, max: 20}
sections:
  goal:
    title: {en: Goal, zh: 目标}
    body: {en: 'Roles marked \\* wake later.', zh: 标有\\*的角色晚些醒来。}
"""


def stars(root: Path) -> Path:
    """A project with one game whose texts escape a `*`, a `:` and a backslash in every kind of document."""
    folder = root / "decks" / "stars"
    (folder / "roles").mkdir(parents=True)
    (folder / "symbols").mkdir()
    shutil.copy(FIXTURES / "mini" / "decks" / "mini" / "symbols" / "wolf.svg", folder / "symbols")
    for name, text in {
        "game.yaml": GAME,
        "roles/wolf.yaml": WOLF,
        "roles/seer.yaml": SEER,
        "script.yaml": SCRIPT,
        "rulebook.yaml": RULEBOOK,
    }.items():
        (folder / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = stars(tmp_path_factory.mktemp("stars"))
    out = root / "out"
    result = run("build", "stars", "--decks", str(root / "decks"), "--out", str(out))
    assert result.exit_code == 0, result.output + result.stderr
    return out / "stars"


def text_of(pdf: Path) -> str:
    with pdfplumber.open(pdf) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages)


def test_validate_strict_passes_with_escapes_in_plain_single_and_double_quoted_texts(tmp_path):
    root = stars(tmp_path)
    result = run("validate", "stars", "--decks", str(root / "decks"), "--strict")
    assert result.exit_code == 0, result.output + result.stderr
    assert "warning" not in result.output + result.stderr


def test_an_escape_yaml_does_not_know_in_double_quotes_says_what_to_write(tmp_path):
    root = stars(tmp_path)
    seer = root / "decks" / "stars" / "roles" / "seer.yaml"
    seer.write_text(SEER.replace('"Seer\\\\*, open', '"Seer\\*, open'), encoding="utf-8")
    result = run("validate", "stars", "--decks", str(root / "decks"))
    assert result.exit_code == 1
    assert (
        "roles/seer.yaml:9: error: YAML error: while parsing a quoted scalar found unknown escape character '\\*': "
        "in double quotes write \\\\* for the markup's \\*, or write the text in single quotes or none"
    ) in result.output + result.stderr


@pytest.mark.parametrize(
    ("kind", "lang", "expected"),
    [
        ("cards", "en", ["Each night*, look at one card.", "A \\ is a backslash, :wolf: no"]),
        ("cards", "zh", ["每晚*查看一张牌。:wolf:"]),
        ("rulebook", "en", ["Roles marked * wake later.", "Each night*, look at one card."]),
        ("rulebook", "zh", ["标有*的角色晚些醒来。", "每晚*查看一张牌。:wolf:"]),
        ("script", "en", ["Seer*, open your eyes."]),
        ("script", "zh", ["预言家*，请睁眼。"]),
    ],
)
def test_an_escaped_character_prints_without_its_backslash(built, kind, lang, expected):
    text = text_of(built / f"stars-{kind}-{lang}.pdf")
    for line in expected:
        assert line in text
    # The one backslash printed is the escaped one.
    assert text.count("\\") == (1 if (kind, lang) in {("cards", "en"), ("rulebook", "en")} else 0)


def test_the_escaped_bold_stays_bold_beside_the_literal_asterisk(built):
    with pdfplumber.open(built / "stars-cards-en.pdf") as doc:
        chars = doc.pages[0].chars
    line = "".join(c["text"] for c in chars)
    start = line.index("Each night*, look at one")
    bold = {c["text"] for c in chars[start + len("Each night*, look at ") :][:3] if "Bold" in c["fontname"]}
    assert bold == set("one")
    assert "Bold" not in chars[start + len("Each night")]["fontname"]


def test_a_chinese_line_never_starts_with_an_escaped_asterisk():
    from cardgen.text.linebreak import line_ranges

    text = "每晚*查看"
    # Room for exactly two characters: "*" would start the second line, so "晚" goes down with it.
    ranges, _ = line_ranges(text, [10.0] * len(text), 20.0)
    lines = [text[start:end] for start, end in ranges]
    assert lines == ["每", "晚*", "查看"]


@needs_browser
def test_the_narrator_page_prints_the_escaped_character_without_its_backslash(built, tmp_path):
    for lang, line in (("en", "Seer*, open your eyes."), ("zh", "预言家*，请睁眼。")):
        with browser(tmp_path / f"profile-{lang}") as session:
            page = session.open(built / f"stars-narrator-{lang}.html")
            texts = [text for _, steps in script_view(page) for *_, text in steps]
            assert line in texts, texts
            assert not any("\\" in text or "\ufdd1" in text for text in texts)
            assert not session.errors
