"""``kwire consume``: print a topic's records, like kafka-console-consumer.sh / kcat.

``kwire consume --topic T [--partition N | --group G | --share-group G] [--verbose] [--from-beginning | --offset N |
--timestamp MS_OR_ISO] [--max-messages N] [--timeout-ms MS]
[--format FMT | --json] [--print-key] [--print-headers] ...``

Where to start, in every partition read (all of them unless ``--partition``):
the end (only new records) by default; the log start with
``--from-beginning``; offset N with ``--offset N`` (also ``earliest`` /
``latest``; unlike kafka-console-consumer.sh it needs no ``--partition`` and
applies to every partition read); with ``--timestamp`` the first record whose timestamp is at or
after the given time (epoch milliseconds, or ISO 8601 such as
``2024-05-01T12:00:00Z``; without a zone it is local time, like Kafka's
``--to-datetime``), or the end when there is none.

When to stop: after ``--max-messages`` records, or once ``--timeout-ms``
passes without a new record; with neither, at Ctrl-C (or SIGTERM). Either way the
count goes to stderr as ``Processed a total of N messages`` and the exit code
is 0.

Output, one record per line:

* default, like Kafka's DefaultMessageFormatter: the value, preceded by
  ``--print-timestamp`` (``CreateTime:MS``), ``--print-partition``,
  ``--print-offset``, ``--print-headers`` (``k:v,k2:v2`` or ``NO_HEADERS``)
  and ``--print-key`` fields, tab-separated; null is printed ``null``.
* ``--format FMT``, kcat's tokens: ``%t`` topic, ``%p`` partition, ``%o``
  offset, ``%k`` key, ``%v`` value, ``%h`` headers (``k=v,k2=v2``), ``%T``
  timestamp (ms), ``%K`` / ``%S`` key / value length (-1 for null), ``%%``;
  ``\\n``, ``\\t``, ``\\\\`` escapes. Null prints as nothing. A newline
  follows each record unless FMT itself ends with one.
* ``--json``: an object per line with topic, partition, offset, timestamp,
  timestamp_type, key, value and headers (a list of ``[name, value]``
  pairs). Bytes that are not UTF-8 appear as ``{"base64": "..."}``.

Keys, values and headers are written as the raw bytes stored (no decoding)
except in JSON. Control records of transactions are skipped; aborted
transactional records are shown (the isolation level is read_uncommitted).
With ``--group G`` the tool reads as a member of consumer group G
(kwire.tools.consume_group): the partitions the group assigns it, from the
group's committed offsets, committing as it goes and on exit; ``--verbose``
prints assignment changes. With ``--share-group G`` it reads as a member of
share group G (kwire.tools.consume_share): the records the group hands it,
each acknowledged (ACCEPT) once printed. Not implemented: regex topics,
key/value deserializers.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import time
from datetime import datetime

from kwire.client import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, KafkaClient, KafkaClientError
from kwire.protocol.errors import ErrorCode
from kwire.records.decode import CorruptRecordError, Record, decode_batches

from .common import (
    EXIT_OK,
    ToolError,
    UsageError,
    add_connection_options,
    connect,
    non_negative_int,
    positive_int,
    run,
    stop_on_sigterm,
    unescape,
)

PROG = "kwire consume"
_MAX_FETCH_BYTES = 64 << 20  # how far --max-bytes may grow when a batch does not fit


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG, description="Print records of a topic to stdout.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="format tokens: %t topic, %p partition, %o offset, %k key, %v value,\n"
               "  %h headers, %T timestamp, %K key length, %S value length, %% percent;\n"
               "  escapes \\n \\t \\\\. Example: --format '%p:%o %k=%v'")
    add_connection_options(p)
    p.add_argument("--topic", required=True)
    p.add_argument("--partition", type=non_negative_int,
                   help="read only this partition (default: all)")
    start = p.add_mutually_exclusive_group()
    start.add_argument("--from-beginning", action="store_true",
                       help="start at the earliest offset (default: only new records)")
    start.add_argument("--offset", metavar="N|earliest|latest",
                       help="start at this offset in each partition read")
    start.add_argument("--timestamp", metavar="MS|ISO8601",
                       help="start at the first record at or after this time")
    p.add_argument("--max-messages", type=positive_int, metavar="N",
                   help="exit after printing N records")
    p.add_argument("--timeout-ms", type=non_negative_int, metavar="MS",
                   help="exit when no new record arrives for MS milliseconds")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--format", metavar="FMT", help="kcat-style output format (see below)")
    out.add_argument("--json", action="store_true", help="one JSON object per record")
    p.add_argument("--print-key", action="store_true", help="print the key before the value")
    p.add_argument("--print-headers", action="store_true", help="print the headers")
    p.add_argument("--print-timestamp", action="store_true", help="print CreateTime:MS")
    p.add_argument("--print-partition", action="store_true", help="print Partition:N")
    p.add_argument("--print-offset", action="store_true", help="print Offset:N")
    p.add_argument("--max-wait-ms", type=non_negative_int, default=500, metavar="MS",
                   help="how long one fetch may wait for data (default 500)")
    p.add_argument("--max-bytes", type=positive_int, default=1 << 20, metavar="BYTES",
                   help="bytes per fetch and partition (default 1048576)")
    g = p.add_argument_group("consumer group (kwire.tools.consume_group), share group (kwire.tools.consume_share)")
    g.add_argument("--group", metavar="GROUP",
                   help="read as a member of this consumer group: its partitions, from its committed "
                        "offsets; commits as it goes and on exit")
    g.add_argument("--commit-interval-ms", type=positive_int, default=5000, metavar="MS",
                   help="with --group: commit positions this often (default 5000)")
    g.add_argument("--verbose", action="store_true",
                   help="with --group or --share-group: print assignment changes to stderr")
    g.add_argument("--share-group", metavar="GROUP",
                   help="read as a member of this share group (KIP-932): the records it hands out, "
                        "each acknowledged (ACCEPT) once printed (kwire.tools.consume_share)")
    return p


def main(argv: list[str] | None = None) -> int:
    return run(PROG, build_parser(), argv, _consume)


# -- output formats ----------------------------------------------------------------------------

def _text(data: bytes | None) -> bytes:
    return b"null" if data is None else bytes(data)


class DefaultFormatter:
    """Kafka's DefaultMessageFormatter with its print.* switches."""

    def __init__(self, args) -> None:
        self.args = args

    def __call__(self, topic: str, partition: int, r: Record, timestamp_type: str) -> bytes:
        a = self.args
        fields = []
        if a.print_timestamp:
            fields.append(f"{timestamp_type}:{r.timestamp}".encode())
        if a.print_partition:
            fields.append(f"Partition:{partition}".encode())
        if a.print_offset:
            fields.append(f"Offset:{r.offset}".encode())
        if a.print_headers:
            fields.append(b",".join(h.encode("utf-8") + b":" + _text(v) for h, v in r.headers)
                          if r.headers else b"NO_HEADERS")
        if a.print_key:
            fields.append(_text(r.key))
        fields.append(_text(r.value))
        return b"\t".join(fields) + b"\n"


