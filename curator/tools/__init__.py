"""Maintainer tools around the catalogue: import an awesome-list document, render README.md."""
