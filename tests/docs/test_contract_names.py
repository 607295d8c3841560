"""No public name disappears from the documentation: every name of curator's contract
(environment variables, subcommands and options, JSON fields, finding codes), every option the
parser has, every input and output of the Action and every `[tool.curator]` setting is in the
docs/ page for it.

The contract's names are kept here, so a clean clone tests without /work/shared; where the
shared CONTRACT.md is present, the names parsed from it are checked too (it may have grown).
"""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import fields
from pathlib import Path

import pytest
import yaml

from curator.cli.app import build_parser
from curator.config.options import ENV_VARS, TRUSTED_ONLY, Options
from curator.core.codes import CODES
from tests.conftest import ROOT

DOCS = ROOT / "docs"
CONTRACT = Path("/work/shared/CONTRACT.md")

#: CONTRACT.md's names, as of this writing (its codes are all in curator/core/codes.py).
CONTRACT_ENV = {
    "GITHUB_TOKEN", "GITHUB_API_URL", "GITHUB_GRAPHQL_URL", "CURATOR_ARXIV_API_URL",
    "CURATOR_ARXIV_DELAY", "CURATOR_CACHE", "CURATOR_ALLOW_PRIVATE_HOSTS",
}  # fmt: skip
CONTRACT_COMMANDS = {"check", "comment", "audit", "import"}
CONTRACT_OPTIONS = {
    "--version", "--changed-since", "--format", "--output", "--offline", "--no-cache",
    "--fail-on", "--skip", "--repo", "--pr", "--body-file", "--label", "--out",
}  # fmt: skip
CONTRACT_VALUES = {
    "text", "markdown", "json", "sarif", "github", "error", "warning", "never",
    "arxiv", "web", "scope", "curator-audit",
}  # fmt: skip
CONTRACT_JSON = {
    "schema", "summary", "entries", "errors", "warnings", "infos", "subject", "kind", "source",
    "file", "line", "metadata", "verdict", "findings", "code", "severity", "message",
    "evidence", "suggestion", "requests", "arxiv", "github_graphql", "github_rest", "web",
    "cache_hits",
}  # fmt: skip


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _sections(text: str) -> dict[str, str]:
    """A Markdown text's `## ` sections by heading."""
    found = re.finditer(r"^## (.+?)\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return {m.group(1): m.group(2) for m in found}


def _first_column(text: str, pattern: str) -> set[str]:
    """The backquoted names in the first column of a Markdown table that match `pattern`."""
    return set(re.findall(rf"^\| `({pattern})` \|", text, re.M))


def shared_contract() -> dict[str, set[str]]:
    """The names of /work/shared/CONTRACT.md by kind, or {} when it is not on this machine."""
    if not CONTRACT.is_file():
        return {}
    section = _sections(CONTRACT.read_text(encoding="utf-8"))
    cli = section.get("Command line", "")
    json_part = section.get("JSON report (`--format json`)", "")
    json_text = "".join(re.findall(r"```json\n(.*?)```", json_part, re.S))
    return {
        "env": _first_column(section.get("Environment", ""), "[A-Z_]+"),
        "commands": set(re.findall(r"^curator ([a-z]+)", cli, re.M)),
        "options": set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", cli)),
        "json": set(re.findall(r'"([a-z_]+)":', json_text)),
        "codes": _first_column(section.get("Finding codes", ""), "[a-z]+-[a-z-]+"),
    }


def test_the_shared_contract_parses_to_at_least_the_names_kept_here() -> None:
    names = shared_contract()
    if not names:
        pytest.skip("no /work/shared/CONTRACT.md here: the names kept in this file are used")
    assert names["env"] >= CONTRACT_ENV
    assert names["commands"] >= CONTRACT_COMMANDS
    assert names["options"] >= CONTRACT_OPTIONS - {"--version"}
    assert names["json"] >= CONTRACT_JSON
    assert names["codes"] <= set(CODES)


def test_every_environment_variable_is_in_configuration() -> None:
    text = page("configuration.md")
    names = CONTRACT_ENV | set(ENV_VARS) | shared_contract().get("env", set())
    assert {n for n in names if f"`{n}`" not in text} == set()


def test_every_finding_code_is_in_the_table_with_its_severity() -> None:
    text = page("codes.md")
    codes = set(CODES) | shared_contract().get("codes", set())
    for code in codes:
        severity = CODES[code][0].value
        assert re.search(rf"^\| `{re.escape(code)}` \| {severity} \|", text, re.M), code


def test_every_json_field_is_in_reports() -> None:
    text = page("reports.md")
    names = CONTRACT_JSON | shared_contract().get("json", set())
    assert {n for n in names if f'"{n}"' not in text and f"`{n}`" not in text} == set()


def help_of(command: list[str]) -> str:
    """`curator COMMAND --help`, as the parser prints it."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        build_parser().parse_args([*command, "--help"])
    return out.getvalue()


def commands(path: list[str] | None = None) -> dict[str, str]:
    """Every command (`curator check`, `curator scope train`, …) and its --help text."""
    path = path or []
    text = help_of(path)
    out = {" ".join(["curator", *path]): text}
    for sub in re.findall(r"^    (\w+)\s{2,}\S", text, re.M):
        out |= commands([*path, sub])
    return out


def test_every_subcommand_and_option_is_in_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # one line per option: choices are not wrapped
    text = page("cli.md")
    found = commands()
    assert {"curator check", "curator scope train", "curator discover"} <= set(found)
    missing = [c for c in found if f"`{c}`" not in text]
    for command, help_text in found.items():
        options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", help_text)) - {"--help"}
        choices = {c for group in re.findall(r"\{([\w,-]+)\}", help_text) for c in group.split(",")}
        missing += [f"{command} {name}" for name in sorted(options | choices) if name not in text]
    names = CONTRACT_OPTIONS | CONTRACT_VALUES | shared_contract().get("options", set())
    missing += [n for n in names if n not in text]
    contract = CONTRACT_COMMANDS | shared_contract().get("commands", set())
    missing += [f"curator {c}" for c in contract if f"curator {c}" not in text]
    assert missing == []


def test_every_input_and_output_of_the_action_is_in_action() -> None:
    text = page("action.md")
    action = yaml.safe_load((ROOT / ".github/actions/curator/action.yml").read_text())
    names = [*action["inputs"], *action["outputs"]]
    assert [n for n in names if f"`{n}`" not in text] == []
    modes = ("check", "pr", "comment", "audit", "discover")
    assert [m for m in modes if f"| `{m}` |" not in text] == []


def test_every_pyproject_setting_is_in_configuration() -> None:
    text = page("configuration.md")
    # `silenced` is what `severity = off` makes, no setting of its own.
    derived = {"root", "github_token", "silenced"}
    settings = {f.name for f in fields(Options)} - derived - TRUSTED_ONLY
    assert {s for s in settings if f"`{s}`" not in text} == set()
