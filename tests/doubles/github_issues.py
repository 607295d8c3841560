"""A stateful loopback GitHub for issues, issue comments, pulls and /user.

Shapes come from the real recordings in tests/fixtures/shared/api-samples/github: a comment
object is the recorded `rest_issue_comment_get_200_2025.json` with id, body, user and times
replaced; list responses carry the recorded headers and a Link header in the recorded form
(whose URLs switch to /repositories/{id}/..., as GitHub's do); POST answers 201 with
Location, PATCH 200, DELETE 204. No issue-object or /user recording exists, so those are
built by analogy from the comment recording (same user object, url/html_url pattern) and say
so here.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from typing import Any

from tests.conftest import API_SAMPLES
from tests.doubles.server import LoopbackServer, Reply, Request

GITHUB = API_SAMPLES / "github"
_DROP = {"content-encoding", "content-length", "transfer-encoding"}
REPO_ID = 3544490  # the repository id of the recorded Link header


def recorded_headers(name: str) -> dict[str, str]:
    """The header block of a recording, minus the encoding headers the body no longer has."""
    lines = (GITHUB / f"{name}.headers.txt").read_text(encoding="utf-8").splitlines()[1:]
    pairs = (line.split(":", 1) for line in lines if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs if k.strip().lower() not in _DROP}


def recorded_json(name: str) -> Any:
    """The body of a recording."""
    return json.loads((GITHUB / f"{name}.json").read_text(encoding="utf-8"))


@dataclass
class FakeGitHub:
    """Issues, comments and pulls of one or more repositories, served on a LoopbackServer."""

    server: LoopbackServer
    login: str = "curator-bot"
    user_forbidden: bool = False
    #: A token without write permission: every POST, PATCH and DELETE is refused.
    read_only: bool = False
    per_page_cap: int = 100
    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    issues: dict[int, dict[str, Any]] = field(default_factory=dict)
    pulls: list[dict[str, Any]] = field(default_factory=list)
    next_id: int = 600422520
    fail_next: list[Reply] = field(default_factory=list)
    #: ref (tag, branch) -> commit, for GET /repos/{o}/{r}/commits/{ref}
    commits: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._comment = recorded_json("rest_issue_comment_get_200_2025")
        self._list_headers = recorded_headers("rest_issue_comments_list_page1_link_header_2024")
        self._list_headers.pop("Link", None)
        self._post_headers = recorded_headers("rest_issue_comment_post_201_2021")
        self._patch_headers = recorded_headers("rest_issue_comment_patch_200_2020")
        self.server.route("*", "/", self.handle)

    # -- seeding -------------------------------------------------------------------------
    def user(self, login: str) -> dict[str, Any]:
        """The recorded user object, renamed."""
        user = copy.deepcopy(self._comment["user"])
        user.update(login=login, url=f"{self.api}/users/{login}", html_url=f"{self.web}/{login}")
        user["type"] = "Bot" if login.endswith("[bot]") else "User"
        return user

    def add_comment(self, repo: str, number: int, body: str, login: str) -> dict[str, Any]:
        """A comment as the recording shapes it."""
        self.next_id += 1
        cid = self.next_id
        item = copy.deepcopy(self._comment)
        item.update(
            id=cid,
            node_id=f"IC_fake{cid}",
            body=body,
            user=self.user(login),
            url=f"{self.api}/repos/{repo}/issues/comments/{cid}",
            html_url=f"{self.web}/{repo}/pull/{number}#issuecomment-{cid}",
            issue_url=f"{self.api}/repos/{repo}/issues/{number}",
            created_at="2026-11-30T12:00:00Z",
            updated_at="2026-11-30T12:00:00Z",
        )
        item["_repo"], item["_number"] = repo, number
        self.comments[cid] = item
        return item

    def add_issue(
        self, repo: str, title: str, body: str, labels: list[str], login: str
    ) -> dict[str, Any]:
        """An issue by analogy with the comment recording (no issue recording exists)."""
        number = max([0, *self.issues]) + 1
        self.next_id += 1
        issue = {
            "url": f"{self.api}/repos/{repo}/issues/{number}",
            "html_url": f"{self.web}/{repo}/issues/{number}",
            "id": self.next_id,
            "node_id": f"I_fake{self.next_id}",
            "number": number,
            "title": title,
            "body": body,
            "user": self.user(login),
            "labels": [{"name": name} for name in labels],
            "state": "open",
            "state_reason": None,
            "comments": 0,
            "author_association": "OWNER",
            "_repo": repo,
        }
        self.issues[number] = issue
        return issue

    def add_pull(self, repo: str, number: int, head_sha: str, fork: bool = False) -> None:
        """An open pull request (fork PRs have a head repo under another owner)."""
        owner = "someone-else" if fork else repo.split("/")[0]
        head_repo = {"full_name": f"{owner}/{repo.split('/')[1]}", "fork": fork}
        self.pulls.append(
            {
                "number": number,
                "state": "open",
                "head": {"sha": head_sha, "repo": head_repo},
                "_repo": repo,
            }
        )

    # -- views ---------------------------------------------------------------------------
    @property
    def api(self) -> str:
        return self.server.url

    @property
    def web(self) -> str:
        return "https://github.com"

    def comments_on(self, repo: str, number: int) -> list[dict[str, Any]]:
        """Comments on one issue/PR, oldest first."""
        found = [c for c in self.comments.values() if c["_repo"] == repo and c["_number"] == number]
        return sorted(found, key=lambda c: c["id"])

    # -- HTTP ----------------------------------------------------------------------------
    def handle(self, req: Request) -> Reply:
        """Route one request."""
        if self.fail_next:
            return self.fail_next.pop(0)
        if self.read_only and req.method in ("POST", "PATCH", "DELETE"):
            # What GitHub answers an Actions token whose job lacks the permission.
            return Reply.json({"message": "Resource not accessible by integration"}, 403)
        for method, pattern, name in self.routes():
            match = re.fullmatch(pattern, req.path)
            if match and req.method == method:
                handler = getattr(self, name)
                reply: Reply = handler(req, *match.groups())
                return reply
        return Reply.json({"message": "Not Found", "status": "404"}, 404)

    def routes(self) -> tuple[tuple[str, str, str], ...]:
        """(method, path pattern, handler name), first match wins."""
        return _ROUTES

    def get_user(self, req: Request) -> Reply:
        if self.user_forbidden:
            # What an Actions GITHUB_TOKEN gets from GET /user.
            return Reply.json({"message": "Resource not accessible by integration"}, 403)
        return Reply.json(self.user(self.login), 200, self._list_headers)

    def list_comments(self, req: Request, owner: str, name: str, number: str) -> Reply:
        items = [_public(c) for c in self.comments_on(f"{owner}/{name}", int(number))]
        base = f"{self.api}/repositories/{REPO_ID}/issues/{number}/comments"
        return self._page(req, items, base)

    def list_comments_by_id(self, req: Request, repo_id: str, number: str) -> Reply:
        repo = next((c["_repo"] for c in self.comments.values() if c["_number"] == int(number)), "")
        owner, _, name = repo.partition("/")
        return self.list_comments(req, owner, name, number)

    def create_comment(self, req: Request, owner: str, name: str, number: str) -> Reply:
        body = _body(req)["body"]
        made = self.add_comment(f"{owner}/{name}", int(number), body, self._author(req))
        headers = {**self._post_headers, "Location": made["url"]}
        return Reply.json(_public(made), 201, headers)

    def edit_comment(self, req: Request, owner: str, name: str, cid: str) -> Reply:
        item = self.comments.get(int(cid))
        if item is None:
            return Reply.json({"message": "Not Found"}, 404)
        item["body"] = _body(req)["body"]
        item["updated_at"] = "2026-11-30T12:30:00Z"
        return Reply.json(_public(item), 200, self._patch_headers)

    def delete_comment(self, req: Request, owner: str, name: str, cid: str) -> Reply:
        if self.comments.pop(int(cid), None) is None:
            return Reply.json({"message": "Not Found"}, 404)
        return Reply(204, {})

    def list_issues(self, req: Request, owner: str, name: str) -> Reply:
        labels = set(filter(None, req.query.get("labels", [""])[0].split(",")))
        state = req.query.get("state", ["open"])[0]
        items = [
            _public(i)
            for i in sorted(self.issues.values(), key=lambda i: i["number"])
            if i["_repo"] == f"{owner}/{name}"
            and (state == "all" or i["state"] == state)
            and labels <= {label["name"] for label in i["labels"]}
        ]
        return self._page(req, items, f"{self.api}/repos/{owner}/{name}/issues")

    def create_issue(self, req: Request, owner: str, name: str) -> Reply:
        data = _body(req)
        made = self.add_issue(
            f"{owner}/{name}",
            data["title"],
            data.get("body", ""),
            list(data.get("labels", [])),
            self._author(req),
        )
        return Reply.json(_public(made), 201, {**self._post_headers, "Location": made["url"]})

    def edit_issue(self, req: Request, owner: str, name: str, number: str) -> Reply:
        issue = self.issues.get(int(number))
        if issue is None:
            return Reply.json({"message": "Not Found"}, 404)
        for key in ("title", "body", "state", "state_reason"):
            if key in _body(req):
                issue[key] = _body(req)[key]
        return Reply.json(_public(issue), 200, self._patch_headers)

    def list_pulls(self, req: Request, owner: str, name: str) -> Reply:
        items = [_public(p) for p in self.pulls if p["_repo"] == f"{owner}/{name}"]
        return self._page(req, items, f"{self.api}/repos/{owner}/{name}/pulls")

    def get_commit(self, req: Request, owner: str, name: str, ref: str) -> Reply:
        """A commit by ref, by analogy (no commit recording exists): only `sha` and `url`."""
        sha = self.commits.get(ref)
        if sha is None:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        return Reply.json({"sha": sha, "url": f"{self.api}/repos/{owner}/{name}/commits/{sha}"})

    def _author(self, req: Request) -> str:
        """Who the token is: the bot for a token the double calls an Actions token."""
        return "github-actions[bot]" if self.user_forbidden else self.login

    def _page(self, req: Request, items: list[dict[str, Any]], base: str) -> Reply:
        """One page with the recorded Link header form (next/last, or prev/first)."""
        per = min(int(req.query.get("per_page", ["30"])[0]), self.per_page_cap)
        page = int(req.query.get("page", ["1"])[0])
        last = max(1, -(-len(items) // per))
        keep = {k: v[0] for k, v in req.query.items() if k not in {"page", "per_page"}}
        extra = "".join(f"&{k}={v}" for k, v in keep.items())
        link = lambda n, rel: f'<{base}?per_page={per}{extra}&page={n}>; rel="{rel}"'  # noqa: E731
        rels = [link(page + 1, "next"), link(last, "last")] if page < last else []
        if page > 1:
            rels += [link(page - 1, "prev"), link(1, "first")]
        headers = dict(self._list_headers)
        if rels:
            headers["Link"] = ", ".join(rels)
        return Reply.json(items[(page - 1) * per : page * per], 200, headers)


def _public(item: dict[str, Any]) -> dict[str, Any]:
    """The object without the double's bookkeeping keys."""
    return {k: v for k, v in item.items() if not k.startswith("_")}


