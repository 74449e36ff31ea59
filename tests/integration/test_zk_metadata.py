"""ZkMetadata against a real ZooKeeper: registration, controller election and fencing,
topics in Kafka's znode format, conditional partition-state updates, ZooKeeper outages.

Members are ZkMetadata instances with kazoo clients of their own, in this
process or (where a process must die with kill -9) in subprocesses
(zk_member.py). The test reads ZooKeeper with a client of its own. Every wait
is for an event (a znode, an image change) with a deadline, never a bare sleep.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid

import pytest
from cluster_fixtures import free_port, make_zookeeper, zk_chroot, zookeeper  # noqa: F401
from kazoo.client import KazooClient

from kwire.cluster import zk_layout as L
from kwire.cluster.controller import ControllerMovedError
from kwire.cluster.zookeeper import ZkMetadata, ZooKeeperConnectError, ZooKeeperUnavailable
from kwire.protocol.errors import ErrorCode, KafkaError

import clients

SESSION_MS = 3000
HERE = os.path.dirname(os.path.abspath(__file__))
# sessions of a few seconds: poll finely so a takeover is seen when it happens
wait_until = functools.partial(clients.wait_until, interval=0.02)


@pytest.fixture
def members(zookeeper, zk_chroot):  # noqa: F811
    """start(node_id, **kw) -> a started ZkMetadata under this test's chroot; all closed after."""
    made: list[ZkMetadata] = []

    def start(node_id: int, **kw) -> ZkMetadata:
        kw.setdefault("session_timeout_ms", SESSION_MS)
        md = ZkMetadata(zookeeper.connect + zk_chroot, node_id, "127.0.0.1", 9000 + node_id, **kw)
        made.append(md)
        md.start()
        return md

    try:
        yield start
    finally:
        for md in made:
            md.close()


@pytest.fixture
def zk(zookeeper, zk_chroot):  # noqa: F811
    """The test's own kazoo client, rooted at the chroot (created here if missing)."""
    bare = KazooClient(zookeeper.connect, timeout=10)
    bare.start(timeout=30)
    bare.ensure_path(zk_chroot)
    bare.stop()
    bare.close()
    client = KazooClient(zookeeper.connect + zk_chroot, timeout=10)
    client.start(timeout=30)
    try:
        yield client
    finally:
        client.stop()
        client.close()


def znode_json(zk, path):
    data, _ = zk.get(path)
    return json.loads(data)


def controller_of(zk):
    if not zk.exists(L.CONTROLLER):
        return None
    try:
        return znode_json(zk, L.CONTROLLER)["brokerid"]
    except Exception:
        return None


def epoch_of(zk) -> int:
    return int(zk.get(L.CONTROLLER_EPOCH)[0])


def result(fut, timeout: float = 20):
    return fut.result(timeout=timeout)


def all_see(mds, pred, timeout: float, what: str) -> None:
    for md in mds:
        assert md.wait_for(lambda: pred(md), timeout), f"broker {md.node_id} did not see {what}"


# -- registration, chroot, cluster id, exactly one controller --------------------------------------
def test_registration_chroot_cluster_id_and_one_controller(zookeeper, zk_chroot, members):  # noqa: F811
    bare = KazooClient(zookeeper.connect, timeout=10)
    bare.start(timeout=30)
    try:
        assert not bare.exists(zk_chroot)
        mds = [members(1, rack="r1"), members(2, rack="r2"), members(3, rack="r3")]
        assert bare.exists(zk_chroot), "the chroot was created"
        assert not bare.exists("/brokers"), "nothing outside the chroot"
    finally:
        bare.stop()
        bare.close()
    zk = KazooClient(zookeeper.connect + zk_chroot, timeout=10)
    zk.start(timeout=30)
    try:
        for p in L.PERSISTENT_PATHS:
            assert zk.exists(p), p
        all_see(mds, lambda md: [b.node_id for b in md.brokers] == [1, 2, 3], 5, "three brokers")
        assert [(b.host, b.port, b.rack) for b in mds[0].brokers] == [
            ("127.0.0.1", 9001, "r1"), ("127.0.0.1", 9002, "r2"), ("127.0.0.1", 9003, "r3")]
        reg = znode_json(zk, L.broker_path(2))
        assert set(reg) == {"version", "host", "port", "endpoints", "listener_security_protocol_map",
                            "jmx_port", "timestamp", "features", "rack"}
        assert (reg["version"], reg["host"], reg["port"], reg["rack"], reg["jmx_port"]) == (5, "127.0.0.1", 9002,
                                                                                          "r2", -1)
        assert reg["endpoints"] == ["PLAINTEXT://127.0.0.1:9002"]
        assert reg["listener_security_protocol_map"] == {"PLAINTEXT": "PLAINTEXT"}
        assert int(reg["timestamp"]) > 0
        assert zk.exists(L.broker_path(2)).ephemeralOwner == mds[1].store.session_id

        cid = znode_json(zk, L.CLUSTER_ID)
        assert cid["version"] == "1" and len(cid["id"]) == 22
        assert {md.cluster_id for md in mds} == {cid["id"]}
        assert [md.fresh for md in mds] == [True, False, False], "the cluster id is created once"

        controller = wait_until(lambda: controller_of(zk), 5, what="a controller")
        assert set(znode_json(zk, L.CONTROLLER)) == {"version", "brokerid", "timestamp"}
        assert controller == 1, "the first broker to start finds no controller and becomes it"
        assert epoch_of(zk) == 1
        all_see(mds, lambda md: md.controller_id == controller and md.controller_epoch == 1, 5, "the controller")
        assert [md.controller.active for md in mds] == [md.node_id == controller for md in mds]
    finally:
        zk.stop()
        zk.close()


