"""DescribeProducers (key 61), v0: the active producers of partitions this broker leads.

Per partition, from the log's producer state (``kwire.log.producer_state``):
producer id, epoch, last sequence, last timestamp (of its last batch or
marker), the coordinator epoch of its last marker (-1 before its first one;
``kafka-transactions.sh abort`` sends it back in WriteTxnMarkers) and the
first offset of its open transaction (-1 when none). UNKNOWN_TOPIC_OR_PARTITION
for a partition that does not exist, NOT_LEADER_OR_FOLLOWER where this broker
does not lead it (the admin client asks each partition's leader).
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.describe_producers_response import (
    DescribeProducersResponse,
    PartitionResponse,
    ProducerState,
    TopicResponse,
)

API_KEY = 61
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req):
    broker = ctx.broker
    topics = []
    for t in req.topics:
        parts = []
        may = authorize(ctx, acl.READ, acl.TOPIC, t.name)  # kwire.security
        for p in t.partition_indexes:
            if not may:
                parts.append(PartitionResponse(partition_index=p, error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                                               active_producers=[]))
                continue
            plog = broker.get_log(t.name, p) if broker.metadata.partition(t.name, p) is not None else None
            if broker.metadata.partition(t.name, p) is None:
                parts.append(PartitionResponse(partition_index=p, error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                                               active_producers=[]))
                continue
            if plog is None or not broker.is_leader(t.name, p):
                parts.append(PartitionResponse(partition_index=p, error_code=ErrorCode.NOT_LEADER_OR_FOLLOWER,
                                               active_producers=[]))
                continue
            producers = [ProducerState(producer_id=e.producer_id, producer_epoch=e.epoch,
                                       last_sequence=e.last_seq, last_timestamp=e.last_timestamp,
                                       coordinator_epoch=e.coordinator_epoch,
                                       current_txn_start_offset=e.current_txn_first_offset)
                         for e in list(plog.producer_state.producers.values())]
            parts.append(PartitionResponse(partition_index=p, error_code=0, active_producers=producers))
        topics.append(TopicResponse(name=t.name, partitions=parts))
    return DescribeProducersResponse(throttle_time_ms=0, topics=topics)
