"""The queue checker: Jepsen's Kafka anomalies found in a recorded history (sans-I/O).

A history is what a workload saw, in the order it saw it:

* ``Send(process, partition, value, outcome, offset)``: one produced value, its
  outcome ``ok`` (acknowledged, with the offset the broker gave), ``fail``
  (definitely not written: the client was told so before sending, or a
  non-retriable refusal) or ``info`` (indeterminate: a timeout, a dropped
  connection -- it may or may not be in the log);
* ``Poll(process, partition, records)``: one consumer's read of a partition,
  ``records`` the (offset, value) pairs in the order delivered;
* ``Reset(process)``: the consumer was assigned, rebalanced or seeked: its next
  poll need not continue where the last one stopped;
* transactions: a ``Send`` or ``Poll`` made inside a transaction names it
  (``txn``); ``Write(process, txn, partition, value)`` is recorded just *before*
  a transactional produce is made (so a ``Poll`` recorded earlier read before
  that write existed); ``Offsets(group, partition, offset)`` is a committed
  offset of a group: an acknowledged OffsetCommit (or a transaction that
  committed offsets) or a committed offset read back (OffsetFetch);
* ``final``: after the heal, every replica's log read from offset 0, as
  {replica name: {partition: [(offset, value), ...]}}.

``check(history, final)`` returns a ``Result`` with, per anomaly, the
examples found (empty when none), named as in Jepsen's Kafka analyses:

* ``lost``: acknowledged, never read anywhere, although reads of its
  partition went past its offset;
* ``unseen``: acknowledged, not in the final read of every replica (the
  cluster never shows it after healing); ``lost`` values are not repeated here;
* ``duplicated``: one value at two offsets (an indeterminate send included:
  it may be present or absent, never twice). Given ``producers`` (the stored
  batches' producer id and epoch per offset), copies written by one producer id
  under rising producer epochs are not an anomaly but ``Result.resent``: an
  idempotent client that bumped its epoch sent the record again as a new one,
  which no broker can tell apart (librdkafka#4953; ``docs/reliability.md``);
* ``inconsistent_offsets``: two different values read at one offset of a
  partition (across consumers, polls or replicas);
* ``nonmonotonic_send``: one producer's acknowledged offsets in a partition not
  increasing;
* ``nonmonotonic_poll``: one consumer's successive reads of a partition not
  increasing, without a ``Reset`` in between;
* ``skipped_poll``: one consumer's successive reads jumping over an offset
  where some read saw a value (not an aborted one: read_committed readers
  skip those), without a ``Reset`` in between;
* ``aborted_read``: a value every write of which was aborted (``Send.txn_aborted``)
  read by a consumer or present in a replica's final (committed) read -- Jepsen's G1a;
* ``intermediate_read``: a value of transaction T read (a ``Poll`` recorded)
  before T made a later ``Write``: the reader saw T while T was still writing,
  which no read_committed consumer may -- Jepsen's G1b for a log;
* ``g1c``: a cycle of transactions each of which read another's writes (the
  write-read dependency graph over transactions, Adya's G1c restricted to
  wr edges): circular information flow. Write-write order is left out on
  purpose: Kafka does not order two transactions' writes alike in every
  partition (Jepsen's G0 is allowed), so ww edges would make false cycles;
* ``offsets_backwards``: a group's committed offset of a partition lower than
  one acknowledged or read before it in the history.

What it deliberately does not do
--------------------------------
No I/O, no clients: the workloads record, this judges. Real time is only
the order of the history (each op appended once it completed, or, for
``Write``, before it starts). Anomalies that need wall-clock bounds
(stale reads, linearizability) are not checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

OK, FAIL, INFO = "ok", "fail", "info"


@dataclass(frozen=True)
class Send:
    process: str
    partition: int
    value: bytes
    outcome: str = OK
    offset: int | None = None
    txn_aborted: bool = False
    txn: str | None = None


@dataclass(frozen=True)
class Poll:
    process: str
    partition: int
    records: tuple = ()
    txn: str | None = None


@dataclass(frozen=True)
class Write:
    process: str
    txn: str
    partition: int
    value: bytes


@dataclass(frozen=True)
class Offsets:
    group: str
    partition: int
    offset: int


@dataclass(frozen=True)
class Reset:
    process: str


ANOMALIES = ("lost", "unseen", "duplicated", "inconsistent_offsets", "nonmonotonic_send",
             "nonmonotonic_poll", "skipped_poll", "aborted_read", "intermediate_read", "g1c",
             "offsets_backwards")


@dataclass
class Result:
    anomalies: dict[str, list] = field(default_factory=lambda: {a: [] for a in ANOMALIES})
    sends: int = 0
    acknowledged: int = 0
    indeterminate: int = 0
    polled: int = 0
    wr_edges: int = 0  # write-read dependencies between transactions (where G1c was looked for)
    resent: list = field(default_factory=list)  # (value, places): a client's re-send, see ``duplicated``

    @property
    def valid(self) -> bool:
        return not any(self.anomalies.values())

    def counts(self) -> dict[str, int]:
        return {a: len(v) for a, v in self.anomalies.items()}

    def summary(self) -> str:
        bad = {a: n for a, n in self.counts().items() if n}
        head = (f"{self.sends} sends, {self.acknowledged} acknowledged, {self.indeterminate} indeterminate, "
                f"{self.polled} records polled")
        if self.resent:
            head += f", {len(self.resent)} re-sent by their producer under a new epoch"
        if not bad:
            return head + "; no anomalies"
        return head + "; " + ", ".join(f"{a}: {n} (e.g. {self.anomalies[a][:3]})" for a, n in bad.items())


def check(history, final: dict | None = None, producers: dict | None = None) -> Result:
    """``producers``: {(partition, offset): (producer id, producer epoch)} of the stored
    batches, when known (see ``duplicated``)."""
    res = Result()
    final = final or {}
    sends = [op for op in history if isinstance(op, Send)]
    res.sends = len(sends)
    res.acknowledged = sum(1 for s in sends if s.outcome == OK)
    res.indeterminate = sum(1 for s in sends if s.outcome == INFO)

    # every read, polls and final replicas alike: (partition, offset) -> values, value -> places
    at: dict[tuple[int, int], set] = {}
    where: dict[bytes, set] = {}
    highest: dict[int, int] = {}

    def saw(partition: int, offset: int, value: bytes) -> None:
        at.setdefault((partition, offset), set()).add(value)
        where.setdefault(value, set()).add((partition, offset))
        if offset > highest.get(partition, -1):
            highest[partition] = offset

    for op in history:
        if isinstance(op, Poll):
            res.polled += len(op.records)
            for offset, value in op.records:
                saw(op.partition, offset, value)
    for partitions in final.values():
        for partition, records in partitions.items():
            for offset, value in records:
                saw(partition, offset, value)

    for (partition, offset), values in sorted(at.items()):
        if len(values) > 1:
            res.anomalies["inconsistent_offsets"].append((partition, offset, sorted(values)))
    for value, places in where.items():
        if len(places) > 1:
            ids = [producers.get(place) for place in sorted(places)] if producers else [None]
            if None not in ids and len({i[0] for i in ids}) == 1 and all(
                    a[1] < b[1] for a, b in zip(ids, ids[1:])):
                res.resent.append((value, sorted(places)))
            else:
                res.anomalies["duplicated"].append((value, sorted(places)))

    # lost / unseen: acknowledged values against what was read
    in_final: list[set] = [{v for recs in parts.values() for _o, v in recs} for parts in final.values()]
    for s in sends:
        if s.outcome != OK:
            continue
        if s.value not in where:
            if s.offset is not None and highest.get(s.partition, -1) > s.offset:
                res.anomalies["lost"].append((s.value, s.partition, s.offset))
                continue
        if final and any(s.value not in values for values in in_final):
            res.anomalies["unseen"].append((s.value, s.partition, s.offset))

    committed_somewhere = {s.value for s in sends if not s.txn_aborted}
    aborted = {s.value for s in sends if s.txn_aborted} - committed_somewhere
    _transactions(history, sends, aborted, final, res)
    _offsets(history, res)

    # per producer: acknowledged offsets increase
    last_sent: dict[tuple[str, int], int] = {}
    for s in sends:
        if s.outcome != OK or s.offset is None:
            continue
        key = (s.process, s.partition)
        prev = last_sent.get(key)
        if prev is not None and s.offset <= prev:
            res.anomalies["nonmonotonic_send"].append((s.process, s.partition, prev, s.offset))
        last_sent[key] = s.offset

    # per consumer: reads increase, and never jump over a known value
    last_read: dict[tuple[str, int], int] = {}
    for op in history:
        if isinstance(op, Reset):
            for key in [k for k in last_read if k[0] == op.process]:
                del last_read[key]
            continue
        if not isinstance(op, Poll):
            continue
        key = (op.process, op.partition)
        for offset, value in op.records:
            prev = last_read.get(key)
            if prev is not None:
                if offset <= prev:
                    res.anomalies["nonmonotonic_poll"].append((op.process, op.partition, prev, offset))
                elif offset > prev + 1:
                    missed = [o for o in range(prev + 1, offset) if at.get((op.partition, o), set()) - aborted]
                    if missed:
                        res.anomalies["skipped_poll"].append((op.process, op.partition, prev, offset, missed[:5]))
            last_read[key] = offset
    return res


def _transactions(history, sends: list, aborted: set, final: dict, res: Result) -> None:
    """Aborted reads, intermediate reads and G1c cycles (``aborted``: the values no write of which
    committed)."""
    import networkx

    for op in history:
        if isinstance(op, Poll):
            for offset, value in op.records:
                if value in aborted:
                    res.anomalies["aborted_read"].append((value, op.partition, offset))
    for replica, partitions in sorted(final.items()):
        for partition, records in partitions.items():
            for offset, value in records:
                if value in aborted:
                    res.anomalies["aborted_read"].append((value, partition, offset, replica))

    # a value's writer: the transaction of the Send acknowledged at that offset, else its only one
    writers: dict[bytes, set] = {}
    placed: dict[tuple[int, int], str] = {}
    for s in sends:
        if s.txn is not None:
            writers.setdefault(s.value, set()).add(s.txn)
            if s.outcome == OK and s.offset is not None:
                placed[(s.partition, s.offset)] = s.txn

    def writer(partition: int, offset: int, value: bytes) -> str | None:
        txn = placed.get((partition, offset))
        if txn is None and len(writers.get(value, ())) == 1:
            txn = next(iter(writers[value]))
        return txn

    last_write: dict[str, int] = {}  # txn -> history index of its last Write
    first_write: dict[tuple[str, bytes], int] = {}
    for i, op in enumerate(history):
        if isinstance(op, Write):
            last_write[op.txn] = i
            first_write.setdefault((op.txn, op.value), i)
    graph = networkx.DiGraph()
    for i, op in enumerate(history):
        if not isinstance(op, Poll):
            continue
        for offset, value in op.records:
            txn = writer(op.partition, offset, value)
            if txn is None:
                continue
            if last_write.get(txn, -1) > i and first_write.get((txn, value), i) < i:
                res.anomalies["intermediate_read"].append((op.process, txn, value, op.partition, offset))
            if op.txn is not None and op.txn != txn:
                graph.add_edge(txn, op.txn)
    res.wr_edges = graph.number_of_edges()
    for component in networkx.strongly_connected_components(graph):
        if len(component) > 1:
            res.anomalies["g1c"].append(sorted(component))


def _offsets(history, res: Result) -> None:
    """A group's committed offsets never going backwards."""
    highest: dict[tuple[str, int], int] = {}
    for op in history:
        if isinstance(op, Offsets):
            key = (op.group, op.partition)
            prev = highest.get(key)
            if prev is not None and op.offset < prev:
                res.anomalies["offsets_backwards"].append((op.group, op.partition, prev, op.offset))
            else:
                highest[key] = op.offset