class FormatString:
    """A kcat ``-f`` style format compiled once into literal and field parts."""

    TOKENS = "tpokvhTKS%"

    def __init__(self, fmt: str) -> None:
        fmt = unescape(fmt)
        self.parts: list[bytes | str] = []
        literal = []
        i = 0
        while i < len(fmt):
            ch = fmt[i]
            if ch == "%":
                if i + 1 >= len(fmt) or fmt[i + 1] not in self.TOKENS:
                    bad = fmt[i:i + 2]
                    raise UsageError(f"--format: unknown token {bad!r} (known: "
                                     + " ".join("%" + t for t in self.TOKENS) + ")")
                token = fmt[i + 1]
                if token == "%":
                    literal.append("%")
                else:
                    if literal:
                        self.parts.append("".join(literal).encode("utf-8"))
                        literal = []
                    self.parts.append(token)
                i += 2
            else:
                literal.append(ch)
                i += 1
        if not fmt.endswith("\n"):
            literal.append("\n")
        if literal:
            self.parts.append("".join(literal).encode("utf-8"))

    def __call__(self, topic: str, partition: int, r: Record, timestamp_type: str) -> bytes:
        out = bytearray()
        for part in self.parts:
            if part.__class__ is bytes:
                out += part
            elif part == "v":
                out += r.value or b""
            elif part == "k":
                out += r.key or b""
            elif part == "o":
                out += str(r.offset).encode()
            elif part == "p":
                out += str(partition).encode()
            elif part == "t":
                out += topic.encode("utf-8")
            elif part == "T":
                out += str(r.timestamp).encode()
            elif part == "h":
                out += b",".join(h.encode("utf-8") + b"=" + (v or b"") for h, v in r.headers)
            elif part == "K":
                out += str(-1 if r.key is None else len(r.key)).encode()
            elif part == "S":
                out += str(-1 if r.value is None else len(r.value)).encode()
        return bytes(out)


