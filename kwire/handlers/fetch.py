"""Fetch (key 1), v4-18: read record batches, long-polling for new data.

* Record bytes are never decoded or copied here: the log returns file regions
  of its segments, which the network layer sends with ``sendfile``.
* Kafka's size rules: whole batches only; a fetch offset inside a batch gets the
  whole batch (the client skips the records below its offset); per-partition
  ``partition_max_bytes`` and the request's ``max_bytes`` are respected, except
  that the first batch of the response is returned even when larger, so a
  consumer can never stall on a big record.
* Visibility: consumers read below the high watermark (read_uncommitted) or
  the last stable offset (read_committed); responses carry high watermark,
  last stable offset and log start offset. Offsets outside
  [log start offset, log end offset] answer OFFSET_OUT_OF_RANGE.
* Long poll: when fewer than ``min_bytes`` are available and ``max_wait_ms`` is
  positive, the request waits in the purgatory and is woken by the first
  appends that bring it to ``min_bytes`` — not by a timer — or answers at
  ``max_wait_ms`` with what there is. Woken by appends, a consumer's fetch
  (without an authorizer) reads again only the partitions whose log moved; a
  caught-up partition whose high watermark, last stable offset and log start
  are unchanged keeps its first read, which a reread would repeat. A parked
  fetch is a ``kwire.delayed.Later`` (the purgatory's future and the answer to
  build when it is done), not a coroutine: no Task per long-poll.
* Incremental fetch sessions (KIP-227, v7+) through ``broker.fetch_sessions``;
  a consumer's incremental fetch looks only at the partitions it names and the
  session's dirty ones (whose HW, LSO, log start, leadership, log dir or topic
  changed since the session last answered them, or that were not caught up
  then); the others are not visited at all (still watched when it waits), so
  a fetch over thousands of idle partitions costs per changed partition.
  Followers' incremental fetches read every partition of the session. Topic
  ids instead of names from v13 (UNKNOWN_TOPIC_ID); leader epoch checks
  (v9+: FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH).
* Diverging epochs (v12+, KIP-595; what Kafka's replica fetchers use since 2.7
  instead of a separate OffsetForLeaderEpoch round trip, and valid for
  consumers too): when a partition names its ``last_fetched_epoch``, the
  leader looks up where that epoch ends in its own log (as OffsetForLeaderEpoch
  does). No such epoch known: OFFSET_OUT_OF_RANGE; a fetch offset below the log
  start: OFFSET_OUT_OF_RANGE; the largest known epoch <= it is older, or ends
  before the fetch offset: no records, and ``diverging_epoch`` = (that epoch,
  its end offset), to which the fetcher truncates before fetching again
  (Kafka's ``Partition.readRecords``). A partition a session fetches without
  naming it in this request is not checked (kwire's sessions do not keep the
  last fetched epoch).
* A partition whose log dir is offline answers KAFKA_STORAGE_ERROR from v6
  (KIP-112); v4-5 predate that code and get NOT_LEADER_OR_FOLLOWER instead, as
  Kafka's FetchResponse converts it, so an old consumer refreshes and retries.
* Cluster mode (ZooKeeper): only the leader serves a partition; elsewhere
  NOT_LEADER_OR_FOLLOWER, with ``current_leader`` (v12+) and the leader's
  ``node_endpoints`` (v16+) when one is known. A fetch with a replica id
  (``replica_id`` up to v14, ``replica_state.replica_id`` from v15) must
  come from one of the partition's replicas, else (Kafka's
  ``Partition.followerReplicaOrThrow``) UNKNOWN_LEADER_EPOCH when the
  partition carries a ``current_leader_epoch`` (>= 0, as real followers send;
  it matched the leader's, or the epoch check answered first) and
  NOT_LEADER_OR_FOLLOWER when it does not; it reads up to the log end offset
  (not the HW), and a read without error or diverging epoch records the
  follower's position (``ReplicaManager.follower_fetch``: HW, ISR expand)
  before the answer, whose HW is the one after that. Consumers' long-polls
  are woken when the HW rises; followers' (key ``replica_key``) on appends,
  and (``replica_fetch_key``) when this broker starts leading a partition the
  follower replicates; while it has not fetched such a partition yet its
  Fetches park for at most ``JOIN_WAIT_MS`` (``kwire.replication.joining``).
read_committed (isolation_level 1): records below the LSO only, with the
aborted transactions overlapping them (from the log's aborted-transaction
index, never from the records).
Not implemented yet: preferred read replicas (KIP-392, always -1).
"""

