"""Metadata (key 3), v0-13: brokers, cluster id, controller, topics and partitions.

Topics are asked for by name (v0+) or by topic id (v10+); a null topic list
(v1+) or an empty one in v0 means "all topics". An unknown topic is created
when the request allows it (v4+ ``allow_auto_topic_creation``, always before
v4) and ``auto.create.topics.enable`` is true, with ``num.partitions``
partitions; the answer waits until the new topic's metadata record is durable
(as CreateTopics does), so the topic is answered ready with its leaders rather
than LEADER_NOT_AVAILABLE. If that record cannot be written the topic is undone
and answered LEADER_NOT_AVAILABLE, Kafka's answer for a topic whose creation
it has asked for but that is not there yet (a client retries, which asks for
the creation again). Unknown topics otherwise
answer UNKNOWN_TOPIC_OR_PARTITION (by id: UNKNOWN_TOPIC_ID); illegal names
INVALID_TOPIC_EXCEPTION. Leader epochs (v7+), topic ids (v10+), internal flags
and authorized operations (v8+, when asked; everything is allowed until ACLs
exist) are filled in. Cluster authorized operations (v8-10) likewise.

A partition whose log dir is offline (see ``kwire.log.manager``) is listed
with error KAFKA_STORAGE_ERROR and this broker in ``offline_replicas``; its
leader and ISR are left as they are (there is no other replica to move to), so
a client that ignores the partition error gets KAFKA_STORAGE_ERROR from
Produce and Fetch too. Kafka's metadata cache would show no leader instead,
after its controller handled the failure.

Cluster mode (``broker.cluster_mode``, ZooKeeper; Kafka's ZooKeeper-mode
metadata cache): every broker answers from its image, so all give the same
view. Brokers are the live registered ones; a partition whose leader is -1 or
not live answers LEADER_NOT_AVAILABLE with leader -1; ``offline_replicas``
lists the replicas whose broker is not live, those every broker reported in
an offline log dir (``/kwire/offline_replicas``, see ``kwire.cluster.controller``),
and this broker for a partition in its own offline log dir. A partition this broker
resigned because its ZooKeeper session is gone (``kwire.replication.fencing``) is
answered without a leader (-1, LEADER_NOT_AVAILABLE): clients then ask again,
rather than sending to a leader that refuses them; and while such a broker leads
nothing it also leaves itself out of the brokers (KRaft leaves a fenced broker out),
so clients take their next Metadata from another broker, which knows the new leader.
Auto-creation asks ZooKeeper for the topic
(``default.replication.factor``, ``num.partitions``) and answers
LEADER_NOT_AVAILABLE until it is there, as Kafka does.
"""

from __future__ import annotations

from kwire.handlers.common import AUTHORIZED_OPERATIONS_OMITTED, authorized_operations
from kwire.handlers.metadata_blocks import CachedTopic, SplicedMetadataResponse, cached_topic
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security import acl
from kwire.security.manager import listener_brokers
from kwire.security.authorizer import active as authorizer_active, allowed as authorizer_allowed
from kwire.protocol.generated.metadata_response import (
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
)

API_KEY = 3
MIN_VERSION = 0
MAX_VERSION = 13


def topic_response(t, include_ops: bool, offline=None, live=None, node_id: int = -1,
                   reported=None, fenced=None) -> MetadataResponseTopic:
    """``offline(topic, partition)`` says whether a partition's log dir is offline; ``live``
    (cluster mode) is the set of live brokers; ``reported`` (cluster mode) maps (topic,
    partition) to the brokers whose replica is in an offline log dir; ``fenced(topic, partition)``
    (cluster mode) whether this broker resigned that partition's leadership (fencing)."""
    rows = _rows(t, offline, live, node_id, reported, fenced)
    return CachedTopic((t.name, t.internal, _topic_ops(include_ops)), rows, t.topic_id).topic()


def _topic_ops(include_ops: bool) -> int:
    return authorized_operations("topic") if include_ops else AUTHORIZED_OPERATIONS_OMITTED


