"""CreateTopics (key 19), v2-7: create topics, or (``validate_only``) check them.

Each topic is created all or nothing (``Broker.create_topic``: its logs, then
its metadata record; leader = this broker), and the answer waits until the
metadata records are durable (the group commit of ``LocalMetadata``), so
``timeout_ms`` is not needed and a created topic is ready in the response. A
large request yields to the event loop every few milliseconds while it creates
topics, so other connections are served meanwhile. A log that cannot be
created, or metadata that cannot be written, answers KAFKA_STORAGE_ERROR with
the reason for that topic, and leaves nothing of it behind.

Checks, per topic, in Kafka's order (``ControllerApis.createTopics`` and
``ReplicationControlManager.createTopics``) with Kafka's messages:

1. a name given more than once in the request: INVALID_REQUEST
   "Duplicate topic name." (none of its entries is created);
2. an illegal name, or one that collides with an existing topic once '.' and
   '_' are treated alike: INVALID_TOPIC_EXCEPTION;
3. an existing topic: TOPIC_ALREADY_EXISTS "Topic 'x' already exists.";
4. configs: a null value, an unknown name or a bad value: INVALID_CONFIG;
5. manual ``assignments``: replication factor and partition count must be -1
   (else INVALID_REQUEST), each partition once, listed 0..n-1, each with a
   non-empty list of distinct registered brokers of one common size (else
   INVALID_REPLICA_ASSIGNMENT). On one node the only registered broker is
   this one;
6. otherwise ``replication_factor`` (-1: ``default.replication.factor``) must
   be positive and at most the number of brokers, else
   INVALID_REPLICATION_FACTOR; ``num_partitions`` (-1: ``num.partitions``)
   must be positive, else INVALID_PARTITIONS.

``validate_only`` runs all checks and creates nothing; the successful result
then carries the zero topic id (Kafka returns a random id that never exists).

Cluster mode (``broker.cluster_mode``, ZooKeeper): the topic is written to
ZooKeeper (``Broker.create_topic`` -> ``ZkMetadata.create_topic``) with Kafka's
placement over the live brokers, ``replication_factor`` (-1:
``default.replication.factor``) or the explicit ``assignments``; RF above the
live brokers answers INVALID_REPLICATION_FACTOR "Replication factor: 3 larger
than available brokers: 2." (Kafka's ZooKeeper-mode message). As Kafka's
``DelayedCreatePartitions``, the answer waits until this broker's image has
the topic with a leader for every partition (so a follow-up Metadata sees
it), at most ``timeout_ms``, then REQUEST_TIMED_OUT; ``timeout_ms`` <= 0
answers once ZooKeeper has the topic. ZooKeeper unreachable: REQUEST_TIMED_OUT
with a message naming ZooKeeper, at once.

Version notes: v5 (KIP-525) returns the new topic's partition count,
replication factor and configs (name, value, read-only, source, sensitive) —
unless the principal may not DESCRIBE_CONFIGS the topic: then, as Kafka, the
topic is created and answered with ``topic_config_error_code``
TOPIC_AUTHORIZATION_FAILED, partition count and replication factor -1 and no
configs; v5 is the
first flexible version; v6 (KIP-599) makes the controller mutation quota
strict: with a ``controller_mutation_rate`` for the client, each topic to
create takes its partition count from the client's token bucket
(``kwire.security.mutation_quota``, after the topic's own checks, never for
``validate_only``); once the bucket is empty the topic answers
THROTTLING_QUOTA_EXCEEDED and the response carries ``throttle_time_ms``
(v2-5: accepted, the response throttled); v7 (KIP-516) returns the topic id.
"""

from __future__ import annotations

import asyncio
import time
import uuid

from kwire.cluster.metadata import topic_name_error
from kwire.config import ConfigError, validate_topic_configs
from kwire.handlers.create_partitions import validate_manual_assignment
from kwire.handlers.describe_configs import kafka_topic_name_message, topic_config_entries
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.security.mutation_quota import UNBOUNDED, for_request
from kwire.protocol.generated.create_topics_response import (
    CreatableTopicConfigs,
    CreatableTopicResult,
    CreateTopicsResponse,
)

API_KEY = 19
MIN_VERSION = 2
MAX_VERSION = 7

_ZERO = uuid.UUID(int=0)
STRICT_QUOTA_SINCE = 6  # KIP-599: THROTTLING_QUOTA_EXCEEDED per topic from this version
YIELD_AFTER_S = 0.005  # let other connections run after this much work in one go


def _check_name(md, name: str) -> None:
    if topic_name_error(name):
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, kafka_topic_name_message(name))
    if md.topic(name) is not None:
        raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' already exists.")
    if "." in name or "_" in name:
        other = md.colliding_topic(name)
        if other is not None:
            raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION,
                             f"Topic '{name}' collides with existing topic: {other}")


