"""Record-level produce validation: poison batches with a correct CRC, both walkers.

Every poison batch here is built by hand and carries a valid CRC-32C, so it
passes the header checks and only the record walk can catch it: compressed
garbage, a compression bit on uncompressed bytes, a record count that lies
(up to 2^31-1), flipped and truncated record bytes, offset deltas out of
order, a zip bomb, keyless records on a compacted topic, record timestamps out
of bounds, transactional batches. Each validator test runs with the C walker
(``kwire.records._scan``) and the pure-Python one; the differential tests feed
both the same inputs (hand-made, mutated by Hypothesis, random) and demand the
same answer, layout included, and that whatever the validator accepts decodes.
"""

from __future__ import annotations

import array
import struct

import pytest
from crc32c import crc32c
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kwire.log import validate as validate_mod
from kwire.log.config import LogConfig
from kwire.log.validate import AppendOrigin, RecordValidationError, validate_records
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records import batch, scan
from kwire.records.builder import build_batch, encode_record
from kwire.records.compression import GZIP, LZ4, NONE, SNAPPY, ZSTD, compress
from kwire.records.control import build_end_txn_batch
from kwire.records.decode import decode_batch
from kwire.records.errors import CorruptRecordError
from kwire.records.varint import encode_varint
from mutations import mutate, mutation_ops
from fuzz_budget import examples  # full budgets in the suite, a tenth in --quick

CODECS = [NONE, GZIP, SNAPPY, LZ4, ZSTD]
NOW = 1_700_000_000_000
IMPLS = ["python"] + (["c"] if scan.c_scan_records is not None else [])
# the 1,500-example fuzz runs took 220-320 s each in a quick tier on a 2-core machine at load ~40
# (2026-11-28): the default 300 s of pytest-timeout is a hang guard, too tight for them there
pytestmark = pytest.mark.timeout(900)

SAMPLE = [
    (b"key", b"value", [("h1", b"a"), ("h2", None)], NOW),
    (None, b"x" * 50, [], NOW + 1),
    (b"", None, [("", b"")], NOW - 1),
]


def test_c_walker_is_built_here():
    """The machine the tests run on has gcc: the extension must be there and chosen."""
    assert scan.c_scan_records is not None, "run `pip install -e .` to build kwire.records._scan"


@pytest.fixture(params=IMPLS)
def impl(request, monkeypatch):
    fn = scan.c_scan_records if request.param == "c" else scan.py_scan_records
    monkeypatch.setattr(validate_mod, "scan_records", fn)
    check = scan.c_check_batch if request.param == "c" else scan.py_check_batch
    monkeypatch.setattr(validate_mod, "check_batch", check)
    return request.param


def _fix(buf: bytearray, count: int | None = None, last_offset_delta: int | None = None) -> bytes:
    struct.pack_into(">i", buf, batch.BATCH_LENGTH, len(buf) - batch.LOG_OVERHEAD)
    if count is not None:
        struct.pack_into(">i", buf, batch.RECORDS_COUNT, count)
    if last_offset_delta is not None:
        struct.pack_into(">i", buf, batch.LAST_OFFSET_DELTA, last_offset_delta)
    struct.pack_into(">I", buf, batch.CRC, crc32c(bytes(buf[batch.ATTRIBUTES:])))
    return bytes(buf)


def _with_section(section: bytes, count: int, codec: int = NONE, **kw) -> bytes:
    """A batch around ``section`` with a consistent header and a correct CRC."""
    head = bytearray(build_batch([(b"k", b"v", [], NOW)], **kw)[: batch.HEADER_SIZE])
    attrs = struct.unpack_from(">h", head, batch.ATTRIBUTES)[0] & ~0x07 | codec
    struct.pack_into(">h", head, batch.ATTRIBUTES, attrs)
    return _fix(head + section, count, max(count - 1, 0))


def _err(buf, config=None, **kw) -> KafkaError:
    with pytest.raises(KafkaError) as ei:
        validate_records(bytearray(buf), config or LogConfig(), NOW, **kw)
    return ei.value


