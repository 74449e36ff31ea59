"""The group coordinator on the event loop: shards per ``__consumer_offsets`` partition.

``GroupCoordinator`` (``broker.group_coordinator``) owns one
``GroupCoordinatorShard`` per partition of ``__consumer_offsets`` and does the
I/O the shards must not do:

* creates ``__consumer_offsets`` when first needed (FindCoordinator, or any
  group request), with ``offsets.topic.num.partitions`` partitions,
  ``cleanup.policy=compact`` and ``segment.bytes`` = ``offsets.topic.segment.bytes``
  (``internal.segment.bytes`` below segment.bytes' 1 MiB minimum);
* on start, loads every shard by replaying its partition from the log start to
  the high watermark (in chunks of ``offsets.load.buffer.size``, yielding to the
  loop between chunks); requests for a loading shard answer
  COORDINATOR_LOAD_IN_PROGRESS; a partition whose log dir failed to load at
  start-up is never loaded: its groups answer COORDINATOR_NOT_AVAILABLE (an
  empty shard would make consumers reset their offsets) until a restart;
* runs operations: the shard returns a ``Result``; its records are appended to
  the shard's partition as one batch (``build_batch``) and then replayed; if the
  append fails, the result's ``on_error`` answers with Kafka's mapping of the
  append error (COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, UNKNOWN_SERVER_ERROR);
* runs timers: one event-loop timer handle is armed for the earliest shard
  deadline (at most a second ahead), and re-armed to fire at once after every
  operation, since new deadlines may be due now (``group.initial.rebalance.delay.ms=0``);
  offset expiry runs every ``offsets.retention.check.interval.ms``. A handle,
  not a task, so that closing leaves nothing pending on the loop.

Pending responses (JoinGroup, SyncGroup) are awaited through the broker's
purgatory (``wait``), so a shutdown wakes them like any delayed operation. Everything runs on the event loop thread; appends are synchronous,
so an operation, its append and its replay happen without interleaving.

Ownership (Kafka's GroupCoordinator.onElection / onResignation): the broker's
leadership listener says which ``__consumer_offsets`` partitions this broker
leads. Becoming leader loads the partition's shard (replaying its log up to
the log end offset, as Kafka's loader does: a new leader's log is the truth
its followers truncate to); losing leadership unloads it: the shard and its
timers are dropped and every response still waiting on it answers
NOT_COORDINATOR. In cluster mode (``broker.cluster_mode``) a group whose
partition this broker does not lead answers NOT_COORDINATOR, and
``__consumer_offsets`` is created with ``offsets.topic.replication.factor``
replicas only once that many brokers are alive (COORDINATOR_NOT_AVAILABLE
until then). In embedded mode every partition is led here: shards are loaded at
start and created on first use, as before.

Writes in cluster mode have acks=all semantics: the records are appended and
staged (``GroupCoordinatorShard.stage``: membership records replayed at once,
so later operations see them), and the response is a ``Pending`` answered
only once the partition's high watermark passed them
(``broker.wait_replicated``, at most ``offsets.commit.timeout.ms``). Then the
write is settled: committed offsets and a classic group's assignment apply
only now; a failure drops them (a failed transactional commit's pending
offsets are taken back) and answers the operation's ``on_error`` with
Kafka's mapping of the error (NOT_ENOUGH_REPLICAS[_AFTER_APPEND] and
REQUEST_TIMED_OUT: COORDINATOR_NOT_AVAILABLE; NOT_LEADER_OR_FOLLOWER:
NOT_COORDINATOR); the KIP-848 and share groups it changed are put back as
they were (Kafka reverts to its last committed snapshot).
"""

from __future__ import annotations

import asyncio
import logging
import time

from kwire.clock import now_ms
from kwire.coordinator.base import CoordinatorError, OpContext, Pending, Result, partition_for
from kwire.coordinator.internal_topic import InternalTopic
from kwire.coordinator.records import RecordError, decode_record, encode_record
from kwire.coordinator.replay import LogReplay
from kwire.coordinator.shard import CoordinatorConfig, GroupCoordinatorShard
from kwire.protocol.errors import ErrorCode as E, KafkaError
from kwire.log.validate import AppendOrigin
from kwire.records.builder import build_batch
from kwire.delayed import REBALANCE

