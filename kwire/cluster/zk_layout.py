"""Kafka's ZooKeeper layout: znode paths and their JSON, sans-I/O.

The paths and encodings are those of Kafka 2.x/3.x in ZooKeeper mode
(``kafka.zk.ZkData``), so a ZooKeeper tree written by kwire reads like one
written by Kafka (and ``zookeeper-shell`` / Kafka's tools make sense of it)::

    /cluster/id                                {"version":"1","id":"<22 chars>"}
    /controller                 (ephemeral)    {"version":1,"brokerid":1,"timestamp":"<ms>"}
    /controller_epoch                          "7"  (a decimal integer, not JSON)
    /brokers/ids/<id>           (ephemeral)    {"version":5,"host","port","endpoints":[...],
                                                "listener_security_protocol_map":{...},"jmx_port":-1,
                                                "timestamp":"<ms>","features":{}[, "rack"]}
    /brokers/topics/<t>                        {"version":3,"topic_id":"<base64 uuid>",
                                                "partitions":{"0":[1,2,3]},
                                                "adding_replicas":{},"removing_replicas":{}}
    /brokers/topics/<t>/partitions/<p>/state   {"controller_epoch":1,"leader":1,"version":1,
                                                "leader_epoch":0,"isr":[1,2,3]}
    /brokers/seqid                             (empty; broker id generation)
    /config/topics/<t>, /config/brokers/<id>, /config/brokers/<default>
                                               {"version":1,"config":{"k":"v"}}
    /config/changes/config_change_<seq>        {"version":2,"entity_path":"topics/<t>"}
    /admin/delete_topics/<t>                   (empty; the controller deletes the topic)
    /isr_change_notification/isr_change_<seq>  {"version":1,"partitions":[{"topic":"t","partition":0}]}
    /latest_producer_id_block                  {"version":1,"broker":1,"block_start":"0","block_end":"999"}
    /log_dir_event_notification/log_dir_event_<seq>
                                               {"version":1,"broker":1,"event":1}  (Kafka's: a broker
                                               lost a log dir; the controller handles and deletes it)
    /kwire/config/groups/<group>  {"version":1,"config":{...}}  (kwire-specific: GROUP config
                                  resources, percent-encoded group id; Kafka keeps them in KRaft)
    /kwire/offline_replicas/<id>  (ephemeral)  {"version":1,"partitions":[{"topic":"t","partition":0}]}
                                               (kwire-specific: the replicas of broker <id> in offline
                                               log dirs, what Kafka's controller learns from
                                               LeaderAndIsr responses with KAFKA_STORAGE_ERROR; kwire
                                               has no LeaderAndIsr. Written before the notification;
                                               a restart, which recovers the dirs, starts without it)
    /kwire/controlled_shutdown/<id> (ephemeral) (empty; kwire-specific: a broker asking the
                                               controller to move its leaderships away before it
                                               stops, since ControlledShutdown (API 7) is gone
                                               from Kafka 4.x's schemas; the session's end
                                               removes it)

Topic ids are written the way Kafka writes a ``Uuid`` (url-safe base64, no
padding); decoding also accepts the dashed form. Every decoder takes the bytes
of a znode (``None`` or ``b""`` for a znode with no data) and returns plain
values; none of them touches ZooKeeper. ``parse_connect`` splits Kafka's
``zookeeper.connect`` (``host:port[,host:port...][/chroot]``).

Not here: talking to ZooKeeper (``kwire.cluster.zk_store``), the rules for
what changes when (``kwire.cluster.controller``).
"""

from __future__ import annotations

import base64
import json
import uuid
from dataclasses import dataclass, field
from urllib.parse import quote, unquote

from kwire.clock import now_ms

# -- paths ------------------------------------------------------------------------------
CLUSTER_ID = "/cluster/id"
CONTROLLER = "/controller"
CONTROLLER_EPOCH = "/controller_epoch"
BROKERS = "/brokers"
BROKER_IDS = "/brokers/ids"
BROKER_SEQID = "/brokers/seqid"
TOPICS = "/brokers/topics"
CONFIG = "/config"
CONFIG_CHANGES = "/config/changes"
CONFIG_CHANGE_PREFIX = "config_change_"
DELETE_TOPICS = "/admin/delete_topics"
ISR_CHANGE_NOTIFICATION = "/isr_change_notification"
ISR_CHANGE_PREFIX = "isr_change_"
PRODUCER_ID_BLOCK = "/latest_producer_id_block"
LOG_DIR_EVENT_NOTIFICATION = "/log_dir_event_notification"
CONSUMERS = "/consumers"
DEFAULT_BROKER_ENTITY = "<default>"
CONFIG_TYPES = ("topics", "clients", "users", "brokers", "ips")
CONTROLLED_SHUTDOWN = "/kwire/controlled_shutdown"  # kwire-specific (see the docstring)
LOG_DIR_EVENT_PREFIX = "log_dir_event_"
LOG_DIR_FAILURE_EVENT = 1  # Kafka's LogDirEventNotificationHandler.LogDirFailureEvent
OFFLINE_REPLICAS = "/kwire/offline_replicas"  # kwire-specific (see the docstring)
# kwire-specific: Kafka keeps GROUP config resources (KIP-848, KIP-932) in KRaft only; a
# ZooKeeper-mode kwire keeps them as topic configs are kept, one znode per group
GROUP_CONFIGS = "/kwire/config/groups"

