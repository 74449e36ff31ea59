"""acks=all produces waiting for their followers do not hold the request memory pool.

A leader answers an acks=all produce only once its followers have fetched
the records. If the waiting produces kept their share of
``queued.max.request.bytes`` until answered, a burst of them would exhaust
the pool, the broker would stop reading every connection (the followers'
fetches included), and nothing could complete them: every produce would
time out and the ISR would shrink. Kafka releases a request's buffer once its
handler returns; kwire does the same. Here the pool is 1 MiB and the burst
carries 16 MiB of pipelined acks=all produces.
"""

from __future__ import annotations

from cluster_fixtures import make_cluster, zookeeper  # noqa: F401 (fixtures)
from confluent_kafka import Producer


def test_a_burst_of_acks_all_produces_larger_than_the_pool_completes(make_cluster):
    c = make_cluster(3, overrides={"queued.max.request.bytes": str(1 << 20)})
    c.create_topic("burst", partitions=1, replication_factor=3)
    isr_before = sorted(c.describe("burst").partitions[0].isr)
    errors: list = []
    p = Producer({"bootstrap.servers": c.bootstrap, "acks": "all", "linger.ms": 20,
                  "batch.size": 256 * 1024, "max.in.flight.requests.per.connection": 5,
                  "request.timeout.ms": 15000, "message.timeout.ms": 60000, "retries": 0})
    value = b"x" * 1024
    for _ in range(16 * 1024):
        p.produce("burst", value=value, partition=0,
                  on_delivery=lambda err, msg: err is not None and errors.append(err))
        p.poll(0)
    assert p.flush(90) == 0
    assert errors == []
    info = c.describe("burst").partitions[0]
    assert sorted(info.isr) == isr_before  # no follower was starved out of the ISR
