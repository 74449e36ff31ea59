"""A broker with far more partitions than it may open files (issue 10 §4: file descriptors).

The broker runs as a subprocess with a low RLIMIT_NOFILE (soft = hard, so it
cannot raise it); its segment and index descriptors go through the bounded
file cache (kwire/log/files.py), half of the limit.

* Thousands of partitions, 256 descriptors: confluent-kafka produces to every
  partition and reads everything back by assignment; every acknowledged
  record is read, the descriptors of the process (/proc/<pid>/fd) stay under
  the limit all along, and the same holds after a restart that loads every
  partition, with a second round of appends to (long evicted) active segments.
* Descriptors pinned by queued fetch responses: one connection pipelines a
  long-poll fetch and then single-partition fetches of more partitions than
  the limit leaves room for. Their responses wait behind the long poll with
  their file regions pinned, so the cache cannot close those descriptors and
  runs out: the fetches it cannot serve answer KAFKA_STORAGE_ERROR (the
  connection stays open, the log dir online, an ERROR line names the limit),
  and every response it did build carries exactly the stored bytes, sent
  after the long poll from descriptors that stayed open (regions above
  256 KiB go out with os.sendfile).
"""

from __future__ import annotations

import os
import threading
import time

import pytest
from kafka.admin import KafkaAdminClient

from kwire.protocol import codec
from kwire.protocol.generated.api_versions_request import ApiVersionsRequest
from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
from kwire.records.builder import build_batch
from kwire.records.decode import decode_batches
from test_faults import API_VERSIONS, FETCH, NONE, Raw, pick, produce_raw

pytestmark = pytest.mark.timeout(600)

KAFKA_STORAGE_ERROR = 56
# Nothing housekeeping-driven writes files while a test exhausts the descriptors on purpose.
QUIET = {"log.flush.offset.checkpoint.interval.ms": "3600000",
         "log.flush.start.offset.checkpoint.interval.ms": "3600000",
         "log.retention.check.interval.ms": "3600000"}


def fd_count(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


class FdSampler:
    """Samples /proc/<pid>/fd every 20 ms in a thread; ``peak`` is the largest count seen."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self._stop = pid, 0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.peak = max(self.peak, fd_count(self.pid))
            except OSError:  # the process exited
                return
            self._stop.wait(0.02)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join(5)
        return self.peak


def create_topics(bootstrap: str, topics: dict[str, int]) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=300_000)
    try:
        for name, n in topics.items():  # one at a time: each creation blocks the broker a while
            admin.create_topics({name: {"num_partitions": n, "replication_factor": 1}})
    finally:
        admin.close()


def produce_all(bootstrap: str, topics: dict[str, int], tag: str, per_partition: int) -> dict:
    """``per_partition`` records to every partition; {(topic, partition, offset): value} acknowledged."""
    from confluent_kafka import Producer

    acked: dict[tuple[str, int, int], bytes] = {}
    errors: list = []

    def report(err, msg):
        if err is not None:
            errors.append(err)
        else:
            acked[(msg.topic(), msg.partition(), msg.offset())] = msg.value()

    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 20,
                  "message.timeout.ms": 300_000})
    for name, n in topics.items():
        for part in range(n):
            for i in range(per_partition):
                p.produce(name, value=f"{tag}-{name}-{part}-{i}".encode(), partition=part, on_delivery=report)
                p.poll(0)
    assert p.flush(300) == 0, "records still undelivered"
    assert not errors, errors[:5]
    assert len(acked) == per_partition * sum(topics.values())
    return acked


def read_all(bootstrap: str, topics: dict[str, int], expected: dict, timeout: float = 300) -> dict:
    """Everything in ``topics`` from offset 0, by assignment, until ``expected``'s keys are all read."""
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "fd-limits-reader",
                  "enable.auto.commit": False, "auto.offset.reset": "earliest"})
    got: dict[tuple[str, int, int], bytes] = {}
    try:
        c.assign([TopicPartition(name, p, 0) for name, n in topics.items() for p in range(n)])
        deadline = time.monotonic() + timeout
        while not expected.keys() <= got.keys():
            assert time.monotonic() < deadline, \
                f"read {len(got)} of {len(expected)} records; e.g. missing {sorted(expected.keys() - got.keys())[:3]}"
            for m in c.consume(num_messages=10_000, timeout=1.0):
                assert m.error() is None, m.error()
                got[(m.topic(), m.partition(), m.offset())] = m.value()
    finally:
        c.close()
    return got


