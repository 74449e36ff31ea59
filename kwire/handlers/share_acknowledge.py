"""ShareAcknowledge (key 79), v1-2: acknowledge acquired records outside a fetch.

Needs the member's share session (``kwire.share.sessions``): epoch 0 answers
INVALID_SHARE_SESSION_EPOCH (acknowledging needs a session), a stale epoch
INVALID_SHARE_SESSION_EPOCH, no session SHARE_SESSION_NOT_FOUND; epoch -1
applies the acknowledgements, closes the session and releases whatever the
member still holds here (what a closing KafkaShareConsumer sends). Each
partition's ``error_code`` is its acknowledgement's outcome
(INVALID_RECORD_STATE: records the member does not hold; nothing of that
partition changes). Acknowledge types ACCEPT, RELEASE, REJECT, GAP and (v2)
RENEW; ``acquisition_lock_timeout_ms`` (v2) is the group's lock duration.
Authorization: READ on the group and on each topic. In a cluster the answer
waits until the acknowledgements' state writes are committed at the share
coordinator (a failed write: its error, and nothing of that partition changed;
``share_fetch.durable``).
"""

from __future__ import annotations

import uuid

from kwire.handlers.share_fetch import acknowledgements, apply_acknowledgements, durable
from kwire.protocol.errors import ErrorCode as E
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.clock import now_ms
from kwire.share.sessions import FINAL_EPOCH, INITIAL_EPOCH
from kwire.protocol.generated.share_acknowledge_response import (
    LeaderIdAndEpoch, PartitionData, ShareAcknowledgeResponse, ShareAcknowledgeTopicResponse,
)

API_KEY = 79
MIN_VERSION = 1
MAX_VERSION = 2


def handle(ctx, req) -> ShareAcknowledgeResponse:
    """One state write per share partition for the request (``share_fetch.handle``)."""
    manager = ctx.broker.share_partitions
    manager.hold()
    try:
        return _handle(ctx, req, manager)
    finally:
        manager.flush()


def _handle(ctx, req, manager) -> ShareAcknowledgeResponse:
    gid, mid, epoch = req.group_id, req.member_id, req.share_session_epoch
    lock_ms = manager.lock_duration_ms(gid) if gid else 0

    def top(code, message=None):
        return ShareAcknowledgeResponse(throttle_time_ms=0, error_code=code, error_message=message,
                                        acquisition_lock_timeout_ms=lock_ms, responses=[])

    if not gid or not mid:
        return top(E.INVALID_REQUEST, "GroupId and MemberId are required.")
    if not authorize(ctx, acl.READ, acl.GROUP, gid):  # kwire.security
        return top(E.GROUP_AUTHORIZATION_FAILED)
    if epoch == INITIAL_EPOCH:
        return top(E.INVALID_SHARE_SESSION_EPOCH, "Acknowledge requests need a share session.")
    err, session = manager.sessions.check(gid, mid, epoch)
    if err:
        return top(err)
    results = apply_acknowledgements(ctx, manager, gid, mid, acknowledgements(req.topics), now_ms())
    if epoch == FINAL_EPOCH:
        manager.sessions.close(gid, mid)
        manager.release_member(gid, mid)
    else:
        session.bump()
    return durable(manager, gid, results, [], lambda: _response(results, lock_ms))


def _response(results, lock_ms) -> ShareAcknowledgeResponse:
    topics: dict[bytes, ShareAcknowledgeTopicResponse] = {}
    for (tid, p), (code, message) in results.items():
        topics.setdefault(tid, ShareAcknowledgeTopicResponse(topic_id=uuid.UUID(bytes=tid), partitions=[])
                          ).partitions.append(PartitionData(partition_index=p, error_code=code,
                                                            error_message=message,
                                                            current_leader=LeaderIdAndEpoch(leader_id=-1,
                                                                                            leader_epoch=-1)))
    return ShareAcknowledgeResponse(throttle_time_ms=0, error_code=0, acquisition_lock_timeout_ms=lock_ms,
                                    responses=list(topics.values()))
