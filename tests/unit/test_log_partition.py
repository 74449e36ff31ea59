"""PartitionLog: append/read, offsets in place, HW, rolling, indexes, time search, retention."""

from __future__ import annotations

import os
import struct

import pytest

from kwire.log import LogConfig, PartitionLog
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records import batch as B
from kwire.records.builder import build_batch
from kwire.records.decode import decode_batch, decode_batches

NOW = 1_700_000_000_000


def mk(n=3, ts=NOW, *, compression=0, value=b"value", timestamps=None, **kw) -> memoryview:
    stamps = timestamps or [ts + i for i in range(n)]
    recs = [(b"k%d" % i, value, [("h", b"x")], t) for i, t in enumerate(stamps)]
    return memoryview(bytearray(build_batch(recs, compression=compression, now_ms=ts, **kw)))


def open_log(tmp_path, now=NOW, **cfg) -> PartitionLog:
    return PartitionLog.open(str(tmp_path), "t", 0, LogConfig(**cfg), now)


def append(lg, buf, now=NOW, epoch=0):
    r = lg.append_as_leader(buf, epoch, now)
    lg.update_high_watermark(lg.log_end_offset)
    return r


def read_all(lg, start=None):
    """Every record readable from ``start`` by repeated fetches, as the consumer sees it."""
    offset = lg.log_start_offset if start is None else start
    out = []
    while offset < lg.high_watermark:
        res = lg.read(offset, 1 << 20)
        assert res.size, f"no progress at {offset}"
        for b in decode_batches(res.region.read()):
            out += [r for r in b.records if r.offset >= offset]
        offset = out[-1].offset + 1
    return out


def test_append_assigns_offsets_in_place_and_crc_stays_valid(tmp_path):
    lg = open_log(tmp_path)
    bufs = [mk(3), mk(1), mk(5)]
    results = [lg.append_as_leader(b, 7, NOW) for b in bufs]
    assert [(r.base_offset, r.last_offset) for r in results] == [(0, 2), (3, 3), (4, 8)]
    assert all(r.log_append_time == -1 and not r.duplicate for r in results)
    assert lg.log_end_offset == 9 and lg.high_watermark == 0  # HW is the broker's call
    on_disk = open(os.path.join(lg.dir, "00000000000000000000.log"), "rb").read()
    assert on_disk == b"".join(bytes(b) for b in bufs)  # exactly the patched wire bytes
    for buf, r in zip(bufs, results):
        h = B.read_header(buf)
        assert (h.base_offset, h.partition_leader_epoch) == (r.base_offset, 7)
        assert B.crc_is_valid(buf, 0, len(buf))
    assert lg.leader_epochs.entries == [(7, 0)]


def test_read_round_trip_and_read_only_input_is_copied(tmp_path):
    lg = open_log(tmp_path, index_interval_bytes=200)
    for i in range(50):
        append(lg, bytes(mk(1 + i % 4, value=b"v%d" % i)))  # bytes: copied, still works
    records = read_all(lg)
    assert [r.offset for r in records] == list(range(lg.log_end_offset))
    assert {r.value for r in records} == {b"v%d" % i for i in range(50)}
    assert lg.size_bytes == os.path.getsize(lg.segments[0].log_path)


def test_fetch_offset_inside_batch_returns_whole_batch(tmp_path):
    lg = open_log(tmp_path)
    for n in (4, 4, 4):
        append(lg, mk(n))
    res = lg.read(6, 1 << 20)
    assert res.first_batch_offset == 4
    batches = decode_batches(res.region.read())
    assert [r.offset for r in batches[0].records] == [4, 5, 6, 7]
    assert res.high_watermark == res.log_end_offset == 12 and res.log_start_offset == 0


def test_max_bytes_whole_batches_and_oversized_first_batch(tmp_path):
    lg = open_log(tmp_path)
    sizes = [len(append_buf) for append_buf in [mk(3, value=b"x" * 100) for _ in range(4)]]
    for _ in range(4):
        append(lg, mk(3, value=b"x" * 100))
    one = sizes[0]
    res = lg.read(0, int(one * 2.5))
    assert res.size == 2 * one and len(decode_batches(res.region.read())) == 2
    big = lg.read(3, 10)  # first batch bigger than max_bytes: still returned whole
    assert big.size == one and big.first_batch_offset == 3
    assert lg.read(3, 10, min_one_batch=False).size == 0


