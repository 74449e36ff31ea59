"""WriteTxnMarkers (key 27), v1-2: the transaction coordinator writes COMMIT/ABORT markers.

Sent by the broker hosting a transaction coordinator to the leader of each
partition of a finished transaction (``kwire.transactions.markers``). Each
marker is appended as a control batch (producer id and epoch of the
transaction, the coordinator epoch in its value) to every named partition
this broker leads, with acks=all semantics in cluster mode; per partition:
UNKNOWN_TOPIC_OR_PARTITION, NOT_LEADER_OR_FOLLOWER, or the append's error.
The partition log checks each marker as Kafka's
``ProducerAppendInfo.appendEndTxnMarker``: INVALID_PRODUCER_EPOCH for a
producer epoch below the one the partition knows -- with v2's
``transaction_version`` 2 (transactions v2, the coordinator bumped the epoch)
also for an equal one, unless the producer has no open transaction in the
partition (a resent marker: written again) -- then
TRANSACTION_COORDINATOR_FENCED for a coordinator epoch below the last one a
marker of that producer carried (a zombie coordinator); either way nothing is
written. Markers on ``__consumer_offsets`` complete the group coordinator's
pending transactional offsets (not when refused).

Authorization (kwire.security): the server's cluster gate
(``authorizer.CLUSTER_GATED``) answers CLUSTER_AUTHORIZATION_FAILED on every
partition unless the principal has CLUSTER_ACTION (brokers) or ALTER (an
operator aborting a hanging transaction, KIP-664) on the cluster, as Kafka;
without an authorizer any principal may send it, as in Kafka.
v0 was removed in Kafka 4.0; v1 carries no ``transaction_version`` (0: the
pre-v2 rule).
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.write_txn_markers_response import (
    WritableTxnMarkerPartitionResult,
    WritableTxnMarkerResult,
    WritableTxnMarkerTopicResult,
    WriteTxnMarkersResponse,
)

API_KEY = 27
MIN_VERSION = 1
MAX_VERSION = 2
WAIT_S = 30.0


async def handle(ctx, req):
    broker = ctx.broker
    tc = broker.txn_coordinator
    out = []
    waits = []  # cluster mode: (partition result, topic, partition, offset the HW must reach)
    for m in req.markers:
        topics = []
        for t in m.topics:
            parts = []
            for p in t.partition_indexes:
                if broker.metadata.partition(t.name, p) is None:
                    code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                elif not broker.is_leader(t.name, p):
                    code = ErrorCode.NOT_LEADER_OR_FOLLOWER
                else:
                    code = tc.write_marker_locally(t.name, p, m.producer_id, m.producer_epoch,
                                                   m.coordinator_epoch, bool(m.transaction_result),
                                                   m.transaction_version)
                r = WritableTxnMarkerPartitionResult(partition_index=p, error_code=code)
                if code == ErrorCode.NONE and broker.cluster_mode:
                    plog = broker.get_log(t.name, p)
                    waits.append((r, t.name, p, plog.log_end_offset))
                parts.append(r)
            topics.append(WritableTxnMarkerTopicResult(name=t.name, partitions=parts))
        out.append(WritableTxnMarkerResult(producer_id=m.producer_id, topics=topics))
    if waits:  # acks=all, as Kafka appends markers
        codes = await broker.wait_all_replicated([(t, p, end) for _r, t, p, end in waits], WAIT_S)
        for (r, _t, _p, _e), code in zip(waits, codes):
            r.error_code = code
    return WriteTxnMarkersResponse(markers=out)
