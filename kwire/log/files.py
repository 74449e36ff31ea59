"""Open segment and index files through a bounded cache of file descriptors.

A broker with 100,000 partitions cannot hold a descriptor per file (the
default ``ulimit -n`` is 1024). ``CachedFile`` is a file named by path whose
descriptor is opened on first use (``fileno()``) and may be closed again at
any time by its ``FdCache``, which keeps at most ``capacity`` descriptors open
and closes the least recently used one to make room. The next ``fileno()``
reopens the file. Segment ``.log`` files (``SegmentFile``) and the append
descriptors of ``.index``/``.timeindex`` files go through it; the indexes are
held in memory, so reads never need their files (no mmaps).

Pins: ``pin()`` keeps a descriptor open (out of the LRU) until ``unpin()``; a
``FileRegion`` pins its segment file for as long as it lives, so a fetch
response waiting in a connection's queue is sent with ``os.sendfile`` from a
descriptor that neither eviction nor segment deletion can close or reuse.
Pinned descriptors count against ``capacity`` but are never evicted; the cache
may go over ``capacity`` when more than that are pinned.

Invariant for callers: a number returned by ``fileno()`` stays valid until
the cache evicts it, which happens only while opening *another* file (or
when an unpin finds the cache over capacity) and only to the least recently
used one. Since every ``fileno()`` makes its file the
most recently used, a descriptor taken at the start of an operation stays
valid while the operation opens fewer than ``MIN_CAPACITY`` - 1 other files
(an append opens at most three: log, offset index, time index). Code that
runs for long between opens (iterating batches) calls ``fileno()`` per read.

Descriptor exhaustion: when ``open`` fails with EMFILE or ENFILE, the cache
closes a quarter of its unpinned descriptors and retries once; if that fails
too (everything is pinned, or sockets hold the rest of the limit), it logs an
ERROR naming the limit (at most every 10 s) and raises ``TooManyOpenFiles``,
a ``KafkaError`` with KAFKA_STORAGE_ERROR: the request is answered with that
code, the connection stays open, and the log dir stays online (unlike an
``OSError``, it is not a disk failure). Nothing was written when it is raised.

Durability: eviction closes without fsync. Flushing reopens the file and
fsyncs it; on Linux fsync covers every dirty page of the file, whichever
descriptor wrote it.

One cache per log dir (``register``), so brokers run in threads of one
process (tests) never evict each other's descriptors; files in unregistered
directories use a process-wide default cache. Caches are not thread-safe:
each is used from its broker's event loop thread.

``configure_process_limit()`` raises the soft RLIMIT_NOFILE to the hard limit
(as the JVM does for Kafka) and returns the capacity to use: half the soft
limit, leaving the other half to sockets and short-lived files (checkpoints,
snapshots).
"""

from __future__ import annotations

import errno
import logging
import os
import time
from collections import OrderedDict

from kwire.protocol.errors import ErrorCode, KafkaError

log = logging.getLogger("kwire.log")

MIN_CAPACITY = 16
DEFAULT_CAPACITY = 512
ERROR_LOG_INTERVAL_S = 10.0

O_APPEND_RW = os.O_RDWR | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
O_APPEND_WO = os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)


