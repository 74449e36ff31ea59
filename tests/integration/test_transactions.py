"""Transactions end to end on one broker: confluent-kafka, kafka-python, aiokafka.

Transactional producers commit and abort; a read_committed consumer sees the
committed records only and never reads past an open transaction (nor finds
offsets there by time); a read_uncommitted consumer sees everything; a
second producer with the same transactional id fences the first;
transactional offsets commit with the transaction (consume-transform-produce,
also killed with kill -9 and restarted: every input exactly once in the
output); an abandoned transaction is aborted after ``transaction.timeout.ms``
and the LSO advances; broker restarts (SIGTERM, kill -9) with an open
transaction and with a prepared-but-unmarked commit or abort (a broker process
whose markers for one partition the ``marker`` fault site holds back); a
producer carrying on across a restart; the admin APIs (List/DescribeTransactions,
DescribeProducers, aborting a hanging transaction with WriteTxnMarkers);
markers of an older coordinator epoch fenced; WriteTxnMarkers v2 with transaction
version 2 refusing a marker at the open transaction's epoch; the coordinator cancelling
the markers of a fenced transaction (no Complete*); bad input answered with Kafka's error codes (also a TxnOffsetCommit from a member of
an older generation: ILLEGAL_GENERATION, nothing pending, the transaction as it was).
kafka-python and aiokafka: commit and abort, read_committed consumers stopping at
the LSO of an open transaction (end offsets too) while read_uncommitted ones
read it, fencing (ProducerFencedError, ProducerFenced), and aiokafka's
consume-transform-produce with send_offsets_to_transaction.
"""

from __future__ import annotations

import gc
import time
import uuid

import pytest

ck = pytest.importorskip("confluent_kafka")
from confluent_kafka.admin import AdminClient, NewTopic  # noqa: E402


def _topic(bootstrap: str, partitions: int = 3) -> str:
    name = f"t-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1)])[name].result(30)
    return name


def _producer(bootstrap: str, tid: str, **extra):
    cfg = {"bootstrap.servers": bootstrap, "transactional.id": tid, "linger.ms": 5}
    cfg.update(extra)
    p = ck.Producer(cfg)
    p.init_transactions(60)
    return p


def _consume(bootstrap: str, topic: str, isolation: str, expect: int, timeout: float = 30.0,
             settle: float = 1.5) -> list[bytes]:
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex[:8]}",
                     "auto.offset.reset": "earliest", "isolation.level": isolation,
                     "enable.auto.commit": False})
    c.subscribe([topic])
    out: list[bytes] = []
    deadline = time.monotonic() + timeout
    quiet_until = None
    try:
        while time.monotonic() < deadline:
            m = c.poll(0.2)
            if m is None or m.error():
                if len(out) >= expect:
                    quiet_until = quiet_until or time.monotonic() + settle
                    if time.monotonic() >= quiet_until:
                        break
                continue
            out.append(m.value())
    finally:
        c.close()
    return out


def _lso_and_hw(bootstrap: str, topic: str, partition: int = 0) -> tuple[int, int]:
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": "probe", "isolation.level": "read_committed"})
    try:
        tp = ck.TopicPartition(topic, partition)
        lso = c.get_watermark_offsets(tp, timeout=10, cached=False)[1]
    finally:
        c.close()
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": "probe", "isolation.level": "read_uncommitted"})
    try:
        hw = c.get_watermark_offsets(ck.TopicPartition(topic, partition), timeout=10, cached=False)[1]
    finally:
        c.close()
    return lso, hw


def test_commit_abort_and_isolation(broker):
    b = broker.bootstrap
    topic = _topic(b)
    p = _producer(b, f"tx-{uuid.uuid4().hex[:6]}")
    p.begin_transaction()
    for i in range(30):
        p.produce(topic, value=b"c%d" % i, partition=i % 3)
    p.commit_transaction(30)
    p.begin_transaction()
    for i in range(20):
        p.produce(topic, value=b"a%d" % i, partition=i % 3)
    p.flush(30)
    p.abort_transaction(30)
    p.begin_transaction()
    for i in range(10):
        p.produce(topic, value=b"d%d" % i, partition=i % 3)
    p.commit_transaction(30)
    committed = _consume(b, topic, "read_committed", 40)
    assert sorted(committed) == sorted([b"c%d" % i for i in range(30)] + [b"d%d" % i for i in range(10)])
    everything = _consume(b, topic, "read_uncommitted", 60)
    assert len(everything) == 60 and any(v.startswith(b"a") for v in everything)


def test_open_transaction_holds_the_lso(broker):
    b = broker.bootstrap
    topic = _topic(b, 1)
    p = _producer(b, f"tx-{uuid.uuid4().hex[:6]}")
    p.begin_transaction()
    for i in range(5):
        p.produce(topic, value=b"x%d" % i, partition=0)
    p.flush(30)
    lso, hw = _lso_and_hw(b, topic)
    assert (lso, hw) == (0, 5)
    assert _consume(b, topic, "read_committed", 0, timeout=4, settle=2) == []
    for isolation, want in (("read_committed", -1), ("read_uncommitted", 0)):  # offsets for times
        c = ck.Consumer({"bootstrap.servers": b, "group.id": "probe", "isolation.level": isolation})
        try:
            found = c.offsets_for_times([ck.TopicPartition(topic, 0, 0)], 10)[0].offset
        finally:
            c.close()
        assert found == want, isolation
    p.commit_transaction(30)
    deadline = time.monotonic() + 20
    while _lso_and_hw(b, topic)[0] != 6 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _lso_and_hw(b, topic) == (6, 6)  # 5 records + the COMMIT marker
    assert len(_consume(b, topic, "read_committed", 5)) == 5


def test_second_producer_fences_the_first(broker):
    b = broker.bootstrap
    topic = _topic(b, 1)
    tid = f"tx-{uuid.uuid4().hex[:6]}"
    p1 = _producer(b, tid)
    p1.begin_transaction()
    p1.produce(topic, value=b"old", partition=0)
    p1.flush(30)
    p2 = _producer(b, tid)  # fences p1 and aborts its open transaction
    p2.begin_transaction()
    p2.produce(topic, value=b"new", partition=0)
    p2.commit_transaction(30)
    with pytest.raises(ck.KafkaException) as e:
        p1.produce(topic, value=b"zombie", partition=0)
        p1.commit_transaction(10)
    assert e.value.args[0].fatal() or e.value.args[0].code() in (
        ck.KafkaError._FENCED, ck.KafkaError.PRODUCER_FENCED, ck.KafkaError.INVALID_PRODUCER_EPOCH)
    assert _consume(b, topic, "read_committed", 1) == [b"new"]


