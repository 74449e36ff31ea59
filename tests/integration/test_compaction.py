"""Log compaction against real clients: a keyed topic with updates and deletes, compacted.

One in-process broker for the module (so the tests can wait on its cleaner's passes
instead of sleeping), ``kwire serve`` subprocesses for the kill and fault tests. Topic
configs as a Kafka user sets them: ``cleanup.policy=compact``, tiny segments
(``segment.ms`` and Kafka's test-only ``internal.segment.bytes``),
``min.cleanable.dirty.ratio=0.01``.

* kafka-python produces 30 keys x 6 rounds, then tombstones for 10 keys, while
  ``min.compaction.lag.ms`` holds the cleaner off; DescribeLogDirs (kafka-python's admin)
  gives the partition's size. IncrementalAlterConfigs lowers the lag to 0; once the cleaner
  ran, kafka-python, confluent-kafka, aiokafka, kcat and the Java client (``tests/java``,
  when its jars are present) each read the partition from offset 0: exactly the latest
  value per key (at its original offset, gaps in between), the 10 tombstones still there.
  ``delete.retention.ms`` is a day meanwhile, so no client's read can race the tombstones'
  expiry however slow the machine is;
* then ``delete.retention.ms`` goes down to 3 s and 15 keys are deleted (again): the pass
  that keeps the new tombstones stamps their delete horizon (KIP-534), a later pass drops
  them, and every client reads the latest value per key and no tombstone; DescribeLogDirs
  sizes shrank below the size before cleaning;
* a keyless record is refused (INVALID_RECORD, "Compacted topic cannot accept message
  without key") by the broker for kafka-python and confluent-kafka;
* an idempotent producer's last batch, emptied by the cleaner and kept as an empty batch
  (Kafka keeps it for the producer's state), alone in its segment: every client reads past it;
* ``kwire serve`` killed -9 mid-pass (its worker held by ``clean=STALL+N`` between two
  cleaned segments), restarted: the half-made files are gone, the log is complete before
  and after the cleaner's next pass, and the worker process did not outlive the broker;
* ``clean=EIO`` (KWIRE_FAULTS_FILE) in a ``kwire serve``: the pass is abandoned, the log
  unchanged and served, the dir online; restarted without the fault, it is cleaned;
* a Kafka Connect-style config topic (compacted, RF 1, one partition): connector configs
  written and rewritten by key, read back in full as a worker does at start-up.
"""

from __future__ import annotations

import os
import time

import pytest

from clients import (AIOKafkaClient, ConfluentClient, KafkaPythonClient, Msg, kcat, kcat_path,
                     wait_until, wire_size)

import javaclient

pytestmark = [pytest.mark.timeout(240)]

RETENTION_MS = 3000
CONFIGS = {"cleanup.policy": "compact", "segment.ms": "100", "internal.segment.bytes": "16384",
           "min.cleanable.dirty.ratio": "0.01", "delete.retention.ms": str(RETENTION_MS)}


@pytest.fixture(scope="module")
def cbroker(tmp_path_factory):
    from conftest import InProcessBroker, _overrides

    d = tmp_path_factory.mktemp("kwire-compaction")
    b = InProcessBroker(d, _overrides(d, None, {}))
    yield b
    b.stop()


def logs_of(b):
    return b.server.broker.logs


def passes(b) -> int:
    return logs_of(b).cleaner.stats["passes"]


def wait_for_clean(b, topic: str, before: int, *, check=None, timeout: float = 60) -> None:
    """Wait until the cleaner finished a pass after ``before`` and ``check()`` holds."""
    wait_until(lambda: passes(b) > before and (check is None or check()), timeout=timeout)


def latest_per_key(sent):
    last = {}
    for r in sent:
        last[r.key] = r
    return last


def expected(sent, active: int, hw: int, *, tombstones: bool) -> list[tuple]:
    """What a compacted log holds: the latest record per key below the active segment
    (tombstones only while kept), and everything from the active segment on."""
    last = latest_per_key(r for r in sent if r.offset < active)
    out = {(r.offset, r.key, r.value) for r in last.values() if tombstones or r.value is not None}
    out |= {(r.offset, r.key, r.value) for r in sent if active <= r.offset < hw}
    return sorted(out)


def cleaned_up_to_active(b, topic: str, plog):
    active = plog.active_segment.base_offset
    return lambda: logs_of(b).cleaner.checkpoints.get((topic, 0), -1) >= active


