"""Durable share-group state (KIP-932) through broker failures, with real clients.

On the 3-broker ZooKeeper cluster (``__share_group_state`` with 3 replicas and
min ISR 2): the share partition lives on its data partition's leader and its
state with the share coordinator (the leader of the key's state partition,
found with FindCoordinator key type SHARE), which the tests place on another
broker. kill -9 of either one: no ACCEPTed record is delivered again, a record
acquired and not acknowledged is delivered again with its delivery count
raised, nothing is lost (Java KafkaShareConsumer 4.3); then the group's offsets
are altered (Java Admin, answered by the group coordinator on the third broker)
and the leader delivers from there. The group's configs
are set with IncrementalAlterConfigs, which the cluster keeps in ZooKeeper.

Exactly-once accounting (confluent-kafka ShareConsumer processes,
``share_accounting_consumer.py``): N records, three consumers that RELEASE
first deliveries at random, one consumer and one broker killed -9 on the way
(one broker killed and restarted; on the cluster the share coordinator): every
record's ACCEPT succeeds at most once and every record is ACCEPTed (an ACCEPT
whose answer a killed consumer never saw may have been the one), each
record's delivery counts are distinct and the accepted delivery is its last,
and a fresh consumer of the group finds nothing left.
"""

from __future__ import annotations

import os
import sys
import uuid

import pytest

import javaclient
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)  # pyflakes: ignore
from test_groups_support import create_topic, produce, wait_until
from test_share_groups import (FAST, JavaConsumer, admin, consume_sessions_closed, done,  # noqa: F401
                               java, records, set_group_configs)

pytestmark = pytest.mark.xdist_group("share_durable_cluster")

OVERRIDES = {"min.insync.replicas": "2", "offsets.topic.num.partitions": "3",
             "offsets.topic.replication.factor": "3", "group.initial.rebalance.delay.ms": "0",
             "share.coordinator.state.topic.replication.factor": "3",
             "share.coordinator.state.topic.min.isr": "2",
             "share.coordinator.state.topic.num.partitions": "3", **FAST}
SHARE_KEY_TYPE = 2


def share_coordinator(bootstrap: str, group: str, topic_id: uuid.UUID, partition: int) -> int:
    """FindCoordinator v6, key type SHARE: the node of the share partition's coordinator (-1: none yet)."""
    import base64

    from kwire.client import KafkaClient
    from kwire.protocol.generated.find_coordinator_request import FindCoordinatorRequest

    key = f"{group}:{base64.urlsafe_b64encode(topic_id.bytes).decode().rstrip('=')}:{partition}"
    with KafkaClient(bootstrap) as c:
        r = c.request(10, FindCoordinatorRequest(key_type=SHARE_KEY_TYPE, coordinator_keys=[key]), version=6)
    co = r.coordinators[0]
    assert co.key == key
    return co.node_id if co.error_code == 0 else -1


def group_coordinator(bootstrap: str, group: str) -> int:
    """FindCoordinator key type GROUP: the node of the group's coordinator."""
    from kwire.client import KafkaClient

    with KafkaClient(bootstrap) as c:
        return c.find_coordinator(group)


def cluster_with_topic(make_cluster, topic: str):
    """A 3-broker cluster, ``topic`` (1 partition, 3 replicas, led by the first broker) and a
    group whose share coordinator for that partition is another broker, and whose group
    coordinator (which answers the admin APIs) is the third one: each on its own broker."""
    c = make_cluster(3, OVERRIDES)
    ids = [b.node_id for b in c.brokers]
    info = c.create_topic(topic, 1, 3, assignment={0: ids})
    leader = info.partitions[0].leader
    group = None

    def found() -> bool:
        nonlocal group
        for _ in range(60):
            g = f"share-{uuid.uuid4().hex[:8]}"
            node = share_coordinator(c.bootstrap, g, info.topic_id, 0)
            if node < 0:
                return False  # __share_group_state still being created
            if node != leader and group_coordinator(c.bootstrap, g) not in (leader, node):
                group = g
                return True
        return False

    wait_until(found, 60, "a group whose share coordinator, group coordinator and data partition's "
               "leader are three brokers")
    set_group_configs(c.bootstrap, group, {"share.auto.offset.reset": "earliest",
                                           "share.record.lock.duration.ms": "15000"})
    wait_until(lambda: all(group_config(b.bootstrap, group, "share.auto.offset.reset") == "earliest"
                           for b in c.brokers), 30, "the group's configs on every broker (from ZooKeeper)")
    return c, group, leader, info.topic_id


