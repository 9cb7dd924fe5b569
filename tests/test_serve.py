"""`cardgen serve` as a user runs it: a process on a copy of the mini game, on a free port of
127.0.0.1, looked at in Debian's chromium (a saved name shows on the open page by itself; a broken
file's problem shows on it with file:line, and mending the file brings the page back), asked for files
outside its folder with urllib (404), and ended with Ctrl-C (SIGINT: exit 130 and a line saying so).
Every wait is bounded; nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import FIXTURES, run
from narrator_browser import browser, needs_browser

WAIT = 20.0  # seconds, at most, for a start, a rebuild or an end


class Serving:
    """`cardgen serve` running in `project`; its output lines gathered as they come."""

    def __init__(self, project: Path, *args: str):
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardgen", "serve", "--port", "0", *args],
            cwd=project,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.url = self.wait_for(r"http://127\.0\.0\.1:\d+/").group(0)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._queue.put(line.rstrip("\n"))

    def wait_for(self, pattern: str) -> re.Match:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                line = self._queue.get(timeout=0.2)
            except queue.Empty:
                assert self.process.poll() is None or not self._queue.empty(), "\n".join(self.lines)
                continue
            self.lines.append(line)
            found = re.search(pattern, line)
            if found:
                return found
        raise AssertionError(f"no line matching {pattern!r} in {WAIT} s:\n" + "\n".join(self.lines))

    def interrupt(self) -> int:
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout=WAIT)
        time.sleep(0.2)  # the reader's last lines
        while not self._queue.empty():
            self.lines.append(self._queue.get())
        return code

    def end(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=WAIT)


@pytest.fixture
def serving(tmp_path):
    import shutil

    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "mini", project)
    server = Serving(project, "mini", "--lang", "en")
    yield project, server
    server.end()


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def _raw_status(url: str, path: str) -> int:
    """The status of a request for `path` exactly as written (urllib would not send a path with ..)."""
    import http.client

    host, port = url.split("//")[1].rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    finally:
        connection.close()


def test_it_serves_the_folder_and_nothing_outside_it(serving):
    project, server = serving
    assert _status(server.url + "mini/en.html") == 200
    for path in (
        "/../../etc/passwd",
        "/..%2f..%2fetc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/mini/../../../etc/passwd",
        "/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/mini/%252e%252e/etc/passwd",
        "//etc/passwd",
    ):
        assert _raw_status(server.url, path) == 404, path
    assert _raw_status(server.url, "/../cardgen-site.json") == 404  # beside the site, not in it
    # Listed folders are not shown either.
    assert _status(server.url + "mini/en/") == 404
    # The file on disk has no live-reload script; the page served has.
    page = project / "output" / "site" / "mini" / "en.html"
    assert "__cardgen/events" not in page.read_text(encoding="utf-8")
    with urllib.request.urlopen(server.url + "mini/en.html", timeout=5) as response:
        assert "__cardgen/events" in response.read().decode("utf-8")


def test_the_port_must_be_free(serving, tmp_path):
    project, server = serving
    port = server.url.rstrip("/").rsplit(":", 1)[1]
    result = subprocess.run(
        [sys.executable, "-m", "cardgen", "serve", "--port", port],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert result.returncode == 1
    assert f"port {port} on 127.0.0.1 is in use" in result.stderr
    assert "Traceback" not in result.stderr


@needs_browser
def test_a_save_shows_on_the_open_page_and_a_problem_until_it_is_mended(serving, tmp_path):
    project, server = serving
    seer = project / "decks" / "mini" / "roles" / "seer.yaml"
    text = seer.read_text(encoding="utf-8")

    with browser(tmp_path / "profile") as session:
        # The session lets nothing leave the page; this server, on 127.0.0.1, it lets through (the last route runs first).
        session.context.route(re.compile("^" + re.escape(server.url)), lambda route: route.continue_())
        page = session.context.new_page()
        page.goto(server.url + "mini/en.html")
        assert "Seer" in page.inner_text("body")
        page.evaluate("window.__same = true")  # gone if the page is loaded again

        seer.write_text(text.replace("en: Seer", "en: Oracle"), encoding="utf-8")
        page.wait_for_function("document.body && document.body.innerText.includes('Oracle')", timeout=WAIT * 1000)
        assert page.evaluate("window.__same") is None  # reloaded by itself

        seer.write_text("name: {en: Seer\n", encoding="utf-8")
        page.wait_for_selector("#cardgen-problems", timeout=WAIT * 1000)
        shown = page.inner_text("#cardgen-problems")
        printed = run("validate", "--decks", str(project / "decks"), "mini")
        assert printed.exit_code == 1
        assert re.search(r"decks/mini/roles/seer\.yaml:\d+: ", shown)
        problem = printed.stderr.splitlines()[0].replace(str(project) + os.sep, "")
        assert problem in shown, (problem, shown)
        assert "1 error" in shown
        page.reload()  # a page opened while the build fails shows the problem too
        page.wait_for_selector("#cardgen-problems", timeout=WAIT * 1000)

        seer.write_text(text, encoding="utf-8")
        page.wait_for_function(
            "document.body && document.body.innerText.includes('Seer') && !document.getElementById('cardgen-problems')",
            timeout=WAIT * 1000,
        )

    code = server.interrupt()
    assert code == 130, "\n".join(server.lines)
    assert any(line.startswith("stopped (Ctrl-C)") for line in server.lines), server.lines
    assert not any("Traceback" in line for line in server.lines), server.lines
    # The port is free again.
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(server.url, timeout=2)


def test_it_says_what_it_watches_and_where_to_open(serving):
    _, server = serving
    shown = "\n".join(server.lines)
    assert "watching, to rebuild on a save:" in shown
    assert "  decks/mini/" in shown
    assert re.search(r"serving output/site/ at http://127\.0\.0\.1:\d+/ ", shown)
    assert server.url != "http://127.0.0.1:0/"
