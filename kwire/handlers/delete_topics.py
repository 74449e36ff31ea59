"""DeleteTopics (key 20), v1-6: delete topics by name, or (v6+) by topic id.

The answer waits until the removal is durable in the metadata log; the
partition logs are deleted at that point (``Broker.delete_topic``), so when the
response is sent the topic and its logs are gone and ``timeout_ms`` is not
needed. A removal that cannot be written answers KAFKA_STORAGE_ERROR and the
topic stays, logs and all.

Behaviour (Kafka's ``ControllerApis.deleteTopics``):

* ``delete.topic.enable=false`` fails the whole request: every topic answers
  TOPIC_DELETION_DISABLED (v3+) or INVALID_REQUEST (v1-2);
* a name given twice answers INVALID_REQUEST "Duplicate topic name." (an id
  twice: "Duplicate topic id."), a v6 entry with both a name and an id, or
  neither, answers INVALID_REQUEST, and a name that resolves to an id also
  given by id answers INVALID_REQUEST for the name;
* an unknown name answers UNKNOWN_TOPIC_OR_PARTITION, an unknown id
  UNKNOWN_TOPIC_ID (the result then has a null name).

One deliberate difference: Kafka's broker lets a client delete
``__consumer_offsets`` / ``__transaction_state`` (only the kafka-topics tool
refuses). kwire's coordinators keep live state in those partitions, so they
answer INVALID_TOPIC_EXCEPTION with the tool's message instead.

Cluster mode (``broker.cluster_mode``, ZooKeeper): the topic is queued under
``/admin/delete_topics``; the controller deletes it from ZooKeeper and every
broker holding a replica removes its log when the topic leaves its image. As
Kafka's ``DelayedDeleteTopics``, the answer waits until the topic is gone
from this broker's image, at most ``timeout_ms`` (then REQUEST_TIMED_OUT).
ZooKeeper unreachable: REQUEST_TIMED_OUT naming ZooKeeper, at once.

Controller mutation quota (KIP-599): with a ``controller_mutation_rate`` for
the client, each topic to delete takes its partition count from the client's
token bucket (``kwire.security.mutation_quota``) once its checks passed; from
v5 a topic met with an empty bucket answers THROTTLING_QUOTA_EXCEEDED and the
response carries ``throttle_time_ms`` (v1-4: deleted, the response throttled).

Version notes: v4 is the first flexible version, v5 adds ``error_message``
(KIP-599), v6 adds topic ids (KIP-516). Results are in request order (Kafka
shuffles them to hide which topics exist).

Authorization (Kafka's ControllerApis): DELETE on the cluster allows every
topic; otherwise a name the principal may not DESCRIBE answers
TOPIC_AUTHORIZATION_FAILED whether it exists or not, and a topic without
DELETE on it TOPIC_AUTHORIZATION_FAILED.
"""

from __future__ import annotations

import asyncio
import uuid

from kwire.handlers.common import when_durable
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.security.mutation_quota import UNBOUNDED, for_request
from kwire.protocol.generated.delete_topics_response import DeletableTopicResult, DeleteTopicsResponse

API_KEY = 20
MIN_VERSION = 1
MAX_VERSION = 6

_ZERO = uuid.UUID(int=0)
UNKNOWN_TOPIC_MESSAGE = "This server does not host this topic-partition."
UNKNOWN_TOPIC_ID_MESSAGE = "This server does not host this topic ID."


def _result(name, topic_id, code=ErrorCode.NONE, message=None) -> DeletableTopicResult:
    return DeletableTopicResult(name=name, topic_id=topic_id or _ZERO, error_code=code,
                                error_message=message)


def _deletion_enabled(broker) -> bool:
    try:
        return bool(broker.config["delete.topic.enable"])
    except KeyError:
        return True


STRICT_QUOTA_SINCE = 5  # KIP-599


