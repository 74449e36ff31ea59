"""The leader's ISR writes and HW in ``ReplicaManager``: lost version races, followers outside the ISR.

``kwire.replication.manager`` writes an ISR change conditional on the state
znode's version it last saw. When the write loses (INVALID_UPDATE_VERSION: the
controller elected a new leader, or changed the ISR, meanwhile) and the image
has not shown the newer state yet, the partition is *stale*: no more ISR
proposals, and the ISR kept in memory is the committed one (never the one that
failed), until the image brings the newer state. Kafka's ZooKeeper-mode
``Partition.shrinkIsr`` does the same ("Cached zkVersion not equal to that in
zookeeper, skip updating ISR").

A follower outside the ISR holds the HW back only while it is caught up and
eligible (Kafka's ``maybeIncrementLeaderHW``): a broker shutting down is not
eligible, and one that stops fetching stops holding the HW back once
``replica.lag.time.max.ms`` has passed, even when nothing else happens but a
producer's retries (the stall the failover verifier found: every acks=all
produce timed out, retried as a duplicate, and nothing re-evaluated the HW).

Real pieces: the ReplicaManager, a LogManager on a temporary dir, the
purgatory, a ``ZkImage`` fed with the records ZooKeeper's watches would give.
Stand-ins: the broker object (only the attributes the ReplicaManager reads)
and the ZooKeeper writes (``update_partition_state`` returns a future the test
settles, as ``ZkMetadata``'s writer thread would).
"""

from __future__ import annotations

import time
import uuid
from concurrent.futures import Future

import pytest

from kwire.cluster.zk_image import ZkImage
from kwire.config import BrokerConfig
from kwire.log import LogConfig, LogManager
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records.builder import build_batch
from kwire.replication import manager as manager_mod
from kwire.replication.manager import ReplicaManager
from kwire.delayed import Purgatory

NODE = 1
TOPIC = "t"
KEY = (TOPIC, 0)
LAG_MS = 1000


class _Metadata:
    """The image, its listeners, and ISR writes the test settles."""

    def __init__(self) -> None:
        self.image = ZkImage(NODE)
        self.listeners = []
        self.writes: list[tuple[list[int], int, Future]] = []  # (isr, expected version, future)
        self.shutting_down: set[int] = set()  # /kwire/controlled_shutdown, as the controller sees it

    def add_listener(self, fn) -> None:
        self.listeners.append(fn)

    def topic(self, name: str):
        return self.image.topics.get(name)

    def isr_eligible(self, name, partition, broker_id) -> bool:  # ZkMetadata's rule
        return broker_id in self.image.brokers and broker_id not in self.shutting_down

    def update_partition_state(self, name, partition, leader, leader_epoch, isr, expected_zk_version):
        fut: Future = Future()
        self.writes.append((list(isr), expected_zk_version, fut))
        return fut

    def deliver(self, records: list[dict]) -> None:
        for r in records:
            self.image.replay(r)
        for fn in self.listeners:
            fn(records)


class _Broker:
    """What ReplicaManager reads of ``kwire.broker.Broker`` (logs, purgatory, configs, listeners)."""

    def __init__(self, tmp_path, metadata: _Metadata) -> None:
        self.node_id = NODE
        self.config = BrokerConfig.load(None, {"log.dirs": str(tmp_path),
                                               "replica.lag.time.max.ms": str(LAG_MS)})
        self.metadata = metadata
        self.logs = LogManager([str(tmp_path)], 0)
        self.purgatory = Purgatory()
        self.leadership: list[tuple[str, int, bool, int]] = []
        self.inter_broker = None  # plaintext

    def topic_log_config(self, _t) -> LogConfig:
        return LogConfig()

    def topic_min_insync_replicas(self, _t) -> int:
        return 2

    def notify_leadership(self, topic, partition, is_leader, epoch) -> None:
        self.leadership.append((topic, partition, is_leader, epoch))

    def forget_topic_config(self, name) -> None:
        pass

    def apply_dynamic_configs(self) -> None:
        pass

    def not_leader_error(self, topic, partition) -> KafkaError:
        return KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER, f"not the leader of {topic}-{partition}")

    def remove_logs(self, topic, partitions) -> None:
        for p in partitions:
            self.logs.delete_partition(topic, p)