def test_same_broker_id_twice_is_refused(members):
    members(1)
    with pytest.raises(KafkaError) as e:
        members(1)
    assert "already registered" in e.value.message


# -- controller failover ---------------------------------------------------------------------------
def test_closing_the_controller_elects_another_and_bumps_the_epoch(members, zk):
    mds = {i: members(i) for i in (1, 2, 3)}
    first = wait_until(lambda: controller_of(zk), 5, what="a controller")
    epoch = epoch_of(zk)
    mds[first].close()  # its session ends now: /controller and /brokers/ids/<id> go at once
    t0 = time.monotonic()
    second = wait_until(lambda: controller_of(zk) not in (None, first) and controller_of(zk), SESSION_MS / 1000,
                        what="a new controller")
    assert time.monotonic() - t0 < SESSION_MS / 1000
    assert epoch_of(zk) == epoch + 1
    rest = [md for i, md in mds.items() if i != first]
    all_see(rest, lambda md: md.controller_id == second and md.controller_epoch == epoch + 1
            and first not in {b.node_id for b in md.brokers}, 2, "the new controller")
    assert [md.controller.active for md in rest] == [md.node_id == second for md in rest]


def spawn_member(connect: str, node_id: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "zk_member.py"), connect, str(node_id),
                             str(SESSION_MS)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    assert line.strip() == f"ready {node_id}", f"member {node_id} did not start: {line!r}"
    return proc


def test_kill_9_of_the_controller_elects_another_within_the_session_timeout(zookeeper, zk_chroot, zk):  # noqa: F811
    procs: dict[int, subprocess.Popen] = {}
    try:
        for i in (1, 2, 3):
            procs[i] = spawn_member(zookeeper.connect + zk_chroot, i)
        first = wait_until(lambda: controller_of(zk), 10, what="a controller")
        wait_until(lambda: len(zk.get_children(L.BROKER_IDS)) == 3, 10, what="three registrations")
        epoch = epoch_of(zk)
        procs[first].send_signal(signal.SIGKILL)
        procs[first].wait(10)
        t0 = time.monotonic()
        # no goodbye: ZooKeeper notices only when the session times out
        second = wait_until(lambda: controller_of(zk) not in (None, first) and controller_of(zk),
                            SESSION_MS / 1000 * 2 + 5, what="a new controller")
        took = time.monotonic() - t0
        print(f"new controller {took:.2f} s after kill -9 (session timeout {SESSION_MS} ms)")
        assert epoch_of(zk) == epoch + 1
        assert str(first) not in zk.get_children(L.BROKER_IDS)
        assert second in procs and second != first
        # ZooKeeper expires the session within its timeout (checked every tick); slack for a loaded machine
        assert took < SESSION_MS / 1000 + 3, took
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
            p.wait(10)


def expire_session(connect: str, md: ZkMetadata) -> None:
    """End ``md``'s session from outside (ZooKeeper's test trick: same id, then close)."""
    sid, pwd = md.store.client.client_id
    other = KazooClient(connect, client_id=(sid, pwd), timeout=10)
    other.start(timeout=30)
    other.stop()
    other.close()


def test_a_deposed_controller_cannot_write(zookeeper, zk_chroot, members, zk):  # noqa: F811
    a = members(1)
    wait_until(lambda: a.controller.active, 5, what="broker 1 to be the controller")
    stale_version, stale_epoch = a.controller.epoch_zk_version, a.controller.epoch
    b = members(2)
    expire_session(zookeeper.connect + zk_chroot, a)
    wait_until(lambda: controller_of(zk) == 2, SESSION_MS / 1000 * 2, what="broker 2 to take over")
    assert epoch_of(zk) == stale_epoch + 1
    wait_until(lambda: b.controller.active, 5, what="broker 2 to act as controller")
    # broker 1 gets a new session, registers again and follows; it still holds its old epoch's version
    wait_until(lambda: zk.exists(L.broker_path(1)) is not None
               and zk.exists(L.broker_path(1)).ephemeralOwner == a.store.session_id, 10, what="re-registration")
    assert a.wait_for(lambda: a.controller_id == 2 and {x.node_id for x in a.brokers} == {1, 2}, 5)
    assert not a.controller.active
    assert a.controller.epoch_zk_version == stale_version
    zk.create("/fence-target", b"before")
    # a write made under the old epoch is refused by ZooKeeper itself (the check op), not by a local flag
    with pytest.raises(ControllerMovedError) as e:
        a.controller.fenced([("set", "/fence-target", b"after", -1)])
    assert e.value.code == ErrorCode.NOT_CONTROLLER
    assert zk.get("/fence-target")[0] == b"before"
    # any op, a create too, is refused under the old epoch version
    with pytest.raises(ControllerMovedError):
        a.controller.fenced([("create", "/fence-other", b"x")], epoch_zk_version=stale_version)
    assert not zk.exists("/fence-other")
    # the new controller's write under the current epoch goes through
    b.controller.fenced([("set", "/fence-target", b"after", -1)])
    assert zk.get("/fence-target")[0] == b"after"


