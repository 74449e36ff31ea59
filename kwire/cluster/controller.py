"""The ZooKeeper-mode controller: election, epoch fencing, partition states, shutdowns, reassignments.

Election (Kafka's ``KafkaZkClient.registerControllerAndIncrementControllerEpoch``):
read ``/controller_epoch`` (creating it with 0 if missing), then in one
ZooKeeper multi create the ephemeral ``/controller`` and set
``/controller_epoch`` to epoch + 1 *conditional on the version just read*.
Whoever loses finds ``/controller`` taken (NODEEXISTS) or the epoch moved
(BADVERSION) and stays a follower. The winner remembers the epoch and the
epoch znode's version.

Fencing: every write the controller makes is a multi whose first op is
``check(/controller_epoch, version)`` (Kafka's ``CheckOp`` in
``retryRequestsUntilConnected(..., expectedControllerEpochZkVersion)``). A
controller that was deposed while it was paused or partitioned (another
broker has since bumped the epoch) cannot change anything: its multi fails
with BADVERSION on the check and ``ControllerMovedError`` (NOT_CONTROLLER) is
raised. The guard is ZooKeeper's, not a local flag: ``fenced`` always asks.

The controller's view (``view``, a ``ZkImage`` of its own) is fed on kazoo's
watch threads with the same records as the broker's image (``observe``), so
the controller never re-reads ZooKeeper to find work: every record marks the
topics it touches dirty, and ``reconcile`` (run on the metadata writer thread,
coalesced) evaluates those partitions in memory and writes only the ones that
change. A change of the live brokers or of the shutting-down set marks every
topic, which costs a scan of memory, not of ZooKeeper. Each write is
conditional on the state znode's version (Kafka's partition epoch) and fenced
by the controller epoch; a write that loses a race is dropped and the watch
that reports the winner marks the topic again. What ``reconcile`` does per
partition (decisions in ``kwire.cluster.election``):

* no state yet (a new topic or new partitions): leader = first live replica
  in assignment order, ISR = the live replicas, leader_epoch 0, one multi per
  topic;
* a reassignment in progress (KIP-455: ``adding_replicas`` /
  ``removing_replicas`` in the topic znode; replicas = target + original)
  whose every target replica is in the ISR: leader from the target if needed,
  ISR and replicas shrunk to the target, adding/removing cleared, in one
  multi with the assignment (conditional on both versions);
* a leader that is gone: the first live ISR member in assignment order, or
  (``unclean.leader.election.enable`` for the topic, else the broker default
  from ``/config/brokers/<default>``, else this controller's static config)
  the first live replica; else leader -1 with the ISR kept; dead followers
  leave the ISR;
* a broker shutting down (the kwire-specific ephemeral
  ``/kwire/controlled_shutdown/<id>``, see ``ZkMetadata.controlled_shutdown``):
  its partitions move to the first live ISR member that is not shutting down
  and it leaves every ISR (where another member remains);
* a replica in an offline log dir (its broker's ``/kwire/offline_replicas/<id>``,
  announced by a ``/log_dir_event_notification`` entry; Kafka's
  ``onBrokerLogDirFailure`` learns the same from LeaderAndIsr responses with
  KAFKA_STORAGE_ERROR): for that partition the broker counts as not live, so
  a leader there is replaced by the first live ISR member in assignment order
  (none: leader -1, ISR kept, as Kafka's offline partition) and a follower
  there leaves the ISR (Kafka's OfflineReplica transition);

each change bumps ``leader_epoch``. Topics queued under
``/admin/delete_topics`` are deleted (states, partitions, assignment, config,
queue entry, in one fenced multi); ``/isr_change_notification`` and
``/log_dir_event_notification`` are cleared once handled.
``rebalance`` (timer, ``auto.leader.rebalance.enable``) and ``elect_leaders``
(the ElectLeaders API) give preferred / unclean elections.

Not here: telling brokers through requests (brokers learn everything from
watches); the wait for replicas' logs to be deleted before a deletion
completes (brokers delete a topic's logs when it leaves their image).
"""

from __future__ import annotations

