"""What the console shows and does, as JSON-ready dicts, through the Kafka API.

``ConsoleBackend`` talks to its own broker the way an operator's tool would:
``kwire.client.KafkaClient`` over the broker's first listener. So every read
takes the broker's existing request paths (Metadata, ListOffsets, Fetch,
DescribeLogDirs, DescribeConfigs, ListGroups, DescribeGroups, OffsetFetch) with
their bounds, in cluster mode it reaches the partition leaders and group
coordinators on other brokers, and nothing of the console runs on the event
loop: the client is blocking and lives on the console's HTTP threads, one
request at a time (a lock; the client is not thread-safe).

Bounds: a record page is at most ``MAX_RECORDS`` records from one Fetch of at
most ``FETCH_MAX_BYTES``; the groups page describes at most ``MAX_GROUPS``
groups; lag history keeps ``HISTORY_S`` seconds per group. Share groups
(KIP-932) are listed with their members, assignments, share-partition start
offsets and lag (ShareGroupDescribe, DescribeShareGroupOffsets) under ``share``.

Rendering of keys, values and header values (``render``): ``text`` when the
bytes are UTF-8 without control characters (other than whitespace), ``json``
(pretty-printed) when that text parses as a JSON object or array, otherwise
``binary``; the hex form is always there, so a binary value is shown as hex
and never breaks the page.

Changes (create/delete topic, reset offsets) raise ``ReadOnly`` in read-only
mode; Kafka errors come back as ``KafkaClientError`` (the HTTP layer turns them
into 4xx answers with Kafka's error name and message).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque

from kwire.client import (
    EARLIEST_TIMESTAMP,
    LATEST_TIMESTAMP,
    RESOURCE_TOPIC,
    KafkaClient,
    KafkaClientError,
    NewTopic,
)
from kwire.protocol.errors import ErrorCode
from kwire.records.decode import decode_batch, check_header

MAX_RECORDS = 500
FETCH_MAX_BYTES = 1 << 20
MAX_GROUPS = 200
HISTORY_S = 15 * 60
SAMPLE_EVERY_S = 5.0
API_DESCRIBE_LOG_DIRS = 35


class ReadOnly(Exception):
    pass


class BadRequest(Exception):
    pass


def render(data: bytes | None, limit: int = 64 * 1024) -> dict | None:
    if data is None:
        return None
    data = bytes(data)
    out: dict = {"size": len(data), "hex": data[:limit].hex(), "truncated": len(data) > limit}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        out["kind"] = "binary"
        return out
    if any(ord(c) < 32 and c not in "\t\r\n" for c in text):
        out["kind"] = "binary"
        return out
    out["text"] = text[:limit]
    out["kind"] = "text"
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            out["json"] = json.dumps(json.loads(stripped), indent=2, ensure_ascii=False)[:limit]
            out["kind"] = "json"
        except ValueError:
            pass
    return out


class ConsoleBackend:
    def __init__(self, bootstrap, read_only: bool = False) -> None:
        self._bootstrap = bootstrap  # "host:port" or a callable giving it (bound after start)
        self.read_only = read_only
        self._lock = threading.Lock()
        self._client: KafkaClient | None = None
        self.history: dict[str, deque] = {}  # group -> (time s, total lag, {"topic-p": lag})
        self._last_used = 0.0
        self._stop = threading.Event()
        self._sampler: threading.Thread | None = None

    # -- plumbing ------------------------------------------------------------------------------
    def _call(self, fn):
        """Run fn(client) under the lock; a connection failure drops the client (next call reconnects)."""
        self._last_used = time.monotonic()
        with self._lock:
            if self._client is None:
                bs = self._bootstrap() if callable(self._bootstrap) else self._bootstrap
                self._client = KafkaClient(bs, client_id="kwire-console", timeout=15)
            try:
                return fn(self._client)
            except KafkaClientError as e:
                if e.code == ErrorCode.NETWORK_EXCEPTION:
                    self._client.close()
                    self._client = None
                raise

    def start(self) -> None:
        self._sampler = threading.Thread(target=self._sample_loop, name="kwire-console-lag", daemon=True)
        self._sampler.start()

    def close(self) -> None:
        self._stop.set()
        if self._sampler is not None:
            self._sampler.join(5)
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def _check_writable(self) -> None:
        if self.read_only:
            raise ReadOnly("the console is read-only (console.read.only=true)")

    # -- cluster and topics ----------------------------------------------------------------------
    def cluster(self) -> dict:
        def run(c: KafkaClient) -> dict:
            md = c.metadata(None)
            brokers = []
            for b in sorted(md.brokers.values(), key=lambda b: b.node_id):
                leads = sum(1 for t in md.topics.values() for p in t.partitions.values() if p.leader == b.node_id)
                replicas = sum(1 for t in md.topics.values() for p in t.partitions.values()
                               if b.node_id in p.replicas)
                brokers.append({"id": b.node_id, "host": b.host, "port": b.port, "rack": b.rack,
                                "controller": b.node_id == md.controller_id,
                                "leaders": leads, "replicas": replicas})
            parts = [p for t in md.topics.values() for p in t.partitions.values()]
            return {
                "cluster_id": md.cluster_id, "controller": md.controller_id, "brokers": brokers,
                "topics": sum(1 for t in md.topics.values() if not t.is_internal),
                "partitions": len(parts),
                "under_replicated": sum(1 for p in parts if len(p.isr) < len(p.replicas)),
                "offline": sum(1 for p in parts if p.leader < 0),
                "read_only": self.read_only,
            }
        return self._call(run)

    def _sizes(self, c: KafkaClient, brokers) -> dict[tuple[str, int, int], int]:
        """(topic, partition, broker) -> bytes, from DescribeLogDirs on every broker (best effort)."""
        from kwire.protocol.generated.describe_log_dirs_request import DescribeLogDirsRequest

        out: dict[tuple[str, int, int], int] = {}
        for node in brokers:
            try:
                resp = c.request(API_DESCRIBE_LOG_DIRS, DescribeLogDirsRequest(topics=None), node=node)
            except KafkaClientError:
                continue
            for r in resp.results or ():
                for t in r.topics or ():
                    for p in t.partitions or ():
                        out[(t.name, p.partition_index, node)] = p.partition_size
        return out

    def topics(self) -> dict:
        def run(c: KafkaClient) -> dict:
            md = c.metadata(None)
            sizes = self._sizes(c, md.brokers)
            rows = []
            for t in sorted(md.topics.values(), key=lambda t: t.name):
                parts = list(t.partitions.values())
                size = sum(sizes.get((t.name, p.partition, p.leader), 0) for p in parts)
                rows.append({"name": t.name, "internal": t.is_internal, "partitions": len(parts),
                             "replication_factor": max((len(p.replicas) for p in parts), default=0),
                             "under_replicated": sum(1 for p in parts if len(p.isr) < len(p.replicas)),
                             "size": size, "error": t.error_code})
            return {"topics": rows, "read_only": self.read_only}
        return self._call(run)

    def topic(self, name: str) -> dict:
        def run(c: KafkaClient) -> dict:
            info = c.topic(name)  # raises UNKNOWN_TOPIC_OR_PARTITION
            md = c.metadata([])
            sizes = self._sizes(c, md.brokers)
            ps = sorted(info.partitions)
            earliest = c.list_offsets_many(name, {p: EARLIEST_TIMESTAMP for p in ps}) if ps else {}
            latest = c.list_offsets_many(name, {p: LATEST_TIMESTAMP for p in ps}) if ps else {}
            parts = []
            for p in ps:
                pi = info.partitions[p]
                start, end = earliest[p][0], latest[p][0]
                parts.append({"partition": p, "leader": pi.leader, "leader_epoch": pi.leader_epoch,
                              "replicas": pi.replicas, "isr": pi.isr, "offline": pi.offline_replicas,
                              "start_offset": start, "end_offset": end, "messages": max(end - start, 0),
                              "size": sizes.get((name, p, pi.leader), 0)})
            try:
                configs = [{"name": e.name, "value": e.value, "source": e.source_name}
                           for e in c.describe_configs(RESOURCE_TOPIC, name) if not e.is_default]
            except KafkaClientError:
                configs = []
            return {"name": name, "topic_id": str(info.topic_id), "internal": info.is_internal,
                    "partitions": parts, "configs": configs, "read_only": self.read_only}
        return self._call(run)

    def records(self, topic: str, partition: int, offset: int | None = None,
                timestamp: int | None = None, limit: int = 50) -> dict:
        limit = max(1, min(int(limit), MAX_RECORDS))

        def run(c: KafkaClient) -> dict:
            info = c.topic(topic)
            if partition not in info.partitions:
                raise KafkaClientError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                                       f"{topic} has no partition {partition}")
            start = c.list_offsets(topic, partition, EARLIEST_TIMESTAMP)[0]
            end = c.list_offsets(topic, partition, LATEST_TIMESTAMP)[0]
            if timestamp is not None:
                at = c.list_offsets(topic, partition, timestamp)[0]
                first = end if at < 0 else at
            elif offset is None or offset < 0:
                first = max(start, end - limit)  # the newest records
            else:
                first = min(max(offset, start), end)
            rows: list[dict] = []
            pos_offset = first
            while len(rows) < limit and pos_offset < end:
                data = c.fetch(topic, partition, pos_offset, max_wait_ms=0, max_bytes=FETCH_MAX_BYTES)
                if not data:
                    break
                nxt = self._decode(data, pos_offset, limit, rows)
                if nxt is None or nxt <= pos_offset:
                    break
                pos_offset = nxt
            return {"topic": topic, "partition": partition, "start_offset": start, "end_offset": end,
                    "from_offset": first, "records": rows,
                    "next_offset": rows[-1]["offset"] + 1 if rows else first}
        return self._call(run)

    @staticmethod
    def _decode(data: bytes, from_offset: int, limit: int, rows: list) -> int | None:
        """Append the records at/after from_offset; the offset to fetch next (None: nothing more)."""
        pos = 0
        nxt = None
        mv = memoryview(data)
        while pos + 61 <= len(data) and len(rows) < limit:
            try:
                h = check_header(mv, pos, verify_crc=False)
            except Exception:
                break
            if pos + h.size > len(data):
                break  # truncated last batch
            nxt = h.base_offset + h.last_offset_delta + 1
            if h.attributes & 0x20:  # control batch (transaction markers)
                pos += h.size
                continue
            try:
                batch = decode_batch(mv, pos, verify_crc=False)
            except Exception as e:
                rows.append({"offset": h.base_offset, "error": f"undecodable batch: {e}"})
                pos += h.size
                continue
            for r in batch.records:
                if r.offset < from_offset:
                    continue
                if len(rows) >= limit:
                    break
                rows.append({"offset": r.offset, "timestamp": r.timestamp, "key": render(r.key),
                             "value": render(r.value),
                             "headers": [{"key": k, "value": render(v)} for k, v in r.headers]})
            pos += h.size
        return nxt

    def create_topic(self, name: str, partitions: int, replication_factor: int = -1,
                     configs: dict | None = None) -> dict:
        self._check_writable()
        if not name:
            raise BadRequest("a topic name is required")
        self._call(lambda c: c.create_topics([NewTopic(name, int(partitions), int(replication_factor),
                                                       dict(configs or {}))]))
        return {"created": name}

    def delete_topic(self, name: str) -> dict:
        self._check_writable()
        self._call(lambda c: (c.topic(name), c.delete_topics([name])))
        return {"deleted": name}

    # -- groups ----------------------------------------------------------------------------------
    def groups(self) -> dict:
        def run(c: KafkaClient) -> dict:
            listed = sorted(c.list_groups(), key=lambda g: g.group_id)
            rows = []
            for g in listed[:MAX_GROUPS]:
                row = {"group": g.group_id, "state": g.state, "type": g.group_type,
                       "protocol_type": g.protocol_type, "members": None, "lag": None}
                try:
                    if g.group_type == "share":  # KIP-932: members, start offsets and lag
                        row.update(self._share_group(c, g.group_id))
                        rows.append(row)
                        continue
                    d = c.describe_group(g.group_id)
                    row["members"] = len(d.members)
                    row["state"] = d.state
                    lag = self._lag(c, g.group_id)
                    row["lag"] = sum(x["lag"] for x in lag if x["lag"] is not None)
                    self._record(g.group_id, lag)
                except KafkaClientError as e:
                    row["error"] = str(e)
                rows.append(row)
            return {"groups": rows, "truncated": len(listed) > MAX_GROUPS}
        return self._call(run)

    @staticmethod
    def _share_group(c: KafkaClient, group: str) -> dict:
        """A share group's row: state, members (with assignments), share-partition start offsets, lag."""
        d = c.share_group_describe(group)
        offsets = [{"topic": t, "partition": p, "start_offset": start, "lag": lag}
                   for t, p, start, lag in c.share_group_offsets(group)]
        return {"state": d.group_state, "members": len(d.members),
                "lag": sum(o["lag"] for o in offsets if o["lag"] is not None),
                "share": {"members": [{"member_id": m.member_id, "client_id": m.client_id, "host": m.client_host,
                                       "assignment": {tp.topic_name: sorted(tp.partitions)
                                                      for tp in m.assignment.topic_partitions}}
                                      for m in d.members],
                          "offsets": offsets}}

    def _lag(self, c: KafkaClient, group: str, assigned: dict | None = None) -> list[dict]:
        committed = c.offset_fetch(group)
        keys = set(committed) | set(assigned or {})
        by_topic: dict[str, list[int]] = {}
        for t, p in keys:
            by_topic.setdefault(t, []).append(p)
        ends: dict[tuple[str, int], int] = {}
        for t, ps in by_topic.items():
            try:
                for p, (off, _ts) in c.list_offsets_many(t, {p: LATEST_TIMESTAMP for p in ps}).items():
                    ends[(t, p)] = off
            except KafkaClientError:
                pass
        rows = []
        for t, p in sorted(keys):
            co = committed.get((t, p))
            end = ends.get((t, p))
            lag = max(end - co.offset, 0) if co is not None and end is not None else None
            rows.append({"topic": t, "partition": p, "committed": co.offset if co else None,
                         "end_offset": end, "lag": lag, "member": (assigned or {}).get((t, p))})
        return rows

    def group(self, group_id: str) -> dict:
        def run(c: KafkaClient) -> dict:
            d = c.describe_group(group_id)
            if d.state == "Dead" and not d.members:
                committed = c.offset_fetch(group_id)
                if not committed:
                    raise KafkaClientError(ErrorCode.GROUP_ID_NOT_FOUND, f"group {group_id!r} does not exist")
            assigned = {}
            members = []
            for m in d.members:
                for t, ps in m.assignment.items():
                    for p in ps:
                        assigned[(t, p)] = m.member_id
                members.append({"member_id": m.member_id, "instance_id": m.group_instance_id,
                                "client_id": m.client_id, "host": m.client_host,
                                "assignment": {t: sorted(ps) for t, ps in sorted(m.assignment.items())}})
            lag = self._lag(c, group_id, assigned)
            self._record(group_id, lag)
            hist = [{"t": t, "lag": total, "parts": parts} for t, total, parts in self.history.get(group_id, ())]
            return {"group": group_id, "state": d.state, "protocol_type": d.protocol_type,
                    "protocol": d.protocol, "members": members, "offsets": lag, "history": hist,
                    "total_lag": sum(x["lag"] for x in lag if x["lag"] is not None),
                    "read_only": self.read_only}
        return self._call(run)

    def reset_offsets(self, group_id: str, topic: str, to: str, value=None,
                      partitions: list[int] | None = None) -> dict:
        """Commit new offsets for an inactive group (Kafka's reset-offsets): to earliest, latest,
        an offset, or a timestamp (ms); clamped to each partition's [start, end]."""
        self._check_writable()
        if to not in ("earliest", "latest", "offset", "timestamp"):
            raise BadRequest(f"unknown reset target {to!r}: earliest, latest, offset or timestamp")
        if to in ("offset", "timestamp"):
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise BadRequest(f"reset to {to} needs an integer value") from None

        def run(c: KafkaClient) -> dict:
            d = c.describe_group(group_id)
            if d.members:
                raise KafkaClientError(ErrorCode.NON_EMPTY_GROUP,
                                       f"group {group_id!r} has {len(d.members)} active members "
                                       f"(state {d.state}): stop its consumers first")
            info = c.topic(topic)
            ps = sorted(info.partitions) if not partitions else sorted(set(int(p) for p in partitions))
            for p in ps:
                if p not in info.partitions:
                    raise KafkaClientError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"{topic} has no partition {p}")
            start = c.list_offsets_many(topic, {p: EARLIEST_TIMESTAMP for p in ps})
            end = c.list_offsets_many(topic, {p: LATEST_TIMESTAMP for p in ps})
            new = {}
            for p in ps:
                lo, hi = start[p][0], end[p][0]
                if to == "earliest":
                    off = lo
                elif to == "latest":
                    off = hi
                elif to == "offset":
                    off = value
                else:
                    at = c.list_offsets(topic, p, value)[0]
                    off = hi if at < 0 else at
                new[(topic, p)] = min(max(off, lo), hi)
            c.offset_commit(group_id, new)
            return {"group": group_id, "topic": topic,
                    "offsets": [{"partition": p, "offset": o} for (_t, p), o in sorted(new.items())]}
        return self._call(run)

    # -- lag history -----------------------------------------------------------------------------
    def _record(self, group: str, lag: list[dict]) -> None:
        now = time.time()
        h = self.history.get(group)
        if h is None:
            h = self.history[group] = deque()
        if h and now - h[-1][0] < 1.0:
            return  # at most one point a second
        parts = {f"{x['topic']}-{x['partition']}": x["lag"] for x in lag if x["lag"] is not None}
        h.append((now, sum(parts.values()), parts))
        while h and now - h[0][0] > HISTORY_S:
            h.popleft()

    def _sample_loop(self) -> None:
        """Every SAMPLE_EVERY_S, while the console was used in the last HISTORY_S, note every
        group's lag (so the chart has history for groups not being looked at)."""
        while not self._stop.wait(SAMPLE_EVERY_S):
            if time.monotonic() - self._last_used > HISTORY_S or self._last_used == 0:
                continue
            try:
                def run(c: KafkaClient) -> None:
                    for g in sorted(c.list_groups(), key=lambda g: g.group_id)[:MAX_GROUPS]:
                        try:
                            self._record(g.group_id, self._lag(c, g.group_id))
                        except KafkaClientError:
                            pass
                with self._lock:
                    if self._client is None:
                        bs = self._bootstrap() if callable(self._bootstrap) else self._bootstrap
                        self._client = KafkaClient(bs, client_id="kwire-console", timeout=15)
                    run(self._client)
            except Exception:
                with self._lock:
                    if self._client is not None:
                        self._client.close()
                        self._client = None
