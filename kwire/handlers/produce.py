"""Produce (key 0), v3-13: append record batches to partition logs.

Batches stay opaque bytes: the log checks each v2 batch header and CRC-32C,
walks the records once without decoding them into objects, writes the
assigned base offset and the leader epoch in place (LogAppendTime also
rewrites max timestamp and the CRC) and stores the request's bytes as they
are.

* acks: 0 (no response; when a partition fails the connection is closed instead,
  as KafkaApis does, so the producer refreshes its metadata), 1 and -1 (all). On one node the in-sync replica set
  is this broker, so acks=all is answered once the append is done, after
  checking ``min.insync.replicas`` against the ISR (NOT_ENOUGH_REPLICAS).
  Anything else is INVALID_REQUIRED_ACKS.
* Per-partition errors, never a dropped connection (but for acks=0): UNKNOWN_TOPIC_OR_PARTITION
  (UNKNOWN_TOPIC_ID for v13 topic ids), CORRUPT_MESSAGE, MESSAGE_TOO_LARGE,
  RECORD_LIST_TOO_LARGE, INVALID_TIMESTAMP, INVALID_RECORD, and the idempotent
  producer errors (OUT_OF_ORDER_SEQUENCE_NUMBER, INVALID_PRODUCER_EPOCH); a
  duplicate idempotent batch is acknowledged with its original offsets.
* A failed write (disk full, permission, I/O error) is undone by the log and
  answers KAFKA_STORAGE_ERROR for that partition only (NOT_LEADER_OR_FOLLOWER
  to v3, as Kafka does); so does every partition of an offline log dir.
* Records are checked as Kafka's LogValidator does (``kwire.log.validate``:
  decompressed once and walked once, never recompressed or rewritten);
  rejected records are named in ``record_errors`` (v8+, batch index and
  message) next to the error message.
* Schema validation (issue 25, Confluent Server's topic configs
  ``confluent.value.schema.validation`` / ``confluent.key.schema.validation``,
  off by default): records without the id of a schema known to the broker's
  Schema Registry answer INVALID_RECORD with ``record_errors``
  (``kwire.broker.schema_validation``); a topic without explicit configs skips it.
* Responses carry base offset, log append time (-1 for CreateTime) and log
  start offset (v5+), and an error message (v8+).
* Transactional batches: without a transactional id the whole request answers
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED (Kafka's KafkaApis check); a
  transactional batch that reaches the log unverified answers
  INVALID_TXN_STATE "Partition was not added to the transaction" (v3-10) or
  TRANSACTION_ABORTABLE (v11+, KIP-890), as Kafka.
* Cluster mode (ZooKeeper): a partition this broker does not lead answers
  NOT_LEADER_OR_FOLLOWER, with (v10+, KIP-951) ``current_leader`` and the
  leader's ``node_endpoints`` when a leader is known. acks=all checks the
  ISR against ``min.insync.replicas`` before the append
  (NOT_ENOUGH_REPLICAS), then waits until the high watermark covers the
  records (``broker.wait_all_replicated``: one delayed operation for all the
  request's partitions, at most the request's ``timeout_ms``):
  REQUEST_TIMED_OUT, NOT_ENOUGH_REPLICAS_AFTER_APPEND (the ISR shrank below
  the minimum meanwhile) or NOT_LEADER_OR_FOLLOWER (leadership lost). acks=1
  answers after the leader's append.
* Transactional produce (a transactional id): the batch header only is
  checked against the transaction coordinator (``txn_verified``: the
  partition must be in the producer's ongoing transaction, old protocol);
  the log tracks the open transaction (LSO) from headers, never records.
  Produce v12+ (transactions v2) adds the partitions to the transaction
  first (``kwire.transactions.verification``), as Kafka's
  AddPartitionsToTxnManager.
"""

from __future__ import annotations

import logging

from kwire.broker.broker import now_ms
from kwire.protocol.errors import CloseConnection, ErrorCode, KafkaError
from kwire.security import acl
from kwire.security.authorizer import active as authorizer_active, allowed as authorizer_allowed
from kwire.protocol.generated import produce_response as _wire
from kwire.protocol.generated.produce_response import (
    BatchIndexAndErrorMessage,
    LeaderIdAndEpoch,
    NodeEndpoint,
    PartitionProduceResponse,
    ProduceResponse,
    TopicProduceResponse,
)
from kwire.protocol.primitives import ZERO_UUID as _ZERO_UUID
from kwire.records.batch import TRANSACTIONAL_MASK

API_KEY = 0
MIN_VERSION = 3
# Kafka 4 advertises Produce from v0 although it serves v3+ only: librdkafka
# before 2.10 compresses batches only when the broker lists Produce v0
# (KAFKA-18659). A v0-2 request is still refused (the connection is closed).
ADVERTISED_MIN_VERSION = 0
MAX_VERSION = 13

