"""Log compaction of a transactional topic, with real clients (Kafka's cleaner rules).

One in-process broker (so the test can wait on its cleaner's passes and read the
partition's files with kwire's own reader). A compacted topic (tiny segments,
``min.cleanable.dirty.ratio=0.01``, ``delete.retention.ms`` 3 s) is written by a
confluent-kafka transactional producer and a kafka-python transactional producer,
committing and aborting transactions over the same keys, with non-transactional
kafka-python writes in between. Then:

* after the first pass: no record of an aborted transaction is left in the files;
  confluent-kafka, kafka-python and the Java client (when its jars are present),
  each with read_committed and read_uncommitted, read from offset 0 exactly the
  latest committed (or non-transactional) value per key; the ABORT markers are still
  there (that pass removed their transactions' data) with their index entries;
* more writes make the log dirty again: the next pass finds the aborted
  transactions' data gone, stamps their markers with a delete horizon and drops
  their index entries; the pass after ``delete.retention.ms`` removes them (checked
  in the files); every client reads the same view again;
* both producers carry on transactionally after the cleaning (same producer
  instances: no OUT_OF_ORDER_SEQUENCE_NUMBER / UNKNOWN_PRODUCER_ID), and a
  read_committed consumer sees their new values.
"""

from __future__ import annotations

import time
import uuid

import pytest

from clients import KafkaPythonClient, Msg, wait_until

import javaclient

ck = pytest.importorskip("confluent_kafka")

pytestmark = [pytest.mark.timeout(240)]

RETENTION_MS = 3000
CONFIGS = {"cleanup.policy": "compact", "segment.ms": "100", "internal.segment.bytes": "16384",
           "min.cleanable.dirty.ratio": "0.01", "delete.retention.ms": str(RETENTION_MS)}
SEGMENT_MS_S = 0.15  # longer than segment.ms: the next append rolls a new segment


@pytest.fixture(scope="module")
def tbroker(tmp_path_factory):
    from conftest import InProcessBroker, _overrides

    d = tmp_path_factory.mktemp("kwire-compaction-txn")
    b = InProcessBroker(d, _overrides(d, None, {}))
    yield b
    b.stop()


def cleaner(b):
    return b.server.broker.logs.cleaner


def file_batches(plog):
    """Every batch of the closed segments, decoded from the files by kwire's reader."""
    from kwire.records.decode import decode_batches

    out = []
    for seg in plog.segments[:-1]:
        try:
            with open(seg.log_path, "rb") as f:
                out += decode_batches(f.read())
        except FileNotFoundError:  # swapped meanwhile: the caller retries
            return None
    return out


def markers(plog, ctype: int):
    from kwire.records.control import control_type

    bs = file_batches(plog)
    if bs is None:
        return None
    return [b for b in bs if b.header.is_control and b.records
            and control_type(b.records[0].key) == ctype]


class Confluent:
    """A confluent-kafka transactional producer."""

    def __init__(self, bootstrap: str) -> None:
        self.p = ck.Producer({"bootstrap.servers": bootstrap, "linger.ms": 5,
                              "transactional.id": f"cft-{uuid.uuid4().hex[:8]}"})
        self.p.init_transactions(60)

    def txn(self, topic, items, commit: bool) -> None:
        self.p.begin_transaction()
        for k, v in items:
            self.p.produce(topic, key=k, value=v, partition=0)
        if commit:
            self.p.commit_transaction(60)
        else:
            self.p.flush(60)  # the records are in the log before the abort
            self.p.abort_transaction(60)


class KafkaPython:
    """A kafka-python transactional producer."""

    def __init__(self, bootstrap: str) -> None:
        import kafka

        self.p = kafka.KafkaProducer(bootstrap_servers=bootstrap,
                                     transactional_id=f"kpt-{uuid.uuid4().hex[:8]}")
        self.p.init_transactions()

    def txn(self, topic, items, commit: bool) -> None:
        self.p.begin_transaction()
        for k, v in items:
            self.p.send(topic, key=k, value=v, partition=0)
        self.p.flush()
        if commit:
            self.p.commit_transaction()
        else:
            self.p.abort_transaction()