def _check_configs(topic) -> dict[str, str]:
    nulls = [c.name for c in topic.configs if c.value is None]
    if nulls:
        raise KafkaError(ErrorCode.INVALID_CONFIG,
                         "Null value not supported for topic configs: " + ",".join(nulls))
    try:
        return validate_topic_configs({c.name: c.value for c in topic.configs})
    except ConfigError as e:
        raise KafkaError(ErrorCode.INVALID_CONFIG, str(e)) from None


def _placement(broker, topic) -> tuple[int, int]:
    """(partition count, replication factor) for the topic, or KafkaError."""
    md = broker.metadata
    registered = {b.node_id for b in md.brokers}
    if topic.assignments:
        if topic.replication_factor != -1:
            raise KafkaError(ErrorCode.INVALID_REQUEST,
                             "A manual partition assignment was specified, but replication "
                             "factor was not set to -1.")
        if topic.num_partitions != -1:
            raise KafkaError(ErrorCode.INVALID_REQUEST,
                             "A manual partition assignment was specified, but numPartitions "
                             "was not set to -1.")
        seen: set[int] = set()
        rf = None
        for a in topic.assignments:
            if a.partition_index in seen:
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                                 f"Found multiple manual partition assignments for partition "
                                 f"{a.partition_index}")
            validate_manual_assignment(list(a.broker_ids), registered, rf)
            rf = len(a.broker_ids)
            seen.add(a.partition_index)
        if seen != set(range(len(seen))):
            raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                             "partitions should be a consecutive 0-based integer sequence")
        return len(seen), rf
    if topic.replication_factor < -1 or topic.replication_factor == 0:
        raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                         "Replication factor must be larger than 0, or -1 to use the default value.")
    if topic.num_partitions < -1 or topic.num_partitions == 0:
        raise KafkaError(ErrorCode.INVALID_PARTITIONS,
                         "Number of partitions was set to an invalid non-positive value.")
    cfg = broker.config
    n = cfg["num.partitions"] if topic.num_partitions == -1 else topic.num_partitions
    rf = cfg["default.replication.factor"] if topic.replication_factor == -1 else topic.replication_factor
    if rf <= 0:
        raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                         f"Unable to replicate the partition {rf} time(s): Invalid replication "
                         f"factor {rf}: the replication factor must be positive.")
    if rf > len(registered) and getattr(broker, "cluster_mode", False):
        raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                         f"Replication factor: {rf} larger than available brokers: {len(registered)}.")
    if rf > len(registered):
        raise KafkaError(ErrorCode.INVALID_REPLICATION_FACTOR,
                         f"Unable to replicate the partition {rf} time(s): The target replication "
                         f"factor of {rf} cannot be reached because only {len(registered)} "
                         f"broker(s) are registered.")
    return n, rf


def _config_entries(broker, configs: dict[str, str], cache: dict) -> list[CreatableTopicConfigs]:
    """The v5+ config list of a new topic; topics with the same overrides share one list
    (within a request: most topics of a large request have the same ones)."""
    key = tuple(sorted(configs.items()))
    got = cache.get(key)
    if got is None:
        got = cache[key] = [CreatableTopicConfigs(name=e.name, value=e.value, read_only=e.read_only,
                                                  config_source=e.source, is_sensitive=e.is_sensitive)
                            for e in topic_config_entries(broker, configs)]
    return got


def _create(broker, topic, validate_only: bool, cache: dict, pending: list | None = None,
            quota=UNBOUNDED) -> CreatableTopicResult:
    """``pending`` (cluster mode): gets the ZooKeeper write's future of a created topic."""
    _check_name(broker.metadata, topic.name)
    configs = _check_configs(topic)
    n, rf = _placement(broker, topic)
    topic_id = _ZERO
    if not validate_only:
        quota.record(n)  # KIP-599 (THROTTLING_QUOTA_EXCEEDED when strict and exhausted)
    if not validate_only and pending is not None:
        assignment = ({a.partition_index: list(a.broker_ids) for a in topic.assignments}
                      if topic.assignments else None)
        pending.append(broker.create_topic(topic.name, n, configs, replication_factor=rf,
                                           assignment=assignment))
    elif not validate_only:
        topic_id = broker.create_topic(topic.name, n, configs).topic_id
    return CreatableTopicResult(
        name=topic.name,
        topic_id=topic_id,
        error_code=0,
        error_message=None,
        topic_config_error_code=0,
        num_partitions=n,
        replication_factor=rf,
        configs=_config_entries(broker, configs, cache),
    )


