"""A real ZooKeeper server for cluster tests: the Debian ``zookeeper`` package's jars.

* ``zookeeper`` — one standalone server per test module on a free loopback
  port, data in a temporary dir; tests isolate themselves with a chroot each
  (``zk_chroot``).
* ``make_zookeeper()`` — servers of the test's own (for stopping and
  restarting ZooKeeper under a test); stopped at the end of the test.

A server is ready when a kazoo client connects (not after a sleep); it is
always stopped (SIGTERM, then SIGKILL), even when the test fails. Import the
fixtures into a test module: ``from cluster_fixtures import zookeeper``.
Skips (naming the package) when ZooKeeper's jar or java is missing; CI
installs it with scripts/setup-test-env.sh.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import uuid

import pytest

JAR_DIRS = ("/usr/share/java", "/usr/share/zookeeper/lib", "/usr/share/zookeeper")
MAIN = "org.apache.zookeeper.server.quorum.QuorumPeerMain"
TICK_MS = 250  # sessions may be as short as 2 ticks: tests use 2-4 s session timeouts


def zookeeper_jar() -> str | None:
    for d in JAR_DIRS:
        p = os.path.join(d, "zookeeper.jar")
        if os.path.exists(p):
            return p
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ZooKeeperServer:
    """One standalone ZooKeeper; ``stop()`` and ``start()`` again keep its data and port."""

    def __init__(self, base_dir: str) -> None:
        self.base_dir = base_dir
        self.data_dir = os.path.join(base_dir, "data")
        os.makedirs(self.data_dir, exist_ok=True)
        self.port = free_port()
        self.cfg = os.path.join(base_dir, "zoo.cfg")
        with open(self.cfg, "w") as f:
            f.write(f"tickTime={TICK_MS}\n"
                    f"dataDir={self.data_dir}\n"
                    f"clientPort={self.port}\n"
                    f"clientPortAddress=127.0.0.1\n"
                    "admin.enableServer=false\n"
                    "4lw.commands.whitelist=ruok,srvr\n"
                    "maxClientCnxns=0\n"
                    f"minSessionTimeout={2 * TICK_MS}\n"
                    "maxSessionTimeout=60000\n")
        self.proc: subprocess.Popen | None = None
        self.log_path = os.path.join(base_dir, "zookeeper.log")

    @property
    def connect(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        jar = zookeeper_jar()
        self._log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            ["java", "-Xmx256m", "-XX:+UseSerialGC", "-Dzookeeper.jmx.log4j.disable=true",
             "-cp", jar, MAIN, self.cfg],
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        self._wait_ready(timeout)

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


@pytest.fixture
def zk_chroot() -> str:
    """A chroot of this test's own (ZkMetadata creates it)."""
    return f"/kwire-test-{uuid.uuid4().hex[:10]}"
