"""The follower's fetch decisions (kwire.replication.follower) against real logs.

Every "leader" here is a real PartitionLog answered by the real Fetch handler
code (``kwire.handlers.fetch._read_partition`` + ``_response``, whose
diverging-epoch check is the one clients meet over TCP), and every follower
a real PartitionLog driven by ``PartitionFetcher``. The headline scenario is
the issue's, at log level: leader A writes epochs 0 and 1, follower B gets
A's whole epoch-1 tail, C only part of it; A dies, C leads epoch 2 and
writes; B (and later A) follow C and converge on C's log, byte for byte.
"""

from __future__ import annotations

import errno
import uuid

import pytest

from kwire.cluster.image import PartitionState, TopicState
from kwire.handlers import fetch as fetch_handler
from kwire.handlers import offset_for_leader_epoch as ofle
from kwire.log import LogConfig, PartitionLog, faults
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.offset_for_leader_epoch_request import (
    OffsetForLeaderEpochRequest,
    OffsetForLeaderPartition,
    OffsetForLeaderTopic,
)
from kwire.records.builder import build_batch
from kwire.replication.follower import LEADERSHIP_RETRY_MS, FetchPartitionData, Outcome, PartitionFetcher, State
from test_log_faults import log_bytes, values

NOW = 1_700_000_000_000


@pytest.fixture(autouse=True)
def _no_faults_left():
    yield
    faults.disarm()


def mk(tag: str, n: int = 2) -> memoryview:
    recs = [(b"k", f"{tag}-{i}".encode(), [], NOW + i) for i in range(n)]
    return memoryview(bytearray(build_batch(recs, now_ms=NOW)))


class FakeBroker:
    """What the Fetch and OffsetForLeaderEpoch handler code asks of a broker."""

    def __init__(self, node_id: int, plog: PartitionLog, epoch: int) -> None:
        self.node_id = node_id
        self.plog = plog
        self.tstate = TopicState(name="t", topic_id=uuid.uuid4(), partitions=[
            PartitionState(partition=0, leader=node_id, leader_epoch=epoch, replicas=[1, 2, 3],
                           isr=[1, 2, 3])])
        self.metadata = self
        self.cluster_mode = False  # the embedded broker's Fetch path (no follower tracking)

    def topic(self, name):  # as metadata.topic(name)
        return self.tstate if name == "t" else None

    def is_leader(self, topic, partition):  # as broker.is_leader
        return topic == "t" and self.tstate.partitions[partition].leader == self.node_id

    def get_log(self, topic, partition):
        return self.plog if (topic, partition) == ("t", 0) else None

    def partition_offline(self, topic, partition):
        return False


class Node:
    def __init__(self, tmp_path, node_id: int) -> None:
        self.id = node_id
        self.log = PartitionLog.open(str(tmp_path / f"n{node_id}"), "t", 0,
                                     LogConfig(segment_bytes=600), NOW)

    def lead(self, epoch: int) -> "Node":
        """Become leader at ``epoch`` (the epoch starts at our LEO, as Kafka's makeLeader)."""
        self.epoch = epoch
        self.log.assign_epoch_start_offset(epoch, self.log.log_end_offset)
        self.broker = FakeBroker(self.id, self.log, epoch)
        return self

    def write(self, *tags: str) -> None:
        for tag in tags:
            self.log.append_as_leader(mk(tag), self.epoch, NOW)

    def answer(self, req: FetchPartitionData, max_bytes: int = 1 << 20):
        """The leader's Fetch v12 answer for one partition, as the handler builds it.

        Replica fetches read up to the LEO (Kafka's FetchLogEnd), not the HW that
        bounds consumers; the Fetch handler gets that with the wiring of
        replication, so here the HW is lifted for the read and put back.
        """
        plog = self.log
        hw = plog.high_watermark
        plog.update_high_watermark(plog.log_end_offset)
        try:
            r = fetch_handler._read_partition(
                self.broker, self.broker.tstate, False, ("t", 0), req.fetch_offset, max_bytes,
                True, 0, req.current_leader_epoch, 12, req.last_fetched_epoch)
        finally:
            plog.update_high_watermark(hw)
        r.hw = min(hw, r.hw)  # the answer carries the leader's real HW
        pd = fetch_handler._response([r], None, 12).responses[0].partitions[0]
        records = pd.records.read() if hasattr(pd.records, "read") else (pd.records or b"")
        return pd, bytes(records)


