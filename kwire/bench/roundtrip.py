"""``roundtrip_1KiB``: closed-loop produce -> long-poll fetch, the broker's CPU per round trip.

The ``latency`` workload (librdkafka at a fixed rate) is what a user sees,
but on a loaded machine its p99 mostly measures the machine: how many
requests the client batches, and when, moves with the load. This one keeps
the work per round trip fixed so the broker's share can be compared between
revisions even under load:

* kwire's own wire client (``kwire.client``), two connections to the broker
  leading every partition of the topic: each round trip sends a Fetch that
  long-polls every partition at its end (``max_wait_ms`` 500, ``min_bytes`` 1, sessionless,
  by topic id where the broker speaks Fetch v13+), then a Produce acks=all of
  one 1 KiB record to the next partition in turn, then reads the Produce
  answer and the Fetch answer (which must hold that record);
* exactly one Produce and one woken Fetch per round trip, whatever the load;
  so ``broker_cpu_us_per_rt`` (the broker process's CPU, all threads, over
  the timed round trips) is the broker's cost of the produce -> append ->
  high watermark -> delayed-fetch wake-up -> fetch answer path, and
  ``rt_p50_ms`` / ``rt_p99_ms`` its wall time as this client sees it;
* the first ``WARMUP`` round trips are not timed.

One leader only: on a cluster whose partitions have several leaders the
workload fails with a message (``BenchError``) rather than measure half the
path. Not here: the client
library's share (that is ``latency``), batching.
"""

from __future__ import annotations

import os
import time

from .workloads import BenchError, percentile

API_PRODUCE, API_FETCH = 0, 1
WARMUP = 200
WAIT_MS = 500


def roundtrip(bootstrap: str, topic: str, partitions: int, size: int, count: int, broker) -> dict:
    from kwire.client import KafkaClient
    from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
    from kwire.protocol.generated.produce_request import (PartitionProduceData, ProduceRequest,
                                                          TopicProduceData)
    from kwire.records.builder import build_batch

    with KafkaClient(bootstrap) as fetcher, KafkaClient(bootstrap) as producer:
        info = fetcher.metadata([topic]).topics[topic]
        if len({p.leader for p in info.partitions.values()}) != 1:
            raise BenchError(f"roundtrip {topic}: the partitions have more than one leader")
        fc, pc = fetcher._connection(None), producer._connection(None)
        fv, pv = fc.version_for(API_FETCH), pc.version_for(API_PRODUCE)
        by_id = fv >= 13
        batch = build_batch([(None, os.urandom(size))])
        offsets = [0] * partitions

        def fetch_request() -> FetchRequest:
            parts = [FetchPartition(partition=p, fetch_offset=offsets[p], partition_max_bytes=1 << 20)
                     for p in range(partitions)]
            t = FetchTopic(topic_id=info.topic_id, partitions=parts) if by_id else \
                FetchTopic(topic=topic, partitions=parts)
            return FetchRequest(max_wait_ms=WAIT_MS, min_bytes=1, max_bytes=1 << 26, session_id=0,
                                session_epoch=-1, topics=[t], forgotten_topics_data=[])

        def produce_request(p: int) -> ProduceRequest:
            return ProduceRequest(acks=-1, timeout_ms=30000, topic_data=[TopicProduceData(
                name=topic, topic_id=info.topic_id,  # Produce v13+ names topics by id
                partition_data=[PartitionProduceData(index=p, records=batch)])])

        def one(i: int) -> float:
            p = i % partitions
            f_req, p_req = fetch_request(), produce_request(p)
            t0 = time.perf_counter()
            fid = fc.send(API_FETCH, fv, f_req)
            pid = pc.send(API_PRODUCE, pv, p_req)
            code = pc.receive(API_PRODUCE, pv, pid).responses[0].partition_responses[0].error_code
            got = [pd for t in fc.receive(API_FETCH, fv, fid).responses for pd in t.partitions
                   if pd.records is not None and len(pd.records)]
            elapsed = time.perf_counter() - t0
            if code or len(got) != 1 or got[0].partition_index != p:
                raise BenchError(f"roundtrip {topic}: produce error {code}, fetched partitions "
                                 f"{[g.partition_index for g in got]} (wanted {p})")
            offsets[p] += 1
            return elapsed

        for i in range(WARMUP):
            one(i)
        cpu0 = broker.cpu_seconds()
        times = sorted(one(WARMUP + i) for i in range(count))
        cpu1 = broker.cpu_seconds()
    cpu = None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / count * 1e6
    return {"messages": count, "rt_p50_ms": percentile(times, 50) * 1e3,
            "rt_p99_ms": percentile(times, 99) * 1e3, "broker_cpu_us_per_rt": cpu}
