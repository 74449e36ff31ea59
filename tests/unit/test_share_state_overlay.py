"""kwire.share.state.overlay (ShareUpdate replay and WriteShareGroupState merging, in ranges)
against the per-offset definition: random windows and updates give the same state batches."""

from __future__ import annotations

import random

import pytest

from kwire.share.state import _Entry, overlay


def per_offset(base, updates, start):
    """The definition: every offset's (state, count), later updates winning, merged."""
    offsets = {}
    for first, last, state, count in list(base) + list(updates):
        for o in range(first, last + 1):
            offsets[o] = (state, count)
    out = []
    for o in sorted(x for x in offsets if x >= start):
        st = offsets[o]
        if out and out[-1][1] == o - 1 and out[-1][2:] == st:
            out[-1] = (out[-1][0], o, *st)
        else:
            out.append((o, o, *st))
    return out


def window(rng, lo, hi):
    out, o = [], lo
    while o < hi:
        n = rng.randint(1, 8)
        out.append((o, min(hi, o + n) - 1, rng.choice((0, 2, 4)), rng.randint(0, 3)))
        o += n + rng.choice((0, 0, 0, 2))  # gaps sometimes
    return out


@pytest.mark.parametrize("seed", range(200))
def test_overlay_matches_the_per_offset_definition(seed):
    rng = random.Random(seed)
    base = window(rng, 0, rng.randint(0, 60))
    updates = [(a, a + rng.randint(-1, 12), rng.choice((0, 2, 4)), rng.randint(0, 4))
               for a in (rng.randint(0, 70) for _ in range(rng.randint(0, 6)))]
    start = rng.randint(0, 30)
    assert overlay(base, updates, start) == per_offset(base, updates, start)


def test_entry_update_of_a_large_window_is_cheap():
    """One 7,000-record batch ACCEPTed inside a window of 10 million offsets: a handful of
    ranges, computed without touching every offset."""
    e = _Entry(0, [(0, 9_999_999, 0, 1)])
    e.apply_update(0, [(0, 6999, 2, 1)])
    assert e.state() == (0, [(0, 6999, 2, 1), (7000, 9_999_999, 0, 1)])
    e.apply_update(7000, [])
    assert e.state() == (7000, [(7000, 9_999_999, 0, 1)])