import logging
import threading
import uuid
from typing import Callable

from kwire.cluster import election as E
from kwire.cluster import zk_layout as L
from kwire.cluster.zk_image import ZkImage
from kwire.cluster.zk_store import BadVersion, NodeExists, NoNode, ZkStore, ZooKeeperUnavailable
from kwire.protocol.errors import ErrorCode, KafkaError

log = logging.getLogger("kwire.cluster.controller")

# Kafka's defaults for the controller's own configs
CONTROLLER_DEFAULTS = {
    "unclean.leader.election.enable": "false",
    "auto.leader.rebalance.enable": "true",
    "leader.imbalance.check.interval.seconds": "300",
    "leader.imbalance.per.broker.percentage": "10",
}


class ControllerMovedError(KafkaError):
    """This broker is not (or no longer) the controller: its write was fenced."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.NOT_CONTROLLER, message)


def elect_after_change(state: L.LeaderAndIsr, replicas: list[int], live: set[int]) -> tuple[int, list[int]] | None:
    """(leader, isr) for ``state`` given the live brokers, or None (clean election only)."""
    return E.offline_election(state, replicas, live)


def _truthy(value) -> bool:
    return str(value).strip().lower() == "true"


def desired_state(state: L.LeaderAndIsr, replicas: list[int], registered: set[int], shutting_down: set[int],
                  unclean: bool) -> tuple[int, list[int]] | None:
    """The partition's next (leader, isr) after broker losses and controlled shutdowns, or None."""
    change = E.offline_election(state, replicas, registered, unclean)
    s = state
    if change is not None:
        s = L.LeaderAndIsr(change[0], state.leader_epoch, change[1], state.controller_epoch)
    if shutting_down and (s.leader in shutting_down or shutting_down.intersection(s.isr)):
        moved = E.shutdown_election(s, replicas, registered - shutting_down, shutting_down)
        if moved is not None:
            change = moved
    if change is not None and change[0] == state.leader and change[1] == state.isr:
        return None
    return change


