#!/usr/bin/env python3
"""Transactional vs non-transactional throughput against a ``kwire serve`` it starts (issue 13).

    python scripts/bench-transactions.py [--count 200000] [--size 1024] [--per-txn 1000] [--rounds 5]

Same run, same broker, confluent-kafka (librdkafka) clients, 1 KiB records on
a 3-partition topic:

* produce: an idempotent producer without transactions vs the same producer
  with a transactional id committing one transaction per ``--per-txn``
  records (goal: transactional >= 80 % of non-transactional);
* consume: read_committed vs read_uncommitted over the same transactional
  data (every ``--per-txn`` records one COMMIT marker per partition; goal:
  read_committed >= 90 %).

Each side is timed from its client's start (a producer from its creation, so
both get their producer id inside the span; a consumer from ``assign()``) to
its last record acknowledged or received: both sides pay the same start-up.

One warm-up round, then ``--rounds`` rounds, each on fresh topics with the
order of the two sides of each pair alternating from round to round (neither
side always runs on the warmer machine). Prints each round's figures and
ratios, then for each ratio the median and range over the rounds, and the
load average before and after.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

import confluent_kafka as ck
from confluent_kafka.admin import AdminClient, NewTopic


def start_broker(data_dir: str) -> tuple[subprocess.Popen, str]:
    args = [sys.executable, "-m", "kwire", "serve", "--override", "listeners=PLAINTEXT://127.0.0.1:0",
            "--override", f"log.dirs={data_dir}"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    found = threading.Event()
    addr: list[str] = []

    def pump() -> None:
        for line in proc.stdout:
            m = re.search(r"kwire serving on (\S+):(\d+)", line)
            if m and not found.is_set():
                addr.append(f"{m.group(1)}:{m.group(2)}")
                found.set()
    threading.Thread(target=pump, daemon=True).start()
    if not found.wait(60):
        proc.kill()
        raise SystemExit("broker did not start")
    return proc, addr[0]


def topic(bootstrap: str) -> str:
    name = f"bt-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, 3, 1)])[name].result(30)
    return name


def produce(bootstrap: str, name: str, size: int, count: int, per_txn: int | None) -> float:
    cfg = {"bootstrap.servers": bootstrap, "enable.idempotence": True, "linger.ms": 5,
           "batch.size": 1 << 20, "queue.buffering.max.messages": 1_000_000}
    if per_txn:
        cfg["transactional.id"] = f"bench-{uuid.uuid4().hex[:6]}"
    value = b"x" * size
    # from the producer's creation: both sides get their producer id in the timed span (the
    # idempotent one lazily, before its first batch; the transactional one in init_transactions)
    start = time.perf_counter()
    p = ck.Producer(cfg)
    if per_txn:
        p.init_transactions(30)
    for i in range(count):
        if per_txn and i % per_txn == 0:
            p.begin_transaction()
        while True:
            try:
                p.produce(name, value, partition=i % 3)
                break
            except BufferError:
                p.poll(0.01)
        if per_txn and (i + 1) % per_txn == 0:
            p.commit_transaction(60)
    if per_txn and count % per_txn:
        p.commit_transaction(60)
    p.flush(120)
    return count / (time.perf_counter() - start)


def consume(bootstrap: str, name: str, count: int, isolation: str) -> float:
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": f"b-{uuid.uuid4().hex[:6]}",
                     "auto.offset.reset": "earliest", "enable.auto.commit": False,
                     "isolation.level": isolation, "fetch.max.bytes": 52428800})
    got = 0
    start = time.perf_counter()  # from assign(): start-up counts for both isolation levels alike
    c.assign([ck.TopicPartition(name, p, ck.OFFSET_BEGINNING) for p in range(3)])
    deadline = time.monotonic() + 300
    while got < count and time.monotonic() < deadline:
        for m in c.consume(10000, 1.0):
            if not m.error():
                got += 1
    elapsed = time.perf_counter() - start
    c.close()
    if got != count:
        raise SystemExit(f"consumed {got} of {count} ({isolation})")
    return got / elapsed


def one_round(bootstrap: str, a, flip: bool) -> dict[str, float]:
    """Both produce sides, then both consume sides over the transactional data."""
    t = topic(bootstrap)
    r: dict[str, float] = {}
    for side in (("txn", "plain") if flip else ("plain", "txn")):
        if side == "txn":
            r["txn"] = produce(bootstrap, t, a.size, a.count, a.per_txn)
        else:
            r["plain"] = produce(bootstrap, topic(bootstrap), a.size, a.count, None)
    for isolation in (("read_committed", "read_uncommitted") if flip else ("read_uncommitted", "read_committed")):
        r[isolation] = consume(bootstrap, t, a.count, isolation)
    return r


def spread(values: list[float]) -> str:
    return f"median {statistics.median(values):.1%} (range {min(values):.1%}-{max(values):.1%})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=200_000)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--per-txn", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} CPUs")
    rounds = []
    with tempfile.TemporaryDirectory() as d:
        proc, bootstrap = start_broker(d)
        try:
            one_round(bootstrap, a, flip=False)  # warm-up (page cache, lazy imports), not counted
            for i in range(a.rounds):
                r = one_round(bootstrap, a, flip=i % 2 == 1)
                rounds.append(r)
                print(f"round {i + 1}: produce plain {r['plain']:8.0f} txn {r['txn']:8.0f} records/s "
                      f"({r['txn'] / r['plain']:6.1%}); consume read_uncommitted {r['read_uncommitted']:8.0f} "
                      f"read_committed {r['read_committed']:8.0f} records/s "
                      f"({r['read_committed'] / r['read_uncommitted']:6.1%})", flush=True)
        finally:
            proc.terminate()
            proc.wait(60)
    m = statistics.median
    for key, label in (("plain", "produce idempotent, no transactions"),
                       ("txn", f"produce transactional (1 txn/{a.per_txn})"),
                       ("read_uncommitted", "consume read_uncommitted"),
                       ("read_committed", "consume read_committed")):
        xs = [r[key] for r in rounds]
        print(f"{label:38s}: median {m(xs):8.0f} records/s (range {min(xs):.0f}-{max(xs):.0f})")
    print(f"transactional / plain produce         : {spread([r['txn'] / r['plain'] for r in rounds])}"
          " (goal >= 80 %)")
    print(f"read_committed / read_uncommitted     : "
          f"{spread([r['read_committed'] / r['read_uncommitted'] for r in rounds])} (goal >= 90 %)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
