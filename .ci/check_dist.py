"""Checks a built sdist and wheel against the working tree they were built from.

    python .ci/check_dist.py DIST_FOLDER

The wheel must carry every file of decks/, templates/ and fonts/ (as cardgen/_data/<folder>/...),
every module of cardgen/, and the licences (cardgen's and the fonts') in its dist-info; the sdist
must carry those folders too, and tests/ with its fixtures, so that the suite runs from it. Prints
each missing file and exits 1 if there is one.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ("decks", "templates", "fonts")


def tracked(*folders: str) -> list[str]:
    """The files git tracks under those folders, or every file there outside a checkout."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--", *folders], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        listed = []
    return listed or sorted(
        p.relative_to(ROOT).as_posix()
        for folder in folders
        for p in (ROOT / folder).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )


def missing(dist: Path) -> list[str]:
    (wheel,), (sdist,) = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    info = next(name.split("/")[0] for name in in_wheel if name.endswith(".dist-info/METADATA"))
    wanted = [f"cardgen/_data/{name}" for name in tracked(*DATA)]
    wanted += [name for name in tracked("cardgen") if name.endswith(".py")]
    wanted += [f"{info}/licenses/{name}" for name in ("LICENSE", "fonts/OFL-NotoSans.txt", "fonts/OFL-NotoSansSC.txt")]
    lost = [f"{wheel.name}: {name}" for name in wanted if name not in in_wheel]
    with tarfile.open(sdist) as archive:
        top = archive.getnames()[0].split("/")[0]
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    wanted = tracked(*DATA, "cardgen", "tests") + ["LICENSE", "README.md", "pyproject.toml"]
    lost += [f"{sdist.name}: {top}/{name}" for name in wanted if name not in in_sdist]
    return lost


if __name__ == "__main__":
    lost = missing(Path(sys.argv[1]))
    for line in lost:
        print(f"missing: {line}")
    sys.exit(1 if lost else 0)
