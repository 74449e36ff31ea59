"""Incremental fetch sessions (KIP-227) in a cluster: a leader change of an idle partition
a consumer's session holds is reported by the next incremental fetch, though the request
does not name the partition (``kwire.broker.fetch_sessions`` dirty sets, fed by the
broker's leadership changes).

Two kwire brokers on ZooKeeper; the partition's leadership moves from broker 1 to broker 2
by a reassignment to [2, 1] and a preferred-leader election (kafka-python's admin client);
the session lives on broker 1 (raw Fetch v12 through kwire's codec).
"""

from __future__ import annotations

import time
import uuid

import pytest
from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)

from test_faults import Raw
from test_wire_fetch import FETCH, NONE, fetch_request, partitions_of

kafka = pytest.importorskip("kafka")
from kafka.admin import KafkaAdminClient  # noqa: E402

pytestmark = pytest.mark.timeout(180)

NOT_LEADER_OR_FOLLOWER = 6


def test_leader_change_of_an_idle_partition_is_reported_by_an_incremental_fetch(make_cluster):
    c = make_cluster(2, overrides={"auto.leader.rebalance.enable": "false"})
    t = f"dirty-{uuid.uuid4().hex[:8]}"
    c.create_topic(t, partitions=2, replication_factor=2, assignment={0: [1, 2], 1: [1, 2]})
    c.wait_until(lambda md: all(sorted(md.topics[t].partitions[p].isr) == [1, 2] for p in (0, 1)),
                 60, "both replicas in sync", topics=[t])
    b1 = c.broker(1).bootstrap
    with Raw(b1, timeout=30) as r:
        epoch = [0]

        def fetch(offsets, sid):
            resp = r.request(FETCH, 12, fetch_request(12, t, None, offsets, session_id=sid,
                                                      session_epoch=epoch[0]))
            epoch[0] += 1
            assert resp.error_code == NONE, resp
            return resp, partitions_of(resp, 12, t, None)

        resp, parts = fetch({0: 0, 1: 0}, 0)
        sid = resp.session_id
        assert sid != 0 and sorted(parts) == [0, 1]
        assert all(p.error_code == NONE for p in parts.values()), parts
        assert fetch({}, sid)[1] == {}

        kadmin = KafkaAdminClient(bootstrap_servers=c.bootstrap.split(","), request_timeout_ms=60000)
        try:
            tp = kafka.TopicPartition(t, 0)
            assert kadmin.alter_partition_reassignments({tp: [2, 1]}, timeout_ms=30000)[tp] is None
            c.wait_until(lambda md: md.topics[t].partitions[0].replicas == [2, 1], 60,
                         "the new replica order", topics=[t])
            deadline = time.monotonic() + 60
            while True:  # the election waits for broker 2 in the ISR, which it is
                res = kadmin.elect_leaders(0, {t: [0]}, timeout_ms=30000, raise_errors=False)
                codes = [p.error_code for x in res.replica_election_results for p in x.partition_result]
                if codes == [0] or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert codes == [0], codes
        finally:
            kadmin.close()
        c.wait_until(lambda md: md.topics[t].partitions[0].leader == 2, 60, "broker 2 leading p0",
                     topics=[t], bootstrap=b1)

        # broker 1's metadata says so; its replica manager may take a moment more to step down:
        # the incremental fetch naming nothing then reports p0 (no longer led here, with its
        # new leader), and never the idle p1
        deadline = time.monotonic() + 30
        while True:
            _resp, parts = fetch({}, sid)
            if parts or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert sorted(parts) == [0], parts
        assert parts[0].error_code == NOT_LEADER_OR_FOLLOWER, parts[0]
        assert parts[0].current_leader.leader_id == 2, parts[0]
        # until the client forgets it, every fetch says so; p1 stays out
        _resp, parts = fetch({}, sid)
        assert sorted(parts) == [0] and parts[0].error_code == NOT_LEADER_OR_FOLLOWER
