"""Leader epochs on the wire: OffsetForLeaderEpoch (key 23) and Fetch's epoch checks.

Against one in-process broker over TCP (raw requests): every batch it stores
carries the partition's leader epoch (0 on a new topic), so the leader-epoch
cache is [(0, 0)] once something is written and the epoch ends at the LEO.

* OffsetForLeaderEpoch v2-4: the end offset of the largest epoch <= the asked
  one; -1/-1 below every known epoch and for an empty log; FENCED_LEADER_EPOCH /
  UNKNOWN_LEADER_EPOCH for an old / new ``current_leader_epoch``; unknown topic
  and partition; the same answer for a consumer (-1) and a follower replica id.
* a real client: librdkafka validates an assigned (offset, leader epoch) with
  OffsetForLeaderEpoch (KIP-320) and reports log truncation from the answer.
* Fetch v12+ ``last_fetched_epoch``: a fetcher whose (epoch, offset) is not on
  the leader's lineage gets no records and ``diverging_epoch`` at once, even
  when it asked to long-poll; an unknown epoch or an offset below the log start
  gets OFFSET_OUT_OF_RANGE; a fetcher on the lineage gets its records.
"""

from __future__ import annotations

import time

import confluent_kafka
import pytest

from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
from kwire.protocol.generated.offset_for_leader_epoch_request import (
    OffsetForLeaderEpochRequest,
    OffsetForLeaderPartition,
    OffsetForLeaderTopic,
)
from kwire.records.builder import build_batch

from test_faults import Raw, pick, versions
from test_wire_fetch import create_topic_raw, delete_records, produce, records_of

pytestmark = pytest.mark.timeout(60)

FETCH, OFFSET_FOR_LEADER_EPOCH = 1, 23
NONE, OFFSET_OUT_OF_RANGE, UNKNOWN_TOPIC_OR_PARTITION = 0, 1, 3
FENCED_LEADER_EPOCH, UNKNOWN_LEADER_EPOCH = 74, 75
NOW = int(time.time() * 1000)


def epochs(bootstrap, version, topic, asks, replica_id=-1):
    """OffsetForLeaderEpoch for {partition: (current_leader_epoch, leader_epoch)} -> {partition: result}."""
    req = OffsetForLeaderEpochRequest(replica_id=replica_id, topics=[OffsetForLeaderTopic(
        topic=topic, partitions=[OffsetForLeaderPartition(partition=p, current_leader_epoch=c,
                                                          leader_epoch=e)
                                 for p, (c, e) in asks.items()])])
    with Raw(bootstrap) as r:
        resp = r.request(OFFSET_FOR_LEADER_EPOCH, version, req)
    (t,) = resp.topics
    assert t.topic == topic
    return {p.partition: (p.error_code, p.leader_epoch, p.end_offset) for p in t.partitions}


def fill(bootstrap, topic, partition, batches=3, per=4):
    for i in range(batches):
        recs = [(b"k", b"v%d" % j, [], NOW + j) for j in range(per)]
        produce(bootstrap, topic, partition, build_batch(recs, now_ms=NOW))
    return batches * per


def test_offset_for_leader_epoch_is_advertised_at_kafkas_versions(broker):
    assert versions(broker.bootstrap)[OFFSET_FOR_LEADER_EPOCH] == (2, 4)


@pytest.mark.parametrize("version", [2, 3, 4])
def test_offset_for_leader_epoch_answers(broker, topic_name, version):
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name, partitions=2)
    leo = fill(bs, topic_name, 0)
    got = epochs(bs, version, topic_name, {0: (-1, 0), 1: (-1, 0)})
    assert got == {0: (NONE, 0, leo), 1: (NONE, -1, -1)}  # partition 1 is empty: no epoch yet
    assert epochs(bs, version, topic_name, {0: (0, 7)}) == {0: (NONE, 0, leo)}  # largest <= 7
    assert epochs(bs, version, topic_name, {0: (1, 0)}) == {0: (UNKNOWN_LEADER_EPOCH, -1, -1)}
    assert epochs(bs, version, topic_name, {0: (0, 0), 5: (-1, 0)}) == \
        {0: (NONE, 0, leo), 5: (UNKNOWN_TOPIC_OR_PARTITION, -1, -1)}
    assert epochs(bs, version, "no-such-topic-" + topic_name, {0: (-1, 0)}) == \
        {0: (UNKNOWN_TOPIC_OR_PARTITION, -1, -1)}
    if version >= 3:  # a follower's replica id gets the consumer's answer
        assert epochs(bs, version, topic_name, {0: (-1, 0)}, replica_id=1) == {0: (NONE, 0, leo)}


