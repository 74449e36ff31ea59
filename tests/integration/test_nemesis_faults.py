"""Each fault kind, short, under the queue and transactional workloads: zero anomalies and full recovery within a bound.

A 3-broker cluster shared by the fault kinds of a group (``KIND_GROUPS``;
ZooKeeper and brokers on their own loopback addresses,
``nemesis_workload.shared_nemesis_cluster``), topics of each kind's own: one of one
partition, RF 3, ``min.insync.replicas=2``, unclean election off, led by
broker 1. The queue workload (two idempotent acks=all producers, an assign-
and a subscribe-based consumer) and, on a second topic of two partitions
(partition 0 led by broker 1 too), the transactional one
(``nemesis_txn_workload``: multi-partition transactions committed and
aborted, producers fenced and restarted, consume-transform-produce with
``send_offsets_to_transaction``, read_committed readers) run together for the
whole test: one cluster for both is cheaper than two runs. The fault lasts
``FAULT_S`` seconds, then heals; the test asserts

* recovery: every broker's Metadata showing the same leader and the full ISR
  again within ``_recovery_bound()`` (10 s; 30 s under load) of the heal (and, once the producers stop, every
  replica's log end offset equal to the high watermark: the final reads of the
  three replicas are identical);
* ``kwire.nemesis.checker``: no lost, unseen, duplicated, inconsistent,
  nonmonotonic or skipped operation, over the final read of every replica;
  for the transactions also no aborted or intermediate read, no G1c cycle,
  no committed offset of the group going backwards (the replicas' final
  reads keep committed transactions only), and no fenced producer's commit
  succeeding.

The faults (on the partition's current leader): the leader isolated from brokers and ZooKeeper; the leader cut from
ZooKeeper only; the controller isolated; one broker (the leader) split from
the other two while all keep ZooKeeper; a bridge (the leader sees both
followers, they do not see each other); ZooKeeper isolated; the isolated
leader paused (SIGSTOP) and killed (kill -9) during the partition.
Each run prints its figures per fault (``kwire.nemesis.availability``): the
longest stretch without an acknowledgement during the fault, the time from
the heal to the first acknowledgement, when the leadership moved the time
from the fault's start to the first acknowledgement on the new leader, the
recovery, and the longest acks=all request (a ``Prober`` of every broker, and
librdkafka's statistics). The per-kind test asserts issue 23's bounds on them
(``_assert_available``, with a margin for a loaded machine);
``KWIRE_NEMESIS_FIGURES`` (a path) collects them as JSON lines.

A 3-node ZooKeeper ensemble with one member, then two (no quorum), killed -9
for 10 s and restarted.

Clock skew: brokers 2 and 3 run 5 minutes ahead and behind (the Debian
``faketime`` library, LD_PRELOADed, every clock offset alike), and the
leader is isolated so that a skewed broker takes over: still no anomaly.

``nemesis_long`` (skipped unless asked for with ``-m nemesis_long``): a
mixed run of random faults for ``KWIRE_NEMESIS_LONG_S`` seconds (default 300),
its seed (``KWIRE_NEMESIS_SEED`` replays it), schedule and per-fault-kind
figures written to ``KWIRE_NEMESIS_REPORT`` (JSON, and a Markdown table).
"""

from __future__ import annotations

import os
import random
import time
import uuid

import pytest
from cluster_fixtures import _metadata
from nemesis_txn_workload import TxnWorkload, final_committed_reads
from nemesis_workload import (CI_RATE, SESSION_MS, Prober, QueueWorkload, _nemesis_pool,  # noqa: F401 (fixtures)
                              assert_healthy, final_producers, final_reads, longest_gap, shared_nemesis_cluster,
                              wait_all_isrs_full)

from kwire.nemesis.availability import fault_figures, new_leader_probe_s
from kwire.nemesis.checker import check

confluent_kafka = pytest.importorskip("confluent_kafka")

# ~40-60 s a run; split-one once spent 234 s finishing its last transactions (a coordinator left a
# transaction in PrepareCommit: docs/partitions.md), which this bound now catches
pytestmark = pytest.mark.timeout(180)

