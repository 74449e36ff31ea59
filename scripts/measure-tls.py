"""Measure produce and consume throughput of 1 KiB records over PLAINTEXT vs SSL, same run.

Usage: python scripts/measure-tls.py [--records N] [--rounds R]

Starts ``kwire serve`` subprocesses (a CA and a broker certificate are made
here with ``cryptography``) and drives them
with confluent-kafka (librdkafka: its own threads, so the client is not the
bottleneck): per round and listener, produce N records of 1 KiB to a fresh
one-partition topic (acks=1, no compression, linger 5 ms) and consume them
back from the beginning. Two broker processes (one PLAINTEXT, one SSL
listener, same settings otherwise) run side by side, and the listeners
alternate within a round so that machine noise hits both. Prints MB/s per
listener and the TLS/plaintext ratio (issue 14's goal: >= 50 %).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "integration"))


def start(cfg: dict[str, str]) -> tuple[subprocess.Popen, str]:
    args = [sys.executable, "-m", "kwire", "serve"]
    for k, v in cfg.items():
        args += ["--override", f"{k}={v}"]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in p.stdout:
        m = re.search(r"kwire serving on (\S+):(\d+)", line)
        if m:
            return p, f"{m.group(1)}:{m.group(2)}"
    raise RuntimeError("broker did not start")


def run_once(bootstrap: str, conf: dict, topic: str, n: int) -> tuple[float, float]:
    from confluent_kafka import Consumer, Producer

    value = os.urandom(1024)
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "acks": 1, "batch.size": 1 << 20,
                  "queue.buffering.max.messages": 1_000_000, **conf})
    t0 = time.perf_counter()
    for i in range(n):
        while True:
            try:
                p.produce(topic, value)
                break
            except BufferError:
                p.poll(0.01)
        if i % 1000 == 0:
            p.poll(0)
    assert p.flush(120) == 0
    produce_s = time.perf_counter() - t0
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{topic}", "auto.offset.reset": "earliest",
                  "fetch.max.bytes": 50 << 20, "enable.auto.commit": False, **conf})
    c.subscribe([topic])
    got = 0
    t0 = None
    while got < n:
        batch = c.consume(10000, 1.0)
        if batch and t0 is None:
            t0 = time.perf_counter()
        got += sum(1 for m in batch if m.error() is None)
    consume_s = time.perf_counter() - t0
    c.close()
    mb = n * 1024 / 1e6
    return mb / produce_s, mb / consume_s


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from test_security import Certs

    d = Path(tempfile.mkdtemp(prefix="kwire-tls-bench-"))
    certs = Certs(d)
    common = {"group.initial.rebalance.delay.ms": "0", "log.segment.bytes": str(256 << 20)}
    plain, pb = start({**common, "log.dirs": str(d / "plain"), "listeners": "PLAINTEXT://127.0.0.1:0"})
    tls, tb = start({**common, "log.dirs": str(d / "tls"), "listeners": "SSL://127.0.0.1:0",
                     "ssl.keystore.type": "PEM", "ssl.keystore.location": certs.server_pem})
    try:
        results = {"PLAINTEXT": [], "SSL": []}
        for r in range(args.rounds):
            for name, b, conf in (("PLAINTEXT", pb, {}), ("SSL", tb, {"security.protocol": "SSL",
                                                                      "ssl.ca.location": certs.ca})):
                results[name].append(run_once(b, conf, f"bench-{r}", args.records))
                print(f"round {r} {name}: produce {results[name][-1][0]:.1f} MB/s, "
                      f"consume {results[name][-1][1]:.1f} MB/s", flush=True)
        med = {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v))
               for k, v in results.items()}
        print(f"\n1 KiB records, {args.records} per run, median of {args.rounds} rounds (confluent-kafka "
              f"{__import__('confluent_kafka').version()}):")
        for k, (pr, co) in med.items():
            print(f"  {k:<9} produce {pr:7.1f} MB/s   consume {co:7.1f} MB/s")
        print(f"  SSL/PLAINTEXT: produce {med['SSL'][0] / med['PLAINTEXT'][0]:.0%}, "
              f"consume {med['SSL'][1] / med['PLAINTEXT'][1]:.0%}")
    finally:
        for p in (plain, tls):
            p.terminate()
            p.wait(30)


if __name__ == "__main__":
    main()
