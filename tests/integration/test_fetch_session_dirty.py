"""Incremental fetch sessions (KIP-227) that look only at what changed: the dirty sets of
``kwire.broker.fetch_sessions``, on the wire against the in-process broker.

* over a session of 5,000 caught-up partitions, an incremental fetch naming none answers
  none, and after a write to one of them answers exactly that one; the session then holds
  only the partitions it must look at again (what moved, or was not caught up), not all
  5,000;
* a change on an idle partition the client has not seen is reported though the
  request does not name it: the topic deleted (UNKNOWN_TOPIC_OR_PARTITION /
  UNKNOWN_TOPIC_ID every time until the client forgets it), its log start moved
  (DeleteRecords);
* a long-poll over an idle session is woken by an append to any of its partitions.

The leader change of a partition a session holds is in ``test_cluster_fetch_session.py``
(it needs two brokers). Raw requests through kwire's generated codec (helpers of
``test_wire_fetch``).
"""

from __future__ import annotations

import os
import tempfile
import time

import pytest

from kwire.protocol import codec
from kwire.protocol.generated.create_topics_request import CreatableTopic, CreateTopicsRequest
from kwire.protocol.generated.delete_topics_request import DeleteTopicsRequest
from kwire.records.builder import build_batch

from test_faults import Raw, pick, produce_raw
from test_wire_fetch import (
    CREATE_TOPICS, FETCH, NONE, UNKNOWN_TOPIC_ID, UNKNOWN_TOPIC_OR_PARTITION, answered_within, create_topic_raw,
    delete_records, fetch_request, partitions_of, produce, records_of,
)

pytestmark = pytest.mark.timeout(120)

DELETE_TOPICS = 20
MANY = 5000


def _session(broker, sid: int):
    """The in-process broker's session ``sid`` (read between requests: nothing runs on it)."""
    return broker.server.broker.fetch_sessions._sessions[sid]


@pytest.fixture
def shm_broker(make_broker):
    """A broker whose data dir is on tmpfs when the machine has one: 5,000 partitions are
    created (and closed) in seconds there, not tens of seconds of fsyncs."""
    parent = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="kwire-dirty-", dir=parent) as d:
        b = make_broker(os.path.join(d, "data"))
        yield b
        b.stop()


def test_incremental_fetch_over_5000_idle_partitions_answers_only_the_written_one(shm_broker, topic_name):
    broker = shm_broker
    bs = broker.bootstrap
    v = pick(bs, FETCH, 12)
    with Raw(bs, timeout=90) as r:
        resp = r.request(CREATE_TOPICS, pick(bs, CREATE_TOPICS, 7), CreateTopicsRequest(
            timeout_ms=90_000, topics=[CreatableTopic(name=topic_name, num_partitions=MANY,
                                                      replication_factor=1, assignments=[], configs=[])]))
    assert resp.topics[0].error_code == NONE, resp
    with Raw(bs, timeout=60) as r:
        def fetch(offsets, sid, epoch):
            resp = r.request(FETCH, v, fetch_request(v, topic_name, None, offsets, session_id=sid,
                                                     session_epoch=epoch))
            assert resp.error_code == NONE, resp
            return resp, partitions_of(resp, v, topic_name, None)

        resp, parts = fetch({p: 0 for p in range(MANY)}, 0, 0)
        sid = resp.session_id
        assert sid != 0 and len(parts) == MANY
        assert all(p.error_code == NONE and p.high_watermark == 0 for p in parts.values())
        # every partition caught up and answered: nothing left to look at
        assert not _session(broker, sid).dirty

        _resp, parts = fetch({}, sid, 1)
        assert parts == {}, f"idle partitions answered: {sorted(parts)[:10]}"

        produce(bs, topic_name, 4321, build_batch([(b"k", b"only-me")]))
        _resp, parts = fetch({}, sid, 2)
        assert sorted(parts) == [4321], sorted(parts)[:10]
        assert [(o, k, val) for o, _, k, val, _ in records_of(parts[4321])] == [(0, b"k", b"only-me")]
        # the session looks again only at the partition that moved (it answered records)
        assert _session(broker, sid).dirty == {(topic_name, 4321)}

        # the client moves on: caught up again, nothing dirty, nothing answered
        _resp, parts = fetch({4321: 1}, sid, 3)
        assert parts == {}
        assert not _session(broker, sid).dirty
        _resp, parts = fetch({}, sid, 4)
        assert parts == {}

        # two writes, to the first and the last partition: both, in session order
        produce(bs, topic_name, MANY - 1, build_batch([(b"k", b"last")]))
        produce(bs, topic_name, 0, build_batch([(b"k", b"first")]))
        resp, parts = fetch({}, sid, 5)
        assert sorted(parts) == [0, MANY - 1]
        assert [p.partition_index for t in resp.responses for p in t.partitions] == [0, MANY - 1]


