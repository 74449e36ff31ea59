"""The log cleaner on real segment files: compaction rules, swap, crash safety, faults."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from kwire.log import LogConfig, faults
from kwire.log.cleaner import CHECKPOINT_FILE
from kwire.log.checkpoint import read_offsets
from kwire.log.manager import LogManager
from kwire.records import batch as B
from kwire.records.builder import build_batch
from kwire.records.compression import GZIP, LZ4, NONE, SNAPPY, ZSTD
from kwire.records.decode import decode_batches

NOW = int(time.time() * 1000)
HOUR = 3600_000


def cfg(**kw) -> LogConfig:
    base = dict(cleanup_policy="compact", segment_bytes=4096, min_cleanable_dirty_ratio=0.01,
                delete_retention_ms=HOUR)
    base.update(kw)
    return LogConfig(**base)


def manager(tmp_path, **cleaner):
    return LogManager(str(tmp_path), NOW, max_open_files=64,
                      cleaner=dict(cleaner or {"backoff_ms": 0}))


def produce(lg, items, *, ts=None, compression=NONE, per_batch=5, **kw):
    """Append (key, value) items in batches; HW follows the LEO."""
    ts = NOW - HOUR if ts is None else ts
    for i in range(0, len(items), per_batch):
        recs = [(k, v, [], ts) for k, v in items[i:i + per_batch]]
        lg.append_as_leader(bytearray(build_batch(recs, compression=compression, now_ms=ts, **kw)),
                            0, NOW)
    lg.update_high_watermark(lg.log_end_offset)


def batches(lg):
    """Every batch as a consumer fetching from the log start sees it (by repeated reads)."""
    out = []
    offset = lg.log_start_offset
    while offset < lg.high_watermark:
        res = lg.read(offset, 1 << 20)
        assert res.size, f"no progress at {offset}"
        got = decode_batches(res.region.read())
        out += got
        offset = got[-1].header.base_offset + got[-1].header.last_offset_delta + 1
    return out


def records(lg):
    return [r for b in batches(lg) for r in b.records]


def latest(items_with_offsets):
    last = {}
    for off, k, v in items_with_offsets:
        last[k] = (off, v)
    return last


def updates(n_keys, rounds, size=40):
    return [(b"key-%03d" % k, b"r%d-" % r + b"v" * size) for r in range(rounds) for k in range(n_keys)]


def test_latest_value_per_key_offsets_preserved_active_untouched(tmp_path):
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(), NOW)
    items = updates(20, 10)
    produce(lg, items)
    before = records(lg)
    assert len(before) == 200
    active = lg.active_segment
    active_bytes = open(active.log_path, "rb").read()
    n_segments = len(lg.segments)
    assert n_segments > 3
    size_before = lg.size_bytes
    assert m.cleaner.clean_now(lg)
    after = records(lg)
    # active segment untouched, every other key's latest value kept at its own offset
    assert lg.active_segment is active and open(active.log_path, "rb").read() == active_bytes
    active_offsets = set(range(active.base_offset, lg.log_end_offset))
    want = {(r.offset, r.key, r.value) for r in before if r.offset in active_offsets}
    lat = latest((r.offset, r.key, r.value) for r in before if r.offset < active.base_offset)
    want |= {(off, k, v) for k, (off, v) in lat.items()}
    assert {(r.offset, r.key, r.value) for r in after} == want
    assert [r.offset for r in after] == sorted(r.offset for r in after)
    assert lg.size_bytes < size_before
    assert lg.log_end_offset == 200 and lg.log_start_offset == 0
    # the checkpoint is where the next pass starts: the active segment's base
    cp = read_offsets(os.path.join(str(tmp_path), CHECKPOINT_FILE))
    assert cp[("t", 0)] == active.base_offset
    assert not [n for n in os.listdir(lg.dir) if n.endswith((".cleaned", ".swap", ".deleted",
                                                            ".cleanend"))]
    # a restart reads the same log back (indexes of the cleaned segment are sound)
    m.close()
    m2 = manager(tmp_path)
    lg2 = m2.get_or_create("t", 0, cfg(), NOW)
    lg2.update_high_watermark(lg2.log_end_offset)
    assert [(r.offset, r.key, r.value) for r in records(lg2)] == \
        [(r.offset, r.key, r.value) for r in after]
    assert m2.cleaner.checkpoints[("t", 0)] == active.base_offset
    # nothing new is dirty: no second pass
    assert not m2.cleaner.clean_now(lg2)
    # a second pass (more updates) merges the now small segments into one group
    produce(lg2, updates(20, 3))
    assert m2.cleaner.clean_now(lg2)
    assert len(lg2.segments) < n_segments
    assert {r.key for r in records(lg2)} == {k for k, _ in items}
    m2.close()


def test_offset_lookups_inside_gaps_land_on_the_next_kept_record(tmp_path):
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(), NOW)
    produce(lg, updates(5, 30))
    m.cleaner.clean_now(lg)
    kept = [r.offset for r in records(lg)]
    for off in range(0, lg.log_end_offset):
        res = lg.read(off, 1 << 20)
        got = [r.offset for b in decode_batches(res.region.read()) for r in b.records]
        nxt = min(o for o in kept if o >= off)
        assert min(o for o in got if o >= off) == nxt
    m.close()


@pytest.mark.parametrize("codec", [GZIP, SNAPPY, LZ4, ZSTD])
def test_rebuilt_batches_keep_their_codec_and_header_fields(tmp_path, codec):
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(), NOW)
    # each batch: k0..k3 then k0 again, so every batch loses records but keeps some
    items = []
    for r in range(40):
        items += [(b"k%d-%d" % (r, i), b"v" * 30) for i in range(4)] + [(b"k%d-0" % r, b"new")]
    produce(lg, items, compression=codec, per_batch=5, partition_leader_epoch=3)
    before = {b.header.base_offset: b.header for b in batches(lg)}
    m.cleaner.clean_now(lg)
    after = batches(lg)
    active = lg.active_segment.base_offset
    rebuilt = [b for b in after if b.header.base_offset < active]
    assert rebuilt
    for b in rebuilt:
        h, old = b.header, before[b.header.base_offset]
        assert h.compression == codec and h.records_count == 4
        assert (h.last_offset_delta, h.base_timestamp, h.partition_leader_epoch) == \
            (old.last_offset_delta, old.base_timestamp, 0)
        assert [r.key for r in b.records][-1] != b.records[0].key
        assert {r.offset for r in b.records} == {h.base_offset + d for d in (1, 2, 3, 4)}
    m.close()


def test_tombstones_kept_until_delete_retention_then_removed(tmp_path):
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(delete_retention_ms=60_000), NOW)
    produce(lg, updates(10, 3))
    produce(lg, [(b"key-%03d" % k, None) for k in range(5)], ts=NOW - HOUR + 7)  # delete 0..4
    produce(lg, [(b"key-%03d" % k, b"again") for k in range(5, 10)] * 4)  # more updates
    produce(lg, [(b"filler-%d" % i, b"x" * 200) for i in range(40)])
    assert m.cleaner.clean_now(lg, NOW)
    tomb = [b for b in batches(lg) if any(r.value is None for r in b.records)]
    assert sorted(r.key for b in tomb for r in b.records if r.value is None) == \
        [b"key-%03d" % k for k in range(5)]
    # KIP-534: the pass stamped a delete horizon (now + delete.retention.ms) on the batch,
    # and every record kept its own timestamp
    for b in tomb:
        assert b.header.attributes & B.DELETE_HORIZON_MASK
        assert b.header.base_timestamp == NOW + 60_000
        assert {r.timestamp for r in b.records} == {NOW - HOUR + 7}
    assert m.cleaner.horizons[("t", 0)] == NOW + 60_000
    # before the horizon nothing qualifies; after it a pass drops them, with nothing dirty
    assert not m.cleaner.clean_now(lg, NOW + 30_000)
    assert m.cleaner._candidates(NOW + 61_000) is not None
    assert m.cleaner.clean_now(lg, NOW + 61_000)
    recs = records(lg)
    assert not [r for r in recs if r.value is None]
    keys = {r.key for r in recs}
    assert not keys & {b"key-%03d" % k for k in range(5)}
    assert {b"key-%03d" % k for k in range(5, 10)} <= keys
    assert ("t", 0) not in m.cleaner.horizons
    m.close()


def test_min_compaction_lag_holds_back_recent_segments(tmp_path):
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(min_compaction_lag_ms=HOUR), NOW)
    produce(lg, updates(10, 6), ts=NOW - 1000)  # newer than the lag
    size = lg.size_bytes
    assert not m.cleaner.clean_now(lg, force=True)
    assert lg.size_bytes == size and len(records(lg)) == 60
    # the same records seen two hours later are old enough
    assert m.cleaner.clean_now(lg, NOW + 2 * HOUR)
    assert lg.size_bytes < size
    m.close()


def test_dirty_ratio_and_max_compaction_lag(tmp_path):
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(min_cleanable_dirty_ratio=0.99), NOW)
    produce(lg, updates(10, 6))
    m.cleaner.clean_now(lg, force=True)
    produce(lg, updates(10, 6))
    c = m.cleaner.cleanable(lg)
    assert 0 < c.ratio < 0.99 and not c.overdue
    assert not m.cleaner.clean_now(lg)
    lg.update_config(cfg(min_cleanable_dirty_ratio=0.99, max_compaction_lag_ms=60_000))
    assert m.cleaner.cleanable(lg).overdue  # its records are an hour old
    assert m.cleaner.clean_now(lg)
    m.close()


def test_idempotent_producer_state_survives_cleaning_and_reload(tmp_path):
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(), NOW)
    # producer 7 writes k0 only; later an un-idempotent writer overwrites k0
    for seq in range(0, 10, 2):
        lg.append_as_leader(bytearray(build_batch([(b"k0", b"p%d" % seq, [], NOW - HOUR)] * 2,
                                                  producer_id=7, producer_epoch=0,
                                                  base_sequence=seq, now_ms=NOW - HOUR)), 0, NOW)
    produce(lg, [(b"k0", b"final")] + [(b"f%d" % i, b"z" * 200) for i in range(40)])
    assert m.cleaner.clean_now(lg)
    pb = [b for b in batches(lg) if b.header.producer_id == 7]
    assert len(pb) == 1 and pb[0].header.records_count == 0  # kept empty: the producer's last batch
    assert (pb[0].header.base_sequence, pb[0].header.last_offset_delta) == (8, 1)
    m.close()
    for name in os.listdir(lg.dir):  # no snapshot: the state must come from the log itself
        if name.endswith(".snapshot"):
            os.unlink(os.path.join(lg.dir, name))
    m2 = manager(tmp_path)
    lg2 = m2.get_or_create("t", 0, cfg(), NOW)
    assert lg2.producer_state.producers[7].last_seq == 9
    r = lg2.append_as_leader(bytearray(build_batch([(b"k0", b"p8")] * 2, producer_id=7,
                                                   producer_epoch=0, base_sequence=8)), 0, NOW)
    assert r.duplicate  # the retry of the last batch is still recognised
    m2.close()


def test_io_error_while_cleaning_leaves_the_log_unchanged_and_retries_later(tmp_path):
    m = manager(tmp_path, backoff_ms=0, uncleanable_retry_ms=500)
    lg = m.get_or_create("t", 0, cfg(), NOW)
    produce(lg, updates(10, 8))
    files_before = {n: open(os.path.join(lg.dir, n), "rb").read() for n in os.listdir(lg.dir)
                    if n.endswith(".log")}
    faults.arm("clean", errno.EIO)
    try:
        with pytest.raises(OSError):
            m.cleaner.clean_now(lg)
    finally:
        faults.disarm()
    assert {n: open(os.path.join(lg.dir, n), "rb").read() for n in os.listdir(lg.dir)
            if n.endswith(".log")} == files_before
    assert not [n for n in os.listdir(lg.dir) if ".cleaned" in n or n.endswith(".cleanend")]
    assert not lg.offline and len(records(lg)) == 80
    assert m.cleaner.uncleanable[("t", 0)] > NOW and str(tmp_path) in m.dirs_with_errors
    # the tick path skips it until the retry time, then cleans it
    now = int(time.time() * 1000)
    m.cleaner.tick(now)
    assert not m.cleaner.busy
    deadline = time.time() + 120  # a wait, not a bound: a pass takes seconds on a loaded machine
    while time.time() < deadline and m.cleaner.stats["passes"] == 0:
        m.flush_due(int(time.time() * 1000) + 1000)
        time.sleep(0.05)
    assert m.cleaner.stats["passes"] == 1 and len(records(lg)) < 80
    m.close()


@pytest.mark.parametrize("fail_at", [1, 2, 3])
def test_io_error_during_the_swap_is_undone(tmp_path, fail_at):
    from kwire.log import cleaner_swap
    from kwire.log.cleaner import cleanable
    from kwire.log.cleaner_rewrite import run

    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(), NOW)
    produce(lg, updates(10, 8))
    before = [(r.offset, r.key, r.value) for r in records(lg)]
    listing = sorted(os.listdir(lg.dir))
    plan = m.cleaner.plan(lg, cleanable(lg, None, NOW), NOW)
    result = run(plan)

    def hook(step):
        if step == fail_at:
            faults.arm("clean", errno.ENOSPC)

    cleaner_swap.STEP_HOOK = hook
    try:
        assert not m.cleaner.apply(("t", 0), lg, plan, result, NOW)
    finally:
        cleaner_swap.STEP_HOOK = None
        faults.disarm()
    assert sorted(os.listdir(lg.dir)) == listing
    assert [(r.offset, r.key, r.value) for r in records(lg)] == before
    assert not lg.offline
    assert m.cleaner.clean_now(lg, force=True)  # and it works once the disk is fine
    m.close()


def test_a_reader_racing_the_swap_keeps_the_old_bytes(tmp_path):
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(segment_bytes=1 << 20), NOW)
    produce(lg, [(b"k%d" % (i % 10), os.urandom(1000)) for i in range(600)], per_batch=10)
    produce(lg, [(b"k%d" % (i % 10), b"new") for i in range(10)])
    lg.roll(NOW)
    res = lg.read(0, 1 << 20)
    region = res.region
    assert region.length >= 256 * 1024 and region._pinned  # sendfile-sized: it pins the descriptor
    old_path = region.file.name
    expected = open(old_path, "rb").read(region.length)
    assert m.cleaner.clean_now(lg)
    assert region.read() == expected  # the old, now unlinked, file
    assert os.path.getsize(old_path) < region.length  # the name holds the cleaned segment
    os.sendfile  # the connection sends from this descriptor
    del region, res
    assert len(records(lg)) == 10
    m.close()


@pytest.mark.parametrize("executor", ["process", "thread"])
def test_cleaner_worker_ticks_from_flush_due(tmp_path, executor):
    m = manager(tmp_path, backoff_ms=0, executor=executor)
    lg = m.get_or_create("t", 0, cfg(), NOW)
    produce(lg, updates(10, 10))
    deadline = time.time() + 120  # a wait, not a bound (see above)
    while time.time() < deadline and m.cleaner.stats["passes"] == 0:
        m.flush_due(int(time.time() * 1000))
        time.sleep(0.02)
    assert m.cleaner.stats["passes"] == 1 and m.cleaner.executor_kind == executor
    assert len(records(lg)) < 100
    m.close()
    assert m.cleaner._executor is None  # the worker is gone with the manager


def test_non_compacted_logs_are_never_cleaned(tmp_path):
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(cleanup_policy="delete"), NOW)
    produce(lg, updates(10, 8))
    m.cleaner.tick(NOW)
    assert not m.cleaner.busy and m.cleaner._candidates(NOW) is None
    m.close()


CRASH_SCRIPT = textwrap.dedent("""
    import os, signal, sys
    from kwire.log import LogConfig, cleaner_swap
    from kwire.log.manager import LogManager
    step = int(sys.argv[2])
    m = LogManager(sys.argv[1], 0, max_open_files=64, cleaner={"backoff_ms": 0})
    lg = m.get("t", 0)
    lg.update_config(LogConfig(cleanup_policy="compact", segment_bytes=4096,
                               min_cleanable_dirty_ratio=0.01, delete_retention_ms=3600000))
    lg.update_high_watermark(lg.log_end_offset)
    def hook(s):
        if s == step:
            os.kill(os.getpid(), signal.SIGKILL)
    cleaner_swap.STEP_HOOK = hook
    m.cleaner.clean_now(lg)
    os.kill(os.getpid(), signal.SIGKILL)  # step 5: after the swap, before any clean shutdown