# -- topics ----------------------------------------------------------------------------------------
def test_topic_with_rf_3_reaches_every_broker_in_kafka_format(members, zk):
    mds = [members(i) for i in (1, 2, 3)]
    all_see(mds, lambda md: len(md.brokers) == 3, 5, "three brokers")
    t0 = time.monotonic()
    tid = result(mds[1].create_topic("orders", 6, {"retention.ms": "1000"}, replication_factor=3))
    written = time.monotonic()

    def settled(md):
        t = md.topic("orders")
        return (t is not None and t.topic_id == tid and len(t.partitions) == 6 and t.configs == {"retention.ms": "1000"}
                and all(p.leader == p.replicas[0] and p.isr == p.replicas for p in t.partitions))

    all_see(mds, settled, 1.0, "the topic with leaders")
    assert time.monotonic() - written < 1.0, "visible everywhere within a second"
    print(f"topic written in {written - t0:.3f} s, visible with leaders everywhere {time.monotonic() - written:.3f} s later")

    obj = znode_json(zk, L.topic_path("orders"))
    assert set(obj) == {"version", "topic_id", "partitions", "adding_replicas", "removing_replicas"}
    assert obj["version"] == 3 and obj["adding_replicas"] == {} and obj["removing_replicas"] == {}
    assert L.decode_topic_id(obj["topic_id"]) == tid and len(obj["topic_id"]) == 22
    assert sorted(obj["partitions"], key=int) == [str(p) for p in range(6)]
    for replicas in obj["partitions"].values():
        assert sorted(replicas) == [1, 2, 3]
    assert sorted(r[0] for r in obj["partitions"].values()) == [1, 1, 2, 2, 3, 3], "leaders balanced"
    controller_epoch = epoch_of(zk)
    for p, replicas in obj["partitions"].items():
        state = znode_json(zk, L.partition_state_path("orders", int(p)))
        assert state == {"controller_epoch": controller_epoch, "leader": replicas[0], "version": 1,
                         "leader_epoch": 0, "isr": replicas}
    assert znode_json(zk, L.topic_config_path("orders")) == {"version": 1, "config": {"retention.ms": "1000"}}
    view = [(p.leader, p.isr, p.replicas) for p in mds[0].topic("orders").partitions]
    assert all([(p.leader, p.isr, p.replicas) for p in md.topic("orders").partitions] == view for md in mds)

    with pytest.raises(KafkaError) as e:
        mds[2].create_topic("orders", 1)
    assert e.value.code == ErrorCode.TOPIC_ALREADY_EXISTS
    with pytest.raises(KafkaError) as e:
        mds[0].create_topic("too-many", 1, replication_factor=4)
    assert e.value.code == ErrorCode.INVALID_REPLICATION_FACTOR
    assert not zk.exists(L.topic_path("too-many"))


def test_explicit_assignment_partitions_configs_and_delete(members, zk):
    mds = [members(i) for i in (1, 2, 3)]
    all_see(mds, lambda md: len(md.brokers) == 3, 5, "three brokers")
    result(mds[0].create_topic("t", 2, assignment={0: [3, 1], 1: [2, 3]}))
    all_see(mds, lambda md: md.topic("t") is not None
            and [(p.leader, p.isr) for p in md.topic("t").partitions] == [(3, [3, 1]), (2, [2, 3])], 1, "t")
    with pytest.raises(KafkaError) as e:
        mds[0].create_topic("u", 1, assignment={0: [1, 9]})
    assert e.value.code == ErrorCode.INVALID_REPLICA_ASSIGNMENT

    result(mds[2].add_partitions("t", 4))
    all_see(mds, lambda md: len(md.topic("t").partitions) == 4
            and all(p.leader == p.replicas[0] and len(p.isr) == 2 for p in md.topic("t").partitions), 1,
            "four partitions")
    assert sorted(znode_json(zk, L.topic_path("t"))["partitions"]) == ["0", "1", "2", "3"]

    result(mds[1].set_topic_configs("t", {"cleanup.policy": "compact"}))
    all_see(mds, lambda md: md.topic("t").configs == {"cleanup.policy": "compact"}, 1, "the config")
    changes = zk.get_children(L.CONFIG_CHANGES)
    assert any(json.loads(zk.get(f"{L.CONFIG_CHANGES}/{c}")[0]) == {"version": 2, "entity_path": "topics/t"}
               for c in changes)
    assert all(c.startswith("config_change_") for c in changes)

    result(mds[0].set_dynamic_broker_configs({"log.cleaner.threads": "2"}, {"min.insync.replicas": "2"}))
    assert mds[0].wait_for(lambda: mds[0].dynamic_broker_configs == {"log.cleaner.threads": "2"}
                           and mds[0].dynamic_default_broker_configs == {"min.insync.replicas": "2"}, 1)
    assert mds[1].wait_for(lambda: mds[1].dynamic_default_broker_configs == {"min.insync.replicas": "2"}, 1)
    assert mds[1].dynamic_broker_configs == {}, "broker 1's configs are its own"
    assert znode_json(zk, L.broker_config_path(1)) == {"version": 1, "config": {"log.cleaner.threads": "2"}}

    tid = mds[0].topic("t").topic_id
    result(mds[1].delete_topic("t"))
    all_see(mds, lambda md: md.topic("t") is None and md.topic_by_id(tid) is None, 2, "the deletion")
    wait_until(lambda: not zk.exists(L.topic_path("t")) and not zk.exists(L.delete_topic_path("t"))
               and not zk.exists(L.topic_config_path("t")), 2, what="the znodes gone")
    # the name can be used again, with a new id
    tid2 = result(mds[2].create_topic("t", 1, replication_factor=2))
    all_see(mds, lambda md: md.topic("t") is not None and md.topic("t").topic_id == tid2
            and md.topic("t").partitions[0].leader != -1, 2, "the new t")