def read_confluent(bootstrap, topic, isolation, end):
    c = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex[:8]}",
                     "enable.auto.commit": False, "isolation.level": isolation,
                     "fetch.wait.max.ms": 200})
    out = []
    try:
        c.assign([ck.TopicPartition(topic, 0, ck.OFFSET_BEGINNING)])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            pos = c.position([ck.TopicPartition(topic, 0)])[0].offset
            if pos >= end:
                break
            for m in c.consume(500, 0.2):
                assert not m.error(), m.error()
                out.append((m.offset(), m.key(), m.value()))
    finally:
        c.close()
    return out


def read_kafka_python(bootstrap, topic, isolation, end):
    import kafka

    c = kafka.KafkaConsumer(bootstrap_servers=bootstrap, isolation_level=isolation,
                            enable_auto_commit=False, fetch_max_wait_ms=200)
    out = []
    try:
        tp = kafka.TopicPartition(topic, 0)
        c.assign([tp])
        c.seek_to_beginning(tp)
        deadline = time.monotonic() + 30
        while c.position(tp) < end and time.monotonic() < deadline:
            for recs in c.poll(timeout_ms=200).values():
                out += [(r.offset, r.key, r.value) for r in recs]
    finally:
        c.close()
    return out


def read_java(bootstrap, topic, isolation, end):
    lines = javaclient.run("consume", bootstrap, topic, isolation, f"0=b:{end}")
    return [(ln["offset"], javaclient.unb64(ln["key"]), javaclient.unb64(ln["value"]))
            for ln in lines if ln["type"] == "record"]


def views(b, topic, end):
    """(client, isolation) -> (offset, key, value) read from offset 0 up to ``end``."""
    readers = [("confluent", read_confluent), ("kafka-python", read_kafka_python)]
    if javaclient.jar_dir() is not None:
        readers.append(("java", read_java))
    return {(name, iso): fn(b.bootstrap, topic, iso, end) for name, fn in readers
            for iso in ("read_committed", "read_uncommitted")}


def check_views(b, topic, plog, want: dict) -> None:
    """Every client, both isolation levels: the latest value of every key is ``want``'s, and
    every key written by the transactions (all below the cleaned section's end) appears once."""
    end = plog.high_watermark
    assert plog.last_stable_offset == end
    cleaned = sorted((k, v) for k, v in want.items() if not k.startswith(b"fill"))
    for who, got in views(b, topic, end).items():
        offsets = [o for o, _, _ in got]
        assert offsets == sorted(set(offsets)), who
        assert {k: v for _, k, v in got} == want, who
        assert sorted((k, v) for _, k, v in got if not k.startswith(b"fill")) == cleaned, who


