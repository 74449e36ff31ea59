"""The config tables: ``BROKER_CONFIGS``, ``TOPIC_CONFIGS``, ``GROUP_CONFIGS``, ``DEV_DEFAULTS``.

What it does
------------
Maps each config name to a ``ConfigDef``: Kafka's type (with its DescribeConfigs
``config_type`` code), default, validator, whether it can be changed at run time,
and, for topic configs, the broker synonyms that supply the default
(``retention.ms`` <- ``log.retention.ms`` <- ``log.retention.minutes`` <-
``log.retention.hours``, converted to ms; ``_first_ms`` walks such a chain).
``_BROKER_SYNONYM_GROUPS`` lists the broker names DescribeConfigs reports
together and ``_BROKER_DEFAULTS`` the typed defaults BrokerConfig starts from.

kwire's own entries come first, with one-line docs; then every other broker
config Kafka 4.3 defines is added from ``kafka43_configs.json`` (see
``kafka43``) with Kafka's type, default, validator and update mode
(read-only, per-broker, cluster-wide), marked ``acted=False``: AlterConfigs
accepts and stores them, DescribeConfigs reports them, and start-up and
``kwire serve --help-configs`` say kwire ignores them. ``GROUP_CONFIGS`` are
Kafka 4.3's group configs (defaults from the broker's ``group.*`` configs) and
``CLIENT_METRICS_CONFIGS`` the KIP-714 subscription configs. ``DEV_DEFAULTS``
is what a broker started without a properties file runs: the relevant lines of
Kafka's shipped ``config/server.properties``.

Names, types, defaults and validators follow Kafka 4.x (including the KIP-1030
default changes: ``message.timestamp.after.max.ms`` = 1 hour, ``segment.bytes``
at least 1 MiB, ``num.recovery.threads.per.data.dir`` = 2). The ZooKeeper-mode
configs of Kafka 3.x (``zookeeper.connect``, ``zookeeper.session.timeout.ms``,
``zookeeper.connection.timeout.ms``, ``inter.broker.protocol.version``,
``controlled.shutdown.*``) are kwire's own
entries: setting ``zookeeper.connect`` makes the broker part of a replicated
cluster kept in ZooKeeper (issue 12). Where kwire's default differs from Kafka's,
the ConfigDef keeps Kafka's in ``kafka_default`` and its doc says why:
``broker.id`` (0, not -1: a single node needs no id assignment), ``listeners``
(loopback, not all interfaces), ``log.dir`` (``./kwire-data``, relative to the
working directory, not ``/tmp/kafka-logs``). The internal topics' replication
factor and min ISR have Kafka's code defaults (3, 2); DEV_DEFAULTS gives 1.

What it deliberately does not do
--------------------------------
* No ``listener.name.<name>.*`` prefixed configs (``BrokerConfig`` keeps them as
  text for ``kwire.security``), config providers (``${file:...}``) or password
  encryption; the SSL/SASL configs are Kafka 4.3's, served by
  ``kwire.security``. Kafka 4 removed
  ``message.format.version``, ``message.timestamp.difference.max.ms`` and
  ``message.downconversion.enable``, so they are unknown here too.
* ``listeners`` and ``listener.security.protocol.map`` are per-broker updatable
  in Kafka; kwire cannot rebind or re-secure sockets at run time, so they are
  read-only here.
* No logic beyond the tables: resolving layers is ``broker``'s, topic
  precedence ``topic``'s.

Invariants
----------
* The tables are filled once, at import, and never changed afterwards.
* Topic configs are in Kafka's TopicConfig order; every topic synonym names a
  broker config and carries the multiplier that converts it to the topic's unit.
"""

from __future__ import annotations

from typing import Any, Mapping

from . import kafka43
from .ibp import DEFAULT as _IBP_DEFAULT
from .ibp import validate_ibp
from .listeners import parse_listeners
from .types import (
    DOUBLE_MAX,
    INT_MAX,
    LONG_MAX,
    _SAME,
    ConfigDef,
    ConfigType,
    OneOf,
    Range,
    _at_least,
    _gzip_level,
    _non_empty_unique,
    _throttled_replicas,
)


_HOUR_MS = 3_600_000
_MINUTE_MS = 60_000


def _listeners_validator(name: str, value: list[str]) -> None:
    parse_listeners(value, name)


T = ConfigType
BROKER_CONFIGS: dict[str, ConfigDef] = {}
TOPIC_CONFIGS: dict[str, ConfigDef] = {}


def _broker(name: str, type_: ConfigType, default: Any, validator=None, doc: str = "", *,
            dynamic: bool = False, kafka_default: Any = _SAME) -> None:
    BROKER_CONFIGS[name] = ConfigDef(name, type_, default, validator, doc,
                                     read_only=not dynamic, kafka_default=kafka_default)


def _topic(name: str, type_: ConfigType, default: Any, validator=None, doc: str = "", *,
           synonyms: tuple[str | tuple[str, int], ...] = (), internal: bool = False) -> None:
    syn = tuple((s, 1) if isinstance(s, str) else s for s in synonyms)
    TOPIC_CONFIGS[name] = ConfigDef(name, type_, default, validator, doc, read_only=False,
                                    synonyms=syn, internal=internal)


_COMPRESSION_TYPES = OneOf("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")
_TIMESTAMP_TYPES = OneOf("CreateTime", "LogAppendTime")
_CLEANUP_POLICIES = OneOf("compact", "delete", each=True)
_PROTOCOL_MAP_DEFAULT = "SASL_SSL:SASL_SSL,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT"
_ACCEPTED = "Accepted for compatibility; kwire does not use it."

