"""``RegistryServer``: the Schema Registry's REST API (Confluent API v1) on its own HTTP threads.

Served with ``kwire.metrics.http`` like the console and metrics (threads of
their own, never the broker's event loop; malformed requests 400). Routes:

    GET    /  /schemas/types  /contexts
    GET    /schemas/ids/{id}[/schema|/subjects|/versions]
    GET    /subjects                         ?deleted ?deletedOnly ?subjectPrefix
    GET    /subjects/{s}/versions            ?deleted ?deletedOnly
    GET    /subjects/{s}/versions/{v}[/schema|/referencedby]   ?deleted
    POST   /subjects/{s}/versions            ?normalize   register
    POST   /subjects/{s}                     ?normalize ?deleted   look up
    DELETE /subjects/{s}[/versions/{v}]      ?permanent
    POST   /compatibility/subjects/{s}/versions[/{v}]  ?verbose
    GET|PUT|DELETE /config[/{s}]             GET: ?defaultToGlobal
    GET|PUT /mode[/{s}], DELETE /mode/{s}    PUT: ?force

Answers are ``application/vnd.schemaregistry.v1+json``; errors
``{"error_code", "message"}`` with Confluent's status and code; a body that
is not JSON is 400/400 (Jackson's parse error in Confluent's registry), one
larger than ``MAX_BODY`` 422/42209. Query booleans are case-insensitive
(confluent-kafka's Python client sends ``True``/``False``). Subject names
are path segments decoded after splitting, so ``%2F`` in a subject is a
slash in the name. No authentication, no TLS (as the console).

On a cluster (``node_id`` given to the store), reads are answered from this
broker's replica of ``_schemas``; writes (register, deletes, config and mode
changes) by the registry's primary, the broker leading ``_schemas``
partition 0: another broker forwards the request there (the URL each
registry advertised in ``_schemas``), answers what the primary answered, and
then catches up with its own replica so a read right after sees the write.
The primary unreachable is 50003, unknown 50004.
"""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from urllib.parse import parse_qs, unquote, urlsplit

from kwire.metrics.http import HttpEndpoint, QuietHandler
from kwire.registry import errors
from kwire.registry.service import MAX_SCHEMA_CHARS, SchemaRegistry

log = logging.getLogger("kwire.registry")

CONTENT_TYPE = "application/vnd.schemaregistry.v1+json"
FORWARDED = "X-Kwire-Forwarded"  # a write forwarded once is never forwarded again
FORWARD_TIMEOUT_S = 30
MAX_BODY = 4 * MAX_SCHEMA_CHARS + 64 * 1024


def _bool(q: dict, name: str) -> bool:
    return q.get(name, "false").lower() == "true"


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise errors.RegistryError(404, 404, f"HTTP 404 Not Found: {value!r} is not a number") from None


