"""The follower's replica fetchers: one asyncio task per leader broker.

Kafka's ``ReplicaFetcherManager`` / ``ReplicaFetcherThread`` (ZooKeeper mode)
over asyncio. ``ReplicaFetcherManager``
keeps, for every partition this broker follows, a ``PartitionFetcher`` (the
pure per-partition state machine of ``kwire.replication.follower``) and hands
it to the ``_LeaderFetcher`` of its leader (``num.replica.fetchers`` = 1: one
task and one connection per leader broker id).

A leader fetcher's loop:

* connect to ``endpoint(leader_id)``, the leader's endpoint of the
  inter-broker listener (resolved again on every reconnect: the leader may have
  moved or restarted on the same port), with that listener's TLS (the manager's
  ``security``, given by the broker); ApiVersions first, then SASL when the
  listener uses it (a refused login: close, back off, retry), then every API
  at the highest version both the leader and kwire's codec support (Fetch at
  most Kafka's version for ``inter.broker.protocol.version`` below 2.7-IV1:
  11 from 2.3-IV1; OffsetForLeaderEpoch at most the IBP's).
  Connection loss, a timeout (``replica.socket.timeout.ms`` beyond
  the request's wait) or an unknown endpoint: close, back off
  ``replica.fetch.backoff.ms``, reconnect.
  An answer overdue by ``LINK_CHECK_S`` beyond the request's wait has the
  link probed (a new connection from the same address every
  ``LINK_PROBE_S``): probes failing, then one connecting, mean a cut that
  has healed, whose lost packets TCP would resend only seconds later; the
  connection is made again at once (``_watch_link``). Kafka's fetcher waits
  for TCP or the socket timeout.
* Fetch (session id 0, epoch -1: a full, sessionless fetch every time; no
  KIP-227 sessions) for every partition that is ready: ``replica_id`` in the
  body up to v14, ``replica_state`` (``replica_id``, epoch -1) from v15;
  topic ids from v13, looked up with a Metadata request to the leader (a
  topic it has no id for is fetched at v12, by name). Each partition sends its
  current leader epoch, fetch offset (its LEO), last fetched epoch and log
  start; ``replica.fetch.max.bytes`` per partition,
  ``replica.fetch.response.max.bytes`` / ``replica.fetch.min.bytes`` /
  ``replica.fetch.wait.max.ms`` per request.
* each partition's answer goes to ``PartitionFetcher.on_fetch_response``
  (append with the leader's offsets and epochs, HW, log start, diverging
  epoch -> truncation, errors -> back off or fail). An answer is applied only
  when the partition is still this fetcher's, at the epoch and offset it was
  requested with (a partition moved, removed or truncated while the request
  was in flight ignores it). Partitions that need the leader's offsets (after
  OFFSET_OUT_OF_RANGE) get two ListOffsets requests (-2, -1) with this
  broker's replica id before the next Fetch.
* how a follower validates its log against a new leader (Kafka's
  ``isTruncationOnFetchSupported``): with ``inter.broker.protocol.version`` >=
  2.7-IV1 and a leader that speaks Fetch v12+, from Fetch's diverging epoch
  (KIP-595/KIP-320); otherwise partitions of a new leader epoch first ask
  OffsetForLeaderEpoch (API 23, this broker's replica id, current leader epoch
  for fencing) where their latest epoch ends in the leader's log and truncate
  to the answer (KIP-101/KIP-279), repeating while the leader's epoch was
  unknown to them, then fetch (``PartitionFetcher.epoch_lookup`` /
  ``on_epoch_end_offset``). The choice is made per connection (ApiVersions).
* after any change of a partition's LEO, HW or log start:
  ``on_appended(topic, partition)``.

Records are appended as they arrive: each response frame is read straight
into one buffer (``_FrameProtocol``; the same buffer for every answer once
the previous one is no longer referenced), the codec hands out ``memoryview``
slices of it, and ``append_as_follower`` writes those bytes; nothing is
copied or re-encoded. The appends of one answer run back to back and the
loop yields to the event loop once ``APPEND_SLICE_S`` has passed, so nothing
waits for more than about that plus one append, and the next Fetch (whose
offsets move the leader's HW for acks=all) is not held back by a loop turn per
partition.

Failure isolation: a storage error (or any unexpected exception) while
applying one partition's answer fails that partition
(``PartitionFetcher.fail``) until its next ``add_partitions``; the task and
the other partitions go on.

Threading: every method runs on the event loop's thread (``add_partitions``
and ``remove_partitions`` may also be called before ``start``). Because all
appends happen on that thread, ``remove_partitions`` is synchronous: once it
returns, nothing more is appended to those logs.

Not here: fetch sessions, quotas/throttling, fetching from several leaders
over one connection, ``num.replica.fetchers`` > 1, SASL re-authentication
(KIP-368: a connection the leader closes is opened again, with a new login).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import socket
import ssl
import time
import uuid
from typing import Callable, Iterable

from kwire import __version__
from kwire.clock import now_ms as _now_ms
from kwire.config.ibp import fetch_version_cap, offset_for_leader_epoch_version_cap, parse_ibp, truncation_on_fetch
from kwire.protocol import codec
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.api_versions_request import ApiVersionsRequest
from kwire.protocol.generated.fetch_request import (
    FetchPartition,
    FetchRequest,
    FetchTopic,
    ReplicaState,
)
from kwire.protocol.generated.list_offsets_request import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsTopic,
)
from kwire.protocol.generated.metadata_request import MetadataRequest, MetadataRequestTopic
from kwire.protocol.generated.offset_for_leader_epoch_request import (
    OffsetForLeaderEpochRequest,
    OffsetForLeaderPartition,
    OffsetForLeaderTopic,
)
from kwire.protocol.primitives import ProtocolError
from kwire.replication.follower import EpochLookup, FetchPartitionData, Outcome, PartitionFetcher, State

log = logging.getLogger("kwire.replication.fetcher")

API_FETCH, API_LIST_OFFSETS, API_METADATA, API_API_VERSIONS, API_OFFSET_FOR_LEADER_EPOCH = 1, 2, 3, 18, 23
FETCH_DIVERGING_EPOCH_MIN = 12  # Fetch carries last_fetched_epoch / diverging_epoch from v12
FETCH_TOPIC_ID_MIN = 13  # Fetch names topics by id from v13
FETCH_REPLICA_STATE_MIN = 15  # the replica id moves into replica_state (KIP-903)
METADATA_TOPIC_ID_MIN = 10  # Metadata answers topic ids from v10
EARLIEST_TIMESTAMP, LATEST_TIMESTAMP = -2, -1
MAX_FRAME = 256 * 1024 * 1024  # a response size beyond this is a broken stream
# appends of one Fetch answer run back to back until this much time has passed, then the loop
# gets a turn: the next Fetch (whose offsets move the leader's HW: acks=all) goes out sooner
# than with a turn after every partition, and no other work waits longer than about this
APPEND_SLICE_S = 0.002
# a connect, or a response beyond the leader's long poll, this late when a new leadership arrives
# for the leader: the connection is given up and made again at once (``_LeaderFetcher.kick``)
STALL_S = 3.0
# a response this late beyond the leader's long poll: the link is probed, a new connection from the
# same address every LINK_PROBE_S, each given LINK_PROBE_TIMEOUT_S (an event loop starved that long
# under load could take a probe for failed: it costs one reconnection). One that fails, then one that
# connects: the link was cut and has healed, so the awaited answer was lost in the cut and the
# connection is made again at once (``_LeaderFetcher._watch_link``)
LINK_CHECK_S = 1.0
LINK_PROBE_S = 1.0
LINK_PROBE_TIMEOUT_S = 2.0
# a response buffer up to this size is kept for the next response on the connection (the
# default replica.fetch.response.max.bytes is 10 MiB; answers are usually about 1 MiB per partition)
KEEP_BUFFER_BYTES = 16 * 1024 * 1024
_ZERO_UUID = uuid.UUID(int=0)

TopicPartition = tuple[str, int]


class _ConnectionFailed(Exception):
    """The connection is unusable (closed, timed out, garbled): reconnect after a backoff."""


class _Abandoned(_ConnectionFailed):
    """Given up for a new leadership (``_LeaderFetcher.kick``): reconnect at once."""


# -- one connection ------------------------------------------------------------------------

class _FrameProtocol(asyncio.BufferedProtocol):
    """Reads size-prefixed response frames, each straight into a buffer kept for the next one.

    The 4-byte size is read first, then exactly the frame (so a large fetch
    response lands in one buffer with no intermediate copy). One request is
    in flight at a time, so frames simply queue until ``read_frame``.

    The frame buffer is reused: a response is read into the buffer the
    previous one used when that one is no longer referenced (no frame queued,
    no ``memoryview`` of it alive, at most ``KEEP_BUFFER_BYTES``), so a
    follower does not allocate -- and have the allocator zero and fault in --
    megabytes per Fetch answer. A frame handed out by ``read_frame`` stays
    valid while a view of it is alive: the buffer is only reused once every
    view is gone.
    """

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self._size = bytearray(4)
        self._buf = self._size
        self._want = 4  # bytes of _buf the current read fills (the size, or the frame)
        self._pos = 0
        self._spare: bytearray | None = None  # the last frame's buffer, for the next frame
        self.frames = self.allocations = 0  # frames read, buffers allocated for them
        self._frames: collections.deque[memoryview] = collections.deque()
        self._waiter: asyncio.Future | None = None
        self._lost: BaseException | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport

    def get_buffer(self, sizehint: int):
        return memoryview(self._buf)[self._pos:self._want]

    def buffer_updated(self, nbytes: int) -> None:
        self._pos += nbytes
        if self._pos < self._want:
            return
        if self._buf is self._size:
            n = int.from_bytes(self._size, "big", signed=True)
            if not 4 <= n <= MAX_FRAME:
                self._lost = _ConnectionFailed(f"bad response size {n}")
                self._wake()
                self.transport.abort()
                return
            self._buf = self._frame_buffer(n)
            self._want = n
        else:
            self._frames.append(memoryview(self._buf)[:self._want])
            self._buf = self._size
            self._want = 4
            self._wake()
        self._pos = 0

    def _frame_buffer(self, n: int) -> bytearray:
        """A buffer of at least ``n`` bytes: the spare one when nothing refers to it any more."""
        self.frames += 1
        buf = self._spare
        if buf is not None and len(buf) >= n and not self._frames and _unreferenced(buf):
            return buf
        self.allocations += 1
        buf = bytearray(n)
        self._spare = buf if n <= KEEP_BUFFER_BYTES else None
        return buf

    def eof_received(self):
        return False  # close the transport

    def connection_lost(self, exc) -> None:
        if self._lost is None:
            self._lost = exc or ConnectionResetError("connection closed by the leader")
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def read_frame(self, timeout: float | None = None) -> memoryview:
        """The next frame; ``asyncio.TimeoutError`` when none has come within ``timeout`` s (a
        timer on the waiter: no task per request, as ``asyncio.wait_for`` would make)."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not self._frames:
            if isinstance(self._lost, _Abandoned):
                raise self._lost
            if self._lost is not None:
                raise _ConnectionFailed(str(self._lost) or type(self._lost).__name__)
            self._waiter = waiter = loop.create_future()
            timer = None if deadline is None else loop.call_at(deadline, _expire, waiter)
            try:
                await waiter
            finally:
                self._waiter = None
                if timer is not None:
                    timer.cancel()
        return self._frames.popleft()


