"""The client quotas a response carries: byte rates, request time, controller mutations.

``throttle_ms(quotas, session, ctx, request, response, cost_s)`` is what the
server asks once per response, and only while the quota table is non-empty
(an empty table costs the server one truth test per request). It records,
against the quota that applies to the session's user and the request's
client id (``kwire.security.client_quotas``), and answers the largest
throttle time in ms, which the server puts in ``throttle_time_ms`` and mutes
the connection for (KIP-219), as Kafka's ``KafkaApis`` takes the maximum of
the bandwidth, request and controller-mutation throttles:

* ``producer_byte_rate``: the record bytes of a Produce request;
* ``consumer_byte_rate``: the record bytes of a Fetch response (not a
  follower's fetch: replication is not a client);
* ``request_percentage`` (KIP-124): ``cost_s``, the seconds the request took
  on the event loop (decoding, the handler and, for a handler that waits,
  each step of its coroutine, timed by ``Timed``), recorded as
  ``cost_s * 100`` percent-seconds, so the windowed rate is the percentage of
  one thread the client uses. kwire has one event loop where Kafka has
  ``num.io.threads`` + ``num.network.threads``; a quota of 100 is the whole
  loop. As Kafka's ``ClientRequestQuotaManager`` the throttle is capped at
  one ``quota.window.size.seconds``. Exempt (Kafka's cluster actions and what
  its authenticator handles before ``KafkaApis``): SaslHandshake,
  SaslAuthenticate, ApiVersions during SASL authentication, WriteTxnMarkers
  and followers' Fetch;
* ``controller_mutation_rate`` (KIP-599): CreateTopics, CreatePartitions and
  DeleteTopics set their own ``throttle_time_ms`` from their token bucket
  (``kwire.security.mutation_quota``); it is taken into the maximum here so
  the connection is muted for it too.

Not done: the response's encoding time (Kafka's network-thread time) is not
counted; ``num.io.threads``-based scaling; the exempt-request-time metric.
"""

from __future__ import annotations

from time import monotonic, perf_counter

from kwire.security.client_quotas import CONSUMER_BYTE_RATE, PRODUCER_BYTE_RATE, REQUEST_PERCENTAGE

PRODUCE, FETCH, API_VERSIONS, SASL_HANDSHAKE, SASL_AUTHENTICATE = 0, 1, 18, 17, 36
WRITE_TXN_MARKERS = 27
CONTROLLER_MUTATIONS = frozenset((19, 20, 37))  # CreateTopics, DeleteTopics, CreatePartitions
_EXEMPT = frozenset((SASL_HANDSHAKE, SASL_AUTHENTICATE, WRITE_TXN_MARKERS))


def _follower_fetch(request) -> bool:
    if request.replica_id >= 0:
        return True
    state = request.replica_state
    return state is not None and state.replica_id >= 0


def exempt(session, api_key: int, request) -> bool:
    """Not subject to ``request_percentage``."""
    if api_key in _EXEMPT:
        return True
    if api_key == API_VERSIONS:
        return session.state != "complete"
    return api_key == FETCH and _follower_fetch(request)


def throttle_ms(quotas, session, ctx, request, response, cost_s: float | None) -> int:
    user = session.principal.name  # ANONYMOUS on PLAINTEXT: default user quotas apply, as Kafka
    client_id = ctx.client_id
    key = ctx.api_key
    now = monotonic()
    throttle = 0
    if key == PRODUCE:
        n = sum(len(pd.records or b"") for td in request.topic_data for pd in td.partition_data)
        throttle = quotas.record(PRODUCER_BYTE_RATE, user, client_id, n, now)
    elif key == FETCH and not _follower_fetch(request):
        n = sum(len(p.records or b"") for t in response.responses for p in t.partitions)
        throttle = quotas.record(CONSUMER_BYTE_RATE, user, client_id, n, now)
    if cost_s is not None and not exempt(session, key, request):
        t = quotas.record(REQUEST_PERCENTAGE, user, client_id, cost_s * 100.0, now,
                          max_throttle_s=quotas.window_s)
        if t > throttle:
            throttle = t
    if key in CONTROLLER_MUTATIONS:
        t = getattr(response, "throttle_time_ms", 0) or 0
        if t > throttle:
            throttle = t
    return throttle


class Timed:
    """Await a handler's coroutine, adding up the time each of its steps runs on the loop.

    The time spent waiting between steps (for followers, a long poll, the
    metadata log) is not counted: Kafka counts a request's time on its
    threads, not the time it sits in a purgatory.
    """

    __slots__ = ("awaitable", "spent")

    def __init__(self, awaitable) -> None:
        self.awaitable = awaitable
        self.spent = 0.0

    def __await__(self):
        it = self.awaitable
        it = it if hasattr(it, "send") else it.__await__()
        value = exc = None
        while True:
            t = perf_counter()
            try:
                yielded = it.send(value) if exc is None else it.throw(exc)
            except StopIteration as e:  # the handler's result
                self.spent += perf_counter() - t
                return e.value
            except BaseException:
                self.spent += perf_counter() - t
                raise
            self.spent += perf_counter() - t
            value = exc = None
            try:
                value = yield yielded
            except GeneratorExit:
                it.close()
                raise
            except BaseException as e:  # cancellation: handed to the handler's coroutine
                exc = e
