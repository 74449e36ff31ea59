"""AddPartitionsToTxn (key 24), v0-5: add partitions to a producer's ongoing transaction.

v0-3: one transaction (the client form); v4+: a batch of transactions, each
answered on its own (Kafka sends it broker to broker; ``verify_only`` asks
whether the partitions are already in the transaction without adding them:
INVALID_TXN_STATE per partition when they are not). The transaction
coordinator (``kwire.transactions``) decides: INVALID_PRODUCER_ID_MAPPING,
PRODUCER_FENCED (INVALID_PRODUCER_EPOCH to v0-1), CONCURRENT_TRANSACTIONS,
NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS. A partition of an unknown
topic answers UNKNOWN_TOPIC_OR_PARTITION and the others
OPERATION_NOT_ATTEMPTED, as Kafka does; the coordinator's state is untouched.
A v4+ transaction with ``verify_only`` false is the implicit add of a
transactions v2 producer (KIP-890 part 2) sent by the leader of the
partitions its Produce v12+ reached (or by the group coordinator for
TxnOffsetCommit v5+): the transaction becomes a v2 one (epoch bump at EndTxn).

Authorization (Kafka's KafkaApis): v0-3 need WRITE on the transactional id
(else TRANSACTIONAL_ID_AUTHORIZATION_FAILED for every partition) and on each
topic (TOPIC_AUTHORIZATION_FAILED, the rest OPERATION_NOT_ATTEMPTED); v4+,
sent only by brokers, needs CLUSTER_ACTION on the cluster (else the top-level
CLUSTER_AUTHORIZATION_FAILED) and nothing per transaction.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize, txn_partitions_denied
from kwire.protocol.generated.add_partitions_to_txn_response import (
    AddPartitionsToTxnPartitionResult,
    AddPartitionsToTxnResponse,
    AddPartitionsToTxnResult,
    AddPartitionsToTxnTopicResult,
)

API_KEY = 24
MIN_VERSION = 0
MAX_VERSION = 5


async def handle(ctx, req):
    v = ctx.api_version
    if v >= 4:
        if not authorize(ctx, acl.CLUSTER_ACTION, acl.CLUSTER, acl.CLUSTER_NAME):  # kwire.security
            return AddPartitionsToTxnResponse(throttle_time_ms=0, error_code=acl.CLUSTER_AUTHORIZATION_FAILED,
                                              results_by_transaction=[])
        results = []
        for t in req.transactions:
            errors = await add(ctx, t.transactional_id, t.producer_id, t.producer_epoch, t.topics, t.verify_only)
            results.append(AddPartitionsToTxnResult(transactional_id=t.transactional_id,
                                                    topic_results=_topics(errors)))
        return AddPartitionsToTxnResponse(throttle_time_ms=0, error_code=0, results_by_transaction=results)
    errors = txn_partitions_denied(ctx, req.v3_and_below_transactional_id, req.v3_and_below_topics) or await add(
        ctx, req.v3_and_below_transactional_id, req.v3_and_below_producer_id,
        req.v3_and_below_producer_epoch, req.v3_and_below_topics, False)  # (kwire.security: checked first)
    if v < 2:
        errors = {tp: ErrorCode.INVALID_PRODUCER_EPOCH if c == ErrorCode.PRODUCER_FENCED else c
                  for tp, c in errors.items()}
    return AddPartitionsToTxnResponse(throttle_time_ms=0, results_by_topic_v3_and_below=_topics(errors))


def _topics(errors: dict) -> list[AddPartitionsToTxnTopicResult]:
    by_topic: dict[str, list] = {}
    for (t, p), code in errors.items():
        by_topic.setdefault(t, []).append(
            AddPartitionsToTxnPartitionResult(partition_index=p, partition_error_code=code))
    return [AddPartitionsToTxnTopicResult(name=t, results_by_partition=r) for t, r in by_topic.items()]


async def add(ctx, tid: str, pid: int, epoch: int, topics, verify_only: bool) -> dict:
    md = ctx.broker.metadata
    wanted = [(t.name, p) for t in topics for p in t.partitions]
    unknown = {tp for tp in wanted if md.partition(*tp) is None}
    if unknown:
        return {tp: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION if tp in unknown
                else ErrorCode.OPERATION_NOT_ATTEMPTED for tp in wanted}
    tc = ctx.broker.txn_coordinator
    v2 = ctx.api_version >= 4 and not verify_only  # broker to broker: a v2 implicit add
    if not verify_only:
        tc.stats["implicit_adds" if v2 else "client_adds"] += 1
    try:
        if verify_only:  # answered per partition, nothing written
            return {tp: await tc.run(tid, lambda shard, now, tp=tp: shard.add_partitions(
                tid, pid, epoch, [tp], now, True)) for tp in wanted}
        code = await tc.run(tid, lambda shard, now: shard.add_partitions(
            tid, pid, epoch, wanted, now, client_version=2 if v2 else 0))
    except CoordinatorError as e:
        code = e.code
    return {tp: code for tp in wanted}