def test_log_start_move_and_topic_deletion_on_idle_partitions_are_reported(broker, topic_name):
    bs = broker.bootstrap
    v13 = pick(bs, FETCH, 13)
    assert v13 >= 13, "Fetch v13 (topic ids) is advertised"
    for version in (12, 13):
        name = f"{topic_name}-v{version}"
        tid = create_topic_raw(bs, name, partitions=3)
        for p in range(3):
            produce(bs, name, p, build_batch([(b"a", b"0"), (b"b", b"1")]))
        with Raw(bs, timeout=30) as r:
            def fetch(offsets, epoch, forgotten=None):
                resp = r.request(FETCH, version, fetch_request(
                    version, name, tid, offsets, session_id=sid, session_epoch=epoch,
                    forgotten=forgotten))
                assert resp.error_code == NONE, resp
                return partitions_of(resp, version, name, tid)

            sid = 0
            resp = r.request(FETCH, version, fetch_request(version, name, tid, {0: 2, 1: 2, 2: 2},
                                                           session_id=0, session_epoch=0))
            sid = resp.session_id
            assert sid != 0
            assert fetch({}, 1) == {}

            # log start of p2 moves: only p2, with its new log start, no records
            assert delete_records(bs, name, 2, 1) == 1
            parts = fetch({}, 2)
            assert sorted(parts) == [2] and parts[2].log_start_offset == 1, parts
            assert not parts[2].records
            assert fetch({}, 3) == {}  # told once

            # the topic goes: every partition answers the error, at every fetch, until forgotten
            with Raw(bs) as admin:
                resp = admin.request(DELETE_TOPICS, pick(bs, DELETE_TOPICS, 4),
                                     DeleteTopicsRequest(topic_names=[name], timeout_ms=10_000))
            assert resp.responses[0].error_code == NONE, resp
            gone = UNKNOWN_TOPIC_ID if version >= 13 else UNKNOWN_TOPIC_OR_PARTITION
            deadline = time.monotonic() + 30
            epoch = 4
            while True:  # the deletion is applied by the broker's loop after its answer
                parts = fetch({}, epoch)
                epoch += 1
                if parts or time.monotonic() > deadline:
                    break
            assert sorted(parts) == [0, 1, 2], f"deletion not reported: {parts}"
            assert {p.error_code for p in parts.values()} == {gone}, parts
            parts = fetch({}, epoch)
            assert sorted(parts) == [0, 1, 2] and {p.error_code for p in parts.values()} == {gone}
            assert fetch({}, epoch + 1, forgotten=[0, 1, 2]) == {}


def test_long_poll_over_an_idle_session_is_woken_by_an_append_to_any_partition(broker, topic_name):
    bs = broker.bootstrap
    v = pick(bs, FETCH, 12)
    create_topic_raw(bs, topic_name, partitions=50)
    with Raw(bs, timeout=30) as fetcher, Raw(bs) as producer:
        resp = fetcher.request(FETCH, v, fetch_request(v, topic_name, None, {p: 0 for p in range(50)},
                                                       session_id=0, session_epoch=0))
        sid = resp.session_id
        assert sid != 0
        for epoch, target in ((1, 37), (3, 3)):
            corr = fetcher.next_corr()
            fetcher.send(codec.encode_request(FETCH, v, corr, "dirty", fetch_request(
                v, topic_name, None, {}, max_wait_ms=20_000, session_id=sid, session_epoch=epoch)))
            assert not answered_within(fetcher.sock, 0.3), "an idle incremental fetch answered at once"
            t_append = time.monotonic()
            ack = produce_raw(producer, bs, topic_name, target, build_batch([(b"k", b"wake")]))
            assert ack.error_code == NONE, ack
            data = fetcher.read_frame()
            assert time.monotonic() - t_append < 10, "the append did not wake the fetch"
            got_corr, resp = codec.decode_response(FETCH, v, data)
            assert got_corr == corr and resp.error_code == NONE
            parts = partitions_of(resp, v, topic_name, None)
            assert sorted(parts) == [target], sorted(parts)
            # caught up on it (named with its new offset) before the next long-poll
            resp = fetcher.request(FETCH, v, fetch_request(
                v, topic_name, None, {target: 1}, session_id=sid, session_epoch=epoch + 1))
            assert partitions_of(resp, v, topic_name, None) == {}
