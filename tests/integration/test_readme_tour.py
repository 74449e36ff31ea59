"""The README's five-minute tour, run as written, so that it stays true.

The snippets are taken from README.md itself (the code blocks under "### One
broker" and "### The pytest fixture"), not copied here:

* the shell block (``kwire topics create``, a ``kwire produce`` of two keyed
  lines, ``kwire consume --from-beginning --print-key``) against a real broker;
  the README's commands use the default ``127.0.0.1:9092``, so a ``kwire``
  shell function adds ``-b`` for this test's broker on a free port;
* the kafka-python snippet, its address replaced the same way;
* the pytest example, written into a user's project and run with a separate
  ``python -m pytest`` that loads kwire's plugin from its entry point.

Not run: the cluster, console and PySpark parts of the tour (``kwire cluster
up`` and the console have their own tests; the PySpark example is
tests/integration/test_example_pipeline.py).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

from test_testing_plugin import assert_outcome, run_pytest

ROOT = Path(__file__).parents[2]
DEFAULT = "127.0.0.1:9092"


def readme_block(section: str, lang: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(rf"^### {re.escape(section)}\n(.*?)(?=^#)", text, re.S | re.M)
    assert m, f"README.md has no section '### {section}'"
    code = re.search(rf"```{lang}\n(.*?)```", m.group(1), re.S)
    assert code, f"README.md's '{section}' has no {lang} block"
    return code.group(1)


# `kwire SUB [ACTION] ARGS` -> `python -m kwire SUB [ACTION] -b ADDR ARGS` (the tools take -b per action)
KWIRE_FN = r'''
kwire() {
    local cmd=$1; shift
    case $cmd in
        topics|groups|users|acls) local action=$1; shift; "$PY" -m kwire "$cmd" "$action" -b "$ADDR" "$@" ;;
        *) "$PY" -m kwire "$cmd" -b "$ADDR" "$@" ;;
    esac
}
set -euo pipefail
'''


def test_the_one_broker_shell_tour_runs_as_written(make_broker):
    b = make_broker()
    script = readme_block("One broker", "sh")
    assert "kwire produce" in script and "kwire consume" in script
    env = {**os.environ, "PY": sys.executable, "ADDR": b.bootstrap,
           "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    p = subprocess.run(["bash", "-c", KWIRE_FN + script], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    # both keyed records come back, each with its key (partition order is the broker's)
    assert sorted(line for line in p.stdout.splitlines() if "\t" in line) == ["k1\tfirst", "k2\tsecond"], p.stdout


def test_the_kafka_python_snippet_runs_as_written(make_broker):
    b = make_broker()
    code = readme_block("One broker", "python")
    assert DEFAULT in code
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.replace(DEFAULT, b.bootstrap), "README.md", "exec"), {})
    assert re.search(r"^\d+ 0 b'third'$", out.getvalue(), re.M), out.getvalue()


def test_the_pytest_fixture_example_passes_in_a_users_project(tmp_path):
    p = run_pytest(tmp_path, readme_block("The pytest fixture", "python"))
    assert_outcome(p, passed=1)
