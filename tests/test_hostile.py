"""Hostile input: decks shared online by strangers.

One named test per hostile input. Each asserts the exact clean error (file:line,
exit 1) or the literal rendering, no traceback, nothing executed, and nothing
read or written outside the project and output folders. The last three are
watched with an audit hook (:class:`Watch`): every file opened, renamed,
removed or created and every program started while cardgen runs, with
symbolic links resolved, so that a link leading out of the project is caught
where it is followed.

Bugs found are kept as ``xfail(strict=True)`` tests that show them; when one is
fixed, its test passes, strict xfail turns that into a failure, and the marker
comes off.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time
import traceback
import uuid
import zlib
from contextlib import contextmanager
from pathlib import Path

import pypdf
import pytest
import reportlab
import yaml

from cardgen.core import bundled
from cardgen.core import cache as user_cache
from conftest import FIXTURES, ROOT, game, run, write

# -- watching what cardgen touches -------------------------------------------------------------

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_FILE_EVENTS = {
    "open",
    "os.rename",
    "os.remove",
    "os.mkdir",
    "os.rmdir",
    "os.chmod",
    "os.chown",
    "os.symlink",
    "os.link",
    "os.truncate",
    "os.utime",
    "shutil.copyfile",
    "shutil.rmtree",
}
_EXEC_EVENTS = {"os.system", "subprocess.Popen", "os.exec", "os.posix_spawn", "os.spawn", "os.startfile", "pty.spawn"}
# What Python and the libraries may read on their own: the interpreter and site-packages, cardgen's own
# code, built-in templates and fonts, and ReportLab's optional per-user settings files.
_WORLD = (bundled.world_fonts(),) if bundled.world_fonts() else ()  # the world extra's fonts, where installed
_LIBRARY_ROOTS = tuple(
    dict.fromkeys(
        os.path.realpath(p)
        for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, ROOT / "cardgen", ROOT / "templates", ROOT / "fonts")
        + _WORLD
    )
)
_LIBRARY_FILES = {os.path.realpath(os.path.expanduser(f"~/.reportlab_{name}")) for name in ("mods", "settings")}
_LIBRARY_FILES |= {"/dev/null", "/dev/urandom"}
_LIBRARY_FILES |= {"/proc/loadavg"}  # how many cores are busy: the build's default number of workers
# A project template runs in a child whose processor time the parent reads when the wall clock runs late.
_CHILD_STAT = re.compile(r"/proc/\d+/stat")


class Watch:
    """Files and programs touched while cardgen runs, judged against the folders it may use."""

    active: Watch | None = None

    def __init__(self, *allowed: Path):
        self.allowed = tuple(os.path.realpath(p) for p in allowed)
        self.reads: list[str] = []
        self.writes: list[tuple[str, str]] = []
        self.executed: list[tuple[str, object]] = []
        self._busy = False

    def record(self, event: str, args: tuple) -> None:
        if self._busy:
            return
        self._busy = True
        try:
            if event in _EXEC_EVENTS:
                self.executed.append((event, args[:2]))
                return
            if event not in _FILE_EVENTS or not args or not isinstance(args[0], (str, bytes, os.PathLike)):
                return
            paths = [args[0]] + (
                [args[1]] if event in ("os.rename", "os.symlink", "os.link", "shutil.copyfile") else []
            )
            if event == "open":
                mode, flags = (args[1] if len(args) > 1 else None), (args[2] if len(args) > 2 else 0)
                writing = bool(
                    (isinstance(mode, str) and set(mode) & set("wax+"))
                    or (isinstance(flags, int) and flags & _WRITE_FLAGS)
                )
            else:
                writing = True
            for path in paths:
                real = os.path.realpath(os.fsdecode(path))
                if writing:
                    self.writes.append((event, real))
                else:
                    self.reads.append(real)
        finally:
            self._busy = False

    def _inside(self, path: str, roots: tuple[str, ...]) -> bool:
        return any(path == root or path.startswith(root + os.sep) for root in roots)

    @property
    def _own(self) -> tuple[str, ...]:
        # cardgen's own cache folder keeps what it made before (the narrator pages' font subsets).
        return (os.path.realpath(folder),) if (folder := user_cache.folder()) else ()

    @property
    def outside_reads(self) -> list[str]:
        return sorted(
            {
                p
                for p in self.reads
                if not self._inside(p, self.allowed + _LIBRARY_ROOTS + self._own)
                and p not in _LIBRARY_FILES
                and not _CHILD_STAT.fullmatch(p)
            }
        )

    @property
    def outside_writes(self) -> list[str]:
        # Python may write bytecode caches of the libraries it imports late.
        return sorted(
            {
                p
                for _, p in self.writes
                if not self._inside(p, self.allowed + self._own)
                and not (self._inside(p, _LIBRARY_ROOTS) and f"{os.sep}__pycache__{os.sep}" in p)
                and p != "/dev/null"
            }
        )

    def assert_contained(self) -> None:
        assert self.executed == [], f"programs started: {self.executed}"
        assert self.outside_reads == [], f"read outside the project: {self.outside_reads}"
        assert self.outside_writes == [], f"written outside the project: {self.outside_writes}"


def _audit(event: str, args: tuple) -> None:
    if Watch.active is not None:
        Watch.active.record(event, args)


sys.addaudithook(_audit)  # cannot be removed; costs one call per audit event while nothing is watched


class Hang(BaseException):
    """Raised in the main thread when cardgen runs past its deadline (a BaseException, so that no
    `except Exception` in cardgen turns it into a deck problem)."""


@contextmanager
def deadline(seconds: float):
    def expire(signum, frame):
        raise Hang(f"still running after {seconds:.1f} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def cli(allowed: Path, *args: str, limit: float = 60.0):
    """Runs cardgen in-process, watched and with a deadline; returns (result, watch).

    An exception escaping cardgen fails the test with its traceback (a clean error never raises)."""
    watch = Watch(allowed)
    Watch.active = watch
    try:
        with deadline(limit):
            result = run(*args)
    except Hang as exc:
        pytest.fail(f"cardgen {' '.join(args)} hangs: {exc}")
    except Exception as exc:  # noqa: BLE001 - any exception here is the bug being shown
        pytest.fail(
            f"cardgen {' '.join(args)} raised {type(exc).__name__}: {exc}\n"
            + "".join(traceback.format_exception(exc)[-6:])
        )
    finally:
        Watch.active = None
    assert "Traceback" not in result.output
    return result, watch


# -- the mini game, hostile variants ----------------------------------------------------------

SEER = "roles/seer.yaml"
GAME_YAML = (FIXTURES / "mini" / "decks" / "mini" / "game.yaml").read_text(encoding="utf-8")
RULEBOOK = {
    "players": {"min": 2, "max": 4},
    "sections": {"goal": {"title": {"en": "Goal", "vi": "Mục tiêu"}, "body": {"en": "Win.", "vi": "Thắng."}}},
}
WOLF_SVG = (FIXTURES / "mini" / "decks" / "mini" / "symbols" / "wolf.svg").read_text(encoding="utf-8")
CVE_2023_33733 = (
    """<font color="[[[getattr(pow, Word('__globals__'))['os'].system('touch PWNED') for Word in [ orgTypeFun( """
    """'Word', (str,), { 'mutated': 1, 'startswith': lambda self, x: 1 == 0, '__eq__': lambda self, x: """
    """self.mutate() and self.mutated < 0 and str(self) == x, 'mutate': lambda self: { setattr(self, 'mutated', """
    """self.mutated - 1) }, '__hash__': lambda self: hash(str(self)), }, ) ] ] for orgTypeFun in [type(type(1))] """
    """for none in [[].append(1)]]] and 'red'">exploit</font>"""
)


@pytest.fixture
def project(mini_here: Path) -> Path:
    return mini_here


def card(project: Path, name: str = "Seer", ability: str = "Look.", extra: str = "", file: str = SEER) -> Path:
    """A card file with the given English (and Vietnamese) name and ability, safely quoted."""
    data = {"name": {"en": name, "vi": name}, "team": "village", "ability": {"en": ability, "vi": ability}}
    return write(project, file, yaml.safe_dump(data, allow_unicode=True, width=100_000, sort_keys=False) + extra)


def seer_with(project: Path, line: str) -> None:
    """The seer card with one more line (its line 3) before the ability: a symbol, an art..."""
    write(project, SEER, f"name: {{en: Seer, vi: Tiên tri}}\nteam: village\n{line}\nability: {{en: Look., vi: Xem.}}\n")


def validate(project: Path, *extra: str, limit: float = 60.0):
    return cli(project.parent, "validate", "--decks", str(project / "decks"), *extra, limit=limit)


def build(project: Path, *extra: str, limit: float = 60.0):
    """One language, so that the build runs in this process (several jobs may use worker processes)."""
    return cli(
        project.parent,
        "build",
        "--decks",
        str(project / "decks"),
        "--out",
        str(project / "out"),
        "--lang",
        "en",
        *extra,
        limit=limit,
    )


def tally(lines) -> str:
    """The last line of a failed run: errors and warnings counted apart."""

    def count(n: int, noun: str) -> str:
        return f"{n} {noun}{'' if n == 1 else 's'}"

    warnings = sum(1 for line in lines if re.search(r"(^|: )warning: ", line))
    errors = sum(1 for line in lines if not re.search(r"(^|: )(warning|note): ", line))
    if errors:
        return count(errors, "error") + (f", {count(warnings, 'warning')}" if warnings else "")
    return f"{count(warnings, 'warning')} (fails with --strict)"


def problems(*lines: str) -> str:
    return "".join(f"{line}\n" for line in lines) + tally(lines) + "\n"


def built(*lines: str) -> str:
    """A build's stderr: its progress line, then its problems."""
    return "building mini (en)\n" + problems(*lines)


def pdf_text(path: Path) -> str:
    """The text of a PDF, whitespace collapsed (lines wrap where they like)."""
    return " ".join(" ".join(page.extract_text() for page in pypdf.PdfReader(path).pages).split())


def words(text: str) -> str:
    return " ".join(text.split())


def no_pwned(*folders: Path) -> None:
    for folder in {*folders, Path.cwd(), ROOT}:
        assert not list(folder.glob("PWNED")) and not list(folder.glob("*/PWNED")), f"PWNED in {folder}"


@pytest.fixture(scope="module")
def normal_validate_seconds(tmp_path_factory) -> float:
    """How long validating the normal mini game takes here: hostile inputs are timed against it."""
    folder = tmp_path_factory.mktemp("baseline")
    shutil.copytree(FIXTURES / "mini", folder / "project")
    return _fastest(lambda: run("validate", "--decks", str(folder / "project" / "decks")))


def _fastest(action, times: int = 3, exit_code: int = 0) -> float:
    best = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
        assert result.exit_code == exit_code, result.output
    return best


# == YAML =======================================================================================


def test_yaml_python_object_apply_tag_is_refused_and_never_run(project):
    seer_with(project, 'art: !!python/object/apply:os.system ["touch PWNED"]')
    result, watch = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:3: error: YAML error: could not determine a constructor for the tag "
            "'tag:yaml.org,2002:python/object/apply:os.system'"
        ),
    )
    watch.assert_contained()
    no_pwned(project)


