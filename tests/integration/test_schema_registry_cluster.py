"""The Schema Registry on a 3-broker cluster: any broker answers, writes go through the primary
(the leader of ``_schemas`` partition 0), and kill -9 of the primary loses no schema and reuses no id."""

from __future__ import annotations

import json
import time

import pytest
import requests

pytestmark = [pytest.mark.timeout(240),
              pytest.mark.kwire_cluster_config(brokers=3, schema_registry_port=0)]


def schema(i: int) -> str:
    return json.dumps({"type": "record", "name": f"R{i}", "fields": [{"name": "f", "type": "int"}]},
                      separators=(",", ":"))  # the canonical form the registry keeps


def register(url: str, subject: str, text: str, deadline: float) -> int:
    """Register, retrying through a change of primary (50003/50004/50001 and refused connections)."""
    while True:
        try:
            r = requests.post(f"{url}/subjects/{subject}/versions", json={"schema": text}, timeout=30)
            if r.status_code == 200:
                return r.json()["id"]
            assert r.status_code >= 500, r.text  # only the registry being unavailable is retried
        except requests.ConnectionError:
            pass
        assert time.monotonic() < deadline, f"could not register {subject} through {url}"
        time.sleep(0.2)


def wait_readable(url: str, sid: int, text: str, deadline: float) -> None:
    while True:
        r = requests.get(f"{url}/schemas/ids/{sid}", timeout=30)
        if r.status_code == 200:
            assert r.json()["schema"] == text
            return
        assert time.monotonic() < deadline, f"schema {sid} not readable at {url}: {r.text}"
        time.sleep(0.1)


def test_cluster_forwarding_and_primary_kill(kwire_cluster):
    urls = {b.node_id: b.schema_registry_url for b in kwire_cluster.brokers}
    deadline = time.monotonic() + 120
    ids = {}
    for i in range(6):  # through every broker in turn: two of them forward to the primary
        node = 1 + i % 3
        ids[i] = register(urls[node], f"s{i}", schema(i), deadline)
        # the broker that answered sees its write at once (it caught up after forwarding)
        assert requests.get(f"{urls[node]}/subjects/s{i}/versions/latest").json()["id"] == ids[i]
    assert sorted(ids.values()) == list(range(1, 7))
    for url in urls.values():
        for i, sid in ids.items():
            wait_readable(url, sid, schema(i), deadline)
    # concurrent registrations through all three brokers: one writer decides, so every one
    # succeeds at once with an id of its own (two writers would hand out one id twice)
    from concurrent.futures import ThreadPoolExecutor

    def post(i: int) -> tuple[int, dict]:
        r = requests.post(f"{urls[1 + i % 3]}/subjects/c{i}/versions", json={"schema": schema(50 + i)},
                          timeout=60)
        return r.status_code, r.json()

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(post, range(15)))
    assert all(code == 200 for code, _ in answers), answers
    assert sorted(a["id"] for _, a in answers) == list(range(7, 22))
    primary = kwire_cluster.leader("_schemas", 0)
    assert primary in urls
    kwire_cluster.kill_broker(primary)
    survivors = [n for n in urls if n != primary]
    deadline = time.monotonic() + 120
    later = [register(urls[survivors[i % 2]], f"after{i}", schema(100 + i), deadline) for i in range(3)]
    assert sorted(later) == [22, 23, 24], later  # no id reused, none skipped
    for n in survivors:
        for i, sid in ids.items():
            wait_readable(urls[n], sid, schema(i), deadline)
        assert set(requests.get(f"{urls[n]}/subjects").json()) >= {f"s{i}" for i in range(6)}
    new_primary = kwire_cluster.leader("_schemas", 0)
    assert new_primary in survivors
    # the killed broker comes back, replays _schemas and answers every schema, old and new
    kwire_cluster.start_broker(primary)
    deadline = time.monotonic() + 120
    for i, sid in list(ids.items()) + [(100 + k, sid) for k, sid in enumerate(sorted(later))]:
        wait_readable(urls[primary], sid, schema(i), deadline)
