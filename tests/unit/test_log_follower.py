"""Follower appends and truncation of a PartitionLog (replication's log side).

``append_as_follower`` keeps the leader's offsets, epochs and bytes and is
validated as Kafka validates REPLICATION appends; ``truncate_to`` and
``truncate_fully_and_start_at`` are all or nothing under every storage fault
they can meet (kwire.log.faults), like the append paths.
"""

from __future__ import annotations

import errno
import os

import pytest

from kwire.log import PartitionLog, faults
from kwire.log.leader_epoch import assigned
from kwire.log.partition_log import OffsetsOutOfOrder, UnexpectedAppendOffset
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records import batch as B
from kwire.records.builder import build_batch
from test_log_faults import (
    SCENARIOS,
    assert_files_match_memory,
    log_bytes,
    memory,
    open_log,
    reopened_values,
    values,
)

NOW = 1_700_000_000_000
PID = 7000


@pytest.fixture(autouse=True)
def _no_faults_left():
    yield
    faults.disarm()


def mk(seq: int, n: int = 2, *, compression: int = 0, pid: int = PID) -> memoryview:
    recs = [(b"k%d" % (seq + i), b"v%d" % (seq + i), [], NOW + seq + i) for i in range(n)]
    return memoryview(bytearray(build_batch(recs, producer_id=pid, producer_epoch=0,
                                            base_sequence=seq, now_ms=NOW,
                                            compression=compression)))


def leader_with(path, epochs=(0, 0, 1, 1, 1, 2), **cfg) -> PartitionLog:
    lg = open_log(path, **cfg)
    seq = 0
    for i, e in enumerate(epochs):
        lg.append_as_leader(mk(seq, 1 + i % 3, compression=i % 2), e, NOW)
        seq += 1 + i % 3
    lg.update_high_watermark(lg.log_end_offset)
    return lg


def replicate(leader: PartitionLog, follower: PartitionLog, max_bytes: int = 1 << 20,
              **kw) -> int:
    """Fetch from the leader at the follower's LEO until caught up; returns the fetch count."""
    fetches = 0
    while follower.log_end_offset < leader.log_end_offset:
        res = leader.read(follower.log_end_offset, max_bytes, max_offset=leader.log_end_offset)
        got = follower.append_as_follower(res.region.read(), NOW, **kw)
        assert got.valid_bytes == res.size and got.first_offset == res.first_batch_offset
        fetches += 1
    return fetches


def test_follower_copy_is_byte_identical_with_the_leaders_epochs_and_producers(tmp_path):
    leader = leader_with(tmp_path / "a", segment_bytes=400, index_interval_bytes=50)
    follower = open_log(tmp_path / "b", segment_bytes=400, index_interval_bytes=50)
    assert replicate(leader, follower, max_bytes=150) > 1
    assert log_bytes(follower) == log_bytes(leader)
    assert follower.log_end_offset == leader.log_end_offset
    assert follower.leader_epochs.entries == leader.leader_epochs.entries == [(0, 0), (1, 3), (2, 9)]
    assert memory(follower)["producers"] == memory(leader)["producers"]
    assert follower.high_watermark == 0  # the follower's HW is the leader's word, not the LEO
    assert_files_match_memory(follower)
    assert reopened_values(follower.dir, tmp_path) == values(leader)
    # the follower can take over as leader where the copy ends: the producer continues
    r = follower.append_as_leader(mk(12), 3, NOW)  # 1+2+3+1+2+3 records so far
    assert r.base_offset == leader.log_end_offset and not r.duplicate


def test_incomplete_last_batch_is_left_for_the_next_fetch(tmp_path):
    follower = open_log(tmp_path)
    b1, b2 = bytes(mk(0)), bytes(mk(2))
    data = bytearray(b1 + b2)
    B.set_base_offset(data, len(b1), 2)
    B.set_base_offset(data, 0, 0)
    got = follower.append_as_follower(bytes(data[:len(b1) + 30]), NOW)
    assert (got.first_offset, got.last_offset, got.valid_bytes) == (0, 1, len(b1))
    assert follower.log_end_offset == 2
    nothing = follower.append_as_follower(bytes(data[len(b1):len(b1) + 11]), NOW)
    assert nothing.valid_bytes == 0 and follower.log_end_offset == 2