def test_transaction_timeout_aborts(make_broker):
    br = make_broker(overrides={"transaction.abort.timed.out.transaction.cleanup.interval.ms": "200"})
    b = br.bootstrap
    topic = _topic(b, 1)
    p = _producer(b, f"tx-{uuid.uuid4().hex[:6]}", **{"transaction.timeout.ms": 1000})
    p.begin_transaction()
    for i in range(3):
        p.produce(topic, value=b"lost%d" % i, partition=0)
    p.flush(30)
    assert _lso_and_hw(b, topic) == (0, 3)
    deadline = time.monotonic() + 30
    while _lso_and_hw(b, topic)[0] != 4 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _lso_and_hw(b, topic) == (4, 4)  # aborted: ABORT marker, the LSO moved past it
    assert _consume(b, topic, "read_committed", 0, timeout=4, settle=2) == []


def test_consume_transform_produce_commits_offsets_with_the_transaction(broker):
    b = broker.bootstrap
    src, dst = _topic(b, 2), _topic(b, 2)
    plain = ck.Producer({"bootstrap.servers": b})
    for i in range(40):
        plain.produce(src, value=b"%d" % i, partition=i % 2)
    plain.flush(30)
    group = f"ctp-{uuid.uuid4().hex[:6]}"
    c = ck.Consumer({"bootstrap.servers": b, "group.id": group, "auto.offset.reset": "earliest",
                     "enable.auto.commit": False, "isolation.level": "read_committed"})
    c.subscribe([src])
    p = _producer(b, f"ctp-{uuid.uuid4().hex[:6]}")
    seen = 0
    deadline = time.monotonic() + 60
    aborted_once = False
    while seen < 40 and time.monotonic() < deadline:
        msgs = [m for m in c.consume(10, 0.5) if not m.error()]
        if not msgs:
            continue
        p.begin_transaction()
        for m in msgs:
            p.produce(dst, value=b"out-" + m.value(), partition=m.partition())
        p.send_offsets_to_transaction(c.position(c.assignment()), c.consumer_group_metadata(), 30)
        if not aborted_once:  # the first batch is aborted once: neither output nor offsets count
            aborted_once = True
            p.abort_transaction(30)
            for tp in c.assignment():  # rewind to the committed offsets
                committed = c.committed([tp], 10)[0].offset
                c.seek(ck.TopicPartition(tp.topic, tp.partition, committed if committed >= 0 else 0))
            continue
        p.commit_transaction(30)
        seen += len(msgs)
    committed = c.committed([ck.TopicPartition(src, 0), ck.TopicPartition(src, 1)], 10)
    c.close()
    assert sum(tp.offset for tp in committed) == 40
    out = _consume(b, dst, "read_committed", 40)
    assert sorted(out) == sorted(b"out-%d" % i for i in range(40))


@pytest.mark.parametrize("stop", ["sigterm", "kill9"])
def test_restart_with_an_open_transaction(spawn_broker, tmp_path, stop):
    cfg = {"transaction.abort.timed.out.transaction.cleanup.interval.ms": "200"}
    br = spawn_broker(tmp_path / "data", overrides=cfg)
    topic = _topic(br.bootstrap, 1)
    p = _producer(br.bootstrap, f"tx-{uuid.uuid4().hex[:6]}", **{"transaction.timeout.ms": 4000})
    p.begin_transaction()
    for i in range(3):
        p.produce(topic, value=b"open%d" % i, partition=0)
    p.flush(30)
    p2 = _producer(br.bootstrap, f"tx-{uuid.uuid4().hex[:6]}")
    p2.begin_transaction()
    p2.produce(topic, value=b"kept", partition=0)
    p2.commit_transaction(30)
    assert _lso_and_hw(br.bootstrap, topic) == (0, 5)
    if stop == "sigterm":
        br.terminate()
    else:
        br.kill()
    br2 = spawn_broker(tmp_path / "data", overrides=cfg)
    # the open transaction survived the restart: the LSO is still held below it...
    lso, hw = _lso_and_hw(br2.bootstrap, topic)
    assert hw == 5 and lso in (0, 6)  # 6: already aborted by the timer
    # ...until the coordinator aborts it (its timeout passed): ABORT marker, LSO at the end
    deadline = time.monotonic() + 30
    while _lso_and_hw(br2.bootstrap, topic)[0] != 6 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _lso_and_hw(br2.bootstrap, topic) == (6, 6)
    assert _consume(br2.bootstrap, topic, "read_committed", 1) == [b"kept"]


def test_kafka_python_and_aiokafka_transactions(broker):
    import asyncio

    import aiokafka
    import kafka

    b = broker.bootstrap
    topic = _topic(b, 2)
    p = kafka.KafkaProducer(bootstrap_servers=b, transactional_id=f"kp-{uuid.uuid4().hex[:6]}")
    p.init_transactions()
    p.begin_transaction()
    for i in range(10):
        p.send(topic, value=b"kp-c%d" % i, partition=i % 2)
    p.commit_transaction()
    p.begin_transaction()
    for i in range(10):
        p.send(topic, value=b"kp-a%d" % i, partition=i % 2)
    p.flush()
    p.abort_transaction()
    p.close()

    async def aio() -> list[bytes]:
        ap = aiokafka.AIOKafkaProducer(bootstrap_servers=b, transactional_id=f"aio-{uuid.uuid4().hex[:6]}")
        await ap.start()
        try:
            async with ap.transaction():
                for i in range(10):
                    await ap.send(topic, value=b"aio-c%d" % i, partition=i % 2)
            await ap.begin_transaction()
            for i in range(10):
                await ap.send(topic, value=b"aio-a%d" % i, partition=i % 2)
            await ap.abort_transaction()
        finally:
            await ap.stop()
        c = aiokafka.AIOKafkaConsumer(topic, bootstrap_servers=b, isolation_level="read_committed",
                                      auto_offset_reset="earliest", group_id=None)
        await c.start()
        got: list[bytes] = []
        try:
            deadline = time.monotonic() + 20
            while len(got) < 20 and time.monotonic() < deadline:
                for msgs in (await c.getmany(timeout_ms=300)).values():
                    got += [m.value for m in msgs]
        finally:
            await c.stop()
        return got

    aio_seen = asyncio.run(aio())
    want = sorted([b"kp-c%d" % i for i in range(10)] + [b"aio-c%d" % i for i in range(10)])
    assert sorted(aio_seen) == want
    kc = kafka.KafkaConsumer(topic, bootstrap_servers=b, isolation_level="read_committed",
                             auto_offset_reset="earliest", consumer_timeout_ms=3000)
    assert sorted(m.value for m in kc) == want
    kc.close()
    assert len(_consume(b, topic, "read_uncommitted", 40)) == 40


class _Drain:
    """A consumer's polls until ``expect`` values arrived and nothing more for ``settle`` s
    (or 30 s in all): ``add(batch)`` keeps a poll's values and says whether to stop."""

    def __init__(self, expect: int, settle: float) -> None:
        self.got: list[bytes] = []
        self.expect, self.settle = expect, settle
        self.deadline, self.quiet_until = time.monotonic() + 30, None

    def add(self, batch: list[bytes]) -> bool:
        self.got += batch
        now = time.monotonic()
        if batch or len(self.got) < self.expect:
            self.quiet_until = None
        else:
            self.quiet_until = self.quiet_until or now + self.settle
            if now >= self.quiet_until:
                return True
        return now >= self.deadline


