"""Property-based hostile input: whatever a deck or the command line says, cardgen ends cleanly.

Clean means: exit 0, or exit 1 with every stderr line shaped ``file:line: message``
(or a progress line, or the ``N errors, M warnings`` summary), or, for the command line
only, click's usage error (exit 2); never an exception, never a traceback,
nothing started, nothing written outside the example's folder, and each run
within a time bound. Every example works on a fresh copy of the mini game in
its own temporary folder.

Examples are few (the whole file runs in about a minute); no example database
is kept, so that the repository stays clean: a failure prints the example and
a ``@reproduce_failure`` line to replay it.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path

import yaml
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from conftest import FIXTURES, run
from test_hostile import cli

RUN_SECONDS = 20.0  # one validate or build of the mini game takes well under a second here

FUZZ = settings(
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# A line of stderr: progress, a problem with its file (and line), a problem of a game and language,
# an option no template knows, or the summary.
_LINE = re.compile(
    r"building [\w-]+ \([^)]*\)"
    r"|(decks|templates)/[^:\n]+(:\d+)?: (error|warning|note): .*"
    r"|error: [\w-]+ \([^)]*\): .*"
    r"|error: unknown (paper|card size) .*"
    r"|\d+ errors?(, \d+ warnings?)?|\d+ warnings? \(fails with --strict\)"
)
_USAGE = re.compile(r"Usage: .*\nTry '.*' for help\.\n\nerror: .*\n", re.DOTALL)


class Example:
    """A fresh copy of the mini game as a project, in its own temporary folder."""

    def __enter__(self) -> Example:
        self._tmp = tempfile.TemporaryDirectory(prefix="cardgen-fuzz-")
        self.root = Path(self._tmp.name)
        shutil.copytree(FIXTURES / "mini", self.root / "project")
        self.project = self.root / "project"
        self.game = self.project / "decks" / "mini"
        return self

    def __exit__(self, *exc) -> None:
        self._tmp.cleanup()

    def run(self, *args: str, usage_errors: bool = False):
        """Runs cardgen on the example and checks that it ended cleanly; returns the result."""
        start = time.perf_counter()
        result, watch = cli(self.root, *args, "--decks", str(self.project / "decks"), limit=RUN_SECONDS)
        seconds = time.perf_counter() - start
        note(f"cardgen {' '.join(args)} -> exit {result.exit_code} in {seconds:.2f} s\n{result.stderr}")
        event(f"{args[0]}: exit {result.exit_code}")
        assert_clean(result, usage_errors)
        assert seconds < RUN_SECONDS
        assert watch.executed == [], watch.executed
        assert watch.outside_writes == [], watch.outside_writes
        return result

    def build(self, *options: str, usage_errors: bool = False):
        return self.run("build", "--out", str(self.root / "out"), *options, usage_errors=usage_errors)


def assert_clean(result, usage_errors: bool = False) -> None:
    assert "Traceback" not in result.output
    if usage_errors and result.exit_code == 2:
        assert _USAGE.fullmatch(result.stderr), result.stderr
        return
    assert result.exit_code in (0, 1), result.output
    for line in result.stderr.split("\n"):
        assert not line or _LINE.fullmatch(line), f"stderr line not shaped file:line: message: {line!r}"
    if result.exit_code == 1:
        assert re.fullmatch(
            r"\d+ errors?(, \d+ warnings?)?|\d+ warnings? \(fails with --strict\)",
            result.stderr.rstrip("\n").split("\n")[-1],
        ), result.stderr


# == random text as a card's name and ability ==================================================

_SPECIAL = st.sampled_from(
    [
        "<",
        ">",
        "&",
        "*",
        "**",
        "***",
        "\n",
        "\n\n",
        "\r",
        "\t",
        "\x00",
        "\x07",
        "\x1b[2J",
        "\x85",
        "\u2028",
        "\ufeff",
        "\ud800",
        "\u202e",
        "\u0301",
        "&amp;",
        "&#0;",
        "<b>",
        "</font>",
        '<font name="x">',
        "<br/>",
        '<img src="/etc/passwd"/>',
        "{{ 7*7 }}",
        "{%",
        "%}",
        "]]>",
        "\\",
        '"',
        "'",
        " ",
        "é",
        "Ế",
        "狼",
        "🐺",
        "- ",
        ":",
        "#",
    ]
)
TEXT = st.lists(st.one_of(st.text(max_size=8), _SPECIAL), max_size=10).map("".join)


@settings(FUZZ, max_examples=150)
@given(name=TEXT, ability=TEXT)
def test_any_text_as_a_card_name_and_ability_validates_and_builds_cleanly(name, ability):
    with Example() as example:
        data = {"name": {"en": name, "vi": name}, "team": "village", "ability": {"en": ability, "vi": ability}}
        (example.game / "roles" / "seer.yaml").write_text(
            yaml.safe_dump(data, allow_unicode=True, width=100_000), encoding="utf-8"
        )
        checked = example.run("validate")
        built = example.build("--lang", "en")
        # Validation runs every stage but drawing: a card that validates must build.
        if checked.exit_code == 0:
            assert built.exit_code == 0, built.stderr


# == mutated YAML ===============================================================================

MINI_FILES = {
    name: (FIXTURES / "mini" / "decks" / "mini" / name).read_text(encoding="utf-8")
    for name in ("game.yaml", "roles/seer.yaml", "roles/wolf.yaml")
}
_YAML_CHARS = ":-[]{}&*!|>'\"#%@`,?~ \t\\\nazZ09.é狼\x07\x85"
_SCALARS = [
    "[a, b]",
    "{x: y}",
    "[]",
    "{}",
    "",
    "~",
    "null",
    "0",
    "-1",
    "1e309",
    ".nan",
    ".inf",
    "yes",
    "no",
    "'*'",
    '"\\x1b[2J"',
    "!!binary aGk=",
    "!!str 1",
    "!!int x",
    "!!float x",
    "2024-01-01",
    "|\n  a\n  b",
    "'",
    '"',
    "&",
    "*",
    "*undefined",
    "<<: {x: 1}",
    "? x",
    "- a",
    "{en: x, vi: y}",
    "{en: [x], vi: {y: z}}",
    "1001",
    "99999999999999999999",
    "-0",
    "0x10",
    "0o7",
    "1_000",
]
_KEY_VALUE = re.compile(r"^(\s*(?:- )?[\w-]+:\s+)(\S.*)$")


def _index(draw, lines: list[str]) -> int:
    return draw(st.integers(0, len(lines) - 1))


def _delete(draw, lines):
    del lines[_index(draw, lines)]


def _duplicate(draw, lines):
    i = _index(draw, lines)
    lines.insert(draw(st.integers(0, len(lines))), lines[i])


def _swap(draw, lines):
    i, j = _index(draw, lines), _index(draw, lines)
    lines[i], lines[j] = lines[j], lines[i]


def _insert_characters(draw, lines):
    i = _index(draw, lines)
    at = draw(st.integers(0, len(lines[i])))
    lines[i] = lines[i][:at] + draw(st.text(_YAML_CHARS, min_size=1, max_size=4)) + lines[i][at:]


def _indent(draw, lines):
    i = _index(draw, lines)
    change = draw(st.integers(-4, 4))
    lines[i] = (
        " " * change + lines[i] if change > 0 else lines[i][min(-change, len(lines[i]) - len(lines[i].lstrip())) :]
    )


def _replace_scalar(draw, lines):
    candidates = [i for i, line in enumerate(lines) if _KEY_VALUE.match(line)]
    if candidates:
        i = draw(st.sampled_from(candidates))
        lines[i] = _KEY_VALUE.sub(lambda m: m.group(1) + draw(st.sampled_from(_SCALARS)), lines[i])


def _anchor_and_alias(draw, lines):
    candidates = [i for i, line in enumerate(lines) if _KEY_VALUE.match(line)]
    if len(candidates) < 2:
        return
    anchored, aliased = draw(st.sampled_from(candidates)), draw(st.sampled_from(candidates))
    lines[anchored] = _KEY_VALUE.sub(lambda m: m.group(1) + "&x " + m.group(2), lines[anchored])
    lines[aliased] = _KEY_VALUE.sub(
        lambda m: m.group(1) + draw(st.sampled_from(["*x", "*y", "[*x, *x]"])), lines[aliased]
    )


def _recursive_alias(draw, lines):
    """An alias inside its own anchor: `night: &x` with `again: *x` below it (endless once expanded)."""
    candidates = [i for i, line in enumerate(lines) if re.match(r"^\s*[\w-]+:\s*$", line)]
    if candidates:
        i = draw(st.sampled_from(candidates))
        indent = len(lines[i]) - len(lines[i].lstrip())
        lines[i] += " &x"
        lines.insert(i + 1, " " * (indent + 2) + draw(st.sampled_from(["again: *x", "again: [*x]"])))


MUTATIONS = [
    _delete,
    _duplicate,
    _swap,
    _insert_characters,
    _indent,
    _replace_scalar,
    _anchor_and_alias,
    _recursive_alias,
]


@st.composite
def mutated_file(draw) -> tuple[str, str]:
    name = draw(st.sampled_from(sorted(MINI_FILES)))
    lines = MINI_FILES[name].split("\n")
    for _ in range(draw(st.integers(1, 4))):
        if lines:
            draw(st.sampled_from(MUTATIONS))(draw, lines)
    return name, "\n".join(lines)


@settings(FUZZ, max_examples=400)
@given(mutation=mutated_file())
def test_mutated_yaml_validates_cleanly(mutation):
    name, text = mutation
    note(f"{name}:\n{text}")
    with Example() as example:
        (example.game / name).write_text(text, encoding="utf-8")
        example.run("validate")


# == build options ==============================================================================

PAPERS = ["a4", "letter", "a3", "a5", "legal", "tabloid"]
CARD_SIZES = ["poker", "bridge", "tarot", "mini", "euro-mini", "square", "business", "token-25", "token-38"]
_WORD = st.text(st.characters(blacklist_categories=("Cs",)), max_size=10)


def mostly(known: st.SearchStrategy, other: st.SearchStrategy) -> st.SearchStrategy:
    """Known values nine times in ten, so that many builds get far; the rest anything."""
    return st.integers(0, 9).flatmap(lambda n: other if n == 9 else known)


@settings(FUZZ, max_examples=100)
@given(
    paper=mostly(st.sampled_from([None, *PAPERS]), _WORD),
    card_size=mostly(st.sampled_from([None, *CARD_SIZES]), _WORD),
    bleed=mostly(
        st.one_of(st.none(), st.floats(0, 10).map(repr)),
        st.one_of(st.floats().map(repr), st.sampled_from(["-1", "10.5", "1e3", "nan", "-0", "abc", ""])),
    ),
    backs=mostly(st.sampled_from([None, "long", "short", "fold", "none"]), _WORD),
    lang=mostly(st.sampled_from(["en", "vi"]), _WORD),
    ink_saver=st.booleans(),
)
def test_any_build_options_end_cleanly(paper, card_size, bleed, backs, lang, ink_saver):
    # One language: several would run the jobs in worker processes forked from the test process.
    options = ["--lang", lang]
    for flag, value in (("--paper", paper), ("--card-size", card_size), ("--bleed", bleed), ("--backs", backs)):
        if value is not None:
            options += [flag, value]
    if ink_saver:
        options.append("--ink-saver")
    with Example() as example:
        result = example.build(*options, usage_errors=True)
        if result.exit_code == 0:
            assert list((example.root / "out" / "mini").glob("mini-cards-*.pdf"))


def test_bleed_nan_is_a_usage_error_like_any_bleed_out_of_range(mini):
    """Found here: click's FloatRange(0, 10) let nan through (nan compares false with both ends)."""
    result = run("build", "--lang", "en", "--bleed", "nan", "--decks", str(mini / "decks"))
    assert result.exit_code == 2
    assert "Invalid value for '--bleed': expected a number of mm from 0 to 10, got nan" in result.output