def _body(req: Request) -> dict[str, Any]:
    data = req.json()
    assert isinstance(data, dict)
    return data


_NAME = r"([A-Za-z0-9_.-]+)"
_ROUTES = (
    ("GET", r"/user", "get_user"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/issues/(\d+)/comments", "list_comments"),
    ("GET", r"/repositories/(\d+)/issues/(\d+)/comments", "list_comments_by_id"),
    ("POST", rf"/repos/{_NAME}/{_NAME}/issues/(\d+)/comments", "create_comment"),
    ("PATCH", rf"/repos/{_NAME}/{_NAME}/issues/comments/(\d+)", "edit_comment"),
    ("DELETE", rf"/repos/{_NAME}/{_NAME}/issues/comments/(\d+)", "delete_comment"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/issues", "list_issues"),
    ("POST", rf"/repos/{_NAME}/{_NAME}/issues", "create_issue"),
    ("PATCH", rf"/repos/{_NAME}/{_NAME}/issues/(\d+)", "edit_issue"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/pulls", "list_pulls"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/commits/([^/]+)", "get_commit"),
)


def seed_recorded_comments(fake: FakeGitHub, repo: str, number: int) -> None:
    """Other people's comments: the bodies and authors of the recorded 4-item list."""
    for item in recorded_json("rest_issue_comments_list_200_4items_2025"):
        fake.add_comment(repo, number, item["body"], item["user"]["login"])