def test_broker_loss_moves_leadership_within_the_isr(members, zk):
    mds = {i: members(i) for i in (1, 2, 3)}
    all_see(mds.values(), lambda md: len(md.brokers) == 3, 5, "three brokers")
    controller = wait_until(lambda: controller_of(zk), 5, what="a controller")
    victim = next(i for i in (1, 2, 3) if i != controller)
    result(mds[controller].create_topic("p", 3, assignment={0: [victim, controller], 1: [controller, victim],
                                                              2: [victim]}))
    rest = [md for i, md in mds.items() if i != victim]
    all_see(rest, lambda md: md.topic("p") is not None and all(p.leader != -1 for p in md.topic("p").partitions),
            1, "leaders")
    mds[victim].close()

    def moved(md):
        ps = md.topic("p").partitions
        return ((ps[0].leader, ps[0].isr, ps[0].leader_epoch) == (controller, [controller], 1)
                and (ps[1].leader, ps[1].isr, ps[1].leader_epoch) == (controller, [controller], 1)
                and (ps[2].leader, ps[2].isr, ps[2].leader_epoch) == (-1, [victim], 1))

    all_see(rest, moved, SESSION_MS / 1000, "the new leaders")
    state = znode_json(zk, L.partition_state_path("p", 2))
    assert (state["leader"], state["isr"]) == (-1, [victim]), "offline, not elected outside the ISR"


# -- partition state updates conditional on the znode version -----------------------------------------
def test_partition_state_updates_are_conditional(members, zk):
    a, b = members(1), members(2)
    all_see([a, b], lambda md: len(md.brokers) == 2, 5, "two brokers")
    result(a.create_topic("isr", 1, assignment={0: [1, 2]}))
    all_see([a, b], lambda md: md.topic("isr") is not None and md.topic("isr").partitions[0].zk_version == 0, 1,
            "the state")
    p = a.partition("isr", 0)
    version = result(a.update_partition_state("isr", 0, 1, p.leader_epoch, [1], p.zk_version))
    assert version == 1
    all_see([a, b], lambda md: md.partition("isr", 0).isr == [1] and md.partition("isr", 0).zk_version == 1, 1,
            "the shrunk ISR")
    assert znode_json(zk, L.partition_state_path("isr", 0))["isr"] == [1]
    # a second writer that read version 0 loses
    with pytest.raises(KafkaError) as e:
        result(b.update_partition_state("isr", 0, 1, 0, [1, 2], 0))
    assert e.value.code == ErrorCode.INVALID_UPDATE_VERSION
    assert znode_json(zk, L.partition_state_path("isr", 0))["isr"] == [1]
    # the change was announced the way Kafka's brokers do (the controller then clears it)
    wait_until(lambda: zk.get_children(L.ISR_CHANGE_NOTIFICATION) == [], 2, what="the notification consumed")


def _writes_between(zk, run) -> int:
    """ZooKeeper transactions committed while ``run()`` ran (the zxids between two probe znodes)."""
    probe = f"/probe-{uuid.uuid4().hex[:8]}"
    zk.create(probe + "-a")
    run()
    zk.create(probe + "-b")
    return zk.exists(probe + "-b").czxid - zk.exists(probe + "-a").czxid - 1


def test_isr_changes_queued_together_are_written_together(members, zk):
    """ISR changes that wait for the writer thread together go to ZooKeeper together: their sets
    pipelined and one /isr_change_notification entry for all, which the controller deletes.
    Before, each change was a set, a notification and the controller's deletion of it, one after
    the other: after a heal, 50 internal partitions rejoining their ISRs held the data partition's
    change (and the elections queued behind the deletions) for seconds."""
    a, b = members(1), members(2)
    all_see([a, b], lambda md: len(md.brokers) == 2, 5, "two brokers")
    n = 40
    result(a.create_topic("many", n, assignment={p: [1, 2] for p in range(n)}))
    all_see([a, b], lambda md: md.topic("many") is not None
            and all(p.zk_version == 0 for p in md.topic("many").partitions), 5, "the states")

    def shrink_all() -> None:
        futures = [a.update_partition_state("many", p, 1, a.partition("many", p).leader_epoch, [1], 0)
                   for p in range(n)]
        assert [result(f) for f in futures] == [1] * n
        all_see([a, b], lambda md: all(md.partition("many", p).isr == [1] for p in range(n)), 5,
                "every shrunk ISR")
        wait_until(lambda: zk.get_children(L.ISR_CHANGE_NOTIFICATION) == [], 5, what="the notifications consumed")

    writes = _writes_between(zk, shrink_all)
    # n sets, plus a notification and its deletion per batch: the first change may leave alone
    # (the writer was idle), the rest wait for it together (one at a time this was 3 n)
    assert n <= writes <= n + 6, writes


