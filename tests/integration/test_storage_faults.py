"""Storage faults under real clients: a failed write is undone, or its log dir goes offline.

* Each write site of an append (``kwire.log.faults``: the .log write, an
  offset-index or time-index entry, the producer snapshot and the new segment
  of a roll, the leader-epoch checkpoint) x ENOSPC / EACCES, injected in an
  in-process broker for one write: a kafka-python producer (retries=0)
  sending one record to each of two partitions in one Produce request gets
  KAFKA_STORAGE_ERROR for exactly one of them and its offset for the other;
  the same producer and connection keep working once the fault is gone; a
  consumer reads exactly the acknowledged records at offsets 0..n-1.
* A confluent-kafka idempotent producer whose sends fail twice each at
  various sites: librdkafka retries, every record is stored once, in order.
* The reproduced bug, for real, on a 20 MB tmpfs (``mount -t tmpfs``; the test
  is skipped where mounting is not allowed): batch A, disk filled, batch B
  whose log write fits in A's last page while its index entry needs a new page.
  B is refused with KAFKA_STORAGE_ERROR; an idempotent producer's B2 keeps
  being retried until space is freed and is then stored once at offset 1.
  Then SIGTERM (the shutdown is not certified clean: the dir saw I/O errors),
  restart, another produce, kill -9, restart: every acknowledged record is
  read back exactly once at its acknowledged offset.
* An undo that fails (injected: the index write and then the truncation)
  takes the log dir offline: Produce (kafka-python), Fetch, ListOffsets and
  OffsetForLeaderEpoch (kwire's own client, to see the codes) answer
  KAFKA_STORAGE_ERROR there —
  except Fetch v4-5, which predate that code and get NOT_LEADER_OR_FOLLOWER,
  as from Kafka (every Fetch and ListOffsets version is sent); Metadata lists the partition with that error and
  the broker in ``offline_replicas``; DescribeLogDirs reports the dir with it;
  ApiVersions and the partitions of the other log dir keep working. With a
  ``python -m kwire serve`` subprocess (faults armed through
  ``KWIRE_FAULTS_FILE``) a single offline dir keeps the broker up; SIGTERM
  writes no clean-shutdown marker there, and the restart recovers it with every
  acknowledged record.
"""

from __future__ import annotations

import errno
import os
import subprocess
import time

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic
from kafka.errors import KafkaStorageError

from clients import wait_until
from kwire.log import faults

pytestmark = pytest.mark.timeout(240)

STORAGE_ERROR = 56
SITES = {  # topic configs under which the second append to a partition reaches the site
    "log": {},
    "offset_index": {"index.interval.bytes": "0"},
    "time_index": {"index.interval.bytes": "0"},
    # one index entry fills the index, so the third append rolls
    "segment_create": {"index.interval.bytes": "0", "segment.index.bytes": "12"},
    "producer_snapshot": {"index.interval.bytes": "0", "segment.index.bytes": "12"},
}
# Not "leader_epoch": the epoch checkpoint is written by the log's flush now, not by the append
# (the first batch of an epoch changes memory only); a failed checkpoint write at flush takes
# the log dir offline, as Kafka's flush failures do (tests/unit/test_log_faults.py,
# test_failed_epoch_checkpoint_at_flush_takes_the_dir_offline).


@pytest.fixture(autouse=True)
def _disarm():
    yield
    faults.disarm()


# -- client helpers ----------------------------------------------------------------------

def create_topic(bootstrap: str, name: str, partitions: int = 1, configs: dict | None = None):
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10_000)
    try:
        admin.create_topics([NewTopic(name, partitions, 1, topic_configs=configs or {})])
    finally:
        admin.close()


def plain_producer(bootstrap: str, **kw) -> KafkaProducer:
    """acks=all, no retries: a storage error reaches the caller as KafkaStorageError."""
    cfg = dict(bootstrap_servers=bootstrap, acks="all", retries=0, enable_idempotence=False,
               linger_ms=0, request_timeout_ms=10_000, max_block_ms=10_000)
    cfg.update(kw)
    return KafkaProducer(**cfg)


def send(producer, topic: str, value: bytes, partition: int = 0) -> int:
    return producer.send(topic, value=value, partition=partition).get(timeout=30).offset


