"""Where the registry keeps its records: the compacted topic ``_schemas`` (``KafkaStore``).

The registry is a Kafka client of its own broker, like Confluent's registry:
``KafkaStore`` talks to the broker's listener with ``kwire.client.KafkaClient``
(no broker internals, so the same code serves one broker and a cluster, and
``_schemas`` replicates like any topic). On first use it creates ``_schemas``
(one partition, ``cleanup.policy=compact``, the replication factor of the
internal topics, ``offsets.topic.replication.factor``, as Confluent's
``kafkastore.topic.replication.factor`` defaults to 3; a cluster still short
of brokers is retried) and starts a reader thread that fetches the partition from
offset 0 and replays every record into ``RegistryState``, then follows it.

* ``append(records)`` produces one batch with acks=all to this broker alone
  (the bootstrap connection, never routed to another leader: a broker that
  no longer leads ``_schemas-0`` answers NOT_LEADER, and an old leader cut
  off from its followers cannot commit) and returns once the reader, which
  reads only up to the high watermark, has replayed up to its last offset:
  the caller then sees its own write, as applied in log order (another
  writer's conflicting record that landed first wins, see
  ``kwire.registry.state``), and a write is acknowledged only once committed
  (a restart rebuilds exactly what was acknowledged).
* ``sync()`` brings the state to the end of the log before a writer plans:
  on a broker that has just become the primary (a leader epoch of
  ``_schemas-0`` it has not written in yet) by appending a NOOP record and
  replaying up to it, as Confluent's registry does, so records the new
  leader inherited above its high watermark are applied too; otherwise up to
  the partition's end (ListOffsets latest). Then it appends the repairs of
  records that lost a conflict (``RegistryState.repairs``).
* ``lock`` serializes writers; ``read_lock`` is held by the reader while it
  replays a fetched batch and by HTTP threads while they read the state.

``MemoryStore`` is the same interface on a list, for unit tests of the
state machine. What neither does: transactions (a write of several records is
one batch, so it is appended whole or not at all).
"""

from __future__ import annotations

import json
import logging
import threading
import time

from kwire.clock import sleep
from kwire.client import LATEST_TIMESTAMP, KafkaClient, KafkaClientError, NewTopic
from kwire.protocol.errors import ErrorCode
from kwire.records.builder import build_batch
from kwire.records.decode import decode_batches
from kwire.registry import errors
from kwire.registry.state import RegistryState

log = logging.getLogger("kwire.registry")

TOPIC = "_schemas"
TIMEOUT_S = 30.0


def _encode(obj) -> bytes | None:
    return None if obj is None else json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


class MemoryStore:
    def __init__(self) -> None:
        self.state = RegistryState()
        self.lock = threading.RLock()
        self.read_lock = threading.RLock()
        self.log: list[tuple[bytes, bytes | None]] = []

    def writer_url(self) -> None:
        return None  # one process: always the writer

    def sync(self) -> None:
        pass

    def append(self, records) -> None:
        for key, value in records:
            self.log.append((_encode(key), _encode(value)))
            self.state.replay(key, value)
            self.state.offset += 1