def group_config(bootstrap: str, group: str, name: str) -> str | None:
    """DescribeConfigs of a GROUP resource, asked of the broker at ``bootstrap``."""
    from kwire.client import KafkaClient

    with KafkaClient(bootstrap) as c:
        return next((e.value for e in c.describe_configs(32, group, [name]) if e.name == name), None)


def test_find_coordinator_share_key_errors(broker):
    """FindCoordinator key type SHARE as Kafka answers it: the leader of the key's
    ``__share_group_state`` partition; INVALID_REQUEST below v6 and for a malformed key."""
    from kwire.client import KafkaClient
    from kwire.protocol.generated.find_coordinator_request import FindCoordinatorRequest

    topic = f"share-fc-{uuid.uuid4().hex[:8]}"
    create_topic(broker.bootstrap, topic, 1)
    with KafkaClient(broker.bootstrap) as c:
        tid = c.topic(topic).topic_id
        good = share_coordinator(broker.bootstrap, "g1", tid, 0)
        bad = c.request(10, FindCoordinatorRequest(key_type=SHARE_KEY_TYPE, coordinator_keys=[
            "g1:not-a-topic-id:0", "g1", f"g1:{tid}:x"]), version=6).coordinators
        old = c.request(10, FindCoordinatorRequest(key_type=SHARE_KEY_TYPE, coordinator_keys=["g:x:0"]),
                        version=5).coordinators
        md = c.metadata(["__share_group_state"])
    assert list(md.brokers) == [good]  # the only broker leads every partition
    assert "__share_group_state" in md.topics  # created on first use, as Kafka does
    assert [k.error_code for k in bad] == [42, 42, 42]  # INVALID_REQUEST
    assert [k.error_code for k in old] == [42]


@pytest.mark.parametrize("victim", ["leader", "coordinator"])
def test_share_state_survives_kill_9_on_the_cluster(make_cluster, victim):
    """kill -9 of the data partition's leader, or of the share coordinator: acknowledged records
    stay acknowledged, acquired ones come back with their delivery count raised."""
    javaclient.require_java()
    topic = f"share-d-{uuid.uuid4().hex[:8]}"
    c, group, leader, topic_id = cluster_with_topic(make_cluster, topic)
    coordinator = share_coordinator(c.bootstrap, group, topic_id, 0)
    produce(c.bootstrap, topic, 20, 1)
    first = java(c.bootstrap, topic, group, "accept", 10, 60000, "max-poll=5", "commit=sync")
    assert done(first) == 10 and sorted(o for _, o, _ in records(first)) == list(range(10))
    held = sorted(o for _, o, _ in records(java(c.bootstrap, topic, group, "accept", 5, 60000,
                                                "max-poll=5", "halt-after-first")))
    assert held and min(held) >= 10
    dead = leader if victim == "leader" else coordinator
    c.broker(dead).kill()
    if victim == "leader":
        c.wait_until(lambda md: md.topics[topic].partitions[0].leader not in (-1, dead), 60,
                     "a new leader of the data partition", topics=[topic], bootstrap=c.live_bootstrap)
    else:
        wait_until(lambda: share_coordinator(c.live_bootstrap, group, topic_id, 0) not in (-1, dead), 60,
                   "a new share coordinator")
    after = java(c.live_bootstrap, topic, group, "accept", 10, 60000)
    assert done(after) == 10
    got = {o: d for _, o, d in records(after)}
    assert sorted(got) == list(range(10, 20)), got  # nothing accepted comes back, nothing lost
    assert all(got[o] == 2 for o in held), (held, got)
    assert all(got[o] in (1, 2) for o in got if o not in held), (held, got)  # fetched ahead: acquired too
    assert records(java(c.live_bootstrap, topic, group, "accept", 1, 5000)) == []
    if victim == "coordinator":
        # AlterShareGroupOffsets after the failover, answered by the group coordinator (a third
        # broker): the state starts over at the new share coordinator at a new state epoch; the
        # leader forgot its share partition when the group's last session there closed, so the
        # next fetch loads the altered state (before that fix: nothing was delivered again
        # whenever the new share coordinator was not the leader)
        wait_until(lambda: admin(c.live_bootstrap, "alter", group, topic, "0:15") == [{"type": "ok"}], 60,
                   "the share-group offsets altered (the group empty)")
        again = records(java(c.live_bootstrap, topic, group, "accept", 5, 60000))
        assert sorted((o, d) for _, o, d in again) == [(o, 1) for o in range(15, 20)]