def _expire(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_exception(asyncio.TimeoutError())


def _unreferenced(buf: bytearray) -> bool:
    """True when no ``memoryview`` (or other buffer export) of ``buf`` is alive: a bytearray
    with exports cannot be resized, so a one-byte grow and shrink tells (O(1) once the
    bytearray has over-allocated on the first call)."""
    try:
        buf.append(0)
    except BufferError:
        return False
    del buf[-1]
    return True


# -- the manager ---------------------------------------------------------------------------

class _Entry:
    """One followed partition: its state machine and the leader it fetches from."""

    __slots__ = ("key", "fetcher", "leader_id")

    def __init__(self, key: TopicPartition, fetcher: PartitionFetcher, leader_id: int) -> None:
        self.key = key
        self.fetcher = fetcher
        self.leader_id = leader_id


class ReplicaFetcherManager:
    """Every partition this broker follows, grouped into one fetcher task per leader."""

    def __init__(self, node_id: int, endpoint: Callable[[int], tuple[str, int] | None], config,
                 *, on_appended: Callable[[str, int], None], security=None) -> None:
        self.node_id = node_id
        self.endpoint = endpoint
        # kwire.security.inter_broker.InterBrokerSecurity: TLS and SASL of the inter-broker
        # listener, given by the broker (None: plaintext)
        self.security = security
        self.on_appended = on_appended
        self.client_id = f"broker-{node_id}-fetcher-0"
        self.fetch_backoff_ms = int(config["replica.fetch.backoff.ms"])
        self.fetch_max_bytes = int(config["replica.fetch.max.bytes"])
        self.fetch_min_bytes = int(config["replica.fetch.min.bytes"])
        self.fetch_wait_max_ms = int(config["replica.fetch.wait.max.ms"])
        self.response_max_bytes = int(config["replica.fetch.response.max.bytes"])
        self.socket_timeout_ms = int(config["replica.socket.timeout.ms"])
        ibp = parse_ibp(config["inter.broker.protocol.version"])
        self.truncation_on_fetch = truncation_on_fetch(ibp)  # Kafka's isTruncationOnFetchSupported
        self.fetch_version_cap = fetch_version_cap(ibp)  # None: the newest both sides speak
        self.epoch_version_cap = offset_for_leader_epoch_version_cap(ibp)
        self._entries: dict[TopicPartition, _Entry] = {}
        self._fetchers: dict[int, _LeaderFetcher] = {}
        self._stopping: set[asyncio.Task] = set()  # tasks of fetchers stopped while running
        self._running = False
        self._closed = False

    # -- partitions ---------------------------------------------------------------------
    def add_partitions(self, parts: dict[TopicPartition, tuple]) -> None:
        """Follow ``{(topic, p): (plog, leader_id, leader_epoch)}``.

        A partition already followed with the same log keeps its fetch state
        (``become_follower``: a new epoch resets it to fetch from the LEO, a
        failed partition starts again); a new leader id moves it to that
        leader's fetcher.
        """
        now = _now_ms()
        for key, (plog, leader_id, leader_epoch) in parts.items():
            entry = self._entries.get(key)
            if entry is not None and entry.fetcher.log is plog:
                if entry.leader_id != leader_id:
                    self._detach(entry)
                    entry.leader_id = leader_id
                entry.fetcher.become_follower(leader_id, leader_epoch, now)
            else:
                if entry is not None:
                    self._detach(entry)
                entry = _Entry(key, PartitionFetcher(plog, leader_id, leader_epoch, now,
                                                     fetch_backoff_ms=self.fetch_backoff_ms,
                                                     truncate_on_fetch=self.truncation_on_fetch),
                               leader_id)
                self._entries[key] = entry
            log.info("%s-%d: following leader %d at epoch %d from offset %d", key[0], key[1],
                     leader_id, leader_epoch, entry.fetcher.fetch_offset)
            self._attach(entry)
        self._stop_idle()

    def remove_partitions(self, keys: Iterable[TopicPartition]) -> None:
        """Stop following these partitions; nothing is appended to their logs after this."""
        for key in keys:
            entry = self._entries.pop(key, None)
            if entry is not None:
                self._detach(entry)
        self._stop_idle()

    def partitions(self) -> dict[TopicPartition, PartitionFetcher]:
        """The followed partitions' state machines (for inspection and tests)."""
        return {k: e.fetcher for k, e in self._entries.items()}

    def _attach(self, entry: _Entry) -> None:
        f = self._fetchers.get(entry.leader_id)
        if f is None:
            f = self._fetchers[entry.leader_id] = _LeaderFetcher(self, entry.leader_id)
            if self._running:
                f.start()
        f.partitions[entry.key] = entry
        f.kick()

    def _detach(self, entry: _Entry) -> None:
        f = self._fetchers.get(entry.leader_id)
        if f is not None:
            f.partitions.pop(entry.key, None)

    def _stop_idle(self) -> None:
        for leader_id, f in list(self._fetchers.items()):
            if not f.partitions:
                del self._fetchers[leader_id]
                task = f.stop()
                if task is not None and not task.done():
                    self._stopping.add(task)  # awaited by close(): never left pending at exit
                    task.add_done_callback(self._stopping.discard)

    # -- life cycle ---------------------------------------------------------------------
    def start(self) -> None:
        """Start the fetcher tasks (on the running event loop)."""
        if self._running or self._closed:
            return
        self._running = True
        for f in self._fetchers.values():
            f.start()

    async def close(self) -> None:
        """Cancel every fetcher task and close its connection."""
        self._closed = True
        self._running = False
        fetchers = list(self._fetchers.values())
        self._fetchers.clear()
        self._entries.clear()
        tasks = [t for t in (f.stop() for f in fetchers) if t is not None] + list(self._stopping)
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


# -- one leader ----------------------------------------------------------------------------

class _LeaderFetcher:
    """The task that fetches every partition led by ``leader_id`` over one connection."""

    def __init__(self, mgr: ReplicaFetcherManager, leader_id: int) -> None:
        self.mgr = mgr
        self.leader_id = leader_id
        self.partitions: dict[TopicPartition, _Entry] = {}
        self.task: asyncio.Task | None = None
        self._wake: asyncio.Event | None = None
        self._conn: _FrameProtocol | None = None
        self._versions: dict[int, tuple[int, int]] = {}
        self._correlation_id = 0
        self._topic_ids: dict[str, uuid.UUID] = {}
        self._topic_names: dict[uuid.UUID, str] = {}
        self._stopped = False
        self._failing = False  # the last connection attempt or request failed
        # (loop time it started, seconds it may take) of the connect or response awaited now
        self._awaiting: tuple[float, float] | None = None
        self._connecting: asyncio.Future | None = None
        self._kicked = False  # gave up a connection since the last answer: not again until one
        self._watch: asyncio.Task | None = None  # _watch_link of an answer overdue now
        # truncation from Fetch's diverging epoch: the IBP allows it and (once connected) the
        # leader speaks Fetch v12+; else OffsetForLeaderEpoch before fetching
        self.truncate_on_fetch = mgr.truncation_on_fetch

    def __repr__(self) -> str:
        return f"replica fetcher for leader {self.leader_id}"

    def start(self) -> None:
        self._wake = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(
            self._run(), name=f"replica-fetcher-{self.mgr.node_id}-leader-{self.leader_id}")

    def stop(self) -> asyncio.Task | None:
        self._stopped = True
        self._disconnect()
        if self.task is not None and not self.task.done():
            self.task.cancel()
        return self.task

    def wake(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def kick(self) -> None:
        """A partition has a new leadership to fetch from this leader: ``wake``, and give up a
        connect or a response overdue by ``STALL_S`` (then reconnect at once, no backoff; a
        leader merely busy rarely answers that late). Such a connection is dead, most likely cut by a partition that has healed since: its
        request (or SYN) sent during the cut comes back only with TCP's next retransmission,
        seconds after the heal at the backoff a 10 s cut reaches, or after
        ``replica.socket.timeout.ms`` (30 s). Kafka's fetcher waits for that; the new
        leadership makes it worth a new connection here."""
        self.wake()
        if self._awaiting is None or self._kicked:
            return
        started, allowed = self._awaiting
        overdue = asyncio.get_running_loop().time() - started - allowed
        if overdue < STALL_S:
            return
        # given up: one reconnection until an answer comes (a leader slow under load, not cut
        # off, is not made to start over again and again)
        self._kicked = True
        self._abandon(f"no answer for {overdue + allowed:.1f} s, and a new leadership to fetch")

    def _abandon(self, why: str) -> None:
        """Give the connection (or the connect) up and make it again at once, no backoff."""
        log.info("%s: %s: reconnecting", self, why)
        self._awaiting = None
        if self._connecting is not None:
            self._connecting.cancel()
        conn, self._conn = self._conn, None
        if conn is not None and conn.transport is not None:
            if conn._lost is None:
                conn._lost = _Abandoned(f"abandoned: {why}")
            conn.transport.abort()

    def _start_watch(self, conn: _FrameProtocol) -> None:
        if self._conn is conn and self._watch is None:
            self._watch = asyncio.get_running_loop().create_task(self._watch_link(conn))

    async def _watch_link(self, conn: _FrameProtocol) -> None:
        """While an answer on ``conn`` is overdue by ``LINK_CHECK_S``: probe the link to the leader
        with new connections from the same local address, one every ``LINK_PROBE_S``. A probe that
        fails and a later one that connects mean the link was cut and has healed: the answer (or
        the request) was dropped in the cut and comes back only with TCP's next retransmission,
        up to ~13 s after the heal of a 10-25 s cut, or ``replica.socket.timeout.ms``. Give the
        connection up then. A leader merely slow (or paused: its kernel still accepts) passes
        every probe and keeps its connection."""
        transport = conn.transport
        sock = None if transport is None else transport.get_extra_info("socket")
        try:
            local, peer = sock.getsockname()[0], sock.getpeername()[:2]
        except (OSError, AttributeError):
            return
        loop = asyncio.get_running_loop()
        cut = False
        while self._conn is conn:
            began = loop.time()
            try:
                probe, _ = await asyncio.wait_for(loop.create_connection(
                    asyncio.Protocol, peer[0], peer[1], local_addr=(local, 0)), LINK_PROBE_TIMEOUT_S)
            except asyncio.TimeoutError:
                # noticed late, the loop itself starved: it cannot tell a dropped SYN from its lateness
                cut = cut or loop.time() - began < LINK_PROBE_TIMEOUT_S + LINK_PROBE_S / 2
            except OSError:
                cut = True
            else:
                probe.abort()
                if cut and self._conn is conn:
                    self._abandon(f"the link to {peer[0]}:{peer[1]} was cut and has healed, "
                                  "and the answer awaited was lost in the cut")
                    return
            await asyncio.sleep(max(0.0, LINK_PROBE_S - (loop.time() - began)))

    # -- the loop -----------------------------------------------------------------------
    async def _run(self) -> None:
        backoff_s = self.mgr.fetch_backoff_ms / 1000
        try:
            while not self._stopped:
                try:
                    if self._conn is None:
                        await self._connect()
                    await self._fetch_once()
                except (_ConnectionFailed, OSError, asyncio.TimeoutError, ProtocolError) as e:
                    # the first failure in a row at INFO, the retries (every backoff) at DEBUG
                    self._disconnect()
                    if isinstance(e, _Abandoned):  # kick() logged it
                        continue
                    log.log(logging.DEBUG if self._failing else logging.INFO,
                            "%s: %s; reconnecting every %d ms", self, str(e) or type(e).__name__,
                            self.mgr.fetch_backoff_ms)
                    self._failing = True
                    await asyncio.sleep(backoff_s)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("%s: unexpected failure; reconnecting", self)
                    self._disconnect()
                    await asyncio.sleep(backoff_s)
        finally:
            self._disconnect()

    async def _fetch_once(self) -> None:
        now = _now_ms()
        self._wake.clear()
        requested: list[tuple[_Entry, FetchPartitionData]] = []
        lookups: list[_Entry] = []
        epochs: list[tuple[_Entry, EpochLookup]] = []
        next_ready_ms = None
        for entry in list(self.partitions.values()):
            f = entry.fetcher
            try:
                before = self._positions(f.log)
                f.set_truncate_on_fetch(self.truncate_on_fetch)
                data = f.fetch_partition(now)
                ask = f.epoch_lookup(now) if data is None else None
            except Exception as e:  # a truncation that failed in an unexpected way
                self._fail(entry, f"preparing the fetch: {e!r}")
                continue
            self._notify_if_moved(entry, before)
            if data is not None:
                requested.append((entry, data))
            elif ask is not None:
                epochs.append((entry, ask))
            elif f.state is State.LOOKUP_OFFSETS:
                lookups.append(entry)
            elif f.state in (State.FETCHING, State.TRUNCATING):
                next_ready_ms = f.delay_until_ms if next_ready_ms is None else min(
                    next_ready_ms, f.delay_until_ms)
        if lookups or epochs:
            if lookups:
                await self._lookup_offsets(lookups)
            if epochs:
                await self._truncate_to_epoch_end_offsets(epochs)
            return
        if not requested:  # everything backs off or failed: wait for time or new partitions
            timeout = None if next_ready_ms is None else max(0, next_ready_ms - now) / 1000
            try:
                await asyncio.wait_for(self._wake.wait(), timeout)
            except asyncio.TimeoutError:
                pass
            return
        await self._fetch(requested)

    # -- Fetch --------------------------------------------------------------------------
    async def _fetch(self, requested: list[tuple[_Entry, FetchPartitionData]]) -> None:
        mgr = self.mgr
        version = self._version(API_FETCH, mgr.fetch_version_cap)
        topics: dict[str, list[FetchPartition]] = {}
        for entry, d in requested:
            topics.setdefault(entry.key[0], []).append(FetchPartition(
                partition=entry.key[1], current_leader_epoch=d.current_leader_epoch,
                fetch_offset=d.fetch_offset, last_fetched_epoch=d.last_fetched_epoch,
                log_start_offset=d.log_start_offset, partition_max_bytes=mgr.fetch_max_bytes))
        if version >= FETCH_TOPIC_ID_MIN:
            missing = [t for t in topics if t not in self._topic_ids]
            if missing:
                await self._load_topic_ids(missing)
            if any(self._topic_ids.get(t, _ZERO_UUID) == _ZERO_UUID for t in topics):
                version = FETCH_TOPIC_ID_MIN - 1  # a topic without an id: fetch by names
        by_id = version >= FETCH_TOPIC_ID_MIN
        req = FetchRequest(
            max_wait_ms=mgr.fetch_wait_max_ms, min_bytes=mgr.fetch_min_bytes,
            max_bytes=mgr.response_max_bytes, isolation_level=0, session_id=0, session_epoch=-1,
            topics=[FetchTopic(topic_id=self._topic_ids[t], partitions=ps) if by_id
                    else FetchTopic(topic=t, partitions=ps) for t, ps in topics.items()],
            forgotten_topics_data=[])
        if version >= FETCH_REPLICA_STATE_MIN:
            req.replica_id = -1
            req.replica_state = ReplicaState(replica_id=mgr.node_id, replica_epoch=-1)
        else:
            req.replica_id = mgr.node_id
        resp = await self._request(API_FETCH, version, req,
                                   extra_wait_ms=mgr.fetch_wait_max_ms)
        now = _now_ms()
        yield_at = time.perf_counter() + APPEND_SLICE_S
        answers = {}
        for tr in resp.responses or ():
            name = self._topic_names.get(tr.topic_id) if by_id else tr.topic
            for pd in tr.partitions or ():
                answers[(name, pd.partition_index)] = pd
        for entry, d in requested:
            if resp.error_code:
                self._apply(entry, d, resp.error_code, None, now)
                continue
            pd = answers.get(entry.key)
            if pd is None:
                continue  # not answered (cannot happen without sessions): fetched again next time
            self._apply(entry, d, pd.error_code, pd, now)
            if pd.error_code == ErrorCode.UNKNOWN_TOPIC_ID:
                self._forget_topic_id(entry.key[0])
            if pd.records is not None and len(pd.records) and time.perf_counter() >= yield_at:
                await asyncio.sleep(0)  # appends in slices of APPEND_SLICE_S on the event loop
                yield_at = time.perf_counter() + APPEND_SLICE_S

    def _apply(self, entry: _Entry, requested: FetchPartitionData, error_code: int, pd,
               now: int) -> None:
        """One partition's answer, if the partition is still ours as it was requested."""
        f = entry.fetcher
        if self.partitions.get(entry.key) is not entry or \
                f.leader_epoch != requested.current_leader_epoch:
            return  # removed, moved or re-led while the request was in flight
        plog = f.log
        before = self._positions(plog)
        try:
            if pd is None:
                outcome = f.on_fetch_response(requested, error_code, now_ms=now)
            else:
                de = pd.diverging_epoch
                diverging = (de.epoch, de.end_offset) if de is not None and de.epoch >= 0 \
                    and de.end_offset >= 0 else None
                outcome = f.on_fetch_response(
                    requested, error_code, records=pd.records, high_watermark=pd.high_watermark,
                    log_start_offset=pd.log_start_offset, diverging_epoch=diverging, now_ms=now)
        except Exception as e:
            log.exception("%s-%d: applying the leader's answer failed", *entry.key)
            self._fail(entry, f"applying the fetch answer: {e!r}")
            outcome = Outcome.FAILED
        if outcome is Outcome.BACKOFF and error_code:
            log.debug("%s-%d: fetch error %d from leader %d", entry.key[0], entry.key[1],
                      error_code, self.leader_id)
        self._notify_if_moved(entry, before)

    # -- OffsetForLeaderEpoch (truncation before fetching) ------------------------------------
    async def _truncate_to_epoch_end_offsets(self, asks: list[tuple[_Entry, EpochLookup]]) -> None:
        """Where each partition's latest epoch ends in the leader's log, then truncate there
        (Kafka's ``truncateToEpochEndOffsets``). An answer is applied only to a partition still
        ours, at the leader epoch it was asked with."""
        version = self._version(API_OFFSET_FOR_LEADER_EPOCH, self.mgr.epoch_version_cap)
        topics: dict[str, list[OffsetForLeaderPartition]] = {}
        for entry, ask in asks:
            topics.setdefault(entry.key[0], []).append(OffsetForLeaderPartition(
                partition=entry.key[1], current_leader_epoch=ask.current_leader_epoch,
                leader_epoch=ask.leader_epoch))
        req = OffsetForLeaderEpochRequest(replica_id=self.mgr.node_id, topics=[
            OffsetForLeaderTopic(topic=t, partitions=ps) for t, ps in topics.items()])
        resp = await self._request(API_OFFSET_FOR_LEADER_EPOCH, version, req)
        answers = {(tr.topic, pr.partition): pr for tr in resp.topics or () for pr in tr.partitions or ()}
        now = _now_ms()
        for entry, ask in asks:
            f = entry.fetcher
            if self.partitions.get(entry.key) is not entry or f.leader_epoch != ask.current_leader_epoch:
                continue  # removed, moved or re-led while the request was in flight
            pr = answers.get(entry.key)
            before = self._positions(f.log)
            try:
                if pr is None:
                    f.on_epoch_end_offset(ErrorCode.UNKNOWN_SERVER_ERROR, -1, -1, ask.current_leader_epoch, now)
                else:
                    f.on_epoch_end_offset(pr.error_code, pr.leader_epoch, pr.end_offset,
                                          ask.current_leader_epoch, now)
            except Exception as e:
                log.exception("%s-%d: truncating to the leader's epoch end offset failed", *entry.key)
                self._fail(entry, f"truncating to the leader's epoch end offset: {e!r}")
            self._notify_if_moved(entry, before)

    # -- ListOffsets (after OFFSET_OUT_OF_RANGE) ------------------------------------------
    async def _lookup_offsets(self, lookups: list[_Entry]) -> None:
        """The leader's log start and end for each partition, then ``on_leader_offsets``."""
        version = self._version(API_LIST_OFFSETS)
        epochs = {e.key: e.fetcher.leader_epoch for e in lookups}
        got: dict[int, dict[TopicPartition, tuple[int, int]]] = {}
        for ts in (EARLIEST_TIMESTAMP, LATEST_TIMESTAMP):
            topics: dict[str, list[ListOffsetsPartition]] = {}
            for e in lookups:
                topics.setdefault(e.key[0], []).append(ListOffsetsPartition(
                    partition_index=e.key[1], current_leader_epoch=epochs[e.key], timestamp=ts))
            req = ListOffsetsRequest(replica_id=self.mgr.node_id, isolation_level=0, topics=[
                ListOffsetsTopic(name=t, partitions=ps) for t, ps in topics.items()])
            if version >= 10:
                req.timeout_ms = self.mgr.socket_timeout_ms
            resp = await self._request(API_LIST_OFFSETS, version, req)
            got[ts] = {(tr.name, pr.partition_index): (pr.error_code, pr.offset)
                       for tr in resp.topics or () for pr in tr.partitions or ()}
        now = _now_ms()
        for e in lookups:
            f = e.fetcher
            if self.partitions.get(e.key) is not e or f.leader_epoch != epochs[e.key]:
                continue
            before = self._positions(f.log)
            start = got[EARLIEST_TIMESTAMP].get(e.key, (ErrorCode.UNKNOWN_SERVER_ERROR, -1))
            end = got[LATEST_TIMESTAMP].get(e.key, (ErrorCode.UNKNOWN_SERVER_ERROR, -1))
            try:
                if start[0] or end[0]:
                    f.on_leader_offsets_error(start[0] or end[0], epochs[e.key], now)
                else:
                    f.on_leader_offsets(start[1], end[1], now)
            except Exception as ex:
                log.exception("%s-%d: resetting to the leader's offsets failed", *e.key)
                self._fail(e, f"resetting to the leader's offsets: {ex!r}")
            self._notify_if_moved(e, before)

    # -- topic ids ------------------------------------------------------------------------
    async def _load_topic_ids(self, names: list[str]) -> None:
        version = self._version(API_METADATA)
        if version < METADATA_TOPIC_ID_MIN:
            return
        req = MetadataRequest(topics=[MetadataRequestTopic(name=n) for n in names],
                              allow_auto_topic_creation=False)
        resp = await self._request(API_METADATA, version, req)
        for t in resp.topics or ():
            if t.error_code == 0 and t.name in names and t.topic_id != _ZERO_UUID:
                self._topic_ids[t.name] = t.topic_id
                self._topic_names[t.topic_id] = t.name

    def _forget_topic_id(self, name: str) -> None:
        tid = self._topic_ids.pop(name, None)
        if tid is not None:
            self._topic_names.pop(tid, None)

    # -- helpers --------------------------------------------------------------------------
    @staticmethod
    def _positions(plog) -> tuple[int, int, int]:
        return plog.log_end_offset, plog.high_watermark, plog.log_start_offset

    def _notify_if_moved(self, entry: _Entry, before: tuple[int, int, int]) -> None:
        try:
            moved = self._positions(entry.fetcher.log) != before
        except Exception:
            moved = True
        if moved:
            try:
                self.mgr.on_appended(*entry.key)
            except Exception:
                log.exception("%s-%d: on_appended failed", *entry.key)

    def _fail(self, entry: _Entry, why: str) -> None:
        entry.fetcher.fail(why)

    # -- the connection -------------------------------------------------------------------
    async def _connect(self) -> None:
        addr = self.mgr.endpoint(self.leader_id)
        if addr is None:
            raise _ConnectionFailed(f"leader {self.leader_id} has no known endpoint")
        host, port = addr
        loop = asyncio.get_running_loop()
        timeout = self.mgr.socket_timeout_ms / 1000
        security = self.mgr.security
        if security is None:  # no broker settings (tests): unbound plaintext
            attempt = asyncio.ensure_future(asyncio.wait_for(
                loop.create_connection(_FrameProtocol, host, port), timeout))
        else:
            attempt = asyncio.ensure_future(security.connect(host, port, _FrameProtocol, timeout))
        self._connecting, self._awaiting = attempt, (loop.time(), 0.0)
        try:
            transport, proto = await attempt
        except asyncio.TimeoutError:
            raise _ConnectionFailed(f"connecting to {host}:{port} timed out") from None
        except ssl.SSLError as e:
            raise _ConnectionFailed(f"TLS with {host}:{port} failed: {e}") from None
        except asyncio.CancelledError:
            if attempt.cancelled() and not self._stopped and not asyncio.current_task().cancelling():
                raise _Abandoned(f"connecting to {host}:{port}: abandoned") from None
            raise
        finally:
            self._connecting = self._awaiting = None
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
        self._conn = proto
        self._versions = {}
        self._topic_ids.clear()  # the leader may be a new process with re-created topics
        self._topic_names.clear()
        try:
            await self._negotiate()
            if security is not None and security.sasl:
                await self._login(security, host, port)
        except BaseException:
            self._disconnect()
            raise
        fetch = self._versions.get(API_FETCH)
        self.truncate_on_fetch = self.mgr.truncation_on_fetch and fetch is not None \
            and fetch[1] >= FETCH_DIVERGING_EPOCH_MIN
        log.info("%s: connected to %s:%d (%s)", self, host, port,
                 "truncation on fetch" if self.truncate_on_fetch else "OffsetForLeaderEpoch before fetching")
        self._failing = False

    async def _login(self, security, host: str, port: int) -> None:
        """SASL with the leader (after ApiVersions, as Kafka's clients do)."""
        from kwire.security.inter_broker import SaslLoginError

        try:
            await security.login(self._request)
        except SaslLoginError as e:
            # logged by _run (INFO once, then DEBUG each retry); the leader logs it too
            raise _ConnectionFailed(f"SASL {security.mechanism} authentication with {host}:{port} "
                                    f"failed: {e.message}") from None

    async def _negotiate(self) -> None:
        """ApiVersions at the codec's newest version, v0 when the leader does not know it."""
        version = codec.APIS[API_API_VERSIONS].max_version
        for _ in range(2):
            req = ApiVersionsRequest(client_software_name="kwire-replica-fetcher",
                                     client_software_version=__version__)
            cid = self._send(API_API_VERSIONS, version, req)
            frame = await self._read(cid, 0)
            try:
                got, resp = codec.decode_response(API_API_VERSIONS, version, frame)
            except ProtocolError:
                got, resp = codec.decode_response(API_API_VERSIONS, 0, frame)
            ranges = {k.api_key: (k.min_version, k.max_version) for k in resp.api_keys or ()}
            if resp.error_code == ErrorCode.UNSUPPORTED_VERSION and API_API_VERSIONS in ranges:
                version = max(ranges[API_API_VERSIONS][1], codec.APIS[API_API_VERSIONS].min_version)
                continue
            if resp.error_code:
                raise _ConnectionFailed(f"ApiVersions error {resp.error_code}")
            self._versions = ranges
            return
        raise _ConnectionFailed("no common ApiVersions version")

    def _version(self, api_key: int, cap: int | None = None) -> int:
        """The newest version both sides speak, at most ``cap`` (an IBP's version; one below
        kwire's codec is raised to the codec's oldest)."""
        spec = codec.APIS[api_key]
        theirs = self._versions.get(api_key)
        if theirs is None:
            raise _ConnectionFailed(f"the leader does not support {spec.name}")
        lo = max(spec.min_version, theirs[0])
        hi = min(spec.max_version, theirs[1])
        if cap is not None:
            hi = min(hi, max(cap, lo))
        if hi < lo:
            raise _ConnectionFailed(f"no common {spec.name} version with the leader")
        return hi

    def _send(self, api_key: int, version: int, obj) -> int:
        conn = self._conn
        if conn is None or conn.transport is None or conn.transport.is_closing():
            raise _ConnectionFailed("not connected")
        self._correlation_id = (self._correlation_id + 1) & 0x7FFFFFFF
        conn.transport.write(codec.encode_request(api_key, version, self._correlation_id,
                                                  self.mgr.client_id, obj))
        return self._correlation_id

    async def _read(self, correlation_id: int, extra_wait_ms: int) -> memoryview:
        conn = self._conn
        timeout = (self.mgr.socket_timeout_ms + extra_wait_ms) / 1000
        loop = asyncio.get_running_loop()
        self._awaiting = (loop.time(), extra_wait_ms / 1000)
        # a timer, not a task, per request: most answers come before it fires
        check = loop.call_later(extra_wait_ms / 1000 + LINK_CHECK_S, self._start_watch, conn)
        try:
            frame = await conn.read_frame(timeout)
        except asyncio.TimeoutError:
            raise _ConnectionFailed(f"no response within {timeout:.1f}s") from None
        finally:
            self._awaiting = None
            check.cancel()
            if self._watch is not None:
                self._watch.cancel()
                self._watch = None
        self._kicked = False
        got = int.from_bytes(frame[:4], "big", signed=True)
        if got != correlation_id:
            raise _ConnectionFailed(f"correlation id {got}, expected {correlation_id}")
        return frame

    async def _request(self, api_key: int, version: int, obj, extra_wait_ms: int = 0):
        cid = self._send(api_key, version, obj)
        frame = await self._read(cid, extra_wait_ms)
        return codec.decode_response(api_key, version, frame)[1]

    def _disconnect(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and conn.transport is not None:
            conn.transport.abort()