class ZkController:
    def __init__(self, store: ZkStore, broker_id: int, static_configs: dict | None = None) -> None:
        self.store = store
        self.broker_id = broker_id
        self.active = False
        self.epoch = L.INITIAL_CONTROLLER_EPOCH
        self.epoch_zk_version = -1
        self.on_change: Callable[[bool], None] | None = None  # called with `active` after it changes
        self.static_configs = {k: str(v) for k, v in (static_configs or {}).items()}
        # the view: fed by observe() on watch threads, read under the lock
        self.view = ZkImage(broker_id)
        self.topic_versions: dict[str, int] = {}
        self.shutting_down: set[int] = set()
        self._lock = threading.Lock()
        self._dirty: set[str] | None = None  # topics to evaluate; None: all
        self._deletions_pending = True
        self._isr_notifications_pending = True
        self._log_dir_events_pending = True
        self._without_id: set[str] = set()
        self.writes = 0  # state writes made (for measurements and tests)

    # -- what the watches report ---------------------------------------------------------------
    def observe(self, records: list[dict]) -> None:
        """Replay ``records`` into the view and mark what they touch (any thread)."""
        with self._lock:
            for r in records:
                kind = r["type"]
                name = r.get("name")
                if kind == "zk_partition_state" and r["state"] is not None:
                    t = self.view.topics.get(name)
                    p = t.partitions[r["partition"]] if t is not None and r["partition"] < len(t.partitions) else None
                    if p is not None and p.zk_version > r["state"]["zk_version"]:
                        continue  # older than what this controller itself wrote
                if kind == "zk_topic":
                    self._without_id.discard(name)
                    if "zk_version" in r:
                        self.topic_versions[name] = r["zk_version"]
                elif kind == "zk_remove_topic":
                    self.topic_versions.pop(name, None)
                try:
                    self.view.replay(r)
                except Exception:
                    log.exception("controller view: cannot replay %s", kind)
                if kind in ("zk_brokers", "broker_configs", "zk_offline_replicas"):
                    self._dirty = None
                elif name is not None and self._dirty is not None:
                    self._dirty.add(name)

    def observe_shutting_down(self, brokers: set[int]) -> None:
        with self._lock:
            if brokers != self.shutting_down:
                self.shutting_down = set(brokers)
                self._dirty = None

    def note_deletions(self) -> None:
        self._deletions_pending = True

    def note_isr_notifications(self) -> None:
        self._isr_notifications_pending = True

    def note_log_dir_events(self) -> None:
        self._log_dir_events_pending = True

    def note_topic_without_id(self, name: str) -> None:
        with self._lock:
            self._without_id.add(name)

    def config(self, name: str) -> str:
        """A broker config as the controller sees it: dynamic (own, then cluster default) in
        ZooKeeper, then this broker's static config, then Kafka's default."""
        for layer in (self.view.dynamic_broker_configs, self.view.dynamic_default_broker_configs,
                      self.static_configs, CONTROLLER_DEFAULTS):
            if name in layer:
                return layer[name]
        return ""

    def _unclean(self, topic) -> bool:
        v = topic.configs.get("unclean.leader.election.enable")
        return _truthy(v if v is not None else self.config("unclean.leader.election.enable"))

    # -- election ----------------------------------------------------------------------------
    def elect(self) -> bool:
        """Try to become the controller (if there is none); True if this broker is now it."""
        data, _ = self.store.get(L.CONTROLLER)
        if data is not None:
            current = L.decode_controller(data)
            if current != self.broker_id and self.active:
                self._set_active(False)
            return self.active and current == self.broker_id
        epoch, version = self._current_epoch()
        new_epoch = epoch + 1
        try:
            _, new_version = self.store.multi([
                ("create", L.CONTROLLER, L.encode_controller(self.broker_id), True),
                ("set", L.CONTROLLER_EPOCH, L.encode_controller_epoch(new_epoch), version),
            ])
        except (NodeExists, BadVersion):
            log.info("broker %d lost the controller election", self.broker_id)
            if self.active:
                self._set_active(False)
            return False
        self.epoch, self.epoch_zk_version = new_epoch, new_version
        log.info("broker %d is the controller (epoch %d)", self.broker_id, new_epoch)
        with self._lock:
            self._dirty = None
        self._deletions_pending = self._isr_notifications_pending = self._log_dir_events_pending = True
        self._set_active(True)
        try:
            self.reconcile()
        except ControllerMovedError:
            pass
        return True

    def _current_epoch(self) -> tuple[int, int]:
        data, version = self.store.get(L.CONTROLLER_EPOCH)
        if data is None:
            try:
                self.store.create(L.CONTROLLER_EPOCH, L.encode_controller_epoch(L.INITIAL_CONTROLLER_EPOCH))
                return L.INITIAL_CONTROLLER_EPOCH, 0
            except NodeExists:
                data, version = self.store.get(L.CONTROLLER_EPOCH)
        return L.decode_controller_epoch(data), version

    def resign(self) -> None:
        """Another broker is the controller, or the session ended: stop acting."""
        if self.active:
            log.info("broker %d is no longer the controller", self.broker_id)
            self._set_active(False)

    def _set_active(self, active: bool) -> None:
        self.active = active
        if self.on_change is not None:
            self.on_change(active)

    # -- fenced writes ---------------------------------------------------------------------------
    def fenced(self, ops: list, epoch_zk_version: int | None = None) -> list:
        """Run ``ops`` in one multi after check(/controller_epoch, our version).

        ControllerMovedError if the epoch moved (another controller was elected
        since); BadVersion / NodeExists / NoNode for the other ops' conditions.
        """
        version = self.epoch_zk_version if epoch_zk_version is None else epoch_zk_version
        try:
            return self.store.multi([("check", L.CONTROLLER_EPOCH, version)] + list(ops))[1:]
        except BadVersion as e:
            if e.path != L.CONTROLLER_EPOCH:
                raise
            self.resign()
            raise ControllerMovedError(
                f"broker {self.broker_id}'s controller epoch {self.epoch} is stale: "
                f"another controller has been elected") from None

    def fenced_many(self, batches: list[list]) -> list:
        """``fenced`` for several independent multis, pipelined; per batch its results or the
        exception (BadVersion / NodeExists / NoNode). ControllerMovedError if any met a new epoch."""
        check = ("check", L.CONTROLLER_EPOCH, self.epoch_zk_version)
        out = []
        for r in self.store.multi_many([[check] + list(ops) for ops in batches]):
            if isinstance(r, BadVersion) and r.path == L.CONTROLLER_EPOCH:
                self.resign()
                raise ControllerMovedError(
                    f"broker {self.broker_id}'s controller epoch {self.epoch} is stale: "
                    f"another controller has been elected")
            out.append(r if isinstance(r, Exception) else r[1:])
        return out

    def _state_record(self, name: str, p: int, leader: int, leader_epoch: int, isr: list[int],
                      zk_version: int, epoch: int | None = None) -> dict:
        return {"type": "zk_partition_state", "name": name, "partition": p, "state": {
            "leader": leader, "leader_epoch": leader_epoch, "isr": list(isr),
            "controller_epoch": self.epoch if epoch is None else epoch, "zk_version": zk_version}}

    def _write_states(self, changes: list[tuple]) -> None:
        """Partition state changes ``(name, p, old state, leader, isr)``, pipelined in chunks; one
        that lost a race is dropped (its watch marks the topic again)."""
        for i in range(0, len(changes), 500):
            chunk = changes[i:i + 500]
            batches = [[("set", L.partition_state_path(name, p),
                         L.encode_partition_state(leader, old.leader_epoch + 1, isr, self.epoch), old.zk_version)]
                       for name, p, old, leader, isr in chunk]
            records = []
            for (name, p, old, leader, isr), r in zip(chunk, self.fenced_many(batches)):
                if isinstance(r, Exception):
                    log.debug("partition %s-%d changed meanwhile (%s); its watch brings it back", name, p, r)
                    continue
                self.writes += 1
                records.append(self._state_record(name, p, leader, old.leader_epoch + 1, isr, r[0]))
                log.info("partition %s-%d: leader %d -> %d, isr %s (leader epoch %d)", name, p, old.leader,
                         leader, isr, old.leader_epoch + 1)
            self.observe(records)

    def _create_fresh_topics(self, topics: dict[str, list], live: set[int]) -> None:
        """First states of new topics (none of whose partitions has one), one multi per topic,
        pipelined; a topic whose multi fails goes the careful way (``_create_states``)."""
        names, batches, made = [], [], []
        for name, parts in topics.items():
            ops = [("create", L.partitions_path(name), b"")]
            chosen = []
            for p, replicas in parts:
                live_replicas = [r for r in replicas if r in live]
                if not live_replicas:
                    continue
                ops.append(("create", L.partition_path(name, p), b""))
                ops.append(("create", L.partition_state_path(name, p),
                            L.encode_partition_state(live_replicas[0], 0, live_replicas, self.epoch)))
                chosen.append((p, live_replicas))
            if chosen:
                names.append(name)
                batches.append(ops)
                made.append(chosen)
        records = []
        for name, chosen, r in zip(names, made, self.fenced_many(batches) if batches else []):
            if isinstance(r, Exception):
                self._create_states(name, topics[name], live)
                continue
            self.writes += len(chosen)
            records.extend(self._state_record(name, p, rs[0], 0, rs, 0) for p, rs in chosen)
        self.observe(records)

    def _write_state(self, name: str, p: int, leader: int, leader_epoch: int, isr: list[int], version: int,
                     extra: list | None = None, epoch: int | None = None, epoch_zk_version: int | None = None) -> None:
        """One state change (plus ``extra`` ops), fenced; the view learns it at once."""
        epoch = self.epoch if epoch is None else epoch
        results = self.fenced([("set", L.partition_state_path(name, p),
                                L.encode_partition_state(leader, leader_epoch, isr, epoch), version)]
                              + list(extra or []), epoch_zk_version)
        self.writes += 1
        self.observe([{"type": "zk_partition_state", "name": name, "partition": p, "state": {
            "leader": leader, "leader_epoch": leader_epoch, "isr": list(isr), "controller_epoch": epoch,
            "zk_version": results[0]}}])

    # -- the controller's work -----------------------------------------------------------------
    def reconcile(self) -> None:
        if not self.active:
            return
        try:
            self._reconcile()
        except ZooKeeperUnavailable as e:
            log.warning("controller work postponed: %s", e.message)
            with self._lock:
                self._dirty = None
        except ControllerMovedError:
            raise
        except Exception:
            log.exception("controller work failed; everything is looked at again on the next change")
            with self._lock:
                self._dirty = None

    def _reconcile(self) -> None:
        if self._deletions_pending:
            self._deletions_pending = False
            for topic in self.store.children(L.DELETE_TOPICS):
                self._delete_topic(topic)
        with self._lock:
            dirty, self._dirty = self._dirty, set()
            without_id, self._without_id = self._without_id, set()
            names = list(self.view.topics) if dirty is None else [n for n in dirty if n in self.view.topics]
            work = []
            registered = set(self.view.brokers)
            shutting_down = set(self.shutting_down) & registered
            offline = self.view.offline_replicas
            for name in names:
                t = self.view.topics[name]
                unclean = self._unclean(t)
                for p in t.partitions:
                    work.append((name, p.partition, list(p.replicas), list(p.adding_replicas or []),
                                 list(p.removing_replicas or []), p.zk_version,
                                 L.LeaderAndIsr(p.leader, p.leader_epoch, list(p.isr), p.controller_epoch,
                                                p.zk_version), unclean,
                                 set(offline.get((name, p.partition), ()))))
        for name in without_id:
            self._assign_topic_id(name)
        new_states: dict[str, list] = {}
        has_state: set[str] = set()
        changes = []
        for name, p, replicas, adding, removing, version, state, unclean, offline_here in work:
            if not self.active:
                return
            if version < 0:
                new_states.setdefault(name, []).append((p, replicas))
                continue
            has_state.add(name)
            try:
                if (adding or removing) and self._reassignment_step(name, p, replicas, removing, state,
                                                                    registered - shutting_down):
                    continue
            except (BadVersion, NoNode) as e:
                log.debug("partition %s-%d changed meanwhile (%s); its watch brings it back", name, p, e)
                continue
            # a replica in an offline log dir is, for this partition, a broker that is gone
            change = desired_state(state, replicas, registered - offline_here, shutting_down, unclean)
            if change is not None:
                changes.append((name, p, state, change[0], change[1]))
        if changes:
            self._write_states(changes)
        live = registered - shutting_down or registered
        fresh = {n: parts for n, parts in new_states.items() if n not in has_state}
        if fresh:
            self._create_fresh_topics(fresh, live)
        for name, parts in new_states.items():
            if name in has_state:
                self._create_states(name, parts, live)
        if self._log_dir_events_pending:  # handled above (the view has the offline replicas)
            self._log_dir_events_pending = False
            for child in self.store.children(L.LOG_DIR_EVENT_NOTIFICATION):
                log.info("handled the log dir failure of broker %s (%s)",
                         L.decode_log_dir_event(self.store.get(f"{L.LOG_DIR_EVENT_NOTIFICATION}/{child}")[0]),
                         child)
                try:
                    self.fenced([("delete", f"{L.LOG_DIR_EVENT_NOTIFICATION}/{child}")])
                except NoNode:
                    pass
        if self._isr_notifications_pending:
            self._isr_notifications_pending = False
            # pipelined: one at a time, the deletions held the elections queued behind them
            # for seconds when many partitions rejoined their ISRs after a heal (NoNode: gone)
            self.fenced_many([[("delete", f"{L.ISR_CHANGE_NOTIFICATION}/{child}")]
                              for child in self.store.children(L.ISR_CHANGE_NOTIFICATION)])

    def _assign_topic_id(self, topic: str) -> None:
        """A topic written without an id (Kafka before 2.8, or a tool) gets one, as Kafka's
        controller does (KIP-516), conditional on the assignment's version."""
        data, version = self.store.get(L.topic_path(topic))
        if data is None:
            return
        a = L.decode_topic(data)
        if a.topic_id is not None:
            return
        a.topic_id = uuid.uuid4()
        try:
            self.fenced([("set", L.topic_path(topic), L.encode_topic(a.topic_id, a.partitions, a.adding_replicas,
                                                                       a.removing_replicas), version)])
            log.info("topic %s: assigned topic id %s", topic, a.topic_id)
        except BadVersion:
            log.debug("topic %s changed meanwhile; the next pass gives it an id", topic)

    def _create_states(self, topic: str, parts: list[tuple[int, list[int]]], live: set[int]) -> None:
        """The first state of new partitions, in one multi for the topic."""
        ops, made = [], []
        store = self.store
        have_partitions = store.exists(L.partitions_path(topic))
        existing = set(store.children(L.partitions_path(topic))) if have_partitions else set()
        if not have_partitions:
            ops.append(("create", L.partitions_path(topic), b""))
        for p, replicas in parts:
            live_replicas = [r for r in replicas if r in live]
            if not live_replicas:
                continue  # no live replica: a later pass creates the state
            if str(p) not in existing:
                ops.append(("create", L.partition_path(topic, p), b""))
            ops.append(("create", L.partition_state_path(topic, p),
                        L.encode_partition_state(live_replicas[0], 0, live_replicas, self.epoch)))
            made.append((p, live_replicas))
        if not made:
            return
        try:
            self.fenced(ops)
            self.writes += len(made)
        except (NodeExists, NoNode) as e:
            # some states exist already (another pass, or the watch has not reported them yet):
            # one at a time, so the others are still made
            if len(made) == 1 or isinstance(e, NoNode):
                log.debug("topic %s: %s (another pass got there first)", topic, e)
                return
            for p, replicas in parts:
                self._create_states(topic, [(p, replicas)], live)
            return
        self.observe([{"type": "zk_partition_state", "name": topic, "partition": p, "state": {
            "leader": r[0], "leader_epoch": 0, "isr": r, "controller_epoch": self.epoch, "zk_version": 0}}
            for p, r in made])

    def _reassignment_step(self, name: str, p: int, replicas: list[int], removing: list[int],
                           state: L.LeaderAndIsr, live: set[int]) -> bool:
        """Complete a reassignment whose target replicas are all in the ISR; True if it wrote."""
        target = [r for r in replicas if r not in removing]
        if not target or not all(r in state.isr for r in target):
            return False
        change = E.reassignment_election(state, target, live)
        if change is None:
            return False
        with self._lock:
            t = self.view.topics.get(name)
            topic_version = self.topic_versions.get(name)
            if t is None or topic_version is None:
                return False
            assignment = {q.partition: list(q.replicas) for q in t.partitions}
            adding = {q.partition: list(q.adding_replicas) for q in t.partitions if q.adding_replicas}
            removing_all = {q.partition: list(q.removing_replicas) for q in t.partitions if q.removing_replicas}
            topic_id = t.topic_id
        assignment[p] = target
        adding.pop(p, None)
        removing_all.pop(p, None)
        leader, isr = change
        self._write_state(name, p, leader, state.leader_epoch + 1, isr, state.zk_version, extra=[
            ("set", L.topic_path(name), L.encode_topic(topic_id, assignment, adding, removing_all), topic_version)])
        log.info("partition %s-%d: reassignment to %s complete (leader %d, isr %s, leader epoch %d)",
                 name, p, target, leader, isr, state.leader_epoch + 1)
        return True

    def _delete_topic(self, topic: str) -> None:
        store = self.store
        ops = []
        for p in store.children(L.partitions_path(topic)):
            ppath = f"{L.partitions_path(topic)}/{p}"
            if store.exists(f"{ppath}/state"):
                ops.append(("delete", f"{ppath}/state"))
            ops.append(("delete", ppath))
        if store.exists(L.partitions_path(topic)):
            ops.append(("delete", L.partitions_path(topic)))
        if store.exists(L.topic_path(topic)):
            ops.append(("delete", L.topic_path(topic)))
        if store.exists(L.topic_config_path(topic)):
            ops.append(("delete", L.topic_config_path(topic)))
        ops.append(("delete", L.delete_topic_path(topic)))
        try:
            self.fenced(ops)
            log.info("deleted topic %s", topic)
        except (NoNode, NodeExists, BadVersion, KafkaError) as e:
            if isinstance(e, ControllerMovedError):
                raise
            self._deletions_pending = True
            log.warning("could not delete topic %s yet: %s", topic, e)

    # -- elections asked for ----------------------------------------------------------------------
    def elect_leaders(self, partitions: list[tuple[str, int]], election_type: int) -> dict:
        """ElectLeaders: {(topic, partition): the new leader epoch, or KafkaError}. Blocking.

        Runs on any broker (clients send ElectLeaders to the controller; another
        broker's write is conditional on the state znode's version and on the
        controller epoch it read, so it cannot undo a concurrent controller's change).
        """
        out: dict = {}
        for name, p in partitions:
            try:
                out[(name, p)] = self._elect_one(name, p, election_type)
            except KafkaError as e:
                out[(name, p)] = e
        return out

    def _elect_one(self, name: str, p: int, election_type: int) -> int:
        for _ in range(5):
            with self._lock:
                t = self.view.topics.get(name)
                if t is None:
                    raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such topic as {name}")
                if not 0 <= p < len(t.partitions):
                    raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such partition as {name}-{p}")
                replicas = list(t.partitions[p].replicas)
                live = set(self.view.brokers) - self.shutting_down
            data, version = self.store.get(L.partition_state_path(name, p))
            state = L.decode_partition_state(data, version)
            if state is None:
                raise KafkaError(ErrorCode.LEADER_NOT_AVAILABLE, f"{name}-{p} has no leader yet")
            if election_type == E.PREFERRED:
                leader, isr = E.preferred_election(state, replicas, live, name, p)
            else:
                leader, isr = E.unclean_election(state, replicas, live, name, p)
            if self.active:
                epoch, epoch_version = self.epoch, None
            else:
                data, epoch_version = self.store.get(L.CONTROLLER_EPOCH)
                epoch = L.decode_controller_epoch(data)
            try:
                self._write_state(name, p, leader, state.leader_epoch + 1, isr, version,
                                  epoch=epoch, epoch_zk_version=epoch_version)
            except ControllerMovedError:
                continue  # the controller changed meanwhile (this broker's epoch was stale): again
            except BadVersion:
                continue
            log.info("partition %s-%d: %s election: leader %d -> %d (leader epoch %d)", name, p,
                     "preferred" if election_type == E.PREFERRED else "unclean", state.leader, leader,
                     state.leader_epoch + 1)
            return state.leader_epoch + 1
        raise KafkaError(ErrorCode.REQUEST_TIMED_OUT, f"{name}-{p} kept changing during the election")

    def rebalance(self) -> int:
        """Auto leader rebalance (``auto.leader.rebalance.enable``): preferred elections where a
        broker's imbalance is above ``leader.imbalance.per.broker.percentage``; the count made."""
        if not self.active or not _truthy(self.config("auto.leader.rebalance.enable")):
            return 0
        with self._lock:
            live = set(self.view.brokers) - self.shutting_down
            parts = [((t.name, p.partition), list(p.replicas),
                      L.LeaderAndIsr(p.leader, p.leader_epoch, list(p.isr), p.controller_epoch, p.zk_version)
                      if p.zk_version >= 0 else None)
                     for t in self.view.topics.values() for p in t.partitions
                     if not (p.adding_replicas or p.removing_replicas)]
        try:
            pct = int(self.config("leader.imbalance.per.broker.percentage"))
        except ValueError:
            pct = 10
        keys = E.imbalanced_partitions(parts, live, pct)
        done = 0
        for key, got in self.elect_leaders(keys, E.PREFERRED).items():
            if not isinstance(got, KafkaError):
                done += 1
        if done:
            log.info("auto leader rebalance: %d partition(s) moved back to their preferred replica", done)
        return done
