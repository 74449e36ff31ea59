"""Real Python clients against a real kwire broker over TCP.

Every test runs once per client (kafka-python, aiokafka, confluent-kafka),
through the facades in ``clients.py``; topics are created with that client's
own admin API and every test uses its own topic. What is checked:

* produce + consume round trip under each compression codec the client
  supports: key, value, headers, timestamp, partition and offset of every
  record exactly as sent, offsets contiguous from 0 in every partition; every
  batch stored on disk carries that codec, and kwire's own decoder
  (``kwire.records.decode``) reads the same records back from the files;
* ListOffsets by timestamp: first offset whose record timestamp >= target,
  also in the middle of a batch and with out-of-order timestamps; a target
  past the last timestamp answers "none";
* acks=0, 1 and all store every record;
* topic ``max.message.bytes``: a record just under succeeds, one over fails
  with the client's MESSAGE_TOO_LARGE error, and the broker keeps serving;
* earliest / latest offsets (latest = last offset + 1, PITFALLS.md).
"""

from __future__ import annotations

import time

import pytest

from clients import (CLIENTS, CODECS, Msg, ProduceFailed, assert_decoded_on_disk, by_partition,
                     make_msgs, stored_batches, wait_until)

pytestmark = pytest.mark.timeout(120)

CLIENT_NAMES = list(CLIENTS)


@pytest.fixture(params=CLIENT_NAMES)
def client(request, broker):
    return CLIENTS[request.param](broker.bootstrap)


def assert_stored_exactly(sent, got, partitions=(0, 1, 2)):
    """``got`` (consumed) equals ``sent`` (producer metadata), partition by partition."""
    want, have = by_partition(sent), by_partition(got)
    for p in partitions:
        w, h = want.get(p, []), have.get(p, [])
        assert [r.offset for r in h] == list(range(len(h))), f"partition {p}: offsets not 0..n-1"
        assert len(h) == len(w), f"partition {p}: sent {len(w)} records, consumed {len(h)}"
        for a, b in zip(w, h):
            assert a == b, f"partition {p} offset {b.offset}: sent {a}, consumed {b}"
    assert set(have) <= set(partitions), f"records in unexpected partitions {set(have)}"


# --------------------------------------------------------------------------
# round trip under every codec
# --------------------------------------------------------------------------

@pytest.mark.parametrize("codec", CODECS)
def test_roundtrip_compression(broker, client, topic_name, codec):
    reason = client.codecs()[codec]
    if reason:
        pytest.skip(f"{client.name}: {reason}")
    client.create_topic(topic_name, partitions=3)
    msgs = make_msgs(40, tag=codec, pad=200)
    # Two producer sessions: several batches per partition, and a second
    # producer appending after the first one's batches.
    sent = client.produce(topic_name, msgs[:25], compression=codec, linger_ms=50)
    # The tombstone carries a repetitive header so that even a batch holding
    # it alone shrinks under every codec: librdkafka sends a batch that does
    # not shrink uncompressed, and every stored batch must carry the codec.
    tombstone = Msg(b"tombstone", None, (("pad", b"-payload" * 25),), msgs[0].timestamp)
    sent += client.produce(topic_name, msgs[25:] + [tombstone], compression=codec, linger_ms=50)
    assert {r.partition for r in sent} == {0, 1, 2}, "keys should spread over all partitions"
    for p, recs in by_partition(sent).items():
        assert [r.offset for r in recs] == list(range(len(recs))), \
            f"producer was told offsets {[r.offset for r in recs]} for partition {p}"

    got = client.consume(topic_name, [0, 1, 2], len(sent))
    assert_stored_exactly(sent, got)
    counts = {p: len(rs) for p, rs in by_partition(sent).items()}
    assert client.end_offsets(topic_name, [0, 1, 2]) == counts
    # The broker kept the client's batches as they came: every stored batch
    # carries the codec asked for, and kwire's own decoder reads back from
    # disk exactly what the client produced (offsets, keys, values, headers,
    # timestamps).
    stored = stored_batches(broker.data_dir, topic_name)
    assert {b.codec for b in stored} == {codec}, f"codecs on disk: {[b.codec for b in stored]}"
    assert sum(b.record_count for b in stored) == len(sent)
    assert_decoded_on_disk(broker.data_dir, topic_name, codec, sent)


# --------------------------------------------------------------------------
# ListOffsets by timestamp
# --------------------------------------------------------------------------

def test_offsets_for_times(broker, client, topic_name):
    client.create_topic(topic_name, partitions=3)
    base = int(time.time() * 1000) // 1000 * 1000 - 3_600_000  # an hour ago: inside retention
    # Partition 0: one batch of 10 records, timestamps base, base+10, ..., base+90.
    p0 = [Msg(f"k{i}".encode(), f"v{i}".encode(), (), base + 10 * i, partition=0) for i in range(10)]
    # Partition 1: out-of-order timestamps across two batches; the answer is
    # the FIRST offset (not the smallest timestamp) whose timestamp >= target.
    p1_ts = [100, 300, 200, 400, 250, 500]
    p1 = [Msg(b"k", f"w{i}".encode(), (), base + ts, partition=1) for i, ts in enumerate(p1_ts)]
    client.produce(topic_name, p0, linger_ms=1000)  # one flush: one batch
    client.produce(topic_name, p1[:3], linger_ms=1000)
    client.produce(topic_name, p1[3:], linger_ms=1000)
    layout = [(b.partition, b.base_offset, b.record_count)
              for b in stored_batches(broker.data_dir, topic_name)]
    assert layout == [(0, 0, 10), (1, 0, 3), (1, 3, 3)], f"{client.name} batched differently: {layout}"

    cases = [
        # (partition, target, expected offset or None)
        (0, base - 1000, 0),
        (0, base, 0),
        (0, base + 1, 1),         # inside the batch
        (0, base + 45, 5),
        (0, base + 50, 5),
        (0, base + 90, 9),        # last record
        (0, base + 91, None),     # past the end
        (1, base + 150, 1),       # ts 300 at offset 1 comes before ts 200 at offset 2
        (1, base + 300, 1),
        (1, base + 301, 3),       # crosses into the second batch
        (1, base + 450, 5),
        (1, base + 501, None),
        (2, base, None),          # empty partition
    ]
    for p, target, want in cases:
        got = client.offsets_for_times(topic_name, {p: target})
        assert got == {p: want}, f"{client.name}: partition {p} target {target - base:+d}: " \
                                 f"got {got[p]}, want {want}"
    # Several partitions in one request.
    got = client.offsets_for_times(topic_name, {0: base + 35, 1: base + 250, 2: base})
    assert got == {0: 4, 1: 1, 2: None}


