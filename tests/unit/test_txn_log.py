"""Transactions in the partition log: LSO, markers, the aborted-transaction index, recovery."""

from __future__ import annotations

import os

import pytest

from kwire.log.config import LogConfig
from kwire.log.partition_log import PartitionLog
from kwire.log.validate import AppendOrigin
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records.builder import build_batch
from kwire.records.control import ABORT, COMMIT, build_end_txn_batch

NOW = 1_700_000_000_000


def open_log(path, **cfg) -> PartitionLog:
    return PartitionLog.open(str(path), "t", 0, LogConfig(**cfg), NOW)


def txn(lg, pid, seq, n=2, epoch=0):
    b = build_batch([(None, b"v")] * n, producer_id=pid, producer_epoch=epoch, base_sequence=seq,
                    is_transactional=True, now_ms=NOW)
    r = lg.append_as_leader(bytearray(b), 0, NOW, txn_verified=lambda p, e: True)
    lg.update_high_watermark(lg.log_end_offset)
    return r


def marker(lg, pid, kind, epoch=0, coordinator_epoch=0):
    b = build_end_txn_batch(kind, producer_id=pid, producer_epoch=epoch,
                            coordinator_epoch=coordinator_epoch, timestamp=NOW)
    r = lg.append_as_leader(bytearray(b), 0, NOW, origin=AppendOrigin.COORDINATOR)
    lg.update_high_watermark(lg.log_end_offset)
    return r


def test_unverified_transactional_batch_and_client_markers_are_refused(tmp_path):
    lg = open_log(tmp_path)
    b = build_batch([(None, b"v")], producer_id=1, producer_epoch=0, base_sequence=0,
                    is_transactional=True, now_ms=NOW)
    with pytest.raises(KafkaError) as e:
        lg.append_as_leader(bytearray(b), 0, NOW)
    assert e.value.code == ErrorCode.INVALID_TXN_STATE
    m = build_end_txn_batch(COMMIT, producer_id=1, producer_epoch=0, coordinator_epoch=0, timestamp=NOW)
    with pytest.raises(KafkaError) as e:
        lg.append_as_leader(bytearray(m), 0, NOW)
    assert e.value.code == ErrorCode.INVALID_RECORD
    assert lg.log_end_offset == 0


def test_a_commit_is_unstable_until_its_marker_is_below_the_high_watermark(tmp_path):
    # Kafka's unreplicatedTxns: a read_committed reader must not see a commit whose marker a
    # leader change could still lose
    lg = open_log(tmp_path)
    txn(lg, 1, 0)                      # 0-1
    b = build_end_txn_batch(COMMIT, producer_id=1, producer_epoch=0, coordinator_epoch=0, timestamp=NOW)
    lg.append_as_leader(bytearray(b), 0, NOW, origin=AppendOrigin.COORDINATOR)  # 2, HW still 2
    assert (lg.high_watermark, lg.last_stable_offset) == (2, 0)
    lg.update_high_watermark(2)
    assert lg.last_stable_offset == 0  # the marker itself is not below the HW yet
    lg.update_high_watermark(3)
    assert lg.last_stable_offset == 3
    txn(lg, 2, 0)                      # 3-4
    lg.append_as_leader(bytearray(build_end_txn_batch(ABORT, producer_id=2, producer_epoch=0,
                                                      coordinator_epoch=0, timestamp=NOW)), 0, NOW,
                        origin=AppendOrigin.COORDINATOR)  # 5
    assert lg.last_stable_offset == 3
    assert lg.truncate_to(5) == 5      # the marker lost: the transaction is open again
    assert lg.last_stable_offset == 3 and 2 in lg.producer_state.ongoing


