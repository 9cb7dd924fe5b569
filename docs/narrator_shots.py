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
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1}
VOICE = {"en": [{"name": "English", "lang": "en-US"}], "vi": [{"name": "Tiếng Việt", "lang": "vi-VN"}]}
# Per game played: (build command's arguments, page language, the table of narrator_play.TABLES, pictures: the
# name of each and what must be on screen for it).
PLAYS = [
    (
        ("werewolf", "--lang", "en", "--players", "8", "--with", "witch", "--with", "hunter"),
        "en",
        ("werewolf", "village"),
        {
            "setup": "#start",
            "circle": "#step-text",
            "night-choice": '#circle[data-choosing="target"]',
            "dawn": "button.announce",
            "vote": '#circle[data-choosing="vote"]',
            "win-check": "#win-check",
            "end": "#game-end",
        },
    ),
    (
        ("werewords", "--lang", "en", "--players", "5"),
        "en",
        ("werewords", "guessed"),
        {
            "private": "#private-show",
            "werewords-role": "#private button[data-card]",
            "werewords-word": "#private .secret",
            "werewords-end": "#game-end",
        },
    ),
    (
        ("werewords", "--lang", "vi", "--players", "5"),
        "vi",
        ("werewords", "guessed"),
        {"werewords-vi": "#private button.candidate"},
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
        for arguments, lang, (game, name), pictures in PLAYS:
            page_file = build(arguments, Path(work) / "out")
            left = dict(pictures)

            def shoot(page, played, left=left):
                for picture, selector in list(left.items()):
                    if visible(page, selector):
                        target = OUT / f"{picture}.png"
                        page.screenshot(path=str(target))
                        small(target)
                        written.append(target)
                        del left[picture]

            with browser(Path(work) / f"profile-{game}-{lang}", **PHONE) as session:
                page = session.open(page_file, voices=VOICE[lang], clock=True)
                play(page, TABLES[game, name](), watch=shoot)
            if left:
                raise SystemExit(f"{page_file.name}: no screen showed {', '.join(left)}")
    for target in written:
        print(target.relative_to(ROOT), f"{target.stat().st_size // 1024} kB")


if __name__ == "__main__":
    main()
