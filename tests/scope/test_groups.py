"""discover's groups follow what a verdict promises: only an exclusion a hard rule of the
list's policy proves (the check's `scope-exclude` error) is a likely exclude, where nobody
looks; an exclusion of a class that is no hard rule (a `scope-review` warning) is to review."""

from __future__ import annotations

import pytest

from curator.core.decision import Decision
from curator.core.model import Verdict
from curator.scope.screen import Group, group_of


def decision(verdict: Verdict, code: str | None) -> Decision:
    return Decision(verdict, ("rule",), (), "title+abstract", "why", code=code)


@pytest.mark.parametrize(
    ("verdict", "code", "group"),
    [
        (Verdict.INCLUDE, None, Group.INCLUDE),
        (Verdict.EXCLUDE, "scope-exclude", Group.EXCLUDE),
        # A semantic class (hardware memory, robot control, ...): a likely exclude to review.
        (Verdict.EXCLUDE, "scope-review", Group.REVIEW),
        (Verdict.REVIEW, "scope-review", Group.REVIEW),
        (Verdict.HOLD, "scope-hold", Group.REVIEW),
    ],
)
def test_only_a_hard_rules_exclusion_is_a_likely_exclude(
    verdict: Verdict, code: str | None, group: Group
) -> None:
    assert group_of(decision(verdict, code)) is group
