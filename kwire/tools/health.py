"""``kwire health``: is a broker up and answering Kafka requests? (container health checks)

``kwire health [--bootstrap-server HOST:PORT[,...]] [--timeout-ms MS] [--require-controller]``

* For every listed address: connect and complete an ApiVersions round trip
  (what every Kafka client does first). ``--require-controller`` adds a
  Metadata request that must name a live controller and include the broker
  itself (a cluster broker that has registered and sees a controller).
* Exit code 0 and one line ``ok <address>: <n> APIs[, controller <id>]`` per
  address when all answer; exit code 1 and ``kwire health: <address>: <why>``
  on stderr at the first that does not (refused, timed out, a Kafka error);
  2 for a bad command line.
* Default address ``127.0.0.1:9092`` (``$KWIRE_HEALTH_BOOTSTRAP`` overrides
  it), default timeout 5000 ms per request: meant for ``HEALTHCHECK`` /
  compose ``healthcheck: test: ["CMD", "kwire", "health"]`` inside the
  broker's own container.

It checks reachability and protocol, not data: it reads no partition and
writes nothing. Not an HTTP endpoint (the broker serves only Kafka here).
"""

from __future__ import annotations

import argparse
import os
import sys

from kwire.client import KafkaClient, KafkaClientError, parse_bootstrap

from .common import EXIT_ERROR, EXIT_OK, UsageError, positive_int, run

PROG = "kwire health"
DEFAULT = "127.0.0.1:9092"
API_API_VERSIONS = 18


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=PROG, description="Check that a broker answers Kafka requests "
                                "(exit code 0) or not (1); for container health checks.")
    p.add_argument("--bootstrap-server", "-b", default=os.environ.get("KWIRE_HEALTH_BOOTSTRAP", DEFAULT),
                   metavar="HOST:PORT", help=f"address(es) to check, comma-separated (default {DEFAULT}, "
                   "or $KWIRE_HEALTH_BOOTSTRAP)")
    p.add_argument("--timeout-ms", type=positive_int, default=5000, metavar="MS",
                   help="connect and request timeout (default 5000)")
    p.add_argument("--require-controller", action="store_true",
                   help="also require Metadata to list this broker and a controller (cluster mode)")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing when healthy")
    return p


class Unhealthy(Exception):
    """The broker answered, but not as a healthy cluster member does."""


def check(address: str, timeout_s: float, require_controller: bool = False) -> str:
    """One address: the ``ok`` line, or ``KafkaClientError`` / ``OSError`` / ``Unhealthy``."""
    with KafkaClient(address, client_id="kwire-health", timeout=timeout_s) as c:
        conn = c._connection(None)  # opens the socket and completes ApiVersions
        line = f"ok {address}: {len(conn.versions)} APIs"
        if require_controller:
            md = c.metadata([])
            if md.controller_id < 0 or md.controller_id not in md.brokers:
                raise Unhealthy(f"no live controller in the metadata (controller id {md.controller_id})")
            _, port = parse_bootstrap(address)[0]
            if not any(b.port == port for b in md.brokers.values()):
                raise Unhealthy(f"the metadata lists no broker on port {port} (not registered yet)")
            line += f", controller {md.controller_id}, {len(md.brokers)} brokers"
        return line


def _health(args) -> int:
    try:
        addresses = [f"{h}:{p}" for h, p in parse_bootstrap(args.bootstrap_server)]
    except ValueError as e:
        raise UsageError(f"--bootstrap-server: {e}") from None
    for address in addresses:
        try:
            line = check(address, args.timeout_ms / 1000, args.require_controller)
        except (KafkaClientError, OSError, Unhealthy) as e:
            print(f"{PROG}: {address}: {e}", file=sys.stderr)
            return EXIT_ERROR
        if not args.quiet:
            print(line)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    return run(PROG, build_parser(), argv, _health)
