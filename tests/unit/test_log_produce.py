"""Produce-path checks: Kafka's error codes for bad batches, idempotent producers."""

from __future__ import annotations

import os
import struct

import pytest

from kwire.log import AppendOrigin, LogConfig, PartitionLog
from kwire.log.producer_state import INT32_MAX, ProducerStateManager, list_snapshots
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records import batch as B
from kwire.records.builder import build_batch

NOW = 1_700_000_000_000
E = ErrorCode


def mk(n=3, ts=NOW, value=b"v", **kw) -> memoryview:
    recs = [(b"k", value, [], ts + i) for i in range(n)]
    return memoryview(bytearray(build_batch(recs, now_ms=ts, **kw)))


def idem(pid, epoch, seq, n=2) -> memoryview:
    return mk(n, producer_id=pid, producer_epoch=epoch, base_sequence=seq)


def open_log(path, **cfg) -> PartitionLog:
    return PartitionLog.open(str(path), "t", 0, LogConfig(**cfg), NOW)


def code_of(lg, buf, now=NOW) -> ErrorCode:
    with pytest.raises(KafkaError) as e:
        lg.append_as_leader(buf, 0, now)
    return e.value.code


# -- validation -------------------------------------------------------------------
def test_validation_error_codes(tmp_path):
    lg = open_log(tmp_path, max_message_bytes=500, segment_bytes=10_000,
                  message_timestamp_before_max_ms=60_000)
    good = mk()
    assert len(lg.validate(good, NOW)) == 1

    bad_crc = mk()
    bad_crc[-1] ^= 0xFF
    assert code_of(lg, bad_crc) == E.CORRUPT_MESSAGE
    assert code_of(lg, mk()[:-3]) == E.CORRUPT_MESSAGE  # truncated batch
    assert code_of(lg, mk()[:40]) == E.CORRUPT_MESSAGE  # truncated header
    assert code_of(lg, memoryview(bytearray(bytes(mk()) + b"\0" * 5))) == E.CORRUPT_MESSAGE
    short_len = mk()
    struct.pack_into(">i", short_len, B.BATCH_LENGTH, 20)
    assert code_of(lg, short_len) == E.CORRUPT_MESSAGE
    assert code_of(lg, memoryview(bytearray())) == E.INVALID_RECORD  # no batch at all
    for magic, code in ((0, E.INVALID_RECORD), (1, E.INVALID_RECORD), (7, E.CORRUPT_MESSAGE)):
        old = mk()
        old[B.MAGIC] = magic
        assert code_of(lg, old) == code
    assert code_of(lg, mk(value=b"x" * 600)) == E.MESSAGE_TOO_LARGE
    assert code_of(lg, memoryview(bytearray(bytes(mk()) + bytes(mk())))) == E.INVALID_RECORD
    assert code_of(lg, mk(base_offset=5)) == E.INVALID_RECORD  # producers must not set offsets
    assert code_of(lg, mk(last_offset_delta=7)) == E.INVALID_RECORD  # count mismatch
    assert code_of(lg, mk(is_control=True)) == E.INVALID_RECORD
    assert code_of(lg, mk(producer_id=4, producer_epoch=0)) == E.INVALID_RECORD  # no sequence
    assert code_of(lg, mk(ts=NOW - 61_000)) == E.INVALID_TIMESTAMP  # before.max.ms
    assert code_of(lg, mk(ts=NOW + 3_600_001)) == E.INVALID_TIMESTAMP  # after.max.ms (1 h)
    assert lg.log_end_offset == 0 and lg.size_bytes == 0  # nothing was appended

    small = open_log(tmp_path / "s", segment_bytes=100)
    assert code_of(small, mk(value=b"y" * 100)) == E.RECORD_LIST_TOO_LARGE


