"""Connection limits: ``max.connections``, ``max.connections.per.ip`` (+ overrides).

Kafka's ``ConnectionQuotas``, for the listeners of one broker:

* ``max.connections`` bounds the connections of the broker. At the limit the
  acceptor stops accepting until a connection closes (Kafka's
  ``waitForConnectionSlot``): new clients wait in the listen backlog
  (``socket.listen.backlog.size``) instead of being turned away, and get in
  as soon as a slot frees.
* ``max.connections.per.ip`` bounds the connections from one address, and
  ``max.connections.per.ip.overrides`` (``host:count,host:count``; a host name
  is resolved when the value is first used) sets it per address. A connection
  over its address's limit is accepted and closed at once (Kafka's
  ``TooManyConnectionsException``).

Both are read from the config on every accept, so a dynamic change applies to
the next connection (existing connections stay). Refusals are logged at WARN at
most once per ``LOG_INTERVAL_S``, with the count since the last line, so a
client stuck in a reconnect loop cannot flood the log.

Connection creation rates (``max.connection.creation.rate``, per-IP
``connection_creation_rate``, KIP-612) are ``kwire.security.connection_quotas``.

Not done: per-listener ``listener.name.<l>.max.connections``, the protected
inter-broker listener, and closing the least recently used connection when the broker is over its
limit after a dynamic decrease (existing connections are kept).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import time

log = logging.getLogger("kwire.server")

LOG_INTERVAL_S = 10.0


class RateLimitedLog:
    """One WARN line per interval, counting the events since the last line."""

    def __init__(self, what: str, interval_s: float = LOG_INTERVAL_S) -> None:
        self.what = what
        self.interval_s = interval_s
        self.count = 0
        self.last = ""
        self._logged_at = float("-inf")

    def note(self, detail: str) -> None:
        self.count += 1
        self.last = detail
        if time.monotonic() - self._logged_at >= self.interval_s:
            self.flush()

    def flush(self) -> None:
        if self.count:
            log.warning("%s: %d in the last %.0f s (latest: %s)", self.what, self.count,
                        self.interval_s, self.last)
            self.count = 0
            self._logged_at = time.monotonic()


def _canonical(host: str) -> str:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).compressed
    except ValueError:
        return host


def parse_overrides(text: str) -> dict[str, int]:
    """``"host:count,host:count"`` -> {address: count}; host names resolve to all their addresses.

    Raises ValueError for an entry without a count (IPv6 addresses may be
    bracketed: ``[::1]:5``).
    """
    out: dict[str, int] = {}
    for entry in (text or "").split(","):
        entry = entry.strip()
        if not entry:
            continue
        host, sep, count = entry.rpartition(":")
        if not sep or not host:
            raise ValueError(f"bad max.connections.per.ip.overrides entry {entry!r}")
        limit = int(count)
        host = host.strip("[]")
        try:
            addrs = {_canonical(host)} if _is_ip(host) else {
                _canonical(info[4][0]) for info in socket.getaddrinfo(host, None)}
        except OSError as e:
            raise ValueError(f"cannot resolve {host!r} in max.connections.per.ip.overrides: {e}")
        for a in addrs:
            out[a] = limit
    return out


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
        return True
    except ValueError:
        return False


class ConnectionQuotas:
    def __init__(self, config) -> None:
        self.config = config
        self.counts: dict[str, int] = {}
        self.total = 0
        self._overrides_text: str | None = None
        self._overrides: dict[str, int] = {}
        self.refused = RateLimitedLog("connections refused (max.connections.per.ip)")
        self.blocked = RateLimitedLog("accepting paused at max.connections")
        self.on_slot_free = None  # set by the server: wakes an acceptor waiting for a slot

    def _overrides_for(self) -> dict[str, int]:
        text = self.config["max.connections.per.ip.overrides"] or ""
        if text != self._overrides_text:
            self._overrides_text = text
            try:
                self._overrides = parse_overrides(text)
            except ValueError as e:
                log.error("ignoring max.connections.per.ip.overrides: %s", e)
                self._overrides = {}
        return self._overrides

    def max_connections(self) -> int:
        return self.config["max.connections"]

    def slot_available(self) -> bool:
        return self.total < self.config["max.connections"]

    def max_for(self, host: str) -> int:
        overrides = self._overrides_for()
        if overrides:
            limit = overrides.get(_canonical(host))
            if limit is not None:
                return limit
        return self.config["max.connections.per.ip"]

    def admit(self, host: str) -> bool:
        """Count a new connection from ``host``; False (nothing counted) if over its limit."""
        count = self.counts.get(host, 0)
        limit = self.max_for(host)
        if count >= limit:
            self.refused.note(f"{host} already has {count} connection(s), its limit is {limit}")
            return False
        self.counts[host] = count + 1
        self.total += 1
        return True

    def release(self, host: str) -> None:
        count = self.counts.get(host, 0)
        if count <= 1:
            self.counts.pop(host, None)
        else:
            self.counts[host] = count - 1
        self.total -= 1
        if self.on_slot_free is not None and self.total < self.config["max.connections"]:
            self.on_slot_free()
