"""The scenarios, written once for every Python-driven client (compat/clients/).

Each scenario is a function ``(client, ctx) -> None`` that raises ``Failed``
(or any exception) when something is wrong. It makes its topics and groups
through ``ctx`` (uniquely named, announced to the runner before they exist,
removed by ``ctx.cleanup()`` afterwards) and checks what a user of the client
would check: what comes back equals what went in, offsets are the ones Kafka
would give, errors are the ones Kafka would send.

The Java client runs the same checks from compat/java/Compat.java; a change
here needs the same change there.
"""

from __future__ import annotations

import os
import random
import string
import time
from typing import Callable

from compat.clients.base import Client, Delivery, GroupMember, Msg, Rec, Skipped
from compat.matrix import CODECS


class Failed(AssertionError):
    pass


def check(cond, msg: str) -> None:
    if not cond:
        raise Failed(msg)


class Context:
    """Names, resources to clean up, and notes for one scenario run."""

    def __init__(self, client: Client, run_id: str, scenario: str,
                 announce: Callable[[str, str], None]) -> None:
        self.client = client
        self.prefix = f"compat-{run_id}-{client.name}-{scenario}"
        self.announce = announce
        self.topics: list[str] = []
        self.groups: list[str] = []
        self.notes: list[str] = []

    def name(self, kind: str) -> str:
        return f"{self.prefix}-{kind}-{os.urandom(3).hex()}"

    def topic(self, partitions: int, configs: dict[str, str] | None = None) -> str:
        t = self.name("t")
        self.announce("topic", t)
        self.topics.append(t)
        self.client.create_topic(t, partitions, configs)
        return t

    def group(self) -> str:
        g = self.name("g")
        self.announce("group", g)
        self.groups.append(g)
        return g

    def cleanup(self) -> list[str]:
        """Delete what the scenario made; returns problems (empty when all went)."""
        problems = []
        for g in self.groups:
            try:
                self.client.delete_group(g)
            except Exception as e:  # noqa: BLE001 - reported, not raised
                problems.append(f"delete group {g}: {type(e).__name__}: {e}")
        if self.topics:
            try:
                self.client.delete_topics(self.topics)
            except Exception as e:  # noqa: BLE001
                problems.append(f"delete topics: {type(e).__name__}: {e}")
        return problems


# -- records ---------------------------------------------------------------------------

def now_ms() -> int:
    return int(time.time() * 1000)


