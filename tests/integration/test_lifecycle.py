"""The broker's lifecycle as an operator sees it: start, run, stop, restart.

* SIGTERM with a long-poll Fetch in flight: the fetch is answered at once
  (not after its max_wait_ms), the connection is then closed, new connections
  are refused, the process exits 0 with a clean-shutdown line.
* SIGINT is the same clean shutdown: exit 0, the log dir's clean-shutdown
  marker is written, and the restart loads the logs as a clean shutdown
  (no recovery) with every record in place.
* Retention applied by the running broker (``log.retention.check.interval.ms``
  = 200) once the topic's limit is lowered with IncrementalAlterConfigs:
  ``retention.ms`` deletes the closed segments whose records all have old
  CreateTime timestamps, ``retention.bytes`` the oldest segments while what is
  left stays >= the limit (Kafka's rule); the expected new log start offset is
  computed from the segment files beforehand. Seen through real clients: ListOffsets earliest
  (kafka-python ``beginning_offsets``) moves above 0, a consumer at offset 0
  gets OFFSET_OUT_OF_RANGE (raised with ``auto_offset_reset='none'``, reset to
  the new log start offset with ``'earliest'``).
* Idempotent producer state survives kill -9 (``flush.messages=1``): after the
  restart the retry of an acknowledged batch is acknowledged at its original
  base offset and stored once, the next sequence is appended at the next
  offset, and a sequence gap is OUT_OF_ORDER_SEQUENCE_NUMBER.
* ``kwire serve server.properties --override ...`` as a user runs it: the
  file's settings apply (``num.partitions`` for auto-created topics, ``log.dirs``),
  overrides win over the file, unknown keys are warned about and ignored, a bad
  value exits 2 naming the key, ``--help`` exits 0.

Brokers are ``python -m kwire serve`` subprocesses (``spawn_broker``, or a
Popen here when a properties file is needed); raw-protocol helpers come from
test_faults.py.
"""

from __future__ import annotations

import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource, KafkaAdminClient
from kafka.errors import OffsetOutOfRangeError
from clients import wait_until
from test_restart import create_topic
from test_faults import (
    FETCH,
    INIT_PRODUCER_ID,
    NONE,
    OUT_OF_ORDER_SEQUENCE_NUMBER,
    Raw,
    idempotent_producer,
    pick,
    produce_raw,
)

from kwire.protocol import codec
from kwire.protocol.generated.fetch_request import FetchPartition, FetchRequest, FetchTopic
from kwire.protocol.generated.init_producer_id_request import InitProducerIdRequest
from kwire.records.builder import build_batch

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]
CLEAN_SHUTDOWN_FILE = ".kwire_cleanshutdown"


def addr(bootstrap: str) -> tuple[str, int]:
    host, port = bootstrap.rsplit(":", 1)
    return host, int(port)


def refuses_connections(bootstrap: str) -> bool:
    try:
        socket.create_connection(addr(bootstrap), timeout=1).close()
    except (ConnectionRefusedError, ConnectionResetError):
        return True
    return False


def produce(bootstrap: str, topic: str, values, timestamp_ms: int | None = None, partition: int = 0):
    """Send every value (acks=all), wait for all acks; return the offsets.

    Batches stay small (``batch_size``) so they fit the 1 KiB segments of the retention tests.
    """
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=0, request_timeout_ms=10_000,
                             max_block_ms=10_000, batch_size=512)
    try:
        futures = [producer.send(topic, value=v, partition=partition, timestamp_ms=timestamp_ms)
                   for v in values]
        producer.flush(timeout=30)
        return [f.get(timeout=30).offset for f in futures]
    finally:
        producer.close(timeout=10)


def offsets(bootstrap: str, topic: str, partition: int = 0) -> tuple[int, int]:
    """(earliest, latest) by ListOffsets through kafka-python."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, request_timeout_ms=10_000)
    try:
        tp = TopicPartition(topic, partition)
        return consumer.beginning_offsets([tp])[tp], consumer.end_offsets([tp])[tp]
    finally:
        consumer.close()


def consume_from(bootstrap: str, topic: str, offset: int, end: int, reset: str,
                 timeout: float = 20) -> list:
    """Assign partition 0, seek to ``offset``, read until the position reaches ``end``."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False,
                             auto_offset_reset=reset, request_timeout_ms=15_000, fetch_max_wait_ms=100)
    try:
        tp = TopicPartition(topic, 0)
        consumer.assign([tp])
        consumer.seek(tp, offset)
        got = []
        deadline = time.monotonic() + timeout
        while consumer.position(tp) < end:
            assert time.monotonic() < deadline, f"stuck at {consumer.position(tp)} of {end}"
            for msgs in consumer.poll(timeout_ms=300).values():
                got += [(m.offset, m.value) for m in msgs]
        return got
    finally:
        consumer.close()


