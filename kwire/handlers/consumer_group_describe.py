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

from kwire.handlers.common import describe_groups, hide_unauthorized_topics
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
    groups = hide_unauthorized_topics(ctx, groups, DescribedGroup, lambda m: (m.assignment, m.target_assignment))
    return ConsumerGroupDescribeResponse(throttle_time_ms=0, groups=groups)