# Kafka's ZkData.PersistentZkPaths: created (empty) at start-up if missing.
PERSISTENT_PATHS = (CONSUMERS, BROKER_IDS, TOPICS, CONFIG_CHANGES, DELETE_TOPICS, BROKER_SEQID,
                    ISR_CHANGE_NOTIFICATION, PRODUCER_ID_BLOCK, LOG_DIR_EVENT_NOTIFICATION,
                    *(f"{CONFIG}/{t}" for t in CONFIG_TYPES))

INITIAL_CONTROLLER_EPOCH = 0  # Kafka's KafkaController.InitialControllerEpoch
NO_LEADER = -1
MATCH_ANY_VERSION = -1


def broker_path(broker_id: int) -> str:
    return f"{BROKER_IDS}/{broker_id}"


def topic_path(topic: str) -> str:
    return f"{TOPICS}/{topic}"


def partitions_path(topic: str) -> str:
    return f"{TOPICS}/{topic}/partitions"


def partition_path(topic: str, partition: int) -> str:
    return f"{TOPICS}/{topic}/partitions/{partition}"


def partition_state_path(topic: str, partition: int) -> str:
    return f"{TOPICS}/{topic}/partitions/{partition}/state"


def topic_config_path(topic: str) -> str:
    return f"{CONFIG}/topics/{topic}"


def group_config_path(group_id: str) -> str:
    """A group id may hold any character: the znode name is its percent-encoding."""
    return f"{GROUP_CONFIGS}/{quote(group_id, safe='')}"


def group_of_config_node(name: str) -> str:
    return unquote(name)


def broker_config_path(broker: int | str) -> str:
    """``broker`` is a broker id or ``DEFAULT_BROKER_ENTITY`` (the cluster-wide default)."""
    return f"{CONFIG}/brokers/{broker}"


def delete_topic_path(topic: str) -> str:
    return f"{DELETE_TOPICS}/{topic}"


def controlled_shutdown_path(broker_id: int) -> str:
    return f"{CONTROLLED_SHUTDOWN}/{broker_id}"


def offline_replicas_path(broker_id: int) -> str:
    return f"{OFFLINE_REPLICAS}/{broker_id}"


# -- zookeeper.connect ----------------------------------------------------------------------
def parse_connect(connect: str) -> tuple[str, str]:
    """Split ``host:port[,host:port...][/chroot]`` into (hosts, chroot); chroot "" if none.

    Kafka's rule: everything from the first '/' is the chroot, which applies to
    every host. A chroot of "/" alone means none; a trailing '/' is not allowed.
    """
    connect = connect.strip()
    slash = connect.find("/")
    if slash < 0:
        return connect, ""
    hosts, chroot = connect[:slash], connect[slash:]
    if chroot == "/":
        return hosts, ""
    if chroot.endswith("/") or "//" in chroot:
        raise ValueError(f"invalid chroot {chroot!r} in zookeeper.connect {connect!r}")
    if not hosts:
        raise ValueError(f"no ZooKeeper host in zookeeper.connect {connect!r}")
    return hosts, chroot


# -- JSON helpers ---------------------------------------------------------------------------
def _dumps(obj) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def _loads(data: bytes | None):
    if not data:
        return None
    return json.loads(data.decode())


# -- topic ids (org.apache.kafka.common.Uuid.toString) -------------------------------------
def encode_topic_id(topic_id: uuid.UUID) -> str:
    return base64.urlsafe_b64encode(topic_id.bytes).decode().rstrip("=")


def decode_topic_id(text: str) -> uuid.UUID:
    if len(text) == 22:
        return uuid.UUID(bytes=base64.urlsafe_b64decode(text + "=="))
    return uuid.UUID(text)


# -- /cluster/id ---------------------------------------------------------------------------
def encode_cluster_id(cluster_id: str) -> bytes:
    return _dumps({"version": "1", "id": cluster_id})


def decode_cluster_id(data: bytes | None) -> str:
    obj = _loads(data)
    if not isinstance(obj, dict) or not isinstance(obj.get("id"), str):
        raise ValueError(f"cannot parse the cluster id znode: {data!r}")
    return obj["id"]