# --- node identity and KRaft settings kwire accepts but does not use ---
_broker("broker.id", T.INT, 0, _at_least(0),
        "This node's id. kwire defaults to 0 (Kafka: -1, i.e. assigned) because a single "
        "node needs no assignment. node.id is accepted as an alias.", kafka_default=-1)
_broker("node.id", T.INT, -1, None,
        "KRaft name for broker.id; -1 means unset. If both are set they must be equal.")
_broker("cluster.id", T.STRING, None, None,
        "kwire extension, no Kafka config of this name: the cluster id to use. Unset, kwire "
        "generates one on first start and keeps it in its metadata (Kafka keeps it in "
        "meta.properties).")
_broker("process.roles", T.LIST, [], OneOf("broker", "controller", each=True), _ACCEPTED)
_broker("controller.listener.names", T.LIST, None, None, _ACCEPTED)
_broker("controller.quorum.voters", T.LIST, [], None, _ACCEPTED)
_broker("controller.quorum.bootstrap.servers", T.LIST, [], None, _ACCEPTED)
_broker("inter.broker.listener.name", T.STRING, None, None,
        "The listener brokers connect to each other on (replica fetchers, transaction markers): "
        "each broker connects to the peer's registered endpoint of this name, with this "
        "broker's own client settings of the listener. Mutually exclusive with an explicitly "
        "set security.inter.broker.protocol; must be an advertised listener.")

# --- network ---
_broker("listeners", T.LIST, ["PLAINTEXT://127.0.0.1:9092"], _listeners_validator,
        "Comma-separated NAME://host:port URIs to listen on; empty host = all interfaces, "
        "[::1] for IPv6. kwire defaults to loopback (Kafka: PLAINTEXT://:9092). Read-only in "
        "kwire (Kafka allows per-broker updates).", kafka_default=["PLAINTEXT://:9092"])
_broker("advertised.listeners", T.LIST, None, _listeners_validator,
        "Addresses given to clients in Metadata; unset = listeners. 0.0.0.0 is not allowed.")
_broker("listener.security.protocol.map", T.STRING, _PROTOCOL_MAP_DEFAULT, None,
        "LISTENER_NAME:SECURITY_PROTOCOL pairs.")
_broker("num.network.threads", T.INT, 3, _at_least(1), _ACCEPTED, dynamic=True)
_broker("num.io.threads", T.INT, 8, _at_least(1), _ACCEPTED, dynamic=True)
_broker("background.threads", T.INT, 10, _at_least(1), _ACCEPTED, dynamic=True)
_broker("queued.max.requests", T.INT, 500, _at_least(1), _ACCEPTED)
_broker("socket.send.buffer.bytes", T.INT, 102400, None, "SO_SNDBUF; -1 = OS default.")
_broker("socket.receive.buffer.bytes", T.INT, 102400, None, "SO_RCVBUF; -1 = OS default.")
_broker("socket.request.max.bytes", T.INT, 104857600, _at_least(1),
        "Largest request frame accepted.")
_broker("socket.listen.backlog.size", T.INT, 50, _at_least(1), "listen() backlog.")
_broker("connections.max.idle.ms", T.LONG, 600000, None, "Idle connections are closed after this.")
_broker("max.connections", T.INT, INT_MAX, _at_least(0), "Connection limit.", dynamic=True)
_broker("max.connections.per.ip", T.INT, INT_MAX, _at_least(0), "Per-IP connection limit.",
        dynamic=True)
_broker("max.connections.per.ip.overrides", T.STRING, "", None,
        "Per-IP (or hostname) limits overriding max.connections.per.ip: host:count,host:count.",
        dynamic=True)
_broker("queued.max.request.bytes", T.LONG, -1, None,
        "Bytes of requests being read or handled before the broker stops reading; -1 = kwire's "
        "bound of max(256 MiB, socket.request.max.bytes) (Kafka: unbounded).")

# --- topics ---
_broker("auto.create.topics.enable", T.BOOLEAN, True, None,
        "Create a topic when Metadata names an unknown one.")
_broker("delete.topic.enable", T.BOOLEAN, True, None, "Allow DeleteTopics.")
_broker("auto.leader.rebalance.enable", T.BOOLEAN, True, None,
        "Cluster mode: the controller moves leadership back to preferred replicas (when live and in "
        "the ISR) every leader.imbalance.check.interval.seconds.")
_broker("leader.imbalance.check.interval.seconds", T.LONG, 300, _at_least(1),
        "Cluster mode: how often the controller checks the leader imbalance.")
_broker("leader.imbalance.per.broker.percentage", T.INT, 10, Range(0, 100),
        "Cluster mode: the share of a broker's preferred partitions it may not lead before the "
        "controller rebalances them.")
_broker("num.partitions", T.INT, 1, _at_least(1), "Partitions of auto-created topics.")
_broker("default.replication.factor", T.INT, 1, None, "Replication factor of auto-created topics.")

# --- log ---
_broker("log.dir", T.LIST, ["./kwire-data"], _non_empty_unique,
        "Data directory, used when log.dirs is unset. kwire defaults to ./kwire-data, relative "
        "to the working directory (Kafka: /tmp/kafka-logs).", kafka_default=["/tmp/kafka-logs"])