def _ok(buf, config=None, **kw):
    return validate_records(bytearray(buf), config or LogConfig(), NOW, **kw)


RECS = b"".join(encode_record(i, 0, b"k%d" % i, b"v" * 10) for i in range(3))


# -- the valid path --------------------------------------------------------------------


@pytest.mark.parametrize("codec", CODECS)
def test_valid_batches_pass_for_every_codec(impl, codec):
    spans = _ok(build_batch(SAMPLE, compression=codec, now_ms=NOW))
    assert len(spans) == 1 and spans[0].header.records_count == 3


def test_coordinator_control_batch_passes(impl):
    buf = build_end_txn_batch(1, producer_id=7, producer_epoch=0, coordinator_epoch=0,
                              timestamp=NOW)
    _ok(buf, origin=AppendOrigin.COORDINATOR)


def test_record_timestamp_minus_one_is_exempt(impl):
    cfg = LogConfig(message_timestamp_before_max_ms=1000)
    # base NOW, second record at -1 (delta -1 - NOW): exempt, as in Kafka
    section = encode_record(0, 0, b"a", b"1") + encode_record(1, -1 - NOW, b"b", b"2")
    _ok(_with_section(section, 2), cfg)


# -- poison batches: framing ----------------------------------------------------------


@pytest.mark.parametrize("codec", [GZIP, SNAPPY, LZ4, ZSTD])
def test_compressed_garbage(impl, codec):
    e = _err(_with_section(b"\x13\x37" * 40, 3, codec))
    assert e.code == ErrorCode.INVALID_RECORD


@pytest.mark.parametrize("codec", [GZIP, SNAPPY, LZ4, ZSTD])
def test_compression_bit_on_uncompressed_records(impl, codec):
    e = _err(_with_section(RECS, 3, codec))
    assert e.code == ErrorCode.INVALID_RECORD


@pytest.mark.parametrize("count", [4, 1000, 2**31 - 1])
def test_records_count_too_high(impl, count):
    """The header claims more records than there are (2^31-1 once burned 2^31 offsets)."""
    e = _err(_with_section(RECS, count))
    assert e.code == ErrorCode.INVALID_RECORD and "ends after 3" in e.message


@pytest.mark.parametrize("codec", CODECS)
def test_records_count_too_low(impl, codec):
    section = RECS if codec == NONE else compress(codec, RECS)
    e = _err(_with_section(section, 2, codec))
    assert e.code == ErrorCode.INVALID_RECORD and "left after 2 records" in e.message


def test_last_offset_delta_disagreeing_with_records_count(impl):
    buf = bytearray(_with_section(RECS, 3))
    e = _err(_fix(buf, last_offset_delta=5))
    assert e.code == ErrorCode.INVALID_RECORD


@pytest.mark.parametrize("deltas", [(0, 2, 1), (1, 2, 3), (0, 0, 1), (0, 1, 5)])
def test_offset_deltas_must_run_0_to_n_minus_1(impl, deltas):
    section = b"".join(encode_record(d, 0, b"k", b"v") for d in deltas)
    e = _err(_with_section(section, 3))
    assert e.code == ErrorCode.INVALID_RECORD and "offset delta" in e.message


