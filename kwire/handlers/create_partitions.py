"""CreatePartitions (key 37), v0-3: grow a topic's partition count (KIP-195).

Behaviour (Kafka's ``ControllerApis.createPartitions`` and
``ReplicationControlManager.createPartitions``), per topic:

* a topic named twice in one request answers INVALID_REQUEST
  "Duplicate topic name." and is not changed;
* an unknown topic answers UNKNOWN_TOPIC_OR_PARTITION;
* ``count`` must be larger than the current count, else INVALID_PARTITIONS
  ("Topic already has N partition(s)." / "... would not be an increase.");
* manual ``assignments`` (null means "let the broker place them") need one
  entry per new partition, each a non-empty list of distinct registered
  brokers of the topic's replication factor, else INVALID_REPLICA_ASSIGNMENT
  with Kafka's messages. On one node the only registered broker is this one;
* ``validate_only`` runs every check and changes nothing.

New partitions are created at once (logs first, then the metadata record;
leader = this broker, epoch 0) and the answer waits until the record is
durable, so ``timeout_ms`` is not needed. A log or metadata write that fails
answers KAFKA_STORAGE_ERROR and leaves the partition count as it was. Cluster mode (``broker.cluster_mode``, ZooKeeper): the assignment znode is
rewritten (new partitions placed as Kafka's ``AdminZkClient.addPartitions``
does, or the manual ``assignments``), and the answer waits until this
broker's image has every new partition with a leader, at most ``timeout_ms``
(then REQUEST_TIMED_OUT). Brokers of a manual assignment must be live.

v2 is the first flexible version; v3 (KIP-599) makes the controller mutation
quota strict: with a ``controller_mutation_rate`` for the client, the new
partitions of each topic are taken from the client's token bucket
(``kwire.security.mutation_quota``, after the topic's checks, not for
``validate_only``); once it is empty the topic answers
THROTTLING_QUOTA_EXCEEDED with ``throttle_time_ms`` (v0-2: accepted and
throttled).
"""

from __future__ import annotations

import asyncio

from kwire.handlers.common import when_durable
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.security.mutation_quota import UNBOUNDED, for_request
from kwire.protocol.generated.create_partitions_response import (
    CreatePartitionsResponse,
    CreatePartitionsTopicResult,
)

API_KEY = 37
MIN_VERSION = 0
MAX_VERSION = 3

UNKNOWN_TOPIC_MESSAGE = "This server does not host this topic-partition."


def validate_manual_assignment(replicas: list[int], registered: set[int],
                               replication_factor: int | None) -> None:
    """Kafka's checks on one partition's manual replica list; raises INVALID_REPLICA_ASSIGNMENT."""
    if not replicas:
        raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                         "The manual partition assignment includes an empty replica list.")
    prev = None
    for broker_id in sorted(replicas):
        if broker_id not in registered:
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                             f"The manual partition assignment includes broker {broker_id}, "
                             f"but no such broker is registered.")
        if broker_id == prev:
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                             f"The manual partition assignment includes the broker {prev} more than once.")
        prev = broker_id
    if replication_factor is not None and len(replicas) != replication_factor:
        raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                         f"The manual partition assignment includes a partition with {len(replicas)} "
                         f"replica(s), but this is not consistent with previous partitions, which have "
                         f"{replication_factor} replica(s).")


STRICT_QUOTA_SINCE = 3  # KIP-599


