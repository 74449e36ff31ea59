"""The replica fetcher (kwire.replication.fetcher) against real kwire brokers over TCP.

The leader is an embedded kwire broker (``make_broker``): it answers a Fetch
carrying a replica id like a consumer fetch, reading to its high watermark,
which on one node is its log end. The follower side is a real ``PartitionLog``
in a temporary directory, driven by a ``ReplicaFetcherManager`` on this
test's own event loop. Checks: the follower's log becomes byte-identical to
the leader's (offsets, epochs, batch bytes), reconnection to a restarted
leader (on a new port: the endpoint is resolved again), OFFSET_OUT_OF_RANGE
after the leader's DeleteRecords, truncation on a diverging epoch,
``remove_partitions`` stopping appends at once, and a failed partition not
stopping the others.
"""

from __future__ import annotations

import asyncio
import glob
import os
import time

import pytest

from kwire.client import KafkaClient, NewTopic
from kwire.config import BrokerConfig
from kwire.log import LogConfig, PartitionLog
from kwire.protocol.generated.delete_records_request import (
    DeleteRecordsPartition,
    DeleteRecordsRequest,
    DeleteRecordsTopic,
)
from kwire.records.builder import build_batch
from kwire.replication.fetcher import ReplicaFetcherManager
from kwire.replication.follower import State

NODE_ID = 2
LEADER_ID = 1
TIMEOUT_S = 30


def _config(**extra) -> BrokerConfig:
    props = {"replica.fetch.backoff.ms": "50", "replica.fetch.wait.max.ms": "100"}
    props.update(extra)
    return BrokerConfig.load(None, props)


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _batch(tag: str, n: int = 3, size: int = 10) -> bytes:
    return build_batch([(b"k", f"{tag}-{i}".encode().ljust(size, b"."), []) for i in range(n)])


def _log_bytes(part_dir: str) -> bytes:
    """Every segment's batches, in order (the ``.log`` files concatenated)."""
    return b"".join(open(p, "rb").read() for p in sorted(glob.glob(os.path.join(part_dir, "*.log"))))


async def _until(cond, what: str, timeout: float = TIMEOUT_S):
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.02)


class Leader:
    """An embedded kwire broker playing the leader, and a tool client to it."""

    def __init__(self, make_broker, data_dir, topic: str, partitions: int = 1) -> None:
        self.make_broker = make_broker
        self.data_dir = str(data_dir)
        self.topic = topic
        self.broker = make_broker(data_dir=self.data_dir)
        self.client = KafkaClient(self.broker.bootstrap)
        self.client.create_topics([NewTopic(topic, partitions)])

    def endpoint(self, node_id: int):
        if node_id != LEADER_ID or self.broker is None:
            return None
        host, port = self.broker.bootstrap.rsplit(":", 1)
        return host, int(port)

    def produce(self, batch: bytes, partition: int = 0) -> int:
        return self.client.produce(self.topic, partition, batch, acks=-1)

    def end(self, partition: int = 0) -> int:
        return self.client.list_offsets(self.topic, partition, -1)[0]

    def part_dir(self, partition: int = 0) -> str:
        return os.path.join(self.data_dir, f"{self.topic}-{partition}")

    def restart(self) -> None:
        self.client.close()
        self.broker.stop()
        self.broker = self.make_broker(data_dir=self.data_dir)
        self.client = KafkaClient(self.broker.bootstrap)

    def close(self) -> None:
        self.client.close()


@pytest.fixture
def leader(make_broker, tmp_path, topic_name):
    ld = Leader(make_broker, tmp_path / "leader", topic_name)
    yield ld
    ld.close()


def _follower_log(tmp_path, topic: str, partition: int = 0) -> PartitionLog:
    return PartitionLog.open(str(tmp_path / "follower"), topic, partition, LogConfig(), _now_ms())


