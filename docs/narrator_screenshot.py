"""The README's picture of the narrator page: the real page, built now, on a phone-sized screen.

    python docs/narrator_screenshot.py        # writes docs/narrator-werewords-vi.png

Builds the Vietnamese Werewords page, opens it in Debian's chromium (Playwright, as the tests do) at
390 x 844 CSS pixels, starts a game for six players and stops at the Mayor's step, where the page
deals the candidates for the magic word. The device is given a Vietnamese voice, as a phone has.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
VOICE = """Object.defineProperty(window, "speechSynthesis", {value: {getVoices: () => [{name: "Tiếng Việt",
  lang: "vi-VN", localService: true}], speak(u) { setTimeout(() => u.onend && u.onend(), 50); }, cancel() {},
  addEventListener() {}}}); window.SpeechSynthesisUtterance = function (text) { this.text = text; };"""


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "out"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "cardgen",
                "narrator",
                "werewords",
                "--lang",
                "vi",
                "--players",
                "6",
                "--out",
                str(out),
                "--no-open",
            ],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                str(Path(work) / "profile"),
                executable_path=shutil.which("chromium"),
                headless=True,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
            )
            page = context.new_page()
            page.add_init_script(VOICE)
            page.goto((out / "werewords" / "werewords-narrator-vi.html").as_uri())
            page.click("#start")
            while not page.query_selector(".candidate"):
                page.click("nav .next")
            page.wait_for_timeout(300)
            target = ROOT / "docs" / "narrator-werewords-vi.png"
            page.screenshot(path=str(target))
            context.close()
    print(target.relative_to(ROOT))


if __name__ == "__main__":
    main()