def test_offset_for_leader_epoch_after_delete_records(broker, topic_name):
    """The epoch that covers the new log start still ends at the LEO."""
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name)
    leo = fill(bs, topic_name, 0)
    assert delete_records(bs, topic_name, 0, 6) == 6
    assert epochs(bs, 4, topic_name, {0: (0, 0)}) == {0: (NONE, 0, leo)}


def fetch(bootstrap, version, topic, offset, last_fetched_epoch, current_leader_epoch=-1, **kw):
    req = FetchRequest(replica_id=-1, max_wait_ms=kw.get("max_wait_ms", 0), min_bytes=1,
                       max_bytes=1 << 20, isolation_level=0, session_id=0, session_epoch=-1,
                       topics=[FetchTopic(topic=topic, partitions=[FetchPartition(
                           partition=0, fetch_offset=offset, partition_max_bytes=1 << 20,
                           current_leader_epoch=current_leader_epoch,
                           last_fetched_epoch=last_fetched_epoch)])],
                       forgotten_topics_data=[], rack_id="")
    with Raw(bootstrap) as r:
        started = time.monotonic()
        resp = r.request(FETCH, version, req)
        took = time.monotonic() - started
    (t,) = resp.responses
    (p,) = t.partitions
    return p, took


@pytest.mark.parametrize("version", [12])
def test_fetch_diverging_epoch(broker, topic_name, version):
    bs = broker.bootstrap
    assert pick(bs, FETCH, version) == version
    create_topic_raw(bs, topic_name)
    p, _ = fetch(bs, version, topic_name, 0, 0)  # empty log: the epoch is unknown here
    assert p.error_code == OFFSET_OUT_OF_RANGE
    leo = fill(bs, topic_name, 0)
    # on the lineage: records as usual
    p, _ = fetch(bs, version, topic_name, 4, 0, current_leader_epoch=0)
    assert p.error_code == NONE and [r[0] for r in records_of(p)][-1] == leo - 1
    assert p.diverging_epoch.epoch == -1  # the default: not diverging
    # a fetcher that has records of epoch 0 beyond our end: truncate to our LEO
    p, took = fetch(bs, version, topic_name, leo + 5, 0, max_wait_ms=20_000)
    assert p.error_code == NONE and not p.records
    assert (p.diverging_epoch.epoch, p.diverging_epoch.end_offset) == (0, leo)
    assert took < 10, "a diverging fetcher is answered at once, not after max_wait_ms"
    assert p.high_watermark == leo
    # a fetcher whose last epoch (3) we never had: our largest epoch below it ends at the LEO
    p, _ = fetch(bs, version, topic_name, leo, 3)
    assert (p.diverging_epoch.epoch, p.diverging_epoch.end_offset) == (0, leo)
    # the fencing check comes first
    p, _ = fetch(bs, version, topic_name, leo, 0, current_leader_epoch=2)
    assert p.error_code == UNKNOWN_LEADER_EPOCH
    # below the log start: out of range whatever the epoch says
    delete_records(bs, topic_name, 0, 8)
    p, _ = fetch(bs, version, topic_name, 4, 0)
    assert p.error_code == OFFSET_OUT_OF_RANGE


def test_fetch_before_v12_ignores_the_epoch_it_cannot_send(broker, topic_name):
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name)
    leo = fill(bs, topic_name, 0, batches=1)
    p, _ = fetch(bs, 11, topic_name, 0, -1)
    assert p.error_code == NONE and len(records_of(p)) == leo


def _consume_from(bootstrap, topic, offset, epoch, last):
    """Assign (offset, leader epoch) with librdkafka; the offsets read up to ``last``, or the
    error it reports."""
    c = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": "epochs",
                                  "enable.auto.commit": False, "auto.offset.reset": "error"})
    try:
        c.assign([confluent_kafka.TopicPartition(topic, 0, offset, leader_epoch=epoch)])
        got = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is None:
                continue
            if m.error():
                return m.error()
            got.append(m.offset())
            if m.offset() == last:
                return got
        raise AssertionError(f"nothing conclusive from librdkafka within 30 s: {got}")
    finally:
        c.close()


def test_librdkafka_validates_positions_with_offset_for_leader_epoch(broker, topic_name):
    bs = broker.bootstrap
    create_topic_raw(bs, topic_name)
    leo = fill(bs, topic_name, 0)
    assert _consume_from(bs, topic_name, 5, 0, leo - 1) == list(range(5, leo))
    err = _consume_from(bs, topic_name, leo + 8, 0, leo - 1)  # a position past epoch 0's end
    # auto.offset.reset=error reports it as a reset; without API 23 it would be a Fetch
    # OFFSET_OUT_OF_RANGE instead of a detected truncation at our answer's end offset
    assert err.code() == confluent_kafka.KafkaError._AUTO_OFFSET_RESET, err
    assert "log truncation detected" in err.str() and f"broker end offset is {leo}" in err.str()
