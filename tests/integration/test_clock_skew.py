"""One broker's wall clock minutes off (libfaketime): ordering, retention and transaction timeouts.

A 3-broker cluster in which broker 2 runs with its wall clock 5 minutes ahead
or behind (``tests/clock_skew.py``: ``LD_PRELOAD`` of libfaketime,
``FAKETIME=+5m``/``-5m``, monotonic clock untouched); the others and the
clients keep the machine's clock.

* Ordering: idempotent acks=all writers (``tests/verifier.py``) with the
  skewed broker as a leader, then as a follower that becomes leader by a
  failover; nothing acknowledged is lost, duplicated or reordered. A
  ``LogAppendTime`` topic shows what the skew does to timestamps (the leader
  stamps its own clock; record timestamps go back or forward by the skew at a
  failover, offsets never do), as in Kafka.
* ZooKeeper reconnection (regression, issue 23): the skewed broker's ZooKeeper
  link dropped for 1 s; it must reconnect and keep its session. libfaketime
  made every ``time.sleep`` fail, which once killed kazoo's connection thread
  (the "+5m broker restarted under load never re-registered" stall).
* Retention by time: Kafka (``UnifiedLog.deleteRetentionMsBreachedSegments``)
  deletes a segment when its largest record timestamp is older than
  ``retention.ms`` by the broker's own clock, on every replica, and followers
  also move their log start offset up to the leader's. So a broker 5 minutes
  ahead deletes records 5 minutes early (as leader: for everyone); records
  younger than ``retention.ms`` minus the skew stay everywhere.
* Transaction timeouts: the coordinator compares the transaction's start time
  (its own clock, written to ``__transaction_state``) with its clock. A
  skewed coordinator alone times nothing out early; a transaction whose
  coordinator moves from a sane broker to one 5 minutes ahead looks 5 minutes
  old there and is aborted at the new coordinator's first timeout check
  (Kafka's ``TransactionStateManager.timedOutTransactions`` does the same:
  ``txnStartTimestamp + txnTimeoutMs < now``); the producer is fenced and no
  record of it is read_committed. A commit that reaches the new coordinator
  before that check commits it whole: the test asserts all or nothing.

Figures are printed (also without ``-s``) for docs/partitions-zookeeper-and-clocks.md.
"""

from __future__ import annotations

import time
import uuid

import pytest

ck = pytest.importorskip("confluent_kafka")
pytest.importorskip("kafka")

from clock_skew import measure_skew, need_faketime, skewed_env, timed_wait_s  # noqa: E402
from cluster_fixtures import make_cluster, tcp_proxy, zookeeper  # noqa: E402,F401  (fixtures)

import verifier as V  # noqa: E402
from kwire.client import KafkaClient  # noqa: E402

pytestmark = [pytest.mark.ensemble, pytest.mark.timeout(300)]

SKEWED = 2
SESSION_MS = 6000
SKEW_S = {"+5m": 300, "-5m": -300}


def _skewed_cluster(make_cluster, skew: str, overrides: dict | None = None):  # noqa: F811
    env = skewed_env(skew)
    wall, mono = measure_skew(env)
    assert abs(wall - SKEW_S[skew]) < 30 and abs(mono) < 30, (wall, mono)
    return make_cluster(3, overrides={"min.insync.replicas": "2", "unclean.leader.election.enable": "false",
                                      **(overrides or {})},
                        session_timeout_ms=SESSION_MS, env={SKEWED: env})


def _wait_isr_full(c, topic: str) -> None:
    c.wait_until(lambda md: all(len(p.isr) == 3 and p.leader >= 0 for p in md.topics[topic].partitions.values()),
                 120, f"full ISRs of {topic}", topics=[topic])


def _produce(bootstrap: str, topic: str, partition: int, values: list[bytes], timestamp: int = 0) -> list:
    """acks=all, idempotent; the delivered messages (offset, timestamp) in order, all delivered."""
    p = ck.Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "acks": "all",
                     "linger.ms": 0, "message.timeout.ms": 120000})
    out: list = []
    errors: list = []
    for v in values:
        p.produce(topic, v, partition=partition, timestamp=timestamp,
                  on_delivery=lambda err, msg: errors.append(err) if err else out.append(msg))
        p.flush(120)  # one batch per record: with a small segment size, one segment each
    assert not errors and len(out) == len(values), errors
    return out


