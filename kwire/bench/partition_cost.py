"""Broker CPU per partition of many-partition requests, in-process (``kwire bench --partition-cost``).

One ``Broker`` on a temporary dir, one topic of N partitions (default 5,000),
no sockets. Each request is encoded as a client would send it, then timed as
the server runs it: codec decode of the body, the handler (awaited when it
returns a coroutine), codec encode of the response. The figure is the
calling thread's CPU time (``time.thread_time_ns``), which the other
processes of a loaded machine do not inflate, divided by the partition count;
the median and best of ``rounds`` runs are printed beside the load average.
``--calls`` adds one more request of each workload under cProfile and prints its function
calls per partition (builtins included): a figure the machine's load does not move.

Workloads (Kafka's request versions as current clients send them):

* ``produce``: Produce v9, acks=1, one 1-record batch per partition.
* ``fetch_full``: Fetch v12 sessionless, every partition at its log end (idle).
* ``fetch_full_data``: Fetch v12 sessionless, every partition one batch behind.
* ``fetch_incremental_idle``: Fetch v12 incremental (KIP-227) naming no
  partition, over a session holding every partition, all caught up.
* ``list_offsets``: ListOffsets v7, latest offset of every partition.
* ``metadata``: Metadata v12 for all topics.
* ``offset_commit`` / ``offset_fetch``: OffsetCommit v8 / OffsetFetch v8 of
  every partition for one (empty, simple-consumer) group.

``--startup TOPICSxPARTITIONS`` measures instead what many partitions cost one
broker's lifecycle, in-process on a real dir: create the topics, one record to
every partition (one Produce v9 request per topic), a clean close, and the
start-up after it (``Broker(config)``: every log opened), each as process CPU
and wall time, with the ``listdir``/``scandir``, ``open`` and ``stat`` calls
made by the start-up counted and the RSS after it.

A benchmark, not a test: it measures and prints, it asserts only that each
response is well-formed with no partition error.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import os
import statistics
import tempfile
import time

from kwire.broker.broker import Broker
from kwire.config import BrokerConfig
from kwire.handlers import REGISTRY, RequestContext
from kwire.protocol import codec
from kwire.records.builder import build_batch
from kwire.records.scan import IMPLEMENTATION

TOPIC = "cost"
WORKLOADS = ("produce", "fetch_full", "fetch_full_data", "fetch_incremental_idle", "list_offsets",
             "metadata", "offset_commit", "offset_fetch")


def _frame(api_key: int, version: int, req) -> bytearray:
    return bytearray(codec.encode_request(api_key, version, 7, "cost", req)[4:])


def _ctx(broker, api_key: int, version: int) -> RequestContext:
    return RequestContext(broker, api_key, version, 7, "cost", "127.0.0.1", 1)


async def _run_once(broker, api_key: int, version: int, frame: bytearray):
    """Decode, handle, encode; returns (thread CPU ns, response)."""
    t0 = time.thread_time_ns()
    _header, pos = codec.decode_request_header(frame)
    req = codec.decode_request(api_key, version, frame, pos)
    resp = REGISTRY[api_key].handle(_ctx(broker, api_key, version), req)
    if inspect.isawaitable(resp):  # a coroutine, or a parked fetch (kwire.delayed.Later)
        resp = await resp
    codec.encode_response(api_key, version, 7, resp)
    return time.thread_time_ns() - t0, resp


def _produce_frame(n: int, now: int) -> bytearray:
    from kwire.protocol.generated.produce_request import (PartitionProduceData, ProduceRequest,
                                                          TopicProduceData)

    batch = bytes(build_batch([(None, b"x" * 100)], now_ms=now))
    return _frame(0, 9, ProduceRequest(transactional_id=None, acks=1, timeout_ms=30000, topic_data=[
        TopicProduceData(name=TOPIC, partition_data=[
            PartitionProduceData(index=p, records=batch) for p in range(n)])]))


def _fetch_frame(offsets: list[int], session_id: int = 0, epoch: int = -1,
                 names: bool = True) -> bytearray:
    from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic

    topics = [FetchTopic(topic=TOPIC, partitions=[
        FetchPartition(partition=p, fetch_offset=o, partition_max_bytes=1048576)
        for p, o in enumerate(offsets)])] if names else []
    return _frame(1, 12, FetchRequest(
        replica_id=-1, max_wait_ms=0, min_bytes=1, max_bytes=52428800, isolation_level=0,
        session_id=session_id, session_epoch=epoch, forgotten_topics_data=[], rack_id="",
        topics=topics))


def _list_offsets_frame(n: int) -> bytearray:
    from kwire.protocol.generated.list_offsets_request import (ListOffsetsPartition,
                                                               ListOffsetsRequest, ListOffsetsTopic)

    return _frame(2, 7, ListOffsetsRequest(replica_id=-1, isolation_level=0, topics=[
        ListOffsetsTopic(name=TOPIC, partitions=[
            ListOffsetsPartition(partition_index=p, timestamp=-1) for p in range(n)])]))


def _metadata_frame() -> bytearray:
    from kwire.protocol.generated.metadata_request import MetadataRequest

    return _frame(3, 12, MetadataRequest(topics=None, allow_auto_topic_creation=False,
                                         include_topic_authorized_operations=False))


def _offset_commit_frame(n: int) -> bytearray:
    from kwire.protocol.generated.offset_commit_request import (OffsetCommitRequest,
                                                                OffsetCommitRequestPartition,
                                                                OffsetCommitRequestTopic)

    return _frame(8, 8, OffsetCommitRequest(
        group_id="cost-group", generation_id_or_member_epoch=-1, member_id="",
        group_instance_id=None, topics=[OffsetCommitRequestTopic(name=TOPIC, partitions=[
            OffsetCommitRequestPartition(partition_index=p, committed_offset=1,
                                         committed_leader_epoch=-1, committed_metadata="")
            for p in range(n)])]))


def _offset_fetch_frame(n: int) -> bytearray:
    from kwire.protocol.generated.offset_fetch_request import (OffsetFetchRequest,
                                                               OffsetFetchRequestTopics)

    return _frame(9, 8, OffsetFetchRequest(require_stable=False, groups=[
        _group(OffsetFetchRequestTopics, n)]))


def _group(topics_cls, n: int):
    from kwire.protocol.generated.offset_fetch_request import OffsetFetchRequestGroup

    return OffsetFetchRequestGroup(group_id="cost-group", topics=[
        topics_cls(name=TOPIC, partition_indexes=list(range(n)))])


def _errors(resp) -> int:
    """Partition-level error codes in a response (any nesting), counted."""
    bad = 0
    stack = [resp.materialize() if hasattr(resp, "materialize") else resp]  # Metadata: cached blocks
    while stack:
        o = stack.pop()
        if isinstance(o, list):
            stack.extend(o)
        elif hasattr(o, "__slots__") or hasattr(o, "__dict__"):
            code = getattr(o, "error_code", 0)
            if code:
                bad += 1
            for name in getattr(o, "__slots__", ()) or vars(o):
                v = getattr(o, name, None)
                if isinstance(v, list):
                    stack.append(v)
    return bad


async def _count_calls(broker, api_key: int, version: int, frame) -> int:
    """Function calls (cProfile's count, builtins included) of one request."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    try:
        await _run_once(broker, api_key, version, frame)
    finally:
        prof.disable()
    return pstats.Stats(prof).total_calls


async def _measure(n: int, rounds: int, workloads, data_dir: str, calls: bool = False) -> dict:
    cfg = BrokerConfig.load(None, {"log.dirs": data_dir, "listeners": "PLAINTEXT://127.0.0.1:0",
                                   "offsets.topic.num.partitions": "1"})
    broker = Broker(cfg)
    broker.start()
    try:
        broker.create_topic(TOPIC, n)
        gc.collect()
        gc.freeze()  # as ``kwire serve`` does once it is up: start-up objects out of the collector's sight
        now = int(time.time() * 1000)
        produce = _produce_frame(n, now)
        out: dict[str, list[float]] = {}

        async def timed(name, api_key, version, frame_fn, prepare=None):
            if name not in workloads:
                return
            runs = []
            for _ in range(rounds):
                frame = prepare() if prepare else frame_fn()
                ns, resp = await _run_once(broker, api_key, version, frame)
                if _errors(resp):
                    raise RuntimeError(f"{name}: {_errors(resp)} partition errors")
                runs.append(ns / 1000 / n)
            out[name] = runs
            if calls:
                frame = prepare() if prepare else frame_fn()
                out[name + ":calls"] = await _count_calls(broker, api_key, version, frame) / n

        # produce first (it also gives every partition records for the reads below)
        await _run_once(broker, 0, 9, bytearray(produce))  # the first write of each partition is not steady state
        await timed("produce", 0, 9, lambda: bytearray(produce))  # offsets are written in place
        ends = [broker.get_log(TOPIC, p).log_end_offset for p in range(n)]
        await timed("fetch_full", 1, 12, lambda: _fetch_frame(ends))
        behind = [e - 1 for e in ends]
        await timed("fetch_full_data", 1, 12, lambda: _fetch_frame(behind))
        if "fetch_incremental_idle" in workloads:
            _ns, opened = await _run_once(broker, 1, 12, _fetch_frame(ends, 0, 0))
            sid, epoch = opened.session_id, [1]

            def incremental():
                f = _fetch_frame([], sid, epoch[0], names=False)
                epoch[0] += 1
                return f
            await timed("fetch_incremental_idle", 1, 12, None, incremental)
        await timed("list_offsets", 2, 7, lambda: _list_offsets_frame(n))
        await timed("metadata", 3, 12, _metadata_frame)
        commit = _offset_commit_frame(n)
        await timed("offset_commit", 8, 8, lambda: commit)
        if "offset_fetch" in workloads and "offset_commit" not in workloads:
            await _run_once(broker, 8, 8, commit)
        await timed("offset_fetch", 9, 8, lambda: _offset_fetch_frame(n))
        return out
    finally:
        broker.close()
        gc.unfreeze()


def run(partitions: int = 5000, rounds: int = 7, workloads=WORKLOADS, parent: str | None = None,
        calls: bool = False) -> dict:
    """Measure and return {workload: [µs per partition of each round]} (and, with ``calls``,
    {workload + ":calls": function calls per partition}); the data dir is a temporary dir
    under ``parent`` (e.g. a tmpfs, so creating the topic does not wait for a disk)."""
    with tempfile.TemporaryDirectory(prefix="kwire-cost-", dir=parent) as d:
        return asyncio.run(_measure(partitions, rounds, set(workloads), os.path.join(d, "data"),
                                    calls))


def report(results: dict, partitions: int) -> str:
    load = os.getloadavg()
    lines = [f"broker CPU per partition, {partitions} partitions, in-process "
             f"(record walker: {IMPLEMENTATION}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})",
             f"{'workload':<24} {'median µs':>10} {'best µs':>9}"
             + (f" {'calls':>7}" if any(k.endswith(":calls") for k in results) else "")]
    for name in WORKLOADS:
        if name in results:
            runs = results[name]
            calls = results.get(name + ":calls")
            lines.append(f"{name:<24} {statistics.median(runs):>10.2f} {min(runs):>9.2f}"
                         + (f" {calls:>7.1f}" if calls is not None else ""))
    return "\n".join(lines)


class _Counts:
    """Counts calls of a few ``os`` functions while installed (``with``)."""

    NAMES = ("listdir", "scandir", "open", "stat", "lstat", "fsync")

    def __enter__(self):
        self.calls = dict.fromkeys(self.NAMES, 0)
        self._saved = {n: getattr(os, n) for n in self.NAMES}
        for n, fn in self._saved.items():
            setattr(os, n, self._counted(n, fn))
        return self

    def _counted(self, name, fn):
        def counted(*a, **kw):
            self.calls[name] += 1
            return fn(*a, **kw)
        return counted

    def __exit__(self, *exc) -> None:
        for n, fn in self._saved.items():
            setattr(os, n, fn)


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return -1.0


def startup(topics: int, partitions: int, parent: str | None = None) -> dict:
    """Create, write one record to each partition, close cleanly, start again: CPU, wall, calls."""
    from kwire.protocol.generated.produce_request import (PartitionProduceData, ProduceRequest,
                                                          TopicProduceData)
    out: dict = {}

    def timed(name, fn):
        c, w = time.process_time(), time.monotonic()
        result = fn()
        out[name] = (time.process_time() - c, time.monotonic() - w)
        return result

    with tempfile.TemporaryDirectory(prefix="kwire-startup-", dir=parent) as d:
        props = {"log.dirs": os.path.join(d, "data"), "listeners": "PLAINTEXT://127.0.0.1:0"}

        async def first_life():
            broker = Broker(BrokerConfig.load(None, props))
            broker.start()
            timed("create", lambda: [broker.create_topic(f"{TOPIC}{i}", partitions) for i in range(topics)])
            batch = bytes(build_batch([(None, b"x" * 100)], now_ms=int(time.time() * 1000)))
            frames = [_frame(0, 9, ProduceRequest(transactional_id=None, acks=1, timeout_ms=30000, topic_data=[
                TopicProduceData(name=f"{TOPIC}{i}", partition_data=[
                    PartitionProduceData(index=p, records=batch) for p in range(partitions)])]))
                for i in range(topics)]

            async def produce_all():
                for f in frames:
                    _ns, resp = await _run_once(broker, 0, 9, f)
                    if _errors(resp):
                        raise RuntimeError(f"produce: {_errors(resp)} partition errors")
            c, w = time.process_time(), time.monotonic()
            await produce_all()
            out["write_one_each"] = (time.process_time() - c, time.monotonic() - w)
            timed("close", broker.close)

        async def second_life():
            with _Counts() as counts:
                broker = timed("start_after_clean_close", lambda: Broker(BrokerConfig.load(None, props)))
            out["startup_calls"] = counts.calls
            out["rss_mb"] = _rss_mb()
            n = sum(1 for _ in broker.logs)
            broker.close()
            if n < topics * partitions:
                raise RuntimeError(f"only {n} of {topics * partitions} logs after the restart")

        asyncio.run(first_life())
        gc.collect()
        asyncio.run(second_life())
    return out


def startup_report(out: dict, topics: int, partitions: int) -> str:
    load = os.getloadavg()
    n = topics * partitions
    lines = [f"{topics} x {partitions} = {n} partitions, in-process (load average "
             f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f})",
             f"{'step':<26} {'CPU s':>8} {'wall s':>8} {'CPU µs/partition':>17}"]
    for name in ("create", "write_one_each", "close", "start_after_clean_close"):
        cpu, wall = out[name]
        lines.append(f"{name:<26} {cpu:>8.2f} {wall:>8.2f} {cpu / n * 1e6:>17.1f}")
    calls = out["startup_calls"]
    lines.append("start-up calls: " + ", ".join(f"{k} {v} ({v / n:.2f}/partition)"
                                                for k, v in calls.items()))
    lines.append(f"RSS after start-up: {out['rss_mb']:.0f} MB")
    return "\n".join(lines)


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m kwire.bench.partition_cost", description=__doc__.split("\n")[0])
    ap.add_argument("--partitions", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--dir", default=None, help="parent of the temporary data dir (default: the system's)")
    ap.add_argument("--startup", metavar="TOPICSxPARTITIONS", default=None,
                    help="measure create / write one record to each / close / start-up instead")
    ap.add_argument("--calls", action="store_true",
                    help="also count function calls per partition (one more request, under cProfile)")
    args = ap.parse_args(argv)
    if args.startup:
        topics, partitions = (int(x) for x in args.startup.lower().split("x"))
        print(startup_report(startup(topics, partitions, args.dir), topics, partitions))
        return 0
    results = run(args.partitions, args.rounds, [w for w in args.workloads.split(",") if w], args.dir,
                  args.calls)
    print(report(results, args.partitions))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
