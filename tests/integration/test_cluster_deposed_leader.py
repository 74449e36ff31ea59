"""A leader cut off from ZooKeeper (but not from its followers) is deposed and loses nothing acknowledged.

Issue 12's "a deposed leader stops accepting acks=all writes it can no longer
replicate", driven for real: a TCP proxy (``tcp_proxy``) stands between ONE
broker and ZooKeeper; the other brokers reach ZooKeeper directly. That broker
leads a partition (RF 3, ``min.insync.replicas=2``). The proxy is cut, so the
broker's ZooKeeper session expires while the process runs and its followers
can still reach it; the controller elects a new leader from the rest of the
ISR.

What Kafka's ZooKeeper mode guarantees, and what is asserted:

* the deposed leader does not know it is deposed, but once its session counts
  as expired and its followers stopped fetching from it (they follow the new
  leader) it fences itself (``kwire.replication.fencing``, beyond Kafka's
  ZooKeeper mode, which keeps claiming leadership): NOT_LEADER_OR_FOLLOWER to
  Produce, no leader in its Metadata, no ISR shrink attempted. A produce that
  reaches it before that is appended but never acknowledged (its high
  watermark cannot pass the records): REQUEST_TIMED_OUT or
  NOT_LEADER_OR_FOLLOWER -- never success;
* every record acknowledged through the real cluster (confluent-kafka,
  acks=all), before the cut and after the election, is read back in order
  from the new leader; none of the deposed leader's appends is;
* once the proxy is restored the broker registers again (new session), sees
  the new leader, answers a produce still waiting with NOT_LEADER_OR_FOLLOWER,
  truncates its unacknowledged tail and catches up to a log byte-identical to
  the new leader's, and rejoins the ISR.
"""

from __future__ import annotations

import glob
import os
import threading
import time
import uuid

import pytest
from cluster_fixtures import make_cluster, tcp_proxy, zookeeper  # noqa: F401 (fixtures)
from clients import read_values

from kwire.client import KafkaClient
from kwire.protocol.errors import ErrorCode
from kwire.protocol.generated.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from kwire.records.builder import build_batch

confluent_kafka = pytest.importorskip("confluent_kafka")

pytestmark = pytest.mark.timeout(300)

CUT = 3  # the broker behind the proxy
LAG_MS = 3000  # replica.lag.time.max.ms: the deposed leader tries to shrink its ISR after this
REFUSED = {ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.REQUEST_TIMED_OUT, ErrorCode.NOT_ENOUGH_REPLICAS}


def _produce_acked(bootstrap: str, topic: str, values: list[bytes]) -> None:
    """acks=all through a real client; every delivery must succeed."""
    p = confluent_kafka.Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5,
                                  "message.timeout.ms": 60000, "enable.idempotence": True})
    errors = []
    for v in values:
        p.produce(topic, v, partition=0, on_delivery=lambda err, _m: err and errors.append(err))
    assert p.flush(90) == 0
    assert not errors, errors


def _produce_pinned(bootstrap: str, topic: str, value: bytes, timeout_ms: int) -> int:
    """One acks=all Produce sent on a connection to exactly ``bootstrap`` (no metadata routing):
    the partition's error code."""
    req = ProduceRequest(acks=-1, timeout_ms=timeout_ms, topic_data=[TopicProduceData(
        name=topic, partition_data=[PartitionProduceData(index=0, records=build_batch([(None, value)]))])])
    with KafkaClient(bootstrap, timeout=timeout_ms / 1000 + 30) as client:
        version = min(client.api_version(0), 12)  # by name
        resp = client.request(0, req, version=version, wait_s=timeout_ms / 1000)
    return resp.responses[0].partition_responses[0].error_code


def _log_bytes(data_dir: str, topic: str) -> bytes:
    part = os.path.join(data_dir, f"{topic}-0")
    return b"".join(open(p, "rb").read() for p in sorted(glob.glob(os.path.join(part, "*.log"))))


def _partition(c, topic: str, via: int):
    return c.metadata([topic], bootstrap=c.broker(via).bootstrap).topics[topic].partitions[0]


