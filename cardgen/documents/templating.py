"""Jinja2 templates: a template name and plain values in, text out.

A number a template prints is written in the digits its values name (``digits``: a language's own, such
as Persian's), as it stands where they name none.

Templates are looked up in the project's templates/ first, then the built-in
one, like MkDocs themes. They run sandboxed: deck texts are values, escaped
on the way in (autoescape, for the XML documents), and never templates
themselves; a template that reaches for unsafe attributes, or any file outside
its folder (a symbolic link leading out, a pipe), fails with its file and line.

A project's own template is a stranger's program: it runs in a child process
with a memory budget (:data:`MEMORY_BYTES`, where the system enforces one) and
a time limit (:data:`SECONDS`), and its output is cut off at
:data:`MAX_OUTPUT_CHARS`; the built-in templates run in-process.

The time limit is processor time where the system can count it (RLIMIT_CPU:
the kernel stops the child once it has computed for SECONDS), so that a busy
machine, which only makes a good template wait, does not stop it. A child that
waits without computing is stopped by the clock after :data:`WALL_SECONDS_FACTOR`
times as long (one that computed for :data:`COMPUTING_SHARE` of that time, where
the system says, is left to the processor-time limit). Where there is no
processor-time limit, the clock's limit is SECONDS; where there is no fork, the
template runs in-process, unbounded.
"""

from __future__ import annotations

import functools
import math
import os
import pickle
import select
import signal
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardgen.core import bundled, contained
from cardgen.core.phrases import is_number, numeral

BUILTIN = bundled.folder("templates")
SECONDS = 10.0  # of processor time (of the clock where the system cannot count processor time)
WALL_SECONDS_FACTOR = 5  # a child that waits without computing is stopped after this many times SECONDS
COMPUTING_SHARE = 0.05  # a child that computed for this share of that time is starved, not waiting: it may go on
MEMORY_BYTES = 512 * 1024 * 1024
# What the longest document cardgen lays out (core.limits.MAX_PAGES) needs with room to spare: a
# 20,000-role rulebook of some 710 pages is 5.2 million characters of XML.
MAX_OUTPUT_CHARS = 16 * 1024 * 1024
MAX_TEMPLATE_BYTES = 1024 * 1024
MAX_REPEAT = 100_000  # the longest text or list `*` may make, and the largest power `**` may


class TemplateError(Exception):
    """A template that cannot be used: where (file, line) and why."""

    def __init__(self, file: str, line: int | None, message: str):
        self.file, self.line, self.message = file, line, message
        super().__init__(f"{file}:{line}: {message}" if line else f"{file}: {message}")

    def __reduce__(self):
        return TemplateError, (self.file, self.line, self.message)


def _template_line(exc: BaseException) -> tuple[str | None, int | None]:
    """Where in a template an error happened: Jinja2 puts template lines in the traceback."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.endswith(".j2"):
            return frame.filename, frame.lineno
    return None, None


# The project templates that ran out of time, as they stood then: each language of a build would
# otherwise spend SECONDS again on the same loop.
_TIMED_OUT: dict[tuple, TemplateError] = {}


def render(template_dirs: Sequence[Path], name: str, context: dict[str, Any], autoescape: bool = True) -> str:
    """`autoescape` is for XML output; YAML templates quote their values with the tojson filter."""
    own = [Path(folder) for folder in template_dirs if not _builtin(Path(folder)) and _has_templates(Path(folder))]
    if not own:
        return _render(template_dirs, name, context, autoescape)
    key = (name, tuple(_fingerprint(folder) for folder in own))
    if key in _TIMED_OUT:
        raise _TIMED_OUT[key]
    try:
        return _bounded(template_dirs, name, context, autoescape)
    except TemplateError as exc:
        if exc.message.startswith("did not finish"):
            _TIMED_OUT[key] = exc
        raise


def _builtin(folder: Path) -> bool:
    return os.path.realpath(folder).startswith(os.path.realpath(BUILTIN) + os.sep) or os.path.realpath(
        folder
    ) == os.path.realpath(BUILTIN)


def _has_templates(folder: Path) -> bool:
    """Whether a project's templates folder holds any file a template could load."""
    return folder.is_dir() and any(files for _, _, files in os.walk(folder))


