"""Swapping a cleaned segment in for the segments it replaces, and finishing that at start-up.

Kafka's protocol (``LogCleaner.cleanSegments`` + ``UnifiedLog.replaceSegments``),
for one group cleaned into ``<base>.log.cleaned`` (+ ``.index.cleaned``,
``.timeindex.cleaned``, ``<base>.cleanend`` holding the group's end
offset, and ``<base>.txnindex.cleaned`` when the pass kept ABORT markers whose
transactions still had data: their aborted-transaction index entries, Kafka's
cleaned ``TransactionIndex``; all written and fsynced by ``cleaner_rewrite``. When
no entry survived but a replaced segment had a ``.txnindex``, an empty one is
written here, so that the old index at ``base`` is always superseded)::

    1  rename the .cleaned files to .swap (indexes first, the .log last); fsync the dir
         -- from the moment <base>.log.swap exists, the swap is decided --
    2  rename every replaced segment's files to .deleted
    3  rename the .swap files to their final names (indexes first, .log last); fsync the dir
    4  unlink the .deleted files and <base>.cleanend

Start-up (``recover``, called by ``recovery.remove_stray_files`` before
strays are removed): a ``<base>.log.swap`` means step 1 completed: every
``.log`` (and its indexes) with a base in (base, cleanend) is an old segment
of the group and is removed, then the ``.swap`` files take their final
names (replacing the old segment's files at ``base`` if step 2 did not
rename them yet; a final name at ``base`` without a ``.swap`` beside it is
already the cleaned one: step 3 renames in the order above). Without ``<base>.log.swap`` the swap never happened: ``.cleaned``,
index ``.swap`` files and the ``.cleanend`` marker are removed and the old
segments are intact. ``.deleted`` files go in both cases. A crash at any
point therefore leaves either the old segments or the cleaned one, never
both and never neither.

At run time (``swap_in``, on the thread that owns the ``PartitionLog``: the
event loop), the group's segments must still be in the log, unchanged in
size; otherwise (retention, truncation or deletion happened meanwhile) the
cleaned files are dropped and ``False`` is returned. Old segments' files are
closed for good before being renamed: a ``FileRegion`` of a fetch in flight
pins its descriptor (``region.py``), which keeps reading the old, unlinked
file, so readers racing the swap never see a half-written segment and
finish sending what they were promised; the new ``LogSegment`` is opened
only once its files have their final names. An OSError in steps 1-3 (the
``clean`` fault site is checked before each) is undone -- renames reversed
-- and re-raised, leaving the log as it was; an OSError while undoing is a
``LogDirFailure``. Step 4 failing leaves only stray files for the next start.

``STEP_HOOK`` (tests): called with the step number before steps 1-4, so a
test process can kill itself mid-swap.
"""

from __future__ import annotations

import logging
import os
import re

from . import faults
from .checkpoint import fsync_dir
from .cleaner_rewrite import CleanedGroup, cleaned_paths, remove_files
from .segment import LogDirFailure, LogSegment, file_name

log = logging.getLogger("kwire.log.cleaner")

STEP_HOOK = None
SUFFIXES = (".index", ".timeindex", ".log")  # rename order: the .log decides
ALL_SUFFIXES = (".index", ".timeindex", ".txnindex", ".log")
_SWAP_RE = re.compile(r"^(\d{20})\.log\.swap$")
_LOG_RE = re.compile(r"^(\d{20})\.log$")


def _hook(step: int) -> None:
    if STEP_HOOK is not None:
        STEP_HOOK(step)


def _seg_paths(dir: str, base: int, suffix: str = "", suffixes=SUFFIXES) -> list[str]:
    return [os.path.join(dir, file_name(base, s) + suffix) for s in suffixes]


def _prepare_txn_index(d: str, group: CleanedGroup) -> bool:
    """Whether the cleaned segment gets a ``.txnindex``: the one the rewrite wrote (entries of
    the ABORT markers it kept, ``cleaner_rewrite``), or an empty one when a replaced segment
    had an index but no entry survived. Then the replaced segment's index at ``group.base`` is
    always superseded by a ``.swap`` file, so a restart never mistakes it for the cleaned one."""
    path = os.path.join(d, file_name(group.base, ".txnindex.cleaned"))
    if os.path.exists(path):
        return True
    if not any(os.path.exists(os.path.join(d, file_name(b, ".txnindex"))) for b in group.old_bases):
        return False
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return True


