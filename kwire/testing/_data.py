"""Topic and record helpers shared by ``Broker``, ``Cluster`` and the topic-prefixed view.

Each call opens a short-lived ``kwire.client.KafkaClient`` to ``self.bootstrap``
(connect + ApiVersions, about a millisecond on loopback), so the helpers keep
working across ``restart()`` and never hold a connection a test did not ask
for. They are conveniences for setting up and checking a test's data; the code
under test uses its own Kafka client.

What they do not do: consumer groups, transactions, idempotent producing,
compression (records go out as one uncompressed batch per partition).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ConsumedRecord", "DataOps"]


@dataclass(frozen=True)
class ConsumedRecord:
    """One record as ``consume`` returns it (key and value are bytes or None)."""

    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes | None]] = field(default_factory=list)
    timestamp: int = -1

    @property
    def text(self) -> str | None:
        """The value decoded as UTF-8 (None for a null value)."""
        return None if self.value is None else self.value.decode()


def _bytes(v: Any) -> bytes | None:
    if v is None or isinstance(v, bytes):
        return v
    if isinstance(v, (bytearray, memoryview)):
        return bytes(v)
    if isinstance(v, str):
        return v.encode()
    raise TypeError(f"record keys and values are bytes, str or None, not {type(v).__name__}")


def _record(item: Any, key: Any, headers: Any) -> tuple[bytes | None, bytes | None, list]:
    """A value, ``(key, value)`` or ``(key, value, headers)`` -> (key, value, headers)."""
    if isinstance(item, tuple):
        if len(item) == 2:
            k, v, h = item[0], item[1], headers
        elif len(item) == 3:
            k, v, h = item
        else:
            raise ValueError(f"a record is a value, (key, value) or (key, value, headers), not {item!r}")
    else:
        k, v, h = key, item, headers
    if isinstance(h, dict):
        h = list(h.items())
    return _bytes(k), _bytes(v), [(str(hk), _bytes(hv)) for hk, hv in (h or ())]


class DataOps:
    """Mixin: needs ``bootstrap`` (str) and ``topic(name) -> str`` (the real topic name)."""

    bootstrap: str
    client_timeout: float = 30.0

    def topic(self, name: str) -> str:
        return name

    def client(self, timeout: float | None = None):
        """A new ``kwire.client.KafkaClient`` for this broker (close it, or use ``with``)."""
        from kwire.client import KafkaClient

        return KafkaClient(self.bootstrap, client_id="kwire-testing",
                           timeout=self.client_timeout if timeout is None else timeout)

    # -- topics
    def create_topic(self, name: str, partitions: int = 1, replication_factor: int = -1,
                     configs: dict[str, Any] | None = None, **config_kw: Any) -> str:
        """Create a topic (``configs`` or keywords with ``_`` for ``.``); returns its real name."""
        from kwire.client import NewTopic

        real = self.topic(name)
        cfg = {k: str(v) for k, v in (configs or {}).items()}
        cfg.update({k.replace("_", "."): str(v) for k, v in config_kw.items()})
        with self.client() as c:
            c.create_topics([NewTopic(real, num_partitions=partitions,
                                      replication_factor=replication_factor, configs=cfg)])
            self._wait_for_leaders(c, real, partitions)
        return real

    def _wait_for_leaders(self, c, real: str, partitions: int, timeout: float = 30.0) -> None:
        from kwire.client import KafkaClientError

        deadline = time.monotonic() + timeout
        while True:
            try:
                info = c.topic(real)
                if len(info.partitions) >= partitions and all(
                        p.leader >= 0 for p in info.partitions.values()):
                    return
            except KafkaClientError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"topic {real!r}: not every partition has a leader after {timeout:.0f} s")
            time.sleep(0.02)

    def delete_topic(self, name: str) -> None:
        with self.client() as c:
            c.delete_topics([self.topic(name)])

    def topics(self) -> list[str]:
        """Names of the topics that exist (internal ones left out)."""
        with self.client() as c:
            md = c.metadata(None)
        return sorted(n for n, t in md.topics.items() if not t.is_internal and not t.error_code)

    def partitions(self, name: str) -> int:
        with self.client() as c:
            return len(c.topic(self.topic(name)).partitions)

    # -- records
    def produce(self, topic: str, records: Any, *, key: Any = None, partition: int | None = None,
                headers: Any = None, acks: int = -1) -> list[int]:
        """Append records, wait for ``acks``; returns each record's offset, in order.

        ``records`` is one record or a list of them; a record is a value (bytes, str
        or None), a ``(key, value)`` or a ``(key, value, headers)`` tuple (headers a
        dict or a list of pairs); ``key``/``headers`` apply to bare values.
        Partition: ``partition`` if given, else Kafka's default partitioner for keyed
        records (murmur2, as the Java producer), partition 0 for records without a key.
        A missing topic is auto-created when the broker allows it (as producers do).
        """
        from kwire.records.builder import build_batch
        from kwire.tools.produce import murmur2

        real = self.topic(topic)
        items = list(records) if isinstance(records, list) else [records]
        parsed = [_record(i, key, headers) for i in items]
        if not parsed:
            return []
        with self.client() as c:
            n = len(c.topic(real, allow_auto_topic_creation=True).partitions)
            if n == 0:
                self._wait_for_leaders(c, real, 1)
                n = len(c.topic(real).partitions)
            by_part: dict[int, list[int]] = {}
            for idx, (k, _, _) in enumerate(parsed):
                p = partition if partition is not None else (
                    (murmur2(k) & 0x7FFFFFFF) % n if k is not None else 0)
                by_part.setdefault(p, []).append(idx)
            batches = {p: build_batch([parsed[i] for i in idxs]) for p, idxs in by_part.items()}
            bases = c.produce_batches(real, batches, acks=acks)
        offsets = [-1] * len(parsed)
        for p, idxs in by_part.items():
            base = bases[p]
            for j, i in enumerate(idxs):
                offsets[i] = -1 if base is None else base + j
        return offsets

    def consume(self, topic: str, *, partition: int | None = None, offset: int = 0,
                count: int | None = None, timeout: float = 10.0) -> list[ConsumedRecord]:
        """Records of ``topic`` (every partition, or ``partition``) from ``offset`` on
        (or from the log start offset, when retention removed ``offset``).

        Without ``count``: what the topic holds now (up to each partition's high
        watermark at the call). With ``count``: waits up to ``timeout`` seconds
        until that many records are there and returns the first ``count``
        (``TimeoutError`` with what did arrive otherwise). Ordered by partition,
        then offset.
        """
        from kwire.client import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP
        from kwire.records.decode import decode_batches

        real = self.topic(topic)
        deadline = time.monotonic() + timeout
        got: dict[int, list[ConsumedRecord]] = {}
        with self.client() as c:
            parts = [partition] if partition is not None else sorted(c.topic(real).partitions)
            starts = c.list_offsets_many(real, dict.fromkeys(parts, EARLIEST_TIMESTAMP))
            positions = {p: max(offset, starts[p][0]) for p in parts}  # retention may have moved it
            if count is None:
                ends = {p: o for p, (o, _) in c.list_offsets_many(
                    real, dict.fromkeys(parts, LATEST_TIMESTAMP)).items()}
                positions = {p: o for p, o in positions.items() if o < ends[p]}
            while True:
                total = sum(len(v) for v in got.values())
                if count is not None and total >= count:
                    break
                if not positions:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    if count is None:
                        break
                    raise TimeoutError(f"{real}: {total} of {count} records after {timeout:g} s: "
                                       f"{_flatten(got)!r}")
                wait_ms = 0 if count is None else max(0, min(200, int(left * 1000)))
                fetched = c.fetch_many(real, positions, max_wait_ms=wait_ms)
                for p, fp in fetched.items():
                    for b in decode_batches(fp.records, allow_truncated=True):
                        h = b.header
                        if not h.is_control:
                            for r in b.records:
                                if r.offset >= positions[p]:
                                    got.setdefault(p, []).append(ConsumedRecord(
                                        real, p, r.offset, r.key, r.value, list(r.headers), r.timestamp))
                        positions[p] = max(positions[p], h.base_offset + h.last_offset_delta + 1)
                    if count is None and positions[p] >= ends[p]:
                        del positions[p]
        out = _flatten(got)
        return out if count is None else out[:count]


def _flatten(got: dict[int, list[ConsumedRecord]]) -> list[ConsumedRecord]:
    return [r for p in sorted(got) for r in got[p]]