def read_all(bootstrap: str, topic: str, partition: int = 0, timeout: float = 30):
    """[(offset, value)] of the partition from the start to its end offset."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False,
                             request_timeout_ms=15_000, fetch_max_wait_ms=100)
    try:
        tp = TopicPartition(topic, partition)
        consumer.assign([tp])
        end = consumer.end_offsets([tp])[tp]
        consumer.seek_to_beginning(tp)
        out = []
        deadline = time.monotonic() + timeout
        while consumer.position(tp) < end:
            assert time.monotonic() < deadline, f"stuck at {consumer.position(tp)} of {end}"
            for msgs in consumer.poll(timeout_ms=300).values():
                out += [(m.offset, m.value) for m in msgs]
        return out
    finally:
        consumer.close()


def partition_meta(bootstrap: str, topic: str) -> list[dict]:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10_000)
    try:
        (t,) = admin.describe_topics([topic])
        return sorted(t["partitions"], key=lambda p: p["partition_index"])
    finally:
        admin.close()


def log_dir_errors(bootstrap: str) -> dict[str, int]:
    """{log dir: error code} from DescribeLogDirs."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10_000)
    try:
        (resp,) = admin.describe_log_dirs()
    finally:
        admin.close()
    results = resp["log_dirs"] if isinstance(resp, dict) else resp.to_object()["log_dirs"]
    return {r["log_dir"]: r["error_code"] for r in results}


def fetch_and_list_offsets_errors(bootstrap: str, topic: str, end: int) -> set[int]:
    """Error codes of Fetch from 0 and from ``end`` (caught up) and of ListOffsets latest."""
    from kwire.client import KafkaClient, KafkaClientError

    codes = set()
    with KafkaClient(bootstrap, timeout=10) as c:
        for op in (lambda: c.fetch(topic, 0, 0, max_wait_ms=50),
                   lambda: c.fetch(topic, 0, end, max_wait_ms=50),
                   lambda: c.list_offsets(topic, 0, -1)):
            try:
                op()
                codes.add(0)
            except KafkaClientError as e:
                codes.add(e.code)
    return codes


NOT_LEADER_OR_FOLLOWER = 6


def partition_errors_by_version(bootstrap: str, topic: str) -> dict[tuple[str, int], int]:
    """{("fetch" | "list_offsets" | "offset_for_leader_epoch", version): partition error code}
    for partition 0, every version kwire serves, each request built and sent at that version."""
    from kwire.client import KafkaClient
    from kwire.handlers import fetch, list_offsets, offset_for_leader_epoch
    from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
    from kwire.protocol.generated.list_offsets_request import (
        ListOffsetsPartition,
        ListOffsetsRequest,
        ListOffsetsTopic,
    )
    from kwire.protocol.generated.offset_for_leader_epoch_request import (
        OffsetForLeaderEpochRequest,
        OffsetForLeaderPartition,
        OffsetForLeaderTopic,
    )

    out = {}
    with KafkaClient(bootstrap, timeout=10) as c:
        topic_id = c.metadata([topic]).topics[topic].topic_id
        for v in range(fetch.MIN_VERSION, fetch.MAX_VERSION + 1):
            ft = FetchTopic(topic=topic, topic_id=topic_id,
                            partitions=[FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 16)])
            req = FetchRequest(replica_id=-1, max_wait_ms=50, min_bytes=1, max_bytes=1 << 16,
                               isolation_level=0, session_id=0, session_epoch=-1, topics=[ft],
                               forgotten_topics_data=[])
            resp = c.request(fetch.API_KEY, req, version=v, wait_s=1)
            out[("fetch", v)] = resp.responses[0].partitions[0].error_code
        for v in range(list_offsets.MIN_VERSION, list_offsets.MAX_VERSION + 1):
            req = ListOffsetsRequest(replica_id=-1, isolation_level=0, timeout_ms=10_000, topics=[
                ListOffsetsTopic(name=topic, partitions=[ListOffsetsPartition(partition_index=0, timestamp=-1)])])
            resp = c.request(list_offsets.API_KEY, req, version=v)
            out[("list_offsets", v)] = resp.topics[0].partitions[0].error_code
        for v in range(offset_for_leader_epoch.MIN_VERSION, offset_for_leader_epoch.MAX_VERSION + 1):
            req = OffsetForLeaderEpochRequest(replica_id=-1, topics=[OffsetForLeaderTopic(
                topic=topic, partitions=[OffsetForLeaderPartition(partition=0, leader_epoch=0)])])
            resp = c.request(offset_for_leader_epoch.API_KEY, req, version=v)
            out[("offset_for_leader_epoch", v)] = resp.topics[0].partitions[0].error_code
    return out


