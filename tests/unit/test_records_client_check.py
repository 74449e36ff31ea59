"""The produce path's one-call checks: ``check_client_batch`` and ``stamp_batch``.

``kwire.records.scan.check_client_batch`` accepts a client's one-batch payload in one call
(and, given a base offset and leader epoch, stamps an accepted one as well) and
``stamp_batch`` writes the leader's base offset and epoch and reads the header back;
both have a C and a pure-Python twin. Here: the twins agree on the same inputs (hand-made
and mutated by Hypothesis), the check never accepts what ``validate_records`` (the full
client checks) would refuse and returns the very header those checks read, and a log
appended through the fast path holds the same bytes and answers the same as one appended
through the full checks only.
"""

from __future__ import annotations

import struct

import pytest
from crc32c import crc32c
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kwire.log import partition_log as partition_log_mod
from kwire.log.config import LogConfig
from kwire.log.partition_log import PartitionLog
from kwire.log.validate import AppendOrigin, validate_records
from kwire.protocol.errors import KafkaError
from kwire.records import batch
from kwire.records import scan
from kwire.records.batch import BatchHeader
from kwire.records.builder import build_batch
from fuzz_budget import examples
from mutations import mutate, mutation_ops

NOW = 1_700_000_000_000
SAMPLE = [(b"key", b"value", [("h1", b"a")], NOW), (b"k2", b"x" * 50, [], NOW + 1)]
CONFIGS = [LogConfig(), LogConfig(cleanup_policy="compact"),
           LogConfig(message_timestamp_type="LogAppendTime"),
           LogConfig(max_message_bytes=150, message_timestamp_before_max_ms=1000,
                     message_timestamp_after_max_ms=1000)]
TWINS = [scan.py_check_client_batch] + ([scan.c_check_client_batch]
                                        if scan.c_check_client_batch is not None else [])
pytestmark = pytest.mark.timeout(600)


def test_c_twins_are_built():
    assert scan.c_check_client_batch is not None and scan.c_stamp_batch is not None, (
        "kwire/records/_scan.c was not built with check_client_batch / stamp_batch")


def _limits(cfg: LogConfig, now: int = NOW) -> tuple:
    before, after, max_size, compacted = cfg.client_batch_limits
    return now - before, now + after, max_size, compacted


def _full(buf, cfg: LogConfig):
    """What the full client checks say: the one header, or the error code."""
    try:
        spans = validate_records(bytearray(buf), cfg, NOW, AppendOrigin.CLIENT)
    except KafkaError as e:
        return int(e.code)
    return spans[0].header if len(spans) == 1 and spans[0].pos == 0 else spans


def _agree(buf, cfg: LogConfig):
    """Both twins answer alike for every buffer type; an accepted batch is one the full checks
    accept with the same header. Returns the answer."""
    args = _limits(cfg)
    py = scan.py_check_client_batch(bytes(buf), BatchHeader, *args)
    for fn in TWINS:
        for view in (bytes(buf), bytearray(buf), memoryview(bytes(buf))):
            out = fn(view, BatchHeader, *args)
            assert out == py, (fn, bytes(buf)[:70])
            assert out is None or type(out) is BatchHeader
    if py is not None:
        assert _full(buf, cfg) == py
    _agree_stamping(buf, args, py)
    return py


def _agree_stamping(buf, args, unstamped):
    """With a base offset and leader epoch: an accepted batch comes back stamped exactly as
    stamp_batch stamps it (bytes and header), a refused one untouched; both twins alike."""
    base, epoch = 1234567890123, 77
    want = None
    if unstamped is not None:
        want_buf = bytearray(buf)
        want = scan.py_stamp_batch(want_buf, 0, base, epoch, BatchHeader)
    for fn in TWINS:
        for view in (bytearray(buf), memoryview(bytearray(buf))):
            out = fn(view, BatchHeader, *args, base, epoch)
            assert out == want, (fn, bytes(buf)[:70])
            assert bytes(view) == (bytes(want_buf) if want is not None else bytes(buf))
        with pytest.raises(BufferError):  # stamping needs a writable buffer
            fn(bytes(buf), BatchHeader, *args, base, epoch)


def _batch(records=SAMPLE, **kw) -> bytes:
    return bytes(build_batch(records, now_ms=NOW, **kw))


def test_a_plain_and_an_idempotent_batch_take_the_fast_path():
    for kw in ({}, {"producer_id": 5, "producer_epoch": 1, "base_sequence": 7}):
        good = _batch(**kw)
        for cfg in CONFIGS[:3]:
            assert _agree(good, cfg) == batch.read_header(good)


