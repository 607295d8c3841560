"""Seeded lists of N papers and N/5 repositories, with a known share of faults.

One `Catalogue` is written two ways: as catalogue YAML (data/papers/*.yaml and
data/projects.yaml, the format of data/schema.json) and as an awesome-list README (the
two-row HTML `<tr>` paper format and the "Systems and Open Sources" Markdown table of
tests/fixtures/shared/samples/iaar-awesome-ai-memory.README.excerpt.md). The same catalogue
feeds the service doubles, so what the list says and what the services answer differ exactly at the
planted faults.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

from curator.core.normalize import url_subject

#: finding code -> (population it is drawn from, share of that population).
FAULT_SHARES: dict[str, tuple[str, float]] = {
    "arxiv-not-found": ("paper", 0.02),
    "arxiv-withdrawn": ("paper", 0.01),
    "arxiv-title-mismatch": ("paper", 0.02),
    "arxiv-date-mismatch": ("paper", 0.02),
    "repo-not-found": ("repo", 0.05),
    "repo-moved": ("repo", 0.05),
    "repo-archived": ("repo", 0.05),
    "repo-no-license": ("repo", 0.05),
    "link-broken": ("site", 0.10),
}
#: Share of projects with a website: 57 of the 76 rows of the iaar sample's systems table.
WEBSITE_SHARE = 0.75
SECTIONS = (("Survey", "survey"), ("Methods", "methods"), ("Systems", "systems"),
            ("Benchmarks", "benchmarks"))  # fmt: skip
WITHDRAWAL = "This paper has been withdrawn by the authors due to an error in the experiments."
FIRST_DAY = date(2023, 1, 1)
DAYS = 1277  # up to 2026-06-30

_NAMES = ("Mem", "Recall", "Trace", "Echo", "Cortex", "Hippo", "Engram", "Lore", "Anchor",
          "Weave", "Ledger", "Atlas", "Vault", "Pulse", "Graph", "Chrono")  # fmt: skip
_SUFFIXES = ("Bank", "Net", "Agent", "RAG", "Store", "Mind", "Loop", "Core", "Flow", "Keeper")
_VERBS = ("Consolidating", "Retrieving", "Compressing", "Forgetting", "Updating", "Routing",
          "Indexing", "Reflecting on", "Summarising", "Editing")  # fmt: skip
_OBJECTS = ("Long-Term Memory", "Episodic Memory", "Working Memory", "Knowledge Graphs",
            "Conversation History", "User Profiles", "Key-Value Caches", "Experience Traces",
            "Semantic Notes", "Tool Outcomes")  # fmt: skip
_DOMAINS = ("Large Language Model Agents", "Multi-Session Dialogue", "Personal Assistants",
            "Long-Context Reasoning", "Embodied Agents", "Code Agents", "Web Agents",
            "Multi-Agent Systems")  # fmt: skip
_TAGS = ("Agent Memory", "Long-Term Memory", "RAG", "Episodic Memory", "Benchmark", "Survey",
         "Knowledge Graph", "Compression", "Personalization", "Retrieval", "KV Cache",
         "Reflection", "Forgetting", "Multi-Agent", "Evaluation", "Tool Use")  # fmt: skip
_COLOURS = ("4A90E2", "F5A623", "7ED321", "D0021B", "blue", "green", "orange", "purple")
_ORGS = ("memlab", "agentworks", "recallai", "tracefield", "neuronote", "kvstack", "loreforge")
_WORDS = ("memory", "recall", "engram", "cortex", "vault", "ledger", "atlas", "echo", "weave")
_KINDS = ("server", "layer", "sdk", "engine", "graph", "store", "kit", "os")


@dataclass(frozen=True)
class PaperSpec:
    """A paper as arXiv knows it (`title`, `published`) and as the list gives it."""

    arxiv_id: str
    title: str
    listed_title: str
    published: str
    listed_date: str
    tags: tuple[str, ...]
    style: str  # "abs" or "pdf": how the README links it
    fault: str = ""

    @property
    def subject(self) -> str:
        """The normalised subject curator reports."""
        return f"arxiv:{self.arxiv_id}"

    @property
    def on_arxiv(self) -> bool:
        """False for the planted unknown identifiers."""
        return self.fault != "arxiv-not-found"


@dataclass(frozen=True)
class RepoSpec:
    """A repository as listed (`name`), where it lives now, and its website."""

    name: str
    title: str
    since: str
    category: str
    description: str
    fault: str = ""
    renamed_to: str = ""
    website: str = ""
    site_broken: bool = False

    @property
    def subject(self) -> str:
        """The normalised subject curator reports."""
        return f"github:{self.name.lower()}"

    @property
    def url(self) -> str:
        """The repository URL as listed."""
        return f"https://github.com/{self.name}"


@dataclass(frozen=True)
class Catalogue:
    """One generated list: papers, repositories, and the paper a pull request adds."""

    n: int
    seed: int
    papers: tuple[PaperSpec, ...]
    repos: tuple[RepoSpec, ...]
    added: PaperSpec

    def faults(self) -> set[tuple[str, str]]:
        """Every planted fault as (finding code, subject)."""
        out = {(p.fault, p.subject) for p in self.papers if p.fault}
        out |= {(r.fault, r.subject) for r in self.repos if r.fault}
        out |= {("link-broken", url_subject(r.website)) for r in self.repos if r.site_broken}
        return out

    def fault_counts(self) -> Counter[str]:
        """How many faults of each code were planted."""
        return Counter(code for code, _ in self.faults())

    def websites(self) -> list[RepoSpec]:
        """The repositories that have a website."""
        return [r for r in self.repos if r.website]


def planned_counts(n: int) -> dict[str, int]:
    """The fault counts `generate(n, ...)` plants: each share of its population, at least 1."""
    sizes = {"paper": n, "repo": n // 5, "site": round(n // 5 * WEBSITE_SHARE)}
    return {code: max(1, round(sizes[pop] * share)) for code, (pop, share) in FAULT_SHARES.items()}


def generate(n: int, seed: int, site_bases: list[str]) -> Catalogue:
    """N papers and N/5 repositories; websites spread over `site_bases` (http://host:port)."""
    rng = random.Random(f"curator-bench/{seed}/{n}")
    plan = planned_counts(n)
    papers = [_paper(rng, i) for i in range(n + 1)]
    added = papers.pop()
    papers = _plant_papers(rng, papers, plan)
    repos = [_repo(rng, i, site_bases) for i in range(n // 5)]
    repos = _plant_repos(rng, repos, plan)
    return Catalogue(n, seed, tuple(papers), tuple(repos), added)


def _day(rng: random.Random) -> date:
    return FIRST_DAY + timedelta(days=rng.randrange(DAYS))


def _title(rng: random.Random, name: str) -> str:
    verb, obj, domain = rng.choice(_VERBS), rng.choice(_OBJECTS), rng.choice(_DOMAINS)
    return f"{name}: {verb} {obj} for {domain}"


def _paper(rng: random.Random, i: int) -> PaperSpec:
    """A correct paper: listed exactly as arXiv has it."""
    when = _day(rng)
    name = f"{rng.choice(_NAMES)}{rng.choice(_SUFFIXES)}-{i}"
    title = _title(rng, name)
    arxiv_id = f"{when:%y%m}.{10000 + i:05d}"
    tags = tuple(rng.sample(_TAGS, rng.randint(2, 4)))
    style = "pdf" if rng.random() < 0.5 else "abs"
    return PaperSpec(arxiv_id, title, title, when.isoformat(), when.isoformat(), tags, style)


def _plant_papers(
    rng: random.Random, papers: list[PaperSpec], plan: dict[str, int]
) -> list[PaperSpec]:
    """Give disjoint random papers one fault each."""
    codes = [c for c, (pop, _) in FAULT_SHARES.items() if pop == "paper"]
    picks = rng.sample(range(len(papers)), sum(plan[c] for c in codes))
    for code in codes:
        for index in picks[: plan[code]]:
            papers[index] = _faulty_paper(rng, papers[index], code)
        picks = picks[plan[code] :]
    return papers


def _faulty_paper(rng: random.Random, paper: PaperSpec, code: str) -> PaperSpec:
    if code == "arxiv-title-mismatch":
        # The preprint was renamed in a later version; the list kept the old title.
        name = paper.title.split(":", 1)[0]
        old = paper.title
        while old == paper.title:
            old = _title(rng, name)
        return replace(paper, listed_title=old, fault=code)
    if code == "arxiv-date-mismatch":
        shifted = date.fromisoformat(paper.published) + timedelta(days=rng.randint(40, 120))
        return replace(paper, listed_date=shifted.isoformat(), fault=code)
    return replace(paper, fault=code)


def _repo(rng: random.Random, i: int, site_bases: list[str]) -> RepoSpec:
    """A correct repository, with a website for WEBSITE_SHARE of them."""
    name = f"{rng.choice(_ORGS)}{i}/{rng.choice(_WORDS)}-{rng.choice(_KINDS)}"
    website = ""
    if rng.random() < WEBSITE_SHARE and site_bases:
        website = f"{site_bases[i % len(site_bases)]}/site/p{i}"
    title = name.split("/")[1].replace("-", " ").title()
    since = _day(rng).isoformat()
    return RepoSpec(name, title, since, rng.choice(_TAGS), f"Memory layer number {i}.",
                    website=website)  # fmt: skip


def _plant_repos(rng: random.Random, repos: list[RepoSpec], plan: dict[str, int]) -> list[RepoSpec]:
    """Disjoint repository faults; broken websites only on otherwise sound projects."""
    codes = [c for c, (pop, _) in FAULT_SHARES.items() if pop == "repo"]
    picks = rng.sample(range(len(repos)), min(len(repos), sum(plan[c] for c in codes)))
    for code in codes:
        for index in picks[: plan[code]]:
            repo = repos[index]
            moved = repo.name + "-renamed" if code == "repo-moved" else ""
            repos[index] = replace(repo, fault=code, renamed_to=moved)
        picks = picks[plan[code] :]
    sound = [i for i, r in enumerate(repos) if r.website and not r.fault]
    for index in rng.sample(sound, min(len(sound), plan["link-broken"])):
        repos[index] = replace(repos[index], site_broken=True)
    return repos


# -- YAML catalogue -------------------------------------------------------------------------
def _q(text: str) -> str:
    """A double-quoted YAML scalar (JSON string syntax is valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def paper_yaml(paper: PaperSpec) -> str:
    """One paper entry of a `papers:` list, as the list gives it."""
    tags = ", ".join(_q(t) for t in paper.tags)
    return (
        f"  - title: {_q(paper.listed_title)}\n"
        f"    arxiv: {_q(paper.arxiv_id)}\n"
        f"    date: {_q(paper.listed_date)}\n"
        f"    tags: [{tags}]\n"
        f"    summary: {_q('• A generated entry about ' + paper.tags[0].lower() + '.')}\n"
    )


def repo_yaml(repo: RepoSpec) -> str:
    """One project entry of the `projects:` list."""
    lines = [f"  - name: {_q(repo.title)}", f"    repo: {_q(repo.url)}"]
    if repo.website:
        lines.append(f"    website: {_q(repo.website)}")
    lines += [f"    since: {_q(repo.since)}", f"    category: {_q(repo.category)}",
              f"    description: {_q(repo.description)}"]  # fmt: skip
    return "\n".join(lines) + "\n"


def write_yaml(cat: Catalogue, folder: Path) -> list[Path]:
    """data/papers/<section>.yaml (papers dealt round-robin) and data/projects.yaml."""
    (folder / "papers").mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for k, (section, stem) in enumerate(SECTIONS):
        body = "".join(paper_yaml(p) for p in cat.papers[k :: len(SECTIONS)])
        path = folder / "papers" / f"{stem}.yaml"
        path.write_text(f"section: {section}\npapers:\n{body}", encoding="utf-8")
        written.append(path)
    path = folder / "projects.yaml"
    body = "".join(repo_yaml(r) for r in cat.repos)
    path.write_text(f"section: Projects\nprojects:\n{body}", encoding="utf-8")
    written.append(path)
    return written


# -- README ----------------------------------------------------------------------------------
def _badge(tag: str) -> str:
    colour = _COLOURS[_TAGS.index(tag) % len(_COLOURS)] if tag in _TAGS else "blue"
    label = tag.replace(" ", "%20").replace("-", "--")
    return f'          <img src="https://img.shields.io/badge/{label}-{colour}" alt="{tag}">'


def paper_rows(paper: PaperSpec) -> str:
    """The two `<tr>` rows of one paper, indented as in the iaar list."""
    link = f"https://arxiv.org/abs/{paper.arxiv_id}"
    if paper.style == "pdf":
        link = f"https://arxiv.org/pdf/{paper.arxiv_id}v1"
    lines = [
        "      <tr>",
        f'        <td rowspan="2" style="width: 15%;">{paper.listed_date}</td>',
        f'        <td style="width: 55%;"><strong>{paper.listed_title}</strong></td>',
        '        <td style="width: 15%;">',
        *(_badge(t) for t in paper.tags),
        "        </td>",
        '        <td style="width: 15%;">',
        f'          <a href="{link}">',
        '            <img src="https://img.shields.io/badge/arXiv-Paper-D2691E?logo=arxiv" '
        'alt="Paper Badge">',
        "          </a>",
        "        </td>",
        "      </tr>",
        "      <tr>",
        '        <td colspan="3">',
        f"          • This paper studies {paper.tags[0].lower()} for LLM agents.<br>",
        "          • It is a generated benchmark entry.",
        "        </td>",
        "      </tr>",
    ]
    return "\n".join(lines)


def repo_row(repo: RepoSpec) -> str:
    """One row of the systems table: name, time, stars badge, repository and website."""
    stars = f"![GitHub Repo stars](https://img.shields.io/github/stars/{repo.name}?style=social)"
    site = repo.website or "No official website"
    return f"| {repo.title} | {repo.since} | {stars} | {repo.url}<br>{site} |"


def render_readme(cat: Catalogue) -> str:
    """The whole awesome-list document."""
    out = [
        "# Awesome-AI-Memory (generated benchmark list)",
        "",
        f"Generated by tests/benchmarks/generate.py: n={cat.n}, seed={cat.seed}.",
        "",
        "## 📚 Paper List",
        "Papers below are ordered by **section**:",
        "",
    ]
    for k, (section, _) in enumerate(SECTIONS):
        out += [
            "<details>",
            f"  <summary><strong>{section}</strong></summary>",
            "",
            '  <table style="width: 100%;">',
            "    <tr>",
            "      <td><strong>Date</strong></td>",
            "      <td><strong>Paper & Summary</strong></td>",
            "      <td><strong>Tags</strong></td>",
            "      <td><strong>Links</strong></td>",
            "    </tr>",
            *(paper_rows(p) for p in cat.papers[k :: len(SECTIONS)]),
            "  </table>",
            "</details>",
            "",
        ]
    out += [
        "### 💻 Systems and Open Sources",
        "",
        "| System      | Time       | Stars | GitHub & Website |",
        "|-------------|------------|-------|------------------|",
        *(repo_row(r) for r in cat.repos),
        "",
    ]
    return "\n".join(out)
