"""Running the jobs: (game, language, outputs) in, each job's written files and problems out, in
worker processes when there are free cores, ended cleanly by signals and with their build, however it ends."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardgen.build.kinds import KINDS
from cardgen.build.options import BuildOptions
from cardgen.build.pipeline import Pipeline
from cardgen.build.planning import Target
from cardgen.core.problems import Problem
from cardgen.core.project import Project

# The stages come in when a build needs them: a build with nothing to do, `list` and --help load none.
if TYPE_CHECKING:
    import concurrent.futures

    from cardgen.core.write import Staged
    from cardgen.deck.load import GameFiles


@dataclass
class JobResult:
    written: list[tuple[Target, int]] = field(default_factory=list)  # (file, pages)
    cards: int = 0
    sheets: int = 0  # of the card PDF, when written
    back_ink: float = 0.0  # mean ink coverage of the cards' back colours
    saved: tuple[int, int] = (0, 0)  # --only-needed: sheets printed, and the whole box's
    warnings: list[Problem] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def run_job(
    project: Project,
    options: BuildOptions,
    files: GameFiles,
    lang: str,
    todo: tuple[Target, ...],
    pipeline: Pipeline | None = None,
) -> JobResult:
    """Stages 3-6 for one game in one language: the files of `todo` written (the game's others are up
    to date), or its problems."""
    from cardgen.core.write import Staged, Unwritable, write_atomic

    # A worker started without the build's makes its own: templates are read for every build, never kept stale.
    pipeline = pipeline or Pipeline(project, options)
    result = JobResult()
    by_kind = {target.kind: target for target in todo}
    kinds = [kind for kind in KINDS.values() if kind.name in by_kind]
    # Its SVGs are drawn once, on the sheets: one that cannot be drawn is said where it is named.
    prepared, found = pipeline.prepare(files, lang, any(kind.faces for kind in kinds), drawn=False)
    if prepared is None:
        result.problems = found
        return result
    result.warnings = found
    outputs: list[tuple[Target, bytes | Staged, int]] = []
    try:
        for kind in kinds:
            target = by_kind[kind.name]
            made, result.problems = pipeline.make(kind, prepared, files, target.tailored, target.path)
            if made is None:
                return result
            outputs.append((target, made.data, made.pages))
            if kind.faces:
                # Counted only where a card PDF is written.
                result.cards, result.sheets, result.back_ink = made.cards, made.sheets, made.back_ink
                if target.tailored:
                    result.saved = (made.sheets, made.box_sheets)
        for target, data, pages in outputs:
            # One file that cannot be written (a full disk) is said, and the others are still tried.
            try:
                if isinstance(data, Staged):
                    data.commit()
                else:
                    write_atomic(target.path, data)
            except Unwritable as exc:
                result.problems += exc.problems
                continue
            result.written.append((target, pages))
    finally:
        # A file written as it was made and never put in place (a later output failed, or the job was
        # stopped) goes with its job.
        for _, data, _ in outputs:
            if isinstance(data, Staged):
                data.discard()
    return result


def run_all(
    project: Project,
    options: BuildOptions,
    todo: list[tuple[GameFiles, str, BuildOptions, tuple[Target, ...]]],
    progress: Callable[[Iterable], Iterable],
) -> Iterable[tuple[GameFiles, str, JobResult]]:
    """Each job's result, in worker processes when there are several jobs and free cores to share."""
    workers = worker_count(options, todo)
    pipeline = Pipeline(project, options) if todo else None
    # Without jobs there is no pipeline and at most one worker; the loop still runs, for the progress it shows.
    if workers <= 1 or pipeline is None:
        for files, lang, game_options, files_todo in progress(todo):
            yield files, lang, run_job(project, game_options, files, lang, files_todo, pipeline)
        return
    context = _forking()
    if context is not None:
        # Forked workers inherit the fonts and modules loaded here instead of each loading its own.
        pipeline.warm(sorted({lang for _, lang, _, _ in todo}))
    import concurrent.futures

    pool = concurrent.futures.ProcessPoolExecutor(
        workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(pipeline if context is not None else None, os.getpid()),
    )
    try:
        futures = [
            pool.submit(_in_worker, project, game_options, files, lang, files_todo)
            for files, lang, game_options, files_todo in todo
        ]
        # Reported in job order, whatever order the workers finish in, so output does not depend on timing.
        for (files, lang, _, _), future in zip(progress(todo), futures):
            yield files, lang, future.result()
    except BaseException:
        # Ended by a signal, Ctrl-C or an error: no worker may outlive the build.
        _stop(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def worker_count(options: BuildOptions, todo: list[tuple[GameFiles, str, BuildOptions, tuple[Target, ...]]]) -> int:
    """--jobs when given; otherwise one worker per core that other processes leave free, and no more
    than there are jobs that draw PDFs (a narrator page alone is quicker made than a worker started)."""
    drawing = sum(1 for *_, files_todo in todo if any(KINDS[target.kind].suffix == "pdf" for target in files_todo))
    if options.jobs:
        return min(options.jobs, len(todo))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(cores - busy_cores(), drawing))


