"""Throwaway kwire brokers for your own tests: ``Broker``, ``Cluster`` and a pytest plugin.

* ``with kwire.testing.Broker(**configs) as b:`` — a fresh broker on a free
  loopback port with its data in a temporary directory (kwire/testing/broker.py);
  ``b.bootstrap`` for your Kafka client, ``b.create_topic / produce / consume``
  to set up and check data, ``b.stop() / restart()`` for failure cases.
* ``with kwire.testing.Cluster(brokers=3) as c:`` — ZooKeeper (Debian's jars)
  and N brokers (kwire/testing/cluster.py).
* The pytest plugin (kwire/testing/plugin.py, registered through the
  ``pytest11`` entry point, so installing kwire is enough) gives the fixtures
  ``kwire_broker``, ``kwire_shared_broker``, ``kwire_session_broker`` and
  ``kwire_cluster``.

Importing this package imports nothing else: ``Broker`` and friends load on
first use, so the plugin costs a pytest run nothing until a fixture is used.
"""

from __future__ import annotations

__all__ = ["Broker", "BrokerError", "Cluster", "ConsumedRecord", "TEST_DEFAULTS"]

_WHERE = {
    "Broker": ".broker", "BrokerError": ".broker", "TEST_DEFAULTS": ".broker",
    "Cluster": ".cluster", "ConsumedRecord": "._data",
}


def __getattr__(name: str):
    if name in _WHERE:
        import importlib

        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
