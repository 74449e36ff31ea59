"""OffsetForLeaderEpoch (key 23), v2-4: where a leader epoch ends in this leader's log.

Per partition: the largest epoch <= the requested ``leader_epoch`` that the
leader-epoch cache knows, and its end offset -- the start offset of the next
known epoch, or the log end offset when it is the latest epoch (KIP-101,
KIP-279). When the requested epoch is below every known epoch (or the cache
is empty) the answer is NONE with epoch -1 and end offset -1, as Kafka's
``Partition.lastOffsetForLeaderEpoch`` answers. A follower truncates to that
end offset; a consumer (KIP-320) uses it to detect log truncation after a
leader change.

Errors, in Kafka's order (``ReplicaManager.lastOffsetForLeaderEpoch``,
``Partition.getLocalLog``):

* the partition's log dir is offline: KAFKA_STORAGE_ERROR;
* topic or partition unknown: UNKNOWN_TOPIC_OR_PARTITION; known but not hosted
  here: NOT_LEADER_OR_FOLLOWER;
* ``current_leader_epoch`` (-1 = not checked) older than the partition's:
  FENCED_LEADER_EPOCH; newer: UNKNOWN_LEADER_EPOCH;
* this broker is not the leader: NOT_LEADER_OR_FOLLOWER (Kafka serves the API
  only from leaders, for followers and consumers alike).

``replica_id`` (v3+; -1 a consumer, -2 unset, >= 0 a follower's broker id) does
not change the answer. Authorization (Kafka's KafkaApis, whatever the
replica id): CLUSTER_ACTION on the cluster (followers), else DESCRIBE on each
topic (consumers, KIP-320), else TOPIC_AUTHORIZATION_FAILED for its partitions.

Version notes: v0-1 were removed in Kafka 4.0 (KIP-896); v2 added
``current_leader_epoch`` (KIP-320), v3 ``replica_id``, v4 is flexible.
Not implemented: tiered storage.
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.offset_for_leader_epoch_response import (
    EpochEndOffset,
    OffsetForLeaderEpochResponse,
    OffsetForLeaderTopicResult,
)

API_KEY = 23
MIN_VERSION = 2
MAX_VERSION = 4

E = ErrorCode


def handle(ctx, req) -> OffsetForLeaderEpochResponse:
    broker = ctx.broker
    md = broker.metadata
    topics = []
    cluster_action = authorize(ctx, acl.CLUSTER_ACTION, acl.CLUSTER, acl.CLUSTER_NAME)  # kwire.security
    for rt in req.topics:
        t = md.topic(rt.topic)
        if not (cluster_action or authorize(ctx, acl.DESCRIBE, acl.TOPIC, rt.topic)):  # kwire.security
            parts = [EpochEndOffset(error_code=E.TOPIC_AUTHORIZATION_FAILED, partition=rp.partition,
                                    leader_epoch=-1, end_offset=-1) for rp in rt.partitions]
        else:
            parts = [_partition(broker, t, rt.topic, rp) for rp in rt.partitions]
        topics.append(OffsetForLeaderTopicResult(topic=rt.topic, partitions=parts))
    return OffsetForLeaderEpochResponse(throttle_time_ms=0, topics=topics)


def _partition(broker, t, name: str, rp) -> EpochEndOffset:
    out = EpochEndOffset(error_code=0, partition=rp.partition, leader_epoch=-1, end_offset=-1)
    error = epoch_end_offset(broker, t, name, rp.partition, rp.current_leader_epoch,
                             rp.leader_epoch, out)
    out.error_code = error
    return out


def epoch_end_offset(broker, t, name: str, partition: int, current_leader_epoch: int,
                     leader_epoch: int, out) -> int:
    """Fill ``out.leader_epoch`` / ``out.end_offset`` for one partition; returns the error code.

    Shared with Fetch's diverging-epoch check (``fetch.py``), which asks the same question.
    """
    if broker.partition_offline(name, partition):
        return E.KAFKA_STORAGE_ERROR
    if t is None or not 0 <= partition < len(t.partitions):
        return E.UNKNOWN_TOPIC_OR_PARTITION
    plog = broker.get_log(name, partition)
    if plog is None:
        return E.NOT_LEADER_OR_FOLLOWER
    if plog.offline:
        return E.KAFKA_STORAGE_ERROR
    pstate = t.partitions[partition]
    if current_leader_epoch >= 0 and current_leader_epoch != pstate.leader_epoch:
        return (E.FENCED_LEADER_EPOCH if current_leader_epoch < pstate.leader_epoch
                else E.UNKNOWN_LEADER_EPOCH)
    if pstate.leader != broker.node_id or not broker.is_leader(name, partition):
        return E.NOT_LEADER_OR_FOLLOWER
    out.leader_epoch, out.end_offset = plog.end_offset_for_epoch(leader_epoch)
    return E.NONE
