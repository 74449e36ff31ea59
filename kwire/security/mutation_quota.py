"""Controller mutation quota (KIP-599): partitions created or deleted per second.

A ``controller_mutation_rate`` client quota (user / client-id entities, the
precedence of ``kwire.security.client_quotas``) bounds how many partitions a
client may create (CreateTopics, CreatePartitions) or delete (DeleteTopics)
per second. As Kafka's ``ControllerMutationQuotaManager`` it is a token
bucket per matched entity: the bucket holds at most ``rate *
controller.quota.window.num * controller.quota.window.size.seconds`` tokens
(it starts full) and refills at ``rate`` tokens per second; each topic takes
its partition count.

Per request a handler asks ``for_request(ctx, strict_since)`` and calls
``record(partitions)`` for each topic it is about to change, after the topic's
own checks passed and never for ``validate_only``:

* strict (CreateTopics v6+, CreatePartitions v3+, DeleteTopics v5+): when the
  bucket is already below zero the topic is refused (``KafkaError``
  THROTTLING_QUOTA_EXCEEDED, "The throttling quota has been exceeded.") and
  nothing is taken; otherwise the topic is accepted even if it takes the
  bucket below zero (so one request larger than the burst still goes
  through, as Kafka's). The throttle time is Kafka's ``-tokens / rate``,
  reported (less the time since) only if a topic was refused;
* permissive (older versions, whose clients cannot retry the error): the
  topic is always accepted, and once the bucket is below zero the response
  is throttled.

``throttle_time_ms()`` is what the handler puts in ``throttle_time_ms``; the
server mutes the connection that long (``kwire.security.request_quotas``).
Without a ``controller_mutation_rate`` for the client ``for_request``
returns ``UNBOUNDED``, which records nothing.

Pure apart from reading the monotonic clock; no I/O.
"""

from __future__ import annotations

from time import monotonic

from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security.client_quotas import CONTROLLER_MUTATION_RATE

MESSAGE = "The throttling quota has been exceeded."  # Kafka's Errors.THROTTLING_QUOTA_EXCEEDED


class TokenBucket:
    """Kafka's ``TokenBucket`` stat: starts full, refills at ``rate`` up to ``burst``."""

    __slots__ = ("tokens", "last")

    def __init__(self) -> None:
        self.tokens: float | None = None
        self.last = 0.0

    def refill(self, rate: float, burst: float, now: float) -> float:
        if self.tokens is None:
            self.tokens = burst
        else:
            self.tokens = min(burst, self.tokens + rate * (now - self.last))
        self.last = now
        return self.tokens

    def take(self, n: float, rate: float, burst: float, now: float) -> None:
        self.tokens = min(burst, self.refill(rate, burst, now) - n)


class _Unbounded:
    def record(self, partitions: int) -> None:
        pass

    def throttle_time_ms(self) -> int:
        return 0


UNBOUNDED = _Unbounded()


class MutationQuota:
    def __init__(self, bucket: TokenBucket, rate: float, burst: float, strict: bool) -> None:
        self.bucket, self.rate, self.burst, self.strict = bucket, rate, burst, strict
        self._throttle_ms = 0
        self._at = 0.0

    def record(self, partitions: int) -> None:
        """Take ``partitions`` tokens, or (strict, bucket exhausted) raise THROTTLING_QUOTA_EXCEEDED."""
        now = monotonic()
        b = self.bucket
        if self.strict:
            tokens = b.refill(self.rate, self.burst, now)
            if tokens < 0:
                self._violated(tokens, now)
                raise KafkaError(ErrorCode.THROTTLING_QUOTA_EXCEEDED, MESSAGE)
            b.take(partitions, self.rate, self.burst, now)
        else:
            b.take(partitions, self.rate, self.burst, now)
            if b.tokens < 0:
                self._violated(b.tokens, now)

    def _violated(self, tokens: float, now: float) -> None:
        self._throttle_ms = round(-tokens / self.rate * 1000)
        self._at = now

    def throttle_time_ms(self) -> int:
        """The throttle time less the time since it was measured (the answer may come later)."""
        if not self._throttle_ms:
            return 0
        return max(0, int(self._throttle_ms - (monotonic() - self._at) * 1000))


def for_request(ctx, strict_since: int):
    """The quota of the request's user and client id: ``UNBOUNDED`` without one."""
    security = getattr(ctx.broker, "security", None)
    quotas = getattr(security, "client_quotas", None)
    if quotas is None or not quotas.table:
        return UNBOUNDED
    user = ctx.session.principal.name if ctx.session is not None else None
    rate, sensor = quotas.quota(CONTROLLER_MUTATION_RATE, user, ctx.client_id)
    if rate is None:
        return UNBOUNDED
    bucket = quotas.buckets.get(sensor)
    if bucket is None:
        bucket = quotas.buckets[sensor] = TokenBucket()
    burst = rate * quotas.controller_window_num * quotas.controller_window_s
    return MutationQuota(bucket, rate, burst, ctx.api_version >= strict_since)
