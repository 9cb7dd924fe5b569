"""How busy the machine was, round by round: calibration loops and /proc in, whether wall time may be
judged out.

A verdict decided by wall time flips when other tenants load the machine (a serial build once took
182 s of wall time for 7.8 s of CPU), so every target is judged on CPU time, and the one figure that
is about waiting (the default `--jobs` against `--jobs 1`) is judged only when the machine was quiet
through every round:

- before and after each round, one calibration process a usable core runs the same fixed
  single-threaded loop at once, each timing itself: on a quiet machine its wall time is its CPU time;
  the largest wall/CPU ratio of them must stay under CALIBRATION_LIMIT;
- the steal time of the round (/proc/stat: time the hypervisor gave this machine's CPUs to others)
  must stay under STEAL_LIMIT of the round's CPU time;
- the serial clean build of the round, one process, must itself take no more wall time than
  SERIAL_LIMIT times its CPU time.

The load average (/proc/loadavg, one minute, the benchmark's own process included) is reported too.

CPU time is the steadier measure, but not a fixed one: on a virtual machine whose host is busy, or
with a neighbour on the same physical core, the same loop takes more CPU time too (twice as much was
seen on a loaded 2-core machine). The calibration loop's CPU seconds show by how much: the largest
over the smallest of the run is its CPU spread, and a CPU verdict whose ratio is within that spread
of its target says it is uncertain.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CALIBRATION_LIMIT = 1.10
SPREAD_NOTED = 1.05  # a CPU spread under this is measurement noise, not worth a word
STEAL_LIMIT = 0.05
SERIAL_LIMIT = 1.15
# About 0.3 s of CPU: long enough to see a neighbour, short enough to take four times a round.
LOOP = (
    "import time\n"
    "w, c = time.perf_counter(), time.process_time()\n"
    "x = 0\n"
    "for i in range(4_000_000):\n"
    "    x += i * i\n"
    "print(time.perf_counter() - w, time.process_time() - c)\n"
)


def usable_cores() -> int:
    return len(os.sched_getaffinity(0))


def calibrate() -> tuple[float, float]:
    """The loop run at once in one process a usable core: the largest wall/CPU ratio, and the mean CPU seconds."""
    procs = [
        subprocess.Popen([sys.executable, "-c", LOOP], stdout=subprocess.PIPE, text=True) for _ in range(usable_cores())
    ]
    times = [tuple(map(float, proc.communicate()[0].split())) for proc in procs]
    return max(wall / cpu for wall, cpu in times), sum(cpu for _, cpu in times) / len(times)


def _cpu_times() -> tuple[int, int]:
    """(steal, total) jiffies of every CPU since boot; (0, 0) where /proc/stat cannot be read."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return 0, 0
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


def _loadavg() -> float:
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return float("nan")


class Load:
    """The load of each round: start() before it, end() after it."""

    def __init__(self) -> None:
        self.rounds: list[dict[str, float]] = []
        self._start: dict[str, float] = {}
        self._times = (0, 0)

    def start(self) -> None:
        ratio, cpu = calibrate()
        self._start = {"before": ratio, "before_cpu": cpu, "load": _loadavg()}
        self._times = _cpu_times()

    def end(self) -> None:
        steal, total = (now - then for now, then in zip(_cpu_times(), self._times))
        ratio, cpu = calibrate()
        self.rounds.append({**self._start, "after": ratio, "after_cpu": cpu, "steal": steal / total if total else 0.0})

    def spread(self) -> float:
        """The calibration loop's largest CPU seconds over its smallest, in this run."""
        cpus = [r[key] for r in self.rounds for key in ("before_cpu", "after_cpu")]
        return max(cpus) / min(cpus) if cpus else 1.0

    def verdict(self, value: float, target: float, at_least: bool = False, below: bool = False) -> str:
        """met or not met on a CPU ratio, said to be uncertain when the CPU spread reaches across the target."""
        met = value >= target if at_least else value < target if below else value <= target
        spread = self.spread()
        near = spread >= SPREAD_NOTED and target / spread <= value <= target * spread
        return ("met" if met else "not met") + (
            f" (uncertain: the calibration loop's CPU time varied {spread:.2f}× in this run)" if near else ""
        )

    def busy(self, serial: list[dict]) -> str:
        """Why wall time cannot be judged ("" when the machine was quiet), with what was measured."""
        if not self.rounds:
            return "no load measured"
        calibration = max(max(r["before"], r["after"]) for r in self.rounds)
        steal = max(r["steal"] for r in self.rounds)
        load = max(r["load"] for r in self.rounds)
        worst = max(serial, key=lambda s: s["seconds"] / s["cpu"], default=None)
        reasons = []
        if calibration > CALIBRATION_LIMIT:
            reasons.append(f"calibration wall/CPU up to {calibration:.2f}×, over {CALIBRATION_LIMIT:.2f}×")
        if steal > STEAL_LIMIT:
            reasons.append(f"steal up to {steal:.0%} of the CPU time, over {STEAL_LIMIT:.0%}")
        if worst and worst["seconds"] / worst["cpu"] > SERIAL_LIMIT:
            reasons.append(
                f"a serial build took {worst['seconds']:.1f} s wall for {worst['cpu']:.1f} s CPU "
                f"({worst['seconds'] / worst['cpu']:.2f}×, over {SERIAL_LIMIT:.2f}×)"
            )
        if not reasons:
            return ""
        return "; ".join(reasons) + f"; load average up to {load:.2f} on {usable_cores()} cores"

    def rows(self) -> list[str]:
        """A Markdown table of every round's load."""
        return [
            "| round | calibration wall/CPU before | after | its CPU s before | after | steal | load average (1 min) |",
            "|---|---:|---:|---:|---:|---:|---:|",
            *[
                f"| {i} | {r['before']:.2f}× | {r['after']:.2f}× | {r['before_cpu']:.3f} | {r['after_cpu']:.3f} "
                f"| {r['steal']:.1%} | {r['load']:.2f} |"
                for i, r in enumerate(self.rounds, start=1)
            ],
        ]