FAULT_S = 10.0
RATE = CI_RATE  # the queue producers' records/s each (the long run: unpaced)
# bound on the ISR being full again after the heal (after a restart: from its return): issue 23's 10 s
# on a quiet machine; under load (the 1-minute load average above 2 per core at the heal) 30 s, as
# shared 2-core machines at load 35-118 took 8.9-54.9 s (docs/partitions.md has the figures)
RECOVERY_S, RECOVERY_LOADED_S = 10.0, 30.0


def _recovery_bound() -> float:
    return RECOVERY_S if os.getloadavg()[0] <= 2 * (os.cpu_count() or 1) else RECOVERY_LOADED_S
# issue 23's availability goals: acks=all writes taken again within the session timeout + 2 s of the
# heal, and (when the fault moved the leadership) of the fault's start, on the new leader; every
# acks=all request answered by its timeout. LOAD_MARGIN_S is what a 2-core CI machine at load ~40 adds
# (docs/partitions.md has the figures measured, quiet and loaded)
AVAILABILITY_S = SESSION_MS / 1000 + 2
LOAD_MARGIN_S = 7.0
REQUEST_MARGIN_S = 3.0  # a probe's connection set-up and a loaded scheduler on top of its timeout
# the internal topics as durable as Kafka's defaults make them (the test clusters otherwise get the
# one-broker development values, as Kafka's sample server.properties has): with
# __transaction_state at RF 1, long run 6 ended with an acknowledged transaction missing)
OVERRIDES = {"min.insync.replicas": "2", "unclean.leader.election.enable": "false",
             "replica.lag.time.max.ms": "6000", "offsets.topic.replication.factor": "3",
             "transaction.state.log.replication.factor": "3", "transaction.state.log.min.isr": "2"}


def _wait_recovered(c, topic: str, partitions=(0,), timeout: float = 120.0):
    """Until EVERY broker's Metadata shows each partition with a leader, the full ISR and the same
    (leader, epoch) -- one broker's view alone may be the stale one of a broker just healed.
    Returns the last metadata seen."""
    deadline = time.monotonic() + timeout
    while True:
        views, md = [], None
        for b in c.brokers:
            try:
                md = c.metadata([topic], bootstrap=b.bootstrap)
                views.append(tuple((md.topics[topic].partitions[p].leader, md.topics[topic].partitions[p].leader_epoch,
                                    tuple(sorted(md.topics[topic].partitions[p].isr))) for p in partitions))
            except Exception as e:
                views.append(repr(e))
        first = views[0]
        if (all(v == first for v in views) and not isinstance(first, str)
                and all(leader > 0 and isr == (1, 2, 3) for leader, _e, isr in first)):
            return md
        assert time.monotonic() < deadline, f"not recovered after {timeout} s: {views}"
        # each round asks every broker on a fresh connection: 4 rounds a second keep the recovery
        # figure to a quarter second (its bound is 10 s) at a third of the requests of 10
        time.sleep(0.25)


def _controller(c) -> str:
    return str(c.controller_id())


def _victim(kind: str, c, leader: int) -> int | None:
    """The broker a fault cuts off or stops (the controller for ``controller-isolated``; None when
    the fault hits ZooKeeper or every broker alike)."""
    if kind == "controller-isolated":
        return int(_controller(c))
    return None if kind.startswith("zk-") else leader


