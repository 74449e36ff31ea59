"""The transaction coordinator's state machine, its __transaction_state records, the
aborted-transaction index and open transactions in the producer state (no I/O beyond tmp files)."""

from __future__ import annotations

import itertools

import pytest

from kwire.log.producer_state import ProducerStateManager
from kwire.log.txn_index import AbortedTxn, TxnIndex
from kwire.protocol.errors import ErrorCode as E, KafkaError
from kwire.transactions.records import TxnLogValue, decode_key, decode_value, encode_key, encode_value
from kwire.transactions.state import MAX_EPOCH, TxnShard, TxnState

TP = ("t", 0)


def _shard():
    ids = itertools.count(1000)
    shard = TxnShard(0, max_timeout_ms=60000)

    def run(result):
        response, writes = result
        for w in writes:
            shard.replay(w.transactional_id, decode_value(encode_value(w.value)) if w.value else None)
        return response, writes

    return shard, run, lambda: next(ids)


def test_records_round_trip():
    v = TxnLogValue(7, 3, 60000, int(TxnState.ONGOING), (("a", 0), ("a", 2), ("b", 1)), 10, 5)
    assert decode_value(encode_value(v)) == v
    assert decode_key(encode_key("tx-1")) == "tx-1"
    assert decode_value(None) is None


def test_init_bumps_epoch_and_rejects_long_timeouts():
    shard, run, alloc = _shard()
    assert run(shard.init_producer_id("x", 70000, -1, -1, 1, alloc))[0][0] == E.INVALID_TRANSACTION_TIMEOUT
    assert "x" not in shard.txns
    (code, pid, epoch), _ = run(shard.init_producer_id("x", 1000, -1, -1, 1, alloc))
    assert (code, epoch) == (E.NONE, 0)
    (code, pid2, epoch), _ = run(shard.init_producer_id("x", 1000, -1, -1, 2, alloc))
    assert (code, pid2, epoch) == (E.NONE, pid, 1)
    # KIP-360: the current id/epoch bumps; an older one (a fenced instance) is fenced
    assert run(shard.init_producer_id("x", 1000, pid, 1, 3, alloc))[0] == (E.NONE, pid, 2)
    assert run(shard.init_producer_id("x", 1000, pid, 1, 3, alloc))[0][0] == E.PRODUCER_FENCED


def test_commit_flow_and_errors():
    shard, run, alloc = _shard()
    (_, pid, epoch), _ = run(shard.init_producer_id("x", 1000, -1, -1, 1, alloc))
    assert run(shard.end_txn("x", pid, epoch, True, 2))[0] == E.INVALID_TXN_STATE  # nothing begun
    assert run(shard.add_partitions("x", pid + 1, epoch, [TP], 2))[0] == E.INVALID_PRODUCER_ID_MAPPING
    assert run(shard.add_partitions("x", pid, epoch + 1, [TP], 2))[0] == E.PRODUCER_FENCED
    assert run(shard.add_partitions("nope", pid, epoch, [TP], 2))[0] == E.INVALID_PRODUCER_ID_MAPPING
    assert shard.txns["x"].state == TxnState.EMPTY  # untouched by bad input
    assert run(shard.add_partitions("x", pid, epoch, [TP], 2))[0] == E.NONE
    assert shard.verify("x", pid, epoch, TP) and not shard.verify("x", pid, epoch, ("t", 1))
    with pytest.raises(KafkaError) as e:
        shard.verify("x", pid, epoch - 1, TP)
    assert e.value.code == E.INVALID_PRODUCER_EPOCH
    code, writes = run(shard.end_txn("x", pid, epoch, True, 3))
    assert code == E.NONE and writes[0].markers.commit and writes[0].markers.partitions == (TP,)
    assert shard.txns["x"].state == TxnState.PREPARE_COMMIT
    assert run(shard.end_txn("x", pid, epoch, True, 3))[0] == E.CONCURRENT_TRANSACTIONS
    assert run(shard.init_producer_id("x", 1000, -1, -1, 3, alloc))[0][0] == E.CONCURRENT_TRANSACTIONS
    assert run(shard.end_txn("x", pid, epoch, False, 3))[0] == E.INVALID_TXN_STATE
    run((None, shard.complete("x", 4)))
    assert shard.txns["x"].state == TxnState.COMPLETE_COMMIT and shard.txns["x"].partitions == ()
    assert run(shard.end_txn("x", pid, epoch, True, 5))[0] == E.NONE  # a retry


