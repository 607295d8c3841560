"""Rules per list: --rules, rules/ beside the list, the root's, the shipped scope preset, and
the "scope not checked" note when no scope policy applies."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from curator.cli import main
from curator.config.options import Options
from curator.run.rules import Rules, read_rules_folder, rules_folder

ROOT = Path(__file__).resolve().parents[2]
ENTRY = 'section: A\npapers:\n  - {title: "MemGPT", arxiv: "2310.08560", date: "2023-10-12"}\n'


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A list repository (git-less, with a pyproject root) holding lists/a/data/p.yaml."""
    (tmp_path / "pyproject.toml").write_text("[tool.curator]\n")
    data = tmp_path / "lists" / "a" / "data"
    data.mkdir(parents=True)
    (data / "p.yaml").write_text(ENTRY)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def options(root: Path, **values: object) -> Options:
    return Options(root=str(root), **values)  # type: ignore[arg-type]


def test_rules_beside_the_list_then_the_root(repo: Path) -> None:
    """A rules/ next to the checked folder wins over the root's; --rules over both."""
    assert rules_folder(options(repo, paths=("lists/a/data",))) == repo / "rules"
    (repo / "lists" / "a" / "rules").mkdir()
    assert rules_folder(options(repo, paths=("lists/a/data",))) == repo / "lists" / "a" / "rules"
    assert rules_folder(options(repo, rules_dir="elsewhere")) == repo / "elsewhere"


def test_a_symlinked_rules_folder_leading_outside_is_not_used(repo: Path, tmp_path: Path) -> None:
    """A pull request cannot point rules/ at a folder outside the repository."""
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (repo / "lists" / "a" / "rules").symlink_to(outside)
    assert rules_folder(options(repo, paths=("lists/a/data",))) == repo / "rules"


def test_defaults_without_rules_and_scope_only_by_preset(repo: Path) -> None:
    """No rules/: link and repository rules are the shipped defaults, scope is absent."""
    rules = read_rules_folder(options(repo))
    assert rules.links is not None and rules.projects is not None and rules.scope is None
    preset = read_rules_folder(options(repo, scope_preset="iaar-ai-memory")).scope
    assert preset is not None
    assert preset.path == "scope preset iaar-ai-memory" and preset.gate.id == "gate-memory-word"
    assert preset.scorer is not None  # the preset's learned scorer ships beside it
    # The old name is an alias of the same policy.
    alias = read_rules_folder(options(repo, scope_preset="llm-memory")).scope
    assert alias is not None
    assert alias.path == "scope preset iaar-ai-memory" and alias.gate.hard


def test_the_rules_are_one_frozen_value_with_a_typed_part_per_file(repo: Path) -> None:
    """The loaded rules are a frozen Rules value, one attribute per rules file; a skipped
    service has none, and the run's loader is not named like the scope-file reader."""
    import dataclasses

    import curator.run.rules as run_rules
    from curator.config.links import LinkRules
    from curator.config.projects import ProjectRules
    from curator.core.model import Service

    (repo / "rules").mkdir()
    (repo / "rules" / "scope-decisions.yaml").write_text(
        "- {id: arxiv:2310.08560, decision: include, by: '@me'}\n"
    )
    rules = read_rules_folder(options(repo))
    assert isinstance(rules, Rules)
    assert isinstance(rules.links, LinkRules) and isinstance(rules.projects, ProjectRules)
    assert list(rules.scope_decisions) == ["arxiv:2310.08560"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.scope = None  # type: ignore[misc]
    skipped = read_rules_folder(
        options(repo, skip=frozenset({Service.WEB, Service.GITHUB, Service.SCOPE}))
    )
    assert skipped == Rules()
    assert not hasattr(run_rules, "load_rules")


def test_the_preset_is_this_lists_policy() -> None:
    """The shipped iaar-ai-memory preset is this repository's rules/scope.yaml, word for word."""
    shipped = (ROOT / "curator" / "presets" / "iaar-ai-memory.yaml").read_text(encoding="utf-8")
    assert shipped == (ROOT / "rules" / "scope.yaml").read_text(encoding="utf-8")
    scorer = ROOT / "curator" / "presets" / "scope-scorer.json"
    assert scorer.read_bytes() == (ROOT / "rules" / "scope-scorer.json").read_bytes()


def run_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    status = main(["check", *args, "--skip", "arxiv,github,web", "--format", "json"])
    out = capsys.readouterr().out
    assert status == 0, out
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_report_says_scope_not_checked(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No scope.yaml and no preset: a note, not silence; a preset or --rules folder checks."""
    notes = run_json(["lists/a/data"], capsys)["notes"]
    assert any(str(n).startswith("scope not checked: no scope.yaml in rules") for n in notes)
    with_preset = run_json(["lists/a/data", "--scope-preset", "llm-memory"], capsys)
    assert not any("scope not checked" in str(n) for n in with_preset["notes"])  # type: ignore[attr-defined]
    shutil.copytree(ROOT / "rules", repo / "mine")
    chosen = run_json(["lists/a/data", "--rules", "mine"], capsys)
    assert not any("scope not checked" in str(n) for n in chosen["notes"])  # type: ignore[attr-defined]
    assert main(["check", "lists/a/data", "--scope-preset", "nope"]) == 2
    assert "--scope-preset takes iaar-ai-memory, llm-memory" in capsys.readouterr().err


def test_audit_takes_check_options(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`curator audit --skip/--rules/--fail-on PATH` parses (an unknown skip is exit 2)."""
    assert main(["audit", "lists/a/data", "--repo", "a/b", "--skip", "nonsense"]) == 2
    assert "--skip takes names" in capsys.readouterr().err
