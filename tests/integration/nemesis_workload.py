"""The queue workload of the partition tests: real clients whose every operation is recorded.

* two idempotent acks=all producers (confluent-kafka) writing unique values to
  one partition; each delivery report becomes a ``Send``: ``ok`` with the
  offset the broker gave, or ``info`` (indeterminate: librdkafka does not say
  whether a failed message was persisted);
* an assign-based consumer (no group) and a subscribe-based one (a group,
  rebalancing under faults: every assignment is a ``Reset``), polling all the
  time; each delivered record becomes part of a ``Poll``;
* ``final_reads``: every replica's log read from its files (offset 0 to the end)
  once the cluster has recovered, for ``kwire.nemesis.checker.check``.

``nemesis_cluster``: the fixture making a 3-broker cluster whose ZooKeeper and
brokers each listen on an address of their own (a random /24 of 127/8, or
``KWIRE_NEMESIS_BLOCK``), with a ``kwire.nemesis`` firewall removed at the end.
Every port is bound on those addresses, and the firewall's chain is the
process's own, so runs in separate processes do not interfere.

``Prober``: acks=all Produce requests to every broker on a fresh connection
each, so what a broker answers is measured apart from the workload's clients.

The clients run on 127.0.0.1, an address no fault cuts: they always reach
every broker, as clients outside a partitioned cluster do.
"""

from __future__ import annotations

import os
import random
import threading
import time
import uuid

import pytest
from cluster_fixtures import Cluster, ZooKeeperServer, _need_zookeeper

from kwire.nemesis import NemesisError, Topology
from kwire.nemesis.availability import longest_gap  # noqa: F401 (the tests import it from here)
from kwire.nemesis.checker import INFO, OK, Poll, Reset, Send

SESSION_MS = 6000  # zookeeper.session.timeout.ms of the nemesis clusters
REQUEST_TIMEOUT_MS = 10000  # the queue producers' request.timeout.ms: the timeout of their acks=all Produce requests
# records/s per queue producer in the CI tests (``QueueWorkload(rate=...)``): ~250 writes each through a
# 10-15 s fault, before, during and after it, are what the checker needs; unpaced (~60/s each, what the
# long runs keep) the brokers' CPU is about twice as much
CI_RATE = 25.0



def _client_debug() -> dict:
    """``KWIRE_NEMESIS_CLIENT_DEBUG`` (e.g. ``broker,topic,msg,eos``): librdkafka's debug contexts for
    the queue producers, logged to stderr with the time (what a producer waits for after a fault)."""
    contexts = os.environ.get("KWIRE_NEMESIS_CLIENT_DEBUG")
    return {"debug": contexts, "log.thread.name": True} if contexts else {}