# -- /controller, /controller_epoch ----------------------------------------------------------
def encode_controller(broker_id: int, timestamp_ms: int | None = None) -> bytes:
    ts = now_ms() if timestamp_ms is None else timestamp_ms
    return _dumps({"version": 1, "brokerid": broker_id, "timestamp": str(ts)})


def decode_controller(data: bytes | None) -> int | None:
    obj = _loads(data)
    if obj is None:
        return None
    return int(obj["brokerid"])


def encode_controller_epoch(epoch: int) -> bytes:
    return str(epoch).encode()


def decode_controller_epoch(data: bytes | None) -> int:
    return int(data.decode()) if data else INITIAL_CONTROLLER_EPOCH


# -- /brokers/ids/<id> ----------------------------------------------------------------------
@dataclass
class ZkBroker:
    """A broker registration: what ``/brokers/ids/<id>`` says."""
    broker_id: int
    host: str
    port: int
    endpoints: list[str] = field(default_factory=list)  # "LISTENER://host:port"
    security_protocol_map: dict[str, str] = field(default_factory=dict)
    rack: str | None = None
    jmx_port: int = -1
    timestamp: int = 0
    version: int = 5


BROKER_REGISTRATION_VERSION = 5  # Kafka 2.7+ (IBP >= 2.7): v4 plus "features"


def encode_broker(broker_id: int, host: str, port: int, *, listener: str = "PLAINTEXT",
                  security_protocol: str = "PLAINTEXT", endpoints: list[tuple[str, str, int, str]] | None = None,
                  rack: str | None = None, jmx_port: int = -1, timestamp_ms: int | None = None) -> bytes:
    """The registration JSON. ``endpoints``: (listener, host, port, security protocol) each;
    by default one ``listener`` endpoint at host:port. The top-level host and port are
    the first PLAINTEXT endpoint's (Kafka's compatibility fields), else null and -1."""
    if endpoints is None:
        endpoints = [(listener, host, port, security_protocol)]
    plaintext = next((e for e in endpoints if e[3] == "PLAINTEXT"), None)
    obj = {
        "version": BROKER_REGISTRATION_VERSION,
        "host": plaintext[1] if plaintext else None,
        "port": plaintext[2] if plaintext else -1,
        "endpoints": [f"{name}://{h}:{p}" for name, h, p, _ in endpoints],
        "jmx_port": jmx_port,
        "timestamp": str(now_ms() if timestamp_ms is None else timestamp_ms),
        "listener_security_protocol_map": {name: proto for name, _, _, proto in endpoints},
        "features": {},
    }
    if rack is not None:
        obj["rack"] = rack
    return _dumps(obj)


def _split_endpoint(text: str) -> tuple[str, str, int]:
    name, _, rest = text.partition("://")
    host, _, port = rest.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return name, host, int(port)


def decode_broker(broker_id: int, data: bytes | None) -> ZkBroker:
    obj = _loads(data)
    if not isinstance(obj, dict):
        raise ValueError(f"cannot parse the registration of broker {broker_id}: {data!r}")
    version = int(obj.get("version", 1))
    host, port = obj.get("host"), int(obj.get("port", -1))
    endpoints = list(obj.get("endpoints") or [])
    if (not host or port < 0) and endpoints:
        # no PLAINTEXT endpoint: the first endpoint is where clients connect
        _, host, port = _split_endpoint(endpoints[0])
    return ZkBroker(broker_id, host or "", port, endpoints,
                    dict(obj.get("listener_security_protocol_map") or {}), obj.get("rack"),
                    int(obj.get("jmx_port", -1)), int(obj.get("timestamp", 0)), version)


# -- /brokers/topics/<t> ---------------------------------------------------------------------
@dataclass
class TopicAssignment:
    topic_id: uuid.UUID | None
    partitions: dict[int, list[int]]
    adding_replicas: dict[int, list[int]] = field(default_factory=dict)
    removing_replicas: dict[int, list[int]] = field(default_factory=dict)


def encode_topic(topic_id: uuid.UUID | None, partitions: dict[int, list[int]],
                 adding_replicas: dict[int, list[int]] | None = None,
                 removing_replicas: dict[int, list[int]] | None = None) -> bytes:
    obj = {
        "version": 3,
        "partitions": {str(p): list(r) for p, r in sorted(partitions.items())},
        "adding_replicas": {str(p): list(r) for p, r in sorted((adding_replicas or {}).items()) if r},
        "removing_replicas": {str(p): list(r) for p, r in sorted((removing_replicas or {}).items()) if r},
    }
    if topic_id is not None:
        obj["topic_id"] = encode_topic_id(topic_id)
    return _dumps(obj)