""")


@pytest.mark.parametrize("step", [1, 2, 3, 4, 5])
def test_kill_9_during_the_swap_leaves_a_complete_readable_log(tmp_path, step):
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(), NOW)
    produce(lg, updates(10, 10))
    all_before = [(r.offset, r.key, r.value) for r in records(lg)]
    active = lg.active_segment.base_offset
    leo = lg.log_end_offset
    m.close()
    p = subprocess.run([sys.executable, "-c", CRASH_SCRIPT, str(tmp_path), str(step)],
                       cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
                       capture_output=True, timeout=120)
    assert p.returncode == -signal.SIGKILL, p.stderr.decode()[-2000:]
    m2 = manager(tmp_path)
    lg2 = m2.get_or_create("t", 0, cfg(), NOW)
    lg2.update_high_watermark(lg2.log_end_offset)
    after = [(r.offset, r.key, r.value) for r in records(lg2)]
    assert not [n for n in os.listdir(lg2.dir) if n.endswith((".swap", ".cleaned", ".deleted",
                                                             ".cleanend"))]
    assert lg2.log_end_offset == leo
    offsets = [o for o, _, _ in after]
    assert offsets == sorted(set(offsets))  # nothing duplicated
    assert set(after) <= set(all_before)
    lat = latest(all_before)
    kept_latest = {(off, k, v) for k, (off, v) in lat.items()}
    assert kept_latest <= set(after)  # no latest value lost
    tail = [x for x in all_before if x[0] >= active]
    assert set(tail) <= set(after)
    if step == 1:
        assert after == all_before  # nothing swapped yet
    else:
        assert len(after) < len(all_before)  # the swap was decided: finished at start-up
    m2.close()


# -- transactions (Kafka's CleanedTransactionMetadata) ------------------------------------------

def txn(lg, pid, seq, items, *, epoch=0, ts=None):
    """One transactional batch of producer ``pid`` (as the partition leader takes it)."""
    from kwire.log.validate import AppendOrigin

    ts = NOW - HOUR if ts is None else ts
    buf = build_batch([(k, v, [], ts) for k, v in items], producer_id=pid, producer_epoch=epoch,
                      base_sequence=seq, is_transactional=True, now_ms=ts)
    lg.append_as_leader(bytearray(buf), 0, NOW, origin=AppendOrigin.COORDINATOR)
    lg.update_high_watermark(lg.log_end_offset)


def marker(lg, pid, commit, *, epoch=0):
    from kwire.log.validate import AppendOrigin
    from kwire.records.control import COMMIT, ABORT, build_end_txn_batch

    buf = build_end_txn_batch(COMMIT if commit else ABORT, producer_id=pid, producer_epoch=epoch,
                              coordinator_epoch=0, timestamp=NOW - HOUR)
    lg.append_as_leader(bytearray(buf), 0, NOW, origin=AppendOrigin.COORDINATOR)
    lg.update_high_watermark(lg.log_end_offset)


def control_batches(lg):
    """(producer id, control type or None when emptied, has a delete horizon) of each marker."""
    from kwire.records.control import control_type

    return [(b.header.producer_id, control_type(b.records[0].key) if b.records else None,
             bool(b.header.attributes & B.DELETE_HORIZON_MASK))
            for b in batches(lg) if b.header.is_control]


def committed_view(lg):
    """(offset, key, value) a read_committed consumer returns: the Java consumer's rule over
    the log's batches and its aborted-transaction index."""
    from kwire.records.control import ABORT, control_type

    aborted = sorted(lg.aborted_transactions(0, lg.log_end_offset), key=lambda t: t.first_offset)
    ongoing, i, out = set(), 0, []
    for b in batches(lg):
        h = b.header
        while i < len(aborted) and aborted[i].first_offset <= h.base_offset + h.last_offset_delta:
            ongoing.add(aborted[i].producer_id)
            i += 1
        if h.is_control:
            if b.records and control_type(b.records[0].key) == ABORT:
                ongoing.discard(h.producer_id)
        elif not (h.is_transactional and h.producer_id in ongoing):
            out += [(r.offset, r.key, r.value) for r in b.records]
    return out


