"""kwire's partition nemesis: cut links between brokers and ZooKeeper by address, and check histories.

What it does
------------
* ``firewall``: iptables rules in a chain of kwire's own (``KWIRE-NEMESIS-<pid>``),
  jumped to from INPUT and OUTPUT for loopback traffic only; created by
  ``Firewall.install`` and always removed -- by ``close``, at interpreter exit, by
  a finaliser, and (a chain left by a killed run) at the next start, with a
  message. Never touches any other rule.
* ``faults``: the fault kinds as pairs of addresses to cut (isolate a node from a
  set of nodes, a bridge, split in two), from a ``Topology`` of named nodes
  (broker ids and ``zk``); a name that is not in the topology is an error.
* ``netem``: slow links, ``tc netem`` delay and loss for chosen addresses on
  loopback (one root qdisc of kwire's own, always deleted; a clear error where
  the kernel has no ``sch_netem``). Random loss alone needs no netem:
  ``Firewall.lossy`` (iptables ``statistic``).
* ``process``: SIGSTOP / SIGCONT / SIGKILL of a broker process.
* ``checker``: the Jepsen-named anomalies of a queue history (sans-I/O).
* ``availability``: a fault's unavailability from acknowledgement times, split as
  issue 23 bounds it: during the fault, after the heal, until the new leader (sans-I/O).
* ``report``: one table of several long runs' reports (``scripts/nemesis-long-runs.sh``).
* ``command``: ``kwire nemesis``, the same faults against a running cluster
  (e.g. one from ``kwire cluster up`` whose brokers listen on their own
  loopback addresses).

Links can be cut by address because every broker binds its outgoing
connections (replica fetchers, transaction markers, the ZooKeeper session, ...)
to its own address (``broker.source.address``, ``kwire.security.inter_broker``).

What it deliberately does not do
--------------------------------
* Clock skew and ZooKeeper ensembles are the tests' (``tests/clock_skew.py``,
  ``tests/zk_ensemble.py``), not this package's.
* Nothing but loopback traffic: it is a tool for one-machine clusters.
* Linux only (iptables), and root only; both are checked with a clear error.
"""

from kwire.nemesis.faults import NemesisError, Topology

__all__ = ["NemesisError", "Topology"]