def test_producer_id_blocks_are_claimed_conditionally(members, zk):
    a, b = members(1), members(2)
    ids_a = [a.allocate_producer_id() for _ in range(3)]
    ids_b = [b.allocate_producer_id() for _ in range(3)]
    assert ids_a == [0, 1, 2] and ids_b == [1000, 1001, 1002]
    assert znode_json(zk, L.PRODUCER_ID_BLOCK) == {"version": 1, "broker": 2, "block_start": "1000",
                                                   "block_end": "1999"}
    block = a.claim_producer_id_block()
    assert (block.block_start, block.block_end) == (2000, 2999)
    # running out: the next block is claimed in the background and used once this one is spent
    seen = set(ids_a)
    deadline = time.monotonic() + 10
    while len(seen) < 1200:
        try:
            seen.add(a.allocate_producer_id())
        except KafkaError as e:
            assert e.code == ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
            assert time.monotonic() < deadline
            time.sleep(0.01)
    assert not seen & set(range(1000, 3000)), "never an id of another broker's block"


# -- ZooKeeper faults -----------------------------------------------------------------------------------
def test_zookeeper_outage_reads_cached_image_writes_fail_then_resume(make_zookeeper):  # noqa: F811
    server = make_zookeeper()
    mds = [ZkMetadata(server.connect + "/outage", i, "127.0.0.1", 9000 + i, session_timeout_ms=6000)
           for i in (1, 2)]
    try:
        for md in mds:
            md.start()
        all_see(mds, lambda md: len(md.brokers) == 2, 5, "two brokers")
        result(mds[0].create_topic("kept", 2, replication_factor=2))
        all_see(mds, lambda md: md.topic("kept") is not None
                and all(p.leader != -1 for p in md.topic("kept").partitions), 1, "the topic")
        before = [(p.leader, p.isr) for p in mds[1].topic("kept").partitions]

        server.stop()
        wait_until(lambda: not any(md.connected for md in mds), 10, what="the members to notice")
        # reads: the cached image
        assert [(p.leader, p.isr) for p in mds[1].topic("kept").partitions] == before
        assert len(mds[1].brokers) == 2 and mds[1].cluster_id
        # writes: refused at once, with a clear error
        t0 = time.monotonic()
        with pytest.raises(ZooKeeperUnavailable) as e:
            result(mds[0].create_topic("during", 1))
        assert time.monotonic() - t0 < 2
        assert e.value.code == ErrorCode.REQUEST_TIMED_OUT
        assert "not reachable" in e.value.message and server.connect in e.value.message

        server.start()
        wait_until(lambda: all(md.connected for md in mds), 15, what="the members to reconnect")
        result(mds[1].create_topic("after", 1, replication_factor=2))
        all_see(mds, lambda md: md.topic("after") is not None and md.topic("after").partitions[0].leader != -1, 2,
                "a topic created after the outage")
        assert mds[0].topic("kept") is not None
    finally:
        for md in mds:
            md.close()


def test_unreachable_zookeeper_is_a_clear_error_after_the_connection_timeout():
    port = free_port()  # nothing listens there
    md = ZkMetadata(f"127.0.0.1:{port}/kafka", 1, "127.0.0.1", 9001, session_timeout_ms=6000,
                    connection_timeout_ms=1500)
    t0 = time.monotonic()
    with pytest.raises(ZooKeeperConnectError) as e:
        md.start()
    took = time.monotonic() - t0
    assert 1.4 <= took < 10, took
    assert f"127.0.0.1:{port}" in str(e.value) and "1500 ms" in str(e.value)
    assert "zookeeper.connection.timeout.ms" in str(e.value)


# -- the async interface -----------------------------------------------------------------------------
def test_on_an_event_loop_writes_are_futures_and_records_replay_on_the_loop(members):
    a, b = members(1), members(2)
    all_see([a, b], lambda md: len(md.brokers) == 2, 5, "two brokers")

    async def main():
        loop = asyncio.get_running_loop()
        a.attach_loop(loop)
        ready = asyncio.Event()
        threads = set()

        def listener(records):
            threads.add(threading.get_ident())
            t = a.topic("async")
            if t is not None and t.partitions[0].leader != -1:
                ready.set()

        a.add_listener(listener)
        hooks = []
        fut = a.create_topic("async", 1, replication_factor=2, on_commit=lambda: hooks.append("commit"),
                             on_abort=lambda: hooks.append("abort"))
        assert isinstance(fut, asyncio.Future)
        # each waiter gets its own view of the write: one cancelled (its connection closed)
        # neither cancels the write nor fails the others
        other = a.durable()
        assert other is not None and other is not fut
        other.cancel()
        tid = await fut
        await asyncio.sleep(0)  # done callbacks run in the next loop turn
        assert hooks == ["commit"]
        assert a.durable() is None
        await asyncio.wait_for(ready.wait(), 1.0)
        assert threads == {threading.get_ident()}, "replayed on the loop's thread only"
        assert a.topic("async").topic_id == tid
        p = a.partition("async", 0)
        # a failed write fails its future, and durable() hands that future out
        stale = a.update_partition_state("async", 0, p.leader, p.leader_epoch, p.isr, p.zk_version + 5)
        assert a.durable() is not None
        with pytest.raises(KafkaError) as e:
            await stale
        assert e.value.code == ErrorCode.INVALID_UPDATE_VERSION
        await asyncio.sleep(0)
        assert a.durable().exception().code == ErrorCode.INVALID_UPDATE_VERSION
        # a write ZooKeeper refuses runs on_abort: the topic is created behind a's back, and a's
        # image cannot know yet (it changes only on this loop, which has not run since)
        b.store.create(L.topic_path("raced"), L.encode_topic(uuid.uuid4(), {0: [2]}))
        assert a.topic("raced") is None
        raced = a.create_topic("raced", 1, on_commit=lambda: hooks.append("commit2"),
                               on_abort=lambda: hooks.append("abort2"))
        with pytest.raises(KafkaError) as e:
            await raced
        assert e.value.code == ErrorCode.TOPIC_ALREADY_EXISTS
        await asyncio.sleep(0)
        assert hooks == ["commit", "abort2"]

    asyncio.run(main())
    # the loop is gone: later changes are replayed directly again
    result(b.create_topic("after-loop", 1, replication_factor=2))
    assert a.wait_for(lambda: a.topic("after-loop") is not None, 1.0)


