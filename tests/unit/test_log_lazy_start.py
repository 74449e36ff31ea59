"""Start-up reads only what it needs: lazy indexes and epoch entries, per-second sets, idle checkpoints."""

from __future__ import annotations

import os

from kwire.log import LogConfig, LogManager, PartitionLog
from kwire.log import checkpoint as ck
from kwire.log.leader_epoch import FILE_NAME
from kwire.records.builder import build_batch
from kwire.records.decode import decode_batches

NOW = 1_700_000_000_000


def mk(n=3, ts=NOW) -> memoryview:
    return memoryview(bytearray(build_batch([(b"k", b"v", [], ts + i) for i in range(n)], now_ms=ts)))


def small_log(path, batches=10) -> PartitionLog:
    """A log of one small active segment (< 8 KiB) with offset and time index entries."""
    lg = PartitionLog.open(str(path), "t", 0, LogConfig(index_interval_bytes=1), NOW)
    for _ in range(batches):
        lg.append_as_leader(mk(), 3, NOW)
    lg.update_high_watermark(lg.log_end_offset)
    return lg


def reopen(path) -> PartitionLog:
    lg = PartitionLog.open(str(path), "t", 0, LogConfig(index_interval_bytes=1), NOW,
                           recovery_point=30, clean_shutdown=True, existing=True)
    lg.update_high_watermark(lg.log_end_offset)
    return lg


def values(lg, offset=0) -> list[int]:
    res = lg.read(offset, 1 << 20)
    return [r.offset for b in decode_batches(res.region.read()) for r in b.records]


def test_small_segment_indexes_wait_for_first_use_and_match(tmp_path):
    lg = small_log(tmp_path)
    seg = lg.active_segment
    before = (list(seg.offset_index.rel), list(seg.offset_index.pos), list(seg.time_index.ts))
    assert len(before[0]) == 9  # an entry per batch after the first
    lg.close()
    lg = reopen(tmp_path)
    seg = lg.active_segment
    assert not seg.indexes_loaded
    assert "entries" not in lg.leader_epochs.__dict__  # the epoch file is not read either
    assert (lg.log_end_offset, seg.max_timestamp, seg.first_batch_timestamp) == (30, NOW + 2, NOW + 2)
    assert values(lg) == list(range(30))  # the scanned headers answer reads
    assert lg.offset_for_timestamp(NOW + 1) == (1, NOW + 1)  # a time search reads the indexes
    assert seg.indexes_loaded
    assert (list(seg.offset_index.rel), list(seg.offset_index.pos), list(seg.time_index.ts)) == before
    assert lg.latest_epoch == 3
    lg.append_as_leader(mk(), 3, NOW)
    lg.update_high_watermark(lg.log_end_offset)
    assert len(seg.offset_index) == 10 and values(lg, 30) == [30, 31, 32]


def test_lazily_read_index_that_is_inconsistent_is_rebuilt_at_first_use(tmp_path):
    lg = small_log(tmp_path)
    seg = lg.active_segment
    expected = list(seg.offset_index.pos)
    index_path, time_path = seg.index_path, seg.timeindex_path
    lg.close()
    with open(index_path, "wb") as f:  # one entry pointing past the end of the log
        f.write(b"\x00\x00\x00\x05\x7f\xff\xff\xff")
    os.unlink(time_path)
    lg = reopen(tmp_path)  # the clean start reads neither index
    seg = lg.active_segment
    assert not seg.indexes_loaded and lg.log_end_offset == 30
    lg.append_as_leader(mk(), 3, NOW)  # the first write reads them, finds them wrong, rebuilds
    assert list(seg.offset_index.pos)[:9] == expected and len(seg.offset_index) == 10
    assert len(open(index_path, "rb").read()) == 8 * 10
    assert len(open(time_path, "rb").read()) == 12  # the timestamps never grow after batch one
    lg.close()
    lg = reopen(tmp_path)
    assert values(lg) == list(range(33))
    assert list(lg.active_segment.offset_index.pos)[:9] == expected


def test_epoch_entries_past_the_log_end_are_dropped_when_first_read(tmp_path):
    lg = small_log(tmp_path)
    lg.close()
    ck.write_epochs(os.path.join(str(tmp_path), "t-0", FILE_NAME), [(3, 0), (7, 30), (9, 40)])
    lg = reopen(tmp_path)
    assert lg.latest_epoch == 3 and lg.leader_epochs.dirty
    lg.flush()  # the file follows at the next flush
    assert ck.read_epochs(lg.leader_epochs.path) == [(3, 0)]


