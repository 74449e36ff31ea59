"""The transaction coordinator's state machine for one ``__transaction_state`` partition.

Sans-I/O: every operation looks at the current metadata of a transactional
id and returns ``(response, writes)``; the metadata changes only when a
write is replayed (``replay``), which is also how a partition is loaded
after a restart or a leadership change. A ``Write`` carries the new
``TxnLogValue`` (None: a tombstone) and, for PrepareCommit/PrepareAbort,
``markers``: the COMMIT/ABORT markers the runtime must write to every
partition of the transaction before it calls ``complete``.

States (Kafka's TransactionState ids): Empty 0, Ongoing 1, PrepareCommit 2,
PrepareAbort 3, CompleteCommit 4, CompleteAbort 5, Dead 6,
PrepareEpochFence 7. Transitions as Kafka's TransactionCoordinator (for
transaction version 1 clients):

* InitProducerId: a new id gets a fresh producer id, epoch 0, Empty; an id
  in Empty/Complete* gets its epoch bumped (a new producer id when the
  epoch would overflow); an Ongoing one is fenced: the epoch is bumped and
  the transaction aborted with it (PrepareAbort, markers), the caller gets
  CONCURRENT_TRANSACTIONS and retries; Prepare*: CONCURRENT_TRANSACTIONS.
  A timeout above ``transaction.max.timeout.ms``: INVALID_TRANSACTION_TIMEOUT.
  KIP-360 (producer id and epoch given): PRODUCER_FENCED unless they match.
* AddPartitionsToTxn / AddOffsetsToTxn: Ongoing with the new partitions.
* EndTxn: Ongoing -> PrepareCommit/PrepareAbort (+ markers) -> Complete*;
  retries of a finished one answer NONE, of a running one
  CONCURRENT_TRANSACTIONS; anything else INVALID_TXN_STATE.
* Errors common to the three: unknown id or another producer id
  INVALID_PRODUCER_ID_MAPPING; another epoch PRODUCER_FENCED (the handlers
  answer INVALID_PRODUCER_EPOCH to versions that predate it).
* ``timed_out``: Ongoing longer than its timeout: fenced and aborted as above.

Transactions v2 (KIP-890 part 2, ``client_version`` 2; Kafka 4.x):

* ``add_partitions(..., client_version=2)``: the implicit add a partition
  leader (Produce v12+) or the group coordinator (TxnOffsetCommit v5+) asks
  for; it starts a transaction from Empty/Complete* as a client add does.
* ``end_txn_v2`` (EndTxn v5+): the epoch is bumped at every commit/abort;
  PrepareCommit/PrepareAbort and the markers carry the bumped epoch and the
  response gives the producer id and epoch to use next. When the epoch would
  overflow (the current one is ``MAX_EPOCH - 1`` or more) a new producer id
  is allocated: the markers use the old id at ``MAX_EPOCH``, the id becomes
  ``next_producer_id`` and, at completion, the producer id (epoch 0), with
  the old one kept as ``prev_producer_id``. A retry (the epoch just before
  the current one, or the previous producer id at ``MAX_EPOCH - 1`` after an
  overflow) answers NONE once complete, CONCURRENT_TRANSACTIONS while the
  markers are written, and PRODUCER_FENCED when it asked for the other
  outcome (a zombie whose transaction was fenced). An abort (or an empty
  commit) in Empty/Complete* with the current epoch bumps the epoch with no
  partitions (the producer failed before any partition was added).
* ``expired``: Empty/Complete* untouched for ``transactional.id.expiration.ms``:
  tombstone.

``apply``/``undo``: a write is replayed as soon as it is appended (so the
next operation sees it) and taken back when it fails to become durable, as
Kafka resets a transaction's pending state when its log append fails: the
client's retry then finds the state it started from.

Not here: I/O, the markers themselves, replication waits.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

from kwire.protocol.errors import ErrorCode as E, KafkaError

from .records import TxnLogValue

MAX_EPOCH = 32767


class TxnState(enum.IntEnum):
    EMPTY = 0
    ONGOING = 1
    PREPARE_COMMIT = 2
    PREPARE_ABORT = 3
    COMPLETE_COMMIT = 4
    COMPLETE_ABORT = 5
    DEAD = 6
    PREPARE_EPOCH_FENCE = 7


STATE_NAMES = {
    TxnState.EMPTY: "Empty", TxnState.ONGOING: "Ongoing", TxnState.PREPARE_COMMIT: "PrepareCommit",
    TxnState.PREPARE_ABORT: "PrepareAbort", TxnState.COMPLETE_COMMIT: "CompleteCommit",
    TxnState.COMPLETE_ABORT: "CompleteAbort", TxnState.DEAD: "Dead",
    TxnState.PREPARE_EPOCH_FENCE: "PrepareEpochFence",
}
_PREPARING = (TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT, TxnState.PREPARE_EPOCH_FENCE)
_ENDED = (TxnState.EMPTY, TxnState.COMPLETE_COMMIT, TxnState.COMPLETE_ABORT, TxnState.DEAD)


class Markers(NamedTuple):
    commit: bool
    producer_id: int
    producer_epoch: int
    partitions: tuple[tuple[str, int], ...]
    # the transaction's client version, sent with every marker (WriteTxnMarkers v2): the
    # partition leader applies the transactions v2 epoch rule when it is 2 (Kafka's
    # TxnMarkerEntry.transactionVersion, from clientTransactionVersion)
    transaction_version: int = 0


class Write(NamedTuple):
    transactional_id: str
    value: TxnLogValue | None
    markers: Markers | None = None


@dataclass
class TxnMetadata:
    transactional_id: str
    producer_id: int
    producer_epoch: int
    timeout_ms: int
    state: TxnState
    partitions: tuple[tuple[str, int], ...] = ()
    last_update_ms: int = -1
    start_ms: int = -1
    prev_producer_id: int = -1
    next_producer_id: int = -1
    client_version: int = 0

    def value(self, **changes: Any) -> TxnLogValue:
        v = TxnLogValue(self.producer_id, self.producer_epoch, self.timeout_ms, int(self.state),
                        self.partitions, self.last_update_ms, self.start_ms,
                        self.prev_producer_id, self.next_producer_id, self.client_version)
        if "state" in changes:
            changes["status"] = int(changes.pop("state"))
        return v._replace(**changes)


@dataclass
class TxnShard:
    partition: int
    max_timeout_ms: int = 900000
    txns: dict[str, TxnMetadata] = field(default_factory=dict)

    # -- replay ---------------------------------------------------------------------------
    def replay(self, transactional_id: str, v: TxnLogValue | None) -> None:
        if v is None:
            self.txns.pop(transactional_id, None)
            return
        self.txns[transactional_id] = TxnMetadata(
            transactional_id, v.producer_id, v.producer_epoch, v.timeout_ms, TxnState(v.status),
            tuple(sorted(v.partitions)), v.last_update_ms, v.start_ms, v.prev_producer_id,
            v.next_producer_id, v.client_version)

    def apply(self, writes: list[Write]) -> list[tuple[str, TxnMetadata | None, TxnMetadata | None]]:
        """Replay ``writes`` (appended, not yet durable); returns what ``undo`` needs to take
        them back: (id, metadata before, metadata after) per write."""
        undo = []
        for w in writes:
            before = self.txns.get(w.transactional_id)
            self.replay(w.transactional_id, w.value)
            undo.append((w.transactional_id, before, self.txns.get(w.transactional_id)))
        return undo

    def undo(self, undo: list[tuple[str, TxnMetadata | None, TxnMetadata | None]]) -> None:
        """The writes of ``apply`` failed to become durable: each id back to its metadata before
        them, unless a later write changed it since (that write's own outcome decides)."""
        for tid, before, after in reversed(undo):
            if self.txns.get(tid) is not after:
                continue
            if before is None:
                self.txns.pop(tid, None)
            else:
                self.txns[tid] = before

    def preparing(self) -> list[Write]:
        """After loading: the transactions whose markers may not all be written (resend them)."""
        out = []
        for md in self.txns.values():
            if md.state in (TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT):
                out.append(Write(md.transactional_id, md.value(), Markers(
                    md.state == TxnState.PREPARE_COMMIT, md.producer_id, md.producer_epoch,
                    md.partitions, md.client_version)))
        return out

    # -- operations -----------------------------------------------------------------------
    def init_producer_id(self, tid: str, timeout_ms: int, expected_pid: int, expected_epoch: int,
                         now: int, allocate: Callable[[], int]):
        """Response (error, producer_id, epoch) and writes."""
        if timeout_ms <= 0 or timeout_ms > self.max_timeout_ms:
            return (E.INVALID_TRANSACTION_TIMEOUT, -1, -1), []
        md = self.txns.get(tid)
        if md is None:
            pid = allocate()
            v = TxnLogValue(pid, 0, timeout_ms, int(TxnState.EMPTY), (), now, -1)
            return (E.NONE, pid, 0), [Write(tid, v)]
        if expected_pid >= 0 and (expected_pid, expected_epoch) != (md.producer_id, md.producer_epoch):
            # (Kafka also recognizes a retry of a KIP-360 bump by its lastProducerEpoch, which
            # kwire does not keep: such a retry is fenced, the safe side)
            return (E.PRODUCER_FENCED, -1, -1), []
        if md.state in _PREPARING:
            return (E.CONCURRENT_TRANSACTIONS, -1, -1), []
        if md.state == TxnState.ONGOING:
            return (E.CONCURRENT_TRANSACTIONS, -1, -1), [self._fence_and_abort(md, now)]
        if md.producer_epoch + 1 >= MAX_EPOCH - 1:
            pid, epoch = allocate(), 0
        else:
            pid, epoch = md.producer_id, md.producer_epoch + 1
        v = TxnLogValue(pid, epoch, timeout_ms, int(TxnState.EMPTY), (), now, -1,
                        client_version=md.client_version)
        return (E.NONE, pid, epoch), [Write(tid, v)]

    def _fence_and_abort(self, md: TxnMetadata, now: int) -> Write:
        # a transactions v2 marker must be above the epoch of the open transaction (the
        # leader's rule), so the bump may reach MAX_EPOCH there, as Kafka's
        # prepareFenceProducerEpoch; the next InitProducerId then takes a new producer id
        epoch = min(md.producer_epoch + 1, MAX_EPOCH if md.client_version >= 2 else MAX_EPOCH - 1)
        v = md.value(producer_epoch=epoch, state=TxnState.PREPARE_ABORT, last_update_ms=now)
        return Write(md.transactional_id, v, Markers(False, md.producer_id, epoch, md.partitions,
                                                     md.client_version))

    def _check(self, tid: str, pid: int, epoch: int) -> tuple[E, TxnMetadata | None]:
        md = self.txns.get(tid)
        if md is None or md.producer_id != pid:
            return E.INVALID_PRODUCER_ID_MAPPING, md
        if md.producer_epoch != epoch:
            return E.PRODUCER_FENCED, md
        return E.NONE, md

    def add_partitions(self, tid: str, pid: int, epoch: int, partitions, now: int,
                       verify_only: bool = False, client_version: int = 0):
        """Response: an error code for every partition; and writes. ``client_version`` 2:
        the implicit add of a transactions v2 produce or TxnOffsetCommit."""
        code, md = self._check(tid, pid, epoch)
        if code == E.NONE and md.state in _PREPARING:
            code = E.CONCURRENT_TRANSACTIONS
        if code != E.NONE:
            return code, []
        new = set(partitions) - set(md.partitions)
        if md.state == TxnState.ONGOING and not new:
            return E.NONE, []
        if verify_only:
            return E.INVALID_TXN_STATE, []
        start = md.start_ms if md.state == TxnState.ONGOING else now
        v = md.value(state=TxnState.ONGOING, partitions=tuple(sorted(set(md.partitions) | new)),
                     last_update_ms=now, start_ms=start, client_version=client_version)
        return E.NONE, [Write(tid, v)]

    def verify(self, tid: str, pid: int, epoch: int, partition: tuple[str, int]) -> bool:
        """Old-protocol produce check: is ``partition`` part of the ongoing transaction?"""
        md = self.txns.get(tid)
        if md is not None and md.producer_id == pid and epoch < md.producer_epoch:
            raise KafkaError(E.INVALID_PRODUCER_EPOCH, f"Producer epoch {epoch} of producer {pid} "
                             f"is older than the current epoch {md.producer_epoch}: fenced")
        return (md is not None and md.producer_id == pid and md.producer_epoch == epoch
                and md.state == TxnState.ONGOING and partition in md.partitions)

    def end_txn(self, tid: str, pid: int, epoch: int, commit: bool, now: int):
        code, md = self._check(tid, pid, epoch)
        if code != E.NONE:
            return code, []
        s = md.state
        if s == TxnState.ONGOING:
            state = TxnState.PREPARE_COMMIT if commit else TxnState.PREPARE_ABORT
            v = md.value(state=state, last_update_ms=now)
            return E.NONE, [Write(tid, v, Markers(commit, pid, epoch, md.partitions, md.client_version))]
        if (s, commit) in ((TxnState.COMPLETE_COMMIT, True), (TxnState.COMPLETE_ABORT, False)):
            return E.NONE, []
        if (s, commit) in ((TxnState.PREPARE_COMMIT, True), (TxnState.PREPARE_ABORT, False)):
            return E.CONCURRENT_TRANSACTIONS, []
        return E.INVALID_TXN_STATE, []

    def end_txn_v2(self, tid: str, pid: int, epoch: int, commit: bool, now: int,
                   allocate: Callable[[], int]):
        """EndTxn v5+ (transactions v2): response (error, producer id, epoch) and writes."""
        md = self.txns.get(tid)
        if md is None:
            return (E.INVALID_PRODUCER_ID_MAPPING, -1, -1), []
        retry_overflow = (md.prev_producer_id == pid and md.producer_id != pid
                          and epoch == MAX_EPOCH - 1 and md.producer_epoch == 0)
        if md.producer_id != pid and not retry_overflow:
            return (E.INVALID_PRODUCER_ID_MAPPING, -1, -1), []
        s = md.state
        if retry_overflow or epoch == md.producer_epoch - 1:
            if (s, commit) in ((TxnState.COMPLETE_COMMIT, True), (TxnState.COMPLETE_ABORT, False)):
                return (E.NONE, md.producer_id, md.producer_epoch), []
            if not retry_overflow and (s, commit) in ((TxnState.PREPARE_COMMIT, True),
                                                      (TxnState.PREPARE_ABORT, False)):
                return (E.CONCURRENT_TRANSACTIONS, -1, -1), []
            return (E.PRODUCER_FENCED, -1, -1), []
        if epoch != md.producer_epoch:
            return (E.PRODUCER_FENCED, -1, -1), []
        if s in _PREPARING:
            return (E.CONCURRENT_TRANSACTIONS, -1, -1), []
        if s == TxnState.DEAD:
            return (E.INVALID_TXN_STATE, -1, -1), []
        # Ongoing; or Empty/Complete*: nothing was added, the epoch is bumped all the same
        partitions = md.partitions if s == TxnState.ONGOING else ()
        next_pid = allocate() if md.producer_epoch >= MAX_EPOCH - 1 else -1
        bumped = md.producer_epoch + 1
        state = TxnState.PREPARE_COMMIT if commit else TxnState.PREPARE_ABORT
        v = md.value(state=state, producer_epoch=bumped, partitions=partitions,
                     next_producer_id=next_pid, client_version=2, last_update_ms=now,
                     start_ms=md.start_ms if s == TxnState.ONGOING else now)
        response = (E.NONE, next_pid, 0) if next_pid >= 0 else (E.NONE, pid, bumped)
        return response, [Write(tid, v, Markers(commit, pid, bumped, partitions, 2))]

    def complete(self, tid: str, now: int) -> list[Write]:
        """Every marker of a Prepare* transaction is written: Complete* (transactions v2 after
        an epoch overflow: the next producer id becomes the producer id, epoch 0)."""
        md = self.txns.get(tid)
        if md is None or md.state not in (TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT):
            return []
        state = TxnState.COMPLETE_COMMIT if md.state == TxnState.PREPARE_COMMIT else TxnState.COMPLETE_ABORT
        if md.next_producer_id >= 0:
            return [Write(tid, md.value(state=state, partitions=(), last_update_ms=now,
                                        producer_id=md.next_producer_id, producer_epoch=0,
                                        prev_producer_id=md.producer_id, next_producer_id=-1))]
        return [Write(tid, md.value(state=state, partitions=(), last_update_ms=now))]

    # -- timers ---------------------------------------------------------------------------
    def timed_out(self, now: int) -> list[Write]:
        return [self._fence_and_abort(md, now) for md in list(self.txns.values())
                if md.state == TxnState.ONGOING and now - md.start_ms > md.timeout_ms]

    def expired(self, now: int, expiration_ms: int) -> list[Write]:
        return [Write(md.transactional_id, None) for md in list(self.txns.values())
                if md.state in _ENDED and now - md.last_update_ms >= expiration_ms]
