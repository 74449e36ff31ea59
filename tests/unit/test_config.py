"""kwire.config: properties parsing, Kafka defaults, precedence, describe, validation."""

import pytest

from kwire.config import (
    BROKER_CONFIGS, LONG_MAX, TOPIC_CONFIGS, AlterOp, BrokerConfig, ConfigError, ConfigType,
    Listener, Source, apply_incremental, parse_listeners, parse_properties, topic_config,
    validate_topic_config, validate_topic_configs,
)


# ---------------------------------------------------------------- properties

def test_properties_separators_and_comments():
    text = (
        "# comment\n"
        "! also a comment\n"
        "   \n"
        "a=1\n"
        "b: 2\n"
        "c 3\n"
        "d   =   4\n"
        "   e=5\n"
        "f\n"
        "g=\n"
        "h=x=y\n"
        "i = trailing  \n"
    )
    assert parse_properties(text) == {
        "a": "1", "b": "2", "c": "3", "d": "4", "e": "5", "f": "", "g": "",
        "h": "x=y", "i": "trailing  ",
    }


def test_properties_continuation():
    text = "key = one, \\\n    two, \\\n\tthree\nnext=1\n"
    assert parse_properties(text) == {"key": "one, two, three", "next": "1"}


def test_properties_even_backslashes_do_not_continue():
    assert parse_properties("a=x\\\\\nb=y\n") == {"a": "x\\", "b": "y"}


def test_properties_continuation_line_starting_with_hash_is_not_a_comment():
    assert parse_properties("a=1\\\n  #2\n") == {"a": "1#2"}


def test_properties_comment_ending_in_backslash_does_not_continue():
    assert parse_properties("# note \\\na=1\n") == {"a": "1"}


def test_properties_escapes():
    text = r"k\ ey\:x\=y = tab\there\nnl back\\slash \u00e9 \q" + "\n"
    assert parse_properties(text) == {"k ey:x=y": "tab\there\nnl back\\slash é q"}


def test_properties_surrogate_pair_escape():
    assert parse_properties(r"smile=\uD83D\uDE00") == {"smile": "\U0001F600"}


def test_properties_crlf_cr_and_last_key_wins():
    assert parse_properties("a=1\r\nb=2\rc=3\na=4") == {"a": "4", "b": "2", "c": "3"}


def test_properties_bad_unicode_escape():
    with pytest.raises(ConfigError, match="uxxxx"):
        parse_properties(r"a=\u12G4")


def test_properties_trailing_backslash_at_end_of_input():
    assert parse_properties("a=1\\") == {"a": "1"}


# ---------------------------------------------------------------- defaults

@pytest.mark.parametrize("name, default", [
    ("num.partitions", 1),
    ("default.replication.factor", 1),
    ("auto.create.topics.enable", True),
    ("delete.topic.enable", True),
    ("log.retention.hours", 168),
    ("log.retention.ms", None),
    ("log.retention.bytes", -1),
    ("log.segment.bytes", 1073741824),
    ("log.roll.hours", 168),
    ("log.retention.check.interval.ms", 300000),
    ("log.index.interval.bytes", 4096),
    ("log.index.size.max.bytes", 10485760),
    ("log.flush.interval.messages", LONG_MAX),
    ("log.flush.interval.ms", None),
    ("log.flush.scheduler.interval.ms", LONG_MAX),
    ("log.flush.offset.checkpoint.interval.ms", 60000),
    ("log.cleanup.policy", ["delete"]),
    ("log.message.timestamp.type", "CreateTime"),
    ("log.message.timestamp.before.max.ms", LONG_MAX),
    ("log.message.timestamp.after.max.ms", 3600000),
    ("message.max.bytes", 1048588),
    ("min.insync.replicas", 1),
    ("compression.type", "producer"),
    ("socket.request.max.bytes", 104857600),
    ("offsets.topic.num.partitions", 50),
    ("offsets.topic.replication.factor", 3),
    ("offsets.retention.minutes", 10080),
    ("offsets.topic.segment.bytes", 104857600),
    ("group.initial.rebalance.delay.ms", 3000),
    ("group.min.session.timeout.ms", 6000),
    ("group.max.session.timeout.ms", 1800000),
    ("group.consumer.session.timeout.ms", 45000),
    ("group.consumer.heartbeat.interval.ms", 5000),
    ("transactional.id.expiration.ms", 604800000),
    ("producer.id.expiration.ms", 86400000),
    ("max.incremental.fetch.session.cache.slots", 1000),
    ("replica.lag.time.max.ms", 30000),
    ("unclean.leader.election.enable", False),
    ("log.cleaner.enable", True),
    ("log.preallocate", False),
    ("fetch.max.bytes", 57671680),
    ("cluster.id", None),
])
def test_broker_defaults(name, default):
    assert BrokerConfig()[name] == default


@pytest.mark.parametrize("name, kafka_default", [
    ("broker.id", -1),
    ("listeners", ["PLAINTEXT://:9092"]),
    ("log.dir", ["/tmp/kafka-logs"]),
])
def test_kwire_deviations_keep_kafkas_default(name, kafka_default):
    d = BROKER_CONFIGS[name]
    assert d.kafka_default == kafka_default
    assert d.default != kafka_default
    assert "Kafka" in d.doc  # the doc says why kwire differs


