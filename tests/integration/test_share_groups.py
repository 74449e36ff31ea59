"""Share groups (KIP-932) against kwire with real clients: the Java KafkaShareConsumer 4.3
(tests/java/KwireShare.java) and confluent-kafka's ShareConsumer.

Scenarios: explicit and implicit acknowledgement, RELEASE (redelivered with a higher
delivery count), REJECT (never redelivered), RENEW (a lock outlives its duration),
commitSync/commitAsync, two consumers sharing one partition (every record accepted
exactly once), a consumer halted with records acquired (redelivered after the lock
duration with delivery count 2), poison records archived after
``share.delivery.count.limit`` deliveries, and the group as ShareGroupDescribe /
ListGroups show it. Records are produced with kafka-python; group configs are set with
IncrementalAlterConfigs (GROUP resources) through kwire's own client.
"""

from __future__ import annotations

import subprocess
import uuid

import pytest

import javaclient
from test_groups_support import create_topic, produce, wait_until

LOCK_MS = 15000  # long enough that a loaded machine never loses a lock; tests of expiry set less
FAST = {
    "group.share.min.record.lock.duration.ms": "1000",
    "group.share.min.session.timeout.ms": "6000",
    "group.share.session.timeout.ms": "10000",
    "group.share.min.heartbeat.interval.ms": "500",
    "group.share.heartbeat.interval.ms": "500",
}


@pytest.fixture(scope="module")
def sbroker(tmp_path_factory):
    from conftest import InProcessBroker, _overrides

    d = tmp_path_factory.mktemp("kwire-share")
    b = InProcessBroker(d, _overrides(d, FAST, {}))
    SESSION_BOOTSTRAPS.add(b.bootstrap)
    yield b
    SESSION_BOOTSTRAPS.discard(b.bootstrap)
    javaclient.close_sessions(ADMIN_SESSIONS)
    b.stop()


def set_group_configs(bootstrap: str, group: str, configs: dict[str, str]) -> None:
    from kwire.bench.workloads import share_group_config

    share_group_config(bootstrap, group, configs)  # IncrementalAlterConfigs, GROUP resource


def new_group(bootstrap: str, **configs) -> str:
    group = f"share-{uuid.uuid4().hex[:8]}"
    set_group_configs(bootstrap, group, {"share.auto.offset.reset": "earliest",
                                         "share.record.lock.duration.ms": str(LOCK_MS),
                                         **{k.replace("_", "."): str(v) for k, v in configs.items()}})
    return group


CONSUME_SESSIONS: dict = {}  # the JVM of ``KwireShare consume-session``; closed after each module


@pytest.fixture(scope="module", autouse=True)
def consume_sessions_closed():
    """Closes the consume JVM after the module (test_share_groups_durable imports this too)."""
    yield
    javaclient.close_sessions(CONSUME_SESSIONS)


def java(bootstrap, topic, group, policy, stop_after, timeout_ms=40000, *flags, timeout=90):
    """A KafkaShareConsumer's run (KwireShare consume): its JSON lines; fails the test on an error.

    Each run is a new consumer; they share one JVM (a session: one JVM start, ~1 CPU-s, per
    module instead of per run), except halt-after-first, which halts its JVM as kill -9 would."""
    args = ("consume", bootstrap, topic, group, policy, str(stop_after), str(timeout_ms), *flags)
    if "halt-after-first" in flags:
        return javaclient.run_class("KwireShare", *args, timeout=timeout, check=True)
    return javaclient.run_in_session(CONSUME_SESSIONS, "KwireShare", ("consume-session",), *args,
                                     timeout=timeout)


def records(lines):
    return [(l["partition"], l["offset"], l["delivery"]) for l in lines if l["type"] == "record"]


def done(lines) -> int:
    ends = [l for l in lines if l["type"] == "done"]
    assert ends, lines
    assert not [l for l in lines if l["type"] == "commit_error"], lines
    return ends[-1]["accepted"]


def topic_with(bootstrap, n, partitions=1) -> str:
    topic = f"share-t-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, partitions)
    if n:
        produce(bootstrap, topic, n, partitions)
    return topic


@pytest.mark.parametrize("policy,flags", [("accept", ()), ("accept", ("commit=sync",)),
                                          ("accept", ("commit=async",)), ("implicit", ())])