def step(follower: PartitionFetcher, leader: Node, now: int = NOW, max_bytes: int = 1 << 20):
    req = follower.fetch_partition(now)
    assert req is not None, follower.state
    pd, records = leader.answer(req, max_bytes)
    out = follower.on_fetch_response(
        req, pd.error_code, records=records, high_watermark=pd.high_watermark,
        log_start_offset=pd.log_start_offset,
        diverging_epoch=(pd.diverging_epoch.epoch, pd.diverging_epoch.end_offset), now_ms=now)
    if out is Outcome.LOOKUP_OFFSETS:
        out = follower.on_leader_offsets(leader.log.log_start_offset, leader.log.log_end_offset, now)
    return out


def sync(follower: PartitionFetcher, leader: Node, max_bytes: int = 1 << 20,
         limit: int = 50) -> list[Outcome]:
    """Fetch until the follower's log ends where the leader's does; the outcomes seen."""
    seen = []
    for _ in range(limit):
        if follower.log.log_end_offset == leader.log.log_end_offset and \
                follower.log.latest_epoch == leader.log.latest_epoch:
            seen.append(step(follower, leader, max_bytes=max_bytes))  # one more: no divergence
            if seen[-1] is Outcome.NOTHING:
                return seen
            continue
        seen.append(step(follower, leader, max_bytes=max_bytes))
        assert seen[-1] is not Outcome.FAILED, follower.failure
    raise AssertionError(f"no convergence after {limit} fetches: {seen}")


def assert_same_log(a: PartitionLog, b: PartitionLog) -> None:
    assert log_bytes(a) == log_bytes(b)
    assert a.leader_epochs.entries == b.leader_epochs.entries
    assert (a.log_start_offset, a.log_end_offset) == (b.log_start_offset, b.log_end_offset)


def test_divergent_tail_truncates_to_the_new_leaders_log(tmp_path):
    a, b, c = Node(tmp_path, 1), Node(tmp_path, 2), Node(tmp_path, 3)
    a.lead(0).write("e0a", "e0b", "e0c")
    fb, fc = PartitionFetcher(b.log, 1, 0, NOW), PartitionFetcher(c.log, 1, 0, NOW)
    sync(fb, a)
    sync(fc, a)
    a.lead(1).write("e1a")
    fb.become_follower(1, 1, NOW)
    fc.become_follower(1, 1, NOW)
    sync(fc, a)  # C has the first epoch-1 batch only
    a.write("e1b", "e1c")  # acks=1: written by A, copied by B alone
    sync(fb, a)
    assert b.log.log_end_offset == a.log.log_end_offset > c.log.log_end_offset
    tail = [v for v in values(b.log) if v[0] >= c.log.log_end_offset]
    assert [v for _, v in tail] == [b"e1b-0", b"e1b-1", b"e1c-0", b"e1c-1"]

    c_start = c.log.log_end_offset
    c.lead(2).write("e2a", "e2b")  # A is gone; C leads epoch 2 and takes writes
    fb.become_follower(3, 2, NOW)
    seen = sync(fb, c)
    assert seen[0] is Outcome.TRUNCATED and Outcome.APPENDED in seen
    assert_same_log(b.log, c.log)
    assert b.log.leader_epochs.entries == [(0, 0), (1, 6), (2, c_start)]
    assert not [v for v in values(b.log) if v[1].startswith(b"e1b") or v[1].startswith(b"e1c")]

    fa = PartitionFetcher(a.log, 3, 2, NOW)  # the old leader comes back as a follower
    assert fa.last_fetched_epoch == 1
    sync(fa, c, max_bytes=1)  # one batch per fetch
    assert_same_log(a.log, c.log)
    # and the copies survive a restart unchanged
    b.log.close()
    again = PartitionLog.open(b.log.dir.rsplit("/", 1)[0], "t", 0, LogConfig(segment_bytes=600), NOW)
    assert log_bytes(again) == log_bytes(c.log) and again.leader_epochs.entries == \
        c.log.leader_epochs.entries


