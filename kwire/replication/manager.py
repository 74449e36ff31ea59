"""``ReplicaManager``: this broker's replicas in a ZooKeeper-mode cluster (Kafka's ReplicaManager).

What it does
------------
* Logs follow the image: every partition whose replicas include this broker
  has a log here (created when the assignment names it, on every broker
  holding a replica); a log whose topic left the image, or whose partition no
  longer names this broker, is removed (fetching stopped first).
* Roles follow the partition state: leader == this broker -> a
  ``LeaderState`` (the leader epoch's start offset recorded at the LEO first,
  Kafka's ``makeLeader``); another leader -> handed to the follower fetcher
  manager (``kwire.replication.fetcher``, Kafka's ``makeFollower``); no
  leader -> not fetched. ``Broker`` leadership listeners hear of each change.
* Leader side: appends (``append``) and follower fetches (``follower_fetch``)
  move the HW (``LeaderState``), which is copied into the log and wakes the
  consumers' long-polls (purgatory key ``(topic, partition)``); appends wake
  the followers' (``kwire.delayed.replica_key``). ISR expand (from a follower fetch)
  and shrink (``check_isr_shrink``, every ``replica.lag.time.max.ms / 2``)
  are written to ZooKeeper conditional on the state znode's version; a lost
  race (INVALID_UPDATE_VERSION) stops proposals until the image brings the
  new state (the leader may have been deposed). A change the controller made
  (same leader epoch, new version) is adopted. The HW is also re-evaluated on
  a producer's duplicate (retried) append, as Kafka's ``appendRecordsToLeader``
  does, on every shrink check, and when the registered brokers change: a
  follower outside the ISR counts only while caught up and eligible
  (``ZkMetadata.isr_eligible``: registered, not shutting down, replica
  online), and time alone can end that.
* Log dir failure (Kafka's ``handleLogDirFailure``): ``dir_offline`` stops
  leading and following the replicas of the failed dir (fetchers removed,
  acks=all waiters answered) and reports every replica of this broker whose log
  is offline to ZooKeeper (``ZkMetadata.report_offline_replicas``: the
  per-broker record, then Kafka's ``/log_dir_event_notification``); the
  controller moves their leadership and drops them from ISRs. The same report
  is made at start when a dir failed to load. When the last online dir fails
  the broker halts as Kafka does ("Shutdown broker because all log dirs ...
  have failed"), after ending its ZooKeeper session so the controller moves
  its leaderships at once instead of after the session timeout.
* Fencing (``kwire.replication.fencing``, KRaft's broker fencing done by the broker
  itself): once this broker's ZooKeeper session counts as expired, every led
  partition whose ISR followers stopped fetching is resigned (``_fenced``):
  NOT_LEADER_OR_FOLLOWER to Produce and Fetch, acks=all waiters answered,
  Metadata without a leader (``is_fenced``). When the session is back the
  partition states are read from ZooKeeper and a partition is led again only if
  they still name this broker at the resigned epoch; otherwise the image's next
  state (another leader, or a new epoch) decides.
* acks=all: ``wait_all_replicated`` (``wait_replicated`` for one partition)
  waits in the purgatory, one delayed operation per request, until the HW covers the
  records of every partition (``LeaderState.check_enough_replicas``), the timeout, or the loss
  of leadership.

Invariants: a partition is led (``leaders``) or followed (``following``),
never both, and only while its log is here; a leader's epoch start is in the
log's leader-epoch cache before anything is appended at that epoch; a led
log's HW only moves to the ``LeaderState``'s (never down), and every move
wakes the partition's consumers; at most one ISR write per partition is in
flight.

Not here: ZooKeeper (``ZkMetadata``), the follower's fetch loop
(``kwire.replication.fetcher``), request parsing (the handlers), leader
election (the controller).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections import deque

from kwire.clock import now_ms as _now_ms
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.replication.fencing import SessionFence
from kwire.replication.joining import JoiningFollowers
from kwire.replication.leader_state import LeaderState
from kwire.security import inter_broker
from kwire.delayed import PRODUCE, replica_fetch_key, replica_key
from kwire.replication.host import ReplicaHost

log = logging.getLogger("kwire.replication")

#: Per partition, at most this many (end offset, bytes) entries of appends not yet below the HW
#: are remembered to tell consumers' long-polls how many bytes the HW exposed.
_MAX_PENDING = 1024


class ReplicaManager:
    def __init__(self, broker: ReplicaHost) -> None:
        self.broker = broker
        self.node_id = broker.node_id
        self.config = broker.config
        self.metadata = broker.metadata
        self.leaders: dict[tuple[str, int], LeaderState] = {}
        self.following: dict[tuple[str, int], tuple[int, int]] = {}  # key -> (leader id, epoch)
        self._versions: dict[tuple[str, int], int] = {}  # led partitions: state znode version known
        self._stale: set[tuple[str, int]] = set()  # an ISR write lost a version race
        self._pending: dict[tuple[str, int], deque] = {}  # appends above the HW: (end offset, bytes)
        # followers that have not fetched a partition newly led here (kwire.replication.joining)
        self.joining = JoiningFollowers(self.node_id, int(self.config["replica.lag.time.max.ms"]))
        self.fetchers = None
        self._started = False
        self._held: dict[str, set[int]] = {}  # topic -> partitions with a log here (online)
        self.isr_shrinks = self.isr_expands = 0  # ISR changes proposed as leader (metrics)
        self._offline_reported: list[tuple[str, int]] | None = None  # last report_offline_replicas
        self._loop: asyncio.AbstractEventLoop | None = None
        # fencing: the ZooKeeper session as the broker sees it, and the partitions resigned
        # because of it (key -> the leader epoch resigned)
        self.fence = SessionFence(self.config["zookeeper.session.timeout.ms"],
                                  max(1000, 2 * int(self.config["replica.fetch.wait.max.ms"])))
        self._fenced: dict[tuple[str, int], int] = {}
        self._fence_task: asyncio.Task | None = None
        self._tick_at = 0.0  # the loop's last tick (0: not ticking): a stall since (SessionFence.stalled)
        self._tick_handle: asyncio.TimerHandle | None = None

    # -- start-up ------------------------------------------------------------------------
    def sync_logs(self) -> None:
        """At start-up (before the loop): open this broker's replicas' logs, remove the rest."""
        image = self.metadata.image
        wanted = set()
        now = _now_ms()
        for _attempt in range(100):  # no loop yet: kazoo's threads may be replaying meanwhile
            try:
                topics = [(t, list(t.partitions)) for t in list(image.topics.values())]
                break
            except RuntimeError:  # changed size during iteration: look again
                continue
        for t, partitions in topics:
            for p in partitions:
                if self.node_id in p.replicas:
                    wanted.add((t.name, p.partition))
                    self._ensure_log(t, p.partition, now, is_new=False)
        for plog in list(self.broker.logs):
            key = (plog.topic, plog.partition)
            if plog.offline:
                continue
            if key not in wanted:
                log.info("removing the log of %s-%d: this broker is not one of its replicas", *key)
                self.broker.remove_logs(plog.topic, [plog.partition])
            else:
                self._held.setdefault(plog.topic, set()).add(plog.partition)

    def start(self) -> None:
        """On the loop: follow the image from now on, take the current roles, start fetching."""
        if self._started:
            return
        self._started = True
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None
        try:
            from kwire.replication.fetcher import ReplicaFetcherManager
        except ImportError:  # the follower's side is not in this tree yet
            log.warning("kwire.replication.fetcher is missing: this broker's followers will not fetch")
        else:
            self.fetchers = ReplicaFetcherManager(self.node_id, self._endpoint, self.config,
                                                  on_appended=self._follower_appended,
                                                  security=inter_broker.of(self.broker))
            self.fetchers.start()
        self.metadata.add_listener(self._on_records)
        add_session_listener = getattr(self.metadata, "add_session_listener", None)
        if add_session_listener is not None:
            add_session_listener(self._on_session)
        self.sync()
        self._report_offline()  # a dir that failed to load at start-up
        if self._loop is not None:
            self._tick()

    async def close(self) -> None:
        """Stop fetching (before the logs close)."""
        task, self._fence_task = self._fence_task, None
        if task is not None:
            task.cancel()
        handle, self._tick_handle, self._tick_at = self._tick_handle, None, 0.0
        if handle is not None:
            handle.cancel()
        if self.fetchers is not None:
            fetchers, self.fetchers = self.fetchers, None
            await fetchers.close()

    def _endpoint(self, broker_id: int) -> tuple[str, int] | None:
        """The broker's endpoint of the inter-broker listener (None: unknown, or not registered)."""
        b = self.metadata.image.brokers.get(broker_id)
        return None if b is None else inter_broker.of(self.broker).endpoint(b)

    # -- following the image ---------------------------------------------------------------
    def _on_records(self, records: list[dict]) -> None:
        topics: set[str] = set()
        states: set[tuple[str, int]] = set()
        full = False
        for r in records:
            kind = r["type"]
            if kind in ("zk_topic", "zk_remove_topic"):
                topics.add(r["name"])
            elif kind == "zk_partition_state":
                states.add((r["name"], r["partition"]))
            elif kind == "zk_topic_configs":
                self._configs_changed(r["name"])
            elif kind == "zk_brokers":
                full = True  # a leader's endpoint may have moved; followers re-point
            elif kind == "broker_configs":
                self.broker.apply_dynamic_configs()
        if full:
            self.sync()
            self._recheck_high_watermarks()  # a broker gone is no longer eligible to hold a HW
            return
        if topics:
            self.sync(topics)
        if states:
            self._sync_states(states - {k for k in states if k[0] in topics})

    def _sync_states(self, keys) -> None:
        """Roles of these partitions after a change of their state znodes only (the assignment,
        and so the logs held, is unchanged). Each state change used to sync its whole topic:
        after a heal, ~100 internal partitions changing one by one made 50 x 100 partition
        syncs, seconds of the event loop on a loaded machine while the fetchers waited."""
        image = self.metadata.image
        now = _now_ms()
        for name, partition in keys:
            t = image.topics.get(name)
            if t is None or not 0 <= partition < len(t.partitions):
                continue
            p = t.partitions[partition]
            if self.node_id not in p.replicas:
                continue
            try:
                self._sync_partition(t, p, now)
            except Exception:
                log.exception("could not take the state of %s-%d", name, partition)

    def _recheck_high_watermarks(self) -> None:
        now = _now_ms()
        for key, st in list(self.leaders.items()):
            plog = self.broker.logs.get(*key)
            if plog is not None:
                self._recheck_high_watermark(key, st, plog, now)

    def _configs_changed(self, name: str) -> None:
        self.broker.forget_topic_config(name)
        t = self.metadata.topic(name)
        if t is not None:
            self.broker.logs.update_config(name, self.broker.topic_log_config(t))
            for p in t.partitions:
                st = self.leaders.get((name, p.partition))
                if st is not None:
                    st.min_insync_replicas = self.broker.topic_min_insync_replicas(t)

    def refresh_min_isr(self) -> None:
        """min.insync.replicas may have changed (a broker or topic config): tell the leaders."""
        for (name, _p), st in list(self.leaders.items()):
            t = self.metadata.topic(name)
            if t is not None:
                st.min_insync_replicas = self.broker.topic_min_insync_replicas(t)

    def sync(self, topics=None) -> None:
        """Bring logs and roles in line with the image (all topics, or those named)."""
        image = self.metadata.image
        now = _now_ms()
        if topics is not None:
            topics = set(topics)
        names = list(image.topics) if topics is None else list(topics)
        seen: set[tuple[str, int]] = set()
        for name in names:
            t = image.topics.get(name)
            if t is None:
                continue
            for p in t.partitions:
                key = (name, p.partition)
                if self.node_id not in p.replicas:
                    continue
                seen.add(key)
                try:
                    self._sync_partition(t, p, now)
                except Exception:
                    log.exception("could not take the state of %s-%d", *key)
        # what this broker holds but the image (for these topics) no longer gives it
        if topics is None:
            held = {(t, p) for t, ps in self._held.items() for p in ps}
            held |= set(self.leaders) | set(self.following)
        else:
            held = {(t, p) for t in names for p in self._held.get(t, ())}
            held |= {k for k in self.leaders if k[0] in topics} | {k for k in self.following if k[0] in topics}
        for key in held - seen:
            self._remove_replica(key)
        if self._started and self.broker.logs.offline_dirs:
            self._report_offline()  # e.g. a partition newly given to this broker, dir unknown

    def _ensure_log(self, t, partition: int, now: int, *, is_new: bool = True):
        logs = self.broker.logs
        plog = logs.get(t.name, partition)
        if plog is not None and not plog.offline and t.topic_id is not None:
            held_id = plog.topic_id()
            if held_id is not None and held_id != t.topic_id:
                # an earlier topic of this name, deleted and re-created while this broker did not
                # see it (down, or its watch saw only the new assignment): never serve its records
                log.warning("removing the log of %s-%d: it belongs to topic id %s, the topic is now %s",
                            t.name, partition, held_id, t.topic_id)
                self._remove_replica((t.name, partition))
                plog = None
            elif held_id is None:
                self._record_topic_id(plog, t.topic_id)
        if plog is not None:
            # a log loaded at start-up runs with the broker's defaults until given its topic's
            # config (LogManager); without this a restarted broker kept them (LogAppendTime,
            # retention, cleanup.policy lost) until the topic's config next changed
            cfg = self.broker.topic_log_config(t)
            if plog.config != cfg:
                plog.update_config(cfg)
            self._held.setdefault(t.name, set()).add(partition)
            return plog
        if logs.is_offline(t.name, partition):
            return None
        cfg = self.broker.topic_log_config(t)
        try:
            plog = logs.get_or_create(t.name, partition, cfg, now, is_new=is_new)
        except KafkaError as e:
            if e.code != ErrorCode.KAFKA_STORAGE_ERROR:
                raise
            log.error("the log of %s-%d cannot be made: %s", t.name, partition, e.message)
            return None
        if t.topic_id is not None:
            self._record_topic_id(plog, t.topic_id)
        self._held.setdefault(t.name, set()).add(partition)
        return plog

    @staticmethod
    def _record_topic_id(plog, topic_id) -> None:
        try:
            plog.set_topic_id(topic_id)
        except OSError as e:  # the id only guards against a stale log: keep serving
            log.warning("could not record the topic id of %s-%d: %s", plog.topic, plog.partition, e)

    def _sync_partition(self, t, p, now: int) -> None:
        key = (t.name, p.partition)
        plog = self._ensure_log(t, p.partition, now)
        if plog is None or plog.offline:
            if key in self.leaders or key in self.following:
                self._stop_replica(key)
            return
        resigned = self._fenced.get(key)
        if resigned is not None:
            if p.leader == self.node_id and p.leader_epoch <= resigned:
                if key in self.leaders:  # the image repeats the leadership this broker gave up
                    self._become_follower(key, plog, -1, p.leader_epoch)
                return
            del self._fenced[key]  # another leader, or a new election: the image decides again
        if p.leader == self.node_id:
            st = self.leaders.get(key)
            if st is None or st.leader_epoch != p.leader_epoch or tuple(st.replicas) != tuple(p.replicas):
                self._become_leader(t, p, plog, now)
            else:
                self._adopt_state(key, st, p, plog, now)
        else:
            self._become_follower(key, plog, p.leader, p.leader_epoch)

    def _become_leader(self, t, p, plog, now: int) -> None:
        key = (t.name, p.partition)
        previous = self.leaders.get(key)
        was_leader = previous is not None
        if key in self.following:
            del self.following[key]
            if self.fetchers is not None:
                self.fetchers.remove_partitions([key])
        if p.leader_epoch >= plog.latest_epoch:
            plog.assign_epoch_start_offset(p.leader_epoch, plog.log_end_offset)
        st = LeaderState(self.node_id, p.leader_epoch, p.replicas, p.isr or [self.node_id],
                         leader_log_end_offset=plog.log_end_offset, high_watermark=plog.high_watermark,
                         now_ms=now, replica_lag_time_max_ms=self.config["replica.lag.time.max.ms"],
                         min_insync_replicas=self.broker.topic_min_insync_replicas(t),
                         eligible=lambda r: self.metadata.isr_eligible(key[0], key[1], r),
                         hold_hw_under_min_isr=False)  # Kafka 3.x ZooKeeper mode: no KIP-966
        if previous is not None:  # still leader, at a new epoch: the same tenure
            st.tenure = previous.tenure
        self.leaders[key] = st
        self._versions[key] = p.zk_version
        self._stale.discard(key)
        self._pending.pop(key, None)
        log.info("leading %s-%d at epoch %d (ISR %s, LEO %d, HW %d)", t.name, p.partition, p.leader_epoch,
                 list(st.isr), plog.log_end_offset, plog.high_watermark)
        self._recheck_high_watermark(key, st, plog, now)
        self.broker.purgatory.notify(key, 0)  # waiters recheck: against this state, or answer
        for r in self.joining.expect(key, p.replicas, now):  # their parked Fetches lack it: answer them
            self.broker.purgatory.notify(replica_fetch_key(r), 0)
        if was_leader:
            self.broker.notify_leadership(t.name, p.partition, False, p.leader_epoch)
        self.broker.notify_leadership(t.name, p.partition, True, p.leader_epoch)

    def _adopt_state(self, key, st: LeaderState, p, plog, now: int) -> None:
        """Same leader epoch: an ISR change (ours, or the controller's) shows in the image."""
        if p.zk_version == self._versions.get(key) or p.zk_version < self._versions.get(key, -1):
            return
        self._versions[key] = p.zk_version
        self._stale.discard(key)
        isr = tuple(p.isr)
        if isr == st.isr and st.pending is None:
            return
        if st.pending is None or isr == st.pending:
            rose = st.commit_isr(isr, now)
        else:
            st.isr = isr  # the controller's; our write in flight will fail on the version
            rose = st.maybe_increment_high_watermark(now)
        log.info("%s-%d: ISR now %s (version %d)", key[0], key[1], list(isr), p.zk_version)
        if rose:
            self._hw_moved(key, st, plog)
        self.broker.purgatory.notify(key, 1)  # acks=all waiters recheck (min ISR)

    def _become_follower(self, key, plog, leader: int, epoch: int) -> None:
        st = self.leaders.pop(key, None)
        if st is not None:
            self._versions.pop(key, None)
            self._stale.discard(key)
            self._pending.pop(key, None)
            self.joining.forget(key)
            log.info("%s-%d: no longer leader (leader %d, epoch %d)", key[0], key[1], leader, epoch)
        endpoint = self._endpoint(leader) if leader >= 0 else None
        target = (leader, epoch) if endpoint is not None else (-1, epoch)
        if self.following.get(key) == target and st is None:
            return
        old = self.following.get(key)
        self.following[key] = target
        if self.fetchers is not None:
            if old is not None:
                self.fetchers.remove_partitions([key])
            if target[0] >= 0:
                self.fetchers.add_partitions({key: (plog, leader, epoch)})
        if target[0] >= 0:
            log.info("%s-%d: following %d at epoch %d", key[0], key[1], leader, epoch)
        if st is not None:
            self.broker.purgatory.notify(key, 0)
            self.broker.notify_leadership(key[0], key[1], False, epoch)

    def _drop_role(self, key):
        """Stop leading and following ``key``: the leader state it had, or None."""
        st = self.leaders.pop(key, None)
        self._versions.pop(key, None)
        self._stale.discard(key)
        self._pending.pop(key, None)
        if st is not None:
            self.joining.forget(key)
        if self.following.pop(key, None) is not None and self.fetchers is not None:
            self.fetchers.remove_partitions([key])
        return st

    def _remove_replica(self, key) -> None:
        st = self._drop_role(key)
        if st is not None:
            self.broker.notify_leadership(key[0], key[1], False, st.leader_epoch)
        held = self._held.get(key[0])
        if held is not None:
            held.discard(key[1])
            if not held:
                del self._held[key[0]]
        if self.broker.logs.get(*key) is not None:
            log.info("removing the log of %s-%d (topic deleted or replica moved)", *key)
        self.broker.remove_logs(key[0], [key[1]])  # also wakes the partition's waiters

    # -- log dir failure -----------------------------------------------------------------
    def dir_offline(self, keys) -> None:
        """A log dir went offline with the logs of ``keys`` (any thread; handled on the loop)."""
        loop = self._loop
        if loop is not None and loop.is_running():
            try:
                if asyncio.get_running_loop() is loop:
                    self._dir_offline(list(keys))
                    return
            except RuntimeError:
                pass
            loop.call_soon_threadsafe(self._dir_offline, list(keys))
        elif self._started:
            self._dir_offline(list(keys))

    def _dir_offline(self, keys) -> None:
        logs = self.broker.logs
        if len(logs.offline_dirs) == len(logs.log_dirs):
            self._halt()
            return
        for key in keys:
            self._stop_replica(key)
        self._report_offline()

    def _stop_replica(self, key) -> None:
        """Neither lead nor follow ``key`` any more; its log stays (offline) where it is."""
        st = self._drop_role(key)
        if st is not None:
            log.info("%s-%d: no longer leading: its log dir is offline", *key)
            self.broker.purgatory.notify(key, 0)  # acks=all waiters answer now
            self.broker.notify_leadership(key[0], key[1], False, st.leader_epoch)

    def _report_offline(self) -> None:
        """Tell ZooKeeper which of this broker's replicas are offline (if that changed)."""
        logs = self.broker.logs
        if not logs.offline_dirs:
            return
        offline = sorted((t.name, p.partition) for t in list(self.metadata.image.topics.values())
                         for p in t.partitions
                         if self.node_id in p.replicas and logs.is_offline(t.name, p.partition))
        if offline == self._offline_reported:
            return
        self._offline_reported = offline
        try:
            self.metadata.report_offline_replicas(offline)
        except KafkaError as e:
            log.error("could not report the offline replicas to ZooKeeper: %s", e.message)

    def _halt(self) -> None:
        """Every log dir is offline: stop the process, as Kafka's LogManager does (Exit.halt)."""
        logs = self.broker.logs
        log.critical("Shutdown broker because all log dirs in %s have failed", ", ".join(logs.log_dirs))
        # end the ZooKeeper session first (bounded): the registration goes at once and the
        # controller moves the leaderships now rather than after zookeeper.session.timeout.ms
        closer = threading.Thread(target=self.metadata.close, daemon=True)
        closer.start()
        closer.join(5.0)
        logging.shutdown()
        os._exit(1)

    # -- fencing (kwire.replication.fencing) ------------------------------------------------
    def is_fenced(self, topic: str, partition: int) -> bool:
        """Resigned while the ZooKeeper session was gone (Metadata shows it without a leader)."""
        self._check_stall()
        return (topic, partition) in self._fenced

    def self_fenced(self) -> bool:
        """Resigned partitions, its session still gone, and leading nothing: Metadata leaves this
        broker out of the brokers, as KRaft leaves out a fenced one."""
        self._check_stall()
        return bool(self._fenced) and not self.fence.connected and not self.leaders

    def _tick(self) -> None:
        self._check_stall()
        self._tick_at = time.monotonic()
        self._tick_handle = self._loop.call_later(0.25, self._tick)

    def _check_stall(self) -> None:
        """In the loop's tick and before answering as leader (Produce, Metadata): if the loop has not
        ticked for longer than the session timeout, this broker was stopped. Woken from its wait for
        I/O, the loop runs its timers first (the wait ends with no event when its deadline passed
        meanwhile), else the requests read on waking come first: the check is in both places."""
        if not self._tick_at:
            return
        now = time.monotonic()
        if not self.fence.stalled(now - self._tick_at):
            return
        gap, self._tick_at = now - self._tick_at, now
        if self.leaders:
            log.warning("this broker stood still for %.1f s, longer than the ZooKeeper session timeout: "
                        "resigning the %d partitions it leads until ZooKeeper confirms them", gap, len(self.leaders))
        for key, st in list(self.leaders.items()):
            plog = self.broker.logs.get(*key)
            if plog is not None:
                self._fenced[key] = st.leader_epoch
                self._become_follower(key, plog, -1, st.leader_epoch)
        if self._fenced:  # a session that survived (kazoo never dropped it) is confirmed from here
            self._loop.call_later(1.0, self._confirm_again)

    def _on_session(self, state: str) -> None:
        """From kazoo's thread: handled on the loop."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._session_changed, state)
            except RuntimeError:  # the loop closed meanwhile (shutting down)
                pass

    def _session_changed(self, state: str) -> None:
        self.fence.on_state(state, time.monotonic())
        if not self.fence.connected:
            if self._fence_task is None or self._fence_task.done():
                self._fence_task = asyncio.get_running_loop().create_task(self._watch_fence())
            return
        if self._fenced:
            self._confirm_leadership(dict(self._fenced))

    async def _watch_fence(self) -> None:
        """While ZooKeeper is unreachable: resign what ``SessionFence`` says to, as time passes."""
        while not self.fence.connected:
            now = time.monotonic()
            at = self.fence.expires_at()
            if at is not None and now >= at:
                self._resign_unheard()
                await asyncio.sleep(0.1)
            else:
                await asyncio.sleep(min(0.25, max(0.01, (at or now) - now)))

    def _resign_unheard(self) -> None:
        now_ms = _now_ms()
        for key, st in list(self.leaders.items()):
            if not self.fence.should_resign(st.isr, self.node_id, self._last_fetch(st), now_ms):
                continue
            plog = self.broker.logs.get(*key)
            if plog is None:
                continue
            log.warning("%s-%d: resigning leadership at epoch %d: the ZooKeeper session is gone and "
                        "the ISR %s is not all fetching (fenced until ZooKeeper confirms it)",
                        key[0], key[1], st.leader_epoch, list(st.isr))
            self._fenced[key] = st.leader_epoch
            self._become_follower(key, plog, -1, st.leader_epoch)

    @staticmethod
    def _last_fetch(st: LeaderState):
        def last(r: int) -> int:
            f = st.followers.get(r)
            return 0 if f is None else f.last_fetch_time_ms
        return last

    def _confirm_leadership(self, resigned: dict) -> None:
        """The session is back: lead again where ZooKeeper still names this broker at the epoch
        resigned; elsewhere the image (another leader, a new epoch) takes over when it shows."""
        try:
            fut = self.metadata.read_partition_states(list(resigned))
        except KafkaError as e:
            log.info("fenced partitions stay fenced: %s", e.message)
            return

        def done(f) -> None:
            if f.cancelled() or f.exception() is not None:
                log.info("fenced partitions stay fenced: %s (asking ZooKeeper again in 1 s)",
                         f.exception() if not f.cancelled() else "cancelled")
                loop = self._loop
                if loop is not None and not loop.is_closed():
                    loop.call_later(1.0, self._confirm_again)
                return
            topics = set()
            for key, state in f.result().items():
                if (state is not None and state.leader == self.node_id
                        and state.leader_epoch == resigned[key] and self._fenced.get(key) == resigned[key]):
                    del self._fenced[key]
                    topics.add(key[0])
                    log.info("%s-%d: ZooKeeper still names this broker leader at epoch %d: leading again",
                             key[0], key[1], resigned[key])
            if topics:
                self.sync(topics)

        fut.add_done_callback(done)

    def _confirm_again(self) -> None:
        if self.fence.connected and self._fenced:
            self._confirm_leadership(dict(self._fenced))

    # -- leader side -----------------------------------------------------------------------
    def leader_state(self, topic: str, partition: int) -> LeaderState | None:
        return self.leaders.get((topic, partition))

    def append(self, plog, records, now: int, **kw):
        """Append as leader (NOT_LEADER_OR_FOLLOWER if not); wake followers; maybe move the HW."""
        key = (plog.topic, plog.partition)
        self._check_stall()
        st = self.leaders.get(key)
        if st is None:
            raise self.broker.not_leader_error(*key)
        result = plog.append_as_leader(records, st.leader_epoch, now, **kw)
        if result.duplicate:
            # a producer's retry: Kafka's appendRecordsToLeader re-evaluates the HW after every
            # append, duplicates included -- a follower that stopped being caught up since the
            # last evaluation no longer holds it back, and the retry's acks=all can complete
            self._recheck_high_watermark(key, st, plog, now)
        else:
            nbytes = len(records)
            pending = self._pending.get(key)
            if pending is None:
                pending = self._pending[key] = deque()
            pending.append((plog.log_end_offset, nbytes))
            if len(pending) > _MAX_PENDING:
                end, n = pending.popleft()
                e2, n2 = pending.popleft()
                pending.appendleft((e2, n + n2))
            if st.on_leader_append(plog.log_end_offset, now):
                self._hw_moved(key, st, plog)
            self.broker.purgatory.notify(replica_key(*key), nbytes)
        return result

    def _recheck_high_watermark(self, key, st: LeaderState, plog, now: int) -> None:
        """Kafka's ``maybeIncrementLeaderHW`` now, and the log and waiters told if the HW rose."""
        if st.maybe_increment_high_watermark(now):
            self._hw_moved(key, st, plog)

    def _hw_moved(self, key, st: LeaderState, plog) -> None:
        """The leader's HW rose: into the log, and consumers' long-polls learn the new bytes."""
        plog.update_high_watermark(st.high_watermark)
        hw = plog.high_watermark
        nbytes = 0
        pending = self._pending.get(key)
        while pending and pending[0][0] <= hw:
            nbytes += pending.popleft()[1]
        self.broker.purgatory.notify(key, max(nbytes, 1))

    def follower_fetch(self, topic: str, partition: int, replica_id: int, fetch_offset: int,
                       log_start_offset: int, plog) -> None:
        """A follower's Fetch read without error: record its position (HW, ISR expand)."""
        key = (topic, partition)
        st = self.leaders.get(key)
        if st is None:
            return
        now = _now_ms()
        if self.joining.pending:
            self.joining.fetched(replica_id, key)
        st.leader_log_end_offset = plog.log_end_offset
        upd = st.update_follower(replica_id, fetch_offset, now, leader_log_end_offset=plog.log_end_offset,
                                 log_start_offset=log_start_offset)
        if upd.high_watermark_changed:
            self._hw_moved(key, st, plog)
        if upd.expand is not None:
            self._propose(key, st, upd.expand, "expand")

    def follower_joining(self, replica_id: int) -> bool:
        """True while follower ``replica_id`` has not fetched a partition newly led here: its
        Fetch parks for at most ``joining.JOIN_WAIT_MS`` (the Fetch handler asks)."""
        return bool(self.joining.pending) and self.joining.waiting_for(replica_id, _now_ms())

    def check_isr_shrink(self) -> None:
        """Periodic (replica.lag.time.max.ms / 2): drop followers out of sync from ISRs."""
        now = _now_ms()
        for key, st in list(self.leaders.items()):
            plog = self.broker.logs.get(*key)
            if plog is None:
                continue
            st.leader_log_end_offset = plog.log_end_offset
            # a follower outside the ISR holds the HW back only while it is caught up: once it
            # stops fetching, time alone ends that, with no append or fetch to notice it
            self._recheck_high_watermark(key, st, plog, now)
            out = st.shrink_candidates(now)
            if out:
                self._propose(key, st, [r for r in st.isr if r not in out], "shrink")

    def _propose(self, key, st: LeaderState, new_isr, why: str) -> None:
        if key in self._stale or st.in_flight:
            return
        isr = st.propose_isr(new_isr)
        version = self._versions.get(key, -1)
        try:
            fut = self.metadata.update_partition_state(key[0], key[1], self.node_id, st.leader_epoch,
                                                       list(isr), version)
        except KafkaError as e:
            st.abort_isr()
            log.info("%s-%d: ISR %s to %s not written: %s", key[0], key[1], why, list(isr), e.message)
            return
        log.info("%s-%d: ISR %s from %s to %s", key[0], key[1], why, list(st.isr), list(isr))
        if why == "shrink":
            self.isr_shrinks += 1
        else:
            self.isr_expands += 1
        fut.add_done_callback(lambda f: self._isr_written(key, st, isr, version, f))

    def _isr_written(self, key, st: LeaderState, isr, expected: int, fut) -> None:
        if self.leaders.get(key) is not st:
            return  # deposed (or a new epoch) meanwhile
        exc = fut.exception() if not fut.cancelled() else KafkaError(ErrorCode.REQUEST_TIMED_OUT)
        if exc is None:
            version = fut.result()
            if version > self._versions.get(key, -1):
                self._versions[key] = version
            if st.pending == tuple(isr):
                plog = self.broker.logs.get(*key)
                if st.commit_isr(isr, _now_ms()) and plog is not None:
                    self._hw_moved(key, st, plog)
                self.broker.purgatory.notify(key, 1)
            return
        if st.pending == tuple(isr):
            st.abort_isr()
        code = getattr(exc, "code", None)
        if code == ErrorCode.INVALID_UPDATE_VERSION:
            if self._versions.get(key, -1) == expected:  # the image has not shown the newer state yet
                self._stale.add(key)
            log.info("%s-%d: ISR write lost to a newer state; waiting for it", *key)
        else:
            log.warning("%s-%d: ISR write failed: %s", key[0], key[1], exc)

    async def wait_replicated(self, topic: str, partition: int, required_offset: int,
                              timeout_s: float) -> ErrorCode:
        return (await self.wait_all_replicated([(topic, partition, required_offset)], timeout_s))[0]

    async def wait_all_replicated(self, waits: list[tuple[str, int, int]],
                                  timeout_s: float) -> list[ErrorCode]:
        """acks=all for every ``(topic, partition, required offset)`` of a request at once.

        One delayed operation watches all the partitions still short of their
        offset, and a notify re-checks only the partition it names. Its future
        wakes the awaiting task directly: the answer goes out on the loop turn
        after the HW covers the last partition (``asyncio.gather`` of one
        coroutine per partition took three turns: the partition's task, the
        gather's callback, then the request's task)."""
        codes: list[ErrorCode | None] = [None] * len(waits)
        checks: dict[tuple, list[int]] = {}
        for i, (topic, partition, _off) in enumerate(waits):
            checks.setdefault((topic, partition), []).append(i)
        tenures = [getattr(self.leaders.get((t, p)), "tenure", None) for t, p, _o in waits]
        pending = [len(waits)]

        def settle(i: int) -> None:
            if codes[i] is not None:
                return
            topic, partition, required_offset = waits[i]
            # a leader epoch bump that leaves this broker leader keeps the wait (Kafka's
            # DelayedProduce asks the partition while it is leader); losing leadership ends it
            cur = self.leaders.get((topic, partition))
            if cur is None or cur.tenure is not tenures[i]:
                done, err = True, ErrorCode.NOT_LEADER_OR_FOLLOWER
            else:
                done, err = cur.check_enough_replicas(required_offset)
            if done:
                codes[i] = err
                pending[0] -= 1

        def check(key, _nbytes: int) -> bool:
            for i in checks.get(key, ()):
                settle(i)
            return pending[0] == 0

        for i in range(len(waits)):
            settle(i)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while pending[0]:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return [ErrorCode.REQUEST_TIMED_OUT if c is None else c for c in codes]
            keys = [k for k, idx in checks.items() if any(codes[i] is None for i in idx)]
            await self.broker.purgatory.wait(keys, check, remaining, PRODUCE)
            for i in range(len(waits)):  # woken, or the timeout: look again
                settle(i)
        return codes

    # -- follower side ---------------------------------------------------------------------
    def _follower_appended(self, topic: str, partition: int) -> None:
        """The fetcher appended or moved the HW of a followed partition."""
        self.broker.purgatory.notify((topic, partition), 1)
