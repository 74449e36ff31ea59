"""aiokafka facade: AIOKafkaProducer, AIOKafkaConsumer, AIOKafkaAdminClient.

Each operation runs in its own event loop (``asyncio.run``), as a short script
would. aiokafka's admin client has no call for DeleteGroups, so ``delete_group``
sends aiokafka's own ``DeleteGroupsRequest`` to the coordinator that
``find_coordinator`` names (the same thing its other admin calls do inside).
Likewise its ``describe_topics`` always allows auto-creation, so
``missing_topic_error`` sends aiokafka's ``MetadataRequest`` with
``allow_auto_topic_creation=False`` through the same ``_send_request``. It has
AlterConfigs but not IncrementalAlterConfigs: ``alter_topic_configs`` sends the
topic's current overrides with the changes applied (AlterConfigs replaces them all).
"""

from __future__ import annotations

import asyncio
import time

from compat.clients.base import (CONFIG_SOURCES, OP_TIMEOUT, Caps, Client, ConfigEntry, Delivery, ErrorSeen,
                                 GroupMember, Rec, norm_headers, replication_factor)

_MS = int(OP_TIMEOUT * 1000)


def _run(coro, timeout: float = OP_TIMEOUT + 10):
    """Run one operation in a fresh event loop; a hang becomes an error naming it."""
    what = coro.__qualname__.replace(".<locals>", "")
    try:
        return asyncio.run(asyncio.wait_for(coro, timeout))
    except (TimeoutError, asyncio.TimeoutError):
        raise TimeoutError(f"aiokafka {what} did not finish within {timeout:.0f}s") from None


