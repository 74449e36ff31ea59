"""What record validation costs per MB: ``python -m kwire.bench.validation``.

Builds one uncompressed produce batch per record size (1 KiB and 100 B
values, about 1 MB each, no keys, like the produce workloads) and one zstd
batch (half-compressible values, about 1 MB compressed), then times, per MB
of batch as the client sends it:

* ``crc``: the CRC-32C check alone (what produce did before records were walked);
* ``walk``: ``scan_records`` over the records section, C and pure Python;
* ``validate``: all of ``validate_records`` (header, CRC, decompression,
  walk) with each walker.

Prints a Markdown table; medians of ``--repeat`` timings. A measurement, not a
test; the broker-level cost is what ``kwire bench --peer kwire@<rev>`` shows.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from kwire.log import validate as validate_mod
from kwire.log.config import LogConfig
from kwire.records import scan
from kwire.records.batch import HEADER_SIZE, crc_is_valid
from kwire.records.builder import build_batch
from kwire.records.compression import NONE, ZSTD


def _time(fn, repeat: int, inner: int) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        runs.append((time.perf_counter() - t0) / inner)
    return statistics.median(runs)


def measure(repeat: int = 7) -> list[dict]:
    now = int(time.time() * 1000)
    cfg = LogConfig(max_message_bytes=8 << 20)
    rows = []
    for label, size, count, codec in (("1 KiB", 1024, 950, NONE), ("100 B", 100, 8500, NONE),
                                      ("1 KiB zstd", 1024, 1900, ZSTD)):
        # half random, half zeros: zstd halves it, as with typical payloads
        values = [os.urandom(size // 2) + bytes(size - size // 2) for _ in range(count)]
        buf = bytearray(build_batch([(None, v) for v in values], compression=codec, now_ms=now))
        mb = len(buf) / 1e6
        section = bytes(buf[HEADER_SIZE:])
        row = {"batch": label, "records": count, "batch_mb": round(mb, 3),
               "crc_ms_per_mb": _time(lambda: crc_is_valid(buf, 0, len(buf)), repeat, 20) * 1e3 / mb}
        for impl, fn in (("c", scan.c_scan_records), ("python", scan.py_scan_records)):
            if fn is None:
                continue
            inner = 20 if impl == "c" else 2
            if codec == NONE:
                row[f"walk_{impl}_ms_per_mb"] = _time(lambda: fn(section, count), repeat, inner) * 1e3 / mb
            validate_mod.scan_records = fn
            try:
                row[f"validate_{impl}_ms_per_mb"] = _time(
                    lambda: validate_mod.validate_records(buf, cfg, now), repeat, inner) * 1e3 / mb
            finally:
                validate_mod.scan_records = scan.scan_records
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kwire.bench.validation", description=__doc__.split("\n")[0])
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args(argv)
    rows = measure(args.repeat)
    cols = ["batch", "records", "batch_mb", "crc_ms_per_mb", "walk_c_ms_per_mb",
            "walk_python_ms_per_mb", "validate_c_ms_per_mb", "validate_python_ms_per_mb"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(f"{r[c]:.3f}" if isinstance(r.get(c), float) else str(r.get(c, "–"))
                                for c in cols) + " |")
    print(f"\nscan implementation in use: {scan.IMPLEMENTATION}; 1-min load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
