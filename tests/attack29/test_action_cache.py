"""Round 4 attack (issue 29): the Action's caches saved from a pull request's run.

The Action restores curator's environment and the check cache in every run and saves them
"never from a pull request". That was decided by the mode alone: a list that runs `mode:
check` on its pull requests (or on `pull_request_target`, whose caches land in the default
branch's scope, restored by every later run) saved both from the pull request's run. Each
save step now also looks at the event.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from tests.workflows.runner import ACTION_DIR, condition

SAVES = ("save curator's environment (never from a pull request)",
         "save the cache (never from a pull request)")  # fmt: skip


def saves(event: str, mode: str) -> list[bool]:
    """Whether each save step runs for a cold run of `mode` on `event`."""
    action = yaml.safe_load((ACTION_DIR / "action.yml").read_text(encoding="utf-8"))
    by_name = {s.get("name", ""): s for s in action["runs"]["steps"]}
    ctx: dict[str, Any] = {
        "github": {"event_name": event},
        "inputs": {"mode": mode},
        "steps": {"venv": {"outputs": {"cache-hit": "false"}}},
    }
    return [condition(by_name[name]["if"], ctx) for name in SAVES]


@pytest.mark.parametrize("event", ["pull_request", "pull_request_target"])
@pytest.mark.parametrize("mode", ["check", "pr", "audit", "discover"])
def test_no_cache_is_saved_from_a_pull_requests_run(event: str, mode: str) -> None:
    assert saves(event, mode) == [False, False]


@pytest.mark.parametrize("event", ["schedule", "push", "workflow_dispatch"])
@pytest.mark.parametrize("mode", ["check", "audit", "discover"])
def test_the_trusted_runs_still_save_both(event: str, mode: str) -> None:
    assert saves(event, mode) == [True, True]