# -- each write site ---------------------------------------------------------------------

@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES], ids=errno.errorcode.get)
@pytest.mark.parametrize("site", list(SITES))
def test_write_fault_is_a_storage_error_for_one_partition_only(make_broker, topic_name, site, code):
    b = make_broker()
    create_topic(b.bootstrap, topic_name, 2, SITES[site])
    acked: dict[int, list] = {0: [], 1: []}
    p = plain_producer(b.bootstrap, linger_ms=200)  # both records in one Produce request
    try:
        pre = {"log": 1, "offset_index": 1, "time_index": 1, "segment_create": 2,
               "producer_snapshot": 2}[site]
        for i in range(pre):
            for part in (0, 1):
                v = b"pre-%d-%d" % (part, i)
                acked[part].append((send(p, topic_name, v, part), v))
        faults.arm(site, code, count=1)
        futures = {part: p.send(topic_name, value=b"x-%d" % part, partition=part) for part in (0, 1)}
        outcomes = {}
        for part, f in futures.items():
            try:
                outcomes[part] = f.get(timeout=30).offset
            except KafkaStorageError:
                outcomes[part] = "storage error"
        assert sorted(map(str, outcomes.values())).count("storage error") == 1, outcomes
        for part, o in outcomes.items():
            if o != "storage error":
                acked[part].append((o, b"x-%d" % part))
        faults.disarm()
        for i in range(5):  # the same producer (and connection) carries on
            for part in (0, 1):
                v = b"post-%d-%d" % (part, i)
                acked[part].append((send(p, topic_name, v, part), v))
    finally:
        p.close(timeout=10)
    for part in (0, 1):
        got = read_all(b.bootstrap, topic_name, part)
        assert got == acked[part]
        assert [o for o, _ in got] == list(range(len(got)))


def test_confluent_idempotent_producer_retries_through_faults_without_duplicates(make_broker,
                                                                                 topic_name):
    """librdkafka retries KAFKA_STORAGE_ERROR; every undone write leaves no trace, so each
    record is stored exactly once, in order, whichever writes failed on the way."""
    from confluent_kafka import Producer

    b = make_broker()
    create_topic(b.bootstrap, topic_name, 1, {"index.interval.bytes": "0"})
    p = Producer({"bootstrap.servers": b.bootstrap, "enable.idempotence": True, "linger.ms": 0,
                  "retry.backoff.ms": 20, "message.timeout.ms": 60_000})
    delivered, errors = [], []

    def on_delivery(err, msg):
        (errors if err else delivered).append(err or (msg.offset(), msg.value()))

    p.produce(topic_name, b"first", partition=0, on_delivery=on_delivery)
    assert p.flush(30) == 0
    for i, site in enumerate(["offset_index", "log", "offset_index", "log", "offset_index"]):
        faults.arm(site, errno.ENOSPC, count=2)  # the first send and one retry fail
        p.produce(topic_name, b"v%d" % i, partition=0, on_delivery=on_delivery)
        assert p.flush(30) == 0
        assert faults._armed[site][1] == 0  # both failures happened
    faults.disarm()
    assert errors == []
    assert read_all(b.bootstrap, topic_name) == sorted(delivered)
    assert [o for o, _ in sorted(delivered)] == list(range(6))


# -- the reproduction on a full tmpfs ----------------------------------------------------

@pytest.fixture
def small_tmpfs(tmp_path):
    mnt = tmp_path / "tmpfs"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", str(mnt)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def fill(path) -> None:
    """Write ``path`` until the file system is full, down to single pages."""
    with open(path, "wb", buffering=0) as f:
        for chunk in (1 << 20, 4096, 512):
            try:
                while True:
                    f.write(b"\0" * chunk)
            except OSError as e:
                assert e.errno == errno.ENOSPC, e


