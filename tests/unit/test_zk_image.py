"""ZkImage: the ZooKeeper-mode image changes only by replaying records (no ZooKeeper here)."""

from __future__ import annotations

import uuid

from kwire.cluster.zk_image import ZkImage


def topic(name, tid, partitions, **kw):
    return {"type": "zk_topic", "name": name, "id": str(tid), "partitions": partitions, **kw}


def state(name, p, leader, epoch, isr, version=0):
    return {"type": "zk_partition_state", "name": name, "partition": p,
            "state": {"leader": leader, "leader_epoch": epoch, "isr": isr, "controller_epoch": 1,
                      "zk_version": version}}


def test_topic_partitions_and_states():
    img = ZkImage(1)
    tid = uuid.uuid4()
    img.replay(topic("t", tid, {"0": [1, 2], "1": [2, 1]}))
    t = img.topics["t"]
    assert img.by_id[tid] is t and [p.replicas for p in t.partitions] == [[1, 2], [2, 1]]
    assert [(p.leader, p.isr, p.zk_version) for p in t.partitions] == [(-1, [], -1), (-1, [], -1)]
    img.replay(state("t", 1, 2, 0, [2, 1]))
    assert (t.partitions[1].leader, t.partitions[1].isr, t.partitions[1].zk_version) == (2, [2, 1], 0)
    # new partitions keep the existing partitions' state
    img.replay(topic("t", tid, {"0": [1, 2], "1": [2, 1], "2": [1, 2]}))
    assert img.topics["t"] is t and len(t.partitions) == 3 and t.partitions[1].leader == 2
    # the state znode gone: no leader
    img.replay({"type": "zk_partition_state", "name": "t", "partition": 1, "state": None})
    assert (t.partitions[1].leader, t.partitions[1].isr) == (-1, [])


def test_configs_and_states_seen_before_their_topic_are_kept():
    img = ZkImage(1)
    tid = uuid.uuid4()
    img.replay({"type": "zk_topic_configs", "name": "t", "configs": {"retention.ms": "1"}})
    img.replay(state("t", 0, 1, 3, [1], version=4))
    assert "t" not in img.topics
    img.replay(topic("t", tid, {"0": [1]}))
    t = img.topics["t"]
    assert t.configs == {"retention.ms": "1"}
    assert (t.partitions[0].leader, t.partitions[0].leader_epoch, t.partitions[0].zk_version) == (1, 3, 4)


def test_recreated_topic_replaces_the_old_one():
    img = ZkImage(1)
    old, new = uuid.uuid4(), uuid.uuid4()
    img.replay(topic("t", old, {"0": [1]}))
    img.replay(state("t", 0, 1, 5, [1]))
    img.replay(topic("t", new, {"0": [1], "1": [1]}))
    t = img.topics["t"]
    assert t.topic_id == new and old not in img.by_id and img.by_id[new] is t
    assert t.partitions[0].leader_epoch == 0, "nothing carried over from the deleted topic"
    img.replay({"type": "zk_remove_topic", "name": "t"})
    assert img.topics == {} and img.by_id == {} and img.unified == {}


def test_brokers_controller_and_base_records():
    img = ZkImage(1)
    img.replay({"type": "zk_brokers", "brokers": [{"id": 2, "host": "h2", "port": 2, "rack": "r"},
                                                  {"id": 1, "host": "h1", "port": 1, "rack": None}]})
    assert sorted(img.brokers) == [1, 2] and img.brokers[2].rack == "r"
    img.replay({"type": "zk_controller", "id": 2})
    img.replay({"type": "zk_controller_epoch", "epoch": 7})
    img.replay({"type": "cluster", "cluster_id": "abc"})
    img.replay({"type": "broker_configs", "broker": {"a": "1"}, "default": {"b": "2"}})
    assert (img.controller_id, img.controller_epoch, img.cluster_id) == (2, 7, "abc")
    assert (img.dynamic_broker_configs, img.dynamic_default_broker_configs) == ({"a": "1"}, {"b": "2"})


def test_offline_replicas_are_replaced_whole():
    img = ZkImage(1)
    img.replay({"type": "zk_offline_replicas", "brokers": {"1": [["t", 0], ["t", 1]], "2": [["t", 0]]}})
    assert img.offline_replicas == {("t", 0): {1, 2}, ("t", 1): {1}}
    # broker 2's record is gone (its session ended): only broker 1's remain
    img.replay({"type": "zk_offline_replicas", "brokers": {"1": [["t", 1]]}})
    assert img.offline_replicas == {("t", 1): {1}}
