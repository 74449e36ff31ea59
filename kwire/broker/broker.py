"""The broker's state: config, cluster metadata, partition logs, waiting operations.

``Broker`` is what handlers see (as ``ctx.broker``). It ties the metadata
interface (``kwire.cluster.metadata``) to the logs (``kwire.log``): creating a
topic creates its partition logs, an append moves the high watermark (on one
node it follows the log end offset once the append is done) and wakes the
delayed operations watching that partition. It holds no sockets and starts no
tasks; ``kwire.server`` drives its periodic work (retention, flush,
checkpoints) and its shutdown.
"""

from __future__ import annotations

import logging
import time

from kwire.broker.fetch_sessions import FetchSessionCache
from kwire.cluster.metadata import LocalMetadata, TopicState, topic_name_error
from kwire.config import BrokerConfig, ConfigError, topic_config, validate_topic_configs
from kwire.log import LogConfig, LogManager, PartitionLog
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.server.purgatory import Purgatory

log = logging.getLogger("kwire.broker")


def now_ms() -> int:
    return time.time_ns() // 1_000_000


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
    )


class Broker:
    def __init__(self, config: BrokerConfig) -> None:
        self.config = config
        self.node_id = config.broker_id
        adv = config.advertised_listeners[0]
        self.host, self.port = adv[1], adv[2]
        self.metadata = LocalMetadata(config.log_dirs[0], self.node_id, self.host, self.port)
        self._replay_dynamic_configs()
        self.logs = LogManager(config.log_dirs, now_ms())
        self.purgatory = Purgatory()
        self.fetch_sessions = FetchSessionCache(config["max.incremental.fetch.session.cache.slots"])
        self._topic_configs: dict[str, object] = {}
        self._open_logs()
        from kwire.coordinator.runtime import GroupCoordinator

        self.group_coordinator = GroupCoordinator(self)

    def _replay_dynamic_configs(self) -> None:
        """Apply the dynamic broker configs stored by earlier AlterConfigs (skipping any now invalid)."""
        for layer, default in ((self.metadata.dynamic_default_broker_configs, True),
                               (self.metadata.dynamic_broker_configs, False)):
            for name, value in layer.items():
                try:
                    self.config.set_dynamic(name, value, cluster_default=default)
                except ConfigError as e:
                    log.warning("ignoring stored dynamic broker config %s=%s: %s", name, value, e)

    def set_advertised(self, host: str, port: int) -> None:
        """Called by the server once it knows its port (port 0 binds a free one)."""
        self.host, self.port = host, port
        self.metadata.self_broker.host = host
        self.metadata.self_broker.port = port

    def start(self) -> None:
        """Start what needs the running event loop: loading groups, coordinator timers.

        Idempotent. The server calls it on the loop once it listens; the
        coordinator also starts on its first request.
        """
        self.group_coordinator.start()

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
                plog = self.logs.get_or_create(t.name, p.partition, cfg, now)
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

    def create_topic(self, name: str, num_partitions: int, configs: dict[str, str] | None = None) -> TopicState:
        err = topic_name_error(name)
        if err:
            raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, err)
        if name in self.metadata.topics:
            raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' already exists.")
        if num_partitions <= 0:
            raise KafkaError(ErrorCode.INVALID_PARTITIONS, "Number of partitions must be larger than 0.")
        overrides = self.validate_configs(configs or {})
        t = self.metadata.create_topic(name, num_partitions, overrides)
        cfg = self.topic_log_config(t)
        now = now_ms()
        for p in t.partitions:
            self.logs.get_or_create(name, p.partition, cfg, now).update_high_watermark(0)
        log.info("created topic %s with %d partitions (id %s)", name, num_partitions, t.topic_id)
        return t

    def auto_create_topic(self, name: str) -> TopicState | None:
        """Create ``name`` with ``num.partitions`` if ``auto.create.topics.enable``; None if not allowed."""
        if not self.config["auto.create.topics.enable"] or topic_name_error(name):
            return None
        try:
            return self.create_topic(name, self.config["num.partitions"])
        except KafkaError as e:
            if e.code == ErrorCode.TOPIC_ALREADY_EXISTS:
                return self.metadata.topic(name)
            return None

    def delete_topic(self, name: str) -> TopicState:
        t = self.metadata.topic(name)
        if t is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        self.metadata.delete_topic(name)
        self._topic_configs.pop(name, None)
        for p in t.partitions:
            self.logs.delete_partition(name, p.partition)
            self.purgatory.notify((name, p.partition), 0)
        log.info("deleted topic %s", name)
        return t

    def add_partitions(self, name: str, total: int) -> None:
        t = self.metadata.topic(name)
        new = self.metadata.add_partitions(name, total)
        cfg = self.topic_log_config(t)
        now = now_ms()
        for p in new:
            self.logs.get_or_create(name, p.partition, cfg, now).update_high_watermark(0)

    def set_topic_configs(self, name: str, configs: dict[str, str]) -> None:
        self.metadata.set_topic_configs(name, configs)
        self._topic_configs.pop(name, None)
        t = self.metadata.topic(name)
        self.logs.update_config(name, self.topic_log_config(t))

    def refresh_all_log_configs(self) -> None:
        """After a dynamic broker config change, push the new defaults into every log."""
        self._topic_configs.clear()
        for t in self.metadata.topics.values():
            self.logs.update_config(t.name, self.topic_log_config(t))

    # -- logs ----------------------------------------------------------------------
    def get_log(self, topic: str, partition: int) -> PartitionLog | None:
        return self.logs.get(topic, partition)

    def append(self, topic: str, partition: int, records, now: int):
        """Append validated-by-the-log batches as leader; move the HW; wake waiters."""
        plog = self.logs.get(topic, partition)
        if plog is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        pstate = self.metadata.partition(topic, partition)
        result = plog.append_as_leader(records, pstate.leader_epoch, now)
        if not result.duplicate:
            plog.update_high_watermark(plog.log_end_offset)
            self.purgatory.notify((topic, partition), len(records))
        return result

    # -- housekeeping (driven by the server) -----------------------------------------
    def run_retention(self) -> None:
        self.logs.run_retention(now_ms())

    def flush_due(self) -> None:
        self.logs.flush_due(now_ms())

    def checkpoint(self) -> None:
        self.logs.checkpoint()

    def close(self) -> None:
        self.group_coordinator.close()
        self.purgatory.wake_all()
        self.logs.close()
        self.metadata.save()