def _manager(leader: Leader, appended: list | None = None, **cfg) -> ReplicaFetcherManager:
    def on_appended(topic, p):
        if appended is not None:
            appended.append((topic, p))
    return ReplicaFetcherManager(NODE_ID, leader.endpoint, _config(**cfg), on_appended=on_appended)


def test_follower_log_is_byte_identical_to_the_leaders(leader, tmp_path):
    for i in range(5):
        leader.produce(_batch(f"a{i}", n=1 + i))
    plog = _follower_log(tmp_path, leader.topic)
    appended: list = []

    async def run():
        mgr = _manager(leader, appended)
        mgr.add_partitions({(leader.topic, 0): (plog, LEADER_ID, 0)})
        mgr.start()
        try:
            end = await asyncio.to_thread(leader.end)
            await _until(lambda: plog.log_end_offset == end, "the first copy")
            # more while the fetcher long-polls: the leader wakes it
            for i in range(5, 10):
                await asyncio.to_thread(leader.produce, _batch(f"a{i}", n=2))
            end = await asyncio.to_thread(leader.end)
            await _until(lambda: plog.log_end_offset == end and plog.high_watermark == end,
                         "the second copy")
        finally:
            await mgr.close()

    asyncio.run(run())
    assert plog.log_end_offset == 15 + 10
    assert _log_bytes(plog.dir) == _log_bytes(leader.part_dir())
    assert plog.latest_epoch == 0  # the leader's epochs, from its batches
    assert (leader.topic, 0) in appended
    plog.close()


def test_reconnects_to_a_restarted_leader_on_its_new_port(leader, tmp_path):
    leader.produce(_batch("before", 4))
    plog = _follower_log(tmp_path, leader.topic)

    async def run():
        mgr = _manager(leader)
        mgr.add_partitions({(leader.topic, 0): (plog, LEADER_ID, 0)})
        mgr.start()
        try:
            await _until(lambda: plog.log_end_offset == 4, "the first copy")
            old = leader.broker.bootstrap
            await asyncio.to_thread(leader.restart)  # a new port: endpoint() resolves it again
            assert leader.broker.bootstrap != old
            for i in range(3):
                await asyncio.to_thread(leader.produce, _batch(f"after{i}", 2))
            await _until(lambda: plog.log_end_offset == 10, "the copy after the restart")
        finally:
            await mgr.close()

    asyncio.run(run())
    assert _log_bytes(plog.dir) == _log_bytes(leader.part_dir())
    plog.close()


def test_offset_out_of_range_restarts_at_the_leaders_log_start(leader, tmp_path):
    for i in range(4):
        leader.produce(_batch(f"x{i}", 5))  # offsets 0..19
    plog = _follower_log(tmp_path, leader.topic)
    key = (leader.topic, 0)

    async def run():
        mgr = _manager(leader)
        mgr.add_partitions({key: (plog, LEADER_ID, 0)})
        mgr.start()
        try:
            await _until(lambda: plog.log_end_offset == 20, "the first copy")
            mgr.remove_partitions([key])
            for i in range(4, 10):
                await asyncio.to_thread(leader.produce, _batch(f"x{i}", 5))  # up to 49
            resp = await asyncio.to_thread(
                leader.client.request, 21, DeleteRecordsRequest(timeout_ms=10000, topics=[
                    DeleteRecordsTopic(name=leader.topic, partitions=[
                        DeleteRecordsPartition(partition_index=0, offset=37)])]))
            assert resp.topics[0].partitions[0].error_code == 0
            assert plog.log_end_offset == 20  # removed: nothing appended meanwhile
            # fetch 20 < log start 37: the log restarts at 37, then at the base (35) of the
            # leader's first batch, which holds 37, and follows the leader's log start (37)
            mgr.add_partitions({key: (plog, LEADER_ID, 0)})
            await _until(lambda: plog.log_end_offset == 50, "the copy from the log start")
            mgr.remove_partitions([key])
            assert mgr.partitions() == {}
        finally:
            await mgr.close()

    asyncio.run(run())
    assert plog.log_start_offset == 37
    assert plog.high_watermark == 50
    # the follower's log is the leader's, from the batch holding offset 37 on
    leader_bytes = _log_bytes(leader.part_dir())
    ours = _log_bytes(plog.dir)
    assert len(ours) < len(leader_bytes) and leader_bytes.endswith(ours)
    plog.close()