from __future__ import annotations

from functools import partial

from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security import acl
from kwire.delayed import FETCH, Later, replica_fetch_key, replica_key
from kwire.handlers.fetch_plain import PlainFetchResponse, plain
from kwire.broker.fetch_sessions import FINAL_EPOCH
from kwire.replication.joining import JOIN_WAIT_MS
from kwire.security.authorizer import active as authorizer_active, allowed as authorizer_allowed
from kwire.protocol.fetch_plain_request import PlainFetchRequest
from kwire.protocol.generated import fetch_response as _wire
from kwire.protocol.primitives import ZERO_UUID as _ZERO_UUID
from kwire.protocol.generated.fetch_response import (
    AbortedTransaction,
    EpochEndOffset,
    FetchableTopicResponse,
    FetchResponse,
    LeaderIdAndEpoch,
    NodeEndpoint,
    PartitionData,
    SnapshotId,
)

API_KEY = 1
MIN_VERSION = 4
MAX_VERSION = 18

READ_COMMITTED = 1
EMPTY = b""
# PartitionData's struct fields at their defaults, shared by the partitions of every answer
# rather than three new objects per partition: the encoder only reads them, and this module
# never changes them (a diverging epoch or a current leader gets an object of its own). They
# are the generated module's own default instances, which its encoder recognises by identity.
_NO_DIVERGING = getattr(_wire, "_DEF_EpochEndOffset", None) or EpochEndOffset()
_NO_LEADER = getattr(_wire, "_DEF_LeaderIdAndEpoch", None) or LeaderIdAndEpoch()
_NO_SNAPSHOT = getattr(_wire, "_DEF_SnapshotId", None) or SnapshotId()
_NO_TAGS: dict = {}  # a partition answer's tagged fields: none, shared, only read by the encoder
_new = object.__new__


class _Read:
    """The outcome of reading one partition."""

    __slots__ = ("key", "topic", "partition", "error", "hw", "lso", "log_start", "records", "size",
                 "diverging", "leader", "aborted", "log")

    def __init__(self, key, topic, partition):
        self.key = key
        self.topic = topic
        self.partition = partition
        self.error = 0
        self.hw = -1
        self.lso = -1
        self.log_start = -1
        self.records = EMPTY
        self.size = 0
        self.diverging = None  # (epoch, end offset) when the fetcher's log diverged
        self.leader = None  # (leader id, epoch): the current leader, for NOT_LEADER_OR_FOLLOWER
        self.aborted = None  # read_committed: [AbortedTransaction] overlapping the records
        # a consumer's read that was caught up (nothing to read): the partition's log, so that a
        # woken long-poll can tell it is still the same answer without reading it again
        self.log = None


