"""Reading a coordinator's internal topic partition back into memory: the one replay loop.

The group coordinator (``__consumer_offsets``), the transaction coordinator
(``__transaction_state``) and the share coordinator (``__share_group_state``)
rebuild their state the same way when they start to lead a partition of their
topic: read its log from the log start offset to the log end offset as it was
when the load began (not the high watermark: a new leader's HW may lag what its
predecessor acknowledged), decode the batches, and hand every record to the
coordinator's ``apply``. ``LogReplay`` is that loop.

* Each data record goes to ``apply(record)`` (a ``kwire.records.decode.Record``:
  ``offset``, ``key``, ``value``; a tombstone has ``value`` None). The caller
  decodes key and value into its own types, so tombstones and versions are its
  business.
* An exception of the caller's ``errors`` types skips that record with an error
  log naming the topic, partition and offset (an undecodable record does not stop
  the load); any other exception ends the load and reaches the caller.
* Transactions (only the group coordinator stores transactional records, from
  TxnOffsetCommit): with ``apply_pending`` set, a transactional data record goes
  to ``apply_pending(producer_id, record)`` and a commit or abort marker to
  ``on_marker(producer_id, committed)`` (an unreadable marker counts as an
  abort). Without them, control batches are skipped and transactional records
  are applied as any other.
* ``steps()`` reads and applies one chunk (``chunk`` bytes, at least one batch)
  per step, so an asyncio caller gives the loop a turn between chunks
  (``await replay.run_async()``); ``run()`` does it all at once. ``records``
  counts the records applied.

Not here: when a partition is loaded or dropped (leadership), what a
coordinator answers while loading, snapshots (none of the three topics has one:
compaction keeps them small), and the records' formats.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator

from kwire.records.control import COMMIT, control_type
from kwire.records.decode import Record, decode_batches
from kwire.records.errors import CorruptRecordError

log = logging.getLogger("kwire.coordinator")

DEFAULT_CHUNK = 1 << 20


class LogReplay:
    def __init__(self, plog, topic: str, partition: int, apply: Callable[[Record], object], *,
                 errors: tuple[type[BaseException], ...], chunk: int = DEFAULT_CHUNK,
                 apply_pending: Callable[[int, Record], object] | None = None,
                 on_marker: Callable[[int, bool], object] | None = None) -> None:
        self.plog = plog
        self.where = f"{topic}-{partition}"
        self.apply = apply
        self.errors = errors
        self.chunk = chunk
        self.apply_pending = apply_pending
        self.on_marker = on_marker
        self.records = 0

    def steps(self) -> Iterator[None]:
        """Read and apply the log up to its end at the first step, one chunk per step."""
        plog = self.plog
        offset, end = plog.log_start_offset, plog.log_end_offset
        while offset < end:
            rr = plog.read(offset, self.chunk, min_one_batch=True, max_offset=end)
            if not rr.regions:
                return
            data = b"".join(r.read() for r in rr.regions)
            for batch in decode_batches(data, allow_truncated=True):
                h = batch.header
                offset = h.base_offset + h.last_offset_delta + 1
                if h.is_control:
                    if self.on_marker is not None and h.producer_id >= 0 and batch.records:
                        try:
                            committed = control_type(batch.records[0].key) == COMMIT
                        except CorruptRecordError:
                            committed = False
                        self.on_marker(h.producer_id, committed)
                elif h.is_transactional and self.apply_pending is not None:
                    pid = h.producer_id
                    self._apply_all(batch.records, lambda rec: self.apply_pending(pid, rec))
                else:
                    self._apply_all(batch.records, self.apply)
            yield

    def _apply_all(self, records, apply) -> None:
        for rec in records:
            try:
                apply(rec)
                self.records += 1
            except self.errors as e:
                log.error("%s offset %d: skipping undecodable record: %s", self.where, rec.offset, e)

    def run(self) -> int:
        for _ in self.steps():
            pass
        return self.records

    async def run_async(self) -> int:
        for _ in self.steps():
            await asyncio.sleep(0)
        return self.records
