"""One table of several long nemesis runs, from the reports their tests wrote.

What it does
------------
A long run (``test_mixed_faults_long_run``) writes its seed, schedule and
figures as JSON to ``KWIRE_NEMESIS_REPORT`` and, with ``KWIRE_NEMESIS_FIGURES``,
one JSON line per fault (with the machine's load then). ``rows(runs)`` turns
each run into one row: seed, faults, acknowledged and indeterminate operations
(queue + transactional), every anomaly summed over both workloads, the worst
recovery, the load's range over its faults, and the test's exit code.
``table(rows)`` prints them as Markdown; ``failed(rows)`` says whether any run
had an anomaly, no figures (it stopped before its checks) or a failing exit
code.

``python -m kwire.nemesis.report DIR`` reads ``DIR/run-*.json`` (with
``run-*.figures.jsonl`` and ``run-*.rc`` beside them), prints the table and
exits 1 when ``failed`` (``scripts/nemesis-long-runs.sh`` uses it).

What it does not do
-------------------
Run anything: the runs are pytest's (``scripts/nemesis-long-runs.sh``). It
judges no history: the anomaly counts are the checker's, read back.
"""

from __future__ import annotations

import glob
import json
import os
import sys

from kwire.nemesis.checker import ANOMALIES


def _anomalies(figures: dict) -> dict[str, int]:
    """Every anomaly count of the queue and the transactional workload, summed (names as the checker's)."""
    out: dict[str, int] = {}
    for part in (figures, figures.get("txn", {})):
        for name, n in part.items():
            if isinstance(n, int) and name in ANOMALIES:
                out[name] = out.get(name, 0) + n
    return out


def rows(runs: list[dict]) -> list[dict]:
    """One row per run: ``runs`` items are ``{"name", "report": the JSON report or None, "faults":
    [per-fault JSON lines], "rc": the test's exit code or None}``."""
    out = []
    for run in runs:
        report, lines = run.get("report") or {}, run.get("faults") or []
        figures = report.get("figures")
        loads = [f["load"] for f in lines if "load" in f]
        row = {"run": run["name"], "seed": report.get("seed"), "rc": run.get("rc"),
               "faults": len(figures["faults"]) if figures else len(lines),
               "load": f"{min(loads):.0f}-{max(loads):.0f}" if loads else "-"}
        if figures:
            txn = figures.get("txn", {})
            row.update(acknowledged=figures["acknowledged"] + txn.get("acknowledged", 0),
                       indeterminate=figures["indeterminate"] + txn.get("indeterminate", 0),
                       anomalies=_anomalies(figures),
                       recovery_s=max([f["recovery_s"] for f in figures["faults"]], default=0.0))
        else:  # stopped before its checks: what its fault lines say
            row.update(acknowledged=None, indeterminate=None, anomalies=None,
                       recovery_s=max([f["recovery_s"] for f in lines], default=None))
        out.append(row)
    return out


def failed(table_rows: list[dict]) -> bool:
    return any(r["anomalies"] is None or any(r["anomalies"].values()) or r["rc"] not in (0, None)
               for r in table_rows)


def table(table_rows: list[dict]) -> str:
    names = [a for a in ANOMALIES if any(r["anomalies"] and a in r["anomalies"] for r in table_rows)] or list(ANOMALIES)
    head = ["run", "seed", "faults", "acknowledged", "indeterminate", *names, "worst recovery", "load", "exit"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in table_rows:
        counts = r["anomalies"]
        cells = [r["run"], r["seed"], r["faults"], r["acknowledged"], r["indeterminate"],
                 *[("-" if counts is None else counts.get(a, 0)) for a in names],
                 "-" if r["recovery_s"] is None else f"{r['recovery_s']} s", r["load"], r["rc"]]
        lines.append("| " + " | ".join("-" if c is None else str(c) for c in cells) + " |")
    return "\n".join(lines)


def read_dir(path: str) -> list[dict]:
    """The runs in ``path``: ``run-N.json`` reports, ``run-N.figures.jsonl`` fault lines, ``run-N.rc``."""
    runs = []
    names = sorted({os.path.basename(p).split(".")[0] for p in glob.glob(os.path.join(path, "run-*"))},
                   key=lambda n: (len(n), n))
    for name in names:
        base = os.path.join(path, name)
        report = faults = rc = None
        if os.path.exists(base + ".json"):
            with open(base + ".json") as f:
                report = json.load(f)
        if os.path.exists(base + ".figures.jsonl"):
            with open(base + ".figures.jsonl") as f:
                faults = [json.loads(line) for line in f if line.strip()]
        if os.path.exists(base + ".rc"):
            with open(base + ".rc") as f:
                rc = int(f.read().strip() or -1)
        runs.append({"name": name, "report": report, "faults": faults, "rc": rc})
    return runs


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m kwire.nemesis.report DIR (the run-N.json reports of long runs)", file=sys.stderr)
        return 2
    found = rows(read_dir(argv[0]))
    if not found:
        print(f"no run-*.json report in {argv[0]}", file=sys.stderr)
        return 2
    print(table(found))
    bad = failed(found)
    print(f"\n{len(found)} runs, {'FAILED' if bad else 'all passed with no anomaly'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