@pytest.mark.parametrize(
    "section, what",
    [
        (RECS[:-1], "truncated last record"),
        (RECS[: len(RECS) // 2], "cut in the middle"),
        (b"\xff" * 12, "length varint never ends"),
        (encode_varint(100) + RECS[1:], "length past the end"),
        (encode_varint(0) + RECS, "zero length"),
        (encode_varint(-3) + RECS[1:], "negative length"),
        # key length 200 inside a 9-byte record
        (encode_varint(9) + b"\x00\x00\x00" + encode_varint(200) + b"k\x02v\x00\x00", "key too long"),
        (encode_varint(7) + b"\x00\x00\x00\x05\x02v\x00", "key length -3"),
        (encode_varint(8) + b"\x00\x00\x00\x02k\x02v\x01", "negative header count"),
        (encode_varint(10) + b"\x00\x00\x00\x02k\x02v\x02\x01\x01", "null header key"),
        (encode_varint(12) + b"\x00\x00\x00\x02k\x02v\x02\x02\xff\x01\x00", "header key not UTF-8"),
        (encode_varint(9) + b"\x00\x00\x00\x02k\x02v\x00\x00", "byte left inside the record"),
        (encode_varint(20) + b"\x00" + b"\xff" * 11 + b"\x00" * 8, "timestamp varlong too long"),
    ],
)
def test_broken_framing(impl, section, what):
    count = 3 if section.startswith(RECS[:3]) else 1
    e = _err(_with_section(section, count))
    assert e.code == ErrorCode.INVALID_RECORD, what


@pytest.mark.parametrize("codec", [GZIP, ZSTD, LZ4, SNAPPY])
def test_compressed_truncated_records(impl, codec):
    e = _err(_with_section(compress(codec, RECS[:-3]), 3, codec))
    assert e.code == ErrorCode.INVALID_RECORD


def test_flipped_record_bytes_with_recomputed_crc(impl):
    """Flip each byte of the records section in turn (CRC recomputed): refuse or decode."""
    good = build_batch(SAMPLE, now_ms=NOW)
    refused = 0
    for i in range(batch.HEADER_SIZE, len(good)):
        buf = bytearray(good)
        buf[i] ^= 0x80
        buf = _fix(buf)
        try:
            _ok(buf)
        except KafkaError as e:
            assert e.code in (ErrorCode.INVALID_RECORD, ErrorCode.INVALID_TIMESTAMP), e
            refused += 1
            continue
        decode_batch(buf)  # accepted means readable
    assert refused >= 20  # the framing bytes; flips inside values and keys are just data


def test_zip_bomb_is_refused(impl, monkeypatch):
    monkeypatch.setattr(validate_mod, "MAX_DECOMPRESSED_SIZE", 10_000)
    section = encode_record(0, 0, b"k", b"\x00" * 20_000)
    e = _err(_with_section(compress(ZSTD, section), 1, ZSTD))
    assert e.code == ErrorCode.INVALID_RECORD and "exceed" in e.message
    _ok(_with_section(compress(ZSTD, encode_record(0, 0, b"k", b"\x00" * 5000)), 1, ZSTD))


# -- records Kafka's validateRecord rejects with record_errors --------------------------


@pytest.mark.parametrize("codec", [NONE, ZSTD])
def test_compacted_topic_needs_keys(impl, codec):
    cfg = LogConfig(cleanup_policy="compact,delete")
    buf = build_batch([(b"a", b"1", [], NOW), (None, b"2", [], NOW), (b"c", b"3", [], NOW),
                       (None, b"4", [], NOW)], compression=codec, now_ms=NOW)
    e = _err(buf, cfg)
    assert isinstance(e, RecordValidationError) and e.code == ErrorCode.INVALID_RECORD
    assert [i for i, _ in e.record_errors] == [1, 3]
    assert e.record_errors[0][1] == "Compacted topic cannot accept message without key"
    assert e.message.startswith("One or more records have been rejected due to 2 record errors")
    assert "RecordError(batchIndex=1, message='Compacted topic" in e.message
    _ok(build_batch([(b"a", b"1", [], NOW)], compression=codec, now_ms=NOW), cfg)
    _ok(buf)  # a delete-only topic takes keyless records


@pytest.mark.parametrize("codec", [NONE, LZ4])
def test_record_timestamps_are_checked_one_by_one(impl, codec):
    cfg = LogConfig(message_timestamp_before_max_ms=60_000, message_timestamp_after_max_ms=60_000)
    # the header's base and max timestamps are in range; record 1 is too old, record 3 too new
    items = [(b"a", b"", [], NOW), (b"b", b"", [], NOW - 120_000), (b"c", b"", [], NOW),
             (b"d", b"", [], NOW + 120_000)]
    buf = bytearray(build_batch(items, compression=codec, now_ms=NOW))
    struct.pack_into(">q", buf, batch.MAX_TIMESTAMP, NOW)
    e = _err(_fix(buf), cfg)
    assert isinstance(e, RecordValidationError) and e.code == ErrorCode.INVALID_TIMESTAMP
    assert e.message == "One or more records have been rejected due to invalid timestamp"
    assert [i for i, _ in e.record_errors] == [1, 3]
    assert e.record_errors[0][1].startswith(f"Timestamp {NOW - 120_000} of message with offset 1 "
                                            f"is out of range. The timestamp should be within "
                                            f"[{NOW - 60_000}, {NOW + 60_000}]")
    _ok(buf, LogConfig(message_timestamp_type="LogAppendTime"))  # not checked there


def test_key_error_comes_before_timestamp_error(impl):
    cfg = LogConfig(cleanup_policy="compact", message_timestamp_after_max_ms=1000)
    buf = bytearray(build_batch([(None, b"", [], NOW + 10_000), (b"k", b"", [], NOW + 10_000)],
                                now_ms=NOW))
    e = _err(buf, cfg)
    assert e.code == ErrorCode.INVALID_TIMESTAMP  # any timestamp error decides the code
    assert [m.split()[0] for _, m in e.record_errors] == ["Compacted", "Timestamp"]


# -- transactions ---------------------------------------------------------------------


def test_transactional_batch_needs_a_verified_transaction(impl):
    buf = build_batch(SAMPLE, producer_id=7, producer_epoch=0, base_sequence=0,
                      is_transactional=True, now_ms=NOW)
    e = _err(buf)
    assert e.code == ErrorCode.INVALID_TXN_STATE
    assert e.message == "Partition was not added to the transaction"
    seen = []
    _ok(buf, txn_verified=lambda pid, epoch: seen.append((pid, epoch)) or True)
    assert seen == [(7, 0)]
    assert _err(buf, txn_verified=lambda pid, epoch: False).code == ErrorCode.INVALID_TXN_STATE


# -- the walker: both implementations, same answers --------------------------------------


def _outcome(fn, data, count, with_layout=True):
    layout = array.array("i", [0] * (scan.LAYOUT_FIELDS * count)) if with_layout and 0 <= count < 10_000 \
        else None
    try:
        return ("ok", fn(data, count, layout), None if layout is None else layout.tolist())
    except CorruptRecordError:
        return ("corrupt",)


def _same(data, count):
    py = _outcome(scan.py_scan_records, data, count)
    c = _outcome(scan.c_scan_records, data, count)
    assert py == c, (bytes(data)[:80], count)
    if scan.IMPLEMENTATION == "c":
        assert _outcome(scan.scan_records, data, count) == c
    return py


def needs_c(test):
    """The test environment builds the C walker (pip install -e . with gcc): its absence fails."""
    return test


def test_c_walker_is_built():
    assert scan.c_scan_records is not None, (
        "kwire/records/_scan.c was not built: `pip install -e .` needs a C compiler")


@needs_c
def test_walker_layout_and_summary():
    data = build_batch(SAMPLE, now_ms=NOW)[batch.HEADER_SIZE:]
    out = _same(data, 3)
    assert out[1] == (-1, 1, 1)  # deltas from NOW: 0, +1, -1; one null key
    lay = out[2]
    first = lay[:6]
    assert data[first[2]:first[2] + first[3]] == b"key"
    assert data[first[4]:first[4] + first[5]] == b"value"
    assert lay[6 + 3] == -1 and lay[12 + 5] == -1  # null key, null value
    assert lay[1] == lay[6] and lay[13] == len(data)  # records tile the section
    for buf in (bytes(data), bytearray(data), memoryview(data)):
        assert scan.c_scan_records(buf, 3) == scan.py_scan_records(buf, 3) == (-1, 1, 1)


@needs_c
@pytest.mark.parametrize(
    "data, count",
    [(b"", 0), (b"", 1), (b"\x00", 0), (RECS, 3), (RECS, 2), (RECS, 4), (RECS, -1),
     (b"\xff" * 20, 1), (encode_varint(2**31 - 1) + b"\x00" * 4, 1),
     (encode_varint(11) + b"\x00" + b"\xff" * 9 + b"\x7f", 1),  # varlong beyond int64
     (encode_varint(11) + b"\x00" + b"\xff" * 9 + b"\x01", 1),  # varlong at the int64 edge
     (encode_varint(7) + b"\x00\x00\x00" + b"\x80\x80\x80\x80\x10" + b"\x00", 1)],
)
def test_walker_edge_cases_agree(data, count):
    _same(data, count)


@needs_c
def test_walker_rejects_bad_layout():
    for layout in (array.array("i", [0] * 5), array.array("q", [0] * 18), b"\x00" * 100):
        with pytest.raises((ValueError, TypeError, BufferError)):
            scan.c_scan_records(RECS, 3, layout)
        with pytest.raises((ValueError, TypeError, BufferError)):
            scan.py_scan_records(RECS, 3, layout)


_ops = mutation_ops(400)


@needs_c
@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=_ops)
def test_fuzz_walkers_agree_on_mutated_sections(ops):
    """Each mutation checked with every record count around the true one (3): Hypothesis's own
    drawing costs far more than a walk, so one draw serves all three (600 draws, 1,800 walks)."""
    data = mutate(build_batch(SAMPLE, now_ms=NOW)[batch.HEADER_SIZE:], ops)
    for count in (2, 3, 4):
        _same(data, count)


@needs_c
@settings(max_examples=examples(300), deadline=None)
@given(data=st.binary(max_size=120))
def test_fuzz_walkers_agree_on_random_bytes(data):
    """Each byte string walked with every count from -1 to 8 (300 draws, 3,000 walks)."""
    for count in range(-1, 9):
        _same(data, count)


@pytest.mark.parametrize("codec", CODECS)
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=_ops)
def test_fuzz_accepted_means_decodable(codec, ops):
    """Record-level mutations with the CRC recomputed: refused with a code, or decodable; each
    mutation under both cleanup policies (150 draws, 300 checks per codec)."""
    good = build_batch(SAMPLE, compression=codec, now_ms=NOW)
    section = mutate(good[batch.HEADER_SIZE:], ops)
    buf = _fix(bytearray(good[: batch.HEADER_SIZE]) + section)
    for compacted in (False, True):
        _accepted_means_decodable(buf, LogConfig(cleanup_policy="compact" if compacted else "delete"))