@pytest.mark.parametrize("name, default, type_", [
    ("retention.ms", 604800000, ConfigType.LONG),
    ("segment.bytes", 1073741824, ConfigType.INT),
    ("segment.ms", 604800000, ConfigType.LONG),
    ("cleanup.policy", ["delete"], ConfigType.LIST),
    ("max.message.bytes", 1048588, ConfigType.INT),
    ("min.cleanable.dirty.ratio", 0.5, ConfigType.DOUBLE),
    ("delete.retention.ms", 86400000, ConfigType.LONG),
    ("local.retention.ms", -2, ConfigType.LONG),
    ("local.retention.bytes", -2, ConfigType.LONG),
    ("compression.gzip.level", -1, ConfigType.INT),
    ("compression.lz4.level", 9, ConfigType.INT),
    ("compression.zstd.level", 3, ConfigType.INT),
    ("message.timestamp.after.max.ms", 3600000, ConfigType.LONG),
])
def test_topic_defaults(name, default, type_):
    d = TOPIC_CONFIGS[name]
    assert (d.default, d.type) == (default, type_)


def test_removed_in_kafka_4_are_unknown():
    for name in ("message.format.version", "message.timestamp.difference.max.ms",
                 "message.downconversion.enable"):
        assert name not in TOPIC_CONFIGS


def test_embedded_defaults():
    cfg = BrokerConfig.load(None, [])
    assert cfg.broker_id == 0
    assert cfg.listeners == [Listener("PLAINTEXT", "127.0.0.1", 9092)]
    assert cfg.advertised_listeners == cfg.listeners
    assert cfg.log_dirs == ["./kwire-data"]
    assert cfg.retention_ms == 7 * 24 * 3600 * 1000
    assert cfg.flush_ms == LONG_MAX
    assert cfg.embedded and cfg.zookeeper_connect is None
    assert cfg.explicit == {} and cfg.warnings == []


def test_zookeeper_mode_configs_accepted():
    """Kafka 3.x ZooKeeper-mode configs (issue 12), with Kafka's defaults."""
    cfg = BrokerConfig.load(None, ["zookeeper.connect=127.0.0.1:2181,127.0.0.1:2182/kwire", "broker.id=2"])
    assert cfg.zookeeper_connect == "127.0.0.1:2181,127.0.0.1:2182/kwire" and not cfg.embedded
    assert cfg["zookeeper.session.timeout.ms"] == 18000
    assert cfg["zookeeper.connection.timeout.ms"] is None
    assert cfg["controlled.shutdown.enable"] is True
    assert cfg["controlled.shutdown.max.retries"] == 3
    assert cfg["controlled.shutdown.retry.backoff.ms"] == 5000
    assert cfg.warnings == [] and "zookeeper.connect" not in cfg.not_acted()


# ---------------------------------------------------------------- loading

def test_load_file_and_overrides(tmp_path):
    path = tmp_path / "server.properties"
    path.write_text("num.partitions=3\nlog.dirs=/a, /b\nlog.retention.hours=24\n")
    cfg = BrokerConfig.load(str(path), ["num.partitions=5", "auto.create.topics.enable=false"])
    assert cfg["num.partitions"] == 5
    assert cfg["auto.create.topics.enable"] is False
    assert cfg.log_dirs == ["/a", "/b"]
    assert cfg.retention_ms == 24 * 3600 * 1000
    assert set(cfg.explicit) == {"num.partitions", "log.dirs", "log.retention.hours",
                                 "auto.create.topics.enable"}
    assert cfg.source("num.partitions") == Source.STATIC_BROKER_CONFIG
    assert cfg.source("log.segment.bytes") == Source.DEFAULT_CONFIG


def test_load_dict_overrides_accept_python_values():
    cfg = BrokerConfig.load(None, {"log.preallocate": True, "num.partitions": 4})
    assert cfg["log.preallocate"] is True and cfg["num.partitions"] == 4


def test_unknown_key_warns():
    cfg = BrokerConfig.load(None, ["no.such.config=1"])
    assert len(cfg.warnings) == 1 and "no.such.config" in cfg.warnings[0]
    assert "no.such.config" not in cfg


def test_kafka_sample_server_properties_loads_without_warnings():
    text = (
        "process.roles=broker,controller\nnode.id=1\n"
        "controller.quorum.bootstrap.servers=localhost:9093\n"
        "listeners=PLAINTEXT://:9092,CONTROLLER://:9093\ninter.broker.listener.name=PLAINTEXT\n"
        "advertised.listeners=PLAINTEXT://localhost:9092,CONTROLLER://localhost:9093\n"
        "controller.listener.names=CONTROLLER\n"
        "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SSL:SSL\n"
        "num.network.threads=3\nnum.io.threads=8\nsocket.send.buffer.bytes=102400\n"
        "socket.receive.buffer.bytes=102400\nsocket.request.max.bytes=104857600\n"
        "log.dirs=/tmp/kraft-combined-logs\nnum.partitions=1\n"
        "num.recovery.threads.per.data.dir=1\noffsets.topic.replication.factor=1\n"
        "share.coordinator.state.topic.replication.factor=1\n"
        "share.coordinator.state.topic.min.isr=1\ntransaction.state.log.replication.factor=1\n"
        "transaction.state.log.min.isr=1\nlog.retention.hours=168\n"
        "log.segment.bytes=1073741824\nlog.retention.check.interval.ms=300000\n"
    )
    cfg = BrokerConfig(parse_properties(text))
    assert cfg.warnings == []
    assert cfg.broker_id == 1
    assert [lst.name for lst in cfg.listeners] == ["PLAINTEXT", "CONTROLLER"]


