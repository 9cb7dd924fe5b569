"""A real browser for the narrator page tests: Debian's chromium driven by Playwright for Python.

Playwright, not Selenium: it watches and blocks every request the page makes (route), runs a stub
before the page's own script (add_init_script, for speech synthesis and WebAudio), and fakes the
page's clock so that a four-minute timer runs out at once (clock.run_for). It drives the system
chromium (executable_path): no browser is downloaded.
"""

from __future__ import annotations

import json
import re
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # the test extra is not installed
    sync_playwright = None

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

needs_browser = pytest.mark.skipif(
    CHROMIUM is None or sync_playwright is None,
    reason="needs Debian's chromium (apt-get install chromium; .ci/run installs it) and Playwright for Python "
    "(pip install -e '.[test]')"
    if CHROMIUM is None
    else "needs Playwright for Python (pip install -e '.[test]')",
)

# Records what the page asks the speech synthesiser and the sound card to do; `voices` are the
# voices this device pretends to have.
STUB = """
(() => {
  const voices = %s;
  window.__spoken = [];
  window.__tones = 0;
  const synth = {
    getVoices: () => voices, cancel() {}, addEventListener() {},
    speak(utterance) {
      window.__spoken.push({text: utterance.text, lang: utterance.lang, voice: utterance.voice && utterance.voice.name});
      setTimeout(() => utterance.onend && utterance.onend(), 100);
    },
  };
  Object.defineProperty(window, "speechSynthesis", {value: synth, configurable: true});
  window.SpeechSynthesisUtterance = function (text) { this.text = text; };
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) { window.__tones++; return start.apply(this, args); };
})();
"""


class Session:
    """One fresh browser profile; `requests` lists every URL any page asked for."""

    def __init__(self, context):
        self.context = context
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        context.on("request", lambda request: self.requests.append(request.url))
        # Anything but the page's own file would be a request leaving the page: it never gets out.
        context.route(re.compile(r"^(?!file:)"), lambda route: route.abort())

    def open(self, path: Path, voices: list[dict] | None = None, clock: bool = False):
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
        if voices is not None:
            page.add_init_script(STUB % json.dumps(voices))
        if clock:
            page.clock.install()
        page.goto(path.as_uri())
        page.wait_for_selector("html[data-ready]")
        if clock:
            # Stopped where it is: only run_for moves the page's time, so the time a slow machine
            # takes to reload or click never shows on a timer.
            page.clock.pause_at(page.evaluate("Date.now()"))
        return page


@contextmanager
def browser(profile: Path, **context_options):
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=ARGS, headless=True, **context_options
        )
        try:
            yield Session(context)
        finally:
            context.close()


def script_view(page) -> list[tuple[str, list[tuple[str, bool, int | None, str]]]]:
    """The page's whole script for the table on its setup screen: phases and their steps."""
    return [
        (title, [(kind, house == "1", int(timer) if timer else None, text) for kind, house, timer, text in steps])
        for title, steps in page.evaluate("""() => [...document.querySelectorAll('#script section')].map(s =>
                [s.querySelector('h3').textContent, [...s.querySelectorAll('li')].map(li =>
                    [li.dataset.kind, li.dataset.house, li.dataset.timer, li.textContent])])""")
    ]


def as_built(page, version: int | None = None) -> None:
    """The setup screen as the page opens, at the table it was built for."""
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("html[data-ready]")
    if version is not None and page.query_selector("#version"):
        page.select_option("#version", str(version))


def choose_table(
    page, players: int | None = None, setup: int | None = None, extra: tuple[str, ...] = (), version: int | None = None
) -> None:
    """Sets the setup screen, from the start, as `cardgen build --players --setup --with` would."""
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("html[data-ready]")
    if version is not None and page.query_selector("#version"):
        page.select_option("#version", str(version))
    if setup is not None and page.query_selector("#setup"):
        page.select_option("#setup", str(setup))
    page.select_option("#players", "" if players is None else str(players))
    for card in extra:
        page.click(f'input[data-card="{card}"]')


def fonts_drawing(page, selector: str) -> list[tuple[str, bool]]:
    """The fonts the browser drew the text of each node matching `selector` with (DevTools' own
    account), as (PostScript name, whether a web font of the page)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    used = []
    for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]:
        used += [
            (font["postScriptName"], font["isCustomFont"])
            for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        ]
    return used
