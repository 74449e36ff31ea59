"""All partition logs of the broker, across its log dirs, and their checkpoint files.

Each log dir looks like Kafka's::

    <log dir>/
        orders-0/  orders-1/  payments-0/          one directory per partition
        recovery-point-offset-checkpoint           topic partition offset (see checkpoint.py)
        log-start-offset-checkpoint
        replication-offset-checkpoint              high watermarks
        .kwire_cleanshutdown                       present only after a clean close()
        .kwire_cleanshutdown_logs                  with it: the small logs' summary (summary.py)

``LogManager(log_dirs, now_ms)`` loads every partition directory it finds,
passing each log its recovery point, log start offset and high watermark from
the checkpoints, and tells it whether the previous shutdown was clean (the
marker is removed once the dir is loaded, so a crash from then on is noticed).
Directories named ``*-delete`` are leftovers of an interrupted deletion and
are removed; names that are not ``<topic>-<partition>`` are ignored. New
partitions go to the dir holding the fewest.

Loaded logs start with ``default_config`` (or ``topic_configs[topic]``); the
broker passes the real config through ``get_or_create`` (which applies it to an
existing log) or ``update_config``.

Housekeeping the server drives: ``flush_due`` (flush.ms, and a tick of the
log cleaner ``cleaner``, see ``cleaner.py``), ``run_retention``
(retention.ms / retention.bytes / log start offset, plus idle-producer expiry),
``checkpoint`` (log.flush.offset.checkpoint.interval.ms) and ``close``.
What runs every second visits only the logs it concerns, never all of them:
``flush_due`` the logs with a finite flush.ms, the cleaner the compacted logs
(two sets kept up to date as configs change, ``_config_changed``); a
checkpoint file is rewritten only when its offsets changed, so an idle broker
with 50,000 partitions does almost nothing. Retention walks every log, at
log.retention.check.interval.ms (Kafka's default, 5 minutes).

File descriptors: segment and index files of all the dirs share one bounded
cache (``fd_cache``, see ``files.py``): at start-up the soft RLIMIT_NOFILE is
raised to the hard limit and half of it goes to the cache (``max_open_files``
overrides), so 100,000 partitions run within ``ulimit -n`` 1024; running out
anyway answers KAFKA_STORAGE_ERROR without taking a dir offline.

Log dir failure (Kafka's LogDirFailureChannel): a write that fails is undone
by the partition log and answered KAFKA_STORAGE_ERROR; when the undo fails
too, an fsync fails, or a file operation outside the append path (retention,
checkpoints) fails, files and memory may disagree and
the whole log dir goes offline (``offline_dirs``): logged at ERROR, every
partition in it answers KAFKA_STORAGE_ERROR, no checkpoint is written there
any more (the ones already on disk only certify data fsynced before the
failure), new partitions go to other dirs, and DescribeLogDirs reports the dir
with KAFKA_STORAGE_ERROR. A partition whose creation fails is not a dir
failure: nothing of it is registered, the caller gets KAFKA_STORAGE_ERROR
(and removes its partial directory). The other dirs and the broker keep serving; unlike
Kafka, a single broker stays up even when every dir is offline (in a cluster the replica
manager halts it then, as Kafka does, so the partitions move to other replicas;
``on_dir_offline`` is how it learns of each failure). The dir comes back
only through a restart, which recovers it.

Clean shutdown: ``close`` closes every log with the fsyncs and atomic renames of a dir
done together (``durability.SyncBatch``: one ``syncfs`` before the renames, one after),
then writes the offset checkpoints, the summary of the dir's small logs
(``.kwire_cleanshutdown_logs``, see ``summary.py``: the next clean start opens them without
listing or reading their files), then ``.kwire_cleanshutdown`` holding the summary's token,
and that only in a dir that
saw no I/O error at all since start-up (``dirs_with_errors``), even one that
was undone successfully: recovery at the next start is cheap (it checks from
the recovery point on) and certifies nothing that was never checked.

Start-up (Kafka's ``LogManager.loadLogs``): a dir whose loading fails with an
OSError (an unreadable directory or file, EIO; the ``load`` fault site) starts
offline, as if it had failed at run time: ``LOG DIR OFFLINE`` at ERROR, nothing
in it is written, deleted or marked clean (its clean-shutdown marker, if any,
was removed before anything was read, so the next start recovers the dir in
full), logs loaded from it before the failure stay registered but
offline, and the partition directories it lists are remembered as living there
(``is_offline``), so they answer KAFKA_STORAGE_ERROR and ``get_or_create``
refuses to recreate them elsewhere. A partition the caller knows to exist
(``is_new=False``) whose log is in no online dir while some dir is offline is
offline too, dir unknown (Kafka's getOrCreateLog with isNew false). When every
dir fails at start-up the manager raises ``AllLogDirsOffline`` (Kafka halts:
"Shutdown broker because all log dirs ... have failed"). EMFILE/ENFILE while
loading is the process's limit, not the disk's: it propagates.

Not here: moving partitions between dirs (AlterReplicaLogDirs), asynchronous
deletion, bringing an offline dir back without a restart.
"""

