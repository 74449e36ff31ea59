"""Storage faults on the append path: every write is all or nothing (kwire.log.faults).

For each write site an append can reach (the .log write, an offset-index or
time-index entry, the new segment and the producer snapshot of a roll) and each of ENOSPC / EACCES: the failed append
answers KAFKA_STORAGE_ERROR, memory is exactly as before, the files say
the same as memory, nothing acknowledged is lost, nothing reported failed is
readable (now or after a reopen with recovery), and once the fault is
cleared the same producer retry is appended at the next offset. Failures
that cannot be undone (a failing undo, an fsync, an offset checkpoint) take
the log dir offline: KAFKA_STORAGE_ERROR everywhere in it, the other dir
keeps working, no clean-shutdown marker. The leader-epoch checkpoint is no
longer written by an append (it waits for the log's next flush, see
``kwire.log.leader_epoch``): its faults are tested at the flush.
"""

from __future__ import annotations

import errno
import os
import shutil
import time

import pytest

from kwire.log import LogConfig, LogManager, PartitionLog, faults
from kwire.log.index import _OFF, _TIME
from kwire.log.manager import CLEAN_SHUTDOWN_FILE
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records.builder import build_batch
from kwire.records.decode import decode_batches

NOW = 1_700_000_000_000
PID = 4000
CODES = [errno.ENOSPC, errno.EACCES]

# Config per site that makes the next append reach it (see the module docstring).
SCENARIOS = {
    "log": {},
    "offset_index": {"index_interval_bytes": 1},
    "time_index": {"index_interval_bytes": 1},
    "segment_create": {"segment_bytes": 300},
    "producer_snapshot": {"segment_bytes": 300},
}


@pytest.fixture(autouse=True)
def _no_faults_left():
    yield
    faults.disarm()


def mk(seq: int, n: int = 2, ts: int = NOW) -> memoryview:
    """An idempotent batch of ``n`` records with sequences from ``seq``."""
    recs = [(b"k%d" % (seq + i), b"v%d" % (seq + i), [], ts + seq + i) for i in range(n)]
    return memoryview(bytearray(build_batch(recs, producer_id=PID, producer_epoch=0,
                                            base_sequence=seq, now_ms=ts)))


def open_log(path, **cfg) -> PartitionLog:
    return PartitionLog.open(str(path), "t", 0, LogConfig(**cfg), NOW)


def values(lg) -> list[tuple[int, bytes]]:
    """(offset, value) of every record below the LEO, read as a consumer would."""
    lg.update_high_watermark(lg.log_end_offset)
    out, offset = [], lg.log_start_offset
    while offset < lg.log_end_offset:
        res = lg.read(offset, 1 << 20)
        assert res.size, f"no progress at {offset}"
        for b in decode_batches(res.region.read()):
            out += [(r.offset, r.value) for r in b.records if r.offset >= offset]
        offset = out[-1][0] + 1
    return out


def log_bytes(lg: PartitionLog) -> bytes:
    """The segment files' bytes, in order: what a byte-for-byte replica must hold."""
    out = b""
    for s in lg.segments:
        with open(s.log_path, "rb") as f:
            out += f.read()
    return out


def memory(lg) -> dict:
    """Everything an append may change, as the partition log holds it in memory."""
    segs = []
    for s in lg.segments:
        segs.append((s.base_offset, s.size, s.next_offset, s.max_timestamp,
                     s.offset_of_max_timestamp, s.first_batch_timestamp,
                     s.bytes_since_last_index_entry,
                     list(zip(s.offset_index.rel, s.offset_index.pos)),
                     list(zip(s.time_index.ts, s.time_index.rel))))
    producers = {pid: (e.epoch, list(e.batches)) for pid, e in lg.producer_state.producers.items()}
    # not the recovery point: a roll fsyncs before it can fail, which truthfully moves it
    return {"leo": lg.log_end_offset, "segments": segs, "epochs": list(lg.leader_epochs.entries),
            "producers": producers,
            "snapshots": sorted(n for n in os.listdir(lg.dir) if n.endswith(".snapshot"))}


