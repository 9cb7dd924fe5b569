"""docs/designing.md runs exactly as written.

The guide's conventions, which this file follows in a fresh temporary folder
holding copies of the repository's decks/ and docs/example/ (as a clone would):

- a fenced block with the info string ``yaml file=PATH`` or ``text file=PATH``
  is written to PATH, relative to the folder the commands run in; with
  ``yaml append=PATH`` it is added to the end of PATH;
- a ``console`` block holds commands, one per line, each starting with ``$ ``;
  they run through bash with ``cardgen`` being the installed console script,
  and ``cd`` changes the folder of the commands after it;
- an ``output`` block right after a ``console`` block is the exact combined
  stdout and stderr of that block's last command; only the seconds of a
  build's summary line are left out of the comparison. A command whose output
  ends with "N error(s)[, M warning(s)]" or "N warning(s) (fails with --strict)"
  must exit 1, every other command 0.

Sections 1, 2 and 3 run one after the other in one folder (section 3's
examples go on with section 2's game). Each "Common mistakes" subsection runs
in its own copy of the folder as section 1 left it. Section 3 must name every
key of the schema.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema
import pdfplumber
import pytest
import yaml
from pypdf import PdfReader

from cardgen.deck import schema

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "designing.md"
COMMANDS = {"cardgen", "cp", "mkdir", "cd", "rm"}
SUMMARY = re.compile(r"(?m)\b(\d+ files?, \d+ pages?, \d+ cards?(?: on \d+ sheets?)?) in \d+\.\d s$")
PROBLEMS = re.compile(r"^\d+ errors?(, \d+ warnings?)?$|^\d+ warnings? \(fails with --strict\)$")
WATCH_BUILT = re.compile(r"^\d\d:\d\d:\d\d built: ")
WATCH_FAILED = re.compile(r"^\d\d:\d\d:\d\d not built; watching for changes$")


# -- the guide, as blocks -------------------------------------------------------------------------


@dataclass
class Block:
    info: str  # the fence's info string
    text: str  # the content, each line ending in "\n"
    line: int  # the line of the opening fence, 1-based
    section: str  # the "## " heading it is under
    subsection: str  # the "### " heading it is under, or ""
    follows_block: bool  # only blank lines since the previous block's closing fence

    @property
    def kind(self) -> str:
        return self.info.split()[0] if self.info else ""

    @property
    def path(self) -> str | None:
        match = re.fullmatch(r"(?:yaml|text) (?:file|append)=(\S+)", self.info)
        return match.group(1) if match else None

    @property
    def appends(self) -> bool:
        return " append=" in self.info

    @property
    def commands(self) -> list[str]:
        lines = self.text.splitlines()
        assert lines, f"line {self.line}: empty console block"
        for line in lines:
            assert line.startswith("$ "), f"line {self.line}: console line without '$ ': {line!r}"
        return [line[2:] for line in lines]

    def where(self) -> str:
        return f"docs/designing.md:{self.line} ({self.subsection or self.section})"


def parse_guide(text: str) -> list[Block]:
    blocks: list[Block] = []
    section = subsection = ""
    fence: tuple[str, int] | None = None
    body: list[str] = []
    blank_since_block = False
    for number, line in enumerate(text.splitlines(), start=1):
        if fence is None:
            if line.startswith("```"):
                fence, body = (line[3:].strip(), number), []
            elif line.startswith("## "):
                section, subsection, blank_since_block = line[3:].strip(), "", False
            elif line.startswith("### "):
                subsection, blank_since_block = line[4:].strip(), False
            elif line.strip():
                blank_since_block = False
        elif line.rstrip() == "```":
            info, start = fence
            follows = bool(blocks) and blank_since_block
            blocks.append(Block(info, "".join(f"{b}\n" for b in body), start, section, subsection, follows))
            fence, blank_since_block = None, True
        else:
            body.append(line)
    assert fence is None, f"docs/designing.md:{fence[1]}: fence never closed"
    return blocks


BLOCKS = parse_guide(GUIDE.read_text(encoding="utf-8"))


def _section(number: int) -> list[Block]:
    return [b for b in BLOCKS if b.section.startswith(f"{number}. ")]


MISTAKES: dict[str, list[Block]] = {}
for _block in _section(4):
    if _block.subsection:
        MISTAKES.setdefault(_block.subsection, []).append(_block)


# -- running commands -----------------------------------------------------------------------------


def _cardgen_env(tmp: Path) -> dict[str, str]:
    """The environment with `cardgen` on PATH: the installed console script, else `python -m cardgen`."""
    # The script beside this Python first: it runs the cardgen these tests import.
    script = shutil.which("cardgen", path=str(Path(sys.executable).parent)) or shutil.which("cardgen")
    if script:
        folder = str(Path(script).parent)
    else:
        wrapper = tmp / "bin" / "cardgen"
        wrapper.parent.mkdir(parents=True, exist_ok=True)
        wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m cardgen "$@"\n', encoding="utf-8")
        wrapper.chmod(0o755)
        folder = str(wrapper.parent)
    env = dict(os.environ)
    env["PATH"] = folder + os.pathsep + env.get("PATH", "")
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def normalise(output: str) -> str:
    return SUMMARY.sub(r"\1 in <seconds> s", output)


def expected_exit(output: str) -> int:
    lines = output.splitlines()
    return 1 if lines and PROBLEMS.match(lines[-1]) else 0


@dataclass
class Ran:
    where: str
    command: str
    exit_code: int
    output: str
    expected: str | None  # the output block, when the command has one


@dataclass
class Session:
    """A folder the guide's blocks run in, and what they did."""

    root: Path
    env: dict[str, str]
    cwd: Path = field(init=False)
    ran: list[Ran] = field(default_factory=list)
    last_file: Path | None = None
    watch_log: list[str] = field(default_factory=list)
    watch_kept_pdfs: bool = False  # the PDFs were left alone by a broken save

    def __post_init__(self):
        self.cwd = self.root

    def run_blocks(self, blocks: list[Block]) -> None:
        for index, block in enumerate(blocks):
            nxt = blocks[index + 1] if index + 1 < len(blocks) else None
            if block.path:
                target = self.cwd / block.path
                target.parent.mkdir(parents=True, exist_ok=True)
                before = target.read_text(encoding="utf-8") if block.appends else ""
                target.write_text(before + block.text, encoding="utf-8")
                self.last_file = target
            elif block.kind == "console":
                expected = nxt.text if nxt is not None and nxt.kind == "output" and nxt.follows_block else None
                commands = block.commands
                for number, command in enumerate(commands):
                    self.run(block.where(), command, expected if number == len(commands) - 1 else None)

    def run(self, where: str, command: str, expected: str | None) -> None:
        word = command.split()[0]
        assert word in COMMANDS, f"{where}: '{word}' is not one of the guide's simple commands {sorted(COMMANDS)}"
        if word == "cd":
            self.cwd = (self.cwd / command.split(maxsplit=1)[1]).resolve()
            assert self.cwd.is_dir(), f"{where}: cd into a missing folder: {command}"
            return
        if command.startswith("cardgen watch"):
            self.watch(where, command)
            return
        result = subprocess.run(
            ["bash", "-c", command],
            cwd=self.cwd,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=120,
        )
        self.ran.append(Ran(where, command, result.returncode, result.stdout.decode("utf-8"), expected))

    def watch(self, where: str, command: str) -> None:
        """Runs `cardgen watch` as the guide says: a build, a rebuild on a save, a broken save reported with
        the PDFs left alone, Ctrl-C."""
        assert self.last_file is not None, f"{where}: watch before any file was written"
        lines: queue.Queue[str] = queue.Queue()
        proc = subprocess.Popen(
            ["bash", "-c", f"exec {command}"],
            cwd=self.cwd,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )

        def read() -> None:
            for raw in proc.stdout:
                lines.put(raw.decode("utf-8").rstrip("\n"))

        reader = threading.Thread(target=read, daemon=True)
        reader.start()

        def wait_for(pattern: re.Pattern, what: str) -> None:
            unexpected = WATCH_FAILED if pattern is WATCH_BUILT else WATCH_BUILT
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    line = lines.get(timeout=0.2)
                except queue.Empty:
                    assert proc.poll() is None, f"{where}: watch ended early: {self.watch_log}"
                    continue
                self.watch_log.append(line)
                if pattern.search(line):
                    return
                assert not unexpected.search(line), (
                    f"{where}: watch printed {line!r} instead of {what}: {self.watch_log}"
                )
            raise AssertionError(f"{where}: watch never printed {what}: {self.watch_log}")

        def save(text: str) -> None:
            self.last_file.write_text(text, encoding="utf-8")
            stamp = time.time_ns() + 2_000_000_000  # a new modification time, whatever the clock's grain
            os.utime(self.last_file, ns=(stamp, stamp))

        good = self.last_file.read_text(encoding="utf-8")
        try:
            wait_for(WATCH_BUILT, "a first build")
            save(good + "# an edit\n")
            wait_for(WATCH_BUILT, "a rebuild after a save")
            pdfs = {p: p.stat().st_mtime_ns for p in (self.cwd / "output").rglob("*.pdf")}
            save("name: [\n")
            wait_for(WATCH_FAILED, "'not built' after a broken save")
            self.watch_kept_pdfs = bool(pdfs) and pdfs == {
                p: p.stat().st_mtime_ns for p in (self.cwd / "output").rglob("*.pdf")
            }
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=30)
            reader.join(timeout=5)
            while not lines.empty():
                self.watch_log.append(lines.get())
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            save(good)
        self.ran.append(Ran(where, command, proc.returncode, "\n".join(self.watch_log) + "\n", None))