# --------------------------------------------------------------------------
# acks
# --------------------------------------------------------------------------

@pytest.mark.parametrize("acks", ["0", "1", "all"])
def test_acks(client, topic_name, acks):
    client.create_topic(topic_name, partitions=3)
    msgs = make_msgs(30, tag=f"acks{acks}", partitions=3)
    sent = client.produce(topic_name, msgs, acks=acks)
    counts = {p: 10 for p in (0, 1, 2)}
    if acks == "0":
        # No response: the broker must still store everything. (What the
        # client reports as offsets is made up: kafka-python counts from 0,
        # aiokafka reports nothing, librdkafka -1.)
        wait_until(lambda: client.end_offsets(topic_name, [0, 1, 2]) == counts,
                   what=f"end offsets {counts} after acks=0 produce")
    else:
        assert client.end_offsets(topic_name, [0, 1, 2]) == counts
    got = client.consume(topic_name, [0, 1, 2], len(msgs))
    if acks == "0":
        # The same records in send order in each partition, offsets 0..n-1.
        want = {p: [(m.key, m.value, m.headers, m.timestamp) for m in msgs if m.partition == p]
                for p in (0, 1, 2)}
        have = {p: [r.content for r in rs] for p, rs in by_partition(got).items()}
        assert have == want
        for p, rs in by_partition(got).items():
            assert [r.offset for r in rs] == list(range(len(rs))), f"partition {p}"
    else:
        assert_stored_exactly(sent, got)


# --------------------------------------------------------------------------
# max.message.bytes
# --------------------------------------------------------------------------

MAX_MESSAGE_BYTES = 100_000


def test_message_size_limit(client, topic_name):
    client.create_topic(topic_name, partitions=1, configs={"max.message.bytes": MAX_MESSAGE_BYTES})
    # A batch holding one record: 61-byte batch header + ~15 bytes of record framing.
    under = make_msgs(1, tag="under", value_size=MAX_MESSAGE_BYTES - 200)[0]
    over = make_msgs(1, tag="over", value_size=MAX_MESSAGE_BYTES + 1000)[0]
    after = make_msgs(1, tag="after")[0]
    big = 4 * MAX_MESSAGE_BYTES  # the client's own limit is well above the topic's

    ok = client.produce(topic_name, [under], max_request_size=big)
    assert [(r.partition, r.offset) for r in ok] == [(0, 0)]

    with pytest.raises(ProduceFailed) as ei:
        client.produce(topic_name, [over], max_request_size=big)
    assert client.too_large(ei.value.error), \
        f"{client.name}: expected MESSAGE_TOO_LARGE from the broker, got {ei.value.error!r}"

    # The broker keeps serving, and the rejected record left no trace.
    ok += client.produce(topic_name, [after], max_request_size=big)
    assert [(r.partition, r.offset) for r in ok] == [(0, 0), (0, 1)]
    got = client.consume(topic_name, [0], 2)
    assert_stored_exactly(ok, got, partitions=(0,))
    assert client.end_offsets(topic_name, [0]) == {0: 2}


# --------------------------------------------------------------------------
# earliest / latest
# --------------------------------------------------------------------------

def test_earliest_latest_offsets(broker, client, topic_name):
    client.create_topic(topic_name, partitions=3)
    assert client.end_offsets(topic_name, [0, 1, 2]) == {0: 0, 1: 0, 2: 0}
    assert client.beginning_offsets(topic_name, [0, 1, 2]) == {0: 0, 1: 0, 2: 0}
    # Partition 0: three batches (7, 1, 5 records); partition 1: one; partition 2: none.
    sizes = [7, 1, 5]
    last = None
    for n, size in enumerate(sizes):
        recs = client.produce(topic_name, [Msg(b"k", f"b{n}-{i}".encode(), partition=0)
                                           for i in range(size)], linger_ms=500)
        last = recs[-1]
    client.produce(topic_name, [Msg(None, b"only", partition=1)])
    assert last.offset == sum(sizes) - 1
    layout = [(b.partition, b.base_offset, b.record_count)
              for b in stored_batches(broker.data_dir, topic_name)]
    assert layout == [(0, 0, 7), (0, 7, 1), (0, 8, 5), (1, 0, 1)], f"batches: {layout}"
    # latest = last offset + 1, not the last batch's base offset + 1
    assert client.end_offsets(topic_name, [0, 1, 2]) == {0: sum(sizes), 1: 1, 2: 0}
    assert client.beginning_offsets(topic_name, [0, 1, 2]) == {0: 0, 1: 0, 2: 0}
