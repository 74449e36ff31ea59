"""``SharedBroker``: one test's view of a broker that many tests share, isolated by topic prefix.

``create_topic / produce / consume / delete_topic`` put the view's prefix in
front of a topic name that does not already carry it, so a test writes
``create_topic("orders")`` and gets ``test_x-3f2a1c-orders``; pass that real
name (what ``create_topic`` returns, or ``.prefixed(name)``) to your own
clients, and use ``.prefixed()`` for consumer group and transactional ids too.
``cleanup()`` (the fixture calls it after the test) deletes the topics that
carry the prefix. ``stop()``, ``restart()`` and ``kill()`` raise: other tests
use the broker; ask for ``kwire_broker`` for those.
"""

from __future__ import annotations

from ._data import DataOps

__all__ = ["SharedBroker"]


class SharedBroker(DataOps):
    def __init__(self, broker, prefix: str) -> None:
        self.broker = broker
        self.topic_prefix = prefix

    @property
    def bootstrap(self) -> str:
        return self.broker.bootstrap

    def topic(self, name: str) -> str:
        p = self.topic_prefix
        return name if name.startswith(p) else p + name

    prefixed = topic

    def topics(self) -> list[str]:
        """This test's topics."""
        return [t for t in super().topics() if t.startswith(self.topic_prefix)]

    def cleanup(self) -> None:
        """Delete this test's topics (best effort: a broker the test broke is left alone)."""
        from kwire.client import KafkaClientError

        try:
            mine = self.topics()
            if mine:
                with self.client(timeout=10) as c:
                    c.delete_topics(mine)
        except (KafkaClientError, OSError):
            pass

    def _refuse(self, *a, **kw):
        raise RuntimeError("kwire_shared_broker is shared by other tests: it cannot be stopped or "
                           "restarted; use the kwire_broker fixture for that")

    stop = restart = kill = start = _refuse

    def __repr__(self) -> str:
        return f"<kwire.testing.SharedBroker prefix={self.topic_prefix!r} {self.broker!r}>"
