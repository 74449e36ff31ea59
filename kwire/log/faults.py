"""Storage fault injection for tests: raise ``OSError`` (or stall) at a named write site.

Every storage write site in kwire calls ``faults.check("<site>")`` just
before it touches the disk. Unarmed (always, in production) ``check`` is a
no-op function; arming swaps in a checking one, so the hot path pays one
call of an empty function and nothing else.

Sites::

    log              the .log write of an append           (segment.py)
    offset_index     an .index entry write                 (index.py)
    time_index       a .timeindex entry write              (index.py)
    segment_create   creating the files of a new segment   (segment.py)
    producer_snapshot  the producer snapshot on roll/close (producer_state.py), and
                     deleting snapshots before a truncation (partition_log.py)
    leader_epoch     the leader-epoch-checkpoint write     (leader_epoch.py)
    flush            fsync of a segment and its indexes    (segment.py), and a clean
                     shutdown's syncfs of a log dir (the dir is the path)  (manager.py)
    truncate         cutting files back (rollback, truncation)  (segment.py, index.py)
    segment_delete   renaming a segment's files to ``.deleted`` (truncation)  (partition_log.py)
    checkpoint       the offset checkpoint files of a log dir   (manager.py)
    metadata         the cluster metadata save (for kwire.cluster.metadata to call)
    clean            the log cleaner: reading/writing a cleaned segment (its worker)
                     and each step of swapping it in (cleaner.py, cleaner_rewrite.py,
                     cleaner_swap.py; the partition directory is the path)
    load             loading a partition directory at start-up, once per partition
                     (recovery.py; a read fault: the log manager starts the dir offline)
    marker           appending a transaction marker (COMMIT/ABORT control batch from the
                     transaction coordinator) to a partition (partition_log.py; the
                     partition directory is the path). It fails the append before any
                     byte is written: KAFKA_STORAGE_ERROR, not a log-dir I/O error; the
                     coordinator retries, so an armed site holds that partition's markers
                     back (a crash between PrepareCommit/PrepareAbort and the markers).
                     Use an errno, never STALL: markers are written on the event loop

Arming, in-process::

    faults.arm("offset_index", errno.ENOSPC)          # every call fails
    faults.arm("log", errno.EACCES, count=1)          # only the next one
    faults.arm("clean", faults.STALL, skip=4)         # the 5th call blocks
    faults.disarm()                                   # all sites

``STALL`` instead of an errno blocks the calling thread at the site (it
sleeps in a loop) until the site is disarmed or the faults file changes,
after writing ``kwire faults: <site> stalled in pid <pid> at
<path>`` to file descriptor 2: a test waits for that line, then kills the
process -9 at a known point (e.g. the cleaner's worker between two cleaned
segments). ``skip`` lets that many calls through before the fault fires.

Arming a ``python -m kwire serve`` subprocess: set ``KWIRE_FAULTS_FILE`` to a
path before it starts. The file (absent or empty = no faults) holds entries
``site=ERRNO_NAME[:count][+skip]`` separated by spaces, commas or newlines, e.g.
``offset_index=ENOSPC``, ``log=EACCES:1`` or ``clean=STALL+3`` (``STALL`` may
stand for the errno name). An entry may end in ``@PATH``
(no spaces or commas): it then fires only at sites that pass a path at or
under PATH (``load`` passes the partition directory), e.g. ``load=EIO@/data/b``
fails the loading of log dir ``/data/b`` only, ``marker=EIO@/data/t-1`` the
markers of partition 1 of topic ``t``. It is re-read whenever its
size or mtime changes, so a test rewrites it to inject and clear faults while
the broker runs; a count is per version of the file. Only with the variable
set does ``check`` stat the file (then on every call; tests only). Each
process counts for itself: the cleaner's worker process reads the file too,
and its calls to ``check`` are not the broker's.

Not here: faults on reads other than ``load``, partial writes (a short write
is simulated by the sites that write in a loop only as a whole failure).
"""

from __future__ import annotations

import errno as _errno
import os

