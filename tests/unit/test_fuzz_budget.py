"""tests/fuzz_budget.py: full example budgets unless the quick tier asks for a tenth."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from fuzz_budget import examples  # noqa: E402


def test_full_budget_unless_quick(monkeypatch):
    monkeypatch.delenv("KWIRE_TEST_QUICK", raising=False)
    assert examples(1500) == 1500 and examples(200) == 200
    monkeypatch.setenv("KWIRE_TEST_QUICK", "0")
    assert examples(1500) == 1500
    monkeypatch.setenv("KWIRE_TEST_QUICK", "1")
    assert examples(1500) == 150 and examples(200) == 20 and examples(100) == 20