def _apply(kind: str, c, fw, topo, leader: int, victim: int | None):
    """Start the fault on the partition's current ``leader`` (``victim``: ``_victim``); returns what
    undoes the process part of it (None: only links)."""
    lead = str(leader)
    rest = [n for n in ("1", "2", "3") if n != lead]
    if kind == "leader-isolated":
        fw.cut(topo.isolate(lead, rest + ["zk"]))
    elif kind == "leader-zk-only":
        fw.cut(topo.isolate(lead, ["zk"]))
    elif kind == "controller-isolated":
        ctl = str(victim)
        fw.cut(topo.isolate(ctl, [n for n in ("1", "2", "3", "zk") if n != ctl]))
    elif kind == "split-one":
        fw.cut(topo.split([lead], rest))
    elif kind == "bridge":
        fw.cut(topo.bridge(lead, rest[:1], rest[1:]))
    elif kind == "zk-isolated":
        fw.cut(topo.isolate("zk", ["1", "2", "3"]))
    elif kind == "pause-during-partition":
        fw.cut(topo.isolate(lead, rest + ["zk"]))
        c.broker(leader).pause()
        return lambda: c.broker(leader).resume()
    elif kind == "kill-during-partition":
        fw.cut(topo.isolate(lead, rest + ["zk"]))
        c.broker(leader).kill()
        return lambda: c.broker(leader).start()
    elif kind in ("zk-member-killed", "zk-quorum-killed"):  # a 3-node ensemble: kill -9 one / two
        victims = c.zk_members[:1] if kind == "zk-member-killed" else c.zk_members[:2]
        for m in victims:
            m.proc.kill()
            m.proc.wait(30)

        def restart() -> None:
            for m in victims:
                m.start(wait=False)
            for m in victims:
                m._wait_ready(90)
        return restart
    else:
        raise ValueError(kind)
    return None


def _wait_equal_replicas(read, what: str) -> dict:
    """``read()`` (every replica's records) until all replicas agree (LEO = HW everywhere once quiet)."""
    deadline = time.monotonic() + 60
    while True:
        final = read()
        if len({tuple(sorted((p, tuple(r)) for p, r in v.items())) for v in final.values()}) == 1:
            return final
        sizes = {k: {p: len(r) for p, r in v.items()} for k, v in final.items()}
        assert time.monotonic() < deadline, f"{what}: replicas differ after the heal: {sizes}"
        time.sleep(0.5)


def _wait_progress(what: str, count, more: int) -> None:
    before = count()
    deadline = time.monotonic() + 60
    while count() < before + more:
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def _leader(c, topic: str) -> int:
    """The partition's leader, waiting while it has none (a controller change after a heal can
    leave it without one for a moment)."""
    deadline = time.monotonic() + 60
    while (leader := c.leader_of(topic, 0)) <= 0:
        assert time.monotonic() < deadline, f"{topic}-0 without a leader for 60 s"
        time.sleep(0.2)
    return leader


def _hold(c, topic: str, leader: int, victim: int | None, until: float) -> float | None:
    """Wait out the fault, asking a broker outside it (neither the leader nor the victim) for the
    partition's leader; returns when it first named another leader (None: the leadership stayed)."""
    observer = next(b for b in c.brokers if b.node_id not in (leader, victim))
    moved = None
    while (left := until - time.monotonic()) > 0:
        if moved is None:
            try:  # a short timeout: the question must not stretch the fault
                md = _metadata(observer.bootstrap, [topic], timeout=min(2.0, max(left, 0.2)),
                               security=c.client_security)
                now = md.topics[topic].partitions[0].leader
            except Exception:
                now = -1
            if now > 0 and now != leader:
                moved = time.monotonic()
        time.sleep(min(0.2, max(left, 0)))
    return moved


def _r(x):
    return None if x is None else round(x, 1)


def _assert_available(fault: dict) -> None:
    """Issue 23's availability bounds on one fault's figures (``LOAD_MARGIN_S`` on top)."""
    bound = AVAILABILITY_S + LOAD_MARGIN_S
    kind = fault["kind"]
    assert fault["after_heal_s"] is not None and fault["after_heal_s"] <= bound, (
        f"{kind}: acks=all writes taken again {fault['after_heal_s']} s after the heal (bound {bound} s)")
    # (c) on the broker side: a probe on a fresh connection to the new leader (every kind that moved it)
    if fault["moved_s"] is not None:
        assert fault["probe_to_new_leader_s"] is not None and fault["probe_to_new_leader_s"] <= bound, (
            f"{kind}: the new leader took acks=all probes {fault['probe_to_new_leader_s']} s after the cut")
    # a paused leader: the idempotent producer does not move a partition's in-flight requests to the
    # new leader before the stopped broker answers them (after SIGCONT) or their request.timeout.ms
    # passes, so "resumed on the new leader" is the pause's length plus the after-heal figure there
    if fault["moved_s"] is not None and not kind.startswith("pause"):
        assert fault["to_new_leader_s"] is not None and fault["to_new_leader_s"] <= bound, (
            f"{kind}: writes resumed on the new leader {fault['to_new_leader_s']} s after the cut (bound {bound} s)")
    limit = fault["request_timeout_s"] + REQUEST_MARGIN_S
    assert fault["probes"] > 0 and fault["longest_request_s"] <= limit, (
        f"{kind}: an acks=all request took {fault['longest_request_s']} s (timeout {fault['request_timeout_s']} s)")


