"""The real clients ``kwire bench --scale`` can write one record to every partition with.

Each writer sends one 100-byte record (acks=all, no idempotence) to every
partition of the topics ``PREFIX0..PREFIX{n-1}``, after fetching their metadata,
and returns ``(seconds from the first send to the last acknowledgement, the
client's CPU seconds for the whole run)``:

* ``java`` (the default): the Java producer (kafka-clients 4.3) in a JVM of its own,
  ``kwire/bench/java/ScaleWrite.java``: ``linger.ms`` 100 and ``batch.size`` 256, so
  every partition's record is queued before the first request and each Produce
  request carries many partitions (up to ``max.request.size`` 8 MiB); one producer
  per 1,000 partitions of a topic, each on a thread (one producer's sender walks all
  its partitions on every new batch: quadratic in its partitions). Needs
  ``java``/``javac`` and the jars where the test suite finds them
  (``$KWIRE_JAVA_JARS``, ``${KWIRE_CACHE:-~/.cache/kwire}/jars``, ``/tmp/wheels/jars``;
  ``scripts/fetch-java-jars.py`` fills the cache). Its CPU includes the JVM's start.
* ``aiokafka``: every ready batch for a broker in one request, but ``send()`` copies
  the topic's partition set on each call (quadratic in partitions per topic).
* ``librdkafka`` (confluent-kafka): one partition per Produce request
  (confluentinc/librdkafka#1700); at 50,000 partitions its own CPU was ~15 ms per
  partition (2026-11-28), so this measures the client.

Measured 2026-11-28 (2 topics × 5,000 partitions, first write, load 20-35, see
docs/performance-scale.md): kafka-python spent ~2 ms of its own CPU per partition,
so it is not offered. Not here: creating the topics, the broker's CPU (scale.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

WRITERS = ("java", "aiokafka", "librdkafka")
_JAVA_SOURCE = Path(__file__).resolve().parent / "java" / "ScaleWrite.java"
_KAFKA_CLIENTS = "kafka-clients-4.3.0.jar"
_RUNTIME_DEPS = ("slf4j-api", "lz4-java", "snappy-java", "zstd-jni")


def write(writer: str, bootstrap: str, prefix: str, topics: int, partitions: int) -> tuple[float, float]:
    """(seconds, client CPU seconds) of one record to every partition with ``writer``."""
    if writer == "java":
        return _java(bootstrap, prefix, topics, partitions)
    names = [f"{prefix}{i}" for i in range(topics)]
    c0 = time.process_time()
    if writer == "aiokafka":
        seconds = _aiokafka(bootstrap, names, partitions)
    elif writer == "librdkafka":
        seconds = _librdkafka(bootstrap, names, partitions)
    else:
        raise ValueError(f"unknown --scale-writer {writer!r} (one of {', '.join(WRITERS)})")
    return seconds, time.process_time() - c0


def _cache_dir() -> Path:
    return Path(os.environ.get("KWIRE_CACHE") or Path.home() / ".cache" / "kwire")


def _jar_dir() -> Path:
    dirs = [Path(d) for d in (os.environ.get("KWIRE_JAVA_JARS"),) if d] + [_cache_dir() / "jars",
                                                                         Path("/tmp/wheels/jars")]
    for d in dirs:
        if (d / _KAFKA_CLIENTS).is_file():
            return d
    raise RuntimeError(f"--scale-writer java: no {_KAFKA_CLIENTS} in {', '.join(map(str, dirs))} "
                       f"(scripts/fetch-java-jars.py fetches it)")


def _classpath(d: Path) -> list[str]:
    cp = [str(d / _KAFKA_CLIENTS)]
    for dep in _RUNTIME_DEPS:  # the newest of each
        found = sorted(d.glob(f"{dep}-[0-9]*.jar"),
                       key=lambda p: [int(x) if x.isdigit() else 0 for x in p.stem[len(dep) + 1:].split(".")])
        if found:
            cp.append(str(found[-1]))
    return cp


def _compiled(cp: list[str]) -> str:
    """The directory of ScaleWrite.class, compiled once per machine, source and classpath under
    ``${KWIRE_CACHE:-~/.cache/kwire}/bench-java`` (published by an atomic rename)."""
    h = hashlib.sha256(_JAVA_SOURCE.read_bytes() + ":".join(cp).encode()).hexdigest()[:16]
    out = _cache_dir() / "bench-java" / h
    if not (out / "ScaleWrite.class").is_file():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=f".{h}-", dir=out.parent)
        subprocess.run(["javac", "-cp", ":".join(cp), "-d", tmp, str(_JAVA_SOURCE)], check=True,
                       capture_output=True, timeout=600)
        try:
            os.rename(tmp, out)
        except OSError:  # another bench published it first
            shutil.rmtree(tmp, ignore_errors=True)
    return str(out)


def _java(bootstrap: str, prefix: str, topics: int, partitions: int) -> tuple[float, float]:
    cp = _classpath(_jar_dir())
    classes = _compiled(cp)
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(["java", "-Xlog:disable", "-cp", ":".join([classes, *cp]), "ScaleWrite", bootstrap, prefix,
                        str(topics), str(partitions)], capture_output=True, text=True, timeout=3600)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise RuntimeError(f"ScaleWrite exited {p.returncode}: {p.stderr[-2000:]}")
    line = [x for x in p.stdout.splitlines() if x.startswith("{")][-1]
    return json.loads(line)["seconds"], r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime


def _aiokafka(bootstrap: str, names: list[str], partitions: int) -> float:
    import asyncio

    from aiokafka import AIOKafkaProducer

    async def go() -> float:
        p = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=20,
                             enable_idempotence=False, request_timeout_ms=600_000,
                             metadata_max_age_ms=3_600_000)
        await p.start()
        try:
            for n in names:  # metadata for every topic before the clock starts
                await p.partitions_for(n)
            t0 = time.monotonic()
            futures = [await p.send(n, b"x" * 100, partition=i) for n in names for i in range(partitions)]
            await asyncio.gather(*futures)
            return time.monotonic() - t0
        finally:
            await p.stop()

    return asyncio.run(go())


def _librdkafka(bootstrap: str, names: list[str], partitions: int) -> float:
    import confluent_kafka as ck

    p = ck.Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 20, "log_level": 0,
                     "enable.idempotence": False, "queue.buffering.max.messages": 2_000_000,
                     "message.timeout.ms": 1_800_000})
    failed = []
    p.list_topics(timeout=60)
    t0 = time.monotonic()
    for n in names:
        for i in range(partitions):
            p.produce(n, b"x" * 100, partition=i, on_delivery=lambda e, _m: e and failed.append(e))
            p.poll(0)
    if p.flush(1800) or failed:
        raise RuntimeError(f"librdkafka: {len(failed)} records failed ({failed[:1]})")
    return time.monotonic() - t0
