"""Client quotas (KIP-13, KIP-55, KIP-546): produce/fetch byte rates per user / client-id.

Quotas live in the metadata image (``image.client_quotas``: entity -> {key:
value}); an entity is a sorted tuple of (entity type, name) pairs, name None
for the default (``<default>``). ``QuotaConfig.lookup`` finds the quota that
applies to a (user, client-id) pair in Kafka's precedence order::

    user+client, user+default client, user, default user+client,
    default user+default client, default user, client, default client

``ClientQuotas`` keeps, per quota kind and per matched entity (defaults
filled with the actual user / client id, so a default quota applies to each
one separately, as Kafka's), a rate over ``quota.window.num`` windows of
``quota.window.size.seconds``; ``record(kind, user, client_id, bytes, now)``
adds the bytes and returns the throttle time in ms, Kafka's
``(rate - quota) / quota * window``. The server puts it in the response's
``throttle_time_ms`` and stops reading from that connection for as long
(KIP-219). The same rates measure ``request_percentage`` (KIP-124: the
seconds of event-loop time a client's requests take, as a percentage of one
thread, throttle capped at one window as Kafka's ClientRequestQuotaManager;
``kwire.security.request_quotas``). ``controller_mutation_rate`` (KIP-599) is
a token bucket instead (``kwire.security.mutation_quota``), and the per-IP
``connection_creation_rate`` (KIP-612) is ``kwire.security.connection_quotas``'.

Pure: no I/O, time is passed in.
"""

from __future__ import annotations

PRODUCER_BYTE_RATE, CONSUMER_BYTE_RATE = "producer_byte_rate", "consumer_byte_rate"
REQUEST_PERCENTAGE, CONTROLLER_MUTATION_RATE = "request_percentage", "controller_mutation_rate"
CONNECTION_CREATION_RATE = "connection_creation_rate"
# Kafka's QuotaConfig keys by entity type
KEYS = {"user": {"producer_byte_rate", "consumer_byte_rate", "request_percentage", "controller_mutation_rate"},
        "client-id": {"producer_byte_rate", "consumer_byte_rate", "request_percentage",
                      "controller_mutation_rate"},
        "ip": {"connection_creation_rate"}}
INTEGER_KEYS = {"producer_byte_rate", "consumer_byte_rate", "controller_mutation_rate",
                "connection_creation_rate"}


def entity_key(pairs) -> tuple:
    return tuple(sorted((t, n) for t, n in pairs))


def validate(entity: tuple, ops: list[tuple[str, float | None]]) -> str | None:
    """Why Kafka refuses this alteration (INVALID_REQUEST), or None."""
    types = [t for t, _ in entity]
    if not types or len(set(types)) != len(types):
        return "Invalid empty or duplicate quota entity"
    if set(types) - set(KEYS):
        return f"Unknown quota entity type: {sorted(set(types) - set(KEYS))[0]}"
    if "ip" in types and len(types) > 1:
        return "Invalid quota entity combination: ip with user or client-id"
    allowed = set.intersection(*(KEYS[t] for t in types))
    for key, value in ops:
        if key not in allowed:
            return f"Invalid configuration key {key}"
        if value is not None:
            if value <= 0:
                return f"Quota {key} must be greater than 0"
            if key in INTEGER_KEYS and value != int(value):
                return f"Quota {key} must be an integer"
    return None


def candidates(user: str | None, client_id: str | None):
    """Kafka's precedence: the entities whose quota applies, most specific first."""
    u, c = ("user", user), ("client-id", client_id)
    du, dc = ("user", None), ("client-id", None)
    if user is not None:
        yield entity_key([u, c]), (user, client_id)
        yield entity_key([u, dc]), (user, client_id)
        yield entity_key([u]), (user, None)
        yield entity_key([du, c]), (user, client_id)
        yield entity_key([du, dc]), (user, client_id)
        yield entity_key([du]), (user, None)
    yield entity_key([c]), (None, client_id)
    yield entity_key([dc]), (None, client_id)


class Rate:
    """Kafka's windowed ``Rate``: up to ``window_num`` windows of ``window_s``, each opened
    by the first value recorded after the previous one ended."""

    __slots__ = ("starts", "totals")

    def __init__(self) -> None:
        self.starts: list[float] = []
        self.totals: list[float] = []

    def record(self, value: float, now: float, window_num: int, window_s: float) -> None:
        if not self.starts or now - self.starts[-1] >= window_s:
            self.starts.append(now)
            self.totals.append(0.0)
            if len(self.starts) > window_num:
                del self.starts[0], self.totals[0]
        self.totals[-1] += value

    def throttle_s(self, bound: float, now: float, window_num: int, window_s: float) -> float:
        """Kafka's ``QuotaUtils.throttleTime``: ``(rate - bound) / bound * window``, 0 within bound.

        The window is the time since the oldest window opened, at least (num - 1) whole windows.
        """
        if not self.starts:
            return 0.0
        elapsed = max(now - self.starts[0], (window_num - 1) * window_s)
        rate = sum(self.totals) / elapsed
        if rate <= bound:
            return 0.0
        return (rate - bound) / bound * elapsed


class ClientQuotas:
    def __init__(self, table: dict, window_num: int = 11, window_s: float = 1.0,
                 controller_window_num: int = 11, controller_window_s: float = 1.0) -> None:
        self.table = table  # the image's client_quotas (kept current by replay)
        self.window_num = max(window_num, 2)
        self.window_s = window_s
        # KIP-599 token buckets (kwire.security.mutation_quota): controller.quota.window.*
        self.controller_window_num = controller_window_num
        self.controller_window_s = controller_window_s
        self._rates: dict[tuple, Rate] = {}
        self._candidates: dict[tuple, tuple] = {}
        self.buckets: dict[tuple, object] = {}

    def quota(self, key: str, user: str | None, client_id: str | None):
        cands = self._candidates.get((user, client_id))
        if cands is None:  # (the entities to look up, per user and client id, are kept: a request's
            if len(self._candidates) >= 10_000:  # lookup is then a few dict probes, no sorting)
                self._candidates.clear()
            cands = self._candidates[(user, client_id)] = tuple(candidates(user, client_id))
        for entity, sensor in cands:
            q = self.table.get(entity)
            if q is not None and key in q:
                return q[key], sensor
        return None, None

    def record(self, key: str, user: str | None, client_id: str | None, nbytes: float, now: float,
               max_throttle_s: float | None = None) -> int:
        """Add ``nbytes`` (or, for ``request_percentage``, percent-seconds) to the rate behind the
        applicable quota: the throttle time in ms (0: none), at most ``max_throttle_s``
        (default: the whole ``window_num`` windows)."""
        if not self.table:
            return 0
        bound, sensor = self.quota(key, user, client_id)
        if bound is None:
            return 0
        r = self._rates.get((key, sensor))
        if r is None:
            r = self._rates[(key, sensor)] = Rate()
        r.record(nbytes, now, self.window_num, self.window_s)
        throttle_s = r.throttle_s(bound, now, self.window_num, self.window_s)
        if throttle_s <= 0:
            return 0
        cap = self.window_num * self.window_s if max_throttle_s is None else max_throttle_s
        return int(min(throttle_s, cap) * 1000)