def data_view(lg):
    """(offset, key, value) a read_uncommitted consumer returns (markers are not records)."""
    return [(r.offset, r.key, r.value) for b in batches(lg) if not b.header.is_control
            for r in b.records]


def filler(lg, n=30):
    produce(lg, [(b"f%d" % i, b"z" * 300) for i in range(n)])


def test_aborted_records_go_committed_ones_take_part_in_deduplication(tmp_path):
    """Aborted transactional records are removed and never supersede anything; committed ones
    supersede earlier records of their keys and are superseded by later ones. The ABORT
    marker stays (with its index entry) while the pass removed data of its transaction;
    the next pass finds none, stamps a delete horizon and drops the entry; a pass after the
    horizon removes the marker. A COMMIT marker goes the same way once a pass finds no
    batch of its transaction."""
    m = manager(tmp_path)
    conf = cfg(delete_retention_ms=60_000)
    lg = m.get_or_create("t", 0, conf, NOW)
    produce(lg, [(b"k", b"v0"), (b"k3", b"v0")])
    txn(lg, 9, 0, [(b"k", b"aborted"), (b"k2", b"aborted")])
    marker(lg, 9, commit=False)
    txn(lg, 9, 2, [(b"k9", b"c9")])  # (a producer's last data batch is kept: see below)
    marker(lg, 9, commit=True)
    txn(lg, 10, 0, [(b"k", b"committed"), (b"k3", b"committed")])
    marker(lg, 10, commit=True)
    txn(lg, 10, 2, [(b"k10", b"c10")])
    marker(lg, 10, commit=True)
    produce(lg, [(b"k3", b"later")])
    filler(lg)
    view_before = committed_view(lg)
    assert len(lg.aborted_transactions(0, lg.log_end_offset)) == 1
    assert m.cleaner.clean_now(lg, NOW)
    recs = {(r.key, r.value) for r in records(lg)}
    assert {(b"k", b"committed"), (b"k3", b"later"), (b"k9", b"c9"), (b"k10", b"c10")} <= recs
    assert not {(b"k", b"v0"), (b"k", b"aborted"), (b"k2", b"aborted"), (b"k3", b"v0"),
                (b"k3", b"committed")} & recs
    assert m.cleaner.last_result.aborted_removed == 2
    assert control_batches(lg) == [(9, 0, False), (9, 1, False), (10, 1, False), (10, 1, False)]
    entries = lg.aborted_transactions(0, lg.log_end_offset)
    assert [(e.producer_id, e.first_offset, e.last_offset) for e in entries] == [(9, 2, 4)]
    assert committed_view(lg) == [r for r in view_before if r[1:] in recs]
    # pass 2 (new dirty data): no data of the aborted transaction is left: its marker gets a
    # delete horizon and its index entry is dropped
    filler(lg, 20)
    assert m.cleaner.clean_now(lg, NOW + 1000)
    assert control_batches(lg) == [(9, 0, True), (9, 1, False), (10, 1, False), (10, 1, False)]
    assert lg.aborted_transactions(0, lg.log_end_offset) == []
    assert m.cleaner.horizons[("t", 0)] == NOW + 1000 + 60_000
    # after the horizon the cleaner comes back by itself and removes it
    assert not m.cleaner.clean_now(lg, NOW + 30_000)
    assert m.cleaner.clean_now(lg, NOW + 62_000)
    assert control_batches(lg) == [(9, 1, False), (10, 1, False), (10, 1, False)]
    assert m.cleaner.last_result.markers_removed == 1
    assert committed_view(lg) == data_view(lg)
    # k is superseded by a non-transactional write: the committed batch goes (that pass still
    # met it), the next pass stamps its COMMIT marker, a pass after the horizon removes it
    produce(lg, [(b"k", b"plain")])
    filler(lg, 20)
    assert m.cleaner.clean_now(lg, NOW + 63_000)
    assert (b"k", b"committed") not in {(r.key, r.value) for r in records(lg)}
    assert control_batches(lg) == [(9, 1, False), (10, 1, False), (10, 1, False)]
    filler(lg, 20)
    assert m.cleaner.clean_now(lg, NOW + 64_000)
    assert control_batches(lg) == [(9, 1, False), (10, 1, True), (10, 1, False)]
    assert m.cleaner.clean_now(lg, NOW + 130_000)
    assert control_batches(lg) == [(9, 1, False), (10, 1, False)]
    hw = lg.high_watermark
    final = records(lg)
    m.close()
    # restart (without producer snapshots: everything from the log): consistent state
    for name in os.listdir(lg.dir):
        if name.endswith(".snapshot"):
            os.unlink(os.path.join(lg.dir, name))
    m2 = manager(tmp_path)
    lg2 = m2.get_or_create("t", 0, conf, NOW)
    lg2.update_high_watermark(lg2.log_end_offset)
    assert lg2.high_watermark == hw and lg2.last_stable_offset == hw
    assert lg2.aborted_transactions(0, lg2.log_end_offset) == []
    assert records(lg2) == final
    assert committed_view(lg2) == data_view(lg2)
    assert {p: lg2.producer_state.producers[p].last_seq for p in (9, 10)} == {9: 2, 10: 2}
    m2.close()