def test_java_consumes_every_record_once(sbroker, policy, flags):
    javaclient.require_java()
    topic = topic_with(sbroker.bootstrap, 30, 2)
    group = new_group(sbroker.bootstrap)
    lines = java(sbroker.bootstrap, topic, group, policy, 30, 40000, *flags)
    got = records(lines)
    assert done(lines) == 30
    assert sorted((p, o) for p, o, _ in got) == sorted((i % 2, i // 2) for i in range(30))
    assert {d for _, _, d in got} == {1}
    # all accepted: a second consumer of the group gets nothing
    again = java(sbroker.bootstrap, topic, group, "accept", 1, 4000)
    assert records(again) == []


def test_release_redelivers_with_higher_delivery_count(sbroker):
    javaclient.require_java()
    topic = topic_with(sbroker.bootstrap, 10)
    group = new_group(sbroker.bootstrap)
    lines = java(sbroker.bootstrap, topic, group, "release-first", 10, 40000, "commit=sync")
    got = records(lines)
    assert done(lines) == 10
    by_offset = {}
    for _, o, d in got:
        by_offset.setdefault(o, []).append(d)
    assert sorted(by_offset) == list(range(10))
    assert all(ds[:2] == [1, 2] and len(ds) == 2 for ds in by_offset.values()), by_offset


def test_reject_is_never_redelivered(sbroker):
    javaclient.require_java()
    topic = topic_with(sbroker.bootstrap, 8)
    group = new_group(sbroker.bootstrap)
    lines = java(sbroker.bootstrap, topic, group, "reject-all", 8, 40000, "commit=sync")
    assert sorted(o for _, o, _ in records(lines)) == list(range(8))
    assert records(java(sbroker.bootstrap, topic, group, "accept", 1, 4000)) == []


def test_poison_records_archived_after_delivery_count_limit(sbroker):
    javaclient.require_java()
    topic = topic_with(sbroker.bootstrap, 3)
    group = new_group(sbroker.bootstrap, share_delivery_count_limit=3)
    lines = java(sbroker.bootstrap, topic, group, "release-all", 9, 60000, "commit=sync")
    counts = {}
    for _, o, d in records(lines):
        counts.setdefault(o, []).append(d)
    assert counts == {o: [1, 2, 3] for o in range(3)}, counts
    assert records(java(sbroker.bootstrap, topic, group, "accept", 1, 4000)) == []


def test_halted_consumer_records_redelivered_after_lock(sbroker):
    javaclient.require_java()
    topic = topic_with(sbroker.bootstrap, 5)
    group = new_group(sbroker.bootstrap, share_record_lock_duration_ms=3000)
    first = java(sbroker.bootstrap, topic, group, "accept", 5, 40000, "halt-after-first")
    held = sorted(o for _, o, _ in records(first))
    assert held
    lines = java(sbroker.bootstrap, topic, group, "accept", 5, 40000)
    got = {o: d for _, o, d in records(lines)}
    assert sorted(got) == list(range(5))
    assert all(got[o] == 2 for o in held), (held, got)
    assert all(got[o] == 1 for o in got if o not in held)


def test_two_consumers_share_one_partition(sbroker):
    """Both members are assigned the one partition; records produced once both poll are split
    between them, each accepted exactly once."""
    n = 600
    topic = topic_with(sbroker.bootstrap, 0)
    group = new_group(sbroker.bootstrap)
    members = [JavaConsumer(sbroker.bootstrap, topic, group, "accept", str(n), "60000", "max-poll=10",
                            "commit=sync", "idle-exit-ms=3000", f"client-id=c{i}") for i in range(2)]
    try:
        wait_until(lambda: all(m.has("polling") for m in members), 60, "both consumers polling")
        produce(sbroker.bootstrap, topic, n, 1)
        outs = [m.finish(90) for m in members]
    finally:
        for m in members:
            m.kill()
    seen = [o for lines in outs for _, o, _ in records(lines)]
    assert sorted(seen) == list(range(n))  # every record delivered once, to one of the two
    assert all(records(lines) for lines in outs), [len(records(lines)) for lines in outs]


class JavaConsumer:
    """A KwireShare consume run in the background, its JSON lines collected as they come."""

    def __init__(self, *args: str) -> None:
        self._start(javaclient.java_argv("KwireShare", "consume", *args))

    def _start(self, argv: list[str]) -> None:
        """Run ``argv``, collecting its JSON lines (any program that prints them)."""
        import threading

        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.lines: list[dict] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        import json

        for line in self.proc.stdout:
            if line.startswith("{"):
                self.lines.append(json.loads(line))

    def has(self, kind: str) -> bool:
        return any(l["type"] == kind for l in self.lines)

    def finish(self, timeout: float) -> list[dict]:
        self.proc.wait(timeout=timeout)
        self._reader.join(timeout=10)
        assert self.proc.returncode == 0, self.lines[-3:]
        return self.lines

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


ADMIN_SESSIONS: dict = {}  # javaclient.Session by arguments; closed with the module's broker
SESSION_BOOTSTRAPS: set = set()  # sbroker's: other modules' brokers get a JVM per call (no session outlives them)


def admin(bootstrap, *args):
    """The output lines of ``KwireShare admin <bootstrap> ARGS``: in sbroker's admin session, else one JVM."""
    if bootstrap not in SESSION_BOOTSTRAPS:
        return javaclient.run_class("KwireShare", "admin", bootstrap, *args, timeout=90, check=True)
    return javaclient.session(ADMIN_SESSIONS, "KwireShare", "admin-session", bootstrap).run(*args, timeout=90)


def test_admin_share_groups(sbroker):
    """Java Admin: list/describe share groups, list/alter/delete share-group offsets and delete the
    group, with Kafka's errors for a group that has members and for a group of another type."""
    javaclient.require_java()
    b = sbroker.bootstrap
    topic = topic_with(b, 10)
    group = new_group(b)
    assert done(java(b, topic, group, "accept", 4, 40000, "max-poll=4", "commit=sync")) == 4
    listed = {l["id"]: l for l in admin(b, "list") if l["type"] == "group"}
    assert listed[group]["groupType"].lower() == "share" and listed[group]["state"].lower() == "empty"
    d = [l for l in admin(b, "describe", group) if l["type"] == "describe"][0]
    assert d["state"].lower() == "empty" and d["members"] == 0 and d["groupEpoch"] >= 2
    offsets = [l for l in admin(b, "offsets", group) if l["type"] == "offset"]
    assert [(o["topic"], o["partition"], o["start"], o["lag"]) for o in offsets] == [(topic, 0, 4, 6)]

    # offsets move only while the group is empty
    member = JavaConsumer(b, topic, group, "accept", "100", "60000", "max-poll=1")
    try:
        wait_until(lambda: member.has("polling"), 60, "a member polling")
        # its first poll's heartbeat joins it: until the group lists it, it is still empty
        wait_until(lambda: [l for l in admin(b, "describe", group) if l["type"] == "describe"][0]["members"] == 1,
                   60, "the member in the group")
        assert [l["class"] for l in admin(b, "alter", group, topic, "0:1")] == \
            ["org.apache.kafka.common.errors.GroupNotEmptyException"]
        assert [l["class"] for l in admin(b, "delete", group)] == \
            ["org.apache.kafka.common.errors.GroupNotEmptyException"]
    finally:
        member.kill()
    wait_until(lambda: [l for l in admin(b, "describe", group) if l["type"] == "describe"][0]["members"] == 0,
               60, "the killed member fenced")
    assert admin(b, "alter", group, topic, "0:8") == [{"type": "ok"}]
    again = java(b, topic, group, "accept", 2, 40000)
    assert sorted(o for _, o, _ in records(again)) == [8, 9]
    assert admin(b, "delete-offsets", group, topic) == [{"type": "ok"}]
    # state gone: share.auto.offset.reset=earliest delivers everything again
    assert sorted(o for _, o, _ in records(java(b, topic, group, "accept", 10, 40000))) == list(range(10))
    assert admin(b, "delete", group) == [{"type": "ok"}]
    assert group not in {l["id"] for l in admin(b, "list") if l["type"] == "group"}


def test_group_type_clashes(sbroker):
    """A share group id used by a classic consumer, and a classic group id by a share consumer:
    Kafka's GROUP_ID_NOT_FOUND / InconsistentGroupProtocol answers, nothing joins."""
    from kafka import KafkaConsumer
    from kafka.errors import KafkaError as KPError

    javaclient.require_java()
    b = sbroker.bootstrap
    topic = topic_with(b, 3)
    group = new_group(b)
    assert done(java(b, topic, group, "accept", 3, 40000)) == 3
    c = KafkaConsumer(topic, bootstrap_servers=b, group_id=group, auto_offset_reset="earliest",
                      consumer_timeout_ms=3000)
    with pytest.raises(KPError):
        try:
            list(c)
        finally:
            c.close()
    from kwire.client import KafkaClient
    from kwire.protocol.generated.share_group_heartbeat_request import ShareGroupHeartbeatRequest
    classic = f"classic-{uuid.uuid4().hex[:8]}"
    c = KafkaConsumer(topic, bootstrap_servers=b, group_id=classic, auto_offset_reset="earliest",
                      consumer_timeout_ms=3000, enable_auto_commit=False)
    list(c)
    with KafkaClient(b) as kc:
        r = kc.request(76, ShareGroupHeartbeatRequest(group_id=classic, member_id=uuid.uuid4().hex,
                                                      member_epoch=0, subscribed_topic_names=[topic]))
    c.close()
    assert r.error_code == 69 and "not a share group" in r.error_message  # GROUP_ID_NOT_FOUND


def confluent_consume(bootstrap, topic, group, want: int, release_first=False, timeout_s=40.0):
    """confluent-kafka's ShareConsumer (explicit acknowledgement) until ``want`` records were
    accepted; returns [(partition, offset, delivery count)] of every delivery."""
    import time

    from confluent_kafka import AcknowledgeType, ShareConsumer

    c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group,
                       "share.acknowledgement.mode": "explicit"})
    got, accepted = [], 0
    try:
        c.subscribe([topic])
        deadline = time.monotonic() + timeout_s
        while accepted < want and time.monotonic() < deadline:
            msgs = c.poll(0.5)
            for m in msgs:
                assert m.error() is None, m.error()
                delivery = m.delivery_count() if hasattr(m, "delivery_count") else -1
                got.append((m.partition(), m.offset(), delivery))
                if release_first and delivery == 1:
                    c.acknowledge(m, AcknowledgeType.RELEASE)
                else:
                    c.acknowledge(m, AcknowledgeType.ACCEPT)
                    accepted += 1
            if msgs:
                c.commit_sync()
    finally:
        c.close()
    return got