def assert_files_match_memory(lg) -> None:
    names = set(os.listdir(lg.dir))
    assert not [n for n in names if n.endswith(".tmp")], names
    assert {n for n in names if n.endswith(".log")} == \
        {os.path.basename(s.log_path) for s in lg.segments}
    for s in lg.segments:
        assert os.path.getsize(s.log_path) == s.size
        with open(s.offset_index.path, "rb") as f:
            assert f.read() == b"".join(_OFF.pack(r, p) for r, p in
                                        zip(s.offset_index.rel, s.offset_index.pos))
        with open(s.time_index.path, "rb") as f:
            assert f.read() == b"".join(_TIME.pack(t, r) for t, r in
                                        zip(s.time_index.ts, s.time_index.rel))
    epoch_file = os.path.join(lg.dir, "leader-epoch-checkpoint")
    if os.path.exists(epoch_file) and not lg.leader_epochs.dirty:  # dirty: the next flush writes it
        lines = open(epoch_file).read().split("\n")[2:]
        assert [tuple(map(int, ln.split())) for ln in lines if ln] == lg.leader_epochs.entries


def reopened_values(path, tmp_path) -> list[tuple[int, bytes]]:
    """The records a broker would serve after a crash now: copy the dir, recover it."""
    copy = tmp_path / "crash-copy"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(path, copy / os.path.basename(path))
    lg = open_log(copy)  # recovery_point 0: every batch is CRC-checked
    try:
        return values(lg)
    finally:
        for s in lg.segments:  # not lg.close(): that writes, and faults may still be armed
            s.close()


@pytest.mark.parametrize("code", CODES, ids=errno.errorcode.get)
@pytest.mark.parametrize("site", list(SCENARIOS))
def test_failed_append_is_undone_and_the_retry_succeeds(tmp_path, site, code):
    lg = open_log(tmp_path, **SCENARIOS[site])
    acked = []
    seq = 0
    for _ in range(3):
        r = lg.append_as_leader(mk(seq), 0, NOW)
        acked += [(r.base_offset + i, b"v%d" % (seq + i)) for i in range(2)]
        seq += 2
    before = memory(lg)
    faults.arm(site, code)
    epoch = 0
    with pytest.raises(KafkaError) as ei:
        lg.append_as_leader(mk(seq), epoch, NOW)
    assert ei.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert os.strerror(code) in ei.value.message
    assert not lg.offline
    assert memory(lg) == before
    assert lg.recovery_point <= lg.log_end_offset
    assert_files_match_memory(lg)
    assert values(lg) == acked  # nothing reported failed is readable
    assert reopened_values(lg.dir, tmp_path) == acked  # nor after a crash

    faults.disarm()
    r = lg.append_as_leader(mk(seq), epoch, NOW)  # the producer's retry: same sequence
    assert not r.duplicate and r.base_offset == before["leo"]
    acked += [(r.base_offset + i, b"v%d" % (seq + i)) for i in range(2)]
    r = lg.append_as_leader(mk(seq + 2), epoch, NOW)
    acked += [(r.base_offset + i, b"v%d" % (seq + 2 + i)) for i in range(2)]
    assert values(lg) == acked
    assert_files_match_memory(lg)
    assert reopened_values(lg.dir, tmp_path) == acked
    lg.close()
    lg = open_log(tmp_path)
    assert values(lg) == acked
    lg.close()


def test_index_entry_after_the_log_write_fits_is_undone(tmp_path):
    """The reproduced bug: the batch reaches the .log, its index entry does not."""
    lg = open_log(tmp_path, index_interval_bytes=1)
    lg.append_as_leader(mk(0), 0, NOW)
    size, entries = lg.active_segment.size, len(lg.active_segment.offset_index)
    faults.arm("offset_index", errno.ENOSPC, count=1)
    with pytest.raises(KafkaError):
        lg.append_as_leader(mk(2), 0, NOW)
    assert (lg.active_segment.size, len(lg.active_segment.offset_index)) == (size, entries)
    assert lg.log_end_offset == 2
    r1 = lg.append_as_leader(mk(2), 0, NOW)  # fault used up: no "does not follow" error
    r2 = lg.append_as_leader(mk(4), 0, NOW)
    assert (r1.base_offset, r2.base_offset) == (2, 4)
    assert [o for o, _ in values(lg)] == list(range(6))
    assert_files_match_memory(lg)


