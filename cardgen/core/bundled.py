"""cardgen's own decks, templates and fonts: a folder name in, the folder that holds them out.

The repository keeps ``decks/``, ``templates/`` and ``fonts/`` at its top; the
wheel carries the same folders inside the package, as ``cardgen/_data/<name>``
(pyproject.toml maps them). An installed cardgen finds them there, beside
its modules (pip and pipx unpack a wheel on disk, never run it zipped); an
editable install or a clone, where the package is the source tree's
``cardgen/``, finds them beside it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

FOLDERS = ("decks", "templates", "fonts")


def _root() -> Path:
    # A real folder that ReportLab, Jinja2 and the manifest can open by path; importlib.resources would
    # say the same of an unpacked package and costs a tenth of `cardgen --help` to import.
    package = Path(__file__).resolve().parents[1]
    packaged = package / "_data"
    if packaged.is_dir():
        return packaged
    return package.parent


ROOT = _root()  # the folder holding decks/, templates/ and fonts/
# Whether these are an installed cardgen's (inside the package, replaced by the next upgrade) rather than
# a clone's, whose files are the project's own to change.
INSTALLED = ROOT.name == "_data"


def folder(name: str) -> Path:
    """One of FOLDERS, as shipped with this cardgen."""
    return ROOT / name


def world_fonts() -> Path | None:
    """The fonts folder of cardgen-world, which the `world` extra installs, or None without it."""
    # Found, not imported: the package holds no code, and a listing needs none of its fonts.
    spec = importlib.util.find_spec("cardgen_world")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "fonts"