def test_full_tmpfs_index_write_fails_then_restarts_lose_nothing(spawn_broker, small_tmpfs, topic_name):
    data = small_tmpfs / "data"
    overrides = {"log.flush.offset.checkpoint.interval.ms": "3600000"}  # no checkpoint while full
    b = spawn_broker(data, overrides)
    create_topic(b.bootstrap, topic_name, 1, {"index.interval.bytes": "0"})
    acked = []
    p = plain_producer(b.bootstrap)
    idem = KafkaProducer(bootstrap_servers=b.bootstrap, acks="all", linger_ms=0,
                         request_timeout_ms=5_000, retry_backoff_ms=100, delivery_timeout_ms=120_000)
    try:
        acked.append((send(p, topic_name, b"A"), b"A"))
        assert acked == [(0, b"A")]
        filler = small_tmpfs / "filler"
        fill(filler)
        # B: A's page has room for it, the empty offset index has no page to put an entry in
        with pytest.raises(KafkaStorageError):
            send(p, topic_name, b"B")
        # the response can overtake the broker's log line on its way through the pipe
        wait_until(lambda: "failed and was undone" in b.log_text, 30)
        (line,) = [ln for ln in b.log_lines if "failed and was undone" in ln]
        assert "No space left on device" in line and ".index" in line, line  # the index write
        undone = b.log_text.count("failed and was undone")
        # B2 from an idempotent producer: retried while the disk stays full
        f2 = idem.send(topic_name, value=b"B2", partition=0)
        wait_until(lambda: b.log_text.count("failed and was undone") >= undone + 2, 60)
        assert not f2.is_done
        os.unlink(filler)
        acked.append((f2.get(timeout=60).offset, b"B2"))
        acked.append((send(p, topic_name, b"C"), b"C"))
        assert [o for o, _ in acked] == [0, 1, 2]  # no duplicate offsets, no hole
        assert "does not follow" not in b.log_text
    finally:
        idem.close(timeout=10)
        p.close(timeout=10)
    assert read_all(b.bootstrap, topic_name) == acked
    assert b.terminate() == 0
    assert "not marking" in b.log_text  # the dir saw I/O errors: not certified clean

    b = spawn_broker(data, overrides)
    assert "unclean shutdown" in b.log_text
    assert read_all(b.bootstrap, topic_name) == acked
    p = plain_producer(b.bootstrap)
    try:
        acked.append((send(p, topic_name, b"D"), b"D"))
    finally:
        p.close(timeout=10)
    assert acked[-1][0] == 3
    b.kill()

    b = spawn_broker(data, overrides)
    got = read_all(b.bootstrap, topic_name)
    assert got == acked, f"acknowledged {len(acked)}, read {len(got)}"
    b.terminate()


# -- log dir offline ---------------------------------------------------------------------

