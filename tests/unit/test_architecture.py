"""The layers of kwire (ARCHITECTURE.md) are kept, and a broken layer fails naming the chain.

``lint-imports`` (import-linter) checks the contracts in pyproject.toml's
``[tool.importlinter]``: imports point down the layers, no cycles at any depth,
the handlers never import the log or ZooKeeper code, the generated codec
stays apart. scripts/test.sh runs it before pytest; this test runs it too, so
a plain ``pytest tests/unit`` catches a new cycle. The second and third tests
check the tool itself on a throwaway package with its own config: a layer
imported from below (through a helper module) fails the run with every import
of the chain and its line named, so the contributor knows which line to
change; a cycle between siblings (through a lazy import) fails naming the
import that would break it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("importlinter", reason="import-linter is in the [test] extra: pip install -e '.[test]'")

ROOT = Path(__file__).resolve().parents[2]

# the same entry point as the lint-imports script, with this interpreter
LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def lint(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    # the package analysed is the one on PYTHONPATH first: this checkout's, not an installed kwire
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(cwd), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-c", LINT, "--no-cache", "--no-logo", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_kwire_keeps_its_contracts():
    r = lint(ROOT)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "0 broken" in out, out
    for contract in ("kwire layers", "no import cycles", "handlers never touch files or ZooKeeper",
                     "generated codec apart"):
        assert contract in out, f"contract {contract!r} not checked:\n{out}"


def test_replica_manager_needs_only_its_host_protocol():
    """The broker implements every call of the ReplicaHost protocol the replica manager is given."""
    from kwire.broker.broker import Broker
    from kwire.replication.host import ReplicaHost

    calls = [n for n, v in vars(ReplicaHost).items() if callable(v) and not n.startswith("_")]
    assert len(calls) == 7, calls
    missing = [n for n in calls if not callable(getattr(Broker, n, None))]
    assert missing == []


def broken(tmp_path: Path, files: dict[str, str], root: str, contract: str) -> str:
    """Lint a throwaway package ``root`` against one contract; assert it fails; return the report."""
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    (tmp_path / ".importlinter").write_text(f"[importlinter]\nroot_package = {root}\n\n"
                                            f"[importlinter:contract:demo]\nname = demo\n{contract}")
    r = lint(tmp_path)
    out = r.stdout + r.stderr
    assert r.returncode != 0, out
    assert "demo BROKEN" in out, out
    return out


def test_an_import_pointing_up_fails_naming_the_chain(tmp_path):
    out = broken(tmp_path, {
        "layerdemo/__init__.py": "",
        "layerdemo/high/__init__.py": "",
        "layerdemo/high/api.py": "def serve():\n    return 1\n",
        "layerdemo/low/__init__.py": "",
        # low reaches high through a module outside the layers: still a violation
        "layerdemo/low/store.py": '"""A low layer module."""\n\nfrom layerdemo import helpers\n',
        "layerdemo/helpers.py": "import os\n\nfrom layerdemo.high.api import serve\n",
    }, "layerdemo", "type = layers\nlayers =\n    layerdemo.high\n    layerdemo.low\n")
    assert "layerdemo.low is not allowed to import layerdemo.high" in out, out
    assert "layerdemo.low.store -> layerdemo.helpers (l.3)" in out, out
    assert "layerdemo.helpers -> layerdemo.high.api (l.3)" in out, out


def test_a_cycle_between_siblings_fails_naming_the_import(tmp_path):
    out = broken(tmp_path, {
        "cycledemo/__init__.py": "",
        "cycledemo/a.py": "from cycledemo import b\n",
        "cycledemo/b.py": "def f():\n    from cycledemo import a  # a lazy import counts too\n",
    }, "cycledemo", "type = acyclic_siblings\nancestors = cycledemo\n")
    assert "No cycles are allowed in cycledemo" in out, out
    assert ".a -> .b" in out or ".b -> .a" in out, out
