"""Opt-in CPU accounting per test module: where the suite's CPU goes (not its wall time).

Enabled by ``KWIRE_TEST_CPU_REPORT=PATH`` (tests/conftest.py registers this plugin then). Each
pytest process (every xdist worker, or the single process without xdist) measures, around each
test's setup + call + teardown, the CPU of

* ``self``: the process itself (``os.times()`` user + system: in-process brokers, clients, the
  test code), and
* ``children``: its children that were waited for in that span (``os.times()`` children_user +
  children_system: ``kwire serve`` subprocesses, ZooKeeper and Java JVMs, kcat, Spark) plus the
  CPU of still-running descendants (/proc) as they grow, so a child started by a module-scoped
  fixture and reaped later is not lost (it is charged to whichever module's span saw it grow).

and charges it to the test's module. Collection and start-up are charged to ``<collect>``. Each
process writes ``PATH.<worker>.json``; the controller (or the single process) merges them into
``PATH`` (JSON) and ``PATH.txt`` (a table, most CPU first). It does not measure processes that
are not descendants of a pytest process (none should exist) nor a module's wall time.
"""

from __future__ import annotations

import glob
import json
import os

import pytest

_TICK = os.sysconf("SC_CLK_TCK")


def _live_children_cpu() -> dict[tuple[int, int], float]:
    """CPU seconds so far of every live descendant (from /proc), by (pid, start time)."""
    parent: dict[int, int] = {}
    cpu: dict[int, tuple[int, float]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(name)
        # after "pid (comm)": state ppid ... utime(12th) stime(13th) ... starttime(20th)
        parent[pid] = int(fields[1])
        cpu[pid] = (int(fields[19]), (int(fields[11]) + int(fields[12])) / _TICK)
    me = os.getpid()
    out: dict[tuple[int, int], float] = {}
    for pid, (start, secs) in cpu.items():
        p, seen = parent.get(pid), 0
        while p and p != me and seen < 64:
            p, seen = parent.get(p), seen + 1
        if p == me:
            out[(pid, start)] = secs
    return out


class CpuReport:
    def __init__(self, path: str, worker: str) -> None:
        self.path = path
        self.worker = worker
        self.rows: dict[str, dict[str, float]] = {}
        self._t0 = os.times_result((0.0,) * 5)  # os.times() counts from the process's start
        self._live: dict[tuple[int, int], float] = {}
        self._started = False
        self._last = None

    def _snapshot(self):
        return os.times(), _live_children_cpu()

    def _charge(self, key: str, before, after) -> None:
        (t0, live0), (t1, live1) = before, after
        own = (t1.user - t0.user) + (t1.system - t0.system)
        reaped = (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)
        # a live child's growth is charged now; when it is reaped, os.times() counts its
        # whole life, so subtract what was already charged while it ran
        grown = 0.0
        for pid, cpu in live1.items():
            grown += cpu - live0.get(pid, 0.0)
        gone = sum(cpu for pid, cpu in live0.items() if pid not in live1)
        children = max(0.0, reaped - gone) + grown
        row = self.rows.setdefault(key, {"self": 0.0, "children": 0.0, "tests": 0})
        row["self"] += own
        row["children"] += children
        return row

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        if not self._started:
            self._started = True
            self._charge("<collect>", (self._t0, self._live), self._snapshot())
        before = self._snapshot()
        yield
        self._last = self._snapshot()
        row = self._charge(item.nodeid.split("::", 1)[0], before, self._last)
        row["tests"] += 1
        if nextitem is None or nextitem.nodeid.split("::", 1)[0] != item.nodeid.split("::", 1)[0]:
            self._write()  # after each module: a run stopped early still leaves its figures

    def _write(self) -> None:
        with open(f"{self.path}.{self.worker}.json.new", "w") as f:
            json.dump(self.rows, f)
        os.replace(f"{self.path}.{self.worker}.json.new", f"{self.path}.{self.worker}.json")

    def pytest_sessionfinish(self, session):
        if self._last is not None:  # session-scoped fixtures' teardown happens after the last test
            self._charge("<session>", self._last, self._snapshot())
        self._write()
        if self.worker == "main":
            merge(self.path)


def merge(path: str) -> None:
    rows: dict[str, dict[str, float]] = {}
    for name in glob.glob(f"{glob.escape(path)}.*.json"):
        with open(name) as f:
            for key, r in json.load(f).items():
                acc = rows.setdefault(key, {"self": 0.0, "children": 0.0, "tests": 0})
                for k in acc:
                    acc[k] += r[k]
    with open(path, "w") as f:
        json.dump(rows, f, indent=1, sort_keys=True)
    order = sorted(rows.items(), key=lambda kv: -(kv[1]["self"] + kv[1]["children"]))
    total = sum(r["self"] + r["children"] for r in rows.values())
    lines = [f"{'CPU-s':>8} {'self':>8} {'children':>8} {'tests':>6}  module",
             f"{total:8.1f} {sum(r['self'] for r in rows.values()):8.1f} "
             f"{sum(r['children'] for r in rows.values()):8.1f} "
             f"{sum(r['tests'] for r in rows.values()):6d}  TOTAL"]
    for key, r in order:
        lines.append(f"{r['self'] + r['children']:8.1f} {r['self']:8.1f} {r['children']:8.1f} "
                     f"{r['tests']:6d}  {key}")
    with open(path + ".txt", "w") as f:
        f.write("\n".join(lines) + "\n")


def register(config) -> None:
    path = os.environ.get("KWIRE_TEST_CPU_REPORT")
    if not path:
        return
    path = os.path.abspath(path)
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    if worker == "main":
        for old in glob.glob(f"{glob.escape(path)}.*.json"):
            os.unlink(old)
    config.pluginmanager.register(CpuReport(path, worker), "kwire-cpu-report")