def _accepted_means_decodable(buf, cfg):
    results = []
    for fn, check in ((scan.py_scan_records, scan.py_check_batch),
                      (scan.c_scan_records, scan.c_check_batch)):
        if fn is None:
            continue
        validate_mod.scan_records = fn
        validate_mod.check_batch = check
        try:
            _ok(buf, cfg)
            results.append(0)
        except KafkaError as e:
            assert e.code in (ErrorCode.INVALID_RECORD, ErrorCode.INVALID_TIMESTAMP,
                              ErrorCode.CORRUPT_MESSAGE), e
            results.append(int(e.code))
        finally:
            validate_mod.scan_records = scan.scan_records
            validate_mod.check_batch = scan.check_batch
    assert len(set(results)) == 1, results
    if results[0] == 0:
        decoded = decode_batch(buf)
        assert len(decoded.records) == decoded.header.records_count
        assert [r.offset_delta for r in decoded.records] == list(range(len(decoded.records)))


# -- check_batch: the produce path's one call per uncompressed batch -----------------------


def _check_outcome(fn, buf, pos):
    out = fn(buf, pos, batch.BatchHeader)
    if out is not None:
        assert type(out[0]) is batch.BatchHeader
    return out


def _validate_outcome(buf, cfg, check):
    """validate_records with ``check`` as its fast path: spans or the error (code, message)."""
    saved = validate_mod.check_batch
    validate_mod.check_batch = check
    try:
        return ("ok", validate_records(bytearray(buf), cfg, NOW, origin=AppendOrigin.COORDINATOR))
    except KafkaError as e:
        return ("error", int(e.code), e.message)
    finally:
        validate_mod.check_batch = saved


