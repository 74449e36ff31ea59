"""DescribeTransactions (key 65), v0: the coordinator's view of transactional ids.

Per id: NOT_COORDINATOR when this broker does not lead its
``__transaction_state`` partition (the admin client asks the coordinator
FindCoordinator named), COORDINATOR_LOAD_IN_PROGRESS while it loads,
TRANSACTIONAL_ID_NOT_FOUND for an unknown id; otherwise state (Kafka's names:
Empty, Ongoing, PrepareCommit, ...), timeout, start time, producer id and
epoch, and the partitions of the transaction. Authorization (Kafka's
KafkaApis): DESCRIBE on the transactional id (else
TRANSACTIONAL_ID_AUTHORIZATION_FAILED); only the topics the principal may
DESCRIBE are listed.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.describe_transactions_response import (
    DescribeTransactionsResponse,
    TopicData,
    TransactionState,
)
from kwire.transactions.state import STATE_NAMES

API_KEY = 65
MIN_VERSION = 0
MAX_VERSION = 0


def handle(ctx, req):
    tc = ctx.broker.txn_coordinator
    out = []
    for tid in req.transactional_ids:
        try:
            if not authorize(ctx, acl.DESCRIBE, acl.TRANSACTIONAL_ID, tid):  # kwire.security
                raise CoordinatorError(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED)
            _p, shard = tc.shard_for(tid, create=False)
            md = shard.txns.get(tid)
            if md is None:
                raise CoordinatorError(ErrorCode.TRANSACTIONAL_ID_NOT_FOUND)
        except CoordinatorError as e:
            out.append(TransactionState(error_code=e.code, transactional_id=tid, transaction_state="",
                                        transaction_timeout_ms=0, transaction_start_time_ms=-1,
                                        producer_id=-1, producer_epoch=-1, topics=[]))
            continue
        by_topic: dict[str, list[int]] = {}
        for t, p in md.partitions:
            by_topic.setdefault(t, []).append(p)
        out.append(TransactionState(
            error_code=0, transactional_id=tid, transaction_state=STATE_NAMES[md.state],
            transaction_timeout_ms=md.timeout_ms, transaction_start_time_ms=md.start_ms,
            producer_id=md.producer_id, producer_epoch=md.producer_epoch,
            topics=[TopicData(topic=t, partitions=ps) for t, ps in by_topic.items()
                    if authorize(ctx, acl.DESCRIBE, acl.TOPIC, t)]))  # kwire.security: as Kafka
    return DescribeTransactionsResponse(throttle_time_ms=0, transaction_states=out)
