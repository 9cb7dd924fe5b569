"""The live preview behind `cardgen serve`: a folder, the folders to watch and a rebuild in; a web
server on 127.0.0.1 out that serves that folder's files only, and a page that reloads itself when a
rebuild finishes, or shows the rebuild's problems over itself until they are mended.

The standard library only (http.server's ThreadingHTTPServer): a preview on one's own machine needs
no more. Every HTML response gets a small script, added as it is sent (the files on disk stay as
they are, to share): it listens on ``/__cardgen/events`` (Server-Sent Events) for the build's number
and its problems, nothing else. The server answers only requests addressed to 127.0.0.1 or
localhost (a web page elsewhere cannot reach it through a name of its own), and only with files
under the folder: ``..`` and links out of it are a 404.
"""

from __future__ import annotations

import http.server
import json
import threading
from pathlib import Path

EVENTS = "/__cardgen/events"
KEEPALIVE = 15.0  # seconds between comments on a quiet event stream

# Added before </body> of every HTML page served: reload when a build finishes, show its problems while it fails.
SCRIPT = """<script>/* cardgen serve: live reload */(() => {
  const built = %s;
  const show = (text) => {
    let box = document.getElementById("cardgen-problems");
    if (!text) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("pre");
      box.id = "cardgen-problems";
      box.style.cssText = "position:fixed;inset:0;margin:0;padding:1.5em;overflow:auto;z-index:2147483647;" +
        "background:rgba(255,255,255,.97);color:#8c1c13;font:14px/1.5 monospace;white-space:pre-wrap";
      document.body.appendChild(box);
    }
    box.textContent = "cardgen serve: not built\\n\\n" + text;
  };
  show(built.problems);
  const events = new EventSource("%s");
  events.onmessage = (event) => {
    const now = JSON.parse(event.data);
    if (now.build === built.build) return;
    if (now.problems) { built.build = now.build; show(now.problems); }
    else location.reload();
  };
})();</script>
"""


class State:
    """The last build's number and problems (None when it worked), and a way to wait for the next."""

    def __init__(self) -> None:
        self.build = 0
        self.problems: str | None = None
        self.changed = threading.Condition()
        self.stopping = False

    def finished(self, problems: str | None) -> None:
        with self.changed:
            self.build += 1
            self.problems = problems
            self.changed.notify_all()

    def stop(self) -> None:
        with self.changed:
            self.stopping = True
            self.changed.notify_all()

    def message(self) -> str:
        return json.dumps({"build": self.build, "problems": self.problems})


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True  # an open event stream does not hold the process at its end

    def __init__(self, port: int, root: Path, state: State):
        self.root = root
        self.state = state
        super().__init__(("127.0.0.1", port), _Handler)

    @property
    def port(self) -> int:
        return self.server_address[1]


class _Handler(http.server.SimpleHTTPRequestHandler):
    server: Server

    def setup(self) -> None:
        self.directory = str(self.server.root)
        super().setup()

    def log_message(self, format, *args) -> None:  # noqa: A002 - http.server's name
        pass  # the terminal shows the builds, not every request

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        if not self._addressed_here():
            self.send_error(403, "only http://127.0.0.1 or http://localhost")
            return
        if self.path.split("?", 1)[0] == EVENTS:
            self._events()
            return
        super().do_GET()

    def do_HEAD(self) -> None:
        if not self._addressed_here():
            self.send_error(403)
            return
        super().do_HEAD()

    def _addressed_here(self) -> bool:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]").lower()
        return host in ("127.0.0.1", "localhost")

    def send_head(self):
        path = Path(self.translate_path(self.path))
        root = self.server.root.resolve()
        if path.is_dir():
            path = path / "index.html"
        try:
            inside = path.resolve().is_relative_to(root)
        except OSError:
            inside = False
        if not inside:
            self.send_error(404)
            return None
        if path.suffix == ".html" and (path.is_file() or self.server.state.problems):
            return self._page(path)
        if not path.is_file():
            self.send_error(404)
            return None
        return super().send_head()

    def _page(self, path: Path):
        """An HTML page with the live-reload script; while the build fails and there is no page yet,
        a page of the problems."""
        import io

        state = self.server.state
        try:
            text = path.read_text(encoding="utf-8")
            status = 200
        except OSError:
            text, status = "<!doctype html><title>cardgen serve</title><body></body>", 503
        script = SCRIPT % (
            json.dumps({"build": state.build, "problems": state.problems}).replace("<", "\\u003c"),
            EVENTS,
        )
        at = text.lower().rfind("</body>")
        text = text[:at] + script + text[at:] if at >= 0 else text + script
        data = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)

    def list_directory(self, path):
        self.send_error(404)
        return None

    def _events(self) -> None:
        """The build's number and problems now, then at each build's end, until the server stops."""
        state = self.server.state
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        seen = -1
        try:
            while True:
                with state.changed:
                    if state.build == seen and not state.stopping:
                        state.changed.wait(KEEPALIVE)
                    if state.stopping:
                        return
                    now, message = state.build, state.message()
                self.wfile.write(b"retry: 1000\n\n: waiting\n\n" if now == seen else f"data: {message}\n\n".encode())
                self.wfile.flush()
                seen = now
        except OSError:
            return  # the page went away
