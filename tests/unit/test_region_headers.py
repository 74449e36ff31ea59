"""FileRegion.headers() and slice(): batch headers walked without reading the records, for
regions in memory and pinned ones (read a block at each header), batch sizes on both sides
of the header block size, and a region that cuts its last batch short."""

from __future__ import annotations

import pytest

from kwire.log.region import PIN_MIN_BYTES, FileRegion, SegmentFile
from kwire.records.batch import read_header
from kwire.records.builder import build_batch


def batches(sizes):
    """One batch per entry of ``sizes`` (its one record's value length), consecutive offsets."""
    out, offset = [], 0
    for n in sizes:
        out.append(build_batch([(b"k", b"x" * n)], base_offset=offset))
        offset += 1
    return out


@pytest.mark.parametrize("sizes", [
    [10] * 5000,                     # small batches: many per header block, region pinned
    [20000, 300000, 7, 100000],      # batches larger than a header block
    [5, 10, 3],                      # a region small enough to be held in memory
])
def test_headers_and_slices(tmp_path, sizes):
    data = b"".join(batches(sizes))
    path = tmp_path / "00000000000000000000.log"
    f = SegmentFile(str(path))
    with open(path, "ab") as out:
        out.write(b"junk-before" + data + b"tail")
    region = FileRegion(f, len(b"junk-before"), len(data))
    assert region.in_file() == (len(data) >= PIN_MIN_BYTES)
    got = list(region.headers())
    assert [h.base_offset for _, h in got] == list(range(len(sizes)))
    positions = [pos for pos, _ in got]
    for (pos, h), nxt in zip(got, positions[1:] + [len(data)]):
        assert pos + h.size == nxt
        piece = region.slice(pos, h.size)
        raw = piece if isinstance(piece, bytes) else piece.read()
        assert raw == data[pos:pos + h.size] and read_header(raw) == h
    whole = region.slice(0, len(data))
    assert (whole if isinstance(whole, bytes) else whole.read()) == data
    cut = FileRegion(f, len(b"junk-before"), len(data) - 1)  # the last batch cut short: not yielded
    assert [h.base_offset for _, h in cut.headers()] == list(range(len(sizes) - 1))