_broker("log.dirs", T.LIST, None, _non_empty_unique,
        "Comma-separated data directories; unset = log.dir.")
_broker("log.segment.bytes", T.INT, 1073741824, _at_least(1048576), "Maximum segment size.",
        dynamic=True)
_broker("log.roll.ms", T.LONG, None, None, "Roll a segment after this long; unset = log.roll.hours.",
        dynamic=True)
_broker("log.roll.hours", T.INT, 168, _at_least(1), "Segment roll time in hours, after log.roll.ms.")
_broker("log.roll.jitter.ms", T.LONG, None, None,
        "Largest random jitter subtracted from the roll time; unset = log.roll.jitter.hours.",
        dynamic=True)
_broker("log.roll.jitter.hours", T.INT, 0, _at_least(0), "Roll jitter in hours, after log.roll.jitter.ms.")
_broker("log.retention.ms", T.LONG, None, None,
        "Delete segments older than this; unset = log.retention.minutes; negative = no limit.",
        dynamic=True)
_broker("log.retention.minutes", T.INT, None, None, "Retention in minutes, after log.retention.ms.")
_broker("log.retention.hours", T.INT, 168, None, "Retention in hours, after log.retention.minutes.")
_broker("log.retention.bytes", T.LONG, -1, None, "Maximum partition size before deleting; -1 = no limit.",
        dynamic=True)
_broker("log.retention.check.interval.ms", T.LONG, 300000, _at_least(1),
        "How often retention runs.")
_broker("log.cleanup.policy", T.LIST, ["delete"], _CLEANUP_POLICIES, "Default cleanup.policy.",
        dynamic=True)
_broker("log.index.size.max.bytes", T.INT, 10485760, _at_least(4), "Maximum offset index size.",
        dynamic=True)
_broker("log.index.interval.bytes", T.INT, 4096, _at_least(0),
        "Bytes between offset index entries.", dynamic=True)
_broker("log.flush.interval.messages", T.LONG, LONG_MAX, _at_least(1),
        "fsync after this many messages.", dynamic=True)
_broker("log.flush.interval.ms", T.LONG, None, None,
        "fsync after this long; unset = log.flush.scheduler.interval.ms.", dynamic=True)
_broker("log.flush.scheduler.interval.ms", T.LONG, LONG_MAX, None, "How often the flusher checks.")
_broker("log.flush.offset.checkpoint.interval.ms", T.INT, 60000, _at_least(0),
        "How often the recovery point is checkpointed.")
_broker("log.flush.start.offset.checkpoint.interval.ms", T.INT, 60000, _at_least(0),
        "How often log start offsets are checkpointed.")
_broker("log.segment.delete.delay.ms", T.LONG, 60000, _at_least(0),
        "Delay before a deleted segment's files are removed.", dynamic=True)
_broker("log.preallocate", T.BOOLEAN, False, None, "Preallocate segment files.", dynamic=True)
_broker("log.message.timestamp.type", T.STRING, "CreateTime", _TIMESTAMP_TYPES,
        "CreateTime or LogAppendTime.", dynamic=True)
_broker("log.message.timestamp.before.max.ms", T.LONG, LONG_MAX, _at_least(0),
        "How far a CreateTime timestamp may lag the broker's clock.", dynamic=True)
_broker("log.message.timestamp.after.max.ms", T.LONG, 3600000, _at_least(0),
        "How far a CreateTime timestamp may lead the broker's clock (1 hour since Kafka 4.0, "
        "KIP-1030).", dynamic=True)
_broker("log.local.retention.ms", T.LONG, -2, _at_least(-2),
        "Tiered storage local retention; -2 = log.retention.ms.", dynamic=True)
_broker("log.local.retention.bytes", T.LONG, -2, _at_least(-2),
        "Tiered storage local retention; -2 = log.retention.bytes.", dynamic=True)
_broker("num.recovery.threads.per.data.dir", T.INT, 2, _at_least(1), _ACCEPTED, dynamic=True)
_broker("message.max.bytes", T.INT, 1048588, _at_least(0), "Largest record batch accepted.",
        dynamic=True)
_broker("min.insync.replicas", T.INT, 1, _at_least(1), "Minimum ISR for acks=all.", dynamic=True)
_broker("compression.type", T.STRING, "producer", _COMPRESSION_TYPES,
        "Final compression of stored batches; producer = as sent.", dynamic=True)
_broker("compression.gzip.level", T.INT, -1, _gzip_level, "gzip level.", dynamic=True)
_broker("compression.lz4.level", T.INT, 9, Range(1, 17), "lz4 level.", dynamic=True)
_broker("compression.zstd.level", T.INT, 3, Range(-131072, 22), "zstd level.", dynamic=True)
_broker("unclean.leader.election.enable", T.BOOLEAN, False, None,
        "Allow out-of-ISR leaders.", dynamic=True)

# --- log cleaner ---
_broker("log.cleaner.enable", T.BOOLEAN, True, None, "Run the log cleaner (compaction).")
_broker("log.cleaner.threads", T.INT, 1, _at_least(0), "Cleaner threads.", dynamic=True)
_broker("log.cleaner.backoff.ms", T.LONG, 15000, _at_least(0),
        "Sleep when there is nothing to clean.", dynamic=True)
_broker("log.cleaner.dedupe.buffer.size", T.LONG, 134217728, None, "Dedupe buffer size.",
        dynamic=True)
