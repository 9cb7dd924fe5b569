"""cardgen's benchmark: clean build, the card sheets against a ReportLab floor and WeasyPrint, rebuilds, memory.

    python benchmarks/run.py [--repeat N] [--weasy subset|all|skip]

Runs everything in one go and writes benchmarks/RESULTS.md. Every sample runs
in a fresh process (fonts, SVGs and imports are never warm from an earlier
sample), the kinds of sample take turns round after round so that a noisy
neighbour slows them alike, and the table shows medians; a ratio is the median
of the per-round ratios. See benchmarks/README.md for what each line measures.

Nothing in the repository is touched: the decks are copied to a temporary
project first (the one-role edit happens there) and every build writes into a
temporary folder.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
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
SLOW_ROUNDS = 2  # WeasyPrint and the parallel build: in this many rounds only (they are slow, and
# their ratios are far from any threshold)
EDIT_ROLE = ("werewolf", "seer")
# --weasy subset: WeasyPrint takes minutes for every sheet, so by default it draws these two
# (Latin and CJK text, every kind of Werewolf card), and cardgen and the floor draw them again for the ratio.
WEASY_SUBSET = "werewolf-cards-en,werewolf-cards-zh"
# The generated decks of the scaling rows: distinct roles (one copy each), and copies of ten roles.
SCALE_ROLES = (125, 250, 500, 1000)
SCALE_COPIES = (1250, 2500, 5000, 10000)


# --- running things -------------------------------------------------------------------------------


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


# --- the cardgen card-sheet worker (runs in its own process) --------------------------------------


def cards_worker(decks: Path, only: str | None, out: Path | None, warm: str | None = None) -> None:
    """cardgen's card PDFs through its Python API: check, then Pipeline.prepare + render.render_pdf per
    game and language, the same work as the card PDFs of `cardgen build` (less writing the files).
    `warm`: a card PDF (of another game) made first, off the clock, so that what is timed is the cost
    of the cards alone, without the process's first font and symbol loads."""
    import io
    import resource

    sys.path.insert(0, str(ROOT))
    # Imported before the clock, like reportlab and svglib in floor.py: the stages, and the YAML reader
    # and checker a build loads on first use (what a process takes to start is timed on its own).
    from pypdf import PdfReader

    from cardgen.build import BuildOptions, Pipeline, check, jobs
    from cardgen.cards import face, layout, render  # noqa: F401
    from cardgen.core.project import Project
    from cardgen.deck import load, resolve, validate  # noqa: F401
    from cardgen.text import fonts, textfit  # noqa: F401

    project = Project.at(decks)
    options = BuildOptions()
    if warm:
        game, lang = warm.split("-cards-")
        (files,), _ = check(project, [game], strict=False)
        warmed, _ = Pipeline(project, options).prepare(files, lang)
        render.render_pdf(
            warmed.deck,
            warmed.pages,
            warmed.faces,
            warmed.book,
            render.RenderOptions(
                False, project.template_data("sheet.yaml"), project.template_data("strings.yaml")[lang]
            ),
        )
    times = {"check": 0.0, "prepare": 0.0, "render": 0.0}
    per_pdf: dict[str, float] = {}
    pdfs: dict[str, bytes] = {}
    cards = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    wanted = only.split(",") if only else []
    games, _ = check(project, sorted({name.split("-cards-")[0] for name in wanted}), strict=False)
    pipeline = Pipeline(project, options)
    sheet = project.template_data("sheet.yaml")
    strings = project.template_data("strings.yaml")
    times["check"] = time.perf_counter() - start
    for files, lang in jobs(games, options):
        if wanted and f"{files.id}-cards-{lang}" not in wanted:
            continue
        a = time.perf_counter()
        prepared, problems = pipeline.prepare(files, lang, drawn=False)  # as run_job: SVGs drawn once, on the sheets
        if prepared is None:
            raise SystemExit(f"{files.id} ({lang}): {problems[:3]}")
        b = time.perf_counter()
        render_options = render.RenderOptions(options.ink_saver, sheet, strings.get(lang, strings["en"]))
        name = f"{files.id}-cards-{lang}"
        pdfs[name] = render.render_pdf(prepared.deck, prepared.pages, prepared.faces, prepared.book, render_options)
        c = time.perf_counter()
        times["prepare"] += b - a
        times["render"] += c - b
        per_pdf[name] = c - a
        cards += len(prepared.deck.copies)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if out:
        out.mkdir(parents=True, exist_ok=True)
        for name, data in pdfs.items():
            (out / f"{name}.pdf").write_bytes(data)
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu": cpu,
                **times,
                "per_pdf": per_pdf,
                "pdfs": len(pdfs),
                "cards": cards,
                "pages": sum(len(PdfReader(io.BytesIO(d)).pages) for d in pdfs.values()),
                "bytes": sum(map(len, pdfs.values())),
                "maxrss_kb": maxrss,
            }
        )
    )