def _rows(t, offline, live, node_id: int, reported, fenced) -> list[tuple]:
    """One tuple per partition: (error, index, leader, leader epoch, replicas, isr, offline
    replicas), what the answer says of it (``kwire.handlers.metadata_blocks``)."""
    if live is not None:
        return _cluster_rows(t, offline, live, node_id, reported or {}, fenced)
    if offline is None:
        return [(0, p.partition, p.leader, p.leader_epoch, tuple(p.replicas), tuple(p.isr), ())
                for p in t.partitions]
    rows = []
    for p in t.partitions:
        off = offline(t.name, p.partition)
        rows.append((ErrorCode.KAFKA_STORAGE_ERROR if off else 0, p.partition, p.leader, p.leader_epoch,
                     tuple(p.replicas), tuple(p.isr), (p.leader,) if off else ()))
    return rows


def _cluster_rows(t, offline, live, node_id: int, reported, fenced=None) -> list[tuple]:
    rows = []
    for p in t.partitions:
        gone = reported.get((t.name, p.partition), ())
        off = [r for r in p.replicas if r not in live or r in gone]
        if offline is not None and offline(t.name, p.partition) and node_id not in off:
            off.append(node_id)
        leader = p.leader if p.leader in live and p.leader not in off else -1
        if leader == node_id and fenced is not None and fenced(t.name, p.partition):
            leader = -1
        rows.append((ErrorCode.LEADER_NOT_AVAILABLE if leader < 0 else 0, p.partition, leader,
                     p.leader_epoch, tuple(p.replicas), tuple(p.isr), tuple(off)))
    return rows


def _self_fenced(broker) -> bool:
    replicas = getattr(broker, "replicas", None)
    fenced = getattr(replicas, "self_fenced", None)
    return bool(fenced and fenced())


def handle(ctx, req):
    broker = ctx.broker
    if getattr(broker, "cluster_mode", False) and req.topics:
        md = broker.metadata
        missing = [rt.name for rt in req.topics if rt.name is not None and not md.topic_ready(rt.name)]
        if missing:  # perhaps created through another broker a moment ago
            return _after_catch_up(ctx, req, missing)
    return _answer(ctx, req)


async def _after_catch_up(ctx, req, names):
    await ctx.broker.metadata.catch_up(names)
    result = _answer(ctx, req)
    return await result if not isinstance(result, MetadataResponse) else result


def _answer(ctx, req):
    broker = ctx.broker
    md = broker.metadata
    include_ops = bool(req.include_topic_authorized_operations)
    offline = broker.logs.is_offline if broker.logs.offline_dirs else None
    cluster = getattr(broker, "cluster_mode", False)
    live = {b.node_id for b in md.brokers} if cluster else None
    reported = md.image.offline_replicas if cluster else None
    replicas = getattr(broker, "replicas", None) if cluster else None
    fenced = getattr(replicas, "is_fenced", None)
    requested = req.topics
    az = authorizer_active(ctx)  # kwire.security: only topics the principal may DESCRIBE
    if az is None:  # the answer is the same for every principal: per-topic blocks, cached
        ops = _topic_ops(include_ops)

        def answer_topic(t, include_ops, offline, live, node_id, reported, fenced):
            return cached_topic(broker, t.topic_id, (t.name, t.internal, ops),
                                _rows(t, offline, live, node_id, reported, fenced))
    else:
        answer_topic = topic_response
    if requested is None or (ctx.api_version == 0 and not requested):
        topics = [answer_topic(t, include_ops, offline, live, broker.node_id, reported, fenced) for t in md.topics.values()
                  if (not cluster or md.topic_ready(t.name))
                  and (az is None or authorizer_allowed(ctx, az, acl.DESCRIBE, acl.TOPIC, t.name))]
    else:
        allow_create = req.allow_auto_topic_creation if ctx.api_version >= 4 else True
        topics = []
        created: list[int] = []  # indexes in topics of auto-created topics
        for rt in requested:
            if az is not None and not _describable(ctx, az, md, rt):
                topics.append(MetadataResponseTopic(error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                                                    name=None if _by_id(rt) else rt.name, topic_id=rt.topic_id))
                continue
            if _by_id(rt):
                t = md.topic_by_id(rt.topic_id)
                if t is None:
                    topics.append(MetadataResponseTopic(error_code=ErrorCode.UNKNOWN_TOPIC_ID,
                                                        name=None, topic_id=rt.topic_id))
                    continue
            else:
                t = md.topic(rt.name)
                if t is not None and cluster and not md.topic_ready(t.name):
                    # its partitions have no state yet: being created (Kafka's answer)
                    topics.append(MetadataResponseTopic(error_code=ErrorCode.LEADER_NOT_AVAILABLE, name=rt.name))
                    continue
                if t is None:
                    from kwire.cluster.metadata import topic_name_error

                    if topic_name_error(rt.name):
                        topics.append(MetadataResponseTopic(error_code=ErrorCode.INVALID_TOPIC_EXCEPTION,
                                                            name=rt.name))
                        continue
                    if allow_create and az is not None and broker.config["auto.create.topics.enable"] and not (
                            authorizer_allowed(ctx, az, acl.CREATE, acl.CLUSTER, acl.CLUSTER_NAME)
                            or authorizer_allowed(ctx, az, acl.CREATE, acl.TOPIC, rt.name)):
                        topics.append(MetadataResponseTopic(error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                                                            name=rt.name))
                        continue
                    if allow_create and cluster:
                        topics.append(MetadataResponseTopic(error_code=_auto_create_cluster(broker, rt.name),
                                                            name=rt.name))
                        continue
                    if allow_create:
                        t = broker.auto_create_topic(rt.name)
                    if t is None:
                        topics.append(MetadataResponseTopic(error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                                                            name=rt.name))
                        continue
                    created.append(len(topics))
            topics.append(answer_topic(t, include_ops, offline, live, broker.node_id, reported, fenced))
        fut = md.durable() if created else None
        if fut is not None:
            return _when_durable(fut, created, _response(ctx, req, md, topics))
    return _response(ctx, req, md, topics)


