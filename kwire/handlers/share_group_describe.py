"""ShareGroupDescribe (key 77), v1: KIP-932 share groups with members and assignments.

Per group: state (Empty, Stable), group and assignment epochs, assignor
(``simple``) and per member its epoch, client, subscription and assignment
(topic ids and names). A classic or consumer group answers GROUP_ID_NOT_FOUND
("not a share group"), an unknown group GROUP_ID_NOT_FOUND. Authorized
operations when asked. Authorization (Kafka 4.x's KafkaApis): DESCRIBE on each
group, else that group answers GROUP_AUTHORIZATION_FAILED; with an authorizer, a
group whose members' assignment holds a topic the principal may not DESCRIBE
answers TOPIC_AUTHORIZATION_FAILED with no members (Kafka's message: "The group
has described topic(s) that the client is not authorized to describe.").
"""

from __future__ import annotations

from kwire.handlers.common import describe_groups, hide_unauthorized_topics
from kwire.protocol.generated.share_group_describe_response import DescribedGroup, ShareGroupDescribeResponse

API_KEY = 77
MIN_VERSION = 1
MAX_VERSION = 1


def handle(ctx, req) -> ShareGroupDescribeResponse:
    groups = describe_groups(ctx, req, lambda shard, gid: shard.share_group_describe(gid), DescribedGroup)
    groups = hide_unauthorized_topics(ctx, groups, DescribedGroup, lambda m: (m.assignment,))
    return ShareGroupDescribeResponse(throttle_time_ms=0, groups=groups)