def _with_epoch(batch: bytes, epoch: int, base_offset: int) -> bytearray:
    """A batch with another partition leader epoch and base offset (both outside its CRC)."""
    b = bytearray(batch)
    b[0:8] = base_offset.to_bytes(8, "big")
    b[12:16] = epoch.to_bytes(4, "big", signed=True)
    return b


@pytest.mark.parametrize("ibp", [None, "2.6"])
def test_truncates_a_diverging_epoch_and_converges(leader, tmp_path, caplog, ibp):
    """A follower holding a deposed leader's epoch-1 batches the leader never had ends
    byte-identical to the leader's log. By default (inter.broker.protocol.version >= 2.7-IV1)
    the leader's Fetch answer carries the diverging epoch; with 2.6 (Kafka: no truncation on
    fetch below 2.7-IV1) an OffsetForLeaderEpoch answer cuts the log before the first Fetch
    (v11, which has no diverging epoch)."""
    import logging

    for i in range(4):
        leader.produce(_batch(f"l{i}", 2))  # leader: offsets 0..7, epoch 0
    first = leader.client.fetch(leader.topic, 0, 0, max_bytes=1)  # the first batch: 0..1
    plog = _follower_log(tmp_path, leader.topic)
    plog.append_as_follower(memoryview(first), _now_ms())
    # a deposed leader's epoch-1 batches the leader never had: offsets 2..11
    plog.append_as_follower(_with_epoch(_batch("stale", 10), 1, 2), _now_ms())
    assert (plog.log_end_offset, plog.latest_epoch) == (12, 1)
    caplog.set_level(logging.INFO, logger="kwire.replication")

    async def run():
        mgr = _manager(leader, **({"inter.broker.protocol.version": ibp} if ibp else {}))
        assert mgr.truncation_on_fetch == (ibp is None)
        mgr.add_partitions({(leader.topic, 0): (plog, LEADER_ID, 0)})
        if ibp:
            assert mgr.fetch_version_cap == 11
            assert mgr.partitions()[(leader.topic, 0)].state is State.TRUNCATING
        mgr.start()
        try:
            # diverging epoch (0, 8) or OffsetForLeaderEpoch (0 ends at 8): cut to our end of
            # epoch 0 (2), then refetch the leader's epoch 0
            await _until(lambda: plog.log_end_offset == 8 and plog.latest_epoch == 0,
                         "truncation and the copy of the leader's epoch 0")
        finally:
            await mgr.close()

    asyncio.run(run())
    assert _log_bytes(plog.dir) == _log_bytes(leader.part_dir())
    plog.close()
    text = caplog.text
    if ibp:
        # asked for our epoch 1; the leader's largest epoch <= 1 is 0, ending at its LEO 8: cut to 2
        assert "OffsetForLeaderEpoch: leader 1 ends epoch 0 (we asked for 1) at 8: truncating to 2" in text
        assert "OffsetForLeaderEpoch before fetching" in text and "diverges" not in text
    else:
        assert "OffsetForLeaderEpoch:" not in text
    plog.close()


