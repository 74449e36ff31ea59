"""The cross-client matrix: what each client produces, every client consumes intact.

For every producer client P and codec C (``none`` and the four codecs) there is
one topic, ``compat-<run id>-cross-<P>-<C>-<random>``, with two partitions. P
writes the record set below to it with codec C and acks=all; then every
consumer client reads every such topic from the earliest offsets, and each
(P, consumer, C) cell compares what the consumer got with the record set:
partition, offset, key, value, headers in order, and the timestamp.

How it runs (``run`` below, called by compat/cli.py after the scenario matrix):

1. the runner writes the record set to ``spec.tsv`` and creates the topics
   through an admin client (confluent-kafka, else kafka-python);
2. one worker per producer client, all at once, each producing to its own
   topics (``python -m compat.worker --cross-produce SPEC`` for the Python-driven
   clients, ``Compat --cross-produce SPEC`` / CrossClient.java for Java). A worker
   reports one start/end pair per ``CODEC=TOPIC`` item in the line protocol of
   compat/worker.py; ``runner.run_job`` enforces a limit per item;
3. one worker per consumer client, all at once, each reading every topic whose
   producer succeeded and writing what it got to ``<dir>/<topic>.tsv``;
4. the runner compares; the topics are deleted even when a step failed, and
   the files too unless a cell failed (then their directory is named on stderr).

The record set is what every producer can express. Text (UTF-8, with
non-ASCII characters), because that is what kcat produces from its line input
and prints with ``-J``: no tabs or newlines, no timestamps chosen by kcat,
headers per kcat invocation. No null header values and no record with both a
null key and a null value: kafka-python's producer refuses both (aiokafka the
latter). Within those limits it has null keys, empty keys, null and empty
values, duplicate header names, empty header values, non-ASCII header names,
explicit timestamps on most records and producer-clock timestamps on the rest,
and values repetitive enough that every codec shrinks a batch (librdkafka sends
a batch uncompressed when compressing does not help). Records come in blocks
of one partition and one header set, so kcat needs one invocation per block.

Files (no JSON, so the Java side needs no parser), one record a line, fields
separated by tabs, ``-`` for null, byte strings in lower-case hex:

    spec:      partition  timestamp|-  key  value  headers
    consumed:  partition  offset  timestamp  key  value  headers

``headers`` is ``-`` when there are none, else ``name:value`` items joined by
``,`` (name and value in hex, value ``-`` when null).

Not covered here: binary (non-UTF-8) payloads (kcat), the codec a batch really
arrived with (clients do not say; kwire's own tests check stored batches), and
consumer groups (the scenario matrix has them).
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from compat.clients.base import Headers, Msg, Rec
from compat.matrix import CODECS, FAIL, PASS, SKIP, Result
from compat.runner import Janitor, Job, run_job

CROSS_CLIENTS = ("kafka-python", "aiokafka", "confluent-kafka", "kcat", "java")
CROSS_CODECS = ("none", *CODECS)
PARTITIONS = 2
PRODUCE_LIMIT_S = 45.0     # per codec topic, before --timeout-factor
CONSUME_LIMIT_S = 40.0     # per topic
READ_S = 20.0              # a consumer's own deadline for one topic
CONSUME_THREADS = 4        # topics a consumer worker reads at once
CLOCK_SLACK_MS = 5000      # producer-clock timestamps: inside the produce window, give or take
# Producers that cannot choose a record's timestamp: their records carry the producer's clock.
NO_TIMESTAMPS = ("kcat",)


@dataclass
class CrossResult:
    producer: str
    consumer: str
    codec: str
    status: str
    reason: str = ""
    topic: str = ""

    def to_json(self) -> dict:
        return asdict(self)


# -- the record set ---------------------------------------------------------------------

# (header set, block kind): "nulls" blocks may hold null keys and values, "empties" blocks
# empty ones (kcat's -Z turns empty into null for a whole invocation), "clock" blocks have
# no timestamp chosen by the producer.
_BLOCKS: tuple[tuple[Headers, str], ...] = (
    ((("trace-id", b"4bf92f3577b34da6a3ce929d0e0e4736"), ("dup", b"first"), ("dup", b"second")),
     "nulls"),
    ((("empty", b""), ("n\u00e4me-\u00fcnicode", "v\u00e4rde \u2713 \u65e5\u672c".encode()),
      ("dup", b""), ("dup", b"x")), "empties"),
    ((), "clock"),
)
_BLOCK_SIZES = (34, 33, 33)   # per partition: 100 records, 200 in all


def record_set(base_ts: int) -> list[Msg]:
    """The records every producer sends, in order: partition by partition, block by block."""
    out: list[Msg] = []
    for p in range(PARTITIONS):
        for (headers, kind), n in zip(_BLOCKS, _BLOCK_SIZES):
            for j in range(n):
                i = len(out)
                key: bytes | None = f"sensor-{i % 5}-\u043a\u043b\u044e\u0447".encode()
                value: bytes | None = (f"{i:04d} \u00e9v\u00e9nement temp\u00e9rature={20 + i % 7}.5\u00b0C "
                                       f"humidit\u00e9=4{i % 10}% \u2713 " * (2 + i % 3)).encode()
                if kind == "nulls" and j % 6 == 1:
                    key = None
                if kind == "nulls" and j % 8 == 3 and key is not None:
                    value = None  # never both: kafka-python and aiokafka refuse such a record
                if kind == "empties" and j % 6 == 2:
                    key = b""
                if kind == "empties" and j % 8 == 5:
                    value = b""
                ts = None if kind == "clock" else base_ts + 3 * i
                out.append(Msg(key, value, headers, ts, p))
    return out


def _hex(b: bytes | None) -> str:
    return "-" if b is None else b.hex()


def _unhex(s: str) -> bytes | None:
    return None if s == "-" else bytes.fromhex(s)


def _headers_field(hs: Headers) -> str:
    return ",".join(f"{k.encode().hex()}:{_hex(v)}" for k, v in hs) or "-"


def _parse_headers(s: str) -> Headers:
    if s == "-":
        return ()
    return tuple((bytes.fromhex(n).decode("utf-8"), _unhex(v))
                 for n, v in (item.split(":") for item in s.split(",")))


def write_spec(path: Path, msgs: list[Msg]) -> None:
    lines = [f"{m.partition}\t{'-' if m.timestamp is None else m.timestamp}\t{_hex(m.key)}\t"
             f"{_hex(m.value)}\t{_headers_field(m.headers)}\n" for m in msgs]
    path.write_text("".join(lines), encoding="ascii")


def read_spec(path: Path) -> list[Msg]:
    out = []
    for line in path.read_text(encoding="ascii").splitlines():
        p, ts, k, v, hs = line.split("\t")
        out.append(Msg(_unhex(k), _unhex(v), _parse_headers(hs), None if ts == "-" else int(ts), int(p)))
    return out


def write_consumed(path: Path, recs: list[Rec]) -> None:
    """Atomically, so a killed worker leaves no half file behind."""
    tmp = path.with_suffix(".part")
    tmp.write_text("".join(f"{r.partition}\t{r.offset}\t{r.timestamp}\t{_hex(r.key)}\t{_hex(r.value)}\t"
                           f"{_headers_field(r.headers)}\n" for r in recs), encoding="ascii")
    os.replace(tmp, path)


def read_consumed(path: Path) -> list[Rec]:
    out = []
    for line in path.read_text(encoding="ascii").splitlines():
        p, off, ts, k, v, hs = line.split("\t")
        out.append(Rec(int(p), int(off), _unhex(k), _unhex(v), _parse_headers(hs), int(ts)))
    return out


# -- comparing ---------------------------------------------------------------------------

def _show(b: bytes | None) -> str:
    if b is None:
        return "null"
    s = b.decode("utf-8", "replace")
    return repr(s if len(s) <= 40 else s[:40] + "...")


def compare(want: list[Msg], got: list[Rec], *, own_timestamps: bool, window: tuple[int, int]) -> str | None:
    """The first difference between the record set and what a consumer got, or None.

    Per partition, in the order the consumer delivered them: offsets 0, 1, 2, ...,
    then key, value, headers and timestamp. A timestamp is compared exactly when the
    producer chose it (``own_timestamps`` and the record has one), else it must lie in
    ``window`` (ms, the produce phase) give or take ``CLOCK_SLACK_MS``.
    """
    want_p: dict[int, list[Msg]] = {}
    for m in want:
        want_p.setdefault(m.partition, []).append(m)
    got_p: dict[int, list[Rec]] = {}
    for r in got:
        got_p.setdefault(r.partition, []).append(r)
    extra = sorted(set(got_p) - set(want_p))
    if extra:
        return f"records in partition {extra[0]}, which was not produced to"
    for p, ms in sorted(want_p.items()):
        rs = got_p.get(p, [])
        for i, (m, r) in enumerate(zip(ms, rs)):
            at = f"p{p}@{r.offset}"
            if r.offset != i:
                return f"p{p}: record {i} delivered at offset {r.offset}, want {i}"
            if r.key != m.key:
                return f"{at}: key {_show(r.key)}, want {_show(m.key)}"
            if r.value != m.value:
                return f"{at}: value {_show(r.value)}, want {_show(m.value)}"
            if r.headers != m.headers:
                return f"{at}: headers {list(r.headers)}, want {list(m.headers)}"
            if own_timestamps and m.timestamp is not None:
                if r.timestamp != m.timestamp:
                    return f"{at}: timestamp {r.timestamp}, want {m.timestamp}"
            elif not window[0] - CLOCK_SLACK_MS <= r.timestamp <= window[1] + CLOCK_SLACK_MS:
                return f"{at}: timestamp {r.timestamp} outside the produce window {window[0]}..{window[1]}"
        if len(rs) != len(ms):
            return f"p{p}: got {len(rs)} records, want {len(ms)}"
    return None


# -- the worker side (compat/worker.py and CrossClient.java do the same) -----------------

def _items(items: list[str]) -> list[tuple[str, str, str]]:
    """``CODEC=TOPIC`` arguments -> (item, codec, topic)."""
    return [(it, *it.split("=", 1)) for it in items]


def kcat_produce(client, topic: str, msgs: list[Msg], codec: str) -> str | None:
    """kcat, one invocation per block (partition, headers, and -Z when the block has
    nulls: with -Z kcat sends an empty key or value as null, without it as empty).
    Returns the first error, or None."""
    runs: list[tuple[tuple, list[Msg]]] = []
    for m in msgs:
        if not runs or runs[-1][0] != (m.partition, m.headers):
            runs.append(((m.partition, m.headers), []))
        runs[-1][1].append(m)
    for (partition, headers), ms in runs:
        nulls = any(m.key is None or m.value is None for m in ms)
        args = ["-P", "-t", topic, "-p", str(partition), "-K", "\t", "-X", "acks=all",
                "-X", f"compression.codec={codec}", "-X", "linger.ms=20"] + (["-Z"] if nulls else [])
        for name, value in headers:  # "-H name" without "=" is a null value
            args += ["-H", name if value is None else f"{name}={value.decode()}"]
        for m in ms:
            fields = (m.key or b"", m.value or b"")
            if any(b"\t" in f or b"\n" in f for f in fields) or (nulls and b"" in (m.key, m.value)):
                raise ValueError("the record set has a record kcat cannot express")
        p = client._kcat(*args, input=b"".join((m.key or b"") + b"\t" + (m.value or b"") + b"\n" for m in ms))
        err = " ".join(p.stderr.decode("utf-8", "replace").split())[-400:]
        if p.returncode != 0 or "Delivery failed" in err:
            return f"kcat -P exited {p.returncode}: {err}"
    return None


def worker_produce(client, spec: Path, items: list[str], emit: Callable[[dict], None],
                   describe: Callable[[BaseException], str]) -> None:
    msgs = read_spec(spec)
    for item, codec, topic in _items(items):
        emit({"event": "start", "scenario": item})
        t0 = time.monotonic()
        status, reason = PASS, ""
        try:
            missing = None if codec == "none" else client.codec_missing(codec)
            if missing:
                status, reason = SKIP, missing
            elif client.name == "kcat":
                err = kcat_produce(client, topic, msgs, codec)
                if err:
                    status, reason = FAIL, err
            else:
                ds = client.produce(topic, msgs, compression=codec, acks="all")
                bad = [(i, d.error) for i, d in enumerate(ds) if d.error]
                wrong = [i for i, (m, d) in enumerate(zip(msgs, ds))
                         if not d.error and d.partition is not None and d.partition != m.partition]
                if len(ds) != len(msgs):
                    status, reason = FAIL, f"{len(ds)} delivery reports for {len(msgs)} records"
                elif bad:
                    status, reason = FAIL, (f"{len(bad)} of {len(msgs)} records failed, "
                                            f"first #{bad[0][0]}: {bad[0][1]}")
                elif wrong:
                    status, reason = FAIL, f"record #{wrong[0]} went to partition {ds[wrong[0]].partition}"
        except Exception as e:  # noqa: BLE001 - every failure becomes a cell
            status, reason = FAIL, describe(e)
        emit({"event": "end", "scenario": item, "status": status, "reason": reason,
              "seconds": round(time.monotonic() - t0, 3), "notes": []})


def _read(client, topic: str, count: int) -> list[Rec]:
    if client.name == "kcat":  # one kcat run for both partitions; -e ends it at the end of both,
        # which it notices on the first empty fetch, so that fetch should not wait long
        return client._consume("-t", topic, "-o", "beginning", "-e", "-X", "fetch.wait.max.ms=50",
                               timeout=READ_S)
    return client.fetch(topic, {p: "earliest" for p in range(PARTITIONS)}, count, timeout=READ_S)


def worker_consume(client, spec: Path, out_dir: Path, items: list[str], emit: Callable[[dict], None],
                   describe: Callable[[BaseException], str]) -> None:
    """Reads a few topics at once (each read is bounded by READ_S; a client needs half a
    second or so to start reading a topic), but reports them one after the other."""
    count = len(read_spec(spec))
    out_dir.mkdir(parents=True, exist_ok=True)
    todo = _items(items)
    # Every codec check first, in this thread: it imports the client's codec module, and that
    # import racing a reader thread's first import of the client (aiokafka) can end in
    # Python's _DeadlockError (seen under load: "deadlock detected by _ModuleLock('aiokafka.codec')").
    missing = {item: None if codec == "none" else client.codec_missing(codec) for item, codec, _ in todo}
    with ThreadPoolExecutor(max_workers=CONSUME_THREADS) as pool:
        futs = {}
        for item, codec, topic in todo:
            futs[item] = missing[item] or pool.submit(_read, client, topic, count)
        for item, codec, topic in todo:
            emit({"event": "start", "scenario": item})
            t0 = time.monotonic()
            status, reason = PASS, ""
            try:
                if isinstance(futs[item], str):
                    status, reason = SKIP, futs[item]
                else:
                    write_consumed(out_dir / f"{topic}.tsv", futs[item].result())
            except Exception as e:  # noqa: BLE001
                status, reason = FAIL, describe(e)
            emit({"event": "end", "scenario": item, "status": status, "reason": reason,
                  "seconds": round(time.monotonic() - t0, 3), "notes": []})


# -- the runner side ---------------------------------------------------------------------

# make_job(client, job name, extra worker arguments, items) -> a Job, or why the client cannot run
MakeJob = Callable[[str, str, list[str], list[str]], "Job | str"]


def _admin(bootstrap: str):
    try:
        from compat.clients.confluent import ConfluentClient as Admin
    except ImportError:  # pragma: no cover - the test extra installs both
        from compat.clients.kafka_python import KafkaPythonClient as Admin
    return Admin(bootstrap)


def _say(msg: str) -> None:
    print(f"compat: cross {msg}", file=sys.stderr, flush=True)


def run(*, bootstrap: str, run_id: str, clients: list[str], codecs: list[str], work: Path,
        log_dir: Path, janitor: Janitor, timeout_factor: float, make_job: MakeJob) -> list[CrossResult]:
    """The whole phase; returns one CrossResult per (producer, consumer, codec)."""
    work.mkdir(parents=True, exist_ok=True)
    msgs = record_set(int(time.time() * 1000) - 3_600_000)
    spec = work / "spec.tsv"
    write_spec(spec, msgs)
    topics = {(p, c): f"compat-{run_id}-cross-{p}-{c}-{os.urandom(3).hex()}" for p in clients for c in codecs}
    item = {pc: f"{pc[1]}={t}" for pc, t in topics.items()}
    produced: dict[tuple[str, str], Result] = {}    # (producer, codec) -> the producer's result
    consumed: dict[tuple[str, str], Result] = {}    # (consumer, topic) -> the consumer's result
    window = [0, 0]

    def job_results(jobs: list[Job], limit: float) -> list[tuple[Job, Result]]:
        out: list[tuple[Job, Result]] = []

        def one(job: Job) -> None:
            job.limits = {it: limit for it in job.scenarios}
            rs = run_job(job, timeout_factor=timeout_factor, janitor=janitor, log_dir=log_dir,
                         on_result=lambda r: None)
            out.extend((job, r) for r in rs)

        with ThreadPoolExecutor(max_workers=max(1, len(jobs))) as pool:
            list(pool.map(one, jobs))
        return out

    try:
        # 1. topics
        t0 = time.monotonic()
        if not janitor.reachable():
            for pc in topics:
                produced[pc] = Result(pc[0], item[pc], FAIL, f"broker {bootstrap} unreachable")
        else:
            admin, failed = _admin(bootstrap), ""
            for pc, topic in topics.items():
                if failed:  # each try may take OP_TIMEOUT: do not wait 25 times
                    produced[pc] = Result(pc[0], item[pc], FAIL, f"not created after {failed}")
                    continue
                try:
                    admin.create_topic(topic, PARTITIONS)
                except Exception as e:  # noqa: BLE001 - the cells say it
                    failed = f"could not create {topic}: {type(e).__name__}: {e}"
                    produced[pc] = Result(pc[0], item[pc], FAIL, failed)
        _say(f"created {len(topics)} topics in {time.monotonic() - t0:.1f}s")

        # 2. producers, all at once
        t0 = time.monotonic()
        window[0] = int(time.time() * 1000)
        jobs = []
        for p in clients:
            its = [item[(p, c)] for c in codecs if (p, c) not in produced]
            if not its:
                continue
            job = make_job(p, f"cross-produce-{p}", ["--cross-produce", str(spec)], its)
            if isinstance(job, str):
                for c in codecs:
                    produced.setdefault((p, c), Result(p, item[(p, c)], SKIP, job))
            else:
                jobs.append(job)
        by_item = {it: pc for pc, it in item.items()}
        for job, r in job_results(jobs, PRODUCE_LIMIT_S):
            produced[by_item[r.scenario]] = r
        window[1] = int(time.time() * 1000)
        _say(f"produced in {time.monotonic() - t0:.1f}s: "
             + (", ".join(f"{pc[0]}/{pc[1]} {r.status}" for pc, r in sorted(produced.items())
                          if r.status != PASS) or "all PASS"))

        # 3. consumers, all at once, of the topics that were produced
        t0 = time.monotonic()
        ready = [pc for pc in topics if produced.get(pc) and produced[pc].status == PASS]
        jobs = []
        for q in clients:
            if not ready:
                break
            job = make_job(q, f"cross-consume-{q}",
                           ["--cross-consume", str(spec), "--cross-out", str(work / q)],
                           [item[pc] for pc in ready])
            if isinstance(job, str):
                for pc in ready:
                    consumed[(q, topics[pc])] = Result(q, item[pc], SKIP, job)
            else:
                jobs.append(job)
        consumer_of = {f"cross-consume-{q}": q for q in clients}
        busy: dict[str, float] = {}
        for job, r in job_results(jobs, CONSUME_LIMIT_S):
            consumed[(consumer_of[job.client], topics[by_item[r.scenario]])] = r
            busy[consumer_of[job.client]] = busy.get(consumer_of[job.client], 0.0) + r.seconds
        _say(f"consumed in {time.monotonic() - t0:.1f}s ("
             + ", ".join(f"{q} {s:.1f}s" for q, s in busy.items()) + ")")
    finally:
        # 4. cleanup, whatever happened
        problem = janitor.delete(list(topics.values()), [])
        if problem:
            _say(f"could not delete its topics: {problem}")

    # 5. the cells
    out = []
    for p in clients:
        for c in codecs:
            topic = topics[(p, c)]
            pr = produced.get((p, c)) or Result(p, item[(p, c)], FAIL, "producer reported nothing")
            for q in clients:
                cell = CrossResult(p, q, c, FAIL, "", topic)
                if pr.status == SKIP:
                    cell.status, cell.reason = SKIP, f"producer: {pr.reason}"
                elif pr.status != PASS:
                    cell.reason = f"producer failed: {pr.reason}"
                else:
                    cr = consumed.get((q, topic))
                    if cr is None:
                        cell.reason = "consumer reported nothing"
                    elif cr.status == SKIP:
                        cell.status, cell.reason = SKIP, f"consumer: {cr.reason}"
                    elif cr.status != PASS:
                        cell.reason = f"consumer failed: {cr.reason}"
                    else:
                        got = work / q / f"{topic}.tsv"
                        diff = (compare(msgs, read_consumed(got), own_timestamps=p not in NO_TIMESTAMPS,
                                        window=(window[0], window[1]))
                                if got.is_file() else f"the consumer wrote no {got.name}")
                        cell.status, cell.reason = (PASS, "") if diff is None else (FAIL, diff)
                out.append(cell)
    if any(r.status == FAIL for r in out):
        _say(f"kept the record set and what each consumer read in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return out