def test_aborted_transaction_spanning_segments(tmp_path):
    """An aborted transaction whose batches span several segments (and the groups they are
    cleaned in): every batch goes; the marker's index entry moves to the cleaned segment."""
    m = manager(tmp_path)
    conf = cfg(segment_bytes=2048)
    lg = m.get_or_create("t", 0, conf, NOW)
    produce(lg, [(b"a%d" % i, b"base") for i in range(4)])
    for seq in range(6):  # ~700 bytes each: three segments
        txn(lg, 21, seq, [(b"a%d" % (seq % 4), b"x" * 600)])
    marker(lg, 21, commit=False)
    filler(lg, 20)
    first_segs = {s.base_offset for s in lg.segments if s.base_offset <= 10}
    assert len(first_segs) >= 3
    assert m.cleaner.clean_now(lg, NOW)
    recs = records(lg)
    assert {(r.key, r.value) for r in recs if r.key.startswith(b"a")} == \
        {(b"a%d" % i, b"base") for i in range(4)}
    # only the producer's last batch stays, empty (its sequence state)
    left = [b.header for b in batches(lg) if b.header.is_transactional and not b.header.is_control]
    assert [(h.base_offset, h.records_count, h.base_sequence) for h in left] == [(9, 0, 5)]
    assert control_batches(lg) == [(21, 0, False)]
    (entry,) = lg.aborted_transactions(0, lg.log_end_offset)
    assert (entry.producer_id, entry.first_offset, entry.last_offset) == (21, 4, 10)
    holding = [n for n in os.listdir(lg.dir) if n.endswith(".txnindex")
               and os.path.getsize(os.path.join(lg.dir, n))]
    assert len(holding) == 1
    m.close()
    m2 = manager(tmp_path)
    lg2 = m2.get_or_create("t", 0, conf, NOW)
    assert lg2.aborted_transactions(0, lg2.log_end_offset) == [entry]
    m2.close()


