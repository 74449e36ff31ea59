"""The ZooKeeper-mode controller: election, epoch fencing, partition states, deletions.

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

Work (``reconcile``, run on the metadata writer thread after election and on
every broker / topic / deletion / ISR-notification change, coalesced): read the
live brokers and every topic's assignment from ZooKeeper and

* give a topic without a topic id one (KIP-516; Kafka before 2.8 wrote none);
* create the state of partitions that have none yet (a new topic or new
  partitions): leader = first live replica in assignment order, ISR = the
  live replicas, leader_epoch 0 (no live replica: left for a later pass);
* for partitions whose leader is gone, elect the first replica (assignment
  order) that is live and in the ISR; none: leader -1 (offline) with the ISR
  kept, so only an ISR member can lead again (no unclean election yet);
* drop dead followers from the ISR;
  each change bumps ``leader_epoch`` and is written conditional on the state
  znode's version as well as the controller epoch;
* delete topics queued under ``/admin/delete_topics`` (states, partitions,
  assignment, config, then the queue entry, in one fenced multi);
* clear ``/isr_change_notification`` (brokers' watches already saw the change).

Not yet (later sessions of issue 12): preferred-leader election and
auto-rebalance, reassignments, controlled shutdown, unclean election, and
telling brokers through requests (brokers learn everything from watches).
Reconcile reads everything each time: fine for tens of topics, not for
thousands.
"""

from __future__ import annotations

import logging
import uuid
from typing import Callable

from kwire.cluster import zk_layout as L
from kwire.cluster.zk_store import BadVersion, NodeExists, NoNode, ZkStore, ZooKeeperUnavailable
from kwire.protocol.errors import ErrorCode, KafkaError

log = logging.getLogger("kwire.cluster.controller")


class ControllerMovedError(KafkaError):
    """This broker is not (or no longer) the controller: its write was fenced."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.NOT_CONTROLLER, message)


def elect_after_change(state: L.LeaderAndIsr, replicas: list[int], live: set[int]) -> tuple[int, list[int]] | None:
    """(leader, isr) for ``state`` given the live brokers, or None if nothing changes.

    Pure: Kafka's OfflinePartitionLeaderElectionStrategy (clean) plus the ISR
    shrink of its OfflineReplica transition.
    """
    live_isr = [b for b in state.isr if b in live]
    if state.leader in live:
        if live_isr == state.isr:
            return None
        return state.leader, live_isr
    candidates = [r for r in replicas if r in live_isr]
    if candidates:
        return candidates[0], live_isr
    if state.leader == L.NO_LEADER:
        return None
    return L.NO_LEADER, list(state.isr)


class ZkController:
    def __init__(self, store: ZkStore, broker_id: int) -> None:
        self.store = store
        self.broker_id = broker_id
        self.active = False
        self.epoch = L.INITIAL_CONTROLLER_EPOCH
        self.epoch_zk_version = -1
        self.on_change: Callable[[bool], None] | None = None  # called with `active` after it changes

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

    # -- the controller's work -----------------------------------------------------------------
    def reconcile(self) -> None:
        if not self.active:
            return
        try:
            self._reconcile()
        except ZooKeeperUnavailable as e:
            log.warning("controller work postponed: %s", e.message)

    def _reconcile(self) -> None:
        store = self.store
        live = {int(b) for b in store.children(L.BROKER_IDS)}
        deleting = set(store.children(L.DELETE_TOPICS))
        for topic in store.children(L.TOPICS):
            if topic in deleting:
                continue
            data, version = store.get(L.topic_path(topic))
            if data is None:
                continue
            assignment = L.decode_topic(data)
            if assignment.topic_id is None:
                self._assign_topic_id(topic, assignment, version)
            existing = set(store.children(L.partitions_path(topic)))
            for p, replicas in sorted(assignment.partitions.items()):
                if not self.active:
                    return
                self._partition(topic, p, replicas, live, str(p) in existing, existing)
        for topic in deleting:
            self._delete_topic(topic)
        for child in store.children(L.ISR_CHANGE_NOTIFICATION):
            try:
                self.fenced([("delete", f"{L.ISR_CHANGE_NOTIFICATION}/{child}")])
            except NoNode:
                pass

    def _assign_topic_id(self, topic: str, a: L.TopicAssignment, version: int) -> None:
        """A topic written without an id (Kafka before 2.8, or a tool) gets one, as Kafka's
        controller does (KIP-516), conditional on the assignment's version."""
        a.topic_id = uuid.uuid4()
        try:
            self.fenced([("set", L.topic_path(topic), L.encode_topic(a.topic_id, a.partitions, a.adding_replicas,
                                                                       a.removing_replicas), version)])
            log.info("topic %s: assigned topic id %s", topic, a.topic_id)
        except BadVersion:
            log.debug("topic %s changed meanwhile; the next pass gives it an id", topic)

    def _partition(self, topic: str, p: int, replicas: list[int], live: set[int], has_node: bool,
                   existing: set[str]) -> None:
        path = L.partition_state_path(topic, p)
        data, version = self.store.get(path)
        if data is None:
            live_replicas = [r for r in replicas if r in live]
            if not live_replicas:
                return  # no live replica: a later pass creates the state
            ops = []
            if not existing and not self.store.exists(L.partitions_path(topic)):
                ops.append(("create", L.partitions_path(topic), b""))
                existing.add("")  # created by this multi: not again for the next partition
            if not has_node:
                ops.append(("create", L.partition_path(topic, p), b""))
            ops.append(("create", path, L.encode_partition_state(live_replicas[0], 0, live_replicas, self.epoch)))
            try:
                self.fenced(ops)
            except (NodeExists, NoNode) as e:
                log.debug("partition %s-%d: %s (another pass got there first)", topic, p, e)
            return
        state = L.decode_partition_state(data, version)
        change = elect_after_change(state, replicas, live)
        if change is None:
            return
        leader, isr = change
        try:
            self.fenced([("set", path, L.encode_partition_state(leader, state.leader_epoch + 1, isr, self.epoch),
                          version)])
            log.info("partition %s-%d: leader %d -> %d, isr %s (leader epoch %d)", topic, p, state.leader,
                     leader, isr, state.leader_epoch + 1)
        except BadVersion:
            log.debug("partition %s-%d changed meanwhile; the next pass sees it", topic, p)

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
            log.warning("could not delete topic %s yet: %s", topic, e)
