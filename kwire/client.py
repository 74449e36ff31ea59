"""A small synchronous Kafka client for kwire's command-line tools.

``KafkaClient`` speaks the wire protocol over plain blocking sockets with
kwire's own codec (``kwire.protocol.codec``), no third-party Kafka library.
It is a *tool* client, not a full Kafka client:

* every new connection starts with ApiVersions; each API is then used at the
  highest version both the broker and the codec support;
* Metadata tells which node leads which partition, and the client keeps one
  connection per broker node (admin requests go to the controller);
* one request at a time, no pipelining, no idempotent or transactional
  producing; TLS and SASL (PLAIN, SCRAM) only when given ``security``
  (``kwire.security.client.ClientSecurity``);
* share groups (KIP-932) as ``kafka-share-groups.sh`` sees them: ShareGroupDescribe and
  DescribeShareGroupOffsets (``share_group_describe``, ``share_group_offsets``);
* consumer groups only as an administrator sees them (``kafka-consumer-groups.sh``):
  FindCoordinator, ListGroups, DescribeGroups (consumer protocol assignments
  decoded; ConsumerGroupDescribe for KIP-848 groups), OffsetFetch, OffsetCommit as a simple commit (generation -1, no
  member id: Kafka accepts it only while the group has no members) and
  DeleteGroups. The client never joins a group;
* no retries except two: a request that fails because a cached connection
  turned out to be dead is sent again on a fresh connection (a Produce is
  only resent when it never reached the socket, so it cannot be duplicated),
  and group requests answered with NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE
  or COORDINATOR_LOAD_IN_PROGRESS look the coordinator up again and retry
  within the client's timeout (a coordinator loading its offsets partition is
  a normal, short state).

Errors: any non-zero error code in a response raises ``KafkaClientError``
carrying the code, Kafka's name for it and the broker's message; failing to
connect or losing a connection raises ``KafkaConnectionError`` (a subclass,
code NETWORK_EXCEPTION). Partition-level errors that suggest stale metadata
(NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION, ...) also drop the
cached metadata so that the next call looks the leader up again.

Usage::

    with KafkaClient("127.0.0.1:9092") as c:
        c.create_topics([NewTopic("events", num_partitions=3)])
        base = c.produce("events", 0, build_batch([(b"k", b"v")]), acks=-1)
        records = c.fetch("events", 0, base, max_wait_ms=100)
"""

from __future__ import annotations

import socket
import struct
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Iterable

from kwire import __version__
from kwire.protocol import codec
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.api_versions_request import ApiVersionsRequest
from kwire.protocol.generated.consumer_group_describe_request import ConsumerGroupDescribeRequest
from kwire.protocol.generated.create_partitions_request import (
    CreatePartitionsRequest,
    CreatePartitionsTopic,
)
from kwire.protocol.generated.create_topics_request import (
    CreatableTopic,
    CreatableTopicConfig,
    CreatableReplicaAssignment,
    CreateTopicsRequest,
)
from kwire.protocol.generated.delete_groups_request import DeleteGroupsRequest
from kwire.protocol.generated.delete_topics_request import DeleteTopicsRequest, DeleteTopicState
from kwire.protocol.generated.describe_groups_request import DescribeGroupsRequest
from kwire.protocol.generated.describe_configs_request import (
    DescribeConfigsRequest,
    DescribeConfigsResource,
)
from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
from kwire.protocol.generated.find_coordinator_request import FindCoordinatorRequest
from kwire.protocol.generated.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from kwire.protocol.generated.list_offsets_request import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsTopic,
)
from kwire.protocol.generated.list_groups_request import ListGroupsRequest
from kwire.protocol.generated.metadata_request import MetadataRequest, MetadataRequestTopic
from kwire.protocol.generated.offset_commit_request import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from kwire.protocol.generated.offset_fetch_request import (
    OffsetFetchRequest,
    OffsetFetchRequestGroup,
    OffsetFetchRequestTopic,
    OffsetFetchRequestTopics,
)
from kwire.protocol.generated.produce_request import (
    PartitionProduceData,
    ProduceRequest,
    TopicProduceData,
)
from kwire.protocol.primitives import ProtocolError

__all__ = [
    "KafkaClient", "KafkaClientError", "KafkaConnectionError", "NewTopic",
    "BrokerInfo", "PartitionInfo", "TopicInfo", "ClusterInfo", "ConfigEntry", "FetchedPartition",
    "GroupListing", "GroupMember", "GroupDescription", "CommittedOffset", "decode_consumer_assignment",
    "parse_bootstrap", "EARLIEST_TIMESTAMP", "LATEST_TIMESTAMP",
    "RESOURCE_TOPIC", "RESOURCE_BROKER", "CONFIG_SOURCE_NAMES",
]

API_PRODUCE, API_FETCH, API_LIST_OFFSETS, API_METADATA = 0, 1, 2, 3
API_API_VERSIONS, API_CREATE_TOPICS, API_DELETE_TOPICS = 18, 19, 20
API_DESCRIBE_CONFIGS, API_CREATE_PARTITIONS, API_INCREMENTAL_ALTER_CONFIGS = 32, 37, 44
API_OFFSET_COMMIT, API_OFFSET_FETCH, API_FIND_COORDINATOR = 8, 9, 10
API_DESCRIBE_GROUPS, API_LIST_GROUPS, API_DELETE_GROUPS = 15, 16, 42
API_CONSUMER_GROUP_DESCRIBE = 69
API_SHARE_GROUP_DESCRIBE, API_DESCRIBE_SHARE_GROUP_OFFSETS = 77, 90

#: ListOffsets special timestamps.
LATEST_TIMESTAMP = -1
EARLIEST_TIMESTAMP = -2

#: ConfigResource.Type ids used by DescribeConfigs / IncrementalAlterConfigs.
RESOURCE_TOPIC = 2
RESOURCE_BROKER = 4

#: DescribeConfigs ``config_source`` codes, by Kafka's ConfigSource names.
CONFIG_SOURCE_NAMES = {
    0: "UNKNOWN", 1: "DYNAMIC_TOPIC_CONFIG", 2: "DYNAMIC_BROKER_CONFIG",
    3: "DYNAMIC_DEFAULT_BROKER_CONFIG", 4: "STATIC_BROKER_CONFIG", 5: "DEFAULT_CONFIG",
    6: "DYNAMIC_BROKER_LOGGER_CONFIG", 7: "CLIENT_METRICS_CONFIG", 8: "GROUP_CONFIG",
}
_DEFAULT_CONFIG = 5

