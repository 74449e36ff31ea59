"""The cluster metadata on disk: an append-only log of change records plus snapshots.

Kafka's KRaft approach (``__cluster_metadata`` + ``<offset>-<epoch>.checkpoint``
snapshots, KIP-630), for one node and without Raft::

    <first log dir>/kwire-metadata/
        00000000000000000000.checkpoint     snapshot: the image as of offset 0
        00000000000000000000.log            records 0, 1, 2, ... (appended, fsynced)
        00000000000000004711.checkpoint     a later snapshot (image as of offset 4711)
        00000000000000004711.log            records 4711, 4712, ...

The directory name does not parse as ``<topic>-<partition>``, so the log
manager never takes it for a partition. Every record, in logs and snapshots,
is framed with its own checksum, so a torn tail is detected record by record::

    +----------------+----------------+---------------------------+
    | length  uint32 | crc32c  uint32 | payload: UTF-8 JSON record |
    +----------------+----------------+---------------------------+
      (big-endian; length and CRC are of the payload)

A snapshot file is ``{"type": "snapshot", "offset": n}``, the image's
records (``MetadataImage.snapshot_records``), then ``{"type": "snapshot_end",
"records": count}``; it is written to ``.tmp``, fsynced and renamed, so it is
whole or absent, and one without its end record is not used.

Load: the newest valid snapshot, then every log whose base offset is at or
after it, in order. A record that is short or fails its CRC ends that log: the
rest is a torn write (a crash during an append that was never acknowledged)
and is cut off the file. Logs and snapshots older than the chosen snapshot are
deleted. Upgrade: a data dir holding only the old ``kwire-metadata.json``
(one JSON document rewritten on every change) is migrated into a snapshot at
offset 0; the old file is then renamed ``kwire-metadata.json.migrated``.

Append (``append``) writes a group of records with one write and one fsync;
on failure the file is cut back to its last good size, so a failed group is
not half in the log (if even that fails the next append tries again before
writing). Compaction (``maybe_snapshot``): once ``snapshot_bytes`` of records
have been appended since the last snapshot (Kafka's
``metadata.log.max.record.bytes.between.snapshots``), a new log is started at
the next offset, the committed image is written as the snapshot at that
offset, and older files are removed. A crash between the two leaves the old
snapshot and both logs, which load the same state.

Time-based snapshots (``metadata.log.max.snapshot.interval.ms``, KIP-876) are
timed by ``kwire.cluster.metadata``, which calls ``maybe_snapshot(force=True)``.

Thread-safety: ``append``, ``maybe_snapshot`` and ``close`` take one lock;
``kwire.cluster.metadata`` calls them from its single writer thread (or
directly, outside the event loop). ``image`` is the committed image, touched
only under the lock. Storage faults are injected at site ``metadata``
(``kwire.log.faults``). Not here: replication of the log, Kafka's record
format (records are JSON, framed as above).
"""

from __future__ import annotations

import json
import logging
import os
import struct
import threading

from kwire.records.crc import crc32c

from kwire.cluster.image import MetadataImage
from kwire.log import faults
from kwire.log.checkpoint import fsync_dir, write_all

log = logging.getLogger("kwire.cluster")

DIR_NAME = "kwire-metadata"
OLD_FILE = "kwire-metadata.json"
OLD_VERSION = 1
LOG_SUFFIX = ".log"
SNAPSHOT_SUFFIX = ".checkpoint"
DEFAULT_SNAPSHOT_BYTES = 20 * 1024 * 1024  # Kafka's metadata.log.max.record.bytes.between.snapshots
DEFAULT_SNAPSHOT_INTERVAL_MS = 3600 * 1000  # Kafka's metadata.log.max.snapshot.interval.ms

_FRAME = struct.Struct(">II")
_fsync = getattr(os, "fdatasync", None) or os.fsync


class MetadataLogError(RuntimeError):
    """The metadata on disk cannot be loaded (no usable snapshot)."""


def encode_record(record: dict) -> bytes:
    payload = json.dumps(record, separators=(",", ":")).encode()
    return _FRAME.pack(len(payload), crc32c(payload)) + payload


def decode_records(data: bytes) -> tuple[list[dict], int]:
    """The whole records at the start of ``data``, and the byte length they take.

    Stops at the first record that is short, fails its CRC or is not JSON.
    """
    out: list[dict] = []
    pos, end = 0, len(data)
    while pos + _FRAME.size <= end:
        length, crc = _FRAME.unpack_from(data, pos)
        start = pos + _FRAME.size
        if start + length > end:
            break
        payload = data[start:start + length]
        if crc32c(payload) != crc:
            break
        try:
            record = json.loads(payload)
        except ValueError:
            break
        if not isinstance(record, dict) or "type" not in record:
            break
        out.append(record)
        pos = start + length
    return out, pos


