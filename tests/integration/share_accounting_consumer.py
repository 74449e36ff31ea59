"""A confluent-kafka ShareConsumer for the exactly-once accounting tests (run as a subprocess).

    python share_accounting_consumer.py <bootstrap> <topic> <group> <seed> <release-probability>

Explicit acknowledgement: a record on its first delivery is RELEASEd with the
given probability, otherwise ACCEPTed; ``commit_sync`` after every poll that
returned records. One JSON line per event, flushed at once, so a kill -9 loses
nothing printed:

    {"t": "rec", "p": partition, "o": offset, "d": delivery count}
    {"t": "ack", "p": partition, "o": [offsets], "k": "accept" | "release"}  (sent, result unknown)
    {"t": "ok", "p": partition, "o": [offsets], "k": ...}                    (the broker said success)
    {"t": "fail", "p": partition, "o": [offsets], "k": ..., "e": "..."}      (the broker said no)

Runs until killed.
"""

from __future__ import annotations

import json
import random
import sys


def out(**fields) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def main() -> None:
    from confluent_kafka import AcknowledgeType, ShareConsumer

    bootstrap, topic, group, seed, release_p = sys.argv[1:6]
    rng = random.Random(int(seed))
    c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group,
                       "share.acknowledgement.mode": "explicit"})
    c.subscribe([topic])
    while True:
        msgs = c.poll(0.5)
        sent: dict[int, dict[str, list[int]]] = {}
        for m in msgs:
            if m.error() is not None:
                continue
            d = m.delivery_count() if hasattr(m, "delivery_count") else -1
            out(t="rec", p=m.partition(), o=m.offset(), d=d)
            kind = "release" if d == 1 and rng.random() < float(release_p) else "accept"
            c.acknowledge(m, AcknowledgeType.RELEASE if kind == "release" else AcknowledgeType.ACCEPT)
            sent.setdefault(m.partition(), {}).setdefault(kind, []).append(m.offset())
        if not sent:
            continue
        for p, kinds in sent.items():
            for kind, offsets in kinds.items():
                out(t="ack", p=p, o=offsets, k=kind)
        try:
            results = c.commit_sync(30)
        except Exception as e:  # the whole commit failed: every partition's outcome unknown
            out(t="error", e=repr(e))
            continue
        for tp, err in results.items():
            for kind, offsets in sent.get(tp.partition, {}).items():
                if err is None:
                    out(t="ok", p=tp.partition, o=offsets, k=kind)
                else:
                    out(t="fail", p=tp.partition, o=offsets, k=kind, e=str(err))


if __name__ == "__main__":
    main()
