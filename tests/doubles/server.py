"""A small HTTP server on 127.0.0.1 that routes requests to service doubles and logs them.

Each service double (arxiv.py, github.py, web.py) registers handlers on one `LoopbackServer`.
Every request is recorded so tests can compare what curator reports with what was received.
Only loopback is ever bound or contacted.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


@dataclass
class Request:
    """One received request."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes
    at: float

    def json(self) -> object:
        """The body parsed as JSON."""
        return json.loads(self.body or b"null")


@dataclass
class Reply:
    """What a handler answers. `delay` sleeps before answering; `drip` sends the body slowly;
    `reset` closes the connection without an answer (a connection reset); `encoding` is sent
    as Content-Encoding (the body is sent as given, so a wrong one makes it undecodable)."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    delay: float = 0.0
    drip: float = 0.0
    reset: bool = False
    encoding: str = ""

    @classmethod
    def json(cls, data: object, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
        """A JSON reply."""
        hdrs = {"Content-Type": "application/json; charset=utf-8", **(headers or {})}
        return cls(status, hdrs, json.dumps(data).encode())


Handler = Callable[[Request], Reply]


class LoopbackServer:
    """Threaded HTTP server on 127.0.0.1:<free port>; use as a context manager."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        if not host.startswith("127.") and host != "::1":
            raise ValueError("test doubles bind loopback only")
        self.host = host
        self.requests: list[Request] = []
        self._routes: list[tuple[str, str, Handler]] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- routing -------------------------------------------------------------------------
    def route(self, method: str, prefix: str, handler: Handler) -> None:
        """Send `method` requests whose path starts with `prefix` to `handler` (first match)."""
        self._routes.append((method.upper(), prefix, handler))

    def dispatch(self, req: Request) -> Reply:
        """The reply of the first matching route, or 404."""
        for method, prefix, handler in self._routes:
            if method in (req.method, "*") and req.path.startswith(prefix):
                return handler(req)
        return Reply.json({"message": "Not Found (no route in double)"}, 404)

    def received(self, prefix: str = "", method: str = "") -> list[Request]:
        """Requests received so far whose path starts with `prefix`."""
        with self._lock:
            return [
                r
                for r in self.requests
                if r.path.startswith(prefix) and (not method or r.method == method)
            ]

    # -- lifecycle -----------------------------------------------------------------------
    @property
    def url(self) -> str:
        """Base URL, e.g. http://127.0.0.1:43121"""
        assert self._httpd is not None
        return f"http://{self.host}:{self._httpd.server_address[1]}"

    def __enter__(self) -> LoopbackServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Bind and serve in a daemon thread."""
        server = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Answers go out at once: with Nagle on, a reply written in two parts (headers,
            # then body) waits for the client's delayed ACK, about 40 ms a request.
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: object) -> None:
                return

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                req = Request(
                    self.command,
                    parts.path,
                    parse_qs(parts.query, keep_blank_values=True),
                    {k.lower(): v for k, v in self.headers.items()},
                    body,
                    time.monotonic(),
                )
                with server._lock:
                    server.requests.append(req)
                reply = server.dispatch(req)
                self._send(reply)

            def _send(self, reply: Reply) -> None:
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.reset:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                self.send_response(reply.status)
                for k, v in reply.headers.items():
                    if k.lower() not in {"content-length", "transfer-encoding", "content-encoding"}:
                        self.send_header(k, v)
                if reply.encoding:
                    self.send_header("Content-Encoding", reply.encoding)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                if self.command == "HEAD":
                    return
                try:
                    if reply.drip:
                        for i in range(len(reply.body)):
                            self.wfile.write(reply.body[i : i + 1])
                            self.wfile.flush()
                            time.sleep(reply.drip)
                    else:
                        self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    # The client hung up mid-answer (a checker's deadline does that to a slow
                    # drip). Said here, socketserver would print a traceback to stderr from a
                    # thread that outlives the test, into a later test's captured output.
                    self.close_connection = True

            do_GET = do_POST = do_HEAD = do_PATCH = do_DELETE = do_PUT = _handle

        self._httpd = ThreadingHTTPServer((self.host, 0), _H)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop serving and release the port."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
