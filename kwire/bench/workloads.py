"""The bench workloads, run with librdkafka through confluent-kafka.

* ``produce``: ``count`` messages of ``size`` random bytes (no key, no
  compression, the default sticky partitioner), ``linger.ms=5``,
  ``batch.size=1000000``, acks 1 or all; the clock stops when ``flush()``
  returns, i.e. when every message is acknowledged. Delivery errors are
  counted (``delivery.report.only.error``) and fail the run.
* ``consume``: ``assign()`` every partition that holds records at its
  beginning (no group protocol) with ``fetch.queue.backoff.ms=1`` and read
  ``count`` messages in batches; the clock runs from ``assign()`` to the last
  message. Partitions without records (the sticky partitioner often leaves
  one or two empty) are left out, their watermarks read before the clock
  starts: librdkafka resolves each partition's start with a ListOffsets of its
  own and sends its first Fetch as soon as any partition is ready, with one
  Fetch in flight per broker; when the partitions in that Fetch are all empty
  it rightly waits out ``fetch.wait.max.ms`` (500 ms) at the broker, Kafka's or
  kwire's, and the partitions with records wait behind it (issue 24: ~0.55 s
  runs instead of ~0.07 s, docs/performance-latency.md).
* ``latency``: a producer thread sends ``size``-byte messages at a fixed rate
  (acks=all, ``linger.ms=0``), each starting with ``time.monotonic_ns()`` at
  send; the consumer (main thread, ``poll``) subtracts it on receipt. The
  first ``warmup_s`` of messages are left out (connections, metadata).
* ``share_consume``: ``members`` confluent-kafka ``ShareConsumer`` processes
  (spawned; one new share group, ``share.auto.offset.reset=earliest``,
  implicit acknowledgement) read ``count`` records; ``group_consume``: one
  consumer of a new classic group (``subscribe``). Both time the first record
  to the last.

Every workload returns a dict of figures; ``measure`` adds the broker's CPU
seconds and RSS and this process's CPU seconds (the client's cost: librdkafka
threads included). MB/s counts message values only, 1 MB = 10^6 bytes.
"""

from __future__ import annotations

import os
import resource
import struct
import threading
import time

PRODUCER_BASE = {
    "linger.ms": 5,
    "batch.size": 1000000,
    "queue.buffering.max.messages": 2000000,
    "queue.buffering.max.kbytes": 2097151,
    "compression.type": "none",
    "enable.idempotence": False,
    "delivery.report.only.error": True,
}
STALL_S = 30.0


class BenchError(Exception):
    pass


def _client_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def measure(broker, fn, *args, **kw) -> dict:
    """Run ``fn`` and add broker CPU seconds, broker RSS (MB, after) and client CPU seconds."""
    b0, c0 = broker.cpu_seconds(), _client_cpu()
    out = fn(*args, **kw)
    b1, c1 = broker.cpu_seconds(), _client_cpu()
    out["broker_cpu_s"] = None if b0 is None or b1 is None else b1 - b0
    out["broker_rss_mb"] = broker.rss_mb()
    out["client_cpu_s"] = c1 - c0
    return out


def create_topic(ck, bootstrap: str, topic: str, partitions: int, replication_factor: int = 1) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    fut = admin.create_topics([NewTopic(topic, num_partitions=partitions,
                                        replication_factor=replication_factor)],
                              operation_timeout=30)[topic]
    fut.result(timeout=60)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # wait until every partition has a leader
        md = admin.list_topics(topic, timeout=10).topics.get(topic)
        if md and md.error is None and len(md.partitions) == partitions and \
                all(p.leader >= 0 and (replication_factor <= 1 or len(p.isrs) >= replication_factor)
                    for p in md.partitions.values()):
            return
        time.sleep(0.05)
    raise BenchError(f"topic {topic} has no leaders (or not every replica in sync) after 30 s")


def produce(ck, bootstrap: str, topic: str, size: int, count: int, acks: str) -> dict:
    errors = []

    def on_error(err, _msg):
        errors.append(err)

    conf = {**PRODUCER_BASE, "bootstrap.servers": bootstrap, "acks": acks, "on_delivery": on_error}
    p = ck.Producer(conf)
    p.list_topics(topic, timeout=30)
    payload = os.urandom(size)
    send, poll = p.produce, p.poll
    t0 = time.perf_counter()
    for i in range(count):
        while True:
            try:
                send(topic, payload)
                break
            except BufferError:
                poll(0.001)
        if not i & 0x3FFF:
            poll(0)
    left = p.flush(120)
    elapsed = time.perf_counter() - t0
    if left or errors:
        raise BenchError(f"produce to {topic}: {left} undelivered, {len(errors)} errors "
                         f"(first: {errors[0] if errors else None})")
    return {"messages": count, "seconds": elapsed, "msgs_per_s": count / elapsed,
            "mb_per_s": count * size / elapsed / 1e6}


