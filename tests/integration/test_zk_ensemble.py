"""Faults of a 3-node ZooKeeper ensemble under a 3-broker cluster, with acks=all writers.

The cluster (``tests/zk_ensemble.py``) lists all three ZooKeeper servers in
``zookeeper.connect``; RF 3, ``min.insync.replicas=2``, unclean election off,
a 6000 ms session timeout. Two idempotent acks=all writers (librdkafka and
kafka-python, ``tests/verifier.py``) write unique values to 3 partitions
throughout; at the end every partition is read from offset 0 and checked:
every acknowledged record present once, at its acknowledged offset, in each
writer's order.

* One ZooKeeper node down: kill -9 of the ZooKeeper leader (the others elect a
  new one; every broker's session moves to a live server and survives), a
  kill -9 of a partition leader broker while that node is still down (the
  controller, on the two remaining servers, still fails over), then the node
  back and SIGSTOP of the new ZooKeeper leader past its session.
* Quorum lost: two of three ZooKeeper nodes killed for longer than the session
  timeout. As Kafka's ZooKeeper-mode brokers, kwire's leaders keep serving
  (a broker needs ZooKeeper to change the ISR or leadership, not to append and
  replicate), no session expires (the last node, out of quorum, expires
  nothing). A broker killed meanwhile cannot be dropped from any ISR, so
  acks=all waits (as in Kafka) until the quorum returns, the dead broker's
  session expires and the controller moves its leaderships and shrinks the
  ISRs; then the broker returns and the cluster is back to full ISRs with
  every replica's LEO and HW equal.
* The controller broker loses its ZooKeeper session (its three links to the
  ensemble cut through proxies, its clients and replication untouched): the
  others elect a new controller after the session timeout; after the links
  return the old controller finds its session expired, resigns and registers
  again.

Each test prints one line of figures (also without ``-s``) for
docs/partitions-zookeeper-and-clocks.md.
"""

from __future__ import annotations

import time

import pytest

pytest.importorskip("confluent_kafka")
pytest.importorskip("kafka")
pytest.importorskip("kazoo")

from cluster_fixtures import make_cluster, tcp_proxy  # noqa: E402,F401  (fixtures)
from zk_ensemble import (isolate_from_zookeeper, make_ensemble_cluster, reconnect_to_zookeeper,  # noqa: E402,F401
                         wait_isr_full, wait_recovered, zk_ensemble, zookeeper)

import verifier as V  # noqa: E402

pytestmark = [pytest.mark.ensemble, pytest.mark.timeout(300)]

TOPIC = "ensemble"
PARTITIONS = 3
SESSION_MS = 6000
OVERRIDES = {"min.insync.replicas": "2", "unclean.leader.election.enable": "false",
             "log.flush.offset.checkpoint.interval.ms": "200"}  # replica_offsets reads the HW checkpoint
# records/s per writer. The writers are most of the module's CPU (brokers and clients: ~0.5 CPU-s per
# second at 100 + 40, ~0.29 at half that); half still puts ~23 records/s on each partition in flight
# through every fault, far more than the assertions need (acks on every partition, > 500 in all)
RATE = {"ck": 50, "kp": 20}


