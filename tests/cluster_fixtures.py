"""A real ZooKeeper server for cluster tests: the Debian ``zookeeper`` package's jars.

* ``zookeeper`` — one standalone server per test module on a free loopback
  port, data in a temporary dir; tests isolate themselves with a chroot each
  (``zk_chroot``).
* ``make_zookeeper()`` — servers of the test's own (for stopping and
  restarting ZooKeeper under a test); stopped at the end of the test.
* ``tcp_proxy(port)`` — a ``TcpProxy`` on 127.0.0.1 in front of a server
  (e.g. between one broker and ZooKeeper: ``make_cluster(zk_hosts={id:
  proxy.address})``); ``cut()`` drops every connection and refuses new ones,
  ``restore()`` accepts again; stopped at the end of the test.

A server is ready when a kazoo client connects (not after a sleep); it is
always stopped (SIGTERM, then SIGKILL), even when the test fails. Import the
fixtures into a test module: ``from cluster_fixtures import zookeeper``.
Skips (naming the package) when ZooKeeper's jar or java is missing; CI
installs it with scripts/setup-test-env.sh.
"""

from __future__ import annotations

import collections
import os
import random
import shutil
import signal
import socket
import subprocess
import time
import uuid

import pytest
from heavy_starts import heavy_start
from zk_cds import zk_archive_flags

