"""InitProducerId (key 22), v0-6: producer ids for idempotent producers.

v6 is marked unstable in Kafka 4.3's schema (2PC, KIP-939) and is not
advertised, as Kafka brokers do not advertise unstable versions.
A producer without a transactional id gets a fresh producer id and epoch 0;
ids are allocated from a counter persisted in the cluster metadata, so they
never repeat across restarts. A request that bumps an existing id (v3+,
``producer_id``/``producer_epoch`` set, KIP-360) gets the same id with the
epoch + 1 (a new id when the epoch would overflow).
With a transactional id the request goes to the transaction coordinator
(``kwire.transactions``): epoch bump, fencing of the previous producer,
CONCURRENT_TRANSACTIONS while a previous transaction completes,
INVALID_TRANSACTION_TIMEOUT above ``transaction.max.timeout.ms``;
NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS / COORDINATOR_NOT_AVAILABLE
as Kafka. PRODUCER_FENCED is answered INVALID_PRODUCER_EPOCH to v0-3, which
predate it.
"""

from __future__ import annotations

from kwire.coordinator.base import CoordinatorError
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security import acl
from kwire.security.authorizer import authorize, authorize_any
from kwire.protocol.generated.init_producer_id_response import InitProducerIdResponse

API_KEY = 22
MIN_VERSION = 0
MAX_VERSION = 5

MAX_EPOCH = 32767


def handle(ctx, req):
    if not _authorized(ctx, req):  # kwire.security
        code = (ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED if req.transactional_id is not None
                else ErrorCode.CLUSTER_AUTHORIZATION_FAILED)
        return InitProducerIdResponse(error_code=code, producer_id=-1, producer_epoch=-1)
    if req.transactional_id is not None:
        return _transactional(ctx, req)
    md = ctx.broker.metadata
    if req.producer_id >= 0 and 0 <= req.producer_epoch < MAX_EPOCH - 1:
        return InitProducerIdResponse(error_code=0, producer_id=req.producer_id,
                                      producer_epoch=req.producer_epoch + 1)
    try:
        pid = md.allocate_producer_id()
    except KafkaError as e:  # no producer id block durable yet: the client retries
        return InitProducerIdResponse(error_code=e.code, producer_id=-1, producer_epoch=-1)
    return InitProducerIdResponse(error_code=0, producer_id=pid, producer_epoch=0)


def _authorized(ctx, req) -> bool:
    """WRITE on the transactional id; without one IDEMPOTENT_WRITE on the cluster or, as Kafka
    since KIP-679, WRITE on any topic."""
    if req.transactional_id is not None:
        return authorize(ctx, acl.WRITE, acl.TRANSACTIONAL_ID, req.transactional_id)
    if authorize(ctx, acl.IDEMPOTENT_WRITE, acl.CLUSTER, acl.CLUSTER_NAME):
        return True
    return authorize_any(ctx, acl.WRITE, acl.TOPIC)


async def _transactional(ctx, req) -> InitProducerIdResponse:
    broker = ctx.broker

    def allocate() -> int:
        return broker.metadata.allocate_producer_id()

    def op(shard, now):
        return shard.init_producer_id(req.transactional_id, req.transaction_timeout_ms,
                                      req.producer_id if ctx.api_version >= 3 else -1,
                                      req.producer_epoch if ctx.api_version >= 3 else -1, now, allocate)

    try:
        code, pid, epoch = await broker.txn_coordinator.run(req.transactional_id, op)
    except CoordinatorError as e:
        code, pid, epoch = e.code, -1, -1
    except KafkaError as e:  # no producer id block yet: retriable
        code, pid, epoch = e.code, -1, -1
    if code == ErrorCode.PRODUCER_FENCED and ctx.api_version < 4:
        code = ErrorCode.INVALID_PRODUCER_EPOCH
    return InitProducerIdResponse(error_code=code, producer_id=pid, producer_epoch=epoch)
