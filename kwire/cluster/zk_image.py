"""The image of a ZooKeeper-mode cluster: ``MetadataImage`` plus replicas, leaders, ISR, brokers.

``ZkMetadata`` (``kwire.cluster.zookeeper``) turns what its ZooKeeper watches
report into records and replays them here; handlers read the result. Besides
the base image's records (``kwire.cluster.image``: ``cluster``,
``remove_topic``, ``broker_configs``, ...) it replays::

    {"type": "zk_topic", "name", "id", "partitions": {"0": [1,2,3]}, "adding": {}, "removing": {}}
    {"type": "zk_remove_topic", "name"}
    {"type": "zk_partition_state", "name", "partition", "state": None | {"leader", "leader_epoch",
     "isr", "controller_epoch", "zk_version"}}
    {"type": "zk_topic_configs", "name", "configs"}
    {"type": "zk_brokers", "brokers": [{"id", "host", "port", "rack", "endpoints": {listener: [host, port]}}]}
    {"type": "zk_controller", "id"}          {"type": "zk_controller_epoch", "epoch"}
    {"type": "zk_offline_replicas", "brokers": {"<id>": [[topic, partition], ...]}}
        (every broker's replicas in offline log dirs, all of /kwire/offline_replicas at once:
        ``offline_replicas[(topic, partition)]`` is the set of brokers whose replica is offline)

Each record carries the whole content of one znode, so replaying one twice,
or an older one after a newer one of a *different* znode, does no harm. A
topic's partitions come from its assignment; until the controller has written
a partition's state it has leader -1 and an empty ISR. Configs or states that
arrive before their topic's record (watches on different znodes race) are
kept and applied when it comes.

Not here: ZooKeeper (the records come from ``kwire.cluster.zookeeper``),
snapshots (a ZooKeeper image is rebuilt by reading ZooKeeper, not from disk).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from kwire.cluster import zk_layout as L
from kwire.cluster.image import MetadataImage, PartitionState, TopicState, unify
from kwire.cluster.metadata import BrokerInfo


@dataclass
class ZkPartitionState(PartitionState):
    controller_epoch: int = 0
    zk_version: int = -1  # the state znode's version (Kafka's partition epoch); -1: no state yet
    adding_replicas: list[int] | None = None
    removing_replicas: list[int] | None = None


class ZkImage(MetadataImage):
    """The image of a ZooKeeper cluster (records: see the module docstring)."""

    def __init__(self, node_id: int) -> None:
        super().__init__(node_id)
        self.brokers: dict[int, BrokerInfo] = {}
        self.controller_id = -1
        self.controller_epoch = L.INITIAL_CONTROLLER_EPOCH
        self._pending_configs: dict[str, dict[str, str]] = {}  # configs seen before the topic
        self._pending_states: dict[tuple[str, int], dict | None] = {}  # states seen before the topic
        self.offline_replicas: dict[tuple[str, int], set[int]] = {}  # replicas in offline log dirs

    def replay(self, r: dict) -> None:
        kind = r["type"]
        if kind == "zk_topic":
            self._replay_zk_topic(r)
        elif kind == "zk_remove_topic":
            t = self.topics.get(r["name"])
            if t is not None:
                self._remove(t)
            self._pending_configs.pop(r["name"], None)
            for key in [k for k in self._pending_states if k[0] == r["name"]]:
                del self._pending_states[key]
        elif kind == "zk_partition_state":
            t = self.topics.get(r["name"])
            if t is not None and 0 <= r["partition"] < len(t.partitions):
                self._set_state(t.partitions[r["partition"]], r["state"])
            elif r["state"] is not None:  # the topic's record is on its way (watch order)
                self._pending_states[(r["name"], r["partition"])] = r["state"]
        elif kind == "zk_topic_configs":
            t = self.topics.get(r["name"])
            if t is not None:
                t.configs = dict(r["configs"])
            else:
                self._pending_configs[r["name"]] = dict(r["configs"])
        elif kind == "zk_brokers":
            self.brokers = {b["id"]: BrokerInfo(b["id"], b["host"], b["port"], b.get("rack"),
                                                {n: (e[0], int(e[1]))
                                                 for n, e in (b.get("endpoints") or {}).items()})
                            for b in r["brokers"]}
        elif kind == "zk_controller":
            self.controller_id = r["id"]
        elif kind == "zk_controller_epoch":
            self.controller_epoch = r["epoch"]
        elif kind == "zk_offline_replicas":
            offline: dict[tuple[str, int], set[int]] = {}
            for b, parts in r["brokers"].items():
                for t, p in parts:
                    offline.setdefault((t, int(p)), set()).add(int(b))
            self.offline_replicas = offline
        else:
            super().replay(r)

    def _replay_zk_topic(self, r: dict) -> None:
        name, tid = r["name"], uuid.UUID(r["id"])
        assignment = {int(p): list(rs) for p, rs in r["partitions"].items()}
        adding = {int(p): list(rs) for p, rs in (r.get("adding") or {}).items()}
        removing = {int(p): list(rs) for p, rs in (r.get("removing") or {}).items()}
        t = self.topics.get(name)
        if t is not None and t.topic_id != tid:  # deleted and created again under the same name
            self._remove(t)
            t = None
        if t is None:
            t = TopicState(name, tid, [], self._pending_configs.pop(name, {}))
            self.topics[name] = t
            self.by_id[tid] = t
            self.unified.setdefault(unify(name), set()).add(name)
        count = max(assignment) + 1 if assignment else 0
        del t.partitions[count:]
        for i in range(count):
            replicas = assignment.get(i, [])
            if i < len(t.partitions):
                p = t.partitions[i]
                p.replicas = replicas
            else:
                p = ZkPartitionState(i, L.NO_LEADER, 0, replicas, [])
                t.partitions.append(p)
            p.adding_replicas = adding.get(i) or None
            p.removing_replicas = removing.get(i) or None
            if (name, i) in self._pending_states:
                self._set_state(p, self._pending_states.pop((name, i)))

    @staticmethod
    def _set_state(p: "ZkPartitionState", s: dict | None) -> None:
        if s is None:
            p.leader, p.isr, p.zk_version = L.NO_LEADER, [], -1
        else:
            p.leader, p.leader_epoch, p.isr = s["leader"], s["leader_epoch"], list(s["isr"])
            p.controller_epoch, p.zk_version = s["controller_epoch"], s["zk_version"]

    def snapshot_records(self):
        raise NotImplementedError("a ZooKeeper image is rebuilt from ZooKeeper, not from snapshots")
