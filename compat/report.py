"""Render a finished run: the terminal table, ``compat.md`` and ``compat.json``.

The table has one row per scenario and one column per client; a cell is
PASS, FAIL, SKIP or ``-`` (N/A). Reasons are too long for cells, so every
FAIL and SKIP is listed under the table with its reason, and N/A reasons once
per distinct reason. The JSON file holds everything the Markdown does, per
result, plus the run's metadata; tests read it, people read the Markdown.

The cross-client matrix (compat/cross.py), when it ran, follows: in the
Markdown one table per codec (rows: the producing client, columns: the
consuming one); in the terminal one table whose cell is PASS when every codec
passed and otherwise names the codecs that did not; its FAILs and SKIPs are
listed with their reasons in both. compat.json has it as ``cross``, one entry
per (producer, consumer, codec).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from compat.cross import CrossResult
from compat.matrix import FAIL, NA, PASS, SCENARIOS, SKIP, STATUSES, Result

SCHEMA_VERSION = 1
_CELL = {PASS: "PASS", FAIL: "FAIL", SKIP: "SKIP", NA: "-"}


@dataclass
class Run:
    run_id: str
    target: dict                    # bootstrap, started_by_compat, broker_log, broker_errors, ...
    clients: list[str]
    scenarios: list[str]
    results: list[Result]
    started_at: str
    seconds: float
    client_info: dict = field(default_factory=dict)
    leftovers: list[str] | None = None
    cross: list[CrossResult] = field(default_factory=list)
    cross_clients: list[str] = field(default_factory=list)
    cross_codecs: list[str] = field(default_factory=list)
    cross_seconds: float = 0.0

    def cell(self, client: str, scenario: str) -> Result | None:
        for r in self.results:
            if r.client == client and r.scenario == scenario:
                return r
        return None

    def counts(self) -> dict[str, int]:
        c = Counter(r.status for r in self.results)
        return {s: c.get(s, 0) for s in STATUSES}

    def cross_counts(self) -> dict[str, int]:
        c = Counter(r.status for r in self.cross)
        return {s: c.get(s, 0) for s in (PASS, FAIL, SKIP)}

    def cross_cell(self, producer: str, consumer: str, codec: str) -> CrossResult | None:
        for r in self.cross:
            if (r.producer, r.consumer, r.codec) == (producer, consumer, codec):
                return r
        return None

    def failed(self) -> bool:
        return (any(r.status == FAIL for r in self.results) or any(r.status == FAIL for r in self.cross)
                or bool(self.leftovers))


def _grid(run: Run) -> list[list[str]]:
    rows = [["scenario", *run.clients]]
    for sid in run.scenarios:
        row = [sid]
        for c in run.clients:
            r = run.cell(c, sid)
            row.append("?" if r is None else _CELL[r.status])
        rows.append(row)
    return rows


def _problems(run: Run) -> list[Result]:
    order = {s: i for i, s in enumerate(run.scenarios)}
    corder = {c: i for i, c in enumerate(run.clients)}
    return sorted((r for r in run.results if r.status in (FAIL, SKIP)),
                  key=lambda r: (r.status != FAIL, corder.get(r.client, 99), order.get(r.scenario, 99)))


def _na_reasons(run: Run) -> list[tuple[str, list[str]]]:
    by: dict[str, list[str]] = {}
    for r in run.results:
        if r.status == NA and " is specific to " not in r.reason:
            by.setdefault(r.reason, []).append(f"{r.client} {r.scenario}")
    return sorted(by.items())


def _summary(run: Run) -> str:
    c = run.counts()
    s = ", ".join(f"{c[k]} {k}" for k in STATUSES)
    if run.cross:
        x = run.cross_counts()
        s += "; cross-client " + ", ".join(f"{x[k]} {k}" for k in x) + f" ({run.cross_seconds:.0f}s)"
    return f"{s} in {run.seconds:.0f}s"


# -- the cross-client matrix --------------------------------------------------------------

def _cross_problems(run: Run) -> list[CrossResult]:
    co = {c: i for i, c in enumerate(run.cross_clients)}
    do = {c: i for i, c in enumerate(run.cross_codecs)}
    return sorted((r for r in run.cross if r.status != PASS),
                  key=lambda r: (r.status != FAIL, co.get(r.producer, 99), co.get(r.consumer, 99),
                                 do.get(r.codec, 99)))


def _cross_summary_cell(run: Run, producer: str, consumer: str) -> str:
    """PASS when every codec passed, else e.g. "FAIL gzip,lz4" (and "SKIP ..." after it)."""
    by: dict[str, list[str]] = {}
    for codec in run.cross_codecs:
        r = run.cross_cell(producer, consumer, codec)
        by.setdefault("?" if r is None else r.status, []).append(codec)
    if set(by) == {PASS}:
        return PASS
    return " ".join(f"{st} {','.join(cs)}" for st, cs in sorted(by.items()) if st != PASS)


def _cross_terminal(run: Run) -> list[str]:
    cs = run.cross_clients
    grid = [["producer \\ consumer", *cs]]
    grid += [[p, *(_cross_summary_cell(run, p, q) for q in cs)] for p in cs]
    lines = ["", f"Cross-client matrix ({', '.join(run.cross_codecs)}): each row's records, "
                 "read by each column's client", ""]
    lines += _aligned(grid)
    problems = _cross_problems(run)
    if problems:
        lines += ["", "Cross-client failures and skips:"]
        lines += [f"  {r.status} {r.producer} > {r.consumer} ({r.codec}): {r.reason}" for r in problems]
    return lines


def _cross_markdown(run: Run) -> list[str]:
    cs = run.cross_clients
    out = ["", "## Cross-client matrix", "",
           "Each client produced the same 200 records (text keys and values with non-ASCII "
           "characters, null and empty keys and values, repeated and empty headers, explicit "
           "and producer-clock timestamps; see `compat/cross.py`) to a topic of its own per codec "
           "with acks=all; every client then read every topic from the earliest offsets. Rows: "
           "the producing client; columns: the consuming one.", ""]
    for codec in run.cross_codecs:
        out += [f"### `{codec}`", "", "| producer \\ consumer | " + " | ".join(cs) + " |",
                "| --- | " + " | ".join("---" for _ in cs) + " |"]
        for p in cs:
            cells = []
            for q in cs:
                r = run.cross_cell(p, q, codec)
                st = "?" if r is None else r.status
                cells.append(f"**{st}**" if st == FAIL else st)
            out.append(f"| {p} | " + " | ".join(cells) + " |")
        out.append("")
    problems = _cross_problems(run)
    if problems:
        out += ["### Cross-client failures and skips", "",
                "| status | producer | consumer | codec | reason |", "| --- | --- | --- | --- | --- |"]
        for r in problems:
            reason = r.reason.replace("|", "\\|")
            out.append(f"| {r.status} | {r.producer} | {r.consumer} | `{r.codec}` | {reason} |")
        out.append("")
    return out[:-1] if out[-1] == "" else out


def _aligned(grid: list[list[str]]) -> list[str]:
    """A plain-text table: columns padded to their widest cell, a rule under the first row."""
    widths = [max(len(row[i]) for row in grid) for i in range(len(grid[0]))]
    lines = []
    for i, row in enumerate(grid):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def terminal(run: Run) -> str:
    started = ""
    if run.target.get("cluster"):
        started = f" (ZooKeeper and {run.target['cluster']} kwire brokers started by compat)"
    elif run.target.get("started_by_compat"):
        started = " (kwire started by compat)"
    lines = [f"kwire compat run {run.run_id} against {run.target['bootstrap']}" + started, ""]
    if run.scenarios:
        lines += _aligned(_grid(run))
    problems = _problems(run)
    if problems:
        lines += ["", "Failures and skips:"]
        lines += [f"  {r.status} {r.client} / {r.scenario} ({r.seconds:.1f}s): {r.reason}" for r in problems]
    notes = [r for r in run.results if r.notes]
    if notes:
        lines += ["", "Notes:"] + [f"  {r.client} / {r.scenario}: {'; '.join(r.notes)}" for r in notes]
    if run.cross:
        lines += _cross_terminal(run)
    if run.leftovers:
        lines += ["", f"Left behind on the broker: {', '.join(run.leftovers)}"]
    if run.target.get("broker_errors"):
        lines += ["", f"The broker logged {run.target['broker_errors']} ERROR lines "
                      f"(see {run.target.get('broker_log')})."]
    lines += ["", _summary(run)]
    return "\n".join(lines)


def markdown(run: Run) -> str:
    grid = _grid(run)
    out = ["# kwire compatibility matrix", "",
           f"Run `{run.run_id}` started {run.started_at} against `{run.target['bootstrap']}`"
           + (f" (ZooKeeper and {run.target['cluster']} kwire brokers started by `python -m compat "
              f"--cluster {run.target['cluster']}`; topics with replication factor "
              f"{run.target.get('replication_factor')})." if run.target.get("cluster")
              else " (a kwire broker started by `python -m compat`)." if run.target.get("started_by_compat")
              else "."),
           "", f"**{_summary(run)}.** `-` means the client has no such feature or the scenario "
           "belongs to another client.", ""]
    for i, row in enumerate(grid if run.scenarios else []):
        if i == 0:
            out.append("| " + " | ".join(row) + " |")
            out.append("| " + " | ".join("---" for _ in row) + " |")
        else:
            cells = [f"**{c}**" if c == "FAIL" else c for c in row[1:]]
            out.append("| " + " | ".join([f"`{row[0]}`", *cells]) + " |")
    problems = _problems(run)
    if problems:
        out += ["", "## Failures and skips", "", "| status | client | scenario | seconds | reason |",
                "| --- | --- | --- | ---: | --- |"]
        for r in problems:
            reason = r.reason.replace("|", "\\|")
            out.append(f"| {r.status} | {r.client} | `{r.scenario}` | {r.seconds:.1f} | {reason} |")
    na = _na_reasons(run)
    if na:
        out += ["", "## Not applicable", ""]
        out += [f"* {reason}: {', '.join(cells)}" for reason, cells in na]
    notes = [r for r in run.results if r.notes]
    if notes:
        out += ["", "## Notes", ""] + [f"* {r.client} / `{r.scenario}`: {'; '.join(r.notes)}" for r in notes]
    if run.cross:
        out += _cross_markdown(run)
    out += ["", "## Clients", "", "| client | version | seconds |", "| --- | --- | ---: |"]
    for c in run.clients:
        secs = sum(r.seconds for r in run.results if r.client == c)
        out.append(f"| {c} | {run.client_info.get(c, {}).get('version', '')} | {secs:.1f} |")
    out += ["", "## Scenarios", ""]
    out += [f"* `{s.id}`: {s.title}" for s in SCENARIOS if s.id in run.scenarios]
    if run.leftovers:
        out += ["", f"**Left behind on the broker:** {', '.join(run.leftovers)}"]
    if run.target.get("broker_errors"):
        out += ["", f"The broker logged {run.target['broker_errors']} ERROR lines "
                    f"(`{run.target.get('broker_log')}`)."]
    return "\n".join(out) + "\n"


def to_json(run: Run) -> dict:
    return {
        "schema": SCHEMA_VERSION,
        "run_id": run.run_id,
        "started_at": run.started_at,
        "seconds": round(run.seconds, 3),
        "target": run.target,
        "clients": {c: run.client_info.get(c, {}) for c in run.clients},
        "scenarios": [{"id": s.id, "title": s.title, "clients": list(s.clients)}
                      for s in SCENARIOS if s.id in run.scenarios],
        "results": [r.to_json() for r in run.results],
        "summary": run.counts(),
        "cross_clients": run.cross_clients,
        "cross_codecs": run.cross_codecs,
        "cross_seconds": round(run.cross_seconds, 3),
        "cross": [r.to_json() for r in run.cross],
        "cross_summary": run.cross_counts(),
        "leftovers": run.leftovers,
        "failed": run.failed(),
    }


def write(run: Run, out_dir: Path) -> tuple[Path, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    md, js = out_dir / "compat.md", out_dir / "compat.json"
    md.write_text(markdown(run), encoding="utf-8")
    js.write_text(json.dumps(to_json(run), indent=2) + "\n", encoding="utf-8")
    return md, js
