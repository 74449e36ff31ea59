"""kwire.cluster.metadata_log: framing, torn tails, failed appends, snapshots."""

from __future__ import annotations

import errno
import os
import uuid

import pytest

from kwire.cluster.image import MetadataImage
from kwire.cluster.metadata import LocalMetadata
from kwire.cluster.metadata_log import DIR_NAME, MetadataLog, MetadataLogError, decode_records, encode_record
from kwire.log import faults
from kwire.protocol.errors import ErrorCode, KafkaError


def topic(name: str, n: int = 1) -> dict:
    return {"type": "topic", "name": name, "id": str(uuid.uuid4()), "partitions": n, "configs": {}}


def new_log(path) -> MetadataLog:
    store = MetadataLog(str(path), 1)
    store.load(lambda: "cluster-x")
    return store


def current_log(path) -> str:
    d = os.path.join(path, DIR_NAME)
    return os.path.join(d, sorted(f for f in os.listdir(d) if f.endswith(".log"))[-1])


def test_decode_stops_at_every_kind_of_damage():
    recs = [topic(f"t{i}") for i in range(3)]
    data = b"".join(encode_record(r) for r in recs)
    assert decode_records(data) == (recs, len(data))
    first = len(encode_record(recs[0]))
    for cut in range(first, len(data)):
        got, good = decode_records(data[:cut])
        assert got == recs[:len(got)] and good <= cut
    flipped = bytearray(data)
    flipped[first + 12] ^= 0x01  # a payload byte of the second record
    assert decode_records(bytes(flipped)) == (recs[:1], first)


@pytest.mark.parametrize("cut", [1, 5, 8, 20])
def test_torn_tail_is_dropped_and_cut_off_at_load(tmp_path, cut):
    store = new_log(tmp_path)
    store.append([topic("a"), topic("b")])
    store.close()
    path = current_log(tmp_path)
    good_size = os.path.getsize(path)
    with open(path, "ab") as f:
        f.write(encode_record(topic("torn"))[:cut])
    store = new_log(tmp_path)
    assert set(store.image.topics) == {"a", "b"}
    assert os.path.getsize(path) == good_size
    store.append([topic("c")])  # appends go on after the good records
    store.close()
    assert set(new_log(tmp_path).image.topics) == {"a", "b", "c"}


def test_failed_append_leaves_nothing_in_the_log(tmp_path):
    store = new_log(tmp_path)
    store.append([topic("a")])
    size = os.path.getsize(current_log(tmp_path))
    faults.arm("metadata", errno.ENOSPC, count=1)
    try:
        with pytest.raises(OSError):
            store.append([topic("b"), topic("c")])
    finally:
        faults.disarm()
    assert os.path.getsize(current_log(tmp_path)) == size
    assert set(store.image.topics) == {"a"}
    store.append([topic("d")])
    store.close()
    assert set(new_log(tmp_path).image.topics) == {"a", "d"}


def test_snapshot_rotates_the_log_and_a_damaged_snapshot_refuses_to_load(tmp_path):
    store = MetadataLog(str(tmp_path), 1, snapshot_bytes=1)
    store.load(lambda: "cluster-x")
    store.append([topic("a")])
    assert store.maybe_snapshot()
    first = store.snapshot_offset
    assert first == 1
    store.append([topic("b")])
    store.close()
    d = tmp_path / DIR_NAME
    assert sorted(os.listdir(d)) == [f"{first:020d}.checkpoint", f"{first:020d}.log"]
    assert set(new_log(tmp_path).image.topics) == {"a", "b"}
    # a snapshot without its end record is never taken for the metadata (nor is "empty")
    snap = d / f"{first:020d}.checkpoint"
    snap.write_bytes(snap.read_bytes()[:-3])
    with pytest.raises(MetadataLogError):
        new_log(tmp_path)


def test_group_failure_undoes_live_state_and_calls_on_abort(tmp_path):
    import asyncio

    aborted: list[str] = []

    async def scenario():
        md = LocalMetadata(str(tmp_path), 1, "h", 1)
        md.create_topic("kept", 1, {})
        await md.durable()
        faults.arm("metadata", errno.EIO)
        try:
            md.create_topic("x", 2, {}, on_abort=lambda: aborted.append("x"))
            md.set_topic_configs("kept", {"retention.ms": "5"})
            md.delete_topic("kept", on_abort=lambda: aborted.append("kept"))
            fut = md.durable()
            with pytest.raises(KafkaError) as e:
                await fut
            assert e.value.code == ErrorCode.KAFKA_STORAGE_ERROR
        finally:
            faults.disarm()
        assert set(md.topics) == {"kept"} and md.topic("kept").configs == {}
        assert md.colliding_topic("x") is None
        md.close()

    asyncio.run(scenario())
    assert aborted == ["kept", "x"]  # undone in reverse order
    md = LocalMetadata(str(tmp_path), 1, "h", 1)
    assert set(md.topics) == {"kept"}
    md.close()


def test_image_round_trips_through_snapshot_records():
    image = MetadataImage(1)
    image.replay({"type": "cluster", "cluster_id": "c"})
    image.replay(topic("a.b", 3))
    image.replay({"type": "partition_change", "id": str(image.topics["a.b"].topic_id), "partition": 1,
                  "leader_epoch": 7})
    copy = image.copy()
    assert [p.leader_epoch for p in copy.topics["a.b"].partitions] == [0, 7, 0]
    assert copy.unified == {"a_b": {"a.b"}} and copy.cluster_id == "c"


def test_a_cancelled_waiter_does_not_cancel_the_group_for_the_others(tmp_path):
    """Two requests wait for the same metadata group; the first one's connection closes
    (its task is cancelled): the group is still written and the second gets its answer."""
    import asyncio

    async def scenario():
        md = LocalMetadata(str(tmp_path), 1, "h", 1)
        md.create_topic("a", 1, {})
        first, second = md.durable(), md.durable()
        waiter = asyncio.ensure_future(first)
        await asyncio.sleep(0)
        waiter.cancel()
        await second  # resolves: the group was not cancelled
        assert md.durable() is None
        md.close()
        return md

    asyncio.run(scenario())
    again = LocalMetadata(str(tmp_path), 1, "h", 1)
    assert again.topic("a") is not None  # and it is on disk
    again.close()