def test_coordinator_origin_allows_several_batches(tmp_path):
    lg = open_log(tmp_path)
    two = memoryview(bytearray(bytes(mk(2)) + bytes(mk(3))))
    r = lg.append_as_leader(two, 1, NOW, origin=AppendOrigin.COORDINATOR)
    assert (r.base_offset, r.last_offset) == (0, 4)
    assert B.read_header(two, len(two) - len(mk(3))).base_offset == 2


# -- idempotent producers ---------------------------------------------------------
def test_duplicate_returns_original_offsets_and_appends_nothing(tmp_path):
    lg = open_log(tmp_path)
    first = [lg.append_as_leader(idem(9, 0, seq), 0, NOW) for seq in range(0, 14, 2)]
    size, leo = lg.size_bytes, lg.log_end_offset
    for i in (2, 6):  # any of the last five batches
        again = lg.append_as_leader(idem(9, 0, i * 2), 0, NOW)
        assert again.duplicate and (again.base_offset, again.last_offset) == \
            (first[i].base_offset, first[i].last_offset)
    assert (lg.size_bytes, lg.log_end_offset) == (size, leo)
    assert code_of(lg, idem(9, 0, 0)) == E.OUT_OF_ORDER_SEQUENCE_NUMBER  # older than five back


def test_sequence_gap_and_epochs(tmp_path):
    lg = open_log(tmp_path)
    lg.append_as_leader(idem(1, 3, 0), 0, NOW)
    assert code_of(lg, idem(1, 3, 5)) == E.OUT_OF_ORDER_SEQUENCE_NUMBER  # gap
    assert code_of(lg, idem(1, 2, 2)) == E.INVALID_PRODUCER_EPOCH  # fenced epoch
    assert code_of(lg, idem(1, 4, 2)) == E.OUT_OF_ORDER_SEQUENCE_NUMBER  # new epoch not at 0
    assert not lg.append_as_leader(idem(1, 4, 0), 0, NOW).duplicate
    assert code_of(lg, idem(1, 3, 2)) == E.INVALID_PRODUCER_EPOCH
    # unknown producer: any starting sequence is accepted (Kafka >= 2.5, KIP-360)
    assert lg.append_as_leader(idem(2, 0, 42), 0, NOW).base_offset == 4
    assert lg.append_as_leader(idem(2, 0, 44), 0, NOW).base_offset == 6


def test_sequence_wraps_at_int32_max(tmp_path):
    lg = open_log(tmp_path)
    lg.append_as_leader(idem(5, 0, INT32_MAX - 1, n=2), 0, NOW)  # sequences MAX-1, MAX
    assert not lg.append_as_leader(idem(5, 0, 0), 0, NOW).duplicate
    wrapped = idem(5, 0, INT32_MAX, n=3)  # MAX, 0, 1 within one batch
    lg2 = open_log(tmp_path / "b")
    lg2.append_as_leader(wrapped, 0, NOW)
    assert lg2.append_as_leader(idem(5, 0, 2), 0, NOW).base_offset == 3


def _producer_log(path):
    lg = open_log(path, segment_bytes=400)
    results = [lg.append_as_leader(idem(7, 1, seq), 0, NOW) for seq in range(0, 20, 2)]
    lg.append_as_leader(idem(8, 0, 0), 0, NOW)
    assert len(lg.segments) > 2
    return lg, results


def test_state_rebuilt_after_clean_close(tmp_path):
    lg, results = _producer_log(tmp_path)
    lg.close()
    snaps = list_snapshots(lg.dir)
    assert snaps[-1] == lg.log_end_offset and len(snaps) <= 2
    lg = open_log(tmp_path, segment_bytes=400)
    dup = lg.append_as_leader(idem(7, 1, 18), 0, NOW)
    assert dup.duplicate and dup.base_offset == results[-1].base_offset
    assert code_of(lg, idem(7, 1, 30)) == E.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert code_of(lg, idem(7, 0, 20)) == E.INVALID_PRODUCER_EPOCH
    assert not lg.append_as_leader(idem(8, 0, 2), 0, NOW).duplicate