def test_aborted_transaction_whose_marker_is_beyond_the_cleaned_section(tmp_path):
    """Data of an aborted transaction in cleaned segments, its ABORT marker in the active one
    (not cleaned): the data goes, the marker and its index entry stay, read_committed and
    read_uncommitted views agree. A committed transaction whose COMMIT marker is beyond the
    section takes part in deduplication."""
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(), NOW)
    produce(lg, [(b"k", b"v0"), (b"c", b"v0")])
    txn(lg, 31, 0, [(b"k", b"aborted")])
    txn(lg, 32, 0, [(b"c", b"committed")])
    filler(lg, 30)  # rolls: the transactions' data is in closed segments
    assert lg.last_stable_offset == 2  # both still open
    assert not m.cleaner.clean_now(lg, NOW, force=True)  # nothing below the LSO to clean
    lg.roll(NOW)
    marker(lg, 31, commit=False)
    marker(lg, 32, commit=True)
    assert lg.last_stable_offset == lg.high_watermark
    active = lg.active_segment.base_offset
    assert m.cleaner.clean_now(lg, NOW)
    assert m.cleaner.checkpoints[("t", 0)] == active
    recs = [(r.key, r.value) for r in records(lg)]
    assert (b"k", b"v0") in recs and (b"k", b"aborted") not in recs
    assert (b"c", b"committed") in recs and (b"c", b"v0") not in recs
    (entry,) = lg.aborted_transactions(0, lg.log_end_offset)
    assert entry.producer_id == 31 and entry.last_offset >= active
    assert control_batches(lg) == [(31, 0, False), (32, 1, False)]
    assert committed_view(lg) == data_view(lg)
    m.close()