log = logging.getLogger("kwire.coordinator")

GROUP_METADATA_TOPIC = "__consumer_offsets"
MAX_TIMER_SLEEP_S = 1.0
MAX_WAIT_S = 24 * 3600.0  # a waiting JoinGroup/SyncGroup ends on the group's own timers long before

_APPEND_ERRORS = {
    E.UNKNOWN_TOPIC_OR_PARTITION: E.COORDINATOR_NOT_AVAILABLE,
    E.NOT_ENOUGH_REPLICAS: E.COORDINATOR_NOT_AVAILABLE,
    E.NOT_ENOUGH_REPLICAS_AFTER_APPEND: E.COORDINATOR_NOT_AVAILABLE,
    E.REQUEST_TIMED_OUT: E.COORDINATOR_NOT_AVAILABLE,
    E.NOT_LEADER_OR_FOLLOWER: E.NOT_COORDINATOR,
    E.KAFKA_STORAGE_ERROR: E.NOT_COORDINATOR,
    E.MESSAGE_TOO_LARGE: E.UNKNOWN_SERVER_ERROR,
    E.RECORD_LIST_TOO_LARGE: E.UNKNOWN_SERVER_ERROR,
    E.INVALID_FETCH_SIZE: E.UNKNOWN_SERVER_ERROR,
}


def op_context(ctx) -> OpContext:
    """OpContext from a handler's RequestContext (client host as Kafka shows it: "/1.2.3.4")."""
    return OpContext(ctx.api_version, ctx.client_id or "", "/" + (ctx.client_host or ""))


class TopicsView:
    """Topic names, ids and partition counts for KIP-848 assignment, from the broker's metadata.

    ``regex_filters[group_id][member_id]``: the DESCRIBE check of the principal of the member's
    last heartbeat, applied to its regex subscription's matches (set by ``consumer_ops``; not
    persisted: a member's next heartbeat sets it again after a restart)."""

    def __init__(self, metadata) -> None:
        self.md = metadata
        self.regex_filters: dict[str, dict] = {}

    def by_name(self, name: str):
        t = self.md.topic(name)
        return None if t is None else (t.topic_id.bytes, len(t.partitions))

    def name_of(self, topic_id: bytes) -> str | None:
        import uuid

        t = self.md.topic_by_id(uuid.UUID(bytes=bytes(topic_id)))
        return None if t is None else t.name

    def names(self) -> list[str]:
        return [n for n, t in self.md.topics.items() if not t.internal]