def _kp_read(bootstrap: str, topic: str, partitions: int, isolation: str, expect: int,
             settle: float = 2.0) -> tuple[list[bytes], dict[int, int]]:
    """kafka-python: every record of ``topic`` visible at ``isolation`` (polled until ``expect``
    arrived and nothing more for ``settle`` s), and the end offsets at that isolation."""
    import kafka

    c = kafka.KafkaConsumer(bootstrap_servers=bootstrap, isolation_level=isolation,
                            enable_auto_commit=False, auto_offset_reset="earliest")
    tps = [kafka.TopicPartition(topic, p) for p in range(partitions)]
    try:
        c.assign(tps)
        c.seek_to_beginning()
        drain = _Drain(expect, settle)
        while not drain.add([m.value for msgs in c.poll(timeout_ms=200).values() for m in msgs]):
            pass
        return drain.got, {tp.partition: o for tp, o in c.end_offsets(tps).items()}
    finally:
        c.close()


async def _aio_read(bootstrap: str, topic: str, partitions: int, isolation: str, expect: int,
                    settle: float = 2.0) -> tuple[list[bytes], dict[int, int]]:
    """aiokafka: as ``_kp_read``."""
    import aiokafka

    c = aiokafka.AIOKafkaConsumer(bootstrap_servers=bootstrap, isolation_level=isolation,
                                  enable_auto_commit=False, auto_offset_reset="earliest", group_id=None)
    await c.start()
    tps = [aiokafka.TopicPartition(topic, p) for p in range(partitions)]
    try:
        c.assign(tps)
        await c.seek_to_beginning()
        drain = _Drain(expect, settle)
        while not drain.add([m.value for msgs in (await c.getmany(timeout_ms=200)).values() for m in msgs]):
            pass
        return drain.got, {tp.partition: o for tp, o in (await c.end_offsets(tps)).items()}
    finally:
        await c.stop()


def test_kafka_python_and_aiokafka_never_read_past_an_open_transaction(broker):
    """Each partition: 3 committed records (offsets 0-2, COMMIT marker 3), then a transaction
    left open (kafka-python's on partition 0, aiokafka's on 1: offsets 4-5), then 2 plain records
    (6-7). kafka-python's and aiokafka's read_committed consumers get exactly the 6 committed
    records and their end offsets are the LSO, 4; read_uncommitted ones get all 14 records.
    Once both transactions commit (markers at 8), read_committed gets all 14 and ends at 9."""
    import asyncio

    import aiokafka
    import kafka

    b = broker.bootstrap
    topic = _topic(b, 2)

    async def scenario() -> None:
        kp = kafka.KafkaProducer(bootstrap_servers=b, transactional_id=f"kpo-{uuid.uuid4().hex[:6]}")
        ap = aiokafka.AIOKafkaProducer(bootstrap_servers=b, transactional_id=f"aio-{uuid.uuid4().hex[:6]}")
        await ap.start()
        try:
            kp.init_transactions()
            kp.begin_transaction()
            for i in range(6):
                kp.send(topic, value=b"c%d" % i, partition=i % 2)
            kp.commit_transaction()
            kp.begin_transaction()
            for i in range(2):
                kp.send(topic, value=b"kp-open%d" % i, partition=0)
            kp.flush()
            await ap.begin_transaction()
            for i in range(2):
                await ap.send_and_wait(topic, value=b"aio-open%d" % i, partition=1)
            plain = ck.Producer({"bootstrap.servers": b})
            for i in range(4):
                plain.produce(topic, value=b"after%d" % i, partition=i % 2)
            plain.flush(30)

            committed = sorted(b"c%d" % i for i in range(6))
            everything = sorted(committed + [b"kp-open0", b"kp-open1", b"aio-open0", b"aio-open1"]
                                + [b"after%d" % i for i in range(4)])
            got, ends = await asyncio.to_thread(_kp_read, b, topic, 2, "read_committed", 6)
            assert (sorted(got), ends) == (committed, {0: 4, 1: 4})
            got, ends = await _aio_read(b, topic, 2, "read_committed", 6)
            assert (sorted(got), ends) == (committed, {0: 4, 1: 4})
            got, ends = await asyncio.to_thread(_kp_read, b, topic, 2, "read_uncommitted", 14, 1.0)
            assert (sorted(got), ends) == (everything, {0: 8, 1: 8})
            got, ends = await _aio_read(b, topic, 2, "read_uncommitted", 14, 1.0)
            assert (sorted(got), ends) == (everything, {0: 8, 1: 8})

            await asyncio.to_thread(kp.commit_transaction)
            await ap.commit_transaction()
            deadline = time.monotonic() + 30
            while True:  # the markers are written after EndTxn is answered
                got, ends = await asyncio.to_thread(_kp_read, b, topic, 2, "read_committed", 14, 1.0)
                if ends == {0: 9, 1: 9} or time.monotonic() > deadline:
                    break
            assert (sorted(got), ends) == (everything, {0: 9, 1: 9})
            got, ends = await _aio_read(b, topic, 2, "read_committed", 14, 1.0)
            assert (sorted(got), ends) == (everything, {0: 9, 1: 9})
        finally:
            kp.close(timeout=5)
            await ap.stop()

    asyncio.run(scenario())


def test_aiokafka_consume_transform_produce_with_send_offsets_to_transaction(broker):
    """aiokafka reads 40 records in a group (read_committed), writes each to another topic and
    commits the group's offsets in the same transaction (send_offsets_to_transaction:
    AddOffsetsToTxn + TxnOffsetCommit); the first transaction is aborted and its batch redone.
    The output holds every input exactly once and the group's committed offsets are the ends."""
    import asyncio

    import aiokafka

    b = broker.bootstrap
    src, dst = _topic(b, 2), _topic(b, 2)
    plain = ck.Producer({"bootstrap.servers": b})
    for i in range(40):
        plain.produce(src, value=b"%d" % i, partition=i % 2)
    plain.flush(30)
    group = f"aio-ctp-{uuid.uuid4().hex[:6]}"

    async def loop() -> dict:
        c = aiokafka.AIOKafkaConsumer(src, bootstrap_servers=b, group_id=group, isolation_level="read_committed",
                                      enable_auto_commit=False, auto_offset_reset="earliest")
        p = aiokafka.AIOKafkaProducer(bootstrap_servers=b, transactional_id=f"aio-ctp-{uuid.uuid4().hex[:6]}")
        await c.start()
        await p.start()
        try:
            seen, aborted_once = 0, False
            deadline = time.monotonic() + 60
            while seen < 40 and time.monotonic() < deadline:
                batches = await c.getmany(timeout_ms=500, max_records=10)
                if not batches:
                    continue
                await p.begin_transaction()
                offsets = {}
                for tp, msgs in batches.items():
                    for m in msgs:
                        await p.send(dst, value=b"out-" + m.value, partition=m.partition)
                    offsets[tp] = msgs[-1].offset + 1
                await p.send_offsets_to_transaction(offsets, group)
                if not aborted_once:  # neither the output nor the offsets of this one count
                    aborted_once = True
                    await p.abort_transaction()
                    for tp in batches:  # rewind to the committed offsets
                        committed = await c.committed(tp)
                        c.seek(tp, committed if committed is not None else 0)
                    continue
                await p.commit_transaction()
                seen += sum(len(msgs) for msgs in batches.values())
            assert seen == 40
        finally:
            await p.stop()
            await c.stop()

    asyncio.run(loop())
    # the offsets become committed when the COMMIT marker reaches the group's partition, after
    # EndTxn is answered; librdkafka's OffsetFetch asks for stable offsets (require_stable)
    probe = ck.Consumer({"bootstrap.servers": b, "group.id": group, "enable.auto.commit": False})
    try:
        deadline = time.monotonic() + 30
        while (committed := [tp.offset for tp in probe.committed(
                [ck.TopicPartition(src, 0), ck.TopicPartition(src, 1)], 10)]) != [20, 20]:
            assert time.monotonic() < deadline, committed
            time.sleep(0.2)
    finally:
        probe.close()
    out = _consume(b, dst, "read_committed", 40)
    assert sorted(out) == sorted(b"out-%d" % i for i in range(40))


