"""discover's groups follow what a verdict promises: only an exclusion a hard rule of the
list's policy proves (the check's `scope-exclude` error) is a likely exclude, where nobody
looks; an exclusion of a class that is no hard rule (a `scope-review` warning) is to review;
a near miss the scorer ranks at or above its floor (where nearly every include ranks) is a
likely include, below it to review."""

from __future__ import annotations

import pytest

from curator.core.decision import Contribution, Decision
from curator.core.model import Verdict
from curator.discover.render import verdict_word
from curator.scope.screen import Candidate, Group, group_of


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


def scored(verdict: Verdict, code: str | None, score: float, floor: float | None) -> Decision:
    weighed = Contribution(score, 0.9, 0.5, (), floor=floor)
    return Decision(verdict, ("rule",), (), "abstract", "why", code=code, scorer=weighed)


@pytest.mark.parametrize(
    ("verdict", "code", "score", "floor", "group"),
    [
        (Verdict.REVIEW, "scope-review", 0.6, 0.4, Group.INCLUDE),
        (Verdict.REVIEW, "scope-review", 0.4, 0.4, Group.INCLUDE),  # the floor is reached
        (Verdict.REVIEW, "scope-review", 0.39, 0.4, Group.REVIEW),
        (Verdict.REVIEW, "scope-review", 0.8, None, Group.REVIEW),  # a scorer without a floor
        (Verdict.EXCLUDE, "scope-review", 0.2, 0.4, Group.REVIEW),  # below the floor
        (Verdict.EXCLUDE, "scope-exclude", 0.8, 0.4, Group.EXCLUDE),  # a hard rule stands
        (Verdict.INCLUDE, None, 0.95, 0.4, Group.INCLUDE),
    ],
)
def test_a_near_miss_at_or_above_the_floor_is_a_likely_include(
    verdict: Verdict, code: str | None, score: float, floor: float | None, group: Group
) -> None:
    assert group_of(scored(verdict, code, score, floor)) is group


def test_every_discover_output_names_a_likely_exclude_alike() -> None:
    likely = scored(Verdict.EXCLUDE, "scope-review", 0.2, 0.4)
    hard = scored(Verdict.EXCLUDE, "scope-exclude", 0.2, 0.4)
    near = scored(Verdict.REVIEW, "scope-review", 0.6, 0.4)
    words = [
        verdict_word(Candidate({"id": "2610.00001"}, d, group_of(d))) for d in (likely, hard, near)
    ]
    assert words == ["likely exclude", "exclude", "review"]
