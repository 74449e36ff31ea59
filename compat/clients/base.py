"""What every Python-driven client facade offers, and the values they pass around.

A facade (one module per client in this package) does a handful of broker
operations with its library's own public API and nothing else: no scenario
logic lives in a facade, and no facade looks at another library. The
scenarios in ``compat/scenarios.py`` are written once against this interface.

Every operation is bounded: library timeouts are set to ``OP_TIMEOUT`` seconds
and read loops stop at a deadline, so a broker that does not answer turns into
an exception naming the operation, well inside the runner's per-scenario limit.

An operation a client does not have raises ``NotApplicable``; the runner files
the cell as N/A with that reason.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Callable, Iterable

OP_TIMEOUT = 15.0


def replication_factor() -> int:
    """The replication factor scenarios create topics with: ``$COMPAT_REPLICATION_FACTOR``
    (set by ``python -m compat --cluster N`` to min(3, N)), else 1."""
    return int(os.environ.get("COMPAT_REPLICATION_FACTOR") or 1)

Headers = tuple[tuple[str, bytes | None], ...]


class NotApplicable(Exception):
    """The client has no way to do this (e.g. kcat and DeleteRecords)."""


class Skipped(Exception):
    """Something this machine lacks (a codec library, a binary): the cell is SKIP."""


@dataclass(frozen=True)
class Msg:
    """A record to produce; ``partition=None`` leaves it to the partitioner."""

    key: bytes | None
    value: bytes | None
    headers: Headers = ()
    timestamp: int | None = None
    partition: int | None = None


@dataclass(frozen=True)
class Rec:
    """A record as a consumer saw it."""

    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    headers: Headers
    timestamp: int


@dataclass(frozen=True)
class Delivery:
    """What the producer was told about one record.

    ``offset`` is ``None`` when the client does not learn it (acks=0, kcat).
    ``error`` is the library's error rendered as text; ``too_large`` says whether
    that error is the library's own MESSAGE_TOO_LARGE type.
    """

    partition: int | None
    offset: int | None
    error: str | None = None
    too_large: bool = False


@dataclass(frozen=True)
class ErrorSeen:
    """An error as the client reported it.

    ``code`` is Kafka's numeric error code when the client gives one (3 for
    UNKNOWN_TOPIC_OR_PARTITION, 38 for INVALID_REPLICATION_FACTOR), else None;
    ``text`` is the library's own rendering; ``timeout`` says that the client
    only gave up waiting (e.g. for metadata of the topic it was asked about).
    """

    code: int | None
    text: str
    timeout: bool = False


@dataclass(frozen=True)
class ConfigEntry:
    value: str | None
    source: str        # Kafka's ConfigSource name, e.g. DYNAMIC_TOPIC_CONFIG, DEFAULT_CONFIG


# Kafka's DescribeConfigs ConfigSource codes (DescribeConfigsResponse v1+).
CONFIG_SOURCES = {0: "UNKNOWN", 1: "DYNAMIC_TOPIC_CONFIG", 2: "DYNAMIC_BROKER_CONFIG",
                  3: "DYNAMIC_DEFAULT_BROKER_CONFIG", 4: "STATIC_BROKER_CONFIG", 5: "DEFAULT_CONFIG",
                  6: "DYNAMIC_BROKER_LOGGER_CONFIG", 7: "CLIENT_METRICS_CONFIG", 8: "GROUP_CONFIG"}


@dataclass(frozen=True)
class Caps:
    """What a client's producer can express, so scenarios build records it can send."""

    binary: bool = True          # arbitrary bytes in keys, values and header values
    timestamps: bool = True      # caller-chosen record timestamps
    null_values: bool = True     # tombstones
    offsets_known: bool = True   # the producer reports offsets (acks >= 1)
    commit_metadata: bool = True  # commits carry a metadata string, read back through admin


