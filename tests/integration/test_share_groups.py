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

LOCK_MS = 3000
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
    yield b
    b.stop()


def set_group_configs(bootstrap: str, group: str, configs: dict[str, str]) -> None:
    from kwire.client import KafkaClient
    from kwire.protocol.generated.incremental_alter_configs_request import (
        AlterableConfig, AlterConfigsResource, IncrementalAlterConfigsRequest)

    with KafkaClient(bootstrap) as c:
        resp = c.request(44, IncrementalAlterConfigsRequest(resources=[AlterConfigsResource(
            resource_type=32, resource_name=group,
            configs=[AlterableConfig(name=k, config_operation=0, value=v) for k, v in configs.items()])]))
    errors = [(r.error_code, r.error_message) for r in resp.responses if r.error_code]
    assert not errors, errors


def new_group(bootstrap: str, **configs) -> str:
    group = f"share-{uuid.uuid4().hex[:8]}"
    set_group_configs(bootstrap, group, {"share.auto.offset.reset": "earliest",
                                         "share.record.lock.duration.ms": str(LOCK_MS),
                                         **{k.replace("_", "."): str(v) for k, v in configs.items()}})
    return group


def java(bootstrap, topic, group, policy, stop_after, timeout_ms=40000, *flags, timeout=90):
    return javaclient.run_class("KwireShare", "consume", bootstrap, topic, group, policy, str(stop_after),
                                str(timeout_ms), *flags, timeout=timeout, check=True)


def records(lines):
    return [(l["partition"], l["offset"], l["delivery"]) for l in lines if l["type"] == "record"]


def done(lines) -> int:
    ends = [l for l in lines if l["type"] == "done"]
    assert ends, lines
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
    lines = java(sbroker.bootstrap, topic, group, "release-all", 1, 12000, "commit=sync")
    counts = {}
    for _, o, d in records(lines):
        counts.setdefault(o, []).append(d)
    assert counts == {o: [1, 2, 3] for o in range(3)}, counts
    assert records(java(sbroker.bootstrap, topic, group, "accept", 1, 4000)) == []


def test_halted_consumer_records_redelivered_after_lock(sbroker):
    javaclient.require_java()
    topic = topic_with(sbroker.bootstrap, 5)
    group = new_group(sbroker.bootstrap)
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
        import os
        import threading

        cp = javaclient.require_java()
        classes = javaclient.compiled_classes(cp)
        argv = ["java", "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true",
                "-cp", os.pathsep.join([str(classes)] + [str(j) for j in cp]), "KwireShare", "consume", *args]
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


def test_describe_and_list_share_group(sbroker):
    from kwire.client import KafkaClient
    from kwire.protocol.generated.list_groups_request import ListGroupsRequest
    from kwire.protocol.generated.share_group_describe_request import ShareGroupDescribeRequest

    javaclient.require_java()
    topic = topic_with(sbroker.bootstrap, 2)
    group = new_group(sbroker.bootstrap)
    java(sbroker.bootstrap, topic, group, "accept", 2)
    with KafkaClient(sbroker.bootstrap) as c:
        listed = c.request(16, ListGroupsRequest(types_filter=["share"]))
        assert group in [g.group_id for g in listed.groups]
        assert all(g.group_type == "share" for g in listed.groups)
        coordinator = c.find_coordinator(group) if hasattr(c, "find_coordinator") else None
        d = c.request(77, ShareGroupDescribeRequest(group_ids=[group]), node=coordinator)
    g = d.groups[0]
    assert g.error_code == 0 and g.group_state == "Empty" and g.assignor_name == "simple"
    assert g.group_epoch >= 2  # joined, then left


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
    assert all(got[o] == 1 for o in got if o not in held), (held, got)
    assert records(java(b.bootstrap, topic, group, "accept", 1, 4000)) == []