def test_transactional_compacted_topic_cleaned_as_kafka_does(tbroker, topic_name, request):
    from kwire.records.control import ABORT

    b = tbroker
    kp = KafkaPythonClient(b.bootstrap)
    kp.create_topic(topic_name, 1, CONFIGS)
    cf, kpt = Confluent(b.bootstrap), KafkaPython(b.bootstrap)
    want: dict[bytes, bytes] = {}

    def txn(producer, items, commit):
        producer.txn(topic_name, items, commit)
        if commit:
            want.update(items)
        time.sleep(SEGMENT_MS_S)

    def plain(items):
        kp.produce(topic_name, [Msg(k, v, partition=0) for k, v in items])
        want.update(items)
        time.sleep(SEGMENT_MS_S)

    keys = [b"k%02d" % i for i in range(20)]
    cleaner(b).enabled = False  # the first pass sees every transaction at once
    request.addfinalizer(lambda: setattr(cleaner(b), "enabled", True))
    txn(cf, [(k, b"c1-" + k + b"." * 200) for k in keys], commit=True)
    txn(cf, [(k, b"ABORTED-1-" + k) for k in keys], commit=False)
    plain([(k, b"plain-" + k) for k in keys[10:15]])
    txn(kpt, [(k, b"ABORTED-2-" + k) for k in keys[:5]], commit=False)
    txn(kpt, [(k, b"kp-" + k) for k in keys[15:]], commit=True)
    txn(cf, [(k, b"c2-" + k) for k in keys[5:10]], commit=True)
    txn(cf, [(b"gone-%d" % i, b"ABORTED-3") for i in range(5)], commit=False)  # keys only aborted
    txn(cf, [(b"tail-%d" % i, b"t") for i in range(3)], commit=True)
    # each producer's last data batch is committed (Kafka keeps a producer's last batch, even
    # emptied, and with it the marker of an aborted one)
    plain([(b"fill-x%d" % i, b"f" * 100) for i in range(20)])  # the active segment from here
    plog = b.server.broker.logs.get(topic_name, 0)
    active = plog.active_segment.base_offset
    assert len(plog.aborted_transactions(0, plog.log_end_offset)) == 3
    cleaner(b).enabled = True
    wait_until(lambda: cleaner(b).checkpoints.get((topic_name, 0), -1) >= active, timeout=60)

    # pass 1: the aborted records are gone from the files; their markers stay, indexed
    bs = file_batches(plog)
    assert bs is not None
    assert not [r for x in bs for r in x.records if r.value and r.value.startswith(b"ABORTED")]
    assert len(markers(plog, ABORT)) == 3
    assert len(plog.aborted_transactions(0, plog.log_end_offset)) == 3
    check_views(b, topic_name, plog, want)

    # more writes: a pass finds the aborted transactions' data gone and stamps their markers;
    # delete.retention.ms later the cleaner comes back by itself and removes them
    start = time.monotonic()
    removed_before = cleaner(b).stats["markers_removed"]  # over every pass: more than one may run
    for rnd in range(3):
        plain([(b"fill-y%d" % i, b"r%d" % rnd) for i in range(10)])
    plain([(b"fill-z%d" % i, b"z") for i in range(5)])
    wait_until(lambda: markers(plog, ABORT) == [], timeout=60)
    assert time.monotonic() - start >= RETENTION_MS / 1000  # not before the horizon
    assert plog.aborted_transactions(0, plog.log_end_offset) == []
    # the cleaner thread counts a pass after its swap and checkpoint write: the markers can be
    # gone from the log a moment before the count says so
    wait_until(lambda: cleaner(b).stats["markers_removed"] - removed_before >= 3, timeout=30)
    check_views(b, topic_name, plog, want)

    # the producers carry on transactionally after the cleaning
    txn(cf, [(b"k00", b"after-cf")], commit=True)
    txn(kpt, [(b"k01", b"after-kp")], commit=True)
    txn(cf, [(b"k02", b"ABORTED-after")], commit=False)
    txn(cf, [(b"k03", b"after-cf-2")], commit=True)
    got = {k: v for _, k, v in read_confluent(b.bootstrap, topic_name, "read_committed",
                                               plog.high_watermark)}
    assert (got[b"k00"], got[b"k01"], got[b"k02"], got[b"k03"]) == \
        (b"after-cf", b"after-kp", want[b"k02"], b"after-cf-2")
    kpt.p.close()


def test_stamped_markers_are_read_past_by_every_client(tbroker, topic_name):
    """With a long ``delete.retention.ms`` the ABORT markers of cleaned-away transactions stay,
    stamped with their delete horizon (attribute bit 6, the horizon as base timestamp): every
    client, both isolation levels, reads past them and sees the committed values only."""
    from kwire.records.batch import DELETE_HORIZON_MASK
    from kwire.records.control import ABORT

    b = tbroker
    kp = KafkaPythonClient(b.bootstrap)
    kp.create_topic(topic_name, 1, dict(CONFIGS, **{"delete.retention.ms": "3600000"}))
    cf = Confluent(b.bootstrap)
    want: dict[bytes, bytes] = {}
    keys = [b"s%02d" % i for i in range(10)]
    for rnd in range(2):
        cf.txn(topic_name, [(k, b"ABORTED-%d" % rnd) for k in keys], commit=False)
        cf.txn(topic_name, [(k, b"c%d-" % rnd + k) for k in keys], commit=True)
        want.update((k, b"c%d-" % rnd + k) for k in keys)
        time.sleep(SEGMENT_MS_S)
    plog = b.server.broker.logs.get(topic_name, 0)

    def stamped():
        found = markers(plog, ABORT)
        return found is not None and len(found) == 2 and all(
            m.header.attributes & DELETE_HORIZON_MASK for m in found)

    for rnd in range(6):  # dirty data until a pass found the aborted data gone (the second)
        kp.produce(topic_name, [Msg(b"fill-%d" % i, b"r%d" % rnd, partition=0) for i in range(5)])
        want.update((b"fill-%d" % i, b"r%d" % rnd) for i in range(5))
        time.sleep(SEGMENT_MS_S)
        if stamped():
            break
    wait_until(stamped, timeout=60)
    now_ms = int(time.time() * 1000)
    for m in markers(plog, ABORT):
        assert now_ms < m.header.base_timestamp <= now_ms + 3600_000  # the horizon
    assert plog.aborted_transactions(0, plog.log_end_offset) == []
    check_views(b, topic_name, plog, want)