def _batches(*specs):
    """Wire bytes of batches (base offset, record count, epoch), as a leader stores them."""
    out = bytearray()
    for base, n, epoch in specs:
        b = bytearray(mk(base, n))
        B.set_base_offset(b, 0, base)
        B.set_partition_leader_epoch(b, 0, epoch)
        out += b
    return out


def test_follower_validation_is_kafkas_replication_validation(tmp_path):
    follower = open_log(tmp_path, max_message_bytes=100)
    big = _batches((0, 20, 0))
    assert len(big) > 100  # max.message.bytes is the leader's business, not the follower's
    assert follower.append_as_follower(big, NOW).last_offset == 19
    corrupt = _batches((20, 2, 0))
    corrupt[-1] ^= 0xFF
    with pytest.raises(KafkaError) as e:
        follower.append_as_follower(corrupt, NOW)
    assert e.value.code == ErrorCode.CORRUPT_MESSAGE
    with pytest.raises(UnexpectedAppendOffset) as e:  # starts below the LEO
        follower.append_as_follower(_batches((19, 3, 0)), NOW)
    assert (e.value.first_offset, e.value.last_offset) == (19, 21)
    with pytest.raises(OffsetsOutOfOrder):
        follower.append_as_follower(_batches((20, 2, 0), (21, 2, 0)), NOW)
    assert follower.log_end_offset == 20 and memory(follower)["epochs"] == [(0, 0)]
    got = follower.append_as_follower(_batches((25, 2, 1)), NOW)  # a gap, as compaction leaves
    assert (got.first_offset, follower.log_end_offset) == (25, 27)
    assert follower.leader_epochs.entries == [(0, 0), (1, 25)]
    assert [o for o, _ in values(follower)] == list(range(20)) + [25, 26]


def test_batches_above_the_current_leader_epoch_are_dropped(tmp_path):
    """KAFKA-18723: a response from a deposed leader must not persist its newer epoch."""
    follower = open_log(tmp_path)
    got = follower.append_as_follower(_batches((0, 2, 3), (2, 2, 4), (4, 2, 3)), NOW,
                                      leader_epoch=3)
    assert (got.last_offset, got.last_leader_epoch) == (1, 3)
    assert follower.log_end_offset == 2 and follower.leader_epochs.entries == [(3, 0)]


@pytest.mark.parametrize("site", list(SCENARIOS))
def test_failed_follower_append_is_undone_and_the_next_fetch_succeeds(tmp_path, site):
    cfg = SCENARIOS[site]
    leader = leader_with(tmp_path / "a", epochs=(0, 0, 0, 1), **cfg)
    follower = open_log(tmp_path / "b", **cfg)
    # one batch, or (to reach a roll) the leader's whole first segment
    upto = leader.segments[1].base_offset if site in ("segment_create", "producer_snapshot") \
        else leader.read(0, 1).first_batch_offset + 1
    while follower.log_end_offset < upto:
        res = leader.read(follower.log_end_offset, 1, max_offset=leader.log_end_offset)
        follower.append_as_follower(res.region.read(), NOW)
    before = memory(follower)
    res = leader.read(follower.log_end_offset, 1 << 20, max_offset=leader.log_end_offset)
    faults.arm(site, errno.ENOSPC)
    with pytest.raises(KafkaError) as e:
        follower.append_as_follower(res.region.read(), NOW)
    assert e.value.code == ErrorCode.KAFKA_STORAGE_ERROR and not follower.offline
    assert memory(follower) == before
    assert_files_match_memory(follower)
    faults.disarm()
    replicate(leader, follower)
    assert log_bytes(follower) == log_bytes(leader)
    assert follower.leader_epochs.entries == leader.leader_epochs.entries
    assert reopened_values(follower.dir, tmp_path) == values(leader)


def test_epoch_cache_assign_follows_kafka():
    entries = [(0, 0), (2, 10)]
    assert assigned(entries, 2, 15) is entries  # same epoch, later start: nothing
    assert assigned(entries, 3, 20) == [(0, 0), (2, 10), (3, 20)]
    assert assigned(entries, 2, 5) == [(0, 0), (2, 5)]  # same epoch, earlier start
    assert assigned(entries, 1, 12) == [(0, 0), (1, 12)]  # an older epoch replaces newer ones
    assert assigned(entries, 4, 10) == [(0, 0), (4, 10)]  # epoch 2 never got a record
    assert assigned(entries, -1, 30) is entries


