"""benchmarks/RESULTS.md: the samples of a run (run.py), the load (load.py) and the scaling samples
(scaling.py) in, Markdown out: the machine, every time and ratio with its verdict (on CPU time; wall
time only for the default `--jobs`, on a quiet machine), CPU a card by output kind, the load, the
profiles and notes.
"""

from __future__ import annotations

import datetime as dt
import re

import scaling
from common import SLOW, Sample, median
from generate import NIGHT_EVERY


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
    load,
    memory,
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
    documents, documents_base = samples["documents"], samples["documents_base"]
    booklets = " and booklets" if documents and documents[0]["booklets"] else ""
    flags = " ".join(["--force"] * has_force + ["--jobs 1"] * has_jobs) or "(no --force/--jobs yet: folder deleted)"
    summary = build[-1]["stdout"].strip().splitlines()[-1] if build else ""
    row(f"(a) clean build, every game and language: `cardgen build {flags}`", build, f"cardgen says: {summary}")
    if parallel:
        row("(a) the same, default `--jobs` (CPU: all processes)", parallel)
    row("(a) the same as the first, the first time on a machine (the user's cache empty; once)", samples["first"])
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

    if documents:
        row(f"the bundled set's rulebooks, scripts{booklets} alone (`build --only`)", documents)
    if documents_base:
        row(f"the same, by the baseline ({args.baseline.name})", documents_base)
    n = scaling.validate_roles(args.quick)
    row(f"`cardgen validate`, {n:,} roles lacking {', '.join(scaling.MISSING)}", samples["missing"])
    row(f"`cardgen validate`, the same {n:,} roles complete", samples["complete"])
    for label, sample in zip(("one copy each", "ten copies each"), memory):
        row(f"card build, {scaling.memory_roles(args.quick):,} roles, {label} (`build --only cards`)", [sample])
    row("no-change rebuild (`cardgen build` again into the same folder)", rebuilds, wrote(rebuild_rewrites))
    row("one-role edit rebuild (then `cardgen build` into the same folder)", edits, wrote(edit_rewrites))

    def ratio(what: str, a, b, target: float | None = None, digits: int = 2, below: bool = False) -> tuple:
        """A ratio of paired samples, judged on CPU time alone (wall time is shown, and moves with the load)."""
        wall, cpu = paired(a, b, "seconds"), paired(a, b, "cpu")
        verdict = "" if target is None else load.verdict(cpu, target, below=below)
        limit = f"{'<' if below else '≤'} {target}× (CPU)" if target else ""
        return (what, f"{wall:.{digits}f}×", f"{cpu:.{digits}f}×", limit, verdict)

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
    if documents and documents_base:
        ratios.append(
            ratio(
                f"the bundled set's rulebooks, scripts{booklets}: this tree / baseline ({args.baseline.name})",
                documents,
                documents_base,
                0.5,
            )
        )
    elif args.baseline:
        ratios.append(
            (
                f"documents: this tree / baseline ({args.baseline.name})",
                "",
                "",
                "≤ 0.5× (CPU)",
                "not measured: the baseline has no `build --only`",
            )
        )
    else:
        ratios.append(("documents: this tree / baseline", "", "", "≤ 0.5× (CPU)", "not measured: no --baseline"))
    if baseline:
        wall, cpu = paired(baseline, build, "seconds"), paired(baseline, build, "cpu")
        ratios.append(
            (
                f"speed-up of the serial clean build: baseline ({args.baseline.name}) / this tree",
                f"{wall:.2f}×",
                f"{cpu:.2f}×",
                "≥ 1.5× (CPU)",
                load.verdict(cpu, 1.5, at_least=True),
            )
        )
    busy = load.busy(build)
    if parallel:
        wall, cpu = paired(parallel, build, "seconds"), paired(parallel, build, "cpu")
        ratios.append(
            (
                "default `--jobs` / `--jobs 1`, clean build",
                f"{wall:.2f}×",
                f"{cpu:.2f}×",
                "≤ 1.00× (wall, on a quiet machine)",
                f"not judged: machine busy ({busy})" if busy else "met" if wall <= 1.0 else "not met",
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
    missing, complete = samples["missing"], samples["complete"]
    if missing:
        ratios.append(
            ratio(
                f"`cardgen validate`, {scaling.validate_roles(args.quick):,} roles lacking "
                f"{len(scaling.MISSING)} languages / the same deck complete",
                missing,
                complete,
                2.0,
                below=True,
            )
        )
    ratios += scaling.memory_rows(memory, args.quick)
    kinds_table, kinds_verdicts = scaling.kinds_rows(scale, args.quick, load.verdict)
    ratios += kinds_verdicts
    for what, values, limit in (
        ("no-change rebuild", rebuilds, 0.2),
        ("`cardgen --help`", samples["help"], 0.15),
        ("`cardgen list`", samples["list"], 0.15),
        ("`cardgen list`, the first time", samples["list_cold"], 0.15),
    ):
        wall, cpu = median([v["seconds"] for v in values]), median([v["cpu"] for v in values])
        ratios.append(
            (what, f"{wall:.2f} s", f"{cpu:.2f} s", f"< {limit} s (CPU)", load.verdict(cpu, limit, below=True))
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
        ("documents alone", documents),
        ("documents alone, baseline", documents_base),
        ("validate, languages missing", missing),
        ("validate, complete", complete),
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

    command = (
        "--quick"
        if args.quick
        else f"--repeat {args.repeat}{'' if args.weasy == 'subset' else ' --weasy ' + args.weasy}"
    ) + (f" --baseline {args.baseline.name}" if args.baseline else "")
    lines = [
        "# cardgen benchmark results",
        "",
        f"Run on {dt.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')} with "
        f"`python benchmarks/run.py {command}`"
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
        "## CPU a card by output kind as decks grow",
        "",
        "Generated Werewolf-like games (benchmarks/generate.py) of distinct roles, one copy each, one role in"
        f" {NIGHT_EVERY} with a night call; each sample a fresh process running `cardgen build GAME --only KIND`"
        " (or `cardgen site GAME`) in process, after the same on a small game off the clock. ms of CPU a card,"
        " the median over the samples in brackets; a document past its stated page cap is shown as such.",
        "",
        *kinds_table,
        "",
        "## Load",
        "",
        "Before and after each round, one process a usable core runs the same loop at once and times itself"
        " (benchmarks/load.py); on a quiet machine its wall time is its CPU time. Steal is the time the"
        " hypervisor gave this machine's CPUs to others during the round. Wall time judges only the default"
        f" `--jobs` figure, and only when the machine was quiet: {('not quiet: ' + busy) if busy else 'it was'}."
        f" CPU time moves too when the host is loaded: the calibration loop's CPU seconds varied {load.spread():.2f}×"
        " over the run, and a CPU verdict within that factor of its target says it is uncertain.",
        "",
        *load.rows(),
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
        "- The floor draws the lines cardgen broke, so its pages match cardgen's; WeasyPrint breaks Chinese lines by"
        " Pango's rules instead of cardgen's kinsoku, so a few of its lines start with \uff0c or \u3002, and its back"
        " pattern is a repeating background tile (see README).",
        "- Peak RSS is `ru_maxrss` from `os.wait4` of each sample's process (for the build, of cardgen and any"
        " worker processes it reaped), the largest over the samples.",
        "",
        "## Run it again",
        "",
        "    . .venv/bin/activate",
        "    pip install weasyprint        # optional; needs the system's Pango (libpango-1.0-0, libpangoft2-1.0-0)",
        "    python benchmarks/run.py --quick           # a smoke test, a few minutes; prints, writes nothing",
        "    python benchmarks/run.py                   # about half an hour on 2 cores",
        "    git worktree add ../cardgen-main main && python benchmarks/run.py --baseline ../cardgen-main   # and the speed-ups",
        "    python benchmarks/run.py --repeat 5 --weasy all --keep   # longer; keeps every PDF made",
        "",
    ]
    return "\n".join(lines)
