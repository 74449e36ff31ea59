"""AlterPartitionReassignments (key 45), v0-1: change partitions' replica sets (KIP-455).

The checks and the change are the metadata's (``alter_reassignment``); this
module shapes the answer. Per partition, as Kafka's controller
(``ReplicationControlManager.alterPartitionReassignments``):

* an unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION;
* ``replicas`` null cancels the partition's reassignment: with none in
  progress, NO_REASSIGNMENT_IN_PROGRESS (85);
* an empty replica list, a broker named twice, a negative broker id, or a
  broker that is not registered: INVALID_REPLICA_ASSIGNMENT (39) with
  Kafka's messages;
* v1 (KIP-860) ``allow_replication_factor_change`` false and a target of
  another size: INVALID_REPLICATION_FACTOR; the response echoes the flag;
* a target equal to the current replicas: NONE, and nothing changes.

On kwire's single broker the only valid target is ``[this broker]``, which
is every partition's current replica set, so a valid request is always a
no-op and no reassignment is ever left in progress. The top-level error is
NONE; ``timeout_ms`` is not needed. v0 is flexible.

Cluster mode (``broker.cluster_mode``, ZooKeeper; Kafka 2.4+'s KIP-455
layout): the checks above, where "registered" means live, as Kafka's
``KafkaController.validateReplicas``: a replica being ADDED on a broker
without a /brokers/ids znode (never started, or dead: its session ended)
answers INVALID_REPLICA_ASSIGNMENT "Replica assignment has brokers that are
not alive. ...", and nothing is written; a dead broker that already holds a
replica may stay in the target. Then ``ZkMetadata.alter_reassignments`` writes the topic znode:
replicas = target + original, ``adding_replicas`` and ``removing_replicas``.
The answer comes once ZooKeeper has it; the controller completes the move
when every target replica is in the ISR (see ``kwire.cluster.controller``).
Cancelling (null replicas) reassigns to the original replicas.
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
    if getattr(ctx.broker, "cluster_mode", False):
        return _handle_cluster(metadata, req, allow_rf_change)
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


async def _handle_cluster(md, req, allow_rf_change: bool) -> AlterPartitionReassignmentsResponse:
    outcome: dict = {}
    valid = []
    for t in req.topics:
        for p in t.partitions:
            replicas = None if p.replicas is None else list(p.replicas)
            err = md.reassignment_error(t.name, p.partition_index, replicas, allow_rf_change)
            if err is not None:
                outcome[(t.name, p.partition_index)] = err
            else:
                valid.append((t.name, p.partition_index, replicas))
    if valid:
        try:
            outcome.update(await md.alter_reassignments(valid))
        except KafkaError as e:
            outcome.update({(n, p): e for n, p, _r in valid})
    written = {k: v for k, v in outcome.items() if not isinstance(v, KafkaError)}

    def shown() -> bool:
        """This broker's image has each change (or its completion), so a ListPartitionReassignments
        or Metadata sent here next sees it, as Kafka's controller answers after updating its context."""
        for (name, p), (replicas, adding, removing) in written.items():
            t = md.topic(name)
            if t is None or p >= len(t.partitions):
                continue
            q = t.partitions[p]
            target = [r for r in replicas if r not in removing]
            now = (q.replicas, q.adding_replicas or [], q.removing_replicas or [])
            if now != (replicas, adding, removing) and now != (target, [], []):
                return False
        return True

    if written:
        await md.until(shown, max(req.timeout_ms, 0) / 1000)
    outcome = {k: (v if isinstance(v, KafkaError) else None) for k, v in outcome.items()}
    responses = []
    for t in req.topics:
        parts = []
        for p in t.partitions:
            got = outcome.get((t.name, p.partition_index))
            parts.append(ReassignablePartitionResponse(
                partition_index=p.partition_index, error_code=got.code if got else ErrorCode.NONE,
                error_message=got.message if got else None))
        responses.append(ReassignableTopicResponse(name=t.name, partitions=parts))
    return AlterPartitionReassignmentsResponse(
        allow_replication_factor_change=allow_rf_change, error_code=ErrorCode.NONE,
        error_message=None, responses=responses)
