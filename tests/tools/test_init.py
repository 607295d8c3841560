"""`curator init`: the workflows pinned to one commit of curator's Action, the starter rules,
no overwriting unless forced; this repository's own workflows are the same files."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from curator import __version__
from curator.cli import main
from curator.tools.init import WORKFLOWS, render_workflows
from tests.doubles.github_issues import FakeGitHub
from tests.doubles.server import LoopbackServer
from tests.workflows.test_workflows import SELF, zizmor

ROOT = Path(__file__).resolve().parents[2]
SHA = "3f1c2b4a5d6e7f8091a2b3c4d5e6f708192a3b4c"
ACTION = "curator/curator/.github/actions/curator"


@pytest.fixture
def fake(loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch) -> FakeGitHub:
    double = FakeGitHub(loopback)
    monkeypatch.setenv("GITHUB_API_URL", double.api)
    return double


def readme_list(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README.md").write_text(
        "# Awesome memory\n\n- [MemGPT](https://arxiv.org/abs/2310.08560)\n"
    )
    return folder


def test_writes_workflows_pinned_and_starter_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A README list: three workflows that check README.md with the Action at the commit."""
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo), "--ref", SHA, "--scope-preset", "llm-memory"]) == 0
    out = capsys.readouterr().out
    for name in WORKFLOWS:
        assert f"wrote .github/workflows/{name}" in out
    pr = yaml.safe_load((repo / ".github/workflows/curator-pr.yml").read_text())
    step = pr["jobs"]["check"]["steps"][-1]
    assert step == {
        "uses": f"{ACTION}@{SHA}",
        "with": {"mode": "pr", "paths": "README.md", "scope-preset": "llm-memory"},
    }
    assert sorted(p.name for p in (repo / "rules").iterdir()) == ["links.yaml", "projects.yaml"]
    # The check to run on this machine carries the preset: nothing else records it locally.
    assert f"Next, in {repo}: run the check" in out
    assert "\n  curator check README.md --scope-preset llm-memory\n" in out
    assert "\n  git add .github/workflows rules && git commit" in out
    # The old name of the preset: init says whose policy it is.
    assert "IAAR-Shanghai/Awesome-AI-Memory's screening policy (2026-10-09)" in out


def test_init_without_a_preset_says_the_list_gets_no_scope_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo), "--ref", SHA]) == 0
    out = capsys.readouterr().out
    assert "no hard gate and no scope errors" in out and "IAAR" not in out


def test_default_ref_is_this_versions_tag_resolved_to_its_commit(
    tmp_path: Path, fake: FakeGitHub
) -> None:
    """Without --ref: the tag v<version>, asked of GitHub, written as `@commit # tag`."""
    fake.commits[f"v{__version__}"] = SHA
    repo = readme_list(tmp_path / "list")
    (repo / "data").mkdir()
    (repo / "data" / "papers.yaml").write_text("section: A\npapers: []\n")
    assert main(["init", str(repo)]) == 0
    text = (repo / ".github/workflows/curator-nightly.yml").read_text()
    assert f"uses: {ACTION}@{SHA} # v{__version__}\n" in text
    assert "paths: data\n" in text
    assert fake.server.received(f"/repos/curator/curator/commits/v{__version__}")


def test_an_unknown_ref_is_a_usage_error(
    tmp_path: Path, fake: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo), "--ref", "v9.9.9"]) == 2
    assert "cannot find the commit of 'v9.9.9'" in capsys.readouterr().err
    assert not (repo / ".github").exists()


def test_refuses_to_overwrite_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second init stops before writing anything; --force rewrites the files."""
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo), "--ref", SHA]) == 0
    (repo / "rules" / "links.yaml").write_text("allow: []\n")
    (repo / ".github/workflows/curator-pr.yml").write_text("edited\n")
    assert main(["init", str(repo), "--ref", SHA]) == 2
    assert "exist already (--force overwrites)" in capsys.readouterr().err
    assert (repo / ".github/workflows/curator-pr.yml").read_text() == "edited\n"
    assert main(["init", str(repo), "--ref", SHA, "--force"]) == 0
    assert (repo / ".github/workflows/curator-pr.yml").read_text() != "edited\n"


def test_existing_rules_are_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = readme_list(tmp_path / "list")
    (repo / "rules").mkdir()
    (repo / "rules" / "links.yaml").write_text("allow: []\n")
    assert main(["init", str(repo), "--ref", SHA]) == 0
    assert "kept rules/links.yaml" in capsys.readouterr().out
    assert (repo / "rules" / "links.yaml").read_text() == "allow: []\n"


def test_odd_inputs_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Inputs go into YAML as they are: only plain path characters."""
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo), "--ref", SHA, "--paths", "a: b"]) == 2
    assert main(["init", str(repo), "--ref", "not-a-sha\n"]) == 2
    assert main(["init", str(tmp_path / "empty"), "--ref", SHA]) == 2
    assert "no data/ catalogue and no README.md" in capsys.readouterr().err


