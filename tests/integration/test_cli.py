"""The command-line tools as a user runs them: ``python -m kwire topics|produce|consume``.

The tools run against the module's in-process broker (the ``broker`` fixture),
through ``kwire.cli.main`` in this process with stdin/stdout/stderr swapped (see
``kwire()``), and as real ``python -m kwire`` subprocesses where the process is the
point (signals, interactive stdin) and at least once per tool; every test uses its own
topic. What is checked:

* topics: create (partitions, configs), list (regex, internal), describe
  (partition lines with leader/leader epoch/replicas/isr, non-default configs
  only, positional topic names, the under-replicated / unavailable / under-min-
  ISR filters, a note on stderr when a compacted topic's CleanableRatio has no
  metrics endpoint to come from),
  alter (more partitions, set and delete configs), delete; and the errors
  (already exists, unknown topic, fewer partitions) with exit code 1;
* produce -> consume round trip: keys split off by the separator, headers,
  every compression codec, keyed records on the partition Kafka's default
  partitioner picks (murmur2, checked against the Java test vectors and
  kafka-python), round robin without keys, many requests for many lines,
  acks 0/1/all, interactive input sent before stdin closes;
* consume start positions (beginning, offset, timestamp as ms and ISO 8601,
  default = only new records), stop conditions (max messages, timeout), and
  the output formats (default with --print-*, kcat format string, JSON);
* usage errors exit 2 before touching the broker; broker/operation errors
  exit 1 with Kafka's error name in the message.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from kwire.tools.produce import default_partition, murmur2
from cli_inproc import in_process
from procs import sigint_default

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]


def kwire(*args, input: bytes | str | None = None, timeout: float = 60,
          real: bool = False) -> subprocess.CompletedProcess:
    """Run ``kwire ARGS``; stdout as bytes, stderr as text.

    In this process (``kwire.cli.main`` with stdin, stdout and stderr swapped for the call)
    unless ``real``: these tests are about what the tools print and exit with, and an
    interpreter start per call cost most of this module's CPU. A real ``python -m kwire``
    subprocess still runs each family here: topics (``test_unreachable_broker``, one
    ``test_help``), produce (``test_interactive_producer_sends_before_eof``) and consume
    (``test_default_start_is_the_end``, ``test_unbounded_consume_stops_on_signal``).
    """
    if isinstance(input, str):
        input = input.encode()
    if not real:
        return in_process([str(a) for a in args], input or b"")
    proc = subprocess.run([sys.executable, "-m", "kwire", *map(str, args)], input=input,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    proc.stderr = proc.stderr.decode("utf-8", "replace")
    return proc


def ok(proc: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout: {proc.stdout!r}\nstderr: {proc.stderr}"
    return proc


def topics(broker, action, *args, **kw):
    return kwire("topics", action, "--bootstrap-server", broker.bootstrap, *args, **kw)


def produce(broker, topic, *args, input, **kw):
    return kwire("produce", "--bootstrap-server", broker.bootstrap, "--topic", topic, *args,
                 input=input, **kw)


def consume(broker, topic, *args, **kw):
    return kwire("consume", "--bootstrap-server", broker.bootstrap, "--topic", topic, *args, **kw)


def consume_json(broker, topic, *args) -> list[dict]:
    out = ok(consume(broker, topic, "--json", *args)).stdout
    return [json.loads(line) for line in out.decode().splitlines()]


def create(broker, topic, partitions=1, *args):
    ok(topics(broker, "create", "--topic", topic, "--partitions", partitions, *args))


def describe(broker, topic) -> tuple[str, list[str]]:
    lines = ok(topics(broker, "describe", "--topic", topic)).stdout.decode().splitlines()
    return lines[0], lines[1:]


def configs_of(summary: str) -> dict[str, str]:
    text = summary.split("Configs: ", 1)[1].strip()
    return dict(item.split("=", 1) for item in text.split(",")) if text else {}


# --------------------------------------------------------------------------
# topics
# --------------------------------------------------------------------------

def test_topics_lifecycle(broker, topic_name):
    out = ok(topics(broker, "create", "--topic", topic_name, "--partitions", 2,
                    "--replication-factor", 1, "--config", "cleanup.policy=compact",
                    "--config", "retention.ms=3600000"))
    assert out.stdout.decode() == f"Created topic {topic_name}.\n"

    listed = ok(topics(broker, "list")).stdout.decode().splitlines()
    assert topic_name in listed
    assert listed == sorted(listed)
    only = ok(topics(broker, "list", "--topic", topic_name[:10] + ".*")).stdout.decode().split()
    assert topic_name in only and all(n.startswith(topic_name[:10]) for n in only)

    summary, parts = describe(broker, topic_name)
    assert summary.startswith(f"Topic: {topic_name}\tTopicId: ")
    assert "\tPartitionCount: 2\tReplicationFactor: 1\t" in summary
    cfg = configs_of(summary)
    assert cfg["cleanup.policy"] == "compact"
    assert cfg["retention.ms"] == "3600000"
    assert len(parts) == 2
    for i, line in enumerate(parts):
        fields = dict(f.split(": ", 1) for f in line.strip().split("\t"))
        assert fields["Topic"] == topic_name and fields["Partition"] == str(i)
        assert fields["Leader"].isdigit() and fields["LeaderEpoch"].isdigit()
        assert fields["Replicas"] == fields["Leader"] and fields["Isr"] == fields["Leader"]
        assert "UnderReplicated" not in fields

    out = ok(topics(broker, "alter", "--topic", topic_name, "--partitions", 3,
                    "--config", "max.message.bytes=20000", "--delete-config", "retention.ms"))
    assert "partitions 2 -> 3" in out.stdout.decode()
    summary, parts = describe(broker, topic_name)
    assert "PartitionCount: 3" in summary and len(parts) == 3
    cfg = configs_of(summary)
    assert cfg["max.message.bytes"] == "20000"
    assert cfg["cleanup.policy"] == "compact"
    # the override is gone; a dev broker (no properties file) still lists the value its
    # shipped server.properties gives (log.retention.hours=168), as kafka-topics.sh does
    assert cfg.get("retention.ms", "604800000") == "604800000"

    out = ok(topics(broker, "delete", "--topic", topic_name))
    assert out.stdout.decode() == f"Deleted topic {topic_name}.\n"
    assert topic_name not in ok(topics(broker, "list")).stdout.decode().splitlines()


def test_describe_shows_only_non_default_configs(broker, topic_name):
    create(broker, topic_name, 1)
    summary, _ = describe(broker, topic_name)
    assert "cleanup.policy" not in configs_of(summary)  # a default is not listed


def test_describe_compacted_topic_without_a_metrics_endpoint_says_why(broker, topic_name):
    """CleanableRatio comes only from a metrics endpoint (Kafka has no API for it); the module's
    broker has none, so describe prints Kafka's lines and a note on stderr saying why and how."""
    create(broker, topic_name, 2, "--config", "cleanup.policy=compact")
    out = ok(topics(broker, "describe", "--topic", topic_name))
    lines = out.stdout.decode().splitlines()
    assert len(lines) == 3 and "CleanableRatio" not in out.stdout.decode()
    assert "CleanableRatio of compacted partitions is not shown" in out.stderr
    assert "broker 0 has no metrics endpoint" in out.stderr
    assert "--metrics http://HOST:PORT" in out.stderr
    plain = topic_name + "-plain"
    create(broker, plain, 1)
    assert ok(topics(broker, "describe", "--topic", plain)).stderr == ""  # nothing to say
    # an unreachable endpoint given by the user is an error, as before
    bad = topics(broker, "describe", "--topic", topic_name, "--metrics", "127.0.0.1:1")
    assert bad.returncode == 1 and "could not read the metrics" in bad.stderr