class RegistryServer:
    def __init__(self, listeners: list[tuple[str, int]], store, normalize_schemas: bool = False) -> None:
        self.store = store
        self.registry = registry = SchemaRegistry(store, normalize_schemas)

        def route(method: str, parts: list[str], q: dict, body):
            n = len(parts)
            head = parts[0] if parts else ""
            if method == "GET" and n == 0:
                return {}
            if head == "schemas":
                if method != "GET":
                    raise errors.RegistryError(405, 405, "HTTP 405 Method Not Allowed")
                if parts[1:] == ["types"]:
                    return ["JSON", "PROTOBUF", "AVRO"]
                if n >= 3 and parts[1] == "ids":
                    sid = _int(parts[2])
                    if n == 3:
                        return registry.schema_by_id(sid, q.get("format"))
                    if n == 4 and parts[3] == "schema":
                        return RawText(registry.schema_by_id(sid)["schema"])
                    if n == 4 and parts[3] == "subjects":
                        return registry.subjects_for_id(sid, _bool(q, "deleted"))
                    if n == 4 and parts[3] == "versions":
                        return registry.versions_for_id(sid, _bool(q, "deleted"))
            elif head == "subjects":
                if n == 1 and method == "GET":
                    return registry.subjects(_bool(q, "deleted"), _bool(q, "deletedOnly"), q.get("subjectPrefix"))
                s = parts[1] if n > 1 else ""
                if n == 2:
                    if method == "POST":
                        return registry.lookup(s, body, _bool(q, "normalize"), _bool(q, "deleted"), q.get("format"))
                    if method == "DELETE":
                        return registry.delete_subject(s, _bool(q, "permanent"))
                if n == 3 and parts[2] == "versions":
                    if method == "GET":
                        return registry.versions(s, _bool(q, "deleted"), _bool(q, "deletedOnly"))
                    if method == "POST":
                        return registry.register(s, body, _bool(q, "normalize"))
                if n >= 4 and parts[2] == "versions":
                    v = parts[3]
                    if n == 4 and method == "GET":
                        return registry.get_version(s, v, _bool(q, "deleted"), q.get("format"))
                    if n == 4 and method == "DELETE":
                        return registry.delete_version(s, v, _bool(q, "permanent"))
                    if n == 5 and parts[4] == "schema" and method == "GET":
                        return RawText(registry.get_version(s, v, _bool(q, "deleted"))["schema"])
                    if n == 5 and parts[4] == "referencedby" and method == "GET":
                        return registry.referenced_by(s, v)
            elif head == "compatibility" and method == "POST" and n in (4, 5) and parts[1] == "subjects" \
                    and parts[3] == "versions":
                return registry.test_compatibility(parts[2], parts[4] if n == 5 else None, body,
                                                   _bool(q, "verbose"), _bool(q, "normalize"))
            elif head == "config" and n <= 2:
                s = parts[1] if n == 2 else None
                if method == "GET":
                    return registry.get_config(s, _bool(q, "defaultToGlobal"))
                if method == "PUT":
                    return registry.set_config(s, body)
                if method == "DELETE":
                    return registry.delete_config(s)
            elif head == "mode" and n <= 2:
                s = parts[1] if n == 2 else None
                if method == "GET":
                    return registry.get_mode(s, _bool(q, "defaultToGlobal"))
                if method == "PUT":
                    return registry.set_mode(s, body, _bool(q, "force"))
                if method == "DELETE" and s is not None:
                    return registry.delete_mode(s)
            elif head == "contexts" and n == 1 and method == "GET":
                return ["."]
            raise errors.RegistryError(404, 404, "HTTP 404 Not Found")

        class Handler(QuietHandler):
            # clients keep one connection (confluent-kafka, the Java client): without TCP_NODELAY
            # an answer written as headers then body waits ~40 ms for the client's delayed ACK
            disable_nagle_algorithm = True

            def _answer(self, code: int, obj) -> None:
                if isinstance(obj, RawText):
                    self.send_body(code, obj.text.encode(), "text/plain; charset=utf-8")
                else:
                    self.send_body(code, json.dumps(obj).encode(), CONTENT_TYPE)

            def _handle(self, method: str) -> None:
                url = urlsplit(self.path)
                parts = [unquote(p) for p in url.path.split("/")[1:]]
                if parts and parts[-1] == "":
                    parts.pop()
                q = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
                try:
                    raw = self._raw() if method in ("POST", "PUT") else b""
                    if _is_write(method, parts):
                        target = store.writer_url()
                        if target is not None:
                            if self.headers.get(FORWARDED):
                                raise errors.forwarding_failed("a forwarded write reached a broker that is "
                                                               "not the registry's primary")
                            self._forward(target, method, raw)
                            return
                    body = _parse(raw) if method in ("POST", "PUT") else None
                    if not _is_write(method, parts):  # reads (and lookups) see whole replayed batches
                        store.wait_ready()
                        with store.read_lock:
                            result = route(method, parts, q, body)
                    else:  # a write waits for the reader, which needs read_lock: not held here
                        result = route(method, parts, q, body)
                    self._answer(200, result)
                except errors.RegistryError as e:
                    self._answer(e.status, e.body())
                except Exception as e:  # a bug: say so, keep serving
                    log.exception("schema registry %s %s failed", method, self.path)
                    self._answer(500, {"error_code": 500, "message": f"{type(e).__name__}: {e}"})

            def _forward(self, target: str, method: str, raw: bytes) -> None:
                req = urllib.request.Request(target.rstrip("/") + self.path, data=raw or None, method=method,
                                             headers={"Content-Type": CONTENT_TYPE, FORWARDED: "1"})
                try:
                    with urllib.request.urlopen(req, timeout=FORWARD_TIMEOUT_S) as r:
                        code, data = r.status, r.read()
                except urllib.error.HTTPError as e:
                    code, data = e.code, e.read()
                except (urllib.error.URLError, OSError) as e:
                    raise errors.forwarding_failed(f"Error while forwarding the request to the primary "
                                                   f"{target}: {getattr(e, 'reason', e)}") from None
                if code == 200:
                    try:
                        store.sync()  # so a read here right after sees the write
                    except errors.RegistryError:
                        pass
                self.send_body(code, data, CONTENT_TYPE)

            def _raw(self) -> bytes:
                length = self.headers.get("Content-Length")
                try:
                    n = int(length) if length is not None else 0
                except ValueError:
                    n = -1
                if n < 0:
                    self.close_connection = True
                    raise errors.bad_request("a valid Content-Length is required")
                if n > MAX_BODY:
                    self.close_connection = True  # the body is left unread
                    raise errors.schema_too_large(f"Request body too large: {n} bytes, the limit is {MAX_BODY}")
                return self.rfile.read(n) if n else b""

            def do_GET(self) -> None:
                self._handle("GET")

            def do_POST(self) -> None:
                self._handle("POST")

            def do_PUT(self) -> None:
                self._handle("PUT")

            def do_DELETE(self) -> None:
                self._handle("DELETE")

        # on in every kwire_broker fixture: a short poll keeps the broker's stop quick (close()
        # waits for the serving loop's next poll)
        self.endpoint = HttpEndpoint("schema-registry", listeners, Handler, poll_interval=0.02)

    @property
    def addresses(self) -> list[tuple[str, int]]:
        return self.endpoint.addresses

    def start(self) -> None:
        self.endpoint.start()
        if self.store.node_id is not None:
            # a cluster: start now, so this registry's URL is advertised before any write is
            # forwarded to it (a single broker starts the store on first use)
            self.store.start_in_background()

    def close(self) -> None:
        self.endpoint.close()
        self.store.close()


def _parse(raw: bytes):
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except ValueError as e:
        raise errors.bad_request(f"Unexpected character in the request body: {e}") from None


def _is_write(method: str, parts: list[str]) -> bool:
    """Changes go to the primary; a lookup (POST /subjects/{s}) and a compatibility test do not."""
    if method in ("PUT", "DELETE"):
        return True
    return method == "POST" and len(parts) == 3 and parts[0] == "subjects" and parts[2] == "versions"


class RawText:
    """An answer sent as text/plain (``.../schema`` endpoints answer the bare schema)."""

    def __init__(self, text: str) -> None:
        self.text = text