def swap_in(plog, group: CleanedGroup, now_ms: int) -> bool:
    """Replace the group's segments of ``plog`` with the cleaned one; False if they changed."""
    d = plog.dir
    segs = plog._segments
    bases = [s.base_offset for s in segs]
    try:
        first = bases.index(group.base)
    except ValueError:
        first = -1
    old = segs[first:first + len(group.old_bases)] if first >= 0 else []
    if (plog.closed or plog.offline or [s.base_offset for s in old] != group.old_bases
            or first + len(old) >= len(segs)  # never the active segment
            or segs[first + len(old)].base_offset != group.end):
        remove_files(cleaned_paths(d, group.base))
        return False
    cleaned = cleaned_paths(d, group.base)[:3]  # .log, .index, .timeindex .cleaned
    cleaned_by_suffix = {".log": cleaned[0], ".index": cleaned[1], ".timeindex": cleaned[2],
                         ".txnindex": os.path.join(d, file_name(group.base, ".txnindex.cleaned"))}
    done: list[tuple[str, str]] = []  # (from, to) renames made, for the undo
    suffixes = SUFFIXES
    try:
        if _prepare_txn_index(d, group):
            suffixes = ALL_SUFFIXES
        swaps = _seg_paths(d, group.base, ".swap", suffixes)
        _hook(1)
        faults.check("clean", d)
        for suffix, swap in zip(suffixes, swaps):
            os.rename(cleaned_by_suffix[suffix], swap)
            done.append((cleaned_by_suffix[suffix], swap))
        fsync_dir(d)
        _hook(2)
        faults.check("clean", d)
        for seg in old:
            seg.close()
            seg.file.close()  # for good: a pinned descriptor lives on until its region is sent
            for path in _seg_paths(d, seg.base_offset, "", ALL_SUFFIXES):
                if os.path.exists(path):
                    os.rename(path, path + ".deleted")
                    done.append((path, path + ".deleted"))
        _hook(3)
        faults.check("clean", d)
        for swap, final in zip(swaps, _seg_paths(d, group.base, "", suffixes)):
            os.rename(swap, final)
            done.append((swap, final))
        fsync_dir(d)
    except OSError as e:
        try:
            for src, dst in reversed(done):
                os.rename(dst, src)
            fsync_dir(d)
            remove_files(cleaned_paths(d, group.base) + [cleaned_by_suffix[".txnindex"]])
        except OSError as e2:
            raise LogDirFailure(f"could not undo a failed segment swap in {d}: {e2} "
                                f"(the swap failed with: {e})", e) from e2
        for seg in old:  # reopen lazily by their (restored) names
            seg.file._closed = False
        raise
    _hook(4)
    try:
        for seg in old:
            remove_files(_seg_paths(d, seg.base_offset, ".deleted", ALL_SUFFIXES))
        remove_files(cleaned_paths(d, group.base)[3:])
    except OSError as e:  # leftovers only: start-up removes them
        log.warning("%s: could not remove replaced segment files: %s", d, e)
    new = LogSegment(d, group.base, plog.config, now_ms)
    if not new.load_trusted():
        raise LogDirFailure(f"cleaned segment {new.log_path} does not read back", None)
    segs[first:first + len(old)] = [new]
    plog._bases = [s.base_offset for s in segs]
    txn = getattr(plog, "txn_index", None)
    if suffixes is ALL_SUFFIXES and txn is not None:  # the group's entries: only the kept ones
        txn.load(plog._bases, plog.log_end_offset)
    return True


def recover(dir: str) -> None:
    """Finish or undo an interrupted swap in partition directory ``dir`` (see the docstring)."""
    names = set(os.listdir(dir))
    for name in sorted(names):
        m = _SWAP_RE.match(name)
        if not m:
            continue
        base = int(m.group(1))
        end = None
        marker = os.path.join(dir, file_name(base, ".cleanend"))
        try:
            with open(marker) as f:
                end = int(f.read().strip())
        except (FileNotFoundError, ValueError):
            pass
        for other in sorted(names):
            lm = _LOG_RE.match(other)
            if not lm:
                continue
            b = int(lm.group(1))
            if end is not None and base < b < end:  # base's own files: os.replace below
                log.info("finishing an interrupted cleaner swap in %s: removing replaced "
                         "segment %d", dir, b)
                remove_files(_seg_paths(dir, b, "", ALL_SUFFIXES))
        for swap, final in zip(_seg_paths(dir, base, ".swap", ALL_SUFFIXES),
                               _seg_paths(dir, base, "", ALL_SUFFIXES)):
            if os.path.exists(swap):
                os.replace(swap, final)
        log.info("finished an interrupted cleaner swap in %s: segment %d is the cleaned one",
                 dir, base)
        remove_files([marker])
        fsync_dir(dir)
