"""cardgen init (issue 16): a project folder that validates, builds and has a working workflow."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import jsonschema
import pypdf
import pytest
import yaml

from cardgen import __version__
from cardgen.core.yaml12 import safe_load
from cardgen.deck import schema
from conftest import ROOT, run

FILES = [
    f".cardgen/cardgen-{__version__}-py3-none-any.whl",
    ".github/workflows/cards.yml",
    ".gitignore",
    "README.md",
    "cardgen.toml",
    "decks/my-game/game.yaml",
    "decks/my-game/roles/villager.yaml",
    "schemas/card.schema.json",
    "schemas/game.schema.json",
    "schemas/rulebook.schema.json",
    "schemas/script.schema.json",
]


def files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_init_makes_a_project_that_validates_and_builds(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("init", "party")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:3] == [
        "made a project in party: 11 files, the game decks/my-game",
        "next:",
        "  cd party",
    ]
    assert files(tmp_path / "party") == FILES
    monkeypatch.chdir(tmp_path / "party")
    assert run("validate", "--strict").stdout == "1 game valid\n"
    result = run("build", "-q")
    assert result.exit_code == 0, result.output
    text = pypdf.PdfReader(tmp_path / "party" / "output" / "my-game" / "my-game-cards-en.pdf").pages[0].extract_text()
    assert "Villager" in text
    assert (tmp_path / "party" / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "/output/"


def test_init_in_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("init", "--game", "tavern", "--lang", "en", "--lang", "vi")
    assert result.exit_code == 0, result.output
    assert "  cd " not in result.stdout
    game = safe_load((tmp_path / "decks" / "tavern" / "game.yaml").read_text(encoding="utf-8"))
    assert game["languages"] == ["en", "vi"]
    assert run("list").stdout.splitlines()[0] == "tavern: Tavern [en, vi], 1 cards"


def test_every_deck_file_points_its_editor_at_a_schema_that_accepts_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("init", "--from", "salem-1692").exit_code == 0
    checked = 0
    for path in sorted((tmp_path / "decks").rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert match, path
        target = (path.parent / match[1]).resolve()
        assert target.parent == tmp_path / "schemas"
        document = json.loads(target.read_text(encoding="utf-8"))
        assert document["title"] == f"cardgen {target.name.split('.')[0]} file"
        # The same schema the validator interprets, whole: an editor checks what cardgen checks.
        jsonschema.Draft202012Validator(document).validate(safe_load(path.read_text(encoding="utf-8")))
        checked += 1
    assert checked == len(list((ROOT / "decks" / "salem-1692").rglob("*.yaml")))
    assert json.loads((tmp_path / "schemas" / "card.schema.json").read_text(encoding="utf-8")) == schema.document(
        "card"
    )


def test_from_copies_a_bundled_game_to_change(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("init", "club", "--from", "werewolf")
    assert result.exit_code == 0, result.output
    copied = tmp_path / "club" / "decks" / "werewolf"
    for source in (ROOT / "decks" / "werewolf").rglob("*"):
        if source.is_file():
            mine = (copied / source.relative_to(ROOT / "decks" / "werewolf")).read_bytes()
            assert mine.endswith(source.read_bytes()), source
    assert "copy of its bundled game `werewolf`" in (tmp_path / "club" / "README.md").read_text(encoding="utf-8")
    seer = copied / "roles" / "seer.yaml"
    seer.write_text(seer.read_text(encoding="utf-8").replace("Seer", "Oracle", 1), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "club" / "decks")
    result = run("build", "--lang", "en", "-q")
    assert result.exit_code == 0, result.output
    text = pypdf.PdfReader(tmp_path / "club" / "output" / "werewolf" / "werewolf-cards-en.pdf").pages[0].extract_text()
    assert "Oracle" in text


def test_init_never_overwrites_and_writes_nothing_when_it_stops(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "README.md").write_text("ours\n", encoding="utf-8")
    result = run("init")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: README.md exists already; cardgen init never overwrites a file\n",
    )
    assert files(tmp_path) == ["README.md"]


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--from", "werwolf"],
            "error: no bundled game 'werwolf' (did you mean 'werewolf'?); bundled games: "
            "mafia-vendetta, salem-1692, werewolf, werewords\n",
        ),
        (["--game", "My Game"], "error: 'My Game' is not a valid id: kebab-case English, like my-game\n"),
    ],
)
def test_init_refuses_what_it_cannot_make(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = run("init", *args)
    assert (result.exit_code, result.stderr) == (1, message)
    assert list(tmp_path.iterdir()) == []


def test_from_takes_the_game_as_it_is(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("init", "--from", "werewolf", "--lang", "vi")
    assert result.exit_code == 2
    assert "--lang shape the starter game; --from copies a bundled game as it is" in result.stderr


def test_the_workflow_builds_the_decks_and_publishes_their_site(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("init").exit_code == 0
    workflow = yaml.safe_load((tmp_path / ".github" / "workflows" / "cards.yml").read_text(encoding="utf-8"))
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    assert workflow["permissions"] == {"contents": "read"}
    assert workflow["concurrency"] == {"group": "cards-${{ github.ref }}", "cancel-in-progress": True}
    assert publish["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    assert publish["permissions"] == {"pages": "write", "id-token": "write"}
    assert publish["if"] == "github.event_name == 'push' && github.ref == 'refs/heads/main'"
    assert build["timeout-minutes"] == 30 and publish["timeout-minutes"] == 10
    uses = {step["uses"].split("@")[0]: step for step in build["steps"] if "uses" in step}
    assert uses["actions/checkout"]["with"] == {"persist-credentials": False}
    assert uses["actions/setup-python"]["with"] == {
        "python-version": "3.12",
        "cache": "pip",
        "cache-dependency-path": "cardgen.toml",
    }
    assert uses["actions/upload-artifact"]["if"] == "github.event_name == 'pull_request'"
    assert uses["actions/upload-artifact"]["with"]["path"] == "output/**/*.pdf"
    assert uses["actions/upload-pages-artifact"]["with"]["path"] == "output/site"
    runs = [step["run"] for step in build["steps"] if "run" in step]
    assert 'tomllib.load(open("cardgen.toml", "rb"))["cardgen"]["requirement"]' in runs[0]
    assert 'python -m pip install "$requirement"' in runs[0]
    # Every cardgen step runs here as the workflow runs it, and makes what the next step uploads.
    for line in runs[1:]:
        words = line.split()
        assert words[0] == "cardgen", line
        result = run(*words[1:])
        assert result.exit_code == 0, (line, result.output)
    assert (tmp_path / "output" / "site" / "index.html").is_file()
    assert (tmp_path / "output" / "site" / "my-game" / "en.html").is_file()
    assert (tmp_path / "output" / "my-game" / "my-game-cards-en.pdf").is_file()


def test_init_records_where_its_cardgen_came_from(tmp_path, monkeypatch):
    """From the package index: its version; from git: the URL and tag; from a clone or a local wheel: a
    wheel of it in .cardgen/, which the workflow installs (PEP 610's direct_url.json tells them apart)."""
    from cardgen.core import origin

    wheel = tmp_path / f"cardgen-{__version__}-py3-none-any.whl"
    wheel.write_bytes(b"a wheel")
    for direct_url, requirement in (
        (None, f"cardgen=={__version__}"),
        (
            {"url": "https://example.org/cardgen.git", "vcs_info": {"vcs": "git", "requested_revision": "v0.1.0"}},
            "cardgen @ git+https://example.org/cardgen.git@v0.1.0",
        ),
        ({"url": wheel.as_uri(), "archive_info": {}}, f"./.cardgen/cardgen-{__version__}-py3-none-any.whl"),
    ):
        origin.origin.cache_clear()
        monkeypatch.setattr(origin, "_direct_url", lambda name="cardgen", direct_url=direct_url: direct_url)
        project = tmp_path / str(len(list(tmp_path.iterdir())))
        assert run("init", str(project)).exit_code == 0
        toml = (project / "cardgen.toml").read_text(encoding="utf-8")
        assert toml.endswith(f"[cardgen]\nrequirement = {json.dumps(requirement)}\n"), toml
        kept = project / ".cardgen" / wheel.name
        assert kept.is_file() == requirement.startswith("./")
        if kept.is_file():
            assert kept.read_bytes() == b"a wheel"
    # A folder that is no clone (nothing to make a wheel of): the version, and a warning saying what to do.
    origin.origin.cache_clear()
    monkeypatch.setattr(origin, "_direct_url", lambda name="cardgen": {"url": tmp_path.as_uri(), "dir_info": {}})
    result = run("init", str(tmp_path / "nowheel"))
    assert result.exit_code == 0, result.output
    note = (
        f"cardgen {__version__} is not on the package index yet and no wheel of it could be made here: "
        "set [cardgen] requirement in cardgen.toml to a wheel or git URL before pushing"
    )
    assert result.stderr == f"warning: {note}\n"
    assert (
        (tmp_path / "nowheel" / "cardgen.toml")
        .read_text(encoding="utf-8")
        .endswith(f'# {note}\n[cardgen]\nrequirement = "cardgen=={__version__}"\n')
    )
    origin.origin.cache_clear()
    assert run("init", str(tmp_path / "given"), "--requirement", "cardgen==9.9").exit_code == 0
    assert 'requirement = "cardgen==9.9"' in (tmp_path / "given" / "cardgen.toml").read_text(encoding="utf-8")
    assert not (tmp_path / "given" / ".cardgen").exists()


def test_the_cardgen_table_is_checked_where_cardgen_toml_is_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("init", "--requirement", "cardgen==0.1.0").exit_code == 0
    toml = tmp_path / "cardgen.toml"
    lines = toml.read_text(encoding="utf-8").splitlines()
    at = lines.index('requirement = "cardgen==0.1.0"') + 1
    toml.write_text("\n".join([*lines[:-1], "requirement = 3", 'requirment = "x"']) + "\n", encoding="utf-8")
    result = run("validate")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:2] == [
        f'cardgen.toml:{at}: error: [cardgen] requirement: expected a pip requirement, like "cardgen==0.1.0" or a '
        "wheel's path, got 3",
        f"cardgen.toml:{at + 1}: warning: unknown key 'requirment' in [cardgen]; known: requirement, world",
    ]