CTP_SCRIPT = r'''
import sys, confluent_kafka as ck
b, src, dst, group, tid = sys.argv[1:6]
hold = int(sys.argv[6])  # after this many committed transactions, stop inside the next one
c = ck.Consumer({"bootstrap.servers": b, "group.id": group, "auto.offset.reset": "earliest",
                 "enable.auto.commit": False, "isolation.level": "read_committed",
                 "session.timeout.ms": 6000, "heartbeat.interval.ms": 500})
c.subscribe([src])
p = ck.Producer({"bootstrap.servers": b, "transactional.id": tid})
p.init_transactions(30)
committed = 0
while True:
    msgs = [m for m in c.consume(5, 0.5) if not m.error()]
    if not msgs:
        continue
    p.begin_transaction()
    for m in msgs:
        p.produce(dst, value=b"out-" + m.value(), partition=m.partition())
    p.flush(30)  # the records are on the broker, in the open transaction
    p.send_offsets_to_transaction(c.position(c.assignment()), c.consumer_group_metadata(), 30)
    if committed == hold:
        print("open", len(msgs), flush=True)
        sys.stdin.readline()  # the parent never writes: wait here, mid-transaction, for kill -9
    p.commit_transaction(30)
    committed += 1
    print("batch", len(msgs), flush=True)
'''


