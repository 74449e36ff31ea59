"""`kwire cluster up`'s port check (kwire.devcluster): a port counts as taken on the broker's own
address only.

Regression (CI rehearsal, 2026-11-29): with ``--address-base`` the brokers listen on addresses of
their own (127.x.y.11, ...), but the check before start tried the port on 127.0.0.1, so another
test's broker holding that port there made ``kwire cluster up`` refuse to start ("port(s) ...
already in use") although nothing conflicted."""

import random
import socket

from kwire.devcluster import DevCluster


def _listen(host: str, port: int = 0) -> socket.socket:
    s = socket.socket()
    s.bind((host, port))
    s.listen()
    return s


def test_a_port_taken_on_another_loopback_address_is_no_conflict(tmp_path):
    base = f"127.{random.randint(100, 250)}.{random.randint(0, 255)}"
    with _listen("127.0.0.1") as elsewhere:
        port = elsewhere.getsockname()[1]
        cluster = DevCluster(str(tmp_path / "c"), brokers=1, zookeeper="127.0.0.1:1", port_base=port,
                             address_base=f"{base}.10")
        assert cluster.brokers[0].host == f"{base}.11"
        assert cluster.port_conflicts() == []


def test_a_port_taken_on_the_brokers_own_address_is_a_conflict(tmp_path):
    base = f"127.{random.randint(100, 250)}.{random.randint(0, 255)}"
    with _listen(f"{base}.11") as same:
        port = same.getsockname()[1]
        cluster = DevCluster(str(tmp_path / "c"), brokers=1, zookeeper="127.0.0.1:1", port_base=port,
                             address_base=f"{base}.10")
        assert cluster.port_conflicts() == [port]