def check(ran: list[Ran]) -> list[str]:
    """Every way the commands differ from the guide, as messages."""
    wrong = []
    for r in ran:
        if "Traceback" in r.output:
            wrong.append(f"{r.where}: `{r.command}` crashed:\n{r.output}")
            continue
        if r.expected is not None and normalise(r.output) != normalise(r.expected):
            wrong.append(f"{r.where}: `{r.command}` printed\n{r.output}\ninstead of\n{r.expected}")
        want = expected_exit(r.expected) if r.expected is not None else 0
        if r.exit_code != want:
            wrong.append(f"{r.where}: `{r.command}` exited {r.exit_code}, not {want}:\n{r.output}")
    return wrong


def _fresh_clone(tmp: Path) -> Path:
    root = tmp / "clone"
    shutil.copytree(ROOT / "decks", root / "decks")
    shutil.copytree(ROOT / "docs" / "example", root / "docs" / "example")
    return root


def _draft() -> Block:
    (draft,) = [b for b in _section(4) if not b.subsection and b.kind == "yaml"]
    return draft


@dataclass
class Walkthrough:
    session: Session  # sections 1 and 2, in one folder
    after_part_one: Path  # a copy of the folder as section 1 left it
    draft: Session | BaseException  # the mistakes' draft, validated
    mistakes: dict[str, Session | BaseException]


