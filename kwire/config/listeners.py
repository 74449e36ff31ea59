"""Listener URIs (``listeners``, ``advertised.listeners``) and ``listener.security.protocol.map``.

What it does
------------
``parse_listeners`` reads Kafka's ``NAME://host:port`` grammar (``[::1]`` for IPv6,
an empty host for all interfaces) into ``Listener`` tuples and applies Kafka's
uniqueness rules; it is also the validator of both listener configs.
``_parse_protocol_map`` reads ``LISTENER_NAME:SECURITY_PROTOCOL`` pairs.
``http_listeners`` reads where an HTTP endpoint (metrics, console, Schema Registry) listens:
``<prefix>.listeners`` (``HTTP://host:port,...``) or, when that is unset, ``<prefix>.port``
(``127.0.0.1:<port>``); an empty list means the endpoint is off. It lives here, not beside the
HTTP server (``kwire.metrics.http``), so that a broker without those endpoints never imports
``http.server``.

It is a module of its own, rather than part of ``broker``, because the config
tables in ``definitions`` use ``parse_listeners`` as a validator while
``broker`` needs those tables: this keeps the imports acyclic.

What it deliberately does not do
--------------------------------
* An empty host stays ``""``: binding to all interfaces and advertising the
  canonical host name are I/O, done by ``kwire.server``.
* No ``listener.name.<name>.*`` prefixed configs and no check that a security
  protocol is one kwire can serve (``BrokerConfig`` checks that every listener
  has a protocol).

Invariants
----------
* Listener names are upper-cased and unique; ports are 0..65535 and unique
  unless one listener is IPv4 and the other IPv6 (port 0 may repeat).
* ``advertised.listeners`` never holds 0.0.0.0 or ``::``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .types import _invalid


class Listener(NamedTuple):
    name: str  # upper-cased listener name, e.g. "PLAINTEXT"
    host: str  # "" = all interfaces (bind) / canonical host name (advertise); IPv6 without brackets
    port: int


_LISTENER_RE = re.compile(r"^(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?[0-9]+)\Z")
_IPV4_RE = re.compile(r"[0-9]{1,3}(\.[0-9]{1,3}){3}\Z")


def parse_listeners(value: str | list[str], config_name: str = "listeners") -> list[Listener]:
    """Parse ``NAME://host:port`` URIs (Kafka's listener grammar) and check uniqueness.

    Names are upper-cased and must be unique; ports must be unique unless one listener is
    IPv4 and the other IPv6 (port 0, an ephemeral port, may repeat; kwire's tests use it).
    ``advertised.listeners`` may repeat ports and may not use 0.0.0.0 or ``::``.
    """
    items = [s.strip() for s in value.split(",")] if isinstance(value, str) else list(value)
    out: list[Listener] = []
    for item in items:
        m = _LISTENER_RE.match(item)
        port = int(m.group(3)) if m else -1
        if not m or not 0 <= port <= 65535 or not m.group(1):
            raise _invalid(config_name, item, "expected NAME://host:port with a port from 0 to 65535")
        out.append(Listener(m.group(1).upper(), m.group(2), port))
    if not out:
        raise _invalid(config_name, ",".join(items), "At least one listener is required")
    names = [listener.name for listener in out]
    if len(set(names)) != len(names):
        raise _invalid(config_name, ",".join(items), "Each listener must have a different name")
    if config_name == "advertised.listeners":
        for listener in out:
            if listener.host in ("0.0.0.0", "::"):
                raise _invalid(config_name, ",".join(items),
                               f"{listener.name} advertises the non-routable address "
                               f"{listener.host}; use a routable address")
        return out
    for i, a in enumerate(out):
        for b in out[i + 1:]:
            if a.port == b.port and a.port != 0 and _ip_family(a.host) in (None, _ip_family(b.host)):
                raise _invalid(config_name, ",".join(items),
                               "Each listener must have a different port unless exactly one "
                               "listener has an IPv4 address and the other an IPv6 address")
    return out


def _ip_family(host: str) -> int | None:
    if _IPV4_RE.match(host):
        return 4
    if ":" in host:
        return 6
    return None  # host name or "": conflicts with anything on the same port


def _parse_protocol_map(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        name, sep, proto = item.partition(":")
        if not sep or not name.strip() or not proto.strip():
            raise _invalid("listener.security.protocol.map", text, f"malformed entry {item!r}")
        if name.strip().upper() in out:
            raise _invalid("listener.security.protocol.map", text,
                           f"listener {name.strip()} appears more than once")
        out[name.strip().upper()] = proto.strip().upper()
    return out


def http_listeners(config, prefix: str) -> list[tuple[str, int]]:
    """(host, port) of each listener of the HTTP endpoint ``prefix``; [] when it is off."""
    listeners = config.get(f"{prefix}.listeners")
    if listeners:
        return [(lst.host, lst.port) for lst in parse_listeners(listeners, f"{prefix}.listeners")]
    port = config.get(f"{prefix}.port")
    if port is None or port < 0:
        return []
    return [("127.0.0.1", port)]
