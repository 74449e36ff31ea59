"""ShareFetch (key 78), v1-2: acquire records for a share-group member, with acknowledgements.

* Share sessions (``kwire.share.sessions``): epoch 0 opens a session with the
  request's partitions (acknowledgements with it: INVALID_REQUEST, as Kafka);
  later epochs must match (INVALID_SHARE_SESSION_EPOCH; no session:
  SHARE_SESSION_NOT_FOUND), add the partitions they name and drop
  ``forgotten_topics_data`` (releasing what the member holds there); epoch -1
  applies the acknowledgements, closes the session and releases every record
  the member still holds here, as does a new epoch-0 session of the member,
  the close of the client connection that opened the session (Kafka's
  ShareSessionCache eviction) and the member being fenced by the group
  coordinator for missing heartbeats (one broker).
* Piggy-backed acknowledgements (ACCEPT, RELEASE, REJECT, GAP; RENEW from v2)
  are applied before fetching; a partition's failure is its
  ``acknowledge_error_code`` (INVALID_RECORD_STATE for records the member
  does not hold, or whose lock expired), and changes nothing of that partition.
* Acquisition (``kwire.share.manager``), as Kafka 4.3 (KIP-1206): in the
  default ``share_acquire_mode`` ``batch_optimized`` (v1 has no other) whole
  log batches are acquired until ``max_records`` is reached, so a response may
  hold more (never a batch sent with only part of it acquired); in
  ``record_limit`` (v2) at most ``max_records``, the rest of a cut batch stays
  available. ``max_bytes`` bounds the bytes (at least one batch). Acquired
  ranges of consecutive batches are reported as one up to ``batch_size``
  records. The session's partitions are served round-robin: each request
  starts one partition further. ``acquisition_lock_timeout_ms`` is the
  group's ``share.record.lock.duration.ms``.
* Durability (``durable``): the request's changes to a share partition
  (acknowledgements, releases, acquisitions) are written as one state write
  before the answer (``SharePartitionManager.hold``/``flush``); in a cluster
  the answer waits until the share partitions' state writes covering this
  request are committed at the share coordinator; a failed write answers its error as the acknowledgement's and
  takes the records acquired there out of the answer.
  v2's ``is_renew_ack`` renews locks without acquiring anything new.
* Long poll: nothing acquired and ``max_wait_ms`` > 0: the request waits in
  the purgatory (kind Fetch) until an append to one of the session's
  partitions or records become acquirable there (release, lock expiry), then
  fetches once more, or answers empty at ``max_wait_ms``.
* Every partition entry carries a record set, empty when nothing was acquired
  there (an acknowledgement result alone): never null, which librdkafka
  cannot parse (it drops the whole response, with the records acquired in it).

Authorization: READ on the group (else GROUP_AUTHORIZATION_FAILED for the
request) and READ on each topic (TOPIC_AUTHORIZATION_FAILED for its
partitions). Not implemented: ``min_bytes`` above one record (any record
answers), preferred leaders' endpoints (``node_endpoints`` empty).
"""

from __future__ import annotations

import inspect
import uuid

from kwire.protocol.errors import ErrorCode as E
from kwire.security import acl
from kwire.security.authorizer import authorize
from kwire.delayed import FETCH
from kwire.clock import now_ms
from kwire.share.manager import share_key
from kwire.share.sessions import FINAL_EPOCH, INITIAL_EPOCH
from kwire.protocol.generated.share_fetch_response import (
    AcquiredRecords, LeaderIdAndEpoch, PartitionData, ShareFetchableTopicResponse, ShareFetchResponse,
)

API_KEY = 78
BATCH_OPTIMIZED, RECORD_LIMIT = 0, 1  # share_acquire_mode (v2, KIP-1206)
MIN_VERSION = 1
MAX_VERSION = 2


def _top_error(code, message=None, lock_ms=0) -> ShareFetchResponse:
    return ShareFetchResponse(throttle_time_ms=0, error_code=code, error_message=message,
                              acquisition_lock_timeout_ms=lock_ms, responses=[])