# IncrementalAlterConfigs operations.
_OP_SET, _OP_DELETE = 0, 1

# Versions from which a request names topics by id only.
_PRODUCE_TOPIC_ID_MIN = 13
_FETCH_TOPIC_ID_MIN = 13

# OffsetCommit / OffsetFetch v10 name topics by id only; v9 has every feature the
# tools need and keeps names, so the client stops there.
_OFFSET_COMMIT_MAX = 9
_OFFSET_FETCH_MAX = 9
_OFFSET_FETCH_GROUPS_MIN = 8  # batched "groups" layout
_FIND_COORDINATOR_KEYS_MIN = 4  # batched "coordinator_keys" layout
_COORDINATOR_GROUP = 0

# Group errors after which the coordinator is looked up again and the request retried.
_COORDINATOR_RETRY = {
    ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
}

# Errors after which cached leaders may be wrong.
_STALE_METADATA = {
    ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.LEADER_NOT_AVAILABLE,
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.UNKNOWN_TOPIC_ID,
    ErrorCode.FENCED_LEADER_EPOCH, ErrorCode.UNKNOWN_LEADER_EPOCH, ErrorCode.NOT_CONTROLLER,
}

_I32 = struct.Struct(">i")
_ZERO_UUID = uuid.UUID(int=0)


# -- errors ---------------------------------------------------------------------------------

class KafkaClientError(Exception):
    """A Kafka error code in a response (or a client-side failure mapped to one)."""

    def __init__(self, code: int, message: str | None = None) -> None:
        self.code = int(code)
        try:
            self.name = ErrorCode(self.code).name
        except ValueError:
            self.name = f"ERROR_{self.code}"
        self.message = message or None
        super().__init__(f"{self.name}: {message}" if message else self.name)