@pytest.fixture(scope="module")
def walkthrough(tmp_path_factory) -> Walkthrough:
    """Runs the whole guide once. Section 2, the draft and each mistake need only what section 1
    left, so they run side by side, each command in its own process, to keep the test quick."""
    tmp = tmp_path_factory.mktemp("guide")
    env = _cardgen_env(tmp)
    session = Session(_fresh_clone(tmp), env)
    session.run_blocks(_section(1))
    snapshot = tmp / "after-part-one"
    shutil.copytree(session.root, snapshot, ignore=shutil.ignore_patterns("output"))

    def in_copy(name: str, blocks: list[Block]) -> Session:
        folder = tmp / name
        shutil.copytree(snapshot, folder)
        copy = Session(folder, env)
        copy.run_blocks(blocks)
        return copy

    def draft() -> Session:
        copy = in_copy("draft", [])
        (copy.root / "my-roles" / "werewolf" / "roles" / "fox.yaml").write_text(_draft().text, encoding="utf-8")
        copy.run("draft", "cardgen validate werewolf --include my-roles --strict", "1 game valid\n")
        return copy

    def outcome(future: concurrent.futures.Future) -> Session | BaseException:
        return future.exception() or future.result()

    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        part_two = pool.submit(session.run_blocks, _section(2))
        drafted = pool.submit(draft)
        mistakes = {
            title: pool.submit(in_copy, f"mistake-{n}", blocks) for n, (title, blocks) in enumerate(MISTAKES.items())
        }
        part_two.result()
        session.run_blocks(_section(3))
        return Walkthrough(
            session, snapshot, outcome(drafted), {title: outcome(future) for title, future in mistakes.items()}
        )


# -- the tests ------------------------------------------------------------------------------------


def test_guide_has_the_promised_examples():
    assert len(_section(1)) >= 10 and len(_section(2)) >= 8
    assert len(MISTAKES) >= 8, sorted(MISTAKES)
    for index, block in enumerate(BLOCKS):
        if block.kind == "output":
            previous = BLOCKS[index - 1]
            assert previous.kind == "console" and block.follows_block, (
                f"{block.where()}: an output block must come right after a console block"
            )
        if block.kind in ("yaml", "text") and ("file=" in block.info or "append=" in block.info):
            assert block.path and not Path(block.path).is_absolute() and ".." not in Path(block.path).parts, (
                f"{block.where()}: bad file= path in {block.info!r}"
            )


