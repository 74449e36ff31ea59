#!/usr/bin/env python3
"""Time to the first acks=all acknowledgement on each partition of a topic just created, on RF 3.

Starts ZooKeeper and three kwire brokers (``kwire.bench.cluster``, the
``kwire bench --cluster`` cluster) with the given config overrides, then, for
``--topics`` topics created one after the other (6 partitions, replication
factor 3; the bench waits until every partition has a leader and a full ISR),
produces one 1 KiB record acks=all to each partition in turn with
librdkafka (``linger.ms=0``) and prints how long each took (ms), then
``--messages`` x 1 KiB acks=all as ``kwire bench`` does, with the brokers' CPU
per record. The first acknowledgement of a new topic waits for the followers
to start fetching it; with ``replica.fetch.wait.max.ms`` raised (e.g.
``--override replica.fetch.wait.max.ms=5000``) a follower Fetch parked on an
older partition shows up there in full (``kwire/replication/joining.py``).

    PYTHONPATH=. python scripts/measure-new-topic-ack.py --override replica.fetch.wait.max.ms=5000
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> int:
    import confluent_kafka as ck

    from kwire.bench import workloads
    from kwire.bench.cluster import start_cluster

    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--override", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--topics", type=int, default=3)
    p.add_argument("--messages", type=int, default=20000)
    args = p.parse_args()
    wd = tempfile.mkdtemp(prefix="kwire-first-ack-")
    c = start_cluster(wd, 3, args.override)
    try:
        for n in range(args.topics):
            topic = f"first-ack-{n}"
            workloads.create_topic(ck, c.bootstrap, topic, 6, 3)
            prod = ck.Producer({"bootstrap.servers": c.bootstrap, "acks": "all", "linger.ms": 0})
            firsts = []
            for partition in range(6):
                t0 = time.perf_counter()
                prod.produce(topic, b"x" * 1024, partition=partition)
                if prod.flush(60):
                    raise SystemExit(f"{topic}-{partition}: not acknowledged in 60 s")
                firsts.append(round((time.perf_counter() - t0) * 1000, 1))
            cpu0 = c.cpu_seconds()
            r = workloads.produce(ck, c.bootstrap, topic, 1024, args.messages, "all")
            cpu = (c.cpu_seconds() - cpu0) / args.messages * 1e6
            print(f"{topic}: first acks=all per partition (ms) {firsts}; {args.messages} x 1 KiB "
                  f"{r['mb_per_s']:.0f} MB/s, broker CPU {cpu:.1f} us/record; "
                  f"load {os.getloadavg()[0]:.1f}", flush=True)
    finally:
        c.stop()
        shutil.rmtree(wd, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
