"""ListOffsets (key 2), v1-11: offsets by time or by position in the log.

Special timestamps (Kafka's ListOffsetsRequest constants):
    -1 latest: the offset the next record will get, as visible to the asker —
       the high watermark (read_uncommitted) or the last stable offset
       (read_committed). Not the base offset of the last batch + 1.
    -2 earliest: the log start offset.
    -3 max timestamp (KIP-734): the offset of the record with the largest timestamp.
    -4 earliest local (KIP-405): the log start offset (no tiered storage here).
    -5 latest tiered (KIP-1005): nothing is tiered, so offset -1.
    -6 earliest pending upload (v11): nothing is tiered, so offset -1.
A timestamp >= 0 finds the first offset whose record timestamp is >= it, looking
inside batches (the log decodes only the batch that holds the answer); -1/-1
when there is none (at read_committed also when the answer is at or past the
last stable offset, as Kafka's Partition.fetchOffsetForTimestamp; likewise
for -3). Leader epochs in the request are checked (v4+:
FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH) and the current one is returned.
A stored batch that fails its CRC or does not decode answers CORRUPT_MESSAGE
for that partition (logged with segment file and position), any other
failure UNKNOWN_SERVER_ERROR; the connection stays open. A partition whose
log dir is offline answers KAFKA_STORAGE_ERROR to every version: unlike Fetch
(v4-5) and Produce (v3), Kafka does not turn it into NOT_LEADER_OR_FOLLOWER for
old ListOffsets versions (``KafkaApis`` / ``ReplicaManager`` pass
KafkaStorageException through as is).
Cluster mode (ZooKeeper): only the leader answers (NOT_LEADER_OR_FOLLOWER
elsewhere), except for the debugging replica id -2, as Kafka's
``fetchOnlyFromLeader``; a request with a replica id (>= 0: a follower
looking up where to restart after OFFSET_OUT_OF_RANGE, or -2) gets the log
end offset for -1, not the HW (Kafka applies the isolation level to
consumers only).
Not implemented: tiered storage.
"""

from __future__ import annotations

import logging

from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.list_offsets_response import (
    ListOffsetsPartitionResponse,
    ListOffsetsResponse,
    ListOffsetsTopicResponse,
)

log = logging.getLogger("kwire.list_offsets")

API_KEY = 2
MIN_VERSION = 1
MAX_VERSION = 11

LATEST, EARLIEST, MAX_TIMESTAMP, EARLIEST_LOCAL, LATEST_TIERED, EARLIEST_PENDING_UPLOAD = -1, -2, -3, -4, -5, -6
READ_COMMITTED = 1


def handle(ctx, req) -> ListOffsetsResponse:
    broker = ctx.broker
    md = broker.metadata
    topics = []
    for rt in req.topics:
        t = md.topic(rt.name)
        parts = [_partition(broker, t, rp, req.isolation_level, ctx.api_version, req.replica_id)
                 if authorize(ctx, acl.DESCRIBE, acl.TOPIC, rt.name) else _unauthorized(rp)  # kwire.security
                 for rp in rt.partitions]
        topics.append(ListOffsetsTopicResponse(name=rt.name, partitions=parts))
    return ListOffsetsResponse(throttle_time_ms=0, topics=topics)


CONSUMER_REPLICA_ID, DEBUGGING_REPLICA_ID = -1, -2


def _unauthorized(rp) -> ListOffsetsPartitionResponse:
    return ListOffsetsPartitionResponse(partition_index=rp.partition_index, timestamp=-1, offset=-1,
                                        leader_epoch=-1, error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED)


def _partition(broker, t, rp, isolation: int, version: int,
               replica_id: int = CONSUMER_REPLICA_ID) -> ListOffsetsPartitionResponse:
    out = ListOffsetsPartitionResponse(partition_index=rp.partition_index, error_code=0,
                                       timestamp=-1, offset=-1, leader_epoch=-1)
    plog = broker.get_log(t.name, rp.partition_index) if t is not None else None
    if plog is None or not 0 <= rp.partition_index < len(t.partitions):
        out.error_code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        if t is not None and broker.partition_offline(t.name, rp.partition_index):
            out.error_code = ErrorCode.KAFKA_STORAGE_ERROR
        elif t is not None and broker.cluster_mode and 0 <= rp.partition_index < len(t.partitions):
            out.error_code = ErrorCode.NOT_LEADER_OR_FOLLOWER  # known, not hosted here
        return out
    if plog.offline:  # its log dir failed (kwire.log.manager)
        out.error_code = ErrorCode.KAFKA_STORAGE_ERROR
        return out
    epoch = t.partitions[rp.partition_index].leader_epoch
    if rp.current_leader_epoch >= 0 and rp.current_leader_epoch != epoch:
        out.error_code = (ErrorCode.FENCED_LEADER_EPOCH if rp.current_leader_epoch < epoch
                          else ErrorCode.UNKNOWN_LEADER_EPOCH)
        return out
    if (broker.cluster_mode and replica_id != DEBUGGING_REPLICA_ID
            and not broker.is_leader(t.name, rp.partition_index)):
        out.error_code = ErrorCode.NOT_LEADER_OR_FOLLOWER
        return out
    ts = rp.timestamp
    if version >= 4:  # the field exists from v4 and is not ignorable
        out.leader_epoch = epoch
    try:
        if ts == LATEST and replica_id != CONSUMER_REPLICA_ID and broker.cluster_mode:
            out.offset = plog.log_end_offset  # a replica (or debugging) asks: the LEO
        elif ts == LATEST:
            out.offset = plog.last_stable_offset if isolation == READ_COMMITTED else plog.high_watermark
        elif ts in (EARLIEST, EARLIEST_LOCAL):
            out.offset = plog.log_start_offset
        elif ts == MAX_TIMESTAMP:
            found = plog.offset_of_max_timestamp()
            if found is not None:
                out.offset, out.timestamp = found
        elif ts >= 0:
            found = plog.offset_for_timestamp(ts)
            if found is not None:
                out.offset, out.timestamp = found
        if ts >= 0 or ts == MAX_TIMESTAMP:  # read_committed: nothing at or past the LSO (Kafka's
            if isolation == READ_COMMITTED and out.offset >= plog.last_stable_offset:  # Partition)
                out.offset, out.timestamp = -1, -1
        # LATEST_TIERED, EARLIEST_PENDING_UPLOAD and unknown negatives: nothing tiered, -1
    except KafkaError as e:  # CORRUPT_MESSAGE from a stored batch that does not decode (search.py)
        out.error_code = e.code
    except Exception:  # never let bad stored data cost the client its connection
        log.exception("ListOffsets %s-%d timestamp %d failed", t.name, rp.partition_index, ts)
        out.error_code = ErrorCode.UNKNOWN_SERVER_ERROR
    return out
