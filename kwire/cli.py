"""The ``kwire`` command: ``serve`` a broker (other subcommands live in kwire/tools/).

``kwire serve [server.properties] [--override KEY=VALUE]...`` has the shape of
Kafka's ``kafka-server-start.sh``: a Kafka-style properties file, overrides
on top. Without a file the broker is a dev broker: Kafka's shipped
server.properties settings (internal topics with one replica, no first-
rebalance delay...) on kwire's single node, ./kwire-data, 127.0.0.1:9092; a
file starts from Kafka's code defaults, as Kafka does. Unknown keys are warned
about; bad values, and settings kwire cannot honour whose absence would
change safety (security protocols, an authorizer, a controller quorum), are
a clear error naming the key and exit code 2. Keys kwire accepts but does
not act on are logged at start-up. With ``zookeeper.connect`` the broker
joins a replicated cluster kept in ZooKeeper (Kafka 3.x ZooKeeper mode): a
ZooKeeper it cannot reach within ``zookeeper.connection.timeout.ms``, or a
``broker.id`` another live broker registered, is an error naming it and
exit code 1.

``kwire serve --help-configs`` prints every Kafka 4.3 broker config kwire
knows: its default (dev and Kafka), update mode, and whether kwire acts on it.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

SUBCOMMANDS = {
    # name: (module, help)
    "topics": ("kwire.tools.topics", "create, list, describe, alter, delete topics"),
    "produce": ("kwire.tools.produce", "produce lines from stdin"),
    "consume": ("kwire.tools.consume", "consume records to stdout"),
    "groups": ("kwire.tools.groups", "list, describe, delete consumer groups; reset their offsets"),
    "share-groups": ("kwire.tools.share_groups", "list, describe, delete share groups; reset their offsets"),
    "cluster": ("kwire.tools.cluster", "run a local ZooKeeper + N-broker cluster; its status"),
    "bench": ("kwire.bench.command", "benchmark throughput and latency (optionally vs a peer broker)"),
    "health": ("kwire.tools.health", "exit 0 if a broker answers ApiVersions, else 1 (health checks)"),
    "users": ("kwire.tools.users", "list, add, delete users' SCRAM credentials"),
    "acls": ("kwire.tools.acls", "list, add, remove ACLs"),
    "schemas": ("kwire.tools.schemas", "list, get, register, check schemas in a Schema Registry"),
    "nemesis": ("kwire.nemesis.command", "cut links of a one-machine cluster with iptables, then heal"),
}


def _log_levels(text: str) -> tuple[str, dict[str, str]]:
    """``INFO,kwire.replication=DEBUG`` -> ("INFO", {"kwire.replication": "DEBUG"})."""
    root, per_logger = "INFO", {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        name, _, level = item.rpartition("=")
        level = level.strip().upper()
        if level not in logging.getLevelNamesMapping():
            raise ValueError(f"unknown level {level!r} in {item!r}")
        if name:
            per_logger[name.strip()] = level
        else:
            root = level
    return root, per_logger


def _serve(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="kwire serve", description="Run a kwire broker.")
    p.add_argument("properties", nargs="?", help="a Kafka-style server.properties file")
    p.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                   help="set a config key, overriding the file (repeatable)")
    p.add_argument("--log-level", default=os.environ.get("KWIRE_LOG_LEVEL", "INFO"),
                   help="LEVEL, or LEVEL,logger=LEVEL,... (e.g. INFO,kwire.replication=DEBUG); "
                        "default $KWIRE_LOG_LEVEL or INFO")
    p.add_argument("--help-configs", action="store_true",
                   help="list every broker config: defaults, update mode, whether kwire acts on it")
    args = p.parse_args(argv)
    if args.help_configs:
        _print_configs()
        return 0
    try:
        root_level, per_logger = _log_levels(args.log_level)
    except ValueError as e:
        print(f"kwire serve: --log-level: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(level=root_level, stream=sys.stdout,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for name, level in per_logger.items():
        logging.getLogger(name).setLevel(level)
    from kwire.config import BrokerConfig, ConfigError

    overrides = {}
    for item in args.override:
        if "=" not in item:
            print(f"kwire serve: --override needs KEY=VALUE, got {item!r}", file=sys.stderr)
            return 2
        k, v = item.split("=", 1)
        overrides[k.strip()] = v.strip()
    try:
        config = BrokerConfig.load(args.properties, overrides)
    except (ConfigError, OSError) as e:
        print(f"kwire serve: {e}", file=sys.stderr)
        return 2
    for w in config.warnings:
        logging.getLogger("kwire.config").warning("%s", w)
    inert = config.not_acted()
    if inert:
        logging.getLogger("kwire.config").warning(
            "kwire accepts and reports these Kafka configs but does not act on them: %s",
            ", ".join(inert))
    from kwire.cluster.errors import ZooKeeperConnectError  # not zk_store: kazoo only in cluster mode
    from kwire.log import AllLogDirsOffline
    from kwire.protocol.errors import KafkaError
    from kwire.server.app import serve

    try:
        return serve(config)
    except ConfigError as e:  # e.g. an SSL keystore that cannot be read (kwire.security)
        print(f"kwire serve: {e}", file=sys.stderr)
        return 2
    except AllLogDirsOffline as e:  # Kafka halts too: nothing could be served
        logging.getLogger("kwire.log").critical("%s", e)
        return 1
    except ZooKeeperConnectError as e:  # cluster mode: ZooKeeper unreachable at start-up
        logging.getLogger("kwire.cluster").critical("%s", e)
        print(f"kwire serve: {e}", file=sys.stderr)
        return 1
    except KafkaError as e:  # cluster mode: e.g. broker.id already registered by another broker
        if not config.zookeeper_connect:
            raise
        logging.getLogger("kwire.cluster").critical("cannot join the cluster: %s", e.message or e.code.name)
        print(f"kwire serve: cannot join the cluster: {e.message or e.code.name}", file=sys.stderr)
        return 1


def _print_configs() -> None:
    from kwire.config import BROKER_CONFIGS
    from kwire.config.definitions import DEV_DEFAULTS

    print("Broker configs (Kafka 4.3 names). Columns: name, update mode, default without a "
          "properties file (dev), default with one (file; Kafka's where kwire differs), and "
          "whether kwire acts on it.\n"
          "acts=no: kwire accepts, stores and reports the value but ignores it.\n")
    rows = []
    for name, d in sorted(BROKER_CONFIGS.items()):
        if d.internal:
            continue
        mode = "read-only" if d.read_only else ("per-broker" if d.per_broker else "cluster-wide")
        default = d.to_string(d.default)
        dev = DEV_DEFAULTS.get(name, default)
        shown = "null" if default is None else default
        if d.kafka_default != d.default:
            shown += f" (Kafka: {d.to_string(d.kafka_default)})"
        rows.append((name, mode, "null" if dev is None else dev, shown, "yes" if d.acted else "no"))
    width = max(len(r[0]) for r in rows)
    for name, mode, dev, default, acted in rows:
        print(f"{name:<{width}}  {mode:<12}  dev={_clip(dev)}  file={_clip(default, 60)}  acts={acted}")


def _clip(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    usage = "usage: kwire {serve," + ",".join(SUBCOMMANDS) + "} ..."
    if not argv or argv[0] in ("-h", "--help"):
        print(usage)
        print("\n  serve      run a broker (Kafka-style server.properties, --override KEY=VALUE)")
        for name, (_, text) in SUBCOMMANDS.items():
            print(f"  {name:<10} {text}")
        return 0 if argv else 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "serve":
        return _serve(rest)
    if cmd in SUBCOMMANDS:
        import importlib

        return importlib.import_module(SUBCOMMANDS[cmd][0]).main(rest)
    print(f"kwire: unknown command {cmd!r}\n{usage}", file=sys.stderr)
    return 2
