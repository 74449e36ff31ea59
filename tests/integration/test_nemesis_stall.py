"""A leader stopped (SIGSTOP) for longer than its ZooKeeper session resigns before it answers the requests that waited.

The partition nemesis's ``pause-during-partition`` showed it (librdkafka debug
log, docs/partitions.md): a leader stopped for 10 s woke to the Metadata
requests its clients had sent it meanwhile and answered them all at once
"leader 1, epoch 0", a leadership ZooKeeper had given to another broker 4 s
earlier; it fenced itself only 1.3 s later, when kazoo reported the session
lost, and the clients lost that time. ``kwire.replication.fencing``'s
``stalled``: a broker whose loop stood still for longer than the session
timeout resigns every partition it leads before answering anything.

Asserted here, with no partition (the process is just stopped): a Metadata
request sent to the stopped leader on a connection opened before the stop
is answered, on waking, without broker 1 as the partition's leader; an
acks=all Produce sent the same way is answered NOT_LEADER_OR_FOLLOWER (never
a success); and the broker leads nothing ZooKeeper does not give it: the
new leader keeps the partition, and broker 1 rejoins its ISR.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)
from nemesis_workload import produce_pinned

from kwire.client import KafkaClient
from kwire.protocol.errors import ErrorCode

pytestmark = pytest.mark.timeout(180)

SESSION_MS = 6000


def _leader_elsewhere(c, topic: str, timeout: float = 90.0) -> int:
    """Until broker 2's or 3's Metadata names a leader other than broker 1."""
    deadline = time.monotonic() + timeout
    while True:
        for b in c.brokers[1:]:
            try:
                with KafkaClient(b.bootstrap, timeout=3) as client:
                    leader = client.metadata([topic]).topics[topic].partitions[0].leader
            except Exception:
                continue
            if leader > 0 and leader != 1:
                return leader
        assert time.monotonic() < deadline, f"no new leader of {topic} {timeout} s after broker 1 stopped"
        time.sleep(0.2)


def test_a_leader_stopped_past_its_session_resigns_before_answering(make_cluster):  # noqa: F811
    c = make_cluster(3, overrides={"min.insync.replicas": "2", "unclean.leader.election.enable": "false"},
                     session_timeout_ms=SESSION_MS)
    topic = f"stall-{uuid.uuid4().hex[:8]}"
    c.create_topic(topic, partitions=1, replication_factor=3, assignment={0: [1, 2, 3]})
    assert produce_pinned(c.broker(1).bootstrap, topic, b"before", 30000) == 0
    answers: dict = {}
    with KafkaClient(c.broker(1).bootstrap, timeout=120) as waiting:
        assert waiting.metadata([topic]).topics[topic].partitions[0].leader == 1  # the connection is open
        c.broker(1).pause()
        try:
            # sent while it is stopped: the kernel takes the bytes, the broker reads them on waking
            asker = threading.Thread(target=lambda: answers.setdefault("md", waiting.metadata([topic])), daemon=True)
            asker.start()
            new = _leader_elsewhere(c, topic)
        finally:
            c.broker(1).resume()
        asker.join(60)
    assert "md" in answers, "broker 1 never answered the Metadata request sent while it was stopped"
    md = answers["md"]
    assert md.topics[topic].partitions[0].leader != 1, (
        f"woken broker 1 still named itself leader: {md.topics[topic].partitions[0]}")
    # an acks=all write sent to it now is refused, never acknowledged
    assert produce_pinned(c.broker(1).bootstrap, topic, b"after", 10000) == ErrorCode.NOT_LEADER_OR_FOLLOWER
    deadline = time.monotonic() + 60
    while True:  # the leadership stays where ZooKeeper put it, and broker 1 follows it again
        p = c.describe(topic).partitions[0]
        if p.leader == new and sorted(p.isr) == [1, 2, 3]:
            break
        assert time.monotonic() < deadline, f"broker 1 did not rejoin {new}'s ISR: {p}"
        time.sleep(0.2)
    assert produce_pinned(c.broker(new).bootstrap, topic, b"on the new leader", 30000) == 0
