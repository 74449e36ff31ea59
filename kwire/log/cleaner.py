"""The log cleaner: compaction of ``cleanup.policy=compact`` logs (Kafka's LogCleaner).

One ``LogCleaner`` per ``LogManager`` (per broker), for every compacted log it
holds, leader or follower. It is driven by ``tick(now_ms)``, which the log
manager calls from ``flush_due`` (once a second, on the event loop); a
tick never blocks:

* if the worker finished, its result is applied here, on the loop: each
  cleaned group is swapped in (``cleaner_swap.swap_in``) and the log's
  cleaner checkpoint moves to the end of the cleaned section
  (``cleaner-offset-checkpoint`` in its log dir, Kafka's file and format);
* otherwise, at most every ``backoff_ms``, the dirtiest log is chosen and a
  ``CleanPlan`` (plain data: paths, sizes, offsets) is handed to the worker,
  which maps and rewrites (``cleaner_rewrite.run``) with its own
  descriptors, touching nothing the loop uses, and returns a small
  ``CleanResult``.

Which log (Kafka's ``LogCleanerManager.grabFilthiestCompactedLog``): for
each online compacted log, the *dirty* section runs from its checkpoint (or
the log start) to the *first uncleanable offset* = the smallest of the
active segment's base, the last stable offset (the high watermark, or the
first offset of the oldest open transaction), and the base of the first dirty
segment whose largest timestamp is newer than ``now - min.compaction.lag.ms``,
rounded down to a segment boundary (only whole closed segments are
cleaned). Its cleanable ratio is dirty bytes / (clean + dirty bytes); the
log qualifies when the ratio is at least ``min.cleanable.dirty.ratio``, when
its oldest dirty segment began more than ``max.compaction.lag.ms`` ago, or
when a tombstone it keeps reached its delete horizon (KIP-534, see
``cleaner_rewrite``: such a pass may have no dirty section and only drops
expired tombstones). Overdue logs first, then the highest ratio.

The worker (``executor``): ``"process"`` (default) is one child process
(a ``forkserver`` ``ProcessPoolExecutor``, started at the first pass and
stopped by ``shutdown``; it exits by itself when the broker dies, even
killed -9, leaving at most ``.cleaned`` files that start-up removes);
``"thread"`` is one thread. The rewrite is mostly a Python record scan that
holds the GIL, so in a thread it delays the event loop: measured on the shared 2-core test machine with 300 MB of
1 KiB records (10 % unique keys), a 1 ms loop timer fired a median
0.2-1.0 ms and p99 1.6-29 ms late while a thread cleaned, against 0.1 ms
(as when idle) and p99 0.3-10 ms while a process did (the p99s follow
the machine's load), at the same cleaning throughput (280-340 MB/s). Plan and
result are a few KB each way, so the process costs nothing per pass but
its start (once) and its memory. If the process pool cannot start or its
process dies, the cleaner falls back to a thread. As with any
``multiprocessing`` use, a program embedding the broker must have an
import-safe main module (``if __name__ == "__main__":``; ``python -m kwire``
and console scripts are), or pass ``executor="thread"``. Faults armed in-process with
``faults.arm`` do not reach the child; ``KWIRE_FAULTS_FILE`` does.

Errors: an exception in the worker (an OSError such as the ``clean`` fault
site, a corrupt batch) leaves the log as it was (the worker removed its
files); the log is marked uncleanable for ``uncleanable_retry_ms`` (Kafka
marks it uncleanable until restart; kwire retries later) and an OSError
counts as an I/O error of its dir (no clean-shutdown marker). A failed swap
is undone by ``swap_in``; a failed undo takes the dir offline.

Cost on the loop: a tick with no job runs one Python loop over the compacted
logs (the log manager keeps their set as configs change; the segment sizes of
each) at most every
``backoff_ms`` (default 1 s, where
Kafka's ``log.cleaner.backoff.ms`` is 15 s: kwire's tick is cheap, and the
lower value lets tests and small deployments see compaction quickly); the
swap of a group is a handful of renames and one index load.

Transactions: the plan carries the log's aborted-transaction index entries
over the cleaned section and each tracked producer's last data offset (or,
when it has none, its epoch), so that the worker removes aborted records and,
in time, markers as Kafka does (``cleaner_rewrite``, ``cleaner_txn``); the
swap replaces the cleaned segments' ``.txnindex`` files and reloads the
in-memory index.

Not here: throttling (``log.cleaner.io.max.bytes.per.second``), several
workers, persisting pending delete horizons across restarts (the next
ordinary pass finds them again).
"""

