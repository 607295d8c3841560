"""Loopback test doubles of arXiv, GitHub and web hosts, built from ../shared/api-samples."""
