"""Fixtures the round-4 attacks share with the features' own tests."""

from tests.integration.test_scope_decisions import root
from tests.scope.test_relevance_end_to_end import pull_request

__all__ = ["pull_request", "root"]