def test_fencing_an_ongoing_transaction_aborts_it_with_a_bumped_epoch():
    shard, run, alloc = _shard()
    (_, pid, epoch), _ = run(shard.init_producer_id("x", 1000, -1, -1, 1, alloc))
    run(shard.add_partitions("x", pid, epoch, [TP], 2))
    (code, _, _), writes = run(shard.init_producer_id("x", 1000, -1, -1, 3, alloc))
    assert code == E.CONCURRENT_TRANSACTIONS
    assert writes[0].markers == (False, pid, epoch + 1, (TP,), 0)
    assert shard.txns["x"].state == TxnState.PREPARE_ABORT
    assert run(shard.end_txn("x", pid, epoch, True, 3))[0] == E.PRODUCER_FENCED
    run((None, shard.complete("x", 4)))
    (code, pid2, epoch2), _ = run(shard.init_producer_id("x", 1000, -1, -1, 5, alloc))
    assert (code, pid2, epoch2) == (E.NONE, pid, epoch + 2)


def test_a_write_that_did_not_replicate_is_undone_and_can_be_redone():
    """The coordinator replays a write at once and undoes it when it does not become durable
    (Kafka resets the pending state): EndTxn's retry finds Ongoing again, not a PrepareCommit
    whose markers nobody sends (CONCURRENT_TRANSACTIONS for good)."""
    shard, run, alloc = _shard()
    (_, pid, epoch), _ = run(shard.init_producer_id("x", 1000, -1, -1, 1, alloc))
    run(shard.add_partitions("x", pid, epoch, [TP], 2))
    code, writes = shard.end_txn("x", pid, epoch, True, 3)
    undo = shard.apply(writes)
    assert (code, shard.txns["x"].state) == (E.NONE, TxnState.PREPARE_COMMIT)
    assert shard.end_txn("x", pid, epoch, True, 4) == (E.CONCURRENT_TRANSACTIONS, [])
    shard.undo(undo)
    assert shard.txns["x"].state == TxnState.ONGOING and shard.txns["x"].partitions == (TP,)
    code, writes = shard.end_txn("x", pid, epoch, True, 5)  # the client's retry
    assert code == E.NONE and writes[0].markers.partitions == (TP,)
    # a later write to the id (durable or not) is left alone: its own outcome decides
    undo = shard.apply(writes)
    shard.apply(shard.complete("x", 6))
    shard.undo(undo)
    assert shard.txns["x"].state == TxnState.COMPLETE_COMMIT
    # a new id's first write undone: the id is unknown again
    undo = shard.apply(shard.init_producer_id("y", 1000, -1, -1, 7, alloc)[1])
    shard.undo(undo)
    assert "y" not in shard.txns


def test_timeout_and_expiration():
    shard, run, alloc = _shard()
    (_, pid, epoch), _ = run(shard.init_producer_id("x", 1000, -1, -1, 0, alloc))
    run(shard.add_partitions("x", pid, epoch, [TP], 10))
    assert shard.timed_out(500) == []
    writes = shard.timed_out(1011)
    assert len(writes) == 1 and writes[0].markers == (False, pid, epoch + 1, (TP,), 0)
    run((None, writes))
    run((None, shard.complete("x", 1100)))
    assert shard.expired(1200, 1000) == []
    run((None, shard.expired(2100, 1000)))
    assert "x" not in shard.txns
    assert shard.preparing() == []


def test_producer_state_tracks_open_transactions(tmp_path):
    ps = ProducerStateManager(str(tmp_path), 60000)
    ps.replay(1, 0, 0, 4, 10, 14, 0, transactional=True)
    ps.replay(2, 0, 0, 0, 15, 15, 0, transactional=True)
    ps.replay(1, 0, 5, 9, 16, 20, 0, transactional=True)
    assert ps.first_unstable_offset() == 10
    assert ps.end_txn(1, 0, 21) == 10
    assert ps.first_unstable_offset() == 10  # closed, but its marker is not below the HW yet
    assert ps.first_open_offset() == 15
    ps.on_high_watermark(22)
    assert ps.first_unstable_offset() == 15
    ps.take_snapshot(22)
    again = ProducerStateManager(str(tmp_path), 60000)
    assert again.load_latest_snapshot(22) == 22
    assert again.first_unstable_offset() == 15  # open transactions survive restarts
    assert again.end_txn(2, 1, 23) == 15 and again.first_unstable_offset() == 15
    again.on_high_watermark(23)
    assert again.first_unstable_offset() == 15  # the marker at 23 is not below an HW of 23
    again.on_high_watermark(24)
    assert again.first_unstable_offset() is None