def fetch_request(topic: str, offset: int, max_wait_ms: int) -> FetchRequest:
    return FetchRequest(replica_id=-1, max_wait_ms=max_wait_ms, min_bytes=1, max_bytes=1 << 20,
                        session_id=0, session_epoch=-1, topics=[FetchTopic(
                            topic=topic, partitions=[FetchPartition(
                                partition=0, fetch_offset=offset, partition_max_bytes=1 << 20)])],
                        forgotten_topics_data=[], rack_id="")


# -- SIGTERM / SIGINT ---------------------------------------------------------------------

def test_sigterm_answers_the_in_flight_long_poll_then_exits_0(spawn_broker, topic_name):
    b = spawn_broker()
    bs = b.bootstrap
    create_topic(bs, topic_name, 1)
    assert produce(bs, topic_name, [b"a", b"b", b"c"]) == [0, 1, 2]
    fe_v = pick(bs, FETCH, 12)
    max_wait_ms = 6000

    with Raw(bs, timeout=15) as waiting:
        corr = waiting.next_corr()
        waiting.send(codec.encode_request(FETCH, fe_v, corr, "lifecycle", fetch_request(topic_name, 3, max_wait_ms)))
        # A round trip on a second connection, sent after the fetch reached the broker's
        # socket: once it is answered the broker has read (and parked) the fetch too.
        with Raw(bs) as other:
            other.request(INIT_PRODUCER_ID, pick(bs, INIT_PRODUCER_ID, 4),
                          InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=60_000))
        readable, _, _ = select.select([waiting.sock], [], [], 0.3)
        assert not readable, "the fetch at the log end was answered without waiting"

        t0 = time.monotonic()
        b.proc.send_signal(signal.SIGTERM)
        data = waiting.read_frame()
        answered_after = time.monotonic() - t0
        got_corr, resp = codec.decode_response(FETCH, fe_v, data)
        assert got_corr == corr
        assert resp.error_code == NONE
        ((p,),) = [t.partitions for t in resp.responses]
        assert (p.error_code, p.high_watermark, p.log_start_offset) == (NONE, 3, 0), p
        assert not p.records, p
        assert answered_after < 0.5 * max_wait_ms / 1000, (
            f"in-flight fetch answered {answered_after:.2f}s after SIGTERM: it waited out max_wait_ms")
        assert waiting.closed_by_broker(timeout=10) == b"", "more bytes after the fetch response"

    wait_until(lambda: refuses_connections(bs), 10, what="the listener to close after SIGTERM")
    assert b.proc.wait(30) == 0, f"exit code {b.proc.returncode} after SIGTERM:\n{b.log_text}"
    b.terminate()  # already exited: no second signal, just collects the rest of its log
    assert "Traceback" not in b.log_text and " ERROR " not in b.log_text, b.log_text
    assert "shutdown complete" in b.log_text.lower(), b.log_text


def test_sigint_is_a_clean_shutdown(spawn_broker, tmp_path, topic_name):
    data = tmp_path / "data"
    b1 = spawn_broker(data_dir=data)
    create_topic(b1.bootstrap, topic_name, 1)
    values = [f"v{i}".encode() for i in range(20)]
    assert produce(b1.bootstrap, topic_name, values) == list(range(20))
    b1.proc.send_signal(signal.SIGINT)
    rc = b1.proc.wait(30)
    b1.terminate()  # already exited: no second signal, just collects the rest of its log
    assert rc == 0, f"exit code {rc} after SIGINT:\n{b1.log_text}"
    assert "KeyboardInterrupt" not in b1.log_text and "Traceback" not in b1.log_text, b1.log_text
    assert "shutdown complete" in b1.log_text.lower(), b1.log_text
    assert (data / CLEAN_SHUTDOWN_FILE).is_file(), sorted(os.listdir(data))

    b2 = spawn_broker(data_dir=data)
    loaded = [line for line in b2.log_lines if "partition logs from" in line]
    assert loaded and all("(clean shutdown)" in line for line in loaded), b2.log_text
    assert "unclean" not in b2.log_text.lower(), b2.log_text
    assert not (data / CLEAN_SHUTDOWN_FILE).exists(), "marker kept: a crash now would pass as clean"
    assert consume_from(b2.bootstrap, topic_name, 0, 20, "none") == list(enumerate(values))
    assert b2.terminate() == 0


