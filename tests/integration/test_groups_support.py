"""Helpers for the consumer group tests: group members of each Python client in threads.

``Member(kind, bootstrap, topic, group, ...)`` runs one subscribed consumer of
``kind`` ("kafka-python", "aiokafka", "confluent") in its own thread: it polls,
keeps the records it got and its current assignment, commits when asked, and
records when the first record arrived (for join-to-first-record times).
``stop()`` closes the consumer, which sends LeaveGroup.

Every member installs a rebalance listener (kafka-python and aiokafka
``ConsumerRebalanceListener``, confluent ``on_assign``/``on_revoke``/``on_lost``)
that appends ("assigned" | "revoked" | "lost", partitions) to ``events``. With
``commit_on_revoke=True`` the listener commits, synchronously and before the
partitions are given up, the next offset of every revoked partition that the
member processed since it was (last) assigned. kafka-python and confluent call
the listener on close too; aiokafka does not, so ``stop()`` commits first.
``duplicates(members)`` and ``drained(members, ends)`` check the group's
records.

A crashed member (no LeaveGroup, no more heartbeats) cannot be faked inside
this process, since the clients heartbeat from their own threads:
``KILLABLE_CONSUMER`` is a script for a consumer in a subprocess, to be killed
with SIGKILL. No test lives in this module.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from typing import Callable

from verifier import wait_for

KINDS = ("kafka-python", "aiokafka", "confluent")
TIMEOUT_S = 30.0
TIMINGS: list[tuple[str, str, float]] = []  # (client, scenario, seconds from start to first record)
LIVE: list["Member"] = []  # members not stopped yet; tests stop leftovers in teardown


def wait_until(cond: Callable[[], object], timeout: float = TIMEOUT_S, what: str = "condition"):
    return wait_for(cond, timeout, what, interval=0.05)


def load_allowance() -> float:
    """How many times slower than on an idle machine a timing may be: the 1-minute load average
    per CPU, at least 1. For bounds that guard against a broker that *waits* (e.g. the initial
    rebalance delay), which must still hold on a machine busy with other work."""
    return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


def create_topic(bootstrap: str, topic: str, partitions: int) -> None:
    from kafka import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics({topic: {"num_partitions": partitions, "replication_factor": 1}})
    finally:
        admin.close()


def produce(bootstrap: str, topic: str, n: int, partitions: int, tag: str = "v") -> None:
    """n records spread round-robin over the partitions (explicit partition numbers)."""
    from kafka import KafkaProducer

    p = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5)
    try:
        for i in range(n):
            p.send(topic, value=f"{tag}-{i}".encode(), key=str(i).encode(), partition=i % partitions)
        p.flush(timeout=TIMEOUT_S)
    finally:
        p.close()


class Stream:
    """A producer thread writing record i to partition i % partitions until ``stop()``.

    Records go out in rounds of one per partition, a round every ``interval`` seconds, so
    that members join and leave while records keep arriving. ``stop()`` flushes and returns
    the end offset of every partition.
    """

    def __init__(self, bootstrap: str, topic: str, partitions: int, tag: str = "s",
                 interval: float = 0.02) -> None:
        from kafka import KafkaProducer

        self.topic, self.partitions, self.tag, self.interval = topic, partitions, tag, interval
        self.sent = 0
        self.errors: list[BaseException] = []
        self._futures: list = []
        self._producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stream", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                for _ in range(self.partitions):
                    i = self.sent
                    self._futures.append(self._producer.send(
                        self.topic, value=f"{self.tag}-{i}".encode(), key=str(i).encode(),
                        partition=i % self.partitions))
                    self.sent += 1
                self._stop.wait(self.interval)
        except BaseException as e:
            self.errors.append(e)

    def stop(self) -> dict[int, int]:
        self._stop.set()
        self._thread.join(TIMEOUT_S)
        try:
            self._producer.flush(timeout=TIMEOUT_S)
        finally:
            self._producer.close()
        assert not self.errors, self.errors
        failed = [f.exception for f in self._futures if not f.is_done or f.failed()]
        assert not failed, f"{len(failed)} of {self.sent} records not written: {failed[:3]}"
        return {p: len(range(p, self.sent, self.partitions)) for p in range(self.partitions)}


def duplicates(members: list["Member"]) -> list[tuple[int, int, str, str]]:
    """(partition, offset, first member, second member) of every record the group got twice."""
    seen: dict[tuple[int, int], str] = {}
    dups = []
    for i, m in enumerate(members):
        name = f"{m.kind}#{i}"
        for p, o, _ in list(m.records):
            if (p, o) in seen:
                dups.append((p, o, seen[(p, o)], name))
            seen[(p, o)] = name
    return dups


def drained(members: list["Member"], ends: dict[int, int]) -> bool:
    """Every partition is owned by one of ``members`` whose position is at its end offset.

    Past this point (with no further rebalance) the group receives no more records, so the
    records received can be checked for duplicates without waiting for some time.
    """
    positions: dict[int, int | None] = {}
    for m in members:
        for p, o in m.call("positions").items():
            if p in positions:
                return False  # two owners: a rebalance is still going on
            positions[p] = o
    return set(positions) == set(ends) and all(
        positions[p] is not None and positions[p] >= end for p, end in ends.items())


class Member:
    def __init__(self, kind: str, bootstrap: str, topic: str, group: str, *, assignor: str = "range",
                 instance_id: str | None = None, session_ms: int = 6000, heartbeat_ms: int = 500,
                 client_id: str | None = None, group_protocol: str = "classic",
                 topics: list[str] | None = None, commit_on_revoke: bool = False) -> None:
        self.kind = kind
        self.bootstrap, self.topic, self.group = bootstrap, topic, group
        self.assignor, self.instance_id = assignor, instance_id
        self.session_ms, self.heartbeat_ms = session_ms, heartbeat_ms
        self.client_id = client_id or f"{kind}-member"
        self.group_protocol = group_protocol  # "consumer" (KIP-848): confluent only
        self.subscription = topics or [topic]
        self.records: list[tuple[int, int, bytes]] = []  # (partition, offset, value)
        self.assigned: set[int] = set()
        self.assigned_tps: set[tuple[str, int]] = set()  # confluent only
        self.started = time.monotonic()
        self.first_record_s: float | None = None
        self.errors: list[BaseException] = []
        self.commit_on_revoke = commit_on_revoke
        self.events: list[tuple[str, frozenset[int]]] = []  # from the rebalance listener
        self.revoke_commits: list[dict[int, int]] = []  # what each revocation committed
        self._processed: dict[int, int] = {}  # next offset per partition since it was assigned
        self._commands: list[tuple[str, object, threading.Event, list]] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=f"member-{kind}", daemon=True)
        self._thread.start()
        LIVE.append(self)

    # -- control from the test ------------------------------------------------------------
    def call(self, what: str, arg=None, timeout: float = TIMEOUT_S):
        """Run a command on the consumer's own thread: "commit", "commit_async", "committed"."""
        done = threading.Event()
        out: list = []
        with self._lock:
            self._commands.append((what, arg, done, out))
        if not done.wait(timeout):
            raise AssertionError(f"{self.kind}: {what} did not finish in {timeout}s")
        if out and isinstance(out[0], BaseException):
            raise out[0]
        return out[0] if out else None

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(TIMEOUT_S)
        if self in LIVE:
            LIVE.remove(self)

    def values(self) -> set[bytes]:
        return {v for _, _, v in self.records}

    def positions(self) -> dict[int, int]:
        """Next offset per partition from the records received."""
        out: dict[int, int] = {}
        for p, o, _ in self.records:
            out[p] = max(out.get(p, 0), o + 1)
        return out

    # -- consumer thread --------------------------------------------------------------------
    def _got(self, partition: int, offset: int, value: bytes) -> None:
        with self._lock:
            if self.first_record_s is None:
                self.first_record_s = time.monotonic() - self.started
            self.records.append((partition, offset, value))
            self._processed[partition] = offset + 1

    def _assigned_event(self, partitions) -> None:
        partitions = frozenset(partitions)
        with self._lock:
            for p in partitions:
                self._processed.pop(p, None)  # a new ownership period starts
            self.events.append(("assigned", partitions))

    def _revoking(self, kind: str, partitions) -> dict[int, int]:
        """Record a revocation; the offsets to commit for it (none for "lost" or without the option)."""
        with self._lock:
            self.events.append((kind, frozenset(partitions)))
            todo = {p: self._processed.pop(p) for p in partitions if p in self._processed}
        return todo if self.commit_on_revoke and kind == "revoked" else {}

    def _take_commands(self):
        with self._lock:
            cmds, self._commands = self._commands, []
        return cmds

    def _run(self) -> None:
        try:
            if self.kind == "aiokafka":
                asyncio.run(self._run_aiokafka())
            elif self.kind == "confluent":
                self._run_confluent()
            else:
                self._run_kafka_python()
        except BaseException as e:  # surfaced by the test through .errors
            self.errors.append(e)

    def _run_kafka_python(self) -> None:
        from kafka import AsyncConsumerRebalanceListener, KafkaConsumer, TopicPartition
        from kafka.coordinator.assignors.cooperative_sticky import CooperativeStickyAssignor
        from kafka.coordinator.assignors.range import RangePartitionAssignor
        from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
        from kafka.structs import OffsetAndMetadata

        assignors = {"range": RangePartitionAssignor, "roundrobin": RoundRobinPartitionAssignor,
                     "cooperative-sticky": CooperativeStickyAssignor}
        kw = {"group_instance_id": self.instance_id} if self.instance_id else {}
        c = KafkaConsumer(bootstrap_servers=self.bootstrap, group_id=self.group,
                          client_id=self.client_id, auto_offset_reset="earliest",
                          enable_auto_commit=False, session_timeout_ms=self.session_ms,
                          heartbeat_interval_ms=self.heartbeat_ms,
                          partition_assignment_strategy=[assignors[self.assignor]], **kw)
        member = self

        # kafka-python 3 runs listeners on its IO thread, where the blocking commit() raises;
        # an async listener awaits commit_async()'s future instead: still committed before the
        # partitions are given up (the rebalance waits for the listener).
        class Listener(AsyncConsumerRebalanceListener):
            async def on_partitions_revoked(self, revoked):
                await self._revoke("revoked", revoked)

            async def on_partitions_lost(self, lost):
                await self._revoke("lost", lost)

            async def on_partitions_assigned(self, assigned):
                member._assigned_event(tp.partition for tp in assigned if tp.topic == member.topic)

            async def _revoke(self, kind, tps):
                todo = member._revoking(kind, [tp.partition for tp in tps if tp.topic == member.topic])
                if todo:
                    await c.commit_async({TopicPartition(member.topic, p): OffsetAndMetadata(o, "", -1)
                                          for p, o in todo.items()})
                    member.revoke_commits.append(todo)

        c.subscribe(self.subscription, listener=Listener())
        try:
            while not self._stop.is_set():
                # Not shorter: kafka-python 3.0.12 can lose a join whose poll() times out
                # between its SyncGroup request and the response (the member then never
                # heartbeats again and its session expires); see the report.
                for tp, recs in c.poll(timeout_ms=1000).items():
                    for r in recs:
                        self._got(tp.partition, r.offset, r.value)
                self.assigned = {tp.partition for tp in c.assignment()}
                for what, arg, done, out in self._take_commands():
                    try:
                        if what == "commit":
                            if arg:
                                c.commit({TopicPartition(self.topic, p): OffsetAndMetadata(o, m, -1)
                                          for p, (o, m) in arg.items()})
                            else:
                                c.commit()
                        elif what == "commit_async":
                            fut = c.commit_async()
                            deadline = time.monotonic() + TIMEOUT_S
                            while not fut.is_done and time.monotonic() < deadline:
                                c.poll(timeout_ms=50)
                            if fut.failed():
                                raise fut.exception
                        elif what == "committed":
                            out.append({p: c.committed(TopicPartition(self.topic, p), metadata=True)
                                        for p in arg})
                        elif what == "positions":
                            out.append({tp.partition: c.position(tp) for tp in c.assignment()
                                        if tp.topic == self.topic})
                    except BaseException as e:
                        out.append(e)
                    done.set()
        finally:
            c.close()

    def _run_confluent(self) -> None:
        from confluent_kafka import Consumer, TopicPartition

        conf = {"bootstrap.servers": self.bootstrap, "group.id": self.group, "client.id": self.client_id,
                "auto.offset.reset": "earliest", "enable.auto.commit": False,
                "topic.metadata.refresh.interval.ms": 1000}
        if self.group_protocol == "consumer":  # the broker assigns and sets the timeouts
            conf["group.protocol"] = "consumer"
        else:
            conf.update({"session.timeout.ms": self.session_ms, "heartbeat.interval.ms": self.heartbeat_ms,
                         "partition.assignment.strategy": self.assignor})
        if self.instance_id:
            conf["group.instance.id"] = self.instance_id
        c = Consumer(conf)

        def on_assign(consumer, tps):  # the client then (incrementally) assigns them
            self._assigned_event(tp.partition for tp in tps if tp.topic == self.topic)

        def revoke(kind, consumer, tps):
            todo = self._revoking(kind, [tp.partition for tp in tps if tp.topic == self.topic])
            if todo:
                consumer.commit(offsets=[TopicPartition(self.topic, p, o) for p, o in todo.items()],
                                asynchronous=False)
                self.revoke_commits.append(todo)

        c.subscribe(self.subscription, on_assign=on_assign,
                    on_revoke=lambda consumer, tps: revoke("revoked", consumer, tps),
                    on_lost=lambda consumer, tps: revoke("lost", consumer, tps))
        try:
            while not self._stop.is_set():
                m = c.poll(0.1)
                if m is not None and m.error() is None:
                    self._got(m.partition(), m.offset(), m.value())
                assignment = c.assignment()
                self.assigned = {tp.partition for tp in assignment}
                self.assigned_tps = {(tp.topic, tp.partition) for tp in assignment}
                for what, arg, done, out in self._take_commands():
                    try:
                        if what == "commit":
                            if arg:
                                c.commit(offsets=[TopicPartition(self.topic, p, o, **({"metadata": meta} if meta else {}))
                                                  for p, (o, meta) in arg.items()], asynchronous=False)
                            else:
                                c.commit(asynchronous=False)
                        elif what == "commit_async":
                            c.commit(asynchronous=True)
                        elif what == "committed":
                            got = c.committed([TopicPartition(self.topic, p) for p in arg], timeout=10)
                            out.append({tp.partition: (tp.offset, tp.metadata) for tp in got})
                        elif what == "positions":
                            # the offset after the last record returned; before any record of
                            # the partition came, where fetching starts: the committed offset
                            mine = [tp for tp in c.assignment() if tp.topic == self.topic]
                            pos = {tp.partition: tp.offset for tp in c.position(mine)}
                            unknown = [tp for tp in mine if pos[tp.partition] < 0]
                            if unknown:
                                for tp in c.committed(unknown, timeout=10):
                                    pos[tp.partition] = tp.offset if tp.offset >= 0 else None
                            out.append(pos)
                    except BaseException as e:
                        out.append(e)
                    done.set()
        finally:
            c.close()

    async def _run_aiokafka(self) -> None:
        from aiokafka import AIOKafkaConsumer, ConsumerRebalanceListener, TopicPartition
        from aiokafka.coordinator.assignors.range import RangePartitionAssignor
        from aiokafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
        from aiokafka.structs import OffsetAndMetadata

        assignors = {"range": RangePartitionAssignor, "roundrobin": RoundRobinPartitionAssignor}
        kw = {"group_instance_id": self.instance_id} if self.instance_id else {}
        c = AIOKafkaConsumer(bootstrap_servers=self.bootstrap, group_id=self.group,
                             client_id=self.client_id, auto_offset_reset="earliest",
                             enable_auto_commit=False, session_timeout_ms=self.session_ms,
                             heartbeat_interval_ms=self.heartbeat_ms,
                             partition_assignment_strategy=(assignors[self.assignor],), **kw)
        member = self

        async def commit(todo):
            if todo:
                await c.commit({TopicPartition(member.topic, p): OffsetAndMetadata(o, "")
                                for p, o in todo.items()})
                member.revoke_commits.append(todo)

        class Listener(ConsumerRebalanceListener):
            async def on_partitions_revoked(self, revoked):
                await commit(member._revoking("revoked", [tp.partition for tp in revoked
                                                          if tp.topic == member.topic]))

            async def on_partitions_assigned(self, assigned):
                member._assigned_event(tp.partition for tp in assigned if tp.topic == member.topic)

        c.subscribe(self.subscription, listener=Listener())
        await c.start()
        try:
            while not self._stop.is_set():
                batch = await c.getmany(timeout_ms=100)
                for tp, recs in batch.items():
                    for r in recs:
                        self._got(tp.partition, r.offset, r.value)
                self.assigned = {tp.partition for tp in c.assignment()}
                for what, arg, done, out in self._take_commands():
                    try:
                        if what in ("commit", "commit_async"):
                            if arg:
                                await c.commit({TopicPartition(self.topic, p): OffsetAndMetadata(o, m)
                                                for p, (o, m) in arg.items()})
                            else:
                                await c.commit()
                        elif what == "committed":
                            # committed() returns offsets only; the coordinator call keeps metadata
                            tps = {TopicPartition(self.topic, p) for p in arg}
                            got = await c._coordinator.fetch_committed_offsets(tps)
                            out.append({tp.partition: got.get(tp) for tp in tps})
                        elif what == "positions":
                            out.append({tp.partition: await c.position(tp) for tp in c.assignment()
                                        if tp.topic == self.topic})
                    except BaseException as e:
                        out.append(e)
                    done.set()
            if self.commit_on_revoke:  # aiokafka's stop() does not call on_partitions_revoked
                await commit(self._revoking("revoked", [tp.partition for tp in c.assignment()
                                                        if tp.topic == self.topic]))
        finally:
            await c.stop()


KILLABLE_CONFLUENT_848 = r"""
import sys
from confluent_kafka import Consumer
bootstrap, topic, group = sys.argv[1], sys.argv[2], sys.argv[3]
c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": "consumer",
              "auto.offset.reset": "earliest", "enable.auto.commit": False})
c.subscribe([topic])
while True:
    c.poll(0.1)
"""

# poll(timeout_ms=1000), as in Member: with poll(timeout_ms=100) this member, the group's leader,
# now and then lost its membership during the rebalance that a second member's join starts
# (it never heartbeat or rejoined again, and the other member waited for its 3 partitions in vain).
KILLABLE_CONSUMER = r"""
import sys
from kafka import KafkaConsumer
bootstrap, topic, group, session = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
c = KafkaConsumer(topic, bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest",
                  enable_auto_commit=False, session_timeout_ms=session, heartbeat_interval_ms=300)
while True:
    c.poll(timeout_ms=1000)
    print("ASSIGNED", sorted(tp.partition for tp in c.assignment()), flush=True)
"""
