"""ZooKeeper ensemble members partitioned by address (not killed), under the queue workload.

A 3-node ZooKeeper ensemble (``tests/zk_ensemble.py``) whose members each
listen on a loopback address of their own (client, quorum and election ports:
127.B.C.7-9), three brokers on 127.B.C.11-13, the clients on 127.0.0.1 (never
cut). ``kwire.nemesis`` drops the links of a member, by address, to the other
members and to every broker; the member process keeps running.

* One member partitioned (the ZooKeeper leader, for 2 session timeouts): the
  other two elect a leader and keep the quorum, each broker whose session was
  on the cut member moves it to a live member (or, if its reconnection took
  longer than the session timeout on a starved machine, registers again with a
  new session: reported), every broker is registered throughout the window's
  end, and acks=all writes go on.
* Two members partitioned (each alone; the third, the only one the brokers
  reach, is out of quorum): as Kafka's ZooKeeper-mode brokers, leaders keep
  appending and replicating (acks=all acknowledged throughout), and nothing that
  needs ZooKeeper happens: a CreateTopics is refused within its timeout, never
  created. After the heal the quorum forms again, the same sessions resume
  (ZooKeeper expires sessions only through a quorum leader, and a new leader
  gives each one a fresh timeout), and a topic can be created again: the time
  to each is measured.

Both: the checker (``kwire.nemesis.checker``) over every replica's files finds
nothing lost, duplicated or out of order, every replica equal after the heal.
Needs root and iptables (skipped with the reason otherwise).
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
import time
import uuid

import pytest
from cluster_fixtures import Cluster, _need_zookeeper
from nemesis_workload import CI_RATE, QueueWorkload, longest_gap, stopped_and_checked
from verifier import report, wait_for
from zk_ensemble import ZooKeeperEnsemble, isr_full

from kwire.client import KafkaClient, KafkaClientError, NewTopic
from kwire.nemesis import NemesisError, Topology

pytest.importorskip("confluent_kafka")
pytest.importorskip("kazoo")

# one ensemble and cluster for the module's tests (``zk_partition_cluster``): one xdist unit
pytestmark = [pytest.mark.ensemble, pytest.mark.timeout(300), pytest.mark.xdist_group("nemesis-zookeeper")]

SESSION_MS = 6000
OVERRIDES = {"min.insync.replicas": "2", "unclean.leader.election.enable": "false",
             "replica.lag.time.max.ms": "6000", "offsets.topic.replication.factor": "3"}
ZK = ("zk1", "zk2", "zk3")
ZK_UIDS = (61001, 61002, 61003)  # no account needed; only the owner match tells them apart
BROKERS = ("1", "2", "3")


class _ZkPartitionCluster:
    """The ensemble and cluster of the module, with the firewall (``close`` removes them all)."""

    def __init__(self, base_dir: str, fw) -> None:
        self.fw, self.ens, self.c = fw, None, None
        block = f"127.{random.randint(100, 250)}.{random.randint(0, 255)}"
        # the members run as uids of their own (their quorum links leave from 127.0.0.1: cut by owner),
        # in a directory those uids can reach (pytest's tmp_path is root's alone)
        self.zk_dir = tempfile.mkdtemp(prefix="kwire-zk-partition-")
        os.chmod(self.zk_dir, 0o755)
        self.ens = ZooKeeperEnsemble(self.zk_dir, hosts=[f"{block}.{7 + i}" for i in range(3)], uids=list(ZK_UIDS))
        self.ens.start()
        hosts = {i: f"{block}.{10 + i}" for i in (1, 2, 3)}
        self.c = Cluster(self.ens, os.path.join(base_dir, "cluster"), 3, OVERRIDES, SESSION_MS, hosts=hosts)
        self.c.start()
        self.topo = Topology({**{f"zk{m.myid}": m.host for m in self.ens.members},
                              **{str(i): h for i, h in hosts.items()}})

    def assert_healthy(self) -> None:
        """What each test starts from (also on the ensemble and cluster the module's previous test
        left): no link cut, the three members serving with a quorum, the three brokers running and
        registered (seen by every broker), every partition led with its full ISR."""
        assert self.fw.rules() == [], f"links still cut: {self.fw.rules()}"
        self.ens.wait_serving([1, 2, 3], 60)
        self.ens.wait_quorum(60)
        assert all(b.alive and not b.paused for b in self.c.brokers)
        wait_for(lambda: all(_registered(self.c, b) == {1, 2, 3} for b in (1, 2, 3)), 60,
                 "every broker registered, seen by every broker, before the fault")
        wait_for(lambda: all(p.leader > 0 and sorted(p.isr) == sorted(p.replicas)
                             for t in self.c.metadata(None).topics.values() for p in t.partitions.values()),
                 60, "every partition led with its full ISR before the fault")

    def close(self, logs: bool) -> None:
        self.fw.heal()
        if self.c is not None:
            self.c.close()
            if logs:
                print(self.c.log_text())
        if self.ens is not None:
            self.ens.stop()
            if logs:
                print(self.ens.tail())
        shutil.rmtree(self.zk_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def _zk_partition_pool(tmp_path_factory):
    """The module's firewall and the ensemble + cluster its tests share (one start for both)."""
    _need_zookeeper()
    from kwire.nemesis.firewall import Firewall

    try:
        fw = Firewall().install()
    except NemesisError as e:
        pytest.skip(f"the partition nemesis cannot run here: {e}")
    pool = {"fw": fw, "made": None, "dir": tmp_path_factory.mktemp("zk-partition")}
    try:
        yield pool
    finally:
        try:
            if pool["made"] is not None:
                pool["made"].close(logs=False)
        finally:
            fw.close()


