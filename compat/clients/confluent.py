"""confluent-kafka facade (librdkafka): Producer, Consumer, AdminClient.

librdkafka's Consumer insists on a ``group.id`` even when it only uses
``assign()``; ``fetch`` and ``list_offsets`` pass a throwaway one that never
joins (no subscribe, no commit), as applications do.
"""

from __future__ import annotations

import time

from compat.clients.base import (OP_TIMEOUT, Caps, Client, ConfigEntry, Delivery, ErrorSeen, GroupMember,
                                 Rec, norm_headers, replication_factor)


class ConfluentClient(Client):
    name = "confluent-kafka"
    caps = Caps()

    def version(self) -> str:
        import confluent_kafka

        return f"{confluent_kafka.version()} (librdkafka {confluent_kafka.libversion()[0]})"

    def _admin(self):
        from confluent_kafka.admin import AdminClient

        return AdminClient({"bootstrap.servers": self.bootstrap, "client.id": "kwire-compat"})

    def _admin_call(self, method: str, *args, **kw) -> dict:
        """Call an AdminClient method and wait for its futures. The client object must
        outlive the futures: librdkafka fails them with _DESTROY when it is collected."""
        admin = self._admin()
        futs = getattr(admin, method)(*args, **kw)
        try:
            return self._wait(futs, method)
        finally:
            del admin

    @staticmethod
    def _wait(futs: dict, what: str) -> dict:
        out = {}
        for k, f in futs.items():
            try:
                out[k] = f.result(timeout=OP_TIMEOUT)
            except Exception as e:
                raise AssertionError(f"{what} {k}: {e or repr(e)}") from e
        return out

    def create_topic(self, topic, partitions, configs=None):
        from confluent_kafka.admin import NewTopic

        self._admin_call("create_topics",
                         [NewTopic(topic, num_partitions=partitions, replication_factor=replication_factor(),
                                   config={k: str(v) for k, v in (configs or {}).items()})],
                         operation_timeout=OP_TIMEOUT, request_timeout=OP_TIMEOUT)

    def delete_topics(self, topics):
        self._admin_call("delete_topics", list(topics), operation_timeout=OP_TIMEOUT,
                         request_timeout=OP_TIMEOUT)

    def partition_leaders(self, topic):
        md = self._admin().list_topics(topic=topic, timeout=OP_TIMEOUT)
        tm = md.topics[topic]
        if tm.error is not None:
            raise AssertionError(f"metadata {topic}: {tm.error}")
        return {p: pm.leader for p, pm in tm.partitions.items()}

    def produce(self, topic, msgs, *, compression="none", acks="all"):
        from confluent_kafka import KafkaError, Producer

        p = Producer({"bootstrap.servers": self.bootstrap, "client.id": "kwire-compat",
                      "compression.type": compression, "acks": acks, "linger.ms": 20,
                      "batch.size": 1 << 20, "message.max.bytes": 4 << 20,
                      "message.timeout.ms": int(OP_TIMEOUT * 2000), "request.timeout.ms": int(OP_TIMEOUT * 1000),
                      "enable.idempotence": False})
        reports: list = [None] * len(msgs)

        def on_delivery(i):
            def cb(err, m):
                reports[i] = (err, m)
            return cb

        for i, m in enumerate(msgs):
            kw = {} if m.partition is None else {"partition": m.partition}
            if m.timestamp is not None:
                kw["timestamp"] = m.timestamp
            p.produce(topic, key=m.key, value=m.value, headers=list(m.headers),
                      on_delivery=on_delivery(i), **kw)
        left = p.flush(OP_TIMEOUT * 2)
        if left:
            raise AssertionError(f"{left} records still queued after flush({OP_TIMEOUT * 2:.0f}s)")
        out = []
        for err, dm in reports:
            if err is not None:
                out.append(Delivery(None, None, f"{err.name()}: {err.str()}",
                                    err.code() == KafkaError.MSG_SIZE_TOO_LARGE))
                continue
            off = dm.offset()
            out.append(Delivery(dm.partition(), off if off is not None and off >= 0 else None))
        return out

    def _consumer(self, **kw):
        from confluent_kafka import Consumer

        cfg = {"bootstrap.servers": self.bootstrap, "client.id": "kwire-compat",
               "group.id": f"compat-unused-{time.monotonic_ns()}", "enable.auto.commit": False,
               "auto.offset.reset": "earliest", "fetch.wait.max.ms": 200}
        cfg.update(kw)
        return Consumer(cfg)

    @staticmethod
    def _rec(m) -> Rec:
        if m.error():
            raise AssertionError(f"consumer error: {m.error()}")
        return Rec(m.partition(), m.offset(), m.key(), m.value(), norm_headers(m.headers()),
                   m.timestamp()[1])

    def fetch(self, topic, starts, count, timeout=OP_TIMEOUT, *, max_partition_fetch_bytes=None):
        from confluent_kafka import OFFSET_BEGINNING, TopicPartition

        c = self._consumer(**({"max.partition.fetch.bytes": max_partition_fetch_bytes}
                              if max_partition_fetch_bytes else {}))
        try:
            c.assign([TopicPartition(topic, p, OFFSET_BEGINNING if s == "earliest" else s)
                      for p, s in starts.items()])
            out: list[Rec] = []
            deadline = time.monotonic() + timeout
            while len(out) < count and time.monotonic() < deadline:
                out += [self._rec(m) for m in c.consume(num_messages=1000, timeout=0.2)]
            return out
        finally:
            c.close()

    def _read(self, c, count, timeout) -> list[Rec]:
        """Records until ``count``, passing over partition-EOF events."""
        from confluent_kafka import KafkaError

        out: list[Rec] = []
        deadline = time.monotonic() + timeout
        while len(out) < count and time.monotonic() < deadline:
            out += [self._rec(m) for m in c.consume(num_messages=1000, timeout=0.2)
                    if not (m.error() and m.error().code() == KafkaError._PARTITION_EOF)]
        return out

    def read_from_end(self, topic, partitions, produce, count, timeout=OP_TIMEOUT):
        # librdkafka resolves OFFSET_END in the background and position() stays invalid until a
        # record is consumed; what shows that the consumer is at the end is the partition-EOF
        # event (enable.partition.eof), which carries the offset it reached.
        from confluent_kafka import OFFSET_END, KafkaError, TopicPartition

        c = self._consumer(**{"enable.partition.eof": True})
        try:
            c.assign([TopicPartition(topic, p, OFFSET_END) for p in partitions])
            positions: dict[int, int] = {}
            early: list[Rec] = []
            deadline = time.monotonic() + OP_TIMEOUT
            while len(positions) < len(partitions):
                if time.monotonic() > deadline:
                    raise AssertionError(f"no partition EOF after assign(OFFSET_END) within {OP_TIMEOUT:.0f}s "
                                         f"(reached: {positions})")
                for m in c.consume(num_messages=100, timeout=0.2):
                    if m.error() and m.error().code() == KafkaError._PARTITION_EOF:
                        positions.setdefault(m.partition(), m.offset())
                    else:
                        early.append(self._rec(m))
            produce()
            return positions, early + self._read(c, count - len(early), timeout)
        finally:
            c.close()

    def read_from_timestamp(self, topic, partitions, timestamp, count, timeout=OP_TIMEOUT):
        # offsets_for_times gives OFFSET_END (-1) where no record is that late; assign() with
        # the offsets found is librdkafka's seek for partitions not yet assigned.
        from confluent_kafka import TopicPartition

        c = self._consumer()
        try:
            found = c.offsets_for_times([TopicPartition(topic, p, timestamp) for p in partitions],
                                        timeout=OP_TIMEOUT)
            for tp in found:
                if tp.error:
                    raise AssertionError(f"offsets_for_times {tp}: {tp.error}")
            c.assign(found)
            return ({tp.partition: (None if tp.offset < 0 else tp.offset) for tp in found},
                    self._read(c, count, timeout))
        finally:
            c.close()

    def list_offsets(self, topic, partitions, spec):
        from confluent_kafka import TopicPartition

        c = self._consumer()
        try:
            if spec in ("earliest", "latest"):
                i = 0 if spec == "earliest" else 1
                return {p: c.get_watermark_offsets(TopicPartition(topic, p), timeout=OP_TIMEOUT,
                                                   cached=False)[i] for p in partitions}
            res = c.offsets_for_times([TopicPartition(topic, p, spec) for p in partitions],
                                      timeout=OP_TIMEOUT)
            for tp in res:
                if tp.error:
                    raise AssertionError(f"offsets_for_times {tp}: {tp.error}")
            return {tp.partition: (None if tp.offset < 0 else tp.offset) for tp in res}
        finally:
            c.close()

    def max_timestamp_offset(self, topic, partition):
        from confluent_kafka import TopicPartition
        from confluent_kafka.admin import OffsetSpec

        res = self._admin_call("list_offsets", {TopicPartition(topic, partition): OffsetSpec.max_timestamp()},
                               request_timeout=OP_TIMEOUT)
        (info,) = res.values()
        return info.offset, info.timestamp

    def group_read(self, topic, group, count, *, metadata, timeout=45.0):
        from confluent_kafka import TopicPartition

        c = self._consumer(**{"group.id": group, "session.timeout.ms": 10000,
                              "heartbeat.interval.ms": 1000})
        try:
            c.subscribe([topic])
            out: list[Rec] = []
            deadline = time.monotonic() + timeout
            while len(out) < count and time.monotonic() < deadline:
                out += [self._rec(m) for m in c.consume(num_messages=count - len(out), timeout=0.2)]
            out = out[:count]
            nxt: dict[int, int] = {}
            for r in out:
                nxt[r.partition] = max(nxt.get(r.partition, 0), r.offset + 1)
            if nxt:
                c.commit(offsets=[TopicPartition(topic, p, o, metadata) for p, o in nxt.items()],
                         asynchronous=False)
            return out
        finally:
            c.close()

    def committed(self, group, topic):
        from confluent_kafka import ConsumerGroupTopicPartitions

        res = self._admin_call("list_consumer_group_offsets", [ConsumerGroupTopicPartitions(group)],
                               request_timeout=OP_TIMEOUT)[group]
        return {tp.partition: (tp.offset, tp.metadata) for tp in res.topic_partitions
                if tp.topic == topic and tp.offset >= 0}

    def delete_group(self, group):
        self._admin_call("delete_consumer_groups", [group], request_timeout=OP_TIMEOUT)

    def describe_configs(self, topic):
        from confluent_kafka.admin import ConfigResource, ConfigSource, ResourceType

        (entries,) = self._admin_call("describe_configs", [ConfigResource(ResourceType.TOPIC, topic)],
                                      request_timeout=OP_TIMEOUT).values()
        return {name: ConfigEntry(e.value, ConfigSource(e.source).name) for name, e in entries.items()}

    def delete_records(self, topic, before):
        from confluent_kafka import TopicPartition

        res = self._admin_call("delete_records", [TopicPartition(topic, p, o) for p, o in before.items()],
                               request_timeout=OP_TIMEOUT, operation_timeout=OP_TIMEOUT)
        return {tp.partition: dr.low_watermark for tp, dr in res.items()}

    def create_partitions(self, topic, total):
        from confluent_kafka.admin import NewPartitions

        self._admin_call("create_partitions", [NewPartitions(topic, total)],
                         operation_timeout=OP_TIMEOUT, request_timeout=OP_TIMEOUT)

    def alter_topic_configs(self, topic, set_, delete):
        from confluent_kafka.admin import AlterConfigOpType, ConfigResource, ResourceType
        from confluent_kafka.admin import ConfigEntry as CE

        entries = [CE(k, v, incremental_operation=AlterConfigOpType.SET) for k, v in set_.items()]
        entries += [CE(k, None, incremental_operation=AlterConfigOpType.DELETE) for k in delete]
        self._admin_call("incremental_alter_configs",
                         [ConfigResource(ResourceType.TOPIC, topic, incremental_configs=entries)],
                         request_timeout=OP_TIMEOUT)

    def broker_ids(self):
        return sorted(self._admin().list_topics(timeout=OP_TIMEOUT).brokers)

    def broker_config(self, broker_id, key):
        from confluent_kafka.admin import ConfigResource, ResourceType

        (entries,) = self._admin_call("describe_configs", [ConfigResource(ResourceType.BROKER, str(broker_id))],
                                      request_timeout=OP_TIMEOUT).values()
        e = entries.get(key)
        return None if e is None else e.value

    def create_topic_error(self, topic, partitions, replication_factor):
        from confluent_kafka.admin import NewTopic

        admin = self._admin()
        (fut,) = admin.create_topics([NewTopic(topic, num_partitions=partitions,
                                               replication_factor=replication_factor)],
                                     operation_timeout=OP_TIMEOUT, request_timeout=OP_TIMEOUT).values()
        try:
            fut.result(timeout=OP_TIMEOUT)
        except Exception as e:  # KafkaException carrying the KafkaError
            err = e.args[0] if e.args and hasattr(e.args[0], "code") else None
            if err is None:
                return ErrorSeen(None, f"{type(e).__name__}: {e}")
            return ErrorSeen(err.code(), f"{err.name()}: {err.str()}")
        return None

    def list_topics(self):
        return set(self._admin().list_topics(timeout=OP_TIMEOUT).topics)

    def missing_topic_error(self, topic):
        c = self._consumer(**{"allow.auto.create.topics": False})
        try:
            tm = c.list_topics(topic=topic, timeout=OP_TIMEOUT).topics.get(topic)
        finally:
            c.close()
        if tm is None or tm.error is None:
            return None
        return ErrorSeen(tm.error.code(), f"{tm.error.name()}: {tm.error.str()}")

    def produce_to_missing(self, topic, msg):
        from confluent_kafka import KafkaError, Producer

        p = Producer({"bootstrap.servers": self.bootstrap, "client.id": "kwire-compat",
                      "topic.metadata.propagation.max.ms": 3000, "message.timeout.ms": 5000})
        reports = []
        p.produce(topic, key=msg.key, value=msg.value, on_delivery=lambda err, m: reports.append(err))
        left = p.flush(OP_TIMEOUT)
        if left or not reports:
            return ErrorSeen(None, f"no delivery report within {OP_TIMEOUT:.0f}s", timeout=True)
        err = reports[0]
        if err is None:
            return None
        return ErrorSeen(err.code() if err.code() >= 0 else None, f"{err.name()}: {err.str()}",
                         timeout=err.code() == KafkaError._MSG_TIMED_OUT)

    def produce_idempotent(self, topic, batches):
        import json

        from confluent_kafka import Producer

        stats: list[dict] = []
        p = Producer({"bootstrap.servers": self.bootstrap, "client.id": "kwire-compat",
                      "enable.idempotence": True, "acks": "all", "linger.ms": 20,
                      "message.timeout.ms": int(OP_TIMEOUT * 2000), "request.timeout.ms": int(OP_TIMEOUT * 1000),
                      "statistics.interval.ms": 100, "stats_cb": lambda js: stats.append(json.loads(js))})
        reports: list = [None] * sum(len(b) for b in batches)
        i = 0
        for batch in batches:
            for m in batch:
                kw = {} if m.partition is None else {"partition": m.partition}
                if m.timestamp is not None:
                    kw["timestamp"] = m.timestamp
                p.produce(topic, key=m.key, value=m.value, headers=list(m.headers),
                          on_delivery=lambda err, dm, i=i: reports.__setitem__(i, (err, dm)), **kw)
                i += 1
            left = p.flush(OP_TIMEOUT)
            if left:
                raise AssertionError(f"{left} records still queued after flush({OP_TIMEOUT:.0f}s)")
        deadline = time.monotonic() + 3  # librdkafka's statistics: "eos": {"producer_id": ...}
        while not any(s.get("eos", {}).get("idemp_state") == "Assigned" for s in stats) \
                and time.monotonic() < deadline:
            p.poll(0.1)
        pids = [s["eos"]["producer_id"] for s in stats if s.get("eos", {}).get("idemp_state") == "Assigned"]
        out = [Delivery(None, None, f"{err.name()}: {err.str()}") if err is not None
               else Delivery(dm.partition(), dm.offset()) for err, dm in reports]
        return out, (pids[-1] if pids else -1)

    def group_member(self, topic, group):
        return _Member(self, topic, group).start()


class _Member(GroupMember):
    def __init__(self, client: ConfluentClient, topic: str, group: str) -> None:
        super().__init__(topic, group)
        self.client = client

    def _open(self):
        self.c = self.client._consumer(**{"group.id": self.group, "session.timeout.ms": 10000,
                                          "heartbeat.interval.ms": 1000})
        self.c.subscribe([self.topic])

    def _poll(self):
        return [ConfluentClient._rec(m) for m in self.c.consume(num_messages=500, timeout=0.2)]

    def _assignment(self):
        return [tp.partition for tp in self.c.assignment()]

    def _commit(self, recs):
        from confluent_kafka import TopicPartition

        self.c.commit(offsets=[TopicPartition(self.topic, p, o) for p, o in self.next_offsets(recs).items()],
                      asynchronous=False)

    def _close(self):
        self.c.close()