def _state(leader: int, epoch: int, isr: list[int], version: int) -> dict:
    return {"type": "zk_partition_state", "name": TOPIC, "partition": 0,
            "state": {"leader": leader, "leader_epoch": epoch, "isr": isr, "controller_epoch": 1,
                      "zk_version": version}}


@pytest.fixture
def cluster(tmp_path, monkeypatch):
    """A ReplicaManager leading t-0 (replicas and ISR [1, 2, 3], epoch 0, state version 0) with one
    record appended that no follower has; the clock is the test's (``clock[0]``, ms)."""
    clock = [time.time_ns() // 1_000_000]
    monkeypatch.setattr(manager_mod, "_now_ms", lambda: clock[0])
    md = _Metadata()
    broker = _Broker(tmp_path, md)
    md.image.replay({"type": "zk_brokers", "brokers": [{"id": i, "host": "127.0.0.1", "port": 9000 + i}
                                                       for i in (1, 2, 3)]})
    md.image.replay({"type": "zk_topic", "name": TOPIC, "id": str(uuid.uuid4()), "partitions": {"0": [1, 2, 3]}})
    md.image.replay(_state(NODE, 0, [1, 2, 3], 0))
    mgr = ReplicaManager(broker)
    mgr.sync_logs()
    md.add_listener(mgr._on_records)
    mgr.sync()  # no fetchers: start() would run them on a loop; the leader side needs none
    plog = broker.logs.get(*KEY)
    mgr.append(plog, build_batch([(None, b"unreplicated")]), clock[0])
    yield mgr, md, broker, clock
    broker.logs.close()


def test_lost_version_race_marks_stale_and_stops_proposing(cluster):
    mgr, md, _broker, clock = cluster
    st = mgr.leader_state(*KEY)
    assert st is not None and st.isr == (1, 2, 3) and st.high_watermark == 0
    # the followers stay silent past replica.lag.time.max.ms: a shrink is proposed at version 0
    clock[0] += LAG_MS + 1
    mgr.check_isr_shrink()
    assert [(isr, v) for isr, v, _ in md.writes] == [([1], 0)]
    assert st.pending == (1,) and st.maximal_isr == {1, 2, 3}  # acks=all still waits for 2 and 3
    # meanwhile the controller moved the state on (a new leader elsewhere): the write loses
    md.writes[0][2].set_exception(KafkaError(ErrorCode.INVALID_UPDATE_VERSION, "version 0 is stale"))
    assert KEY in mgr._stale
    assert st.pending is None and st.isr == (1, 2, 3)  # the failed ISR is never taken as committed
    # acks=all cannot complete (the HW waits for 2 and 3) and is not refused with a shrunken ISR
    assert st.check_enough_replicas(1) == (False, ErrorCode.NONE)
    assert st.append_error(-1) == ErrorCode.NONE
    # stale: no more proposals against the version known to be old, however long it waits
    for _ in range(3):
        clock[0] += LAG_MS
        mgr.check_isr_shrink()
    assert len(md.writes) == 1
    # the image brings the newer state: broker 2 leads at epoch 1; this broker follows, no longer stale
    md.deliver([_state(2, 1, [2, 3], 1)])
    assert mgr.leader_state(*KEY) is None and KEY not in mgr._stale
    assert mgr.following[KEY] == (2, 1)
    with pytest.raises(KafkaError) as e:
        mgr.append(mgr.broker.logs.get(*KEY), build_batch([(None, b"late")]), clock[0])
    assert e.value.code == ErrorCode.NOT_LEADER_OR_FOLLOWER


def test_stale_until_the_controllers_isr_shows_then_proposals_resume(cluster):
    mgr, md, _broker, clock = cluster
    st = mgr.leader_state(*KEY)
    clock[0] += LAG_MS + 1
    mgr.check_isr_shrink()
    md.writes[0][2].set_exception(KafkaError(ErrorCode.INVALID_UPDATE_VERSION, "stale"))
    assert KEY in mgr._stale
    # the controller's change at the same leader epoch (it dropped broker 3) is adopted...
    md.deliver([_state(NODE, 0, [1, 2], 1)])
    assert mgr.leader_state(*KEY) is st and st.isr == (1, 2) and KEY not in mgr._stale
    # ...and the next shrink is written against the version the image showed
    clock[0] += LAG_MS + 1
    mgr.check_isr_shrink()
    assert [(isr, v) for isr, v, _ in md.writes[1:]] == [([1], 1)]
    md.writes[1][2].set_result(2)
    assert st.isr == (1,) and st.pending is None and mgr._versions[KEY] == 2


def test_a_lost_race_the_image_already_showed_is_not_stale(cluster):
    mgr, md, _broker, clock = cluster
    st = mgr.leader_state(*KEY)
    clock[0] += LAG_MS + 1
    mgr.check_isr_shrink()
    # the newer state (same epoch, the controller's ISR) reaches the image before the write's answer
    md.deliver([_state(NODE, 0, [1, 3], 1)])
    md.writes[0][2].set_exception(KafkaError(ErrorCode.INVALID_UPDATE_VERSION, "stale"))
    assert KEY not in mgr._stale and st.isr == (1, 3) and st.pending is None
    clock[0] += LAG_MS + 1
    mgr.check_isr_shrink()
    assert [(isr, v) for isr, v, _ in md.writes[1:]] == [([1], 1)]


def test_zookeeper_unreachable_is_not_stale_and_keeps_the_isr(cluster):
    """The deposed-leader case (ZooKeeper cut off): the write fails without a version answer, the
    ISR stays, and the shrink is tried again at the next check (it may succeed once ZooKeeper is back)."""
    mgr, md, _broker, clock = cluster
    st = mgr.leader_state(*KEY)
    clock[0] += LAG_MS + 1
    mgr.check_isr_shrink()
    md.writes[0][2].set_exception(KafkaError(ErrorCode.REQUEST_TIMED_OUT, "ZooKeeper is not reachable"))
    assert KEY not in mgr._stale and st.isr == (1, 2, 3) and st.pending is None
    assert st.check_enough_replicas(1) == (False, ErrorCode.NONE)
    clock[0] += LAG_MS
    mgr.check_isr_shrink()
    assert [(isr, v) for isr, v, _ in md.writes] == [([1], 0), ([1], 0)]


def test_acks_all_waiter_survives_an_epoch_bump_that_keeps_this_broker_leader(cluster):
    """The controller bumps the leader epoch and shrinks the ISR while this broker stays leader
    (broker 3 died): an acks=all produce already waiting keeps waiting and completes once the
    new ISR has the record, as Kafka's DelayedProduce does; it is NOT_LEADER_OR_FOLLOWER only
    when leadership goes."""
    import asyncio

    mgr, md, broker, _clock = cluster
    plog = broker.logs.get(*KEY)

    async def run():
        waiting = asyncio.ensure_future(mgr.wait_replicated(TOPIC, 0, 1, 30.0))
        await asyncio.sleep(0)
        md.deliver([_state(NODE, 1, [1, 2], 1)])  # same leader, epoch 1, ISR without 3
        await asyncio.sleep(0)
        assert not waiting.done()  # before: answered NOT_LEADER_OR_FOLLOWER at the bump
        mgr.follower_fetch(TOPIC, 0, 2, plog.log_end_offset, 0, plog)
        assert await asyncio.wait_for(waiting, 5) == ErrorCode.NONE
        # a second record; then leadership moves to broker 2: the waiter answers at once
        mgr.append(plog, build_batch([(None, b"second")]), _clock[0])
        waiting = asyncio.ensure_future(mgr.wait_replicated(TOPIC, 0, plog.log_end_offset, 30.0))
        await asyncio.sleep(0)
        md.deliver([_state(2, 2, [2], 2)])
        assert await asyncio.wait_for(waiting, 5) == ErrorCode.NOT_LEADER_OR_FOLLOWER

    asyncio.run(run())


def _fetch(mgr, broker, replica: int, offset: int) -> None:
    """Follower ``replica``'s Fetch from ``offset`` reached the leader (the Fetch handler's call)."""
    plog = broker.logs.get(*KEY)
    mgr.follower_fetch(TOPIC, 0, replica, offset, 0, plog)


def _isr_without_2(mgr, md, broker, clock):
    """The controller took broker 2 out of the ISR with a new epoch (a broker shutting down, or
    gone); 2 is then caught up once more by one last fetch at the leader's end; 3 is behind by one
    append. Returns the leader state and the log."""
    md.deliver([_state(NODE, 1, [1, 3], 1)])
    st = mgr.leader_state(*KEY)
    plog = broker.logs.get(*KEY)
    _fetch(mgr, broker, 3, plog.log_end_offset)
    _fetch(mgr, broker, 2, plog.log_end_offset)  # its last fetch: caught up, now
    mgr.append(plog, build_batch([(None, b"acks=all")]), clock[0])
    _fetch(mgr, broker, 3, plog.log_end_offset)
    return st, plog


def test_a_broker_shutting_down_does_not_hold_back_the_high_watermark(cluster):
    mgr, md, broker, clock = cluster
    md.shutting_down.add(2)
    st, plog = _isr_without_2(mgr, md, broker, clock)
    assert st.isr == (1, 3) and plog.log_end_offset == 2
    # 2 fetched at the leader's end moments ago, but it is shutting down: the ISR's 3 decides alone
    assert st.high_watermark == plog.high_watermark == 2
    assert st.check_enough_replicas(2) == (True, ErrorCode.NONE)
    assert not md.writes  # and it is never proposed back into the ISR


def test_a_silent_follower_outside_the_isr_stops_holding_the_high_watermark_after_the_lag_time(cluster):
    mgr, md, broker, clock = cluster
    st, plog = _isr_without_2(mgr, md, broker, clock)
    # its fetch proposed it back into the ISR; that write fails (ZooKeeper unreachable)
    assert [isr for isr, _v, _f in md.writes] == [[1, 3, 2]]
    md.writes[0][2].set_exception(KafkaError(ErrorCode.REQUEST_TIMED_OUT, "ZooKeeper is not reachable"))
    assert st.pending is None and st.isr == (1, 3)
    # 2 is registered, not shutting down, and caught up within replica.lag.time.max.ms: it counts
    # (KIP-497's rule), so the HW waits for it
    assert plog.log_end_offset == 2 and st.high_watermark == plog.high_watermark == 1
    assert st.check_enough_replicas(2) == (False, ErrorCode.NONE)
    # 2 never fetches again; with no append and no fetch that moves an offset, the periodic check
    # notices that it is no longer caught up
    clock[0] += LAG_MS + 1
    mgr.check_isr_shrink()
    assert st.high_watermark == plog.high_watermark == 2
    assert st.check_enough_replicas(2) == (True, ErrorCode.NONE)


def test_a_producers_retry_re_evaluates_the_high_watermark(cluster):
    """An idempotent producer whose acks=all timed out retries the same batch: a duplicate, not
    appended again, yet it re-evaluates the HW as Kafka's ``appendRecordsToLeader`` does."""
    mgr, md, broker, clock = cluster
    md.deliver([_state(NODE, 1, [1, 3], 1)])
    st = mgr.leader_state(*KEY)
    plog = broker.logs.get(*KEY)
    _fetch(mgr, broker, 3, plog.log_end_offset)
    _fetch(mgr, broker, 2, plog.log_end_offset)
    md.writes[0][2].set_exception(KafkaError(ErrorCode.REQUEST_TIMED_OUT, "ZooKeeper is not reachable"))
    batch = build_batch([(None, b"idempotent")], producer_id=7, producer_epoch=0, base_sequence=0)
    mgr.append(plog, bytearray(batch), clock[0])
    _fetch(mgr, broker, 3, plog.log_end_offset)
    assert st.high_watermark == 1 and plog.log_end_offset == 2  # 2 is still caught up: it waits
    clock[0] += LAG_MS + 1
    retry = mgr.append(plog, bytearray(batch), clock[0])
    assert retry.duplicate and plog.log_end_offset == 2
    assert st.high_watermark == plog.high_watermark == 2


def test_acks_all_request_is_one_delayed_operation_answered_the_turn_after_the_hw(cluster):
    """``wait_all_replicated``: the partitions of one acks=all request wait as one delayed
    operation, and the request's task resumes on the first loop turn after the HW covers the
    records (a gather of per-partition tasks took three: the partition's task, the gather's
    callback, the request's task). The timeout and a leadership loss still answer."""
    import asyncio

    mgr, md, broker, clock = cluster
    plog = broker.logs.get(*KEY)
    end = plog.log_end_offset

    async def run():
        waiting = asyncio.ensure_future(mgr.wait_all_replicated([(TOPIC, 0, end), (TOPIC, 0, end)], 30.0))
        for _ in range(3):
            await asyncio.sleep(0)
        assert not waiting.done()
        assert broker.purgatory.sizes()["Produce"] == 1
        mgr.follower_fetch(TOPIC, 0, 2, end, 0, plog)
        await asyncio.sleep(0)
        assert not waiting.done()  # follower 3 (in the ISR) does not have it yet
        mgr.follower_fetch(TOPIC, 0, 3, end, 0, plog)  # the HW covers it now
        await asyncio.sleep(0)
        assert waiting.done() and waiting.result() == [ErrorCode.NONE, ErrorCode.NONE]
        assert broker.purgatory.sizes()["Produce"] == 0
        # a record no follower fetches: the timeout answers
        mgr.append(plog, build_batch([(None, b"second")]), clock[0])
        assert await mgr.wait_all_replicated([(TOPIC, 0, plog.log_end_offset)], 0.05) == [
            ErrorCode.REQUEST_TIMED_OUT]
        # leadership moves to broker 2 while waiting: NOT_LEADER_OR_FOLLOWER at once
        waiting = asyncio.ensure_future(mgr.wait_replicated(TOPIC, 0, plog.log_end_offset, 30.0))
        await asyncio.sleep(0)
        md.deliver([_state(2, 1, [2], 1)])
        assert await asyncio.wait_for(waiting, 5) == ErrorCode.NOT_LEADER_OR_FOLLOWER

    asyncio.run(run())


def test_a_partition_state_change_syncs_that_partition_only(tmp_path, monkeypatch):
    """Regression: each state change synced its whole topic, so ``__consumer_offsets``' 50
    partitions changing one by one after a heal (a new leader, then each ISR back to full) cost
    50 x 50 partition syncs on the event loop: seconds on a loaded machine, during which the
    healed broker's fetchers could not even connect. Now a state change costs one sync, and the
    roles still follow it."""
    n = 50
    md = _Metadata()
    broker = _Broker(tmp_path, md)
    md.image.replay({"type": "zk_brokers", "brokers": [{"id": i, "host": "127.0.0.1", "port": 9000 + i}
                                                       for i in (1, 2, 3)]})
    md.image.replay({"type": "zk_topic", "name": "many", "id": str(uuid.uuid4()),
                     "partitions": {str(p): [1, 2, 3] for p in range(n)}})

    def state(p: int, leader: int, epoch: int, version: int) -> dict:
        return {"type": "zk_partition_state", "name": "many", "partition": p,
                "state": {"leader": leader, "leader_epoch": epoch, "isr": [1, 2, 3], "controller_epoch": 1,
                          "zk_version": version}}

    for p in range(n):
        md.image.replay(state(p, NODE, 0, 0))
    mgr = ReplicaManager(broker)
    mgr.sync_logs()
    md.add_listener(mgr._on_records)
    mgr.sync()
    assert len(mgr.leaders) == n
    calls = []
    real = mgr._sync_partition
    monkeypatch.setattr(mgr, "_sync_partition", lambda t, p, now: (calls.append(p.partition), real(t, p, now)))
    for p in range(n):  # the controller moves every leadership to broker 2, one watch event each
        md.deliver([state(p, 2, 1, 1)])
    assert sorted(calls) == list(range(n)), f"{len(calls)} partition syncs for {n} state changes"
    assert not mgr.leaders and sorted(k[1] for k in mgr.following) == list(range(n))
    broker.logs.close()
