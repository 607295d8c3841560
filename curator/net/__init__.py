"""Talking to services: the one HTTP policy, the SSRF guard, the SQLite cache."""