# --- the benchmark ---------------------------------------------------------------------------------


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
    for (file, line, name), (_, _, own, cumulative, _) in stats.stats.items():
        short = f"{Path(file).parent.name}/{Path(file).name}:{name}" if file.startswith("/") else name
        rows.append((short, own / total, cumulative / total))
    by_own = sorted(rows, key=lambda r: -r[1])[:12]
    stages = [r for r in rows if r[0].startswith("cardgen/") and r[2] > 0.04]
    return by_own + sorted((r for r in stages if r not in by_own), key=lambda r: -r[2])[:14]


def _marginal(per_card: list[tuple]) -> float:
    """ms (CPU) each card adds, from the smallest deck to the largest: (size, ms a card, ...) rows."""
    (small, small_ms, *_), (large, large_ms, *_) = per_card[0], per_card[-1]
    return (large * large_ms - small * small_ms) / (large - small)


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
        kb = int(next(l for l in Path("/proc/meminfo").read_text().splitlines() if l.startswith("MemTotal")).split()[1])
        return f"{kb / 1024 / 1024:.0f} GiB"
    except (OSError, StopIteration, ValueError):
        return "unknown"


def fingerprint() -> dict[str, str]:
    """A hash of each of cardgen's sources and templates, to tell whether the code changed during the run."""
    import hashlib

    files = sorted([*(ROOT / "cardgen").rglob("*.py"), *(ROOT / "templates").rglob("*")])
    return {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.is_file()}


