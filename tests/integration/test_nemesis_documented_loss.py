"""Where Kafka documents a loss, kwire loses what Kafka would, and nothing in the safe setting.

Each test runs two topics of its own on a 3-broker cluster the module's tests share
(``nemesis_workload.shared_nemesis_cluster``: ZooKeeper and brokers on their own loopback
addresses; each test first asserts it healthy: no link cut, every broker up, every ISR
full), both topics led by broker 1,
under one fault schedule: a topic in a configuration where Kafka documents that
acknowledged records can be lost, and a topic with acks=all,
``min.insync.replicas=2`` and unclean election off, which must lose nothing.
Both histories go through ``kwire.nemesis.checker`` against every replica's
files after the heal.

* acks=1, leader partitioned away (from the other brokers and ZooKeeper; the
  clients still reach it): the old leader acknowledges acks=1 records that no
  follower fetched until it fences itself; the new leader never had them, and
  the old one truncates them when it follows again. The checker reports them
  as ``lost``. The acks=all topic's producers get no acknowledgement from the
  isolated leader (it cannot reach min.insync.replicas) and lose nothing.
* ``unclean.leader.election.enable=true`` with the ISR gone: broker 1 split from
  brokers 2 and 3 (all keep ZooKeeper) shrinks the ISRs to itself; the topic
  with ``min.insync.replicas=1`` keeps acknowledging acks=all records that only
  broker 1 has; broker 1 is killed -9 and the controller elects an out-of-sync
  replica: those records are lost. The safe topic (``min.insync.replicas=2``,
  unclean off) refuses writes once its ISR is broker 1 alone
  (NOT_ENOUGH_REPLICAS), stays offline while broker 1 is down, and loses
  nothing.

Needs root and iptables (skipped with the reason otherwise).
"""

from __future__ import annotations

import time
import uuid

import pytest
from nemesis_workload import (CI_RATE, SESSION_MS, QueueWorkload, _nemesis_pool, assert_healthy,  # noqa: F401
                              shared_nemesis_cluster, stopped_and_checked)
from verifier import report, wait_for
from zk_ensemble import isr_full


pytest.importorskip("confluent_kafka")

# the two tests share one cluster (``shared_nemesis_cluster``, each asserting it healthy first): one xdist unit
pytestmark = [pytest.mark.timeout(300), pytest.mark.xdist_group("nemesis-documented-loss")]

OVERRIDES = {"unclean.leader.election.enable": "false", "replica.lag.time.max.ms": "4000",
             "offsets.topic.replication.factor": "3"}
SAFE = {"min.insync.replicas": "2", "unclean.leader.election.enable": "false"}
FAULT_S = 10.0
# without idempotence (Kafka requires acks=all for it) and without retries: nothing is written twice
ACKS_1 = {"acks": "1", "enable.idempotence": False, "retries": 0}
NO_RETRIES = {"enable.idempotence": False, "retries": 0}


def _topic(c, prefix: str, configs: dict) -> str:
    name = f"{prefix}-{uuid.uuid4().hex[:6]}"
    c.create_topic(name, partitions=1, replication_factor=3, assignment={0: [1, 2, 3]}, configs=configs)
    return name


def _running(c, topics_configs: dict) -> dict:
    """{topic: workload} started, each with 100 acknowledged writes."""
    out = {t: QueueWorkload(c.bootstrap, t, producer_config=cfg, rate=CI_RATE).start() for t, cfg in topics_configs.items()}
    for t, w in out.items():
        wait_for(lambda w=w: w.acknowledged >= 100, 60, f"100 acknowledged writes to {t}")
    return out


def _checked(c, workloads: dict) -> dict:
    """Stop every workload (producers first, all at once), check each: {topic: Result}."""
    for w in workloads.values():
        w.stop_producers()
    return {t: stopped_and_checked(c, w, t, consumer_timeout=30) for t, w in workloads.items()}