@pytest.mark.parametrize("override, fragment", [
    ("num.partitions=abc", "Not a number of type INT"),
    ("num.partitions=0", "at least 1"),
    ("num.partitions=2147483648", "INT"),
    ("auto.create.topics.enable=yes", "true or false"),
    ("log.cleanup.policy=delete,purge", "String must be one of"),
    ("compression.type=none", "String must be one of"),
    ("log.segment.bytes=1000", "at least 1048576"),
    ("listeners=PLAINTEXT://host", "NAME://host:port"),
    ("listeners=PLAINTEXT://:99999", "NAME://host:port"),
])
def test_bad_value_raises_naming_key(override, fragment):
    with pytest.raises(ConfigError) as e:
        BrokerConfig.load(None, [override])
    assert override.split("=")[0] in str(e.value)
    assert fragment in str(e.value)


def test_override_without_equals():
    with pytest.raises(ConfigError, match="key=value"):
        BrokerConfig.load(None, ["num.partitions"])


def test_missing_file():
    with pytest.raises(ConfigError, match="Cannot read config file"):
        BrokerConfig.load("/nonexistent/kwire.properties")


def test_values_are_trimmed_and_case_insensitive_booleans():
    cfg = BrokerConfig({"num.partitions": " 7 ", "log.preallocate": "TRUE"})
    assert cfg["num.partitions"] == 7 and cfg["log.preallocate"] is True


# ---------------------------------------------------------------- identity and listeners

def test_node_id_alias():
    assert BrokerConfig({"node.id": "3"}).broker_id == 3
    assert BrokerConfig({"node.id": "3", "broker.id": "3"}).broker_id == 3
    with pytest.raises(ConfigError, match="node.id"):
        BrokerConfig({"node.id": "3", "broker.id": "4"})


@pytest.mark.parametrize("value, expected", [
    ("PLAINTEXT://:9092", [Listener("PLAINTEXT", "", 9092)]),
    ("PLAINTEXT://[::1]:9092", [Listener("PLAINTEXT", "::1", 9092)]),
    ("plaintext://localhost:1", [Listener("PLAINTEXT", "localhost", 1)]),
    ("PLAINTEXT://127.0.0.1:9092,SSL://[::1]:9092",
     [Listener("PLAINTEXT", "127.0.0.1", 9092), Listener("SSL", "::1", 9092)]),
    ("A://h:0,B://h:0", [Listener("A", "h", 0), Listener("B", "h", 0)]),
])
def test_parse_listeners(value, expected):
    assert parse_listeners(value) == expected


@pytest.mark.parametrize("value, fragment", [
    ("PLAINTEXT://:9092,PLAINTEXT://:9093", "different name"),
    ("A://:9092,B://localhost:9092", "different port"),
    ("A://127.0.0.1:9092,B://127.0.0.2:9092", "different port"),
    ("://:9092", "NAME://host:port"),
    ("", "NAME://host:port"),
])
def test_parse_listeners_rejects(value, fragment):
    with pytest.raises(ConfigError, match=fragment):
        parse_listeners(value)


def test_advertised_listeners():
    cfg = BrokerConfig({"listeners": "PLAINTEXT://:9092",
                        "advertised.listeners": "PLAINTEXT://broker.example:19092"})
    assert cfg.listeners == [Listener("PLAINTEXT", "", 9092)]
    assert cfg.advertised_listeners == [Listener("PLAINTEXT", "broker.example", 19092)]
    with pytest.raises(ConfigError, match="non-routable"):
        BrokerConfig({"advertised.listeners": "PLAINTEXT://0.0.0.0:9092"})
    with pytest.raises(ConfigError, match="not in listeners"):
        BrokerConfig({"advertised.listeners": "OTHER://h:9092"})


def test_listener_needs_security_protocol():
    with pytest.raises(ConfigError, match="No security protocol defined for listener CLIENT"):
        BrokerConfig({"listeners": "CLIENT://:9092"})
    cfg = BrokerConfig({"listeners": "CLIENT://:9092",
                        "listener.security.protocol.map": "CLIENT:PLAINTEXT"})
    assert cfg.listener_security_protocols == {"CLIENT": "PLAINTEXT"}


def test_log_dirs_falls_back_to_log_dir():
    assert BrokerConfig({"log.dir": "/d"}).log_dirs == ["/d"]
    assert BrokerConfig({"log.dir": "/d", "log.dirs": "/x,/y"}).log_dirs == ["/x", "/y"]
    with pytest.raises(ConfigError, match="Duplicate"):
        BrokerConfig({"log.dirs": "/x,/x"})


