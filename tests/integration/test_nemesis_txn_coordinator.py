"""A transaction coordinator whose ``__transaction_state`` partition drops below its min ISR mid-transaction.

The stuck state behind the slow split-one runs (issue 23): the coordinator
replayed a PrepareCommit into memory as soon as it was appended; when its
replication then failed (the ISR shrank to the leader alone), the client was
told to retry, but memory kept PrepareCommit with nobody sending its markers,
so EndTxn and InitProducerId answered CONCURRENT_TRANSACTIONS until the
partition moved to another broker -- minutes, or never while the broker kept
its ZooKeeper session. Kafka resets the pending state when the append fails,
and retries the completion (Complete*) append; so does kwire now.

One 3-broker nemesis cluster (links cut with iptables), ``__transaction_state``
at RF 2 with ``transaction.state.log.min.isr`` 2; the transactional id is
chosen so that its partition is led by broker 1 with broker B as the other
replica; the data partition P sits on broker 1 and the third broker C, with
``min.insync.replicas`` 2. Each step waits for the ISR it needs:

* Complete* not replicated: a transaction writes P; 1-C is cut and the
  commit asked: durable on [1, B], its COMMIT marker not replicated (P's ISR
  shrinks to [1]); 1-B is cut (another id's InitProducerId makes B lag: the
  coordinator's ISR [1]); 1-C comes back, the marker is written and
  Complete* fails to replicate. It is undone and retried, so after the heal a
  new producer with the same id initialises within seconds and a
  read_committed reader sees the value. (The old code kept the Complete* in
  memory and passes this step; undoing without retrying would not.)
* PrepareCommit not replicated: 1-B is cut and the commit asked at once; its
  PrepareCommit is appended but never replicated (the ISR shrinks to [1]):
  the transition is undone, so once healed the client's EndTxn retry
  commits. The old code answers CONCURRENT_TRANSACTIONS for good here.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from nemesis_workload import nemesis_cluster  # noqa: F401 (fixture)

from kwire.coordinator.base import partition_for

ck = pytest.importorskip("confluent_kafka")

pytestmark = pytest.mark.timeout(150)

TXN_STATE = "__transaction_state"
OVERRIDES = {"transaction.state.log.replication.factor": "2", "transaction.state.log.min.isr": "2",
             "transaction.state.log.num.partitions": "6", "replica.lag.time.max.ms": "2000",
             "unclean.leader.election.enable": "false"}
RECOVER_S = 20.0  # after the heal, the transaction usable again within this


def _isr(c, topic: str, partition: int) -> list[int]:
    return sorted(c.metadata([topic], bootstrap=c.broker(1).bootstrap).topics[topic].partitions[partition].isr)


def _wait_isr(c, topic: str, partition: int, isr: list[int], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while (got := _isr(c, topic, partition)) != isr:
        assert time.monotonic() < deadline, f"{topic}-{partition}: ISR {got}, not {isr} after {timeout} s"
        time.sleep(0.1)


def _wait_log(c, text: str, since: int = 0, timeout: float = 30.0) -> None:
    """Until broker 1's log, from character ``since`` on, has ``text``."""
    deadline = time.monotonic() + timeout
    while text not in c.broker(1).log_text()[since:]:
        assert time.monotonic() < deadline, f"broker 1 never logged {text!r}"
        time.sleep(0.1)


def _quietly(f, *args) -> None:
    try:
        f(*args)
    except ck.KafkaException:
        pass


def _producer(c, tid: str):
    return ck.Producer({"bootstrap.servers": c.bootstrap, "transactional.id": tid,
                        "transaction.timeout.ms": 120000, "retry.backoff.ms": 100,
                        "retry.backoff.max.ms": 500})


def _read_committed(c, topic: str, count: int) -> list[bytes]:
    r = ck.Consumer({"bootstrap.servers": c.bootstrap, "group.id": f"rc-{uuid.uuid4().hex[:6]}",
                     "isolation.level": "read_committed", "enable.auto.commit": False})
    r.assign([ck.TopicPartition(topic, 0, ck.OFFSET_BEGINNING)])
    got: list[bytes] = []
    deadline = time.monotonic() + 30
    try:
        while len(got) < count and time.monotonic() < deadline:
            got += [m.value() for m in r.consume(10, 0.5) if m.error() is None]
    finally:
        r.close()
    return got