def test_describe_all_topics(broker, topic_name):
    create(broker, topic_name, 2)
    out = ok(topics(broker, "describe")).stdout.decode()
    assert f"Topic: {topic_name}\tTopicId:" in out
    assert f"\tTopic: {topic_name}\tPartition: 1\t" in out


def test_describe_positional_topics_and_filters(broker, topic_name):
    create(broker, topic_name, 2)
    out = ok(topics(broker, "describe", topic_name)).stdout.decode()
    assert out.startswith(f"Topic: {topic_name}\tTopicId:") and out.count("\tPartition: ") == 2
    # one healthy node: nothing is under-replicated, unavailable or under min ISR; with a
    # filter only matching partition lines are printed (no summary), as kafka-topics.sh
    for flag in ("--under-replicated-partitions", "--unavailable-partitions", "--under-min-isr-partitions"):
        assert ok(topics(broker, "describe", topic_name, flag)).stdout == b"", flag
    ok(topics(broker, "alter", "--topic", topic_name, "--config", "min.insync.replicas=2"))
    under = ok(topics(broker, "describe", topic_name, "--under-min-isr-partitions")).stdout.decode()
    assert [ln.split("\tPartition: ")[1].split("\t")[0] for ln in under.splitlines()] == ["0", "1"]
    assert "TopicId" not in under


