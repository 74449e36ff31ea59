"""The cluster metadata store: append-only log + snapshots, group commits, faults.

* kill -9 while a client creates topics, plus a torn record at the log's end:
  after the restart every acknowledged topic exists, the torn tail is dropped,
  and no topic is half there (every topic has its logs, every partition dir
  has its topic);
* snapshots: compaction when the log grows, load = snapshot + replay;
* one event-loop turn of changes is one write (group commit);
* upgrade: a data dir with the old ``kwire-metadata.json`` is migrated;
* faults at the metadata write (``kwire.log.faults`` site ``metadata``),
  ENOSPC and EMFILE while a topic's logs are created, and a FindCoordinator
  whose ``__consumer_offsets`` cannot be created: answered with error codes
  and messages on a connection that stays open, nothing half-created.

Brokers run as subprocesses (``spawn_broker``) where a kill, an fd limit or a
fault file is involved; faults are armed through ``KWIRE_FAULTS_FILE``.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import json
import os
import resource
import threading
import uuid
import weakref

import pytest
from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient, ConfigResource, NewTopic

import clients
from clients import wait_until
from kwire.cluster.metadata import LocalMetadata
from kwire.cluster.metadata_log import DIR_NAME, encode_record
from kwire.log import faults
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated import (
    create_topics_request as ct,
    delete_topics_request as dt,
    find_coordinator_request as fc,
    init_producer_id_request as ip,
    metadata_request as mr,
)


class Wire(clients.Wire):
    """One connection, requests in turn: a closed connection fails the test."""

    def __init__(self, bootstrap: str) -> None:
        super().__init__(bootstrap, client_id="store-test", timeout=30)

    # -- the requests used here --------------------------------------------------------
    def create(self, *specs: tuple[str, int]):
        req = ct.CreateTopicsRequest(topics=[ct.CreatableTopic(name=n, num_partitions=p, replication_factor=1)
                                             for n, p in specs], timeout_ms=30000)
        return {t.name: t for t in self(19, 7, req).topics}

    def delete(self, *names: str):
        req = dt.DeleteTopicsRequest(topics=[dt.DeleteTopicState(name=n) for n in names], timeout_ms=30000)
        return {t.name: t for t in self(20, 6, req).responses}

    def topics(self) -> dict[str, int]:
        resp = self(3, 12, mr.MetadataRequest(topics=None, allow_auto_topic_creation=False))
        return {t.name: len(t.partitions) for t in resp.topics if t.error_code == 0}

    def find_coordinator(self, version: int, group: str):
        if version >= 4:
            resp = self(10, version, fc.FindCoordinatorRequest(key_type=0, coordinator_keys=[group]))
            c = resp.coordinators[0]
            return c.error_code, c.error_message
        resp = self(10, version, fc.FindCoordinatorRequest(key=group, key_type=0))
        return resp.error_code, resp.error_message


def partition_dirs(data_dir, prefix: str) -> set[str]:
    """Topic names that have a partition dir (not one being deleted) in ``data_dir``."""
    out = set()
    for name in os.listdir(data_dir):
        if name.startswith(prefix) and not name.endswith("-delete"):
            out.add(name.rsplit("-", 1)[0])
    return out


def metadata_files(data_dir) -> list[str]:
    return sorted(os.listdir(os.path.join(data_dir, DIR_NAME)))


def arm(path, spec: str) -> None:
    """Rewrite the fault file (the broker re-reads it when its size or mtime changes)."""
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        f.write(spec)
    os.replace(tmp, path)


@pytest.fixture
def fault_file(tmp_path, monkeypatch):
    """The fault file of every broker this test spawns (empty: no faults until ``arm``)."""
    path = tmp_path / "faults"
    monkeypatch.setenv("KWIRE_FAULTS_FILE", str(path))
    return path


def restart(spawn_broker, data, b, wire: Wire):
    """Close ``wire``, check no connection was closed on a client, stop ``b`` cleanly and
    start a broker again on ``data``: a ``Wire`` to the new one."""
    wire.close()
    assert "closing connection" not in b.log_text
    b.terminate()
    return Wire(spawn_broker(data).bootstrap)


# -- crash safety --------------------------------------------------------------------------
def test_kill9_during_creates_keeps_acknowledged_topics_and_drops_torn_tail(spawn_broker, tmp_path):
    data = tmp_path / "data"
    b = spawn_broker(data)
    acked: list[str] = []
    stop = threading.Event()

    def creator():
        admin = AdminClient({"bootstrap.servers": b.bootstrap})
        for i in range(0, 20000, 25):
            if stop.is_set():
                return
            fs = admin.create_topics([NewTopic(f"k9-{j:05d}", 2, 1) for j in range(i, i + 25)],
                                     request_timeout=5, operation_timeout=5)
            for name, f in fs.items():
                try:
                    f.result(10)
                    acked.append(name)
                except Exception:  # the broker was killed under it
                    pass

    th = threading.Thread(target=creator, daemon=True)
    th.start()
    wait_until(lambda: len(acked) >= 300, timeout=60)
    b.kill()
    stop.set()
    th.join(30)
    assert acked
    # a torn write at the end of the newest metadata log: a record cut short
    newest = [f for f in metadata_files(data) if f.endswith(".log")][-1]
    torn = encode_record({"type": "topic", "name": "torn-topic", "id": str(uuid.uuid4()),
                          "partitions": 1, "configs": {}})
    with open(os.path.join(data, DIR_NAME, newest), "ab") as f:
        f.write(torn[:-7])

    b2 = spawn_broker(data)
    wire = Wire(b2.bootstrap)
    topics = {n for n in wire.topics() if n.startswith("k9-")}
    assert set(acked) <= topics, sorted(set(acked) - topics)[:5]
    assert "torn-topic" not in wire.topics()
    assert "dropping" in b2.log_text and "torn" in b2.log_text
    # none half-created: topics and partition dirs match exactly, two partitions each
    assert partition_dirs(data, "k9-") == topics
    for name in list(topics)[:5]:
        assert os.path.isdir(data / f"{name}-0") and os.path.isdir(data / f"{name}-1")
    # and the store goes on from there: a new topic, a third start, still all there
    assert wire.create(("after-crash", 1))["after-crash"].error_code == 0
    wire.close()
    b2.terminate()
    b3 = spawn_broker(data)
    wire = Wire(b3.bootstrap)
    got = wire.topics()
    assert topics | {"after-crash"} <= set(got)
    wire.close()


# -- snapshots, replay, group commits -------------------------------------------------------
def test_snapshot_compaction_then_load_is_snapshot_plus_replay(tmp_path):
    data = str(tmp_path / "data")
    appends: list[int] = []

    async def scenario():
        md = LocalMetadata(data, 1, "localhost", 9092, snapshot_bytes=4096)
        real_append = md.store.append

        def counting_append(records):
            appends.append(len(records))
            return real_append(records)

        md.store.append = counting_append
        # one event-loop turn: 100 creates, one write
        for i in range(100):
            md.create_topic(f"snap-{i:03d}", 2, {"retention.ms": str(1000 + i)})
        await md.durable()
        assert appends == [100]
        for i in range(100, 300):
            md.create_topic(f"snap-{i:03d}", 1, {})
            if i % 7 == 0:
                await md.durable()
        await md.durable()
        assert len(appends) < 40  # grouped, not one write per change
        md.delete_topic("snap-002")
        md.add_partitions("snap-003", 5)
        md.set_topic_configs("snap-004", {"cleanup.policy": "compact"})
        md.set_dynamic_broker_configs({"log.retention.ms": "5000"}, {"num.io.threads": "4"})
        pid = md.allocate_producer_id()
        await md.durable()
        state = {n: (str(t.topic_id), len(t.partitions), dict(t.configs)) for n, t in md.topics.items()}
        md.close()
        return state, pid

    state, pid = asyncio.run(scenario())
    files = metadata_files(data)
    snaps = [f for f in files if f.endswith(".checkpoint")]
    logs = [f for f in files if f.endswith(".log")]
    assert len(snaps) == 1 and int(snaps[0].split(".")[0]) > 0, files  # compacted, old ones removed
    assert all(int(f.split(".")[0]) >= int(snaps[0].split(".")[0]) for f in logs), files

    md = LocalMetadata(data, 1, "localhost", 9092, snapshot_bytes=4096)
    try:
        assert md.store.snapshot_offset < md.store.next_offset  # records replayed after the snapshot
        got = {n: (str(t.topic_id), len(t.partitions), dict(t.configs)) for n, t in md.topics.items()}
        assert got == state
        assert "snap-002" not in got and got["snap-003"][1] == 5
        assert got["snap-004"][2] == {"cleanup.policy": "compact"}
        assert md.dynamic_broker_configs == {"log.retention.ms": "5000"}
        assert md.dynamic_default_broker_configs == {"num.io.threads": "4"}
        assert md.allocate_producer_id() > pid  # a restart never hands out an id twice
    finally:
        md.close()


def test_deleted_topic_is_freed_without_the_cycle_collector(tmp_path):
    """Once a deletion is durable nothing keeps the topic's metadata alive, not even a reference
    cycle: the server freezes long-lived objects (kwire.server.app), and a cycle of frozen
    objects is never collected."""

    async def scenario():
        md = LocalMetadata(str(tmp_path / "data"), 1, "localhost", 9092)
        try:
            md.create_topic("gone", 3, {})
            await md.durable()
            ref = weakref.ref(md.delete_topic("gone", on_commit=lambda: None))
            await md.durable()
            return ref
        finally:
            # joins the writer thread: until its worker loop drops the finished work item, that
            # item's future (and the done callback naming the group) is alive, a race under load
            md.close()

    gc.collect()
    gc.disable()
    try:
        assert asyncio.run(scenario())() is None
    finally:
        gc.enable()


def snapshot_offsets(data_dir) -> list[int]:
    return [int(f.split(".")[0]) for f in metadata_files(data_dir) if f.endswith(".checkpoint")]


def test_broker_compacts_by_size_and_by_time_and_restarts_from_snapshot(spawn_broker, tmp_path):
    data = tmp_path / "data"
    b = spawn_broker(data, overrides={"metadata.log.max.record.bytes.between.snapshots": "4096",
                                      "metadata.log.max.snapshot.interval.ms": "300"})
    wire = Wire(b.bootstrap)
    for i in range(0, 120, 30):  # ~100 bytes a record: several size-triggered snapshots
        got = wire.create(*[(f"compact-{j:03d}", 1) for j in range(i, i + 30)])
        assert all(r.error_code == 0 for r in got.values())
    wait_until(lambda: snapshot_offsets(data) and snapshot_offsets(data)[-1] > 0)
    assert len(snapshot_offsets(data)) == 1  # older snapshots and logs are removed
    # one more change; the time-based snapshot takes it in within the interval
    before = snapshot_offsets(data)[-1]
    assert wire.delete("compact-000")["compact-000"].error_code == 0
    wait_until(lambda: snapshot_offsets(data)[-1] > before)
    wire.close()
    b.kill()  # no clean shutdown: the snapshot and the log after it are all there is
    b2 = spawn_broker(data)
    wire = Wire(b2.bootstrap)
    got = {n: p for n, p in wire.topics().items() if n.startswith("compact-")}
    assert set(got) == {f"compact-{j:03d}" for j in range(1, 120)}
    wire.close()


# -- upgrade ------------------------------------------------------------------------------------
def test_old_metadata_file_is_migrated(spawn_broker, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    tid = uuid.uuid4()
    old = {
        "version": 1, "cluster_id": "OldClusterIdAAAAAAAAAA", "next_producer_id": 4242,
        "dynamic_broker_configs": {}, "dynamic_default_broker_configs": {},
        "topics": [{"name": "legacy", "topic_id": str(tid), "configs": {"retention.ms": "123456"},
                    "partitions": [{"partition": 0, "leader_epoch": 3}, {"partition": 1, "leader_epoch": 0}]}],
    }
    (data / "kwire-metadata.json").write_text(json.dumps(old))
    b = spawn_broker(data)
    admin = AdminClient({"bootstrap.servers": b.bootstrap})
    md = admin.list_topics(timeout=30)
    assert md.cluster_id == "OldClusterIdAAAAAAAAAA"
    assert len(md.topics["legacy"].partitions) == 2
    res = admin.describe_configs([ConfigResource("topic", "legacy")])
    configs = list(res.values())[0].result(30)
    assert configs["retention.ms"].value == "123456"
    wire = Wire(b.bootstrap)
    r = wire(22, 4, ip.InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=60000))
    assert r.error_code == 0 and r.producer_id >= 4242
    assert wire.create(("new-after-upgrade", 1))["new-after-upgrade"].error_code == 0
    wire.close()
    assert not (data / "kwire-metadata.json").exists()
    assert (data / "kwire-metadata.json.migrated").exists()
    b.terminate()
    md = LocalMetadata(str(data), 1, "localhost", 9092)
    try:
        t = md.topic("legacy")
        assert t.topic_id == tid and [p.leader_epoch for p in t.partitions] == [3, 0]
        assert md.topic("new-after-upgrade") is not None and md.cluster_id == "OldClusterIdAAAAAAAAAA"
    finally:
        md.close()


# -- faults --------------------------------------------------------------------------------------
@pytest.mark.parametrize("err", ["ENOSPC", "EACCES"])
def test_metadata_write_fault_is_an_error_answer_and_undone(spawn_broker, tmp_path, fault_file, err):
    data = tmp_path / "data"
    b = spawn_broker(data)
    wire = Wire(b.bootstrap)
    assert wire.create(("kept", 2))["kept"].error_code == 0

    arm(fault_file, f"metadata={err}")
    text = os.strerror(getattr(errno, err))
    got = wire.create(("refused-a", 3), ("refused-b", 1))
    for name in ("refused-a", "refused-b"):
        assert got[name].error_code == E.KAFKA_STORAGE_ERROR, got[name]
        assert text in got[name].error_message
    d = wire.delete("kept")["kept"]
    assert d.error_code == E.KAFKA_STORAGE_ERROR and text in d.error_message
    # the same connection answers; nothing of the refused changes is visible or on disk
    topics = wire.topics()
    assert "refused-a" not in topics and "refused-b" not in topics and topics.get("kept") == 2
    assert partition_dirs(data, "refused-") == set()
    assert partition_dirs(data, "kept") == {"kept"}

    arm(fault_file, "")
    assert wire.create(("refused-a", 3))["refused-a"].error_code == 0
    assert wire.topics().get("refused-a") == 3
    wire = restart(spawn_broker, data, b, wire)
    topics = wire.topics()
    assert topics.get("kept") == 2 and topics.get("refused-a") == 3 and "refused-b" not in topics
    wire.close()


def test_enospc_creating_logs_creates_nothing(spawn_broker, tmp_path, fault_file):
    data = tmp_path / "data"
    b = spawn_broker(data)
    wire = Wire(b.bootstrap)
    arm(fault_file, "segment_create=ENOSPC")
    got = wire.create(("nospace", 4))["nospace"]
    assert got.error_code == E.KAFKA_STORAGE_ERROR and "No space left on device" in got.error_message
    assert "nospace" not in wire.topics()
    assert partition_dirs(data, "nospace") == set()
    arm(fault_file, "")
    wire = restart(spawn_broker, data, b, wire)
    assert "nospace" not in wire.topics()
    assert wire.create(("nospace", 4))["nospace"].error_code == 0
    assert wire.topics().get("nospace") == 4
    wire.close()


def test_failure_midway_through_a_topics_logs_removes_the_ones_made(make_broker, tmp_path, monkeypatch):
    """The third partition's segment cannot be created: the first two go again, nothing stays."""
    b = make_broker(tmp_path / "data")
    wire = Wire(b.bootstrap)
    calls = {"segment_create": 0}
    real_check = faults.check

    def third_segment_fails(site: str, path: str | None = None) -> None:
        if site == "segment_create":
            calls[site] += 1
            if calls[site] == 3:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_check(site, path)

    monkeypatch.setattr(faults, "check", third_segment_fails)
    got = wire.create(("midway", 6))["midway"]
    monkeypatch.setattr(faults, "check", real_check)
    assert calls["segment_create"] == 3
    assert got.error_code == E.KAFKA_STORAGE_ERROR and "No space left on device" in got.error_message
    assert "midway" not in wire.topics()  # same connection
    assert partition_dirs(tmp_path / "data", "midway") == set()
    wire.close()


