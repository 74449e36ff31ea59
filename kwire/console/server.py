"""``ConsoleServer``: the web console's HTTP layer (static page + JSON API) on its own threads.

Routes (everything else is 404; a malformed request 400, see ``kwire.metrics.http``):

* ``GET /`` the page; ``GET /static/<file>`` its script and style, shipped in
  the package (``kwire/console/static``, no build step);
* ``GET /health`` ``ok``;
* ``GET /api/cluster``, ``/api/topics``, ``/api/topics/<name>``,
  ``/api/topics/<name>/records?partition=P&offset=O|timestamp=MS&limit=N``,
  ``/api/groups``, ``/api/groups/<id>``: JSON from ``ConsoleBackend``;
* ``GET /api/schemas``, ``/api/schemas/<subject>``: the broker's Schema Registry
  (``kwire.console.schemas``; 503 SCHEMA_REGISTRY_UNAVAILABLE when it is off);
* ``POST /api/topics`` ``{"name", "partitions", "replication_factor", "configs"}``;
  ``POST /api/topics/<name>/delete`` ``{"confirm": "<name>"}``;
  ``POST /api/groups/<id>/reset-offsets`` ``{"topic", "to", "value", "partitions",
  "confirm": "<id>"}``. Changes need the header ``X-Kwire-Console: 1`` (a
  browser sends such a header cross-origin only after a CORS preflight, which is
  never granted: another site's page cannot make them), a JSON body of at most
  64 KiB, and for deletion and resets the name typed again (``confirm``); in
  read-only mode they answer 403.

Errors are JSON ``{"error": NAME, "message": text}``: Kafka's error name with
404 for a missing topic, partition or group, 409 for a conflict (the topic
exists, the group has members), 400 for other refusals and bad input, 502 when
the broker cannot be reached.
"""

from __future__ import annotations

import json
import logging
from importlib import resources
from urllib.parse import parse_qs, unquote, urlsplit

from kwire.client import KafkaClientError
from kwire.console.backend import BadRequest, ConsoleBackend, ReadOnly
from kwire.console.schemas import SchemaRegistryUnavailable, SchemasBackend, SubjectNotFound
from kwire.metrics.http import HttpEndpoint, QuietHandler
from kwire.protocol.errors import ErrorCode

log = logging.getLogger("kwire.console")

MAX_BODY = 64 * 1024
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
_NOT_FOUND = {ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.GROUP_ID_NOT_FOUND, ErrorCode.UNKNOWN_TOPIC_ID}
_CONFLICT = {ErrorCode.TOPIC_ALREADY_EXISTS, ErrorCode.NON_EMPTY_GROUP, ErrorCode.UNKNOWN_MEMBER_ID,
             ErrorCode.ILLEGAL_GENERATION, ErrorCode.REBALANCE_IN_PROGRESS}


def _static(name: str) -> bytes | None:
    if "/" in name or name.startswith("."):
        return None
    try:
        return resources.files("kwire.console").joinpath("static", name).read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None


