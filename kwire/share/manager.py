"""The share partitions a broker leads (Kafka's SharePartitionManager): acquire, acknowledge, locks.

``SharePartitionManager`` (``broker.share_partitions``) keeps one
``SharePartition`` per (group id, topic id, partition) that a member fetched,
created on first use with the group's ``share.auto.offset.reset``
(``latest``, the default: the high watermark; ``earliest``: the log start
offset; ``by_duration:<ISO-8601 duration>``: the first offset with a timestamp
at or after now minus the duration) unless the share-group state store holds
its state (then that state is restored: ACCEPTed records stay done, records
acquired before a restart are delivered again with their count raised).

``fetch`` reads the log from the partition's next acquirable offset up to the
high watermark (``share.isolation.level=read_committed``: the last stable
offset), acquires the records of each batch read for the member (control
batches, and with read_committed the batches of aborted transactions, are
archived, never delivered) and returns the batches that hold acquired
records (a slice of the log file found from the batch headers alone, sent with
sendfile) with the acquired offset ranges; the client skips records outside
them. ``acknowledge`` applies a member's acknowledgement
batches (``kwire.share.partition``). Locks: one event-loop timer fires at the
earliest lock deadline of all partitions; expired records become available
and fetchers waiting on that partition are woken (purgatory key
``share_key(topic, partition)``), as they are by releases and by appends.

Group configs (per group, IncrementalAlterConfigs on GROUP resources, else the
broker's ``group.share.*``): ``share.record.lock.duration.ms``,
``share.delivery.count.limit``, ``share.partition.max.record.locks``,
``share.auto.offset.reset``, ``share.isolation.level``; read when a share
partition is created (lock duration and limits also on every fetch).

Durable state: after every change (acquisition included, so that delivery
counts survive a crash) the partition's ``snapshot()`` goes to ``store.save``
(``kwire.share.state``, ``__share_group_state``) before the request is
answered; between ``hold()`` and ``flush()`` (one ShareFetch or
ShareAcknowledge) the changes of a share partition become one write.

In a cluster the state goes to the share coordinator through the persister
(``kwire.share.persister``; Kafka's SharePartition with its
DefaultStatePersister). A share partition is loaded on first use by the leader
of its data partition (ReadShareGroupState at the partition's leader epoch;
never initialized: InitializeShareGroupState at ``share.auto.offset.reset``);
until then a fetch finds nothing there and a long poll is woken when the load
ends. Every change schedules a write of the whole window; writes of one share
partition run one at a time, each taking the state as it is when it starts (so
changes made meanwhile are coalesced into the next). ``pending(keys)`` and
``settle`` let a handler answer only once the writes covering its changes are
committed; a failed write drops the share partition from memory (the next use
reloads the durable state, so what the failed write carried is undone) and
its requests' acknowledgements answer the write's error, their acquired
records are not delivered. Losing the leadership of a data partition (or a new
leader epoch) drops its share partitions: the new leader loads them from the
coordinator, with acquired records available again and their delivery counts
kept. When the last share session of a group on this broker closes, the group's share
partitions here are forgotten too, each once its pending writes are committed (Kafka's
ShareGroupListener.onGroupEmpty): the admin APIs change the state only while the group is
empty, at the share coordinator, so the next member's fetch loads what they left (an altered
start offset, deleted state) instead of an old window that no write of this leader would fence.
"""

from __future__ import annotations

import asyncio
import logging
import uuid

from kwire.clock import now_ms
from kwire.config.group import effective_group_value, share_reset_ms
from kwire.protocol.errors import ErrorCode as E, KafkaError
from kwire.share.partition import ACK_TYPES, ACKNOWLEDGED, ARCHIVED, AckError, SharePartition
from kwire.share.persister import StatePersister
from kwire.share.sessions import ShareSessionCache
from kwire.share.state import SHARE_STATE_TOPIC, ShareStateStore

log = logging.getLogger("kwire.share")

MAX_TIMER_S = 1.0
# a ShareFetch reads a partition's log in chunks of at most this many bytes (see _acquire)
READ_CHUNK = 1 << 20


def share_key(topic: str, partition: int) -> tuple:
    """The purgatory key share fetches on a partition wait on (records became acquirable)."""
    return ("share", topic, partition)