def test_consumer_group_timeouts_are_checked():
    with pytest.raises(ConfigError, match="heartbeat.interval.ms must be"):
        BrokerConfig({"group.consumer.heartbeat.interval.ms": "20000"})


# ---------------------------------------------------------------- retention precedence

@pytest.mark.parametrize("props, expected", [
    ({}, 168 * 3600_000),
    ({"log.retention.hours": "1"}, 3600_000),
    ({"log.retention.minutes": "5", "log.retention.hours": "1"}, 300_000),
    ({"log.retention.ms": "1234", "log.retention.minutes": "5", "log.retention.hours": "1"}, 1234),
    ({"log.retention.ms": "-1"}, -1),
    ({"log.retention.hours": "-1"}, -1),
    ({"log.retention.minutes": "-5"}, -1),
])
def test_retention_precedence(props, expected):
    cfg = BrokerConfig(props)
    assert cfg.retention_ms == expected
    assert topic_config({}, cfg).retention_ms == expected


def test_roll_and_flush_fallbacks():
    cfg = BrokerConfig({"log.roll.hours": "2", "log.flush.scheduler.interval.ms": "500"})
    assert cfg.roll_ms == 7_200_000 and cfg.flush_ms == 500
    tc = topic_config({}, cfg)
    assert tc.segment_ms == 7_200_000 and tc.flush_ms == 500
    cfg = BrokerConfig({"log.roll.ms": "10", "log.roll.hours": "2", "log.flush.interval.ms": "7",
                        "log.flush.scheduler.interval.ms": "500"})
    assert cfg.roll_ms == 10 and cfg.flush_ms == 7


# ---------------------------------------------------------------- dynamic broker configs

def test_set_dynamic_and_sources():
    cfg = BrokerConfig({"log.retention.ms": "1000"})
    cfg.set_dynamic("log.retention.ms", "2000", cluster_default=True)
    assert cfg.retention_ms == 2000
    assert cfg.source("log.retention.ms") == Source.DYNAMIC_DEFAULT_BROKER_CONFIG
    cfg.set_dynamic("log.retention.ms", "3000")
    assert cfg.retention_ms == 3000 and cfg.dynamic == {"log.retention.ms": "3000"}
    assert cfg.source("log.retention.ms") == Source.DYNAMIC_BROKER_CONFIG
    [entry] = cfg.describe(include_synonyms=True, names=["log.retention.ms"])
    assert entry.value == "3000" and entry.source == Source.DYNAMIC_BROKER_CONFIG
    assert not entry.read_only
    assert entry.synonyms == [
        ("log.retention.ms", "3000", Source.DYNAMIC_BROKER_CONFIG),
        ("log.retention.ms", "2000", Source.DYNAMIC_DEFAULT_BROKER_CONFIG),
        ("log.retention.ms", "1000", Source.STATIC_BROKER_CONFIG),
        ("log.retention.hours", "168", Source.DEFAULT_CONFIG),
    ]
    cfg.set_dynamic("log.retention.ms", None)
    assert cfg.retention_ms == 2000
    [entry] = cfg.describe(names=["log.retention.ms"], cluster_default=True)
    assert entry.value == "2000" and entry.source == Source.DYNAMIC_DEFAULT_BROKER_CONFIG


def test_dynamic_change_reaches_topic_defaults():
    cfg = BrokerConfig()
    cfg.set_dynamic("log.segment.bytes", "2097152")
    assert topic_config({}, cfg).segment_bytes == 2097152
    assert topic_config({"segment.bytes": "1048576"}, cfg).segment_bytes == 1048576


@pytest.mark.parametrize("name", ["listeners", "log.dirs", "broker.id", "num.partitions",
                                  "log.retention.hours", "log.flush.scheduler.interval.ms"])
def test_read_only_broker_configs(name):
    cfg = BrokerConfig()
    assert BROKER_CONFIGS[name].read_only
    with pytest.raises(ConfigError, match="Cannot update these configs dynamically"):
        cfg.set_dynamic(name, "1")


def test_dynamic_keys_follow_kafka():
    dynamic = {n for n, d in BROKER_CONFIGS.items() if not d.read_only}
    # Every broker synonym of highest precedence for a topic config is dynamic in Kafka.
    for d in TOPIC_CONFIGS.values():
        if d.synonyms:
            assert d.synonyms[0][0] in dynamic, d.name
    assert {"message.max.bytes", "log.cleaner.threads", "producer.id.expiration.ms"} <= dynamic


def test_failed_dynamic_change_leaves_config_unchanged():
    cfg = BrokerConfig()
    with pytest.raises(ConfigError):
        cfg.set_dynamic("log.segment.bytes", "12")
    with pytest.raises(ConfigError, match="Unknown broker config"):
        cfg.set_dynamic("nope", "1")
    assert cfg["log.segment.bytes"] == 1073741824 and cfg.dynamic == {}