def acknowledgements(topics) -> dict[tuple[bytes, int], list]:
    """{(topic id bytes, partition): [(first, last, types)]} of a request's acknowledgement batches."""
    out: dict[tuple[bytes, int], list] = {}
    for t in topics:
        for p in t.partitions:
            if p.acknowledgement_batches:
                out.setdefault((t.topic_id.bytes, p.partition_index), []).extend(
                    (b.first_offset, b.last_offset, list(b.acknowledge_types)) for b in p.acknowledgement_batches)
    return out


def apply_acknowledgements(ctx, manager, group_id: str, member_id: str, acks, now: int):
    """{(topic id, partition): (error, message)} after applying ``acks``."""
    results = {}
    for (tid, p), batches in acks.items():
        t = manager.topic_of(tid)
        if t is not None and not authorize(ctx, acl.READ, acl.TOPIC, t.name):
            results[(tid, p)] = (E.TOPIC_AUTHORIZATION_FAILED, None)
            continue
        results[(tid, p)] = manager.acknowledge(group_id, member_id, tid, p, batches, now)
    return results


def durable(manager, group_id: str, ack_results, reads, respond):
    """``respond()`` now, or (cluster mode: state writes pending) a coroutine that answers once
    the writes covering this request's acknowledgements and acquisitions are committed; a
    partition whose write failed answers the write's error for its acknowledgements and
    delivers none of the records acquired there (``kwire.share.manager``: they are not
    acquired any more). The changes held since ``manager.hold()`` are written first."""
    manager.flush()
    keys = [(group_id, tid, p) for (tid, p), (code, _) in ack_results.items() if code == E.NONE]
    keys += [(group_id, r.topic_id, r.partition) for r in reads if r.acquired]
    pending = manager.pending(keys)
    return _settled(manager, pending, ack_results, reads, respond) if pending else respond()


async def _settled(manager, pending, ack_results, reads, respond):
    for (_, tid, p), code in (await manager.settle(pending)).items():
        if not code:
            continue
        k = (bytes(tid), p)
        if k in ack_results and ack_results[k][0] == E.NONE:
            ack_results[k] = (code, f"The share partition's state was not written: {code.name}.")
        for r in reads:
            if (bytes(r.topic_id), r.partition) == k:
                r.acquired, r.records = [], None
    return respond()


def handle(ctx, req):
    """One state write per share partition for the request's acknowledgements, releases and
    acquisitions together (``manager.hold``); a long poll's acknowledgements are written
    before it waits."""
    manager = ctx.broker.share_partitions
    manager.hold()
    try:
        return _handle(ctx, req)
    finally:
        manager.flush()