log = logging.getLogger("kwire.produce")
# current_leader at its default, shared by every successful partition answer rather than a new
# object each: the generated encoder recognises the module's own default by identity, and this
# module only ever replaces a response's current_leader, never changes it in place
_NO_LEADER = NO_LEADER = getattr(_wire, "_DEF_LeaderIdAndEpoch", None) or LeaderIdAndEpoch()


_NO_RECORD_ERRORS: list = []
_NO_TAGS: dict = {}
_new = object.__new__


def _error(index: int, code: ErrorCode, message: str | None = None) -> PartitionProduceResponse:
    return PartitionProduceResponse(index=index, error_code=code, base_offset=-1,
                                    log_append_time_ms=-1, log_start_offset=-1, error_message=message)


def handle(ctx, req):
    if req.transactional_id is not None and (ctx.broker.cluster_mode or ctx.api_version >= 12):
        return _verified_then_append(ctx, req)  # KIP-890: ask a remote coordinator first
    return _handle(ctx, req)


async def _verified_then_append(ctx, req):
    from kwire.transactions.verification import verify_produce

    # v12+ (transactions v2, KIP-890 part 2): the partitions are added to the transaction,
    # only those the producer may write (as Kafka checks WRITE before verifying)
    az = authorizer_active(ctx)
    writable = None
    if az is not None:
        if not authorizer_allowed(ctx, az, acl.WRITE, acl.TRANSACTIONAL_ID, req.transactional_id):
            return _handle(ctx, req)  # every partition: TRANSACTIONAL_ID_AUTHORIZATION_FAILED

        def writable(topic: str) -> bool:
            return authorizer_allowed(ctx, az, acl.WRITE, acl.TOPIC, topic)
    await verify_produce(ctx.broker.txn_coordinator, req, add=ctx.api_version >= 12, writable=writable)
    resp = _handle(ctx, req)
    if resp is not None and not isinstance(resp, ProduceResponse):
        resp = await resp  # acks=all: waiting for replication
    return resp


def _handle(ctx, req):
    broker = ctx.broker
    md = broker.metadata
    acks = req.acks
    by_id = ctx.api_version >= 13
    now = now_ms()
    responses = []
    # Kafka's KafkaApis: transactional batches need an (authorized) transactional id,
    # else the whole request is TRANSACTIONAL_ID_AUTHORIZATION_FAILED.
    has_transactional = req.transactional_id is None and _has_transactional_records(req)
    leaders: set[int] = set()  # cluster mode: leaders named in current_leader (node_endpoints)
    waits = []  # cluster mode, acks=all: (topic, partition response, offset the HW must reach)
    az = authorizer_active(ctx)  # kwire.security: WRITE on the transactional id and each topic
    tid_denied = az is not None and req.transactional_id is not None and not authorizer_allowed(
        ctx, az, acl.WRITE, acl.TRANSACTIONAL_ID, req.transactional_id)
    for td in req.topic_data:
        t = md.topic_by_id(td.topic_id) if by_id else md.topic(td.name)
        parts = []
        if az is not None and (tid_denied or not authorizer_allowed(
                ctx, az, acl.WRITE, acl.TOPIC, t.name if t else td.name or "")):
            code = (ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED if tid_denied
                    else ErrorCode.TOPIC_AUTHORIZATION_FAILED)
            parts = [_error(pd.index, code) for pd in td.partition_data]
        elif t is None:
            code = ErrorCode.UNKNOWN_TOPIC_ID if by_id else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            parts = [_error(pd.index, code) for pd in td.partition_data]
        elif acks not in (0, 1, -1):
            parts = [_error(pd.index, ErrorCode.INVALID_REQUIRED_ACKS) for pd in td.partition_data]
        elif has_transactional:
            why = "transactional record batches need a transactional id"
            parts = [_error(pd.index, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, why)
                     for pd in td.partition_data]
        elif broker.cluster_mode:
            for pd in td.partition_data:
                r, end = _append_replicated(broker, t, pd, acks, now, ctx.api_version, leaders,
                                            req.transactional_id)
                if acks == -1 and r.error_code == 0:
                    waits.append((t.name, r, end))
                parts.append(r)
        else:
            for pd in td.partition_data:
                parts.append(_append(broker, t, pd.index, pd.records, acks, now, ctx.api_version,
                                     tid=req.transactional_id))
        tr = _new(TopicProduceResponse)  # every slot, as in _append
        tr.name = td.name if not by_id else t.name if t else ""
        tr.topic_id = td.topic_id
        tr.partition_responses = parts
        tr.unknown_tagged_fields = {}
        responses.append(tr)
    if acks == 0:
        failed = [f"{tr.name}-{pr.index}: {ErrorCode(pr.error_code).name}" for tr in responses
                  for pr in tr.partition_responses if pr.error_code]
        if failed:  # KafkaApis: no response to carry the errors, so close the connection
            raise CloseConnection("acks=0 produce failed for " + ", ".join(failed))
        return None
    resp = ProduceResponse(responses=responses, throttle_time_ms=0)
    if leaders and ctx.api_version >= 10:
        resp.node_endpoints = _endpoints(md, leaders)
    if waits:
        return _wait_replicated(broker, resp, waits, req.timeout_ms / 1000)
    return resp


