"""A clean shutdown's fsyncs and renames done together per log dir (kwire/log/durability.py)."""

from __future__ import annotations

import errno
import os

import pytest

from kwire.log import LogConfig, LogManager, faults
from kwire.log.durability import SyncBatch
from kwire.log.leader_epoch import FILE_NAME
from kwire.log.manager import CLEAN_SHUTDOWN_FILE
from kwire.log.producer_state import list_snapshots
from kwire.protocol.errors import ErrorCode, KafkaError

from test_log_faults import NOW, _no_faults_left, mk  # noqa: F401 (an autouse fixture)

PARTITIONS = 6


def written_manager(root) -> LogManager:
    """PARTITIONS logs, each with two idempotent batches at leader epoch 3 (4 records)."""
    mgr = LogManager(str(root), NOW, max_open_files=64)
    for p in range(PARTITIONS):
        lg = mgr.get_or_create("t", p, LogConfig(), NOW)
        lg.append_as_leader(mk(0), 3, NOW)
        lg.append_as_leader(mk(2), 3, NOW)
        lg.update_high_watermark(lg.log_end_offset)
    return mgr


def names(root, p) -> list[str]:
    return sorted(os.listdir(os.path.join(root, f"t-{p}")))


def assert_producer_state_survived(mgr: LogManager) -> None:
    """Every log ends at 4, knows epoch 3 from offset 0, and the producer's sequence goes on:
    a retried batch is a duplicate, a gap is OUT_OF_ORDER_SEQUENCE_NUMBER, the next one appends."""
    for p in range(PARTITIONS):
        lg = mgr.get_or_create("t", p, LogConfig(), NOW)
        assert lg.log_end_offset == 4
        assert lg.leader_epochs.entries == [(3, 0)]
        assert lg.append_as_leader(mk(2), 3, NOW).duplicate
        with pytest.raises(KafkaError) as e:
            lg.append_as_leader(mk(9), 3, NOW)
        assert e.value.code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
        assert lg.append_as_leader(mk(4), 3, NOW).base_offset == 4


def test_clean_close_syncs_each_dir_at_most_twice_and_leaves_complete_files(tmp_path, monkeypatch):
    mgr = written_manager(tmp_path)
    fsyncs = []
    real_fsync, real_fdatasync = os.fsync, os.fdatasync
    monkeypatch.setattr(os, "fsync", lambda fd: (fsyncs.append(os.readlink(f"/proc/self/fd/{fd}")),
                                                 real_fsync(fd))[1])
    monkeypatch.setattr(os, "fdatasync", lambda fd: (fsyncs.append(os.readlink(f"/proc/self/fd/{fd}")),
                                                     real_fdatasync(fd))[1])
    mgr.close()
    monkeypatch.undo()
    # no fsync of any partition's file or directory: the offset checkpoints, the small logs'
    # summary (summary.py) and the marker only
    assert not [f for f in fsyncs if os.sep + "t-" in f], fsyncs
    assert len(fsyncs) <= 4 * 2 + 2, fsyncs
    assert os.path.exists(tmp_path / CLEAN_SHUTDOWN_FILE)
    for p in range(PARTITIONS):
        left = names(tmp_path, p)
        assert not [n for n in left if n.endswith(".tmp")], left
        assert FILE_NAME in left and "00000000000000000004.snapshot" in left, left
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)
    assert_producer_state_survived(mgr)
    mgr.close()


def test_a_crash_before_the_commit_leaves_the_old_files_and_a_recovery(tmp_path):
    """Everything a clean close wrote but did not commit is in ``.tmp`` files the next
    (unclean) start removes; the logs and the producer state are rebuilt as after kill -9."""
    mgr = written_manager(tmp_path)
    mgr.cleaner.shutdown()
    batch = SyncBatch(str(tmp_path))
    for lg in mgr:
        lg.close(batch)
    assert batch._renames  # epoch checkpoints and producer snapshots, none renamed yet
    for p in range(PARTITIONS):
        left = names(tmp_path, p)
        assert "00000000000000000004.snapshot" not in left and \
            "00000000000000000004.snapshot.tmp" in left, left
    mgr.fd_cache.close_all()
    # the process dies here: no commit, no checkpoints, no marker
    assert not os.path.exists(tmp_path / CLEAN_SHUTDOWN_FILE)
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)
    for p in range(PARTITIONS):
        assert not [n for n in names(tmp_path, p) if n.endswith(".tmp")]
    assert_producer_state_survived(mgr)
    mgr.close()


def test_commit_renames_only_after_the_content_is_synced_and_prunes_after(tmp_path):
    for use_syncfs in (True, False):
        d = tmp_path / str(use_syncfs)
        d.mkdir()
        (d / "f").write_bytes(b"old")
        (d / "f.tmp").write_bytes(b"new")
        batch = SyncBatch(str(d), use_syncfs=use_syncfs)
        order = []
        batch.replace_later(str(d / "f.tmp"), str(d / "f"))
        batch.fsync_later(str(d / "f.tmp"))
        batch.after(lambda: order.append((d / "f").read_bytes()))
        assert (d / "f").read_bytes() == b"old"
        batch.commit()
        assert order == [b"new"] and not (d / "f.tmp").exists()
        assert 2 <= batch.syncs <= 4  # syncfs: one before and one after the renames


def test_a_failed_commit_takes_the_dir_offline_and_certifies_nothing(tmp_path):
    mgr = written_manager(tmp_path)
    rp = tmp_path / "recovery-point-offset-checkpoint"
    before = rp.read_bytes() if rp.exists() else None
    faults.arm("flush", errno.EIO, under=str(tmp_path))  # only the commit passes the dir
    mgr.close()
    faults.disarm()
    assert not os.path.exists(tmp_path / CLEAN_SHUTDOWN_FILE)
    assert str(tmp_path) in mgr.offline_dirs
    assert (rp.read_bytes() if rp.exists() else None) == before  # recovery points not moved
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)  # recovered, nothing lost
    assert_producer_state_survived(mgr)
    mgr.close()


def test_an_unchanged_log_commits_nothing(tmp_path):
    mgr = written_manager(tmp_path)
    mgr.close()
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)
    snaps = {p: list_snapshots(str(tmp_path / f"t-{p}")) for p in range(PARTITIONS)}
    mgr.close()  # opened and closed: no snapshot, no epoch file, no sync
    assert {p: list_snapshots(str(tmp_path / f"t-{p}")) for p in range(PARTITIONS)} == snaps
    assert os.path.exists(tmp_path / CLEAN_SHUTDOWN_FILE)