def test_inits_workflows_are_zizmor_clean(tmp_path: Path) -> None:
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo), "--ref", SHA]) == 0
    out = zizmor(repo / ".github")
    assert out.returncode == 0, out.stdout + out.stderr


def test_this_repositorys_workflows_are_inits() -> None:
    """Dogfooding: curator's own workflows are what `curator init` writes for a data/ list,
    with the Action taken from this repository's commit; the nightly adds code scanning."""
    made = render_workflows(SELF, {"paths": "data"}, discover=True)
    for name, text in made.items():
        ours = (ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8")
        if name == "curator-nightly.yml":
            assert ours.startswith(text)
        else:
            assert ours == text


# -- issue 23, hole 6: never through a link, never over the list's own rules --------------------
def init_files(repo: Path) -> set[str]:
    """Every file and link under the list, relative to it."""
    return {p.relative_to(repo).as_posix() for p in repo.rglob("*") if not p.is_dir()}


@pytest.mark.parametrize(
    ("link", "points_to"),
    [
        (".github/workflows/curator-comment.yml", "outside/planted.yml"),  # dangling
        (".github", "outside"),  # the folder itself
        (".github/workflows", "outside"),
        ("rules", "outside"),
        ("rules/links.yaml", "outside/links.yaml"),  # dangling
    ],
)
@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
def test_refuses_to_write_through_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], link: str, points_to: str, force: bool
) -> None:
    """A link anywhere on the way to a file init writes: one line, exit 2, nothing written."""
    repo = readme_list(tmp_path / "list")
    outside = tmp_path / "outside"
    outside.mkdir()
    (repo / link).parent.mkdir(parents=True, exist_ok=True)
    (repo / link).symlink_to(tmp_path / points_to)
    before = init_files(repo)
    assert main(["init", str(repo), "--ref", SHA, *(["--force"] if force else [])]) == 2
    err = capsys.readouterr().err
    assert "refusing to write through a symbolic link" in err and len(err.splitlines()) == 1
    assert link in err
    assert list(outside.iterdir()) == []
    assert init_files(repo) == before


def test_force_never_replaces_a_rules_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--force rewrites curator's workflows, keeps the list's rules, and puts the starter
    beside them as NAME.example."""
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo), "--ref", SHA]) == 0
    (repo / "rules" / "links.yaml").write_text("ignore:\n  hosts: [mine.example]\n")
    (repo / ".github/workflows/curator-pr.yml").write_text("edited\n")
    capsys.readouterr()
    assert main(["init", str(repo), "--ref", SHA, "--force"]) == 0
    out = capsys.readouterr().out
    assert (repo / "rules" / "links.yaml").read_text() == "ignore:\n  hosts: [mine.example]\n"
    assert "kept rules/links.yaml (curator's starter: rules/links.yaml.example)" in out
    assert (repo / "rules" / "links.yaml.example").read_text().startswith("# Rules of curator's")
    assert (repo / ".github/workflows/curator-pr.yml").read_text() != "edited\n"


def test_a_force_over_a_linked_workflow_leaves_its_target_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo), "--ref", SHA]) == 0
    target = tmp_path / "elsewhere.yml"
    target.write_text("someone else's file\n")
    workflow = repo / ".github/workflows/curator-pr.yml"
    workflow.unlink()
    workflow.symlink_to(target)
    assert main(["init", str(repo), "--ref", SHA, "--force"]) == 2
    assert "curator-pr.yml: refusing to write through a symbolic link" in capsys.readouterr().err
    assert target.read_text() == "someone else's file\n"
