"""Consumer groups with real clients (kafka-python, aiokafka, confluent-kafka) over TCP.

Each scenario runs per client: subscribe/consume/commit/close and resume from
the committed offsets, committed metadata round trips, 2 and 3 members
splitting a 6-partition topic, a member leaving and a member killed with
SIGKILL (the others take over after the session timeout), mixed clients in one
group, and static membership (a restarted static member rejoins without a
rebalance). Join-to-first-record times are printed at the end of the module
(``pytest -s``) with ``group.initial.rebalance.delay.ms=0``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid

import pytest
from test_groups_support import (
    KILLABLE_CONSUMER, KINDS, LIVE, TIMINGS, Member, create_topic, produce, wait_until,
)

SESSION_MS = 3000


@pytest.fixture(scope="module")
def gbroker(tmp_path_factory):
    """One broker for the module, with a short minimum session timeout so expiry tests are quick."""
    from conftest import InProcessBroker, _overrides

    d = tmp_path_factory.mktemp("kwire-groups")
    b = InProcessBroker(d, _overrides(d, {"group.min.session.timeout.ms": "1000"}, {}))
    yield b
    b.stop()
    if TIMINGS:
        print("\njoin-to-first-record (group.initial.rebalance.delay.ms=0):")
        for client, scenario, secs in TIMINGS:
            print(f"  {client:13s} {scenario:28s} {secs:6.3f} s")


@pytest.fixture(autouse=True)
def stop_leftover_members():
    yield
    for m in list(LIVE):
        m.stop()


def names(tag: str) -> tuple[str, str]:
    u = uuid.uuid4().hex[:8]
    return f"t-{tag}-{u}", f"g-{tag}-{u}"


def coordinator_group(broker, group_id):
    gc = broker.server.broker.group_coordinator
    shard = gc.shards.get(gc.partition_for(group_id))
    return None if shard is None else shard.groups.get(group_id)


def stop_all(*members):
    for m in members:
        m.stop()
    for m in members:
        assert not m.errors, (m.kind, m.errors)


@pytest.mark.parametrize("kind", KINDS)
def test_consume_commit_close_and_resume(gbroker, kind):
    topic, group = names("resume")
    bs = gbroker.bootstrap
    create_topic(bs, topic, 3)
    produce(bs, topic, 30, 3, tag="a")
    m = Member(kind, bs, topic, group, session_ms=SESSION_MS)
    wait_until(lambda: len(m.records) >= 30, what=f"{kind} to read 30 records")
    TIMINGS.append((kind, "subscribe, first record", m.first_record_s))
    m.call("commit")  # synchronous commit of the positions
    produce(bs, topic, 9, 3, tag="b")
    wait_until(lambda: len(m.records) >= 39, what="9 more records")
    m.call("commit_async")
    committed = m.call("committed", [0, 1, 2])
    assert {p: (o.offset if hasattr(o, "offset") else o[0] if isinstance(o, tuple) else o)
            for p, o in committed.items()} == {0: 13, 1: 13, 2: 13}
    # metadata strings round-trip through the coordinator
    m.call("commit", {p: (13, f"meta-{kind}-{p}") for p in range(3)})
    committed = m.call("committed", [0, 1, 2])
    metas = {p: (o.metadata if hasattr(o, "metadata") else o[1]) for p, o in committed.items()}
    assert metas == {p: f"meta-{kind}-{p}" for p in range(3)}
    stop_all(m)
    assert coordinator_group(gbroker, group).state == "Empty"
    produce(bs, topic, 6, 3, tag="c")
    m2 = Member(kind, bs, topic, group, session_ms=SESSION_MS)
    wait_until(lambda: len(m2.records) >= 6, what="the records after the committed offsets")
    time.sleep(0.5)
    assert sorted(m2.values()) == sorted(f"c-{i}".encode() for i in range(6))
    TIMINGS.append((kind, "rejoin, resume from commit", m2.first_record_s))
    stop_all(m2)


def _split(members, total=6):
    sets = [m.assigned for m in members]
    union = set().union(*sets)
    return union == set(range(total)) and sum(len(s) for s in sets) == total and \
        all(len(s) == total // len(members) for s in sets)


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("kind", KINDS)
def test_members_split_partitions_evenly_and_take_over(gbroker, kind, n):
    topic, group = names(f"split{n}")
    bs = gbroker.bootstrap
    create_topic(bs, topic, 6)
    produce(bs, topic, 60, 6)
    members = [Member(kind, bs, topic, group, session_ms=SESSION_MS) for _ in range(n)]
    wait_until(lambda: _split(members), what=f"{n} {kind} members to split 6 partitions")
    wait_until(lambda: sum(len(m.records) for m in members) >= 60, what="all 60 records")
    leaver, stayers = members[0], members[1:]
    leaver.stop()
    wait_until(lambda: _split(stayers), what="the remaining members to take over")
    stop_all(*stayers)


@pytest.mark.parametrize("kind", KINDS)
def test_killed_member_is_replaced_after_session_timeout(gbroker, kind):
    topic, group = names("kill")
    bs = gbroker.bootstrap
    create_topic(bs, topic, 6)
    proc = subprocess.Popen([sys.executable, "-c", KILLABLE_CONSUMER, bs, topic, group, str(SESSION_MS)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        wait_until(lambda: coordinator_group(gbroker, group) is not None
                   and coordinator_group(gbroker, group).state == "Stable", what="the subprocess member")
        survivor = Member(kind, bs, topic, group, session_ms=SESSION_MS)
        wait_until(lambda: len(survivor.assigned) == 3, what="a 3/3 split with the subprocess")
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        killed_at = time.monotonic()
        wait_until(lambda: len(survivor.assigned) == 6, timeout=SESSION_MS / 1000 + 15,
                   what="the survivor to take over after the session timeout")
        took = time.monotonic() - killed_at
        assert took >= SESSION_MS / 1000 - 0.5, f"took over after {took:.1f}s, before the session timeout"
        stop_all(survivor)
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.parametrize("kinds", [("kafka-python", "confluent"), KINDS], ids=["2-clients", "3-clients"])
def test_mixed_clients_in_one_group(gbroker, kinds):
    topic, group = names("mixed")
    bs = gbroker.bootstrap
    create_topic(bs, topic, 6)
    produce(bs, topic, 60, 6)
    members = [Member(k, bs, topic, group, session_ms=SESSION_MS, assignor="range") for k in kinds]
    wait_until(lambda: _split(members), what=f"{' + '.join(kinds)} to split 6 partitions (range)")
    wait_until(lambda: sum(len(m.records) for m in members) >= 60, what="all 60 records")
    assert set().union(*(m.values() for m in members)) == {f"v-{i}".encode() for i in range(60)}
    g = coordinator_group(gbroker, group)
    assert g.protocol_name == "range" and len(g.members) == len(kinds)
    leaver = members[0]
    leaver.stop()
    wait_until(lambda: _split(members[1:]), what="the other clients to take over")
    stop_all(*members[1:])


@pytest.mark.parametrize("kind", KINDS)
def test_static_member_rejoins_without_rebalance(gbroker, kind):
    topic, group = names("static")
    bs = gbroker.bootstrap
    create_topic(bs, topic, 6)
    members = {i: Member(kind, bs, topic, group, instance_id=i, session_ms=10_000)
               for i in ("static-a", "static-b")}
    wait_until(lambda: _split(list(members.values())), what="two static members to split")
    time.sleep(0.5)  # let the clients settle (a kafka-python leader rejoins once after its first join)
    g = coordinator_group(gbroker, group)
    generation = g.generation_id
    # restart the follower: a restarted leader recomputes the assignment and rejoins
    # (a client's choice; Kafka rebalances for a leader that rejoins a Stable group)
    follower = next(i for i, mid in g.static_members.items() if mid != g.leader)
    leader = "static-a" if follower == "static-b" else "static-b"
    parts = set(members[follower].assigned)
    members[follower].stop()
    time.sleep(0.3)
    g = coordinator_group(gbroker, group)
    if g.generation_id != generation or follower not in g.static_members:
        pytest.fail(f"{kind}: closing a static member changed the group: gen {generation} -> "
                    f"{g.generation_id}, static {g.static_members}")
    again = Member(kind, bs, topic, group, instance_id=follower, session_ms=10_000)
    wait_until(lambda: again.assigned == parts, what="the restarted static member to get its partitions back")
    g = coordinator_group(gbroker, group)
    assert g.generation_id == generation, "a static member's restart must not rebalance"
    assert members[leader].assigned and not (members[leader].assigned & again.assigned)
    stop_all(members[leader], again)
