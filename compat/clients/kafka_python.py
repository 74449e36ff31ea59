"""kafka-python facade: KafkaProducer, KafkaConsumer, KafkaAdminClient."""

from __future__ import annotations

import time

from compat.clients.base import (OP_TIMEOUT, Caps, Client, ConfigEntry, Delivery, ErrorSeen, GroupMember,
                                 Rec, norm_headers, replication_factor)

_MS = int(OP_TIMEOUT * 1000)


# Group members poll with this timeout (returning early when records arrive). kafka-python
# 3.0.12 drops a finished join when a poll times out during the SyncGroup of a rejoin that only
# its metadata snapshot asked for (see subscribe()); a longer poll makes that window rarer.
GROUP_POLL_MS = 1000


def subscribe(consumer, topic: str) -> None:
    """subscribe(), then fetch the topic's partitions before the first poll joins the group.

    kafka-python 3.0.12 sends its first JoinGroup before it has the subscribed topic's
    metadata, so the leader assigns nothing and rejoins once the partitions arrive. If a
    poll's timeout expires while that rejoin's SyncGroup is in flight, the next poll finds
    need_rejoin() already false (the leader's assignment snapshot now matches) and never
    collects the finished join: no assignment, no heartbeats, the member expires
    (kafka/coordinator/base.py, join_group_async). SyncGroup waits for the assignment to be
    replicated, so on a 3-broker cluster the window is wide enough to hit (compat/FINDINGS.md).
    With the partitions known first, the leader's first assignment is complete and no
    metadata-triggered rejoin follows; the Java consumer also waits for metadata first."""
    consumer.subscribe([topic])
    consumer.partitions_for_topic(topic)