class _Recorded:
    """A history shared by a workload's client threads; ``start`` runs them all."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        import confluent_kafka

        self.ck = confluent_kafka
        self.bootstrap, self.topic = bootstrap, topic
        self.history: list = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []  # producers
        self._readers: list[threading.Thread] = []  # consumers

    def record(self, op) -> None:
        with self._lock:
            self.history.append(op)

    def start(self):
        for t in self._threads + self._readers:
            t.start()
        return self

    def _stop_producers(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(200)


class QueueWorkload(_Recorded):
    def __init__(self, bootstrap: str, topic: str, producers: int = 2, producer_config: dict | None = None,
                 rate: float | None = None) -> None:
        super().__init__(bootstrap, topic)
        self.producer_config = dict(producer_config or {})  # over the defaults, e.g. acks=1
        # records/s per producer (None: as fast as a produce and a 20 ms poll allow, ~60/s each, the
        # long runs' pace); the per-kind CI tests pace their writers: the brokers' CPU follows it
        self.rate = rate
        self._stop_consumers = threading.Event()
        self.ack_times: list[float] = []
        # librdkafka's statistics, once a second per producer: (time, client, broker id, the longest round
        # trip of a request answered in the last second (s), its requests timed out so far); request_figures
        self.request_stats: list[tuple[float, str, int, float, int]] = []
        self._threads = [threading.Thread(target=self._produce, args=(f"p{i}",), daemon=True)
                         for i in range(producers)]
        self._readers = [threading.Thread(target=self._consume, args=(name, sub), daemon=True)
                         for name, sub in (("assign", False), ("subscribe", True))]
        self.errors: list[str] = []

    @property
    def acknowledged(self) -> int:
        with self._lock:
            return sum(1 for op in self.history if isinstance(op, Send) and op.outcome == OK)

    # -- producers -------------------------------------------------------------------------
    def _produce(self, name: str) -> None:
        p = self.ck.Producer({"bootstrap.servers": self.bootstrap, "acks": "all", "enable.idempotence": True,
                              "linger.ms": 5, "message.timeout.ms": 120000,
                              "topic.metadata.refresh.interval.ms": 1000,
                              "retry.backoff.ms": 100, "retry.backoff.max.ms": 500,
                              "request.timeout.ms": REQUEST_TIMEOUT_MS, "statistics.interval.ms": 1000,
                              "stats_cb": self._stats, **_client_debug(), **self.producer_config})

        def report(err, msg) -> None:
            if err is None:
                self.ack_times.append(time.monotonic())
                self.record(Send(name, msg.partition(), msg.value(), OK, msg.offset()))
            else:
                self.record(Send(name, msg.partition() if msg.partition() >= 0 else 0, msg.value(), INFO))

        n = 0
        interval = 1.0 / self.rate if self.rate else None
        due = time.monotonic()
        while not self._stop.is_set():
            if interval is not None:  # paced: serve delivery reports until the next record is due
                while (left := due - time.monotonic()) > 0 and not self._stop.is_set():
                    p.poll(left)
                due = max(due + interval, time.monotonic() - interval)  # no burst after a stall
                if self._stop.is_set():
                    break
            try:
                p.produce(self.topic, b"%s-%d" % (name.encode(), n), partition=0, on_delivery=report)
                n += 1
            except BufferError:
                pass
            if interval is None:
                p.poll(0.02)
        if p.flush(150) != 0:
            self.errors.append(f"{name}: messages still unanswered after 150 s")

    def _stats(self, text: str) -> None:
        import json

        now, stats = time.monotonic(), json.loads(text)
        for b in stats.get("brokers", {}).values():
            if b.get("nodeid", -1) >= 0:  # the bootstrap entries (-1) duplicate the real ones
                self.request_stats.append((now, stats.get("name", ""), b["nodeid"],
                                           b.get("rtt", {}).get("max", 0) / 1e6, b.get("req_timeouts", 0)))

    def request_figures(self, since: float, until: float | None = None, skip: frozenset = frozenset()) -> dict:
        """From the producers' statistics between ``since`` and ``until``: the longest round trip of a
        request any broker answered (``longest_request_s``), and the requests that timed out in the
        client (``timed_out``: not answered within ``REQUEST_TIMEOUT_MS``), brokers in ``skip`` (a
        paused one: a stopped process answers nothing) left out."""
        rows = list(self.request_stats)
        start: dict = {}  # (client, broker) -> its cumulative timeouts before ``since``
        end: dict = {}
        longest = 0.0
        for t, client, node, rtt, n in rows:
            if node in skip:
                continue
            if t < since:
                start[(client, node)] = n
            elif until is None or t <= until:
                end[(client, node)] = n
                longest = max(longest, rtt)
        return {"longest_request_s": longest, "timed_out": sum(n - start.get(k, 0) for k, n in end.items()),
                "request_timeout_s": REQUEST_TIMEOUT_MS / 1000}

    # -- consumers -------------------------------------------------------------------------
    def _consume(self, name: str, subscribe: bool) -> None:
        ck = self.ck
        c = ck.Consumer({"bootstrap.servers": self.bootstrap, "group.id": f"nemesis-{uuid.uuid4().hex[:6]}",
                         "enable.auto.commit": True, "auto.offset.reset": "earliest",
                         "topic.metadata.refresh.interval.ms": 1000, "session.timeout.ms": 10000,
                         "heartbeat.interval.ms": 1000})
        if subscribe:
            c.subscribe([self.topic], on_assign=lambda *_a: self.record(Reset(name)),
                        on_revoke=lambda *_a: self.record(Reset(name)))
        else:
            c.assign([ck.TopicPartition(self.topic, 0, ck.OFFSET_BEGINNING)])
            self.record(Reset(name))
        try:
            while not self._stop_consumers.is_set():
                msgs = c.consume(100, 0.2)
                recs = tuple((m.offset(), m.value()) for m in msgs if m.error() is None)
                if recs:
                    self.record(Poll(name, 0, recs))
        finally:
            c.close()

    # -- lifecycle -------------------------------------------------------------------------
    def stop_producers(self) -> None:
        self._stop_producers()

    def stop_consumers(self, end_offset: int, timeout: float = 60.0) -> None:
        """Let the consumers read up to ``end_offset`` (or time out), then stop them."""
        deadline = time.monotonic() + timeout

        def done(name: str) -> bool:
            with self._lock:
                return any(isinstance(op, Poll) and op.process == name and op.records[-1][0] >= end_offset - 1
                           for op in self.history)

        while time.monotonic() < deadline and not all(done(n) for n in ("assign", "subscribe")):
            time.sleep(0.2)
        self._stop_consumers.set()
        for t in self._readers:
            t.join(30)



def produce_pinned(bootstrap: str, topic: str, value: bytes, timeout_ms: int, took: list | None = None) -> int:
    """One acks=all Produce on a connection to exactly ``bootstrap``: the partition's error code
    (``took``: the seconds from sending the Produce to its answer are appended, the connection's
    set-up left out)."""
    from kwire.client import KafkaClient
    from kwire.protocol.generated.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
    from kwire.records.builder import build_batch

    req = ProduceRequest(acks=-1, timeout_ms=timeout_ms, topic_data=[TopicProduceData(
        name=topic, partition_data=[PartitionProduceData(index=0, records=build_batch([(None, value)]))])])
    with KafkaClient(bootstrap, timeout=timeout_ms / 1000 + 30) as client:
        version = min(client.api_version(0), 12)
        sent = time.monotonic()
        resp = client.request(0, req, version=version, wait_s=timeout_ms / 1000)
        if took is not None:
            took.append(time.monotonic() - sent)
    return resp.responses[0].partition_responses[0].error_code


class Prober:
    """acks=all Produce requests (timeout ``REQUEST_TIMEOUT_MS``) sent straight to every broker, one
    after another per broker, to a topic of their own: how long each took to be answered (a leader
    must answer by the timeout, also one cut off from its ISR; the others answer NOT_LEADER at once).
    The workloads' topics are left alone, so the checker sees none of these values."""

    def __init__(self, brokers: dict[int, str], topic: str) -> None:
        self.topic = topic
        # (sent, broker, seconds to the answer or None, the partition's error code or None)
        self.probes: list[tuple[float, int, float | None, int | None]] = []
        self._pending: dict[int, float] = {}  # broker -> when its outstanding probe was sent
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._loop, args=(b, addr), daemon=True)
                         for b, addr in brokers.items()]

    def start(self) -> "Prober":
        for t in self._threads:
            t.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _loop(self, broker: int, bootstrap: str) -> None:
        n = 0
        while not self._stop.is_set():
            sent, took = time.monotonic(), []
            self._pending[broker] = sent
            try:
                code = produce_pinned(bootstrap, self.topic, b"probe-%d-%d" % (broker, n), REQUEST_TIMEOUT_MS, took)
                self.probes.append((sent, broker, took[0], code))
            except Exception:  # a broker down, killed or restarting: not an answer, and not a late one
                self.probes.append((sent, broker, None, None))
            self._pending.pop(broker, None)
            n += 1
            self._stop.wait(0.5)

    def figures(self, since: float, until: float, skip: frozenset = frozenset()) -> dict:
        """The longest time an acks=all probe sent in ``[since, until]`` took to be answered (one still
        unanswered counts with its age), brokers in ``skip`` (a paused one) left out."""
        now = time.monotonic()
        took = [d for t, b, d, _code in list(self.probes) if since <= t <= until and b not in skip and d is not None]
        # one still waiting (its connection's set-up included)
        took += [now - t for b, t in list(self._pending.items()) if since <= t <= until and b not in skip]
        return {"longest_request_s": max(took, default=0.0), "requests": len(took),
                "request_timeout_s": REQUEST_TIMEOUT_MS / 1000}


    def acks(self, exclude: int) -> list[float]:
        """When each acks=all probe answered by a broker other than ``exclude`` was acknowledged
        (error code 0): the writes the probe topic's leaders took, each on a fresh connection."""
        return [t + d for t, b, d, code in list(self.probes) if b != exclude and code == 0]