def _create(broker, topic, validate_only: bool, quota=UNBOUNDED):
    """None, or (cluster mode) the ZooKeeper write's future."""
    md = broker.metadata
    t = md.topic(topic.name)
    if t is None:
        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_MESSAGE)
    current = len(t.partitions)
    if topic.count == current:
        raise KafkaError(ErrorCode.INVALID_PARTITIONS, f"Topic already has {current} partition(s).")
    if topic.count < current:
        raise KafkaError(ErrorCode.INVALID_PARTITIONS,
                         f"The topic {topic.name} currently has {current} partition(s); "
                         f"{topic.count} would not be an increase.")
    additional = topic.count - current
    if topic.assignments is not None:
        if len(topic.assignments) != additional:
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                             f"Attempted to add {additional} additional partition(s), but only "
                             f"{len(topic.assignments)} assignment(s) were specified.")
        registered = {b.node_id for b in md.brokers}
        rf = len(t.partitions[0].replicas) if t.partitions else None
        for a in topic.assignments:
            validate_manual_assignment(list(a.broker_ids), registered, rf)
    if not validate_only and getattr(broker, "cluster_mode", False):
        assignment = None
        if topic.assignments is not None:
            assignment = {current + i: list(a.broker_ids) for i, a in enumerate(topic.assignments)}
        elif t.partitions and len(t.partitions[0].replicas) > len(md.brokers):
            rf = len(t.partitions[0].replicas)
            raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                             f"Replication factor: {rf} larger than available brokers: {len(md.brokers)}.")
        quota.record(additional)  # KIP-599 (THROTTLING_QUOTA_EXCEEDED when strict and exhausted)
        return broker.add_partitions(topic.name, topic.count, assignment)
    if not validate_only:
        quota.record(additional)
        broker.add_partitions(topic.name, topic.count)


def handle(ctx, req):
    md = ctx.broker.metadata
    quota = for_request(ctx, STRICT_QUOTA_SINCE)
    waiting: list[tuple[int, object]] = []
    seen: dict[str, int] = {}
    for topic in req.topics:
        seen[topic.name] = seen.get(topic.name, 0) + 1
    results: list[CreatePartitionsTopicResult] = []
    for name, n in seen.items():
        if n > 1:
            results.append(CreatePartitionsTopicResult(name=name, error_code=ErrorCode.INVALID_REQUEST,
                                                       error_message="Duplicate topic name."))
    for topic in req.topics:
        if seen[topic.name] > 1:
            continue
        if not authorize(ctx, acl.ALTER, acl.TOPIC, topic.name):  # kwire.security
            results.append(CreatePartitionsTopicResult(name=topic.name, error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                                                       error_message="Authorization failed."))
            continue
        try:
            zk_fut = _create(ctx.broker, topic, req.validate_only, quota)
        except KafkaError as e:
            results.append(CreatePartitionsTopicResult(name=topic.name, error_code=e.code,
                                                       error_message=e.message))
            continue
        results.append(CreatePartitionsTopicResult(name=topic.name, error_code=0, error_message=None))
        if zk_fut is not None:
            waiting.append((len(results) - 1, (zk_fut, topic.name, topic.count)))
            continue
        fut = None if req.validate_only else md.durable()
        if fut is not None:
            waiting.append((len(results) - 1, fut))
    if not waiting:
        return CreatePartitionsResponse(throttle_time_ms=quota.throttle_time_ms(), results=results)
    if getattr(ctx.broker, "cluster_mode", False):
        return _when_led(md, results, waiting, req.timeout_ms, quota)
    return _when_durable(results, waiting, quota)


async def _when_led(md, results, waiting, timeout_ms: int, quota=UNBOUNDED) -> CreatePartitionsResponse:
    """Cluster mode: the ZooKeeper write, then every new partition led in the image."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(timeout_ms, 0) / 1000
    for i, (fut, name, count) in waiting:
        r = results[i]
        try:
            await fut
        except KafkaError as e:
            r.error_code, r.error_message = e.code, e.message
            continue
        if timeout_ms <= 0:
            continue

        def led() -> bool:
            t = md.topic(name)
            return t is not None and len(t.partitions) >= count and all(p.leader >= 0 for p in t.partitions)

        if not await md.until(led, max(deadline - loop.time(), 0)):
            r.error_code = ErrorCode.REQUEST_TIMED_OUT
            r.error_message = f"The new partitions of {name} had no leader within {timeout_ms} ms."
    return CreatePartitionsResponse(throttle_time_ms=quota.throttle_time_ms(), results=results)


async def _when_durable(results, waiting, quota=UNBOUNDED) -> CreatePartitionsResponse:
    results = await when_durable(results, waiting)
    return CreatePartitionsResponse(throttle_time_ms=quota.throttle_time_ms(), results=results)