class Client:
    """The interface; see the module docstring."""

    name = "?"
    caps = Caps()

    def __init__(self, bootstrap: str) -> None:
        self.bootstrap = bootstrap

    def version(self) -> str:
        raise NotImplementedError

    def codec_missing(self, codec: str) -> str | None:
        """Why the client cannot use ``codec`` here, or None."""
        return None

    # -- topics ---------------------------------------------------------------------
    def create_topic(self, topic: str, partitions: int, configs: dict[str, str] | None = None) -> None:
        """CreateTopics with ``replication_factor()`` replicas."""
        raise NotImplementedError

    def delete_topics(self, topics: list[str]) -> None:
        raise NotImplementedError

    def partition_leaders(self, topic: str) -> dict[int, int]:
        """Metadata: partition -> leader broker id."""
        raise NotImplementedError

    # -- produce / fetch -------------------------------------------------------------
    def produce(self, topic: str, msgs: list[Msg], *, compression: str = "none",
                acks: str = "all") -> list[Delivery]:
        """Send ``msgs`` with one producer, in order; one ``Delivery`` per message."""
        raise NotImplementedError

    def fetch(self, topic: str, starts: dict[int, int | str], count: int,
              timeout: float = OP_TIMEOUT, *, max_partition_fetch_bytes: int | None = None) -> list[Rec]:
        """assign() + seek to ``starts`` (an offset or "earliest"), read until ``count`` records.
        ``max_partition_fetch_bytes`` sets the consumer's per-partition fetch size (else the
        client's default)."""
        raise NotImplementedError

    def read_from_end(self, topic: str, partitions: list[int], produce: Callable[[], None], count: int,
                      timeout: float = OP_TIMEOUT) -> tuple[dict[int, int], list[Rec]]:
        """One consumer: assign() ``partitions``, seek them to the end (seek_to_end, OFFSET_END,
        ``-o end``) and wait until it knows its position there; then call ``produce`` and read
        until ``count`` records arrived. Returns the positions (partition -> offset) it had
        before ``produce`` and every record it read."""
        raise NotImplementedError

    def read_from_timestamp(self, topic: str, partitions: list[int], timestamp: int, count: int,
                            timeout: float = OP_TIMEOUT) -> tuple[dict[int, int | None], list[Rec]]:
        """One consumer: offsets_for_times(``timestamp``) for ``partitions``, assign() them and
        seek each to the offset found (to the end where none is: no record that late), read
        until ``count`` records. Returns the offsets the lookup gave (None: none found; an
        empty dict when the client does not show them) and every record it read."""
        raise NotImplementedError

    def list_offsets(self, topic: str, partitions: Iterable[int], spec: str | int) -> dict[int, int | None]:
        """Through the consumer API: "earliest", "latest" or a timestamp in ms (None: no such offset)."""
        raise NotImplementedError

    def max_timestamp_offset(self, topic: str, partition: int) -> tuple[int, int]:
        """Admin ListOffsets with the max-timestamp spec: (offset, timestamp)."""
        raise NotApplicable(f"{self.name} has no call for ListOffsets max timestamp")

    # -- groups ------------------------------------------------------------------------
    def group_read(self, topic: str, group: str, count: int, *, metadata: str,
                   timeout: float = 45.0) -> list[Rec]:
        """subscribe() in ``group``, process ``count`` records, commit what was processed
        (next offset per partition, with ``metadata``) synchronously, leave the group."""
        raise NotImplementedError

    def committed(self, group: str, topic: str) -> dict[int, tuple[int, str]]:
        """The group's committed (offset, metadata) per partition of ``topic``."""
        raise NotImplementedError

    def delete_group(self, group: str) -> None:
        raise NotImplementedError

    # -- admin -------------------------------------------------------------------------
    def describe_configs(self, topic: str) -> dict[str, ConfigEntry]:
        raise NotImplementedError

    def delete_records(self, topic: str, before: dict[int, int]) -> dict[int, int]:
        """DeleteRecords; returns the new low watermark per partition."""
        raise NotImplementedError

    def create_partitions(self, topic: str, total: int) -> None:
        raise NotImplementedError

    def alter_topic_configs(self, topic: str, set_: dict[str, str], delete: list[str]) -> None:
        """IncrementalAlterConfigs SET ``set_`` and DELETE ``delete`` (AlterConfigs with the
        resulting full set of overrides where that is all the client has)."""
        raise NotImplementedError

    def broker_ids(self) -> list[int]:
        """The brokers the cluster metadata lists."""
        raise NotImplementedError

    def broker_config(self, broker_id: int, key: str) -> str | None:
        """DescribeConfigs on a BROKER resource: the value of ``key``."""
        raise NotImplementedError

    def create_topic_error(self, topic: str, partitions: int, replication_factor: int) -> ErrorSeen | None:
        """CreateTopics that is expected to fail: the error the client reports (None: created)."""
        raise NotImplementedError

    # -- topics that should not exist ----------------------------------------------
    def list_topics(self) -> set[str]:
        """Metadata for all topics (a request that never creates one)."""
        raise NotImplementedError

    def missing_topic_error(self, topic: str) -> ErrorSeen | None:
        """Metadata for ``topic`` with auto-creation not allowed (allow_auto_topic_creation
        false, Metadata v4+): the error reported for the topic, None when it is listed."""
        raise NotImplementedError

    def produce_to_missing(self, topic: str, msg: Msg) -> ErrorSeen | None:
        """Produce one record to a topic that should not exist, the client's wait for its
        metadata bounded to a few seconds: the error reported (None: the record was written)."""
        raise NotImplementedError

    # -- idempotence, groups -----------------------------------------------------------
    def produce_idempotent(self, topic: str, batches: list[list[Msg]]) -> tuple[list[Delivery], int | None]:
        """One producer with enable.idempotence=true and acks=all sends each batch and
        flushes before the next. Returns a ``Delivery`` per record (batches in order) and
        the producer id the client shows, or None when it does not expose one."""
        raise NotImplementedError

    def group_member(self, topic: str, group: str) -> GroupMember:
        """A started ``GroupMember`` subscribed to ``topic`` in ``group``."""
        raise NotImplementedError


