"""Transaction markers to partitions led by other brokers: WriteTxnMarkers over the wire.

Kafka's TransactionMarkerChannelManager in miniature: for a finished
transaction, the coordinator groups the partitions it does not lead by their
current leader and sends each leader one WriteTxnMarkers (v1) request; a
partition answered without error is done, every other one (connection
failure, NOT_LEADER_OR_FOLLOWER while leadership moves, a timeout) is
retried by the caller with the leader the metadata then names.

One short-lived connection per request (markers are written once per
transaction and partition leader, not per record). Not here: batching the
markers of several transactions into one request, as Kafka's queue does.
"""

from __future__ import annotations

import asyncio
import logging

from kwire.protocol import codec
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.write_txn_markers_request import (
    WritableTxnMarker,
    WritableTxnMarkerTopic,
    WriteTxnMarkersRequest,
)

log = logging.getLogger("kwire.transactions")

API_KEY = 27
VERSION = 1
TIMEOUT_S = 30.0
# a partition answered with these gets no more markers: written, or fenced. Kafka's
# TransactionMarkerRequestCompletionHandler stops on INVALID_PRODUCER_EPOCH and
# TRANSACTION_COORDINATOR_FENCED (a newer producer or coordinator took over); kwire then
# carries on as for a written marker.
FINAL_MARKER_CODES = (ErrorCode.NONE, ErrorCode.INVALID_PRODUCER_EPOCH,
                      ErrorCode.TRANSACTION_COORDINATOR_FENCED)


class MarkerSender:
    def __init__(self, broker) -> None:
        self.broker = broker
        self._cid = 0

    def close(self) -> None:
        pass

    def _endpoint(self, node_id: int):
        for b in self.broker.metadata.brokers:
            if b.node_id == node_id:
                return b.host, b.port
        return None

    async def send(self, by_leader: dict[int, list[tuple[str, int]]], producer_id: int,
                   producer_epoch: int, coordinator_epoch: int, commit: bool) -> set[tuple[str, int]]:
        """The partitions whose marker the leaders wrote."""
        results = await asyncio.gather(*(
            self._send_one(leader, parts, producer_id, producer_epoch, coordinator_epoch, commit)
            for leader, parts in by_leader.items()))
        done: set[tuple[str, int]] = set()
        for r in results:
            done |= r
        return done

    async def _send_one(self, leader: int, parts, producer_id, producer_epoch, coordinator_epoch,
                        commit) -> set[tuple[str, int]]:
        addr = self._endpoint(leader)
        if addr is None:
            return set()
        by_topic: dict[str, list[int]] = {}
        for t, p in parts:
            by_topic.setdefault(t, []).append(p)
        req = WriteTxnMarkersRequest(markers=[WritableTxnMarker(
            producer_id=producer_id, producer_epoch=producer_epoch, transaction_result=commit,
            coordinator_epoch=coordinator_epoch,
            topics=[WritableTxnMarkerTopic(name=t, partition_indexes=ps) for t, ps in by_topic.items()])])
        self._cid = (self._cid + 1) & 0x7FFFFFFF
        writer = None
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(*addr), TIMEOUT_S)
            writer.write(codec.encode_request(API_KEY, VERSION, self._cid, "kwire-txn-markers", req))
            size = int.from_bytes(await asyncio.wait_for(reader.readexactly(4), TIMEOUT_S), "big")
            frame = await asyncio.wait_for(reader.readexactly(size), TIMEOUT_S)
            resp = codec.decode_response(API_KEY, VERSION, memoryview(frame))[1]
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, Exception) as e:
            log.info("WriteTxnMarkers to broker %d failed: %s", leader, e)
            return set()
        finally:
            if writer is not None:
                writer.close()
        done = set()
        for m in resp.markers or ():
            for t in m.topics or ():
                for p in t.partitions or ():
                    if p.error_code in FINAL_MARKER_CODES:
                        done.add((t.name, p.partition_index))
                    else:
                        log.info("marker for producer %d on %s-%d: %s", producer_id, t.name,
                                 p.partition_index, ErrorCode(p.error_code).name)
        return done
