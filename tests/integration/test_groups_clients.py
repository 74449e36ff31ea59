"""Consumer groups with real clients (kafka-python, aiokafka, confluent-kafka) over TCP.

Each scenario runs per client: subscribe/consume/commit/close and resume from
the committed offsets, committed metadata round trips, 2 and 3 members
splitting a 6-partition topic, a member leaving and a member killed with
SIGKILL (the others take over after the session timeout), mixed clients in one
group, and static membership (a restarted static member rejoins without a
rebalance); cooperative-sticky (confluent-kafka's librdkafka assignor, and
kafka-python's): an even split, and a member leaving makes the others only gain
partitions; members that commit in their revocation listener: no record is
consumed twice by the group when a member joins mid-stream and when one leaves.

Join-to-first-record (subscribing to an empty group, with
``group.initial.rebalance.delay.ms=0``, to the first record) must stay under
JOIN_TO_FIRST_RECORD_S; the times are printed at the end of the module, one
line each: ``join-to-first-record client=X scenario=Y seconds=Z`` (shown
without ``-s`` too).
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import uuid

import pytest
from test_groups_support import (
    KILLABLE_CONSUMER, KINDS, LIVE, TIMINGS, Member, Stream, create_topic, drained, duplicates,
    load_allowance, produce, wait_until,
)

SESSION_MS = 3000
JOIN_TO_FIRST_RECORD_S = 3.0  # loose: well under a second on an idle machine; times load_allowance()


@pytest.fixture(scope="module")
def gbroker(tmp_path_factory, pytestconfig):
    """One broker for the module, with a short minimum session timeout so expiry tests are quick."""
    from conftest import InProcessBroker, _overrides

    d = tmp_path_factory.mktemp("kwire-groups")
    b = InProcessBroker(d, _overrides(d, {"group.min.session.timeout.ms": "1000"}, {}))
    yield b
    b.stop()
    if TIMINGS:
        capture = pytestconfig.pluginmanager.getplugin("capturemanager")
        with capture.global_and_fixture_disabled():
            print("\n# group.initial.rebalance.delay.ms=0, in-process broker")
            for client, scenario, secs in TIMINGS:
                print(f"join-to-first-record client={client} scenario={scenario} seconds={secs:.3f}")


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
    TIMINGS.append((kind, "new-group", m.first_record_s))
    assert m.first_record_s < JOIN_TO_FIRST_RECORD_S * load_allowance(), \
        f"{kind}: {m.first_record_s:.2f}s from joining an empty group to the first record"
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
    wait_until(lambda: drained([m2], {p: 15 for p in range(3)}), what="the member to reach the end")
    assert sorted(m2.values()) == sorted(f"c-{i}".encode() for i in range(6))
    TIMINGS.append((kind, "rejoin-empty-group-resume-from-commit", m2.first_record_s))
    assert m2.first_record_s < JOIN_TO_FIRST_RECORD_S * load_allowance(), \
        f"{kind}: {m2.first_record_s:.2f}s from rejoining the Empty group to the first record"
    stop_all(m2)


def _split(members, total=6):
    sets = [m.assigned for m in members]
    union = set().union(*sets)
    return union == set(range(total)) and sum(len(s) for s in sets) == total and \
        all(len(s) == total // len(members) for s in sets)


def settled(broker, group, members) -> bool:
    """The members split the partitions in a Stable generation that outlasts a full poll of each.

    A kafka-python leader rejoins once right after its first join (its metadata snapshot
    changes); the rejoin starts inside a later poll(). Each ``call`` runs after a poll
    returns, so after two rounds every member has run a whole poll since the generation
    was read, and a rejoin would have shown up as a new generation or a non-Stable group.
    """
    g = coordinator_group(broker, group)
    if g is None or g.state != "Stable" or not _split(members):
        return False
    generation = g.generation_id
    for _ in range(2):
        for m in members:
            m.call("positions")
    g = coordinator_group(broker, group)
    return g.state == "Stable" and g.generation_id == generation and _split(members)


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


def _events_since(m, mark, kind):
    return [ps for k, ps in m.events[mark:] if k == kind and ps]


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("kind", ["confluent", "kafka-python"])
def test_cooperative_sticky_split_and_incremental_take_over(gbroker, kind, n):
    """partition.assignment.strategy=cooperative-sticky: even split, and on a leave the others
    keep what they have (no revocation, KIP-429) and take over the leaver's partitions."""
    topic, group = names(f"coop{n}")
    bs = gbroker.bootstrap
    create_topic(bs, topic, 6)
    produce(bs, topic, 60, 6, tag="a")
    members = [Member(kind, bs, topic, group, session_ms=SESSION_MS, assignor="cooperative-sticky",
                      commit_on_revoke=True, client_id=f"{kind}-coop-{i}") for i in range(n)]
    wait_until(lambda: _split(members), what=f"{n} {kind} cooperative-sticky members to split 6 partitions")
    wait_until(lambda: sum(len(m.records) for m in members) >= 60, what="all 60 records")
    g = coordinator_group(gbroker, group)
    assert g.protocol_name == "cooperative-sticky" and len(g.members) == n
    leaver, stayers = members[0], members[1:]
    before = [set(m.assigned) for m in stayers]
    marks = [len(m.events) for m in stayers]
    leaver_parts = set(leaver.assigned)
    leaver.stop()
    wait_until(lambda: _split(stayers), what="the remaining members to take over")
    for m, had, mark in zip(stayers, before, marks):
        assert not _events_since(m, mark, "revoked") and not _events_since(m, mark, "lost"), \
            f"{m.client_id} gave up partitions when a member left (eager, not incremental): {m.events[mark:]}"
        assert had <= m.assigned, f"{m.client_id} had {sorted(had)}, now {sorted(m.assigned)}"
        gained = set().union(*_events_since(m, mark, "assigned"))
        assert gained == m.assigned - had, (m.client_id, m.events[mark:])
    assert set().union(*(m.assigned - had for m, had in zip(stayers, before))) == leaver_parts
    produce(bs, topic, 60, 6, tag="b")
    wait_until(lambda: drained(stayers, {p: 20 for p in range(6)}),
               what="the remaining members to reach the end of every partition")
    values = [v for m in members for _, _, v in m.records]
    assert set(values) == {f"{t}-{i}".encode() for t in "ab" for i in range(60)}
    assert not duplicates(members), f"records consumed twice: {duplicates(members)[:5]}"
    stop_all(*stayers)
    assert not leaver.errors, leaver.errors


