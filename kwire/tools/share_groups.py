"""``kwire share-groups list|describe|reset-offsets|delete``: share group administration (KIP-932).

Shaped after Kafka's ``kafka-share-groups.sh``, as subcommands instead of
flags. Every subcommand takes ``--bootstrap-server`` (default 127.0.0.1:9092).

* ``list``: every share group with its state (ListGroups v5+, type ``share``),
  a ``GROUP STATE`` table.
* ``describe --group G [--members]``: one line per share partition the group
  has state for: GROUP, TOPIC, PARTITION, START-OFFSET, LAG
  (DescribeShareGroupOffsets v1); ``--members``: MEMBER-ID, HOST, CLIENT-ID,
  EPOCH, ASSIGNMENT (ShareGroupDescribe). An unknown group is an error (exit 1).
* ``reset-offsets --group G --topic T[:P,P...]... (--to-earliest | --to-latest
  | --to-offset N) [--dry-run | --execute]``: prints ``GROUP TOPIC PARTITION
  NEW-OFFSET`` and applies it (AlterShareGroupOffsets) only with
  ``--execute``; the broker refuses a group with members (NON_EMPTY_GROUP).
* ``delete --group G... [--topic T...]``: DeleteGroups; with ``--topic`` only
  the group's state for those topics (DeleteShareGroupOffsets).

Not implemented: ``--to-datetime``, ``--by-duration``, ``--shift-by``,
``--all-topics`` of reset-offsets, ``--state`` of list, ``--verbose``.
"""

from __future__ import annotations

import argparse
import sys

from kwire.client import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, KafkaClient, KafkaClientError, _check
from kwire.protocol.generated.alter_share_group_offsets_request import (
    AlterShareGroupOffsetsRequest, AlterShareGroupOffsetsRequestPartition, AlterShareGroupOffsetsRequestTopic,
)
from kwire.protocol.generated.delete_share_group_offsets_request import (
    DeleteShareGroupOffsetsRequest, DeleteShareGroupOffsetsRequestTopic,
)

from .common import EXIT_ERROR, EXIT_OK, UsageError, add_connection_options, connect, run
from .groups import _table

PROG = "kwire share-groups"
ALTER_OFFSETS, DELETE_OFFSETS = 91, 92


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    add_connection_options(common)
    p = argparse.ArgumentParser(prog=PROG, description="List, describe and delete share groups; reset "
                                                       "their start offsets.")
    sub = p.add_subparsers(dest="action", metavar="{list,describe,reset-offsets,delete}")
    sub.required = True
    sub.add_parser("list", parents=[common], help="list share groups with their state")
    d = sub.add_parser("describe", parents=[common], help="start offsets and lag (or members) of a share group")
    d.add_argument("--group", required=True)
    d.add_argument("--members", action="store_true", help="the members and their assignments instead")
    x = sub.add_parser("reset-offsets", parents=[common], help="move an empty share group's start offsets")
    x.add_argument("--group", required=True)
    x.add_argument("--topic", action="append", required=True, metavar="TOPIC[:P,P...]")
    to = x.add_mutually_exclusive_group(required=True)
    to.add_argument("--to-earliest", action="store_true", help="the log start offset")
    to.add_argument("--to-latest", action="store_true", help="the log end offset")
    to.add_argument("--to-offset", type=int, metavar="N", help="offset N")
    mode = x.add_mutually_exclusive_group()
    mode.add_argument("--execute", action="store_true", help="apply the new offsets")
    mode.add_argument("--dry-run", action="store_true", help="only print the plan (the default)")
    r = sub.add_parser("delete", parents=[common], help="delete share groups, or their state for topics")
    r.add_argument("--group", action="append", required=True, help="group to delete (repeatable)")
    r.add_argument("--topic", action="append", help="only the group's state for this topic (repeatable)")
    return p


def main(argv: list[str] | None = None) -> int:
    return run(PROG, build_parser(), argv, _dispatch)


def _dispatch(args) -> int:
    with connect(args) as client:
        return {"list": _list, "describe": _describe, "reset-offsets": _reset,
                "delete": _delete}[args.action](client, args)


def _on_coordinator(client: KafkaClient, group: str, api_key: int, request):
    return client._group_request(group, lambda node: client.request(api_key, request, node=node))


