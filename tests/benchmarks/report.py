"""The benchmark's targets (PASS/FAIL) and the Markdown of docs/performance.md."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tests.benchmarks.baseline import Pair
from tests.benchmarks.layouts import TARGET_SECONDS
from tests.benchmarks.measure import Run

SERVICES = ("arxiv", "github_graphql", "github_rest", "web")
#: The line from which docs/performance.md is written by hand (the reading of the figures):
#: a new run rewrites what is above it and keeps it and what follows.
KEPT = "<!-- Written by hand from here on: the benchmark keeps this part as it is. -->"


@dataclass(frozen=True)
class Verdict:
    """One target: what was measured, the bound, and PASS/FAIL (None: not measured)."""

    target: str
    measured: str
    ok: bool | None

    @property
    def word(self) -> str:
        """PASS, FAIL or n/a."""
        return "n/a" if self.ok is None else ("PASS" if self.ok else "FAIL")


def find(runs: list[Run], tool: str, scenario: str, n: int) -> Run | None:
    """The run of `tool` in `scenario` at size `n`, if it was made."""
    return next((r for r in runs if (r.tool, r.scenario, r.n) == (tool, scenario, n)), None)


def _one(target: str, run: Run | None, value: Callable[[Run], float], bound: float,
         unit: str = "") -> Verdict:  # fmt: skip
    if run is None:
        return Verdict(target, "not measured", None)
    got = value(run)
    return Verdict(target, f"{got:g}{unit}", got <= bound)


def targets(runs: list[Run], version_s: float, spacing: float) -> list[Verdict]:
    """Every target of the issue, plus the benchmark's own consistency checks."""
    cold = find(runs, "curator", "cold", 1000)
    warm = find(runs, "curator", "warm", 1000)
    out = [
        _one("N=1000 cold: arXiv requests ≤ 10", cold, lambda r: r.logged["arxiv"], 10),
        _one("N=1000 cold: GitHub requests ≤ 2 per 100 repositories", cold,
             lambda r: 100 * (r.logged["github_graphql"] + r.logged["github_rest"]) / (r.n // 5),
             2, " per 100"),
        _one("N=1000 cold: wall ≤ 1.5 × (arXiv requests × spacing) + 2 s", cold,
             lambda r: round(r.wall / (1.5 * r.logged["arxiv"] * spacing + 2), 2), 1,
             " of the bound"),
        _one("N=1000 warm: 0 requests", warm, lambda r: r.requests, 0),
        _one("N=1000 warm: ≤ 1.5 s", warm, lambda r: round(r.wall, 2), 1.5, " s"),
        Verdict("`curator --version` ≤ 0.3 s", f"{version_s:.2f} s", version_s <= 0.3),
    ]  # fmt: skip
    for n in sorted({r.n for r in runs}):
        out += _per_size(runs, n)
    big = [r for r in runs if r.tool == "curator" and r.n == 5000]
    out.append(
        Verdict("N=5000: peak RSS ≤ 200 MB", f"{max(r.rss_mb for r in big):.0f} MB",
                max(r.rss_mb for r in big) <= 200)
        if big else Verdict("N=5000: peak RSS ≤ 200 MB", "not measured", None)
    )  # fmt: skip
    mine = [r for r in runs if r.tool == "curator"]
    bad = [f"{r.scenario} N={r.n}" for r in mine if not r.agrees()]
    out.append(
        Verdict(
            "report `requests` = doubles' logs, every run",
            "all agree" if not bad else "differ: " + "; ".join(bad),
            not bad,
        )
    )
    hits = [f"{r.scenario} N={r.n}: {n}" for r in mine for n in r.notes if "violated" in n
            or "limits hit" in n]  # fmt: skip
    out.append(Verdict("no arXiv spacing or GitHub limit violation", "; ".join(hits) or "none",
                       not hits))  # fmt: skip
    return out


def layout_targets(parse: dict[str, float]) -> list[Verdict]:
    """A 5,000-entry list in each layout read within the target (CPU s, best of three)."""
    return [
        Verdict(f"5,000 entries, {kind} layout: read ≤ {TARGET_SECONDS:g} s (CPU, best of 3)",
                f"{seconds:.2f} s", seconds <= TARGET_SECONDS)
        for kind, seconds in parse.items()
    ]  # fmt: skip


def pair_targets(pairs: list[Pair], base: str) -> list[Verdict]:
    """No slower than the baseline commit, run alternately on this machine (median of 3)."""
    return [
        Verdict(f"N={p.n} {p.scenario}: no slower than {base} side by side (median of 3)",
                f"{p.current:.2f} s vs {p.baseline:.2f} s", p.ok)
        for p in pairs
    ]  # fmt: skip


def _per_size(runs: list[Run], n: int) -> list[Verdict]:
    """PR mode and the lychee comparison at one size."""
    pr = find(runs, "curator", "PR, 1 added paper", n)
    out = [
        _one(f"N={n} PR mode: ≤ 2 requests", pr, lambda r: r.requests, 2),
        _one(f"N={n} PR mode: ≤ 1.5 s", pr, lambda r: round(r.wall, 2), 1.5, " s"),
    ]
    mine = find(runs, "curator", "cold, README", n)
    lychee = find(runs, "lychee", "cold, README", n)
    if mine is None or lychee is None:
        return out
    ratio = lychee.requests / max(1, mine.requests)
    out.append(
        Verdict(
            f"N={n}: ≥ 50× fewer requests than lychee",
            f"{lychee.requests} / {mine.requests} = {ratio:.1f}×",
            ratio >= 50,
        )
    )
    api = mine.logged["arxiv"] + mine.logged["github_graphql"] + mine.logged["github_rest"]
    api_lychee = lychee.logged["arxiv.org"] + lychee.logged["github.com"]
    out.append(Verdict(f"N={n}: arXiv + GitHub only, ≥ 50× fewer (information)",
                       f"{api_lychee} / {api} = {api_lychee / max(1, api):.0f}×",
                       api_lychee >= 50 * max(1, api)))  # fmt: skip
    flagged = {s for _, s in mine.faults}
    missed = sorted(s for _, s in lychee.faults if s not in flagged)
    out.append(Verdict(f"N={n}: every fault lychee finds, curator finds",
                       f"lychee {len(lychee.faults)}, missed by curator {len(missed)}",
                       not missed))  # fmt: skip
    found = next((x for x in mine.notes if x.startswith("faults ")), "faults ?")
    whole = found.split()[1].split("/")
    out.append(Verdict(f"N={n}: curator finds every planted fault (README)", found,
                       whole[0] == whole[1]))  # fmt: skip
    return out


def verdict_lines(verdicts: list[Verdict]) -> list[str]:
    """`PASS  target: measured` lines for the terminal."""
    return [f"{v.word:4}  {v.target}: {v.measured}" for v in verdicts]


def _row(run: Run) -> str:
    counts = [str(run.logged.get(k, 0)) for k in SERVICES] if run.tool == "curator" else (
        [str(run.logged.get("arxiv.org", 0)), "–", str(run.logged.get("github.com", 0)),
         f"{run.logged.get('web', 0)} + {run.logged.get('img.shields.io', 0)} badges"])  # fmt: skip
    hits = str(run.reported.get("cache_hits", 0)) if run.tool == "curator" else "–"
    agree = ("yes" if run.agrees() else "NO") if run.tool == "curator" else "–"
    notes = "; ".join(run.notes)
    return (f"| {run.n} | {run.tool} | {run.scenario} | {run.wall:.2f} | {' | '.join(counts)} | "
            f"{run.requests} | {hits} | {agree} | {run.rss_mb:.0f} | {notes} |")  # fmt: skip


def markdown(
    runs: list[Run], verdicts: list[Verdict], machine: dict[str, str],
    settings: dict[str, object], version_s: float,
) -> str:  # fmt: skip
    """The whole of docs/performance.md."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Performance",
        "",
        "Written by `python -m tests.benchmarks.run` (tests/benchmarks/README.md) down to the "
        "reading at the end, which is written by hand; do not edit the tables.",
        f"Latest run: {when}.",
        "",
        "## Machine and settings",
        "",
        *[f"- {k}: {v}" for k, v in machine.items()],
        f"- every answer of every double is {settings['latency_s']} s late; arXiv spacing "
        f"{settings['arxiv_spacing_s']} s (scaled down from 3 s; `CURATOR_ARXIV_DELAY`), "
        "enforced: a closer request is answered 429",
        "- GitHub: token, GraphQL; primary limit 1,000/hour (Actions `GITHUB_TOKEN`) and 100 "
        "repositories per query enforced; no-token rows: REST with the 60/hour limit",
        f"- websites on {settings['site_hosts']} loopback addresses (127.0.0.2 …); seed "
        f"{settings['seed']}; papers N, repositories N/5, websites on 75% of repositories",
        "- after TTL: cache rows aged 31 days (past arXiv's 30-day and GitHub/web 1-day TTLs); "
        "no-token ETag row: aged 2 days",
        "- PR mode: started one arXiv spacing after the run before it (as a pull request's run "
        "starts long after the last run's arXiv request)",
        f"- `curator --version`: {version_s:.2f} s (median of 5, interpreter start-up included)",
        "",
        "## Runs",
        "",
        "Requests are counted by the doubles; *agrees* compares them with the JSON report's "
        "`requests`. Faults: planted faults found / planted (see tests/benchmarks/generate.py).",
        "",
        "| N | tool | scenario | wall s | arXiv | GraphQL | REST | web | total | cache hits "
        "| agrees | peak RSS MB | notes |",
        "| ---: | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- | ---: | --- |",
        *[_row(r) for r in runs],
        "",
        "For lychee the columns are arxiv.org, –, github.com, and websites + shields.io badges.",
        "",
        "## Targets",
        "",
        "| target | measured | result |",
        "| --- | --- | --- |",
        *[f"| {v.target} | {v.measured} | {v.word} |" for v in verdicts],
        "",
    ]
    return "\n".join(lines)


def kept(path: Path) -> str:
    """The hand-written part at the end of `path` (from the KEPT line on), or ""."""
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    at = text.find(KEPT)
    return "" if at < 0 else "\n" + text[at:]
