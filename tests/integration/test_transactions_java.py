"""Transactions with the Kafka Java client 4.3 (tests/java/KwireTxn.java) against one kwire broker.

One JVM run: committed, aborted and open transactions on 3 partitions; a
read_committed consumer sees the committed records only and nothing of the
open transaction, a read_uncommitted one sees everything; once the open one
commits, read_committed sees it; a second producer with the same
transactional id fences the first (ProducerFencedException);
consume-transform-produce with ``sendOffsetsToTransaction`` moves every
record exactly once and commits the group's offsets with the transaction.
"""

from __future__ import annotations

import json
import os
import subprocess
import uuid

import javaclient


def _create(bootstrap: str, name: str, partitions: int) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})  # kept alive until the result
    admin.create_topics([NewTopic(name, partitions, 1)])[name].result(30)


def test_java_transactions(broker):
    cp = javaclient.require_java()
    classes = javaclient.compiled_classes(cp)
    topic, out = f"jt-{uuid.uuid4().hex[:8]}", f"jo-{uuid.uuid4().hex[:8]}"
    _create(broker.bootstrap, topic, 3)
    _create(broker.bootstrap, out, 3)
    argv = ["java", "-cp", os.pathsep.join([str(classes)] + [str(j) for j in cp]), "KwireTxn",
            "scenario", broker.bootstrap, topic, out, f"jtx-{uuid.uuid4().hex[:6]}",
            f"jg-{uuid.uuid4().hex[:6]}"]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-4000:]
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    by = {(d["type"], d.get("phase")): d for d in lines}
    committed = [f"c{i}" for i in range(30)] + [f"d{i}" for i in range(10)]
    open_phase = by[("consume", "open")]
    # read_committed stops below the open transaction: on each partition, what precedes "o*"
    assert set(open_phase["read_committed"]) <= set(committed)
    assert not any(v.startswith(("a", "o")) for v in open_phase["read_committed"])
    assert set(f"c{i}" for i in range(30)) <= set(open_phase["read_committed"])
    assert sorted(open_phase["read_uncommitted"]) == sorted(
        committed + [f"a{i}" for i in range(20)] + [f"o{i}" for i in range(5)])
    assert sorted(by[("consume", "committed")]["read_committed"]) == sorted(
        committed + [f"o{i}" for i in range(5)])
    assert by[("fenced", None)]["exception"] == "ProducerFencedException"
    ctp = by[("ctp", None)]
    src = committed + [f"o{i}" for i in range(5)] + ["winner"]
    assert ctp["moved"] == len(src) and ctp["committed_sum"] > 0
    assert sorted(ctp["out"]) == sorted("t-" + v for v in src)
    # the group's offsets were committed with the transactions: a new member reads nothing again
    import confluent_kafka as ck

    c = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": argv[-1],
                     "isolation.level": "read_committed", "enable.auto.commit": False})
    try:
        committed = c.committed([ck.TopicPartition(topic, p) for p in range(3)], 10)
        assert sum(tp.offset for tp in committed) == ctp["committed_sum"]
        for tp in committed:
            lso = c.get_watermark_offsets(ck.TopicPartition(topic, tp.partition), 10, cached=False)[1]
            assert tp.offset <= lso and lso - tp.offset <= 2  # only markers after the last record
    finally:
        c.close()