def _same_check(buf, pos=0, cfg=None):
    """C and Python check_batch agree; and validate_records answers the same whether the fast
    path took the batch or the full checks did (the fast path changes nothing but the cost)."""
    py = _check_outcome(scan.py_check_batch, buf, pos)
    if scan.c_check_batch is not None:
        for view in (bytes(buf), bytearray(buf), memoryview(bytes(buf))):
            assert _check_outcome(scan.c_check_batch, view, pos) == py, (bytes(buf)[:80], pos)
    if pos == 0:
        cfg = cfg or LogConfig()
        slow = _validate_outcome(buf, cfg, lambda *a: None)
        assert _validate_outcome(buf, cfg, scan.py_check_batch) == slow
        if scan.c_check_batch is not None:
            assert _validate_outcome(buf, cfg, scan.c_check_batch) == slow
    return py


def test_check_batch_takes_a_whole_plain_batch():
    good = build_batch(SAMPLE, now_ms=NOW)
    out = _same_check(good)
    assert out is not None and out[0] == batch.read_header(good) and out[1:] == (-1, 1, 1)
    two = good + build_batch(SAMPLE[:1], now_ms=NOW)
    assert _same_check(two, len(good))[0] == batch.read_header(two, len(good))


@pytest.mark.parametrize("case", ["compressed", "bad_crc", "short", "magic1", "length_small",
                                  "length_past_end", "records_count", "pos_past_end", "pos_negative"])
