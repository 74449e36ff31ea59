"""The bounded descriptor cache of segment and index files (kwire/log/files.py)."""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import time

import pytest

from kwire.log import LogManager, files
from kwire.log.files import O_APPEND_RW, CachedFile, FdCache, TooManyOpenFiles
from kwire.protocol.errors import ErrorCode
from kwire.records.builder import build_batch


def open_fds() -> set[int]:
    out = set()
    for x in os.listdir("/proc/self/fd"):
        try:
            os.fstat(int(x))
        except OSError:  # the descriptor listdir itself used, closed by now
            continue
        out.add(int(x))
    return out


@contextlib.contextmanager
def nofile_limit(extra: int):
    """The soft RLIMIT_NOFILE set so that exactly ``extra`` more descriptors can be opened
    (the kernel hands out the lowest free numbers), restored afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    taken = open_fds()
    n = free = 0
    while free < extra:
        free += n not in taken
        n += 1
    resource.setrlimit(resource.RLIMIT_NOFILE, (n, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def make_files(tmp_path, cache: FdCache, n: int) -> list[CachedFile]:
    return [CachedFile(str(tmp_path / f"f{i}"), O_APPEND_RW, create=True, cache=cache) for i in range(n)]


def test_lru_bound_reopen_and_append(tmp_path):
    cache = FdCache(16)
    fs = make_files(tmp_path, cache, 40)
    before = open_fds()
    for round_ in range(3):
        for i, f in enumerate(fs):
            os.write(f.fileno(), f"{round_}:{i};".encode())
            assert len(cache) <= 16
    assert len(open_fds() - before) <= 16
    assert cache.evictions >= 40 * 3 - 16 and cache.opens == cache.evictions + len(cache)
    for i, f in enumerate(fs):  # O_APPEND on every reopen: nothing overwritten
        assert (tmp_path / f"f{i}").read_bytes() == f"0:{i};1:{i};2:{i};".encode()
    for f in fs:
        f.close()
    assert len(cache) == 0 and open_fds() <= before


def test_reopen_does_not_recreate_a_removed_file(tmp_path):
    cache = FdCache(16)
    f = make_files(tmp_path, cache, 1)[0]
    f.fileno()
    f.release()
    os.unlink(f.name)
    with pytest.raises(FileNotFoundError):
        f.fileno()


def test_pinned_descriptor_survives_pressure_and_deletion(tmp_path):
    cache = FdCache(16)
    fs = make_files(tmp_path, cache, 40)
    a = fs[0]
    os.write(a.fileno(), b"pinned bytes")
    fd = a.pin()
    for f in fs[1:]:
        f.fileno()  # 39 others through a cache of 16: a is never the one closed
    assert a.fileno() == fd and os.pread(fd, 12, 0) == b"pinned bytes"
    assert cache.pinned == 1 and len(cache) <= 16
    a.close()  # the segment is deleted: its file unlinked while a region still pins it
    os.unlink(a.name)
    assert os.pread(fd, 12, 0) == b"pinned bytes"
    a.unpin()  # the last pin closes it for good
    assert not a.is_open and cache.pinned == 0
    with pytest.raises(ValueError):
        a.fileno()


def test_log_manager_keeps_descriptors_bounded_and_regions_pinned(tmp_path):
    now = int(time.time() * 1000)
    before = open_fds()
    lm = LogManager(str(tmp_path / "logs"), now, max_open_files=16)
    try:
        logs = [lm.get_or_create("t", p, now_ms=now) for p in range(60)]
        values = {}
        for round_ in range(2):
            for plog in logs:
                v = f"{plog.partition}-{round_}".encode() * 50
                plog.append_as_leader(bytearray(build_batch([(b"k", v, [], now)], now_ms=now)), 0, now)
                plog.update_high_watermark(plog.log_end_offset)
                values.setdefault(plog.partition, []).append(v)
                assert len(lm.fd_cache) <= 16
        assert len(open_fds() - before) <= 16 + 2  # + checkpoint files being written
        regions = [plog.read(0, 1 << 20).region for plog in logs]  # small: read at once, no pin
        assert lm.fd_cache.pinned == 0 and len(lm.fd_cache) <= 16
        for plog, r in zip(logs, regions):
            data = r.read()
            assert all(v in data for v in values[plog.partition])
        big = {}
        for plog in logs[:20]:  # regions the connection would sendfile: pinned while they live
            big[plog.partition] = bytes([plog.partition]) * (300 * 1024)
            plog.append_as_leader(bytearray(build_batch([(b"k", big[plog.partition], [], now)], now_ms=now)),
                                  0, now)
            plog.update_high_watermark(plog.log_end_offset)
        regions = [plog.read(2, 1 << 20).region for plog in logs[:20]]
        assert lm.fd_cache.pinned == 20 and len(lm.fd_cache) == 20  # over 16: pins are never closed
        for plog in logs[20:]:
            plog.read(0, 1 << 20)  # other files come and go around the pinned ones
        for plog, r in zip(logs, regions):
            assert big[plog.partition] in r.read()
        del r, regions
        assert lm.fd_cache.pinned == 0 and len(lm.fd_cache) <= 16
    finally:
        lm.close()
    assert len(lm.fd_cache) == 0
    # every record is still there after a restart through the same small cache
    lm = LogManager(str(tmp_path / "logs"), now, max_open_files=16)
    try:
        assert len(lm) == 60 and len(lm.fd_cache) <= 16
        for plog in lm:
            data = plog.read(0, 1 << 20).region.read()
            assert all(v in data for v in values[plog.partition])
            if plog.partition in big:
                assert big[plog.partition] in plog.read(2, 1 << 20).region.read()
    finally:
        lm.close()


def test_emfile_evicts_and_retries(tmp_path):
    cache = FdCache(64)  # more than the process may open below: the cache learns it from EMFILE
    fs = make_files(tmp_path, cache, 64)
    with nofile_limit(12):
        for f in fs:
            f.fileno()
        assert len(cache) <= 12 and cache.evictions > 0 and cache.exhausted == 0
    for f in fs:
        f.close()


def test_emfile_with_everything_pinned_is_a_storage_error(tmp_path, caplog):
    cache = FdCache(64)
    fs = make_files(tmp_path, cache, 64)
    pinned = []
    with nofile_limit(10):
        with pytest.raises(TooManyOpenFiles) as err:
            for f in fs:
                f.pin()
                pinned.append(f)
    assert err.value.code == ErrorCode.KAFKA_STORAGE_ERROR
    assert not isinstance(err.value, OSError)  # not a disk failure: the log dir stays online
    assert 5 <= len(pinned) <= 10
    assert "TOO MANY OPEN FILES" in caplog.text and "RLIMIT_NOFILE" in caplog.text
    for f in pinned:
        f.unpin()
    for f in fs:
        f.close()


def test_create_empty_reports_exhaustion_as_storage_error(tmp_path):
    cache = FdCache(16)  # empty: nothing to evict
    held = []
    with nofile_limit(4):
        try:
            with pytest.raises(OSError) as full:
                for i in range(10):
                    held.append(os.open(str(tmp_path / f"h{i}"), os.O_CREAT | os.O_RDONLY))
            assert full.value.errno == errno.EMFILE
            with pytest.raises(TooManyOpenFiles):
                files.create_empty(str(tmp_path / "new"), cache)
        finally:
            for fd in held:
                os.close(fd)


def test_configure_process_limit_raises_soft_to_hard():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        if hard > 64:
            resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard))
        capacity = files.configure_process_limit()
        now_soft, now_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        assert now_soft == now_hard == hard
        assert capacity == max(files.MIN_CAPACITY, min(hard, 1 << 20) // 2)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
