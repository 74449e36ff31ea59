"""Kafka's ZooKeeper layout (kwire.cluster.zk_layout), placement and leader election: pure functions."""

from __future__ import annotations

import json
import random
import uuid

import pytest

from kwire.cluster import zk_layout as L
from kwire.cluster.controller import elect_after_change
from kwire.cluster.placement import assign_replicas, rack_alternated_brokers
from kwire.protocol.errors import ErrorCode, KafkaError


def test_paths():
    assert L.broker_path(3) == "/brokers/ids/3"
    assert L.topic_path("t") == "/brokers/topics/t"
    assert L.partition_state_path("t", 2) == "/brokers/topics/t/partitions/2/state"
    assert L.topic_config_path("t") == "/config/topics/t"
    assert L.broker_config_path(L.DEFAULT_BROKER_ENTITY) == "/config/brokers/<default>"
    assert L.delete_topic_path("t") == "/admin/delete_topics/t"
    assert set(L.PERSISTENT_PATHS) >= {"/brokers/ids", "/brokers/topics", "/config/changes", "/admin/delete_topics",
                                      "/brokers/seqid", "/isr_change_notification", "/latest_producer_id_block",
                                      "/config/topics", "/config/brokers"}


@pytest.mark.parametrize("connect,hosts,chroot", [
    ("127.0.0.1:2181", "127.0.0.1:2181", ""),
    ("a:1,b:2/kafka", "a:1,b:2", "/kafka"),
    ("a:1/kafka/prod", "a:1", "/kafka/prod"),
    ("a:1/", "a:1", ""),
])
def test_parse_connect(connect, hosts, chroot):
    assert L.parse_connect(connect) == (hosts, chroot)


@pytest.mark.parametrize("bad", ["a:1/kafka/", "a:1//x", "/kafka"])
def test_parse_connect_refuses_bad_chroots(bad):
    with pytest.raises(ValueError):
        L.parse_connect(bad)


def test_broker_registration_json():
    raw = L.encode_broker(1, "h", 9092, rack="r1", timestamp_ms=1234)
    assert json.loads(raw) == {
        "version": 5, "host": "h", "port": 9092, "endpoints": ["PLAINTEXT://h:9092"], "jmx_port": -1,
        "timestamp": "1234", "listener_security_protocol_map": {"PLAINTEXT": "PLAINTEXT"}, "features": {},
        "rack": "r1"}
    b = L.decode_broker(1, raw)
    assert (b.broker_id, b.host, b.port, b.rack, b.timestamp) == (1, "h", 9092, "r1", 1234)
    assert "rack" not in json.loads(L.encode_broker(1, "h", 9092))


def test_broker_without_plaintext_endpoint_uses_first_endpoint():
    raw = L.encode_broker(2, "h", 1, endpoints=[("SSL", "10.0.0.1", 9093, "SSL")])
    obj = json.loads(raw)
    assert (obj["host"], obj["port"]) == (None, -1)
    b = L.decode_broker(2, raw)
    assert (b.host, b.port) == ("10.0.0.1", 9093)


def test_decode_kafka_2x_v4_registration():
    raw = (b'{"listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT"},"endpoints":["PLAINTEXT://k1:9092"],'
           b'"jmx_port":-1,"host":"k1","timestamp":"1600000000000","port":9092,"version":4}')
    b = L.decode_broker(7, raw)
    assert (b.broker_id, b.host, b.port, b.rack, b.version) == (7, "k1", 9092, None, 4)


def test_topic_json_round_trip():
    tid = uuid.uuid4()
    raw = L.encode_topic(tid, {1: [2, 3, 1], 0: [1, 2, 3]})
    assert json.loads(raw) == {"version": 3, "topic_id": L.encode_topic_id(tid),
                               "partitions": {"0": [1, 2, 3], "1": [2, 3, 1]},
                               "adding_replicas": {}, "removing_replicas": {}}
    a = L.decode_topic(raw)
    assert a.topic_id == tid and a.partitions == {0: [1, 2, 3], 1: [2, 3, 1]}
    assert len(L.encode_topic_id(tid)) == 22  # Kafka's Uuid.toString: url-safe base64, no padding
    # a Kafka 2.x topic znode (version 2, no topic id) still reads
    old = L.decode_topic(b'{"version":2,"partitions":{"0":[1]},"adding_replicas":{},"removing_replicas":{}}')
    assert old.topic_id is None and old.partitions == {0: [1]}


