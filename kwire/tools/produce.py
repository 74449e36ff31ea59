"""``kwire produce``: one record per stdin line, like kafka-console-producer.sh.

``kwire produce --topic T [--partition N] [--key-separator SEP]
[--header k=v]... [--compression gzip|snappy|lz4|zstd|none] [--acks 0|1|all]``

* Each line (without its ``\\n`` / ``\\r\\n``) is one record value, as raw
  bytes; with ``--key-separator`` the text before the first separator is the
  key (a line without it is an error, as with Kafka's ``parse.key``). Every
  ``--header`` is attached to every record. The record timestamp is the time
  the line was read (CreateTime).
* Partition: ``--partition`` if given; else Kafka's default partitioner for
  keyed records, ``(murmur2(key) & 0x7fffffff) % partitions``, so a key lands
  where a Java producer would put it; records without a key go round robin.
* Lines are collected into one batch per partition and sent in one Produce
  request per leader once ``--batch-size`` lines or ``--max-request-bytes``
  bytes are pending, when stdin ends, or when stdin has been quiet for
  ``--linger-ms`` (so typing lines interactively sends each promptly).
* The topic is looked up with auto-creation allowed, as Kafka's producer
  does; whether an unknown topic is created is the broker's
  ``auto.create.topics.enable``.
* A summary goes to stderr: records sent and the offsets per partition.
  Ctrl-C or SIGTERM sends what is pending and exits 0, as stdin's end does.

Not implemented: idempotence/transactions (batches carry no producer id),
retries, per-line header parsing (``parse.headers``), custom partitioners.
"""

from __future__ import annotations

import argparse
import os
import select
import struct
import sys
import time

from kwire.client import KafkaClient, KafkaClientError
from kwire.records.builder import build_batch
from kwire.records.compression import CODEC_NAMES, codec_by_name

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

PROG = "kwire produce"
ACKS = {"0": 0, "1": 1, "all": -1, "-1": -1}
_RECORD_OVERHEAD = 24  # rough per-record framing bytes, for the request size estimate

_M32 = 0xFFFFFFFF
_MURMUR_M = 0x5BD1E995


def murmur2(data: bytes) -> int:
    """Kafka's ``Utils.murmur2``: 32-bit MurmurHash2, seed 0x9747b28c, as a signed Java int."""
    length = len(data)
    h = (0x9747B28C ^ length) & _M32
    n4 = length // 4
    for k in struct.unpack_from(f"<{n4}I", data):
        k = (k * _MURMUR_M) & _M32
        k ^= k >> 24
        k = (k * _MURMUR_M) & _M32
        h = ((h * _MURMUR_M) & _M32) ^ k
    tail = n4 * 4
    rest = length - tail
    if rest == 3:
        h ^= data[tail + 2] << 16
    if rest >= 2:
        h ^= data[tail + 1] << 8
    if rest >= 1:
        h ^= data[tail]
        h = (h * _MURMUR_M) & _M32
    h ^= h >> 13
    h = (h * _MURMUR_M) & _M32
    h ^= h >> 15
    return h - (1 << 32) if h & 0x80000000 else h


def default_partition(key: bytes, num_partitions: int) -> int:
    """Partition of a keyed record under Kafka's default partitioner."""
    return (murmur2(key) & 0x7FFFFFFF) % num_partitions


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG, description="Produce one record per line of stdin.",
        epilog=r"Example: printf 'k1:hello\nk2:world\n' | kwire produce --topic t --key-separator :")
    add_connection_options(p)
    p.add_argument("--topic", required=True)
    p.add_argument("--partition", type=non_negative_int,
                   help="send every record to this partition (default: by key, else round robin)")
    p.add_argument("--key-separator", metavar="SEP",
                   help=r"split each line into KEY SEP VALUE at the first SEP (\t etc. understood)")
    p.add_argument("--header", action="append", metavar="KEY=VALUE",
                   help="a header for every record (repeatable)")
    p.add_argument("--compression", default="none", choices=sorted(CODEC_NAMES.values()),
                   help="batch compression codec (default none)")
    p.add_argument("--acks", default="all", choices=["0", "1", "all", "-1"],
                   help="0: no response, 1: leader wrote it, all: all in-sync replicas (default)")
    p.add_argument("--batch-size", type=positive_int, default=1000, metavar="LINES",
                   help="send once this many lines are pending (default 1000)")
    p.add_argument("--max-request-bytes", type=positive_int, default=1_000_000, metavar="BYTES",
                   help="send once this many bytes are pending (default 1000000)")
    p.add_argument("--linger-ms", type=non_negative_int, default=100, metavar="MS",
                   help="send pending lines when stdin is quiet this long (default 100)")
    return p


def main(argv: list[str] | None = None) -> int:
    return run(PROG, build_parser(), argv, _produce)


def _parse_headers(items: list[str] | None) -> list[tuple[str, bytes]]:
    out = []
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(f"--header needs KEY=VALUE, got {item!r}")
        out.append((name, value.encode("utf-8")))
    return out


