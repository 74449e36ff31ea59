"""``kwire topics create|list|describe|alter|delete``: topic administration.

Shaped after Kafka's ``kafka-topics.sh``, as subcommands instead of
``--create``/``--list``/... flags:

* ``create --topic T [--partitions N] [--replication-factor R] [--config k=v]...
  [--if-not-exists]``: CreateTopics; without ``--partitions`` or
  ``--replication-factor`` the broker's ``num.partitions`` /
  ``default.replication.factor`` apply. Prints ``Created topic T.``
* ``list [--topic REGEX] [--exclude-internal]``: names, sorted, one a line.
* ``describe [TOPIC...] [--topic T]... [--exclude-internal]
  [--under-replicated-partitions] [--unavailable-partitions]
  [--under-min-isr-partitions]``: one summary line per topic (id, partition
  count, replication factor, every config whose source is not DEFAULT_CONFIG,
  as kafka-topics.sh shows) and one line per partition with leader, leader
  epoch, replicas, isr, offline replicas when there are any, and
  ``UnderReplicated: true`` when the ISR is smaller than the replica set.
  Without a topic: every topic. The filters, as kafka-topics.sh's, print only
  the partitions that match (and no summary lines): ISR smaller than the
  replicas (with a leader); no leader, or a leader that is not a live broker;
  ISR smaller than the topic's ``min.insync.replicas`` (with a leader).
  Compacted partitions get ``CleanableRatio: R`` (dirty / total bytes of the
  log below its active segment, as the cleaner chooses by). Kafka has no API
  for it, only a metric, so it is read from the brokers' Prometheus endpoints
  (``kwire_log_cleanable_ratio``): those given with ``--metrics URL``, or else
  each leader's, found through its broker configs (``metrics.listeners``, or
  ``metrics.port`` on a broker reached over loopback). When a compacted
  partition's ratio cannot be had (no endpoint configured, ``metrics.port=0``,
  unreachable), a note on stderr says why and how to get it; stdout is then
  kafka-topics.sh's lines alone.
* ``alter --topic T [--partitions N] [--config k=v]... [--delete-config k]...
  [--if-exists]``: CreatePartitions to grow to N, then IncrementalAlterConfigs
  (SET / DELETE). Unlike kafka-topics.sh, configs are altered here too rather
  than in a separate kafka-configs.sh.
* ``delete --topic T... [--if-exists]``: DeleteTopics.

Not implemented: regex topic selection for describe/alter/delete, manual
replica assignment, ``--at-min-isr-partitions``.
"""

from __future__ import annotations

import argparse
import re
import sys

from kwire.client import RESOURCE_BROKER, RESOURCE_TOPIC, KafkaClient, KafkaClientError, NewTopic
from kwire.protocol.errors import ErrorCode

from .common import (
    EXIT_OK,
    ToolError,
    UsageError,
    add_connection_options,
    connect,
    parse_key_values,
    positive_int,
    run,
)