class KafkaConnectionError(KafkaClientError):
    """Could not connect to a broker, or the connection broke mid-request."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.NETWORK_EXCEPTION, message)

    def __str__(self) -> str:
        return self.message or "connection failed"


def _check(code: int, message: str | None = None, context: str = "") -> None:
    if code:
        text = message or ""
        if context:
            text = f"{context}: {text}" if text else context
        raise KafkaClientError(code, text or None)


# -- result types ---------------------------------------------------------------------------

@dataclass
class NewTopic:
    name: str
    num_partitions: int = -1  # -1: the broker's num.partitions (CreateTopics v4+)
    replication_factor: int = -1  # -1: the broker's default.replication.factor
    configs: dict[str, str] = field(default_factory=dict)
    #: optional manual assignment: partition -> broker ids
    assignments: dict[int, list[int]] | None = None


@dataclass
class BrokerInfo:
    node_id: int
    host: str
    port: int
    rack: str | None = None


@dataclass
class PartitionInfo:
    partition: int
    leader: int
    leader_epoch: int
    replicas: list[int]
    isr: list[int]
    offline_replicas: list[int]
    error_code: int = 0


@dataclass
class TopicInfo:
    name: str
    topic_id: uuid.UUID
    is_internal: bool
    partitions: dict[int, PartitionInfo]
    error_code: int = 0


@dataclass
class ClusterInfo:
    cluster_id: str | None
    controller_id: int
    brokers: dict[int, BrokerInfo]
    topics: dict[str, TopicInfo]


@dataclass
class ConfigEntry:
    name: str
    value: str | None
    source: int
    read_only: bool
    is_sensitive: bool

    @property
    def is_default(self) -> bool:
        return self.source == _DEFAULT_CONFIG

    @property
    def source_name(self) -> str:
        return CONFIG_SOURCE_NAMES.get(self.source, str(self.source))


@dataclass
class FetchedPartition:
    partition: int
    high_watermark: int
    last_stable_offset: int
    log_start_offset: int
    records: bytes  # raw record batches; the last one may be truncated


@dataclass
class GroupListing:
    group_id: str
    protocol_type: str
    state: str | None  # None from brokers older than ListGroups v4
    group_type: str | None  # "classic", "consumer", ... (ListGroups v5+)


@dataclass
class GroupMember:
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    #: topic -> partitions, decoded for protocol type "consumer" (else empty)
    assignment: dict[str, list[int]]
    member_metadata: bytes
    member_assignment: bytes


@dataclass
class GroupDescription:
    group_id: str
    state: str  # Kafka's names: Empty, PreparingRebalance, CompletingRebalance, Stable, Dead
    protocol_type: str
    protocol: str  # the chosen protocol: the assignor's name for consumer groups
    members: list[GroupMember]


@dataclass
class CommittedOffset:
    offset: int
    leader_epoch: int
    metadata: str | None


def decode_consumer_assignment(data: bytes | None) -> dict[str, list[int]]:
    """A ``ConsumerProtocolAssignment`` (int16 version, then the v0 layout) -> topic: partitions.

    Every version starts with the v0 fields (assigned partitions, user data),
    so any version is read as v0 after its version prefix, as Kafka does.
    ``ValueError`` when the bytes are not an assignment.
    """
    if not data:
        return {}
    if len(data) < 2:
        raise ValueError("consumer assignment shorter than its version")
    mod = codec.message_module(codec.DATA_SCHEMAS["ConsumerProtocolAssignment"])
    try:
        asg, _ = mod.DECODERS[0](memoryview(bytes(data)), 2)
    except (ProtocolError, IndexError, ValueError, struct.error) as e:
        raise ValueError(f"not a consumer assignment: {e}") from None
    out: dict[str, list[int]] = {}
    for tp in asg.assigned_partitions:
        out.setdefault(tp.topic, []).extend(tp.partitions)
    return {t: sorted(ps) for t, ps in out.items()}


def parse_bootstrap(bootstrap: str) -> list[tuple[str, int]]:
    """``"host:port[,host:port...]"`` -> addresses; ``ValueError`` when malformed."""
    out = []
    for item in bootstrap.split(","):
        item = item.strip()
        if not item:
            continue
        host, sep, port = item.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"bad bootstrap address {item!r} (expected host:port)")
        out.append((host.strip("[]"), int(port)))
    if not out:
        raise ValueError("empty bootstrap server list")
    return out


# -- one connection -----------------------------------------------------------------------

class _Connection:
    """A blocking socket to one broker plus the API versions agreed on it."""

    def __init__(self, host: str, port: int, client_id: str, timeout: float, security=None,
                 source_address: str | None = None) -> None:
        self.source_address = source_address  # the local address to connect from (None: any)
        self.security = security  # kwire.security.client.ClientSecurity: TLS and SASL, None: plaintext
        self.host = host
        self.port = port
        self.client_id = client_id
        self.timeout = timeout
        self.sock: socket.socket | None = None
        self.versions: dict[int, tuple[int, int]] = {}  # api key -> broker's (min, max)
        self._correlation_id = 0
        self.used = False  # has completed at least one request since connecting

    def __repr__(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def is_open(self) -> bool:
        return self.sock is not None

    def open(self) -> None:
        try:
            self.sock = socket.create_connection(
                (self.host, self.port), timeout=self.timeout,
                source_address=(self.source_address, 0) if self.source_address else None)
        except OSError as e:
            self.sock = None
            raise KafkaConnectionError(f"cannot connect to {self}: {e.strerror or e}") from None
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.used = False
        try:
            if self.security is not None:
                try:
                    self.sock = self.security.wrap(self.sock, self.host)
                except OSError as e:
                    raise KafkaConnectionError(f"TLS with {self} failed: {e}") from None
            self._negotiate()
            if self.security is not None:
                from kwire.security.client import SaslLoginError

                try:
                    self.security.login(self)
                except SaslLoginError as e:
                    raise KafkaClientError(e.code, e.message) from None
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.close()
            finally:
                self.sock = None

    def _negotiate(self) -> None:
        """ApiVersions at our newest version; fall back as Kafka's clients do."""
        spec = codec.APIS[API_API_VERSIONS]
        version = spec.max_version
        for _ in range(2):
            req = ApiVersionsRequest(client_software_name="kwire-cli",
                                     client_software_version=__version__)
            try:
                cid = self.send(API_API_VERSIONS, version, req)
                frame = self._read_frame()
            except OSError as e:
                raise KafkaConnectionError(
                    f"ApiVersions with {self} failed: {e.strerror or e}") from None
            try:
                got, resp = codec.decode_response(API_API_VERSIONS, version, frame)
            except ProtocolError:
                # A broker that does not know our version answers in v0.
                got, resp = codec.decode_response(API_API_VERSIONS, 0, frame)
            if got != cid:
                raise KafkaConnectionError(
                    f"{self}: ApiVersions correlation id {got}, expected {cid}")
            ranges = {k.api_key: (k.min_version, k.max_version) for k in resp.api_keys or ()}
            if resp.error_code == ErrorCode.UNSUPPORTED_VERSION and API_API_VERSIONS in ranges:
                theirs = ranges[API_API_VERSIONS][1]
                if theirs < version:
                    version = max(theirs, spec.min_version)
                    continue
            _check(resp.error_code, None, f"ApiVersions from {self}")
            self.versions = ranges
            return
        raise KafkaClientError(ErrorCode.UNSUPPORTED_VERSION,
                               f"no common ApiVersions version with {self}")

    def version_for(self, api_key: int) -> int:
        """The highest version of ``api_key`` both this broker and the codec support."""
        spec = codec.APIS.get(api_key)
        name = spec.name if spec else f"api key {api_key}"
        theirs = self.versions.get(api_key)
        if spec is None or theirs is None:
            raise KafkaClientError(ErrorCode.UNSUPPORTED_VERSION,
                                   f"broker {self} does not support {name}")
        lo = max(spec.min_version, theirs[0])
        hi = min(spec.max_version, theirs[1])
        if hi < lo:
            raise KafkaClientError(
                ErrorCode.UNSUPPORTED_VERSION,
                f"{name}: broker {self} supports v{theirs[0]}-{theirs[1]}, "
                f"this client v{spec.min_version}-{spec.max_version}")
        return hi

    def send(self, api_key: int, version: int, obj) -> int:
        self._correlation_id = (self._correlation_id + 1) & 0x7FFFFFFF
        frame = codec.encode_request(api_key, version, self._correlation_id, self.client_id, obj)
        assert self.sock is not None
        self.sock.sendall(frame)
        return self._correlation_id

    def receive(self, api_key: int, version: int, correlation_id: int):
        frame = self._read_frame()
        got, resp = codec.decode_response(api_key, version, frame)
        if got != correlation_id:
            raise KafkaConnectionError(
                f"{self}: response correlation id {got}, expected {correlation_id}")
        self.used = True
        return resp

    def _read_frame(self) -> memoryview:
        (size,) = _I32.unpack(self._read_exact(4))
        if size < 4:
            raise KafkaConnectionError(f"{self}: bad response size {size}")
        return memoryview(self._read_exact(size))

    def _read_exact(self, n: int) -> bytearray:
        assert self.sock is not None
        buf = bytearray(n)
        view = memoryview(buf)
        got = 0
        while got < n:
            k = self.sock.recv_into(view[got:])
            if k == 0:
                raise ConnectionResetError("connection closed by the broker")
            got += k
        return buf


# -- the client --------------------------------------------------------------------------------