def handle(ctx, req):
    broker = ctx.broker
    md = broker.metadata
    v = ctx.api_version
    quota = for_request(ctx, STRICT_QUOTA_SINCE)
    # (name, id) as given; exactly one of them is set for a well-formed entry.
    given: list[tuple[str | None, uuid.UUID]] = (
        [(t.name, t.topic_id) for t in req.topics] if v >= 6 else [(n, _ZERO) for n in req.topic_names]
    )

    if not _deletion_enabled(broker):
        code = ErrorCode.TOPIC_DELETION_DISABLED if v >= 3 else ErrorCode.INVALID_REQUEST
        return DeleteTopicsResponse(responses=[
            _result(name, tid, code, "Topic deletion is disabled.") for name, tid in given
        ])

    results: list[DeletableTopicResult] = []
    name_count: dict[str, int] = {}
    id_count: dict[uuid.UUID, int] = {}
    for name, tid in given:
        if name is None:
            if tid == _ZERO:
                results.append(_result(None, _ZERO, ErrorCode.INVALID_REQUEST,
                                       "Neither topic name nor id were specified."))
            else:
                id_count[tid] = id_count.get(tid, 0) + 1
        elif tid != _ZERO:
            results.append(_result(name, tid, ErrorCode.INVALID_REQUEST,
                                   "You may not specify both topic name and topic id."))
        else:
            name_count[name] = name_count.get(name, 0) + 1
    for name, n in name_count.items():
        if n > 1:
            results.append(_result(name, _ZERO, ErrorCode.INVALID_REQUEST, "Duplicate topic name."))
    for tid, n in id_count.items():
        if n > 1:
            results.append(_result(None, tid, ErrorCode.INVALID_REQUEST, "Duplicate topic id."))

    # Resolve ids, then names, to the set of topics to delete (id -> name).
    to_delete: dict[uuid.UUID, str] = {}
    bad_ids = {tid for tid, n in id_count.items() if n > 1}
    for tid, n in id_count.items():
        if n > 1:
            continue
        t = md.topic_by_id(tid)
        if t is None:
            results.append(_result(None, tid, ErrorCode.UNKNOWN_TOPIC_ID, UNKNOWN_TOPIC_ID_MESSAGE))
        else:
            to_delete[tid] = t.name
    # kwire.security (Kafka's ControllerApis): DELETE on the cluster allows every topic; a name the
    # principal may not DESCRIBE is refused before its existence is looked at
    cluster_delete = authorize(ctx, acl.DELETE, acl.CLUSTER, acl.CLUSTER_NAME)
    for name, n in name_count.items():
        if n > 1:
            continue
        t = md.topic(name)
        if not cluster_delete and not authorize(ctx, acl.DESCRIBE, acl.TOPIC, name):
            results.append(_result(name, _ZERO, ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Authorization failed."))
        elif t is None:
            results.append(_result(name, _ZERO, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_MESSAGE))
        elif t.topic_id in bad_ids or t.topic_id in to_delete:
            bad_ids.add(t.topic_id)
            to_delete.pop(t.topic_id, None)
            results.append(_result(name, t.topic_id, ErrorCode.INVALID_REQUEST,
                                   "The provided topic name maps to an ID that was already supplied."))
        else:
            to_delete[t.topic_id] = name

    waiting: list[tuple[int, object]] = []
    for tid, name in to_delete.items():
        t = md.topic_by_id(tid)
        if not cluster_delete and not authorize(ctx, acl.DELETE, acl.TOPIC, name):  # kwire.security
            results.append(_result(name, tid, ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                                   "Authorization failed."))
            continue
        if t is not None and t.internal:
            results.append(_result(name, tid, ErrorCode.INVALID_TOPIC_EXCEPTION,
                                   f"Topic {name} is a kafka internal topic and is not allowed "
                                   f"to be marked for deletion."))
            continue
        try:
            quota.record(len(t.partitions) if t is not None else 0)  # KIP-599
            broker.delete_topic(name)
        except KafkaError as e:
            results.append(_result(name, tid, e.code, e.message))
            continue
        results.append(_result(name, tid))
        fut = md.durable()
        if fut is not None:
            waiting.append((len(results) - 1, fut))
    if getattr(broker, "cluster_mode", False) and to_delete:
        return _when_gone(md, results, waiting, req.timeout_ms, quota)
    if not waiting:
        return DeleteTopicsResponse(throttle_time_ms=quota.throttle_time_ms(), responses=results)
    return _when_durable(results, waiting, quota)


async def _when_gone(md, results, waiting, timeout_ms: int, quota=UNBOUNDED) -> DeleteTopicsResponse:
    """Cluster mode: once queued in ZooKeeper, wait until each topic has left the image."""
    results = await when_durable(results, waiting)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(timeout_ms, 0) / 1000
    for r in results:
        if r.error_code != ErrorCode.NONE or r.topic_id == _ZERO or timeout_ms <= 0:
            continue
        if not await md.until(lambda: md.topic_by_id(r.topic_id) is None, max(deadline - loop.time(), 0)):
            r.error_code = ErrorCode.REQUEST_TIMED_OUT
            r.error_message = f"The deletion of {r.name} did not complete within {timeout_ms} ms."
    return DeleteTopicsResponse(throttle_time_ms=quota.throttle_time_ms(), responses=results)


async def _when_durable(results, waiting, quota=UNBOUNDED) -> DeleteTopicsResponse:
    results = await when_durable(results, waiting)
    return DeleteTopicsResponse(throttle_time_ms=quota.throttle_time_ms(), responses=results)
