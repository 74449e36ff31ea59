"""Metadata responses spliced from per-topic encoded blocks, cached per broker.

At 50,000 partitions a Metadata answer for every topic built ~50,000
``MetadataResponsePartition`` objects and encoded each of them on every
request (~6 µs per partition). Here each topic's answer is reduced to its
*rows*: one tuple per partition ``(error, index, leader, leader epoch,
replicas, isr, offline replicas)``, computed from the live metadata image on
every request (tuples compare in C). When a topic's rows, name, internal flag
and authorized-operations value equal the ones cached for its topic id, the
topic's encoded block for the request's version is reused as bytes; otherwise
the entry is rebuilt. So the cache needs no invalidation hooks: any change a
client could see (leader, leader epoch, ISR, replicas, partition count, an
offline dir, a fenced leader, a topic deleted or re-created under a new id)
changes the rows or the key, and the next request re-encodes that topic only.
Brokers, cluster id and controller are encoded fresh on every response.

``SplicedMetadataResponse`` is a ``MetadataResponse`` whose ``topics`` mixes
``CachedTopic`` entries and ordinary ``MetadataResponseTopic`` objects; the codec
calls its ``encode_body`` (``kwire.protocol.codec.SelfEncoding``), which encodes
the rest of the response with the generated encoder and splices the topic
blocks in where the topic array goes. The bytes are identical to the generated
encoder's (tested for every version). ``materialize()`` gives the plain
response (objects) for code that reads it.

Not here: which topics are answered and their errors (``kwire.handlers.metadata``);
responses whose topics the authorizer edits per principal are never cached.
"""

from __future__ import annotations

import struct
import weakref

from kwire.protocol.codec import SelfEncoding
from kwire.protocol.generated import metadata_response as _mr
from kwire.protocol.generated.metadata_response import (
    MetadataResponse,
    MetadataResponsePartition,
    MetadataResponseTopic,
)
from kwire.protocol.primitives import write_uvarint

_FLEXIBLE = _mr.FLEXIBLE_MIN
_ENCODERS = _mr.ENCODERS
_P32 = struct.Struct(">i").pack

# per broker: {topic id: CachedTopic}; the broker going away drops its cache
_CACHES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _array_marker_len(version: int) -> int:
    """Bytes of an empty topic array: uvarint(1) when flexible, else int32 0."""
    return 1 if version >= _FLEXIBLE else 4


def _tail_len(version: int) -> int:
    """Bytes the generated encoder writes after the topic array (no unknown tagged fields):
    cluster authorized operations (v8-10), error code (v13), the empty tag section (flexible)."""
    return (4 if 8 <= version <= 10 else 0) + (2 if version >= 13 else 0) + (1 if version >= _FLEXIBLE else 0)


_EMPTY_LEN: dict[int, int] = {}


def _topic_block(topic: MetadataResponseTopic, version: int) -> bytes:
    """One topic's encoding at ``version``: the generated encoder's output for a one-topic
    response, less that of the same response without it."""
    empty = _EMPTY_LEN.get(version)
    if empty is None:
        buf = bytearray()
        _ENCODERS[version](MetadataResponse(), buf, [])
        empty = _EMPTY_LEN[version] = len(buf)
    buf = bytearray()
    _ENCODERS[version](MetadataResponse(topics=[topic]), buf, [])
    tail = _tail_len(version)
    return bytes(buf[empty - tail:len(buf) - tail])


class CachedTopic:
    """A topic's rows and, once asked for, its encoded block per version."""

    __slots__ = ("key", "rows", "topic_id", "blocks", "_topic", "__weakref__")
    error_code = 0

    def __init__(self, key: tuple, rows: list, topic_id) -> None:
        self.key, self.rows, self.topic_id = key, rows, topic_id
        self.blocks: dict[int, bytes] = {}
        self._topic: MetadataResponseTopic | None = None

    @property
    def name(self) -> str:
        return self.key[0]

    def topic(self) -> MetadataResponseTopic:
        t = self._topic
        if t is None:
            name, internal, ops = self.key
            t = self._topic = MetadataResponseTopic(
                error_code=0, name=name, topic_id=self.topic_id, is_internal=internal,
                partitions=[MetadataResponsePartition(
                    error_code=r[0], partition_index=r[1], leader_id=r[2], leader_epoch=r[3],
                    replica_nodes=list(r[4]), isr_nodes=list(r[5]), offline_replicas=list(r[6]))
                    for r in self.rows],
                topic_authorized_operations=ops)
        return t

    def block(self, version: int) -> bytes:
        b = self.blocks.get(version)
        if b is None:
            b = self.blocks[version] = _topic_block(self.topic(), version)
            self._topic = None  # the objects are needed again only for another version
        return b


def cached_topic(broker, topic_id, key: tuple, rows: list) -> CachedTopic:
    """The broker's cached entry for this topic when its key and rows are unchanged, else a new one."""
    cache = _CACHES.get(broker)
    if cache is None:
        cache = _CACHES[broker] = {}
    e = cache.get(topic_id)
    if e is not None and e.key == key and e.rows == rows:
        return e
    e = cache[topic_id] = CachedTopic(key, rows, topic_id)
    if len(cache) > 2 * len(broker.metadata.topics) + 16:  # drop deleted topics' entries
        live = broker.metadata.by_id
        for tid in [tid for tid in cache if tid not in live]:
            del cache[tid]
    return e


class SplicedMetadataResponse(MetadataResponse, SelfEncoding):
    """A MetadataResponse whose topics may be ``CachedTopic`` entries (see the module docstring)."""

    __slots__ = ()

    def encode_body(self, version: int, out: bytearray, parts: list) -> None:
        topics = self.topics
        self.topics = []
        try:
            rest = bytearray()
            _ENCODERS[version](self, rest, parts)  # brokers, ids, an empty topic array, the tail
        finally:
            self.topics = topics
        tail = _tail_len(version)
        head_end = len(rest) - tail - _array_marker_len(version)
        out += rest[:head_end]
        if version >= _FLEXIBLE:
            write_uvarint(out, len(topics) + 1)
        else:
            out += _P32(len(topics))
        for t in topics:
            out += t.block(version) if t.__class__ is CachedTopic else _topic_block(t, version)
        out += rest[len(rest) - tail:]

    def materialize(self) -> MetadataResponse:
        """The same response as plain generated objects."""
        return MetadataResponse(
            throttle_time_ms=self.throttle_time_ms, brokers=self.brokers, cluster_id=self.cluster_id,
            controller_id=self.controller_id,
            topics=[t.topic() if t.__class__ is CachedTopic else t for t in self.topics],
            cluster_authorized_operations=self.cluster_authorized_operations, error_code=self.error_code,
            unknown_tagged_fields=self.unknown_tagged_fields)
