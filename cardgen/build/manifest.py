"""Incremental builds: what each output was built from, kept beside the outputs.

The manifest (``<out>/cardgen-manifest.json``) maps every output file to a
hash of all the inputs that shape it: the game's files (cards, symbols, art,
word lists, rulebook and script texts, and any included cards), the templates
that output uses, the fonts, the options that change it, the language and the
code that draws it (``code()``), plus a hash of the output's own bytes. An
output whose inputs hash the same and whose file is still the one written is
up to date.
An output made for one table (``-<N>p``, planning.table_name) also hashes the table's options; the
whole box's outputs never do, so a tailored build leaves them up to date.

File contents are hashed once and remembered by path, size and modification
time, so a build with nothing to do reads no font or image again. A file
whose modification time was less than SETTLED_NS before the build that
hashed it is "racily clean", as git calls it: it may have been changed again
within the same tick of the file system's clock (2 s on FAT, and `cp -p` or
`rsync -t` restore a time), keeping its size and time, so its stat proves
nothing and it is hashed again. An output is up to date only while it still
has the bytes that were written, checked the same way.

The manifest is written atomically, like every output: saved whole, or left
as it was. One that cannot be read as a manifest of this format (edited by
hand, damaged) counts as none: every output is built again, with a warning
naming it (``Manifest.problem``).

Its paths are relative to the folder that holds the output folder (the
project, as a rule), so that an output folder restored in another checkout
path (a CI cache) is still recognised; a manifest of the earlier format, with
absolute paths, is read as if empty: everything in it is stale.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import time
from collections.abc import Iterable
from pathlib import Path

from cardgen import __version__
from cardgen.build.kinds import KINDS, TABLE
from cardgen.core.problems import Problem, Where, relative
from cardgen.core.write import write_atomic

NAME = "cardgen-manifest.json"
# 2: paths relative to the output folder's parent; 3: each digest with the time of the build that took it.
FORMAT = 3
# A file changed this recently may change again within the same tick of its clock, keeping its size and
# modification time (git calls this "racily clean"): its stat proves nothing, its content is read.
SETTLED_NS = 2_000_000_000


def _files(folder: Path, skip: tuple[str, ...] = ()) -> list[Path]:
    if not folder.is_dir():
        return []
    real = folder.resolve()
    # A symbolic link leading out of the folder is not part of the game: never open it.
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file()
        and not p.name.startswith(".")
        and p.relative_to(folder).parts[0] not in skip
        and p.resolve().is_relative_to(real)
    )


@functools.cache
def code() -> str:
    """What drew the outputs, as a rebuild must tell it apart: cardgen's version, a hash of its own
    modules, and the name, size and modification time of ReportLab's and svglib's package files.
    A clone installed in place (the README's way) changes its modules on `git pull` without a new
    version, and an upgraded ReportLab draws other bytes: either way every output is made again."""
    h = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parents[1]
    for module in sorted(package.rglob("*.py")):
        h.update(f"\0{module.relative_to(package).as_posix()}\0".encode() + module.read_bytes())
    for name in ("reportlab", "svglib"):
        # Found, not imported: a build with nothing to do loads neither. Its version and the size of its
        # first module, not where it is or when it was unpacked: a CI runner installs it afresh every run.
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec and spec.origin else ""
        size = os.stat(origin).st_size if origin else None
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            version = ""
        h.update(f"\0{name}\0{version}\0{size}".encode())
    return h.hexdigest()


def _newer(folders: Iterable[Path], than: int) -> list[str]:
    """The files in `folders` modified after `than` (ns)."""
    return [path for path, stat in _stats(folders) if stat.st_mtime_ns > than]


def _stats(folders: Iterable[Path]) -> Iterable[tuple[str, os.stat_result]]:
    """Every file in `folders` (links not followed), in a stable order, with its lstat."""
    for folder in folders:
        for top, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                path = os.path.join(top, name)
                try:
                    yield path, os.lstat(path)
                except OSError:
                    continue


def state(asked: object, folders: Iterable[Path]) -> tuple[str, int]:
    """A hash of what a build is asked (`asked`, its repr) and of the name, size and modification
    time of every file in `folders`, without a file read, and the newest of those times (ns): equal
    hashes, equal inputs, as far as size and time tell (see SETTLED_NS for when they cannot)."""
    h = hashlib.sha256(f"{code()}\0{asked!r}\n".encode())
    newest = 0
    for path, stat in _stats(folders):
        h.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
        newest = max(newest, stat.st_mtime_ns)
    return h.hexdigest(), newest


class Manifest:
    def __init__(self, out: Path):
        self.path = out / NAME
        # Every file this build stats is stated after this: a digest taken now holds for a file whose
        # time was settled before it.
        self.start = time.time_ns()
        self.problem: Problem | None = None
        self.changed = False  # a file was hashed (again)
        data = self._read()
        self.base = Path(os.path.abspath(out)).parent
        self.outputs: dict[str, dict] = data.get("outputs", {})
        self.digests: dict[str, list] = data.get("digests", {})
        # The last build that succeeded: what it was asked, when it started, the state of every file it
        # could have read, and what it reported.
        last = data.get("last", {})
        if last:
            last = {**last, "outputs": [str(self._path(name)) for name in last["outputs"]]}
        self.last: dict = last
        self.listed: dict[tuple[Path, tuple[str, ...]], list[Path]] = {}
        self.out = out

    def _read(self) -> dict:
        """The manifest's data; empty when there is none, of an earlier format (absolute paths), or one
        that is not a manifest (then with `problem` saying so): every output is then stale."""
        try:
            data = json.loads(self.path.read_bytes())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, RecursionError):
            data = None
        if isinstance(data, dict) and data.get("format") != FORMAT and "outputs" in data:
            return {}
        if isinstance(data, dict) and _well_formed(data):
            return data
        self.problem = Problem(
            Where(relative(self.path)),
            "not a manifest cardgen can read (edited or damaged); every output is built again",
            "warning",
        )
        return {}

    def _known(self, path: Path, stat: os.stat_result) -> str | None:
        """A kept digest of `path` that holds for a file of this stat without reading it: the same size
        and modification time, a time that was settled when the digest was taken; else None."""
        known = self.digests.get(self._portable(path))
        if known and known[:2] == [stat.st_size, stat.st_mtime_ns] and known[1] + SETTLED_NS <= known[3]:
            return known[2]
        return None

    def digest(self, path: Path) -> str:
        stat = path.stat()
        known = self._known(path, stat)
        if known is not None:
            return known
        with path.open("rb") as file:
            # Read a piece at a time: a card PDF of 100,000 cards is some 65 MB, never held whole.
            sha = hashlib.file_digest(file, "sha256").hexdigest()
        self.digests[self._portable(path)] = [stat.st_size, stat.st_mtime_ns, sha, self.start]
        self.changed = True
        return sha

    def inputs(
        self,
        name: str,
        lang: str,
        game_folders: Iterable[Path],
        templates: Iterable[Path],
        fonts: Iterable[Path],
        options: object,
        tailored: bool = False,
    ) -> str:
        """The hash of everything an output of the kind `name` in `lang` is made from (`tailored`: for one table)."""
        kind = KINDS[name]
        names = kind.stale_on + (TABLE if tailored else ())
        h = hashlib.sha256()
        h.update(json.dumps([code(), kind.name, lang, [repr(getattr(options, name)) for name in names]]).encode())
        for role, folders, skip in (
            ("game", game_folders, ()),
            ("templates", templates, kind.unused_templates),
            ("fonts", fonts, ()),
        ):
            for folder in folders:
                if (folder, skip) not in self.listed:
                    self.listed[folder, skip] = _files(folder, skip)
                for path in self.listed[folder, skip]:
                    h.update(f"{role}\0{path.relative_to(folder).as_posix()}\0{self.digest(path)}\n".encode())
        return h.hexdigest()

    def fresh(self, target: Path, inputs: str) -> bool:
        entry = self.outputs.get(self._key(target))
        return bool(entry and entry["inputs"] == inputs and target.is_file() and self.digest(target) == entry["output"])

    def record(self, target: Path, inputs: str) -> None:
        self.outputs[self._key(target)] = {"inputs": inputs, "output": self.digest(target)}

    def unchanged(self, request: str, newest: int, folders: Iterable[Path]) -> dict | None:
        """What the last build reported, when it was asked the same `request` (see `state`), every file
        in `folders` is as it was (read only when its time was not settled then: `newest` is the latest)
        and every output it wrote or kept is still the file it left; else None. Files read again and
        found the same are kept as checked now (`changed`: then save() the manifest)."""
        last = self.last
        if last.get("request") != request:
            return None
        racy = _newer(folders, last["start"] - SETTLED_NS) if newest + SETTLED_NS > last["start"] else []
        if not all(self._same(Path(name)) for name in [*racy, *last["outputs"]]):
            return None
        if self.changed:
            self.last = {**last, "start": self.start}  # every file is checked as of this build's start
        return self.last

    def _same(self, path: Path) -> bool:
        """Whether a file still has the bytes of its kept digest: its stat tells, else its content."""
        try:
            stat = path.stat()
            if self._known(path, stat) is not None:
                return True
            known = self.digests.get(self._portable(path)) or [None, None, None]
            return known[0] == stat.st_size and self.digest(path) == known[2]
        except OSError:
            return False

    def save(self) -> None:
        # Digests of files that are gone would only grow the manifest.
        digests = {path: value for path, value in self.digests.items() if self._path(path).exists()}
        last = self.last
        if last:
            last = {**last, "outputs": [self._portable(Path(name)) for name in last["outputs"]]}
        data = {
            "cardgen": __version__,
            "format": FORMAT,
            "outputs": dict(sorted(self.outputs.items())),
            "digests": dict(sorted(digests.items())),
            "last": last,
        }
        write_atomic(self.path, json.dumps(data, indent=1).encode())

    def _key(self, target: Path) -> str:
        return target.relative_to(self.out).as_posix()

    def _portable(self, path: Path) -> str:
        """A path as the manifest keeps it: relative to the output folder's parent when inside it (the
        project's files and outputs), else absolute (cardgen's own fonts and templates)."""
        full = Path(os.path.abspath(path))
        return full.relative_to(self.base).as_posix() if full.is_relative_to(self.base) else full.as_posix()

    def _path(self, kept: str) -> Path:
        """A kept path back as the build names it: relative to the working folder when it can be."""
        full = self.base / kept  # an absolute one stays as it is
        try:
            return Path(os.path.relpath(full))
        except ValueError:  # another drive (Windows)
            return full


def _well_formed(data: dict) -> bool:
    """Whether a manifest's data has the shape save() writes, with names a path can have."""
    outputs, digests, last = data.get("outputs"), data.get("digests"), data.get("last")
    if not (isinstance(outputs, dict) and isinstance(digests, dict) and isinstance(last, dict)):
        return False
    if not all(
        isinstance(entry, dict) and _texts(entry.get("inputs"), entry.get("output")) for entry in outputs.values()
    ):
        return False
    if not (_texts(*outputs, *digests) and all(_digest(entry) for entry in digests.values())):
        return False
    return not last or (
        _texts(last.get("request"))
        and _whole(last.get("start"))
        and isinstance(last.get("outputs"), list)
        and _texts(*last["outputs"])
        and isinstance(last.get("warnings"), list)
        and all(_warning(warning) for warning in last["warnings"])
    )


def _texts(*values: object) -> bool:
    return all(isinstance(value, str) and "\0" not in value for value in values)


def _whole(*values: object) -> bool:
    return all(isinstance(value, int) and not isinstance(value, bool) for value in values)


def _digest(entry: object) -> bool:
    """[size, modification time, sha256, the start of the build that took it]."""
    return isinstance(entry, list) and len(entry) == 4 and _whole(entry[0], entry[1], entry[3]) and _texts(entry[2])


def _warning(warning: object) -> bool:
    """[[file, line] or null, message, severity], and an untranslated text's [key, lacking, fallback],
    as Report's warnings are kept (cardgen.core.problems.kept)."""
    if not (isinstance(warning, list) and len(warning) in (3, 4) and _texts(warning[1])):
        return False
    if len(warning) == 4 and not (
        isinstance(warning[3], list)
        and len(warning[3]) == 3
        and _texts(warning[3][0], warning[3][2])
        and isinstance(warning[3][1], list)
        and _texts(*warning[3][1])
    ):
        return False
    where, severity = warning[0], warning[2]
    return severity in ("error", "warning", "note") and (
        where is None
        or (isinstance(where, list) and len(where) == 2 and _texts(where[0]) and (where[1] is None or _whole(where[1])))
    )