def test_high_watermark_bounds_reads_and_out_of_range(tmp_path):
    lg = open_log(tmp_path)
    for _ in range(3):
        lg.append_as_leader(mk(2), 0, NOW)
    assert lg.read(0, 1 << 20).size == 0  # HW still 0
    lg.update_high_watermark(4)
    res = lg.read(0, 1 << 20)
    assert [b.header.base_offset for b in decode_batches(res.region.read())] == [0, 2]
    assert lg.read(4, 1 << 20).size == 0  # between HW and LEO: empty, no error
    assert lg.read(0, 1 << 20, max_offset=6).size == res.size + len(mk(2))  # follower view
    assert lg.read(6, 100).size == 0  # at the LEO
    with pytest.raises(KafkaError) as e:
        lg.read(7, 100)
    assert e.value.code == ErrorCode.OFFSET_OUT_OF_RANGE
    assert lg.update_high_watermark(99) == 6  # clamped to the LEO


def test_roll_by_size(tmp_path):
    one = len(mk(3, value=b"y" * 200))
    lg = open_log(tmp_path, segment_bytes=one * 3 + 10)
    for _ in range(10):
        append(lg, mk(3, value=b"y" * 200))
    segs = lg.segments
    assert [s.base_offset for s in segs] == [0, 9, 18, 27]
    assert all(s.size <= one * 3 + 10 for s in segs)
    names = sorted(n for n in os.listdir(lg.dir) if n.endswith(".log"))
    assert names == [f"{s.base_offset:020d}.log" for s in segs]
    assert lg.recovery_point == 27  # rolled segments were fsynced
    assert [r.offset for r in read_all(lg)] == list(range(30))
    # a read stops at the end of a segment; the next fetch continues in the next one
    res = lg.read(0, 1 << 20)
    assert res.size == segs[0].size and len(res.regions) == 1


def test_roll_by_time_uses_first_batch_timestamp(tmp_path):
    lg = open_log(tmp_path, segment_ms=1000)
    append(lg, mk(1, ts=NOW))
    append(lg, mk(1, ts=NOW + 1000))  # waited exactly segment.ms: no roll yet
    assert len(lg.segments) == 1
    append(lg, mk(1, ts=NOW + 1001))
    assert [s.base_offset for s in lg.segments] == [0, 2]
    assert lg.maybe_roll(NOW + 1500) is False
    assert lg.maybe_roll(NOW + 2002) is True and lg.segments[-1].base_offset == 3


def test_index_lookup_matches_linear_scan_across_segments(tmp_path):
    lg = open_log(tmp_path, segment_bytes=6000, index_interval_bytes=300)
    spans = []
    for i in range(120):
        r = append(lg, mk(1 + (i * 7) % 5, value=b"z" * ((i * 37) % 150)))
        spans.append((r.base_offset, r.last_offset))
    assert len(lg.segments) > 3
    for offset in range(lg.log_end_offset):
        expect = next(b for b, last in spans if last >= offset)
        assert lg.read(offset, 1).first_batch_offset == expect
    for seg in lg.segments:  # Kafka's invariant: each entry points at the batch ending there
        data = open(seg.offset_index.path, "rb").read()
        assert len(data) == 8 * len(seg.offset_index) and len(seg.offset_index) > 0
        for rel, pos in struct.iter_unpack(">ii", data):
            h = seg.read_header_at(pos)
            assert h.base_offset + h.last_offset_delta == seg.base_offset + rel


@pytest.mark.parametrize("codec", [0, 1, 2, 3, 4])
def test_offset_for_timestamp_inside_compressed_batches(tmp_path, codec):
    lg = open_log(tmp_path, index_interval_bytes=0, segment_bytes=2000)
    all_records = []
    for i in range(30):
        stamps = [NOW + i * 100 + d for d in (0, 40, 20, 60, 10)]  # not monotonic inside
        append(lg, mk(5, timestamps=stamps, compression=codec, value=b"w" * 30))
    all_records = read_all(lg)
    assert len(lg.segments) > 1
    for target in [NOW - 5, NOW, NOW + 15, NOW + 1255, NOW + 1261, NOW + 2960, NOW + 2961]:
        expect = next(((r.offset, r.timestamp) for r in all_records if r.timestamp >= target),
                      None)
        assert lg.offset_for_timestamp(target) == expect, target
    mid = lg.offset_for_timestamp(NOW + 1215)  # middle of a batch
    assert mid == (12 * 5 + 1, NOW + 1240)
    lg.update_high_watermark(50)
    assert lg.offset_for_timestamp(NOW + 2500) is None  # only below the HW