@pytest.fixture
def zk_partition_cluster(_zk_partition_pool, request):
    """(cluster, ensemble, firewall, topology): members on .7-.9, brokers on .11-.13 of a random
    127/8 /24, shared by the module's tests (asserted healthy before each); the firewall healed
    after each test; a test that fails takes them down (logs printed): the next starts afresh."""
    pool, failed_before = _zk_partition_pool, request.session.testsfailed
    if pool["made"] is None:
        pool["made"] = _ZkPartitionCluster(str(pool["dir"] / uuid.uuid4().hex[:6]), pool["fw"])
    made = pool["made"]
    try:
        made.assert_healthy()
        yield made.c, made.ens, made.fw, made.topo
    finally:
        if request.session.testsfailed > failed_before:
            pool["made"] = None
            made.close(logs=True)
        else:
            made.fw.heal()


def _cut_member(fw, topo, name: str) -> None:
    """Member ``name`` reaches neither the other members nor any broker: by address from and to
    the brokers (they bind their own), by owner between members (their uids, ``ZK_UIDS``)."""
    fw.cut(topo.isolate(name, BROKERS))
    uid = ZK_UIDS[ZK.index(name)]
    others = [n for n in ZK if n != name]
    fw.cut_owner(uid, [topo.address(n) for n in others])
    for n in others:
        fw.cut_owner(ZK_UIDS[ZK.index(n)], [topo.address(name)])


def _registered(c, via: int) -> set[int]:
    return set(c.metadata([], bootstrap=c.broker(via).bootstrap).brokers)


def _start_workload(c) -> tuple[QueueWorkload, str]:
    topic = f"zkq-{uuid.uuid4().hex[:8]}"
    c.create_topic(topic, partitions=1, replication_factor=3, assignment={0: [1, 2, 3]})
    w = QueueWorkload(c.bootstrap, topic, rate=CI_RATE).start()
    wait_for(lambda: w.acknowledged >= 100, 60, "100 acknowledged writes before the fault")
    return w, topic


def _finish(c, w: QueueWorkload, topic: str):
    """Stop the workload and check it against every replica: no anomaly, a real amount written."""
    result = stopped_and_checked(c, w, topic)
    assert result.valid, result.summary()
    assert result.acknowledged > 200, f"the workload barely wrote: {result.counts()}"
    return result


def test_one_zookeeper_member_partitioned(zk_partition_cluster, request, capsys):
    c, ens, fw, topo = zk_partition_cluster
    w, topic = _start_workload(c)
    controller = c.controller_id()
    cut = f"zk{ens.leader()}"
    t0 = time.monotonic()
    _cut_member(fw, topo, cut)
    # the cut leader steps down after syncLimit ticks; the other two elect one of them
    new_leader = wait_for(lambda: next((i for i, m in ens.modes().items() if m == "leader" and f"zk{i}" != cut),
                                       None), 60, f"a ZooKeeper leader other than {cut}")
    elected = time.monotonic() - t0
    # two session timeouts: a session left on the cut member had to move, or it expired
    window = 2 * SESSION_MS / 1000
    wait_for(lambda: time.monotonic() > t0 + window, window + 30, "two session timeouts with the member cut")
    acked_late = sum(1 for t in w.ack_times if t > t0 + SESSION_MS / 1000)
    assert acked_late > 0, "no acks=all write acknowledged after a session timeout with one member cut"
    # a session on the cut member moves to a live one if its broker reconnects within the session
    # timeout (on a starved machine it may not: the broker then registers again with a new one)
    wait_for(lambda: all(_registered(c, b) == {1, 2, 3} for b in (1, 2, 3)), SESSION_MS / 1000 + 30,
             "every broker registered, seen by every broker, with one member cut")
    new_sessions = [b.node_id for b in c.brokers if any("registering broker" in line for line in b.lines)]
    gap = longest_gap(w.ack_times, t0)
    fw.heal()
    t1 = time.monotonic()
    ens.wait_serving([1, 2, 3], 90)
    rejoined = time.monotonic() - t1
    wait_for(lambda: isr_full(c, topic, [0]), 60, "the full ISR after the heal")
    result = _finish(c, w, topic)
    report(request, capsys,
           f"ZooKeeper member {cut} (the leader) partitioned from members and brokers for {window:.0f} s: "
           f"new ZooKeeper leader zk{new_leader} after {elected:.1f} s, every broker registered (sessions lost and "
           f"registered again: brokers {new_sessions or 'none'}), controller {controller} -> {c.controller_id()}, "
           f"longest gap in acks {gap:.1f} s; member serving again {rejoined:.1f} s after "
           f"the heal; acknowledged {result.acknowledged}, {result.counts()}")


