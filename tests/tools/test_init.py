"""`curator init`: the workflows pinned to one commit of curator's Action, the starter rules,
no overwriting unless forced; this repository's own workflows are the same files."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
import yaml

from curator import __version__
from curator.cli import main
from curator.tools.init import WORKFLOWS, detect_paths, render_workflows, trigger_paths
from tests.workflows.test_workflows import SELF, zizmor

ROOT = Path(__file__).resolve().parents[2]
SHA = "3f1c2b4a5d6e7f8091a2b3c4d5e6f708192a3b4c"
ACTION = "curator/curator/.github/actions/curator"


def readme_list(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README.md").write_text(
        "# Awesome memory\n\n- [MemGPT](https://arxiv.org/abs/2310.08560)\n"
    )
    return folder


def test_writes_workflows_pinned_and_starter_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A README list: workflows with the Action at the commit (this version as the comment
    Dependabot reads), the settings file holding the paths and the preset."""
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo), "--ref", SHA, "--scope-preset", "llm-memory"]) == 0
    out = capsys.readouterr().out
    for name in WORKFLOWS:
        assert f"wrote .github/workflows/{name}" in out
    text = (repo / ".github/workflows/curator-pr.yml").read_text()
    assert f"      - uses: {ACTION}@{SHA} # v{__version__}\n" in text
    pr = yaml.safe_load(text)
    assert pr["jobs"]["check"]["steps"][-1] == {"uses": f"{ACTION}@{SHA}", "with": {"mode": "pr"}}
    assert sorted(p.name for p in (repo / "rules").iterdir()) == [
        "curator.yaml", "links.yaml", "projects.yaml",
    ]  # fmt: skip
    settings = yaml.safe_load((repo / "rules" / "curator.yaml").read_text())
    assert settings == {"paths": ["README.md"], "scope_preset": "llm-memory"}
    assert f"Next, in {repo}: run the check" in out
    assert "\n  curator check\n" in out
    assert "\n  git add .github/workflows rules && git commit" in out
    # The old name of the preset: init says whose policy it is.
    assert "IAAR-Shanghai/Awesome-AI-Memory's screening policy (2026-10-09)" in out


def test_init_without_a_preset_says_the_list_gets_no_scope_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo), "--ref", SHA]) == 0
    out = capsys.readouterr().out
    assert "no hard gate: a new paper unlike the list" in out and "IAAR" not in out


def test_the_pull_request_workflow_runs_only_for_the_lists_files(tmp_path: Path) -> None:
    """Issue 32: `paths:` names the list's files, the rules (with the settings file) and
    pyproject.toml; a catalogue folder with everything below it."""
    repo = readme_list(tmp_path / "list")
    (repo / "data").mkdir()
    (repo / "data" / "papers.yaml").write_text("section: A\npapers: []\n")
    assert main(["init", str(repo), "--ref", SHA]) == 0
    pr = yaml.safe_load((repo / ".github/workflows/curator-pr.yml").read_text())
    assert pr[True] == {"pull_request": {"paths": ["data/**", "rules/**", "pyproject.toml"]}}
    nested = readme_list(tmp_path / "nested")
    (nested / "lists" / "x").mkdir(parents=True)
    (nested / "lists" / "x" / "README.md").write_text("# x\n")
    args = ["init", str(nested), "--ref", SHA, "--paths", "lists/x/README.md README.md"]
    assert main(args) == 0
    pr = yaml.safe_load((nested / ".github/workflows/curator-pr.yml").read_text())
    assert pr[True]["pull_request"]["paths"] == [
        "lists/x/README.md", "lists/x/rules/**", "README.md", "rules/**", "pyproject.toml",
    ]  # fmt: skip


def fake_install(folder: Path, direct_url: str) -> Path:
    """A dist-info of curator-lists as pip writes it, with PEP 610's direct_url.json."""
    info = folder / f"curator_lists-{__version__}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: curator-lists\nVersion: {__version__}\n"
    )
    (info / "direct_url.json").write_text(direct_url)
    return folder