def _run(c, fw, topo, kinds, fault_s: float, report=None, seed: int = 1, duration: float | None = None,
         bounds: bool = False, rate: float | None = None) -> dict:
    """The queue and transactional workloads together through ``kinds`` one after the other (no
    new fault once ``duration`` seconds have passed, if given); ``report(figures, results)`` is
    called before the assertions (so a failing run's figures are kept too); ``bounds``: assert
    ``_assert_available`` on every fault; ``rate``: the queue producers' records/s each (None: their
    unpaced ~60/s, the long runs')."""
    assert_healthy(c, fw)
    t0 = time.monotonic()

    def phase(what: str) -> None:
        print(f"nemesis phase {what}: {time.monotonic() - t0:.1f} s", flush=True)

    topic, txn_topic = f"queue-{uuid.uuid4().hex[:8]}", f"txn-{uuid.uuid4().hex[:8]}"
    c.create_topic(topic, partitions=1, replication_factor=3, assignment={0: [1, 2, 3]})
    c.create_topic(txn_topic, partitions=2, replication_factor=3, assignment={0: [1, 2, 3], 1: [2, 3, 1]})
    probe_topic = f"probe-{uuid.uuid4().hex[:8]}"
    c.create_topic(probe_topic, partitions=1, replication_factor=3, assignment={0: [1, 2, 3]})
    w = QueueWorkload(c.bootstrap, topic, rate=rate).start()
    t = TxnWorkload(c.bootstrap, txn_topic, seed).start()
    probe = Prober({b.node_id: b.bootstrap for b in c.brokers}, probe_topic).start()
    deadline = time.monotonic() + 90
    while w.acknowledged < 100 or t.commits < 3 or t.ctp_commits < 1:
        assert time.monotonic() < deadline, f"the workloads never got going: {w.acknowledged} {t.figures()}"
        time.sleep(0.1)
    phase("warm")
    worst_gap = recovery = txn_gap = 0.0
    faults: list[dict] = []
    until = time.monotonic() + duration if duration else None
    for kind in kinds:
        if until is not None and time.monotonic() >= until:
            break
        leader = _leader(c, topic)
        victim = _victim(kind, c, leader)
        probe_leader = c.leader_of(probe_topic, 0)  # (c) is probed where the probe topic moves with it
        print(f"nemesis fault {len(faults) + 1}: {kind} (leader {leader}) at {time.strftime('%H:%M:%S')}",
              flush=True)
        started = time.monotonic()
        undo = _apply(kind, c, fw, topo, leader, victim)
        moved = _hold(c, topic, leader, victim, started + fault_s)  # the workloads run meanwhile
        if undo is not None and kind.startswith("pause"):
            undo()
            undo = None
        fw.heal()
        healed, recovery_bound = time.monotonic(), _recovery_bound()
        restart = 0.0
        if undo is not None:  # a killed broker or ZooKeeper member restarts: recovery counts from its return
            undo()
            restart, healed_or_back = time.monotonic() - healed, time.monotonic()
        else:
            healed_or_back = healed
        md = _wait_recovered(c, topic)
        _wait_recovered(c, txn_topic, (0, 1))
        took = time.monotonic() - healed_or_back
        _wait_progress(f"no acknowledged writes after healing {kind}", lambda: w.acknowledged, 50)
        _wait_progress(f"no committed transaction after healing {kind}", lambda: t.commits, 3)
        gap, tgap = longest_gap(w.ack_times, started), longest_gap(t.commit_times, started)
        q, tq = fault_figures(w.ack_times, started, healed, moved), fault_figures(t.commit_times, started, healed, moved)
        probe_new = (new_leader_probe_s(probe.acks(exclude=leader), started)
                     if moved is not None and probe_leader == leader else None)
        paused = frozenset({leader}) if kind.startswith("pause") else frozenset()
        req = probe.figures(started, time.monotonic(), skip=paused)
        client_req = w.request_figures(started, skip=paused)
        faults.append({"kind": kind, "leader": leader, "gap_s": round(gap, 1), "txn_gap_s": round(tgap, 1),
                       "during_s": _r(q["during_s"]), "txn_during_s": _r(tq["during_s"]),
                       "after_heal_s": _r(q["after_heal_s"]), "txn_after_heal_s": _r(tq["after_heal_s"]),
                       "moved_s": _r(None if moved is None else moved - started),
                       "to_new_leader_s": _r(q["to_new_leader_s"]), "txn_to_new_leader_s": _r(tq["to_new_leader_s"]),
                       "probe_to_new_leader_s": _r(probe_new),
                       "restart_s": round(restart, 1), "recovery_s": round(took, 1), "recovery_bound_s": recovery_bound,
                       "longest_request_s": round(req["longest_request_s"], 1), "probes": req["requests"],
                       "request_timeout_s": req["request_timeout_s"],
                       "client_longest_rtt_s": round(client_req["longest_request_s"], 1),
                       "client_timeouts": client_req["timed_out"]})
        print(f"nemesis fault {len(faults)} figures: {faults[-1]}", flush=True)
        if os.environ.get("KWIRE_NEMESIS_FIGURES"):  # a JSON line per fault (output is lost under xdist)
            import json

            with open(os.environ["KWIRE_NEMESIS_FIGURES"], "a") as f:
                f.write(json.dumps({**faults[-1], "load": os.getloadavg()[0],
                                    "at": time.strftime("%H:%M:%S")}) + "\n")
        worst_gap, recovery, txn_gap = max(worst_gap, gap), max(recovery, took), max(txn_gap, tgap)
    phase("faults")
    probe.stop()
    w.stop_producers()
    phase("queue producers stopped")
    t.stop()
    phase("txn stopped")
    t.read_group_offsets()
    phase("group offsets")
    assert not w.errors, w.errors
    leader = md.topics[topic].partitions[0].leader
    end = max((op.offset for op in w.history if getattr(op, "offset", None) is not None), default=0) + 1
    w.stop_consumers(end)
    result = check(w.history, _wait_equal_replicas(lambda: final_reads(c, topic), "queue"),
                   final_producers(c, topic))
    tresult = check(t.history, _wait_equal_replicas(lambda: final_committed_reads(c, txn_topic), "txn"))
    phase("checked")
    print(f"txn consumer errors: {t.consumer_errors}", flush=True)
    all_isrs_s, short = wait_all_isrs_full(c)
    phase("every ISR full")
    figures = {"kinds": [f["kind"] for f in faults], "leader": leader, "acknowledged": result.acknowledged,
               "sends": result.sends, "indeterminate": result.indeterminate, "polled": result.polled,
               "worst_gap_s": round(worst_gap, 1), "recovery_s": round(recovery, 1),
               "all_isrs_full_s": round(all_isrs_s, 1), **result.counts(),
               "txn": {"sends": tresult.sends, "acknowledged": tresult.acknowledged,
                       "indeterminate": tresult.indeterminate, "polled": tresult.polled,
                       "wr_edges": tresult.wr_edges,
                       "worst_gap_s": round(txn_gap, 1), **t.figures(), **tresult.counts()}}
    print(f"\nnemesis {'+'.join(figures['kinds'])}: {figures}")
    figures["faults"] = faults
    if report is not None:
        report(figures, {"queue": result, "txn": tresult})
    assert result.valid, result.summary()
    assert tresult.valid, (tresult.summary(), "consumer errors and committed offsets read:", t.consumer_errors)
    assert not short, f"partitions short of their ISR {all_isrs_s:.0f} s after the last fault: {short}"
    assert not t.errors, t.errors
    assert t.aborts > 0 and tresult.acknowledged > 0 and t.ctp_commits > 0 and tresult.wr_edges > 0
    slow = [(f["kind"], f["recovery_s"], f["recovery_bound_s"]) for f in faults if f["recovery_s"] > f["recovery_bound_s"]]
    assert not slow, f"recovered later than the bound (kind, s, bound): {slow}"
    if bounds:
        for fault in faults:
            _assert_available(fault)
    assert not os.environ.get("KWIRE_NEMESIS_DUMP"), "KWIRE_NEMESIS_DUMP: failing to print the brokers' logs"
    return figures


