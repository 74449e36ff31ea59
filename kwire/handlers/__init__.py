"""Handler registry: one module per Kafka API, each declaring its version range.

Every handler module defines ``API_KEY``, ``MIN_VERSION``, ``MAX_VERSION`` and
``handle(ctx, request)``, which returns the response object (or None for a
request that gets no response, such as an acks=0 produce) — either directly or
as a coroutine when it must wait (long-poll fetch, acks=all). ``REGISTRY`` is
built from the modules listed in ``MODULES`` (each imported at its API's first request); ApiVersions answers from it, so
the broker never advertises an API it does not implement. A module may set
``ADVERTISED_MIN_VERSION`` below ``MIN_VERSION`` where Kafka itself advertises
versions it no longer serves (Produce, for older librdkafka: KAFKA-18659).

A handler answers the errors it expects itself (per partition, per topic). An
exception that escapes it (directly or from its coroutine) is answered by the
server with ``kwire.protocol.error_response``: the error code (UNKNOWN_SERVER_ERROR,
KAFKA_STORAGE_ERROR for an OSError, a ``KafkaError``'s own code) in every error
field of a response that mirrors the request's items, as Kafka's
``getErrorResponse``; the connection stays open.

This package does not read sockets, frames or files: handlers work through
``ctx.broker`` (kwire.broker.Broker).
"""

from __future__ import annotations

import importlib
import logging
import os
import re
from dataclasses import dataclass
from typing import Any, Callable

MODULES = [
    "api_versions",
    "metadata",
    "produce",
    "fetch",
    "list_offsets",
    "offset_for_leader_epoch",
    "init_producer_id",
    "get_telemetry_subscriptions",
    "describe_cluster",
    "describe_topic_partitions",
    "create_topics",
    "delete_topics",
    "create_partitions",
    "describe_configs",
    "alter_configs",
    "incremental_alter_configs",
    "delete_records",
    "describe_log_dirs",
    "alter_replica_log_dirs",
    "elect_leaders",
    "alter_partition_reassignments",
    "list_partition_reassignments",
    "list_config_resources",
    "find_coordinator",
    "join_group",
    "sync_group",
    "heartbeat",
    "leave_group",
    "offset_commit",
    "offset_fetch",
    "offset_delete",
    "describe_groups",
    "list_groups",
    "delete_groups",
    "consumer_group_heartbeat",
    "consumer_group_describe",
    # share groups (KIP-932, kwire.share)
    "share_group_heartbeat",
    "share_group_describe",
    "share_fetch",
    "share_acknowledge",
    "describe_share_group_offsets",
    "alter_share_group_offsets",
    "delete_share_group_offsets",
    # the share coordinator's state APIs (kwire.share.state)
    "initialize_share_group_state",
    "read_share_group_state",
    "write_share_group_state",
    "delete_share_group_state",
    "read_share_group_state_summary",
    # security (kwire.security, issue 14)
    "sasl_handshake",
    "sasl_authenticate",
    "describe_user_scram_credentials",
    "alter_user_scram_credentials",
    "create_acls",
    "describe_acls",
    "delete_acls",
    "describe_client_quotas",
    "alter_client_quotas",
    "add_partitions_to_txn",
    "add_offsets_to_txn",
    "end_txn",
    "write_txn_markers",
    "txn_offset_commit",
    "describe_transactions",
    "list_transactions",
    "describe_producers",
]


@dataclass(frozen=True)
class HandlerEntry:
    api_key: int
    min_version: int
    max_version: int
    handle: Callable
    name: str
    advertised_min_version: int


@dataclass
class RequestContext:
    broker: Any
    api_key: int
    api_version: int
    correlation_id: int
    client_id: str | None
    client_host: str
    client_port: int
    session: Any = None  # kwire.security.session.Session (principal, listener); None outside a server


#: The declarations ``_declared`` reads from a handler module's source: ``NAME = <integer>`` at
#: the start of a line (every handler writes its version range so; a test checks each module).
_DECLARATION = re.compile(r"^(API_KEY|MIN_VERSION|MAX_VERSION|ADVERTISED_MIN_VERSION) = (\d+)\s*(?:#.*)?$",
                          re.MULTILINE)
#: A module-level logger of a handler (``log = logging.getLogger("kwire....")``).
_LOGGER = re.compile(r"^\w+ = logging\.getLogger\(\"([\w.]+)\"\)", re.MULTILINE)


def _declared(name: str) -> dict[str, int] | None:
    """A handler module's API_KEY / MIN_VERSION / MAX_VERSION [/ ADVERTISED_MIN_VERSION], read from
    its source without importing it; None if the source cannot be read or lacks one of them.
    The module's logger is made now (BROKER_LOGGER lists it and can set its level before the
    API's first request, as when every handler was imported at start)."""
    try:
        with open(os.path.join(os.path.dirname(__file__), name + ".py"), encoding="utf-8") as f:
            source = f.read()
    except OSError:
        return None
    found = dict((k, int(v)) for k, v in _DECLARATION.findall(source))
    for logger_name in _LOGGER.findall(source):
        logging.getLogger(logger_name)
    return found if {"API_KEY", "MIN_VERSION", "MAX_VERSION"} <= found.keys() else None


def _entry(name: str, mod: Any) -> HandlerEntry:
    return HandlerEntry(mod.API_KEY, mod.MIN_VERSION, mod.MAX_VERSION, mod.handle, name,
                        getattr(mod, "ADVERTISED_MIN_VERSION", mod.MIN_VERSION))


def _first_call(name: str, api_key: int) -> Callable:
    """The ``handle`` of a handler not imported yet: imports it, puts its entry in ``REGISTRY``
    in place of this one (later requests call the handler directly) unless the entry was
    replaced meanwhile (a test wrapping it: the wrapper keeps calling this), and answers."""
    real: Callable | None = None

    def handle(ctx: RequestContext, request: Any) -> Any:
        nonlocal real
        if real is None:
            entry = _entry(name, importlib.import_module(f"kwire.handlers.{name}"))
            current = REGISTRY.get(api_key)
            if current is not None and current.handle is handle:
                REGISTRY[api_key] = entry
            real = entry.handle
        return real(ctx, request)

    return handle


def _load() -> dict[int, HandlerEntry]:
    """Every handler's entry. A handler module (and the generated codec modules, coordinators and
    so on that it imports) is imported at its API's first request, not here: a broker serves a
    handful of the 65 APIs, and importing them all was a fifth of a ``kwire serve`` start's CPU.
    The version ranges come from the modules' sources (``_declared``); a module whose source
    cannot be read that way is imported now. Each handler's logger is made here all the same,
    so that BROKER_LOGGER (DescribeConfigs, IncrementalAlterConfigs) lists it and sets its
    level before the API's first request, as it did when every handler was imported."""
    reg: dict[int, HandlerEntry] = {}
    for name in MODULES:
        d = _declared(name)
        if d is None:
            entry = _entry(name, importlib.import_module(f"kwire.handlers.{name}"))
        else:
            key = d["API_KEY"]
            entry = HandlerEntry(key, d["MIN_VERSION"], d["MAX_VERSION"], _first_call(name, key), name,
                                 d.get("ADVERTISED_MIN_VERSION", d["MIN_VERSION"]))
        reg[entry.api_key] = entry
    return reg


REGISTRY: dict[int, HandlerEntry] = _load()