def append_single(broker, version: int, acks: int, topic, index: int, records):
    """The single-partition Produce (``kwire.protocol.produce_single``: one topic, one
    partition, no transactional id) on a one-node broker, for a connection without an
    authorizer: the log's ``AppendResult`` when it succeeded, else the partition's error answer
    (a ``PartitionProduceResponse``) exactly as ``_handle`` makes it, or None when ``_handle``
    must decide (cluster mode, acks other than 1 and -1, an unknown topic, a transactional
    batch). ``topic``: the name, or the topic id from v13."""
    if broker.cluster_mode or (acks != -1 and acks != 1):
        return None
    md = broker.metadata
    t = md.topic_by_id(topic) if version >= 13 else md.topic(topic)
    if t is None:
        return None
    if _first_batch_transactional(records):  # refused without a transactional id: _handle
        return None
    return _append_result(broker, t, index, records, acks, now_ms(), version)


def single_response(broker, version: int, topic, r: PartitionProduceResponse) -> ProduceResponse:
    """The whole answer around ``append_single``'s partition answer, as ``_handle`` builds it
    (for an answer the template of ``produce_single.encode_ok`` does not cover)."""
    by_id = version >= 13
    t = broker.metadata.topic_by_id(topic) if by_id else None
    tr = _new(TopicProduceResponse)
    tr.name = (t.name if t else "") if by_id else topic
    tr.topic_id = topic if by_id else _ZERO_UUID
    tr.partition_responses = [r]
    tr.unknown_tagged_fields = {}
    return ProduceResponse(responses=[tr], throttle_time_ms=0)


async def _wait_replicated(broker, resp, waits, timeout_s: float):
    """acks=all in a cluster: answer once every appended partition's HW covers its records
    (one delayed operation for the request: ``broker.wait_all_replicated``)."""
    codes = await broker.wait_all_replicated([(name, r.index, end) for name, r, end in waits],
                                             timeout_s)
    for (name, r, _end), code in zip(waits, codes):
        if code != ErrorCode.NONE:
            log.info("acks=all produce to %s-%d: %s", name, r.index, code.name)
            r.error_code = code
            r.base_offset = -1
            r.log_append_time_ms = -1
    return resp


def _endpoints(md, leaders: set[int]) -> list[NodeEndpoint]:
    out = []
    for b in md.brokers:
        if b.node_id in leaders:
            out.append(NodeEndpoint(node_id=b.node_id, host=b.host, port=b.port, rack=b.rack))
    return out


def _append_replicated(broker, t, pd, acks: int, now: int, version: int, leaders: set[int],
                       tid: str | None = None):
    """Cluster mode: append where this broker leads; NOT_LEADER_OR_FOLLOWER elsewhere.
    Returns (response, offset the HW must reach for acks=all)."""
    index = pd.index
    if not 0 <= index < len(t.partitions):
        return _error(index, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION), -1
    st = broker.replicas.leader_state(t.name, index)
    if st is None:
        pstate = t.partitions[index]
        r = _error(index, ErrorCode.NOT_LEADER_OR_FOLLOWER,
                   f"This server is not the leader for partition {t.name}-{index}")
        if version >= 10 and pstate.leader >= 0 and pstate.leader != broker.node_id:
            r.current_leader = LeaderIdAndEpoch(leader_id=pstate.leader, leader_epoch=pstate.leader_epoch)
            leaders.add(pstate.leader)
        return r, -1
    if acks == -1:
        code = st.append_error(acks)
        if code != ErrorCode.NONE:
            return _error(index, code,
                          f"The size of the current ISR {sorted(st.isr)} is insufficient to satisfy "
                          f"the min.isr requirement of {st.min_insync_replicas} for partition "
                          f"{t.name}-{index}"), -1
    ends: dict[int, int] = {}
    r = _append(broker, t, index, pd.records, acks, now, version, check_isr=False, ends=ends, tid=tid)
    return r, ends.get(index, -1)