_broker("log.cleaner.io.buffer.size", T.INT, 524288, _at_least(0), "Cleaner I/O buffer size.",
        dynamic=True)
_broker("log.cleaner.io.buffer.load.factor", T.DOUBLE, 0.9, None, "Dedupe buffer load factor.",
        dynamic=True)
_broker("log.cleaner.io.max.bytes.per.second", T.DOUBLE, DOUBLE_MAX, None, "Cleaner I/O throttle.",
        dynamic=True)
_broker("log.cleaner.delete.retention.ms", T.LONG, 86400000, _at_least(0),
        "Default delete.retention.ms.", dynamic=True)
_broker("log.cleaner.min.compaction.lag.ms", T.LONG, 0, _at_least(0),
        "Default min.compaction.lag.ms.", dynamic=True)
_broker("log.cleaner.max.compaction.lag.ms", T.LONG, LONG_MAX, _at_least(1),
        "Default max.compaction.lag.ms.", dynamic=True)
_broker("log.cleaner.min.cleanable.ratio", T.DOUBLE, 0.5, Range(0, 1),
        "Default min.cleanable.dirty.ratio.", dynamic=True)

# --- ZooKeeper mode (issue 12: a replicated cluster over ZooKeeper, Kafka 3.x semantics) ---
_broker("zookeeper.connect", T.STRING, None, None,
        "host:port[,host:port...][/chroot] of the ZooKeeper ensemble; set, the broker joins a "
        "replicated cluster kept in ZooKeeper (Kafka 3.x ZooKeeper mode; the chroot is created "
        "if missing). Unset: one node with embedded metadata.")
_broker("zookeeper.session.timeout.ms", T.INT, 18000, None, "ZooKeeper session timeout.")
_broker("zookeeper.connection.timeout.ms", T.INT, None, None,
        "How long to wait for the first ZooKeeper connection; null = the session timeout.")
_broker("inter.broker.protocol.version", T.STRING, _IBP_DEFAULT, validate_ibp,
        "Kafka 3.x's IBP, as it selects how a follower validates its log against a new leader "
        "(kwire.config.ibp): from 2.7-IV1 by Fetch's diverging epoch; below it by "
        "OffsetForLeaderEpoch before fetching, with Kafka's Fetch version for that IBP. No other "
        "effect in kwire (record format, AlterPartition).")
_broker("broker.source.address", T.STRING, None, None,
        "kwire's own: the local address every outgoing broker connection (replica fetchers, "
        "transaction markers, AddPartitionsToTxn verification, metrics lag lookups, the ZooKeeper "
        "session) is bound to. null: the host of this broker's advertised inter-broker endpoint "
        "when it is a loopback or local address (so each broker of a one-machine cluster on "
        "127.0.0.11, .12, ... connects from its own address and a link can be cut by address), "
        "else none; empty: never bind.")
_broker("controlled.shutdown.enable", T.BOOLEAN, True, None,
        "On SIGTERM, move leadership away (through the controller) before stopping.")
_broker("controlled.shutdown.max.retries", T.INT, 3, None, "Controlled shutdown attempts.")
_broker("controlled.shutdown.retry.backoff.ms", T.LONG, 5000, None,
        "Wait between controlled shutdown attempts.")

# --- kwire's HTTP endpoints (issue 15): Prometheus metrics and the web console; both off by default ---
def _http_listeners(name: str, value: list[str] | None) -> None:
    if value:
        for listener in parse_listeners(value, name):
            if listener.name != "HTTP":
                raise ValueError(f"{name}: {listener.name}:// is not served; use HTTP://host:port")


_broker("metrics.port", T.INT, None, None,
        "kwire extension: port of the Prometheus endpoint (http://127.0.0.1:PORT/metrics); "
        "0 = a free port; null (default) = no endpoint unless metrics.listeners is set.")
_broker("metrics.listeners", T.LIST, None, _http_listeners,
        "kwire extension: HTTP://host:port[,...] to serve /metrics on (empty host = all "
        "interfaces); overrides metrics.port.")
_broker("console.port", T.INT, None, None,
        "kwire extension: port of the built-in web console (http://127.0.0.1:PORT/); 0 = a free "
        "port; null (default) = no console unless console.listeners is set.")
_broker("console.listeners", T.LIST, None, _http_listeners,
        "kwire extension: HTTP://host:port[,...] to serve the web console on (empty host = all "
        "interfaces); overrides console.port. The console has no authentication.")
_broker("console.read.only", T.BOOLEAN, False, None,
        "kwire extension: true = the console only shows (no topic creation or deletion, no "
        "offset resets).")
_broker("schema.registry.port", T.INT, None, None,
        "kwire extension: port of the built-in Schema Registry (Confluent's REST API v1, "
        "http://127.0.0.1:PORT/); 0 = a free port; null (default) = no registry unless "
        "schema.registry.listeners is set.")
_broker("schema.registry.listeners", T.LIST, None, _http_listeners,
        "kwire extension: HTTP://host:port[,...] to serve the Schema Registry on (empty host = all "
        "interfaces); overrides schema.registry.port. No authentication.")
_broker("schema.registry.normalize.schemas", T.BOOLEAN, False, None,
        "kwire extension: true = the Schema Registry registers and looks up every schema in its "
        "normalized form, as if ?normalize=true were given (the default of the registry's "
        "normalize config; a subject's or the global normalize set by PUT /config takes precedence).")