def test_alter_dynamic_incremental():
    cfg = BrokerConfig()
    cfg.alter_dynamic([("log.cleanup.policy", AlterOp.APPEND, "compact"),
                       ("log.retention.bytes", AlterOp.SET, "100")])
    assert cfg["log.cleanup.policy"] == ["delete", "compact"] and cfg["log.retention.bytes"] == 100
    with pytest.raises(ConfigError, match="dynamically"):
        cfg.alter_dynamic([("num.partitions", AlterOp.SET, "3")])
    assert cfg["num.partitions"] == 1


def test_broker_describe_defaults_and_static():
    cfg = BrokerConfig({"log.retention.hours": "24", "num.partitions": "2"})
    entries = {e.name: e for e in cfg.describe(include_synonyms=True)}
    assert set(entries) == set(BROKER_CONFIGS)
    e = entries["num.partitions"]
    assert (e.value, e.source, e.read_only, e.is_sensitive, e.config_type) == \
        ("2", Source.STATIC_BROKER_CONFIG, True, False, ConfigType.INT)
    assert e.synonyms == [("num.partitions", "2", Source.STATIC_BROKER_CONFIG),
                          ("num.partitions", "1", Source.DEFAULT_CONFIG)]
    # log.retention.ms has no value of its own: null, DEFAULT_CONFIG, as Kafka reports it.
    e = entries["log.retention.ms"]
    assert (e.value, e.source, e.synonyms) == (None, Source.DEFAULT_CONFIG, [])
    e = entries["log.retention.hours"]
    assert e.value == "24" and e.source == Source.STATIC_BROKER_CONFIG
    assert entries["log.cleaner.io.max.bytes.per.second"].value == "1.7976931348623157E308"
    assert entries["log.cleanup.policy"].config_type == ConfigType.LIST
    assert all(e.synonyms == [] for e in cfg.describe())


# ---------------------------------------------------------------- topic resolution

def test_topic_resolution_typed_values():
    cfg = BrokerConfig({"log.cleanup.policy": "compact", "message.max.bytes": "2000000"})
    tc = topic_config({"retention.ms": "60000", "message.timestamp.type": "LogAppendTime",
                       "cleanup.policy": "compact, delete"}, cfg)
    assert tc.retention_ms == 60000
    assert tc.message_timestamp_type == "LogAppendTime"
    assert tc.cleanup_policy == ["compact", "delete"] and tc.compact and tc.delete
    assert tc.max_message_bytes == 2000000
    assert tc.retention_bytes == -1
    assert tc.segment_bytes == 1073741824
    assert tc.segment_index_bytes == 10485760
    assert tc.index_interval_bytes == 4096
    assert tc.flush_messages == LONG_MAX
    assert tc.message_timestamp_before_max_ms == LONG_MAX
    assert tc.message_timestamp_after_max_ms == 3600000
    assert tc.min_insync_replicas == 1
    assert tc.compression_type == "producer"
    assert tc["min.cleanable.dirty.ratio"] == 0.5
    assert topic_config({}, cfg).cleanup_policy == ["compact"]


def test_internal_segment_bytes_wins_and_is_not_described():
    tc = topic_config({"internal.segment.bytes": "1024"}, BrokerConfig())
    assert tc.segment_bytes == 1024
    assert "internal.segment.bytes" not in {e.name for e in tc.describe()}


def test_topic_describe_sources_and_synonyms():
    cfg = BrokerConfig({"log.retention.minutes": "10"})
    cfg.set_dynamic("log.retention.ms", "5000")
    tc = topic_config({"retention.ms": "1000"}, cfg)
    entries = {e.name: e for e in tc.describe(include_synonyms=True)}
    assert {e.name for e in tc.describe()} == {n for n, d in TOPIC_CONFIGS.items() if not d.internal}
    e = entries["retention.ms"]
    assert (e.value, e.source, e.read_only, e.config_type) == \
        ("1000", Source.DYNAMIC_TOPIC_CONFIG, False, ConfigType.LONG)
    assert e.synonyms == [
        ("retention.ms", "1000", Source.DYNAMIC_TOPIC_CONFIG),
        ("log.retention.ms", "5000", Source.DYNAMIC_BROKER_CONFIG),
        ("log.retention.minutes", "10", Source.STATIC_BROKER_CONFIG),
        ("log.retention.hours", "168", Source.DEFAULT_CONFIG),
    ]
    e = entries["segment.ms"]
    assert (e.value, e.source) == ("604800000", Source.DEFAULT_CONFIG)
    assert e.synonyms == [("log.roll.hours", "168", Source.DEFAULT_CONFIG)]
    e = entries["leader.replication.throttled.replicas"]
    assert (e.value, e.source, e.synonyms) == ("", Source.DEFAULT_CONFIG, [])


def test_topic_describe_without_override_takes_broker_source():
    cfg = BrokerConfig({"log.retention.minutes": "10"})
    [e] = topic_config({}, cfg).describe(names=["retention.ms"])
    assert (e.value, e.source, e.synonyms) == ("600000", Source.STATIC_BROKER_CONFIG, [])


# ---------------------------------------------------------------- validation

