"""Availability figures of one fault, from the times a workload's writes were acknowledged (sans-I/O).

What it does
------------
``fault_figures(acks, started, healed, new_leader_at)`` splits a fault's
unavailability into the parts issue 23 bounds separately, all in seconds:

* ``during_s``: the longest stretch without an acknowledgement inside the
  fault, ``[started, healed]`` (the window's edges count as edges of a
  stretch). A leader that keeps ZooKeeper but loses its followers refuses
  acks=all writes until the heal, as Kafka does: this is the whole fault.
* ``after_heal_s``: from the heal to the first acknowledgement at or after it
  (the bound "every partition takes acks=all writes again within
  ``zookeeper.session.timeout.ms`` + 2 s of the heal"). ``None``: none came.
* ``to_new_leader_s``: for a fault that moved the leadership, from the fault's
  start to the first acknowledgement at or after ``new_leader_at`` (the moment
  a broker outside the fault first named another leader): "writes resume on
  the new leader within the session timeout + 2 s". ``None`` when the
  leadership did not move or no acknowledgement came after it.

``new_leader_probe_s(probe_acks, started)``: (c) measured on the broker side,
from a probe that writes acks=all on a fresh connection to each broker but
the old leader (a topic the old leader led): from the fault's start to the
first probe acknowledged. It leaves out what a workload's client waits for
(its requests in flight to a stopped leader, its metadata refresh), so it
is what the new leader itself offers. ``None``: no probe was acknowledged.

``longest_gap(times, since)``: the longest time without an event after
``since`` (the whole run's worst unavailability, fault and heal together).

What it does not do
-------------------
No I/O, no clocks: the caller records the times (any one monotonic clock)
and decides what counts as an acknowledgement (an acks=all delivery, a
committed transaction). Recovery of the replicas (ISR, log end offsets) is
measured by the caller from Metadata, not from acknowledgements.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable


def longest_gap(event_times: Iterable[float], since: float) -> float:
    """The longest time without an event after ``since`` (``inf`` when there is none)."""
    times = sorted(t for t in event_times if t >= since)
    if not times:
        return float("inf")
    return max([times[0] - since] + [b - a for a, b in zip(times, times[1:])])


def _first_at_or_after(times: list[float], moment: float) -> float | None:
    i = bisect_left(times, moment)
    return times[i] if i < len(times) else None


def new_leader_probe_s(probe_acks: Iterable[float], started: float) -> float | None:
    """(c) from the broker side: the fault's start to the first probe acknowledged after it."""
    first = _first_at_or_after(sorted(probe_acks), started)
    return None if first is None else first - started


def fault_figures(acks: Iterable[float], started: float, healed: float,
                  new_leader_at: float | None = None) -> dict:
    """``during_s``, ``after_heal_s`` and ``to_new_leader_s`` of one fault (module docstring)."""
    if healed < started:
        raise ValueError(f"healed ({healed}) before the fault started ({started})")
    times = sorted(acks)
    inside = [t for t in times if started <= t <= healed]
    edges = [started] + inside + [healed]
    during = max(b - a for a, b in zip(edges, edges[1:]))
    first_after_heal = _first_at_or_after(times, healed)
    to_new_leader = None
    if new_leader_at is not None:
        first_on_new = _first_at_or_after(times, max(new_leader_at, started))
        to_new_leader = None if first_on_new is None else first_on_new - started
    return {"during_s": during,
            "after_heal_s": None if first_after_heal is None else first_after_heal - healed,
            "to_new_leader_s": to_new_leader}
