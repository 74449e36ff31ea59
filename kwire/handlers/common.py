"""Small helpers shared by handler modules (not a handler itself).

* ``authorized_operations`` — the int32 bitfield of Kafka AclOperation codes
  reported when a client asks for authorized operations: without an
  authorizer every operation that applies to the resource type; with one
  (given the request context and resource name) those the principal may do;
  for the cluster 0 unless it may DESCRIBE it (KafkaApis).
* ``describe_groups`` — the per-group loop of ConsumerGroupDescribe and
  ShareGroupDescribe: DESCRIBE on each group, the coordinator's answer or the
  error as an empty group, authorized operations when asked.
* ``when_durable`` — waits for the metadata changes behind a response's results
  and turns each one that could not be written into that result's error;
  ``respond_when_durable`` is the response itself, or (a change to wait for) a
  coroutine answering it after ``when_durable``.
"""

from __future__ import annotations

import asyncio

from kwire.protocol.errors import KafkaError

# AclOperation codes (Kafka's org.apache.kafka.common.acl.AclOperation)
READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE = 3, 4, 5, 6, 7, 8
CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE = 9, 10, 11, 12
CREATE_TOKENS, DESCRIBE_TOKENS = 13, 14

AUTHORIZED_OPERATIONS_OMITTED = -2147483648

_OPS = {
    "topic": (READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS),
    "group": (READ, DELETE, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS),
    "cluster": (CREATE, ALTER, DESCRIBE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS,
                IDEMPOTENT_WRITE),
    "transactional_id": (WRITE, DESCRIBE),
}


_RESOURCE_TYPES = {"topic": 2, "group": 3, "cluster": 4, "transactional_id": 5}  # Kafka's ResourceType


def authorized_operations(resource: str, ctx=None, name: str = "kafka-cluster") -> int:
    """The AclOperation bitfield for ``resource`` (``ctx``, ``name``: with an authorizer, only the
    operations this request's principal may do on that resource, as Kafka reports them)."""
    if ctx is not None:
        from kwire.security.authorizer import active, allowed

        az = active(ctx)
        if az is not None:
            rt = _RESOURCE_TYPES[resource]
            if resource == "cluster" and not allowed(ctx, az, DESCRIBE, rt, name):
                return 0  # Kafka (Metadata v8-10, DescribeCluster): nothing without DESCRIBE
            bits = 0
            for op in _OPS[resource]:
                if allowed(ctx, az, op, rt, name):
                    bits |= 1 << op
            return bits
    bits = 0
    for op in _OPS[resource]:
        bits |= 1 << op
    return bits


def describe_groups(ctx, req, describe, described_group, adjust=None) -> list:
    """One ``described_group`` per id of ``req.group_ids``: ``describe(shard, group_id)`` run by
    the group coordinator when the principal may DESCRIBE the group (else
    GROUP_AUTHORIZATION_FAILED), a coordinator error as an empty group carrying it;
    ``adjust(group)`` (version fix-ups) before the authorized operations are filled in."""
    from kwire.coordinator.base import CoordinatorError
    from kwire.protocol.errors import ErrorCode
    from kwire.security import acl
    from kwire.security.authorizer import authorize

    gc = ctx.broker.group_coordinator
    groups = []
    for gid in req.group_ids:
        try:
            if not authorize(ctx, acl.DESCRIBE, acl.GROUP, gid):  # kwire.security
                raise CoordinatorError(ErrorCode.GROUP_AUTHORIZATION_FAILED)
            g = gc.run(gid, lambda shard, now, gid=gid: describe(shard, gid))
        except CoordinatorError as e:
            g = described_group(error_code=e.code, error_message=e.message, group_id=gid, members=[])
        if adjust is not None:
            adjust(g)
        g.authorized_operations = (authorized_operations("group", ctx, gid)
                                   if req.include_authorized_operations and g.error_code == 0
                                   else AUTHORIZED_OPERATIONS_OMITTED)
        groups.append(g)
    return groups


UNAUTHORIZED_TOPICS = "The group has described topic(s) that the client is not authorized to describe."


def hide_unauthorized_topics(ctx, groups: list, described_group, assignments) -> list:
    """Kafka's KafkaApis for ConsumerGroupDescribe and ShareGroupDescribe: with an authorizer,
    a group whose members' ``assignments(member)`` hold a topic the principal may not
    DESCRIBE becomes TOPIC_AUTHORIZATION_FAILED with no members (Kafka's message), so that
    describing a group never reveals topics the principal cannot see."""
    from kwire.security import acl
    from kwire.security.authorizer import active, allowed

    az = active(ctx)
    if az is None:
        return groups
    out = []
    for g in groups:
        topics = {tp.topic_name for m in g.members for a in assignments(m) if a is not None
                  for tp in a.topic_partitions}
        if all(allowed(ctx, az, acl.DESCRIBE, acl.TOPIC, t) for t in topics):
            out.append(g)
        else:
            out.append(described_group(error_code=acl.TOPIC_AUTHORIZATION_FAILED, group_id=g.group_id, members=[],
                                       error_message=UNAUTHORIZED_TOPICS))
    return out


async def when_durable(results: list, waiting) -> list:
    """Await each ``(index, future)`` of ``waiting``, the durability of the change that
    ``results[index]`` answers; a change that could not be written (KafkaError, e.g.
    KAFKA_STORAGE_ERROR) becomes that result's ``error_code`` and ``error_message``."""
    for i, fut in waiting:
        try:
            # shielded: the future is shared by every change written in the same group, and a
            # waiter cancelled with its connection must not cancel it for the others
            await asyncio.shield(fut)
        except KafkaError as e:
            results[i].error_code, results[i].error_message = e.code, e.message
    return results


def respond_when_durable(response, results: list, waiting):
    """``response`` at once when ``waiting`` is empty; else a coroutine that answers it
    once ``when_durable(results, waiting)`` has waited for every change."""
    if not waiting:
        return response

    async def finish():
        await when_durable(results, waiting)
        return response
    return finish()
