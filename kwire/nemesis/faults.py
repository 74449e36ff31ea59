"""The fault kinds as links to cut: pairs of addresses, from named nodes (sans-I/O).

A ``Topology`` names the nodes of a one-machine cluster -- broker ids ("1", "2",
...) and "zk" -- with the loopback address each one listens on and connects
from. A fault is the set of directed links to drop; ``kwire.nemesis.firewall``
drops both directions of each pair it is given.

* ``isolate(node, others)``: ``node`` can reach none of ``others`` (a leader cut
  from its followers and ZooKeeper, while clients, on other addresses, still
  reach it).
* ``bridge(middle, a, b)``: ``middle`` sees everyone; the nodes of ``a`` and ``b``
  cannot see each other (Jepsen's bridge).
* ``split(a, b)``: no node of ``a`` sees a node of ``b``.

A node name that is not in the topology raises ``NemesisError`` naming it and
the nodes that exist.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field


class NemesisError(Exception):
    """A fault that cannot be made: unknown node, no iptables, not root, ..."""


@dataclass
class Topology:
    nodes: dict[str, str] = field(default_factory=dict)  # name -> address

    def __post_init__(self) -> None:
        for name, addr in self.nodes.items():
            try:
                ipaddress.ip_address(addr)
            except ValueError:
                raise NemesisError(f"node {name}: {addr!r} is not an IP address") from None
        seen: dict[str, str] = {}
        for name, addr in self.nodes.items():
            if addr in seen:
                raise NemesisError(f"nodes {seen[addr]} and {name} share the address {addr}: "
                                   "a link between them cannot be cut by address")
            seen[addr] = name

    def address(self, name) -> str:
        name = str(name)
        try:
            return self.nodes[name]
        except KeyError:
            raise NemesisError(f"no node {name!r} in this cluster (nodes: {', '.join(sorted(self.nodes))})") from None

    def names(self, names) -> list[str]:
        out = [str(n) for n in names]
        for n in out:
            self.address(n)
        return out

    # -- fault kinds ------------------------------------------------------------------------
    def isolate(self, node, others=None) -> set[tuple[str, str]]:
        node = str(node)
        self.address(node)
        others = [n for n in self.names(others if others is not None else self.nodes) if n != node]
        return {self._pair(node, o) for o in others}

    def split(self, a, b) -> set[tuple[str, str]]:
        a, b = self.names(a), self.names(b)
        if set(a) & set(b):
            raise NemesisError(f"a split needs two disjoint sides: {sorted(set(a) & set(b))} on both")
        return {self._pair(x, y) for x in a for y in b}

    def bridge(self, middle, a, b) -> set[tuple[str, str]]:
        middle = str(middle)
        self.address(middle)
        if middle in self.names(a) or middle in self.names(b):
            raise NemesisError(f"the bridge node {middle} cannot also be on a side")
        return self.split(a, b)

    def _pair(self, x: str, y: str) -> tuple[str, str]:
        return (self.nodes[x], self.nodes[y])
