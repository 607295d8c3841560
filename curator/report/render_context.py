"""What a renderer needs to know about where the report will be shown (repository, commit, run)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from curator.textio import json_text

DEFAULT_SERVER = "https://github.com"


@dataclass(frozen=True)
class Suggested:
    """What the pull request's review holds: `posted` one-click suggestions (at `url`, a link
    GitHub gave), and `left` fixes that could not be placed on the pull request's diff."""

    posted: int = 0
    left: int = 0
    url: str = ""


@dataclass(frozen=True)
class RenderContext:
    """Repository (owner/name), head commit, server and run URLs, PR mode and a title; and
    in a pull request, the suggestions its review holds."""

    repository: str = ""
    head_sha: str = ""
    server_url: str = DEFAULT_SERVER
    run_url: str = ""
    changed_only: bool = False
    title: str = "curator report"
    suggested: Suggested | None = None

    def blob_url(self, file: str, line: int) -> str:
        """Link to file:line at the head commit, or "" when repository or commit is unknown,
        or when the file's path has `.`, `..` or empty parts (a browser would resolve those
        out of the repository: a saved report names any file it likes)."""
        parts = file.lstrip("/").split("/")
        if not self.repository or not self.head_sha or {"", ".", ".."} & set(parts):
            return ""
        path = quote("/".join(parts), safe="/")
        sha = quote(self.head_sha, safe="")
        anchor = f"#L{line}" if line > 0 else ""
        return f"{self.server_url.rstrip('/')}/{self.repository}/blob/{sha}/{path}{anchor}"


def from_env(env: Mapping[str, str], changed_only: bool = False, title: str = "") -> RenderContext:
    """A RenderContext from the variables GitHub Actions sets (and the event payload file)."""
    server = env.get("GITHUB_SERVER_URL") or DEFAULT_SERVER
    repo = env.get("GITHUB_REPOSITORY", "")
    run_id = env.get("GITHUB_RUN_ID", "")
    run_url = f"{server.rstrip('/')}/{repo}/actions/runs/{run_id}" if repo and run_id else ""
    # In a pull_request run GITHUB_SHA is the merge commit; the PR's own head is in the event.
    head = _event_head_sha(env.get("GITHUB_EVENT_PATH", "")) or env.get("GITHUB_SHA", "")
    return RenderContext(
        repository=repo,
        head_sha=head,
        server_url=server,
        run_url=run_url,
        changed_only=changed_only,
        title=title or RenderContext.title,
    )


def _event_head_sha(path: str) -> str:
    """pull_request.head.sha (or workflow_run.head_sha) from the event payload, else ""."""
    if not path:
        return ""
    try:
        event = json_text.loads(Path(path).read_bytes())
    except (OSError, ValueError):
        return ""
    if not isinstance(event, dict):
        return ""
    for outer, inner in (("pull_request", "head"), ("workflow_run", "")):
        node = event.get(outer)
        if isinstance(node, dict) and inner:
            node = node.get(inner)
        sha = node.get("sha" if inner else "head_sha") if isinstance(node, dict) else None
        if isinstance(sha, str) and sha:
            return sha
    return ""