def test_libfaketime_skews_the_wall_clock_and_not_the_monotonic_one():
    need_faketime()
    for skew, want in SKEW_S.items():
        wall, mono = measure_skew(skewed_env(skew))
        assert abs(wall - want) < 30, (skew, wall)
        assert abs(mono) < 30, (skew, mono)
        # timed waits (the GIL's, kazoo's, the event loop's) last what they should under the preload
        assert 0.15 < timed_wait_s(skewed_env(skew), 0.2) < 10, skew


@pytest.mark.parametrize("skew", ["+5m", "-5m"])
def test_skewed_leader_then_follower_keeps_order_and_loses_nothing(make_cluster, skew, request, capsys):  # noqa: F811
    c = _skewed_cluster(make_cluster, skew)
    topic, lat = "skew-ordered", "skew-log-append-time"
    # p0 led by the skewed broker; p1 led by broker 1 with the skewed broker next in line
    c.create_topic(topic, assignment={0: [2, 1, 3], 1: [1, 2, 3], 2: [3, 1, 2]})
    c.create_topic(lat, assignment={0: [2, 1, 3]}, configs={"message.timestamp.type": "LogAppendTime"})
    ledger = V.Ledger(3)
    # records/s per writer: 28/s over 3 partitions (~9 per partition through each failover, ~1,000 in
    # all) is plenty (55/s until 2026-11-29). A broker under libfaketime took 3-10 CPU-s to start
    # (about 1 without) until FAKETIME_FORCE_MONOTONIC_FIX=0 (tests/clock_skew.py): now about 1 too
    writers = [V.ConfluentWriter("ck", c.bootstrap, topic, ledger, 20),
               V.KafkaPythonWriter("kp", c.bootstrap, topic, ledger, 8)]
    for w in writers:
        w.start()
    stamps: list[tuple[str, int, int]] = []  # (phase, offset, LogAppendTime)
    phase_ms: dict[str, float] = {}  # our wall clock when each phase was written

    def append_time_phase(name: str) -> None:
        phase_ms[name] = time.time() * 1000
        for m in _produce(c.live_bootstrap, lat, 0, [f"{name}.{i}".encode() for i in range(5)]):
            kind, ts = m.timestamp()
            assert kind == ck.TIMESTAMP_LOG_APPEND_TIME
            stamps.append((name, m.offset(), ts))

    try:
        V.wait_for(lambda: all(ledger.acks_since(0, p) for p in range(3)), 90, "acks on every partition")
        append_time_phase("skewed-leader")
        # the skewed leader dies: broker 1 takes p0 (and the LogAppendTime topic)
        t0 = time.monotonic()
        c.broker(SKEWED).kill()
        c.wait_until(lambda md: all(p.leader not in (-1, SKEWED) for t in (topic, lat)
                                    for p in md.topics[t].partitions.values()),
                     SESSION_MS / 1000 + 60, "leaders away from the skewed broker", topics=[topic, lat])
        V.wait_for(lambda: all(ledger.acks_since(time.monotonic() - 1, p) for p in range(3)), 90, "acks again")
        append_time_phase("sane-leader")
        c.broker(SKEWED).start(timeout=120)  # a loaded 2-core machine starts a broker slowly
        _wait_isr_full(c, topic)
        _wait_isr_full(c, lat)
        # broker 1 dies: the skewed follower, first in line, leads p0, p1 and the LogAppendTime topic
        c.broker(1).kill()
        c.wait_until(lambda md: md.topics[topic].partitions[1].leader == SKEWED
                     and md.topics[lat].partitions[0].leader == SKEWED, SESSION_MS / 1000 + 60,
                     "the skewed broker leading after the failover", topics=[topic, lat])
        V.wait_for(lambda: all(ledger.acks_since(time.monotonic() - 1, p) for p in range(3)), 90, "acks again")
        append_time_phase("skewed-leader-again")
        unavailable = V.unavailability(ledger.snapshot(), 3, t0, time.monotonic())
    finally:
        for w in writers:
            w.stop(timeout=120)
    for w in writers:
        assert w.failure is None, w.failure
    r = V.read_back(c.bootstrap, topic, ledger.snapshot(), ledger.sent, 3, {b.node_id: b.data_dir for b in c.brokers})
    assert r.acked > 300
    assert (r.lost, r.duplicated, r.misplaced, r.reordered, r.unknown) == (0, 0, 0, 0, 0), r.examples
    failures = [e for e in ledger.errors if "without an offset" not in e]
    assert not failures, failures[:10]
    # the LogAppendTime topic: every record once, in produce order; each phase stamped by its leader's clock
    read = V.read_partitions(c.bootstrap, lat, {0: len(stamps)})[0]
    assert [o for o, _ in read] == [o for _, o, _ in stamps] == list(range(len(stamps)))
    skew_ms = SKEW_S[skew] * 1000
    for phase, _off, ts in stamps:
        expected = skew_ms if phase.startswith("skewed") else 0
        assert abs(ts - phase_ms[phase] - expected) < 120_000, (phase, ts - phase_ms[phase])
    jump = stamps[5][2] - stamps[4][2]
    V.report(request, capsys,
             f"clock skew {skew} (broker {SKEWED}): leader, then follower made leader by a failover: acked "
             f"{r.acked}, read {r.read}, lost {r.lost}, duplicated {r.duplicated}, reordered {r.reordered}, "
             f"longest gap {unavailable:.1f} s; LogAppendTime jumps {jump / 1000:+.0f} s at the failover to "
             f"the sane leader (offsets in order)")


