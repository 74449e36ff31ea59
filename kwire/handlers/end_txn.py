"""EndTxn (key 26), v0-5: commit or abort a producer's transaction.

Answered once PrepareCommit/PrepareAbort is durable in ``__transaction_state``
(the markers follow, then Complete*; meanwhile the producer's next
InitProducerId/AddPartitionsToTxn answers CONCURRENT_TRANSACTIONS). Errors:
INVALID_PRODUCER_ID_MAPPING (unknown id), PRODUCER_FENCED (INVALID_PRODUCER_EPOCH
to v0-1), CONCURRENT_TRANSACTIONS, INVALID_TXN_STATE, NOT_COORDINATOR,
COORDINATOR_LOAD_IN_PROGRESS. v5 is transactions v2 (KIP-890 part 2,
``TxnShard.end_txn_v2``): the coordinator bumps the epoch (a new producer id
when it would overflow), writes the markers with it, and the response
carries the producer id and epoch the producer uses next; v0-4 answer -1
there (no bump per transaction).
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.end_txn_response import EndTxnResponse

API_KEY = 26
MIN_VERSION = 0
MAX_VERSION = 5


async def handle(ctx, req):
    tid = req.transactional_id
    if not authorize(ctx, acl.WRITE, acl.TRANSACTIONAL_ID, tid):  # kwire.security
        return EndTxnResponse(throttle_time_ms=0, error_code=ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                              producer_id=-1, producer_epoch=-1)
    pid = epoch = -1
    try:
        if ctx.api_version >= 5:
            tc = ctx.broker.txn_coordinator
            tc.stats["end_txn_v2"] += 1
            code, pid, epoch = await tc.run(tid, lambda shard, now: shard.end_txn_v2(
                tid, req.producer_id, req.producer_epoch, bool(req.committed), now,
                ctx.broker.metadata.allocate_producer_id))
        else:
            code = await ctx.broker.txn_coordinator.run(
                tid, lambda shard, now: shard.end_txn(tid, req.producer_id, req.producer_epoch,
                                                      bool(req.committed), now))
    except CoordinatorError as e:
        code = e.code
    except KafkaError as e:  # no producer id block (epoch overflow): retriable
        code = e.code
    if code == ErrorCode.PRODUCER_FENCED and ctx.api_version < 2:
        code = ErrorCode.INVALID_PRODUCER_EPOCH
    if code != ErrorCode.NONE:
        pid = epoch = -1
    return EndTxnResponse(throttle_time_ms=0, error_code=code, producer_id=pid, producer_epoch=epoch)
