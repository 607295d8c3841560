"""A run imports what it uses: the pipeline alone pulls in no HTTP client, renderer or reader,
and a run that asks one service imports that service's resolver only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HEAVY = ("httpx", "asyncio", "tenacity", "github", "arxiv", "rich", "markdown_it", "jsonschema")
RESOLVERS = ("curator.resolvers.arxiv", "curator.resolvers.github", "curator.resolvers.web")
LIST = 'section: A\nlinks:\n  - {url: "https://example.org/a"}\n'


def _modules(code: str, cwd: Path) -> set[str]:
    """The modules a fresh interpreter holds after running `code`."""
    script = f"import sys\n{code}\nprint(' '.join(sys.modules))"
    env = {**os.environ, "CURATOR_CACHE": str(cwd / "cache.sqlite")}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_importing_the_pipeline_imports_no_client_or_renderer(tmp_path: Path) -> None:
    loaded = _modules("import curator.run.pipeline", tmp_path)
    assert [m for m in (*HEAVY, *RESOLVERS) if m in loaded] == []


def test_a_run_imports_the_resolver_of_the_service_it_asks_only(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "links.yaml").write_text(LIST, encoding="utf-8")
    run = (
        "from curator.cli import main\n"
        "main(['check', 'data', '--offline', '--skip', 'scope', '--format', 'json',"
        f" '--output', {str(tmp_path / 'r.json')!r}, '--fail-on', 'never'])"
    )
    loaded = _modules(run, tmp_path)
    assert "curator.resolvers.web" in loaded
    assert [m for m in RESOLVERS if m in loaded] == ["curator.resolvers.web"]
    assert "rich" not in loaded and "markdown_it" not in loaded


def test_a_pull_request_run_on_a_catalogue_imports_no_document_reader(tmp_path: Path) -> None:
    """The run's comparison with the base holds the documents' inline parses; a catalogue's
    pull-request run, which reads no document, must not make them (nor import markdown-it)."""
    (tmp_path / "data").mkdir()
    links = tmp_path / "data" / "links.yaml"
    links.write_text(LIST, encoding="utf-8")
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "base"]):
        subprocess.run(["git", *ident, *args], cwd=tmp_path, check=True, capture_output=True)
    links.write_text(LIST + '  - {url: "https://example.org/b"}\n', encoding="utf-8")
    run = (
        "from curator.cli import main\n"
        "main(['check', 'data', '--offline', '--skip', 'scope', '--format', 'json',"
        " '--changed-since', 'HEAD',"
        f" '--output', {str(tmp_path / 'r.json')!r}, '--fail-on', 'never'])"
    )
    loaded = _modules(run, tmp_path)
    assert "curator.sources.select" in loaded
    assert "markdown_it" not in loaded and "curator.sources.doc_markdown" not in loaded
    assert "curator.sources.doc_parse" not in loaded


def test_the_command_line_imports_no_lab_or_stage(tmp_path: Path) -> None:
    """`curator --version` (and every command's start) builds the parser only: the scope lab
    (0.08 s of imports when cli/scope.py imported it at the top) and the pipeline wait."""
    loaded = _modules("import curator.cli", tmp_path)
    assert sorted(m for m in loaded if m.startswith(("curator.lab", "curator.run"))) == []
    assert [m for m in HEAVY if m in loaded] == []