def test_skewed_broker_reconnects_to_zookeeper(make_cluster, tcp_proxy, zookeeper, request, capsys):  # noqa: F811
    """Regression (issue 23, the +5m restart stall): libfaketime 0.9.10 with DONT_FAKE_MONOTONIC
    makes every ``time.sleep`` fail with EINVAL (CPython 3.11 sleeps with an absolute
    ``clock_nanosleep(CLOCK_MONOTONIC)``). kazoo sleeps between reconnection attempts, so the
    first dropped ZooKeeper connection killed the skewed broker's connection thread: its
    session expired and it never registered again. Schedule: broker 2 at +5m reaches
    ZooKeeper through a proxy; the proxy drops its connection for 1 s (well inside the 6 s
    session); the broker must reconnect, keep its session and registration."""
    proxy = tcp_proxy(zookeeper.port)
    env = skewed_env("+5m")
    c = make_cluster(3, session_timeout_ms=SESSION_MS, zk_hosts={SKEWED: proxy.address}, env={SKEWED: env})
    b = c.broker(SKEWED)
    before = len(b.lines)
    t0 = time.monotonic()
    proxy.cut()
    V.wait_for(lambda: time.monotonic() > t0 + 1, 10, "1 s without ZooKeeper")
    proxy.restore()

    def reconnected() -> bool:
        return any("ZooKeeper session connected" in line for line in b.lines[before:])

    try:
        V.wait_for(reconnected, SESSION_MS / 1000 + 20, f"broker {SKEWED} (+5m) reconnecting to ZooKeeper")
    except AssertionError as e:
        raise AssertionError(f"{e}; its log since the drop:\n" + "\n".join(b.lines[before:][-40:])) from None
    back = time.monotonic() - t0
    # past its session timeout: had the session been lost, the registration would be gone by now
    V.wait_for(lambda: time.monotonic() > t0 + SESSION_MS / 1000 + 2, 30, "the session timeout to pass")
    assert SKEWED in c.metadata([], bootstrap=c.broker(1).bootstrap).brokers
    assert not any("Traceback" in line or "Invalid argument" in line for line in b.lines[before:]), \
        "\n".join(b.lines[before:])
    V.report(request, capsys, f"broker {SKEWED} +5m: ZooKeeper link dropped for 1 s, session connected again "
                              f"{back:.1f} s after the drop, still registered past the session timeout")


def _log_start(c, node: int, topic: str, partitions) -> dict[int, int]:
    """Each partition's log start offset on broker ``node`` (ListOffsets EARLIEST, debugging replica id)."""
    from kwire.protocol.generated.list_offsets_request import (ListOffsetsPartition, ListOffsetsRequest,
                                                               ListOffsetsTopic)

    with KafkaClient(c.broker(node).bootstrap, timeout=5) as kc:
        resp = kc.request(2, ListOffsetsRequest(replica_id=-2, topics=[ListOffsetsTopic(
            name=topic, partitions=[ListOffsetsPartition(partition_index=p, timestamp=-2) for p in partitions])]))
    return {rp.partition_index: rp.offset for rp in resp.topics[0].partitions}


