"""Shared fixtures: the repository's own decks, a small throwaway project, the CLI."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session", autouse=True)
def user_cache(tmp_path_factory) -> Path:
    """cardgen's per-user cache (cardgen/core/cache.py) in a folder of the test run's own, never the home's."""
    folder = tmp_path_factory.mktemp("xdg-cache")
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    yield folder / "cardgen"
    if saved is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = saved


@pytest.fixture
def mini(tmp_path) -> Path:
    """A copy of the two-card test game as a project folder; returns the project root."""
    shutil.copytree(FIXTURES / "mini", tmp_path / "project")
    return tmp_path / "project"


MINI_BACK = "#24466e"


def mini_project(root: Path, card_size: str = "poker") -> Path:
    """The mini game (seer x1, wolf x2) with a back colour and the given card size, as a project
    folder at root, so that a back can be told from a front by its pixels; on a round size its
    cards are tokens, as werewords' answer tokens are."""
    shutil.copytree(FIXTURES / "mini", root)
    game = root / "decks" / "mini" / "game.yaml"
    text = game.read_text(encoding="utf-8").replace("card-size: poker", f"card-size: {card_size}")
    if card_size.startswith("token-"):
        text = text.replace("  role: {en: Role, vi: Vai trò}", "  role: {name: {en: Role, vi: Vai trò}, layout: token}")
    game.write_text(text + f'back:\n  color: "{MINI_BACK}"\n', encoding="utf-8")
    return root


@pytest.fixture
def mini_here(mini: Path, tmp_path: Path, monkeypatch) -> Path:
    """The mini game as a project, with the working folder beside it (where a payload's files would land)."""
    monkeypatch.chdir(tmp_path)
    return mini


def game(project: Path) -> Path:
    """The mini game's folder of a project."""
    return project / "decks" / "mini"


def write(project: Path, name: str, text: str) -> Path:
    """A file of the mini game, its folders made."""
    path = game(project) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def digest(extra: tuple[str, ...] = (), roles: str = "") -> str:
    """The six hex digits a table's file names carry for the cards chosen with --with (`extra`) or
    --roles (a spec): of the SHA-256 of them sorted, whatever order they were named in."""
    chosen = [f"with:{card}" for card in sorted(extra)]
    if roles:
        counted = (part.partition(":") for part in roles.split(","))
        chosen += [f"roles:{card}:{n or 1}" for card, _, n in sorted(counted)]
    return hashlib.sha256(",".join(chosen).encode()).hexdigest()[:6]


def table(players: int, extra: tuple[str, ...] = (), roles: str = "", setup: str = "") -> str:
    """What a table's file names say of it (werewolf-script-en-<this>.pdf): `[<setup>-]<N>p[-<digest>]`,
    `setup` when it is not the game's first."""
    cards = f"-{digest(extra, roles)}" if extra or roles else ""
    return f"{setup}-{players}p{cards}" if setup else f"{players}p{cards}"


def run(*args: str):
    """Runs cardgen in-process; returns click's Result (exit_code, stdout, stderr)."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def copy_werewolf_box(decks: Path) -> Path:
    """The bundled Werewolf deck as the 31 cards of its box, copied into a decks folder:
    no player aids, rulebook or script, so that tests of the card sheets count only cards."""
    target = decks / "werewolf"
    shutil.copytree(ROOT / "decks" / "werewolf", target)
    for name in ("roles/player-aid.yaml", "rulebook.yaml", "script.yaml"):
        (target / name).unlink()
    return target


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A project holding the 31-card Werewolf box and nothing else, once per test module
    (modules that need another project define their own `project`)."""
    root = tmp_path_factory.mktemp("werewolf-project")
    copy_werewolf_box(root / "decks")
    return root


@pytest.fixture(scope="session")
def cards():
    """cards(game, lang, **build options) -> (Prepared, PDF bytes): a bundled game's card sheets,
    rendered in-process without the documents, once per session. One pipeline serves every
    option set (its options are swapped), so the fonts and the fitted texts are shared."""
    from cardgen.build import BuildOptions, Pipeline, check
    from cardgen.cards import render
    from cardgen.core.project import Project

    project = Project.at(ROOT / "decks")
    games = {files.id: files for files in check(project, [], strict=False)[0]}
    pipeline = Pipeline(project, BuildOptions())
    strings = project.template_data("strings.yaml")
    cache: dict = {}

    def get(game: str, lang: str, **options):
        key = (game, lang, tuple(sorted(options.items())))
        if key not in cache:
            pipeline.options = BuildOptions(**options)
            prepared, problems = pipeline.prepare(games[game], lang)
            assert prepared is not None, "\n".join(map(str, problems))
            render_options = render.RenderOptions(
                pipeline.options.ink_saver,
                project.template_data("sheet.yaml"),
                {**strings["en"], **strings.get(lang, {})},
                pipeline.options.back_offset,
            )
            cache[key] = (
                prepared,
                render.render_pdf(prepared.deck, prepared.pages, prepared.faces, prepared.book, render_options),
            )
        return cache[key]

    return get


def made_once(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder `make` fills, made once for the whole run: the first of pytest-xdist's workers to ask makes
    it, under a lock, and the others, waiting on the lock, read the same one."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's own temporary folder, which holds each worker's
    folder, done = base / f"once-{name}", base / f"once-{name}.done"
    with open(base / f"once-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def bundled(tmp_path_factory) -> Path:
    """Every bundled game built in every language with the default options, once for the run: the output
    folder (output/<game>/...), which tests read and never change."""

    def build(out: Path) -> None:
        result = run("build", "--decks", str(ROOT / "decks"), "--out", str(out))
        assert result.exit_code == 0, result.output + result.stderr

    return made_once(tmp_path_factory, "bundled", build)


@pytest.fixture
def night(tmp_path):
    """A copy of the small test game with a night (fixtures/night), shared by the night engine's and the
    setups' tests."""
    shutil.copytree(FIXTURES / "night", tmp_path / "project")
    return tmp_path / "project"
