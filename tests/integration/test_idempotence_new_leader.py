"""An idempotent producer's retry reaches a new leader that has just restarted: still a duplicate.

A broker started after a clean shutdown leaves each partition's producer snapshot unread until
the partition first needs it (``PartitionLog.producer_state``). Two ways a restarted broker can
then lead a partition, on a 3-broker cluster (min.insync.replicas 2, the replicas in the order
1, 2, 3, so a leadership always goes to the first live replica in the ISR):

1. it follows first and appends the leader's batches (which reads the snapshot and replays them
   on top), then leads;
2. it leads with the state still unread (nothing was written while it followed).

Either way, a retry of a batch the old leader appended (same producer id, epoch and sequences)
must be answered with the batch's first offset, not appended again, and the next sequence must
follow on. Raw Produce requests give the test the producer id and sequences to retry; the log
is read back with kafka-python at the end.
"""

from __future__ import annotations

import time
import uuid

from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)
from test_faults import NONE, Raw, idempotent_producer, produce_raw, read_partition

NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS = 6, 19


def _produce(c, node: int, topic: str, records: bytes, timeout: float = 60.0):
    """Produce (acks=all) to broker ``node`` until it answers something other than the
    transient errors of a leadership or ISR change; its partition response."""
    deadline = time.monotonic() + timeout
    while True:
        with Raw(c.broker(node).bootstrap, timeout=15) as r:
            p = produce_raw(r, c.broker(node).bootstrap, topic, 0, records)
        if p.error_code not in (NOT_LEADER_OR_FOLLOWER, NOT_ENOUGH_REPLICAS) or time.monotonic() > deadline:
            return p
        time.sleep(0.1)


def _wait_isr(c, topic: str, leader: int, isr: set[int]) -> None:
    c.wait_until(lambda md: md.topics[topic].partitions[0].leader == leader
                 and set(md.topics[topic].partitions[0].isr) == isr, 90,
                 f"leader {leader}, ISR {sorted(isr)}", topics=[topic], bootstrap=c.broker(leader).bootstrap)


def test_retries_are_recognised_by_a_restarted_broker_that_takes_over(make_cluster):
    c = make_cluster(3, overrides={"min.insync.replicas": "2", "unclean.leader.election.enable": "false"})
    topic = f"idem-{uuid.uuid4().hex[:6]}"
    c.create_topic(topic, assignment={0: [1, 2, 3]})
    _wait_isr(c, topic, 1, {1, 2, 3})
    with Raw(c.broker(1).bootstrap) as r:
        batch = idempotent_producer(r, c.broker(1).bootstrap)
    a, b, cc, d = batch(0, [b"a0", b"a1"]), batch(2, [b"b2"]), batch(3, [b"c3"]), batch(4, [b"d4"])
    assert [(p.error_code, p.base_offset) for p in (_produce(c, 1, topic, a), _produce(c, 1, topic, b))] \
        == [(NONE, 0), (NONE, 2)]

    # 1. broker 2 restarts cleanly, follows (appending c3 on top of its snapshot), then leads
    c.broker(2).stop()
    c.broker(2).start()
    _wait_isr(c, topic, 1, {1, 2, 3})
    p = _produce(c, 1, topic, cc)
    assert (p.error_code, p.base_offset) == (NONE, 3), p
    c.broker(1).stop()
    _wait_isr(c, topic, 2, {2, 3})
    for retry, first in ((cc, 3), (b, 2), (a, 0)):
        p = _produce(c, 2, topic, retry)
        assert (p.error_code, p.base_offset) == (NONE, first), p

    # 2. broker 1 restarts cleanly and rejoins; nothing is written meanwhile, so it leads
    #    with its snapshot still unread
    c.broker(1).start()
    _wait_isr(c, topic, 2, {1, 2, 3})
    c.broker(2).stop()
    _wait_isr(c, topic, 1, {1, 3})
    for retry, first in ((cc, 3), (b, 2)):
        p = _produce(c, 1, topic, retry)
        assert (p.error_code, p.base_offset) == (NONE, first), p
    p = _produce(c, 1, topic, d)  # the next sequence follows on
    assert (p.error_code, p.base_offset) == (NONE, 4), p

    got, end = read_partition(c.broker(1).bootstrap, topic, 5, timeout=60)
    assert [(o, k) for o, k, _v in got] == [(0, b"a0"), (1, b"a1"), (2, b"b2"), (3, b"c3"), (4, b"d4")]
    assert end == 5
