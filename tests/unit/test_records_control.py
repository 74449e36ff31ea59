"""COMMIT/ABORT control batches."""

import pytest

from kwire.records import batch
from kwire.records.control import (
    ABORT,
    COMMIT,
    EndTxnMarker,
    build_end_txn_batch,
    control_type,
    parse_end_txn_marker,
)
from kwire.records.decode import decode_batch
from kwire.records.errors import CorruptRecordError


@pytest.mark.parametrize("ctype", [ABORT, COMMIT])
def test_end_txn_batch(ctype):
    buf = build_end_txn_batch(
        ctype, producer_id=77, producer_epoch=2, coordinator_epoch=5, base_offset=40, timestamp=9
    )
    d = decode_batch(buf)
    h = d.header
    assert h.is_control and h.is_transactional
    assert (h.producer_id, h.producer_epoch, h.base_sequence) == (77, 2, -1)
    assert h.records_count == 1 and h.base_offset == 40
    (rec,) = d.records
    assert rec.key == b"\x00\x00\x00" + bytes([ctype])
    assert rec.value == b"\x00\x00\x00\x00\x00\x05"
    assert parse_end_txn_marker(rec.key, rec.value) == EndTxnMarker(ctype, 5)
    assert batch.crc_is_valid(buf, 0, len(buf))


def test_bad_markers():
    with pytest.raises(CorruptRecordError):
        control_type(b"\x00")
    with pytest.raises(CorruptRecordError):
        control_type(None)
    assert control_type(b"\x00\x00\x00\x05") == 5
    with pytest.raises(CorruptRecordError):
        parse_end_txn_marker(b"\x00\x00\x00\x05", b"\x00" * 6)
    with pytest.raises(CorruptRecordError):
        parse_end_txn_marker(b"\x00\x00\x00\x01", b"\x00")
