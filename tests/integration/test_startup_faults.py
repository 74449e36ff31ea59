"""A log dir that fails to load at start-up starts offline; the broker serves the rest.

A subprocess broker with ``log.dirs=a,b`` is restarted with the ``load`` fault
site armed for dir b only (``load=EIO@<b>`` in ``KWIRE_FAULTS_FILE``). It
starts, logs ``LOG DIR OFFLINE``, serves a's partitions to a real client,
answers KAFKA_STORAGE_ERROR for b's (Produce, Fetch, ListOffsets, DeleteRecords, Metadata with
the broker in ``offline_replicas``, DescribeLogDirs error 56), never recreates
b's partition in a, and leaves every byte of b as it was (a stray partition
log there included). Restarted without the fault, b loads with every
acknowledged record. With every dir failing, ``kwire serve`` exits 1 with a
clear error (Kafka: "Shutdown broker because all log dirs ... have failed")
and changes nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from kafka.errors import KafkaStorageError

from filetree import tree, without_markers
from kwire.log import faults
from kwire.protocol.generated.delete_records_request import (
    DeleteRecordsPartition,
    DeleteRecordsRequest,
    DeleteRecordsTopic,
)
from test_storage_faults import (
    STORAGE_ERROR,
    create_topic,
    fetch_and_list_offsets_errors,
    log_dir_errors,
    partition_meta,
    plain_producer,
    read_all,
    send,
)

pytestmark = pytest.mark.timeout(240)


def two_dir_broker(spawn_broker, tmp_path, topic_name):
    """A broker on dirs a and b, topic ``<name>-a`` in a and ``<name>-b`` in b, each with
    acknowledged records; stopped cleanly. Returns (a, b, overrides, {topic: acked})."""
    a, b = tmp_path / "a", tmp_path / "b"
    overrides = {"log.dirs": f"{a},{b}"}
    ta, tb = f"{topic_name}-a", f"{topic_name}-b"
    broker = spawn_broker(tmp_path / "unused", overrides)
    create_topic(broker.bootstrap, ta)  # both dirs empty: a
    create_topic(broker.bootstrap, tb)  # the emptier one: b
    assert (a / f"{ta}-0").is_dir() and (b / f"{tb}-0").is_dir()
    acked = {}
    p = plain_producer(broker.bootstrap)
    try:
        for t in (ta, tb):
            acked[t] = [(send(p, t, b"%s-%d" % (t[-1:].encode(), i)), b"%s-%d" % (t[-1:].encode(), i))
                        for i in range(5)]
    finally:
        p.close(timeout=10)
    assert broker.terminate() == 0
    return a, b, overrides, acked


def test_dir_failing_at_load_starts_offline_and_the_other_serves(spawn_broker, tmp_path,
                                                                 topic_name, monkeypatch):
    from kwire.client import KafkaClient

    a, b, overrides, acked = two_dir_broker(spawn_broker, tmp_path, topic_name)
    ta, tb = f"{topic_name}-a", f"{topic_name}-b"
    # a stray log (its topic is not in the metadata) in b: never deleted while b is offline
    os.rename(b / f"{tb}-0", b / "gone-0")
    (b / f"{tb}-0").mkdir()
    for name in os.listdir(b / "gone-0"):
        with open(b / "gone-0" / name, "rb") as src, open(b / f"{tb}-0" / name, "wb") as dst:
            dst.write(src.read())
    before = tree(b)
    spec = tmp_path / "faults"
    spec.write_text(f"load=EIO@{b}")
    monkeypatch.setenv(faults.ENV_FILE, str(spec))

    broker = spawn_broker(tmp_path / "unused", overrides)
    assert "LOG DIR OFFLINE" in broker.log_text and str(b) in broker.log_text
    with KafkaClient(broker.bootstrap, timeout=10) as c:  # ApiVersions answers
        assert c.api_version(18) >= 0
        resp = c.request(21, DeleteRecordsRequest(timeout_ms=10_000, topics=[DeleteRecordsTopic(
            name=tb, partitions=[DeleteRecordsPartition(partition_index=0, offset=1)])]))
        assert resp.topics[0].partitions[0].error_code == STORAGE_ERROR
    p = plain_producer(broker.bootstrap)
    try:
        acked[ta].append((send(p, ta, b"a-after"), b"a-after"))
        with pytest.raises(KafkaStorageError):
            send(p, tb, b"refused")
    finally:
        p.close(timeout=10)
    assert read_all(broker.bootstrap, ta) == acked[ta]
    assert fetch_and_list_offsets_errors(broker.bootstrap, tb, len(acked[tb])) == {STORAGE_ERROR}
    (pa,) = partition_meta(broker.bootstrap, ta)
    (pb,) = partition_meta(broker.bootstrap, tb)
    assert pa["error_code"] == 0 and pa["offline_replicas"] == []
    assert pb["error_code"] == STORAGE_ERROR and len(pb["offline_replicas"]) == 1
    assert log_dir_errors(broker.bootstrap) == {str(a): 0, str(b): STORAGE_ERROR}
    assert broker.proc.poll() is None
    assert broker.terminate() == 0
    assert not (a / f"{tb}-0").exists()  # not recreated empty in the online dir
    assert ".kwire_cleanshutdown" in before  # stopped cleanly, and the marker went at load
    assert tree(b) == without_markers(before)  # nothing else deleted, written or marked clean

    monkeypatch.delenv(faults.ENV_FILE)
    broker = spawn_broker(tmp_path / "unused", overrides)
    assert "LOG DIR OFFLINE" not in broker.log_text
    assert not (b / "gone-0").exists()  # loaded: now found stray and deleted
    assert read_all(broker.bootstrap, tb) == acked[tb]
    assert read_all(broker.bootstrap, ta) == acked[ta]
    p = plain_producer(broker.bootstrap)
    try:
        assert send(p, tb, b"b-after") == len(acked[tb])
    finally:
        p.close(timeout=10)
    assert log_dir_errors(broker.bootstrap) == {str(a): 0, str(b): 0}
    assert broker.terminate() == 0


def test_every_dir_failing_at_load_stops_the_broker(spawn_broker, tmp_path, topic_name):
    a, b, overrides, acked = two_dir_broker(spawn_broker, tmp_path, topic_name)
    before = tree(tmp_path)
    spec = tmp_path / "faults"
    spec.write_text("load=EIO")
    args = [sys.executable, "-m", "kwire", "serve", "--override", "listeners=PLAINTEXT://127.0.0.1:0",
            "--override", f"log.dirs={a},{b}"]
    r = subprocess.run(args, env={**os.environ, faults.ENV_FILE: str(spec)}, capture_output=True,
                       text=True, timeout=120)
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert "every log dir failed at start-up" in out and "kwire serving on" not in out
    os.unlink(spec)
    logs = lambda t: {k: v for k, v in t.items() if "kwire-metadata" not in k}  # noqa: E731
    assert logs(tree(tmp_path)) == logs(without_markers(before))  # metadata may reserve producer ids

    broker = spawn_broker(tmp_path / "unused", overrides)  # fixed: both load
    for t, records in acked.items():
        assert read_all(broker.bootstrap, t) == records
    assert broker.terminate() == 0


def test_groups_in_a_dir_failing_at_load_answer_coordinator_not_available(make_broker, tmp_path,
                                                                          topic_name):
    """Not an empty group (consumers would reset their offsets): retriable until a restart."""
    import errno

    from kwire.client import KafkaClient, KafkaClientError
    from kwire.coordinator.runtime import GROUP_METADATA_TOPIC, partition_for

    a, b = tmp_path / "a", tmp_path / "b"
    overrides = {"log.dirs": f"{a},{b}", "offsets.topic.num.partitions": "2"}
    broker = make_broker(tmp_path / "unused", overrides)
    create_topic(broker.bootstrap, topic_name)
    logs = broker.server.broker.logs
    groups = {}  # group id -> its __consumer_offsets partition's dir
    with KafkaClient(broker.bootstrap, timeout=10) as c:
        for g in ("g0", "g1", "g2", "g3", "g4", "g5"):
            c.offset_commit(g, {(topic_name, 0): 7})
            groups[g] = logs.log_dir_of(GROUP_METADATA_TOPIC, partition_for(g, 2))
    broker.stop()
    in_a = next(g for g, d in groups.items() if d == str(a))
    in_b = next(g for g, d in groups.items() if d == str(b))

    faults.arm("load", errno.EIO, under=str(b))
    broker = make_broker(tmp_path / "unused", overrides)
    faults.disarm()
    with KafkaClient(broker.bootstrap, timeout=10) as c:
        assert c.offset_fetch(in_a)[(topic_name, 0)].offset == 7
        with pytest.raises(KafkaClientError) as e:
            c.offset_fetch(in_b)
        assert e.value.code == 15  # COORDINATOR_NOT_AVAILABLE
    broker.stop()

    broker = make_broker(tmp_path / "unused", overrides)
    with KafkaClient(broker.bootstrap, timeout=10) as c:
        assert c.offset_fetch(in_b)[(topic_name, 0)].offset == 7
    broker.stop()
