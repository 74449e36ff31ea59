#!/usr/bin/env python3
"""Event-loop lag and GC pauses of a real ``kwire serve``, for finding what makes requests wait.

Two modes:

    PYTHONPATH=<tree> python scripts/measure-loop-lag.py serve --override ...   # a broker, probed
    python scripts/measure-loop-lag.py summary lag.json.*                       # what it recorded

``serve`` runs ``kwire serve`` (the tree on PYTHONPATH, so any revision with a
``KafkaServer.start``) with, on its event loop, a probe timer every 1 ms that
records per tick its lateness, the loop thread's CPU time since the last tick
(``time.thread_time``) and its run-queue wait (``/proc/thread-self/schedstat``);
and ``gc.callbacks`` timing every collection. ``kill -USR1 <pid>`` writes what
was recorded since the last dump to ``$LAG_OUT.<unix time>`` (default
``/tmp/kwire-lag.json``) and starts afresh, so each run of a load generator
gets its own file. A late tick splits into loop CPU (callbacks running:
request work, a collection), run-queue wait (the machine is busy: the loop was
ready but not scheduled) and the rest (blocked in a system call, or waiting for
the GIL). The loop CPU part is the broker's own and moves little with the
machine's load, which is what makes revisions comparable on a shared machine.

``summary`` prints, per file, the lag and loop-CPU percentiles after the first
``--skip`` seconds (default 3: topic creation, group join), ticks with more than 3 ms of
loop CPU, GC pauses per generation, and the broker's threads.

A measuring tool, not a test and not for production: the probe costs about
1 % of a core (a timer and two clock reads per millisecond).
"""

from __future__ import annotations

import json
import os
import sys
import time


def serve(argv: list[str]) -> int:
    import asyncio
    import gc
    import signal
    import threading

    pc = time.perf_counter
    lag: list[tuple] = []  # (time, lateness s, loop CPU s, run-queue wait s) per tick
    pauses: list[tuple] = []  # (time, generation, seconds, collected)
    started = [0.0]

    def on_gc(phase, info):
        if phase == "start":
            started[0] = pc()
        else:
            t = pc()
            pauses.append((t, info["generation"], t - started[0], info.get("collected", 0)))

    gc.callbacks.append(on_gc)

    def dump(*_):
        out = f"{os.environ.get('LAG_OUT', '/tmp/kwire-lag.json')}.{int(time.time())}"
        with open(out, "w") as f:
            json.dump({"lag": lag, "gc": pauses, "threads": [t.name for t in threading.enumerate()]}, f)
        del lag[:], pauses[:]
        print(f"measure-loop-lag: wrote {out}", file=sys.stderr, flush=True)

    import kwire.server.app as app

    start = app.KafkaServer.start

    async def probed_start(self):
        await start(self)
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGUSR1, dump)
        fd = os.open("/proc/thread-self/schedstat", os.O_RDONLY)

        def run_delay() -> float:
            return int(os.pread(fd, 100, 0).split()[1]) / 1e9

        state = [pc() + 0.001, time.thread_time(), run_delay()]

        def tick():
            now, cpu, rq = pc(), time.thread_time(), run_delay()
            lag.append((now, now - state[0], cpu - state[1], rq - state[2]))
            state[:] = [pc() + 0.001, time.thread_time(), run_delay()]
            loop.call_later(0.001, tick)

        loop.call_later(0.001, tick)

    app.KafkaServer.start = probed_start
    from kwire.cli import main

    return main(["serve", *argv])


def summary(paths: list[str], skip_s: float) -> None:
    for path in paths:
        with open(path) as f:
            d = json.load(f)
        ticks = d["lag"]
        if not ticks:
            print(f"{path}: no ticks")
            continue
        t0 = ticks[0][0]
        ticks = [x for x in ticks if x[0] - t0 >= skip_s]
        collections = [x for x in d["gc"] if x[0] - t0 >= skip_s]
        n = len(ticks)
        if not n:
            print(f"{path}: no ticks after {skip_s} s")
            continue
        late = sorted(x[1] for x in ticks)
        cpu = sorted(x[2] for x in ticks)

        def q(v, p):
            return v[min(n - 1, int(p * n))] * 1000

        busy = [x for x in ticks if x[2] > 0.003]
        print(f"{path}: {n} ticks over {ticks[-1][0] - ticks[0][0]:.1f} s")
        print(f"  lateness ms: p50 {q(late, .5):.2f}  p99 {q(late, .99):.2f}  p99.9 {q(late, .999):.2f}  "
              f"max {late[-1] * 1000:.1f}")
        print(f"  loop CPU between ticks ms: p99 {q(cpu, .99):.2f}  p99.9 {q(cpu, .999):.2f}  "
              f"max {cpu[-1] * 1000:.1f}; ticks with > 3 ms: {len(busy)}")
        slow = [x for x in ticks if x[1] > 0.003]
        if slow:
            total = sum(x[1] + 0.001 for x in slow)
            c, rq = sum(x[2] for x in slow), sum(x[3] for x in slow)
            print(f"  ticks > 3 ms late: {len(slow)}, {total * 1000:.0f} ms = loop CPU {c * 1000:.0f} + "
                  f"run-queue wait {rq * 1000:.0f} + blocked {max(total - c - rq, 0) * 1000:.0f}")
        for g in (0, 1, 2):
            p = sorted(x[2] for x in collections if x[1] == g)
            if p:
                print(f"  gc generation {g}: {len(p)} collections, {sum(p) * 1000:.1f} ms in all, "
                      f"median {p[len(p) // 2] * 1000:.2f} ms, max {p[-1] * 1000:.1f} ms")
        print(f"  threads: {', '.join(d['threads'])}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        sys.exit(serve(sys.argv[2:]))
    if len(sys.argv) > 2 and sys.argv[1] == "summary":
        args = sys.argv[2:]
        skip = 3.0
        if args[:1] == ["--skip"]:
            skip, args = float(args[1]), args[2:]
        summary(args, skip)
        sys.exit(0)
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    sys.exit(2)