def test_offset_of_max_timestamp(tmp_path):
    lg = open_log(tmp_path, segment_bytes=1000)
    assert lg.offset_of_max_timestamp() is None
    for i in range(20):
        stamps = [NOW + i, NOW + i + 1, NOW + i + 2]
        if i == 7:
            stamps = [NOW + 5, NOW + 9999, NOW + 9999]  # first record of the max is offset 22
        append(lg, mk(3, timestamps=stamps, compression=1))
    assert len(lg.segments) > 2
    assert lg.offset_of_max_timestamp() == (22, NOW + 9999)
    lg.update_high_watermark(21)
    assert lg.offset_of_max_timestamp() == (20, NOW + 8)  # batch 6: NOW+6..NOW+8


def test_log_append_time(tmp_path):
    lg = open_log(tmp_path, message_timestamp_type="LogAppendTime")
    buf = mk(3, ts=NOW - 10**9, compression=2)  # far outside any CreateTime bound: fine here
    r = append(lg, buf, now=NOW + 5)
    assert r.log_append_time == NOW + 5
    stored = decode_batch(lg.read(0, 1 << 20).region.read())  # CRC verified by decode
    assert stored.header.timestamp_type == 1 and stored.header.max_timestamp == NOW + 5
    assert [rec.timestamp for rec in stored.records] == [NOW + 5] * 3
    assert lg.offset_for_timestamp(NOW + 5) == (0, NOW + 5)
    producer_lat = mk(1, timestamp_type=1)
    with pytest.raises(KafkaError) as e:
        lg.append_as_leader(producer_lat, 0, NOW)
    assert e.value.code == ErrorCode.INVALID_TIMESTAMP


def test_retention_by_time_advances_log_start(tmp_path):
    lg = open_log(tmp_path, segment_bytes=1000, retention_ms=10_000)
    for i in range(12):
        append(lg, mk(3, ts=NOW + i * 1000, value=b"r" * 60), now=NOW + i * 1000)
    bases = [s.base_offset for s in lg.segments]
    assert len(bases) >= 4
    assert lg.apply_retention(NOW + 11_000) == 0
    deleted = lg.apply_retention(NOW + 16_500)  # segments whose newest record is older than 6.5s
    assert deleted >= 1
    assert lg.log_start_offset == lg.segments[0].base_offset > 0
    assert not os.path.exists(os.path.join(lg.dir, f"{bases[0]:020d}.log"))
    with pytest.raises(KafkaError) as e:
        lg.read(0, 100)
    assert e.value.code == ErrorCode.OFFSET_OUT_OF_RANGE
    assert read_all(lg)[0].offset == lg.log_start_offset


def test_retention_everything_old_rolls_and_keeps_offsets(tmp_path):
    lg = open_log(tmp_path, retention_ms=1000)
    for _ in range(3):
        append(lg, mk(2))
    region = lg.read(0, 1 << 20).region
    assert lg.apply_retention(NOW + 5000) == 1  # the non-empty active segment goes, rolled first
    assert [s.base_offset for s in lg.segments] == [6] and lg.segments[0].is_empty
    assert lg.log_start_offset == lg.log_end_offset == lg.high_watermark == 6
    assert len(decode_batches(region.read())) == 3  # an outstanding region survives the unlink
    assert lg.apply_retention(NOW + 9000) == 0  # an empty active segment is never deleted
    assert append(lg, mk(1), now=NOW + 9000).base_offset == 6


def test_retention_by_bytes(tmp_path):
    one = len(mk(3, value=b"s" * 100))
    lg = open_log(tmp_path, segment_bytes=one * 2, retention_bytes=one * 5, retention_ms=-1)
    for _ in range(10):
        append(lg, mk(3, value=b"s" * 100))
    assert lg.size_bytes == one * 10
    assert len(lg.segments) == 5  # two batches per segment
    assert lg.apply_retention(NOW) == 2  # a third segment would take the log below the limit
    assert lg.size_bytes == one * 6 and lg.log_start_offset == 12


def test_retention_only_below_high_watermark(tmp_path):
    lg = open_log(tmp_path, segment_bytes=len(mk(1)), retention_ms=0)  # a segment per batch
    for _ in range(4):
        lg.append_as_leader(mk(1), 0, NOW)
    lg.update_high_watermark(1)
    assert lg.apply_retention(NOW + 10) == 1  # only the segment wholly below the HW
    assert lg.log_start_offset == 1


