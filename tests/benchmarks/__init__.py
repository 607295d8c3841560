"""Benchmark of curator against lychee on generated lists (run: python -m tests.benchmarks.run)."""
