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

The admin APIs (DescribeShareGroupOffsets, DeleteShareGroupOffsets, DeleteGroups
of a share group, answered by the group's coordinator) reach many share
partitions at once: ``summaries`` (ReadShareGroupStateSummary v1) and
``delete`` (DeleteShareGroupState v0) send one request per share coordinator
with all of its partitions, with the same routing and retries per partition.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

from kwire.protocol.errors import ErrorCode as E, KafkaError, code_of
from kwire.protocol.generated import (
    delete_share_group_state_request as delete_req,
    initialize_share_group_state_request as init_req,
    read_share_group_state_request as read_req,
    read_share_group_state_summary_request as summary_req,
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
READ, INITIALIZE, WRITE, DELETE, SUMMARY = 84, 83, 85, 86, 87


class StatePersister:
    def __init__(self, broker, store) -> None:
        self.broker = broker
        self.store = store
        self._links: dict[int, inter_broker.PeerLink] = {}

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
            code = code_of(p.error_code)
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

    # -- many share partitions at once (the admin APIs) ---------------------------------------------
    async def summaries(self, group_id: str, keys) -> dict:
        """ReadShareGroupStateSummary v1 of ``keys`` [(topic id, partition)]: {key: (error,
        (start offset, delivery complete count) or None)}; UNKNOWN_TOPIC_OR_PARTITION: never
        initialized (also when ``__share_group_state`` does not exist yet)."""
        if self.broker.metadata.topic(SHARE_STATE_TOPIC) is None:
            return {(bytes(t), p): (E.UNKNOWN_TOPIC_OR_PARTITION, None) for t, p in keys}

        async def local(tid, p):
            e = self.store.entry(group_id, tid, p)
            if e is None:
                return E.UNKNOWN_TOPIC_OR_PARTITION, None
            return E.NONE, (e.start, e.complete_count())

        def request(ks):
            return summary_req.ReadShareGroupStateSummaryRequest(group_id=group_id, topics=[
                summary_req.ReadStateSummaryData(topic_id=uuid.UUID(bytes=t), partitions=[
                    summary_req.PartitionData(partition=p, leader_epoch=-1) for p in ps]) for t, ps in _by_topic(ks)])

        def answer(resp):
            return {(r.topic_id.bytes, p.partition): (code_of(p.error_code), None) if p.error_code else
                    (E.NONE, (p.start_offset, p.delivery_complete_count)) for r in resp.results for p in r.partitions}

        return await self._fan_out(group_id, keys, local, SUMMARY, 1, request, answer)

    async def delete(self, group_id: str, keys) -> dict:
        """DeleteShareGroupState of ``keys`` [(topic id, partition)]: {key: error} (a partition
        without state is deleted too)."""
        if self.broker.metadata.topic(SHARE_STATE_TOPIC) is None:
            return {(bytes(t), p): E.NONE for t, p in keys}

        async def local(tid, p):
            return await self.store.committed(self.store.delete(group_id, tid, p)), None

        def request(ks):
            return delete_req.DeleteShareGroupStateRequest(group_id=group_id, topics=[
                delete_req.DeleteStateData(topic_id=uuid.UUID(bytes=t), partitions=[
                    delete_req.PartitionData(partition=p) for p in ps]) for t, ps in _by_topic(ks)])

        def answer(resp):
            return {(r.topic_id.bytes, p.partition): (code_of(p.error_code), None)
                    for r in resp.results for p in r.partitions}

        out = await self._fan_out(group_id, keys, local, DELETE, 0, request, answer)
        return {k: code for k, (code, _) in out.items()}

    # -- routing and retries ----------------------------------------------------------------------
    async def _run(self, group_id, topic_id, partition, local, api_key, request, answer):
        """(error, payload) of ``local()`` or of the remote answer, retried as the docstring says."""
        key = (bytes(topic_id), partition)
        out = await self._fan_out(group_id, [key], lambda t, p: local(), api_key, 0, lambda ks: request(),
                                  lambda resp: {key: answer(resp)})
        return out[key]

    async def _fan_out(self, group_id, keys, local, api_key, version, request, answer) -> dict:
        """{(topic id, partition): (error, payload)} for ``keys``: ``local(topic id, partition)``
        for the keys whose state partition this broker leads, one ``request(keys)`` per other
        coordinator (``answer(response)`` -> {key: (error, payload)}); keys answering a
        retriable error are routed and sent again until ``RETRY_S`` has passed."""
        out: dict = {}
        todo = list(dict.fromkeys((bytes(t), p) for t, p in keys))
        deadline = time.monotonic() + RETRY_S
        while True:
            by_node: dict[int, list] = {}
            for k in todo:
                try:
                    self.store.ensure_topic()
                    by_node.setdefault(self.store.coordinator_node(group_id, *k), []).append(k)
                except KafkaError as e:
                    out[k] = (e.code, None)
            for node, ks in by_node.items():
                try:
                    if node == self.broker.node_id:
                        for k in ks:
                            try:
                                out[k] = await local(*k)
                            except KafkaError as e:
                                out[k] = (e.code, None)
                    elif node < 0:
                        out.update(dict.fromkeys(ks, (E.COORDINATOR_NOT_AVAILABLE, None)))
                    else:
                        got = answer(await self._call(node, api_key, request(ks), version))
                        out.update({k: got.get(k, (E.UNKNOWN_SERVER_ERROR, None)) for k in ks})
                except KafkaError as e:
                    out.update(dict.fromkeys(ks, (e.code, None)))
                except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, IndexError) as e:
                    log.info("share state request %d for %s failed: %r", api_key, group_id, e)
                    out.update(dict.fromkeys(ks, (E.NETWORK_EXCEPTION, None)))
            todo = [k for k in todo if out[k][0] in RETRIABLE]
            if not todo or time.monotonic() >= deadline:
                return out
            await asyncio.sleep(BACKOFF_S)

    async def _call(self, node: int, api_key: int, obj, version: int = 0):
        """The answer of ``node`` on this persister's connection to it (opened again when its
        inter-broker endpoint changed)."""
        addr = inter_broker.endpoint_of(self.broker, node)
        if addr is None:
            raise KafkaError(E.COORDINATOR_NOT_AVAILABLE, f"no endpoint of broker {node}")
        link = self._links.get(node)
        if link is None or link.addr != addr:
            if link is not None:
                link.close()
            link = self._links[node] = inter_broker.PeerLink(inter_broker.of(self.broker), addr,
                                                             "kwire-share-persister", TIMEOUT_S)
        return await link.call(api_key, version, obj)


def _first_code(resp):
    return code_of(resp.results[0].partitions[0].error_code), None


def _by_topic(keys) -> list[tuple[bytes, list[int]]]:
    """[(topic id, [partition])] of ``keys`` [(topic id, partition)], in their order."""
    out: dict[bytes, list[int]] = {}
    for t, p in keys:
        out.setdefault(t, []).append(p)
    return list(out.items())


__all__ = ["StatePersister", "SHARE_STATE_TOPIC"]
