"""``kwire bench --scale TOPICSxPARTITIONS``: one broker holding many partitions.

For each kwire broker of the bench (this checkout and ``kwire@REV`` peers; a
broker given by address or Tansu cannot be restarted by the bench and is not
measured here), on a fresh data dir, in this order:

* ``create_s``: create TOPICS topics of PARTITIONS partitions (one replica);
* ``produce_first_s`` / ``produce_first_us_per_partition``: one 100-byte
  record to every partition (acks=all) with the ``--scale-writer`` client
  (``scale_writers.py``; default the Java producer, many partitions per
  ProduceRequest), the clock stopping when every record is acknowledged;
  broker CPU per partition, and the writer's own CPU (``_client_cpu_s``). The
  first record of a partition is its first write (segment files opened, leader
  epoch recorded);
* ``produce_again_*``: the same once more: the steady per-partition cost;
* ``metadata_all_s`` / ``metadata_all_cpu_s``: a Metadata request for every
  topic (librdkafka's ``list_topics``: the wall time includes the client's
  parsing of the answer) and the broker CPU it cost;
* ``rss_mb`` and ``open_fds`` after the writes (the fd cache bounds the
  latter);
* ``stop_s`` / ``stop_cpu_s``: SIGTERM to exit (flush, producer snapshots,
  checkpoints; the CPU from ``wait4``), waited for up to ``STOP_TIMEOUT_S``;
  ``stop_clean`` is 1 when the broker exited 0 by itself and left the log dir's
  clean-shutdown marker (the restart after a stop cut short by SIGKILL would be
  a recovery, not a clean start: the bench then fails the run);
  ``restart_clean_s``: start on the same data until it answers ApiVersions and
  Metadata lists every partition with a leader;
* ``restart_after_kill_s``: the same after ``kill -9`` of the restarted broker
  (recovery from the recovery points).

Every ``_s`` figure is a wall-clock time on whatever the machine is doing: the
load average is printed and kept beside them. The ``_cpu_s`` figures are the
broker process's own CPU (user + system, from ``/proc/<pid>/stat``) at that
point: for a restart, what its start-up cost whatever else the machine ran. Not here: consumers, replication,
Tansu (it keeps no data across a restart with ``memory://``).
"""

from __future__ import annotations

import os
import signal
import sys
import time

from kwire.log.manager import CLEAN_SHUTDOWN_FILE

from . import brokers, scale_writers

FIGURES = ["create_s", "create_cpu_s", "produce_first_s", "produce_first_us_per_partition",
           "produce_first_client_cpu_s", "produce_again_s", "produce_again_us_per_partition",
           "produce_again_client_cpu_s", "metadata_all_s", "metadata_all_cpu_s", "rss_mb",
           "open_fds", "stop_s", "stop_cpu_s", "stop_clean", "restart_clean_s", "restart_clean_cpu_s", "restart_after_kill_s",
           "restart_after_kill_cpu_s"]


# librdkafka gives up on a request after socket.timeout.ms (default 60 s) whatever the admin call's
# own timeout: creating 5,000 partitions takes longer than that on a loaded machine
_PATIENT = {"socket.timeout.ms": 300_000}  # its maximum
# the clean stop of 50,000 written partitions on a disk takes tens of seconds (an fsync or
# more per partition); the bench's usual 15 s before SIGKILL made the "clean" restart a recovery
STOP_TIMEOUT_S = 900


def parse(spec: str) -> tuple[int, int]:
    """'10x5000' -> (10, 5000)."""
    t, _, p = spec.lower().partition("x")
    topics, partitions = int(t), int(p)
    if topics < 1 or partitions < 1:
        raise ValueError("TOPICS and PARTITIONS must be >= 1")
    return topics, partitions


def _open_fds(pid: int) -> int | None:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def _wait_all_led(ck, bootstrap: str, total: int, deadline_s: float) -> float:
    """Seconds until Metadata lists ``total`` partitions with leaders (raises past the deadline)."""
    admin = ck.admin.AdminClient({"bootstrap.servers": bootstrap, "log_level": 0, **_PATIENT})
    t0 = time.monotonic()
    while True:
        try:
            md = admin.list_topics(timeout=60)
            led = sum(1 for t in md.topics.values() if not t.topic.startswith("__")
                      for p in t.partitions.values() if p.leader >= 0)
            if led >= total:
                return time.monotonic() - t0
        except ck.KafkaException:
            pass
        if time.monotonic() - t0 > deadline_s:
            raise RuntimeError(f"not every partition had a leader after {deadline_s:.0f} s")
        time.sleep(0.2)