from __future__ import annotations

import concurrent.futures  # its process/thread pools are imported when the first pass starts
import logging
import os

from kwire import clock
from kwire.clock import sleep

from .checkpoint import CheckpointError, read_offsets, write_offsets
from .cleaner_rewrite import CleanPlan, CleanResult, SegmentInfo, cleaned_paths, remove_files, run
from .cleaner_swap import swap_in
from .segment import LogDirFailure

log = logging.getLogger("kwire.log.cleaner")

CHECKPOINT_FILE = "cleaner-offset-checkpoint"
DEFAULT_BACKOFF_MS = 1000
DEFAULT_RETRY_MS = 30000
LONG_MAX = (1 << 63) - 1
# keys per offset map (~100 bytes each in a Python dict: ~100 MB, Kafka's dedupe buffer is 128 MiB);
# a dirty section with more keys is cleaned in several passes
DEFAULT_MAP_ENTRIES = 1_000_000


def _watch_parent(pid: int) -> None:
    """In the worker process: exit when the broker (``pid``) is gone, even killed -9 (a pool
    worker holds both ends of its own task pipe, so it would never see EOF)."""
    import threading

    def watch() -> None:
        while True:
            sleep(0.5)  # not time.sleep: it fails (EINVAL) under libfaketime
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # the pid was reused by another user's process
                os._exit(1)

    threading.Thread(target=watch, name="kwire-cleaner-parent-watch", daemon=True).start()


def cleaned_paths_of(plan: CleanPlan):
    """The ``.cleaned`` / ``.cleanend`` paths a pass over ``plan`` may create."""
    return [cleaned_paths(plan.dir, info.base) for info in plan.segments]


class Cleanable:
    """The cleanable state of one log at one moment."""

    __slots__ = ("first_dirty", "end", "clean_bytes", "dirty_bytes", "ratio", "overdue")

    def __init__(self, first_dirty, end, clean_bytes, dirty_bytes, overdue) -> None:
        self.first_dirty = first_dirty
        self.end = end
        self.clean_bytes = clean_bytes
        self.dirty_bytes = dirty_bytes
        total = clean_bytes + dirty_bytes
        self.ratio = dirty_bytes / total if total else 0.0
        self.overdue = overdue


def cleanable(plog, checkpoint: int | None, now_ms: int) -> Cleanable:
    """The dirty section of ``plog`` (see the module docstring)."""
    cfg = plog.config
    segs = plog.segments
    start = plog.log_start_offset
    first_dirty = checkpoint if checkpoint is not None and start <= checkpoint <= \
        plog.log_end_offset else start
    bound = min(segs[-1].base_offset, plog.last_stable_offset)  # Kafka: first unstable offset
    lag = cfg.min_compaction_lag_ms
    clean = dirty = 0
    end = segs[0].base_offset
    overdue = False
    first_dirty_seen = False
    for i, seg in enumerate(segs[:-1]):
        seg_end = segs[i + 1].base_offset
        if seg_end > bound:
            break
        if seg_end <= first_dirty:
            clean += seg.size
            end = seg_end
            continue
        if lag > 0 and seg.largest_timestamp() > now_ms - lag:
            break
        if not first_dirty_seen:
            first_dirty_seen = True
            began = seg.first_batch_timestamp
            if began is None or began < 0:
                began = seg.largest_timestamp()
            overdue = now_ms - began > cfg.max_compaction_lag_ms
        dirty += seg.size
        end = seg_end
    return Cleanable(first_dirty, end, clean, dirty, overdue and dirty > 0)


