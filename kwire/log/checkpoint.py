"""Kafka's plain-text checkpoint files, written atomically.

Offset checkpoints in each log dir (``recovery-point-offset-checkpoint``,
``log-start-offset-checkpoint``, ``replication-offset-checkpoint``) and the
per-partition ``leader-epoch-checkpoint`` share one layout::

    0                     version
    3                     number of entry lines
    orders 0 1200         offset checkpoint: topic partition offset
    orders 1 0
    payments 0 77

    0
    2
    0 0                   leader epoch checkpoint: epoch start_offset
    3 1200

Writes go to ``<name>.tmp``, are fsynced, renamed over the old file and the
directory is fsynced, so a crash leaves either the old or the new file, never a
torn one. A reader that finds a malformed file raises ``CheckpointError``; the
caller decides whether to ignore it (recovery then scans more) or fail.

Also here, for the start-up of many partitions: ``read_small`` (a small file in one
read) and ``offsets_named`` (the offsets in a partition directory's file names).

Topic names cannot contain spaces in Kafka (legal characters are
``[a-zA-Z0-9._-]``), so a space-separated line is unambiguous.
"""

from __future__ import annotations

import os

VERSION = 0


class CheckpointError(ValueError):
    """A checkpoint file that does not follow the format above."""


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)
_READ_CHUNK = 1 << 16


def read_small(path: str) -> bytes:
    """The whole (small) file at ``path`` with plain ``os`` calls; OSError as ``os.open`` raises it.

    Start-up reads four or five small files per partition (indexes, checkpoint, producer
    snapshot): a buffered ``open()`` costs several times the system calls' own time."""
    fd = os.open(path, _READ_FLAGS)
    try:
        data = os.read(fd, _READ_CHUNK)
        if len(data) < _READ_CHUNK:  # a regular file reads short only at its end
            return data
        chunks = [data]
        while True:
            chunk = os.read(fd, _READ_CHUNK)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def offsets_named(names, suffix: str) -> list[int]:
    """Sorted offsets of the names ``<20-digit offset><suffix>`` among ``names`` (a partition
    directory's listing). String tests rather than a regular expression: start-up runs this
    a few times per partition directory."""
    n = 20 + len(suffix)
    out = [int(name[:20]) for name in names
           if name.endswith(suffix) and len(name) == n and name[:20].isdigit()]
    out.sort()
    return out


def fsync_dir(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse fsync on directories
    finally:
        os.close(fd)


def write_all(fd: int, data) -> None:
    """Write all of ``data`` at ``fd``'s position (``os.write`` may write less than asked)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def atomic_write(path: str, data: bytes, batch=None) -> None:
    """Replace ``path`` with ``data`` via temp file + fsync + rename + fsync(dir).

    With ``batch`` (a clean shutdown's ``durability.SyncBatch``) only the temp file is
    written here: the batch makes it durable and renames it in its ``commit``."""
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        try:
            write_all(fd, data)
            if batch is None:
                os.fsync(fd)
        finally:
            os.close(fd)
        if batch is not None:
            batch.replace_later(tmp, path)
            return
        os.replace(tmp, path)
    except OSError:
        try:  # the old file is untouched; do not leave a partial temp file behind
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(os.path.dirname(path) or ".")


def write_checkpoint(path: str, rows: list[tuple], batch=None) -> None:
    lines = [str(VERSION), str(len(rows))]
    lines += [" ".join(str(x) for x in row) for row in rows]
    atomic_write(path, ("\n".join(lines) + "\n").encode("utf-8"), batch)


def read_checkpoint(path: str, fields: int) -> list[list[str]] | None:
    """Rows of ``fields`` strings each; None when the file does not exist."""
    try:
        lines = read_small(path).decode("utf-8").splitlines()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise CheckpointError(f"{path}: {e}") from e
    if len(lines) < 2 or lines[0].strip() != str(VERSION):
        raise CheckpointError(f"{path}: unsupported version line {lines[:1]!r}")
    try:
        count = int(lines[1])
    except ValueError:
        raise CheckpointError(f"{path}: bad count line {lines[1]!r}") from None
    rows = [line.split() for line in lines[2:] if line.strip()]
    if len(rows) != count or any(len(r) != fields for r in rows):
        raise CheckpointError(f"{path}: expected {count} rows of {fields} fields")
    return rows


def write_offsets(path: str, offsets: dict[tuple[str, int], int]) -> None:
    """``recovery-point-offset-checkpoint`` and friends: topic partition offset.

    The lines are formatted in one pass (the same bytes as ``write_checkpoint``): with
    50,000 partitions a generic row join was a sixth of the start-up's CPU."""
    rows = sorted(offsets.items())
    text = f"{VERSION}\n{len(rows)}\n" + "".join(f"{t} {p} {o}\n" for (t, p), o in rows)
    atomic_write(path, text.encode("utf-8"))


def read_offsets(path: str) -> dict[tuple[str, int], int]:
    rows = read_checkpoint(path, 3)
    if rows is None:
        return {}
    try:
        return {(t, int(p)): int(o) for t, p, o in rows}
    except ValueError:
        raise CheckpointError(f"{path}: non-numeric partition or offset") from None


def write_epochs(path: str, entries: list[tuple[int, int]], batch=None) -> None:
    """``leader-epoch-checkpoint``: epoch start_offset (the bytes of ``write_checkpoint``,
    formatted directly: a clean shutdown writes one per partition)."""
    text = f"{VERSION}\n{len(entries)}\n" + "".join(f"{e} {o}\n" for e, o in entries)
    atomic_write(path, text.encode("utf-8"), batch)


def read_epochs(path: str) -> list[tuple[int, int]] | None:
    rows = read_checkpoint(path, 2)
    if rows is None:
        return None
    try:
        return [(int(e), int(o)) for e, o in rows]
    except ValueError:
        raise CheckpointError(f"{path}: non-numeric epoch or offset") from None