def test_walkthrough_commands_print_what_the_guide_shows(walkthrough: Walkthrough):
    ran = walkthrough.session.ran
    shown = [r for r in ran if r.expected is not None]
    assert len(shown) >= 9, [r.command for r in shown]
    assert any(r.command.startswith("cardgen watch") for r in ran)
    wrong = check(ran)
    assert not wrong, "\n\n".join(wrong)


def test_watch_prints_what_the_guide_says(walkthrough: Walkthrough):
    log = walkthrough.session.watch_log
    assert log and log[-1] == "stopped", log
    built = [line for line in log if WATCH_BUILT.search(line)]
    assert len(built) == 2 and any(WATCH_FAILED.search(line) for line in log), log
    assert walkthrough.session.watch_kept_pdfs
    prose = " ".join(GUIDE.read_text(encoding="utf-8").split("### 1.9", 1)[1].split("### 1.10", 1)[0].split())
    failed = re.search(r"`(\d\d:\d\d:\d\d not built[^`]*)`", prose)
    assert failed and WATCH_FAILED.search(failed.group(1)) and "`stopped`" in prose
    # The guide's example line, with another clock time and another build time.
    example = re.search(r"`(\d\d:\d\d:\d\d built: [^`]+)`", prose)
    assert example, "the watch section shows no example line"

    def bare(line: str) -> str:
        return normalise(re.sub(r"^\d\d:\d\d:\d\d", "HH:MM:SS", line))

    assert bare(example.group(1)) == bare(built[1])  # the rebuild after an edit


def _pdf_text(path: Path) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(path).pages]


def test_the_fox_is_on_the_card_sheet_in_the_rulebook_and_in_the_script(walkthrough: Walkthrough):
    out = walkthrough.session.root / "output" / "werewolf"
    # On the first page, third in the top row (of four: poker cards go 4 x 2 on A4 turned).
    with pdfplumber.open(out / "werewolf-cards-vi.pdf") as pdf:
        page = pdf.pages[0]
        (word,) = [w for w in page.extract_words() if w["text"] == "Cáo"]
        assert page.width / 2 < word["x0"] < page.width * 3 / 4 and word["bottom"] < page.height / 2, word
    rulebook = "\n".join(_pdf_text(out / "werewolf-rulebook-vi.pdf"))
    assert "Cáo," in rulebook  # the components list
    assert "Mỗi đêm, bạn chỉ vào một người chơi." in rulebook  # the roles section
    script = "\n".join(_pdf_text(out / "werewolf-script-vi.pdf"))
    seer, fox, wolves = (script.find(f"{name}, hãy mở mắt.") for name in ("Tiên tri", "Cáo", "Bầy Sói"))
    assert -1 < seer < fox < wolves, (seer, fox, wolves)
    assert "Cáo, hãy nhắm mắt." in script


def test_the_russian_margin_reads_as_the_guide_says(walkthrough: Walkthrough):
    cards = walkthrough.session.root / "my-project" / "output" / "night-village" / "night-village-cards-ru.pdf"
    quoted = re.search(r'margin of each page now reads "([^"]+)"', " ".join(GUIDE.read_text(encoding="utf-8").split()))
    assert quoted
    assert quoted.group(1) in _pdf_text(cards)[0]


def test_editor_schemas_fit_the_guides_files(walkthrough: Walkthrough):
    root = walkthrough.session.root
    # The comment line at the top of a file names a schema the guide wrote, relative to the file.
    commented = [b for b in BLOCKS if b.path and b.text.startswith("# yaml-language-server: $schema=")]
    assert commented
    for block in commented:
        target = walkthrough.after_part_one / block.path
        schema_path = (target.parent / block.text.split("=", 1)[1].split()[0]).resolve()
        assert schema_path.is_file(), f"{block.where()}: {schema_path} does not exist"
        rules = json.loads(schema_path.read_text(encoding="utf-8"))
        jsonschema.validate(yaml.safe_load(block.text), rules)
    # The settings.json mapping: every schema exists and every pattern finds files that fit it.
    (settings,) = [b for b in BLOCKS if b.kind == "json"]
    mapping = json.loads(settings.text)["yaml.schemas"]
    assert len(mapping) == 4
    for schema_file, patterns in mapping.items():
        rules = json.loads((root / schema_file).read_text(encoding="utf-8"))
        validator = jsonschema.Draft202012Validator(rules)
        for pattern in [patterns] if isinstance(patterns, str) else patterns:
            files = sorted(root.glob(pattern))
            assert files, f"{pattern} matches nothing"
            for path in files:
                errors = [e.message for e in validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))]
                assert not errors, f"{path.relative_to(root)}: {errors}"


