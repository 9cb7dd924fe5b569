"""The one rule for every file cardgen reads: a path and the folder it belongs to in, its bytes or why
it cannot be read out.

Decks, symbols, pictures, fonts, templates and settings come from strangers (CI builds pull
requests). A file is read only if it resolves, symbolic links followed, inside its own folder (a
card file inside its game folder, a template inside its templates folder) and is a regular file:
a link leading out, a link loop, a named pipe or a device is refused by name, before anything is
opened, so it is never read, never printed and never waited on. Files are opened non-blocking and
checked again once open, so that a pipe swapped in after the check cannot hang the build either.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

OUTSIDE = "a symbolic link leading outside its folder; cardgen does not read it"
LOOP = "a symbolic link that leads to itself (a loop); cardgen does not read it"
DANGLING = "a symbolic link to nothing"
MISSING = "not found"
UNUSABLE = "not a usable file name"


class Refused(ValueError):
    """A file cardgen will not read; the message says why, without the path."""


class TooLarge(Refused):
    """A file larger than its kind may be, refused before it is opened."""

    def __init__(self, size: int, limit: int):
        self.size, self.limit = size, limit
        super().__init__(f"a file of {mib(size)}, more than the {mib(limit)} cardgen reads")


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a folder"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _not_regular(mode: int) -> str:
    return f"{_kind(mode)}, not a file; cardgen reads only regular files"


def inside(path: Path, folder: Path) -> bool:
    """Whether path, symbolic links followed, is in folder (or is folder); False for a loop or an odd name."""
    try:
        return Path(os.path.realpath(path, strict=True)).is_relative_to(os.path.realpath(folder))
    except (OSError, ValueError):
        return False


# Longer names no common file system takes; refused as written, whether the file is there or not.
MAX_NAME, MAX_PATH = 255, 4095


def _unusable(path: Path) -> bool:
    try:
        written = os.fsencode(path)
    except (UnicodeError, ValueError):
        return True
    return b"\0" in written or len(written) > MAX_PATH or any(len(part) > MAX_NAME for part in written.split(b"/"))


_tops: dict[str, str] | None = None  # within reading(): folder -> its real path
_files: dict[tuple[str, str, int], bytes] | None = None  # and (file, folder, limit) -> its bytes
_reasons: dict[tuple[str, str], str | None] | None = None  # and (file, folder) -> reason()


@contextmanager
def reading() -> Iterator[None]:
    """Within it, the real path of each folder is found once, and each file is read, and told readable
    or not, once: checking a deck opens a thousand files of the same few folders, and each card names
    one of a few symbols. Never longer: a folder swapped for a link, or a file changed, between two
    builds is seen."""
    global _tops, _files, _reasons
    outer = _tops, _files, _reasons
    if _tops is None:
        _tops, _files, _reasons = {}, {}, {}
    try:
        yield
    finally:
        _tops, _files, _reasons = outer


def _top(folder: Path) -> str:
    if _tops is None:
        return os.path.realpath(folder)
    key = os.fspath(folder)
    if key not in _tops:
        _tops[key] = os.path.realpath(folder)
    return _tops[key]


def reason(path: Path, folder: Path) -> str | None:
    """Why `path` cannot be read as a file of `folder`, or None when it can."""
    if _reasons is None:
        return _reason(path, folder)
    key = (os.fspath(path), os.fspath(folder))
    if key not in _reasons:
        _reasons[key] = _reason(path, folder)
    return _reasons[key]


def _in(real: str, top: str) -> bool:
    """Whether the real path `real` is the folder `top` or inside it (Path.is_relative_to, a tenth of
    the time)."""
    real, top = os.path.normcase(real), os.path.normcase(top)
    return real == top or real.startswith(top if top.endswith(os.sep) else top + os.sep)


def _reason(path: Path, folder: Path) -> str | None:
    if _unusable(path):
        return UNUSABLE
    try:
        top = _top(folder)
        real = _real(path, folder, top)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return LOOP
        if exc.errno == errno.ENAMETOOLONG:
            return UNUSABLE
        where = os.path.realpath(path)  # as far as it resolves: a link out is out, there or not
        if not _in(where, top):
            return OUTSIDE
        return DANGLING if os.path.lexists(path) else MISSING
    except ValueError:  # a NUL byte in the name
        return UNUSABLE
    if not _in(real, top):
        return OUTSIDE
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return MISSING
    return None if stat.S_ISREG(mode) else _not_regular(mode)


def _real(path: Path, folder: Path, top: str) -> str:
    """os.path.realpath(path, strict=True) of a path written as `folder`/..., `top` being the folder's
    real path: only the parts below the folder are looked at, unless one of them is a link (a deck's
    thousand files each walked from the root was a third of checking it)."""
    written, base = os.fspath(path), os.fspath(folder).rstrip(os.sep)
    parts = written[len(base) + 1 :].split(os.sep) if written.startswith(base + os.sep) else []
    # As a Path writes it (no "." or empty part); anything else, or "..", is resolved the long way.
    if not parts or any(part in ("", ".", "..") or (os.altsep and os.altsep in part) for part in parts):
        return os.path.realpath(path, strict=True)
    real = top
    for part in parts:
        real = os.path.join(real, part)
        if stat.S_ISLNK(os.lstat(real).st_mode):
            return os.path.realpath(path, strict=True)
    return real


def folder_reason(path: Path, parent: Path) -> str | None:
    """Why the folder `path` cannot be used as a folder of `parent` (None when it can or is absent)."""
    try:
        if not os.path.lexists(path):
            return None
        real = os.path.realpath(path, strict=True)
    except OSError as exc:
        return LOOP if exc.errno == errno.ELOOP else DANGLING
    except ValueError:
        return UNUSABLE
    if not Path(real).is_relative_to(os.path.realpath(parent)):
        return OUTSIDE
    return None if os.path.isdir(real) else f"{_kind(os.stat(real).st_mode)} where a folder belongs"


def missing_folder(path: Path) -> str | None:
    """Why cardgen cannot write into the folder `path`: it, or a folder it is in, is a symbolic link to
    a folder that is not there (cardgen follows a link to write into it, but makes no folder a link
    names, as `mkdir -p` does not); None otherwise."""
    for link in (path, *path.parents):
        if os.path.islink(link) and not os.path.exists(link):
            return f"{link} is a symbolic link to a missing folder {os.readlink(link)}"
    return None


def read(path: Path, folder: Path, limit: int) -> bytes:
    """The bytes of a file of `folder`, at most `limit` of them; raises Refused (with the reason) for a
    file that breaks the rule, and for one larger than `limit` ("N MiB, more than the M MiB ...")."""
    key = (os.fspath(path), os.fspath(folder), limit)
    if _files is not None and key in _files:
        return _files[key]
    data = _read(path, folder, limit)
    if _files is not None:
        _files[key] = data
    return data


def _read(path: Path, folder: Path, limit: int) -> bytes:
    why = reason(path, folder)
    if why:
        raise Refused(why)
    size = os.stat(path).st_size
    if size > limit:
        raise TooLarge(size, limit)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise Refused(f"cannot be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped for a pipe after the check
            raise Refused(_not_regular(info.st_mode))
        chunks, size = [], 0
        while size <= limit:
            # What fstat says is there, and a byte more to see it grow, in one read for most files.
            wanted = min(max(info.st_size + 1 - size, 1 << 16), 1 << 24, limit + 1 - size)
            chunk = os.read(fd, wanted)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if len(chunk) < wanted:  # a regular file reads short only at its end
                break
        if size > limit:  # grew while being read
            raise TooLarge(size, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def mib(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MiB" if size % (1024 * 1024) else f"{size // 1024 // 1024} MiB"
