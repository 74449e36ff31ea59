"""glibc's malloc told to keep freed request buffers mapped, so that a broker under load does not
fault in (and zero) fresh pages for every large request it reads.

Request frames are ``bytearray``s of up to a MiB and more (a Produce of
``batch.size`` 1 MB, a follower's Fetch answer of up to
``replica.fetch.response.max.bytes``). By default glibc moves its mmap
threshold up to the size of the largest block freed, but gives the top of the
heap back to the kernel (``brk``) as soon as 2x that threshold is free there.
A partition leader in a cluster keeps many such frames alive at once (every
acks=all Produce waits for its followers), frees them in bursts, and the heap
shrinks and grows again: on the 2-core test machine 120-200 minor page faults
per MB of records, each page zeroed by the kernel and then again by
``bytearray``'s own fill (``perf``: ``clear_page_erms`` under
``__memset_avx2_unaligned_erms``), about 0.4 ms of CPU per MB produced. A
single broker frees each frame before the next arrives and hardly faults.

``tune_malloc`` sets two of glibc's knobs for the process, once, at
``kwire serve`` start-up: ``M_MMAP_THRESHOLD`` (blocks below it come from the
heap, so they can be reused) and ``M_TRIM_THRESHOLD`` (the free top of the heap
kept before any is given back). What this costs: up to ``TRIM_THRESHOLD`` of
freed heap stays in the RSS after a burst of large requests. Blocks of
``MMAP_THRESHOLD`` or more are still mapped and unmapped one by one.

Not here: anything but glibc (musl, macOS: nothing is done); a process whose
environment already sets ``MALLOC_MMAP_THRESHOLD_`` or ``MALLOC_TRIM_THRESHOLD_``
keeps its own choice; brokers run in a thread (tests, embedding) share their
host's malloc and are left alone.
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger("kwire.server.heap")

M_TRIM_THRESHOLD = -1  # glibc's malloc.h
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 * 1024 * 1024  # glibc's own ceiling for its moving threshold (64-bit)
TRIM_THRESHOLD = 64 * 1024 * 1024


def tune_malloc() -> bool:
    """Set the thresholds above; True if glibc took them."""
    try:
        if not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"):
            return False
    except (ValueError, OSError):  # no such name here: not glibc
        return False
    if "MALLOC_MMAP_THRESHOLD_" in os.environ or "MALLOC_TRIM_THRESHOLD_" in os.environ:
        return False
    import ctypes  # here, not at import: only ``kwire serve`` pays for it (a few ms)

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    ok = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    log.info("malloc: large request buffers kept for reuse (mmap threshold %d MiB, trim threshold "
             "%d MiB)%s", MMAP_THRESHOLD >> 20, TRIM_THRESHOLD >> 20, "" if ok else ": refused by glibc")
    return ok