def _with_header(buf: bytes, fmt: str, offset: int, value: int) -> bytes:
    """Change one header field and recompute the CRC (a well-formed batch but for that)."""
    out = bytearray(buf)
    struct.pack_into(fmt, out, offset, value)
    struct.pack_into(">I", out, batch.CRC, crc32c(bytes(out[batch.ATTRIBUTES:])))
    return bytes(out)


@pytest.mark.parametrize("case", [
    "two_batches", "trailing_byte", "compressed", "transactional", "control", "log_append_time",
    "base_offset", "count_mismatch", "negative_sequence", "too_large", "null_key_compacted",
    "record_too_old", "record_too_new", "header_max_ts_out", "bad_crc", "empty"])
def test_everything_else_is_left_to_the_full_checks(case):
    good = _batch()
    cfg = LogConfig(max_message_bytes=1000, message_timestamp_before_max_ms=60_000,
                    message_timestamp_after_max_ms=60_000)
    buf = {
        "two_batches": good + good,
        "trailing_byte": good + b"\0",
        "compressed": _batch(compression=1),
        "transactional": _batch(producer_id=3, producer_epoch=0, base_sequence=0,
                                is_transactional=True),
        "control": _with_header(good, ">h", batch.ATTRIBUTES, 0x20),
        "log_append_time": _with_header(good, ">h", batch.ATTRIBUTES, 0x08),
        "base_offset": _with_header(good, ">q", 0, 4),
        "count_mismatch": _with_header(good, ">i", batch.LAST_OFFSET_DELTA, 0),
        "negative_sequence": _batch(producer_id=3, producer_epoch=0, base_sequence=-1),
        "too_large": _batch([(b"k", b"x" * 1200, [], NOW)]),
        "null_key_compacted": _batch([(None, b"v", [], NOW)]),
        "record_too_old": _batch([(b"k", b"v", [], NOW - 120_000)]),
        "record_too_new": _batch([(b"k", b"v", [], NOW + 120_000)]),
        "header_max_ts_out": _with_header(good, ">q", batch.MAX_TIMESTAMP, NOW + 120_000),
        "bad_crc": good[:-1] + bytes([good[-1] ^ 1]),
        "empty": b"",
    }[case]
    if case == "null_key_compacted":
        cfg = LogConfig(cleanup_policy="compact")
    assert _agree(buf, cfg) is None
    if case == "compressed":  # valid: the full checks decompress it
        assert _full(buf, cfg) == batch.read_header(buf)
    else:  # each of the others is refused by them (a transactional one: not verified)
        assert isinstance(_full(buf, cfg), int)


def test_timestamps_at_the_bounds_and_overflow():
    cfg = LogConfig(message_timestamp_before_max_ms=1000, message_timestamp_after_max_ms=1000)
    for ts in (NOW - 1000, NOW + 1000):
        assert _agree(_batch([(b"k", b"v", [], ts)]), cfg) is not None
    for ts in (NOW - 1001, NOW + 1001):
        assert _agree(_batch([(b"k", b"v", [], ts)]), cfg) is None
    # base timestamp + delta past an int64: C cannot add it, Python must say None too
    huge = _with_header(_batch(), ">q", batch.BASE_TIMESTAMP, (1 << 63) - 1)
    assert _agree(huge, LogConfig(message_timestamp_type="LogAppendTime")) is None


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=mutation_ops(200), idempotent=st.booleans(), cfg=st.sampled_from(CONFIGS))
def test_fuzz_twins_agree_and_never_accept_what_the_full_checks_refuse(ops, idempotent, cfg):
    """Mutations anywhere (header too), with and without a recomputed CRC."""
    kw = {"producer_id": 9, "producer_epoch": 0, "base_sequence": 3} if idempotent else {}
    raw = mutate(_batch(**kw), ops)
    fixed = bytearray(raw)
    if len(fixed) > batch.ATTRIBUTES:
        struct.pack_into(">I", fixed, batch.CRC, crc32c(bytes(fixed[batch.ATTRIBUTES:])))
    for buf in (raw, bytes(fixed)):
        _agree(buf, cfg)


# -- stamp_batch ----------------------------------------------------------------------------
STAMPS = [scan.py_stamp_batch] + ([scan.c_stamp_batch] if scan.c_stamp_batch is not None else [])