def test_consume_transform_produce_killed_and_restarted_is_exactly_once(broker, tmp_path):
    """A confluent-kafka consume-transform-produce loop in a child process commits 5
    transactions, then writes the records and offsets of a 6th and is killed with kill -9
    before committing it (the transaction is Ongoing at the coordinator, its records on the
    broker). Restarted with the same transactional id, it fences and aborts that one and goes
    on: read_committed, the output holds every input exactly once; the dead transaction's
    records are in the log (read_uncommitted), aborted."""
    import subprocess
    import sys

    from test_transactions_java import describe

    b = broker.bootstrap
    src, dst = _topic(b, 2), _topic(b, 2)
    group, tid = f"g-{uuid.uuid4().hex[:6]}", f"ctp-{uuid.uuid4().hex[:6]}"
    script = tmp_path / "ctp.py"
    script.write_text(CTP_SCRIPT)
    plain = ck.Producer({"bootstrap.servers": b})
    for i in range(300):
        plain.produce(src, value=b"%d" % i, partition=i % 2)
    plain.flush(30)

    def start(hold: int):
        return subprocess.Popen([sys.executable, str(script), b, src, dst, group, tid, str(hold)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True)

    proc = start(hold=5)
    batches, in_flight = 0, 0
    try:
        for line in proc.stdout:
            batches += line.startswith("batch")
            if line.startswith("open"):
                in_flight = int(line.split()[1])
                break
        assert (batches, in_flight > 0) == (5, True)
        state, _pid, _epoch, partitions = describe(b, tid)
        assert state == "Ongoing" and {t for t, _ in partitions} == {dst, "__consumer_offsets"}
    finally:
        proc.kill()  # kill -9 inside the open transaction
        proc.wait(30)
    proc = start(hold=-1)  # same transactional id: fences the dead one and aborts its transaction
    try:
        out = _consume(b, dst, "read_committed", 300, timeout=90, settle=3)
    finally:
        proc.kill()
        proc.wait(30)
    assert sorted(out) == sorted(b"out-%d" % i for i in range(300))  # each input exactly once
    assert len(_consume(b, dst, "read_uncommitted", 300 + in_flight)) == 300 + in_flight


def test_restart_completes_a_prepared_but_unmarked_commit(make_broker, tmp_path, monkeypatch):
    """EndTxn(commit) is durable (PrepareCommit) but the marker cannot be written (the data
    partition refuses it); after a restart the coordinator finds PrepareCommit in
    __transaction_state, writes the markers and the records become visible."""
    from kwire.protocol.errors import ErrorCode
    from kwire.transactions.coordinator import TransactionCoordinator

    real = TransactionCoordinator.write_marker_locally
    blocked: set[str] = set()

    def refusing(self, topic, *a, **kw):
        if topic in blocked:
            return ErrorCode.KAFKA_STORAGE_ERROR
        return real(self, topic, *a, **kw)

    monkeypatch.setattr(TransactionCoordinator, "write_marker_locally", refusing)
    data = tmp_path / "data"
    br = make_broker(data)
    topic = _topic(br.bootstrap, 1)
    blocked.add(topic)
    p = _producer(br.bootstrap, f"tx-{uuid.uuid4().hex[:6]}")
    p.begin_transaction()
    for i in range(4):
        p.produce(topic, value=b"v%d" % i, partition=0)
    p.commit_transaction(30)  # answered once PrepareCommit is durable
    assert _lso_and_hw(br.bootstrap, topic) == (0, 4)
    br.stop()
    monkeypatch.setattr(TransactionCoordinator, "write_marker_locally", real)
    br2 = make_broker(data)
    deadline = time.monotonic() + 30
    while _lso_and_hw(br2.bootstrap, topic)[0] != 5 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _lso_and_hw(br2.bootstrap, topic) == (5, 5)
    assert sorted(_consume(br2.bootstrap, topic, "read_committed", 4)) == [b"v%d" % i for i in range(4)]


def _txn_state(bootstrap: str, tid: str) -> str:
    from clients import Wire
    from kwire.protocol.generated import describe_transactions_request as dt

    wire = Wire(bootstrap)
    try:
        s = wire(65, 0, dt.DescribeTransactionsRequest(transactional_ids=[tid])).transaction_states[0]
    finally:
        wire.close()
    assert s.error_code == 0, s
    return s.transaction_state


def _aborted_ranges(partition_dir) -> list[tuple[int, int]]:
    """(first offset, marker offset) of every entry of the partition's .txnindex files."""
    import struct

    out = []
    for f in sorted(partition_dir.glob("*.txnindex")):
        data = f.read_bytes()
        for pos in range(0, len(data) - len(data) % 34, 34):
            _v, _pid, first, last, _lso = struct.unpack_from(">hqqqq", data, pos)
            out.append((first, last))
    return out


def _wait_for(what, want, timeout: float = 45.0):
    deadline = time.monotonic() + timeout
    got = what()
    while got != want and time.monotonic() < deadline:
        time.sleep(0.3)
        got = what()
    return got


@pytest.mark.parametrize("stop", ["sigterm", "kill9"])
@pytest.mark.parametrize("outcome", ["commit", "abort"])
def test_broker_process_dies_between_prepare_and_a_marker(spawn_broker, tmp_path, faults_file, outcome, stop):
    """A real broker process (SIGTERM / kill -9) stops after EndTxn made PrepareCommit or
    PrepareAbort durable in __transaction_state and wrote the marker of partition 0, but not
    the marker of partition 1 (the ``marker`` fault site, armed through KWIRE_FAULTS_FILE,
    holds it back). After the restart the coordinator finds the prepared transaction, writes
    the markers, completes it; partition 1's LSO reaches its end, its .txnindex holds the
    aborted ranges, and read_committed consumers see exactly the committed records."""

    arm = faults_file
    data = tmp_path / "data"
    br = spawn_broker(data)
    topic = _topic(br.bootstrap, 2)
    tid = f"die-{uuid.uuid4().hex[:6]}"
    p = _producer(br.bootstrap, tid)

    def transaction(prefix: str, n: int, commit: bool) -> list[bytes]:
        values = [b"%s%d-%d" % (prefix.encode(), part, i) for part in (0, 1) for i in range(n)]
        p.begin_transaction()
        for v in values:
            p.produce(topic, value=v, partition=int(v[1:2]))
        p.flush(30)
        (p.commit_transaction if commit else p.abort_transaction)(30)
        return values

    committed = transaction("c", 3, True)      # offsets 0-2, COMMIT at 3 in each partition
    aborted = transaction("a", 2, False)       # 4-5, ABORT at 6
    assert _wait_for(lambda: _lso_and_hw(br.bootstrap, topic, 1), (7, 7)) == (7, 7)
    arm(f"marker=EIO@{data / f'{topic}-1'}")
    held = transaction("x", 3, outcome == "commit")  # 7-9; the marker at 10 only in partition 0
    prepared = "PrepareCommit" if outcome == "commit" else "PrepareAbort"
    assert _txn_state(br.bootstrap, tid) == prepared
    assert _wait_for(lambda: _lso_and_hw(br.bootstrap, topic, 0), (11, 11)) == (11, 11)
    assert _lso_and_hw(br.bootstrap, topic, 1) == (7, 10)  # held below the prepared transaction
    assert _txn_state(br.bootstrap, tid) == prepared
    # the fault did fire (the broker's output reaches log_text through a reader thread: wait for it)
    fired = f"{topic}-1: marker for producer"
    assert _wait_for(lambda: fired in br.log_text, True), br.log_text[-3000:]
    if stop == "sigterm":
        assert br.terminate() == 0
    else:
        br.kill()
    arm("")
    br2 = spawn_broker(data)
    b = br2.bootstrap
    assert _wait_for(lambda: _lso_and_hw(b, topic, 1), (11, 11)) == (11, 11)
    lso0, hw0 = _lso_and_hw(b, topic, 0)
    assert lso0 == hw0 and hw0 in (11, 12)  # 12: the coordinator resent partition 0's marker too
    done = "CompleteCommit" if outcome == "commit" else "CompleteAbort"
    assert _wait_for(lambda: _txn_state(b, tid), done) == done
    want_aborted = [(4, 6)] + ([(7, 10)] if outcome == "abort" else [])
    assert _aborted_ranges(data / f"{topic}-1") == want_aborted
    assert _aborted_ranges(data / f"{topic}-0") == want_aborted
    visible = committed + (held if outcome == "commit" else [])
    assert sorted(_consume(b, topic, "read_committed", len(visible))) == sorted(visible)
    everything = committed + aborted + held
    assert sorted(_consume(b, topic, "read_uncommitted", len(everything))) == sorted(everything)


def test_admin_list_describe_and_abort_a_hanging_transaction(broker):
    """kafka-python's admin: ListTransactions, DescribeTransactions, DescribeProducers, and
    abort_transaction (WriteTxnMarkers to the partition leader, as kafka-transactions.sh --abort)."""
    import kafka
    from kafka.admin import KafkaAdminClient

    b = broker.bootstrap
    topic = _topic(b, 1)
    tid = f"adm-{uuid.uuid4().hex[:6]}"
    p = _producer(b, tid)
    p.begin_transaction()
    for i in range(3):
        p.produce(topic, value=b"h%d" % i, partition=0)
    p.flush(30)
    admin = KafkaAdminClient(bootstrap_servers=b)
    try:
        listed = admin.list_transactions(state_filters=["Ongoing"])
        assert tid in str(listed)
        described = admin.describe_transactions([tid])
        assert "Ongoing" in str(described) and topic in str(described)
        producers = admin.describe_producers([kafka.TopicPartition(topic, 0)])
        state = producers[kafka.TopicPartition(topic, 0)]
        [entry] = state.active_producers
        assert entry.current_transaction_start_offset == 0  # its open transaction starts at 0
        assert _lso_and_hw(b, topic) == (0, 3)
        # abort it as an operator would (the producer is gone): the LSO moves past the marker
        from kafka.admin import AbortTransactionSpec

        spec = AbortTransactionSpec(topic_partition=kafka.TopicPartition(topic, 0),
                                    producer_id=entry.producer_id, producer_epoch=entry.producer_epoch)
        admin.abort_transaction(spec)
        assert _lso_and_hw(b, topic) == (4, 4)
    finally:
        admin.close()


def test_write_txn_markers_from_an_older_coordinator_is_fenced(broker):
    """A raw WriteTxnMarkers whose coordinator epoch is below the one of the producer's last
    marker (a zombie coordinator) answers TRANSACTION_COORDINATOR_FENCED and writes nothing:
    the open transaction stays open (log end, LSO, read_committed view unchanged).
    DescribeProducers reports the coordinator epoch of each producer's last marker."""
    from clients import Wire
    from kwire.protocol.errors import ErrorCode as E
    from kwire.protocol.generated import describe_producers_request as dp, write_txn_markers_request as wtm

    b = broker.bootstrap
    topic = _topic(b, 1)
    p = _producer(b, f"zc-{uuid.uuid4().hex[:6]}")
    p.begin_transaction()
    for i in range(3):
        p.produce(topic, value=b"c%d" % i, partition=0)
    p.commit_transaction(30)                     # 0-2 and the COMMIT marker at 3 (coordinator epoch 0)
    p.begin_transaction()
    for i in range(2):
        p.produce(topic, value=b"open%d" % i, partition=0)
    p.flush(30)                                  # 4-5: open
    deadline = time.monotonic() + 20
    while _lso_and_hw(b, topic) != (4, 6) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _lso_and_hw(b, topic) == (4, 6)
    wire = Wire(b)
    try:
        def producers() -> dict[int, tuple]:
            r = wire(61, 0, dp.DescribeProducersRequest(topics=[dp.TopicRequest(name=topic, partition_indexes=[0])]))
            part = r.topics[0].partitions[0]
            assert part.error_code == 0
            return {s.producer_id: (s.producer_epoch, s.coordinator_epoch, s.current_txn_start_offset)
                    for s in part.active_producers}

        [(pid, (epoch, coordinator_epoch, start))] = producers().items()
        assert (coordinator_epoch, start) == (0, 4)  # from the COMMIT marker; the open one at 4

        def marker(producer_id, producer_epoch, coordinator_epoch, commit=True):
            r = wire(27, 1, wtm.WriteTxnMarkersRequest(markers=[wtm.WritableTxnMarker(
                producer_id=producer_id, producer_epoch=producer_epoch, transaction_result=commit,
                coordinator_epoch=coordinator_epoch,
                topics=[wtm.WritableTxnMarkerTopic(name=topic, partition_indexes=[0])])]))
            return r.markers[0].topics[0].partitions[0].error_code

        assert marker(pid, epoch, -5) == E.TRANSACTION_COORDINATOR_FENCED
        assert marker(pid, epoch, -1, commit=False) == E.TRANSACTION_COORDINATOR_FENCED
        assert _lso_and_hw(b, topic) == (4, 6)   # nothing written, the transaction still open
        assert producers()[pid] == (epoch, 0, 4)
        assert sorted(_consume(b, topic, "read_committed", 3)) == [b"c0", b"c1", b"c2"]
        # a coordinator with a higher epoch is accepted; from then on epoch 4 is a zombie
        other = pid + 1000
        assert marker(other, 0, 5) == E.NONE     # no transaction of its own: just the marker (6)
        assert producers()[other] == (0, 5, -1)
        assert marker(other, 0, 4) == E.TRANSACTION_COORDINATOR_FENCED
        assert _lso_and_hw(b, topic) == (4, 7)
    finally:
        wire.close()
    p.commit_transaction(30)                     # the real coordinator (epoch 0) still commits
    deadline = time.monotonic() + 20
    while _lso_and_hw(b, topic)[0] != 8 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _lso_and_hw(b, topic) == (8, 8)
    assert sorted(_consume(b, topic, "read_committed", 5)) == sorted(
        [b"c0", b"c1", b"c2", b"open0", b"open1"])


def _open_transaction(b: str, topic: str, prefix: str, n: int = 2):
    """A confluent-kafka producer with an open transaction of ``n`` records in partition 0;
    (producer, transactional id, producer id, epoch as DescribeProducers reports them)."""
    from clients import Wire
    from kwire.protocol.generated import describe_producers_request as dp

    tid = f"{prefix}-{uuid.uuid4().hex[:6]}"
    p = _producer(b, tid)
    p.begin_transaction()
    for i in range(n):
        p.produce(topic, value=b"%s%d" % (prefix.encode(), i), partition=0)
    p.flush(30)
    assert _wait_for(lambda: _lso_and_hw(b, topic), (0, n)) == (0, n)
    wire = Wire(b)
    try:
        r = wire(61, 0, dp.DescribeProducersRequest(topics=[dp.TopicRequest(name=topic, partition_indexes=[0])]))
    finally:
        wire.close()
    [s] = r.topics[0].partitions[0].active_producers
    assert s.current_txn_start_offset == 0
    return p, tid, s.producer_id, s.producer_epoch


def _raw_marker(b: str, topic: str, version: int, producer_id: int, producer_epoch: int,
                coordinator_epoch: int = 0, commit: bool = False, transaction_version: int = 0) -> int:
    """One WriteTxnMarkers for partition 0 of ``topic``, as a coordinator sends it; its error code."""
    from clients import Wire
    from kwire.protocol.generated import write_txn_markers_request as wtm

    wire = Wire(b)
    try:
        r = wire(27, version, wtm.WriteTxnMarkersRequest(markers=[wtm.WritableTxnMarker(
            producer_id=producer_id, producer_epoch=producer_epoch, transaction_result=commit,
            coordinator_epoch=coordinator_epoch, transaction_version=transaction_version,
            topics=[wtm.WritableTxnMarkerTopic(name=topic, partition_indexes=[0])])]))
    finally:
        wire.close()
    return r.markers[0].topics[0].partitions[0].error_code


def test_write_txn_markers_v2_transactions_v2_marker_must_bump_the_epoch(broker):
    """WriteTxnMarkers v2 with ``transaction_version`` 2 (KIP-890 part 2): the coordinator
    bumped the epoch, so a marker at the open transaction's own epoch is a stale one:
    INVALID_PRODUCER_EPOCH, nothing written. One epoch above ends the transaction; sent again
    after that it is a retry and is written again (Kafka's KAFKA-19999), while the old epoch
    stays refused. Transaction version 0 keeps the old rule (the equal epoch is accepted)."""
    from kwire.protocol.errors import ErrorCode as E

    b = broker.bootstrap
    topic = _topic(b, 1)
    _p, _tid, pid, epoch = _open_transaction(b, topic, "tv2")           # 0-1 open at ``epoch``
    assert _raw_marker(b, topic, 2, pid, epoch, transaction_version=2) == E.INVALID_PRODUCER_EPOCH
    assert _raw_marker(b, topic, 2, pid, epoch, commit=True, transaction_version=2) == E.INVALID_PRODUCER_EPOCH
    assert _lso_and_hw(b, topic) == (0, 2)                        # nothing written, still open
    assert _raw_marker(b, topic, 2, pid, epoch + 1, transaction_version=2) == E.NONE  # ABORT at 2
    assert _lso_and_hw(b, topic) == (3, 3)
    assert _raw_marker(b, topic, 2, pid, epoch + 1, transaction_version=2) == E.NONE  # retry: 3
    assert _lso_and_hw(b, topic) == (4, 4)
    assert _raw_marker(b, topic, 2, pid, epoch, transaction_version=2) == E.INVALID_PRODUCER_EPOCH
    assert _raw_marker(b, topic, 2, pid, epoch, transaction_version=0) == E.INVALID_PRODUCER_EPOCH
    assert _raw_marker(b, topic, 2, pid, epoch + 1, transaction_version=0) == E.NONE  # equal, TV0: 4
    assert _raw_marker(b, topic, 1, pid, epoch + 1) == E.NONE     # v1 has no field: TV0, 5
    assert _lso_and_hw(b, topic) == (6, 6)
    assert _consume(b, topic, "read_committed", 0, timeout=5, settle=1.0) == []  # aborted


@pytest.mark.parametrize("fence", ["producer_epoch", "coordinator_epoch"])
def test_coordinator_stops_at_a_fenced_marker_and_writes_no_complete(broker, caplog, fence):
    """A marker the partition refuses as fenced (INVALID_PRODUCER_EPOCH: the partition knows a
    newer producer epoch; TRANSACTION_COORDINATOR_FENCED: a newer coordinator wrote there)
    makes the coordinator cancel the transaction's markers, as Kafka's
    TransactionMarkerRequestCompletionHandler ("permanently failed ... cancel sending any more
    transaction markers"): it neither retries nor writes CompleteCommit; the transaction stays
    PrepareCommit and the partition gets no marker."""
    import logging

    from kwire.protocol.errors import ErrorCode as E
    from kwire.transactions.coordinator import MARKER_RETRY_S

    caplog.set_level(logging.INFO, logger="kwire.transactions")
    b = broker.bootstrap
    topic = _topic(b, 1)
    p, tid, pid, epoch = _open_transaction(b, topic, "fz")         # 0-1 open
    # another coordinator ends the transaction first (an ABORT at 2): with a far higher
    # producer epoch, or with a higher coordinator epoch than this broker's (0)
    higher = (epoch + 5, 0) if fence == "producer_epoch" else (epoch, 7)
    assert _raw_marker(b, topic, 1, pid, *higher) == E.NONE
    assert _lso_and_hw(b, topic) == (3, 3)
    p.commit_transaction(30)                                       # PrepareCommit is durable
    code = "INVALID_PRODUCER_EPOCH" if fence == "producer_epoch" else "TRANSACTION_COORDINATOR_FENCED"
    deadline = time.monotonic() + 30
    line = f"Sending {tid}'s transaction marker for partition {topic}-0 has permanently failed with error {code}"
    while line not in caplog.text and time.monotonic() < deadline:
        time.sleep(0.1)
    assert line in caplog.text
    # several marker retry periods later: still PrepareCommit, no further marker, no Complete*
    until = time.monotonic() + 8 * MARKER_RETRY_S
    while time.monotonic() < until:
        assert _txn_state(b, tid) == "PrepareCommit"
        time.sleep(MARKER_RETRY_S)
    assert _lso_and_hw(b, topic) == (3, 3)
    assert sum("permanently failed" in r.getMessage() and tid in r.getMessage()
               for r in caplog.records) == 1                       # cancelled, not retried


def test_producer_carries_on_across_a_broker_restart(spawn_broker, tmp_path):
    """SIGTERM mid-transaction, same port: the producer keeps producing and commits; the
    coordinator state, the producer state (sequences) and the open transaction survived."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = {"listeners": f"PLAINTEXT://127.0.0.1:{port}"}
    br = spawn_broker(tmp_path / "data", overrides=cfg)
    topic = _topic(br.bootstrap, 2)
    p = _producer(br.bootstrap, f"tx-{uuid.uuid4().hex[:6]}", **{"transaction.timeout.ms": 60000,
                                                                 "message.timeout.ms": 60000})
    p.begin_transaction()
    for i in range(10):
        p.produce(topic, value=b"before%d" % i, partition=i % 2)
    p.flush(30)
    br.terminate()
    br2 = spawn_broker(tmp_path / "data", overrides=cfg)
    assert br2.bootstrap == br.bootstrap
    for i in range(10):
        p.produce(topic, value=b"after%d" % i, partition=i % 2)
    p.commit_transaction(60)
    got = _consume(br2.bootstrap, topic, "read_committed", 20)
    assert sorted(got) == sorted([b"before%d" % i for i in range(10)] + [b"after%d" % i for i in range(10)])


def test_bad_input_gets_kafkas_errors_and_leaves_the_state_alone(broker):
    """Raw requests: EndTxn for an unknown id, AddPartitionsToTxn with a stale epoch,
    TxnOffsetCommit without AddOffsetsToTxn, a control batch from a producer, a timeout above
    transaction.max.timeout.ms; the coordinator's state is untouched (DescribeTransactions)."""
    from kwire.client import KafkaClient
    from kwire.protocol.errors import ErrorCode as E
    from kwire.protocol.generated import (
        add_partitions_to_txn_request as ap, describe_transactions_request as dt,
        end_txn_request as et, find_coordinator_request as fc, init_producer_id_request as ip,
        produce_request as pr, txn_offset_commit_request as tc)
    from kwire.records.control import COMMIT, build_end_txn_batch

    topic = _topic(broker.bootstrap, 1)
    tid = f"bad-{uuid.uuid4().hex[:6]}"
    with KafkaClient(broker.bootstrap) as kc:
        assert kc.request(10, fc.FindCoordinatorRequest(key=tid, key_type=1), version=3).error_code == 0
        assert kc.request(22, ip.InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=10**9),
                          version=4).error_code == E.INVALID_TRANSACTION_TIMEOUT
        r = kc.request(22, ip.InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=60000),
                       version=4)
        pid, epoch = r.producer_id, r.producer_epoch
        assert r.error_code == 0
        unknown = kc.request(26, et.EndTxnRequest(transactional_id="nobody", producer_id=pid,
                                                  producer_epoch=epoch, committed=True), version=3)
        assert unknown.error_code == E.INVALID_PRODUCER_ID_MAPPING

        def add(version, ep):
            req = ap.AddPartitionsToTxnRequest(
                v3_and_below_transactional_id=tid, v3_and_below_producer_id=pid,
                v3_and_below_producer_epoch=ep,
                v3_and_below_topics=[ap.AddPartitionsToTxnTopic(name=topic, partitions=[0])])
            resp = kc.request(24, req, version=version)
            return resp.results_by_topic_v3_and_below[0].results_by_partition[0].partition_error_code

        assert add(3, epoch - 1) == E.PRODUCER_FENCED
        assert add(1, epoch - 1) == E.INVALID_PRODUCER_EPOCH  # versions before PRODUCER_FENCED

        def commit_offsets(version):
            req = tc.TxnOffsetCommitRequest(
                transactional_id=tid, group_id="g-" + tid, producer_id=pid, producer_epoch=epoch,
                topics=[tc.TxnOffsetCommitRequestTopic(name=topic, partitions=[
                    tc.TxnOffsetCommitRequestPartition(partition_index=0, committed_offset=5)])])
            return kc.request(28, req, version=version).topics[0].partitions[0].error_code

        assert commit_offsets(3) == E.INVALID_TXN_STATE  # no AddOffsetsToTxn came first
        assert commit_offsets(4) == E.TRANSACTION_ABORTABLE
        marker = build_end_txn_batch(COMMIT, producer_id=pid, producer_epoch=epoch, coordinator_epoch=0)
        produce = pr.ProduceRequest(transactional_id=tid, acks=-1, timeout_ms=5000, topic_data=[
            pr.TopicProduceData(name=topic, partition_data=[
                pr.PartitionProduceData(index=0, records=bytearray(marker))])])
        part = kc.request(0, produce, version=9).responses[0].partition_responses[0]
        assert part.error_code == E.INVALID_RECORD
        state = kc.request(65, dt.DescribeTransactionsRequest(transactional_ids=[tid]), version=0)
        s = state.transaction_states[0]
        assert (s.error_code, s.transaction_state, s.producer_epoch, s.topics) == (0, "Empty", epoch, [])


