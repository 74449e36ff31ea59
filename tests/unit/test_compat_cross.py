"""compat/cross.py without a broker: the record set, its files, and the comparison.

The cross-client matrix passes only if ``compare`` would notice a difference,
and only means something if every producer can express the record set; both
are checked here (the run itself is in tests/integration/test_compat.py).
"""

from __future__ import annotations

import sys
import zlib
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from compat import cross  # noqa: E402
from compat.clients.base import Rec  # noqa: E402

BASE = 1_700_000_000_000
WINDOW = (BASE + 3_600_000, BASE + 3_610_000)


def consumed(msgs, clock=WINDOW[0] + 10) -> list[Rec]:
    """What a faithful consumer delivers for ``msgs``."""
    out, offsets = [], {}
    for m in msgs:
        off = offsets.get(m.partition, 0)
        offsets[m.partition] = off + 1
        out.append(Rec(m.partition, off, m.key, m.value, m.headers,
                       clock if m.timestamp is None else m.timestamp))
    return out


def test_record_set_is_varied_and_expressible_by_every_producer():
    msgs = cross.record_set(BASE)
    assert len(msgs) == 200 and {m.partition for m in msgs} == {0, 1}
    assert any(m.key is None for m in msgs) and any(m.key == b"" for m in msgs)
    assert any(m.value is None for m in msgs) and any(m.value == b"" for m in msgs)
    assert any(m.timestamp is None for m in msgs) and any(m.timestamp is not None for m in msgs)
    assert any(len({k for k, _ in m.headers}) < len(m.headers) for m in msgs), "no duplicate header names"
    assert any(v == b"" for m in msgs for _, v in m.headers), "no empty header value"
    assert any(not k.isascii() for m in msgs for k, _ in m.headers), "no non-ASCII header name"
    assert any(m.value and not m.value.isascii() for m in msgs), "no non-ASCII value"
    for m in msgs:
        assert not (m.key is None and m.value is None), "kafka-python and aiokafka refuse it"
        assert all(v is not None for _, v in m.headers), "kafka-python refuses null header values"
        for b in (m.key, m.value, *(v for _, v in m.headers)):
            if b is not None:
                b.decode("utf-8")  # kcat -J prints text
                assert b"\t" not in b and b"\n" not in b, "kcat reads lines of key<TAB>value"
    # kcat: one invocation per run of (partition, headers), with -Z (empty means null) when
    # the run has a null key or value; so no run has both a null and an empty one.
    runs: list[list] = []
    for m in msgs:
        if not runs or runs[-1][0] != (m.partition, m.headers):
            runs.append([(m.partition, m.headers), []])
        runs[-1][1].append(m)
    assert len(runs) == 6
    for _, ms in runs:
        if any(None in (m.key, m.value) for m in ms):
            assert all(b"" not in (m.key, m.value) for m in ms)
    # Each block compresses (librdkafka sends a batch uncompressed when that does not help).
    raw = b"".join((m.key or b"") + (m.value or b"") for m in msgs[:33])
    assert len(zlib.compress(raw)) < len(raw) / 3


def test_files_round_trip(tmp_path):
    msgs = cross.record_set(BASE)
    cross.write_spec(tmp_path / "spec.tsv", msgs)
    assert cross.read_spec(tmp_path / "spec.tsv") == msgs
    recs = consumed(msgs)
    cross.write_consumed(tmp_path / "t.tsv", recs)
    assert cross.read_consumed(tmp_path / "t.tsv") == recs


def test_compare_passes_a_faithful_copy_and_names_the_first_difference():
    msgs = cross.record_set(BASE)
    good = consumed(msgs)
    assert cross.compare(msgs, good, own_timestamps=True, window=WINDOW) is None
    # Partitions may interleave: only the order within a partition matters.
    interleaved = sorted(good, key=lambda r: (r.offset, r.partition))
    assert cross.compare(msgs, interleaved, own_timestamps=True, window=WINDOW) is None

    def bad(i, **change):
        recs = list(good)
        recs[i] = replace(recs[i], **change)
        return cross.compare(msgs, recs, own_timestamps=True, window=WINDOW)

    assert "key" in bad(5, key=b"other")
    null_key = next(i for i, m in enumerate(msgs) if m.key is None)
    assert "key" in bad(null_key, key=b"")            # empty is not null
    empty_value = next(i for i, m in enumerate(msgs) if m.value == b"")
    assert "value" in bad(empty_value, value=None)
    assert "headers" in bad(0, headers=tuple(reversed(msgs[0].headers)))  # order of headers matters
    assert "timestamp" in bad(0, timestamp=msgs[0].timestamp + 1)
    clock = next(i for i, m in enumerate(msgs) if m.timestamp is None)
    assert "produce window" in bad(clock, timestamp=BASE)
    assert "offset" in bad(3, offset=17)
    assert "got 99 records, want 100" in cross.compare(msgs, good[:-1], own_timestamps=True, window=WINDOW)
    assert "partition 2" in cross.compare(msgs, good + [replace(good[0], partition=2)],
                                          own_timestamps=True, window=WINDOW)
    # A producer that cannot choose timestamps (kcat): its records carry its clock.
    clocked = consumed([replace(m, timestamp=None) for m in msgs])
    assert cross.compare(msgs, clocked, own_timestamps=False, window=WINDOW) is None
    assert cross.compare(msgs, clocked, own_timestamps=True, window=WINDOW) is not None