def test_an_epoch_the_follower_never_saw_takes_two_rounds(tmp_path):
    """Kafka's intermediate truncation: B led epoch 3 alone, C's history has epoch 2 instead."""
    b, c = Node(tmp_path, 2), Node(tmp_path, 3)
    c.lead(1).write("e1a", "e1b")
    fb = PartitionFetcher(b.log, 3, 1, NOW)
    sync(fb, c)
    c.lead(2).write("e2a")  # B does not get this
    b.lead(3).write("e3a", "e3b")  # an unclean leadership of B's, written to itself only
    c.lead(4).write("e4a")
    fb.become_follower(3, 4, NOW)
    req = fb.fetch_partition(NOW)
    assert (req.last_fetched_epoch, req.fetch_offset) == (3, 8)
    pd, _ = c.answer(req)
    assert (pd.diverging_epoch.epoch, pd.diverging_epoch.end_offset) == (2, 6)
    # B does not know epoch 2: it cuts to the end of its epoch 1 (4) and asks again
    assert fb.offset_truncation_state(2, 6) == (4, False)
    seen = sync(fb, c)
    assert seen[0] is Outcome.TRUNCATED
    assert_same_log(b.log, c.log)


def test_offset_out_of_range_restarts_at_the_leaders_log_start(tmp_path):
    a, b = Node(tmp_path, 1), Node(tmp_path, 2)
    a.lead(0).write(*[f"x{i}" for i in range(8)])
    a.log.update_high_watermark(a.log.log_end_offset)
    a.log.delete_records_before(10)
    a.log.apply_retention(NOW)
    assert a.log.log_start_offset == 10
    fb = PartitionFetcher(b.log, 1, 0, NOW)
    assert fb.state is State.TRUNCATING  # an empty log has no epoch to offer
    req = fb.fetch_partition(NOW)
    assert fb.state is State.FETCHING and req.last_fetched_epoch == -1
    pd, _ = a.answer(req)
    assert pd.error_code == E.OFFSET_OUT_OF_RANGE
    out = fb.on_fetch_response(req, pd.error_code, now_ms=NOW)
    assert out is Outcome.LOOKUP_OFFSETS and fb.fetch_partition(NOW) is None
    assert fb.on_leader_offsets(10, a.log.log_end_offset, NOW) is Outcome.TRUNCATED
    assert (b.log.log_start_offset, b.log.log_end_offset) == (10, 10)
    sync(fb, a)
    assert [v for v in values(b.log)] == [v for v in values(a.log) if v[0] >= 10]


def test_unclean_leader_behind_the_follower_truncates_the_follower(tmp_path):
    b = Node(tmp_path, 2)
    b.lead(0).write("a", "b", "c")  # b wrote 6 records nobody else has
    fb = PartitionFetcher(b.log, 9, 1, NOW)
    fb.state = State.LOOKUP_OFFSETS
    assert fb.on_leader_offsets(0, 2, NOW) is Outcome.TRUNCATED
    assert b.log.log_end_offset == 2 and fb.fetch_offset == 2