def test_a_failed_partition_does_not_stop_the_others(make_broker, tmp_path, topic_name):
    ld = Leader(make_broker, tmp_path / "leader", topic_name, partitions=2)
    try:
        ld.produce(_batch("p0", 3), 0)
        ld.produce(_batch("p1", 3), 1)
        bad = _follower_log(tmp_path, topic_name, 0)
        good = _follower_log(tmp_path, topic_name, 1)
        bad.offline = True  # its log dir failed: every append raises KAFKA_STORAGE_ERROR

        async def run():
            mgr = _manager(ld)
            mgr.add_partitions({(topic_name, 0): (bad, LEADER_ID, 0),
                                (topic_name, 1): (good, LEADER_ID, 0)})
            mgr.start()
            try:
                await _until(lambda: good.log_end_offset == 3, "the healthy partition's copy")
                fetchers = mgr.partitions()
                await _until(lambda: fetchers[(topic_name, 0)].state is State.FAILED,
                             "the bad partition to fail")
                await asyncio.to_thread(ld.produce, _batch("more", 2), 1)
                await _until(lambda: good.log_end_offset == 5, "more of the healthy partition")
                # new leadership restarts a failed partition
                bad.offline = False
                mgr.add_partitions({(topic_name, 0): (bad, LEADER_ID, 0)})
                await _until(lambda: bad.log_end_offset == 3, "the restarted partition's copy")
            finally:
                await mgr.close()

        asyncio.run(run())
        assert _log_bytes(good.dir) == _log_bytes(ld.part_dir(1))
        bad.close()
        good.close()
    finally:
        ld.close()


def test_remove_partitions_stops_appends_at_once(make_broker, tmp_path, topic_name):
    ld = Leader(make_broker, tmp_path / "leader", topic_name, partitions=2)
    try:
        a = _follower_log(tmp_path, topic_name, 0)
        b = _follower_log(tmp_path, topic_name, 1)

        async def run():
            mgr = _manager(ld)
            mgr.add_partitions({(topic_name, 0): (a, LEADER_ID, 0),
                                (topic_name, 1): (b, LEADER_ID, 0)})
            mgr.start()
            try:
                await asyncio.to_thread(ld.produce, _batch("a", 2), 0)
                await _until(lambda: a.log_end_offset == 2, "partition 0's copy")
                mgr.remove_partitions([(topic_name, 0)])  # a fetch may be in flight
                await asyncio.to_thread(ld.produce, _batch("a2", 2), 0)
                await asyncio.to_thread(ld.produce, _batch("b", 2), 1)
                await _until(lambda: b.log_end_offset == 2, "partition 1's later copy")
                assert a.log_end_offset == 2
                mgr.remove_partitions([(topic_name, 1)])
                assert mgr.partitions() == {}
            finally:
                await mgr.close()

        asyncio.run(run())
        a.close()
        b.close()
    finally:
        ld.close()


def test_a_new_leader_id_moves_the_partition_to_that_leaders_fetcher(make_broker, tmp_path,
                                                                      topic_name):
    a = Leader(make_broker, tmp_path / "a", topic_name)
    b = Leader(make_broker, tmp_path / "b", topic_name)
    try:
        for i in range(3):  # the same batches (client timestamps) make the same logs
            batch = _batch(f"both{i}", 2)
            a.produce(batch)
            b.produce(batch)
        assert _log_bytes(a.part_dir()) == _log_bytes(b.part_dir())
        plog = _follower_log(tmp_path, topic_name)
        key = (topic_name, 0)
        endpoints = {1: a.endpoint(1), 3: b.endpoint(1)}
        mgr = ReplicaFetcherManager(NODE_ID, endpoints.get, _config(), on_appended=lambda t, p: None)

        async def run():
            mgr.add_partitions({key: (plog, 1, 0)})
            mgr.start()
            try:
                await _until(lambda: plog.log_end_offset == 6, "the copy from broker 1")
                await asyncio.to_thread(b.produce, _batch("only-b", 4))
                first = mgr._fetchers[1]
                mgr.add_partitions({key: (plog, 3, 0)})  # leadership moved to broker 3
                assert sorted(mgr._fetchers) == [3]  # broker 1's fetcher is idle: stopped
                await _until(lambda: plog.log_end_offset == 10, "the copy from broker 3")
                assert first.task.done()
            finally:
                await mgr.close()

        asyncio.run(run())
        assert _log_bytes(plog.dir) == _log_bytes(b.part_dir())
        plog.close()
    finally:
        a.close()
        b.close()


