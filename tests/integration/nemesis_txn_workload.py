"""The transactional workload of the partition tests: real clients whose every operation is recorded.

On one topic of two partitions (RF 3), with confluent-kafka:

* two transactional producers (``t0``, ``t1``), each transaction writing four
  unique values across both partitions (the first two flushed to the log
  100 ms before the last two are written: a reader that sees uncommitted data
  can see the transaction half-written) and committing, or aborting one time in four; now and then (one transaction in 25) a second producer with the same
  ``transactional.id`` is started while a transaction is open, which fences
  the first: its commit must fail, and the new one carries on (a producer
  fenced and restarted);
* two consume-transform-produce workers (``x0``, ``x1``) in one consumer group
  (subscribe, read_committed): each batch they read is one transaction that
  writes ``x|<value>`` for every producer value read to the *other* partition
  of the same topic and commits the consumed positions with
  ``send_offsets_to_transaction``. They read each other's outputs too (and
  leave them untransformed), so information can flow between their
  transactions both ways: a cycle of reads (G1c) is possible only if a
  transaction's writes were visible before it committed. An output value
  depends only on its input, so processing one input twice and committing
  both shows as a duplicated value (exactly-once broken). After an abort a
  worker seeks back to its group's committed offsets; after a fatal error
  (fenced) it restarts with a new consumer and producer;
* a read_committed consumer (``committed``) assigned both partitions (its
  ``isolation`` can be changed, to show the checker catching a reader that is
  not read_committed).

What is recorded, for ``kwire.nemesis.checker``: a ``Write`` just before
every transactional produce; a ``Send`` per value once its transaction's
fate is known (``ok`` with its offset when committed; ``fail`` with
``txn_aborted`` when the transaction was aborted or never asked to commit;
``info`` when a commit's outcome is unknown); a ``Poll`` per read (with the
reading transaction for the workers); a ``Reset`` at every assignment and
rewind; an ``Offsets`` for every committed offset acknowledged or read back.

``final_committed_reads``: every replica's log from its files, keeping only
records whose transaction has a COMMIT marker (and non-transactional ones):
what a read_committed reader of that replica would see.

A worker stuck in librdkafka's ``send_offsets_to_transaction`` past the stop
deadline is left behind (``stuck``), and its open transaction aborted by a new producer of
its ``transactional.id`` (``info`` if that fails):
librdkafka 2.x never checks that call's timeout (confluentinc/librdkafka#5456)
and, when the cached group coordinator left the metadata (a broker whose
ZooKeeper session expired, as Kafka's ZooKeeper mode drops it), waits for a
state change of a broker thread it has already ended (#5511), so the call can
block for minutes after the cluster healed. A worker stuck anywhere else is an
error.

What it does not do: no idempotent non-transactional writes (the queue
workload does those), no Java client.
"""

from __future__ import annotations

import linecache
import random
import struct
import sys
import threading
import time
import uuid

from kwire.nemesis.checker import FAIL, INFO, OK, Offsets, Poll, Reset, Send, Write

ABORTED, COMMITTED = "aborted", "committed"
# how long stop() waits for a consume-transform-produce worker (a transaction's calls take at
# most 30 s each when the client keeps its timeouts; a healed cluster answers in seconds) before it
# leaves the worker behind
WORKER_STOP_S = 45.0