# -- truncation ----------------------------------------------------------------------------

def truncation_setup(path, **cfg):
    """A leader-like log over 3+ segments with epochs 0, 1, 2, producer snapshots on roll."""
    lg = leader_with(path, epochs=(0, 0, 0, 1, 1, 1, 1, 2, 2, 2), segment_bytes=350, **cfg)
    assert len(lg.segments) >= 3
    return lg


TRUNCATE_SITES = ["segment_delete", "leader_epoch", "truncate", "producer_snapshot"]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES], ids=errno.errorcode.get)
@pytest.mark.parametrize("site", TRUNCATE_SITES)
def test_failed_truncate_to_changes_nothing(tmp_path, site, code):
    lg = truncation_setup(tmp_path / "p", index_interval_bytes=1)
    cut = lg.segments[1].base_offset + 1  # inside the second segment: later segments go
    kept = [v for v in values(lg) if v[0] < cut]
    lg.update_high_watermark(lg.log_end_offset)
    before = memory(lg)
    hw = lg.high_watermark
    faults.arm(site, code)
    with pytest.raises(KafkaError) as e:
        lg.truncate_to(cut)
    assert e.value.code == ErrorCode.KAFKA_STORAGE_ERROR and not lg.offline
    after = memory(lg)
    if site == "producer_snapshot":  # the snapshot deletion failed: nothing else happened
        assert after == before
    else:  # snapshots above the cut are caches: deleted first, the rest is as before
        assert {k: v for k, v in after.items() if k != "snapshots"} == \
            {k: v for k, v in before.items() if k != "snapshots"}
    assert lg.high_watermark == hw
    assert_files_match_memory(lg)
    assert not [n for n in os.listdir(lg.dir) if n.endswith(".deleted")]
    faults.disarm()
    assert reopened_values(lg.dir, tmp_path) == values(lg)
    new_leo = lg.truncate_to(cut)
    assert new_leo == kept[-1][0] + 1 if kept[-1][0] + 1 <= cut else True
    assert values(lg) == [v for v in kept if v[0] < new_leo]
    assert lg.high_watermark == new_leo and lg.leader_epochs.entries == \
        [e for e in before["epochs"] if e[1] < new_leo]
    assert_files_match_memory(lg)
    assert not [n for n in os.listdir(lg.dir) if n.endswith(".deleted")]
    assert reopened_values(lg.dir, tmp_path) == values(lg)


def test_truncation_rebuilds_producer_state_at_the_cut(tmp_path):
    lg = truncation_setup(tmp_path / "p")
    cut = lg.segments[1].base_offset + 1
    new_leo = lg.truncate_to(cut)
    fresh = open_log(tmp_path / "q", segment_bytes=350)
    replicate_until = new_leo
    src = truncation_setup(tmp_path / "src")
    while fresh.log_end_offset < replicate_until:
        res = src.read(fresh.log_end_offset, 1, max_offset=replicate_until)
        fresh.append_as_follower(res.region.read(), NOW)
    assert memory(lg)["producers"] == memory(fresh)["producers"]
    # the producer's next sequence after the cut is accepted, an old one is a duplicate
    last_seq = max(b.last_seq for b in lg.producer_state.producers[PID].batches)
    r = lg.append_as_leader(mk(last_seq + 1), 3, NOW)
    assert not r.duplicate and r.base_offset == new_leo
    lg.close()
    again = open_log(tmp_path / "p", segment_bytes=350)
    assert memory(again)["producers"] == memory(lg)["producers"]


def test_truncate_to_at_the_leo_drops_an_epoch_without_records(tmp_path):
    lg = leader_with(tmp_path)
    leo = lg.log_end_offset
    lg.assign_epoch_start_offset(5, leo)  # became leader at epoch 5, deposed before appending
    assert lg.end_offset_for_epoch(2) == (2, leo)
    assert lg.truncate_to(leo) == leo
    assert lg.leader_epochs.latest_epoch == 2
    faults.arm("leader_epoch", errno.ENOSPC)
    with pytest.raises(KafkaError):
        lg.assign_epoch_start_offset(6, leo)
    assert lg.leader_epochs.latest_epoch == 2