def test_producer_state_fences_markers_of_an_older_coordinator(tmp_path):
    """Kafka's appendEndTxnMarker checks: the producer epoch first, then the coordinator epoch
    against the last marker's (an unknown producer counts as -1 for both)."""
    ps = ProducerStateManager(str(tmp_path), 60000)

    def refused(pid, epoch, coordinator_epoch):
        with pytest.raises(KafkaError) as e:
            ps.check_end_txn(pid, epoch, coordinator_epoch)
        return e.value.code

    assert refused(9, 0, -5) == E.TRANSACTION_COORDINATOR_FENCED  # below the empty entry's -1
    ps.check_end_txn(9, 0, -1)
    ps.replay(1, 2, 0, 1, 10, 11, 0, transactional=True)
    assert ps.producers[1].coordinator_epoch == -1  # no marker yet
    ps.check_end_txn(1, 2, 4)
    assert ps.end_txn(1, 2, 12, coordinator_epoch=4, timestamp=77) == 10
    assert (ps.producers[1].coordinator_epoch, ps.producers[1].last_timestamp) == (4, 77)
    ps.check_end_txn(1, 2, 4)  # the same coordinator again (a resent marker)
    ps.check_end_txn(1, 3, 5)  # a newer one
    assert refused(1, 2, 3) == E.TRANSACTION_COORDINATOR_FENCED
    assert refused(1, 1, 9) == E.INVALID_PRODUCER_EPOCH  # the epoch is checked first
    assert refused(1, 1, 3) == E.INVALID_PRODUCER_EPOCH
    ps.end_txn(1, 2, 13)  # an unreadable marker: the known coordinator epoch stays
    assert ps.producers[1].coordinator_epoch == 4
    ps.take_snapshot(14)  # the snapshot keeps it (the format always had the field)
    again = ProducerStateManager(str(tmp_path), 60000)
    assert again.load_latest_snapshot(14) == 14
    assert again.producers[1].coordinator_epoch == 4
    with pytest.raises(KafkaError) as e:
        again.check_end_txn(1, 2, 3)
    assert e.value.code == E.TRANSACTION_COORDINATOR_FENCED


def test_producer_state_transactions_v2_marker_must_be_above_the_epoch(tmp_path):
    """Kafka's checkProducerEpoch for a marker with transaction version 2: the coordinator
    bumped the epoch, so a marker at the epoch of the open transaction is refused
    (INVALID_PRODUCER_EPOCH, as a lower one), one above it accepted; once the transaction
    has ended, the same marker again is a retry (KAFKA-19999) and passes; before v2 the
    equal epoch is the normal case."""
    ps = ProducerStateManager(str(tmp_path), 60000)

    def refused(pid, epoch, tv, coordinator_epoch=0):
        with pytest.raises(KafkaError) as e:
            ps.check_end_txn(pid, epoch, coordinator_epoch, tv)
        return e.value.code

    ps.replay(1, 4, 0, 1, 10, 11, 0, transactional=True)  # open transaction at epoch 4
    assert refused(1, 4, 2) == E.INVALID_PRODUCER_EPOCH   # equal: a late marker of the old rule
    assert refused(1, 3, 2) == E.INVALID_PRODUCER_EPOCH
    assert refused(1, 3, 0) == E.INVALID_PRODUCER_EPOCH
    ps.check_end_txn(1, 4, 0, 0)                          # TV0/TV1: the transaction's own epoch
    ps.check_end_txn(1, 4, 0, 1)
    ps.check_end_txn(1, 5, 0, 2)                          # the bumped epoch
    assert ps.end_txn(1, 5, 12, coordinator_epoch=0) == 10
    assert (ps.producers[1].epoch, ps.ongoing) == (5, {})
    ps.check_end_txn(1, 5, 0, 2)                          # the same marker again: a retry
    assert ps.end_txn(1, 5, 13, coordinator_epoch=0) == -1
    assert refused(1, 4, 2) == E.INVALID_PRODUCER_EPOCH   # below stays refused, even ended
    assert refused(1, 5, 2, coordinator_epoch=-3) == E.TRANSACTION_COORDINATOR_FENCED  # still checked
    ps.replay(1, 5, 0, 0, 14, 14, 0, transactional=True)  # the next transaction at epoch 5
    assert refused(1, 5, 2) == E.INVALID_PRODUCER_EPOCH   # now a late marker, not a retry
    ps.check_end_txn(1, 6, 0, 2)
    ps.check_end_txn(7, 0, -1, 2)                         # unknown producer: epoch -1, none open