# --- replication and fetch ---
_broker("replica.lag.time.max.ms", T.LONG, 30000, None, "A follower behind this long leaves the ISR.")
_broker("replica.fetch.max.bytes", T.INT, 1048576, _at_least(0), "Follower fetch size per partition.")
_broker("num.replica.fetchers", T.INT, 1, None, "Follower fetcher threads.", dynamic=True)
_broker("fetch.max.bytes", T.INT, 57671680, _at_least(1024), "Largest Fetch response.")
_broker("max.incremental.fetch.session.cache.slots", T.INT, 1000, _at_least(0),
        "Incremental fetch sessions kept (KIP-227).")

# --- group coordinator ---
# Kafka's code defaults (3 replicas, min ISR 2) for the internal topics; a broker started
# without a properties file gets 1 from DEV_DEFAULTS, as Kafka's shipped server.properties.
_INTERNAL_RF = ("Kafka's default; a broker started without a properties file uses 1 (Kafka's "
                "shipped server.properties). In a ZooKeeper cluster the topic is created on first "
                "use with this, once that many brokers are alive (COORDINATOR_NOT_AVAILABLE before, "
                "as Kafka); a single node without zookeeper.connect has one replica whatever this says.")
_broker("offsets.topic.num.partitions", T.INT, 50, _at_least(1), "__consumer_offsets partitions.")
_broker("offsets.topic.replication.factor", T.SHORT, 3, _at_least(1),
        "__consumer_offsets replication factor. " + _INTERNAL_RF)
_broker("offsets.topic.segment.bytes", T.INT, 104857600, _at_least(1), "__consumer_offsets segment size.")
_broker("offsets.topic.compression.codec", T.INT, 0, None, "__consumer_offsets compression codec id.")
_broker("offsets.retention.minutes", T.INT, 10080, _at_least(1), "Committed offset retention.")
_broker("offsets.retention.check.interval.ms", T.LONG, 600000, _at_least(1),
        "How often expired offsets are removed.")
_broker("offsets.commit.timeout.ms", T.INT, 5000, _at_least(1), "Offset commit write timeout.")
_broker("offsets.load.buffer.size", T.INT, 5242880, _at_least(1), "Read size when loading offsets.")
_broker("offset.metadata.max.bytes", T.INT, 4096, None, "Largest offset commit metadata string.")
_broker("group.initial.rebalance.delay.ms", T.INT, 3000, None,
        "Wait for more members before a new classic group's first rebalance (0 in a broker "
        "started without a properties file).")
_broker("group.min.session.timeout.ms", T.INT, 6000, None, "Smallest classic-group session timeout.")
_broker("group.max.session.timeout.ms", T.INT, 1800000, None, "Largest classic-group session timeout.")
_broker("group.max.size", T.INT, INT_MAX, _at_least(1), "Largest classic group.")
_broker("group.consumer.session.timeout.ms", T.INT, 45000, _at_least(1),
        "Session timeout for consumer (KIP-848) groups.")
_broker("group.consumer.min.session.timeout.ms", T.INT, 45000, _at_least(1),
        "Smallest consumer-group session timeout.")
_broker("group.consumer.max.session.timeout.ms", T.INT, 60000, _at_least(1),
        "Largest consumer-group session timeout.")
_broker("group.consumer.heartbeat.interval.ms", T.INT, 5000, _at_least(1),
        "Heartbeat interval for consumer groups.")
_broker("group.consumer.min.heartbeat.interval.ms", T.INT, 5000, _at_least(1),
        "Smallest consumer-group heartbeat interval.")
_broker("group.consumer.max.heartbeat.interval.ms", T.INT, 15000, _at_least(1),
        "Largest consumer-group heartbeat interval.")
_broker("group.consumer.max.size", T.INT, INT_MAX, _at_least(1), "Largest consumer group.")
_broker("share.coordinator.state.topic.replication.factor", T.SHORT, 3, _at_least(1), _ACCEPTED)
_broker("share.coordinator.state.topic.min.isr", T.SHORT, 2, _at_least(1), _ACCEPTED)

# --- transactions and producer ids ---
_broker("transactional.id.expiration.ms", T.INT, 604800000, _at_least(1),
        "Forget an idle transactional id after this long.")
_broker("transaction.max.timeout.ms", T.INT, 900000, _at_least(1), "Largest transaction timeout.")
_broker("transaction.state.log.num.partitions", T.INT, 50, _at_least(1),
        "__transaction_state partitions.")
_broker("transaction.state.log.replication.factor", T.SHORT, 3, _at_least(1),
        "__transaction_state replication factor. " + _INTERNAL_RF)
_broker("transaction.state.log.min.isr", T.INT, 2, _at_least(1),
        "__transaction_state min.insync.replicas. " + _INTERNAL_RF)
_broker("transaction.state.log.segment.bytes", T.INT, 104857600, _at_least(1),
        "__transaction_state segment size.")
_broker("transaction.abort.timed.out.transaction.cleanup.interval.ms", T.INT, 10000, _at_least(1),
        "How often timed-out transactions are aborted.")
_broker("transaction.remove.expired.transaction.cleanup.interval.ms", T.INT, 3600000, _at_least(1),
        "How often expired transactional ids are removed.")
_broker("transaction.partition.verification.enable", T.BOOLEAN, True, None,
        "Verify partitions were added to a transaction before writing (KIP-890).", dynamic=True)