@settings(max_examples=examples(200), deadline=None)
@given(base=st.integers(-(1 << 63), (1 << 63) - 1), epoch=st.integers(-(1 << 31), (1 << 31) - 1),
       lead=st.integers(0, 70))
def test_stamp_twins_write_the_same_bytes_and_header(base, epoch, lead):
    good = b"\xab" * lead + _batch()
    outs = []
    for fn in STAMPS:
        buf = bytearray(good)
        h = fn(buf, lead, base, epoch, BatchHeader)
        assert type(h) is BatchHeader and h == batch.read_header(buf, lead)
        assert (h.base_offset, h.partition_leader_epoch) == (base, epoch)
        assert buf[:lead] == good[:lead] and buf[lead + 8:lead + 12] == good[lead + 8:lead + 12]
        assert buf[lead + 16:] == good[lead + 16:]  # only offset and epoch changed
        assert batch.crc_is_valid(buf, lead, len(good) - lead)
        outs.append((bytes(buf), h))
    assert all(o == outs[0] for o in outs)


@pytest.mark.parametrize("args, exc", [
    ((bytearray(60), 0, 1, 1), ValueError), ((bytearray(70), 10, 1, 1), ValueError),
    ((bytearray(70), -1, 1, 1), ValueError), ((bytearray(70), 0, 1 << 63, 1), OverflowError),
    ((bytearray(70), 0, 1, 1 << 31), OverflowError), ((bytes(70), 0, 1, 1), BufferError)])
def test_stamp_refuses_what_it_cannot_write(args, exc):
    for fn in STAMPS:
        with pytest.raises(exc):
            fn(*args, BatchHeader)
    if exc is OverflowError:  # the stamping check refuses the same values
        base, epoch = args[2], args[3]
        for fn in TWINS:
            with pytest.raises(OverflowError):
                fn(bytearray(_batch()), BatchHeader, *_limits(LogConfig()), base, epoch)
    for fn in TWINS:  # two stamp arguments or none
        with pytest.raises(TypeError):
            fn(bytearray(_batch()), BatchHeader, *_limits(LogConfig()), 5)


# -- the log: fast path and full checks give the same log -------------------------------------
def _append_all(path, monkeypatch, fast: bool, cfg: LogConfig, taken: list):
    """Append a mix of payloads; ``taken`` gets one entry per payload the fast path took."""
    real = partition_log_mod.check_client_batch

    def counted(*a):
        h = real(*a) if fast else None
        if h is not None:
            taken.append(h)
        return h
    monkeypatch.setattr(partition_log_mod, "check_client_batch", counted)
    lg = PartitionLog.open(str(path), "t", 0, cfg, NOW)
    answers = []
    payloads = [_batch(), _batch(producer_id=4, producer_epoch=0, base_sequence=0),
                _batch(producer_id=4, producer_epoch=0, base_sequence=0),  # a duplicate
                _batch([(None, b"v", [], NOW)]), _batch([(b"k", b"v", [], NOW - 10**9)]),
                _batch(producer_id=4, producer_epoch=0, base_sequence=5)]  # out of order
    for i, p in enumerate(payloads):
        try:
            r = lg.append_as_leader(bytearray(p), 3 + i // 3, NOW + i)
            answers.append(tuple(r))
        except KafkaError as e:
            answers.append((int(e.code), e.message))
    lg.flush(NOW)
    with open(lg.active_segment.log_path, "rb") as f:
        data = f.read()
    tail = list(lg.active_segment._tail)
    state = {pid: (e.last_seq, e.epoch) for pid, e in lg.producer_state.producers.items()}
    lg.close()
    monkeypatch.undo()
    return answers, data, tail, state, lg.leader_epochs.entries


@pytest.mark.parametrize("cfg", CONFIGS[:3], ids=["delete", "compact", "log_append_time"])
def test_a_log_appended_through_the_fast_path_equals_one_through_the_full_checks(
        tmp_path, monkeypatch, cfg):
    taken: list = []
    fast = _append_all(tmp_path / "fast", monkeypatch, True, cfg, taken)
    assert len(taken) >= 3  # the plain, idempotent and keyless batches at least
    slow = _append_all(tmp_path / "slow", monkeypatch, False, cfg, taken := [])
    assert not taken and fast == slow
    answers, data, tail, _state, _epochs = fast
    assert sum(1 for a in answers if len(a) == 5) >= 3 and data  # appends happened
    assert [t[2] for t in tail] == [batch.read_header(data, t[1]) for t in tail]
