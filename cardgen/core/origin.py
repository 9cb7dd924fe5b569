"""Where the running cardgen came from: its installed distribution's metadata in; the requirement a
project's workflow installs (and, when no index or git address can give it, a wheel to commit) out.

pip records how it installed a distribution in ``direct_url.json`` (PEP 610): none for a version
from the package index, ``vcs_info`` for a git URL, ``archive_info`` for a wheel or sdist file and
``dir_info`` for a folder (a clone, installed in place or not). The project URLs (documentation,
source) are read from the same metadata, so pyproject.toml is the one place they are written.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from cardgen import __version__

# Where a project made by init keeps the wheel of the cardgen that made it (and of cardgen-world).
WHEEL_FOLDER = ".cardgen"
# The distribution of the fonts for more writing systems (cardgen's `world` extra), released with cardgen
# at its version.
WORLD = "cardgen-world"


def wheel_name(name: str) -> str:
    """The file name of a distribution's wheel at cardgen's version (a dash in its name is an underscore)."""
    return f"{name.replace('-', '_')}-{__version__}-py3-none-any.whl"


@dataclass(frozen=True)
class Origin:
    """A pip requirement for this cardgen, and the wheel it names when it names a committed one."""

    requirement: str
    wheel: bytes | None = None
    note: str = ""


def _distribution(name: str = "cardgen") -> importlib.metadata.Distribution | None:
    """The installed distribution: one an installer wrote (a clone's own cardgen.egg-info, found first
    when the clone is the current folder, is only a build's by-product)."""
    found = list(importlib.metadata.distributions(name=name))
    return next((d for d in found if d.read_text("INSTALLER") is not None), found[0] if found else None)


def _direct_url(name: str = "cardgen") -> dict | None:
    """How pip installed the distribution (direct_url.json): None from the package index, {} when it
    is not installed or its record cannot be read."""
    distribution = _distribution(name)
    if distribution is None:
        return {}
    text = distribution.read_text("direct_url.json")
    if text is None:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _local(url: str) -> Path | None:
    parsed = urlparse(url)
    return Path(unquote(parsed.path)) if parsed.scheme == "file" else None


def _skip(source: Path, folder: str, names: list[str]) -> set[str]:
    """What a copy of a clone leaves out: caches anywhere, and at its top the folders that are not
    sources (cardgen/build/ is a package, not a build folder)."""
    top = {".git", ".venv", "output", "build", "dist"} if Path(folder) == source else set()
    return {name for name in names if name in top or name == "__pycache__" or name.endswith(".egg-info")}


def _build_wheel(source: Path, name: str = "cardgen") -> bytes | None:
    """A wheel built from a source folder with pip (which every venv and pipx has; `build` may be
    missing), without build isolation when setuptools is here, so that it needs no network."""
    import importlib.util

    with tempfile.TemporaryDirectory() as out:
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "--wheel-dir", out, str(source)]
        if importlib.util.find_spec("setuptools"):
            command[4:4] = ["--no-build-isolation"]
        with tempfile.TemporaryDirectory() as copy:
            # pip builds in place: a copy keeps the clone free of build/ and egg-info.
            tree = Path(copy) / "tree"
            shutil.copytree(source, tree, ignore=functools.partial(_skip, source))
            command[-1] = str(tree)
            try:
                done = subprocess.run(command, capture_output=True, timeout=600)
            except (OSError, subprocess.TimeoutExpired):
                return None
        wheel = Path(out) / wheel_name(name)
        return wheel.read_bytes() if done.returncode == 0 and wheel.is_file() else None


def clone(name: str = "cardgen") -> Path | None:
    """The source folder the running cardgen (or cardgen-world, `name`) was installed from (a clone, its
    world/), of which origin() makes a wheel."""
    url = _direct_url(name)
    where = _local(str(url.get("url", ""))) if url else None
    return where if where is not None and where.is_dir() and (where / "pyproject.toml").is_file() else None


@functools.cache
def origin(name: str = "cardgen") -> Origin:
    """The requirement that installs the running cardgen (or the installed cardgen-world, `name`) again,
    on another machine (worked out once a process: from a clone, it builds a wheel)."""
    key = "requirement" if name == "cardgen" else "world"
    if name != "cardgen" and _distribution(name) is None:
        return Origin(
            f"{name}=={__version__}",
            note=f'{name} is not installed here (pip install "cardgen[world]"): check [cardgen] {key} in '
            "cardgen.toml names where the workflow finds it before pushing",
        )
    url = _direct_url(name)
    if url is None:  # from the package index
        return Origin(f"{name}=={__version__}")
    vcs = url.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and str(url.get("url", "")).startswith("https://"):
        revision = vcs.get("requested_revision") or vcs.get("commit_id")
        inside = url.get("subdirectory")
        return Origin(f"{name} @ git+{url['url']}@{revision}" + (f"#subdirectory={inside}" if inside else ""))
    where = _local(str(url.get("url", "")))
    if where is not None and where.is_file() and where.name == wheel_name(name):
        return Origin(f"./{WHEEL_FOLDER}/{where.name}", where.read_bytes())
    if where is not None and where.is_dir() and (where / "pyproject.toml").is_file():
        wheel = _build_wheel(where, name)
        if wheel is not None:
            return Origin(f"./{WHEEL_FOLDER}/{wheel_name(name)}", wheel)
    return Origin(
        f"{name}=={__version__}",
        note=f"{name} {__version__} is not on the package index yet and no wheel of it could be made here: "
        f"set [cardgen] {key} in cardgen.toml to a wheel or git URL before pushing",
    )


def urls() -> dict[str, str]:
    """The project's URLs (Homepage, Documentation, Source, ...), as pyproject.toml names them."""
    distribution = _distribution()
    found = (distribution.metadata.get_all("Project-URL") or []) if distribution else []
    return dict(item.split(", ", 1) for item in found if ", " in item)


def docs_url() -> str:
    """Where the documentation is, or how to reach it when the metadata names no address."""
    return urls().get("Documentation", "`cardgen --help`")
