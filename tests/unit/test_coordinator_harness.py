"""A fake-clock harness for the coordinator shard, plus tests of records and partitioning.

``Harness`` plays the runtime's part without asyncio: it applies each
``Result``'s records by encoding them to bytes, decoding them again (so every
test also exercises the record format), keeping them in an in-memory log and
staging them in the shard, settled at once (``append`` leaves them unsettled,
as a write waiting for its replication). ``advance(ms)`` moves the fake clock and runs
the expired timers the same way.
"""

from __future__ import annotations

import pytest

from kwire.coordinator.base import OpContext, Pending, java_string_hash, partition_for
from kwire.coordinator.consumer_protocol import encode_subscription
from kwire.coordinator.records import (
    CoordinatorRecord, GroupMetadataKey, GroupMetadataValue, MemberMetadata, OffsetCommitKey,
    OffsetCommitValue, RecordError, decode_record, encode_record,
)
from kwire.coordinator.shard import CoordinatorConfig, GroupCoordinatorShard
from kwire.protocol.generated.heartbeat_request import HeartbeatRequest
from kwire.protocol.generated.join_group_request import JoinGroupRequest, JoinGroupRequestProtocol
from kwire.protocol.generated.sync_group_request import SyncGroupRequest, SyncGroupRequestAssignment


class Harness:
    def __init__(self, topics=None, **cfg) -> None:
        cfg.setdefault("group_initial_rebalance_delay_ms", 0)
        self.config = CoordinatorConfig(**cfg)
        self.topics = topics
        self.shard = GroupCoordinatorShard(self.config, topics=topics)
        self.now = 1_000_000
        self.log: list[tuple[bytes, bytes | None]] = []

    def apply(self, result):
        """Append and stage the records, and settle them at once (a single node)."""
        staged = self.append(result, replicating=False)
        self.shard.settle(staged, True)
        return result.response

    def append(self, result, replicating: bool = True):
        """Append and stage ``result``'s records, leaving the write unsettled (replicating)."""
        records = []
        for rec in result.records:
            key, value = encode_record(rec)
            self.log.append((key, value))
            records.append(decode_record(key, value))
        result.records = records
        producer = getattr(result, "producer", None)
        return self.shard.stage(result, producer[0] if producer is not None else None,
                                replicating=replicating)

    def advance(self, ms: int = 0) -> None:
        self.now += ms
        for result in self.shard.poll_timers(self.now):
            self.apply(result)

    def reload(self) -> GroupCoordinatorShard:
        """A fresh shard rebuilt from the log alone (what a restart does)."""
        shard = GroupCoordinatorShard(self.config, topics=self.topics)
        shard.now = self.now
        for key, value in self.log:
            shard.replay(decode_record(key, value))
        return shard

    # -- classic protocol shortcuts ------------------------------------------------------
    def join(self, group="g", member_id="", *, topics=("t",), protocols=None, instance=None,
             session=10_000, rebalance=30_000, version=9, client_id="client", protocol_type="consumer"):
        if protocols is None:
            protocols = [("range", encode_subscription(list(topics)))]
        req = JoinGroupRequest(group_id=group, session_timeout_ms=session, rebalance_timeout_ms=rebalance,
                               member_id=member_id, group_instance_id=instance, protocol_type=protocol_type,
                               protocols=[JoinGroupRequestProtocol(name=n, metadata=m) for n, m in protocols])
        ctx = OpContext(version, client_id, "/127.0.0.1")
        return self.apply(self.shard.join_group(ctx, req, self.now))

    def join_new(self, group="g", **kw):
        """Join with MEMBER_ID_REQUIRED handled: returns the Pending of the second join."""
        first = self.join(group, **kw)
        assert first.error_code == 79, first  # MEMBER_ID_REQUIRED
        return self.join(group, first.member_id, **kw)

    def sync(self, group, member_id, generation, assignments=None, instance=None, version=5):
        req = SyncGroupRequest(group_id=group, generation_id=generation, member_id=member_id,
                               group_instance_id=instance, protocol_type=None, protocol_name=None,
                               assignments=[SyncGroupRequestAssignment(member_id=m, assignment=a)
                                            for m, a in (assignments or {}).items()])
        return self.apply(self.shard.sync_group(OpContext(version), req, self.now))

    def heartbeat(self, group, member_id, generation, instance=None):
        req = HeartbeatRequest(group_id=group, generation_id=generation, member_id=member_id,
                               group_instance_id=instance)
        return self.shard.heartbeat(OpContext(4), req, self.now)

    def leave(self, group, *identities):
        return self.apply(self.shard.leave_group(OpContext(5), group, list(identities), self.now))


