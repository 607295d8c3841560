"""The benchmark's generator (N=100): reproducible, the stated faults, both formats readable."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.run.pipeline import load
from tests.benchmarks.generate import (
    Catalogue,
    generate,
    planned_counts,
    render_readme,
    write_yaml,
)
from tests.benchmarks.measure import lychee_faults
from tests.benchmarks.services import arxiv_papers, github_repos

BASES = ["http://127.0.0.2:8001", "http://127.0.0.3:8002"]
#: The counts the benchmark's README states for N=100.
STATED_N100 = {
    "arxiv-not-found": 2,
    "arxiv-withdrawn": 1,
    "arxiv-title-mismatch": 2,
    "arxiv-date-mismatch": 2,
    "repo-not-found": 1,
    "repo-moved": 1,
    "repo-archived": 1,
    "repo-no-license": 1,
    "link-broken": 2,
}


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return generate(100, 7, BASES)


def test_same_seed_same_files(cat: Catalogue, tmp_path: Path) -> None:
    again = generate(100, 7, BASES)
    write_yaml(cat, tmp_path / "a")
    write_yaml(again, tmp_path / "b")
    for path in sorted((tmp_path / "a").rglob("*.yaml")):
        twin = tmp_path / "b" / path.relative_to(tmp_path / "a")
        assert path.read_text(encoding="utf-8") == twin.read_text(encoding="utf-8")
    assert render_readme(cat) == render_readme(again)
    assert render_readme(generate(100, 8, BASES)) != render_readme(cat)


def test_stated_fault_counts(cat: Catalogue) -> None:
    assert len(cat.papers) == 100
    assert len(cat.repos) == 20
    assert dict(cat.fault_counts()) == STATED_N100 == planned_counts(100)
    assert cat.added.fault == ""
    assert cat.added.arxiv_id not in {p.arxiv_id for p in cat.papers}


def test_yaml_and_readme_hold_the_same_entries(cat: Catalogue, tmp_path: Path) -> None:
    write_yaml(cat, tmp_path / "data")
    (tmp_path / "README.md").write_text(render_readme(cat), encoding="utf-8")
    from_yaml = load([str(tmp_path / "data")])
    from_readme = load([str(tmp_path / "README.md")])
    assert not from_yaml.findings
    assert not from_readme.findings
    subjects = {e.subject for e in from_yaml.entries}
    assert subjects == {e.subject for e in from_readme.entries}
    assert len(subjects) == 120
    linked = {s for e in from_readme.entries for s in e.subjects()}
    assert {subject for _, subject in cat.faults()} <= linked


def test_doubles_differ_from_the_list_at_the_faults(cat: Catalogue) -> None:
    papers = arxiv_papers(cat)
    repos = github_repos(cat)
    for spec in cat.papers:
        assert (spec.arxiv_id in papers) is (spec.fault != "arxiv-not-found")
        if spec.arxiv_id in papers:
            same_title = papers[spec.arxiv_id].title == spec.listed_title
            assert same_title is (spec.fault != "arxiv-title-mismatch")
            assert bool(papers[spec.arxiv_id].comment) is (spec.fault == "arxiv-withdrawn")
    for repo in cat.repos:
        assert (repo.name in repos) is (repo.fault != "repo-not-found")
        if repo.fault == "repo-moved":
            assert repos[repo.name] == {"renamed_to": repo.renamed_to}
            assert repo.renamed_to in repos
    assert cat.added.arxiv_id in papers


def test_lychee_faults_use_the_original_url() -> None:
    report = {
        "error_map": {
            "README.md": [
                {
                    "url": "http://127.0.0.1:9/abs/2507.10053",
                    "status": {"code": 404},
                    "remap": {"original": {"url": "https://arxiv.org/pdf/2507.10053v1"}},
                },
                {"url": "http://127.0.0.2:8001/site/p4", "status": {"code": 404}},
            ]
        }
    }
    assert lychee_faults(report) == {
        ("404", "arxiv:2507.10053"),
        ("404", "http://127.0.0.2:8001/site/p4"),
    }
