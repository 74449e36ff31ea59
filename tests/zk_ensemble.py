"""A 3-node ZooKeeper ensemble on loopback, and kwire clusters over it, for fault tests.

* ``ZooKeeperEnsemble`` — three ``QuorumPeerMain`` processes (the Debian
  ``zookeeper`` package's jar, as ``cluster_fixtures.ZooKeeperServer``), each
  with its own dataDir and ``myid``, client port, quorum port and election
  port, free ports on 127.0.0.1, or with ``hosts`` on a loopback address of
  each member's own (client, quorum and election ports, ``server.N=addr:...``
  and ``clientPortAddress``), so that the nemesis can cut a member off by its
  address; with ``uids`` each member runs as a uid of its own, for the links
  it opens itself (ZooKeeper's quorum and election connections leave from
  127.0.0.1 whatever the member's address: ``Firewall.cut_owner`` cuts them).
  ``connect`` lists the three client ports. A member can be killed (SIGKILL), paused (SIGSTOP), resumed and
  started again with its data; its ``mode()`` asks it (``srvr``) whether it is
  the leader, a follower, or out of a quorum.
* ``zk_ensemble`` fixture — a started ensemble of the test's own (tests kill
  its members), always stopped (SIGCONT, SIGTERM, then SIGKILL).
* ``zookeeper`` fixture — the ensemble, so that ``cluster_fixtures.make_cluster``
  in a module importing it builds clusters whose ``zookeeper.connect`` lists
  all three servers (import ``make_cluster`` and ``tcp_proxy`` too).
* ``make_ensemble_cluster(n, ..., zk_proxies=False)`` fixture — that, and
  with ``zk_proxies=True`` a ``TcpProxy`` per (broker, ZooKeeper server) in
  between, so ``isolate_from_zookeeper(cluster, id)`` can cut one broker's
  ZooKeeper links while it keeps its clients and replication.
* ``wait_isr_full`` (while writes go on) and ``wait_recovered`` (once they
  stopped: full ISRs and one LEO = HW value on every replica).
* ``replica_offsets(cluster, topic, partitions)`` — every replica's log end
  offset (ListOffsets with the debugging replica id -2, answered by followers
  too) and high watermark (the broker's ``replication-offset-checkpoint``;
  the cluster must run with a short ``log.flush.offset.checkpoint.interval.ms``).

Readiness is waited for (a kazoo session through the member, or metadata), never
slept for. Not here: the faults' schedules and checks (the tests).
"""

from __future__ import annotations

import os
import signal
import socket
import time

import pytest

from cluster_fixtures import TICK_MS, Cluster, ZooKeeperServer, _need_zookeeper, free_port
from heavy_starts import heavy_start
from verifier import wait_for

ENSEMBLE_SIZE = 3


def _free_ports(n: int, host: str = "127.0.0.1") -> list[int]:
    ports: list[int] = []
    while len(ports) < n:
        p = free_port(host)
        if p not in ports:
            ports.append(p)
    return ports