def test_without_ref_init_pins_the_commit_pip_recorded_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Installed from a git URL: the commit pip recorded (PEP 610), `# vX.Y.Z` after it, and
    not one connection made (issue 32: init failed offline after 8.9 s)."""
    url = '{"url": "https://github.com/curator/curator.git", "vcs_info": {"vcs": "git", '
    url += f'"requested_revision": "v{__version__}", "commit_id": "{SHA}"}}}}'
    monkeypatch.syspath_prepend(str(fake_install(tmp_path / "site", url)))

    def no_network(*args: object) -> None:
        raise AssertionError("init must not connect anywhere")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo)]) == 0
    text = (repo / ".github/workflows/curator-nightly.yml").read_text()
    assert f"      - uses: {ACTION}@{SHA} # v{__version__}\n" in text
    assert "note:" not in capsys.readouterr().out
    assert zizmor(repo / ".github").returncode == 0


def test_without_a_known_commit_init_names_the_versions_tag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An editable or local install records no commit: the tag v<version>, a note saying how
    to pin a commit, and zizmor told why the tag is there (the workflows stay clean)."""
    url = '{"url": "file:///src/curator", "dir_info": {"editable": true}}'
    monkeypatch.syspath_prepend(str(fake_install(tmp_path / "site", url)))
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo)]) == 0
    text = (repo / ".github/workflows/curator-pr.yml").read_text()
    assert f"      - uses: {ACTION}@v{__version__} # zizmor: ignore[unpinned-uses]" in text
    assert "give --ref COMMIT to pin a commit" in capsys.readouterr().out
    out = zizmor(repo / ".github")
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_ref_may_be_a_tag_but_nothing_odd(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = readme_list(tmp_path / "list")
    assert main(["init", str(repo), "--ref", "v9.9.9"]) == 0
    assert (
        f"uses: {ACTION}@v9.9.9 # zizmor" in (repo / ".github/workflows/curator-pr.yml").read_text()
    )
    assert main(["init", str(repo), "--ref", "v1 # x", "--force"]) == 2
    assert "--ref 'v1 # x': a 40-hex commit, or a tag or branch name" in capsys.readouterr().err


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


@pytest.mark.slow
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
    made = render_workflows(SELF, {}, discover=True, triggers=trigger_paths(ROOT, "data"))
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


def github_glob(pattern: str) -> re.Pattern[str]:
    """A `paths:` filter pattern as GitHub matches it: `**` crosses folders, `*` does not."""
    parts = re.split(r"(\*\*/?|\*)", pattern)
    rx = "".join(
        ".*" if p.startswith("**") else "[^/]*" if p == "*" else re.escape(p) for p in parts
    )
    return re.compile(rx + r"\Z")


@pytest.mark.parametrize(
    ("layout", "changed", "runs"),
    [
        ("README.md", ["README.md"], True),
        ("README.md", ["rules/curator.yaml"], True),
        ("README.md", ["rules/links.yaml", ".github/workflows/ci.yml"], True),
        ("README.md", ["pyproject.toml"], True),
        ("README.md", [".github/workflows/curator-pr.yml"], False),
        ("README.md", ["docs/CONTRIBUTING.md", "LICENSE", "src/tool.py"], False),
        ("data", ["data/papers/methods.yaml"], True),
        ("data", ["README.md"], False),  # a catalogue list: the README is rendered from data/
    ],
)
def test_the_pull_request_workflow_skips_pull_requests_that_touch_no_list_file(
    tmp_path: Path, layout: str, changed: list[str], runs: bool
) -> None:
    """Issue 32: a pull request that touches only .github/ (or anything curator does not
    read) starts no curator job."""
    repo = readme_list(tmp_path / "list")
    if layout == "data":
        (repo / "data" / "papers").mkdir(parents=True)
        (repo / "data" / "papers" / "methods.yaml").write_text("section: A\npapers: []\n")
    assert main(["init", str(repo), "--ref", SHA]) == 0
    pr = yaml.safe_load((repo / ".github/workflows/curator-pr.yml").read_text())
    patterns = [github_glob(p) for p in pr[True]["pull_request"]["paths"]]
    assert any(p.match(name) for p in patterns for name in changed) is runs


KEYS = (
    "bot_walled|protected|ignore|hosts|prefixes|patterns|arxiv_links|form|version"
    "|license_required|archived|stale_days|min_stars"
    "|paths|scope_preset|skip|rules_dir|records_dir|date_tolerance_days|severity"
    "|repo-stale|link-redirect"
)


def uncommented(text: str) -> str:
    """A starter file with every example key uncommented, as a maintainer would."""
    return re.sub(rf"(?m)^# (\s*(?:{KEYS}):)", r"\1", text)


def test_every_starter_example_uncommented_is_read_as_it_says(tmp_path: Path) -> None:
    """Issue 32: uncommenting `bot_walled:` in the starter kept only the example's hosts, and
    OpenReview's 403s became link-broken. Every example of every starter file now reads as
    its comment says: lists added to the defaults, the settings file's keys all valid."""
    from curator.config.links import BOT_WALLED, parse_link_rules
    from curator.config.options import build
    from curator.config.projects import parse_project_rules
    from curator.tools.init import STARTER_RULES, settings_text

    links = parse_link_rules(uncommented(STARTER_RULES["links.yaml"]), "links.yaml")
    assert links.bot_walled == (*BOT_WALLED, "my-journal.example")
    assert links.is_bot_walled("openreview.net")
    assert {"github.com", "arxiv.org", "my-lab.example"} <= set(links.protected)
    assert links.ignores("https://example.com/x") and links.arxiv_form == "abs"
    assert parse_project_rules(uncommented(STARTER_RULES["projects.yaml"]), "projects.yaml")
    (tmp_path / "rules").mkdir()
    text = uncommented(settings_text("README.md", ""))
    assert "\npaths: [README.md]" in text and "\nscope_preset: iaar-ai-memory" in text
    assert "none by default" in settings_text("README.md", "")  # no preset unless chosen
    (tmp_path / "rules" / "curator.yaml").write_text(text)
    options = build({}, {}, tmp_path)
    assert options.scope_preset == "iaar-ai-memory" and options.silenced == {"link-redirect"}
    assert options.rules_dir == "rules" and options.date_tolerance_days == 7


@pytest.mark.parametrize("name", ["papers.yml", "PAPERS.YAML"])
def test_a_catalogue_is_found_by_the_readers_suffix_table(name: str, tmp_path: Path) -> None:
    """init finds data/ by the suffixes the catalogue reader reads (.yml too), not *.yaml alone."""
    (tmp_path / "data" / "a").mkdir(parents=True)
    (tmp_path / "data" / "a" / name).write_text("section: A\npapers: []\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# x\n", encoding="utf-8")
    assert detect_paths(tmp_path) == "data"
    (tmp_path / "data" / "a" / name).rename(tmp_path / "data" / "a" / "notes.txt")
    assert detect_paths(tmp_path) == "README.md"
