"""Stage 1: YAML in, data with the line of every value out; never an exception."""

from __future__ import annotations

import pytest

from cardgen.core import yaml12
from cardgen.deck.yaml_doc import load_file

ROLE = """\
name: {en: Seer, vi: Tiên tri}
ability:
  en: |
    First line
    Second line with ᚠ
night:
  order: first
"""


def test_every_value_has_its_line(tmp_path):
    path = tmp_path / "seer.yaml"
    path.write_text(ROLE, encoding="utf-8")
    doc, problems = load_file(path, "roles/seer.yaml")
    assert problems == []
    assert str(doc.where(("night", "order"))) == "roles/seer.yaml:7"
    assert str(doc.where(("name", "vi"))) == "roles/seer.yaml:1"
    assert str(doc.where(("night",))) == "roles/seer.yaml:6"
    # A path that does not exist is placed at its nearest parent.
    assert str(doc.where(("night", "order", "deeper"))) == "roles/seer.yaml:7"


def test_block_scalar_gives_the_exact_line_of_a_character(tmp_path):
    path = tmp_path / "seer.yaml"
    path.write_text(ROLE, encoding="utf-8")
    doc, _ = load_file(path, "seer.yaml")
    assert doc.text_line(("ability", "en"), 0) == 4
    assert doc.text_line(("ability", "en"), 1) == 5
    assert doc.text_line(("name", "en"), 3) == 1  # flow style: the value's own line is all we know


def test_tags_beyond_plain_yaml_are_refused_not_run(tmp_path):
    path = tmp_path / "evil.yaml"
    marker = tmp_path / "ran"
    path.write_text(f'x: !!python/object/apply:os.system ["touch {marker}"]\n', encoding="utf-8")
    doc, problems = load_file(path, "evil.yaml")
    assert doc is None
    assert [str(p) for p in problems] == [
        "evil.yaml:1: error: YAML error: could not determine a constructor for the tag "
        "'tag:yaml.org,2002:python/object/apply:os.system'"
    ]
    assert not marker.exists()


def test_not_utf8_is_a_problem(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("count: 1\nname: {en: Se\xf1or}\n".encode("latin-1"))
    doc, problems = load_file(path, "latin1.yaml")
    assert doc is None
    assert [str(p) for p in problems] == ["latin1.yaml:2: error: not UTF-8 text (byte 0xF1); save the file as UTF-8"]


def test_empty_file_loads_as_nothing(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("", encoding="utf-8")
    doc, problems = load_file(path, "empty.yaml")
    assert (doc.data, problems) == (None, [])


@pytest.mark.parametrize(
    "text",
    [
        ROLE,
        "count: 3\nfloat: 1.5\nyes: no\non: [true, False, null, ~, '', 010, 0x1F, 0o17, -2, .inf]\n",
        "base: &b {team: village, count: 2}\nseer:\n  <<: *b\n  count: 1\nlist: [*b, *b]\n",
        "a: !!str 12\nb: !!float 3\nkey: 1\nkey: 2\n",
        "? [x, y]\n: complex key\n",
        "- a\n- {b: [c, {d: e}]}\n- 2024-01-01\n- 1:30\n",
    ],
)
def test_the_data_is_what_pypyaml_makes_of_the_file(tmp_path, text):
    """load_file makes a plain file's data without PyYAML's constructor, and leaves anchors, merge
    keys, explicit tags and complex keys to it: the data must be the YAML 1.2 loader's either way."""
    path = tmp_path / "file.yaml"
    path.write_text(text, encoding="utf-8")
    doc, _ = load_file(path, "file.yaml")
    expected = yaml12.safe_load(text) if "? [x, y]" not in text else None
    if expected is None:  # a list as a key: PyYAML refuses it, and so must load_file
        assert doc is None
    else:
        assert repr(doc.data) == repr(expected)


def test_a_duplicate_key_is_said_and_the_data_keeps_the_last_value(tmp_path):
    """As PyYAML's constructor: the data has the last value; the positions are the first's, where the
    designer looks first, and the second value's own duplicates are not said twice over."""
    path = tmp_path / "seer.yaml"
    path.write_text("night:\n  order: 1\nnight:\n  order: 2\n  order: 3\nteam: village\n", encoding="utf-8")
    doc, problems = load_file(path, "seer.yaml")
    assert doc.data == {"night": {"order": 3}, "team": "village"}
    assert [str(p) for p in problems] == ["seer.yaml:3: error: duplicate key 'night' (first at line 1)"]
    assert str(doc.where(("night", "order"))) == "seer.yaml:2"
    assert str(doc.where(("team",))) == "seer.yaml:6"


def test_a_control_character_beside_a_backslash_that_is_no_escape_is_said(tmp_path):
    """Outside double quotes a backslash is a letter: \\UFFFFFFFF there, no character's code, stopped
    load_file with an OverflowError instead of saying where the tab is."""
    path = tmp_path / "seer.yaml"
    path.write_text("team: village\nability: {en: 'Look\tnow \\UFFFFFFFF.'}\n", encoding="utf-8")
    doc, problems = load_file(path, "seer.yaml")
    assert doc.data["ability"] == {"en": "Look\tnow \\UFFFFFFFF."}
    assert [str(p) for p in problems] == [
        "seer.yaml:2: error: ability.en: control character U+0009 (tab) in the text; deck texts may hold "
        "line breaks but no other control characters"
    ]