def done(p):
    """The response of an operation: immediate, or a Pending that must have completed."""
    if not isinstance(p, Pending):
        return p
    assert p.done, "response still pending"
    return p.response


# -- records ------------------------------------------------------------------------------

def test_record_roundtrip_all_types():
    recs = [
        CoordinatorRecord(OffsetCommitKey("g", "t", 3), OffsetCommitValue(42, 7, "meta ✓", 1000, -1)),
        CoordinatorRecord(OffsetCommitKey("g", "t", 3), None),
        CoordinatorRecord(GroupMetadataKey("g"), GroupMetadataValue(
            "consumer", 5, "range", "m1", 123,
            [MemberMetadata("m1", None, "c", "/1.2.3.4", 300, 45, b"sub", b"asg"),
             MemberMetadata("m2", "i2", "c", "/1.2.3.4", 300, 45, b"", b"")])),
        CoordinatorRecord(GroupMetadataKey("g"), GroupMetadataValue("", 0, None, None, -1, [])),
        CoordinatorRecord(GroupMetadataKey("g"), None),
    ]
    for rec in recs:
        k, v = encode_record(rec)
        assert decode_record(k, v) == rec


def test_offset_commit_record_bytes():
    """Kafka's layout, byte for byte: key v1 (group, topic, partition), value v0 (offset, leader
    epoch, metadata, commit and expire timestamps); every committed partition writes one."""
    k, v = encode_record(CoordinatorRecord(OffsetCommitKey("gé", "t", 3),
                                           OffsetCommitValue(42, 7, "m", 1000, -1)))
    assert k == b"\x00\x01" + b"\x00\x03g\xc3\xa9" + b"\x00\x01t" + b"\x00\x00\x00\x03"
    assert v == (b"\x00\x00" + (42).to_bytes(8, "big") + (7).to_bytes(4, "big") + b"\x00\x01m"
                 + (1000).to_bytes(8, "big") + b"\xff" * 8)
    # empty metadata (packed in one go) and a null one
    for meta, field_bytes in (("", b"\x00\x00"), (None, b"\xff\xff")):
        _k, v = encode_record(CoordinatorRecord(OffsetCommitKey("g", "t", 3),
                                                OffsetCommitValue(42, -1, meta, 1000, 5000)))
        assert v == (b"\x00\x00" + (42).to_bytes(8, "big") + b"\xff" * 4 + field_bytes
                     + (1000).to_bytes(8, "big") + (5000).to_bytes(8, "big"))


def test_record_rejects_unknown_versions_and_garbage():
    k, v = encode_record(CoordinatorRecord(OffsetCommitKey("g", "t", 0), OffsetCommitValue(1, -1, "", 0)))
    with pytest.raises(RecordError):
        decode_record(k, b"\x00\x09" + v[2:])  # a value version from the future
    with pytest.raises(RecordError):
        decode_record(b"\x00\x63\x00\x01g", None)  # unknown record type
    with pytest.raises(RecordError):
        decode_record(k[:-1], None)  # truncated
    with pytest.raises(RecordError):
        decode_record(None, v)


def test_java_string_hash_and_partition():
    assert java_string_hash("") == 0
    assert java_string_hash("hello") == 99162322
    assert java_string_hash("polygenelubricants") == -2147483648  # Integer.MIN_VALUE
    assert partition_for("polygenelubricants", 50) == 0  # Utils.abs(MIN_VALUE) == 0
    assert java_string_hash("é") == 233 and java_string_hash("😀") == 0xD83D * 31 + 0xDE00  # UTF-16 units
    assert partition_for("hello", 50) == 99162322 % 50
    assert partition_for("Aa", 7) == partition_for("BB", 7)  # same Java hash


def test_config_from_broker_config():
    from kwire.config import BrokerConfig

    cfg = BrokerConfig.load(None, {"group.initial.rebalance.delay.ms": "0",
                                   "offsets.retention.minutes": "2", "log.dirs": "/tmp/x"})
    c = CoordinatorConfig.from_broker_config(cfg)
    assert c.group_initial_rebalance_delay_ms == 0
    assert c.offsets_retention_ms == 120_000
    assert c.group_min_session_timeout_ms == 6000
    assert c.group_consumer_assignors == ["uniform", "range"]