def final_reads(cluster, topic: str) -> dict:
    """{broker id: {0: [(offset, value), ...]}} from every replica's files."""
    from clients import decoded_batches

    out = {}
    for b in cluster.brokers:
        recs = []
        for part, batch in decoded_batches(b.data_dir, topic):
            if part != 0 or batch.header.attributes & 0x20:  # control batches (markers) hold no values
                continue
            base = batch.header.base_offset
            recs.extend((base + r.offset_delta, r.value) for r in batch.records)
        out[str(b.node_id)] = {0: recs}
    return out


def final_producers(cluster, topic: str) -> dict:
    """{(0, offset): (producer id, producer epoch)} of the stored batches, from the first replica
    (by broker id) holding each offset (``verifier.stored_batches``): ``check``'s ``producers``."""
    from verifier import stored_batches

    found = stored_batches({b.node_id: b.data_dir for b in cluster.brokers}, topic, 0)
    return {(0, o): (pid, epoch) for o, (pid, epoch, _seq) in found.items()}


def stopped_and_checked(cluster, workload: "QueueWorkload", topic: str, consumer_timeout: float = 60.0):
    """Stop ``workload``'s producers, let its consumers read to the end, wait until every replica
    of ``topic`` is equal (the heal done), and return ``kwire.nemesis.checker.check`` of it."""
    from verifier import wait_for

    from kwire.nemesis.checker import check

    workload.stop_producers()
    assert not workload.errors, workload.errors
    end = max((op.offset for op in workload.history if getattr(op, "offset", None) is not None), default=0) + 1
    workload.stop_consumers(end, timeout=consumer_timeout)

    def equal():
        f = final_reads(cluster, topic)
        return len({tuple(v[0]) for v in f.values()}) == 1 and f

    final = wait_for(equal, 60, f"every replica of {topic} equal after the heal")
    return check(workload.history, final, final_producers(cluster, topic))