def test_time_retention_judges_by_each_brokers_clock(make_cluster, request, capsys):  # noqa: F811
    c = _skewed_cluster(make_cluster, "+5m", {"log.retention.check.interval.ms": "300"})
    topic = "skew-retention"
    retention_ms = 10 * 60 * 1000
    # p0 led by the skewed broker, p1 led by broker 1 with the skewed broker a follower
    c.create_topic(topic, assignment={0: [2, 1, 3], 1: [1, 2, 3]},
                   configs={"retention.ms": retention_ms, "internal.segment.bytes": 1024})
    pad = b"x" * 700  # one record per segment (1024 bytes)
    old_ts = int(time.time() * 1000) - 7 * 60 * 1000  # 7 min old: 12 min to the skewed broker
    first_fresh = {}
    t0 = time.monotonic()
    for p in (0, 1):
        _produce(c.bootstrap, topic, p, [b"old.%d." % i + pad for i in range(6)], timestamp=old_ts)
        first_fresh[p] = _produce(c.bootstrap, topic, p, [b"fresh.%d." % i + pad for i in range(6)])[0].offset()
    _wait_isr_full(c, topic)
    # the skewed broker deletes the old segments of both its partitions (leader and follower)
    V.wait_for(lambda: all(v > 0 for v in _log_start(c, SKEWED, topic, (0, 1)).values()), 60,
          "the skewed broker deleting the 7-minute-old segments")
    deleted_after = time.monotonic() - t0
    # p0: its followers move their log start to the skewed leader's (Kafka's follower fetch does too)
    V.wait_for(lambda: all(_log_start(c, n, topic, (0,))[0] > 0 for n in (1, 3)), 60,
          "the followers of p0 following the leader's log start offset")
    # ten retention checks later: the sane brokers have deleted nothing of p1, nobody anything fresh
    deadline = time.monotonic() + 10 * 0.3
    while time.monotonic() < deadline:
        starts = {n: _log_start(c, n, topic, (0, 1)) for n in (1, 2, 3)}
        assert starts[1][1] == 0 and starts[3][1] == 0, f"a sane broker deleted 7-minute-old records: {starts}"
        for n, s in starts.items():
            assert all(s[p] <= first_fresh[p] for p in (0, 1)), f"fresh records deleted on broker {n}: {starts}"
        time.sleep(0.3)
    # consumers (served by the leaders) see p0 from the first fresh record, p1 complete
    read = V.read_partitions(c.bootstrap, topic, {0: first_fresh[0] + 6, 1: first_fresh[1] + 6})
    assert [v.split(b".")[0] for _, v in read[0]] == [b"fresh"] * 6
    assert [v.split(b".")[0] for _, v in read[1]] == [b"old"] * 6 + [b"fresh"] * 6
    V.report(request, capsys,
             f"retention.ms 10 min, broker {SKEWED} +5m: records 7 min old deleted by the skewed broker "
             f"within {deleted_after:.1f} s of the first write (as leader of p0: everywhere, its followers "
             f"follow its log start; as follower of p1: its own copy only, the sane leader keeps them); "
             f"fresh records kept on every replica; log starts {starts}")


def _txn_partitions(c) -> dict[int, list[int]]:
    md = c.metadata(["__transaction_state"]).topics["__transaction_state"]
    return {p: [s.leader] + [r for r in s.replicas if r != s.leader] for p, s in md.partitions.items()}


def _tid_for(partition: int, n: int) -> str:
    from kwire.coordinator.base import partition_for

    while True:
        tid = f"skew-{uuid.uuid4().hex[:8]}"
        if partition_for(tid, n) == partition:
            return tid


def _txn_producer(c, tid: str, timeout_ms: int):
    p = ck.Producer({"bootstrap.servers": c.bootstrap, "transactional.id": tid, "acks": "all",
                     "transaction.timeout.ms": timeout_ms, "message.timeout.ms": timeout_ms})
    p.init_transactions(60)
    return p