# -- exactly-once accounting ------------------------------------------------------------------------

class AccountingConsumer(JavaConsumer):
    """One ``share_accounting_consumer.py`` process; its JSON lines collected as they come."""

    SCRIPT = os.path.join(os.path.dirname(__file__), "share_accounting_consumer.py")

    def __init__(self, bootstrap: str, topic: str, group: str, seed: int, release_p: float = 0.3) -> None:
        self._start([sys.executable, self.SCRIPT, bootstrap, topic, group, str(seed), str(release_p)])

    def kill(self) -> None:
        super().kill()
        self._reader.join(10)  # every line it printed is in ``lines``


class Ledger:
    """What the consumers saw: deliveries, ACCEPTs the broker confirmed, ACCEPTs with no answer."""

    def __init__(self, consumers: list[AccountingConsumer]) -> None:
        self.consumers = consumers

    def summary(self):
        deliveries: dict[tuple[int, int], list[int]] = {}
        confirmed: list[tuple[int, int]] = []
        confirmed_at: dict[tuple[int, int], int] = {}
        unanswered: set[tuple[int, int]] = set()
        for m in self.consumers:
            answered = set()
            lines = list(m.lines)
            last_delivery: dict[tuple[int, int], int] = {}
            for l in lines:
                if l["t"] == "rec":
                    k = (l["p"], l["o"])
                    deliveries.setdefault(k, []).append(l["d"])
                    last_delivery[k] = l["d"]
                elif l["t"] in ("ok", "fail") and l["k"] == "accept":
                    for o in l["o"]:
                        answered.add((l["p"], o))
                        if l["t"] == "ok":
                            confirmed.append((l["p"], o))
                            confirmed_at[(l["p"], o)] = last_delivery.get((l["p"], o), -1)
            for l in lines:
                if l["t"] == "ack" and l["k"] == "accept":
                    unanswered |= {(l["p"], o) for o in l["o"]} - answered
            # an answered "fail" is as unknown as no answer: the write may have become durable
            unanswered |= {(l["p"], o) for l in lines if l["t"] == "fail" and l["k"] == "accept" for o in l["o"]}
        return deliveries, confirmed, confirmed_at, unanswered

    def settled(self, expected: set[tuple[int, int]]) -> bool:
        _, confirmed, _, unanswered = self.summary()
        return expected <= set(confirmed) | unanswered