def run_one(ck, spec: dict, workdir: str, topics: int, partitions: int, writer: str = "java") -> dict:
    """Every figure of the module docstring for one kwire broker (its ``spec`` from command.py)."""
    from confluent_kafka.admin import NewTopic

    total = topics * partitions
    out: dict = {"partitions": total, "writer": writer}
    b = brokers.start_kwire(workdir, [], spec["name"], spec.get("root"), timeout_s=120)
    data = b.data_dir
    try:
        admin = ck.admin.AdminClient({"bootstrap.servers": b.bootstrap, "log_level": 0, **_PATIENT})
        names = [f"scale{i}" for i in range(topics)]
        t0 = time.monotonic()
        for n in names:
            admin.create_topics([NewTopic(n, partitions, 1)], operation_timeout=1800,
                                request_timeout=1800)[n].result(1800)
        _wait_all_led(ck, b.bootstrap, total, 600)
        out["create_s"] = time.monotonic() - t0
        out["create_cpu_s"] = b.cpu_seconds()  # the broker's whole life so far: start + create
        for tag in ("first", "again"):
            c0 = b.cpu_seconds()
            out[f"produce_{tag}_s"], out[f"produce_{tag}_client_cpu_s"] = scale_writers.write(
                writer, b.bootstrap, "scale", topics, partitions)
            out[f"produce_{tag}_us_per_partition"] = (b.cpu_seconds() - c0) / total * 1e6
        admin.list_topics(timeout=120)  # the client's connection and the broker's cache warm
        c0, t0 = b.cpu_seconds(), time.monotonic()
        md = admin.list_topics(timeout=120)
        out["metadata_all_s"] = time.monotonic() - t0
        out["metadata_all_cpu_s"] = b.cpu_seconds() - c0
        if sum(len(md.topics[n].partitions) for n in names) != total:
            raise RuntimeError("Metadata did not list every partition")
        out["rss_mb"] = b.rss_mb()
        out["open_fds"] = _open_fds(b.pid)
        admin = None
        t0, c0 = time.monotonic(), b.cpu_seconds()
        exited_clean = b.stop(STOP_TIMEOUT_S)
        out["stop_s"] = time.monotonic() - t0
        out["stop_cpu_s"] = b.life_cpu_s - c0 if b.life_cpu_s is not None and c0 is not None else None
        out["stop_clean"] = int(exited_clean and os.path.exists(os.path.join(data, CLEAN_SHUTDOWN_FILE)))
        if not out["stop_clean"]:
            raise RuntimeError(f"the broker did not stop cleanly within {STOP_TIMEOUT_S} s of SIGTERM "
                               f"(exit code {b.proc.returncode}): no clean restart to measure")
        for kind in ("clean", "after_kill"):
            t0 = time.monotonic()
            b = brokers.start_kwire(workdir, [], f"{spec['name']}-restart-{kind}", spec.get("root"),
                                    data_dir=data, timeout_s=600)
            _wait_all_led(ck, b.bootstrap, total, 600)
            out[f"restart_{kind}_s"] = time.monotonic() - t0
            out[f"restart_{kind}_cpu_s"] = b.cpu_seconds()  # the new process: its start-up CPU
            if kind == "clean":
                os.kill(b.pid, signal.SIGKILL)
                b.proc.wait(30)
    finally:
        b.stop()
        brokers.remove_data(b)
    out["load_1min"] = os.getloadavg()[0]
    return out


def run(ck, specs: list[dict], workdir: str, spec_text: str, runs: int, writer: str = "java") -> dict:
    """``{broker name: [figures per run]}`` for every self-started kwire broker in ``specs``."""
    topics, partitions = parse(spec_text)
    results: dict = {}
    for run_no in range(runs):
        for spec in specs:
            if spec["kind"] != "kwire" or spec.get("external") or spec.get("failed"):
                continue
            try:
                r = run_one(ck, spec, workdir, topics, partitions, writer)
            except Exception as e:
                print(f"kwire bench --scale: {spec['name']} run {run_no + 1} failed: {e}",
                      file=sys.stderr, flush=True)
                r = None
            results.setdefault(spec["name"], []).append(r)
            if r is not None:
                figs = ", ".join(f"{k}={v:.4g}" for k, v in r.items() if isinstance(v, (int, float)))
                print(f"[scale run {run_no + 1}] {spec['name']}: {figs}", file=sys.stderr, flush=True)
    return results