# -- retention ------------------------------------------------------------------------------

def set_topic_config(bootstrap: str, topic: str, configs: dict) -> None:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10_000)
    try:
        res = admin.alter_configs([ConfigResource("TOPIC", topic, configs=configs)], incremental=True)
        assert all(e is None or getattr(e, "errno", 0) == 0 for e in res["topic"].values()), res
    finally:
        admin.close()


def segment_files(data_dir: str, topic: str) -> list[tuple[int, int]]:
    """(base offset, size) of every segment file of partition 0, oldest first."""
    part = Path(data_dir) / f"{topic}-0"
    return sorted((int(f.stem), f.stat().st_size) for f in part.glob("*.log"))


def assert_out_of_range_at_0(bootstrap: str, topic: str, start: int, end: int, values: dict) -> None:
    with pytest.raises(OffsetOutOfRangeError):
        consume_from(bootstrap, topic, 0, end, "none")
    got = consume_from(bootstrap, topic, 0, end, "earliest")
    assert got and got[0][0] == start, f"reset to {got[:1]}, want log start offset {start}"
    assert got == [(o, values[o]) for o in range(start, end)]


def test_retention_ms_applied_by_the_running_broker(make_broker, topic_name):
    b = make_broker(overrides={"log.retention.check.interval.ms": "200"})
    bs = b.bootstrap
    # Records stamped two hours ago fill closed 1 KiB segments, fresh ones follow.
    create_topic(bs, topic_name, 1, {"internal.segment.bytes": "1024"})
    old = [b"old-%03d-" % i + b"x" * 200 for i in range(20)]
    fresh = [b"new-%03d" % i for i in range(5)]
    two_hours_ago = int(time.time() * 1000) - 2 * 3600 * 1000
    assert produce(bs, topic_name, old, timestamp_ms=two_hours_ago) == list(range(20))
    assert produce(bs, topic_name, fresh) == list(range(20, 25))
    segments = segment_files(b.data_dir, topic_name)
    assert len(segments) >= 4, segments
    # Every segment wholly older than an hour goes: the first kept one holds offset 20.
    want_start = max(base for base, _ in segments if base <= 20)
    assert want_start > 0, segments
    assert offsets(bs, topic_name) == (0, 25), "retention before retention.ms was lowered"

    set_topic_config(bs, topic_name, {"retention.ms": "3600000"})  # read by the next retention run
    wait_until(lambda: offsets(bs, topic_name)[0] > 0, 20, what="retention.ms to move the log start offset")
    assert offsets(bs, topic_name) == (want_start, 25)
    assert [base for base, _ in segment_files(b.data_dir, topic_name)] == \
        [base for base, _ in segments if base >= want_start], "segment files left on disk"
    assert_out_of_range_at_0(bs, topic_name, want_start, 25, dict(enumerate(old + fresh)))


def test_retention_bytes_applied_by_the_running_broker(make_broker, topic_name):
    b = make_broker(overrides={"log.retention.check.interval.ms": "200"})
    bs = b.bootstrap
    create_topic(bs, topic_name, 1, {"internal.segment.bytes": "1024"})
    values = [b"rec-%03d-" % i + b"y" * 300 for i in range(30)]
    assert produce(bs, topic_name, values) == list(range(30))
    segments = segment_files(b.data_dir, topic_name)
    # Kafka's rule: drop the oldest segments while what is left is still >= retention.bytes.
    limit = 3072
    excess, want_start = sum(size for _, size in segments) - limit, 0
    for base, size in segments:
        if excess - size < 0:
            want_start = base
            break
        excess -= size
    assert want_start > 0, segments

    set_topic_config(bs, topic_name, {"retention.bytes": str(limit)})
    wait_until(lambda: offsets(bs, topic_name)[0] > 0, 20, what="retention.bytes to move the log start offset")
    assert offsets(bs, topic_name) == (want_start, 30)
    assert sum(size for _, size in segment_files(b.data_dir, topic_name)) >= limit
    assert_out_of_range_at_0(bs, topic_name, want_start, 30, dict(enumerate(values)))


