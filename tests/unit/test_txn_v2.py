"""Transactions v2 (KIP-890 part 2) in the coordinator's state machine and records: implicit
adds, the epoch bump per transaction, epoch overflow (a new producer id), retries and fencing,
TransactionLogValue v1's tagged fields (no I/O)."""

from __future__ import annotations

import itertools

from kwire.protocol.errors import ErrorCode as E
from kwire.transactions.records import TxnLogValue, decode_value, encode_value
from kwire.transactions.state import MAX_EPOCH, TxnShard, TxnState

TP, TP2 = ("t", 0), ("t", 1)


def _shard():
    ids = itertools.count(1000)
    shard = TxnShard(0, max_timeout_ms=60000)
    encoded = []

    def run(result):
        response, writes = result
        for w in writes:
            data = encode_value(w.value) if w.value else None
            encoded.append(data)
            shard.replay(w.transactional_id, decode_value(data))
        return response, writes

    return shard, run, lambda: next(ids), encoded


def _complete(shard, run, tid="x"):
    return run((None, shard.complete(tid, 9)))


def test_log_value_v1_tagged_fields_round_trip_and_v0_stays_v0():
    v = TxnLogValue(7, 3, 60000, int(TxnState.ONGOING), (("a", 0), ("a", 2), ("b", 1)), 10, 5)
    assert encode_value(v)[:2] == b"\x00\x00"  # a v1 client's id keeps Kafka's version 0
    w = v._replace(prev_producer_id=6, next_producer_id=8, client_version=2)
    data = encode_value(w)
    assert data[:2] == b"\x00\x01" and decode_value(data) == w
    assert decode_value(encode_value(v, version=1)) == v  # v1 without tags: the defaults
    empty = v._replace(partitions=(), client_version=2)
    assert decode_value(encode_value(empty)) == empty


def test_implicit_add_then_end_txn_bumps_the_epoch_and_markers_use_it():
    shard, run, alloc, encoded = _shard()
    (_, pid, epoch), _ = run(shard.init_producer_id("x", 1000, -1, -1, 1, alloc))
    assert run(shard.add_partitions("x", pid, epoch, [TP, TP2], 2, client_version=2))[0] == E.NONE
    md = shard.txns["x"]
    assert (md.state, md.client_version, md.partitions) == (TxnState.ONGOING, 2, (TP, TP2))
    assert encoded[-1][:2] == b"\x00\x01"
    resp, writes = run(shard.end_txn_v2("x", pid, epoch, True, 3, alloc))
    assert resp == (E.NONE, pid, epoch + 1)
    m = writes[0].markers
    assert (m.commit, m.producer_id, m.producer_epoch, m.partitions) == (True, pid, epoch + 1, (TP, TP2))
    assert shard.txns["x"].state == TxnState.PREPARE_COMMIT
    # the producer's next transaction (new epoch) before the markers are done: retriable
    assert run(shard.add_partitions("x", pid, epoch + 1, [TP], 4, client_version=2))[0] == E.CONCURRENT_TRANSACTIONS
    # an EndTxn retry (old epoch) while the markers are written, then once complete
    assert run(shard.end_txn_v2("x", pid, epoch, True, 4, alloc))[0][0] == E.CONCURRENT_TRANSACTIONS
    _complete(shard, run)
    assert run(shard.end_txn_v2("x", pid, epoch, True, 5, alloc))[0] == (E.NONE, pid, epoch + 1)
    assert run(shard.end_txn_v2("x", pid, epoch, False, 5, alloc))[0][0] == E.PRODUCER_FENCED
    assert (shard.txns["x"].state, shard.txns["x"].producer_epoch) == (TxnState.COMPLETE_COMMIT, epoch + 1)
    # the next transaction at the bumped epoch; the old epoch is fenced
    assert run(shard.add_partitions("x", pid, epoch, [TP], 6, client_version=2))[0] == E.PRODUCER_FENCED
    assert run(shard.add_partitions("x", pid, epoch + 1, [TP], 6, client_version=2))[0] == E.NONE
    resp, writes = run(shard.end_txn_v2("x", pid, epoch + 1, False, 7, alloc))
    assert resp == (E.NONE, pid, epoch + 2) and writes[0].markers.producer_epoch == epoch + 2