def _by_id(rt) -> bool:
    """Is this requested topic named by its id? (v10+: a non-zero id with a null -- or, from the
    Java client, which leaves the field at its default, an empty -- name; Kafka's useTopicId)"""
    return rt.name is None or (rt.name == "" and rt.topic_id is not None and rt.topic_id.int != 0)


def _describable(ctx, az, md, rt) -> bool:
    """kwire.security: may the principal DESCRIBE this requested topic (by name or by id)?"""
    name = rt.name
    if _by_id(rt):
        t = md.topic_by_id(rt.topic_id)
        if t is None:
            return True  # answered UNKNOWN_TOPIC_ID
        name = t.name
    return authorizer_allowed(ctx, az, acl.DESCRIBE, acl.TOPIC, name)


def _auto_create_cluster(broker, name: str) -> int:
    """Cluster mode: ask ZooKeeper for the topic; LEADER_NOT_AVAILABLE while it is on its way
    (Kafka's answer), UNKNOWN_TOPIC_OR_PARTITION when auto-creation is off."""
    if not broker.config["auto.create.topics.enable"]:
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    try:
        broker.auto_create_topic(name)
    except KafkaError:
        pass
    return ErrorCode.LEADER_NOT_AVAILABLE


async def _when_durable(fut, created: list[int], response: MetadataResponse) -> MetadataResponse:
    """Answer once the auto-created topics are durable; ones that could not be written are undone."""
    try:
        await fut
    except KafkaError:
        for i in created:
            response.topics[i] = MetadataResponseTopic(error_code=ErrorCode.LEADER_NOT_AVAILABLE,
                                                       name=response.topics[i].name)
    return response


def _response(ctx, req, md, topics) -> MetadataResponse:
    if authorizer_active(ctx) is not None:  # kwire.security: the principal's own operations
        for t in topics:
            if t.error_code == 0 and t.topic_authorized_operations != AUTHORIZED_OPERATIONS_OMITTED:
                t.topic_authorized_operations = authorized_operations("topic", ctx, t.name)
    cls = MetadataResponse if authorizer_active(ctx) is not None else SplicedMetadataResponse
    return cls(
        brokers=[MetadataResponseBroker(node_id=b.node_id, host=b.host, port=b.port, rack=b.rack)
                 for b in listener_brokers(ctx, md.brokers)  # kwire.security: per listener
                 if not (b.node_id == ctx.broker.node_id and _self_fenced(ctx.broker))],
        cluster_id=md.cluster_id,
        controller_id=md.controller_id,
        topics=topics,
        cluster_authorized_operations=(
            authorized_operations("cluster", ctx)
            if ctx.api_version <= 10 and req.include_cluster_authorized_operations
            else AUTHORIZED_OPERATIONS_OMITTED
        ),
    )
