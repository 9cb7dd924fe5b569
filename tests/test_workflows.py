"""The GitHub workflows (issue 16): cardgen's CI and release, and the one cardgen init writes.

Every action is pinned by a full commit hash with its release in a comment, every workflow starts
from read-only permissions and widens them only in the job that needs it, and no expression is
pasted into a shell line: matrix values and the like come in through env:, quoted.
"""

from __future__ import annotations

import re

import pytest
import yaml

from cardgen import __version__
from cardgen.deck.newfiles import project_files
from conftest import ROOT

WORKFLOWS = {path.name: path.read_text(encoding="utf-8") for path in (ROOT / ".github" / "workflows").glob("*.yml")}
WORKFLOWS["init: cards.yml"] = project_files("my-game", {}, None)[".github/workflows/cards.yml"].decode("utf-8")
PIN = re.compile(r"^\s*(?:- )?uses: ([\w.-]+/[\w.-]+)@([0-9a-f]{40})  # v\d+(\.\d+)*$")


def test_there_are_the_ci_and_release_workflows():
    assert sorted(WORKFLOWS) == ["build.yml", "init: cards.yml", "release.yml"]


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_every_action_is_pinned_by_commit(name):
    uses = [line for line in WORKFLOWS[name].splitlines() if re.match(r"^\s*(- )?uses:", line)]
    assert uses
    for line in uses:
        assert PIN.match(line), line


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_permissions_are_the_least_each_job_needs(name):
    workflow = yaml.safe_load(WORKFLOWS[name])
    assert workflow["permissions"] == {"contents": "read"}
    widened = {job: spec["permissions"] for job, spec in workflow["jobs"].items() if "permissions" in spec}
    allowed = [{"pages": "write", "id-token": "write"}, {"contents": "write"}]
    assert all(permissions in allowed for permissions in widened.values()), widened


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_no_expression_is_pasted_into_a_shell_line(name):
    workflow = yaml.safe_load(WORKFLOWS[name])
    for job in workflow["jobs"].values():
        for step in job.get("steps", []):
            assert "${{" not in step.get("run", ""), step


def test_ci_tests_every_supported_python():
    workflow = yaml.safe_load(WORKFLOWS["build.yml"])
    assert workflow["jobs"]["test"]["strategy"]["matrix"]["python"] == ["3.11", "3.12", "3.13"]
    classifiers = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for version in ("3.11", "3.12", "3.13"):
        assert f'"Programming Language :: Python :: {version}"' in classifiers


def test_the_release_checks_and_tries_the_wheel_before_attaching_it():
    workflow = yaml.safe_load(WORKFLOWS["release.yml"])
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads `on` as true
    assert triggers == {"push": {"tags": ["v*"]}}
    runs = "\n".join(step.get("run", "") for step in workflow["jobs"]["dist"]["steps"])
    for needed in (
        "python -m build",
        "twine check --strict dist/*",
        "python .ci/check_dist.py dist",
        'pip" install -q dist/*.whl',
        'cardgen" build --strict',
        'cardgen" init party',
    ):
        assert needed in runs, needed
    attach = workflow["jobs"]["attach"]
    assert attach["needs"] == "dist"
    assert 'gh release create "$TAG" dist/*' in attach["steps"][-1]["run"]
    assert attach["steps"][-1]["env"]["TAG"] == "${{ github.ref_name }}"


def test_the_project_workflow_installs_this_cardgen():
    assert f'pip install "cardgen=={__version__}"' in WORKFLOWS["init: cards.yml"]