def _handle(ctx, req):
    broker = ctx.broker
    manager = broker.share_partitions
    gid, mid, epoch = req.group_id, req.member_id, req.share_session_epoch
    if not gid or not mid:
        return _top_error(E.INVALID_REQUEST, "GroupId and MemberId are required.")
    if not authorize(ctx, acl.READ, acl.GROUP, gid):  # kwire.security
        return _top_error(E.GROUP_AUTHORIZATION_FAILED)
    lock_ms = manager.lock_duration_ms(gid)
    acks = acknowledgements(req.topics)
    named = [(t.topic_id.bytes, p.partition_index) for t in req.topics for p in t.partitions]
    sessions = manager.sessions
    if epoch == INITIAL_EPOCH:
        if acks:
            return _top_error(E.INVALID_REQUEST, "Acknowledge data present on initial epoch.", lock_ms)
        replaced = sessions.get(gid, mid) is not None
        err, session = sessions.open(gid, mid, named, (ctx.client_host, ctx.client_port))
        if err:
            return _top_error(err, None, lock_ms)
        if replaced:  # what the member held in its old session is nobody's now: release it
            manager.release_member(gid, mid)
    else:
        err, session = sessions.check(gid, mid, epoch)
        if err:
            return _top_error(err, None, lock_ms)
    now = now_ms()
    ack_results = apply_acknowledgements(ctx, manager, gid, mid, acks, now)
    if epoch == FINAL_EPOCH:
        sessions.close(gid, mid)
        manager.release_member(gid, mid)
        return durable(manager, gid, ack_results, [], lambda: _response(manager, [], ack_results, lock_ms))
    if epoch != INITIAL_EPOCH:
        for k in named:
            session.partitions.setdefault(k, None)
        forgotten = {(ft.topic_id.bytes, p) for ft in req.forgotten_topics_data for p in ft.partitions}
        for k in forgotten:
            session.partitions.pop(k, None)
        if forgotten:  # the member no longer fetches there: release what it holds
            manager.release_member(gid, mid, forgotten)
        session.bump()
    wanted, denied = [], []
    for tid, p in session.partitions:
        t = manager.topic_of(tid)
        (denied if t is not None and not authorize(ctx, acl.READ, acl.TOPIC, t.name) else wanted).append((tid, p))
    if ctx.api_version >= 2 and req.is_renew_ack:
        return durable(manager, gid, ack_results, [], lambda: _response(manager, [], ack_results, lock_ms, denied))
    max_records = req.max_records if ctx.api_version >= 1 and req.max_records > 0 else 500
    max_bytes = req.max_bytes if req.max_bytes > 0 else 2**31 - 1
    record_limit = ctx.api_version >= 2 and req.share_acquire_mode == RECORD_LIMIT
    if len(wanted) > 1:  # Kafka's round-robin: each request starts at another partition
        k = session.epoch % len(wanted)
        wanted = wanted[k:] + wanted[:k]

    def fetch():
        return manager.fetch(gid, mid, wanted, max_bytes, max_records, now_ms(), record_limit, req.batch_size)

    reads = fetch()
    if any(r.acquired or r.error for r in reads) or req.max_wait_ms <= 0 or not wanted:
        return durable(manager, gid, ack_results, reads,
                       lambda: _response(manager, reads, ack_results, lock_ms, denied))
    keys = []
    for tid, p in wanted:
        t = manager.topic_of(tid)
        if t is not None:
            keys += [(t.name, p), share_key(t.name, p)]
    woken = broker.purgatory.watch(keys, lambda key, n: True, req.max_wait_ms / 1000, FETCH)
    return _after_wait(woken, fetch, manager, gid, ack_results, lock_ms, denied)


async def _after_wait(woken, fetch, manager, gid, ack_results, lock_ms, denied):
    reads = fetch() if await woken else []
    answer = durable(manager, gid, ack_results, reads, lambda: _response(manager, reads, ack_results, lock_ms, denied))
    return await answer if inspect.isawaitable(answer) else answer


def _response(manager, reads, ack_results, lock_ms, denied=()) -> ShareFetchResponse:
    parts: dict[tuple[bytes, int], PartitionData] = {}

    def entry(tid, p) -> PartitionData:
        d = parts.get((tid, p))
        if d is None:
            # empty, never null, records: librdkafka 2.15-2.16 cannot parse a null record set
            # and drops the whole response, with the records acquired in it
            d = parts[(tid, p)] = PartitionData(partition_index=p, current_leader=_leader(manager, tid, p),
                                                records=b"")
        return d

    for r in reads:
        if not (r.acquired or r.error):
            continue
        d = entry(r.topic_id, r.partition)
        d.error_code, d.error_message = r.error, r.message
        d.records = r.records or b""
        d.acquired_records = [AcquiredRecords(first_offset=a, last_offset=b, delivery_count=c)
                              for a, b, c in r.acquired]
    for tid, p in denied:
        entry(tid, p).error_code = E.TOPIC_AUTHORIZATION_FAILED
    for (tid, p), (code, message) in ack_results.items():
        d = entry(tid, p)
        d.acknowledge_error_code, d.acknowledge_error_message = code, message
    topics: dict[bytes, ShareFetchableTopicResponse] = {}
    for (tid, p), d in parts.items():
        topics.setdefault(tid, ShareFetchableTopicResponse(topic_id=uuid.UUID(bytes=tid), partitions=[])
                          ).partitions.append(d)
    return ShareFetchResponse(throttle_time_ms=0, error_code=0, acquisition_lock_timeout_ms=lock_ms,
                              responses=list(topics.values()))


def _leader(manager, tid: bytes, p: int) -> LeaderIdAndEpoch:
    t = manager.topic_of(tid)
    if t is None or not 0 <= p < len(t.partitions):
        return LeaderIdAndEpoch(leader_id=-1, leader_epoch=-1)
    ps = t.partitions[p]
    return LeaderIdAndEpoch(leader_id=ps.leader, leader_epoch=ps.leader_epoch)