def _json_bytes(data: bytes | None):
    if data is None:
        return None
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def json_format(topic: str, partition: int, r: Record, timestamp_type: str) -> bytes:
    obj = {
        "topic": topic,
        "partition": partition,
        "offset": r.offset,
        "timestamp": r.timestamp,
        "timestamp_type": timestamp_type,
        "key": _json_bytes(r.key),
        "value": _json_bytes(r.value),
        "headers": [[h, _json_bytes(v)] for h, v in r.headers],
    }
    return json.dumps(obj, ensure_ascii=False).encode("utf-8") + b"\n"


# -- start positions ---------------------------------------------------------------------------

def parse_timestamp(text: str) -> int:
    """Epoch milliseconds, or an ISO 8601 date-time (local time without a zone) -> ms."""
    text = text.strip()
    if text.lstrip("-").isdigit():
        ms = int(text)
        if ms < 0:
            raise UsageError(f"--timestamp must not be negative: {text}")
        return ms
    try:
        dt = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"--timestamp: not epoch milliseconds or an ISO 8601 date-time: "
                         f"{text!r}") from None
    return int(round(dt.timestamp() * 1000))


def parse_offset(text: str) -> int:
    """``--offset``: a number >= 0, or ``earliest`` / ``latest`` as ListOffsets timestamps."""
    word = text.strip().lower()
    if word == "earliest":
        return EARLIEST_TIMESTAMP
    if word == "latest":
        return LATEST_TIMESTAMP
    try:
        offset = int(word)
    except ValueError:
        raise UsageError(f"--offset must be a number, earliest or latest: {text!r}") from None
    if offset < 0:
        raise UsageError(f"--offset must not be negative: {offset}")
    return offset


def _start_offsets(client: KafkaClient, topic: str, partitions: list[int], args) -> dict[int, int]:
    if args.offset is not None:
        offset = parse_offset(args.offset)
        if offset >= 0:
            return dict.fromkeys(partitions, offset)
        ts = offset  # EARLIEST_TIMESTAMP or LATEST_TIMESTAMP
    elif args.from_beginning:
        ts = EARLIEST_TIMESTAMP
    elif args.timestamp is not None:
        ms = parse_timestamp(args.timestamp)
        found = client.list_offsets_many(topic, dict.fromkeys(partitions, ms))
        ends = None
        out = {}
        for p in partitions:
            offset = found[p][0]
            if offset < 0:  # no record at or after ms: start at the end
                if ends is None:
                    ends = client.list_offsets_many(topic, dict.fromkeys(partitions, LATEST_TIMESTAMP))
                offset = ends[p][0]
            out[p] = offset
        return out
    else:
        ts = LATEST_TIMESTAMP
    found = client.list_offsets_many(topic, dict.fromkeys(partitions, ts))
    return {p: found[p][0] for p in partitions}


# -- the loop ----------------------------------------------------------------------------------

def _consume(args) -> int:
    printing = [f for f in ("key", "headers", "timestamp", "partition", "offset")
                if getattr(args, "print_" + f)]
    if printing and (args.json or args.format is not None):
        raise UsageError(f"--print-{printing[0]} does not combine with "
                         f"{'--json' if args.json else '--format'}")
    if args.json:
        formatter = json_format
    elif args.format is not None:
        formatter = FormatString(args.format)
    else:
        formatter = DefaultFormatter(args)
    # usage errors before connecting
    if args.share_group is not None:
        from .consume_share import check_share_args

        check_share_args(args)
    elif args.group is not None:
        from .consume_group import check_group_args

        check_group_args(args)
    if args.timestamp is not None:
        parse_timestamp(args.timestamp)
    if args.offset is not None:
        parse_offset(args.offset)
    out = sys.stdout.buffer
    stop_on_sigterm()
    count = 0
    try:
        with connect(args) as client:
            info = client.topic(args.topic)
            if args.share_group is not None:
                from .consume_share import consume_shared

                count = consume_shared(client, args, info, formatter, out, PROG)
            elif args.group is not None:
                count = _consume_in_group(client, args, info, formatter, out)
            else:
                if args.partition is not None:
                    if args.partition not in info.partitions:
                        raise ToolError(f"topic {args.topic!r} has no partition {args.partition} "
                                        f"(it has {len(info.partitions)})")
                    partitions = [args.partition]
                else:
                    partitions = sorted(info.partitions)
                positions = _start_offsets(client, args.topic, partitions, args)
                count = _loop(client, args, positions, formatter, out)
    except KeyboardInterrupt:
        pass  # Ctrl-C is the normal way to stop an unbounded consume
    finally:
        try:
            out.flush()
        except BrokenPipeError:
            pass
    print(f"Processed a total of {count} messages", file=sys.stderr)
    return EXIT_OK