class TxnWorkload:
    def __init__(self, bootstrap: str, topic: str, seed: int = 1, isolation: str = "read_committed") -> None:
        import confluent_kafka

        self.ck = confluent_kafka
        self.bootstrap, self.topic = bootstrap, topic
        self.group = f"ctp-{uuid.uuid4().hex[:6]}"
        self.isolation = isolation  # the observer's (another level shows the checker is not blind)
        self.history: list = []
        self.rng = random.Random(seed)
        self.commits = self.aborts = self.unknown = self.fenced = 0
        self.ctp_commits = self.ctp_restarts = 0
        self.errors: list[str] = []
        # what the workers' consumers reported besides records -- (time, worker, partition, error)
        # -- and every committed-offsets read (time, worker, "committed", [(partition, offset,
        # error)]): printed with a failed check (a worker once re-read a partition from its start
        # right after a rebalance, cause not found; docs/partitions.md)
        self.consumer_errors: list = []
        self.stuck: list[str] = []  # workers left in send_offsets_to_transaction at stop (librdkafka#5456)
        self._open: dict[str, tuple] = {}  # worker -> its transaction's (txn, values, offsets) until settled
        self._abandoned: set = set()  # threads whose later records are dropped
        self.commit_times: list[float] = []  # when each producer transaction's commit was acknowledged
        self._lock = threading.Lock()
        self._stop = threading.Event()  # the producers
        self._stop_ctp = threading.Event()
        self._stop_reader = threading.Event()
        self._producers = [threading.Thread(target=self._produce, args=(f"t{i}",), daemon=True) for i in (0, 1)]
        self._workers = [threading.Thread(target=self._transform, args=(f"x{i}",), daemon=True) for i in (0, 1)]
        self._reader = threading.Thread(target=self._read, daemon=True)

    def record(self, op) -> None:
        with self._lock:
            if threading.current_thread() not in self._abandoned:
                self.history.append(op)

    def start(self):
        for t in self._producers + self._workers + [self._reader]:
            t.start()
        return self

    # -- transactions ----------------------------------------------------------------------
    def _producer(self, txn_id: str):
        p = self.ck.Producer({"bootstrap.servers": self.bootstrap, "transactional.id": txn_id,
                              "transaction.timeout.ms": 60000, "message.timeout.ms": 55000,
                              "linger.ms": 5, "topic.metadata.refresh.interval.ms": 1000,
                              "retry.backoff.ms": 100, "retry.backoff.max.ms": 500})
        deadline = time.monotonic() + 180
        while True:
            try:
                p.init_transactions(30)
                return p
            except self.ck.KafkaException as e:
                if not e.args[0].retriable() or time.monotonic() > deadline:
                    raise

    def _finish(self, p, commit: bool) -> tuple[str, bool]:
        """Commit (or abort) the open transaction: (COMMITTED | ABORTED | INFO, the producer is dead).

        A transaction never asked to commit cannot commit: it counts as aborted even when the
        abort itself fails (the coordinator aborts it at its timeout, or the next producer does)."""
        KafkaException = self.ck.KafkaException
        asked_commit = False
        try:
            for _attempt in range(6):
                try:
                    if commit:
                        asked_commit = True
                        p.commit_transaction(30)
                        return COMMITTED, False
                    p.abort_transaction(30)
                    return ABORTED, False
                except KafkaException as e:
                    err = e.args[0]
                    if err.txn_requires_abort():
                        commit = False
                        continue
                    if not err.retriable():
                        raise
            return (INFO if asked_commit else ABORTED), True
        except KafkaException:
            return (INFO if asked_commit else ABORTED), True

    def _settle(self, name: str, txn: str, outcome: str, values: list, offsets: dict) -> None:
        for part, v in values:
            if outcome == COMMITTED:
                where = offsets.get(v)
                self.record(Send(name, part, v, OK, where[1] if where else None, txn=txn))
            elif outcome == ABORTED:
                self.record(Send(name, part, v, FAIL, txn_aborted=True, txn=txn))
            else:
                self.record(Send(name, part, v, INFO, txn=txn))

    def _write(self, p, name: str, txn: str, partition: int, value: bytes, offsets: dict) -> None:
        def report(err, msg) -> None:
            if err is None:
                offsets[msg.value()] = (msg.partition(), msg.offset())

        self.record(Write(name, txn, partition, value))
        while True:
            try:
                p.produce(self.topic, value, partition=partition, on_delivery=report)
                return
            except BufferError:
                p.poll(0.1)

    def _produce(self, name: str) -> None:
        txn_id = f"nemesis-{name}-{uuid.uuid4().hex[:6]}"
        p = self._producer(txn_id)
        n = k = 0
        while not self._stop.is_set():
            k += 1
            txn = f"{name}:{k}"
            values: list = []
            offsets: dict = {}
            dead = False
            try:
                p.begin_transaction()
                for i in range(4):
                    v = b"%s-%d" % (name.encode(), n)
                    n += 1
                    values.append((i % 2, v))
                    self._write(p, name, txn, i % 2, v, offsets)
                    if i == 1:  # the first half in the log for a moment before the second is written
                        p.flush(30)
                        self._stop.wait(0.1)
                roll = self.rng.random()
                if roll < 0.04:  # a new producer with our id fences us mid-transaction
                    p.flush(10)
                    p = self._fence(txn_id, name, txn, p, values, offsets)
                    continue
                outcome, dead = self._finish(p, commit=roll >= 0.25)
            except self.ck.KafkaException:
                outcome, dead = self._finish(p, commit=False)
            self._settle(name, txn, outcome, values, offsets)
            if outcome == COMMITTED:
                self.commit_times.append(time.monotonic())
            self.commits += outcome == COMMITTED
            self.aborts += outcome == ABORTED
            self.unknown += outcome == INFO
            if dead:
                p = self._restart(txn_id, p)

    def _fence(self, txn_id: str, name: str, txn: str, old, values: list, offsets: dict):
        """A second producer with ``txn_id`` (init_transactions aborts the open transaction and
        fences ``old``); ``old``'s commit must then fail. Returns the new producer."""
        new = self._producer(txn_id)
        self.fenced += 1
        outcome, _dead = self._finish(old, commit=True)
        # init_transactions aborted it before the commit was asked for: its values are aborted,
        # and a fenced producer's commit succeeding is an error of its own
        if outcome == COMMITTED:
            self.errors.append(f"{txn}: committed by a producer fenced before its commit")
        self._settle(name, txn, COMMITTED if outcome == COMMITTED else ABORTED, values, offsets)
        self.commits += outcome == COMMITTED
        self.aborts += outcome != COMMITTED
        return new

    def _restart(self, txn_id: str, old):
        try:
            old.flush(1)
        except Exception:
            pass
        while not self._stop.is_set():
            try:
                return self._producer(txn_id)
            except self.ck.KafkaException:
                time.sleep(0.5)
        return old

    # -- consume-transform-produce ---------------------------------------------------------
    def _consumer(self, name: str, pending: list, changed: threading.Event):
        c = self.ck.Consumer({"bootstrap.servers": self.bootstrap, "group.id": self.group,
                              "enable.auto.commit": False, "isolation.level": "read_committed",
                              "auto.offset.reset": "earliest", "topic.metadata.refresh.interval.ms": 1000,
                              "session.timeout.ms": 10000, "heartbeat.interval.ms": 1000})

        def assigned(_c, partitions) -> None:
            self.record(Reset(name))
            changed.set()
            pending.append([tp.partition for tp in partitions])

        def revoked(_c, _partitions) -> None:
            self.record(Reset(name))
            changed.set()

        c.subscribe([self.topic], on_assign=assigned, on_revoke=revoked)
        return c

    def _read_committed_offsets(self, c, name: str, partitions: list[int]) -> bool:
        """The group's committed offsets of ``partitions``, recorded; seeks there (the consumer
        goes on from exactly what was recorded). False on an error: the consumer must restart."""
        ck = self.ck
        try:
            got = c.committed([ck.TopicPartition(self.topic, p) for p in partitions], 30)
        except ck.KafkaException:
            return False
        self.consumer_errors.append((time.strftime("%H:%M:%S"), name, "committed",
                                     [(tp.partition, tp.offset, str(tp.error)) for tp in got]))
        for tp in got:
            if tp.error is not None:
                return False
            if tp.offset >= 0:
                self.record(Offsets(self.group, tp.partition, tp.offset))
        self.record(Reset(name))
        for tp in got:
            try:
                where = tp.offset if tp.offset >= 0 else ck.OFFSET_BEGINNING
                c.seek(ck.TopicPartition(self.topic, tp.partition, where))
            except ck.KafkaException:
                return False
        return True

    def _transform(self, name: str) -> None:
        ck = self.ck
        txn_id = f"nemesis-ctp-{name}-{uuid.uuid4().hex[:6]}"
        pending: list = []
        changed = threading.Event()  # an assignment or revocation during the last consume
        c, p = self._consumer(name, pending, changed), self._producer(txn_id)
        k = 0

        def restart(c, dead: bool):
            self.ctp_restarts += 1
            self._close(c)
            pending.clear()
            return self._consumer(name, pending, changed), (self._restart(txn_id, p) if dead else p)

        try:
            while not self._stop_ctp.is_set():
                got = c.consume(50, 0.2)
                msgs = [m for m in got if m.error() is None]
                for m in got:
                    if m.error() is not None:
                        self.consumer_errors.append((time.strftime("%H:%M:%S"), name, m.partition(), str(m.error())))
                if changed.is_set():  # what was read around a rebalance is read again from the commits
                    changed.clear()
                    msgs = []
                    while pending:
                        if not self._read_committed_offsets(c, name, pending.pop(0)):
                            c, p = restart(c, False)
                if not msgs:
                    continue
                k += 1
                txn = f"{name}:{k}"
                for part in (0, 1):
                    recs = tuple((m.offset(), m.value()) for m in msgs if m.partition() == part)
                    if recs:
                        self.record(Poll(name, part, recs, txn=txn))
                values: list = []
                offsets: dict = {}
                positions = {}
                for m in msgs:
                    positions[m.partition()] = m.offset() + 1
                with self._lock:
                    self._open[name] = (txn, values, offsets, txn_id)
                try:
                    p.begin_transaction()
                    for m in msgs:
                        if not m.value().startswith(b"x|"):
                            out = (1 - m.partition(), b"x|" + m.value())
                            values.append(out)
                            self._write(p, name, txn, out[0], out[1], offsets)
                    p.send_offsets_to_transaction(
                        [ck.TopicPartition(self.topic, part, o) for part, o in positions.items()],
                        c.consumer_group_metadata(), 30)
                    outcome, dead = self._finish(p, commit=True)
                except ck.KafkaException:
                    outcome, dead = self._finish(p, commit=False)
                with self._lock:
                    self._open.pop(name, None)
                self._settle(name, txn, outcome, values, offsets)
                if outcome == COMMITTED:
                    self.ctp_commits += 1
                    for part, o in positions.items():
                        self.record(Offsets(self.group, part, o))
                    continue
                if dead or not self._read_committed_offsets(c, name, sorted(positions)):
                    c, p = restart(c, dead)
        finally:
            self._close(c)

    @staticmethod
    def _close(c) -> None:
        try:
            c.close()
        except Exception:
            pass

    # -- the read_committed observer -------------------------------------------------------
    def _read(self) -> None:
        ck = self.ck
        c = ck.Consumer({"bootstrap.servers": self.bootstrap, "group.id": f"obs-{uuid.uuid4().hex[:6]}",
                         "enable.auto.commit": False, "isolation.level": self.isolation,
                         "topic.metadata.refresh.interval.ms": 1000})
        c.assign([ck.TopicPartition(self.topic, p, ck.OFFSET_BEGINNING) for p in (0, 1)])
        self.record(Reset("committed"))
        try:
            while not self._stop_reader.is_set():
                # a short wait: a read is recorded soon after it is made (the time order of reads
                # and writes is what intermediate reads are judged on)
                msgs = [m for m in c.consume(100, 0.05) if m.error() is None]
                for part in (0, 1):
                    recs = tuple((m.offset(), m.value()) for m in msgs if m.partition() == part)
                    if recs:
                        self.record(Poll("committed", part, recs))
        finally:
            c.close()

    # -- lifecycle -------------------------------------------------------------------------
    def stop(self, timeout: float = 60.0) -> None:
        """Stop the producers, then the workers, then let the observer read up to the last
        committed offset of each partition (or time out) and stop it."""
        self._stop.set()
        for t in self._producers:
            t.join(200)
        self._stop_ctp.set()
        until = time.monotonic() + WORKER_STOP_S
        for t, name in zip(self._workers, ("x0", "x1")):
            t.join(max(0.0, until - time.monotonic()))
            if t.is_alive():
                self._leave_behind(t, name)
        with self._lock:
            last = {}
            for op in self.history:
                if isinstance(op, Send) and op.outcome == OK and op.offset is not None:
                    last[op.partition] = max(last.get(op.partition, -1), op.offset)
        deadline = time.monotonic() + timeout

        def caught_up() -> bool:
            with self._lock:
                seen = {}
                for op in self.history:
                    if isinstance(op, Poll) and op.process == "committed":
                        seen[op.partition] = max(seen.get(op.partition, -1), op.records[-1][0])
            return all(seen.get(part, -1) >= o for part, o in last.items())

        while time.monotonic() < deadline and not caught_up():
            time.sleep(0.2)
        self._stop_reader.set()
        self._reader.join(30)

    def _leave_behind(self, t: threading.Thread, name: str) -> None:
        """A worker still running at the stop deadline: if it waits in send_offsets_to_transaction
        (librdkafka#5456/#5511, see the module docstring) its records end here and its open
        transaction counts as of unknown outcome; anywhere else it is an error."""
        frame = sys._current_frames().get(t.ident)
        line = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip() if frame else ""
        with self._lock:
            self._abandoned.add(t)
            open_txn = self._open.pop(name, None)
        if "send_offsets_to_transaction" not in line:
            self.errors.append(f"worker {name} did not stop in {WORKER_STOP_S:.0f} s; it is at: {line!r}")
            return
        self.stuck.append(name)
        if open_txn is not None:
            # A new producer with the worker's transactional.id fences it and has the coordinator
            # abort its open transaction now (InitProducerId), as a restarted application would:
            # commit was never asked, so it ends aborted, and read_committed readers and the
            # group's offsets stop waiting for its timeout (60 s).
            txn, values, offsets, txn_id = open_txn
            try:
                self._producer(txn_id)
                outcome = ABORTED
            except self.ck.KafkaException:
                outcome = INFO
            self._settle(name, txn, outcome, values, offsets)

    def read_group_offsets(self) -> None:
        """The group's committed offsets once everything stopped, recorded as reads."""
        ck = self.ck
        c = ck.Consumer({"bootstrap.servers": self.bootstrap, "group.id": self.group,
                         "enable.auto.commit": False})
        # a consume-transform-produce transaction left open when its worker stopped keeps the
        # group's offsets unstable (UNSTABLE_OFFSET_COMMIT: librdkafka asks for stable offsets and
        # retries) until the coordinator aborts it at its timeout (transaction.timeout.ms 60 s, checked
        # every 10 s): wait for that, not a fixed time, and no longer (the test's own bound is 180 s)
        deadline = time.monotonic() + 75
        try:
            while True:
                try:
                    got = c.committed([ck.TopicPartition(self.topic, p) for p in (0, 1)], 30)
                    break
                except ck.KafkaException:
                    if time.monotonic() > deadline:
                        raise
            for tp in got:
                if tp.error is None and tp.offset >= 0:
                    self.record(Offsets(self.group, tp.partition, tp.offset))
        finally:
            c.close()

    def figures(self) -> dict:
        return {"commits": self.commits, "aborts": self.aborts, "unknown": self.unknown, "fenced": self.fenced,
                "ctp_commits": self.ctp_commits, "ctp_restarts": self.ctp_restarts,
                "ctp_stuck_in_client": len(self.stuck)}


_MARKER = struct.Struct(">hh")  # a control record's key: version, type (0 abort, 1 commit)


def final_committed_reads(cluster, topic: str, partitions=(0, 1)) -> dict:
    """{broker id: {partition: [(offset, value), ...]}}: every replica's committed records, from
    its files (a transaction's records kept once its COMMIT marker is found)."""
    from clients import decoded_batches

    out = {}
    for b in cluster.brokers:
        parts: dict[int, list] = {p: [] for p in partitions}
        open_txns: dict[tuple[int, int], list] = {}
        for part, batch in decoded_batches(b.data_dir, topic):
            h = batch.header
            if part not in parts:
                continue
            if h.attributes & 0x20:  # a control batch: COMMIT or ABORT of its producer's transaction
                kind = _MARKER.unpack_from(batch.records[0].key)[1] if batch.records else 0
                held = open_txns.pop((part, h.producer_id), [])
                if kind == 1:
                    parts[part].extend(held)
                continue
            recs = [(r.offset, r.value) for r in batch.records]
            if h.attributes & 0x10:
                open_txns.setdefault((part, h.producer_id), []).extend(recs)
            else:
                parts[part].extend(recs)
        out[str(b.node_id)] = {p: sorted(v) for p, v in parts.items()}
    return out