PROG = "kwire topics"


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    add_connection_options(common)

    p = argparse.ArgumentParser(prog=PROG, description="Create, list, describe, alter and delete topics.")
    sub = p.add_subparsers(dest="action", metavar="{create,list,describe,alter,delete}")
    sub.required = True

    c = sub.add_parser("create", parents=[common], help="create a topic",
                       description="Create a topic.")
    c.add_argument("--topic", required=True)
    c.add_argument("--partitions", type=positive_int,
                   help="number of partitions (default: the broker's num.partitions)")
    c.add_argument("--replication-factor", type=positive_int,
                   help="replicas per partition (default: the broker's default.replication.factor)")
    c.add_argument("--config", action="append", metavar="KEY=VALUE",
                   help="a topic config override, e.g. cleanup.policy=compact (repeatable)")
    c.add_argument("--if-not-exists", action="store_true",
                   help="succeed quietly when the topic already exists")

    ls = sub.add_parser("list", parents=[common], help="list topic names",
                        description="List topic names, one a line.")
    ls.add_argument("--topic", metavar="REGEX", help="only names matching this regular expression")
    ls.add_argument("--exclude-internal", action="store_true", help="leave out internal topics")

    d = sub.add_parser("describe", parents=[common], help="show partitions and configs",
                       description="Show partitions (leader, leader epoch, replicas, isr) and "
                                   "non-default configs.")
    d.add_argument("topics", nargs="*", metavar="TOPIC", help="topics to describe (default: all)")
    d.add_argument("--topic", action="append", help="topic to describe (repeatable; default: all)")
    d.add_argument("--exclude-internal", action="store_true", help="leave out internal topics")
    d.add_argument("--under-replicated-partitions", action="store_true",
                   help="only partitions whose ISR is smaller than their replica set")
    d.add_argument("--unavailable-partitions", action="store_true",
                   help="only partitions without a leader, or whose leader is not a live broker")
    d.add_argument("--metrics", metavar="URL", action="append",
                   help="a broker's metrics endpoint (http://HOST:PORT, repeatable) to read each "
                        "compacted partition's CleanableRatio from (Kafka has no API for it); "
                        "default: each leader's endpoint, from its metrics.listeners / "
                        "metrics.port broker config")
    d.add_argument("--under-min-isr-partitions", action="store_true",
                   help="only partitions whose ISR is smaller than min.insync.replicas")

    a = sub.add_parser("alter", parents=[common], help="add partitions or change configs",
                       description="Add partitions to a topic and/or change its configs.")
    a.add_argument("--topic", required=True)
    a.add_argument("--partitions", type=positive_int, help="new total number of partitions")
    a.add_argument("--config", action="append", metavar="KEY=VALUE",
                   help="set a topic config (repeatable)")
    a.add_argument("--delete-config", action="append", metavar="KEY",
                   help="remove a topic config override, back to the default (repeatable)")
    a.add_argument("--if-exists", action="store_true",
                   help="succeed quietly when the topic does not exist")

    r = sub.add_parser("delete", parents=[common], help="delete topics",
                       description="Delete topics.")
    r.add_argument("--topic", action="append", required=True, help="topic to delete (repeatable)")
    r.add_argument("--if-exists", action="store_true",
                   help="succeed quietly when the topic does not exist")
    return p


def main(argv: list[str] | None = None) -> int:
    return run(PROG, build_parser(), argv, _dispatch)


def _dispatch(args) -> int:
    with connect(args) as client:
        return {"create": _create, "list": _list, "describe": _describe,
                "alter": _alter, "delete": _delete}[args.action](client, args)


def _create(client: KafkaClient, args) -> int:
    configs = parse_key_values(args.config, "--config")
    topic = NewTopic(args.topic, num_partitions=args.partitions or -1,
                     replication_factor=args.replication_factor or -1, configs=configs)
    try:
        client.create_topics([topic], timeout_ms=args.request_timeout_ms)
    except KafkaClientError as e:
        if e.code == ErrorCode.TOPIC_ALREADY_EXISTS and args.if_not_exists:
            return EXIT_OK
        raise
    print(f"Created topic {args.topic}.")
    return EXIT_OK


def _list(client: KafkaClient, args) -> int:
    pattern = None
    if args.topic:
        try:
            pattern = re.compile(args.topic)
        except re.error as e:
            raise UsageError(f"--topic is not a valid regular expression: {e}") from None
    md = client.metadata(None)
    for name in sorted(md.topics):
        t = md.topics[name]
        if args.exclude_internal and t.is_internal:
            continue
        if pattern is not None and not pattern.fullmatch(name):
            continue
        print(name)
    return EXIT_OK