def wait_all_isrs_full(c, timeout: float = 60.0) -> tuple[float, dict]:
    """Until every partition of every topic, the internal ones included, has a leader and its full
    ISR (idle ones too: nothing but follower fetches brings those back). Returns the seconds taken
    and the partitions still short at the end ({} when all are full)."""
    started = time.monotonic()
    while True:
        md = c.metadata(None)
        short = {f"{t.name}-{p.partition}": (p.leader, sorted(p.isr)) for t in md.topics.values()
                 for p in t.partitions.values() if p.leader < 0 or sorted(p.isr) != sorted(p.replicas)}
        if not short or time.monotonic() - started > timeout:
            return time.monotonic() - started, short
        time.sleep(0.5)


def _preferred_leaders(c) -> None:
    """A preferred leader election of every partition (ElectLeaders), then until every partition
    (internal ones too) is led by its first replica: the coordinators back where the previous
    tests' faults moved them from."""
    from confluent_kafka import ElectionType
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": c.bootstrap})  # (kept: a collected client fails its futures)
    admin.elect_leaders(ElectionType.PREFERRED, None).result(60)
    c.wait_until(lambda md: all(p.leader == p.replicas[0] and sorted(p.isr) == sorted(p.replicas)
                                for t in md.topics.values() for p in t.partitions.values()),
                 60, "every partition led by its preferred replica, with its full ISR")


