"""Metadata changes must not stall the broker: many topics, answered quickly, others served.

A real client (confluent-kafka's AdminClient) creates topics in batches while a
second connection sends ApiVersions requests back to back and records each
round trip. The broker runs as a subprocess (``spawn_broker``), so the client
and the pinger do not share its interpreter.

Scaled down by default (2,000 topics, bounds generous enough for a loaded
2-core machine); the full measurement of the issue (10,000 topics, goal:
< 30 s, ApiVersions p99 < 50 ms) runs with::

    KWIRE_SCALE_TOPICS=10000 python -m pytest tests/integration/test_metadata_scale.py -s

which prints the figures (also printed for the scaled-down run with ``-s``).
"""

from __future__ import annotations

import os
import socket
import struct
import threading
import time

import pytest
from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient, NewTopic

from clients import read_exact

TOPICS = int(os.environ.get("KWIRE_SCALE_TOPICS", "2000"))
BATCH = int(os.environ.get("KWIRE_SCALE_BATCH", "500"))
FULL = TOPICS >= 10000
# bounds: the goals at full size (10,000 topics < 30 s, ApiVersions p99 < 50 ms);
# generous ones for the scaled-down run on a busy shared 2-core machine. Before the metadata
# log, creating topics rewrote the whole metadata file per topic on the event loop:
# ApiVersions waited up to 19 s, and 10,000 topics took about 15 minutes.
CREATE_BOUND_S = 30.0 if FULL else 45.0
P99_BOUND_S = 0.05 if FULL else 0.2
MAX_LATENCY_BOUND_S = 1.0


class ApiVersionsPinger:
    """ApiVersions v0 round trips on one connection, back to back, until stopped."""

    def __init__(self, bootstrap: str) -> None:
        host, port = bootstrap.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _call(self, correlation_id: int) -> None:
        client = b"pinger"
        body = struct.pack(">hhih", 18, 0, correlation_id, len(client)) + client
        self.sock.sendall(struct.pack(">i", len(body)) + body)
        size = struct.unpack(">i", read_exact(self.sock, 4))[0]
        resp = read_exact(self.sock, size)
        cid, error = struct.unpack_from(">ih", resp)
        assert cid == correlation_id and error == 0, (cid, error)

    def _run(self) -> None:
        cid = 0
        deadline = time.monotonic() + 1800  # bounded even if never stopped
        while not self._stop.is_set() and time.monotonic() < deadline:
            cid += 1
            t0 = time.perf_counter()
            try:
                self._call(cid)
            except Exception as e:  # recorded and asserted on by the test
                self.errors.append(repr(e))
                return
            self.latencies.append(time.perf_counter() - t0)
            self._stop.wait(0.002)

    def __enter__(self) -> "ApiVersionsPinger":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(30)
        self.sock.close()

    def stats(self) -> dict:
        lat = sorted(self.latencies)
        if not lat:
            return {"count": 0}
        return {"count": len(lat), "p50_ms": lat[len(lat) // 2] * 1e3,
                "p99_ms": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1e3, "max_ms": lat[-1] * 1e3}


def create_topics(bootstrap: str, names: list[str], batch: int) -> dict[str, str]:
    """Create ``names`` in batches of ``batch`` (one request each); errors by topic."""
    admin = AdminClient({"bootstrap.servers": bootstrap, "socket.timeout.ms": 120000})
    errors: dict[str, str] = {}
    for i in range(0, len(names), batch):
        fs = admin.create_topics([NewTopic(n, num_partitions=1, replication_factor=1)
                                  for n in names[i:i + batch]], request_timeout=120, operation_timeout=120)
        for name, f in fs.items():
            try:
                f.result(180)
            except KafkaException as e:
                errors[name] = str(e)
    return errors


def test_create_many_topics_without_stalling(spawn_broker, tmp_path):
    b = spawn_broker(tmp_path / "data")
    names = [f"scale-{i:05d}" for i in range(TOPICS)]
    with ApiVersionsPinger(b.bootstrap) as pinger:
        while len(pinger.latencies) < 5 and not pinger.errors:  # the pinger is up before we start
            time.sleep(0.01)
        t0 = time.monotonic()
        errors = create_topics(b.bootstrap, names, BATCH)
        elapsed = time.monotonic() - t0
    stats = pinger.stats()
    print(f"\ncreated {TOPICS} topics in batches of {BATCH}: {elapsed:.1f} s "
          f"({TOPICS / elapsed:.0f} topics/s); ApiVersions during it: {stats}")
    assert not errors, list(errors.items())[:5]
    assert not pinger.errors, pinger.errors
    assert elapsed < CREATE_BOUND_S
    assert stats["count"] > 10
    assert stats["p99_ms"] / 1e3 < P99_BOUND_S, stats
    assert stats["max_ms"] / 1e3 < MAX_LATENCY_BOUND_S, stats
    # 100 more with all those there (before the metadata log: 19 s with 10,000 existing)
    more = [f"more-{i:03d}" for i in range(100)]
    with ApiVersionsPinger(b.bootstrap) as pinger:
        t0 = time.monotonic()
        assert not create_topics(b.bootstrap, more, 100)
        elapsed = time.monotonic() - t0
    print(f"100 more topics with {TOPICS} existing: {elapsed:.2f} s; ApiVersions: {pinger.stats()}")
    assert elapsed < 10
    names += more
    # every topic is there (one Metadata request for all), and survives a restart
    admin = AdminClient({"bootstrap.servers": b.bootstrap})
    listed = admin.list_topics(timeout=60).topics
    assert set(names) <= set(listed)
    b.terminate()
    b2 = spawn_broker(tmp_path / "data")
    listed = AdminClient({"bootstrap.servers": b2.bootstrap}).list_topics(timeout=60).topics
    assert set(names) <= set(listed)


@pytest.mark.skipif(FULL, reason="the full run measures creation only")
def test_many_creates_in_one_request_keep_other_clients_served(spawn_broker, tmp_path):
    """One CreateTopics of 1,000 topics: the broker keeps answering others meanwhile."""
    b = spawn_broker(tmp_path / "data")
    names = [f"one-request-{i:04d}" for i in range(1000)]
    with ApiVersionsPinger(b.bootstrap) as pinger:
        while len(pinger.latencies) < 5 and not pinger.errors:
            time.sleep(0.01)
        errors = create_topics(b.bootstrap, names, len(names))
    stats = pinger.stats()
    print(f"\n1000 topics in one request; ApiVersions during it: {stats}")
    assert not errors and not pinger.errors
    assert stats["max_ms"] / 1e3 < MAX_LATENCY_BOUND_S, stats
