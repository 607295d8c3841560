"""The typed service records keep the cache's JSON and the report's metadata as they were."""

from __future__ import annotations

import json

from curator.core.meta import (
    PaperMeta,
    RepoMeta,
    WebMeta,
    meta_json,
    paper_meta,
    plain,
    repo_meta,
    web_meta,
)
from curator.core.outcomes import Found, Moved, describe

PAPER = {
    "id": "2305.10250", "version": 3, "url": "https://arxiv.org/abs/2305.10250",
    "title": "MemoryBank", "authors": ["A. Author", "B. Author"], "abstract": "We propose.",
    "published": "2023-05-17", "published_at": "2023-05-17T17:59:46Z",
    "updated": "2023-05-21T08:00:00Z", "primary_category": "cs.CL",
    "categories": ["cs.CL", "cs.AI"], "comment": "", "journal_ref": "AAAI 2024",
    "doi": "10.1609/aaai.v38i17.29946", "withdrawn": False,
}  # fmt: skip
REPO = {
    "name_with_owner": "Org/Tool", "url": "https://github.com/Org/Tool", "stars": 42,
    "forks": 7, "license": None, "archived": True, "disabled": False, "fork": False,
    "pushed_at": "2026-04-14T07:25:38Z", "default_branch": "main", "homepage": None,
    "description": "A tool",
}  # fmt: skip


def test_a_fresh_record_is_the_json_the_cache_keeps_in_its_order() -> None:
    paper = PaperMeta.from_cache(PAPER)
    assert paper.to_cache() == PAPER and list(paper.to_cache()) == list(PAPER)
    repo = RepoMeta.from_cache(REPO)
    assert repo.to_cache() == REPO and list(repo.to_cache()) == list(REPO)
    assert paper.authors == ("A. Author", "B. Author") and repo.license is None


def test_a_cached_row_shows_in_the_report_as_the_cache_held_it() -> None:
    # The cache writes sorted keys; the report of a cached run always showed them so.
    row = json.loads(json.dumps(PAPER, sort_keys=True))
    found = Found("arxiv:2305.10250", PaperMeta.from_cache(row))
    assert json.dumps(describe(found)) == json.dumps({"status": "found", **row})
    moved = Moved("github:org/tool", "https://github.com/Org/Tool", RepoMeta.from_cache(REPO))
    assert list(describe(moved)) == ["status", "new_url", *REPO]


def test_a_row_of_an_older_curator_keeps_its_keys_and_reads_as_empty() -> None:
    row = {"title": "Old", "version": "2", "authors": "not a list"}
    paper = PaperMeta.from_cache(row)
    assert (paper.title, paper.version, paper.authors, paper.withdrawn) == ("Old", 1, (), False)
    assert list(meta_json(paper)) == ["title", "version", "authors"]


def test_another_service_keeps_its_mapping() -> None:
    chain = {"chain": [[301, "https://a.example/"], [200, "https://b.example/"]]}
    assert meta_json(chain) == chain and plain(chain) is chain
    assert plain(PaperMeta()) == {} and paper_meta(chain) == PaperMeta()
    assert repo_meta(chain) == RepoMeta() and web_meta(PaperMeta()) == WebMeta()
    assert web_meta(chain).chain == ((301, "https://a.example/"), (200, "https://b.example/"))
    assert meta_json(web_meta(chain)) == chain  # only the keys the mapping had
    assert repo_meta({"license": "MIT"}).license == "MIT"
