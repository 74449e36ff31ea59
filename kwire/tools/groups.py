"""``kwire groups list|describe|delete|reset-offsets``: consumer group administration.

Shaped after Kafka's ``kafka-consumer-groups.sh``, as subcommands instead of
``--list``/``--describe``/... flags. Every subcommand takes
``--bootstrap-server`` (default 127.0.0.1:9092).

* ``list [--state STATE]...``: every group with its state, a ``GROUP STATE``
  table sorted by group id (``--state`` keeps only groups in those states,
  matched case-insensitively as Kafka's tool does).
* ``describe --group G``: one line per partition the group has a committed
  offset for or a member is assigned: GROUP, TOPIC, PARTITION,
  CURRENT-OFFSET (the committed offset, ``-`` if none), LOG-END-OFFSET
  (ListOffsets latest), LAG, CONSUMER-ID, HOST, CLIENT-ID (``-`` for
  partitions no member holds). A group without members prints only the
  offset columns, after ``Consumer group 'G' has no active members.`` on
  stderr. A group that does not exist is an error (exit 1).
* ``delete --group G...``: DeleteGroups; a group with members is refused by
  the broker (NON_EMPTY_GROUP) and the tool exits 1.
* ``reset-offsets --group G (--topic T[:P,P...]... | --all-topics)
  (--to-earliest | --to-latest | --to-offset N | --to-datetime ISO |
  --shift-by N) [--dry-run | --execute]``: prints the plan as
  ``GROUP TOPIC PARTITION NEW-OFFSET`` and commits it only with
  ``--execute``. As in Kafka, only an inactive group (state Empty, or Dead:
  no such group yet) can be reset, new offsets are clamped to the partition's
  [log start, log end] range, ``--to-datetime`` takes the first offset whose
  timestamp is at or after the time (the log end when there is none; local
  time without a zone), and ``--shift-by`` needs a committed offset.
  ``--all-topics`` means the partitions the group has committed offsets for.

Groups are described with DescribeGroups, and KIP-848 (``consumer``
protocol) groups with ConsumerGroupDescribe; their states are the new
protocol's (Empty, Assigning, Reconciling, Stable). Not implemented: ``--members``/``--offsets``/``--state`` views of
describe, ``--all-groups``, ``--to-current``, ``--by-duration``,
``--from-file``, ``--export``, ``--delete-offsets``.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime

from kwire.client import (
    EARLIEST_TIMESTAMP,
    LATEST_TIMESTAMP,
    GroupDescription,
    KafkaClient,
    KafkaClientError,
)
from kwire.protocol.errors import ErrorCode

from .common import EXIT_ERROR, EXIT_OK, ToolError, UsageError, add_connection_options, connect, run

PROG = "kwire groups"
INACTIVE_STATES = ("Empty", "Dead")
_DELETE_REASONS = {
    ErrorCode.NON_EMPTY_GROUP: "The group is not empty.",
    ErrorCode.GROUP_ID_NOT_FOUND: "The group id does not exist.",
}


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    add_connection_options(common)

    p = argparse.ArgumentParser(prog=PROG, description="List, describe, delete consumer groups "
                                                       "and reset their offsets.")
    sub = p.add_subparsers(dest="action", metavar="{list,describe,delete,reset-offsets}")
    sub.required = True

    ls = sub.add_parser("list", parents=[common], help="list groups with their state",
                        description="List groups with their state.")
    ls.add_argument("--state", action="append", metavar="STATE",
                    help="only groups in this state, e.g. Stable or Empty (repeatable)")

    d = sub.add_parser("describe", parents=[common], help="offsets, lag and members of a group",
                       description="Committed offsets, log end offsets, lag and the member "
                                   "holding each partition.")
    d.add_argument("--group", required=True)

    r = sub.add_parser("delete", parents=[common], help="delete groups without members",
                       description="Delete groups (only groups without members).")
    r.add_argument("--group", action="append", required=True, help="group to delete (repeatable)")

    x = sub.add_parser("reset-offsets", parents=[common], help="move an inactive group's offsets",
                       description="Plan (default) or --execute new committed offsets for an "
                                   "inactive group.")
    x.add_argument("--group", required=True)
    which = x.add_mutually_exclusive_group(required=True)
    which.add_argument("--topic", action="append", metavar="TOPIC[:P,P...]",
                       help="a topic, all partitions or the listed ones (repeatable)")
    which.add_argument("--all-topics", action="store_true",
                       help="every partition the group has a committed offset for")
    to = x.add_mutually_exclusive_group(required=True)
    to.add_argument("--to-earliest", action="store_true", help="the log start offset")
    to.add_argument("--to-latest", action="store_true", help="the log end offset")
    to.add_argument("--to-offset", type=int, metavar="N", help="offset N (clamped to the log)")
    to.add_argument("--to-datetime", metavar="ISO",
                    help="the first offset at or after this time, e.g. 2024-05-01T12:00:00.000Z")
    to.add_argument("--shift-by", type=int, metavar="N", help="the committed offset plus N (may be negative)")
    mode = x.add_mutually_exclusive_group()
    mode.add_argument("--execute", action="store_true", help="commit the new offsets")
    mode.add_argument("--dry-run", action="store_true", help="only print the plan (the default)")
    return p


def main(argv: list[str] | None = None) -> int:
    return run(PROG, build_parser(), argv, _dispatch)


def _dispatch(args) -> int:
    with connect(args) as client:
        return {"list": _list, "describe": _describe, "delete": _delete,
                "reset-offsets": _reset_offsets}[args.action](client, args)


def _table(header: list[str], rows: list[list[object]]) -> str:
    cells = [header] + [["-" if v is None else str(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    return "\n".join(" ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells)


# -- list --------------------------------------------------------------------------------------

def _list(client: KafkaClient, args) -> int:
    groups = client.list_groups()
    if args.state:
        wanted = {s.lower() for s in args.state}
        groups = [g for g in groups if (g.state or "").lower() in wanted]
    if groups:
        print(_table(["GROUP", "STATE"], [[g.group_id, g.state or "Unknown"] for g in groups]))
    return EXIT_OK


# -- describe ------------------------------------------------------------------------------------

def _log_end_offsets(client: KafkaClient, partitions) -> dict[tuple[str, int], int | None]:
    """(topic, partition) -> log end offset; None for a topic or partition that is gone."""
    by_topic: dict[str, list[int]] = {}
    for topic, p in partitions:
        by_topic.setdefault(topic, []).append(p)
    out: dict[tuple[str, int], int | None] = {}
    for topic, ps in by_topic.items():
        try:
            got = client.list_offsets_many(topic, dict.fromkeys(ps, LATEST_TIMESTAMP))
        except KafkaClientError as e:
            if e.code not in (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.UNKNOWN_TOPIC_ID):
                raise
            got = {}
        for p in ps:
            out[(topic, p)] = got[p][0] if p in got else None
    return out


def _describe(client: KafkaClient, args) -> int:
    group = args.group
    desc = client.describe_group(group)
    committed = client.offset_fetch(group)
    if desc.state == "Dead" and not committed:
        raise ToolError(f"Consumer group '{group}' does not exist.")
    owner = {}
    for m in desc.members:
        for topic, ps in m.assignment.items():
            for p in ps:
                owner[(topic, p)] = m
    keys = sorted(set(committed) | set(owner))
    ends = _log_end_offsets(client, keys)
    rows = []
    for key in keys:
        current = committed[key].offset if key in committed else None
        end = ends.get(key)
        lag = end - current if current is not None and end is not None else None
        row = [group, key[0], key[1], current, end, lag]
        if desc.members:
            m = owner.get(key)
            row += [m.member_id, m.client_host, m.client_id] if m else [None, None, None]
        rows.append(row)
    header = ["GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG"]
    if desc.members:
        header += ["CONSUMER-ID", "HOST", "CLIENT-ID"]
        members_without = [m for m in desc.members if not m.assignment]
        for m in members_without:  # Kafka's tool shows members without partitions too
            rows.append([group, None, None, None, None, None, m.member_id, m.client_host, m.client_id])
    else:
        print(f"Consumer group '{group}' has no active members.", file=sys.stderr)
    if rows:
        print(_table(header, rows))
    return EXIT_OK


# -- delete ----------------------------------------------------------------------------------------

def _delete(client: KafkaClient, args) -> int:
    groups = list(dict.fromkeys(args.group))
    results = client.delete_groups(groups)
    deleted = [g for g in groups if results[g] == 0]
    failed = [g for g in groups if results[g] != 0]
    if deleted:
        print("Deletion of requested consumer groups (" + ", ".join(f"'{g}'" for g in deleted)
              + ") was successful.")
    for g in failed:
        err = KafkaClientError(results[g], _DELETE_REASONS.get(results[g]))
        print(f"{PROG}: error: group '{g}' could not be deleted: {err}", file=sys.stderr)
    return EXIT_ERROR if failed else EXIT_OK


# -- reset-offsets -----------------------------------------------------------------------------------

def parse_datetime(text: str) -> int:
    """ISO 8601 date-time (local time without a zone, as Kafka's --to-datetime) -> epoch ms."""
    try:
        dt = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--to-datetime: not an ISO 8601 date-time such as "
                         f"2024-05-01T12:00:00.000: {text!r}") from None
    return int(round(dt.timestamp() * 1000))