def assert_healthy(c, fw) -> None:
    """The state every fault starts from, on a cluster a previous test of the module left: no link
    cut, every broker and ZooKeeper member running (none paused), all brokers registered with a
    live controller, and every partition of every topic (internal ones too) led with its full ISR;
    on a cluster used before, by its preferred replica (``_preferred_leaders``), as when new."""
    assert fw.rules() == [], f"links still cut: {fw.rules()}"
    assert all(b.alive and not b.paused for b in c.brokers), [(b.node_id, b.alive, b.paused) for b in c.brokers]
    assert all(m.proc is not None and m.proc.poll() is None for m in c.zk_members), "a ZooKeeper member is down"
    md = c.wait_until(lambda md: set(md.brokers) == {1, 2, 3} and md.controller_id in (1, 2, 3), 60,
                      "all 3 brokers registered and a controller")
    took, short = wait_all_isrs_full(c)
    assert not short, f"partitions short of their ISR {took:.0f} s before the fault: {short}"
    if getattr(c, "reused", 0):  # the leaderships a fresh cluster has: each partition's preferred replica
        _preferred_leaders(c)
    print(f"nemesis healthy start (cluster used {getattr(c, 'reused', 0)} time(s) before, controller "
          f"{md.controller_id}, {len(md.topics)} topics)", flush=True)


def _firewall():
    from kwire.nemesis.firewall import Firewall

    try:
        return Firewall().install()
    except NemesisError as e:
        pytest.skip(f"the partition nemesis cannot run here: {e}")


class _Maker:
    """Clusters (and their ZooKeeper) on one loopback /24, all behind one firewall; ``close`` stops
    them (the links healed first: brokers then stop quickly), printing their logs if asked."""

    def __init__(self, base_dir: str, fw, block: str) -> None:
        self.base_dir, self.fw, self.block = base_dir, fw, block
        self.made: list = []

    def __call__(self, overrides: dict | None = None, env: dict | None = None, ensemble: int = 1,
                 per_broker=None):
        _need_zookeeper()
        block, base = self.block, os.path.join(self.base_dir, uuid.uuid4().hex[:6])
        if ensemble == 1:
            zk = ZooKeeperServer(os.path.join(base, "zookeeper"), host=f"{block}.10")
            self.made.append(zk)
            zk.start()
        else:  # members on .7, .8, ...; the cluster connects to all of them
            members = start_ensemble(base, [f"{block}.{7 + i}" for i in range(ensemble)], self.made)
            zk = _EnsembleView(members)
        hosts = {i: f"{block}.{10 + i}" for i in (1, 2, 3)}
        c = Cluster(zk, os.path.join(base, "cluster"), 3, overrides, SESSION_MS, hosts=hosts, env=env,
                    per_broker=per_broker(block) if per_broker else None)
        self.made.append(c)
        c.start()
        topo = Topology({"zk": f"{block}.10", **{str(i): h for i, h in hosts.items()}})
        c.zk_members = getattr(zk, "members", [zk])
        return c, self.fw, topo

    def close(self, logs: bool = False) -> None:
        self.fw.heal()
        made, self.made = self.made, []
        for thing in reversed(made):
            if isinstance(thing, Cluster):
                thing.close()
                if logs:
                    print(thing.log_text())
            else:
                thing.stop()


