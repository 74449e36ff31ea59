"""Share sessions and the share assignor against kwire, with real clients (KIP-932, Kafka 4.3).

* A consumer whose connection closes while it holds records (the Java
  KafkaShareConsumer halted, as by kill -9): its share session is evicted and
  the records are released at once, not after the 60 s acquisition lock, as
  Kafka 4.3's ShareSessionCache does on a disconnect.
* A member fenced by the group coordinator (its heartbeats stop, its
  connection stays open): its share session is gone (SHARE_SESSION_NOT_FOUND
  on its next ShareFetch) and a Java consumer gets its records right away,
  with delivery count 2.
* Kafka's ``simple`` assignor seen through ShareGroupDescribe: three
  confluent-kafka ShareConsumers on a two-partition topic share each
  partition two ways, 2/1/1.
* Batch-optimized acquisition (KIP-1206): a ShareFetch asking for 10 records
  of a 100-record batch acquires the whole batch; record_limit acquires 10.
"""

from __future__ import annotations

import time

import javaclient
from test_groups_support import wait_until
from test_share_groups import FAST, JavaConsumer, java, new_group, records, topic_with  # noqa: F401
from test_share_groups import sbroker  # noqa: F401  (the module's broker fixture)

LONG_LOCK_MS = 60000  # the largest lock Kafka allows by default: a release must not wait for it


def test_closed_connection_releases_held_records_at_once(sbroker):  # noqa: F811
    javaclient.require_java()
    topic = topic_with(sbroker.bootstrap, 5)
    group = new_group(sbroker.bootstrap, share_record_lock_duration_ms=LONG_LOCK_MS)
    held = sorted(o for _, o, _ in records(java(sbroker.bootstrap, topic, group, "accept", 5, 40000,
                                                "halt-after-first")))
    assert held
    t0 = time.monotonic()
    lines = java(sbroker.bootstrap, topic, group, "accept", 5, 40000)  # gives up after 40 s
    got = {o: d for _, o, d in records(lines)}
    assert sorted(got) == list(range(5)), got
    assert all(got[o] == 2 for o in held), (held, got)
    assert time.monotonic() - t0 < LONG_LOCK_MS / 1000


def test_fenced_member_loses_its_session_and_records(sbroker):  # noqa: F811
    """A member that stops heartbeating is fenced after share.session.timeout.ms (6 s here):
    its session closes and what it held goes to the next consumer with delivery count 2."""
    from kwire.client import KafkaClient
    from kwire.protocol.generated.share_fetch_request import FetchPartition, FetchTopic, ShareFetchRequest
    from kwire.protocol.generated.share_group_heartbeat_request import ShareGroupHeartbeatRequest

    javaclient.require_java()
    b = sbroker.bootstrap
    topic = topic_with(b, 4)
    group = new_group(b, share_record_lock_duration_ms=LONG_LOCK_MS, share_session_timeout_ms=6000)
    with KafkaClient(b) as c:
        tid = c.topic(topic).topic_id
        hb = c.request(76, ShareGroupHeartbeatRequest(group_id=group, member_id="stalled-member", member_epoch=0,
                                                      subscribed_topic_names=[topic]))
        assert hb.error_code == 0 and hb.assignment.topic_partitions[0].partitions == [0]

        def fetch(epoch):
            return c.request(78, ShareFetchRequest(
                group_id=group, member_id="stalled-member", share_session_epoch=epoch, max_wait_ms=0, min_bytes=1,
                max_records=10, batch_size=10,
                topics=[FetchTopic(topic_id=tid, partitions=[FetchPartition(partition_index=0)])]))

        got = fetch(0).responses[0].partitions[0].acquired_records
        assert [(a.first_offset, a.last_offset) for a in got] == [(0, 3)]
        # no more heartbeats: fenced after the session timeout, its session goes with it
        wait_until(lambda: fetch(1).error_code == 122, 60, "SHARE_SESSION_NOT_FOUND once fenced")
        t0 = time.monotonic()
        lines = java(b, topic, group, "accept", 4, 40000)
    got = {o: d for _, o, d in records(lines)}
    assert got == {0: 2, 1: 2, 2: 2, 3: 2}, got
    assert time.monotonic() - t0 < LONG_LOCK_MS / 1000


def test_simple_assignor_shares_partitions_between_confluent_consumers(sbroker):  # noqa: F811
    from confluent_kafka import ShareConsumer

    from kwire.client import KafkaClient
    from kwire.protocol.generated.share_group_describe_request import ShareGroupDescribeRequest

    b = sbroker.bootstrap
    topic = topic_with(b, 0, partitions=2)
    group = new_group(b)
    consumers = [ShareConsumer({"bootstrap.servers": b, "group.id": group}) for _ in range(3)]
    try:
        for c in consumers:
            c.subscribe([topic])

        def settled():
            for c in consumers:
                c.poll(0.1)
            with KafkaClient(b) as k:
                g = k.request(77, ShareGroupDescribeRequest(group_ids=[group])).groups[0]
            if len(g.members) != 3 or any(m.member_epoch != g.group_epoch for m in g.members):
                return None
            return [sorted(p for tp in m.assignment.topic_partitions for p in tp.partitions) for m in g.members]

        assignment = wait_until(settled, 90, "three members at the group epoch")
    finally:
        for c in consumers:
            c.close()
    # Kafka's simple assignor: ceil(3/2) = 2 members per partition, 4 assignments as 2/1/1
    assert sorted(len(a) for a in assignment) == [1, 1, 2], assignment
    assert sorted(sum(p in a for a in assignment) for p in (0, 1)) == [2, 2], assignment


def test_batch_optimized_acquires_the_whole_batch(sbroker):  # noqa: F811
    from kwire.client import KafkaClient
    from kwire.protocol.generated.share_fetch_request import FetchPartition, FetchTopic, ShareFetchRequest

    from confluent_kafka import Producer

    b = sbroker.bootstrap
    topic = topic_with(b, 0)
    p = Producer({"bootstrap.servers": b, "linger.ms": 60000})
    for i in range(100):
        p.produce(topic, f"r-{i}".encode(), partition=0)
    assert p.flush(60) == 0  # one batch of 100 records
    group = new_group(b)
    with KafkaClient(b) as c:
        tid = c.topic(topic).topic_id

        def fetch(member, mode):
            r = c.request(78, ShareFetchRequest(
                group_id=group, member_id=member, share_session_epoch=0, max_wait_ms=0, min_bytes=1,
                max_records=10, batch_size=10, share_acquire_mode=mode,
                topics=[FetchTopic(topic_id=tid, partitions=[FetchPartition(partition_index=0)])]), version=2)
            return [(a.first_offset, a.last_offset, a.delivery_count)
                    for a in r.responses[0].partitions[0].acquired_records]

        first = fetch("strict", 1)
        assert first[0][:2] == (0, 9) and len(first) == 1  # record_limit: 10 exactly
        whole = fetch("batched", 0)  # batch_optimized: the rest of the batch, though 10 were asked
        assert whole == [(10, 99, 1)], whole