JAR_DIRS = ("/usr/share/java", "/usr/share/zookeeper/lib", "/usr/share/zookeeper")
MAIN = "org.apache.zookeeper.server.quorum.QuorumPeerMain"
# A test's ZooKeeper lives seconds to minutes and serves a few clients: the C1 compiler alone
# (one compiler thread) and the serial collector cut its start's CPU by about a third
# (0.8 -> 0.55 CPU-s measured, 2026-11-28) with no difference a test can see.
ZK_JVM_FLAGS = ("-Xmx256m", "-Xshare:auto", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-XX:CICompilerCount=1")
TICK_MS = 250  # sessions may be as short as 2 ticks: tests use 2-4 s session timeouts


def zookeeper_jar() -> str | None:
    for d in JAR_DIRS:
        p = os.path.join(d, "zookeeper.jar")
        if os.path.exists(p):
            return p
    return None


def _ephemeral_low() -> int:
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


_PORTS = random.Random()
# Ports this process handed out lately: a port chosen but not bound yet (the second broker
# of a cluster while the first starts) or let go for a while (a broker stopped by a restart
# test) is free to ``bind`` but taken: it is never handed out twice in a row.
_HANDED: collections.deque[int] = collections.deque(maxlen=1000)


def free_port(host: str = "127.0.0.1") -> int:
    """A port free now, chosen BELOW the kernel's ephemeral range.

    A port from ``bind(host, 0)`` is an ephemeral one: every outgoing connection of the
    machine (clients, replica fetchers, ZooKeeper sessions) draws from the same range, so
    between the choice and the broker's bind (or while a broker of a restart test is down)
    a connection could take it: "Address already in use". Below the range only listeners
    bind. Each xdist worker draws from its own slice, so workers never race each other."""
    low = _ephemeral_low()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    base, span = 15000, max(1000, (low - 15000) // 8)
    start = base + (index % 8) * span
    for _ in range(200):
        port = _PORTS.randrange(start, min(start + span, low))
        if port in _HANDED:
            continue
        with socket.socket() as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            _HANDED.append(port)
            return port
    with socket.socket() as s:  # the slice is full: fall back to the kernel's choice
        s.bind((host, 0))
        return s.getsockname()[1]


class ZooKeeperServer:
    """One standalone ZooKeeper; ``stop()`` and ``start()`` again keep its data and port."""

    def __init__(self, base_dir: str, host: str = "127.0.0.1") -> None:
        self.base_dir = base_dir
        self.host = host  # the address it listens on (a loopback address of its own for the nemesis)
        self.data_dir = os.path.join(base_dir, "data")
        os.makedirs(self.data_dir, exist_ok=True)
        self.port = free_port(host)
        self.cfg = os.path.join(base_dir, "zoo.cfg")
        with open(self.cfg, "w") as f:
            f.write(f"tickTime={TICK_MS}\n"
                    f"dataDir={self.data_dir}\n"
                    f"clientPort={self.port}\n"
                    f"clientPortAddress={host}\n"
                    "admin.enableServer=false\n"
                    "4lw.commands.whitelist=ruok,srvr\n"
                    "maxClientCnxns=0\n"
                    f"minSessionTimeout={2 * TICK_MS}\n"
                    "maxSessionTimeout=60000\n")
        self.proc: subprocess.Popen | None = None
        self.log_path = os.path.join(base_dir, "zookeeper.log")
        self.uid: int | None = None  # run as this uid (the nemesis cuts an ensemble member's links by owner)

    @property
    def connect(self) -> str:
        return f"{self.host}:{self.port}"

    def start(self, timeout: float = 60.0, wait: bool = True) -> None:
        """Start the server; ``wait=False`` returns at once (a quorum member serves only once a
        majority of its ensemble runs: start them all, then ``_wait_ready`` each)."""
        self.spawn()
        if wait:
            self._wait_ready(timeout)

    def spawn(self) -> None:
        """Start the process (not waiting for it: an ensemble member answers once a quorum is up)."""
        jar = zookeeper_jar()
        jvm = [*ZK_JVM_FLAGS, "-Dzookeeper.jmx.log4j.disable=true", "-cp", jar]
        cds = () if self.uid is not None else zk_archive_flags("java", jar, jvm, MAIN)  # tests/zk_cds.py
        self._log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            ["java", *jvm, *cds, MAIN, self.cfg],
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
            user=self.uid, group=self.uid)

    def _wait_ready(self, timeout: float) -> None:
        from kazoo.client import KazooClient
        from kazoo.handlers.threading import KazooTimeoutError

        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ZooKeeper exited with {self.proc.returncode}: {self.tail()}")
            client = KazooClient(self.connect, timeout=10)
            try:
                client.start(timeout=1.0)
                client.stop()
                return
            except KazooTimeoutError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"ZooKeeper did not answer within {timeout} s: {self.tail()}")
            finally:
                client.close()

    def tail(self) -> str:
        try:
            with open(self.log_path, "rb") as f:
                return f.read()[-2000:].decode(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        self._log.close()


def _need_zookeeper() -> None:
    if zookeeper_jar() is None:
        pytest.skip("ZooKeeper is not installed: apt-get install zookeeper (scripts/setup-test-env.sh)")
    if shutil.which("java") is None:
        pytest.skip("java is not installed (the zookeeper package needs a JRE)")


@pytest.fixture(scope="module")
def zookeeper(tmp_path_factory):
    _need_zookeeper()
    server = ZooKeeperServer(str(tmp_path_factory.mktemp("zookeeper")))
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def make_zookeeper(tmp_path):
    _need_zookeeper()
    servers: list[ZooKeeperServer] = []

    def make() -> ZooKeeperServer:
        server = ZooKeeperServer(str(tmp_path / f"zookeeper-{len(servers)}"))
        servers.append(server)
        server.start()
        return server

    try:
        yield make
    finally:
        for s in servers:
            s.stop()


class TcpProxy:
    """A TCP relay on 127.0.0.1 in front of ``target_port`` that a test can cut and restore.

    One thread accepts; two threads per connection copy bytes each way. ``cut()``
    closes the listening socket (new connections are refused: ECONNREFUSED) and
    every relayed connection (both sides see the close at once); ``restore()``
    listens on the same port again. Nothing is buffered across a cut.
    """

    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        import threading

        self.target = (target_host, target_port)
        self.port = free_port()
        self._lock = threading.Lock()
        self._conns: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._acceptor = None
        self.accepted = 0  # connections relayed so far (all lives)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        """Listen (again) on this proxy's port; retried while the port is briefly taken."""
        import threading

        deadline = time.monotonic() + timeout
        while True:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("127.0.0.1", self.port))
                break
            except OSError:
                s.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        s.listen(64)
        s.settimeout(0.1)  # the accept loop polls, so cut() needs no wake-up trick
        self._listener = s
        self._acceptor = threading.Thread(target=self._accept, args=(s,), daemon=True,
                                          name=f"tcp-proxy-{self.port}")
        self._acceptor.start()

    restore = start

    def _accept(self, listener: socket.socket) -> None:
        import threading

        while self._listener is listener:
            try:
                client, _ = listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return  # closed by cut()
            try:
                upstream = socket.create_connection(self.target, timeout=10)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            client.settimeout(None)
            with self._lock:
                if self._listener is not listener:  # cut meanwhile
                    client.close()
                    upstream.close()
                    return
                self._conns |= {client, upstream}
                self.accepted += 1
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            self._close_pair(src, dst)

    def _close_pair(self, *socks: socket.socket) -> None:
        for s in socks:
            with self._lock:
                self._conns.discard(s)
            try:
                s.shutdown(socket.SHUT_RDWR)  # wakes the other pump's recv
            except OSError:
                pass
            s.close()

    def cut(self) -> None:
        """Refuse new connections and drop every relayed one."""
        with self._lock:
            listener, self._listener = self._listener, None
            conns, self._conns = list(self._conns), set()
        if listener is not None:
            listener.close()
        if self._acceptor is not None:
            self._acceptor.join(5)
        self._close_pair(*conns)

    stop = cut


