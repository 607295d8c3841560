"""A GitHub REST + GraphQL double on a LoopbackServer, replaying the recorded shapes.

Bodies and headers come from tests/fixtures/shared/api-samples/github: the 2026 unauthenticated
`GET /repos` body is the template of every repository, the 301 → /repositories/{id} pair,
the 304, the secondary-limit 403, the 503 with an HTML body and the GraphQL headers are the
recordings with only names, counts and rate-limit numbers changed. Where no recording
exists (aliased GraphQL NOT_FOUND, RATE_LIMITED, the modern repo 404 body) the shapes
quoted in api-samples/README.md are used.

Repositories come from a dict the test supplies, keyed by "owner/name":
    {"a/b": {"stars": 3, "license": "MIT", "archived": False, "pushed_at": "2026-01-01T00:00:00Z"},
     "old/name": {"renamed_to": "new/name"}, "gone/blocked": {"status": 451}}
An old name may also set `redirect_status` (e.g. 307) and `redirect_base` (another origin).
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from curator.config.options import Options
from curator.core.outcomes import Counter
from curator.net.cache import Cache
from curator.resolvers.github import GithubResolver
from tests.conftest import API_SAMPLES
from tests.doubles.server import LoopbackServer, Reply, Request

SAMPLES = API_SAMPLES / "github"
_DROP = {"content-encoding", "content-length", "transfer-encoding", "status"}
_ALIAS = re.compile(
    r"(\w+)\s*:\s*repository\(\s*owner:\s*(\$\w+|\"[^\"]*\")\s*,\s*name:\s*(\$\w+|\"[^\"]*\")\s*\)"
)
_GRAPHQL_FIELDS = (
    "nameWithOwner", "url", "stargazerCount", "forkCount", "licenseInfo", "isArchived",
    "isDisabled", "isFork", "pushedAt", "defaultBranchRef", "homepageUrl", "description",
)  # fmt: skip
FAULTS = {
    "secondary", "primary", "html5xx", "timeout", "reset", "malformed", "rate_limited", "deep",
}  # fmt: skip
REPO_404 = {
    "message": "Not Found",
    "documentation_url": "https://docs.github.com/rest/repos/repos#get-a-repository",
    "status": "404",
}
RATE_LIMITED = {
    "data": None,
    "errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded for user ID 1."}],
}


def recorded(name: str) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of a recording; encoding and length headers dropped."""
    lines = (SAMPLES / f"{name}.headers.txt").read_text().splitlines()
    status = int(lines[0].split()[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        key, _, value = line.partition(":")
        if key.strip() and key.strip().lower() not in _DROP:
            headers[key.strip()] = value.strip()
    body = b""
    for ext in (".json", ".html"):
        if (SAMPLES / f"{name}{ext}").is_file():
            body = (SAMPLES / f"{name}{ext}").read_bytes()
    return status, headers, body


def _set(headers: dict[str, str], name: str, value: str) -> dict[str, str]:
    """Replace a header whatever its recorded case."""
    return _merge(headers, {name: value})


def _merge(headers: dict[str, str], extra: dict[str, str]) -> dict[str, str]:
    """`headers` with `extra` replacing any header of the same name in another case."""
    names = {k.lower() for k in extra}
    return {**{k: v for k, v in headers.items() if k.lower() not in names}, **extra}


@dataclass
class Fault:
    """An injected failure for the next `times` requests (None: every request) to `on`."""

    kind: str
    on: str = "*"
    times: int | None = None
    params: dict[str, Any] = field(default_factory=dict)


class GithubDouble:
    """REST `GET /repos/{o}/{r}`, `GET /repositories/{id}` and `POST /graphql` on loopback."""

    def __init__(
        self,
        server: LoopbackServer,
        repos: dict[str, dict[str, Any]] | None = None,
        token: str = "",
    ) -> None:
        self.server = server
        self.token = token  # when set, GraphQL refuses any other token with 401
        self.repos: dict[str, dict[str, Any]] = {}
        self.faults: list[Fault] = []
        self.tokens: list[str] = []
        self.remaining = 5000
        self._lock = threading.Lock()
        for name, spec in (repos or {}).items():
            self.add(name, **spec)
        server.route("GET", "/repos/", self._repos)
        server.route("GET", "/repositories/", self._repositories)
        server.route("POST", "/graphql", self._graphql)

    # -- set-up ------------------------------------------------------------------------------
    @property
    def api_url(self) -> str:
        """The REST base to put into Options.github_api_url."""
        return self.server.url

    @property
    def graphql_url(self) -> str:
        """The endpoint to put into Options.github_graphql_url."""
        return self.server.url + "/graphql"

    def add(self, full_name: str, **spec: Any) -> None:
        """Add a repository; `renamed_to` makes `full_name` an old name of another one."""
        target = spec.get("renamed_to")
        if target and target.lower() not in self.repos:
            self.add(target)
        self.repos[full_name.lower()] = {"full_name": full_name, "id": len(self.repos) + 1, **spec}

    def fail(self, kind: str, *, on: str = "*", times: int | None = None, **params: Any) -> None:
        """Inject a fault: secondary, primary, html5xx, timeout, reset, malformed, rate_limited,
        deep (well-formed JSON nested `levels` deep, answered with `status`)."""
        if kind not in FAULTS:
            raise ValueError(f"unknown fault kind {kind!r}")
        with self._lock:
            self.faults.append(Fault(kind, on, times, params))

    def count(self, api: str) -> int:
        """Requests received by `rest` or `graphql`."""
        if api == "graphql":
            return len(self.server.received("/graphql", "POST"))
        return len(self.server.received("/repos/")) + len(self.server.received("/repositories/"))

    # -- lookup ------------------------------------------------------------------------------
    def _lookup(self, full_name: str) -> tuple[dict[str, Any] | None, bool]:
        """(repository, renamed?) for a name as asked, following renames."""
        spec = self.repos.get(full_name.lower())
        if spec is None or "renamed_to" not in spec:
            return spec, False
        return self.repos.get(spec["renamed_to"].lower()), True

    def _by_id(self, repo_id: int) -> dict[str, Any] | None:
        return next((r for r in self.repos.values() if r["id"] == repo_id), None)

    # -- faults ------------------------------------------------------------------------------
    def _fault(self, api: str) -> Fault | None:
        """The first fault for `api`, used up by one request."""
        with self._lock:
            for fault in self.faults:
                if fault.on in ("*", api) and (fault.times is None or fault.times > 0):
                    if fault.times is not None:
                        fault.times -= 1
                    return fault
        return None

    def _fault_reply(self, fault: Fault, api: str) -> Reply | None:
        """The reply for a fault; None for `timeout`, which answers normally but late."""
        p = fault.params
        if fault.kind == "secondary":
            status, headers, body = recorded("rest_ratelimit_403_secondary_retry_after_2026")
            headers = _set(headers, "retry-after", str(p.get("retry_after", 60)))
            return Reply(status, headers, body)
        if fault.kind == "primary":
            return self._primary(float(p.get("reset_in", 3600)))
        if fault.kind == "rate_limited":
            _, headers, _ = recorded("graphql_query_repository_200_2024")
            return Reply(
                200, _merge(headers, self._limits(0, p)), json.dumps(RATE_LIMITED).encode()
            )
        if fault.kind == "html5xx":
            status, headers, body = recorded("rest_503_html_body_2012")
            return Reply(int(p.get("status", status)), headers, body)
        if fault.kind == "reset":
            return Reply(reset=True)
        if fault.kind == "malformed":
            status, headers, body = recorded("graphql_query_repository_200_2024")
            return Reply(200, headers, body[: len(body) // 2])
        if fault.kind == "deep":
            _, headers, _ = recorded("graphql_query_repository_200_2024")
            levels = int(p.get("levels", 100_000))
            body = b'{"message": "x", "data": ' + b"[" * levels + b"]" * levels + b"}"
            return Reply(int(p.get("status", 200)), headers, body)
        return None  # timeout: answered normally, but late

    def _primary(self, reset_in: float) -> Reply:
        """403 with x-ratelimit-remaining 0 and a reset `reset_in` seconds away."""
        status, headers, _ = recorded("rest_ratelimit_403_primary_unauth_2013")
        body = (SAMPLES / "rest_ratelimit_403_primary_unauth_body_quoted.json").read_bytes()
        headers = _merge(headers, self._limits(0, {"reset_in": reset_in}))
        return Reply(status, headers, body)

    def _limits(self, remaining: int, p: dict[str, Any] | None = None) -> dict[str, str]:
        """x-ratelimit-* headers for the current state."""
        reset = int(time.time() + float((p or {}).get("reset_in", 3600)))
        return {
            "x-ratelimit-limit": "5000",
            "x-ratelimit-remaining": str(remaining),
            "x-ratelimit-reset": str(reset),
            "x-ratelimit-used": str(5000 - remaining),
        }

    def _faulty(self, api: str) -> tuple[Reply | None, float]:
        """(fault reply or None, delay before answering)."""
        fault = self._fault(api)
        if fault is None:
            return None, 0.0
        if fault.kind == "timeout":
            return None, float(fault.params.get("seconds", 2.0))
        return self._fault_reply(fault, api), 0.0

    # -- REST --------------------------------------------------------------------------------
    def _repos(self, req: Request) -> Reply:
        parts = req.path.strip("/").split("/")
        reply, delay = self._faulty("rest")
        if reply is not None:
            return reply
        if len(parts) != 3:
            return _delayed(Reply.json(REPO_404, 404), delay)
        spec, renamed = self._lookup(f"{parts[1]}/{parts[2]}")
        if spec is not None and renamed:
            old = self.repos[f"{parts[1]}/{parts[2]}".lower()]
            return _delayed(self._moved(spec, old), delay)
        return _delayed(self._repo_reply(spec, req), delay)

    def _repositories(self, req: Request) -> Reply:
        reply, delay = self._faulty("rest")
        if reply is not None:
            return reply
        tail = req.path.rstrip("/").rsplit("/", 1)[-1]
        spec = self._by_id(int(tail)) if tail.isdigit() else None
        return _delayed(self._repo_reply(spec, req), delay)

    def _repo_reply(self, spec: dict[str, Any] | None, req: Request) -> Reply:
        """200 with ETag, 304 on a matching If-None-Match, 404 or another status."""
        if spec is None:
            status, headers, _ = recorded("rest_404_modern_body_with_status_2025")
            return Reply(status, _merge(headers, self._spend()), json.dumps(REPO_404).encode())
        if spec.get("status"):
            body = {"message": "Repository access blocked", "block": {"reason": "dmca"}}
            return Reply.json(body, int(spec["status"]))
        body = json.dumps(rest_body(spec)).encode()
        etag = 'W/"' + hashlib.sha256(body).hexdigest() + '"'
        if req.headers.get("if-none-match") == etag:
            _, headers, _ = recorded("rest_repo_get_304_not_modified_2013")
            headers = _set(headers, "etag", etag)
            return Reply(304, _merge(headers, self._limits(self.remaining)))
        _, headers, _ = recorded("rest_repo_get_200_unauth_2026")
        headers = _set(headers, "ETag", etag)
        return Reply(200, _merge(headers, self._spend()), body)

    def _moved(self, spec: dict[str, Any], old: dict[str, Any]) -> Reply:
        """301 to /repositories/{id}, as GitHub answers for a renamed repository."""
        status, headers, body = recorded("rest_repo_get_301_renamed_2023")
        status = int(old.get("redirect_status", status))
        location = f"{old.get('redirect_base', self.server.url)}/repositories/{spec['id']}"
        data = {**json.loads(body), "url": location}
        headers = _set(headers, "Location", location)
        return Reply(status, _merge(headers, self._spend()), json.dumps(data).encode())

    def _spend(self) -> dict[str, str]:
        """One request counted against the primary limit (304s are not)."""
        with self._lock:
            self.remaining = max(0, self.remaining - 1)
            return self._limits(self.remaining)

    # -- GraphQL -----------------------------------------------------------------------------
    def _graphql(self, req: Request) -> Reply:
        token = req.headers.get("authorization", "")
        with self._lock:
            self.tokens.append(token)
        given = token[7:] if token.lower().startswith("bearer ") else ""
        if not given or (self.token and given != self.token):
            message = "Bad credentials" if given else "Requires authentication"
            body = {"message": message, "documentation_url": "https://docs.github.com/graphql"}
            return Reply.json(body, 401)
        reply, delay = self._faulty("graphql")
        if reply is not None:
            return reply
        payload = req.json()
        assert isinstance(payload, dict)
        data, errors = self._answer(str(payload.get("query", "")), payload.get("variables") or {})
        out: dict[str, Any] = {"data": data}
        if errors:
            out["errors"] = errors
        _, headers, _ = recorded("graphql_query_repository_200_2024")
        return _delayed(Reply(200, _merge(headers, self._spend()), json.dumps(out).encode()), delay)

    def _answer(
        self, query: str, variables: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """data and errors for every aliased repository selection in `query`."""
        data: dict[str, Any] = {}
        errors: list[dict[str, Any]] = []
        wanted = [f for f in _GRAPHQL_FIELDS if re.search(rf"\b{f}\b", query)]
        for match in _ALIAS.finditer(query):
            alias, owner, name = (
                match.group(1),
                _value(match.group(2), variables),
                _value(match.group(3), variables),
            )
            spec, _ = self._lookup(f"{owner}/{name}")
            line = query[: match.start()].count("\n") + 1
            if spec is not None and spec.get("graphql_error"):
                data[alias] = None
                errors.append(_error(spec["graphql_error"], alias, line, "Something went wrong."))
            elif spec is None or spec.get("status"):
                data[alias] = None
                message = f"Could not resolve to a Repository with the name '{owner}/{name}'."
                errors.append(_error("NOT_FOUND", alias, line, message))
            else:
                node = graphql_node(spec)
                data[alias] = {k: v for k, v in node.items() if k in wanted}
        return data, errors


def _value(token: str, variables: dict[str, Any]) -> str:
    """A GraphQL argument: `$var` from the variables, or a "literal"."""
    return str(variables.get(token[1:], "")) if token.startswith("$") else token.strip('"')


def _error(kind: str, alias: str, line: int, message: str) -> dict[str, Any]:
    """A GraphQL error on one alias, shaped like graphql_node_not_found_200_2024.json."""
    return {
        "type": kind,
        "path": [alias],
        "locations": [{"line": line, "column": 3}],
        "message": message,
    }


def _delayed(reply: Reply, delay: float) -> Reply:
    reply.delay = delay
    return reply


def _licence(spdx: str | None) -> dict[str, Any] | None:
    """The REST `license` object for an SPDX id; NOASSERTION is GitHub's "Other"."""
    if spdx is None:
        return None
    if spdx == "NOASSERTION":
        return {"key": "other", "name": "Other", "spdx_id": "NOASSERTION", "url": None,
                "node_id": "MDc6TGljZW5zZTA="}  # fmt: skip
    key = spdx.lower()
    url = f"https://api.github.com/licenses/{key}"
    return {"key": key, "name": spdx, "spdx_id": spdx, "url": url, "node_id": "MDc6TGljZW5zZTEy"}


_TEMPLATE: dict[str, Any] = json.loads((SAMPLES / "rest_repo_get_200_unauth_2026.json").read_text())


def rest_body(spec: dict[str, Any]) -> dict[str, Any]:
    """The recorded 2026 repository body with this repository's names and values."""
    full = spec["full_name"]
    owner, name = full.split("/")
    text = json.dumps(_TEMPLATE).replace("PyGithub/PyGithub", full)
    body: dict[str, Any] = copy.deepcopy(json.loads(text))
    body["owner"]["login"] = owner
    body.pop("organization", None)
    stars = int(spec.get("stars", 10))
    body.update({
        "id": spec["id"], "name": name, "full_name": full,
        "stargazers_count": stars, "watchers_count": stars, "watchers": stars,
        "forks_count": int(spec.get("forks", 1)), "forks": int(spec.get("forks", 1)),
        "license": _licence(spec.get("license", "MIT")),
        "archived": bool(spec.get("archived", False)),
        "disabled": bool(spec.get("disabled", False)), "fork": bool(spec.get("fork", False)),
        "pushed_at": spec.get("pushed_at", "2026-04-14T07:25:38Z"),
        "default_branch": spec.get("default_branch", "main"),
        "homepage": spec.get("homepage"), "description": spec.get("description", "A repository"),
    })  # fmt: skip
    return body


def graphql_node(spec: dict[str, Any]) -> dict[str, Any]:
    """A GraphQL `repository` node with the same values as `rest_body`."""
    rest = rest_body(spec)
    licence = rest["license"]
    return {
        "nameWithOwner": rest["full_name"],
        "url": rest["html_url"],
        "stargazerCount": rest["stargazers_count"],
        "forkCount": rest["forks_count"],
        "licenseInfo": {"spdxId": licence["spdx_id"]} if licence else None,
        "isArchived": rest["archived"],
        "isDisabled": rest["disabled"],
        "isFork": rest["fork"],
        "pushedAt": rest["pushed_at"],
        "defaultBranchRef": {"name": rest["default_branch"]},
        "homepageUrl": rest["homepage"],
        "description": rest["description"],
    }


# -- helpers for resolver tests ------------------------------------------------------------
TOKEN = "ghp_TESTTOKEN0123456789abcdefghijklmnopqr"


class FakeTime:
    """A wall clock that moves with real time plus every fake sleep; records the sleeps."""

    def __init__(self) -> None:
        self.start = time.time()
        self.real = time.monotonic()
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.start + (time.monotonic() - self.real) + sum(self.slept)

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)


def options_for(double: GithubDouble, token: str = "", **changes: Any) -> Options:
    """Options that point every GitHub URL at the double."""
    base = Options(
        github_token=token,
        github_api_url=double.api_url,
        github_graphql_url=double.graphql_url,
        timeout=2.0,
        service_budget=60.0,
        rate_limit_wait=30.0,
    )
    return replace(base, **changes)


def make(
    options: Options, cache_path: Path | None, clock: FakeTime | None = None, now: float = 0.0
) -> tuple[GithubResolver, Counter, Cache]:
    """A resolver with its counter and cache; `now` shifts the cache's clock (TTL tests)."""
    fake = clock or FakeTime()
    cache = Cache(cache_path, clock=lambda: time.time() + now)
    counter = Counter()
    resolver = GithubResolver(options, cache, counter, sleep=fake.sleep, clock=fake)
    return resolver, counter, cache


def subjects(n: int, prefix: str = "org") -> list[str]:
    """n distinct subjects `github:<prefix>/repo-<i>`."""
    return [f"github:{prefix}/repo-{i}" for i in range(n)]


def repos_for(names: list[str], **spec: Any) -> dict[str, dict[str, Any]]:
    """A double's repository dict for these subjects, all with `spec`."""
    return {s.removeprefix("github:"): dict(spec) for s in names}
