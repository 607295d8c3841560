"""The real catalogue in data/: schema-valid, complete against the two sample lists and the seed."""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
import pytest
import yaml

from tests.conftest import ROOT, SAMPLES, SHARED

DATA = ROOT / "data"
IAAR = SAMPLES / "iaar-awesome-ai-memory.README.excerpt.md"
XIAOMINGX = SAMPLES / "xiaomingx-awesome-ai-memory.README.md"
MILESTONE_SEED = SHARED / "seeds" / "001_8ff067c849ec6d16.txt"

# The counts written into each file; a change to the catalogue must change these on purpose.
COUNTS = {
    "papers/survey.yaml": 25,
    "papers/methods.yaml": 13,
    "papers/systems.yaml": 3,
    "papers/benchmarks.yaml": 3,
    "projects.yaml": 109,
}
CATALOGUE = sorted(COUNTS)
MILESTONES = ["papers/methods.yaml", "papers/systems.yaml", "papers/benchmarks.yaml"]


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DATA / name).read_text("utf-8"))
    return data


def _items(name: str) -> list[dict[str, Any]]:
    data = _load(name)
    items: list[dict[str, Any]] = data.get("papers", data.get("projects", []))
    return items


def _all_papers() -> list[dict[str, Any]]:
    return [paper for name in CATALOGUE if name.startswith("papers/") for paper in _items(name)]


def _base_id(arxiv: str) -> str:
    """The arXiv ID without its version suffix."""
    return re.sub(r"v\d+$", "", arxiv)


def _repo_key(url: str) -> str:
    """owner/repo of a github.com URL, lower-case."""
    owner, repo = url.split("github.com/", 1)[1].split("/")[:2]
    return f"{owner}/{repo}".lower()


def test_catalogue_files_are_exactly_the_counted_ones() -> None:
    found = sorted(p.relative_to(DATA).as_posix() for p in DATA.rglob("*.yaml"))
    assert found == CATALOGUE


@pytest.mark.parametrize("name", CATALOGUE)
def test_file_is_valid_against_schema(name: str) -> None:
    schema = json.loads((DATA / "schema.json").read_text("utf-8"))
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(_load(name))]
    assert errors == []


@pytest.mark.parametrize("name", CATALOGUE)
def test_file_starts_with_schema_comment(name: str) -> None:
    first = (DATA / name).read_text("utf-8").splitlines()[0]
    schema_path = "../schema.json" if name.startswith("papers/") else "schema.json"
    assert first == f"# yaml-language-server: $schema={schema_path}"
    # The comment's relative path must point at the real schema file.
    assert ((DATA / name).parent / schema_path).resolve() == (DATA / "schema.json").resolve()


@pytest.mark.parametrize("name", CATALOGUE)
def test_counts(name: str) -> None:
    assert len(_items(name)) == COUNTS[name]


@pytest.mark.parametrize("name", CATALOGUE)
def test_dates_stay_strings(name: str) -> None:
    # An unquoted date would load as datetime.date; the schema wants the quoted string.
    for item in _items(name):
        for key in ("date", "since"):
            if key in item:
                assert isinstance(item[key], str), (item.get("title") or item["name"], key)


def test_no_paper_twice() -> None:
    ids = [_base_id(p["arxiv"]) for p in _all_papers() if "arxiv" in p]
    titles = [p["title"].casefold() for p in _all_papers()]
    assert len(ids) == len(set(ids))
    assert len(titles) == len(set(titles))


def test_no_project_twice() -> None:
    repos = [_repo_key(p["repo"]) for p in _items("projects.yaml")]
    assert len(repos) == len(set(repos))


@pytest.mark.parametrize("name", MILESTONES)
def test_milestone_papers_have_both_summaries(name: str) -> None:
    for paper in _items(name):
        assert paper.get("summary", "").strip(), paper["title"]
        assert re.search(r"[\u4e00-\u9fff]", paper.get("summary_zh", "")), paper["title"]


def _group(pattern: str, text: str) -> str:
    """Group 1 of the first match of pattern in text; the test fails when there is none."""
    found = re.search(pattern, text, re.S)
    assert found is not None, pattern
    return found[1]