def decode_topic(data: bytes | None) -> TopicAssignment:
    obj = _loads(data) or {}

    def ints(d) -> dict[int, list[int]]:
        return {int(p): [int(b) for b in r] for p, r in (d or {}).items()}

    tid = obj.get("topic_id")
    return TopicAssignment(decode_topic_id(tid) if tid else None, ints(obj.get("partitions")),
                           ints(obj.get("adding_replicas")), ints(obj.get("removing_replicas")))


# -- /brokers/topics/<t>/partitions/<p>/state ---------------------------------------------------
@dataclass
class LeaderAndIsr:
    leader: int
    leader_epoch: int
    isr: list[int]
    controller_epoch: int
    zk_version: int = -1  # the state znode's version when read (Kafka's partitionEpoch)


def encode_partition_state(leader: int, leader_epoch: int, isr: list[int], controller_epoch: int) -> bytes:
    return _dumps({"controller_epoch": controller_epoch, "leader": leader, "version": 1,
                   "leader_epoch": leader_epoch, "isr": list(isr)})


def decode_partition_state(data: bytes | None, zk_version: int = -1) -> LeaderAndIsr | None:
    obj = _loads(data)
    if obj is None:
        return None
    return LeaderAndIsr(int(obj["leader"]), int(obj["leader_epoch"]), [int(b) for b in obj["isr"]],
                        int(obj["controller_epoch"]), zk_version)


# -- /config/<type>/<name>, /config/changes --------------------------------------------------------
def encode_config(config: dict[str, str]) -> bytes:
    return _dumps({"version": 1, "config": {k: str(v) for k, v in config.items()}})


def decode_config(data: bytes | None) -> dict[str, str]:
    obj = _loads(data)
    if not isinstance(obj, dict):
        return {}
    return {k: str(v) for k, v in (obj.get("config") or {}).items()}


def encode_config_change(entity_type: str, entity_name: str) -> bytes:
    return _dumps({"version": 2, "entity_path": f"{entity_type}/{entity_name}"})


# -- /isr_change_notification -----------------------------------------------------------------------
def encode_isr_change(partitions: list[tuple[str, int]]) -> bytes:
    return _dumps({"version": 1, "partitions": [{"topic": t, "partition": p} for t, p in partitions]})


def decode_isr_change(data: bytes | None) -> list[tuple[str, int]]:
    obj = _loads(data) or {}
    return [(e["topic"], int(e["partition"])) for e in obj.get("partitions", [])]


# -- /log_dir_event_notification, /kwire/offline_replicas -------------------------------------------
def encode_log_dir_event(broker_id: int) -> bytes:
    """Kafka's LogDirEventNotificationSequenceZNode.encode (a log dir failure of ``broker_id``)."""
    return _dumps({"version": 1, "broker": broker_id, "event": LOG_DIR_FAILURE_EVENT})


def decode_log_dir_event(data: bytes | None) -> int | None:
    """The broker id of a notification, None for one that cannot be read."""
    try:
        obj = _loads(data)
        return int(obj["broker"]) if isinstance(obj, dict) else None
    except (ValueError, KeyError, TypeError):
        return None


def encode_offline_replicas(partitions: list[tuple[str, int]]) -> bytes:
    return _dumps({"version": 1, "partitions": [{"topic": t, "partition": p} for t, p in partitions]})


def decode_offline_replicas(data: bytes | None) -> list[tuple[str, int]]:
    obj = _loads(data) or {}
    return [(e["topic"], int(e["partition"])) for e in obj.get("partitions", [])]


# -- /latest_producer_id_block -------------------------------------------------------------------------
@dataclass
class ProducerIdBlock:
    broker_id: int
    block_start: int
    block_end: int  # inclusive, as Kafka writes it

    @property
    def size(self) -> int:
        return self.block_end - self.block_start + 1


def encode_producer_id_block(block: ProducerIdBlock) -> bytes:
    return _dumps({"version": 1, "broker": block.broker_id, "block_start": str(block.block_start),
                   "block_end": str(block.block_end)})


def decode_producer_id_block(data: bytes | None) -> ProducerIdBlock | None:
    obj = _loads(data)
    if obj is None:
        return None
    return ProducerIdBlock(int(obj["broker"]), int(obj["block_start"]), int(obj["block_end"]))


def next_producer_id_block(current: ProducerIdBlock | None, broker_id: int, size: int) -> ProducerIdBlock:
    """Kafka's ZkProducerIdManager: the block after ``current`` (the first block starts at 0)."""
    start = 0 if current is None else current.block_end + 1
    if start > (1 << 63) - 1 - size:
        raise OverflowError("producer ids exhausted")
    return ProducerIdBlock(broker_id, start, start + size - 1)