class Workload:
    """The two writers, their ledger, and the final read-back and check."""

    def __init__(self, cluster) -> None:
        self.c = cluster
        cluster.create_topic(TOPIC, partitions=PARTITIONS, replication_factor=3)
        self.ledger = V.Ledger(PARTITIONS)
        self.writers = [V.ConfluentWriter("ck", cluster.bootstrap, TOPIC, self.ledger, RATE["ck"]),
                        V.KafkaPythonWriter("kp", cluster.bootstrap, TOPIC, self.ledger, RATE["kp"])]
        for w in self.writers:
            w.start()
        self.started = time.monotonic()
        self.stopped = None
        self.wait_acks_everywhere(time.monotonic(), 90)

    def wait_acks_everywhere(self, since: float, timeout: float = 90.0) -> float:
        """Until every partition has an acknowledgement after ``since``; returns when that held."""
        V.wait_for(lambda: all(self.ledger.acks_since(since, p) > 0 for p in range(PARTITIONS)), timeout,
              f"acknowledgements on every partition since {since:.1f}")
        return time.monotonic()

    def unavailable(self, t0: float, t1: float) -> float:
        return V.unavailability(self.ledger.snapshot(), PARTITIONS, t0, t1)

    def stop(self) -> None:
        for w in self.writers:
            w.stop(timeout=120)
        if self.stopped is None:
            self.stopped = time.monotonic()

    def check(self) -> tuple[V.Check, float]:
        """Stop the writers, wait until every replica has one LEO = HW (returns the seconds that
        took, with the check), read every partition back and check the ledger against it."""
        self.stop()
        quiet = wait_recovered(self.c, TOPIC, range(PARTITIONS), 60)
        for w in self.writers:
            assert w.failure is None, f"writer {w.writer} died: {w.failure!r}"
        r = V.read_back(self.c.bootstrap, TOPIC, self.ledger.snapshot(), self.ledger.sent, PARTITIONS,
                        {b.node_id: b.data_dir for b in self.c.brokers})
        # paced writers: what they can write grows with how long the test ran, so the floor does
        # too (a fixed 500 failed at 477 on a machine fast enough to finish the faults in ~7 s);
        # a quarter of the paced rate leaves room for the faults' unavailability
        ran = self.stopped - self.started
        floor = max(100, int(0.25 * sum(RATE.values()) * ran))
        assert r.acked > floor, f"the writers barely wrote: {r.acked} acknowledged in {ran:.1f} s (floor {floor})"
        assert (r.lost, r.duplicated, r.misplaced, r.reordered, r.unknown) == (0, 0, 0, 0, 0), \
            (r, r.examples)
        failures = [e for e in self.ledger.errors if "without an offset" not in e]
        assert not failures, failures[:10]
        return r, quiet


def _registered(c, bootstrap: str | None = None) -> set[int]:
    return set(c.metadata([], bootstrap=bootstrap).brokers)


def test_one_zookeeper_node_down(make_ensemble_cluster, zk_ensemble, request, capsys):  # noqa: F811
    c = make_ensemble_cluster(3, overrides=OVERRIDES, session_timeout_ms=SESSION_MS)
    ens = zk_ensemble
    w = Workload(c)
    ctl_before = c.controller_id()
    try:
        # 1. kill -9 the ZooKeeper leader; the other two elect one; sessions survive
        zl = ens.leader()
        t1 = time.monotonic()
        ens.member(zl).kill()
        new_zl = ens.wait_quorum(60)
        zk_election = time.monotonic() - t1
        # past the session timeout: had a broker's session expired, it would be gone by now
        V.wait_for(lambda: time.monotonic() > t1 + SESSION_MS / 1000 + 2, 60, "the session timeout to pass")
        w.wait_acks_everywhere(t1 + SESSION_MS / 1000)
        assert _registered(c) == {1, 2, 3}, "a broker lost its session when one ZooKeeper node died"
        assert c.controller_id() == ctl_before, "the controller moved although no session was lost"
        gap1 = w.unavailable(t1, time.monotonic())

        # 2. while that node is down: kill -9 the leader of partition 0; the controller fails over
        victim = c.leader_of(TOPIC, 0)
        t2 = time.monotonic()
        c.broker(victim).kill()
        c.wait_until(lambda md: all(p.leader not in (-1, victim) for p in md.topics[TOPIC].partitions.values()),
                     SESSION_MS / 1000 + 60, f"leaders away from broker {victim}", topics=[TOPIC])
        moved = time.monotonic() - t2
        w.wait_acks_everywhere(time.monotonic())
        gap2 = w.unavailable(t2, time.monotonic())
        c.broker(victim).start()
        wait_isr_full(c, TOPIC, range(PARTITIONS), 120)

        # 3. the node back; SIGSTOP the (new) ZooKeeper leader past the session timeout, SIGCONT
        ens.restart(zl)
        ens.wait_serving([1, 2, 3])
        paused = ens.leader()
        t3 = time.monotonic()
        ens.member(paused).pause()
        ens.wait_quorum(60)
        V.wait_for(lambda: time.monotonic() > t3 + SESSION_MS / 1000 + 2, 60, "the session timeout to pass")
        w.wait_acks_everywhere(t3 + SESSION_MS / 1000)
        assert _registered(c) == {1, 2, 3}, "a broker lost its session when its ZooKeeper node froze"
        gap3 = w.unavailable(t3, time.monotonic())
        ens.member(paused).resume()
        ens.wait_serving([1, 2, 3])
        recovered = wait_isr_full(c, TOPIC, range(PARTITIONS), 120)
    finally:
        w.stop()
    r, quiet = w.check()
    V.report(request, capsys,
             f"one ZooKeeper node down: kill -9 ZooKeeper leader {zl} (new leader {new_zl} after "
             f"{zk_election:.1f} s), unavailable {gap1:.1f} s; kill -9 broker {victim} meanwhile: leaders "
             f"moved after {moved:.1f} s, unavailable {gap2:.1f} s; SIGSTOP ZooKeeper leader {paused} "
             f"{SESSION_MS / 1000 + 2:.0f} s: unavailable {gap3:.1f} s; ISRs full {recovered:.1f} s after "
             f"SIGCONT, LEO = HW everywhere {quiet:.1f} s after the writers stopped; acked {r.acked}, "
             f"read {r.read}, lost {r.lost}, duplicated {r.duplicated}")