@pytest.fixture
def tcp_proxy():
    """``tcp_proxy(port)``: a started ``TcpProxy`` to 127.0.0.1:port; every one is stopped at the end."""
    proxies: list[TcpProxy] = []

    def make(port: int) -> TcpProxy:
        p = TcpProxy(port)
        proxies.append(p)
        p.start()
        return p

    try:
        yield make
    finally:
        for p in proxies:
            p.stop()


@pytest.fixture
def zk_chroot() -> str:
    """A chroot of this test's own (ZkMetadata creates it)."""
    return f"/kwire-test-{uuid.uuid4().hex[:10]}"


# -- kwire clusters over the ZooKeeper above ------------------------------------------------------

class ClusterBroker:
    """One ``kwire serve`` subprocess of a cluster; keeps its id, data dir and port across restarts."""

    def __init__(self, cluster: "Cluster", node_id: int) -> None:
        self.cluster = cluster
        self.node_id = node_id
        self.host = cluster.host_of(node_id)
        self.port = free_port(self.host)
        self.data_dir = os.path.join(cluster.base_dir, f"broker-{node_id}")
        os.makedirs(self.data_dir, exist_ok=True)
        self.proc: subprocess.Popen | None = None
        self.paused = False
        self.lines: list[str] = []
        self._pump = None
        self._serving = None

    @property
    def bootstrap(self) -> str:
        return f"{self.host}:{self.port}"

    def config(self) -> dict[str, str]:
        c = self.cluster
        cfg = {"broker.id": str(self.node_id), "listeners": f"{c.listener}://{self.host}:{self.port}",
               "log.dirs": self.data_dir, "zookeeper.connect": c.connect_for(self.node_id),
               "zookeeper.session.timeout.ms": str(c.session_timeout_ms),
               "group.initial.rebalance.delay.ms": "0",
               "offsets.topic.replication.factor": str(min(3, c.size)),
               "controlled.shutdown.retry.backoff.ms": "500"}
        cfg.update({k: str(v) for k, v in c.overrides.items()})
        cfg.update({k: str(v) for k, v in c.per_broker.get(self.node_id, {}).items()})
        return cfg

    def spawn(self) -> None:
        """Start the process (not waiting for it)."""
        import sys
        import threading

        args = [sys.executable, "-m", "kwire", "serve"]
        for k, v in self.config().items():
            args += ["--override", f"{k}={v}"]
        self.lines.append(f"----- broker {self.node_id} starting -----")
        self.paused = False
        env = {**os.environ, **self.cluster.env.get(self.node_id, {})}
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     stdin=subprocess.DEVNULL, start_new_session=True, env=env)
        serving = self._serving = threading.Event()
        proc = self.proc

        def pump() -> None:
            for line in proc.stdout:
                self.lines.append(line.rstrip("\n"))
                if "kwire serving on" in line:
                    serving.set()
            serving.set()

        self._pump = threading.Thread(target=pump, daemon=True)
        self._pump.start()

    def wait_started(self, timeout: float = 60.0) -> None:
        """Until it serves and its own metadata lists it (registered, watch seen)."""
        if not self._serving.wait(timeout) or self.proc.poll() is not None:
            self._failed_start("did not start")
        deadline = time.monotonic() + timeout
        while True:
            try:
                md = _metadata(self.bootstrap, security=self.cluster.client_security)
                if self.node_id in md.brokers:
                    return
            except Exception:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self._failed_start("did not register")
            time.sleep(0.1)

    def _failed_start(self, what: str) -> None:
        rc = self.proc.poll()
        self.kill()
        raise RuntimeError(f"broker {self.node_id} {what} (exit code {rc}):\n{self.log_text()}")

    def start(self, timeout: float = 60.0) -> None:
        """Start again (same id, dir and port) and wait until it is registered.

        After a ``kill()`` the previous life's registration stays in ZooKeeper until its
        session expires (and Kafka refuses to register over it): this waits for that first.
        """
        assert not self.alive, f"broker {self.node_id} is running"
        others = [b for b in self.cluster.brokers if b is not self and b.serving]
        if self.proc is not None and others:
            self.cluster.wait_until(lambda md: self.node_id not in md.brokers,
                                    self.cluster.session_timeout_ms / 1000 + 30,
                                    f"the previous registration of broker {self.node_id} to expire")
        self.spawn()
        self.wait_started(timeout)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self) -> int:
        return self.proc.pid

    def log_text(self) -> str:
        return "\n".join(self.lines)

    def _signal(self, sig) -> None:
        if self.alive:
            os.kill(self.proc.pid, sig)

    def kill(self) -> int | None:
        """SIGKILL; waits for the exit."""
        if self.proc is None:
            return None
        self._signal(signal.SIGCONT)
        self._signal(signal.SIGKILL)
        rc = self.proc.wait(30)
        self._pump.join(5)
        return rc

    def pause(self) -> None:
        self._signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        self._signal(signal.SIGCONT)
        self.paused = False

    @property
    def serving(self) -> bool:
        """Running and not paused."""
        return self.alive and not self.paused

    def stop(self, timeout: float = 90.0) -> int:
        """SIGTERM (controlled shutdown); waits for the exit and returns its code."""
        self._signal(signal.SIGCONT)
        self._signal(signal.SIGTERM)
        rc = self.proc.wait(timeout)
        self._pump.join(5)
        return rc


