"""``kwire cluster up|status|down``, ``kwire topics describe`` on a cluster, docker/compose.yaml.

``kwire cluster up`` runs as a real subprocess (ZooKeeper from the Debian
jars, three ``kwire serve`` processes): the test waits for its ``bootstrap:``
line, creates an RF 3 topic and round-trips records with confluent-kafka,
reads ``kwire cluster status`` and ``kwire topics describe``, kill -9s one
broker and waits until both show the partitions under-replicated (and the
supervisor reports the death), then SIGTERMs ``up`` and checks that every
process it started is gone (by pid and by any process whose command line
names the cluster directory: no orphan java or kwire left).

Also: ``--detach`` and ``down`` with one broker on an external ZooKeeper
(the module's ``zookeeper`` fixture: its own chroot, ZooKeeper left running); ZooKeeper missing
(``$KWIRE_ZOOKEEPER_JAR_DIRS`` pointing at an empty directory) is exit code 2
naming the Debian packages; usage errors; ZooKeeper start/stop through
kwire/devcluster.py; and docker/compose.yaml parsed and checked for
consistency (names, volumes, ports, every broker's properties accepted by
kwire's own config loader).
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml
from cluster_fixtures import free_port, zookeeper, zookeeper_jar  # noqa: F401 (fixture)

import clients
from cli_inproc import in_process

ROOT = Path(__file__).resolve().parents[2]
SESSION_MS = 6000

pytestmark = pytest.mark.timeout(240)


def kwire(*args, timeout: float = 60, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m kwire ARGS`` as a subprocess (stdout and stderr as text)."""
    return subprocess.run([sys.executable, "-m", "kwire", *map(str, args)], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def kwire_here(*args) -> subprocess.CompletedProcess:
    """``kwire ARGS`` through ``kwire.cli.main`` in this process (tests/cli_inproc.py): for the
    usage, help and no-cluster answers and the polls that wait for a cluster state (an
    interpreter start every 0.5 s cost more CPU than the cluster); ``cluster up|status|down``
    and ``topics create|describe`` still run as real subprocesses in this module."""
    p = in_process([str(a) for a in args], b"")
    p.stdout = p.stdout.decode("utf-8", "replace")
    return p


def ok(proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}"
    return proc


def need_zookeeper() -> None:
    import shutil

    if zookeeper_jar() is None or shutil.which("java") is None:
        pytest.skip("ZooKeeper (Debian package zookeeper) or java is not installed")


class Up:
    """``kwire cluster up`` as a subprocess; its stdout lines on a queue."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "kwire", "cluster", "up", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                                     start_new_session=True)
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_for(self, prefix: str, timeout: float = 150) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {prefix!r} line within {timeout}s:\n" + "\n".join(self.seen))
            if line is None:
                raise AssertionError(f"kwire cluster up exited ({self.proc.wait()}) before {prefix!r}:\n"
                                     + "\n".join(self.seen))
            self.seen.append(line)
            if line.startswith(prefix):
                return line[len(prefix):].strip()

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


def processes_naming(text: str) -> list[int]:
    """Pids of live (non-zombie) processes whose command line contains ``text``."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{entry}/stat") as f:
                zombie = f.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            continue
        if text in cmd and not zombie:
            out.append(int(entry))
    return out


def cleanup(directory: Path) -> None:
    """Last resort for a failed test: nothing that names the cluster dir may outlive it."""
    for pid in processes_naming(str(directory)):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.fixture
def cluster_dir(tmp_path):
    d = tmp_path / "cluster"
    try:
        yield d
    finally:
        cleanup(d)