async def handle(ctx, req) -> CreateTopicsResponse:
    resp = await _authorized_create(ctx, req)
    for r in resp.topics:  # kwire.security: a created topic the principal may not DESCRIBE_CONFIGS
        if r.error_code == 0 and not authorize(ctx, acl.DESCRIBE_CONFIGS, acl.TOPIC, r.name):
            r.topic_config_error_code = ErrorCode.TOPIC_AUTHORIZATION_FAILED  # is created, as Kafka,
            r.num_partitions = r.replication_factor = -1  # with neither its layout nor configs
            r.configs = []
    return resp


async def _authorized_create(ctx, req) -> CreateTopicsResponse:
    if not authorize(ctx, acl.CREATE, acl.CLUSTER, acl.CLUSTER_NAME):  # kwire.security: else per topic
        denied = [t.name for t in req.topics if not authorize(ctx, acl.CREATE, acl.TOPIC, t.name)]
        if denied:
            req.topics = [t for t in req.topics if t.name not in denied]
            resp = await _authorized_create(ctx, req)
            resp.topics += [CreatableTopicResult(name=n, error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                                                 error_message="Authorization failed.") for n in denied]
            return resp
    if getattr(ctx.broker, "cluster_mode", False):
        return await _handle_cluster(ctx, req)
    md = ctx.broker.metadata
    quota = for_request(ctx, STRICT_QUOTA_SINCE)
    counts: dict[str, int] = {}
    for t in req.topics:
        counts[t.name] = counts.get(t.name, 0) + 1
    results: list[CreatableTopicResult] = []
    waiting: list[tuple[int, asyncio.Future]] = []  # (index in results, durability of its record)
    started = time.monotonic()
    entries_cache: dict = {}
    for t in req.topics:
        if counts[t.name] > 1:
            continue
        try:
            results.append(_create(ctx.broker, t, req.validate_only, entries_cache, quota=quota))
            fut = None if req.validate_only else md.durable()
            if fut is not None:
                waiting.append((len(results) - 1, fut))
        except KafkaError as e:
            results.append(CreatableTopicResult(name=t.name, error_code=e.code, error_message=e.message))
        if time.monotonic() - started > YIELD_AFTER_S:
            await asyncio.sleep(0)
            started = time.monotonic()
    for i, fut in waiting:
        try:
            await fut
        except KafkaError as e:
            results[i] = CreatableTopicResult(name=results[i].name, error_code=e.code, error_message=e.message)
    for name, n in counts.items():
        if n > 1:
            results.append(CreatableTopicResult(name=name, error_code=ErrorCode.INVALID_REQUEST,
                                                error_message="Duplicate topic name."))
    return CreateTopicsResponse(throttle_time_ms=quota.throttle_time_ms(), topics=results)


def _ready(md, name: str, topic_id) -> bool:
    t = md.topic(name)
    return (t is not None and t.topic_id == topic_id and bool(t.partitions)
            and all(p.leader >= 0 for p in t.partitions))


async def _handle_cluster(ctx, req) -> CreateTopicsResponse:
    md = ctx.broker.metadata
    quota = for_request(ctx, STRICT_QUOTA_SINCE)
    counts: dict[str, int] = {}
    for t in req.topics:
        counts[t.name] = counts.get(t.name, 0) + 1
    results: list[CreatableTopicResult] = []
    waiting: list[tuple[int, object]] = []
    entries_cache: dict = {}
    for t in req.topics:
        if counts[t.name] > 1:
            continue
        pending: list = []
        try:
            results.append(_create(ctx.broker, t, req.validate_only, entries_cache, pending, quota))
        except KafkaError as e:
            results.append(CreatableTopicResult(name=t.name, error_code=e.code, error_message=e.message))
            continue
        if pending:
            waiting.append((len(results) - 1, pending[0]))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + max(req.timeout_ms, 0) / 1000
    for i, fut in waiting:
        r = results[i]
        try:
            r.topic_id = await fut
        except KafkaError as e:
            results[i] = CreatableTopicResult(name=r.name, error_code=e.code, error_message=e.message)
            continue
        if req.timeout_ms <= 0:
            continue
        if not await md.until(lambda: _ready(md, r.name, r.topic_id), max(deadline - loop.time(), 0)):
            r.error_code = ErrorCode.REQUEST_TIMED_OUT
            r.error_message = (f"The topic {r.name} was created, but not every partition had a leader "
                               f"within {req.timeout_ms} ms.")
    for name, n in counts.items():
        if n > 1:
            results.append(CreatableTopicResult(name=name, error_code=ErrorCode.INVALID_REQUEST,
                                                error_message="Duplicate topic name."))
    return CreateTopicsResponse(throttle_time_ms=quota.throttle_time_ms(), topics=results)