def _row_title(row: str) -> str:
    """The paper title of one iaar Survey row, spacing normalised."""
    return " ".join(_group(r"<strong>(.*?)</strong>", row).split())


def _iaar_survey_section() -> str:
    text = IAAR.read_text("utf-8-sig")
    start = text.index("<summary><strong>Survey</strong></summary>")
    return text[start : text.index("</details>", start)]


def test_every_iaar_survey_row_is_present() -> None:
    section = _iaar_survey_section()
    rows = section.split('rowspan="2"')[1:]
    assert len(rows) == section.count('rowspan="2"') == COUNTS["papers/survey.yaml"]
    papers = _items("papers/survey.yaml")
    want_titles = {_row_title(r) for r in rows}
    assert {p["title"] for p in papers} == want_titles
    want_dates = sorted(_group(r"^[^>]*>\s*([0-9-]{10})<", r) for r in rows)
    assert sorted(p["date"] for p in papers) == want_dates


def test_iaar_survey_links_kept_as_linked() -> None:
    section = _iaar_survey_section()
    hrefs = re.findall(r'<a href="([^"]+)"', section)
    want_arxiv = {re.sub(r"\.pdf$", "", h.rsplit("/", 1)[1]) for h in hrefs if "arxiv.org/" in h}
    want_urls = {h for h in hrefs if "arxiv.org/" not in h}
    papers = _items("papers/survey.yaml")
    assert {p["arxiv"] for p in papers if "arxiv" in p} == want_arxiv
    assert {p["url"] for p in papers if "url" in p} == want_urls


def test_iaar_survey_tags_and_bullets() -> None:
    section = _iaar_survey_section()
    rows = section.split('rowspan="2"')[1:]
    by_title = {p["title"]: p for p in _items("papers/survey.yaml")}
    for row in rows:
        title = _row_title(row)
        badges = re.findall(r'alt="([^"]+)"', row.split("<a ", 1)[0])
        bullets = row.split('colspan="3">', 1)[1].count("•")
        assert by_title[title]["tags"] == badges
        assert by_title[title]["summary"].count("•") == bullets


def test_every_sample_project_is_present() -> None:
    xiaomingx = re.findall(
        r"\(https://github\.com/([\w.-]+/[\w.-]+)\)", XIAOMINGX.read_text("utf-8")
    )
    iaar_table = IAAR.read_text("utf-8-sig").split("### 💻 Systems and Open Sources", 1)[1]
    iaar = re.findall(r"https://github\.com/([\w.-]+/[\w.-]+)", iaar_table)
    want = {r.lower() for r in xiaomingx + iaar}
    assert {_repo_key(p["repo"]) for p in _items("projects.yaml")} == want


def test_iaar_projects_keep_time_and_website() -> None:
    table = IAAR.read_text("utf-8-sig").split("### 💻 Systems and Open Sources", 1)[1]
    by_repo = {_repo_key(p["repo"]): p for p in _items("projects.yaml")}
    seen: set[str] = set()
    for line in table.splitlines():
        row = re.match(
            r"\| ([^|]+?) +\| (\d{4}-\d\d-\d\d) +\|[^|]*\| *(?:\[GitHub\]\()?https://github\.com/([^<\s)]+)",
            line,
        )
        if row is None or row[3].lower() in seen:  # a repeated row keeps the first one
            continue
        seen.add(row[3].lower())
        project = by_repo[row[3].lower()]
        assert project["since"] == row[2]
        assert ("website" in project) == ("No official website" not in line)
    assert len(seen) == 75  # 76 rows, Lians listed twice


def test_seed_arxiv_ids_are_kept_unchanged() -> None:
    seed_ids = set(re.findall(r"arXiv (\d{4}\.\d{4,5})", MILESTONE_SEED.read_text("utf-8")))
    assert len(seed_ids) == 15
    catalogue_ids = {p["arxiv"] for p in _all_papers() if "arxiv" in p}
    assert seed_ids <= catalogue_ids