def test_emfile_creating_logs_creates_nothing(spawn_broker, tmp_path):
    data = tmp_path / "data"
    b = spawn_broker(data)
    wire = Wire(b.bootstrap)
    assert wire.create(("warm-up", 1))["warm-up"].error_code == 0  # writer thread started
    pid = b.proc.pid
    soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    in_use = len(os.listdir(f"/proc/{pid}/fd"))
    # below what is open: even after the file cache closes what it may, no file can be opened
    resource.prlimit(pid, resource.RLIMIT_NOFILE, (in_use - 4, hard))
    try:
        got = wire.create(("fd-starved", 8))["fd-starved"]
    finally:
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (soft, hard))
    assert got.error_code == E.KAFKA_STORAGE_ERROR, got
    assert "Too many open files" in got.error_message
    assert "fd-starved" not in wire.topics()  # the same connection
    assert partition_dirs(data, "fd-starved") == set()  # partial dirs gone (or renamed -delete)
    assert wire.create(("fd-starved", 8))["fd-starved"].error_code == 0  # limit back: it works
    wire = restart(spawn_broker, data, b, wire)
    assert wire.topics().get("fd-starved") == 8
    wire.close()


def test_find_coordinator_when_offsets_topic_cannot_be_created(spawn_broker, tmp_path, fault_file):
    data = tmp_path / "data"
    b = spawn_broker(data)
    wire = Wire(b.bootstrap)
    # the metadata record of __consumer_offsets cannot be written
    arm(fault_file, "metadata=ENOSPC")
    for v in (3, 4, 6):
        code, message = wire.find_coordinator(v, "g1")
        assert code == E.COORDINATOR_NOT_AVAILABLE, (v, code, message)
        assert "No space left" in message
    assert "__consumer_offsets" not in wire.topics()
    assert partition_dirs(data, "__consumer_offsets") == set()
    arm(fault_file, "")
    assert wire.find_coordinator(4, "g1") == (0, None)
    assert wire.topics().get("__consumer_offsets") == 50
    wire.close()
    assert "closing connection" not in b.log_text


