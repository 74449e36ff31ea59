#!/usr/bin/env python3
"""Log cleaner throughput: MB of log cleaned per second, plain vs transactional logs.

Builds one compacted partition log per workload in a temporary directory with
``PartitionLog.append_as_leader`` (no broker, no network), then runs one
whole cleaning pass in this process (``LogCleaner.clean_now``, the worker's
code: ``cleaner_rewrite.run``) and prints the pass's own figure: bytes of the
segments cleaned / the worker's elapsed time (the swap is not counted, as in
the cleaner's log line).

Workloads, each ``--mb`` MB of 1 KiB uncompressed records with ``--unique``
distinct keys (10 % of the records by default), 16 records per batch:

* ``plain``: non-transactional batches (the README's 280-350 MB/s figure);
* ``txn``: the same records written by 8 transactional producers, 4 batches
  per transaction, one transaction in ``--abort-every`` aborted; every
  transaction ends with its marker (and aborts with an index entry), so the
  pass drops aborted batches whole and deduplicates committed ones.

Usage: ``python scripts/bench-cleaner.py [--mb 300] [--runs 3] [--codec none]``.
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
    args = ap.parse_args()
    results = {"plain": [], "txn": []}
    for i in range(args.runs):  # alternate, so machine load hits both alike
        for kind in (("plain", "txn") if i % 2 == 0 else ("txn", "plain")):
            results[kind].append(one_run(kind, args)[0])
    p, t = statistics.median(results["plain"]), statistics.median(results["txn"])
    print(f"median of {args.runs}: plain {p:.1f} MB/s, transactional {t:.1f} MB/s "
          f"({t / p:.0%} of plain); codec {args.codec}, {args.mb} MB of 1 KiB records")


if __name__ == "__main__":
    main()