def handle(ctx, req):
    broker = ctx.broker
    version = ctx.api_version
    md = broker.metadata
    by_id = version >= 13

    log_starts = {}  # follower fetches: key -> the follower's log start offset
    if req.__class__ is PlainFetchRequest:  # a consumer's, read straight into these (v13-16)
        wanted = req.wanted
        last_epochs = req.last_epochs
        forgotten = req.forgotten
        replica_id = -1
    else:
        wanted = []  # (key, fetch offset, partition max bytes, current leader epoch)
        last_epochs = {}  # key -> last_fetched_epoch (v12+), for the diverging-epoch check
        replica_id = req.replica_state.replica_id if version >= 15 else req.replica_id
        if not broker.cluster_mode:
            replica_id = -1  # one node: nobody replicates from it
        for ft in req.topics:
            ref = ft.topic_id if by_id else ft.topic
            for fp in ft.partitions:
                wanted.append(((ref, fp.partition), fp.fetch_offset, fp.partition_max_bytes,
                               fp.current_leader_epoch))
                if version >= 12 and fp.last_fetched_epoch >= 0:
                    last_epochs[(ref, fp.partition)] = fp.last_fetched_epoch
                if replica_id >= 0:
                    log_starts[(ref, fp.partition)] = fp.log_start_offset
        forgotten = None

    if version >= 7 and (req.session_id or req.session_epoch != FINAL_EPOCH or
                         (forgotten if forgotten is not None else req.forgotten_topics_data)):
        if forgotten is None:
            forgotten = [((ft.topic_id if by_id else ft.topic), p) for ft in req.forgotten_topics_data
                         for p in ft.partitions]
        session = broker.fetch_sessions.new_context(
            req.session_id, req.session_epoch, [(k, o, m) for k, o, m, _ in wanted], forgotten)
        if session.error:
            return FetchResponse(error_code=session.error, session_id=0, responses=[])
    else:  # before v7, or sessionless (id 0, epoch -1: KIP-227's full fetch without a session)
        session = None
    if session is None or session.session is None:
        reads = wanted  # no session: exactly the request's partitions, in its order
        changed = None
    else:  # a session may read partitions this request did not name (their epoch is unknown)
        epochs = {w[0]: w[3] for w in wanted}
        if session.incremental and replica_id < 0:
            # KIP-227, consumers: only the partitions named, or dirty (something moved since the
            # session last answered them, or not caught up then): O(those), not O(session);
            # followers read everything (each fetch counts for the ISR)
            def changed():
                return [(k, o, m, epochs.get(k, -1)) for k, o, m in session.changed_reads(epochs)]
            reads = changed()
        else:
            changed = None
            reads = [(k, o, m, epochs.get(k, -1)) for k, o, m in
                     (session.all_reads() if session.incremental else session.reads)]
    # an incremental consumer fetch skips, before reading, the dirty partitions it does not
    # name that are caught up and whose offsets the client already has
    idle_check = session.unchanged if changed is not None else None
    named = epochs if idle_check is not None else ()  # the request's keys (epochs is keyed by them)
    # consumers' sessions learn their partitions' topic names (followers read them all anyway)
    watch = session.watch if session is not None and session.session is not None and replica_id < 0 \
        else None

    az = authorizer_active(ctx)  # kwire.security: READ on each topic (CLUSTER_ACTION: followers)
    calls = []
    # a one-node consumer without an authorizer: a caught-up partition is recognised before
    # _read_partition (the same _Read, from one log lookup and its offsets: _caught_up)
    logs_get = broker.logs.get if not broker.cluster_mode and replica_id < 0 and az is None else None

    def read_all(previous=None):
        """Read every partition; ``previous`` (key -> _Read of the read before the wait, or
        None): its caught-up partitions whose log has not moved since are taken as they are."""
        remaining = req.max_bytes
        out = []
        first = True
        isolation = req.isolation_level
        last_ref = t = None
        denied = False
        if changed is not None and calls:  # woken: what is dirty now (a move since, too)
            todo = changed()
        else:
            todo = reads
        calls.append(1)
        for key, offset, part_max, epoch in todo:
            ref = key[0]
            if ref is not last_ref:  # one metadata lookup per topic, not per partition
                t = md.topic_by_id(ref) if by_id else md.topic(ref)
                last_ref = ref
                denied = az is not None and _denied(ctx, az, t.name if t else None if by_id else ref,
                                                    replica_id)
            if t is not None and watch is not None:
                watch(key, t.name)  # from now on, its moves make it dirty in the session
            if idle_check is not None and t is not None and not denied and key not in named and \
                    _idle(broker, t.name, key, offset, isolation, idle_check):
                session.settled(key)
                continue
            if previous is not None:
                r = previous.get((t.name, key[1])) if t is not None else None
                if r is not None and _unmoved(r):
                    out.append(r)  # caught up before and still: reading again gives the same
                    continue
            if logs_get is not None and t is not None and (not last_epochs or key not in last_epochs):
                r = _caught_up(logs_get, t, key, offset, epoch, isolation)
                if r is not None:
                    out.append(r)
                    continue
            r = _unauthorized(key, t) if denied else _read_partition(
                broker, t, by_id, key, offset, min(part_max, max(remaining, 0)),
                                first, isolation, epoch, version,
                                last_epochs.get(key, -1) if last_epochs else -1,
                                replica_id, log_starts.get(key, -1) if log_starts else -1)
            if r.size:
                first = False
                remaining -= r.size
            out.append(r)
        return out

    results = read_all()
    total = 0
    # Kafka answers errors and divergence at once too; an incremental session with nothing
    # changed waits (on all its partitions) like one whose partitions were all read
    at_once = req.max_wait_ms <= 0 or not (reads or changed is not None and session.session.partitions)
    leaders = False
    for r in results:
        total += r.size
        if r.error or r.diverging is not None:
            at_once = True
        if r.leader is not None:
            leaders = True
    if at_once or total >= req.min_bytes:
        return _answer(results, session, version,
                       _endpoints(broker, results) if leaders and version >= 16 else None)
    idle = ()
    if changed is not None:  # the session's partitions not read: watched too while waiting
        # by (topic name, partition), the keys watched: a str's hash is cached, a UUID's is Python
        read = {(r.topic, r.partition) for r in results}
        idle = [nk for nk in session.session.names.values() if nk not in read]
    return _wait_then_respond(broker, req, version, results, total, read_all, session, replica_id,
                              idle, az is None)