def test_failed_roll_keeps_the_segment_list(tmp_path):
    lg = open_log(tmp_path, segment_bytes=300)
    for seq in range(0, 12, 2):
        lg.append_as_leader(mk(seq), 0, NOW)
    bases = [s.base_offset for s in lg.segments]
    faults.arm("segment_create", errno.EACCES)
    for _ in range(3):  # repeated failures change nothing either
        with pytest.raises(KafkaError):
            lg.append_as_leader(mk(12), 0, NOW)
    assert [s.base_offset for s in lg.segments] == bases
    assert_files_match_memory(lg)
    faults.disarm()
    lg.append_as_leader(mk(12), 0, NOW)
    assert len(lg.segments) == len(bases) + 1
    assert [o for o, _ in values(lg)] == list(range(14))


def test_undo_that_fails_takes_the_log_dir_offline(tmp_path, caplog):
    d1, d2 = str(tmp_path / "d1"), str(tmp_path / "d2")
    mgr = LogManager([d1, d2], NOW, default_config=LogConfig(index_interval_bytes=1))
    a = mgr.get_or_create("a", 0, now_ms=NOW)
    b = mgr.get_or_create("b", 0, now_ms=NOW)
    assert mgr.log_dir_of("a", 0) != mgr.log_dir_of("b", 0)
    for lg in (a, b):
        lg.append_as_leader(mk(0), 0, NOW)
        lg.update_high_watermark(lg.log_end_offset)
    faults.arm("offset_index", errno.ENOSPC)
    faults.arm("truncate", errno.EIO)
    with pytest.raises(KafkaError) as ei:
        a.append_as_leader(mk(2), 0, NOW)
    assert ei.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    faults.disarm()
    bad = mgr.log_dir_of("a", 0)
    assert bad in mgr.offline_dirs and a.offline
    assert any(r.levelname == "ERROR" and "LOG DIR OFFLINE" in r.getMessage() for r in caplog.records)
    for op in (lambda: a.append_as_leader(mk(4), 0, NOW), lambda: a.read(0, 1000),
               lambda: a.offset_for_timestamp(0), lambda: a.delete_records_before(0)):
        with pytest.raises(KafkaError) as ei:
            op()
        assert ei.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert mgr.is_offline("a", 0) and not mgr.is_offline("b", 0)
    # the other dir keeps serving, and new partitions avoid the offline one
    assert b.append_as_leader(mk(2), 0, NOW).base_offset == 2
    c = mgr.get_or_create("c", 0, now_ms=NOW)
    assert mgr.log_dir_of("c", 0) != bad
    dirs = {x["path"]: x for x in mgr.describe_log_dirs()}
    assert dirs[bad]["error"] == ErrorCode.KAFKA_STORAGE_ERROR and dirs[bad]["partitions"] == []
    assert dirs[mgr.log_dir_of("b", 0)]["error"] == 0
    mgr.flush_due(NOW + 10**9)
    mgr.run_retention(NOW)
    rp_file = os.path.join(bad, "recovery-point-offset-checkpoint")
    rp_before = open(rp_file).read()
    mgr.close()
    assert open(rp_file).read() == rp_before  # nothing certified in the failed dir
    assert not os.path.exists(os.path.join(bad, CLEAN_SHUTDOWN_FILE))
    assert os.path.exists(os.path.join(mgr.log_dir_of("b", 0), CLEAN_SHUTDOWN_FILE))
    # A restart recovers the failed dir. The acknowledged batch is there; the failed one
    # could not be cut off, so (as in Kafka) it may survive, whole and once: its bytes are
    # a valid batch. The producer's retry is then a duplicate, answered with its offsets.
    mgr2 = LogManager([d1, d2], NOW)
    a2 = mgr2.get("a", 0)
    got = [o for o, _ in values(a2)]
    assert got in ([0, 1], [0, 1, 2, 3])
    retry = a2.append_as_leader(mk(2), 0, NOW)
    assert (retry.base_offset, retry.duplicate) == (2, got == [0, 1, 2, 3])
    assert [o for o, _ in values(mgr2.get("b", 0))] == [0, 1, 2, 3]
    assert not mgr2.offline_dirs
    mgr2.close()
    del c