def test_a_controller_paused_past_its_session_is_fenced_when_it_resumes(zookeeper, zk_chroot, zk):  # noqa: F811
    """SIGSTOP the controller's process past the session timeout: another broker takes over;
    after SIGCONT the old controller's first writes (made under its old epoch) are refused."""
    procs: dict[int, subprocess.Popen] = {}
    try:
        procs[1] = spawn_member(zookeeper.connect + zk_chroot, 1)
        wait_until(lambda: controller_of(zk) == 1, 10, what="broker 1 as controller")
        procs[2] = spawn_member(zookeeper.connect + zk_chroot, 2)
        zk.create("/fence-target", b"before")
        old = procs[1]
        old.stdin.write("write /fence-target while-controller\n")
        old.stdin.flush()
        assert old.stdout.readline().strip() == "ok", "the controller's fenced write works while it leads"
        epoch = epoch_of(zk)
        zk.set("/fence-target", b"before")

        old.send_signal(signal.SIGSTOP)
        try:
            wait_until(lambda: controller_of(zk) == 2, SESSION_MS / 1000 * 2 + 5, what="broker 2 to take over")
            assert epoch_of(zk) == epoch + 1
            old.stdin.write("write /fence-target zombie\n")
            old.stdin.flush()
        finally:
            old.send_signal(signal.SIGCONT)
        answers = [old.stdout.readline().strip()]
        deadline = time.monotonic() + 15
        while answers[-1] == "unavailable" and time.monotonic() < deadline:
            old.stdin.write("write /fence-target zombie\n")
            old.stdin.flush()
            answers.append(old.stdout.readline().strip())
        assert answers[-1] == "fenced NOT_CONTROLLER", answers
        assert zk.get("/fence-target")[0] == b"before", "nothing written by the deposed controller"
        old.stdin.write("state\n")
        old.stdin.flush()
        assert old.stdout.readline().strip().startswith("active=False")
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
            p.wait(10)


def test_a_topic_written_by_kafka_2x_without_an_id_gets_one_and_leaders(members, zk):
    mds = [members(1), members(2)]
    all_see(mds, lambda md: len(md.brokers) == 2, 5, "two brokers")
    # what Kafka 2.7's AdminZkClient writes: version 2, no topic_id
    zk.create(L.topic_config_path("legacy"), b'{"version":1,"config":{"retention.ms":"5"}}')
    zk.create(L.topic_path("legacy"), b'{"version":2,"partitions":{"0":[2,1],"1":[1,2]},'
                                      b'"adding_replicas":{},"removing_replicas":{}}')
    all_see(mds, lambda md: md.topic("legacy") is not None
            and [(p.leader, p.isr) for p in md.topic("legacy").partitions] == [(2, [2, 1]), (1, [1, 2])], 2,
            "the legacy topic with leaders")
    obj = znode_json(zk, L.topic_path("legacy"))
    assert obj["version"] == 3 and L.decode_topic_id(obj["topic_id"]) == mds[0].topic("legacy").topic_id
    assert mds[1].topic("legacy").topic_id == mds[0].topic("legacy").topic_id
    assert mds[0].topic("legacy").configs == {"retention.ms": "5"}


# -- the controller's features: controlled shutdown, elections, reassignments, scale -------------------
def state_of(md, topic, p):
    part = md.topic(topic).partitions[p]
    return part.leader, list(part.isr), list(part.replicas)


def expand_isr(md_leader, topic, p, isr):
    """What a leader does once followers caught up: the ISR change, conditional on the version."""
    part = md_leader.topic(topic).partitions[p]
    return result(md_leader.update_partition_state(topic, p, part.leader, part.leader_epoch, isr, part.zk_version))


def test_controlled_shutdown_moves_leaders_and_leaves_the_isrs(members, zk):
    mds = [members(i) for i in (1, 2, 3)]
    all_see(mds, lambda md: len(md.brokers) == 3, 5, "three brokers")
    result(mds[0].create_topic("cs", 3, assignment={0: [1, 2, 3], 1: [2, 1, 3], 2: [3, 2, 1]}))
    result(mds[0].create_topic("solo", 1, assignment={0: [1]}))
    all_see(mds, lambda md: md.topic("solo") is not None and md.topic("cs") is not None
            and all(p.leader >= 0 for p in md.topic("cs").partitions) and md.topic("solo").partitions[0].leader == 1,
            5, "leaders")
    epoch0 = mds[0].topic("cs").partitions[0].leader_epoch
    # broker 1 (also the controller) shuts down: its leadership of cs-0 moves to 2, it leaves every ISR
    t0 = time.monotonic()
    assert mds[0].controlled_shutdown(10)
    print(f"controlled shutdown took {time.monotonic() - t0:.3f} s")
    assert zk.exists(L.controlled_shutdown_path(1)), "the kwire-specific request znode"
    all_see(mds, lambda md: [state_of(md, "cs", p)[:2] for p in range(3)] == [(2, [2, 3]), (2, [2, 3]), (3, [3, 2])],
            5, "leaders moved away from broker 1")
    assert mds[1].topic("cs").partitions[0].leader_epoch == epoch0 + 1
    # a partition with no other ISR member stays led by it (Kafka's behaviour)
    assert state_of(mds[1], "solo", 0)[:2] == (1, [1])
    # the broker stops (its session ends): the request znode goes with it
    mds[0].close()
    wait_until(lambda: not zk.exists(L.controlled_shutdown_path(1)), 5, what="the znode gone")
    all_see(mds[1:], lambda md: state_of(md, "solo", 0)[:2] == (-1, [1]), 5, "solo offline")


