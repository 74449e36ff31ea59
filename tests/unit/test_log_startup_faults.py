"""A log dir that fails to load at start-up starts offline (kwire.log.manager).

The ``load`` fault site (armed for one dir with ``under=``) or a real
condition (the log dir path is a regular file) fails a dir's loading: the
other dir loads and serves, the failed dir's partitions are offline (never
recreated elsewhere, never deleted), nothing in it changes, and the next start
without the fault loads it with every record. Every dir failing raises
``AllLogDirsOffline``.
"""

from __future__ import annotations

import errno
import os

import pytest

from filetree import tree, without_markers
from kwire.log import AllLogDirsOffline, LogManager, faults
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.records.builder import build_batch

NOW = 1_700_000_000_000


@pytest.fixture(autouse=True)
def _disarm():
    yield
    faults.disarm()


def two_dirs(tmp_path):
    """Dirs a and b with x-0 (3 records) in a and y-0 (4 records) in b, cleanly closed."""
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    m = LogManager([a, b], NOW, max_open_files=64)
    for topic, n in (("x", 3), ("y", 4)):
        plog = m.get_or_create(topic, 0)
        for i in range(n):
            batch = build_batch([(None, b"%s%d" % (topic.encode(), i), [], NOW)], now_ms=NOW)
            plog.append_as_leader(memoryview(bytearray(batch)), 0, NOW)
    assert (m.log_dir_of("x", 0), m.log_dir_of("y", 0)) == (a, b)
    m.close()
    return a, b


def test_dir_failing_to_load_starts_offline_and_is_left_untouched(tmp_path):
    a, b = two_dirs(tmp_path)
    before = tree(b)
    faults.arm("load", errno.EIO, under=b)
    m = LogManager([a, b], NOW, max_open_files=64)
    assert list(m.offline_dirs) == [b]
    assert m.get("x", 0).log_end_offset == 3 and not m.is_offline("x", 0)
    assert m.get("y", 0) is None and m.is_offline("y", 0)
    with pytest.raises(KafkaError) as e:  # never recreated empty in a
        m.get_or_create("y", 0)
    assert e.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert not m.delete_partition("y", 0) and m.is_offline("y", 0)
    assert m.get_or_create("z", 0).dir.startswith(a)  # new partitions go to the online dir
    dirs = {d["path"]: d["error"] for d in m.describe_log_dirs()}
    assert dirs == {a: 0, b: ErrorCode.KAFKA_STORAGE_ERROR}
    m.close()
    assert ".kwire_cleanshutdown" in before
    assert tree(b) == without_markers(before)  # no checkpoint, no marker, nothing deleted
    faults.disarm()
    m = LogManager([a, b], NOW, max_open_files=64)
    assert not m.offline_dirs
    assert m.get("y", 0).log_end_offset == 4
    m.close()


def test_unreadable_dir_makes_partitions_known_to_exist_offline(tmp_path):
    a, b = two_dirs(tmp_path)
    os.rename(b, b + ".aside")
    with open(b, "wb") as f:  # the dir path is now a file: it cannot be listed or loaded
        f.write(b"not a dir")
    m = LogManager([a, b], NOW, max_open_files=64)
    assert list(m.offline_dirs) == [b]
    assert not m.is_offline("y", 0)  # nothing listed: unknown until the caller says it exists
    with pytest.raises(KafkaError) as e:
        m.get_or_create("y", 0, is_new=False)
    assert e.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert m.is_offline("y", 0) and m.get("y", 0) is None
    with pytest.raises(KafkaError):  # nor created by a later caller
        m.get_or_create("y", 0)
    assert m.get_or_create("x", 0, is_new=False).log_end_offset == 3
    m.close()
    os.unlink(b)
    os.rename(b + ".aside", b)
    m = LogManager([a, b], NOW, max_open_files=64)
    assert m.get("y", 0).log_end_offset == 4 and m.get("x", 0).log_end_offset == 3
    m.close()


def test_every_dir_failing_to_load_raises(tmp_path):
    a, b = two_dirs(tmp_path)
    before = tree(tmp_path)
    faults.arm("load", errno.EIO)
    with pytest.raises(AllLogDirsOffline, match="every log dir failed"):
        LogManager([a, b], NOW, max_open_files=64)
    assert tree(tmp_path) == without_markers(before)


def test_emfile_while_loading_is_not_a_dir_failure(tmp_path):
    a, b = two_dirs(tmp_path)
    faults.arm("load", errno.EMFILE, under=b)
    with pytest.raises(OSError) as e:
        LogManager([a, b], NOW, max_open_files=64)
    assert e.value.errno == errno.EMFILE


def test_fault_entries_may_name_a_directory():
    assert faults.parse("load=EIO:2@/data/b") == {"load": [errno.EIO, 2, "/data/b", 0]}
    faults.arm("load", errno.EIO, under="/data/b")
    faults.check("load", "/data/a/t-0")
    faults.check("load", "/data/bb/t-0")
    with pytest.raises(OSError):
        faults.check("load", "/data/b/t-0")


def test_failure_midway_keeps_the_logs_loaded_before_it_offline(tmp_path):
    a, b = two_dirs(tmp_path)
    m = LogManager([a, b], NOW, max_open_files=64)
    m.get_or_create("y", 1)  # the emptier dir is a again; move it to b for the test
    m.close()
    os.rename(os.path.join(a, "y-1"), os.path.join(b, "y-1"))
    before = tree(b)
    faults.arm("load", errno.EIO, under=os.path.join(b, "y-1"))  # y-0 loads, then y-1 fails
    m = LogManager([a, b], NOW, max_open_files=64)
    assert list(m.offline_dirs) == [b]
    assert m.get("y", 0).offline and m.is_offline("y", 0) and m.is_offline("y", 1)
    with pytest.raises(KafkaError):
        m.get("y", 0).read(0, 1000)
    assert not m.delete_partition("y", 0)  # nothing in an offline dir is deleted
    m.close()
    assert tree(b) == without_markers(before)