def _caught_up(logs_get, t, key, offset: int, epoch: int, isolation: int) -> _Read | None:
    """One node, a consumer: the read ``_read_partition`` would make of a partition that has
    nothing to read at ``offset`` (its log online, the leader epoch current or not given, no
    diverging-epoch check asked), or None when it is not that case and the full read decides."""
    partition = key[1]
    if not 0 <= partition < len(t.partitions):
        return None
    plog = logs_get(t.name, partition)
    if plog is None or plog.offline or (epoch >= 0 and epoch != t.partitions[partition].leader_epoch):
        return None
    hw, lso, log_start = plog.fetch_offsets()
    if offset != (lso if isolation == READ_COMMITTED else hw):
        return None
    r = _Read(key, t.name, partition)
    r.hw = hw
    r.lso = lso
    r.log_start = log_start
    r.log = plog
    return r


def _idle(broker, topic: str, key, offset: int, isolation: int, unchanged) -> bool:
    """True when the session's partition ``key`` has nothing to read at ``offset`` and nothing
    new to say (``unchanged``: the session's last-sent HW, LSO and log start)."""
    plog = broker.logs.get(topic, key[1])
    if plog is None or plog.offline or (broker.cluster_mode and not broker.is_leader(topic, key[1])):
        return False
    hw, lso, log_start = plog.fetch_offsets()  # one call, not three properties: per idle partition
    return offset == (lso if isolation == READ_COMMITTED else hw) and unchanged(key, hw, lso, log_start)


def _denied(ctx, az, name: str | None, replica_id: int) -> bool:
    if replica_id >= 0:
        return not authorizer_allowed(ctx, az, acl.CLUSTER_ACTION, acl.CLUSTER, acl.CLUSTER_NAME)
    return name is not None and not authorizer_allowed(ctx, az, acl.READ, acl.TOPIC, name)


def _unmoved(r: _Read) -> bool:
    """True when ``r`` was a caught-up read and its partition's log still answers the same: no
    error, nothing to read, the same high watermark, last stable offset and log start."""
    plog = r.log
    return plog is not None and not plog.offline and plog.fetch_offsets() == (r.hw, r.lso, r.log_start)


def _unauthorized(key, t) -> _Read:
    r = _Read(key, t.name if t else None, key[1])
    r.error = ErrorCode.TOPIC_AUTHORIZATION_FAILED
    return r


def _endpoints(broker, results) -> list | None:
    """v16+: the endpoints of the leaders named in current_leader (KIP-951)."""
    ids = {r.leader[0] for r in results if r.leader is not None and r.leader[0] >= 0}
    if not ids:
        return None
    return [NodeEndpoint(node_id=b.node_id, host=b.host, port=b.port, rack=b.rack)
            for b in broker.metadata.brokers if b.node_id in ids]


def _wait_then_respond(broker, req, version, results, total, read_all, session, replica_id: int = -1,
                       idle=(), reuse: bool = False):
    """Watch the partitions now, answer when appends bring ``min_bytes`` or at ``max_wait_ms``.

    The watch starts before this returns (see ``Purgatory.watch``): an append
    between this read and the awaiting task's first step still wakes it.

    ``reuse`` (consumers without an authorizer): when only appends woke the
    request, the answer reads again only the partitions whose log moved; the
    others' first reads stand (``_unmoved``). Anything else that wakes it
    (leadership, deletion, an offline dir: ``nbytes`` <= 0) reads everything again.
    """
    acc = [total]
    min_bytes = req.min_bytes
    # acc[1]: the first reads that may stand on wake-up; None once a non-append woke it
    acc.append({(r.topic, r.partition): r for r in results if r.log is not None}
               if reuse and replica_id < 0 else None)

    def check(key, nbytes: int) -> bool:
        if nbytes <= 0:
            acc[1] = None  # reread everything
            return True  # something other than an append happened (deletion, leadership): answer now
        acc[0] += nbytes
        return acc[0] >= min_bytes

    wait_ms = req.max_wait_ms
    if replica_id >= 0:  # a follower waits for the leader's appends, not for the HW
        keys = [replica_key(r.topic, r.partition) for r in results if r.topic is not None]
        keys += [(r.topic, r.partition) for r in results if r.topic is not None]  # leadership changes
        keys.append(replica_fetch_key(replica_id))  # a partition newly led here it must name
        if broker.replicas.follower_joining(replica_id):
            wait_ms = min(wait_ms, JOIN_WAIT_MS)
    else:
        keys = [(r.topic, r.partition) for r in results if r.topic is not None]
        keys += idle  # an incremental session's partitions skipped as idle
    woken = broker.purgatory.watch(keys, check, wait_ms / 1000, FETCH)
    # no coroutine and no Task per parked fetch: the connection answers from the future's callback
    return Later(woken, partial(_respond_when_woken, acc, total, results, read_all, session, version))


