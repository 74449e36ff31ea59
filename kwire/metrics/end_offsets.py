"""``RemoteEndOffsets``: high watermarks of partitions that other brokers lead, for consumer lag.

A group's coordinator exports ``kafka_consumergroup_lag`` for every partition
the group committed an offset for, but only a partition's leader knows its
high watermark. For a partition led elsewhere the collector asks the leader:
one ListOffsets (timestamp -1, read_uncommitted: answered with the high
watermark, as kafka_exporter asks) per leader broker, over ``kwire.client``'s
blocking sockets, in the scrape thread. Never on the event loop: the loop's
state is only read (leaders and endpoints from the metadata image).

Bounded, so a scrape stays cheap and cannot hang on a dead broker:

* answers are cached for ``CACHE_S`` (scrapers polling faster than that, or
  several of them, cost one request per leader per ``CACHE_S``);
* each request waits at most ``TIMEOUT_S`` (twice that when a kept
  connection turned out dead: ``kwire.client`` resends once on a fresh one);
  a leader that failed (down, paused, refusing) is not asked again for
  ``BACKOFF_S`` (its partitions have no lag series meanwhile, and the failure
  is logged once, not per scrape). Measured: a scrape that met a paused
  leader took 4.1 s, the ones around it 0.02 s;
* no more leaders are asked once a scrape has spent ``BUDGET_S`` here.

One connection per leader is kept between scrapes (re-opened when the
leader's endpoint changes) and closed by ``close()``.

It connects to the leader's endpoint of the inter-broker listener with that
listener's TLS and SASL (``kwire.security.inter_broker``), as the replica
fetchers do. Not here: read_committed lag (the last stable offset).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Iterable

from kwire.security import inter_broker

log = logging.getLogger("kwire.metrics")

CACHE_S = 2.0
TIMEOUT_S = 2.0
BACKOFF_S = 10.0
BUDGET_S = 5.0

API_LIST_OFFSETS = 2


class RemoteEndOffsets:
    def __init__(self, broker, cache_s: float = CACHE_S, timeout_s: float = TIMEOUT_S,
                 backoff_s: float = BACKOFF_S, budget_s: float = BUDGET_S) -> None:
        self.broker = broker
        self.cache_s, self.timeout_s, self.backoff_s, self.budget_s = cache_s, timeout_s, backoff_s, budget_s
        self._lock = threading.Lock()  # scrapes are serialized already; close() may come from another thread
        self._clients: dict[int, tuple[tuple[str, int], object]] = {}  # leader -> (endpoint, KafkaClient)
        self._cache: dict[tuple[str, int], tuple[float, int]] = {}  # (topic, p) -> (when, high watermark)
        self._failed_until: dict[int, float] = {}  # leader -> monotonic time it may be asked again
        self.requests = 0  # ListOffsets sent (tests read it to see the cache work)

    def high_watermarks(self, partitions: Iterable[tuple[str, int]]) -> dict[tuple[str, int], int]:
        """(topic, partition) -> the leader's high watermark, for those it could learn (cached or asked)."""
        with self._lock:
            now = time.monotonic()
            self._cache = {tp: v for tp, v in self._cache.items() if now - v[0] < self.cache_s}
            out: dict[tuple[str, int], int] = {}
            by_leader: dict[int, list[tuple[str, int]]] = {}
            topics = self.broker.metadata.topics
            for tp in partitions:
                hit = self._cache.get(tp)
                if hit is not None:
                    out[tp] = hit[1]
                    continue
                t = topics.get(tp[0])
                if t is None or not 0 <= tp[1] < len(t.partitions):
                    continue
                leader = t.partitions[tp[1]].leader
                if leader >= 0 and leader != self.broker.node_id:
                    by_leader.setdefault(leader, []).append(tp)
            if not by_leader:
                return out
            security = inter_broker.of(self.broker)
            endpoints = {b.node_id: security.endpoint(b) for b in list(self.broker.metadata.brokers)}
            deadline = now + self.budget_s
            for leader, tps in sorted(by_leader.items()):
                if time.monotonic() > deadline or self._failed_until.get(leader, 0.0) > time.monotonic():
                    continue
                endpoint = endpoints.get(leader)
                if endpoint is None:
                    continue
                try:
                    got = self._ask(leader, endpoint, tps)
                except Exception as e:  # KafkaClientError, a malformed answer: this leader, not the scrape
                    self._drop(leader)
                    self._failed_until[leader] = time.monotonic() + self.backoff_s
                    log.warning("metrics: no high watermarks from leader %d at %s:%d for consumer lag "
                                "(not asked again for %.0f s): %s", leader, *endpoint, self.backoff_s, e)
                    continue
                self._failed_until.pop(leader, None)
                when = time.monotonic()
                for tp, hw in got.items():
                    self._cache[tp] = (when, hw)
                    out[tp] = hw
            return out

    def _ask(self, leader: int, endpoint: tuple[str, int], tps: list[tuple[str, int]]) -> dict:
        from kwire.client import KafkaClient
        from kwire.protocol.generated.list_offsets_request import (
            ListOffsetsPartition,
            ListOffsetsRequest,
            ListOffsetsTopic,
        )

        held = self._clients.get(leader)
        if held is not None and held[0] != endpoint:
            self._drop(leader)  # the leader restarted elsewhere
            held = None
        if held is None:
            client = KafkaClient(f"{endpoint[0]}:{endpoint[1]}", client_id=f"kwire-metrics-{self.broker.node_id}",
                                 timeout=self.timeout_s,
                                 security=inter_broker.of(self.broker).client_security(),
                                 source_address=inter_broker.of(self.broker).source_address)
            self._clients[leader] = (endpoint, client)
        else:
            client = held[1]
        by_topic: dict[str, list[int]] = {}
        for t, p in tps:
            by_topic.setdefault(t, []).append(p)
        req = ListOffsetsRequest(replica_id=-1, isolation_level=0, topics=[
            ListOffsetsTopic(name=t, partitions=[ListOffsetsPartition(partition_index=p, timestamp=-1)
                                                 for p in sorted(ps)])
            for t, ps in sorted(by_topic.items())])
        version = client.api_version(API_LIST_OFFSETS)
        if version >= 10:
            req.timeout_ms = int(self.timeout_s * 1000)
        self.requests += 1
        resp = client.request(API_LIST_OFFSETS, req, version=version)
        out = {}
        for tr in resp.topics or ():
            for pr in tr.partitions or ():
                if pr.error_code == 0 and pr.offset >= 0:  # NOT_LEADER_OR_FOLLOWER etc.: next scrape
                    out[(tr.name, pr.partition_index)] = pr.offset
        return out

    def _drop(self, leader: int) -> None:
        held = self._clients.pop(leader, None)
        if held is not None:
            try:
                held[1].close()
            except OSError:
                pass

    def close(self) -> None:
        with self._lock:
            for leader in list(self._clients):
                self._drop(leader)
            self._cache.clear()