@pytest.mark.parametrize("name, value, normalized", [
    ("cleanup.policy", "compact", "compact"),
    ("cleanup.policy", "compact , delete", "compact,delete"),
    ("cleanup.policy", "delete,compact", "delete,compact"),
    ("cleanup.policy", "", ""),
    ("compression.type", "zstd", "zstd"),
    ("message.timestamp.type", "LogAppendTime", "LogAppendTime"),
    ("retention.ms", " -1 ", "-1"),
    ("retention.bytes", "-5", "-5"),
    ("preallocate", "TRUE", "true"),
    ("min.cleanable.dirty.ratio", "1", "1.0"),
    ("compression.gzip.level", "-1", "-1"),
    ("compression.zstd.level", "-131072", "-131072"),
    ("local.retention.ms", "-2", "-2"),
    ("leader.replication.throttled.replicas", "*", "*"),
    ("follower.replication.throttled.replicas", "0:1, 1:2", "0:1,1:2"),
])
def test_validate_topic_config_accepts(name, value, normalized):
    assert validate_topic_config(name, value) == normalized


@pytest.mark.parametrize("name, value, fragment", [
    ("no.such.config", "1", "Unknown topic config name: no.such.config"),
    ("cleanup.policy", "compact,purge", "String must be one of: compact, delete"),
    ("cleanup.policy", "Delete", "String must be one of"),
    ("compression.type", "none", "String must be one of"),
    ("message.timestamp.type", "createtime", "String must be one of"),
    ("retention.ms", "-2", "at least -1"),
    ("segment.bytes", "1048575", "at least 1048576"),
    ("segment.ms", "0", "at least 1"),
    ("min.insync.replicas", "0", "at least 1"),
    ("min.cleanable.dirty.ratio", "1.5", "no more than 1"),
    ("max.message.bytes", "1e6", "Not a number of type INT"),
    ("retention.ms", "1_000", "Not a number of type LONG"),
    ("min.cleanable.dirty.ratio", "0_5", "Not a number of type DOUBLE"),
    ("flush.messages", "0", "at least 1"),
    ("compression.gzip.level", "0", "between 1 and 9"),
    ("compression.lz4.level", "18", "no more than 17"),
    ("compression.zstd.level", "23", "no more than 22"),
    ("local.retention.bytes", "-3", "at least -2"),
    ("preallocate", "1", "true or false"),
    ("leader.replication.throttled.replicas", "0-1", "partitionId"),
    ("remote.storage.enable", "true", "Tiered Storage"),
])
def test_validate_topic_config_rejects(name, value, fragment):
    with pytest.raises(ConfigError) as e:
        validate_topic_config(name, value)
    assert fragment in str(e.value) and e.value.name == name


def test_compaction_lag_conflict():
    with pytest.raises(ConfigError, match="min.compaction.lag.ms"):
        validate_topic_configs({"min.compaction.lag.ms": "10", "max.compaction.lag.ms": "5"})
    cfg = BrokerConfig({"log.cleaner.max.compaction.lag.ms": "5"})
    with pytest.raises(ConfigError, match="conflict"):
        topic_config({"min.compaction.lag.ms": "10"}, cfg)


def test_topic_config_rejects_bad_overrides():
    with pytest.raises(ConfigError, match="segment.bytes"):
        topic_config({"segment.bytes": "x"}, BrokerConfig())


# ---------------------------------------------------------------- incremental ops

def test_incremental_set_delete():
    out = apply_incremental({"retention.ms": "1", "segment.ms": "5"},
                            [("retention.ms", AlterOp.SET, "2"), ("segment.ms", AlterOp.DELETE, None),
                             ("flush.ms", AlterOp.DELETE, None)])
    assert out == {"retention.ms": "2"}


def test_incremental_append_subtract_lists():
    out = apply_incremental({}, [("cleanup.policy", AlterOp.APPEND, "compact")])
    assert out == {"cleanup.policy": "delete,compact"}  # starts from Kafka's default
    out = apply_incremental(out, [("cleanup.policy", AlterOp.APPEND, "compact")])
    assert out == {"cleanup.policy": "delete,compact"}  # no duplicates
    out = apply_incremental(out, [("cleanup.policy", AlterOp.SUBTRACT, "delete")])
    assert out == {"cleanup.policy": "compact"}
    out = apply_incremental({}, [("leader.replication.throttled.replicas", 2, "0:1,1:1")])
    assert out == {"leader.replication.throttled.replicas": "0:1,1:1"}
    out = apply_incremental(out, [("leader.replication.throttled.replicas", 3, "0:1")])
    assert out == {"leader.replication.throttled.replicas": "1:1"}


@pytest.mark.parametrize("ops, fragment, invalid_request", [
    ([("retention.ms", AlterOp.APPEND, "1")], "because its type is not LIST", False),
    ([("compression.type", AlterOp.SUBTRACT, "gzip")], "because its type is not LIST", False),
    ([("cleanup.policy", AlterOp.APPEND, "purge")], "String must be one of", False),
    ([("no.such", AlterOp.SET, "1")], "Unknown topic config name", False),
    ([("retention.ms", AlterOp.SET, "x")], "Not a number", False),
    ([("retention.ms", AlterOp.SET, "1"), ("retention.ms", AlterOp.DELETE, None)], "Duplicate", True),
    ([("retention.ms", AlterOp.SET, None)], "Null value", True),
    ([("retention.ms", 9, "1")], "Unknown config operation", True),
])
def test_incremental_errors(ops, fragment, invalid_request):
    with pytest.raises(ConfigError) as e:
        apply_incremental({}, ops)
    assert fragment in str(e.value)
    assert e.value.invalid_request is invalid_request