def test_failed_fsync_takes_the_dir_offline_and_undoes_the_append(tmp_path):
    mgr = LogManager([str(tmp_path / "d")], NOW, default_config=LogConfig(flush_messages=1))
    lg = mgr.get_or_create("a", 0, now_ms=NOW)
    lg.append_as_leader(mk(0), 0, NOW)
    faults.arm("flush", errno.EIO)
    with pytest.raises(KafkaError) as ei:
        lg.append_as_leader(mk(2), 0, NOW)
    assert ei.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert lg.offline and mgr.offline_dirs
    faults.disarm()
    assert lg.active_segment.size == os.path.getsize(lg.active_segment.log_path)
    assert lg.log_end_offset == 2  # the failed append is not in the file either
    mgr.close()
    mgr2 = LogManager([str(tmp_path / "d")], NOW)
    assert [o for o, _ in values(mgr2.get("a", 0))] == [0, 1]
    mgr2.close()


def test_undone_error_still_skips_the_clean_shutdown_marker(tmp_path):
    d = str(tmp_path / "d")
    mgr = LogManager([d], NOW)
    lg = mgr.get_or_create("a", 0, now_ms=NOW)
    faults.arm("log", errno.ENOSPC, count=1)
    with pytest.raises(KafkaError):
        lg.append_as_leader(mk(0), 0, NOW)
    assert not mgr.offline_dirs and d in mgr.dirs_with_errors
    lg.append_as_leader(mk(0), 0, NOW)
    mgr.close()
    assert not os.path.exists(os.path.join(d, CLEAN_SHUTDOWN_FILE))
    mgr2 = LogManager([d], NOW)  # no error this time: the next close is clean
    assert [o for o, _ in values(mgr2.get("a", 0))] == [0, 1]
    mgr2.close()
    assert os.path.exists(os.path.join(d, CLEAN_SHUTDOWN_FILE))


@pytest.mark.parametrize("code", CODES, ids=errno.errorcode.get)
def test_failed_checkpoint_takes_the_dir_offline(tmp_path, code):
    d = str(tmp_path / "d")
    mgr = LogManager([d], NOW)
    lg = mgr.get_or_create("a", 0, now_ms=NOW)
    lg.append_as_leader(mk(0), 0, NOW)
    faults.arm("checkpoint", code)
    assert mgr.checkpoint() is False
    assert d in mgr.offline_dirs and lg.offline
    mgr.close()
    assert not os.path.exists(os.path.join(d, CLEAN_SHUTDOWN_FILE))


def test_partition_in_an_unwritable_dir_is_a_storage_error(tmp_path):
    d = str(tmp_path / "d")
    mgr = LogManager([d], NOW)
    faults.arm("segment_create", errno.EACCES)
    with pytest.raises(KafkaError) as ei:
        mgr.get_or_create("a", 0, now_ms=NOW)
    assert ei.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert mgr.get("a", 0) is None and not mgr.offline_dirs  # nothing registered, nothing torn
    assert os.listdir(os.path.join(d, "a-0")) == []  # no segment file left behind
    faults.disarm()
    assert mgr.get_or_create("a", 0, now_ms=NOW).append_as_leader(mk(0), 0, NOW).base_offset == 0
    mgr.close()
    assert not os.path.exists(os.path.join(d, CLEAN_SHUTDOWN_FILE))  # it saw an I/O error


def test_fault_file_arms_and_clears(tmp_path, monkeypatch):
    spec = tmp_path / "faults"
    monkeypatch.setattr(faults, "_file", str(spec))
    monkeypatch.setattr(faults, "check", faults._check_file)
    monkeypatch.setattr(faults, "_file_sig", None)
    faults.check("log")  # no file: nothing
    spec.write_text("log=ENOSPC:1, offset_index=EACCES\n")
    with pytest.raises(OSError) as ei:
        faults.check("log")
    assert ei.value.errno == errno.ENOSPC
    faults.check("log")  # count used up
    with pytest.raises(OSError):
        faults.check("offset_index")
    spec.write_text("")
    faults.check("offset_index")
    with pytest.raises(ValueError):
        faults.parse("nosuchsite=ENOSPC")