class EnsembleMember(ZooKeeperServer):
    """One quorum peer; ``configure`` writes its zoo.cfg (with every peer) and ``myid``."""

    def __init__(self, base_dir: str, myid: int, ports: tuple[int, int, int], host: str = "127.0.0.1") -> None:
        super().__init__(base_dir, host)
        self.myid = myid
        self.port, self.quorum_port, self.election_port = ports
        self.paused = False

    def configure(self, members: list["EnsembleMember"]) -> None:
        with open(os.path.join(self.data_dir, "myid"), "w") as f:
            f.write(f"{self.myid}\n")
        peers = "".join(f"server.{m.myid}={m.host}:{m.quorum_port}:{m.election_port}\n" for m in members)
        with open(self.cfg, "w") as f:
            # syncLimit/initLimit in ticks: a follower that stops answering for 2 s leaves the quorum
            f.write(f"tickTime={TICK_MS}\ninitLimit=40\nsyncLimit=8\n"
                    f"dataDir={self.data_dir}\nclientPort={self.port}\nclientPortAddress={self.host}\n"
                    "admin.enableServer=false\n4lw.commands.whitelist=ruok,srvr,mntr\nmaxClientCnxns=0\n"
                    f"minSessionTimeout={2 * TICK_MS}\nmaxSessionTimeout=60000\n"
                    "electionPortBindRetry=20\n" + peers)

    def mode(self, timeout: float = 2.0) -> str:
        """"leader", "follower", or "down" (not running, paused, or not in a quorum)."""
        if not self.alive or self.paused:
            return "down"
        try:
            with socket.create_connection((self.host, self.port), timeout=timeout) as s:
                s.sendall(b"srvr")
                data = b""
                while chunk := s.recv(4096):
                    data += chunk
        except OSError:
            return "down"
        for line in data.decode(errors="replace").splitlines():
            if line.startswith("Mode:"):
                return line.split(":", 1)[1].strip()
        return "down"  # "This ZooKeeper instance is not currently serving requests"

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL (kill -9); waits for the exit."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
        self.paused = False
        self._log.close()

    def pause(self) -> None:
        os.kill(self.proc.pid, signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        if self.alive:
            os.kill(self.proc.pid, signal.SIGCONT)
        self.paused = False

    def stop(self) -> None:
        if self.alive:
            os.kill(self.proc.pid, signal.SIGCONT)
        self.paused = False
        super().stop()


class ZooKeeperEnsemble:
    """Three quorum peers (ids 1..3) on 127.0.0.1, or member ``i`` on ``hosts[i - 1]``."""

    def __init__(self, base_dir: str, size: int = ENSEMBLE_SIZE, hosts: list[str] | None = None,
                 uids: list[int] | None = None) -> None:
        hosts = hosts or ["127.0.0.1"] * size
        assert len(hosts) == size, (size, hosts)
        ports = {h: iter(_free_ports(3 * hosts.count(h), h)) for h in hosts}  # distinct per address
        self.members = [EnsembleMember(os.path.join(base_dir, f"zk-{i}"), i,
                                       (next(ports[h]), next(ports[h]), next(ports[h])), h)
                        for i, h in enumerate(hosts, 1)]
        for m in self.members:
            m.configure(self.members)
        for m, uid in zip(self.members, uids or ()):  # each its own uid: its base_dir must be its own
            m.uid = uid
            for root, dirs, files in os.walk(m.base_dir):
                for name in [root] + [os.path.join(root, n) for n in dirs + files]:
                    os.chown(name, uid, uid)

    @property
    def connect(self) -> str:
        return ",".join(m.connect for m in self.members)

    def member(self, myid: int) -> EnsembleMember:
        return self.members[myid - 1]

    def start(self, timeout: float = 90.0) -> None:
        with heavy_start():  # three JVMs: one of the run's limited heavy starts (tests/heavy_starts.py)
            for m in self.members:
                m.spawn()
            for m in self.members:
                m._wait_ready(timeout)
            self.wait_quorum(timeout)

    def restart(self, myid: int, timeout: float = 90.0) -> None:
        """Start a killed member again (same data, ports and id) and wait until it serves."""
        self.member(myid).start(timeout)

    def modes(self) -> dict[int, str]:
        return {m.myid: m.mode() for m in self.members}

    def leader(self, timeout: float = 60.0) -> int:
        return self.wait_quorum(timeout)

    def wait_quorum(self, timeout: float = 60.0) -> int:
        """Until one member says it leads and a majority serve; returns the leader's id."""
        deadline = time.monotonic() + timeout
        while True:
            modes = self.modes()
            leaders = [i for i, m in modes.items() if m == "leader"]
            serving = [i for i, m in modes.items() if m in ("leader", "follower")]
            if len(leaders) == 1 and len(serving) > len(self.members) // 2:
                return leaders[0]
            if time.monotonic() > deadline:
                raise AssertionError(f"no ZooKeeper quorum after {timeout} s: {modes}")
            time.sleep(0.1)

    def wait_serving(self, ids, timeout: float = 60.0) -> None:
        """Until every member in ``ids`` is a leader or follower again."""
        deadline = time.monotonic() + timeout
        while True:
            modes = self.modes()
            if all(modes[i] in ("leader", "follower") for i in ids):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"ZooKeeper members {sorted(ids)} not serving after {timeout} s: {modes}")
            time.sleep(0.1)

    def stop(self) -> None:
        for m in self.members:
            m.stop()

    def tail(self) -> str:
        return "\n".join(f"--- zookeeper {m.myid} ---\n{m.tail()}" for m in self.members)


@pytest.fixture
def zk_ensemble(tmp_path, request):
    _need_zookeeper()
    failed_before = request.session.testsfailed
    ens = ZooKeeperEnsemble(str(tmp_path / "ensemble"))
    try:
        ens.start()
        yield ens
    finally:
        ens.stop()
        if request.session.testsfailed > failed_before:
            print(ens.tail())


@pytest.fixture
def zookeeper(zk_ensemble):
    """In a module that imports it: ``cluster_fixtures.make_cluster`` runs over the ensemble."""
    return zk_ensemble


