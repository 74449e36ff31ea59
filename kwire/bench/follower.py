"""What a follower's copy of the leader's log costs: ``python -m kwire.bench.follower``.

Starts one kwire broker (a subprocess, the leader), writes ``--mb`` MB of 1 KiB
records into ``--partitions`` partitions, in batches of about ``--batch-kib``
KiB (what librdkafka sends at the produce workloads' settings), then copies
them ``--runs`` times with this process's ``ReplicaFetcherManager`` (the
follower broker's replica fetcher: its connection, Fetch requests with
Kafka's default ``replica.fetch.*`` settings, answers read into its buffer,
``append_as_follower`` with the CRC check, the file writes) into fresh
follower logs, on uvloop as ``kwire serve`` runs when it is installed. Per
run it prints this process's CPU seconds (user and system, ``getrusage``)
from the first Fetch until every follower log ends where the leader's does
(closing the logs, which flushes them, is left out),
and the leader's CPU seconds over the same time (``/proc``).

The leader is one node, so it answers these Fetches as a consumer's (a
replica id is only honoured in a cluster): its figure is the read path, not
ISR or high-watermark bookkeeping. A measurement, not a test; the cluster as
a whole is ``kwire bench --cluster 3``. Run it with another checkout's kwire
first on ``PYTHONPATH`` to compare revisions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import statistics
import tempfile
import time

from kwire.bench.brokers import start_kwire
from kwire.client import KafkaClient, NewTopic
from kwire.config import BrokerConfig
from kwire.log import LogConfig, PartitionLog
from kwire.records.builder import build_batch
from kwire.replication.fetcher import ReplicaFetcherManager

TOPIC = "bench-follower"
LEADER_ID, NODE_ID = 1, 2
COPY_TIMEOUT_S = 120.0


def _cpu() -> tuple[float, float]:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime, r.ru_stime


def _fill(client: KafkaClient, partitions: int, mb: int, batch_kib: int) -> dict[int, int]:
    value = os.urandom(1024)
    per_batch = max(1, batch_kib)
    batch = build_batch([(None, value, [])] * per_batch)
    n = max(1, mb * 1_000_000 // (len(batch) * partitions))
    for _ in range(n):
        client.produce_batches(TOPIC, {p: batch for p in range(partitions)}, acks=1)
    return {p: client.list_offsets(TOPIC, p, -1)[0] for p in range(partitions)}


async def _copy(endpoint, ends: dict[int, int], workdir: str) -> tuple[float, tuple[float, float]]:
    """Copy the leader's partitions into fresh logs: (seconds, this process's CPU at the end,
    before the logs are closed and flushed)."""
    cfg = BrokerConfig.load(None, {})
    now = time.time_ns() // 1_000_000
    logs = {p: PartitionLog.open(workdir, TOPIC, p, LogConfig(), now) for p in ends}
    mgr = ReplicaFetcherManager(NODE_ID, endpoint, cfg, on_appended=lambda t, p: None)
    t0 = time.perf_counter()
    mgr.add_partitions({(TOPIC, p): (plog, LEADER_ID, 0) for p, plog in logs.items()})
    mgr.start()
    try:
        while any(logs[p].log_end_offset < end for p, end in ends.items()):
            if time.perf_counter() - t0 > COPY_TIMEOUT_S:
                raise RuntimeError(f"the follower did not catch up within {COPY_TIMEOUT_S:.0f} s: "
                                   f"{[logs[p].log_end_offset for p in ends]} of {list(ends.values())}")
            await asyncio.sleep(0.005)
        return time.perf_counter() - t0, _cpu()
    finally:
        await mgr.close()
        for plog in logs.values():
            plog.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kwire.bench.follower", description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=int, default=100, help="MB of records to copy per run (default 100)")
    ap.add_argument("--partitions", type=int, default=2, help="partitions (default 2: what each "
                    "follower fetches from each leader in the 3-broker bench)")
    ap.add_argument("--batch-kib", type=int, default=256, help="records (1 KiB each) per batch (default 256)")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    try:
        import uvloop
        run = uvloop.run
    except ImportError:
        run = asyncio.run
    work = tempfile.mkdtemp(prefix="kwire-bench-follower-")
    leader = start_kwire(work)
    try:
        host, port = leader.bootstrap.rsplit(":", 1)
        client = KafkaClient(leader.bootstrap)
        client.create_topics([NewTopic(TOPIC, args.partitions)])
        ends = _fill(client, args.partitions, args.mb, args.batch_kib)
        client.close()
        mb = sum(os.path.getsize(os.path.join(leader.data_dir, f"{TOPIC}-{p}", f))
                 for p in ends for f in os.listdir(os.path.join(leader.data_dir, f"{TOPIC}-{p}"))
                 if f.endswith(".log")) / 1e6
        endpoint = lambda node: (host, int(port)) if node == LEADER_ID else None  # noqa: E731
        rows = []
        for i in range(args.runs):
            d = tempfile.mkdtemp(prefix="follower-", dir=work)
            load = os.getloadavg()[0]
            u0, s0 = _cpu()
            l0 = leader.cpu_seconds()
            secs, (u1, s1) = run(_copy(endpoint, ends, d))
            l1 = leader.cpu_seconds()
            rows.append((u1 - u0, s1 - s0, l1 - l0))
            print(f"[run {i + 1}] {mb:.1f} MB copied in {secs:.3f} s: follower CPU {u1 - u0 + s1 - s0:.3f} s "
                  f"(user {u1 - u0:.3f}, system {s1 - s0:.3f}), leader CPU {l1 - l0:.2f} s, "
                  f"1-min load {load:.2f}", flush=True)
            shutil.rmtree(d, ignore_errors=True)
        med = statistics.median(u + s for u, s, _ in rows)
        print(f"median follower CPU {med:.3f} s per {mb:.1f} MB = {med / mb * 1e3:.2f} ms per MB; "
              f"leader {statistics.median(r[2] for r in rows):.2f} s")
    finally:
        leader.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