_broker("transaction.version", T.SHORT, 2, Range(0, 2),
        "kwire-specific: the finalized level of the transaction.version feature announced in "
        "ApiVersions (Kafka sets it with kafka-features.sh). 2: transactions v2 (KIP-890 part 2: "
        "implicit partition add, epoch bump per transaction) for clients that use it (the Java "
        "client 4.x); 0 or 1: clients use the older protocol.")
_broker("producer.id.expiration.ms", T.INT, 86400000, _at_least(1),
        "Forget an idle producer id after this long.", dynamic=True)
_broker("producer.id.expiration.check.interval.ms", T.INT, 600000, _at_least(1),
        "How often expired producer ids are removed.")


# Topic configs, in Kafka's TopicConfig order; synonyms as in ServerTopicConfigSynonyms.
_topic("cleanup.policy", T.LIST, ["delete"], _CLEANUP_POLICIES,
       "delete, compact or both. An empty list means neither (keep everything), as in Kafka.",
       synonyms=("log.cleanup.policy",))
_topic("compression.type", T.STRING, "producer", _COMPRESSION_TYPES,
       "Final compression of stored batches.", synonyms=("compression.type",))
_topic("compression.gzip.level", T.INT, -1, _gzip_level, "gzip level.",
       synonyms=("compression.gzip.level",))
_topic("compression.lz4.level", T.INT, 9, Range(1, 17), "lz4 level.",
       synonyms=("compression.lz4.level",))
_topic("compression.zstd.level", T.INT, 3, Range(-131072, 22), "zstd level.",
       synonyms=("compression.zstd.level",))
_topic("delete.retention.ms", T.LONG, 86400000, _at_least(0),
       "How long tombstones survive compaction.", synonyms=("log.cleaner.delete.retention.ms",))
_topic("file.delete.delay.ms", T.LONG, 60000, _at_least(0),
       "Delay before a deleted segment's files are removed.",
       synonyms=("log.segment.delete.delay.ms",))
_topic("flush.messages", T.LONG, LONG_MAX, _at_least(1), "fsync after this many messages.",
       synonyms=("log.flush.interval.messages",))
_topic("flush.ms", T.LONG, LONG_MAX, _at_least(0), "fsync after this long.",
       synonyms=("log.flush.interval.ms", "log.flush.scheduler.interval.ms"))
_topic("follower.replication.throttled.replicas", T.LIST, [], _throttled_replicas,
       "Replicas throttled on the follower side; accepted, kwire does not throttle.")
_topic("index.interval.bytes", T.INT, 4096, _at_least(0), "Bytes between offset index entries.",
       synonyms=("log.index.interval.bytes",))
_topic("leader.replication.throttled.replicas", T.LIST, [], _throttled_replicas,
       "Replicas throttled on the leader side; accepted, kwire does not throttle.")
_topic("local.retention.bytes", T.LONG, -2, _at_least(-2),
       "Tiered storage local retention; -2 = retention.bytes.",
       synonyms=("log.local.retention.bytes",))
_topic("local.retention.ms", T.LONG, -2, _at_least(-2),
       "Tiered storage local retention; -2 = retention.ms.", synonyms=("log.local.retention.ms",))
_topic("max.compaction.lag.ms", T.LONG, LONG_MAX, _at_least(1),
       "Longest a record may stay uncompacted.", synonyms=("log.cleaner.max.compaction.lag.ms",))
_topic("max.message.bytes", T.INT, 1048588, _at_least(0), "Largest record batch accepted.",
       synonyms=("message.max.bytes",))
_topic("message.timestamp.after.max.ms", T.LONG, 3600000, _at_least(0),
       "How far a CreateTime timestamp may lead the broker's clock.",
       synonyms=("log.message.timestamp.after.max.ms",))
_topic("message.timestamp.before.max.ms", T.LONG, LONG_MAX, _at_least(0),
       "How far a CreateTime timestamp may lag the broker's clock.",
       synonyms=("log.message.timestamp.before.max.ms",))
_topic("confluent.value.schema.validation", T.BOOLEAN, False, None,
       "Confluent Server's topic config: true = every record value must carry the schema id of a "
       "schema known to the built-in Schema Registry (magic byte 0, 4-byte id), else the batch is "
       "refused with INVALID_RECORD (kwire/broker/schema_validation.py). Not an Apache Kafka config: "
       "accepted on create/alter, left out of DescribeConfigs (internal).", internal=True)
_topic("confluent.key.schema.validation", T.BOOLEAN, False, None,
       "As confluent.value.schema.validation, for record keys.", internal=True)
_topic("message.timestamp.type", T.STRING, "CreateTime", _TIMESTAMP_TYPES,
       "CreateTime or LogAppendTime.", synonyms=("log.message.timestamp.type",))
_topic("min.cleanable.dirty.ratio", T.DOUBLE, 0.5, Range(0, 1),
       "Dirty ratio at which a log becomes cleanable.",
       synonyms=("log.cleaner.min.cleanable.ratio",))
_topic("min.compaction.lag.ms", T.LONG, 0, _at_least(0),
       "Shortest a record stays uncompacted.", synonyms=("log.cleaner.min.compaction.lag.ms",))
_topic("min.insync.replicas", T.INT, 1, _at_least(1), "Minimum ISR for acks=all.",
       synonyms=("min.insync.replicas",))
_topic("preallocate", T.BOOLEAN, False, None, "Preallocate segment files.",
       synonyms=("log.preallocate",))