from __future__ import annotations

import errno
import gc
import logging
import os
import shutil
from typing import Iterator, Mapping

from kwire import clock
from kwire.protocol.errors import ErrorCode, KafkaError

from . import faults, files
from . import summary as log_summary
from .checkpoint import CheckpointError, fsync_dir, read_offsets, read_small, write_offsets
from .config import LogConfig
from .cleaner import LogCleaner
from .durability import SyncBatch
from .partition_log import PartitionLog

log = logging.getLogger("kwire.log")
LONG_MAX = (1 << 63) - 1

RECOVERY_POINT_FILE = "recovery-point-offset-checkpoint"
LOG_START_FILE = "log-start-offset-checkpoint"
HIGH_WATERMARK_FILE = "replication-offset-checkpoint"
CLEAN_SHUTDOWN_FILE = ".kwire_cleanshutdown"
DELETE_SUFFIX = "-delete"


class AllLogDirsOffline(Exception):
    """No log dir could be loaded at start-up: the broker must not start."""


def parse_dir_name(name: str) -> tuple[str, int] | None:
    """(topic, partition) of a partition directory name, None for anything else."""
    topic, sep, part = name.rpartition("-")
    if not sep or not topic or not part.isdigit() or "." in part:
        return None
    return topic, int(part)


class LogManager:
    def __init__(self, log_dirs, now_ms: int, *, default_config: LogConfig | None = None,
                 topic_configs: Mapping[str, LogConfig] | None = None,
                 max_open_files: int | None = None, cleaner: dict | None = None) -> None:
        if isinstance(log_dirs, str):
            log_dirs = [log_dirs]
        self.log_dirs = [os.path.abspath(d) for d in log_dirs]
        # Segment and index descriptors of all these dirs, bounded (files.py). By default
        # the soft RLIMIT_NOFILE is raised to the hard one and half of it is used here.
        if max_open_files is None:
            max_open_files = files.configure_process_limit()
        self.fd_cache = files.FdCache(max_open_files)
        for d in self.log_dirs:
            files.register(d, self.fd_cache)
        self.default_config = default_config or LogConfig()
        self._logs: dict[tuple[str, int], PartitionLog] = {}
        # None: offline, in an unknown dir (see get_or_create's is_new)
        self._dir_of: dict[tuple[str, int], str | None] = {}
        self.offline_dirs: dict[str, str] = {}  # log dir -> why it went offline
        self.dirs_with_errors: set[str] = set()  # any I/O error since start-up
        self.on_dir_offline = None  # called with the (topic, partition)s of a dir going offline
        self.on_offsets_moved = None  # every log's ``on_offsets_moved`` (see ``watch_offsets``)
        # The housekeeping that runs every second visits only the logs it may concern, never
        # all of them (50,000 idle partitions cost ~60 ms of the loop each second that way):
        # logs whose flush.ms is finite (flush_due), and compacted logs (the cleaner).
        self._timed_flush: set[PartitionLog] = set()
        self._compacted: set[PartitionLog] = set()
        self._written: dict[str, dict] = {}  # checkpoint path -> the offsets it holds
        topic_configs = topic_configs or {}
        # Loading allocates long-lived objects only (a few dozen per partition): the cyclic
        # collector would scan all of them again at every collection, about a third of the
        # start-up's CPU at 5,000 partitions. Paused for the load (a no-op if already off).
        collecting = gc.isenabled()
        gc.disable()
        try:
            for d in self.log_dirs:
                try:
                    os.makedirs(d, exist_ok=True)
                    self._load_dir(d, now_ms, topic_configs)
                except OSError as e:
                    if e.errno in (errno.EMFILE, errno.ENFILE):
                        raise
                    self._load_failed(d, e)
        finally:
            if collecting:
                gc.enable()
        if len(self.offline_dirs) == len(self.log_dirs):
            self.fd_cache.close_all()
            for d in self.log_dirs:
                files.unregister(d, self.fd_cache)
            raise AllLogDirsOffline("shutting down: every log dir failed at start-up: " + "; ".join(
                f"{d} ({why})" for d, why in self.offline_dirs.items()))
        # the log cleaner (compaction), ticked from flush_due; ``cleaner`` holds LogCleaner's
        # keyword arguments (enabled, backoff_ms, uncleanable_retry_ms, max_map_entries, executor)
        self.cleaner = LogCleaner(self, **(cleaner or {}))
        self.checkpoint()

    def _read_checkpoint(self, path: str) -> dict[tuple[str, int], int]:
        """The file's offsets ({} if missing or malformed); remembered as what the file
        holds only when it was read whole (``checkpoint`` rewrites a file that differs)."""
        try:
            offsets = read_offsets(path)
        except CheckpointError as e:
            log.warning("ignoring %s: %s", path, e)
            return {}
        if offsets or os.path.exists(path):
            self._written[path] = offsets
        return offsets

    def _load_failed(self, d: str, e: OSError) -> None:
        """Start ``d`` offline: remember the partitions it lists, touch nothing in it."""
        try:
            names = os.listdir(d)
        except OSError:
            names = []  # unreadable: its partitions are found through is_new=False
        for name in names:
            key = parse_dir_name(name)
            if key is not None and key not in self._dir_of:
                self._dir_of[key] = d
        self.dir_failed(d, f"loading at start-up: {e}")

    def _load_dir(self, d: str, now_ms: int, topic_configs: Mapping[str, LogConfig]) -> None:
        marker = os.path.join(d, CLEAN_SHUTDOWN_FILE)
        clean = os.path.exists(marker)
        summary_path = os.path.join(d, log_summary.SUMMARY_FILE)
        summaries = {}
        if clean:
            try:  # the small logs' summary, written by the close that wrote the marker
                token = read_small(marker).decode("ascii", "replace")
                summaries = log_summary.read(summary_path, token)
            except (OSError, CheckpointError) as e:  # the logs are then loaded from their files
                log.warning("ignoring %s: %s", summary_path, e)
        try:  # never used twice, nor after a crash (summary.py)
            os.unlink(summary_path)
        except FileNotFoundError:
            pass
        if clean:  # gone before anything is read: a load that fails is recovered in full next time
            os.unlink(marker)
            fsync_dir(d)
        recovery_points = self._read_checkpoint(os.path.join(d, RECOVERY_POINT_FILE))
        starts = self._read_checkpoint(os.path.join(d, LOG_START_FILE))
        hws = self._read_checkpoint(os.path.join(d, HIGH_WATERMARK_FILE))
        loaded = 0
        # scandir: the entry type comes with the listing, no stat per partition directory
        with os.scandir(d) as it:
            dirs = sorted((e.name, e.path) for e in it if e.is_dir())
        for name, path in dirs:
            if name.endswith(DELETE_SUFFIX):
                log.info("finishing the deletion of %s", path)
                shutil.rmtree(path, ignore_errors=True)
                continue
            key = parse_dir_name(name)
            if key is None:
                continue
            if key in self._logs:
                log.error("%s-%d exists in both %s and %s; using the first", key[0], key[1],
                          self._dir_of[key], d)
                continue
            row = summaries.get(key)
            if row is not None:  # a file cut or grown since the close: loaded from its files
                try:
                    size = os.stat(f"{path}/{row.base_offset:020d}.log").st_size
                except FileNotFoundError:
                    size = -1
                if size != row.size:
                    log.warning("%s: segment size %d, not %d as at the clean shutdown; loading "
                                "it from its files", path, size, row.size)
                    row = None
            plog = PartitionLog.open(
                d, key[0], key[1], topic_configs.get(key[0], self.default_config), now_ms,
                recovery_point=recovery_points.get(key, 0), log_start_offset=starts.get(key, 0),
                high_watermark=hws.get(key), clean_shutdown=clean, existing=True, summary=row)
            self._add(key, plog, d)
            loaded += 1
        if loaded or clean:
            log.info("loaded %d partition logs from %s (%s shutdown)", loaded, d,
                     "clean" if clean else "unclean")
        else:
            log.info("no partition logs in %s yet", d)

    # -- lookup ---------------------------------------------------------------
    def get(self, topic: str, partition: int) -> PartitionLog | None:
        return self._logs.get((topic, partition))

    def log_dir_of(self, topic: str, partition: int) -> str | None:
        """The (absolute) log dir holding the partition's log, None if there is no log."""
        return self._dir_of.get((topic, partition))

    def __iter__(self) -> Iterator[PartitionLog]:
        return iter(list(self._logs.values()))

    def __len__(self) -> int:
        return len(self._logs)

    def partitions(self, topic: str) -> list[PartitionLog]:
        return [lg for (t, _), lg in self._logs.items() if t == topic]

    def get_or_create(self, topic: str, partition: int, config: LogConfig | None = None,
                      now_ms: int | None = None, *, is_new: bool = True) -> PartitionLog:
        """The partition's log, created in the emptiest log dir if missing.

        With ``config``, an existing log takes it (logs loaded at start-up
        begin with the default config until the broker supplies theirs).
        KafkaError(KAFKA_STORAGE_ERROR) instead of creating a log whose
        partition lives in an offline dir, or, with ``is_new=False`` (the
        partition existed before), when its log is missing and some dir is
        offline: it may be there (the partition is then offline, dir unknown).
        """
        key = (topic, partition)
        plog = self._logs.get(key)
        if plog is not None:
            if config is not None:
                plog.update_config(config)
            return plog
        if key in self._dir_of or (not is_new and self.offline_dirs):
            self._dir_of.setdefault(key, None)
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR,
                             f"{topic}-{partition} is offline: its log may be in an offline log "
                             f"dir ({', '.join(self.offline_dirs)})")
        if now_ms is None:
            now_ms = clock.now_ms()
        online = [x for x in self.log_dirs if x not in self.offline_dirs]
        if not online:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR,
                             f"cannot create {topic}-{partition}: every log dir is offline")
        # the emptiest dir; counting is O(partitions), so skip it when there is no choice
        d = online[0] if len(online) == 1 else \
            min(online, key=lambda x: sum(1 for v in self._dir_of.values() if v == x))
        try:
            plog = PartitionLog.open(d, topic, partition, config or self.default_config, now_ms)
        except OSError as e:  # nothing was registered: memory holds no trace of it
            self.dirs_with_errors.add(d)
            log.error("could not create the log of %s-%d in %s: %s", topic, partition, d, e)
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR,
                             f"cannot create {topic}-{partition} in {d}: {e}") from e
        self._add(key, plog, d)
        return plog

    def _add(self, key: tuple[str, int], plog: PartitionLog, d: str) -> None:
        self._logs[key] = plog
        self._dir_of[key] = d
        plog.on_dir_failure = self.dir_failed
        plog.on_io_error = self.dirs_with_errors.add
        plog.on_offsets_moved = self.on_offsets_moved
        plog.on_config = self._config_changed
        self._config_changed(plog)

    def watch_offsets(self, fn) -> None:
        """``fn(topic, partition)`` is called, from now on, whenever a log's high watermark,
        last stable offset or log start moves (its logs now and the ones added later)."""
        self.on_offsets_moved = fn
        for plog in self._logs.values():
            plog.on_offsets_moved = fn

    def _config_changed(self, plog: PartitionLog) -> None:
        """Keep the log in the sets of the per-second housekeeping its config asks for."""
        cfg = plog.config
        for members, wanted in ((self._timed_flush, cfg.flush_ms < LONG_MAX),
                                (self._compacted, cfg.compact_enabled)):
            if wanted:
                members.add(plog)
            else:
                members.discard(plog)

    def compacted_logs(self) -> list[PartitionLog]:
        """The logs with cleanup.policy compact (the cleaner's candidates)."""
        return list(self._compacted)

    # -- log dir failure ------------------------------------------------------
    def dir_failed(self, d: str, reason: str) -> None:
        """Take log dir ``d`` offline: files and memory may disagree somewhere in it."""
        d = os.path.abspath(d)
        self.dirs_with_errors.add(d)
        if d in self.offline_dirs:
            return
        self.offline_dirs[d] = reason
        parts = [k for k, v in self._dir_of.items() if v == d]
        for k in parts:
            if k in self._logs:  # not loaded when the dir failed at start-up
                self._logs[k].offline = True
        log.error("LOG DIR OFFLINE: %s (%s); its %d partitions answer KAFKA_STORAGE_ERROR until "
                  "a restart recovers it; %d of %d log dirs remain online", d, reason, len(parts),
                  len(self.log_dirs) - len(self.offline_dirs), len(self.log_dirs))
        if self.on_dir_offline is not None:
            self.on_dir_offline(parts)

    def is_offline(self, topic: str, partition: int) -> bool:
        """True if the partition's log lives in an offline dir (or in an unknown one)."""
        d = self._dir_of.get((topic, partition), "")
        return d is None or d in self.offline_dirs

    def _guard(self, plog: PartitionLog, what: str, fn, default=0):
        """Run housekeeping ``fn`` on an online log; an unexpected OSError takes its dir offline."""
        if plog.offline:
            return default
        try:
            return fn()
        except KafkaError as e:
            if e.code != ErrorCode.KAFKA_STORAGE_ERROR:
                raise
            self.dirs_with_errors.add(os.path.dirname(plog.dir))
            return default
        except OSError as e:
            if e.errno in (errno.EMFILE, errno.ENFILE):  # the process's limit, not the disk's
                log.error("%s-%d: %s failed, out of file descriptors: %s", plog.topic,
                          plog.partition, what, e)
                self.dirs_with_errors.add(os.path.dirname(plog.dir))
                return default
            plog._dir_failed(e)
            return default

    def delete_partition(self, topic: str, partition: int) -> bool:
        """Remove the partition's log and directory; False if there was none.

        The directory is first renamed to ``<topic>-<partition>.<hex>-delete`` (so
        a crash mid-way is finished at the next start), then removed. Nothing
        in an offline dir is deleted: the partition stays known there (offline)
        and a restart that loads the dir finds it stray.
        """
        key = (topic, partition)
        if self.is_offline(topic, partition):
            return False
        plog = self._logs.pop(key, None)
        self._dir_of.pop(key, None)
        if plog is None:
            return False
        self.cleaner.forget(topic, partition)
        self._timed_flush.discard(plog)
        self._compacted.discard(plog)
        plog.delete()
        return True

    def update_config(self, topic: str, config: LogConfig) -> None:
        for plog in self.partitions(topic):
            plog.update_config(config)

    # -- housekeeping ---------------------------------------------------------
    def flush_due(self, now_ms: int) -> int:
        """fsync logs whose flush.ms has elapsed; returns how many were flushed.

        Also ticks the log cleaner (the server calls this every second on the loop)."""
        # only logs with a finite flush.ms (none by default): this runs every second
        flushed = sum(1 for plog in list(self._timed_flush) if plog.flush_due(now_ms)
                      and self._guard(plog, "flush", lambda p=plog: p.maybe_flush(now_ms), False))
        self.cleaner.tick(now_ms)
        return flushed

    def run_retention(self, now_ms: int) -> int:
        """Apply retention to every log and expire idle producers; segments deleted."""
        deleted = 0
        for plog in self:
            deleted += self._guard(plog, "retention", lambda p=plog: p.apply_retention(now_ms))
            plog.expire_producers(now_ms)
        return deleted

    def expire_producers(self, now_ms: int) -> int:
        return sum(plog.expire_producers(now_ms) for plog in self)

    def checkpoint(self) -> bool:
        """Write the three offset checkpoint files of every online log dir.

        A failed write leaves the old file (atomic rename) and takes the dir
        offline, as Kafka does. Returns False if any dir failed.
        """
        ok = True
        for d in self.log_dirs:
            if d in self.offline_dirs:
                continue
            logs = {k: lg for k, lg in self._logs.items() if self._dir_of[k] == d}
            try:
                faults.check("checkpoint")
                for name, offsets in (
                        (RECOVERY_POINT_FILE, {k: lg.recovery_point for k, lg in logs.items()}),
                        (LOG_START_FILE, {k: lg.log_start_offset for k, lg in logs.items()}),
                        (HIGH_WATERMARK_FILE, {k: lg.high_watermark for k, lg in logs.items()})):
                    path = os.path.join(d, name)
                    if self._written.get(path) != offsets:  # an idle broker writes nothing
                        self._written.pop(path, None)  # unknown until the write succeeds
                        write_offsets(path, offsets)
                        self._written[path] = offsets
            except OSError as e:
                if e.errno in (errno.EMFILE, errno.ENFILE):  # the old files stay: retry next time
                    log.error("%s: writing offset checkpoints: out of file descriptors: %s", d, e)
                    self.dirs_with_errors.add(d)
                else:
                    self.dir_failed(d, f"writing offset checkpoints: {e}")
                ok = False
        return ok

    def close(self) -> None:
        """Close every log (fsync + producer snapshots), checkpoint, mark clean shutdowns.

        The marker goes only into dirs that are online and saw no I/O error
        since start-up (see the module docstring); a failure here is logged
        and leaves that dir to be recovered at the next start.
        """
        self.cleaner.shutdown()
        # the fsyncs and atomic renames of every close, one syncfs per dir (durability.py)
        batches = {d: SyncBatch(d) for d in self.log_dirs if d not in self.offline_dirs}
        for plog in self:
            d = self._dir_of.get((plog.topic, plog.partition))
            try:
                plog.close(batches.get(d))
            except KafkaError as e:
                self.dirs_with_errors.add(d)
                log.error("%s-%d not closed cleanly: %s", plog.topic, plog.partition, e.message)
        for d, batch in batches.items():
            try:
                faults.check("flush", d)
                batch.commit()
            except OSError as e:  # as a failed fsync: the recovery points must not move there
                self.dir_failed(d, f"making the clean shutdown's writes durable: {e}")
        self.checkpoint()
        rows: dict[str, dict] = {d: {} for d in self.log_dirs}
        for key, plog in self._logs.items():
            row = log_summary.summarize(plog)
            if row is not None and self._dir_of.get(key) in rows:
                rows[self._dir_of[key]][key] = row
        for d in self.log_dirs:
            if d in self.offline_dirs or d in self.dirs_with_errors:
                log.error("not marking %s as cleanly shut down: %s; it will be recovered at the "
                          "next start", d, self.offline_dirs.get(d, "I/O errors happened in it"))
                continue
            try:  # the summary first: the marker certifies it (the same token)
                token = log_summary.new_token()
                log_summary.write(os.path.join(d, log_summary.SUMMARY_FILE), rows[d], token)
                with open(os.path.join(d, CLEAN_SHUTDOWN_FILE), "wb") as f:
                    f.write(token.encode("ascii"))
                    f.flush()
                    os.fsync(f.fileno())
                fsync_dir(d)
            except OSError as e:
                log.error("could not mark %s as cleanly shut down: %s", d, e)
        self.fd_cache.close_all()
        for d in self.log_dirs:
            files.unregister(d, self.fd_cache)

    def describe_log_dirs(self) -> list[dict]:
        """Per log dir: path, error (0), total/usable bytes, and per partition (every replica this
        broker holds, leader or follower) its size and offset lag.

        ``offset_lag`` is Kafka's ``ReplicaManager.getLogEndOffsetLag`` for a current (not future)
        replica: max(HW - LEO, 0) of the local log. The local HW never exceeds the local LEO (a
        follower's HW is the leader's clamped to its own LEO, as Kafka's ``updateHighWatermark``),
        so it is 0, as Kafka reports it; only AlterReplicaLogDirs' future replicas, which kwire
        does not have, would lag."""
        out = []
        for d in self.log_dirs:
            if d in self.offline_dirs:  # as Kafka: the error, no partitions, unknown sizes
                out.append({"path": d, "error": int(ErrorCode.KAFKA_STORAGE_ERROR),
                            "total_bytes": -1, "usable_bytes": -1, "partitions": []})
                continue
            try:
                usage = shutil.disk_usage(d)
                total, usable = usage.total, usage.free
            except OSError:
                total = usable = -1
            parts = [{"topic": t, "partition": p, "size": lg.size_bytes,
                      "offset_lag": max(lg.high_watermark - lg.log_end_offset, 0), "is_future": False}
                     for (t, p), lg in sorted(self._logs.items()) if self._dir_of[(t, p)] == d]
            out.append({"path": d, "error": 0, "total_bytes": total, "usable_bytes": usable,
                        "partitions": parts})
        return out
