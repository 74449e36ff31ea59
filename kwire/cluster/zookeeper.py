"""``ZkMetadata``: the cluster metadata kept in ZooKeeper (Kafka's layout), cached in an image.

The ZooKeeper-backed counterpart of ``LocalMetadata`` (same read interface
for the broker and handlers where it applies). ZooKeeper is the source of
truth; every broker keeps a ``ZkImage`` (a ``MetadataImage`` with replicas,
leaders, ISR, brokers and the controller) that changes only by replaying
records made from what kazoo watches report::

    ZooKeeper --watch--> kazoo thread --records--> replay into the image
                                                   (on the event loop when one is attached)

so handlers only ever read memory, never ZooKeeper, and every broker sees a
change within a watch round trip (well under a second). When ZooKeeper is
unreachable the image keeps serving what it last saw; writes fail at once
with ``ZooKeeperUnavailable`` (REQUEST_TIMED_OUT) until the session is back.

Watched: ``/brokers/ids`` (children, and each registration's data: a broker
re-registers with the ports it bound), each ``/brokers/topics/<t>`` (data: the
assignment) and its partitions' ``state``, ``/config/topics/<t>``,
``/config/brokers/<id>`` and ``<default>``, ``/controller``,
``/controller_epoch``, ``/kwire/offline_replicas`` and
``/log_dir_event_notification`` (children; every broker reads all of
``/kwire/offline_replicas`` on a change, for Metadata's ``offline_replicas``);
the controller also reacts to ``/admin/delete_topics`` and
``/isr_change_notification``.

Start-up (``start``, blocking): connect within
``zookeeper.connection.timeout.ms`` (else ``ZooKeeperConnectError``), create
the chroot and Kafka's persistent paths, create-or-read ``/cluster/id``,
register this broker (ephemeral ``/brokers/ids/<id>``; NODEEXISTS from another
live session is an error, as in Kafka), reserve a producer-id block, set the
watches, and run for controller. After a session expiry the broker registers
again and runs for controller again.

Writes run on one writer thread (kazoo calls block) and return a future:
an asyncio future when called on a running event loop (the loop is then the
one records are replayed on), a ``concurrent.futures.Future`` otherwise.
``durable()`` gives the latest write's future, as ``LocalMetadata.durable()``
does. A future resolves when ZooKeeper has the change; the local image shows
it once the watch fires (``wait_for`` waits for that, for tools and tests).

* ``create_topic``: ``/config/topics/<t>`` then ``/brokers/topics/<t>``
  (NODEEXISTS: TOPIC_ALREADY_EXISTS), with Kafka's placement over the live
  brokers (``kwire.cluster.placement``) or an explicit assignment; the
  controller then creates the partition states.
* ``delete_topic``: ``/admin/delete_topics/<t>``; the controller deletes it.
* ``add_partitions``: the assignment rewritten conditional on its version.
* ``set_topic_configs`` / ``set_dynamic_broker_configs``: the config znode and
  a ``/config/changes/config_change_<seq>`` notification.
* ``set_group_configs``: ``/kwire/config/groups/<group>`` (kwire-specific; Kafka
  keeps GROUP config resources in KRaft only), watched by every broker.
* producer ids: blocks of 1000 from ``/latest_producer_id_block``, claimed with
  a conditional set (a lost race rereads and tries again).
* ``update_partition_state``: a leader's ISR change, conditional on the state
  znode's version (INVALID_UPDATE_VERSION when it moved), plus an
  ``/isr_change_notification`` entry (Kafka before AlterPartition).

* ``report_offline_replicas``: this broker's replicas in offline log dirs (Kafka's
  ``propagateLogDirEvent``): the ephemeral ``/kwire/offline_replicas/<id>``, then a
  ``/log_dir_event_notification/log_dir_event_<seq>``; the controller moves their
  leadership away and drops them from ISRs. Written again after a session expiry.

* ``controlled_shutdown`` (blocking, off the loop): the kwire-specific
  ephemeral ``/kwire/controlled_shutdown/<id>`` the controller watches; True
  once the image shows this broker leading nothing that has another live ISR
  member.
* ``elect_leaders`` (ElectLeaders: preferred / unclean),
  ``alter_reassignments`` (KIP-455's ``adding_replicas`` /
  ``removing_replicas`` in the topic znode; the controller completes them),
  ``reassignment_error`` (the checks against the image).
* ``until`` (on the loop): wait without blocking until the image satisfies a
  predicate, for handlers that answer once this broker's image shows a change.

Every record the watches produce also feeds the controller's own view
(``ZkController.observe``, on the watch thread), so the controller finds its
work without re-reading ZooKeeper. A thread runs the controller's auto leader
rebalance every ``leader.imbalance.check.interval.seconds``.

Not here: logs (the broker's ReplicaManager creates and removes them from the
image); NOT_CONTROLLER routing (every broker accepts admin writes and writes
ZooKeeper directly, conditional on versions).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from concurrent.futures import Future as ThreadFuture
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from kazoo.recipe.watchers import ChildrenWatch, DataWatch

from kwire.cluster import zk_layout as L
from kwire.cluster.controller import ControllerMovedError, ZkController
from kwire.cluster.metadata import (
    PRODUCER_ID_BLOCK_SIZE,
    BrokerInfo,
    ImageReads,
    OngoingReassignment,
    new_cluster_id,
    topic_name_error,
)
from kwire.cluster.placement import assign_replicas
from kwire.cluster.zk_image import ZkImage, ZkPartitionState
from kwire.cluster.zk_store import (
    DEFAULT_SESSION_TIMEOUT_MS,
    BadVersion,
    NodeExists,
    NoNode,
    ZkStore,
    ZooKeeperConnectError,
    ZooKeeperUnavailable,
)
from kwire.protocol.errors import ErrorCode, KafkaError

__all__ = ["ZkMetadata", "ZkImage", "ZkPartitionState", "ZooKeeperConnectError", "ZooKeeperUnavailable",
           "ControllerMovedError"]

log = logging.getLogger("kwire.cluster.zk")


def _shielded(fut):
    """A waiter's own view of a write's future: cancelling it (the waiter's connection
    closed) neither cancels the write nor fails the other waiters of the same write."""
    if isinstance(fut, asyncio.Future) and not fut.done():
        return asyncio.shield(fut)
    return fut


def _retrieve(fut) -> None:
    if not fut.cancelled():
        fut.exception()


class _TopicWatch:
    __slots__ = ("name", "stopped", "partitions")

    def __init__(self, name: str) -> None:
        self.name = name
        self.stopped = False
        self.partitions: set[int] = set()  # partitions whose state is watched


class ZkMetadata(ImageReads):
    def __init__(self, connect: str, node_id: int, host: str, port: int, *, rack: str | None = None,
                 listener: str = "PLAINTEXT", security_protocol: str = "PLAINTEXT",
                 endpoints: list[tuple[str, str, int, str]] | None = None,
                 session_timeout_ms: int = DEFAULT_SESSION_TIMEOUT_MS,
                 connection_timeout_ms: int | None = None, static_configs: dict | None = None,
                 source_address: str | None = None) -> None:
        self.node_id = node_id
        self.self_broker = BrokerInfo(node_id, host, port, rack)
        self.listener, self.security_protocol = listener, security_protocol
        # every advertised listener (name, host, port, protocol), registered for the other brokers
        # to find this one's inter-broker endpoint; the first is the one clients are told about
        self.endpoints = list(endpoints) if endpoints else [(listener, host, port, security_protocol)]
        self.store = ZkStore(connect, session_timeout_ms=session_timeout_ms,
                             connection_timeout_ms=connection_timeout_ms, source_address=source_address)
        # static_configs: this broker's own settings the controller falls back to
        # (unclean.leader.election.enable, auto.leader.rebalance.enable, leader.imbalance.*)
        self.controller = ZkController(self.store, node_id, static_configs)
        self.image = ZkImage(node_id)
        self._cond = threading.Condition()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._executor = ThreadPoolExecutor(1, thread_name_prefix=f"kwire-zk-{node_id}")
        self._last_future = None
        self._listeners: list[Callable[[list[dict]], None]] = []
        self._topic_watches: dict[str, _TopicWatch] = {}
        self._watch_lock = threading.Lock()
        self._isr_lock = threading.Lock()
        self._isr_batch: list = []  # ISR changes waiting for the writer (update_partition_state)
        self._broker_watches: set[str] = set()  # /brokers/ids children with a data watch
        self._reconcile_queued = False
        self._session_lost = False
        self._closed = False
        self._next_producer_id = self._producer_id_end = 0
        self._reserving_producer_ids = False
        self._pending_block: L.ProducerIdBlock | None = None
        self.fresh = False  # True when this start created the cluster id
        self._stop = threading.Event()
        self._rebalancer: threading.Thread | None = None
        self._offline_reported: list[tuple[str, int]] | None = None  # see report_offline_replicas
        self._group_config_watches: set[str] = set()  # znode names under /kwire/config/groups

    # -- start-up ------------------------------------------------------------------------------
    def start(self) -> None:
        """Connect, prepare the tree, register, watch, run for controller (see the docstring)."""
        self.store.start()
        try:
            self.store.add_listener(self._on_session)  # first: an expiry during start-up re-registers
            self._at_startup(lambda: self.store.ensure_paths(
                L.PERSISTENT_PATHS + (L.CONTROLLED_SHUTDOWN, L.OFFLINE_REPLICAS, L.GROUP_CONFIGS)))
            self._deliver([{"type": "cluster", "cluster_id": self._at_startup(self._cluster_id)}])
            self._at_startup(self._register)
            self._at_startup(self._reserve_producer_ids_now)
            self._watch()
            # the first election attempt is part of start-up (on the writer thread, ordered
            # with what the watches queued), so the first broker up is the first controller
            self._executor.submit(self._elect).result()
            self._rebalancer = threading.Thread(target=self._rebalance_loop, daemon=True,
                                                name=f"kwire-zk-rebalance-{self.node_id}")
            self._rebalancer.start()
        except BaseException:
            self.close()
            raise

    def _at_startup(self, step):
        """``step()``, tried again while the ZooKeeper connection is down, for at most
        ``zookeeper.connection.timeout.ms``: a connection dropped during start-up (a loaded
        machine, a ZooKeeper election) is kazoo's to restore, as Kafka's ZooKeeperClient waits for
        it, not a reason to exit. Each step is idempotent (create-or-read, our own registration
        found again, a conditional producer-id claim)."""
        deadline = time.monotonic() + self.store.connection_timeout_ms / 1000
        while True:
            try:
                return step()
            except ZooKeeperUnavailable as e:
                if not self.store.wait_connected(deadline - time.monotonic()):
                    raise
                log.warning("ZooKeeper connection dropped during start-up (%s): trying again", e.message)

    def _cluster_id(self) -> str:
        try:
            self.store.create(L.CLUSTER_ID, L.encode_cluster_id(new_cluster_id()), makepath=True)
            self.fresh = True
        except NodeExists:
            pass
        data, _ = self.store.get(L.CLUSTER_ID)
        return L.decode_cluster_id(data)

    def _registration(self) -> bytes:
        b = self.self_broker
        return L.encode_broker(b.node_id, b.host, b.port, endpoints=self.endpoints, rack=b.rack)

    def _register(self) -> None:
        """Create the ephemeral /brokers/ids/<id> (Kafka's checkedEphemeralCreate)."""
        path = L.broker_path(self.node_id)
        try:
            self.store.create(path, self._registration(), ephemeral=True)
        except NodeExists:
            client = self.store.client
            stat = client.exists(path) if client is not None else None
            if stat is not None and stat.ephemeralOwner == self.store.session_id:
                return  # ours already (the create was retried after a dropped connection)
            raise KafkaError(ErrorCode.BROKER_NOT_AVAILABLE,
                             f"broker id {self.node_id} is already registered in ZooKeeper by another "
                             f"session (another broker with broker.id={self.node_id} is running)") from None
        log.info("registered broker %d at %s:%d", self.node_id, self.self_broker.host, self.self_broker.port)

    def set_advertised(self, host: str, port: int, endpoints: dict | None = None) -> None:
        """Once the server knows its ports: re-register with the new addresses (``endpoints``:
        listener name -> (host, port); the first listener's is ``host``:``port``)."""
        b = self.self_broker
        before = (b.host, b.port, list(self.endpoints))
        b.host, b.port = host, port
        resolved = {**(endpoints or {}), self.endpoints[0][0]: (host, port)}
        self.endpoints = [(name, *resolved.get(name, (h, p)), proto) for name, h, p, proto in self.endpoints]
        if before == (host, port, self.endpoints):
            return
        self._run(lambda: self.store.set(L.broker_path(self.node_id), self._registration()))

    def _on_session(self, state: str) -> None:
        """On kazoo's connection thread: never block here."""
        if state == "lost":
            self._session_lost = True
            self.controller.resign()
        elif state == "connected" and self._session_lost:
            self._session_lost = False
            log.info("new ZooKeeper session: registering broker %d again", self.node_id)
            self._run(self._register_again)
        elif state == "connected":
            self._controller_work()  # work postponed while ZooKeeper was unreachable

    def _register_again(self) -> None:
        try:
            self._register()
        except KafkaError as e:
            log.error("could not register again: %s", e.message)
        if self._offline_reported is not None:  # the ephemeral record went with the old session
            try:
                self._write_offline_replicas(self._offline_reported)
            except Exception as e:
                log.error("could not report offline replicas again: %s", e)
        self._elect()

    def _elect(self) -> None:
        try:
            self.controller.elect()
        except ZooKeeperUnavailable as e:
            log.info("controller election postponed: %s", e.message)

    # -- watches (kazoo threads) ------------------------------------------------------------------
    def _watch(self) -> None:
        client = self.store.client
        ChildrenWatch(client, L.BROKER_IDS, self._on_brokers)
        DataWatch(client, L.CONTROLLER, self._on_controller)
        DataWatch(client, L.CONTROLLER_EPOCH, self._on_controller_epoch)
        ChildrenWatch(client, L.TOPICS, self._on_topics)
        DataWatch(client, L.broker_config_path(self.node_id), self._on_broker_config)
        DataWatch(client, L.broker_config_path(L.DEFAULT_BROKER_ENTITY), self._on_broker_config)
        ChildrenWatch(client, L.DELETE_TOPICS, self._on_delete_topics)
        ChildrenWatch(client, L.ISR_CHANGE_NOTIFICATION, self._on_isr_changes)
        ChildrenWatch(client, L.CONTROLLED_SHUTDOWN, self._on_shutting_down)
        ChildrenWatch(client, L.OFFLINE_REPLICAS, self._on_offline_replicas)
        ChildrenWatch(client, L.LOG_DIR_EVENT_NOTIFICATION, self._on_log_dir_events)
        ChildrenWatch(client, L.GROUP_CONFIGS, self._on_group_configs)

    def _on_group_configs(self, children: list[str]) -> bool | None:
        """A group's config znode appeared: watch its data (changes, and its removal)."""
        if self._closed:
            return False
        with self._watch_lock:
            new = [c for c in children if c not in self._group_config_watches]
            self._group_config_watches.update(new)
        for c in new:
            DataWatch(self.store.client, f"{L.GROUP_CONFIGS}/{c}", self._group_config_watcher(c))
        return None

    def _group_config_watcher(self, node: str):
        group = L.group_of_config_node(node)

        def on_config(data, stat, event=None) -> bool | None:
            if self._closed:
                return False
            self._deliver([{"type": "group_configs", "group": group, "configs": L.decode_config(data)}])
            if data is None:
                with self._watch_lock:
                    self._group_config_watches.discard(node)
                return False
            return None
        return on_config

    def _on_offline_replicas(self, children: list[str]) -> bool | None:
        """A broker's record appeared or went (its session ended): read them all."""
        if self._closed:
            return False
        brokers = {}
        for c in children:
            try:
                data, _ = self.store.client.get(f"{L.OFFLINE_REPLICAS}/{c}")
                brokers[c] = [list(k) for k in L.decode_offline_replicas(data)]
            except Exception:
                continue  # gone meanwhile, or unreadable: the next event lists the rest
        self._deliver([{"type": "zk_offline_replicas", "brokers": brokers}])
        self._controller_work()
        return None

    def _on_log_dir_events(self, children: list[str]) -> bool | None:
        """A notification: some broker's record changed (written before it); read them again."""
        if self._closed:
            return False
        if children:
            self.controller.note_log_dir_events()
            try:
                self._on_offline_replicas(self.store.client.get_children(L.OFFLINE_REPLICAS))
            except Exception as e:
                log.warning("could not read %s: %s", L.OFFLINE_REPLICAS, e)
        return None

    def _on_delete_topics(self, _children) -> bool | None:
        if self._closed:
            return False
        self.controller.note_deletions()
        self._controller_work()
        return None

    def _on_isr_changes(self, _children) -> bool | None:
        if self._closed:
            return False
        self.controller.note_isr_notifications()
        self._controller_work()
        return None

    def _on_shutting_down(self, children: list[str]) -> bool | None:
        if self._closed:
            return False
        self.controller.observe_shutting_down({int(c) for c in children if c.isdigit()})
        with self._cond:
            self._cond.notify_all()  # controlled_shutdown() waits on a predicate that reads it
        self._controller_work()
        return None

    def _on_brokers(self, children: list[str]) -> bool | None:
        if self._closed:
            return False
        brokers = []
        for c in children:
            if c not in self._broker_watches:
                # a registration's data changes too (a broker re-registers once it knows the
                # ports it bound): the other brokers must see its new endpoints
                self._broker_watches.add(c)
                DataWatch(self.store.client, f"{L.BROKER_IDS}/{c}", self._broker_data_watcher())
            try:
                data, _ = self.store.client.get(f"{L.BROKER_IDS}/{c}")
            except Exception:
                continue  # gone meanwhile (the next event lists the rest)
            try:
                b = L.decode_broker(int(c), data)
            except (ValueError, KeyError) as e:
                log.warning("ignoring unreadable registration of broker %s: %s", c, e)
                continue
            endpoints = {}
            for text in b.endpoints:
                try:
                    name, host, port = L._split_endpoint(text)
                except ValueError:
                    continue
                endpoints.setdefault(name.upper(), [host, port])
            # clients are told the first registered endpoint (kwire registers its first advertised
            # listener first); the other brokers connect to the inter-broker listener's
            first = next(iter(endpoints.values()), [b.host, b.port])
            brokers.append({"id": b.broker_id, "host": first[0], "port": first[1], "rack": b.rack,
                            "endpoints": endpoints})
        self._deliver([{"type": "zk_brokers", "brokers": brokers}])
        self._controller_work()
        return None

    def _broker_data_watcher(self):
        # kept while this process runs (one per broker id ever seen): kazoo's DataWatch also
        # follows the node through deletion and re-creation (a broker restarting)
        def watch(data, stat, event=None) -> bool | None:
            if self._closed:
                return False
            if event is not None and stat is not None:  # changed or created: read them all again
                try:
                    self._on_brokers(self.store.client.get_children(L.BROKER_IDS))
                except Exception as e:
                    log.warning("could not read %s: %s", L.BROKER_IDS, e)
            return None
        return watch

    def _on_controller(self, data, stat, event=None) -> bool | None:
        if self._closed:
            return False
        cid = L.decode_controller(data) if data else None
        self._deliver([{"type": "zk_controller", "id": -1 if cid is None else cid}])
        if cid is None:
            self._run(self._elect)
        elif cid != self.node_id:
            self.controller.resign()
        return None

    def _on_controller_epoch(self, data, stat, event=None) -> bool | None:
        if self._closed:
            return False
        self._deliver([{"type": "zk_controller_epoch", "epoch": L.decode_controller_epoch(data)}])
        return None

    def _on_broker_config(self, data, stat, event=None) -> bool | None:
        if self._closed:
            return False
        client = self.store.client
        try:
            own, _ = client.get(L.broker_config_path(self.node_id))
        except Exception:
            own = None
        try:
            default, _ = client.get(L.broker_config_path(L.DEFAULT_BROKER_ENTITY))
        except Exception:
            default = None
        self._deliver([{"type": "broker_configs", "broker": L.decode_config(own),
                        "default": L.decode_config(default)}])
        self._controller_work()
        return None

    def _on_topics(self, children: list[str]) -> bool | None:
        if self._closed:
            return False
        names = set(children)
        with self._watch_lock:
            gone = [w for n, w in self._topic_watches.items() if n not in names or w.stopped]
            for w in gone:
                w.stopped = True
                del self._topic_watches[w.name]
            new = [n for n in sorted(names) if n not in self._topic_watches]
            for n in new:
                self._topic_watches[n] = _TopicWatch(n)
        if gone:
            self._deliver([{"type": "zk_remove_topic", "name": w.name} for w in gone if w.name not in names])
        client = self.store.client
        for n in new:
            w = self._topic_watches.get(n)
            if w is None:
                continue
            DataWatch(client, L.topic_config_path(n), self._config_watcher(w))
            DataWatch(client, L.topic_path(n), self._topic_watcher(w))
        self._controller_work()
        return None

    def _topic_watcher(self, w: _TopicWatch):
        def on_topic(data, stat, event=None) -> bool | None:
            if self._closed or w.stopped:
                return False
            if data is None:
                w.stopped = True
                self._deliver([{"type": "zk_remove_topic", "name": w.name}])
                return False
            a = L.decode_topic(data)
            if a.topic_id is None:
                log.warning("topic %s has no topic id in ZooKeeper; ignored until it has one", w.name)
                self.controller.note_topic_without_id(w.name)
                self._controller_work()
                return None
            self._deliver([{"type": "zk_topic", "name": w.name, "id": str(a.topic_id), "zk_version": stat.version,
                            "partitions": {str(p): r for p, r in a.partitions.items()},
                            "adding": {str(p): r for p, r in a.adding_replicas.items()},
                            "removing": {str(p): r for p, r in a.removing_replicas.items()}}])
            for p in sorted(a.partitions):
                if p not in w.partitions:
                    w.partitions.add(p)
                    DataWatch(self.store.client, L.partition_state_path(w.name, p), self._state_watcher(w, p))
            self._controller_work()
            return None
        return on_topic

    def _state_watcher(self, w: _TopicWatch, partition: int):
        def on_state(data, stat, event=None) -> bool | None:
            if self._closed or w.stopped:
                return False
            s = L.decode_partition_state(data, stat.version) if data else None
            self._deliver([{"type": "zk_partition_state", "name": w.name, "partition": partition,
                            "state": None if s is None else {
                                "leader": s.leader, "leader_epoch": s.leader_epoch, "isr": s.isr,
                                "controller_epoch": s.controller_epoch, "zk_version": s.zk_version}}])
            self._controller_work()
            return None
        return on_state

    def _config_watcher(self, w: _TopicWatch):
        def on_config(data, stat, event=None) -> bool | None:
            if self._closed or w.stopped:
                return False
            self._deliver([{"type": "zk_topic_configs", "name": w.name, "configs": L.decode_config(data)}])
            self._controller_work()
            return None
        return on_config

    def _controller_work(self) -> None:
        """Queue one reconcile pass (coalesced) if this broker is the controller."""
        if not self.controller.active or self._reconcile_queued or self._closed:
            return
        self._reconcile_queued = True

        def work() -> None:
            self._reconcile_queued = False
            self.controller.reconcile()

        self._run(work)

    # -- replaying into the image ------------------------------------------------------------------
    def _deliver(self, records: list[dict]) -> None:
        if not records:
            return
        self.controller.observe(records)  # the controller's own view, on this (watch) thread
        loop = self._loop
        if loop is not None and loop.is_running():
            try:
                loop.call_soon_threadsafe(self._apply, records)
                return
            except RuntimeError:
                pass
        self._apply(records)

    def _apply(self, records: list[dict]) -> None:
        with self._cond:
            for r in records:
                self.image.replay(r)
            self._cond.notify_all()
        for fn in list(self._listeners):
            try:
                fn(records)
            except Exception:
                log.exception("in a metadata listener")

    def add_session_listener(self, fn: Callable[[str], None]) -> None:
        """``fn("connected" | "suspended" | "lost")`` on kazoo's thread (never block in it)."""
        self.store.add_listener(fn)

    def read_partition_states(self, keys: list[tuple[str, int]]):
        """The partition state znodes of ``keys`` read now (not the image): a future of
        {key: LeaderAndIsr or None}, for a leader confirming it still leads after a lost session."""
        def read() -> dict:
            out = {}
            for name, partition in keys:
                data, version = self.store.get(L.partition_state_path(name, partition))
                out[(name, partition)] = L.decode_partition_state(data, version) if data else None
            return out

        return self._run(read)

    def add_listener(self, fn: Callable[[list[dict]], None]) -> None:
        """``fn(records)`` after each batch of records is replayed (on the loop when attached)."""
        self._listeners.append(fn)

    def attach_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Replay on ``loop`` from now on, so handlers on it never see the image mid-change."""
        self._loop = loop

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Block (not on the loop) until ``predicate()`` holds for the image; False on timeout."""
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    # -- reads (the LocalMetadata interface; those from the image are ImageReads') ----------------------
    @property
    def controller_id(self) -> int:
        return self.image.controller_id

    @property
    def controller_epoch(self) -> int:
        return self.image.controller_epoch

    @property
    def brokers(self) -> list[BrokerInfo]:
        return [self.image.brokers[b] for b in sorted(self.image.brokers)]

    @property
    def connected(self) -> bool:
        return self.store.connected

    def ongoing_reassignments(self) -> dict[tuple[str, int], OngoingReassignment]:
        out = {}
        for t in self.image.topics.values():
            for p in t.partitions:
                if p.adding_replicas or p.removing_replicas:
                    out[(t.name, p.partition)] = OngoingReassignment(
                        list(p.replicas), list(p.adding_replicas or []), list(p.removing_replicas or []))
        return out

    def validate_replica_assignment(self, replicas: list[int]) -> None:
        """Kafka's checks of a manual replica assignment (INVALID_REPLICA_ASSIGNMENT)."""
        if not replicas:
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                             "The manual partition assignment includes an empty replica list.")
        if len(set(replicas)) != len(replicas):
            dup = next(b for b in replicas if replicas.count(b) > 1)
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                             f"The manual partition assignment includes the broker {dup} more than once.")
        for b in replicas:
            if b not in self.image.brokers:
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                                 f"The manual partition assignment includes broker {b}, "
                                 f"but no such broker is registered.")

    # -- writes ---------------------------------------------------------------------------------------
    def _run(self, fn: Callable, *args):
        """Run ``fn`` on the writer thread; its future (asyncio on a running loop)."""
        if self._closed:
            raise KafkaError(ErrorCode.BROKER_NOT_AVAILABLE, "the metadata store is closed")
        try:
            tf: ThreadFuture = self._executor.submit(fn, *args)
        except RuntimeError:  # shut down by close() meanwhile
            raise KafkaError(ErrorCode.BROKER_NOT_AVAILABLE, "the metadata store is closed") from None
        return self._wrap(tf)

    def _wrap(self, tf: ThreadFuture):
        """``tf`` as an asyncio future when called on a running event loop (else as it is)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            tf.add_done_callback(_retrieve)
            return tf
        if self._loop is None:
            self._loop = loop
        fut = asyncio.wrap_future(tf, loop=loop)
        fut.add_done_callback(_retrieve)
        return fut

    def _write(self, fn: Callable, on_commit: Callable | None = None, on_abort: Callable | None = None):
        """A write on the writer thread; ``on_commit`` / ``on_abort`` (LocalMetadata's hooks) run
        once it is in ZooKeeper / once it failed, where the future completes."""
        fut = self._run(fn)
        self._last_future = fut
        if on_commit is not None or on_abort is not None:
            def settled(f) -> None:
                hook = on_commit if not f.cancelled() and f.exception() is None else on_abort
                if hook is not None:
                    try:
                        hook()
                    except Exception:
                        log.exception("after a metadata write")
            fut.add_done_callback(settled)
        return _shielded(fut)

    def durable(self):
        """The future of the latest write (None when it succeeded or there was none)."""
        fut = self._last_future
        if fut is None or (fut.done() and fut.exception() is None):
            return None
        return _shielded(fut)

    def create_topic(self, name: str, num_partitions: int, configs: dict[str, str] | None = None, *,
                     replication_factor: int = 1, assignment: dict[int, list[int]] | None = None,
                     on_commit: Callable | None = None, on_abort: Callable | None = None):
        """Create a topic in ZooKeeper; the future resolves to its id once written.

        Checked here (synchronously): the name, the partition count, the
        replication factor against the live brokers (INVALID_REPLICATION_FACTOR),
        an explicit assignment's brokers. In ZooKeeper: already there
        (TOPIC_ALREADY_EXISTS, also when it is queued for deletion).
        """
        err = topic_name_error(name)
        if err:
            raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, err)
        if name in self.image.topics:
            raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' already exists.")
        if assignment is None:
            live = [(b.node_id, b.rack) for b in self.brokers]
            assignment = assign_replicas(live, num_partitions, replication_factor)
        else:
            if sorted(assignment) != list(range(len(assignment))):
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                                 "partitions should be a consecutive 0-based integer sequence")
            for replicas in assignment.values():
                self.validate_replica_assignment(replicas)
        topic_id = uuid.uuid4()
        configs = dict(configs or {})

        def write() -> uuid.UUID:
            if self.store.exists(L.delete_topic_path(name)):
                raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' is marked for deletion.")
            try:  # the usual case in one round trip: config and assignment together
                self.store.multi([("create", L.topic_config_path(name), L.encode_config(configs)),
                                  ("create", L.topic_path(name), L.encode_topic(topic_id, assignment))])
                log.info("created topic %s (id %s) with assignment %s", name, topic_id, assignment)
                return topic_id
            except NodeExists as e:
                if e.path == L.topic_path(name):
                    raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' already exists.") from None
            # a config left behind (a tool wrote it first): overwrite it, then the assignment
            self.store.set_or_create(L.topic_config_path(name), L.encode_config(configs))
            try:
                self.store.create(L.topic_path(name), L.encode_topic(topic_id, assignment))
            except NodeExists:
                raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' already exists.") from None
            log.info("created topic %s (id %s) with assignment %s", name, topic_id, assignment)
            return topic_id

        return self._write(write, on_commit, on_abort)

    def delete_topic(self, name: str, *, on_commit: Callable | None = None, on_abort: Callable | None = None):
        """Queue ``name`` for deletion (``/admin/delete_topics/<t>``); the controller removes it."""
        if name not in self.image.topics:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)

        def write() -> None:
            if not self.store.exists(L.topic_path(name)):
                raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
            try:
                self.store.create(L.delete_topic_path(name))
            except NodeExists:
                pass  # already marked: Kafka answers success here too

        return self._write(write, on_commit, on_abort)

    def add_partitions(self, name: str, total: int, assignment: dict[int, list[int]] | None = None, *,
                       on_commit: Callable | None = None, on_abort: Callable | None = None):
        """Grow ``name`` to ``total`` partitions (placement as Kafka's AddPartitions)."""
        t = self.image.topics.get(name)
        if t is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        before = len(t.partitions)
        if total <= before:
            raise KafkaError(ErrorCode.INVALID_PARTITIONS,
                             f"Topic currently has {before} partitions, which is higher than the requested {total}.")

        def write() -> None:
            data, version = self.store.get(L.topic_path(name))
            if data is None:
                raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
            current = L.decode_topic(data)
            new = assignment
            if new is None:
                ids = sorted(b.node_id for b in self.brokers)
                first = current.partitions[0][0]
                start = ids.index(first) if first in ids else -1
                rf = len(current.partitions[0])
                new = assign_replicas([(b.node_id, b.rack) for b in self.brokers], total - len(current.partitions),
                                      rf, fixed_start_index=start, start_partition_id=len(current.partitions))
            partitions = dict(current.partitions)
            partitions.update(new)
            try:
                self.store.set(L.topic_path(name), L.encode_topic(current.topic_id, partitions,
                                                                  current.adding_replicas,
                                                                  current.removing_replicas), version)
            except BadVersion:
                raise KafkaError(ErrorCode.REASSIGNMENT_IN_PROGRESS if current.adding_replicas
                                 else ErrorCode.INVALID_PARTITIONS,
                                 f"Topic {name}'s assignment changed meanwhile; try again") from None

        return self._write(write, on_commit, on_abort)

    def set_topic_configs(self, name: str, configs: dict[str, str], *, on_commit: Callable | None = None,
                          on_abort: Callable | None = None):
        if name not in self.image.topics:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        configs = dict(configs)

        def write() -> None:
            self.store.set_or_create(L.topic_config_path(name), L.encode_config(configs))
            self.store.create(f"{L.CONFIG_CHANGES}/{L.CONFIG_CHANGE_PREFIX}",
                              L.encode_config_change("topics", name), sequence=True)

        return self._write(write, on_commit, on_abort)

    @property
    def group_configs(self) -> dict[str, dict[str, str]]:
        """Dynamic group configs (KIP-848, KIP-932) by group id; the dict is live, never replaced."""
        return self.image.group_configs

    def set_group_configs(self, group_id: str, configs: dict[str, str], *, on_commit: Callable | None = None,
                          on_abort: Callable | None = None):
        """Replace a group's configs (empty: remove them) in ``/kwire/config/groups``; every
        broker's image follows through the watch."""
        configs = dict(configs)

        def write() -> None:
            if configs:
                self.store.set_or_create(L.group_config_path(group_id), L.encode_config(configs))
            else:
                self.store.delete(L.group_config_path(group_id))

        return self._write(write, on_commit, on_abort)

    def set_dynamic_broker_configs(self, per_broker: dict[str, str], cluster_default: dict[str, str], *,
                                   on_commit: Callable | None = None, on_abort: Callable | None = None):
        per_broker, cluster_default = dict(per_broker), dict(cluster_default)

        def write() -> None:
            for entity, cfg in ((str(self.node_id), per_broker), (L.DEFAULT_BROKER_ENTITY, cluster_default)):
                self.store.set_or_create(L.broker_config_path(entity), L.encode_config(cfg))
                self.store.create(f"{L.CONFIG_CHANGES}/{L.CONFIG_CHANGE_PREFIX}",
                                  L.encode_config_change("brokers", entity), sequence=True)

        return self._write(write, on_commit, on_abort)

    def isr_eligible(self, name: str, partition: int, broker_id: int) -> bool:
        """May ``broker_id`` join (or, outside the ISR, hold back the HW of) ``name``-``partition``?

        Registered, not shutting down, and its replica not in an offline log dir (KIP-841's
        rule, Kafka's ``isReplicaIsrEligible``; in Kafka's ZooKeeper mode a broker shutting down
        has its fetchers stopped by StopReplica, which has the same effect). Reads memory only.
        """
        return (broker_id in self.image.brokers and broker_id not in self.controller.shutting_down
                and broker_id not in self.image.offline_replicas.get((name, partition), ()))

    def update_partition_state(self, name: str, partition: int, leader: int, leader_epoch: int,
                               isr: list[int], expected_zk_version: int):
        """A leader's ISR change, conditional on the state znode's version; resolves to the new version.

        INVALID_UPDATE_VERSION when the state changed since ``expected_zk_version``
        (a new leader was elected, or the controller shrank the ISR); INELIGIBLE_REPLICA
        (at once) when it adds a broker that is shutting down or not live.
        """
        t = self.image.topics.get(name)
        if t is None or not 0 <= partition < len(t.partitions):
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        controller_epoch = getattr(t.partitions[partition], "controller_epoch", 0)
        current = t.partitions[partition].isr
        ineligible = [b for b in isr if b not in current and not self.isr_eligible(name, partition, b)]
        if ineligible:
            raise KafkaError(ErrorCode.INELIGIBLE_REPLICA,
                             f"broker(s) {ineligible} cannot join the ISR of {name}-{partition}: "
                             f"shutting down or not live")

        entry = (name, partition, L.partition_state_path(name, partition),
                 L.encode_partition_state(leader, leader_epoch, isr, controller_epoch), expected_zk_version,
                 ThreadFuture())
        with self._isr_lock:
            self._isr_batch.append(entry)
            first = len(self._isr_batch) == 1
        if first:  # the writes queued until the writer gets to it go with this one
            try:
                self._run(self._write_isr_batch)
            except KafkaError:
                with self._isr_lock:
                    self._isr_batch.clear()
                raise
        fut = self._last_future = self._wrap(entry[-1])
        return _shielded(fut)

    def _write_isr_batch(self) -> None:
        """Every ISR change queued so far (writer thread): the conditional sets pipelined, then one
        ``/isr_change_notification`` entry naming them all (Kafka batches those too). One at a
        time, each a ZooKeeper round trip and a log sync, 50 partitions rejoining after a heal
        took seconds, and the data partition's change waited behind them."""
        with self._isr_lock:
            batch, self._isr_batch = self._isr_batch, []
        try:
            results = self.store.multi_many([[("set", path, data, version)]
                                             for _n, _p, path, data, version, _f in batch])
            written = [(n, p) for (n, p, *_), r in zip(batch, results) if not isinstance(r, Exception)]
            if written:
                self.store.create(f"{L.ISR_CHANGE_NOTIFICATION}/{L.ISR_CHANGE_PREFIX}",
                                  L.encode_isr_change(written), sequence=True)
        except Exception as e:  # ZooKeeper unreachable: none is known to be written
            for *_, tf in batch:
                tf.set_exception(e)
            return
        for (name, partition, _path, _data, version, tf), r in zip(batch, results):
            if isinstance(r, BadVersion):
                tf.set_exception(KafkaError(ErrorCode.INVALID_UPDATE_VERSION,
                                            f"the state of {name}-{partition} changed since version {version}"))
            elif isinstance(r, NoNode):
                tf.set_exception(KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION))
            elif isinstance(r, Exception):
                tf.set_exception(r)
            else:
                tf.set_result(r[0])

    # -- log dir failures ------------------------------------------------------------------------------------
    def report_offline_replicas(self, partitions: list[tuple[str, int]]):
        """This broker's replicas in offline log dirs, for the controller and every broker's Metadata.

        Sets (or creates, ephemeral) ``/kwire/offline_replicas/<id>`` with the whole list, then
        creates Kafka's ``/log_dir_event_notification/log_dir_event_<seq>``; the future resolves
        when both are in ZooKeeper.
        """
        partitions = sorted(set(partitions))
        self._offline_reported = partitions
        return self._write(lambda: self._write_offline_replicas(partitions))

    def _write_offline_replicas(self, partitions: list[tuple[str, int]]) -> None:
        path, data = L.offline_replicas_path(self.node_id), L.encode_offline_replicas(partitions)
        try:
            self.store.set(path, data)
        except NoNode:
            try:
                self.store.create(path, data, ephemeral=True)
            except NodeExists:
                self.store.set(path, data)
        self.store.create(f"{L.LOG_DIR_EVENT_NOTIFICATION}/{L.LOG_DIR_EVENT_PREFIX}",
                          L.encode_log_dir_event(self.node_id), sequence=True)
        log.info("reported %d replica(s) of broker %d in offline log dirs to the controller",
                 len(partitions), self.node_id)

    # -- control plane: controlled shutdown, elections, reassignments ------------------------------------
    def controlled_shutdown(self, timeout_s: float) -> bool:
        """Ask the controller to move this broker's leaderships away (blocking; off the loop).

        Creates the ephemeral ``/kwire/controlled_shutdown/<id>`` (kwire-specific:
        Kafka 4.x's schemas no longer have ControlledShutdown, API 7); the
        controller moves every partition this broker leads to the first live
        ISR member that is not shutting down, and drops this broker from the
        ISRs it is in. True once the image shows this broker leading nothing
        that has another live ISR member (partitions with no other ISR member
        stay led by it, as in Kafka); False on timeout or without ZooKeeper.
        """
        try:
            self.store.create(L.controlled_shutdown_path(self.node_id), b"", ephemeral=True)
        except NodeExists:
            pass  # asked before (a retry)
        except (ZooKeeperUnavailable, NoNode) as e:
            log.warning("controlled shutdown impossible: %s", e)
            return False

        def done() -> bool:
            others = set(self.image.brokers) - self.controller.shutting_down - {self.node_id}
            return not any(p.leader == self.node_id and others.intersection(p.isr)
                           for t in self.image.topics.values() for p in t.partitions)

        ok = self.wait_for(done, timeout_s)
        log.info("controlled shutdown of broker %d: %s", self.node_id,
                 "leaderships moved" if ok else f"not complete after {timeout_s:.1f} s")
        return ok

    def _rebalance_loop(self) -> None:
        """Every ``leader.imbalance.check.interval.seconds``: the controller's auto rebalance."""
        while not self._stop.is_set():
            try:
                interval = float(self.controller.config("leader.imbalance.check.interval.seconds"))
            except ValueError:
                interval = 300.0
            if self._stop.wait(max(interval, 0.1)):
                return
            if self.controller.active:
                try:
                    self._run(self.controller.rebalance)
                except KafkaError:
                    return

    def elect_leaders(self, partitions: list[tuple[str, int]], election_type: int):
        """ElectLeaders (0 preferred, 1 unclean) in ZooKeeper; the future resolves to
        {(topic, partition): new leader epoch, or KafkaError}."""
        partitions = list(partitions)
        return self._write(lambda: self.controller.elect_leaders(partitions, election_type))

    def reassignment_error(self, name: str, partition: int, replicas: list[int] | None,
                           allow_replication_factor_change: bool = True) -> KafkaError | None:
        """Kafka's checks of one AlterPartitionReassignments entry against the image."""
        t = self.image.topics.get(name)
        if t is None:
            return KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find a topic named {name}.")
        if not 0 <= partition < len(t.partitions):
            return KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find partition {name}:{partition}.")
        p = t.partitions[partition]
        if replicas is None:
            if not (p.adding_replicas or p.removing_replicas):
                return KafkaError(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS,
                                  f"No ongoing reassignment for partition {name}-{partition}.")
            return None
        if not replicas:
            return KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                              "Empty replica list specified in partition reassignment.")
        if len(set(replicas)) != len(replicas):
            return KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                              f"Duplicate replica ids in partition reassignment replica list: {list(replicas)}")
        if any(b < 0 for b in replicas):
            return KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                              f"Invalid broker id in replica list: {list(replicas)}")
        original = [r for r in p.replicas if r not in (p.adding_replicas or [])]
        # Kafka's KafkaController.validateReplicas: only the replicas being added must be live
        # (registered); a dead broker that already holds a replica may stay in the target
        adding = [r for r in replicas if r not in original]
        if any(b not in self.image.brokers for b in adding):
            return KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                              f"Replica assignment has brokers that are not alive. Replica list: "
                              f"{adding}, live broker list: {sorted(self.image.brokers)}")
        if not allow_replication_factor_change and len(replicas) != len(original):
            return KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                              f"The replication factor is changed from {len(original)} to {len(replicas)} "
                              f"but allowReplicationFactorChange is false")
        return None

    def alter_reassignments(self, changes: list[tuple[str, int, list[int] | None]]):
        """Start or cancel (replicas None) reassignments, KIP-455's way in ZooKeeper: the topic
        znode's replicas become target + original, with ``adding_replicas`` (target - original)
        and ``removing_replicas`` (original - target); the controller completes them. Cancelling
        reassigns to the original replicas. One conditional write per topic; the future
        resolves to {(topic, partition): KafkaError, or the (replicas, adding, removing) written}.
        Checks: ``reassignment_error``."""
        by_topic: dict[str, list[tuple[int, list[int] | None]]] = {}
        for name, p, replicas in changes:
            by_topic.setdefault(name, []).append((p, None if replicas is None else list(replicas)))

        def write() -> dict:
            out: dict = {}
            for name, parts in by_topic.items():
                for _ in range(10):
                    data, version = self.store.get(L.topic_path(name))
                    if data is None:
                        for p, _r in parts:
                            out[(name, p)] = KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                        break
                    a = L.decode_topic(data)
                    changed = False
                    for p, target in parts:
                        current = a.partitions.get(p)
                        if current is None:
                            out[(name, p)] = KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                            continue
                        adding, removing = a.adding_replicas.get(p, []), a.removing_replicas.get(p, [])
                        original = [r for r in current if r not in adding]
                        if target is None:
                            if not adding and not removing:
                                out[(name, p)] = KafkaError(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS)
                                continue
                            target = original
                        full = list(target) + [r for r in original if r not in target]
                        new_adding = [r for r in target if r not in original]
                        new_removing = [r for r in original if r not in target]
                        if not new_adding and not new_removing:
                            full = list(target)  # nothing to move (a reorder, or back to the original)
                            if adding:
                                # cancelling: the added replicas leave once the original ones are in the ISR
                                full = list(target) + [r for r in current if r not in target]
                                new_removing = [r for r in current if r not in target]
                        out[(name, p)] = (full, new_adding, new_removing)
                        if (full, new_adding, new_removing) == (current, adding, removing):
                            continue
                        a.partitions[p] = full
                        a.adding_replicas[p], a.removing_replicas[p] = new_adding, new_removing
                        changed = True
                    if not changed:
                        break
                    try:
                        self.store.set(L.topic_path(name), L.encode_topic(a.topic_id, a.partitions,
                                                                          a.adding_replicas, a.removing_replicas),
                                       version)
                        log.info("topic %s: reassignment of %s", name,
                                 {p: a.partitions[p] for p, _r in parts})
                        break
                    except BadVersion:
                        continue
            return out

        return self._write(write)

    async def until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """On the loop: wait (without blocking it) until ``predicate()`` holds for the image."""
        if predicate():
            return True
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
        event = asyncio.Event()

        def changed(_records) -> None:
            loop.call_soon_threadsafe(event.set)

        self._listeners.append(changed)
        try:
            deadline = loop.time() + timeout
            while not predicate():
                left = deadline - loop.time()
                if left <= 0:
                    return False
                event.clear()
                try:
                    await asyncio.wait_for(event.wait(), left)
                except asyncio.TimeoutError:
                    return predicate()
            return True
        finally:
            self._listeners.remove(changed)

    def topic_ready(self, name: str) -> bool:
        """True when the image has ``name`` with a state (leader, ISR) for every partition.

        A topic whose assignment has arrived but whose partition states have not
        (the controller writes them a moment later) is not shown to clients yet,
        as a Kafka broker learns a topic only with its leaders.
        """
        t = self.image.topics.get(name)
        return t is not None and all(getattr(p, "zk_version", 0) >= 0 for p in t.partitions)

    async def catch_up(self, names, timeout: float = 2.0) -> None:
        """Wait (bounded) until those of ``names`` that ZooKeeper has are ready in this image.

        Read-your-writes across brokers: a topic created through another broker
        is in ZooKeeper before this broker's watches have delivered it. One
        ZooKeeper read tells which names exist; only those are waited for, so an
        unknown topic costs one round trip, not the timeout.
        """
        names = [n for n in names if not self.topic_ready(n)]
        if not names:
            return
        try:
            existing = await self._run(lambda: [n for n in names if self.store.exists(L.topic_path(n))])
        except Exception:  # ZooKeeper unavailable: answer from the image
            return
        if existing:
            await self.until(lambda: all(self.topic_ready(n) for n in existing), timeout)

    async def read_topic_configs(self, names) -> dict[str, dict[str, str] | None]:
        """The topics' config overrides as ZooKeeper has them now (None: no config znode).

        Kafka's ZooKeeper-mode DescribeConfigs reads the config znode rather than its
        cache, so a change made through any broker is seen at once by every broker;
        this is that read (one round trip on the writer thread). Empty when ZooKeeper
        is unavailable: the caller answers from the image.
        """
        def read() -> dict[str, dict[str, str] | None]:
            out: dict[str, dict[str, str] | None] = {}
            for n in names:
                data, _version = self.store.get(L.topic_config_path(n))
                out[n] = None if data is None else L.decode_config(data)
            return out
        try:
            return await self._run(read)
        except Exception:
            return {}

    # -- producer ids -----------------------------------------------------------------------------------
    def allocate_producer_id(self) -> int:
        """The next producer id of the current block (COORDINATOR_LOAD_IN_PROGRESS when none is ready).

        The next block is claimed in the background when 10% of this one is
        left, and used once this one is spent.
        """
        if self._next_producer_id >= self._producer_id_end:
            block, self._pending_block = self._pending_block, None
            if block is None:
                self._reserve_producer_ids()
                raise KafkaError(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
                                 "The next producer ID block is not yet available.")
            self._next_producer_id, self._producer_id_end = block.block_start, block.block_end + 1
        pid = self._next_producer_id
        self._next_producer_id += 1
        if self._producer_id_end - self._next_producer_id <= PRODUCER_ID_BLOCK_SIZE // 10:
            self._reserve_producer_ids()
        return pid

    def claim_producer_id_block(self) -> L.ProducerIdBlock:
        """Claim the next block in ZooKeeper (blocking; Kafka's ZkProducerIdManager): read the
        latest block and its version, write the one after it conditional on that version,
        and on a lost race read again."""
        while True:
            data, version = self.store.get(L.PRODUCER_ID_BLOCK)
            current = L.decode_producer_id_block(data) if data else None
            block = L.next_producer_id_block(current, self.node_id, PRODUCER_ID_BLOCK_SIZE)
            try:
                self.store.set(L.PRODUCER_ID_BLOCK, L.encode_producer_id_block(block), version)
                return block
            except BadVersion:
                continue
            except NoNode:
                try:
                    self.store.create(L.PRODUCER_ID_BLOCK, L.encode_producer_id_block(block))
                    return block
                except NodeExists:
                    continue

    def _reserve_producer_ids_now(self) -> None:
        block = self.claim_producer_id_block()
        self._next_producer_id, self._producer_id_end = block.block_start, block.block_end + 1

    def _reserve_producer_ids(self) -> None:
        if self._reserving_producer_ids or self._pending_block is not None or self._closed:
            return
        self._reserving_producer_ids = True

        def done(f) -> None:
            self._reserving_producer_ids = False
            if not f.cancelled() and f.exception() is None:
                self._pending_block = f.result()

        self._run(self.claim_producer_id_block).add_done_callback(done)

    # -- lifecycle ----------------------------------------------------------------------------------------
    def save(self) -> None:
        """Nothing is pending locally: ZooKeeper holds every acknowledged change."""

    def close(self) -> None:
        """Stop watching, drop the session (ephemeral znodes go at once), stop the writer thread."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self.controller.active = False
        self._executor.shutdown(wait=True, cancel_futures=True)
        self.store.close()
