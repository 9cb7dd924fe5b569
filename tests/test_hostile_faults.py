"""Issue 29, faults, concurrency and crashes: a full disk, two sites made at once, a damaged manifest,
a build killed outright, a same-size edit within one tick of the clock, and --out at a dangling link.

Every case gives a clear message naming the file or the argument, a non-zero exit where it is an
error, no traceback, and nothing lost: the earlier good file stays, and the manifest is saved whole
or left as it was.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from conftest import FIXTURES, ROOT, game, run, write
from test_hostile import RULEBOOK, _alive_in_group, _drawing_workers, build, built, cli, problems

MANIFEST = "cardgen-manifest.json"
NO_SPACE = os.strerror(errno.ENOSPC)  # "No space left on device"
needs_proc = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="tells a file's folder through /proc")


def with_rulebook(project: Path) -> Path:
    """The mini game with its rulebook: two files per language (the script would add the narrator page,
    whose fonts take longer to subset than the rest to build)."""
    write(project, "rulebook.yaml", yaml.safe_dump(RULEBOOK, allow_unicode=True))
    return project


@pytest.fixture
def project(mini_here: Path) -> Path:
    return with_rulebook(mini_here)


@pytest.fixture(scope="module")
def first_build(tmp_path_factory) -> Path:
    """The mini game with its rulebook, built once in English into its out/."""
    root = tmp_path_factory.mktemp("first-build") / "project"
    shutil.copytree(FIXTURES / "mini", root)
    with_rulebook(root)
    result = run("build", "--decks", str(root / "decks"), "--out", str(root / "out"), "--lang", "en")
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def built_project(first_build: Path, tmp_path: Path, monkeypatch) -> Path:
    """A copy of first_build (times kept, as a restored CI cache keeps them), the working folder beside it."""
    shutil.copytree(first_build, tmp_path / "project", symlinks=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "project"


def outputs(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def temporary_files(out: Path) -> list[Path]:
    return sorted(out.rglob(".cardgen-*.tmp"))


# == a full disk ================================================================================


@pytest.fixture
def full_disk(monkeypatch):
    """full_disk(folder): from now on the disk is full for every file written into `folder`.

    No real disk is filled: os.fsync, which write_atomic calls on each temporary file before it renames
    it over the target, fails with ENOSPC for a file in that folder, as it does on a full disk (ext4's
    delayed allocation, XFS and NFS report a full disk at fsync or close, not at write). The file's
    folder is read back from /proc/self/fd, so nothing of cardgen is patched but the system call."""
    real, full = os.fsync, set()

    def fsync(fd: int) -> None:
        if os.path.dirname(os.readlink(f"/proc/self/fd/{fd}")) in full:
            raise OSError(errno.ENOSPC, NO_SPACE)
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return lambda folder: full.add(os.path.realpath(folder))


def edit_seer(project: Path) -> None:
    """A change every output of the game is made from."""
    seer = game(project) / "roles" / "seer.yaml"
    seer.write_text(seer.read_text(encoding="utf-8").replace("look at one", "look at any"), encoding="utf-8")


# The order a build writes a game's files in, one language.
WRITTEN = ["mini-cards-en.pdf", "mini-rulebook-en.pdf"]


def written(result) -> list[str]:
    """The names of the files a build says it wrote."""
    return [Path(line).name for line in result.stdout.splitlines()[:-1]]


@needs_proc
def test_a_full_disk_while_saving_the_manifest_names_it_and_leaves_the_old_one_whole(
    built_project, full_disk, monkeypatch
):
    """Found here (traceback): OSError [Errno 28], raised while saving the manifest."""
    project = built_project
    out = project / "out"
    manifest, before = (out / MANIFEST).read_bytes(), outputs(out / "mini")
    edit_seer(project)
    full_disk(out)
    result, _ = build(project)
    assert (result.exit_code, result.stderr) == (1, built(f"error: cannot write {out / MANIFEST}: {NO_SPACE}"))
    after = outputs(out / "mini")
    # The seer's ability is printed on the cards and in the rulebook.
    assert [name for name in WRITTEN if after[name] != before[name]] == WRITTEN
    assert (out / MANIFEST).read_bytes() == manifest
    assert temporary_files(out) == []
    monkeypatch.undo()  # room again: what it wrote is not in the manifest it kept, and is made again
    result, _ = build(project)
    assert result.exit_code == 0, result.output
    assert written(result) == WRITTEN


@needs_proc
def test_a_full_disk_while_writing_the_pdfs_names_each_and_keeps_the_earlier_ones(
    built_project, full_disk, monkeypatch
):
    project = built_project
    out = project / "out"
    before = outputs(out / "mini")
    edit_seer(project)
    full_disk(out / "mini")
    result, _ = build(project)
    assert (result.exit_code, result.stderr) == (
        1,
        built(*(f"error: cannot write {out / 'mini' / name}: {NO_SPACE}" for name in WRITTEN)),
    )
    assert sorted(before) == sorted(WRITTEN)
    assert outputs(out / "mini") == before
    assert temporary_files(out) == []
    json.loads((out / MANIFEST).read_bytes())  # whole
    monkeypatch.undo()  # room again: every output is made anew, none is taken for up to date
    result, _ = build(project)
    assert result.exit_code == 0, result.output
    assert written(result) == WRITTEN


def limit_file_size(size: int):
    """For a child process: no file it writes may grow beyond `size` bytes (RLIMIT_FSIZE, inherited by
    the build's worker processes). A write past it fails with EFBIG ("File too large"), as Python
    ignores SIGXFSZ; this holds for root too, and needs no full disk and no privilege."""
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def test_a_write_error_in_the_worker_processes_names_each_file_and_keeps_the_earlier_ones(project, tmp_path):
    """The workers' per-PDF write errors never reached the user (the manifest's traceback came first).
    Each PDF is bigger than 16 KiB; the manifest is not."""
    out = tmp_path / "out"
    command = [sys.executable, "-m", "cardgen", "build", "--decks", str(project / "decks"), "--out", str(out)]
    assert subprocess.run(command, capture_output=True, check=False).returncode == 0
    before = outputs(out / "mini")
    edit_seer(project)
    limited = subprocess.run(
        [*command, "--jobs", "2"], capture_output=True, text=True, preexec_fn=limit_file_size(16 * 1024), check=False
    )
    too_large = os.strerror(errno.EFBIG)
    assert (limited.returncode, limited.stdout, limited.stderr) == (
        1,
        "",
        "building mini (en)\nbuilding mini (vi)\n"
        + problems(
            *(
                f"error: cannot write {out / 'mini' / name.replace('-en.', f'-{lang}.')}: {too_large}"
                for lang in ("en", "vi")
                for name in WRITTEN
            )
        ),
    )
    assert outputs(out / "mini") == before
    assert temporary_files(out) == []
    json.loads((out / MANIFEST).read_bytes())


@needs_proc
@pytest.mark.parametrize(
    "command,folder,first",
    [
        (["site"], "site/mini", "mini-cards-en.pdf"),
        (["export", "mini"], "mini", "mini-print-en.pdf"),
        (["calibrate"], ".", "calibration-a4-long.pdf"),
    ],
    ids=["site", "export", "calibrate"],
)
def test_a_full_disk_while_making_a_site_an_export_or_a_calibration_sheet_names_the_file(
    project, full_disk, command, folder, first
):
    out = project / "out"
    full_disk(out / folder)
    language = ["--lang", "en"] if command != ["calibrate"] else []
    result, _ = cli(project.parent, *command, "--decks", str(project / "decks"), "--out", str(out), *language)
    assert (result.exit_code, result.stderr.splitlines()[-2:]) == (
        1,
        [f"error: cannot write {out / folder / first}: {NO_SPACE}", "1 error"],
    )


# == a manifest edited by hand ==================================================================

DAMAGED = "not a manifest cardgen can read (edited or damaged); every output is built again"


def _kept(manifest: dict, **changed) -> dict:
    return {**manifest, **changed}


@pytest.mark.parametrize(
    "damage",
    [
        lambda m: "[]",
        lambda m: "5",
        lambda m: '"outputs"',
        lambda m: "null",
        lambda m: '{"outputs": {',
        lambda m: "[" * 100_000 + "]" * 100_000,
        lambda m: "{}",
        lambda m: {"format": m["format"]},
        lambda m: _kept(m, outputs=[]),
        lambda m: _kept(m, outputs={"mini/mini-cards-en.pdf": "x"}),
        lambda m: _kept(m, outputs={"mini/mini-cards-en.pdf": {"inputs": 5, "output": "x"}}),
        lambda m: _kept(m, digests={"decks/mini/game.yaml": [1, 2, "x"]}),
        lambda m: _kept(m, digests={"decks/mini/game.yaml": [True, 2, "x", 3]}),
        lambda m: _kept(m, digests={"decks/mini/\0": [1, 2, "x", 3]}),
        lambda m: _kept(m, last=[]),
        lambda m: _kept(m, last={**m["last"], "outputs": "out/mini/mini-cards-en.pdf"}),
        lambda m: _kept(m, last={**m["last"], "start": "now"}),
        lambda m: _kept(m, last={**m["last"], "warnings": [[["x"], "m", "warning"]]}),
        lambda m: _kept(m, last={key: value for key, value in m["last"].items() if key != "request"}),
    ],
    ids=[
        "list",
        "number",
        "string",
        "null",
        "invalid-json",
        "deeply-nested",
        "empty",
        "format-alone",
        "outputs-a-list",
        "output-entry-a-string",
        "inputs-a-number",
        "digest-of-three",
        "digest-size-a-boolean",
        "path-with-nul",
        "last-a-list",
        "last-outputs-a-string",
        "last-start-a-string",
        "warning-where-of-one",
        "last-without-request",
    ],
)
def test_a_manifest_of_the_wrong_shape_counts_as_none(built_project, damage):
    """Found here (AttributeError): the README says the manifest can always be thrown away; one of
    the wrong shape must count as none, not end the build."""
    project = built_project
    out = project / "out"
    damaged = damage(json.loads((out / MANIFEST).read_bytes()))
    (out / MANIFEST).write_text(damaged if isinstance(damaged, str) else json.dumps(damaged), encoding="utf-8")
    result, _ = build(project)
    assert (result.exit_code, written(result)) == (0, WRITTEN), result.output
    assert result.stderr == f"building mini (en)\nproject/out/{MANIFEST}: warning: {DAMAGED}\n"
    # Saved anew, whole: the next build has nothing to do, and nothing to say.
    result, _ = build(project)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.startswith("up to date (2 files)")


# == two sites made at once into one folder =====================================================


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="sees that a process has stopped through /proc")
def test_a_site_made_while_another_writes_into_the_same_folder_leaves_its_files_alone(project, tmp_path):
    """Found here (FileNotFoundError): site._remove_others deleted the other run's live .cardgen-*.tmp
    files, as files the site no longer has. Two sites are made at once: the first is stopped (SIGSTOP)
    while it has a temporary file in the site, the second is made whole meanwhile, then the first goes
    on; both succeed, and the site is the one a site made alone is."""
    out = tmp_path / "out"
    command = [sys.executable, "-m", "cardgen", "site", "--decks", str(project / "decks"), "--out", str(out), "-q"]
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        writing = stopped_writing(first, out / "site")
        second = run(*command[3:])
        assert (second.exit_code, second.stderr) == (0, "")
        assert all(path.exists() for path in writing)
    finally:
        first.send_signal(signal.SIGCONT)
        _, err = first.communicate(timeout=300)
    assert (first.returncode, err) == (0, "")
    assert temporary_files(out) == []
    alone = tmp_path / "alone"
    assert run("site", "--decks", str(project / "decks"), "--out", str(alone), "-q").exit_code == 0
    assert files_of(out / "site") == files_of(alone / "site")


def stopped_writing(process: subprocess.Popen, folder: Path) -> list[Path]:
    """Stops `process` while it has a temporary file in `folder`; returns those files."""
    end = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < end:
        if temporary_files(folder):
            stop(process)
            if found := temporary_files(folder):
                return found
            process.send_signal(signal.SIGCONT)  # renamed in place meanwhile: the next one
    raise AssertionError("the site was made before it could be stopped while writing")


def stop(process: subprocess.Popen) -> None:
    """SIGSTOP, then a wait until the process is stopped: kill() returns while a process running on
    another core may still take a step, such as renaming the file the caller is about to look at."""
    process.send_signal(signal.SIGSTOP)
    end = time.monotonic() + 10
    while process.poll() is None and time.monotonic() < end:
        with contextlib.suppress(OSError):
            if Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("T", "t"):
                return
        time.sleep(0.001)


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()
    }


# == a build killed outright ====================================================================


def running(pid: int) -> bool:
    """Whether a process is there and not a zombie (an ended worker waits for init to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers through /proc (Linux)")
def test_the_workers_end_when_their_build_is_killed_outright(tmp_path):
    """Found here: after SIGKILL of a `--jobs 2` build its workers lived on under PID 1 (about 128 MB
    each). A SIGKILL runs none of the build's cleanups: the workers must see for themselves."""
    # Every bundled game, in every language: a build of some seconds, killed while its workers draw.
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    process = subprocess.Popen(
        [sys.executable, "-m", "cardgen", "build", "--jobs", "2", "--out", str(tmp_path / "out")],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        workers = _drawing_workers(process)
        process.kill()
        process.wait()
        end = time.monotonic() + 10
        while any(map(running, workers)) and time.monotonic() < end:
            time.sleep(0.05)
        assert not any(map(running, workers)), "a worker outlived the build"
    finally:
        if _alive_in_group(process.pid):
            os.killpg(process.pid, signal.SIGKILL)


# == "up to date" means the same content ========================================================


def same_size_edit(path: Path, old: bytes, new: bytes) -> None:
    """Replaces `old` by `new` (as long) in a file and puts its modification time back, as a second
    save within one tick of a FAT stick's clock leaves it, or `cp -p` and `rsync -t` do."""
    assert len(old) == len(new)
    stat = path.stat()
    data = path.read_bytes()
    assert old in data
    path.write_bytes(data.replace(old, new, 1))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size


def test_a_same_size_edit_within_one_tick_of_the_build_is_rebuilt(project):
    """Found here: "up to date" trusted size and modification time alone. The seer is saved just before
    the build, then saved again the same size with the same time: its content is compared."""
    edit_seer(project)
    assert build(project)[0].exit_code == 0
    before = outputs(project / "out" / "mini")
    same_size_edit(game(project) / "roles" / "seer.yaml", b"look at any", b"look at all")
    result, _ = build(project)
    assert (result.exit_code, written(result)) == (0, WRITTEN)
    assert outputs(project / "out" / "mini")["mini-cards-en.pdf"] != before["mini-cards-en.pdf"]


@pytest.mark.parametrize("change", ["truncated", "same-size-edit"])
def test_an_output_changed_by_hand_is_rebuilt(built_project, change):
    cards = built_project / "out" / "mini" / "mini-cards-en.pdf"
    whole = cards.read_bytes()
    if change == "truncated":
        cards.write_bytes(whole[: len(whole) // 2])
    else:
        same_size_edit(cards, b"%%EOF", b"%%EOG")
    result, _ = build(built_project)
    assert (result.exit_code, written(result)) == (0, WRITTEN[:1])
    assert cards.read_bytes() == whole


def test_an_untouched_project_is_up_to_date_without_reading_a_file(built_project):
    """Once every file's time is settled (older than the last build's start by more than a tick), a
    build with nothing to do opens no file but the manifest: sizes and times decide."""
    settled = time.time_ns() - 10**10
    for path in built_project.rglob("*"):
        os.utime(path, ns=(settled, settled))  # as 10 s later
    result, watch = build(built_project)
    assert result.stdout.startswith("up to date (2 files)")  # each file read once more, its time settled now
    assert [p for p in watch.reads if Path(p).is_relative_to(built_project.resolve())]
    result, watch = build(built_project)
    assert result.stdout.startswith("up to date (2 files)")
    assert sorted({p for p in watch.reads if Path(p).is_relative_to(built_project.resolve())}) == [
        str((built_project / "out" / MANIFEST).resolve())
    ]


# == --out at a dangling symbolic link ==========================================================


@pytest.mark.parametrize("command", ["build", "site", "export"])
def test_out_at_a_symbolic_link_to_a_missing_folder_is_an_error_naming_both(project, tmp_path, command):
    """Found here: "File exists" for each file. cardgen writes through a link to a folder, but makes no
    folder a link names (as `mkdir -p` does not): the link's target may be a stick not plugged in."""
    (tmp_path / "out").symlink_to("cards-stick")
    args = [command, *(["mini"] if command == "export" else []), "--decks", str(project / "decks")]
    result, _ = cli(project.parent, *args, "--out", "out")
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (
        2,
        "error: Invalid value for '--out': out is a symbolic link to a missing folder cards-stick",
    )
    result, _ = cli(project.parent, *args, "--out", "out/sub")
    assert result.stderr.splitlines()[-1] == (
        "error: Invalid value for '--out': out is a symbolic link to a missing folder cards-stick"
    )
    assert not (tmp_path / "cards-stick").exists()


def test_the_projects_output_folder_at_a_dangling_symbolic_link_is_an_error(project, monkeypatch):
    (project / "output").symlink_to("cards-stick")
    monkeypatch.chdir(project)
    result, _ = cli(project.parent, "build", "--lang", "en")
    assert (result.exit_code, result.stderr) == (
        1,
        problems("error: output is a symbolic link to a missing folder cards-stick"),
    )