def test_files_init_and_new_write_point_at_the_documentation_not_at_a_clone(tmp_path, monkeypatch):
    from cardgen.core.origin import urls

    assert set(urls()) == {"Homepage", "Documentation", "Source", "Issues", "Changelog"}
    monkeypatch.chdir(tmp_path)
    assert run("init", "--requirement", "cardgen==0.1.0").exit_code == 0
    assert run("new", "role", "my-game", "fox").exit_code == 0
    assert run("new", "game", "tavern").exit_code == 0
    for path in tmp_path.rglob("*"):
        if path.is_file() and path.suffix in (".yaml", ".md", ".toml", ".yml"):
            text = path.read_text(encoding="utf-8")
            assert "docs/" not in text and "templates/" not in text and "pypi.org" not in text, path
    assert urls()["Documentation"] in (tmp_path / "decks" / "my-game" / "roles" / "fox.yaml").read_text(
        encoding="utf-8"
    )
    assert urls()["Documentation"] in (tmp_path / "README.md").read_text(encoding="utf-8")


def _install_step(project: Path) -> str:
    workflow = yaml.safe_load((project / ".github" / "workflows" / "cards.yml").read_text(encoding="utf-8"))
    return next(step["run"] for step in workflow["jobs"]["build"]["steps"] if "pip install" in step.get("run", ""))


