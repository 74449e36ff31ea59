"""Recovery of torn and corrupt logs, index rebuilding, checkpoints and the LogManager."""

from __future__ import annotations

import errno
import gc
import logging
import os

import pytest

from kwire.log import LogConfig, LogManager, PartitionLog, faults
from kwire.log import checkpoint as ck
from kwire.records import batch as B
from kwire.records.builder import build_batch
from kwire.records.decode import decode_batches

NOW = 1_700_000_000_000


def mk(n=3, value=b"value", ts=NOW) -> memoryview:
    recs = [(b"k", value, [], ts + i) for i in range(n)]
    return memoryview(bytearray(build_batch(recs, now_ms=ts)))


def filled(path, batches=10, **cfg) -> PartitionLog:
    lg = PartitionLog.open(str(path), "t", 0, LogConfig(**cfg), NOW)
    for _ in range(batches):
        lg.append_as_leader(mk(), 0, NOW)
    lg.update_high_watermark(lg.log_end_offset)
    return lg


def reopen(path, **cfg) -> PartitionLog:
    lg = PartitionLog.open(str(path), "t", 0, LogConfig(**cfg), NOW)
    lg.update_high_watermark(lg.log_end_offset)
    return lg


def offsets(lg) -> list[int]:
    out, offset = [], lg.log_start_offset
    while offset < lg.high_watermark:
        res = lg.read(offset, 1 << 20)
        out += [r.offset for b in decode_batches(res.region.read()) for r in b.records]
        offset = out[-1] + 1
    return out


