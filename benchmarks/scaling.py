"""Measurements that grow decks: generated decks in, samples (CPU, wall, peak RSS) out.

- Cost a card by output kind: CPU per card of card sheets, bilingual card sheets, the rulebook, the
  moderator script, the narrator page and the site's card pictures at three sizes of a generated game
  (benchmarks/generate.py); each sample a fresh process that runs cardgen's own command line in
  process (`cardgen build GAME --only KIND`, `cardgen site GAME`), first on a small game of other
  texts off the clock (fonts, symbols and imports loaded), then on the measured game on the clock.
  A document past its stated page cap is a cell of its own, "over the stated cap", not a failure.
- Peak memory: `ru_maxrss` of a whole `cardgen build --only cards` of 10,000 distinct roles, one copy
  each, and of the same roles ten copies each (100,000 cards).
- Validation with missing translations: `cardgen validate` of a generated game declaring three more
  languages than its roles have texts in, against the same game with every text.
- Documents: the bundled set's rulebooks and scripts, and its rulebooks as booklets, built alone
  (`--only`), by this tree and by the baseline.

    python benchmarks/scaling.py --decks DIR --game GAME --kind KIND --warm GAME --cards N --out DIR

is the worker of the first: it prints one JSON line (seconds, cpu, rc, message).
"""

from __future__ import annotations

import contextlib
import io
import json
import resource
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# kind: (what the report calls it, the command after `cardgen`, without game and folders)
KINDS = {
    "cards": ("card sheets", ["build", "--only", "cards", "--lang", "en"]),
    "bilingual": ("bilingual card sheets (en+zh)", ["build", "--only", "cards", "--lang", "en+zh"]),
    "rulebook": ("rulebook", ["build", "--only", "rulebook", "--lang", "en"]),
    "script": ("moderator script", ["build", "--only", "script", "--lang", "en"]),
    "narrator": ("narrator page", ["build", "--only", "narrator", "--lang", "en"]),
    "site": ("site's card pictures", ["site", "--lang", "en"]),
}
SIZES = (1000, 5000, 20000)
# A card picture takes about 40 ms (a page drawn, rasterised and encoded as WebP): 20,000 of them would
# take a quarter of an hour, so the site is measured at a quarter of the sizes, the same steps of 5 and 20.
SITE_SIZES = (250, 1250, 5000)
QUICK_SIZES, QUICK_SITE_SIZES = (100, 500), (25, 125)
# In how many rounds each size is drawn: a 20,000-role deck takes a minute or more a kind.
ROUNDS = (sys.maxsize, 2, 1)
MISSING = ("vi", "es", "fr")  # the languages a validated game lacks
FLAT = 0.15  # the largest deck's CPU a card within this of the smallest's
MEMORY_LIMIT_MB, GROWTH_LIMIT_KB = 400, 2.0


def sizes(kind: str, quick: bool) -> tuple[int, ...]:
    if kind == "site":
        return QUICK_SITE_SIZES if quick else SITE_SIZES
    return QUICK_SIZES if quick else SIZES


def memory_roles(quick: bool) -> int:
    return 500 if quick else 10000


def validate_roles(quick: bool) -> int:
    return 200 if quick else 1000


def write_decks(decks: Path, quick: bool) -> None:
    """Every generated game these measurements use, into one decks folder."""
    from generate import write_game

    write_game(decks / "warm", 20, 1, "warm", title="Warden", documents=True)
    for n in sizes("cards", quick):
        write_game(decks / f"kinds-{n}", n, 1, str(n), documents=True)
    for n in sizes("site", quick):
        write_game(decks / f"site-{n}", n, 1, f"site {n}")
    n = memory_roles(quick)
    write_game(decks / "memory-1", n, 1, f"{n} × 1")
    write_game(decks / "memory-10", n, 10, f"{n} × 10")
    n = validate_roles(quick)
    write_game(decks / "missing", n, 1, "missing", missing=MISSING)
    write_game(decks / "complete", n, 1, "complete", missing=MISSING, complete=True)


# --- the worker: one kind of one game, in this process ------------------------------------------------