_topic("remote.log.copy.disable", T.BOOLEAN, False, None, "Tiered storage; kwire has none.")
_topic("remote.log.delete.on.disable", T.BOOLEAN, False, None, "Tiered storage; kwire has none.")
_topic("remote.storage.enable", T.BOOLEAN, False, None,
       "Tiered storage; kwire has none, so only false is accepted.")
_topic("retention.bytes", T.LONG, -1, None, "Maximum partition size before deleting; -1 = no limit.",
       synonyms=("log.retention.bytes",))
_topic("retention.ms", T.LONG, 604800000, _at_least(-1),
       "Delete segments older than this; -1 = no limit.",
       synonyms=("log.retention.ms", ("log.retention.minutes", _MINUTE_MS),
                 ("log.retention.hours", _HOUR_MS)))
_topic("segment.bytes", T.INT, 1073741824, _at_least(1048576), "Maximum segment size.",
       synonyms=("log.segment.bytes",))
_topic("segment.index.bytes", T.INT, 10485760, _at_least(4), "Maximum offset index size.",
       synonyms=("log.index.size.max.bytes",))
_topic("segment.jitter.ms", T.LONG, 0, _at_least(0),
       "Largest random jitter subtracted from segment.ms.",
       synonyms=("log.roll.jitter.ms", ("log.roll.jitter.hours", _HOUR_MS)))
_topic("segment.ms", T.LONG, 604800000, _at_least(1), "Roll a segment after this long.",
       synonyms=("log.roll.ms", ("log.roll.hours", _HOUR_MS)))
_topic("unclean.leader.election.enable", T.BOOLEAN, False, None, "Allow out-of-ISR leaders.",
       synonyms=("unclean.leader.election.enable",))
_topic("internal.segment.bytes", T.INT, None, None,
       "Kafka's test-only segment size, free of segment.bytes' 1 MiB minimum; wins when set.",
       internal=True)
del T

# --- the rest of Kafka 4.3's surface (kafka43_configs.json) ---
# kwire's own entries above win; every other 4.3 broker name is added with Kafka's type,
# default, validator and update mode, marked as one kwire does not act on. kwire's own
# entries take 4.3's per-broker mode; ``listeners`` and ``listener.security.protocol.map``
# stay read-only because kwire cannot rebind or re-secure sockets at run time.
_FACTS = kafka43.load()
_KWIRE_READ_ONLY = {"listeners", "listener.security.protocol.map"}
for _row in _FACTS["broker"]:
    _d = BROKER_CONFIGS.get(_row[0])
    if _d is None:
        BROKER_CONFIGS[_row[0]] = kafka43.config_def(_row)
    elif _row[4] == "per-broker" and _row[0] not in _KWIRE_READ_ONLY:
        _d.per_broker = True
# kwire's own entries it does not act on (the internal topics' replicas and min ISR are acted on
# in a ZooKeeper cluster: kwire.transactions.coordinator, kwire.coordinator.runtime).
_KWIRE_IGNORES = {"num.replica.fetchers",
                  # kwire leaves socket buffers to the kernel's autotuning
                  "socket.send.buffer.bytes", "socket.receive.buffer.bytes"}
for _d in BROKER_CONFIGS.values():
    if _d.doc == _ACCEPTED or _d.name in _KWIRE_IGNORES:
        _d.acted = False
# Kafka 4.3 names the cluster mode acts on (the follower's fetch settings, the rack).
for _name in ("broker.rack", "replica.fetch.wait.max.ms", "replica.fetch.min.bytes",
              "replica.fetch.backoff.ms", "replica.socket.timeout.ms", "replica.fetch.response.max.bytes",
              "unclean.leader.election.enable", "default.replication.factor"):
    BROKER_CONFIGS[_name].acted = True
# Security (kwire.security, issue 14).
for _name in ("ssl.keystore.type", "ssl.keystore.location", "ssl.keystore.password", "ssl.key.password",
              "ssl.keystore.key", "ssl.keystore.certificate.chain", "ssl.truststore.type",
              "ssl.truststore.location", "ssl.truststore.password", "ssl.truststore.certificates",
              "ssl.client.auth", "ssl.enabled.protocols", "ssl.principal.mapping.rules",
              "sasl.enabled.mechanisms", "sasl.jaas.config", "connections.max.reauth.ms",
              "connection.failed.authentication.delay.ms", "authorizer.class.name",
              "quota.window.num", "quota.window.size.seconds",
              # client quotas beyond byte rates (KIP-599, KIP-612; kwire.security)
              "controller.quota.window.num", "controller.quota.window.size.seconds",
              "max.connection.creation.rate"):
    BROKER_CONFIGS[_name].acted = True
# Inter-broker security (kwire.security.inter_broker): every broker-to-broker connection uses them.
# share groups (kwire.share, kwire.coordinator.share_ops)
for _name in ("group.share.session.timeout.ms", "group.share.min.session.timeout.ms",
              "group.share.max.session.timeout.ms", "group.share.heartbeat.interval.ms",
              "group.share.min.heartbeat.interval.ms", "group.share.max.heartbeat.interval.ms",
              "group.share.max.size", "group.share.record.lock.duration.ms",
              "group.share.min.record.lock.duration.ms", "group.share.max.record.lock.duration.ms",
              "group.share.delivery.count.limit", "group.share.min.delivery.count.limit",
              "group.share.max.delivery.count.limit", "group.share.partition.max.record.locks",
              "group.share.min.partition.max.record.locks", "group.share.max.partition.max.record.locks",
              "group.share.max.share.sessions", "share.coordinator.state.topic.num.partitions",
              "share.coordinator.state.topic.segment.bytes",
              "share.coordinator.snapshot.update.records.per.snapshot"):
    BROKER_CONFIGS[_name].acted = True