def test_lso_markers_and_aborted_index_survive_restarts(tmp_path):
    lg = open_log(tmp_path, segment_bytes=1024)
    txn(lg, 1, 0)                      # 0-1  pid 1 (aborted later)
    txn(lg, 2, 0)                      # 2-3  pid 2 (committed later)
    assert (lg.last_stable_offset, lg.high_watermark) == (0, 4)
    marker(lg, 1, ABORT)               # 4
    assert lg.last_stable_offset == 2
    txn(lg, 1, 2, epoch=0)             # 5-6  pid 1 again: a new transaction
    marker(lg, 2, COMMIT)              # 7
    assert lg.last_stable_offset == 5
    assert [(a.producer_id, a.first_offset, a.last_offset) for a in lg.aborted_transactions(0, 8)] == \
        [(1, 0, 4)]
    assert lg.aborted_transactions(5, 8) == []
    lg.close()
    again = open_log(tmp_path, segment_bytes=1024)  # clean: snapshot + .txnindex
    assert again.last_stable_offset in (5, again.high_watermark) and 1 in again.producer_state.ongoing
    assert [(a.producer_id, a.first_offset) for a in again.aborted_transactions(0, 8)] == [(1, 0)]
    again.close()
    for name in os.listdir(tmp_path / "t-0"):  # crash-like: snapshots and index files gone
        if name.endswith((".snapshot", ".txnindex")):
            os.unlink(tmp_path / "t-0" / name)
    third = open_log(tmp_path, segment_bytes=1024)  # rebuilt from the batch headers and markers
    assert third.producer_state.ongoing == {1: 5}
    assert [(a.producer_id, a.first_offset, a.last_offset) for a in third.aborted_transactions(0, 8)] == \
        [(1, 0, 4)]
    third.truncate_to(4)               # both markers go: both transactions are open again
    assert third.aborted_transactions(0, 8) == [] and third.producer_state.ongoing == {1: 0, 2: 2}
    assert third.last_stable_offset == 0


def test_retention_takes_index_files_and_entries(tmp_path):
    lg = open_log(tmp_path, segment_bytes=300)
    txn(lg, 1, 0)
    marker(lg, 1, ABORT)
    for i in range(6):  # roll a few segments
        txn(lg, 2, 2 * i)
        marker(lg, 2, COMMIT)
    assert len(lg.txn_index) == 1 and any(n.endswith(".txnindex") for n in os.listdir(lg.dir))
    lg.delete_records_before(lg.log_end_offset)
    lg.apply_retention(NOW)
    assert len(lg.segments) < 7
    assert lg.aborted_transactions(0, lg.log_end_offset) == []
    assert len(lg.txn_index) == 0
    assert not any(n.endswith(".txnindex") for n in os.listdir(lg.dir))


def test_marker_of_an_older_coordinator_is_refused_and_the_epoch_survives_recovery(tmp_path):
    """A marker whose coordinator epoch is below the producer's last one is refused with
    TRANSACTION_COORDINATOR_FENCED before anything is written; the coordinator epoch comes
    back from the snapshot, from the markers themselves when the snapshots are gone, and
    after a truncation."""
    lg = open_log(tmp_path)
    txn(lg, 1, 0)                                   # 0-1
    marker(lg, 1, COMMIT, coordinator_epoch=3)      # 2
    txn(lg, 2, 0, epoch=1)                          # 3-4: pid 2 at epoch 1
    marker(lg, 2, COMMIT, epoch=1, coordinator_epoch=3)  # 5
    txn(lg, 1, 2)                                   # 6-7: open
    end, lso = lg.log_end_offset, lg.last_stable_offset
    assert (end, lso) == (8, 6)
    for stale in (2, -1, -5):
        with pytest.raises(KafkaError) as e:
            marker(lg, 1, COMMIT, coordinator_epoch=stale)
        assert e.value.code == ErrorCode.TRANSACTION_COORDINATOR_FENCED
    with pytest.raises(KafkaError) as e:  # a stale producer epoch is reported first
        marker(lg, 2, ABORT, epoch=0, coordinator_epoch=1)
    assert e.value.code == ErrorCode.INVALID_PRODUCER_EPOCH
    assert (lg.log_end_offset, lg.last_stable_offset) == (end, lso)  # nothing written
    assert lg.producer_state.producers[1].coordinator_epoch == 3
    assert lg.aborted_transactions(0, end) == []
    marker(lg, 1, ABORT, coordinator_epoch=3)       # 8: the same coordinator
    assert lg.last_stable_offset == 9
    lg.close()
    again = open_log(tmp_path)                      # from the snapshot
    assert again.producer_state.producers[1].coordinator_epoch == 3
    again.close()
    for name in os.listdir(tmp_path / "t-0"):
        if name.endswith(".snapshot"):
            os.unlink(tmp_path / "t-0" / name)
    third = open_log(tmp_path)                      # from the markers' values
    assert third.producer_state.producers[1].coordinator_epoch == 3
    third.truncate_to(8)                            # the ABORT goes; the COMMITs stay
    assert third.producer_state.producers[1].coordinator_epoch == 3
    assert third.producer_state.ongoing == {1: 6}
    with pytest.raises(KafkaError) as e:
        marker(third, 1, ABORT, coordinator_epoch=1)
    assert e.value.code == ErrorCode.TRANSACTION_COORDINATOR_FENCED