def test_txn_offset_commit_from_another_generation_is_refused(broker):
    """Raw requests: a member of generation 1 commits offsets in a transaction after the group
    moved to generation 2 (a zombie of the previous generation, KIP-447): ILLEGAL_GENERATION on
    every partition; the transaction (DescribeTransactions) and the group's offsets (OffsetFetch
    with require_stable: nothing pending) are untouched. The same commit with the current
    generation is accepted."""
    from clients import Wire
    from kwire.coordinator.consumer_protocol import encode_assignment, encode_subscription
    from kwire.protocol.errors import ErrorCode as E
    from kwire.protocol.generated import (
        add_offsets_to_txn_request as ao, describe_transactions_request as dt,
        init_producer_id_request as ip, join_group_request as jg, offset_fetch_request as of,
        sync_group_request as sg, txn_offset_commit_request as tc)

    topic = _topic(broker.bootstrap, 2)
    tid, group = f"gen-{uuid.uuid4().hex[:6]}", f"g-gen-{uuid.uuid4().hex[:6]}"
    wire = Wire(broker.bootstrap)
    try:
        def join(member_id: str) -> tuple[str, int]:
            req = jg.JoinGroupRequest(group_id=group, session_timeout_ms=30_000, rebalance_timeout_ms=30_000,
                                      member_id=member_id, protocol_type="consumer", protocols=[
                                          jg.JoinGroupRequestProtocol(name="range",
                                                                      metadata=encode_subscription([topic]))])
            r = wire(11, 5, req)
            if r.error_code == E.MEMBER_ID_REQUIRED:
                req.member_id = r.member_id
                r = wire(11, 5, req)
            assert r.error_code == 0, r
            s = wire(14, 5, sg.SyncGroupRequest(
                group_id=group, generation_id=r.generation_id, member_id=r.member_id, assignments=[
                    sg.SyncGroupRequestAssignment(member_id=r.member_id,
                                                  assignment=encode_assignment({topic: [0, 1]}))]))
            assert s.error_code == 0, s
            return r.member_id, r.generation_id

        me, first = join("")
        me2, current = join(me)  # the leader rejoins: a new generation
        assert (me2, first, current) == (me, 1, 2)

        r = wire(22, 4, ip.InitProducerIdRequest(transactional_id=tid, transaction_timeout_ms=60000))
        assert r.error_code == 0
        pid, epoch = r.producer_id, r.producer_epoch
        assert wire(25, 3, ao.AddOffsetsToTxnRequest(transactional_id=tid, producer_id=pid,
                                                     producer_epoch=epoch, group_id=group)).error_code == 0

        def describe():
            s = wire(65, 0, dt.DescribeTransactionsRequest(transactional_ids=[tid])).transaction_states[0]
            return (s.error_code, s.transaction_state, s.producer_id, s.producer_epoch,
                    sorted((t.topic, p) for t in s.topics for p in t.partitions))

        before = describe()
        assert before[:2] == (0, "Ongoing") and [t for t, _ in before[4]] == ["__consumer_offsets"]

        def commit(version: int, generation: int) -> list[int]:
            req = tc.TxnOffsetCommitRequest(
                transactional_id=tid, group_id=group, producer_id=pid, producer_epoch=epoch,
                generation_id=generation, member_id=me, topics=[tc.TxnOffsetCommitRequestTopic(
                    name=topic, partitions=[tc.TxnOffsetCommitRequestPartition(partition_index=p,
                                                                               committed_offset=5)
                                            for p in (0, 1)])])
            return [p.error_code for t in wire(28, version, req).topics for p in t.partitions]

        def stable_offsets() -> list[tuple[int, int]]:
            f = wire(9, 8, of.OffsetFetchRequest(require_stable=True, groups=[of.OffsetFetchRequestGroup(
                group_id=group, topics=[of.OffsetFetchRequestTopics(name=topic, partition_indexes=[0, 1])])]))
            assert f.groups[0].error_code == 0
            return [(p.committed_offset, p.error_code) for p in f.groups[0].topics[0].partitions]

        for version in (3, 4):  # v3+ carry the generation (KIP-447)
            assert commit(version, first) == [E.ILLEGAL_GENERATION] * 2, version
            assert describe() == before
            assert stable_offsets() == [(-1, E.NONE)] * 2  # nothing pending, nothing committed
        assert commit(3, current) == [E.NONE, E.NONE]
        assert stable_offsets() == [(-1, E.UNSTABLE_OFFSET_COMMIT)] * 2  # now pending
        assert describe() == before
    finally:
        wire.close()