def test_up_status_describe_and_stop(cluster_dir):
    need_zookeeper()
    from confluent_kafka import Consumer, Producer

    up = Up("--brokers", "3", "--dir", str(cluster_dir), "--grace", "20",
            "--config", f"zookeeper.session.timeout.ms={SESSION_MS}",
            "--config", "replica.lag.time.max.ms=4000")
    try:
        bootstrap = up.wait_for("bootstrap:")
        assert len(bootstrap.split(",")) == 3
        assert any(line.startswith("zookeeper: 127.0.0.1:") and line.endswith("/kwire") for line in up.seen)
        state = json.loads((cluster_dir / "cluster.json").read_text())
        assert state["state"] == "running" and state["bootstrap"] == bootstrap
        assert [b["id"] for b in state["brokers"]] == [1, 2, 3]
        for b in state["brokers"]:
            assert Path(b["log"]).is_file()
        pids = [b["pid"] for b in state["brokers"]] + [state["zookeeper"]["pid"], up.proc.pid]

        status = ok(kwire("cluster", "status", "--dir", cluster_dir)).stdout
        for i in (1, 2, 3):
            assert f"\tId: {i}\tAddress: 127.0.0.1:" in status and status.count("Alive: yes") == 3, status
        controller = int(status.split("Controller: ")[1].split()[0])
        assert controller in (1, 2, 3)
        assert "UnderReplicatedPartitions: 0" in status and "OfflinePartitions: 0" in status

        topic = "cluster-cli-t"
        ok(kwire("topics", "create", "-b", bootstrap, "--topic", topic, "--partitions", 2,
                 "--replication-factor", 3))
        lines = clients.wait_until(
            lambda: [ln for ln in ok(kwire_here("topics", "describe", "-b", bootstrap, topic)).stdout.splitlines()
                     if "\tPartition: " in ln and "\tLeader: none" not in ln and "Isr: " in ln
                     and len(ln.split("Isr: ")[1].split()[0].split(",")) == 3] or None,
            timeout=60, interval=0.5, what="every partition with a leader and 3 in-sync replicas")
        assert len(lines) == 2
        for ln in lines:
            fields = dict(f.split(": ", 1) for f in ln.strip().split("\t"))
            assert sorted(fields["Replicas"].split(",")) == ["1", "2", "3"]
            assert int(fields["LeaderEpoch"]) >= 0 and "UnderReplicated" not in fields

        p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True})
        acked = []
        for i in range(20):
            p.produce(topic, key=str(i).encode(), value=f"v{i}".encode(),
                      on_delivery=lambda err, msg: acked.append(err))
        assert p.flush(60) == 0
        assert acked == [None] * 20
        c = Consumer({"bootstrap.servers": bootstrap, "group.id": "cluster-cli-g",
                      "auto.offset.reset": "earliest", "enable.auto.commit": False})
        c.subscribe([topic])
        got = []
        deadline = time.monotonic() + 60
        while len(got) < 20 and time.monotonic() < deadline:
            m = c.poll(1.0)
            if m is not None and m.error() is None:
                got.append(m.value())
        c.close()
        assert sorted(got) == sorted(f"v{i}".encode() for i in range(20))

        # kill -9 a broker that is not the controller: ISRs shrink, describe and status say so
        victim = next(b for b in state["brokers"] if b["id"] != controller)
        os.kill(victim["pid"], signal.SIGKILL)
        # Both partitions, each in its own time: a partition the victim followed shrinks its ISR
        # after replica.lag.time.max.ms, one it led only once its ZooKeeper session has expired
        # and the controller has moved the leadership (a rehearsal saw the first alone).
        under = clients.wait_until(
            lambda: (lambda out: out if len(out.splitlines()) == 2 else None)(
                ok(kwire_here("topics", "describe", "-b", bootstrap, topic,
                              "--under-replicated-partitions")).stdout.strip()),
            timeout=SESSION_MS / 1000 + 60, interval=0.5, what="both partitions under-replicated after kill -9")
        under_lines = under.splitlines()
        assert len(under_lines) == 2 and all("UnderReplicated: true" in ln for ln in under_lines), under
        assert all(str(victim["id"]) not in ln.split("Isr: ")[1].split()[0] for ln in under_lines)
        assert "TopicId" not in under  # the filters print partition lines only, as kafka-topics.sh
        assert ok(kwire("topics", "describe", "-b", bootstrap, topic,
                        "--unavailable-partitions")).stdout.strip() == ""
        # (the ISR may shrink on replica.lag.time.max.ms before the victim's session expires)
        gone = f"\tId: {victim['id']}\tAddress: 127.0.0.1:{victim['port']}\tRack: -\tAlive: no"
        status = clients.wait_until(
            lambda: (lambda out: out if gone in out else None)(
                ok(kwire_here("cluster", "status", "--dir", cluster_dir)).stdout),
            timeout=SESSION_MS / 1000 + 60, interval=0.5, what="the killed broker shown as not alive")
        assert "UnderReplicatedPartitions: 0" not in status and f"\tTopic: {topic}\tPartition: " in status
        up.wait_for(f"kwire cluster: broker {victim['id']} (exit")

        t0 = time.monotonic()
        os.killpg(up.proc.pid, signal.SIGTERM)
        assert up.proc.wait(120) == 0, "\n".join(up.seen)
        stopped_in = time.monotonic() - t0
        rest = up.lines
        tail = []
        while (line := rest.get(timeout=10)) is not None:
            tail.append(line)
        assert any("stopped (exit codes:" in ln for ln in tail), tail
        for pid in pids:
            assert not _alive(pid), f"pid {pid} outlived kwire cluster up"
        assert processes_naming(str(cluster_dir)) == [], "orphans left behind"
        assert json.loads((cluster_dir / "cluster.json").read_text())["state"] == "stopped"
        print(f"cluster stopped in {stopped_in:.1f}s")
    finally:
        up.kill()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_detach_and_down_with_external_zookeeper(cluster_dir, zookeeper):
    base = free_port()
    p = ok(kwire("cluster", "up", "--brokers", 1, "--dir", cluster_dir, "--detach", "--port-base", base,
                 "--rack", "r1", "--zookeeper", zookeeper.connect, timeout=180))
    assert f"bootstrap: 127.0.0.1:{base}\n" in p.stdout
    assert f"zookeeper: {zookeeper.connect}/kwire-" in p.stdout  # a chroot of its own
    state = json.loads((cluster_dir / "cluster.json").read_text())
    assert _alive(state["supervisor_pid"]) and state["state"] == "running"
    assert state["zookeeper"]["managed"] is False and state["zookeeper"]["pid"] is None
    again = kwire("cluster", "up", "--brokers", 1, "--dir", cluster_dir)
    assert again.returncode == 1 and "already running" in again.stderr
    status = ok(kwire("cluster", "status", "-b", f"127.0.0.1:{base}")).stdout
    assert f"\tId: 1\tAddress: 127.0.0.1:{base}\tRack: r1\tAlive: yes" in status
    assert "Controller: 1" in status
    ok(kwire("cluster", "down", "--dir", cluster_dir, timeout=120))
    assert not _alive(state["supervisor_pid"])
    assert processes_naming(str(cluster_dir)) == []
    assert "not running" in ok(kwire("cluster", "down", "--dir", cluster_dir)).stdout
    assert zookeeper.proc.poll() is None  # not ours to stop


