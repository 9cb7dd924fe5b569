"""The shape of the code, read from its source (ast; nothing of cardgen is imported): the README's
"How it is built" table names every module and subpackage of cardgen/, no module imports its way into a
cycle, an output never imports another output, the documents (rulebook, script, narrator page) never
import each other, stage 3 (resolve) never imports stage 2 (validate), and every module says what it is
in a docstring and stays under 500 lines.

Imports are counted wherever they are written, in a function too (they run when it runs); only those
under ``if TYPE_CHECKING:`` are not, since they never run.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "cardgen"
MAX_LINES = 500


def _name(path: Path) -> str:
    """cardgen/deck/load.py → cardgen.deck.load; cardgen/deck/__init__.py → cardgen.deck."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(path): path for path in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in path.parts}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(node: ast.AST):
    """Every import statement under `node`, at any depth, but those under `if TYPE_CHECKING:`."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield from _import_nodes(ast.Module(body=[other], type_ignores=[]))
            continue
        yield from _import_nodes(child)


@cache
def imports(module: str) -> frozenset[str]:
    """The cardgen modules (or packages) `module` imports: `from cardgen.cards import art` is
    cardgen.cards.art, `from cardgen.build import check` is the package cardgen.build."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        for target in targets:
            # `import cardgen.deck.load` names the module; a name below a module is that module.
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target.startswith("cardgen") and target != module:
                found.add(target)
    return frozenset(found)


def _cycles() -> list[list[str]]:
    """The strongly connected groups of more than one module in the import graph (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(imports(module)):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(MODULES):
        if module not in index:
            visit(module)
    return groups


def _path_between(start: str, end: str, within: set[str]) -> list[str]:
    """One chain of imports from `start` to `end` through `within`, to show a cycle."""
    seen, queue = {start: [start]}, [start]
    while queue:
        module = queue.pop(0)
        for target in sorted(imports(module) & within):
            if target == end:
                return [*seen[module], end]
            if target not in seen:
                seen[target] = [*seen[module], target]
                queue.append(target)
    return []


def test_the_import_graph_is_read():
    """The reading itself: a module-level, a function-level and a package import are all seen."""
    assert "cardgen.core.contained" in imports("cardgen.documents.templating")
    assert {"cardgen.deck", "cardgen.core", "cardgen.build"} <= set(MODULES)
    assert any(imports(module) for module in MODULES if module.startswith("cardgen.build"))


def test_no_import_cycle():
    cycles = _cycles()
    shown = [
        " → ".join(_path_between(group[0], group[0], set(group)))
        + f"  (cycle of {len(group)}: "
        + ", ".join(group)
        + ")"
        for group in cycles
    ]
    assert not cycles, "import cycles:\n" + "\n".join(shown)


def _kin(folder: str, names: set[str] | None = None) -> list[str]:
    return sorted(
        module
        for module, path in MODULES.items()
        if path.parent == PACKAGE / folder and path.name != "__init__.py" and (names is None or path.stem in names)
    )


# Modules of outputs/ that are not outputs but helpers of them, which an output may import. None today:
# what the outputs share (one card a page, a game's decks by language) lives in cards/ and build/.
OUTPUT_HELPERS: set[str] = set()


@pytest.mark.parametrize("module", _kin("outputs"))
def test_an_output_imports_no_other_output(module):
    """Each output (exports, print services, PDF/X, TTS, the box, calibration, the preview, the site)
    stands on the pipeline, never on another output; what they share belongs below them."""
    others = sorted(target for target in imports(module) if target in _kin("outputs") and target not in OUTPUT_HELPERS)
    assert others == [], f"{module} imports {', '.join(others)}"


DOCUMENTS = {"rulebook", "script", "narrator"}


@pytest.mark.parametrize("module", _kin("documents", DOCUMENTS))
def test_a_document_imports_no_other_document(module):
    others = sorted(target for target in imports(module) if target in _kin("documents", DOCUMENTS))
    assert others == [], f"{module} imports {', '.join(others)}"


def test_resolve_does_not_import_validate():
    """Stage 3 takes stage 2's answer, not its helpers: what both need lives beside them."""
    assert "cardgen.deck.validate" not in imports("cardgen.deck.resolve")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_says_what_it_is_and_stays_short(module):
    path = MODULES[module]
    text = path.read_text(encoding="utf-8")
    assert ast.get_docstring(ast.parse(text)), f"{path.relative_to(ROOT)} has no docstring"
    lines = len(text.splitlines())
    assert lines < MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines ({MAX_LINES} at most)"


def _readme_table() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## How it is built\n", 1)[1].split("\n## ", 1)[0]
    return "\n".join(line for line in section.splitlines() if line.startswith("|"))


def test_the_readme_table_names_every_module_and_subpackage():
    """Each module as `cardgen/<folder>/<module>.py`, each subpackage as `cardgen/<folder>/`; the command
    line's package is named as a folder only (a module per command). A package's __init__.py is its folder."""
    table = _readme_table()
    named = set(re.findall(r"`(cardgen/[^`\s]*)`", table))
    folders = sorted({path.parent for path in MODULES.values() if path.parent != PACKAGE})
    missing = [
        f"{folder.relative_to(ROOT).as_posix()}/"
        for folder in folders
        if f"{folder.relative_to(ROOT).as_posix()}/" not in named
    ]
    for path in MODULES.values():
        shown = path.relative_to(ROOT).as_posix()
        whole_folder = path.parent == PACKAGE / "cli" or (shown == "cardgen/cli.py" and "cardgen/cli/" in named)
        if (path.name == "__init__.py" and path.parent != PACKAGE) or whole_folder:
            continue
        if shown not in named:
            missing.append(shown)
    assert missing == [], 'not in the README\'s "How it is built" table: ' + ", ".join(missing)
    # A folder named is there when the package is, or (while a module becomes a package) the module.
    gone = sorted(
        name
        for name in named
        if not (ROOT / name).exists() and not (name.endswith("/") and (ROOT / f"{name[:-1]}.py").exists())
    )
    assert gone == [], "the README's table names what is not there: " + ", ".join(gone)