def test_create_existing_topic(broker, topic_name):
    create(broker, topic_name)
    again = topics(broker, "create", "--topic", topic_name)
    assert again.returncode == 1
    assert "TOPIC_ALREADY_EXISTS" in again.stderr
    ok(topics(broker, "create", "--topic", topic_name, "--if-not-exists"))


def test_create_with_bad_config_value(broker, topic_name):
    p = topics(broker, "create", "--topic", topic_name, "--config", "retention.ms=soon")
    assert p.returncode == 1, p.stderr
    assert "INVALID_CONFIG" in p.stderr
    assert topic_name not in ok(topics(broker, "list")).stdout.decode().split()


def test_alter_to_fewer_partitions_fails(broker, topic_name):
    create(broker, topic_name, 3)
    p = topics(broker, "alter", "--topic", topic_name, "--partitions", 2)
    assert p.returncode == 1
    assert "INVALID_PARTITIONS" in p.stderr


@pytest.mark.parametrize("action,extra", [
    ("describe", []),
    ("delete", []),
    ("alter", ["--partitions", "4"]),
])
def test_unknown_topic_is_an_error(broker, topic_name, action, extra):
    p = topics(broker, action, "--topic", topic_name, *extra)
    assert p.returncode == 1, p.stderr
    assert f"Topic '{topic_name}' does not exist" in p.stderr


def test_if_exists_makes_unknown_topic_quiet(broker, topic_name):
    ok(topics(broker, "delete", "--topic", topic_name, "--if-exists"))
    ok(topics(broker, "alter", "--topic", topic_name, "--partitions", 4, "--if-exists"))


# --------------------------------------------------------------------------
# produce and consume
# --------------------------------------------------------------------------

