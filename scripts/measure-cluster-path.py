#!/usr/bin/env python3
"""Where an acks=all Produce waits in a 3-broker cluster: a trace of the replica path.

Runs the cluster of ``scripts/measure-cluster-cpu.py`` (every partition's
replicas [1, 2, 3]: broker 1 leads, brokers 2 and 3 follow) with a tracer
loaded into each broker (a ``sitecustomize`` module on the brokers'
PYTHONPATH, written to a temporary directory; kwire itself is not changed). It
wraps, by monkeypatching, the leader's ``ReplicaManager.append``,
``follower_fetch`` and ``wait_all_replicated`` and the follower's
``_LeaderFetcher._fetch`` / ``_read``, and logs each call with
``time.perf_counter`` (one clock for all processes). After one produce of
``--messages`` 1 KiB records at acks=all it prints one JSON object:

* ``acks_all_wait_ms``: each Produce's wait from its append to acks=all
  (p50, p90, max);
* ``follower_fetches_per_wait``: how many Fetch requests of the busier
  follower arrived during each wait (a histogram);
* ``hw_moves``: high-watermark moves on a follower Fetch that carried a new
  fetch offset for the partition, and on any other (Kafka's
  ``maybeIncrementLeaderHW`` on the Fetch that proves the offset: the second
  count should be 0);
* ``follower_reads``: partition reads of follower Fetches that were caught up
  (nothing to send: the Fetch parks until an append) or behind (answered at once);
* per follower: Fetches, those with data, MB and median MB per answer, the
  time from sending a Fetch to its answer (parked at the leader plus the round
  trip), from the answer to the end of its appends, and from there to the next
  Fetch (the fetcher's own delay: no sleep or backoff while data comes back).

Wall-clock figures measure the machine as much as kwire on a busy machine;
the counts do not.

    python scripts/measure-cluster-path.py [--messages 200000] [--override KEY=VALUE ...]

Not here: CPU per MB (``measure-cluster-cpu.py``), syscalls (its ``--strace``).
"""

from __future__ import annotations

import argparse
import collections
import glob
import importlib.util
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

TRACER = r'''
import atexit, os, sys, time
if os.environ.get("KWIRE_PATH_TRACE") and "serve" in sys.argv:
    _out = open(os.path.join(os.environ["KWIRE_PATH_TRACE"], f"trace-{os.getpid()}.txt"), "w",
                buffering=1 << 20)
    atexit.register(_out.flush)
    _pc = time.perf_counter

    def _ev(*fields):
        _out.write(" ".join(map(str, (round(_pc() * 1e6),) + fields)) + "\n")

    import kwire.replication.fetcher as F
    import kwire.replication.manager as M

    RM = M.ReplicaManager
    _ff, _ap, _wr = RM.follower_fetch, RM.append, RM.wait_all_replicated
    _fetch, _read = F._LeaderFetcher._fetch, F._LeaderFetcher._read

    def follower_fetch(self, topic, partition, replica_id, fetch_offset, log_start_offset, plog):
        hw = plog.high_watermark
        _ff(self, topic, partition, replica_id, fetch_offset, log_start_offset, plog)
        _ev("FF", topic, partition, replica_id, fetch_offset, plog.log_end_offset, hw, plog.high_watermark)

    def append(self, plog, records, now, **kw):
        result = _ap(self, plog, records, now, **kw)
        _ev("AP", plog.topic, plog.partition, plog.log_end_offset, len(records))
        return result

    async def wait_all_replicated(self, waits, timeout_s):
        t0 = _pc()
        result = await _wr(self, waits, timeout_s)
        _ev("WR", round(t0 * 1e6))
        return result

    async def fetch(self, requested):
        _ev("FS", self.leader_id)
        await _fetch(self, requested)
        _ev("FD", self.leader_id)

    async def read(self, correlation_id, extra_wait_ms):
        frame = await _read(self, correlation_id, extra_wait_ms)
        _ev("FR", self.leader_id, len(frame))
        return frame

    M.ReplicaManager.follower_fetch, M.ReplicaManager.append = follower_fetch, append
    M.ReplicaManager.wait_all_replicated = wait_all_replicated
    F._LeaderFetcher._fetch, F._LeaderFetcher._read = fetch, read
'''


