"""AddOffsetsToTxn (key 25), v0-4: add a group's ``__consumer_offsets`` partition to a transaction.

The partition is the group's (``partitionFor(group_id)``), added to the
ongoing transaction exactly as AddPartitionsToTxn adds one; the offsets
themselves come with TxnOffsetCommit. Errors as AddPartitionsToTxn
(PRODUCER_FENCED answered INVALID_PRODUCER_EPOCH to v0-1).
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.coordinator.runtime import GROUP_METADATA_TOPIC
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.add_offsets_to_txn_response import AddOffsetsToTxnResponse

API_KEY = 25
MIN_VERSION = 0
MAX_VERSION = 4


async def handle(ctx, req):
    broker = ctx.broker
    tid = req.transactional_id
    if not authorize(ctx, acl.WRITE, acl.TRANSACTIONAL_ID, tid):  # kwire.security
        return AddOffsetsToTxnResponse(throttle_time_ms=0, error_code=ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED)
    if not authorize(ctx, acl.READ, acl.GROUP, req.group_id):
        return AddOffsetsToTxnResponse(throttle_time_ms=0, error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED)
    try:
        broker.group_coordinator.ensure_topic()
        tp = (GROUP_METADATA_TOPIC, broker.group_coordinator.partition_for(req.group_id))
        broker.txn_coordinator.stats["client_adds"] += 1
        code = await broker.txn_coordinator.run(
            tid, lambda shard, now: shard.add_partitions(tid, req.producer_id, req.producer_epoch,
                                                         [tp], now))
    except CoordinatorError as e:
        code = e.code
    if code == ErrorCode.PRODUCER_FENCED and ctx.api_version < 2:
        code = ErrorCode.INVALID_PRODUCER_EPOCH
    return AddOffsetsToTxnResponse(throttle_time_ms=0, error_code=code)
