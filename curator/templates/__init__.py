"""Workflow templates `curator init` writes (`<uses>` and `<with>` are filled in)."""