def _consume_in_group(client: KafkaClient, args, info, formatter, out) -> int:
    """--group: the partitions the group assigns, from its committed offsets (kwire.tools.consume_group)."""
    from .consume_group import GroupMember

    member = GroupMember(client, args.group, info, from_beginning=args.from_beginning, verbose=args.verbose,
                         commit_interval_ms=args.commit_interval_ms, prog=PROG)
    positions: dict[int, int] = {}
    try:
        return _loop(client, args, positions, formatter, out, member)
    finally:
        try:
            member.close(positions)  # commit what was printed, leave the group
        except KeyboardInterrupt:
            pass


def _loop(client: KafkaClient, args, positions: dict[int, int], formatter, out, member=None) -> int:
    """Fetch and print until a stop condition; ``member`` (--group) changes ``positions`` as the
    group's assignment changes, and is polled between fetches."""
    topic = args.topic
    limit = args.max_messages
    timeout_s = None if args.timeout_ms is None else args.timeout_ms / 1000
    max_bytes = args.max_bytes
    count = 0
    last_record = time.monotonic()
    try:
        while True:
            wait_ms = args.max_wait_ms
            if timeout_s is not None:
                left = timeout_s - (time.monotonic() - last_record)
                wait_ms = max(0, min(wait_ms, int(left * 1000)))
            if member is not None:
                wait_ms = min(wait_ms, member.poll(positions))
                if not positions:  # nothing assigned (yet): wait for the group
                    time.sleep(min(wait_ms, 100) / 1000)
                    if timeout_s is not None and time.monotonic() - last_record >= timeout_s:
                        return count
                    continue
            try:
                fetched = client.fetch_many(topic, positions, max_wait_ms=wait_ms,
                                            max_bytes=max_bytes * len(positions),
                                            partition_max_bytes=max_bytes)
            except KafkaClientError as e:
                if e.code == ErrorCode.OFFSET_OUT_OF_RANGE:
                    raise ToolError(f"{e}; start offsets were "
                                    + ", ".join(f"{topic}-{p}@{o}" for p, o in positions.items())
                                    + " (try --from-beginning)") from None
                raise
            printed = 0
            stalled = False
            for p in sorted(fetched):
                records = fetched[p].records
                try:
                    batches = decode_batches(records, allow_truncated=True)
                except CorruptRecordError as e:
                    raise ToolError(f"corrupt data fetched from {topic}-{p} "
                                    f"at offset {positions[p]}: {e}") from None
                if records and not batches:
                    stalled = True  # a batch larger than max_bytes: ask for more
                for b in batches:
                    h = b.header
                    if not h.is_control:
                        ts_type = "LogAppendTime" if h.timestamp_type else "CreateTime"
                        for r in b.records:
                            if r.offset < positions[p]:
                                continue  # earlier records of a batch we started inside
                            out.write(formatter(topic, p, r, ts_type))
                            positions[p] = r.offset + 1
                            count += 1
                            printed += 1
                            if limit is not None and count >= limit:
                                return count
                    positions[p] = max(positions[p], h.base_offset + h.last_offset_delta + 1)
            if printed:
                out.flush()
                last_record = time.monotonic()
            elif stalled:
                if max_bytes >= _MAX_FETCH_BYTES:
                    raise ToolError(f"a record batch of {topic} is larger than "
                                    f"{_MAX_FETCH_BYTES} bytes")
                max_bytes = min(max_bytes * 2, _MAX_FETCH_BYTES)
            elif timeout_s is not None and time.monotonic() - last_record >= timeout_s:
                return count
    except KeyboardInterrupt:
        return count
