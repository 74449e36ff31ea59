"""What every Python-driven client facade offers, and the values they pass around.

A facade (one module per client in this package) does a handful of broker
operations with its library's own public API and nothing else: no scenario
logic lives in a facade, and no facade looks at another library. The
scenarios in ``compat/scenarios.py`` are written once against this interface.

Every operation is bounded: library timeouts are set to ``OP_TIMEOUT`` seconds
and read loops stop at a deadline, so a broker that does not answer turns into
an exception naming the operation, well inside the runner's per-scenario limit.

An operation a client does not have raises ``NotApplicable``; the runner files
the cell as N/A with that reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

OP_TIMEOUT = 15.0

Headers = tuple[tuple[str, bytes | None], ...]


class NotApplicable(Exception):
    """The client has no way to do this (e.g. kcat and DeleteRecords)."""


class Skipped(Exception):
    """Something this machine lacks (a codec library, a binary): the cell is SKIP."""


@dataclass(frozen=True)
class Msg:
    """A record to produce; ``partition=None`` leaves it to the partitioner."""

    key: bytes | None
    value: bytes | None
    headers: Headers = ()
    timestamp: int | None = None
    partition: int | None = None


@dataclass(frozen=True)
class Rec:
    """A record as a consumer saw it."""

    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    headers: Headers
    timestamp: int


@dataclass(frozen=True)
class Delivery:
    """What the producer was told about one record.

    ``offset`` is ``None`` when the client does not learn it (acks=0, kcat).
    ``error`` is the library's error rendered as text; ``too_large`` says whether
    that error is the library's own MESSAGE_TOO_LARGE type.
    """

    partition: int | None
    offset: int | None
    error: str | None = None
    too_large: bool = False


@dataclass(frozen=True)
class ConfigEntry:
    value: str | None
    source: str        # Kafka's ConfigSource name, e.g. DYNAMIC_TOPIC_CONFIG, DEFAULT_CONFIG


# Kafka's DescribeConfigs ConfigSource codes (DescribeConfigsResponse v1+).
CONFIG_SOURCES = {0: "UNKNOWN", 1: "DYNAMIC_TOPIC_CONFIG", 2: "DYNAMIC_BROKER_CONFIG",
                  3: "DYNAMIC_DEFAULT_BROKER_CONFIG", 4: "STATIC_BROKER_CONFIG", 5: "DEFAULT_CONFIG",
                  6: "DYNAMIC_BROKER_LOGGER_CONFIG", 7: "CLIENT_METRICS_CONFIG", 8: "GROUP_CONFIG"}


@dataclass(frozen=True)
class Caps:
    """What a client's producer can express, so scenarios build records it can send."""

    binary: bool = True          # arbitrary bytes in keys, values and header values
    timestamps: bool = True      # caller-chosen record timestamps
    null_values: bool = True     # tombstones
    offsets_known: bool = True   # the producer reports offsets (acks >= 1)
    commit_metadata: bool = True  # commits carry a metadata string, read back through admin


class Client:
    """The interface; see the module docstring."""

    name = "?"
    caps = Caps()

    def __init__(self, bootstrap: str) -> None:
        self.bootstrap = bootstrap

    def version(self) -> str:
        raise NotImplementedError

    def codec_missing(self, codec: str) -> str | None:
        """Why the client cannot use ``codec`` here, or None."""
        return None

    # -- topics ---------------------------------------------------------------------
    def create_topic(self, topic: str, partitions: int, configs: dict[str, str] | None = None) -> None:
        raise NotImplementedError

    def delete_topics(self, topics: list[str]) -> None:
        raise NotImplementedError

    def partition_leaders(self, topic: str) -> dict[int, int]:
        """Metadata: partition -> leader broker id."""
        raise NotImplementedError

    # -- produce / fetch -------------------------------------------------------------
    def produce(self, topic: str, msgs: list[Msg], *, compression: str = "none",
                acks: str = "all") -> list[Delivery]:
        """Send ``msgs`` with one producer, in order; one ``Delivery`` per message."""
        raise NotImplementedError

    def fetch(self, topic: str, starts: dict[int, int | str], count: int,
              timeout: float = OP_TIMEOUT) -> list[Rec]:
        """assign() + seek to ``starts`` (an offset or "earliest"), read until ``count`` records."""
        raise NotImplementedError

    def list_offsets(self, topic: str, partitions: Iterable[int], spec: str | int) -> dict[int, int | None]:
        """Through the consumer API: "earliest", "latest" or a timestamp in ms (None: no such offset)."""
        raise NotImplementedError

    def max_timestamp_offset(self, topic: str, partition: int) -> tuple[int, int]:
        """Admin ListOffsets with the max-timestamp spec: (offset, timestamp)."""
        raise NotApplicable(f"{self.name} has no call for ListOffsets max timestamp")

    # -- groups ------------------------------------------------------------------------
    def group_read(self, topic: str, group: str, count: int, *, metadata: str,
                   timeout: float = 45.0) -> list[Rec]:
        """subscribe() in ``group``, process ``count`` records, commit what was processed
        (next offset per partition, with ``metadata``) synchronously, leave the group."""
        raise NotImplementedError

    def committed(self, group: str, topic: str) -> dict[int, tuple[int, str]]:
        """The group's committed (offset, metadata) per partition of ``topic``."""
        raise NotImplementedError

    def delete_group(self, group: str) -> None:
        raise NotImplementedError

    # -- admin -------------------------------------------------------------------------
    def describe_configs(self, topic: str) -> dict[str, ConfigEntry]:
        raise NotImplementedError

    def delete_records(self, topic: str, before: dict[int, int]) -> dict[int, int]:
        """DeleteRecords; returns the new low watermark per partition."""
        raise NotImplementedError

    def create_partitions(self, topic: str, total: int) -> None:
        raise NotImplementedError


def norm_headers(hs) -> Headers:
    out = []
    for k, v in hs or ():
        out.append((k if isinstance(k, str) else bytes(k).decode("utf-8"),
                    None if v is None else bytes(v)))
    return tuple(out)
