"""The one seam between publishing and the fix planner: a check run with its plan of fixes.

`curator check --suggest` and `curator audit --fix` need what `curator fix` computes (the
report of the run, and its plan: safe file fixes and the unsafe ones). The planner is
`curator.fix.run.prepare` (the pipeline, the arXiv title search for wrong IDs, safe reading,
the pure plan); this module is the only place publishing reaches it, so the two halves of the
fix feature meet here and nowhere else. A build without the planner checks as `check` does,
plans nothing (`files` is None: no plan, which is not an empty one) and says so in the
report's notes: no review is touched and no fix pull request is closed for want of a plan.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from typing import Any

from curator.fix.model import FileFix
from curator.model import Report

PLANNER = "curator.fix.run"
NO_PLANNER = "no fixes planned: this curator has no fix planner (curator/fix/run.py)"


@dataclass(frozen=True)
class Planned:
    """A run's report and its plan: the fixes safe to apply (None when nothing was planned),
    and those curator would only apply with `--unsafe` (a review may still suggest them,
    marked as such)."""

    report: Report
    files: tuple[FileFix, ...] | None
    unsafe: tuple[FileFix, ...] = ()


def plan(options: Any) -> Planned:
    """Check and plan the fixes of `options` (the same options as `check`)."""
    try:
        planner = importlib.import_module(PLANNER)
    except ModuleNotFoundError as exc:
        if exc.name != PLANNER:
            raise
        from curator import pipeline

        report = pipeline.check(options)
        return Planned(replace(report, notes=(*report.notes, NO_PLANNER)), None)
    prepared = planner.prepare(options)
    return Planned(prepared.report, tuple(prepared.plan.files), tuple(prepared.plan.unsafe))
