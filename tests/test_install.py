"""The wheel and the sdist (issue 16): built from the working tree, their file lists checked, the wheel
installed without network into a fresh venv, and that cardgen run from empty folders far from any
clone: a bundled game built, a project made with init and built, the PDFs read back.

The venv takes its dependencies from the environment running the tests, through a .pth file: the
folder it names is put on the path, but the .pth files inside it (an editable install of cardgen)
are not run, so the only cardgen the venv can import is the wheel's.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pypdf
import pytest

from cardgen import __version__
from conftest import ROOT

_ANYWHERE = shutil.ignore_patterns("*.egg-info", "__pycache__", ".pytest_cache")
# Only at the top: cardgen/build/ is a package, not a build folder.
_AT_TOP = {".venv", ".git", "output", "build", "dist"}


def SKIP(folder: str, names: list[str]) -> set[str]:
    return _ANYWHERE(folder, names) | ({name for name in names if name in _AT_TOP} if Path(folder) == ROOT else set())


def _check_dist():
    spec = importlib.util.spec_from_file_location("check_dist", ROOT / ".ci" / "check_dist.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The sdist and the wheel built from it (as pip and PyPI build them), from a copy of the tree:
    a build writes its egg-info beside the sources."""
    pytest.importorskip("build", reason="the test extra's build (pip install -e '.[test]')")
    work = tmp_path_factory.mktemp("dist")
    shutil.copytree(ROOT, work / "tree", ignore=SKIP)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(work / "dist"), str(work / "tree")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return work / "dist"


def test_the_wheel_and_the_sdist_carry_every_bundled_file(dist):
    assert sorted(p.name for p in dist.iterdir()) == [
        f"cardgen-{__version__}-py3-none-any.whl",
        f"cardgen-{__version__}.tar.gz",
    ]
    check = _check_dist()
    assert check.missing(dist) == []
    # The fonts of the world extra are a package of their own: cardgen's own wheel stays small.
    wheel = next(dist.glob("*.whl"))
    assert wheel.stat().st_size < 30 * 1024 * 1024
    assert not any("NotoSansJP" in name for name in zipfile.ZipFile(wheel).namelist())
    # The check can fail: a wheel without one of the fonts is caught by name.
    broken = dist.parent / "broken"
    broken.mkdir()
    shutil.copy(next(dist.glob("*.tar.gz")), broken)
    with (
        zipfile.ZipFile(next(dist.glob("*.whl"))) as whole,
        zipfile.ZipFile(broken / f"cardgen-{__version__}-py3-none-any.whl", "w") as part,
    ):
        for item in whole.infolist():
            if item.filename != "cardgen/_data/fonts/NotoSansSC_700Bold.ttf":
                part.writestr(item, whole.read(item))
    assert check.missing(broken) == [
        f"cardgen-{__version__}-py3-none-any.whl: cardgen/_data/fonts/NotoSansSC_700Bold.ttf"
    ]


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed from the file alone; returns its cardgen command."""
    venv = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-index",
            "--no-deps",
            "--no-compile",
            "-q",
            str(next(dist.glob("*.whl"))),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (site / "dependencies-from-the-test-environment.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    return venv / "bin" / "cardgen"


def cardgen(command: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(command), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done


def text(pdf: Path) -> str:
    return " ".join(" ".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages).split())


def test_the_installed_cardgen_is_the_wheels(installed, tmp_path):
    python = installed.parent / "python"
    where = subprocess.run(
        [str(python), "-c", "import cardgen, cardgen.core.bundled as b; print(cardgen.__file__); print(b.ROOT)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    venv = installed.parent.parent
    assert Path(where[0]).is_relative_to(venv) and Path(where[1]) == Path(where[0]).parent / "_data"
    assert cardgen(installed, "--version", cwd=tmp_path).stdout == f"cardgen, version {__version__}\n"


def test_an_installed_cardgen_builds_a_bundled_game_from_an_empty_folder(installed, tmp_path):
    listed = cardgen(installed, "list", cwd=tmp_path).stdout
    assert [line.split(":")[0] for line in listed.splitlines() if not line.startswith(" ")] == [
        "mafia-vendetta",
        "salem-1692",
        "werewolf",
        "werewords",
    ]
    cardgen(installed, "build", "werewolf", "--lang", "vi", "-q", cwd=tmp_path)
    out = tmp_path / "output" / "werewolf"
    assert sorted(p.name for p in out.iterdir()) == [
        "werewolf-cards-vi.pdf",
        "werewolf-narrator-vi.html",
        "werewolf-rulebook-vi.pdf",
        "werewolf-script-vi.pdf",
    ]
    assert "Tiên tri" in text(out / "werewolf-cards-vi.pdf")
    assert "Ma Sói" in text(out / "werewolf-rulebook-vi.pdf")
    assert pypdf.PdfReader(out / "werewolf-cards-vi.pdf").metadata.creator == f"cardgen {__version__}"
    cardgen(installed, "calibrate", cwd=tmp_path)
    assert (tmp_path / "output" / "calibration-a4-long.pdf").is_file()


def test_an_installed_cardgen_makes_and_builds_a_project(installed, dist, tmp_path):
    cardgen(installed, "init", "party", cwd=tmp_path)
    project = tmp_path / "party"
    # Installed from a wheel file (PEP 610: archive_info), it keeps that wheel for the project's workflow.
    wheel = next(dist.glob("*.whl"))
    assert (
        (project / "cardgen.toml")
        .read_text(encoding="utf-8")
        .endswith(f'[cardgen]\nrequirement = "./.cardgen/{wheel.name}"\n')
    )
    assert (project / ".cardgen" / wheel.name).read_bytes() == wheel.read_bytes()
    assert (project / "schemas" / "game.schema.json").is_file()
    assert cardgen(installed, "validate", "--strict", cwd=project / "decks").stdout == "1 game valid\n"
    cardgen(installed, "build", "-q", cwd=project / "decks" / "my-game")
    assert "Villager" in text(project / "output" / "my-game" / "my-game-cards-en.pdf")
    cardgen(installed, "new", "role", "my-game", "fox", cwd=project)
    cardgen(installed, "build", "-q", cwd=project)
    assert "Fox" in text(project / "output" / "my-game" / "my-game-cards-en.pdf")


# The README's install commands (issue 28), as a new user runs them: read from the README, each in a
# fresh venv, offline. pipx is a venv per tool with the tool's commands on the PATH: `pipx install X`
# runs here as pip installing X into a fresh venv. A fresh venv takes its dependencies (and pip, build
# and setuptools, for building without network) from the environment running the tests, as above.
_OFFLINE = ["--no-index", "--no-build-isolation", "--ignore-installed", "--no-deps"]


def readme_commands(section: str) -> list[str]:
    """The command lines in a README section's indented blocks, without their comments."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(f"\n## {section}\n")
    body = readme[start + 1 : readme.find("\n## ", start + 1)]
    lines = [line[4:].split("  #")[0].strip() for line in body.splitlines() if line.startswith("    ")]
    return [line for line in lines if line]


