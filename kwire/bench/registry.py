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
  best of ``--rounds``.

Prints one JSON object. What it does not measure: a cluster (forwarding adds
one HTTP hop to writes only), TLS, large schemas.
"""

from __future__ import annotations

import argparse
import http.client
import json
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


def run(quick: bool = False, rounds: int = 3) -> dict:
    from kwire.testing import Broker

    n_reg, n_look, n_prod = (100, 1000, 50_000) if quick else (500, 5000, 200_000)
    out: dict = {}
    with Broker(mode="process", schema_registry_port=0) as b:
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
        on = b.create_topic("validated", configs={"confluent.value.schema.validation": "true"})
        off = b.create_topic("unvalidated")
        best = {"on": 0.0, "off": 0.0}
        for _ in range(rounds):
            for name, topic in (("off", off), ("on", on)):
                best[name] = max(best[name], _produce(b.bootstrap, topic, framed, n_prod))
        out["produce_records_per_s"] = {k: round(v) for k, v in best.items()}
        out["produce_validation_on_vs_off"] = round(best["on"] / best["off"], 3)
        out["records_per_round"] = n_prod
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kwire.bench.registry", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer requests and records")
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    print(json.dumps(run(args.quick, args.rounds), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