def test_per_second_housekeeping_visits_only_the_logs_it_concerns(tmp_path):
    m = LogManager(str(tmp_path), NOW)
    plain = [m.get_or_create("plain", p, LogConfig(), NOW) for p in range(3)]
    timed = m.get_or_create("timed", 0, LogConfig(flush_ms=100), NOW)
    compacted = m.get_or_create("compacted", 0, LogConfig(cleanup_policy=["compact"]), NOW)
    assert m._timed_flush == {timed} and m.compacted_logs() == [compacted]
    for lg in plain + [timed]:
        lg.append_as_leader(mk(), 0, NOW)
    assert m.flush_due(NOW + 100) == 1 and timed.recovery_point == 3
    assert all(lg.recovery_point == 0 for lg in plain)  # flush.ms unset: never flushed by time
    m.update_config("plain", LogConfig(flush_ms=100))  # a config change brings them in
    assert m.flush_due(NOW + 100) == 3 and all(lg.recovery_point == 3 for lg in plain)
    m.update_config("compacted", LogConfig())
    assert m.compacted_logs() == []
    m.delete_partition("timed", 0)
    assert m._timed_flush == set(plain)
    m.close()
    m = LogManager(str(tmp_path), NOW)  # loaded logs start with the default config
    assert m._timed_flush == set() and m.compacted_logs() == []
    m.update_config("plain", LogConfig(flush_ms=5))
    assert len(m._timed_flush) == 3
    m.close()


def test_checkpoint_rewrites_only_changed_files(tmp_path):
    m = LogManager(str(tmp_path), NOW)
    lg = m.get_or_create("t", 0, LogConfig(), NOW)
    lg.append_as_leader(mk(), 0, NOW)
    m.checkpoint()
    paths = [os.path.join(str(tmp_path), n) for n in
             ("recovery-point-offset-checkpoint", "log-start-offset-checkpoint",
              "replication-offset-checkpoint")]
    inodes = [os.stat(p).st_ino for p in paths]
    assert m.checkpoint()
    assert [os.stat(p).st_ino for p in paths] == inodes  # idle: nothing rewritten
    lg.update_high_watermark(3)
    assert m.checkpoint()
    after = [os.stat(p).st_ino for p in paths]
    assert after[:2] == inodes[:2] and after[2] != inodes[2]  # only the high watermarks
    assert ck.read_offsets(paths[2]) == {("t", 0): 3}
    m.close()
    closed = [os.stat(p).st_ino for p in paths]
    m = LogManager(str(tmp_path), NOW)  # a clean restart rewrites none of them
    assert [os.stat(p).st_ino for p in paths] == closed
    assert ck.read_offsets(paths[0]) == {("t", 0): 3} and m.get("t", 0).log_end_offset == 3
    m.close()


def test_clean_close_of_an_unchanged_log_rewrites_no_producer_snapshot(tmp_path):
    lg = small_log(tmp_path)
    lg.producer_state.replay(7, 0, 0, 2, 27, 29, NOW)  # a state worth a snapshot
    lg.close()
    snap = os.path.join(str(tmp_path), "t-0", f"{30:020d}.snapshot")
    inode = os.stat(snap).st_ino
    reopen(tmp_path).close()  # opened and closed, nothing appended
    assert os.stat(snap).st_ino == inode
    lg = reopen(tmp_path)
    lg.producer_state.replay(7, 0, 3, 5, 27, 29, NOW)  # the state changed: written again
    lg.close()
    assert os.stat(snap).st_ino != inode
    lg = reopen(tmp_path)
    lg.append_as_leader(mk(), 3, NOW)  # no producer id: the state, never read, is unchanged
    lg.close()  # a small log: no new snapshot (the summary names the one at 30)
    assert not os.path.exists(os.path.join(str(tmp_path), "t-0", f"{33:020d}.snapshot"))
    lg = PartitionLog.open(str(tmp_path), "t", 0, LogConfig(index_interval_bytes=1), NOW,
                           existing=True)  # a start from the files: 30 plus the batch after it
    assert lg.producer_state.producers[7].last_seq == 5
