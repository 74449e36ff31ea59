"""A clean start leaves each log's producer snapshot unread until the state is first used.

``PartitionLog.open`` defers the snapshot at the LEO (every clean shutdown writes one);
the first use of ``producer_state`` reads it. These tests check that the first use after
a clean restart answers as an eager load would (sequence checks, open transactions and
the LSO, aborted transactions, follower appends, truncation), and that start-up and the
broker's per-partition bookkeeping (config, high watermark, expiry, clean close) do not
read it.
"""

from __future__ import annotations

import os
import struct

import pytest

from kwire.log.config import LogConfig
from kwire.log.partition_log import PartitionLog
from kwire.log.producer_state import list_snapshots, snapshot_path
from kwire.log.validate import AppendOrigin
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records.builder import build_batch
from kwire.records.control import ABORT, build_end_txn_batch

NOW = 1_700_000_000_000


def open_log(path, **kw) -> PartitionLog:
    return PartitionLog.open(str(path), "t", 0, LogConfig(), NOW, **kw)


def reopen(path, lg: PartitionLog) -> PartitionLog:
    """Close cleanly and open again as a clean start does (recovery point = LEO)."""
    leo, hw = lg.log_end_offset, lg.high_watermark
    lg.close()
    return open_log(path, recovery_point=leo, high_watermark=hw, clean_shutdown=True,
                    existing=True)


def idem(pid, seq, n=2, epoch=0, txn=False) -> bytearray:
    return bytearray(build_batch([(None, b"v")] * n, producer_id=pid, producer_epoch=epoch,
                                 base_sequence=seq, is_transactional=txn, now_ms=NOW))


def append(lg, batch, **kw):
    r = lg.append_as_leader(batch, 0, NOW, txn_verified=lambda p, e: True, **kw)
    lg.update_high_watermark(lg.log_end_offset)
    return r


def abort(lg, pid, epoch=0):
    b = build_end_txn_batch(ABORT, producer_id=pid, producer_epoch=epoch, coordinator_epoch=0,
                            timestamp=NOW)
    return append(lg, bytearray(b), origin=AppendOrigin.COORDINATOR)


def written(tmp_path) -> PartitionLog:
    """Producer 1 idempotent (seq 0-3), producer 2's transaction aborted, producer 3's open."""
    lg = open_log(tmp_path)
    append(lg, idem(1, 0))                # 0-1
    append(lg, idem(1, 2))                # 2-3
    append(lg, idem(2, 0, txn=True))      # 4-5
    abort(lg, 2)                          # 6
    append(lg, idem(3, 0, txn=True))      # 7-8, open: the LSO stays at 7
    return lg


def answers(lg: PartitionLog):
    return (lg.log_end_offset, lg.high_watermark, lg.fetch_offsets(), lg.last_stable_offset,
            lg.aborted_transactions(0, lg.log_end_offset),
            sorted((pid, e.epoch, e.last_seq, e.current_txn_first_offset)
                   for pid, e in lg.producer_state.producers.items()))


def test_clean_start_defers_the_snapshot_and_first_use_gives_the_same_answers(tmp_path):
    lg = written(tmp_path)
    before = answers(lg)
    assert before[3] == 7
    lg = reopen(tmp_path, lg)
    assert not lg.producer_state_loaded  # the snapshot at the LEO was not read
    assert answers(lg) == before
    assert lg.producer_state_loaded
    # the sequence checks of producer 1 continue from the snapshot: a retry is a duplicate,
    # a gap is refused, the next batch is accepted
    assert append(lg, idem(1, 2)).duplicate
    with pytest.raises(KafkaError) as e:
        append(lg, idem(1, 9))
    assert e.value.code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert append(lg, idem(1, 4)).base_offset == 9


def test_the_first_request_after_a_clean_start_reads_the_snapshot_itself(tmp_path):
    # no fetch first: the producer's own retry is the first use
    lg = written(tmp_path)
    lg = reopen(tmp_path, lg)
    assert not lg.producer_state_loaded
    r = append(lg, idem(1, 2))
    assert r.duplicate and r.base_offset == 2


def test_bookkeeping_of_every_partition_does_not_read_the_snapshot(tmp_path):
    lg = written(tmp_path)
    lg = reopen(tmp_path, lg)
    snap = snapshot_path(lg.dir, lg.log_end_offset)
    st = os.stat(snap)
    lg.update_config(LogConfig(producer_id_expiration_ms=5))
    lg.update_high_watermark(lg.log_end_offset)
    assert lg.expire_producers(NOW + 10**9) == 0
    lg.close()  # unchanged: the snapshot found at the LEO still holds the state
    assert not lg.producer_state_loaded
    st2 = os.stat(snap)
    assert (st2.st_ino, st2.st_mtime_ns) == (st.st_ino, st.st_mtime_ns)
    # the state read later takes the config set meanwhile
    lg = open_log(tmp_path, recovery_point=9, high_watermark=9, clean_shutdown=True,
                  existing=True)
    lg.update_config(LogConfig(producer_id_expiration_ms=5))
    assert lg.producer_state.expiration_ms == 5
    assert lg.expire_producers(NOW + 10**9) == 2  # not 3: an open transaction stays


