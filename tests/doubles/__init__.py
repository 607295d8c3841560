"""Loopback test doubles of arXiv, GitHub and web hosts.

Built from the real recordings in tests/fixtures/shared/api-samples.
"""
