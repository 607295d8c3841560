"""The loopback GitHub of github_issues.py, grown pull requests, reviews and the Git database:
pulls (get, list with state/head/base, create, edit, close), a pull's files with their patches,
reviews (create with comments, pending or submitted; edit; delete a pending one), review
comments (list, delete), the repository, and git refs, commits, trees and blobs.

Shapes are PyGithub's recorded answers (tests/fixtures/pygithub, copied from its
tests/ReplayData: the file named in each fixture's README line) with ids, URLs and content
replaced; statuses are the recorded ones (a review POST answers 200, a ref or blob POST 201, a
comment or ref DELETE 204). The refusals are GitHub's own words where a public thread quotes
them (a review comment off the diff, a second pending review, dismissing a commented review);
the others ("Reference already exists", "Update is not a fast forward") follow the REST
documentation. Objects carry real git SHAs: a list repository's history is loaded from a
local git repository (`load_git`), and a blob POSTed is hashed as git hashes it. An open
pull request's head follows its branch, and its files are listed against the merge base, as
GitHub's are. `faults` serves chosen failures (409, 422, 5xx, a lost answer) at chosen
requests, before or after the request takes effect (`Fault`).
"""

from __future__ import annotations

import base64
import difflib
import hashlib
import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.conftest import ROOT
from tests.doubles.github_issues import _NAME, FakeGitHub, _body, _public, recorded_json
from tests.doubles.server import Reply, Request

RECORDED = ROOT / "tests" / "fixtures" / "pygithub"
DOCS = "https://docs.github.com/rest"


def replayed(name: str) -> Any:
    """One of PyGithub's recorded answers (tests/fixtures/pygithub/NAME.json)."""
    return json.loads((RECORDED / f"{name}.json").read_text(encoding="utf-8"))


def git_blob_sha(data: bytes) -> str:
    """The SHA git gives a blob of `data`."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def unprocessable(*errors: Any, message: str = "Unprocessable Entity", doc: str = "") -> Reply:
    """GitHub's 422 answer."""
    body = {
        "message": message,
        "errors": list(errors),
        "documentation_url": f"{DOCS}/{doc}",
        "status": "422",
    }
    return Reply.json(body, 422)


#: The bodies GitHub answers with these statuses (its error JSON: message, documentation).
FAULT_BODIES = {
    409: {"message": "Conflict", "documentation_url": f"{DOCS}/git/refs", "status": "409"},
    422: {
        "message": "Validation Failed",
        "errors": [{"resource": "Request", "code": "custom", "message": "refused"}],
        "documentation_url": DOCS,
        "status": "422",
    },
    500: {"message": "Server Error"},
    502: {"message": "Server Error"},
}


@dataclass
class Fault:
    """A failure served for the requests `method` `path` (a regex searched in the path):
    `times` of them (from the `skip`+1-th match on), with `status` and GitHub's error JSON.
    With `after`, the request takes effect first and only its answer fails (a 5xx after the
    write, or no answer at all when `reset`): the case a retry or a second run must find."""

    method: str
    path: str
    status: int = 500
    times: int = 1
    after: bool = False
    reset: bool = False
    skip: int = 0
    served: int = 0

    def matches(self, req: Request) -> bool:
        return req.method == self.method and re.search(self.path, req.path) is not None

    def reply(self) -> Reply:
        if self.reset:
            return Reply(reset=True)
        return Reply.json(FAULT_BODIES.get(self.status, {"message": "Error"}), self.status)


def patch_of(before: str, after: str) -> str:
    """A file's `patch` as the pull files API gives it: the unified diff's hunks, 3 lines of
    context, split at "\\n" only (a carriage return stays in its line)."""
    diff = difflib.unified_diff(before.split("\n"), after.split("\n"), lineterm="", n=3)
    return "\n".join(list(diff)[2:])