# -- idempotent producer across kill -9 ----------------------------------------------------

def test_idempotent_producer_state_survives_kill9(spawn_broker, tmp_path, topic_name):
    data = tmp_path / "data"
    overrides = {"log.flush.interval.messages": "1"}
    b1 = spawn_broker(data_dir=data, overrides=overrides)
    create_topic(b1.bootstrap, topic_name, 1)
    with Raw(b1.bootstrap) as r:
        plain = build_batch([(b"p0", b"plain", [], None), (b"p1", b"plain", [], None)])
        assert produce_raw(r, b1.bootstrap, topic_name, 0, plain).base_offset == 0
        batch = idempotent_producer(r, b1.bootstrap)
        first = batch(0, [b"a0", b"a1", b"a2"])
        ack = produce_raw(r, b1.bootstrap, topic_name, 0, first)
        assert (ack.error_code, ack.base_offset) == (NONE, 2), ack
    b1.kill()
    assert b1.proc.returncode == -signal.SIGKILL

    b2 = spawn_broker(data_dir=data, overrides=overrides)
    assert "unclean" in b2.log_text.lower(), b2.log_text
    with Raw(b2.bootstrap) as r:
        retry = produce_raw(r, b2.bootstrap, topic_name, 0, first)
        assert (retry.error_code, retry.base_offset) == (NONE, 2), (
            f"retry of an acknowledged batch after kill -9: {retry}")
        gap = produce_raw(r, b2.bootstrap, topic_name, 0, batch(4, [b"gap"]))  # expected 3
        assert gap.error_code == OUT_OF_ORDER_SEQUENCE_NUMBER, gap
        nxt = produce_raw(r, b2.bootstrap, topic_name, 0, batch(3, [b"b3", b"b4"]))
        assert (nxt.error_code, nxt.base_offset) == (NONE, 5), nxt

    assert offsets(b2.bootstrap, topic_name) == (0, 7)
    got = consume_from(b2.bootstrap, topic_name, 0, 7, "none")
    assert [v for _, v in got] == [b"plain", b"plain", b"v-a0", b"v-a1", b"v-a2", b"v-b3", b"v-b4"]
    assert [o for o, _ in got] == list(range(7))


# -- kwire serve from the command line ---------------------------------------------------------