def _fingerprint(folder: Path) -> tuple:
    """The files of a templates folder as they stand: name, size and modification time."""
    found = []
    for top, _, files in os.walk(folder):
        for name in files:
            try:
                info = os.lstat(os.path.join(top, name))
            except OSError:
                continue
            found.append((os.path.join(top, name), info.st_size, info.st_mtime_ns))
    return tuple(sorted(found))


def _render(template_dirs: Sequence[Path], name: str, context: dict[str, Any], autoescape: bool) -> str:
    return _generate(_environment(tuple(str(d) for d in template_dirs), autoescape), template_dirs, name, context)


@functools.lru_cache(maxsize=16)
def _environment(template_dirs: tuple[str, ...], autoescape: bool):
    """The sandbox over these folders, made once a process, so that each template is compiled once
    (and again only when its file changes: `cardgen watch` renders in one process for hours)."""
    # Imported here: builds with nothing to do, list and --help never need Jinja2.
    import jinja2
    from jinja2.sandbox import SandboxedEnvironment

    class _ContainedLoader(jinja2.BaseLoader):
        """Templates read by the rule of cardgen.core.contained: never a link out of their folders, never a pipe."""

        def __init__(self, searchpath: Sequence[str]):
            self.searchpath = list(searchpath)

        def get_source(self, environment, template):
            pieces = jinja2.loaders.split_template_path(template)
            for folder in self.searchpath:
                # The folder itself must not be a link out (templates/documents -> elsewhere).
                parent = os.path.dirname(os.path.abspath(folder))
                if os.path.realpath(folder) != os.path.join(os.path.realpath(parent), os.path.basename(folder)):
                    raise TemplateError(folder, None, "is a symbolic link; cardgen does not follow it")
                candidate = os.path.join(folder, *pieces)
                why = contained.reason(Path(candidate), Path(folder))
                if why == contained.MISSING:
                    continue
                if why == contained.OUTSIDE:
                    raise TemplateError(candidate, None, "leads outside its templates folder (a symbolic link?)")
                try:
                    if why:
                        raise contained.Refused(why)
                    source = contained.read(Path(candidate), Path(folder), MAX_TEMPLATE_BYTES).decode("utf-8")
                except (contained.Refused, UnicodeDecodeError) as exc:
                    raise TemplateError(
                        candidate, None, str(exc) if isinstance(exc, contained.Refused) else "not UTF-8 text"
                    ) from None
                stamp = _stamp(candidate)
                return source, candidate, lambda candidate=candidate, stamp=stamp: _stamp(candidate) == stamp
            raise jinja2.TemplateNotFound(template)

    class _Sandbox(SandboxedEnvironment):
        """The sandbox, with `*` and `**` unable to make a text, list or number of unbounded size."""

        intercepted_binops = frozenset(["*", "**"])

        def call_binop(self, context, operator, left, right):
            if (
                operator == "**"
                and isinstance(right, (int, float))
                and abs(right) > 64
                and isinstance(left, (int, float))
                and abs(left) > 1
            ):
                raise OverflowError(f"a power this large ({left} ** {right}) is refused in templates")
            if operator == "*":
                for thing, times in ((left, right), (right, left)):
                    if (
                        isinstance(thing, (str, list, tuple))
                        and isinstance(times, int)
                        and len(thing) * times > MAX_REPEAT
                    ):
                        raise OverflowError(f"a repetition this long ({len(thing)} × {times}) is refused in templates")
            return super().call_binop(context, operator, left, right)

    @jinja2.pass_context
    def finalize(context, value):
        """A number a template prints, in the digits its values name (`digits`, the language's own)."""
        digits = context.get("digits")
        return numeral(value, digits) if digits and is_number(value) else value

    @jinja2.pass_context
    def in_digits(context, value):
        """A text a template makes with numbers in it (a file's size, "5.2"), its digits the language's own."""
        digits = context.get("digits")
        return numeral(value, digits) if digits else value

    environment = _Sandbox(
        loader=_ContainedLoader(list(template_dirs)),
        autoescape=autoescape,
        finalize=finalize,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.filters["digits"] = in_digits
    return environment


def _stamp(path: str) -> tuple | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns


def _generate(env, template_dirs: Sequence[Path], name: str, context: dict[str, Any]) -> str:
    import jinja2

    try:
        template = env.get_template(name)
        pieces, size = [], 0
        for piece in template.generate(context):
            pieces.append(piece)
            size += len(piece)
            if size > MAX_OUTPUT_CHARS:
                raise TemplateError(
                    template.filename or name,
                    None,
                    f"its output runs past "
                    f"{MAX_OUTPUT_CHARS // 1024 // 1024} million characters; cardgen stops it there",
                )
        return "".join(pieces)
    except TemplateError:
        raise
    except MemoryError as exc:
        file, line = _template_line(exc)
        raise TemplateError(file or name, line, _OUT_OF_MEMORY) from None
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(exc.filename or name, exc.lineno, exc.message or "syntax error") from None
    except jinja2.TemplateNotFound as exc:
        file, line = _template_line(exc)
        if file is None:
            raise TemplateError(name, None, f"no such template in {', '.join(map(str, template_dirs))}") from None
        # An {% include %} (or import, or extends) of a template that is nowhere: its line is the mistake.
        missing = ", ".join(f"'{each}'" for each in getattr(exc, "templates", None) or [exc.name])
        raise TemplateError(file, line, f"no template {missing} in the templates folders to include here") from None
    except (
        jinja2.TemplateError,
        TypeError,
        ValueError,
        AttributeError,
        OverflowError,
        RecursionError,
        ArithmeticError,
        LookupError,
    ) as exc:
        file, line = _template_line(exc)
        raise TemplateError(file or name, line, str(exc) or type(exc).__name__) from None


def _bounded(template_dirs: Sequence[Path], name: str, context: dict[str, Any], autoescape: bool) -> str:
    """_render in a forked child with a memory budget, stopped after SECONDS of processor time, or of
    the clock where the system cannot count processor time (in-process where the system cannot fork)."""
    if not hasattr(os, "fork"):
        return _render(template_dirs, name, context, autoescape)
    cpu_seconds = _cpu_limit(SECONDS)
    wall_seconds = SECONDS * WALL_SECONDS_FACTOR if cpu_seconds else SECONDS
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: render, send the outcome, leave at once
        os.close(read_end)
        code = 0
        try:
            _limit_memory(MEMORY_BYTES)
            if cpu_seconds:
                _limit_cpu(cpu_seconds)
            try:
                outcome: Any = ("text", _render(template_dirs, name, context, autoescape))
            except TemplateError as exc:
                outcome = ("error", exc.file, exc.line, exc.message)
            except MemoryError:
                outcome = ("error", _source(template_dirs, name), None, _OUT_OF_MEMORY)
            with os.fdopen(write_end, "wb") as out:
                pickle.dump(outcome, out)
        except BaseException:  # noqa: BLE001 - nothing may escape a forked child
            code = 1
        os._exit(code)
    os.close(write_end)
    deadline, waited, used = time.monotonic() + wall_seconds, wall_seconds, 0.0
    chunks: list[bytes] = []
    closed = False
    try:
        while not (closed := _read_until(read_end, deadline, chunks)) and cpu_seconds:
            # The clock has run out. A child still computing (on a busy machine, slowly) is left to the
            # kernel's processor-time limit, which ends it soon enough; one that waits is stopped here.
            now = _cpu_used(pid)
            if now is None or now - used < wall_seconds * COMPUTING_SHARE:
                break
            deadline, waited, used = deadline + wall_seconds, waited + wall_seconds, now
    finally:
        os.close(read_end)
        # A child whose pipe has closed is ending (or was ended): wait for it, until the deadline, to learn how.
        status = _end(pid, deadline if closed else None)
    if not closed:
        raise TemplateError(
            _source(template_dirs, name), None, f"did not finish within {waited:g} s; cardgen stops a template there"
        )
    data = b"".join(chunks)
    try:
        outcome = pickle.loads(data)
    except Exception:  # noqa: BLE001 - a child killed half way
        if cpu_seconds and status is not None and _out_of_time(status, cpu_seconds):
            raise TemplateError(
                _source(template_dirs, name),
                None,
                f"did not finish within {cpu_seconds} s of processor time; cardgen stops a template there",
            ) from None
        raise TemplateError(
            _source(template_dirs, name), None, "stopped before it finished (" + _OUT_OF_MEMORY + "?)"
        ) from None
    if outcome[0] == "text":
        return outcome[1]
    raise TemplateError(*outcome[1:])


_OUT_OF_MEMORY = f"needed more than the {MEMORY_BYTES // 1024 // 1024} MiB of memory a template may use"


def _source(template_dirs: Sequence[Path], name: str) -> str:
    """The file a template name stands for (the first folder's that has it), for messages."""
    return next((str(Path(folder) / name) for folder in template_dirs if os.path.lexists(Path(folder) / name)), name)


def _read_until(fd: int, deadline: float, chunks: list[bytes]) -> bool:
    """What a pipe gives, added to `chunks`: True once it closes, False when the deadline comes first."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return False
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return True
        chunks.append(chunk)


def _cpu_used(pid: int) -> float | None:
    """The processor seconds a running child has used so far (Linux's /proc), or None where unknown."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _end(pid: int, patience: float | None = None) -> tuple[int, float] | None:
    """The child gone and reaped, however it stands: killed at once, or when it has not ended by the
    monotonic time `patience`. Returns its wait status and the processor seconds it used (None when
    it was already reaped)."""
    try:
        while True:
            ended, status, usage = os.wait4(pid, os.WNOHANG)
            if ended or patience is None or time.monotonic() >= patience:
                break
            time.sleep(0.005)
        if not ended:
            os.kill(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
        return status, usage.ru_utime + usage.ru_stime
    except ChildProcessError:
        return None


def _out_of_time(ended: tuple[int, float], cpu_seconds: int) -> bool:
    """Whether a child ended by the kernel for the processor time it used (SIGXCPU at the soft limit,
    SIGKILL at the hard one)."""
    status, used = ended
    if not os.WIFSIGNALED(status):
        return False
    sigxcpu = getattr(signal, "SIGXCPU", None)
    return os.WTERMSIG(status) == sigxcpu or (os.WTERMSIG(status) == signal.SIGKILL and used >= cpu_seconds)


def _cpu_limit(seconds: float) -> int | None:
    """The whole processor seconds the kernel can hold a child to (at least 1), or None where the
    system has no processor-time limit."""
    try:
        import resource
    except ImportError:
        return None
    if not hasattr(resource, "RLIMIT_CPU") or not hasattr(signal, "SIGXCPU"):
        return None
    return max(1, math.ceil(seconds))


def _limit_cpu(seconds: int) -> None:
    """The kernel ends the child (SIGXCPU, its default action, then SIGKILL a second later) once it has
    computed for `seconds`; with no core file. A newly forked child starts at zero processor time."""
    try:
        import resource

        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        hard = seconds + 1 if hard == resource.RLIM_INFINITY else min(hard, seconds + 1)
        resource.setrlimit(resource.RLIMIT_CPU, (min(seconds, hard), hard))
    except (ImportError, OSError, ValueError):
        pass


def _limit_memory(budget: int) -> None:
    """The child may grow by `budget` bytes beyond what it shares with its parent (Linux; elsewhere
    the time limit alone bounds it)."""
    try:
        import resource

        with open("/proc/self/statm", encoding="ascii") as statm:
            used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (used + budget, used + budget))
    except (ImportError, OSError, ValueError):
        pass