class _LineReader:
    """Lines from a file descriptor, without waiting when asked whether one is ready."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = bytearray()
        self.eof = False
        self.lineno = 0

    def ready(self, timeout_s: float) -> bool:
        """True when ``next_line`` would not block (a line, EOF, or fresh input)."""
        if self.eof or b"\n" in self.buf:
            return True
        try:
            readable, _, _ = select.select([self.fd], [], [], timeout_s)
        except (OSError, ValueError):  # not selectable: just block in next_line
            return True
        return bool(readable)

    def next_line(self) -> bytes | None:
        while True:
            nl = self.buf.find(b"\n")
            if nl >= 0:
                line = bytes(self.buf[:nl])
                del self.buf[: nl + 1]
                break
            if self.eof:
                if not self.buf:
                    return None
                line = bytes(self.buf)
                self.buf.clear()
                break
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                self.eof = True
            self.buf += chunk
        self.lineno += 1
        return line[:-1] if line.endswith(b"\r") else line


class _Producer:
    def __init__(self, client: KafkaClient, args, num_partitions: int) -> None:
        self.client = client
        self.topic = args.topic
        self.acks = ACKS[args.acks]
        self.compression = codec_by_name(args.compression)
        self.num_partitions = num_partitions
        self.timeout_ms = args.request_timeout_ms
        self.pending: dict[int, list] = {}
        self.pending_count = 0
        self.pending_bytes = 0
        self.next_round_robin = 0
        self.sent = 0
        self.offsets: dict[int, tuple[int, int]] = {}  # partition -> (first, last) offset

    def add(self, partition: int | None, key: bytes | None, value: bytes, headers) -> None:
        if partition is None:
            if key is not None:
                partition = default_partition(key, self.num_partitions)
            else:
                partition = self.next_round_robin
                self.next_round_robin = (partition + 1) % self.num_partitions
        self.pending.setdefault(partition, []).append(
            (key, value, headers, int(time.time() * 1000)))
        self.pending_count += 1
        self.pending_bytes += (len(value) + (len(key) if key else 0) + _RECORD_OVERHEAD
                               + sum(len(h) + len(v) for h, v in headers))

    def flush(self) -> None:
        if not self.pending:
            return
        batches = {p: build_batch(recs, compression=self.compression)
                   for p, recs in self.pending.items()}
        counts = {p: len(recs) for p, recs in self.pending.items()}
        self.pending, self.pending_count, self.pending_bytes = {}, 0, 0
        results = self.client.produce_batches(self.topic, batches, self.acks, self.timeout_ms)
        for p, base in results.items():
            self.sent += counts[p]
            if base is not None and base >= 0:
                last = base + counts[p] - 1
                first = self.offsets.get(p, (base, last))[0]
                self.offsets[p] = (first, last)

    def summary(self) -> str:
        text = f"Produced {self.sent} record{'s' if self.sent != 1 else ''} to {self.topic}"
        if self.acks == 0:
            return text + " (acks=0: offsets unknown)"
        if self.offsets:
            parts = ", ".join(
                f"partition {p}: offset {a}" if a == b else f"partition {p}: offsets {a}-{b}"
                for p, (a, b) in sorted(self.offsets.items()))
            text += f" ({parts})"
        return text


def _produce(args) -> int:
    headers = _parse_headers(args.header)
    separator = unescape(args.key_separator).encode("utf-8") if args.key_separator else None
    if args.key_separator is not None and not separator:
        raise UsageError("--key-separator must not be empty")
    with connect(args) as client:
        info = client.topic(args.topic, allow_auto_topic_creation=True)
        num_partitions = len(info.partitions)
        if num_partitions == 0:
            raise ToolError(f"topic {args.topic!r} has no partitions")
        if args.partition is not None and args.partition not in info.partitions:
            raise ToolError(f"topic {args.topic!r} has no partition {args.partition} "
                            f"(it has {num_partitions})")
        producer = _Producer(client, args, num_partitions)
        reader = _LineReader(sys.stdin.fileno())
        stop_on_sigterm()
        linger_s = args.linger_ms / 1000
        try:
            while True:
                if producer.pending and not reader.ready(linger_s):
                    producer.flush()
                line = reader.next_line()
                if line is None:
                    break
                key = None
                if separator is not None:
                    key, sep, value = line.partition(separator)
                    if not sep:
                        producer.flush()
                        raise ToolError(f"line {reader.lineno}: no key separator "
                                        f"{args.key_separator!r} in {_preview(line)}")
                else:
                    value = line
                producer.add(args.partition, key, value, headers)
                if (producer.pending_count >= args.batch_size
                        or producer.pending_bytes >= args.max_request_bytes):
                    producer.flush()
            producer.flush()
        except KeyboardInterrupt:
            # Ctrl-C is how an interactive session ends: send what was typed.
            try:
                producer.flush()
            finally:
                print(producer.summary(), file=sys.stderr)
            return EXIT_OK
        except (KafkaClientError, ToolError):
            print(producer.summary(), file=sys.stderr)
            raise
        print(producer.summary(), file=sys.stderr)
    return EXIT_OK


def _preview(line: bytes) -> str:
    text = line.decode("utf-8", "replace")
    return repr(text if len(text) <= 60 else text[:57] + "...")
