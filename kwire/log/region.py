"""A byte range of a segment file, handed to the network layer for zero-copy sends.

``FileRegion(file, position, length)`` names ``length`` bytes of a segment's
``.log`` file starting at ``position``. The fetch path builds regions from
batch headers alone; the bytes are never copied into Python unless the
network layer falls back to ``read()``.

Sending a region from asyncio::

    try:
        await loop.sendfile(transport, region.file, region.position, region.length,
                            fallback=False)
    except (asyncio.SendfileNotAvailableError, NotImplementedError):
        transport.write(region.read())

``headers()`` walks a region's batch headers without reading its records and
``slice()`` cuts whole batches out of it (the share fetch path answers the
batches it acquired that way).

Use ``fallback=False``: asyncio's own fallback seeks the file object and reads
it from executor threads, and segment file objects are shared by every reader
of the partition, so two fallbacks at once would interleave. ``read()`` uses
``os.pread`` and never touches the file position; the native ``os.sendfile``
path takes an explicit offset too (it only moves the position afterwards,
which nothing in kwire relies on). kwire's connection calls ``os.sendfile``
with ``region.file.fileno()`` itself.

Lifetime: a segment's ``SegmentFile`` is a ``CachedFile`` (files.py): the
broker's file cache opens its descriptor on demand and closes it when it has
been idle longest. A region of ``PIN_MIN_BYTES`` or more (one the connection
sends with ``os.sendfile``) *pins* the file for as long as the region lives
(released in ``__del__``), so its descriptor stays open and keeps its number
until the bytes are sent, even if the cache needs room meanwhile; a smaller
region reads its bytes when it is made and holds no descriptor. When
retention, DeleteRecords or topic deletion removes a segment, its files are
unlinked at once and the segment file is closed, but a pinned descriptor is
closed only at the last unpin, and an unlinked file stays readable through an
open descriptor, so an outstanding fetch finishes sending the bytes it was
promised. This replaces Kafka's ``file.delete.delay.ms`` (rename to
``.deleted``, delete a minute later).

Not handled: ``truncate_to`` (replication) shortens a file in place; a region
over the removed tail would then send fewer bytes than announced. Followers
truncate only above the high watermark, which consumers never read.
"""

from __future__ import annotations

import os

from kwire.records.batch import HEADER_SIZE, LOG_OVERHEAD, read_header

from .files import O_APPEND_RW, CachedFile

# headers() reads a pinned region in blocks of this many bytes: one pread per batch of large
# batches, one per many batches of small ones
_HEADER_BLOCK = 8192


class SegmentFile(CachedFile):
    """The ``.log`` file of a segment: O_RDWR | O_APPEND, created on first open, descriptor cached."""

    __slots__ = ()

    def __init__(self, path: str, mode: str = "a+b") -> None:
        if mode != "a+b":
            raise ValueError(f"SegmentFile supports mode 'a+b' only, not {mode!r}")
        super().__init__(path, O_APPEND_RW, create=True)


# Regions smaller than this are read at once and hold no descriptor; larger ones pin it.
# The same as kwire.server.connection.SENDFILE_MIN_BYTES: the connection copies smaller
# regions anyway (pread + write), so reading them early costs nothing, and a fetch of
# thousands of small partitions then pins no descriptor at all.
PIN_MIN_BYTES = 256 * 1024


class FileRegion:
    """``length`` bytes of ``file`` from ``position``: one or more whole record batches.

    Below ``PIN_MIN_BYTES`` the bytes are read when the region is made; otherwise
    the region pins ``file`` (keeps its descriptor open) until it is garbage.
    """

    __slots__ = ("file", "position", "length", "_pinned", "_data")

    def __init__(self, file: SegmentFile, position: int, length: int) -> None:
        self._pinned = False
        self._data = None
        self.file = file
        self.position = position
        self.length = length
        if length < PIN_MIN_BYTES:
            self._data = self._pread(file.fileno())
        else:
            file.pin()
            self._pinned = True

    def __del__(self) -> None:
        if self._pinned:
            self._pinned = False
            try:
                self.file.unpin()
            except Exception:  # interpreter shutdown
                pass

    def __len__(self) -> int:
        return self.length

    def read(self) -> bytes:
        """The region's bytes, read with ``os.pread`` (the non-zero-copy fallback)."""
        if self._data is not None:
            return self._data
        return self._pread(self.file.fileno())

    def headers(self):
        """Yield ``(position in the region, BatchHeader)`` of each whole batch, from the batch
        headers alone: a region in memory is parsed, a pinned one read with ``os.pread`` a
        block at each header, never its records. Stops at a batch the region cuts short."""
        in_memory = self._data is not None
        buf, base, pos = (self._data if in_memory else b""), 0, 0
        while self.length - pos >= HEADER_SIZE:
            if not in_memory and pos + HEADER_SIZE > base + len(buf):
                buf = os.pread(self.file.fileno(), min(_HEADER_BLOCK, self.length - pos), self.position + pos)
                base = pos
                if len(buf) < HEADER_SIZE:
                    return
            h = read_header(buf, pos - base)
            size = LOG_OVERHEAD + h.batch_length
            if h.batch_length < HEADER_SIZE - LOG_OVERHEAD or pos + size > self.length:
                return
            yield pos, h
            pos += size

    def in_file(self) -> bool:
        """True when the bytes are not held in memory (a pinned region, sent with sendfile)."""
        return self._data is None

    def slice(self, start: int, length: int):
        """``length`` bytes of the region from ``start``: bytes when the region is in memory,
        else a region of the same file (sent with ``os.sendfile``, never copied)."""
        if self._data is not None:
            return self._data[start:start + length]
        return FileRegion(self.file, self.position + start, length)

    def _pread(self, fd: int) -> bytes:
        data = os.pread(fd, self.length, self.position)
        if len(data) == self.length:
            return data
        parts = [data]
        got = len(data)
        while got < self.length:
            more = os.pread(fd, self.length - got, self.position + got)
            if not more:
                raise EOFError(f"{self.file.name}: region {self.position}+{self.length} "
                               f"ends after {got} bytes")
            parts.append(more)
            got += len(more)
        return b"".join(parts)

    def __repr__(self) -> str:
        return f"FileRegion({self.file.name!r}, position={self.position}, length={self.length})"