def parse_topic_spec(spec: str) -> tuple[str, list[int] | None]:
    """``T`` or ``T:0,1,2`` -> (topic, partitions or None for all)."""
    topic, sep, parts = spec.partition(":")
    if not topic:
        raise UsageError(f"--topic needs a topic name: {spec!r}")
    if not sep:
        return topic, None
    try:
        ps = sorted({int(x) for x in parts.split(",") if x.strip()})
    except ValueError:
        raise UsageError(f"--topic partitions must be numbers: {spec!r}") from None
    if not ps or any(p < 0 for p in ps):
        raise UsageError(f"--topic needs partition numbers after ':': {spec!r}")
    return topic, ps


def _reset_targets(client: KafkaClient, args, committed) -> list[tuple[str, int]]:
    if args.all_topics:
        return sorted(committed)
    targets: list[tuple[str, int]] = []
    for topic, ps in args.topic_specs:
        try:
            info = client.topic(topic)
        except KafkaClientError as e:
            if e.code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
                raise ToolError(f"Topic '{topic}' does not exist.") from None
            raise
        if ps is None:
            ps = sorted(info.partitions)
        missing = [p for p in ps if p not in info.partitions]
        if missing:
            raise ToolError(f"topic '{topic}' has no partition(s) {', '.join(map(str, missing))} "
                            f"(it has {len(info.partitions)})")
        targets += [(topic, p) for p in ps]
    return sorted(set(targets))


