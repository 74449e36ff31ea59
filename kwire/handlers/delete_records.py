"""DeleteRecords (key 21), v0-2: move partitions' log start offsets forward (KIP-107).

For each partition the log start offset (the "low watermark") moves up to the
requested offset: records below it are no longer served (a fetch or a
ListOffsets below it answers OFFSET_OUT_OF_RANGE / returns the new start),
and whole segments below it are deleted by the log. The response carries the
partition's low watermark after the call. On one node every replica is this
one, so there is nothing to wait for and ``timeout_ms`` is not needed.

Per partition, as Kafka's ``Partition.deleteRecordsOnLeader``:

* an unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION (low watermark -1);
* a topic whose ``cleanup.policy`` does not include ``delete``:
  POLICY_VIOLATION;
* offset -1 means "up to the high watermark"; any other negative offset, or
  one above the high watermark, answers OFFSET_OUT_OF_RANGE;
* an offset at or below the current log start offset changes nothing and
  answers the current low watermark.

In a cluster only the leader moves the log start (NOT_LEADER_OR_FOLLOWER on
other brokers); followers follow it through the log start offset of the
leader's fetch answers. The answer does not wait for them (Kafka's
DelayedDeleteRecords does): the low watermark returned is the leader's.

v2 is the first flexible version; v1 changed nothing on the wire.
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.delete_records_response import (
    DeleteRecordsPartitionResult,
    DeleteRecordsResponse,
    DeleteRecordsTopicResult,
)

API_KEY = 21
MIN_VERSION = 0
MAX_VERSION = 2

HIGH_WATERMARK = -1
INVALID_LOW_WATERMARK = -1


def delete_before(broker, topic_name: str, partition: int, offset: int) -> int:
    """Advance one partition's log start offset; return the new low watermark."""
    plog = broker.get_log(topic_name, partition)
    if plog is None and broker.partition_offline(topic_name, partition):  # dir failed at start-up
        raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"the log dir of {topic_name}-{partition} is offline")
    if plog is None or broker.metadata.partition(topic_name, partition) is None:
        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
    if getattr(broker, "cluster_mode", False) and not broker.is_leader(topic_name, partition):
        raise broker.not_leader_error(topic_name, partition)
    if not plog.config.delete_enabled:
        raise KafkaError(ErrorCode.POLICY_VIOLATION,
                         f"Records of partition {topic_name}-{partition} can not be deleted due to "
                         f"the configured policy")
    hw = plog.high_watermark
    target = hw if offset == HIGH_WATERMARK else offset
    if target < 0:
        raise KafkaError(ErrorCode.OFFSET_OUT_OF_RANGE,
                         f"The offset {target} for partition {topic_name}-{partition} is not valid")
    if target > hw:
        raise KafkaError(ErrorCode.OFFSET_OUT_OF_RANGE,
                         f"Cannot increment the log start offset to {target} of partition "
                         f"{topic_name}-{partition} since it is larger than the high watermark {hw}")
    # The log checks the range again and deletes the segments wholly below the new start.
    return plog.delete_records_before(target)


def handle(ctx, req) -> DeleteRecordsResponse:
    topics = []
    for rt in req.topics:
        parts = []
        may = authorize(ctx, acl.DELETE, acl.TOPIC, rt.name)  # kwire.security
        for rp in rt.partitions:
            try:
                if not may:
                    raise KafkaError(ErrorCode.TOPIC_AUTHORIZATION_FAILED)
                low = delete_before(ctx.broker, rt.name, rp.partition_index, rp.offset)
                code = ErrorCode.NONE
            except KafkaError as e:
                low, code = INVALID_LOW_WATERMARK, e.code
            parts.append(DeleteRecordsPartitionResult(partition_index=rp.partition_index,
                                                      low_watermark=low, error_code=code))
        topics.append(DeleteRecordsTopicResult(name=rt.name, partitions=parts))
    return DeleteRecordsResponse(topics=topics)
