"""A failover verifier in the style of Kafka's replication system tests and Jepsen's queue checker.

* ``Ledger`` — what producers were told: every acknowledged record (partition,
  offset, value, monotonic time of the acknowledgement), in acknowledgement
  order, and every value ever sent (so a record that reached the log without an
  acknowledgement is recognised, and not counted).
* ``ConfluentWriter`` (librdkafka, ``enable.idempotence=True``) and
  ``KafkaPythonWriter`` (kafka-python, ``enable_idempotence=True``) — threads
  producing unique values ``<writer>.<generation>.<seq>`` at acks=all at a
  steady rate, each record to an explicit partition (round robin), recording
  each acknowledgement in the ledger from the delivery callback. A writer whose
  producer reports a fatal error records it and carries on with a new producer
  (a new generation, hence a new producer id).
* ``read_partitions`` — reads partitions from the beginning (confluent-kafka
  consumer, no group, ``isolation.level=read_committed``) up to given offsets.
* ``check`` — compares a ledger snapshot with what was read: per partition,
  every acknowledged value is present exactly once, at the offset it was
  acknowledged with, and each writer's values appear in acknowledgement order.
  Values that were sent but never acknowledged are reported, not counted.
  Given the stored batches' producer ids and epochs (``read_back``'s
  ``data_dirs``), copies a producer wrote again under a higher epoch of the
  same producer id are counted apart (``resent``): see ``check``.
* ``unavailability`` — the longest time during a window in which some
  partition received no acknowledgement.
* ``read_back`` — ``read_partitions`` up to every acknowledged offset (to the
  high watermark where an acknowledgement had none), then ``check``.
* ``wait_for`` — poll a condition until it holds (its value) or a timeout
  (AssertionError naming what was awaited); ``report`` — a test's line of
  figures, printed also without ``-s`` and kept as a JUnit property.

Not here: the cluster (the ``make_cluster`` fixture) and the faults (the test).
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Ack:
    partition: int
    offset: int
    value: bytes
    t: float


class Ledger:
    def __init__(self, partitions: int) -> None:
        self.partitions = partitions
        self._lock = threading.Lock()
        self._acks: list[Ack] = []
        self.sent: set[bytes] = set()
        self.errors: list[str] = []  # delivery failures and fatal producer errors, for the report

    def sending(self, value: bytes) -> None:
        with self._lock:
            self.sent.add(value)

    def acked(self, partition: int, offset: int | None, value: bytes, writer: str = "") -> None:
        """An acknowledgement; an offset of None or < 0 (none reported) is kept as -1 and noted."""
        t = time.monotonic()
        if offset is None or offset < 0:
            self.error(f"{writer}: acknowledged without an offset ({offset!r}): {value!r} in partition {partition}")
            offset = -1
        with self._lock:
            self._acks.append(Ack(partition, offset, value, t))

    def error(self, text: str) -> None:
        with self._lock:
            if len(self.errors) < 10000:
                self.errors.append(f"{time.monotonic():.3f} {text}")

    def snapshot(self) -> list[Ack]:
        with self._lock:
            return list(self._acks)

    def count(self) -> int:
        with self._lock:
            return len(self._acks)

    def acks_since(self, t: float, partition: int | None = None) -> int:
        with self._lock:
            return sum(1 for a in self._acks if a.t >= t and (partition is None or a.partition == partition))


class _Writer(threading.Thread):
    """Produces ``rate`` records/s until ``stop()``; subclasses own the producer."""

    def __init__(self, name: str, bootstrap: str, topic: str, ledger: Ledger, rate: float) -> None:
        super().__init__(name=f"verifier-{name}", daemon=True)
        self.writer = name
        self.bootstrap, self.topic, self.ledger, self.rate = bootstrap, topic, ledger, rate
        self._halt = threading.Event()
        self.generation = 0
        self.sent = 0
        self.failure: BaseException | None = None

    def value(self, seq: int) -> bytes:
        return f"{self.writer}.{self.generation}.{seq}".encode()

    def stop(self, timeout: float = 60.0) -> None:
        self._halt.set()
        self.join(timeout)

    def run(self) -> None:
        try:
            self.open()
            start = time.monotonic()
            seq = 0
            while not self._halt.is_set():
                target = start + seq / self.rate
                now = time.monotonic()
                if target > now:
                    self.service(min(target - now, 0.05))
                    continue
                self.before_send()
                v = self.value(seq)
                self.ledger.sending(v)
                self.send(seq % self.ledger.partitions, v)
                self.sent += 1
                seq += 1
                self.service(0)
            self.close()
        except BaseException as e:  # reported by the test
            self.failure = e
            self.ledger.error(f"{self.writer}: writer thread died: {e!r}")

    # subclass hooks
    def open(self) -> None: ...
    def before_send(self) -> None: ...
    def send(self, partition: int, value: bytes) -> None: ...
    def service(self, wait_s: float) -> None: time.sleep(wait_s)
    def close(self) -> None: ...


class ConfluentWriter(_Writer):
    def open(self) -> None:
        import confluent_kafka as ck

        self._ck = ck
        self._fatal = False

        def on_error(err):
            if err.fatal():
                self._fatal = True
                self.ledger.error(f"{self.writer}.{self.generation}: fatal {err}")

        self.producer = ck.Producer({
            "bootstrap.servers": self.bootstrap, "enable.idempotence": True, "acks": "all",
            "linger.ms": 5, "message.timeout.ms": 180000, "request.timeout.ms": 10000,
            "retry.backoff.ms": 50, "retry.backoff.max.ms": 500, "error_cb": on_error,
            "topic.metadata.refresh.interval.ms": 1000, "socket.connection.setup.timeout.ms": 3000,
            "reconnect.backoff.max.ms": 500,
            # KWIRE_VERIFIER_DEBUG=eos,msg: librdkafka's own account of epochs, retries, sequences
            **({"debug": os.environ["KWIRE_VERIFIER_DEBUG"]} if os.environ.get("KWIRE_VERIFIER_DEBUG") else {})})

    def _on_delivery(self, err, msg) -> None:
        if err is None:
            self.ledger.acked(msg.partition(), msg.offset(), msg.value(), self.writer)
        else:
            self.ledger.error(f"{self.writer}: delivery of {msg.value()!r} failed: {err}")

    def before_send(self) -> None:
        if self._fatal:  # a new producer (new producer id): the old one can do nothing more
            self.producer.flush(5)
            self.generation += 1
            self.open()

    def send(self, partition: int, value: bytes) -> None:
        while True:
            try:
                self.producer.produce(self.topic, value, partition=partition, on_delivery=self._on_delivery)
                return
            except BufferError:
                self.producer.poll(0.05)

    def service(self, wait_s: float) -> None:
        self.producer.poll(wait_s)

    def close(self) -> None:
        left = self.producer.flush(180)
        if left:
            self.ledger.error(f"{self.writer}: {left} records still unacknowledged at close")


class KafkaPythonWriter(_Writer):
    def open(self) -> None:
        from kafka import KafkaProducer

        self.producer = KafkaProducer(
            bootstrap_servers=self.bootstrap.split(","), acks="all", enable_idempotence=True,
            linger_ms=5, delivery_timeout_ms=180000, request_timeout_ms=10000, retry_backoff_ms=50,
            max_in_flight_requests_per_connection=5, metadata_max_age_ms=1000,
            reconnect_backoff_max_ms=500)

    def send(self, partition: int, value: bytes) -> None:
        try:
            fut = self.producer.send(self.topic, value=value, partition=partition)
        except Exception as e:  # the producer is in an error state: go on with a new one
            self.ledger.error(f"{self.writer}.{self.generation}: send failed, new producer: {e!r}")
            try:
                self.producer.close(5)
            except Exception:
                pass
            self.generation += 1
            self.open()
            return
        fut.add_callback(lambda md, v=value: self.ledger.acked(md.partition, md.offset, v, self.writer))
        fut.add_errback(lambda e, v=value: self.ledger.error(f"{self.writer}: delivery of {v!r} failed: {e!r}"))

    def close(self) -> None:
        self.producer.flush(180)
        self.producer.close(10)


def read_partitions(bootstrap: str, topic: str, targets: dict[int, int], timeout: float = 90.0,
                    to_end: set[int] = frozenset()) -> dict[int, list[tuple[int, bytes]]]:
    """(offset, value) per partition from the beginning until offset ``targets[p]`` is passed
    (for the partitions in ``to_end``: at least up to their high watermark now).

    Stops at the deadline with what it has (the caller counts what is missing).
    """
    import confluent_kafka as ck

    targets = dict(targets)
    out: dict[int, list[tuple[int, bytes]]] = {p: [] for p in targets}
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": "kwire-verifier-reader",
                     "enable.auto.commit": False, "isolation.level": "read_committed",
                     "enable.partition.eof": False, "fetch.wait.max.ms": 100,
                     "topic.metadata.refresh.interval.ms": 1000})
    try:
        for p in to_end:
            targets[p] = max(targets[p], c.get_watermark_offsets(ck.TopicPartition(topic, p), timeout=30)[1])
        todo = {p for p, t in targets.items() if t > 0}
        if not todo:
            return out
        c.assign([ck.TopicPartition(topic, p, ck.OFFSET_BEGINNING) for p in sorted(todo)])
        deadline = time.monotonic() + timeout
        while todo and time.monotonic() < deadline:
            for m in c.consume(num_messages=5000, timeout=0.5):
                if m.error() is not None:
                    continue  # transient (leader moved); the consumer retries
                p = m.partition()
                if p in todo:
                    out[p].append((m.offset(), m.value()))
                    if m.offset() + 1 >= targets[p]:
                        todo.discard(p)
                        c.pause([ck.TopicPartition(topic, p)])
    finally:
        c.close()
    return out


@dataclass
class Check:
    acked: int = 0
    read: int = 0           # acknowledged records found (once or more)
    lost: int = 0           # acknowledged, not found
    duplicated: int = 0     # extra copies of acknowledged records
    # extra copies the client itself sent again under a new producer epoch (below): a new record
    # to any broker, Kafka's included (librdkafka#4953); counted apart, never as ``duplicated``
    resent: int = 0
    misplaced: int = 0      # found, but not at the offset the acknowledgement gave
    reordered: int = 0      # a writer's records out of its acknowledgement order
    unacked_present: int = 0  # in the log, sent, never acknowledged (allowed, not counted)
    unknown: int = 0        # in the log, never sent by anyone (must be 0)
    no_offset: int = 0      # acknowledged without an offset (found; its place not checkable)
    examples: list[str] = field(default_factory=list)

    def example(self, text: str) -> None:
        if len(self.examples) < 20:
            self.examples.append(text)


def check(acks: list[Ack], reads: dict[int, list[tuple[int, bytes]]], sent: set[bytes],
          batch_at=None) -> Check:
    """``batch_at(partition, offset)``: (producer id, producer epoch, base sequence) of the stored
    batch holding that offset, or None (not known). With it, copies of one value written by the
    same producer id under strictly rising producer epochs count as ``resent``, not ``duplicated``:
    an idempotent producer that bumps its epoch (librdkafka does, producer-wide, after a
    sequence gap on any partition) numbers its unacknowledged records again from 0, so a record
    it took for not written (NOT_LEADER_OR_FOLLOWER, which Kafka too answers for a batch appended
    before the leadership moved) is a new record to the broker. Copies under one epoch stay
    ``duplicated``: a retry the broker failed to recognise."""
    r = Check(acked=len(acks))
    acked_values = {a.value for a in acks}
    for p, recs in reads.items():
        positions: dict[bytes, list[int]] = {}
        for i, (_off, v) in enumerate(recs):
            positions.setdefault(v, []).append(i)
        mine = [a for a in acks if a.partition == p]
        last_pos: dict[str, int] = {}
        for a in mine:
            where = positions.get(a.value)
            if not where:
                r.lost += 1
                r.example(f"lost: p{p} offset {a.offset} {a.value!r}")
                continue
            r.read += 1
            offsets = [recs[i][0] for i in where]
            resent = False
            if len(where) > 1:
                ids = [batch_at(p, o) for o in offsets] if batch_at is not None else [None]
                resent = None not in ids and len({i[0] for i in ids}) == 1 and all(
                    x[1] < y[1] for x, y in zip(ids, ids[1:]))
                if resent:
                    r.resent += len(where) - 1
                    r.example(f"resent under a new producer epoch: p{p} {a.value!r} at offsets "
                              f"{offsets} (producer id, epoch, base sequence: {ids})")
                else:
                    r.duplicated += len(where) - 1
                    r.example(f"duplicated: p{p} {a.value!r} at offsets {offsets}"
                              + (f" (producer id, epoch, base sequence: {ids})" if batch_at else ""))
            if a.offset < 0:
                r.no_offset += 1
            elif resent and a.offset in offsets:
                pass  # acknowledged at the copy the client's last send wrote
            elif recs[where[0]][0] != a.offset:
                r.misplaced += 1
                r.example(f"misplaced: p{p} {a.value!r} acknowledged at {a.offset}, read at {recs[where[0]][0]}")
            w = a.value.rsplit(b".", 1)[0].decode()
            if where[0] < last_pos.get(w, -1):
                r.reordered += 1
                r.example(f"reordered: p{p} {a.value!r}")
            last_pos[w] = where[0]
        for _off, v in recs:
            if v not in acked_values:
                if v in sent:
                    r.unacked_present += 1
                else:
                    r.unknown += 1
                    r.example(f"unknown value in p{p}: {v!r}")
    return r


def unavailability(acks: list[Ack], partitions: int, t0: float, t1: float) -> float:
    """Longest stretch within [t0, t1] in which some partition got no acknowledgement."""
    worst = 0.0
    for p in range(partitions):
        times = [a.t for a in acks if a.partition == p and t0 <= a.t <= t1]
        prev = t0
        for t in times:
            worst = max(worst, t - prev)
            prev = t
        worst = max(worst, t1 - prev)
    return worst


def read_back(bootstrap: str, topic: str, acks: list[Ack], sent: set[bytes], partitions: int,
              data_dirs: dict[int, str] | None = None) -> Check:
    """Read every partition up to its last acknowledged offset and ``check`` the acks against it.
    ``data_dirs`` (node id -> log dir): where the stored batches' producer ids and epochs are
    looked up for a duplicated value (``check``'s ``batch_at``)."""
    targets = {p: max([a.offset for a in acks if a.partition == p], default=-1) + 1 for p in range(partitions)}
    # an acknowledgement without an offset: read that partition up to its high watermark
    to_end = {a.partition for a in acks if a.offset < 0}
    reads = read_partitions(bootstrap, topic, targets, to_end=to_end)
    batch_at = None
    if data_dirs:
        cache: dict[int, dict[int, tuple[int, int, int]]] = {}

        def batch_at(p: int, offset: int):
            if p not in cache:
                cache[p] = stored_batches(data_dirs, topic, p)
            return cache[p].get(offset)
    return check(acks, reads, sent, batch_at)


def wait_for(cond, timeout: float, what: str, interval: float = 0.1):
    """``cond()``'s first true value, polled every ``interval`` s; AssertionError after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = cond()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}; last={last!r}")


def report(request, capsys, line: str) -> None:
    """Print a line of figures to the terminal (also without ``-s``) and record it in the JUnit XML."""
    request.node.user_properties.append(("figures", line))
    with capsys.disabled():
        print("\n" + line, flush=True)



def _batches(data_dirs: dict[int, str], topic: str, partition: int):
    """(node id, segment file name, header) of every complete batch header in each broker's
    segment files of ``topic-partition``, read from the files as they are."""
    import glob

    from kwire.records.batch import LOG_OVERHEAD, read_header

    for nid, d in sorted(data_dirs.items()):
        for path in sorted(glob.glob(os.path.join(d, f"{topic}-{partition}", "*.log"))):
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:
                continue  # a segment deleted meanwhile
            pos = 0
            while len(data) - pos >= 61:
                h = read_header(data, pos)
                if h.batch_length <= 0:
                    break
                yield nid, os.path.basename(path), h
                pos += LOG_OVERHEAD + h.batch_length


def stored_batches(data_dirs: dict[int, str], topic: str, partition: int) -> dict[int, tuple[int, int, int]]:
    """offset -> (producer id, producer epoch, base sequence) of the batch holding it, from the
    first broker (by node id) whose files hold that offset."""
    out: dict[int, tuple[int, int, int]] = {}
    for _nid, _name, h in _batches(data_dirs, topic, partition):
        for o in range(h.base_offset, h.base_offset + h.last_offset_delta + 1):
            out.setdefault(o, (h.producer_id, h.producer_epoch, h.base_sequence))
    return out


def batch_headers(data_dirs: dict[int, str], topic: str, partition: int, lo: int, hi: int) -> list[str]:
    """One line per stored batch overlapping offsets ``lo``..``hi`` of ``topic-partition`` in each
    broker's log dir (``data_dirs``: node id -> dir): producer id, epoch and sequences, and the
    leader epoch that wrote it, for a failure's report."""
    return [f"broker {nid} {name}: offsets {h.base_offset}..{h.base_offset + h.last_offset_delta} "
            f"leader epoch {h.partition_leader_epoch} producer {h.producer_id} epoch "
            f"{h.producer_epoch} sequences {h.base_sequence}..{h.last_sequence} ts {h.max_timestamp}"
            for nid, name, h in _batches(data_dirs, topic, partition)
            if h.base_offset + h.last_offset_delta >= lo and h.base_offset <= hi]