def make_msgs(client: Client, n: int, *, tag: str, partitions: int | None = None,
              base_ts: int | None = None, pad: int = 0, varied_headers: bool = True) -> list[Msg]:
    """Keyed records with headers (varied from record to record unless told otherwise);
    binary bytes, tombstones and explicit timestamps only where the client's producer
    can express them."""
    caps = client.caps
    base_ts = (now_ms() - 3_600_000) if base_ts is None else base_ts
    out = []
    for i in range(n):
        key = None if i == 3 else f"key-{i % 7}".encode()
        value = f"{tag}-{i}".encode() + (b"-payload" * (pad // 8))
        headers: tuple = (("tag", tag.encode()),)
        if varied_headers and i % 3 == 1:
            headers += (("dup", b"a"), ("dup", b"b"), ("empty", b""))
        if varied_headers and caps.binary and i % 5 == 2:
            headers += (("bin\u00e9", bytes([0, 255, 10, 13, 9])),)
        if caps.binary and i % 4 == 0:
            value += bytes([0, 10, 13, 9, 255])
        if caps.null_values and i == 5:
            value = None
        out.append(Msg(key, value, headers, base_ts + 7 * i if caps.timestamps else None,
                       None if partitions is None else i % partitions))
    return out


def check_deliveries(msgs: list[Msg], ds: list[Delivery], *, offsets: bool = True) -> None:
    check(len(ds) == len(msgs), f"{len(ds)} delivery reports for {len(msgs)} records")
    bad = [d.error for d in ds if d.error]
    check(not bad, f"{len(bad)} of {len(ds)} records failed: {bad[0] if bad else ''}")
    if not offsets:
        return
    per: dict[int, list[int]] = {}
    for d in ds:
        if d.offset is not None:
            per.setdefault(d.partition, []).append(d.offset)
    for p, offs in per.items():
        check(offs == list(range(offs[0], offs[0] + len(offs))),
              f"partition {p}: producer reported offsets {offs[:12]}, not consecutive")


def check_same(msgs: list[Msg], ds: list[Delivery], recs: list[Rec], *, t0: int, t1: int) -> None:
    """Fetched records equal the produced ones, partition by partition, in order."""
    check(len(recs) == len(msgs), f"fetched {len(recs)} records, produced {len(msgs)}")
    got: dict[int, list[Rec]] = {}
    for r in sorted(recs, key=lambda r: (r.partition, r.offset)):
        got.setdefault(r.partition, []).append(r)
    sent: dict[int, list[tuple[Msg, Delivery]]] = {}
    for m, d in zip(msgs, ds):
        p = d.partition if d.partition is not None else m.partition
        sent.setdefault(p, []).append((m, d))
    if None in sent:  # the client does not say where records went: compare as a whole
        want = sorted(_content(m) for m in msgs)
        have = sorted(_content(r) for r in recs)
        check(want == have, "fetched records differ from the produced ones")
        return
    check(sorted(got) == sorted(sent), f"records in partitions {sorted(got)}, sent to {sorted(sent)}")
    for p, rs in got.items():
        offs = [r.offset for r in rs]
        check(offs == list(range(offs[0], offs[0] + len(offs))), f"partition {p}: offsets {offs[:12]}")
        for r, (m, d) in zip(rs, sent[p]):
            if d.offset is not None:
                check(r.offset == d.offset, f"partition {p}: record fetched at {r.offset}, "
                      f"producer was told {d.offset}")
            check(r.key == m.key, f"p{p}@{r.offset}: key {r.key!r} != {m.key!r}")
            check(r.value == m.value, f"p{p}@{r.offset}: value {_short(r.value)} != {_short(m.value)}")
            check(r.headers == m.headers, f"p{p}@{r.offset}: headers {r.headers} != {m.headers}")
            if m.timestamp is not None:
                check(r.timestamp == m.timestamp, f"p{p}@{r.offset}: timestamp {r.timestamp} != {m.timestamp}")
            else:
                check(t0 - 5000 <= r.timestamp <= t1 + 5000,
                      f"p{p}@{r.offset}: timestamp {r.timestamp} outside the produce window {t0}..{t1}")


def _content(x) -> tuple:
    return (x.key or b"", x.value or b"", x.headers)


def _short(b: bytes | None) -> str:
    return repr(b if b is None or len(b) < 40 else b[:40] + b"...")


# -- the scenarios ------------------------------------------------------------------------

def metadata(c: Client, ctx: Context) -> None:
    t = ctx.topic(3)
    leaders = c.partition_leaders(t)
    check(sorted(leaders) == [0, 1, 2], f"Metadata lists partitions {sorted(leaders)}, want [0, 1, 2]")
    check(all(lead >= 0 for lead in leaders.values()), f"partitions without a leader: {leaders}")


def roundtrip(c: Client, ctx: Context) -> None:
    t = ctx.topic(2)
    msgs = make_msgs(c, 30, tag="rt", partitions=2)
    t0 = now_ms()
    ds = c.produce(t, msgs)
    t1 = now_ms()
    check_deliveries(msgs, ds, offsets=c.caps.offsets_known)
    recs = c.fetch(t, {0: "earliest", 1: "earliest"}, len(msgs))
    check_same(msgs, ds, recs, t0=t0, t1=t1)


def _compression(codec: str) -> Callable[[Client, Context], None]:
    def run(c: Client, ctx: Context) -> None:
        missing = c.codec_missing(codec)
        if missing:
            raise Skipped(missing)
        t = ctx.topic(1)
        # Repetitive values, so that the codec really shrinks the batch (librdkafka sends a
        # batch uncompressed when compressing does not make it smaller).
        msgs = make_msgs(c, 200, tag=codec, partitions=1, pad=400, varied_headers=False)
        t0 = now_ms()
        ds = c.produce(t, msgs, compression=codec)
        t1 = now_ms()
        check_deliveries(msgs, ds, offsets=c.caps.offsets_known)
        check_same(msgs, ds, c.fetch(t, {0: "earliest"}, len(msgs)), t0=t0, t1=t1)
    run.__name__ = f"compression_{codec}"
    return run


def leader_answers(c: Client, topic: str, partitions: list[int], timeout: float = 30.0) -> None:
    """Wait until the partitions' leaders answer a ListOffsets for "latest" (offset 0).

    Needed before an acks=0 produce to a topic just created on a cluster: CreateTopics
    returns once the broker that took it knows every partition's leader, which may not
    have taken up leadership yet. An acks=0 batch sent then is refused with
    NOT_LEADER_OR_FOLLOWER and, there being no response, lost; the producer only
    reconnects (Kafka closes the connection) and reports it delivered."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            got = c.list_offsets(topic, partitions, "latest")
        except Exception as e:  # noqa: BLE001 - retried until the deadline
            got = f"{type(e).__name__}: {e}"
        if got == {p: 0 for p in partitions}:
            return
        check(time.monotonic() < deadline, f"the leaders of {topic} did not answer within {timeout:.0f}s: {got}")
        time.sleep(0.1)


def _acks(acks: str) -> Callable[[Client, Context], None]:
    def run(c: Client, ctx: Context) -> None:
        t = ctx.topic(1)
        if acks == "0":
            leader_answers(c, t, [0])
        msgs = make_msgs(c, 20, tag=f"acks{acks}", partitions=1)
        t0 = now_ms()
        ds = c.produce(t, msgs, acks=acks)
        t1 = now_ms()
        check_deliveries(msgs, ds, offsets=acks != "0" and c.caps.offsets_known)
        if acks != "0" and c.caps.offsets_known:
            check([d.offset for d in ds] == list(range(20)),
                  f"acks={acks}: producer was told offsets {[d.offset for d in ds]}")
        check_same(msgs, ds, c.fetch(t, {0: "earliest"}, len(msgs)), t0=t0, t1=t1)
    run.__name__ = f"acks_{acks}"
    return run


def offsets_earliest_latest(c: Client, ctx: Context) -> None:
    t = ctx.topic(2)
    check(_offsets_once_led(c, t, "earliest") == {0: 0, 1: 0}, "earliest of an empty topic is not 0")
    check(c.list_offsets(t, [0, 1], "latest") == {0: 0, 1: 0}, "latest of an empty topic is not 0")
    # Several records per batch and two batches on partition 1: "latest" must be the offset
    # after the last record of the last batch, not after the batch's base offset.
    for batch in (make_msgs(c, 5, tag="a", partitions=1),
                  [Msg(m.key, m.value, m.headers, m.timestamp, 1) for m in make_msgs(c, 3, tag="b")],
                  [Msg(m.key, m.value, m.headers, m.timestamp, 1) for m in make_msgs(c, 5, tag="c")]):
        check_deliveries(batch, c.produce(t, batch), offsets=c.caps.offsets_known)
    earliest = c.list_offsets(t, [0, 1], "earliest")
    latest = c.list_offsets(t, [0, 1], "latest")
    check(earliest == {0: 0, 1: 0}, f"earliest {earliest}, want {{0: 0, 1: 0}}")
    check(latest == {0: 5, 1: 8}, f"latest {latest}, want {{0: 5, 1: 8}}")


def offsets_by_timestamp(c: Client, ctx: Context) -> None:
    t = ctx.topic(1)
    base = now_ms() - 600_000
    for b in range(3):  # three batches, four records each, 100 ms apart inside, 10 s between
        msgs = [Msg(f"k{b}{i}".encode(), f"v{b}{i}".encode(), (),
                    base + 10_000 * b + 100 * i if c.caps.timestamps else None, 0) for i in range(4)]
        check_deliveries(msgs, c.produce(t, msgs), offsets=c.caps.offsets_known)
        if not c.caps.timestamps:
            time.sleep(0.05)  # distinct CreateTime per batch
    recs = sorted(c.fetch(t, {0: "earliest"}, 12), key=lambda r: r.offset)
    check(len(recs) == 12, f"fetched {len(recs)} of 12 records")
    ts = [r.timestamp for r in recs]

    def expected(target: int) -> int | None:
        return next((r.offset for r in recs if r.timestamp >= target), None)

    targets = {"first record": ts[0], "before everything": ts[0] - 1000,
               "inside batch 1": ts[2], "just after a record inside batch 1": ts[1] + 1,
               "first of batch 2": ts[4], "inside batch 3": ts[10],
               "between batches 2 and 3": ts[7] + 1, "after the last record": ts[-1] + 1}
    for what, target in targets.items():
        got = c.list_offsets(t, [0], target)[0]
        check(got == expected(target),
              f"offset for timestamp {target} ({what}): {got}, want {expected(target)}")


def offsets_max_timestamp(c: Client, ctx: Context) -> None:
    t = ctx.topic(1)
    base = now_ms() - 600_000
    # Timestamps out of order, the largest in the middle of the first batch.
    for stamps in ((base, base + 50, base + 20), (base + 10, base + 30)):
        msgs = [Msg(b"k", f"ts+{ts - base}".encode(), (), ts, 0) for ts in stamps]
        check_deliveries(msgs, c.produce(t, msgs), offsets=c.caps.offsets_known)
    got = c.max_timestamp_offset(t, 0)
    check(tuple(got) == (1, base + 50), f"max timestamp: offset {got[0]} timestamp base+{got[1] - base}, "
          "want offset 1 timestamp base+50")


def seek_mid_batch(c: Client, ctx: Context) -> None:
    t = ctx.topic(1)
    plain = make_msgs(c, 10, tag="plain", partitions=1)
    zipped = make_msgs(c, 10, tag="gz", partitions=1, pad=64)
    check_deliveries(plain, c.produce(t, plain), offsets=c.caps.offsets_known)
    check_deliveries(zipped, c.produce(t, zipped, compression="gzip"), offsets=c.caps.offsets_known)
    for start in (6, 13):  # inside the uncompressed batch, inside the gzip batch
        recs = sorted(c.fetch(t, {0: start}, 20 - start), key=lambda r: r.offset)
        offs = [r.offset for r in recs]
        check(offs == list(range(start, 20)), f"seek({start}): fetched offsets {offs}")
        want = (plain + zipped)[start]
        check((recs[0].key, recs[0].value) == (want.key, want.value),
              f"seek({start}): first record is {recs[0].value!r}, want {want.value!r}")


def seek_to_latest(c: Client, ctx: Context) -> None:
    """12 records on two partitions (timestamps an hour ago), then a consumer that assign()s
    both and seeks to the end (seek_to_end, librdkafka's OFFSET_END, ``kcat -o end``). Its
    position is the log end, 6 on each partition, before anything new exists (the facade
    waits for it: a lazy seek resolved after the next produce would hide an off-by-one).
    Then 8 more records with later timestamps: the consumer reads exactly those, from
    offset 6 on each partition, and none of the first 12."""
    t = ctx.topic(2)
    old = make_msgs(c, 12, tag="old", partitions=2)
    check_deliveries(old, c.produce(t, old), offsets=c.caps.offsets_known)
    new = make_msgs(c, 8, tag="new", partitions=2, base_ts=now_ms() - 60_000)
    produced: list[Delivery] = []
    window: list[int] = []

    def produce_new() -> None:
        window.append(now_ms())
        produced.extend(c.produce(t, new))
        window.append(now_ms())

    positions, recs = c.read_from_end(t, [0, 1], produce_new, len(new))
    check(positions == {0: 6, 1: 6}, f"position after seeking to the end: {positions}, want {{0: 6, 1: 6}}")
    check(len(window) == 2, "the consumer never asked for the new records to be produced")
    check_deliveries(new, produced, offsets=c.caps.offsets_known)
    if c.caps.offsets_known:
        check(sorted((d.partition, d.offset) for d in produced) == [(p, o) for p in (0, 1) for o in range(6, 10)],
              f"new records were told offsets {[(d.partition, d.offset) for d in produced]}")
    firsts = {p: min((r.offset for r in recs if r.partition == p), default=None) for p in (0, 1)}
    check(firsts == {0: 6, 1: 6} and len(recs) == len(new),
          f"after seeking to the end the consumer read {len(recs)} records starting at {firsts}, "
          f"want the {len(new)} new ones starting at {{0: 6, 1: 6}}: "
          f"{sorted((r.partition, r.offset) for r in recs)[:12]}")
    check_same(new, produced, recs, t0=window[0], t1=window[1])


def seek_to_timestamp(c: Client, ctx: Context) -> None:
    """Three batches on each of two partitions, four records each (the second batch gzip),
    timestamps 100 ms apart inside a batch, 10 s between batches, partition 1 30 ms after
    partition 0. For targets before everything, at a record inside the gzip batch, just
    after a record, between batches and at the very last record (partition 0 then has
    none that late), a consumer looks the offsets up with its own offsets_for_times,
    assign()s and seeks there (to the end where there is none) and reads: exactly the
    records from the first one with timestamp >= target, on each partition. kcat
    (``-o s@TS``) cannot choose timestamps: its targets come from the CreateTimes it got."""
    t = ctx.topic(2)
    base = now_ms() - 600_000
    for b in range(3):
        msgs = [Msg(f"k{p}{b}{i}".encode(), f"v{p}{b}{i}".encode(), (("b", str(b).encode()),),
                    base + 10_000 * b + 100 * i + 30 * p if c.caps.timestamps else None, p)
                for p in (0, 1) for i in range(4)]
        check_deliveries(msgs, c.produce(t, msgs, compression="gzip" if b == 1 else "none"),
                         offsets=c.caps.offsets_known)
        if not c.caps.timestamps:
            time.sleep(0.05)  # distinct CreateTime per batch
    log = sorted(c.fetch(t, {0: "earliest", 1: "earliest"}, 24), key=lambda r: (r.partition, r.offset))
    check([(r.partition, r.offset) for r in log] == [(p, o) for p in (0, 1) for o in range(12)],
          f"fetched {[(r.partition, r.offset) for r in log]}, want offsets 0..11 on both partitions")
    ts = {p: [r.timestamp for r in log if r.partition == p] for p in (0, 1)}
    if c.caps.timestamps:
        want_ts = {p: [base + 10_000 * b + 100 * i + 30 * p for b in range(3) for i in range(4)] for p in (0, 1)}
        check(ts == want_ts, "fetched timestamps (minus base) "
              f"{ {p: [x - base for x in v] for p, v in ts.items()} }, want "
              f"{ {p: [x - base for x in v] for p, v in want_ts.items()} }")
    targets = {"before everything": ts[0][0] - 1000,
               "exactly a record inside batch 2 of partition 0": ts[0][6],
               "just after a record inside batch 1": ts[0][1] + 1,
               "between batches 1 and 2": max(ts[0][3], ts[1][3]) + 1,
               "the last record of partition 1": ts[1][11]}
    for what, target in targets.items():
        lookup = {p: next((o for o, x in enumerate(ts[p]) if x >= target), None) for p in (0, 1)}
        want = [(r.partition, r.offset, r.value) for r in log if r.timestamp >= target
                and lookup[r.partition] is not None and r.offset >= lookup[r.partition]]
        found, recs = c.read_from_timestamp(t, [0, 1], target, len(want))
        if found:  # kcat does not show what it looked up
            check(found == lookup, f"offsets_for_times({what}, {target}): {found}, want {lookup}")
        got = sorted((r.partition, r.offset, r.value) for r in recs)
        firsts = {p: min((o for q, o, _ in got if q == p), default=None) for p in (0, 1)}
        check(got == want, f"seek to timestamp {target} ({what}): read {len(got)} records starting at "
              f"{firsts}, want {len(want)} starting at {lookup}")


def group_commit_resume(c: Client, ctx: Context) -> None:
    t = ctx.topic(2)
    g = ctx.group()
    msgs = make_msgs(c, 12, tag="grp", partitions=2)
    check_deliveries(msgs, c.produce(t, msgs), offsets=c.caps.offsets_known)
    first = c.group_read(t, g, 7, metadata="compat-first")
    check(len(first) == 7, f"first member processed {len(first)} of 7 records")
    nxt: dict[int, int] = {}
    for r in first:
        nxt[r.partition] = max(nxt.get(r.partition, 0), r.offset + 1)
    if c.caps.commit_metadata:
        committed = c.committed(g, t)
        want = {p: (o, "compat-first") for p, o in nxt.items()}
        check(committed == want, f"committed offsets {committed}, want {want}")
    second = c.group_read(t, g, 5, metadata="compat-second")
    seen = [(r.partition, r.offset) for r in first + second]
    check(len(set(seen)) == len(seen), f"records read twice after resume: {sorted(seen)}")
    check(sorted(seen) == sorted((p, o) for p in (0, 1) for o in range(6)),
          f"first+second member read {sorted(seen)}, want every record once")


def admin_describe_configs(c: Client, ctx: Context) -> None:
    t = ctx.topic(1, {"retention.ms": "123456789", "max.message.bytes": "200000"})
    cfg = c.describe_configs(t)
    check(len(cfg) >= 10, f"only {len(cfg)} config entries: {sorted(cfg)}")
    for key, value in (("retention.ms", "123456789"), ("max.message.bytes", "200000")):
        e = cfg.get(key)
        check(e is not None, f"{key} missing")
        check(e.value == value and e.source == "DYNAMIC_TOPIC_CONFIG",
              f"{key} = {e.value!r} from {e.source}, want {value!r} from DYNAMIC_TOPIC_CONFIG")
    e = cfg.get("cleanup.policy")
    check(e is not None and e.value == "delete", f"cleanup.policy = {e}")
    check(e.source in ("DEFAULT_CONFIG", "STATIC_BROKER_CONFIG", "DYNAMIC_DEFAULT_BROKER_CONFIG"),
          f"cleanup.policy source {e.source}")


def admin_delete_records(c: Client, ctx: Context) -> None:
    t = ctx.topic(2)
    msgs = make_msgs(c, 20, tag="del", partitions=2)
    check_deliveries(msgs, c.produce(t, msgs), offsets=c.caps.offsets_known)
    low = c.delete_records(t, {0: 4, 1: 10})
    check(low == {0: 4, 1: 10}, f"low watermarks after DeleteRecords {low}, want {{0: 4, 1: 10}}")
    earliest = c.list_offsets(t, [0, 1], "earliest")
    check(earliest == {0: 4, 1: 10}, f"earliest after DeleteRecords {earliest}")
    recs = sorted(c.fetch(t, {0: "earliest"}, 6), key=lambda r: r.offset)
    check([r.offset for r in recs] == [4, 5, 6, 7, 8, 9], f"fetch from earliest: {[r.offset for r in recs]}")
    # Below the log start offset: OFFSET_OUT_OF_RANGE, and the client resets to earliest.
    recs = sorted(c.fetch(t, {0: 1}, 6), key=lambda r: r.offset)
    check(recs and recs[0].offset == 4, f"fetch from 1 (deleted): offsets {[r.offset for r in recs]}")


def admin_create_partitions(c: Client, ctx: Context) -> None:
    t = ctx.topic(1)
    c.create_partitions(t, 3)
    deadline = time.monotonic() + 10
    while len(leaders := c.partition_leaders(t)) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
    check(sorted(leaders) == [0, 1, 2], f"after CreatePartitions: partitions {sorted(leaders)}")
    msg = [Msg(b"k", b"in-new-partition", (("h", b"1"),), now_ms() if c.caps.timestamps else None, 2)]
    ds = c.produce(t, msg)
    check_deliveries(msg, ds, offsets=c.caps.offsets_known)
    check(ds[0].partition in (2, None), f"record went to partition {ds[0].partition}")
    recs = c.fetch(t, {2: "earliest"}, 1)
    check([(r.partition, r.offset, r.value) for r in recs] == [(2, 0, b"in-new-partition")],
          f"partition 2 holds {recs}")


def message_too_large(c: Client, ctx: Context) -> None:
    t = ctx.topic(1, {"max.message.bytes": "4096"})
    rnd = random.Random(7)
    big = _letters(rnd, 20_000, string.ascii_letters.encode())
    ds = c.produce(t, [Msg(b"big", big, (), None, 0)])
    check(ds[0].error is not None, "a 20 kB record was accepted by a topic with max.message.bytes=4096")
    check(ds[0].too_large, f"error is not MESSAGE_TOO_LARGE: {ds[0].error}")
    small = [Msg(b"small", b"fits", (), None, 0)]
    ds = c.produce(t, small)
    check_deliveries(small, ds, offsets=c.caps.offsets_known)
    recs = c.fetch(t, {0: "earliest"}, 1)
    check([(r.offset, r.value) for r in recs] == [(0, b"fits")], f"topic holds {recs}")


def idempotent_producer(c: Client, ctx: Context) -> None:
    """enable.idempotence=true, acks=all: four batches (each flushed before the next) to two
    partitions from one producer. Offsets are consecutive per partition from 0, nothing is
    duplicated, records are intact. The producer id is checked where the client shows it
    (librdkafka's statistics, kcat's ``-d eos`` log); the Java client, kafka-python and
    aiokafka keep it to themselves (a failed InitProducerId would fail their sends)."""
    t = ctx.topic(2)
    batches = [make_msgs(c, 10, tag=f"idem{b}", partitions=2) for b in range(4)]
    msgs = [m for b in batches for m in b]
    t0 = now_ms()
    ds, producer_id = c.produce_idempotent(t, batches)
    t1 = now_ms()
    check_deliveries(msgs, ds, offsets=c.caps.offsets_known)
    if c.caps.offsets_known:
        for p in (0, 1):
            offs = [d.offset for d in ds if d.partition == p]
            check(offs == list(range(20)), f"partition {p}: producer was told offsets {offs}")
    if producer_id is not None:
        check(producer_id >= 0, f"the producer shows producer id {producer_id}")
        ctx.notes.append(f"producer id {producer_id}")
    latest = c.list_offsets(t, [0, 1], "latest")
    check(latest == {0: 20, 1: 20}, f"latest offsets {latest}, want {{0: 20, 1: 20}}: the log holds "
          "more (or fewer) records than were sent")
    check_same(msgs, ds, c.fetch(t, {0: "earliest", 1: "earliest"}, len(msgs)), t0=t0, t1=t1)


LARGE_VALUE = 900 * 1024  # below message.max.bytes 1048588 with key, headers and batch overhead


def _letters(rnd: random.Random, n: int, alphabet: bytes) -> bytes:
    """``n`` random bytes from ``alphabet``, reproducible from ``rnd``: random bytes mapped onto
    it (a byte at a time through ``rnd.choice`` costs ~0.4 CPU-s per 900 KiB value)."""
    return rnd.randbytes(n).translate(bytes(alphabet[i % len(alphabet)] for i in range(256)))


def large_records(c: Client, ctx: Context) -> None:
    """Three records of 900 KiB values with keys and headers on one partition, each in a
    batch of its own (no two fit under the 1 MiB limits). Fetched back intact with the
    client's default fetch sizes, and with max.partition.fetch.bytes = 64 KiB: the broker
    still returns the first batch of a partition when it is larger than the limit (KIP-74),
    so the consumer makes progress. The facades' producers raise the max request size from
    the default 1 MiB to 4 MiB (librdkafka: message.max.bytes); a 900 KiB record fits
    under either. kcat keeps librdkafka's defaults (message.max.bytes 1000000)."""
    t = ctx.topic(1)
    rnd = random.Random(11)
    letters = (string.ascii_letters + string.digits).encode()
    msgs = []
    for i in range(3):
        value = _letters(rnd, LARGE_VALUE, letters)
        if c.caps.binary and i == 1:
            value = bytes([0, 255, 10, 13]) + value[4:]
        headers = (("idx", str(i).encode()), ("blob", _letters(rnd, 4096, letters)))
        msgs.append(Msg(f"large-{i}".encode(), value, headers,
                        now_ms() - 1000 + i if c.caps.timestamps else None, 0))
    t0 = now_ms()
    ds = c.produce(t, msgs)
    t1 = now_ms()
    check_deliveries(msgs, ds, offsets=c.caps.offsets_known)
    check_same(msgs, ds, c.fetch(t, {0: "earliest"}, len(msgs)), t0=t0, t1=t1)
    small = c.fetch(t, {0: "earliest"}, len(msgs), max_partition_fetch_bytes=64 * 1024)
    check([r.offset for r in sorted(small, key=lambda r: r.offset)] == [0, 1, 2],
          f"with max.partition.fetch.bytes=65536: fetched offsets {[r.offset for r in small]}, want [0, 1, 2]")
    check_same(msgs, ds, small, t0=t0, t1=t1)


def _until(what: str, cond: Callable[[], bool], timeout: float, members: list[GroupMember],
           state: Callable[[], str]) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        for m in members:
            if m.error is not None:
                raise Failed(f"{what}: a member failed: {type(m.error).__name__}: {m.error}")
        check(time.monotonic() < deadline, f"{what}: not within {timeout:.0f}s ({state()})")
        time.sleep(0.1)


def group_rebalance(c: Client, ctx: Context) -> None:
    """Two members of one group on a 4-partition topic. The first owns all four; when the
    second joins, each owns two (disjoint, together all four); 40 records produced then are
    each consumed once by the group; the second leaves (close: LeaveGroup) and the first
    owns all four again and consumes 20 more. Every record is consumed exactly once.
    Members commit what they consumed before they poll again (see GroupMember). No fixed
    sleeps: each step waits for its condition with a deadline, so the first join's
    group.initial.rebalance.delay.ms (3 s by default) only adds time."""
    t = ctx.topic(4)
    g = ctx.group()
    everything = {0, 1, 2, 3}
    m1 = c.group_member(t, g)
    members = [m1]
    try:
        def state() -> str:
            return "; ".join(f"member {i + 1} owns {sorted(m.assignment())}, consumed {len(m.records())}"
                             for i, m in enumerate(members))

        _until("the first member owns all four partitions", lambda: m1.assignment() == everything,
               25, members, state)
        m2 = c.group_member(t, g)
        members.append(m2)

        def split() -> bool:
            a1, a2 = m1.assignment(), m2.assignment()
            return len(a1) == 2 and len(a2) == 2 and a1 | a2 == everything

        _until("after the second member joined, two partitions each", split, 30, members, state)
        owned = {1: m1.assignment(), 2: m2.assignment()}
        first = make_msgs(c, 40, tag="reb1", partitions=4)
        check_deliveries(first, c.produce(t, first), offsets=c.caps.offsets_known)
        _until("the group consumes the 40 records", lambda: len(m1.records()) + len(m2.records()) >= 40,
               20, members, state)
        for i, m in ((1, m1), (2, m2)):
            stray = sorted({r.partition for r in m.records()} - owned[i])
            check(not stray, f"member {i} consumed from partitions {stray}, it owns {sorted(owned[i])}")
        m2.close()
        members.remove(m2)
        by_m2 = m2.records()
        _until("after the second member left, the first owns all four", lambda: m1.assignment() == everything,
               25, members, state)
        second = make_msgs(c, 20, tag="reb2", partitions=4)
        check_deliveries(second, c.produce(t, second), offsets=c.caps.offsets_known)
        _until("the first member consumes the 20 records", lambda: len(m1.records()) + len(by_m2) >= 60,
               20, members, state)
        time.sleep(0.5)  # a duplicate delivered late would show up here
        m1.close()
        members.remove(m1)
    finally:
        for m in members:
            try:
                m.close()
            except Exception:  # noqa: BLE001 - the scenario's own error is the one to report
                pass
    got = [(r.partition, r.offset) for r in m1.records() + by_m2]
    dup = sorted({x for x in got if got.count(x) > 1})
    check(not dup, f"records consumed more than once by the group: {dup[:12]}")
    want = [(p, o) for p in range(4) for o in range(15)]
    check(sorted(got) == want, f"the group consumed {len(got)} records, want 60 (15 per partition): "
          f"missing {sorted(set(want) - set(got))[:12]}")
    values = sorted(r.value or b"" for r in m1.records() + by_m2)
    check(values == sorted(m.value or b"" for m in first + second), "consumed values differ from the produced ones")


def admin_alter_configs(c: Client, ctx: Context) -> None:
    """IncrementalAlterConfigs on a topic with an unrelated override: SET retention.ms, then
    DELETE it; DescribeConfigs shows it DYNAMIC_TOPIC_CONFIG, then back at its default
    (not DYNAMIC_TOPIC_CONFIG), the other override untouched both times. aiokafka has only
    AlterConfigs, which replaces all of a topic's overrides: its facade sends the full set."""
    t = ctx.topic(1, {"max.message.bytes": "200000"})
    default = c.describe_configs(t).get("retention.ms")
    check(default is not None and default.source != "DYNAMIC_TOPIC_CONFIG",
          f"retention.ms before any change: {default}")
    c.alter_topic_configs(t, {"retention.ms": "3600000"}, [])
    cfg = c.describe_configs(t)
    for key, value in (("retention.ms", "3600000"), ("max.message.bytes", "200000")):
        e = cfg.get(key)
        check(e is not None and (e.value, e.source) == (value, "DYNAMIC_TOPIC_CONFIG"),
              f"after SET retention.ms: {key} = {e}, want {value!r} from DYNAMIC_TOPIC_CONFIG")
    c.alter_topic_configs(t, {}, ["retention.ms"])
    cfg = c.describe_configs(t)
    e = cfg.get("retention.ms")
    check(e is not None and e.source in ("DEFAULT_CONFIG", "STATIC_BROKER_CONFIG", "DYNAMIC_DEFAULT_BROKER_CONFIG"),
          f"after DELETE retention.ms: {e}, want a default source")
    check(e.value == default.value, f"after DELETE retention.ms = {e.value!r}, the default was {default.value!r}")
    m = cfg.get("max.message.bytes")
    check(m is not None and (m.value, m.source) == ("200000", "DYNAMIC_TOPIC_CONFIG"),
          f"after DELETE retention.ms: max.message.bytes = {m}")


def _gone(c: Client, topic: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while topic in c.list_topics():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def admin_delete_topics(c: Client, ctx: Context) -> None:
    """Create, produce, DeleteTopics: Metadata (all topics) stops listing it within 10 s.
    Re-created under the same name it is empty: earliest = latest = 0."""
    t = ctx.topic(2)
    msgs = make_msgs(c, 10, tag="del", partitions=2)
    check_deliveries(msgs, c.produce(t, msgs), offsets=c.caps.offsets_known)
    c.delete_topics([t])
    check(_gone(c, t, 10), "Metadata still lists the topic 10 s after DeleteTopics")
    deadline = time.monotonic() + 10
    while True:  # Kafka may still be removing the old partitions: retry TOPIC_ALREADY_EXISTS
        try:
            c.create_topic(t, 2)
            break
        except Exception as e:  # noqa: BLE001 - the library's own type
            if "exist" not in str(e).lower() or time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    check(_offsets_once_led(c, t, "earliest") == {0: 0, 1: 0}, "earliest of the re-created topic is not 0")
    latest = _offsets_once_led(c, t, "latest")
    check(latest == {0: 0, 1: 0}, f"latest of the re-created topic {latest}, want {{0: 0, 1: 0}}")


def _offsets_once_led(c: Client, t: str, spec: str, timeout: float = 10.0) -> dict:
    """ListOffsets of a topic just created, retried while a client's metadata still names a
    broker that does not lead the partition yet (NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE:
    in a cluster the brokers learn a new partition's leader a moment apart, and some clients'
    ListOffsets calls answer that error instead of refreshing and retrying), or while the
    leader itself has not learnt of the topic yet (UNKNOWN_TOPIC_OR_PARTITION, as Kafka answers
    from a broker whose metadata lacks the topic: librdkafka's watermark query returned it
    against a 3-broker cluster 0.7 s after CreateTopics, 2026-11-29)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return c.list_offsets(t, [0, 1], spec)
        except Exception as e:  # noqa: BLE001 - the library's own type
            text = str(e).lower()
            unknown = any(w in text for w in ("unknown topic or partition", "unknown_topic_or_part",
                                              "unknowntopicorpartition"))
            if ("leader" not in text and not unknown) or time.monotonic() > deadline:
                raise
            time.sleep(0.3)


UNKNOWN_TOPIC_OR_PARTITION = 3
INVALID_REPLICATION_FACTOR = 38


def _missing(ctx: Context) -> str:
    """A name that must not come into existence: announced (the runner removes it if the
    worker is killed) but not deleted by ``cleanup``, which would fail on a missing topic."""
    t = ctx.name("t")
    ctx.announce("topic", t)
    return t


def _not_created(c: Client, t: str, what: str) -> None:
    if t in c.list_topics():
        c.delete_topics([t])
        raise Failed(f"{what} created the topic")


def error_unknown_topic(c: Client, ctx: Context) -> None:
    """A topic that does not exist, with auto creation not allowed.

    1. Metadata for it with allow_auto_topic_creation=false (v4+): the client reports
       UNKNOWN_TOPIC_OR_PARTITION and the topic does not exist afterwards. That flag works
       on any broker, whatever its auto.create.topics.enable.
    2. Producing a record to it. Producers ask for auto-creation in their Metadata requests,
       so this step is only meaningful when the broker's auto.create.topics.enable is false
       (as on the kwire broker compat starts). The scenario reads it (DescribeConfigs on a
       BROKER resource) and, when it is true, skips this step with a note. Otherwise the
       send must fail with UNKNOWN_TOPIC_OR_PARTITION, or the client's timeout waiting for
       the topic's metadata (the Java client: "Topic X not present in metadata after N ms";
       kafka-python: "Failed to update metadata after N secs", without the name); and the
       topic must still not exist.
    """
    t = _missing(ctx)
    err = c.missing_topic_error(t)
    _not_created(c, t, "Metadata with allow_auto_topic_creation=false")
    check(err is not None, "Metadata listed a topic that does not exist")
    check(err.code == UNKNOWN_TOPIC_OR_PARTITION or (err.code is None and "unknown topic" in err.text.lower()),
          f"Metadata for a missing topic: {err.text} (code {err.code}), want UNKNOWN_TOPIC_OR_PARTITION")
    auto = c.broker_config(c.broker_ids()[0], "auto.create.topics.enable")
    if auto is None or auto.lower() != "false":
        ctx.notes.append(f"broker auto.create.topics.enable={auto}: produce step skipped")
        return
    err = c.produce_to_missing(t, Msg(b"k", b"v", (), None, None))
    _not_created(c, t, "producing to a missing topic")
    check(err is not None, "a record to a missing topic was accepted")
    check(err.code == UNKNOWN_TOPIC_OR_PARTITION or err.timeout or "unknown topic" in err.text.lower(),
          f"producing to a missing topic: {err.text} (code {err.code}), want UNKNOWN_TOPIC_OR_PARTITION")
    ctx.notes.append(f"produce: {err.text[:160]}")


def error_invalid_replication_factor(c: Client, ctx: Context) -> None:
    """CreateTopics with a replication factor one larger than the number of brokers:
    INVALID_REPLICATION_FACTOR (38) as the client reports it, and no topic."""
    rf = len(c.broker_ids()) + 1
    t = _missing(ctx)
    err = c.create_topic_error(t, 1, rf)
    _not_created(c, t, f"CreateTopics with replication factor {rf}")
    check(err is not None, f"CreateTopics with replication factor {rf} succeeded")
    check(err.code == INVALID_REPLICATION_FACTOR,
          f"CreateTopics with replication factor {rf}: {err.text} (code {err.code}), want INVALID_REPLICATION_FACTOR")


SCENARIOS: dict[str, Callable[[Client, Context], None]] = {
    "metadata": metadata,
    "roundtrip": roundtrip,
    **{f"compression-{codec}": _compression(codec) for codec in CODECS},
    **{f"acks-{a}": _acks(a) for a in ("0", "1", "all")},
    "offsets-earliest-latest": offsets_earliest_latest,
    "offsets-by-timestamp": offsets_by_timestamp,
    "offsets-max-timestamp": offsets_max_timestamp,
    "seek-mid-batch": seek_mid_batch,
    "seek-to-latest": seek_to_latest,
    "seek-to-timestamp": seek_to_timestamp,
    "group-commit-resume": group_commit_resume,
    "admin-describe-configs": admin_describe_configs,
    "admin-delete-records": admin_delete_records,
    "admin-create-partitions": admin_create_partitions,
    "message-too-large": message_too_large,
    "idempotent-producer": idempotent_producer,
    "large-records": large_records,
    "group-rebalance": group_rebalance,
    "admin-alter-configs": admin_alter_configs,
    "admin-delete-topics": admin_delete_topics,
    "error-unknown-topic": error_unknown_topic,
    "error-invalid-replication-factor": error_invalid_replication_factor,
}