def count_records(plog) -> int:
    from kwire.records.decode import decode_batches

    n = 0
    for seg in plog.segments:
        with open(seg.log_path, "rb") as f:
            n += sum(len(b.records) for b in decode_batches(f.read()))
    return n


def read_kcat(bootstrap: str, topic: str) -> list[tuple[int, bytes | None, bytes | None]]:
    r = kcat("-b", bootstrap, "-C", "-t", topic, "-p", "0", "-o", "beginning", "-e", "-q", "-Z",
             "-f", "%o|%k|%s\\n", "-X", "socket.timeout.ms=10000")
    assert r.returncode == 0, r.stderr
    out = []
    for line in r.stdout.splitlines():
        off, k, v = line.split("|", 2)
        out.append((int(off), None if k == "NULL" else k.encode(), None if v == "NULL" else v.encode()))
    return out


def readers(bootstrap):
    out = [KafkaPythonClient(bootstrap), ConfluentClient(bootstrap), AIOKafkaClient(bootstrap)]
    return out


def read_java(bootstrap: str, topic: str, end: int) -> list[tuple]:
    lines = javaclient.run("consume", bootstrap, topic, "read_uncommitted", f"0=b:{end}")
    return [(ln["offset"], javaclient.unb64(ln["key"]), javaclient.unb64(ln["value"]))
            for ln in lines if ln["type"] == "record"]


def seen_by_all(b, topic: str, count: int) -> dict[str, list[tuple]]:
    """What each client reads from offset 0 up to the high watermark: (offset, key, value)."""
    seen = {}
    for c in readers(b.bootstrap):
        recs = c.consume(topic, [0], count, timeout=20)
        seen[c.name] = [(r.offset, r.key, r.value) for r in recs]
    if kcat_path() is not None:
        seen["kcat"] = read_kcat(b.bootstrap, topic)
    if javaclient.jar_dir() is not None:
        seen["java"] = read_java(b.bootstrap, topic, logs_of(b).get(topic, 0).high_watermark)
    return seen


def alter_topic(bootstrap: str, topic: str, configs: dict[str, str]) -> None:
    """IncrementalAlterConfigs SET through confluent-kafka's admin, as a user changes a topic."""
    from confluent_kafka.admin import (AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource,
                                       ResourceType)

    res = ConfigResource(ResourceType.TOPIC, topic, incremental_configs=[
        ConfigEntry(k, v, incremental_operation=AlterConfigOpType.SET) for k, v in configs.items()])
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.incremental_alter_configs([res])[res].result(timeout=30)


def tombstones_on_disk(plog) -> bool | None:
    """Whether a closed segment of ``plog`` holds a tombstone (None: swapped while reading)."""
    from kwire.records.decode import decode_batches

    try:
        for seg in plog.segments[:-1]:
            with open(seg.log_path, "rb") as f:
                for b in decode_batches(f.read()):
                    if any(r.value is None for r in b.records):
                        return True
    except FileNotFoundError:  # swapped meanwhile (the loop thread cleans)
        return None
    return False


HOLD_MS = str(24 * 3600 * 1000)