KINDS = ["leader-isolated", "leader-zk-only", "controller-isolated", "split-one", "bridge", "zk-isolated",
         "pause-during-partition", "kill-during-partition"]


# The kinds in two xdist groups of about two minutes each (CI, 2026-11-28: leader-isolated 48 s,
# leader-zk-only 33 s, controller-isolated 28 s, zk-isolated 25 s, the rest less): two workers run
# them side by side, each on a cluster of its own, instead of one worker for ~4 minutes (the run's
# critical path). Every kind is in exactly one group (asserted below).
KIND_GROUPS = {"nemesis-faults-kinds-a": ["leader-isolated", "zk-isolated", "split-one", "bridge"],
               "nemesis-faults-kinds-b": ["leader-zk-only", "controller-isolated", "pause-during-partition",
                                          "kill-during-partition"]}
assert sorted(k for ks in KIND_GROUPS.values() for k in ks) == sorted(KINDS), KIND_GROUPS


@pytest.mark.parametrize("kind", [pytest.param(k, marks=pytest.mark.xdist_group(g), id=k)
                                  for g, ks in KIND_GROUPS.items() for k in ks])
def test_fault_kind_loses_nothing_and_recovers(shared_nemesis_cluster, kind):  # noqa: F811
    """One cluster for the kinds of a group (``KIND_GROUPS``: an xdist group each, a worker's
    module-scoped cluster), each kind started from a healthy, checked state (``assert_healthy``)
    on topics of its own."""
    c, fw, topo = shared_nemesis_cluster(OVERRIDES)
    _run(c, fw, topo, [kind], FAULT_S, bounds=True, rate=RATE)


