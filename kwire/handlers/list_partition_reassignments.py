"""ListPartitionReassignments (key 46), v0: partition reassignments in progress (KIP-455).

Answers from the metadata's ``ongoing_reassignments()``: each partition being
reassigned with its full replica set and the replicas being added and
removed. ``topics`` null lists every reassignment in progress; otherwise only
those among the named partitions. As in Kafka's controller
(``ReplicationControlManager.listPartitionReassignments``), unknown topics and
partitions, and partitions not being reassigned, are left out rather than
answered with an error; topics with nothing listed are left out too.

On kwire's single broker no reassignment is ever in progress (see
AlterPartitionReassignments), so the list is empty. ``timeout_ms`` is not
needed. v0 is flexible.
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.list_partition_reassignments_response import (
    ListPartitionReassignmentsResponse,
    OngoingPartitionReassignment,
    OngoingTopicReassignment,
)

API_KEY = 46
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req) -> ListPartitionReassignmentsResponse:
    ongoing = ctx.broker.metadata.ongoing_reassignments()
    if req.topics is None:
        wanted = sorted(ongoing)
    else:
        wanted = [(t.name, p) for t in req.topics for p in dict.fromkeys(t.partition_indexes)
                  if (t.name, p) in ongoing]
    by_topic: dict[str, list[OngoingPartitionReassignment]] = {}
    for name, p in wanted:
        r = ongoing[(name, p)]
        by_topic.setdefault(name, []).append(OngoingPartitionReassignment(
            partition_index=p, replicas=list(r.replicas), adding_replicas=list(r.adding_replicas),
            removing_replicas=list(r.removing_replicas)))
    return ListPartitionReassignmentsResponse(
        error_code=ErrorCode.NONE, error_message=None,
        topics=[OngoingTopicReassignment(name=n, partitions=ps) for n, ps in by_topic.items()])
