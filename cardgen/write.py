"""Stage 6, write: finished bytes in, a file in place out, atomically.

The bytes go to a temporary file beside the target, are flushed to disk and
then renamed over the target in one step, so a reader sees either the previous
good file or the new one, never half of one; a failed build leaves the
previous file untouched, and two builds writing the same file at once each
replace it whole. A build that is killed can leave a temporary file behind:
the next build removes those whose writer is gone.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TEMP_PREFIX = ".cardgen-"


def write_atomic(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    # The writer's process id in the name tells a later build whether the file is abandoned.
    fd, temp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_abandoned(folder: Path) -> list[Path]:
    """Deletes temporary files left in folder by builds that were killed; a running
    build's own temporary files are left alone. Returns what it removed."""
    removed = []
    for temp in folder.glob(f"{TEMP_PREFIX}*.tmp"):
        pid = temp.name[len(TEMP_PREFIX):].split("-", 1)[0]
        # Only names this module writes: ASCII digits of a real pid, on a file.
        if not (pid.isascii() and pid.isdigit() and len(pid) <= 10 and temp.is_file()):
            continue
        try:
            alive = _alive(int(pid))
        except (OverflowError, ValueError):
            continue
        if not alive:
            temp.unlink(missing_ok=True)
            removed.append(temp)
    return removed
