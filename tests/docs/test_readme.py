"""The README is a landing page: short, `curator init` first, the pictures of a review, and its
two set-up commands stay true. (The reference moved to docs/: the finding-code table and the
environment variables are checked there, in test_contract_names.py.)"""

from __future__ import annotations

import re

import pytest

from curator.report.interface import RENDERERS, Format
from tests.conftest import ROOT
from tests.docs.links import MD, tokens

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_exactly_two_setup_commands_and_ci_runs_the_test_one() -> None:
    setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.+?)\n```", setup, re.S)
    assert len(commands) == 2
    assert commands[0].endswith("curator check data/")
    test_command = commands[1].split(" && ", 2)[-1]
    assert test_command == "pip install -e '.[dev]' && python -m pytest -q -n auto"
    assert test_command in (ROOT / ".ci" / "run").read_text()


def test_every_format_has_a_renderer() -> None:
    assert set(RENDERERS) == set(Format)


def test_a_landing_page_with_init_first() -> None:
    lines = README.splitlines()
    assert len(lines) <= 250
    first = next(i for i, line in enumerate(lines, 1) if "curator init" in line)
    assert first <= 80
    headings = [line for line in lines if line.startswith("## ")]
    assert headings.index("## Use it in your list") < headings.index("## Set up this repository")


@pytest.mark.parametrize("name", ["review-comment.png", "review-suggestion.png"])
def test_the_pictures_of_a_review_are_shown_with_alt_text(name: str) -> None:
    images = [t for t in tokens(MD.parse(README)) if t.type == "image"]
    picture = next(t for t in images if t.attrs["src"] == f"docs/images/{name}")
    assert len(picture.content) > 40  # alt text that says what the picture shows
    assert (ROOT / "docs" / "images" / name).is_file()
