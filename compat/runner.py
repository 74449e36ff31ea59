"""Run worker processes with a time limit per scenario and turn their reports into Results.

A ``Job`` is one client: the scenarios to run and how to start a worker for a
list of scenarios (``python -m compat.worker ...``, ``java ... Compat ...``,
the PySpark driver). Workers speak the line protocol in compat/worker.py.

Time bounds. Each scenario has a limit (its ``Scenario.timeout``, or the job's
``limits`` entry for items that are not scenarios, times the factor given on
the command line), counted from the worker's ``start`` line;
a worker also gets ``STARTUP_S`` to print its first line and between two
scenarios. When a limit passes, the whole worker process group is killed, the
scenario is a FAIL ("timed out after N s"), the topics and groups it announced
are deleted by the janitor, and a fresh worker carries on with the scenarios
that are left. A worker that dies in the middle of a scenario is handled the
same way, with its exit code and the tail of its stderr as the reason.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from compat.matrix import FAIL, SCENARIO_BY_ID, Result

PREFIX = "@@compat "
STARTUP_S = 60.0


@dataclass
class Job:
    client: str
    scenarios: list[str]
    argv: Callable[[list[str]], list[str]]      # worker command for these scenarios
    env: dict[str, str] | None = None
    cwd: str | None = None
    info: dict = field(default_factory=dict)    # filled from the worker's "hello"
    # Limits (s) for items that are not scenarios of the matrix (compat/cross.py's CODEC=TOPIC).
    limits: dict[str, float] = field(default_factory=dict)
    shard: int = 0                              # >0: one of several workers of this client at once

    def split(self, n: int) -> list["Job"]:
        """This job as up to ``n`` jobs that run at once, each a share of the scenarios (dealt
        out in turn, longest limit first); every scenario makes its own topics and groups."""
        order = sorted(self.scenarios, key=lambda s: -(self.limits.get(s) or SCENARIO_BY_ID[s].timeout))
        shares = [order[i::n] for i in range(min(n, len(order)))]
        if len(shares) <= 1:
            return [self]
        return [Job(self.client, share, self.argv, self.env, self.cwd, self.info, self.limits, i + 1)
                for i, share in enumerate(shares)]


class Janitor:
    """Deletes what a killed worker announced, and finds what a run left behind.

    Uses whichever admin client is installed (confluent-kafka, else kafka-python);
    with neither, it only reports.
    """

    def __init__(self, bootstrap: str) -> None:
        self.bootstrap = bootstrap

    def reachable(self) -> bool:
        host, _, port = self.bootstrap.split(",")[0].rpartition(":")
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=3).close()
            return True
        except (OSError, ValueError):
            return False

    def delete(self, topics: list[str], groups: list[str]) -> str | None:
        if not (topics or groups):
            return None
        if not self.reachable():
            return f"broker {self.bootstrap} unreachable; could not delete {', '.join(topics + groups)}"
        try:
            from compat.clients.confluent import ConfluentClient as Admin
        except ImportError:  # pragma: no cover - the test extra installs both
            from compat.clients.kafka_python import KafkaPythonClient as Admin
        admin = Admin(self.bootstrap)
        problems = []
        for g in groups:
            # A killed member stays in its group until its session times out (compat's
            # clients use 10 s), and a group with members cannot be deleted: retry a while.
            deadline = time.monotonic() + 15
            while True:
                try:
                    admin.delete_group(g)
                    break
                except Exception as e:  # noqa: BLE001 - reported
                    if "NON_EMPTY_GROUP" in str(e) and time.monotonic() < deadline:
                        time.sleep(1)
                        continue
                    problems.append(f"group {g}: {e}")
                    break
        if topics:
            try:
                admin.delete_topics(topics)
            except Exception as e:  # noqa: BLE001
                problems.append(f"topics: {e}")
        return "; ".join(problems) or None

    def leftovers(self, prefix: str) -> list[str] | None:
        """Topics and groups whose names start with ``prefix`` (None: could not tell)."""
        if not self.reachable():
            return None
        try:
            from confluent_kafka.admin import AdminClient

            admin = AdminClient({"bootstrap.servers": self.bootstrap})
            topics = sorted(t for t in admin.list_topics(timeout=15).topics if t.startswith(prefix))
            listed = admin.list_consumer_groups(request_timeout=15).result(timeout=20)
            groups = sorted(g.group_id for g in listed.valid if g.group_id.startswith(prefix))
            return [f"topic {t}" for t in topics] + [f"group {g}" for g in groups]
        except Exception:  # noqa: BLE001 - best effort
            return None


def _tail(path: Path, n: int = 600) -> str:
    try:
        text = path.read_text(errors="replace")
    except FileNotFoundError:
        return ""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("%")]
    return " | ".join(lines[-6:])[-n:]


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        pass


def run_job(job: Job, *, timeout_factor: float, janitor: Janitor, log_dir: Path,
            on_result: Callable[[Result], None]) -> list[Result]:
    remaining = list(job.scenarios)
    results: list[Result] = []
    attempt = 0

    def finish(r: Result) -> None:
        results.append(r)
        if r.scenario in remaining:
            remaining.remove(r.scenario)
        on_result(r)

    while remaining:
        attempt += 1
        err_path = log_dir / (f"{job.client}.{attempt}.stderr" if not job.shard
                              else f"{job.client}.w{job.shard}.{attempt}.stderr")
        err = open(err_path, "wb")
        proc = subprocess.Popen(job.argv(list(remaining)), stdout=subprocess.PIPE, stderr=err,
                                stdin=subprocess.DEVNULL, env=job.env, cwd=job.cwd,
                                start_new_session=True)
        err.close()
        events: queue.Queue = queue.Queue()

        def read(stream=proc.stdout) -> None:
            for raw in stream:
                line = raw.decode("utf-8", "replace")
                if line.startswith(PREFIX):
                    try:
                        events.put(json.loads(line[len(PREFIX):]))
                    except ValueError:
                        pass
            events.put(None)

        threading.Thread(target=read, daemon=True).start()
        current: str | None = None
        started = time.monotonic()
        deadline = started + STARTUP_S
        resources: list[tuple[str, str]] = []
        progressed = False
        while True:
            try:
                ev = events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                _kill(proc)
                if current is None:
                    reason = (f"worker printed nothing for {STARTUP_S:.0f}s "
                              f"(stderr: {_tail(err_path)})")
                    for sid in list(remaining):
                        finish(Result(job.client, sid, FAIL, reason))
                    break
                limit = deadline - started
                r = Result(job.client, current, FAIL, f"timed out after {limit:.3g}s",
                           round(time.monotonic() - started, 3))
                problem = janitor.delete([n for k, n in resources if k == "topic"],
                                         [n for k, n in resources if k == "group"])
                if problem:
                    r.notes.append(f"cleanup after kill: {problem}")
                finish(r)
                break
            if ev is None:  # the worker's stdout closed: it exited
                rc = proc.wait()
                if current is not None:
                    r = Result(job.client, current, FAIL,
                               f"worker exited {rc} during the scenario (stderr: {_tail(err_path)})",
                               round(time.monotonic() - started, 3))
                    janitor.delete([n for k, n in resources if k == "topic"],
                                   [n for k, n in resources if k == "group"])
                    finish(r)
                elif remaining and not progressed:
                    for sid in list(remaining):
                        finish(Result(job.client, sid, FAIL,
                                      f"worker exited {rc} before running it (stderr: {_tail(err_path)})"))
                break
            kind = ev.get("event")
            if kind == "hello":
                job.info.update({k: v for k, v in ev.items() if k != "event"})
                deadline = time.monotonic() + STARTUP_S
            elif kind == "start":
                current, resources = ev["scenario"], []
                started = time.monotonic()
                limit = job.limits.get(current) or SCENARIO_BY_ID[current].timeout
                deadline = started + limit * timeout_factor
            elif kind == "resource":
                resources.append((ev["kind"], ev["name"]))
            elif kind == "end":
                progressed = True
                finish(Result(job.client, ev["scenario"], ev["status"], ev.get("reason", ""),
                              float(ev.get("seconds", 0.0)), list(ev.get("notes") or [])))
                current = None
                deadline = time.monotonic() + STARTUP_S
        _kill(proc)
    return results