def test_skip_and_stall(tmp_path, monkeypatch):
    """``+skip`` lets calls through first; ``STALL`` blocks the caller at the site, announced on
    fd 2, until the faults file changes (or the site is disarmed)."""
    import threading

    assert faults.parse("clean=STALL:1+3@/x")["clean"] == [faults.STALL, 1, "/x", 3]
    faults.arm("log", errno.EIO, count=1, skip=2)
    try:
        faults.check("log")
        faults.check("log")
        with pytest.raises(OSError):
            faults.check("log")
        faults.check("log")
    finally:
        faults.disarm()

    spec = tmp_path / "faults"
    monkeypatch.setattr(faults, "_file", str(spec))
    monkeypatch.setattr(faults, "check", faults._check_file)
    monkeypatch.setattr(faults, "_file_sig", None)
    # only this test's path: a "clean" check from any other thread of the process (a broker left
    # by an earlier test) must neither take the skip nor stall
    mine = tmp_path / "mine"
    spec.write_text(f"clean=STALL+1@{mine}\n")
    passed = []

    def worker():
        for i in range(3):
            faults.check("clean", str(mine))
            passed.append(i)

    # fd 2 goes to a file of this test's while the worker runs: pytest's capfd empties its
    # capture on each read, and a line written by the worker between that read and the
    # emptying was lost (the GIL changes hands at the read), so the wait never saw it
    err = tmp_path / "fd2"
    fd = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    saved = os.dup(2)
    os.dup2(fd, 2)
    try:
        t = threading.Thread(target=worker, daemon=True)
        t.start()
        deadline = time.time() + 30
        while "clean stalled in pid" not in err.read_text() and time.time() < deadline:
            time.sleep(0.05)
        assert time.time() < deadline and passed == [0]  # held at the second call
        spec.write_text("\n")  # another version of the file: the stall ends
        t.join(30)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(fd)
    assert not t.is_alive() and passed == [0, 1, 2]


def _epoch_file(lg) -> list[tuple[int, int]]:
    path = os.path.join(lg.dir, "leader-epoch-checkpoint")
    if not os.path.exists(path):
        return []
    return [tuple(map(int, ln.split())) for ln in open(path).read().split("\n")[2:] if ln]


def test_new_epoch_reaches_the_checkpoint_at_the_flush_and_survives_a_crash_before_it(tmp_path):
    """The first append of an epoch writes no checkpoint (no fsync on the append path); the
    flush writes it before the recovery point passes it; a crash before the flush loses
    nothing: recovery rebuilds the entry from the batches above the recovery point."""
    lg = open_log(tmp_path)
    lg.append_as_leader(mk(0), 0, NOW)
    lg.append_as_leader(mk(2), 3, NOW)
    assert lg.leader_epochs.entries == [(0, 0), (3, 2)]
    assert lg.leader_epochs.dirty and _epoch_file(lg) == []
    crashed = tmp_path / "crash-copy"
    shutil.copytree(lg.dir, crashed / os.path.basename(lg.dir))
    again = open_log(crashed)  # recovery from offset 0 replays both batches' epochs
    assert again.leader_epochs.entries == [(0, 0), (3, 2)]
    for s in again.segments:
        s.close()
    lg.flush(NOW)
    assert not lg.leader_epochs.dirty and _epoch_file(lg) == [(0, 0), (3, 2)]
    assert lg.recovery_point == 4
    lg.append_as_leader(mk(4), 3, NOW)  # same epoch: nothing to write
    assert not lg.leader_epochs.dirty
    lg.close()
    lg = open_log(tmp_path)
    assert lg.leader_epochs.entries == [(0, 0), (3, 2)]
    lg.close()


@pytest.mark.parametrize("code", CODES, ids=errno.errorcode.get)
def test_failed_epoch_checkpoint_at_flush_takes_the_dir_offline(tmp_path, code):
    """The deferred checkpoint write fails at the flush: like a failed fsync, the log goes
    offline (the recovery point does not move), and the records stay recoverable."""
    lg = open_log(tmp_path)
    failures = []
    lg.on_dir_failure = lambda d, why: failures.append(why)
    lg.append_as_leader(mk(0), 2, NOW)
    faults.arm("leader_epoch", code)
    with pytest.raises(KafkaError) as ei:
        lg.flush(NOW)
    assert ei.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert lg.offline and lg.recovery_point == 0 and failures
    faults.disarm()
    assert reopened_values(lg.dir, tmp_path) == [(0, b"v0"), (1, b"v1")]