def test_last_batch_of_a_transactional_producer_is_kept_empty(tmp_path):
    """A producer's last data batch, aborted, stays as an empty transactional batch (its
    sequence and epoch), so its marker stays too; a producer whose last record is a marker
    with a new epoch (transactions v2 bumps the epoch at every end) keeps that marker, as
    an empty control batch once past its horizon. After a restart without snapshots the
    producers go on without OUT_OF_ORDER_SEQUENCE_NUMBER and the LSO is the HW."""
    m = manager(tmp_path)
    conf = cfg(delete_retention_ms=1000)
    lg = m.get_or_create("t", 0, conf, NOW)
    txn(lg, 41, 0, [(b"p", b"a")] * 2)
    marker(lg, 41, commit=True)
    txn(lg, 41, 2, [(b"p", b"b")] * 3)  # its last data batch, aborted
    marker(lg, 41, commit=False)
    txn(lg, 42, 0, [(b"q", b"a")], epoch=0)
    marker(lg, 42, commit=True, epoch=1)  # v2 marker: a new epoch, no data batch left in state
    produce(lg, [(b"p", b"plain"), (b"q", b"plain")])
    filler(lg)
    assert m.cleaner.clean_now(lg, NOW)
    by_pid = {}
    for b in batches(lg):
        by_pid.setdefault(b.header.producer_id, []).append(b.header)
    h41 = [h for h in by_pid[41] if not h.is_control]
    assert len(h41) == 1 and h41[0].records_count == 0 and h41[0].is_transactional
    assert (h41[0].base_sequence, h41[0].last_offset_delta) == (2, 2)
    # the COMMIT markers' batches were met by this pass: kept
    assert control_batches(lg) == [(41, 1, False), (41, 0, False), (42, 1, False)]
    filler(lg, 20)
    assert m.cleaner.clean_now(lg, NOW + 5000)
    assert control_batches(lg) == [(41, 1, True), (41, 0, False), (42, 1, True)]
    filler(lg, 20)
    assert m.cleaner.clean_now(lg, NOW + 10_000)
    # 41's ABORT stays with its (empty) batch; 42's marker is its last record: kept empty
    assert control_batches(lg) == [(41, 0, False), (42, None, False)]
    h42 = [b.header for b in batches(lg) if b.header.producer_id == 42]
    assert len(h42) == 1 and h42[0].producer_epoch == 1 and h42[0].records_count == 0
    m.close()
    for name in os.listdir(lg.dir):
        if name.endswith(".snapshot"):
            os.unlink(os.path.join(lg.dir, name))
    m2 = manager(tmp_path)
    lg2 = m2.get_or_create("t", 0, conf, NOW)
    lg2.update_high_watermark(lg2.log_end_offset)
    assert lg2.last_stable_offset == lg2.high_watermark
    assert lg2.producer_state.producers[41].last_seq == 4
    assert lg2.producer_state.producers[42].epoch == 1
    txn(lg2, 41, 5, [(b"p", b"c")])  # in sequence: accepted
    marker(lg2, 41, commit=True)
    txn(lg2, 42, 0, [(b"q", b"b")], epoch=1)
    marker(lg2, 42, commit=True, epoch=2)
    assert lg2.last_stable_offset == lg2.high_watermark
    m2.close()