def _load_cpu_script():
    spec = importlib.util.spec_from_file_location("measure_cluster_cpu",
                                                  os.path.join(HERE, "measure-cluster-cpu.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _quantiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    v = sorted(values)
    return {"n": len(v), "p50": round(v[len(v) // 2], 2), "p90": round(v[int(len(v) * 0.9)], 2),
            "max": round(v[-1], 2)}


def analyze(trace_dir: str) -> dict:
    traces = {}
    for path in glob.glob(os.path.join(trace_dir, "trace-*.txt")):
        with open(path) as f:
            traces[path] = [line.split() for line in f]
    leader = max(traces.values(), key=lambda evs: sum(e[1] == "FF" for e in evs))
    fetches = [e for e in leader if e[1] == "FF"]
    waits = [e for e in leader if e[1] == "WR"]
    # one follower Fetch reads its partitions back to back: its reads are one request
    requests: dict[str, list[int]] = collections.defaultdict(list)
    for e in fetches:
        t = int(e[0])
        times = requests[e[4]]
        if not times or t - times[-1] > 200:
            times.append(t)
    per_wait = collections.Counter()
    for e in waits:
        t0, t1 = int(e[2]), int(e[0])
        per_wait[max((sum(t0 <= t <= t1 for t in ts) for ts in requests.values()), default=0)] += 1
    last: dict[tuple, int] = {}
    moved_new = moved_other = caught_up = behind = 0
    for e in fetches:
        key, offset = (e[2], e[3], e[4]), int(e[5])
        prev = last.get(key)
        last[key] = offset
        if e[7] != e[8]:
            if prev is None or offset > prev:
                moved_new += 1
            else:
                moved_other += 1
        if offset >= int(e[6]):
            caught_up += 1
        else:
            behind += 1
    out = {"produce_requests": len(waits),
           "acks_all_wait_ms": _quantiles([(int(e[0]) - int(e[2])) / 1000 for e in waits]),
           "follower_fetches_per_wait": dict(sorted(per_wait.items())),
           "hw_moves": {"on_a_new_fetch_offset": moved_new, "other": moved_other},
           "follower_reads": {"caught_up": caught_up, "behind": behind}, "followers": {}}
    for path, evs in traces.items():
        if evs is leader or not any(e[1] == "FR" for e in evs):
            continue
        sizes, to_answer, to_applied, to_next = [], [], [], []
        t_sent = t_answer = t_done = None
        for e in evs:
            t = int(e[0])
            if e[1] == "FS":
                if t_done is not None:
                    to_next.append((t - t_done) / 1000)
                t_sent, t_done = t, None
            elif e[1] == "FR":
                sizes.append(int(e[3]))
                if t_sent is not None:
                    to_answer.append((t - t_sent) / 1000)
                t_answer = t
            elif e[1] == "FD" and t_answer is not None:
                to_applied.append((t - t_answer) / 1000)
                t_done = t
        data = sorted(s for s in sizes if s > 1000)
        out["followers"][os.path.basename(path)] = {
            "fetches": len(sizes), "with_data": len(data), "MB": round(sum(sizes) / 1e6, 1),
            "median_answer_MB": round(data[len(data) // 2] / 1e6, 2) if data else 0,
            "fetch_to_answer_ms": _quantiles(to_answer), "answer_to_appended_ms": _quantiles(to_applied),
            "appended_to_next_fetch_ms": _quantiles(to_next)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=200000)
    ap.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                    help="config override for every broker (repeatable)")
    args = ap.parse_args(argv)
    import confluent_kafka as ck

    from kwire.bench import workloads

    cpu = _load_cpu_script()
    workdir = tempfile.mkdtemp(prefix="kwire-cluster-path-")
    site, traces = os.path.join(workdir, "site"), os.path.join(workdir, "traces")
    os.makedirs(site)
    os.makedirs(traces)
    with open(os.path.join(site, "sitecustomize.py"), "w") as f:
        f.write(TRACER)
    saved = {k: os.environ.get(k) for k in ("PYTHONPATH", "KWIRE_PATH_TRACE")}
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (site, saved["PYTHONPATH"]) if p)
    os.environ["KWIRE_PATH_TRACE"] = traces
    try:
        cluster = cpu.start_cluster(workdir, 3, args.override)
        try:
            cpu.create_led_by_one(cluster.bootstrap, "cluster-path")
            cpu.wait_in_sync(ck, cluster.bootstrap, "cluster-path")
            res = workloads.produce(ck, cluster.bootstrap, "cluster-path", cpu.SIZE, args.messages, "all")
        finally:
            cluster.stop()  # SIGTERM: the brokers exit and flush their traces
        print(json.dumps({"mb_per_s": round(res["mb_per_s"], 1), "load_1min": round(os.getloadavg()[0], 1),
                          **analyze(traces)}, indent=1))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
