"""Watching files, for `cardgen watch` and `cardgen serve`: folders and a rebuild in; the rebuild called
after every save under them, once the files stand still, until Ctrl-C."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path


def snapshot(folders: list[Path]) -> dict[Path, int]:
    """Every file under `folders` with its modification time."""
    found = {}
    for folder in folders:
        if folder.is_dir():
            for dirpath, _, files in os.walk(folder):
                for name in files:
                    path = Path(dirpath, name)
                    try:
                        found[path] = path.stat().st_mtime_ns
                    except OSError:
                        continue
    return found


def watch(folders: list[Path], rebuild: Callable[[], None], seen: dict[Path, int], interval: float = 0.25) -> None:
    """Calls `rebuild` whenever a file under `folders` is added, removed or saved since `seen` (the
    snapshot taken before the first build, so that a save during it counts), once the files have stood
    still for `interval`; returns only by an exception (Ctrl-C)."""
    while True:
        time.sleep(interval)
        now = snapshot(folders)
        if now == seen:
            continue
        while True:  # an editor may write a file in steps
            time.sleep(interval)
            later = snapshot(folders)
            if later == now:
                break
            now = later
        seen = now
        rebuild()