def _list(client: KafkaClient, args) -> int:
    groups = [(g.group_id, g.state) for g in client.list_groups() if (g.group_type or "") == "share"]
    if groups:
        print(_table(["GROUP", "STATE"], sorted(groups)))
    return EXIT_OK


def _describe(client: KafkaClient, args) -> int:
    group = args.group
    described = client.share_group_describe(group)
    if args.members:
        rows = [[group, m.member_id, m.client_host, m.client_id, m.member_epoch,
                 ",".join(f"{tp.topic_name}:{','.join(map(str, tp.partitions))}"
                          for tp in m.assignment.topic_partitions) or None] for m in described.members]
        if rows:
            print(_table(["GROUP", "MEMBER-ID", "HOST", "CLIENT-ID", "EPOCH", "ASSIGNMENT"], rows))
        else:
            print(f"Share group '{group}' has no active members.", file=sys.stderr)
        return EXIT_OK
    rows = [[group, *row] for row in client.share_group_offsets(group)]
    if rows:
        print(_table(["GROUP", "TOPIC", "PARTITION", "START-OFFSET", "LAG"], rows))
    print(f"Share group '{group}' is {described.group_state} with {len(described.members)} member(s).",
          file=sys.stderr)
    return EXIT_OK


def _targets(client: KafkaClient, specs: list[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for spec in specs:
        topic, _, parts = spec.partition(":")
        if not topic:
            raise UsageError(f"--topic: empty topic in {spec!r}")
        try:
            wanted = [int(p) for p in parts.split(",")] if parts else None
        except ValueError:
            raise UsageError(f"--topic: bad partition list in {spec!r}") from None
        info = client.topic(topic)
        out[topic] = wanted if wanted is not None else sorted(info.partitions)
    return out


def _reset(client: KafkaClient, args) -> int:
    plan = []
    for topic, parts in _targets(client, args.topic).items():
        if args.to_offset is not None:
            offsets = dict.fromkeys(parts, args.to_offset)
        else:
            ts = EARLIEST_TIMESTAMP if args.to_earliest else LATEST_TIMESTAMP
            offsets = {p: o for p, (o, _) in client.list_offsets_many(topic, dict.fromkeys(parts, ts)).items()}
        plan += [(topic, p, offsets[p]) for p in parts]
    print(_table(["GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"], [[args.group, t, p, o] for t, p, o in plan]))
    if not args.execute:
        return EXIT_OK
    by_topic: dict[str, list] = {}
    for t, p, o in plan:
        by_topic.setdefault(t, []).append(AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=o))
    resp = _on_coordinator(client, args.group, ALTER_OFFSETS, AlterShareGroupOffsetsRequest(
        group_id=args.group, topics=[AlterShareGroupOffsetsRequestTopic(topic_name=t, partitions=ps)
                                     for t, ps in by_topic.items()]))
    _check(resp.error_code, resp.error_message, f"share group {args.group!r}")
    failed = [(t.topic_name, p.partition_index, KafkaClientError(p.error_code, p.error_message))
              for t in resp.responses for p in t.partitions if p.error_code]
    for topic, p, err in failed:
        print(f"{PROG}: error: {topic}-{p}: {err}", file=sys.stderr)
    return EXIT_ERROR if failed else EXIT_OK


def _delete(client: KafkaClient, args) -> int:
    groups = list(dict.fromkeys(args.group))
    if args.topic:
        failed = False
        for group in groups:
            resp = _on_coordinator(client, group, DELETE_OFFSETS, DeleteShareGroupOffsetsRequest(
                group_id=group, topics=[DeleteShareGroupOffsetsRequestTopic(topic_name=t) for t in args.topic]))
            _check(resp.error_code, resp.error_message, f"share group {group!r}")
            for t in resp.responses:
                if t.error_code:
                    failed = True
                    print(f"{PROG}: error: {group} {t.topic_name}: {KafkaClientError(t.error_code, t.error_message)}",
                          file=sys.stderr)
                else:
                    print(f"Deleted the state of share group '{group}' for topic '{t.topic_name}'.")
        return EXIT_ERROR if failed else EXIT_OK
    results = client.delete_groups(groups)
    for g in groups:
        if results[g] == 0:
            print(f"Deletion of share group '{g}' was successful.")
        else:
            print(f"{PROG}: error: share group '{g}' could not be deleted: {KafkaClientError(results[g])}",
                  file=sys.stderr)
    return EXIT_ERROR if any(results[g] for g in groups) else EXIT_OK
