"""InitProducerId (key 22), v0-6: producer ids for idempotent producers.

v6 is marked unstable in Kafka 4.3's schema (2PC, KIP-939) and is not
advertised, as Kafka brokers do not advertise unstable versions.
A producer without a transactional id gets a fresh producer id and epoch 0;
ids are allocated from a counter persisted in the cluster metadata, so they
never repeat across restarts. A request that bumps an existing id (v3+,
``producer_id``/``producer_epoch`` set, KIP-360) gets the same id with the
epoch + 1 (a new id when the epoch would overflow).
Not implemented: transactional ids — they need the transaction coordinator,
which comes with transactions; such requests answer COORDINATOR_NOT_AVAILABLE
(retriable).
"""

from __future__ import annotations

from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.protocol.generated.init_producer_id_response import InitProducerIdResponse

API_KEY = 22
MIN_VERSION = 0
MAX_VERSION = 5

MAX_EPOCH = 32767


def handle(ctx, req) -> InitProducerIdResponse:
    if req.transactional_id is not None:
        return InitProducerIdResponse(error_code=ErrorCode.COORDINATOR_NOT_AVAILABLE,
                                      producer_id=-1, producer_epoch=-1)
    md = ctx.broker.metadata
    if req.producer_id >= 0 and 0 <= req.producer_epoch < MAX_EPOCH - 1:
        return InitProducerIdResponse(error_code=0, producer_id=req.producer_id,
                                      producer_epoch=req.producer_epoch + 1)
    try:
        pid = md.allocate_producer_id()
    except KafkaError as e:  # no producer id block durable yet: the client retries
        return InitProducerIdResponse(error_code=e.code, producer_id=-1, producer_epoch=-1)
    return InitProducerIdResponse(error_code=0, producer_id=pid, producer_epoch=0)