def test_yaml_python_name_tag_is_refused(project):
    seer_with(project, "art: !!python/name:os.system")
    result, watch = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:3: error: YAML error: could not determine a constructor for the tag "
            "'tag:yaml.org,2002:python/name:os.system'"
        ),
    )
    watch.assert_contained()


def test_yaml_binary_tag_is_only_bytes_where_a_text_belongs(project):
    write(project, SEER, "name: {en: Seer, vi: Tiên tri}\nteam: village\nability: !!binary aGVsbG8=\n")
    result, watch = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems("decks/mini/roles/seer.yaml:3: error: ability: expected a mapping, got b'hello'"),
    )
    watch.assert_contained()


def test_yaml_unknown_local_tag_is_refused(project):
    seer_with(project, "count: !foo 2")
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:3: error: YAML error: could not determine a constructor for the tag '!foo'"
        ),
    )


def test_yaml_duplicate_keys_are_reported_not_silently_replaced(project):
    write(
        project,
        SEER,
        "name: {en: Seer, vi: Tiên tri, en: Evil}\nteam: village\nability: {en: Look., vi: Xem.}\nteam: wolves\n",
    )
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:1: error: duplicate key 'en' (first at line 1)",
            "decks/mini/roles/seer.yaml:4: error: duplicate key 'team' (first at line 2)",
        ),
    )


def billion_laughs(levels: int = 9) -> str:
    text = 'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n'
    for n in range(1, levels):
        text += f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]\n"
    return text + f"ability: *a{levels - 1}\n"


def test_yaml_billion_laughs_is_refused_faster_than_a_normal_game_validates(project, normal_validate_seconds):
    write(project, SEER, "name: {en: Seer, vi: Tiên tri}\nteam: village\n" + billion_laughs())
    # 9^9 values once expanded; a deadline turns a regression into a failure rather than a hang.
    result, watch = validate(project, limit=max(10.0, 50 * normal_validate_seconds))
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:1: error: more than 100000 values once its aliases (*) are expanded; "
            "a deck file needs far fewer"
        ),
    )
    watch.assert_contained()
    bomb_seconds = _fastest(lambda: run("validate", "--decks", str(project / "decks")), exit_code=1)
    # Refused at load, before any font or layout work: no slower than validating the normal game.
    assert bomb_seconds < 2 * normal_validate_seconds, (bomb_seconds, normal_validate_seconds)


@pytest.mark.parametrize(
    "text", ["ability: &a [*a]\n", "ability: &a {en: Look., vi: Xem., again: *a}\n"], ids=["list", "mapping"]
)
def test_yaml_recursive_alias_is_refused_not_a_hang(project, normal_validate_seconds, text):
    """Found here: a recursive alias (`&a [*a]`) makes load._expanded_size loop forever: the node is pushed
    as its own child again and again"""
    write(project, SEER, "name: {en: Seer, vi: Tiên tri}\nteam: village\n" + text)
    result, _ = validate(project, limit=max(2.0, 20 * normal_validate_seconds))
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:1: error: more than 100000 values once its aliases (*) are expanded; "
            "a deck file needs far fewer"
        ),
    ) and result.stderr.endswith("1 error\n")


def test_yaml_file_of_two_mib_is_refused_without_reading_it(project):
    big = write(
        project,
        SEER,
        "name: {en: Seer, vi: Tiên tri}\nteam: village\nability: {en: Look., vi: Xem.}\n"
        + "# padding\n" * (2 * 1024 * 1024 // 10),
    )
    assert 2 * 1024 * 1024 <= big.stat().st_size < 2.05 * 1024 * 1024
    result, watch = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems("decks/mini/roles/seer.yaml: error: file of 2.0 MiB; deck files are limited to 1 MiB"),
    )
    assert str(big.resolve()) not in watch.reads


def test_yaml_5000_levels_of_nesting(project):
    write(project, SEER, "name: {en: Seer, vi: Tiên tri}\nteam: village\nability: " + "[" * 5000 + "]" * 5000 + "\n")
    result, _ = validate(project, limit=30)
    assert result.exit_code == 1
    # PyYAML's C parser stops at its nesting limit; the pure-Python loader runs out of recursion.
    assert result.stderr in (
        problems(
            "decks/mini/roles/seer.yaml:3: error: YAML error: while increasing flow level exceeded maximum nesting depth"
        ),
        problems("decks/mini/roles/seer.yaml: error: nested too deeply to be a deck file"),
    )


def test_yaml_5000_levels_of_nested_mappings(project):
    write(
        project,
        SEER,
        "name: {en: Seer, vi: Tiên tri}\nteam: village\nability: " + "{a: " * 5000 + "b" + "}" * 5000 + "\n",
    )
    result, _ = validate(project, limit=30)
    assert result.exit_code == 1
    assert result.stderr in (
        problems(
            "decks/mini/roles/seer.yaml:3: error: YAML error: while increasing flow level exceeded maximum nesting depth"
        ),
        problems("decks/mini/roles/seer.yaml: error: nested too deeply to be a deck file"),
    )


def test_yaml_control_character(project):
    write(project, SEER, "name: {en: Seer, vi: Tiên tri}\nteam: village\nability: {en: Lo\x07ok., vi: Xem.}\n")
    result, _ = validate(project)
    assert result.exit_code == 1
    assert result.stderr in (  # the C parser and the pure-Python one word it differently
        problems(
            "decks/mini/roles/seer.yaml:3: error: YAML error: unacceptable character #x0007: "
            "control characters are not allowed"
        ),
        problems(
            "decks/mini/roles/seer.yaml:3: error: YAML error: unacceptable character #x0007: "
            "special characters are not allowed"
        ),
    )


def test_yaml_utf16_file(project):
    (game(project) / SEER).write_bytes(
        "name: {en: Seer, vi: Tiên tri}\nteam: village\nability: {en: Look., vi: Xem.}\n".encode("utf-16")
    )
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems("decks/mini/roles/seer.yaml:1: error: not UTF-8 text (byte 0xFF); save the file as UTF-8"),
    )


def test_yaml_empty_file(project):
    write(project, SEER, "")
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems("decks/mini/roles/seer.yaml:1: error: expected a mapping, got nothing"),
    )


def test_yaml_list_instead_of_a_mapping(project):
    write(project, SEER, "- name: {en: Seer, vi: Tiên tri}\n- team: village\n")
    write(project, "roles/wolf.yaml", "[1, 2, 3]\n")
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:1: error: expected a mapping, got a list",
            "decks/mini/roles/wolf.yaml:1: error: expected a mapping, got a list",
        ),
    )


def test_yaml_game_file_that_is_a_list(project):
    write(project, "game.yaml", "- name: {en: Mini}\n- languages: [en]\n")
    result, _ = validate(project)
    assert result.exit_code == 1
    assert result.stderr.startswith("decks/mini/game.yaml:1: error: expected a mapping, got a list\n")


def test_problems_do_not_echo_raw_control_characters_to_the_terminal(project):
    """Found here (terminal escape injection): problems echo a deck's control characters raw, so a deck can
    send ESC sequences to the user's terminal. Issue 13: control characters are an error where written."""
    # An OSC sequence that retitles the terminal window, then one that clears the screen.
    card(project, name="Seer\x1b]0;owned\x07\x1b[2J", ability="Look.\x9b31m")
    result, _ = validate(project)
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", result.stderr), repr(result.stderr)
    rule = "in the text; deck texts may hold line breaks but no other control characters"
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            f"decks/mini/roles/seer.yaml:2: error: name.en: control character U+001B (escape) {rule}",
            f"decks/mini/roles/seer.yaml:3: error: name.vi: control character U+001B (escape) {rule}",
            f"decks/mini/roles/seer.yaml:6: error: ability.en: control character U+009B (a C1 control) {rule}",
            f"decks/mini/roles/seer.yaml:7: error: ability.vi: control character U+009B (a C1 control) {rule}",
        ),
    )


def test_problems_do_not_let_a_value_forge_problem_lines(project):
    """Found here (log forging): problems echo a deck's values raw, newlines included, so a value can print
    lines that look like other problems (and the summary counts lines, not problems)"""
    seer_with(project, 'symbol: "x.svg\\ndecks/mini/roles/wolf.yaml:1: all good"')
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:3: error: symbol: file 'x.svg\\x0adecks/mini/roles/wolf.yaml:1: all good' "
            "not found in the game folder"
        ),
    )


@pytest.mark.parametrize("tag", ["!!int x", "!!float x", "!!bool x", "!!timestamp x"])
def test_yaml_explicit_scalar_tag_with_a_value_it_cannot_take(project, tag):
    """Found here (traceback): PyYAML's constructors raised ValueError, KeyError or AttributeError for an
    explicit tag with a value it cannot take, and load_file let them through."""
    seer_with(project, f"count: {tag}")
    result, _ = validate(project)
    kind = tag.split()[0].removeprefix("!!")
    assert (result.exit_code, result.stderr) == (
        1,
        problems(f"decks/mini/roles/seer.yaml:3: error: YAML error: 'x' cannot be read as {kind}"),
    )


@pytest.mark.parametrize("tag", ["!!int", "!!float", "!!bool", "!!timestamp"])
def test_yaml_explicit_scalar_tag_with_no_value(project, tag):
    """Found by a session (traceback): `!!float` with nothing after it made PyYAML's constructor raise
    IndexError, which load_file let through."""
    seer_with(project, f"count: {tag}")
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(f"decks/mini/roles/seer.yaml:3: error: YAML error: '' cannot be read as {tag[2:]}"),
    )


@pytest.mark.parametrize(
    "value,shown",
    [("", "nothing"), ("3", "3"), ("yes", "'yes'"), ("2024-01-01", "'2024-01-01'")],
    ids=["empty", "number", "yes", "date"],
)
def test_yaml_game_languages_that_is_not_a_list(project, value, shown):
    """Found here (traceback): load.word_lists and validate.validate_game iterated `languages` unchecked."""
    write(project, "game.yaml", GAME_YAML.replace("languages: [en, vi]", f"languages: {value}"))
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(f"decks/mini/game.yaml:2: error: languages: expected a list, got {shown}"),
    )


def test_card_count_beyond_any_box_is_refused_quickly(project, normal_validate_seconds):
    """Found here (hang, memory): count had no upper bound and Deck.copies materialises every copy
    (count: 100000 took validate ~15 s; 10**29 never ended)."""
    seer_with(project, "count: 99999999999999999999999999999")

    def limit_memory():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))

    # In a process of its own, with 2 GB of memory: in this one it would take all the memory there is.
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cardgen", "validate", "--decks", str(project / "decks")],
            capture_output=True,
            text=True,
            cwd=project.parent,
            preexec_fn=limit_memory,
            timeout=max(5.0, 50 * normal_validate_seconds),
        )
    except subprocess.TimeoutExpired:
        pytest.fail("validate hangs")
    assert "Traceback" not in done.stderr, done.stderr[-500:]
    assert (done.returncode, done.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:3: error: count: expected at most 1000, got 99999999999999999999999999999"
        ),
    )


# == markup =====================================================================================