def test_errors_back_off_and_fencing_fails_until_new_leadership(tmp_path):
    a, b = Node(tmp_path, 1), Node(tmp_path, 2)
    a.lead(5).write("x")
    fb = PartitionFetcher(b.log, 1, 6, NOW, fetch_backoff_ms=500)  # we know epoch 6 already
    req = fb.fetch_partition(NOW)
    pd, _ = a.answer(req)
    assert pd.error_code == E.UNKNOWN_LEADER_EPOCH
    assert fb.on_fetch_response(req, pd.error_code, now_ms=NOW) is Outcome.BACKOFF
    # the leader has not learned of epoch 6 yet: retried soon, not after the full backoff
    assert fb.fetch_partition(NOW + LEADERSHIP_RETRY_MS - 1) is None
    req = fb.fetch_partition(NOW + LEADERSHIP_RETRY_MS)
    assert req is not None
    assert fb.on_fetch_response(req, E.UNKNOWN_TOPIC_OR_PARTITION, now_ms=NOW) is Outcome.BACKOFF
    assert fb.fetch_partition(NOW + 499) is None and fb.fetch_partition(NOW + 500) is not None
    fb.become_follower(1, 4, NOW)  # now we are behind the leader
    req = fb.fetch_partition(NOW)
    pd, _ = a.answer(req)
    assert pd.error_code == E.FENCED_LEADER_EPOCH
    assert fb.on_fetch_response(req, pd.error_code, now_ms=NOW) is Outcome.FAILED
    assert fb.state is State.FAILED and fb.fetch_partition(NOW + 10_000) is None
    fb.become_follower(1, 5, NOW)
    sync(fb, a)
    assert_same_log(b.log, a.log)
    # a stale answer (for an offset we are no longer at) changes nothing
    assert fb.on_fetch_response(req, 0, records=b"junk", now_ms=NOW) is Outcome.NOTHING


def test_corrupt_records_back_off_and_the_refetch_succeeds(tmp_path):
    a, b = Node(tmp_path, 1), Node(tmp_path, 2)
    a.lead(0).write("x", "y")
    fb = PartitionFetcher(b.log, 1, 0, NOW)
    req = fb.fetch_partition(NOW)
    pd, records = a.answer(req)
    bad = bytearray(records)
    bad[-1] ^= 1
    out = fb.on_fetch_response(req, 0, records=bytes(bad), high_watermark=pd.high_watermark,
                               now_ms=NOW)
    assert out is Outcome.BACKOFF and b.log.log_end_offset == 0
    assert fb.fetch_partition(NOW + 999) is None
    assert step(fb, a, now=NOW + 1000) is Outcome.APPENDED
    assert_same_log(b.log, a.log)


def test_a_failed_truncation_changes_nothing_and_stops_the_partition(tmp_path):
    a, c = Node(tmp_path, 1), Node(tmp_path, 3)
    a.lead(0).write("x")
    a.lead(1).write("y", "z")
    fa_c = PartitionFetcher(c.log, 1, 1, NOW)
    sync(fa_c, a)
    a.write("tail")
    c.lead(2).write("w")  # a's "tail" diverges
    fa = PartitionFetcher(a.log, 3, 2, NOW)
    before = log_bytes(a.log)
    faults.arm("truncate", errno.ENOSPC)  # the cut of a's .log fails: all undone
    assert step(fa, c) is Outcome.FAILED
    assert log_bytes(a.log) == before and not a.log.offline
    faults.disarm()
    fa.become_follower(3, 2, NOW)
    sync(fa, c)
    assert_same_log(a.log, c.log)


def test_offset_for_leader_epoch_handler_fences_and_answers(tmp_path):
    """The API 23 handler over a real log with several epochs (FENCED needs a newer epoch
    than a single node ever has)."""
    c = Node(tmp_path, 3)
    c.lead(1).write("a")
    c.lead(4).write("b")

    class Ctx:  # what the handler reads of a RequestContext
        broker = c.broker
        session = None  # a connection without security

    def ask(current, epoch, partition=0):
        req = OffsetForLeaderEpochRequest(replica_id=2, topics=[OffsetForLeaderTopic(
            topic="t", partitions=[OffsetForLeaderPartition(
                partition=partition, current_leader_epoch=current, leader_epoch=epoch)])])
        p = ofle.handle(Ctx, req).topics[0].partitions[0]
        return p.error_code, p.leader_epoch, p.end_offset

    # below every epoch we know: that epoch and where the first known one starts (Kafka's
    # LeaderEpochFileCache.endOffsetFor), so a follower fetches on from there
    assert ask(4, 0) == (E.NONE, 0, 0)
    assert ask(4, -1) == (E.NONE, -1, -1)
    assert ask(4, 1) == (E.NONE, 1, 2)
    assert ask(4, 3) == (E.NONE, 1, 2)  # largest <= 3
    assert ask(-1, 4) == (E.NONE, 4, 4)
    assert ask(3, 4) == (E.FENCED_LEADER_EPOCH, -1, -1)
    assert ask(5, 4) == (E.UNKNOWN_LEADER_EPOCH, -1, -1)
    assert ask(4, 1, partition=1) == (E.UNKNOWN_TOPIC_OR_PARTITION, -1, -1)
    c.broker.tstate.partitions[0].leader = 1  # leadership moved away
    assert ask(4, 1) == (E.NOT_LEADER_OR_FOLLOWER, -1, -1)


