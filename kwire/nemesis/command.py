"""``kwire nemesis``: cut links of a running one-machine cluster for a while, then heal.

::

    kwire nemesis [-b BOOTSTRAP] [--zookeeper HOST[:PORT]] [--for SECONDS] FAULT
      isolate NODE --from NODE[,NODE...]   NODE cannot reach those nodes (nor they it)
      split NODE[,NODE...] NODE[,NODE...]  no node of one side reaches the other
      bridge MIDDLE NODE[,...] NODE[,...]  MIDDLE sees both sides, the sides not each other
      slow NODE [--delay MS] [--jitter MS] [--loss PCT]
                                           every packet to or from NODE delayed and dropped
                                           (tc netem on lo; exit 1 where the kernel lacks it)
      cleanup                              remove chains left by killed nemesis runs

Nodes are broker ids, found with Metadata from ``--bootstrap-server`` (the
address each broker advertises), and ``zk`` (``--zookeeper``'s host). The
rules stay for ``--for`` seconds (default: until Ctrl-C or SIGTERM) and are then
removed, as they are on any error. Brokers must listen on addresses of their
own (e.g. ``listeners=PLAINTEXT://127.0.0.11:9092``; kwire binds each broker's
outgoing connections to its advertised address): brokers sharing an address
are refused with a message, since a link between them cannot be cut by address.

Exit codes: 0 the fault ran and healed; 1 it could not be made (not root,
iptables missing, a broker not reachable); 2 bad command line (an unknown
node among them).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time

from kwire.nemesis.faults import NemesisError, Topology
from kwire.tools.common import EXIT_OK, ToolError, UsageError, add_connection_options, connect, run

PROG = "kwire nemesis"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Cut links between the nodes of a one-machine "
                                "kwire cluster with iptables, for a while, then heal.")
    add_connection_options(p)
    p.add_argument("--zookeeper", metavar="HOST[:PORT]", help="ZooKeeper's address: node 'zk'")
    p.add_argument("--for", dest="duration", type=float, default=None, metavar="SECONDS",
                   help="how long the fault lasts (default: until Ctrl-C / SIGTERM)")
    sub = p.add_subparsers(dest="fault", required=True)
    iso = sub.add_parser("isolate", help="a node cannot reach the nodes named")
    iso.add_argument("node")
    iso.add_argument("--from", dest="others", required=True, metavar="NODE,...")
    sp = sub.add_parser("split", help="two sides that cannot reach each other")
    sp.add_argument("a", metavar="NODE,...")
    sp.add_argument("b", metavar="NODE,...")
    br = sub.add_parser("bridge", help="a middle node sees both sides; the sides not each other")
    br.add_argument("middle")
    br.add_argument("a", metavar="NODE,...")
    br.add_argument("b", metavar="NODE,...")
    sl = sub.add_parser("slow", help="a slow, lossy link for a node (tc netem delay and loss)")
    sl.add_argument("node")
    sl.add_argument("--delay", type=int, default=50, metavar="MS", help="added delay (default 50 ms)")
    sl.add_argument("--jitter", type=int, default=10, metavar="MS", help="delay jitter (default 10 ms)")
    sl.add_argument("--loss", type=float, default=5.0, metavar="PCT", help="packets dropped (default 5 %%)")
    sub.add_parser("cleanup", help="remove iptables chains left by killed nemesis runs")
    return p


def _names(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def topology(args) -> Topology:
    """Broker id -> advertised address (Metadata), plus ``zk``."""
    with connect(args) as client:
        md = client.metadata([])
    nodes = {str(b.node_id): b.host for b in md.brokers.values()}
    if args.zookeeper:
        nodes["zk"] = args.zookeeper.rsplit(":", 1)[0] if args.zookeeper.count(":") == 1 else args.zookeeper
    try:
        return Topology(nodes)
    except NemesisError as e:
        raise ToolError(f"{e} (start each broker on an address of its own, e.g. "
                        "listeners=PLAINTEXT://127.0.0.11:9092)") from None


def _pairs(args, topo: Topology):
    try:
        if args.fault == "isolate":
            return topo.isolate(args.node, _names(args.others))
        if args.fault == "split":
            return topo.split(_names(args.a), _names(args.b))
        return topo.bridge(args.middle, _names(args.a), _names(args.b))
    except NemesisError as e:
        raise UsageError(str(e)) from None


def _nemesis(args) -> int:
    from kwire.nemesis import firewall

    try:
        binary = firewall.check()
        if args.fault == "cleanup":
            gone = firewall.cleanup_leftovers(binary)
            print(f"removed {len(gone)} leftover chain(s){': ' + ', '.join(gone) if gone else ''}")
            return EXIT_OK
        topo = topology(args)
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_a: stop.set())
        if args.fault == "slow":
            return _slow(args, topo, stop)
        pairs = _pairs(args, topo)
        with firewall.Firewall() as fw:
            for chain in fw.removed_leftovers:
                print(f"removed chain {chain} left by a killed nemesis run", file=sys.stderr)
            fw.cut(pairs)
            started = time.monotonic()
            print(f"cut {len(pairs)} link(s): " + ", ".join(f"{a}<->{b}" for a, b in sorted(pairs)), flush=True)
            stop.wait(args.duration)
        print(f"healed after {time.monotonic() - started:.1f} s", flush=True)
        return EXIT_OK
    except NemesisError as e:
        raise ToolError(str(e)) from None


def _slow(args, topo: Topology, stop: threading.Event) -> int:
    from kwire.nemesis.netem import SlowLinks

    try:
        address = topo.address(args.node)
    except NemesisError as e:
        raise UsageError(str(e)) from None
    with SlowLinks() as links:
        links.install(args.delay, args.jitter, args.loss)
        links.slow(address)
        started = time.monotonic()
        print(f"slowed {address}: delay {args.delay}±{args.jitter} ms, loss {args.loss} %", flush=True)
        stop.wait(args.duration)
    print(f"healed after {time.monotonic() - started:.1f} s", flush=True)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    return run(PROG, build_parser(), argv, _nemesis)