def test_confluent_share_consumer(sbroker):
    topic = topic_with(sbroker.bootstrap, 20, 2)
    group = new_group(sbroker.bootstrap)
    got = confluent_consume(sbroker.bootstrap, topic, group, 20, release_first=True)
    accepted = sorted((p, o) for p, o, d in got if d != 1)
    assert accepted == sorted((i % 2, i // 2) for i in range(20)), got
    assert sorted(d for _, _, d in got) == [1] * 20 + [2] * 20
    assert records(java(sbroker.bootstrap, topic, group, "accept", 1, 4000)) == []


def test_java_and_confluent_in_one_group(sbroker):
    """A Java and a librdkafka member share the partitions; together they accept every record once."""
    n = 300
    topic = topic_with(sbroker.bootstrap, 0, 2)
    group = new_group(sbroker.bootstrap)
    member = JavaConsumer(sbroker.bootstrap, topic, group, "accept", str(n), "60000", "max-poll=10",
                          "commit=sync", "idle-exit-ms=4000")
    try:
        wait_until(lambda: member.has("polling"), 60, "the Java consumer polling")
        produce(sbroker.bootstrap, topic, n, 2)
        mine = confluent_consume(sbroker.bootstrap, topic, group, n, timeout_s=8)
        theirs = records(member.finish(90))
    finally:
        member.kill()
    seen = sorted((p, o) for p, o, _ in mine + theirs)
    assert seen == sorted((i % 2, i // 2) for i in range(n))


def test_acknowledgements_survive_kill_9(spawn_broker, tmp_path):
    """ACCEPTed records are never delivered again after kill -9 and a restart; records acquired
    and not acknowledged when the broker died are delivered again with their count raised."""
    javaclient.require_java()
    data = tmp_path / "kill9"
    b = spawn_broker(data, FAST)
    topic = topic_with(b.bootstrap, 20)
    group = new_group(b.bootstrap)
    first = java(b.bootstrap, topic, group, "accept", 10, 40000, "max-poll=5", "commit=sync")
    accepted = sorted(o for _, o, _ in records(first))
    assert done(first) == 10 and accepted == list(range(10))
    held = sorted(o for _, o, _ in records(java(b.bootstrap, topic, group, "accept", 5, 40000,
                                                "max-poll=5", "halt-after-first")))
    assert held and min(held) >= 10
    b.kill()
    b = spawn_broker(data, FAST)
    after = java(b.bootstrap, topic, group, "accept", 10, 40000)
    got = {o: d for _, o, d in records(after)}
    assert sorted(got) == list(range(10, 20)), got  # nothing accepted comes back, nothing lost
    assert all(got[o] == 2 for o in held), (held, got)
    # the client may have fetched ahead of what it returned before it halted: those were acquired too
    assert all(got[o] in (1, 2) for o in got if o not in held), (held, got)
    assert records(java(b.bootstrap, topic, group, "accept", 1, 4000)) == []


def share_cli(bootstrap, action, *args):
    import sys

    return subprocess.run([sys.executable, "-m", "kwire", "share-groups", action, *args,
                           "--bootstrap-server", bootstrap], capture_output=True, text=True, timeout=60)


def test_cli_share_groups(sbroker):
    """``kwire share-groups``: list, describe (offsets and members), reset-offsets (refused while a
    member consumes), delete of a topic's state and of the group."""
    javaclient.require_java()
    b = sbroker.bootstrap
    topic = topic_with(b, 6)
    group = new_group(b)
    assert done(java(b, topic, group, "accept", 2, 40000, "max-poll=2", "commit=sync")) == 2
    out = share_cli(b, "list")
    assert out.returncode == 0 and any(l.split() == [group, "Empty"] for l in out.stdout.splitlines()), out
    out = share_cli(b, "describe", "--group", group)
    assert out.returncode == 0, out.stderr
    assert [group, topic, "0", "2", "4"] in [l.split() for l in out.stdout.splitlines()], out.stdout
    plan = share_cli(b, "reset-offsets", "--group", group, "--topic", topic, "--to-offset", "5")
    assert plan.returncode == 0 and [group, topic, "0", "5"] in [l.split() for l in plan.stdout.splitlines()]
    assert "2" in share_cli(b, "describe", "--group", group).stdout.split()  # dry run: unchanged
    member = JavaConsumer(b, topic, group, "accept", "100", "60000", "max-poll=1")
    try:
        wait_until(lambda: member.has("polling"), 60, "a member polling")
        members = share_cli(b, "describe", "--group", group, "--members")
        assert members.returncode == 0 and f"{topic}:0" in members.stdout, members
        refused = share_cli(b, "reset-offsets", "--group", group, "--topic", topic, "--to-offset", "5", "--execute")
        assert refused.returncode == 1 and "NON_EMPTY_GROUP" in refused.stderr, refused
    finally:
        member.kill()
    wait_until(lambda: "with 0 member" in share_cli(b, "describe", "--group", group).stderr, 60,
               "the killed member fenced")
    done_ = share_cli(b, "reset-offsets", "--group", group, "--topic", topic, "--to-latest", "--execute")
    assert done_.returncode == 0, done_.stderr
    assert [group, topic, "0", "6", "0"] in [l.split() for l in share_cli(b, "describe", "--group", group).stdout.splitlines()]
    gone = share_cli(b, "delete", "--group", group, "--topic", topic)
    assert gone.returncode == 0, gone.stderr
    assert topic not in share_cli(b, "describe", "--group", group).stdout
    assert share_cli(b, "delete", "--group", group).returncode == 0
    missing = share_cli(b, "describe", "--group", group)
    assert missing.returncode == 1 and "GROUP_ID_NOT_FOUND" in missing.stderr, missing


def test_bad_share_fetch_and_acknowledge_requests(sbroker):
    """Raw ShareFetch / ShareAcknowledge (kwire's own client): Kafka's error codes for session
    misuse and for acknowledgements of records the member does not hold; nothing is
    acknowledged twice and a rejected acknowledgement changes nothing."""
    from kwire.client import KafkaClient
    from kwire.protocol.generated.share_acknowledge_request import (
        AcknowledgePartition, AcknowledgeTopic, AcknowledgementBatch as AckBatch, ShareAcknowledgeRequest)
    from kwire.protocol.generated.share_fetch_request import (
        AcknowledgementBatch, FetchPartition, FetchTopic, ShareFetchRequest)

    b = sbroker.bootstrap
    topic = topic_with(b, 3)
    group = new_group(b)
    with KafkaClient(b) as c:
        tid = c.topic(topic).topic_id

        def fetch(member, epoch, acks=None, wait=2000):
            return c.request(78, ShareFetchRequest(
                group_id=group, member_id=member, share_session_epoch=epoch, max_wait_ms=wait, min_bytes=1,
                max_records=10, batch_size=10, topics=[FetchTopic(topic_id=tid, partitions=[FetchPartition(
                    partition_index=0, acknowledgement_batches=[AcknowledgementBatch(
                        first_offset=a, last_offset=z, acknowledge_types=[t]) for a, z, t in acks or []])])]),
                wait_s=wait / 1000)

        def ack(member, epoch, first, last, kind=1):
            r = c.request(79, ShareAcknowledgeRequest(group_id=group, member_id=member, share_session_epoch=epoch,
                                                      topics=[AcknowledgeTopic(topic_id=tid, partitions=[
                                                          AcknowledgePartition(partition_index=0, acknowledgement_batches=[
                                                              AckBatch(first_offset=first, last_offset=last,
                                                                       acknowledge_types=[kind])])])]))
            if r.error_code:
                return r.error_code
            return r.responses[0].partitions[0].error_code

        first = fetch("m1", 0)
        assert first.error_code == 0
        got = first.responses[0].partitions[0].acquired_records
        assert [(a.first_offset, a.last_offset, a.delivery_count) for a in got] == [(0, 2, 1)]
        assert first.acquisition_lock_timeout_ms == LOCK_MS
        assert fetch("m1", 0, acks=[(0, 0, 1)]).error_code == 42  # INVALID_REQUEST: acks on epoch 0
        assert fetch("m1", 5, wait=0).error_code == 123  # INVALID_SHARE_SESSION_EPOCH
        assert ack("m2", 1, 0, 0) == 122  # SHARE_SESSION_NOT_FOUND
        assert ack("m1", 0, 0, 0) == 123  # acknowledging needs a session
        assert fetch("m2", 0, wait=0).error_code == 0  # m2's session: nothing left to acquire
        assert ack("m2", 1, 0, 0) == 121  # INVALID_RECORD_STATE: m1 holds it
        assert ack("m1", 1, 0, 0) == 0
        assert ack("m1", 2, 0, 0) == 121  # never acknowledged twice
        assert ack("m1", 3, 100, 100) == 121  # outside the in-flight window
        assert ack("m1", 4, 1, 2, kind=9) == 42  # no such acknowledge type: INVALID_REQUEST
        assert ack("m1", 5, 1, 2, kind=2) == 0  # RELEASE: m2 can take them now, delivery 2
        again = fetch("m2", 2)  # m2's acknowledgement above moved its session on to epoch 2
        assert [(a.first_offset, a.last_offset, a.delivery_count)
                for a in again.responses[0].partitions[0].acquired_records] == [(1, 2, 2)]
        assert ack("m2", -1, 1, 2) == 0  # final epoch: acknowledged and the session closed
        assert ack("m2", 1, 1, 1) == 122


def test_share_coordinator_state_apis(sbroker):
    """Initialize / Write / Read / ReadSummary / Delete ShareGroupState against the state topic, and a
    share consumer that then starts where the written state says."""
    from kwire.client import KafkaClient
    from kwire.protocol.generated import (
        delete_share_group_state_request as dreq, initialize_share_group_state_request as ireq,
        read_share_group_state_request as rreq, read_share_group_state_summary_request as sreq,
        write_share_group_state_request as wreq)

    javaclient.require_java()
    b = sbroker.bootstrap
    topic = topic_with(b, 10)
    group = new_group(b)
    with KafkaClient(b) as c:
        tid = c.topic(topic).topic_id

        def one(resp):
            p = resp.results[0].partitions[0]
            return p

        read = lambda: one(c.request(84, rreq.ReadShareGroupStateRequest(group_id=group, topics=[
            rreq.ReadStateData(topic_id=tid, partitions=[rreq.PartitionData(partition=0, leader_epoch=0)])])))
        assert read().error_code == 3  # UNKNOWN_TOPIC_OR_PARTITION: never initialized
        init = c.request(83, ireq.InitializeShareGroupStateRequest(group_id=group, topics=[ireq.InitializeStateData(
            topic_id=tid, partitions=[ireq.PartitionData(partition=0, state_epoch=1, start_offset=2)])]))
        assert one(init).error_code == 0
        write = c.request(85, wreq.WriteShareGroupStateRequest(group_id=group, topics=[wreq.WriteStateData(
            topic_id=tid, partitions=[wreq.PartitionData(partition=0, state_epoch=1, leader_epoch=0, start_offset=3,
                                                         state_batches=[wreq.StateBatch(first_offset=3, last_offset=4,
                                                                                        delivery_state=2,
                                                                                        delivery_count=1),
                                                                        wreq.StateBatch(first_offset=5, last_offset=5,
                                                                                        delivery_state=0,
                                                                                        delivery_count=2)])])]))
        assert one(write).error_code == 0
        r = read()
        assert (r.error_code, r.state_epoch, r.start_offset) == (0, 1, 3)
        assert [(s.first_offset, s.last_offset, s.delivery_state, s.delivery_count) for s in r.state_batches] == \
            [(3, 4, 2, 1), (5, 5, 0, 2)]
        stale = c.request(83, ireq.InitializeShareGroupStateRequest(group_id=group, topics=[ireq.InitializeStateData(
            topic_id=tid, partitions=[ireq.PartitionData(partition=0, state_epoch=0, start_offset=0)])]))
        assert one(stale).error_code == 124  # FENCED_STATE_EPOCH
        summary = one(c.request(87, sreq.ReadShareGroupStateSummaryRequest(group_id=group, topics=[
            sreq.ReadStateSummaryData(topic_id=tid, partitions=[sreq.PartitionData(partition=0, leader_epoch=0)])])))
        assert (summary.error_code, summary.start_offset) == (0, 3)
        # a consumer starts from that state: 3 and 4 done, 5 on its third delivery, then 6-9
        got = {o: d for _, o, d in records(java(b, topic, group, "accept", 5, 40000))}
        assert got == {5: 3, 6: 1, 7: 1, 8: 1, 9: 1}
        delete = c.request(86, dreq.DeleteShareGroupStateRequest(group_id=group, topics=[dreq.DeleteStateData(
            topic_id=tid, partitions=[dreq.PartitionData(partition=0)])]))
        assert one(delete).error_code == 0 and read().error_code == 3


def test_share_group_metrics(make_broker):
    """Prometheus: acknowledgements by type, and a share partition's start offset and lag."""
    import re
    import urllib.request

    javaclient.require_java()
    b = make_broker(overrides={**FAST, "metrics.port": "0"})
    topic = topic_with(b.bootstrap, 6)
    group = new_group(b.bootstrap)
    assert done(java(b.bootstrap, topic, group, "release-first", 2, 40000, "max-poll=2", "commit=sync")) == 2
    addr = b.server.metrics_server.addresses[0]
    body = urllib.request.urlopen(f"http://{addr[0]}:{addr[1]}/metrics", timeout=30).read().decode()

    def val(name, **labels):
        for line in body.splitlines():
            m = re.match(rf"{name}\{{(.*)\}} (\S+)$", line)
            if m and all(f'{k}="{v}"' in m.group(1) for k, v in labels.items()):
                return float(m.group(2))
        raise AssertionError(f"{name} {labels} not in the scrape")

    assert val("kafka_server_share_group_metrics_record_acknowledgement_total", ack_type="Accept") == 2
    assert val("kafka_server_share_group_metrics_record_acknowledgement_total", ack_type="Release") >= 2
    assert val("kafka_sharegroup_start_offset", sharegroup=group, topic=topic, partition="0") == 2
    assert val("kafka_sharegroup_lag", sharegroup=group, topic=topic, partition="0") == 4


def test_read_committed_skips_aborted_transactions(sbroker):
    """share.isolation.level=read_committed: records of an aborted transaction are never delivered
    (archived), committed ones are; read_uncommitted delivers both."""
    from confluent_kafka import Producer

    javaclient.require_java()
    b = sbroker.bootstrap
    topic = topic_with(b, 0)
    p = Producer({"bootstrap.servers": b, "transactional.id": f"tx-{uuid.uuid4().hex[:8]}"})
    p.init_transactions(30)
    p.begin_transaction()
    for i in range(3):
        p.produce(topic, value=f"aborted-{i}".encode(), partition=0)
    assert p.flush(30) == 0  # in the log before the abort (librdkafka drops unsent records on abort)
    p.abort_transaction(30)
    p.begin_transaction()
    for i in range(2):
        p.produce(topic, value=f"committed-{i}".encode(), partition=0)
    p.commit_transaction(30)
    committed = new_group(b, share_isolation_level="read_committed")
    lines = java(b, topic, committed, "accept", 2, 40000)
    assert sorted(l["value"] for l in lines if l["type"] == "record") == ["committed-0", "committed-1"]
    assert records(java(b, topic, committed, "accept", 1, 4000)) == []
    uncommitted = new_group(b)
    lines = java(b, topic, uncommitted, "accept", 5, 40000)
    assert sorted(l["value"] for l in lines if l["type"] == "record") == \
        ["aborted-0", "aborted-1", "aborted-2", "committed-0", "committed-1"]


def test_console_lists_share_groups(make_broker):
    """The console's groups page: a share group with its state, start offset and lag."""
    import json
    import urllib.request

    javaclient.require_java()
    b = make_broker(overrides={**FAST, "console.port": "0"})
    topic = topic_with(b.bootstrap, 5)
    group = new_group(b.bootstrap)
    assert done(java(b.bootstrap, topic, group, "accept", 3, 40000, "max-poll=3", "commit=sync")) == 3
    host, port = b.server.console.addresses[0]
    with urllib.request.urlopen(f"http://{host}:{port}/api/groups", timeout=30) as r:
        rows = {g["group"]: g for g in json.loads(r.read())["groups"]}
    row = rows[group]
    assert (row["type"], row["state"], row["members"], row["lag"]) == ("share", "Empty", 0, 2), row
    assert row["share"]["offsets"] == [{"topic": topic, "partition": 0, "start_offset": 3, "lag": 2}]


def state_records(bootstrap: str, group: str, topic_id: uuid.UUID, start: int | None = None):
    """The ``__share_group_state`` records of (group, topic, partition 0) from offset ``start``
    of the key's state partition (None: just that partition's end offset): (end offset,
    [(type, start offset, [(first, last, state, count)])]), read with confluent-kafka."""
    import confluent_kafka

    from kwire.client import KafkaClient
    from kwire.coordinator.base import partition_for
    from kwire.share.state import decode_key, decode_value, kafka_uuid

    with KafkaClient(bootstrap) as c:
        n = len(c.topic("__share_group_state").partitions)
    p = partition_for(f"{group}:{kafka_uuid(topic_id.bytes)}:0", n)  # Kafka's SharePartitionKey hash
    c = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": f"state-{uuid.uuid4().hex[:6]}",
                                  "enable.auto.commit": False})
    try:
        end = c.get_watermark_offsets(confluent_kafka.TopicPartition("__share_group_state", p), timeout=30)[1]
        if start is None:
            return end, []
        c.assign([confluent_kafka.TopicPartition("__share_group_state", p, start)])
        out, offset = [], start
        while offset < end:
            m = c.poll(10)
            assert m is not None and m.error() is None, m and m.error()
            offset = m.offset() + 1
            kind, g, tid, part = decode_key(m.key())
            if (g, tid, part) == (group, topic_id.bytes, 0):
                v = decode_value(kind, m.value())
                out.append((kind, v["start"], [tuple(b) for b in v["batches"]]))
        return end, out
    finally:
        c.close()


def test_one_state_write_per_request_and_share_partition(sbroker):
    """A ShareFetch that acknowledges records and acquires new ones of the same share partition
    writes its state once (Kafka's persister writes per request and share partition), and that
    one record holds both changes before the answer: the ACCEPTed records below the start
    offset, the new ones in flight with delivery count 1."""
    from kwire.client import KafkaClient
    from kwire.protocol.generated.share_fetch_request import (
        AcknowledgementBatch, FetchPartition, FetchTopic, ShareFetchRequest)

    b = sbroker.bootstrap
    topic = topic_with(b, 3)
    group = new_group(b)
    with KafkaClient(b) as c:
        tid = c.topic(topic).topic_id

        def fetch(epoch, acks=()):
            r = c.request(78, ShareFetchRequest(
                group_id=group, member_id="m1", share_session_epoch=epoch, max_wait_ms=5000, min_bytes=1,
                max_records=100, batch_size=100, topics=[FetchTopic(topic_id=tid, partitions=[FetchPartition(
                    partition_index=0, acknowledgement_batches=[AcknowledgementBatch(
                        first_offset=a, last_offset=z, acknowledge_types=[1]) for a, z in acks])])]), wait_s=5)
            assert r.error_code == 0
            p = r.responses[0].partitions[0]
            assert p.error_code == 0 and p.acknowledge_error_code == 0
            return [(a.first_offset, a.last_offset, a.delivery_count) for a in p.acquired_records]

        assert fetch(0) == [(0, 2, 1)]
        produce(b, topic, 3, 1, tag="w")
        before, _ = state_records(b, group, tid)
        assert fetch(1, acks=[(0, 2)]) == [(3, 5, 1)]
        _, written = state_records(b, group, tid, before)
    # one record for the request (a snapshot or an update: both carry the window); acquired
    # records are stored as AVAILABLE (0) with their delivery count
    assert [(start, batches) for _, start, batches in written] == [(3, [(3, 5, 0, 1)])], written


def test_large_batches_sent_from_the_log_file(sbroker):
    """Batches read from the log in regions large enough to be sent with sendfile (a fetch
    walks their headers and answers a slice of the segment file): confluent-kafka's
    ShareConsumer and the Java KafkaShareConsumer (each in its own group) get every record
    exactly once."""
    import confluent_kafka

    b = sbroker.bootstrap
    topic = topic_with(b, 0)
    n = 6000
    p = confluent_kafka.Producer({"bootstrap.servers": b, "linger.ms": 50, "batch.size": 1 << 20,
                                  "compression.type": "none"})
    for i in range(n):
        p.produce(topic, value=f"{i:06d}".encode() * 20, partition=0)  # 120 B values: ~720 KB in all
    assert p.flush(60) == 0
    group = new_group(b)
    got = confluent_consume(b, topic, group, n, timeout_s=90)
    assert sorted(o for _, o, _ in got) == list(range(n)) and {d for _, _, d in got} == {1}
    javaclient.require_java()
    again = new_group(b)
    seen = records(java(b, topic, again, "accept", n, 60000, timeout=150))
    assert sorted(o for _, o, _ in seen) == list(range(n))
