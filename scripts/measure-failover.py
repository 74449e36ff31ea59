#!/usr/bin/env python3
"""Measure a partition's unavailability when its leader fails: kill -9 and SIGTERM.

Starts ZooKeeper and three kwire brokers (``kwire.devcluster.DevCluster``, the
library behind ``kwire cluster up``) with ``zookeeper.session.timeout.ms``
(default 6000) and ``min.insync.replicas=2``, creates a topic with one
partition and replication factor 3, and runs two producers against it
throughout:

* a probe (``kwire.client``, raw requests, so every failure is visible): one
  acks=all Produce of a 100-byte record at a time (request timeout 2 s); after a
  failure (connection refused, NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS,
  timeout...) it takes fresh metadata and tries again 10 ms later;
* librdkafka (confluent-kafka, idempotent, acks=all) at 200 records/s, whose
  retries hide failures: its figure is the longest gap between two delivery
  reports.

Scenarios, each repeated ``--repeat`` times (the victim is restarted and the
ISR is full again before the next): ``kill`` — SIGKILL of the partition's
leader (the goal: <= 7 s with a 6 s session timeout); ``term`` — SIGTERM of
the leader, i.e. a controlled shutdown (the goal: <= 1 s). The figure
"unavailable" is the probe's time from its first failed produce after the
fault to its first successful one (0 when nothing failed); "gap" is the
longest time between two successful probe produces around the fault.

    python scripts/measure-failover.py [--repeat 3] [--scenarios kill,term]
        [--session-timeout-ms 6000] [--dir D] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)

from kwire.client import KafkaClient, NewTopic  # noqa: E402
from kwire.devcluster import DevCluster  # noqa: E402
from kwire.records.builder import build_batch  # noqa: E402

TOPIC = "availability"


class Probe(threading.Thread):
    """One acks=all produce at a time; (time, ok, error) for each."""

    def __init__(self, bootstrap: str) -> None:
        super().__init__(name="probe", daemon=True)
        self.bootstrap = bootstrap
        self.events: list[tuple[float, bool, str]] = []
        self.halt = threading.Event()
        self.lock = threading.Lock()

    def run(self) -> None:
        client = KafkaClient(self.bootstrap, client_id="availability-probe", timeout=2)
        payload = b"p" * 100
        while not self.halt.is_set():
            try:
                client.produce(TOPIC, 0, build_batch([(None, payload)]), acks=-1, timeout_ms=2000)
                ok, err = True, ""
            except Exception as e:  # every failure counts; the client is rebuilt (fresh metadata)
                ok, err = False, f"{type(e).__name__}: {e}"[:160]
            with self.lock:
                self.events.append((time.monotonic(), ok, err))
            if not ok:
                client.close()
                client = KafkaClient(self.bootstrap, client_id="availability-probe", timeout=2)
                self.halt.wait(0.01)
        client.close()

    def since(self, t: float) -> list[tuple[float, bool, str]]:
        with self.lock:
            return [e for e in self.events if e[0] >= t]


class Librdkafka(threading.Thread):
    def __init__(self, bootstrap: str, rate: float = 200) -> None:
        super().__init__(name="librdkafka", daemon=True)
        import confluent_kafka as ck

        self.p = ck.Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True,
                              "linger.ms": 0, "message.timeout.ms": 120000,
                              "topic.metadata.refresh.interval.ms": 1000})
        self.rate, self.acks, self.errors = rate, [], []
        self.halt = threading.Event()

    def _cb(self, err, _msg) -> None:
        (self.acks if err is None else self.errors).append(time.monotonic() if err is None else str(err))

    def run(self) -> None:
        start, i = time.monotonic(), 0
        while not self.halt.is_set():
            wait = start + i / self.rate - time.monotonic()
            if wait > 0:
                self.p.poll(wait)
                continue
            self.p.produce(TOPIC, b"l" * 100, partition=0, on_delivery=self._cb)
            self.p.poll(0)
            i += 1
        self.p.flush(60)

    def max_gap(self, t0: float, t1: float) -> float:
        times = [t for t in list(self.acks) if t0 <= t <= t1]
        prev, worst = t0, 0.0
        for t in times:
            worst, prev = max(worst, t - prev), t
        return max(worst, t1 - prev)


def partition_state(dc: DevCluster):
    for b in dc.brokers:
        if not b.alive():
            continue
        try:
            with KafkaClient(b.address, client_id="measure", timeout=3) as c:
                p = c.metadata([TOPIC]).topics[TOPIC].partitions[0]
                return p
        except Exception:
            continue
    return None


def wait(cond, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    raise RuntimeError(f"timed out after {timeout} s waiting for {what}")


def one(dc: DevCluster, probe: Probe, rdk: Librdkafka, scenario: str) -> dict:
    wait(lambda: (p := partition_state(dc)) and p.leader > 0 and len(p.isr) == 3, 120, "a full ISR")
    settle = time.monotonic()
    wait(lambda: any(ok for _t, ok, _e in probe.since(settle)), 60, "a successful probe produce")
    leader = partition_state(dc).leader
    victim = next(b for b in dc.brokers if b.node_id == leader)
    t_fault = time.monotonic()
    exit_code = None
    if scenario == "kill":
        victim.proc.send_signal(signal.SIGKILL)
        victim.proc.wait(10)
    else:
        exit_code = victim.stop(grace=60)
    wait(lambda: (p := partition_state(dc)) and p.leader > 0 and p.leader != leader, 120, "a new leader")
    t_mid = time.monotonic()
    wait(lambda: any(ok for t, ok, _e in probe.since(t_mid)), 120, "a successful produce after the fault")
    time.sleep(0.5)  # a little steady state after the recovery, for the gap figures
    t_end = time.monotonic()
    events = probe.since(t_fault - 0.5)
    first_fail = next((t for t, ok, _e in events if not ok and t >= t_fault), None)
    first_ok_after = (next((t for t, ok, _e in events if ok and t > first_fail), None)
                      if first_fail is not None else None)
    oks = [t for t, ok, _e in events if ok]
    gap = max((b - a for a, b in zip(oks, oks[1:])), default=float("nan"))
    errors = sorted({e.split(":")[0] + ":" + e.split(":")[1][:60] if ":" in e else e
                     for _t, ok, e in events if not ok})
    victim.start()
    return {"scenario": scenario, "victim": leader, "exit_code": exit_code,
            "unavailable_s": (first_ok_after - first_fail) if first_fail is not None else 0.0,
            "failed_produces": sum(1 for _t, ok, _e in events if not ok),
            "probe_gap_s": gap, "librdkafka_gap_s": rdk.max_gap(t_fault - 0.5, t_end),
            "leader_moved_after_s": t_mid - t_fault, "errors": errors[:5],
            "timeline": [(round(t - t_fault, 3), ok, e) for t, ok, e in events
                         if t >= t_fault and (not ok or first_ok_after is None or t <= first_ok_after)][:20]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scenarios", default="kill,term")
    ap.add_argument("--session-timeout-ms", type=int, default=6000)
    ap.add_argument("--dir", help="cluster directory (default: a temporary one, removed)")
    ap.add_argument("--json", help="write the results here")
    args = ap.parse_args()
    directory = args.dir or tempfile.mkdtemp(prefix="kwire-failover-")
    dc = DevCluster(directory, 3, configs={
        "zookeeper.session.timeout.ms": str(args.session_timeout_ms), "min.insync.replicas": "2"})
    dc.start()
    results = []
    try:
        with KafkaClient(dc.bootstrap, client_id="measure") as c:
            c.create_topics([NewTopic(TOPIC, 1, 3)])
        wait(lambda: (p := partition_state(dc)) and p.leader > 0 and len(p.isr) == 3, 60, "the topic")
        probe, rdk = Probe(dc.bootstrap), Librdkafka(dc.bootstrap)
        probe.start()
        rdk.start()
        for scenario in args.scenarios.split(","):
            for i in range(args.repeat):
                r = one(dc, probe, rdk, scenario)
                results.append(r)
                print(f"{scenario} #{i + 1}: victim broker {r['victim']}, unavailable "
                      f"{r['unavailable_s']:.2f} s ({r['failed_produces']} failed produces), probe gap "
                      f"{r['probe_gap_s']:.2f} s, librdkafka gap {r['librdkafka_gap_s']:.2f} s, new leader "
                      f"seen after {r['leader_moved_after_s']:.2f} s; errors {r['errors']}", flush=True)
        probe.halt.set()
        rdk.halt.set()
        probe.join(10)
        rdk.join(70)
        print(f"\nzookeeper.session.timeout.ms={args.session_timeout_ms}, min.insync.replicas=2, RF 3\n")
        print("| scenario | runs | unavailable s, median (min–max) | probe gap s, median | "
              "librdkafka gap s, median | librdkafka delivery errors |")
        print("|---|---|---|---|---|---|")
        for scenario in args.scenarios.split(","):
            rs = [r for r in results if r["scenario"] == scenario]
            u = [r["unavailable_s"] for r in rs]
            print(f"| {scenario} | {len(rs)} | {statistics.median(u):.2f} ({min(u):.2f}–{max(u):.2f}) | "
                  f"{statistics.median(r['probe_gap_s'] for r in rs):.2f} | "
                  f"{statistics.median(r['librdkafka_gap_s'] for r in rs):.2f} | {len(rdk.errors)} |")
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"session_timeout_ms": args.session_timeout_ms, "results": results}, f, indent=1)
    finally:
        dc.stop()
        if not args.dir:
            import shutil

            shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