class TooManyOpenFiles(KafkaError):
    """The process is out of file descriptors: answered KAFKA_STORAGE_ERROR, not a disk failure."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.KAFKA_STORAGE_ERROR, message)


def nofile_limits() -> tuple[int, int]:
    """(soft, hard) RLIMIT_NOFILE, or (-1, -1) where the resource module is missing."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return -1, -1
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def configure_process_limit() -> int:
    """Raise the soft RLIMIT_NOFILE to the hard one; return a cache capacity for it."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY:
            hard = 1 << 20
        if soft != resource.RLIM_INFINITY and soft < hard:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
                log.info("raised the open file limit (RLIMIT_NOFILE) from %d to %d", soft, hard)
                soft = hard
            except (ValueError, OSError) as e:
                log.warning("could not raise the open file limit from %d to %d: %s", soft, hard, e)
        if soft == resource.RLIM_INFINITY:
            soft = 1 << 20
    except ImportError:
        return DEFAULT_CAPACITY
    return max(MIN_CAPACITY, soft // 2)


def count_open_fds() -> int:
    """Descriptors open in this process (Linux /proc), -1 where unknown."""
    try:
        return len(os.listdir("/proc/self/fd")) - 1  # minus the one listdir used
    except OSError:
        return -1


class FdCache:
    """At most ``capacity`` open descriptors of ``CachedFile``s, least recently used closed first."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.capacity = max(MIN_CAPACITY, capacity)
        self._lru: OrderedDict[CachedFile, None] = OrderedDict()  # open, unpinned; oldest first
        self.pinned = 0  # open descriptors held by pins (not in _lru)
        self.opens = 0  # statistics: descriptors opened, closed by eviction, EMFILE failures
        self.evictions = 0
        self.exhausted = 0
        self._last_error_log = 0.0

    def __len__(self) -> int:
        """Descriptors open in this cache (pinned ones included)."""
        return len(self._lru) + self.pinned

    def stats(self) -> dict:
        return {"open": len(self), "pinned": self.pinned, "capacity": self.capacity,
                "opens": self.opens, "evictions": self.evictions, "exhausted": self.exhausted}

    def _evict(self, n: int) -> int:
        done = 0
        lru = self._lru
        while lru and done < n:
            f, _ = lru.popitem(last=False)
            f._close_fd()
            done += 1
        self.evictions += done
        return done

    def _open(self, f: "CachedFile") -> int:
        if len(self._lru) + self.pinned >= self.capacity:
            self._evict(len(self._lru) + self.pinned - self.capacity + 1)
        fd = open_fd(f.name, f._flags, self)
        self.opens += 1
        return fd

    def exhausted_error(self, path: str, e: OSError) -> TooManyOpenFiles:
        self.exhausted += 1
        soft, hard = nofile_limits()
        total = count_open_fds()  # usually unknown here: listing /proc/self/fd needs a descriptor too
        msg = (f"cannot open {path}: {e.strerror} ({len(self)} segment/index files open in the "
               f"file cache of {self.capacity}, {self.pinned} of them held by in-flight fetches; "
               + (f"{total} descriptors open in the process; " if total >= 0 else "")
               + f"RLIMIT_NOFILE soft {soft}, hard {hard}); answering KAFKA_STORAGE_ERROR. Raise "
               f"the limit (ulimit -n, LimitNOFILE=) or serve fewer connections")
        now = time.monotonic()
        if now - self._last_error_log >= ERROR_LOG_INTERVAL_S:
            self._last_error_log = now
            log.error("TOO MANY OPEN FILES: %s (%d such failures so far)", msg, self.exhausted)
        return TooManyOpenFiles(msg)

    def close_all(self) -> None:
        """Close every unpinned descriptor (pinned ones close when unpinned)."""
        self._evict(len(self._lru))