def _block() -> str:
    # KWIRE_NEMESIS_BLOCK (e.g. 127.201.7): runs at the same time on one machine kept apart for sure
    return os.environ.get("KWIRE_NEMESIS_BLOCK") or f"127.{random.randint(100, 250)}.{random.randint(0, 255)}"


@pytest.fixture
def nemesis_cluster(tmp_path, request):
    """``make(overrides, env)``: (cluster, firewall, topology) on a loopback /24 of the test's own
    (``env``: broker id -> environment variables of that broker's process; ``per_broker``:
    broker id -> overrides of that broker alone, given ``(block)`` -> dict, ``block`` the /24)."""
    _need_zookeeper()
    fw = _firewall()
    make = _Maker(str(tmp_path), fw, _block())
    failed_before = request.session.testsfailed
    try:
        yield make
    finally:
        try:
            make.close(logs=request.session.testsfailed > failed_before)
        finally:
            fw.close()


@pytest.fixture(scope="module")
def _nemesis_pool(tmp_path_factory):
    """The module's firewall and its one live shared cluster (``shared_nemesis_cluster``)."""
    _need_zookeeper()
    fw = _firewall()
    pool = {"make": _Maker(str(tmp_path_factory.mktemp("nemesis")), fw, _block()), "key": None, "made": None}
    try:
        yield pool
    finally:
        try:
            pool["make"].close()
        finally:
            fw.close()


@pytest.fixture
def shared_nemesis_cluster(_nemesis_pool, request):
    """``nemesis_cluster``'s ``make``, but the cluster outlives the test: the module's next test asking
    for the same (overrides, env, ensemble) gets it again, as the last test left it (healed: the
    firewall is emptied after every test). Asking for another kind of cluster stops the one kept; a
    test that fails stops it too (its logs printed), so the next test starts a fresh one. A test
    reusing a cluster must check it is healthy first (every broker up, every ISR full)."""
    pool, failed_before = _nemesis_pool, request.session.testsfailed

    def make(overrides: dict | None = None, env: dict | None = None, ensemble: int = 1):
        key = repr((sorted((overrides or {}).items()), sorted((env or {}).items()), ensemble))
        if pool["key"] != key:
            pool["make"].close()
            pool["key"], pool["made"] = None, None
            pool["made"] = pool["make"](overrides, env, ensemble)
            pool["key"] = key
            pool["made"][0].reused = 0
        else:
            pool["made"][0].reused += 1
        return pool["made"]

    try:
        yield make
    finally:
        failed = request.session.testsfailed > failed_before
        if failed or pool["key"] is None:
            pool["make"].close(logs=failed)
            pool["key"], pool["made"] = None, None
        else:
            pool["make"].fw.heal()


class _EnsembleView:
    """What ``Cluster`` needs of its ZooKeeper (``connect``, ``port``) for an ensemble."""

    def __init__(self, members) -> None:
        self.members = members
        self.port = members[0].port

    @property
    def connect(self) -> str:
        return ",".join(m.connect for m in self.members)


def start_ensemble(base_dir: str, hosts: list[str], made: list) -> list:
    """A ZooKeeper ensemble, one member per address (its quorum and election ports on it too)."""
    import os

    from cluster_fixtures import free_port

    members = [ZooKeeperServer(os.path.join(base_dir, f"zookeeper-{i + 1}"), host=h) for i, h in enumerate(hosts)]
    quorum = "".join(f"server.{i + 1}={h}:{free_port(h)}:{free_port(h)}\n" for i, h in enumerate(hosts))
    for i, m in enumerate(members):
        with open(m.cfg, "a") as f:
            f.write("initLimit=20\nsyncLimit=8\n" + quorum)
        with open(os.path.join(m.data_dir, "myid"), "w") as f:
            f.write(f"{i + 1}\n")
        made.append(m)
    for m in members:
        m.start(wait=False)
    for m in members:
        m._wait_ready(90)
    return members
