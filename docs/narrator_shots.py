"""The pictures of docs/narrator.md and the README's narrator picture: the real page, built now,
played on a phone-sized screen.

    python docs/narrator_shots.py        # writes docs/images/narrator/*.png

Builds the pages with `cardgen narrator` into a folder of its own (an English Werewolf table for
eight, English and Vietnamese Werewords for five), opens them in Debian's chromium at 390 x 844
CSS pixels (Playwright, as the tests do: speech stubbed, the clock faked, every request blocked)
and plays whole games with the tests' own driver (tests/narrator_play.py). Each picture is the
first screen that shows what its section of the guide is about. The PNGs are cut to a 64-colour
palette, which keeps text sharp at a tenth of the size.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from narrator_browser import browser  # noqa: E402
from narrator_play import TABLES, play, visible  # noqa: E402

OUT = ROOT / "docs" / "images" / "narrator"
# The page draws the candidate words at random: seeded here, the pictures come out the same each run.
SEEDED = """(() => {
  let seed = 27;
  crypto.getRandomValues = (array) => {
    for (let i = 0; i < array.length; i++) array[i] = seed = (seed * 1103515245 + 12345) % 2147483648;
    return array;
  };
})();"""
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1}
VOICE = {"en": [{"name": "English", "lang": "en-US"}], "vi": [{"name": "Tiếng Việt", "lang": "vi-VN"}]}
# Per game played: (build command's arguments, page language, the table of narrator_play.TABLES, pictures:
# the name of each, and the element on screen it shows the first time it is there (or the n-th time).
PLAYS = [
    (
        ("werewolf", "--lang", "en", "--players", "8", "--with", "witch", "--with", "hunter"),
        "en",
        ("werewolf", "village"),
        {
            "setup": "#start",
            "circle": 'body[data-phase="first-night"] #circle',
            "night-choice": '#circle[data-choosing="target"]',
            "dawn": "#announce",
            "vote": "#vote-out:enabled",
            "win-check": "#win-check",
            "end": "#game-end",
        },
    ),
    (
        ("werewords", "--lang", "en", "--players", "5"),
        "en",
        ("werewords", "found"),
        {
            "private": "#private-show",
            "werewords-role": "#private button.candidate.role",
            # The Mayor's look at the chosen word, the Seer's, then the werewolves'.
            "werewords-word": ("#private .secret", 3),
            "werewords-end": "#game-end",
        },
    ),
    (
        ("werewords", "--lang", "vi", "--players", "5"),
        "vi",
        ("werewords", "found"),
        {"werewords-vi": "#private .candidate"},
    ),
]


def build(arguments: tuple[str, ...], out: Path) -> Path:
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "narrator", *arguments, "--out", str(out), "--no-open"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return Path(done.stdout.strip().splitlines()[-1])


def small(path: Path) -> None:
    """The screenshot as a 64-colour palette PNG, compressed as hard as Pillow goes."""
    with Image.open(path) as shot:
        reduced = shot.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    reduced.save(path, optimize=True)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as work:
        for arguments, lang, table, pictures in PLAYS:
            page_file = build(arguments, Path(work) / "out")
            wanted = {name: want if isinstance(want, tuple) else (want, 1) for name, want in pictures.items()}
            seen = dict.fromkeys(wanted, 0)

            def shoot(page, played, wanted=wanted, seen=seen):
                for name, (selector, times) in list(wanted.items()):
                    if not visible(page, selector):
                        continue
                    seen[name] += 1
                    if seen[name] < times:
                        continue
                    page.locator(selector).first.scroll_into_view_if_needed()
                    target = OUT / f"{name}.png"
                    page.screenshot(path=str(target), animations="disabled")
                    small(target)
                    written.append(target)
                    del wanted[name]

            with browser(Path(work) / f"profile-{len(written)}", **PHONE) as session:
                session.context.add_init_script(SEEDED)
                page = session.open(page_file, voices=VOICE[lang], clock=True)
                play(page, TABLES[table](), watch=shoot)
            if wanted:
                raise SystemExit(f"{page_file.name}: no screen showed {', '.join(wanted)}")
    for target in written:
        print(target.relative_to(ROOT), f"{target.stat().st_size // 1024} kB")


if __name__ == "__main__":
    main()