# the per-fault figures whose worst a long run reports per kind ((a) during, (b) after the heal, (c) to
# the new leader, (d) recovery, (e) the longest acks=all request; queue, then the txn commits)
WORST = ("during_s", "txn_during_s", "after_heal_s", "txn_after_heal_s", "to_new_leader_s", "txn_to_new_leader_s",
         "probe_to_new_leader_s",
         "recovery_s", "longest_request_s", "client_longest_rtt_s", "gap_s", "txn_gap_s")


def _long_report(path: str, seed: int, kinds: list[str]):
    """Writes the run's seed and schedule to ``path`` (JSON) at once, then its figures and a
    Markdown table per fault kind (``path`` with .md) when the run ends."""
    import json

    run = {"seed": seed, "schedule": kinds[:60], "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    with open(path, "w") as f:
        json.dump(run, f, indent=1)

    def report(figures: dict, results: dict) -> None:
        by_kind: dict[str, dict] = {}
        for fault in figures["faults"]:
            row = by_kind.setdefault(fault["kind"], {"count": 0})
            row["count"] += 1
            for name in WORST:
                if fault.get(name) is not None:
                    row[name] = max(row.get(name, 0.0), fault[name])
        run.update(figures=figures, by_kind=by_kind, summary={k: r.summary() for k, r in results.items()},
                   ended=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()))
        with open(path, "w") as f:
            json.dump(run, f, indent=1, default=repr)
        lines = [f"seed {seed}: {name}: {r.summary()}" for name, r in results.items()]
        lines += ["", f"txn: {figures['txn']}", "",
                  "| fault | times | " + " | ".join(f"worst {n}" for n in WORST) + " |",
                  "|---|---|" + "---|" * len(WORST)]
        lines += [f"| {k} | {r['count']} | " + " | ".join(f"{r.get(n, '-')}" for n in WORST) + " |"
                  for k, r in sorted(by_kind.items())]
        with open(path.rsplit(".", 1)[0] + ".md", "w") as f:
            f.write("\n".join(lines) + "\n")
    return report


