"""The transactional workload and the checker are not blind: a reader that is not read_committed is caught.

One in-process broker, no nemesis (no root needed). The transactional
workload of the partition tests (``nemesis_txn_workload``) runs with its
observer at ``read_uncommitted``: the checker must report aborted reads
(values of aborted transactions) and intermediate reads (values of a
transaction seen before it wrote its second half); with the observer at
``read_committed`` the same workload shows neither, and the consume-
transform-produce transactions give the checker write-read edges to look for
cycles in.
"""

from __future__ import annotations

import time
import uuid

import pytest
from nemesis_txn_workload import TxnWorkload

from kwire.nemesis.checker import check

pytest.importorskip("confluent_kafka")

pytestmark = pytest.mark.timeout(180)

SINGLE = {"transaction.state.log.replication.factor": "1", "transaction.state.log.min.isr": "1",
          "offsets.topic.replication.factor": "1"}


def _run(broker, isolation: str):
    from kwire.client import KafkaClient, NewTopic

    topic = f"txn-{uuid.uuid4().hex[:8]}"
    with KafkaClient(broker.bootstrap) as c:
        c.create_topics([NewTopic(topic, 2, 1)])
    t = TxnWorkload(broker.bootstrap, topic, seed=7, isolation=isolation).start()
    deadline = time.monotonic() + 90
    while t.aborts < 3 or t.commits < 10 or t.ctp_commits < 3:
        assert time.monotonic() < deadline, f"the workload never got going: {t.figures()}"
        time.sleep(0.1)
    t.stop()
    t.read_group_offsets()
    assert not t.errors, t.errors
    return t, check(t.history)


def test_read_uncommitted_observer_is_caught(make_broker):
    t, r = _run(make_broker(overrides=SINGLE), "read_uncommitted")
    counts = r.counts()
    assert counts["aborted_read"] > 0, r.summary()
    assert counts["intermediate_read"] > 0, r.summary()
    assert {a for a, n in counts.items() if n} <= {"aborted_read", "intermediate_read"}, r.summary()


def test_read_committed_workload_is_clean(make_broker):
    t, r = _run(make_broker(overrides=SINGLE), "read_committed")
    assert r.valid, r.summary()
    assert r.wr_edges > 0 and t.ctp_commits >= 3
    assert any(type(op).__name__ == "Offsets" for op in t.history)
