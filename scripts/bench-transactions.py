#!/usr/bin/env python3
"""Transactional vs non-transactional throughput against a ``kwire serve`` it starts (issue 13).

    python scripts/bench-transactions.py [--count 200000] [--size 1024] [--per-txn 1000] [--runs 3]

Same run, same broker, confluent-kafka (librdkafka) clients, 1 KiB records on
a 3-partition topic:

* produce: an idempotent producer without transactions vs the same producer
  with a transactional id committing one transaction per ``--per-txn``
  records (goal: transactional >= 80 % of non-transactional);
* consume: read_committed vs read_uncommitted over the same transactional
  data (every ``--per-txn`` records one COMMIT marker per partition; goal:
  read_committed >= 90 %).

Each figure is the median of ``--runs`` runs after one warm-up run (fresh
topics each run, the order of the two sides alternating). Prints
one line per figure and the ratios.
"""

from __future__ import annotations

import argparse
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
    p = ck.Producer(cfg)
    value = b"x" * size
    if per_txn:
        p.init_transactions(30)
    start = time.perf_counter()
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
    c.assign([ck.TopicPartition(name, p, ck.OFFSET_BEGINNING) for p in range(3)])
    got = 0
    start = None
    deadline = time.monotonic() + 300
    while got < count and time.monotonic() < deadline:
        for m in c.consume(10000, 1.0):
            if not m.error():
                if start is None:
                    start = time.perf_counter()
                got += 1
    elapsed = time.perf_counter() - start
    c.close()
    if got < count:
        raise SystemExit(f"consumed {got} of {count} ({isolation})")
    return got / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=200_000)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--per-txn", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        proc, bootstrap = start_broker(d)
        try:
            plain, txn, rc, ru = [], [], [], []
            for run in range(a.runs + 1):  # run 0 warms up (page cache, JIT-free but lazy imports)
                t = topic(bootstrap)
                if run % 2:  # alternate the order: neither side always runs on a warmer machine
                    r_txn = produce(bootstrap, t, a.size, a.count, a.per_txn)
                    r_plain = produce(bootstrap, topic(bootstrap), a.size, a.count, None)
                    r_rc = consume(bootstrap, t, a.count, "read_committed")
                    r_ru = consume(bootstrap, t, a.count, "read_uncommitted")
                else:
                    r_plain = produce(bootstrap, topic(bootstrap), a.size, a.count, None)
                    r_txn = produce(bootstrap, t, a.size, a.count, a.per_txn)
                    r_ru = consume(bootstrap, t, a.count, "read_uncommitted")
                    r_rc = consume(bootstrap, t, a.count, "read_committed")
                if run:
                    plain.append(r_plain)
                    txn.append(r_txn)
                    ru.append(r_ru)
                    rc.append(r_rc)
        finally:
            proc.terminate()
            proc.wait(60)
    m = statistics.median
    print(f"produce idempotent, no transactions : {m(plain):10.0f} records/s  runs {[round(x) for x in plain]}")
    print(f"produce transactional (1 txn/{a.per_txn}) : {m(txn):10.0f} records/s  runs {[round(x) for x in txn]}")
    print(f"  ratio {m(txn) / m(plain):.1%} (goal >= 80 %)")
    print(f"consume read_uncommitted            : {m(ru):10.0f} records/s  runs {[round(x) for x in ru]}")
    print(f"consume read_committed              : {m(rc):10.0f} records/s  runs {[round(x) for x in rc]}")
    print(f"  ratio {m(rc) / m(ru):.1%} (goal >= 90 %)")


if __name__ == "__main__":
    main()
