"""tests/heavy_starts.py: at most N heavy starts of one xdist run at a time, none for other runs."""

from __future__ import annotations

import os
import sys
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import heavy_starts  # noqa: E402


def _overlap(monkeypatch, runs: list[str], slots: str) -> int:
    """Start one holder per entry of ``runs`` (its xdist run id) at once; the most inside at once."""
    monkeypatch.setenv("KWIRE_TEST_HEAVY_STARTS", slots)
    inside = 0
    most = 0
    lock = threading.Lock()
    go = threading.Barrier(len(runs))

    def hold(run: str) -> None:
        nonlocal inside, most
        go.wait()
        with heavy_starts.heavy_start(run):
            with lock:
                inside += 1
                most = max(most, inside)
            time.sleep(0.3)
            with lock:
                inside -= 1

    threads = [threading.Thread(target=hold, args=(r,)) for r in runs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return most


def test_at_most_n_starts_of_one_run_at_once(monkeypatch):
    run = uuid.uuid4().hex
    assert _overlap(monkeypatch, [run] * 5, "2") == 2


def test_runs_do_not_wait_on_each_other_and_zero_turns_it_off(monkeypatch):
    assert _overlap(monkeypatch, [uuid.uuid4().hex for _ in range(3)], "1") == 3
    assert _overlap(monkeypatch, [uuid.uuid4().hex] * 3, "0") == 3


def test_without_xdist_nothing_waits(monkeypatch):
    assert _overlap(monkeypatch, [""] * 3, "1") == 3


def test_a_start_that_waited_too_long_goes_ahead(monkeypatch):
    monkeypatch.setenv("KWIRE_TEST_HEAVY_STARTS", "1")
    monkeypatch.setattr(heavy_starts, "MAX_WAIT_S", 0.5)
    run = uuid.uuid4().hex
    with heavy_starts.heavy_start(run):
        t = time.monotonic()
        with heavy_starts.heavy_start(run):  # the only slot is held: waits MAX_WAIT_S, then goes
            waited = time.monotonic() - t
    assert 0.5 <= waited < 5
