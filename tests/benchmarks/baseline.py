"""Side by side with an earlier commit, on this machine, now.

The time targets are absolute seconds, so a slower or busier machine fails them whatever the
code does. `--baseline DIR` (a checkout of an earlier commit with its own `DIR/.venv`) runs
the warm and pull-request scenarios alternately with this code and with that one, on the same
list, doubles and machine, and compares the medians: a regression shows as this code being
slower than the baseline, whatever the machine. The baseline reads the list with its own
rules folder (rule files change format between commits).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.benchmarks.generate import Catalogue, paper_yaml
from tests.benchmarks.measure import timed

REPEATS = 3
#: How much slower than the baseline a median may be before it counts as a regression
#: (alternating runs on a shared machine still differ by a few per cent).
TOLERANCE = 1.10


@dataclass(frozen=True)
class Pair:
    """The median wall seconds of one scenario, this code and the baseline."""

    scenario: str
    n: int
    current: float
    baseline: float

    @property
    def ok(self) -> bool:
        """True unless this code is slower than the baseline beyond the tolerance."""
        return self.current <= self.baseline * TOLERANCE


def revision(baseline: Path) -> str:
    """The baseline's short commit id."""
    out = subprocess.run(["git", "-C", str(baseline), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    return out.stdout.strip() or baseline.name


def compare(
    cat: Catalogue, work: Path, env: dict[str, str], baseline: Path, scenarios: list[str]
) -> list[Pair]:
    """Alternate runs of `scenarios` ("warm", "PR") by this code and the baseline."""
    side = _copy(work, baseline)
    side_env = dict(env, CURATOR_CACHE=str(side / "cache.sqlite"), HOME=str(side))
    python = str(baseline / ".venv" / "bin" / "python")
    _check(python, side, side_env, ["data"])  # the baseline's cache, filled once
    pairs: list[Pair] = []
    for scenario in scenarios:
        args = ["data"] if scenario == "warm" else ["data", "--changed-since", "HEAD"]
        added = scenario != "warm"
        originals = [_add_paper(folder, cat) if added else "" for folder in (work, side)]
        if added:  # the added paper is asked once; the measured runs find it cached
            _check(sys.executable, work, env, args)
            _check(python, side, side_env, args)
        mine, theirs = [], []
        for _ in range(REPEATS):
            mine.append(_check(sys.executable, work, env, args))
            theirs.append(_check(python, side, side_env, args))
        if added:
            for folder, text in zip((work, side), originals, strict=True):
                (folder / "data" / "papers" / "methods.yaml").write_text(text, encoding="utf-8")
        label = "warm" if scenario == "warm" else "PR, 1 added paper"
        pairs.append(Pair(label, cat.n, statistics.median(mine), statistics.median(theirs)))
    return pairs


def _copy(work: Path, baseline: Path) -> Path:
    """The list as committed in `work`, with the baseline's rules, in a git repository."""
    side = work.parent / f"{work.name}-baseline"
    shutil.rmtree(side, ignore_errors=True)
    side.mkdir()
    shutil.copytree(work / "data", side / "data")
    if (baseline / "rules").is_dir():
        shutil.copytree(baseline / "rules", side / "rules")
    ident = ["-c", "user.name=bench", "-c", "user.email=bench@localhost",
             "-c", "commit.gpgsign=false"]  # fmt: skip
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "list"]):
        subprocess.run(["git", "-C", str(side), *ident, *args], check=True, timeout=60)
    return side


def _add_paper(folder: Path, cat: Catalogue) -> str:
    """Append the catalogue's added paper; return the file's text before."""
    path = folder / "data" / "papers" / "methods.yaml"
    original = path.read_text(encoding="utf-8")
    path.write_text(original + paper_yaml(cat.added), encoding="utf-8")
    return original


def _check(python: str, cwd: Path, env: dict[str, str], args: list[str]) -> float:
    """Wall seconds of one `curator check` by `python`; RuntimeError when it fails."""
    out = cwd / ".bench-side.json"
    cmd = [python, "-m", "curator", "check", *args, "--format", "json",
           "--output", str(out), "--fail-on", "never"]  # fmt: skip
    wall, _rss, status, err = timed(cmd, cwd, env)
    if status != 0:
        raise RuntimeError(f"{python} check {' '.join(args)} failed ({status}): {err}")
    return wall
