"""kwire.nemesis's sans-I/O parts: the fault kinds as links (Topology) and the fencing rule (SessionFence)."""

from __future__ import annotations

import pytest

from kwire.nemesis import NemesisError, Topology
from kwire.replication.fencing import SessionFence

TOPO = Topology({"zk": "127.0.0.10", "1": "127.0.0.11", "2": "127.0.0.12", "3": "127.0.0.13"})


def test_isolate_cuts_the_node_from_the_named_nodes_only():
    assert TOPO.isolate(1, [2, 3, "zk"]) == {("127.0.0.11", "127.0.0.12"), ("127.0.0.11", "127.0.0.13"),
                                             ("127.0.0.11", "127.0.0.10")}
    assert TOPO.isolate("1", ["zk"]) == {("127.0.0.11", "127.0.0.10")}
    assert len(TOPO.isolate("2")) == 3  # from everyone


def test_bridge_and_split():
    assert TOPO.bridge("1", ["2"], ["3"]) == {("127.0.0.12", "127.0.0.13")}
    assert TOPO.split(["1"], ["2", "3"]) == {("127.0.0.11", "127.0.0.12"), ("127.0.0.11", "127.0.0.13")}
    with pytest.raises(NemesisError, match="disjoint"):
        TOPO.split(["1", "2"], ["2"])
    with pytest.raises(NemesisError, match="bridge node"):
        TOPO.bridge("1", ["1"], ["3"])


def test_unknown_node_is_a_clear_error():
    with pytest.raises(NemesisError, match=r"no node '7' in this cluster \(nodes: 1, 2, 3, zk\)"):
        TOPO.isolate(7, ["zk"])
    with pytest.raises(NemesisError, match="no node '9'"):
        TOPO.isolate(1, [9])


def test_topology_refuses_names_and_shared_addresses():
    with pytest.raises(NemesisError, match="not an IP address"):
        Topology({"1": "localhost"})
    with pytest.raises(NemesisError, match="share the address"):
        Topology({"1": "127.0.0.11", "2": "127.0.0.11"})


def test_session_counts_as_expired_a_third_of_the_timeout_after_the_drop():
    f = SessionFence(6000, 1000)
    assert f.connected and not f.expired(100.0)
    f.on_state("suspended", 100.0)
    assert not f.expired(101.9) and f.expired(102.0)
    f.on_state("connected", 103.0)
    assert f.connected and not f.expired(200.0)


def test_lost_session_counts_as_expired_at_once():
    f = SessionFence(6000, 1000)
    f.on_state("lost", 50.0)
    assert f.expired(50.0)


def test_resign_only_when_an_isr_follower_stopped_fetching():
    f = SessionFence(6000, 1000)
    fetched = {2: 10_000, 3: 10_500}
    assert not f.should_resign([1, 2, 3], 1, fetched.get, 11_000)  # both within the window
    assert f.should_resign([1, 2, 3], 1, fetched.get, 11_200)  # 2 silent for 1.2 s
    assert not f.should_resign([1, 3], 1, fetched.get, 11_200)  # 2 is not in the ISR
    assert not f.should_resign([1], 1, fetched.get, 99_000)  # no follower to have moved away


def test_a_stall_longer_than_the_session_timeout_counts_as_a_lost_session():
    f = SessionFence(6000, 1000)
    assert not f.stalled(0.3) and not f.stalled(6.0) and f.stalled(6.1)