def test_compacted_topic_read_back_by_every_client(cbroker, topic_name):
    kp = KafkaPythonClient(cbroker.bootstrap)
    # min.compaction.lag.ms holds the cleaner off while the log is written and measured;
    # delete.retention.ms of a day keeps the first tombstones for the whole first phase
    kp.create_topic(topic_name, 1, dict(CONFIGS, **{"min.compaction.lag.ms": HOLD_MS,
                                                    "delete.retention.ms": HOLD_MS}))
    sent = []
    for rnd in range(6):
        sent += kp.produce(topic_name, [Msg(b"key-%02d" % k, b"v%d-%02d" % (rnd, k) + b"." * 60,
                                            partition=0) for k in range(30)], linger_ms=0)
        time.sleep(0.15)  # segment.ms: each round lands in new segments
    sent += kp.produce(topic_name, [Msg(b"key-%02d" % k, None, partition=0) for k in range(10)])
    time.sleep(0.15)
    sent += kp.produce(topic_name, [Msg(b"other-%d" % i, b"o" * 100, partition=0)
                                    for i in range(30)])  # rolls past the tombstones
    plog = logs_of(cbroker).get(topic_name, 0)
    assert len(plog.segments) > 7 and (topic_name, 0) not in logs_of(cbroker).cleaner.checkpoints
    size_before = wire_size(cbroker.bootstrap, topic_name)
    assert size_before == plog.size_bytes > sum(len(r.value or b"") + len(r.key) for r in sent)

    # let the cleaner in: everything below the active segment is cleaned
    before = passes(cbroker)
    alter_topic(cbroker.bootstrap, topic_name, {"min.compaction.lag.ms": "0"})
    wait_for_clean(cbroker, topic_name, before, check=cleaned_up_to_active(cbroker, topic_name, plog))
    want = expected(sent, plog.active_segment.base_offset, plog.high_watermark, tombstones=True)
    assert len([w for w in want if w[2] is None]) == 10  # within delete.retention.ms: kept
    assert len(want) < len(sent)
    assert tombstones_on_disk(plog)
    for name, got in seen_by_all(cbroker, topic_name, len(want)).items():
        assert got == want, name
    size_cleaned = wire_size(cbroker.bootstrap, topic_name)
    assert size_cleaned == plog.size_bytes < size_before

    # The pass that kept those tombstones stamped each batch with its delete horizon, a day
    # away (KIP-534; Kafka stamps it once, so a shorter delete.retention.ms does not bring it
    # forward). Under a short retention, delete keys again (the first tombstones are now
    # superseded) and more: the pass that keeps the new tombstones stamps a 3 s horizon,
    # and once it has passed the cleaner comes back and drops them. Writes meanwhile make
    # more of the log dirty, as in real use.
    alter_topic(cbroker.bootstrap, topic_name, {"delete.retention.ms": str(RETENTION_MS)})
    sent += kp.produce(topic_name, [Msg(b"key-%02d" % k, None, partition=0) for k in range(15)])
    for rnd in range(3):
        time.sleep(0.15)
        sent += kp.produce(topic_name, [Msg(b"late-%02d" % k, b"l%d" % rnd + b"." * 80,
                                            partition=0) for k in range(20)], linger_ms=0)
    wait_for_clean(cbroker, topic_name, before, check=lambda: tombstones_on_disk(plog) is False
                   and cleaned_up_to_active(cbroker, topic_name, plog)())
    want = expected(sent, plog.active_segment.base_offset, plog.high_watermark, tombstones=False)
    assert not [w for w in want if w[2] is None]
    assert not {b"key-%02d" % k for k in range(15)} & {w[1] for w in want}
    for name, got in seen_by_all(cbroker, topic_name, len(want)).items():
        assert got == want, name
    # DescribeLogDirs, over the wire, reports the partition's size: it shrank
    assert wire_size(cbroker.bootstrap, topic_name) == plog.size_bytes < size_before


def test_keyless_records_are_refused_on_compacted_topics(cbroker, topic_name):
    kp = KafkaPythonClient(cbroker.bootstrap)
    kp.create_topic(topic_name, 1, {"cleanup.policy": "compact"})
    import kafka.errors as E
    from clients import ProduceFailed

    with pytest.raises(ProduceFailed) as ei:
        kp.produce(topic_name, [Msg(None, b"no key", partition=0)])
    assert isinstance(ei.value.error, E.InvalidRecordError)
    from confluent_kafka import KafkaError, Producer

    errors = []
    p = Producer({"bootstrap.servers": cbroker.bootstrap, "message.timeout.ms": 15000})
    p.produce(topic_name, value=b"no key", partition=0, on_delivery=lambda err, msg: errors.append(err))
    p.flush(20)
    assert errors and errors[0] is not None and errors[0].code() == KafkaError.INVALID_RECORD
    assert kp.produce(topic_name, [Msg(b"k", b"with key", partition=0)])[0].offset == 0


