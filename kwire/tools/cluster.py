"""``kwire cluster up|status|down``: a local ZooKeeper-mode cluster in one command.

* ``up --brokers N [--dir D] [--zookeeper HOST:PORT[/chroot]] [--port-base P]
  [--address-base A] [--config k=v]... [--rack R]... [--grace S] [--detach]``:
  starts ZooKeeper
  (the Debian ``zookeeper`` package's jar; ``$KWIRE_ZOOKEEPER_JAR_DIRS``
  overrides where it is looked for) unless ``--zookeeper`` names one, and N
  brokers (kwire/devcluster.py); once all are registered and a controller is
  elected it prints, one ``key: value`` a line::

      zookeeper: 127.0.0.1:PORT/kwire
      controller: ID
      dir: D
      bootstrap: 127.0.0.1:P1,127.0.0.1:P2,...

  then keeps running until Ctrl-C or SIGTERM and stops everything (brokers one
  at a time with a controlled shutdown, the controller last, SIGKILL after
  ``--grace`` seconds; then ZooKeeper). A second signal kills at once. Broker
  ``k`` listens on ``P+k-1`` with ``--port-base P``; with ``--address-base A``
  ZooKeeper listens on A and broker ``k`` on A+k (one loopback address each, for
  ``kwire nemesis``). Without ``--dir`` the
  cluster lives in a temporary directory removed at the end. ``--detach``
  (needs ``--dir``) leaves the cluster running in the background after the
  lines above; ``kwire cluster down --dir D`` stops it.
* ``status [--dir D | --bootstrap-server B]``: brokers (id, address, rack,
  alive), the controller, and under-replicated and offline partitions, from
  Metadata (kwire.client). With ``--dir`` the addresses come from
  ``D/cluster.json`` and a broker that does not answer is shown as not alive.
* ``down --dir D``: stops a cluster started with ``up --dir D`` (normally a
  detached one) by signalling its supervising process.

Exit codes: 0 fine; 1 the cluster failed to start or cannot be reached;
2 bad command line or ZooKeeper/java not installed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from kwire.client import KafkaClient, KafkaClientError
from kwire.devcluster import (
    STATE_FILE,
    ClusterError,
    DevCluster,
    ZooKeeperMissing,
    pid_alive,
    read_state,
    zookeeper_classpath,
)

from .common import EXIT_OK, EXIT_USAGE, ToolError, UsageError, parse_key_values, positive_int, run

PROG = "kwire cluster"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Run a local ZooKeeper-mode kwire cluster.")
    sub = p.add_subparsers(dest="action", metavar="{up,status,down}")
    sub.required = True

    u = sub.add_parser("up", help="start ZooKeeper and N brokers; stop them on Ctrl-C",
                       description="Start ZooKeeper and N kwire brokers; stop them all on Ctrl-C/SIGTERM.")
    u.add_argument("--brokers", "-n", type=positive_int, default=3, help="number of brokers (default 3)")
    u.add_argument("--dir", help="cluster directory: data, logs, cluster.json (default: a temporary one)")
    u.add_argument("--zookeeper", metavar="HOST:PORT[/CHROOT]",
                   help="use this ZooKeeper instead of starting one")
    u.add_argument("--port-base", type=positive_int, metavar="P",
                   help="broker k listens on P+k-1 (default: free ports)")
    u.add_argument("--address-base", metavar="ADDR",
                   help="ZooKeeper listens on ADDR and broker k on ADDR+k (e.g. 127.0.0.10: brokers on "
                        "127.0.0.11, .12, ...), so `kwire nemesis` can cut links by address")
    u.add_argument("--config", action="append", metavar="KEY=VALUE",
                   help="a broker config for every broker (repeatable)")
    u.add_argument("--rack", action="append", metavar="RACK",
                   help="broker.rack values, assigned round-robin (repeatable)")
    u.add_argument("--grace", type=float, default=30.0, metavar="S",
                   help="seconds a broker gets to shut down before SIGKILL (default 30)")
    u.add_argument("--timeout", type=float, default=120.0, metavar="S",
                   help="seconds to wait for the cluster to come up (default 120)")
    u.add_argument("--detach", action="store_true", help="keep running in the background (needs --dir)")

    s = sub.add_parser("status", help="brokers, controller, under-replicated and offline partitions",
                       description="Show brokers, the controller, under-replicated and offline partitions.")
    where = s.add_mutually_exclusive_group()
    where.add_argument("--dir", help="a cluster directory made by 'kwire cluster up --dir'")
    where.add_argument("--bootstrap-server", "-b", metavar="HOST:PORT", help="any broker of the cluster")
    s.add_argument("--request-timeout-ms", type=positive_int, default=10000, metavar="MS")

    d = sub.add_parser("down", help="stop a cluster started with --dir (e.g. --detach)",
                       description="Stop the cluster running in a directory.")
    d.add_argument("--dir", required=True)
    d.add_argument("--timeout", type=float, default=180.0, metavar="S",
                   help="seconds to wait for it to stop (default 180)")
    return p


def main(argv: list[str] | None = None) -> int:
    return run(PROG, build_parser(), argv, _dispatch)


def _dispatch(args) -> int:
    return {"up": _up, "status": _status, "down": _down}[args.action](args)


# -- up ----------------------------------------------------------------------------------------

class _Stop(Exception):
    pass


def _up(args) -> int:
    configs = parse_key_values(args.config, "--config")
    if "zookeeper.connect" in configs or "broker.id" in configs:
        raise UsageError("zookeeper.connect and broker.id are set by kwire cluster up")
    if args.detach:
        if not args.dir:
            raise UsageError("--detach needs --dir (kwire cluster down --dir finds the cluster there)")
        return _detach(args)
    if args.zookeeper is None:
        try:
            zookeeper_classpath()
        except ZooKeeperMissing as e:
            print(f"{PROG}: error: {e}", file=sys.stderr)
            return EXIT_USAGE
    if args.address_base is not None:  # before any directory is made
        import ipaddress

        try:
            ipaddress.ip_address(args.address_base)
        except ValueError as e:
            raise UsageError(f"--address-base: {e}") from None
    temp = args.dir is None
    directory = tempfile.mkdtemp(prefix="kwire-cluster-") if temp else args.dir
    try:
        cluster = DevCluster(directory, args.brokers, zookeeper=args.zookeeper, port_base=args.port_base,
                             configs=configs, racks=args.rack, grace=args.grace,
                             address_base=args.address_base)
    except ClusterError as e:
        raise ToolError(str(e)) from None

    signals = {"n": 0}

    def on_signal(signum, frame):
        signals["n"] += 1
        if signals["n"] == 1:
            raise _Stop
        # A second signal: no more waiting for controlled shutdowns.
        cluster.grace = 0.0
        for b in cluster.brokers:
            if b.alive():
                os.killpg(b.proc.pid, signal.SIGKILL)

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            print(f"kwire cluster: starting {'ZooKeeper and ' if args.zookeeper is None else ''}"
                  f"{args.brokers} broker(s) in {cluster.directory}", file=sys.stderr, flush=True)
            cluster.start(timeout=args.timeout)
            controller = cluster.controller_id()
            print(f"zookeeper: {cluster.zookeeper_connect}\ncontroller: {controller}\n"
                  f"dir: {cluster.directory}\nbootstrap: {cluster.bootstrap}", flush=True)
            print("kwire cluster: running; Ctrl-C stops it", file=sys.stderr, flush=True)
            reported: set[str] = set()
            while True:
                for dead in cluster.dead_processes():
                    if dead not in reported:
                        reported.add(dead)
                        print(f"kwire cluster: {dead} has exited", file=sys.stderr, flush=True)
                time.sleep(0.5)
        except _Stop:
            pass
        except ZooKeeperMissing as e:
            print(f"{PROG}: error: {e}", file=sys.stderr)
            return EXIT_USAGE
        except ClusterError as e:
            raise ToolError(str(e)) from None
        finally:
            try:
                if cluster.state_name not in ("stopped", "new"):
                    print("kwire cluster: stopping", file=sys.stderr, flush=True)
                    codes = cluster.stop()
                    print("kwire cluster: stopped (exit codes: "
                          + ", ".join(f"{k} {v}" for k, v in codes.items()) + ")", file=sys.stderr,
                          flush=True)
            except _Stop:  # a signal during the stop: the handler already escalated
                pass
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        if temp:
            shutil.rmtree(directory, ignore_errors=True)
    return EXIT_OK


def _detach(args) -> int:
    """Run ``up`` without --detach in a new session; return once it is up (or failed)."""
    directory = os.path.abspath(args.dir)
    os.makedirs(directory, exist_ok=True)
    state = read_state(directory)
    if state and state.get("state") == "running" and pid_alive(state.get("supervisor_pid")):
        raise ToolError(f"a cluster is already running in {directory} (pid {state['supervisor_pid']})")
    argv = [sys.executable, "-m", "kwire", "cluster", "up", *_reconstruct(args)]
    log_path = os.path.join(directory, "cluster.log")
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    deadline = time.monotonic() + args.timeout + 30
    while time.monotonic() < deadline:
        state = read_state(directory)
        if state and state.get("supervisor_pid") == proc.pid and state.get("state") == "running":
            print(f"zookeeper: {state['zookeeper']['connect']}{state['zookeeper']['chroot']}\n"
                  f"pid: {proc.pid}\ndir: {directory}\nbootstrap: {state['bootstrap']}", flush=True)
            return EXIT_OK
        if proc.poll() is not None:
            raise ToolError(f"the cluster did not start (exit {proc.returncode}); "
                            f"{log_path}:\n{_tail(log_path)}")
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    raise ToolError(f"the cluster did not come up within {args.timeout:.0f} s; see {log_path}")


def _reconstruct(args) -> list[str]:
    """The ``up`` options (but --detach) as a command line."""
    out = ["--brokers", str(args.brokers), "--dir", args.dir, "--grace", str(args.grace),
           "--timeout", str(args.timeout)]
    if args.zookeeper:
        out += ["--zookeeper", args.zookeeper]
    if args.port_base:
        out += ["--port-base", str(args.port_base)]
    if args.address_base:
        out += ["--address-base", args.address_base]
    for c in args.config or ():
        out += ["--config", c]
    for r in args.rack or ():
        out += ["--rack", r]
    return out


def _tail(path: str) -> str:
    from kwire.devcluster import tail

    return tail(path, 2000)


# -- down --------------------------------------------------------------------------------------

def _down(args) -> int:
    directory = os.path.abspath(args.dir)
    state = read_state(directory)
    if state is None:
        raise ToolError(f"no {STATE_FILE} in {directory}: no cluster was started there")
    pid = state.get("supervisor_pid")
    if not pid_alive(pid) or not _is_kwire(pid):
        stray = _stray_processes(state)
        for p in stray:
            os.kill(p, signal.SIGTERM)
        print(f"kwire cluster: not running in {directory}"
              + (f" (sent SIGTERM to leftover process(es) {', '.join(map(str, stray))})" if stray else ""))
        return EXIT_OK
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + args.timeout
    while pid_alive(pid):
        if time.monotonic() > deadline:
            raise ToolError(f"the cluster (pid {pid}) did not stop within {args.timeout:.0f} s")
        time.sleep(0.2)
    print(f"kwire cluster: stopped the cluster in {directory}")
    return EXIT_OK


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _is_kwire(pid: int) -> bool:
    return "kwire" in _cmdline(pid) or not os.path.isdir("/proc")


def _stray_processes(state: dict) -> list[int]:
    """Brokers and ZooKeeper of a supervisor that died, still running (checked by command line,
    so a recycled pid is left alone)."""
    out = []
    zk = state.get("zookeeper") or {}
    if zk.get("pid") and pid_alive(zk["pid"]) and "zookeeper" in _cmdline(zk["pid"]).lower():
        out.append(zk["pid"])
    for b in state.get("brokers", ()):
        if b.get("pid") and pid_alive(b["pid"]) and "kwire" in _cmdline(b["pid"]):
            out.append(b["pid"])
    return out


# -- status ------------------------------------------------------------------------------------

def _status(args) -> int:
    state = None
    if args.dir:
        state = read_state(os.path.abspath(args.dir))
        if state is None:
            raise ToolError(f"no {STATE_FILE} in {os.path.abspath(args.dir)}: no cluster was started there")
        addresses = [f"{b['host']}:{b['port']}" for b in state["brokers"]]
    else:
        addresses = (args.bootstrap_server or "127.0.0.1:9092").split(",")
    md, problems = None, []
    for address in addresses:  # the first broker that answers
        try:
            with KafkaClient(address, client_id="kwire-cli", timeout=args.request_timeout_ms / 1000) as c:
                md = c.metadata(None)
            break
        except (KafkaClientError, OSError) as e:
            problems.append(f"{address}: {e}")
    if state is not None:
        zk = state["zookeeper"]
        print(f"Cluster dir: {state['dir']}\tState: {state['state']}\tZooKeeper: {zk['connect']}{zk['chroot']}")
    if md is None:
        if state is not None:
            _print_brokers(state, None)
        raise ToolError("no broker answered: " + "; ".join(problems))
    controller = md.controller_id if md.controller_id in md.brokers else None
    print(f"ClusterId: {md.cluster_id}\tController: {controller if controller is not None else 'none'}")
    _print_brokers(state, md)
    under, offline = [], []
    for name in sorted(md.topics):
        t = md.topics[name]
        for i in sorted(t.partitions):
            p = t.partitions[i]
            line = (f"\tTopic: {name}\tPartition: {i}\tLeader: {p.leader if p.leader >= 0 else 'none'}\t"
                    f"Replicas: {_ids(p.replicas)}\tIsr: {_ids(p.isr)}")
            if p.leader < 0 or p.leader not in md.brokers:
                offline.append(line)
            elif len(p.isr) < len(p.replicas):
                under.append(line)
    print(f"UnderReplicatedPartitions: {len(under)}")
    for line in under:
        print(line)
    print(f"OfflinePartitions: {len(offline)}")
    for line in offline:
        print(line)
    return EXIT_OK


def _print_brokers(state: dict | None, md) -> None:
    rows: dict[int, list[str]] = {}
    known = {b["id"]: b for b in state["brokers"]} if state else {}
    registered = md.brokers if md is not None else {}
    for node_id in sorted(set(known) | set(registered)):
        b = registered.get(node_id)
        address = f"{b.host}:{b.port}" if b else f"{known[node_id]['host']}:{known[node_id]['port']}"
        rack = (b.rack if b else known[node_id].get("rack")) or "-"
        alive = "yes" if b else "no"
        if b is None and node_id in known and pid_alive(known[node_id].get("pid")) and md is not None:
            alive = "no (process running, not registered)"
        rows[node_id] = [str(node_id), address, rack, alive]
    print("Brokers:")
    for cells in rows.values():
        print(f"\tId: {cells[0]}\tAddress: {cells[1]}\tRack: {cells[2]}\tAlive: {cells[3]}")


def _ids(ids) -> str:
    return ",".join(str(i) for i in ids)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
