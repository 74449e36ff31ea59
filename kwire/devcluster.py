"""A local development cluster: one ZooKeeper and N ``kwire serve`` processes.

The library behind ``kwire cluster up`` (kwire/tools/cluster.py) and
``python -m compat --cluster N``. ``DevCluster(dir, brokers=3).start()``:

* starts a standalone ZooKeeper from the Debian ``zookeeper`` package's jar
  (``zookeeper_classpath``: ``zookeeper.jar`` in ``$KWIRE_ZOOKEEPER_JAR_DIRS``,
  colon-separated, else /usr/share/java, /usr/share/zookeeper/lib,
  /usr/share/zookeeper; its manifest names its dependency jars) unless an
  external ``zookeeper`` address is given;
* starts brokers 1..N as ``python -m kwire serve --override ...`` with
  ``broker.id``, ``listeners=PLAINTEXT://127.0.0.1:<port>`` (free ports, or
  ``port_base + id - 1``), ``log.dirs`` and ``zookeeper.connect`` with a chroot,
  plus dev-cluster defaults (replication factor min(3, N)) and the caller's
  configs on top;
* waits until every broker answers Metadata listing all N brokers and a
  controller, and writes ``cluster.json`` (pids, ports, addresses).

``stop()`` stops the brokers one at a time, the controller last (SIGTERM: a
controlled shutdown; SIGKILL after ``grace`` seconds), then ZooKeeper. Every
child runs in its own session (a terminal's Ctrl-C reaches only the
supervisor, which stops them in order) and, on Linux, gets SIGTERM if the
thread that started it dies, so a killed supervisor leaves no orphans.

Layout of the cluster directory::

    cluster.json                 state (see ``DevCluster.state``)
    zookeeper/zoo.cfg, data/, zookeeper.log
    broker-<id>/data/, broker-<id>/kwire.log

What it does not do: restart processes that die (it reports them), run a
ZooKeeper ensemble, TLS/SASL listeners, or pick up a cluster another process
started (``kwire cluster down`` signals that process instead).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field

JAR_DIRS_ENV = "KWIRE_ZOOKEEPER_JAR_DIRS"
DEFAULT_JAR_DIRS = ("/usr/share/java", "/usr/share/zookeeper/lib", "/usr/share/zookeeper")
ZK_MAIN = "org.apache.zookeeper.server.quorum.QuorumPeerMain"
STATE_FILE = "cluster.json"
HOST = "127.0.0.1"


class ClusterError(RuntimeError):
    """The cluster could not be started (a process exited, nothing answered in time)."""


class ZooKeeperMissing(ClusterError):
    """ZooKeeper's jar or java is not installed (a set-up problem: exit code 2)."""


# -- processes ---------------------------------------------------------------------------------

def zookeeper_classpath() -> str:
    """The class path for ZooKeeper's server, or ``ZooKeeperMissing`` naming the packages."""
    env = os.environ.get(JAR_DIRS_ENV)
    dirs = [d for d in env.split(os.pathsep) if d] if env is not None else list(DEFAULT_JAR_DIRS)
    hint = ("install the Debian packages 'zookeeper' and 'default-jre-headless' "
            "(apt-get install zookeeper default-jre-headless), or pass --zookeeper HOST:PORT")
    for d in dirs:
        jar = os.path.join(d, "zookeeper.jar")
        if os.path.isfile(jar):
            break
    else:
        raise ZooKeeperMissing(f"ZooKeeper's zookeeper.jar is not in {', '.join(dirs) or '(no dir)'}"
                               f" (${JAR_DIRS_ENV}): {hint}")
    if _which("java") is None:
        raise ZooKeeperMissing(f"java is not on PATH (ZooKeeper needs it): {hint}")
    # Debian's jar names its dependencies in its manifest; a tarball's lib/ dir does not,
    # so every jar beside it joins the class path (not /usr/share/java's hundreds).
    if os.path.realpath(d) == "/usr/share/java":
        return jar
    return os.pathsep.join([jar, os.path.join(d, "*")])


def _which(name: str) -> str | None:
    import shutil

    return shutil.which(name)


def free_port(host: str = HOST) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def port_is_free(port: int, host: str = HOST) -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
            return True
        except OSError:
            return False


def _die_with_parent() -> None:  # runs in the child between fork and exec
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the supervisor's stop() is all there is
        pass


def _spawn(argv: list[str], log_path: str) -> subprocess.Popen:
    with open(log_path, "ab") as log:
        return subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True, preexec_fn=_die_with_parent)


