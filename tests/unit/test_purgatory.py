"""kwire.delayed: every delayed operation registers with its kind; ``sizes()`` counts them.

An operation watching several keys counts once; completed, expired and
cancelled ones stop counting; an unknown kind is refused at registration
(the metric's label set is fixed).
"""

from __future__ import annotations

import asyncio

import pytest

from kwire.delayed import FETCH, KINDS, PRODUCE, REBALANCE, Purgatory


def test_sizes_by_kind():
    async def main() -> None:
        p = Purgatory()
        assert p.sizes() == {FETCH: 0, PRODUCE: 0, REBALANCE: 0}
        fetch = p.watch([("t", 0), ("t", 1)], lambda k, n: n > 0, 30, FETCH)  # two keys, one operation
        produce = p.watch([("t", 0)], lambda k, n: n == 7, 30, PRODUCE)
        rebalance = p.watch([("group", 1)], lambda k, n: True, 30, REBALANCE)
        expiring = p.watch([("t", 2)], lambda k, n: False, 0.01, FETCH)
        assert p.sizes() == {FETCH: 2, PRODUCE: 1, REBALANCE: 1}
        assert await expiring is False
        assert p.sizes() == {FETCH: 1, PRODUCE: 1, REBALANCE: 1}
        p.notify(("t", 1), 3)  # wakes the fetch, not the produce (its check wants 7)
        assert await fetch is True
        assert p.sizes() == {FETCH: 0, PRODUCE: 1, REBALANCE: 1}
        rebalance.cancel()  # the connection went away
        await asyncio.sleep(0)
        assert p.sizes() == {FETCH: 0, PRODUCE: 1, REBALANCE: 0}
        p.notify(("t", 0), 7)
        assert await produce is True and p.sizes() == dict.fromkeys(KINDS, 0)
        with pytest.raises(ValueError, match="unknown delayed operation kind"):
            p.watch([("t", 0)], lambda k, n: True, 1, "Heartbeat")

    asyncio.run(main())
