"""One writer of the shared-cache test (tests/reliability/test_state.py), run as a process:
`python -m tests.reliability.cache_writer PATH NAME ROUNDS START`. It waits until the clock
passes START (every writer starts at once), then for ROUNDS rounds writes its own subjects and
the shared ones, reads back everything it wrote, keeps results and sets a stamp, through one
`Cache` of its own. It prints one JSON line: the reads that came back wrong and the cache's
warnings (a "database is locked" would be one)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from curator.net.cache import Cache

SHARED = [f"arxiv:2401.{n:05d}" for n in range(40)]


def value(name: str, subject: str, round_: int) -> dict[str, object]:
    """What writer `name` stores for `subject` in round `round_`."""
    return {"outcome": "found", "title": f"{subject} by {name}", "round": round_}


def main(path: str, name: str, rounds: int, start: float) -> dict[str, object]:
    while time.time() < start:
        time.sleep(0.001)
    cache = Cache(Path(path))
    wrong: list[str] = []
    own = [f"github:{name}/repo-{n}" for n in range(25)]
    for round_ in range(rounds):
        cache.put_many("github", [(s, value(name, s, round_), "") for s in own])
        cache.put_many("arxiv", [(s, value(name, s, round_), "") for s in SHARED])
        got = cache.get_many("github", own)
        wrong += [s for s in own if s not in got or got[s].value != value(name, s, round_)]
        shared = cache.get_many("arxiv", SHARED)
        # Another writer may have replaced a shared row since: any writer's whole value.
        wrong += [
            s for s in SHARED if s not in shared or not shared[s].value["title"].startswith(s)
        ]
        cache.keep("scope", [(f"{name}-{round_}", {"round": round_})])
        cache.set_stamp(f"arxiv-{name}")
    result = {"wrong": wrong, "warnings": cache.warnings}
    cache.close()
    return result


if __name__ == "__main__":
    path, name, rounds, start = sys.argv[1:5]
    print(json.dumps(main(path, name, int(rounds), float(start))))