@pytest.mark.slow
def test_thousands_of_partitions_under_256_descriptors(spawn_broker, tmp_path):
    limit = 256
    topics = {f"fd-many-{i}": 750 for i in range(4)}  # 3,000 partitions, 9,000 segment files
    data = tmp_path / "data"
    b = spawn_broker(data, overrides=QUIET, nofile=limit)
    sampler = FdSampler(b.proc.pid)
    create_topics(b.bootstrap, topics)
    acked = produce_all(b.bootstrap, topics, "a", 2)
    got = read_all(b.bootstrap, topics, acked)
    assert {k: got.get(k) for k in acked} == acked
    peak = sampler.stop()
    # half the limit for segment/index files (files.py), the rest: sockets, logs, the loop
    assert peak <= limit // 2 + 40, f"{peak} descriptors open at the peak"
    assert b.terminate() == 0, b.log_text[-3000:]
    assert "TOO MANY OPEN FILES" not in b.log_text and "Too many open files" not in b.log_text

    # restart: loading 3,000 partitions opens every segment once; then append to all of them
    b = spawn_broker(data, overrides=QUIET, nofile=limit)
    sampler = FdSampler(b.proc.pid)
    acked.update(produce_all(b.bootstrap, topics, "b", 1))
    got = read_all(b.bootstrap, topics, acked)
    assert {k: got.get(k) for k in acked} == acked
    assert {k[2] for k in acked if k[1] == 0} == {0, 1, 2}  # offsets continue after the restart
    peak = sampler.stop()
    assert peak <= limit // 2 + 40, f"{peak} descriptors open at the peak after the restart"
    assert "TOO MANY OPEN FILES" not in b.log_text and "Too many open files" not in b.log_text


def fetch_request(v: int, topic: str, partition: int, max_wait_ms: int) -> FetchRequest:
    return FetchRequest(replica_id=-1, max_wait_ms=max_wait_ms, min_bytes=1, max_bytes=1 << 20,
                        isolation_level=0, session_id=0, session_epoch=-1, topics=[FetchTopic(
                            topic=topic, partitions=[FetchPartition(
                                partition=partition, fetch_offset=0, partition_max_bytes=1 << 20)])],
                        forgotten_topics_data=[], rack_id="")


def only_partition(resp):
    (t,) = resp.responses
    (p,) = t.partitions
    return p