def test_preferred_unclean_and_automatic_elections(zookeeper, zk_chroot, members, zk):  # noqa: F811
    connect = zookeeper.connect + zk_chroot
    mds = [members(i, static_configs={"leader.imbalance.check.interval.seconds": "3600"}) for i in (1, 2, 3)]
    all_see(mds, lambda md: len(md.brokers) == 3, 5, "three brokers")
    result(mds[1].create_topic("pref", 1, assignment={0: [1, 2, 3]}))
    result(mds[1].create_topic("dirty", 2, assignment={0: [1, 2], 1: [1, 3]}))
    all_see(mds, lambda md: md.topic("pref") and md.topic("dirty") and md.topic("pref").partitions[0].leader == 1
            and all(p.leader == 1 for p in md.topic("dirty").partitions), 5, "leaders on 1")
    # dirty-0 and dirty-1: the ISR shrank to the leader (followers fell behind)
    expand_isr(mds[0], "dirty", 0, [1])
    expand_isr(mds[0], "dirty", 1, [1])
    all_see(mds[1:], lambda md: state_of(md, "dirty", 0)[1] == [1] and state_of(md, "dirty", 1)[1] == [1], 5, "shrunk")
    mds[0].close()  # broker 1 dies
    live = mds[1:]
    all_see(live, lambda md: state_of(md, "pref", 0)[:2] == (2, [2, 3])
            and state_of(md, "dirty", 0)[:2] == (-1, [1]) and state_of(md, "dirty", 1)[:2] == (-1, [1]),
            10, "failover; dirty offline")
    # unclean election asked for (ElectLeaders type 1): the live replica that was not in the ISR leads
    got = result(live[0].elect_leaders([("dirty", 0), ("pref", 0)], 1))
    assert isinstance(got[("pref", 0)], KafkaError) and got[("pref", 0)].code == ErrorCode.ELECTION_NOT_NEEDED
    assert not isinstance(got[("dirty", 0)], KafkaError), got
    all_see(live, lambda md: state_of(md, "dirty", 0)[:2] == (2, [2]), 5, "unclean leader 2")
    # unclean.leader.election.enable=true for the topic: the controller does it by itself
    assert state_of(live[0], "dirty", 1)[:2] == (-1, [1])
    result(live[1].set_topic_configs("dirty", {"unclean.leader.election.enable": "true"}))
    all_see(live, lambda md: state_of(md, "dirty", 1)[:2] == (3, [3]), 5, "automatic unclean leader 3")
    # broker 1 comes back: not in pref-0's ISR yet, so the preferred election is refused
    back = members(1, static_configs={"leader.imbalance.check.interval.seconds": "3600"})
    all_see(live, lambda md: len(md.brokers) == 3, 5, "broker 1 back")
    got = result(live[0].elect_leaders([("pref", 0)], 0))
    assert got[("pref", 0)].code == ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE
    # once the leader added it back to the ISR, the preferred election moves leadership to it
    expand_isr(live[0], "pref", 0, [2, 3, 1])
    all_see([back], lambda md: state_of(md, "pref", 0)[1] == [2, 3, 1], 5, "isr expanded")
    epoch = back.topic("pref").partitions[0].leader_epoch
    got = result(live[1].elect_leaders([("pref", 0)], 0))
    assert got[("pref", 0)] == epoch + 1
    all_see([back, *live], lambda md: state_of(md, "pref", 0)[:2] == (1, [2, 3, 1]), 5, "preferred leader 1")
    got = result(back.elect_leaders([("pref", 0), ("nope", 0), ("pref", 7)], 0))
    assert got[("pref", 0)].code == ErrorCode.ELECTION_NOT_NEEDED
    assert got[("nope", 0)].code == got[("pref", 7)].code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


def test_auto_leader_rebalance_moves_leadership_back(members):
    fast = {"leader.imbalance.check.interval.seconds": "0.3"}
    mds = [members(i, static_configs=fast) for i in (1, 2)]
    all_see(mds, lambda md: len(md.brokers) == 2, 5, "two brokers")
    result(mds[0].create_topic("rb", 2, assignment={0: [1, 2], 1: [2, 1]}))
    all_see(mds, lambda md: md.topic("rb") and [p.leader for p in md.topic("rb").partitions] == [1, 2], 5, "leaders")
    mds[1].close()  # broker 2 goes: broker 1 leads both
    all_see(mds[:1], lambda md: [p.leader for p in md.topic("rb").partitions] == [1, 1], 5, "failover")
    back = members(2, static_configs=fast)
    all_see([back], lambda md: len(md.brokers) == 2 and md.topic("rb") is not None, 5, "broker 2 back")
    assert [p.leader for p in mds[0].topic("rb").partitions] == [1, 1]
    expand_isr(mds[0], "rb", 1, [1, 2])
    # 100% of broker 2's preferred partitions are led elsewhere (> 10%): moved back within an interval
    all_see([mds[0], back], lambda md: [p.leader for p in md.topic("rb").partitions] == [1, 2], 5, "rebalanced")


