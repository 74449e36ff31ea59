#!/usr/bin/env python3
"""CPU per MB of a partition leader and of its followers, acks=all, replication factor 3.

Starts the ``kwire bench --cluster 3`` cluster (ZooKeeper and brokers 1..3,
``kwire.bench.cluster``), creates a 6-partition topic per round with every
partition's replicas [1, 2, 3], so broker 1 leads them all and brokers 2 and 3
only follow, and produces ``--messages`` 1 KiB records with the bench's
acks=all producer (``kwire.bench.workloads.produce``). Around each produce it
reads ``/proc/<pid>/stat`` of each broker: user and system CPU seconds and
minor page faults. It prints one JSON line per round, in milliseconds of CPU
and faults per MB of record values (10^6 bytes).

CPU time is counted per process, so the figures stay comparable on a busy
machine, where wall-clock throughput does not. System time still grows with
the load, because contention makes every copy and context switch cost more.
Compare runs made at similar load, or alternate the revisions.

    python scripts/measure-cluster-cpu.py [--messages 200000] [--rounds 3] [--override KEY=VALUE ...]
                                          [--strace]

With ``--strace`` each broker is traced during the produce (``strace -c -f``,
which slows it down, so the CPU figures of such a round are not comparable) and
each round's line gains ``syscalls_per_MB``: per broker, the calls per MB of the
syscalls it makes most, and their total.

Not here: the cluster/single-broker throughput ratio (``kwire bench --cluster 3``
reports that), profiles (run ``py-spy record -p <pid>`` beside this).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from kwire.bench import workloads  # noqa: E402
from kwire.bench.cluster import start_cluster  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
PARTITIONS = 6
SIZE = 1024


def proc_stat(pid: int) -> tuple[float, float, int]:
    """(user s, system s, minor faults) of ``pid``, all threads."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK, int(fields[7])


def create_led_by_one(bootstrap: str, topic: str) -> None:
    """``topic`` with every partition's replicas [1, 2, 3] (broker 1 the preferred leader)."""
    from kwire.client import KafkaClient
    from kwire.protocol.generated.create_topics_request import (
        CreatableReplicaAssignment, CreatableTopic, CreateTopicsRequest)

    assignments = [CreatableReplicaAssignment(partition_index=p, broker_ids=[1, 2, 3])
                   for p in range(PARTITIONS)]
    with KafkaClient(bootstrap) as c:
        resp = c.request(19, CreateTopicsRequest(topics=[CreatableTopic(
            name=topic, num_partitions=-1, replication_factor=-1, assignments=assignments)]))
    errors = [(t.error_code, t.error_message) for t in resp.topics if t.error_code]
    if errors:
        raise SystemExit(f"creating {topic}: {errors}")


def wait_in_sync(ck, bootstrap: str, topic: str, timeout_s: float = 60.0) -> None:
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap})
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        md = admin.list_topics(topic, timeout=10).topics.get(topic)
        if md and md.error is None and len(md.partitions) == PARTITIONS and all(
                p.leader == 1 and len(p.isrs) == 3 for p in md.partitions.values()):
            return
        time.sleep(0.05)
    raise SystemExit(f"{topic}: not led by broker 1 with 3 in-sync replicas after {timeout_s} s")


def start_strace(pid: int, out: str) -> subprocess.Popen:
    """``strace -c -f`` attached to every thread of ``pid``; returns once it is attached."""
    p = subprocess.Popen(["strace", "-c", "-f", "-o", out, "-p", str(pid)],
                         stderr=subprocess.PIPE, text=True)
    while True:  # "strace: Process N attached with M threads", once all are
        line = p.stderr.readline()
        if not line:
            raise RuntimeError(f"strace -p {pid} exited: is ptrace allowed here?")
        if "attached" in line:
            return p


def stop_strace(p: subprocess.Popen, out: str, mb: float, top: int = 8) -> dict:
    """Detach; the calls per MB of the ``top`` most frequent syscalls and of all of them."""
    p.send_signal(signal.SIGINT)
    p.wait(timeout=60)
    calls = {}
    with open(out) as f:
        for line in f:
            fields = line.split()
            # % time, seconds, usecs/call, calls, [errors,] syscall
            if len(fields) >= 5 and fields[3].isdigit() and not fields[0].startswith("-"):
                calls[fields[-1]] = int(fields[3])
    total = calls.pop("total", sum(calls.values()))
    ranked = sorted(calls.items(), key=lambda kv: -kv[1])[:top]
    return {**{k: round(v / mb, 1) for k, v in ranked}, "total": round(total / mb, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=200000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                    help="config override for every broker (repeatable)")
    ap.add_argument("--strace", action="store_true",
                    help="count each broker's syscalls per MB during the produce (strace -c -f)")
    args = ap.parse_args(argv)
    import confluent_kafka as ck

    workdir = tempfile.mkdtemp(prefix="kwire-cluster-cpu-")
    cluster = start_cluster(workdir, 3, args.override)
    try:
        pids = {b.node_id: b.proc.pid for b in cluster.dc.brokers}
        mb = args.messages * SIZE / 1e6
        for r in range(args.rounds):
            topic = f"cluster-cpu-{r}"
            create_led_by_one(cluster.bootstrap, topic)
            wait_in_sync(ck, cluster.bootstrap, topic)
            traces = {i: (start_strace(pid, out), out) for i, pid in pids.items()
                      for out in [os.path.join(workdir, f"strace-{i}-{r}.txt")]} if args.strace else {}
            before = {i: proc_stat(pid) for i, pid in pids.items()}
            res = workloads.produce(ck, cluster.bootstrap, topic, SIZE, args.messages, "all")
            after = {i: proc_stat(pid) for i, pid in pids.items()}
            syscalls = {("leader" if i == 1 else f"follower {i}"): stop_strace(p, out, mb)
                        for i, (p, out) in traces.items()}
            per_mb = {("leader" if i == 1 else f"follower {i}"): {
                "user_ms": round((after[i][0] - before[i][0]) / mb * 1000, 2),
                "sys_ms": round((after[i][1] - before[i][1]) / mb * 1000, 2),
                "minor_faults": round((after[i][2] - before[i][2]) / mb)} for i in pids}
            print(json.dumps({"round": r + 1, "mb_per_s": round(res["mb_per_s"], 1),
                              "per_MB": per_mb, "load_1min": round(os.getloadavg()[0], 1),
                              **({"syscalls_per_MB": syscalls} if syscalls else {})}),
                  flush=True)
    finally:
        cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