@pytest.mark.parametrize("kind", KINDS)
def test_commit_on_revoke_no_record_consumed_twice(gbroker, kind):
    """Members commit what they processed in their revocation listener (synchronously, before
    giving the partitions up): a member joining mid-stream, then one leaving mid-stream, makes
    no record reach the group twice, and none is missed."""
    topic, group = names("once")
    bs = gbroker.bootstrap
    create_topic(bs, topic, 6)
    stream = Stream(bs, topic, 6)
    try:
        a = Member(kind, bs, topic, group, session_ms=SESSION_MS, commit_on_revoke=True, client_id=f"{kind}-a")
        wait_until(lambda: len(a.assigned) == 6 and len(a.records) >= 60, what="the first member to consume")
        b = Member(kind, bs, topic, group, session_ms=SESSION_MS, commit_on_revoke=True, client_id=f"{kind}-b")
        wait_until(lambda: _split([a, b]), what="the joining member to get half of the partitions")
        # both consume while the stream goes on
        marks = [len(a.records), len(b.records)]
        wait_until(lambda: len(a.records) >= marks[0] + 30 and len(b.records) >= marks[1] + 30,
                   what="both members to consume after the split")
        assert a.revoke_commits, f"{kind}: the first member committed nothing when it lost partitions"
        commits = len(a.revoke_commits)
        a.stop()  # leaves mid-stream; its listener commits first
        assert len(a.revoke_commits) > commits, f"{kind}: nothing committed on close"
        wait_until(lambda: len(b.assigned) == 6, what="the other member to take over")
        mark = len(b.records)
        wait_until(lambda: len(b.records) >= mark + 60, what="the remaining member to consume")
    finally:
        ends = stream.stop()
    wait_until(lambda: drained([b], ends), what="the remaining member to reach the end of every partition")
    dups = duplicates([a, b])
    assert not dups, f"{kind}: {len(dups)} records consumed twice by the group, e.g. {dups[:5]}"
    got = {(p, o) for m in (a, b) for p, o, _ in m.records}
    assert got == {(p, o) for p, end in ends.items() for o in range(end)}
    stop_all(a, b)


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
    # every value, not 60 records: a member that rejoins (kafka-python's leader does once) can
    # read a partition again before the owner of another has read it
    want = {f"v-{i}".encode() for i in range(60)}
    wait_until(lambda: set().union(*(m.values() for m in members)) >= want, what="all 60 values")
    assert set().union(*(m.values() for m in members)) == want
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
    wait_until(lambda: settled(gbroker, group, list(members.values())),
               what="two static members to split in a Stable generation that stays")
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