@pytest.mark.parametrize("snapshots", ["kept", "deleted"])
def test_state_rebuilt_after_crash(tmp_path, snapshots):
    lg, results = _producer_log(tmp_path)  # no close(): as after kill -9
    if snapshots == "deleted":  # rebuild from the start of the log
        for f in os.listdir(lg.dir):
            if f.endswith(".snapshot"):
                os.unlink(os.path.join(lg.dir, f))
    lg = open_log(tmp_path, segment_bytes=400)
    dup = lg.append_as_leader(idem(7, 1, 16), 0, NOW)
    assert dup.duplicate and dup.base_offset == results[-2].base_offset
    assert lg.append_as_leader(idem(7, 1, 20), 0, NOW).base_offset == 22


def test_producer_expiry(tmp_path):
    lg = open_log(tmp_path, producer_id_expiration_ms=1000)
    lg.append_as_leader(idem(3, 0, 0), 0, NOW)
    assert lg.expire_producers(NOW + 999) == 0
    assert lg.expire_producers(NOW + 1001) == 1
    # forgotten: a retry is no longer recognised, any sequence starts it afresh
    assert not lg.append_as_leader(idem(3, 0, 0), 0, NOW).duplicate


def test_snapshot_round_trip_and_corruption(tmp_path):
    ps = ProducerStateManager(str(tmp_path), 1000)
    ps.replay(1, 2, 0, 4, 100, 104, NOW)
    ps.replay(1, 2, 5, 9, 105, 109, NOW + 1)
    ps.replay(2**40, 0, 7, 7, 110, 110, NOW + 2)
    path = ps.take_snapshot(111)
    other = ProducerStateManager(str(tmp_path), 1000)
    assert other.load_latest_snapshot(200) == 111
    assert {p: (e.epoch, list(e.batches)) for p, e in other.producers.items()} == \
        {p: (e.epoch, list(e.batches)) for p, e in ps.producers.items()}
    data = bytearray(open(path, "rb").read())
    data[-1] ^= 1
    open(path, "wb").write(data)
    assert other.load_latest_snapshot(200) is None and not os.path.exists(path)


def test_single_batch_append_keeps_producer_state_of_every_batch_kind(tmp_path):
    # the 1-batch append path skips the producer-state loop only for plain batches
    # (producer id -1): idempotent, transactional and marker batches must still reach it
    from kwire.records.control import COMMIT, build_end_txn_batch

    lg = open_log(tmp_path)
    lg.append_as_leader(mk(1), 0, NOW)  # plain: no producer entry
    assert lg.producer_state.producers == {}
    first = lg.append_as_leader(idem(7, 0, 0), 0, NOW)  # idempotent: offsets 1-2
    assert lg.producer_state.producers[7].last_seq == 1
    retry = lg.append_as_leader(idem(7, 0, 0), 0, NOW)  # the same batch again: a duplicate
    assert (retry.duplicate, retry.base_offset, lg.log_end_offset) == (True, first.base_offset, 3)
    txn = memoryview(bytearray(build_batch([(None, b"t")], producer_id=8, producer_epoch=0,
                                           base_sequence=0, is_transactional=True, now_ms=NOW)))
    lg.append_as_leader(txn, 0, NOW, txn_verified=lambda pid, epoch: True)  # offset 3, open
    lg.update_high_watermark(lg.log_end_offset)
    assert lg.producer_state.first_open_offset() == 3 and lg.last_stable_offset == 3
    end = build_end_txn_batch(COMMIT, producer_id=8, producer_epoch=0, coordinator_epoch=0,
                              timestamp=NOW)
    lg.append_as_leader(bytearray(end), 0, NOW, origin=AppendOrigin.COORDINATOR)  # closes it
    lg.update_high_watermark(lg.log_end_offset)
    assert lg.producer_state.first_open_offset() is None and lg.last_stable_offset == 5