def test_partition_state_json():
    raw = L.encode_partition_state(1, 4, [1, 2], 7)
    assert json.loads(raw) == {"controller_epoch": 7, "leader": 1, "version": 1, "leader_epoch": 4, "isr": [1, 2]}
    s = L.decode_partition_state(raw, zk_version=3)
    assert (s.leader, s.leader_epoch, s.isr, s.controller_epoch, s.zk_version) == (1, 4, [1, 2], 7, 3)
    assert L.decode_partition_state(None) is None


def test_small_znodes():
    assert json.loads(L.encode_cluster_id("abc")) == {"version": "1", "id": "abc"}
    assert L.decode_cluster_id(L.encode_cluster_id("abc")) == "abc"
    assert json.loads(L.encode_controller(2, 99)) == {"version": 1, "brokerid": 2, "timestamp": "99"}
    assert L.decode_controller(L.encode_controller(2)) == 2
    assert L.encode_controller_epoch(12) == b"12" and L.decode_controller_epoch(b"12") == 12
    assert L.decode_controller_epoch(None) == 0
    assert json.loads(L.encode_config({"a": 1})) == {"version": 1, "config": {"a": "1"}}
    assert L.decode_config(None) == {}
    assert json.loads(L.encode_config_change("topics", "t")) == {"version": 2, "entity_path": "topics/t"}
    assert L.decode_isr_change(L.encode_isr_change([("t", 1)])) == [("t", 1)]


def test_producer_id_blocks():
    first = L.next_producer_id_block(None, 1, 1000)
    assert (first.block_start, first.block_end, first.size) == (0, 999, 1000)
    assert json.loads(L.encode_producer_id_block(first)) == {"version": 1, "broker": 1, "block_start": "0",
                                                             "block_end": "999"}
    second = L.next_producer_id_block(L.decode_producer_id_block(L.encode_producer_id_block(first)), 2, 1000)
    assert (second.broker_id, second.block_start, second.block_end) == (2, 1000, 1999)


# -- placement (Kafka's AdminUtils tests) ---------------------------------------------------
def test_rack_unaware_assignment_matches_kafka():
    brokers = [(b, None) for b in range(5)]
    expected = {0: [0, 1, 2], 1: [1, 2, 3], 2: [2, 3, 4], 3: [3, 4, 0], 4: [4, 0, 1],
                5: [0, 2, 3], 6: [1, 3, 4], 7: [2, 4, 0], 8: [3, 0, 1], 9: [4, 1, 2]}
    assert assign_replicas(brokers, 10, 3, fixed_start_index=0) == expected


def test_rack_alternated_broker_list():
    racks = {0: "rack1", 1: "rack3", 2: "rack3", 3: "rack2", 4: "rack2", 5: "rack1"}
    assert rack_alternated_brokers(racks) == [0, 3, 1, 5, 4, 2]


def test_rack_aware_assignment_spreads_racks():
    racks = {0: "rack1", 1: "rack2", 2: "rack2", 3: "rack3", 4: "rack3", 5: "rack1"}
    brokers = list(racks.items())
    for seed in range(20):
        out = assign_replicas(brokers, 12, 3, rng=random.Random(seed))
        assert sorted(out) == list(range(12))
        for replicas in out.values():
            assert len(set(replicas)) == 3
            assert len({racks[b] for b in replicas}) == 3  # one replica per rack
        leaders = [r[0] for r in out.values()]
        assert all(leaders.count(b) == 2 for b in racks)  # preferred leaders balanced


def test_rack_aware_fixed_start_matches_kafka():
    # AdminRackAwareTest.testGetRackAlternatedBrokerListAndAssignReplicasToBrokers
    racks = {0: "rack1", 1: "rack3", 2: "rack3", 3: "rack2", 4: "rack2", 5: "rack1"}
    assert rack_alternated_brokers({b: r for b, r in racks.items() if b != 5}) == [0, 3, 1, 4, 2]
    out = assign_replicas(list(racks.items()), 7, 3, fixed_start_index=0, start_partition_id=0)
    assert out == {0: [0, 3, 1], 1: [3, 1, 5], 2: [1, 5, 4], 3: [5, 4, 2], 4: [4, 2, 0], 5: [2, 0, 3],
                   6: [0, 4, 2]}


