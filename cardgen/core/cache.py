"""Answers kept between runs: a question, what it depends on and how to answer it in; the answer out,
from the last run that asked it while every file it reads was the same, or worked out and kept.

`cardgen list` is answered from here: loading and checking every deck to count its cards takes
half a second, and a project's files rarely change between two listings. An entry is one JSON
file in the user's cache folder ($XDG_CACHE_HOME/cardgen, else ~/.cache/cardgen;
~/Library/Caches/cardgen on macOS, %LOCALAPPDATA%/cardgen/cache on Windows), per project and
question, keyed by manifest.state(): cardgen's code (manifest.code()), the question, and the name,
size and modification time of every file in the folders named. A cache that cannot be read or written is
no cache: the answer is worked out, and nothing fails for it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from cardgen.build.manifest import SETTLED_NS, state
from cardgen.core.write import Unwritable, write_atomic

T = TypeVar("T")


def folder() -> Path | None:
    """Where this user's cache lives, or None when there is no home to put it in."""
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "cardgen"
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return Path(local) / "cardgen" / "cache" if local else None
    try:
        home = Path.home()
    except RuntimeError:
        return None
    return home / ("Library/Caches" if sys.platform == "darwin" else ".cache") / "cardgen"


def remembered(question: str, asked: object, folders: Iterable[Path], answer: Callable[[], T]) -> T:
    """The answer to `question` (a name) about `asked` (its repr is part of the key), which reads the
    files in `folders`: kept from an earlier run when none of them changed, else answer()'s, kept.
    A kept answer is read back from JSON, so answer() returns what JSON gives back unchanged: dicts
    with string keys, lists, strings, numbers, booleans and None (no tuples)."""
    folders = list(folders)
    key, newest = state((question, asked), folders)
    where = folder()
    entry = None
    if where is not None:
        entry = where / f"{question}-{hashlib.sha256(repr(asked).encode()).hexdigest()[:16]}.json"
        try:
            kept = json.loads(entry.read_text(encoding="utf-8"))
            if kept.get("key") == key:
                return kept["answer"]
        except (OSError, ValueError, AttributeError, KeyError):
            pass
    result = answer()
    # An answer that read a racily clean file (manifest.SETTLED_NS) is not kept.
    if entry is not None and time.time_ns() - newest > SETTLED_NS:
        try:
            write_atomic(entry, json.dumps({"key": key, "answer": result}, ensure_ascii=False).encode("utf-8"))
        except Unwritable:
            pass
    return result