def _consumer(ck, bootstrap: str, **extra):
    return ck.Consumer({"bootstrap.servers": bootstrap, "group.id": "kwire-bench",
                        "enable.auto.commit": False, "enable.partition.eof": False,
                        "fetch.queue.backoff.ms": 1, "auto.offset.reset": "earliest", **extra})


def readable_partitions(ck, consumer, topic: str, partitions: int) -> list:
    """The partitions of ``topic`` (0 .. ``partitions`` - 1) that hold records, each to be read
    from its beginning (``OFFSET_BEGINNING``): its low watermark is below its high one."""
    out = []
    for p in range(partitions):
        low, high = consumer.get_watermark_offsets(ck.TopicPartition(topic, p), timeout=30)
        if high > low:
            out.append(ck.TopicPartition(topic, p, ck.OFFSET_BEGINNING))
    return out


def consume(ck, bootstrap: str, topic: str, partitions: int, size: int, count: int) -> dict:
    c = _consumer(ck, bootstrap)
    try:
        c.list_topics(topic, timeout=30)
        assignment = readable_partitions(ck, c, topic, partitions)
        got = 0
        t0 = last_progress = time.perf_counter()
        c.assign(assignment)
        while got < count:
            msgs = c.consume(num_messages=min(10000, count - got), timeout=1.0)
            now = time.perf_counter()
            if msgs:
                last_progress = now
                for m in msgs:
                    if m.error() is not None:
                        raise BenchError(f"consume {topic}: {m.error()}")
                got += len(msgs)
            elif now - last_progress > STALL_S:
                raise BenchError(f"consume {topic}: stalled at {got}/{count} messages")
        elapsed = time.perf_counter() - t0
    finally:
        c.close()
    return {"messages": got, "seconds": elapsed, "msgs_per_s": got / elapsed,
            "mb_per_s": got * size / elapsed / 1e6}


def percentile(sorted_vals: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    if not sorted_vals:
        return float("nan")
    k = max(0, min(len(sorted_vals) - 1, int(round(q / 100 * len(sorted_vals) + 0.5)) - 1))
    return sorted_vals[k]


def latency(ck, bootstrap: str, topic: str, partitions: int, size: int, rate: int,
            seconds: float, warmup_s: float = 1.0) -> dict:
    """End-to-end latency: a producer thread at ``rate`` msg/s (each value starts with its
    ``time.monotonic_ns()`` at ``produce()``), a consumer taking each message's receipt time
    when ``poll()`` hands it over. Also reports the CPU of the producer thread and of the
    consumer's loop (``producer_cpu_s``, ``loop_cpu_s``): the rest of the client's CPU is
    librdkafka's own threads (docs/performance-latency.md)."""
    c = _consumer(ck, bootstrap)
    p = ck.Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 0,
                     "enable.idempotence": False})
    p.list_topics(topic, timeout=30)
    c.assign([ck.TopicPartition(topic, i, ck.OFFSET_BEGINNING) for i in range(partitions)])
    pad = os.urandom(max(size - 8, 0))
    pack = struct.Struct(">q").pack
    sent = [0]
    producer_cpu = [0.0]
    done = threading.Event()
    failure: list = []

    def producer():
        cpu0 = time.thread_time()
        try:
            interval = 1.0 / rate
            start = time.monotonic()
            i = 0
            while True:
                now = time.monotonic()
                if now - start >= seconds:
                    break
                target = start + i * interval
                if target > now:
                    time.sleep(target - now)
                p.produce(topic, pack(time.monotonic_ns()) + pad)
                p.poll(0)
                i += 1
            sent[0] = i
            if p.flush(30):
                failure.append("undelivered messages after flush")
        except Exception as e:  # reported by the main thread
            failure.append(repr(e))
        finally:
            producer_cpu[0] = time.thread_time() - cpu0
            done.set()

    t0_ns = time.monotonic_ns()
    warm_ns = t0_ns + int(warmup_s * 1e9)
    lat: list[float] = []
    received = 0
    th = threading.Thread(target=producer, name="bench-latency-producer", daemon=True)
    th.start()
    deadline = None
    loop_cpu0 = time.thread_time()
    try:
        while True:
            m = c.poll(0.05)
            if m is not None:
                now = time.monotonic_ns()
                if m.error() is not None:
                    raise BenchError(f"latency consumer: {m.error()}")
                ts = struct.unpack_from(">q", m.value())[0]
                received += 1
                if ts >= warm_ns:
                    lat.append((now - ts) / 1e6)
            if done.is_set():
                if received >= sent[0]:
                    break
                deadline = deadline or time.monotonic() + 10
                if time.monotonic() > deadline:
                    break
    finally:
        loop_cpu = time.thread_time() - loop_cpu0
        th.join(30)
        c.close()
    if failure:
        raise BenchError(f"latency producer: {failure[0]}")
    lat.sort()
    return {"messages": sent[0], "received": received, "rate": rate, "seconds": seconds,
            "producer_cpu_s": producer_cpu[0], "loop_cpu_s": loop_cpu,
            "p50_ms": percentile(lat, 50), "p95_ms": percentile(lat, 95),
            "p99_ms": percentile(lat, 99), "max_ms": lat[-1] if lat else float("nan")}


