"""kwire.coordinator.replay.LogReplay on a real partition log in a temporary dir."""

from __future__ import annotations

import asyncio
import logging

import pytest

from kwire.coordinator.replay import LogReplay
from kwire.log.config import LogConfig
from kwire.log.partition_log import PartitionLog
from kwire.log.validate import AppendOrigin
from kwire.records.builder import build_batch
from kwire.records.control import ABORT, COMMIT, build_end_txn_batch

NOW = 1_700_000_000_000


class Bad(ValueError):
    pass


def make_log(tmp_path) -> PartitionLog:
    plog = PartitionLog.open(str(tmp_path), "__internal", 0, LogConfig(), NOW)
    plain = [(b"k1", b"v1"), (b"k2", b"v2"), (b"bad", b"x"), (b"k1", None)]  # a tombstone last
    plog.append_as_leader(bytearray(build_batch(plain, now_ms=NOW)), 0, NOW, origin=AppendOrigin.COORDINATOR)
    for pid, marker in ((7, COMMIT), (8, ABORT)):
        txn = build_batch([(b"t%d" % pid, b"tv")], producer_id=pid, producer_epoch=0, base_sequence=0,
                          is_transactional=True, now_ms=NOW)
        plog.append_as_leader(bytearray(txn), 0, NOW, origin=AppendOrigin.COORDINATOR)
        end = build_end_txn_batch(marker, producer_id=pid, producer_epoch=0, coordinator_epoch=0, timestamp=NOW)
        plog.append_as_leader(bytearray(end), 0, NOW, origin=AppendOrigin.COORDINATOR)
    return plog


def recorder():
    seen = []

    def apply(rec):
        if rec.key == b"bad":
            raise Bad("not a record of this topic")
        seen.append((rec.offset, rec.key, rec.value))
    return seen, apply


def test_plain_replay_skips_markers_applies_transactional_records_and_bad_ones_are_logged(tmp_path, caplog):
    plog = make_log(tmp_path)
    seen, apply = recorder()
    with caplog.at_level(logging.ERROR, logger="kwire.coordinator"):
        n = LogReplay(plog, "__internal", 0, apply, errors=(Bad,)).run()
    assert seen == [(0, b"k1", b"v1"), (1, b"k2", b"v2"), (3, b"k1", None), (4, b"t7", b"tv"), (6, b"t8", b"tv")]
    assert n == 5
    assert "__internal-0 offset 2: skipping undecodable record: not a record of this topic" in caplog.text
    plog.close()


def test_transactional_records_and_markers_go_to_their_callbacks(tmp_path):
    plog = make_log(tmp_path)
    seen, apply = recorder()
    pending, markers = [], []
    replay = LogReplay(plog, "__internal", 0, apply, errors=(Bad,),
                       apply_pending=lambda pid, rec: pending.append((pid, rec.offset)),
                       on_marker=lambda pid, committed: markers.append((pid, committed)))
    assert asyncio.run(replay.run_async()) == 5
    assert [s[0] for s in seen] == [0, 1, 3]
    assert pending == [(7, 4), (8, 6)]
    assert markers == [(7, True), (8, False)]
    plog.close()


def test_one_chunk_per_step_and_the_end_is_fixed_when_the_load_starts(tmp_path):
    plog = make_log(tmp_path)
    seen, apply = recorder()
    steps = LogReplay(plog, "__internal", 0, apply, errors=(Bad,), chunk=1).steps()
    next(steps)  # at least one batch per read: the first batch only
    assert [s[0] for s in seen] == [0, 1, 3]
    plog.append_as_leader(bytearray(build_batch([(b"late", b"v")], now_ms=NOW)), 0, NOW,
                          origin=AppendOrigin.COORDINATOR)
    assert sum(1 for _ in steps) == 4  # the four batches that were there, not the late one
    assert b"late" not in [s[1] for s in seen]
    plog.close()


def test_other_errors_end_the_load(tmp_path):
    plog = make_log(tmp_path)

    def apply(rec):
        raise KeyError(rec.offset)
    with pytest.raises(KeyError):
        LogReplay(plog, "__internal", 0, apply, errors=(Bad,)).run()
    plog.close()
