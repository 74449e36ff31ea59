"""What a ``kwire serve`` start and a CLI tool import: only what their configuration needs.

The suite starts hundreds of brokers and CLI processes, and a start's CPU is mostly imports
(CONTRIBUTING.md, "CPU"). Each test runs the real ``python -m kwire ...`` in a subprocess whose
``atexit`` hook writes ``sys.modules`` to a file, and checks that the optional parts (ZooKeeper's
client, the console, the Schema Registry, the metrics endpoint, the log cleaner's process pool,
the handlers of APIs never asked for) stay out of a default broker, that a configured one still
loads its part, and that the CLI tools never import the broker.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from kwire.handlers import MODULES

#: Runs ``python -m kwire ARGS`` and writes to OUT at exit the modules it imported (those in
#: sys.modules then but not before kwire's start: not what the interpreter's site hooks load).
DRIVER = """
import atexit, json, runpy, sys
out = sys.argv[1]
before = set(sys.modules)
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(set(sys.modules) - before))))
sys.argv = ["kwire", *sys.argv[2:]]
runpy.run_module("kwire", run_name="__main__", alter_sys=True)
"""

#: Never needed by a single broker with defaults (no zookeeper.connect, no HTTP endpoints).
NOT_IN_A_DEFAULT_BROKER = [
    "kazoo", "kwire.cluster.zk_store", "kwire.cluster.zookeeper", "kwire.replication.manager",
    "kwire.console", "kwire.registry", "kwire.metrics.server", "kwire.metrics.collector",
    "kwire.metrics.http", "prometheus_client", "http.server", "jinja2",
    "concurrent.futures.process", "multiprocessing",
    "importlib.metadata", "crc32c._cli",  # the crc32c package's __init__ (kwire.records.crc)
    "kwire.tools", "kwire.bench", "kwire.nemesis",
]

#: Never needed by the client tools.
NOT_IN_A_TOOL = ["kwire.broker", "kwire.server", "kwire.log", "kwire.handlers", "kwire.coordinator",
                 "kwire.cluster", "kazoo", "importlib.metadata", "crc32c._cli"]


def _present(modules: list[str], names: list[str]) -> list[str]:
    return [m for m in modules if any(m == n or m.startswith(n + ".") for n in names)]


def _serve(tmp_path, *overrides: str):
    """Start ``python -m kwire serve`` (driver); returns (process, bootstrap, modules file)."""
    out = tmp_path / "modules.json"
    args = ["serve", "--override", f"log.dirs={tmp_path / 'data'}",
            "--override", "listeners=PLAINTEXT://127.0.0.1:0"]
    for o in overrides:
        args += ["--override", o]
    p = subprocess.Popen([sys.executable, "-c", DRIVER, str(out), *args], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    seen = []
    for line in p.stdout:
        seen.append(line)
        if line.startswith("kwire serving on "):
            return p, line.split()[3], out
    p.wait()
    pytest.fail("kwire serve did not start:\n" + "".join(seen))


def _stop(p: subprocess.Popen, out) -> list[str]:
    p.send_signal(signal.SIGTERM)
    rest, _ = p.communicate(timeout=60)
    assert p.returncode == 0, rest
    return json.loads(out.read_text())


def test_default_broker_imports_no_optional_part_and_no_handler(tmp_path):
    p, bootstrap, out = _serve(tmp_path)
    try:
        tool_out = tmp_path / "tool.json"
        tool = subprocess.run([sys.executable, "-c", DRIVER, str(tool_out), "topics", "create",
                               "--bootstrap-server", bootstrap, "--topic", "t1"],
                              capture_output=True, text=True, timeout=60)
        assert tool.returncode == 0, tool.stdout + tool.stderr
    finally:
        modules = _stop(p, out)
    assert _present(modules, NOT_IN_A_DEFAULT_BROKER) == []
    # handlers load at their API's first request: ApiVersions, Metadata, CreateTopics here (which
    # reuses CreatePartitions' assignment checks and DescribeConfigs' config views)
    served = {"api_versions", "metadata", "create_topics", "create_partitions", "describe_configs"}
    loaded = {m.rsplit(".", 1)[1] for m in modules if m.rsplit(".", 1)[0] == "kwire.handlers"}
    assert loaded & set(MODULES) <= served, loaded
    assert "kwire.handlers.create_topics" in modules  # it did serve: the lazy path ran
    assert "kwire.handlers.produce" not in modules and "kwire.protocol.generated.produce_response" not in modules
    tool_modules = json.loads(tool_out.read_text())
    assert _present(tool_modules, NOT_IN_A_TOOL) == []
    assert "kwire.client" in tool_modules


def test_configured_metrics_endpoint_still_loads_its_server(tmp_path):
    p, _, out = _serve(tmp_path, "metrics.port=0")
    modules = _stop(p, out)
    assert "kwire.metrics.server" in modules and "http.server" in modules
    assert _present(modules, ["kazoo", "kwire.console", "kwire.registry"]) == []