def test_zookeeper_quorum_lost_then_back(make_ensemble_cluster, zk_ensemble, request, capsys):  # noqa: F811
    c = make_ensemble_cluster(3, overrides=OVERRIDES, session_timeout_ms=SESSION_MS)
    ens = zk_ensemble
    w = Workload(c)
    ctl_before = c.controller_id()
    leaders_before = {p: c.leader_of(TOPIC, p) for p in range(PARTITIONS)}
    try:
        zl = ens.leader()
        gone = [zl, next(m.myid for m in ens.members if m.myid != zl)]
        t0 = time.monotonic()
        for myid in gone:
            ens.member(myid).kill()
        left = next(m for m in ens.members if m.myid not in gone)
        V.wait_for(lambda: left.mode() == "down", 30, f"ZooKeeper {left.myid} to leave the lost quorum")
        # twice the session timeout without a quorum
        window = 2 * SESSION_MS / 1000
        V.wait_for(lambda: time.monotonic() > t0 + window, window + 30, "the quorum-less window to pass")
        t_heal = time.monotonic()
        during = {p: w.ledger.acks_since(t0 + SESSION_MS / 1000, p) - w.ledger.acks_since(t_heal, p)
                  for p in range(PARTITIONS)}
        gap = w.unavailable(t0, t_heal)
        md = c.metadata([TOPIC])  # brokers still answer Metadata from what they knew
        leaders_during = {p: md.topics[TOPIC].partitions[p].leader for p in range(PARTITIONS)}
        # still without a quorum: kill -9 a broker (not the controller). Nobody can change an ISR
        # or a leader, so acks=all waits for the dead replica on every partition (RF 3 on 3 brokers)
        victim = next(b.node_id for b in c.brokers if b.node_id != ctl_before)
        t_kill = time.monotonic()
        c.broker(victim).kill()
        V.wait_for(lambda: time.monotonic() > t_kill + SESSION_MS / 1000, 60, "a session timeout with a broker dead")
        t_heal = time.monotonic()
        after_kill = {p: w.ledger.acks_since(t_kill + 3, p) for p in range(PARTITIONS)}
        for myid in gone:
            ens.member(myid).spawn()
        ens.wait_quorum(90)
        quorum_back = time.monotonic() - t_heal
        # the dead broker's session expires SESSION_MS after the new ZooKeeper leader took over
        c.wait_until(lambda md: all(p.leader not in (-1, victim) and victim not in p.isr
                                    for p in md.topics[TOPIC].partitions.values()),
                     SESSION_MS / 1000 + 90, f"leaders and ISRs without broker {victim}", topics=[TOPIC])
        w.wait_acks_everywhere(time.monotonic())
        resumed = time.monotonic() - t_heal
        gap_kill = w.unavailable(t_kill, time.monotonic())
        ens.wait_serving([1, 2, 3], 90)
        c.broker(victim).start()
        wait_isr_full(c, TOPIC, range(PARTITIONS), 120)
        recovered = time.monotonic() - t_heal
        assert _registered(c) == {1, 2, 3}
        ctl_after = c.controller_id()
    finally:
        w.stop()
    r, quiet = w.check()
    V.report(request, capsys,
             f"quorum lost: kill -9 ZooKeeper {gone} for {window:.0f} s: acks=all acknowledged in its 2nd half "
             f"per partition {during}, longest gap {gap:.1f} s, leaders {leaders_before} -> {leaders_during}, "
             f"controller {ctl_before}; then kill -9 broker {victim} without a quorum: acknowledged per partition "
             f"from 3 s after the kill until the heal {after_kill}; quorum back {quorum_back:.1f} s after "
             f"restarting ZooKeeper, acks on every partition again {resumed:.1f} s after it (longest gap "
             f"{gap_kill:.1f} s), broker {victim} restarted and ISRs full {recovered:.1f} s after it, LEO = HW on "
             f"every replica {quiet:.1f} s after the writers stopped; controller then {ctl_after}; acked "
             f"{r.acked}, read {r.read}, lost {r.lost}, duplicated {r.duplicated}")
    # Kafka's ZooKeeper-mode leaders keep appending and replicating without ZooKeeper ...
    assert all(n > 0 for n in during.values()), f"a partition stopped taking acks=all writes: {during}"
    assert leaders_during == leaders_before
    # ... but cannot drop a dead replica from the ISR without it: acks=all waits for the heal
    assert all(n == 0 for n in after_kill.values()), f"acknowledged without the dead ISR member: {after_kill}"


