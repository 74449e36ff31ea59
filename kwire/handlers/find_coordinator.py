"""FindCoordinator (key 10), v0-6: where a group's coordinator is.

Key type GROUP (0): the leader of the group's partition of
``__consumer_offsets`` (Kafka's ``partitionFor``: Java ``String.hashCode``),
read from the metadata image, so every broker gives the same answer; no
leader: COORDINATOR_NOT_AVAILABLE. The topic is created here on first use, as
Kafka does (embedded: this node, and the answer waits until the topic is
durable in the metadata; cluster mode: with ``offsets.topic.replication.factor``
replicas once that many brokers are alive, COORDINATOR_NOT_AVAILABLE until
then and until the controller elected its leaders). If the
offsets topic cannot be created (a log dir full, out of file descriptors, the
metadata write failing) every key answers COORDINATOR_NOT_AVAILABLE, as Kafka
does, and the connection stays open; the client retries.
v4+ (KIP-699) carries a batch of keys and answers per key; v0-3 one key with a
top-level answer. Key type TRANSACTION (1): the leader of the transactional
id's partition of ``__transaction_state`` (created on first use the same
way, ``transaction.state.log.*``). Key type SHARE (2, v6+; KIP-932): the
leader of the ``__share_group_state`` partition of the key
"groupId:topicId:partition" (``kwire.share.state``; created on first use the
same way, ``share.coordinator.state.topic.*``); as Kafka's getCoordinator,
below v6 or with a malformed key INVALID_REQUEST, without CLUSTER_ACTION on the
cluster CLUSTER_AUTHORIZATION_FAILED. Other key types answer INVALID_REQUEST.
The answer does not depend
on whether the group's partition is still loading; group requests answer
COORDINATOR_LOAD_IN_PROGRESS until it is.
"""

from __future__ import annotations

import base64
import binascii

from kwire.coordinator.base import CoordinatorError
from kwire.coordinator.runtime import GROUP_METADATA_TOPIC
from kwire.share.state import SHARE_STATE_TOPIC
from kwire.transactions.coordinator import TRANSACTION_STATE_TOPIC
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.security.manager import listener_brokers
from kwire.protocol.generated.find_coordinator_response import Coordinator, FindCoordinatorResponse

API_KEY = 10
MIN_VERSION = 0
MAX_VERSION = 6

GROUP, TRANSACTION, SHARE = 0, 1, 2


def handle(ctx, req):
    v = ctx.api_version
    key_type = req.key_type if v >= 1 else GROUP
    keys = req.coordinator_keys if v >= 4 else [req.key]
    md = ctx.broker.metadata
    topic = {TRANSACTION: TRANSACTION_STATE_TOPIC, SHARE: SHARE_STATE_TOPIC}.get(key_type, GROUP_METADATA_TOPIC)
    existed = md.topic(topic) is not None
    if key_type == SHARE:
        found = [_find_share(ctx, v, k) for k in keys]
    else:
        found = [_find(ctx.broker, key_type, k) if _may_describe(ctx, key_type, k) else
                 _error(k, _DENIED[key_type == TRANSACTION], "Not authorized to describe this key") for k in keys]
    ends = {b.node_id: b for b in listener_brokers(ctx, md.brokers)}  # kwire.security: per listener
    for c in found:
        if c.error_code == 0 and c.node_id in ends:
            c.host, c.port = ends[c.node_id].host, ends[c.node_id].port
    fut = None if existed or md.topic(topic) is None else md.durable()
    if fut is not None:
        return _when_durable(v, found, fut)
    return _response(v, found)


async def _when_durable(v: int, found: list[Coordinator], fut) -> FindCoordinatorResponse:
    try:
        await fut
    except KafkaError as e:
        found = [c if c.error_code else
                 _error(c.key, ErrorCode.COORDINATOR_NOT_AVAILABLE,
                        f"The offsets topic could not be created: {e.message}")
                 for c in found]
    return _response(v, found)


def _response(v: int, found: list[Coordinator]) -> FindCoordinatorResponse:
    if v >= 4:
        return FindCoordinatorResponse(throttle_time_ms=0, coordinators=found)
    c = found[0]
    return FindCoordinatorResponse(throttle_time_ms=0, error_code=c.error_code,
                                   error_message=c.error_message if v >= 1 else None,
                                   node_id=c.node_id, host=c.host, port=c.port)


_DENIED = (ErrorCode.GROUP_AUTHORIZATION_FAILED, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED)


def _may_describe(ctx, key_type: int, key: str) -> bool:
    """kwire.security: DESCRIBE on the group, or on the transactional id."""
    return authorize(ctx, acl.DESCRIBE, acl.TRANSACTIONAL_ID if key_type == TRANSACTION else acl.GROUP, key)


def _error(key: str, code: ErrorCode, message: str) -> Coordinator:
    return Coordinator(key=key, node_id=-1, host="", port=-1, error_code=code, error_message=message)


def _find_share(ctx, v: int, key: str) -> Coordinator:
    """A share partition's coordinator: key "groupId:topicId:partition" (Kafka's SharePartitionKey)."""
    if v < 6:
        return _error(key, ErrorCode.INVALID_REQUEST, "Share coordinators need FindCoordinator v6 or later.")
    if not authorize(ctx, acl.CLUSTER_ACTION, acl.CLUSTER, acl.CLUSTER_NAME):  # kwire.security
        return _error(key, ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Not authorized for CLUSTER_ACTION.")
    parts = key.rsplit(":", 2)
    try:
        group_id, topic_id, partition = parts[0], base64.urlsafe_b64decode(parts[1] + "=="), int(parts[2])
        if not group_id or len(topic_id) != 16 or partition < 0:
            raise ValueError
    except (ValueError, IndexError, binascii.Error):
        return _error(key, ErrorCode.INVALID_REQUEST, f"Invalid share coordinator key {key}.")
    store = ctx.broker.share_partitions.store
    try:
        store.ensure_topic()
    except KafkaError as e:
        return _error(key, ErrorCode.COORDINATOR_NOT_AVAILABLE, e.message or e.code.name)
    return _coordinator(ctx.broker, key, store.coordinator_node(group_id, topic_id, partition))


def _coordinator(broker, key: str, leader) -> Coordinator:
    node = next((b for b in broker.metadata.brokers if b.node_id == leader), None)
    if node is None:
        return _error(key, ErrorCode.COORDINATOR_NOT_AVAILABLE, "the coordinator partition has no leader")
    return Coordinator(key=key, node_id=node.node_id, host=node.host, port=node.port, error_code=0,
                       error_message=None)


def _find(broker, key_type: int, key: str) -> Coordinator:
    if key_type not in (GROUP, TRANSACTION):
        return _error(key, ErrorCode.INVALID_REQUEST, f"unsupported coordinator key type {key_type}")
    gc = broker.group_coordinator if key_type == GROUP else broker.txn_coordinator
    topic = GROUP_METADATA_TOPIC if key_type == GROUP else TRANSACTION_STATE_TOPIC
    try:
        gc.ensure_topic()
    except CoordinatorError as e:
        return _error(key, e.code, e.message or e.code.name)
    pstate = broker.metadata.partition(topic, gc.partition_for(key))
    return _coordinator(broker, key, pstate.leader if pstate is not None else None)
