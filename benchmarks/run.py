"""cardgen's benchmark: this tree (and a baseline checkout) in, benchmarks/RESULTS.md out: the clean
build, the card sheets against a ReportLab floor and WeasyPrint, documents, CPU a card by output kind
as decks grow, memory, validation, rebuilds, and the load the machine was under.

    python benchmarks/run.py [--repeat N] [--weasy subset|all|skip] [--baseline DIR] [--quick]

Runs everything in one go. Every sample runs in a fresh process (fonts, SVGs
and imports are never warm from an earlier sample), the kinds of sample take
turns round after round so that a noisy neighbour slows them alike, and the
table shows medians; a ratio is the median of the per-round ratios. Every
target is judged on CPU time; wall time judges only the default `--jobs`, and
only when load.py found the machine quiet. See benchmarks/README.md for what
each line measures.

Nothing in the repository is touched: the decks are copied to a temporary
project first (the one-role edit happens there) and every build writes into a
temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import scaling
from common import (
    HERE,
    PY,
    ROOT,
    SLOW,
    Sample,
    cardgen_cmd,
    fingerprint,
    machine,
    profile,
    rewritten,
    run,
    snapshot,
    worker_json,
)
from load import Load
from report import report

SLOW_ROUNDS = 2  # WeasyPrint and the parallel build: in this many rounds only (they are slow, and
# their ratios are far from any threshold)
EDIT_ROLE = ("werewolf", "seer")
# --weasy subset: WeasyPrint takes minutes for every sheet, so by default it draws these two
# (Latin and CJK text, every kind of Werewolf card), and cardgen and the floor draw them again for the ratio.
WEASY_SUBSET = "werewolf-cards-en,werewolf-cards-zh"


# --- the cardgen card-sheet worker (runs in its own process) --------------------------------------


def cards_worker(decks: Path, only: str | None, out: Path | None) -> None:
    """cardgen's card PDFs through its Python API: check, then Pipeline.prepare + render.render_pdf per
    game and language, the same work as the card PDFs of `cardgen build` (less writing the files)."""
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
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke test: one round, small generated decks, no WeasyPrint and no profile; prints the "
        "results and writes them only with --results",
    )
    parser.add_argument("--results", type=Path, help="where to write the results (default: RESULTS.md)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (PDFs of every kind)")
    parser.add_argument("--worker", choices=["cards"], help=argparse.SUPPRESS)
    parser.add_argument("--decks", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--only", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    parser.add_argument(
        "--baseline",
        type=Path,
        help="a checkout of another revision of cardgen (say, main): its "
        "clean build and documents are timed in the same rounds, for the speed-ups",
    )
    parser.add_argument("--no-profile", action="store_true", help="skip the profiles of a serial clean build")
    args = parser.parse_args()
    if args.worker == "cards":
        cards_worker(args.decks, args.only, args.out)
        return
    if args.quick:
        args.repeat, args.weasy, args.no_profile = 1, "skip", True
    elif args.results is None:
        args.results = HERE / "RESULTS.md"

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
    # Generated decks: 1,000 distinct roles against the floor, and the decks of scaling.py.
    from generate import write_game

    roles_decks, scale_decks = tmp / "roles" / "decks", tmp / "scale" / "decks"
    write_game(roles_decks / "roles-1000", 1000, 1, "1000")
    log("writing the generated decks of the scaling rows")
    scaling.write_decks(scale_decks, args.quick)
    baseline_env = {**os.environ, "PYTHONPATH": str(args.baseline.resolve())} if args.baseline else None
    baseline_help = (
        run([PY, "-m", "cardgen", "build", "--help"], cwd=tmp, env=baseline_env)["stdout"] if args.baseline else ""
    )
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
            "documents",
            "documents_base",
            "missing",
            "complete",
            "first",
        )
    }
    scale: dict[str, list[Sample]] = {}
    load = Load()
    listing_cmd = cardgen + ["list", "--decks", str(decks)]
    run(listing_cmd)  # the listing a user asks again: answered from the cache while no deck file changes
    # A user's first build fills the user's cache (the narrator pages' font subsets: half a minute of CPU);
    # every clean build after it finds them there. Measured once, and so that no round pays it.
    log("a first clean build, the user's cache empty (once, before the rounds)")
    samples["first"].append(
        run(cardgen + ["build", "--out", str(tmp / "first"), "--decks", str(decks), *force, *serial])
    )
    if args.baseline:
        run(
            [PY, "-m", "cardgen", "build", "--out", str(tmp / "first-base"), "--decks", str(decks), *force, *serial],
            cwd=tmp,
            env=baseline_env,
        )
    for round_ in range(1, repeat + 1):
        log(f"round {round_}/{repeat}: calibrating the load")
        load.start()
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
                    env=baseline_env,
                )
            )
        log(
            f"round {round_}/{repeat}: the bundled set's documents alone"
            + (", then the baseline's" * bool(args.baseline))
        )
        mine = scaling.documents(run, cardgen, decks, tmp / "documents", help_text, ROOT)
        if mine:
            samples["documents"].append(mine)
        if args.baseline:
            theirs = scaling.documents(
                run, [PY, "-m", "cardgen"], decks, tmp / "documents-base", baseline_help, tmp, baseline_env
            )
            if theirs:
                samples["documents_base"].append(theirs)
        log(f"round {round_}/{repeat}: cardgen validate, three languages missing, then complete")
        missing, complete = scaling.validation(run, cardgen, scale_decks)
        samples["missing"].append(missing)
        samples["complete"].append(complete)
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
        for key, found in scaling.kinds_round(worker_json, scale_decks, tmp, round_, args.quick, log).items():
            scale.setdefault(key, []).extend(found)
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
        load.end()

    memory = scaling.memory(run, cardgen, scale_decks, tmp, log)

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
        load,
        memory,
    )
    if args.results:
        args.results.write_text(results, encoding="utf-8")
        log(f"wrote {args.results}")
    if args.keep:
        log(f"kept {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    print(results)


if __name__ == "__main__":
    main()