class KafkaStore:
    def __init__(self, bootstrap, topic: str = TOPIC, node_id: int | None = None, url=None,
                 replication_factor: int | None = None) -> None:
        self._bootstrap = bootstrap  # "host:port" or a callable giving it once the broker is bound
        self.topic = topic
        self.node_id = node_id  # cluster mode: this broker's id; None: a single broker, always the writer
        self._url = url  # callable: this registry's URL, advertised to the others in _schemas
        self.replication_factor = replication_factor  # None: min(3, brokers)
        self.state = RegistryState()
        self.lock = threading.RLock()
        self.read_lock = threading.RLock()
        self._progress = threading.Condition()
        self._writer: KafkaClient | None = None
        self._local: KafkaClient | None = None  # to this broker only: its metadata, the primary's appends
        self._synced_epoch: int | None = None  # the leader epoch of _schemas-0 of this primary's last barrier
        self.barriers = 0  # NOOP barriers appended (tests, figures)
        self._reader_thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._stop = threading.Event()
        self.error: str | None = None  # the reader's last failure, for 50001 answers
        self.loaded = False  # the reader has once reached the end of the topic
        self._starting = False

    def _bs(self) -> str:
        return self._bootstrap() if callable(self._bootstrap) else self._bootstrap

    # -- start-up ----------------------------------------------------------------------------
    def start(self) -> None:
        """Create the topic if needed and start the reader (idempotent; called on first use)."""
        if self._reader_thread is not None:
            return
        with self._start_lock:
            if self._reader_thread is not None:
                return
            with KafkaClient(self._bs(), client_id="kwire-schema-registry", timeout=TIMEOUT_S) as c:
                self._ensure_topic(c)
            t = threading.Thread(target=self._read_loop, name="kwire-registry-reader", daemon=True)
            t.start()
            self._reader_thread = t

    def _advertise(self) -> None:
        """Cluster mode: tell the other brokers where writes forwarded to this one go."""
        if self.node_id is None or self._url is None:
            return
        with self.lock:
            self.sync()
            url = self._url()
            if self.state.members.get(self.node_id) != url:
                # from any broker, routed to the leader (harmless beside a primary's records)
                self._produce([({"keytype": "KWIRE_MEMBER", "broker": self.node_id, "magic": 0}, {"url": url})],
                              to_bootstrap=False)

    def _ensure_topic(self, c: KafkaClient) -> None:
        info = c.metadata([self.topic])
        t = info.topics.get(self.topic)
        if t is not None and t.error_code == 0:
            return
        rf = self.replication_factor or min(3, max(1, len(info.brokers)))
        try:
            c.create_topics([NewTopic(self.topic, 1, rf, {"cleanup.policy": "compact"})])
        except KafkaClientError as e:
            if e.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                raise
        deadline = time.monotonic() + TIMEOUT_S
        while time.monotonic() < deadline:  # until a leader is known
            t = c.metadata([self.topic]).topics.get(self.topic)
            if t is not None and t.error_code == 0 and t.partitions.get(0) and t.partitions[0].leader >= 0:
                return
            sleep(0.05)
        raise errors.store_error(f"the topic {self.topic} has no leader")

    def close(self) -> None:
        self._stop.set()
        if self._reader_thread is not None:
            self._reader_thread.join(5)
        with self.lock:
            self._drop_clients()

    # -- the reader --------------------------------------------------------------------------
    def _read_loop(self) -> None:
        client: KafkaClient | None = None
        while not self._stop.is_set():
            try:
                if client is None:
                    client = KafkaClient(self._bs(), client_id="kwire-schema-registry-reader", timeout=TIMEOUT_S)
                got = client.fetch_many(self.topic, {0: self.state.offset}, max_wait_ms=200)[0]
                self._apply(got.records, got.log_start_offset)
                if self.state.offset >= got.high_watermark:
                    self.loaded = True
                self.error = None
            except KafkaClientError as e:
                if e.code == ErrorCode.OFFSET_OUT_OF_RANGE:
                    with self._progress:
                        start, _ = client.list_offsets(self.topic, 0, -2)
                        self.state.offset = max(self.state.offset, start)
                    continue
                self.error = str(e)
                log.debug("schema registry reader: %s", e)
                if client is not None:
                    client.close()
                    client = None
                self._stop.wait(0.2)
            except Exception as e:  # a bug or a corrupt record: keep the registry visible about it
                self.error = f"{type(e).__name__}: {e}"
                log.exception("schema registry reader failed")
                self._stop.wait(1.0)
        if client is not None:
            client.close()

    def _apply(self, data: bytes, log_start: int) -> None:
        if not data:
            return
        batches = decode_batches(data, allow_truncated=True)
        with self.read_lock:
            for b in batches:
                if b.header.last_offset < self.state.offset:
                    continue
                if not b.header.is_control:
                    for r in b.records:
                        if r.offset < self.state.offset or r.key is None:
                            continue
                        try:
                            key = json.loads(r.key)
                            value = json.loads(r.value) if r.value is not None else None
                        except ValueError:
                            log.warning("skipping a %s record that is not JSON at offset %d", self.topic, r.offset)
                            continue
                        if isinstance(key, dict):
                            self.state.replay(key, value if isinstance(value, dict) else None)
                with self._progress:
                    self.state.offset = b.header.last_offset + 1
                    self._progress.notify_all()

    def _wait_for(self, offset: int) -> None:
        deadline = time.monotonic() + TIMEOUT_S
        with self._progress:
            while self.state.offset < offset:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise errors.operation_timeout(
                        f"the registry has read {self.state.offset} of {offset} records of {self.topic}"
                        + (f" ({self.error})" if self.error else ""))
                self._progress.wait(min(left, 0.5))

    # -- writers -----------------------------------------------------------------------------
    def _client(self) -> KafkaClient:
        if self._writer is None:
            self._writer = KafkaClient(self._bs(), client_id="kwire-schema-registry", timeout=TIMEOUT_S)
        return self._writer

    def _local_client(self) -> KafkaClient:
        if self._local is None:
            self._local = KafkaClient(self._bs(), client_id="kwire-schema-registry-primary", timeout=TIMEOUT_S)
        return self._local

    def _drop_clients(self) -> None:
        for c in (self._writer, self._local):
            if c is not None:
                c.close()
        self._writer = self._local = None

    def _call(self, fn):
        self.start()
        with self.lock:  # the clients are not thread-safe: one request at a time
            return self._call_locked(fn)

    def _call_locked(self, fn):
        try:
            return fn(self._client())
        except KafkaClientError as e:
            self._drop_clients()
            raise errors.store_error(f"Error while writing to {self.topic}: {e}") from None

    def _own_partition(self):
        """_schemas-0 as this broker's own metadata describes it."""
        return self._call(lambda _c: self._local_client().topic(self.topic).partitions[0])

    def writer_url(self) -> str | None:
        """None when this broker writes (it leads partition 0 of the topic, or is alone); else the
        registry URL of the broker that does (50004 when it is not known)."""
        if self.node_id is None:
            return None
        leader = self._own_partition().leader
        if leader == self.node_id:
            return None
        url = self.state.members.get(leader)
        if leader < 0 or url is None:
            raise errors.unknown_leader(f"the schema registry's primary (the leader of {self.topic}-0, "
                                        f"broker {leader}) is not known")
        return url

    def sync(self) -> None:
        with self.lock:
            p = self._own_partition() if self.node_id is not None else None
            primary = p is None or p.leader == self.node_id
            if p is not None and primary and p.leader_epoch != self._synced_epoch:
                # a new primary: everything its log holds, committed or not yet, comes before
                # its first write (the NOOP's offset is past all of it)
                self._produce([({"keytype": "NOOP", "magic": 0}, None)])
                self._synced_epoch = p.leader_epoch
                self.barriers += 1
            else:
                end, _ = self._call(lambda c: c.list_offsets(self.topic, 0, LATEST_TIMESTAMP))
                self._wait_for(end)
            with self.read_lock:  # the reader changes the state meanwhile
                repairs = self.state.repairs() if primary else []
            if repairs:
                log.warning("schema registry: repairing %d %s record(s) that lost to another writer's",
                            len(repairs), self.topic)
                self._produce(repairs)

    def _produce(self, records, to_bootstrap: bool = True) -> int:
        batch = build_batch([(_encode(k), _encode(v)) for k, v in records])

        def produce(c: KafkaClient) -> int:
            if to_bootstrap:
                c = self._local_client()
            return c.produce(self.topic, 0, batch, acks=-1, to_bootstrap=to_bootstrap)

        expected = self.state.offset
        base = self._call(produce)
        self._wait_for(base + len(records))
        if base != expected:
            log.debug("schema registry: appended at %d, planned at %d (records of another writer between)",
                      base, expected)
        return base

    def wait_ready(self) -> None:
        """Readers: the first request waits until the topic has been replayed once."""
        if self._reader_thread is None:
            with self.lock:
                self.sync()

    def known_id(self, schema_id: int) -> bool | None:
        """Produce validation (on the event loop: never blocks): True / False, or None while the
        registry has not read ``_schemas`` to its end yet (it is started in the background on
        the first call; the caller answers a retriable error meanwhile)."""
        if schema_id in self.state.schemas:
            return True
        if self.loaded:
            return False
        if not self._starting:
            self._starting = True
            self.start_in_background()
        return None

    def start_in_background(self) -> None:
        """Start, retrying while the broker (or its cluster) is still coming up."""
        def run() -> None:
            while not self._stop.is_set():
                try:
                    self.start()
                    self._advertise()
                    return
                except Exception as e:
                    log.debug("schema registry not started yet: %s", e)
                    self._stop.wait(0.5)

        threading.Thread(target=run, name="kwire-registry-start", daemon=True).start()

    def append(self, records) -> None:
        """The primary's write (through this broker alone)."""
        self._produce(records)
