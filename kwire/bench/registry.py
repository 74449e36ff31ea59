"""Schema Registry figures (issue 25): ``python -m kwire.bench.registry [--quick]``.

Starts a kwire broker as its own process (``kwire.testing.Broker``, mode
``process``, so the measuring client does not share its interpreter) with
``schema.registry.port`` and measures, over one keep-alive HTTP/1.1
connection per client (as confluent-kafka's client keeps one) and with no
client-side cache (every lookup is a request):

* registration latency (``POST /subjects/{s}/versions``, a new Avro schema
  each time: a write to ``_schemas`` with acks=all and its replay), p50/p99;
* lookup latency by id (``GET /schemas/ids/{id}``, what a deserializer does)
  and by schema (``POST /subjects/{s}``, what a serializer with
  ``auto.register.schemas=false`` does), p50/p99, and lookups/s with 1 and 4
  clients;
* produce throughput (confluent-kafka, 100-byte framed values, acks=1) to a
  topic with ``confluent.value.schema.validation=true`` against one without,
  in ``--rounds`` alternating pairs (off-on, then on-off, ...), and the
  broker process's CPU time per record in each round (``/proc/<pid>/stat``:
  less moved by other load on the machine than records/s). The figure to quote
  is ``produce_validation_on_vs_off``, the median of the per-pair ratios
  (on/off records/s); ``cpu_us_per_record`` gives the medians of the CPU cost.
  The load average is printed before and after.

Prints one JSON object. What it does not measure: a cluster (forwarding adds
one HTTP hop to writes only), TLS, large schemas.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import threading
import time


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def _ms(xs: list[float]) -> dict:
    return {"p50_ms": round(_pct(xs, 50) * 1000, 3), "p99_ms": round(_pct(xs, 99) * 1000, 3),
            "mean_ms": round(statistics.fmean(xs) * 1000, 3), "n": len(xs)}


class _Client:
    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body=None):
        data = json.dumps(body).encode() if body is not None else None
        self.conn.request(method, path, body=data,
                          headers={"Content-Type": "application/vnd.schemaregistry.v1+json"})
        r = self.conn.getresponse()
        raw = r.read()
        if r.status != 200:
            raise RuntimeError(f"{method} {path}: {r.status} {raw[:200]!r}")
        return json.loads(raw)


def _schema(i: int) -> str:
    return json.dumps({"type": "record", "name": f"Bench{i}", "fields": [
        {"name": "id", "type": "long"}, {"name": "name", "type": "string"}]})


def _timed(fn, n: int) -> list[float]:
    out = []
    for i in range(n):
        t = time.perf_counter()
        fn(i)
        out.append(time.perf_counter() - t)
    return out


def _produce(bootstrap: str, topic: str, value: bytes, count: int) -> float:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "acks": 1, "linger.ms": 5, "batch.size": 262144,
                  "queue.buffering.max.messages": 1_000_000, "enable.idempotence": False})
    errors = []
    t = time.perf_counter()
    for _ in range(count):
        while True:
            try:
                p.produce(topic, value, on_delivery=lambda e, m: e and errors.append(e))
                break
            except BufferError:
                p.poll(0.01)
    p.flush(120)
    took = time.perf_counter() - t
    if errors:
        raise RuntimeError(f"{len(errors)} produce errors, first {errors[0]}")
    return count / took


def _cpu_seconds(pid: int) -> float:
    """utime + stime of a process (Linux /proc; fields 14 and 15, after the command's parens)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _validation_rounds(b, value: bytes, n_prod: int, rounds: int) -> dict:
    """Alternating off/on produce rounds: per-round records/s and broker CPU µs per record."""
    on = b.create_topic("validated", configs={"confluent.value.schema.validation": "true"})
    off = b.create_topic("unvalidated")
    pid = b.pid
    per: dict = {"on": [], "off": []}
    cpu: dict = {"on": [], "off": []}
    ratios = []
    for r in range(rounds):
        order = (("off", off), ("on", on)) if r % 2 == 0 else (("on", on), ("off", off))
        for name, topic in order:
            c0 = _cpu_seconds(pid)
            per[name].append(_produce(b.bootstrap, topic, value, n_prod))
            cpu[name].append((_cpu_seconds(pid) - c0) / n_prod * 1e6)
        ratios.append(per["on"][-1] / per["off"][-1])
    med = statistics.median
    return {
        "produce_records_per_s": {k: [round(x) for x in v] for k, v in per.items()},
        "produce_validation_on_vs_off_per_round": [round(x, 3) for x in ratios],
        "produce_validation_on_vs_off": round(med(ratios), 3),
        "produce_validation_on_vs_off_best_of": round(max(per["on"]) / max(per["off"]), 3),
        # CPU time is counted in clock ticks (10 ms): a short round may show none (None then)
        "cpu_us_per_record": {"on": round(med(cpu["on"]), 2), "off": round(med(cpu["off"]), 2),
                              "on_vs_off": round(med(cpu["on"]) / med(cpu["off"]), 3) if med(cpu["off"]) else None},
    }


def run(quick: bool = False, rounds: int = 5, records: int | None = None, requests: int | None = None) -> dict:
    from kwire.testing import Broker

    n_reg, n_look, n_prod = (100, 1000, 50_000) if quick else (500, 5000, 200_000)
    n_prod = records or n_prod
    if requests:  # lookups; a tenth as many registrations
        n_reg, n_look = max(1, requests // 10), requests
    out: dict = {}
    # a loaded machine can take over the default 30 s to start an interpreter and import kwire
    with Broker(mode="process", schema_registry_port=0, start_timeout=180) as b:
        port = int(b.schema_registry_url.rsplit(":", 1)[1])
        c = _Client(port)
        c.call("GET", "/subjects")  # the registry starts (creates and replays _schemas) on first use
        ids = []
        reg = _timed(lambda i: ids.append(c.call("POST", f"/subjects/bench-{i}/versions",
                                                 {"schema": _schema(i)})["id"]), n_reg)
        out["register"] = _ms(reg)
        by_id = _timed(lambda i: c.call("GET", f"/schemas/ids/{ids[i % len(ids)]}"), n_look)
        out["lookup_by_id"] = _ms(by_id)
        by_schema = _timed(lambda i: c.call("POST", f"/subjects/bench-{i % n_reg}",
                                            {"schema": _schema(i % n_reg)}), n_look // 2)
        out["lookup_by_schema"] = _ms(by_schema)
        out["lookups_per_s_1_client"] = round(n_look / sum(by_id))

        def worker(k: int, done: list) -> None:
            wc = _Client(port)
            for i in range(n_look // 4):
                wc.call("GET", f"/schemas/ids/{ids[(i + k) % len(ids)]}")
            done.append(n_look // 4)

        done: list = []
        threads = [threading.Thread(target=worker, args=(k, done)) for k in range(4)]
        t = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        out["lookups_per_s_4_clients"] = round(sum(done) / (time.perf_counter() - t))

        framed = b"\x00" + ids[0].to_bytes(4, "big") + b"x" * 95
        out.update(_validation_rounds(b, framed, n_prod, rounds))
        out["records_per_round"] = n_prod
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kwire.bench.registry", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer requests and records")
    p.add_argument("--rounds", type=int, default=5, help="alternating off/on produce pairs")
    p.add_argument("--records", type=int, help="records per produce round (default 200,000; "
                                               "50,000 with --quick)")
    p.add_argument("--requests", type=int, help="lookups per figure, and a tenth as many registrations "
                                                "(default 5,000; 1,000 with --quick)")
    args = p.parse_args(argv)
    load_before = os.getloadavg()
    out = run(args.quick, args.rounds, args.records, args.requests)
    out["load_average_before_after"] = [round(x, 2) for x in (*load_before, *os.getloadavg())]
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