def test_murmur2_matches_kafka():
    # org.apache.kafka.common.utils.UtilsTest#testMurmur2
    vectors = {b"21": -973932308, b"foobar": -790332482, b"a-little-bit-long-string": -985981536,
               b"a-little-bit-longer-string": -1486304829, b"abc": 479470107,
               b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8": -58897971}
    for data, want in vectors.items():
        assert murmur2(data) == want, data
    kafka_default = pytest.importorskip("kafka.partitioner.default")
    for n in range(64):
        data = os.urandom(n)
        assert murmur2(data) & 0xFFFFFFFF == kafka_default.murmur2(data) & 0xFFFFFFFF
        assert default_partition(data, 7) == (kafka_default.murmur2(data) & 0x7FFFFFFF) % 7


def test_keys_headers_and_default_partitioner(broker, topic_name):
    create(broker, topic_name, 3)
    lines = [f"key-{i}:value {i}: with colon" for i in range(30)]
    p = ok(produce(broker, topic_name, "--key-separator", ":", "--header", "source=cli",
                   "--header", "empty=", input="\n".join(lines) + "\n"))
    assert "Produced 30 records" in p.stderr

    got = consume_json(broker, topic_name, "--from-beginning", "--max-messages", 30)
    assert len(got) == 30
    by_key = {r["key"]: r for r in got}
    for i in range(30):
        r = by_key[f"key-{i}"]
        assert r["value"] == f"value {i}: with colon"
        assert r["headers"] == [["source", "cli"], ["empty", ""]]
        assert r["partition"] == default_partition(f"key-{i}".encode(), 3)
        assert r["topic"] == topic_name and r["timestamp_type"] == "CreateTime"
    for part in range(3):
        offsets = [r["offset"] for r in got if r["partition"] == part]
        assert offsets == list(range(len(offsets)))
        values = [r["value"] for r in got if r["partition"] == part]
        assert values == sorted(values, key=lambda v: int(v.split()[1].rstrip(":")))


def test_round_robin_without_keys(broker, topic_name):
    create(broker, topic_name, 3)
    ok(produce(broker, topic_name, input="".join(f"v{i}\n" for i in range(9))))
    got = consume_json(broker, topic_name, "--from-beginning", "--max-messages", 9)
    counts = {p: sum(r["partition"] == p for r in got) for p in range(3)}
    assert counts == {0: 3, 1: 3, 2: 3}
    assert all(r["key"] is None for r in got)


def test_explicit_partition(broker, topic_name):
    create(broker, topic_name, 3)
    ok(produce(broker, topic_name, "--partition", 2, "--key-separator", "\\t",
               input="a\tone\nb\ttwo\n"))
    got = consume_json(broker, topic_name, "--partition", 2, "--from-beginning", "--max-messages", 2)
    assert [(r["partition"], r["key"], r["value"]) for r in got] == [(2, "a", "one"), (2, "b", "two")]


@pytest.mark.parametrize("codec", ["none", "gzip", "snappy", "lz4", "zstd"])
def test_compression_round_trip(broker, topic_name, codec):
    create(broker, topic_name, 1)
    lines = [f"{codec} line {i} " + "x" * (i % 50) for i in range(200)]
    ok(produce(broker, topic_name, "--compression", codec, input="\n".join(lines)))  # no final \n
    got = consume(broker, topic_name, "--from-beginning", "--max-messages", 200)
    assert ok(got).stdout.decode().splitlines() == lines


@pytest.mark.parametrize("acks", ["0", "1", "all"])
def test_acks(broker, topic_name, acks):
    create(broker, topic_name, 1)
    p = ok(produce(broker, topic_name, "--acks", acks, input="a\nb\nc\n"))
    assert "Produced 3 records" in p.stderr
    got = consume(broker, topic_name, "--from-beginning", "--max-messages", 3, "--timeout-ms", 10000)
    assert ok(got).stdout == b"a\nb\nc\n"


def test_many_lines_in_several_requests(broker, topic_name):
    create(broker, topic_name, 2)
    n = 5000
    p = ok(produce(broker, topic_name, "--batch-size", 700, "--key-separator", ":",
                   input="".join(f"{i % 10}:{i}\n" for i in range(n)), timeout=120))
    assert f"Produced {n} records" in p.stderr
    got = consume(broker, topic_name, "--from-beginning", "--max-messages", n,
                  "--format", "%k %v", "--max-bytes", 4096, timeout=120)
    pairs = [line.split() for line in ok(got).stdout.decode().splitlines()]
    assert all(int(v) % 10 == int(k) for k, v in pairs)
    assert sorted(int(v) for _, v in pairs) == list(range(n))


def test_binary_and_empty_lines(broker, topic_name):
    create(broker, topic_name, 1)
    ok(produce(broker, topic_name, input=b"\xff\xfe\n\nplain\r\n"))
    got = consume_json(broker, topic_name, "--from-beginning", "--max-messages", 3)
    assert [r["value"] for r in got] == [{"base64": "//4="}, "", "plain"]


def test_missing_key_separator(broker, topic_name):
    create(broker, topic_name, 1)
    p = produce(broker, topic_name, "--key-separator", "=", input="a=1\nno separator\nc=3\n")
    assert p.returncode == 1
    assert "line 2: no key separator" in p.stderr
    got = consume_json(broker, topic_name, "--from-beginning", "--timeout-ms", 1500)
    assert [(r["key"], r["value"]) for r in got] == [("a", "1")]


def test_produce_auto_creates_topic_like_kafka(broker, topic_name):
    ok(produce(broker, topic_name, input="hello\n"))
    assert topic_name in ok(topics(broker, "list")).stdout.decode().split()


def test_interactive_producer_sends_before_eof(broker, topic_name):
    create(broker, topic_name, 1)
    proc = subprocess.Popen([sys.executable, "-m", "kwire", "produce", "--bootstrap-server",
                             broker.bootstrap, "--topic", topic_name, "--linger-ms", "50"],
                            stdin=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        proc.stdin.write(b"typed\n")
        proc.stdin.flush()
        got = consume(broker, topic_name, "--from-beginning", "--max-messages", 1,
                      "--timeout-ms", 15000)
        assert ok(got).stdout == b"typed\n"
        assert proc.poll() is None  # still reading stdin
    finally:
        proc.stdin.close()
        proc.wait(30)
    assert proc.returncode == 0
    assert "Produced 1 record to" in proc.stderr.read().decode()


# --------------------------------------------------------------------------
# consume: positions, stopping, formats
# --------------------------------------------------------------------------

def test_consume_from_offset_with_format(broker, topic_name):
    create(broker, topic_name, 1)
    ok(produce(broker, topic_name, "--key-separator", ",", "--header", "h=1",
               input="".join(f"k{i},v{i}\n" for i in range(10))))
    got = ok(consume(broker, topic_name, "--partition", 0, "--offset", 7, "--timeout-ms", 1500,
                     "--format", "%t|%p|%o|%k|%v|%h|%K|%S|%%"))
    assert got.stdout.decode().splitlines() == [
        f"{topic_name}|0|{i}|k{i}|v{i}|h=1|2|2|%" for i in (7, 8, 9)]
    assert "Processed a total of 3 messages" in got.stderr


def test_format_timestamp_and_escapes(broker, topic_name):
    create(broker, topic_name, 1)
    before = int(time.time() * 1000)
    ok(produce(broker, topic_name, input="x\n"))
    after = int(time.time() * 1000)
    out = ok(consume(broker, topic_name, "--from-beginning", "--max-messages", 1,
                     "--format", "%T\\t%v\\n")).stdout
    ts, value = out.decode().rstrip("\n").split("\t")
    assert before <= int(ts) <= after and value == "x"
    assert out.count(b"\n") == 1  # a format ending in \n gets no second newline


def test_consume_from_timestamp(broker, topic_name):
    create(broker, topic_name, 2)
    ok(produce(broker, topic_name, input="old1\nold2\nold3\nold4\n"))
    time.sleep(0.05)
    cut = int(time.time() * 1000)
    time.sleep(0.05)
    ok(produce(broker, topic_name, input="new1\nnew2\nnew3\n"))

    got = consume_json(broker, topic_name, "--timestamp", cut, "--timeout-ms", 1500)
    assert sorted(r["value"] for r in got) == ["new1", "new2", "new3"]
    assert all(r["timestamp"] >= cut for r in got)

    iso = datetime.fromtimestamp(cut / 1000, timezone.utc).isoformat()
    got = consume_json(broker, topic_name, "--timestamp", iso, "--timeout-ms", 1500)
    assert sorted(r["value"] for r in got) == ["new1", "new2", "new3"]

    future = int(time.time() * 1000) + 3_600_000
    got = consume_json(broker, topic_name, "--timestamp", future, "--timeout-ms", 1000)
    assert got == []


def waiting_fetches(broker) -> int:
    """Fetches parked in the in-process broker's purgatory (long polls at the log end)."""
    while True:
        try:
            return broker.server.broker.purgatory.waiting
        except RuntimeError:  # the broker's thread changed the watch table meanwhile: look again
            continue


def wait_until_caught_up(broker, proc, baseline: int, timeout: float = 20.0) -> None:
    """Wait until the ``kwire consume`` process long-polls at the end of its partitions.

    It only parks a fetch in the purgatory once it has read everything there is, so
    this is the event that says it found its start offsets and caught up.
    """
    deadline = time.monotonic() + timeout
    while waiting_fetches(broker) <= baseline:
        assert proc.poll() is None, f"kwire consume exited early: {proc.stderr.read().decode()}"
        assert time.monotonic() < deadline, "kwire consume never caught up with the log end"
        time.sleep(0.02)


def test_default_start_is_the_end(broker, topic_name):
    create(broker, topic_name, 1)
    ok(produce(broker, topic_name, input="before\n"))
    baseline = waiting_fetches(broker)
    proc = subprocess.Popen([sys.executable, "-m", "kwire", "consume", "--bootstrap-server",
                             broker.bootstrap, "--topic", topic_name, "--max-messages", "1",
                             "--timeout-ms", "20000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        wait_until_caught_up(broker, proc, baseline)  # it knows the end offset: now produce
        ok(produce(broker, topic_name, input="after\n"))
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert out == b"after\n"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_unbounded_consume_stops_on_signal(broker, topic_name, sig):
    create(broker, topic_name, 1)
    ok(produce(broker, topic_name, input="a\nb\n"))
    baseline = waiting_fetches(broker)
    proc = subprocess.Popen([sys.executable, "-m", "kwire", "consume", "--bootstrap-server",
                             broker.bootstrap, "--topic", topic_name, "--from-beginning"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            preexec_fn=sigint_default)  # Ctrl-C works even if our launcher ignores it
    try:
        wait_until_caught_up(broker, proc, baseline)  # both records read
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert out == b"a\nb\n"
    assert "Processed a total of 2 messages" in err.decode()


def test_default_formatter_print_options(broker, topic_name):
    create(broker, topic_name, 1)
    ok(produce(broker, topic_name, "--key-separator", ":", "--header", "a=1", "--header", "b=2",
               input="k:v\n"))
    ok(produce(broker, topic_name, input="nokey\n"))
    out = ok(consume(broker, topic_name, "--from-beginning", "--max-messages", 2,
                     "--print-key", "--print-headers", "--print-partition", "--print-offset")).stdout
    assert out.decode().splitlines() == [
        "Partition:0\tOffset:0\ta:1,b:2\tk\tv",
        "Partition:0\tOffset:1\tNO_HEADERS\tnull\tnokey",
    ]


def test_timeout_on_empty_topic(broker, topic_name):
    create(broker, topic_name, 1)
    start = time.monotonic()
    p = ok(consume(broker, topic_name, "--from-beginning", "--timeout-ms", 700))
    assert p.stdout == b""
    assert "Processed a total of 0 messages" in p.stderr
    assert time.monotonic() - start < 30


def test_offset_past_the_end(broker, topic_name):
    create(broker, topic_name, 1)
    ok(produce(broker, topic_name, input="a\nb\n"))
    p = consume(broker, topic_name, "--offset", 50, "--timeout-ms", 1000)
    assert p.returncode == 1
    assert "OFFSET_OUT_OF_RANGE" in p.stderr


# --------------------------------------------------------------------------
# errors and usage
# --------------------------------------------------------------------------

def test_consume_unknown_topic(broker, topic_name):
    p = consume(broker, topic_name, "--from-beginning", "--timeout-ms", 500)
    assert p.returncode == 1
    assert "UNKNOWN_TOPIC_OR_PARTITION" in p.stderr and topic_name in p.stderr


def test_unknown_partition(broker, topic_name):
    create(broker, topic_name, 2)
    p = produce(broker, topic_name, "--partition", 5, input="x\n")
    assert p.returncode == 1 and "no partition 5" in p.stderr
    p = consume(broker, topic_name, "--partition", 5, "--timeout-ms", 500)
    assert p.returncode == 1 and "no partition 5" in p.stderr


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_unreachable_broker():
    bootstrap = f"127.0.0.1:{_closed_port()}"
    p = kwire("topics", "list", "--bootstrap-server", bootstrap, real=True)
    assert p.returncode == 1
    assert f"cannot connect to {bootstrap}" in p.stderr
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize("args", [
    ["topics"],
    ["topics", "frobnicate"],
    ["topics", "create"],
    ["topics", "create", "--topic", "t", "--partitions", "0"],
    ["topics", "create", "--topic", "t", "--config", "novalue"],
    ["topics", "alter", "--topic", "t"],
    ["topics", "list", "--topic", "(unclosed"],
    ["topics", "list", "--bootstrap-server", "nohostport"],
    ["produce"],
    ["produce", "--topic", "t", "--acks", "2"],
    ["produce", "--topic", "t", "--compression", "brotli"],
    ["produce", "--topic", "t", "--header", "nokey"],
    ["consume"],
    ["consume", "--topic", "t", "--from-beginning", "--offset", "3"],
    ["consume", "--topic", "t", "--offset", "soon"],
    ["consume", "--topic", "t", "--timestamp", "yesterday"],
    ["consume", "--topic", "t", "--format", "%x"],
    ["consume", "--topic", "t", "--json", "--format", "%v"],
    ["consume", "--topic", "t", "--json", "--print-key"],
    ["consume", "--topic", "t", "--max-messages", "0"],
])
def test_usage_errors_exit_2(args):
    # A closed port: a usage error must be reported before any connection attempt.
    p = kwire(*args, "--bootstrap-server", f"127.0.0.1:{_closed_port()}"
              ) if "--bootstrap-server" not in args else kwire(*args)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "error" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("tool", [["topics"], ["topics", "create"], ["topics", "list"],
                                  ["topics", "describe"], ["topics", "alter"], ["topics", "delete"],
                                  ["produce"], ["consume"]])
def test_help(tool):
    p = ok(kwire(*tool, "--help", real=tool == ["topics"]))
    assert b"usage: kwire " in p.stdout
