"""No import climbs back up a layer: what reads and asks the world knows nothing of what judges.

Sources, resolvers, rule files and the values below them (context, model, located YAML) import
nothing from checks, scope, report, publish, the pipeline or the CLI; the CLI is the only
layer that exits, so nothing else imports it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CURATOR = Path(__file__).resolve().parents[2] / "curator"
ABOVE = ("checks", "scope", "report", "publish", "pipeline", "cli", "discover", "tools")
LOW = (
    "sources",
    "resolvers",
    "context.py",
    "located_yaml.py",
    "yaml_tree.py",
    "json_text.py",
    "model.py",
    "codes.py",
)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every `curator.*` import outside `if TYPE_CHECKING:` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in ast.walk(block)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return [(line, m) for line, m in found if m.startswith("curator.")]


def _files(*names: str) -> list[Path]:
    out: list[Path] = []
    for name in names:
        target = CURATOR / name
        out += sorted(target.rglob("*.py")) if target.is_dir() else [target]
    return out


@pytest.mark.parametrize("path", _files(*LOW), ids=lambda p: str(p.relative_to(CURATOR)))
def test_low_layers_import_nothing_above_them(path: Path) -> None:
    climbs = [
        f"{path.name}:{line} imports {module}"
        for line, module in _imports(path)
        if module.split(".")[1] in {a.removesuffix(".py") for a in ABOVE}
    ]
    assert climbs == []


def test_only_entry_points_import_the_cli() -> None:
    entry = {CURATOR / "__main__.py", CURATOR / "scope" / "evaluate.py"}
    users = [
        f"{path.relative_to(CURATOR)}:{line}"
        for path in _files(".")
        if path not in entry and "cli" not in path.relative_to(CURATOR).parts
        for line, module in _imports(path)
        if module == "curator.cli" or module.startswith("curator.cli.")
    ]
    assert users == []
