"""The transaction coordinator on the event loop: one ``TxnShard`` per ``__transaction_state`` partition.

``TransactionCoordinator`` (``broker.txn_coordinator``) does the I/O the
shards must not do:

* creates ``__transaction_state`` on first use (FindCoordinator key type 1,
  InitProducerId) with ``transaction.state.log.num.partitions`` partitions,
  ``cleanup.policy=compact``, ``segment.bytes`` =
  ``transaction.state.log.segment.bytes`` (``internal.segment.bytes`` below 1 MiB,
  ``coordinator.base.internal_segment_config``); in cluster mode with
  ``transaction.state.log.replication.factor`` replicas and
  ``min.insync.replicas`` = ``transaction.state.log.min.isr`` once that many
  brokers are alive (COORDINATOR_NOT_AVAILABLE before);
* follows leadership exactly as the group coordinator does (the broker's
  leadership listener): becoming leader of a partition replays its log into a
  new shard (requests answer COORDINATOR_LOAD_IN_PROGRESS meanwhile), then
  resends the markers of every transaction found in PrepareCommit/PrepareAbort
  (a crash between EndTxn and the markers); losing it drops the shard
  (NOT_COORDINATOR). The coordinator epoch written into markers is the
  partition's leader epoch;
* runs operations: the shard's writes are appended to its partition as one
  batch, replayed, and (cluster mode) answered once replicated
  (``broker.wait_replicated``; not replicated: the replay is undone, as Kafka
  resets the pending state, and the caller retries); then markers are written: to partitions this
  broker leads by a local append (origin COORDINATOR; in cluster mode done
  only once replicated, as Kafka's acks=-1 marker append), to others through
  ``markers.MarkerSender`` (WriteTxnMarkers to their leader, as Kafka's
  TransactionMarkerChannelManager), with the transaction's client version
  (``transaction_version``: the leader's epoch rule for transactions v2);
  markers on ``__consumer_offsets`` also complete the group coordinator's
  pending transactional offsets. Once every marker is written, Complete* is
  written (retried every ``COMPLETE_RETRY_S`` while COORDINATOR_NOT_AVAILABLE,
  as Kafka's completion append retry); a fenced marker (INVALID_PRODUCER_EPOCH,
  TRANSACTION_COORDINATOR_FENCED) cancels the rest and Complete* is not
  written, as Kafka's TransactionMarkerRequestCompletionHandler;
* timers: every ``transaction.abort.timed.out.transaction.cleanup.interval.ms``
  abandoned transactions are fenced and aborted; every
  ``transaction.remove.expired.transaction.cleanup.interval.ms`` idle ids
  older than ``transactional.id.expiration.ms`` are tombstoned.

EndTxn is answered once PrepareCommit/PrepareAbort is durable, as Kafka does;
the client then gets CONCURRENT_TRANSACTIONS until the markers are written.

Transactions v2 (KIP-890 part 2): ``add_implicitly`` is the coordinator side
of the implicit partition add of Produce v12+ / TxnOffsetCommit v5+ when the
coordinator is this broker (``verification`` asks a remote one with
AddPartitionsToTxn v5); its answers are left in ``verified`` for ``verify``.
``stats`` counts client adds (AddPartitionsToTxn v0-3, AddOffsetsToTxn),
implicit adds and v2 EndTxns, for tests and operators.
"""

from __future__ import annotations

import asyncio
import logging

from kwire.clock import now_ms
from kwire.coordinator.base import CoordinatorError, partition_for
from kwire.coordinator.internal_topic import InternalTopic
from kwire.coordinator.replay import LogReplay
from kwire.log.validate import AppendOrigin
from kwire.protocol.errors import ErrorCode as E, KafkaError
from kwire.records.builder import build_batch
from kwire.records.control import ABORT, COMMIT, build_end_txn_batch

from .markers import DONE_MARKER_CODES, FENCED_MARKER_CODES, RETRIABLE_MARKER_CODES
from .records import RecordError, decode_key, decode_value, encode_key, encode_value
from .state import Markers, TxnShard, Write

log = logging.getLogger("kwire.transactions")

