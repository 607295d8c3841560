"""Checks: pure functions of an entry and the resolved outcomes, returning findings."""
