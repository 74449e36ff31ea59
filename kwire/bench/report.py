"""The bench report: a Markdown table and a JSON document from the same results.

``results[broker][workload]`` is a list of per-run dicts (None for a failed
run); ``build`` turns it into medians with min–max per figure and, for each
peer, the per-pair ratio kwire/peer (``ratios_by_peer[peer]``; ``ratios`` is
the first peer's). For throughput a ratio above 1 favours kwire; for
latency, CPU, RSS and start-up time a ratio below 1 does.
"""

from __future__ import annotations

from .stats import ratio, summary

FIGURES = {
    "produce": ["msgs_per_s", "mb_per_s", "broker_cpu_s", "broker_rss_mb", "client_cpu_s"],
    "consume": ["msgs_per_s", "mb_per_s", "broker_cpu_s", "broker_rss_mb", "client_cpu_s"],
    "latency": ["p50_ms", "p95_ms", "p99_ms", "max_ms", "broker_cpu_us_per_msg", "broker_cpu_s",
                "broker_rss_mb", "client_cpu_s", "producer_cpu_s", "loop_cpu_s"],
    "roundtrip": ["rt_p50_ms", "rt_p99_ms", "broker_cpu_us_per_rt"],
    "share": ["msgs_per_s", "broker_cpu_us_per_msg", "broker_cpu_s", "broker_rss_mb", "client_cpu_s"],
    "classic": ["msgs_per_s", "broker_cpu_us_per_msg", "broker_cpu_s", "broker_rss_mb", "client_cpu_s"],
    "startup": ["startup_s", "idle_rss_mb"],
}
UNITS = {"msgs_per_s": "msg/s", "mb_per_s": "MB/s", "broker_cpu_s": "broker CPU s",
         "broker_rss_mb": "broker RSS MB",
         "broker_cpu_us_per_msg": "broker CPU µs/msg", "client_cpu_s": "client CPU s", "p50_ms": "p50 ms",
         "p95_ms": "p95 ms", "p99_ms": "p99 ms", "max_ms": "max ms",
         "startup_s": "start-up s", "idle_rss_mb": "idle RSS MB", "rt_p50_ms": "round trip p50 ms",
         "rt_p99_ms": "round trip p99 ms", "broker_cpu_us_per_rt": "broker CPU µs/round trip",
         "producer_cpu_s": "client producer thread CPU s", "loop_cpu_s": "client poll loop CPU s"}


def kind_of(workload: str) -> str:
    return workload.split("_", 1)[0]


def build(meta: dict, brokers: list, results: dict, workloads: list[str]) -> dict:
    names = [b["name"] for b in brokers]
    out = {"meta": meta, "brokers": brokers, "results": {}, "ratios": {}}
    for name in names:
        out["results"][name] = {}
        for w in workloads:
            runs = results[name].get(w, [])
            out["results"][name][w] = {
                f: summary([r.get(f) if r else None for r in runs]) for f in FIGURES[kind_of(w)]}
    out["ratios_by_peer"] = {}
    a = names[0]
    for b in names[1:]:
        out["ratios_by_peer"][b] = {}
        for w in workloads:
            ra, rb = results[a].get(w, []), results[b].get(w, [])
            out["ratios_by_peer"][b][w] = {
                f: ratio([r.get(f) if r else None for r in ra], [r.get(f) if r else None for r in rb])
                for f in FIGURES[kind_of(w)]}
    if len(names) >= 2:
        out["ratios"] = out["ratios_by_peer"][names[1]]
    return out


def _fmt(x) -> str:
    if x is None:
        return "–"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.3g}"


def _cell(s: dict) -> str:
    if s["median"] is None:
        return "n/a"
    return f"{_fmt(s['median'])} ({_fmt(s['min'])}–{_fmt(s['max'])})"


def markdown(doc: dict) -> str:
    names = [b["name"] for b in doc["brokers"]]
    by_peer = doc.get("ratios_by_peer") or ({names[1]: doc["ratios"]} if doc["ratios"] else {})
    head = ["workload", "figure"] + names + [f"{names[0]}/{peer}" for peer in by_peer]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    first = doc["results"][names[0]]
    for w, figs in first.items():
        for f in figs:
            row = [w, UNITS.get(f, f)] + [_cell(doc["results"][n][w][f]) for n in names]
            row += [_cell(r[w][f]) for r in by_peer.values()]
            lines.append("| " + " | ".join(row) + " |")
    notes = [f"- {b['name']}: {b['kind']}, storage {b['storage']}"
             + (f"; {b['notes']}" if b.get("notes") else "") for b in doc["brokers"]]
    m = doc["meta"]
    notes.append(f"- medians of {m['runs']} runs (min–max); brokers alternate "
                 f"{' '.join(names * 2)}…; ratios are per adjacent pair; MB/s = 10^6 bytes "
                 f"of message values; client {m['client']}; {m['cpus']} CPUs, 1-min load "
                 f"average before/after runs {m['loadavg_1min_after_each_run']}"
                 + (f"; niceness {m['niceness']}" if m.get("niceness") else ""))
    for lo in m.get("left_out") or ():
        notes.append(f"- LEFT OUT: {lo['peer']}: {lo['reason']}")
    for v in m.get("record_validation_ms_per_mb") or ():
        notes.append(f"- record validation of a {v['batch']} batch, ms per MB: "
                     f"C walker {_fmt(v.get('validate_c_ms_per_mb'))}, pure Python "
                     f"{_fmt(v.get('validate_python_ms_per_mb'))} (CRC alone "
                     f"{_fmt(v['crc_ms_per_mb'])}; `python -m kwire.bench.validation`)")
    return "\n".join(lines + [""] + notes) + "\n"
