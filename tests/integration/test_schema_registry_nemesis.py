"""The Schema Registry's writes through a change of primary, on a 3-broker cluster cut by the nemesis.

Registrations go on all the time through every broker (a thread each,
some to subjects of their own, some to three shared subjects, so ids and
versions are contended) while the leader of ``_schemas-0`` (the registry's
primary) is first isolated from the other brokers and ZooKeeper (it still
believes it leads until it fences itself) and then, once writes resumed on
the new primary, killed with SIGKILL and restarted. Afterwards, from every
broker: each acknowledged registration reads back with the id it was given
(by id, and as a version of its subject), no id names two schemas, no
subject/version two ids, and the brokers agree on every id and subject.

Needs root and iptables (as the other nemesis tests): skipped with the reason otherwise.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
import requests
from cluster_fixtures import free_port
from nemesis_workload import nemesis_cluster  # noqa: F401 (fixture)
from test_nemesis_partitions import _wait

pytestmark = pytest.mark.timeout(240)

THREADS_PER_BROKER = 1
PACE_S = 0.3  # between one thread's registrations: contended, yet few enough to read back quickly


def _schema(tag: str) -> str:
    return json.dumps({"type": "record", "name": f"R_{tag}", "fields": [{"name": "f", "type": "int"}]},
                      separators=(",", ":"))


class Registrations:
    """Threads registering new schemas through one broker each, retrying what is not answered 200."""

    def __init__(self, urls: dict[int, str]) -> None:
        self.urls = urls
        self.acked: list[tuple[float, str, str, int]] = []  # (time, subject, schema, id)
        self.refused: list[str] = []  # a 4xx: a bug, never retried
        self.retried = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._run, args=(node, k), daemon=True)
                         for node in urls for k in range(THREADS_PER_BROKER)]

    def _run(self, node: int, k: int) -> None:
        session = requests.Session()
        i = 0
        while not self._stop.is_set():
            tag = f"b{node}t{k}n{i}"
            subject = f"shared{i % 3}" if i % 2 else f"own-{tag}"
            body = {"schema": _schema(tag)}
            while not self._stop.is_set():  # the same registration until it is acknowledged
                try:
                    r = session.post(f"{self.urls[node]}/subjects/{subject}/versions", json=body, timeout=45)
                except requests.RequestException:
                    r = None
                if r is not None and r.status_code == 200:
                    with self._lock:
                        self.acked.append((time.monotonic(), subject, body["schema"], r.json()["id"]))
                    self._stop.wait(PACE_S)
                    break
                if r is not None and r.status_code < 500:
                    self.refused.append(f"{node} {subject}: {r.status_code} {r.text}")
                    return
                self.retried += 1
                session = requests.Session()
                self._stop.wait(0.2)
            i += 1

    def start(self) -> "Registrations":
        for t in self._threads:
            t.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(60)

    def acked_since(self, t0: float) -> int:
        with self._lock:
            return sum(1 for t, *_ in self.acked if t > t0)


def _leader(c, via: int) -> int:
    return c.metadata(["_schemas"], bootstrap=c.broker(via).bootstrap).topics["_schemas"].partitions[0].leader


def _get(url: str, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while True:
        try:
            r = requests.get(url, timeout=30)
            if r.status_code < 500:
                return r
        except requests.RequestException:
            pass
        assert time.monotonic() < deadline, f"{url} not answered"
        time.sleep(0.2)


def test_registrations_through_a_partitioned_then_killed_primary(nemesis_cluster):  # noqa: F811
    ports: dict[int, int] = {}

    def per_broker(block: str) -> dict:
        for i in (1, 2, 3):
            ports[i] = free_port(f"{block}.{10 + i}")
        return {i: {"schema.registry.listeners": f"HTTP://{block}.{10 + i}:{ports[i]}"} for i in (1, 2, 3)}

    c, fw, topo = nemesis_cluster({"unclean.leader.election.enable": "false",
                                   "replica.lag.time.max.ms": "4000"}, per_broker=per_broker)
    urls = {b.node_id: f"http://{b.host}:{ports[b.node_id]}" for b in c.brokers}
    # the registry is up on every broker and the compatibility of the shared subjects is NONE
    r = _get(f"{urls[1]}/subjects")
    assert r.status_code == 200, r.text
    _wait(lambda: requests.put(f"{urls[2]}/config", json={"compatibility": "NONE"}, timeout=30).status_code == 200,
          60, "PUT /config through a forwarding broker")

    work = Registrations(urls).start()
    try:
        _wait(lambda: len(work.acked) >= 20, 60, "20 registrations before the faults")
        first = _leader(c, 2)
        # 1. the primary cut off from the other brokers and ZooKeeper (clients still reach it)
        others = [str(n) for n in urls if n != first]
        fw.cut(topo.isolate(str(first), others + ["zk"]))
        cut_at = time.monotonic()
        second = _wait(lambda: (lambda n: n if n not in (first, -1) else None)(_leader(c, int(others[0]))), 60,
                       "a new leader of _schemas-0")
        _wait(lambda: work.acked_since(cut_at + 0.5) >= 5, 60, "registrations on the new primary")
        fw.heal()
        c.wait_until(lambda md: sorted(md.topics["_schemas"].partitions[0].isr) == [1, 2, 3], 60,
                     "the full ISR of _schemas-0 after the heal", topics=["_schemas"],
                     bootstrap=c.broker(second).bootstrap)
        # 2. the new primary killed -9 while registrations go on, then started again
        survivor = next(n for n in urls if n != second)
        c.broker(second).kill()
        killed_at = time.monotonic()
        _wait(lambda: (lambda n: n if n not in (second, -1) else None)(_leader(c, survivor)), 60,
              "a leader of _schemas-0 after the kill")
        _wait(lambda: work.acked_since(killed_at + 0.5) >= 5, 60, "registrations after the kill")
        c.broker(second).start()
        restarted_at = time.monotonic()
        _wait(lambda: work.acked_since(restarted_at) >= 5, 60, "registrations after the restart")
    finally:
        work.stop()
    assert not work.refused, work.refused[:5]

    ids: dict[int, str] = {}
    versions: dict[tuple[str, str], int] = {}
    for _t, subject, schema, sid in work.acked:
        assert ids.setdefault(sid, schema) == schema, f"id {sid} acknowledged for two schemas"
        versions[(subject, schema)] = sid
    by_schema = {}
    for sid, schema in ids.items():
        assert by_schema.setdefault(schema, sid) == sid, f"one schema acknowledged with ids {by_schema[schema]}, {sid}"

    # every broker reads every acknowledged registration back (once it has caught up), and all agree
    def view(url: str) -> dict:
        subjects = {}
        for s in _get(f"{url}/subjects").json():
            subjects[s] = {}
            for v in _get(f"{url}/subjects/{s}/versions").json():
                got = _get(f"{url}/subjects/{s}/versions/{v}").json()
                subjects[s][v] = (got["id"], got["schema"])
        return subjects

    def caught_up(url: str) -> dict | None:
        got = view(url)
        held = {(s, schema): sid for s, vs in got.items() for sid, schema in vs.values()}
        if not all(held.get(k) == sid for k, sid in versions.items()):
            return None
        for sid, schema in ids.items():  # and by id
            r = _get(f"{url}/schemas/ids/{sid}")
            assert r.status_code == 200 and r.json()["schema"] == schema, (url, sid, r.text)
        return got

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(3) as pool:
        views = dict(zip(urls, pool.map(
            lambda node: _wait(lambda: caught_up(urls[node]), 60, f"broker {node} to hold every registration"),
            urls)))
    for node, subjects in views.items():
        named = {}
        for s, vs in subjects.items():
            for v, (sid, schema) in vs.items():
                assert named.setdefault(sid, schema) == schema, f"broker {node}: id {sid} names two schemas"
    assert views[1] == views[2] == views[3]
    logs = c.log_text()
    print(f"{len(work.acked)} registrations acknowledged ({len(ids)} ids, max {max(ids)}), "
          f"{work.retried} attempts retried through the faults; {logs.count('lost to another writer')} "
          f"registrations planned again, {logs.count('that lost to another writer')} repairs")
