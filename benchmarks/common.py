"""What the benchmark's modules share: commands in, samples (wall and CPU seconds, peak RSS, output) out,
and the machine and the sources described.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = sys.executable
SLOW = 12.0  # a rebuild slower than this is taken once only, to keep the run short


class Sample(dict):
    """wall seconds, peak RSS (kB) of the process and its reaped children, exit code, output."""


def run(cmd: list[str], cwd: Path = ROOT, check: bool = True, env: dict | None = None) -> Sample:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        sample = Sample(
            wall=wall,
            seconds=wall,
            cpu=usage.ru_utime + usage.ru_stime,
            maxrss_kb=usage.ru_maxrss,
            rc=proc.returncode,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
        )
    if check and sample["rc"] != 0:
        raise SystemExit(f"failed ({sample['rc']}): {' '.join(cmd)}\n{sample['stderr'][-3000:]}")
    return sample


def worker_json(cmd: list[str]) -> Sample:
    sample = run(cmd)
    sample.update(json.loads(sample["stdout"].strip().splitlines()[-1]))
    return sample


def cardgen_cmd() -> list[str]:
    script = Path(PY).parent / "cardgen"
    return [str(script)] if script.exists() else [PY, "-m", "cardgen"]


def snapshot(folder: Path) -> dict[str, tuple[int, int, str]]:
    """Every output PDF: (inode, mtime ns, content hash); an atomic rewrite changes the first two."""
    import hashlib

    return {
        str(p.relative_to(folder)): (p.stat().st_ino, p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(folder.rglob("*.pdf"))
    }


def rewritten(before: dict, after: dict) -> tuple[list[str], list[str]]:
    """The outputs written again, and of those the ones whose bytes changed."""
    again = sorted(name for name, stamp in after.items() if before.get(name, (None, None))[:2] != stamp[:2])
    return again, [name for name in again if before.get(name, (0, 0, ""))[2] != after[name][2]]


def profile(decks: Path, tmp: Path, baseline: Path | None, flags: list[str]) -> list[tuple[str, float, float]]:
    """The top functions of a serial clean build under cProfile: (function, own share, cumulative share)."""
    import pstats

    stats_file, out = tmp / "build.prof", tmp / "profiled"
    shutil.rmtree(out, ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": str(baseline.resolve())} if baseline else None
    run(
        [
            PY,
            "-m",
            "cProfile",
            "-o",
            str(stats_file),
            "-m",
            "cardgen",
            "build",
            "--out",
            str(out),
            "--decks",
            str(decks),
            *flags,
        ],
        cwd=tmp,
        env=env,
    )
    stats = pstats.Stats(str(stats_file))
    total = stats.total_tt
    rows = []
    for (file, _line, name), (_, _, own, cumulative, _) in stats.stats.items():
        short = f"{Path(file).parent.name}/{Path(file).name}:{name}" if file.startswith("/") else name
        rows.append((short, own / total, cumulative / total))
    by_own = sorted(rows, key=lambda r: -r[1])[:12]
    stages = [r for r in rows if r[0].startswith("cardgen/") and r[2] > 0.04]
    return by_own + sorted((r for r in stages if r not in by_own), key=lambda r: -r[2])[:14]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def machine() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass

    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    import importlib.util

    accel = (
        "yes"
        if importlib.util.find_spec("_rl_accel") or importlib.util.find_spec("rl_accel")
        else "no (ReportLab uses its pure-Python fp_str and ASCII85)"
    )
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(
        ["git", "--no-optional-locks", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return {
        "CPU": cpu,
        "cores": f"{os.cpu_count()} ({len(os.sched_getaffinity(0))} usable)",
        "memory": _memory(),
        "OS": f"{platform.system()} {platform.release()}",
        "Python": platform.python_version(),
        "ReportLab": version("reportlab"),
        "ReportLab C accelerator (rl_accel)": accel,
        "svglib": version("svglib"),
        "WeasyPrint": version("weasyprint"),
        "pydyf / fonttools": f"{version('pydyf')} / {version('fonttools')}",
        "cardgen": f"{version('cardgen')}, commit {commit.stdout.strip() or '?'}"
        f"{' + uncommitted changes' if dirty.stdout.strip() else ''}",
        # Without cached bytecode every process compiles cardgen's modules first, as no installed copy does.
        "Python bytecode cache": "off (PYTHONDONTWRITEBYTECODE is set)"
        if os.environ.get("PYTHONDONTWRITEBYTECODE")
        else "on",
    }


def _memory() -> str:
    try:
        kb = int(
            next(ln for ln in Path("/proc/meminfo").read_text().splitlines() if ln.startswith("MemTotal")).split()[1]
        )
        return f"{kb / 1024 / 1024:.0f} GiB"
    except (OSError, StopIteration, ValueError):
        return "unknown"


def fingerprint() -> dict[str, str]:
    """A hash of each of cardgen's sources and templates, to tell whether the code changed during the run."""
    import hashlib

    files = sorted([*(ROOT / "cardgen").rglob("*.py"), *(ROOT / "templates").rglob("*")])
    return {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.is_file()}
