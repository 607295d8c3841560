"""Running one measured process: wall time, peak RSS, and what curator or lychee reported."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curator.core.normalize import subject_for_url

#: Codes that say a service could not be asked: not a fault found.
UNVERIFIED = {"arxiv-unverified", "repo-unverified", "link-unverified", "scope-hold"}
TIMEOUT = 300.0
#: The small process every measured command starts from.
LAUNCH = Path(__file__).with_name("launch.py")


@dataclass
class Run:
    """One process run and its figures."""

    tool: str
    scenario: str
    n: int
    wall: float
    rss_mb: float
    status: int
    reported: dict[str, int] = field(default_factory=dict)
    logged: dict[str, int] = field(default_factory=dict)
    faults: set[tuple[str, str]] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)

    @property
    def requests(self) -> int:
        """Requests the services' logs received during the run."""
        return sum(self.logged.values())

    def agrees(self) -> bool:
        """True when the JSON report's `requests` equal the doubles' logs, service by service."""
        return all(self.reported.get(k, 0) == v for k, v in self.logged.items())


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, int, str]:
    """(wall seconds, peak RSS in MB, exit status, stderr) of one child process.

    The command runs under launch.py, which times it and reaps it with os.wait4: its own
    rusage, not the harness's (see launch.py for why a direct child would not do).
    """
    err_path = cwd / ".bench-stderr"
    figures = cwd / ".bench-figures"
    figures.unlink(missing_ok=True)
    with err_path.open("wb") as err:
        proc = subprocess.Popen([sys.executable, str(LAUNCH), str(figures), *cmd], cwd=cwd,
                                env=env, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)  # fmt: skip
        status = _reap(proc)
    if not figures.is_file():
        raise RuntimeError(f"{cmd[0]} did not run: {err_path.read_text(errors='replace')}")
    wall, kib = figures.read_text(encoding="ascii").split()
    return float(wall), int(kib) / 1024.0, status, err_path.read_text(errors="replace")[-2000:]


def _reap(proc: subprocess.Popen[bytes]) -> int:
    """Wait (bounded by TIMEOUT) and return the exit status; on timeout kill the launcher
    and what it runs (one process group)."""
    try:
        return proc.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        return proc.wait()


def curator_env(base: dict[str, str], cache: Path) -> dict[str, str]:
    """A clean environment for curator: only the given endpoints, nothing inherited."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(cache.parent),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "CURATOR_CACHE": str(cache),
        "CURATOR_ALLOW_PRIVATE_HOSTS": "1",
        **base,
    }


def run_curator(
    scenario: str, n: int, args: list[str], cwd: Path, env: dict[str, str]
) -> tuple[Run, dict[str, Any]]:
    """`curator check ARGS --format json` as a subprocess; the Run and the parsed report."""
    out = cwd / f".bench-{scenario}.json"
    out.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "curator", "check", *args, "--format", "json",
           "--output", str(out), "--fail-on", "never"]  # fmt: skip
    wall, rss, status, err = timed(cmd, cwd, env)
    if status != 0 or not out.is_file():
        raise RuntimeError(f"curator {scenario} failed with status {status}: {err}")
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    run = Run("curator", scenario, n, wall, rss, status)
    run.reported = {k: int(v) for k, v in report.get("requests", {}).items()}
    run.faults = {
        (f["code"], f["subject"])
        for f in report.get("findings", [])
        if f["severity"] in {"error", "warning"} and f["code"] not in UNVERIFIED
    }
    return run, report


def lychee_faults(report: dict[str, Any]) -> set[tuple[str, str]]:
    """(HTTP status, subject) of every link lychee reported failing, by its original URL."""
    out: set[tuple[str, str]] = set()
    for key in ("error_map", "timeout_map"):
        for items in report.get(key, {}).values():
            for item in items:
                original = item.get("remap", {}).get("original", {}).get("url", item["url"])
                code = str(item.get("status", {}).get("code", "error"))
                out.add((code, subject_for_url(original)))
    return out


def age_cache(path: Path, days: float) -> int:
    """Make every cached answer `days` older, as if that time had passed; rows changed.

    Reaches into the cache's table (entries.fetched_at): a benchmark-only shortcut.
    """
    db = sqlite3.connect(str(path))
    try:
        with db:
            cursor = db.execute("UPDATE entries SET fetched_at = fetched_at - ?", (days * 86400,))
        return cursor.rowcount
    finally:
        db.close()


def version_time(repeats: int = 5) -> float:
    """Median wall time of `curator --version` (interpreter start-up included)."""
    times: list[float] = []
    for _ in range(repeats):
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "curator", "--version"], check=True,
                       stdout=subprocess.DEVNULL, timeout=60)  # fmt: skip
        times.append(time.monotonic() - started)
    return sorted(times)[len(times) // 2]