def test_delete_records_before(tmp_path):
    lg = open_log(tmp_path, segment_bytes=400)
    for _ in range(8):
        append(lg, mk(3))
    assert len(lg.segments) >= 3
    first_bases = [s.base_offset for s in lg.segments]
    assert lg.delete_records_before(10) == 10
    assert all(s.base_offset > 0 for s in lg.segments)  # segments wholly below are gone
    assert lg.segments[0].base_offset <= 10 < first_bases[-1]
    res = lg.read(10, 1 << 20)
    assert res.first_batch_offset == 9 and res.log_start_offset == 10  # straddling batch kept
    with pytest.raises(KafkaError):
        lg.read(9, 100)
    assert lg.delete_records_before(5) == 10  # never moves backwards
    with pytest.raises(KafkaError) as e:
        lg.delete_records_before(25)
    assert e.value.code == ErrorCode.OFFSET_OUT_OF_RANGE
    assert lg.delete_records_before(-1) == 24 == lg.log_end_offset
    assert lg.read(24, 100).size == 0
    assert lg.offset_for_timestamp(NOW) is None


def test_truncate_to(tmp_path):
    lg = open_log(tmp_path, segment_bytes=400)
    for _ in range(8):
        append(lg, mk(3))
    assert lg.truncate_to(13) == 12  # the batch holding 13 goes entirely
    assert lg.log_end_offset == lg.high_watermark == 12
    assert all(s.base_offset <= 12 for s in lg.segments)
    assert append(lg, mk(2)).base_offset == 12
    assert [r.offset for r in read_all(lg)] == list(range(14))
    assert lg.truncate_fully_and_start_at(100) == 100
    assert append(lg, mk(1)).base_offset == 100 and lg.log_start_offset == 100


def test_leader_epoch_checkpoint_file(tmp_path):
    lg = open_log(tmp_path)
    append(lg, mk(2), epoch=0)
    append(lg, mk(2), epoch=0)
    append(lg, mk(3), epoch=3)
    assert not os.path.exists(os.path.join(lg.dir, "leader-epoch-checkpoint"))  # written at the flush
    lg.flush()
    text = open(os.path.join(lg.dir, "leader-epoch-checkpoint")).read()
    assert text == "0\n2\n0 0\n3 4\n"
    assert lg.end_offset_for_epoch(0) == (0, 4)
    assert lg.end_offset_for_epoch(3) == (3, 7)
    assert lg.end_offset_for_epoch(1) == (0, 4)
    assert lg.end_offset_for_epoch(-1) == (-1, -1)
    lg.truncate_to(4)
    assert lg.leader_epochs.entries == [(0, 0)]


def test_epoch_older_than_every_known_one_answers_the_first_start(tmp_path):
    # Kafka's LeaderEpochFileCache.endOffsetFor: (that epoch, the first known epoch's start offset),
    # so a follower whose last epoch this leader never saw fetches on instead of being refused
    lg = open_log(tmp_path)
    lg.assign_epoch_start_offset(3, 0)
    assert lg.end_offset_for_epoch(0) == (0, 0)
    append(lg, mk(2), epoch=3)
    append(lg, mk(1), epoch=5)
    assert lg.end_offset_for_epoch(2) == (2, 0)
    assert lg.end_offset_for_epoch(4) == (3, 2)
    assert lg.end_offset_for_epoch(-1) == (-1, -1)


def test_flush_messages_one_fsyncs_every_append(tmp_path):
    lg = open_log(tmp_path, flush_messages=1)
    append(lg, mk(2))
    assert lg.recovery_point == 2
    lg2 = PartitionLog.open(str(tmp_path / "b"), "t", 0, LogConfig(flush_ms=1000), NOW)
    lg2.append_as_leader(mk(2), 0, NOW + 10)
    assert lg2.recovery_point == 0 and lg2.maybe_flush(NOW + 500) is False
    assert lg2.maybe_flush(NOW + 1000) is True and lg2.recovery_point == 2


def test_roll_when_index_full(tmp_path):
    lg = open_log(tmp_path, index_interval_bytes=0, segment_index_bytes=24)  # 3 entries / 2 time
    for _ in range(10):
        append(lg, mk(1))
    assert len(lg.segments) > 2
    assert all(len(s.offset_index) <= 3 and len(s.time_index) <= 2 for s in lg.segments)
    assert [r.offset for r in read_all(lg)] == list(range(10))


def test_region_outlives_partition_deletion(tmp_path):
    lg = open_log(tmp_path)
    append(lg, mk(4))
    region = lg.read(0, 1 << 20).region
    lg.delete()
    assert not os.path.exists(lg.dir) and not any("-delete" in n for n in os.listdir(tmp_path))
    assert [r.offset for r in decode_batch(region.read()).records] == [0, 1, 2, 3]
