"""Worker process: run scenarios for one Python-driven client, report as JSON lines.

``python -m compat.worker --client NAME --bootstrap HOST:PORT --run-id ID SCENARIO...``

For the cross-client matrix (compat/cross.py) the same worker produces or
consumes instead, one item ``CODEC=TOPIC`` at a time, reporting each item as a
scenario:

``python -m compat.worker ... --cross-produce SPEC CODEC=TOPIC...``
``python -m compat.worker ... --cross-consume SPEC --cross-out DIR CODEC=TOPIC...``

The runner (compat/runner.py) starts one worker per client and reads its
stdout. Protocol lines start with ``@@compat `` followed by one JSON object, so
anything a library prints is ignored:

* ``{"event": "hello", "client": C, "version": V}`` - the client library loaded;
* ``{"event": "start", "scenario": S}`` - the scenario's clock starts;
* ``{"event": "resource", "scenario": S, "kind": "topic"|"group", "name": N}`` -
  announced before it is created, so the runner can remove it if it has to kill
  the worker;
* ``{"event": "end", "scenario": S, "status": ..., "reason": ..., "seconds": ...,
  "notes": [...]}``.

The Java program (compat/java/Compat.java) speaks the same protocol.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import sys
import time
import traceback

from compat.clients.base import NotApplicable, Skipped
from compat.matrix import FAIL, NA, PASS, SKIP

PREFIX = "@@compat "

FACADES = {
    "kafka-python": ("compat.clients.kafka_python", "KafkaPythonClient"),
    "aiokafka": ("compat.clients.aiokafka_client", "AIOKafkaClient"),
    "confluent-kafka": ("compat.clients.confluent", "ConfluentClient"),
    "kcat": ("compat.clients.kcat", "KcatClient"),
}


def emit(obj: dict) -> None:
    sys.stdout.write(PREFIX + json.dumps(obj) + "\n")
    sys.stdout.flush()


def describe(e: BaseException) -> str:
    """One line: the exception, and where in compat/ it came from when it is not a check."""
    from compat.scenarios import Failed

    text = f"{e}" if isinstance(e, Failed) else f"{type(e).__name__}: {e}"
    text = " ".join(text.split())
    if not isinstance(e, Failed):
        frames = [f for f in traceback.extract_tb(e.__traceback__) if "/compat/" in f.filename]
        if frames:
            f = frames[-1]
            text += f" (at {f.filename.rsplit('/compat/', 1)[1]}:{f.lineno})"
    return text[:600]


def load(client: str, bootstrap: str):
    mod, cls = FACADES[client]
    return getattr(importlib.import_module(mod), cls)(bootstrap)


def run(client_name: str, bootstrap: str, run_id: str, scenarios: list[str]) -> None:
    from compat.scenarios import SCENARIOS, Context

    try:
        client = load(client_name, bootstrap)
    except Skipped as e:
        for sid in scenarios:
            emit({"event": "start", "scenario": sid})
            emit({"event": "end", "scenario": sid, "status": SKIP, "reason": str(e), "seconds": 0.0,
                  "notes": []})
        return
    try:
        version = client.version()
    except Exception as e:  # noqa: BLE001 - a version is nice to have, not needed
        version = f"unknown ({e})"
    emit({"event": "hello", "client": client_name, "version": version})
    for sid in scenarios:
        emit({"event": "start", "scenario": sid})
        t0 = time.monotonic()
        ctx = Context(client, run_id, sid,
                      lambda kind, name, sid=sid: emit({"event": "resource", "scenario": sid,
                                                        "kind": kind, "name": name}))
        status, reason = PASS, ""
        try:
            SCENARIOS[sid](client, ctx)
        except NotApplicable as e:
            status, reason = NA, str(e)
        except Skipped as e:
            status, reason = SKIP, str(e)
        except Exception as e:  # noqa: BLE001 - every failure becomes a cell
            status, reason = FAIL, describe(e)
        problems = ctx.cleanup()
        if problems and status == PASS:
            status, reason = FAIL, "cleanup: " + "; ".join(problems)
        elif problems:
            ctx.notes.append("cleanup: " + "; ".join(problems))
        emit({"event": "end", "scenario": sid, "status": status, "reason": reason,
              "seconds": round(time.monotonic() - t0, 3), "notes": ctx.notes})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m compat.worker")
    ap.add_argument("--client", required=True, choices=sorted(FACADES))
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--run-id", required=True)
    ap.add_argument("--cross-produce", metavar="SPEC",
                    help="produce the record set in SPEC (compat/cross.py)")
    ap.add_argument("--cross-consume", metavar="SPEC", help="consume topics holding the record set in SPEC")
    ap.add_argument("--cross-out", metavar="DIR", help="with --cross-consume: write TOPIC.tsv files here")
    ap.add_argument("scenarios", nargs="+", help="scenario ids, or CODEC=TOPIC items in cross mode")
    args = ap.parse_args(argv)
    # Libraries log connection churn at WARNING; keep stderr for real trouble. COMPAT_LOG_LEVEL
    # (DEBUG, INFO, ...) turns the client library's own log up to diagnose a failing cell.
    logging.basicConfig(level=os.environ.get("COMPAT_LOG_LEVEL", "ERROR").upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.cross_produce or args.cross_consume:
        cross(args)
    else:
        run(args.client, args.bootstrap, args.run_id, args.scenarios)
    return 0


def cross(args: argparse.Namespace) -> None:
    """The cross-client modes: a client that cannot load SKIPs every item, with the reason."""
    from pathlib import Path

    from compat import cross as x

    try:
        client = load(args.client, args.bootstrap)
    except Skipped as e:
        for item in args.scenarios:
            emit({"event": "start", "scenario": item})
            emit({"event": "end", "scenario": item, "status": SKIP, "reason": str(e), "seconds": 0.0,
                  "notes": []})
        return
    emit({"event": "hello", "client": args.client})
    if args.cross_produce:
        x.worker_produce(client, Path(args.cross_produce), args.scenarios, emit, describe)
    else:
        x.worker_consume(client, Path(args.cross_consume), Path(args.cross_out), args.scenarios,
                         emit, describe)


if __name__ == "__main__":
    sys.exit(main())
