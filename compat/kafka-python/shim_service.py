"""Stand-in for kafka-python's ``test/service.py``, which its sdist does not ship.

run.py copies this file to ``test/service.py`` in the unpacked tests, because
``test/integration/fixtures.py`` imports ``ExternalService`` and
``SpawnedService`` from it.

* ``ExternalService`` is all an external broker (``KAFKA_URI``) needs: it only
  holds the address.
* ``SpawnedService`` is how kafka-python's fixtures start Kafka and ZooKeeper
  from a Kafka distribution (``KAFKA_ROOT``). The runner never gives one, so a
  test that tries to start its own broker (the SSL tests, for instance) fails
  at once with this error instead of waiting for a process that cannot start.
"""


class ExternalService:
    def __init__(self, host, port):
        self.host = host
        self.port = port

    def open(self):
        pass

    def close(self):
        pass


class SpawnedService:
    def __init__(self, args=None, env=None):
        raise RuntimeError("this test starts its own Kafka broker from a Kafka distribution; "
                           "the kwire runner only targets an external broker (KAFKA_URI)")