def test_controller_loses_its_zookeeper_session(make_ensemble_cluster, request, capsys):  # noqa: F811
    c = make_ensemble_cluster(3, overrides=OVERRIDES, session_timeout_ms=SESSION_MS, zk_proxies=True)
    w = Workload(c)
    try:
        ctl = c.controller_id()
        other = next(b for b in c.brokers if b.node_id != ctl)
        t0 = time.monotonic()
        isolate_from_zookeeper(c, ctl)
        md = c.wait_until(lambda md: md.controller_id not in (-1, ctl) and ctl not in md.brokers,
                          SESSION_MS / 1000 + 60, "a new controller, the old one's registration gone",
                          bootstrap=other.bootstrap)
        moved = time.monotonic() - t0
        new_ctl = md.controller_id
        c.wait_until(lambda md: all(p.leader not in (-1, ctl) for p in md.topics[TOPIC].partitions.values()),
                     60, f"leaders away from broker {ctl}", topics=[TOPIC], bootstrap=other.bootstrap)
        w.wait_acks_everywhere(time.monotonic())
        gap = w.unavailable(t0, time.monotonic())
        t1 = time.monotonic()
        reconnect_to_zookeeper(c, ctl)
        # its session expired: it resigns, registers again with a new session, and follows the new controller
        c.wait_until(lambda md: ctl in md.brokers and md.controller_id == new_ctl, 60,
                     f"broker {ctl} registered again under controller {new_ctl}", bootstrap=c.broker(ctl).bootstrap)
        wait_isr_full(c, TOPIC, range(PARTITIONS), 120)
        back = time.monotonic() - t1
    finally:
        w.stop()
    r, quiet = w.check()
    V.report(request, capsys,
             f"controller {ctl} cut from ZooKeeper: controller {new_ctl} after {moved:.1f} s (session "
             f"{SESSION_MS} ms), unavailable {gap:.1f} s; after the links returned: re-registered with ISRs "
             f"full in {back:.1f} s, LEO = HW everywhere {quiet:.1f} s after the writers stopped; "
             f"acked {r.acked}, read {r.read}, lost {r.lost}, duplicated {r.duplicated}")
    assert moved < SESSION_MS / 1000 + 30