def test_markers_carry_the_transactions_client_version():
    """The coordinator sends the transaction's client version with its markers: 2 for EndTxn
    v5 and for fencing a v2 transaction, 0 for a v1 client, also when resent after a load."""
    shard, run, alloc = _shard()
    (_, pid, epoch), _ = run(shard.init_producer_id("v2", 1000, -1, -1, 1, alloc))
    run(shard.add_partitions("v2", pid, epoch, [TP], 2, client_version=2))
    _, writes = run(shard.end_txn_v2("v2", pid, epoch, True, 3, alloc))
    assert writes[0].markers == (True, pid, epoch + 1, (TP,), 2)
    assert [w.markers.transaction_version for w in shard.preparing()] == [2]
    run((None, shard.complete("v2", 4)))
    run(shard.add_partitions("v2", pid, epoch + 1, [TP], 5, client_version=2))
    (code, _, _), writes = run(shard.init_producer_id("v2", 1000, -1, -1, 6, alloc))
    assert code == E.CONCURRENT_TRANSACTIONS
    assert writes[0].markers == (False, pid, epoch + 2, (TP,), 2)
    # a v2 transaction open at MAX_EPOCH - 1: fencing it still bumps (its marker must be above)
    run((None, shard.complete("v2", 7)))
    shard.txns["v2"].producer_epoch = MAX_EPOCH - 1
    run(shard.add_partitions("v2", pid, MAX_EPOCH - 1, [TP], 8, client_version=2))
    _, writes = run(shard.init_producer_id("v2", 1000, -1, -1, 9, alloc))
    assert writes[0].markers == (False, pid, MAX_EPOCH, (TP,), 2)
    run((None, shard.complete("v2", 10)))
    (code, pid2, epoch2), _ = run(shard.init_producer_id("v2", 1000, -1, -1, 11, alloc))
    assert code == E.NONE and pid2 != pid and epoch2 == 0
    (_, pid1, epoch1), _ = run(shard.init_producer_id("v1", 1000, -1, -1, 1, alloc))
    run(shard.add_partitions("v1", pid1, epoch1, [TP], 2))
    _, writes = run(shard.end_txn("v1", pid1, epoch1, False, 3))
    assert writes[0].markers.transaction_version == 0


def test_txn_index_persists_truncates_and_answers_ranges(tmp_path):
    idx = TxnIndex(str(tmp_path))
    idx.add(AbortedTxn(1, 0, 5, 0), 0)
    idx.add(AbortedTxn(2, 3, 9, 0), 0)
    idx.add(AbortedTxn(3, 12, 20, 12), 10)
    idx.add(AbortedTxn(3, 12, 20, 12), 10)  # the same marker again: ignored
    assert [a.producer_id for a in idx.aborted_between(6, 12)] == [2]
    assert [a.producer_id for a in idx.aborted_between(0, 100)] == [1, 2, 3]
    again = TxnIndex(str(tmp_path))
    again.load([0, 10], 100)
    assert again.entries == idx.entries
    again.truncate(9)
    assert [a.producer_id for a in again.entries] == [1]
    third = TxnIndex(str(tmp_path))
    third.load([0], 100)  # segment 10 is gone: its file is removed
    assert [a.producer_id for a in third.entries] == [1]
    assert not (tmp_path / f"{10:020d}.txnindex").exists()
