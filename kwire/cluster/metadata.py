"""Cluster metadata behind one interface: brokers, topics, partitions, leaders, configs.

``LocalMetadata`` is the single-node implementation (the embedded default): this
broker is the only broker, the controller, and the leader of every partition,
with replicas = isr = [this broker]. Its state is a ``MetadataImage``
(``kwire.cluster.image``) that changes only by replaying change records; the
records are kept durably in an append-only metadata log with snapshots in the
first log dir (``kwire.cluster.metadata_log``: Kafka's KRaft
``__cluster_metadata`` approach), next to Kafka's ``meta.properties``. A data
dir written by older kwire versions (one ``kwire-metadata.json``) is migrated
at start-up. Snapshots are taken by size
(``metadata.log.max.record.bytes.between.snapshots``, in the writer thread
after an append) and by time (``metadata.log.max.snapshot.interval.ms``: a
timer armed by the first change after a snapshot).

Writes: a change is applied to the live image at once (so the next request,
even in the same event-loop turn, sees it) and queued; everything queued in
one loop turn goes to disk as one group, with one write and one fsync, done by
a single writer thread so the event loop never waits for the disk. While a
group is being written the next one gathers. ``durable()`` gives the future of
the group holding the latest change: handlers await it before answering, so an
answer means the change is on disk. If a group cannot be written (an OSError
at the metadata write, e.g. ENOSPC), that group and the one gathering behind it
are undone in the live image in reverse order (Kafka's controller reverts its
uncommitted in-memory state the same way), each change's ``on_abort`` runs (the
broker removes logs it made for it) and their futures fail with
KAFKA_STORAGE_ERROR. ``on_commit`` runs once a change is durable (the broker
deletes a deleted topic's logs only then). Outside a running event loop
(start-up, tools, unit tests) a change is written synchronously instead, and a
failure raises KafkaError(KAFKA_STORAGE_ERROR) after the undo.

Besides topics and dynamic broker configs the image holds the dynamic configs
of consumer groups (KIP-848 GROUP resources, by group id; the group
coordinator reads the live dict) and client metrics subscriptions (KIP-714
CLIENT_METRICS resources, by name), each replaced whole by one record.

Producer ids come in blocks of 1000 (Kafka's ProducerIdsRecord): a block is
reserved with one durable record; the next is reserved when 10% of the current
one is left, and InitProducerId answers COORDINATOR_LOAD_IN_PROGRESS (as
Kafka's broker does) in the rare case that all are used before it is durable.
A restart starts a fresh block.

Leader election (KIP-460) and partition reassignment (KIP-455) are answered
here too, so that the ZooKeeper-backed implementation can act on them: with
one broker every partition's leader is already its preferred replica and no
reassignment is ever in progress, but the checks (unknown partitions, replica
sets naming unregistered brokers or one broker twice) are Kafka's.

Handlers read metadata only through this interface and never open files or
talk to ZooKeeper; a ZooKeeper-backed implementation with the same methods
(caching the same image, fed by the same records) comes with replication. It
does not create or delete logs: the broker does that around metadata changes.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import re
import uuid
from concurrent.futures import Future as ThreadFuture
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

from kwire.cluster.image import INTERNAL_TOPICS, MetadataImage, PartitionState, TopicState, unify
from kwire.cluster.metadata_log import (
    DEFAULT_SNAPSHOT_BYTES,
    DEFAULT_SNAPSHOT_INTERVAL_MS,
    MetadataLog,
    _write_file,
)
from kwire.protocol.errors import ErrorCode, KafkaError

__all__ = ["LocalMetadata", "ImageReads", "TopicState", "PartitionState", "BrokerInfo", "OngoingReassignment",
           "INTERNAL_TOPICS", "topic_name_error", "new_cluster_id"]

log = logging.getLogger("kwire.cluster")

_LEGAL_TOPIC = re.compile(r"^[a-zA-Z0-9._-]+$")
MAX_TOPIC_NAME = 249

# ElectLeaders election types (Kafka's org.apache.kafka.common.ElectionType)
PREFERRED_ELECTION, UNCLEAN_ELECTION = 0, 1
NO_LEADER = -1

PRODUCER_ID_BLOCK_SIZE = 1000  # Kafka's ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE


def topic_name_error(name: str | None) -> str | None:
    """Why ``name`` is not a legal topic name (Kafka's rules), or None if it is."""
    if not name:
        return "Topic name is empty"
    if name in (".", ".."):
        return f"Topic name cannot be '{name}'"
    if len(name) > MAX_TOPIC_NAME:
        return f"Topic name is longer than {MAX_TOPIC_NAME} characters"
    if not _LEGAL_TOPIC.match(name):
        return f"Topic name '{name}' has characters other than ASCII alphanumerics, '.', '_' and '-'"
    return None


@dataclass
class BrokerInfo:
    node_id: int
    host: str
    port: int
    rack: str | None = None
    # cluster mode: every registered endpoint, listener name -> (host, port); brokers connect to
    # each other on the inter-broker listener's (kwire.security.inter_broker)
    endpoints: dict[str, tuple[str, int]] = field(default_factory=dict)


@dataclass
class OngoingReassignment:
    """A partition reassignment in progress (ListPartitionReassignments' shape)."""
    replicas: list[int]
    adding_replicas: list[int]
    removing_replicas: list[int]


def new_cluster_id() -> str:
    """A Kafka-style cluster id: 22 characters of url-safe base64 of a random UUID."""
    return base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")


def _noop() -> None:
    return None


class _Change:
    __slots__ = ("record", "undo", "on_commit", "on_abort")

    def __init__(self, record: dict, undo: Callable, on_commit: Callable | None,
                 on_abort: Callable | None) -> None:
        self.record, self.undo, self.on_commit, self.on_abort = record, undo, on_commit, on_abort


class _Group:
    """Changes written together: one write, one fsync, one future."""
    __slots__ = ("changes", "future", "thread_future", "settled")

    def __init__(self, future: asyncio.Future) -> None:
        self.changes: list[_Change] = []
        self.future = future
        self.thread_future: ThreadFuture | None = None
        self.settled = False


def _retrieve(fut: asyncio.Future) -> None:
    if not fut.cancelled():
        fut.exception()  # a failed group nobody awaited is not an "exception never retrieved"


class ImageReads:
    """The reads both metadata stores answer from their image (``self.image``, a
    ``MetadataImage``): LocalMetadata's replayed log, ZkMetadata's watch-fed copy."""

    image: MetadataImage
    _next_producer_id: int

    @property
    def topics(self) -> dict[str, TopicState]:
        return self.image.topics

    @property
    def by_id(self) -> dict[uuid.UUID, TopicState]:
        return self.image.by_id

    @property
    def cluster_id(self) -> str:
        return self.image.cluster_id

    @property
    def dynamic_broker_configs(self) -> dict[str, str]:
        return self.image.dynamic_broker_configs

    @property
    def dynamic_default_broker_configs(self) -> dict[str, str]:
        return self.image.dynamic_default_broker_configs

    @property
    def next_producer_id(self) -> int:
        return self._next_producer_id

    def topic(self, name: str) -> TopicState | None:
        return self.image.topics.get(name)

    def topic_by_id(self, topic_id: uuid.UUID) -> TopicState | None:
        return self.image.by_id.get(topic_id)

    def partition(self, name: str, partition: int) -> PartitionState | None:
        t = self.image.topics.get(name)
        if t is None or not 0 <= partition < len(t.partitions):
            return None
        return t.partitions[partition]

    def colliding_topic(self, name: str) -> str | None:
        """An existing topic other than ``name`` that equals it once '.' and '_' are alike."""
        for other in self.image.unified.get(unify(name), ()):
            if other != name:
                return other
        return None


class LocalMetadata(ImageReads):
    def __init__(self, data_dir: str, node_id: int, host: str, port: int, *,
                 snapshot_bytes: int = DEFAULT_SNAPSHOT_BYTES,
                 snapshot_interval_ms: int = DEFAULT_SNAPSHOT_INTERVAL_MS) -> None:
        self.data_dir = data_dir
        self.snapshot_interval_ms = snapshot_interval_ms
        self._snapshot_timer: asyncio.TimerHandle | None = None
        self.node_id = node_id
        self.self_broker = BrokerInfo(node_id, host, port)
        self.store = MetadataLog(data_dir, node_id, snapshot_bytes)
        self.load_result = self.store.load(new_cluster_id)
        self.image = self.store.image.copy()
        if self.load_result != "loaded" or not os.path.exists(os.path.join(data_dir, "meta.properties")):
            self._write_meta_properties()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._gathering: _Group | None = None
        self._writing: _Group | None = None
        self._submit_scheduled = False
        self._last_future: asyncio.Future | None = None
        self._closed = False
        # producer ids: hand out [_next_producer_id, _producer_id_end); a restart skips the rest
        self._next_producer_id = self._producer_id_end = self.image.producer_id_block_end
        self._reserving_producer_ids = False
        self._reserve_producer_ids(sync=True)

    @property
    def fresh(self) -> bool:
        """True when this start created the metadata (nothing was there, not even the old file)."""
        return self.load_result == "created"

    @property
    def group_configs(self) -> dict[str, dict[str, str]]:
        """Dynamic group configs (KIP-848) by group id; the dict is live, never replaced."""
        return self.image.group_configs

    @property
    def client_metrics(self) -> dict[str, dict[str, str]]:
        """Client metrics subscriptions (KIP-714) by name: their configs."""
        return self.image.client_metrics

    # -- reads -------------------------------------------------------------------
    @property
    def controller_id(self) -> int:
        return self.node_id

    @property
    def brokers(self) -> list[BrokerInfo]:
        return [self.self_broker]

    def ongoing_reassignments(self) -> dict[tuple[str, int], OngoingReassignment]:
        """Reassignments in progress by (topic, partition): none, as a reassignment
        to the only possible replica set ([this broker]) completes at once."""
        return {}

    def _existing_partition(self, name: str, partition: int, no_topic: str, no_partition: str) -> PartitionState:
        t = self.image.topics.get(name)
        if t is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, no_topic)
        if not 0 <= partition < len(t.partitions):
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, no_partition)
        return t.partitions[partition]

    def validate_replica_assignment(self, replicas: list[int]) -> None:
        """Kafka's checks of a manual replica assignment (INVALID_REPLICA_ASSIGNMENT)."""
        if not replicas:
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                             "The manual partition assignment includes an empty replica list.")
        registered = {b.node_id for b in self.brokers}
        seen: set[int] = set()
        for b in replicas:
            if b in seen:
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                                 f"The manual partition assignment includes the broker {b} more than once.")
            seen.add(b)
            if b not in registered:
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                                 f"The manual partition assignment includes broker {b}, "
                                 f"but no such broker is registered.")

    # -- writes ------------------------------------------------------------------
    def elect_leader(self, name: str, partition: int, election_type: int) -> None:
        """Elect ``partition``'s leader (KIP-460); raise KafkaError when there is nothing to do.

        PREFERRED: ELECTION_NOT_NEEDED when the leader is already the first
        replica. UNCLEAN: ELECTION_NOT_NEEDED when the partition has a leader.
        """
        p = self._existing_partition(name, partition, f"No such topic as {name}",
                                     f"No such partition as {name}-{partition}")
        if election_type == PREFERRED_ELECTION:
            needed = p.leader != p.replicas[0]
        else:
            needed = p.leader == NO_LEADER
        if not needed:
            raise KafkaError(ErrorCode.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition.")
        # Unreachable with one broker (it leads every partition); kept for the interface.
        p.leader = p.replicas[0]
        t = self.image.topics[name]
        self._change({"type": "partition_change", "id": str(t.topic_id), "partition": partition,
                      "leader_epoch": p.leader_epoch + 1},
                     undo=self._undo_epoch(t, partition, p.leader_epoch))

    def alter_reassignment(self, name: str, partition: int, replicas: list[int] | None,
                           allow_replication_factor_change: bool = True) -> None:
        """Start (or, with ``replicas`` None, cancel) a reassignment (KIP-455, KIP-860).

        A target equal to the current replicas is a no-op; on one broker every
        valid target is, so nothing is ever left in progress.
        """
        p = self._existing_partition(name, partition, f"Unable to find a topic named {name}.",
                                     f"Unable to find partition {name}:{partition}.")
        if replicas is None:
            if (name, partition) not in self.ongoing_reassignments():
                raise KafkaError(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS)
            return
        self.validate_replica_assignment(replicas)
        if not allow_replication_factor_change and len(replicas) != len(p.replicas):
            raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                             f"The replication factor is changed from {len(p.replicas)} to {len(replicas)} "
                             f"but allowReplicationFactorChange is false")
        if list(replicas) != p.replicas:
            # A replica set of registered brokers other than the current one needs a second broker.
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                             f"Cannot reassign {name}-{partition} to {list(replicas)} without replication")


    def create_topic(self, name: str, num_partitions: int, configs: dict[str, str], *,
                     on_commit: Callable | None = None, on_abort: Callable | None = None) -> TopicState:
        """Add a topic (validated by the caller; its logs already made). See the module docstring."""
        tid = uuid.uuid4()
        self._change({"type": "topic", "name": name, "id": str(tid), "partitions": num_partitions,
                      "configs": dict(configs)},
                     undo=lambda: self._undo_topic(name, tid), on_commit=on_commit, on_abort=on_abort)
        return self.image.topics[name]

    def delete_topic(self, name: str, *, on_commit: Callable | None = None,
                     on_abort: Callable | None = None) -> TopicState:
        t = self.image.topics[name]
        self._change({"type": "remove_topic", "id": str(t.topic_id)},
                     undo=lambda: self._restore_topic(t), on_commit=on_commit, on_abort=on_abort)
        return t

    def add_partitions(self, name: str, total: int, *, on_commit: Callable | None = None,
                       on_abort: Callable | None = None) -> list[PartitionState]:
        t = self.image.topics[name]
        before = len(t.partitions)

        def undo() -> None:
            del t.partitions[before:]

        self._change({"type": "partitions", "id": str(t.topic_id), "count": total}, undo=undo,
                     on_commit=on_commit, on_abort=on_abort)
        return t.partitions[before:]

    def set_topic_configs(self, name: str, configs: dict[str, str], *, on_commit: Callable | None = None,
                          on_abort: Callable | None = None) -> None:
        t = self.image.topics[name]
        previous = t.configs

        def undo() -> None:
            t.configs = previous

        self._change({"type": "topic_configs", "id": str(t.topic_id), "configs": dict(configs)}, undo=undo,
                     on_commit=on_commit, on_abort=on_abort)

    def set_dynamic_broker_configs(self, per_broker: dict[str, str], cluster_default: dict[str, str], *,
                                   on_commit: Callable | None = None, on_abort: Callable | None = None) -> None:
        """Store the dynamic broker configs (this broker's, and the cluster-wide defaults).

        Durable once ``durable()`` resolves; a failed write restores the previous
        values here (the caller restores its BrokerConfig in ``on_abort``).
        """
        image = self.image
        previous = (image.dynamic_broker_configs, image.dynamic_default_broker_configs)

        def undo() -> None:
            image.dynamic_broker_configs, image.dynamic_default_broker_configs = previous

        self._change({"type": "broker_configs", "broker": dict(per_broker), "default": dict(cluster_default)},
                     undo=undo, on_commit=on_commit, on_abort=on_abort)

    def set_group_configs(self, group_id: str, configs: dict[str, str], *,
                          on_commit: Callable | None = None, on_abort: Callable | None = None) -> None:
        """Replace a group's dynamic configs (empty: remove them). Durable once ``durable()`` resolves."""
        self._set_resource_configs("group_configs", "group", self.image.group_configs, group_id, configs,
                                   on_commit, on_abort)

    def set_client_metrics(self, name: str, configs: dict[str, str], *,
                           on_commit: Callable | None = None, on_abort: Callable | None = None) -> None:
        """Replace a client metrics subscription's configs (empty: delete the subscription)."""
        self._set_resource_configs("client_metrics", "name", self.image.client_metrics, name, configs,
                                   on_commit, on_abort)

    def _set_resource_configs(self, kind: str, key: str, table: dict, name: str, configs: dict[str, str],
                              on_commit: Callable | None, on_abort: Callable | None) -> None:
        previous = table.get(name)

        def undo() -> None:
            if previous is None:
                table.pop(name, None)
            else:
                table[name] = previous

        self._change({"type": kind, key: name, "configs": dict(configs)}, undo=undo,
                     on_commit=on_commit, on_abort=on_abort)

    # -- security (kwire.security): SCRAM credentials and ACLs ---------------------------------
    def set_scram_credential(self, user: str, mechanism: str, credential: dict | None, *,
                             on_commit: Callable | None = None, on_abort: Callable | None = None) -> None:
        """Store (None: delete) a user's SCRAM credential (salt, keys, iterations: never a password)."""
        table = self.image.scram_credentials
        previous = table.get(user, {}).get(mechanism)

        def undo() -> None:
            creds = table.setdefault(user, {})
            if previous is None:
                creds.pop(mechanism, None)
            else:
                creds[mechanism] = previous
            if not creds:
                table.pop(user, None)

        self._change({"type": "scram_credential", "user": user, "mechanism": mechanism,
                      "credential": dict(credential) if credential else None},
                     undo=undo, on_commit=on_commit, on_abort=on_abort)

    def set_client_quota(self, entity: tuple, values: dict[str, float], *, on_commit: Callable | None = None,
                         on_abort: Callable | None = None) -> None:
        """Replace one entity's client quotas (empty: remove them)."""
        table = self.image.client_quotas
        previous = table.get(entity)

        def undo() -> None:
            if previous is None:
                table.pop(entity, None)
            else:
                table[entity] = previous

        self._change({"type": "client_quota", "entity": [list(p) for p in entity], "values": dict(values)},
                     undo=undo, on_commit=on_commit, on_abort=on_abort)

    def change_acls(self, bindings: list, add: bool, *, on_commit: Callable | None = None,
                    on_abort: Callable | None = None) -> None:
        """Add or remove ACL bindings (``kwire.security.acl.AclBinding``)."""
        image = self.image
        previous = set(image.acls)

        def undo() -> None:
            image.acls = previous

        self._change({"type": "acls", "add": add, "acls": [list(b) for b in bindings]},
                     undo=undo, on_commit=on_commit, on_abort=on_abort)

    def allocate_producer_id(self) -> int:
        """The next producer id of the current durable block (KafkaError when none is ready)."""
        if self._next_producer_id >= self._producer_id_end:
            self._reserve_producer_ids()
            if self._next_producer_id >= self._producer_id_end:
                raise KafkaError(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
                                 "The next producer ID block is not yet available.")
        pid = self._next_producer_id
        self._next_producer_id += 1
        if self._producer_id_end - self._next_producer_id <= PRODUCER_ID_BLOCK_SIZE // 10:
            self._reserve_producer_ids()
        return pid

    def _reserve_producer_ids(self, sync: bool = False) -> None:
        if self._reserving_producer_ids:
            return
        self._reserving_producer_ids = True
        image = self.image
        previous = image.producer_id_block_end
        end = previous + PRODUCER_ID_BLOCK_SIZE

        def undo() -> None:
            image.producer_id_block_end = previous

        def committed() -> None:
            self._reserving_producer_ids = False
            self._next_producer_id = max(self._next_producer_id, previous)
            self._producer_id_end = end

        def aborted() -> None:
            self._reserving_producer_ids = False

        self._change({"type": "producer_ids", "next": end}, undo=undo, on_commit=committed,
                     on_abort=aborted, sync=sync)

    # -- durability -----------------------------------------------------------------
    def durable(self) -> asyncio.Future | None:
        """The future of the group holding the latest change (None: nothing is pending).

        It resolves once that group is on disk, or fails with KafkaError
        (KAFKA_STORAGE_ERROR) when it could not be written and was undone.
        Each caller gets its own shield of the group's future: a waiter that is
        cancelled (its connection closed) cancels only its shield, never the
        group every other waiter of the same change awaits.
        """
        fut = self._last_future
        if fut is None or (fut.done() and fut.exception() is None):
            return None
        return fut if fut.done() else asyncio.shield(fut)

    def _change(self, record: dict, undo: Callable, on_commit: Callable | None = None,
                on_abort: Callable | None = None, sync: bool = False) -> None:
        self.image.replay(record)
        change = _Change(record, undo, on_commit, on_abort)
        loop = None
        if not sync and not self._closed:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
        if loop is None:
            self._write_now([change])
            return
        if self._loop is not loop:
            self._loop = loop
        group = self._gathering
        if group is None:
            fut = loop.create_future()
            fut.add_done_callback(_retrieve)
            group = self._gathering = _Group(fut)
        group.changes.append(change)
        self._last_future = group.future
        if self._writing is None and not self._submit_scheduled:
            self._submit_scheduled = True
            loop.call_soon(self._submit)

    def _write_now(self, changes: list[_Change]) -> None:
        """Write synchronously (no event loop): after any group in flight, then these."""
        self._settle_writing()
        if self._gathering is not None:
            changes = self._gathering.changes + changes
            self._gathering, pending = None, self._gathering
        else:
            pending = None
        try:
            self.store.append([c.record for c in changes])
        except OSError as e:
            err = self._undo(changes, e)
            if pending is not None and not pending.future.done():
                pending.future.set_exception(err)
            raise err from None
        self._committed(changes)
        if pending is not None and not pending.future.done():
            pending.future.set_result(None)
        try:
            self.store.maybe_snapshot()
        except OSError as e:
            log.error("could not write a metadata snapshot: %s", e)

    def _submit(self) -> None:
        self._submit_scheduled = False
        if self._writing is not None or self._gathering is None or self._closed:
            return
        group, self._gathering = self._gathering, None
        self._writing = group
        if self._executor is None:
            self._executor = ThreadPoolExecutor(1, thread_name_prefix="kwire-metadata")
        records = [c.record for c in group.changes]
        group.thread_future = self._executor.submit(self._write_group, records)
        loop = self._loop

        def done(_tf) -> None:
            try:
                loop.call_soon_threadsafe(self._settle, group)
            except RuntimeError:
                pass  # the loop is closed; close() settled the group

        group.thread_future.add_done_callback(done)

    def _write_group(self, records: list[dict]) -> None:
        """In the writer thread: append and fsync; then compact if it is time."""
        self.store.append(records)
        try:
            self.store.maybe_snapshot()
        except OSError as e:
            log.error("could not write a metadata snapshot: %s", e)

    def _settle(self, group: _Group) -> None:
        """On the loop, once the writer is done with ``group``: answer it, start the next."""
        if group.settled:
            return
        group.settled = True
        if self._writing is group:
            self._writing = None
        exc = group.thread_future.exception()
        # the future's done callback refers back to the group: drop it, so that the group (and
        # the topics its changes' callbacks hold) is freed by reference counting, not left to a
        # full collection, or to none if the server froze it meanwhile (kwire.server.app)
        group.thread_future = None
        if exc is None:
            self._committed(group.changes)
            if not group.future.done():  # cancelled by a waiter whose connection closed
                group.future.set_result(None)
            if self._snapshot_timer is None and self.snapshot_interval_ms > 0 and not self._closed:
                # KIP-876: records newer than the last snapshot get one within the interval
                self._snapshot_timer = self._loop.call_later(self.snapshot_interval_ms / 1000,
                                                             self._timed_snapshot)
        else:
            failed = [group]
            if self._gathering is not None:  # built on top of the failed group: undone too
                failed.append(self._gathering)
                self._gathering = None
            err = None
            for g in reversed(failed):
                err = self._undo(g.changes, exc)
            for g in failed:
                g.settled = True
                if not g.future.done():
                    g.future.set_exception(err)
        if self._gathering is not None and not self._submit_scheduled and not self._closed:
            self._submit_scheduled = True
            self._loop.call_soon(self._submit)

    def _timed_snapshot(self) -> None:
        self._snapshot_timer = None
        if self._closed or self._executor is None:
            return
        # in the writer thread, so it is ordered with the appends
        self._executor.submit(self._force_snapshot)

    def _force_snapshot(self) -> None:
        try:
            self.store.maybe_snapshot(force=True)
        except OSError as e:
            log.error("could not write a metadata snapshot: %s", e)

    def _settle_writing(self) -> None:
        """Wait for the group in the writer thread (shutdown, or a synchronous write)."""
        group = self._writing
        if group is not None and group.thread_future is not None:
            try:
                group.thread_future.result()
            except Exception:
                pass
            self._settle(group)

    def _committed(self, changes: list[_Change]) -> None:
        for c in changes:
            if c.on_commit is not None:
                try:
                    c.on_commit()
                except Exception:
                    log.exception("after a metadata change was written")

    def _undo(self, changes: list[_Change], exc: BaseException) -> KafkaError:
        log.error("could not write %d cluster metadata change(s), undoing them: %s", len(changes), exc)
        for c in reversed(changes):
            try:
                c.undo()
                if c.on_abort is not None:
                    c.on_abort()
            except Exception:
                log.exception("undoing a metadata change")
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"Could not write the cluster metadata: {reason}")

    # -- undo helpers ------------------------------------------------------------------
    def _undo_topic(self, name: str, tid: uuid.UUID) -> None:
        t = self.image.by_id.get(tid)
        if t is not None:
            self.image.replay({"type": "remove_topic", "id": str(tid)})

    def _restore_topic(self, t: TopicState) -> None:
        image = self.image
        if t.name in image.topics:
            return
        image.topics[t.name] = t
        image.by_id[t.topic_id] = t
        image.unified.setdefault(unify(t.name), set()).add(t.name)

    def _undo_epoch(self, t: TopicState, partition: int, epoch: int) -> Callable:
        def undo() -> None:
            if partition < len(t.partitions):
                t.partitions[partition].leader_epoch = epoch
        return undo

    # -- lifecycle -----------------------------------------------------------------------
    def save(self) -> None:
        """Write everything pending now (synchronously)."""
        self._settle_writing()
        if self._gathering is not None:
            self._write_now([])

    def close(self) -> None:
        """Write what is pending, stop the writer thread, close the log (on or off the loop)."""
        try:
            self.save()
        except KafkaError as e:
            log.error("metadata changes lost at shutdown: %s", e.message)
        self._closed = True
        if self._snapshot_timer is not None:
            self._snapshot_timer.cancel()
            self._snapshot_timer = None
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        self.store.close()

    def _write_meta_properties(self) -> None:
        text = f"version=1\ncluster.id={self.cluster_id}\nnode.id={self.node_id}\n"
        _write_file(os.path.join(self.data_dir, "meta.properties"), text.encode())
