"""DescribeTopicPartitions (key 75), v0: topics and partitions, paged (KIP-966).

The Java Admin client (3.8+) uses this for ``describeTopics()`` when the
broker advertises it, and Spark's driver does so before reading offsets.

Behaviour, as Kafka's broker (``DescribeTopicPartitionsRequestHandler`` and
the metadata cache's ``getTopicMetadataForDescribeTopicResponse``):

* an empty topic list means every topic; otherwise the named topics. Either
  way the topics are de-duplicated and answered in name order, starting at the
  cursor's topic (names sorting before it are skipped). A named list must
  contain the cursor's topic, else the request fails with INVALID_REQUEST;
* at most ``min(response_partition_limit, max.request.partition.size.limit)``
  partitions are returned. When a topic does not fit, it is answered with the
  partitions that do, and ``next_cursor`` points at the first one left out;
  when the budget is used up exactly, ``next_cursor`` points at partition 0
  of the next topic. The cursor's partition index applies to its topic only;
* a named topic that does not exist answers UNKNOWN_TOPIC_OR_PARTITION (or
  INVALID_TOPIC_EXCEPTION for an illegal name) with the zero topic id; when
  listing all topics there are none such;
* per partition: leader, leader epoch, replicas, ISR, and the KIP-966 eligible
  leader replicas / last known ELR (empty lists: kwire has no ELR yet, which
  is what Kafka reports with ELR disabled) and offline replicas (none on one
  node; in a cluster the replicas whose broker is not live, with leader -1 and
  LEADER_NOT_AVAILABLE when the leader is not live, as Metadata answers).

In a cluster, a named topic this broker has not seen yet is looked up in
ZooKeeper first (it may have been created through another broker a moment
ago) and waited for briefly, and a topic whose partitions have no leader
state yet is not shown, as Metadata does.

Topic authorized operations are always filled in (this API has no flag to ask
for them): with no ACLs yet that is every operation Kafka defines for topics.
"""

from __future__ import annotations

from kwire.cluster.metadata import topic_name_error
from kwire.handlers.common import AUTHORIZED_OPERATIONS_OMITTED, authorized_operations
from kwire.protocol.errors import ErrorCode
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.protocol.generated.describe_topic_partitions_response import (
    Cursor,
    DescribeTopicPartitionsResponse,
    DescribeTopicPartitionsResponsePartition,
    DescribeTopicPartitionsResponseTopic,
)

API_KEY = 75
MIN_VERSION = 0
MAX_VERSION = 0

DEFAULT_PARTITION_LIMIT = 2000  # Kafka's max.request.partition.size.limit default


def _broker_partition_limit(broker) -> int:
    try:
        return int(broker.config["max.request.partition.size.limit"])
    except (KeyError, TypeError, ValueError):
        return DEFAULT_PARTITION_LIMIT


def _partition(p, live=None, reported=()) -> DescribeTopicPartitionsResponsePartition:
    """``live`` (cluster mode): the live brokers; a replica elsewhere, or in ``reported`` (its
    broker's log dir holding it is offline), is offline, and a partition whose leader is not
    live answers LEADER_NOT_AVAILABLE with leader -1."""
    offline = [] if live is None else [r for r in p.replicas if r not in live or r in reported]
    leader = p.leader if live is None or p.leader in live else -1
    return DescribeTopicPartitionsResponsePartition(
        error_code=ErrorCode.LEADER_NOT_AVAILABLE if live is not None and leader < 0 else 0,
        partition_index=p.partition,
        leader_id=leader,
        leader_epoch=p.leader_epoch,
        replica_nodes=list(p.replicas),
        isr_nodes=list(p.isr),
        eligible_leader_replicas=[],
        last_known_elr=[],
        offline_replicas=offline,
    )


def handle(ctx, req):
    broker = ctx.broker
    if getattr(broker, "cluster_mode", False) and req.topics:
        missing = [t.name for t in req.topics if not broker.metadata.topic_ready(t.name)]
        if missing:  # perhaps created through another broker a moment ago
            return _after_catch_up(ctx, req, missing)
    return _answer(ctx, req)


async def _after_catch_up(ctx, req, names) -> DescribeTopicPartitionsResponse:
    await ctx.broker.metadata.catch_up(names)
    return _answer(ctx, req)


def _answer(ctx, req) -> DescribeTopicPartitionsResponse:
    md = ctx.broker.metadata
    cluster = getattr(ctx.broker, "cluster_mode", False)
    live = {b.node_id for b in md.brokers} if cluster else None
    reported = md.image.offline_replicas if cluster else {}
    topic_ops = authorized_operations("topic")
    cursor = req.cursor
    cursor_topic = cursor.topic_name if cursor is not None else ""
    fetch_all = not req.topics
    if fetch_all:
        names = {name for name in md.topics if name >= cursor_topic}
    else:
        names = {t.name for t in req.topics if t.name >= cursor_topic}
        if cursor is not None and cursor.topic_name not in names:
            return DescribeTopicPartitionsResponse(topics=[
                DescribeTopicPartitionsResponseTopic(error_code=ErrorCode.INVALID_REQUEST, name=t.name)
                for t in req.topics
            ])

    remaining = min(_broker_partition_limit(ctx.broker), req.response_partition_limit)
    out: list[DescribeTopicPartitionsResponseTopic] = []
    next_cursor = None
    for name in sorted(names):
        if remaining == 0:
            # The budget ran out exactly at a topic boundary: resume at this topic.
            next_cursor = Cursor(topic_name=name, partition_index=0)
            break
        if remaining < 0:
            break
        if not authorize(ctx, acl.DESCRIBE, acl.TOPIC, name):  # kwire.security: hidden, or refused if named
            if not fetch_all:
                out.append(DescribeTopicPartitionsResponseTopic(
                    error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, name=name, is_internal=False,
                    topic_authorized_operations=AUTHORIZED_OPERATIONS_OMITTED))
            continue
        topic_ops = authorized_operations("topic", ctx, name)
        t = md.topic(name)
        if t is not None and cluster and not md.topic_ready(name):
            t = None  # its partitions have no state yet: not shown until they have
        if t is None:
            if not fetch_all:
                err = (ErrorCode.INVALID_TOPIC_EXCEPTION if topic_name_error(name)
                       else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                out.append(DescribeTopicPartitionsResponseTopic(
                    error_code=err, name=name, is_internal=False,
                    topic_authorized_operations=topic_ops,
                ))
            continue
        start = cursor.partition_index if cursor is not None and name == cursor_topic else 0
        start = max(start, 0)
        upper = min(len(t.partitions), start + remaining)
        parts = [_partition(p, live, reported.get((t.name, p.partition), ())) for p in t.partitions[start:upper]]
        out.append(DescribeTopicPartitionsResponseTopic(
            error_code=0,
            name=t.name,
            topic_id=t.topic_id,
            is_internal=t.internal,
            partitions=parts,
            topic_authorized_operations=topic_ops,
        ))
        if upper < len(t.partitions):
            next_cursor = Cursor(topic_name=t.name, partition_index=upper)
            break
        remaining -= len(parts)
    return DescribeTopicPartitionsResponse(topics=out, next_cursor=next_cursor)