def _stop_process(proc: subprocess.Popen | None, grace: float) -> int | None:
    """SIGTERM, then SIGKILL (the whole process group) after ``grace`` s; the exit code."""
    if proc is None:
        return None
    if proc.poll() is None:
        try:
            proc.send_signal(signal.SIGTERM)
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(10)
    return proc.returncode


def tail(path: str, n: int = 3000) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - n))
            return f.read().decode(errors="replace")
    except OSError:
        return ""


class LocalZooKeeper:
    """A standalone ZooKeeper server with its data under ``base_dir``."""

    def __init__(self, base_dir: str, port: int | None = None, host: str = HOST) -> None:
        self.base_dir = base_dir
        self.host = host
        self.port = port if port and port_is_free(port, host) else free_port(host)
        self.log_path = os.path.join(base_dir, "zookeeper.log")
        self.proc: subprocess.Popen | None = None

    @property
    def connect(self) -> str:
        return f"{self.host}:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        classpath = zookeeper_classpath()
        data = os.path.join(self.base_dir, "data")
        os.makedirs(data, exist_ok=True)
        cfg = os.path.join(self.base_dir, "zoo.cfg")
        with open(cfg, "w") as f:
            # tickTime 500: sessions may be as short as 1 s (tests use 4-6 s).
            f.write(f"tickTime=500\ndataDir={data}\nclientPort={self.port}\n"
                    f"clientPortAddress={self.host}\nadmin.enableServer=false\n"
                    "4lw.commands.whitelist=ruok,srvr\nmaxClientCnxns=0\n"
                    "minSessionTimeout=1000\nmaxSessionTimeout=60000\n")
        # a development ZooKeeper serves a few brokers: the C1 compiler alone (one thread) starts it with
        # ~17 % less CPU (1.02 -> 0.85 CPU-s to a first session, 4 alternating pairs, 2026-11-28)
        self.proc = _spawn(["java", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                            "-XX:CICompilerCount=1", "-Dzookeeper.jmx.log4j.disable=true",
                            "-cp", classpath, ZK_MAIN, cfg], self.log_path)
        deadline = time.monotonic() + timeout
        while not self.serving():
            if self.proc.poll() is not None:
                raise ClusterError(f"ZooKeeper exited with code {self.proc.returncode} "
                                   f"(log {self.log_path}):\n{tail(self.log_path)}")
            if time.monotonic() > deadline:
                self.stop()
                raise ClusterError(f"ZooKeeper did not serve within {timeout:.0f} s "
                                   f"(log {self.log_path}):\n{tail(self.log_path)}")
            time.sleep(0.2)

    def serving(self) -> bool:
        """True once the ``srvr`` four-letter word reports a mode (it serves requests)."""
        try:
            with socket.create_connection((self.host, self.port), timeout=2) as s:
                s.sendall(b"srvr")
                data = b""
                while chunk := s.recv(4096):
                    data += chunk
            return b"Mode:" in data
        except OSError:
            return False

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, grace: float = 10.0) -> int | None:
        return _stop_process(self.proc, grace)


@dataclass
class LocalBroker:
    """One ``kwire serve`` process of the cluster."""

    node_id: int
    port: int
    base_dir: str
    overrides: dict[str, str]
    proc: subprocess.Popen | None = field(default=None, repr=False)
    host: str = HOST

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def log_path(self) -> str:
        return os.path.join(self.base_dir, "kwire.log")

    @property
    def schema_registry_url(self) -> str | None:
        port = self.overrides.get("schema.registry.port")
        return f"http://{HOST}:{port}" if port not in (None, "", "0") else None

    def start(self) -> None:
        os.makedirs(self.base_dir, exist_ok=True)
        argv = [sys.executable, "-m", "kwire", "serve"]
        for k, v in self.overrides.items():
            argv += ["--override", f"{k}={v}"]
        self.proc = _spawn(argv, self.log_path)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, grace: float = 30.0) -> int | None:
        return _stop_process(self.proc, grace)


# -- the cluster -------------------------------------------------------------------------------

def default_configs(brokers: int) -> dict[str, str]:
    """What a dev cluster of ``brokers`` runs unless told otherwise: replication factor
    min(3, N) for ``__consumer_offsets`` (Kafka's default 3, capped by the cluster's size)
    and for new topics (Kafka's default.replication.factor is 1; a dev cluster is for
    trying replication)."""
    rf = str(min(3, brokers))
    return {"default.replication.factor": rf, "offsets.topic.replication.factor": rf}