class KafkaClient:
    """Blocking request/response client for one cluster (see the module docstring)."""

    def __init__(self, bootstrap: str = "127.0.0.1:9092", client_id: str = "kwire-cli",
                 timeout: float = 30, security=None, source_address: str | None = None) -> None:
        self.security = security  # kwire.security.client.ClientSecurity (TLS, SASL) or None
        self.source_address = source_address  # every connection's local address (None: any)
        self.bootstrap = parse_bootstrap(bootstrap)
        self.client_id = client_id
        self.timeout = timeout
        self._conns: dict[tuple[str, int], _Connection] = {}
        self._brokers: dict[int, BrokerInfo] = {}
        self._controller_id = -1
        self._topics: dict[str, TopicInfo] = {}  # metadata cache for leader lookups
        self._coordinators: dict[str, int] = {}  # group id -> coordinator node id

    def __enter__(self) -> "KafkaClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for conn in self._conns.values():
            conn.close()
        self._conns.clear()

    # -- connections and raw requests ---------------------------------------------------------

    def _connection(self, node: int | None) -> _Connection:
        """An open connection to ``node`` (None: any bootstrap server)."""
        if node is None:
            for conn in self._conns.values():
                if conn.is_open:
                    return conn
            errors = []
            for host, port in self.bootstrap:
                conn = self._conn_to(host, port)
                try:
                    conn.open()
                    return conn
                except KafkaConnectionError as e:
                    errors.append(str(e))
            raise KafkaConnectionError("; ".join(errors))
        if node not in self._brokers:
            self.metadata([])
        info = self._brokers.get(node)
        if info is None:
            raise KafkaClientError(ErrorCode.BROKER_NOT_AVAILABLE,
                                   f"broker {node} is not in the cluster metadata")
        conn = self._conn_to(info.host, info.port)
        if not conn.is_open:
            conn.open()
        return conn

    def _conn_to(self, host: str, port: int) -> _Connection:
        conn = self._conns.get((host, port))
        if conn is None:
            conn = self._conns[(host, port)] = _Connection(host, port, self.client_id, self.timeout,
                                                           self.security, self.source_address)
        return conn

    def api_version(self, api_key: int, node: int | None = None) -> int:
        """The version ``request`` will use for ``api_key`` on ``node``."""
        return self._connection(node).version_for(api_key)

    def request(self, api_key: int, obj, *, node: int | None = None, version: int | None = None,
                expect_response: bool = True, wait_s: float | None = None):
        """Send ``obj`` (a request of ``api_key``) and return the decoded response.

        ``version`` defaults to the negotiated one; pass it when ``obj`` was
        built for a version chosen with ``api_version``. ``expect_response``
        False is for acks=0 produce (returns None). ``wait_s`` lengthens the
        socket timeout for requests the broker may hold (long-poll fetch).
        """
        for attempt in (0, 1):
            conn = self._connection(node)
            v = conn.version_for(api_key) if version is None else version
            sent = False
            try:
                conn.sock.settimeout(self.timeout + (wait_s or 0))
                cid = conn.send(api_key, v, obj)
                sent = True
                if not expect_response:
                    return None
                return conn.receive(api_key, v, cid)
            except ProtocolError as e:
                conn.close()
                raise KafkaConnectionError(
                    f"malformed {codec.APIS[api_key].name} v{v} response from {conn}: {e}") from None
            except (OSError, KafkaConnectionError) as e:
                was_used = conn.used
                conn.close()
                retry = attempt == 0 and was_used and (not sent or api_key != API_PRODUCE)
                if not retry:
                    if isinstance(e, KafkaConnectionError):
                        raise
                    what = "timed out" if isinstance(e, socket.timeout) else (e.strerror or str(e))
                    raise KafkaConnectionError(
                        f"{codec.APIS[api_key].name} request to {conn} failed: {what}") from None
                # The cached connection was dead (idle timeout, broker restart): reconnect.
            except BaseException:
                # Interrupted (Ctrl-C, SIGTERM) mid-request: the response would be read as the
                # next request's, so the connection is dropped and the next request opens a new one.
                conn.close()
                raise
        raise AssertionError("unreachable")

    # -- metadata -------------------------------------------------------------------------------

    def metadata(self, topics: Iterable[str] | None = None,
                 allow_auto_topic_creation: bool = False) -> ClusterInfo:
        """Cluster metadata for ``topics`` (None: all topics; []: brokers only).

        Per-topic errors are returned in ``TopicInfo.error_code`` rather than
        raised (see ``topic``); a top-level error raises.
        """
        conn = self._connection(None)
        version = conn.version_for(API_METADATA)
        if topics is None:
            req_topics = None
            if version == 0:
                raise KafkaClientError(ErrorCode.UNSUPPORTED_VERSION,
                                       "listing all topics needs Metadata v1+")
        else:
            req_topics = [MetadataRequestTopic(name=t) for t in topics]
        req = MetadataRequest(topics=req_topics, allow_auto_topic_creation=allow_auto_topic_creation)
        resp = self.request(API_METADATA, req, version=version)
        _check(getattr(resp, "error_code", 0), None, "Metadata")
        brokers = {b.node_id: BrokerInfo(b.node_id, b.host, b.port, b.rack) for b in resp.brokers or ()}
        out = ClusterInfo(resp.cluster_id, resp.controller_id, brokers, {})
        for t in resp.topics or ():
            parts = {
                p.partition_index: PartitionInfo(
                    p.partition_index, p.leader_id, p.leader_epoch, list(p.replica_nodes or ()),
                    list(p.isr_nodes or ()), list(p.offline_replicas or ()), p.error_code)
                for p in t.partitions or ()
            }
            out.topics[t.name] = TopicInfo(t.name, t.topic_id, t.is_internal, parts, t.error_code)
        self._brokers = dict(brokers)
        self._controller_id = resp.controller_id
        for name, info in out.topics.items():
            if info.error_code:
                self._topics.pop(name, None)
            else:
                self._topics[name] = info
        return out

    def topic(self, name: str, allow_auto_topic_creation: bool = False) -> TopicInfo:
        """Fresh metadata for one topic; raises on its error (e.g. UNKNOWN_TOPIC_OR_PARTITION)."""
        md = self.metadata([name], allow_auto_topic_creation)
        info = md.topics.get(name)
        if info is None:
            raise KafkaClientError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                                   f"topic {name!r} is not in the metadata response")
        if info.error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
            raise KafkaClientError(info.error_code, f"topic {name!r} does not exist")
        _check(info.error_code, None, f"topic {name!r}")
        return info

    def _cached_topic(self, name: str) -> TopicInfo:
        info = self._topics.get(name)
        if info is None:
            info = self.topic(name)
        return info

    def _leader(self, topic: str, partition: int) -> int:
        info = self._cached_topic(topic)
        p = info.partitions.get(partition)
        if p is None or p.leader < 0:
            info = self.topic(topic)  # maybe stale: look again once
            p = info.partitions.get(partition)
        if p is None:
            raise KafkaClientError(
                ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                f"topic {topic!r} has no partition {partition} "
                f"(it has {len(info.partitions)})")
        if p.leader < 0:
            raise KafkaClientError(ErrorCode.LEADER_NOT_AVAILABLE,
                                   f"{topic}-{partition} has no leader")
        return p.leader

    def _by_leader(self, topic: str, partitions: Iterable[int]) -> dict[int, list[int]]:
        groups: dict[int, list[int]] = {}
        for p in partitions:
            groups.setdefault(self._leader(topic, p), []).append(p)
        return groups

    def _controller(self) -> int | None:
        if self._controller_id < 0 or self._controller_id not in self._brokers:
            self.metadata([])
        cid = self._controller_id
        return cid if cid >= 0 and cid in self._brokers else None

    def _partition_error(self, code: int, message: str | None, topic: str, partition: int) -> None:
        if code:
            if code in _STALE_METADATA:
                self._topics.pop(topic, None)
            _check(code, message, f"{topic}-{partition}")

    # -- admin ----------------------------------------------------------------------------------

    def create_topics(self, topics: list[NewTopic], timeout_ms: int = 30000,
                      validate_only: bool = False) -> dict[str, Any]:
        """Create topics; returns name -> CreatableTopicResult, raises on the first failure."""
        req = CreateTopicsRequest(
            topics=[
                CreatableTopic(
                    name=t.name,
                    num_partitions=-1 if t.assignments else t.num_partitions,
                    replication_factor=-1 if t.assignments else t.replication_factor,
                    assignments=[CreatableReplicaAssignment(partition_index=p, broker_ids=list(b))
                                 for p, b in sorted((t.assignments or {}).items())],
                    configs=[CreatableTopicConfig(name=k, value=v) for k, v in t.configs.items()],
                )
                for t in topics
            ],
            timeout_ms=timeout_ms,
            validate_only=validate_only,
        )
        resp = self.request(API_CREATE_TOPICS, req, node=self._controller(),
                            wait_s=timeout_ms / 1000)
        results = {}
        for r in resp.topics or ():
            _check(r.error_code, r.error_message, f"topic {r.name!r}")
            results[r.name] = r
        return results

    def delete_topics(self, names: list[str], timeout_ms: int = 30000) -> None:
        node = self._controller()
        version = self.api_version(API_DELETE_TOPICS, node)
        if version >= 6:
            req = DeleteTopicsRequest(topics=[DeleteTopicState(name=n) for n in names],
                                      timeout_ms=timeout_ms)
        else:
            req = DeleteTopicsRequest(topic_names=list(names), timeout_ms=timeout_ms)
        resp = self.request(API_DELETE_TOPICS, req, node=node, version=version,
                            wait_s=timeout_ms / 1000)
        for r in resp.responses or ():
            self._topics.pop(r.name, None)
            _check(r.error_code, r.error_message, f"topic {r.name!r}")

    def create_partitions(self, topic: str, total_count: int, timeout_ms: int = 30000,
                          validate_only: bool = False) -> None:
        """Grow ``topic`` to ``total_count`` partitions."""
        req = CreatePartitionsRequest(
            topics=[CreatePartitionsTopic(name=topic, count=total_count, assignments=None)],
            timeout_ms=timeout_ms, validate_only=validate_only)
        resp = self.request(API_CREATE_PARTITIONS, req, node=self._controller(),
                            wait_s=timeout_ms / 1000)
        self._topics.pop(topic, None)
        for r in resp.results or ():
            _check(r.error_code, r.error_message, f"topic {r.name!r}")

    def describe_configs(self, resource_type: int, resource_name: str,
                         keys: list[str] | None = None) -> list[ConfigEntry]:
        """Every config of one resource (or just ``keys``), with its source."""
        req = DescribeConfigsRequest(resources=[DescribeConfigsResource(
            resource_type=resource_type, resource_name=resource_name,
            configuration_keys=None if keys is None else list(keys))])
        node = int(resource_name) if resource_type == RESOURCE_BROKER and resource_name else None
        resp = self.request(API_DESCRIBE_CONFIGS, req, node=node)
        out = []
        for r in resp.results or ():
            _check(r.error_code, r.error_message, f"{_resource(resource_type)} {r.resource_name!r}")
            for c in r.configs or ():
                out.append(ConfigEntry(c.name, c.value, c.config_source, c.read_only,
                                       c.is_sensitive))
        return out

    def incremental_alter_configs(self, resource_type: int, resource_name: str,
                                  set_configs: dict[str, str] | None = None,
                                  delete_configs: Iterable[str] = (),
                                  validate_only: bool = False) -> None:
        """SET and DELETE (revert to default) configs of one resource."""
        configs = [AlterableConfig(name=k, config_operation=_OP_SET, value=v)
                   for k, v in (set_configs or {}).items()]
        configs += [AlterableConfig(name=k, config_operation=_OP_DELETE, value=None)
                    for k in delete_configs]
        req = IncrementalAlterConfigsRequest(
            resources=[AlterConfigsResource(resource_type=resource_type,
                                            resource_name=resource_name, configs=configs)],
            validate_only=validate_only)
        node = int(resource_name) if resource_type == RESOURCE_BROKER and resource_name else None
        resp = self.request(API_INCREMENTAL_ALTER_CONFIGS, req, node=node)
        for r in resp.responses or ():
            _check(r.error_code, r.error_message, f"{_resource(resource_type)} {r.resource_name!r}")

    # -- data -----------------------------------------------------------------------------------

    def produce(self, topic: str, partition: int, batch_bytes: bytes, acks: int = -1,
                timeout_ms: int = 30000, to_bootstrap: bool = False) -> int | None:
        """Append one record batch; returns its base offset (None with acks=0)."""
        return self.produce_batches(topic, {partition: batch_bytes}, acks, timeout_ms, to_bootstrap)[partition]

    def produce_batches(self, topic: str, batches: dict[int, bytes], acks: int = -1,
                        timeout_ms: int = 30000, to_bootstrap: bool = False) -> dict[int, int | None]:
        """Append one batch per partition, one request per leader -> partition: base offset.

        ``to_bootstrap``: one request to the bootstrap connection instead, whoever leads (a
        writer that must append only while that broker leads: any other answers NOT_LEADER)."""
        if acks not in (-1, 0, 1):
            raise ValueError(f"acks must be -1, 0 or 1, not {acks}")
        out: dict[int, int | None] = {}
        groups = {None: list(batches)} if to_bootstrap else self._by_leader(topic, batches)
        for leader, parts in groups.items():
            version = self.api_version(API_PRODUCE, leader)
            td = TopicProduceData(partition_data=[
                PartitionProduceData(index=p, records=batches[p]) for p in parts])
            self._name_topic(td, "name", topic, version >= _PRODUCE_TOPIC_ID_MIN)
            req = ProduceRequest(acks=acks, timeout_ms=timeout_ms, topic_data=[td])
            resp = self.request(API_PRODUCE, req, node=leader, version=version,
                                expect_response=acks != 0, wait_s=timeout_ms / 1000)
            if resp is None:
                out.update(dict.fromkeys(parts))
                continue
            for tr in resp.responses or ():
                for pr in tr.partition_responses or ():
                    message = pr.error_message
                    if pr.record_errors:
                        details = "; ".join(f"record {e.batch_index}: {e.batch_index_error_message}"
                                            for e in pr.record_errors)
                        message = f"{message}; {details}" if message else details
                    self._partition_error(pr.error_code, message, topic, pr.index)
                    out[pr.index] = pr.base_offset
        missing = set(batches) - set(out)
        if missing:
            raise KafkaClientError(ErrorCode.UNKNOWN_SERVER_ERROR,
                                   f"no produce result for {topic} partitions {sorted(missing)}")
        return out

    def fetch(self, topic: str, partition: int, offset: int, max_wait_ms: int = 500,
              max_bytes: int = 1 << 20) -> bytes:
        """Raw record batches of ``topic-partition`` from ``offset`` (maybe b"")."""
        got = self.fetch_many(topic, {partition: offset}, max_wait_ms, max_bytes)
        return got[partition].records

    def fetch_many(self, topic: str, offsets: dict[int, int], max_wait_ms: int = 500,
                   max_bytes: int = 1 << 20, min_bytes: int = 1,
                   partition_max_bytes: int | None = None) -> dict[int, FetchedPartition]:
        """A sessionless read_uncommitted Fetch per leader -> partition: FetchedPartition.

        Leaders are asked one after the other, each may hold the request for
        up to ``max_wait_ms`` when it has nothing new. Any partition error raises.
        """
        out: dict[int, FetchedPartition] = {}
        pmax = partition_max_bytes or max_bytes
        for leader, parts in self._by_leader(topic, offsets).items():
            version = self.api_version(API_FETCH, leader)
            ft = FetchTopic(partitions=[
                FetchPartition(partition=p, fetch_offset=offsets[p], partition_max_bytes=pmax)
                for p in parts])
            self._name_topic(ft, "topic", topic, version >= _FETCH_TOPIC_ID_MIN)
            req = FetchRequest(replica_id=-1, max_wait_ms=max_wait_ms, min_bytes=min_bytes,
                               max_bytes=max_bytes, isolation_level=0, session_id=0,
                               session_epoch=-1, topics=[ft], forgotten_topics_data=[])
            resp = self.request(API_FETCH, req, node=leader, version=version,
                                wait_s=max_wait_ms / 1000)
            _check(getattr(resp, "error_code", 0), None, f"Fetch from broker {leader}")
            for tr in resp.responses or ():
                for pd in tr.partitions or ():
                    self._partition_error(pd.error_code, None, topic, pd.partition_index)
                    records = bytes(pd.records) if pd.records is not None else b""
                    out[pd.partition_index] = FetchedPartition(
                        pd.partition_index, pd.high_watermark, pd.last_stable_offset,
                        pd.log_start_offset, records)
        missing = set(offsets) - set(out)
        if missing:
            raise KafkaClientError(ErrorCode.UNKNOWN_SERVER_ERROR,
                                   f"no fetch result for {topic} partitions {sorted(missing)}")
        return out

    def list_offsets(self, topic: str, partition: int, timestamp: int) -> tuple[int, int]:
        """ListOffsets for one partition -> (offset, timestamp).

        ``timestamp`` is a time in ms (first offset whose timestamp is at or
        after it; offset -1 when there is none), ``EARLIEST_TIMESTAMP`` or
        ``LATEST_TIMESTAMP``.
        """
        return self.list_offsets_many(topic, {partition: timestamp})[partition]

    def list_offsets_many(self, topic: str, timestamps: dict[int, int]) -> dict[int, tuple[int, int]]:
        out: dict[int, tuple[int, int]] = {}
        for leader, parts in self._by_leader(topic, timestamps).items():
            version = self.api_version(API_LIST_OFFSETS, leader)
            req = ListOffsetsRequest(
                replica_id=-1, isolation_level=0,
                topics=[ListOffsetsTopic(name=topic, partitions=[
                    ListOffsetsPartition(partition_index=p, timestamp=timestamps[p]) for p in parts])])
            if version >= 10:
                req.timeout_ms = int(self.timeout * 1000)
            resp = self.request(API_LIST_OFFSETS, req, node=leader, version=version)
            for tr in resp.topics or ():
                for pr in tr.partitions or ():
                    self._partition_error(pr.error_code, None, topic, pr.partition_index)
                    out[pr.partition_index] = (pr.offset, pr.timestamp)
        missing = set(timestamps) - set(out)
        if missing:
            raise KafkaClientError(ErrorCode.UNKNOWN_SERVER_ERROR,
                                   f"no ListOffsets result for {topic} partitions {sorted(missing)}")
        return out

    # -- consumer groups ------------------------------------------------------------------------

    def find_coordinator(self, group_id: str, refresh: bool = False) -> int:
        """The node id of ``group_id``'s coordinator (cached per group unless ``refresh``)."""
        if not refresh and group_id in self._coordinators:
            return self._coordinators[group_id]
        deadline = time.monotonic() + self.timeout
        while True:
            version = self.api_version(API_FIND_COORDINATOR)
            if version >= _FIND_COORDINATOR_KEYS_MIN:
                req = FindCoordinatorRequest(key_type=_COORDINATOR_GROUP, coordinator_keys=[group_id])
            else:
                req = FindCoordinatorRequest(key=group_id, key_type=_COORDINATOR_GROUP)
            resp = self.request(API_FIND_COORDINATOR, req, version=version)
            if version >= _FIND_COORDINATOR_KEYS_MIN:
                found = next((c for c in resp.coordinators or () if c.key == group_id), None)
                if found is None:
                    raise KafkaClientError(ErrorCode.UNKNOWN_SERVER_ERROR,
                                           f"FindCoordinator answered without group {group_id!r}")
                code, message = found.error_code, found.error_message
                node, host, port = found.node_id, found.host, found.port
            else:
                code, message = resp.error_code, getattr(resp, "error_message", None)
                node, host, port = resp.node_id, resp.host, resp.port
            if code in _COORDINATOR_RETRY and time.monotonic() < deadline:
                time.sleep(0.1)
                continue
            _check(code, message, f"FindCoordinator for group {group_id!r}")
            break
        if node not in self._brokers:
            self._brokers[node] = BrokerInfo(node, host, port)
        self._coordinators[group_id] = node
        return node

    def _group_request(self, group_id: str, send):
        """Run ``send(coordinator node) -> result``; on coordinator errors look it up again and retry.

        ``send`` raises ``KafkaClientError`` for error codes; those in
        ``_COORDINATOR_RETRY`` are retried until the client's timeout.
        """
        deadline = time.monotonic() + self.timeout
        refresh = False
        while True:
            node = self.find_coordinator(group_id, refresh=refresh)
            try:
                return send(node)
            except KafkaClientError as e:
                if e.code not in _COORDINATOR_RETRY or time.monotonic() >= deadline:
                    raise
            refresh = True
            time.sleep(0.1)

    def share_group_describe(self, group_id: str):
        """ShareGroupDescribe of one share group (the generated DescribedGroup; raises on its error)."""
        from kwire.protocol.generated.share_group_describe_request import ShareGroupDescribeRequest

        def send(node):
            g = self.request(API_SHARE_GROUP_DESCRIBE, ShareGroupDescribeRequest(group_ids=[group_id]),
                             node=node).groups[0]
            _check(g.error_code, g.error_message, f"share group {group_id!r}")
            return g
        return self._group_request(group_id, send)

    def share_group_offsets(self, group_id: str) -> list[tuple[str, int, int, int | None]]:
        """DescribeShareGroupOffsets: (topic, partition, start offset, lag or None) of every share
        partition the group has state for, sorted."""
        from kwire.protocol.generated.describe_share_group_offsets_request import (
            DescribeShareGroupOffsetsRequest, DescribeShareGroupOffsetsRequestGroup)

        def send(node):
            g = self.request(API_DESCRIBE_SHARE_GROUP_OFFSETS, DescribeShareGroupOffsetsRequest(groups=[
                DescribeShareGroupOffsetsRequestGroup(group_id=group_id, topics=None)]), node=node).groups[0]
            _check(g.error_code, g.error_message, f"share group {group_id!r}")
            return sorted((t.topic_name, p.partition_index, p.start_offset, p.lag if p.lag >= 0 else None)
                          for t in g.topics for p in t.partitions)
        return self._group_request(group_id, send)

    def list_groups(self, states: Iterable[str] | None = None) -> list[GroupListing]:
        """Every group on every broker (ListGroups), optionally only those in ``states``."""
        self.metadata([])
        out: dict[str, GroupListing] = {}
        for node in sorted(self._brokers):
            version = self.api_version(API_LIST_GROUPS, node)
            req = ListGroupsRequest(states_filter=list(states or ()), types_filter=[])
            resp = self.request(API_LIST_GROUPS, req, node=node, version=version)
            _check(resp.error_code, None, f"ListGroups from broker {node}")
            for g in resp.groups or ():
                out[g.group_id] = GroupListing(g.group_id, g.protocol_type,
                                               g.group_state if version >= 4 else None,
                                               g.group_type if version >= 5 else None)
        listed = list(out.values())
        if states and listed and listed[0].state is None:  # an old broker ignored the filter
            raise KafkaClientError(ErrorCode.UNSUPPORTED_VERSION, "the broker cannot filter groups by state")
        return sorted(listed, key=lambda g: g.group_id)

    def describe_group(self, group_id: str) -> GroupDescription:
        """DescribeGroups for one group, else ConsumerGroupDescribe; unknown: state ``Dead``.

        DescribeGroups describes classic groups only; from v6 it answers
        GROUP_ID_NOT_FOUND for unknown groups and for KIP-848 consumer
        groups (before v6: no error, state Dead). Those are then asked for
        with ConsumerGroupDescribe when the broker has it, as Kafka's admin
        client does in the other order.
        """
        def send(node: int) -> GroupDescription | None:
            req = DescribeGroupsRequest(groups=[group_id], include_authorized_operations=False)
            resp = self.request(API_DESCRIBE_GROUPS, req, node=node)
            g = next((g for g in resp.groups or () if g.group_id == group_id), None)
            if g is None:
                raise KafkaClientError(ErrorCode.UNKNOWN_SERVER_ERROR,
                                       f"DescribeGroups answered without group {group_id!r}")
            if g.error_code == ErrorCode.GROUP_ID_NOT_FOUND or (not g.error_code and g.group_state == "Dead"):
                return None
            _check(g.error_code, getattr(g, "error_message", None), f"group {group_id!r}")
            members = []
            for m in g.members or ():
                assignment: dict[str, list[int]] = {}
                if g.protocol_type == "consumer" and m.member_assignment:
                    try:
                        assignment = decode_consumer_assignment(m.member_assignment)
                    except ValueError:
                        assignment = {}  # a client's private format: shown as no partitions
                members.append(GroupMember(m.member_id, m.group_instance_id, m.client_id, m.client_host,
                                           assignment, bytes(m.member_metadata or b""),
                                           bytes(m.member_assignment or b"")))
            return GroupDescription(g.group_id, g.group_state, g.protocol_type, g.protocol_data, members)

        def send_848(node: int) -> GroupDescription | None:
            req = ConsumerGroupDescribeRequest(group_ids=[group_id], include_authorized_operations=False)
            resp = self.request(API_CONSUMER_GROUP_DESCRIBE, req, node=node)
            g = next((g for g in resp.groups or () if g.group_id == group_id), None)
            if g is None or g.error_code == ErrorCode.GROUP_ID_NOT_FOUND:
                return None
            _check(g.error_code, g.error_message, f"group {group_id!r}")
            members = []
            for m in g.members or ():
                assignment: dict[str, list[int]] = {}
                for tp in (m.assignment.topic_partitions if m.assignment else ()):
                    assignment.setdefault(tp.topic_name, []).extend(tp.partitions)
                members.append(GroupMember(m.member_id, m.instance_id, m.client_id, m.client_host,
                                           {t: sorted(ps) for t, ps in assignment.items()}, b"", b""))
            return GroupDescription(g.group_id, g.group_state, "consumer", g.assignor_name, members)

        found = self._group_request(group_id, send)
        if found is None and API_CONSUMER_GROUP_DESCRIBE in self._connection(
                self.find_coordinator(group_id)).versions:
            found = self._group_request(group_id, send_848)
        return found or GroupDescription(group_id, "Dead", "", "", [])

    def offset_fetch(self, group_id: str, partitions: dict[str, list[int]] | None = None
                     ) -> dict[tuple[str, int], CommittedOffset]:
        """Committed offsets of ``group_id`` -> (topic, partition): CommittedOffset.

        ``partitions`` None asks for every partition with a committed offset;
        when given, partitions without one are left out of the result.
        """
        def send(node: int) -> dict[tuple[str, int], CommittedOffset]:
            version = min(self.api_version(API_OFFSET_FETCH, node), _OFFSET_FETCH_MAX)
            if version >= _OFFSET_FETCH_GROUPS_MIN:
                topics = None if partitions is None else [
                    OffsetFetchRequestTopics(name=t, partition_indexes=list(ps)) for t, ps in partitions.items()]
                req = OffsetFetchRequest(groups=[OffsetFetchRequestGroup(group_id=group_id, topics=topics)],
                                         require_stable=True)
            else:
                if partitions is None and version < 2:
                    raise KafkaClientError(ErrorCode.UNSUPPORTED_VERSION,
                                           "fetching all committed offsets needs OffsetFetch v2+")
                topics = None if partitions is None else [
                    OffsetFetchRequestTopic(name=t, partition_indexes=list(ps)) for t, ps in partitions.items()]
                req = OffsetFetchRequest(group_id=group_id, topics=topics, require_stable=version >= 7)
            resp = self.request(API_OFFSET_FETCH, req, node=node, version=version)
            if version >= _OFFSET_FETCH_GROUPS_MIN:
                g = next((g for g in resp.groups or () if g.group_id == group_id), None)
                if g is None:
                    raise KafkaClientError(ErrorCode.UNKNOWN_SERVER_ERROR,
                                           f"OffsetFetch answered without group {group_id!r}")
                _check(g.error_code, None, f"group {group_id!r}")
                topics_out = g.topics or ()
            else:
                _check(getattr(resp, "error_code", 0), None, f"group {group_id!r}")
                topics_out = resp.topics or ()
            out: dict[tuple[str, int], CommittedOffset] = {}
            for t in topics_out:
                for p in t.partitions or ():
                    if p.error_code in _COORDINATOR_RETRY:
                        _check(p.error_code, None, f"group {group_id!r}")
                    _check(p.error_code, None, f"group {group_id!r} {t.name}-{p.partition_index}")
                    if p.committed_offset < 0:
                        continue  # asked for, never committed
                    out[(t.name, p.partition_index)] = CommittedOffset(
                        p.committed_offset, getattr(p, "committed_leader_epoch", -1), p.metadata)
            return out
        return self._group_request(group_id, send)

    def offset_commit(self, group_id: str, offsets: dict[tuple[str, int], int | tuple[int, str | None]],
                      member_id: str = "", member_epoch: int = -1) -> None:
        """A simple commit (generation -1, empty member id), as an administrator's reset does.

        ``offsets``: (topic, partition) -> offset or (offset, metadata). The
        broker refuses it (UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION) while the
        group has members. A member commits with its ``member_id`` and
        ``member_epoch`` (generation). Any partition error raises.
        """
        by_topic: dict[str, list[OffsetCommitRequestPartition]] = {}
        for (topic, partition), value in sorted(offsets.items()):
            offset, metadata = value if isinstance(value, tuple) else (value, "")
            by_topic.setdefault(topic, []).append(OffsetCommitRequestPartition(
                partition_index=partition, committed_offset=offset, committed_leader_epoch=-1,
                committed_metadata=metadata))

        def send(node: int) -> None:
            version = min(self.api_version(API_OFFSET_COMMIT, node), _OFFSET_COMMIT_MAX)
            req = OffsetCommitRequest(
                group_id=group_id, generation_id_or_member_epoch=member_epoch, member_id=member_id,
                group_instance_id=None,
                retention_time_ms=-1,
                topics=[OffsetCommitRequestTopic(name=t, partitions=ps) for t, ps in by_topic.items()])
            resp = self.request(API_OFFSET_COMMIT, req, node=node, version=version)
            first_error = None
            for t in resp.topics or ():
                for p in t.partitions or ():
                    if p.error_code in _COORDINATOR_RETRY:
                        _check(p.error_code, None, f"group {group_id!r}")
                    if p.error_code and first_error is None:
                        first_error = (p.error_code, f"group {group_id!r} {t.name}-{p.partition_index}")
            if first_error:
                _check(first_error[0], None, first_error[1])
        self._group_request(group_id, send)

    def delete_groups(self, group_ids: list[str]) -> dict[str, int]:
        """DeleteGroups, each at its coordinator -> group: error code (0 when deleted); never raises for them."""
        by_node: dict[int, list[str]] = {}
        for g in group_ids:
            by_node.setdefault(self.find_coordinator(g), []).append(g)
        out: dict[str, int] = {}
        for node, groups in by_node.items():
            resp = self.request(API_DELETE_GROUPS, DeleteGroupsRequest(groups_names=groups), node=node)
            for r in resp.results or ():
                out[r.group_id] = r.error_code
        retry = [g for g, code in out.items() if code in _COORDINATOR_RETRY]
        for g in retry:  # moved or loading coordinator: one group at a time, with the usual retry
            def send(node: int, g=g) -> int:
                resp = self.request(API_DELETE_GROUPS, DeleteGroupsRequest(groups_names=[g]), node=node)
                code = next((r.error_code for r in resp.results or () if r.group_id == g),
                            ErrorCode.UNKNOWN_SERVER_ERROR)
                _check(code if code in _COORDINATOR_RETRY else 0, None, f"group {g!r}")
                return code
            out[g] = self._group_request(g, send)
        for g in group_ids:
            out.setdefault(g, ErrorCode.UNKNOWN_SERVER_ERROR)
        return out

    def _name_topic(self, obj, name_attr: str, topic: str, by_id: bool) -> None:
        """Set a request topic's name, or its id for versions that only take ids."""
        if not by_id:
            setattr(obj, name_attr, topic)
            return
        topic_id = self._cached_topic(topic).topic_id
        if topic_id == _ZERO_UUID:
            raise KafkaClientError(ErrorCode.UNKNOWN_TOPIC_ID, f"no topic id known for {topic!r}")
        obj.topic_id = topic_id


def _resource(resource_type: int) -> str:
    return {RESOURCE_TOPIC: "topic", RESOURCE_BROKER: "broker"}.get(
        resource_type, f"resource type {resource_type}")
