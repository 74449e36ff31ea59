"""The Prometheus endpoint (``metrics.port``) scraped during real traffic.

* off by default: no endpoint, no request counting;
* a kafka-python producer and a consumer group move the counters as they must:
  messages/bytes in per topic equal what was produced, bytes out follow the
  consumer, per-API request counts and latency histograms grow between scrapes
  (the histogram's count equals the request counter), log size / end offset
  per partition match the log, the group's committed offset and lag match what
  was committed and produced, connection count sees the clients;
* every series the Grafana dashboard in docker/ queries is exported;
* bad HTTP (unknown path, unknown method, a garbage request line) answers 4xx
  and the Kafka listener keeps serving;
* a scrape with thousands of topics is bounded and does not stall the event
  loop (the worst gap between ticks of a loop timer during scrapes);
* purgatory sizes by the kind each waiter registered with: a long-poll fetch
  is Fetch while it waits; in a cluster an acks=all produce waiting on a
  paused follower is Produce on the leader; a partition whose only replica's
  broker stopped is counted offline;
* in a 3-broker cluster a group's coordinator exports the lag of every
  partition, also those led by other brokers (asked of the leader), and a
  paused leader costs a scrape a bounded wait.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import re
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from prometheus_client.parser import text_string_to_metric_families

from clients import wait_until
from cluster_fixtures import free_port, make_cluster, zookeeper  # noqa: F401 (fixtures)

pytestmark = pytest.mark.timeout(180)


def scrape(addr) -> dict[tuple, float]:
    """{(sample name, frozenset(labels)): value} of one scrape."""
    body = urllib.request.urlopen(f"http://{addr[0]}:{addr[1]}/metrics", timeout=30).read().decode()
    out = {}
    for fam in text_string_to_metric_families(body):
        for s in fam.samples:
            out[(s.name, frozenset(s.labels.items()))] = s.value
    return out


def val(m, name, **labels) -> float:
    return m.get((name, frozenset((k, str(v)) for k, v in labels.items())), 0.0)


def test_metrics_off_by_default(make_broker):
    b = make_broker()
    assert b.server.metrics is None and b.server.metrics_server is None


def test_counters_move_with_traffic(make_broker, topic_name):
    b = make_broker(overrides={"metrics.port": "0"})
    addr = b.server.metrics_server.addresses[0]
    before = scrape(addr)
    assert val(before, "kafka_server_brokertopicmetrics_messagesin_total", topic=topic_name) == 0

    producer = KafkaProducer(bootstrap_servers=b.bootstrap, linger_ms=5)
    for i in range(200):
        producer.send(topic_name, key=b"k%d" % i, value=b"v" * 100)
    producer.flush()
    m1 = scrape(addr)
    assert val(m1, "kafka_server_brokertopicmetrics_messagesin_total", topic=topic_name) == 200
    log_size = val(m1, "kafka_log_log_size", topic=topic_name, partition=0)
    assert val(m1, "kafka_server_brokertopicmetrics_bytesin_total", topic=topic_name) == log_size > 200 * 100
    assert val(m1, "kafka_log_log_logendoffset", topic=topic_name, partition=0) == 200
    assert val(m1, "kafka_server_brokertopicmetrics_messagesin_all_total") >= 200
    produces = val(m1, "kafka_network_requestmetrics_requests_total", request="Produce")
    assert produces >= 1
    assert val(m1, "kafka_network_requestmetrics_totaltime_seconds_count", request="Produce") == produces
    assert val(m1, "kafka_network_requestmetrics_totaltime_seconds_bucket", request="Produce", le="+Inf") == produces
    assert val(m1, "kafka_network_requestmetrics_totaltime_seconds_sum", request="Produce") > 0
    assert val(m1, "kafka_server_socketservermetrics_connection_count") >= 1
    assert val(m1, "kafka_server_replicamanager_leadercount") >= 1
    assert val(m1, "kafka_server_replicamanager_underreplicatedpartitions") == 0

    consumer = KafkaConsumer(bootstrap_servers=b.bootstrap, group_id="metrics-group",
                             auto_offset_reset="earliest", enable_auto_commit=False)
    consumer.assign([TopicPartition(topic_name, 0)])
    got = 0
    deadline = time.monotonic() + 60
    while got < 150 and time.monotonic() < deadline:
        got += sum(len(v) for v in consumer.poll(timeout_ms=500, max_records=150 - got).values())
    consumer.commit({TopicPartition(topic_name, 0): __import__("kafka").OffsetAndMetadata(150, None, -1)})
    m2 = scrape(addr)
    assert val(m2, "kafka_server_brokertopicmetrics_bytesout_total", topic=topic_name) >= log_size * 0.5
    assert val(m2, "kafka_network_requestmetrics_requests_total", request="Fetch") > \
        val(m1, "kafka_network_requestmetrics_requests_total", request="Fetch")
    assert val(m2, "kafka_coordinator_group_groupmetadatamanager_numgroups") >= 1
    assert val(m2, "kafka_consumergroup_current_offset", consumergroup="metrics-group", topic=topic_name,
               partition=0) == 150
    assert val(m2, "kafka_consumergroup_lag", consumergroup="metrics-group", topic=topic_name, partition=0) == 50

    # more traffic: in-counters and lag grow, request counters only grow
    for i in range(30):
        producer.send(topic_name, value=b"more")
    producer.flush()
    m3 = scrape(addr)
    assert val(m3, "kafka_server_brokertopicmetrics_messagesin_total", topic=topic_name) == 230
    assert val(m3, "kafka_consumergroup_lag", consumergroup="metrics-group", topic=topic_name, partition=0) == 80
    for key, v in m2.items():
        if key[0].endswith("_total") and key[0].startswith("kafka_network"):
            assert m3.get(key, 0) >= v, key
    consumer.close()
    producer.close()
    # every series the Grafana dashboard (docker/grafana-dashboard.json) queries is exported
    dashboard = json.loads((Path(__file__).parents[2] / "docker" / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    used = {n for e in exprs for n in re.findall(r"\b((?:kafka|process)_[a-z_]+)\b", e)}
    exported = {k[0] for k in m3}
    assert used and used <= exported, sorted(used - exported)


def purgatory(m, kind: str) -> float:
    return val(m, "kafka_server_delayedoperationpurgatory_purgatorysize", delayedOperation=kind)


def test_purgatory_size_counts_a_waiting_long_poll_fetch(make_broker, topic_name):
    """A fetch parked at the log end is a Fetch delayed operation while it waits, and only then."""
    import threading

    from kwire.client import KafkaClient, NewTopic
    from kwire.records.builder import build_batch

    b = make_broker(overrides={"metrics.port": "0"})
    addr = b.server.metrics_server.addresses[0]
    with KafkaClient(b.bootstrap) as admin:
        admin.create_topics([NewTopic(topic_name, 1)])
    m = scrape(addr)
    assert (purgatory(m, "Fetch"), purgatory(m, "Produce"), purgatory(m, "Rebalance")) == (0, 0, 0)
    got: list = []

    def long_poll() -> None:
        with KafkaClient(b.bootstrap) as c:
            got.append(c.fetch(topic_name, 0, 0, max_wait_ms=60000))

    t = threading.Thread(target=long_poll, daemon=True)
    t.start()
    try:
        wait_until(lambda: purgatory(scrape(addr), "Fetch") == 1, 30, what="the long poll in the Fetch purgatory")
        m = scrape(addr)
        assert (purgatory(m, "Produce"), purgatory(m, "Rebalance")) == (0, 0)  # single node: acks=all never waits
    finally:
        with KafkaClient(b.bootstrap) as c:  # the append wakes it
            c.produce(topic_name, 0, build_batch([(b"k", b"wake")]), acks=-1)
        t.join(30)
    assert not t.is_alive() and got and got[0], "the long poll did not return the record"
    wait_until(lambda: purgatory(scrape(addr), "Fetch") == 0, 30, what="the Fetch purgatory to empty")


def _raw(addr, data: bytes) -> bytes:
    with socket.create_connection(addr, timeout=10) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := s.recv(4096):
            out += chunk
    return out


def test_bad_http_gets_4xx_and_kafka_keeps_serving(make_broker, topic_name):
    b = make_broker(overrides={"metrics.listeners": "HTTP://127.0.0.1:0"})
    addr = b.server.metrics_server.addresses[0]
    for path in ("/nope", "/metrics/x", "/../etc/passwd"):
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(f"http://{addr[0]}:{addr[1]}{path}", timeout=10)
        assert e.value.code == 404
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(urllib.request.Request(f"http://{addr[0]}:{addr[1]}/metrics", data=b"x"), timeout=10)
    assert e.value.code == 405
    assert _raw(addr, b"\x16\x03\x01garbage\r\n\r\n").startswith(b"HTTP/1.1 400 ")
    assert _raw(addr, b"GET /metrics HTTP/9.9\r\n\r\n").split(b" ")[1].startswith(b"4")
    assert _raw(addr, b"GET " + b"a" * 70000 + b" HTTP/1.1\r\n\r\n").split(b" ")[1].startswith(b"4")
    assert urllib.request.urlopen(f"http://{addr[0]}:{addr[1]}/health", timeout=10).read() == b"ok\n"
    producer = KafkaProducer(bootstrap_servers=b.bootstrap)
    producer.send(topic_name, b"still fine").get(timeout=30)
    producer.close()
    assert val(scrape(addr), "kafka_server_brokertopicmetrics_messagesin_total", topic=topic_name) == 1


SCALE_TOPICS = int(os.environ.get("KWIRE_METRICS_SCALE_TOPICS", "2000"))


def test_scrape_of_many_topics_does_not_stall_the_loop(make_broker):
    """The worst gap between ticks of a 1 ms loop timer while /metrics is scraped, against the
    worst gap in a window as long without a scrape (this machine's own noise)."""
    b = make_broker(overrides={"metrics.port": "0"})
    server = b.server
    loop = b._tb.loop

    async def create():
        for i in range(SCALE_TOPICS):
            server.broker.create_topic(f"scale-{i:05d}", 1)
            if i % 200 == 0:
                await asyncio.sleep(0)
    asyncio.run_coroutine_threadsafe(create(), loop).result(600)
    gc.collect()
    gc.freeze()  # as `kwire serve` does once started (kwire.server.app): long-lived objects
    gaps: list[float] = []

    async def ticker(stop: asyncio.Event):
        last = time.perf_counter()
        while not stop.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    stop = asyncio.Event()
    fut = asyncio.run_coroutine_threadsafe(ticker(stop), loop)
    try:
        wait_until(lambda: len(gaps) > 20, what="the ticker")
        addr = server.metrics_server.addresses[0]
        scrape(addr)  # the first scrape imports and warms up
        worst, took, baseline = [], [], []
        for _ in range(3):
            i0, t0 = len(gaps), time.perf_counter()
            m = scrape(addr)
            took.append(time.perf_counter() - t0)
            worst.append(max(gaps[i0:] or [0]))
            i0 = len(gaps)
            time.sleep(took[-1])
            baseline.append(max(gaps[i0:] or [0]))
    finally:
        loop.call_soon_threadsafe(stop.set)
        fut.result(30)
        gc.unfreeze()
    print(f"\nscrape of {SCALE_TOPICS} topics: {[round(t * 1000) for t in took]} ms, collect "
          f"{val(m, 'kwire_scrape_collect_seconds') * 1000:.0f} ms; worst loop gap during scrapes "
          f"{[round(w * 1000, 1) for w in worst]} ms, without {[round(w * 1000, 1) for w in baseline]} ms")
    assert val(m, "kafka_log_log_logendoffset", topic=f"scale-{SCALE_TOPICS - 1:05d}", partition=0) == 0
    assert sum(1 for k in m if k[0] == "kafka_log_log_size") >= SCALE_TOPICS
    assert min(took) < 30
    # the median of three, so that one burst of another process's CPU use does not decide it
    assert sorted(worst)[1] < max(0.1, 3 * max(baseline)), "the event loop stalled during scrapes"


# -- cluster mode: under-replicated partitions, ISR shrinks/expands; the console sees replicas -----

def test_cluster_replication_metrics_and_console(make_cluster):
    ports = {i: (free_port(), free_port()) for i in (1, 2, 3)}
    c = make_cluster(3, overrides={"replica.lag.time.max.ms": "1500"}, session_timeout_ms=10000,
                     per_broker={i: {"metrics.port": m, "console.port": cp} for i, (m, cp) in ports.items()})
    topic = "metrics-replicated"
    c.create_topic(topic, partitions=1, replication_factor=3)
    producer = KafkaProducer(bootstrap_servers=c.bootstrap.split(","), acks="all")
    producer.send(topic, b"one", partition=0).get(timeout=60)
    leader = c.leader_of(topic, 0)
    laddr = ("127.0.0.1", ports[leader][0])
    m = scrape(laddr)
    assert val(m, "kafka_server_replicamanager_underreplicatedpartitions") == 0
    assert val(m, "kafka_server_replicamanager_leadercount") >= 1
    assert val(m, "kafka_server_kafkaserver_brokers") == 3
    assert val(m, "kafka_server_brokertopicmetrics_messagesin_total", topic=topic) == 1
    assert sum(val(scrape(("127.0.0.1", ports[i][0])), "kafka_controller_kafkacontroller_activecontrollercount")
               for i in (1, 2, 3)) == 1
    follower = next(r for r in c.describe(topic).partitions[0].replicas if r != leader)
    # followers fetch: the leader counts replication bytes out
    wait_until(lambda: val(scrape(laddr), "kafka_server_brokertopicmetrics_replicationbytesout_total",
                           topic=topic) > 0, 30, what="replication bytes out")
    # the console (on a follower) shows the partition's replicas and ISR through the Kafka API
    with urllib.request.urlopen(f"http://127.0.0.1:{ports[follower][1]}/api/topics/{topic}", timeout=30) as r:
        p0 = __import__("json").loads(r.read())["partitions"][0]
    assert (p0["leader"], sorted(p0["replicas"]), sorted(p0["isr"]), p0["end_offset"]) == (leader, [1, 2, 3], [1, 2, 3], 1)

    c.broker(follower).pause()
    try:
        producer.send(topic, b"two", partition=0)
        wait_until(lambda: val(scrape(laddr), "kafka_server_replicamanager_underreplicatedpartitions") == 1,
                   60, what="the leader to report an under-replicated partition")
        assert val(scrape(laddr), "kafka_server_replicamanager_isrshrinks_total") >= 1
    finally:
        c.broker(follower).resume()
    wait_until(lambda: val(scrape(laddr), "kafka_server_replicamanager_underreplicatedpartitions") == 0,
               60, what="the ISR to expand again")
    assert val(scrape(laddr), "kafka_server_replicamanager_isrexpands_total") >= 1
    producer.close()


def test_cluster_coordinator_exports_lag_of_partitions_led_elsewhere(make_cluster):
    """The group's coordinator exports kafka_consumergroup_lag for every partition, also those
    whose leader is another broker (their high watermark asked of the leader), with the right values."""
    from kafka import OffsetAndMetadata

    from kwire.client import KafkaClient

    ports = {i: free_port() for i in (1, 2, 3)}
    # a long ZooKeeper session: a broker paused below keeps its leadership meanwhile
    c = make_cluster(3, session_timeout_ms=30000, per_broker={i: {"metrics.port": m} for i, m in ports.items()})
    topic, group = "lag-everywhere", "lag-group"
    info = c.create_topic(topic, partitions=3, replication_factor=3,
                          assignment={0: [1, 2, 3], 1: [2, 3, 1], 2: [3, 1, 2]})
    assert sorted(p.leader for p in info.partitions.values()) == [1, 2, 3]
    producer = KafkaProducer(bootstrap_servers=c.bootstrap.split(","), acks="all")
    produced = {0: 4, 1: 6, 2: 8}
    for p, n in produced.items():
        for i in range(n):
            producer.send(topic, f"{p}-{i}".encode(), partition=p)
    producer.flush(timeout=60)
    consumer = KafkaConsumer(topic, bootstrap_servers=c.bootstrap.split(","), group_id=group,
                             enable_auto_commit=False, auto_offset_reset="earliest")
    try:
        wait_until(lambda: consumer.poll(timeout_ms=200) is not None and len(consumer.assignment()) == 3,
                   60, what="the consumer to be assigned all three partitions")
        committed = {0: 1, 1: 2, 2: 3}
        consumer.commit({TopicPartition(topic, p): OffsetAndMetadata(o, None, -1) for p, o in committed.items()})
        with KafkaClient(c.bootstrap) as kc:
            coordinator = kc.find_coordinator(group)
        caddr = ("127.0.0.1", ports[coordinator])
        led_elsewhere = [p for p, pi in info.partitions.items() if pi.leader != coordinator]
        assert len(led_elsewhere) >= 2

        def lags(m) -> dict[int, float | None]:
            return {p: m.get(("kafka_consumergroup_lag", frozenset({("consumergroup", group), ("topic", topic),
                                                                      ("partition", str(p))})))
                    for p in produced}

        want = {p: produced[p] - committed[p] for p in produced}  # 3, 4, 5
        wait_until(lambda: lags(scrape(caddr)) == want, 60,
                   what=f"the coordinator (broker {coordinator}) to export lag {want}")
        m = scrape(caddr)
        assert val(m, "kafka_consumergroup_lag_sum", consumergroup=group) == sum(want.values())
        assert all(val(m, "kafka_consumergroup_current_offset", consumergroup=group, topic=topic, partition=p)
                   == committed[p] for p in produced)
        for other in (i for i in ports if i != coordinator):  # only the coordinator knows the group
            assert all(v is None for v in lags(scrape(("127.0.0.1", ports[other]))).values()), other
        # The lag follows the remote leader's high watermark (after the short cache).
        p = led_elsewhere[0]
        for i in range(5):
            producer.send(topic, b"more", partition=p)
        producer.flush(timeout=60)
        want[p] += 5
        wait_until(lambda: lags(scrape(caddr)) == want, 60, what=f"partition {p}'s lag to grow by 5")
        # A leader that does not answer (paused) costs a scrape one bounded wait (then it is
        # left alone for a while): its partition has no lag series once the cached value
        # expires, and the other partitions' lag is still exported.
        leader = info.partitions[p].leader
        c.broker(leader).pause()
        try:
            def without_paused_leader() -> bool:
                t0 = time.monotonic()
                got = lags(scrape(caddr))
                took.append(time.monotonic() - t0)
                assert {q: v for q, v in got.items() if q != p} == {q: v for q, v in want.items() if q != p}
                return got[p] is None

            took: list[float] = []
            wait_until(without_paused_leader, 30, what=f"partition {p}'s lag to go with its leader paused")
            assert max(took) < 20, f"a scrape waited {max(took):.1f} s on a paused leader"
        finally:
            c.broker(leader).resume()
        wait_until(lambda: lags(scrape(caddr)) == want, 60, what="the lag to come back with the leader")
    finally:
        consumer.close()
        producer.close()


def test_cluster_produce_purgatory_and_offline_partitions(make_cluster):
    """acks=all waiting on a paused follower is a Produce delayed operation on the leader; a
    partition whose only replica's broker stopped counts as offline on the others."""
    ports = {i: free_port() for i in (1, 2, 3)}
    # A follower lagging 60 s before the ISR shrinks: the produce waits on it that long.
    c = make_cluster(3, overrides={"replica.lag.time.max.ms": "60000"}, session_timeout_ms=30000,
                     per_broker={i: {"metrics.port": m} for i, m in ports.items()})
    topic = "purgatory-produce"
    c.create_topic(topic, partitions=1, replication_factor=3, assignment={0: [1, 2, 3]})
    c.create_topic("offline-soon", partitions=1, replication_factor=1, assignment={0: [3]})
    laddr = ("127.0.0.1", ports[c.leader_of(topic, 0)])
    assert c.leader_of(topic, 0) == 1
    producer = KafkaProducer(bootstrap_servers=c.bootstrap.split(","), acks="all", request_timeout_ms=120000)
    try:
        producer.send(topic, b"first", partition=0).get(timeout=60)
        assert purgatory(scrape(laddr), "Produce") == 0
        c.broker(2).pause()
        try:
            pending = producer.send(topic, b"waits for broker 2", partition=0)
            wait_until(lambda: purgatory(scrape(laddr), "Produce") >= 1, 45,
                       what="the acks=all produce in the leader's Produce purgatory")
            assert not pending.is_done
        finally:
            c.broker(2).resume()
        assert pending.get(timeout=60).offset == 1
        wait_until(lambda: purgatory(scrape(laddr), "Produce") == 0, 30, what="the Produce purgatory to empty")
    finally:
        producer.close()

    assert val(scrape(laddr), "kafka_controller_kafkacontroller_offlinepartitionscount") == 0
    c.broker(3).stop()
    wait_until(lambda: val(scrape(laddr), "kafka_controller_kafkacontroller_offlinepartitionscount") >= 1, 60,
               what="broker 1 to count offline-soon-0 (its only replica stopped) as offline")
    wait_until(lambda: val(scrape(("127.0.0.1", ports[2])), "kafka_controller_kafkacontroller_offlinepartitionscount")
               == 1, 60, what="broker 2 to count the one offline partition")


def test_cleanable_ratio_of_compacted_partitions_is_exported_and_described(make_broker):
    """``kwire_log_cleanable_ratio`` per compacted partition (the cleaner is off here, so the
    ratio stays where the updates put it), and ``kwire topics describe`` shows it: from the
    endpoint given with ``--metrics``, or without it from the leader's endpoint, found through
    its ``metrics.listeners`` broker config."""
    import subprocess
    import sys

    from kwire.client import KafkaClient, NewTopic

    b = make_broker(overrides={"metrics.listeners": f"HTTP://127.0.0.1:{free_port()}",
                               "log.cleaner.enable": "false"})
    host, port = b.server.metrics_server.addresses[0][:2]
    with KafkaClient(b.bootstrap) as c:
        c.create_topics([NewTopic("compacted", 1, 1, {"cleanup.policy": "compact", "segment.bytes": "1048576"}),
                         NewTopic("plain", 1, 1)])
    p = KafkaProducer(bootstrap_servers=b.bootstrap, linger_ms=0)
    for i in range(1500):  # 10 keys updated 150 times: 1.5 MiB, one closed segment, all dirty
        p.send("compacted", key=b"k%d" % (i % 10), value=b"v" * 1000)
    p.send("plain", key=b"k", value=b"v")
    p.flush(30)
    p.close()
    text = urllib.request.urlopen(f"http://{host}:{port}/metrics", timeout=10).read().decode()
    samples = {s.labels["topic"]: s.value for f in text_string_to_metric_families(text)
               if f.name == "kwire_log_cleanable_ratio" for s in f.samples}
    assert set(samples) == {"compacted"}  # only compacted logs have a ratio
    assert samples["compacted"] == 1.0  # nothing cleaned yet: every closed segment is dirty
    for flags in (["--metrics", f"{host}:{port}"], []):
        out = subprocess.run([sys.executable, "-m", "kwire", "topics", "describe", "-b", b.bootstrap,
                              *flags, "compacted", "plain"],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        lines = [ln for ln in out.stdout.splitlines() if "Partition: 0" in ln]
        assert "CleanableRatio: 1.00" in next(ln for ln in lines if "Topic: compacted" in ln), flags
        assert "CleanableRatio" not in next(ln for ln in lines if "Topic: plain" in ln)
        assert "CleanableRatio" not in out.stderr, (flags, out.stderr)  # no note: all shown


@pytest.mark.parametrize("forced_python", [False, True], ids=["default", "KWIRE_NO_EXTENSIONS"])
def test_serve_logs_and_exports_its_record_walker(spawn_broker, monkeypatch, forced_python):
    """`kwire serve` says at start-up which record walker validates produced records and
    exports it as kwire_record_walker_info{implementation}: the one this checkout imports
    ('c' when kwire.records._scan is built), 'python' when KWIRE_NO_EXTENSIONS=1."""
    from kwire.records.scan import IMPLEMENTATION

    if forced_python:
        monkeypatch.setenv("KWIRE_NO_EXTENSIONS", "1")
    else:
        monkeypatch.delenv("KWIRE_NO_EXTENSIONS", raising=False)
    expected = "python" if forced_python else IMPLEMENTATION
    port = free_port()
    b = spawn_broker(overrides={"metrics.listeners": f"HTTP://127.0.0.1:{port}"})
    (line,) = [ln for ln in b.log_lines if "record walker:" in ln]
    assert f"record walker: {expected} " in line
    if forced_python:
        assert "KWIRE_NO_EXTENSIONS=1" in line
    m = scrape(("127.0.0.1", port))
    assert val(m, "kwire_record_walker_info", implementation=expected) == 1
    other = "c" if expected == "python" else "python"
    assert ("kwire_record_walker_info", frozenset({("implementation", other)})) not in m