def _report(acquired: list, first: int, last: int, count: int, batch_size: int) -> None:
    """Add an acquired range to a response's list, joined to the previous one when they are
    consecutive, of one delivery count and the joined range stays under ``batch_size``."""
    if acquired:
        a, b, c = acquired[-1]
        if b == first - 1 and c == count and (batch_size <= 0 or first - a < batch_size):
            acquired[-1] = (a, last, count)
            return
    acquired.append((first, last, count))


def _add_piece(pieces: list, region, pos: int, length: int) -> None:
    """Add batch bytes ``region[pos:pos + length]``, joined to the previous piece when they
    follow it in the same region or (file-backed regions) in the same file."""
    if pieces:
        prev = pieces[-1]
        if prev[0] is region and prev[1] + prev[2] == pos:
            prev[2] += length
            return
        if (prev[0].in_file() and region.in_file() and prev[0].file is region.file
                and prev[0].position + prev[1] + prev[2] == region.position + pos):
            prev[2] += length
            return
    pieces.append([region, pos, length])


def _bytes(part) -> bytes:
    return part if isinstance(part, (bytes, bytearray, memoryview)) else part.read()


class PartitionRead:
    """What one partition of a ShareFetch produced."""

    __slots__ = ("topic_id", "partition", "error", "message", "records", "acquired")

    def __init__(self, topic_id: bytes, partition: int) -> None:
        self.topic_id = topic_id
        self.partition = partition
        self.error = E.NONE
        self.message: str | None = None
        self.records = None  # bytes, or a FileRegion of the log (sent with sendfile)
        self.acquired: list[tuple[int, int, int]] = []