def test_find_coordinator_when_offsets_logs_cannot_be_created(spawn_broker, tmp_path, fault_file):
    data = tmp_path / "data"
    b = spawn_broker(data)
    wire = Wire(b.bootstrap)
    arm(fault_file, "segment_create=ENOSPC")
    code, message = wire.find_coordinator(4, "g1")
    assert code == E.COORDINATOR_NOT_AVAILABLE and "No space left" in message
    code, _ = wire.find_coordinator(2, "g1")  # the connection is still there
    assert code == E.COORDINATOR_NOT_AVAILABLE
    assert "__consumer_offsets" not in wire.topics()
    assert partition_dirs(data, "__consumer_offsets") == set()
    arm(fault_file, "")
    wire = restart(spawn_broker, data, b, wire)
    assert wire.find_coordinator(4, "g1") == (0, None)
    wire.close()


def test_create_topics_is_all_or_nothing_per_topic_on_a_real_admin_client(spawn_broker, tmp_path, fault_file):
    """confluent-kafka's AdminClient sees the per-topic error and its message."""
    b = spawn_broker(tmp_path / "data")
    admin = AdminClient({"bootstrap.servers": b.bootstrap})
    arm(fault_file, "metadata=EIO")
    fs = admin.create_topics([NewTopic("admin-refused", 1, 1)], request_timeout=30)
    try:
        fs["admin-refused"].result(30)
        raise AssertionError("created despite the fault")
    except KafkaException as e:
        err = e.args[0]
        assert err.code() == E.KAFKA_STORAGE_ERROR and "Input/output error" in err.str()
    arm(fault_file, "")
    fs = admin.create_topics([NewTopic("admin-refused", 1, 1)], request_timeout=30)
    fs["admin-refused"].result(30)