def long_schedule(seed: int, count: int = 200) -> list[str]:
    """The fault kinds of a mixed run, drawn from ``seed`` (a run takes as many as its time allows)."""
    rng = random.Random(seed)
    return [rng.choice(KINDS) for _ in range(count)]


@pytest.mark.nemesis_long
@pytest.mark.timeout(3600)
def test_mixed_faults_long_run(shared_nemesis_cluster, request, tmp_path):  # noqa: F811
    """Random faults, one after another, until ``KWIRE_NEMESIS_LONG_S`` seconds have passed;
    ``KWIRE_NEMESIS_SEED`` replays a run's schedule (printed and written, with the figures, to
    ``KWIRE_NEMESIS_REPORT``, a JSON path)."""
    if "nemesis_long" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("a long run: select it with -m nemesis_long (KWIRE_NEMESIS_LONG_S seconds, default 300)")
    # (the module's one firewall; selected alone, -m nemesis_long, it gets a cluster of its own)
    c, fw, topo = shared_nemesis_cluster(OVERRIDES)
    total = float(os.environ.get("KWIRE_NEMESIS_LONG_S", "300"))
    seed = int(os.environ.get("KWIRE_NEMESIS_SEED") or random.SystemRandom().randrange(1 << 31))
    kinds = long_schedule(seed)
    path = os.environ.get("KWIRE_NEMESIS_REPORT") or str(tmp_path / "nemesis-long.json")
    print(f"\nnemesis long run: seed {seed}, {total:.0f} s of faults, schedule {kinds[:40]}..., report {path}",
          flush=True)
    _run(c, fw, topo, kinds, FAULT_S, _long_report(path, seed, kinds), seed, duration=total)


FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"


def _log_skew_s(broker) -> float:
    """How far the broker's logging clock is from ours (seconds), from its last log line."""
    import datetime

    for line in reversed(broker.lines):
        try:
            stamp = datetime.datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f")
        except ValueError:
            continue
        return (stamp - datetime.datetime.now()).total_seconds()
    raise AssertionError(f"no timestamped log line from broker {broker.node_id}")


def test_clock_skewed_brokers_lose_nothing(shared_nemesis_cluster):  # noqa: F811
    if not os.path.exists(FAKETIME_LIB):
        pytest.skip("libfaketime is not installed: apt-get install faketime (scripts/setup-test-env.sh)")
    skew = {2: "+5m", 3: "-5m"}
    env = {b: {"LD_PRELOAD": FAKETIME_LIB, "FAKETIME": s}
           for b, s in skew.items()}
    c, fw, topo = shared_nemesis_cluster(OVERRIDES, env)
    assert 280 < _log_skew_s(c.broker(2)) < 320 and -320 < _log_skew_s(c.broker(3)) < -280  # really skewed
    assert abs(_log_skew_s(c.broker(1))) < 20
    figures = _run(c, fw, topo, ["leader-isolated"], FAULT_S, rate=RATE)
    assert figures["leader"] in (1, 2, 3)


@pytest.mark.xdist_group("nemesis-faults-zk")
@pytest.mark.parametrize("kind", ["zk-member-killed", "zk-quorum-killed"])
def test_zookeeper_ensemble_members_killed(shared_nemesis_cluster, kind):  # noqa: F811
    """A 3-node ZooKeeper ensemble: one member killed (the quorum stays; sessions move to the
    others), or two (no quorum: every broker loses ZooKeeper, followers keep fetching, so no
    leader fences itself), for 10 s, then restarted."""
    c, fw, topo = shared_nemesis_cluster(OVERRIDES, ensemble=3)
    assert len(c.zk_members) == 3 and c.connect.count(",") == 2
    _run(c, fw, topo, [kind], FAULT_S, rate=RATE)