def test_index_cut_failing_after_the_log_cut_takes_the_dir_offline(tmp_path, monkeypatch):
    lg = truncation_setup(tmp_path / "p", index_interval_bytes=1)
    failed = []
    lg.on_dir_failure = lambda d, why: failed.append(d)
    seg = lg.segments[1]

    def broken(n):
        raise OSError(errno.EIO, "injected index cut failure")

    monkeypatch.setattr(seg.offset_index, "truncate_entries", broken)
    with pytest.raises(KafkaError) as e:
        lg.truncate_to(seg.base_offset + 1)
    assert e.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert lg.offline and failed == [str(tmp_path / "p")]


@pytest.mark.parametrize("site", ["segment_delete", "segment_create", "leader_epoch",
                                  "producer_snapshot"])
def test_failed_truncate_fully_changes_nothing(tmp_path, site):
    lg = truncation_setup(tmp_path / "p")
    before = memory(lg)
    start, hw = lg.log_start_offset, lg.high_watermark
    faults.arm(site, errno.EACCES)
    with pytest.raises(KafkaError) as e:
        lg.truncate_fully_and_start_at(500)
    assert e.value.code == ErrorCode.KAFKA_STORAGE_ERROR and not lg.offline
    after = memory(lg)
    assert {k: v for k, v in after.items() if k != "snapshots"} == \
        {k: v for k, v in before.items() if k != "snapshots"}
    assert (lg.log_start_offset, lg.high_watermark) == (start, hw)
    assert_files_match_memory(lg)
    faults.disarm()
    assert lg.truncate_fully_and_start_at(500) == 500
    assert (lg.log_start_offset, lg.high_watermark, lg.log_end_offset) == (500, 500, 500)
    assert lg.leader_epochs.entries == [] and len(lg.producer_state) == 0
    assert sorted(os.listdir(lg.dir)) == ["00000000000000000500.index", "00000000000000000500.log",
                                          "00000000000000000500.timeindex",
                                          "leader-epoch-checkpoint"]
    got = lg.append_as_follower(_batches((500, 2, 4)), NOW)
    assert got.last_offset == 501 and lg.leader_epochs.entries == [(4, 500)]


def test_truncate_fully_at_the_same_base_keeps_the_new_segment(tmp_path):
    lg = leader_with(tmp_path)
    assert lg.segments[0].base_offset == 0
    lg.truncate_fully_and_start_at(0)
    got = lg.append_as_follower(_batches((0, 3, 1)), NOW)
    assert got.last_offset == 2 and [o for o, _ in values(lg)] == [0, 1, 2]
    lg.close()
    assert [o for o, _ in values(open_log(tmp_path))] == [0, 1, 2]


def test_truncate_below_the_log_start_keeps_segments_and_lowers_the_start(tmp_path):
    """Kafka: a truncation offset below the log start (but inside the first segment) keeps
    the segments and brings the log start down; below the first segment, a full restart."""
    lg = leader_with(tmp_path)  # batches [0,1) [1,3) [3,6) [6,7) [7,9) [9,12)
    lg.delete_records_before(7)
    assert lg.log_start_offset == 7
    assert lg.truncate_to(5) == 3  # the batch holding 5 starts at 3
    assert (lg.log_start_offset, lg.high_watermark, lg.log_end_offset) == (3, 3, 3)
    assert lg.leader_epochs.entries == []  # DeleteRecords had cut them to start at 7
    assert_files_match_memory(lg)


def test_offset_moves_are_reported_to_on_offsets_moved(tmp_path):
    """What feeds the fetch sessions' dirty sets: every move of the HW or the log start
    (append + HW, DeleteRecords, truncation, full truncation) calls ``on_offsets_moved``
    with the partition; an HW set to the value it has does not."""
    lg = leader_with(tmp_path / "p")
    moved = []
    lg.on_offsets_moved = lambda topic, partition: moved.append((topic, partition))
    me = (lg.topic, lg.partition)
    lg.update_high_watermark(lg.high_watermark)
    assert moved == []
    lg.append_as_leader(mk(0, pid=PID + 1), 3, NOW)
    lg.update_high_watermark(lg.log_end_offset)
    assert moved == [me]
    lg.delete_records_before(lg.log_start_offset + 1)
    assert moved == [me] * 2
    lg.truncate_to(lg.log_end_offset - 1)
    assert len(moved) >= 3 and set(moved) == {me}
    n = len(moved)
    lg.truncate_fully_and_start_at(500)
    assert len(moved) > n and (lg.high_watermark, lg.log_start_offset) == (500, 500)
    lg.close()
