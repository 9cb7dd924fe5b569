"""What the quick commands load: `--help`, a listing answered from the cache and a build with nothing to do
import none of the pipeline's stages, nor PyYAML, Jinja2 or ReportLab (their seconds are benchmarks/'s)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import FIXTURES

HEAVY = (
    "yaml",
    "jinja2",
    "reportlab",
    "svglib",
    "PIL",
    "cardgen.deck.load",
    "cardgen.deck.validate",
    "cardgen.deck.resolve",
    "cardgen.deck.model",
    "cardgen.cards.layout",
    "cardgen.cards.render",
    "cardgen.outputs.export",
    "cardgen.outputs.box",
)
PROBE = """
import json, sys
from cardgen.cli import main
try:
    main.main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {"yaml", "jinja2", "reportlab", "svglib", "PIL"}
                        or m.startswith("cardgen."))))
"""


def loaded(*args: str, cwd: Path) -> set[str]:
    """The modules of interest in sys.modules after cardgen ran `args` in a fresh interpreter."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True, text=True, env={**os.environ}, check=True
    )
    return set(json.loads(result.stdout.splitlines()[-1]))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def project_of_mini(tmp_path: Path) -> Path:
    import shutil

    shutil.copytree(FIXTURES / "mini", tmp_path / "project")
    when = time.time() - 3600  # settled: a listing of it may be kept (cardgen/core/cache.py)
    for path in (tmp_path / "project").rglob("*"):
        os.utime(path, (when, when))
    return tmp_path / "project"


def test_help_loads_no_stage(tmp_path):
    assert heavy(loaded("--help", cwd=tmp_path)) == []
    assert heavy(loaded("build", "--help", cwd=tmp_path)) == []
    assert heavy(loaded("export", "--help", cwd=tmp_path)) == []


def test_a_build_with_nothing_to_do_loads_no_stage(tmp_path):
    project = project_of_mini(tmp_path)
    first = loaded("build", "-q", cwd=project)
    assert "cardgen.cards.render" in first
    assert heavy(loaded("build", "-q", cwd=project)) == []


def test_a_listing_answered_from_the_cache_loads_no_stage(tmp_path):
    project = project_of_mini(tmp_path)
    assert "cardgen.deck.resolve" in loaded("list", cwd=project)
    assert heavy(loaded("list", cwd=project)) == []