def test_deposed_leader_cut_from_zookeeper_never_acks_and_rejoins_as_follower(
        make_cluster, zookeeper, tcp_proxy):  # noqa: F811 (fixtures)
    proxy = tcp_proxy(zookeeper.port)
    c = make_cluster(3, overrides={"min.insync.replicas": "2", "replica.lag.time.max.ms": str(LAG_MS),
                                   "unclean.leader.election.enable": "false"},
                     session_timeout_ms=4000, zk_hosts={CUT: proxy.address})
    assert proxy.accepted >= 1  # broker 3 really reaches ZooKeeper through the proxy
    topic = f"deposed-{uuid.uuid4().hex[:8]}"
    t = c.create_topic(topic, partitions=1, replication_factor=3, assignment={0: [CUT, 1, 2]})
    before = t.partitions[0]
    assert before.leader == CUT and sorted(before.isr) == [1, 2, 3]
    others = [b for b in c.brokers if b.node_id != CUT]
    survivors = ",".join(b.bootstrap for b in others)

    acked = [b"before-%d" % i for i in range(20)]
    _produce_acked(c.bootstrap, topic, acked)
    # the control: straight to the leader, acks=all succeeds while ZooKeeper is reachable
    assert _produce_pinned(c.broker(CUT).bootstrap, topic, b"before-direct", 30000) == 0
    acked.append(b"before-direct")

    mark = len(c.broker(CUT).lines)
    proxy.cut()
    cut_at = time.monotonic()
    # the session expires (4 s); the controller (whichever broker it is) elects 1 or 2 at a new epoch
    for b in others:
        c.wait_until(lambda md: md.topics.get(topic) is not None
                     and md.topics[topic].partitions[0].leader in (1, 2)
                     and md.topics[topic].partitions[0].leader_epoch > before.leader_epoch,
                     60, f"broker {b.node_id} to see a new leader", topics=[topic], bootstrap=b.bootstrap)
    elected = _partition(c, topic, others[0].node_id)
    new = elected.leader
    assert CUT not in elected.isr and sorted(elected.isr) == sorted(r for r in (1, 2, 3) if r != CUT)
    # the deposed leader still runs; its image cannot change (it names itself, or no leader once fenced)
    stale = _partition(c, topic, CUT)
    assert stale.leader in (CUT, -1) and stale.leader_epoch == before.leader_epoch, stale

    # acks=all straight to the deposed leader: appended there, never acknowledged
    refused = []
    code = _produce_pinned(c.broker(CUT).bootstrap, topic, b"deposed-0", 2000)
    assert code in REFUSED, f"the deposed leader answered {ErrorCode(code).name} to an acks=all produce"
    refused.append(b"deposed-0")
    # meanwhile the cluster acknowledges acks=all writes at the new leader (ISR of 2 = min ISR)
    after = [b"after-%d" % i for i in range(20)]
    _produce_acked(survivors, topic, after)
    acked += after

    # its followers gone and its session expired, the deposed leader fences itself: it stops
    # claiming the leadership (no ISR change is written or adopted meanwhile)
    def since_cut() -> list[str]:
        return c.broker(CUT).lines[mark:]

    deadline = time.monotonic() + 60
    while not any("resigning leadership" in line for line in since_cut()):
        assert time.monotonic() < deadline, "the deposed leader never fenced itself"
        time.sleep(0.2)
    assert not any("ISR now" in line for line in since_cut())
    assert _partition(c, topic, CUT).leader == -1
    for i in (1, 2):
        code = _produce_pinned(c.broker(CUT).bootstrap, topic, b"deposed-%d" % i, 2000)
        assert code == ErrorCode.NOT_LEADER_OR_FOLLOWER, f"the fenced leader answered {ErrorCode(code).name}"
        refused.append(b"deposed-%d" % i)
    assert c.broker(CUT).alive

    # one more, with a long timeout: refused at once by the fenced broker, and never appended
    waiting: dict = {}

    def long_produce() -> None:
        waiting["code"] = _produce_pinned(c.broker(CUT).bootstrap, topic, b"deposed-waiting", 120000)

    th = threading.Thread(target=long_produce, daemon=True)
    th.start()
    th.join(30)
    assert waiting.get("code") == ErrorCode.NOT_LEADER_OR_FOLLOWER, waiting
    refused.append(b"deposed-waiting")
    appended_while_deposed = b"deposed-" in _log_bytes(c.broker(CUT).data_dir, topic)
    assert _log_bytes(c.broker(CUT).data_dir, topic).count(b"deposed-") <= 1  # at most the one before fencing
    cut_for = time.monotonic() - cut_at

    proxy.restore()
    # a new session: broker 3 registers again, learns the new leader and follows it
    c.wait_until(lambda md: CUT in md.brokers, 60, "broker 3 registered again", bootstrap=others[0].bootstrap)
    c.wait_until(lambda md: md.topics.get(topic) is not None and md.topics[topic].partitions[0].leader == new,
                 60, "broker 3 to see the new leader", topics=[topic], bootstrap=c.broker(CUT).bootstrap)
    md = c.wait_until(lambda md: md.topics.get(topic) is not None
                      and sorted(md.topics[topic].partitions[0].isr) == [1, 2, 3],
                      90, "broker 3 back in the ISR", topics=[topic])
    assert md.topics[topic].partitions[0].leader == new

    # nothing acknowledged is lost, nothing refused is there: read from the new leader, in order
    got = read_values(c.broker(new).bootstrap, topic, len(acked), timeout=60.0, linger=2.0)
    assert got == acked, f"read {len(got)} records, acked {len(acked)}"
    # the deposed leader truncated its tail and holds exactly the new leader's log
    deadline = time.monotonic() + 60
    while _log_bytes(c.broker(CUT).data_dir, topic) != _log_bytes(c.broker(new).data_dir, topic):
        assert time.monotonic() < deadline, "the old leader's log did not converge to the new leader's"
        time.sleep(0.2)
    ours = _log_bytes(c.broker(CUT).data_dir, topic)
    assert not any(v in ours for v in refused)
    if appended_while_deposed:  # the line comes through a thread reading the broker's stdout
        deadline = time.monotonic() + 30
        while not any("truncating" in line for line in c.broker(CUT).lines[:]):
            assert time.monotonic() < deadline, "the deposed leader did not log its truncation"
            time.sleep(0.1)
    print(f"\nacked {len(acked)}, read {len(got)}, refused by the deposed leader {len(refused)}, "
          f"ZooKeeper cut for {cut_for:.1f} s")