def epoch_rounds(f: PartitionFetcher, leader: Node, limit: int = 5) -> list[tuple[int, int, int]]:
    """Answer ``f``'s OffsetForLeaderEpoch lookups from ``leader`` with the handler's code until it
    fetches; the (asked epoch, answered epoch, end offset) of each round."""
    rounds = []
    while (ask := f.epoch_lookup(NOW)) is not None:
        assert len(rounds) < limit, rounds
        out = type("EEO", (), {"leader_epoch": -1, "end_offset": -1})()
        err = ofle.epoch_end_offset(leader.broker, leader.broker.tstate, "t", 0, ask.current_leader_epoch,
                                    ask.leader_epoch, out)
        assert f.on_epoch_end_offset(err, out.leader_epoch, out.end_offset, ask.current_leader_epoch,
                                     NOW) is Outcome.TRUNCATED
        rounds.append((ask.leader_epoch, out.leader_epoch, out.end_offset))
    assert f.state is State.FETCHING
    return rounds


def test_offset_for_leader_epoch_answers_drive_the_same_truncation(tmp_path):
    """Without truncation on fetch (IBP below 2.7-IV1), a new leader epoch starts TRUNCATING: the
    handler's answer for our latest epoch, applied by on_epoch_end_offset, ends where Fetch's
    diverging epoch would; the fetches then carry no last fetched epoch."""
    a, b, c = Node(tmp_path, 1), Node(tmp_path, 2), Node(tmp_path, 3)
    a.lead(1).write("x", "y")
    fb = PartitionFetcher(b.log, 1, 1, NOW, truncate_on_fetch=False)
    fc = PartitionFetcher(c.log, 1, 1, NOW, truncate_on_fetch=False)
    sync(fb, a)
    sync(fc, a)
    a.write("tail")
    sync(fb, a)  # b has the tail, c has not
    c.lead(2).write("z")
    fb.become_follower(3, 2, NOW)
    assert fb.state is State.TRUNCATING and fb.fetch_partition(NOW) is None  # no fetch before the lookup
    assert epoch_rounds(fb, c) == [(1, 1, 4)]
    assert b.log.log_end_offset == 4  # the tail (offsets 4, 5) is gone
    assert fb.fetch_partition(NOW).last_fetched_epoch == -1
    sync(fb, c)
    assert_same_log(b.log, c.log)


def test_offset_for_leader_epoch_unknown_epoch_truncates_in_rounds(tmp_path):
    """KIP-279's case: the leader answers an epoch the follower never had; the follower truncates
    to the end of its epoch below it and asks again with its new latest epoch."""
    a, b, c = Node(tmp_path, 1), Node(tmp_path, 2), Node(tmp_path, 3)
    a.lead(1).write("x")
    fb = PartitionFetcher(b.log, 1, 1, NOW, truncate_on_fetch=False)
    fc = PartitionFetcher(c.log, 1, 1, NOW, truncate_on_fetch=False)
    sync(fb, a)
    sync(fc, a)
    c.lead(2).write("c2")  # only c has epoch 2
    a.lead(3).write("a3")  # a (never saw epoch 2) leads 3; b copies it
    fb.become_follower(1, 3, NOW)
    assert epoch_rounds(fb, a) == [(1, 1, 2)]  # nothing to cut: epoch 1 ends at 2 at a too
    sync(fb, a)
    assert b.log.latest_epoch == 3 and b.log.log_end_offset == 4
    c.lead(4).write("c4")
    fb.become_follower(3, 4, NOW)
    # asks epoch 3 -> c's largest <= 3 is 2, ending at 4; b never had 2: back to the end of 1, ask 1
    assert epoch_rounds(fb, c) == [(3, 2, 4), (1, 1, 2)]
    assert b.log.log_end_offset == 2
    sync(fb, c)
    assert_same_log(b.log, c.log)


