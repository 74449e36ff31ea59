"""Cluster metadata behind one interface: brokers, topics, partitions, leaders, configs.

``LocalMetadata`` is the single-node implementation (the embedded default): this
broker is the only broker, the controller, and the leader of every partition,
with replicas = isr = [this broker]. It persists topics (names, topic ids,
partition counts, leader epochs, per-topic config overrides), dynamic broker
configs, the cluster id and the next producer id in ``kwire-metadata.json`` in the first log dir,
written atomically (temp file, fsync, rename), plus Kafka's ``meta.properties``.

Leader election (KIP-460) and partition reassignment (KIP-455) are answered
here too, so that the ZooKeeper-backed implementation can act on them: with
one broker every partition's leader is already its preferred replica and no
reassignment is ever in progress, but the checks (unknown partitions, replica
sets naming unregistered brokers or one broker twice) are Kafka's.

Handlers read metadata only through this interface and never open files or
talk to ZooKeeper; a ZooKeeper-backed implementation with the same methods
comes with replication. It does not create or delete logs: the broker does
that when metadata changes.
"""

from __future__ import annotations

import base64
import json
import os
import re
import uuid
from dataclasses import dataclass, field

from kwire.protocol.errors import ErrorCode, KafkaError

_LEGAL_TOPIC = re.compile(r"^[a-zA-Z0-9._-]+$")
MAX_TOPIC_NAME = 249
INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state"})

# ElectLeaders election types (Kafka's org.apache.kafka.common.ElectionType)
PREFERRED_ELECTION, UNCLEAN_ELECTION = 0, 1
NO_LEADER = -1


def topic_name_error(name: str | None) -> str | None:
    """Why ``name`` is not a legal topic name (Kafka's rules), or None if it is."""
    if not name:
        return "Topic name is empty"
    if name in (".", ".."):
        return f"Topic name cannot be '{name}'"
    if len(name) > MAX_TOPIC_NAME:
        return f"Topic name is longer than {MAX_TOPIC_NAME} characters"
    if not _LEGAL_TOPIC.match(name):
        return f"Topic name '{name}' has characters other than ASCII alphanumerics, '.', '_' and '-'"
    return None


@dataclass
class BrokerInfo:
    node_id: int
    host: str
    port: int
    rack: str | None = None


@dataclass
class PartitionState:
    partition: int
    leader: int
    leader_epoch: int
    replicas: list[int]
    isr: list[int]


@dataclass
class OngoingReassignment:
    """A partition reassignment in progress (ListPartitionReassignments' shape)."""
    replicas: list[int]
    adding_replicas: list[int]
    removing_replicas: list[int]


@dataclass
class TopicState:
    name: str
    topic_id: uuid.UUID
    partitions: list[PartitionState]
    configs: dict[str, str] = field(default_factory=dict)

    @property
    def internal(self) -> bool:
        return self.name in INTERNAL_TOPICS


def new_cluster_id() -> str:
    """A Kafka-style cluster id: 22 characters of url-safe base64 of a random UUID."""
    return base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")