def test_an_epoch_the_leader_does_not_know_yet_backs_off_until_new_leadership(leader, tmp_path):
    leader.produce(_batch("e", 3))
    plog = _follower_log(tmp_path, leader.topic)
    key = (leader.topic, 0)

    async def run():
        mgr = _manager(leader)
        mgr.add_partitions({key: (plog, LEADER_ID, 7)})  # we heard of epoch 7; the leader has 0
        mgr.start()
        try:
            f = mgr.partitions()[key]
            started = _now_ms()
            # UNKNOWN_LEADER_EPOCH: a backoff, nothing appended, still fetching
            await _until(lambda: f.delay_until_ms > started, "a backoff")
            assert plog.log_end_offset == 0 and f.state is State.FETCHING
            mgr.add_partitions({key: (plog, LEADER_ID, 0)})  # the leadership we follow changes
            await _until(lambda: plog.log_end_offset == 3, "the copy at the leader's epoch")
        finally:
            await mgr.close()

    asyncio.run(run())
    assert _log_bytes(plog.dir) == _log_bytes(leader.part_dir())
    plog.close()


def test_answers_of_varying_sizes_reuse_one_buffer_and_stay_byte_identical(leader, tmp_path):
    # one batch per answer (replica.fetch.max.bytes=1: the first batch always comes whole), the
    # largest first: every later answer lands in the first one's buffer, over its stale tail
    sizes = [60_000, 300, 20_000, 5, 45_000, 1_000, 59_000, 10, 30_000, 2]
    for i, size in enumerate(sizes):
        leader.produce(_batch(f"v{i}", n=2, size=size))
    plog = _follower_log(tmp_path, leader.topic)

    async def run():
        mgr = _manager(leader, **{"replica.fetch.max.bytes": "1"})
        mgr.add_partitions({(leader.topic, 0): (plog, LEADER_ID, 0)})
        mgr.start()
        try:
            end = await asyncio.to_thread(leader.end)
            await _until(lambda: plog.log_end_offset == end, "the copy")
            return mgr._fetchers[LEADER_ID]._conn
        finally:
            await mgr.close()

    conn = asyncio.run(run())
    assert plog.log_end_offset == 2 * len(sizes)
    assert _log_bytes(plog.dir) == _log_bytes(leader.part_dir())
    # ApiVersions, Metadata (topic ids), then the fetches: the buffer grows to the largest
    # answer once and is reused for every answer after it
    assert conn.frames >= len(sizes) + 2
    assert conn.allocations <= 4, (conn.frames, conn.allocations)
    plog.close()


def test_a_leader_that_never_answers_times_out_and_is_reconnected(tmp_path, topic_name):
    # a peer that accepts and reads but never answers (a hung leader): each request must time
    # out after replica.socket.timeout.ms and the fetcher connect again after the backoff
    plog = _follower_log(tmp_path, topic_name)

    async def run():
        accepted: list = []  # connections that sent a request (the link probes send nothing)

        writers: list = []

        async def silent(reader, writer):
            writers.append(writer)
            if await reader.read(65536):
                accepted.append(writer)
            while await reader.read(65536):
                pass

        server = await asyncio.start_server(silent, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        mgr = ReplicaFetcherManager(NODE_ID, lambda node: ("127.0.0.1", port) if node == LEADER_ID else None,
                                    _config(**{"replica.socket.timeout.ms": "200"}),
                                    on_appended=lambda t, p: None)
        mgr.add_partitions({(topic_name, 0): (plog, LEADER_ID, 0)})
        mgr.start()
        try:
            await _until(lambda: len(accepted) >= 3, "three connections (two timed out)")
        finally:
            await mgr.close()
            for w in writers:
                w.close()
            server.close()
            await server.wait_closed()
        return len(accepted)

    assert asyncio.run(run()) >= 3
    assert plog.log_end_offset == 0
    plog.close()