def test_fencing_with_kafka_python_and_aiokafka(broker):
    import asyncio

    import aiokafka
    import aiokafka.errors
    import kafka
    import kafka.errors

    b = broker.bootstrap
    topic = _topic(b, 2)
    tid = f"kpf-{uuid.uuid4().hex[:6]}"
    first = kafka.KafkaProducer(bootstrap_servers=b, transactional_id=tid)
    first.init_transactions()
    first.begin_transaction()
    first.send(topic, value=b"zombie", partition=0).get(30)
    second = kafka.KafkaProducer(bootstrap_servers=b, transactional_id=tid)
    second.init_transactions()  # fences the first and aborts its transaction
    second.begin_transaction()
    second.send(topic, value=b"kp-winner", partition=0).get(30)
    second.commit_transaction()
    second.close()
    # a partition not yet in its transaction: AddPartitionsToTxn with the fenced epoch
    with pytest.raises(kafka.errors.ProducerFencedError):
        first.send(topic, value=b"zombie-2", partition=1).get(30)
        first.commit_transaction()
    first.close(timeout=5)

    unretrieved: list[dict] = []

    async def aio() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: unretrieved.append(ctx))
        atid = f"aiof-{uuid.uuid4().hex[:6]}"
        p1 = aiokafka.AIOKafkaProducer(bootstrap_servers=b, transactional_id=atid)
        await p1.start()
        await p1.begin_transaction()
        await p1.send_and_wait(topic, value=b"zombie", partition=0)
        p2 = aiokafka.AIOKafkaProducer(bootstrap_servers=b, transactional_id=atid)
        await p2.start()
        async with p2.transaction():
            await p2.send_and_wait(topic, value=b"aio-winner", partition=0)
        await p2.stop()
        try:
            with pytest.raises(aiokafka.errors.ProducerFenced):
                await p1.send_and_wait(topic, value=b"zombie-2", partition=1)
        finally:
            await p1.stop()

    asyncio.run(aio())
    # The fenced producer leaves futures holding ProducerFenced that nobody can await (its
    # transaction can neither commit nor abort). Collected at an arbitrary later moment, the
    # default handler would log them with a formatted traceback, and on Python 3.11.7 that
    # breaks an ast.parse running at the moment (pytest's import rewriting at session end:
    # "SystemError: AST constructor recursion depth mismatch"). The loop's handler (set in
    # aio) keeps them instead; collect them now and check that they are only that.
    gc.collect()
    assert {type(ctx.get("exception")) for ctx in unretrieved} <= {aiokafka.errors.ProducerFenced}
    assert sorted(_consume(b, topic, "read_committed", 2)) == [b"aio-winner", b"kp-winner"]
