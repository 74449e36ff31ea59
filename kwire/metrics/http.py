"""A small threaded HTTP/1.1 server for the metrics endpoint and the console.

``HttpEndpoint`` binds one ``ThreadingHTTPServer`` per configured listener and
serves each on its own daemon thread, never on the broker's event loop: a slow
or hostile HTTP client, or an expensive page, cannot delay Kafka requests
(other than through the GIL, which the interpreter hands over every 5 ms).
The standard library's request parsing answers malformed request lines and
headers with 400 (414/431 when too long) and closes; unknown paths are the
handler's 404. At most ``MAX_CONNECTIONS`` connections are served at once per
listener (more are closed at once, so a flood cannot spawn threads without
bound), and a connection idle for ``TIMEOUT_S`` is closed.

Why the standard library rather than aiohttp or an ASGI stack: nothing to
install, no event loop shared with Kafka, and for a console polled by a
browser every few seconds and a scrape every 15 s the per-request cost
(measured on this machine: 0.5-0.7 ms median for a small JSON answer,
including a new TCP connection) is irrelevant. What it does not do: TLS, authentication, HTTP/2, keep-alive
beyond what ``BaseHTTPRequestHandler`` offers.

Where an endpoint listens is read by ``kwire.config.listeners.http_listeners`` (a broker
without HTTP endpoints imports nothing of this module).
"""

from __future__ import annotations

import logging
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

log = logging.getLogger("kwire.http")

MAX_CONNECTIONS = 32
TIMEOUT_S = 30


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, addr, handler, family) -> None:
        self.address_family = family
        self._active = threading.BoundedSemaphore(MAX_CONNECTIONS)
        super().__init__(addr, handler)

    def server_bind(self) -> None:
        if self.address_family == socket.AF_INET6:
            self.socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        super().server_bind()

    def process_request(self, request, client_address) -> None:
        if not self._active.acquire(blocking=False):
            self.shutdown_request(request)  # over the limit: closed, not queued
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._active.release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._active.release()


class QuietHandler(BaseHTTPRequestHandler):
    """Request logging at debug level (not stderr), an idle timeout, HTTP/1.1."""

    protocol_version = "HTTP/1.1"
    default_request_version = "HTTP/1.0"  # not 0.9: every answer, even to garbage, has a status line
    timeout = TIMEOUT_S
    server_version = "kwire"

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the stdlib's name)
        log.debug("%s %s", self.address_string(), format % args)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        # the standard library answers an unknown method 501 and an unknown HTTP version 505;
        # both are the client's mistake here: 405 and 400
        if code == 501:
            code = 405
        elif code == 505:
            code = 400
        super().send_error(code, message, explain)

    def send_body(self, code: int, body: bytes, content_type: str, headers: dict | None = None) -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def not_found(self) -> None:
        self.send_body(404, b"not found\n", "text/plain; charset=utf-8")


class HttpEndpoint:
    """Serve ``handler`` (a ``QuietHandler`` subclass) on every (host, port); ``addresses`` are bound."""

    def __init__(self, name: str, listeners: list[tuple[str, int]], handler, poll_interval: float = 0.2) -> None:
        self.name = name
        self.poll_interval = poll_interval  # close() waits up to this long for the serving loop
        self.servers: list[_Server] = []
        self.threads: list[threading.Thread] = []
        self.addresses: list[tuple[str, int]] = []
        try:
            for host, port in listeners:
                infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                           flags=socket.AI_PASSIVE)
                family, _, _, _, addr = infos[0]
                srv = _Server(addr[:2], handler, family)
                self.servers.append(srv)
                bound = srv.socket.getsockname()
                self.addresses.append((bound[0], bound[1]))
        except OSError as e:
            self.close()
            raise OSError(e.errno, f"{name}: cannot listen on {listeners}: {e.strerror or e}") from None

    def start(self) -> None:
        for srv in self.servers:
            t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": self.poll_interval},
                                 name=f"kwire-{self.name}-http", daemon=True)
            t.start()
            self.threads.append(t)
        for host, port in self.addresses:
            log.info("%s listening on http://%s:%d/", self.name, host, port)

    def close(self) -> None:
        """Stop serving (blocking up to the poll interval): call it off the event loop."""
        for srv in self.servers:
            if self.threads:
                srv.shutdown()
            srv.server_close()
        for t in self.threads:
            t.join(5)
        self.servers, self.threads = [], []
