"""The broker's state: config, cluster metadata, partition logs, waiting operations.

``Broker`` is what handlers see (as ``ctx.broker``). It ties the metadata
interface (``kwire.cluster.metadata``) to the logs (``kwire.log``): creating a
topic creates its partition logs, an append moves the high watermark (on one
node it follows the log end offset once the append is done) and wakes the
delayed operations watching that partition. It holds no sockets and starts no
tasks; ``kwire.server`` drives its periodic work (retention, flush,
checkpoints) and its shutdown.

Two modes:

* embedded (no ``zookeeper.connect``): ``metadata`` is ``LocalMetadata``, this
  node leads every partition, ``replicas`` is None.
* cluster (``zookeeper.connect`` set): ``metadata`` is ``ZkMetadata``
  (connected and registered in ``__init__``, blocking), ``replicas`` is the
  ``kwire.replication.manager.ReplicaManager``, which creates and removes
  this broker's replica logs from the image and keeps the leader/follower
  role of each (``is_leader``). Topic changes go to ZooKeeper and return its
  write's future; the logs follow the image on every broker.

Purgatory keys: ``(topic, partition)`` is woken when what consumers may read
moves (the HW; on one node, every append) or the partition's leadership
changes (nbytes 0); ``kwire.delayed.replica_key(topic, partition)`` when the leader's log
grows (followers' long-polls).
"""

from __future__ import annotations

import logging
import os
import shutil
import uuid

from kwire.broker.fetch_sessions import FetchSessionCache
from kwire.clock import now_ms
from kwire.cluster.metadata import LocalMetadata, TopicState, topic_name_error
from kwire.cluster.metadata_log import DEFAULT_SNAPSHOT_BYTES, DEFAULT_SNAPSHOT_INTERVAL_MS
from kwire.config import BrokerConfig, ConfigError, topic_config, validate_topic_configs
from kwire.log import LogConfig, LogManager, PartitionLog
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security.inter_broker import InterBrokerSecurity
from kwire.delayed import Purgatory

log = logging.getLogger("kwire.broker")

# this broker's static configs the ZooKeeper controller falls back to (helper B)
CONTROLLER_CONFIGS = ("unclean.leader.election.enable", "auto.leader.rebalance.enable",
                      "leader.imbalance.check.interval.seconds", "leader.imbalance.per.broker.percentage")


def log_config(tc) -> LogConfig:
    """Map a resolved topic config (kwire.config.TopicConfig) onto the log's own settings."""
    return LogConfig(
        segment_bytes=tc.segment_bytes,
        segment_ms=tc.segment_ms,
        retention_ms=tc.retention_ms,
        retention_bytes=tc.retention_bytes,
        flush_messages=tc.flush_messages,
        flush_ms=tc.flush_ms,
        index_interval_bytes=tc.index_interval_bytes,
        segment_index_bytes=tc.segment_index_bytes,
        max_message_bytes=tc.max_message_bytes,
        message_timestamp_type=tc.message_timestamp_type,
        message_timestamp_before_max_ms=tc.message_timestamp_before_max_ms,
        message_timestamp_after_max_ms=tc.message_timestamp_after_max_ms,
        cleanup_policy=list(tc.cleanup_policy),
        min_compaction_lag_ms=tc.min_compaction_lag_ms,
        max_compaction_lag_ms=tc.max_compaction_lag_ms,
        min_cleanable_dirty_ratio=tc.min_cleanable_dirty_ratio,
        delete_retention_ms=tc.delete_retention_ms,
    )


