"""The workflow cardgen init writes passes on its first push (issue 28): its `run:` steps, in order, as a
runner runs them (bash -eo pipefail, GITHUB_ACTIONS set), in a fresh venv, on a fresh project. The
`uses:` steps (checkout, setup-python, the caches and uploads) are GitHub's and are skipped.

The venv has no cardgen: the workflow installs the one cardgen.toml names, here the wheel init kept in
.cardgen/, offline. The dependencies come from the environment running the tests, through a .pth file
(as in test_install), so pip needs no index.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pypdf
import pytest
import yaml

from cardgen import __version__


def _venv(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    python = folder / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (Path(site) / "dependencies-from-the-test-environment.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    return folder / "bin"


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_init_workflow_passes_on_its_first_push(tmp_path, lang):
    """A starter game in English, and one in Persian, whose workflow installs the world fonts too."""
    made = subprocess.run(
        [sys.executable, "-m", "cardgen", "init", "party", "--lang", lang],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert made.returncode == 0, made.stderr
    project = tmp_path / "party"
    named = tomllib.loads((project / "cardgen.toml").read_text(encoding="utf-8"))["cardgen"]
    # This cardgen runs from a clone: the project keeps a wheel of it, and of its world/ for Persian.
    wheels = {"requirement": f"./.cardgen/cardgen-{__version__}-py3-none-any.whl"}
    if lang == "fa":
        wheels["world"] = f"./.cardgen/cardgen_world-{__version__}-py3-none-any.whl"
    assert named == wheels
    assert all((project / wheel).is_file() for wheel in wheels.values())

    workflow = yaml.safe_load((project / ".github" / "workflows" / "cards.yml").read_text(encoding="utf-8"))
    steps = [step for step in workflow["jobs"]["build"]["steps"] if "run" in step]
    bin_ = _venv(tmp_path / "runner-python")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(
        PATH=f"{bin_}{os.pathsep}{env['PATH']}",
        CI="true",
        GITHUB_ACTIONS="true",
        GITHUB_WORKSPACE=str(project),
        GITHUB_EVENT_NAME="pull_request",
        GITHUB_REF="refs/pull/1/merge",
        RUNNER_TEMP=str(tmp_path / "runner-temp"),
        # Offline: the wheel alone, its dependencies being on the path already (the .pth above).
        PIP_NO_INDEX="1",
        PIP_NO_DEPS="1",
        PIP_IGNORE_INSTALLED="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    (tmp_path / "runner-temp").mkdir()
    for step in steps:
        assert "if" not in step, step
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, (step["name"], done.stdout[-3000:], done.stderr[-3000:])
        assert "Traceback" not in done.stderr
        if step is steps[0]:
            assert done.stdout.splitlines()[0] == f"installing {' and '.join(wheels.values())}"
            assert done.stdout.splitlines()[-1] == f"cardgen, version {__version__}"
    assert [step["name"] for step in steps] == [
        "Install cardgen (the requirement in cardgen.toml, and its world fonts where it names them)",
        "Check the decks",
        "Build the PDFs",
        "Build the site",
    ]
    # The cardgen that ran is the wheel's, in the runner's venv, and so are the fonts it drew Persian with.
    assert (bin_ / "cardgen").is_file()
    fonts = subprocess.run(
        [str(bin_ / "python"), "-c", "import cardgen_world; print(cardgen_world.FONTS)"], capture_output=True, text=True
    )
    assert (fonts.returncode == 0 and fonts.stdout.startswith(str(tmp_path / "runner-python"))) is (lang == "fa")
    sheet = pypdf.PdfReader(project / "output" / "my-game" / f"my-game-cards-{lang}.pdf").pages[0]
    if lang == "en":
        assert "Villager" in sheet.extract_text()
    else:
        fonts = {str(font.get_object()["/BaseFont"]).split("+")[-1] for font in sheet["/Resources"]["/Font"].values()}
        assert "Vazirmatn-Bold" in fonts, fonts
    assert (project / "output" / "site" / "index.html").is_file()