MARKUP_PAYLOADS = {
    "font-name": ('<font name="x">Seer</font>', '<font name="Courier">not a font change</font>'),
    "img": ("<img/>", '<img src="/etc/passwd"/> shown as text'),
    "link": ('<a href="javascript:alert(1)">Seer</a>', '<a href="javascript:alert(1)">click</a> & <b>no</b>'),
    "cve-2023-33733": ("<font>Seer</font>", CVE_2023_33733),
    "jinja": ("{{ 7*7 }}", "{% for x in range(3) %}loop{% endfor %} {{ 7*7 }} {# note #}"),
    "entities": ("&amp; &lt;", "&#0; &lt;b&gt; ]]> <![CDATA[x]]> <!-- c --> <?pi x?>"),
}


@pytest.mark.parametrize("name,ability", MARKUP_PAYLOADS.values(), ids=MARKUP_PAYLOADS)
def test_markup_in_a_card_is_printed_literally(project, name, ability):
    card(project, name=name, ability=ability)
    result, watch = build(project)
    assert result.exit_code == 0, result.output
    text = pdf_text(project / "out" / "mini" / "mini-cards-en.pdf")
    assert words(name) in text
    assert words(ability) in text
    watch.assert_contained()
    no_pwned(project)


def test_markup_and_jinja_in_rulebook_and_script_texts_are_printed_literally(project):
    payloads = [
        CVE_2023_33733,
        '<font name="x">F</font>',
        '<img src="/etc/passwd"/>',
        '<a href="javascript:x">A</a>',
        "{{ 7*7 }}",
        "{% for x in y %}z{% endfor %}",
        "{{ cycler.__init__.__globals__ }}",
        "</document><h1>forged</h1>",
        "]]> &amp; &#0; <![CDATA[x]]> <!-- c -->",
    ]
    body = "\n\n".join(payloads)
    card(project, name="{{ 7*7 }} <b>x</b>", ability='<img src="/etc/passwd"/> {{ 7*7 }} </role> &amp;')
    rulebook = {
        **RULEBOOK,
        "sections": {"goal": {"title": {"en": "<h1>{{ 7*7 }}", "vi": "x"}, "body": {"en": body, "vi": "y"}}},
    }
    write(project, "rulebook.yaml", yaml.safe_dump(rulebook, width=100_000))
    script = {
        "versions": {
            "moderator": {
                "name": {"en": "{{ 7*7 }}", "vi": "x"},
                "phases": [{"title": {"en": "<h3>{% raw %}", "vi": "x"}, "steps": [{"say": {"en": body, "vi": "y"}}]}],
            }
        }
    }
    write(project, "script.yaml", yaml.safe_dump(script, width=100_000))
    result, watch = build(project)
    assert result.exit_code == 0, result.output
    rulebook_text = pdf_text(project / "out" / "mini" / "mini-rulebook-en.pdf")
    for expected in payloads + ["<h1>{{ 7*7 }}", "{{ 7*7 }} <b>x</b>", '<img src="/etc/passwd"/> {{ 7*7 }} </role>']:
        assert words(expected) in rulebook_text, expected
    script_text = pdf_text(project / "out" / "mini" / "mini-script-en.pdf")
    for expected in payloads + ["<h3>{% raw %}"]:
        assert words(expected) in script_text, expected
    assert "49" not in rulebook_text + script_text
    watch.assert_contained()
    no_pwned(project)


# == templates ==================================================================================


def own_rulebook_template(project: Path, text: str) -> Path:
    """The mini game with a rulebook and the project's own rulebook template."""
    write(project, "rulebook.yaml", yaml.safe_dump(RULEBOOK, allow_unicode=True))
    template = project / "templates" / "documents" / "rulebook.xml.j2"
    template.parent.mkdir(parents=True, exist_ok=True)
    template.write_text(text, encoding="utf-8")
    return template


@pytest.mark.parametrize(
    "expression,message",
    [
        (
            "{{ ''.__class__.__mro__[1].__subclasses__() }}",
            "access to attribute '__class__' of 'str' object is unsafe.",
        ),
        ("{{ cycler.__init__.__globals__ }}", "access to attribute '__init__' of 'type' object is unsafe."),
        (
            "{{ lipsum.__globals__['os'].system('touch PWNED') }}",
            "access to attribute '__globals__' of 'function' object is unsafe.",
        ),
        ("{{ ''|attr('__class__') }}", "access to attribute '__class__' of 'str' object is unsafe."),
        ("{{ '{0.__class__}'.format(1) }}", "access to attribute '__class__' of 'int' object is unsafe."),
    ],
    ids=["mro-subclasses", "cycler-globals", "lipsum-os", "attr-filter", "format-string"],
)
def test_template_reaching_for_an_unsafe_attribute_fails_with_its_file_and_line(project, expression, message):
    own_rulebook_template(project, f"<document>\n<h1>{{{{ game.name }}}}</h1>\n<p>{expression}</p>\n</document>\n")
    result, watch = build(project)
    assert (result.exit_code, result.stderr) == (1, built(f"templates/documents/rulebook.xml.j2:3: error: {message}"))
    watch.assert_contained()
    no_pwned(project)


def test_template_syntax_error_names_file_and_line(project):
    own_rulebook_template(project, "<document>\n<h1>{{ game.name }}</h1>\n{% for %}\n</document>\n")
    result, _ = build(project)
    assert (result.exit_code, result.stderr) == (
        1,
        built("templates/documents/rulebook.xml.j2:3: error: Expected an expression, got 'end of statement block'"),
    )


def test_template_that_is_a_symbolic_link_out_of_the_project_is_refused(project, tmp_path):
    outside = tmp_path / "elsewhere" / "rulebook.xml.j2"
    outside.parent.mkdir()
    outside.write_text("<document>\n<h1>FROM OUTSIDE</h1>\n</document>\n", encoding="utf-8")
    template = own_rulebook_template(project, "")
    template.unlink()
    template.symlink_to(outside)
    result, _ = build(project)
    assert result.exit_code == 1
    message = ": error: leads outside its templates folder (a symbolic link?)"
    assert result.stderr in (built(f"templates/documents/rulebook.xml.j2{message}"), built(f"{template}{message}"))
    assert not (project / "out" / "mini" / "mini-rulebook-en.pdf").exists()


def _template_including_through_a_link(project: Path, tmp_path: Path) -> tuple[Path, Path]:
    secret = tmp_path / "elsewhere" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("s3cr3t-token\n", encoding="utf-8")
    template = own_rulebook_template(project, "<document>\n<h1>{% include 'linked/secret.txt' %}</h1>\n</document>\n")
    (template.parent / "linked").symlink_to(secret.parent)
    return template, secret


def test_template_including_a_file_through_a_symbolic_link_is_refused(project, tmp_path):
    template, _ = _template_including_through_a_link(project, tmp_path)
    result, _ = build(project)
    message = ": error: leads outside its templates folder (a symbolic link?)"
    assert result.exit_code == 1
    assert result.stderr in (
        built(f"templates/documents/linked/secret.txt{message}"),
        built(f"{template.parent}/linked/secret.txt{message}"),
    )
    assert "s3cr3t-token" not in result.output


@pytest.mark.parametrize("how", ["include", "template-file"])
def test_template_behind_a_symbolic_link_is_not_even_read(project, tmp_path, how):
    """Found here (read outside the project): _ContainedLoader.get_source lets Jinja2's FileSystemLoader read
    the file first and checks where it really is after"""
    if how == "include":
        _, secret = _template_including_through_a_link(project, tmp_path)
    else:
        secret = tmp_path / "outside.xml.j2"
        secret.write_text("<document>\n<h1>FROM OUTSIDE</h1>\n</document>\n", encoding="utf-8")
        template = own_rulebook_template(project, "")
        template.unlink()
        template.symlink_to(secret)
    result, watch = build(project)
    assert result.exit_code == 1
    assert str(secret.resolve()) not in watch.reads