def _respond_when_woken(acc, total, results, read_all, session, version, woken: bool):
    if woken or acc[0] > total:
        results = read_all(acc[1] or None)
    return _answer(results, session, version)


def storage_error(version: int) -> ErrorCode:
    """KAFKA_STORAGE_ERROR, or NOT_LEADER_OR_FOLLOWER for v4-5, which predate it (KIP-112):
    as Kafka, so that an old consumer refreshes its metadata and retries rather than failing
    on an error code it does not know."""
    return ErrorCode.KAFKA_STORAGE_ERROR if version >= 6 else ErrorCode.NOT_LEADER_OR_FOLLOWER


def _read_partition(broker, t, by_id, key, offset, max_bytes, min_one, isolation, leader_epoch,
                    version: int = MAX_VERSION, last_fetched_epoch: int = -1, replica_id: int = -1,
                    replica_log_start: int = -1) -> _Read:
    """Read one partition of topic ``t`` (None when the request named an unknown topic)."""
    partition = key[1]
    r = _Read(key, t.name if t else None, partition)
    if t is None:
        r.error = ErrorCode.UNKNOWN_TOPIC_ID if by_id else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        return r
    plog = broker.get_log(t.name, partition) if 0 <= partition < len(t.partitions) else None
    if plog is None or plog.offline:
        offline = plog is not None or broker.partition_offline(t.name, partition)
        r.error = storage_error(version) if offline else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        if not offline and broker.cluster_mode and 0 <= partition < len(t.partitions):
            _not_leader(r, t.partitions[partition])  # known, not hosted here (Kafka's answer)
        return r
    if leader_epoch >= 0:
        current = t.partitions[partition].leader_epoch
        if leader_epoch < current:
            r.error = ErrorCode.FENCED_LEADER_EPOCH
            if broker.cluster_mode:
                p = t.partitions[partition]
                r.leader = (p.leader, p.leader_epoch)
            return r
        if leader_epoch > current:
            r.error = ErrorCode.UNKNOWN_LEADER_EPOCH
            return r
    if broker.cluster_mode:
        pstate = t.partitions[partition]
        if not broker.is_leader(t.name, partition):
            _not_leader(r, pstate)
            return r
        if replica_id >= 0 and replica_id not in pstate.replicas:
            # Kafka's Partition.followerReplicaOrThrow: with an epoch (that matched above) the
            # (replica, epoch) pair is not known yet -- e.g. a reassignment's new replica ahead of
            # this leader's metadata -- and the fetcher retries; without one, who is stale is unknown
            if leader_epoch >= 0:
                r.error = ErrorCode.UNKNOWN_LEADER_EPOCH
            else:
                _not_leader(r, pstate)
            return r
    r.hw, r.lso, r.log_start = plog.fetch_offsets()
    if last_fetched_epoch >= 0 and _diverged(plog, r, offset, last_fetched_epoch):
        return r
    if replica_id >= 0:
        upper = plog.log_end_offset  # followers replicate everything the leader has
    else:
        upper = r.lso if isolation == READ_COMMITTED else r.hw
    if offset == upper:  # caught up: nothing to read (and log start <= upper <= LEO)
        if replica_id < 0:
            r.log = plog
    else:
        try:
            result = plog.read(offset, max_bytes, min_one_batch=min_one, max_offset=upper)
        except KafkaError as e:
            r.error = storage_error(version) if e.code == ErrorCode.KAFKA_STORAGE_ERROR else e.code
            return r
        if result.size:
            r.records = result.region
            r.size = result.size
            if isolation == READ_COMMITTED and replica_id < 0:  # from the .txnindex, no record read
                r.aborted = [AbortedTransaction(producer_id=a.producer_id, first_offset=a.first_offset)
                             for a in plog.aborted_transactions(offset, upper)]
    if replica_id >= 0:  # a good follower fetch: its position moves the HW and the ISR
        broker.replicas.follower_fetch(t.name, partition, replica_id, offset, replica_log_start, plog)
        r.hw = plog.high_watermark
        r.lso = plog.last_stable_offset
    return r


