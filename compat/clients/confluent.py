"""confluent-kafka facade (librdkafka): Producer, Consumer, AdminClient.

librdkafka's Consumer insists on a ``group.id`` even when it only uses
``assign()``; ``fetch`` and ``list_offsets`` pass a throwaway one that never
joins (no subscribe, no commit), as applications do.
"""

from __future__ import annotations

import time

from compat.clients.base import OP_TIMEOUT, Caps, Client, ConfigEntry, Delivery, Rec, norm_headers


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
                         [NewTopic(topic, num_partitions=partitions, replication_factor=1,
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

    def fetch(self, topic, starts, count, timeout=OP_TIMEOUT):
        from confluent_kafka import OFFSET_BEGINNING, TopicPartition

        c = self._consumer()
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