def test_acks_1_leader_partitioned_away_loses_only_acks_1_writes(shared_nemesis_cluster, request, capsys):  # noqa: F811
    c, fw, topo = shared_nemesis_cluster(OVERRIDES)
    assert_healthy(c, fw)
    lossy, safe = _topic(c, "acks1", {"min.insync.replicas": "1"}), _topic(c, "acksall", SAFE)
    ws = _running(c, {lossy: ACKS_1, safe: {}})
    t0 = time.monotonic()
    fw.cut(topo.isolate("1", ["2", "3", "zk"]))
    wait_for(lambda: time.monotonic() > t0 + FAULT_S, FAULT_S + 30, "the partition's duration")
    fw.heal()
    healed = time.monotonic()
    wait_for(lambda: isr_full(c, lossy, [0]) and isr_full(c, safe, [0]), 90, "full ISRs after the heal")
    recovered = time.monotonic() - healed
    for t, w in ws.items():
        before = w.acknowledged
        wait_for(lambda w=w, b=before: w.acknowledged >= b + 50, 60, f"writes to {t} after the heal")
    r = _checked(c, ws)
    report(request, capsys,
           f"leader isolated {FAULT_S:.0f} s: acks=1 topic acknowledged {r[lossy].acknowledged}, {r[lossy].counts()}; "
           f"acks=all/min.insync=2 topic acknowledged {r[safe].acknowledged}, {r[safe].counts()}; full ISRs "
           f"{recovered:.1f} s after the heal")
    assert r[safe].valid, r[safe].summary()
    n = r[lossy].counts()
    assert n["lost"] + n["unseen"] > 0, f"no acks=1 write lost: did the isolated leader acknowledge nothing? {n}"
    assert r[lossy].counts()["duplicated"] == 0 and r[lossy].counts()["inconsistent_offsets"] == 0, r[lossy].summary()


def test_unclean_election_with_the_isr_gone_loses_only_there(shared_nemesis_cluster, request, capsys):  # noqa: F811
    c, fw, topo = shared_nemesis_cluster(OVERRIDES)
    assert_healthy(c, fw)
    lossy = _topic(c, "unclean", {"min.insync.replicas": "1", "unclean.leader.election.enable": "true"})
    safe = _topic(c, "clean", SAFE)
    ws = _running(c, {lossy: NO_RETRIES, safe: NO_RETRIES})
    t0 = time.monotonic()
    fw.cut(topo.split(["1"], ["2", "3"]))  # every broker keeps ZooKeeper
    c.wait_until(lambda md: all(md.topics[t].partitions[0].isr == [1] for t in (lossy, safe)), 60,
                 "both ISRs shrunk to broker 1", topics=[lossy, safe])
    shrunk = time.monotonic()
    # min.insync 1: broker 1 alone acknowledges acks=all writes no other replica has
    wait_for(lambda: sum(1 for t in ws[lossy].ack_times if t > shrunk) >= 50, 60,
             "acks=all writes acknowledged by broker 1 alone")
    safe_alone = sum(1 for t in ws[safe].ack_times if t > shrunk + 1)
    c.broker(1).kill()
    killed = time.monotonic()
    # unclean: an out-of-sync replica leads; clean: offline while its only ISR member is down
    c.wait_until(lambda md: md.topics[lossy].partitions[0].leader in (2, 3), SESSION_MS / 1000 + 60,
                 "an unclean leader for the lossy topic", topics=[lossy, safe])
    offline = c.metadata([safe]).topics[safe].partitions[0].leader
    wait_for(lambda: sum(1 for t in ws[lossy].ack_times if t > killed + 1) >= 20, 60,
             "writes on the unclean leader")
    fw.heal()
    c.broker(1).start(timeout=120)
    healed = time.monotonic()
    wait_for(lambda: isr_full(c, lossy, [0]) and isr_full(c, safe, [0]), 90, "full ISRs after broker 1 is back")
    recovered = time.monotonic() - healed
    before = ws[safe].acknowledged
    wait_for(lambda: ws[safe].acknowledged >= before + 50, 60, "writes to the safe topic after the heal")
    r = _checked(c, ws)
    report(request, capsys,
           f"split of broker 1 {shrunk - t0:.1f} s until ISRs [1], kill -9 of broker 1: unclean topic (min.insync 1) "
           f"acknowledged {r[lossy].acknowledged}, {r[lossy].counts()}; safe topic acknowledged "
           f"{r[safe].acknowledged} ({safe_alone} while its ISR was broker 1 alone; leader {offline} while broker 1 "
           f"was down), {r[safe].counts()}; full ISRs {recovered:.1f} s after broker 1 restarted")
    assert r[safe].valid, r[safe].summary()
    assert safe_alone == 0, "min.insync.replicas=2 acknowledged with the ISR down to the leader"
    assert offline == -1, f"the clean topic elected leader {offline} with its whole ISR down"
    n = r[lossy].counts()
    # lost, or unseen when a consumer read it from broker 1 (its ISR alone: the HW moved) first
    assert n["lost"] + n["unseen"] > 0, f"unclean election lost nothing? {n}"
    assert r[lossy].counts()["duplicated"] == 0, r[lossy].summary()
