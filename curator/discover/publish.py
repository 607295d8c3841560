"""`discover --repo`: one "new papers" issue per window, a checklist of the candidates.

It rides on the audit issue's machinery (`curator.publish.audit.find_issue`: our open issues
with the label whose body starts with the audit marker, written by our login) and tells
windows apart by a second hidden marker. Ticks a maintainer set survive an update.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from curator.discover.render import markdown
from curator.discover.run import DiscoverReport
from curator.publish import write_output
from curator.publish.api import GitHubAPI, valid_repo
from curator.publish.api import from_env as api_from_env
from curator.publish.audit import BODY_LIMIT, MARKER, AuditResult, find_issue

_TICKED = re.compile(r"^- \[[xX]\] .*?`arxiv:([^`\s]+)`", re.MULTILINE)


def window_marker(report: DiscoverReport) -> str:
    """The hidden line naming the issue's window."""
    return f"<!-- curator:discover {report.window.label} -->"


def ticked(body: str) -> frozenset[str]:
    """The arXiv IDs whose checklist box is ticked in an issue body."""
    return frozenset(_TICKED.findall(body or ""))


def issue_body(report: DiscoverReport, checked: frozenset[str] = frozenset()) -> str:
    """Markers, then the Markdown report sized to GitHub's body limit."""
    head = f"{MARKER}\n{window_marker(report)}\n\n"
    return head + markdown(report, limit=BODY_LIMIT - len(head) - 100, checked=checked)


def title(report: DiscoverReport) -> str:
    """`curator: 12 new papers submitted 2026-09-23..2026-09-29`."""
    return f"curator: {len(report.candidates)} new papers submitted {report.window.label}"


def publish(api: GitHubAPI, repo: str, report: DiscoverReport, label: str) -> AuditResult:
    """Open or update the window's issue (none is opened for a window with no candidate)."""
    valid_repo(repo)
    marker = window_marker(report)
    mine = [i for i in find_issue(api, repo, label) if marker in (i.body or "")]
    current: Any = mine[0] if mine else None
    if current is None:
        if not report.candidates:
            return AuditResult("none")
        body, name = issue_body(report), title(report)
        made = api.call(
            "POST issue",
            lambda: api.repo(repo).create_issue(title=name, body=body, labels=[label]),
            creates=True,
        )
        return AuditResult("opened", made.number, made.html_url or "")
    body, name = issue_body(report, ticked(str(current.body or ""))), title(report)
    api.call("PATCH issue", lambda: current.edit(title=name, body=body))
    return AuditResult("updated", int(current.number), current.html_url or "")


def publish_from_env(
    repo: str, report: DiscoverReport, env: Mapping[str, str], label: str
) -> AuditResult:
    """Publish with the token and API URL of the environment; set the `issue-url` output."""
    with api_from_env(env) as api:
        result = publish(api, repo, report, label)
    write_output("issue-url", result.url, env.get("GITHUB_OUTPUT") or None)
    return result
