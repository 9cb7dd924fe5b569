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
time, so a build with nothing to do reads no font or image again. The
manifest is written atomically, like every output.

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
from collections.abc import Iterable
from pathlib import Path

from cardgen import __version__
from cardgen.build.kinds import KINDS, TABLE
from cardgen.core.write import write_atomic

NAME = "cardgen-manifest.json"
# 2: paths relative to the output folder's parent.
FORMAT = 2


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


def request(asked: object, folders: Iterable[Path]) -> str:
    """A hash of what a build is asked (`asked`, its repr) and of the name, size and modification
    time of every file in `folders`: equal hashes, equal inputs (as far as the digests above trust
    size and time), without a file read."""
    return state(asked, folders)[0]


def state(asked: object, folders: Iterable[Path]) -> tuple[str, int]:
    """request()'s hash, and the newest modification time (ns) of those files."""
    h = hashlib.sha256(f"{code()}\0{asked!r}\n".encode())
    newest = 0
    for folder in folders:
        for top, dirs, names in os.walk(folder):
            dirs.sort()
            for name in sorted(names):
                path = os.path.join(top, name)
                try:
                    stat = os.lstat(path)
                except OSError:
                    continue
                h.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
                newest = max(newest, stat.st_mtime_ns)
    return h.hexdigest(), newest


class Manifest:
    def __init__(self, out: Path):
        self.path = out / NAME
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            data = {}  # an earlier format (absolute paths), or none: everything is stale
        self.base = Path(os.path.abspath(out)).parent
        self.outputs: dict[str, dict] = data.get("outputs", {}) if isinstance(data, dict) else {}
        self.digests: dict[str, list] = data.get("digests", {}) if isinstance(data, dict) else {}
        # The last build that succeeded: what it was asked, the state of every file it could have read,
        # and what it reported.
        last = data.get("last", {}) if isinstance(data.get("last"), dict) else {}
        if isinstance(last.get("outputs"), list):
            last = {**last, "outputs": [str(self._path(name)) for name in last["outputs"]]}
        self.last: dict = last
        self.listed: dict[tuple[Path, tuple[str, ...]], list[Path]] = {}
        self.out = out

    def digest(self, path: Path) -> str:
        stat = path.stat()
        known = self.digests.get(self._portable(path))
        if known and known[:2] == [stat.st_size, stat.st_mtime_ns]:
            return known[2]
        sha = hashlib.sha256(path.read_bytes()).hexdigest()
        self.digests[self._portable(path)] = [stat.st_size, stat.st_mtime_ns, sha]
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

    def unchanged(self, request: str) -> dict | None:
        """What the last build reported, when it was asked the same `request` (see `request`) and every
        output it wrote or kept is still the file it left; else None."""
        last = self.last
        if last.get("request") != request:
            return None
        for name in last.get("outputs", []):
            known = self.digests.get(self._portable(Path(name)))
            try:
                stat = Path(name).stat()
            except OSError:
                return None
            if not known or known[:2] != [stat.st_size, stat.st_mtime_ns]:
                return None
        return last

    def save(self) -> None:
        # Digests of files that are gone would only grow the manifest.
        digests = {path: value for path, value in self.digests.items() if self._path(path).exists()}
        last = self.last
        if isinstance(last.get("outputs"), list):
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