def test_zookeeper_missing_is_exit_2(tmp_path):
    empty = tmp_path / "no-jars"
    empty.mkdir()
    p = kwire("cluster", "up", "--brokers", 1, "--dir", tmp_path / "c",
              env={"KWIRE_ZOOKEEPER_JAR_DIRS": str(empty)})
    assert p.returncode == 2, p
    assert "zookeeper" in p.stderr and "default-jre-headless" in p.stderr and str(empty) in p.stderr
    assert "Traceback" not in p.stderr
    assert not (tmp_path / "c" / "cluster.json").exists()


@pytest.mark.parametrize("args", [
    ["up", "--detach"],                                   # --detach needs --dir
    ["up", "--brokers", "0"],
    ["up", "--config", "zookeeper.connect=127.0.0.1:1"],  # set by the tool itself
    ["up", "--config", "novalue"],
    ["status", "--dir", "d", "--bootstrap-server", "h:1"],
    ["down"],
])
def test_usage_errors(args):
    p = kwire_here("cluster", *args)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "error" in p.stderr and "Traceback" not in p.stderr


def test_status_without_cluster(tmp_path):
    p = kwire_here("cluster", "status", "--dir", tmp_path)
    assert p.returncode == 1 and "no cluster.json" in p.stderr
    p = kwire_here("cluster", "status", "-b", f"127.0.0.1:{free_port()}", "--request-timeout-ms", 2000)
    assert p.returncode == 1 and "no broker answered" in p.stderr


