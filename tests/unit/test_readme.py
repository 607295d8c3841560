"""The README documents the whole public interface and its two set-up commands stay true."""

from __future__ import annotations

import re
from pathlib import Path

from curator.codes import CODES
from curator.options import ENV_VARS
from curator.report.interface import RENDERERS, Format

ROOT = Path(__file__).resolve().parent.parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


#: The reference pages the README's tables move to (docs/fix.md holds the codes of `fix`).
DOCS = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))


def test_every_finding_code_is_in_the_table() -> None:
    for code, (severity, _) in CODES.items():
        row = rf"^\| `{re.escape(code)}` \| {severity.value} \|"
        assert re.search(row, README, re.M) or re.search(row, DOCS, re.M), code


def test_every_environment_variable_is_documented() -> None:
    for var in ENV_VARS:
        assert f"`{var}`" in README, var


def test_exactly_two_setup_commands_and_ci_runs_the_test_one() -> None:
    setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.+?)\n```", setup, re.S)
    assert len(commands) == 2
    assert commands[0].endswith("curator check data/")
    test_command = commands[1].split(" && ", 2)[-1]
    assert test_command == "pip install -e '.[dev]' && python -m pytest -q"
    assert test_command in (ROOT / ".ci" / "run").read_text()


def test_every_format_has_a_renderer() -> None:
    assert set(RENDERERS) == set(Format)
