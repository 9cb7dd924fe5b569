"""Stage 6, write: finished bytes in (or, for a file too big to hold, bytes as they are made: ``Staged``),
a file in place out, atomically.

The bytes go to a temporary file beside the target, are flushed to disk and
then renamed over the target in one step, so a reader sees either the previous
good file or the new one, never half of one; a failed build leaves the
previous file untouched, and two builds writing the same file at once each
replace it whole. A build that is killed can leave a temporary file behind:
the next build removes those whose writer is gone.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from cardgen.core.problems import DeckError, Problem

TEMP_PREFIX = ".cardgen-"


class Unwritable(DeckError):
    """A file that could not be written, as a problem: "cannot write PATH: No space left on device"."""

    def __init__(self, target: Path, exc: OSError):
        self.target, self.error = target, exc
        super().__init__([Problem(None, f"cannot write {target}: {exc.strerror or exc}")])


def write_atomic(target: Path, data: bytes) -> None:
    """Writes `data` to `target` whole or not at all; raises Unwritable when it cannot."""
    staged = Staged(target)
    staged.fill(lambda file: file.write(data))
    staged.commit()


class Staged:
    """A file being written beside its target under a temporary name, for what is too big to be held in
    memory first: `fill` writes it, `commit` puts it in place whole, `discard` removes it. A write the
    disk refuses stops the filling and is raised by `commit` as Unwritable, so that a caller making
    several files says each that failed and still writes the others; whatever fails, no temporary file
    is left behind."""

    def __init__(self, target: Path):
        self.target, self.committed = target, False
        self.error: OSError | None = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            # The writer's process id in the name tells a later build whether the file is abandoned.
            fd, temp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=".tmp", dir=target.parent)
        except OSError as exc:
            raise Unwritable(target, exc) from None
        self.temp = Path(temp)
        self.file = os.fdopen(fd, "wb")

    def fill(self, write: Callable[[BinaryIO], object]) -> None:
        """Runs `write` on the open file (an OSError it raises, from any file, is this file's)."""
        if self.error is None:
            try:
                self._step(lambda: write(self.file))
            except Unwritable as exc:
                self.error = exc.error

    def commit(self) -> None:
        def commit() -> None:
            if self.error is not None:
                raise self.error
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            os.chmod(self.temp, 0o644)
            os.replace(self.temp, self.target)
            self.committed = True

        self._step(commit)

    def discard(self) -> None:
        """Removes the temporary file, unless it is in place already."""
        if self.committed:
            return
        try:
            self.file.close()
        except OSError:
            pass  # flushing what is thrown away anyway failed (a full disk)
        self.temp.unlink(missing_ok=True)

    def _step(self, step: Callable[[], object]) -> None:
        try:
            step()
        except OSError as exc:
            self.discard()
            raise Unwritable(self.target, exc) from None
        except BaseException:
            self.discard()
            raise


def _alive(pid: int) -> bool:
    """Whether a process is running, asked without touching it."""
    return _alive_windows(pid) if os.name == "nt" else _alive_posix(pid)


def _alive_posix(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


STILL_ACTIVE = 259
ERROR_ACCESS_DENIED = 5
_QUERY_LIMITED_INFORMATION = 0x1000


def _alive_windows(pid: int, kernel32=None, last_error=None) -> bool:
    """On Windows os.kill(pid, 0) is no question: it ends the process. The kernel is asked for the
    process's exit code instead (`kernel32` and `last_error` stand in for the real ones in tests)."""
    import ctypes

    if kernel32 is None and sys.platform == "win32":  # (ctypes has WinDLL on Windows only)
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        last_error = ctypes.get_last_error
    handle = kernel32.OpenProcess(_QUERY_LIMITED_INFORMATION, False, pid)
    if not handle:
        return last_error() == ERROR_ACCESS_DENIED  # another user's process; else there is none
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return True
        return code.value == STILL_ACTIVE
    finally:
        kernel32.CloseHandle(handle)


def remove_abandoned(folder: Path) -> list[Path]:
    """Deletes temporary files left in folder by builds that were killed; a running
    build's own temporary files are left alone. Returns what it removed."""
    removed = []
    for temp in folder.glob(f"{TEMP_PREFIX}*.tmp"):
        pid = _writer(temp)
        if pid is None or not temp.is_file():
            continue
        try:
            alive = _alive(pid)
        except (OverflowError, ValueError):
            continue
        if not alive:
            temp.unlink(missing_ok=True)
            removed.append(temp)
    return removed


def _writer(path: Path) -> int | None:
    """The process id in a temporary file's name as write_atomic gives it, else None."""
    if not (path.name.startswith(TEMP_PREFIX) and path.name.endswith(".tmp")):
        return None
    pid = path.name[len(TEMP_PREFIX) :].split("-", 1)[0]
    # Only names this module writes: ASCII digits of a real pid.
    return int(pid) if pid.isascii() and pid.isdigit() and len(pid) <= 10 else None


def temporary(path: Path) -> bool:
    """Whether `path` is named as write_atomic names its temporary files: only remove_abandoned may
    delete one, since another run may be writing it right now."""
    return _writer(path) is not None


def remove_stale(folder: Path, keep: set[Path]) -> None:
    """Removes the export's own kinds of file that an earlier export wrote in `folder` (an export's
    own folder) and this one did not, and folders left empty."""
    for path in sorted(folder.rglob("*"), reverse=True):
        if path.is_file() and path.suffix in (".pdf", ".png", ".csv", ".json") and path not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