def test_check_batch_leaves_the_rest_to_the_full_checks(case):
    good = bytearray(build_batch(SAMPLE, now_ms=NOW))
    pos = 0
    if case == "compressed":
        good = bytearray(build_batch(SAMPLE, compression=GZIP, now_ms=NOW))
    elif case == "bad_crc":
        good[-1] ^= 1
    elif case == "short":
        good = good[:60]
    elif case == "magic1":
        good[batch.MAGIC] = 1
    elif case == "length_small":
        struct.pack_into(">i", good, batch.BATCH_LENGTH, 48)
    elif case == "length_past_end":
        struct.pack_into(">i", good, batch.BATCH_LENGTH, len(good))
    elif case == "records_count":
        good = bytearray(_fix(good, count=4, last_offset_delta=3))
    elif case == "pos_past_end":
        pos = len(good) + 1
    elif case == "pos_negative":
        pos = -1
    assert _same_check(bytes(good), pos) is None


@needs_c
@settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=mutation_ops(260))
def test_fuzz_check_batch_twins_agree(ops):
    """Mutations anywhere in the batch (header too), each with and without a recomputed CRC and
    under both cleanup policies (500 draws, 2,000 checks)."""
    raw = mutate(build_batch(SAMPLE, now_ms=NOW), ops)
    fixed = bytearray(raw)
    if len(fixed) > batch.ATTRIBUTES:
        struct.pack_into(">I", fixed, batch.CRC, crc32c(bytes(fixed[batch.ATTRIBUTES:])))
    for buf in (raw, bytes(fixed)):
        for policy in ("delete", "compact"):
            _same_check(buf, 0, LogConfig(cleanup_policy=policy))


def test_env_switch_forces_pure_python():
    import os
    import subprocess
    import sys

    code = "from kwire.records import scan; print(scan.IMPLEMENTATION)"
    env = {**os.environ, "KWIRE_NO_EXTENSIONS": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "python", out.stderr
    env["KWIRE_NO_EXTENSIONS"] = "0"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == ("c" if scan.c_scan_records is not None else "python"), out.stderr