def test_abort_with_nothing_added_bumps_the_epoch_without_markers():
    shard, run, alloc, _ = _shard()
    (_, pid, epoch), _ = run(shard.init_producer_id("x", 1000, -1, -1, 1, alloc))
    resp, writes = run(shard.end_txn_v2("x", pid, epoch, False, 2, alloc))
    assert resp == (E.NONE, pid, epoch + 1) and writes[0].markers.partitions == ()
    _complete(shard, run)
    assert shard.txns["x"].state == TxnState.COMPLETE_ABORT
    assert run(shard.end_txn_v2("x", pid + 1, epoch + 1, True, 3, alloc))[0][0] == E.INVALID_PRODUCER_ID_MAPPING
    assert run(shard.end_txn_v2("x", pid, epoch + 5, True, 3, alloc))[0][0] == E.PRODUCER_FENCED
    assert run(shard.end_txn_v2("nobody", pid, epoch, True, 3, alloc))[0][0] == E.INVALID_PRODUCER_ID_MAPPING


def test_epoch_overflow_moves_to_a_new_producer_id():
    shard, run, alloc, encoded = _shard()
    (_, pid, _e), _ = run(shard.init_producer_id("x", 1000, -1, -1, 1, alloc))
    md = shard.txns["x"]
    top = MAX_EPOCH - 1
    shard.replay("x", md.value(producer_epoch=top, client_version=2))
    assert run(shard.add_partitions("x", pid, top, [TP], 2, client_version=2))[0] == E.NONE
    resp, writes = run(shard.end_txn_v2("x", pid, top, True, 3, alloc))
    new_pid = resp[1]
    assert resp == (E.NONE, new_pid, 0) and new_pid != pid
    assert (writes[0].markers.producer_id, writes[0].markers.producer_epoch) == (pid, MAX_EPOCH)
    assert shard.txns["x"].next_producer_id == new_pid
    _complete(shard, run)
    md = shard.txns["x"]
    assert (md.producer_id, md.producer_epoch, md.prev_producer_id, md.next_producer_id) == (new_pid, 0, pid, -1)
    assert decode_value(encoded[-1]).prev_producer_id == pid
    # a retry of that EndTxn with the old id and epoch succeeds with the new ones
    assert run(shard.end_txn_v2("x", pid, top, True, 4, alloc))[0] == (E.NONE, new_pid, 0)
    assert run(shard.add_partitions("x", new_pid, 0, [TP], 5, client_version=2))[0] == E.NONE


def test_fenced_v2_producer_cannot_commit_and_its_abort_is_a_retry():
    shard, run, alloc, _ = _shard()
    (_, pid, epoch), _ = run(shard.init_producer_id("x", 1000, -1, -1, 1, alloc))
    run(shard.add_partitions("x", pid, epoch, [TP], 2, client_version=2))
    # a new instance: the ongoing transaction is aborted with a bumped epoch
    assert run(shard.init_producer_id("x", 1000, -1, -1, 3, alloc))[0][0] == E.CONCURRENT_TRANSACTIONS
    assert run(shard.end_txn_v2("x", pid, epoch, True, 4, alloc))[0][0] == E.PRODUCER_FENCED
    _complete(shard, run)
    # its own abort is taken as a retry of the abort that fenced it (as after a timeout)
    assert run(shard.end_txn_v2("x", pid, epoch, False, 4, alloc))[0] == (E.NONE, pid, epoch + 1)
    (_, pid2, epoch2), _ = run(shard.init_producer_id("x", 1000, -1, -1, 5, alloc))
    assert (pid2, epoch2) == (pid, epoch + 2)
    assert run(shard.end_txn_v2("x", pid, epoch, True, 6, alloc))[0][0] == E.PRODUCER_FENCED
    assert run(shard.add_partitions("x", pid, epoch, [TP], 6, client_version=2))[0] == E.PRODUCER_FENCED
