"""Run one command, then write its wall time and peak RSS to a file (`measure.timed`).

Every measured process starts from here, a small process of its own, not from the harness:
on Linux, a process spawned straight from the harness reports the harness's peak RSS as its
own (exec records the old address space's high-water mark, and the harness holds the doubles
and the generated list), which made every figure of the table the harness's size, lychee's
too. This script imports nothing but the standard library, so its own mark (about 10 MB)
stays below any process it measures.

    python launch.py OUT COMMAND [ARG ...]     # OUT gets "<wall seconds> <peak RSS in KiB>"
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    """Run argv[1:], write its figures to argv[0], exit with its status."""
    out, cmd = argv[0], argv[1:]
    started = time.monotonic()
    proc = subprocess.Popen(cmd)
    _, raw, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - started
    with open(out, "w", encoding="ascii") as f:
        f.write(f"{wall} {usage.ru_maxrss}\n")
    return os.waitstatus_to_exitcode(raw)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