def test_a_games_own_fonts_as_in_the_guide(walkthrough: Walkthrough, tmp_path):
    """Section 2.6's snippet, with the DejaVu fonts it names, where this machine has them."""
    dejavu = Path("/usr/share/fonts/truetype/dejavu")
    if not (dejavu / "DejaVuSerif.ttf").is_file() or not (dejavu / "DejaVuSerif-Bold.ttf").is_file():
        pytest.skip("no DejaVu Serif on this machine")
    (snippet,) = [b for b in _section(2) if b.kind == "yaml" and not b.path and "fonts:" in b.text]
    project = tmp_path / "my-project"
    shutil.copytree(walkthrough.session.root / "my-project", project, ignore=shutil.ignore_patterns("output"))
    (project / "fonts").mkdir()
    for name in ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"):
        shutil.copy(dejavu / name, project / "fonts" / name)
    game = project / "decks" / "night-village" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + snippet.text, encoding="utf-8")
    result = subprocess.run(
        ["bash", "-c", "cardgen build night-village"],
        cwd=project,
        env=walkthrough.session.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert result.returncode == 0, result.stdout.decode()
    reader = PdfReader(project / "output" / "night-village" / "night-village-cards-ru.pdf")
    fonts = {
        str(font.get_object()["/BaseFont"]).split("+")[-1]
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert fonts == {"DejaVuSerif", "DejaVuSerif-Bold"}, fonts


def _session(outcome: Session | BaseException) -> Session:
    if isinstance(outcome, BaseException):
        raise outcome
    return outcome


def test_the_mistakes_draft_validates(walkthrough: Walkthrough):
    session = _session(walkthrough.draft)
    assert len(session.ran) == 1
    assert not check(session.ran), check(session.ran)


@pytest.mark.parametrize("title", list(MISTAKES))
def test_common_mistake(title: str, walkthrough: Walkthrough):
    blocks = MISTAKES[title]
    kinds = [b.kind for b in blocks]
    # A `text` block after the three only illustrates a larger case; it is not run.
    assert kinds[:3] == ["yaml", "console", "output"] and set(kinds[3:]) <= {"text"}, f"{title}: blocks {kinds}"
    assert blocks[0].path, title
    assert blocks[0].text != _draft().text, f"{title}: the file has no mistake"
    session = _session(walkthrough.mistakes[title])
    assert len(session.ran) == 1 and session.ran[0].command.startswith("cardgen validate")
    assert session.ran[0].expected == blocks[2].text
    wrong = check(session.ran)
    assert not wrong, "\n\n".join(wrong)


def test_example_pictures_are_what_the_guide_says():
    from PIL import Image

    fox = ROOT / "docs" / "example" / "fox.png"
    assert fox.stat().st_size < 60_000
    with Image.open(fox) as image:
        assert (image.format, image.size, image.mode) == ("PNG", (600, 600), "RGBA")
        assert image.getpixel((0, 0))[3] == 0 and image.getpixel((300, 300))[3] == 255  # transparent around
    assert "`fox.png` is 600 × 600 pixels" in " ".join(GUIDE.read_text(encoding="utf-8").split())
    for picture in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", GUIDE.read_text(encoding="utf-8")):
        assert (GUIDE.parent / picture).is_file(), picture


def _schema_keys(rule) -> set[str]:
    keys: set[str] = set()
    if isinstance(rule, dict):
        for name, value in rule.items():
            if name == "properties" and isinstance(value, dict):
                keys |= set(value)
            keys |= _schema_keys(value)
    elif isinstance(rule, list):
        for item in rule:
            keys |= _schema_keys(item)
    return keys


def test_reference_names_every_schema_key():
    text = GUIDE.read_text(encoding="utf-8")
    reference = text.split("\n## 3. ", 1)[1].split("\n## 4. ", 1)[0]
    named = set(re.findall(r"`([^`\n]+)`", reference))
    keys = set()
    for rule in (schema.GAME, schema.CARD, schema.RULEBOOK, schema.SCRIPT):
        keys |= _schema_keys(rule)
    assert {"night", "per-card", "bold-italic", "unheld-roles-if", "focus"} <= keys  # the walk finds nested keys
    missing = sorted(keys - named)
    assert not missing, f"keys of cardgen.deck.schema the reference does not name: {missing}"