def open_fd(path: str, flags: int, cache: FdCache | None = None, mode: int = 0o644) -> int:
    """``os.open`` that answers EMFILE/ENFILE by evicting from ``cache`` and retrying once.

    Raises ``TooManyOpenFiles`` if the retry fails too; other OSErrors as they are.
    """
    try:
        return os.open(path, flags, mode)
    except OSError as e:
        if e.errno not in (errno.EMFILE, errno.ENFILE):
            raise
        cache = cache if cache is not None else cache_for(path)
        if not cache._evict(max(1, len(cache._lru) // 4)):
            raise cache.exhausted_error(path, e) from None
        try:
            return os.open(path, flags, mode)
        except OSError as e2:
            if e2.errno not in (errno.EMFILE, errno.ENFILE):
                raise
            raise cache.exhausted_error(path, e2) from None


def create_empty(path: str, cache: FdCache | None = None) -> None:
    """Create (or empty) the file at ``path``; EMFILE is ``TooManyOpenFiles`` as in ``open_fd``."""
    os.close(open_fd(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), cache))


class CachedFile:
    """A file by path whose descriptor the cache opens on demand and may close when idle.

    ``flags`` are ``os.open`` flags; with ``create`` the first open adds
    O_CREAT (later reopens do not, so a file removed behind kwire's back is an
    error rather than silently recreated empty), with ``always_create`` every
    open does.
    """

    __slots__ = ("name", "_flags", "_fd", "_pins", "_closed", "_cache", "_keep_create", "__weakref__")

    def __init__(self, path: str, flags: int, *, create: bool = False, always_create: bool = False,
                 cache: FdCache | None = None) -> None:
        self.name = path
        self._flags = flags | (os.O_CREAT if create or always_create else 0)
        self._keep_create = always_create
        self._fd: int | None = None
        self._pins = 0
        self._closed = False  # closed for good (deleted): no reopening
        self._cache = cache if cache is not None else cache_for(path)

    @property
    def is_open(self) -> bool:
        return self._fd is not None

    def fileno(self) -> int:
        fd = self._fd
        if fd is not None:
            if not self._pins:
                self._cache._lru.move_to_end(self)
            return fd
        if self._closed:
            raise ValueError(f"I/O operation on closed file {self.name}")
        cache = self._cache
        fd = cache._open(self)
        if not self._keep_create:
            self._flags &= ~os.O_CREAT
        self._fd = fd
        cache._lru[self] = None
        return fd

    def pin(self) -> int:
        """Open (if needed) and keep open until the matching ``unpin``; returns the descriptor."""
        fd = self.fileno()
        if not self._pins:
            cache = self._cache
            del cache._lru[self]
            cache.pinned += 1
        self._pins += 1
        return fd

    def unpin(self) -> None:
        self._pins -= 1
        if self._pins:
            return
        cache = self._cache
        cache.pinned -= 1
        if self._closed:
            self._close_fd()
        else:
            cache._lru[self] = None
            if len(cache._lru) + cache.pinned > cache.capacity:  # pins had pushed it over
                cache._evict(len(cache._lru) + cache.pinned - cache.capacity)

    def release(self) -> None:
        """Close the descriptor now if nothing pins it (it reopens on the next use)."""
        if self._fd is not None and not self._pins:
            self._cache._lru.pop(self, None)
            self._close_fd()

    def close(self) -> None:
        """Close for good: no reopening; a pinned descriptor closes at the last unpin."""
        self._closed = True
        self.release()

    @property
    def closed(self) -> bool:
        return self._closed

    def _close_fd(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:  # nothing to do about a failed close of a read/append descriptor
                pass

    def __del__(self) -> None:
        # Reached only when neither the LRU nor a pin refers to the file: closed or never opened.
        try:
            self._close_fd()
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, fd={self._fd}, pins={self._pins})"


# -- caches per log dir ------------------------------------------------------------------------

_default = FdCache(DEFAULT_CAPACITY)
_by_dir: dict[str, FdCache] = {}


def register(log_dir: str, cache: FdCache) -> None:
    """Files under ``log_dir`` (``<log_dir>/<topic>-<partition>/...``) use ``cache``."""
    _by_dir[os.path.abspath(log_dir)] = cache


def unregister(log_dir: str, cache: FdCache) -> None:
    d = os.path.abspath(log_dir)
    if _by_dir.get(d) is cache:
        del _by_dir[d]


def cache_for(path: str) -> FdCache:
    """The cache of the log dir holding ``path`` (a file in a partition directory)."""
    if _by_dir:
        # the log manager builds absolute, normalized paths: no abspath for those (start-up
        # makes a CachedFile per partition)
        d = path.rsplit("/", 2)[0] if path.startswith("/") and "/." not in path and "//" not in path \
            else os.path.dirname(os.path.dirname(os.path.abspath(path)))
        c = _by_dir.get(d)
        if c is not None:
            return c
    return _default
