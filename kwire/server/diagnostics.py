"""``kill -USR2 <pid>``: log what the broker is doing, for diagnosing a stall (Kafka's jstack).

Logged at WARNING on ``kwire.diagnostics``: every asyncio task with the frame
it is suspended in, the purgatory's waiting operations by kind (a parked
long-poll Fetch is not a task), and, in a cluster, each replica fetcher (leader, connected
or not, every partition's state, fetch offset and backoff) and each led
partition's leader state (epoch, ISR, HW, every follower's LEO and last
caught-up time), and the followers that have not yet fetched a partition
newly led here (``kwire.replication.joining``). Reads memory only; changes nothing.

Not here: thread stacks (``py-spy dump --pid`` shows those), metrics.
"""

from __future__ import annotations

import asyncio
import io
import logging

from kwire.clock import now_ms

log = logging.getLogger("kwire.diagnostics")


def dump(broker) -> str:
    out = io.StringIO()
    tasks = sorted(asyncio.all_tasks(), key=lambda t: t.get_name())
    out.write(f"{len(tasks)} asyncio tasks\n")
    for t in tasks:
        frames = t.get_stack(limit=3)
        where = " <- ".join(f"{f.f_code.co_name} ({f.f_code.co_filename.rsplit('/', 2)[-1]}:{f.f_lineno})"
                            for f in reversed(frames)) or "(not started or done)"
        out.write(f"  {t.get_name()}: {where}\n")
    purgatory = getattr(broker, "purgatory", None)
    if purgatory is not None:  # parked long-poll Fetches are no tasks (kwire.delayed.Later)
        out.write(f"purgatory, waiting by kind: {purgatory.sizes()}\n")
    replicas = getattr(broker, "replicas", None)
    if replicas is not None:
        now = now_ms()
        mgr = replicas.fetchers
        if mgr is not None:
            for leader_id, f in sorted(mgr._fetchers.items()):
                task = f.task
                state = "no task" if task is None else ("done" if task.done() else "running")
                out.write(f"fetcher for leader {leader_id}: task {state}, "
                          f"{'connected' if f._conn is not None else 'not connected'}\n")
                for key, e in sorted(f.partitions.items()):
                    pf = e.fetcher
                    out.write(f"  {key[0]}-{key[1]}: {pf.state.value} epoch {pf.leader_epoch} "
                              f"fetch offset {pf.fetch_offset} LEO {pf.log.log_end_offset} "
                              f"HW {pf.log.high_watermark} delay {pf.delay_until_ms - now} ms"
                              f"{' failure: ' + pf.failure if pf.failure else ''}\n")
        for key, st in sorted(replicas.leaders.items()):
            followers = ", ".join(f"{r.replica_id}: LEO {r.log_end_offset} caught up "
                                  f"{now - r.last_caught_up_time_ms} ms ago"
                                  for r in st.followers.values())
            out.write(f"leading {key[0]}-{key[1]}: epoch {st.leader_epoch} ISR {list(st.isr)} "
                      f"pending {st.pending} LEO {st.leader_log_end_offset} HW {st.high_watermark}"
                      f"{' stale' if key in replicas._stale else ''}; {followers}\n")
        joining = "; ".join(f"follower {r}: " + ", ".join(f"{t}-{p}" for t, p in sorted(keys))
                            for r, keys in sorted(replicas.joining.pending.items()))
        out.write(f"joining (led here, not fetched yet): {joining or 'none'}\n")
        for key, (leader, epoch) in sorted(replicas.following.items()):
            out.write(f"following {key[0]}-{key[1]}: leader {leader} epoch {epoch}\n")
    return out.getvalue()


def log_dump(broker) -> None:
    try:
        log.warning("diagnostics (SIGUSR2):\n%s", dump(broker))
    except Exception:
        log.exception("diagnostics (SIGUSR2) failed")
