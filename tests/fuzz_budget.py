"""The example budgets of the heaviest hypothesis fuzz tests: full in the whole suite, a tenth in
the quick tier.

``examples(n)`` is ``n`` unless ``KWIRE_TEST_QUICK=1`` (set by ``scripts/test.sh --quick``), then
``max(20, n // 10)``: the contributors' tier still runs every fuzz test, with fewer random
cases, while CI's full run (``scripts/test.sh``) keeps every budget as written. It changes
nothing else (no test is skipped, no assertion changes).
"""

from __future__ import annotations

import os


def examples(n: int) -> int:
    if os.environ.get("KWIRE_TEST_QUICK") == "1":
        return max(20, n // 10)
    return n