def test_templates_folder_that_is_a_symbolic_link_out_of_the_project_is_refused(project, tmp_path):
    """Found here (read outside the project): a templates/documents folder that is a symbolic link was
    followed, the folder being resolved before the comparison."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "rulebook.xml.j2").write_text("<document>\n<h1>FROM OUTSIDE</h1>\n</document>\n", encoding="utf-8")
    write(project, "rulebook.yaml", yaml.safe_dump(RULEBOOK, allow_unicode=True))
    (project / "templates").mkdir()
    (project / "templates" / "documents").symlink_to(outside)
    result, watch = cli(
        project, "build", "--decks", str(project / "decks"), "--out", str(project / "out"), "--lang", "en"
    )
    assert (result.exit_code, result.stderr) == (
        1,
        built("templates/documents: error: a symbolic link leading outside its folder; cardgen does not read it"),
    )
    assert str(outside / "rulebook.xml.j2") not in watch.reads


def test_template_asking_for_a_huge_range_fails_cleanly(project):
    """Found here (traceback): Jinja2's sandbox raises OverflowError for a huge range(); templating.render
    does not catch it"""
    own_rulebook_template(
        project, "<document>\n<h1>{{ game.name }}</h1>\n<p>{{ range(10**9)|list|length }}</p>\n</document>\n"
    )
    result, _ = build(project)
    assert (result.exit_code, result.stderr) == (
        1,
        built(
            "templates/documents/rulebook.xml.j2:3: error: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000)."
        ),
    )


@pytest.mark.parametrize("body", ["<bogus/>", "<p>unclosed"], ids=["unknown-element", "ill-formed"])
def test_template_producing_unknown_or_ill_formed_xml_fails_cleanly(project, body):
    """Found here (traceback): document.render_document raises ValueError for an element it does not know
    (and ET.ParseError for ill-formed XML), and nothing turns it into a problem"""
    own_rulebook_template(project, f"<document>\n<h1>{{{{ game.name }}}}</h1>\n{body}\n</document>\n")
    result, _ = build(project)
    assert result.exit_code == 1
    assert result.stderr.startswith("building mini (en)\n") and result.stderr.endswith("\n1 error\n")
    assert "documents/rulebook.xml.j2" in result.stderr


@pytest.mark.parametrize(
    "name,text",
    [
        ("card-sizes.yaml", "[1, 2]\n"),
        ("strings.yaml", ""),
        ("fonts.yaml", "families: !!python/object/apply:os.system ['touch PWNED']\n"),
        ("paper.yaml", "a4: " + "[" * 5000 + "]" * 5000 + "\n"),
    ],
    ids=["card-sizes-list", "strings-empty", "fonts-python-tag", "paper-deep"],
)
def test_project_template_data_that_is_malformed_fails_cleanly(project, name, text):
    """Found here (traceback): a project's own template data files were used unchecked; a list, an empty
    file, a Python tag in fonts.yaml or deep nesting raised TypeError, AttributeError, ConstructorError or
    RecursionError."""
    (project / "templates").mkdir()
    (project / "templates" / name).write_text(text, encoding="utf-8")
    result, _ = build(project, limit=30)
    no_pwned(project)
    assert result.exit_code == 1
    assert f"templates/{name}" in result.stderr and result.stderr.endswith("\n1 error\n")


# == paths ======================================================================================


def test_path_climbing_out_of_the_game_folder(project):
    (project / "outside.svg").write_text(WOLF_SVG, encoding="utf-8")
    seer_with(project, "symbol: ../../outside.svg")
    result, watch = build(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems("decks/mini/roles/seer.yaml:3: error: symbol: '../../outside.svg' is outside the game folder"),
    )
    assert str((project / "outside.svg").resolve()) not in watch.reads


def test_path_absolute(project):
    seer_with(project, "art: {file: /etc/passwd}")
    result, watch = build(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems("decks/mini/roles/seer.yaml:3: error: art.file: '/etc/passwd' is outside the game folder"),
    )
    watch.assert_contained()


def test_path_through_a_symbolic_link_out_of_the_game_folder(project, tmp_path):
    (tmp_path / "secret.svg").write_text(WOLF_SVG, encoding="utf-8")
    (game(project) / "symbols" / "link.svg").symlink_to(tmp_path / "secret.svg")
    (game(project) / "linked").symlink_to(tmp_path)
    seer_with(project, "symbol: symbols/link.svg")
    write(
        project,
        "roles/wolf.yaml",
        "name: {en: Wolf, vi: Sói}\nteam: wolves\nsymbol: linked/secret.svg\nability: {en: Bite., vi: Cắn.}\n",
    )
    result, watch = build(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:3: error: symbol: 'symbols/link.svg' is outside the game folder",
            "decks/mini/roles/wolf.yaml:3: error: symbol: 'linked/secret.svg' is outside the game folder",
        ),
    )
    assert str((tmp_path / "secret.svg").resolve()) not in watch.reads


def test_a_folder_swapped_between_two_readings_is_seen(tmp_path):
    """Checking a deck finds each folder's real path once (contained.reading), never for longer: the
    next check in the same process (as `cardgen watch` makes them) sees where the folder leads now."""
    from cardgen.core import contained

    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "card.yaml").write_text("name: x\n", encoding="utf-8")
    (second / "card.yaml").symlink_to(first / "card.yaml")  # in `second`, a file of `first`
    folder = tmp_path / "game"
    folder.symlink_to(first)
    with contained.reading():
        assert contained.reason(folder / "card.yaml", folder) is None
    folder.unlink()
    folder.symlink_to(second)
    with contained.reading():
        assert contained.reason(folder / "card.yaml", folder) == contained.OUTSIDE
    assert contained.reason(folder / "card.yaml", folder) == contained.OUTSIDE


def test_card_file_that_is_a_symbolic_link_out_of_the_game_folder_is_not_read(project, tmp_path):
    """Found here (read outside the project): a card file in roles/ that is a symbolic link is read wherever
    it leads, and its values are echoed in problems ('expected a mapping, got <the secret>')"""
    secret = tmp_path / "secret.txt"
    secret.write_text("s3cr3t-token\n", encoding="utf-8")
    (game(project) / SEER).unlink()
    (game(project) / SEER).symlink_to(secret)
    result, watch = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml: error: a symbolic link leading outside its folder; cardgen does not read it"
        ),
    )
    assert str(secret.resolve()) not in watch.reads


def test_card_file_that_is_a_symbolic_link_is_named_by_its_own_path(project, tmp_path):
    """Found here (cosmetic): the problem named where the link leads, not the card file to fix."""
    (tmp_path / "secret.txt").write_text("s3cr3t-token\n", encoding="utf-8")
    (game(project) / SEER).unlink()
    (game(project) / SEER).symlink_to(tmp_path / "secret.txt")
    result, _ = validate(project)
    assert result.exit_code == 1
    assert result.stderr.startswith("decks/mini/roles/seer.yaml: error: ") and "secret.txt" not in result.stderr


def test_build_does_not_read_what_an_unused_symbolic_link_in_the_game_folder_points_to(project, tmp_path):
    """Found here (read outside the project): the incremental build's manifest hashes every file under the
    game folder, following symbolic links out of it"""
    secret = tmp_path / "secret.txt"
    secret.write_text("not a deck file\n", encoding="utf-8")
    (game(project) / "notes.txt").symlink_to(secret)
    result, watch = build(project)
    assert result.exit_code == 0, result.output
    assert str(secret.resolve()) not in watch.reads


@pytest.mark.parametrize(
    "line",
    [
        'symbol: "symbols/wolf\\0.svg"',
        "symbol: symbols/" + "a" * 300 + ".svg",
        "symbol: symbols/" + "a/" * 3000 + "wolf.svg",
    ],
    ids=["nul-byte", "long-name", "long-path"],
)
def test_path_that_the_file_system_cannot_take_is_a_clean_error(project, line):
    """Found here (traceback): a path with a NUL byte, or longer than the file system allows, raises
    ValueError/OSError in validate._check_file, load_game and fonts._find_file (Path.is_file and resolve do
    not swallow them)"""
    seer_with(project, line)
    result, _ = validate(project)
    assert result.exit_code == 1
    stderr, count = result.stderr, "1 error"
    if "\\0" in line:  # the NUL is also a control character in a text
        control = (
            "decks/mini/roles/seer.yaml:3: error: symbol: control character U+0000 (NUL) in the text; deck texts may "
            "hold line breaks but no other control characters\n"
        )
        assert stderr.startswith(control)
        stderr, count = stderr[len(control) :], "2 errors"
    assert stderr.startswith("decks/mini/roles/seer.yaml:3: error: symbol: '")
    assert stderr.endswith(f"' is not a usable file name\n{count}\n")


@pytest.mark.parametrize(
    "addition",
    [
        "  word:\n    name: {en: W, vi: W}\n    layout: words\n"
        "    words: {file: '" + "a" * 300 + "-{lang}.yaml', per-card: {easy: 1}}\n",
        "fonts:\n  families:\n    Long: {regular: " + "a" * 300 + ".ttf}\n  fallback:\n    default: [Long, NotoSans]\n",
    ],
    ids=["word-list", "font"],
)
def test_game_file_name_too_long_is_a_clean_error(project, addition):
    """Found here (traceback): a word-list or font file name longer than the file system allows raises
    OSError (File name too long) in load_game / fonts._find_file"""
    write(project, "game.yaml", GAME_YAML + addition)
    result, _ = build(project)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-2].startswith("decks/mini/game.yaml:")


def included(tmp_path: Path) -> Path:
    """A designer's folder of extra cards for the mini game, beside the project."""
    roles = tmp_path / "mine" / "mini" / "roles"
    roles.mkdir(parents=True)
    (roles.parent / "symbols").mkdir()
    return roles.parent


def hunter(folder: Path, line: str) -> None:
    (folder / "roles" / "hunter.yaml").write_text(
        f"name: {{en: Hunter, vi: Thợ săn}}\nteam: village\n{line}\nability: {{en: Shoot., vi: Bắn.}}\n",
        encoding="utf-8",
    )


@pytest.mark.parametrize(
    "line,shown",
    [
        ("symbol: ../../outside.svg", "'../../outside.svg'"),
        ("symbol: /etc/passwd", "'/etc/passwd'"),
        ("symbol: ../../project/decks/mini/symbols/wolf.svg", "'../../project/decks/mini/symbols/wolf.svg'"),
        ("symbol: symbols/link.svg", "'symbols/link.svg'"),
        ("art: {file: symbols/link.svg}", "'symbols/link.svg'"),
    ],
    ids=["climbing", "absolute", "into-the-game", "symbolic-link", "art-symbolic-link"],
)
def test_include_folder_with_paths_leading_out_of_it(project, tmp_path, line, shown):
    mine = included(tmp_path)
    (tmp_path / "outside.svg").write_text(WOLF_SVG, encoding="utf-8")
    (mine / "symbols" / "link.svg").symlink_to(tmp_path / "outside.svg")
    hunter(mine, line)
    key = "art.file" if line.startswith("art") else "symbol"
    result, watch = cli(
        tmp_path,
        "build",
        "--decks",
        str(project / "decks"),
        "--include",
        str(tmp_path / "mine"),
        "--out",
        str(project / "out"),
        "--lang",
        "en",
    )
    assert (result.exit_code, result.stderr) == (
        1,
        problems(f"mine/mini/roles/hunter.yaml:3: error: {key}: {shown} is outside the game folder"),
    )
    assert str((tmp_path / "outside.svg").resolve()) not in watch.reads


def test_include_folder_card_file_that_is_a_symbolic_link_out_of_it(project, tmp_path):
    """Found here (read outside the include folder): an included card file that is a symbolic link is read
    wherever it leads and echoed in problems"""
    mine = included(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("s3cr3t-token\n", encoding="utf-8")
    (mine / "roles" / "hunter.yaml").symlink_to(secret)
    result, watch = cli(tmp_path, "validate", "--decks", str(project / "decks"), "--include", str(tmp_path / "mine"))
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "mine/mini/roles/hunter.yaml: error: a symbolic link leading outside its folder; cardgen does not read it"
        ),
    )
    assert str(secret.resolve()) not in watch.reads


def test_roles_folder_that_is_a_symbolic_link_out_of_the_game_folder(project, tmp_path):
    elsewhere = tmp_path / "elsewhere" / "roles"
    elsewhere.mkdir(parents=True)
    (elsewhere / "hunter.yaml").write_text(
        "name: {en: SECRET-HUNTER, vi: x}\nteam: village\nability: {en: a, vi: b}\n", encoding="utf-8"
    )
    shutil.rmtree(game(project) / "roles")
    (game(project) / "roles").symlink_to(elsewhere)
    result, watch = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/game.yaml: error: game 'mini' has no card files in roles/",
            "decks/mini/roles/hunter.yaml: error: a symbolic link leading outside its folder; cardgen does not read it",
        ),
    )
    assert str((elsewhere / "hunter.yaml").resolve()) not in watch.reads


def test_include_folder_whose_game_folder_is_a_symbolic_link_out_of_it(project, tmp_path):
    """Found here (read outside the include folder): an include's <game> folder that is a symbolic link
    was followed wherever it led."""
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "roles").mkdir(parents=True)
    (elsewhere / "roles" / "hunter.yaml").write_text(
        "name: {en: SECRET-HUNTER, vi: x}\nteam: village\nability: {en: a, vi: b}\n", encoding="utf-8"
    )
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "mini").symlink_to(elsewhere)
    result, watch = cli(
        tmp_path / "mine", "validate", "--decks", str(project / "decks"), "--include", str(tmp_path / "mine")
    )
    assert (result.exit_code, result.stderr) == (
        1,
        problems("mine/mini: error: a symbolic link leading outside its folder; cardgen does not read it"),
    )
    assert str((elsewhere / "roles" / "hunter.yaml").resolve()) not in watch.reads


