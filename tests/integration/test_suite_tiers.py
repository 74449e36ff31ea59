"""scripts/test.sh as a contributor runs it: the quick tier's selection and argument pass-through.

Each case runs the script with ``--collect-only`` (nothing is executed, no broker starts)
and KWIRE_TEST_SKIP_SETUP=1 (the idempotent install step is not what is under test), then
reads the collected node ids. Checked:

* ``--quick`` selects every unit test and exactly the smoke tests named in tests/conftest.py
  (one per client), and no other integration test; a renamed smoke test fails here;
* extra pytest arguments reach pytest in both modes (``-k`` narrows, paths replace the
  default ``tests``, ``-m`` is folded into the quick tier's own marker selection);
* a selection that matches nothing exits 5, like pytest.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from conftest import SMOKE  # noqa: E402

pytestmark = pytest.mark.timeout(600)  # collecting the whole suite: ~15 s alone, minutes under load


def run_test_sh(*args: str) -> tuple[int, list[str], str]:
    """Run scripts/test.sh ARGS --collect-only -q; (exit status, collected node ids, output)."""
    env = {**os.environ, "KWIRE_TEST_SKIP_SETUP": "1", "KWIRE_TEST_WORKERS": "0",
           "PYTHONPATH": str(ROOT)}
    p = subprocess.run(["bash", str(ROOT / "scripts" / "test.sh"), *args, "--collect-only", "-q"],
                       cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=500)
    ids = [ln for ln in p.stdout.splitlines() if ln.startswith("tests/") and "::" in ln]
    return p.returncode, ids, p.stdout




def test_quick_selects_units_and_one_smoke_test_per_client():
    rc, ids, out = run_test_sh("--quick")
    assert rc == 0, out[-3000:]
    integration = sorted(i for i in ids if not i.startswith("tests/unit/"))
    assert integration == sorted(SMOKE), "smoke tests missing or renamed (tests/conftest.py SMOKE)"
    units = [i for i in ids if i.startswith("tests/unit/")]
    assert len(units) > 1000 and any("test_sasl.py::" in i for i in units)
    assert not any("test_suite_tiers.py" in i for i in ids)  # these run the script: not quick


def test_quick_passes_extra_arguments_through():
    rc, ids, out = run_test_sh("--quick", "tests/unit/test_sasl.py", "tests/integration/test_clients_python.py",
                               "-k", "scram_saslname or aiokafka")
    assert rc == 0, out[-3000:]
    assert sorted(ids) == sorted([
        "tests/unit/test_sasl.py::test_scram_saslname_escapes_and_credential_text",
        "tests/integration/test_clients_python.py::test_roundtrip_compression[aiokafka-gzip]"])
    rc, ids, out = run_test_sh("--quick", "-m", "not smoke", "tests/unit/test_sasl.py")
    assert rc == 0, out[-3000:]
    assert ids and all(i.startswith("tests/unit/test_sasl.py::") for i in ids)


def test_full_mode_passes_arguments_through():
    rc, ids, out = run_test_sh("tests/unit/test_sasl.py", "-k", "plain or scram_saslname")
    assert rc == 0, out[-3000:]
    assert sorted(ids) == ["tests/unit/test_sasl.py::test_plain",
                           "tests/unit/test_sasl.py::test_scram_saslname_escapes_and_credential_text"]
    rc, ids, out = run_test_sh("tests/unit/test_sasl.py", "-m", "not unit")
    assert rc == 5 and ids == [], out[-3000:]
    rc, ids, out = run_test_sh("tests/unit/test_sasl.py", "-k", "no_such_test_anywhere")
    assert rc == 5 and ids == [], out[-3000:]