class SharePartitionManager:
    def __init__(self, broker) -> None:
        self.broker = broker
        self.partitions: dict[tuple[str, bytes, int], SharePartition] = {}
        self.sessions = ShareSessionCache(broker.config.get("group.share.max.share.sessions") or 2000)
        # the durable state (kwire.share.state); in a cluster this broker's share coordinator, and
        # the persister that reaches the share partitions' coordinators from their leaders
        self.store = ShareStateStore(broker)
        self.persister = StatePersister(broker, self.store) if broker.cluster_mode else None
        self._loading: dict[tuple, asyncio.Task] = {}
        self._epochs: dict[tuple, int] = {}  # cluster: the leader epoch a share partition was loaded at
        self._writers: dict[tuple, _Writer] = {}
        self._held: dict[tuple, SharePartition] | None = None  # between hold() and flush()
        self._topic_ids: dict[bytes, uuid.UUID] = {}
        self._tasks: set[asyncio.Task] = set()
        if self.persister is not None:
            broker.add_leadership_listener(self._on_leadership)
        self._handle: asyncio.TimerHandle | None = None
        self._armed_at: float | None = None
        # records acknowledged, by acknowledge type id (kwire.share.partition), for the metrics
        self.acknowledged = dict.fromkeys(ACK_TYPES, 0)

    # -- configs -------------------------------------------------------------------------------
    def group_value(self, group_id: str, name: str):
        overrides = self.broker.metadata.image.group_configs.get(group_id)
        return effective_group_value(name, overrides, self.broker.config)

    def lock_duration_ms(self, group_id: str) -> int:
        return int(self.group_value(group_id, "share.record.lock.duration.ms"))

    # -- share partitions -----------------------------------------------------------------------
    def topic_of(self, topic_id: bytes):
        """The topic with this id (16 bytes), or None."""
        u = self._topic_ids.get(topic_id)
        if u is None:
            if len(self._topic_ids) > 10000:
                self._topic_ids.clear()
            u = self._topic_ids[bytes(topic_id)] = uuid.UUID(bytes=bytes(topic_id))
        return self.broker.metadata.topic_by_id(u)

    def get(self, group_id: str, topic_id: bytes, partition: int, create: bool = True):
        """(SharePartition or None, topic, partition log, error)."""
        t = self.topic_of(topic_id)
        if t is None:
            return None, None, None, E.UNKNOWN_TOPIC_ID
        if not 0 <= partition < len(t.partitions):
            return None, t, None, E.UNKNOWN_TOPIC_OR_PARTITION
        if self.broker.cluster_mode and not self.broker.is_leader(t.name, partition):
            return None, t, None, E.NOT_LEADER_OR_FOLLOWER
        plog = self.broker.get_log(t.name, partition)
        if plog is None or plog.offline:
            return None, t, None, E.KAFKA_STORAGE_ERROR if plog is not None else E.UNKNOWN_TOPIC_OR_PARTITION
        key = (group_id, bytes(topic_id), partition)
        sp = self.partitions.get(key)
        if self.persister is not None:
            epoch = t.partitions[partition].leader_epoch
            if sp is not None and self._epochs.get(key) != epoch:
                self._drop(key)  # a new leader epoch: the state is loaded again
                sp = None
            if sp is None and create:
                self._start_load(key, t.name, epoch)
            create = False
        if sp is None and create:
            sp = self._create(key, plog)
        if sp is not None:
            sp.lock_duration_ms = self.lock_duration_ms(group_id)
            sp.delivery_count_limit = int(self.group_value(group_id, "share.delivery.count.limit"))
            sp.max_in_flight = int(self.group_value(group_id, "share.partition.max.record.locks"))
            if plog.log_start_offset > sp.start_offset:
                sp.move_start(plog.log_start_offset)
        return sp, t, plog, E.NONE

    def _create(self, key, plog) -> SharePartition:
        group_id = key[0]
        saved = self.store.load(*key)
        sp = SharePartition(0)
        if saved is not None:
            sp.restore(*saved)
            log.info("share partition %s restored: start %d, %d in flight", key, sp.start_offset, sp.in_flight())
        else:
            sp = SharePartition(self._initial_offset(group_id, plog))
            sp.changed = True
        self.partitions[key] = sp
        return sp

    # -- cluster mode: loading from and writing to the share coordinator ---------------------------
    def _on_leadership(self, topic: str, partition: int, is_leader: bool, leader_epoch: int = -1) -> None:
        if is_leader:
            return
        t = self.broker.metadata.topic(topic)
        for key in [k for k in self.partitions if k[2] == partition and t is not None and
                    self.topic_of(k[1]) is t]:
            self._drop(key)

    def _drop(self, key) -> None:
        self.partitions.pop(key, None)
        self._epochs.pop(key, None)

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _start_load(self, key, topic: str, leader_epoch: int) -> None:
        if key in self._loading:
            return
        try:
            self._loading[key] = self._spawn(self._load(key, topic, leader_epoch))
        except RuntimeError:  # no running loop (not serving): nothing to load for
            pass

    async def _load(self, key, topic: str, leader_epoch: int) -> None:
        group_id, tid, partition = key
        try:
            code, payload = await self.persister.read(group_id, tid, partition, leader_epoch)
            if code == E.UNKNOWN_TOPIC_OR_PARTITION:  # never initialized: start it
                plog = self.broker.get_log(topic, partition)
                if plog is None:
                    return
                start = self._initial_offset(group_id, plog)
                code = await self.persister.initialize(group_id, tid, partition, 0, start)
                payload = (0, (start, []))
            if code:
                log.warning("loading share partition %s failed: %s", key, code.name)
                return
            t = self.broker.metadata.topic(topic)
            if (key in self.partitions or t is None or not self.broker.is_leader(topic, partition)
                    or t.partitions[partition].leader_epoch != leader_epoch):
                return  # leadership moved meanwhile
            sp = SharePartition(0)
            sp.restore(*payload[1])
            sp.state_epoch = payload[0]
            self.partitions[key] = sp
            self._epochs[key] = leader_epoch
            log.info("share partition %s loaded at leader epoch %d: start %d, %d in flight", key, leader_epoch,
                     sp.start_offset, sp.in_flight())
        finally:
            self._loading.pop(key, None)
            self._wake(topic, partition)

    def _schedule_write(self, key, sp: SharePartition) -> None:
        w = self._writers.get(key)
        if w is None or w.sp is not sp:
            w = self._writers[key] = _Writer(sp)
        w.wanted += 1
        if w.task is None:
            try:
                w.task = self._spawn(self._write_loop(key, w))
            except RuntimeError:
                pass

    async def _write_loop(self, key, w: "_Writer") -> None:
        group_id, tid, partition = key
        try:
            while w.written < w.wanted:
                gen = w.wanted
                sp = w.sp
                code = E.NOT_LEADER_OR_FOLLOWER
                if self.partitions.get(key) is sp:
                    code = await self.persister.write(group_id, tid, partition, sp.state_epoch,
                                                      self._epochs.get(key, -1), sp.snapshot())
                if code:
                    log.warning("writing share partition %s failed: %s (dropped; reloaded on next use)", key,
                                code.name)
                    if self.partitions.get(key) is sp:
                        self._drop(key)
                    w.fail(code)
                    t = self.topic_of(tid)
                    if t is not None:
                        self._wake(t.name, partition)
                    return
                w.done(gen)
        finally:
            w.task = None
            if self._writers.get(key) is w and (w.error or w.written >= w.wanted):
                del self._writers[key]
            if (w.drop_after and not w.error and w.written >= w.wanted and self.partitions.get(key) is w.sp
                    and not self.sessions.has_group(group_id)):
                self._drop(key)  # the group emptied here meanwhile (_group_emptied)

    def pending(self, keys) -> list:
        """Cluster mode: the writes the changes made so far to the share partitions of ``keys``
        [(group id, topic id, partition)] wait for (for ``settle``); [] when none."""
        out = []
        for key in keys:
            w = self._writers.get((key[0], bytes(key[1]), key[2]))
            if w is not None and not w.error and w.written < w.wanted:
                out.append((key, w, w.wanted))
        return out

    async def settle(self, pending) -> dict:
        """{key: error} of ``pending``'s writes once each is committed or failed."""
        out = {}
        for key, w, gen in pending:
            out[key] = await w.wait(gen)
        return out

    def _initial_offset(self, group_id: str, plog) -> int:
        back = share_reset_ms(str(self.group_value(group_id, "share.auto.offset.reset")))
        if back == -1:  # earliest
            return plog.log_start_offset
        if back:  # by_duration: the first record at or after now minus the duration
            found = plog.offset_for_timestamp(now_ms() - back)
            return found[0] if found is not None else plog.high_watermark
        return plog.high_watermark

    def initialized(self, group_id: str) -> list[tuple[bytes, int, SharePartition]]:
        return [(t, p, sp) for (g, t, p), sp in self.partitions.items() if g == group_id]

    # -- fetching ---------------------------------------------------------------------------------
    def fetch(self, group_id: str, member_id: str, wanted, max_bytes: int, max_records: int,
              now: int, record_limit: bool = False, batch_size: int = 0) -> list[PartitionRead]:
        """Acquire records of ``wanted`` [(topic id, partition)] for ``member_id``: at most
        ``max_records`` with ``record_limit``, else (batch_optimized) whole log batches until
        ``max_records`` is reached or passed. ``batch_size`` (> 0): acquired ranges of
        consecutive log batches are reported as one while shorter than that (Kafka's
        AcquiredRecords batching)."""
        out = []
        remaining_bytes, remaining_records = max_bytes, max_records
        committed = str(self.group_value(group_id, "share.isolation.level")).lower() == "read_committed"
        for topic_id, partition in wanted:
            r = PartitionRead(topic_id, partition)
            out.append(r)
            sp, t, plog, err = self.get(group_id, topic_id, partition)
            if err:
                r.error = err
                continue
            if sp is None:  # cluster mode: being loaded from the share coordinator
                continue
            if remaining_records <= 0 or remaining_bytes <= 0:
                continue
            sp.expire_locks(now)
            upper = plog.last_stable_offset if committed else plog.high_watermark
            try:
                got = self._acquire(sp, plog, member_id, upper, committed, remaining_bytes,
                                    remaining_records, now, record_limit, batch_size, r)
            except KafkaError as e:
                r.error = e.code
                continue
            remaining_records -= got
            if r.records:
                remaining_bytes -= len(r.records)
            self._saved(group_id, topic_id, partition, sp)
        self._arm()
        return out

    def _acquire(self, sp: SharePartition, plog, member_id: str, upper: int, committed: bool,
                 max_bytes: int, max_records: int, now: int, record_limit: bool, batch_size: int,
                 r: PartitionRead) -> int:
        """Read the log from the share partition's next fetch offset in chunks of at most
        ``READ_CHUNK`` bytes (a fetch stops at the first batch that fills it, so reading the
        whole ``max_bytes`` would mostly read batches only to drop them), acquire batch by
        batch from the batch headers alone, and answer the batches with acquired records as
        a slice of the log file (sent with sendfile, as a Fetch's; never read into Python
        nor re-encoded). The records acquired."""
        offset = sp.next_fetch_offset()
        pieces: list = []  # [region, start, length] of consecutive batches with acquired records
        taken = size = 0
        aborted = None
        while offset < upper and taken < max_records and size < max_bytes:
            rr = plog.read(offset, min(max_bytes - size, READ_CHUNK), min_one_batch=True, max_offset=upper)
            if not rr.regions:
                break
            if committed and aborted is None:
                aborted = plog.aborted_transactions(offset, upper)
            stop, before = True, offset  # no whole batch in the read: stop, not loop
            for region in rr.regions:
                for pos, h in region.headers():
                    stop = False
                    last = min(h.base_offset + h.last_offset_delta, upper - 1)
                    offset = last + 1
                    skip = h.is_control or (committed and h.is_transactional and any(
                        a.producer_id == h.producer_id and a.first_offset <= h.base_offset <= a.last_offset
                        for a in aborted))  # read_committed: an aborted transaction's records are archived
                    runs = sp.acquire(member_id, h.base_offset, last, now,
                                      max_records - taken if record_limit else None, skip=skip)
                    if runs:
                        _add_piece(pieces, region, pos, h.size)
                        size += h.size
                        for a, b, c in runs:
                            taken += b - a + 1
                            _report(r.acquired, a, b, c, batch_size)
                    if taken >= max_records or size >= max_bytes:
                        stop = True
                        break
                    if h.base_offset >= sp.end_offset and sp.in_flight() >= sp.max_in_flight:
                        stop = True  # the window is full and nothing past it can be acquired
                        break
                if stop:
                    break
            if stop or offset <= before:
                break
        if len(pieces) == 1:
            region, start, length = pieces[0]
            r.records = region.slice(start, length)
        elif pieces:
            r.records = b"".join(_bytes(region.slice(start, length)) for region, start, length in pieces)
        return taken

    # -- acknowledging ------------------------------------------------------------------------------
    def acknowledge(self, group_id: str, member_id: str, topic_id: bytes, partition: int, batches,
                    now: int) -> tuple[E, str | None]:
        sp, t, plog, err = self.get(group_id, topic_id, partition, create=False)
        if err:
            return err, None
        if sp is None:
            return E.INVALID_RECORD_STATE, "The share partition has no records in flight."
        sp.expire_locks(now)
        try:
            sp.acknowledge(member_id, batches, now)
        except AckError as e:
            return e.code, e.message
        for first, last, types in batches:  # per range, not per record (7,000 in a batch)
            if len(types) == 1:
                self.acknowledged[types[0]] += last - first + 1
            else:
                for kind in set(types):
                    self.acknowledged[kind] += types.count(kind)
        self._saved(group_id, topic_id, partition, sp)
        self._wake(t.name, partition)
        self._arm()
        return E.NONE, None

    def release_member(self, group_id: str, member_id: str, only=None) -> int:
        """The member's share session on this broker closed or was replaced (or it forgot the
        partitions in ``only``, {(topic id, partition)}): release what it holds there. Cluster
        mode: if that was the group's last session here, ``_group_emptied``."""
        n = self._release(group_id, member_id, only)
        if only is None and self.persister is not None and not self.sessions.has_group(group_id):
            self._group_emptied(group_id)
        return n

    def _group_emptied(self, group_id: str) -> None:
        """No member of the group has a session here: forget its share partitions (after their
        pending writes), so that the next use loads the state from the share coordinator.
        Changes held for the current request (``hold``) are scheduled first: the final
        ShareAcknowledge/ShareFetch that closed the last session carries acknowledgements
        that must be written, not forgotten with the share partition."""
        for key in [k for k in self.partitions if k[0] == group_id]:
            if self._held is not None and self._held.get(key) is self.partitions[key]:
                self._write(key, self._held.pop(key))
            w = self._writers.get(key)
            if w is not None and w.task is not None and w.sp is self.partitions[key]:
                w.drop_after = True  # _write_loop drops it once written
            else:
                self._drop(key)

    def _release(self, group_id: str, member_id: str, only) -> int:
        n = 0
        for (g, tid, p), sp in list(self.partitions.items()):
            if g == group_id and (only is None or (tid, p) in only):
                k = sp.release_member(member_id)
                if k:
                    n += k
                    self._saved(g, tid, p, sp)
                    t = self.topic_of(tid)
                    if t is not None:
                        self._wake(t.name, p)
        return n

    def connection_closed(self, connection) -> int:
        """A client connection closed: its share sessions are evicted and what their members
        hold here is released (Kafka's ShareSessionCache disconnect listener). The count."""
        return sum(self.release_member(s.group_id, s.member_id) for s in self.sessions.disconnected(connection))

    def member_removed(self, group_id: str, member_id: str) -> int:
        """The group coordinator fenced the member (its heartbeats stopped): its share session
        here closes and its records are released. The count."""
        self.sessions.close(group_id, member_id)
        n = self.release_member(group_id, member_id)
        if n:
            log.info("share group %s: member %s fenced, %d records released", group_id, member_id, n)
        return n

    # -- admin (DescribeShareGroupOffsets, DeleteShareGroupOffsets, DeleteGroups) ---------------------
    def keys_of(self, group_id: str, topic_ids=None) -> list[tuple[bytes, int]]:
        """The share partitions [(topic id, partition)] the admin APIs look at for the group: every
        partition of the topics ``topic_ids`` (16-byte ids); else on one broker those with state,
        and in a cluster every partition of every non-internal topic (the group coordinator does
        not track which ones were initialized, as Kafka's ShareGroupStatePartitionMetadata does;
        ``offsets`` then tells)."""
        if topic_ids is None and self.persister is None:
            keys = set(self.store.summary(group_id))
            keys |= {(t, p) for g, t, p in self.partitions if g == group_id}
            return sorted(keys)
        out = []
        for t in self.broker.metadata.topics.values():
            if (t.topic_id.bytes in topic_ids) if topic_ids is not None else not (
                    t.internal or t.name == SHARE_STATE_TOPIC):
                out += [(t.topic_id.bytes, p) for p in range(len(t.partitions))]
        return out

    async def offsets(self, group_id: str, keys) -> dict:
        """{(topic id, partition): (error, (start offset, delivery complete count) or None)} of
        ``keys`` from the durable state (in a cluster: from each key's share coordinator);
        UNKNOWN_TOPIC_OR_PARTITION: never initialized."""
        if self.persister is not None:
            return await self.persister.summaries(group_id, keys)
        out = {}
        for t, p in keys:
            e = self.store.entry(group_id, t, p)
            out[(bytes(t), p)] = (E.NONE, (e.start, e.complete_count())) if e is not None else \
                (E.UNKNOWN_TOPIC_OR_PARTITION, None)
        return out

    async def delete_states(self, group_id: str, keys) -> dict:
        """Forget the share partitions of ``keys`` here and delete their durable state (in a
        cluster: DeleteShareGroupState at each key's share coordinator): {key: error}. The
        group's next fetch starts them again by ``share.auto.offset.reset``."""
        for t, p in keys:
            self._drop((group_id, bytes(t), p))
        if self.persister is not None:
            return await self.persister.delete(group_id, keys)
        out = {}
        for t, p in keys:
            try:
                out[(bytes(t), p)] = await self.store.committed(self.store.delete(group_id, t, p))
            except KafkaError as e:
                out[(bytes(t), p)] = e.code
        return out

    def high_watermark(self, topic_id: bytes, partition: int) -> int | None:
        """The partition's high watermark as this broker's replica knows it (None: no replica here)."""
        t = self.topic_of(topic_id)
        plog = self.broker.get_log(t.name, partition) if t is not None else None
        return None if plog is None else plog.high_watermark

    def lag(self, group_id: str, topic_id: bytes, partition: int, start: int) -> int:
        """Records at or above the start offset, below the high watermark, not yet done."""
        t = self.topic_of(topic_id)
        plog = self.broker.get_log(t.name, partition) if t is not None else None
        if plog is None:
            return -1
        sp = self.partitions.get((group_id, bytes(topic_id), partition))
        if sp is None:
            done = 0
        else:
            counts = sp.counts()
            done = counts[ACKNOWLEDGED] + counts[ARCHIVED]
        return max(0, plog.high_watermark - start - done)

    def forget(self, group_id: str, topic_id: bytes, partition: int) -> None:
        """The durable state was changed by the share coordinator's APIs: reload it on next use."""
        self._drop((group_id, bytes(topic_id), partition))

    def reset(self, group_id: str, topic_id: bytes, partition: int, start_offset: int):
        """AlterShareGroupOffsets: the share partition starts over at ``start_offset``. Cluster
        mode: returns a coroutine (the error) that initializes the state at the share coordinator
        at the next state epoch; the partition's leader, wherever it is, is then fenced
        (FENCED_STATE_EPOCH) on its next write and loads the new state."""
        if self.persister is not None:
            key = (group_id, bytes(topic_id), partition)
            self._drop(key)
            return self._reset_at_coordinator(key, start_offset)
        sp = SharePartition(start_offset)
        sp.changed = True
        self.partitions[(group_id, bytes(topic_id), partition)] = sp
        self._saved(group_id, topic_id, partition, sp)

    async def _reset_at_coordinator(self, key, start_offset: int) -> E:
        code, payload = await self.persister.read(*key, -1)
        if code not in (E.NONE, E.UNKNOWN_TOPIC_OR_PARTITION):
            return code
        return await self.persister.initialize(*key, payload[0] + 1 if payload else 0, start_offset)

    def hold(self) -> None:
        """Until ``flush()``, changes only mark their share partitions: a request's
        acknowledgements, releases and acquisitions of one share partition become one state
        write (Kafka's persister writes once per request and share partition, not per batch)."""
        if self._held is None:
            self._held = {}

    def flush(self) -> None:
        """Write the share partitions changed since ``hold()`` (each once, its state as it is
        now); the single broker's writes are appended before this returns, the cluster's are
        scheduled (``pending``). A no-op when nothing is held."""
        held, self._held = self._held, None
        for key, sp in (held or {}).items():
            if self.partitions.get(key) is sp:  # not dropped or replaced meanwhile
                self._write(key, sp)

    def _saved(self, group_id, topic_id, partition, sp: SharePartition) -> None:
        if not sp.changed:
            return
        key = (group_id, bytes(topic_id), partition)
        if self._held is not None:
            self._held[key] = sp
            return
        self._write(key, sp)

    def _write(self, key, sp: SharePartition) -> None:
        if not sp.changed:
            return
        if self.persister is not None:
            sp.changed = False
            self._schedule_write(key, sp)
            return
        self.store.save(*key, sp.snapshot())

    def _wake(self, topic: str, partition: int) -> None:
        self.broker.purgatory.notify(share_key(topic, partition), 0)

    # -- lock timer -------------------------------------------------------------------------------
    def _arm(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        deadlines = [d for sp in self.partitions.values() if (d := sp.next_deadline()) is not None]
        if not deadlines:
            return
        delay = max(0.0, min((min(deadlines) - now_ms()) / 1000, MAX_TIMER_S))
        when = loop.time() + delay
        if self._handle is not None:
            if self._armed_at is not None and self._armed_at <= when:
                return
            self._handle.cancel()
        self._armed_at = when
        self._handle = loop.call_at(when, self._fire)

    def _fire(self) -> None:
        self._handle = self._armed_at = None
        now = now_ms()
        for (g, tid, p), sp in list(self.partitions.items()):
            if sp.expire_locks(now):
                self._saved(g, tid, p, sp)
                t = self.topic_of(tid)
                if t is not None:
                    self._wake(t.name, p)
        self._arm()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        for task in list(self._tasks):
            task.cancel()
        if self.persister is not None:
            self.persister.close()


class _Writer:
    """The writes of one share partition (cluster mode): ``wanted`` counts the changes
    scheduled, ``written`` the ones a committed write covered."""

    __slots__ = ("sp", "wanted", "written", "task", "error", "waiters", "drop_after")

    def __init__(self, sp: SharePartition) -> None:
        self.sp = sp
        self.drop_after = False  # forget the share partition once written (its group emptied here)
        self.wanted = self.written = 0
        self.task: asyncio.Task | None = None
        self.error = E.NONE
        self.waiters: list[tuple[int, asyncio.Future]] = []

    async def wait(self, gen: int) -> E:
        if self.written >= gen:
            return E.NONE
        if self.error:
            return self.error
        fut = asyncio.get_running_loop().create_future()
        self.waiters.append((gen, fut))
        return await fut

    def done(self, gen: int) -> None:
        self.written = gen
        keep = []
        for g, fut in self.waiters:
            if g <= gen:
                if not fut.done():
                    fut.set_result(E.NONE)
            else:
                keep.append((g, fut))
        self.waiters = keep

    def fail(self, code: E) -> None:
        self.error = code
        for _, fut in self.waiters:
            if not fut.done():
                fut.set_result(code)
        self.waiters = []
