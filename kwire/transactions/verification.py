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
Kafka's mapping of the answers: NONE verified; INVALID_TXN_STATE (not added)
and INVALID_PRODUCER_EPOCH (PRODUCER_FENCED) as they are; every other answer
and any failure to ask (no coordinator, connection refused, NOT_COORDINATOR,
CONCURRENT_TRANSACTIONS, ...) NOT_ENOUGH_REPLICAS, which producers retry.
"""

from __future__ import annotations

import asyncio
import logging

from kwire.protocol import codec
from kwire.protocol.errors import ErrorCode as E
from kwire.protocol.generated.add_partitions_to_txn_request import (
    AddPartitionsToTxnRequest,
    AddPartitionsToTxnTopic,
    AddPartitionsToTxnTransaction,
)
from kwire.records.batch import TRANSACTIONAL_MASK

log = logging.getLogger("kwire.transactions")

API_KEY = 24
VERSION = 4
TIMEOUT_S = 10.0
MAX_REMEMBERED = 10000


def transactional_partitions(req) -> list[tuple[str, int, int, int]]:
    """(topic, partition, producer id, epoch) of every transactional first batch (by name)."""
    out = []
    for td in req.topic_data:
        for pd in td.partition_data:
            r = pd.records
            if r is not None and len(r) >= 61 and r[16] == 2 and r[22] & TRANSACTIONAL_MASK:
                pid = int.from_bytes(r[43:51], "big", signed=True)
                epoch = int.from_bytes(r[51:53], "big", signed=True)
                out.append((td.name, pd.index, pid, epoch))
    return out


def continuing(broker, topic: str, partition: int, pid: int, epoch: int) -> bool:
    """The producer already has a transaction open in this partition at this epoch."""
    plog = broker.get_log(topic, partition)
    if plog is None:
        return False
    ps = plog.producer_state
    entry = ps.producers.get(pid)
    return pid in ps.ongoing and entry is not None and entry.epoch == epoch


async def verify_produce(tc, req) -> None:
    broker = tc.broker
    tid = req.transactional_id
    leader = tc.coordinator_node(tid)
    if leader == broker.node_id:
        return  # verify() asks the local shard
    need = [(t, p, pid, epoch) for t, p, pid, epoch in transactional_partitions(req)
            if not continuing(broker, t, p, pid, epoch)]
    if not need:
        return
    if len(tc.verified) > MAX_REMEMBERED:
        tc.verified.clear()
    codes = await ask(broker, leader, tid, need)
    for (t, p, pid, epoch) in need:
        tc.verified[(tid, pid, epoch, t, p)] = codes.get((t, p), E.NOT_ENOUGH_REPLICAS)


async def ask(broker, leader: int, tid: str, need) -> dict[tuple[str, int], E]:
    addr = next(((b.host, b.port) for b in broker.metadata.brokers if b.node_id == leader), None)
    if addr is None:
        return {}
    pid, epoch = need[0][2], need[0][3]
    by_topic: dict[str, list[int]] = {}
    for t, p, _pid, _epoch in need:
        by_topic.setdefault(t, []).append(p)
    req = AddPartitionsToTxnRequest(transactions=[AddPartitionsToTxnTransaction(
        transactional_id=tid, producer_id=pid, producer_epoch=epoch, verify_only=True,
        topics=[AddPartitionsToTxnTopic(name=t, partitions=ps) for t, ps in by_topic.items()])])
    writer = None
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(*addr), TIMEOUT_S)
        writer.write(codec.encode_request(API_KEY, VERSION, 1, "kwire-txn-verification", req))
        size = int.from_bytes(await asyncio.wait_for(reader.readexactly(4), TIMEOUT_S), "big")
        frame = await asyncio.wait_for(reader.readexactly(size), TIMEOUT_S)
        resp = codec.decode_response(API_KEY, VERSION, memoryview(frame))[1]
    except Exception as e:  # connection refused, timeout, a broken answer: retriable
        log.info("transaction verification with broker %d failed: %s", leader, e)
        return {}
    finally:
        if writer is not None:
            writer.close()
    out: dict[tuple[str, int], E] = {}
    for res in resp.results_by_transaction or ():
        for tr in res.topic_results or ():
            for pr in tr.results_by_partition or ():
                code = E(pr.partition_error_code)
                if code in (E.PRODUCER_FENCED, E.INVALID_PRODUCER_EPOCH):
                    code = E.INVALID_PRODUCER_EPOCH
                elif code not in (E.NONE, E.INVALID_TXN_STATE):
                    code = E.NOT_ENOUGH_REPLICAS
                out[(tr.name, pr.partition_index)] = code
    return out