def test_random_start_is_random_but_balanced():
    brokers = [(b, None) for b in (1, 2, 3)]
    firsts = {assign_replicas(brokers, 1, 3, rng=random.Random(s))[0][0] for s in range(30)}
    assert firsts == {1, 2, 3}
    out = assign_replicas(brokers, 6, 3, rng=random.Random(1))
    assert sorted(r[0] for r in out.values()) == [1, 1, 2, 2, 3, 3]
    assert all(sorted(r) == [1, 2, 3] for r in out.values())


def test_placement_errors():
    with pytest.raises(KafkaError) as e:
        assign_replicas([(1, None), (2, None)], 3, 3)
    assert e.value.code == ErrorCode.INVALID_REPLICATION_FACTOR
    assert "larger than available brokers: 2" in e.value.message
    with pytest.raises(KafkaError) as e:
        assign_replicas([(1, None)], 1, 0)
    assert e.value.code == ErrorCode.INVALID_REPLICATION_FACTOR
    with pytest.raises(KafkaError) as e:
        assign_replicas([(1, None)], 0, 1)
    assert e.value.code == ErrorCode.INVALID_PARTITIONS
    with pytest.raises(KafkaError) as e:
        assign_replicas([(1, "r1"), (2, None)], 1, 1)
    assert "rack information" in e.value.message


def test_new_partitions_continue_the_pattern():
    brokers = [(b, None) for b in range(5)]
    whole = assign_replicas(brokers, 10, 3, fixed_start_index=0)
    tail = assign_replicas(brokers, 5, 3, fixed_start_index=0, start_partition_id=5)
    assert tail == {p: whole[p] for p in range(5, 10)}


# -- leader election after broker changes ---------------------------------------------------------
def st(leader, isr, epoch=3):
    return L.LeaderAndIsr(leader, epoch, isr, 1, 5)


def test_election_rules():
    replicas = [1, 2, 3]
    assert elect_after_change(st(1, [1, 2, 3]), replicas, {1, 2, 3}) is None
    assert elect_after_change(st(1, [1, 2, 3]), replicas, {1, 3}) == (1, [1, 3])        # follower gone
    assert elect_after_change(st(1, [1, 2, 3]), replicas, {2, 3}) == (2, [2, 3])        # leader gone
    assert elect_after_change(st(1, [1, 3]), replicas, {2, 3}) == (3, [3])              # 2 not in ISR
    assert elect_after_change(st(1, [1]), replicas, {2, 3}) == (L.NO_LEADER, [1])       # offline, ISR kept
    assert elect_after_change(st(L.NO_LEADER, [1]), replicas, {2, 3}) is None
    assert elect_after_change(st(L.NO_LEADER, [1]), replicas, {1, 2}) == (1, [1])       # ISR member back


def test_log_dir_event_and_offline_replicas_json():
    # Kafka's LogDirEventNotificationSequenceZNode: the path prefix and the JSON
    assert L.LOG_DIR_EVENT_NOTIFICATION == "/log_dir_event_notification"
    assert L.LOG_DIR_EVENT_NOTIFICATION in L.PERSISTENT_PATHS
    assert json.loads(L.encode_log_dir_event(3)) == {"version": 1, "broker": 3, "event": 1}
    assert L.decode_log_dir_event(L.encode_log_dir_event(3)) == 3
    assert L.decode_log_dir_event(b"not json") is None and L.decode_log_dir_event(None) is None
    assert L.offline_replicas_path(2) == "/kwire/offline_replicas/2"
    parts = [("t", 0), ("u-x", 7)]
    assert json.loads(L.encode_offline_replicas(parts)) == {
        "version": 1, "partitions": [{"topic": "t", "partition": 0}, {"topic": "u-x", "partition": 7}]}
    assert L.decode_offline_replicas(L.encode_offline_replicas(parts)) == parts
    assert L.decode_offline_replicas(None) == []


def test_group_config_path_encodes_any_group_id():
    """GROUP config resources (kwire-specific znodes): any group id, '/' included, is one znode."""
    for group in ("g", "a/b", "share:x y%", "ü"):
        path = L.group_config_path(group)
        parent, _, node = path.rpartition("/")
        assert parent == L.GROUP_CONFIGS and "/" not in node
        assert L.group_of_config_node(node) == group