def read_state(directory: str) -> dict | None:
    try:
        with open(os.path.join(directory, STATE_FILE)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def pid_alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (exited, not yet reaped) is not alive
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


def _hosts(address_base: str | None, brokers: int) -> list[str]:
    """[ZooKeeper's host, broker 1's, ...]: all 127.0.0.1, or consecutive addresses from a base."""
    if address_base is None:
        return [HOST] * (brokers + 1)
    import ipaddress

    try:
        base = ipaddress.ip_address(address_base)
        return [str(base + i) for i in range(brokers + 1)]
    except ValueError as e:
        raise ClusterError(f"--address-base {address_base}: {e}") from None


class DevCluster:
    """ZooKeeper (unless ``zookeeper`` names one) and ``brokers`` kwire brokers in ``directory``."""

    def __init__(self, directory: str, brokers: int = 3, *, zookeeper: str | None = None,
                 port_base: int | None = None, configs: dict[str, str] | None = None,
                 racks: list[str] | None = None, grace: float = 30.0,
                 address_base: str | None = None) -> None:
        if brokers < 1:
            raise ValueError("a cluster needs at least one broker")
        # address_base A: ZooKeeper on A, broker k on A+k (each broker connects from its own
        # address too: broker.source.address), so kwire.nemesis can cut links by address
        hosts = _hosts(address_base, brokers)
        self.directory = os.path.abspath(directory)
        self.size = brokers
        self.grace = grace
        self.zookeeper: LocalZooKeeper | None = None
        previous = read_state(self.directory) or {}
        if previous.get("state") == "running" and pid_alive(previous.get("supervisor_pid")):
            raise ClusterError(f"a cluster is already running in {self.directory} "
                               f"(pid {previous['supervisor_pid']}): kwire cluster down --dir {self.directory}")
        old_zk = previous.get("zookeeper") or {}
        if zookeeper is None:
            self.zookeeper = LocalZooKeeper(os.path.join(self.directory, "zookeeper"),
                                            old_zk.get("port") if old_zk.get("managed") else None, hosts[0])
            self.chroot = "/kwire"
        else:
            host, slash, path = zookeeper.partition("/")
            zookeeper = host
            # Same directory, same ZooKeeper: the same cluster (its data matches its metadata).
            self.chroot = ("/" + path.strip("/") if slash and path.strip("/") else
                           old_zk.get("chroot") if old_zk.get("connect") == host and not old_zk.get("managed")
                           else f"/kwire-{uuid.uuid4().hex[:8]}")
        self._zk_connect = zookeeper
        old_ports = {b["id"]: b["port"] for b in previous.get("brokers", ())}
        common = default_configs(brokers)
        common.update(configs or {})
        self.brokers: list[LocalBroker] = []
        taken: set[int] = set()
        for node_id in range(1, brokers + 1):
            host = hosts[node_id]
            if port_base is not None:
                port = port_base + node_id - 1
            elif old_ports.get(node_id) and port_is_free(old_ports[node_id], host):
                port = old_ports[node_id]
            else:
                port = free_port(host)
                while port in taken:
                    port = free_port(host)
            taken.add(port)
            base = os.path.join(self.directory, f"broker-{node_id}")
            overrides = {"broker.id": str(node_id), "listeners": f"PLAINTEXT://{host}:{port}",
                         "log.dirs": os.path.join(base, "data")}
            if racks:
                overrides["broker.rack"] = racks[(node_id - 1) % len(racks)]
            overrides.update(common)
            if overrides.get("schema.registry.port") == "0":  # one known port per broker (issue 25)
                overrides["schema.registry.port"] = str(free_port())
            overrides["zookeeper.connect"] = ""  # set in start(), once ZooKeeper's port is known
            self.brokers.append(LocalBroker(node_id, port, base, overrides, host=host))
        self.state_name = "new"

    # -- addresses
    @property
    def zookeeper_connect(self) -> str:
        """``host:port/chroot``, as the brokers' ``zookeeper.connect``."""
        host = self.zookeeper.connect if self.zookeeper else self._zk_connect
        return host + self.chroot

    @property
    def bootstrap(self) -> str:
        return ",".join(b.address for b in self.brokers)

    def port_conflicts(self) -> list[int]:
        """The brokers' ports already bound on their own addresses (another process's; not the
        same port on another loopback address, which does not conflict)."""
        return [b.port for b in self.brokers if not port_is_free(b.port, b.host)]

    # -- lifecycle
    def start(self, timeout: float = 120.0) -> None:
        """Start everything and wait until the cluster is whole; on failure stop what started."""
        os.makedirs(self.directory, exist_ok=True)
        if port_conflicts := self.port_conflicts():
            raise ClusterError(f"port(s) {', '.join(map(str, port_conflicts))} already in use")
        deadline = time.monotonic() + timeout
        self.state_name = "starting"
        try:
            if self.zookeeper is not None:
                self.zookeeper.start(timeout=max(5.0, deadline - time.monotonic()))
            self.write_state()
            for b in self.brokers:
                b.overrides["zookeeper.connect"] = self.zookeeper_connect
                b.start()
            self.write_state()
            self.wait_ready(max(5.0, deadline - time.monotonic()))
        except BaseException:
            self.stop()
            raise
        self.state_name = "running"
        self.write_state()

    def wait_ready(self, timeout: float) -> int:
        """Until every broker's Metadata lists all brokers and a controller; the controller id."""
        from kwire.client import KafkaClient, KafkaClientError

        want = {b.node_id for b in self.brokers}
        deadline = time.monotonic() + timeout
        pending = list(self.brokers)
        controller = -1
        while pending:
            b = pending[0]
            if not b.alive():
                raise ClusterError(f"broker {b.node_id} exited with code {b.proc.returncode} "
                                   f"(log {b.log_path}):\n{tail(b.log_path)}")
            if self.zookeeper is not None and not self.zookeeper.alive():
                raise ClusterError(f"ZooKeeper exited (log {self.zookeeper.log_path}):\n"
                                   f"{tail(self.zookeeper.log_path)}")
            try:
                with KafkaClient(b.address, client_id="kwire-cluster", timeout=5) as c:
                    md = c.metadata([])
                if set(md.brokers) >= want and md.controller_id in md.brokers:
                    controller = md.controller_id
                    pending.pop(0)
                    continue
            except (KafkaClientError, OSError):
                pass
            if time.monotonic() > deadline:
                raise ClusterError(f"broker {b.node_id} did not see all {len(want)} brokers and a "
                                   f"controller within {timeout:.0f} s (log {b.log_path}):\n"
                                   f"{tail(b.log_path)}")
            time.sleep(0.2)
        return controller

    def controller_id(self, timeout: float = 3.0) -> int:
        """The controller as some live broker reports it; -1 when none answers."""
        from kwire.client import KafkaClient, KafkaClientError

        for b in self.brokers:
            if not b.alive():
                continue
            try:
                with KafkaClient(b.address, client_id="kwire-cluster", timeout=timeout) as c:
                    return c.metadata([]).controller_id
            except (KafkaClientError, OSError):
                continue
        return -1

    def stop(self, grace: float | None = None) -> dict[str, int | None]:
        """Stop the brokers one at a time (the controller last), then ZooKeeper.

        Returns each process's exit code (``broker-<id>``, ``zookeeper``); None for
        one that never started."""
        grace = self.grace if grace is None else grace
        self.state_name = "stopping"
        self.write_state()
        codes: dict[str, int | None] = {}
        controller = self.controller_id() if any(b.alive() for b in self.brokers) else -1
        order = sorted(self.brokers, key=lambda b: (b.node_id == controller, b.node_id))
        for b in order:
            codes[f"broker-{b.node_id}"] = b.stop(grace)
        if self.zookeeper is not None:
            codes["zookeeper"] = self.zookeeper.stop()
        self.state_name = "stopped"
        self.write_state()
        return codes

    def dead_processes(self) -> list[str]:
        """Names of started processes that have exited (``broker 2 (exit 1)``...)."""
        out = [f"broker {b.node_id} (exit {b.proc.returncode}, log {b.log_path})"
               for b in self.brokers if b.proc is not None and b.proc.poll() is not None]
        zk = self.zookeeper
        if zk is not None and zk.proc is not None and zk.proc.poll() is not None:
            out.append(f"zookeeper (exit {zk.proc.returncode}, log {zk.log_path})")
        return out

    # -- state file
    def state(self) -> dict:
        zk = self.zookeeper
        return {
            "state": self.state_name,
            "supervisor_pid": os.getpid(),
            "dir": self.directory,
            "bootstrap": self.bootstrap,
            "zookeeper": {"connect": zk.connect if zk else self._zk_connect, "chroot": self.chroot,
                          "managed": zk is not None, "port": zk.port if zk else None,
                          "pid": zk.proc.pid if zk and zk.proc else None,
                          "log": zk.log_path if zk else None},
            "brokers": [{"id": b.node_id, "host": b.host, "port": b.port,
                         "pid": b.proc.pid if b.proc else None, "rack": b.overrides.get("broker.rack"),
                         "log": b.log_path, "data_dir": b.overrides["log.dirs"]}
                        for b in self.brokers],
        }

    def write_state(self) -> None:
        os.makedirs(self.directory, exist_ok=True)
        path = os.path.join(self.directory, STATE_FILE)
        with open(path + ".tmp", "w") as f:
            json.dump(self.state(), f, indent=2)
            f.write("\n")
        os.replace(path + ".tmp", path)

    def __enter__(self) -> "DevCluster":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
