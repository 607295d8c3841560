"""The layers of curator, read off the tree: no import climbs up a layer, and no import cycle.

LAYERS lists every package and root module of curator/, lowest first. A module may import its
own layer and the layers below it, never one above: every import counts, at module level, in a
function or under `if TYPE_CHECKING:` (a type-only import is still a dependency). There is no
allow-list. Independently, the modules import one another without a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

CURATOR = Path(__file__).resolve().parents[2] / "curator"

#: Lowest first. `curator` is the package's own __init__ (its version); presets and templates
#: are data the code above reads.
LAYERS = (
    "curator",
    "presets",
    "templates",
    "core",  # the values every layer passes on, codes, errors, subjects
    "textio",  # text, JSON, located YAML, git
    "console",  # escaping, the terminal, live progress
    "config",  # options, config files, the check context, the rule-file parsers
    "net",  # the one HTTP policy, the SSRF guard, the SQLite cache
    "sources",  # catalogue and documents → entries
    "resolvers",  # arXiv, GitHub, the web → outcomes
    "checks",  # pure findings
    "scope",  # the scope engine
    "run",  # the rules folder, the registries, the pipeline
    "lab",  # the scope scorer trained and measured offline (scope train, scope evaluate)
    "fix",  # the fixes of a user's files
    "report",  # the renderers
    "publish",  # GitHub comments, reviews, the local preview, the audit issue, fix pull requests
    "discover",  # new papers
    "tools",  # import, render, init
    "cli",  # the only layer that exits
    "__main__",
)


def _module(path: Path) -> str:
    parts = path.relative_to(CURATOR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in sorted(CURATOR.rglob("*.py"))}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "curator"


def _imported(node: ast.AST) -> Iterator[str]:
    """The curator modules one import statement reads (`from curator.pkg import mod` reads
    the module curator.pkg.mod; `from curator.mod import name` reads curator.mod)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        names = [
            f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
            for a in node.names
        ]
    else:
        return
    for name in names:
        parts = name.split(".")
        # The longest prefix that is a module (`import curator.a.b` names curator.a.b).
        found = next(
            (
                ".".join(parts[:i])
                for i in range(len(parts), 0, -1)
                if ".".join(parts[:i]) in MODULES
            ),
            None,
        )
        if found is not None:
            yield found


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every curator import in the file: top level, in functions, typing only."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted({(node.lineno, m) for node in ast.walk(tree) for m in _imported(node)})


GRAPH = {
    module: {target for _, target in _imports(path) if target != module}
    for module, path in MODULES.items()
}


def test_every_package_and_root_module_has_a_layer() -> None:
    present = {_layer(m) for m in MODULES} | {"curator"}
    assert sorted(present - set(LAYERS)) == []
    assert sorted(set(LAYERS) - present) == []
    assert len(set(LAYERS)) == len(LAYERS)


@pytest.mark.parametrize("module", sorted(MODULES), ids=str)
def test_no_import_climbs_a_layer(module: str) -> None:
    rank = LAYERS.index(_layer(module))
    climbs = [
        f"{module}:{line} imports {target} ({_layer(target)} is above {_layer(module)})"
        for line, target in _imports(MODULES[module])
        if LAYERS.index(_layer(target)) > rank
    ]
    assert climbs == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle() -> None:
    assert _cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    # The assertion above cannot pass vacuously: a type-only cycle of two modules is found.
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
