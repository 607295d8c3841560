"""Issue 23, hole 1: a pull request's own configuration cannot decide its verdict.

The base commit holds a one-paper catalogue, `[tool.curator]` and rules/ (archived
repositories are errors). The pull request adds a paper whose arXiv ID does not exist
(the arXiv double answers "not found"), whose code repository is archived and whose website
is gone, and plants something in pyproject.toml, rules/ or .gitattributes that would
hide one of the three. Pull-request mode reads its settings and rules from the base: the
run fails with all three errors, and each planted configuration change is itself reported
(`config-changed`) at the file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github import TOKEN, GithubDouble
from tests.doubles.server import LoopbackServer

KNOWN = "MemoryBank: Enhancing Large Language Models with Long-Term Memory"
BASE_PAPERS = f'section: A\npapers:\n  - title: "{KNOWN}"\n    arxiv: "2305.10250"\n'
BASE_PYPROJECT = "[project]\nname = 'a-list'\n\n[tool.curator]\narxiv_delay = 0\n"
STRICT = "archived: error\n"
LINKS = "ignore:\n  hosts: [unrelated.example]\n"
LAX_LINKS = "ignore:\n  prefixes: ['http://127.0.0.1']\n"


def planted_paper(web: str) -> str:
    """The pull request's paper: unknown arXiv ID, archived code repository, gone website."""
    return (
        '  - title: "Planted"\n    arxiv: "2501.99999"\n'
        "    code: https://github.com/o/archived\n"
        f"    links:\n      - {{role: website, url: '{web}/gone'}}\n"
    )


def git(cwd: Path, *args: str) -> str:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    done = subprocess.run(["git", *ident, *args], cwd=cwd, check=True, capture_output=True)
    return done.stdout.decode().strip()


@dataclass
class World:
    """The repository (working folder) and the loopback services."""

    root: Path
    server: LoopbackServer
    arxiv: ArxivDouble
    base: str = ""

    def write(self, name: str, text: str) -> None:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def commit(self, message: str) -> str:
        git(self.root, "add", "-A")
        git(self.root, "commit", "-qm", message)
        return git(self.root, "rev-parse", "HEAD")

    def pull_request(self, plant: Callable[[World], None] | None = None) -> None:
        """Commit the pull request: the planted paper, then whatever `plant` changes."""
        self.write("data/papers.yaml", BASE_PAPERS + planted_paper(self.server.url))
        if plant is not None:
            plant(self)
        self.commit("pull request")

    def check(self, *extra: str) -> tuple[int, dict[str, Any], str]:
        """`curator check data --changed-since BASE` (JSON): status, report, stderr."""
        out = self.root.parent / "report.json"
        out.unlink(missing_ok=True)
        status = main(["check", "data", "--changed-since", self.base, "--format", "json",
                       "--output", str(out), *extra])  # fmt: skip
        report = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {}
        return status, report, ""