def _describe(client: KafkaClient, args) -> int:
    wanted = list(dict.fromkeys([*args.topics, *(args.topic or ())])) or None
    md = client.metadata(wanted)  # None: all topics
    names = wanted or sorted(md.topics)
    missing = [n for n in names if n not in md.topics
               or md.topics[n].error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]
    if missing:
        raise ToolError(", ".join(f"Topic '{n}' does not exist as expected" for n in missing))
    filtered = (args.under_replicated_partitions or args.unavailable_partitions
                or args.under_min_isr_partitions)
    shown_names = []
    topic_configs = {}
    for name in names:
        t = md.topics[name]
        if args.exclude_internal and t.is_internal:
            continue
        if t.error_code:
            raise KafkaClientError(t.error_code, f"topic {name!r}")
        shown_names.append(name)
        if not filtered or args.under_min_isr_partitions:
            topic_configs[name] = client.describe_configs(RESOURCE_TOPIC, name)
    # compacted partitions, by leader: those that have a cleanable ratio to show
    compacted = {(name, p.partition): p.leader for name, configs in topic_configs.items()
                 if any(c.name == "cleanup.policy" and "compact" in (c.value or "").split(",")
                        for c in configs)
                 for p in md.topics[name].partitions.values()}
    why: list[str] = []
    if args.metrics:
        ratios = _cleanable_ratios(args.metrics)
    else:
        ratios, why = _discovered_ratios(client, md, compacted) if compacted else ({}, [])
    unreported = sorted(k for k in compacted if k not in ratios)
    if unreported and not why:
        why.append("the metrics read do not report " + ", ".join(f"{t}-{p}" for t, p in unreported))
    if unreported:
        print("Note: CleanableRatio of compacted partitions is not shown: Kafka has no API "
              "for it; kwire reads it from the brokers' metrics endpoint, and "
              + "; ".join(why) + ". Start the brokers with metrics.listeners=HTTP://HOST:PORT "
              "(or metrics.port=PORT), or pass --metrics http://HOST:PORT.", file=sys.stderr)
    out = []
    for name in shown_names:
        t = md.topics[name]
        parts = [t.partitions[i] for i in sorted(t.partitions)]
        configs = topic_configs.get(name)
        if not filtered:
            shown = ",".join(f"{c.name}={'' if c.value is None else c.value}"
                             for c in sorted(configs, key=lambda c: c.name) if not c.is_default)
            rf = len(parts[0].replicas) if parts else 0
            out.append(f"Topic: {name}\tTopicId: {t.topic_id}\tPartitionCount: {len(parts)}\t"
                       f"ReplicationFactor: {rf}\tConfigs: {shown}")
        min_isr = 1
        for c in configs or ():
            if c.name == "min.insync.replicas" and c.value:
                min_isr = int(c.value)
        for p in parts:
            has_leader = p.leader >= 0
            under = has_leader and len(p.isr) < len(p.replicas)
            if filtered and not (
                    (args.under_replicated_partitions and under)
                    or (args.unavailable_partitions and (not has_leader or p.leader not in md.brokers))
                    or (args.under_min_isr_partitions and has_leader and len(p.isr) < min_isr)):
                continue
            leader = str(p.leader) if has_leader else "none"
            line = (f"\tTopic: {name}\tPartition: {p.partition}\tLeader: {leader}\t"
                    f"LeaderEpoch: {p.leader_epoch}\tReplicas: {_ids(p.replicas)}\tIsr: {_ids(p.isr)}")
            if p.offline_replicas:
                line += f"\tOffline: {_ids(p.offline_replicas)}"
            if under:
                line += "\tUnderReplicated: true"
            if (name, p.partition) in ratios:
                line += f"\tCleanableRatio: {ratios[(name, p.partition)]:.2f}"
            out.append(line)
    if out:
        print("\n".join(out))
    return EXIT_OK


LOOPBACK = ("127.", "localhost", "::1")


def _metrics_url(client: KafkaClient, md, node: int) -> tuple[str | None, str | None]:
    """(URL of broker ``node``'s metrics endpoint, or None and why) from its broker configs."""
    try:
        configs = {c.name: c.value for c in client.describe_configs(RESOURCE_BROKER, str(node))}
    except KafkaClientError as e:
        return None, f"broker {node}'s configs could not be read ({e})"
    broker = md.brokers.get(node)
    kafka_host = broker.host if broker is not None else "127.0.0.1"
    for listener in (configs.get("metrics.listeners") or "").split(","):
        _scheme, sep, addr = listener.strip().rpartition("://")
        if not sep:
            continue
        host, _, port = addr.rpartition(":")
        host = host.strip("[]")
        if port.isdigit() and int(port) > 0:
            if host in ("", "0.0.0.0", "::"):  # every interface: the one clients reach it on
                host = kafka_host
            return f"http://{host}:{port}/metrics", None
    port = configs.get("metrics.port")
    if port and port.isdigit() and int(port) > 0:
        if kafka_host.startswith(LOOPBACK):  # metrics.port serves on 127.0.0.1 only
            return f"http://127.0.0.1:{port}/metrics", None
        return None, f"broker {node}'s metrics.port={port} serves on its own 127.0.0.1 only"
    if port == "0":
        return None, (f"broker {node} serves its metrics on a free port (metrics.port=0), "
                      "which its configs cannot tell")
    return None, f"broker {node} has no metrics endpoint (metrics.listeners and metrics.port unset)"


