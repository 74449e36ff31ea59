"""tests/bytecode_cache.py: which test modules still need pytest's rewritten bytecode, and where
the cache is."""

from __future__ import annotations

import os
import sys

import pytest
from _pytest.assertion.rewrite import PYC_TAIL, get_cache_dir

import bytecode_cache


@pytest.fixture
def prefix(tmp_path, monkeypatch):
    p = tmp_path / "pyc"
    monkeypatch.setattr(sys, "pycache_prefix", str(p))
    return p


def test_a_module_without_rewritten_bytecode_is_stale_until_it_has_some(tmp_path, prefix):
    tests = tmp_path / "tests"
    (tests / "unit").mkdir(parents=True)
    mod = tests / "unit" / "test_x.py"
    mod.write_text("def test_x():\n    assert True\n")
    (tests / "helper.py").write_text("X = 1\n")  # not rewritten by pytest: never asked for
    conftest = tests / "conftest.py"
    conftest.write_text("")
    assert sorted(bytecode_cache._rewritten([str(tests)])) == sorted([mod.resolve(), conftest.resolve()])

    for f in (mod, conftest):
        pyc = get_cache_dir(f.resolve()) / (f.name[:-3] + PYC_TAIL)
        pyc.parent.mkdir(parents=True, exist_ok=True)
        pyc.write_bytes(b"")
    assert bytecode_cache._rewritten([str(tests)]) == []

    os.utime(mod, (mod.stat().st_atime, mod.stat().st_mtime + 10))  # edited after compiling
    assert bytecode_cache._rewritten([str(mod)]) == [mod.resolve()]


def test_prefix_is_the_environments_or_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path / "given"))
    assert bytecode_cache.prefix() == str(tmp_path / "given")
    monkeypatch.delenv("PYTHONPYCACHEPREFIX")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert bytecode_cache.prefix() == os.path.join(str(tmp_path / "xdg"), "kwire", "pycache")