def test_aborted_transaction_index_follows_kept_markers_through_merging_and_restart(tmp_path):
    """Segments holding abort markers are merged: the entries of markers the pass keeps (it
    removed their transactions' data) move to the merged segment's index; a later pass finds
    no data left, drops the entries and stamps the markers; a restart agrees."""
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(segment_bytes=2048), NOW)
    for pid in (21, 22, 23):
        txn(lg, pid, 0, [(b"t%d" % pid, b"x" * 300)])
        marker(lg, pid, commit=False)
        txn(lg, pid, 1, [(b"c%d" % pid, b"c")])  # (the producer's last batch is kept)
        marker(lg, pid, commit=True)
        produce(lg, [(b"k", b"y" * 600)] * 3)
    filler(lg, 10)
    before = lg.aborted_transactions(0, lg.log_end_offset)
    assert len(before) == 3
    txn_files = lambda: sorted(n for n in os.listdir(lg.dir) if n.endswith(".txnindex"))
    assert len(txn_files()) >= 2
    assert m.cleaner.clean_now(lg, NOW)
    assert lg.aborted_transactions(0, lg.log_end_offset) == before
    assert not [r for r in records(lg) if r.key.startswith(b"t")]
    produce(lg, [(b"k", b"w")] * 30)
    assert m.cleaner.clean_now(lg, NOW)  # a second pass merges the small segments
    assert lg.aborted_transactions(0, lg.log_end_offset) == []
    assert [c for c in control_batches(lg) if c[1] == 0] == [(p, 0, True) for p in (21, 22, 23)]
    assert set(txn_files()) <= {f"{s.base_offset:020d}.txnindex" for s in lg.segments}
    view = committed_view(lg)
    m.close()
    m2 = manager(tmp_path)
    lg2 = m2.get_or_create("t", 0, cfg(segment_bytes=2048), NOW)
    assert lg2.aborted_transactions(0, lg2.log_end_offset) == []
    assert committed_view(lg2) == view
    m2.close()