def _discovered_ratios(client: KafkaClient, md, compacted: dict[tuple[str, int], int]
                       ) -> tuple[dict[tuple[str, int], float], list[str]]:
    """The ratios of ``compacted`` ((topic, partition) -> leader) from each leader's own
    endpoint, and why some could not be had."""
    ratios: dict[tuple[str, int], float] = {}
    why: list[str] = []
    for node in sorted({n for n in compacted.values() if n >= 0}):
        url, reason = _metrics_url(client, md, node)
        if url is not None:
            try:
                ratios.update(_cleanable_ratios([url], timeout=3))
            except ToolError as e:
                reason = str(e)
        if reason:
            why.append(reason)
    if any(n < 0 for n in compacted.values()):
        why.append("a partition without a leader has no broker to ask")
    return ratios, why


def _cleanable_ratios(urls: list[str], timeout: float = 10) -> dict[tuple[str, int], float]:
    """``kwire_log_cleanable_ratio`` of every compacted partition the brokers at ``urls`` hold
    (the first broker that reports a partition wins: its replicas' ratios are alike)."""
    from urllib.request import urlopen

    from prometheus_client.parser import text_string_to_metric_families

    out: dict[tuple[str, int], float] = {}
    for url in urls:
        if "://" not in url:
            url = "http://" + url
        if not url.rstrip("/").endswith("/metrics"):
            url = url.rstrip("/") + "/metrics"
        try:
            with urlopen(url, timeout=timeout) as r:
                text = r.read().decode()
        except OSError as e:
            raise ToolError(f"could not read the metrics at {url}: {e}") from None
        for fam in text_string_to_metric_families(text):
            if fam.name != "kwire_log_cleanable_ratio":
                continue
            for sample in fam.samples:
                key = (sample.labels["topic"], int(sample.labels["partition"]))
                out.setdefault(key, sample.value)
    return out


def _alter(client: KafkaClient, args) -> int:
    set_configs = parse_key_values(args.config, "--config")
    delete_configs = list(args.delete_config or ())
    if args.partitions is None and not set_configs and not delete_configs:
        raise UsageError("alter needs --partitions, --config or --delete-config")
    both = set(set_configs) & set(delete_configs)
    if both:
        raise UsageError(f"both set and deleted: {', '.join(sorted(both))}")
    try:
        info = client.topic(args.topic)
    except KafkaClientError as e:
        if e.code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
            if args.if_exists:
                return EXIT_OK
            raise ToolError(f"Topic '{args.topic}' does not exist as expected") from None
        raise
    if args.partitions is not None:
        current = len(info.partitions)
        if args.partitions != current:
            client.create_partitions(args.topic, args.partitions, timeout_ms=args.request_timeout_ms)
            print(f"Altered topic {args.topic}: partitions {current} -> {args.partitions}.")
        else:
            print(f"Topic {args.topic} already has {current} partitions.", file=sys.stderr)
    if set_configs or delete_configs:
        client.incremental_alter_configs(RESOURCE_TOPIC, args.topic, set_configs, delete_configs)
        changes = [f"{k}={v}" for k, v in set_configs.items()] + [f"-{k}" for k in delete_configs]
        print(f"Altered topic {args.topic} configs: {', '.join(changes)}.")
    return EXIT_OK


def _delete(client: KafkaClient, args) -> int:
    md = client.metadata(args.topic)
    missing = [n for n in args.topic if n not in md.topics
               or md.topics[n].error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]
    if missing and not args.if_exists:
        raise ToolError(", ".join(f"Topic '{n}' does not exist as expected" for n in missing))
    names = [n for n in args.topic if n not in missing]
    if names:
        client.delete_topics(names, timeout_ms=args.request_timeout_ms)
    for n in names:
        print(f"Deleted topic {n}.")
    return EXIT_OK


def _ids(ids: list[int]) -> str:
    return ",".join(str(i) for i in ids)