class ConsoleServer:
    def __init__(self, listeners: list[tuple[str, int]], bootstrap, read_only: bool = False,
                 registry_url=None) -> None:
        self.backend = backend = ConsoleBackend(bootstrap, read_only)
        schemas = SchemasBackend(registry_url)

        class Handler(QuietHandler):
            def _json(self, code: int, obj) -> None:
                self.send_body(code, json.dumps(obj).encode(), "application/json")

            def _error(self, code: int, name: str, message: str) -> None:
                self._json(code, {"error": name, "message": message})

            def _run(self, fn) -> None:
                try:
                    self._json(200, fn())
                except ReadOnly as e:
                    self._error(403, "READ_ONLY", str(e))
                except SchemaRegistryUnavailable as e:
                    self._error(503, "SCHEMA_REGISTRY_UNAVAILABLE", str(e))
                except SubjectNotFound as e:
                    self._error(404, "SUBJECT_NOT_FOUND", str(e))
                except BadRequest as e:
                    self._error(400, "BAD_REQUEST", str(e))
                except KafkaClientError as e:
                    if e.code == ErrorCode.NETWORK_EXCEPTION:
                        code = 502
                    elif e.code in _NOT_FOUND:
                        code = 404
                    elif e.code in _CONFLICT:
                        code = 409
                    else:
                        code = 400
                    try:
                        name = ErrorCode(e.code).name
                    except ValueError:
                        name = str(e.code)
                    self._error(code, name, str(e))
                except (ValueError, TypeError, KeyError) as e:
                    self._error(400, "BAD_REQUEST", str(e))
                except Exception as e:  # a bug: say so, keep serving
                    log.exception("console request %s %s failed", self.command, self.path)
                    self._error(500, "INTERNAL", str(e))

            def do_GET(self) -> None:
                url = urlsplit(self.path)
                parts = [unquote(p) for p in url.path.split("/")[1:]]
                q = {k: v[-1] for k, v in parse_qs(url.query).items()}
                if url.path in ("/", "/index.html"):
                    self._file("index.html")
                elif len(parts) == 2 and parts[0] == "static":
                    self._file(parts[1])
                elif url.path == "/health":
                    self.send_body(200, b"ok\n", "text/plain; charset=utf-8")
                elif parts[0] != "api":
                    self.not_found()
                elif parts[1:] == ["cluster"]:
                    self._run(backend.cluster)
                elif parts[1:] == ["topics"]:
                    self._run(backend.topics)
                elif len(parts) == 3 and parts[1] == "topics":
                    self._run(lambda: backend.topic(parts[2]))
                elif len(parts) == 4 and parts[1] == "topics" and parts[3] == "records":
                    def records():
                        ts = q.get("timestamp")
                        off = q.get("offset")
                        return backend.records(
                            parts[2], int(q.get("partition", 0)),
                            offset=int(off) if off not in (None, "") else None,
                            timestamp=int(ts) if ts not in (None, "") else None,
                            limit=int(q.get("limit", 50)))
                    self._run(records)
                elif parts[1:] == ["schemas"]:
                    self._run(schemas.subjects)
                elif len(parts) == 3 and parts[1] == "schemas":
                    self._run(lambda: schemas.subject(parts[2]))
                elif parts[1:] == ["groups"]:
                    self._run(backend.groups)
                elif len(parts) == 3 and parts[1] == "groups":
                    self._run(lambda: backend.group(parts[2]))
                else:
                    self._error(404, "NOT_FOUND", f"no such API path: {url.path}")

            do_HEAD = do_GET

            def _file(self, name: str) -> None:
                data = _static(name)
                if data is None:
                    self.not_found()
                    return
                ext = name[name.rfind("."):]
                self.send_body(200, data, _TYPES.get(ext, "application/octet-stream"))

            def _body(self) -> dict:
                length = self.headers.get("Content-Length")
                try:
                    n = int(length) if length is not None else -1
                except ValueError:
                    n = -1
                if n < 0:
                    raise BadRequest("a Content-Length is required")
                if n > MAX_BODY:
                    raise _TooLarge()
                raw = self.rfile.read(n)
                if not raw:
                    return {}
                body = json.loads(raw)
                if not isinstance(body, dict):
                    raise BadRequest("the body must be a JSON object")
                return body

            def do_POST(self) -> None:
                url = urlsplit(self.path)
                parts = [unquote(p) for p in url.path.split("/")[1:]]
                if parts[:1] != ["api"]:
                    self.close_connection = True  # its body is left unread
                    self.not_found()
                    return
                if self.headers.get("X-Kwire-Console") != "1":
                    self._error(403, "FORBIDDEN", "changes need the header X-Kwire-Console: 1")
                    self.close_connection = True
                    return
                try:
                    body = self._body()
                except _TooLarge:
                    self._error(413, "TOO_LARGE", f"bodies are limited to {MAX_BODY} bytes")
                    self.close_connection = True
                    return
                except (BadRequest, ValueError) as e:
                    self._error(400, "BAD_REQUEST", f"bad JSON body: {e}")
                    self.close_connection = True
                    return
                if parts[1:] == ["topics"]:
                    self._run(lambda: backend.create_topic(
                        str(body.get("name", "")).strip(), int(body.get("partitions", 1)),
                        int(body.get("replication_factor", -1)), body.get("configs") or {}))
                elif len(parts) == 4 and parts[1] == "topics" and parts[3] == "delete":
                    self._run(lambda: _confirmed(body, parts[2]) and backend.delete_topic(parts[2]))
                elif len(parts) == 4 and parts[1] == "groups" and parts[3] == "reset-offsets":
                    self._run(lambda: _confirmed(body, parts[2]) and backend.reset_offsets(
                        parts[2], str(body.get("topic", "")), str(body.get("to", "")), body.get("value"),
                        body.get("partitions")))
                else:
                    self._error(404, "NOT_FOUND", f"no such API path: {url.path}")

        self.endpoint = HttpEndpoint("console", listeners, Handler)

    @property
    def addresses(self) -> list[tuple[str, int]]:
        return self.endpoint.addresses

    def start(self) -> None:
        self.backend.start()
        self.endpoint.start()

    def close(self) -> None:
        self.endpoint.close()
        self.backend.close()


class _TooLarge(Exception):
    pass


def _confirmed(body: dict, name: str) -> bool:
    if body.get("confirm") != name:
        raise BadRequest(f"confirm by sending {{\"confirm\": {json.dumps(name)}}}")
    return True