class LogCleaner:
    def __init__(self, manager, *, enabled: bool = True, backoff_ms: int = DEFAULT_BACKOFF_MS,
                 uncleanable_retry_ms: int = DEFAULT_RETRY_MS,
                 max_map_entries: int = DEFAULT_MAP_ENTRIES, executor: str = "process") -> None:
        if executor not in ("process", "thread"):
            raise ValueError(f"executor must be 'process' or 'thread', not {executor!r}")
        self.executor_kind = executor
        self.manager = manager
        self.enabled = enabled
        self.backoff_ms = backoff_ms
        self.uncleanable_retry_ms = uncleanable_retry_ms
        self.max_map_entries = max_map_entries
        self.checkpoints: dict[tuple[str, int], int] = {}
        self.uncleanable: dict[tuple[str, int], int] = {}  # key -> retry at (ms)
        # key -> earliest delete horizon of a tombstone kept by the last pass (KIP-534); not
        # persisted: after a restart the next ordinary pass finds the horizons again
        self.horizons: dict[tuple[str, int], int] = {}
        self._executor: concurrent.futures.Executor | None = None
        self._job = None  # (key, plog, plan, future)
        self._next_check = 0
        self.stats = {"passes": 0, "bytes_cleaned": 0, "bytes_written": 0, "seconds": 0.0,
                      "failures": 0, "aborted_removed": 0, "markers_removed": 0}
        self.last_result: CleanResult | None = None
        for d in manager.log_dirs:
            if d not in manager.offline_dirs:
                self._load_checkpoint(d)

    # -- checkpoints ------------------------------------------------------------------------
    def _load_checkpoint(self, d: str) -> None:
        try:
            self.checkpoints.update(read_offsets(os.path.join(d, CHECKPOINT_FILE)))
        except (CheckpointError, OSError) as e:
            log.warning("ignoring %s: %s", os.path.join(d, CHECKPOINT_FILE), e)

    def _write_checkpoint(self, d: str) -> None:
        m = self.manager
        entries = {k: v for k, v in self.checkpoints.items()
                   if m.log_dir_of(*k) == d and m.get(*k) is not None}
        write_offsets(os.path.join(d, CHECKPOINT_FILE), entries)

    # -- status -----------------------------------------------------------------------------
    def cleanable(self, plog, now_ms: int | None = None) -> Cleanable:
        """The cleanable ratio and dirty section of ``plog`` now (``kwire topics describe``)."""
        if now_ms is None:
            now_ms = clock.now_ms()
        return cleanable(plog, self.checkpoints.get((plog.topic, plog.partition)), now_ms)

    @property
    def busy(self) -> bool:
        return self._job is not None

    # -- driving ----------------------------------------------------------------------------
    def tick(self, now_ms: int) -> bool:
        """Apply a finished pass, or start one if a log needs it. True if something was swapped."""
        if not self.enabled:
            return False
        swapped = False
        if self._job is not None:
            if not self._job[3].done():
                return False
            swapped = self._finish(now_ms)
        if now_ms >= self._next_check:
            self._next_check = now_ms + self.backoff_ms
            self._start(now_ms)
        return swapped

    def _candidates(self, now_ms: int):
        best = None
        for plog in self.manager.compacted_logs():  # not every log: most are not compacted
            cfg = plog.config
            key = (plog.topic, plog.partition)
            if not cfg.compact_enabled or plog.offline or plog.closed:
                continue
            if self.uncleanable.get(key, 0) > now_ms:
                continue
            c = cleanable(plog, self.checkpoints.get(key), now_ms)
            if self.horizons.get(key, LONG_MAX) <= now_ms:
                c.overdue = True  # tombstones to drop
            elif c.dirty_bytes <= 0 or (c.ratio < cfg.min_cleanable_dirty_ratio
                                        and not c.overdue):
                continue
            score = (c.overdue, c.ratio)
            if best is None or score > best[0]:
                best = (score, plog, c)
        return best

    def plan(self, plog, c: Cleanable, now_ms: int) -> CleanPlan:
        cfg = plog.config
        segs = plog.segments
        infos = []
        for i, seg in enumerate(segs[:-1]):
            if segs[i + 1].base_offset > c.end:
                break
            try:
                mtime = int(os.stat(seg.log_path).st_mtime * 1000)
            except FileNotFoundError:
                mtime = seg.created_ms
            infos.append(SegmentInfo(seg.base_offset, seg.log_path, seg.size, seg.next_offset, mtime))
        # Kafka's lastRecordsOfActiveProducers: each producer's last data offset, or its epoch
        # when its last record is a marker (a new epoch cleared its batches)
        producers = {}
        epochs = {}
        for pid, e in plog.producer_state.producers.items():
            if e.batches:
                producers[pid] = e.batches[-1].last_offset
            else:
                epochs[pid] = e.epoch
        # the aborted transactions the pass may meet (Kafka's collectAbortedTransactions):
        # marker at or after the first segment, first offset below the end
        start = infos[0].base if infos else c.end
        aborted = [tuple(t) for t in plog.txn_index.aborted_between(start, c.end)]
        return CleanPlan(plog.dir, infos, c.first_dirty, c.end, now_ms, cfg.delete_retention_ms,
                         producers,
                         self.max_map_entries, cfg.segment_bytes, cfg.index_interval_bytes,
                         cfg.max_index_entries, cfg.max_time_index_entries, aborted, epochs)

    def _start(self, now_ms: int) -> None:
        best = self._candidates(now_ms)
        if best is None:
            return
        _score, plog, c = best
        plan = self.plan(plog, c, now_ms)
        if self._executor is None:
            self._executor = self._new_executor()
        log.info("cleaning %s-%d: dirty offsets %d..%d, cleanable ratio %.2f%s", plog.topic,
                 plog.partition, c.first_dirty, c.end, c.ratio,
                 " (max.compaction.lag.ms passed)" if c.overdue else "")
        try:
            fut = self._executor.submit(run, plan)
        except (RuntimeError, OSError) as e:  # a broken pool (the child was killed): a thread
            log.warning("log cleaner worker unusable (%s); cleaning in a thread from now on", e)
            self._executor.shutdown(wait=False)
            self.executor_kind = "thread"
            self._executor = self._new_executor()
            fut = self._executor.submit(run, plan)
        self._job = ((plog.topic, plog.partition), plog, plan, fut)

    def _new_executor(self) -> concurrent.futures.Executor:
        if self.executor_kind == "process":
            try:
                import multiprocessing

                return concurrent.futures.ProcessPoolExecutor(
                    1, multiprocessing.get_context("forkserver"), initializer=_watch_parent,
                    initargs=(os.getpid(),))
            except (OSError, ValueError, ImportError) as e:
                log.warning("cannot start the log cleaner process (%s); using a thread", e)
                self.executor_kind = "thread"
        return concurrent.futures.ThreadPoolExecutor(1, "kwire-log-cleaner")

    def _finish(self, now_ms: int) -> bool:
        key, plog, plan, fut = self._job
        self._job = None
        try:
            result = fut.result()
        except concurrent.futures.BrokenExecutor as e:  # BrokenProcessPool (a thread pool with no
            # initializer never breaks); named so, concurrent.futures.process is not imported at start
            log.warning("the log cleaner process died (%s); cleaning in a thread from now on", e)
            self._executor.shutdown(wait=False)
            self._executor = None
            self.executor_kind = "thread"
            for g in cleaned_paths_of(plan):  # it may have left files of the group it was on
                remove_files(g)
            return False
        except Exception as e:
            self._failed(key, plog, plan, e, now_ms)
            return False
        return self.apply(key, plog, plan, result, now_ms)

    def _failed(self, key, plog, plan, e: BaseException, now_ms: int) -> None:
        d = os.path.dirname(plog.dir)
        current = self.manager.get(*key) is plog and not plog.closed
        if not current or isinstance(e, FileNotFoundError):
            return  # the log or a segment went away meanwhile: nothing to report
        self.stats["failures"] += 1
        self.uncleanable[key] = now_ms + self.uncleanable_retry_ms
        if isinstance(e, OSError):
            self.manager.dirs_with_errors.add(d)
        log.warning("cleaning %s-%d failed; the log is unchanged and is marked uncleanable for "
                    "%d ms: %s", plog.topic, plog.partition, self.uncleanable_retry_ms, e)

    def apply(self, key, plog, plan: CleanPlan, result: CleanResult, now_ms: int) -> bool:
        """Swap the cleaned groups in (on the log's thread); move the checkpoint."""
        d = os.path.dirname(plog.dir)
        if self.manager.get(*key) is not plog or plog.closed or plog.offline:
            for g in result.groups:
                remove_files(cleaned_paths(plan.dir, g.base))
            return False
        swapped = 0
        cleaned_bytes = 0
        for i, g in enumerate(result.groups):
            old_size = sum(s.size for s in plog.segments if s.base_offset in g.old_bases)
            try:
                ok = swap_in(plog, g, now_ms)
            except LogDirFailure as e:
                for later in result.groups[i + 1:]:
                    remove_files(cleaned_paths(plan.dir, later.base))
                plog._dir_failed(e)
                return swapped > 0
            except OSError as e:
                for later in result.groups[i + 1:]:
                    remove_files(cleaned_paths(plan.dir, later.base))
                self._failed(key, plog, plan, e, now_ms)
                return swapped > 0
            if not ok:  # the log changed under the pass: drop the rest, retry next time
                for later in result.groups[i + 1:]:
                    remove_files(cleaned_paths(plan.dir, later.base))
                log.info("%s-%d changed while being cleaned; cleaning again later", plog.topic,
                         plog.partition)
                return swapped > 0
            swapped += 1
            cleaned_bytes += old_size
        self.checkpoints[key] = result.end
        self.uncleanable.pop(key, None)
        if result.next_horizon < LONG_MAX:
            self.horizons[key] = result.next_horizon
        else:
            self.horizons.pop(key, None)
        try:
            self._write_checkpoint(d)
        except OSError as e:
            self.manager.dir_failed(d, f"writing {CHECKPOINT_FILE}: {e}")
        st = self.stats
        st["passes"] += 1
        st["bytes_cleaned"] += cleaned_bytes
        st["bytes_written"] += result.bytes_written
        st["seconds"] += result.elapsed_s
        st["aborted_removed"] += result.aborted_removed
        st["markers_removed"] += result.markers_removed
        self.last_result = result
        log.info("cleaned %s-%d up to offset %d: %d segments into %d, %.1f MB -> %.1f MB, %d of %d "
                 "records kept, %.2f s (%.1f MB/s)", plog.topic, plog.partition, result.end,
                 sum(len(g.old_bases) for g in result.groups), len(result.groups),
                 cleaned_bytes / 1e6, result.bytes_written / 1e6, result.records_kept,
                 result.records_read, result.elapsed_s,
                 cleaned_bytes / 1e6 / result.elapsed_s if result.elapsed_s else 0.0)
        return True

    def clean_now(self, plog, now_ms: int | None = None, *, force: bool = False) -> bool:
        """One whole pass over ``plog`` in the calling thread (tests, tools); True if cleaned.

        Without ``force`` the log must qualify as ``tick`` would choose it.
        Raises what the worker raised (the log is then unchanged).
        """
        if now_ms is None:
            now_ms = clock.now_ms()
        key = (plog.topic, plog.partition)
        c = cleanable(plog, self.checkpoints.get(key), now_ms)
        expired = self.horizons.get(key, LONG_MAX) <= now_ms
        if not expired and (c.dirty_bytes <= 0 or (
                not force and c.ratio < plog.config.min_cleanable_dirty_ratio and not c.overdue)):
            return False
        plan = self.plan(plog, c, now_ms)
        try:
            result = run(plan)
        except Exception as e:
            self._failed(key, plog, plan, e, now_ms)
            raise
        return self.apply(key, plog, plan, result, now_ms)

    def forget(self, topic: str, partition: int) -> None:
        """The partition's log was deleted: drop its checkpoint entry."""
        self.checkpoints.pop((topic, partition), None)
        self.uncleanable.pop((topic, partition), None)
        self.horizons.pop((topic, partition), None)

    def shutdown(self, now_ms: int | None = None) -> None:
        """Wait for a running pass (its files are removed, not swapped) and stop the thread."""
        job, self._job = self._job, None
        if job is not None:
            try:
                result = job[3].result()
                for g in result.groups:
                    remove_files(cleaned_paths(job[2].dir, g.base))
            except Exception:
                pass  # the worker removed its own files
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
