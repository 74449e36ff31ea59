"""kwire's pytest plugin and ``kwire.testing``, used the way a user's test suite uses them.

Each plugin test writes a test module into ``tmp_path`` and runs it with a
*separate* ``python -m pytest`` (its own rootdir, no conftest of ours), so
the fixtures come from the installed ``pytest11`` entry point exactly as in a
user's project (the four clients, the configs and the cluster's skip are three
modules of one such run, ``user_suite``: a run costs ~1.3 CPU-s before its tests). The generated tests drive kafka-python, confluent-kafka,
aiokafka (under pytest-asyncio), kcat and ``kwire.client`` (kwire's own
client, which the fixture's helpers use) against ``kwire_broker``, including
``.stop()`` in the middle of a test, where each client's own error must
surface; per-test configs by marker and by indirect parametrization;
``.restart()`` keeping data; pytest-xdist workers each with their own brokers;
``kwire_shared_broker`` isolating tests by topic prefix; ``kwire_cluster``
(ZooKeeper from the Debian jars) and its skip reason without them; and the
docs/testing.md's two numbers (fixture set-up to first produce, 100 tests each with a
fresh broker), printed on every run with their CPU time, which is what is held
to a bound (wall time on a loaded machine measures the other jobs as much).

The ``kwire.testing.Broker`` context manager is checked in this process: no
thread, port or directory left after the block, even on an exception, and a
script interrupted with Ctrl-C leaves no broker process behind.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from procs import sigint_default

ROOT = Path(__file__).resolve().parents[2]


def _entry_point_registered() -> bool:
    return any(ep.value == "kwire.testing.plugin"
               for ep in importlib.metadata.entry_points(group="pytest11"))


def run_pytest(tmp_path: Path, source: str | dict[str, str], *args: str, env: dict | None = None,
               timeout: float = 240) -> subprocess.CompletedProcess:
    """``python -m pytest`` on ``source`` (a test module, or test modules by file name) in
    ``tmp_path``; stdout+stderr in .stdout."""
    sources = source if isinstance(source, dict) else {"test_generated.py": source}
    files = []
    for name, text in sources.items():
        files.append(tmp_path / name)
        files[-1].write_text(textwrap.dedent(text))
    (tmp_path / "pytest.ini").write_text("[pytest]\nasyncio_mode = strict\n"
                                         "asyncio_default_fixture_loop_scope = function\n")
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA", "-s",
            "--basetemp", str(tmp_path / "basetemp"), *map(str, files), *args]
    if not _entry_point_registered():  # a stale editable install: load the module by hand
        argv[3:3] = ["-p", "kwire.testing.plugin"]
    full_env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    full_env.pop("PYTEST_ADDOPTS", None)
    full_env.update(env or {})
    p = subprocess.run(argv, cwd=tmp_path, env=full_env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return p


def summary(p: subprocess.CompletedProcess) -> str:
    lines = [ln for ln in p.stdout.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def assert_outcome(p: subprocess.CompletedProcess, passed: int, skipped: int = 0) -> None:
    want = f"{passed} passed"
    last = summary(p)
    ok = p.returncode == 0 and re.search(rf"\b{want}\b", last) and "failed" not in last and "error" not in last
    if skipped:
        ok = ok and re.search(rf"\b{skipped} skipped\b", last)
    assert ok, f"expected {want}" + (f", {skipped} skipped" if skipped else "") + \
        f"; rc={p.returncode}:\n{p.stdout[-6000:]}"


# -- the plugin as installed ---------------------------------------------------------------------

def test_registered_through_the_pytest11_entry_point():
    text = (ROOT / "pyproject.toml").read_text()
    assert '[project.entry-points.pytest11]\nkwire = "kwire.testing.plugin"' in text
    assert _entry_point_registered(), (
        "kwire is installed without its pytest11 entry point: pip install -e . (scripts/setup-test-env.sh)")


def test_importing_the_plugin_loads_no_broker_code():
    code = ("import sys, kwire.testing.plugin, kwire.testing;"
            "heavy = [m for m in sys.modules if m.startswith(('kwire.server', 'kwire.broker', 'kwire.client',"
            " 'kwire.testing.broker', 'kwire.log'))];"
            "print(heavy); assert not heavy")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr


# -- four clients, one fresh broker per test, a broker stopped mid-test ---------------------------

FOUR_CLIENTS = '''
import subprocess
import pytest


def test_kafka_python(kwire_broker):
    from kafka import KafkaConsumer, KafkaProducer
    from kafka.errors import KafkaTimeoutError

    topic = kwire_broker.create_topic("orders", partitions=2)
    producer = KafkaProducer(bootstrap_servers=kwire_broker.bootstrap, request_timeout_ms=1500,
                             delivery_timeout_ms=3000, max_block_ms=3000, retries=0)
    producer.send(topic, key=b"k", value=b"from kafka-python").get(10)
    assert [r.value for r in kwire_broker.consume(topic)] == [b"from kafka-python"]
    kwire_broker.produce(topic, [("k2", "from the fixture")])
    consumer = KafkaConsumer(topic, bootstrap_servers=kwire_broker.bootstrap,
                             auto_offset_reset="earliest", consumer_timeout_ms=10000)
    got = sorted(m.value for _, m in zip(range(2), consumer))
    consumer.close()
    assert got == [b"from kafka-python", b"from the fixture"]
    kwire_broker.stop()
    with pytest.raises(KafkaTimeoutError):
        producer.send(topic, b"lost").get(10)
    print("KAFKA-PYTHON-ERROR KafkaTimeoutError")
    try:
        producer.close(timeout=1)
    except KafkaTimeoutError:
        pass


def test_confluent_kafka(kwire_broker):
    from confluent_kafka import Consumer, KafkaError, Producer

    topic = kwire_broker.create_topic("payments")
    errors = []
    producer = Producer({"bootstrap.servers": kwire_broker.bootstrap, "message.timeout.ms": 3000,
                         "error_cb": errors.append, "log_level": 0})
    producer.produce(topic, b"from confluent-kafka")
    assert producer.flush(10) == 0
    consumer = Consumer({"bootstrap.servers": kwire_broker.bootstrap, "group.id": "g",
                         "auto.offset.reset": "earliest", "log_level": 0})
    consumer.subscribe([topic])
    msg = None
    for _ in range(100):
        msg = consumer.poll(0.2)
        if msg is not None and not msg.error():
            break
    consumer.close()
    assert msg is not None and msg.value() == b"from confluent-kafka"
    kwire_broker.stop()
    delivered = []
    producer.produce(topic, b"lost", on_delivery=lambda err, m: delivered.append(err))
    producer.flush(15)
    assert [e.code() for e in delivered] == [KafkaError._MSG_TIMED_OUT], delivered
    codes = {e.code() for e in errors}
    assert codes & {KafkaError._TRANSPORT, KafkaError._ALL_BROKERS_DOWN}, errors
    print("CONFLUENT-ERROR", sorted(KafkaError(c).name() for c in codes))


@pytest.mark.asyncio
async def test_aiokafka(kwire_broker):
    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
    from aiokafka.errors import KafkaError

    topic = kwire_broker.create_topic("events")
    producer = AIOKafkaProducer(bootstrap_servers=kwire_broker.bootstrap, request_timeout_ms=2000)
    await producer.start()
    try:
        await producer.send_and_wait(topic, b"from aiokafka")
        consumer = AIOKafkaConsumer(topic, bootstrap_servers=kwire_broker.bootstrap,
                                    auto_offset_reset="earliest")
        await consumer.start()
        try:
            msg = await consumer.getone()
        finally:
            await consumer.stop()
        assert msg.value == b"from aiokafka"
        kwire_broker.stop()
        with pytest.raises(KafkaError) as err:
            await producer.send_and_wait(topic, b"lost")
        print("AIOKAFKA-ERROR", type(err.value).__name__)
    finally:
        await producer.stop()


def test_kwire_client(kwire_broker):
    from kwire.client import KafkaConnectionError
    from kwire.records.builder import build_batch

    topic = kwire_broker.create_topic("audit")
    with kwire_broker.client(timeout=5) as c:  # kwire's own client, which the fixture's helpers use
        assert c.produce(topic, 0, build_batch([(b"k", b"from kwire.client")])) == 0
        assert [r.value for r in kwire_broker.consume(topic)] == [b"from kwire.client"]
        kwire_broker.stop()
        with pytest.raises(KafkaConnectionError) as err:
            c.produce(topic, 0, build_batch([(b"k", b"lost")]))
    with pytest.raises(KafkaConnectionError) as helper_err:  # the helpers surface it as it is
        kwire_broker.produce(topic, "lost too")
    assert "Connection refused" in str(helper_err.value), helper_err.value
    print("KWIRE-CLIENT-ERROR", err.value.name, "|", err.value, "|", helper_err.value)


def test_kcat(kwire_broker):
    topic = kwire_broker.create_topic("lines")
    p = subprocess.run(["kcat", "-b", kwire_broker.bootstrap, "-P", "-t", topic, "-K:"],
                       input=b"a:1\\nb:2\\n", capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert [(r.key, r.value) for r in kwire_broker.consume(topic)] == [(b"a", b"1"), (b"b", b"2")]
    p = subprocess.run(["kcat", "-b", kwire_broker.bootstrap, "-C", "-t", topic, "-e", "-f", "%s\\n"],
                       capture_output=True, timeout=60)
    assert p.stdout.split() == [b"1", b"2"], p.stderr
    kwire_broker.stop()
    p = subprocess.run(["kcat", "-b", kwire_broker.bootstrap, "-L", "-m", "1"],
                       capture_output=True, timeout=60)
    assert p.returncode != 0
    assert b"Connection refused" in p.stderr or b"transport failure" in p.stderr, p.stderr
    print("KCAT-ERROR", p.stderr.decode().strip().splitlines()[-1])
'''


# -- one user's suite: the four clients, the configs, kwire_cluster without ZooKeeper's jars -------

@pytest.fixture(scope="module")
def user_suite(tmp_path_factory) -> subprocess.CompletedProcess:
    """FOUR_CLIENTS, CONFIGS and CLUSTER (below; run without ZooKeeper's jars, so skipped) as
    three modules of one user's suite in one ``python -m pytest`` run: each run costs an
    interpreter, pytest and the client libraries (~1.3 CPU-s), and the three tests that read
    this used to make one each. The tests check their own module's outcomes (``-rA``)."""
    tmp = tmp_path_factory.mktemp("user-suite")
    return run_pytest(tmp, {"test_clients.py": FOUR_CLIENTS, "test_configs.py": CONFIGS,
                            "test_cluster_skip.py": CLUSTER},
                      env={"KWIRE_ZOOKEEPER_JAR_DIRS": str(tmp / "no-jars")})


def outcomes(p: subprocess.CompletedProcess, module: str) -> dict[str, str]:
    """``-rA``'s short summary for ``module``: outcome by test name (SKIPPED lines name no test)."""
    return {m.group(2): m.group(1) for m in re.finditer(
        rf"^(PASSED|FAILED|ERROR|XFAIL|XPASS) {re.escape(module)}::(\S+)", p.stdout, re.M)}


def test_user_suite_outcomes(user_suite):
    # the four clients' 5 and the configs' 7 pass, the cluster test is skipped, and the broker
    # that cannot start is an error at set-up (test_configs_by_marker_and_parameter_... below)
    last = summary(user_suite)
    counts = dict((k, int(n)) for n, k in re.findall(r"(\d+) (passed|skipped|errors?|failed|xfailed|xpassed)\b", last))
    assert counts == {"passed": 12, "skipped": 1, "error": 1}, user_suite.stdout[-6000:]
    assert user_suite.returncode == 1, user_suite.stdout[-3000:]  # the error, and only it


def test_four_clients_with_a_fresh_broker_each_and_a_broker_stopped_mid_test(user_suite):
    if shutil.which("kcat") is None:
        pytest.skip("kcat is not installed (apt-get install kcat)")
    p = user_suite
    assert outcomes(p, "test_clients.py") == {t: "PASSED" for t in (
        "test_kafka_python", "test_confluent_kafka", "test_aiokafka", "test_kwire_client", "test_kcat")}, \
        p.stdout[-6000:]
    out = p.stdout
    m = re.search(r"KWIRE-CLIENT-ERROR NETWORK_EXCEPTION \| (.*) \| (.*)", out)
    assert m, out[-3000:]
    # the open connection broke (the Produce is not resent: it may have reached the broker), or,
    # if the close was seen first, the reconnect was refused
    assert re.search(r"Produce request to 127\.0\.0\.1:\d+ failed|cannot connect to 127\.0\.0\.1:\d+: "
                     r"Connection refused", m.group(1)), m.group(0)
    assert re.search(r"cannot connect to 127\.0\.0\.1:\d+: Connection refused", m.group(2)), m.group(0)
    assert "KAFKA-PYTHON-ERROR KafkaTimeoutError" in out
    assert re.search(r"CONFLUENT-ERROR \[.*'_(TRANSPORT|ALL_BROKERS_DOWN)'", out), out[-3000:]
    assert re.search(r"AIOKAFKA-ERROR (KafkaConnectionError|NodeNotReadyError|KafkaTimeoutError|"
                     r"RequestTimedOutError)", out), out[-3000:]
    assert "KCAT-ERROR" in out


# -- configs by marker and by indirect parameter, restart, the context manager ---------------------

CONFIGS = '''
import os
import pytest

pytestmark = pytest.mark.kwire_broker_config(num_partitions=2)


def test_module_marker(kwire_broker):
    kwire_broker.produce("auto-created", "x")
    assert kwire_broker.partitions("auto-created") == 2


@pytest.mark.kwire_broker_config({"num.partitions": 5}, auto_create_topics_enable=True)
def test_closest_marker_wins(kwire_broker):
    kwire_broker.produce("auto-created", "x")
    assert kwire_broker.partitions("auto-created") == 5


@pytest.mark.parametrize("kwire_broker", [{"num.partitions": 3}, {"num.partitions": 4}], indirect=True)
def test_indirect_parameter(kwire_broker):
    kwire_broker.produce("auto-created", "x")
    assert kwire_broker.partitions("auto-created") in (3, 4)


@pytest.mark.kwire_broker_config(auto_create_topics_enable=False)
def test_a_config_the_broker_acts_on(kwire_broker):
    from kwire.client import KafkaClientError
    with pytest.raises(KafkaClientError, match="UNKNOWN_TOPIC_OR_PARTITION"):
        kwire_broker.produce("not-created", "x")


def test_restart_keeps_data_and_port(kwire_broker):
    from kafka import KafkaProducer
    topic = kwire_broker.create_topic("kept", partitions=3)
    offsets = kwire_broker.produce(topic, [("a", "1"), ("b", "2"), ("c", "3")])
    bootstrap, data = kwire_broker.bootstrap, kwire_broker.data_dir
    kwire_broker.restart()
    assert kwire_broker.bootstrap == bootstrap and os.path.isdir(data)
    assert sorted(r.value for r in kwire_broker.consume(topic)) == [b"1", b"2", b"3"]
    producer = KafkaProducer(bootstrap_servers=kwire_broker.bootstrap)
    producer.send(topic, key=b"a", value=b"4").get(10)
    producer.close()
    assert len(kwire_broker.consume(topic, count=4, timeout=10)) == 4
    assert len(offsets) == 3


@pytest.mark.kwire_broker_config(mode="process")
def test_process_mode(kwire_broker):
    topic = kwire_broker.create_topic("p")
    kwire_broker.produce(topic, ["1", "2"])
    kwire_broker.kill()
    kwire_broker.start()
    assert [r.value for r in kwire_broker.consume(topic)] == [b"1", b"2"]
    assert kwire_broker.mode == "process"


@pytest.mark.kwire_broker_config(log_segment_bytes=10)
def test_bad_config_is_reported(kwire_broker):
    pass
'''


def test_configs_by_marker_and_parameter_restart_and_process_mode(user_suite):
    p = user_suite
    # the last test's broker cannot start: an error at set-up naming the config, not a hang
    got = outcomes(p, "test_configs.py")
    assert got == {**{t: "PASSED" for t in (
        "test_module_marker", "test_closest_marker_wins", "test_indirect_parameter[kwire_broker0]",
        "test_indirect_parameter[kwire_broker1]", "test_a_config_the_broker_acts_on",
        "test_restart_keeps_data_and_port", "test_process_mode")},
        "test_bad_config_is_reported": "ERROR"}, p.stdout[-5000:]
    assert "log.segment.bytes" in p.stdout and "ERROR at setup of test_bad_config_is_reported" in p.stdout


# -- xdist, the shared broker ------------------------------------------------------------------

XDIST = '''
import os
import pytest

SEEN = os.environ.get("SEEN_DIR")


def _note(kind, broker):
    with open(os.path.join(SEEN, f"{kind}-{os.getpid()}-{broker.bootstrap.replace(':', '_')}"), "w") as f:
        f.write(str(getattr(broker, "data_dir", "")))


@pytest.mark.parametrize("i", range(12))
def test_fresh(kwire_broker, i):
    topic = kwire_broker.create_topic("same-name-everywhere")
    kwire_broker.produce(topic, [str(i)])
    assert [r.value for r in kwire_broker.consume(topic)] == [str(i).encode()]
    _note("fresh", kwire_broker)


@pytest.mark.parametrize("i", range(12))
def test_shared(kwire_shared_broker, i):
    topic = kwire_shared_broker.create_topic("same-name-everywhere")
    assert topic.startswith(f"test_shared-{i}-") and topic.endswith("same-name-everywhere")
    kwire_shared_broker.produce("same-name-everywhere", [str(i)] * 3)
    assert [r.value for r in kwire_shared_broker.consume("same-name-everywhere")] == [str(i).encode()] * 3
    assert kwire_shared_broker.topics() == [topic]
    with pytest.raises(RuntimeError, match="shared"):
        kwire_shared_broker.restart()
    _note("shared", kwire_shared_broker.broker)
'''


def test_xdist_workers_and_the_shared_broker(tmp_path):
    seen = tmp_path / "seen"
    seen.mkdir()
    p = run_pytest(tmp_path, XDIST, "-n", "2", env={"SEEN_DIR": str(seen)})
    assert_outcome(p, passed=24)
    fresh = [f.name for f in seen.iterdir() if f.name.startswith("fresh-")]
    shared = [f.name for f in seen.iterdir() if f.name.startswith("shared-")]
    assert len(fresh) == 12, fresh  # a broker (port) of its own for every test
    assert len({n.split("-", 2)[1] for n in fresh}) == 2  # on both workers
    # one shared broker per worker that ran shared tests (xdist may give one worker all of them)
    assert len(set(shared)) == len({n.split("-", 2)[1] for n in shared}) >= 1
    dirs = {(seen / n).read_text() for n in fresh}
    assert len(dirs) == 12 and all("popen-gw" in d for d in dirs), dirs  # each worker's own basetemp


# -- the numbers in docs/testing.md ---------------------------------------------------------------

TIMING = '''
import time
import pytest


@pytest.fixture
def timed_broker(request):
    t0, c0 = time.perf_counter(), time.process_time()
    broker = request.getfixturevalue("kwire_broker")
    return broker, t0, c0


@pytest.mark.parametrize("i", range(100))
def test_fresh_broker(timed_broker, i):
    broker, t0, c0 = timed_broker
    broker.produce("t", [b"x"])
    if i in (0, 1, 50, 99):  # wall and CPU (the broker's threads included)
        print(f"SETUP-TO-FIRST-PRODUCE {i} {time.perf_counter() - t0:.4f} {time.process_time() - c0:.4f}")
    assert broker.consume("t")[0].value == b"x"
'''


def test_100_tests_with_a_fresh_broker_each(tmp_path, capsys):
    t0 = time.perf_counter()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = run_pytest(tmp_path, TIMING)
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter() - t0
    # The child pytest's CPU, its in-process brokers' threads included (children reaped meanwhile
    # by this process would only add to it): unlike wall time, a loaded machine does not stretch it.
    cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    assert_outcome(p, passed=100)
    printed = re.findall(r"SETUP-TO-FIRST-PRODUCE (\d+) ([\d.]+) ([\d.]+)", p.stdout)
    firsts = {int(i): float(s) for i, s, _ in printed}
    first_cpu = {int(i): float(c) for i, _, c in printed}
    m = re.search(r"100 passed.* in ([\d.]+)s", summary(p))
    figure = (f"100 tests, each with a fresh kwire_broker: pytest {m.group(1) if m else '?'} s, "
              f"wall {wall:.1f} s incl. interpreter start (goal < 30 s), CPU {cpu:.1f} s; "
              "set-up to first produce: "
              + ", ".join(f"test {i}: {s * 1000:.1f} ms" for i, s in sorted(firsts.items())))
    with capsys.disabled():  # shown in every run, passing or not, not only under -s
        print(f"\n[kwire.testing] {figure}")
    # The goal is < 30 s wall on 2 cores (measured 3-4 s idle). Wall time here is the machine's
    # load as much as ours (other jobs stretched it past 60 s), so the bound is on CPU: the
    # 100 fresh brokers must cost under 15 CPU-s, half the goal's wall time on one core
    # (measured: ~4 CPU-s).
    assert cpu < 15, figure
    # after the first (which imports the broker, ~0.3 s once per process) the goal is < 0.2 s:
    # measured 5-30 ms wall idle, but 150-260 ms on a machine loaded by other test runs, so the
    # bound is on the CPU the set-up and first produce take (broker threads included)
    later = [first_cpu[i] for i in (1, 50, 99)]
    assert set(first_cpu) == {0, 1, 50, 99} and min(later) < 0.2 and max(later) < 1.0, (first_cpu, figure)


# -- kwire_cluster ---------------------------------------------------------------------------------

CLUSTER = '''
import time
import pytest


@pytest.mark.kwire_cluster_config(brokers=2, min_insync_replicas=1)
def test_cluster(kwire_cluster):
    from kafka import KafkaProducer
    topic = kwire_cluster.create_topic("replicated", partitions=2, replication_factor=2)
    producer = KafkaProducer(bootstrap_servers=kwire_cluster.bootstrap, acks="all")
    for i in range(4):
        producer.send(topic, key=str(i).encode(), value=b"v").get(30)
    producer.close()
    assert len(kwire_cluster.consume(topic, count=4, timeout=30)) == 4
    assert {b.node_id for b in kwire_cluster.brokers} == {1, 2}
    victim = kwire_cluster.leader(topic, 0)
    assert victim in (1, 2)
    kwire_cluster.stop_broker(victim)  # SIGTERM: a controlled shutdown moves leadership
    deadline = time.monotonic() + 60
    while kwire_cluster.leader(topic, 0) in (victim, -1):
        assert time.monotonic() < deadline, "leadership did not move"
        time.sleep(0.1)
    assert len(kwire_cluster.consume(topic, count=4, timeout=30)) == 4
    kwire_cluster.start_broker(victim)
    assert not kwire_cluster.broker(victim).proc.poll()
'''


def test_kwire_cluster(tmp_path):
    from kwire.devcluster import ZooKeeperMissing, zookeeper_classpath

    try:
        zookeeper_classpath()
    except ZooKeeperMissing as e:
        pytest.skip(str(e))
    p = run_pytest(tmp_path, CLUSTER, timeout=300)
    assert_outcome(p, passed=1)


def test_kwire_cluster_skips_naming_the_debian_packages(user_suite):
    p = user_suite  # run with no ZooKeeper jars: its one skip is this module's test
    assert outcomes(p, "test_cluster_skip.py") == {}, p.stdout[-3000:]
    assert re.search(r"^SKIPPED \[1\] test_cluster_skip\.py:\d+: ", p.stdout, re.M), p.stdout[-3000:]
    assert "apt-get install zookeeper default-jre-headless" in p.stdout, p.stdout[-3000:]


# -- kwire.testing.Broker as a context manager -----------------------------------------------------

def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_context_manager_leaves_nothing_behind_on_an_exception():
    from kwire.testing import Broker

    threads_before = {t.ident for t in threading.enumerate()}
    with pytest.raises(ZeroDivisionError):
        with Broker(num_partitions=3) as b:
            port, data = b.port, b.data_dir
            topic = b.create_topic("x")
            assert b.produce(topic, ["a", "b"]) == [0, 1]
            assert _port_open(port) and os.path.isdir(data)
            1 / 0
    assert not _port_open(port)
    assert not os.path.exists(data)
    assert not b.running
    left = [t for t in threading.enumerate() if t.ident not in threads_before and t.is_alive()]
    assert not [t for t in left if t.name.startswith("kwire")], left


CTRL_C = '''
import sys, time
from kwire.testing import Broker
with Broker(mode=sys.argv[1]) as b:
    print(b.port, b.data_dir, b._proc.pid if b._proc else 0, flush=True)
    time.sleep(120)
'''


@pytest.mark.parametrize("mode", ["thread", "process"])
def test_ctrl_c_in_a_script_stops_the_broker(tmp_path, mode):
    script = tmp_path / "script.py"
    script.write_text(CTRL_C)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(script), mode], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=sigint_default)  # Ctrl-C works even if our launcher ignores it
    try:
        line = proc.stdout.readline().split()
        assert len(line) == 3, proc.stderr.read()
        port, data, child = int(line[0]), line[1], int(line[2])
        assert _port_open(port)
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "KeyboardInterrupt" in proc.stderr.read()
    assert not _port_open(port)
    assert not os.path.exists(data)
    if child:
        with pytest.raises(ProcessLookupError):
            os.kill(child, 0)