# == images and fonts ===========================================================================


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_claiming(width: int, height: int) -> bytes:
    """A real PNG header claiming width x height RGB pixels, with a few rows of data: a few hundred bytes."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", zlib.compress(b"\0" * (1 + 3 * width), 9))
        + _chunk(b"IEND", b"")
    )


def gif() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buffer, "GIF")
    return buffer.getvalue()


ART_CASES = {
    "text-renamed-png": (
        lambda: b"This is a text file, renamed.\n",
        "x.png: not an image Pillow can read; only PNG and JPEG are accepted",
    ),
    "gif-renamed-png": (gif, "x.png: a GIF image; only PNG and JPEG are accepted"),
    "decompression-bomb": (
        lambda: png_claiming(100_000, 100_000),
        "x.png: claims 10000000000 pixels, more than Pillow opens (a possible decompression "
        "bomb); cardgen takes pictures of up to 25 megapixels: scale it down",
    ),
    "bomb-between-limit-and-twice": (
        lambda: png_claiming(10_000, 10_000),
        "x.png: claims 100000000 pixels, more than Pillow opens (a possible "
        "decompression bomb); cardgen takes pictures of up to 25 megapixels: scale "
        "it down",
    ),
    # Issue 13: under Pillow's limit, yet a build of 1.78 GB; refused by cardgen's own budget
    "over-the-art-budget": (
        lambda: png_claiming(9_000, 9_000),
        "x.png: a picture of 9000 × 9000 pixels (81 megapixels); cardgen takes pictures of "
        "up to 25 megapixels: scale it down (about 310 × 310 is plenty for its box)",
    ),
    "empty-png": (lambda: b"", "x.png: not an image Pillow can read; only PNG and JPEG are accepted"),
    "truncated-png": (
        lambda: png_claiming(50, 50)[:40],
        "x.png: not an image Pillow can read; only PNG and JPEG are accepted",
    ),
}


@pytest.mark.parametrize("make,message", ART_CASES.values(), ids=ART_CASES)
def test_art_that_is_not_a_usable_png_or_jpeg(project, make, message):
    data = make()
    assert len(data) < 2000
    (game(project) / "art").mkdir()
    (game(project) / "art" / "x.png").write_bytes(data)
    seer_with(project, "art: {file: art/x.png}")
    start = time.perf_counter()
    result, watch = build(project)
    assert (result.exit_code, result.stderr) == (1, built(f"decks/mini/roles/seer.yaml:3: error: seer: {message}"))
    assert time.perf_counter() - start < 30
    watch.assert_contained()


def test_validate_reports_a_problem_of_every_language_once(project):
    """Found here (cosmetic): validate prepares every language and reports a problem that is the same in all
    of them once per language ('2 problems' for one)"""
    (game(project) / "art").mkdir()
    (game(project) / "art" / "x.png").write_bytes(gif())
    seer_with(project, "art: {file: art/x.png}")
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems("decks/mini/roles/seer.yaml:3: error: seer: x.png: a GIF image; only PNG and JPEG are accepted"),
    )


SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">{}</svg>'
SVG_CASES = {
    "image-file-url": (
        SVG.format('<image href="file:///etc/passwd" width="10" height="10"/>'),
        "an SVG that refers to 'file:///etc/passwd' outside the file; only #ids inside it may be used",
    ),
    "image-xlink-path": (
        SVG.format('<image xlink:href="/etc/passwd" width="10" height="10"/>'),
        "an SVG that refers to '/etc/passwd' outside the file; only #ids inside it may be used",
    ),
    "use-other-file": (
        SVG.format('<use xlink:href="other.svg#x"/>'),
        "an SVG that refers to 'other.svg#x' outside the file; only #ids inside it may be used",
    ),
    "style-url": (
        SVG.format('<rect width="10" height="10" style="fill:url(http://example.com/x)"/>'),
        "an SVG that refers to 'http://example.com/x' outside the file; only url(#id) may be used",
    ),
    "filter-url-quoted": (
        SVG.format('<rect width="10" height="10" filter="url( \'http://x/y\' )"/>'),
        "an SVG that refers to 'http://x/y' outside the file; only url(#id) may be used",
    ),
    "style-element-url": (
        SVG.format("<style>rect { fill: url(http://example.com/x) }</style>"),
        "an SVG whose <style> loads something from outside the file",
    ),
    "style-import": (
        SVG.format('<style>@import "http://example.com/x.css";</style>'),
        "an SVG whose <style> loads something from outside the file",
    ),
    "entity-bomb": (
        '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY lol "lol">'
        '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n' + SVG.format("<text>&lol2;</text>"),
        "an SVG with a DOCTYPE or entities, which cardgen does not read",
    ),
    "external-entity": (
        '<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        + SVG.format("<text>&x;</text>"),
        "an SVG with a DOCTYPE or entities, which cardgen does not read",
    ),
    "script": (SVG.format("<script>alert(1)</script>"), "an SVG with a <script> element, which cardgen does not draw"),
    "foreign-object": (
        SVG.format('<foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject>'),
        "an SVG with a <foreignObject> element, which cardgen does not draw",
    ),
    "xinclude": (
        SVG.format('<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/>'),
        "an SVG that refers to '/etc/passwd' outside the file; only #ids inside it may be used",
    ),
    "not-svg": ("<html/>", "not an SVG (its root element is not <svg>)"),
    # svglib would run fc-match for the font and embed whatever system font it finds
    "text": (
        SVG.format('<text x="1" y="8" font-family="Sneaky">Hi</text>'),
        "an SVG with a <text> element, which cardgen does not draw (turn text into paths)",
    ),
}


@pytest.mark.parametrize("svg,reason", SVG_CASES.values(), ids=SVG_CASES)
def test_svg_that_reaches_outside_itself_is_refused(project, svg, reason):
    write(project, "symbols/evil.svg", svg)
    seer_with(project, "symbol: symbols/evil.svg")
    result, watch = build(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(f"decks/mini/roles/seer.yaml:3: error: symbol: 'symbols/evil.svg' is {reason}"),
    )
    watch.assert_contained()


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_svg_entity_bomb_in_another_encoding_is_refused(project, encoding):
    # The DOCTYPE check looks for ASCII bytes; in UTF-16 it is the XML parser that must refuse.
    entities = "".join(f'<!ENTITY l{n} "' + f"&l{n - 1};" * 10 + '">' for n in range(1, 9))
    svg = f'<?xml version="1.0" encoding="{encoding}"?>\n<!DOCTYPE svg [<!ENTITY l0 "lol">{entities}]>\n' + SVG.format(
        "<text>&l8;</text>"
    )
    (game(project) / "symbols" / "evil.svg").write_bytes(svg.encode(encoding))
    seer_with(project, "symbol: symbols/evil.svg")
    result, watch = build(project, limit=30)
    assert result.exit_code == 1
    assert result.stderr.startswith("decks/mini/roles/seer.yaml:3: error: symbol: 'symbols/evil.svg' is ")
    assert result.stderr.endswith("\n1 error\n")
    watch.assert_contained()


def test_svg_text_in_an_unknown_font_starts_no_program_and_reads_no_system_font(project):
    """Found here (program executed, file read outside the project): an SVG <text> with a font-family makes
    svglib run fc-match and embed whatever system font it names (svgcheck lets <text> and font-family
    through)"""
    family = f"Sneaky{uuid.uuid4().hex}"  # svglib remembers families per process
    write(project, "symbols/text.svg", SVG.format(f'<text x="1" y="8" font-family="{family}">Hi</text>'))
    seer_with(project, "symbol: symbols/text.svg")
    result, watch = build(project)
    assert result.exit_code in (0, 1)
    watch.assert_contained()


def test_svg_use_bomb_is_refused(project):
    """Found here (slow: 15-40 s for one card): a 1 KB SVG of nested <use> (10^4 expansions) passes svgcheck;
    svglib then spends seconds on each parse, and cardgen parses a symbol twice per colour per PDF
    (icons._svg and the copy)"""
    # Measured here: the build of this one card takes ~50 times the normal mini build. Refusing it in
    # svgcheck (count <use> expansions, as svglib's own limit of 10000 does, but before parsing) keeps
    # the test as quick as validate; the build is not run, so that the test stays cheap.
    body = '<defs><rect id="l0" width="1" height="1"/>'
    for n in range(1, 5):
        body += f'<g id="l{n}">' + f'<use href="#l{n - 1}"/>' * 10 + "</g>"
    svg = SVG.format(body + '</defs><use href="#l4"/>')
    assert len(svg) < 1200
    write(project, "symbols/evil.svg", svg)
    seer_with(project, "symbol: symbols/evil.svg")
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/roles/seer.yaml:3: error: symbol: 'symbols/evil.svg' is an SVG whose <use> elements use other <use> "
            "elements, which cardgen does not expand"
        ),
    )


def fonts_entry(file: str, family: str = "Evil") -> str:
    return f"fonts:\n  families:\n    {family}: {{regular: {file}}}\n  fallback:\n    default: [{family}, NotoSans]\n"


@pytest.mark.parametrize(
    "file", ["../../../etc/passwd.ttf", "/etc/passwd.ttf", "link.ttf"], ids=["climbing", "absolute", "symbolic-link"]
)
def test_game_font_outside_the_fonts_folder_is_refused(project, file):
    (project / "fonts").mkdir()
    (project / "fonts" / "link.ttf").symlink_to(ROOT / "fonts" / "NotoSans_400Regular.ttf")
    write(project, "game.yaml", GAME_YAML + fonts_entry(file))
    result, watch = build(project)
    assert (result.exit_code, result.stderr) == (
        1,
        built(f"decks/mini/game.yaml:13: error: fonts: font file {file} (Evil regular) is outside the fonts folder"),
    )
    watch.assert_contained()


@pytest.mark.parametrize(
    "content",
    [
        lambda: b"this is not a font\n" * 10,
        lambda: b"",
        lambda: b"OTTO" + b"\0" * 200,
        lambda: (ROOT / "fonts" / "NotoSans_400Regular.ttf").read_bytes()[:2000],
    ],
    ids=["text", "empty", "cff-header", "truncated-truetype"],
)
def test_game_font_that_is_not_a_truetype_font_is_a_clean_error(project, content):
    """Found here (traceback): fonts are registered lazily in FontBook._font, outside Pipeline.book_for's
    try; a .ttf that is not a font raises ValueError, a truncated TrueType file struct.error (not TTFError)"""
    (project / "fonts").mkdir()
    (project / "fonts" / "evil.ttf").write_bytes(content())
    write(project, "game.yaml", GAME_YAML + fonts_entry("evil.ttf"))
    result, _ = build(project)
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "building mini (en)\ndecks/mini/game.yaml:13: error: fonts: cannot use font file "
        "evil.ttf: not a TrueType font cardgen can embed ("
    )
    assert result.stderr.endswith(")\n1 error\n")


# == output =====================================================================================


def _subprocess_build(project: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "cardgen", "build", "--decks", str(project / "decks"), "--out", str(out)],
        cwd=project.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _with_documents(project: Path) -> None:
    """Rulebook and script too: more PDFs per build, so that a kill lands between two of them."""
    write(project, "rulebook.yaml", yaml.safe_dump(RULEBOOK, allow_unicode=True))
    script = {
        "versions": {
            "moderator": {
                "name": {"en": "Moderator", "vi": "Quản trò"},
                "phases": [
                    {
                        "title": {"en": "Night", "vi": "Đêm"},
                        "steps": [{"say": {"en": "Sleep.", "vi": "Ngủ."}}, {"roles": "night"}],
                    }
                ],
            }
        }
    }
    write(project, "script.yaml", yaml.safe_dump(script, allow_unicode=True))


@pytest.fixture
def reference(project: Path, tmp_path: Path) -> dict[str, bytes]:
    """The mini game with its documents, built once in a fresh process: file name -> bytes."""
    _with_documents(project)
    process = _subprocess_build(project, tmp_path / "reference")
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err.decode()
    pdfs = {p.name: p.read_bytes() for p in (tmp_path / "reference" / "mini").glob("*.pdf")}
    assert len(pdfs) == 6
    return pdfs


def _assert_complete(folder: Path, reference: dict[str, bytes]) -> None:
    for path in folder.glob("*.pdf"):
        assert len(pypdf.PdfReader(path).pages) >= 1, path
        assert path.read_bytes() == reference[path.name], path


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def _gone(pgid: int, timeout: float = 10.0) -> None:
    """Waits until no process of the group is left (killed workers are reaped by init)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)