def test_offset_for_leader_epoch_errors(tmp_path):
    a, b = Node(tmp_path, 1), Node(tmp_path, 2)
    a.lead(1).write("x")
    fb = PartitionFetcher(b.log, 1, 1, NOW, truncate_on_fetch=False, fetch_backoff_ms=1000)
    sync(fb, a)
    fb.become_follower(1, 2, NOW)
    ask = fb.epoch_lookup(NOW)
    assert ask == (2, 1)
    # the leader has not seen its election yet: retried soon, still truncating first
    assert fb.on_epoch_end_offset(E.UNKNOWN_LEADER_EPOCH, -1, -1, 2, NOW) is Outcome.BACKOFF
    assert fb.state is State.TRUNCATING and fb.epoch_lookup(NOW) is None
    assert fb.epoch_lookup(NOW + LEADERSHIP_RETRY_MS) == ask
    assert fb.on_epoch_end_offset(E.KAFKA_STORAGE_ERROR, -1, -1, 2, NOW) is Outcome.BACKOFF
    assert fb.epoch_lookup(NOW + 999) is None and fb.epoch_lookup(NOW + 1000) == ask
    # fenced with our current epoch: we are behind, wait for the new leadership
    assert fb.on_epoch_end_offset(E.FENCED_LEADER_EPOCH, -1, -1, 2, NOW) is Outcome.FAILED
    assert fb.on_epoch_end_offset(E.NONE, 1, 2, 2, NOW) is Outcome.NOTHING  # failed: ignored
    assert b.log.log_end_offset == 2


def test_switching_truncation_mode_with_the_leaders_versions(tmp_path):
    """A leader without Fetch v12 (no diverging epoch): a partition whose epoch was not checked yet
    asks OffsetForLeaderEpoch first; one already checked keeps fetching."""
    a, b = Node(tmp_path, 1), Node(tmp_path, 2)
    a.lead(1).write("x")
    fb = PartitionFetcher(b.log, 1, 1, NOW)  # truncation on fetch
    sync(fb, a)
    fb.set_truncate_on_fetch(False)
    assert fb.state is State.FETCHING  # checked by the fetches it made at this epoch
    fb.set_truncate_on_fetch(True)
    fb.become_follower(1, 2, NOW)
    assert fb.state is State.FETCHING and not fb.epoch_checked
    fb.set_truncate_on_fetch(False)
    assert fb.state is State.TRUNCATING and fb.fetch_partition(NOW) is None
    fb.set_truncate_on_fetch(True)  # back: the next fetch carries our last epoch
    assert fb.state is State.FETCHING and fb.fetch_partition(NOW).last_fetched_epoch == 1


def test_follower_takes_the_leaders_high_watermark_and_log_start(tmp_path):
    a, b = Node(tmp_path, 1), Node(tmp_path, 2)
    a.lead(0).write("x", "y", "z")
    fb = PartitionFetcher(b.log, 1, 0, NOW)
    sync(fb, a)
    assert b.log.high_watermark == a.log.high_watermark == 0  # nothing committed yet
    a.log.update_high_watermark(4)
    a.log.delete_records_before(3)
    assert step(fb, a) is Outcome.NOTHING  # caught up: no records, but the offsets move
    assert (b.log.high_watermark, b.log.log_start_offset) == (4, 3)
