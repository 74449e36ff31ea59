#!/usr/bin/env python3
"""Log cleaner throughput (plain vs transactional logs), and group replay after compaction.

Builds one compacted partition log per workload in a temporary directory with
``PartitionLog.append_as_leader`` (no broker, no network), then runs one
whole cleaning pass in this process (``LogCleaner.clean_now``, the worker's
code: ``cleaner_rewrite.run``) and prints the pass's own figure: bytes of the
segments cleaned / the worker's elapsed time (the swap is not counted, as in
the cleaner's log line).

Workloads, each ``--mb`` MB of 1 KiB uncompressed records with ``--unique``
distinct keys (10 % of the records by default), 16 records per batch:

* ``plain``: non-transactional batches (the 280-350 MB/s figure in docs/compaction.md);
* ``txn``: the same records written by 8 transactional producers, 4 batches
  per transaction, one transaction in ``--abort-every`` aborted; every
  transaction ends with its marker (and aborts with an index entry), so the
  pass drops aborted batches whole and deduplicates committed ones.

Usage: ``python scripts/bench-cleaner.py [--mb 300] [--runs 3] [--codec none]``.

``--replay-commits N`` measures instead what compaction does for a broker's
restart: the time a broker takes to replay one group's N offset commits from
``__consumer_offsets`` (one partition, ``--replay-segment-mb`` segments, the
cleaner off), before and after the partition is compacted.

1. a broker (in this process) creates the group's topic and, for one real
   OffsetCommit over the wire (kwire's client: a simple commit), ``__consumer_offsets``;
2. with the broker stopped, N - 1 more commits of one partition each (``--commit-partitions``
   distinct partitions in turn, metadata of 20 bytes) are appended to the
   partition as the coordinator appends them: the shard's ``commit_offsets``
   records, one batch per commit (writing N commits through the wire would
   take the broker's per-request time N times, and make the same log);
3. a broker starts with the cleaner off: the replay time is its coordinator's
   own figure (the ``loaded __consumer_offsets-0: ... in X s`` line); the
   committed offsets are fetched over the wire and checked;
4. a broker starts with the cleaner on and is stopped once its cleaner
   checkpoint reached the active segment (the active segment is never
   cleaned: its size is what remains besides the latest commit per key);
5. as 3, on the compacted log.

Usage: ``python scripts/bench-cleaner.py --replay-commits 1000000``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from kwire.log import LogConfig  # noqa: E402
from kwire.log.manager import LogManager  # noqa: E402
from kwire.log.validate import AppendOrigin  # noqa: E402
from kwire.records.builder import build_batch  # noqa: E402
from kwire.records.compression import GZIP, LZ4, NONE, SNAPPY, ZSTD  # noqa: E402
from kwire.records.control import ABORT, COMMIT, build_end_txn_batch  # noqa: E402

CODECS = {"none": NONE, "gzip": GZIP, "snappy": SNAPPY, "lz4": LZ4, "zstd": ZSTD}
PER_BATCH = 16
VALUE = 1024


def build(lg, mb: int, unique: int, txn: bool, codec: int, abort_every: int, now: int) -> None:
    rnd = random.Random(7)
    n_batches = mb * 1_000_000 // (VALUE * PER_BATCH)
    value = os.urandom(VALUE // 2).hex().encode()
    producers = {pid: {"seq": 0, "left": 0, "abort": False, "n": 0} for pid in range(1000, 1008)}
    ts = now - 3600_000
    for i in range(n_batches):
        recs = [(b"key-%08d" % rnd.randrange(unique), value, [], ts) for _ in range(PER_BATCH)]
        if not txn:
            lg.append_as_leader(bytearray(build_batch(recs, compression=codec, now_ms=ts)), 0, now)
            continue
        pid = 1000 + i % len(producers)
        p = producers[pid]
        if p["left"] == 0:
            p["left"] = 4
            p["n"] += 1
            p["abort"] = p["n"] % abort_every == 0
        buf = build_batch(recs, compression=codec, producer_id=pid, producer_epoch=0,
                          base_sequence=p["seq"], is_transactional=True, now_ms=ts)
        lg.append_as_leader(bytearray(buf), 0, now, origin=AppendOrigin.COORDINATOR)
        p["seq"] += PER_BATCH
        p["left"] -= 1
        if p["left"] == 0:
            end = build_end_txn_batch(ABORT if p["abort"] else COMMIT, producer_id=pid,
                                      producer_epoch=0, coordinator_epoch=0, timestamp=ts)
            lg.append_as_leader(bytearray(end), 0, now, origin=AppendOrigin.COORDINATOR)
    for pid, p in producers.items():  # close what is open: the LSO must reach the end
        if txn and p["left"]:
            end = build_end_txn_batch(COMMIT, producer_id=pid, producer_epoch=0,
                                      coordinator_epoch=0, timestamp=ts)
            lg.append_as_leader(bytearray(end), 0, now, origin=AppendOrigin.COORDINATOR)
    lg.roll(now)
    lg.update_high_watermark(lg.log_end_offset)


def one_run(kind: str, args) -> tuple[float, object]:
    d = tempfile.mkdtemp(prefix="kwire-bench-cleaner-", dir=args.dir)
    try:
        now = int(time.time() * 1000)
        m = LogManager(d, now, max_open_files=256, cleaner={"backoff_ms": 0, "executor": "thread",
                                                            "max_map_entries": 4_000_000})
        cfg = LogConfig(cleanup_policy="compact", min_cleanable_dirty_ratio=0.01,
                        segment_bytes=args.segment_mb << 20)
        lg = m.get_or_create("bench", 0, cfg, now)
        build(lg, args.mb, args.unique or args.mb * 1_000_000 // VALUE // 10, kind == "txn",
              CODECS[args.codec], args.abort_every, now)
        before = lg.size_bytes
        assert m.cleaner.clean_now(lg, now, force=True)
        r = m.cleaner.last_result
        mbps = m.cleaner.stats["bytes_cleaned"] / 1e6 / r.elapsed_s
        print(f"  {kind:5s} {before / 1e6:7.1f} MB -> {lg.size_bytes / 1e6:6.1f} MB in "
              f"{r.elapsed_s:5.2f} s: {mbps:6.1f} MB/s ({r.records_kept} of {r.records_read} "
              f"records kept, {r.aborted_removed} aborted removed)", flush=True)
        m.close()
        return mbps, r
    finally:
        shutil.rmtree(d, ignore_errors=True)


GROUP, TOPIC = "bench-group", "bench-topic"


def _broker(d: str, cleaner: bool, segment_mb: int):
    from kwire.config import BrokerConfig
    from kwire.server.app import ThreadedBroker

    return ThreadedBroker(BrokerConfig.load(None, {
        "listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": d, "offsets.topic.num.partitions": "1",
        "offsets.topic.segment.bytes": str(segment_mb << 20),
        "log.cleaner.enable": "true" if cleaner else "false"}))


def _append_commits(d: str, n: int, partitions: int, segment_mb: int) -> dict:
    """Append ``n`` commits to ``__consumer_offsets-0`` in ``d`` as the coordinator does;
    returns the last committed (offset, metadata) per partition."""
    from kwire.config import BrokerConfig
    from kwire.coordinator.offsets import Commit
    from kwire.coordinator.records import encode_record
    from kwire.coordinator.shard import CoordinatorConfig, GroupCoordinatorShard

    now = int(time.time() * 1000)
    m = LogManager(d, now, max_open_files=256, cleaner={"enabled": False})
    lg = m.get("__consumer_offsets", 0)
    # the topic's config as the broker applies it (a bare LogManager knows no topic configs)
    lg.update_config(LogConfig(cleanup_policy="compact", segment_bytes=segment_mb << 20))
    codec = BrokerConfig.load(None, {"log.dirs": d})["offsets.topic.compression.codec"]
    shard = GroupCoordinatorShard(CoordinatorConfig())
    last = {}
    for i in range(n):
        p = i % partitions
        c = Commit(TOPIC, p, 1000 + i, -1, "meta-%014d" % i)
        r = shard.commit_offsets(GROUP, -1, "", None, -1, [c], 9, now)
        batch = build_batch([encode_record(x) for x in r.records], now_ms=now, compression=codec)
        lg.append_as_leader(bytearray(batch), 0, now, origin=AppendOrigin.COORDINATOR)
        last[(TOPIC, p)] = (c.offset, c.metadata)
        if i % 100_000 == 99_999:
            print(f"  {i + 1} commits appended", flush=True)
    lg.update_high_watermark(lg.log_end_offset)
    m.close()
    return last


def _replay(d: str, segment_mb: int, want: dict) -> tuple[float, int, int]:
    """Start a broker with the cleaner off: (replay seconds, records replayed, partition bytes)."""
    import logging

    from kwire.client import KafkaClient

    loaded = []

    class Catch(logging.Handler):
        def emit(self, record) -> None:
            if record.msg.startswith("loaded %s-%d"):
                loaded.append(record.args)

    h = Catch()
    logging.getLogger("kwire.coordinator").addHandler(h)
    logging.getLogger("kwire.coordinator").setLevel(logging.INFO)
    try:
        b = _broker(d, False, segment_mb)
        try:
            deadline = time.monotonic() + 600
            while not loaded and time.monotonic() < deadline:
                time.sleep(0.05)
            with KafkaClient(b.bootstrap) as c:
                got = c.offset_fetch(GROUP)
            got = {k: (v.offset, v.metadata) for k, v in got.items()}
            assert got == want, f"committed offsets after the replay differ: {got} != {want}"
            size = b.server.broker.logs.get("__consumer_offsets", 0).size_bytes
        finally:
            b.stop()
    finally:
        logging.getLogger("kwire.coordinator").removeHandler(h)
    (_topic, _p, count, _groups, seconds), = loaded
    return seconds, count, size


def replay_bench(args) -> None:
    from kwire.client import KafkaClient, NewTopic

    d = tempfile.mkdtemp(prefix="kwire-bench-replay-", dir=args.dir)
    seg = args.replay_segment_mb
    try:
        b = _broker(d, False, seg)
        try:
            with KafkaClient(b.bootstrap) as c:
                c.create_topics([NewTopic(TOPIC, args.commit_partitions)])
                c.offset_commit(GROUP, {(TOPIC, 0): (999, "first")})
        finally:
            b.stop()
        t0 = time.perf_counter()
        want = {(TOPIC, 0): (999, "first")}
        want.update(_append_commits(d, args.replay_commits - 1, args.commit_partitions, seg))
        print(f"{args.replay_commits} commits of group {GROUP} in __consumer_offsets-0 "
              f"({time.perf_counter() - t0:.0f} s to write)", flush=True)
        before = _replay(d, seg, want)
        print(f"  before compaction: {before[2] / 1e6:.1f} MB, {before[1]} records replayed "
              f"in {before[0]:.2f} s", flush=True)
        b = _broker(d, True, seg)
        try:
            logs = b.server.broker.logs
            plog = logs.get("__consumer_offsets", 0)
            t0 = time.perf_counter()
            while logs.cleaner.checkpoints.get(("__consumer_offsets", 0), -1) < \
                    plog.active_segment.base_offset:
                time.sleep(0.1)
            cleaned_s = time.perf_counter() - t0
        finally:
            b.stop()
        after = _replay(d, seg, want)
        print(f"  after compaction ({cleaned_s:.1f} s after start-up): {after[2] / 1e6:.1f} MB, "
              f"{after[1]} records replayed in {after[0]:.2f} s", flush=True)
        print(f"replay of {args.replay_commits} commits to one group: {before[0]:.2f} s before "
              f"compaction ({before[2] / 1e6:.0f} MB), {after[0]:.2f} s after "
              f"({after[2] / 1e6:.1f} MB); {seg} MiB segments")
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=int, default=300)
    ap.add_argument("--unique", type=int, default=0,
                    help="distinct keys (default: 10%% of the records)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--codec", default="none", choices=sorted(CODECS))
    ap.add_argument("--abort-every", type=int, default=5, help="one transaction in N aborts")
    ap.add_argument("--segment-mb", type=int, default=100)
    ap.add_argument("--dir", default=None, help="where the temporary logs go")
    ap.add_argument("--replay-commits", type=int, default=0, metavar="N",
                    help="measure instead a broker's replay of one group's N offset commits, "
                         "before and after compaction")
    ap.add_argument("--replay-segment-mb", type=int, default=8,
                    help="offsets.topic.segment.bytes for --replay-commits, in MiB")
    ap.add_argument("--commit-partitions", type=int, default=10,
                    help="the partitions the group commits, one per commit in turn")
    args = ap.parse_args()
    if args.replay_commits:
        replay_bench(args)
        return
    results = {"plain": [], "txn": []}
    for i in range(args.runs):  # alternate, so machine load hits both alike
        for kind in (("plain", "txn") if i % 2 == 0 else ("txn", "plain")):
            results[kind].append(one_run(kind, args)[0])
    p, t = statistics.median(results["plain"]), statistics.median(results["txn"])
    print(f"median of {args.runs}: plain {p:.1f} MB/s, transactional {t:.1f} MB/s "
          f"({t / p:.0%} of plain); codec {args.codec}, {args.mb} MB of 1 KiB records")


if __name__ == "__main__":
    main()