def test_connect_style_config_topic(cbroker, topic_name):
    """Kafka Connect's config topic: compacted, RF 1, one partition, read in full at start."""
    cf = ConfluentClient(cbroker.bootstrap)
    cf.create_topic(topic_name, 1, {"cleanup.policy": "compact", "segment.ms": "100",
                                    "internal.segment.bytes": "8192",
                                    "min.cleanable.dirty.ratio": "0.01"})
    sent = []
    for gen in range(5):
        msgs = [Msg(b"connector-c%d" % c, b'{"name":"c%d","tasks.max":"%d","gen":%d}' % (c, gen + 1, gen),
                    partition=0) for c in range(4)]
        msgs += [Msg(b"task-c%d-%d" % (c, t), b'{"gen":%d}' % gen, partition=0)
                 for c in range(4) for t in range(gen + 1)]
        msgs.append(Msg(b"commit-c%d" % (gen % 4), b'{"tasks":%d}' % (gen + 1), partition=0))
        sent += cf.produce(topic_name, msgs)
        time.sleep(0.15)
    sent += cf.produce(topic_name, [Msg(b"connector-c3", None, partition=0)])  # deleted connector
    time.sleep(0.15)
    sent += cf.produce(topic_name, [Msg(b"target-state-c0", b'{"state":"STARTED"}', partition=0)])
    plog = logs_of(cbroker).get(topic_name, 0)
    wait_for_clean(cbroker, topic_name, 0, check=cleaned_up_to_active(cbroker, topic_name, plog))
    # a worker starting up reads the whole topic and keeps the last value per key
    got = KafkaPythonClient(cbroker.bootstrap).consume(topic_name, [0], count_records(plog),
                                                       timeout=20)
    state = {}
    for r in got:
        if r.value is None:
            state.pop(r.key, None)
        else:
            state[r.key] = r.value
    want = {k: r.value for k, r in latest_per_key(sent).items() if r.value is not None}
    assert state == want
    assert len(got) < len(sent)


def test_emptied_batch_of_an_idempotent_producer_is_read_past(cbroker, topic_name):
    """The cleaner keeps a producer's last batch as an empty batch (its sequence state); alone in
    its segment, a fetch from offset 0 returns just that batch: every client must move on."""
    from confluent_kafka import Producer

    kp = KafkaPythonClient(cbroker.bootstrap)
    kp.create_topic(topic_name, 1, dict(CONFIGS, **{"internal.segment.bytes": "16384"}))
    big = b"x" * 2800
    p = Producer({"bootstrap.servers": cbroker.bootstrap, "enable.idempotence": True,
                  "linger.ms": 50, "message.timeout.ms": 15000})
    for k in range(5):
        p.produce(topic_name, key=b"k%d" % k, value=big, partition=0)
    assert p.flush(20) == 0
    time.sleep(0.15)
    sent = kp.produce(topic_name, [Msg(b"k%d" % k, b"y" * 2800, partition=0) for k in range(5)])
    time.sleep(0.15)
    sent += kp.produce(topic_name, [Msg(b"f%d" % i, b"z" * 100, partition=0) for i in range(5)])
    plog = logs_of(cbroker).get(topic_name, 0)
    wait_for_clean(cbroker, topic_name, 0, check=cleaned_up_to_active(cbroker, topic_name, plog))
    first = plog.segments[0]
    h = first.read_header_at(0)
    assert h is not None and h.records_count == 0 and h.producer_id >= 0, h
    assert first.size == 61  # the empty batch is all the first segment holds
    want = sorted((r.offset, r.key, r.value) for r in sent if r.offset < plog.high_watermark)
    for name, got in seen_by_all(cbroker, topic_name, len(want)).items():
        assert got == want, name


def _children(pid: int) -> set[int]:
    out = set()
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out |= {int(x) for x in f.read().split()}
    except OSError:
        pass
    return out


