"""The ``kwire`` command: ``serve`` a broker (other subcommands live in kwire/tools/).

``kwire serve [server.properties] [--override KEY=VALUE]...`` has the shape of
Kafka's ``kafka-server-start.sh``: a Kafka-style properties file, overrides
on top, embedded defaults (single node, ./kwire-data, 127.0.0.1:9092) when
there is no file. Unknown keys are warned about; bad values are a clear error
and exit code 2.
"""

from __future__ import annotations

import argparse
import logging
import sys

SUBCOMMANDS = {
    # name: (module, help)
    "topics": ("kwire.tools.topics", "create, list, describe, alter, delete topics"),
    "produce": ("kwire.tools.produce", "produce lines from stdin"),
    "consume": ("kwire.tools.consume", "consume records to stdout"),
    "groups": ("kwire.tools.groups", "list, describe, delete consumer groups; reset their offsets"),
    "bench": ("kwire.bench.command", "benchmark throughput and latency (optionally vs a peer broker)"),
}


def _serve(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="kwire serve", description="Run a kwire broker.")
    p.add_argument("properties", nargs="?", help="a Kafka-style server.properties file")
    p.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                   help="set a config key, overriding the file (repeatable)")
    p.add_argument("--log-level", default="INFO")
    args = p.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stdout,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
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
    from kwire.server.app import serve

    return serve(config)


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