def test_plain_appends_before_first_use_get_a_new_snapshot_at_close(tmp_path):
    lg = written(tmp_path)
    lg = reopen(tmp_path, lg)
    append(lg, bytearray(build_batch([(None, b"plain")], now_ms=NOW)))  # no producer id
    assert not lg.producer_state_loaded and lg.log_end_offset == 10
    lg = reopen(tmp_path, lg)
    assert 10 in list_snapshots(lg.dir)
    assert append(lg, idem(1, 2)).duplicate
    assert lg.last_stable_offset == 7


def test_follower_append_before_first_use_applies_its_batches_once(tmp_path):
    lg = written(tmp_path)
    leader_batches = bytearray()
    for b in (idem(1, 4), idem(1, 6)):  # the leader's offsets 9-10, 11-12
        leader_batches += b
    lg = reopen(tmp_path, lg)
    # give the follower batches the leader's offsets
    struct.pack_into(">q", leader_batches, 0, 9)
    struct.pack_into(">q", leader_batches, len(leader_batches) // 2, 11)
    assert not lg.producer_state_loaded
    res = lg.append_as_follower(leader_batches, NOW)
    assert (res.first_offset, res.last_offset) == (9, 12)
    e = lg.producer_state.producers[1]
    assert e.last_seq == 7 and len(e.batches) >= 2
    assert lg.producer_state.check(1, 0, 6, 7) is not None  # the last one is a duplicate


def test_truncation_before_first_use_rebuilds_the_state_at_the_new_end(tmp_path):
    lg = written(tmp_path)
    lg = reopen(tmp_path, lg)
    assert not lg.producer_state_loaded
    lg.truncate_to(4)  # producer 1's two batches remain, the transactions go
    assert lg.log_end_offset == 4
    assert sorted(lg.producer_state.producers) == [1]
    assert lg.producer_state.producers[1].last_seq == 3
    assert lg.last_stable_offset == lg.high_watermark == 4
    lg = reopen(tmp_path, lg)
    assert append(lg, idem(1, 2)).duplicate


def test_an_unusable_deferred_snapshot_is_rebuilt_from_the_log(tmp_path):
    lg = written(tmp_path)
    before = answers(lg)
    lg = reopen(tmp_path, lg)
    with open(snapshot_path(lg.dir, 9), "r+b") as f:  # damaged after the start
        f.seek(10)
        f.write(b"\xff\xff")
    assert answers(lg) == before


def plain(n=1) -> bytearray:
    return bytearray(build_batch([(None, b"plain")] * n, now_ms=NOW))


def test_a_never_read_state_of_a_small_log_needs_no_new_snapshot_at_close(tmp_path):
    from kwire.log import LogManager

    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)
    new = mgr.get_or_create("t", 0, LogConfig(), NOW)  # a new log: an empty state, unread
    assert not new.producer_state_loaded
    append(new, plain())
    idem_log = mgr.get_or_create("t", 1, LogConfig(), NOW)
    append(idem_log, idem(1, 0))
    mgr.close()
    # the plain log's state was never read and is empty: no snapshot file at all; the
    # idempotent one's was read: a snapshot at its LEO
    assert list_snapshots(str(tmp_path / "t-0")) == [] and list_snapshots(str(tmp_path / "t-1")) == [2]
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)  # clean: from the summary
    a, b = mgr.get("t", 0), mgr.get("t", 1)
    append(a, plain())
    append(b, plain())  # plain appends after the snapshot at 2
    assert not a.producer_state_loaded and not b.producer_state_loaded
    mgr.close()
    assert list_snapshots(str(tmp_path / "t-0")) == [] and list_snapshots(str(tmp_path / "t-1")) == [2]
    for clean, leo, last_seq in ((True, 3, 0), (False, 5, 2)):
        if not clean:
            os.unlink(tmp_path / ".kwire_cleanshutdown")  # a crash: the state from the files
        mgr = LogManager(str(tmp_path), NOW, max_open_files=64)
        a, b = mgr.get("t", 0), mgr.get("t", 1)
        assert (a.log_end_offset, b.log_end_offset) == (2, leo)
        assert a.producer_state.producers == {}
        assert append(b, idem(1, last_seq)).duplicate  # producer 1's sequence is known
        assert append(b, idem(1, last_seq + 2)).base_offset == leo
        mgr.close()


def test_a_log_past_the_summary_size_gets_its_snapshot_at_close(tmp_path):
    lg = open_log(tmp_path)
    assert not lg.producer_state_loaded
    for _ in range(10):
        append(lg, bytearray(build_batch([(None, b"x" * 1000)], now_ms=NOW)))
    assert lg.active_segment.size > 8192 and not lg.producer_state_loaded
    lg.close()
    assert list_snapshots(lg.dir) == [10]
