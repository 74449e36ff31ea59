"""A kwire cluster over ZooKeeper starts: brokers register, replica logs follow the image.

Real ``kwire serve`` processes (``make_cluster``) and a real ZooKeeper.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from cluster_fixtures import free_port, make_cluster, zookeeper  # noqa: F401 (fixtures)


def _has_log(b, topic: str, partition: int) -> bool:
    return os.path.isdir(os.path.join(b.data_dir, f"{topic}-{partition}"))


def test_three_brokers_register_and_replicate_a_topic(make_cluster):
    c = make_cluster(3)
    t = c.create_topic_zk("smoke", partitions=3, replication_factor=3)
    assert all(sorted(p.replicas) == [1, 2, 3] for p in t.partitions.values())
    # every broker holds a log of every partition (each replica's log comes from the image)
    for b in c.brokers:
        deadline = time.monotonic() + 30
        while not all(_has_log(b, "smoke", p) for p in range(3)):
            assert time.monotonic() < deadline, f"broker {b.node_id} has no logs of smoke"
            time.sleep(0.1)
    # each broker's Metadata: 3 brokers, the same leaders and the same controller
    views = [c.metadata(["smoke"], bootstrap=b.bootstrap) for b in c.brokers]
    controller = views[0].controller_id
    assert controller in (1, 2, 3)
    leaders = {p: v.leader for p, v in views[0].topics["smoke"].partitions.items()}
    assert all(leader in (1, 2, 3) for leader in leaders.values())
    for md in views:
        assert sorted(md.brokers) == [1, 2, 3]
        assert md.controller_id == controller
        assert {p: v.leader for p, v in md.topics["smoke"].partitions.items()} == leaders
    # deleted (as kafka-topics.sh --zookeeper did: /admin/delete_topics/<t>) while broker 3 is
    # down: every replica's log goes, broker 3's when it comes back
    from kazoo.client import KazooClient

    assert c.broker(3).stop() == 0

    zk = KazooClient(c.connect)
    zk.start(timeout=30)
    try:
        zk.create("/admin/delete_topics/smoke", makepath=True)
    finally:
        zk.stop()
        zk.close()
    c.broker(3).start()
    for b in c.brokers:
        deadline = time.monotonic() + 30
        while any(_has_log(b, "smoke", p) for p in range(3)):
            assert time.monotonic() < deadline, f"broker {b.node_id} kept logs of the deleted topic"
            time.sleep(0.1)
    c.wait_until(lambda md: "smoke" not in md.topics, 30, "smoke gone from the metadata")
    # a cluster-wide dynamic broker config set through broker 1 reaches broker 3 (via ZooKeeper)
    from kwire.client import KafkaClient

    with KafkaClient(c.broker(1).bootstrap) as client:
        client.incremental_alter_configs(4, "", {"log.retention.ms": "123456"})
    deadline = time.monotonic() + 30
    while True:
        with KafkaClient(c.broker(3).bootstrap) as client:
            entry = client.describe_configs(4, "3", ["log.retention.ms"])[0]
        if entry.value == "123456":
            assert entry.source == 3  # DYNAMIC_DEFAULT_BROKER_CONFIG
            break
        assert time.monotonic() < deadline, entry
        time.sleep(0.1)


def test_a_second_broker_with_a_registered_id_exits_1(make_cluster, tmp_path):
    c = make_cluster(1)
    proc = subprocess.run(
        [sys.executable, "-m", "kwire", "serve", "--override", f"zookeeper.connect={c.connect}",
         "--override", "broker.id=1", "--override", f"log.dirs={tmp_path / 'other'}",
         "--override", f"listeners=PLAINTEXT://127.0.0.1:{free_port()}"],
        capture_output=True, text=True, timeout=120)  # a hang guard: a start takes ~30 s under load
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "broker id 1 is already registered" in proc.stderr
    assert c.brokers[0].alive and sorted(c.metadata([]).brokers) == [1]  # the first one is unharmed


def test_unreachable_zookeeper_exits_1_naming_the_address(tmp_path):
    from datetime import datetime

    port = free_port()  # nothing listens there
    addr = f"127.0.0.1:{port}"
    proc = subprocess.run(
        [sys.executable, "-m", "kwire", "serve", "--override", f"zookeeper.connect={addr}/kwire",
         "--override", "zookeeper.connection.timeout.ms=1500", "--override", f"log.dirs={tmp_path}",
         "--override", f"listeners=PLAINTEXT://127.0.0.1:{free_port()}"],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert addr in proc.stderr and "zookeeper.connection.timeout.ms" in proc.stderr
    # it gives up about 1.5 s after its first attempt, not after retrying on: timed by its own log
    # (the interpreter's start alone takes tens of seconds on a loaded 2-core machine)
    log = proc.stdout + proc.stderr
    stamps = [datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f") for line in log.splitlines()
              if line[:4].isdigit() and ("Connecting to" in line or "CRITICAL" in line)]
    assert len(stamps) >= 2, log
    assert (stamps[-1] - stamps[0]).total_seconds() < 30, log


def test_a_broker_started_from_server_properties_joins_the_cluster(make_cluster, tmp_path):
    """``kwire serve server.properties`` with the keys of a Kafka 3.x ZooKeeper-mode broker
    (broker.id, listeners, log.dirs, zookeeper.connect with a chroot) joins a running cluster:
    every broker's Metadata lists both, and SIGTERM stops it with exit code 0."""
    import signal

    c = make_cluster(1)
    port = free_port()
    props = tmp_path / "server.properties"
    props.write_text("# as kafka-server-start.sh would take it\n"
                     "broker.id=2\n"
                     f"listeners=PLAINTEXT://127.0.0.1:{port}\n"
                     f"log.dirs={tmp_path / 'data-2'}\n"
                     f"zookeeper.connect={c.connect}\n"
                     "zookeeper.session.timeout.ms=6000\n")
    log = tmp_path / "broker-2.log"
    with open(log, "w") as out:  # a file, not a pipe nobody drains
        proc = subprocess.Popen([sys.executable, "-m", "kwire", "serve", str(props)],
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120  # the interpreter's start alone: up to ~30 s under load
        while True:
            try:
                views = [c.metadata([]), c.metadata([], bootstrap=f"127.0.0.1:{port}")]
                if all(sorted(v.brokers) == [1, 2] for v in views):
                    break
            except Exception:  # noqa: BLE001 - the new broker may not listen yet
                pass
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "broker 2 never joined the cluster"
            time.sleep(0.2)
        assert views[0].controller_id == views[1].controller_id
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
