"""KIP-848 consumer groups (ConsumerGroupHeartbeat) with confluent-kafka's ``group.protocol=consumer``.

librdkafka is the Python client with the new protocol. Scenarios: consume,
commit and resume; 2 and 3 members split a 6-partition topic evenly; a member
leaves and one is killed with SIGKILL (the others take over after the
session timeout); a regex subscription picks up a topic created later;
AdminClient describe (ConsumerGroupDescribe), list and delete; a classic group
is described through DescribeGroups after ConsumerGroupDescribe answers
GROUP_ID_NOT_FOUND; groups and offsets survive a broker restart.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import uuid

import pytest
from test_groups_support import (
    KILLABLE_CONFLUENT_848, LIVE, TIMINGS, Member, create_topic, drained, produce, wait_until,
)

FAST = {"group.consumer.heartbeat.interval.ms": "500", "group.consumer.min.heartbeat.interval.ms": "500",
        "group.consumer.session.timeout.ms": "6000", "group.consumer.min.session.timeout.ms": "3000",
        "group.min.session.timeout.ms": "1000"}


@pytest.fixture(scope="module")
def kbroker(tmp_path_factory):
    from conftest import InProcessBroker, _overrides

    d = tmp_path_factory.mktemp("kwire-848")
    b = InProcessBroker(d, _overrides(d, FAST, {}))
    yield b
    b.stop()
    timings = [t for t in TIMINGS if t[0] == "confluent-848"]
    if timings:
        print("\njoin-to-first-record, KIP-848 (group.consumer.heartbeat.interval.ms=500):")
        for client, scenario, secs in timings:
            print(f"  {client:13s} {scenario:28s} {secs:6.3f} s")


@pytest.fixture(autouse=True)
def stop_leftover_members():
    yield
    for m in list(LIVE):
        m.stop()


def names(tag):
    u = uuid.uuid4().hex[:8]
    return f"t-{tag}-{u}", f"g-{tag}-{u}"


def member(bs, topic, group, **kw):
    return Member("confluent", bs, topic, group, group_protocol="consumer", **kw)


def consumer_group(broker, gid):
    gc = broker.server.broker.group_coordinator
    shard = gc.shards.get(gc.partition_for(gid))
    return None if shard is None else shard.groups.get(gid)


def test_consume_commit_resume(kbroker):
    topic, group = names("k848")
    bs = kbroker.bootstrap
    create_topic(bs, topic, 3)
    produce(bs, topic, 30, 3, tag="a")
    m = member(bs, topic, group)
    wait_until(lambda: len(m.records) >= 30, what="30 records")
    TIMINGS.append(("confluent-848", "subscribe, first record", m.first_record_s))
    m.call("commit", {p: (10, f"m{p}") for p in range(3)})
    got = m.call("committed", [0, 1, 2])
    assert got == {p: (10, f"m{p}") for p in range(3)}
    g = consumer_group(kbroker, group)
    assert g.type == "consumer" and g.state == "Stable"
    m.stop()
    assert consumer_group(kbroker, group).state == "Empty"
    produce(bs, topic, 3, 3, tag="b")
    m2 = member(bs, topic, group)
    wait_until(lambda: {b"b-0", b"b-1", b"b-2"} <= m2.values(), what="the new records")
    assert min(o for _, o, _ in m2.records) == 10
    TIMINGS.append(("confluent-848", "rejoin, resume from commit", m2.first_record_s))
    m2.stop()


def _even(members, total=6):
    sets = [m.assigned for m in members]
    return set().union(*sets) == set(range(total)) and sum(map(len, sets)) == total and \
        all(len(s) == total // len(members) for s in sets)


@pytest.mark.parametrize("n", [2, 3])
def test_members_split_evenly_and_take_over(kbroker, n):
    topic, group = names(f"k848split{n}")
    bs = kbroker.bootstrap
    create_topic(bs, topic, 6)
    produce(bs, topic, 60, 6)
    members = [member(bs, topic, group) for _ in range(n)]
    wait_until(lambda: _even(members), what=f"{n} members to split 6 partitions")
    wait_until(lambda: sum(len(m.records) for m in members) >= 60, what="all records")
    members[0].stop()
    wait_until(lambda: _even(members[1:]), what="the others to take over")
    for m in members[1:]:
        m.stop()


def test_killed_member_replaced_after_session_timeout(kbroker):
    topic, group = names("k848kill")
    bs = kbroker.bootstrap
    create_topic(bs, topic, 6)
    proc = subprocess.Popen([sys.executable, "-c", KILLABLE_CONFLUENT_848, bs, topic, group],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: consumer_group(kbroker, group) is not None
                   and len(consumer_group(kbroker, group).members) == 1, what="the subprocess member")
        m = member(bs, topic, group)
        wait_until(lambda: len(m.assigned) == 3, what="a 3/3 split")
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        killed = time.monotonic()
        wait_until(lambda: len(m.assigned) == 6, timeout=20, what="the survivor to take over")
        assert time.monotonic() - killed >= 5.5  # group.consumer.session.timeout.ms=6000
        m.stop()
    finally:
        if proc.poll() is None:
            proc.kill()


def test_regex_subscription_follows_new_topics(kbroker):
    u = uuid.uuid4().hex[:8]
    group = f"g-regex-{u}"
    bs = kbroker.bootstrap
    create_topic(bs, f"rx-{u}-a", 2)
    m = member(bs, f"rx-{u}-a", group, topics=[f"^rx-{u}-.*"])
    wait_until(lambda: m.assigned_tps == {(f"rx-{u}-a", 0), (f"rx-{u}-a", 1)}, what="the first topic")
    create_topic(bs, f"rx-{u}-b", 1)
    wait_until(lambda: (f"rx-{u}-b", 0) in m.assigned_tps, what="the topic created later")
    m.stop()


def test_admin_describe_list_delete(kbroker):
    from confluent_kafka.admin import AdminClient

    topic, group = names("k848admin")
    bs = kbroker.bootstrap
    create_topic(bs, topic, 2)
    m = member(bs, topic, group)
    wait_until(lambda: m.assigned == {0, 1}, what="assignment")
    classic = Member("confluent", bs, topic, group + "-classic")
    wait_until(lambda: classic.assigned == {0, 1}, what="classic assignment")
    admin = AdminClient({"bootstrap.servers": bs})
    desc = admin.describe_consumer_groups([group, group + "-classic"], request_timeout=10)
    d = desc[group].result()
    assert d.type.name == "CONSUMER" and d.state.name == "STABLE" and d.partition_assignor == "uniform"
    (dm,) = d.members
    assert sorted(tp.partition for tp in dm.assignment.topic_partitions) == [0, 1]
    # ConsumerGroupDescribe answers GROUP_ID_NOT_FOUND for a classic group; librdkafka falls back
    dc = desc[group + "-classic"].result()
    assert dc.type.name == "CLASSIC" and dc.state.name == "STABLE" and len(dc.members) == 1
    listed = {g.group_id: g for g in admin.list_consumer_groups(request_timeout=10).result().valid}
    assert listed[group].type.name == "CONSUMER" and listed[group + "-classic"].type.name == "CLASSIC"
    err = admin.delete_consumer_groups([group], request_timeout=10)[group].exception()
    assert err.args[0].name() == "NON_EMPTY_GROUP"
    m.stop()
    classic.stop()
    assert admin.delete_consumer_groups([group], request_timeout=10)[group].result() is None
    assert consumer_group(kbroker, group) is None


def test_consumer_group_survives_restart(spawn_broker, tmp_path):
    topic, group = names("k848restart")
    data = tmp_path / "data"
    b = spawn_broker(data, overrides=FAST)
    create_topic(b.bootstrap, topic, 2)
    produce(b.bootstrap, topic, 10, 2, tag="a")
    m = member(b.bootstrap, topic, group)
    wait_until(lambda: len(m.records) >= 10, what="records")
    m.call("commit", {0: (3, "x"), 1: (4, "y")})
    m.stop()
    b.terminate()
    b2 = spawn_broker(data, overrides=FAST)
    from confluent_kafka import ConsumerGroupTopicPartitions
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": b2.bootstrap})

    def offsets():
        try:
            r = admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group)])[group].result()
        except Exception:
            return None
        return {tp.partition: (tp.offset, tp.metadata) for tp in r.topic_partitions}

    assert wait_until(offsets, what="offsets after the restart") == {0: (3, "x"), 1: (4, "y")}
    d = admin.describe_consumer_groups([group], request_timeout=10)[group].result()
    assert d.type.name == "CONSUMER" and d.state.name == "EMPTY"
    m2 = member(b2.bootstrap, topic, group)
    wait_until(lambda: len(m2.records) >= 3, what="records after the committed offsets")
    wait_until(lambda: drained([m2], {0: 5, 1: 5}), what="the member to reach the end")
    assert sorted(o for _, o, _ in m2.records) == [3, 4, 4]  # p0: 3, 4; p1: 4
    m2.stop()