def test_coordinator_short_of_isr_mid_transaction_recovers(nemesis_cluster):  # noqa: F811
    c, fw, topo = nemesis_cluster(OVERRIDES)
    init = _producer(c, f"init-{uuid.uuid4().hex[:6]}")
    init.init_transactions(60)  # creates __transaction_state
    state = c.describe(TXN_STATE)
    x = next(p for p, info in sorted(state.partitions.items()) if info.leader == 1)
    b = next(r for r in state.partitions[x].replicas if r != 1)
    cc = next(n for n in (1, 2, 3) if n not in (1, b))
    tid = next(t for t in (f"stuck-{uuid.uuid4().hex[:8]}" for _ in range(10000))
               if partition_for(t, len(state.partitions)) == x)
    topic = f"p-{uuid.uuid4().hex[:6]}"
    c.create_topic(topic, 1, 2, configs={"min.insync.replicas": "2"}, assignment={0: [1, cc]})
    link_b, link_c = topo.split(["1"], [str(b)]), topo.split(["1"], [str(cc)])

    # -- Complete* refused, then retried --------------------------------------------------------
    p = _producer(c, tid)
    p.init_transactions(60)
    p.begin_transaction()
    p.produce(topic, b"first", partition=0)
    p.flush(30)
    fw.cut(link_c)
    p.commit_transaction(60)  # PrepareCommit durable on [1, b]; the marker to P not replicated
    _wait_isr(c, topic, 0, [1])  # (the marker made P's follower lag: an idle one stays in the ISR)
    fw.cut(link_b)
    # another id of the same partition writes to it (InitProducerId), so that b lags and leaves the ISR
    other = _producer(c, next(t for t in (f"other-{uuid.uuid4().hex[:8]}" for _ in range(10000))
                              if partition_for(t, len(state.partitions)) == x))
    helper = threading.Thread(target=lambda: _quietly(other.init_transactions, 60), daemon=True)
    helper.start()
    _wait_isr(c, TXN_STATE, x, [1])
    fw.restore(link_c)  # the marker goes in; Complete* is refused (ISR [1] < 2)
    _wait_log(c, f"completing transaction {tid} failed: COORDINATOR_NOT_AVAILABLE")
    fw.heal()
    healed = time.monotonic()
    helper.join(60)
    p2 = _producer(c, tid)  # InitProducerId: CONCURRENT_TRANSACTIONS until Complete* is written
    p2.init_transactions(RECOVER_S)
    print(f"\ntransaction usable again {time.monotonic() - healed:.1f} s after the heal (Complete* retried)")
    assert _read_committed(c, topic, 1) == [b"first"]
    p.flush(1)

    # -- PrepareCommit never replicated: undone --------------------------------------------------
    _wait_isr(c, TXN_STATE, x, sorted([1, b]))
    _wait_isr(c, topic, 0, sorted([1, cc]))
    p2.begin_transaction()
    p2.produce(topic, b"second", partition=0)
    p2.flush(30)
    done: list = []
    since = len(c.broker(1).log_text())
    fw.cut(link_b)

    def commit() -> None:
        try:
            p2.commit_transaction(90)
            done.append(time.monotonic())
        except ck.KafkaException as e:
            done.append(e)

    t = threading.Thread(target=commit, daemon=True)
    t.start()
    # the ISR shrinking to [1] is what fails the PrepareCommit's replication wait (the leader
    # commits the shrink before the Metadata shows it)
    _wait_isr(c, TXN_STATE, x, [1])
    fw.heal()
    healed = time.monotonic()
    t.join(RECOVER_S + 5)
    assert done and not isinstance(done[0], Exception), f"commit after the heal: {done or 'still running'}"
    print(f"commit answered {done[0] - healed:.1f} s after the heal (PrepareCommit undone, retried)")
    assert done[0] - healed < RECOVER_S
    _wait_log(c, f"{tid} not replicated (", since, timeout=1)  # the path this step is about was taken
    assert _read_committed(c, topic, 2) == [b"first", b"second"]
    p2.flush(1)
    init.flush(1)
    other.flush(1)