class GroupCoordinator:
    def __init__(self, broker, share_member_removed=None) -> None:
        """``share_member_removed(group id, member id)``: a share-group member was fenced."""
        self.broker = broker
        self.share_member_removed = share_member_removed
        self.config = CoordinatorConfig.from_broker_config(broker.config)
        self.topics = TopicsView(broker.metadata)
        self.shards: dict[int, GroupCoordinatorShard] = {}
        self.loading: set[int] = set()
        self._tasks: set[asyncio.Task] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handle: asyncio.TimerHandle | None = None
        self._armed_at: float | None = None  # loop time the handle fires at
        self._next_expiry = 0
        self._closed = False
        self._load_tasks: dict[int, asyncio.Task] = {}
        self._waiting: dict[int, set[Pending]] = {}  # partition -> responses waiting on its shard
        self._led: set[int] = set()  # leadership said before the loop ran (loaded by start)
        self._topic = InternalTopic(broker, GROUP_METADATA_TOPIC, "offsets.topic", "offsets",
                                    {"cleanup.policy": "compact"}, min_isr=False, error=CoordinatorError)
        self._barriers: dict[int, tuple[int, int]] = {}  # id(Pending) -> (partition, offset to replicate)
        add_listener = getattr(broker, "add_leadership_listener", None)
        if add_listener is not None:
            add_listener(self.on_leadership)

    @property
    def cluster_mode(self) -> bool:
        return bool(getattr(self.broker, "cluster_mode", False))

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def num_partitions(self) -> int:
        t = self.broker.metadata.topic(GROUP_METADATA_TOPIC)
        return len(t.partitions) if t is not None else self.broker.config["offsets.topic.num.partitions"]

    def start(self) -> None:
        """Load existing groups and arm the timers (idempotent; needs a running loop)."""
        if self._loop is not None or self._closed:
            return
        self._loop = asyncio.get_running_loop()
        self._next_expiry = now_ms() + self.config.offsets_retention_check_interval_ms
        if self.cluster_mode:  # the leadership listener says what to load
            for p in sorted(self._led):
                if p not in self.shards:
                    self._add_shard(p, load=True)
        else:
            t = self.broker.metadata.topic(GROUP_METADATA_TOPIC)
            if t is not None:
                for p in t.partitions:
                    self._add_shard(p.partition, load=True)
        self._led.clear()
        self._arm()

    def close(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _add_shard(self, partition: int, load: bool) -> GroupCoordinatorShard:
        shard = GroupCoordinatorShard(self.config, partition, self.topics, self.share_member_removed)
        self.shards[partition] = shard
        if load:
            self.loading.add(partition)
            task = asyncio.get_running_loop().create_task(self._load(partition, shard))
            self._tasks.add(task)
            self._load_tasks[partition] = task
            task.add_done_callback(self._tasks.discard)
            task.add_done_callback(
                lambda t: self._load_tasks.pop(partition) if self._load_tasks.get(partition) is t else None)
        return shard

    # -- ownership -------------------------------------------------------------------------
    def on_leadership(self, topic: str, partition: int, is_leader: bool, leader_epoch: int = -1) -> None:
        """The broker's leadership listener: load a partition led here, unload one no longer led."""
        if topic != GROUP_METADATA_TOPIC or self._closed:
            return
        if not is_leader:
            self._led.discard(partition)
            self.unload(partition)
            return
        if partition in self.shards:
            return  # already loaded (or loading)
        if self._loop is None:
            self._led.add(partition)  # start() loads it
            return
        plog = self.broker.get_log(GROUP_METADATA_TOPIC, partition)
        empty = plog is not None and plog.log_end_offset <= plog.log_start_offset
        log.info("%s %s-%d (leader epoch %d)", "new" if empty else "loading", GROUP_METADATA_TOPIC,
                 partition, leader_epoch)
        self._add_shard(partition, load=not empty)  # an empty log has nothing to replay
        self.wake()

    def unload(self, partition: int) -> None:
        """Drop a shard this broker no longer leads: its groups, timers and waiting responses
        (answered NOT_COORDINATOR, so that clients look the coordinator up again)."""
        shard = self.shards.pop(partition, None)
        self.loading.discard(partition)
        task = self._load_tasks.pop(partition, None)
        if task is not None:
            task.cancel()
        waiting = self._waiting.pop(partition, set())
        for pending in list(waiting):
            pending.complete(CoordinatorError(E.NOT_COORDINATOR))
        if shard is not None:
            log.info("unloaded %s-%d: %d groups, %d waiting responses answered NOT_COORDINATOR",
                     GROUP_METADATA_TOPIC, partition, len(shard.groups), len(waiting))
            for group in shard.groups.values():  # member waiters not returned by a run here
                for pending in _group_waiters(group):
                    pending.complete(CoordinatorError(E.NOT_COORDINATOR))

    def _track(self, partition: int, response) -> None:
        """Remember a waiting response of ``partition``'s shard, to answer it if unloaded.

        In cluster mode it is completed by some operation's replay, right after
        that operation's append: ``wait`` then also waits until the HW passed the
        log end offset of that moment (a follower's SyncGroup is answered once the
        leader's assignment is replicated, as Kafka's storeGroup callback does).
        """
        if isinstance(response, Pending) and not response.done:
            waiting = self._waiting.setdefault(partition, set())
            waiting.add(response)

            def completed(r) -> None:
                waiting.discard(response)
                if self.cluster_mode and not isinstance(r, CoordinatorError):
                    plog = self.broker.get_log(GROUP_METADATA_TOPIC, partition)
                    if plog is not None:
                        self._barriers[id(response)] = (partition, plog.log_end_offset)

            response.add_callback(completed)

    def ensure_topic(self) -> None:
        """Create __consumer_offsets (compacted) if it does not exist yet.

        In cluster mode with ``offsets.topic.replication.factor`` replicas,
        once that many brokers are alive (COORDINATOR_NOT_AVAILABLE before, as
        Kafka's KafkaApis.createInternalTopic answers); the topic shows up in
        the image (and its leaders) a moment later (``kwire.coordinator.internal_topic``).
        """
        self._topic.ensure()

    def partition_for(self, group_id: str) -> int:
        return partition_for(group_id, self.num_partitions)

    def shard_for(self, group_id: str) -> tuple[int, GroupCoordinatorShard]:
        """The shard owning ``group_id``; raises COORDINATOR_LOAD_IN_PROGRESS while it loads."""
        if self._loop is None and not self._closed:
            self.start()
        self.ensure_topic()
        p = self.partition_for(group_id)
        if self.cluster_mode and (p not in self.shards or not self._leads(p)):
            raise CoordinatorError(E.NOT_COORDINATOR,
                                   f"this broker does not lead {GROUP_METADATA_TOPIC}-{p}")
        if p in self.loading:
            raise CoordinatorError(E.COORDINATOR_LOAD_IN_PROGRESS)
        if self.broker.partition_offline(GROUP_METADATA_TOPIC, p) and \
                self.broker.get_log(GROUP_METADATA_TOPIC, p) is None:
            # its log dir failed at start-up: the groups were never loaded (an empty shard
            # would make consumers reset their offsets); clients retry, as Kafka's do
            raise CoordinatorError(E.COORDINATOR_NOT_AVAILABLE,
                                   f"{GROUP_METADATA_TOPIC}-{p} is in an offline log dir")
        shard = self.shards.get(p)
        if shard is None:
            shard = self._add_shard(p, load=False)  # a new, empty partition
        return p, shard

    def _leads(self, partition: int) -> bool:
        is_leader = getattr(self.broker, "is_leader", None)
        return is_leader is None or is_leader(GROUP_METADATA_TOPIC, partition)

    def all_shards(self) -> list[GroupCoordinatorShard]:
        """Every loaded shard; raises COORDINATOR_LOAD_IN_PROGRESS while any is loading."""
        if self._loop is None and not self._closed:
            self.start()
        if self.loading:
            raise CoordinatorError(E.COORDINATOR_LOAD_IN_PROGRESS)
        return list(self.shards.values())

    # -- operations ------------------------------------------------------------------------
    def run(self, group_id: str, op):
        """Run ``op(shard, now)`` on the group's shard; append and replay its records.

        Returns the response (possibly a ``Pending``). Raises CoordinatorError
        for load-in-progress and for group-level errors the operation raises.
        """
        p, shard = self.shard_for(group_id)
        result = op(shard, now_ms())
        response = self.apply(p, shard, result) if isinstance(result, Result) else result
        self._track(p, response)
        return response

    def apply(self, partition: int, shard: GroupCoordinatorShard, result: Result):
        try:
            return self._apply_records(partition, shard, result)
        finally:
            self.wake()

    def _apply_records(self, partition: int, shard: GroupCoordinatorShard, result: Result):
        producer = getattr(result, "producer", None)  # TxnOffsetCommit: a transactional batch
        if result.records:
            try:
                appended = self._append(partition, result.records, producer)
            except KafkaError as e:
                code = _APPEND_ERRORS.get(e.code, e.code)
                log.warning("append to %s-%d failed: %s %s", GROUP_METADATA_TOPIC, partition,
                            e.code.name, e.message or "")
                if result.on_error is None:
                    raise CoordinatorError(code) from None
                return result.on_error(code)
            staged = shard.stage(result, producer[0] if producer is not None else None,
                                 replicating=self.cluster_mode and appended is not None)
            if self.cluster_mode and appended is not None:
                return self._when_replicated(partition, shard, appended.last_offset + 1, result, staged)
            shard.settle(staged, True)  # one node: the append itself committed it
        return result.response

    def _append(self, partition: int, records: list, producer: tuple[int, int] | None = None):
        now = now_ms()
        if producer is None:
            batch = build_batch([encode_record(r) for r in records], now_ms=now,
                                compression=self.broker.config["offsets.topic.compression.codec"])
            return self.broker.append(GROUP_METADATA_TOPIC, partition, bytearray(batch), now)
        batch = build_batch([encode_record(r) for r in records], now_ms=now,
                            compression=self.broker.config["offsets.topic.compression.codec"],
                            producer_id=producer[0], producer_epoch=producer[1], is_transactional=True)
        return self.broker.append(GROUP_METADATA_TOPIC, partition, bytearray(batch), now,
                                  origin=AppendOrigin.COORDINATOR)

    def complete_txn(self, partition: int, producer_id: int, commit: bool) -> None:
        """A transaction marker was written to ``__consumer_offsets-<partition>``: its
        pending offsets become committed (or are dropped)."""
        shard = self.shards.get(partition)
        if shard is not None:
            shard.complete_txn(producer_id, commit)

    def _when_replicated(self, partition: int, shard: GroupCoordinatorShard, required_offset: int,
                         result: Result, staged) -> Pending:
        """A Pending answered with ``result.response`` once the HW reached ``required_offset``
        (acks=all), else with ``result.on_error`` of Kafka's mapping of the failure (or a
        CoordinatorError without one). The staged write is settled first: applied when
        replicated, dropped when not (a shard unloaded meanwhile is left alone)."""
        outer = Pending()

        async def waiter() -> None:
            try:
                code = await self._replicated(partition, required_offset)
            except asyncio.CancelledError:
                outer.complete(CoordinatorError(E.NOT_COORDINATOR))
                raise
            if self.shards.get(partition) is shard:
                shard.now = now_ms()
                shard.settle(staged, code == E.NONE)
                self.wake()
            if code == E.NONE:
                response = result.response
                if isinstance(response, Pending):
                    self._track(partition, response)
                    response.add_callback(outer.complete)
                else:
                    outer.complete(response)
                return
            outer.complete(result.on_error(code) if result.on_error is not None
                           else CoordinatorError(code))

        task = self._loop.create_task(waiter()) if self._loop is not None \
            else asyncio.get_running_loop().create_task(waiter())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return outer

    async def wait(self, response, if_unloaded=None, on_error=None):
        """Await a Pending response (or return an immediate one).

        The wait is a delayed operation of the broker's purgatory, so it ends
        when the server shuts down (``wake_all``) too; then ``if_unloaded`` is
        answered — NOT_COORDINATOR, as Kafka answers when a coordinator goes away.
        A Pending answered with a CoordinatorError (its shard was unloaded, its
        records were not replicated) answers ``on_error(code)``, else ``if_unloaded``.
        """
        if not isinstance(response, Pending):
            return response
        try:
            if not response.done:
                key = ("group-coordinator", id(response))
                purgatory = self.broker.purgatory
                response.add_callback(lambda r: purgatory.notify(key))
                await purgatory.wait([key], lambda k, n: response.done, MAX_WAIT_S, REBALANCE)
            if not response.done:
                return if_unloaded
            barrier = self._barriers.pop(id(response), None)
            if barrier is not None and not isinstance(response.response, CoordinatorError):
                code = await self._replicated(*barrier)
                if code != E.NONE:
                    return on_error(code) if on_error is not None else if_unloaded
            return self.wait_now(response, if_unloaded, on_error)
        finally:
            self._barriers.pop(id(response), None)

    async def _replicated(self, partition: int, required_offset: int) -> E:
        """NONE once the HW of the partition reached ``required_offset``, else the error a
        client should see (Kafka's mapping of append errors)."""
        timeout_s = self.broker.config["offsets.commit.timeout.ms"] / 1000
        try:
            code = E(await self.broker.wait_replicated(GROUP_METADATA_TOPIC, partition,
                                                       required_offset, timeout_s))
        except KafkaError as e:
            code = e.code
        if code != E.NONE:
            log.warning("%s-%d: records up to offset %d not replicated: %s", GROUP_METADATA_TOPIC,
                        partition, required_offset - 1, code.name)
        return _APPEND_ERRORS.get(code, code)

    @staticmethod
    def wait_now(response, if_unloaded=None, on_error=None):
        """The response of a Pending that is already done (or the response itself)."""
        if isinstance(response, Pending):
            response = response.response
        if isinstance(response, CoordinatorError):
            return on_error(response.code) if on_error is not None else if_unloaded
        return response

    async def settle(self, response):
        """Await a response that may be Pending; raise CoordinatorError if it failed
        (for handlers that map group-level errors themselves)."""
        if isinstance(response, Pending):
            response = await self.wait(response, CoordinatorError(E.NOT_COORDINATOR), lambda c: CoordinatorError(c))
        if isinstance(response, CoordinatorError):
            raise response
        return response

    def wake(self) -> None:
        """Deadlines may have changed (an operation ran): poll the timers on the next turn."""
        if self._loop is not None and not self._closed:
            self._arm(0.0)

    # -- loading ---------------------------------------------------------------------------
    async def _load(self, partition: int, shard: GroupCoordinatorShard) -> None:
        started = time.monotonic()
        count = 0
        try:
            plog = self.broker.get_log(GROUP_METADATA_TOPIC, partition)
            if plog is not None:
                shard.now = now_ms()
                replay = LogReplay(
                    plog, GROUP_METADATA_TOPIC, partition,
                    lambda rec: shard.replay(decode_record(rec.key, rec.value)), errors=(RecordError,),
                    chunk=self.broker.config["offsets.load.buffer.size"],
                    apply_pending=lambda pid, rec: shard.replay_pending(pid, decode_record(rec.key, rec.value)),
                    on_marker=shard.complete_txn)
                count = await replay.run_async()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("loading %s-%d failed", GROUP_METADATA_TOPIC, partition)
        finally:
            if self.shards.get(partition) is shard:
                self.loading.discard(partition)
        if count:
            log.info("loaded %s-%d: %d records, %d groups in %.3fs", GROUP_METADATA_TOPIC, partition,
                     count, len(shard.groups), time.monotonic() - started)
        self.wake()

    # -- timers ----------------------------------------------------------------------------
    def _arm(self, delay: float | None = None) -> None:
        """Make the single timer handle fire after ``delay`` s (default: at the next deadline)."""
        if delay is None:
            deadlines = [d for p, s in self.shards.items()
                         if p not in self.loading and (d := s.next_deadline()) is not None]
            deadlines.append(self._next_expiry)
            delay = max(0.0, min(min(deadlines) - now_ms(), MAX_TIMER_SLEEP_S * 1000) / 1000)
        when = self._loop.time() + delay
        if self._handle is not None:
            if self._armed_at is not None and self._armed_at <= when:
                return  # already firing sooner
            self._handle.cancel()
        self._armed_at = when
        self._handle = self._loop.call_at(when, self._fire)

    def _fire(self) -> None:
        self._handle = self._armed_at = None
        if self._closed:
            return
        try:
            self.run_timers(now_ms())
        except Exception:
            log.exception("group coordinator timers failed")
        if self._handle is None:
            self._arm()

    def run_timers(self, now: int) -> None:
        expire = now >= self._next_expiry
        if expire:
            self._next_expiry = now + self.config.offsets_retention_check_interval_ms
        for p, shard in list(self.shards.items()):
            if p in self.loading:
                continue
            for result in shard.poll_timers(now):
                self._apply_quietly(p, shard, result)
            if expire:
                self._apply_quietly(p, shard, shard.expire_offsets(now))

    def _apply_quietly(self, p: int, shard: GroupCoordinatorShard, result: Result) -> None:
        try:
            self._apply_records(p, shard, result)
        except CoordinatorError as e:
            log.warning("%s-%d: timer records not written: %s", GROUP_METADATA_TOPIC, p, e.code.name)


def _group_waiters(group):
    """The Pending responses a group's members wait on (classic JoinGroup / SyncGroup)."""
    members = getattr(group, "members", None)
    if not isinstance(members, dict):
        return []
    out = []
    for m in members.values():
        for name in ("join_waiter", "sync_waiter"):
            p = getattr(m, name, None)
            if isinstance(p, Pending) and not p.done:
                out.append(p)
    return out
