"""TxnOffsetCommit (key 28), v0-5: offsets committed as part of a transaction.

Sent to the group coordinator. The offsets are written to the group's
``__consumer_offsets`` partition as a transactional batch of the producer and
stay pending until the transaction's marker reaches that partition (COMMIT:
they become the committed offsets; ABORT: dropped); OffsetFetch with
``require_stable`` answers UNSTABLE_OFFSET_COMMIT meanwhile. v3+ (KIP-447)
carries generation, member id and instance id, checked as OffsetCommit does
(ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID). Group-level
errors (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, ...) are answered on
every partition, as Kafka does. The group's ``__consumer_offsets`` partition
must be part of the producer's ongoing transaction (AddOffsetsToTxn first:
KIP-890 part 1, as Kafka 3.6+ verifies it): else INVALID_TXN_STATE, or
TRANSACTION_ABORTABLE from v4; a stale epoch answers INVALID_PRODUCER_EPOCH.
v5 (transactions v2, KIP-890 part 2): no AddOffsetsToTxn; the group's
partition is added to the transaction implicitly instead of verified.

Authorization (Kafka's KafkaApis): WRITE on the transactional id, else
TRANSACTIONAL_ID_AUTHORIZATION_FAILED, then READ on the group, else
GROUP_AUTHORIZATION_FAILED, on every partition; then READ on each topic, else
its partitions answer TOPIC_AUTHORIZATION_FAILED; partitions of unknown topics
(or beyond the topic's count) UNKNOWN_TOPIC_OR_PARTITION. Only the remaining
ones are committed (none left: the coordinator is not asked).
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.coordinator.offsets import Commit
from kwire.coordinator.runtime import GROUP_METADATA_TOPIC
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.txn_offset_commit_response import (
    TxnOffsetCommitResponse,
    TxnOffsetCommitResponsePartition,
    TxnOffsetCommitResponseTopic,
)

API_KEY = 28
MIN_VERSION = 0
MAX_VERSION = 5


async def handle(ctx, req):
    v = ctx.api_version
    gc = ctx.broker.group_coordinator
    md = ctx.broker.metadata
    early: dict[tuple[str, int], int] = {}  # kwire.security and unknown partitions: not committed
    commits = []
    for t in req.topics:
        topic = md.topic(t.name)
        readable = authorize(ctx, acl.READ, acl.TOPIC, t.name)
        for p in t.partitions:
            if not readable:
                early[(t.name, p.partition_index)] = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            elif topic is None or not 0 <= p.partition_index < len(topic.partitions):
                early[(t.name, p.partition_index)] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            else:
                commits.append(Commit(t.name, p.partition_index, p.committed_offset,
                                      p.committed_leader_epoch if v >= 2 else -1, p.committed_metadata))
    generation = req.generation_id if v >= 3 else -1
    member_id = req.member_id if v >= 3 else ""
    instance_id = req.group_instance_id if v >= 3 else None
    denied = (acl.TRANSACTIONAL_ID_AUTHORIZATION_FAILED  # kwire.security
              if not authorize(ctx, acl.WRITE, acl.TRANSACTIONAL_ID, req.transactional_id)
              else acl.GROUP_AUTHORIZATION_FAILED if not authorize(ctx, acl.READ, acl.GROUP, req.group_id)
              else None)
    if denied is not None:  # every partition, as Kafka's getErrorResponse
        early = {(t.name, p.partition_index): denied for t in req.topics for p in t.partitions}
        commits = []
    errors: dict = {}
    if commits:
        try:
            errors = await _commit(ctx, req, gc, v, generation, member_id, instance_id, commits)
        except CoordinatorError as e:
            errors = {(c.topic, c.partition): e.code for c in commits}
    by_topic: dict[str, list] = {}
    for (t, p), code in list(early.items()) + list(errors.items()):
        by_topic.setdefault(t, []).append(TxnOffsetCommitResponsePartition(partition_index=p,
                                                                           error_code=code))
    return TxnOffsetCommitResponse(throttle_time_ms=0, topics=[
        TxnOffsetCommitResponseTopic(name=t, partitions=ps) for t, ps in by_topic.items()])


async def _commit(ctx, req, gc, v, generation, member_id, instance_id, commits) -> dict:
    # KIP-890 part 1: the group's partition must be in the producer's transaction
    # (AddOffsetsToTxn first); the coordinator may be on another broker
    code = await ctx.broker.txn_coordinator.verify_async(
        req.transactional_id, req.producer_id, req.producer_epoch,
        GROUP_METADATA_TOPIC, gc.partition_for(req.group_id), add=v >= 5)
    if code == ErrorCode.INVALID_TXN_STATE and v >= 4:
        code = ErrorCode.TRANSACTION_ABORTABLE
    if code == ErrorCode.NOT_ENOUGH_REPLICAS:  # the coordinator was busy or unreachable:
        code = ErrorCode.COORDINATOR_NOT_AVAILABLE  # retriable here (Kafka's GroupCoordinatorService)
    if code != ErrorCode.NONE:
        raise CoordinatorError(code)
    response = gc.run(req.group_id, lambda shard, now: shard.txn_commit_offsets(
        req.group_id, req.producer_id, req.producer_epoch, generation, member_id, instance_id,
        commits, now))
    return await gc.settle(response)