class Broker:
    def __init__(self, config: BrokerConfig) -> None:
        self.config = config
        self.node_id = config.broker_id
        adv = config.advertised_listeners[0]
        self.host, self.port = adv[1], adv[2]
        self.cluster_mode = config.zookeeper_connect is not None
        self._leadership_listeners: list = []
        self._started = False
        self.replicas = None
        # how this broker connects to other brokers (replica fetchers, transaction markers, metrics
        # lag lookups): the inter-broker listener and this broker's client settings of it
        self.inter_broker = InterBrokerSecurity.from_config(config)
        if self.cluster_mode:
            from kwire.cluster.zookeeper import ZkMetadata

            timeout = config["zookeeper.connection.timeout.ms"]
            protocols = config.listener_security_protocols
            self.metadata = ZkMetadata(
                config.zookeeper_connect, self.node_id, self.host, self.port, rack=config["broker.rack"],
                listener=adv[0], session_timeout_ms=config["zookeeper.session.timeout.ms"],
                endpoints=[(a.name, a.host, a.port, protocols[a.name]) for a in config.advertised_listeners],
                connection_timeout_ms=timeout if timeout is not None else config["zookeeper.session.timeout.ms"],
                source_address=self.inter_broker.source_address,
                static_configs={k: str(config[k]).lower() if isinstance(config[k], bool) else str(config[k])
                                for k in CONTROLLER_CONFIGS})
            self.metadata.start()  # blocking: connect, register, watch (ZooKeeperConnectError)
        else:
            self.metadata = LocalMetadata(
                config.log_dirs[0], self.node_id, self.host, self.port,
                snapshot_bytes=config.get("metadata.log.max.record.bytes.between.snapshots") or DEFAULT_SNAPSHOT_BYTES,
                snapshot_interval_ms=config.get("metadata.log.max.snapshot.interval.ms", DEFAULT_SNAPSHOT_INTERVAL_MS))
        try:
            self._replay_dynamic_configs()
            self.logs = LogManager(config.log_dirs, now_ms(),
                                   cleaner={"enabled": bool(config["log.cleaner.enable"])})
        except BaseException:
            self.metadata.close()
            raise
        self.purgatory = Purgatory()
        self.schema_ids = None  # kwire.registry: id -> known?, set when the Schema Registry runs (issue 25)
        # waiting fetches of a failed log dir answer KAFKA_STORAGE_ERROR at once
        self.logs.on_dir_offline = self._dir_offline
        self.fetch_sessions = FetchSessionCache(config["max.incremental.fetch.session.cache.slots"])
        self.logs.watch_offsets(self.fetch_sessions.moved)  # KIP-227 sessions' dirty sets
        self._topic_configs: dict[str, object] = {}
        self._deleting: set[str] = set()  # topics whose removal is not yet durable
        if self.cluster_mode:
            from kwire.replication.manager import ReplicaManager

            self.replicas = ReplicaManager(self)
            self.replicas.sync_logs()  # this broker's replicas' logs; strays removed
        else:
            self._remove_stray_logs()
            self._open_logs()
        from kwire.share.manager import SharePartitionManager

        self.share_partitions = SharePartitionManager(self)  # KIP-932 share partitions led here
        from kwire.coordinator.runtime import GroupCoordinator

        # a share-group member fenced by the coordinator: its share session and records here go
        self.group_coordinator = GroupCoordinator(self, share_member_removed=self.share_partitions.member_removed)
        # KIP-848 group configs (IncrementalAlterConfigs on GROUP resources): the coordinator
        # reads the image's live dict, so a change applies to the next heartbeat
        self.group_coordinator.config.group_configs = self.metadata.image.group_configs
        from kwire.transactions.coordinator import TransactionCoordinator

        self.txn_coordinator = TransactionCoordinator(self)

    def _replay_dynamic_configs(self) -> None:
        """Apply the dynamic broker configs stored by earlier AlterConfigs (skipping any now invalid)."""
        for layer, default in ((self.metadata.dynamic_default_broker_configs, True),
                               (self.metadata.dynamic_broker_configs, False)):
            for name, value in layer.items():
                try:
                    self.config.set_dynamic(name, value, cluster_default=default)
                except ConfigError as e:
                    log.warning("ignoring stored dynamic broker config %s=%s: %s", name, value, e)
        # KIP-966: a 4.1+ cluster (ELR on) keeps min.insync.replicas at cluster level only
        # (not ZooKeeper mode: a 3.x cluster keeps per-broker overrides).
        if not self.cluster_mode and self.config.ensure_cluster_min_isr():
            self.metadata.set_dynamic_broker_configs(self.config.dynamic, self.config.dynamic_default)

    def apply_dynamic_configs(self) -> None:
        """Cluster mode: the dynamic broker configs in ZooKeeper changed (this broker's entity or
        ``<default>``, maybe written by another broker): take them, skipping invalid ones."""
        from kwire.config import BROKER_CONFIGS

        layers = []
        for stored in (self.metadata.dynamic_broker_configs, self.metadata.dynamic_default_broker_configs):
            layer = {}
            for name, value in stored.items():
                d = BROKER_CONFIGS.get(name)
                try:
                    if d is None or d.read_only:
                        raise ConfigError("unknown or read-only", name)
                    layer[name] = d.parse(value)
                except ConfigError as e:
                    log.warning("ignoring stored dynamic broker config %s=%s: %s", name, value, e)
            layers.append(layer)
        if tuple(layers) == self.config.dynamic_layers():
            return
        try:
            self.config.restore_dynamic_layers((layers[0], layers[1]))
        except ConfigError as e:
            log.warning("ignoring the dynamic broker configs in ZooKeeper: %s", e)
            return
        self.refresh_all_log_configs()

    def set_advertised(self, host: str, port: int, endpoints: dict | None = None) -> None:
        """Called by the server once it knows its port (port 0 binds a free one); ``endpoints``:
        every advertised listener's (host, port), resolved the same way (registered in a cluster,
        where the other brokers connect to the inter-broker listener's)."""
        self.host, self.port = host, port
        if self.cluster_mode:
            self.metadata.set_advertised(host, port, endpoints)  # registered again if anything moved
            return
        self.metadata.self_broker.host = host
        self.metadata.self_broker.port = port

    def start(self) -> None:
        """Start what needs the running event loop: replica roles and fetchers (cluster mode),
        leadership listeners, loading groups, coordinator timers.

        Idempotent. The server calls it on the loop once it listens; the
        coordinator also starts on its first request.
        """
        if not self._started:
            self._started = True
            if self.replicas is not None:
                self.replicas.start()
            else:
                for t in list(self.metadata.topics.values()):
                    for p in t.partitions:
                        self.notify_leadership(t.name, p.partition, True, p.leader_epoch)
        self.group_coordinator.start()
        self.txn_coordinator.start()

    # -- leadership ------------------------------------------------------------------
    def add_leadership_listener(self, fn) -> None:
        """``fn(topic, partition, is_leader, leader_epoch)`` on the loop when this broker starts
        or stops leading a partition. Embedded: every partition at start and on creation
        (is_leader=True), on deletion (False). Added after start, it first hears of every
        partition led now."""
        self._leadership_listeners.append(fn)
        if self._started:
            for topic, p, epoch in self.led_partitions():
                fn(topic, p, True, epoch)

    def led_partitions(self) -> list[tuple[str, int, int]]:
        """(topic, partition, leader epoch) of every partition this broker leads."""
        if self.replicas is not None:
            return [(k[0], k[1], st.leader_epoch) for k, st in list(self.replicas.leaders.items())]
        return [(t.name, p.partition, p.leader_epoch) for t in list(self.metadata.topics.values())
                for p in t.partitions]

    def notify_leadership(self, topic: str, partition: int, is_leader: bool, epoch: int) -> None:
        self.fetch_sessions.moved(topic, partition)  # incremental fetches look at it again
        for fn in list(self._leadership_listeners):
            try:
                fn(topic, partition, is_leader, epoch)
            except Exception:
                log.exception("in a leadership listener (%s-%d)", topic, partition)

    def is_leader(self, topic: str, partition: int) -> bool:
        if self.replicas is not None:
            return (topic, partition) in self.replicas.leaders
        t = self.metadata.topic(topic)
        return t is not None and 0 <= partition < len(t.partitions)

    async def wait_replicated(self, topic: str, partition: int, required_offset: int,
                              timeout_s: float) -> ErrorCode:
        """acks=all: NONE once the HW reaches ``required_offset``; REQUEST_TIMED_OUT,
        NOT_ENOUGH_REPLICAS_AFTER_APPEND, NOT_LEADER_OR_FOLLOWER (leadership lost)."""
        return (await self.wait_all_replicated([(topic, partition, required_offset)], timeout_s))[0]

    async def wait_all_replicated(self, waits: list[tuple[str, int, int]],
                                  timeout_s: float) -> list[ErrorCode]:
        """``wait_replicated`` for every ``(topic, partition, required offset)`` at once."""
        if self.replicas is None:
            return [ErrorCode.NONE] * len(waits)  # one node: the append itself committed it
        return await self.replicas.wait_all_replicated(waits, timeout_s)

    def forget_topic_config(self, name: str) -> None:
        """Drop the cached resolved config of topic ``name`` (its overrides changed)."""
        self._topic_configs.pop(name, None)

    def not_leader_error(self, topic: str, partition: int) -> KafkaError:
        return KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER,
                          f"This server is not the leader for partition {topic}-{partition}")

    # -- topics --------------------------------------------------------------------
    def topic_config(self, topic: TopicState):
        """The resolved kwire.config.TopicConfig of ``topic`` (cached until configs change)."""
        tc = self._topic_configs.get(topic.name)
        if tc is None:
            tc = self._topic_configs[topic.name] = topic_config(topic.configs, self.config)
        return tc

    def topic_log_config(self, topic: TopicState) -> LogConfig:
        return log_config(self.topic_config(topic))

    def topic_min_insync_replicas(self, topic: TopicState) -> int:
        return self.topic_config(topic).min_insync_replicas

    def _open_logs(self) -> None:
        now = now_ms()
        for t in self.metadata.topics.values():
            cfg = self.topic_log_config(t)
            for p in t.partitions:
                try:  # not new: a missing log may be in a dir that failed to load
                    plog = self.logs.get_or_create(t.name, p.partition, cfg, now, is_new=False)
                except KafkaError as e:
                    if e.code != ErrorCode.KAFKA_STORAGE_ERROR:
                        raise
                    continue  # offline: answers KAFKA_STORAGE_ERROR, never recreated elsewhere
                plog.update_high_watermark(plog.log_end_offset)

    def validate_configs(self, configs: dict[str, str | None]) -> dict[str, str]:
        """Normalized topic config overrides, or KafkaError(INVALID_CONFIG)."""
        for name, value in configs.items():
            if value is None:
                raise KafkaError(ErrorCode.INVALID_CONFIG, f"Null value not supported for topic config '{name}'")
        try:
            return validate_topic_configs(configs)
        except ConfigError as e:
            raise KafkaError(ErrorCode.INVALID_CONFIG, str(e)) from None

    def create_topic(self, name: str, num_partitions: int, configs: dict[str, str] | None = None, *,
                     replication_factor: int | None = None, assignment: dict[int, list[int]] | None = None):
        """Create a topic all or nothing: its logs first, then the metadata record.

        Cluster mode: written to ZooKeeper (placement over the live brokers,
        ``replication_factor`` default ``default.replication.factor``, or
        ``assignment``); returns the write's future (resolves to the topic id).
        The image, and each replica's log, follow through the watches.

        If a log cannot be made (ENOSPC, EMFILE, an offline dir) the logs made so
        far and the partial dir are removed and nothing enters the metadata:
        KafkaError(KAFKA_STORAGE_ERROR). If the metadata record then cannot be
        written, the metadata undoes the topic and its logs are removed
        (synchronously outside the event loop; on the loop the caller learns it
        from ``metadata.durable()``).
        """
        err = topic_name_error(name)
        if err:
            raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, err)
        if name in self.metadata.topics:
            raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' already exists.")
        if self.cluster_mode:
            if num_partitions <= 0 and assignment is None:
                raise KafkaError(ErrorCode.INVALID_PARTITIONS, "Number of partitions must be larger than 0.")
            overrides = self.validate_configs(configs or {})
            rf = replication_factor if replication_factor and replication_factor > 0 \
                else self.config["default.replication.factor"]
            alive = len(self.metadata.brokers)
            if assignment is None and rf > alive:
                raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                                 f"Replication factor: {rf} larger than available brokers: {alive}.")
            return self.metadata.create_topic(name, num_partitions, overrides, replication_factor=rf,
                                              assignment=assignment)
        if name in self._deleting:
            raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' is marked for deletion.")
        if num_partitions <= 0:
            raise KafkaError(ErrorCode.INVALID_PARTITIONS, "Number of partitions must be larger than 0.")
        if len(self.logs.offline_dirs) == len(self.logs.log_dirs):
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, "every log dir of this broker is offline")
        overrides = self.validate_configs(configs or {})
        tc = topic_config(overrides, self.config)
        made = self._create_logs(name, range(num_partitions), log_config(tc))
        def aborted() -> None:
            self._topic_configs.pop(name, None)
            self.remove_logs(name, made)

        t = self.metadata.create_topic(name, num_partitions, overrides, on_abort=aborted)
        self._topic_configs[name] = tc
        log.debug("created topic %s with %d partitions (id %s)", name, num_partitions, t.topic_id)
        if self._started:
            for p in t.partitions:
                self.notify_leadership(name, p.partition, True, p.leader_epoch)
        return t

    def auto_create_topic(self, name: str) -> TopicState | None:
        """Create ``name`` with ``num.partitions`` if ``auto.create.topics.enable``; None if not allowed."""
        if not self.config["auto.create.topics.enable"] or topic_name_error(name):
            return None
        try:
            t = self.create_topic(name, self.config["num.partitions"])
        except KafkaError as e:
            if e.code == ErrorCode.TOPIC_ALREADY_EXISTS:
                return self.metadata.topic(name)
            return None
        return t if not self.cluster_mode else None  # cluster: in the image once the watch fires

    def delete_topic(self, name: str) -> TopicState:
        """Remove the topic from the metadata; its logs go once that is durable."""
        t = self.metadata.topic(name)
        if t is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        if self.cluster_mode:  # the controller deletes it; the replica manager removes the logs
            self.metadata.delete_topic(name)
            return t
        self._deleting.add(name)

        def committed() -> None:
            self._deleting.discard(name)
            self._topic_configs.pop(name, None)
            self.remove_logs(name, [p.partition for p in t.partitions])
            if self._started:
                for p in t.partitions:
                    self.notify_leadership(name, p.partition, False, p.leader_epoch)
            log.info("deleted topic %s", name)

        self.metadata.delete_topic(name, on_commit=committed, on_abort=lambda: self._deleting.discard(name))
        return t

    def add_partitions(self, name: str, total: int, assignment: dict[int, list[int]] | None = None):
        """Grow ``name`` to ``total`` partitions (cluster mode: the ZooKeeper write's future)."""
        t = self.metadata.topic(name)
        if self.cluster_mode:
            return self.metadata.add_partitions(name, total, assignment)
        before = len(t.partitions)
        made = self._create_logs(name, range(before, total), self.topic_log_config(t))
        self.metadata.add_partitions(name, total, on_abort=lambda: self.remove_logs(name, made))
        if self._started:
            for p in t.partitions[before:]:
                self.notify_leadership(name, p.partition, True, p.leader_epoch)

    def _create_logs(self, topic: str, partitions, cfg: LogConfig) -> list[int]:
        """New partitions' logs, all or none: KafkaError(KAFKA_STORAGE_ERROR) after removing
        what this call made (including the failed partition's partial dir)."""
        now = now_ms()
        made: list[int] = []
        for p in partitions:
            if self.logs.get(topic, p) is not None:
                continue  # left by an earlier life of the topic that was never removed: reused
            try:
                self.logs.get_or_create(topic, p, cfg, now).update_high_watermark(0)
            except (KafkaError, OSError) as e:
                self.remove_logs(topic, made)
                self._remove_partial_dir(topic, p)
                reason = e.message if isinstance(e, KafkaError) else (e.strerror or str(e))
                log.error("could not create topic %s: partition %d: %s", topic, p, reason)
                raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR,
                                 f"Could not create the log of partition {topic}-{p}: {reason}") from None
            made.append(p)
        return made

    def remove_logs(self, topic: str, partitions) -> None:
        for p in partitions:
            try:
                self.logs.delete_partition(topic, p)
            except (KafkaError, OSError) as e:
                log.error("could not remove the log of %s-%d: %s", topic, p, e)
            self.fetch_sessions.moved(topic, p)
            self.purgatory.notify((topic, p), 0)

    def _remove_partial_dir(self, topic: str, partition: int) -> None:
        """The dir a failed log creation may have left (the log manager never took it)."""
        self.logs.delete_partition(topic, partition)  # forgets the failed creation
        for d in self.logs.log_dirs:
            path = os.path.join(d, f"{topic}-{partition}")
            if d in self.logs.offline_dirs or not os.path.isdir(path):
                continue
            # renamed first (needs no file descriptor, so it works at EMFILE too): a
            # "-delete" dir that cannot be removed now is removed at the next start
            doomed = f"{path}.{uuid.uuid4().hex}-delete"
            try:
                os.rename(path, doomed)
            except OSError as e:
                log.error("could not remove the partial dir %s: %s", path, e)
                continue
            shutil.rmtree(doomed, ignore_errors=True)

    def _remove_stray_logs(self) -> None:
        """Delete partition logs whose topic (or partition) is not in the metadata.

        They are what a crash between creating a topic's logs and writing its
        metadata record leaves (Kafka's stray logs). Skipped when the metadata
        was just created: then the logs are not known to be stray. Logs in an
        offline dir are never touched (they are found stray once the dir loads).
        """
        if self.metadata.fresh:
            if len(self.logs):
                log.warning("new cluster metadata, but %d partition logs exist: they are kept, "
                            "unused, until topics of the same names are created", len(self.logs))
            return
        for plog in list(self.logs):
            if plog.offline:
                continue
            t = self.metadata.topic(plog.topic)
            if t is None or plog.partition >= len(t.partitions):
                log.warning("deleting stray partition log %s-%d: not in the cluster metadata "
                            "(a topic creation or deletion that did not finish)", plog.topic, plog.partition)
                self.remove_logs(plog.topic, [plog.partition])

    def set_topic_configs(self, name: str, configs: dict[str, str]) -> None:
        def refresh() -> None:
            self._topic_configs.pop(name, None)
            t = self.metadata.topic(name)
            if t is not None:
                self.logs.update_config(name, self.topic_log_config(t))

        self.metadata.set_topic_configs(name, configs, on_abort=refresh)
        refresh()

    def refresh_all_log_configs(self) -> None:
        """After a dynamic broker config change, push the new defaults into every log."""
        self._topic_configs.clear()
        for t in self.metadata.topics.values():
            self.logs.update_config(t.name, self.topic_log_config(t))
        if self.replicas is not None:
            self.replicas.refresh_min_isr()

    # -- logs ----------------------------------------------------------------------
    def get_log(self, topic: str, partition: int) -> PartitionLog | None:
        return self.logs.get(topic, partition)

    def _dir_offline(self, keys) -> None:
        """A log dir failed: waiting fetches of its partitions answer KAFKA_STORAGE_ERROR at once;
        in a cluster the replica manager stops their roles and tells the controller."""
        for k in keys:
            self.fetch_sessions.moved(*k)
            self.purgatory.notify(k, 0)
        if self.replicas is not None:
            self.replicas.dir_offline(keys)

    def partition_offline(self, topic: str, partition: int) -> bool:
        """True when the partition's log dir is offline: handlers answer KAFKA_STORAGE_ERROR."""
        return bool(self.logs.offline_dirs) and self.logs.is_offline(topic, partition)

    def append(self, topic: str, partition: int, records, now: int, **kw):
        """Append validated-by-the-log batches as leader; move the HW; wake waiters.
        ``kw``: ``origin`` and ``txn_verified`` of ``PartitionLog.append_as_leader``."""
        plog = self.logs.get(topic, partition)
        if plog is None:
            if self.logs.is_offline(topic, partition):
                raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR,
                                 f"the log dir of {topic}-{partition} is offline")
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        if self.replicas is not None:
            return self.replicas.append(plog, records, now, **kw)
        pstate = self.metadata.partition(topic, partition)
        if pstate is None:  # the topic is being deleted
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        # a plain produce passes no keywords: a call without ``**{}`` is the cheaper one
        result = plog.append_as_leader(records, pstate.leader_epoch, now, **kw) if kw else \
            plog.append_as_leader(records, pstate.leader_epoch, now)
        if not result.duplicate:
            plog.update_high_watermark(result.last_offset + 1)  # the new LEO
            self.purgatory.notify((topic, partition), len(records))
        return result

    # -- housekeeping (driven by the server) -----------------------------------------
    def run_retention(self) -> None:
        self.logs.run_retention(now_ms())

    def flush_due(self) -> None:
        self.logs.flush_due(now_ms())

    def checkpoint(self) -> None:
        self.logs.checkpoint()

    def connection_closed(self, connection) -> None:
        """A client connection (its peer address) closed: the share sessions it opened go and
        what their members hold here is released (KIP-932)."""
        self.share_partitions.connection_closed(connection)

    def close(self) -> None:
        self.group_coordinator.close()
        self.txn_coordinator.close()
        self.share_partitions.close()
        self.purgatory.wake_all()
        self.metadata.close()  # first: what it finishes writing may still remove logs
        self.logs.close()
