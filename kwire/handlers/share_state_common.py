"""Helpers of the share coordinator's five state APIs (not an API module itself).

Initialize / Read / Write / Delete ShareGroupState and ReadShareGroupStateSummary
(keys 83-87) are what a share-partition leader sends to the share coordinator
in Kafka. kwire serves them from the state store of ``kwire.share.state`` on
one broker; ``per_partition`` runs an operation for every (topic, partition)
of a request and builds the response, with Kafka's rules: CLUSTER_ACTION on the
cluster (else CLUSTER_AUTHORIZATION_FAILED for every partition), an empty group
id INVALID_REQUEST, in cluster mode (no durable store) COORDINATOR_NOT_AVAILABLE.
"""

from __future__ import annotations

import uuid

from kwire.protocol.errors import ErrorCode as E
from kwire.security import acl
from kwire.security.authorizer import authorize


def per_partition(ctx, req, op, response_cls, result_cls, partition_cls):
    """``op(store, group id, topic id bytes, partition request) -> dict`` of the partition
    result's fields (error_code 0 unless it says otherwise)."""
    store = ctx.broker.share_partitions.store
    allowed = authorize(ctx, acl.CLUSTER_ACTION, acl.CLUSTER, acl.CLUSTER_NAME)  # kwire.security
    results = []
    for t in req.topics:
        parts = []
        for p in t.partitions:
            if not allowed:
                fields = {"error_code": E.CLUSTER_AUTHORIZATION_FAILED}
            elif not req.group_id:
                fields = {"error_code": E.INVALID_REQUEST, "error_message": "Group id must be set."}
            elif store is None:
                fields = {"error_code": E.COORDINATOR_NOT_AVAILABLE}
            else:
                fields = op(store, req.group_id, t.topic_id.bytes, p)
            parts.append(partition_cls(partition=p.partition, **fields))
        results.append(result_cls(topic_id=uuid.UUID(bytes=t.topic_id.bytes), partitions=parts))
    return response_cls(results=results)


def not_initialized(store, group_id: str, topic_id: bytes, partition: int):
    """The stored entry, or the error fields Kafka answers for a partition never initialized."""
    e = store.entry(group_id, topic_id, partition)
    if e is None:
        return None, {"error_code": E.UNKNOWN_TOPIC_OR_PARTITION,
                      "error_message": "The share partition has not been initialized."}
    return e, None