def test_compact_delete_applies_both_retention_and_compaction(tmp_path):
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(cleanup_policy="compact,delete", retention_ms=HOUR // 2), NOW)
    produce(lg, updates(10, 12), ts=NOW - 2 * HOUR)  # older than retention.ms
    produce(lg, updates(10, 6), ts=NOW - 60_000)
    assert lg.apply_retention(NOW) > 0 and lg.log_start_offset > 0
    start = lg.log_start_offset
    assert m.cleaner.clean_now(lg, NOW)
    recs = records(lg)
    assert lg.log_start_offset == start and min(r.offset for r in recs) >= start
    assert len({r.key for r in recs}) == 10 and len(recs) < 180 - start
    m.close()


def test_follower_logs_are_cleaned_too(tmp_path):
    """Appends as follower (the leader's offsets, with a gap a compacted leader may send)."""
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(), NOW)
    offset = 0
    for r in range(12):
        recs = [(b"k%d" % i, b"v%d" % r + b"." * 100, [], NOW - HOUR) for i in range(8)]
        buf = build_batch(recs, base_offset=offset, partition_leader_epoch=2, now_ms=NOW)
        lg.append_as_follower(bytearray(buf), NOW)
        offset += 8 + (3 if r == 5 else 0)  # a gap, as after the leader's own cleaning
    lg.update_high_watermark(lg.log_end_offset)
    assert m.cleaner.clean_now(lg, NOW)
    recs = records(lg)
    assert len({r.key for r in recs}) == 8 and len(recs) < 96
    assert all(b.header.partition_leader_epoch == 2 for b in batches(lg))
    m.close()


@pytest.mark.parametrize("step", [1, 2, 3, 4, 5])
def test_kill_9_during_the_swap_of_a_transactional_log(tmp_path, step):
    """A pass that drops one aborted transaction's data (its marker and index entry stay) and
    another's index entry (its data went in an earlier pass), killed at each swap step:
    after the restart the index is the old one or the new one, never a mix, and a
    read_committed reader sees exactly the committed records either way."""
    m = manager(tmp_path)
    lg = m.get_or_create("t", 0, cfg(), NOW)
    produce(lg, updates(10, 2))
    txn(lg, 52, 0, [(b"key-%03d" % i, b"ABORTED-52") for i in range(5)])
    marker(lg, 52, commit=False)
    txn(lg, 52, 5, [(b"c52", b"c")])
    marker(lg, 52, commit=True)
    filler(lg)
    assert m.cleaner.clean_now(lg, NOW)  # 52's data goes; its marker and entry stay
    assert [e.producer_id for e in lg.aborted_transactions(0, lg.log_end_offset)] == [52]
    produce(lg, updates(10, 2))
    txn(lg, 51, 0, [(b"key-%03d" % i, b"ABORTED-51") for i in range(5)])
    marker(lg, 51, commit=False)
    txn(lg, 51, 5, [(b"c51", b"c")])
    marker(lg, 51, commit=True)
    filler(lg)
    view_before = committed_view(lg)
    entries_before = lg.aborted_transactions(0, lg.log_end_offset)
    assert [e.producer_id for e in entries_before] == [52, 51]
    recs_before = records(lg)
    leo = lg.log_end_offset
    m.close()
    p = subprocess.run([sys.executable, "-c", CRASH_SCRIPT, str(tmp_path), str(step)],
                       cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
                       capture_output=True, timeout=120)
    assert p.returncode == -signal.SIGKILL, p.stderr.decode()[-2000:]
    m2 = manager(tmp_path)
    lg2 = m2.get_or_create("t", 0, cfg(), NOW)
    lg2.update_high_watermark(lg2.log_end_offset)
    assert lg2.log_end_offset == leo and lg2.last_stable_offset == leo
    assert not [n for n in os.listdir(lg2.dir) if n.endswith((".swap", ".cleaned", ".deleted",
                                                             ".cleanend"))]
    entries = lg2.aborted_transactions(0, lg2.log_end_offset)
    view = committed_view(lg2)
    assert not [v for _, _, v in view if v.startswith(b"ABORTED")]
    assert latest(view) == latest(view_before)
    if step == 1:
        assert entries == entries_before and view == view_before
    else:  # the first group was swapped (later ones were not cleaned: the pass died)
        assert set(entries) <= set(entries_before) and records(lg2) != recs_before
    # a pass after the restart finishes the work: no aborted record is left; 52's entry is
    # dropped (its data went long ago), 51's too unless that pass removed its data
    produce(lg2, [(b"key-%03d" % i, b"new") for i in range(10)] * 5)
    assert m2.cleaner.clean_now(lg2, NOW)
    assert not [r for r in records(lg2) if r.value and r.value.startswith(b"ABORTED")]
    assert {e.producer_id for e in lg2.aborted_transactions(0, lg2.log_end_offset)} <= {51}
    assert committed_view(lg2) == data_view(lg2)
    m2.close()
