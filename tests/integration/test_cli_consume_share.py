"""``kwire consume --share-group G`` (kwire.tools.consume_share) against a real broker, as subprocesses.

* two ``kwire consume --share-group`` processes on one topic both join and are
  assigned partitions (``--verbose``); together they print every produced
  record exactly once, also when one stops at ``--max-messages`` with records
  acquired (it releases them to the other), and leaves cleanly on SIGTERM (no
  acknowledgement refused);
* what a run printed (and so ACCEPTed) is not delivered again: a later run of
  the same group prints only the rest, confluent-kafka's ShareConsumer of the
  same group then gets nothing, and the group's start offset has moved past
  every record (DescribeShareGroupOffsets);
* bad input: ``--share-group`` with ``--group``, ``--partition``, ``--offset``,
  ``--timestamp`` or ``--from-beginning`` is a usage error (exit 2) naming
  ``share.auto.offset.reset`` where the start is concerned.

Records are produced with kafka-python; the group reads from the start
(``share.auto.offset.reset=earliest``, set by test_share_groups.new_group).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading

import pytest
from test_groups_support import produce, wait_until
from test_share_groups import confluent_consume, new_group, topic_with
from test_share_groups import sbroker  # noqa: F401  (the module's broker, with short share-group timings)

from kwire.client import KafkaClient


def _cmd(bootstrap: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "kwire", "consume", "-b", bootstrap, *args]


def _consume(bootstrap: str, *args: str, timeout: float = 90) -> subprocess.CompletedProcess:
    return subprocess.run(_cmd(bootstrap, *args), capture_output=True, text=True, timeout=timeout,
                          env=os.environ.copy())


def _printed(lines) -> list[tuple[int, int, str]]:
    out = []
    for line in lines:
        m = re.fullmatch(r"Partition:(\d+)\tOffset:(\d+)\t(\S+)", line.strip())
        assert m, line
        out.append((int(m.group(1)), int(m.group(2)), m.group(3)))
    return out


def _all(n: int, partitions: int) -> list[tuple[int, int, str]]:
    return sorted((i % partitions, i // partitions, f"v-{i}") for i in range(n))


class _Proc:
    """A ``kwire consume`` subprocess whose stdout and stderr lines are collected as they come."""

    def __init__(self, cmd: list[str]) -> None:
        self.p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=os.environ.copy())
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, sink in ((self.p.stdout, self.out), (self.p.stderr, self.err)):
            threading.Thread(target=lambda s=stream, k=sink: k.extend(s), daemon=True).start()

    def said(self, text: str) -> bool:
        return text in "".join(self.err)

    def stop(self) -> int:
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
        try:
            return self.p.wait(30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            raise


def test_two_share_consumers_print_every_record_once(sbroker):
    b = sbroker.bootstrap
    n = 120
    topic = topic_with(b, 0, 2)
    group = new_group(b)
    opts = ("--topic", topic, "--share-group", group, "--verbose", "--print-partition", "--print-offset")
    # one member stops after 15 records: what it acquired beyond those it releases to the other
    short = _Proc(_cmd(b, *opts, "--max-messages", "15"))
    long = _Proc(_cmd(b, *opts))
    procs = (short, long)
    try:
        wait_until(lambda: all(p.said("partitions assigned") for p in procs), 60, "both members assigned")
        for p in procs:
            assert p.said(f"share group {group}: joined as member"), p.err
        produce(b, topic, n, 2)
        wait_until(lambda: len(short.out) + len(long.out) >= n or long.p.poll() is not None, 60,
                   "every record printed")
        if len(short.out) == 15:  # it stops by itself (--max-messages): let it finish leaving
            short.p.wait(60)
    finally:
        codes = [p.stop() for p in procs]
    assert codes == [0, 0], (short.err, long.err)
    got = _printed(short.out) + _printed(long.out)
    assert sorted(got) == _all(n, 2), (short.out, long.out)  # every record, none twice
    assert len(short.out) <= 15
    # SIGTERM during a long-polling ShareFetch: the final acknowledgement still finds its session and
    # nothing is acknowledged twice (either would be a warning)
    assert "warning" not in "".join(short.err + long.err), (short.err, long.err)
    assert "left the group" in "".join(long.err)
    assert f"Processed a total of {len(long.out)} messages" in "".join(long.err)


def test_printed_records_are_not_delivered_again(sbroker):
    b = sbroker.bootstrap
    topic = topic_with(b, 30, 2)
    group = new_group(b)
    first = _consume(b, "--topic", topic, "--share-group", group, "--max-messages", "12",
                     "--print-partition", "--print-offset")
    assert first.returncode == 0, first.stderr
    assert "Processed a total of 12 messages" in first.stderr
    one = _printed(first.stdout.splitlines())
    assert len(one) == 12 and len(set(one)) == 12
    # a later member of the group: only the 18 records the first one did not print
    second = _consume(b, "--topic", topic, "--share-group", group, "--timeout-ms", "4000",
                      "--print-partition", "--print-offset")
    assert second.returncode == 0, second.stderr
    two = _printed(second.stdout.splitlines())
    assert sorted(one + two) == _all(30, 2), (one, two)
    # all were accepted: neither kwire nor confluent-kafka's ShareConsumer gets any of them again
    third = _consume(b, "--topic", topic, "--share-group", group, "--timeout-ms", "2000")
    assert third.returncode == 0 and third.stdout == "", third.stdout + third.stderr
    assert confluent_consume(b, topic, group, 1, timeout_s=4) == []
    with KafkaClient(b) as c:
        starts = {(t, p): start for t, p, start, _ in c.share_group_offsets(group) if t == topic}
    assert starts == {(topic, 0): 15, (topic, 1): 15}
    # new records after that go to the next run, each once
    produce(b, topic, 4, 2, tag="w")
    fourth = _consume(b, "--topic", topic, "--share-group", group, "--max-messages", "4")
    assert fourth.returncode == 0 and sorted(fourth.stdout.split()) == ["w-0", "w-1", "w-2", "w-3"], fourth


@pytest.mark.parametrize("extra, message", [
    (["--group", "g"], "Options share-group and group cannot be specified together."),
    (["--partition", "0"], "Options share-group and partition cannot be specified together"),
    (["--offset", "3"], "Options share-group and offset cannot be specified together"),
    (["--timestamp", "0"], "Options share-group and timestamp cannot be specified together"),
    (["--from-beginning"], "Options share-group and from-beginning cannot be specified together"),
])
def test_share_group_refuses_group_partition_and_start_options(sbroker, extra, message):
    p = _consume(sbroker.bootstrap, "--topic", "t", "--share-group", "sg", *extra, timeout=30)
    assert p.returncode == 2 and message in p.stderr and p.stdout == "", p.stderr
    if extra[0] in ("--offset", "--timestamp", "--from-beginning"):
        assert "share.auto.offset.reset" in p.stderr