class KafkaPythonClient(Client):
    name = "kafka-python"
    caps = Caps()

    def version(self) -> str:
        import kafka

        return kafka.__version__

    def codec_missing(self, codec):
        import kafka.codec as c

        have = {"gzip": c.has_gzip, "snappy": c.has_snappy, "lz4": c.has_lz4, "zstd": c.has_zstd}
        if not have[codec]():
            return f"kafka-python finds no {codec} library (python-snappy, lz4, zstandard)"
        return None

    def _admin(self):
        from kafka import KafkaAdminClient

        return KafkaAdminClient(bootstrap_servers=self.bootstrap, request_timeout_ms=_MS,
                                client_id="kwire-compat")

    def create_topic(self, topic, partitions, configs=None):
        admin = self._admin()
        try:
            admin.create_topics({topic: {"num_partitions": partitions, "replication_factor": replication_factor(),
                                         "configs": dict(configs or {})}},
                                timeout_ms=_MS, wait_for_metadata=True)
        finally:
            admin.close()

    def delete_topics(self, topics):
        admin = self._admin()
        try:
            admin.delete_topics(list(topics), timeout_ms=_MS)
        finally:
            admin.close()

    def partition_leaders(self, topic):
        admin = self._admin()
        try:
            (desc,) = admin.describe_topics([topic])
        finally:
            admin.close()
        if desc["error_code"]:
            raise AssertionError(f"describe_topics {topic}: error {desc['error_code']}")
        return {p["partition_index"]: p["leader_id"] for p in desc["partitions"]}

    def produce(self, topic, msgs, *, compression="none", acks="all"):
        import kafka.errors as E
        from kafka import KafkaProducer

        p = KafkaProducer(bootstrap_servers=self.bootstrap, client_id="kwire-compat",
                          compression_type=None if compression == "none" else compression,
                          acks=-1 if acks == "all" else int(acks), linger_ms=20,
                          batch_size=1 << 20, max_request_size=4 << 20, request_timeout_ms=_MS,
                          max_block_ms=_MS, retries=2)
        try:
            futs = [p.send(topic, key=m.key, value=m.value, headers=list(m.headers),
                           partition=m.partition, timestamp_ms=m.timestamp) for m in msgs]
            p.flush(timeout=OP_TIMEOUT)
            out = []
            for f in futs:
                try:
                    md = f.get(timeout=OP_TIMEOUT)
                except Exception as e:  # the library's own error type, kept as text
                    out.append(Delivery(None, None, f"{type(e).__name__}: {e}",
                                        isinstance(e, E.MessageSizeTooLargeError)))
                    continue
                out.append(Delivery(md.partition, md.offset if md.offset >= 0 else None))
            return out
        finally:
            p.close(timeout=5)

    def _consumer(self, **kw):
        from kafka import KafkaConsumer

        cfg = dict(bootstrap_servers=self.bootstrap, client_id="kwire-compat", group_id=None,
                   enable_auto_commit=False, auto_offset_reset="earliest",
                   request_timeout_ms=_MS + 5000, fetch_max_wait_ms=200)
        cfg.update(kw)
        return KafkaConsumer(**cfg)

    @staticmethod
    def _rec(r) -> Rec:
        return Rec(r.partition, r.offset, r.key, r.value, norm_headers(r.headers), r.timestamp)

    def fetch(self, topic, starts, count, timeout=OP_TIMEOUT, *, max_partition_fetch_bytes=None):
        from kafka import TopicPartition

        c = self._consumer(**({"max_partition_fetch_bytes": max_partition_fetch_bytes}
                              if max_partition_fetch_bytes else {}))
        try:
            tps = {p: TopicPartition(topic, p) for p in starts}
            c.assign(list(tps.values()))
            for p, start in starts.items():
                if start == "earliest":
                    c.seek_to_beginning(tps[p])
                else:
                    c.seek(tps[p], start)
            return self._read(c, count, timeout)
        finally:
            c.close()

    def _read(self, c, count, timeout) -> list[Rec]:
        out: list[Rec] = []
        deadline = time.monotonic() + timeout
        while len(out) < count and time.monotonic() < deadline:
            for recs in c.poll(timeout_ms=200).values():
                out += [self._rec(r) for r in recs]
        return out

    def read_from_end(self, topic, partitions, produce, count, timeout=OP_TIMEOUT):
        from kafka import TopicPartition

        c = self._consumer()
        try:
            tps = [TopicPartition(topic, p) for p in partitions]
            c.assign(tps)
            c.seek_to_end(*tps)
            # seek_to_end is lazy: position() resolves it (ListOffsets latest) before anything new exists.
            positions = {tp.partition: c.position(tp, timeout_ms=_MS) for tp in tps}
            produce()
            return positions, self._read(c, count, timeout)
        finally:
            c.close()

    def read_from_timestamp(self, topic, partitions, timestamp, count, timeout=OP_TIMEOUT):
        from kafka import TopicPartition

        c = self._consumer()
        try:
            tps = [TopicPartition(topic, p) for p in partitions]
            found = c.offsets_for_times({tp: timestamp for tp in tps}, timeout_ms=_MS)
            c.assign(tps)
            for tp in tps:
                if found.get(tp) is None:
                    c.seek_to_end(tp)
                else:
                    c.seek(tp, found[tp].offset)
            return ({tp.partition: (None if found.get(tp) is None else found[tp].offset) for tp in tps},
                    self._read(c, count, timeout))
        finally:
            c.close()

    def list_offsets(self, topic, partitions, spec):
        from kafka import TopicPartition

        c = self._consumer()
        try:
            tps = [TopicPartition(topic, p) for p in partitions]
            if spec == "earliest":
                res = c.beginning_offsets(tps, timeout_ms=_MS)
            elif spec == "latest":
                res = c.end_offsets(tps, timeout_ms=_MS)
            else:
                found = c.offsets_for_times({tp: spec for tp in tps}, timeout_ms=_MS)
                res = {tp: (None if v is None else v.offset) for tp, v in found.items()}
            return {tp.partition: off for tp, off in res.items()}
        finally:
            c.close()

    def max_timestamp_offset(self, topic, partition):
        from kafka import TopicPartition
        from kafka.admin import OffsetSpec

        admin = self._admin()
        try:
            res = admin.list_partition_offsets({TopicPartition(topic, partition): OffsetSpec.MAX_TIMESTAMP},
                                               timeout_ms=_MS)
        finally:
            admin.close()
        (ot,) = res.values()
        return ot.offset, ot.timestamp

    def group_read(self, topic, group, count, *, metadata, timeout=45.0):
        from kafka import TopicPartition
        from kafka.structs import OffsetAndMetadata

        c = self._consumer(group_id=group, session_timeout_ms=10000, heartbeat_interval_ms=1000)
        try:
            subscribe(c, topic)
            out: list[Rec] = []
            deadline = time.monotonic() + timeout
            while len(out) < count and time.monotonic() < deadline:
                for recs in c.poll(timeout_ms=GROUP_POLL_MS, max_records=count - len(out)).values():
                    out += [self._rec(r) for r in recs]
            out = out[:count]
            nxt: dict[int, int] = {}
            for r in out:
                nxt[r.partition] = max(nxt.get(r.partition, 0), r.offset + 1)
            if nxt:
                c.commit({TopicPartition(topic, p): OffsetAndMetadata(o, metadata, -1)
                          for p, o in nxt.items()})
            return out
        finally:
            c.close()

    def committed(self, group, topic):
        admin = self._admin()
        try:
            res = admin.list_group_offsets(group).get(group, {})
        finally:
            admin.close()
        return {tp.partition: (om.offset, om.metadata) for tp, om in res.items()
                if tp.topic == topic and om.offset >= 0}

    def delete_group(self, group):
        admin = self._admin()
        try:
            res = admin.delete_groups([group])
        finally:
            admin.close()
        for gid, err in dict(res).items():
            if err is not None and getattr(err, "errno", 0):
                raise AssertionError(f"delete_groups {gid}: {err}")

    def describe_configs(self, topic):
        from kafka.admin import ConfigResource

        admin = self._admin()
        try:
            res = admin.describe_configs([ConfigResource("TOPIC", topic)], config_filter="all")
        finally:
            admin.close()
        entries = res.get("topic", {}).get(topic, {})
        return {k: ConfigEntry(v["value"], str(v["config_source"])) for k, v in entries.items()}

    def delete_records(self, topic, before):
        from kafka import TopicPartition

        admin = self._admin()
        try:
            res = admin.delete_records({TopicPartition(topic, p): o for p, o in before.items()},
                                       timeout_ms=_MS)
        finally:
            admin.close()
        return {tp.partition: md["low_watermark"] for tp, md in res.items()}

    def create_partitions(self, topic, total):
        admin = self._admin()
        try:
            admin.create_partitions({topic: total}, timeout_ms=_MS)
        finally:
            admin.close()

    def alter_topic_configs(self, topic, set_, delete):
        from kafka.admin import AlterConfigOp, ConfigResource

        ops = {k: (AlterConfigOp.SET, v) for k, v in set_.items()}
        ops.update({k: (AlterConfigOp.DELETE, None) for k in delete})
        admin = self._admin()
        try:
            res = admin.alter_configs([ConfigResource("TOPIC", topic, configs=ops)], incremental=True)
        finally:
            admin.close()
        for r in getattr(res, "resources", None) or []:
            code = r[0] if isinstance(r, tuple) else getattr(r, "error_code", 0)
            if code:
                raise AssertionError(f"alter_configs {topic}: {r}")

    def broker_ids(self):
        admin = self._admin()
        try:
            return [b["broker_id"] for b in admin.describe_cluster()["brokers"]]
        finally:
            admin.close()

    def broker_config(self, broker_id, key):
        from kafka.admin import ConfigResource

        admin = self._admin()
        try:
            res = admin.describe_configs([ConfigResource("BROKER", str(broker_id), configs=[key])],
                                         config_filter="all")
        finally:
            admin.close()
        entry = res.get("broker", {}).get(str(broker_id), {}).get(key)
        return None if entry is None else entry["value"]

    def create_topic_error(self, topic, partitions, replication_factor):
        admin = self._admin()
        try:
            admin.create_topics({topic: {"num_partitions": partitions,
                                         "replication_factor": replication_factor}}, timeout_ms=_MS)
        except Exception as e:  # the library's error type: its errno is Kafka's code
            return ErrorSeen(getattr(e, "errno", None), f"{type(e).__name__}: {e}")
        finally:
            admin.close()
        return None

    def list_topics(self):
        admin = self._admin()
        try:
            return set(admin.list_topics())
        finally:
            admin.close()

    def missing_topic_error(self, topic):
        import kafka.errors as E

        # describe_topics sends Metadata with allow_auto_topic_creation=false.
        admin = self._admin()
        try:
            (desc,) = admin.describe_topics([topic])
        finally:
            admin.close()
        code = desc["error_code"]
        return ErrorSeen(code, E.for_code(code).message) if code else None

    def produce_to_missing(self, topic, msg):
        import kafka.errors as E
        from kafka import KafkaProducer

        p = KafkaProducer(bootstrap_servers=self.bootstrap, client_id="kwire-compat", max_block_ms=3000,
                          request_timeout_ms=_MS, retries=0)
        try:
            p.send(topic, key=msg.key, value=msg.value, partition=msg.partition).get(timeout=OP_TIMEOUT)
        except E.KafkaTimeoutError as e:  # raised by send(): its wait for the topic's metadata
            return ErrorSeen(None, f"{type(e).__name__}: {e}", timeout=True)
        except Exception as e:  # noqa: BLE001 - the library's error, kept as text
            return ErrorSeen(getattr(e, "errno", None), f"{type(e).__name__}: {e}")
        finally:
            p.close(timeout=5)
        return None

    def produce_idempotent(self, topic, batches):
        from kafka import KafkaProducer

        p = KafkaProducer(bootstrap_servers=self.bootstrap, client_id="kwire-compat", acks="all",
                          enable_idempotence=True, linger_ms=20, request_timeout_ms=_MS, max_block_ms=_MS)
        out = []
        try:
            for batch in batches:
                futs = [p.send(topic, key=m.key, value=m.value, headers=list(m.headers),
                               partition=m.partition, timestamp_ms=m.timestamp) for m in batch]
                p.flush(timeout=OP_TIMEOUT)
                for f in futs:
                    try:
                        md = f.get(timeout=OP_TIMEOUT)
                    except Exception as e:  # noqa: BLE001 - the library's error, kept as text
                        out.append(Delivery(None, None, f"{type(e).__name__}: {e}"))
                        continue
                    out.append(Delivery(md.partition, md.offset))
        finally:
            p.close(timeout=5)
        return out, None  # kafka-python keeps the producer id to itself

    def group_member(self, topic, group):
        return _Member(self, topic, group).start()


class _Member(GroupMember):
    def __init__(self, client: KafkaPythonClient, topic: str, group: str) -> None:
        super().__init__(topic, group)
        self.client = client

    def _open(self):
        self.c = self.client._consumer(group_id=self.group, session_timeout_ms=10000,
                                       heartbeat_interval_ms=1000)
        subscribe(self.c, self.topic)

    def _poll(self):
        return [KafkaPythonClient._rec(r) for recs in self.c.poll(timeout_ms=GROUP_POLL_MS).values()
                for r in recs]

    def _assignment(self):
        return [tp.partition for tp in self.c.assignment()]

    def _commit(self, recs):
        from kafka import TopicPartition
        from kafka.structs import OffsetAndMetadata

        self.c.commit({TopicPartition(self.topic, p): OffsetAndMetadata(o, "", -1)
                       for p, o in self.next_offsets(recs).items()})

    def _close(self):
        self.c.close()
