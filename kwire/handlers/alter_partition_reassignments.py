"""AlterPartitionReassignments (key 45), v0-1: change partitions' replica sets (KIP-455).

The checks and the change are the metadata's (``alter_reassignment``); this
module shapes the answer. Per partition, as Kafka's controller
(``ReplicationControlManager.alterPartitionReassignments``):

* an unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION;
* ``replicas`` null cancels the partition's reassignment: with none in
  progress, NO_REASSIGNMENT_IN_PROGRESS (85);
* an empty replica list, a broker named twice, or a broker that is not
  registered: INVALID_REPLICA_ASSIGNMENT (39) with Kafka's messages;
* v1 (KIP-860) ``allow_replication_factor_change`` false and a target of
  another size: INVALID_REPLICATION_FACTOR; the response echoes the flag;
* a target equal to the current replicas: NONE, and nothing changes.

On kwire's single broker the only valid target is ``[this broker]``, which
is every partition's current replica set, so a valid request is always a
no-op and no reassignment is ever left in progress. The top-level error is
NONE; ``timeout_ms`` is not needed. v0 is flexible.
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.protocol.generated.alter_partition_reassignments_response import (
    AlterPartitionReassignmentsResponse,
    ReassignablePartitionResponse,
    ReassignableTopicResponse,
)

API_KEY = 45
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, req) -> AlterPartitionReassignmentsResponse:
    metadata = ctx.broker.metadata
    allow_rf_change = req.allow_replication_factor_change if ctx.api_version >= 1 else True
    responses = []
    for t in req.topics:
        parts = []
        for p in t.partitions:
            try:
                metadata.alter_reassignment(t.name, p.partition_index, p.replicas, allow_rf_change)
                code, message = ErrorCode.NONE, None
            except KafkaError as e:
                code, message = e.code, e.message
            parts.append(ReassignablePartitionResponse(partition_index=p.partition_index,
                                                       error_code=code, error_message=message))
        responses.append(ReassignableTopicResponse(name=t.name, partitions=parts))
    return AlterPartitionReassignmentsResponse(
        allow_replication_factor_change=allow_rf_change, error_code=ErrorCode.NONE,
        error_message=None, responses=responses)