def check_ledger(ledger: Ledger, expected: set[tuple[int, int]]) -> None:
    deliveries, confirmed, confirmed_at, unanswered = ledger.summary()
    twice = sorted(k for k in set(confirmed) if confirmed.count(k) > 1)
    assert not twice, f"ACCEPTed twice: {twice}"
    assert expected <= set(confirmed) | unanswered, sorted(expected - set(confirmed) - unanswered)
    assert set(deliveries) <= expected
    for k, ds in deliveries.items():
        assert len(ds) == len(set(ds)) and min(ds) >= 1, (k, ds)  # every acquisition raised the count
        if k in confirmed_at:
            assert confirmed_at[k] == max(ds), (k, ds, confirmed_at[k])  # nothing delivered after its ACCEPT
    assert len(set(confirmed)) >= len(expected) - len(unanswered)
    assert sum(len(ds) > 1 for ds in deliveries.values()) >= len(expected) // 10  # RELEASEs redelivered


def run_accounting(bootstrap_of, topic: str, group: str, n: int, partitions: int, fault) -> Ledger:
    """Three consumers; one killed -9 and replaced once a third is accepted, ``fault()`` at half,
    then until every record is accounted for."""
    expected = {(i % partitions, i // partitions) for i in range(n)}
    consumers = [AccountingConsumer(bootstrap_of(), topic, group, seed) for seed in range(3)]
    ledger = Ledger(consumers)
    try:
        produce(bootstrap_of(), topic, n, partitions)

        def accepted(k: int):
            return lambda: len(set(ledger.summary()[1])) >= k

        wait_until(accepted(n // 3), 60, f"{n // 3} records accepted")
        consumers[0].kill()
        consumers.append(AccountingConsumer(bootstrap_of(), topic, group, 3))
        wait_until(accepted(n // 2), 60, f"{n // 2} records accepted")
        fault()
        consumers.append(AccountingConsumer(bootstrap_of(), topic, group, 4))
        wait_until(lambda: ledger.settled(expected), 90, "every record accounted for")
    finally:
        for m in consumers:
            m.kill()
    check_ledger(ledger, expected)
    return ledger


def assert_nothing_left_but_indeterminate(ledger: Ledger, left: list) -> None:
    """What a last consumer still gets after the run: only records whose ACCEPT went unanswered
    (sent as the broker was killed: applied or not, either is right) and that nobody ACCEPTed
    with an answer; each at most once. A confirmed ACCEPT is never delivered again."""
    _, confirmed, _, unanswered = ledger.summary()
    keys = [(p, o) for p, o, _ in left]
    assert len(keys) == len(set(keys)), keys
    may = unanswered - set(confirmed)
    assert set(keys) <= may, sorted(set(keys) - may)


def test_exactly_once_accounting_with_broker_kill_9_and_restart(spawn_broker, tmp_path):
    """One broker: consumers RELEASE at random, one consumer and the broker are killed -9 (the
    broker restarted): every record ACCEPTed exactly once, none lost."""
    data = tmp_path / "accounting"
    broker = {"b": spawn_broker(data, FAST)}
    topic = f"share-a-{uuid.uuid4().hex[:8]}"
    create_topic(broker["b"].bootstrap, topic, 2)
    group = f"share-{uuid.uuid4().hex[:8]}"
    set_group_configs(broker["b"].bootstrap, group, {"share.auto.offset.reset": "earliest",
                                                     "share.record.lock.duration.ms": "4000",
                                                     "share.delivery.count.limit": "10"})
    port = broker["b"].bootstrap.rsplit(":", 1)[1]

    def restart() -> None:  # on the same port: the consumers reconnect to it
        broker["b"].kill()
        broker["b"] = spawn_broker(data, {**FAST, "listeners": f"PLAINTEXT://127.0.0.1:{port}"})

    ledger = run_accounting(lambda: broker["b"].bootstrap, topic, group, 300, 2, restart)
    javaclient.require_java()
    assert_nothing_left_but_indeterminate(
        ledger, records(java(broker["b"].bootstrap, topic, group, "accept", 1, 5000)))


def test_exactly_once_accounting_with_share_coordinator_failover(make_cluster):
    """The cluster: consumers RELEASE at random, one consumer and the share coordinator's broker
    are killed -9: every record ACCEPTed exactly once, none lost."""
    topic = f"share-a-{uuid.uuid4().hex[:8]}"
    c, group, leader, topic_id = cluster_with_topic(make_cluster, topic)
    set_group_configs(c.bootstrap, group, {"share.auto.offset.reset": "earliest",
                                           "share.record.lock.duration.ms": "4000",
                                           "share.delivery.count.limit": "10"})

    def kill_coordinator() -> None:
        coordinator = share_coordinator(c.live_bootstrap, group, topic_id, 0)
        assert coordinator not in (-1, leader)
        c.broker(coordinator).kill()

    ledger = run_accounting(lambda: c.live_bootstrap, topic, group, 300, 1, kill_coordinator)
    javaclient.require_java()
    assert_nothing_left_but_indeterminate(
        ledger, records(java(c.live_bootstrap, topic, group, "accept", 1, 5000)))


def test_state_apis_fence_an_older_leader_epoch(broker):
    """ReadShareGroupState at a leader epoch records it; a WriteShareGroupState of an older
    leader epoch (a deposed share-partition leader) answers FENCED_LEADER_EPOCH and changes
    nothing, a write at the current epoch succeeds."""
    from kwire.client import KafkaClient
    from kwire.protocol.generated import (
        initialize_share_group_state_request as ireq, read_share_group_state_request as rreq,
        write_share_group_state_request as wreq)

    topic = f"share-fence-{uuid.uuid4().hex[:8]}"
    create_topic(broker.bootstrap, topic, 1)
    group = f"share-{uuid.uuid4().hex[:8]}"
    with KafkaClient(broker.bootstrap) as c:
        tid = c.topic(topic).topic_id

        def read(epoch: int):
            return c.request(84, rreq.ReadShareGroupStateRequest(group_id=group, topics=[rreq.ReadStateData(
                topic_id=tid, partitions=[rreq.PartitionData(partition=0, leader_epoch=epoch)])])).results[0].partitions[0]

        def write(epoch: int, start: int):
            return c.request(85, wreq.WriteShareGroupStateRequest(group_id=group, topics=[wreq.WriteStateData(
                topic_id=tid, partitions=[wreq.PartitionData(partition=0, state_epoch=0, leader_epoch=epoch,
                                                             start_offset=start)])])).results[0].partitions[0]

        init = c.request(83, ireq.InitializeShareGroupStateRequest(group_id=group, topics=[ireq.InitializeStateData(
            topic_id=tid, partitions=[ireq.PartitionData(partition=0, state_epoch=0, start_offset=0)])]))
        assert init.results[0].partitions[0].error_code == 0
        assert read(5).error_code == 0
        assert write(3, 7).error_code == 74  # FENCED_LEADER_EPOCH
        assert read(5).start_offset == 0
        assert write(5, 2).error_code == 0 and read(5).start_offset == 2


def test_java_renew_keeps_the_record(make_broker):
    """RENEW end to end with the Java KafkaShareConsumer (KIP-1222): a record renewed twice, each
    time after 3/4 of its lock, comes back in the next poll with its delivery count unchanged and
    is then ACCEPTed once; no acknowledgement fails and it is never redelivered."""
    javaclient.require_java()
    b = make_broker(None, FAST).bootstrap
    topic = f"share-renew-{uuid.uuid4().hex[:8]}"
    create_topic(b, topic, 1)
    produce(b, topic, 1, 1)
    group = f"share-{uuid.uuid4().hex[:8]}"
    set_group_configs(b, group, {"share.auto.offset.reset": "earliest", "share.record.lock.duration.ms": "8000"})
    lines = java(b, topic, group, "renew-accept", 1, 60000, "max-poll=1")
    assert done(lines) == 1  # no commit_error: both renewals and the ACCEPT succeeded
    assert records(lines) == [(0, 0, 1)] * 3
    assert records(java(b, topic, group, "accept", 1, 5000)) == []
