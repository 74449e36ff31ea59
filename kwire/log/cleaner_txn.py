"""Transaction bookkeeping of one cleaning pass (Kafka's ``CleanedTransactionMetadata``).

The cleaner walks the log in offset order; this object is told about every
batch it passes (``on_batch`` for data batches, ``on_control`` for markers)
and answers whether the batch may be discarded as far as transactions go:

* it starts from the aborted transactions of the partition's
  aborted-transaction index that overlap the cleaned range
  (``AbortedTxn``-shaped tuples: producer id, first offset, marker offset,
  LSO), ordered by first offset. When the walk reaches a transaction's first
  offset it becomes the producer's *ongoing aborted* transaction;
* a transactional data batch of a producer with an ongoing aborted
  transaction belongs to it: discardable (and the transaction is noted as
  having had data in this pass). Any other transactional batch belongs to a
  committed transaction: not discardable here (its records are deduplicated
  like any other), and the producer has an *ongoing committed* transaction;
  non-transactional batches are never discardable here;
* an ABORT marker ends the producer's ongoing aborted transaction. It must
  stay while the transaction may still have data in the log: if this pass
  saw (and discarded) some of its batches, the marker is kept and its index
  entry goes to the cleaned segment's ``.txnindex`` (``retained``); if not,
  the marker is discardable and the entry is dropped;
* a COMMIT marker is discardable when this pass saw no batch of its
  transaction (all of them were removed by earlier passes);
* an empty control batch (a marker the cleaner already emptied) is
  discardable; a control type other than COMMIT/ABORT is kept.

"Discardable" for a marker means only that the transaction no longer needs
it: the cleaner still waits ``delete.retention.ms`` (the delete horizon, see
``cleaner_rewrite``) and keeps the producer's last batch. A producer has at
most one transaction open at a time, so state is per producer id.

This module reads no files and knows nothing of segments; it holds only what
one pass learns, and a pass always starts at the log start, so every
transaction's batches are seen before its marker.
"""

from __future__ import annotations

from kwire.records.control import ABORT, COMMIT, control_type
from kwire.records.errors import CorruptRecordError

LONG_MAX = (1 << 63) - 1


class CleanedTxns:
    __slots__ = ("_pending", "_next", "_next_first", "committed", "aborted", "retained")

    def __init__(self, aborted_txns) -> None:
        """``aborted_txns``: (producer id, first offset, last offset, LSO) tuples."""
        self._pending = sorted(aborted_txns, key=lambda t: t[1])
        self._next = 0
        self._next_first = self._pending[0][1] if self._pending else LONG_MAX
        self.committed: set[int] = set()  # producers with an ongoing committed transaction
        self.aborted: dict[int, list] = {}  # producer id -> [entry, batches seen this pass]
        self.retained: list[tuple] = []  # index entries of kept ABORT markers, in marker order

    def _consume_up_to(self, offset: int) -> None:
        pending = self._pending
        i = self._next
        while i < len(pending) and pending[i][1] <= offset:
            entry = pending[i]
            self.aborted.setdefault(entry[0], [entry, False])
            i += 1
        self._next = i
        self._next_first = pending[i][1] if i < len(pending) else LONG_MAX

    def on_batch(self, producer_id: int, transactional: bool, last_offset: int) -> bool:
        """A data batch ending at ``last_offset``: True if it belongs to an aborted transaction."""
        if self._next_first <= last_offset:
            self._consume_up_to(last_offset)
        if not transactional:
            return False
        ongoing = self.aborted.get(producer_id)
        if ongoing is not None:
            ongoing[1] = True
            return True
        self.committed.add(producer_id)
        return False

    def on_control(self, producer_id: int, last_offset: int, first_key) -> bool:
        """A control batch whose first record has key ``first_key`` (None: the batch is empty):
        True if the transaction it closes no longer needs it."""
        if self._next_first <= last_offset:
            self._consume_up_to(last_offset)
        if first_key is None:
            return True  # emptied by an earlier pass
        try:
            ctype = control_type(first_key)
        except CorruptRecordError:
            return False  # not ours to judge: keep it
        if ctype == ABORT:
            ongoing = self.aborted.pop(producer_id, None)
            if ongoing is not None and ongoing[1]:
                self.retained.append(ongoing[0])
                return False
            return True
        if ctype == COMMIT:
            if producer_id in self.committed:
                self.committed.discard(producer_id)
                return False
            return True
        return False

    def take_retained(self) -> list[tuple]:
        """The index entries kept since the last call (one cleaned segment's)."""
        out, self.retained = self.retained, []
        return out