def test_queued_fetches_pin_descriptors_and_exhaustion_is_an_error_code(spawn_broker, tmp_path):
    limit = 64  # the cache gets 32; the rest of what the process may open goes to pins
    n = 80
    b = spawn_broker(tmp_path / "data", overrides=QUIET, nofile=limit)
    bs = b.bootstrap
    create_topics(bs, {"fd-pin": n, "fd-idle": 1})
    value = {p: bytes([65 + p % 26]) * (300 * 1024) for p in range(n)}  # > 256 KiB: sendfile
    with Raw(bs, timeout=60) as r:
        for p in range(n):
            batch = build_batch([(f"k{p}".encode(), value[p], [], None)])
            assert produce_raw(r, bs, "fd-pin", p, batch).error_code == NONE
    v = pick(bs, FETCH, 12)
    with Raw(bs, timeout=60) as r:
        plan = [("fd-idle", 0, 3000)] + [("fd-pin", p, 0) for p in range(n)]
        wire = b"".join(codec.encode_request(FETCH, v, 100 + i, "fd-limits", fetch_request(v, t, p, w))
                        for i, (t, p, w) in enumerate(plan))
        r.send(wire)
        served, refused = [], []
        for i, (t, p, _) in enumerate(plan):
            corr, resp = codec.decode_response(FETCH, v, r.read_frame())
            assert corr == 100 + i
            part = only_partition(resp)
            if t == "fd-idle":
                assert part.error_code == NONE and not part.records
            elif part.error_code == KAFKA_STORAGE_ERROR:
                refused.append(p)
            else:
                assert part.error_code == NONE, part
                (batch,) = decode_batches(bytes(part.records))
                assert [rec.value for rec in batch.records] == [value[p]]
                served.append(p)
        assert refused, "every fetch was served: the limit was never reached"
        assert len(served) >= 20, f"only {len(served)} fetches served before the limit"
        # the same connection, now with the pins gone: every refused partition is served
        resp = r.request(API_VERSIONS, 3, ApiVersionsRequest(client_software_name="fd", client_software_version="1"))
        assert resp.error_code == NONE
        for p in refused:
            part = only_partition(r.request(FETCH, v, fetch_request(v, "fd-pin", p, 0)))
            assert part.error_code == NONE, part
            (batch,) = decode_batches(bytes(part.records))
            assert [rec.value for rec in batch.records] == [value[p]]
    assert "TOO MANY OPEN FILES" in b.log_text and "RLIMIT_NOFILE soft 64" in b.log_text, b.log_text[-3000:]
    assert "OFFLINE" not in b.log_text, b.log_text[-3000:]
    assert fd_count(b.proc.pid) < limit


def test_queued_response_outlives_the_deletion_of_its_segment(spawn_broker, tmp_path):
    """A fetch response waiting behind a long poll pins its segment's descriptor: deleting the
    topic meanwhile (files unlinked, segment closed) does not change what it sends."""
    b = spawn_broker(tmp_path / "data", overrides=QUIET, nofile=128)
    bs = b.bootstrap
    create_topics(bs, {"fd-doomed": 1, "fd-idle": 1})
    value = b"z" * (400 * 1024)  # > 256 KiB: pinned and sent with os.sendfile
    with Raw(bs, timeout=60) as r:
        assert produce_raw(r, bs, "fd-doomed", 0, build_batch([(b"k", value, [], None)])).error_code == NONE
    v = pick(bs, FETCH, 12)
    with Raw(bs, timeout=60) as r:
        r.send(codec.encode_request(FETCH, v, 1, "fd-limits", fetch_request(v, "fd-idle", 0, 3000))
               + codec.encode_request(FETCH, v, 2, "fd-limits", fetch_request(v, "fd-doomed", 0, 0)))
        # a round trip on another connection, sent after both fetches reached the broker's
        # socket: once it is answered, the broker has read them (and built the second response)
        with Raw(bs) as other:
            assert other.request(API_VERSIONS, 3, ApiVersionsRequest(
                client_software_name="fd", client_software_version="1")).error_code == NONE
        admin = KafkaAdminClient(bootstrap_servers=bs, request_timeout_ms=60_000)
        try:
            admin.delete_topics(["fd-doomed"])
        finally:
            admin.close()
        assert not (tmp_path / "data" / "fd-doomed-0").exists()
        corr, resp = codec.decode_response(FETCH, v, r.read_frame())
        assert corr == 1 and only_partition(resp).error_code == NONE
        corr, resp = codec.decode_response(FETCH, v, r.read_frame())
        part = only_partition(resp)
        assert corr == 2 and part.error_code == NONE, part
        (batch,) = decode_batches(bytes(part.records))
        assert [rec.value for rec in batch.records] == [value]
    assert "Traceback" not in b.log_text, b.log_text[-3000:]