def test_reassignment_completes_when_the_target_is_in_sync_and_cancels(members, zk):
    mds = [members(i) for i in (1, 2, 3)]
    all_see(mds, lambda md: len(md.brokers) == 3, 5, "three brokers")
    result(mds[0].create_topic("ra", 2, assignment={0: [1, 2], 1: [1, 2]}))
    all_see(mds, lambda md: md.topic("ra") and all(p.leader == 1 for p in md.topic("ra").partitions), 5, "leaders")
    assert mds[0].reassignment_error("ra", 0, [2, 9]).code == ErrorCode.INVALID_REPLICA_ASSIGNMENT
    assert "not alive" in mds[0].reassignment_error("ra", 0, [2, 9]).message
    assert mds[0].reassignment_error("ra", 0, None).code == ErrorCode.NO_REASSIGNMENT_IN_PROGRESS
    assert mds[0].reassignment_error("ra", 0, [2, 3, 1], False).code == ErrorCode.INVALID_REPLICATION_FACTOR
    got = result(mds[2].alter_reassignments([("ra", 0, [2, 3]), ("ra", 1, [1, 3])]))
    assert got == {("ra", 0): ([2, 3, 1], [3], [1]), ("ra", 1): ([1, 3, 2], [3], [2])}
    obj = znode_json(zk, L.topic_path("ra"))
    assert obj["partitions"] == {"0": [2, 3, 1], "1": [1, 3, 2]}, "KIP-455: replicas = target + original"
    assert obj["adding_replicas"] == {"0": [3], "1": [3]} and obj["removing_replicas"] == {"0": [1], "1": [2]}
    all_see(mds, lambda md: set(md.ongoing_reassignments()) == {("ra", 0), ("ra", 1)}, 5, "in progress")
    r = mds[1].ongoing_reassignments()[("ra", 0)]
    assert (r.replicas, r.adding_replicas, r.removing_replicas) == ([2, 3, 1], [3], [1])
    # ra-1 is cancelled before its new replica caught up: back to [1, 2]
    got = result(mds[1].alter_reassignments([("ra", 1, None)]))
    assert got == {("ra", 1): ([1, 2, 3], [], [3])}, "cancelled: back to the original, 3 leaving"
    all_see(mds, lambda md: state_of(md, "ra", 1) == (1, [1, 2], [1, 2]) and ("ra", 1) not in md.ongoing_reassignments(),
            5, "cancelled")
    # broker 3 caught up on ra-0 (the leader adds it to the ISR): the controller completes the move,
    # electing a leader from the target since 1 is leaving
    epoch = mds[0].topic("ra").partitions[0].leader_epoch
    expand_isr(mds[0], "ra", 0, [1, 2, 3])
    all_see(mds, lambda md: state_of(md, "ra", 0) == (2, [2, 3], [2, 3]) and not md.ongoing_reassignments(),
            5, "reassignment complete")
    assert mds[0].topic("ra").partitions[0].leader_epoch > epoch
    obj = znode_json(zk, L.topic_path("ra"))
    assert obj["partitions"] == {"0": [2, 3], "1": [1, 2]}
    assert obj["adding_replicas"] == {} and obj["removing_replicas"] == {}


def test_two_hundred_topics_settle_fast_and_a_broker_loss_touches_only_its_partitions(members):
    mds = [members(i) for i in (1, 2, 3)]
    all_see(mds, lambda md: len(md.brokers) == 3, 5, "three brokers")
    controller = next(md for md in mds if md.controller.active)
    t0 = time.monotonic()
    futs = [mds[i % 3].create_topic(f"s{i:03d}", 3, replication_factor=2) for i in range(200)]
    for f in futs:
        result(f)
    written = time.monotonic()
    all_see(mds, lambda md: len(md.topics) == 200 and all(p.leader >= 0 for t in md.topics.values()
                                                           for p in t.partitions), 60, "600 leaders")
    settled = time.monotonic()
    print(f"200 topics x 3 partitions: written in {written - t0:.2f} s, all led everywhere "
          f"{settled - t0:.2f} s after the first write")
    # the printed figure is the measurement; the bound is one a machine loaded by other jobs still
    # meets (31.7 s was seen with a whole suite and two nemesis runs beside it)
    assert settled - t0 < 60
    victim = next(md for md in mds if md is not controller)
    affected = sum(1 for t in controller.topics.values() for p in t.partitions if victim.node_id in p.replicas)
    before = controller.controller.writes
    victim.close()
    others = [md for md in mds if md is not victim]
    t1 = time.monotonic()
    all_see(others, lambda md: all(victim.node_id not in p.isr and p.leader >= 0
                                   for t in md.topics.values() for p in t.partitions), 20, "the loss handled")
    writes = controller.controller.writes - before
    print(f"broker loss: {affected} affected partitions, {writes} state writes, "
          f"handled in {time.monotonic() - t1:.2f} s")
    assert writes == affected, "only the partitions that had the lost broker changed"