def _command(kind: str, decks: Path, game: str, out: Path) -> list[str]:
    return [*KINDS[kind][1], game, "--decks", str(decks), "--out", str(out), "--jobs", "1"] + (
        ["--force"] if kind != "site" else []
    )


def _invoke(argv: list[str]) -> tuple[int, str]:
    """cardgen's command line in this process: its exit code and what it printed."""
    from cardgen.cli.main import main

    text = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
        try:
            main.main(args=argv, prog_name="cardgen")
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    return code, text.getvalue()


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def worker(decks: Path, game: str, kind: str, warm: str, cards: int, out: Path) -> None:
    sys.path.insert(0, str(ROOT))
    for name in (warm, game):
        if kind == "site":  # the site copies the card sheets a build made; the pictures are what is timed
            _invoke(_command("cards", decks, name, out / name))
        if name == warm:
            _invoke(_command(kind, decks, name, out / name))
    start, cpu_start = time.perf_counter(), _cpu()
    code, said = _invoke(_command(kind, decks, game, out / game))
    seconds, cpu = time.perf_counter() - start, _cpu() - cpu_start
    lines = [line for line in said.splitlines() if line.strip()] or [""]
    # A failure's reason is on the line naming pages (a page cap) if there is one, not on the count of errors.
    message = next((line for line in lines if "page" in line.lower()), lines[-1]) if code else lines[-1]
    print(json.dumps({"seconds": seconds, "cpu": cpu, "rc": code, "cards": cards, "message": message[:300]}))


# --- the measurements, from run.py ------------------------------------------------------------------------


def kinds_round(sample, decks: Path, tmp: Path, round_: int, quick: bool, log) -> dict[str, list]:
    """One round of every kind: the smallest size every round, the middle one in the first two rounds,
    the largest in the first only (the 20,000-role decks take minutes a kind)."""
    found: dict[str, list] = {}
    for kind in KINDS:
        for n, rounds in zip(sizes(kind, quick), ROUNDS):
            if round_ > rounds:
                continue
            game = f"{'site' if kind == 'site' else 'kinds'}-{n}"
            log(f"round {round_}: {KINDS[kind][0]}, {n:,} roles")
            out = tmp / "kinds-out"
            shutil.rmtree(out, ignore_errors=True)
            cmd = [sys.executable, str(HERE / "scaling.py"), "--decks", str(decks), "--game", game, "--kind", kind]
            found[f"{kind}-{n}"] = [sample(cmd + ["--warm", "warm", "--cards", str(n), "--out", str(out)])]
    return found


def over_cap(s: dict) -> bool:
    """Whether a failed document build said it runs past its page cap (rather than failing otherwise)."""
    message = s["message"].lower()
    return s["rc"] != 0 and "page" in message and any(w in message for w in ("past", "cap", "limit", "more than"))