def _descendants(pid: int) -> set[int]:
    out = set()
    todo = [pid]
    while todo:
        kids = _children(todo.pop()) - out
        out |= kids
        todo += kids
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_kill_9_while_cleaning_then_restart(spawn_broker, tmp_path, topic_name, faults_file):
    """A ``kwire serve`` killed -9 in the middle of a cleaning pass: its worker process held
    (``clean=STALL+N`` in KWIRE_FAULTS_FILE) after writing its first cleaned segment in full
    and creating the second. The restarted broker removed the half-made files, serves a
    complete log (the latest value of every key, nothing duplicated or invented), cleans it,
    and still serves the latest value of every key; the worker did not outlive the broker."""

    arm = faults_file
    d = tmp_path / "data"
    b = spawn_broker(d)
    kp = KafkaPythonClient(b.bootstrap)
    # segments roll by size only (so none rolls between the count below and the pass), and
    # min.compaction.lag.ms holds the cleaner off while they are written
    kp.create_topic(topic_name, 1, {"cleanup.policy": "compact", "internal.segment.bytes": "65536",
                                    "min.cleanable.dirty.ratio": "0.01",
                                    "min.compaction.lag.ms": HOLD_MS})
    sent = []
    for rnd in range(6):
        sent += kp.produce(topic_name, [Msg(b"key-%04d" % k, b"r%d-" % rnd + b"v" * 300,
                                            partition=0) for k in range(200)], linger_ms=5)
    part = d / f"{topic_name}-0"
    closed = len([n for n in os.listdir(part) if n.endswith(".log")]) - 1
    assert closed >= 4
    # The worker calls the clean site once per dirty segment while mapping, then once per
    # segment and once per cleaned group while writing; each segment is a group of its own
    # (two are more than segment.bytes). Letting closed + 2 calls through stalls it at the
    # first segment of the second group: the first group's files complete, the second's
    # .log.cleaned just created.
    arm(f"clean=STALL+{closed + 2}\n")
    alter_topic(b.bootstrap, topic_name, {"min.compaction.lag.ms": "0"})
    wait_until(lambda: "kwire faults: clean stalled in pid" in b.log_text, timeout=60)
    kids = _descendants(b.proc.pid)  # the forkserver, and the worker it forked
    stalled = int(b.log_text.split("kwire faults: clean stalled in pid ")[1].split()[0])
    assert stalled in kids  # the worker process, not the broker's loop
    files = os.listdir(part)
    assert len([n for n in files if n.endswith(".log.cleaned")]) == 2, files
    assert len([n for n in files if n.endswith(".cleanend")]) == 1, files
    b.kill()
    wait_until(lambda: not any(_alive(k) for k in kids), timeout=30)  # the worker went too

    arm("")
    b2 = spawn_broker(d)
    assert not [n for n in os.listdir(part) if n.endswith((".cleaned", ".cleanend", ".swap"))]
    last = {k: r.value for k, r in latest_per_key(sent).items()}
    by_offset = {r.offset: (r.key, r.value) for r in sent}

    def check_complete(got) -> None:
        offsets = [r.offset for r in got]
        assert offsets == sorted(set(offsets))  # nothing duplicated, in order
        assert all(by_offset[r.offset] == (r.key, r.value) for r in got)  # nothing invented
        assert {r.key: r.value for r in got} == last  # no latest value lost

    # the cleaner may start again at once: whatever it reached, the log reads complete
    got = KafkaPythonClient(b2.bootstrap).consume(topic_name, [0], len(sent), timeout=8)
    check_complete(got)
    wait_until(lambda: f"cleaned {topic_name}-0" in b2.log_text, timeout=60)
    got = ConfluentClient(b2.bootstrap).consume(topic_name, [0], len(sent), timeout=8)
    check_complete(got)
    assert len(got) < len(sent)


def test_io_error_while_cleaning_leaves_the_log_as_it_was(spawn_broker, tmp_path, topic_name,
                                                          faults_file):
    """``clean=EIO`` through KWIRE_FAULTS_FILE (it reaches the cleaner's worker process): the
    pass is abandoned, the log is unchanged and keeps serving, the dir stays online; restarted
    without the fault, the broker cleans it."""

    arm = faults_file
    arm("clean=EIO\n")
    d = tmp_path / "data"
    b = spawn_broker(d)
    kp = KafkaPythonClient(b.bootstrap)
    kp.create_topic(topic_name, 1, CONFIGS)
    sent = []
    for rnd in range(4):
        sent += kp.produce(topic_name, [Msg(b"k%02d" % k, b"r%d" % rnd + b"." * 100, partition=0)
                                        for k in range(20)], linger_ms=0)
        time.sleep(0.15)
    wait_until(lambda: "failed; the log is unchanged and is marked uncleanable" in b.log_text,
               timeout=60)
    assert "LOG DIR OFFLINE" not in b.log_text
    got = kp.consume(topic_name, [0], len(sent), timeout=20)
    assert [(r.offset, r.key, r.value) for r in got] == [(r.offset, r.key, r.value) for r in sent]
    part = d / f"{topic_name}-0"
    assert not [n for n in os.listdir(part) if ".cleaned" in n or n.endswith(".cleanend")]
    b.terminate()
    arm("")
    b2 = spawn_broker(d)
    wait_until(lambda: f"cleaned {topic_name}-0" in b2.log_text, timeout=60)
    from kwire.records.decode import decode_batches

    on_disk = 0
    for name in os.listdir(part):
        if name.endswith(".log"):
            on_disk += sum(len(x.records) for x in decode_batches((part / name).read_bytes()))
    assert on_disk < len(sent)
    got = KafkaPythonClient(b2.bootstrap).consume(topic_name, [0], on_disk, timeout=20)
    assert len(got) == on_disk
    last = latest_per_key(sent)
    assert {r.key: r.value for r in got} == {k: r.value for k, r in last.items()}