def test_config_error_is_value_error():
    assert issubclass(ConfigError, ValueError)


# ---------------------------------------------------------------- package surface

def test_package_reexports_public_names():
    # kwire.config is a package of several modules; importers only ever use kwire.config.
    import kwire.config as config
    names = set(config.__all__) | {"INT_MAX", "LONG_MAX", "DOUBLE_MAX", "Range", "OneOf"}
    assert not {n for n in names if not hasattr(config, n)}
    assert set(config.__all__) == {
        "AlterOp", "BROKER_CONFIGS", "BrokerConfig", "ConfigDef", "ConfigEntry", "ConfigError",
        "ConfigSynonym", "ConfigType", "Listener", "Source", "TOPIC_CONFIGS", "TopicConfig",
        "apply_incremental", "parse_listeners", "parse_properties", "read_properties",
        "topic_config", "validate_topic_config", "validate_topic_configs",
    }


def test_import_uses_only_the_standard_library():
    # The broker imports kwire.config at start-up: it must stay cheap.
    import subprocess
    import sys
    code = ("import sys; before = set(sys.modules); import kwire.config; "
            "new = {m.partition('.')[0] for m in set(sys.modules) - before}; "
            "print(sorted(m for m in new if m != 'kwire' and m not in sys.stdlib_module_names))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- Kafka 4.3's whole surface (issue 11)

def test_kafka43_facts_are_well_formed_and_all_known():
    from kwire.config import kafka43

    facts = kafka43.load()
    assert kafka43.check(facts) == []
    assert {row[0] for row in facts["broker"]} <= set(BROKER_CONFIGS)
    assert "sasl.kerberos.min.time.before.relogin" in BROKER_CONFIGS
    d = BROKER_CONFIGS["sasl.kerberos.min.time.before.relogin"]
    assert (d.type, d.default, d.read_only, d.per_broker, d.acted) == (ConfigType.LONG, 60000, False, True, False)
    assert BROKER_CONFIGS["ssl.keystore.password"].sensitive
    assert BROKER_CONFIGS["background.threads"].per_broker is False  # cluster-wide


@pytest.mark.parametrize("name", ["message.format.version", "log.message.format.version",
                                  "message.downconversion.enable",
                                  "log.message.downconversion.enable"])
def test_names_removed_in_kafka_4_are_unknown(name):
    assert name not in BROKER_CONFIGS and name not in TOPIC_CONFIGS


def test_inter_broker_protocol_version_is_a_zookeeper_mode_config():
    """Removed in Kafka 4 like zookeeper.connect, kept like it: a Kafka 3.x ZooKeeper-mode config
    (it selects how followers validate their logs, kwire.config.ibp)."""
    from kwire.config.ibp import fetch_version_cap, parse_ibp, truncation_on_fetch

    assert BrokerConfig.load(None, {})["inter.broker.protocol.version"] == "3.9-IV0"
    assert BrokerConfig.load(None, {"inter.broker.protocol.version": "2.6"})["inter.broker.protocol.version"] == "2.6"
    for bad in ("4.0", "2.x", "", "0.7"):
        with pytest.raises(ConfigError, match="inter.broker.protocol.version"):
            BrokerConfig.load(None, {"inter.broker.protocol.version": bad})
    # Kafka's isTruncationOnFetchSupported: 2.7-IV1 and later; "2.7" is 2.7's latest IV
    assert [truncation_on_fetch(parse_ibp(v)) for v in ("2.6", "2.7-IV0", "2.7-IV1", "2.7", "3.9-IV0")] == \
        [False, False, True, True, True]
    assert [fetch_version_cap(parse_ibp(v)) for v in ("2.6", "2.3-IV1", "2.3-IV0", "2.7")] == [11, 11, 10, None]


def test_kafka43_validators_from_valid_values():
    from kwire.config import kafka43

    v = kafka43.validator("[1,...,17]", ConfigType.INT)
    v("x", 17)
    with pytest.raises(ConfigError):
        v("x", 18)
    v = kafka43.validator("(case insensitive) [DISABLED, DOWNGRADE, UPGRADE, BIDIRECTIONAL]", ConfigType.STRING)
    v("x", "upgrade")
    with pytest.raises(ConfigError):
        v("x", "sideways")
    assert kafka43.validator("non-null string", ConfigType.STRING) is None


def test_kafka43_rows_from_generated_html():
    from kwire.config import kafka43

    page = ('<li><h4><a id=a.b></a><a id=brokerconfigs_a.b href=#x>a.b</a></h4><p>prose</p>'
            '<table><tbody><tr><th>Type:</th><td>int</td></tr><tr><th>Default:</th>'
            '<td>60000 (1 minute)</td></tr><tr><th>Valid Values:</th><td>[0,...]</td></tr>'
            '<tr><th>Importance:</th><td>high</td></tr><tr><th>Update Mode:</th>'
            '<td>cluster-wide</td></tr></tbody></table></li>')
    assert kafka43.rows_from_html(page, "broker") == [["a.b", "int", "60000", "[0,...]", "cluster-wide"]]


def test_dev_defaults_without_a_file_code_defaults_with_one(tmp_path):
    dev = BrokerConfig.load(None, [])
    assert dev.dev_defaults and dev["group.initial.rebalance.delay.ms"] == 0
    assert dev["offsets.topic.replication.factor"] == 1 and dev["transaction.state.log.min.isr"] == 1
    assert dev.source("num.partitions") == Source.STATIC_BROKER_CONFIG
    assert dev.explicit == {}  # what the user set, not the embedded file
    empty = tmp_path / "empty.properties"
    empty.write_text("")
    kafka = BrokerConfig.load(str(empty), [])
    assert not kafka.dev_defaults and kafka["group.initial.rebalance.delay.ms"] == 3000
    assert kafka["offsets.topic.replication.factor"] == 3
    assert kafka.source("num.partitions") == Source.DEFAULT_CONFIG
    # overrides win over the embedded file
    assert BrokerConfig.load(None, ["group.initial.rebalance.delay.ms=50"])["group.initial.rebalance.delay.ms"] == 50


@pytest.mark.parametrize("override, key", [
    ("listeners=SSL://127.0.0.1:9093", "ssl.keystore.location"),  # served since issue 14, with a keystore
    ("listeners=SASL_PLAINTEXT://127.0.0.1:9093", "sasl.enabled.mechanisms"),  # GSSAPI default
    ("authorizer.class.name=org.example.Auth", "authorizer.class.name"),
    ("security.inter.broker.protocol=SASL_SSL", "security.inter.broker.protocol"),
    ("process.roles=broker", "process.roles"),
    ("controller.quorum.bootstrap.servers=a:1,b:2", "controller.quorum.bootstrap.servers"),
])
def test_unsafe_settings_refused_naming_key(override, key):
    with pytest.raises(ConfigError) as e:
        BrokerConfig.load(None, [override])
    assert e.value.name == key and key in str(e.value)


def test_protocol_map_to_an_unimplemented_protocol_refused():
    with pytest.raises(ConfigError) as e:
        BrokerConfig.load(None, ["listeners=CLIENT://127.0.0.1:0",
                                 "listener.security.protocol.map=CLIENT:SASL_SSL"])
    assert e.value.name == "ssl.keystore.location"  # SASL_SSL is served (issue 14), with a keystore
    with pytest.raises(ConfigError) as e:  # not one of Kafka's four protocols
        BrokerConfig.load(None, ["listeners=CLIENT://127.0.0.1:0", "listener.security.protocol.map=CLIENT:TLS"])
    assert e.value.name == "listener.security.protocol.map"
    assert "TLS, which is not a security protocol" in str(e.value)
    assert "Use one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL" in str(e.value)
    cfg = BrokerConfig.load(None, ["listeners=CLIENT://127.0.0.1:0",
                                   "listener.security.protocol.map=CLIENT:PLAINTEXT",
                                   "ssl.keymanager.algorithm=PKIX"])  # harmless without SSL listeners
    assert cfg.listener_security_protocols["CLIENT"] == "PLAINTEXT"
    assert "ssl.keymanager.algorithm" in cfg.not_acted()  # a Java-only name kwire does not act on


def test_per_broker_config_refused_at_cluster_default():
    cfg = BrokerConfig()
    with pytest.raises(ConfigError, match="broker id must be specified"):
        cfg.set_dynamic("sasl.enabled.mechanisms", "PLAIN", cluster_default=True)
    with pytest.raises(ConfigError, match="broker id must be specified"):
        cfg.alter_dynamic([("ssl.cipher.suites", 0, "X")], cluster_default=True)
    cfg.set_dynamic("sasl.enabled.mechanisms", "PLAIN")
    assert cfg.source("sasl.enabled.mechanisms") == Source.DYNAMIC_BROKER_CONFIG


def test_cluster_level_min_insync_replicas_kip_966():
    cfg = BrokerConfig.load(None, ["min.insync.replicas=2"])
    cfg.set_dynamic("min.insync.replicas", "3")  # a per-broker one from an older cluster
    assert cfg.ensure_cluster_min_isr()
    assert cfg.dynamic == {} and cfg.dynamic_default == {"min.insync.replicas": "2"}
    assert cfg.source("min.insync.replicas") == Source.DYNAMIC_DEFAULT_BROKER_CONFIG
    assert not cfg.ensure_cluster_min_isr()  # idempotent


def test_help_configs_lists_every_config(capsys):
    from kwire.cli import main

    assert main(["serve", "--help-configs"]) == 0
    out = capsys.readouterr().out
    assert "sasl.kerberos.min.time.before.relogin" in out and "acts=no" in out
    line = next(x for x in out.splitlines() if x.startswith("group.initial.rebalance.delay.ms "))
    assert "dev=0" in line and "file=3000" in line