def _share_member(bootstrap: str, topic: str, group: str, got, first, stop) -> None:
    """One share consumer (a spawned process): implicit acknowledgement, counts into ``got``;
    ``first`` is the wall-clock time of the group's first record."""
    from confluent_kafka import ShareConsumer

    c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group})
    try:
        c.subscribe([topic])
        while not stop.is_set():
            msgs = c.poll(0.2)
            if msgs:
                n = sum(1 for m in msgs if m.error() is None)
                with got.get_lock():
                    if not got.value and n:
                        first.value = time.time()
                    got.value += n
    finally:
        c.close()


def share_group_config(bootstrap: str, group: str, configs: dict[str, str]) -> None:
    """Set share-group configs (IncrementalAlterConfigs on the GROUP resource, type 32)."""
    from kwire.client import KafkaClient
    from kwire.protocol.generated.incremental_alter_configs_request import (
        AlterableConfig, AlterConfigsResource, IncrementalAlterConfigsRequest)

    with KafkaClient(bootstrap) as c:
        resp = c.request(44, IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
            resource_type=32, resource_name=group,
            configs=[AlterableConfig(name=k, config_operation=0, value=v) for k, v in configs.items()])]))
    errors = [(r.error_code, r.error_message) for r in resp.responses if r.error_code]
    if errors:
        raise BenchError(f"share group configs of {group}: {errors}")


def share_consume(ck, bootstrap: str, topic: str, size: int, count: int, members: int = 4) -> dict:
    """``members`` share consumers (separate processes, one new share group reading from the
    earliest offset) until ``count`` records were delivered. The clock runs from the group's
    first record to the last: process start-up (a Python interpreter and librdkafka each) and
    joining the group are left out, as ``consume`` leaves out the connection set-up."""
    import multiprocessing
    import uuid

    group = f"kwire-bench-share-{uuid.uuid4().hex[:8]}"
    share_group_config(bootstrap, group, {"share.auto.offset.reset": "earliest"})
    ctx = multiprocessing.get_context("spawn")
    got, first, stop = ctx.Value("q", 0), ctx.Value("d", 0.0), ctx.Event()
    procs = [ctx.Process(target=_share_member, args=(bootstrap, topic, group, got, first, stop),
                         daemon=True)
             for _ in range(members)]
    last_progress = time.perf_counter()
    seen = 0
    try:
        for p in procs:
            p.start()
        while True:
            n = got.value
            now = time.perf_counter()
            if n >= count:
                elapsed = time.time() - first.value
                break
            if n > seen:
                seen, last_progress = n, now
            elif now - last_progress > STALL_S + 30:
                raise BenchError(f"share consume {topic}: stalled at {n}/{count} records")
            if not any(p.is_alive() for p in procs):
                raise BenchError(f"share consume {topic}: every share consumer exited at {n}/{count}")
            time.sleep(0.005)
    finally:
        stop.set()
        for p in procs:
            if p.pid is None:
                continue
            p.join(15)
            if p.is_alive():
                p.kill()
                p.join()
    return {"messages": got.value, "seconds": elapsed, "msgs_per_s": count / elapsed,
            "mb_per_s": count * size / elapsed / 1e6, "members": members}


def group_consume(ck, bootstrap: str, topic: str, size: int, count: int) -> dict:
    """One consumer of a new classic group (``subscribe``, earliest) until ``count`` records;
    the clock runs from the first record to the last, as in ``share_consume``."""
    import uuid

    c = _consumer(ck, bootstrap, **{"group.id": f"kwire-bench-classic-{uuid.uuid4().hex[:8]}"})
    got, t0 = 0, None
    try:
        c.subscribe([topic])
        last_progress = time.perf_counter()
        while got < count:
            msgs = c.consume(num_messages=min(10000, count - got), timeout=1.0)
            now = time.perf_counter()
            if msgs:
                t0 = t0 or now
                last_progress = now
                if any(m.error() is not None for m in msgs):
                    raise BenchError(f"group consume {topic}: {[m.error() for m in msgs if m.error()][0]}")
                got += len(msgs)
            elif now - last_progress > STALL_S:
                raise BenchError(f"group consume {topic}: stalled at {got}/{count} messages")
        elapsed = max(time.perf_counter() - t0, 1e-6)
    finally:
        c.close()
    return {"messages": got, "seconds": elapsed, "msgs_per_s": got / elapsed,
            "mb_per_s": got * size / elapsed / 1e6}