@dataclass
class FakeGitHubPulls(FakeGitHub):
    """FakeGitHub plus pull requests, reviews, review comments and the Git database."""

    default_branch: str = "main"
    blobs: dict[str, bytes] = field(default_factory=dict)
    #: tree sha -> {path: (mode, sha)} (every blob of the tree, at its full path)
    trees: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)
    git_commits: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: (repo, "heads/NAME") -> commit sha
    refs: dict[tuple[str, str], str] = field(default_factory=dict)
    reviews: dict[int, dict[str, Any]] = field(default_factory=dict)
    review_comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: (path, line) pairs GitHub refuses a review comment on even inside the diff
    refuse_lines: set[tuple[str, int]] = field(default_factory=set)
    #: (method, ref) of every write to a ref, in order
    ref_writes: list[tuple[str, str]] = field(default_factory=list)
    #: failures to serve at chosen requests (see Fault)
    faults: list[Fault] = field(default_factory=list)

    def routes(self) -> tuple[tuple[str, str, str], ...]:
        return _PULL_ROUTES + super().routes()

    def handle(self, req: Request) -> Reply:
        """Route one request, unless a fault is due for it."""
        due = [f for f in self.faults if f.matches(req) and f.served < f.times]
        fault = due[0] if due else None
        if fault is None or fault.skip > 0:
            if fault is not None:
                fault.skip -= 1
            return super().handle(req)
        fault.served += 1
        if fault.after:
            super().handle(req)
        return fault.reply()

    # -- seeding -------------------------------------------------------------------------
    def load_git(self, repo: str, folder: Path) -> None:
        """Every commit of the local git repository `folder`, its trees and blobs, and its
        branches as refs of `repo` (the SHAs are git's own)."""
        for sha in _git(folder, "rev-list", "--all").split():
            self._load_commit(folder, sha)
        for line in _git(folder, "for-each-ref", "--format=%(objectname) %(refname)").splitlines():
            sha, name = line.split()
            if name.startswith("refs/heads/"):
                self.refs[(repo, name.removeprefix("refs/"))] = sha

    def _load_commit(self, folder: Path, sha: str) -> None:
        tree = _git(folder, "rev-parse", f"{sha}^{{tree}}")
        parents = _git(folder, "rev-list", "--parents", "-n", "1", sha).split()[1:]
        files: dict[str, tuple[str, str]] = {}
        for line in _git(folder, "ls-tree", "-r", sha).splitlines():
            meta, path = line.split("\t", 1)
            mode, _, blob = meta.split()
            files[path] = (mode, blob)
            if blob not in self.blobs:
                self.blobs[blob] = subprocess.run(
                    ["git", "-C", str(folder), "cat-file", "blob", blob],
                    capture_output=True,
                    check=True,
                ).stdout
        self.trees[tree] = files
        message = _git(folder, "log", "-1", "--format=%B", sha)
        self.git_commits[sha] = {"tree": tree, "parents": parents, "message": message}

    def add_pull(  # type: ignore[override]
        self,
        repo: str,
        number: int,
        head_sha: str,
        fork: bool = False,
        *,
        base_sha: str = "",
        head_ref: str = "add-entry",
        login: str = "contributor",
    ) -> dict[str, Any]:
        """An open pull request from `head_ref` at `head_sha` (a fork's when `fork`) onto the
        default branch at `base_sha`."""
        owner = "someone-else" if fork else repo.split("/")[0]
        head_repo = f"{owner}/{repo.split('/')[1]}"
        pull = self._pull_object(repo, number, login, title=f"Pull request {number}", body="")
        pull["head"] = self._end(head_repo, head_ref, head_sha, fork)
        pull["base"] = self._end(repo, self.default_branch, base_sha, False)
        pull["_repo"] = repo
        self.pulls.append(pull)
        return pull

    # -- views ---------------------------------------------------------------------------
    def branch(self, repo: str, name: str) -> str | None:
        """The commit a branch points at, or None."""
        return self.refs.get((repo, f"heads/{name}"))

    def file_at(self, commit: str, path: str) -> bytes | None:
        """A file's bytes at a commit, or None."""
        entry = self.trees[self.git_commits[commit]["tree"]].get(path)
        return self.blobs[entry[1]] if entry else None

    def reviews_on(self, repo: str, number: int) -> list[dict[str, Any]]:
        """The reviews of one pull request, oldest first."""
        return [r for r in self.reviews.values() if (r["_repo"], r["_number"]) == (repo, number)]

    def comments_of(self, review: dict[str, Any]) -> list[dict[str, Any]]:
        """The review comments one review holds."""
        return [
            c for c in self.review_comments.values() if c["pull_request_review_id"] == review["id"]
        ]

    def pulls_of(self, repo: str, state: str = "all") -> list[dict[str, Any]]:
        """Pull requests of `repo` (open, closed or all)."""
        return [p for p in self.pulls if p["_repo"] == repo and state in ("all", p["state"])]

    # -- the repository ------------------------------------------------------------------
    def get_repo(self, req: Request, owner: str, name: str) -> Reply:
        return Reply.json(self._repo_object(f"{owner}/{name}", fork=False))

    def _repo_object(self, full: str, fork: bool) -> dict[str, Any]:
        """The recorded repository, renamed, on this double's API."""
        data = recorded_json("rest_repo_get_200_fork_2026")
        data = self._retarget(data, data["full_name"], full)
        data.update(
            full_name=full, name=full.split("/")[1], fork=fork, default_branch=self.default_branch
        )
        data["owner"] = self.user(full.split("/")[0])
        return data

    def _retarget(self, data: Any, old: str, new: str) -> Any:
        """`data` with api.github.com and github.com URLs of repository `old` moved to `new`
        on this double (and user URLs onto its API)."""
        text = json.dumps(data)
        text = text.replace(f"https://api.github.com/repos/{old}", f"{self.api}/repos/{new}")
        text = text.replace(f"https://github.com/{old}", f"{self.web}/{new}")
        text = text.replace("https://api.github.com/users/", f"{self.api}/users/")
        return json.loads(text)

    # -- pulls ---------------------------------------------------------------------------
    def _pull_object(
        self, repo: str, number: int, login: str, title: str, body: str
    ) -> dict[str, Any]:
        data = replayed("pull")
        data = self._retarget(data, "austinsasko/PyGithub", repo)
        self.next_id += 1
        data.update(
            id=self.next_id,
            node_id=f"PR_fake{self.next_id}",
            number=number,
            state="open",
            title=title,
            body=body,
            user=self.user(login),
            closed_at=None,
            merged_at=None,
            merged=False,
            draft=False,
            created_at="2026-12-01T03:17:00Z",
            updated_at="2026-12-01T03:17:00Z",
        )
        for key in ("url", "html_url", "issue_url"):
            data[key] = re.sub(r"/(pulls|pull|issues)/\d+$", rf"/\1/{number}", data[key])
        data["url"] = f"{self.api}/repos/{repo}/pulls/{number}"
        data["issue_url"] = f"{self.api}/repos/{repo}/issues/{number}"
        data["html_url"] = f"{self.web}/{repo}/pull/{number}"
        return data

    def _end(self, repo: str, ref: str, sha: str, fork: bool) -> dict[str, Any]:
        """The `head` or `base` of a pull: label, ref, sha, user and repository."""
        owner = repo.split("/")[0]
        return {
            "label": f"{owner}:{ref}",
            "ref": ref,
            "sha": sha,
            "user": self.user(owner),
            "repo": self._repo_object(repo, fork),
        }

    def _find_pull(self, owner: str, name: str, number: str) -> dict[str, Any] | None:
        repo = f"{owner}/{name}"
        return next(
            (p for p in self.pulls if p["_repo"] == repo and p["number"] == int(number)), None
        )

    def get_pull(self, req: Request, owner: str, name: str, number: str) -> Reply:
        pull = self._find_pull(owner, name, number)
        if pull is None:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        return Reply.json(_public(pull))

    def list_pulls(self, req: Request, owner: str, name: str) -> Reply:
        state = req.query.get("state", ["open"])[0]
        head = req.query.get("head", [""])[0]
        base = req.query.get("base", [""])[0]
        items = [
            _public(p)
            for p in self.pulls_of(f"{owner}/{name}", state)
            if (not head or p["head"]["label"] == head) and (not base or p["base"]["ref"] == base)
        ]
        return self._page(req, items, f"{self.api}/repos/{owner}/{name}/pulls")

    def create_pull(self, req: Request, owner: str, name: str) -> Reply:
        repo, data = f"{owner}/{name}", _body(req)
        head = data["head"].split(":")[-1]
        head_sha, base_sha = self.branch(repo, head), self.branch(repo, data["base"])
        if head_sha is None or base_sha is None:
            return unprocessable(
                {"resource": "PullRequest", "field": "head", "code": "invalid"},
                message="Validation Failed",
                doc="pulls/pulls",
            )
        label = f"{owner}:{head}"
        if any(p["head"]["label"] == label for p in self.pulls_of(repo, "open")):
            said = f"A pull request already exists for {label}."
            return unprocessable(
                {"resource": "PullRequest", "code": "custom", "message": said},
                message="Validation Failed",
                doc="pulls/pulls",
            )
        number = max([0, *self.issues, *(p["number"] for p in self.pulls)]) + 1
        pull = self._pull_object(
            repo, number, self._author(req), data["title"], data.get("body") or ""
        )
        pull["head"] = self._end(repo, head, head_sha, False)
        pull["base"] = self._end(repo, data["base"], base_sha, False)
        pull["_repo"] = repo
        self.pulls.append(pull)
        return Reply.json(_public(pull), 201, {"Location": pull["url"]})

    def edit_pull(self, req: Request, owner: str, name: str, number: str) -> Reply:
        pull = self._find_pull(owner, name, number)
        if pull is None:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        for key, value in _body(req).items():
            if key in ("title", "body", "state"):
                pull[key] = value
        if pull["state"] == "closed":
            pull["closed_at"] = "2026-12-02T03:17:00Z"
        return Reply.json(_public(pull))

    def list_files(self, req: Request, owner: str, name: str, number: str) -> Reply:
        pull = self._find_pull(owner, name, number)
        if pull is None:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        items = self.files_of(pull)
        return self._page(req, items, f"{self.api}/repos/{owner}/{name}/pulls/{number}/files")

    def files_of(self, pull: dict[str, Any]) -> list[dict[str, Any]]:
        """The pull's changed files as the files API lists them, each with its patch."""
        base, head = pull["base"]["sha"], pull["head"]["sha"]
        if base not in self.git_commits or head not in self.git_commits:
            return []
        # GitHub compares the head with its merge base on the base branch: a branch rebuilt
        # on a newer base shows only its own changes. (A world whose base branch already
        # holds the head keeps the base the pull request was opened on.)
        tip = self.branch(pull["_repo"], pull["base"]["ref"])
        merged = self._merge_base(head, tip) if tip else base
        if merged != head and self._descends(merged, base):
            base = merged
        before = self.trees[self.git_commits[base]["tree"]]
        after = self.trees[self.git_commits[head]["tree"]]
        out = []
        for path in sorted(set(before) | set(after)):
            old, new = before.get(path), after.get(path)
            if old == new:
                continue
            item = replayed("pull_file")
            text_old = self.blobs[old[1]].decode() if old else ""
            text_new = self.blobs[new[1]].decode() if new else ""
            patch = patch_of(text_old, text_new)
            item.update(
                filename=path,
                sha=(new or old)[1],
                patch=patch,
                status="added" if not old else "removed" if not new else "modified",
                additions=patch.count("\n+"),
                deletions=patch.count("\n-"),
            )
            item["changes"] = item["additions"] + item["deletions"]
            out.append(item)
        return out

    # -- reviews -------------------------------------------------------------------------
    def list_reviews(self, req: Request, owner: str, name: str, number: str) -> Reply:
        items = [_public(r) for r in self.reviews_on(f"{owner}/{name}", int(number))]
        return self._page(req, items, f"{self.api}/repos/{owner}/{name}/pulls/{number}/reviews")

    def create_review(self, req: Request, owner: str, name: str, number: str) -> Reply:
        pull = self._find_pull(owner, name, number)
        if pull is None:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        data, login = _body(req), self._author(req)
        event = data.get("event")
        repo = f"{owner}/{name}"
        if not event and any(
            r["state"] == "PENDING" and r["user"]["login"] == login
            for r in self.reviews_on(repo, int(number))
        ):
            return unprocessable(
                "User can only have one pending review per pull request", doc="pulls/reviews"
            )
        refused = self._refusal(pull, data.get("comments") or [])
        if refused:
            return refused
        review = self._review_object(repo, int(number), login, data, pull)
        self.reviews[review["id"]] = review
        for item in data.get("comments") or []:
            self._add_review_comment(repo, int(number), review, item, login)
        return Reply.json(_public(review), 200)

    def _refusal(self, pull: dict[str, Any], comments: list[dict[str, Any]]) -> Reply | None:
        """GitHub's 422 when a comment is not on the diff (the whole review is refused)."""
        files = {f["filename"]: _hunk_lines(f["patch"]) for f in self.files_of(pull)}
        for item in comments:
            shown = files.get(item["path"], {})
            line, start = item["line"], item.get("start_line", item["line"])
            if line not in shown or (item["path"], line) in self.refuse_lines:
                return unprocessable(
                    "Pull request review thread line must be part of the diff and Pull "
                    "request review thread diff hunk can't be blank",
                    doc="pulls/reviews",
                )
            if start not in shown or shown[start] != shown[line]:
                return unprocessable(
                    "Pull request review thread start line must be part of the same hunk "
                    "as the line.",
                    doc="pulls/reviews",
                )
        return None

    def _review_object(
        self, repo: str, number: int, login: str, data: dict[str, Any], pull: dict[str, Any]
    ) -> dict[str, Any]:
        review = replayed("review")
        self.next_id += 1
        rid = self.next_id
        event = data.get("event")
        state = {
            "COMMENT": "COMMENTED",
            "APPROVE": "APPROVED",
            "REQUEST_CHANGES": "CHANGES_REQUESTED",
        }.get(event or "", "PENDING")
        html = f"{self.web}/{repo}/pull/{number}#pullrequestreview-{rid}"
        review.update(
            id=rid,
            node_id=f"PRR_fake{rid}",
            user=self.user(login),
            body=data.get("body") or "",
            state=state,
            html_url=html,
            pull_request_url=f"{self.api}/repos/{repo}/pulls/{number}",
            commit_id=data.get("commit_id") or pull["head"]["sha"],
            author_association="CONTRIBUTOR",
        )
        review["_links"] = {
            "html": {"href": html},
            "pull_request": {"href": review["pull_request_url"]},
        }
        if state != "PENDING":
            review["submitted_at"] = "2026-12-01T12:00:00Z"
        review["_repo"], review["_number"] = repo, number
        return review

    def _add_review_comment(
        self, repo: str, number: int, review: dict[str, Any], item: dict[str, Any], login: str
    ) -> None:
        comment = replayed("review_comment")
        self.next_id += 1
        cid = self.next_id
        comment = self._retarget(comment, "PyGithub/PyGithub", repo)
        comment.update(
            id=cid,
            node_id=f"PRRC_fake{cid}",
            pull_request_review_id=review["id"],
            path=item["path"],
            body=item["body"],
            user=self.user(login),
            line=item["line"],
            original_line=item["line"],
            side="RIGHT",
            start_line=item.get("start_line"),
            original_start_line=item.get("start_line"),
            start_side=item.get("start_side"),
            commit_id=review["commit_id"],
            original_commit_id=review["commit_id"],
            subject_type="line",
            url=f"{self.api}/repos/{repo}/pulls/comments/{cid}",
            html_url=f"{self.web}/{repo}/pull/{number}#discussion_r{cid}",
            pull_request_url=f"{self.api}/repos/{repo}/pulls/{number}",
        )
        comment["_repo"], comment["_number"] = repo, number
        self.review_comments[cid] = comment

    def _find_review(self, number: str, rid: str) -> dict[str, Any] | None:
        review = self.reviews.get(int(rid))
        return review if review is not None and review["_number"] == int(number) else None

    def edit_review(self, req: Request, owner: str, name: str, number: str, rid: str) -> Reply:
        review = self._find_review(number, rid)
        if review is None:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        review["body"] = _body(req)["body"]
        return Reply.json(_public(review))

    def delete_review(self, req: Request, owner: str, name: str, number: str, rid: str) -> Reply:
        review = self._find_review(number, rid)
        if review is None:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        if review["state"] != "PENDING":
            return unprocessable(
                "Can not delete a non-pending pull request review", doc="pulls/reviews"
            )
        del self.reviews[review["id"]]
        for comment in self.comments_of(review):
            del self.review_comments[comment["id"]]
        return Reply.json(_public(review))

    def dismiss_review(self, req: Request, owner: str, name: str, number: str, rid: str) -> Reply:
        review = self._find_review(number, rid)
        if review is None:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        if review["state"] in ("COMMENTED", "DISMISSED", "PENDING"):
            said = f"Can not dismiss a {review['state'].lower()} pull request review"
            return unprocessable(said, message="Validation Failed", doc="pulls/reviews")
        review["state"] = "DISMISSED"
        return Reply.json(_public(review))

    def list_review_comments(self, req: Request, owner: str, name: str, number: str) -> Reply:
        repo = f"{owner}/{name}"
        items = [
            _public(c)
            for c in self.review_comments.values()
            if (c["_repo"], c["_number"]) == (repo, int(number))
        ]
        return self._page(req, items, f"{self.api}/repos/{repo}/pulls/{number}/comments")

    def delete_review_comment(self, req: Request, owner: str, name: str, cid: str) -> Reply:
        if self.review_comments.pop(int(cid), None) is None:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        return Reply(204, {})

    # -- git -----------------------------------------------------------------------------
    def _ref_object(self, repo: str, ref: str) -> dict[str, Any]:
        data = replayed("git_ref")
        sha = self.refs[(repo, ref)]
        data.update(
            ref=f"refs/{ref}",
            url=f"{self.api}/repos/{repo}/git/refs/{ref}",
            node_id=f"REF_fake{abs(hash(ref)) % 10**6}",
        )
        data["object"] = {
            "sha": sha,
            "type": "commit",
            "url": f"{self.api}/repos/{repo}/git/commits/{sha}",
        }
        return data

    def get_ref(self, req: Request, owner: str, name: str, ref: str) -> Reply:
        repo = f"{owner}/{name}"
        if (repo, ref) not in self.refs:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        return Reply.json(self._ref_object(repo, ref))

    def create_ref(self, req: Request, owner: str, name: str) -> Reply:
        repo, data = f"{owner}/{name}", _body(req)
        ref = str(data["ref"]).removeprefix("refs/")
        if not str(data["ref"]).startswith("refs/") or ref.count("/") < 1:
            return unprocessable(message="Reference name is not valid", doc="git/refs")
        if (repo, ref) in self.refs:
            return unprocessable(message="Reference already exists", doc="git/refs")
        if data["sha"] not in self.git_commits:
            return unprocessable(message="Object does not exist", doc="git/refs")
        self.refs[(repo, ref)] = data["sha"]
        self.ref_writes.append(("POST", ref))
        self._follow(repo, ref)
        return Reply.json(self._ref_object(repo, ref), 201)

    def update_ref(self, req: Request, owner: str, name: str, ref: str) -> Reply:
        repo, data = f"{owner}/{name}", _body(req)
        if (repo, ref) not in self.refs:
            return unprocessable(message="Reference does not exist", doc="git/refs")
        if data["sha"] not in self.git_commits:
            return unprocessable(message="Object does not exist", doc="git/refs")
        if not data.get("force") and not self._descends(data["sha"], self.refs[(repo, ref)]):
            return unprocessable(message="Update is not a fast forward", doc="git/refs")
        self.refs[(repo, ref)] = data["sha"]
        self.ref_writes.append(("PATCH", ref))
        self._follow(repo, ref)
        return Reply.json(self._ref_object(repo, ref))

    def delete_ref(self, req: Request, owner: str, name: str, ref: str) -> Reply:
        if self.refs.pop((f"{owner}/{name}", ref), None) is None:
            return unprocessable(message="Reference does not exist", doc="git/refs")
        self.ref_writes.append(("DELETE", ref))
        return Reply(204, {})

    def _follow(self, repo: str, ref: str) -> None:
        """Open pull requests from branch `ref` of `repo` follow it, as GitHub's heads do."""
        for pull in self.pulls_of(repo, "open"):
            head = pull["head"]
            if f"heads/{head['ref']}" == ref and head["repo"]["full_name"] == repo:
                head["sha"] = self.refs[(repo, ref)]

    def _merge_base(self, head: str, other: str) -> str:
        """The nearest commit of `other`'s history that `head` descends from (else `other`)."""
        mine: set[str] = set()
        todo = [head]
        while todo:
            at = todo.pop()
            if at not in mine:
                mine.add(at)
                todo += self.git_commits.get(at, {}).get("parents", [])
        queue = [other]
        while queue:
            at = queue.pop(0)
            if at in mine:
                return at
            queue += self.git_commits.get(at, {}).get("parents", [])
        return other

    def _descends(self, sha: str, ancestor: str) -> bool:
        todo = [sha]
        while todo:
            at = todo.pop()
            if at == ancestor:
                return True
            todo += self.git_commits.get(at, {}).get("parents", [])
        return False

    def _commit_object(self, repo: str, sha: str) -> dict[str, Any]:
        data = replayed("git_commit")
        commit = self.git_commits[sha]
        data.update(
            sha=sha, message=commit["message"], url=f"{self.api}/repos/{repo}/git/commits/{sha}"
        )
        data["tree"] = {
            "sha": commit["tree"],
            "url": f"{self.api}/repos/{repo}/git/trees/{commit['tree']}",
        }
        data["parents"] = [
            {"sha": p, "url": f"{self.api}/repos/{repo}/git/commits/{p}"} for p in commit["parents"]
        ]
        return data

    def get_git_commit(self, req: Request, owner: str, name: str, sha: str) -> Reply:
        if sha not in self.git_commits:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        return Reply.json(self._commit_object(f"{owner}/{name}", sha))

    def create_git_commit(self, req: Request, owner: str, name: str) -> Reply:
        data = _body(req)
        if data["tree"] not in self.trees or any(
            p not in self.git_commits for p in data["parents"]
        ):
            return unprocessable(message="Tree SHA does not exist", doc="git/commits")
        record = {
            "tree": data["tree"],
            "parents": list(data["parents"]),
            "message": data["message"],
        }
        sha = hashlib.sha1(json.dumps([record, len(self.git_commits)]).encode()).hexdigest()
        self.git_commits[sha] = record
        return Reply.json(self._commit_object(f"{owner}/{name}", sha), 201)

    def _tree_object(self, repo: str, sha: str) -> dict[str, Any]:
        template = replayed("git_tree_recursive")["tree"][0]
        entries, folders = [], set()
        for path, (mode, blob) in sorted(self.trees[sha].items()):
            parts = path.split("/")
            folders |= {"/".join(parts[:i]) for i in range(1, len(parts))}
            entry = dict(
                template,
                path=path,
                mode=mode,
                sha=blob,
                size=len(self.blobs[blob]),
                url=f"{self.api}/repos/{repo}/git/blobs/{blob}",
            )
            entries.append(entry)
        for folder in sorted(folders):
            fake = hashlib.sha1(folder.encode()).hexdigest()
            entries.append(
                {
                    "path": folder,
                    "mode": "040000",
                    "type": "tree",
                    "sha": fake,
                    "url": f"{self.api}/repos/{repo}/git/trees/{fake}",
                }
            )
        return {
            "sha": sha,
            "url": f"{self.api}/repos/{repo}/git/trees/{sha}",
            "tree": sorted(entries, key=lambda e: e["path"]),
            "truncated": False,
        }

    def get_tree(self, req: Request, owner: str, name: str, sha: str) -> Reply:
        if sha not in self.trees:
            return Reply.json(recorded_json("rest_404_modern_body_with_status_2025"), 404)
        return Reply.json(self._tree_object(f"{owner}/{name}", sha))

    def create_tree(self, req: Request, owner: str, name: str) -> Reply:
        data = _body(req)
        files = dict(self.trees.get(data.get("base_tree") or "", {}))
        for item in data["tree"]:
            if item.get("sha") is None and "content" not in item:
                files.pop(item["path"], None)
                continue
            blob = item.get("sha") or self._store(item["content"].encode())
            if blob not in self.blobs:
                return unprocessable(message="tree.sha is not a valid blob", doc="git/trees")
            files[item["path"]] = (item["mode"], blob)
        sha = hashlib.sha1(json.dumps(sorted(files.items())).encode()).hexdigest()
        self.trees[sha] = files
        return Reply.json(self._tree_object(f"{owner}/{name}", sha), 201)

    def create_blob(self, req: Request, owner: str, name: str) -> Reply:
        data = _body(req)
        raw = data["content"]
        content = base64.b64decode(raw) if data.get("encoding") == "base64" else raw.encode()
        sha = self._store(content)
        made = dict(
            replayed("git_blob_created"),
            sha=sha,
            url=f"{self.api}/repos/{owner}/{name}/git/blobs/{sha}",
        )
        return Reply.json(made, 201)

    def _store(self, content: bytes) -> str:
        sha = git_blob_sha(content)
        self.blobs[sha] = content
        return sha