TRANSACTION_STATE_TOPIC = "__transaction_state"
GROUP_METADATA_TOPIC = "__consumer_offsets"
MARKER_RETRY_S = 0.5
COMPLETE_RETRY_S = 0.5  # Complete* append retry while its partition is short of ISR


class TransactionCoordinator:
    def __init__(self, broker) -> None:
        self.broker = broker
        self.shards: dict[int, TxnShard] = {}
        self.loading: set[int] = set()
        self.epochs: dict[int, int] = {}  # partition -> leader epoch (the coordinator epoch)
        self._led: dict[int, int] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task] = set()
        self._topic = InternalTopic(broker, TRANSACTION_STATE_TOPIC, "transaction.state.log", "transactions state",
                                    {"cleanup.policy": "compact", "compression.type": "uncompressed",
                                     "unclean.leader.election.enable": "false"},
                                    min_isr=True, error=CoordinatorError)
        self._closed = False
        self._timer: asyncio.TimerHandle | None = None
        self._next_abort = self._next_expire = 0
        self.sender = None  # markers.MarkerSender (cluster mode), made on first use
        # (transactional id, producer id, epoch, topic, partition) -> the remote coordinator's
        # verification answer, for the appends of the Produce request that asked (cluster mode)
        self.verified: dict[tuple, E] = {}
        self.stats = {"client_adds": 0, "implicit_adds": 0, "end_txn_v2": 0}
        # transactional id -> a future done once its last Produce request was verified
        # (``verification.verify_produce`` keeps one producer's requests in arrival order)
        self.produce_order: dict[str, asyncio.Future] = {}
        broker.add_leadership_listener(self.on_leadership)

    @property
    def cluster_mode(self) -> bool:
        return bool(getattr(self.broker, "cluster_mode", False))

    def _cfg(self, name: str):
        return self.broker.config[name]

    @property
    def num_partitions(self) -> int:
        t = self.broker.metadata.topic(TRANSACTION_STATE_TOPIC)
        return len(t.partitions) if t is not None else self._cfg("transaction.state.log.num.partitions")

    def partition_for(self, transactional_id: str) -> int:
        return partition_for(transactional_id, self.num_partitions)

    # -- lifecycle -----------------------------------------------------------------------
    def start(self) -> None:
        if self._loop is not None or self._closed:
            return
        self._loop = asyncio.get_running_loop()
        now = now_ms()
        self._next_abort = now + self._cfg("transaction.abort.timed.out.transaction.cleanup.interval.ms")
        self._next_expire = now + self._cfg("transaction.remove.expired.transaction.cleanup.interval.ms")
        for p, epoch in sorted(self._led.items()):
            self._load(p, epoch)
        self._led.clear()
        self._timer = self._loop.call_later(1.0, self._tick)

    def close(self) -> None:
        self._closed = True
        for t in list(self._tasks):
            t.cancel()
        if self._timer is not None:
            self._timer.cancel()
        if self.sender is not None:
            self.sender.close()

    def _spawn(self, coro) -> None:
        task = (self._loop or asyncio.get_running_loop()).create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- ownership -----------------------------------------------------------------------
    def on_leadership(self, topic: str, partition: int, is_leader: bool, leader_epoch: int = -1) -> None:
        if topic != TRANSACTION_STATE_TOPIC or self._closed:
            return
        if not is_leader:
            self._led.pop(partition, None)
            self.shards.pop(partition, None)
            self.loading.discard(partition)
            self.epochs.pop(partition, None)
            return
        if partition in self.shards:
            self.epochs[partition] = max(leader_epoch, 0)
            return
        if self._loop is None:
            self._led[partition] = leader_epoch
            return
        self._load(partition, leader_epoch)

    def _load(self, partition: int, leader_epoch: int) -> None:
        shard = TxnShard(partition, self._cfg("transaction.max.timeout.ms"))
        self.shards[partition] = shard
        self.epochs[partition] = max(leader_epoch, 0)
        plog = self.broker.get_log(TRANSACTION_STATE_TOPIC, partition)
        if plog is None or plog.log_end_offset <= plog.log_start_offset:
            return
        self.loading.add(partition)
        self._spawn(self._replay_log(partition, shard, plog))

    async def _replay_log(self, partition: int, shard: TxnShard, plog) -> None:
        replay = LogReplay(plog, TRANSACTION_STATE_TOPIC, partition,
                           lambda rec: shard.replay(decode_key(rec.key), decode_value(rec.value)),
                           errors=(RecordError, UnicodeDecodeError))
        try:
            await replay.run_async()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("loading %s-%d failed", TRANSACTION_STATE_TOPIC, partition)
        finally:
            if self.shards.get(partition) is shard:
                self.loading.discard(partition)
        log.info("loaded %s-%d: %d records, %d transactional ids", TRANSACTION_STATE_TOPIC,
                 partition, replay.records, len(shard.txns))
        if self.shards.get(partition) is shard:
            for w in shard.preparing():  # EndTxn was durable, its markers maybe not
                self._spawn(self._write_markers(partition, shard, w))

    # -- topic ---------------------------------------------------------------------------
    def ensure_topic(self) -> None:
        """Create ``__transaction_state`` if it does not exist yet (``kwire.coordinator.internal_topic``)."""
        self._topic.ensure()

    def shard_for(self, transactional_id: str, create: bool = True) -> tuple[int, TxnShard]:
        """The shard of ``transactional_id`` (CoordinatorError NOT_COORDINATOR,
        COORDINATOR_LOAD_IN_PROGRESS); creates ``__transaction_state`` if ``create``."""
        if self._loop is None and not self._closed:
            self.start()
        if create:
            self.ensure_topic()
        elif self.broker.metadata.topic(TRANSACTION_STATE_TOPIC) is None:
            raise CoordinatorError(E.COORDINATOR_NOT_AVAILABLE)
        p = self.partition_for(transactional_id)
        if p in self.loading:
            raise CoordinatorError(E.COORDINATOR_LOAD_IN_PROGRESS)
        shard = self.shards.get(p)
        if shard is None or not self.broker.is_leader(TRANSACTION_STATE_TOPIC, p):
            if not self.cluster_mode and self.broker.metadata.topic(TRANSACTION_STATE_TOPIC) is not None:
                self._load(p, 0)  # embedded: created just now, led here
                shard = self.shards[p]
            else:
                raise CoordinatorError(E.NOT_COORDINATOR,
                                       f"this broker does not lead {TRANSACTION_STATE_TOPIC}-{p}")
        return p, shard

    # -- operations ----------------------------------------------------------------------
    async def run(self, transactional_id: str, op):
        """``op(shard, now) -> (response, writes)``: append and replay the writes, wait for
        their replication, start their markers; the response (CoordinatorError raised)."""
        p, shard = self.shard_for(transactional_id)
        response, writes = op(shard, now_ms())
        if writes:
            await self._apply(p, shard, writes)
        return response

    async def _apply(self, p: int, shard: TxnShard, writes: list[Write]) -> None:
        now = now_ms()
        batch = build_batch([(encode_key(w.transactional_id),
                              None if w.value is None else encode_value(w.value)) for w in writes],
                            now_ms=now)
        try:
            result = self.broker.append(TRANSACTION_STATE_TOPIC, p, bytearray(batch), now)
        except KafkaError as e:
            log.warning("append to %s-%d failed: %s", TRANSACTION_STATE_TOPIC, p, e.code.name)
            raise CoordinatorError(E.NOT_COORDINATOR if e.code in (E.NOT_LEADER_OR_FOLLOWER,
                                                                   E.KAFKA_STORAGE_ERROR)
                                   else E.COORDINATOR_NOT_AVAILABLE) from None
        undo = shard.apply(writes)
        if self.cluster_mode:
            code = await self.broker.wait_replicated(
                TRANSACTION_STATE_TOPIC, p, result.last_offset + 1,
                self.broker.config.get("request.timeout.ms", 30000) / 1000)
            if code != E.NONE:
                # not durable: the transition did not happen (Kafka resets the pending state), so
                # the caller's retry (EndTxn, InitProducerId, the abort timer, Complete*) redoes it
                # instead of finding a Prepare* whose markers nobody sends
                if self.shards.get(p) is shard:
                    shard.undo(undo)
                log.warning("%s-%d: %s not replicated (%s): transition undone", TRANSACTION_STATE_TOPIC,
                            p, ", ".join(w.transactional_id for w in writes), code.name)
                raise CoordinatorError(E.NOT_COORDINATOR if code == E.NOT_LEADER_OR_FOLLOWER
                                       else E.COORDINATOR_NOT_AVAILABLE)
        for w in writes:
            if w.markers is not None:
                self._spawn(self._write_markers(p, shard, w))

    # -- markers -------------------------------------------------------------------------
    async def _write_markers(self, p: int, shard: TxnShard, w: Write) -> None:
        """Write the markers of ``w`` until every partition is done, then Complete*, as
        Kafka's TransactionMarkerRequestCompletionHandler: NONE (and UNSUPPORTED_VERSION /
        UNSUPPORTED_FOR_MESSAGE_FORMAT) take the partition off, the retriable errors and a
        failed request retry it with its leader of then; INVALID_PRODUCER_EPOCH or
        TRANSACTION_COORDINATOR_FENCED for any partition (a newer producer epoch or
        coordinator took over) cancel the rest: no more markers and no Complete*, the
        transaction stays Prepare* until a coordinator reloads the partition. Any other
        error is unexpected (Kafka throws in its handler): logged, the markers cancelled."""
        m: Markers = w.markers
        left = set(m.partitions)
        while left and not self._closed:
            if self.shards.get(p) is not shard:
                return  # no longer the coordinator: the new one resends them
            coordinator_epoch = self.epochs.get(p, 0)
            codes: dict[tuple[str, int], E] = {}
            remote: dict[int, list[tuple[str, int]]] = {}
            local: list[tuple[tuple[str, int], int]] = []  # (partition, offset its HW must pass)
            for tp in sorted(left):
                topic, part = tp
                if self.broker.metadata.partition(topic, part) is None:
                    left.discard(tp)  # the topic was deleted: nothing to mark
                    continue
                if self.broker.is_leader(topic, part):
                    codes[tp] = self.write_marker_locally(topic, part, m.producer_id, m.producer_epoch,
                                                          coordinator_epoch, m.commit,
                                                          m.transaction_version)
                    plog = self.broker.get_log(topic, part) if self.cluster_mode else None
                    if codes[tp] == E.NONE and plog is not None:
                        local.append((tp, plog.log_end_offset))
                else:
                    pstate = self.broker.metadata.partition(topic, part)
                    if pstate.leader >= 0:
                        remote.setdefault(pstate.leader, []).append(tp)
            if remote:
                from .markers import MarkerSender

                if self.sender is None:
                    self.sender = MarkerSender(self.broker)
                codes.update(await self.sender.send(remote, m.producer_id, m.producer_epoch,
                                                    coordinator_epoch, m.commit, m.transaction_version))
            if local:  # acks=all, as a WriteTxnMarkers to this broker would be answered: a marker
                # only on this leader is lost with it, and nobody would write it again
                waited = await self.broker.wait_all_replicated(
                    [(tp[0], tp[1], end) for tp, end in local],
                    self.broker.config.get("request.timeout.ms", 30000) / 1000)
                for (tp, _end), code in zip(local, waited):
                    codes[tp] = code
            if self.shards.get(p) is not shard:
                return
            stop = None
            for tp, code in sorted(codes.items()):
                if code in DONE_MARKER_CODES:
                    left.discard(tp)
                elif code in FENCED_MARKER_CODES:
                    log.info("Sending %s's transaction marker for partition %s-%d has permanently "
                             "failed with error %s with the current coordinator epoch %d; cancel "
                             "sending any more transaction markers to the brokers",
                             w.transactional_id, tp[0], tp[1], code.name, coordinator_epoch)
                    stop = stop or code
                elif code not in RETRIABLE_MARKER_CODES:
                    log.error("Unexpected error %s while sending txn marker for %s (%s-%d); "
                              "cancel sending transaction markers", code.name, w.transactional_id,
                              tp[0], tp[1])
                    stop = stop or code
            if stop is not None:
                return
            if left:
                await asyncio.sleep(MARKER_RETRY_S)
        # Complete*, retried while the partition cannot take it (COORDINATOR_NOT_AVAILABLE: its ISR
        # below min.insync.replicas, the write not replicated in time), as Kafka's
        # TransactionMarkerChannelManager retries the completion append: given up, the transaction
        # would stay Prepare* (InitProducerId answering CONCURRENT_TRANSACTIONS) until the
        # partition moved to another broker
        while not left and not self._closed and self.shards.get(p) is shard:
            try:
                writes = shard.complete(w.transactional_id, now_ms())
                if writes:
                    await self._apply(p, shard, writes)
                return
            except CoordinatorError as e:
                if e.code != E.COORDINATOR_NOT_AVAILABLE:
                    log.warning("completing transaction %s failed: %s", w.transactional_id, e.code.name)
                    return
                log.warning("completing transaction %s failed: %s; retrying", w.transactional_id,
                            e.code.name)
            await asyncio.sleep(COMPLETE_RETRY_S)

    def write_marker_locally(self, topic: str, partition: int, producer_id: int, producer_epoch: int,
                             coordinator_epoch: int, commit: bool, transaction_version: int = 0) -> E:
        """Append one COMMIT/ABORT marker to a partition led here (also WriteTxnMarkers).
        The log checks it as Kafka's appendEndTxnMarker: INVALID_PRODUCER_EPOCH for a
        producer epoch below the partition's (``transaction_version`` 2: not above it,
        unless the transaction already ended there), TRANSACTION_COORDINATOR_FENCED for a
        coordinator epoch below the last marker's (nothing written either way)."""
        now = now_ms()
        batch = build_end_txn_batch(COMMIT if commit else ABORT, producer_id=producer_id,
                                    producer_epoch=producer_epoch, coordinator_epoch=coordinator_epoch,
                                    timestamp=now)
        try:
            self.broker.append(topic, partition, bytearray(batch), now, origin=AppendOrigin.COORDINATOR,
                               transaction_version=transaction_version)
        except KafkaError as e:
            log.warning("marker for producer %d to %s-%d failed: %s", producer_id, topic, partition,
                        e.code.name)
            return e.code
        if topic == GROUP_METADATA_TOPIC:
            self.broker.group_coordinator.complete_txn(partition, producer_id, commit)
        return E.NONE

    # -- produce verification --------------------------------------------------------------
    def coordinator_node(self, transactional_id: str) -> int:
        """The broker leading the id's ``__transaction_state`` partition (-1: none known)."""
        pstate = self.broker.metadata.partition(TRANSACTION_STATE_TOPIC, self.partition_for(transactional_id))
        return pstate.leader if pstate is not None else -1

    def verify(self, transactional_id: str, producer_id: int, epoch: int, topic: str,
               partition: int) -> bool:
        """Old protocol: a transactional batch is accepted only for a partition added to the
        ongoing transaction (KIP-890 part 1). The local shard answers when the coordinator
        is here; otherwise (cluster mode) a transaction already open in the partition at
        this epoch continues, and a new one needs the answer ``verification.verify_produce``
        got from the coordinator's broker before the append (``verified``). Raises
        KafkaError for INVALID_PRODUCER_EPOCH and NOT_ENOUGH_REPLICAS answers."""
        code = self.verified.pop((transactional_id, producer_id, epoch, topic, partition), None)
        if code is not None:  # asked before the append (remote verification, v2 implicit add)
            if code == E.NONE:
                return True
            if code == E.INVALID_TXN_STATE:
                return False
            raise KafkaError(code, f"transaction verification of {topic}-{partition}: {code.name}")
        if not self.broker.config.get("transaction.partition.verification.enable", True):
            return True
        p = self.partition_for(transactional_id)
        shard = self.shards.get(p)
        if shard is not None and p not in self.loading and self.broker.is_leader(TRANSACTION_STATE_TOPIC, p):
            return shard.verify(transactional_id, producer_id, epoch, (topic, partition))
        if not self.cluster_mode:
            return False
        from .verification import continuing

        if continuing(self.broker, topic, partition, producer_id, epoch):
            return True
        raise KafkaError(E.NOT_ENOUGH_REPLICAS, f"transaction verification of {topic}-{partition}: "
                         "no answer from the coordinator")

    async def add_implicitly(self, transactional_id: str, need) -> dict[tuple[str, int], E]:
        """Transactions v2 on the coordinator's broker: add ``need`` ((topic, partition,
        producer id, epoch), one producer) to the ongoing transaction; the answers as
        ``verification.ask`` maps them (Kafka's AddPartitionsToTxnManager)."""
        from .verification import map_code

        tid, pid, epoch = transactional_id, need[0][2], need[0][3]
        wanted = [(t, p) for t, p, _pid, _epoch in need]
        self.stats["implicit_adds"] += 1
        try:
            code = await self.run(tid, lambda shard, now: shard.add_partitions(
                tid, pid, epoch, wanted, now, client_version=2))
        except CoordinatorError as e:
            code = e.code
        return {tp: map_code(code) for tp in wanted}

    async def verify_async(self, transactional_id: str, producer_id: int, epoch: int, topic: str,
                           partition: int, add: bool = False) -> E:
        """``verify`` for one partition, asking the coordinator's broker when it is another one
        (TxnOffsetCommit): NONE, INVALID_TXN_STATE, INVALID_PRODUCER_EPOCH, NOT_ENOUGH_REPLICAS
        (Kafka's mapping of a failure to ask) or a coordinator error of this broker. ``add``
        (TxnOffsetCommit v5+, transactions v2): the partition is added implicitly instead."""
        from .verification import ask, continuing

        if add:
            if continuing(self.broker, topic, partition, producer_id, epoch):
                return E.NONE
            need = [(topic, partition, producer_id, epoch)]
            node = self.coordinator_node(transactional_id)
            if node == self.broker.node_id or not self.cluster_mode:
                codes = await self.add_implicitly(transactional_id, need)
            else:
                codes = await ask(self.broker, node, transactional_id, need, add=True)
            return codes.get((topic, partition), E.NOT_ENOUGH_REPLICAS)

        if not self.broker.config.get("transaction.partition.verification.enable", True):
            return E.NONE
        p = self.partition_for(transactional_id)
        shard = self.shards.get(p)
        if shard is not None and p not in self.loading and self.broker.is_leader(TRANSACTION_STATE_TOPIC, p):
            try:
                ok = shard.verify(transactional_id, producer_id, epoch, (topic, partition))
            except KafkaError as e:
                return e.code
            return E.NONE if ok else E.INVALID_TXN_STATE
        if p in self.loading:
            return E.COORDINATOR_LOAD_IN_PROGRESS
        if not self.cluster_mode:
            return E.INVALID_TXN_STATE
        if continuing(self.broker, topic, partition, producer_id, epoch):
            return E.NONE
        codes = await ask(self.broker, self.coordinator_node(transactional_id), transactional_id,
                          [(topic, partition, producer_id, epoch)])
        return codes.get((topic, partition), E.NOT_ENOUGH_REPLICAS)

    # -- timers --------------------------------------------------------------------------
    def _tick(self) -> None:
        self._timer = None
        if self._closed:
            return
        now = now_ms()
        try:
            if now >= self._next_abort:
                self._next_abort = now + self._cfg("transaction.abort.timed.out.transaction.cleanup.interval.ms")
                for p, shard in list(self.shards.items()):
                    if p not in self.loading:
                        writes = shard.timed_out(now)
                        if writes:
                            log.info("aborting %d timed out transactions in %s-%d", len(writes),
                                     TRANSACTION_STATE_TOPIC, p)
                            self._spawn(self._quietly(p, shard, writes))
            if now >= self._next_expire:
                self._next_expire = now + self._cfg("transaction.remove.expired.transaction.cleanup.interval.ms")
                for p, shard in list(self.shards.items()):
                    if p not in self.loading:
                        writes = shard.expired(now, self._cfg("transactional.id.expiration.ms"))
                        if writes:
                            self._spawn(self._quietly(p, shard, writes))
        except Exception:
            log.exception("transaction coordinator timers failed")
        delay = max(0.05, min(self._next_abort, self._next_expire, now + 1000) - now) / 1000
        self._timer = self._loop.call_later(delay, self._tick)

    async def _quietly(self, p: int, shard: TxnShard, writes: list[Write]) -> None:
        try:
            await self._apply(p, shard, writes)
        except CoordinatorError as e:
            log.warning("%s-%d: timer writes failed: %s", TRANSACTION_STATE_TOPIC, p, e.code.name)
