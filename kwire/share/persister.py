"""The share-partition leader's side of durable state in a cluster (Kafka's DefaultStatePersister).

A share partition lives on the leader of its data partition; its durable state
lives with the share coordinator, the leader of the key's
``__share_group_state`` partition (``kwire.share.state``). ``StatePersister``
reads, initializes and writes one share partition's state there:

* locally, through the ``ShareStateStore``, when this broker leads that state
  partition (the write is answered once committed: ``store.committed``);
* else over the wire: ReadShareGroupState v0, InitializeShareGroupState v0 and
  WriteShareGroupState v0 to the state partition's leader, on one cached
  connection per broker (the inter-broker listener's TLS and SASL,
  ``kwire.security.inter_broker``), one request at a time per connection.

Kafka's persister retries a coordinator that moved or is loading:
NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS,
REQUEST_TIMED_OUT, NOT_ENOUGH_REPLICAS(_AFTER_APPEND) and a failed connection
are retried with a short back-off (the metadata then names the new leader)
until ``RETRY_S`` has passed; the caller gets the last error. Every other
error (FENCED_LEADER_EPOCH, FENCED_STATE_EPOCH, UNKNOWN_TOPIC_OR_PARTITION for
a state never initialized) is returned at once.

Writes carry the share partition's whole in-flight window (start offset and
every state batch), so a write replaces the stored state rather than patching
it, and compaction of ``__share_group_state`` keeps it exact. Writes of one
share partition are ordered by the caller (``kwire.share.manager``).

Not here: DeleteShareGroupState and ReadShareGroupStateSummary over the wire
(deleting a group or describing its offsets covers the state partitions the
broker answering leads).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

from kwire.protocol import codec
from kwire.protocol.errors import ErrorCode as E, KafkaError
from kwire.protocol.generated import (
    initialize_share_group_state_request as init_req,
    read_share_group_state_request as read_req,
    write_share_group_state_request as write_req,
)
from kwire.security import inter_broker
from kwire.share.state import SHARE_STATE_TOPIC

log = logging.getLogger("kwire.share")

RETRY_S = 20.0
BACKOFF_S = 0.1
TIMEOUT_S = 30.0
RETRIABLE = frozenset((E.NOT_COORDINATOR, E.COORDINATOR_NOT_AVAILABLE, E.COORDINATOR_LOAD_IN_PROGRESS,
                       E.REQUEST_TIMED_OUT, E.NOT_ENOUGH_REPLICAS, E.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
                       E.NETWORK_EXCEPTION, E.NOT_LEADER_OR_FOLLOWER))
READ, INITIALIZE, WRITE = 84, 83, 85


def _code(v: int) -> E:
    try:
        return E(v)
    except ValueError:
        return E.UNKNOWN_SERVER_ERROR


class _Link:
    """One connection to a peer broker, one request at a time."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.reader = self.writer = None
        self.cid = 0

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class StatePersister:
    def __init__(self, broker, store) -> None:
        self.broker = broker
        self.store = store
        self._links: dict[int, _Link] = {}

    def close(self) -> None:
        for link in self._links.values():
            link.close()
        self._links.clear()

    # -- the three operations ------------------------------------------------------------------
    async def read(self, group_id: str, topic_id: bytes, partition: int, leader_epoch: int):
        """(error, (state epoch, (start offset, batches)) or None); UNKNOWN_TOPIC_OR_PARTITION:
        the share partition was never initialized."""
        async def local():
            e, commit = self.store.read(group_id, topic_id, partition, leader_epoch)
            code = await self.store.committed(commit)
            if code:
                return code, None
            if e is None:
                return E.UNKNOWN_TOPIC_OR_PARTITION, None
            return E.NONE, (e.state_epoch, e.state())

        def request():
            return read_req.ReadShareGroupStateRequest(group_id=group_id, topics=[read_req.ReadStateData(
                topic_id=uuid.UUID(bytes=bytes(topic_id)),
                partitions=[read_req.PartitionData(partition=partition, leader_epoch=leader_epoch)])])

        def answer(resp):
            p = resp.results[0].partitions[0]
            code = _code(p.error_code)
            if code:
                return code, None
            return E.NONE, (p.state_epoch, (p.start_offset, [(b.first_offset, b.last_offset, b.delivery_state,
                                                              b.delivery_count) for b in p.state_batches]))

        return await self._run(group_id, topic_id, partition, local, READ, request, answer)

    async def initialize(self, group_id: str, topic_id: bytes, partition: int, state_epoch: int,
                         start: int) -> E:
        async def local():
            return await self.store.committed(self.store.initialize(group_id, topic_id, partition, state_epoch,
                                                                    start)), None

        def request():
            return init_req.InitializeShareGroupStateRequest(group_id=group_id, topics=[init_req.InitializeStateData(
                topic_id=uuid.UUID(bytes=bytes(topic_id)),
                partitions=[init_req.PartitionData(partition=partition, state_epoch=state_epoch,
                                                   start_offset=start)])])

        return (await self._run(group_id, topic_id, partition, local, INITIALIZE, request, _first_code))[0]

    async def write(self, group_id: str, topic_id: bytes, partition: int, state_epoch: int, leader_epoch: int,
                    state) -> E:
        """Store the whole window ``state`` = (start offset, [(first, last, state, count)])."""
        start, batches = state

        async def local():
            k = (group_id, bytes(topic_id), partition)
            e = self.store.entry(*k)
            if e is None:
                return E.UNKNOWN_TOPIC_OR_PARTITION, None
            if state_epoch < e.state_epoch:
                return E.FENCED_STATE_EPOCH, None
            return await self.store.committed(self.store.save(*k, state, leader_epoch)), None

        def request():
            return write_req.WriteShareGroupStateRequest(group_id=group_id, topics=[write_req.WriteStateData(
                topic_id=uuid.UUID(bytes=bytes(topic_id)),
                partitions=[write_req.PartitionData(
                    partition=partition, state_epoch=state_epoch, leader_epoch=leader_epoch, start_offset=start,
                    state_batches=[write_req.StateBatch(first_offset=a, last_offset=b, delivery_state=s,
                                                        delivery_count=n) for a, b, s, n in batches])])])

        return (await self._run(group_id, topic_id, partition, local, WRITE, request, _first_code))[0]

    # -- routing and retries ----------------------------------------------------------------------
    async def _run(self, group_id, topic_id, partition, local, api_key, request, answer):
        """(error, payload) of ``local()`` or of the remote answer, retried as the docstring says."""
        deadline = time.monotonic() + RETRY_S
        while True:
            try:
                self.store.ensure_topic()
                node = self.store.coordinator_node(group_id, topic_id, partition)
                if node == self.broker.node_id:
                    code, payload = await local()
                elif node < 0:
                    code, payload = E.COORDINATOR_NOT_AVAILABLE, None
                else:
                    code, payload = answer(await self._call(node, api_key, request()))
            except KafkaError as e:
                code, payload = e.code, None
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, IndexError) as e:
                log.info("share state request %d for %s failed: %r", api_key, group_id, e)
                code, payload = E.NETWORK_EXCEPTION, None
            if code not in RETRIABLE or time.monotonic() >= deadline:
                return code, payload
            await asyncio.sleep(BACKOFF_S)

    async def _call(self, node: int, api_key: int, obj):
        addr = inter_broker.endpoint_of(self.broker, node)
        if addr is None:
            raise KafkaError(E.COORDINATOR_NOT_AVAILABLE, f"no endpoint of broker {node}")
        link = self._links.setdefault(node, _Link())
        async with link.lock:
            try:
                if link.writer is None or link.writer.is_closing():
                    link.reader, link.writer = await inter_broker.of(self.broker).open_stream(
                        *addr, TIMEOUT_S, "kwire-share-persister")
                link.cid = (link.cid + 1) & 0x7FFFFFFF
                link.writer.write(codec.encode_request(api_key, 0, link.cid, "kwire-share-persister", obj))
                size = int.from_bytes(await asyncio.wait_for(link.reader.readexactly(4), TIMEOUT_S), "big")
                frame = await asyncio.wait_for(link.reader.readexactly(size), TIMEOUT_S)
                return codec.decode_response(api_key, 0, memoryview(frame))[1]
            except BaseException:
                link.close()  # a failed or cancelled exchange leaves the stream unusable
                raise


def _first_code(resp):
    return _code(resp.results[0].partitions[0].error_code), None


__all__ = ["StatePersister", "SHARE_STATE_TOPIC"]