def _name(offset: int, suffix: str) -> str:
    return f"{offset:020d}{suffix}"


def _offsets(names, suffix: str) -> list[int]:
    out = []
    for n in names:
        stem = n[:-len(suffix)]
        if n.endswith(suffix) and len(stem) == 20 and stem.isdigit():
            out.append(int(stem))
    return sorted(out)


def _write_file(path: str, data: bytes) -> None:
    """Write ``path`` whole: temp file, fsync, rename, fsync of the directory."""
    tmp = path + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_dir(os.path.dirname(path))


class MetadataLog:
    def __init__(self, data_dir: str, node_id: int, snapshot_bytes: int = DEFAULT_SNAPSHOT_BYTES) -> None:
        self.data_dir = data_dir
        self.dir = os.path.join(data_dir, DIR_NAME)
        self.node_id = node_id
        self.snapshot_bytes = max(1, snapshot_bytes)
        self.image = MetadataImage(node_id)
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._base = 0            # base offset of the current log file
        self._next_offset = 0     # offset the next record gets
        self._size = 0            # good size of the current log file
        self._torn = False        # the file may hold bytes past _size (a failed append)
        self._since_snapshot = 0  # record bytes appended since the last snapshot
        self.snapshot_offset = 0  # offset of the newest snapshot

    # -- loading ----------------------------------------------------------------------
    def load(self, new_cluster_id) -> str:
        """Load (or create, or migrate) the metadata; returns "loaded", "created" or "migrated".

        ``new_cluster_id()`` gives the cluster id of a brand-new store.
        """
        os.makedirs(self.dir, exist_ok=True)
        names = os.listdir(self.dir)
        for n in names:
            if n.endswith(".tmp"):
                os.unlink(os.path.join(self.dir, n))
        snaps = _offsets(names, SNAPSHOT_SUFFIX)
        logs = _offsets(names, LOG_SUFFIX)
        how = "loaded"
        old = os.path.join(self.data_dir, OLD_FILE)
        if not snaps:
            if logs:
                raise MetadataLogError(f"{self.dir}: metadata logs but no snapshot")
            if os.path.exists(old):
                self.image = _image_from_old_file(old, self.node_id)
                how = "migrated"
            else:
                self.image = MetadataImage(self.node_id)
                self.image.cluster_id = new_cluster_id()
                how = "created"
            self._write_snapshot(0)
            snaps = [0]
            if how == "migrated":
                os.replace(old, old + ".migrated")
                fsync_dir(self.data_dir)
                log.info("migrated %s into %s (%d topics)", old, self.dir, len(self.image.topics))
        if how == "loaded" and os.path.exists(old):  # a crash ended the migration before the rename
            os.replace(old, old + ".migrated")
        self._load_snapshot(snaps)
        self._replay_logs([o for o in logs if o >= self.snapshot_offset])
        for o in snaps:
            if o < self.snapshot_offset:
                self._unlink(_name(o, SNAPSHOT_SUFFIX))
        for o in logs:
            if o < self.snapshot_offset:
                self._unlink(_name(o, LOG_SUFFIX))
        if self._since_snapshot >= self.snapshot_bytes:
            self._snapshot()
        return how

    def _load_snapshot(self, snaps: list[int]) -> None:
        for offset in reversed(snaps):
            path = os.path.join(self.dir, _name(offset, SNAPSHOT_SUFFIX))
            with open(path, "rb") as f:
                records, _ = decode_records(f.read())
            if (len(records) >= 2 and records[0].get("type") == "snapshot"
                    and records[0].get("offset") == offset and records[-1].get("type") == "snapshot_end"
                    and records[-1].get("records") == len(records) - 2):
                self.image = MetadataImage.from_records(self.node_id, records[1:-1])
                self.snapshot_offset = offset
                return
            log.error("metadata snapshot %s is incomplete or corrupt; trying an older one", path)
        raise MetadataLogError(f"{self.dir}: no valid metadata snapshot")

    def _replay_logs(self, logs: list[int]) -> None:
        if not logs or logs[0] != self.snapshot_offset:
            # the log that starts at the snapshot is missing (crash right after the
            # snapshot, before the log file was made): start it now
            logs = [self.snapshot_offset] + logs
        self._next_offset = self.snapshot_offset
        for i, base in enumerate(logs):
            path = os.path.join(self.dir, _name(base, LOG_SUFFIX))
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except FileNotFoundError:
                data = b""
            if base != self._next_offset:
                log.error("metadata log %s starts at %d, expected %d", path, base, self._next_offset)
            records, good = decode_records(data)
            for r in records:
                self.image.replay(r)
            self._next_offset = base + len(records)
            self._since_snapshot += good
            last = i == len(logs) - 1
            if good < len(data):
                log.warning("metadata log %s: dropping %d bytes of a torn or corrupt tail after %d records",
                            path, len(data) - good, len(records))
            if last:
                self._open_log(base, good, truncate=good < len(data) or not os.path.exists(path))
            elif good < len(data):
                log.error("metadata log %s is damaged before its end; later logs are replayed anyway", path)

    def _open_log(self, base: int, size: int, truncate: bool) -> None:
        path = os.path.join(self.dir, _name(base, LOG_SUFFIX))
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        if truncate:
            os.ftruncate(fd, size)
            os.fsync(fd)
            fsync_dir(self.dir)
        if self._fd is not None:
            os.close(self._fd)
        self._fd, self._base, self._size, self._torn = fd, base, size, False

    # -- appending --------------------------------------------------------------------
    def append(self, records: list[dict]) -> None:
        """Append ``records`` durably (one write, one fsync) and apply them to ``image``.

        Raises OSError with nothing of ``records`` left in the log.
        """
        data = b"".join(encode_record(r) for r in records)
        with self._lock:
            if self._fd is None:
                raise OSError("the metadata log is closed")
            if self._torn:
                os.ftruncate(self._fd, self._size)  # an earlier failed append; raises if still failing
                self._torn = False
            try:
                faults.check("metadata")
                write_all(self._fd, data)
                _fsync(self._fd)
            except OSError:
                self._torn = True
                try:
                    os.ftruncate(self._fd, self._size)
                    self._torn = False
                except OSError:
                    pass
                raise
            self._size += len(data)
            self._since_snapshot += len(data)
            self._next_offset += len(records)
            for r in records:
                self.image.replay(r)

    def maybe_snapshot(self, force: bool = False) -> bool:
        """Compact: snapshot the committed image once enough records were appended
        (with ``force``, once any record was appended since the last snapshot)."""
        with self._lock:
            if self._fd is None or self._since_snapshot < (1 if force else self.snapshot_bytes):
                return False
            self._snapshot()
            return True

    def _snapshot(self) -> None:
        offset = self._next_offset
        old_snaps = _offsets(os.listdir(self.dir), SNAPSHOT_SUFFIX)
        old_logs = _offsets(os.listdir(self.dir), LOG_SUFFIX)
        if offset != self._base:
            self._open_log(offset, 0, truncate=True)  # the new log first: appends go on after a crash
        self._write_snapshot(offset)
        self._since_snapshot = 0
        for o in old_snaps:
            if o < offset:
                self._unlink(_name(o, SNAPSHOT_SUFFIX))
        for o in old_logs:
            if o < offset:
                self._unlink(_name(o, LOG_SUFFIX))
        log.info("metadata snapshot at offset %d (%d topics)", offset, len(self.image.topics))

    def _write_snapshot(self, offset: int) -> None:
        faults.check("metadata")
        parts = [encode_record({"type": "snapshot", "offset": offset})]
        for r in self.image.snapshot_records():
            parts.append(encode_record(r))
        parts.append(encode_record({"type": "snapshot_end", "records": len(parts) - 1}))
        _write_file(os.path.join(self.dir, _name(offset, SNAPSHOT_SUFFIX)), b"".join(parts))
        self.snapshot_offset = offset

    def _unlink(self, name: str) -> None:
        try:
            os.unlink(os.path.join(self.dir, name))
        except FileNotFoundError:
            pass

    @property
    def next_offset(self) -> int:
        return self._next_offset

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


def _image_from_old_file(path: str, node_id: int) -> MetadataImage:
    """The image of a pre-log ``kwire-metadata.json`` (format version 1)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("version") != OLD_VERSION:
        raise MetadataLogError(f"{path}: unsupported metadata version {doc.get('version')}")
    image = MetadataImage(node_id)
    image.replay({"type": "cluster", "cluster_id": doc["cluster_id"]})
    image.replay({"type": "producer_ids", "next": int(doc.get("next_producer_id", 0))})
    image.replay({"type": "broker_configs", "broker": doc.get("dynamic_broker_configs", {}),
                  "default": doc.get("dynamic_default_broker_configs", {})})
    for td in doc["topics"]:
        parts = sorted(td["partitions"], key=lambda p: p["partition"])
        image.replay({"type": "topic", "name": td["name"], "id": td["topic_id"], "partitions": len(parts),
                      "configs": td.get("configs", {}), "epochs": [p["leader_epoch"] for p in parts]})
    return image