def _not_leader(r: _Read, pstate) -> None:
    r.error = ErrorCode.NOT_LEADER_OR_FOLLOWER
    r.leader = (pstate.leader, pstate.leader_epoch)


def _diverged(plog, r: _Read, offset: int, last_fetched_epoch: int) -> bool:
    """Kafka's diverging-epoch check of ``Partition.readRecords``; True if ``r`` is the answer."""
    epoch, end_offset = plog.end_offset_for_epoch(last_fetched_epoch)
    if epoch < 0 or end_offset < 0 or offset < r.log_start:
        r.error = ErrorCode.OFFSET_OUT_OF_RANGE
        return True
    if epoch < last_fetched_epoch or end_offset < offset:
        r.diverging = (epoch, end_offset)
        return True
    return False


def _answer(results, session, version: int, endpoints=None) -> FetchResponse:
    """The answer: a plain one written straight from the reads (``kwire.handlers.fetch_plain``),
    with or without a fetch session, else ``_build``'s. A session first records what it sends
    (``_sent``, KIP-227's bookkeeping) and keeps only the partitions that belong in the answer."""
    session_id = 0
    if session is not None:
        results = _sent(results, session)
        session_id = session.session_id
    if endpoints is None and plain(results, version):
        return PlainFetchResponse(results, partial(_topic_responses, version), session_id)
    return _build(results, session_id, version, endpoints)


def _sent(results, session) -> list:
    """The reads that belong in a session's answer, in order; each one is recorded as sent
    (``FetchContext.include``), those left out too."""
    include = session.include
    return [r for r in results if include(r.key, r.hw, r.lso, r.log_start,
                                          r.size > 0 or r.diverging is not None, r.error != 0,
                                          r.log is None)]


def _topic_responses(version: int, results) -> list:
    return _build(results, 0, version).responses


def _response(results, session, version: int, endpoints=None) -> FetchResponse:
    """The answer built by the generated structs (``_build``), after the session's bookkeeping:
    the reference the plain answer is checked against."""
    if session is None:
        return _build(results, 0, version, endpoints)
    return _build(_sent(results, session), session.session_id, version, endpoints)


def _build(results, session_id: int, version: int, endpoints=None) -> FetchResponse:
    """The answer; ``current_leader`` only from v12, the first version that has the field (an older
    follower or client is told NOT_LEADER_OR_FOLLOWER alone and finds the leader in Metadata).

    The generated structs are made with ``object.__new__`` and their slots set here, not with
    their keyword-argument constructors (four times the cost per partition; the answer is the
    same object, ``tests/unit/test_fetch_answer_build.py``). Every slot is set; the per-partition
    empty tagged fields are one shared dict, which the encoder only reads."""
    with_leader = version >= 12
    topics: list[FetchableTopicResponse] = []
    last_ref = object()
    partitions = None
    for r in results:
        ref = r.key[0]
        if ref is not last_ref and ref != last_ref:  # identity first: UUID.__eq__ is Python
            tr = _new(FetchableTopicResponse)
            if isinstance(ref, str):
                tr.topic = ref
                tr.topic_id = _ZERO_UUID
            else:
                tr.topic = r.topic or ""
                tr.topic_id = ref
            tr.partitions = partitions = []
            tr.unknown_tagged_fields = {}
            topics.append(tr)
            last_ref = ref
        pd = _new(PartitionData)
        pd.partition_index = r.partition
        pd.error_code = r.error
        pd.high_watermark = r.hw
        pd.last_stable_offset = r.lso
        pd.log_start_offset = r.log_start
        pd.aborted_transactions = r.aborted
        pd.preferred_read_replica = -1
        pd.records = r.records
        pd.diverging_epoch = _NO_DIVERGING if r.diverging is None else EpochEndOffset(
            epoch=r.diverging[0], end_offset=r.diverging[1])
        pd.current_leader = _NO_LEADER if r.leader is None or not with_leader else LeaderIdAndEpoch(
            leader_id=r.leader[0], leader_epoch=r.leader[1])
        pd.snapshot_id = _NO_SNAPSHOT
        pd.unknown_tagged_fields = _NO_TAGS
        partitions.append(pd)
    resp = FetchResponse(error_code=0, session_id=session_id, responses=topics)
    if endpoints:
        resp.node_endpoints = endpoints
    return resp
