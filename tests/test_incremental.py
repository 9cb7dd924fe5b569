"""Builds CI can rely on: incremental, parallel equal to serial, quick to start, and the workflow that runs them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cardgen import __version__
from conftest import FIXTURES, ROOT, run


def project_with_two_games(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "mini", root)
    shutil.copytree(root / "decks" / "mini", root / "decks" / "other")
    return root


def mtimes(out: Path) -> dict[str, int]:
    return {p.relative_to(out).as_posix(): p.stat().st_mtime_ns for p in out.rglob("*.pdf")}


def build(root: Path, out: Path, *args: str):
    result = run("build", "--decks", str(root / "decks"), "--out", str(out), "--jobs", "1", *args)
    assert result.exit_code == 0, result.output
    return result


def test_nothing_changed_means_nothing_rewritten(tmp_path):
    root, out = project_with_two_games(tmp_path), tmp_path / "out"
    build(root, out)
    before = mtimes(out)
    result = build(root, out)
    assert result.stdout.splitlines()[-1].startswith("up to date (4 files) in ")
    assert mtimes(out) == before


def test_a_one_card_edit_rebuilds_only_the_outputs_that_card_is_in(tmp_path):
    root, out = project_with_two_games(tmp_path), tmp_path / "out"
    build(root, out)
    before = mtimes(out)
    seer = root / "decks" / "mini" / "roles" / "seer.yaml"
    seer.write_text(seer.read_text(encoding="utf-8").replace("look at one", "look at any"), encoding="utf-8")
    result = build(root, out)
    after = mtimes(out)
    changed = sorted(name for name in after if after[name] != before[name])
    assert changed == ["mini/mini-cards-en.pdf", "mini/mini-cards-vi.pdf"]
    assert result.stdout.splitlines()[-1].endswith("; 2 up to date")


def test_force_rebuilds_everything_byte_for_byte(tmp_path):
    root, out = project_with_two_games(tmp_path), tmp_path / "out"
    build(root, out)
    first = {name: (out / name).read_bytes() for name in mtimes(out)}
    before = mtimes(out)
    result = build(root, out, "--force")
    assert result.stdout.splitlines()[-1].startswith("4 files, ")
    assert all(mtimes(out)[name] != before[name] for name in before)
    assert {name: (out / name).read_bytes() for name in first} == first


def test_a_change_to_cardgens_own_code_rebuilds_everything(tmp_path):
    # A clone installed in place (the README's way) changes its modules on `git pull`; its version stays.
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "cardgen", clone / "cardgen", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("templates", "fonts"):
        shutil.copytree(ROOT / name, clone / name)
    root, out = project_with_two_games(tmp_path), tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(clone)}

    def cardgen(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "cardgen", *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def build_with_the_clone() -> str:
        return cardgen("build", "--decks", str(root / "decks"), "--out", str(out), "--jobs", "1").splitlines()[-1]

    assert cardgen("--version") == f"cardgen, version {__version__}\n"
    done = subprocess.run(
        [sys.executable, "-c", "import cardgen; print(cardgen.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert Path(done.stdout.strip()) == clone / "cardgen" / "__init__.py"
    build_with_the_clone()
    before = mtimes(out)
    assert build_with_the_clone().startswith("up to date (4 files) in ")
    module = clone / "cardgen" / "cards" / "render.py"
    module.write_text(module.read_text(encoding="utf-8") + "\n# a commit pulled into the clone\n", encoding="utf-8")
    assert build_with_the_clone().startswith("4 files, ")
    assert all(mtimes(out)[name] != before[name] for name in before)
    assert build_with_the_clone().startswith("up to date (4 files) in ")


def test_a_project_moved_elsewhere_is_still_up_to_date(tmp_path, monkeypatch):
    """A CI cache restores output/ in another checkout path: the manifest keeps no absolute path to the
    project, so nothing is drawn again. A manifest of the earlier format is read as stale."""
    root = project_with_two_games(tmp_path)
    monkeypatch.chdir(root)
    assert run("build", "--jobs", "1").exit_code == 0
    manifest = (root / "output" / "cardgen-manifest.json").read_text(encoding="utf-8")
    assert str(tmp_path) not in manifest
    kept = json.loads(manifest)
    assert kept["format"] == 3
    assert "decks/mini/game.yaml" in kept["digests"]
    assert sorted(kept["last"]["outputs"]) == [f"output/{name}" for name in sorted(mtimes(root / "output"))]
    before = mtimes(root / "output")
    moved = tmp_path / "elsewhere" / "checkout"
    moved.parent.mkdir()
    root.rename(moved)
    monkeypatch.chdir(moved)
    result = run("build", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].startswith("up to date (4 files) in ")
    assert mtimes(moved / "output") == before
    # The earlier format, with absolute paths: everything stale, made again.
    old = {key: value for key, value in kept.items() if key != "format"}
    (moved / "output" / "cardgen-manifest.json").write_text(json.dumps(old), encoding="utf-8")
    result = run("build", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].startswith("4 files, ")


def test_a_deleted_or_tampered_output_is_rebuilt(tmp_path):
    root, out = project_with_two_games(tmp_path), tmp_path / "out"
    build(root, out)
    (out / "mini" / "mini-cards-en.pdf").unlink()
    (out / "other" / "other-cards-vi.pdf").write_bytes(b"not a pdf")
    result = build(root, out)
    assert result.stdout.splitlines()[:2] == [
        str(out / "mini" / "mini-cards-en.pdf"),
        str(out / "other" / "other-cards-vi.pdf"),
    ]
    assert (out / "other" / "other-cards-vi.pdf").read_bytes().startswith(b"%PDF-")


def test_a_changed_template_rebuilds_what_uses_it(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(ROOT / "decks" / "werewolf", root / "decks" / "werewolf")
    out = tmp_path / "out"
    build(root, out, "--lang", "en")
    before = mtimes(out)
    documents = root / "templates" / "documents"
    documents.mkdir(parents=True)
    shutil.copy(ROOT / "templates" / "documents" / "rulebook.xml.j2", documents / "rulebook.xml.j2")
    with open(documents / "rulebook.xml.j2", "a", encoding="utf-8") as template:
        template.write("{# a designer's copy #}\n")
    build(root, out, "--lang", "en")
    after = mtimes(out)
    assert sorted(name for name in after if after[name] != before[name]) == [
        "werewolf/werewolf-rulebook-en.pdf",
        "werewolf/werewolf-script-en.pdf",
    ]
    # A card layout change rebuilds the cards and leaves the documents.
    layout = yaml.safe_load((ROOT / "templates" / "card-layout.yaml").read_text(encoding="utf-8"))
    layout["frame"]["width"] = 2.2
    (root / "templates" / "card-layout.yaml").write_text(yaml.safe_dump(layout), encoding="utf-8")
    before = mtimes(out)
    build(root, out, "--lang", "en")
    after = mtimes(out)
    assert sorted(name for name in after if after[name] != before[name]) == ["werewolf/werewolf-cards-en.pdf"]


def test_a_changed_font_rebuilds_what_uses_it(tmp_path):
    root, out = project_with_two_games(tmp_path), tmp_path / "out"

    def build_in_a_process():
        # ReportLab keeps fonts by name for the whole process: a project's own copy needs a fresh one.
        done = subprocess.run(
            [sys.executable, "-m", "cardgen", "build", "--decks", str(root / "decks"), "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr

    build_in_a_process()
    before = mtimes(out)
    (root / "fonts").mkdir()
    shutil.copy(ROOT / "fonts" / "NotoSans_400Regular.ttf", root / "fonts" / "NotoSans_400Regular.ttf")
    with open(root / "fonts" / "NotoSans_400Regular.ttf", "ab") as font:
        font.write(b"\0")  # another file of the same name: the project's own font
    build_in_a_process()
    assert all(mtimes(out)[name] != before[name] for name in before)


def test_parallel_build_is_byte_identical_to_serial(tmp_path):
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    for out, jobs in ((serial, "1"), (parallel, "2")):
        result = run(
            "build", "werewolf", "werewords", "--lang", "vi", "--lang", "zh", "--out", str(out), "--jobs", jobs
        )
        assert result.exit_code == 0, result.output
    names = sorted(p.relative_to(serial).as_posix() for p in serial.rglob("*.pdf"))
    assert names == sorted(p.relative_to(parallel).as_posix() for p in parallel.rglob("*.pdf"))
    assert len(names) == 12
    for name in names:
        assert (serial / name).read_bytes() == (parallel / name).read_bytes(), name


def test_list_targets_gives_one_target_per_game():
    result = run("build", "--list-targets", "--json")
    targets = json.loads(result.stdout)["targets"]
    assert [t["game"] for t in targets] == ["mafia-vendetta", "salem-1692", "werewolf", "werewords"]
    werewolf = targets[2]
    assert werewolf["languages"] == ["en", "vi", "zh", "es", "ja"]
    assert "output/werewolf/werewolf-script-zh.pdf" in werewolf["outputs"] and len(werewolf["outputs"]) == 20
    assert "output/werewolf/werewolf-narrator-zh.html" in werewolf["outputs"]


@pytest.mark.parametrize("args", [["--help"], ["list"], ["list", "--json"], ["build", "--list-targets"]])
def test_quick_commands_do_not_import_reportlab(args):
    code = (
        f"import sys\nfrom cardgen.cli import main\ntry:\n    main({args!r})\nexcept SystemExit:\n    pass\n"
        "print('reportlab' in ' '.join(sys.modules), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stderr.strip().splitlines()[-1] == "False"


def test_the_workflow_installs_tests_and_builds_each_game_as_a_matrix():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "build.yml").read_text(encoding="utf-8"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads `on` as true
    assert set(triggers) == {"push", "pull_request"}
    jobs = workflow["jobs"]
    test_command = jobs["test"]["steps"][-1]["run"]
    assert test_command in readme
    assert "cardgen build --list-targets --json" in jobs["targets"]["steps"][-1]["run"]
    build_job = jobs["build"]
    assert build_job["strategy"]["matrix"]["game"] == "${{ fromJSON(needs.targets.outputs.games) }}"
    runs = "\n".join(step.get("run", "") for step in build_job["steps"])
    assert 'cardgen build "$GAME" --strict' in runs and ".png" in runs
    assert next(step for step in build_job["steps"] if "$GAME" in step.get("run", ""))["env"] == {
        "GAME": "${{ matrix.game }}"
    }
    assert any(step.get("uses", "").startswith("actions/upload-artifact") for step in build_job["steps"])
