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
* ``expired``: Empty/Complete* untouched for ``transactional.id.expiration.ms``:
  tombstone.

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

    def value(self, **changes: Any) -> TxnLogValue:
        v = TxnLogValue(self.producer_id, self.producer_epoch, self.timeout_ms, int(self.state),
                        self.partitions, self.last_update_ms, self.start_ms)
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
            tuple(sorted(v.partitions)), v.last_update_ms, v.start_ms)

    def preparing(self) -> list[Write]:
        """After loading: the transactions whose markers may not all be written (resend them)."""
        out = []
        for md in self.txns.values():
            if md.state in (TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT):
                out.append(Write(md.transactional_id, md.value(), Markers(
                    md.state == TxnState.PREPARE_COMMIT, md.producer_id, md.producer_epoch,
                    md.partitions)))
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
        v = TxnLogValue(pid, epoch, timeout_ms, int(TxnState.EMPTY), (), now, -1)
        return (E.NONE, pid, epoch), [Write(tid, v)]

    def _fence_and_abort(self, md: TxnMetadata, now: int) -> Write:
        epoch = min(md.producer_epoch + 1, MAX_EPOCH - 1)
        v = md.value(producer_epoch=epoch, state=TxnState.PREPARE_ABORT, last_update_ms=now)
        return Write(md.transactional_id, v, Markers(False, md.producer_id, epoch, md.partitions))

    def _check(self, tid: str, pid: int, epoch: int) -> tuple[E, TxnMetadata | None]:
        md = self.txns.get(tid)
        if md is None or md.producer_id != pid:
            return E.INVALID_PRODUCER_ID_MAPPING, md
        if md.producer_epoch != epoch:
            return E.PRODUCER_FENCED, md
        return E.NONE, md

    def add_partitions(self, tid: str, pid: int, epoch: int, partitions, now: int,
                       verify_only: bool = False):
        """Response: an error code for every partition; and writes."""
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
                     last_update_ms=now, start_ms=start)
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
            return E.NONE, [Write(tid, v, Markers(commit, pid, epoch, md.partitions))]
        if (s, commit) in ((TxnState.COMPLETE_COMMIT, True), (TxnState.COMPLETE_ABORT, False)):
            return E.NONE, []
        if (s, commit) in ((TxnState.PREPARE_COMMIT, True), (TxnState.PREPARE_ABORT, False)):
            return E.CONCURRENT_TRANSACTIONS, []
        return E.INVALID_TXN_STATE, []

    def complete(self, tid: str, now: int) -> list[Write]:
        """Every marker of a Prepare* transaction is written: Complete*."""
        md = self.txns.get(tid)
        if md is None or md.state not in (TxnState.PREPARE_COMMIT, TxnState.PREPARE_ABORT):
            return []
        state = TxnState.COMPLETE_COMMIT if md.state == TxnState.PREPARE_COMMIT else TxnState.COMPLETE_ABORT
        return [Write(tid, md.value(state=state, partitions=(), last_update_ms=now))]

    # -- timers ---------------------------------------------------------------------------
    def timed_out(self, now: int) -> list[Write]:
        return [self._fence_and_abort(md, now) for md in list(self.txns.values())
                if md.state == TxnState.ONGOING and now - md.start_ms > md.timeout_ms]

    def expired(self, now: int, expiration_ms: int) -> list[Write]:
        return [Write(md.transactional_id, None) for md in list(self.txns.values())
                if md.state in _ENDED and now - md.last_update_ms >= expiration_ms]