def _metadata(bootstrap: str, topics=None, timeout: float = 5.0, security=None):
    from kwire.client import KafkaClient

    with KafkaClient(bootstrap, timeout=timeout, security=security) as client:
        return client.metadata(topics)


class Cluster:
    """N kwire brokers (ids 1..N) sharing a ZooKeeper chroot of their own."""

    def __init__(self, zk: ZooKeeperServer, base_dir: str, size: int, overrides: dict | None,
                 session_timeout_ms: int, per_broker: dict | None = None,
                 zk_hosts: dict | None = None, env: dict | None = None, listener: str = "PLAINTEXT",
                 client_security=None, hosts: dict | None = None) -> None:
        self.zk = zk
        self.hosts = dict(hosts or {})  # broker id -> the address it listens on (default 127.0.0.1)
        # each broker's one listener (its port is the broker's), and the kwire.client security the
        # fixture's own requests use on it (kwire.security.client.ClientSecurity, None: plaintext)
        self.listener, self.client_security = listener, client_security
        self.base_dir = base_dir
        self.size = size
        self.chroot = f"/kwire-cluster-{uuid.uuid4().hex[:10]}"
        self.connect = zk.connect + self.chroot
        self.session_timeout_ms = session_timeout_ms
        self.overrides = dict(overrides or {})
        self.per_broker = dict(per_broker or {})
        self.zk_hosts = dict(zk_hosts or {})  # broker id -> host:port it reaches ZooKeeper at
        self.env = dict(env or {})  # broker id -> environment variables of its process (over ours)
        self.brokers = [ClusterBroker(self, i) for i in range(1, size + 1)]

    def host_of(self, node_id: int) -> str:
        return self.hosts.get(node_id, "127.0.0.1")

    def connect_for(self, node_id: int) -> str:
        """``zookeeper.connect`` of one broker: the cluster's, or through its ``zk_hosts`` entry."""
        hosts = self.zk_hosts.get(node_id)
        return self.connect if hosts is None else hosts + self.chroot

    @property
    def bootstrap(self) -> str:
        return ",".join(b.bootstrap for b in self.brokers)

    @property
    def live_bootstrap(self) -> str:
        """The brokers running and not paused (a paused broker accepts connections, never answers)."""
        return ",".join(b.bootstrap for b in self.brokers if b.serving)

    def broker(self, node_id: int) -> ClusterBroker:
        return self.brokers[node_id - 1]

    def start(self, timeout: float = 90.0) -> None:
        # at most KWIRE_TEST_HEAVY_STARTS cluster starts of the run at a time (tests/heavy_starts.py)
        with heavy_start():
            for b in self.brokers:
                b.spawn()
            for b in self.brokers:
                b.wait_started(timeout)
            ids = {b.node_id for b in self.brokers}
            self.wait_until(lambda md: set(md.brokers) == ids and md.controller_id in ids, timeout=timeout,
                            what=f"all {self.size} brokers registered and a controller elected")

    def metadata(self, topics=None, bootstrap: str | None = None):
        """A fresh Metadata view (any broker running and not paused)."""
        errors = []
        for b in ([bootstrap] if bootstrap else [x.bootstrap for x in self.brokers if x.serving]):
            try:
                return _metadata(b, topics, security=self.client_security)
            except Exception as e:  # a stopped or paused broker: the next one
                errors.append(f"{b}: {e}")
        raise RuntimeError("no broker answered Metadata: " + "; ".join(errors))

    def wait_until(self, predicate, timeout: float = 30.0, what: str = "the condition",
                   topics=None, bootstrap: str | None = None):
        """Poll fresh metadata until ``predicate(md)`` holds; returns that metadata."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                md = self.metadata(topics, bootstrap)
                last = md
                if predicate(md):
                    return md
            except Exception as e:
                last = e
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}; last metadata: {last}")
            time.sleep(0.1)

    def describe(self, topic: str):
        """The topic's TopicInfo (partitions with leader, epoch, replicas, ISR)."""
        return self.metadata([topic]).topics[topic]

    def leader_of(self, topic: str, partition: int) -> int:
        return self.describe(topic).partitions[partition].leader

    def controller_id(self) -> int:
        return self.metadata([]).controller_id

    def create_topic(self, name: str, partitions: int = 1, replication_factor: int = 3,
                     configs: dict | None = None, assignment: dict | None = None, timeout: float = 60.0):
        """CreateTopics through the controller, then wait until every partition has a leader (and
        the topic is in every live broker's metadata); returns its TopicInfo."""
        from kwire.client import KafkaClient, NewTopic

        nt = NewTopic(name, partitions, replication_factor, {k: str(v) for k, v in (configs or {}).items()},
                      assignment)
        with KafkaClient(self.live_bootstrap, timeout=timeout, security=self.client_security) as c:
            c.create_topics([nt], timeout_ms=int(timeout * 1000))
        n = len(assignment) if assignment else partitions

        def ready(md) -> bool:
            t = md.topics.get(name)
            return (t is not None and t.error_code == 0 and len(t.partitions) == n
                    and all(p.leader >= 0 for p in t.partitions.values()))

        for b in self.brokers:
            if b.serving:
                self.wait_until(ready, timeout, f"topic {name} with leaders on broker {b.node_id}",
                                topics=[name], bootstrap=b.bootstrap)
        return self.describe(name)

    def create_topic_zk(self, name: str, partitions: int = 1, replication_factor: int = 3,
                        configs: dict | None = None, assignment: dict | None = None, timeout: float = 60.0):
        """Create a topic by writing ZooKeeper directly (as ``kafka-topics.sh --zookeeper`` did):
        config and assignment znodes; the controller makes the partition states. Waits for
        leaders as ``create_topic`` does; returns the TopicInfo."""
        from kazoo.client import KazooClient

        from kwire.cluster import zk_layout as L
        from kwire.cluster.placement import assign_replicas

        if assignment is None:
            md = self.metadata([])
            assignment = assign_replicas([(b, md.brokers[b].rack) for b in sorted(md.brokers)],
                                         partitions, replication_factor)
        zk = KazooClient(self.connect, timeout=10)
        zk.start(timeout=30)
        try:
            zk.create(L.topic_config_path(name), L.encode_config({k: str(v) for k, v in (configs or {}).items()}),
                      makepath=True)
            zk.create(L.topic_path(name), L.encode_topic(uuid.uuid4(), assignment), makepath=True)
        finally:
            zk.stop()
            zk.close()
        n = len(assignment)

        def ready(md) -> bool:
            t = md.topics.get(name)
            return (t is not None and t.error_code == 0 and len(t.partitions) == n
                    and all(p.leader >= 0 for p in t.partitions.values()))

        for b in self.brokers:
            if b.serving:
                self.wait_until(ready, timeout, f"topic {name} with leaders on broker {b.node_id}",
                                topics=[name], bootstrap=b.bootstrap)
        return self.describe(name)

    def close(self, grace: float = 2.0) -> None:
        """SIGTERM every broker, SIGKILL what is left after ``grace``."""
        live = [b for b in self.brokers if b.alive]
        for b in live:
            b._signal(signal.SIGCONT)
            b._signal(signal.SIGTERM)
        deadline = time.monotonic() + grace
        for b in live:
            try:
                b.proc.wait(max(deadline - time.monotonic(), 0.01))
            except subprocess.TimeoutExpired:
                pass
        for b in self.brokers:
            b.kill()

    def log_text(self) -> str:
        return "\n\n".join(f"===== broker {b.node_id} =====\n{b.log_text()}" for b in self.brokers)


