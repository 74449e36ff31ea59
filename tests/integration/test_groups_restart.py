"""Groups and committed offsets survive a broker restart (``__consumer_offsets`` is replayed).

A broker subprocess is stopped (SIGTERM, or SIGKILL) and started again on the
same data directory: committed offsets and their metadata are back, Empty
groups are listed again, a new consumer resumes after the committed offsets,
and a consumer that stays connected through the restart keeps its membership
(the Stable group is loaded with its members, who keep heartbeating).
"""

from __future__ import annotations

import uuid

import pytest
from test_groups_support import LIVE, Member, create_topic, drained, produce, wait_until


@pytest.fixture(autouse=True)
def stop_leftover_members():
    yield
    for m in list(LIVE):
        m.stop()


def _group_offsets(bs, group):
    from kafka import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=bs)
    try:
        got = admin.list_group_offsets({group: None})[group]
        groups = {g["group_id"]: g["group_state"] for g in admin.list_groups()}
    finally:
        admin.close()
    return {tp.partition: (o.offset, o.metadata) for tp, o in got.items()}, groups


@pytest.mark.parametrize("how", ["sigterm", "sigkill"])
def test_offsets_and_groups_survive_restart(spawn_broker, tmp_path, how):
    u = uuid.uuid4().hex[:8]
    topic, group = f"t-restart-{u}", f"g-restart-{u}"
    data = tmp_path / "data"
    b = spawn_broker(data)
    create_topic(b.bootstrap, topic, 3)
    produce(b.bootstrap, topic, 30, 3, tag="before")
    m = Member("kafka-python", b.bootstrap, topic, group)
    wait_until(lambda: len(m.records) >= 30, what="records before the restart")
    m.call("commit", {p: (4, f"meta-{p}") for p in range(3)})  # 10 records per partition
    m.stop()
    before, _ = _group_offsets(b.bootstrap, group)
    assert before == {p: (4, f"meta-{p}") for p in range(3)}
    if how == "sigterm":
        assert b.terminate() == 0
    else:
        b.kill()
    b2 = spawn_broker(data)
    after, groups = wait_until(lambda: _try(_group_offsets, b2.bootstrap, group), what="group offsets")
    assert after == before
    assert groups.get(group) == "Empty"
    produce(b2.bootstrap, topic, 3, 3, tag="after")
    m2 = Member("kafka-python", b2.bootstrap, topic, group)
    # resumes at offset 4 of each partition: 6 older records each, then the new one
    wait_until(lambda: len(m2.records) >= 21, what="records after the committed offsets")
    wait_until(lambda: drained([m2], {p: 11 for p in range(3)}), what="the member to reach the end")
    assert len(m2.records) == 21 and min(o for _, o, _ in m2.records) == 4
    m2.stop()


def _try(fn, *args):
    try:
        return fn(*args)
    except Exception:  # the broker may still be loading the group (COORDINATOR_LOAD_IN_PROGRESS)
        return None


def test_stable_group_survives_restart_without_rejoining(spawn_broker, tmp_path):
    u = uuid.uuid4().hex[:8]
    topic, group = f"t-live-{u}", f"g-live-{u}"
    data = tmp_path / "data"
    b = spawn_broker(data)
    create_topic(b.bootstrap, topic, 2)
    port = b.bootstrap.rsplit(":", 1)[1]
    m = Member("confluent", b.bootstrap, topic, group, session_ms=30_000)
    wait_until(lambda: m.assigned == {0, 1}, what="assignment")
    b.kill()
    # same port, so the connected consumer finds the broker again
    b2 = spawn_broker(data, listeners=f"PLAINTEXT://127.0.0.1:{port}")
    produce(b2.bootstrap, topic, 4, 2, tag="after")
    wait_until(lambda: {b"after-0", b"after-1", b"after-2", b"after-3"} <= m.values(),
               what="records produced after the restart")
    from kafka import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=b2.bootstrap)
    try:
        d = admin.describe_groups([group])[group]
    finally:
        admin.close()
    assert d["group_state"] == "Stable" and len(d["members"]) == 1
    m.stop()
    assert not m.errors