def kinds_rows(scale: dict[str, list], quick: bool, verdict) -> tuple[list[str], list[tuple]]:
    """The table of CPU per card by kind and size, and each kind's verdict row for the targets."""
    steps = ("the smallest deck", "5× the cards", "20× the cards")[: len(sizes("cards", quick))]
    lines = ["| output | " + " | ".join(steps) + " |", "|---|" + "---:|" * len(steps)]
    verdicts = []
    for kind, (label, _) in KINDS.items():
        cells, figures = [], []
        for n in sizes(kind, quick):
            runs = scale.get(f"{kind}-{n}", [])
            ok = [r for r in runs if r["rc"] == 0]
            if ok:
                ms = sorted(1000 * r["cpu"] / r["cards"] for r in ok)[len(ok) // 2]
                figures.append((n, ms))
                cells.append(f"{n:,}: {ms:.2f} ms ({len(ok)})")
            elif runs and over_cap(runs[0]):
                cells.append(f"{n:,}: over the stated cap")
            elif runs:
                cells.append(f"{n:,}: failed ({runs[0]['message'][:80]})")
            else:
                cells.append(f"{n:,}: not measured")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
        smallest = figures[0] if figures and figures[0][0] == sizes(kind, quick)[0] else None
        if smallest and len(figures) > 1:
            worst = max(ms for _, ms in figures[1:])
            growth = worst / smallest[1]
            said = verdict(growth, 1 + FLAT)
            if len(figures) < len(sizes(kind, quick)):
                said += " (the larger decks: see the table)"
            verdicts.append(
                (
                    f"CPU a card, {label}: the worst of {', '.join(f'{n:,}' for n, _ in figures[1:])} roles"
                    f" / {smallest[0]:,}",
                    "",
                    f"{growth:.2f}×",
                    f"≤ {1 + FLAT:.2f}×",
                    said,
                )
            )
        else:
            why = "over the stated cap from the second size" if smallest else "smallest size not measured"
            verdicts.append((f"CPU a card, {label}", "", "", f"≤ {1 + FLAT:.2f}×", f"not judged: {why}"))
    return lines, verdicts


def memory(sample, cardgen: list[str], decks: Path, tmp: Path, log) -> list:
    """Peak RSS of a card build of the two memory games, whole processes."""
    found = []
    for game in ("memory-1", "memory-10"):
        log(f"peak memory: card build of {game}")
        out = tmp / "memory-out"
        shutil.rmtree(out, ignore_errors=True)
        found.append(
            sample(
                cardgen
                + ["build", game, "--only", "cards", "--lang", "en", "--jobs", "1", "--force"]
                + ["--decks", str(decks), "--out", str(out)]
            )
        )
    return found


def memory_rows(found: list, quick: bool) -> list[tuple]:
    if len(found) < 2:
        return []
    n = memory_roles(quick)
    small, large = found[0]["maxrss_kb"] / 1024, found[1]["maxrss_kb"] / 1024
    growth = (found[1]["maxrss_kb"] - found[0]["maxrss_kb"]) / (9 * n)
    return [
        (
            f"peak RSS of a card build of {n * 10:,} cards ({n:,} roles × 10): {large:.0f} MB ({small:.0f} MB at {n:,})",
            "",
            "",
            f"< {MEMORY_LIMIT_MB} MB",
            "met" if large < MEMORY_LIMIT_MB else "not met",
        ),
        (
            f"peak RSS growth from {n:,} to {n * 10:,} cards: {growth:.2f} KB a card",
            "",
            "",
            f"< {GROWTH_LIMIT_KB:.0f} KB a card",
            "met" if growth < GROWTH_LIMIT_KB else "not met",
        ),
    ]


def validation(sample, cardgen: list[str], decks: Path) -> tuple:
    """`cardgen validate` of the game lacking three languages, then of the complete one."""
    return tuple(sample(cardgen + ["validate", game, "--decks", str(decks)]) for game in ("missing", "complete"))


def documents(sample, cmd: list[str], decks: Path, out: Path, help_text: str, cwd: Path, env=None):
    """The bundled set's rulebooks and scripts, then its rulebooks as booklets, built alone; one sample with
    the two builds' seconds and CPU added, or None where this cardgen has no --only."""
    if "--only" not in help_text:
        return None
    base = ["build", "--force", "--jobs", "1", "--decks", str(decks)]
    parts = [["--only", "rulebook", "--only", "script"]]
    if "--booklet" in help_text:
        parts.append(["--only", "rulebook", "--booklet"])
    samples = []
    for i, part in enumerate(parts):
        shutil.rmtree(out / str(i), ignore_errors=True)
        samples.append(sample(cmd + base + part + ["--out", str(out / str(i))], cwd=cwd, env=env))
    total = dict(samples[0])
    for key in ("seconds", "wall", "cpu"):
        total[key] = sum(s[key] for s in samples)
    total["maxrss_kb"] = max(s["maxrss_kb"] for s in samples)
    total["booklets"] = len(parts) > 1
    return total


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=Path, required=True)
    parser.add_argument("--game", required=True)
    parser.add_argument("--kind", choices=list(KINDS), required=True)
    parser.add_argument("--warm", required=True)
    parser.add_argument("--cards", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    worker(args.decks, args.game, args.kind, args.warm, args.cards, args.out)


if __name__ == "__main__":
    main()