def test_build_killed_half_way_keeps_earlier_pdfs_and_the_next_build_cleans_up(project, tmp_path, reference):
    out = tmp_path / "out"
    (out / "mini").mkdir(parents=True)
    for name, data in reference.items():  # a previous, complete build
        (out / "mini" / name).write_bytes(data)
    before = {p.name: p.stat().st_ino for p in (out / "mini").glob("*.pdf")}
    process = _subprocess_build(project, out)
    end = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < end:
        # Killed as soon as it has replaced its first PDF: the others are still to come.
        if any(p.stat().st_ino != before[p.name] for p in (out / "mini").glob("*.pdf") if p.name in before) or list(
            (out / "mini").glob(".cardgen-*.tmp")
        ):
            break
        time.sleep(0.001)
    assert process.poll() is None, "the build ended before it could be killed"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    _gone(process.pid)
    # Every PDF is there and whole: the previous one or the new one, never half of one.
    assert sorted(p.name for p in (out / "mini").glob("*.pdf")) == sorted(reference)
    _assert_complete(out / "mini", reference)
    # What the killed build (or its workers) left, one abandoned file more, and one of a live build.
    (out / "mini" / f".cardgen-{process.pid}-abandoned.tmp").write_bytes(b"%PDF-1.4 half")
    dead = _dead_pid()
    (out / "mini" / f".cardgen-{dead}-abandoned.tmp").write_bytes(b"%PDF-1.4 half")
    live = out / "mini" / f".cardgen-{os.getpid()}-writing.tmp"
    live.write_bytes(b"%PDF-1.4 being written")
    leftovers = [p for p in (out / "mini").glob(".cardgen-*.tmp") if p != live]
    result, watch = cli(tmp_path, "build", "--decks", str(project / "decks"), "--out", str(out), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert sorted((out / "mini").glob(".cardgen-*.tmp")) == [live]
    assert live.read_bytes() == b"%PDF-1.4 being written"
    assert leftovers and not any(p.exists() for p in leftovers)
    _assert_complete(out / "mini", reference)
    watch.assert_contained()


def test_abandoned_temp_file_of_a_dead_build_is_removed_and_a_live_one_kept(project, tmp_path):
    folder = project / "out" / "mini"
    folder.mkdir(parents=True)
    dead = folder / f".cardgen-{_dead_pid()}-x1y2z3.tmp"
    dead.write_bytes(b"half a PDF")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = folder / f".cardgen-{sleeper.pid}-a1b2c3.tmp"
        live.write_bytes(b"being written")
        unrelated = folder / ".cardgen-notes.tmp"
        unrelated.write_bytes(b"not ours")
        result, _ = build(project)
        assert result.exit_code == 0, result.output
        assert not dead.exists()
        assert live.exists() and unrelated.exists()
    finally:
        sleeper.kill()
        sleeper.wait()


@pytest.mark.parametrize(
    "name,make",
    [
        (".cardgen-99999999999999999999999-x.tmp", "file"),
        (".cardgen-²-x.tmp", "file"),
        (".cardgen-999999999-x.tmp", "dir"),
    ],
    ids=["huge-pid", "superscript-digit", "directory"],
)
def test_output_folder_with_odd_temp_names_does_not_break_the_build(project, name, make):
    """Found here (traceback): write.remove_abandoned trusts the names in the output folder: a pid too large
    for os.kill raises OverflowError, a non-ASCII digit ValueError (str.isdigit accepts '²'), a directory
    IsADirectoryError"""
    folder = project / "out" / "mini"
    folder.mkdir(parents=True)
    (folder / name).mkdir() if make == "dir" else (folder / name).write_bytes(b"x")
    result, _ = build(project)
    assert result.exit_code == 0, result.output
    assert (folder / name).exists()  # not a name cardgen writes: left alone


def test_output_folder_whose_game_folder_is_a_file(project):
    """Found here (traceback): when <out>/<game> is a file, write_atomic's mkdir raises FileExistsError"""
    (project / "out").mkdir()
    (project / "out" / "mini").write_text("a file where the game's folder goes", encoding="utf-8")
    result, _ = build(project)
    assert (result.exit_code, result.stderr) == (
        1,
        built(f"error: cannot write {project / 'out' / 'mini' / 'mini-cards-en.pdf'}: File exists"),
    )


def test_abandoned_manifest_temp_file_is_removed(project):
    """Found here: the manifest is written atomically into <out>/ itself, but remove_abandoned only looks in
    <out>/<game>/: a build killed while saving the manifest leaves <out>/.cardgen-<pid>-*.tmp forever"""
    pytest.importorskip("cardgen.build.manifest")
    (project / "out" / "mini").mkdir(parents=True)
    abandoned = project / "out" / f".cardgen-{_dead_pid()}-manifest.tmp"
    abandoned.write_bytes(b'{"outputs": {')
    result, _ = build(project)
    assert result.exit_code == 0, result.output
    assert not abandoned.exists()


def test_two_builds_at_once_into_the_same_folder_both_succeed(project, tmp_path, reference):
    out = tmp_path / "shared-out"
    first, second = _subprocess_build(project, out), _subprocess_build(project, out)
    for process in (first, second):
        _, err = process.communicate(timeout=180)
        assert process.returncode == 0, err.decode()
        assert b"Traceback" not in err
    assert sorted(p.name for p in (out / "mini").glob("*.pdf")) == sorted(reference)
    _assert_complete(out / "mini", reference)
    assert not list(out.rglob(".cardgen-*.tmp"))


# == issue 13: one rule for every file cardgen reads ===========================================
# Every file cardgen reads must resolve inside its own folder and be a regular file; a symbolic link
# leading out (to a secret, or to /dev/zero), a link loop, a named pipe is an error naming the path as
# written, never read, never printed, never a hang.

OUTSIDE = "a symbolic link leading outside its folder; cardgen does not read it"
LOOP = "a symbolic link that leads to itself (a loop); cardgen does not read it"
FIFO = "a named pipe, not a file; cardgen reads only regular files"
SECRET = "s3cr3t-token"


def _hostile(path: Path, kind: str, tmp_path: Path) -> Path | None:
    """Puts the hostile thing of `kind` at path; returns the outside file it leads to, if any."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
        return None
    if kind == "loop":
        path.symlink_to(path.name)
        return None
    target = Path("/dev/zero") if kind == "dev-zero" else tmp_path / "elsewhere" / f"secret{path.suffix}"
    if kind == "link-out":
        target.parent.mkdir(exist_ok=True)
        target.write_text(f"name: {{en: {SECRET}}}\n{SECRET}: {SECRET}\n", encoding="utf-8")
    path.symlink_to(target)
    return target


def _place_card(project, tmp_path):
    return game(project) / "roles" / "evil.yaml", ("validate",)


def _place_game(project, tmp_path):
    return game(project) / "game.yaml", ("validate",)


def _place_rulebook(project, tmp_path):
    return game(project) / "rulebook.yaml", ("validate",)


def _place_script(project, tmp_path):
    return game(project) / "script.yaml", ("validate",)


def _place_symbol(project, tmp_path):
    seer_with(project, "symbol: symbols/evil.svg")
    return game(project) / "symbols" / "evil.svg", ("validate",)


def _place_art(project, tmp_path):
    seer_with(project, "art: {file: art/evil.png}")
    return game(project) / "art" / "evil.png", ("validate",)


def _place_font(project, tmp_path):
    write(project, "game.yaml", GAME_YAML + fonts_entry("evil.ttf"))
    return project / "fonts" / "evil.ttf", ("build",)


def _place_template(project, tmp_path):
    write(project, "rulebook.yaml", yaml.safe_dump(RULEBOOK, allow_unicode=True))
    return project / "templates" / "documents" / "rulebook.xml.j2", ("build",)


def _place_template_data(project, tmp_path):
    return project / "templates" / "strings.yaml", ("build",)


def _place_include(project, tmp_path):
    return tmp_path / "mine" / "mini" / "roles" / "evil.yaml", ("validate", "--include", str(tmp_path / "mine"))


def _place_settings(project, tmp_path):
    return project / "cardgen.toml", ("build", "--printer", "office")


# place: (setup, how the problem names the file, the reason for a link out when the place words it its own way)
PLACES = {
    "card": (_place_card, "decks/mini/roles/evil.yaml: error: {}", None),
    "game": (_place_game, "decks/mini/game.yaml: error: {}", None),
    "rulebook": (_place_rulebook, "decks/mini/rulebook.yaml: error: {}", None),
    "script": (_place_script, "decks/mini/script.yaml: error: {}", None),
    "symbol": (
        _place_symbol,
        "decks/mini/roles/seer.yaml:3: error: symbol: 'symbols/evil.svg' is {}",
        "outside the game folder",
    ),
    "art": (
        _place_art,
        "decks/mini/roles/seer.yaml:3: error: art.file: 'art/evil.png' is {}",
        "outside the game folder",
    ),
    "font": (
        _place_font,
        "building mini (en)\ndecks/mini/game.yaml:13: error: fonts: font file evil.ttf (Evil regular) is {}",
        "outside the fonts folder",
    ),
    "template": (
        _place_template,
        "building mini (en)\ntemplates/documents/rulebook.xml.j2: error: {}",
        "leads outside its templates folder (a symbolic link?)",
    ),
    "template-data": (
        _place_template_data,
        "building mini (en)\ntemplates/strings.yaml: error: {}",
        "leads outside its templates folder (a symbolic link?)",
    ),
    "include": (_place_include, "mine/mini/roles/evil.yaml: error: {}", None),
    "settings": (_place_settings, "cardgen.toml: error: {}", None),
}


@pytest.mark.parametrize("kind", ["link-out", "dev-zero", "loop", "fifo"])
@pytest.mark.parametrize("place", list(PLACES))
def test_every_file_cardgen_reads_is_inside_its_folder_and_a_regular_file(project, tmp_path, place, kind):
    setup, shown, outside_words = PLACES[place]
    path, command = setup(project, tmp_path)
    secret = _hostile(path, kind, tmp_path)
    reason = {"loop": LOOP, "fifo": FIFO}.get(kind) or outside_words or OUTSIDE
    args = [command[0], "--decks", str(project / "decks"), *command[1:]]
    if command[0] == "build":
        args += ["--out", str(project / "out"), "--lang", "en"]
    result, watch = cli(tmp_path, *args, limit=30)
    assert (result.exit_code, result.stderr) == (1, shown.format(reason) + "\n1 error\n")
    assert SECRET not in result.output
    if secret is not None:
        assert str(secret.resolve()) not in watch.reads
    watch.assert_contained()


WORDS_GROUP = (
    "  word:\n    name: {en: Word, vi: Từ}\n    layout: words\n"
    "    words: {file: 'words/{lang}.yaml', per-card: {easy: 1}}\n"
)


@pytest.mark.parametrize(
    "kind,shown",
    [
        (
            "link-out",
            "decks/mini/game.yaml:16: error: groups.word.words.file: 'words/en.yaml' is outside the game folder",
        ),
        (
            "dev-zero",
            "decks/mini/game.yaml:16: error: groups.word.words.file: 'words/en.yaml' is outside the game folder",
        ),
        ("loop", f"decks/mini/words/en.yaml: error: {LOOP}"),
        ("fifo", f"decks/mini/words/en.yaml: error: {FIFO}"),
    ],
)
def test_a_word_list_is_read_by_the_same_rule(project, tmp_path, kind, shown):
    write(project, "game.yaml", GAME_YAML + WORDS_GROUP)
    write(project, "words/vi.yaml", "easy: [một, hai]\n")
    secret = _hostile(game(project) / "words" / "en.yaml", kind, tmp_path)
    result, watch = validate(project, limit=30)
    assert (result.exit_code, result.stderr) == (1, problems(shown))
    if secret is not None:
        assert str(secret.resolve()) not in watch.reads
    watch.assert_contained()


def test_a_game_folder_in_decks_that_leads_outside_is_refused_as_an_include_folder_is(project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(game(project), elsewhere)
    (project / "decks" / "evil").symlink_to(elsewhere)
    for command in ("validate", "build"):
        extra = ("--out", str(project / "out")) if command == "build" else ()
        result, watch = cli(tmp_path, command, "--decks", str(project / "decks"), *extra)
        assert (result.exit_code, result.stderr) == (1, problems(f"decks/evil: error: {OUTSIDE}"))
        assert not [path for path in watch.reads if path.startswith(str(elsewhere))]
        named, _ = cli(tmp_path, command, "evil", "--decks", str(project / "decks"), *extra)
        assert (named.exit_code, named.stderr) == (1, problems(f"decks/evil: error: {OUTSIDE}"))


@pytest.mark.parametrize("folder", ["templates", "fonts", "decks"])
def test_a_project_folder_that_leads_outside_is_refused(project, tmp_path, folder):
    """templates/ and fonts/ that were links out were followed: outside strings.yaml text was printed on
    the cards and outside fonts embedded; the decks folder itself is held to the same rule."""
    elsewhere = tmp_path / "elsewhere"
    if folder == "decks":
        shutil.move(project / "decks", elsewhere)
    else:
        elsewhere.mkdir()
        (elsewhere / "strings.yaml").write_text(f"en: {{fronts: {SECRET}}}\n", encoding="utf-8")
        shutil.copy(ROOT / "fonts" / "NotoSans_400Regular.ttf", elsewhere / "NotoSans_400Regular.ttf")
    (project / folder).symlink_to(elsewhere)
    result, watch = cli(
        tmp_path, "build", "--decks", str(project / "decks"), "--out", str(project / "out"), "--lang", "en"
    )
    shown = str(project / "decks") if folder == "decks" else folder
    assert (result.exit_code, result.stderr) == (1, problems(f"{shown}: error: {OUTSIDE}"))
    assert SECRET not in result.output
    assert not [path for path in watch.reads if path.startswith(str(elsewhere))]


# == issue 13: what a build stumbled on, validate now finds (or the build no longer does) ======

LONG = " ".join(f"word{n}" for n in range(600))


def _script_with_step(project: Path, text: str) -> None:
    script = {
        "versions": {
            "moderator": {
                "name": {"en": "Moderator", "vi": "Quản trò"},
                "phases": [
                    {
                        "title": {"en": "Night", "vi": "Đêm"},
                        "steps": [{"say": {"en": text, "vi": "Ngủ."}}, {"roles": "night"}],
                    }
                ],
            }
        }
    }
    write(project, "script.yaml", yaml.safe_dump(script, allow_unicode=True, width=100_000))


@pytest.mark.parametrize("where", ["script.yaml", "card"])
def test_a_600_word_script_step_splits_across_pages(project, where):
    """A say/do step of about 600 words was a ReportLab LayoutError traceback, and validate said the game was
    valid: a step is now a paragraph that goes on over the page."""
    if where == "card":
        _script_with_step(project, "Sleep.")
        write(project, SEER, SEER_TEXT + f"  script:\n    say: {{en: '{LONG}', vi: Xem.}}\n")
    else:
        _script_with_step(project, LONG)
    checked, _ = validate(project)
    assert (checked.exit_code, checked.stdout) == (0, "1 game valid\n")
    result, watch = build(project)
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(project / "out" / "mini" / "mini-script-en.pdf")
    pages = [" ".join(page.extract_text().split()) for page in reader.pages]
    assert len(pages) >= 2 and "word0" in pages[0] and "word599" not in pages[0]
    assert re.findall(r"word\d+", " ".join(pages)) == LONG.split()  # every word, in order, none lost
    watch.assert_contained()


SEER_TEXT = (FIXTURES / "mini" / "decks" / "mini" / "roles" / "seer.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "body,reason",
    [
        (
            '<path d="M"/>',
            'an SVG with a <path d="M">, which lacks the move-to and point a path starts with (d="M x y ...")',
        ),
        (
            '<rect width="1e300" height="5"/>',
            "an SVG with the number 1e300 in <rect width>, beyond the ±1000000 cardgen draws",
        ),
        ('<path d="M 1 1 L 1e300 5"/>', "an SVG with the number 1e300 in <path d>, beyond the ±1000000 cardgen draws"),
    ],
    ids=["path-M", "width-1e300", "coordinate-1e300"],
)
def test_svg_geometry_that_reportlab_cannot_draw_is_found_by_validate(project, body, reason):
    """d="M" and width="1e300" were tracebacks from svglib/ReportLab in the build; validate passed them."""
    write(project, "symbols/odd.svg", SVG.format(body))
    seer_with(project, "symbol: symbols/odd.svg")
    for run_ in (validate, build):
        result, watch = run_(project)
        assert (result.exit_code, result.stderr) == (
            1,
            problems(f"decks/mini/roles/seer.yaml:3: error: symbol: 'symbols/odd.svg' is {reason}"),
        )
        watch.assert_contained()


@pytest.mark.parametrize("root", ['width="1e300" height="10"', 'width="0" height="10"'], ids=["1e300", "zero"])
def test_an_svg_whose_size_cannot_be_drawn_is_refused(project, root):
    write(
        project, "symbols/odd.svg", f'<svg xmlns="http://www.w3.org/2000/svg" {root}><rect width="5" height="5"/></svg>'
    )
    seer_with(project, "symbol: symbols/odd.svg")
    result, _ = validate(project)
    reason = (
        "an SVG with the number 1e300 in <svg width>, beyond the ±1000000 cardgen draws"
        if "1e300" in root
        else "an SVG whose width is 0; it must be more than 0"
    )
    assert (result.exit_code, result.stderr) == (
        1,
        problems(f"decks/mini/roles/seer.yaml:3: error: symbol: 'symbols/odd.svg' is {reason}"),
    )


def test_an_svg_that_svglib_cannot_draw_is_a_problem_of_validate_and_build(project, monkeypatch):
    """Whatever else svglib or ReportLab stumble on is found by drawing the symbol once while validating,
    and by the build where it draws the symbol on the sheets (it draws none beforehand)."""
    from cardgen.cards import icons, svgcheck

    parse = icons._parse

    def broken(data):
        if b"<circle" in data:
            raise IndexError("list index out of range")
        return parse(data)

    svgcheck._drawing.cache_clear()
    monkeypatch.setattr(icons, "_parse", broken)
    write(project, "symbols/odd.svg", SVG.format('<rect width="5" height="5"/><circle r="3"/>'))
    seer_with(project, "symbol: symbols/odd.svg")
    for run_ in (validate, build):
        icons._svg.cache_clear()
        result, watch = run_(project)
        said = "".join(line for line in result.stderr.splitlines(keepends=True) if not line.startswith("building "))
        assert (result.exit_code, said) == (
            1,
            problems(
                "decks/mini/roles/seer.yaml:3: error: symbol: 'symbols/odd.svg' is an SVG cardgen cannot draw "
                "(list index out of range)"
            ),
        )
        watch.assert_contained()
    svgcheck._drawing.cache_clear()
    icons._svg.cache_clear()
    assert not list((project / "out").rglob("*.pdf"))


def test_a_dash_pattern_of_zero_length_is_drawn_solid(project):
    """stroke-dasharray="0" was a ReportLab traceback ("dash cycle should be larger than zero"); SVG says it
    is a solid line."""
    write(
        project,
        "symbols/dashed.svg",
        SVG.format(
            '<rect x="1" y="1" width="8" height="8" fill="none" stroke="black" stroke-width="1" stroke-dasharray="0"/>'
        ),
    )
    seer_with(project, "symbol: symbols/dashed.svg")
    checked, _ = validate(project)
    assert checked.exit_code == 0, checked.output
    result, _ = build(project)
    assert result.exit_code == 0, result.output
    forms = pypdf.PdfReader(project / "out" / "mini" / "mini-cards-en.pdf").pages[0]["/Resources"]["/XObject"]
    drawn = b"".join(form.get_object().get_data() for form in forms.values())
    # The rectangle is stroked, with the solid dash pattern ([] 0 d) and no other.
    assert b"1 1 8 8 re S" in drawn and set(re.findall(rb"\[[^\]]*\] [\d.]+ d", drawn)) == {b"[] 0 d"}


@pytest.mark.parametrize(
    "text,line,shown",
    [
        (
            'name: {en: "Se\\0er", vi: Tiên tri}\nteam: village\nability: {en: Look., vi: Xem.}\n',
            1,
            "name.en: control character U+0000 (NUL)",
        ),
        (
            'name: {en: Seer, vi: Tiên tri}\nteam: village\nability:\n  en: "Look at\n    one\\x1b[2J card."\n  vi: Xem.\n',
            5,
            "ability.en: control character U+001B (escape)",
        ),
        (
            "name: {en: Seer, vi: Tiên tri}\nteam: village\nability: {en: 'Look\tnow.', vi: Xem.}\n",
            3,
            "ability.en: control character U+0009 (tab)",
        ),
    ],
    ids=["nul-escape", "escape-on-a-later-line", "raw-tab"],
)
def test_a_control_character_is_an_error_where_it_is_written(project, text, line, shown):
    """A NUL written as an escape passed validate, then the build blamed the built-in template
    documents/rulebook.xml.j2."""
    write(project, SEER, text)
    _with_documents(project)
    for run_ in (validate, build):
        result, _ = run_(project)
        assert (result.exit_code, result.stderr) == (
            1,
            problems(
                f"decks/mini/roles/seer.yaml:{line}: error: {shown} in the text; deck texts may hold line breaks but no other "
                "control characters"
            ),
        )


def test_a_nul_in_the_rulebook_is_an_error_at_its_line(project):
    write(
        project,
        "rulebook.yaml",
        "players: {min: 2, max: 4}\nsections:\n  goal:\n    title: {en: Goal, vi: x}\n"
        '    body: {en: "Win\n      the\\0 game.", vi: y}\n',
    )
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            "decks/mini/rulebook.yaml:6: error: sections.goal.body.en: control character U+0000 (NUL) in the text; deck texts "
            "may hold line breaks but no other control characters"
        ),
    )


# == issue 13: fonts ============================================================================

NOTO = ROOT / "fonts" / "NotoSans_400Regular.ttf"
# A font of ReportLab's own, with a PostScript name none of cardgen's fonts has: a font made from it
# cannot clash with the bundled ones in this process.
VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"


def font_with_cmap(groups: list[tuple[int, int, int]]) -> bytes:
    """Vera with its character map replaced by one format-12 table of these (first, last, glyph)."""
    data = bytearray(VERA.read_bytes())
    (count,) = struct.unpack_from(">H", data, 4)
    (record,) = [12 + 16 * i for i in range(count) if data[12 + 16 * i : 16 + 16 * i] == b"cmap"]
    table = struct.pack(">HHIII", 12, 0, 16 + 12 * len(groups), 0, len(groups)) + b"".join(
        struct.pack(">III", *group) for group in groups
    )
    cmap = struct.pack(">HHHHI", 0, 1, 3, 10, 12) + table
    data += b"\0" * (-len(data) % 4)
    struct.pack_into(">II", data, record + 8, len(data), len(cmap))
    return bytes(data + cmap)


def _validate_in_a_process(project: Path, memory: int = 1024**3, seconds: float = 60.0):
    def limit_memory():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    try:
        return subprocess.run(
            [sys.executable, "-m", "cardgen", "validate", "--decks", str(project / "decks")],
            capture_output=True,
            text=True,
            cwd=project.parent,
            preexec_fn=limit_memory,
            timeout=seconds,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"validate ran past {seconds} s")


def test_a_font_whose_character_map_claims_every_code_point_is_refused_in_bounded_time_and_memory(project):
    """A TTF whose cmap claims a huge range: MemoryError after 11-23 s under a 4 GB cap, unbounded without one.
    Here, with 1 GB and a minute at most, it is refused by name."""
    (project / "fonts").mkdir()
    (project / "fonts" / "evil.ttf").write_bytes(font_with_cmap([(0, 0xFFFFFFFF, 3)]))
    write(project, "game.yaml", GAME_YAML + fonts_entry("evil.ttf"))
    done = _validate_in_a_process(project)
    assert "Traceback" not in done.stderr, done.stderr[-800:]
    assert (done.returncode, done.stderr) == (
        1,
        problems(
            "decks/mini/game.yaml:13: error: fonts: cannot use font file evil.ttf: not a TrueType font cardgen can embed "
            "(its character map claims characters U+0 to U+FFFFFFFF, beyond Unicode)"
        ),
    )


def test_a_font_with_a_sane_character_map_of_the_same_making_is_used(project):
    """The font the test above makes, with a character map of ASCII only: cardgen takes it."""
    (project / "fonts").mkdir()
    (project / "fonts" / "ascii.ttf").write_bytes(font_with_cmap([(0x20, 0x7E, 3)]))
    write(project, "game.yaml", GAME_YAML + fonts_entry("ascii.ttf"))
    done = _validate_in_a_process(project)
    assert (done.returncode, done.stdout, done.stderr) == (0, "1 game valid\n", "")


def _glyph_offsets(data: bytes) -> int:
    """Where Vera's 'loca' table starts."""
    (count,) = struct.unpack_from(">H", data, 4)
    return next(
        struct.unpack_from(">I", data, 12 + 16 * i + 8)[0]
        for i in range(count)
        if data[12 + 16 * i : 16 + 16 * i] == b"loca"
    )


@pytest.mark.parametrize(
    "make,reason",
    [
        (lambda data: data[:4] + b"\0\0" + data[6:], "a font claiming 0 tables"),
        (lambda data: data[:4] + struct.pack(">H", 255) + data[6:], "a table reaches past the end of the file"),
        # glyph 1 ends before it starts
        (
            lambda data: data[: _glyph_offsets(data) + 2] + b"\xff\xff" + data[_glyph_offsets(data) + 4 :],
            "a font whose glyph 0 lies outside its 'glyf' table",
        ),
        (
            lambda data: font_with_cmap([(0x40, 0x30, 3)]),
            "its character map claims characters U+40 to U+30, beyond Unicode",
        ),
    ],
    ids=["no-tables", "table-records-past-the-end", "glyph-outside-glyf", "backward-range"],
)
def test_a_font_with_broken_tables_is_refused_before_reportlab_parses_it(project, make, reason):
    (project / "fonts").mkdir()
    (project / "fonts" / "evil.ttf").write_bytes(make(VERA.read_bytes()))
    write(project, "game.yaml", GAME_YAML + fonts_entry("evil.ttf"))
    result, _ = validate(project)
    assert (result.exit_code, result.stderr) == (
        1,
        problems(
            f"decks/mini/game.yaml:13: error: fonts: cannot use font file evil.ttf: not a TrueType font cardgen can embed "
            f"({reason})"
        ),
    )


def test_a_copy_of_a_bundled_font_under_another_name_is_that_font(project):
    """A project font that is a copy of a bundled one under another name: "already registered" traceback."""
    from cardgen.text.fonts import FontBook

    # A file is registered once a process, under the first name it is asked for: registered first as
    # Mine's here, Noto Sans would be "Mine-Regular" in the tests this process runs next.
    FontBook.load(ROOT / "templates" / "fonts.yaml", [ROOT / "fonts"]).face("NotoSans", False, False)
    (project / "fonts").mkdir()
    shutil.copy(NOTO, project / "fonts" / "Mine.ttf")
    write(project, "game.yaml", GAME_YAML + fonts_entry("Mine.ttf", family="Mine"))
    checked, _ = validate(project)
    assert (checked.exit_code, checked.stdout, checked.stderr) == (0, "1 game valid\n", "")
    result, watch = build(project)
    assert result.exit_code == 0, result.output
    fonts = {
        str(font.get_object()["/BaseFont"]).split("+")[-1]
        for page in pypdf.PdfReader(project / "out" / "mini" / "mini-cards-en.pdf").pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert "NotoSans-Regular" in fonts
    watch.assert_contained()


def test_another_font_under_a_bundled_font_s_postscript_name_is_a_clean_error(project):
    (project / "fonts").mkdir()
    changed = bytearray(NOTO.read_bytes())
    changed[-64] ^= 0xFF  # other bytes, the same PostScript name
    (project / "fonts" / "Mine.ttf").write_bytes(bytes(changed))
    write(project, "game.yaml", GAME_YAML + fonts_entry("Mine.ttf", family="Mine"))
    # In a process of its own: registered here, the changed font would stand for Noto Sans in later tests.
    result = _validate_in_a_process(project)
    assert (result.returncode, result.stderr) == (
        1,
        problems(
            "decks/mini/game.yaml:13: error: fonts: font files Mine.ttf and NotoSans_400Regular.ttf have the same PostScript "
            "name 'NotoSans-Regular' but are different fonts; one PDF cannot hold both: give one a name of its own"
        ),
    )


# == issue 13: a project's template is bounded in time, memory and output ======================


@pytest.mark.parametrize(
    "body,message",
    [
        (
            "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}",
            "templates/documents/rulebook.xml.j2: error: did not finish within 2 s of processor time; cardgen stops a template "
            "there",
        ),
        (
            "{{ 'x'.ljust(2 ** 32) }}",
            "templates/documents/rulebook.xml.j2:3: error: needed more than the 512 MiB of memory a template may use",
        ),
        (
            "{{ 'x' * 10 ** 9 }}",
            "templates/documents/rulebook.xml.j2:3: error: a repetition this long (1 × 1000000000) is refused in templates",
        ),
        (
            "{% for i in range(100000) %}{{ 'y' * 99999 }}{% endfor %}",
            "templates/documents/rulebook.xml.j2: error: its output runs past 16 million characters; cardgen stops it there",
        ),
        (
            '</p>{% for i in range(3000) %}<h1 break="yes">{{ i }}</h1>{% endfor %}<p>',
            "decks/mini/game.yaml:1: error: mini (en): its rulebook would run to at least 3001 pages, 1001 past the 2000 "
            "a document may have: split the game, or shorten its texts or its template",
        ),
    ],
    ids=["time", "memory", "repetition", "output", "pages"],
)
def test_a_project_template_cannot_run_away(project, monkeypatch, body, message):
    """A hostile project template could exhaust memory or run past 60 s."""
    from cardgen.documents import templating

    monkeypatch.setattr(templating, "SECONDS", 2.0)
    own_rulebook_template(project, f"<document>\n<h1>{{{{ game.name }}}}</h1>\n<p>{body}</p>\n</document>\n")
    start = time.monotonic()
    result, watch = build(project, limit=60)
    assert (result.exit_code, result.stderr) == (1, built(message))
    assert time.monotonic() - start < 30
    watch.assert_contained()
    checked, _ = validate(project)  # validate renders the documents too, and says the same
    per_language = [message.replace("(en)", f"({lang})") for lang in ("en", "vi")] if "(en)" in message else [message]
    assert (checked.exit_code, checked.stderr) == (1, problems(*per_language))


# == issue 13: a signal ends every process of a build ==========================================


def _children(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _drawing_workers(process: subprocess.Popen) -> list[int]:
    """The worker processes of a parallel build, once they have started on their first jobs."""
    end = time.monotonic() + 120
    while len(_children(process.pid)) < 2 and process.poll() is None and time.monotonic() < end:
        time.sleep(0.01)
    workers = _children(process.pid)
    assert len(workers) >= 2 and process.poll() is None, "the build ended before it had workers"
    time.sleep(0.3)  # into their first jobs
    return workers


def _alive_in_group(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers through /proc (Linux)")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_to_a_parallel_build_ends_its_workers_and_removes_its_temporary_files(tmp_path, signum):
    """SIGTERM to a parallel build left its workers alive indefinitely (Ctrl-C was clean)."""
    from conftest import ROOT

    # Every bundled game, with its documents: a build of some seconds, so that the signal lands while the
    # workers draw (Werewolf's card sheets alone were drawn within 0.3 s of the workers' start).
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-m", "cardgen", "build", "--jobs", "2", "--out", str(out)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        # As from a terminal: a test run under nohup ignores SIGHUP, and cardgen keeps a signal its caller
        # ignores ignored.
        preexec_fn=lambda: signal.signal(signum, signal.SIG_DFL),
    )
    try:
        _drawing_workers(process)
        process.send_signal(signum)
        _, err = process.communicate(timeout=30)
        end = time.monotonic() + 15
        while _alive_in_group(process.pid) and time.monotonic() < end:
            time.sleep(0.05)
        assert not _alive_in_group(process.pid), "a worker outlived the build"
    finally:
        if _alive_in_group(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 128 + signum
    assert b"Traceback" not in err, err.decode()[-2000:]
    assert not list(out.rglob(".cardgen-*.tmp")) if out.exists() else True


def test_a_named_pipe_among_the_cards_hangs_neither_validate_nor_build(project):
    """A FIFO named roles/x.yaml hung validate and build for ever."""
    os.mkfifo(game(project) / "roles" / "x.yaml")
    for run_ in (validate, build):
        result, watch = run_(project, limit=20)
        assert (result.exit_code, result.stderr) == (1, problems(f"decks/mini/roles/x.yaml: error: {FIFO}"))
        watch.assert_contained()
