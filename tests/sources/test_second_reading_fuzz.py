"""A few random pull requests per run: the base read after its head reads as read alone
(the long run: `python -m tests.sources.second_reading_fuzz N SEED`)."""

from __future__ import annotations

import pytest

from tests.sources.second_reading_fuzz import run


@pytest.mark.parametrize("seed", [0, 1])
def test_random_pull_requests_read_their_base_as_alone(seed: int) -> None:
    assert run(80, seed) == []