class AIOKafkaClient(Client):
    name = "aiokafka"
    caps = Caps()

    def version(self) -> str:
        import aiokafka

        return aiokafka.__version__

    def codec_missing(self, codec):
        import aiokafka.codec as c

        have = {"gzip": c.has_gzip, "snappy": c.has_snappy, "lz4": c.has_lz4, "zstd": c.has_zstd}
        return None if have[codec]() else f"aiokafka finds no {codec} library (cramjam)"

    async def _with_admin(self, fn):
        from aiokafka.admin import AIOKafkaAdminClient

        admin = AIOKafkaAdminClient(bootstrap_servers=self.bootstrap, request_timeout_ms=_MS,
                                    client_id="kwire-compat")
        await admin.start()
        try:
            return await fn(admin)
        finally:
            await admin.close()

    def create_topic(self, topic, partitions, configs=None):
        from aiokafka.admin import NewTopic

        async def fn(admin):
            resp = await admin.create_topics([NewTopic(topic, partitions, replication_factor(),
                                                       topic_configs=dict(configs or {}))],
                                             timeout_ms=_MS)
            for t in resp.topic_errors:
                if t[1] != 0:
                    raise AssertionError(f"create_topics {topic}: error {t}")

        _run(self._with_admin(fn))

    def delete_topics(self, topics):
        async def fn(admin):
            resp = await admin.delete_topics(list(topics), timeout_ms=_MS)
            bad = [t for t in resp.topic_error_codes if t[1] != 0]
            if bad:
                raise AssertionError(f"delete_topics: errors {bad}")

        _run(self._with_admin(fn))

    def partition_leaders(self, topic):
        async def fn(admin):
            return await admin.describe_topics([topic])

        (desc,) = _run(self._with_admin(fn))
        if desc["error_code"]:
            raise AssertionError(f"describe_topics {topic}: error {desc['error_code']}")
        return {p["partition"]: p["leader"] for p in desc["partitions"]}

    def produce(self, topic, msgs, *, compression="none", acks="all"):
        import aiokafka.errors as E
        from aiokafka import AIOKafkaProducer

        async def run():
            p = AIOKafkaProducer(bootstrap_servers=self.bootstrap, client_id="kwire-compat",
                                 compression_type=None if compression == "none" else compression,
                                 acks=acks if acks == "all" else int(acks), linger_ms=20,
                                 max_batch_size=1 << 20, max_request_size=4 << 20,
                                 request_timeout_ms=_MS)
            await p.start()
            try:
                futs = [await p.send(topic, key=m.key, value=m.value, headers=list(m.headers),
                                     partition=m.partition, timestamp_ms=m.timestamp) for m in msgs]
                await p.flush()
                out = []
                for m, f in zip(msgs, futs):
                    try:
                        md = await f
                    except Exception as e:  # the library's own error, kept as text
                        out.append(Delivery(None, None, f"{type(e).__name__}: {e}",
                                            isinstance(e, E.MessageSizeTooLargeError)))
                        continue
                    if md is None:  # acks=0 resolves with None
                        out.append(Delivery(m.partition, None))
                    else:
                        out.append(Delivery(md.partition, md.offset if md.offset >= 0 else None))
                return out
            finally:
                await p.stop()

        return _run(run(), OP_TIMEOUT + 20)

    def _consumer(self, *topics, **kw):
        from aiokafka import AIOKafkaConsumer

        cfg = dict(bootstrap_servers=self.bootstrap, client_id="kwire-compat", group_id=None,
                   enable_auto_commit=False, auto_offset_reset="earliest",
                   request_timeout_ms=_MS + 5000, fetch_max_wait_ms=200)
        cfg.update(kw)
        return AIOKafkaConsumer(*topics, **cfg)

    @staticmethod
    def _rec(r) -> Rec:
        return Rec(r.partition, r.offset, r.key, r.value, norm_headers(r.headers), r.timestamp)

    def fetch(self, topic, starts, count, timeout=OP_TIMEOUT, *, max_partition_fetch_bytes=None):
        from aiokafka import TopicPartition

        async def run():
            c = self._consumer(**({"max_partition_fetch_bytes": max_partition_fetch_bytes}
                                  if max_partition_fetch_bytes else {}))
            await c.start()
            try:
                tps = {p: TopicPartition(topic, p) for p in starts}
                c.assign(list(tps.values()))
                for p, start in starts.items():
                    if start == "earliest":
                        await c.seek_to_beginning(tps[p])
                    else:
                        c.seek(tps[p], start)
                out: list[Rec] = []
                deadline = time.monotonic() + timeout
                while len(out) < count and time.monotonic() < deadline:
                    for recs in (await c.getmany(timeout_ms=200)).values():
                        out += [self._rec(r) for r in recs]
                return out
            finally:
                await c.stop()

        return _run(run(), timeout + 15)

    @classmethod
    async def _read(cls, c, count, timeout) -> list[Rec]:
        out: list[Rec] = []
        deadline = time.monotonic() + timeout
        while len(out) < count and time.monotonic() < deadline:
            for recs in (await c.getmany(timeout_ms=200)).values():
                out += [cls._rec(r) for r in recs]
        return out

    def read_from_end(self, topic, partitions, produce, count, timeout=OP_TIMEOUT):
        from aiokafka import TopicPartition

        async def run():
            c = self._consumer()
            await c.start()
            try:
                tps = [TopicPartition(topic, p) for p in partitions]
                c.assign(tps)
                await c.seek_to_end(*tps)
                positions = {tp.partition: await c.position(tp) for tp in tps}
                # ``produce`` is another client's blocking call (a facade runs its own loop).
                await asyncio.get_running_loop().run_in_executor(None, produce)
                return positions, await self._read(c, count, timeout)
            finally:
                await c.stop()

        return _run(run(), timeout + OP_TIMEOUT + 40)

    def read_from_timestamp(self, topic, partitions, timestamp, count, timeout=OP_TIMEOUT):
        from aiokafka import TopicPartition

        async def run():
            c = self._consumer()
            await c.start()
            try:
                tps = [TopicPartition(topic, p) for p in partitions]
                found = await c.offsets_for_times({tp: timestamp for tp in tps})
                c.assign(tps)
                for tp in tps:
                    if found.get(tp) is None:
                        await c.seek_to_end(tp)
                    else:
                        c.seek(tp, found[tp].offset)
                return ({tp.partition: (None if found.get(tp) is None else found[tp].offset) for tp in tps},
                        await self._read(c, count, timeout))
            finally:
                await c.stop()

        return _run(run(), timeout + 20)

    def list_offsets(self, topic, partitions, spec):
        from aiokafka import TopicPartition

        async def run():
            c = self._consumer()
            await c.start()
            try:
                tps = [TopicPartition(topic, p) for p in partitions]
                if spec == "earliest":
                    res = await c.beginning_offsets(tps)
                elif spec == "latest":
                    res = await c.end_offsets(tps)
                else:
                    found = await c.offsets_for_times({tp: spec for tp in tps})
                    res = {tp: (None if v is None else v.offset) for tp, v in found.items()}
                return {tp.partition: off for tp, off in res.items()}
            finally:
                await c.stop()

        return _run(run())

    def group_read(self, topic, group, count, *, metadata, timeout=45.0):
        from aiokafka import TopicPartition
        from aiokafka.structs import OffsetAndMetadata

        async def run():
            c = self._consumer(topic, group_id=group, session_timeout_ms=10000,
                               heartbeat_interval_ms=1000)
            await c.start()
            try:
                out: list[Rec] = []
                deadline = time.monotonic() + timeout
                while len(out) < count and time.monotonic() < deadline:
                    got = await c.getmany(timeout_ms=200, max_records=count - len(out))
                    for recs in got.values():
                        out += [self._rec(r) for r in recs]
                out = out[:count]
                nxt: dict[int, int] = {}
                for r in out:
                    nxt[r.partition] = max(nxt.get(r.partition, 0), r.offset + 1)
                if nxt:
                    await c.commit({TopicPartition(topic, p): OffsetAndMetadata(o, metadata)
                                    for p, o in nxt.items()})
                return out
            finally:
                await c.stop()

        return _run(run(), timeout + 20)

    def committed(self, group, topic):
        async def fn(admin):
            return await admin.list_consumer_group_offsets(group)

        res = _run(self._with_admin(fn))
        return {tp.partition: (om.offset, om.metadata) for tp, om in res.items()
                if tp.topic == topic and om.offset >= 0}

    def delete_group(self, group):
        from aiokafka.protocol.admin import DeleteGroupsRequest

        async def fn(admin):
            node = await admin.find_coordinator(group)
            resp = await admin._send_request(DeleteGroupsRequest([group]), node)
            return resp.to_object()

        obj = _run(self._with_admin(fn))
        results = obj.get("results") or obj.get("group_error_codes") or []
        bad = [r for r in results if (r.get("error_code") if isinstance(r, dict) else r[1])]
        if bad:
            raise AssertionError(f"DeleteGroups {group}: {bad}")

    def describe_configs(self, topic):
        from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

        async def fn(admin):
            return await admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)])

        out = {}
        for resp in _run(self._with_admin(fn)):
            for res in resp.to_object()["resources"]:
                if res["error_code"]:
                    raise AssertionError(f"describe_configs {topic}: error {res['error_code']} "
                                         f"{res['error_message']}")
                for e in res["config_entries"]:
                    if "config_source" in e:
                        source = CONFIG_SOURCES.get(e["config_source"], str(e["config_source"]))
                    else:  # v0 has only is_default
                        source = "DEFAULT_CONFIG" if e.get("is_default") else "v0-non-default"
                    out[e["config_names"]] = ConfigEntry(e["config_value"], source)
        return out

    def delete_records(self, topic, before):
        from aiokafka import TopicPartition
        from aiokafka.admin import RecordsToDelete

        async def fn(admin):
            return await admin.delete_records(
                {TopicPartition(topic, p): RecordsToDelete(o) for p, o in before.items()},
                timeout_ms=_MS)

        return {tp.partition: low for tp, low in _run(self._with_admin(fn)).items()}

    def create_partitions(self, topic, total):
        from aiokafka.admin import NewPartitions

        async def fn(admin):
            await admin.create_partitions({topic: NewPartitions(total)}, timeout_ms=_MS)

        _run(self._with_admin(fn))

    def alter_topic_configs(self, topic, set_, delete):
        from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

        configs = {k: e.value for k, e in self.describe_configs(topic).items()
                   if e.source == "DYNAMIC_TOPIC_CONFIG" and k not in delete}
        configs.update(set_)

        async def fn(admin):
            return await admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic, configs)])

        for resp in _run(self._with_admin(fn)):
            for res in resp.to_object()["resources"]:
                if res["error_code"]:
                    raise AssertionError(f"alter_configs {topic}: error {res['error_code']} {res['error_message']}")

    def broker_ids(self):
        async def fn(admin):
            return await admin.describe_cluster()

        return sorted(b["node_id"] for b in _run(self._with_admin(fn))["brokers"])

    def broker_config(self, broker_id, key):
        from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

        async def fn(admin):
            return await admin.describe_configs([ConfigResource(ConfigResourceType.BROKER, str(broker_id))])

        for resp in _run(self._with_admin(fn)):
            for res in resp.to_object()["resources"]:
                for e in res["config_entries"]:
                    if e["config_names"] == key:
                        return e["config_value"]
        return None

    def create_topic_error(self, topic, partitions, replication_factor):
        from aiokafka.admin import NewTopic

        async def fn(admin):
            return await admin.create_topics([NewTopic(topic, partitions, replication_factor)], timeout_ms=_MS)

        for t in _run(self._with_admin(fn)).topic_errors:
            if t[0] == topic and t[1]:
                return ErrorSeen(t[1], f"error {t[1]}: {t[2] if len(t) > 2 else ''}")
        return None

    def list_topics(self):
        async def fn(admin):
            return await admin.list_topics()

        return set(_run(self._with_admin(fn)))

    def missing_topic_error(self, topic):
        import aiokafka.errors as E
        from aiokafka.protocol.metadata import MetadataRequest

        async def fn(admin):
            resp = await admin._send_request(MetadataRequest([topic], allow_auto_topic_creation=False))
            return resp.to_object()["topics"]

        (tm,) = _run(self._with_admin(fn))
        code = tm["error_code"]
        return ErrorSeen(code, E.for_code(code).message) if code else None

    def produce_to_missing(self, topic, msg):
        from aiokafka import AIOKafkaProducer

        async def run():
            p = AIOKafkaProducer(bootstrap_servers=self.bootstrap, client_id="kwire-compat",
                                 request_timeout_ms=3000)
            await p.start()
            try:
                await (await p.send(topic, key=msg.key, value=msg.value, partition=msg.partition))
            except Exception as e:  # noqa: BLE001 - the library's error: errno is Kafka's code
                return ErrorSeen(getattr(e, "errno", None), f"{type(e).__name__}: {e}",
                                 timeout=isinstance(e, asyncio.TimeoutError))
            finally:
                await p.stop()
            return None

        return _run(run())

    def produce_idempotent(self, topic, batches):
        from aiokafka import AIOKafkaProducer

        async def run():
            p = AIOKafkaProducer(bootstrap_servers=self.bootstrap, client_id="kwire-compat", acks="all",
                                 enable_idempotence=True, linger_ms=20, request_timeout_ms=_MS)
            await p.start()
            out = []
            try:
                for batch in batches:
                    futs = [await p.send(topic, key=m.key, value=m.value, headers=list(m.headers),
                                         partition=m.partition, timestamp_ms=m.timestamp) for m in batch]
                    await p.flush()
                    for f in futs:
                        try:
                            md = await f
                        except Exception as e:  # noqa: BLE001 - the library's error, kept as text
                            out.append(Delivery(None, None, f"{type(e).__name__}: {e}"))
                            continue
                        out.append(Delivery(md.partition, md.offset))
                return out
            finally:
                await p.stop()

        return _run(run(), OP_TIMEOUT + 20), None  # aiokafka keeps the producer id to itself

    def group_member(self, topic, group):
        return _Member(self, topic, group).start()


class _Member(GroupMember):
    """aiokafka's consumer needs its event loop running for heartbeats and rebalances:
    the member's thread runs one loop for its whole life."""

    def __init__(self, client: AIOKafkaClient, topic: str, group: str) -> None:
        super().__init__(topic, group)
        self.client = client

    def _run(self):
        asyncio.run(self._arun())

    async def _arun(self):
        from aiokafka import TopicPartition
        from aiokafka.structs import OffsetAndMetadata

        c = self.client._consumer(self.topic, group_id=self.group, session_timeout_ms=10000,
                                  heartbeat_interval_ms=1000)
        await c.start()
        try:
            while not self._stop.is_set():
                got = await c.getmany(timeout_ms=200)
                recs = [AIOKafkaClient._rec(r) for rs in got.values() for r in rs]
                if recs:
                    await c.commit({TopicPartition(self.topic, p): OffsetAndMetadata(o, "")
                                    for p, o in self.next_offsets(recs).items()})
                self._got(recs, [tp.partition for tp in c.assignment()])
        finally:
            await c.stop()
