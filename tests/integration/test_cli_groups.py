"""``kwire groups list|describe|delete|reset-offsets`` against a real broker and real consumer groups.

The group state comes from kafka-python consumers (``Member`` in
test_groups_support.py) that subscribe, consume and commit; the tool runs as
``python -m kwire groups ...`` in a subprocess. What is checked:

* the client calls underneath (FindCoordinator, ListGroups, DescribeGroups with
  the consumer assignment decoded, OffsetFetch, simple OffsetCommit,
  DeleteGroups) against what the consumers did;
* list with states and the --state filter;
* describe of an active group (offsets, log end, lag, consumer id, host,
  client id per partition), of an empty group (offsets and lag only) and of
  an unknown group (exit 1);
* delete: NON_EMPTY_GROUP while members are present (exit 1), then success;
* reset-offsets: refused while the group is active; dry run changes nothing;
  --execute with every scenario (earliest, latest, offset with clamping,
  datetime, shift-by) on all or some partitions, and a consumer that joins
  afterwards starts exactly at the new offsets;
* usage errors exit 2.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest
from test_groups_support import LIVE, Member, create_topic, drained, produce, wait_until

from kwire.client import KafkaClient, KafkaClientError, decode_consumer_assignment
from kwire.protocol.errors import ErrorCode

pytestmark = pytest.mark.timeout(180)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def stop_leftover_members():
    yield
    for m in list(LIVE):
        m.stop()


def names(tag: str) -> tuple[str, str]:
    u = uuid.uuid4().hex[:8]
    return f"t-cg-{tag}-{u}", f"g-cg-{tag}-{u}"


def groups(broker, action, *args, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kwire", "groups", action,
                           "--bootstrap-server", broker.bootstrap, *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def ok(proc) -> subprocess.CompletedProcess:
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}"
    return proc


def table(stdout: str) -> list[dict[str, str]]:
    """A whitespace-separated table with a header line -> rows as dicts."""
    lines = [line.split() for line in stdout.splitlines() if line.strip()]
    assert lines, "empty output"
    header = lines[0]
    return [dict(zip(header, row)) for row in lines[1:]]


def consuming_member(broker, topic, group, partitions=3, count=30, client_id="cli-groups-member"):
    m = Member("kafka-python", broker.bootstrap, topic, group, client_id=client_id)
    wait_until(lambda: len(m.records) >= count and len(m.assigned) == partitions,
               what=f"the member to read {count} records")
    m.call("commit")
    return m


def committed(broker, group) -> dict[tuple[str, int], int]:
    with KafkaClient(broker.bootstrap) as c:
        return {k: v.offset for k, v in c.offset_fetch(group).items()}


# -- the client underneath ------------------------------------------------------------------------

def test_client_group_calls(broker):
    topic, group = names("client")
    create_topic(broker.bootstrap, topic, 3)
    produce(broker.bootstrap, topic, 30, 3)
    m = consuming_member(broker, topic, group)
    m.call("commit", {0: (4, "meta-0"), 1: (5, ""), 2: (10, "m2")})
    with KafkaClient(broker.bootstrap) as c:
        node = c.find_coordinator(group)
        assert node in c.metadata([]).brokers
        listed = {g.group_id: g for g in c.list_groups()}
        assert listed[group].state == "Stable" and listed[group].protocol_type == "consumer"
        assert group in {g.group_id for g in c.list_groups(states=["Stable"])}
        assert group not in {g.group_id for g in c.list_groups(states=["Empty"])}
        d = c.describe_group(group)
        assert d.state == "Stable" and d.protocol_type == "consumer" and d.protocol == "range"
        assert len(d.members) == 1
        member = d.members[0]
        assert member.client_id == "cli-groups-member" and "127.0.0.1" in member.client_host
        assert member.assignment == {topic: [0, 1, 2]}
        assert decode_consumer_assignment(member.member_assignment) == {topic: [0, 1, 2]}
        offsets = c.offset_fetch(group)
        assert {k: (v.offset, v.metadata) for k, v in offsets.items()} == \
            {(topic, 0): (4, "meta-0"), (topic, 1): (5, ""), (topic, 2): (10, "m2")}
        assert set(c.offset_fetch(group, {topic: [1, 7]})) == {(topic, 1)}
        # a simple commit is refused while the group has members
        with pytest.raises(KafkaClientError) as e:
            c.offset_commit(group, {(topic, 0): 1})
        assert e.value.code in (ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.ILLEGAL_GENERATION)
        assert c.delete_groups([group]) == {group: ErrorCode.NON_EMPTY_GROUP}
        m.stop()
        assert c.describe_group(group).state == "Empty"
        c.offset_commit(group, {(topic, 0): (2, "by-admin"), (topic, 1): 3})
        got = c.offset_fetch(group)
        assert (got[(topic, 0)].offset, got[(topic, 0)].metadata) == (2, "by-admin")
        assert got[(topic, 1)].offset == 3
        assert c.delete_groups([group, "no-such-group-" + group]) == \
            {group: 0, "no-such-group-" + group: ErrorCode.GROUP_ID_NOT_FOUND}
        assert c.describe_group(group).state == "Dead"
        assert c.offset_fetch(group) == {}


# -- list ---------------------------------------------------------------------------------------------

def test_list_with_state(broker):
    topic, group = names("list")
    create_topic(broker.bootstrap, topic, 3)
    produce(broker.bootstrap, topic, 30, 3)
    m = consuming_member(broker, topic, group)
    rows = {r["GROUP"]: r["STATE"] for r in table(ok(groups(broker, "list")).stdout)}
    assert rows[group] == "Stable"
    assert group in {r["GROUP"] for r in table(ok(groups(broker, "list", "--state", "stable")).stdout)}
    empty_only = ok(groups(broker, "list", "--state", "Empty")).stdout
    assert group not in empty_only
    m.stop()
    rows = {r["GROUP"]: r["STATE"] for r in table(ok(groups(broker, "list")).stdout)}
    assert rows[group] == "Empty"


# -- describe ------------------------------------------------------------------------------------------

def test_describe_active_and_empty_group(broker):
    topic, group = names("describe")
    create_topic(broker.bootstrap, topic, 3)
    produce(broker.bootstrap, topic, 30, 3)
    m = consuming_member(broker, topic, group, client_id="describe-client")
    rows = table(ok(groups(broker, "describe", "--group", group)).stdout)
    assert [(r["TOPIC"], r["PARTITION"]) for r in rows] == [(topic, "0"), (topic, "1"), (topic, "2")]
    for r in rows:
        assert (r["GROUP"], r["CURRENT-OFFSET"], r["LOG-END-OFFSET"], r["LAG"]) == (group, "10", "10", "0")
        assert r["CLIENT-ID"] == "describe-client" and r["CONSUMER-ID"].startswith("describe-client")
        assert "127.0.0.1" in r["HOST"]
    m.stop()
    produce(broker.bootstrap, topic, 6, 3, tag="late")
    proc = ok(groups(broker, "describe", "--group", group))
    assert f"Consumer group '{group}' has no active members." in proc.stderr
    assert proc.stdout.splitlines()[0].split() == \
        ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG"]
    rows = table(proc.stdout)
    assert [(r["PARTITION"], r["CURRENT-OFFSET"], r["LOG-END-OFFSET"], r["LAG"]) for r in rows] == \
        [(str(p), "10", "12", "2") for p in range(3)]


def test_describe_unknown_group_fails(broker):
    proc = groups(broker, "describe", "--group", "no-such-group-" + uuid.uuid4().hex)
    assert proc.returncode == 1, proc
    assert "does not exist" in proc.stderr


# -- delete ----------------------------------------------------------------------------------------------

def test_delete_only_when_empty(broker):
    topic, group = names("delete")
    create_topic(broker.bootstrap, topic, 3)
    produce(broker.bootstrap, topic, 30, 3)
    m = consuming_member(broker, topic, group)
    proc = groups(broker, "delete", "--group", group)
    assert proc.returncode == 1 and "NON_EMPTY_GROUP" in proc.stderr, proc
    m.stop()
    proc = ok(groups(broker, "delete", "--group", group))
    assert f"('{group}') was successful" in proc.stdout
    assert group not in ok(groups(broker, "list")).stdout
    assert committed(broker, group) == {}
    proc = groups(broker, "delete", "--group", group)
    assert proc.returncode == 1 and "GROUP_ID_NOT_FOUND" in proc.stderr, proc


# -- reset-offsets -----------------------------------------------------------------------------------------

def test_reset_offsets_refused_while_active(broker):
    topic, group = names("reset-active")
    create_topic(broker.bootstrap, topic, 3)
    produce(broker.bootstrap, topic, 30, 3)
    m = consuming_member(broker, topic, group)
    proc = groups(broker, "reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--execute")
    assert proc.returncode == 1, proc
    assert "can only be reset if the group" in proc.stderr and "Stable" in proc.stderr
    assert committed(broker, group) == {(topic, p): 10 for p in range(3)}
    m.stop()


def _produce_at(broker, topic, partitions, timestamps):
    """One record per timestamp in every partition, values ``ts-<i>``."""
    from kafka import KafkaProducer

    p = KafkaProducer(bootstrap_servers=broker.bootstrap)
    try:
        for i, ts in enumerate(timestamps):
            for part in range(partitions):
                p.send(topic, value=f"ts-{i}".encode(), partition=part, timestamp_ms=ts)
        p.flush(30)
    finally:
        p.close()


def test_reset_offsets_scenarios(broker):
    topic, group = names("reset")
    bs = broker.bootstrap
    create_topic(bs, topic, 3)
    base = 1_700_000_000_000
    _produce_at(broker, topic, 3, [base + i * 60_000 for i in range(10)])  # one a minute, 10 per partition
    m = consuming_member(broker, topic, group)
    m.stop()
    start = {(topic, p): 10 for p in range(3)}
    assert committed(broker, group) == start

    # dry run (explicit or by default) prints the plan and changes nothing
    for extra in ([], ["--dry-run"]):
        proc = ok(groups(broker, "reset-offsets", "--group", group, "--topic", topic, "--to-earliest", *extra))
        assert [(r["PARTITION"], r["NEW-OFFSET"]) for r in table(proc.stdout)] == [("0", "0"), ("1", "0"), ("2", "0")]
        assert committed(broker, group) == start
    assert "add --execute" not in proc.stderr  # an explicit --dry-run needs no hint
    proc = ok(groups(broker, "reset-offsets", "--group", group, "--topic", topic, "--to-earliest"))
    assert "add --execute" in proc.stderr

    def reset(*how):
        proc = ok(groups(broker, "reset-offsets", "--group", group, *how, "--execute"))
        plan = {(r["TOPIC"], int(r["PARTITION"])): int(r["NEW-OFFSET"]) for r in table(proc.stdout)}
        got = committed(broker, group)
        assert {k: got[k] for k in plan} == plan, (plan, got)
        return got, proc

    got, _ = reset("--topic", topic, "--to-earliest")
    assert got == {(topic, p): 0 for p in range(3)}
    got, _ = reset("--topic", f"{topic}:1", "--to-latest")
    assert got == {(topic, 0): 0, (topic, 1): 10, (topic, 2): 0}
    got, _ = reset("--topic", f"{topic}:0,2", "--to-offset", "4")
    assert got == {(topic, 0): 4, (topic, 1): 10, (topic, 2): 4}
    got, proc = reset("--topic", f"{topic}:0", "--to-offset", "99")  # clamped to the log end
    assert got[(topic, 0)] == 10 and "higher than latest" in proc.stderr
    got, _ = reset("--all-topics", "--shift-by", "-3")
    assert got == {(topic, 0): 7, (topic, 1): 7, (topic, 2): 1}
    got, proc = reset("--topic", f"{topic}:2", "--shift-by", "-5")  # clamped to the log start
    assert got[(topic, 2)] == 0 and "lower than earliest" in proc.stderr
    # datetime: the first record at or after it (record 6 is at base + 6 min), as UTC and as local time
    at = datetime.fromtimestamp((base + 5 * 60_000 + 1) / 1000, tz=timezone.utc)
    got, _ = reset("--topic", topic, "--to-datetime", at.isoformat(timespec="milliseconds"))
    assert got == {(topic, p): 6 for p in range(3)}
    local = datetime.fromtimestamp((base + 2 * 60_000) / 1000).replace(tzinfo=None)
    got, _ = reset("--topic", f"{topic}:1", "--to-datetime", local.isoformat(timespec="milliseconds"))
    assert got[(topic, 1)] == 2
    got, _ = reset("--topic", f"{topic}:0", "--to-datetime", "2100-01-01T00:00:00Z")  # after everything
    assert got[(topic, 0)] == 10

    # a consumer that joins now starts exactly at the reset offsets
    got, _ = reset("--topic", topic, "--to-offset", "8")
    m2 = Member("kafka-python", bs, topic, group)
    wait_until(lambda: len(m2.records) >= 6, what="the records after the reset offsets")
    wait_until(lambda: drained([m2], {p: 10 for p in range(3)}), what="the member to reach the end")
    assert sorted((p, o) for p, o, _ in m2.records) == [(p, o) for p in range(3) for o in (8, 9)]
    m2.stop()


def test_reset_offsets_for_a_new_group_and_errors(broker):
    topic, group = names("reset-new")
    create_topic(broker.bootstrap, topic, 2)
    produce(broker.bootstrap, topic, 8, 2)
    # a group that does not exist yet (state Dead) may be given offsets, as with Kafka's tool
    ok(groups(broker, "reset-offsets", "--group", group, "--topic", topic, "--to-latest", "--execute"))
    assert committed(broker, group) == {(topic, 0): 4, (topic, 1): 4}
    proc = groups(broker, "reset-offsets", "--group", group + "-x", "--topic", topic, "--shift-by", "1",
                  "--execute")
    assert proc.returncode == 1 and "no current committed offset" in proc.stderr, proc
    proc = groups(broker, "reset-offsets", "--group", group, "--topic", "no-such-topic-" + group,
                  "--to-earliest")
    assert proc.returncode == 1 and "does not exist" in proc.stderr, proc
    proc = groups(broker, "reset-offsets", "--group", group, "--topic", f"{topic}:5", "--to-earliest")
    assert proc.returncode == 1 and "no partition" in proc.stderr, proc


@pytest.mark.parametrize("argv", [
    ["reset-offsets", "--group", "g", "--topic", "t"],  # no scenario
    ["reset-offsets", "--group", "g", "--to-earliest"],  # no topic
    ["reset-offsets", "--group", "g", "--topic", "t", "--to-earliest", "--to-latest"],
    ["reset-offsets", "--group", "g", "--topic", "t:x", "--to-earliest"],
    ["reset-offsets", "--group", "g", "--topic", "t", "--to-datetime", "yesterday"],
    ["reset-offsets", "--group", "g", "--topic", "t", "--to-earliest", "--execute", "--dry-run"],
    ["describe"],
    ["delete"],
    ["frobnicate"],
])
def test_usage_errors_exit_2(argv):
    proc = subprocess.run([sys.executable, "-m", "kwire", "groups", *argv, "--bootstrap-server", "127.0.0.1:1"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2, (argv, proc.returncode, proc.stderr)


def test_describe_kip848_group(make_broker):
    """A ``group.protocol=consumer`` group (confluent-kafka) through ConsumerGroupDescribe."""
    b = make_broker(overrides={"group.consumer.heartbeat.interval.ms": "500",
                               "group.consumer.min.heartbeat.interval.ms": "500"})
    topic, group = names("848")
    create_topic(b.bootstrap, topic, 4)
    produce(b.bootstrap, topic, 20, 4)
    m = Member("confluent", b.bootstrap, topic, group, client_id="cli-848", group_protocol="consumer")
    wait_until(lambda: len(m.records) >= 20 and len(m.assigned) == 4, what="the KIP-848 member to read 20")
    m.call("commit")
    rows = table(ok(groups(b, "describe", "--group", group)).stdout)
    assert [(r["PARTITION"], r["CURRENT-OFFSET"], r["LAG"], r["CLIENT-ID"]) for r in rows] == \
        [(str(p), "5", "0", "cli-848") for p in range(4)]
    assert {r["GROUP"]: r["STATE"] for r in table(ok(groups(b, "list")).stdout)}[group] == "Stable"
    proc = groups(b, "reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--execute")
    assert proc.returncode == 1 and "inactive" in proc.stderr, proc
    m.stop()
    wait_until(lambda: "Empty" in ok(groups(b, "list", "--state", "Empty")).stdout, what="an Empty group")
    ok(groups(b, "reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--execute"))
    assert committed(b, group) == {(topic, p): 0 for p in range(4)}
