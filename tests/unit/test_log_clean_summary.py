"""The clean shutdown's summary of small logs (kwire/log/summary.py): a clean start reads none of
their files, answers as a start from the files would, and falls back to the files whenever the
summary is not the marker's or a segment changed size."""

from __future__ import annotations

import os

import pytest

from kwire.log import LogConfig, LogManager, summary
from kwire.log.manager import CLEAN_SHUTDOWN_FILE
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records.decode import decode_batches

from test_log_clean_close import PARTITIONS, written_manager
from test_log_faults import NOW, _no_faults_left, mk  # noqa: F401 (an autouse fixture)


def written(root) -> LogManager:
    """``written_manager``'s small logs (two idempotent batches at epoch 3), a log of two
    segments ("big"-0) and a never-written one ("empty"-0)."""
    mgr = written_manager(root)
    big = mgr.get_or_create("big", 0, LogConfig(), NOW)
    big.append_as_leader(mk(0), 3, NOW)
    big.roll(NOW)
    big.append_as_leader(mk(2), 3, NOW)
    big.update_high_watermark(big.log_end_offset)
    mgr.get_or_create("empty", 0, LogConfig(), NOW)  # never written
    return mgr


class Reads:
    """Counts the listings of and opens in partition directories (not the log dir's own files)."""

    def __init__(self, monkeypatch, root):
        self.listed, self.opened = [], []
        real_listdir, real_open = os.listdir, os.open
        prefix = str(root) + os.sep

        def listdir(path="."):
            if str(path).startswith(prefix):
                self.listed.append(str(path))
            return real_listdir(path)

        def open_(path, *a, **kw):
            if str(path).startswith(prefix) and os.sep in str(path)[len(prefix):]:
                self.opened.append(str(path))
            return real_open(path, *a, **kw)
        monkeypatch.setattr(os, "listdir", listdir)
        monkeypatch.setattr(os, "open", open_)

    def of(self, prefix: str) -> list[str]:
        """The partition directories named ``prefix``... that were listed."""
        return [p for p in self.listed if os.path.basename(p).startswith(prefix)]


def answers(lg):
    seg = lg.active_segment
    res = lg.read(0, 1 << 20)
    offsets = [r.offset for b in decode_batches(res.region.read()) for r in b.records]
    return (lg.log_end_offset, lg.high_watermark, lg.log_start_offset, seg.size,
            seg.max_timestamp, seg.offset_of_max_timestamp, seg.first_batch_timestamp,
            lg.offset_for_timestamp(NOW + 2), offsets, lg.leader_epochs.entries)


def test_a_clean_start_reads_no_file_of_a_summarized_log_and_answers_the_same(tmp_path,
                                                                              monkeypatch):
    mgr = written(tmp_path)
    before = {p: answers(mgr.get("t", p)) for p in range(PARTITIONS)}
    mgr.close()
    rows = summary.read(str(tmp_path / summary.SUMMARY_FILE),
                        (tmp_path / CLEAN_SHUTDOWN_FILE).read_text())
    # not the two-segment log
    assert sorted(rows) == [("empty", 0)] + [("t", p) for p in range(PARTITIONS)]
    reads = Reads(monkeypatch, tmp_path)
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)
    assert reads.of("t-") == []
    assert [p for p in reads.opened if os.path.basename(os.path.dirname(p)).startswith("t-")] == []
    assert reads.of("big-")  # loaded from its files
    assert not (tmp_path / summary.SUMMARY_FILE).exists()  # used once
    monkeypatch.undo()
    for p in range(PARTITIONS):
        lg = mgr.get("t", p)
        assert not lg.producer_state_loaded and not lg.active_segment.indexes_loaded
        assert answers(lg) == before[p]
        # the producer's sequence goes on from the snapshot
        assert lg.append_as_leader(mk(2), 3, NOW).duplicate
        with pytest.raises(KafkaError) as e:
            lg.append_as_leader(mk(9), 3, NOW)
        assert e.value.code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
        assert lg.append_as_leader(mk(4), 3, NOW).base_offset == 4
    assert answers(mgr.get("big", 0))[0] == 4
    empty = mgr.get("empty", 0)
    assert (empty.log_end_offset, empty.active_segment.size, empty.active_segment.max_timestamp,
            empty.active_segment.first_batch_timestamp) == (0, 0, -1, None)
    assert empty.append_as_leader(mk(0), 3, NOW).base_offset == 0
    mgr.close()
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)  # the appends were summarized too
    assert [mgr.get("t", p).log_end_offset for p in range(PARTITIONS)] == [6] * PARTITIONS
    mgr.close()


def test_a_segment_cut_or_grown_after_the_close_is_loaded_from_its_files(tmp_path):
    mgr = written(tmp_path)
    grown, cut = (mgr.get("t", p).active_segment.log_path for p in (0, 1))
    size = mgr.get("t", 0).active_segment.size
    mgr.close()
    with open(grown, "ab") as f:
        f.write(b"\x00" * 30)  # a torn tail: the check of the last segment recovers it
    os.truncate(cut, size - 5)  # the second batch torn
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)
    assert mgr.get("t", 0).log_end_offset == 4 and mgr.get("t", 0).active_segment.size == size
    assert mgr.get("t", 1).log_end_offset == 2  # the cut batch is gone
    assert mgr.get("t", 2).log_end_offset == 4
    mgr.close()


def test_a_summary_the_marker_does_not_certify_is_not_used(tmp_path, monkeypatch):
    mgr = written(tmp_path)
    mgr.close()
    stale = (tmp_path / summary.SUMMARY_FILE).read_bytes()
    # a later life (an older kwire, say) appended, closed cleanly with an empty marker, and
    # left the summary of the earlier close in place
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)
    mgr.get("t", 0).roll(NOW)  # the first segment keeps its size
    mgr.get("t", 0).append_as_leader(mk(4), 3, NOW)
    mgr.close()
    (tmp_path / summary.SUMMARY_FILE).write_bytes(stale)
    (tmp_path / CLEAN_SHUTDOWN_FILE).write_bytes(b"")
    reads = Reads(monkeypatch, tmp_path)
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)
    assert len(reads.of("t-")) == PARTITIONS
    monkeypatch.undo()
    assert mgr.get("t", 0).log_end_offset == 6 and len(mgr.get("t", 0).segments) == 2
    mgr.close()


def test_a_summary_without_a_marker_is_removed_unused(tmp_path, monkeypatch):
    mgr = written(tmp_path)
    mgr.close()
    os.unlink(tmp_path / CLEAN_SHUTDOWN_FILE)  # a crash between the summary and the marker
    reads = Reads(monkeypatch, tmp_path)
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)
    assert len(reads.of("t-")) == PARTITIONS
    assert not (tmp_path / summary.SUMMARY_FILE).exists()
    monkeypatch.undo()
    assert [mgr.get("t", p).log_end_offset for p in range(PARTITIONS)] == [4] * PARTITIONS
    mgr.close()


def test_a_malformed_summary_is_ignored(tmp_path):
    mgr = written(tmp_path)
    mgr.close()
    text = (tmp_path / summary.SUMMARY_FILE).read_text()
    (tmp_path / summary.SUMMARY_FILE).write_text(text[:-20])  # cut mid-line
    mgr = LogManager(str(tmp_path), NOW, max_open_files=64)
    assert [mgr.get("t", p).log_end_offset for p in range(PARTITIONS)] == [4] * PARTITIONS
    mgr.close()
