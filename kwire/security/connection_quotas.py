"""Connection creation rate quotas (KIP-612), as Kafka's ``ConnectionQuotas``.

Three rates of new connections per second, each measured like Kafka's
(``kwire.security.client_quotas.Rate`` over ``quota.window.num`` windows of
``quota.window.size.seconds``; a throttle is at most one window):

* broker-wide ``max.connection.creation.rate`` (dynamic, cluster-wide;
  default 2147483647: off) and per listener
  ``listener.name.<listener>.max.connection.creation.rate``. Every accepted
  connection is recorded on both; when either is over its bound,
  ``listener_delay_s`` answers the time to wait, and the acceptor waits that
  long before it hands the connection over and accepts the next (Kafka's
  ``waitForConnectionSlot``): clients are slowed, not refused. The
  inter-broker listener (``inter.broker.listener.name``, when the broker has
  more than one listener) is not counted in the broker-wide rate;
* per IP, the ``connection_creation_rate`` client quota of entity type
  ``ip`` (the address's own, else the ``<default>`` ip entity; none: off).
  A connection over it is not counted on any rate (Kafka un-records it) and
  ``ip_delay_s`` answers the throttle time: the acceptor never reads from
  that connection and closes it once the time is up (Kafka's
  ``ConnectionThrottledException`` and delayed close).

Pure: the configuration and the quota table are read on every call (so
dynamic changes apply to the next connection), time is passed in, no I/O.
The default ``max.connection.creation.rate`` and no ip quota cost one
comparison and one dict scan of the (usually empty) quota table per accept.
"""

from __future__ import annotations

from kwire.security.client_quotas import CONNECTION_CREATION_RATE, Rate

UNLIMITED = 2**31 - 1  # Kafka's Int.MaxValue: no quota
_LISTENER_KEY = "listener.name.{}.max.connection.creation.rate"


class ConnectionRates:
    def __init__(self, config, table: dict | None = None) -> None:
        self.config = config
        self.extra = getattr(config, "extra", {}) or {}
        self.table = table if table is not None else {}  # the image's client_quotas
        self.window_num = max(config["quota.window.num"], 2)
        self.window_s = float(config["quota.window.size.seconds"])
        self._broker = Rate()
        self._listeners: dict[str, Rate] = {}
        self._ips: dict[str, Rate] = {}
        self._n_listeners = len(getattr(config, "listeners", []) or [])

    # -- listener and broker ----------------------------------------------------------
    def listener_limit(self, listener: str) -> int:
        raw = self.extra.get(_LISTENER_KEY.format(listener.lower()))
        return int(raw) if raw is not None else UNLIMITED

    def _protected(self, listener: str) -> bool:
        ibl = self.config.get("inter.broker.listener.name")
        return ibl is not None and ibl.upper() == listener.upper() and self._n_listeners > 1

    def listener_delay_s(self, listener: str, now: float) -> float:
        """Record one new connection on ``listener``: the seconds the acceptor must wait (0: none)."""
        broker_limit = self.config["max.connection.creation.rate"]
        listener_limit = self.listener_limit(listener)
        delay = 0.0
        if broker_limit < UNLIMITED and not self._protected(listener):
            delay = self._record(self._broker, broker_limit, now)
        if listener_limit < UNLIMITED:
            r = self._listeners.get(listener)
            if r is None:
                r = self._listeners[listener] = Rate()
            delay = max(delay, self._record(r, listener_limit, now))
        return delay

    # -- per IP ------------------------------------------------------------------------
    def ip_limit(self, host: str) -> float | None:
        table = self.table
        if not table:
            return None
        for entity in ((("ip", host),), (("ip", None),)):
            q = table.get(entity)
            if q is not None and CONNECTION_CREATION_RATE in q:
                return q[CONNECTION_CREATION_RATE]
        return None

    def ip_delay_s(self, listener: str, host: str, now: float) -> float:
        """Record one new connection from ``host``: 0, or the seconds after which the
        connection is closed unread (it is then not counted anywhere)."""
        limit = self.ip_limit(host)
        if limit is None or limit >= UNLIMITED:
            return 0.0
        r = self._ips.get(host)
        if r is None:
            r = self._ips[host] = Rate()
        delay = self._record(r, limit, now)
        if delay > 0:  # un-record it: the connection is not accepted
            r.record(-1.0, now, self.window_num, self.window_s)
            if self.config["max.connection.creation.rate"] < UNLIMITED and not self._protected(listener):
                self._broker.record(-1.0, now, self.window_num, self.window_s)
            lr = self._listeners.get(listener)
            if lr is not None:
                lr.record(-1.0, now, self.window_num, self.window_s)
        return delay

    def _record(self, rate: Rate, limit: float, now: float) -> float:
        rate.record(1.0, now, self.window_num, self.window_s)
        return min(rate.throttle_s(limit, now, self.window_num, self.window_s), self.window_s)