def test_transaction_timeouts_with_a_skewed_coordinator(make_cluster, request, capsys):  # noqa: F811
    c = _skewed_cluster(make_cluster, "+5m", {
        "transaction.state.log.num.partitions": "3", "transaction.state.log.replication.factor": "3",
        "transaction.state.log.min.isr": "2",
        "transaction.abort.timed.out.transaction.cleanup.interval.ms": "500"})
    topic = "skew-txn"
    c.create_topic(topic, assignment={0: [1, 2, 3], 1: [3, 1, 2]})
    timeout_ms = 20000
    # the first transactional producer creates __transaction_state
    _txn_producer(c, "skew-bootstrap", timeout_ms).flush(10)
    c.wait_until(lambda md: "__transaction_state" in md.topics
                 and all(p.leader >= 0 for p in md.topics["__transaction_state"].partitions.values()),
                 60, "__transaction_state with leaders", topics=["__transaction_state"])
    order = _txn_partitions(c)

    # 1. the coordinator itself 5 minutes ahead: a 8 s transaction within its 20 s timeout commits
    p_skewed = next(p for p, o in order.items() if o[0] == SKEWED)
    prod = _txn_producer(c, _tid_for(p_skewed, 3), timeout_ms)
    prod.begin_transaction()
    for i in range(10):
        prod.produce(topic, b"live.%d" % i, partition=i % 2)
    prod.flush(30)
    t0 = time.monotonic()
    V.wait_for(lambda: time.monotonic() - t0 > 8, 30, "8 s inside the transaction (16 abort checks)")
    prod.commit_transaction(60)

    # 2. the coordinator moves from a sane broker to the skewed one mid-transaction (kill -9)
    p_moving = next((p for p, o in order.items() if o[0] != SKEWED and o[1] == SKEWED), None)
    if p_moving is None:
        pytest.fail(f"no __transaction_state partition with the skewed broker next in line: {order}")
    sane = order[p_moving][0]
    tid = _tid_for(p_moving, 3)
    prod2 = _txn_producer(c, tid, timeout_ms)
    prod2.begin_transaction()
    for i in range(10):
        prod2.produce(topic, b"moved.%d" % i, partition=i % 2)
    prod2.flush(30)
    t1 = time.monotonic()
    c.broker(sane).kill()
    c.wait_until(lambda md: md.topics["__transaction_state"].partitions[p_moving].leader == SKEWED,
                 SESSION_MS / 1000 + 60, "the skewed broker coordinating the transaction",
                 topics=["__transaction_state"])
    moved_after = time.monotonic() - t1
    committed = None
    try:
        prod2.commit_transaction(60)
        committed = True
    except ck.KafkaException as e:
        committed = e.args[0]
    elapsed = time.monotonic() - t1
    c.broker(sane).start()
    # what read_committed shows: the live transaction's 10 records; of the moved one, whatever committed
    reader = ck.Consumer({"bootstrap.servers": c.bootstrap, "group.id": f"r-{uuid.uuid4().hex[:6]}",
                          "isolation.level": "read_committed", "auto.offset.reset": "earliest",
                          "enable.auto.commit": False})
    values: list[bytes] = []
    try:
        reader.assign([ck.TopicPartition(topic, p, ck.OFFSET_BEGINNING) for p in (0, 1)])
        hw = {p: reader.get_watermark_offsets(ck.TopicPartition(topic, p), timeout=30)[1] for p in (0, 1)}
        seen = {0: -1, 1: -1}
        deadline = time.monotonic() + 60
        while any(seen[p] + 1 < hw[p] for p in (0, 1)) and time.monotonic() < deadline:
            for m in reader.consume(500, 0.5):
                if m.error() is None:
                    values.append(m.value())
                    seen[m.partition()] = m.offset()
            # markers are not delivered: stop once the position passed the high watermark
            pos = reader.position([ck.TopicPartition(topic, p) for p in (0, 1)])
            for tp in pos:
                if tp.offset >= hw[tp.partition]:
                    seen[tp.partition] = hw[tp.partition] - 1
    finally:
        reader.close()
    live = sorted(v for v in values if v.startswith(b"live."))
    moved = sorted(v for v in values if v.startswith(b"moved."))
    assert live == sorted(b"live.%d" % i for i in range(10)), values
    outcome = "committed" if committed is True else f"aborted ({committed})"
    V.report(request, capsys,
             f"transactions, broker {SKEWED} +5m, transaction.timeout.ms {timeout_ms}: coordinator skewed, "
             f"8 s transaction committed; coordinator moved sane -> skewed {moved_after:.1f} s after kill -9 "
             f"of broker {sane}, commit {elapsed:.1f} s into the transaction: {outcome}, {len(moved)} of its "
             f"10 records read_committed")
    # all or nothing: never part of a transaction
    assert len(moved) in (0, 10), moved
    if committed is True:
        assert len(moved) == 10
    else:
        assert moved == [], "an aborted transaction's records were read_committed"