_KEY_VALIDATION = "confluent.key.schema.validation"
_VALUE_VALIDATION = "confluent.value.schema.validation"


def _schema_refusal(broker, t, index: int, records) -> PartitionProduceResponse | None:
    from kwire.broker.schema_validation import enabled, invalid_records

    keys, values = enabled(t.configs)
    if not (keys or values):
        return None
    bad = invalid_records(records, keys, values, broker.schema_ids)
    if bad is None:
        return None
    code, message, record_errors = bad
    r = _error(index, code, message)
    r.record_errors = [BatchIndexAndErrorMessage(batch_index=i, batch_index_error_message=m)
                       for i, m in record_errors]
    return r


def _has_transactional_records(req) -> bool:
    """Kafka's RequestUtils.hasTransactionalRecords: the first batch of any partition says so."""
    for td in req.topic_data:
        for pd in td.partition_data:
            if pd.records is not None and _first_batch_transactional(pd.records):
                return True
    return False


def _first_batch_transactional(r) -> bool:
    """Magic (byte 16) 2 and the transactional bit in the attributes' low byte (22); older
    formats have none."""
    return len(r) > 22 and r[16] == 2 and bool(r[22] & TRANSACTIONAL_MASK)


def _append(broker, t, index: int, records, acks: int, now: int, version: int = 13, *,
            check_isr: bool = True, ends: dict | None = None,
            tid: str | None = None) -> PartitionProduceResponse:
    """Append one partition's records; ``ends`` (if given) gets partition -> last offset + 1."""
    result = _append_result(broker, t, index, records, acks, now, version, check_isr, tid)
    if result.__class__ is PartitionProduceResponse:
        return result
    # every slot set on a bare object: the keyword-argument constructor costs four times as
    # much (tests/unit/test_fetch_answer_build.py checks the two are equal). The empty defaults
    # are shared, three objects fewer per partition; never mutated in place (a response that
    # needs them assigns new ones, as _error's callers do)
    r = _new(PartitionProduceResponse)
    r.index = index
    r.error_code = 0
    r.base_offset = result.base_offset
    r.log_append_time_ms = result.log_append_time
    r.log_start_offset = result.log_start_offset
    r.record_errors = _NO_RECORD_ERRORS
    r.error_message = None
    r.current_leader = _NO_LEADER
    r.unknown_tagged_fields = _NO_TAGS
    if ends is not None:
        ends[index] = result.last_offset + 1
    return r


def _append_result(broker, t, index: int, records, acks: int, now: int, version: int,
                   check_isr: bool = True, tid: str | None = None):
    """``_append``'s work: the log's ``AppendResult``, or the partition's error answer (a
    ``PartitionProduceResponse``)."""
    pstate = t.partitions[index] if 0 <= index < len(t.partitions) else None
    if pstate is None:
        return _error(index, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
    if records is None:
        return _error(index, ErrorCode.INVALID_RECORD, "null record set")
    if t.configs and (_KEY_VALIDATION in t.configs or _VALUE_VALIDATION in t.configs):
        refused = _schema_refusal(broker, t, index, records)  # issue 25: only when configured
        if refused is not None:
            return refused
    if acks == -1 and check_isr:
        min_isr = broker.topic_min_insync_replicas(t)
        if len(pstate.isr) < min_isr:
            return _error(index, ErrorCode.NOT_ENOUGH_REPLICAS,
                          f"The size of the current ISR {len(pstate.isr)} is insufficient to satisfy "
                          f"the min.isr requirement of {min_isr}")
    try:
        if tid is None:
            result = broker.append(t.name, index, records, now)
        else:  # transactional: the partition must be in the producer's ongoing transaction
            tc = broker.txn_coordinator
            result = broker.append(t.name, index, records, now, txn_verified=lambda pid, epoch: tc.verify(
                tid, pid, epoch, t.name, index))
    except KafkaError as e:
        log.info("produce to %s-%d rejected: %s %s", t.name, index, e.code.name, e.message or "")
        plog = broker.get_log(t.name, index)
        code = e.code
        if code == ErrorCode.KAFKA_STORAGE_ERROR and version <= 3:
            code = ErrorCode.NOT_LEADER_OR_FOLLOWER  # as Kafka: v3 clients do not retry storage errors
        if code == ErrorCode.INVALID_TXN_STATE and version > 10:
            code = ErrorCode.TRANSACTION_ABORTABLE  # KIP-890: v11+ clients abort and carry on
        r = _error(index, code, e.message)
        r.record_errors = [BatchIndexAndErrorMessage(batch_index=i, batch_index_error_message=m)
                           for i, m in getattr(e, "record_errors", ())]
        if plog is not None:
            r.log_start_offset = plog.log_start_offset
        return r
    return result
