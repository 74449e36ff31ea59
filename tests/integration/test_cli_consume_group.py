"""``kwire consume --group G`` (kwire.tools.consume_group) against a real broker, as a subprocess.

* a second run of the same group resumes exactly after the first run's
  committed offsets (the first stopped by --max-messages, so the commit on
  exit is what counts), and the group's committed offsets are what
  ``kwire groups``' client and kafka-python read back;
* two members of one group split the partitions: each gets some (shown by
  ``--verbose``), together they print every record once, their positions are
  committed periodically while they run, and when one leaves
  the other is assigned its partitions and resumes after its commits;
* bad input as kafka-console-consumer.sh refuses it: --group with --partition
  (and with --offset / --timestamp) is a usage error (exit 2) with the message.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import uuid

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient, NewTopic
from test_groups_support import wait_until

from kwire.client import KafkaClient


def _topic(broker, partitions: int, count: int) -> str:
    name = f"cg-{uuid.uuid4().hex[:8]}"
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        admin.create_topics([NewTopic(name, partitions, 1)])
    finally:
        admin.close()
    p = KafkaProducer(bootstrap_servers=broker.bootstrap)
    for i in range(count):
        p.send(name, value=f"v{i}".encode(), partition=i % partitions)
    p.flush(30)
    p.close()
    return name


def _consume(broker, *args: str, timeout: float = 90) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kwire", "consume", "-b", broker.bootstrap, *args],
                          capture_output=True, text=True, timeout=timeout, env=os.environ.copy())


def _committed(broker, group: str, topic: str, partitions: int) -> dict[int, int]:
    c = KafkaConsumer(bootstrap_servers=broker.bootstrap, group_id=group, enable_auto_commit=False)
    try:
        return {p: c.committed(TopicPartition(topic, p)) for p in range(partitions)}
    finally:
        c.close()


def test_second_run_resumes_after_the_first_runs_commits(broker):
    topic = _topic(broker, 2, 10)
    group = f"g-{uuid.uuid4().hex[:6]}"
    first = _consume(broker, "--topic", topic, "--group", group, "--from-beginning", "--max-messages", "4",
                     "--print-partition", "--print-offset")
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert len(lines) == 4 and "Processed a total of 4 messages" in first.stderr, first.stdout + first.stderr
    printed = [tuple(int(x) for x in re.match(r"Partition:(\d+)\tOffset:(\d+)\t", ln).groups()) for ln in lines]
    # committed on exit, as Kafka's consumer does for every assigned partition: its position, one
    # past the last record printed (the start, 0, where none was)
    expect = {p: max([o + 1 for q, o in printed if q == p], default=0) for p in (0, 1)}
    assert _committed(broker, group, topic, 2) == expect, printed
    second = _consume(broker, "--topic", topic, "--group", group, "--from-beginning", "--timeout-ms", "4000")
    assert second.returncode == 0, second.stderr
    values = sorted(first.stdout.split()[2::3] + second.stdout.split(), key=lambda v: int(v[1:]))
    assert values == [f"v{i}" for i in range(10)], (first.stdout, second.stdout)  # each exactly once
    assert _committed(broker, group, topic, 2) == {0: 5, 1: 5}
    # a third run has nothing left (and without --from-beginning a new group starts at the end)
    third = _consume(broker, "--topic", topic, "--group", group, "--timeout-ms", "2000")
    assert third.returncode == 0 and third.stdout == "", third.stdout + third.stderr


def _reader(proc: subprocess.Popen, sink: list[str]) -> threading.Thread:
    def pump(stream, into):
        for line in stream:
            into.append(line)
    t = threading.Thread(target=pump, args=(proc.stdout, sink), daemon=True)
    t.start()
    return t


def test_two_members_split_the_partitions_and_take_over_on_leave(broker):
    topic = _topic(broker, 4, 40)
    group = f"g-{uuid.uuid4().hex[:6]}"
    cmd = [sys.executable, "-m", "kwire", "consume", "-b", broker.bootstrap, "--topic", topic, "--group", group,
           "--from-beginning", "--verbose", "--commit-interval-ms", "500"]
    procs, outs, errs = [], [], []
    try:
        for _ in range(2):
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
            procs.append(p)
            outs.append([])
            errs.append([])
            _reader(p, outs[-1])
            threading.Thread(target=lambda p=p, e=errs[-1]: e.extend(p.stderr), daemon=True).start()

        def owned(i: int) -> set[int]:
            mine: set[int] = set()
            for line in errs[i]:
                m = re.search(r"partitions (assigned|revoked): (.*)$", line.strip())
                if m:
                    parts = {int(x.rsplit("-", 1)[1]) for x in m.group(2).split(", ")}
                    mine = mine | parts if m.group(1) == "assigned" else mine - parts
            return mine

        # both members own partitions, disjoint and together all four, and all 40 records are printed once
        wait_until(lambda: owned(0) and owned(1) and owned(0) | owned(1) == {0, 1, 2, 3}
              and not owned(0) & owned(1) and len(outs[0]) + len(outs[1]) >= 40, 60,
              "two members splitting 4 partitions")
        assert sorted(outs[0] + outs[1], key=lambda v: int(v[1:])) == [f"v{i}\n" for i in range(40)]
        first_owned = owned(0)
        # committed periodically (--commit-interval-ms 500) while both still run: 10 per partition
        with KafkaClient(broker.bootstrap) as client:
            wait_until(lambda: {k: v.offset for k, v in client.offset_fetch(group, {topic: [0, 1, 2, 3]}).items()}
                  == {(topic, p): 10 for p in range(4)}, 30, "the periodic commits")
        # member 0 leaves (SIGTERM: commit, leave); member 1 takes its partitions from the commits
        procs[0].send_signal(signal.SIGTERM)
        assert procs[0].wait(30) == 0, "".join(errs[0])
        wait_until(lambda: owned(1) == {0, 1, 2, 3}, 60, "the remaining member owning every partition")
        assert "left the group; partitions revoked" in "".join(errs[0])
        p = KafkaProducer(bootstrap_servers=broker.bootstrap)
        for i in range(40, 48):
            p.send(topic, value=f"v{i}".encode(), partition=i % 4)
        p.flush(30)
        p.close()
        wait_until(lambda: len(outs[0]) + len(outs[1]) >= 48, 60, "the new records")
        # every record once: nothing of member 0's partitions read again by member 1
        assert sorted(outs[0] + outs[1], key=lambda v: int(v[1:])) == [f"v{i}\n" for i in range(48)]
        assert first_owned  # member 0 really had partitions to hand over
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()


@pytest.mark.parametrize("extra, message", [
    (["--partition", "0"], "Options group and partition cannot be specified together."),
    (["--offset", "3"], "Options group and offset cannot be specified together"),
    (["--timestamp", "0"], "Options group and timestamp cannot be specified together"),
])
def test_group_with_partition_or_offset_is_a_usage_error(broker, extra, message):
    p = _consume(broker, "--topic", "t", "--group", "g", *extra, timeout=30)
    assert p.returncode == 2 and message in p.stderr and p.stdout == "", p.stderr