class GroupMember:
    """One consumer of a group, polling in a thread of its own until ``close()``.

    After each poll that returned records it commits their next offsets
    synchronously, before it polls again (where an eager rebalance happens), so
    a partition that moves to another member resumes where this one stopped.
    ``assignment()`` is what the consumer last said it owns (empty while a
    rebalance is under way), ``records()`` what it has consumed so far. An
    exception in the thread ends it; ``error`` keeps it and ``close()`` raises it.

    Subclasses implement ``_open``, ``_poll`` (about 200 ms), ``_assignment``,
    ``_commit`` and ``_close`` (leave the group), all called from the thread; or
    override ``_run`` when the library needs its own loop (aiokafka, kcat).
    """

    def __init__(self, topic: str, group: str) -> None:
        self.topic = topic
        self.group = group
        self.error: BaseException | None = None
        self._recs: list[Rec] = []
        self._assigned: frozenset[int] = frozenset()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._guarded, name=f"member-{group}", daemon=True)

    def start(self) -> GroupMember:
        self._thread.start()
        return self

    def assignment(self) -> frozenset[int]:
        with self._lock:
            return self._assigned

    def records(self) -> list[Rec]:
        with self._lock:
            return list(self._recs)

    def close(self, timeout: float = OP_TIMEOUT + 5) -> None:
        self._stop.set()
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError(f"group member of {self.group} did not close within {timeout:.0f}s")
        if self.error is not None:
            raise self.error

    def _got(self, recs: list[Rec] = (), assigned: Iterable[int] | None = None) -> None:
        with self._lock:
            self._recs.extend(recs)
            if assigned is not None:
                self._assigned = frozenset(assigned)

    def _guarded(self) -> None:
        try:
            self._run()
        except BaseException as e:  # noqa: BLE001 - kept for close() and the scenario
            self.error = e

    def _run(self) -> None:
        self._open()
        try:
            while not self._stop.is_set():
                recs = self._poll()
                if recs:
                    self._commit(recs)
                self._got(recs, self._assignment())
        finally:
            self._close()

    @staticmethod
    def next_offsets(recs: list[Rec]) -> dict[int, int]:
        nxt: dict[int, int] = {}
        for r in recs:
            nxt[r.partition] = max(nxt.get(r.partition, 0), r.offset + 1)
        return nxt

    def _open(self) -> None:
        raise NotImplementedError

    def _poll(self) -> list[Rec]:
        raise NotImplementedError

    def _assignment(self) -> Iterable[int]:
        raise NotImplementedError

    def _commit(self, recs: list[Rec]) -> None:
        raise NotImplementedError

    def _close(self) -> None:
        raise NotImplementedError


def norm_headers(hs) -> Headers:
    out = []
    for k, v in hs or ():
        out.append((k if isinstance(k, str) else bytes(k).decode("utf-8"),
                    None if v is None else bytes(v)))
    return tuple(out)