def _what_the_workflow_installs(project: Path) -> list[str]:
    """The install step's shell lines up to its pip command, run here with pip's command echoed instead."""
    step = _install_step(project).replace("python -m pip install", "printf '%s\\n'")
    lines = [line for line in step.splitlines() if not line.startswith("cardgen")]
    done = subprocess.run(["bash", "-c", "\n".join(lines)], cwd=project, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()[1:]  # after the "installing ..." line


def test_a_game_in_persian_or_japanese_has_its_workflow_install_the_world_fonts(tmp_path, monkeypatch):
    """init names cardgen-world beside cardgen in cardgen.toml for a game whose languages need its fonts
    (a starter game in Persian, a copy of Werewolf with its Japanese), from where the running one came;
    the workflow installs both. A game in English names none, and its workflow installs cardgen alone."""
    from cardgen.core import origin

    world_wheel = tmp_path / f"cardgen_world-{__version__}-py3-none-any.whl"
    world_wheel.write_bytes(b"the fonts")
    places = {"cardgen": None, "cardgen-world": {"url": world_wheel.as_uri(), "archive_info": {}}}
    origin.origin.cache_clear()
    monkeypatch.setattr(origin, "_direct_url", lambda name="cardgen": places[name])
    monkeypatch.chdir(tmp_path)
    for args, world in (
        (["fa", "--lang", "fa"], f"./.cardgen/{world_wheel.name}"),
        (["wolf", "--from", "werewolf"], f"./.cardgen/{world_wheel.name}"),
        (["plain", "--lang", "en", "--lang", "vi"], None),
    ):
        result = run("init", *args)
        assert result.exit_code == 0, result.output
        project = tmp_path / args[0]
        toml = (project / "cardgen.toml").read_text(encoding="utf-8")
        installed = _what_the_workflow_installs(project)
        if world is None:
            assert "\nworld = " not in toml and installed == [f"cardgen=={__version__}"]
            assert not (project / ".cardgen").exists()
            continue
        assert toml.endswith(f'requirement = "cardgen=={__version__}"\nworld = "{world}"\n'), toml
        assert installed == [f"cardgen=={__version__}", world]
        assert (project / ".cardgen" / world_wheel.name).read_bytes() == b"the fonts"
        assert "`[cardgen] world`" in (project / "README.md").read_text(encoding="utf-8")
    # The fonts not installed here: the version, and a warning saying what to check.
    origin.origin.cache_clear()
    monkeypatch.setattr(origin, "_distribution", lambda name="cardgen": None)
    result = run("init", "bare", "--lang", "ja")
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        'warning: cardgen-world is not installed here (pip install "cardgen[world]"): check [cardgen] world in '
        "cardgen.toml names where the workflow finds it before pushing\n"
    )
    assert _what_the_workflow_installs(tmp_path / "bare")[1] == f"cardgen-world=={__version__}"
    origin.origin.cache_clear()
    # A cardgen named on the command line: the fonts at this version, and a warning to check them.
    result = run("init", "given", "--lang", "fa", "--requirement", "cardgen==9.9")
    assert result.exit_code == 0, result.output
    assert result.stderr == (
        "warning: the game's languages (fa) need cardgen-world: check that [cardgen] world in cardgen.toml names "
        "the one that goes with [cardgen] requirement\n"
    )
    assert _what_the_workflow_installs(tmp_path / "given") == ["cardgen==9.9", f"cardgen-world=={__version__}"]
