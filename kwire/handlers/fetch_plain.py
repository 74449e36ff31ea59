"""A plain Fetch answer, encoded straight from the handler's reads (no ``PartitionData``).

Most consumer Fetch answers are plain: every partition without an error, a
diverging epoch, a current leader or aborted transactions; only offsets and
records. With or without a fetch session (KIP-227; librdkafka 2.16 opens
one): the handler has done the session's bookkeeping and kept the partitions
an incremental answer lists before it makes a plain answer, which writes the
session id it is given. Records already in memory (a region below the
sendfile size, read when it was made) are copied into the answer, so that a
small answer is one chunk, sent with one write; larger regions stay parts of
their own, sent with ``sendfile``.
``PlainFetchResponse`` is such an answer: a ``FetchResponse`` whose body is
written from the ``fetch._Read`` of each partition (``codec.SelfEncoding``),
so the six ``PartitionData`` and their generated encoding are skipped. Its
``responses`` are built from the reads only if something asks for them (the
request metrics, a test); assigning ``responses`` makes it an ordinary
answer again, encoded by the generated codec.

Only the flexible versions (v12+) are written here, the ones current clients
send; older versions, and any answer that is not plain, are built by
``fetch._response`` and encoded by the generated codec, which is the
reference: ``tests/unit/test_fetch_answer_build.py`` checks the bytes are
the same for every version and shape.

Layout written (v12+; a topic is named from v13 by its id)::

    throttle_time_ms int32, error_code int16 (0), session_id int32
    responses: compact array of
        topic (compact string, v12) | topic_id (uuid, v13+)
        partitions: compact array of
            partition_index int32, error_code int16 (0), high_watermark int64,
            last_stable_offset int64, log_start_offset int64,
            aborted_transactions (null), preferred_read_replica int32 (-1),
            records (compact), tagged fields (none)
        tagged fields (none)
    tagged fields (none: no node endpoints)
"""

from __future__ import annotations

from struct import Struct

from kwire.protocol.codec import SelfEncoding
from kwire.protocol.generated import fetch_response as _wire
from kwire.protocol.generated.fetch_response import FetchResponse
from kwire.protocol.primitives import write_compact_records, write_compact_string, write_uvarint

FIRST_VERSION = 12  # the first flexible version with current_leader: what is written here
_IHI = Struct(">ihi").pack
_PARTITION = Struct(">ihqqq").pack
_MIDDLE = b"\x00\xff\xff\xff\xff"  # aborted_transactions null, preferred_read_replica -1
_CAUGHT_UP = _MIDDLE + b"\x01\x00"  # ... then no records (compact length 0) and no tagged fields
_ENCODERS = _wire.ENCODERS


def plain(results, version: int) -> bool:
    """True when every read can be written here (and the version is v12+)."""
    if version < FIRST_VERSION:
        return False
    for r in results:
        if r.error or r.diverging is not None or r.leader is not None or r.aborted is not None:
            return False
    return True


class PlainFetchResponse(FetchResponse, SelfEncoding):
    """A plain Fetch answer (``plain`` said so), written from its reads."""

    __slots__ = ("_reads", "_responses", "_build")

    def __init__(self, reads, build, session_id: int = 0) -> None:
        """``reads``: the ``_Read`` of each partition, in answer order (a session's already
        filtered); ``build(reads)``: the generated topic responses for them (``fetch._build``),
        made only when asked for; ``session_id``: the fetch session's, or 0."""
        self.throttle_time_ms = 0
        self.error_code = 0
        self.session_id = session_id
        self.node_endpoints = []
        self.unknown_tagged_fields = {}
        self._reads = reads
        self._responses = None
        self._build = build

    @property
    def responses(self):
        if self._responses is None:
            self._responses = self._build(self._reads)
        return self._responses

    @responses.setter
    def responses(self, value) -> None:
        self._responses = value
        self._reads = None  # no longer what the reads say: the generated encoder writes it

    def __eq__(self, other):
        if not isinstance(other, FetchResponse):
            return NotImplemented
        return (self.throttle_time_ms == other.throttle_time_ms and self.error_code == other.error_code
                and self.session_id == other.session_id and self.responses == other.responses
                and self.node_endpoints == other.node_endpoints
                and self.unknown_tagged_fields == other.unknown_tagged_fields)

    __hash__ = None

    def encode_body(self, version: int, out: bytearray, parts: list) -> None:
        reads = self._reads
        if reads is None or self.node_endpoints or self.unknown_tagged_fields or self.error_code \
                or version < FIRST_VERSION:
            _ENCODERS[version](self, out, parts)
            return
        out += _IHI(self.throttle_time_ms, 0, self.session_id)
        by_id = version >= 13
        # topics: runs of reads with the same topic reference, as fetch._build groups them
        runs = []
        last = object()
        for r in reads:
            ref = r.key[0]
            if ref is not last and ref != last:
                runs.append([ref])
                last = ref
            runs[-1].append(r)
        write_uvarint(out, len(runs) + 1)
        for run in runs:
            ref = run[0]
            if by_id:
                out += ref.bytes
            else:
                write_compact_string(out, ref)
            write_uvarint(out, len(run))  # the partitions: len(run) - 1, plus one
            for i in range(1, len(run)):
                r = run[i]
                out += _PARTITION(r.partition, 0, r.hw, r.lso, r.log_start)
                records = r.records
                if records.__class__ is bytes and not records:  # caught up: most partitions
                    out += _CAUGHT_UP
                else:
                    out += _MIDDLE
                    if records.__class__ is not bytes and not records.in_file():
                        # a region read when it was made (below the sendfile size): its bytes
                        # go into the answer, which stays one chunk and one write
                        records = records.read()
                    write_compact_records(out, parts, records)
                    out.append(0)
            out.append(0)
        out.append(0)
