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
    allowed = [{"pages": "write", "id-token": "write"}, {"contents": "write"}, {"id-token": "write"}]
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


def test_the_release_publishes_the_checked_dist_with_trusted_publishing():
    workflow = yaml.safe_load(WORKFLOWS["release.yml"])
    publish = workflow["jobs"]["publish"]
    assert publish["needs"] == "dist"
    assert publish["environment"]["name"] == "pypi"
    assert publish["permissions"] == {"id-token": "write"}
    assert "timeout-minutes" in publish
    download, upload = publish["steps"]
    assert download["uses"].startswith("actions/download-artifact@")
    assert download["with"] == {"name": "dist", "path": "dist"}
    assert upload["uses"].startswith("pypa/gh-action-pypi-publish@")
    # No token: trusted publishing takes the job's OIDC identity.
    assert "password" not in upload.get("with", {}) and "secrets" not in WORKFLOWS["release.yml"]


# The current release of each action (each on a supported runtime, Node 24 or composite), by commit.
CURRENT = {
    "actions/checkout": "3d3c42e5aac5ba805825da76410c181273ba90b1  # v7.0.1",
    "actions/setup-python": "5fda3b95a4ea91299a34e894583c3862153e4b97  # v7.0.0",
    "actions/upload-artifact": "bbbca2ddaa5d8feaa63e36b76fdaad77386f024f  # v7.0.0",
    "actions/upload-pages-artifact": "fc324d3547104276b827a68afc52ff2a11cc49c9  # v5.0.0",
    "actions/deploy-pages": "cd2ce8fcbc39b97be8ca5fce6e763baed58fa128  # v5.0.0",
    "actions/cache": "27d5ce7f107fe9357f9df03efb73ab90386fccae  # v5.0.5",
    "actions/download-artifact": "3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c  # v8.0.1",
}


@pytest.mark.parametrize("name", sorted(WORKFLOWS))
def test_every_workflow_uses_the_current_pins(name):
    for line in WORKFLOWS[name].splitlines():
        found = re.match(r"^\s*(?:- )?uses: ([\w.-]+/[\w.-]+)@(.*)$", line)
        if found and found[1] in CURRENT:
            assert found[2] == CURRENT[found[1]], line


def test_the_project_workflow_installs_the_requirement_its_cardgen_toml_names():
    workflow = yaml.safe_load(WORKFLOWS["init: cards.yml"])
    install = workflow["jobs"]["build"]["steps"][3]
    assert (
        install["name"] == "Install cardgen (the requirement in cardgen.toml, and its world fonts where it names them)"
    )
    assert 'python -m pip install "$requirement" ${world:+"$world"}' in install["run"]
    assert all("timeout-minutes" in job for job in workflow["jobs"].values())
    toml = project_files("my-game", {}, None)["cardgen.toml"].decode("utf-8")
    assert toml.endswith(f'[cardgen]\nrequirement = "cardgen=={__version__}"\n')
