"""The asyncio runtime on a real Broker (no sockets): appends, loading, timers."""

from __future__ import annotations

import asyncio

import pytest

from kwire.broker.broker import Broker
from kwire.config import BrokerConfig
from kwire.coordinator.base import CoordinatorError, OpContext, Pending
from kwire.coordinator.consumer_protocol import encode_subscription
from kwire.coordinator.offsets import Commit
from kwire.coordinator.runtime import GROUP_METADATA_TOPIC
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.join_group_request import JoinGroupRequest, JoinGroupRequestProtocol


def config(tmp_path, **extra):
    cfg = {"log.dirs": str(tmp_path), "listeners": "PLAINTEXT://127.0.0.1:0",
           "group.initial.rebalance.delay.ms": "0", "offsets.topic.num.partitions": "3"}
    cfg.update(extra)
    return BrokerConfig.load(None, cfg)


def commit(gc, group, offset):
    return gc.run(group, lambda s, now: s.commit_offsets(
        group, -1, "", None, -1, [Commit("t", 0, offset, -1, f"m{offset}")], 8, now))


def test_offsets_topic_is_created_compacted_and_records_are_appended(tmp_path):
    async def main():
        b = Broker(config(tmp_path, **{"offsets.topic.segment.bytes": str(2**21)}))
        try:
            assert commit(b.group_coordinator, "g", 5) == {("t", 0): 0}
            t = b.metadata.topic(GROUP_METADATA_TOPIC)
            assert len(t.partitions) == 3
            tc = b.topic_config(t)
            assert list(tc.cleanup_policy) == ["compact"] and tc.segment_bytes == 2**21
            p = b.group_coordinator.partition_for("g")
            assert b.get_log(GROUP_METADATA_TOPIC, p).log_end_offset == 1
        finally:
            b.close()

    asyncio.run(main())


def test_load_in_progress_then_state_is_replayed(tmp_path):
    async def first():
        b = Broker(config(tmp_path))
        try:
            for i in range(50):
                commit(b.group_coordinator, "g", i)
            commit(b.group_coordinator, "other", 1)
        finally:
            b.close()

    async def second():
        b = Broker(config(tmp_path, **{"offsets.load.buffer.size": "200"}))  # several chunks
        gc = b.group_coordinator
        try:
            gc.start()
            with pytest.raises(CoordinatorError) as e:
                gc.run("g", lambda s, now: s.fetch_offsets("g", None))
            assert e.value.code == E.COORDINATOR_LOAD_IN_PROGRESS
            with pytest.raises(CoordinatorError):
                gc.all_shards()
            for _ in range(200):
                if not gc.loading:
                    break
                await asyncio.sleep(0.01)
            rows = gc.run("g", lambda s, now: s.fetch_offsets("g", None))
            assert [(t, [(f.offset, f.metadata) for f in parts]) for t, parts in rows] == [("t", [(49, "m49")])]
            assert {g.group_id for s in gc.all_shards() for g in s.list_groups()} == {"g", "other"}
        finally:
            b.close()

    asyncio.run(first())
    asyncio.run(second())


def test_join_completes_on_the_timer_and_session_expires(tmp_path):
    async def main():
        b = Broker(config(tmp_path, **{"group.min.session.timeout.ms": "100"}))
        gc = b.group_coordinator
        try:
            gc.start()
            req = JoinGroupRequest(group_id="g", session_timeout_ms=200, rebalance_timeout_ms=1000,
                                   member_id="", protocol_type="consumer", protocols=[
                                       JoinGroupRequestProtocol(name="range", metadata=encode_subscription(["t"]))])
            ctx = OpContext(9, "c", "/127.0.0.1")
            first = gc.run("g", lambda s, now: s.join_group(ctx, req, now))
            assert first.error_code == E.MEMBER_ID_REQUIRED
            req.member_id = first.member_id
            pending = gc.run("g", lambda s, now: s.join_group(ctx, req, now))
            assert isinstance(pending, Pending)
            resp = await asyncio.wait_for(gc.wait(pending), 2)  # the initial delay (0) runs on the loop
            assert resp.error_code == 0 and resp.generation_id == 1
            shard = gc.shard_for("g")[1]
            assert shard.groups["g"].state == "CompletingRebalance"
            await asyncio.sleep(0.5)  # no SyncGroup, no heartbeat: the 200 ms session ends
            assert shard.groups["g"].state == "Empty" and shard.groups["g"].generation_id == 2
        finally:
            b.close()

    asyncio.run(main())


def test_shutdown_wakes_waiting_joins(tmp_path):
    """A JoinGroup waiting for other members ends when the server wakes the purgatory."""
    async def main():
        b = Broker(config(tmp_path, **{"group.initial.rebalance.delay.ms": "60000"}))
        gc = b.group_coordinator
        try:
            gc.start()
            req = JoinGroupRequest(group_id="g", session_timeout_ms=10_000, rebalance_timeout_ms=60_000,
                                   member_id="", protocol_type="consumer", protocols=[
                                       JoinGroupRequestProtocol(name="range", metadata=b"")])
            pending = gc.run("g", lambda s, now: s.join_group(OpContext(3, "c", "/h"), req, now))
            task = asyncio.ensure_future(gc.wait(pending, "unloaded"))
            await asyncio.sleep(0.05)
            assert not task.done()  # the initial delay is a minute
            b.purgatory.wake_all()
            assert await asyncio.wait_for(task, 1) == "unloaded"
        finally:
            b.close()

    asyncio.run(main())


def test_a_commit_is_in_the_log_and_visible_to_fetch_when_answered(tmp_path):
    """Issue 10 §6: OffsetCommit is answered only after its records are appended and replayed.

    Nothing is awaited between the commit and the fetch, so nothing else could run on the
    loop in between; a failed append answers an error and leaves the offsets as they were.
    """
    import errno

    from kwire.log import faults

    async def main():
        b = Broker(config(tmp_path))
        gc = b.group_coordinator
        try:
            def fetched():
                rows = gc.run("g", lambda s, now: s.fetch_offsets("g", None))
                return [(t, [(f.offset, f.metadata) for f in parts]) for t, parts in rows]

            for i in range(1, 6):
                assert commit(gc, "g", i) == {("t", 0): E.NONE}
                assert fetched() == [("t", [(i, f"m{i}")])]
                plog = b.get_log(GROUP_METADATA_TOPIC, gc.partition_for("g"))
                assert plog.log_end_offset == plog.high_watermark == i
            faults.arm("log", errno.EIO, count=1)
            try:
                assert commit(gc, "g", 99) == {("t", 0): E.NOT_COORDINATOR}
            finally:
                faults.disarm()
            assert fetched() == [("t", [(5, "m5")])]
        finally:
            b.close()

    asyncio.run(main())