def test_local_zookeeper_start_stop(tmp_path):
    need_zookeeper()
    from kwire.devcluster import LocalZooKeeper

    zk = LocalZooKeeper(str(tmp_path / "zk"))
    zk.start()
    try:
        assert zk.serving() and zk.alive()
        from kazoo.client import KazooClient

        client = KazooClient(zk.connect)
        client.start(timeout=10)
        client.ensure_path("/kwire-devcluster-test")
        client.stop()
        client.close()
    finally:
        rc = zk.stop()
    assert rc is not None and not zk.alive() and not zk.serving()
    assert processes_naming(str(tmp_path / "zk")) == []


# -- docker/compose.yaml -------------------------------------------------------------------------

def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())


def _overrides(command: list[str]) -> dict[str, str]:
    assert len(command) % 2 == 0 and command[::2] == ["--override"] * (len(command) // 2), command
    return dict(item.split("=", 1) for item in command[1::2])


def test_compose_file_is_consistent():
    doc = _compose()
    services = doc["services"]
    assert set(services) == {"zookeeper", "kwire-1", "kwire-2", "kwire-3"}
    assert services["zookeeper"]["image"].startswith("zookeeper")
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    entry = json.loads(next(ln for ln in dockerfile.splitlines() if ln.startswith("ENTRYPOINT"))[len("ENTRYPOINT"):])
    assert entry[:2] == ["kwire", "serve"]
    base = _overrides(entry[2:])
    volumes, ports, addresses = set(), set(), set()
    for i in (1, 2, 3):
        svc = services[f"kwire-{i}"]
        assert svc["build"] == {"context": "..", "dockerfile": "docker/Dockerfile"}  # the one image
        assert svc["depends_on"]["zookeeper"]["condition"] == "service_healthy"
        assert svc["hostname"] == f"kwire-{i}"
        props = {**base, **_overrides(svc["command"])}
        assert props["broker.id"] == str(i)
        assert props["zookeeper.connect"] == "zookeeper:2181/kwire"
        listen_port = int(props["listeners"].rsplit(":", 1)[1])
        adv = props["advertised.listeners"]
        assert adv == f"PLAINTEXT://kwire-{i}:{listen_port}"  # the compose name, reachable by the others
        # the advertised port works from the host too (the other mappings: metrics, console;
        # test_containers.py checks those)
        assert f"{listen_port}:{listen_port}" in svc["ports"]
        ports.add(listen_port)
        addresses.add(adv)
        (volume,) = svc["volumes"]
        name, mount = volume.split(":")
        assert mount == base["log.dirs"] == "/data"
        volumes.add(name)
        assert props["default.replication.factor"] == props["offsets.topic.replication.factor"] == "3"
        # every property is one kwire's own loader accepts (log.dirs made local for the check)
        from kwire.config import BrokerConfig

        cfg = BrokerConfig.load(None, {**props, "log.dirs": "/nonexistent-kwire-compose-check"})
        assert cfg.zookeeper_connect == "zookeeper:2181/kwire"
    assert ports == {9092, 9093, 9094} and len(addresses) == 3 and len(volumes) == 3
    assert volumes | {"zookeeper-data", "zookeeper-datalog"} == set(doc["volumes"])


@pytest.mark.parametrize("args", [["--help"], ["up", "--help"], ["status", "--help"], ["down", "--help"]])
def test_help(args):
    p = ok(kwire_here("cluster", *args))
    assert "usage: kwire cluster" in p.stdout
    assert "cluster " in ok(kwire_here("--help")).stdout