def test_failed_undo_takes_one_log_dir_offline_and_the_other_keeps_serving(make_broker, tmp_path,
                                                                            topic_name):
    d1, d2 = tmp_path / "d1", tmp_path / "d2"
    b = make_broker(tmp_path / "unused", overrides={"log.dirs": f"{d1},{d2}"})
    ta, tb = topic_name + "-a", topic_name + "-b"
    create_topic(b.bootstrap, ta, 1, {"index.interval.bytes": "0"})
    create_topic(b.bootstrap, tb, 1)
    logs = b.server.broker.logs
    dir_a = logs.log_dir_of(ta, 0)
    assert dir_a != logs.log_dir_of(tb, 0)
    p = plain_producer(b.bootstrap)
    try:
        acked_a = [(send(p, ta, b"a0"), b"a0")]
        acked_b = [(send(p, tb, b"b0"), b"b0")]
        faults.arm("offset_index", errno.ENOSPC)
        faults.arm("truncate", errno.EIO)
        with pytest.raises(KafkaStorageError):
            send(p, ta, b"a1")
        faults.disarm()
        assert dir_a in logs.offline_dirs
        with pytest.raises(KafkaStorageError):  # stays offline: no retry can succeed
            send(p, ta, b"a2")
        acked_b.append((send(p, tb, b"b1"), b"b1"))  # the other dir: same connection
    finally:
        p.close(timeout=10)
    (pa,) = partition_meta(b.bootstrap, ta)
    assert pa["error_code"] == STORAGE_ERROR and pa["offline_replicas"] == [b.server.broker.node_id]
    (pb,) = partition_meta(b.bootstrap, tb)
    assert pb["error_code"] == 0 and pb["offline_replicas"] == []
    errors = log_dir_errors(b.bootstrap)
    assert errors[dir_a] == STORAGE_ERROR and errors[logs.log_dir_of(tb, 0)] == 0
    assert fetch_and_list_offsets_errors(b.bootstrap, ta, len(acked_a)) == {STORAGE_ERROR}
    assert fetch_and_list_offsets_errors(b.bootstrap, tb, len(acked_b)) == {0}
    # Fetch v4-5 predate KAFKA_STORAGE_ERROR (KIP-112): Kafka answers them NOT_LEADER_OR_FOLLOWER;
    # ListOffsets gets KAFKA_STORAGE_ERROR at every version, as from Kafka
    by_version = partition_errors_by_version(b.bootstrap, ta)
    assert {k: v for k, v in by_version.items() if k[0] == "fetch"} == {
        ("fetch", v): NOT_LEADER_OR_FOLLOWER if v <= 5 else STORAGE_ERROR for v in range(4, 19)}
    assert {v for k, v in by_version.items() if k[0] == "list_offsets"} == {STORAGE_ERROR}
    assert {v for k, v in by_version.items() if k[0] == "offset_for_leader_epoch"} == {STORAGE_ERROR}
    assert set(partition_errors_by_version(b.bootstrap, tb).values()) == {0}
    assert read_all(b.bootstrap, tb) == acked_b
    b.stop()
    assert not os.path.exists(os.path.join(dir_a, ".kwire_cleanshutdown"))
    assert os.path.exists(os.path.join(logs.log_dir_of(tb, 0), ".kwire_cleanshutdown"))

    b = make_broker(tmp_path / "unused", overrides={"log.dirs": f"{d1},{d2}"})
    got = read_all(b.bootstrap, ta)
    assert got[:1] == acked_a and got in (acked_a, acked_a + [(1, b"a1")])  # a1 may survive
    assert read_all(b.bootstrap, tb) == acked_b


def test_single_offline_dir_keeps_the_broker_up_across_restarts(spawn_broker, tmp_path, topic_name,
                                                                faults_file):
    arm = faults_file
    data = tmp_path / "data"
    b = spawn_broker(data)
    create_topic(b.bootstrap, topic_name, 1, {"index.interval.bytes": "0"})
    p = plain_producer(b.bootstrap)
    acked = []
    try:
        for i in range(5):
            acked.append((send(p, topic_name, b"v%d" % i), b"v%d" % i))
        arm("offset_index=ENOSPC truncate=EIO")
        with pytest.raises(KafkaStorageError):
            send(p, topic_name, b"failed")
        arm("")
        with pytest.raises(KafkaStorageError):
            send(p, topic_name, b"failed-too")
    finally:
        p.close(timeout=10)
    wait_until(lambda: "LOG DIR OFFLINE" in b.log_text, 30)
    (pm,) = partition_meta(b.bootstrap, topic_name)  # Metadata still answers (and ApiVersions)
    assert pm["error_code"] == STORAGE_ERROR and pm["offline_replicas"]
    assert set(log_dir_errors(b.bootstrap).values()) == {STORAGE_ERROR}
    assert fetch_and_list_offsets_errors(b.bootstrap, topic_name, len(acked)) == {STORAGE_ERROR}
    assert b.proc.poll() is None
    assert b.terminate() == 0
    assert not (data / ".kwire_cleanshutdown").exists()

    b = spawn_broker(data)  # recovered: everything acknowledged, the failed one at most once
    got = read_all(b.bootstrap, topic_name)
    assert got[:5] == acked and got[5:] in ([], [(5, b"failed")])
    p = plain_producer(b.bootstrap)
    try:
        acked = got + [(send(p, topic_name, b"after"), b"after")]
    finally:
        p.close(timeout=10)
    assert acked[-1][0] == len(got)
    b.kill()
    b = spawn_broker(data)
    assert read_all(b.bootstrap, topic_name) == acked
    b.terminate()