def _fresh_venv(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    site = subprocess.run(
        [str(folder / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (Path(site) / "dependencies-from-the-test-environment.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    return folder


def _run_chain(line: str, cwd: Path, dist: Path, venv: Path | None) -> Path | None:
    """Runs a README command line (`a && b && ...`) as a user would, offline; returns its venv."""
    for part in line.split(" && "):
        words = shlex.split(part)
        if words[:3] == ["python3", "-m", "venv"]:
            venv = _fresh_venv(cwd / words[3])
        elif words[0] == ".":
            assert words[1] == ".venv/bin/activate" and venv == cwd / ".venv", part
        elif words[:2] == ["cardgen", "build"]:
            continue  # building every bundled game is the build tests' work; --version below shows it runs
        elif words[:3] == ["python", "-m", "build"]:
            # The dist fixture above ran `python -m build --no-isolation` on a copy of the tree.
            shutil.copytree(dist, cwd / "dist")
        else:
            if words[:3] == ["pipx", "inject", "cardgen"]:  # more packages into the tool's venv
                assert venv is not None, part
                words = ["pipx", "install", *words[3:]]
            assert words[:2] in (["pipx", "install"], ["pip", "install"]), part
            venv = venv or _fresh_venv(cwd.parent / f"venv-{len(list(cwd.parent.iterdir()))}")
            done = subprocess.run(
                [str(venv / "bin" / "python"), "-m", "pip", "install", *_OFFLINE, *words[2:]],
                cwd=cwd,
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 0, (part, done.stdout[-2000:], done.stderr[-2000:])
    return venv


def python_says(venv: Path, code: str, cwd: Path) -> str:
    """What the venv's Python prints running code."""
    return subprocess.run(
        [str(venv / "bin" / "python"), "-c", code], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout.strip()


def test_every_install_command_in_the_readme_works_as_written(dist, tmp_path):
    tool = readme_commands("Install it as a tool")
    assert tool == [
        "pipx install ./cardgen",
        "pip install .",
        "python -m build",
        f"pipx install dist/cardgen-{__version__}-py3-none-any.whl",
        "pipx inject cardgen ./cardgen/world",
        'pip install ".[world]" ./world',
        "mkdir game-night && cd game-night",
        "cardgen build werewolf --lang vi",
        "pipx install cardgen",
    ]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "**cardgen is not on the package index (PyPI) yet**" in readme
    assert "    pipx install cardgen                         # NOT YET: cardgen is not published\n" in readme
    clone = readme_commands("From a clone: two commands")[0]
    assert clone == (
        'python3 -m venv .venv && . .venv/bin/activate && pip install -q -e ".[world]" -e ./world && cardgen build'
    )
    ways = {
        # (the folder it runs in, the commands): from the folder above the clone, or inside it.
        "pipx from the clone": ("above", [tool[0]]),
        "pipx from the clone, with the world fonts": ("above", [tool[0], tool[4]]),
        "pip in a venv of one's own": ("inside", [tool[1]]),
        "pip in a venv of one's own, with the world fonts": ("inside", [tool[5]]),
        "a wheel built in the clone": ("inside", [tool[2], tool[3]]),
        "the clone's own venv": ("inside", [clone]),
    }
    for n, (way, (where, commands)) in enumerate(ways.items()):
        above = tmp_path / str(n)
        shutil.copytree(ROOT, above / "cardgen", ignore=SKIP)
        cwd = above if where == "above" else above / "cardgen"
        venv = None
        for line in commands:
            venv = _run_chain(line, cwd, dist, venv)
        assert venv is not None
        empty = tmp_path / f"empty-{n}"
        empty.mkdir()
        done = cardgen(venv / "bin" / "cardgen", "--version", cwd=empty)
        assert done.stdout == f"cardgen, version {__version__}\n", way
        # The cardgen that answered is the one this way installed, in its venv or (editable) in the clone.
        where_from = python_says(venv, "import cardgen; print(cardgen.__file__)", empty)
        assert Path(where_from).is_relative_to(venv) or Path(where_from).is_relative_to(above / "cardgen"), way
        # The world fonts are found where those ways installed them, and only there.
        world = python_says(venv, "from cardgen.core import bundled; print(bundled.world_fonts())", empty)
        with_world = "world" in way or way == "the clone's own venv"
        assert (Path(world) / "NotoSansJP_400Regular.ttf").is_file() if with_world else world == "None", way
