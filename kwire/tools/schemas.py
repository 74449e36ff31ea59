"""``kwire schemas``: the Schema Registry from the command line (any Confluent-API registry).

::

    kwire schemas [--url URL] list [--deleted] [--prefix P]
    kwire schemas [--url URL] get SUBJECT [--version V]       # the schema text, then a JSON summary
    kwire schemas [--url URL] get --id N
    kwire schemas [--url URL] register SUBJECT FILE [--type AVRO|JSON|PROTOBUF] [--normalize]
                                       [--reference NAME=SUBJECT:VERSION]...
    kwire schemas [--url URL] compatibility SUBJECT FILE [--type T] [--version V]
    kwire schemas [--url URL] compatibility SUBJECT --level LEVEL      # set it
    kwire schemas [--url URL] delete SUBJECT [--version V] [--permanent]

``FILE`` ``-`` reads stdin. The URL defaults to ``$KWIRE_SCHEMA_REGISTRY_URL`` or
``http://127.0.0.1:8081``. Exit codes: 0 done (compatibility: compatible),
1 the registry refused (its ``error_code`` and message on stderr) or, for
compatibility, incompatible (the reasons printed), 2 bad command line. Plain
HTTP through the standard library, no authentication.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request
from urllib.parse import quote

from .common import EXIT_ERROR, EXIT_OK, ToolError, UsageError, run

PROG = "kwire schemas"
DEFAULT_URL = "http://127.0.0.1:8081"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="List, show, register and check schemas in a "
                                "Schema Registry (Confluent's REST API, e.g. kwire's schema.registry.port).")
    p.add_argument("--url", default=os.environ.get("KWIRE_SCHEMA_REGISTRY_URL", DEFAULT_URL))
    sub = p.add_subparsers(dest="command", required=True)
    ls = sub.add_parser("list", help="subjects")
    ls.add_argument("--deleted", action="store_true", help="include soft-deleted subjects")
    ls.add_argument("--prefix", help="only subjects starting with this")
    get = sub.add_parser("get", help="a subject's version (default latest) or a schema by id")
    get.add_argument("subject", nargs="?")
    get.add_argument("--version", default="latest")
    get.add_argument("--id", type=int)
    reg = sub.add_parser("register", help="register a schema file under a subject")
    reg.add_argument("subject")
    reg.add_argument("file")
    reg.add_argument("--type", default=None, choices=("AVRO", "JSON", "PROTOBUF"),
                     help="default: from the file's extension (.avsc, .json, .proto), else AVRO")
    reg.add_argument("--normalize", action="store_true")
    reg.add_argument("--reference", action="append", default=[], metavar="NAME=SUBJECT:VERSION")
    comp = sub.add_parser("compatibility", help="check a schema file against a subject, or set its level")
    comp.add_argument("subject")
    comp.add_argument("file", nargs="?")
    comp.add_argument("--type", default=None, choices=("AVRO", "JSON", "PROTOBUF"))
    comp.add_argument("--version", default=None, help="check against this version only "
                      "(default: as the subject's compatibility level says)")
    comp.add_argument("--reference", action="append", default=[], metavar="NAME=SUBJECT:VERSION")
    comp.add_argument("--level", help="set the subject's level (NONE, BACKWARD, ... FULL_TRANSITIVE)")
    dele = sub.add_parser("delete", help="delete a subject or one version (soft unless --permanent)")
    dele.add_argument("subject")
    dele.add_argument("--version")
    dele.add_argument("--permanent", action="store_true")
    return p


def _call(url: str, method: str, path: str, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url.rstrip("/") + path, data=data, method=method,
                                 headers={"Content-Type": "application/vnd.schemaregistry.v1+json",
                                          "Accept": "application/vnd.schemaregistry.v1+json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
    except urllib.error.HTTPError as e:
        try:
            err = json.loads(e.read())
            raise ToolError(f"{err.get('error_code')}: {err.get('message')}") from None
        except ValueError:
            raise ToolError(f"HTTP {e.code} from {url}") from None
    except (urllib.error.URLError, OSError) as e:
        raise ToolError(f"cannot reach the schema registry at {url}: {getattr(e, 'reason', e)}") from None
    return json.loads(raw) if raw else None


def _schema_body(args) -> dict:
    if args.file is None:
        raise UsageError("a schema FILE is needed (or --level to set the compatibility level)")
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as e:
        raise UsageError(f"cannot read {args.file}: {e.strerror}") from None
    schema_type = args.type or {"proto": "PROTOBUF", "json": "JSON"}.get(args.file.rpartition(".")[2], "AVRO")
    body: dict = {"schema": text}
    if schema_type != "AVRO":
        body["schemaType"] = schema_type
    refs = []
    for item in args.reference:
        name, eq, rest = item.partition("=")
        subject, colon, version = rest.rpartition(":")
        if not eq or not colon or not version.lstrip("-").isdigit():
            raise UsageError(f"--reference {item!r}: use NAME=SUBJECT:VERSION")
        refs.append({"name": name, "subject": subject, "version": int(version)})
    if refs:
        body["references"] = refs
    return body


def _body(args) -> int:
    url = args.url
    q = lambda s: quote(s, safe="")  # noqa: E731 (subjects may hold any character)
    if args.command == "list":
        path = "/subjects?deleted=" + ("true" if args.deleted else "false")
        if args.prefix:
            path += "&subjectPrefix=" + quote(args.prefix)
        for s in _call(url, "GET", path):
            print(s)
        return EXIT_OK
    if args.command == "get":
        if args.id is not None:
            got = _call(url, "GET", f"/schemas/ids/{args.id}")
        elif args.subject:
            got = _call(url, "GET", f"/subjects/{q(args.subject)}/versions/{q(args.version)}")
        else:
            raise UsageError("give a SUBJECT or --id")
        print(got.get("schema", ""))
        print(json.dumps({k: v for k, v in got.items() if k != "schema"}), file=sys.stderr)
        return EXIT_OK
    if args.command == "register":
        path = f"/subjects/{q(args.subject)}/versions" + ("?normalize=true" if args.normalize else "")
        got = _call(url, "POST", path, _schema_body(args))
        print(json.dumps(got))
        return EXIT_OK
    if args.command == "compatibility":
        if args.level:
            print(json.dumps(_call(url, "PUT", f"/config/{q(args.subject)}", {"compatibility": args.level})))
            return EXIT_OK
        path = f"/compatibility/subjects/{q(args.subject)}/versions"
        if args.version:
            path += "/" + q(args.version)
        got = _call(url, "POST", path + "?verbose=true", _schema_body(args))
        if got.get("is_compatible"):
            print("compatible")
            return EXIT_OK
        print("incompatible")
        for m in got.get("messages", []):
            print(f"  {m}")
        return EXIT_ERROR
    if args.command == "delete":
        path = f"/subjects/{q(args.subject)}"
        if args.version:
            path += f"/versions/{q(args.version)}"
        if args.permanent:
            path += "?permanent=true"
        print(json.dumps(_call(url, "DELETE", path)))
        return EXIT_OK
    raise UsageError(f"unknown command {args.command}")


def main(argv: list[str] | None = None) -> int:
    return run(PROG, build_parser(), argv, _body)
