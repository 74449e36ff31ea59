"""Request, controller-mutation and connection-creation quotas without a server.

``kwire.security.request_quotas`` (exemptions, the request-time throttle cap,
``Timed``), ``kwire.security.mutation_quota`` (Kafka's token bucket, strict and
permissive) and ``kwire.security.connection_quotas`` (broker / listener / ip
connection rates, un-recording of a throttled ip connection).
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from kwire.config import BrokerConfig
from kwire.protocol.errors import ErrorCode, KafkaError
from kwire.security.client_quotas import ClientQuotas, entity_key
from kwire.security.connection_quotas import ConnectionRates
from kwire.security.mutation_quota import UNBOUNDED, MutationQuota, TokenBucket, for_request
from kwire.security.request_quotas import Timed, exempt, throttle_ms


def test_request_percentage_is_percent_of_a_thread_capped_at_one_window():
    q = ClientQuotas({entity_key([("client-id", "c")]): {"request_percentage": 10}}, window_num=2)
    session = SimpleNamespace(principal=SimpleNamespace(name="ANONYMOUS"), state="complete")
    ctx = SimpleNamespace(api_key=3, client_id="c")
    resp = SimpleNamespace(throttle_time_ms=0)
    assert throttle_ms(q, session, ctx, None, resp, 0.05) == 0  # 5 % of the 1 s minimum window
    assert throttle_ms(q, session, ctx, None, resp, 0.10) == 500  # 15 %: (15 - 10) / 10 * 1 s
    assert throttle_ms(q, session, ctx, None, resp, 5.0) == 1000  # capped at quota.window.size.seconds
    other = SimpleNamespace(api_key=3, client_id="other")
    assert throttle_ms(q, session, other, None, resp, 5.0) == 0


def test_exempt_requests():
    done, sasl = SimpleNamespace(state="complete"), SimpleNamespace(state="handshake")
    fetch = SimpleNamespace(replica_id=-1, replica_state=SimpleNamespace(replica_id=-1))
    follower = SimpleNamespace(replica_id=-1, replica_state=SimpleNamespace(replica_id=2))
    assert exempt(done, 17, None) and exempt(done, 36, None) and exempt(done, 27, None)
    assert exempt(sasl, 18, None) and not exempt(done, 18, None)
    assert exempt(done, 1, follower) and not exempt(done, 1, fetch)
    assert not exempt(done, 0, None)


def test_token_bucket_strict_accepts_the_first_request_over_the_burst():
    b = TokenBucket()
    strict = MutationQuota(b, rate=1.0, burst=2.0, strict=True)
    strict.record(5)  # the bucket was full (2): accepted, now -3
    assert strict.throttle_time_ms() == 0  # strict: no throttle without a refusal
    with pytest.raises(KafkaError) as e:
        strict.record(1)
    assert e.value.code == ErrorCode.THROTTLING_QUOTA_EXCEEDED
    assert 2900 <= strict.throttle_time_ms() <= 3000  # -tokens / rate
    permissive = MutationQuota(b, rate=1.0, burst=2.0, strict=False)
    permissive.record(1)  # accepted, throttled
    assert permissive.throttle_time_ms() > 3000
    assert UNBOUNDED.throttle_time_ms() == 0


def test_mutation_quota_for_request_uses_the_client_quota_and_version():
    q = ClientQuotas({entity_key([("client-id", "c")]): {"controller_mutation_rate": 2}},
                     controller_window_num=3, controller_window_s=1.0)
    broker = SimpleNamespace(security=SimpleNamespace(client_quotas=q))
    ctx = SimpleNamespace(broker=broker, session=None, client_id="c", api_version=6)
    m = for_request(ctx, 6)
    assert m.strict and m.rate == 2 and m.burst == 6
    assert not for_request(SimpleNamespace(broker=broker, session=None, client_id="c", api_version=5), 6).strict
    assert for_request(SimpleNamespace(broker=broker, session=None, client_id="x", api_version=6), 6) is UNBOUNDED


def test_timed_counts_only_the_coroutine_steps():
    async def handler():
        await asyncio.sleep(0.2)  # waiting: not counted
        return "done"

    async def main():
        t = Timed(handler())
        return await t, t.spent

    result, spent = asyncio.run(main())
    assert result == "done" and spent < 0.1


def test_timed_passes_exceptions_and_cancellation_through():
    async def failing():
        await asyncio.sleep(0)
        raise ValueError("x")

    async def waiting():
        await asyncio.sleep(10)

    async def _wrap(coro):
        return await Timed(coro)

    async def main():
        with pytest.raises(ValueError):
            await Timed(failing())
        task = asyncio.ensure_future(_wrap(waiting()))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


def _rates(**cfg) -> ConnectionRates:
    base = {"quota.window.num": "2", "quota.window.size.seconds": "1"}
    return ConnectionRates(BrokerConfig.load(None, {**base, **cfg}))


def test_broker_and_listener_connection_rates_delay_accepting():
    r = _rates(**{"max.connection.creation.rate": "2"})
    assert [r.listener_delay_s("PLAINTEXT", 0.0) for _ in range(2)] == [0.0, 0.0]
    assert r.listener_delay_s("PLAINTEXT", 0.0) == pytest.approx(0.5)  # 3/s against 2/s over 1 s
    r = _rates(**{"listener.name.plaintext.max.connection.creation.rate": "1"})
    assert r.listener_delay_s("PLAINTEXT", 0.0) == 0.0
    assert r.listener_delay_s("PLAINTEXT", 0.0) == pytest.approx(1.0)
    assert r.listener_delay_s("OTHER", 0.0) == 0.0  # another listener: its own (unlimited) rate
    assert _rates().listener_delay_s("PLAINTEXT", 0.0) == 0.0


def test_ip_connection_rate_unrecords_throttled_connections():
    table = {entity_key([("ip", "10.0.0.1")]): {"connection_creation_rate": 1},
             entity_key([("ip", None)]): {"connection_creation_rate": 100}}
    r = _rates(**{"max.connection.creation.rate": "1000"})
    r.table = table
    assert r.ip_limit("10.0.0.1") == 1 and r.ip_limit("10.0.0.2") == 100

    def connect(now: float) -> float:  # as the acceptor: the broker / listener rate first
        assert r.listener_delay_s("PLAINTEXT", now) == 0.0
        return r.ip_delay_s("PLAINTEXT", "10.0.0.1", now)

    assert connect(0.0) == 0.0
    assert connect(0.1) == pytest.approx(1.0)
    assert connect(0.2) == pytest.approx(1.0)
    assert sum(r._ips["10.0.0.1"].totals) == 1  # the throttled ones were un-recorded ...
    assert sum(r._broker.totals) == 1  # ... on the broker rate too
    assert connect(2.5) == 0.0  # a window later: accepted again
