"""Helpers of the share coordinator's five state APIs (not an API module itself).

Initialize / Read / Write / Delete ShareGroupState and ReadShareGroupStateSummary
(keys 83-87) are what a share-partition leader sends to the share coordinator
in Kafka. kwire serves them from the state store of ``kwire.share.state``;
``per_partition`` runs an operation for every (topic, partition) of a request
and builds the response, with Kafka's rules: CLUSTER_ACTION on the cluster
(else CLUSTER_AUTHORIZATION_FAILED for every partition), an empty group id
INVALID_REQUEST. In a cluster a partition whose ``__share_group_state``
partition this broker does not lead answers NOT_COORDINATOR (the topic not yet
created: COORDINATOR_NOT_AVAILABLE), and the answer waits until every write is
committed (acks=all on the state partition); a write that is not answers its
error (NOT_COORDINATOR when leadership moved, REQUEST_TIMED_OUT, ...).
"""

from __future__ import annotations

import uuid

from kwire.protocol.errors import ErrorCode as E, KafkaError
from kwire.security import acl
from kwire.security.authorizer import authorize


def per_partition(ctx, req, op, response_cls, result_cls, partition_cls):
    """``op(store, group id, topic id bytes, partition request) -> dict`` of the partition
    result's fields (error_code 0 unless it says otherwise), or ``(dict, Commit)`` when it
    wrote: the response then waits for the commit."""
    store = ctx.broker.share_partitions.store
    allowed = authorize(ctx, acl.CLUSTER_ACTION, acl.CLUSTER, acl.CLUSTER_NAME)  # kwire.security
    results, commits = [], []
    for t in req.topics:
        parts = []
        for p in t.partitions:
            commit = None
            if not allowed:
                fields = {"error_code": E.CLUSTER_AUTHORIZATION_FAILED}
            elif not req.group_id:
                fields = {"error_code": E.INVALID_REQUEST, "error_message": "Group id must be set."}
            else:
                try:
                    fields = op(store, req.group_id, t.topic_id.bytes, p)
                except KafkaError as e:
                    fields = {"error_code": e.code, "error_message": e.message}
                if isinstance(fields, tuple):
                    fields, commit = fields
            part = partition_cls(partition=p.partition, **fields)
            if commit is not None:
                commits.append((part, commit))
            parts.append(part)
        results.append(result_cls(topic_id=uuid.UUID(bytes=t.topic_id.bytes), partitions=parts))
    response = response_cls(results=results)
    return _when_committed(store, commits, response) if commits else response


async def _when_committed(store, commits, response):
    for part, commit in commits:
        code = await store.committed(commit)
        if code:
            part.error_code, part.error_message = code, f"The state was not written: {code.name}."
    return response


def not_initialized(store, group_id: str, topic_id: bytes, partition: int):
    """The stored entry, or the error fields Kafka answers for a partition never initialized."""
    e = store.entry(group_id, topic_id, partition)
    if e is None:
        return None, {"error_code": E.UNKNOWN_TOPIC_OR_PARTITION,
                      "error_message": "The share partition has not been initialized."}
    return e, None
