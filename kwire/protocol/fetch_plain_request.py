"""A consumer's Fetch request (v13-16), read straight into what the handler uses.

A consumer sends a Fetch per wake-up: with a KIP-227 session (librdkafka
2.16, the Java client) mostly an incremental one naming the one or few
partitions whose fetch offset moved. The generated decoder makes a
``FetchRequest``, a ``FetchTopic`` per topic and a ``FetchPartition`` per
partition, which the handler only turns into tuples. For the common shape
``decode`` reads the body into a ``PlainFetchRequest`` that carries those
tuples directly: ``wanted`` ((topic id, partition), fetch offset, partition
max bytes, current leader epoch), ``last_epochs`` ((topic id, partition) ->
last fetched epoch, when >= 0) and ``forgotten`` ((topic id, partition)),
besides the scalar fields. Anything else that reads the request (an error
answer, request metrics, a wrapped handler) gets the generated objects from
``topics`` / ``forgotten_topics_data`` / ``replica_state``, decoded from a copy
of the body on first use. The generated decoder is the reference:
``tests/unit/test_fetch_plain_request.py`` checks both agree.

What it does not take (``decode`` returns None, and the generic decoder
answers as it always has): versions other than 13-16, a replica id other
than -1 (v13-14), any tagged field (``cluster_id``, ``replica_state`` of a
follower, unknown tags, at any level), a null array, a length or count that
needs more than one varint byte (128 topics or partitions or more in one
array, a rack id of 127 bytes or more), and anything truncated.

Layout (v13-16; v13-14 start with ``replica_id int32``)::

    max_wait_ms int32, min_bytes int32, max_bytes int32, isolation_level int8,
    session_id int32, session_epoch int32
    topics: compact array of
        topic_id uuid
        partitions: compact array of
            partition int32, current_leader_epoch int32, fetch_offset int64,
            last_fetched_epoch int32, log_start_offset int64,
            partition_max_bytes int32, tagged fields
        tagged fields
    forgotten_topics_data: compact array of
        topic_id uuid, partitions: compact array of int32, tagged fields
    rack_id compact string, tagged fields
"""

from __future__ import annotations

from struct import Struct, error as StructError

from kwire.protocol import codec
from kwire.protocol.primitives import read_uuid

FIRST_VERSION = 13
LAST_VERSION = 16
_WITH_REPLICA = Struct(">iiiibii").unpack_from  # v13-14
_WITHOUT_REPLICA = Struct(">iiibii").unpack_from  # v15-16
_PARTITION = Struct(">iiqiqi").unpack_from
_INT32S = [Struct(f">{m}i").unpack_from for m in range(127)]  # a forgotten topic's partitions


class PlainFetchRequest:
    """A consumer's Fetch as ``decode`` read it; the generated fields on demand."""

    __slots__ = ("max_wait_ms", "min_bytes", "max_bytes", "isolation_level", "session_id",
                 "session_epoch", "replica_id", "rack_id", "wanted", "last_epochs", "forgotten",
                 "_version", "_body", "_full")

    def _generated(self):
        if self._full is None:
            self._full = codec.decode_request(1, self._version, self._body, 0)
        return self._full

    topics = property(lambda self: self._generated().topics)
    forgotten_topics_data = property(lambda self: self._generated().forgotten_topics_data)
    replica_state = property(lambda self: self._generated().replica_state)
    cluster_id = property(lambda self: self._generated().cluster_id)
    unknown_tagged_fields = property(lambda self: self._generated().unknown_tagged_fields)

    def __eq__(self, other):
        return self._generated() == other

    __hash__ = None

    def __repr__(self) -> str:
        return f"Plain{self._generated()!r}"


class _Other(Exception):
    """Not the shape read here: the generic decoder reads the request."""


def _count(buf, pos: int) -> tuple[int, int]:
    """A compact array's (or string's) length in one varint byte, not null: (n, pos after)."""
    n = buf[pos] - 1
    if n < 0 or n > 126:
        raise _Other
    return n, pos + 1


def _no_tags(buf, pos: int) -> int:
    """An empty tagged-field section: the position after it."""
    if buf[pos]:
        raise _Other
    return pos + 1


def decode(buf, pos: int, version: int) -> PlainFetchRequest | None:
    """The body of a Fetch ``version`` request from ``pos`` of ``buf``, or None when it is not
    the shape read here (the generic decoder then reads it)."""
    if not FIRST_VERSION <= version <= LAST_VERSION:
        return None
    start = pos
    try:
        if version < 15:
            replica_id, max_wait, min_bytes, max_bytes, isolation, sid, epoch = _WITH_REPLICA(buf, pos)
            if replica_id != -1:
                return None
            pos += 25
        else:
            max_wait, min_bytes, max_bytes, isolation, sid, epoch = _WITHOUT_REPLICA(buf, pos)
            pos += 21
        wanted = []
        last_epochs = {}
        n, pos = _count(buf, pos)
        for _ in range(n):
            ref, pos = read_uuid(buf, pos)
            m, pos = _count(buf, pos)
            for _ in range(m):
                partition, leader_epoch, offset, last_epoch, _log_start, part_max = _PARTITION(buf, pos)
                pos = _no_tags(buf, pos + 32)
                key = (ref, partition)
                wanted.append((key, offset, part_max, leader_epoch))
                if last_epoch >= 0:
                    last_epochs[key] = last_epoch
            pos = _no_tags(buf, pos)
        forgotten = []
        n, pos = _count(buf, pos)
        for _ in range(n):
            ref, pos = read_uuid(buf, pos)
            m, pos = _count(buf, pos)
            forgotten += [(ref, p) for p in _INT32S[m](buf, pos)]
            pos = _no_tags(buf, pos + 4 * m)
        n, pos = _count(buf, pos)  # rack_id: a compact string (never null in the schema)
        end = pos + n
        if end > len(buf):
            return None
        rack_id = str(buf[pos:end], "utf-8")
        pos = _no_tags(buf, end)  # none: no cluster_id, no replica_state, no unknown tags
    except (_Other, IndexError, StructError, ValueError):  # truncated or malformed: the generic
        return None  # decoder says what is wrong
    r = PlainFetchRequest()
    r.max_wait_ms = max_wait
    r.min_bytes = min_bytes
    r.max_bytes = max_bytes
    r.isolation_level = isolation
    r.session_id = sid
    r.session_epoch = epoch
    r.replica_id = -1
    r.rack_id = rack_id
    r.wanted = wanted
    r.last_epochs = last_epochs
    r.forgotten = forgotten
    r._version = version
    r._body = bytes(buf[start:pos])
    r._full = None
    return r
