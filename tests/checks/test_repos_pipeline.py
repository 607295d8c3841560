"""The GitHub resolver and repository checks through the whole `curator check` pipeline."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from curator.config.options import Options
from curator.core.model import Service
from curator.resolvers.github import SLOW_NOTE
from curator.run import pipeline
from tests.doubles.github import TOKEN, GithubDouble
from tests.doubles.server import LoopbackServer

CATALOGUE = """\
section: Projects
projects:
  - name: "Alive"
    repo: "https://github.com/org/alive"
    category: "Layers"
    description: "Fine."
  - name: "Renamed"
    repo: "https://github.com/old/name"
    category: "Layers"
    description: "Moved."
  - name: "Gone"
    repo: "https://github.com/org/gone"
    category: "Layers"
    description: "Missing."
  - name: "Frozen"
    repo: "https://github.com/org/frozen"
    category: "Layers"
    description: "Archived."
"""


@pytest.mark.parametrize("token", [TOKEN, ""], ids=["graphql", "rest"])
def test_pipeline_reports_repository_findings(
    loopback: LoopbackServer, tmp_path: Path, token: str
) -> None:
    path = tmp_path / "projects.yaml"
    path.write_text(CATALOGUE, encoding="utf-8")
    double = GithubDouble(
        loopback,
        {"org/alive": {}, "old/name": {"renamed_to": "new/name"}, "org/frozen": {"archived": True}},
    )
    options = Options(
        paths=(str(path),),
        root=str(tmp_path),
        github_token=token,
        github_api_url=double.api_url,
        github_graphql_url=double.graphql_url,
        cache_path=str(tmp_path / "cache.sqlite"),
        skip=frozenset({Service.ARXIV, Service.WEB, Service.SCOPE}),
    )
    report = pipeline.check(options)
    assert sorted((f.code, f.subject, f.suggestion) for f in report.findings) == [
        ("repo-archived", "github:org/frozen", ""),
        ("repo-moved", "github:old/name", "https://github.com/new/name"),
        ("repo-not-found", "github:org/gone", ""),
    ]
    assert report.requests.github_graphql == (1 if token else 0)
    assert report.requests.github_rest == (0 if token else 5)  # the rename costs two
    assert (SLOW_NOTE in report.notes) is (not token)
    # Within the TTLs every answer comes from the cache ("not found" for ttl_not_found)...
    again = pipeline.check(options)
    assert again.requests.cache_hits == 4 and again.requests.total == 0
    assert len(again.findings) == 3
    # ...and once that short TTL has passed, only the missing repository is asked again.
    later = pipeline.check(replace(options, ttl_not_found=0.0))
    assert later.requests.cache_hits == 3 and later.requests.total == 1
    assert len(later.findings) == 3
