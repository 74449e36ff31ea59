"""Transaction markers to partitions led by other brokers: WriteTxnMarkers over the wire.

Kafka's TransactionMarkerChannelManager in miniature: for a finished
transaction, the coordinator groups the partitions it does not lead by their
current leader and sends each leader one WriteTxnMarkers (v2) request, with
the transaction's client version (``transaction_version``: the leader applies
the transactions v2 epoch rule to the markers). ``send`` returns every
partition's error code; a failed request answers REQUEST_TIMED_OUT for its
partitions. The caller decides as Kafka's
TransactionMarkerRequestCompletionHandler (the code sets below): done,
retried with the leader the metadata then names, or fenced (cancel).

One short-lived connection per request (markers are written once per
transaction and partition leader, not per record). Not here: batching the
markers of several transactions into one request, as Kafka's queue does.
"""

from __future__ import annotations

import asyncio
import logging

from kwire.protocol.errors import ErrorCode, code_of
from kwire.protocol.generated.write_txn_markers_request import (
    WritableTxnMarker,
    WritableTxnMarkerTopic,
    WriteTxnMarkersRequest,
)
from kwire.security import inter_broker

log = logging.getLogger("kwire.transactions")

API_KEY = 27
VERSION = 2
TIMEOUT_S = 30.0
# Kafka's TransactionMarkerRequestCompletionHandler, per partition: written (or, for the
# UNSUPPORTED ones, the producer could not have written there either: taken off as done)
DONE_MARKER_CODES = frozenset((ErrorCode.NONE, ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT,
                               ErrorCode.UNSUPPORTED_VERSION))
# retried with the partition's leader of then
RETRIABLE_MARKER_CODES = frozenset((
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.NOT_LEADER_OR_FOLLOWER,
    ErrorCode.NOT_ENOUGH_REPLICAS, ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
    ErrorCode.REQUEST_TIMED_OUT, ErrorCode.KAFKA_STORAGE_ERROR))
# a newer producer epoch or coordinator took over: no more markers, no Complete*
FENCED_MARKER_CODES = frozenset((ErrorCode.INVALID_PRODUCER_EPOCH,
                                 ErrorCode.TRANSACTION_COORDINATOR_FENCED))


class MarkerSender:
    def __init__(self, broker) -> None:
        self.broker = broker

    def close(self) -> None:
        pass

    async def send(self, by_leader: dict[int, list[tuple[str, int]]], producer_id: int,
                   producer_epoch: int, coordinator_epoch: int, commit: bool,
                   transaction_version: int = 0) -> dict[tuple[str, int], ErrorCode]:
        """Every partition's answer (REQUEST_TIMED_OUT: no answer from its leader)."""
        results = await asyncio.gather(*(
            self._send_one(leader, parts, producer_id, producer_epoch, coordinator_epoch, commit,
                           transaction_version)
            for leader, parts in by_leader.items()))
        codes: dict[tuple[str, int], ErrorCode] = {}
        for r in results:
            codes.update(r)
        return codes

    async def _send_one(self, leader: int, parts, producer_id, producer_epoch, coordinator_epoch,
                        commit, transaction_version) -> dict[tuple[str, int], ErrorCode]:
        # a disconnection or an unknown endpoint: Kafka re-enqueues the markers (retried)
        failed = {tp: ErrorCode.REQUEST_TIMED_OUT for tp in parts}
        by_topic: dict[str, list[int]] = {}
        for t, p in parts:
            by_topic.setdefault(t, []).append(p)
        req = WriteTxnMarkersRequest(markers=[WritableTxnMarker(
            producer_id=producer_id, producer_epoch=producer_epoch, transaction_result=commit,
            coordinator_epoch=coordinator_epoch, transaction_version=transaction_version,
            topics=[WritableTxnMarkerTopic(name=t, partition_indexes=ps) for t, ps in by_topic.items()])])
        try:  # the leader's inter-broker listener, its TLS and SASL (kwire.security.inter_broker)
            resp = await inter_broker.request_once(self.broker, leader, API_KEY, VERSION, req,
                                                   "kwire-txn-markers", TIMEOUT_S)
        except inter_broker.NoEndpoint:
            return failed
        except Exception as e:
            log.info("WriteTxnMarkers to broker %d failed: %s", leader, e)
            return failed
        for m in resp.markers or ():
            for t in m.topics or ():
                for p in t.partitions or ():
                    tp = (t.name, p.partition_index)
                    if tp not in failed:
                        continue
                    failed[tp] = code = code_of(p.error_code)
                    if code != ErrorCode.NONE:
                        log.info("marker for producer %d on %s-%d: %s", producer_id, t.name,
                                 p.partition_index, code.name)
        return failed