@pytest.fixture
def make_ensemble_cluster(zk_ensemble, make_cluster, tcp_proxy):
    """``make_ensemble_cluster(n=3, overrides=None, session_timeout_ms=6000, env=None,
    zk_proxies=False)``: ``make_cluster`` over ``zk_ensemble`` (``cluster.ensemble``); with
    ``zk_proxies``, each broker reaches each ZooKeeper server through a ``tcp_proxy`` of its own
    (``cluster.zk_proxies``: broker id -> its three proxies)."""

    def make(n: int = 3, overrides: dict | None = None, session_timeout_ms: int = 6000,
             env: dict | None = None, zk_proxies: bool = False) -> Cluster:
        by_broker = {b: [tcp_proxy(m.port) for m in zk_ensemble.members] for b in range(1, n + 1)} \
            if zk_proxies else {}
        zk_hosts = {b: ",".join(p.address for p in ps) for b, ps in by_broker.items()}
        c = make_cluster(n, overrides, session_timeout_ms, zk_hosts=zk_hosts, env=env)
        c.ensemble, c.zk_proxies = zk_ensemble, by_broker
        return c

    return make


def isolate_from_zookeeper(cluster: Cluster, node_id: int) -> None:
    """Cut every link of broker ``node_id`` to ZooKeeper (its proxies refuse and drop)."""
    for p in cluster.zk_proxies[node_id]:
        p.cut()


def reconnect_to_zookeeper(cluster: Cluster, node_id: int) -> None:
    for p in cluster.zk_proxies[node_id]:
        p.restore()


def replica_offsets(cluster: Cluster, topic: str, partitions) -> dict[tuple[int, int], tuple[int, int]]:
    """(partition, broker id) -> (log end offset, checkpointed high watermark) for every replica
    on a serving broker. A replica whose broker does not answer is left out."""
    from kwire.client import KafkaClient
    from kwire.log.checkpoint import read_offsets
    from kwire.protocol.generated.list_offsets_request import (ListOffsetsPartition, ListOffsetsRequest,
                                                               ListOffsetsTopic)

    md = cluster.metadata([topic]).topics[topic]
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for b in cluster.brokers:
        if not b.serving:
            continue
        mine = [p for p in partitions if b.node_id in md.partitions[p].replicas]
        if not mine:
            continue
        try:
            with KafkaClient(b.bootstrap, timeout=5) as kc:
                resp = kc.request(2, ListOffsetsRequest(replica_id=-2, topics=[ListOffsetsTopic(
                    name=topic, partitions=[ListOffsetsPartition(partition_index=p, timestamp=-1)
                                            for p in mine])]))
        except Exception:
            continue
        try:
            hws = read_offsets(os.path.join(b.data_dir, "replication-offset-checkpoint"))
        except Exception:
            hws = {}
        for rp in resp.topics[0].partitions:
            if rp.error_code == 0:
                out[(rp.partition_index, b.node_id)] = (rp.offset, hws.get((topic, rp.partition_index), -1))
    return out


def isr_full(cluster: Cluster, topic: str, partitions) -> bool:
    """Every partition has a leader and all the cluster's brokers in its ISR."""
    try:
        md = cluster.metadata([topic]).topics[topic]
    except Exception:
        return False
    n = len(cluster.brokers)
    return all(md.partitions[p].leader >= 0 and len(md.partitions[p].isr) == n for p in partitions)


def wait_isr_full(cluster: Cluster, topic: str, partitions, timeout: float = 90.0) -> float:
    """Seconds until ``isr_full`` (writes may go on meanwhile)."""
    t0 = time.monotonic()
    wait_for(lambda: isr_full(cluster, topic, partitions), timeout, f"full ISRs of {topic}")
    return time.monotonic() - t0


def fully_recovered(cluster: Cluster, topic: str, partitions) -> bool:
    """``isr_full``, and every replica's LEO and HW are one value (only reachable once writes stop)."""
    n = len(cluster.brokers)
    if not isr_full(cluster, topic, partitions):
        return False
    offs = replica_offsets(cluster, topic, partitions)
    for p in partitions:
        values = {v for (q, _b), (leo, hw) in offs.items() if q == p for v in (leo, hw)}
        if len([k for k in offs if k[0] == p]) != n or len(values) != 1:
            return False
    return True


def wait_recovered(cluster: Cluster, topic: str, partitions, timeout: float = 90.0) -> float:
    """Seconds until ``fully_recovered`` (writers stopped)."""
    t0 = time.monotonic()
    try:
        wait_for(lambda: fully_recovered(cluster, topic, partitions), timeout,
                 f"full ISRs and one LEO = HW on every replica of {topic}")
    except AssertionError as e:
        raise AssertionError(f"{e}; (partition, broker) -> (LEO, HW): "
                             f"{replica_offsets(cluster, topic, partitions)}") from None
    return time.monotonic() - t0