def _create_topic_code(c, name: str, timeout_ms: int) -> tuple[int, float]:
    """A CreateTopics (RF 3) through broker 1: (error code, seconds until the answer)."""
    t = time.monotonic()
    try:
        with KafkaClient(c.broker(1).bootstrap, timeout=timeout_ms / 1000 + 20) as kc:
            kc.create_topics([NewTopic(name, 1, 3, {}, {})], timeout_ms=timeout_ms)
        code = 0
    except KafkaClientError as e:
        code = e.code
    return code, time.monotonic() - t


def test_two_zookeeper_members_partitioned_quorum_lost(zk_partition_cluster, request, capsys):
    c, ens, fw, topo = zk_partition_cluster
    w, topic = _start_workload(c)
    leaders_before = c.leader_of(topic, 0)
    zl = ens.leader()
    gone = [zl, next(m.myid for m in ens.members if m.myid != zl)]
    left = ens.member(next(m.myid for m in ens.members if m.myid not in gone))
    t0 = time.monotonic()
    for myid in gone:
        _cut_member(fw, topo, f"zk{myid}")
    wait_for(lambda: left.mode() == "down", 30, f"zk{left.myid}, alone with the brokers, to leave the quorum")
    # no quorum: what needs ZooKeeper is refused within its timeout (never a success)
    code, took = _create_topic_code(c, "needs-zookeeper", 5000)
    assert code != 0, "a topic was created without a ZooKeeper quorum"
    assert took < 5 + 15, f"CreateTopics without a quorum answered after {took:.1f} s"
    window = 2 * SESSION_MS / 1000
    wait_for(lambda: time.monotonic() > t0 + window, window + 60, "two session timeouts without a quorum")
    t_heal = time.monotonic()
    during = sum(1 for t in w.ack_times if t0 + SESSION_MS / 1000 < t < t_heal)
    gap = longest_gap(w.ack_times, t0)
    md = c.metadata([topic])
    assert md.topics[topic].partitions[0].leader == leaders_before, "the leader changed without a quorum"
    # Kafka's ZooKeeper-mode leaders keep appending and replicating without ZooKeeper
    assert during > 0, "no acks=all write acknowledged while the quorum was lost"
    fw.heal()
    ens.wait_quorum(90)
    quorum_back = time.monotonic() - t_heal
    # the same sessions resume: every broker still registered, the full ISR, a topic can be created
    wait_for(lambda: all(_registered(c, b) == {1, 2, 3} for b in (1, 2, 3)) and isr_full(c, topic, [0]),
             60, "every broker registered with the full ISR after the heal")
    registered = time.monotonic() - t_heal
    wait_for(lambda: _create_topic_code(c, f"after-{uuid.uuid4().hex[:6]}", 5000)[0] == 0, 60,
             "a CreateTopics succeeding after the heal")
    writable = time.monotonic() - t_heal
    assert "needs-zookeeper" not in c.metadata(None).topics, \
        "the CreateTopics refused without a quorum was carried out later"
    result = _finish(c, w, topic)
    report(request, capsys,
           f"ZooKeeper members {['zk%d' % g for g in gone]} partitioned (zk{left.myid} alone with the brokers, out of "
           f"quorum) for {window:.0f} s: {during} acks=all writes acknowledged after the first session timeout, "
           f"longest gap {gap:.1f} s, leader unchanged, CreateTopics refused ({code}) in {took:.1f} s; after the "
           f"heal: quorum {quorum_back:.1f} s, every broker registered with full ISR {registered:.1f} s, "
           f"CreateTopics succeeding {writable:.1f} s; acknowledged {result.acknowledged}, {result.counts()}")
    assert writable <= SESSION_MS / 1000 + 30, f"metadata writes back {writable:.1f} s after the heal"