def _plan(client: KafkaClient, args, targets, committed) -> dict[tuple[str, int], int]:
    by_topic: dict[str, list[int]] = {}
    for topic, p in targets:
        by_topic.setdefault(topic, []).append(p)
    when = args.datetime_ms
    plan: dict[tuple[str, int], int] = {}
    for topic, ps in by_topic.items():
        earliest = {p: o for p, (o, _) in client.list_offsets_many(
            topic, dict.fromkeys(ps, EARLIEST_TIMESTAMP)).items()}
        latest = {p: o for p, (o, _) in client.list_offsets_many(
            topic, dict.fromkeys(ps, LATEST_TIMESTAMP)).items()}
        at_time = {}
        if when is not None:
            at_time = {p: o for p, (o, _) in client.list_offsets_many(
                topic, dict.fromkeys(ps, when)).items()}
        for p in ps:
            key = (topic, p)
            if args.to_earliest:
                new = earliest[p]
            elif args.to_latest:
                new = latest[p]
            elif when is not None:
                new = at_time[p] if at_time[p] >= 0 else latest[p]
            elif args.shift_by is not None:
                if key not in committed:
                    raise ToolError(f"Cannot shift offset for partition {topic}-{p} since there is "
                                    "no current committed offset")
                new = committed[key].offset + args.shift_by
            else:
                new = args.to_offset
            if new > latest[p]:
                if not args.to_latest:
                    print(f"New offset ({new}) is higher than latest offset for {topic}-{p}. "
                          f"Value will be set to {latest[p]}", file=sys.stderr)
                new = latest[p]
            elif new < earliest[p]:
                print(f"New offset ({new}) is lower than earliest offset for {topic}-{p}. "
                      f"Value will be set to {earliest[p]}", file=sys.stderr)
                new = earliest[p]
            plan[key] = new
    return plan


def _reset_offsets(client: KafkaClient, args) -> int:
    # usage errors first, before any request
    args.topic_specs = [parse_topic_spec(spec) for spec in args.topic or ()]
    args.datetime_ms = parse_datetime(args.to_datetime) if args.to_datetime is not None else None
    group = args.group
    desc: GroupDescription = client.describe_group(group)
    if desc.state not in INACTIVE_STATES:
        raise ToolError(f"Assignments can only be reset if the group '{group}' is inactive, "
                        f"but the current state is {desc.state}.")
    committed = client.offset_fetch(group)
    targets = _reset_targets(client, args, committed)
    if not targets:
        raise ToolError(f"group '{group}' has no committed offsets to reset")
    plan = _plan(client, args, targets, committed)
    if args.execute:
        client.offset_commit(group, plan)
    elif not args.dry_run:
        print("Dry run: no offsets were changed; add --execute to commit them.", file=sys.stderr)
    print(_table(["GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"],
                 [[group, t, p, o] for (t, p), o in sorted(plan.items())]))
    return EXIT_OK