class LocalMetadata:
    FILE = "kwire-metadata.json"
    VERSION = 1

    def __init__(self, data_dir: str, node_id: int, host: str, port: int) -> None:
        self.data_dir = data_dir
        self.node_id = node_id
        self.self_broker = BrokerInfo(node_id, host, port)
        self.topics: dict[str, TopicState] = {}
        self.by_id: dict[uuid.UUID, TopicState] = {}
        self.cluster_id = ""
        self.next_producer_id = 0
        # dynamic broker configs (AlterConfigs on the broker resource): this broker's, and
        # the cluster-wide defaults (resource name "")
        self.dynamic_broker_configs: dict[str, str] = {}
        self.dynamic_default_broker_configs: dict[str, str] = {}
        self._load()

    # -- reads -------------------------------------------------------------------
    @property
    def controller_id(self) -> int:
        return self.node_id

    @property
    def brokers(self) -> list[BrokerInfo]:
        return [self.self_broker]

    def topic(self, name: str) -> TopicState | None:
        return self.topics.get(name)

    def topic_by_id(self, topic_id: uuid.UUID) -> TopicState | None:
        return self.by_id.get(topic_id)

    def partition(self, name: str, partition: int) -> PartitionState | None:
        t = self.topics.get(name)
        if t is None or not 0 <= partition < len(t.partitions):
            return None
        return t.partitions[partition]

    def ongoing_reassignments(self) -> dict[tuple[str, int], OngoingReassignment]:
        """Reassignments in progress by (topic, partition): none, as a reassignment
        to the only possible replica set ([this broker]) completes at once."""
        return {}

    def _existing_partition(self, name: str, partition: int, no_topic: str, no_partition: str) -> PartitionState:
        t = self.topics.get(name)
        if t is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, no_topic)
        if not 0 <= partition < len(t.partitions):
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, no_partition)
        return t.partitions[partition]

    def validate_replica_assignment(self, replicas: list[int]) -> None:
        """Kafka's checks of a manual replica assignment (INVALID_REPLICA_ASSIGNMENT)."""
        if not replicas:
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                             "The manual partition assignment includes an empty replica list.")
        registered = {b.node_id for b in self.brokers}
        seen: set[int] = set()
        for b in replicas:
            if b in seen:
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                                 f"The manual partition assignment includes the broker {b} more than once.")
            seen.add(b)
            if b not in registered:
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                                 f"The manual partition assignment includes broker {b}, "
                                 f"but no such broker is registered.")

    # -- writes ------------------------------------------------------------------
    def elect_leader(self, name: str, partition: int, election_type: int) -> None:
        """Elect ``partition``'s leader (KIP-460); raise KafkaError when there is nothing to do.

        PREFERRED: ELECTION_NOT_NEEDED when the leader is already the first
        replica. UNCLEAN: ELECTION_NOT_NEEDED when the partition has a leader.
        """
        p = self._existing_partition(name, partition, f"No such topic as {name}",
                                     f"No such partition as {name}-{partition}")
        if election_type == PREFERRED_ELECTION:
            needed = p.leader != p.replicas[0]
        else:
            needed = p.leader == NO_LEADER
        if not needed:
            raise KafkaError(ErrorCode.ELECTION_NOT_NEEDED, "Leader election not needed for topic partition.")
        # Unreachable with one broker (it leads every partition); kept for the interface.
        p.leader = p.replicas[0]
        p.leader_epoch += 1
        self.save()

    def alter_reassignment(self, name: str, partition: int, replicas: list[int] | None,
                           allow_replication_factor_change: bool = True) -> None:
        """Start (or, with ``replicas`` None, cancel) a reassignment (KIP-455, KIP-860).

        A target equal to the current replicas is a no-op; on one broker every
        valid target is, so nothing is ever left in progress.
        """
        p = self._existing_partition(name, partition, f"Unable to find a topic named {name}.",
                                     f"Unable to find partition {name}:{partition}.")
        if replicas is None:
            if (name, partition) not in self.ongoing_reassignments():
                raise KafkaError(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS)
            return
        self.validate_replica_assignment(replicas)
        if not allow_replication_factor_change and len(replicas) != len(p.replicas):
            raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                             f"The replication factor is changed from {len(p.replicas)} to {len(replicas)} "
                             f"but allowReplicationFactorChange is false")
        if list(replicas) != p.replicas:
            # A replica set of registered brokers other than the current one needs a second broker.
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                             f"Cannot reassign {name}-{partition} to {list(replicas)} without replication")

    def create_topic(self, name: str, num_partitions: int, configs: dict[str, str]) -> TopicState:
        t = TopicState(name, uuid.uuid4(), [], dict(configs))
        t.partitions = [self._new_partition(i) for i in range(num_partitions)]
        self.topics[name] = t
        self.by_id[t.topic_id] = t
        self.save()
        return t

    def delete_topic(self, name: str) -> TopicState:
        t = self.topics.pop(name)
        self.by_id.pop(t.topic_id, None)
        self.save()
        return t

    def add_partitions(self, name: str, total: int) -> list[PartitionState]:
        t = self.topics[name]
        new = [self._new_partition(i) for i in range(len(t.partitions), total)]
        t.partitions.extend(new)
        self.save()
        return new

    def set_topic_configs(self, name: str, configs: dict[str, str]) -> None:
        self.topics[name].configs = dict(configs)
        self.save()

    def set_dynamic_broker_configs(self, per_broker: dict[str, str], cluster_default: dict[str, str]) -> None:
        self.dynamic_broker_configs = dict(per_broker)
        self.dynamic_default_broker_configs = dict(cluster_default)
        self.save()

    def allocate_producer_id(self) -> int:
        pid = self.next_producer_id
        self.next_producer_id += 1
        self.save()
        return pid

    def _new_partition(self, index: int) -> PartitionState:
        return PartitionState(index, self.node_id, 0, [self.node_id], [self.node_id])

    # -- persistence ---------------------------------------------------------------
    @property
    def path(self) -> str:
        return os.path.join(self.data_dir, self.FILE)

    def _load(self) -> None:
        os.makedirs(self.data_dir, exist_ok=True)
        if not os.path.exists(self.path):
            self.cluster_id = new_cluster_id()
            self.save()
            self._write_meta_properties()
            return
        with open(self.path, encoding="utf-8") as f:
            doc = json.load(f)
        if doc.get("version") != self.VERSION:
            raise RuntimeError(f"{self.path}: unsupported metadata version {doc.get('version')}")
        self.cluster_id = doc["cluster_id"]
        self.next_producer_id = doc.get("next_producer_id", 0)
        self.dynamic_broker_configs = dict(doc.get("dynamic_broker_configs", {}))
        self.dynamic_default_broker_configs = dict(doc.get("dynamic_default_broker_configs", {}))
        for td in doc["topics"]:
            t = TopicState(
                td["name"],
                uuid.UUID(td["topic_id"]),
                [PartitionState(p["partition"], self.node_id, p["leader_epoch"], [self.node_id], [self.node_id])
                 for p in td["partitions"]],
                dict(td.get("configs", {})),
            )
            self.topics[t.name] = t
            self.by_id[t.topic_id] = t

    def save(self) -> None:
        doc = {
            "version": self.VERSION,
            "cluster_id": self.cluster_id,
            "next_producer_id": self.next_producer_id,
            "dynamic_broker_configs": self.dynamic_broker_configs,
            "dynamic_default_broker_configs": self.dynamic_default_broker_configs,
            "topics": [
                {
                    "name": t.name,
                    "topic_id": str(t.topic_id),
                    "partitions": [{"partition": p.partition, "leader_epoch": p.leader_epoch} for p in t.partitions],
                    "configs": t.configs,
                }
                for t in sorted(self.topics.values(), key=lambda t: t.name)
            ],
        }
        _atomic_write(self.path, json.dumps(doc, indent=1, sort_keys=True))

    def _write_meta_properties(self) -> None:
        text = f"version=1\ncluster.id={self.cluster_id}\nnode.id={self.node_id}\n"
        _atomic_write(os.path.join(self.data_dir, "meta.properties"), text)


def _atomic_write(path: str, text: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    dfd = os.open(os.path.dirname(path) or ".", os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