class ServeProcess:
    """``python -m kwire serve ARGS``; its output collected line by line."""

    SERVING = re.compile(r"kwire serving on (\S+):(\d+)")

    def __init__(self, *args: str) -> None:
        self.lines: list[str] = []
        self.bootstrap = ""
        self.proc = subprocess.Popen([sys.executable, "-m", "kwire", "serve", *args], cwd=ROOT,
                                     env={**os.environ, "PYTHONPATH": str(ROOT)},
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self._ready = threading.Event()
        self._pump = threading.Thread(target=self._read, daemon=True)
        self._pump.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            m = self.SERVING.search(line)
            if m and not self.bootstrap:
                self.bootstrap = f"{m.group(1)}:{m.group(2)}"
                self._ready.set()
        self._ready.set()

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def wait_serving(self, timeout: float = 30) -> str:
        assert self._ready.wait(timeout) and self.bootstrap, f"broker did not start:\n{self.text}"
        return self.bootstrap

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait(30)
        self._pump.join(5)
        return rc


@pytest.fixture
def serve_cli():
    started: list[ServeProcess] = []

    def start(*args) -> ServeProcess:
        p = ServeProcess(*map(str, args))
        started.append(p)
        return p

    yield start
    for p in started:
        if p.proc.poll() is None:
            p.proc.kill()
            p.proc.wait(30)


def write_properties(path: Path, data_dir: Path, extra: str = "") -> Path:
    path.write_text("# a Kafka-style server.properties\n"
                    "listeners=PLAINTEXT://127.0.0.1:0\n"
                    f"log.dirs={data_dir}\n"
                    "num.partitions=3\n"
                    "auto.create.topics.enable=false\n"
                    "group.initial.rebalance.delay.ms=0\n" + extra)
    return path


def test_serve_with_properties_file_and_overrides(serve_cli, tmp_path, topic_name):
    data = tmp_path / "logs"
    props = write_properties(tmp_path / "server.properties", data, "no.such.setting=42\n")
    b = serve_cli(props, "--override", "auto.create.topics.enable=true")
    bs = b.wait_serving()

    producer = KafkaProducer(bootstrap_servers=bs, linger_ms=0, request_timeout_ms=10_000,
                             max_block_ms=15_000)
    try:
        # Auto-creation is on (the override beats the file's false) with the file's num.partitions.
        assert producer.partitions_for(topic_name) == {0, 1, 2}
        md = producer.send(topic_name, value=b"to p2", partition=2).get(timeout=30)
        assert (md.partition, md.offset) == (2, 0)
    finally:
        producer.close(timeout=10)
    assert sorted(p.name for p in data.glob(f"{topic_name}-*")) == [f"{topic_name}-{i}" for i in range(3)]

    warned = [line for line in b.lines if "no.such.setting" in line]
    assert warned and all(" WARNING " in line for line in warned), b.text
    assert "isn't a known config" in warned[0], warned
    assert b.stop() == 0, b.text
    assert "Traceback" not in b.text, b.text


def test_serve_bad_value_exits_2_naming_the_key(tmp_path):
    props = write_properties(tmp_path / "server.properties", tmp_path / "logs")
    props.write_text(props.read_text().replace("num.partitions=3", "num.partitions=abc"))
    p = subprocess.run([sys.executable, "-m", "kwire", "serve", str(props)], cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "num.partitions" in p.stderr and "abc" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr and "kwire serving" not in p.stdout, (p.stdout, p.stderr)

    # The same bad value as an override of a good file.
    props.write_text(props.read_text().replace("num.partitions=abc", "num.partitions=3"))
    p = subprocess.run([sys.executable, "-m", "kwire", "serve", str(props), "--override",
                        "log.retention.check.interval.ms=soon"], cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert "log.retention.check.interval.ms" in p.stderr, p.stderr


def test_serve_help():
    p = subprocess.run([sys.executable, "-m", "kwire", "serve", "--help"], cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0, p.stderr
    assert "usage: kwire serve" in p.stdout and "--override" in p.stdout, p.stdout


def test_log_level_per_logger(serve_cli, tmp_path):
    """``--log-level LEVEL,logger=LEVEL``: the root level, and loggers of one's choice above or below it."""
    quiet = serve_cli(write_properties(tmp_path / "a.properties", tmp_path / "a"), "--log-level", "WARNING")
    quiet.wait_serving()
    assert quiet.stop() == 0, quiet.text
    assert not [line for line in quiet.lines if " INFO " in line], quiet.text  # the root level holds

    chatty = serve_cli(write_properties(tmp_path / "b.properties", tmp_path / "b"),
                       "--log-level", "WARNING,kwire.server=INFO")
    chatty.wait_serving()
    assert chatty.stop() == 0, chatty.text
    info = [line for line in chatty.lines if " INFO " in line]
    assert info and all(" kwire.server" in line for line in info), chatty.text

    p = subprocess.run([sys.executable, "-m", "kwire", "serve", "--log-level", "INFO,kwire.server=LOUD"],
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and "LOUD" in p.stderr and "Traceback" not in p.stderr, (p.stdout, p.stderr)


def test_sigusr2_logs_diagnostics_and_keeps_serving(serve_cli, tmp_path, topic_name):
    b = serve_cli(write_properties(tmp_path / "server.properties", tmp_path / "logs"))
    bs = b.wait_serving()
    b.proc.send_signal(signal.SIGUSR2)
    wait_until(lambda: any("diagnostics (SIGUSR2)" in line for line in b.lines), 10, what="the dump")
    wait_until(lambda: any("asyncio tasks" in line for line in b.lines), 10, what="the task list")
    create_topic(bs, topic_name, 1)  # still serving
    assert b.stop() == 0, b.text
    assert "Traceback" not in b.text, b.text