for _name in ("inter.broker.listener.name", "security.inter.broker.protocol",
              "sasl.mechanism.inter.broker.protocol", "ssl.endpoint.identification.algorithm"):
    BROKER_CONFIGS[_name].acted = True
BROKER_CONFIGS["controller.quota.window.num"].doc = (
    "Number of windows of a controller_mutation_rate quota: its token bucket holds rate * num * size.")
BROKER_CONFIGS["controller.quota.window.size.seconds"].doc = (
    "Size of each window of a controller_mutation_rate quota, in seconds.")
BROKER_CONFIGS["max.connection.creation.rate"].doc = (
    "New connections per second the broker accepts on all its listeners; beyond it accepting is "
    "delayed (KIP-612). listener.name.<listener>.max.connection.creation.rate bounds one listener.")

# Group configs (KIP-848 / KIP-932 / KIP-1071 DescribeConfigs GROUP resources): each
# defaults to the broker config "group.<name>" when Kafka has one, else its own default.
GROUP_CONFIGS: dict[str, ConfigDef] = {}
for _row in _FACTS["group"]:
    _d = kafka43.config_def(_row[:4] + ["cluster-wide"])
    _syn = "group." + _row[0]
    _d.synonyms = ((_syn, 1),) if _syn in BROKER_CONFIGS else ()
    GROUP_CONFIGS[_row[0]] = _d
# The KIP-848 coordinator uses these two per group (clamped into group.consumer.min/max.*), share
# groups (kwire.share) the share.* ones; the streams ones are stored and reported only.
GROUP_CONFIGS["consumer.session.timeout.ms"].doc = (
    "This consumer group's session timeout; unset = group.consumer.session.timeout.ms.")
GROUP_CONFIGS["consumer.heartbeat.interval.ms"].doc = (
    "The heartbeat interval this consumer group's members are told; unset = "
    "group.consumer.heartbeat.interval.ms.")
for _name in ("consumer.session.timeout.ms", "consumer.heartbeat.interval.ms", "share.session.timeout.ms",
              "share.heartbeat.interval.ms", "share.record.lock.duration.ms", "share.delivery.count.limit",
              "share.partition.max.record.locks", "share.auto.offset.reset", "share.isolation.level"):
    GROUP_CONFIGS[_name].acted = True

# Client metrics subscriptions (KIP-714, DescribeConfigs CLIENT_METRICS resources).
CLIENT_METRICS_CONFIGS: dict[str, ConfigDef] = {
    "metrics": ConfigDef("metrics", ConfigType.LIST, [], None,
                         "Telemetry metric name prefixes of the subscription.", read_only=False),
    # 100..3600000, checked (with Kafka's message) by group.validate_client_metrics, as in Kafka
    "interval.ms": ConfigDef("interval.ms", ConfigType.INT, 300000, None,
                             "Push interval of the subscription.", read_only=False),
    "match": ConfigDef("match", ConfigType.LIST, [], None,
                       "Client selector patterns of the subscription.", read_only=False),
}
del _row, _d, _syn, _name

# What a broker started without a properties file runs with: the settings of Kafka's
# shipped config/server.properties that matter to a single kwire node, plus the
# no-delay first rebalance developers' test suites expect. Identity, listeners and data
# directory keep kwire's own defaults (id 0, loopback, ./kwire-data).
DEV_DEFAULTS: dict[str, str] = {
    "num.network.threads": "3",
    "num.io.threads": "8",
    "socket.send.buffer.bytes": "102400",
    "socket.receive.buffer.bytes": "102400",
    "socket.request.max.bytes": "104857600",
    "num.partitions": "1",
    "num.recovery.threads.per.data.dir": "1",
    "offsets.topic.replication.factor": "1",
    "share.coordinator.state.topic.replication.factor": "1",
    "share.coordinator.state.topic.min.isr": "1",
    "transaction.state.log.replication.factor": "1",
    "transaction.state.log.min.isr": "1",
    "log.retention.hours": "168",
    "log.segment.bytes": "1073741824",
    "log.retention.check.interval.ms": "300000",
    "group.initial.rebalance.delay.ms": "0",
}

# Broker names described together (DynamicBrokerConfig.brokerConfigSynonyms).
_BROKER_SYNONYM_GROUPS: dict[str, tuple[str, ...]] = {}
for _group in (("log.roll.ms", "log.roll.hours"),
               ("log.roll.jitter.ms", "log.roll.jitter.hours"),
               ("log.retention.ms", "log.retention.minutes", "log.retention.hours")):
    for _name in _group:
        _BROKER_SYNONYM_GROUPS[_name] = _group
_BROKER_SYNONYM_GROUPS["log.flush.interval.ms"] = ("log.flush.interval.ms",
                                                   "log.flush.scheduler.interval.ms")
del _group, _name
_BROKER_DEFAULTS: dict[str, Any] = {n: d.default for n, d in BROKER_CONFIGS.items()}


def _first_ms(values: Mapping[str, Any], synonyms: tuple[tuple[str, int], ...]) -> Any:
    """The value of the first synonym in ``values`` that has one, times its multiplier."""
    for syn, factor in synonyms:
        v = values.get(syn)
        if v is not None:
            return v * factor if factor != 1 else v
    return None