@pytest.fixture
def make_cluster(zookeeper, tmp_path, request):
    """``make_cluster(n, overrides=None, session_timeout_ms=6000, per_broker=None, zk_hosts=None,
    env=None, listener="PLAINTEXT", client_security=None)``: started, all registered, a
    controller elected (``zk_hosts``: broker id -> the host:port that broker reaches ZooKeeper
    at, e.g. a ``tcp_proxy``; ``env``: broker id -> extra environment variables of that
    broker's process, e.g. ``KWIRE_FAULTS_FILE`` for one broker only; ``listener``: the name of
    each broker's one listener, e.g. SASL_SSL, with ``client_security`` the fixture's own
    requests log in with). Everything is killed at the end; a failing test's output gets the
    brokers' logs."""
    clusters: list[Cluster] = []
    failed_before = request.session.testsfailed

    def make(n: int = 3, overrides: dict | None = None, session_timeout_ms: int = 6000,
             per_broker: dict | None = None, zk_hosts: dict | None = None, env: dict | None = None,
             listener: str = "PLAINTEXT", client_security=None) -> Cluster:
        c = Cluster(zookeeper, str(tmp_path / f"cluster-{len(clusters)}"), n, overrides,
                    session_timeout_ms, per_broker, zk_hosts, env, listener, client_security)
        clusters.append(c)
        c.start()
        return c

    try:
        yield make
    finally:
        for c in clusters:
            c.close()
        if request.session.testsfailed > failed_before:
            for c in clusters:
                print(c.log_text())