def busy_cores(looks: int = 5) -> int:
    """The cores other processes keep busy now: a core they keep busy would make a worker wait, and a
    build in workers that wait is slower than one without. Linux says how many tasks are runnable at
    this moment (/proc/loadavg's fourth field, this process among them): the fewest of a few looks a
    millisecond apart. The load average elsewhere, which also counts what ran in the last minute (a
    build just before this one)."""
    try:
        counts = []
        for look in range(looks):
            with open("/proc/loadavg", encoding="ascii") as loadavg:
                counts.append(int(loadavg.read().split()[3].split("/")[0]))
            if look + 1 < looks:
                time.sleep(0.001)
        return max(0, min(counts) - 1)
    except (OSError, ValueError, IndexError):
        return int(os.getloadavg()[0]) if hasattr(os, "getloadavg") else 0


def _forking():
    """A fork context where the system has one that is safe to use (Linux), else None (the default)."""
    import multiprocessing
    import sys

    return multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None


_worker_pipeline: Pipeline | None = None
_parent: int | None = None  # the build's process id, as a worker saw it at its start


def _start_worker(pipeline: Pipeline | None, parent: int) -> None:
    """A worker's start: SIGTERM ends it as Ctrl-C does, so does its build's end, however it ends (a
    SIGKILL runs no cleanup of the build's), and a forked worker keeps the build's pipeline."""
    global _worker_pipeline, _parent
    _worker_pipeline, _parent = pipeline, parent
    end_on_signals()
    end_with_parent()
    _check_parent()  # the build may have ended before the worker asked to be told


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def end_with_parent() -> None:
    """On Linux, the kernel sends this process SIGTERM when the process that started it ends
    (PR_SET_PDEATHSIG); elsewhere the worker looks between jobs (_check_parent)."""
    import ctypes
    import signal
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        # The C library the interpreter is linked with, looked up in the running process: no search.
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # a C library without prctl: the look between jobs stays


def _check_parent() -> None:
    """Ends this worker at once when the build that started it is gone (its parent is another now)."""
    if _parent is not None and os.getppid() != _parent:
        os._exit(1)


def _in_worker(
    project: Project, options: BuildOptions, files: GameFiles, lang: str, todo: tuple[Target, ...]
) -> JobResult:
    """run_job in a worker process; a signal that ends the build ends the worker too, once the job's
    cleanups have run (the pool would otherwise hand it the next job)."""
    _check_parent()
    try:
        return run_job(project, options, files, lang, todo, pipeline=_worker_pipeline)
    except SystemExit as exc:
        os._exit(exc.code if isinstance(exc.code, int) else 1)


def end_on_signals() -> None:
    """SIGTERM and SIGHUP end this process as Ctrl-C does, running every cleanup on the way out (a
    half-written temporary file is removed, worker processes are stopped); signals the caller
    chose to ignore stay ignored."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) in (signal.SIG_DFL, _ended):
            signal.signal(number, _ended)


def _ended(signum, frame) -> None:
    raise SystemExit(128 + signum)


def _stop(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Cancels what has not started and ends the workers at once (they clean up as they go)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join(timeout=10)
