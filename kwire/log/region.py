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

Use ``fallback=False``: asyncio's own fallback seeks the file object and reads
it from executor threads, and segment file objects are shared by every reader
of the partition, so two fallbacks at once would interleave. ``read()`` uses
``os.pread`` and never touches the file position; the native ``os.sendfile``
path takes an explicit offset too (it only moves the position afterwards,
which nothing in kwire relies on).

Lifetime: a region holds a reference to the segment's ``SegmentFile``. When
retention, DeleteRecords or topic deletion removes a segment, its files are
unlinked at once, but the open file object lives on for as long as any region
(or the segment) refers to it, and an unlinked file stays readable through an
open descriptor. ``SegmentFile`` closes its descriptor when the last reference
drops (``__del__``), silently, so an outstanding fetch finishes sending the
bytes it was promised. This replaces Kafka's ``file.delete.delay.ms`` (rename
to ``.deleted``, delete a minute later).

Not handled: ``truncate_to`` (replication) shortens a file in place; a region
over the removed tail would then send fewer bytes than announced. Followers
truncate only above the high watermark, which consumers never read.
"""

from __future__ import annotations

import io
import os


class SegmentFile(io.FileIO):
    """The ``.log`` file of a segment: unbuffered, O_APPEND, closed when unreferenced."""

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown; nothing useful to do
            pass


class FileRegion:
    """``length`` bytes of ``file`` from ``position``: one or more whole record batches."""

    __slots__ = ("file", "position", "length")

    def __init__(self, file: SegmentFile, position: int, length: int) -> None:
        self.file = file
        self.position = position
        self.length = length

    def __len__(self) -> int:
        return self.length

    def read(self) -> bytes:
        """The region's bytes, read with ``os.pread`` (the non-zero-copy fallback)."""
        fd = self.file.fileno()
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
