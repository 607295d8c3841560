"""A double of arbitrary web sites on a LoopbackServer: statuses, HEAD refusal, redirects,
slow pages, 429 with Retry-After and 5xx. It counts requests and measures concurrency.

Pages are keyed by exact path; several "hosts" share the one loopback server and are told
apart by the Host header the checker sends (tests map names like `a.test` to 127.0.0.1
with a fake resolver). The 5xx body is the real 503 page recorded from an nginx front end
(tests/fixtures/shared/api-samples/github/rest_503_html_body_2012.html).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from tests.conftest import API_SAMPLES
from tests.doubles.server import LoopbackServer, Reply, Request

_SAMPLE_503 = API_SAMPLES / "github" / "rest_503_html_body_2012.html"
HTML = {"Content-Type": "text/html; charset=utf-8"}


@dataclass
class Page:
    """How one path answers: status and headers, a separate HEAD status, a delay."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b"<html><body>ok</body></html>"
    head_status: int | None = None
    delay: float = 0.0


class WebDouble:
    """Web pages served from one loopback server, with per-host concurrency figures."""

    def __init__(self, server: LoopbackServer) -> None:
        self.server = server
        self.pages: dict[str, Page] = {}
        self._lock = threading.Lock()
        self._busy: dict[str, int] = {}
        self.max_busy: dict[str, int] = {}
        self._busy_all = 0
        self.max_busy_all = 0
        server.route("*", "/", self._handle)

    def reset(self) -> None:
        """Forget pages, received requests and figures (to reuse one server across tests)."""
        with self._lock:
            self.pages.clear()
            self._busy.clear()
            self.max_busy.clear()
            self._busy_all = 0
            self.max_busy_all = 0
        self.server.requests.clear()

    # -- building pages ---------------------------------------------------------------
    def url(self, path: str, host: str = "") -> str:
        """The URL of `path` on this server, under host name `host` if given."""
        port = self.server.url.rsplit(":", 1)[1]
        return f"http://{host or self.server.host}:{port}{path}"

    def page(self, path: str, status: int = 200, **kw: object) -> str:
        """A page answering `status` (and Page fields); returns its path."""
        self.pages[path] = Page(status, **kw)  # type: ignore[arg-type]
        return path

    def refuse_head(self, path: str, head_status: int = 405, status: int = 200) -> str:
        """A page whose server refuses HEAD with `head_status` but answers GET."""
        return self.page(path, status, head_status=head_status)

    def redirect(self, path: str, to: str, status: int = 301) -> str:
        """A redirect from `path` to `to` (a path or an absolute URL)."""
        return self.page(path, status, headers={"Location": to}, body=b"")

    def slow(self, path: str, seconds: float, status: int = 200) -> str:
        """A page that answers after `seconds`."""
        return self.page(path, status, delay=seconds)

    def rate_limited(self, path: str, retry_after: str = "") -> str:
        """A 429 page, with Retry-After when given."""
        headers = {"Retry-After": retry_after} if retry_after else {}
        return self.page(path, 429, headers=headers, body=b"Rate exceeded.")

    def server_error(self, path: str, status: int = 503) -> str:
        """A 5xx page with the recorded nginx 503 body."""
        return self.page(path, status, headers=dict(HTML), body=_SAMPLE_503.read_bytes())

    # -- what was received ------------------------------------------------------------
    def hits(self, path: str, method: str = "") -> list[Request]:
        """Requests received for exactly `path` (optionally one method)."""
        return [r for r in self.server.received(path, method) if r.path == path]

    # -- serving ----------------------------------------------------------------------
    def _handle(self, req: Request) -> Reply:
        page = self.pages.get(req.path)
        if page is None:
            return Reply(404, dict(HTML), b"<html><body>not found</body></html>")
        host = req.headers.get("host", "").rsplit(":", 1)[0]
        self._enter(host)
        try:
            if page.delay:
                time.sleep(page.delay)
        finally:
            self._leave(host)
        status = page.status
        if req.method == "HEAD" and page.head_status is not None:
            status = page.head_status
        return Reply(status, {**HTML, **page.headers}, page.body)

    def _enter(self, host: str) -> None:
        with self._lock:
            self._busy[host] = self._busy.get(host, 0) + 1
            self.max_busy[host] = max(self.max_busy.get(host, 0), self._busy[host])
            self._busy_all += 1
            self.max_busy_all = max(self.max_busy_all, self._busy_all)

    def _leave(self, host: str) -> None:
        # A slow request from before a reset may finish after it: never go below zero.
        with self._lock:
            self._busy[host] = max(0, self._busy.get(host, 0) - 1)
            self._busy_all = max(0, self._busy_all - 1)
