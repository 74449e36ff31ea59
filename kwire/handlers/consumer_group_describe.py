"""ConsumerGroupDescribe (key 69), v0-1: KIP-848 consumer groups with members and assignments.

Answers the group's state, group and assignment epochs, assignor, and per
member its epoch, subscription, current and target assignment (topic ids and
names); v1 adds the member type (consumer). A classic group answers
GROUP_ID_NOT_FOUND ("not a consumer group"), as Kafka does, so that admin
clients fall back to DescribeGroups; an unknown group GROUP_ID_NOT_FOUND.
Authorized operations when asked, for groups described without error (no
authorizer: all that apply to a group).

Authorization (Kafka 4.x's KafkaApis): DESCRIBE on each group, else that group
answers GROUP_AUTHORIZATION_FAILED; with an authorizer, a group whose members'
current or target assignment holds a topic the principal may not DESCRIBE
answers TOPIC_AUTHORIZATION_FAILED with no members (Kafka's message), so that
describing a group never reveals topics the principal cannot see.
"""

from __future__ import annotations

from kwire.security import acl
from kwire.security.authorizer import active, allowed
from kwire.handlers.common import describe_groups
from kwire.protocol.generated.consumer_group_describe_response import (
    ConsumerGroupDescribeResponse,
    DescribedGroup,
)

API_KEY = 69
MIN_VERSION = 0
MAX_VERSION = 1


def handle(ctx, req) -> ConsumerGroupDescribeResponse:
    def adjust(g) -> None:
        if ctx.api_version < 1:
            for m in g.members:
                m.member_type = -1

    groups = describe_groups(ctx, req, lambda shard, gid: shard.consumer_group_describe(gid),
                             DescribedGroup, adjust)
    az = active(ctx)
    if az is not None:  # kwire.security: never reveal topics the principal may not DESCRIBE
        groups = [_hide_unauthorized_topics(ctx, az, g) for g in groups]
    return ConsumerGroupDescribeResponse(throttle_time_ms=0, groups=groups)


def _hide_unauthorized_topics(ctx, az, g: DescribedGroup) -> DescribedGroup:
    topics = {tp.topic_name for m in g.members for a in (m.assignment, m.target_assignment)
              for tp in a.topic_partitions}
    if all(allowed(ctx, az, acl.DESCRIBE, acl.TOPIC, t) for t in topics):
        return g
    return DescribedGroup(error_code=acl.TOPIC_AUTHORIZATION_FAILED, group_id=g.group_id, members=[],
                          error_message="The group has described topic(s) that the client is not "
                                        "authorized to describe.")
