"""Fixtures that start real kwire brokers on free loopback ports.

* ``broker`` — one in-process broker (its own event loop in a thread) per test
  module, data in a temporary directory.
* ``make_broker(**overrides)`` — in-process brokers with config overrides,
  stopped at the end of the test.
* ``spawn_broker(data_dir, **overrides)`` — ``python -m kwire serve`` as a
  subprocess (for kill -9 and restart tests); returns a ``BrokerProcess`` with
  ``.bootstrap``, ``.kill()``, ``.terminate()``. Every process is stopped at the
  end of the test. ``nofile=N`` starts it with RLIMIT_NOFILE N (soft and hard).

Config keys are Kafka's; pass them as ``{"log.segment.bytes": "1024"}`` via
``overrides=`` or as keyword arguments with underscores for dots.

Markers set here at collection (scripts/test.sh selects with them): every test under
tests/unit gets ``unit``; the tests named in ``SMOKE`` (one round trip per client) get
``smoke``. ``--quick`` runs ``unit or smoke``; tests/integration/test_suite_tiers.py fails when a
name in ``SMOKE`` no longer matches a test, so the quick tier cannot shrink silently. Collection
also puts the heaviest modules (``HEAVY_FIRST``) first, so pytest-xdist starts them first.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid

import pytest


def _cache_bytecode() -> None:
    """Let the run cache compiled bytecode even where PYTHONDONTWRITEBYTECODE is set.

    With it set, every Python process the suite starts (each ``kwire serve`` broker, CLI, example
    and client script, each xdist worker collecting) compiles kwire and the tests from source
    again: a broker's start costs ~1.1 CPU-s instead of ~0.5, thousands of times a run. The
    bytecode goes to the cache ``kwire bench`` uses for the same reason (kwire/bench/brokers.py
    ``kwire_env``: PYTHONPYCACHEPREFIX under the user's cache dir), so no ``__pycache__`` appears
    in the checkout; set here, at conftest import, the environment is inherited by the xdist
    workers and every child process. A run that writes bytecode already is left as it is."""
    if not (sys.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE")):
        return
    from bytecode_cache import prefix as cache_prefix  # scripts/test.sh warms it (tests/bytecode_cache.py)

    prefix = cache_prefix()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.dont_write_bytecode = False
    sys.pycache_prefix = prefix


_cache_bytecode()


def _hypothesis_without_deadline() -> None:
    """Hypothesis fails a property whose example runs over 200 ms (its default deadline): that
    measures the machine's load, not kwire (test_varint_round_trip failed so at load 20, 2026-11-28:
    "Test took 267.05ms"), so the suite's default profile has no deadline. A test that sets
    ``deadline=`` itself keeps it."""
    from hypothesis import settings

    settings.register_profile("kwire-suite", deadline=None)
    settings.load_profile("kwire-suite")


_hypothesis_without_deadline()

# One produce/consume round trip per client, the quick tier's integration tests (gzip: the
# broker's decompress-and-validate path too). Full node ids; keep in step with the tests.
SMOKE = (
    "tests/integration/test_clients_python.py::test_roundtrip_compression[kafka-python-gzip]",
    "tests/integration/test_clients_python.py::test_roundtrip_compression[aiokafka-gzip]",
    "tests/integration/test_clients_python.py::test_roundtrip_compression[confluent-kafka-gzip]",
    "tests/integration/test_kcat.py::test_produce_consume_codec[gzip]",
    "tests/integration/test_java_client.py::test_java_produce_consume_admin[gzip]",
)

# Scheduling under pytest-xdist (scripts/test.sh: --dist loadgroup --no-loadscope-reorder): every
# test without an xdist_group of its own is put in its module's group, so a module is one unit
# of work; units are handed out in collection order. The heaviest modules, by their
# summed test time in the parallel run of 2026-11-28 (4 workers, load average 13-20), go first:
# a two-minute module handed out last would be the run's tail, alone on one worker.
HEAVY_FIRST = (
    "tests/integration/test_failover_verifier.py",       # 2 tests (rounds 1-6, 7-11), ~70 s each: first
    "tests/integration/test_compat.py",                  # 2 compat runs (a broker, a cluster), one xdist group each
    "tests/integration/test_nemesis_faults.py",          # 8 kinds on two shared clusters, 2 on an ensemble
    "tests/integration/test_clock_skew.py",              # 5 skewed-cluster runs
    "tests/integration/test_zk_ensemble.py",             # 3 ensemble runs, up to ~120 s loaded
    "tests/integration/test_java_client.py",             # 571 s
    "tests/integration/test_sensor_pipeline_spark.py",   # 402 s
    "tests/integration/test_groups_java.py",             # 296 s
    "tests/integration/test_testing_plugin.py",          # 223 s
    "tests/integration/test_bench_smoke.py",             # 220 s
    "tests/integration/test_security_authz_more.py",     # 206 s
    "tests/integration/test_fd_limits.py",               # 188 s
    "tests/integration/test_security_quotas.py",         # 179 s
    "tests/unit/test_records_validate.py",               # 158 s
    "tests/integration/test_kafka_python_suite.py",      # 133 s
    "tests/integration/test_security_java.py",           # 123 s
)
# Modules whose tests are spread one by one over the workers (each test its own xdist group;
# their module-scoped broker then starts once per test).
SPREAD = (
    "tests/integration/test_java_client.py",             # 5 codecs, 80-150 s each
    "tests/integration/test_sensor_pipeline_spark.py",   # two JVM starts of their own
    "tests/integration/test_failover_verifier.py",       # its two halves on two workers
    "tests/integration/test_nemesis_faults.py",          # tests outside its three shared-cluster groups
    "tests/integration/test_clock_skew.py",              # a cluster of its own per test
    "tests/integration/test_zk_ensemble.py",             # an ensemble and cluster per test
    "tests/integration/test_nemesis_slow_links.py",      # a cluster of its own per test
)
# (test_nemesis_zookeeper and test_nemesis_documented_loss share one cluster per module: their
# own xdist_group markers keep each module on one worker.)
_UNIT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "unit") + os.sep


_STARTED = time.time()


def pytest_sessionfinish(session, exitstatus):
    # libfaketime leaves a shared-memory file and a semaphore per skewed process (tests/clock_skew.py)
    from clock_skew import remove_leftover_shm

    remove_leftover_shm(_STARTED)


def pytest_configure(config):
    # KWIRE_TEST_CPU_REPORT=PATH: CPU per test module, workers' children included (tests/cpu_report.py)
    from cpu_report import register

    register(config)


@pytest.hookimpl(tryfirst=True)  # before -m/-k deselect, and xdist groups, by these markers
def pytest_collection_modifyitems(config, items):
    smoke = set(SMOKE)
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        if str(item.path).startswith(_UNIT_DIR):
            item.add_marker(pytest.mark.unit)
        if item.nodeid in smoke:
            item.add_marker(pytest.mark.smoke)
        if not any(item.iter_markers("xdist_group")):
            # --dist loadgroup makes every ungrouped test a unit of its own: group by module
            # (a module-scoped broker, ZooKeeper or compat run then starts once per module)
            name = re.sub(r"[\[\]@]", "_", item.nodeid) if path in SPREAD else path
            item.add_marker(pytest.mark.xdist_group(name))
    rank = {path: i for i, path in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable


def _overrides(data_dir, overrides: dict | None, kw: dict) -> dict:
    cfg = {"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(data_dir),
           "group.initial.rebalance.delay.ms": "0"}
    cfg.update({k.replace("_", "."): str(v) for k, v in kw.items()})
    cfg.update({k: str(v) for k, v in (overrides or {}).items()})
    return cfg


class InProcessBroker:
    def __init__(self, data_dir, cfg: dict) -> None:
        self.data_dir = str(data_dir)
        self.cfg = cfg
        from kwire.config import BrokerConfig
        from kwire.server.app import ThreadedBroker

        self._tb = ThreadedBroker(BrokerConfig.load(None, cfg))

    @property
    def bootstrap(self) -> str:
        return self._tb.bootstrap

    @property
    def server(self):
        return self._tb.server

    def stop(self) -> None:
        if self._tb is not None:
            self._tb.stop()
            self._tb = None


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    d = tmp_path_factory.mktemp("kwire-data")
    b = InProcessBroker(d, _overrides(d, None, {}))
    yield b
    b.stop()


@pytest.fixture
def make_broker(tmp_path):
    started: list[InProcessBroker] = []

    def make(data_dir=None, overrides: dict | None = None, **kw) -> InProcessBroker:
        d = data_dir or (tmp_path / f"data-{len(started)}")
        b = InProcessBroker(d, _overrides(d, overrides, kw))
        started.append(b)
        return b

    yield make
    for b in started:
        b.stop()


def _set_nofile(n: int):
    def apply() -> None:  # runs in the child between fork and exec
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))
    return apply


class BrokerProcess:
    _LINE = re.compile(r"kwire serving on (\S+):(\d+)")

    def __init__(self, data_dir, cfg: dict, nofile: int | None = None) -> None:
        self.data_dir = str(data_dir)
        args = [sys.executable, "-m", "kwire", "serve"]
        for k, v in cfg.items():
            args += ["--override", f"{k}={v}"]
        self.log_lines: list[str] = []
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     preexec_fn=_set_nofile(nofile) if nofile else None)
        ready = threading.Event()
        self.bootstrap = ""

        def pump():
            for line in self.proc.stdout:
                self.log_lines.append(line.rstrip("\n"))
                m = self._LINE.search(line)
                if m and not ready.is_set():
                    self.bootstrap = f"{m.group(1)}:{m.group(2)}"
                    ready.set()
            ready.set()

        self._pump = threading.Thread(target=pump, daemon=True)
        self._pump.start()
        # 90 s: a start takes about a second alone, tens of seconds on a 2-core machine
        # running the suite's xdist workers and other load
        if not ready.wait(90) or not self.bootstrap:
            self.kill()
            raise RuntimeError("broker subprocess did not start:\n" + "\n".join(self.log_lines))

    @property
    def log_text(self) -> str:
        return "\n".join(self.log_lines)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)
        self._pump.join(5)

    def terminate(self, timeout: float = 30) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        rc = self.proc.wait(timeout)
        self._pump.join(5)
        return rc


@pytest.fixture
def faults_file(tmp_path, monkeypatch):
    """Arm fault sites of ``kwire serve`` subprocesses started by this test through
    KWIRE_FAULTS_FILE (kwire/log/faults.py): ``faults_file("site=ENOSPC ...")`` replaces the
    file whole, so a broker never reads it half-written and sees every change; ``""`` disarms."""
    from kwire.log import faults

    spec = tmp_path / "faults"
    spec.write_text("")
    monkeypatch.setenv(faults.ENV_FILE, str(spec))

    def arm(text: str) -> None:
        (tmp_path / "faults.new").write_text(text)
        os.replace(tmp_path / "faults.new", spec)
    return arm


@pytest.fixture
def spawn_broker(tmp_path):
    procs: list[BrokerProcess] = []

    def spawn(data_dir=None, overrides: dict | None = None, *, nofile: int | None = None,
              **kw) -> BrokerProcess:
        d = data_dir or (tmp_path / "data")
        p = BrokerProcess(d, _overrides(d, overrides, kw), nofile)
        procs.append(p)
        return p

    yield spawn
    for p in procs:
        p.kill()


@pytest.fixture
def topic_name(request):
    base = re.sub(r"[^a-zA-Z0-9]", "-", request.node.name)[:60]
    return f"t-{base}-{uuid.uuid4().hex[:8]}"

