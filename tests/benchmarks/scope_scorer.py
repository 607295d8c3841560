"""What the learned scope scorer costs `curator check` on a 1,000-paper list.

Run: python -m tests.benchmarks.scope_scorer [--papers 1000] [--repeat 5]

The list's papers carry the real titles and abstracts of the screening records (cycled to the
size asked, under fresh arXiv IDs), served by the arXiv double on loopback. One online run
fills the cache; then `curator check --offline --skip github,web` is timed with
rules/scope.yaml as shipped (scorer on) and with its `scorer:` line removed (scorer off),
alternately, and the medians are compared.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from curator.lab.evaluate import load_all
from tests.conftest import SCOPE
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]


def papers(count: int) -> list[Paper]:
    """`count` papers with real titles and abstracts and made-up, well-formed IDs."""
    records, _ = load_all([SCOPE])
    texts = [(str(r.data["title"]), r.abstract) for r in records if r.abstract]
    out = []
    for i in range(count):
        title, abstract = texts[i % len(texts)]
        out.append(Paper(f"2601.{10000 + i:05d}", title, abstract=abstract or ""))
    return out


def write_list(folder: Path, items: list[Paper]) -> None:
    """A catalogue file with every paper, and the rules beside it."""
    (folder / "data").mkdir()
    lines = ["section: Methods", "papers:"]
    for p in items:
        title = p.title.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'  - {{title: "{title}", arxiv: "{p.id}", date: "2023-05-17"}}')
    (folder / "data" / "papers.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.copytree(ROOT / "rules", folder / "rules")
    (folder / "pyproject.toml").write_text("[tool.curator]\n", encoding="utf-8")


def timed(folder: Path, env: dict[str, str], *extra: str) -> float:
    """Wall-clock seconds of one `curator check` in `folder`."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "curator.cli", "check", "data", "--skip", "github,web",
         "--format", "json", "--output", "report.json", "--fail-on", "never", *extra],
        cwd=folder, env=env, check=True,
    )  # fmt: skip
    return time.perf_counter() - started


def main() -> None:
    """Print the medians with and without the scorer, and their difference."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    items = papers(args.papers)
    with tempfile.TemporaryDirectory() as tmp, LoopbackServer() as server:
        folder = Path(tmp)
        write_list(folder, items)
        env = dict(os.environ, CURATOR_ARXIV_DELAY="0", CURATOR_CACHE=str(folder / "c.sqlite"))
        env["CURATOR_ARXIV_API_URL"] = ArxivDouble({p.id: p for p in items}).install(server)
        timed(folder, env)  # fills the cache
        rules = folder / "rules" / "scope.yaml"
        shipped = rules.read_text(encoding="utf-8")
        off = "".join(line for line in shipped.splitlines(True) if not line.startswith("scorer:"))
        on_times, off_times = [], []
        for _ in range(args.repeat):
            rules.write_text(shipped, encoding="utf-8")
            on_times.append(timed(folder, env, "--offline"))
            rules.write_text(off, encoding="utf-8")
            off_times.append(timed(folder, env, "--offline"))
    on, off_median = statistics.median(on_times), statistics.median(off_times)
    print(f"papers: {args.papers}, runs each: {args.repeat}")
    print(f"curator check --offline, scorer on:  median {on:.2f} s  {sorted(on_times)}")
    print(f"curator check --offline, scorer off: median {off_median:.2f} s  {sorted(off_times)}")
    print(f"difference: {on - off_median:+.2f} s")


if __name__ == "__main__":
    main()
