"""Produce-time transaction verification against a coordinator on another broker (KIP-890 part 1).

Before a partition leader appends a transactional batch that starts a
transaction in that partition (the producer has no open transaction there
yet), Kafka asks the transaction coordinator whether the partition was added
to the producer's ongoing transaction: AddPartitionsToTxn v4+ with
``verify_only`` (Kafka's AddPartitionsToTxnManager). A batch that continues a
transaction already open in the partition needs no question (Kafka's
VerificationGuard). When the coordinator is this broker,
``TransactionCoordinator.verify`` answers directly; this module handles the
other case, in cluster mode:

``await verify_produce(coordinator, req)`` reads the producer id and epoch
from the first batch header of every transactional partition of the Produce
request (header bytes only), asks the coordinator's broker once for all the
partitions that need it, and leaves the answers in
``coordinator.verified`` for ``verify`` to consume during the appends.
Kafka's mapping of the answers (``map_code``): PRODUCER_FENCED becomes
INVALID_PRODUCER_EPOCH; the coordinator's retriable errors (NOT_COORDINATOR,
COORDINATOR_NOT_AVAILABLE, COORDINATOR_LOAD_IN_PROGRESS,
CONCURRENT_TRANSACTIONS) and any failure to ask (no coordinator, connection
refused, a broken answer) NOT_ENOUGH_REPLICAS, which producers retry; the
others (NONE, INVALID_TXN_STATE, INVALID_PRODUCER_ID_MAPPING,
TRANSACTION_ABORTABLE, ...) as they are.

Transactions v2 (KIP-890 part 2, ``add=True``: Produce v12+): the partitions
are added to the transaction instead of verified, on this broker when it is
the coordinator (``TransactionCoordinator.add_implicitly``), else with
AddPartitionsToTxn v5 and ``verify_only`` false (what Kafka's
AddPartitionsToTxnManager sends), in embedded mode too.
"""

from __future__ import annotations

import asyncio
import logging

from kwire.protocol.errors import ErrorCode as E, code_of
from kwire.protocol.generated.add_partitions_to_txn_request import (
    AddPartitionsToTxnRequest,
    AddPartitionsToTxnTopic,
    AddPartitionsToTxnTransaction,
)
from kwire.records.batch import TRANSACTIONAL_MASK
from kwire.security import inter_broker

log = logging.getLogger("kwire.transactions")

API_KEY = 24
VERSION = 5
TIMEOUT_S = 10.0
MAX_REMEMBERED = 10000


def transactional_partitions(req, md=None) -> list[tuple[str, int, int, int]]:
    """(topic, partition, producer id, epoch) of every transactional first batch (by name;
    Produce v13 names topics by id: resolved with the metadata ``md``)."""
    out = []
    for td in req.topic_data:
        name = td.name
        if not name and md is not None:
            t = md.topic_by_id(td.topic_id)
            if t is None:
                continue  # the append answers UNKNOWN_TOPIC_ID
            name = t.name
        for pd in td.partition_data:
            r = pd.records
            if r is not None and len(r) >= 61 and r[16] == 2 and r[22] & TRANSACTIONAL_MASK:
                pid = int.from_bytes(r[43:51], "big", signed=True)
                epoch = int.from_bytes(r[51:53], "big", signed=True)
                out.append((name, pd.index, pid, epoch))
    return out


def continuing(broker, topic: str, partition: int, pid: int, epoch: int) -> bool:
    """The producer already has a transaction open in this partition at this epoch."""
    plog = broker.get_log(topic, partition)
    if plog is None:
        return False
    ps = plog.producer_state
    entry = ps.producers.get(pid)
    return pid in ps.ongoing and entry is not None and entry.epoch == epoch


_RETRIABLE = (E.NOT_COORDINATOR, E.COORDINATOR_NOT_AVAILABLE, E.COORDINATOR_LOAD_IN_PROGRESS,
              E.CONCURRENT_TRANSACTIONS, E.NOT_ENOUGH_REPLICAS, E.REQUEST_TIMED_OUT)


def map_code(code: E) -> E:
    if code == E.PRODUCER_FENCED:
        return E.INVALID_PRODUCER_EPOCH
    if code in _RETRIABLE:
        return E.NOT_ENOUGH_REPLICAS
    return code


async def verify_produce(tc, req, add: bool = False, writable=None) -> None:
    """``writable(topic)``: whether the producer may write the topic (the authorizer's
    answer); partitions of other topics are never added to the transaction (Kafka checks
    WRITE before it verifies), they are answered TOPIC_AUTHORIZATION_FAILED by the produce."""
    broker = tc.broker
    tid = req.transactional_id
    leader = tc.coordinator_node(tid)
    local = leader == broker.node_id or not tc.cluster_mode
    if not add and (local or not broker.config.get("transaction.partition.verification.enable", True)):
        return  # verify() asks the local shard
    # One producer's requests are verified in arrival order, each after the previous one's
    # append (the caller appends right after this returns, without yielding): requests in
    # flight for one partition (seq 0-4, 5-9) must not overtake each other while they wait
    # for the coordinator, and once the first is appended the next continues the transaction.
    prev = tc.produce_order.get(tid)
    done = asyncio.get_running_loop().create_future()
    tc.produce_order[tid] = done
    try:
        if prev is not None and not prev.done():
            await asyncio.shield(prev)
        need = [(t, p, pid, epoch) for t, p, pid, epoch in transactional_partitions(req, broker.metadata)
                if not continuing(broker, t, p, pid, epoch) and (writable is None or writable(t))]
        if not need:
            return
        if len(tc.verified) > MAX_REMEMBERED:
            tc.verified.clear()
        codes = await tc.add_implicitly(tid, need) if local else await ask(broker, leader, tid, need, add)
        for (t, p, pid, epoch) in need:
            tc.verified[(tid, pid, epoch, t, p)] = codes.get((t, p), E.NOT_ENOUGH_REPLICAS)
    finally:
        done.set_result(None)
        if tc.produce_order.get(tid) is done:
            del tc.produce_order[tid]


async def ask(broker, leader: int, tid: str, need, add: bool = False) -> dict[tuple[str, int], E]:
    pid, epoch = need[0][2], need[0][3]
    by_topic: dict[str, list[int]] = {}
    for t, p, _pid, _epoch in need:
        by_topic.setdefault(t, []).append(p)
    req = AddPartitionsToTxnRequest(transactions=[AddPartitionsToTxnTransaction(
        transactional_id=tid, producer_id=pid, producer_epoch=epoch, verify_only=not add,
        topics=[AddPartitionsToTxnTopic(name=t, partitions=ps) for t, ps in by_topic.items()])])
    try:  # the coordinator's inter-broker listener, its TLS and SASL (kwire.security.inter_broker)
        resp = await inter_broker.request_once(broker, leader, API_KEY, VERSION, req,
                                               "kwire-txn-verification", TIMEOUT_S)
    except inter_broker.NoEndpoint:
        return {}
    except Exception as e:  # connection refused, timeout, a broken answer: retriable
        log.info("transaction verification with broker %d failed: %s", leader, e)
        return {}
    out: dict[tuple[str, int], E] = {}
    for res in resp.results_by_transaction or ():
        for tr in res.topic_results or ():
            for pr in tr.results_by_partition or ():
                out[(tr.name, pr.partition_index)] = map_code(code_of(pr.partition_error_code))
    return out