def test_torn_tail_is_truncated_and_appends_continue(tmp_path, caplog):
    lg = filled(tmp_path)  # crash: never closed
    path = lg.active_segment.log_path
    good = os.path.getsize(path)
    half = bytes(mk())[:40]
    with open(path, "ab") as f:
        f.write(half + b"\xde\xad\xbe\xef" * 10)
    with caplog.at_level(logging.WARNING, logger="kwire.log"):
        lg = reopen(tmp_path)
    assert os.path.getsize(path) == good
    msg = " ".join(r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
    assert path in msg and f"truncating {len(half) + 40} bytes at position {good}" in msg
    assert lg.log_end_offset == 30 and offsets(lg) == list(range(30))
    assert lg.append_as_leader(mk(), 0, NOW).base_offset == 30


def test_crc_corrupted_batch_truncates_from_there(tmp_path, caplog):
    lg = filled(tmp_path)
    path = lg.active_segment.log_path
    size = len(mk())
    with open(path, "r+b") as f:  # flip a value byte of the 5th batch (offsets 12..14)
        f.seek(4 * size + 70)
        b = f.read(1)
        f.seek(4 * size + 70)
        f.write(bytes([b[0] ^ 0x55]))
    with caplog.at_level(logging.WARNING, logger="kwire.log"):
        lg = reopen(tmp_path)
    assert "CRC mismatch" in caplog.text
    assert lg.log_end_offset == 12 and offsets(lg) == list(range(12))
    assert os.path.getsize(path) == 4 * size
    assert lg.append_as_leader(mk(), 0, NOW).base_offset == 12


def test_corruption_in_older_segment_deletes_later_segments(tmp_path, caplog):
    lg = filled(tmp_path, batches=12, segment_bytes=len(mk()) * 3)
    segs = lg.segments
    assert len(segs) == 4
    with open(segs[1].log_path, "r+b") as f:
        f.seek(len(mk()) + B.ATTRIBUTES + 3)
        f.write(b"\xff")
    with caplog.at_level(logging.WARNING, logger="kwire.log"):
        lg = reopen(tmp_path, segment_bytes=len(mk()) * 3)  # no checkpoint: recover everything
    assert [s.base_offset for s in lg.segments] == [0, 9]
    assert lg.log_end_offset == 12
    assert not os.path.exists(segs[3].log_path)
    assert caplog.text.count("deleting") == 2


def test_clean_close_reopens_without_scan_and_keeps_indexes(tmp_path):
    lg = filled(tmp_path, batches=40, segment_bytes=2000, index_interval_bytes=100)
    before = [(s.base_offset, s.next_offset, s.max_timestamp, list(s.offset_index.pos))
              for s in lg.segments]
    lg.close()
    lg = PartitionLog.open(str(tmp_path), "t", 0, LogConfig(segment_bytes=2000), NOW,
                           recovery_point=lg.log_end_offset, clean_shutdown=True,
                           high_watermark=120)
    after = [(s.base_offset, s.next_offset, s.max_timestamp, list(s.offset_index.pos))
             for s in lg.segments]
    assert after == before and lg.high_watermark == 120
    assert offsets(lg) == list(range(120))
    assert lg.offset_for_timestamp(NOW + 2) == (2, NOW + 2)


def test_missing_or_garbage_index_is_rebuilt(tmp_path):
    lg = filled(tmp_path, batches=40, segment_bytes=2000, index_interval_bytes=100)
    segs = lg.segments
    expected = list(segs[0].offset_index.pos)
    lg.close()
    os.unlink(segs[0].offset_index.path)
    with open(segs[1].offset_index.path, "wb") as f:
        f.write(b"\x00\x00\x00\x05\x7f\xff\xff\xff")  # position beyond the file
    lg = PartitionLog.open(str(tmp_path), "t", 0, LogConfig(segment_bytes=2000,
                           index_interval_bytes=100), NOW, recovery_point=120,
                           clean_shutdown=True)
    lg.update_high_watermark(lg.log_end_offset)
    assert list(lg.segments[0].offset_index.pos) == expected
    assert len(open(segs[0].offset_index.path, "rb").read()) == 8 * len(expected)
    assert offsets(lg) == list(range(120))


def test_clean_marker_with_torn_tail_still_recovers(tmp_path):
    lg = filled(tmp_path)
    lg.close()
    with open(lg.active_segment.log_path, "ab") as f:
        f.write(bytes(mk())[:30])
    lg = PartitionLog.open(str(tmp_path), "t", 0, LogConfig(), NOW, recovery_point=30,
                           clean_shutdown=True)
    assert lg.log_end_offset == 30


def test_checkpoint_files_round_trip(tmp_path):
    path = str(tmp_path / "recovery-point-offset-checkpoint")
    offsets_in = {("orders", 0): 1200, ("orders", 1): 0, ("pay-ments.x", 12): 77}
    ck.write_offsets(path, offsets_in)
    assert open(path).read() == "0\n3\norders 0 1200\norders 1 0\npay-ments.x 12 77\n"
    assert ck.read_offsets(path) == offsets_in
    assert ck.read_offsets(str(tmp_path / "missing")) == {}
    with open(path, "w") as f:
        f.write("0\n2\norders 0 1\n")
    with pytest.raises(ck.CheckpointError):
        ck.read_offsets(path)
    epath = str(tmp_path / "leader-epoch-checkpoint")
    ck.write_epochs(epath, [(0, 0), (4, 100)])
    assert ck.read_epochs(epath) == [(0, 0), (4, 100)]
    assert not any(n.endswith(".tmp") for n in os.listdir(tmp_path))


def test_manager_lifecycle(tmp_path):
    dirs = [str(tmp_path / "a"), str(tmp_path / "b")]
    cfg = LogConfig(segment_bytes=len(mk()) * 2)
    m = LogManager(dirs, NOW)
    logs = {p: m.get_or_create("orders", p, cfg, NOW) for p in range(4)}
    assert {os.path.dirname(lg.dir) for lg in logs.values()} == {os.path.abspath(d) for d in dirs}
    for p, lg in logs.items():
        for _ in range(p + 2):
            lg.append_as_leader(mk(), 0, NOW)
        lg.update_high_watermark(lg.log_end_offset)
    logs[3].delete_records_before(7)
    assert m.get_or_create("orders", 0) is logs[0] and m.get("orders", 9) is None
    desc = {(p["topic"], p["partition"]): p for d in m.describe_log_dirs() for p in d["partitions"]}
    assert desc[("orders", 1)]["size"] == 3 * len(mk()) and desc[("orders", 1)]["offset_lag"] == 0
    m.close()
    for d in dirs:
        assert os.path.exists(os.path.join(d, ".kwire_cleanshutdown"))
        assert ck.read_offsets(os.path.join(d, "recovery-point-offset-checkpoint"))
    os.makedirs(os.path.join(dirs[0], "gone-0.abc123-delete"))
    m = LogManager(dirs, NOW, default_config=cfg)
    assert not os.path.exists(os.path.join(dirs[0], "gone-0.abc123-delete"))
    assert not any(os.path.exists(os.path.join(d, ".kwire_cleanshutdown")) for d in dirs)
    lg3 = m.get("orders", 3)
    assert (lg3.log_start_offset, lg3.high_watermark, lg3.log_end_offset) == (7, 15, 15)
    assert offsets(lg3)[0] == 6  # the batch straddling the log start offset
    assert m.run_retention(NOW) == 0
    assert m.delete_partition("orders", 2) and not os.path.exists(logs[2].dir)
    assert m.get("orders", 2) is None and not m.delete_partition("orders", 2)
    assert len(m) == 3
    m.close()


def test_manager_flush_due_and_unclean_restart(tmp_path):
    m = LogManager(str(tmp_path), NOW)
    lg = m.get_or_create("t", 0, LogConfig(flush_ms=100), NOW)
    lg.append_as_leader(mk(), 0, NOW)
    assert m.flush_due(NOW + 50) == 0 and m.flush_due(NOW + 100) == 1
    lg.append_as_leader(mk(), 0, NOW)
    m.checkpoint()
    with open(lg.active_segment.log_path, "ab") as f:  # crash with a torn write
        f.write(b"\x00" * 17)
    m = LogManager(str(tmp_path), NOW)  # no marker: recovery from the checkpointed point
    lg = m.get("t", 0)
    # Kafka's LogLoader: the recovery point stays where the checkpoint had it (3, the flush
    # above) until a flush makes the recovered segment durable
    assert lg.log_end_offset == 6 and lg.recovery_point == 3
    m.update_config("t", LogConfig(flush_messages=1))
    lg.append_as_leader(mk(), 0, NOW)
    assert lg.recovery_point == 9


def test_unclean_restart_recovers_from_the_recovery_point_only_and_fsyncs_nothing(tmp_path, caplog):
    """Kafka's LogLoader after kill -9: segments below the checkpointed recovery point are
    trusted (not CRC-checked: a flipped value byte there survives), the segment holding it
    and later ones are checked and a torn tail is cut, nothing is fsynced while loading
    (an armed ``flush`` or ``leader_epoch`` fault would take the dir offline: the epochs
    the recovery finds stay in memory), and the recovery point stays where the checkpoint
    had it until the next flush, which writes those epochs first."""
    size = len(mk())
    cfg = LogConfig(segment_bytes=3 * size)
    m = LogManager(str(tmp_path), NOW)
    lg = m.get_or_create("t", 0, cfg, NOW)
    for i in range(8):  # 3 batches (9 offsets) per segment: bases 0, 9, 18; the LEO is 24
        lg.append_as_leader(mk(), 0 if i < 6 else 1, NOW)  # epoch 1 from 18: in memory only
    assert [s.base_offset for s in lg.segments] == [0, 9, 18] and lg.recovery_point == 18
    m.checkpoint()  # the crash comes after: no clean-shutdown marker, rolls fsynced up to 18
    first, active = lg.segments[0].log_path, lg.active_segment.log_path
    with open(first, "r+b") as f:  # a value byte of the first batch: a CRC check would cut
        f.seek(70)
        b = f.read(1)
        f.seek(70)
        f.write(bytes([b[0] ^ 0x55]))
    good = os.path.getsize(active)
    with open(active, "ab") as f:  # a torn write above the recovery point
        f.write(bytes(mk())[:45])
    # any segment or index fsync, or leader-epoch checkpoint write, during the load fails it
    faults.arm("flush", errno.EIO)
    faults.arm("leader_epoch", errno.EIO)
    try:
        with caplog.at_level(logging.WARNING, logger="kwire.log"):
            m = LogManager(str(tmp_path), NOW, default_config=cfg)
    finally:
        faults.disarm()
    assert not m.offline_dirs
    lg = m.get("t", 0)
    assert os.path.getsize(active) == good and lg.log_end_offset == 24
    assert os.path.getsize(first) == 3 * size and lg.segments[0].next_offset == 9
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and active in warnings[0] and "truncating 45 bytes" in warnings[0]
    assert lg.recovery_point == 18 and lg.leader_epochs.entries == [(0, 0), (1, 18)]
    assert ck.read_epochs(lg.leader_epochs.path) == [(0, 0)]  # as the crash left it
    lg.flush()  # the recovered segment and its epochs become durable; only now does it move
    assert lg.recovery_point == 24 and ck.read_epochs(lg.leader_epochs.path) == [(0, 0), (1, 18)]
    assert lg.append_as_leader(mk(), 0, NOW).base_offset == 24
    m.close()


def test_opening_a_partition_lists_its_directory_once(tmp_path, monkeypatch):
    """Start-up with tens of thousands of partitions pays per directory listing: the swap
    recovery, the stray-file sweep, the segment list, the producer snapshots, the
    transaction index and the leader-epoch checkpoint share one listing of the partition
    directory."""
    lg = filled(tmp_path, batches=4, segment_bytes=300)
    assert len(lg.segments) > 1
    lg.close()
    (tmp_path / "t-0" / "00000000000000000000.index.tmp").write_bytes(b"")  # a stray file
    real = os.listdir
    listed = []

    def counting_listdir(path="."):
        listed.append(os.path.basename(os.fspath(path)))
        return real(path)

    monkeypatch.setattr(os, "listdir", counting_listdir)
    lg = PartitionLog.open(str(tmp_path), "t", 0, LogConfig(segment_bytes=300), NOW)
    monkeypatch.undo()
    lg.update_high_watermark(lg.log_end_offset)
    assert listed.count("t-0") == 1, listed
    assert not (tmp_path / "t-0" / "00000000000000000000.index.tmp").exists()  # still swept
    assert offsets(lg) == list(range(12))
    lg.close()


def test_clean_restart_from_one_listing_keeps_producers_epochs_and_timestamps(tmp_path):
    """After a clean shutdown the start-up reads each partition's files from one listing
    (no directory listed again, no replay past the snapshot at the LEO): the idempotent
    producer's retry is still answered as a duplicate, the leader epochs are the ones
    written, and segment.ms still sees the first batch's timestamp."""
    m = LogManager(str(tmp_path), NOW)
    lg = m.get_or_create("t", 0)
    lg.append_as_leader(mk(ts=NOW - 5000), 3, NOW)  # epoch 3, first batch 5 s old
    idem = bytes(build_batch([(b"k", b"v", [], NOW)], now_ms=NOW, producer_id=77,
                             producer_epoch=0, base_sequence=0))
    first = lg.append_as_leader(bytearray(idem), 4, NOW)
    m.close()
    assert (tmp_path / ".kwire_cleanshutdown").exists()
    m = LogManager(str(tmp_path), NOW)
    assert gc.isenabled()  # paused while loading only
    lg = m.get("t", 0)
    assert lg.leader_epochs.entries == [(3, 0), (4, 3)]
    retry = lg.append_as_leader(bytearray(idem), 4, NOW)
    assert retry.duplicate and retry.base_offset == first.base_offset == 3
    assert lg.active_segment.first_batch_timestamp == NOW - 5000 + 2
    assert lg.log_end_offset == 4
    m.close()


def test_offset_checkpoint_bytes_are_kafkas_format(tmp_path):
    """write_offsets formats its lines itself (start-up writes 50,000 of them): Kafka's
    layout exactly, sorted by topic and partition, and read back unchanged."""
    path = str(tmp_path / "recovery-point-offset-checkpoint")
    offsets_in = {("b", 0): 7, ("a", 10): 0, ("a", 2): 123456789012}
    ck.write_offsets(path, offsets_in)
    assert open(path, "rb").read() == b"0\n3\na 2 123456789012\na 10 0\nb 0 7\n"
    assert ck.read_offsets(path) == offsets_in
    ck.write_offsets(path, {})
    assert open(path, "rb").read() == b"0\n0\n"


def test_recovery_keeps_empty_index_files_and_rewrites_others(tmp_path):
    """A one-batch segment has empty indexes: recovery neither unlinks nor re-creates them
    (descriptors opened before still see linked files); a segment with index entries gets them rebuilt from its batches."""
    one = filled(tmp_path / "one", batches=1)
    many = filled(tmp_path / "many", batches=10, index_interval_bytes=1)
    one_paths = (one.active_segment.index_path, one.active_segment.timeindex_path)
    many_index = many.active_segment.index_path
    expected = open(many_index, "rb").read()
    assert len(expected) > 0 and all(os.path.getsize(p) == 0 for p in one_paths)
    held = [os.open(p, os.O_RDONLY) for p in one_paths]  # an unlinked file: st_nlink 0
    for lg in (one, many):  # no close: the next open is a recovery from offset 0
        for seg in lg.segments:
            seg.close()
    with open(many_index, "r+b") as f:  # garbage the rebuild must not keep
        f.write(b"\xff" * 8)
    one = reopen(tmp_path / "one")
    many = reopen(tmp_path / "many", index_interval_bytes=1)
    try:
        assert [os.fstat(fd).st_nlink for fd in held] == [1, 1]
    finally:
        for fd in held:
            os.close(fd)
    assert all(os.path.getsize(p) == 0 for p in one_paths) and offsets(one) == [0, 1, 2]
    assert open(many_index, "rb").read() == expected and offsets(many) == list(range(30))