@pytest.fixture
def world(
    tmp_path: Path, loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[World]:
    """The base commit (catalogue, [tool.curator], strict rules) and the doubles."""
    root = tmp_path / "list"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    arxiv = ArxivDouble()
    url = arxiv.install(loopback)
    arxiv.papers["2305.10250"] = Paper("2305.10250", KNOWN)
    github = GithubDouble(loopback, token=TOKEN)
    github.add("o/archived", archived=True, license="MIT", pushed_at="2026-11-01T00:00:00Z")
    for key, value in {
        "CURATOR_ARXIV_API_URL": url,
        "GITHUB_API_URL": github.api_url,
        "GITHUB_GRAPHQL_URL": github.graphql_url,
        "GITHUB_TOKEN": TOKEN,
        "CURATOR_ALLOW_PRIVATE_HOSTS": "1",  # the website double is on loopback
    }.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(root)
    w = World(root, loopback, arxiv)
    w.write("data/papers.yaml", BASE_PAPERS)
    w.write("pyproject.toml", BASE_PYPROJECT)
    w.write("rules/projects.yaml", STRICT)
    w.write("rules/links.yaml", LINKS)
    w.base = w.commit("base")
    yield w


def errors(report: dict[str, Any]) -> set[str]:
    """The codes of every error of the report."""
    return {f["code"] for f in report.get("findings", []) if f["severity"] == "error"}


def changed_config(report: dict[str, Any]) -> set[str]:
    """The files of every `config-changed` finding."""
    return {f["source"]["file"] for f in report["findings"] if f["code"] == "config-changed"}


PLANTED = {"arxiv-not-found", "repo-archived", "link-broken"}


def _pyproject(*lines: str) -> Callable[[World], None]:
    def plant(w: World) -> None:
        w.write("pyproject.toml", BASE_PYPROJECT + "".join(f"{line}\n" for line in lines))

    return plant


def _lax_folder(w: World) -> None:
    w.write("lax/projects.yaml", "archived: off\n")
    w.write("lax/links.yaml", LAX_LINKS)


def _other_list(w: World) -> None:
    w.write("other/papers.yaml", BASE_PAPERS)


def _rules_dir(w: World) -> None:
    _lax_folder(w)
    _pyproject('rules_dir = "lax"')(w)


def _symlink(w: World) -> None:
    _lax_folder(w)
    (w.root / "rules" / "projects.yaml").unlink()
    os.symlink("../lax/projects.yaml", w.root / "rules" / "projects.yaml")


def _paths(w: World) -> None:
    _other_list(w)
    _pyproject('paths = ["other"]')(w)


SEVERITY = (
    'severity = {"arxiv-not-found" = "info", "repo-archived" = "info", "link-broken" = "info"}'
)
#: name -> (the plant, the files a maintainer is told changed)
PLANTS: dict[str, tuple[Callable[[World], None], set[str]]] = {
    "severity": (_pyproject(SEVERITY), {"pyproject.toml"}),
    "timeout": (_pyproject("timeout = 0"), {"pyproject.toml"}),
    "service-budget": (_pyproject("service_budget = 0"), {"pyproject.toml"}),
    "paths": (_paths, {"pyproject.toml"}),
    "skip": (_pyproject('skip = ["arxiv", "github", "web"]'), {"pyproject.toml"}),
    "offline": (_pyproject("offline = true"), {"pyproject.toml"}),
    "fail-on": (_pyproject('fail_on = "never"'), {"pyproject.toml"}),
    "rules-ignore-list": (lambda w: w.write("rules/links.yaml", LAX_LINKS), {"rules/links.yaml"}),
    "rules-severity": (
        lambda w: w.write("rules/projects.yaml", "archived: off\n"),
        {"rules/projects.yaml"},
    ),
    "rules-deleted": (
        lambda w: (w.root / "rules" / "projects.yaml").unlink(),
        {"rules/projects.yaml"},
    ),
    "rules-dir-moved": (_rules_dir, {"pyproject.toml"}),
    "rules-symlink": (_symlink, {"rules/projects.yaml"}),
    "gitattributes": (lambda w: w.write(".gitattributes", "*.yaml -diff\n"), set()),
    # Issue 32: the list's settings file is read from the base too.
    "settings-off": (
        lambda w: w.write(
            "rules/curator.yaml",
            "severity:\n" + "".join(f"  {code}: off\n" for code in sorted(PLANTED)),
        ),
        {"rules/curator.yaml"},
    ),
    "settings-skip": (
        lambda w: w.write("rules/curator.yaml", "skip: [arxiv, github, web]\nfail_on: never\n"),
        {"rules/curator.yaml"},
    ),
    "settings-rules-dir": (
        lambda w: (_lax_folder(w), w.write("rules/curator.yaml", "rules_dir: lax\n")),
        {"rules/curator.yaml"},
    ),
}


def _everything(w: World) -> None:
    _lax_folder(w)
    _other_list(w)
    w.write(".gitattributes", "*.yaml -diff\n* binary\n")
    shutil.rmtree(w.root / "rules", ignore_errors=True)
    w.write("rules/links.yaml", LAX_LINKS)
    _pyproject(SEVERITY, "timeout = 0", "service_budget = 0", 'paths = ["other"]',
               'skip = ["arxiv", "github", "web"]', "offline = true", 'fail_on = "never"',
               'rules_dir = "lax"')(w)  # fmt: skip


PLANTS["all-together"] = (
    _everything,
    {"pyproject.toml", "rules/links.yaml", "rules/projects.yaml"},
)


@pytest.mark.parametrize("name", list(PLANTS))
def test_the_pull_requests_configuration_decides_nothing(world: World, name: str) -> None:
    plant, reported = PLANTS[name]
    world.pull_request(plant)
    status, report, _ = world.check()
    assert status == 1
    assert errors(report) >= PLANTED
    assert changed_config(report) == reported
    assert report["summary"]["entries"] == 1  # the planted paper, not the other list's


def test_the_settings_file_counts_when_the_rules_are_elsewhere(world: World) -> None:
    """The base's rules folder is another one (`rules_dir`): the top level's settings file is
    still the list's, and a pull request's change to it is shown as one."""
    world.write("lax/links.yaml", LINKS)
    world.write("pyproject.toml", BASE_PYPROJECT + 'rules_dir = "lax"\n')
    world.base = world.commit("rules elsewhere")
    world.pull_request(lambda w: w.write("rules/curator.yaml", "fail_on: never\n"))
    status, report, _ = world.check()
    assert status == 1 and changed_config(report) == {"rules/curator.yaml"}
    (found,) = [f for f in report["findings"] if f["code"] == "config-changed"]
    assert "adds the settings file rules/curator.yaml" in found["message"]


def test_an_unplanted_pull_request_reports_no_configuration_change(world: World) -> None:
    world.pull_request()
    status, report, _ = world.check()
    assert (status, errors(report), changed_config(report)) == (1, PLANTED, set())


def test_the_diff_of_a_changed_setting_is_the_evidence(world: World) -> None:
    world.pull_request(_pyproject(SEVERITY))
    _, report, _ = world.check()
    (found,) = [f for f in report["findings"] if f["code"] == "config-changed"]
    assert found["severity"] == "warning"
    assert found["source"] == {"file": "pyproject.toml", "line": 6}
    assert '+severity = {"arxiv-not-found" = "info"' in found["evidence"]
    assert "severity" in found["message"]


def test_a_setting_the_base_changes_still_counts(world: World) -> None:
    """The base's own [tool.curator] decides: its severity map applies to the run."""
    world.write("pyproject.toml", BASE_PYPROJECT + 'severity = {"config-changed" = "error"}\n')
    world.base = world.commit("stricter base")
    world.pull_request(_pyproject("timeout = 0"))
    _, report, _ = world.check()
    assert "config-changed" in errors(report)


def test_the_command_line_still_decides(world: World) -> None:
    """Only the workflow's inputs (command line, environment) sit above the base's settings."""
    world.pull_request()
    status, report, _ = world.check("--skip", "arxiv,github,web", "--fail-on", "never")
    assert (status, errors(report)) == (0, set())


def test_a_first_pull_request_adding_configuration(
    tmp_path: Path, loopback: LoopbackServer, world: World
) -> None:
    """A base with no [tool.curator] and no rules/: defaults decide, the new files are
    reported."""
    shutil.rmtree(world.root / "rules")
    world.write("pyproject.toml", "[project]\nname = 'a-list'\n")
    world.base = world.commit("no configuration")
    world.pull_request(_everything)
    status, report, _ = world.check()
    assert status == 1
    assert {"arxiv-not-found", "link-broken"} <= errors(report)  # archived: default warning
    assert changed_config(report) == {"pyproject.toml", "rules/links.yaml"}


def test_a_cache_committed_by_the_pull_request_is_not_read(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no CURATOR_CACHE the cache lives in the tree: one the pull request commits
    (saying the unknown paper exists) is not used."""
    monkeypatch.delenv("CURATOR_CACHE")
    world.arxiv.papers["2501.99999"] = Paper("2501.99999", "Planted")
    world.write("data/papers.yaml", BASE_PAPERS + planted_paper(world.server.url))
    assert main(["check", "data", "--skip", "github,web,scope", "--format", "json",
                 "--output", str(world.root.parent / "x.json")]) == 0  # fmt: skip
    assert (world.root / ".curator" / "cache.sqlite").is_file()
    del world.arxiv.papers["2501.99999"]
    git(world.root, "add", "-f", ".curator/cache.sqlite")
    world.pull_request()
    status, report, _ = world.check()
    assert status == 1 and "arxiv-not-found" in errors(report)
    assert any("cache" in note and "not used" in note for note in report["notes"])


def test_the_workflows_rules_folder_is_read_from_the_base(world: World) -> None:
    """`--rules DIR` inside the repository names a folder; its files come from the base."""
    world.pull_request(PLANTS["rules-severity"][0])
    status, report, _ = world.check("--rules", "rules")
    assert (status, errors(report) >= PLANTED) == (1, True)
    assert changed_config(report) == {"rules/projects.yaml"}


def test_a_rules_folder_outside_the_repository_is_the_workflows_own(
    world: World, tmp_path: Path
) -> None:
    """A folder outside the checked tree can only come from the workflow: read from disk."""
    own = tmp_path / "trusted-rules"
    own.mkdir()
    (own / "projects.yaml").write_text("archived: off\n", encoding="utf-8")
    world.pull_request()
    status, report, _ = world.check("--rules", str(own))
    assert status == 1
    assert errors(report) == {"arxiv-not-found", "link-broken"}
    assert changed_config(report) == set()


def test_the_mode_named_in_the_trees_own_settings_reads_the_base_too(world: World) -> None:
    """`changed_since` in the working tree's [tool.curator] is pull-request mode as well."""
    world.pull_request(_pyproject(SEVERITY, f'changed_since = "{world.base}"'))
    out = world.root.parent / "report.json"
    status = main(["check", "data", "--format", "json", "--output", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    assert status == 1 and errors(report) >= PLANTED
    assert changed_config(report) == {"pyproject.toml"}


def test_a_pyproject_no_parser_can_read_is_a_change_not_a_crash(world: World) -> None:
    """The pull request's own file is only compared: nesting past the parser's limit, or
    bytes that are no UTF-8, make a config-changed finding, never a traceback."""
    deep = "[tool.curator]\nx = " + "[" * 100_000 + "]" * 100_000 + "\n"
    world.pull_request(lambda w: w.write("pyproject.toml", deep))
    status, report, _ = world.check()
    assert status == 1 and errors(report) >= PLANTED
    assert changed_config(report) == {"pyproject.toml"}


def test_a_cache_committed_by_the_pull_request_is_not_read_by_the_title_search(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`check --suggest` asks arXiv's title search about an entry whose ID does not exist; a
    cache the pull request commits (saying its title is another paper's, of its choosing) is
    no more read by that search than by the check itself."""
    monkeypatch.delenv("CURATOR_CACHE", raising=False)
    title = "Planted Memory for Language Agents"
    chosen = "2501.88888"
    paper = f'  - title: "{title}"\n    arxiv: "2501.99999"\n'
    world.arxiv.papers[chosen] = Paper(chosen, title)
    world.write("data/papers.yaml", BASE_PAPERS + paper)
    assert main(["check", "data", "--skip", "github,web,scope", "--suggest", "--format",
                 "json", "--output", str(world.root.parent / "x.json")]) == 1  # fmt: skip
    del world.arxiv.papers[chosen]
    git(world.root, "add", "-f", ".curator/cache.sqlite")
    world.commit("pull request")
    status, report, _ = world.check("--skip", "github,web,scope", "--suggest")
    (found,) = [f for f in report["findings"] if f["code"] == "arxiv-not-found"]
    assert status == 1 and chosen not in found.get("suggestion", "") + found.get("evidence", "")
    assert world.arxiv.searches, "the title search asks arXiv itself"


@pytest.mark.parametrize(
    "text", ['tool = "x"\n', "tool = 1\n", "[[tool]]\ncurator = 2\n", "[tool]\ncurator = 3\n"]
)
def test_a_pyproject_whose_tool_is_no_table_is_a_change_not_a_crash(
    world: World, text: str
) -> None:
    """`tool` (or `tool.curator`) as a string, a number or an array of tables: the pull
    request's file is compared, never walked as if it held the table."""
    world.pull_request(lambda w: w.write("pyproject.toml", text))
    status, report, _ = world.check()
    assert status == 1 and errors(report) >= PLANTED
    assert changed_config(report) == {"pyproject.toml"}


def test_a_rules_file_linked_in_the_base_and_unchanged_is_no_change(world: World) -> None:
    world.write("shared/links.yaml", LINKS)
    (world.root / "rules" / "links.yaml").unlink()
    os.symlink("../shared/links.yaml", world.root / "rules" / "links.yaml")
    world.base = world.commit("rules shared through a link")
    world.pull_request()
    status, report, _ = world.check()
    assert (status, errors(report), changed_config(report)) == (1, PLANTED, set())


def test_a_rules_folder_linked_out_of_the_tree_names_none_of_its_files(
    world: World, tmp_path: Path
) -> None:
    """The pull request replaces rules/ by a link to a folder outside the repository: the
    folder's file names stay out of the report, as its contents do."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret-token-name.json").write_text("{}", encoding="utf-8")

    def plant(w: World) -> None:
        shutil.rmtree(w.root / "rules")
        os.symlink(outside, w.root / "rules")

    world.pull_request(plant)
    status, report, _ = world.check()
    assert status == 1 and errors(report) >= PLANTED
    assert "secret-token-name" not in json.dumps(report)


def test_a_rules_file_named_with_a_line_break_is_a_change_not_a_stop(world: World) -> None:
    world.pull_request(lambda w: w.write("rules/a\nb.yaml", "archived: off\n"))
    status, report, _ = world.check()
    assert status == 1 and errors(report) >= PLANTED
    assert changed_config(report) == {"rules/a\nb.yaml"}