def _hunk_lines(patch: str) -> dict[int, int]:
    """New-file line -> hunk index, for every line a patch shows on its right side: what
    GitHub lets a review comment sit on (its own rule, written here apart from curator's)."""
    lines: dict[int, int] = {}
    hunk = -1
    at = 0
    for raw in patch.splitlines():
        if raw.startswith("@@"):
            hunk += 1
            at = int(raw.split("+")[1].split(",")[0].split(" ")[0])
        elif raw.startswith(("+", " ")):
            lines[at] = hunk
            at += 1
    return lines


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


_REF = r"(heads/.+)"
_PULL_ROUTES = (
    ("GET", rf"/repos/{_NAME}/{_NAME}", "get_repo"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/pulls/(\d+)", "get_pull"),
    ("PATCH", rf"/repos/{_NAME}/{_NAME}/pulls/(\d+)", "edit_pull"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/pulls", "list_pulls"),
    ("POST", rf"/repos/{_NAME}/{_NAME}/pulls", "create_pull"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/pulls/(\d+)/files", "list_files"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/pulls/(\d+)/reviews", "list_reviews"),
    ("POST", rf"/repos/{_NAME}/{_NAME}/pulls/(\d+)/reviews", "create_review"),
    ("PUT", rf"/repos/{_NAME}/{_NAME}/pulls/(\d+)/reviews/(\d+)", "edit_review"),
    ("DELETE", rf"/repos/{_NAME}/{_NAME}/pulls/(\d+)/reviews/(\d+)", "delete_review"),
    ("PUT", rf"/repos/{_NAME}/{_NAME}/pulls/(\d+)/reviews/(\d+)/dismissals", "dismiss_review"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/pulls/(\d+)/comments", "list_review_comments"),
    ("DELETE", rf"/repos/{_NAME}/{_NAME}/pulls/comments/(\d+)", "delete_review_comment"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/git/ref/{_REF}", "get_ref"),
    ("POST", rf"/repos/{_NAME}/{_NAME}/git/refs", "create_ref"),
    ("PATCH", rf"/repos/{_NAME}/{_NAME}/git/refs/{_REF}", "update_ref"),
    ("DELETE", rf"/repos/{_NAME}/{_NAME}/git/refs/{_REF}", "delete_ref"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/git/commits/([0-9a-f]{{40}})", "get_git_commit"),
    ("POST", rf"/repos/{_NAME}/{_NAME}/git/commits", "create_git_commit"),
    ("GET", rf"/repos/{_NAME}/{_NAME}/git/trees/([0-9a-f]{{40}})", "get_tree"),
    ("POST", rf"/repos/{_NAME}/{_NAME}/git/trees", "create_tree"),
    ("POST", rf"/repos/{_NAME}/{_NAME}/git/blobs", "create_blob"),
)
