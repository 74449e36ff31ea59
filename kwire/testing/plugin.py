"""The pytest plugin: fixtures that give each test a real kwire broker.

Registered through the ``pytest11`` entry point ``kwire`` (pyproject.toml), so
it is active wherever kwire is installed; ``-p no:kwire`` turns it off.

Fixtures:

* ``kwire_broker`` — a fresh ``kwire.testing.Broker`` per test: a free
  127.0.0.1 port, data under pytest's temporary directory; ``.bootstrap``,
  ``.create_topic()``, ``.produce()``, ``.consume()``, ``.restart()``,
  ``.stop()``, ``.schema_registry_url`` (its Schema Registry, started on
  first use). Stopped after the test whatever happened.
* ``kwire_session_broker`` — one broker for the whole session (one per
  pytest-xdist worker).
* ``kwire_shared_broker`` — per test, a view of ``kwire_session_broker`` whose
  ``create_topic / produce / consume`` put a prefix unique to the test in
  front of topic names (``.prefixed(name)`` for group ids and the like);
  the test's topics are deleted after it. ``stop()``/``restart()`` are refused
  (other tests share the broker).
* ``kwire_cluster`` — ``kwire.testing.Cluster``: ZooKeeper and N brokers,
  per test; skipped, with the Debian packages to install, when ZooKeeper's
  jar or java is missing.

Configs, later wins: the ini option ``kwire_broker_configs`` (lines of
``key=value``, for every fixture), then ``@pytest.mark.kwire_broker_config``
on the module, class and test (a dict and/or keywords with ``_`` for ``.``),
then an indirect parameter: ``@pytest.mark.parametrize("kwire_broker",
[{"log.cleanup.policy": "compact"}], indirect=True)``. The key ``mode``
("thread", the default, or "process"; ini ``kwire_broker_mode``) picks how
the broker runs. ``kwire_cluster`` reads ``@pytest.mark.kwire_cluster_config(
brokers=3, **configs)`` (brokers also from an indirect parameter).

Importing this module imports only pytest: a pytest run whose tests use none of
the fixtures pays nothing for the plugin.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

BROKER_MARK = "kwire_broker_config"
CLUSTER_MARK = "kwire_cluster_config"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("kwire_broker_configs", type="linelist", default=[],
                  help="kwire test brokers: Kafka broker configs, one key=value a line")
    parser.addini("kwire_broker_mode", default="thread",
                  help="kwire test brokers: 'thread' (in-process, the default) or 'process'")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{BROKER_MARK}(configs=None, /, mode=None, **configs): broker configs "
                   "(Kafka names; keywords with _ for .) for kwire_broker")
    config.addinivalue_line(
        "markers", f"{CLUSTER_MARK}(brokers=3, configs=None, /, **configs): size and broker "
                   "configs for kwire_cluster")


# -- configs -----------------------------------------------------------------------------------

def _ini_configs(config: pytest.Config) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in config.getini("kwire_broker_configs"):
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise pytest.UsageError(f"kwire_broker_configs: expected key=value, got {line!r}")
        out[key.strip()] = value.strip()
    return out


def _marker_configs(request: pytest.FixtureRequest, name: str) -> dict[str, Any]:
    """Every ``name`` marker's configs, farthest (module) first so that the closest wins."""
    out: dict[str, Any] = {}
    node = getattr(request, "node", None)
    markers = list(node.iter_markers(name)) if node is not None else []
    for m in reversed(markers):
        for arg in m.args:
            if isinstance(arg, dict):
                out.update(arg)
            elif name == CLUSTER_MARK and isinstance(arg, int):
                out["brokers"] = arg
            else:
                raise pytest.UsageError(f"@pytest.mark.{name}: positional arguments are a dict of "
                                        f"configs, got {arg!r}")
        out.update({k.replace("_", ".") if k not in ("mode", "brokers") else k: v
                    for k, v in m.kwargs.items()})
    param = getattr(request, "param", None)
    if isinstance(param, dict):
        out.update(param)
    elif name == CLUSTER_MARK and isinstance(param, int):
        out["brokers"] = param
    elif param is not None:
        raise pytest.UsageError(f"indirect parameter for {request.fixturename}: a dict of configs, "
                                f"got {param!r}")
    return out


def _mode(config: pytest.Config, configs: dict[str, Any]) -> str:
    mode = configs.pop("mode", None) or config.getini("kwire_broker_mode") or "thread"
    if mode not in ("thread", "process"):
        raise pytest.UsageError(f"kwire broker mode is 'thread' or 'process', not {mode!r}")
    return mode


def _test_prefix(request: pytest.FixtureRequest) -> str:
    base = re.sub(r"[^a-zA-Z0-9_-]+", "-", request.node.name).strip("-")[:60] or "test"
    return f"{base}-{uuid.uuid4().hex[:6]}-"


# -- fixtures ----------------------------------------------------------------------------------

@pytest.fixture
def kwire_broker(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """A fresh kwire broker for this test (``kwire.testing.Broker``)."""
    from kwire.testing.broker import Broker

    configs = {"schema.registry.port": "0"}  # .schema_registry_url; the registry starts on first use
    configs.update(_ini_configs(request.config))
    configs.update(_marker_configs(request, BROKER_MARK))
    mode = _mode(request.config, configs)
    b = Broker(configs, data_dir=tmp_path_factory.mktemp("kwire-broker"), mode=mode)
    b.start()
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(scope="session")
def kwire_session_broker(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """One kwire broker for the whole session (per xdist worker); configs from the ini file."""
    from kwire.testing.broker import Broker

    configs = _ini_configs(request.config)
    mode = _mode(request.config, configs)
    b = Broker(configs, data_dir=tmp_path_factory.mktemp("kwire-session-broker"), mode=mode)
    b.start()
    try:
        yield b
    finally:
        b.close()


@pytest.fixture
def kwire_shared_broker(request: pytest.FixtureRequest, kwire_session_broker):
    """The session broker, with topic names prefixed per test; its topics are deleted after it."""
    from kwire.testing.shared import SharedBroker

    view = SharedBroker(kwire_session_broker, _test_prefix(request))
    try:
        yield view
    finally:
        view.cleanup()


@pytest.fixture
def kwire_cluster(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """ZooKeeper + N kwire brokers (``kwire.testing.Cluster``); skipped without ZooKeeper."""
    from kwire.devcluster import ZooKeeperMissing, zookeeper_classpath
    from kwire.testing.cluster import Cluster

    try:
        zookeeper_classpath()
    except ZooKeeperMissing as e:
        pytest.skip(f"kwire_cluster needs ZooKeeper: {e}")
    configs = _ini_configs(request.config)
    configs.update(_marker_configs(request, CLUSTER_MARK))
    configs.pop("mode", None)
    brokers = int(configs.pop("brokers", 3))
    c = Cluster(brokers, configs, directory=tmp_path_factory.mktemp("kwire-cluster"))
    c.start()
    try:
        yield c
    finally:
        c.close()
