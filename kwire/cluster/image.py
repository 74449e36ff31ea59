"""The cluster metadata as an in-memory image that changes only by replaying records.

A metadata *record* is a small dict naming one change, in the spirit of
KRaft's ``__cluster_metadata`` record types (one node, so a topic's
partitions, replicas and ISR are implied by its partition count)::

    {"type": "cluster", "cluster_id": "..."}                         (KRaft: none; meta.properties)
    {"type": "topic", "name": "t", "id": "<uuid>", "partitions": 3,
     "configs": {...}, "epochs": [0, 2, 0]}                          TopicRecord + PartitionRecords
                                                                     + ConfigRecords; "epochs" only
                                                                     in snapshots, when not all 0
    {"type": "remove_topic", "id": "<uuid>"}                         RemoveTopicRecord
    {"type": "partitions", "id": "<uuid>", "count": 5}               PartitionRecord (new partitions)
    {"type": "partition_change", "id": "<uuid>", "partition": 0,
     "leader_epoch": 3}                                              PartitionChangeRecord
    {"type": "topic_configs", "id": "<uuid>", "configs": {...}}      ConfigRecord (whole set)
    {"type": "broker_configs", "broker": {...}, "default": {...}}    ConfigRecord (broker resource)
    {"type": "producer_ids", "next": 2000}                           ProducerIdsRecord (block end)
    {"type": "group_configs", "group": "g", "configs": {...}}        ConfigRecord (GROUP resource,
                                                                     whole set; {} removes it)
    {"type": "client_metrics", "name": "s", "configs": {...}}        ConfigRecord (CLIENT_METRICS
                                                                     resource, whole set; {} removes)

``MetadataImage.replay`` is the only code that changes an image: the live
image the handlers read, the committed image the metadata log keeps for its
snapshots, and the image rebuilt at start-up (snapshot + log) all replay the
same records. ``snapshot_records`` is the inverse: records that rebuild the
image from nothing.

Invariants: ``topics`` and ``by_id`` hold the same TopicState objects;
``unified`` maps each name with '.' replaced by '_' to the topics that have it
(for Kafka's collision check, without a scan of every topic). Replay is
tolerant: a change naming a topic id that is not there (already removed) is
ignored, and an unknown record type is skipped with a warning, so a newer
kwire's log does not stop an older one from starting.

Not here: files, framing, durability (``kwire.cluster.metadata_log``), and the
rules for what may change (``kwire.cluster.metadata.LocalMetadata``).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field

log = logging.getLogger("kwire.cluster")

INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state"})


@dataclass
class PartitionState:
    partition: int
    leader: int
    leader_epoch: int
    replicas: list[int]
    isr: list[int]


@dataclass
class TopicState:
    name: str
    topic_id: uuid.UUID
    partitions: list[PartitionState]
    configs: dict[str, str] = field(default_factory=dict)

    @property
    def internal(self) -> bool:
        return self.name in INTERNAL_TOPICS


def unify(name: str) -> str:
    """Kafka treats '.' and '_' alike when checking topic names for collisions."""
    return name.replace(".", "_")


class MetadataImage:
    def __init__(self, node_id: int) -> None:
        self.node_id = node_id
        self.cluster_id = ""
        self.topics: dict[str, TopicState] = {}
        self.by_id: dict[uuid.UUID, TopicState] = {}
        self.unified: dict[str, set[str]] = {}
        # the end of the last producer id block handed to this broker (ids below it are used)
        self.producer_id_block_end = 0
        self.dynamic_broker_configs: dict[str, str] = {}
        self.dynamic_default_broker_configs: dict[str, str] = {}
        # KIP-848 group configs by group id, KIP-714 client metrics subscriptions by name. Both
        # dicts are changed in place (never replaced), so a reader may keep a reference.
        self.group_configs: dict[str, dict[str, str]] = {}
        self.client_metrics: dict[str, dict[str, str]] = {}
        # security (kwire.security): SCRAM credentials by user then mechanism (salted, iterated:
        # kwire.security.scram.ScramCredential.to_record), and ACL bindings (tuples of codes)
        self.scram_credentials: dict[str, dict[str, dict]] = {}
        self.acls: set = set()
        # client quotas (kwire.security.client_quotas): entity (sorted (type, name|None) pairs) ->
        # {key: value}; changed in place, so a reader may keep a reference
        self.client_quotas: dict[tuple, dict[str, float]] = {}

    @classmethod
    def from_records(cls, node_id: int, records) -> "MetadataImage":
        image = cls(node_id)
        for r in records:
            image.replay(r)
        return image

    def copy(self) -> "MetadataImage":
        return MetadataImage.from_records(self.node_id, self.snapshot_records())

    # -- replay -------------------------------------------------------------------
    def replay(self, r: dict) -> None:
        kind = r["type"]
        if kind == "topic":
            self._replay_topic(r)
        elif kind == "remove_topic":
            t = self.by_id.get(uuid.UUID(r["id"]))
            if t is not None:
                self._remove(t)
        elif kind == "partitions":
            t = self.by_id.get(uuid.UUID(r["id"]))
            if t is not None:
                t.partitions.extend(self._partition(i, 0) for i in range(len(t.partitions), r["count"]))
                del t.partitions[r["count"]:]
        elif kind == "partition_change":
            t = self.by_id.get(uuid.UUID(r["id"]))
            if t is not None and 0 <= r["partition"] < len(t.partitions):
                t.partitions[r["partition"]].leader_epoch = r["leader_epoch"]
        elif kind == "topic_configs":
            t = self.by_id.get(uuid.UUID(r["id"]))
            if t is not None:
                t.configs = dict(r["configs"])
        elif kind == "broker_configs":
            self.dynamic_broker_configs = dict(r["broker"])
            self.dynamic_default_broker_configs = dict(r["default"])
        elif kind == "group_configs":
            _set_or_remove(self.group_configs, r["group"], r["configs"])
        elif kind == "client_metrics":
            _set_or_remove(self.client_metrics, r["name"], r["configs"])
        elif kind == "scram_credential":
            creds = self.scram_credentials.setdefault(r["user"], {})
            if r.get("credential"):
                creds[r["mechanism"]] = dict(r["credential"])
            else:
                creds.pop(r["mechanism"], None)
            if not creds:
                del self.scram_credentials[r["user"]]
        elif kind == "client_quota":
            entity = tuple(sorted(tuple(pair) for pair in r["entity"]))
            if r["values"]:
                self.client_quotas[entity] = dict(r["values"])
            else:
                self.client_quotas.pop(entity, None)
        elif kind == "acls":
            from kwire.security.acl import AclBinding

            bindings = {AclBinding(*b) for b in r["acls"]}
            if r["add"]:
                self.acls |= bindings
            else:
                self.acls -= bindings
        elif kind == "producer_ids":
            self.producer_id_block_end = r["next"]
        elif kind == "cluster":
            self.cluster_id = r["cluster_id"]
        else:
            log.warning("skipping a cluster metadata record of unknown type %r", kind)

    def _partition(self, index: int, epoch: int) -> PartitionState:
        return PartitionState(index, self.node_id, epoch, [self.node_id], [self.node_id])

    def _replay_topic(self, r: dict) -> None:
        name = r["name"]
        old = self.topics.get(name)
        if old is not None:
            self._remove(old)
        epochs = r.get("epochs") or [0] * r["partitions"]
        t = TopicState(name, uuid.UUID(r["id"]), [self._partition(i, e) for i, e in enumerate(epochs)],
                       dict(r.get("configs") or {}))
        self.topics[name] = t
        self.by_id[t.topic_id] = t
        self.unified.setdefault(unify(name), set()).add(name)

    def _remove(self, t: TopicState) -> None:
        self.topics.pop(t.name, None)
        self.by_id.pop(t.topic_id, None)
        names = self.unified.get(unify(t.name))
        if names is not None:
            names.discard(t.name)
            if not names:
                del self.unified[unify(t.name)]

    # -- records that rebuild this image ----------------------------------------------
    def snapshot_records(self):
        yield {"type": "cluster", "cluster_id": self.cluster_id}
        yield {"type": "producer_ids", "next": self.producer_id_block_end}
        yield {"type": "broker_configs", "broker": dict(self.dynamic_broker_configs),
               "default": dict(self.dynamic_default_broker_configs)}
        for group, configs in list(self.group_configs.items()):
            yield {"type": "group_configs", "group": group, "configs": dict(configs)}
        for name, configs in list(self.client_metrics.items()):
            yield {"type": "client_metrics", "name": name, "configs": dict(configs)}
        for user, creds in list(self.scram_credentials.items()):
            for mechanism, cred in creds.items():
                yield {"type": "scram_credential", "user": user, "mechanism": mechanism, "credential": dict(cred)}
        if self.acls:
            yield {"type": "acls", "add": True, "acls": [list(b) for b in sorted(self.acls)]}
        for entity, values in list(self.client_quotas.items()):
            yield {"type": "client_quota", "entity": [list(p) for p in entity], "values": dict(values)}
        for t in list(self.topics.values()):
            yield topic_record(t)


def _set_or_remove(table: dict[str, dict[str, str]], key: str, configs: dict) -> None:
    if configs:
        table[key] = dict(configs)
    else:
        table.pop(key, None)


def topic_record(t: TopicState) -> dict:
    r = {"type": "topic", "name": t.name, "id": str(t.topic_id), "partitions": len(t.partitions),
         "configs": dict(t.configs)}
    epochs = [p.leader_epoch for p in t.partitions]
    if any(epochs):
        r["epochs"] = epochs
    return r