SITES = ("log", "offset_index", "time_index", "segment_create", "producer_snapshot",
         "leader_epoch", "flush", "truncate", "segment_delete", "checkpoint", "metadata", "load",
         "clean", "marker")
ENV_FILE = "KWIRE_FAULTS_FILE"

STALL = -1  # in place of an errno: block at the site instead of raising

# site -> [errno or STALL, remaining count or None for always, path prefix or None,
#          calls still to let through]
_armed: dict[str, list] = {}
_file: str | None = None
_file_sig: tuple | None = None


def _noop(site: str, path: str | None = None) -> None:
    return None


def _raise_if_armed(site: str, path: str | None = None) -> None:
    entry = _armed.get(site)
    if entry is None:
        return
    code, left, under, skip = entry
    if under is not None:  # only for paths at or under it
        path = os.path.abspath(path) if path is not None else ""
        if path != under and not path.startswith(os.path.join(under, "")):
            return
    if skip > 0:
        entry[3] = skip - 1
        return
    if left is not None:
        if left <= 0:
            return
        entry[1] = left - 1
    if code == STALL:
        _stall(site, path, entry)
        return
    raise OSError(code, f"{os.strerror(code)} (injected fault at {site})")


def _stall(site: str, path: str | None, entry: list) -> None:
    """Block until ``entry`` is no longer the site's (disarmed, or the file changed)."""
    from kwire.clock import sleep

    os.write(2, f"kwire faults: {site} stalled in pid {os.getpid()} at {path}\n".encode())
    while _armed.get(site) is entry:
        sleep(0.05)
        if _file is not None:
            _reload()


def _reload() -> None:
    """Re-read the faults file if its size, mtime or inode changed."""
    global _file_sig
    try:
        st = os.stat(_file)
        sig = (st.st_size, st.st_mtime_ns, st.st_ino)
    except OSError:
        sig = None
    if sig != _file_sig:
        _file_sig = sig
        _armed.clear()
        if sig is not None:
            try:
                with open(_file, encoding="ascii") as f:
                    _armed.update(parse(f.read()))
            except (OSError, ValueError):
                pass


def _check_file(site: str, path: str | None = None) -> None:
    _reload()
    _raise_if_armed(site, path)


check = _noop


def parse(spec: str) -> dict[str, list]:
    """``site=ERRNO_NAME[:count][+skip][@path]`` entries ->
    {site: [errno or STALL, count or None, path or None, skip]}."""
    out: dict[str, list] = {}
    for item in spec.replace(",", " ").split():
        item, at, under = item.partition("@")
        site, _, rest = item.partition("=")
        rest, _, skip = rest.partition("+")
        name, _, count = rest.partition(":")
        if site not in SITES:
            raise ValueError(f"unknown fault site {site!r}")
        if name == "STALL":
            code = STALL
        else:
            code = getattr(_errno, name, None) if not name.isdigit() else int(name)
        if not isinstance(code, int):
            raise ValueError(f"unknown errno {name!r}")
        out[site] = [code, int(count) if count else None, os.path.abspath(under) if at else None,
                     int(skip) if skip else 0]
    return out


def arm(site: str, code: int = _errno.ENOSPC, count: int | None = None,
        under: str | None = None, skip: int = 0) -> None:
    """Make ``check(site)`` raise ``OSError(code)`` (or stall, with ``STALL``), ``count``
    times or until disarmed, after letting ``skip`` calls through; with ``under``, only for
    calls passing a path under that directory."""
    global check
    if site not in SITES:
        raise ValueError(f"unknown fault site {site!r}")
    _armed[site] = [code, count, os.path.abspath(under) if under else None, skip]
    if check is _noop:
        check = _raise_if_armed


def disarm(site: str | None = None) -> None:
    """Clear one site, or all of them."""
    global check
    if site is None:
        _armed.clear()
    else:
        _armed.pop(site, None)
    if not _armed and check is _raise_if_armed:
        check = _noop


def _init_from_env() -> None:
    global check, _file
    path = os.environ.get(ENV_FILE)
    if path:
        _file = path
        check = _check_file


_init_from_env()