def edit_role(decks: Path) -> str:
    """Appends a space to the English ability of one Werewolf role (inside the quotes, so the value changes)."""
    import yaml

    game, role = EDIT_ROLE
    path = decks / game / "roles" / f"{role}.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.rstrip() == "ability:")
    for i in range(start + 1, len(lines)):
        match = re.match(r'^(\s+en:\s*".*)"\s*$', lines[i])
        if match:
            lines[i] = match.group(1) + ' "'
            break
        if lines[i] and not lines[i].startswith(" "):
            raise SystemExit(f"{path}: no quoted English ability line to edit")
    path.write_text("\n".join(lines), encoding="utf-8")
    value = yaml.safe_load(path.read_text(encoding="utf-8"))["ability"]["en"]
    assert value.endswith(" "), value
    return f"decks/{game}/roles/{role}.yaml (ability.en, now ending in {len(value) - len(value.rstrip())} space(s))"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="samples of each measurement (default 3)")
    parser.add_argument(
        "--weasy",
        choices=["subset", "all", "skip"],
        default="subset",
        help="WeasyPrint on the English and Chinese Werewolf sheets (default), on every sheet "
        "(slow: minutes a sample), or not at all",
    )
    parser.add_argument("--results", type=Path, default=HERE / "RESULTS.md")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (PDFs of every kind)")
    parser.add_argument("--worker", choices=["cards"], help=argparse.SUPPRESS)
    parser.add_argument("--decks", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--only", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--warm", help=argparse.SUPPRESS)
    parser.add_argument(
        "--baseline",
        type=Path,
        help="a checkout of another revision of cardgen (say, main): its "
        "clean build is timed in the same rounds, for the speed-up",
    )
    parser.add_argument("--no-profile", action="store_true", help="skip the profiles of a serial clean build")
    args = parser.parse_args()
    if args.worker == "cards":
        cards_worker(args.decks, args.only, args.out, args.warm)
        return

    began = time.perf_counter()
    sources = fingerprint()
    repeat = max(1, args.repeat)
    tmp = Path(tempfile.mkdtemp(prefix="cardgen-bench-"))
    decks = tmp / "project" / "decks"
    shutil.copytree(ROOT / "decks", decks)
    # cardgen's per-user cache (cardgen/core/cache.py) in the temporary folder: the run leaves the home's alone.
    os.environ["XDG_CACHE_HOME"] = str(tmp / "cache")
    log = lambda *a: print(f"[{time.perf_counter() - began:6.1f} s]", *a, file=sys.stderr, flush=True)  # noqa: E731

    cardgen = cardgen_cmd()
    help_text = run(cardgen + ["build", "--help"])["stdout"]
    has_force, has_jobs = "--force" in help_text, "--jobs" in help_text
    serial = ["--jobs", "1"] if has_jobs else []
    force = ["--force"] if has_force else []
    clean_out, spec_file = tmp / "clean", tmp / "spec.json"

    log("extracting the composed card sheets (spec.py, not timed)")
    run([PY, str(HERE / "spec.py"), str(spec_file), "--decks", str(decks)])
    # Generated decks: 1,000 distinct roles against the floor, and four sizes each of copies and of roles.
    from generate import write_game

    roles_decks, scale_decks = tmp / "roles" / "decks", tmp / "scale" / "decks"
    write_game(roles_decks / "roles-1000", 1000, 1, "1000")
    write_game(scale_decks / "warm", 20, 1, "warm", title="Warden")
    for size in SCALE_ROLES:
        write_game(scale_decks / f"roles-{size}", size, 1, str(size))
    for size in SCALE_COPIES:
        write_game(scale_decks / f"copies-{size}", 10, size // 10, str(size))
    roles_spec = tmp / "roles-spec.json"
    run([PY, str(HERE / "spec.py"), str(roles_spec), "--decks", str(roles_decks)])

    cards = [PY, str(HERE / "run.py"), "--worker", "cards", "--decks", str(decks)]
    floor = [PY, str(HERE / "floor.py"), str(spec_file)]
    weasy = [PY, str(HERE / "weasy.py"), str(spec_file)]
    subset = ["--only", WEASY_SUBSET] if args.weasy == "subset" else []
    weasy_error = None
    if args.weasy != "skip":
        try:
            import weasyprint  # noqa: F401
        except Exception as exc:  # ImportError, or OSError when Pango cannot be loaded
            weasy_error = f"{type(exc).__name__}: {exc}"
            log("WeasyPrint not measured:", weasy_error)

    samples: dict[str, list[Sample]] = {
        k: []
        for k in (
            "build",
            "cards",
            "floor",
            "cards_s",
            "floor_s",
            "weasy",
            "parallel",
            "baseline",
            "help",
            "list",
            "list_cold",
            "roles_en",
            "roles_zh",
            "floor_en",
            "floor_zh",
        )
    }
    scale: dict[str, list[Sample]] = {}
    listing_cmd = cardgen + ["list", "--decks", str(decks)]
    run(listing_cmd)  # the listing a user asks again: answered from the cache while no deck file changes
    for round_ in range(1, repeat + 1):
        log(f"round {round_}/{repeat}: clean build")
        shutil.rmtree(clean_out, ignore_errors=True)
        samples["build"].append(
            run(cardgen + ["build", "--out", str(clean_out), "--decks", str(decks), *force, *serial])
        )
        if args.baseline:
            log(f"round {round_}/{repeat}: clean build of the baseline ({args.baseline.name})")
            out = tmp / "baseline"
            shutil.rmtree(out, ignore_errors=True)
            samples["baseline"].append(
                run(
                    [PY, "-m", "cardgen", "build", "--out", str(out), "--decks", str(decks), *force, *serial],
                    cwd=tmp,
                    env={**os.environ, "PYTHONPATH": str(args.baseline.resolve())},
                )
            )
        samples["help"].append(run(cardgen + ["--help"]))
        samples["list"].append(run(listing_cmd))
        samples["list_cold"].append(
            run(listing_cmd, env={**os.environ, "XDG_CACHE_HOME": str(tmp / f"cache-{round_}")})
        )
        log(f"round {round_}/{repeat}: 1,000 distinct roles, en and zh, cardgen then the floor")
        for lang in ("en", "zh"):
            name = f"roles-1000-cards-{lang}"
            samples[f"roles_{lang}"].append(worker_json(cards[:-1] + [str(roles_decks), "--only", name]))
            samples[f"floor_{lang}"].append(worker_json([PY, str(HERE / "floor.py"), str(roles_spec), "--only", name]))
        # Every round, and each size as many times as it takes to draw as many cards as the largest: one
        # sample a round of a 125-card deck (0.3 s) moved its ms a card by a quarter from run to run.
        log(f"round {round_}/{repeat}: ms a card, {len(SCALE_ROLES)} sizes each of roles and of copies")
        for kind, sizes in (("roles", SCALE_ROLES), ("copies", SCALE_COPIES)):
            for n in sizes:
                for _ in range(max(1, round(sizes[-1] / n))):
                    scale.setdefault(f"{kind}-{n}", []).append(
                        worker_json(
                            cards[:-1] + [str(scale_decks), "--only", f"{kind}-{n}-cards-en", "--warm", "warm-cards-en"]
                        )
                    )
        log(f"round {round_}/{repeat}: card sheets via the API, then the floor")
        keep = ["--out", str(tmp / "pdf-cardgen")] if round_ == 1 else []
        samples["cards"].append(worker_json(cards + keep))
        samples["floor"].append(worker_json(floor + (["--out", str(tmp / "pdf-floor")] if round_ == 1 else [])))
        if args.weasy != "skip" and not weasy_error and round_ <= SLOW_ROUNDS:
            if subset:
                log(f"round {round_}/{repeat}: WeasyPrint on {WEASY_SUBSET}, and cardgen and the floor on them")
                samples["cards_s"].append(worker_json(cards + ["--only", WEASY_SUBSET]))
                samples["floor_s"].append(worker_json(floor + subset))
            else:
                log(f"round {round_}/{repeat}: WeasyPrint, every sheet")
            samples["weasy"].append(
                worker_json(weasy + subset + (["--out", str(tmp / "pdf-weasy")] if round_ == 1 else []))
            )
        if has_jobs:
            log(f"round {round_}/{repeat}: clean build, default --jobs")
            out = tmp / "parallel"
            shutil.rmtree(out, ignore_errors=True)
            samples["parallel"].append(run(cardgen + ["build", "--out", str(out), "--decks", str(decks), *force]))

    # The output folder now holds the last clean build: build again, nothing changed.
    log("no-change rebuild")
    rebuild_cmd = cardgen + ["build", "--out", str(clean_out), "--decks", str(decks)]
    rebuilds, rebuild_rewrites = [], []
    for _ in range(repeat):
        before = snapshot(clean_out)
        rebuilds.append(run(rebuild_cmd))
        rebuild_rewrites.append(rewritten(before, snapshot(clean_out)))
        if rebuilds[-1]["wall"] > SLOW:
            break
    log("one-role edit rebuild")
    edits, edit_rewrites, edit_what = [], [], ""
    for _ in range(repeat):
        edit_what = edit_role(decks)
        before = snapshot(clean_out)
        edits.append(run(rebuild_cmd))
        edit_rewrites.append(rewritten(before, snapshot(clean_out)))
        if edits[-1]["wall"] > SLOW:
            break
    outputs = len(snapshot(clean_out))
    profiles = []
    if not args.no_profile:
        for label, where in [
            ("this tree", None),
            *([(f"baseline ({args.baseline.name})", args.baseline)] if args.baseline else []),
        ]:
            log(f"profiling a serial clean build of {label}")
            profiles.append((label, profile(decks, tmp, where, [*force, *serial])))

    info = machine()
    now = fingerprint()
    changed = sorted(name for name in sources.keys() | now.keys() if sources.get(name) != now.get(name))
    changed_sources = ", ".join(changed[:5]) + (" …" if len(changed) > 5 else "")
    results = report(
        args,
        info,
        samples,
        rebuilds,
        rebuild_rewrites,
        edits,
        edit_rewrites,
        edit_what,
        outputs,
        has_force,
        has_jobs,
        weasy_error,
        time.perf_counter() - began,
        changed_sources,
        scale,
        profiles,
    )
    args.results.write_text(results, encoding="utf-8")
    log(f"wrote {args.results}")
    if args.keep:
        log(f"kept {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    print(results)


def report(
    args,
    info,
    samples,
    rebuilds,
    rebuild_rewrites,
    edits,
    edit_rewrites,
    edit_what,
    outputs,
    has_force,
    has_jobs,
    weasy_error,
    total,
    changed_sources,
    scale,
    profiles,
) -> str:
    def spread(values: list[float]) -> str:
        return f"{min(values):.2f}–{max(values):.2f}" if len(values) > 1 else "—"

    def mb(values: list[Sample]) -> str:
        return f"{max(s['maxrss_kb'] for s in values) / 1024:.0f}" if values else "—"

    def paired(a: list[Sample], b: list[Sample], key: str) -> float:
        return median([x[key] / y[key] for x, y in zip(a, b)])

    rows: list[tuple] = []

    def row(label: str, values: list[Sample], note: str = "") -> None:
        walls, cpus = [v["seconds"] for v in values], [v["cpu"] for v in values]
        rows.append(
            (label, f"{median(walls):.2f}", spread(walls), f"{median(cpus):.2f}", len(values), mb(values), note)
        )

    build, parallel = samples["build"], samples["parallel"]
    flags = " ".join(["--force"] * has_force + ["--jobs 1"] * has_jobs) or "(no --force/--jobs yet: folder deleted)"
    summary = build[-1]["stdout"].strip().splitlines()[-1] if build else ""
    row(f"(a) clean build, every game and language: `cardgen build {flags}`", build, f"cardgen says: {summary}")
    if parallel:
        row("(a) the same, default `--jobs` (CPU: all processes)", parallel)
    baseline = samples["baseline"]
    if baseline:
        said = baseline[-1]["stdout"].strip().splitlines()[-1]
        row(f"(a) the same as the first, by the baseline ({args.baseline.name})", baseline, f"it says: {said}")
    cards, floor = samples["cards"], samples["floor"]
    row(
        f"(a′) card sheets only, via the API ({cards[0]['pdfs']} PDFs, {cards[0]['pages']} pages)",
        cards,
        f"check {median([s['check'] for s in cards]):.2f} + prepare {median([s['prepare'] for s in cards]):.2f}"
        f" + render {median([s['render'] for s in cards]):.2f} s",
    )
    row(f"(b) floor: the same sheets, minimal ReportLab ({floor[0]['pages']} pages)", floor)
    weasy, cs, fs = samples["weasy"], samples["cards_s"], samples["floor_s"]
    subset_name = "Werewolf en + zh"
    if weasy and args.weasy == "subset":
        row(f"(a′) card sheets via the API, {subset_name} ({cs[0]['pdfs']} PDFs, {cs[0]['pages']} pages)", cs)
        row(f"(b) floor, {subset_name}", fs)
        row(f"(c) WeasyPrint, {subset_name} ({weasy[0]['pages']} pages)", weasy)
    elif weasy:
        row(f"(c) WeasyPrint, every sheet ({weasy[0]['pages']} pages)", weasy)
    else:
        rows.append(("(c) WeasyPrint", "not measured", "—", "—", 0, "—", weasy_error or "skipped (--weasy skip)"))

    for lang in ("en", "zh"):
        mine, floors = samples[f"roles_{lang}"], samples[f"floor_{lang}"]
        row(
            f"(a′) card sheets via the API, 1,000 distinct roles, {lang} ({mine[0]['pages']} pages)",
            mine,
            f"check {median([s['check'] for s in mine]):.2f} + prepare {median([s['prepare'] for s in mine]):.2f}"
            f" + render {median([s['render'] for s in mine]):.2f} s",
        )
        row(f"(b) floor, 1,000 distinct roles, {lang}", floors)
    row("`cardgen --help`", samples["help"])
    row("`cardgen list` (every bundled game)", samples["list"], "again, nothing changed: from the cache")
    row("`cardgen list`, the first time (nothing cached)", samples["list_cold"], "loads and checks every deck")

    def wrote(rewrites) -> str:
        again, changed = rewrites[-1]
        return f"rewrote {len(again)} of {outputs} PDFs ({len(changed)} with different bytes)"

    row("no-change rebuild (`cardgen build` again into the same folder)", rebuilds, wrote(rebuild_rewrites))
    row("one-role edit rebuild (then `cardgen build` into the same folder)", edits, wrote(edit_rewrites))

    def ratio(what: str, a, b, target: float | None = None, digits: int = 2) -> tuple:
        wall, cpu = paired(a, b, "seconds"), paired(a, b, "cpu")
        verdict = ""
        if target is not None:
            verdict = (
                "met"
                if max(wall, cpu) <= target
                else "not met"
                if min(wall, cpu) > target
                else "met on CPU time only"
                if cpu <= target
                else "met on wall time only"
            )
        return (what, f"{wall:.{digits}f}×", f"{cpu:.{digits}f}×", f"≤ {target}×" if target else "", verdict)

    ratios = [ratio("cardgen card sheets (a′) / floor (b), all sheets", cards, floor, 1.2)]
    for lang in ("en", "zh"):
        ratios.append(
            ratio(
                f"cardgen card sheets / floor, 1,000 distinct roles, {lang}",
                samples[f"roles_{lang}"],
                samples[f"floor_{lang}"],
                1.2,
            )
        )
    if baseline:
        wall, cpu = paired(baseline, build, "seconds"), paired(baseline, build, "cpu")
        ratios.append(
            (
                f"speed-up of the serial clean build: baseline ({args.baseline.name}) / this tree",
                f"{wall:.2f}×",
                f"{cpu:.2f}×",
                "≥ 1.5× (CPU)",
                "met" if cpu >= 1.5 else "not met",
            )
        )
    if parallel:
        wall, cpu = paired(parallel, build, "seconds"), paired(parallel, build, "cpu")
        ratios.append(
            (
                "default `--jobs` / `--jobs 1`, clean build",
                f"{wall:.2f}×",
                f"{cpu:.2f}×",
                "≤ 1.00× (wall)",
                "met" if wall <= 1.0 else "not met",
            )
        )
    waited = [float(m.group(1)) for b in build if (m := re.search(r" in ([0-9.]+) s", b["stdout"]))]
    if waited:
        said, wall = median(waited), median([b["wall"] for b in build])
        ratios.append(
            (
                "the build's summary line / its wall time as the benchmark sees it",
                f"{said / wall:.2f}×",
                "",
                "1.00× (±0.1 s rounding)",
                "met" if abs(said - wall) <= 0.15 else "not met",
            )
        )
    render_wall = median([c["render"] / f["seconds"] for c, f in zip(cards, floor)])
    ratios.append(("cardgen's render stage alone / floor", f"{render_wall:.2f}×", "", "", "for reference"))
    if weasy and args.weasy == "subset":
        ratios += [
            ratio(f"WeasyPrint (c) / cardgen card sheets (a′), {subset_name}", weasy, cs, digits=1),
            ratio(f"WeasyPrint (c) / floor (b), {subset_name}", weasy, fs, digits=1),
            ratio(f"cardgen / floor, {subset_name}", cs, fs),
        ]
    elif weasy:
        ratios += [
            ratio("WeasyPrint (c) / cardgen card sheets (a′)", weasy, cards, digits=1),
            ratio("WeasyPrint (c) / floor (b)", weasy, floor, digits=1),
        ]
    rebuild_wall, rebuild_cpu = median([s["seconds"] for s in rebuilds]), median([s["cpu"] for s in rebuilds])
    ratios.append(
        (
            "no-change rebuild",
            f"{rebuild_wall:.2f} s",
            f"{rebuild_cpu:.2f} s",
            "< 0.2 s (wall)",
            "met" if rebuild_wall < 0.2 else "met on CPU time only" if rebuild_cpu < 0.2 else "not met",
        )
    )
    for what, values in (
        ("`cardgen --help`", samples["help"]),
        ("`cardgen list`", samples["list"]),
        ("`cardgen list`, the first time", samples["list_cold"]),
    ):
        wall, cpu = median([v["wall"] for v in values]), median([v["cpu"] for v in values])
        ratios.append(
            (
                what,
                f"{wall:.2f} s",
                f"{cpu:.2f} s",
                "< 0.15 s (wall)",
                "met" if wall < 0.15 else "met on CPU time only" if cpu < 0.15 else "not met",
            )
        )
    documents = median([b["cpu"] for b in build]) - median([c["cpu"] for c in cards])
    ratios.append(
        (
            "rulebooks and scripts, roughly: CPU of (a) − CPU of (a′)",
            "",
            f"{documents:.1f} s",
            "",
            "also includes process start, imports and writing the files",
        )
    )

    scaling = []
    for kind, sizes in (("roles", SCALE_ROLES), ("copies", SCALE_COPIES)):
        per_card = []
        for size in sizes:
            runs = scale.get(f"{kind}-{size}", [])
            if runs:
                per_card.append(
                    (
                        size,
                        median([1000 * r["cpu"] / r["cards"] for r in runs]),
                        median([1000 * r["seconds"] / r["cards"] for r in runs]),
                        len(runs),
                    )
                )
        if per_card:
            growth = per_card[-1][1] / per_card[0][1]
            scaling.append((kind, per_card, growth))
            ratios.append(
                (
                    f"ms a card, {per_card[-1][0]:,} {'distinct roles' if kind == 'roles' else 'copies'} / "
                    f"{per_card[0][0]:,}",
                    f"{per_card[-1][2] / per_card[0][2]:.2f}×",
                    f"{growth:.2f}×",
                    "within 10 %",
                    "met" if abs(growth - 1) <= 0.1 else "not met",
                )
            )

    kinds = [
        ("(a) build --jobs 1", build),
        ("(a) build, default jobs", parallel),
        ("(a′) cards API", cards),
        ("(b) floor", floor),
        ("(a′) subset", cs),
        ("(b) subset", fs),
        ("(c) WeasyPrint", weasy),
        ("no-change rebuild", rebuilds),
        ("one-role edit", edits),
        ("(a) baseline build", baseline),
        ("roles en", samples["roles_en"]),
        ("floor roles en", samples["floor_en"]),
        ("roles zh", samples["roles_zh"]),
        ("floor roles zh", samples["floor_zh"]),
        ("--help", samples["help"]),
        ("list", samples["list"]),
        ("list, nothing cached", samples["list_cold"]),
    ]
    raw = [
        f"| {label} | " + " | ".join(f"{v['seconds']:.2f} / {v['cpu']:.2f}" for v in values) + " |"
        for label, values in kinds
        if values
    ]

    def once(samples_: list) -> str:
        return (
            f" (one only: it took {samples_[0]['wall']:.1f} s)"
            if len(samples_) == 1 and samples_[0]["wall"] > SLOW
            else ""
        )

    def listing(rewrites) -> str:
        again, changed = rewrites[-1]
        if not again:
            return "the last one wrote no PDF."
        names = ", ".join(f"`{n}`" for n in again) if len(again) < outputs else "all of them"
        return (
            f"the last one wrote {len(again)} of {outputs} PDFs again ({names}); "
            f"{len(changed)} of those differ in their bytes from before"
            + (f" ({', '.join(f'`{n}`' for n in changed)})." if 0 < len(changed) < outputs else ".")
        )

    lines = [
        "# cardgen benchmark results",
        "",
        f"Run on {dt.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')} with "
        f"`python benchmarks/run.py --repeat {args.repeat}{'' if args.weasy == 'subset' else ' --weasy ' + args.weasy}`"
        f", {total / 60:.1f} minutes in all. Medians over the samples column, each sample in a fresh process, the "
        "kinds taking turns round by round on a shared, noisy machine: read the ratios more than the seconds. "
        "What each line measures and why the comparison is fair: [README.md](README.md).",
        "",
        "## Machine",
        "",
        *[f"- {key}: {value}" for key, value in info.items()],
        "",
        "## Times",
        "",
        "| measurement | median wall s | min–max wall s | median CPU s | samples | peak RSS MB | notes |",
        "|---|---:|---:|---:|---:|---:|---|",
        *[
            f"| {label} | {value} | {rng} | {cpu} | {n} | {memory} | {note} |"
            for label, value, rng, cpu, n, memory, note in rows
        ],
        "",
        "Wall time is what a user waits; CPU time (user + system of the process, or of the timed part in the"
        " workers) is what the work costs, and is the steadier of the two when other tenants load the machine.",
        "",
        "## Ratios and targets",
        "",
        "| what | wall | CPU | target | |",
        "|---|---:|---:|---:|---|",
        *[f"| {what} | {wall} | {cpu} | {target} | {verdict} |" for what, wall, cpu, target, verdict in ratios],
        "",
        "Ratios are medians of per-round ratios (each round ran the two sides back to back).",
        "",
        "Every sample, round by round (wall s / CPU s):",
        "",
        "| sample | " + " | ".join(f"round {i + 1}" for i in range(max(len(v) for _, v in kinds))) + " |",
        "|---|" + "---:|" * max(len(v) for _, v in kinds),
        *raw,
        "",
        "## Cost a card as decks grow",
        "",
        "Generated Werewolf-like decks (benchmarks/generate.py): distinct roles, one copy each, and ten roles of"
        " many copies; English, card sheets via the API in a fresh process that first makes another small deck off"
        " the clock (fonts and symbols loaded), so that what is timed grows with the cards alone.",
        "",
        "| deck | cards | ms a card (CPU) | ms a card (wall) | samples |",
        "|---|---:|---:|---:|---:|",
        *[
            f"| {'distinct roles' if kind == 'roles' else 'copies of 10 roles'} | {size:,} | {cpu:.3f} | {wall:.3f} | {n} |"
            for kind, per_card, _ in scaling
            for size, cpu, wall, n in per_card
        ],
        "",
        *[
            f"- {'Distinct roles' if kind == 'roles' else 'Copies'}: from {per_card[0][0]:,} to {per_card[-1][0]:,} "
            f"cards, each card added cost {_marginal(per_card):.3f} ms (CPU), against {per_card[0][1]:.3f} ms a card "
            f"in the smallest deck"
            + (
                f": each PDF costs about {per_card[0][0] * (per_card[0][1] - _marginal(per_card)):.0f}"
                " ms whatever its cards (its symbol forms, back pattern and font subsets, made "
                "once a PDF), spread over fewer cards in a smaller deck."
                if _marginal(per_card) < per_card[0][1]
                else "."
            )
            for kind, per_card, _ in scaling
        ],
        "",
        *(
            [
                "## Where the time goes: cProfile of a serial clean build (`--force --jobs 1`)",
                "",
                "Share of the profiled run: own time (the function itself) and cumulative (with what it calls); the 12"
                " largest by own time, then cardgen's stages above 4 % cumulative.",
                "",
            ]
            if profiles
            else []
        ),
        *[
            line
            for label, top in profiles
            for line in (
                f"**{label}**",
                "",
                "| function | own | cumulative |",
                "|---|---:|---:|",
                *[f"| `{name}` | {own:.1%} | {cumulative:.1%} |" for name, own, cumulative in top],
                "",
            )
        ],
        "## Notes on this run",
        "",
        *(
            [
                f"- **cardgen's code changed while this ran** ({changed_sources}): samples from different rounds may "
                "measure different code; run it again on a quiet tree."
            ]
            if changed_sources
            else []
        ),
        f"- cardgen build options: `--force` {'exists and is used for the clean builds' if has_force else 'does not exist yet: the output folder is deleted before every clean build'}; "
        f"`--jobs` {'exists: `--jobs 1` for the serial build, the default for the parallel row' if has_jobs else 'does not exist yet: the build is serial'}.",
        "- Both rebuilds run `cardgen build --out DIR` as a user would (default `--jobs`, no `--force`), into the"
        " folder of the last clean build.",
        f"- No-change rebuild: {len(rebuilds)} sample(s){once(rebuilds)}; {listing(rebuild_rewrites)}",
        f"- One-role edit: each sample appends one more space to {edit_what}, then builds; {len(edits)} sample(s)"
        f"{once(edits)}; {listing(edit_rewrites)} The markup parser strips trailing spaces, so the card itself "
        "prints the same; a rebuild that keys on the input files' contents still redoes what that file feeds.",
        f"- Page counts: cardgen API {cards[0]['pages']}, floor {floor[0]['pages']}"
        + (f", WeasyPrint {weasy[0]['pages']} of {weasy[0]['expected_pages']} expected" if weasy else "")
        + ".",
        "- The floor and WeasyPrint differ from cardgen's sheets only where cardgen does more than draw: Chinese"
        " lines break by ReportLab's (floor) or Pango's (WeasyPrint) rules instead of cardgen's kinsoku, so a few"
        " lines start with \uff0c or \u3002; WeasyPrint's back pattern is a repeating background tile (see README).",
        "- Peak RSS is `ru_maxrss` from `os.wait4` of each sample's process (for the build, of cardgen and any"
        " worker processes it reaped), the largest over the samples.",
        "",
        "## Run it again",
        "",
        "    . .venv/bin/activate",
        "    pip install weasyprint        # optional; needs the system's Pango (libpango-1.0-0, libpangoft2-1.0-0)",
        "    python benchmarks/run.py                   # about 12 minutes on 2 cores",
        "    git worktree add /tmp/main main && python benchmarks/run.py --baseline /tmp/main   # and the speed-up",
        "    python benchmarks/run.py --repeat 5 --weasy all --keep   # longer; keeps every PDF made",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
